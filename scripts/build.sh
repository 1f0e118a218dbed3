#!/usr/bin/env bash
# Builds the npm package into pkg/, combined with the hand-written pkg-template/, from three
# wasm-pack builds of the crate (installs missing tools first):
#   pkg/node/  --target nodejs, every feature, opt-level 3: Node, for speed (the crawler).
#   pkg/web/   --target web, --no-default-features, opt-level "z": the default for browsers
#              and bundlers, kept under 150 kB gzip. It leaves out HTML to text and the
#              crawler's part (ContentSeen, dedup, index snapshots), whose calls throw a
#              FeatureDisabled error there; fingerprints are the same bit for bit.
#   pkg/full/  --target web, every feature but `redis` (the Node-only Redis store), opt-level 3:
#              `simhash-wasm/full` in browsers.
# With --if-stale, does nothing when the three builds exist and no source (nor this script)
# is newer than them.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --if-stale ] && [ -f pkg/node/simhash_wasm_bg.wasm ] && [ -f pkg/web/simhash_wasm_bg.wasm ] \
   && [ -f pkg/full/simhash_wasm_bg.wasm ] \
   && [ -z "$(find src pkg-template build.rs LICENSE-MIT LICENSE-APACHE Cargo.toml Cargo.lock scripts/build.sh scripts/esm-to-cjs.mjs -newer pkg/node/simhash_wasm_bg.wasm -print -quit)" ]; then
  exit 0
fi
bash scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"   # npm binaryen's wasm-opt first

profile=--release
[ "${SIMHASH_DEV_BUILD:-}" = 1 ] && profile=--dev
# build OUT TARGET [cargo args...]
build() {
  local out="$1" target="$2"; shift 2
  wasm-pack --log-level warn build $profile --target "$target" --out-dir "target/$out" --out-name simhash_wasm --no-pack . -- "$@" >&2
}
build wasm-nodejs nodejs
# Every feature but `redis` (RedisContentSeen is Node only: its bindings would be dead weight).
build wasm-full web --no-default-features --features html,crawler,code
CARGO_PROFILE_RELEASE_OPT_LEVEL=z build wasm-web web --no-default-features
# A second binaryen pass for size over the browser build (after wasm-pack's -O3): about
# 0.5 kB gzip off the wasm a browser downloads (decision 018).
wasm-opt -Os --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
  --enable-simd target/wasm-web/simhash_wasm_bg.wasm -o target/wasm-web/simhash_wasm_bg.wasm

rm -rf pkg && mkdir -p pkg/node
cp -R pkg-template/. pkg/
cp -R pkg-template/web/. pkg/full/   # the same browser entry, over the full build
# The modules shared by every entry (the error class, the argument checks, the worker pool)
# are written once as ES modules in pkg-template/web/ (copied above into web/ and full/);
# the Node entry's CommonJS forms are generated from them.
for m in errors args pool; do
  node scripts/esm-to-cjs.mjs "pkg-template/web/$m.js" "pkg/$m.cjs"
done
for dir in node:wasm-nodejs web:wasm-web full:wasm-full; do
  cp "target/${dir#*:}"/simhash_wasm{.js,_bg.wasm,.d.ts} "pkg/${dir%%:*}/"
done
cp LICENSE-MIT LICENSE-APACHE pkg/
# The crate's version and repository are the package's: Cargo.toml is the one place for both.
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
repository=$(sed -n 's/^repository = "\(.*\)"/\1/p' Cargo.toml | head -1)
node -e '
  const fs = require("fs"); const p = JSON.parse(fs.readFileSync("pkg/package.json", "utf8"));
  p.version = process.argv[1];
  p.repository = { type: "git", url: process.argv[2] };
  fs.writeFileSync("pkg/package.json", JSON.stringify(p, null, 2) + "\n");
' "$version" "$repository"
echo "built pkg/ (simhash-wasm $version)" >&2
