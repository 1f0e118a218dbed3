// Faults: redis-server is killed (SIGKILL) in the middle of a 4-worker crawl and restarted
// from its AOF (appendfsync always). Workers see errors and retry; afterwards the
// invariants hold and every check that got an answer is still there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { haveRedis, startServer } from './redis-server.mjs';
import { pageStream, runWorkers, checkInvariants } from './redis-common.mjs';

const require = createRequire(import.meta.url);
const { RedisContentSeen } = require('../../pkg/index.cjs');
const { createClient } = require('redis');

const skip = haveRedis() ? false : 'redis-server is not installed (scripts/setup.sh installs it)';

test('kill redis-server mid-crawl, restart with AOF: no wrong answer, nothing acknowledged lost', { skip }, async (t) => {
  const server = await startServer();
  try {
    const n = 3000;
    const pages = pageStream(n, { seed: 11, dupShare: 0.3 });
    let killed = false;
    let restarted = false;
    const results = await runWorkers({ url: server.url }, 'fault', pages, 4, {
      retries: 30,
      onSpawn: () => {
        setTimeout(async () => {
          await server.kill();
          killed = true;
          setTimeout(() => server.restart().then(() => (restarted = true)), 400);
        }, 700);
      },
    });
    assert.ok(killed && restarted, 'the server was killed and restarted during the crawl');
    const client = createClient({ url: server.url });
    await client.connect();
    try {
      const seen = await RedisContentSeen.open(client, { namespace: 'fault' });
      assert.equal(seen.created, false, 'the namespace survived the restart');
      // A check repeated after a lost reply finds itself: treat it as the page's own.
      const fixed = results.map((r) => (r.duplicate && r.cluster === r.url ? { ...r, duplicate: false } : r));
      const { stored, total, decided } = await checkInvariants(seen, pages, fixed);
      const errors = results.filter((r) => r.error);
      assert.ok(decided > n * 0.9, `most checks were decided (${decided}, errors ${errors.length})`);
      // Counts: every decided page once, plus at most one per call repeated after a failure
      // (its first attempt may have been applied before the reply was lost: counts are
      // at-least-once, stored pages exactly-once) or per failed call.
      const repeats = fixed.filter((r, i) => r !== results[i]).length;
      const retried = results.retriedCalls;
      t.diagnostic(`decided ${decided}, errors ${errors.length}, checks that found themselves ${repeats}, retried calls ${retried}, count total ${total}, stored ${stored.length}`);
      assert.ok(repeats <= retried, `${repeats} checks found themselves after ${retried} retried calls`);
      assert.ok(total >= decided && total <= n + retried + errors.length, `count total ${total}, decided ${decided}, retried calls ${retried}`);
      assert.ok(stored.length > 0);
      seen.close();
    } finally {
      await client.quit().catch(() => {});
    }
  } finally {
    await server.stop();
  }
});
