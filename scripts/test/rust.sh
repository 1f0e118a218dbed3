#!/usr/bin/env bash
# `npm run test:rust`: cargo test (native: unit, integration, property, golden and doc
# tests), the unit tests again without the default features (the browser build's
# configuration), and the golden vectors inside wasm under Node (wasm-pack test --node).
source "$(dirname "$0")/lib.sh"
bash scripts/setup.sh

step "cargo test (native: unit, integration, property, golden, doc tests)"
run cargo.log cargo test --locked
run cargo-nodefault.log cargo test --locked --no-default-features --lib
count_cargo "cargo test" "$log/cargo.log" "$log/cargo-nodefault.log"

step "wasm tests under Node (wasm-pack test --node)"
run wasm.log wasm-pack --log-level warn test --node --release -- --test golden
count_cargo "wasm-pack test --node" "$log/wasm.log"
part_done test:rust
