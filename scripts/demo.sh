#!/usr/bin/env bash
# `npm run demo`: builds the web package when pkg/ is missing or older than the sources,
# then serves the demo page (www/ at /, pkg/web/ at /pkg/, compressed) on 127.0.0.1:$PORT
# (default 8080); the server first copies the file readers into www/vendor/ (scripts/demo-vendor.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh --if-stale
exec node scripts/demo-server.mjs
