// RedisContentSeen learns the site templates as ContentSeen does (src/redis/template.rs):
// one worker checking real pages in order (the html_seen set's English part: articles,
// copies in other templates, print versions, short pages in a template) decides as
// ContentSeen with the same options, in sketch mode and fingerprint-only; pages given as
// bytes; workers learning the same page at once count it once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { haveRedis, startServer } from './redis-server.mjs';
import { buildSet } from '../../scripts/quality-html/20-seen.mjs';

const require = createRequire(import.meta.url);
const { RedisContentSeen, ContentSeen } = require('../../pkg/index.cjs');
const { createClient } = require('redis');

const bench = new URL('../../../shared/extract-bench/ground-truth.json', import.meta.url);
const skip = !haveRedis() ? 'redis-server is not installed (scripts/setup.sh installs it)' : !existsSync(bench) ? 'the article-extraction benchmark is not in ../shared/extract-bench' : false;
let server, client;
/** `i` in letters (`0` a, `27` bb): lines that differ by a number only are one block. */
const spelled = (i) => (i < 26 ? '' : spelled(Math.floor(i / 26) - 1)) + String.fromCharCode(97 + (i % 26));
test.before(async () => {
  if (skip) return;
  server = await startServer();
  client = createClient({ url: server.url });
  await client.connect();
});
test.after(async () => {
  if (client) await client.quit().catch(() => {});
  if (server) await server.stop();
});

for (const sketch of [true, false]) {
  test(`templates: one worker in order decides as ContentSeen (sketch ${sketch})`, { skip }, async (t) => {
    const set = buildSet({ english: 16, chinese: 0 });
    const redis = await RedisContentSeen.open(client, { namespace: `tpl-${sketch}`, html: true, sketch: sketch ? true : false });
    assert.equal(redis.options().template, 3);
    assert.equal(redis.options().content, 'main');
    const local = new ContentSeen({ html: true, ...(sketch ? {} : { sketch: false }) });
    let dups = 0;
    for (const [i, p] of set.entries()) {
      const body = i % 2 ? Buffer.from(p.html) : p.html;
      const want = local.check(p.id, body);
      const got = await redis.check(p.id, body);
      for (const k of ['duplicate', 'empty', 'cluster', 'count']) assert.equal(got[k], want[k], `#${i} ${p.id} ${p.kind}: ${k}`);
      assert.deepEqual(got.matches.map((m) => m.id), want.matches.map((m) => m.id), `#${i}`);
      dups += want.duplicate;
    }
    assert.ok(dups > 30, `${dups} duplicates`);
    // Short pages in one template were told apart (they are their own groups).
    const short = set.filter((p) => p.kind === 'short page');
    assert.ok(short.filter((p) => local.clusterOf(p.id) === p.id).length >= short.length - 2, 'short pages stored as their own');
    assert.equal(await redis.size, local.size);
    // The template keys: per host a set of page keys and a hash of block counts (the host
    // with the most pages in the set).
    const perHost = new Map();
    for (const p of set) perHost.set(new URL(p.id).host, (perHost.get(new URL(p.id).host) ?? 0) + 1);
    const host = [...perHost].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0];
    assert.ok((await client.sCard(`{tpl-${sketch}}:tp:${host}`)) >= 3);
    assert.ok((await client.hLen(`{tpl-${sketch}}:tb:${host}`)) > 0);
    t.diagnostic(`${set.length} pages, ${dups} duplicates`);
    local.free();
    redis.close();
  });
}

test('templates: workers learning the same pages at once count each page once', { skip }, async () => {
  const page = (own) => `<html><body><nav><a href=/>Home</a> <a href=/about>About us</a></nav><main><p>${own}</p></main>` +
    '<footer><p>The Example Gazette is written, edited and printed in Springfield, every day of the year.</p></footer></body></html>';
  const workers = await Promise.all([0, 1, 2, 3].map(() => RedisContentSeen.open(client, { namespace: 'tpl-race', html: true })));
  const owns = ['Letters to the editor are welcome, by post or by email.', 'The crossword answers are printed on page two, tomorrow.', 'Our archive holds every issue since the first one, in 1901.'];
  for (const own of owns) await Promise.all(workers.map((w, i) => w.check(`https://gazette.example/p?w=${i}&o=${own.length}`, page(own))));
  // Four workers checked each page at once: each page was learnt once.
  assert.equal(await client.sCard('{tpl-race}:tp:gazette.example'), 3);
  const counts = Object.values(await client.hGetAll('{tpl-race}:tb:gazette.example')).map(Number);
  assert.equal(Math.max(...counts), 3, 'the template lines were counted once per page');
  // The template is known now: a new short page is read by its own line.
  const got = await workers[0].check('https://gazette.example/jobs', page('We are hiring two reporters and a photographer.'));
  assert.equal(got.duplicate, false);
  for (const w of workers) w.close();
});

// Migration keeps the templates: a ContentSeen snapshot imported into Redis and exported
// again gives the same bytes, and the store decides the next pages as the snapshot does
// (a host past its 64 pages included: it stays full in Redis).
for (const sketch of [true, false]) {
  test(`templates: a snapshot goes into Redis and back with its templates (sketch ${sketch})`, { skip }, async () => {
    const set = buildSet({ english: 16, chinese: 0 });
    const words = ['river', 'lantern', 'orchard', 'harbour', 'meadow', 'copper', 'violet', 'thunder', 'saffron', 'glacier'];
    // Each card's line is its own block: numbers alone do not tell lines apart.
    const archive = Array.from({ length: 70 }, (_, i) => ({
      id: `https://archive.example/item/${i}`,
      html: `<html><body><nav><a href=/>Archive</a> <a href=/search>Search</a></nav><main><p>Item ${spelled(i)}: a ${words[i % 10]} ${words[(i * 3 + 1) % 10]} and ${words[(i * 7 + 2) % 10]} catalogue card, number ${i * 37}.</p></main>` +
        '<footer><p>The archive is open to readers from nine to five, Monday to Saturday.</p></footer></body></html>',
    }));
    const first = [...set.slice(0, set.length >> 1), ...archive.slice(0, 66)];
    const later = [...set.slice(set.length >> 1), ...archive.slice(66)];
    const opts = { html: true, ...(sketch ? {} : { sketch: false }) };
    const local = new ContentSeen(opts);
    for (const p of first) local.check(p.id, p.html);
    const snap = local.toBytes();
    const ns = `tpl-migrate-${sketch}`;
    const redis = await RedisContentSeen.open(client, { namespace: ns, ...opts, sketch: sketch ? true : false });
    await redis.importSnapshot(snap, { batch: 7 });
    assert.equal(await client.sCard(`{${ns}}:tp:archive.example`), 64, 'the full host is full in Redis');
    assert.ok((await client.hLen(`{${ns}}:tb:archive.example`)) > 0);
    assert.deepEqual(Buffer.from(await redis.exportSnapshot()), Buffer.from(snap), 'export gives back the snapshot');
    // Both sides decide the later pages alike (the model, not only the pages, came over).
    const back = ContentSeen.fromBytes(snap);
    let short = 0;
    for (const [i, p] of later.entries()) {
      const want = back.check(p.id, p.html);
      const got = await redis.check(p.id, p.html);
      for (const k of ['duplicate', 'empty', 'cluster', 'count']) assert.equal(got[k], want[k], `#${i} ${p.id} ${p.kind}: ${k}`);
      short += p.kind === 'short page';
    }
    assert.ok(short > 0);
    assert.equal(await client.sCard(`{${ns}}:tp:archive.example`), 64, 'a full host learns no more');
    // And the store's state after those checks exports as the ContentSeen's.
    assert.deepEqual(Buffer.from(await redis.exportSnapshot()), Buffer.from(back.toBytes()), 'export after more checks');
    back.free();
    local.free();
    redis.close();
  });
}

test('templates: a version-4 namespace is kept at version 4, its blocks hashed by their words', { skip }, async () => {
  // Three pages of one host whose footers differ by a reader count only.
  const page = (own, readers) => `<html><body><nav><a href=/>Home</a> <a href=/about>About us</a></nav><main><p>${own}</p></main>` +
    `<footer><p>The Example Gazette is written, edited and printed in Springfield.</p><p>${readers} readers online</p></footer></body></html>`;
  const owns = ['Letters to the editor are welcome, by post or by email.', 'The crossword answers are printed on page two, tomorrow.', 'Our archive holds every issue since the first one.'];
  const now = await RedisContentSeen.open(client, { namespace: 'tpl-v5', html: true });
  const meta5 = now._store.meta();
  assert.match(meta5, /^simhash-wasm-redis 5\n/);
  const meta4 = meta5.replace('simhash-wasm-redis 5\n', 'simhash-wasm-redis 4\n');
  await client.set('{tpl-v4}:meta', meta4);
  const kept = await RedisContentSeen.open(client, { namespace: 'tpl-v4', html: true });
  assert.equal(kept.created, false);
  assert.equal(await client.get('{tpl-v4}:meta'), meta4, 'not upgraded: its counts are of word blocks');
  for (const [i, own] of owns.entries()) {
    for (const s of [now, kept]) await s.check(`https://gazette.example/p${i}`, page(own, 1200 + 17 * i));
  }
  // Version 5: the three counts are one block; version 4: three.
  const v5 = await client.hLen('{tpl-v5}:tb:gazette.example');
  assert.equal(await client.hLen('{tpl-v4}:tb:gazette.example'), v5 + 2);
  // Each exports as the ContentSeen snapshot of its version, which loads and decides alike.
  const snap4 = Buffer.from(await kept.exportSnapshot());
  const snap5 = Buffer.from(await now.exportSnapshot());
  assert.equal(snap4.readUInt32LE(8), 4);
  assert.equal(snap5.readUInt32LE(8), 5);
  const next = page('We are hiring two reporters and a photographer.', 987);
  for (const [snap, redis] of [[snap4, kept], [snap5, now]]) {
    const local = ContentSeen.fromBytes(snap);
    const want = local.check('https://gazette.example/jobs', next);
    const got = await redis.check('https://gazette.example/jobs', next);
    for (const k of ['duplicate', 'empty', 'cluster', 'count', 'fingerprint']) assert.equal(got[k], want[k], k);
    local.free();
  }
  // A version-4 snapshot imported into a version-5 namespace brings its pages, not its
  // template counts (they cannot be rehashed): the namespace learns its templates again.
  const into = await RedisContentSeen.open(client, { namespace: 'tpl-import', html: true });
  await into.importSnapshot(snap4);
  assert.equal(await into.size, await kept.size - 1, 'every page but the one checked after the export');
  assert.equal(await client.exists('{tpl-import}:tb:gazette.example'), 0);
  for (const s of [now, kept, into]) s.close();
});
