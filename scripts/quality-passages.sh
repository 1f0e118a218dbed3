#!/usr/bin/env bash
# `npm run quality:passages`: planted copies in English and Chinese, found or not by the
# passage checker (see tools/quality/passages.rs), then the issue's size (200 references of
# 20 kB and a 20 kB submission) in Chromium through the demo's worker
# (scripts/bench-passages-browser.mjs). One RESULT line with the keys of both.
# Extra arguments go to both: --quick.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-common.sh quality:passages "$@"
build_bench passages
out=$(mktemp)
trap 'rm -f "$out"' EXIT
cargo bench -q --locked --bench passages -- "$@" | tee "$out" | grep -v '^RESULT '
result=$(grep '^RESULT ' "$out")
mkdir -p target/bench-logs
bash scripts/build.sh --if-stale > target/bench-logs/build-pkg.log 2>&1 || { cat target/bench-logs/build-pkg.log >&2; exit 1; }
node --no-warnings scripts/bench-passages-browser.mjs "$@" | tee "$out" | grep -v '^BROWSER '
echo "$result $(sed -n 's/^BROWSER //p' "$out")"
