#!/usr/bin/env bash
# `npm run quality`: precision/recall per k on the dev corpus, the crawler flow (fingerprint only
# vs fingerprint + sketch), the verified dedup and the sketch cost (see tools/quality/quality.rs).
# Extra arguments go to it: --sweep (the grid behind the defaults), --json FILE.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-common.sh quality "$@"
build_bench quality
cargo bench -q --locked --bench quality -- --json www/data/quality.json "$@"
