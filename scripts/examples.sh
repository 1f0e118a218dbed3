#!/usr/bin/env bash
# `npm run examples`: runs every example, each of which checks its own output and exits
# non-zero when it is wrong.
#   examples/*.rs       cargo run --example NAME (the Rust crate)
#   examples/node/*.mjs node, over the built npm package: pkg/ (built if missing or stale)
#                       is linked as examples/node/node_modules/simhash-wasm, so the
#                       examples import 'simhash-wasm' as an installed copy would.
#   README.md's Node block, which must print the distance its comment states.
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

# The README's Node block, as a user would paste it: it must run, and print the distance
# its comment states.
printf '\n--- the README'"'"'s Node block\n'
awk '/^```js$/ { n++; on = (n == 1); next } /^```$/ { on = 0 } on' README.md > examples/node/node_modules/readme-block.mjs
out=$(node examples/node/node_modules/readme-block.mjs)
echo "$out"
want=$(sed -n 's|.*// \([0-9]*\) of 64 bits.*|\1|p' README.md | head -1)
if [ -z "$want" ] || [ "$(echo "$out" | head -1)" != "$want" ]; then
  echo "the README's Node block printed '$(echo "$out" | head -1)', its comment says '$want'" >&2
  exit 1
fi
