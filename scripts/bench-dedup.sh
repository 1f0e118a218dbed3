#!/usr/bin/env bash
# npm run bench:dedup [-- --quick]: the main job at 100k, 300k and 1M documents (quick:
# 5k and 20k), against rensa and datasketch at 100k; see scripts/bench-dedup.mjs.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
source scripts/bench-common.sh "bench dedup"
bash scripts/build.sh --if-stale
# The 1M collection is made in memory (about 1.4 GB of text) before it is written.
node --max-old-space-size=6144 scripts/bench-dedup.mjs "$@"
