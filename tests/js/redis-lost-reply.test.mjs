// Lost replies: the workers reach Redis through a TCP proxy on loopback that, now and
// then, forwards a request and then closes the connection instead of forwarding the reply
// (startProxy in redis-server.mjs). The server ran the call; the client sees a dropped
// connection and repeats it (`retries`). Every page is checked by two workers at about the
// same time. Over many rounds (10 on one server, 4 on a 3-master cluster), in both modes:
// every stored page is reported new to exactly one check, every page reported new is
// stored, counts are exact, and sketch mode's or the fingerprint store's invariants hold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { haveRedis, startServer, startCluster, startProxy } from './redis-server.mjs';
import { pageStream, textStream, checkInvariants, checkSketchInvariants, rng } from './redis-common.mjs';

const require = createRequire(import.meta.url);
const { RedisContentSeen, ContentSeen, SimHasher, estimateJaccard } = require('../../pkg/index.cjs');
// A script's source as the package sends it (its SHA1 names it in EVALSHA).
const wasmScript = (name) => require('../../pkg/node/simhash_wasm.js').__RedisStore.script(name);
const { createClient, createCluster } = require('redis');

const skip = haveRedis() ? false : 'redis-server is not installed (scripts/setup.sh installs it)';
const WORKERS = 3;
const IN_FLIGHT = 4; // checks each worker keeps going (they share script calls in fingerprint mode)

const hasher = new SimHasher();
const memo = new Map();
function fpSketch(text) {
  let r = memo.get(text);
  if (!r) memo.set(text, (r = hasher.fingerprintAndSketch(text)));
  return r;
}

/**
 * WORKERS instances opened with `options` on clients from `connect()` (through the
 * proxies) check `pages`, each page by two of them: their results, and the checks replayed
 * and calls retried.
 */
async function checkAll({ connect, pages, seed, options }) {
  const next = rng(seed);
  const shares = Array.from({ length: WORKERS }, () => []);
  for (const p of pages) {
    const a = Number(next() % BigInt(WORKERS));
    const b = (a + 1 + Number(next() % BigInt(WORKERS - 1))) % WORKERS;
    shares[a].push(p);
    shares[b].push(p);
  }
  const clients = [];
  const seens = [];
  for (let w = 0; w < WORKERS; w++) {
    const c = await connect();
    clients.push(c);
    seens.push(await RedisContentSeen.open(c, { ...options, retries: 60 }));
  }
  const results = [];
  await Promise.all(
    shares.map(async (share, w) => {
      let at = 0;
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          while (at < share.length) {
            const p = share[at++];
            try {
              const r = p.text !== undefined ? await seens[w].check(p.url, p.text) : await seens[w].checkFingerprint(p.url, p.fp);
              results.push({ url: p.url, duplicate: r.duplicate, cluster: r.cluster, count: r.count });
            } catch (error) {
              results.push({ url: p.url, error: error.code || String(error) });
            }
          }
        }),
      );
    }),
  );
  const replayed = seens.reduce((a, s) => a + s.stats.replayed, 0);
  const retried = seens.reduce((a, s) => a + s.retriedCalls, 0);
  for (const s of seens) s.close();
  for (const c of clients) await c.disconnect().catch(() => {});

  assert.deepEqual(results.filter((r) => r.error), [], 'no check failed (the retries outlast the faults)');
  assert.equal(results.length, 2 * pages.length);
  return { results, replayed, retried };
}

/**
 * One round: WORKERS instances check `pages` through the proxies (checkAll), then the
 * namespace is checked with `direct`.
 */
async function round(t, { connect, direct, namespace, pages, sketch, seed }) {
  const { results, replayed, retried } = await checkAll({ connect, pages, seed, options: { namespace, sketch } });
  const seen = await RedisContentSeen.open(direct, { namespace, sketch });
  try {
    let inv;
    if (sketch) {
      const text = new Map(pages.map((p) => [p.url, p.text]));
      inv = await checkSketchInvariants(seen, results, {
        fpOf: (u) => fpSketch(text.get(u)).fingerprint,
        sketchOf: (u) => fpSketch(text.get(u)).sketch,
        estimate: estimateJaccard,
      });
    } else {
      inv = await checkInvariants(seen, pages, results);
    }
    // Every stored page was reported new to exactly one check; no other page was.
    const newBy = new Map();
    for (const r of results) if (!r.duplicate) newBy.set(r.url, (newBy.get(r.url) || 0) + 1);
    const storedUrls = new Set(inv.stored.map((p) => p.id));
    for (const p of inv.stored) assert.equal(newBy.get(p.id), 1, `${p.id} was reported new ${newBy.get(p.id) || 0} times`);
    for (const url of newBy.keys()) assert.ok(storedUrls.has(url), `${url} was reported new and is not stored`);
    // Counts are exact: every check counted once (the URL map keeps the ids of the last
    // four checks of a URL counted as duplicates, whichever page each was counted under, so
    // two workers' checks of one URL racing around a lost reply each find theirs, even when
    // a closer page stored meanwhile moved the URL's count to it).
    await t.test(`${namespace}: counts are exact`, () => {
      assert.equal(inv.total, results.length, `count total ${inv.total} for ${results.length} checks, ${retried} calls repeated`);
    });
    t.diagnostic(`${namespace}: ${results.length} checks, ${inv.stored.length} stored, ${retried} calls repeated, ${replayed} answered from their first attempt`);
    return { replayed, retried };
  } finally {
    seen.close();
  }
}

/** Rounds in both modes against `target` ({ connect, direct, proxies }). */
// `n` rounds in each mode, each a new race (its own pages, seeds and namespace): the
// races between lost replies and the other worker's checks differ from round to round.
async function rounds(t, target, { fpPages, textPages, n }) {
  const replayed = { false: 0, true: 0 };
  const drops = { false: 0, true: 0 };
  for (let i = 0; i < n; i++) {
    for (const sketch of [false, true]) {
      const pages = sketch ? textStream(textPages, { seed: 100 + i, dupShare: 0.3 }) : pageStream(fpPages, { seed: 200 + i, dupShare: 0.3 });
      const before = target.proxies.reduce((a, p) => a + p.drops, 0);
      const r = await round(t, { ...target, namespace: `lost-${sketch ? 's' : 'f'}${i}`, pages, sketch, seed: 300 + i });
      const dropped = target.proxies.reduce((a, p) => a + p.drops, 0) - before;
      assert.ok(dropped > 0, 'the proxy lost replies');
      replayed[sketch] += r.replayed;
      drops[sketch] += dropped;
    }
  }
  // The faults hit calls that the server had applied, and those were answered from their
  // first attempt: the case this test is about did happen, in each mode.
  for (const mode of ['false', 'true']) {
    const name = mode === 'true' ? 'sketch mode' : 'fingerprint-only';
    assert.ok(replayed[mode] > 0, `${name}: ${replayed[mode]} checks answered from their first attempt (${drops[mode]} replies lost)`);
  }
}

/**
 * One redis-server behind a proxy that loses replies (`seed`): `fn({ connect, direct,
 * proxy })`, `connect()` giving clients through the proxy and `direct` one without it.
 */
async function behindProxy(seed, fn) {
  const server = await startServer();
  const proxy = await startProxy(server.port, { rate: 0.04, seed });
  const direct = createClient({ url: server.url });
  await direct.connect();
  try {
    const connect = async () => {
      const c = createClient({ url: `redis://127.0.0.1:${proxy.port}`, socket: { reconnectStrategy: () => 10 } });
      c.on('error', () => {});
      await c.connect();
      return c;
    };
    await fn({ connect, direct, proxy });
  } finally {
    await direct.quit().catch(() => {});
    await proxy.stop();
    await server.stop();
  }
}

test('lost replies, one server: every stored page is reported new exactly once, both modes', { skip }, (t) =>
  behindProxy(7, ({ connect, direct, proxy }) => rounds(t, { connect, direct, proxies: [proxy] }, { fpPages: 400, textPages: 200, n: 10 })));

// Without the URL map a stored page's check is remembered by its id alone ({NS}:r:ID, for
// 10 minutes), and the store keeps no page to list: every fingerprint is reported new at
// most once, and the stored pages are as many as the "new" answers.
test('lost replies, urls: false: every stored page is reported new exactly once', { skip }, () =>
  behindProxy(23, async ({ connect, direct, proxy }) => {
    let replayed = 0;
    for (let i = 0; i < 4; i++) {
      const options = { namespace: `lost-bare${i}`, sketch: false, urls: false };
      const pages = pageStream(400, { seed: 500 + i, dupShare: 0.3 });
      const before = proxy.drops;
      const r = await checkAll({ connect, pages, seed: 600 + i, options });
      assert.ok(proxy.drops > before, 'the proxy lost replies');
      replayed += r.replayed;
      const fpOf = new Map(pages.map((p) => [p.url, p.fp]));
      const newBy = new Map();
      for (const x of r.results) if (!x.duplicate) newBy.set(fpOf.get(x.url), (newBy.get(fpOf.get(x.url)) || 0) + 1);
      for (const [fp, n] of newBy) assert.equal(n, 1, `${fp.toString(16)} was reported new ${n} times`);
      const seen = await RedisContentSeen.open(direct, options);
      assert.equal(await seen.size, newBy.size, 'the stored pages are the pages reported new');
      seen.close();
    }
    assert.ok(replayed > 0, `${replayed} checks answered from their first attempt`);
  }));

test('lost replies, 3-master cluster: every stored page is reported new exactly once, both modes', { skip }, async (t) => {
  const cluster = await startCluster();
  const proxies = await Promise.all(cluster.nodes.map((n, i) => startProxy(n.port, { rate: 0.04, seed: 11 + i })));
  const viaProxy = new Map(cluster.nodes.map((n, i) => [n.port, proxies[i].port]));
  const direct = createCluster({ rootNodes: cluster.rootNodes });
  await direct.connect();
  try {
    const connect = async () => {
      const c = createCluster({
        rootNodes: proxies.map((p) => ({ url: `redis://127.0.0.1:${p.port}` })),
        // The nodes announce their own ports; the client reaches each through its proxy.
        nodeAddressMap: (address) => {
          const [host, port] = address.split(':');
          return { host, port: viaProxy.get(Number(port)) ?? Number(port) };
        },
        defaults: { socket: { reconnectStrategy: () => 10 } },
      });
      c.on('error', () => {});
      await c.connect();
      return c;
    };
    await rounds(t, { connect, direct, proxies }, { fpPages: 250, textPages: 120, n: 4 });
  } finally {
    await direct.quit().catch(() => {});
    for (const p of proxies) await p.stop();
    await cluster.stop();
  }
});

/** The sum of the stored pages' counts in `seen`'s namespace. */
async function countTotal(seen) {
  let total = 0;
  for await (const p of seen.clusters({ batch: 100 })) total += p.count;
  return total;
}

// The interleaving behind the race, made on purpose against the real scripts (a repeat is
// a check sent again with its `checkId`, as a retry after a lost reply is): X of URL u is
// counted under page a; page b, one bit from u's content and four from a, is stored; Y of
// u is counted under b; X is repeated. Then u gets content of its own (stored, or its page
// replaced) and X and Y are repeated again. Every repeat is answered from its id, counted
// under the page u's newest counted check was counted under (b), and counts nothing.
test('a repeat after its URL was counted under another page is counted once, both modes', { skip }, async () => {
  const server = await startServer();
  const client = createClient({ url: server.url });
  await client.connect();
  try {
    for (const sketch of [false, true]) {
      for (const urlStored of [false, true]) {
        const namespace = `switch-${sketch ? 's' : 'f'}-${urlStored}`;
        const seen = await RedisContentSeen.open(client, { namespace, sketch, k: 3 });
        const x = 0x0f0f123456789abcn;
        const [a, b] = [x ^ 0b111n, x ^ (1n << 40n)];
        const [X, Y] = [0x1111n, 0x2222n];
        const u = 'https://switch.example/u';
        const what = `${namespace}`;
        if (urlStored) assert.equal((await seen.checkFingerprint(u, ~x & 0xffffffffffffffffn)).duplicate, false);
        assert.equal((await seen.checkFingerprint('https://switch.example/a', a)).duplicate, false);
        const first = await seen.checkFingerprint(u, x, { checkId: X });
        assert.deepEqual([first.duplicate, first.cluster, first.count], [true, 'https://switch.example/a', 2], what);
        assert.equal((await seen.checkFingerprint('https://switch.example/b', b)).duplicate, false, 'b is 4 bits from a');
        const other = await seen.checkFingerprint(u, x, { checkId: Y });
        assert.deepEqual([other.duplicate, other.cluster, other.count], [true, 'https://switch.example/b', 2], what);
        const checks = 4 + Number(urlStored);
        const again = await seen.checkFingerprint(u, x, { checkId: X });
        assert.equal(seen.stats.replayed, 1, `${what}: X's repeat found its id`);
        assert.deepEqual([again.duplicate, again.cluster, again.count], [true, 'https://switch.example/b', 2], what);
        assert.equal(await countTotal(seen), checks, `${what}: every check counted once`);
        // u gets content of its own (32 bits from x): stored, or its page replaced, whose
        // count (its own check) goes with it.
        assert.equal((await seen.checkFingerprint(u, x ^ 0xffff0000ffff0000n)).duplicate, false, what);
        for (const id of [X, Y]) {
          const r = await seen.checkFingerprint(u, x, { checkId: id });
          assert.deepEqual([r.duplicate, r.cluster], [true, 'https://switch.example/b'], what);
        }
        assert.equal(seen.stats.replayed, 3, `${what}: every repeat found its id`);
        assert.equal(await countTotal(seen), checks + 1 - Number(urlStored), `${what}: every check counted once`);
        assert.equal(await seen.count('https://switch.example/a'), 2);
        assert.equal(await seen.count('https://switch.example/b'), 2);
        seen.close();
      }
    }
  } finally {
    await client.quit().catch(() => {});
    await server.stop();
  }
});

test('a check that failed for good, repeated with its checkId, gets the answer its lost attempt got', { skip }, async () => {
  const server = await startServer();
  const proxy = await startProxy(server.port, { rate: 0 });
  const c = createClient({ url: `redis://127.0.0.1:${proxy.port}`, socket: { reconnectStrategy: () => 10 } });
  c.on('error', () => {});
  await c.connect();
  try {
    for (const sketch of [false, true]) {
      const seen = await RedisContentSeen.open(c, { namespace: `again-${sketch}`, sketch, retries: 1 });
      const [warm, page] = textStream(2, { seed: 9 });
      await seen.check('https://again/0', warm.text); // the script is loaded (no NOSCRIPT round)
      const text = page.text;
      // Every reply lost from now on, handshakes too: the call runs, its answer never arrives.
      [proxy.rate, proxy.skip] = [1, 0];
      const err = await seen.check('https://again/1', text).then(
        () => assert.fail('the check succeeded with every reply lost'),
        (e) => e,
      );
      [proxy.rate, proxy.skip] = [0, 3];
      assert.equal(err.code, 'RedisError');
      assert.equal(typeof err.checkId, 'bigint');
      assert.ok(seen.retriedCalls >= 1);
      // The page was stored by the lost attempt; the repeat with its id is told it is new.
      const r = await seen.check('https://again/1', text, { checkId: err.checkId });
      assert.equal(r.duplicate, false, `sketch ${sketch}`);
      assert.equal(seen.stats.replayed, 1);
      // Any other check of it is a duplicate, and the count is 2: the repeat counted nothing.
      const again = await seen.check('https://again/1', text);
      assert.equal(again.duplicate, true);
      assert.equal(again.count, 2);
      await assert.rejects(seen.check('https://again/2', text, { checkId: 0n }), (e) => e.code === 'InvalidOption' && /checkId/.test(e.message));
      await assert.rejects(seen.check('https://again/2', text, { checkId: -1n }), (e) => e.code === 'InvalidOption');
      await assert.rejects(seen.check('https://again/2', text, { other: 1 }), (e) => e.code === 'InvalidOption');
      seen.close();
    }
  } finally {
    await c.disconnect().catch(() => {});
    await proxy.stop();
    await server.stop();
  }
});

// A page in a site template is checked, then learnt (a second script call). A LEARN that
// fails after the check was decided fails the check with its id; the repeat gets the
// decided answer, and the page is counted once in its host's template, whether the lost
// LEARN ran on the server or not.
test('a check whose LEARN call fails is repeated with its checkId and is new once, both modes', { skip }, async () => {
  const server = await startServer();
  const real = createClient({ url: server.url });
  await real.connect();
  let fail = null; // 'before': the call never reaches the server; 'after': its reply is lost
  const learnShas = new Set(['learn'].map((n) => createHash('sha1').update(wasmScript(n)).digest('hex')));
  const flaky = {
    get isReady() { return real.isReady; },
    async sendCommand(args, opts) {
      const learn = args[0] === 'EVALSHA' && learnShas.has(String(args[1]));
      if (learn && fail === 'before') { fail = null; throw new Error('Socket closed unexpectedly'); }
      const reply = await real.sendCommand(args, opts);
      if (learn && fail === 'after') { fail = null; throw new Error('Socket closed unexpectedly'); }
      return reply;
    },
  };
  const page = (n, own) => `<html><body><nav><a href="/">Home</a> <a href="/world">World news</a> <a href="/about">About the Gazette</a></nav>` +
    `<main><article><h1>Story ${n}</h1><p>${own}</p></article></main>` +
    `<footer><p>The Example Gazette is printed in Springfield every morning of the year.</p><p>Letters to the editor go to the desk on Main Street.</p></footer></body></html>`;
  const stories = textStream(6, { seed: 21 }).map((p) => p.text);
  try {
    for (const sketch of [false, true]) {
      for (const when of ['before', 'after']) {
        const seen = await RedisContentSeen.open(flaky, { namespace: `learn-${sketch}-${when}`, html: true, sketch });
        await seen.check('https://gazette.test/0', page(0, stories[0]));
        fail = when;
        const err = await seen.check('https://gazette.test/1', page(1, stories[1])).then(
          () => assert.fail('the check succeeded although its LEARN call failed'),
          (e) => e,
        );
        assert.equal(fail, null, 'the LEARN call was made');
        assert.equal(err.code, 'RedisError');
        assert.equal(typeof err.checkId, 'bigint', `${when}: the error carries the check's id`);
        assert.match(err.message, /checkId/);
        const r = await seen.check('https://gazette.test/1', page(1, stories[1]), { checkId: err.checkId });
        assert.equal(r.duplicate, false, `sketch ${sketch}, ${when}: the page is new`);
        assert.equal(r.count, 1);
        assert.equal(await seen.count('https://gazette.test/1'), 1);
        // Counted once in the template: the local class, fed the same pages, decides the same
        // on a page whose own text is a copy of story 1 in the template.
        const local = new ContentSeen({ html: true, ...(sketch ? {} : { sketch: false }) });
        local.check('https://gazette.test/0', page(0, stories[0]));
        local.check('https://gazette.test/1', page(1, stories[1]));
        for (let i = 2; i < 6; i++) {
          const a = await seen.check(`https://gazette.test/${i}`, page(i, stories[i]));
          const b = local.check(`https://gazette.test/${i}`, page(i, stories[i]));
          assert.deepEqual([a.duplicate, a.count], [b.duplicate, b.count], `page ${i}`);
        }
        const copy = await seen.check('https://gazette.test/copy', page(9, stories[1]));
        assert.equal(copy.duplicate, local.check('https://gazette.test/copy', page(9, stories[1])).duplicate);
        local.free();
        seen.close();
      }
    }
  } finally {
    await real.quit().catch(() => {});
    await server.stop();
  }
});
