// Race test: 4 worker processes check one stream with planted near-duplicates at random,
// against a real redis-server and a real 3-master cluster; the invariants must hold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { haveRedis, startServer, startCluster } from './redis-server.mjs';
import { pageStream, runWorkers, checkInvariants } from './redis-common.mjs';

const require = createRequire(import.meta.url);
const { RedisContentSeen } = require('../../pkg/index.cjs');
const { createClient, createCluster } = require('redis');

const skip = haveRedis() ? false : 'redis-server is not installed (scripts/setup.sh installs it)';

async function race(target, client, { workers = 4, n = 1200, batch = 1 } = {}) {
  const pages = pageStream(n, { seed: 7, dupShare: 0.3 });
  const results = await runWorkers(target, 'race', pages, workers, { batch });
  assert.equal(results.length, n);
  assert.deepEqual(results.filter((r) => r.error), [], 'no errors');
  const seen = await RedisContentSeen.open(client, { namespace: 'race', sketch: false });
  const { stored, total } = await checkInvariants(seen, pages, results);
  assert.equal(total, n, 'the counts account for every page');
  const dups = results.filter((r) => r.duplicate).length;
  assert.equal(stored.length + dups, n);
  assert.ok(dups > n * 0.2, `planted near-duplicates were found (${dups})`);
  seen.close();
  return results;
}

test('race: 4 workers on one server', { skip }, async () => {
  const server = await startServer();
  const client = createClient({ url: server.url });
  try {
    await client.connect();
    await race({ url: server.url }, client);
    // Pipelined batches too.
    await client.flushAll();
    await race({ url: server.url }, client, { batch: 16 });
  } finally {
    await client.quit().catch(() => {});
    await server.stop();
  }
});

test('race: 4 workers on a 3-master cluster', { skip }, async () => {
  const cluster = await startCluster();
  const client = createCluster({ rootNodes: cluster.rootNodes });
  try {
    await client.connect();
    await race({ cluster: cluster.rootNodes }, client, { n: 800 });
  } finally {
    await client.quit().catch(() => {});
    await cluster.stop();
  }
});
