#!/usr/bin/env bash
# `npm run demo`: builds the web package when pkg/ is missing or older than the sources,
# then serves the demo page (www/ at /, pkg/web/ at /pkg/) on 127.0.0.1:$PORT (default 8080).
set -euo pipefail
cd "$(dirname "$0")/.."
stale=0
if [ ! -f pkg/web/simhash_wasm_bg.wasm ] || [ ! -f pkg/web/index.js ]; then
  stale=1
elif [ -n "$(find src pkg-template Cargo.toml Cargo.lock -newer pkg/web/simhash_wasm_bg.wasm -print -quit)" ]; then
  stale=1
fi
if [ "$stale" = 1 ]; then
  echo "building pkg/ (bash scripts/build.sh) ..." >&2
  bash scripts/build.sh
fi
exec node scripts/demo-server.mjs
