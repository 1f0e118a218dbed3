// Faults: the redis-server holding the namespace is killed (SIGKILL) in the middle of a
// 4-worker crawl and restarted from its AOF (appendfsync always): a single server, and the
// master serving the namespace's slot in a 3-master cluster (restarted on its port and dir,
// it reloads nodes.conf and its AOF and serves the slot again; the cluster has no replicas,
// so nothing fails over and the workers wait for it). Workers see errors and retry;
// afterwards the invariants hold, every check that got an answer is still there, and every
// stored page was reported new to exactly one check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { haveRedis, startServer, startCluster } from './redis-server.mjs';
import { pageStream, runWorkers, checkInvariants, assertNewOnce } from './redis-common.mjs';

const require = createRequire(import.meta.url);
const { RedisContentSeen } = require('../../pkg/index.cjs');
const { createClient, createCluster } = require('redis');

const skip = haveRedis() ? false : 'redis-server is not installed (scripts/setup.sh installs it)';

/** Crawls `n` pages with 4 workers; `victim` (kill, restart) is killed once 30% are checked. */
async function crawlThroughAFault(t, target, connect, victim, n) {
  const pages = pageStream(n, { seed: 11, dupShare: 0.3 });
  let killed = false;
  let restarted = false;
  let fired = false;
  const results = await runWorkers(target, 'fault', pages, 4, {
    retries: 40,
    onProgress: (done) => {
      if (fired || done < n * 0.3) return;
      fired = true;
      victim
        .kill()
        .then(() => {
          killed = true;
          return new Promise((r) => setTimeout(r, 400));
        })
        .then(() => victim.restart())
        .then(() => (restarted = true));
    },
  });
  assert.ok(killed && restarted, 'the server was killed and restarted during the crawl');
  const client = await connect();
  try {
    const seen = await RedisContentSeen.open(client, { namespace: 'fault', sketch: false });
    assert.equal(seen.created, false, 'the namespace survived the restart');
    const { stored, total, decided } = await checkInvariants(seen, pages, results);
    const errors = results.filter((r) => r.error);
    const retried = results.retriedCalls;
    assert.ok(retried + errors.length > 0, 'the fault hit running checks (some were retried or failed)');
    assert.ok(decided > n * 0.9, `most checks were decided (${decided}, errors ${errors.length})`);
    // A call repeated after the kill gets its first attempt's answer: every stored page
    // was reported new to exactly one check (or its check failed, and the caller knows).
    assertNewOnce(stored, results);
    // Counts are exact for the decided checks; a failed check may or may not have counted.
    t.diagnostic(`decided ${decided}, errors ${errors.length}, retried calls ${retried}, count total ${total}, stored ${stored.length}`);
    assert.ok(total >= decided && total <= decided + errors.length, `count total ${total}, decided ${decided}, errors ${errors.length}`);
    assert.ok(stored.length > 0);
    seen.close();
  } finally {
    await client.quit().catch(() => {});
  }
}

test('kill redis-server mid-crawl, restart with AOF: no wrong answer, nothing acknowledged lost', { skip }, async (t) => {
  const server = await startServer();
  try {
    await crawlThroughAFault(
      t,
      { url: server.url },
      async () => {
        const c = createClient({ url: server.url });
        await c.connect();
        return c;
      },
      server,
      3000,
    );
  } finally {
    await server.stop();
  }
});

test('kill the cluster master serving the namespace mid-crawl, restart it with AOF', { skip }, async (t) => {
  const cluster = await startCluster();
  try {
    const victim = cluster.ownerOf('{fault}:meta');
    await crawlThroughAFault(
      t,
      { cluster: cluster.rootNodes },
      async () => {
        const c = createCluster({ rootNodes: cluster.rootNodes });
        await c.connect();
        return c;
      },
      victim,
      2000,
    );
  } finally {
    await cluster.stop();
  }
});
