#!/usr/bin/env bash
# `npm run quality:passages`: planted copies in English and Chinese, found or not by the
# passage checker (see tests/bench/passages.rs). Extra arguments go to it: --quick.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-common.sh quality:passages "$@"
build_bench passages
cargo bench -q --locked --bench passages -- "$@"
