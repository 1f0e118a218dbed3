#!/usr/bin/env bash
# `npm run pack`: builds the package (release wasm) into pkg/ and writes the installable
# tarball with `npm pack` into target/. The LAST line of output is the tarball's path.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh >&2
mkdir -p target
name=$(cd pkg && npm pack --silent --pack-destination ../target 2>/dev/null | tail -n 1)
echo "$PWD/target/$name"
