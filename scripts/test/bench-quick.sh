#!/usr/bin/env bash
# `npm run bench:quick`: the quick runs of the benchmarks and the quality tools, each ending
# with its RESULT line. Quality figures (the same on every machine) must stay within their
# bounds in scripts/test/floors.json (checked by floors.mjs); speed figures are shown only,
# their targets checked by the full runs. The dev corpus is built first when missing;
# where it cannot be built, each prints one SKIP line instead.
source "$(dirname "$0")/lib.sh"
bash scripts/setup.sh
build_pkg

step "quick benchmarks and the quality table"
bash scripts/bench.sh fingerprint --quick
floors() { node scripts/test/floors.mjs "$1"; }
node scripts/bench-shared.mjs --quick | floors bench:shared | tail -n 1
bash scripts/quality.sh | floors quality
bash scripts/quality-passages.sh --quick | floors quality:passages | tail -n 1
bash scripts/quality-html.sh --quick | floors quality:html | tail -n 1
bash scripts/bench-dedup.sh --quick | floors bench:dedup | tail -n 1
node scripts/bench-dedup-redis.mjs --quick | tail -n 1
part_done bench:quick
