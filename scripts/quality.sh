#!/usr/bin/env bash
# `npm run quality`: precision/recall per k on the dev corpus (see tests/bench/quality.rs).
# Extra arguments go to it: --sweep (the grid behind the defaults), --json FILE.
set -euo pipefail
cd "$(dirname "$0")/.."
export SIMHASH_DEVCORPUS="${SIMHASH_DEVCORPUS:-$PWD/target/devcorpus}"
rc=0; bash scripts/setup.sh --corpus || rc=$?
if [ "$rc" = 3 ]; then echo "SKIP $(basename "$0" .sh) ${1:-}: the dev corpus cannot be built on this machine"; exit 0; fi
[ "$rc" = 0 ] || exit "$rc"
cargo bench -q --bench quality -- --json www/data/quality.json "$@" 2>/dev/null
