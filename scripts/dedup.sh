#!/usr/bin/env bash
# The README's main command (`npm run dedup -- [PATH] [options]`): builds what is missing,
# then runs the package's CLI `dedup` on PATH, or on the sample corpus it ships.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh --if-stale >&2
root=$PWD
cd "${INIT_CWD:-$root}"
exec node "$root/pkg/bin/simhash-wasm.mjs" dedup "$@"
