// RedisContentSeen and the server's settings, on real servers: a server that evicts keys
// when full draws a warning at open; a full server that evicts nothing refuses a check with
// an error that says so, stores nothing, and the same check goes through once the server
// has room; a Redis user the server's ACL forbids scripts is told so at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { haveRedis, startServer } from './redis-server.mjs';

const require = createRequire(import.meta.url);
const { RedisContentSeen, SimHashError } = require('../../pkg/index.cjs');
const { createClient } = require('redis');

const skip = haveRedis() ? false : 'redis-server is not installed (scripts/setup.sh installs it)';

/** Page `i`: 60 words, unrelated to the other pages. */
const page = (i) => `page ${i} ` + Array.from({ length: 60 }, (_, j) => `w${(i * 7919 + j * 104729) % 100003}`).join(' ');

/** Runs `f(client, server)` against a fresh server started with `args`. */
async function withServer(args, f) {
  const server = await startServer(args);
  const client = createClient({ url: server.url });
  client.on('error', () => {});
  await client.connect();
  try {
    await f(client, server);
  } finally {
    await client.quit().catch(() => {});
    await server.stop();
  }
}

/** The warnings `open` emits (the process 'warning' event), collected until it returns. */
async function openWarnings(client, options) {
  const seen = [];
  const listen = (w) => seen.push(w);
  process.on('warning', listen);
  try {
    const store = await RedisContentSeen.open(client, options);
    await new Promise((r) => setImmediate(r)); // emitWarning reports on the next tick
    return { store, warnings: seen.filter((w) => w.code === 'SIMHASH_REDIS_EVICTION') };
  } finally {
    process.off('warning', listen);
  }
}

test('open warns when the server evicts any key once full, and only then', { skip }, async () => {
  const cases = [
    [['--maxmemory', '64mb', '--maxmemory-policy', 'allkeys-lru'], true],
    [['--maxmemory', '64mb', '--maxmemory-policy', 'allkeys-random'], true],
    [['--maxmemory', '64mb', '--maxmemory-policy', 'noeviction'], false],
    [['--maxmemory', '64mb', '--maxmemory-policy', 'volatile-lru'], false],
    [['--maxmemory-policy', 'allkeys-lru'], false], // no maxmemory: nothing is evicted
  ];
  for (const [args, warns] of cases) {
    await withServer(args, async (client) => {
      const { store, warnings } = await openWarnings(client, { namespace: 'mem' });
      assert.equal(warnings.length, warns ? 1 : 0, args.join(' '));
      if (warns) {
        assert.match(warnings[0].message, /evicts any key/);
        assert.match(warnings[0].message, new RegExp(`maxmemory-policy ${args[3]}`));
        assert.match(warnings[0].message, /"mem"/);
        assert.match(warnings[0].message, /noeviction/);
      }
      // The store works either way.
      assert.equal((await store.check('https://m/1', page(1))).duplicate, false);
    });
  }
});

for (const sketch of [false, true]) {
  test(`a full server (noeviction) refuses a check with a clear error and stores nothing (sketch: ${sketch})`, { skip }, async () => {
    await withServer(['--maxmemory-policy', 'noeviction'], async (client) => {
      const store = await RedisContentSeen.open(client, { namespace: 'full', sketch, retries: 3 });
      const used = Number(/used_memory:(\d+)/.exec(await client.info('memory'))[1]);
      await client.configSet('maxmemory', String(used + 400_000));
      let failed;
      let i = 0;
      for (; i < 50_000 && !failed; i++) {
        try {
          assert.equal((await store.check(`https://full/${i}`, page(i))).duplicate, false);
        } catch (e) {
          failed = e;
        }
      }
      assert.ok(failed, 'the server never filled up');
      assert.ok(failed instanceof SimHashError);
      assert.equal(failed.code, 'RedisError');
      assert.match(failed.message, /OOM command not allowed/);
      assert.match(failed.message, /out of memory/);
      assert.match(failed.message, /nothing was stored: give Redis more memory \(`maxmemory`\)/);
      assert.equal(typeof failed.checkId, 'bigint');
      assert.equal(store.retriedCalls, 0, 'an out-of-memory refusal is not repeated at once');
      const stored = await store.size;
      assert.equal(stored, i - 1, 'the refused page was not stored');
      // With room again, the same check (its checkId) stores the page, new, once.
      await client.configSet('maxmemory', '0');
      const again = await store.check(`https://full/${i - 1}`, page(i - 1), { checkId: failed.checkId });
      assert.deepEqual([again.duplicate, again.count, await store.size], [false, 1, stored + 1]);
      assert.equal((await store.check('https://full/copy', page(0))).duplicate, true);
    });
  });
}

test('a Redis user without the right to run scripts gets an error that says so, at once', { skip }, async () => {
  await withServer([], async (admin, server) => {
    await admin.sendCommand(['ACL', 'SETUSER', 'reader', 'on', '>secret', '~*', '+@read', '+@connection']);
    const client = createClient({ url: server.url, username: 'reader', password: 'secret' });
    client.on('error', () => {});
    await client.connect();
    try {
      await assert.rejects(RedisContentSeen.open(client, { namespace: 'acl', retries: 3 }), (e) => {
        assert.ok(e instanceof SimHashError);
        assert.equal(e.code, 'RedisError');
        assert.match(e.message, /NOPERM.*The Redis user may not run it/);
        assert.match(e.message, /@scripting/);
        return true;
      });
    } finally {
      await client.quit().catch(() => {});
    }
  });
});
