#!/usr/bin/env bash
# `npm run bench:quick`: the quick runs of the benchmarks and the quality tools, each ending
# with its RESULT line (figures only: their targets are checked by the full runs, and
# nothing here fails on a figure). The dev corpus is built first when missing; where it
# cannot be built, each prints one SKIP line instead.
source "$(dirname "$0")/lib.sh"
bash scripts/setup.sh
build_pkg

step "quick benchmarks and the quality table"
bash scripts/bench.sh fingerprint --quick
node scripts/bench-shared.mjs --quick | tail -n 1
bash scripts/quality.sh
bash scripts/quality-passages.sh --quick | tail -n 1
bash scripts/quality-html.sh --quick | tail -n 1
bash scripts/bench-dedup.sh --quick | tail -n 1
node scripts/bench-dedup-redis.mjs --quick | tail -n 1
part_done bench:quick
