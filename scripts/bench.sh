#!/usr/bin/env bash
# Runs one benchmark: native (cargo bench) and wasm under Node, in one run.
# Usage: scripts/bench.sh fingerprint|index|snapshot [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:?usage: scripts/bench.sh fingerprint|index|snapshot [--quick]}"; shift
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
source scripts/bench-common.sh "bench $what"
bash scripts/build.sh --if-stale
build_bench "$what"
native=$(mktemp); trap 'rm -f "$native"' EXIT
# The native half's own RESULT line is kept, renamed, so the run ends with one RESULT line.
cargo bench -q --locked --bench "$what" -- "$@" | sed 's/^RESULT /native RESULT /' | tee "$native"
node "scripts/bench-$what.mjs" "$native" "$@"
