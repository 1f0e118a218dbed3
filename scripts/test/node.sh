#!/usr/bin/env bash
# `npm run test:node`: the npm package (pkg/, built when stale) under node --test, every
# suite of tests/js/ but the Redis ones (`npm run test:redis`), then the examples
# (examples/: the Rust ones, the Node ones over the built package, the README's block, and
# the Crawlee crawler, which installs its own dependencies).
source "$(dirname "$0")/lib.sh"
bash scripts/setup.sh
build_pkg

step "npm package (node --test tests/js/, but the Redis suites)"
suites=()
for f in tests/js/*.test.mjs; do
  case "$f" in tests/js/redis-*) ;; *) suites+=("$f") ;; esac
done
run node.log node --test "${suites[@]}"
count_node "node --test" "$log/node.log"

step "examples (examples/: Rust, and Node over the built package)"
run examples.log bash scripts/examples.sh
echo "examples passed"

step "example: a Crawlee crawler keeping ContentSeen in its key-value store (examples/crawlee)"
run crawlee.log npm run -s example:crawlee
tail -n 3 "$log/crawlee.log"
part_done test:node
