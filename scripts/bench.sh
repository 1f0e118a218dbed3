#!/usr/bin/env bash
# Runs one benchmark: native (cargo bench) and wasm under Node, in one run.
# Usage: scripts/bench.sh fingerprint|index|snapshot [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:?usage: scripts/bench.sh fingerprint|index|snapshot [--quick]}"; shift
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export SIMHASH_DEVCORPUS="${SIMHASH_DEVCORPUS:-$PWD/target/devcorpus}"
rc=0; bash scripts/setup.sh --corpus || rc=$?
if [ "$rc" = 3 ]; then echo "SKIP $(basename "$0" .sh) ${1:-}: the dev corpus cannot be built on this machine"; exit 0; fi
[ "$rc" = 0 ] || exit "$rc"
bash scripts/build.sh --if-stale
native=$(mktemp)
# The native half's own RESULT line is kept, renamed, so the run ends with one RESULT line.
cargo bench -q --bench "$what" -- "$@" 2>/dev/null | sed 's/^RESULT /native RESULT /' | tee "$native"
node "scripts/bench-$what.mjs" "$native" "$@"
rm -f "$native"
