// RedisContentSeen against ContentSeen (one worker, in order), the API, migration, the
// ioredis adapter, and bad input. The same-decision and bad-input tests run against one
// redis-server and against a 3-master cluster (one of each for the whole file).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { haveRedis, startBoth, stopBoth } from './redis-server.mjs';
import { pageStream, popcount } from './redis-common.mjs';

const require = createRequire(import.meta.url);
const { RedisContentSeen, ContentSeen, SimHashError, SimHashIndex } = require('../../pkg/index.cjs');
const { createClient, createCluster } = require('redis');
const IORedis = require('ioredis');

const skip = haveRedis() ? false : 'redis-server is not installed (scripts/setup.sh installs it)';
let server, client, cluster, clusterClient;
test.before(async () => {
  if (!skip) ({ server, client, cluster, clusterClient } = await startBoth());
});
test.after(() => stopBoth({ server, client, cluster, clusterClient }));


const TEXTS = [
  'Crawlers meet the same article under many addresses, and keep only one copy of it.',
  'An entirely different page about gardening: tomatoes need sun, water and patience.',
];

async function sameDecisions(client) {
  const seen = await RedisContentSeen.open(client, { namespace: 'same', sketch: false });
  assert.equal(seen.created, true);
  const local = new ContentSeen({ k: 3, sketch: false }); // the fingerprint-only test on both sides
  const pages = pageStream(1500, { seed: 3, dupShare: 0.35 });
  let rts = 0;
  for (let i = 0; i < pages.length; i++) {
    // Every 40th check repeats an earlier URL: a count, or new content replacing the old.
    const url = i % 40 === 39 ? pages[(i * 7) % i].url : pages[i].url;
    const want = local.checkFingerprint(url, pages[i].fp);
    const got = await seen.checkFingerprint(url, pages[i].fp);
    rts += got.roundTrips;
    assert.equal(got.duplicate, want.duplicate, `#${i}`);
    assert.equal(got.cluster, want.cluster, `#${i}`);
    assert.equal(got.count, want.count, `#${i}`);
    assert.deepEqual(got.matches.map((m) => [m.id, m.distance]), want.matches.map((m) => [m.id, m.distance]), `#${i}`);
  }
  assert.equal(await seen.size, local.size);
  for (const u of [pages[5].url, pages[700].url, 'https://never.example/']) {
    assert.equal(await seen.count(u), local.count(u), u);
    assert.equal(await seen.clusterOf(u), local.clusterOf(u), u);
  }
  const a = await seen.check('https://t/1', TEXTS[0]);
  const b = await seen.check('https://t/2', TEXTS[0] + ' ');
  assert.equal(a.duplicate, false);
  assert.equal(b.duplicate, true);
  assert.equal(b.cluster, 'https://t/1');
  assert.ok(rts < pages.length * 1.6, `${rts} round trips`);
  seen.close();
}

for (const [name, target] of [['one server', () => client], ['3-master cluster', () => clusterClient]]) {
  test(`one worker in order decides as ContentSeen (fingerprints, texts, re-checked URLs): ${name}`, { skip }, () => sameDecisions(target()));
}

// Batched checks: checks started together share script calls (at most `batch` pages a
// call) and decide as ContentSeen does when it sees the pages in the order the calls
// decided them (a page that needed a second call is decided after pages that came after
// it), which is the order in which the checks settle. checkBatch shares calls the same way;
// its decisions keep the invariants (no two kept pages within k, every duplicate's matches
// stored and within k).
async function batchedDecisions(client, ns) {
  const seen = await RedisContentSeen.open(client, { namespace: ns, batch: 16, sketch: false });
  const pages = pageStream(1200, { seed: 5, dupShare: 0.35 });
  const order = [];
  const results = new Map();
  const urlOf = (i) => (i % 40 === 39 ? pages[(i * 7) % i].url : pages[i].url);
  for (let i = 0; i < pages.length; ) {
    const n = 1 + ((i * 37) % 60);
    await Promise.all(
      pages.slice(i, i + n).map((p, x) =>
        seen.checkFingerprint(urlOf(i + x), p.fp).then((r) => {
          order.push(i + x);
          results.set(i + x, r);
        }),
      ),
    );
    i += n;
  }
  assert.ok(seen.stats.calls < pages.length / 4, `${seen.stats.calls} script calls for ${pages.length} checks`);
  const local = new ContentSeen({ k: 3, sketch: false });
  let reordered = 0;
  order.forEach((j, x) => {
    reordered += Number(j !== x);
    const want = local.checkFingerprint(urlOf(j), pages[j].fp);
    const got = results.get(j);
    assert.equal(got.duplicate, want.duplicate, `page ${j}`);
    assert.equal(got.cluster, want.cluster, `page ${j}`);
    assert.equal(got.count, want.count, `page ${j}`);
    assert.deepEqual(got.matches.map((m) => [m.id, m.distance]), want.matches.map((m) => [m.id, m.distance]), `page ${j}`);
  });
  assert.equal(await seen.size, local.size);
  assert.ok(reordered > 0, 'some pages needed a second call and were decided later');
  seen.close();

  const batched = await RedisContentSeen.open(client, { namespace: ns + '-b', batch: 16, sketch: false });
  const kept = [];
  let checks = 0;
  for (let i = 0; i < pages.length; i += 100) {
    const rs = await batched.checkBatch(pages.slice(i, i + 100).map((p, x) => ({ url: `https://b/${i + x}`, fingerprint: p.fp })));
    rs.forEach((r, x) => {
      assert.ok(!r.error, String(r.error));
      checks++;
      if (!r.duplicate) kept.push(pages[i + x].fp);
      for (const m of r.matches) assert.ok(popcount(m.fingerprint ^ pages[i + x].fp) === m.distance && m.distance <= 3);
      assert.equal(r.duplicate, r.matches.length > 0);
    });
  }
  assert.ok(batched.stats.calls < checks / 4, `${batched.stats.calls} script calls for ${checks} checks`);
  const keptIndex = new SimHashIndex({ k: 3 });
  kept.forEach((fp, j) => {
    assert.deepEqual(keptIndex.query(fp), [], 'two kept pages within k');
    keptIndex.insert(j, fp);
  });
  assert.equal(await batched.size, kept.length);
  batched.close();
}

for (const [name, target] of [['one server', () => client], ['3-master cluster', () => clusterClient]]) {
  test(`batched checks share script calls and decide as ContentSeen in their order: ${name}`, { skip }, () => batchedDecisions(target(), 'batched'));
}

test('migration: a ContentSeen snapshot goes into Redis and comes back byte for byte', { skip }, async () => {
  const local = new ContentSeen({ k: 3, sketch: false }); // the fingerprint-only test on both sides
  for (const p of pageStream(600, { seed: 4 })) local.checkFingerprint(p.url, p.fp);
  const snap = local.toBytes();
  const seen = await RedisContentSeen.open(client, { namespace: 'migrate', sketch: false });
  await seen.importSnapshot(snap, { batch: 64 });
  assert.equal(await seen.size, local.size);
  assert.deepEqual(Buffer.from(await seen.exportSnapshot()), Buffer.from(snap));
  // A second import into the now non-empty namespace is refused.
  await assert.rejects(seen.importSnapshot(snap), SimHashError);
  // The imported store decides like the snapshot does.
  const back = ContentSeen.fromBytes(snap);
  for (const p of pageStream(200, { seed: 40 })) {
    const url = p.url + '?again';
    assert.equal((await seen.checkFingerprint(url, p.fp)).duplicate, back.checkFingerprint(url, p.fp).duplicate);
  }
  // Another k's snapshot is refused.
  const other = await RedisContentSeen.open(client, { namespace: 'migrate2', sketch: false });
  await assert.rejects(other.importSnapshot(new ContentSeen({ k: 4, sketch: false }).toBytes()), (e) => e.code === 'SchemeMismatch');
  seen.close();
  other.close();
});

test('ioredis works through the adapter, and shares the namespace with node-redis', { skip }, async () => {
  const io = new IORedis({ port: server.port, host: '127.0.0.1', lazyConnect: true });
  await io.connect();
  try {
    const a = await RedisContentSeen.open(client, { namespace: 'both', html: true, sketch: false });
    const b = await RedisContentSeen.open(io, { namespace: 'both', html: true, sketch: false });
    assert.equal(b.created, false);
    assert.equal((await a.check('https://x/1', `<p>${TEXTS[1]}</p>`)).duplicate, false);
    const r = await b.check('https://x/2', `<div>${TEXTS[1]}</div>`);
    assert.equal(r.duplicate, true);
    assert.equal(r.cluster, 'https://x/1');
    assert.equal(await b.count('https://x/2'), 2);
    a.close();
    b.close();
  } finally {
    io.disconnect();
  }
});

test('urls: false keeps only "seen or not"', { skip }, async () => {
  const seen = await RedisContentSeen.open(client, { namespace: 'bare', urls: false });
  assert.equal((await seen.check('a', TEXTS[0])).duplicate, false);
  const r = await seen.check('b', TEXTS[0]);
  assert.equal(r.duplicate, true);
  assert.equal(r.cluster, null);
  assert.equal(r.count, null);
  // The result's keys (made in JS from wasm's values, redis.cjs SHAPES): null, not undefined,
  // for what the store does not keep and for the sketch-mode fields.
  assert.deepEqual(Object.keys(r), ['duplicate', 'empty', 'matches', 'fingerprint', 'cluster', 'count', 'distance', 'estimate', 'sketch', 'roundTrips']);
  assert.deepEqual([r.distance, r.estimate, r.sketch], [0, null, null]);
  assert.deepEqual(r.matches, [{ id: null, fingerprint: r.fingerprint, distance: 0 }]);
  assert.equal(await seen.size, 1);
  assert.equal(await client.exists('{bare}:p'), 0);
  seen.close();
});

async function badInput(client, idleClient) {
  const seen = await RedisContentSeen.open(client, { namespace: 'bad', k: 3, sketch: false });
  await seen.check('https://b/1', TEXTS[0]);
  // A worker with other settings is refused, at open and (if the meta changes) at check.
  await assert.rejects(RedisContentSeen.open(client, { namespace: 'bad', k: 4, sketch: false }), (e) => e instanceof SimHashError && e.code === 'SchemeMismatch' && /layout/.test(e.message));
  await assert.rejects(RedisContentSeen.open(client, { namespace: 'bad', ngram: 5, sketch: false }), (e) => e.code === 'SchemeMismatch' && /scheme/.test(e.message));
  await assert.rejects(RedisContentSeen.open(client, { namespace: 'bad', urls: false }), (e) => e.code === 'SchemeMismatch');
  // Foreign keys in the namespace.
  await client.set('{foreign}:p', 'someone else');
  await assert.rejects(RedisContentSeen.open(client, { namespace: 'foreign' }), (e) => e.code === 'InvalidOption' && /foreign/.test(e.message));
  await client.del('{foreign}:p');
  await client.hSet('{orphan}:t', 'x', 'y');
  await assert.rejects(RedisContentSeen.open(client, { namespace: 'orphan' }), (e) => /foreign|without a meta/.test(e.message));
  // A namespace deleted but for one of its table hashes is not reused with stale buckets.
  await client.hSet('{stale}:t3:1a5', 'x', 'y');
  await assert.rejects(RedisContentSeen.open(client, { namespace: 'stale' }), (e) => e.code === 'InvalidOption' && /\{stale\}:t3:1a5/.test(e.message));
  // A namespace written in store format 1 (one hash for every bucket) is refused, saying what to do.
  // The meta of an older store format: no `content` and `template` lines (read all of a
  // page's text, learnt no template).
  const older = (v) => seen._store.meta().replace(/^simhash-wasm-redis \d+/, `simhash-wasm-redis ${v}`).replace(/content=.*\n/, '').replace(/template=.*\n/, '');
  const v1 = older(1);
  await client.set('{old}:meta', v1);
  await assert.rejects(RedisContentSeen.open(client, { namespace: 'old' }), (e) => e.code === 'SchemeMismatch' && /store format/.test(e.message) && /importSnapshot/.test(e.message));
  // A namespace of store format 2, 3 or 4 with the same settings is upgraded in place (this
  // format reads every value of those); its workers of the older build then stop at their
  // next call. Format 4 has this format's lines.
  assert.match(seen._store.meta(), /^simhash-wasm-redis 5\n/);
  for (const v of [2, 3, 4]) {
    await client.set(`{up${v}}:meta`, v === 4 ? seen._store.meta().replace('redis 5\n', 'redis 4\n') : older(v));
    const up = await RedisContentSeen.open(client, { namespace: `up${v}`, k: 3, sketch: false });
    assert.equal(up.created, false);
    assert.equal(await client.get(`{up${v}}:meta`), seen._store.meta());
    up.close();
  }
  // A format-3 namespace of HTML pages read all their text: a store reading the main
  // content (the default) is refused, naming the setting.
  const html = await RedisContentSeen.open(client, { namespace: 'html4', html: true, content: 'all', template: false, sketch: false });
  await client.set('{html3}:meta', html._store.meta().replace(/^simhash-wasm-redis \d+/, 'simhash-wasm-redis 3').replace(/content=.*\n/, '').replace(/template=.*\n/, ''));
  html.close();
  await assert.rejects(RedisContentSeen.open(client, { namespace: 'html3', html: true, sketch: false }), (e) => e.code === 'SchemeMismatch' && /content/.test(e.message));
  const html3 = await RedisContentSeen.open(client, { namespace: 'html3', html: true, content: 'all', template: false, sketch: false });
  assert.equal(html3.created, false);
  html3.close();
  await client.set('{junkmeta}:meta', 'not ours');
  await assert.rejects(RedisContentSeen.open(client, { namespace: 'junkmeta' }), (e) => /foreign/.test(e.message));
  // A bucket overwritten by another program: an error, not an answer.
  const fp = seen.fingerprint(TEXTS[1]);
  // Table 0's bucket (store format 2): the top 16 bits; the high 11 name the hash, the low 5
  // (left-aligned in a byte) are the field.
  const key16 = Number(fp >> 48n);
  const hash = '{bad}:t0:' + (key16 >> 5).toString(16).padStart(3, '0');
  const field = Buffer.from([(key16 & 0x1f) << 3]);
  assert.equal(await client.hLen(hash), 0);
  await client.hSet(hash, field, 'abc');
  await assert.rejects(seen.check('https://b/2', TEXTS[1]), (e) => e instanceof SimHashError && /foreign/.test(e.message));
  await client.hDel(hash, field);
  // The meta deleted under a running worker.
  await client.del('{bad}:meta');
  await assert.rejects(seen.check('https://b/3', TEXTS[1]), (e) => /meta key is gone/.test(e.message));
  // URLs.
  const ok = await RedisContentSeen.open(client, { namespace: 'urls', sketch: false });
  await assert.rejects(ok.check('', TEXTS[0]), (e) => e.code === 'InvalidOption' && /url/.test(e.message));
  await assert.rejects(ok.check('x'.repeat(20000), TEXTS[0]), (e) => e.code === 'InvalidOption' && /20000 bytes/.test(e.message));
  assert.deepEqual(await ok.check('https://u/', '   '), { duplicate: false, empty: true, matches: [], fingerprint: null, cluster: null, count: 0, distance: null, estimate: null, sketch: null, roundTrips: 0 });
  assert.equal((await ok.check('https://u/' + 'é'.repeat(5000), TEXTS[0])).duplicate, false);
  assert.equal(await ok.size, 1, 'failed checks stored nothing');
  // Bad namespaces and options.
  await assert.rejects(RedisContentSeen.open(client, { namespace: 'a{b}' }), (e) => e.code === 'InvalidOption');
  await assert.rejects(RedisContentSeen.open(client, { namespace: 'x', bogus: 1 }), (e) => e.code === 'InvalidOption');
  await assert.rejects(RedisContentSeen.open(client, { namespace: 'x', layout: 'probe' }), (e) => e.code === 'InvalidOption');
  for (const batch of [0, 1001, 2.5, 'many']) {
    await assert.rejects(RedisContentSeen.open(client, { namespace: 'x', batch }), (e) => e.code === 'InvalidOption' && /batch/.test(e.message), String(batch));
  }
  assert.throws(() => new RedisContentSeen(null), SimHashError);
  // A client that is not connected.
  const idle = idleClient();
  await assert.rejects(RedisContentSeen.open(idle, { namespace: 'idle' }), (e) => e.code === 'RedisError' && /connect/.test(e.message));
  // A closed instance.
  ok.close();
  await assert.rejects(ok.check('https://u/2', TEXTS[0]), SimHashError);
  seen.close();
}

for (const [name, target, idle] of [['one server', () => client, () => createClient({ url: server.url })], ['3-master cluster', () => clusterClient, () => createCluster({ rootNodes: cluster.rootNodes })]]) {
  test(`bad input: other settings, foreign keys, no connection, huge or empty URLs: ${name}`, { skip }, () => badInput(target(), idle));
}
