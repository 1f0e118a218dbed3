#!/usr/bin/env bash
# Installs whatever the build and the tests need and is missing; skips what is there.
# Usage: scripts/setup.sh [--rust] [--browser] [--corpus]
#   --rust     only the rustup part (seconds): the wasm target, rustfmt and clippy, and the
#              toolchain of Cargo.toml's rust-version (minimal profile), which the gates use
#   --browser  also Debian's chromium + chromedriver (browser tests)
#   --corpus   also build the dev corpus into $SIMHASH_DEVCORPUS (default target/devcorpus)
set -euo pipefail
cd "$(dirname "$0")/.."
say() { printf '[setup] %s\n' "$*" >&2; }

want_browser=0; want_corpus=0; only_rust=0
for a in "$@"; do
  case "$a" in
    --rust) only_rust=1 ;;
    --browser) want_browser=1 ;;
    --corpus) want_corpus=1 ;;
    *) echo "usage: $0 [--rust] [--browser] [--corpus]" >&2; exit 2 ;;
  esac
done

export PATH="$HOME/.cargo/bin:$PATH"

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
for c in rustfmt clippy; do
  if ! rustup component list --installed | grep -q "^$c"; then
    say "adding the $c component"
    rustup component add "$c"
  fi
done
# The oldest Rust the crate claims to build with (Cargo.toml's rust-version), for the
# gate in `npm run check` (scripts/test/check.sh): minimal profile (rustc, cargo, std), ~20 s, ~550 MB.
msrv=$(sed -n 's/^rust-version = "\([0-9.]*\)".*/\1/p' Cargo.toml)
if ! rustup toolchain list | grep -q "^$msrv-"; then
  say "installing Rust $msrv (rust-version; minimal profile)"
  rustup toolchain install "$msrv" --profile minimal --no-self-update
fi
[ "$only_rust" = 1 ] && exit 0

if [ "$(wasm-pack --version 2>/dev/null || true)" != "wasm-pack 0.15.1" ]; then
  say "installing wasm-pack 0.15.1 (cargo, ~3.5 min)"
  cargo install wasm-pack --version 0.15.1 --locked
fi

# The CLI must be the exact version of the wasm-bindgen crate in Cargo.lock.
wb=$(cargo pkgid -p wasm-bindgen | sed 's/.*[@#]//')
if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $wb" ]; then
  say "installing wasm-bindgen-cli $wb (cargo, ~4 min)"
  cargo install wasm-bindgen-cli --version "$wb" --locked || cargo install wasm-bindgen-cli --version "$wb"
fi

# npm dev tools (wasm-opt from npm binaryen, playwright-core, typescript).
if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm dev tools (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi

# Chromium and a CJK font (without one, the demo's Chinese text renders as boxes).
if [ "$want_browser" = 1 ] && { ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null \
     || ! dpkg -s fonts-wqy-microhei >/dev/null 2>&1; }; then
  say "installing Debian's chromium, chromedriver and a CJK font"
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver fonts-wqy-microhei >/dev/null
fi

# --- redis-server (RedisContentSeen's tests, bench:shared, examples/redis-crawler) ---
# Debian's package (Redis 7.0). Nothing starts it: tests start their own servers.
if ! command -v redis-server >/dev/null 2>&1; then
  say "redis-server (apt)"
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq redis-server >/dev/null
fi

if [ "$want_corpus" = 1 ]; then
  dir="${SIMHASH_DEVCORPUS:-target/devcorpus}"
  if [ -f ../shared/corpus/build.sh ]; then
    say "dev corpus in $dir"
    bash ../shared/corpus/build.sh "$dir"
  else
    say "no dev corpus kit at ../shared/corpus: data tests will be skipped"
    exit 3
  fi
fi
