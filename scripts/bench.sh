#!/usr/bin/env bash
# Runs one benchmark: native (cargo bench) and wasm under Node, in one run.
# Usage: scripts/bench.sh fingerprint|index|snapshot [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:?usage: scripts/bench.sh fingerprint|index|snapshot [--quick]}"; shift
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export SIMHASH_DEVCORPUS="${SIMHASH_DEVCORPUS:-$PWD/target/devcorpus}"
bash scripts/setup.sh --corpus
[ -f pkg/node/simhash_wasm_bg.wasm ] && [ -z "$(find src Cargo.toml pkg-template -newer pkg/node/simhash_wasm_bg.wasm -print -quit)" ] \
  || bash scripts/build.sh
native=$(mktemp)
cargo bench -q --bench "$what" -- "$@" 2>/dev/null | tee "$native"
node "scripts/bench-$what.mjs" "$native" "$@"
rm -f "$native"
