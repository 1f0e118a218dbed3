// Namespaces written by OLD builds (tests/data/redis/*.json: every key, as the old build left
// it after a small crawl; see the README there) load as FORMATS.md says: each is restored
// into a fresh redis-server and opened by this build. Upgraded kinds get this build's meta
// and nothing else changes; kept kinds keep their meta; refused kinds are refused with the
// advice and left as they are. Then size, count, clusterOf and clusters() answer as the old
// build answered, and the crawl continues as an in-memory ContentSeen with the same options
// decides on the same pages (or, for a kind kept in its old format, as the old build did).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { haveRedis, startServer } from './redis-server.mjs';
import { dumpNamespace, restoreNamespace } from '../../scripts/redis-golden-common.mjs';

const require = createRequire(import.meta.url);
const { RedisContentSeen, ContentSeen } = require('../../pkg/index.cjs');
const IORedis = require('ioredis');

const skip = haveRedis() ? false : 'redis-server is not installed (scripts/setup.sh installs it)';

// What FORMATS.md says of each kind: `open` the options this build opens it with (the
// golden's, plus what a format without `content` and `template` lines read), `expect`
// `upgrade` (meta rewritten in place to this build's, nothing else changed), `keep` (meta
// and keys as they are, worked in as the old format) or `refuse` (SchemeMismatch on the
// store format, with the advice; nothing changed).
const KINDS = {
  'fmt2-text': { expect: 'upgrade' },
  'fmt2-sketch': { expect: 'refuse' },
  'fmt3-text': { expect: 'upgrade' },
  'fmt3-sketch': { expect: 'refuse' },
  // Format 3 reads all of an HTML page's text and learns no template: opened with those settings.
  'fmt3-html': { expect: 'upgrade', open: { content: 'all', template: false }, refusedWith: { options: {}, field: /content/ } },
  // Format 5 has format 4's layout but for the site templates: the same crawl by this
  // build writes the same keys (text pages: their fingerprints are pinned by sh64v1).
  'fmt4-text': { expect: 'upgrade', sameLayout: true },
  'fmt4-html-all': { expect: 'upgrade' },
  'fmt4-sketch': { expect: 'upgrade', sameLayout: true },
  // Template blocks hashed by their words (SEEN 4): kept at format 4 and worked in as such.
  'fmt4-template': { expect: 'keep' },
};

const golden = (name) => JSON.parse(readFileSync(new URL(`../data/redis/${name}.json`, import.meta.url), 'utf8'));
// The check ids the golden's old build was given (scripts/redis-golden.mjs).
const checkId = (i) => 0x5eed0000n + BigInt(i + 1);
const pick = (r) => ({ duplicate: r.duplicate, cluster: r.cluster ?? null, count: r.count ?? null });
const byKey = (keys) => new Map(keys.map((k) => [k.key, k]));

async function withServer(fn) {
  const server = await startServer();
  const client = new IORedis({ port: server.port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
  await client.connect();
  try {
    await fn(client);
  } finally {
    client.disconnect();
    await server.stop();
  }
}

async function clustersOf(seen) {
  const out = [];
  for await (const c of seen.clusters()) out.push({ id: c.id, fingerprint: c.fingerprint.toString(16).padStart(16, '0'), count: c.count });
  return out.sort((a, b) => (a.id < b.id ? -1 : 1));
}

for (const [name, kind] of Object.entries(KINDS)) {
  test(`a namespace of ${name} written by an old build: ${kind.expect}`, { skip }, async () => {
    const g = golden(name);
    const ns = g.namespace;
    const options = { namespace: ns, ...g.options, ...kind.open };
    await withServer(async (client) => {
      await restoreNamespace(client, g.keys);
      assert.deepEqual(await dumpNamespace(client, ns), g.keys, 'restored as dumped');
      assert.equal((await client.getBuffer(`{${ns}}:meta`)).toString(), g.meta);

      if (kind.expect === 'refuse') {
        await assert.rejects(RedisContentSeen.open(client, options), (e) => {
          assert.equal(e.code, 'SchemeMismatch', e.message);
          assert.match(e.message, /store format/);
          assert.match(e.message, /importSnapshot/, 'the advice: export with the build that wrote it, import into a new namespace');
          return true;
        });
        assert.deepEqual(await dumpNamespace(client, ns), g.keys, 'a refused namespace is left as it is');
        return;
      }
      if (kind.refusedWith) {
        // Opened with other settings (here this build's defaults) it is refused, unchanged.
        await assert.rejects(RedisContentSeen.open(client, { namespace: ns, ...g.options, ...kind.refusedWith.options }), (e) => e.code === 'SchemeMismatch' && kind.refusedWith.field.test(e.message));
        assert.deepEqual(await dumpNamespace(client, ns), g.keys, 'refused: left as it is');
      }

      const seen = await RedisContentSeen.open(client, options);
      assert.equal(seen.created, false);
      // The meta after opening, and every other key unchanged.
      const fresh = await RedisContentSeen.open(client, { ...options, namespace: 'fresh' });
      const ours = (await client.getBuffer('{fresh}:meta')).toString();
      fresh.close();
      await client.del('{fresh}:meta');
      const after = byKey(await dumpNamespace(client, ns));
      const metaAfter = Buffer.from(after.get(`{${ns}}:meta`).value, 'base64').toString();
      if (kind.expect === 'upgrade') {
        assert.equal(metaAfter, ours, `upgraded in place to this build's meta (was ${JSON.stringify(g.meta)})`);
        assert.match(metaAfter, /^simhash-wasm-redis 5\n/);
      } else {
        assert.equal(metaAfter, g.meta, 'kept as it is');
        assert.match(metaAfter, new RegExp(`^simhash-wasm-redis ${g.storeFormat}\\n`));
      }
      for (const k of g.keys) if (k.key !== `{${ns}}:meta`) assert.deepEqual(after.get(k.key), k, `${k.key} unchanged by opening`);
      assert.equal(after.size, g.keys.length, 'no key added by opening');

      if (kind.sameLayout) {
        // The old crawl again, by this build, into another namespace (the same check ids):
        // the same keys and values as the old build's but the meta (band records, page
        // values, URL map and index buckets alike).
        const replay = await RedisContentSeen.open(client, { ...options, namespace: 'replay' });
        for (const [i, p] of g.pages.entries()) assert.deepEqual(pick(await replay.check(p.url, p.text, { checkId: checkId(i) })), pick(g.answers[i]), `replayed #${i} ${p.url}`);
        replay.close();
        const mine = byKey((await dumpNamespace(client, 'replay')).map((k) => ({ ...k, key: k.key.replace('{replay}', `{${ns}}`) })));
        for (const k of g.keys) if (k.key !== `{${ns}}:meta`) assert.deepEqual(mine.get(k.key), k, `${k.key} as this build writes it`);
        assert.equal(mine.size, g.keys.length, 'the same keys');
      }

      // The stored answers are the old build's.
      assert.equal(await seen.size, g.size, 'size');
      for (const [url, want] of Object.entries(g.byUrl)) {
        assert.equal((await seen.count(url)) ?? null, want.count, `count(${url})`);
        assert.equal((await seen.clusterOf(url)) ?? null, want.clusterOf, `clusterOf(${url})`);
      }
      assert.deepEqual(await clustersOf(seen), g.clusters, 'clusters()');

      // Store format 3 on keeps the check ids: repeating the last check of each URL with
      // its id (as after a lost reply) gets the old build's answer and counts nothing.
      if (g.storeFormat >= 3) {
        const last = new Map(g.pages.map((p, i) => [p.url, i]));
        for (const [url, i] of last) {
          const got = await seen.check(url, g.pages[i].text, { checkId: checkId(i) });
          const want = g.answers[i];
          assert.deepEqual([got.duplicate, got.cluster], [want.duplicate, want.cluster], `#${i} ${url} repeated with its check id`);
        }
        assert.equal(await seen.size, g.size, 'size after the repeats');
        for (const [url, want] of Object.entries(g.byUrl)) assert.equal((await seen.count(url)) ?? null, want.count, `count(${url}) after the repeats`);
      }

      // Continuing the crawl.
      if (kind.expect === 'keep') {
        // Worked in as the old format: the old build's answers on the same pages.
        for (const [j, p] of g.more.entries()) {
          const got = await seen.check(p.url, p.text, { checkId: checkId(g.pages.length + j) });
          assert.deepEqual(pick(got), pick(g.moreAnswers[j]), `more #${j} ${p.url}`);
        }
        // Byte for byte as the old build left it: the template blocks still hashed by their
        // words (`12 comments` and `13 comments` two blocks), the records, the URL map.
        const end = byKey(await dumpNamespace(client, ns));
        for (const k of g.keysAfterMore) assert.deepEqual(end.get(k.key), k, `${k.key} as the old build left it after the same checks`);
        assert.equal(end.size, g.keysAfterMore.length, 'the old build\'s keys, no other');
      } else {
        // As ContentSeen with the same options decides on the same sequence. Its answers
        // on the old crawl are the old build's (the same fingerprints: sh64v1).
        const o = { ...g.options, ...kind.open };
        const local = new ContentSeen({ ...o, sketch: o.sketch === true ? 128 : o.sketch }); // RedisContentSeen's `true` is 128 bytes
        for (const [i, p] of g.pages.entries()) assert.deepEqual(pick(local.check(p.url, p.text)), pick(g.answers[i]), `ContentSeen on the old crawl, #${i} ${p.url}`);
        for (const [j, p] of g.more.entries()) {
          const want = local.check(p.url, p.text);
          const got = await seen.check(p.url, p.text, { checkId: checkId(g.pages.length + j) });
          assert.deepEqual(pick(got), pick(want), `more #${j} ${p.url}`);
          if (want.fingerprint !== null) assert.equal(got.fingerprint, want.fingerprint, `more #${j} fingerprint`);
        }
        assert.equal(await seen.size, local.size, 'size after');
        const localClusters = local.clusters().map((c) => ({ id: c.id, fingerprint: c.fingerprint.toString(16).padStart(16, '0'), count: c.count }));
        assert.deepEqual(await clustersOf(seen), localClusters.sort((a, b) => (a.id < b.id ? -1 : 1)), 'clusters() after');
        local.free();
      }
      // Each index table holds every stored page exactly: a fingerprint 3 bits from the
      // page's, one bit in each 16-bit block but block t, is found (distance 3) through
      // the one table keyed on block t alone (a damaged index record is missed, or found a
      // bit off).
      for (const [i, c] of (await clustersOf(seen)).entries()) {
        const fp = BigInt('0x' + c.fingerprint);
        for (let t = 0; t < 4; t++) {
          let probe = fp;
          for (let b = 0; b < 4; b++) if (b !== t) probe ^= 1n << BigInt(16 * b + 8);
          const r = await seen.checkFingerprint(`https://probe.example/${i}/${t}`, probe);
          assert.ok(
            r.matches.some((m) => m.id === c.id && m.distance === 3),
            `${c.id} (${c.fingerprint}) not found with block ${t} kept (one index table): matches ${JSON.stringify(r.matches.map((m) => [m.id, m.distance]))}`,
          );
        }
      }
      seen.close();
    });
  });
}
