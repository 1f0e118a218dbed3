// Bad input, one table over the three classes that take the same arguments: the shared
// RedisContentSeen, the in-memory ContentSeen and the SimHashPool. The same bad argument
// in the same place gets a SimHashError with the same code from each (and never a bare
// TypeError or RangeError); every instance stays usable afterwards. Then the errors of
// the shared store itself: a dead server, a closed client, a closed instance.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { haveRedis, startServer, startOne, stopBoth } from './redis-server.mjs';

const require = createRequire(import.meta.url);
const { RedisContentSeen, ContentSeen, SimHashPool, SimHashError } = require('../../pkg/index.cjs');
const { createClient } = require('redis');

const skip = haveRedis() ? false : 'redis-server is not installed (scripts/setup.sh installs it)';
const TEXT = 'A page of some length about the shared content-seen test and its bad arguments.';
const LONE_HIGH = 'https://bad.test/x\uD800';
const LONE_LOW = 'https://bad.test/x\uDC00';

// Where an argument goes, and how each class takes it there (`undefined`: not taken).
const SLOTS = {
  url: {
    seen: (s, v) => s.check(v, TEXT),
    redis: (r, v) => r.check(v, TEXT),
  },
  'url of checkFingerprint': {
    seen: (s, v) => s.checkFingerprint(v, 5n),
    redis: (r, v) => r.checkFingerprint(v, 5n),
  },
  text: {
    seen: (s, v) => s.check('https://t/1', v),
    redis: (r, v) => r.check('https://t/1', v),
    pool: (p, v) => p.fingerprintBatch([v]),
  },
  fingerprint: {
    seen: (s, v) => s.checkFingerprint('https://t/2', v),
    redis: (r, v) => r.checkFingerprint('https://t/2', v),
  },
  'url of count': { seen: (s, v) => s.count(v), redis: (r, v) => r.count(v) },
  'url of clusterOf': { seen: (s, v) => s.clusterOf(v), redis: (r, v) => r.clusterOf(v) },
  'text of fingerprint': { seen: (s, v) => s.fingerprint(v), redis: (r, v) => r.fingerprint(v), pool: (p, v) => p.fingerprintBatch([v]) },
  // Options: ContentSeen's constructor, RedisContentSeen.open, the pool's hasher options
  // (fingerprint options only).
  option: {
    seen: (_s, v) => new ContentSeen(v).free(),
    redis: (_r, v, client) => RedisContentSeen.open(client, { namespace: 'bad-opt', ...v }).then((x) => x.close()),
  },
  'fingerprint option': {
    seen: (_s, v) => new ContentSeen(v).free(),
    redis: (_r, v, client) => RedisContentSeen.open(client, { namespace: 'bad-opt', ...v }).then((x) => x.close()),
    pool: (_p, v) => SimHashPool.create({ size: 1, hasher: v }).then((x) => x.close()),
  },
};

// [slot, value, expected code]. Each row is applied to every class that has the slot.
const TABLE = [
  ['url', null, 'InvalidOption'],
  ['url', 42, 'InvalidOption'],
  ['url', {}, 'InvalidOption'],
  ['url', undefined, 'InvalidOption'],
  ['url', LONE_HIGH, 'InvalidOption'],
  ['url', LONE_LOW, 'InvalidOption'],
  ['url of checkFingerprint', 'https://bad.test/\uDBFF', 'InvalidOption'],
  ['url of checkFingerprint', 7, 'InvalidOption'],
  ['text', null, 'InvalidOption'],
  ['text', 42, 'InvalidOption'],
  ['text', {}, 'InvalidOption'],
  ['text', undefined, 'InvalidOption'],
  // A page with no content is no bad input to ContentSeen#check (it answers `empty: true`,
  // decision 050); fingerprinting it is, in every class.
  ['text of fingerprint', '   ', 'EmptyText'],
  ['fingerprint', -1n, 'InvalidOption'],
  ['fingerprint', 2n ** 64n, 'InvalidOption'],
  ['fingerprint', 5, 'InvalidOption'],
  ['fingerprint', '123', 'InvalidOption'],
  ['fingerprint', 1.5, 'InvalidOption'],
  ['fingerprint', 'abc', 'InvalidOption'],
  ['fingerprint', null, 'InvalidOption'],
  ['fingerprint', undefined, 'InvalidOption'],
  ['url of count', null, 'InvalidOption'],
  ['url of count', 42, 'InvalidOption'],
  ['url of count', LONE_HIGH, 'InvalidOption'],
  ['url of clusterOf', 42, 'InvalidOption'],
  ['url of clusterOf', {}, 'InvalidOption'],
  ['text of fingerprint', null, 'InvalidOption'],
  ['text of fingerprint', 42, 'InvalidOption'],
  ['option', { k: -1 }, 'InvalidOption'],
  ['option', { k: 1.5 }, 'InvalidOption'],
  ['option', { k: 'x' }, 'InvalidOption'],
  ['option', { threshold: 0 }, 'InvalidOption'],
  ['option', { threshold: 1.5 }, 'InvalidOption'],
  ['option', { sketch: 7 }, 'InvalidOption'],
  ['option', { sketch: 'big' }, 'InvalidOption'],
  ['option', { html: 'yes' }, 'InvalidOption'],
  ['fingerprint option', { ngram: 0 }, 'InvalidOption'],
  ['fingerprint option', { ngram: 'x' }, 'InvalidOption'],
  ['fingerprint option', { mode: 'letters' }, 'InvalidOption'],
  ['fingerprint option', { weighting: 'log' }, 'InvalidOption'],
  ['fingerprint option', { bogus: 1 }, 'InvalidOption'],
];

/** The SimHashError `f()` throws or rejects with (a failure if it returns, or throws anything else). */
async function errorOf(f, what) {
  let result;
  try {
    result = await f();
  } catch (e) {
    assert.ok(e instanceof SimHashError, `${what}: threw ${e && e.name} (${e && e.message}), not a SimHashError`);
    assert.ok(typeof e.message === 'string' && e.message.length > 10, `${what}: a message that says what to fix`);
    return e;
  }
  assert.fail(`${what}: accepted, returned ${JSON.stringify(result, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v))}`);
}

const show = (v) => (typeof v === 'bigint' ? `${v}n` : typeof v === 'string' ? JSON.stringify(v) : v === undefined ? 'undefined' : JSON.stringify(v));

test('bad input: the same argument gets the same SimHashError code from RedisContentSeen, ContentSeen and SimHashPool', { skip }, async (t) => {
  const server = await startServer();
  const client = createClient({ url: server.url });
  await client.connect();
  const pool = await SimHashPool.create({ size: 1 });
  const instances = {
    seen: new ContentSeen(),
    redis: await RedisContentSeen.open(client, { namespace: 'bad-input' }),
    pool,
  };
  try {
    let applied = 0;
    for (const [slot, value, code] of TABLE) {
      const ways = SLOTS[slot];
      const codes = {};
      for (const [cls, f] of Object.entries(ways)) {
        const e = await errorOf(() => f(instances[cls], value, client), `${cls} ${slot} = ${show(value)}`);
        codes[cls] = e.code;
        applied++;
      }
      assert.deepEqual(codes, Object.fromEntries(Object.keys(ways).map((c) => [c, code])), `${slot} = ${show(value)}`);
    }
    t.diagnostic(`${TABLE.length} rows, ${applied} calls`);
    // Nothing was stored by a refused call, and every instance still works.
    assert.equal(await instances.redis.size, 0);
    assert.equal(instances.seen.size, 0);
    assert.equal((await instances.redis.check('https://ok/1', TEXT)).duplicate, false);
    assert.equal(instances.seen.check('https://ok/1', TEXT).duplicate, false);
    assert.equal((await pool.fingerprintBatch([TEXT]))[0], instances.seen.fingerprint(TEXT));
    // The two URLs with lone surrogates are not merged into one page (they are refused).
    assert.equal(await instances.redis.size, 1);
  } finally {
    instances.redis.close();
    instances.seen.free();
    await pool.close();
    await client.quit().catch(() => {});
    await server.stop();
  }
});

test('bad input of the shared store alone: options, batches, namespaces, a dead server, closed clients and instances', { skip }, async () => {
  const server = await startServer();
  const client = createClient({ url: server.url });
  client.on('error', () => {}); // the server is killed at the end
  await client.connect();
  try {
    const open = (o) => RedisContentSeen.open(client, { namespace: 'alone', ...o });
    for (const retries of ['x', -1, 1.5, 1001, null, true]) {
      const e = await errorOf(() => open({ retries }), `retries = ${show(retries)}`);
      assert.equal(e.code, 'InvalidOption', show(retries));
      assert.match(e.message, /retries/);
    }
    for (const k of [64, 100]) {
      const e = await errorOf(() => open({ k }), `k = ${k}`);
      assert.equal(e.code, 'InvalidOption');
      assert.match(e.message, /`k`/);
    }
    // Every refused sketch size names the Redis store's range, not ContentSeen's.
    for (const sketch of [136, 256, 300, 20, 33]) {
      const e = await errorOf(() => open({ sketch }), `sketch = ${sketch}`);
      assert.equal(e.code, 'InvalidOption');
      assert.match(e.message, /`sketch` = \d+: expected a multiple of 8 from 32 to 128/);
    }
    for (const namespace of ['n\uD800', '\uDC00x', '', 'a{b}', 7]) {
      const e = await errorOf(() => open({ namespace }), `namespace = ${show(namespace)}`);
      assert.equal(e.code, 'InvalidOption', show(namespace));
    }
    const seen = await open({ retries: 2 });
    assert.equal(seen.options().retries, 2);
    // checkBatch: a bad list throws; a bad page is that page's error, the others go on.
    for (const pages of [null, 'abc', 42, undefined]) {
      assert.equal((await errorOf(() => seen.checkBatch(pages), `checkBatch(${show(pages)})`)).code, 'InvalidOption');
    }
    const rs = await seen.checkBatch([null, { url: 1, text: 2 }, { url: 'https://b/1', text: TEXT }, { url: 'https://b/2', fingerprint: -1n }, 'x']);
    assert.equal(rs.length, 5);
    for (const i of [0, 1, 3, 4]) {
      assert.ok(rs[i].error instanceof SimHashError, `page ${i}: ${rs[i].error}`);
      assert.equal(rs[i].error.code, 'InvalidOption', `page ${i}`);
    }
    assert.equal(rs[2].duplicate, false);
    assert.equal(await seen.size, 1);
    // clusters' options are checked here, not by Redis; a read's error says nothing changed.
    for (const options of [null, 'x', { batch: 0 }, { batch: 'x' }, { batch: 1.5 }, { batch: -1 }]) {
      const e = await errorOf(async () => { for await (const _ of seen.clusters(options)) break; }, `clusters(${show(options)})`);
      assert.equal(e.code, 'InvalidOption', show(options));
    }
    // importSnapshot's options too, before anything is read or written.
    const snap = new ContentSeen().toBytes();
    for (const options of [null, 'x', 5, { batch: 0 }, { batch: 'x' }, { batch: 1.5 }, { bacth: 10 }]) {
      const e = await errorOf(() => seen.importSnapshot(snap, options), `importSnapshot(snap, ${show(options)})`);
      assert.equal(e.code, 'InvalidOption', show(options));
    }
    assert.equal(await seen.size, 1);
    // fingerprint takes a page's bytes as check does.
    assert.equal(seen.fingerprint(Buffer.from(TEXT)), seen.fingerprint(TEXT));
    assert.equal((await errorOf(() => seen.fingerprint(Buffer.from([0xff, 0xfe])), 'fingerprint(invalid UTF-8)')).code, 'InvalidUtf8');
    // A closed client: every call is a RedisError (after the retries), never a bare ClientClosedError.
    const other = createClient({ url: server.url });
    await other.connect();
    const s2 = await RedisContentSeen.open(other, { namespace: 'alone', retries: 1 });
    await other.quit();
    for (const [what, f] of [
      ['size', () => s2.size],
      ['check', () => s2.check('https://c/1', TEXT)],
      ['count', () => s2.count('https://b/1')],
      ['clusters', async () => { for await (const _ of s2.clusters()) break; }],
      ['exportSnapshot', () => s2.exportSnapshot()],
    ]) {
      assert.equal((await errorOf(f, `closed client: ${what}`)).code, 'RedisError', what);
    }
    s2.close();
    // A closed instance: Closed, for every call, size included.
    seen.close();
    for (const [what, f] of [
      ['size', () => seen.size],
      ['check', () => seen.check('https://c/2', TEXT)],
      ['checkFingerprint', () => seen.checkFingerprint('https://c/2', 5n)],
      ['count', () => seen.count('https://b/1')],
      ['options', () => seen.options()],
      ['checkBatch', () => seen.checkBatch([{ url: 'https://c/3', text: TEXT }])],
    ]) {
      assert.equal((await errorOf(f, `closed: ${what}`)).code, 'Closed', what);
    }
    // A dead server: a RedisError within the retries, not node-redis's bare errors.
    const third = createClient({ url: server.url, socket: { reconnectStrategy: () => 50, connectTimeout: 500 } });
    third.on('error', () => {});
    await third.connect();
    const s3 = await RedisContentSeen.open(third, { namespace: 'alone', retries: 2 });
    await server.kill();
    for (const [what, f] of [
      ['size', () => s3.size],
      ['check', () => s3.check('https://d/1', TEXT)],
      ['clusters', async () => { for await (const _ of s3.clusters()) break; }],
      ['exportSnapshot', () => s3.exportSnapshot()],
    ]) {
      assert.equal((await errorOf(f, `dead server: ${what}`)).code, 'RedisError', what);
    }
    s3.close();
    await third.disconnect().catch(() => {});
  } finally {
    await client.disconnect().catch(() => {});
    await server.stop();
  }
});

// Both classes check k in the core (SeenConfig::validate_k), before a layout is made from it.
test('k: 64 is InvalidOption in ContentSeen as in RedisContentSeen', () => {
  const e = (() => {
    try {
      new ContentSeen({ k: 64 });
    } catch (x) {
      return x;
    }
  })();
  assert.equal(e && e.code, 'InvalidOption');
});

// ContentSeen#check answers a page with no content `{ duplicate: false, empty: true }` and
// stores nothing (decision 050); RedisContentSeen must give the same answer.
test('a page with no content: RedisContentSeen answers empty as ContentSeen does', { skip }, async () => {
  const seen = new ContentSeen();
  const answer = seen.check('https://t/empty', '   ');
  seen.free();
  assert.equal(answer.empty, true);
  const server = await startServer();
  const client = createClient({ url: server.url });
  await client.connect();
  try {
    const redis = await RedisContentSeen.open(client, { namespace: 'empty-page' });
    try {
      const got = await redis.check('https://t/empty', '   ');
      assert.equal(got.empty, true);
      assert.equal(got.duplicate, false);
      for (const k of ['fingerprint', 'cluster', 'count']) assert.equal(got[k], answer[k], k);
      assert.deepEqual(got.matches, []);
      // Too short for one n-gram, and given as bytes: empty too.
      assert.equal((await redis.check('https://t/short', Buffer.from('Hi!'))).empty, true);
      assert.equal(await redis.size, 0);
      // A stored page is not replaced by an empty one, and can be checked as bytes.
      assert.equal((await redis.check('https://t/1', Buffer.from(TEXT))).empty, false);
      assert.equal((await redis.check('https://t/1', '   ')).empty, true);
      assert.equal((await redis.check('https://t/2', new TextEncoder().encode(TEXT))).duplicate, true);
      assert.equal(await redis.size, 1);
    } finally {
      await redis.close();
    }
  } finally {
    await client.quit().catch(() => {});
    await server.stop();
  }
});

test('pages given as UTF-8 bytes are read in place: the answers a string gets, in every mode, and InvalidUtf8 storing nothing', { skip }, async () => {
  const page = (i) => `<html><body><nav><a href=/>Home</a> <a href=/news>News</a></nav><article><p>第${i % 3}篇: `
    + `an article of some length, with commas, words and the number ${i % 3}, long enough to be the page's content.</p>`
    + `</article><footer>Copyright, all rights reserved.</footer></body></html>`;
  const one = await startOne();
  const { client } = one;
  try {
    for (const [n, options] of [{ html: true }, { html: true, sketch: false }, { html: true, template: false }, {}].entries()) {
      const name = JSON.stringify(options);
      const asText = await RedisContentSeen.open(client, { ...options, namespace: `text-${n}` });
      const asBytes = await RedisContentSeen.open(client, { ...options, namespace: `bytes-${n}` });
      try {
        for (let i = 0; i < 10; i++) {
          const url = `https://site${i % 2}.test/${i}`;
          const a = await asText.check(url, page(i));
          const b = await asBytes.check(url, i % 2 ? Buffer.from(page(i)) : new TextEncoder().encode(page(i)));
          assert.deepEqual(b, a, `${name} ${url}`);
        }
        assert.equal(asBytes.fingerprint(Buffer.from(page(1))), asText.fingerprint(page(1)), name);
        const before = await asBytes.size;
        let error;
        try {
          await asBytes.check('https://site0.test/bad', Buffer.from([0x3c, 0x70, 0x3e, 0xe4, 0xb8]));
        } catch (e) {
          error = e;
        }
        assert.ok(error instanceof SimHashError && error.code === 'InvalidUtf8', `${name}: ${error}`);
        assert.equal(await asBytes.size, before, `${name}: nothing stored`);
        assert.ok(before > 0, name);
      } finally {
        await asText.close();
        await asBytes.close();
      }
    }
  } finally {
    await stopBoth(one);
  }
});
