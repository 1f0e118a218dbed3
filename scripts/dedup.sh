#!/usr/bin/env bash
# The README's main command (`npm run dedup -- [PATH] [options]`): builds what is missing,
# then runs the package's CLI `dedup` on PATH, or on the sample corpus it ships.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f pkg/node/simhash_wasm_bg.wasm ] && [ -z "$(find src Cargo.toml pkg-template -newer pkg/node/simhash_wasm_bg.wasm -print -quit)" ] \
  || bash scripts/build.sh >&2
root=$PWD
cd "${INIT_CWD:-$root}"
exec node "$root/pkg/bin/simhash-wasm.mjs" dedup "$@"
