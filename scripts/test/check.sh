#!/usr/bin/env bash
# `npm run check`: the gates, which CI runs first so a style slip is reported in seconds:
# rustfmt, clippy with warnings denied (native with and without the default features,
# wasm32 with and without them: the Node and the browser builds), rustdoc with warnings
# denied, and `cargo check` on the Rust version Cargo.toml's rust-version claims. Every
# gate runs (each into target/test-logs/gate-NAME, with its time), then the part fails if
# any failed. Set-up: the rustup part only (targets, components, that toolchain).
source "$(dirname "$0")/lib.sh"
bash scripts/setup.sh --rust
msrv=$(sed -n 's/^rust-version = "\([0-9.]*\)".*/\1/p' Cargo.toml)

failed_gates=()
# gate NAME CMD...
gate() {
  local name="$1"; shift
  local t0=$SECONDS rc=0
  "$@" > "$log/gate-$name" 2>&1 || rc=$?
  if [ "$rc" != 0 ]; then
    echo "--- gate $name FAILED (exit $rc, $((SECONDS - t0)) s): $*" >&2
    tail -n 80 "$log/gate-$name" >&2
    failed_gates+=("$name")
  else
    echo "gate $name ok ($((SECONDS - t0)) s)"
  fi
}

step "gates: rustfmt, clippy -D warnings, rustdoc -D warnings, rust-version"
gate fmt cargo fmt --check
gate clippy cargo clippy --locked --all-targets -- -D warnings
gate clippy-no-default cargo clippy --locked --all-targets --no-default-features -- -D warnings
gate clippy-wasm32 cargo clippy --locked --all-targets --target wasm32-unknown-unknown -- -D warnings
gate clippy-wasm32-no-default cargo clippy --locked --lib --target wasm32-unknown-unknown --no-default-features -- -D warnings
gate doc env RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps
gate doc-no-default env RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps --no-default-features
gate "rust-$msrv" cargo "+$msrv" check --locked --lib
if [ "${#failed_gates[@]}" != 0 ]; then
  echo "gates failed: ${failed_gates[*]} (logs in $log/gate-*)" >&2
  exit 1
fi
part_done check
