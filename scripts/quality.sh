#!/usr/bin/env bash
# `npm run quality`: precision/recall per k on the dev corpus (see tests/bench/quality.rs).
# Extra arguments go to it: --sweep (the grid behind the defaults), --json FILE.
set -euo pipefail
cd "$(dirname "$0")/.."
export SIMHASH_DEVCORPUS="${SIMHASH_DEVCORPUS:-$PWD/target/devcorpus}"
bash scripts/setup.sh --corpus
cargo bench -q --bench quality -- --json www/data/quality.json "$@" 2>/dev/null
