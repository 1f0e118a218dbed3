#!/usr/bin/env bash
# `npm run example:crawlee`: the Crawlee example (examples/crawlee), from a fresh clone.
# Builds the package if stale, installs the example's own dependencies (Crawlee is the
# example's dependency, not the package's) from its lock file when they are missing or
# older than it, then runs the two crawls; exits non-zero when a page got a wrong answer.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
bash scripts/build.sh --if-stale
dir=examples/crawlee
if [ ! -f "$dir/node_modules/.package-lock.json" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
  npm ci --prefix "$dir" --no-audit --no-fund
fi
node "$dir/crawl.mjs"
