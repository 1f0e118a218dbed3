#!/usr/bin/env bash
# Builds the npm package into pkg/: the wasm for Node (--target nodejs) and for browsers
# (--target web), combined with the hand-written pkg-template/. Installs missing tools first.
# With --if-stale, does nothing when both builds exist and no source is newer than them.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --if-stale ] && [ -f pkg/node/simhash_wasm_bg.wasm ] && [ -f pkg/web/simhash_wasm_bg.wasm ] \
   && [ -z "$(find src pkg-template Cargo.toml Cargo.lock -newer pkg/node/simhash_wasm_bg.wasm -print -quit)" ]; then
  exit 0
fi
bash scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"   # npm binaryen's wasm-opt first

profile=--release
[ "${SIMHASH_DEV_BUILD:-}" = 1 ] && profile=--dev
for target in nodejs web; do
  wasm-pack --log-level warn build $profile --target "$target" --out-dir "target/wasm-$target" --out-name simhash_wasm --no-pack . >&2
done

rm -rf pkg && mkdir -p pkg/node pkg/web
cp -R pkg-template/. pkg/
cp target/wasm-nodejs/simhash_wasm.js target/wasm-nodejs/simhash_wasm_bg.wasm target/wasm-nodejs/simhash_wasm.d.ts pkg/node/
cp target/wasm-web/simhash_wasm.js target/wasm-web/simhash_wasm_bg.wasm target/wasm-web/simhash_wasm.d.ts pkg/web/
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
node -e '
  const fs = require("fs"); const p = JSON.parse(fs.readFileSync("pkg/package.json", "utf8"));
  p.version = process.argv[1]; fs.writeFileSync("pkg/package.json", JSON.stringify(p, null, 2) + "\n");
' "$version"
echo "built pkg/ (simhash-wasm $version)" >&2
