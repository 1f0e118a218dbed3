#!/usr/bin/env bash
# `npm run test:redis`: RedisContentSeen over real redis-server processes, which the suites
# start themselves (tests/js/redis-*.test.mjs), then examples/redis-crawler (workers
# sharing one RedisContentSeen, on its own redis-server).
source "$(dirname "$0")/lib.sh"
bash scripts/setup.sh
build_pkg

step "Redis suites (node --test tests/js/redis-*.test.mjs)"
run redis.log node --test tests/js/redis-*.test.mjs
count_node "node --test (Redis)" "$log/redis.log"

step "example: workers sharing RedisContentSeen (examples/redis-crawler, its own redis-server)"
run redis-crawler.log node examples/redis-crawler/crawl.mjs --spawn-redis
tail -n 12 "$log/redis-crawler.log"
part_done test:redis
