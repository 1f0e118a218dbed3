#!/usr/bin/env bash
# `npm run quality:html`: how the built npm package (wasm under Node) reads HTML pages.
# Builds the package if a source is newer than it, then runs every part in
# scripts/quality-html/ (see scripts/quality-html.mjs) and prints one RESULT line with the
# keys of all of them. Extra arguments go to every part: --quick (a quarter of the pages,
# for CI).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p target/bench-logs
bash scripts/build.sh --if-stale > target/bench-logs/build-pkg.log 2>&1 || { cat target/bench-logs/build-pkg.log >&2; exit 1; }
node --no-warnings scripts/quality-html.mjs "$@"
