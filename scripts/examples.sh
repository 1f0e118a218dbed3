#!/usr/bin/env bash
# `npm run examples`: runs every example, each of which checks its own output and exits
# non-zero when it is wrong.
#   examples/*.rs       cargo run --example NAME (the Rust crate)
#   examples/node/*.mjs node, over the built npm package: pkg/ (built if missing or stale)
#                       is linked as examples/node/node_modules/simhash-wasm, so the
#                       examples import 'simhash-wasm' as an installed copy would.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

for f in examples/*.rs; do
  name=$(basename "$f" .rs)
  printf '\n--- cargo run --example %s\n' "$name"
  cargo run --locked -q --example "$name"
done

bash scripts/build.sh --if-stale
mkdir -p examples/node/node_modules
ln -sfn ../../../pkg examples/node/node_modules/simhash-wasm
for f in examples/node/*.mjs; do
  printf '\n--- node %s\n' "$f"
  node "$f"
done
