#!/usr/bin/env bash
# `npm run test:browser`: the hand-written typings (tsc --noEmit over tests/types/usage.ts
# against pkg-template/index.d.ts and web/index.d.ts), then the browser tests in Debian's
# chromium driven by playwright-core (tests/browser: the package's browser entries, the
# pool's Web Workers, a Vite build, the demo).
source "$(dirname "$0")/lib.sh"
bash scripts/setup.sh --browser

step "type test (tsc --noEmit over tests/types/usage.ts against the hand-written typings)"
run types.log tsc -p tests/types
echo "type test passed"

build_pkg
step "browser tests (playwright-core driving Debian's chromium)"
run browser.log node --test tests/browser/
count_node "browser tests" "$log/browser.log"
part_done test:browser
