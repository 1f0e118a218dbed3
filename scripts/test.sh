#!/usr/bin/env bash
# The README's test command (`npm test`): installs what is missing, then runs every suite:
#   0. the gates, first so a style slip is reported in seconds: rustfmt, clippy with
#      warnings denied (native with and without the default features, wasm32 with and
#      without them: the Node and the browser builds), rustdoc with warnings denied, and
#      `cargo check` on the Rust version Cargo.toml's rust-version claims
#   1. cargo test (native: unit, integration, property, golden, doc tests), and the unit
#      tests again without the default features (the browser build's configuration)
#   2. the golden vectors inside wasm, under Node (wasm-pack test --node)
#   3. node --test over the built npm package (tests/js; the Redis suites start their own
#      redis-server processes), then the examples/redis-crawler example
#   4. the examples (examples/: the Rust one, and the Node ones over the built package)
#   5. the hand-written typings (tsc --noEmit over tests/types/usage.ts)
#   6. browser tests in Debian's chromium via playwright-core (tests/browser)
# A suite that runs zero tests fails the run. Quick benchmarks run at the end in CI.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
log=target/test-logs; mkdir -p "$log"
step() { printf '\n=== %s\n' "$*"; }

# gate NAME CMD...: runs a gate into target/test-logs/gate-NAME and prints its time; on
# failure shows its output. Every gate runs, then the run stops if any failed.
failed_gates=()
gate() {
  local name="$1"; shift
  local t0=$SECONDS rc=0
  "$@" > "$log/gate-$name" 2>&1 || rc=$?
  if [ "$rc" != 0 ]; then
    echo "--- gate $name FAILED (exit $rc, $((SECONDS - t0)) s): $*" >&2
    tail -n 80 "$log/gate-$name" >&2
    failed_gates+=("$name")
  else
    echo "gate $name ok ($((SECONDS - t0)) s)"
  fi
}

step "gates: rustfmt, clippy -D warnings, rustdoc -D warnings, rust-version"
bash scripts/setup.sh --rust
msrv=$(sed -n 's/^rust-version = "\([0-9.]*\)".*/\1/p' Cargo.toml)
gate fmt cargo fmt --check
gate clippy cargo clippy --locked --all-targets -- -D warnings
gate clippy-no-default cargo clippy --locked --all-targets --no-default-features -- -D warnings
gate clippy-wasm32 cargo clippy --locked --all-targets --target wasm32-unknown-unknown -- -D warnings
gate clippy-wasm32-no-default cargo clippy --locked --lib --target wasm32-unknown-unknown --no-default-features -- -D warnings
gate doc env RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps
gate "rust-$msrv" cargo "+$msrv" check --locked --lib
if [ "${#failed_gates[@]}" != 0 ]; then
  echo "gates failed: ${failed_gates[*]} (logs in $log/gate-*)" >&2
  exit 1
fi

step "set-up (installs only what is missing)"
bash scripts/setup.sh
export SIMHASH_DEVCORPUS="${SIMHASH_DEVCORPUS:-$PWD/target/devcorpus}"
set +e
bash scripts/setup.sh --corpus
corpus=$?
set -e
if [ "$corpus" = 3 ]; then
  export SIMHASH_DEVCORPUS_SKIP="the corpus kit could not build the data on this machine"
  echo "SKIP devcorpus: $SIMHASH_DEVCORPUS_SKIP"
elif [ "$corpus" != 0 ]; then
  echo "dev corpus build failed (exit $corpus)" >&2; exit 1
fi

# run LOG CMD...: runs a suite into target/test-logs/LOG, shows its summary lines, and
# fails the whole run if the suite fails.
run() {
  local name="$1"; shift
  local rc=0
  "$@" > "$log/$name" 2>&1 || rc=$?
  grep -E '^(test result|running [0-9]+ test|# (tests|pass|fail|skipped))|FAILED|panicked|^not ok' "$log/$name" || true
  if [ "$rc" != 0 ]; then
    echo "--- $name failed (exit $rc); its last 60 lines:" >&2
    tail -n 60 "$log/$name" >&2
    exit 1
  fi
}

# Sums "N passed" over every "test result:" line of cargo logs; fails on zero.
count_cargo() {
  local what="$1" n; shift
  n=$(cat "$@" | grep -Eo 'test result: ok\. [0-9]+ passed' | awk '{s += $4} END {print s + 0}')
  echo "$what: $n tests passed"
  [ "$n" -gt 0 ] || { echo "$what ran zero tests" >&2; exit 1; }
}

# Reads node --test's "# pass N" from a log; fails on zero.
count_node() {
  local what="$1" n
  n=$(sed -n 's/^# pass \([0-9]*\)/\1/p' "$2")
  echo "$what: ${n:-0} tests passed"
  [ "${n:-0}" -gt 0 ] || { echo "$what ran zero tests" >&2; exit 1; }
}

step "cargo test (native: unit, integration, property, golden, doc tests)"
run cargo.log cargo test
run cargo-nodefault.log cargo test --no-default-features --lib
count_cargo "cargo test" "$log/cargo.log" "$log/cargo-nodefault.log"

step "wasm tests under Node (wasm-pack test --node)"
run wasm.log wasm-pack --log-level warn test --node --release -- --test golden
count_cargo "wasm-pack test --node" "$log/wasm.log"

step "npm package (build + node --test)"
run build.log bash scripts/build.sh
run node.log node --test tests/js/
count_node "node --test" "$log/node.log"
# The Redis suites (tests/js/redis-*.test.mjs) run above, each on its own redis-server(s).
step "example: workers sharing RedisContentSeen (examples/redis-crawler, its own redis-server)"
run redis-crawler.log node examples/redis-crawler/crawl.mjs --spawn-redis
tail -n 12 "$log/redis-crawler.log"

step "examples (examples/: Rust, and Node over the built package)"
run examples.log bash scripts/examples.sh
echo "examples passed"

step "type test (tsc --noEmit over tests/types/usage.ts against pkg-template/index.d.ts)"
run types.log tsc -p tests/types
echo "type test passed"

step "browser tests (playwright-core driving Debian's chromium)"
bash scripts/setup.sh --browser
run browser.log node --test tests/browser/
count_node "browser tests" "$log/browser.log"

step "quick benchmarks and the quality table (figures only; targets are not checked here)"
bash scripts/bench.sh fingerprint --quick
node scripts/bench-shared.mjs --quick | tail -n 1
bash scripts/quality.sh
bash scripts/quality-passages.sh --quick | tail -n 1

step "all suites passed"
