#!/usr/bin/env bash
# The README's test command (`npm test`): installs what is missing, then runs every suite:
#   1. cargo test (native: unit, integration, property, golden, doc tests)
#   2. the golden vectors inside wasm, under Node (wasm-pack test --node)
#   3. node --test over the built npm package (tests/js)
# A suite that runs zero tests fails the run. Quick benchmarks run at the end in CI.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
log=target/test-logs; mkdir -p "$log"
step() { printf '\n=== %s\n' "$*"; }

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

# Sums "N passed" over every "test result:" line of a cargo log; fails on zero.
count_cargo() {
  local n
  n=$(grep -Eo 'test result: ok\. [0-9]+ passed' "$1" | awk '{s += $4} END {print s + 0}')
  echo "$2: $n tests passed"
  [ "$n" -gt 0 ] || { echo "$2 ran zero tests" >&2; exit 1; }
}

step "cargo test (native)"
cargo test --all-targets 2>&1 | tee "$log/cargo.log" | grep -E '^(test result|running|error|warning: unused)|FAILED|panicked' || true
[ "${PIPESTATUS[0]}" = 0 ] || { echo "cargo test failed" >&2; exit 1; }
cargo test --doc 2>&1 | tee "$log/doc.log" | grep -E '^test result|FAILED' || true
[ "${PIPESTATUS[0]}" = 0 ] || { echo "doc tests failed" >&2; exit 1; }
cat "$log/cargo.log" "$log/doc.log" > "$log/native.log"
count_cargo "$log/native.log" "cargo test"

step "wasm tests under Node (wasm-pack test --node)"
wasm-pack --log-level warn test --node --release -- --test golden 2>&1 | tee "$log/wasm.log" | grep -E '^(test result|running)|FAILED|panicked' || true
[ "${PIPESTATUS[0]}" = 0 ] || { echo "wasm tests failed" >&2; exit 1; }
count_cargo "$log/wasm.log" "wasm-pack test --node"

step "npm package (build + node --test)"
bash scripts/build.sh
node --test tests/js/ 2>&1 | tee "$log/node.log" | grep -E '^# (tests|pass|fail|skipped)|^not ok' || true
[ "${PIPESTATUS[0]}" = 0 ] || { echo "node tests failed" >&2; exit 1; }
n=$(sed -n 's/^# pass \([0-9]*\)/\1/p' "$log/node.log")
echo "node --test: ${n:-0} tests passed"
[ "${n:-0}" -gt 0 ] || { echo "node --test ran zero tests" >&2; exit 1; }

step "quick benchmarks"
bash scripts/bench.sh fingerprint --quick

step "all suites passed"
