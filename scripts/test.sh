#!/usr/bin/env bash
# `npm test`, the README's test command and CI's (.ci/run): the set-up, then every part in
# order, stopping at the first that fails. Each part is an npm script that also runs alone
# from a fresh clone (it installs and builds what it needs, skipping what is there):
#   check         the gates: rustfmt, clippy x4, rustdoc, the rust-version check
#   test:rust     cargo test (native, and without the default features), wasm-pack test --node
#   test:node     the npm package under node --test (tests/js/ but Redis), the examples
#   test:redis    the Redis suites on their own redis-servers, examples/redis-crawler
#   test:browser  the typings (tsc), the browser tests in Debian's chromium
#   bench:quick   the quick benchmarks and quality runs (figures only)
# A suite that runs zero tests fails its part. A new part: a script in scripts/test/ (it
# sources lib.sh), its npm script in package.json, and its name in `parts` below.
set -euo pipefail
cd "$(dirname "$0")/.."
parts=(check test:rust test:node test:redis test:browser bench:quick)

log=target/test-logs; mkdir -p "$log"; : > "$log/counts"
printf '=== set-up (installs only what is missing)\n'
bash scripts/setup.sh --browser

times=()
for part in "${parts[@]}"; do
  t0=$SECONDS
  printf '\n##### npm run %s\n' "$part"
  if ! npm run -s "$part"; then
    echo "npm test: $part failed ($((SECONDS - t0)) s); the parts after it did not run" >&2
    exit 1
  fi
  times+=("$(printf '%-13s %5d s' "$part" $((SECONDS - t0)))")
done

printf '\n=== all parts passed (%d s)\n' "$SECONDS"
printf '  %s\n' "${times[@]}"
awk -F'\t' '{ printf "  %6d  %s\n", $1, $2; n += $1 } END { printf "tests: %d passed, 0 failed\n", n }' "$log/counts"
