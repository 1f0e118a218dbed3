// RedisContentSeen in sketch mode (`sketch: true`): the same decisions as ContentSeen with
// its default sketch (one worker, pages in order, real texts with planted near-duplicates),
// the race test with 4 worker processes and sketch mode's invariants, a server killed and
// restarted (AOF) mid-crawl, migration with sketches, and the sketch setting in the
// namespace's meta. Against one redis-server and a 3-master cluster, all started here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { haveRedis, startServer, startCluster, startBoth, stopBoth } from './redis-server.mjs';
import { textStream, runWorkers, checkSketchInvariants, popcount, assertNewOnce } from './redis-common.mjs';

const require = createRequire(import.meta.url);
const { RedisContentSeen, ContentSeen, SimHasher, estimateJaccard } = require('../../pkg/index.cjs');
const { createClient, createCluster } = require('redis');

const skip = haveRedis() ? false : 'redis-server is not installed (scripts/setup.sh installs it)';
let server, client, cluster, clusterClient;
test.before(async () => {
  if (!skip) ({ server, client, cluster, clusterClient } = await startBoth());
});
test.after(() => stopBoth({ server, client, cluster, clusterClient }));

const hasher = new SimHasher();
const memo = new Map();
function fpSketch(text) {
  let r = memo.get(text);
  if (!r) memo.set(text, (r = hasher.fingerprintAndSketch(text)));
  return r;
}

async function sameDecisions(t, client, namespace) {
  const seen = await RedisContentSeen.open(client, { namespace, sketch: true });
  assert.equal(seen.created, true);
  assert.equal(seen.options().sketch, 128);
  const local = new ContentSeen({ k: 3 }); // its default sketch (128 bytes, threshold 0.81)
  const pages = textStream(700, { seed: 3, dupShare: 0.35 });
  let rts = 0;
  let dups = 0;
  let beyondK = 0;
  let one = 0;
  let filtered = 0; // new pages whose band candidates the script's filter dropped (one call)
  const kept = new Map(); // stored URL -> its fingerprint and sketch (null: stored without one)
  for (let i = 0; i < pages.length; i++) {
    // Every 40th check repeats an earlier URL (a count, or new content replacing the old);
    // every 50th goes by fingerprint only (stored without a sketch, matched within k).
    const url = i % 40 === 39 ? pages[(i * 7) % i].url : pages[i].url;
    let want;
    let got;
    if (i % 50 === 49) {
      const fp = fpSketch(pages[i].text).fingerprint;
      want = local.checkFingerprint(url, fp);
      got = await seen.checkFingerprint(url, fp);
    } else {
      want = local.check(url, pages[i].text);
      got = await seen.check(url, pages[i].text);
    }
    rts += got.roundTrips;
    assert.ok(got.roundTrips <= 3, `#${i}: ${got.roundTrips} round trips`);
    // A new page with no candidate at all in ContentSeen (no stored page within k, none
    // sharing a band) is decided in one call, unless its URL was stored with other content.
    const mine = fpSketch(pages[i].text);
    const noCandidate = ![...kept.values()].some((s) => popcount(s.fp ^ mine.fingerprint) <= 3 || (s.sketch && i % 50 !== 49 && shareBand(s.sketch, mine.sketch)));
    if (!want.duplicate && noCandidate && !kept.has(url)) {
      one++;
      assert.equal(got.roundTrips, 1, `#${i}: a page without candidates took ${got.roundTrips} calls`);
    } else if (!want.duplicate && !kept.has(url) && got.roundTrips === 1) filtered++;
    if (!want.duplicate) kept.set(url, { fp: mine.fingerprint, sketch: i % 50 === 49 ? null : mine.sketch });
    assert.equal(got.duplicate, want.duplicate, `#${i} ${url}`);
    assert.equal(got.cluster, want.cluster, `#${i}`);
    assert.equal(got.count, want.count, `#${i}`);
    assert.deepEqual(got.matches.map((m) => [m.id, m.distance]), want.matches.map((m) => [m.id, m.distance]), `#${i}`);
    assert.equal(got.estimate, want.estimate, `#${i}`);
    if (want.duplicate) {
      dups++;
      if (want.distance > 3) beyondK++;
    }
  }
  // The stream exercised both candidate sources and both verdicts.
  assert.ok(dups > 150, `${dups} duplicates`);
  assert.ok(beyondK > 10, `${beyondK} duplicates found by their bands only (beyond k)`);
  assert.equal(await seen.size, local.size);
  for (const u of [pages[5].url, pages[300].url, 'https://never.example/']) {
    assert.equal(await seen.count(u), local.count(u), u);
    assert.equal(await seen.clusterOf(u), local.clusterOf(u), u);
  }
  assert.ok(one > 50, `${one} pages without candidates`);
  assert.ok(filtered > 50, `${filtered} new pages with band candidates decided in one call (the filter)`);
  t.diagnostic(`${pages.length} checks, ${rts} calls; ${dups} duplicates (${beyondK} beyond k); new pages: ${one} without candidates, ${filtered} with band candidates all dropped by the script's filter`);
  assert.ok(rts < pages.length * 1.8, `${rts} round trips`);
  seen.close();
}

/** Whether two sketches (2-byte header, then the payload) share one of the 20 MinHash bands of 3 bytes. */
function shareBand(a, b) {
  const half = 2 + (a.length - 2) / 2;
  for (let band = 0; band < 20; band++) {
    const o = half + 3 * band;
    if (a[o] === b[o] && a[o + 1] === b[o + 1] && a[o + 2] === b[o + 2]) return true;
  }
  return false;
}

for (const [name, target] of [['one server', () => client], ['3-master cluster', () => clusterClient]]) {
  test(`sketch mode: one worker in order decides as ContentSeen with its sketch: ${name}`, { skip }, (t) => sameDecisions(t, target(), 'same-sketch'));
}

async function race(t, target, client, namespace, { workers = 4, n = 900, batch = 1 } = {}) {
  const pages = textStream(n, { seed: 7, dupShare: 0.3 });
  const results = await runWorkers(target, namespace, pages, workers, { batch, sketch: true });
  assert.equal(results.length, n);
  assert.deepEqual(results.filter((r) => r.error), [], 'no errors');
  // Three calls at most, unless other workers stored new candidates between a check's calls.
  const calls = results.map((r) => r.rt);
  t.diagnostic(`${namespace}: ${calls.reduce((a, b) => a + b, 0)} calls for ${n} checks, at most ${Math.max(...calls)}`);
  assert.ok(calls.filter((c) => c > 3).length <= n * 0.01, 'few checks take more than three calls');
  const seen = await RedisContentSeen.open(client, { namespace, sketch: true });
  const text = new Map(pages.map((p) => [p.url, p.text]));
  const { stored, total } = await checkSketchInvariants(seen, results, {
    fpOf: (u) => fpSketch(text.get(u)).fingerprint,
    sketchOf: (u) => fpSketch(text.get(u)).sketch,
    estimate: estimateJaccard,
  });
  assert.equal(total, n, 'the counts account for every page');
  const dups = results.filter((r) => r.duplicate).length;
  assert.equal(stored.length + dups, n);
  assert.ok(dups > n * 0.2, `planted near-duplicates were found (${dups})`);
  seen.close();
}

// The result objects are made in JS from the values wasm decided (redis.cjs SHAPES): these
// are their keys, in order, with null (not undefined) where there is no value.
test('sketch mode: a result has the keys of a ContentSeen result and roundTrips, nothing more', { skip }, async () => {
  const seen = await RedisContentSeen.open(client, { namespace: 'shape-sketch', sketch: true });
  const text = 'A page about the shape of a result, checked with its similarity sketch in sketch mode.';
  const first = await seen.check('https://shape/1', text);
  assert.deepEqual(Object.keys(first), ['duplicate', 'empty', 'matches', 'fingerprint', 'cluster', 'count', 'distance', 'estimate', 'sketch', 'roundTrips']);
  assert.deepEqual([first.duplicate, first.matches, first.cluster, first.count, first.distance, first.estimate], [false, [], 'https://shape/1', 1, null, null]);
  assert.deepEqual(first.sketch, new ContentSeen().check('https://shape/1', text).sketch, "the page's own sketch, as ContentSeen's");
  const copy = await seen.check('https://shape/2', text);
  assert.deepEqual([copy.duplicate, copy.cluster, copy.count, copy.distance, copy.estimate], [true, 'https://shape/1', 2, 0, 1]);
  assert.deepEqual(copy.matches, [{ id: 'https://shape/1', fingerprint: first.fingerprint, distance: 0 }]);
  assert.deepEqual(Object.keys(copy.matches[0]), ['id', 'fingerprint', 'distance']);
  // checkFingerprint in sketch mode: a page without a sketch, so no estimate and no sketch.
  const bare = await seen.checkFingerprint('https://shape/3', first.fingerprint);
  assert.deepEqual([bare.duplicate, bare.cluster, bare.distance, bare.estimate, bare.sketch], [true, 'https://shape/1', 0, null, null]);
  assert.equal(seen.stats.replayed, 0);
  seen.close();
});

// The same options give the same answers: every field but roundTrips, page by page, over
// near-duplicates that are beyond k (found by a band) and within it.
test('sketch mode answers as ContentSeen does, field by field', { skip }, async () => {
  const seen = await RedisContentSeen.open(client, { namespace: 'twin-sketch', sketch: true });
  const twin = new ContentSeen();
  const words = (seed, n) => Array.from({ length: n }, (_, i) => `w${(seed * 7919 + i * 104729) % 5003}`);
  const pages = [];
  for (let i = 0; i < 40; i++) {
    const w = words(i % 25, 120);
    if (i >= 25) for (let e = 0; e < 1 + (i % 6); e++) w[(i * 13 + e * 29) % 120] = `edit${i}x${e}`;
    pages.push([`https://twin/${i}`, w.join(' ')]);
  }
  let beyondK = 0;
  for (const [url, text] of pages) {
    const got = await seen.check(url, text);
    const want = twin.check(url, text);
    const { roundTrips, ...same } = got;
    assert.ok(roundTrips >= 1);
    assert.deepEqual({ ...same, matches: same.matches.map(({ id, distance }) => ({ id, distance })) }, { ...want, matches: want.matches.map(({ id, distance }) => ({ id, distance })) }, url);
    beyondK += got.duplicate && got.distance > 3 ? 1 : 0;
  }
  assert.ok(beyondK > 0, `some duplicates were found beyond k (${beyondK})`);
  twin.free();
  seen.close();
});

test('sketch mode race: 4 workers on one server', { skip }, async (t) => {
  await race(t, { url: server.url }, client, 'race-sketch');
  await race(t, { url: server.url }, client, 'race-sketch-batch', { batch: 16 });
});

test('sketch mode race: 4 workers on a 3-master cluster', { skip }, async (t) => {
  await race(t, { cluster: cluster.rootNodes }, clusterClient, 'race-sketch', { n: 600 });
});

/** Every key of namespace `ns` on the one server, renamed to `{}` and read as a value (strings) or a sorted field list (hashes). */
async function namespaceContents(ns) {
  const out = {};
  let cursor = '0';
  do {
    const [next, keys] = await client.sendCommand(['SCAN', cursor, 'MATCH', `{${ns}}*`, 'COUNT', '1000']);
    cursor = next.toString();
    for (const key of keys) {
      const name = key.toString().replace(`{${ns}}`, '{}');
      const type = (await client.sendCommand(['TYPE', key])).toString();
      if (type === 'hash') {
        const flat = await client.sendCommand(['HGETALL', key], { typeMapping: { 36: Buffer } });
        const pairs = [];
        for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i].toString('hex'), flat[i + 1].toString('hex')]);
        out[name] = pairs.sort((a, b) => (a[0] < b[0] ? -1 : 1));
      } else {
        out[name] = [type, (await client.sendCommand(['GET', key], { typeMapping: { 36: Buffer } })).toString('hex')];
      }
    }
  } while (cursor !== '0');
  return out;
}

test('import: batches of 1 page (many in flight) write the same keys as one batch of all, in both modes', { skip }, async () => {
  const pages = textStream(300, { seed: 14 });
  for (const sketch of [false, true]) {
    const local = new ContentSeen({ k: 3, ...(sketch ? {} : { sketch: false }) });
    pages.forEach((p, i) => (i % 25 === 24 ? local.checkFingerprint(p.url, fpSketch(p.text).fingerprint) : sketch ? local.check(p.url, p.text) : local.checkFingerprint(p.url, fpSketch(p.text).fingerprint)));
    const snap = local.toBytes();
    const got = [];
    for (const batch of [1, 1000]) {
      const ns = `imp-${sketch}-${batch}`;
      const seen = await RedisContentSeen.open(client, { namespace: ns, sketch });
      await seen.importSnapshot(snap, { batch });
      assert.equal(await seen.size, local.size);
      assert.deepEqual(Buffer.from(await seen.exportSnapshot()), Buffer.from(snap), `sketch ${sketch}, batch ${batch}`);
      seen.close();
      got.push(await namespaceContents(ns));
    }
    assert.ok(Object.keys(got[0]).length > 10, Object.keys(got[0]).join(' '));
    assert.deepEqual(got[0], got[1], `sketch ${sketch}`);
  }
});

test('sketch mode: a ContentSeen snapshot with sketches goes into Redis and comes back byte for byte', { skip }, async () => {
  const local = new ContentSeen({ k: 3 });
  const pages = textStream(400, { seed: 4 });
  pages.forEach((p, i) => (i % 25 === 24 ? local.checkFingerprint(p.url, fpSketch(p.text).fingerprint) : local.check(p.url, p.text)));
  const snap = local.toBytes();
  const seen = await RedisContentSeen.open(client, { namespace: 'migrate-sketch', sketch: true });
  await seen.importSnapshot(snap, { batch: 64 });
  assert.equal(await seen.size, local.size);
  assert.deepEqual(Buffer.from(await seen.exportSnapshot()), Buffer.from(snap));
  await assert.rejects(seen.importSnapshot(snap), (e) => /empty namespace/.test(e.message));
  // The imported store decides like the snapshot does.
  const back = ContentSeen.fromBytes(snap);
  for (const p of textStream(150, { seed: 40 })) {
    const url = p.url + '?again';
    const want = back.check(url, p.text);
    const got = await seen.check(url, p.text);
    assert.equal(got.duplicate, want.duplicate, url);
    assert.equal(got.cluster, want.cluster, url);
  }
  // A snapshot with another sketch size is refused (as ContentSeen.fromBytes with these
  // settings refuses it; a threshold, as there, is the loader's).
  const other = await RedisContentSeen.open(client, { namespace: 'migrate-sketch2', sketch: true });
  await assert.rejects(other.importSnapshot(new ContentSeen({ k: 3, sketch: 64 }).toBytes()), (e) => e.code === 'SchemeMismatch');
  seen.close();
  other.close();
});

test('sketch mode: the sketch setting is stored in the meta; other settings are refused', { skip }, async () => {
  for (const c of [client, clusterClient]) {
    const a = await RedisContentSeen.open(c, { namespace: 'meta-sketch', sketch: true });
    await a.check('https://m/1', 'A page about the shared store, checked with its similarity sketch.');
    await assert.rejects(RedisContentSeen.open(c, { namespace: 'meta-sketch', sketch: false }), (e) => e.code === 'SchemeMismatch' && /sketch/.test(e.message));
    // The defaults are ContentSeen's: no sketch option is its default sketch.
    assert.equal((await RedisContentSeen.open(c, { namespace: 'meta-sketch' })).created, false);
    await assert.rejects(RedisContentSeen.open(c, { namespace: 'meta-sketch', sketch: 64 }), (e) => e.code === 'SchemeMismatch' && /sk1:64/.test(e.message));
    await assert.rejects(RedisContentSeen.open(c, { namespace: 'meta-sketch', sketch: true, threshold: 0.9 }), (e) => e.code === 'SchemeMismatch' && /t=0\.9/.test(e.message));
    const b = await RedisContentSeen.open(c, { namespace: 'meta-sketch', sketch: 128, threshold: 0.81 });
    assert.equal(b.created, false);
    a.close();
    b.close();
    // A fingerprint-only namespace refuses a sketch-mode worker too.
    const f = await RedisContentSeen.open(c, { namespace: 'meta-fp', sketch: false });
    await assert.rejects(RedisContentSeen.open(c, { namespace: 'meta-fp', sketch: true }), (e) => e.code === 'SchemeMismatch');
    f.close();
  }
  // A namespace deleted but for one of its band hashes is not reused with stale buckets.
  await client.hSet('{stalesk}:b19:3ff', 'x', 'y');
  await assert.rejects(RedisContentSeen.open(client, { namespace: 'stalesk', sketch: true }), (e) => e.code === 'InvalidOption' && /\{stalesk\}:b19:3ff/.test(e.message));
  await client.del('{stalesk}:b19:3ff');
  const fresh = await RedisContentSeen.open(client, { namespace: 'stalesk', sketch: true });
  assert.equal(fresh.created, true);
  // Sketch mode writes store format 5 (band records since 4); a sketch-mode namespace of format 3
  // (bare page numbers in band hashes, development builds only) is refused, saying what to do.
  const meta = fresh._store.meta();
  assert.match(meta, /^simhash-wasm-redis 5\n/);
  await client.set('{sk3}:meta', meta.replace('simhash-wasm-redis 5', 'simhash-wasm-redis 3'));
  await assert.rejects(RedisContentSeen.open(client, { namespace: 'sk3', sketch: true }), (e) => e.code === 'SchemeMismatch' && /store format/.test(e.message) && /importSnapshot/.test(e.message));
  assert.equal(await client.get('{sk3}:meta'), meta.replace('simhash-wasm-redis 5', 'simhash-wasm-redis 3'), 'not upgraded');
  // A sketch-mode namespace of format 4 (the same band records) is upgraded in place.
  await client.set('{sk4}:meta', meta.replace('simhash-wasm-redis 5', 'simhash-wasm-redis 4'));
  const sk4 = await RedisContentSeen.open(client, { namespace: 'sk4', sketch: true });
  assert.equal(sk4.created, false);
  assert.equal(await client.get('{sk4}:meta'), meta);
  sk4.close();
  fresh.close();
  await assert.rejects(RedisContentSeen.open(client, { namespace: 'x', sketch: 256 }), (e) => e.code === 'InvalidOption' && /128/.test(e.message));
  await assert.rejects(RedisContentSeen.open(client, { namespace: 'x', sketch: true, urls: false }), (e) => e.code === 'InvalidOption' && /urls/.test(e.message));
});

/** Sketch mode's fault test: `victim` (kill, restart) is killed once 30% of the pages are checked. */
async function faultInSketchMode(t, target, connect, victim, n) {
  const pages = textStream(n, { seed: 11, dupShare: 0.3 });
  let fired = false;
  let restarted = false;
  const results = await runWorkers(target, 'fault-sketch', pages, 4, {
    retries: 40,
    sketch: true,
    onProgress: (done) => {
      if (fired || done < n * 0.3) return;
      fired = true;
      victim
        .kill()
        .then(() => new Promise((r) => setTimeout(r, 400)))
        .then(() => victim.restart())
        .then(() => (restarted = true));
    },
  });
  assert.ok(fired && restarted, 'the server was killed and restarted during the crawl');
  const c = await connect();
  try {
    const seen = await RedisContentSeen.open(c, { namespace: 'fault-sketch', sketch: true });
    assert.equal(seen.created, false, 'the namespace survived the restart');
    const text = new Map(pages.map((p) => [p.url, p.text]));
    const { stored, total, decided } = await checkSketchInvariants(seen, results, {
      fpOf: (u) => fpSketch(text.get(u)).fingerprint,
      sketchOf: (u) => fpSketch(text.get(u)).sketch,
      estimate: estimateJaccard,
    });
    const errors = results.filter((r) => r.error).length;
    t.diagnostic(`decided ${decided}, errors ${errors}, retried calls ${results.retriedCalls}, count total ${total}, stored ${stored.length}`);
    assert.ok(results.retriedCalls + errors > 0, 'the fault hit running checks');
    assert.ok(decided > n * 0.9, `most checks were decided (${decided})`);
    assertNewOnce(stored, results);
    assert.ok(total >= decided && total <= decided + errors, `count total ${total}, decided ${decided}, errors ${errors}`);
    seen.close();
  } finally {
    await c.quit().catch(() => {});
  }
}

test('sketch mode fault: kill redis-server mid-crawl, restart with AOF: invariants hold', { skip }, async (t) => {
  const own = await startServer();
  try {
    await faultInSketchMode(
      t,
      { url: own.url },
      async () => {
        const c = createClient({ url: own.url });
        await c.connect();
        return c;
      },
      own,
      1200,
    );
  } finally {
    await own.stop();
  }
});

test('sketch mode fault: kill the cluster master serving the namespace mid-crawl, restart it with AOF', { skip }, async (t) => {
  const own = await startCluster();
  try {
    await faultInSketchMode(
      t,
      { cluster: own.rootNodes },
      async () => {
        const c = createCluster({ rootNodes: own.rootNodes });
        await c.connect();
        return c;
      },
      own.ownerOf('{fault-sketch}:meta'),
      900,
    );
  } finally {
    await own.stop();
  }
});
