// The crawler-facing API of the npm package: SimHashError, htmlToText, html hashing,
// ContentSeen, and the atomic Node file helpers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import * as esm from '../../pkg/index.mjs';

const require = createRequire(import.meta.url);
const cjs = require('../../pkg/index.cjs');
const { SimHasher, SimHashIndex, ContentSeen, SimHashError, htmlToText, fromHex, fromFeatures, simhashBits, saveIndex, loadIndex, saveSeen, loadSeen } = esm;

const TEXT = 'Near-duplicate detection finds pages that say the same thing under different addresses.';

test('every failure is a SimHashError (ESM and CJS alike) and the next call still works', () => {
  assert.equal(cjs.SimHashError, SimHashError);
  assert.ok(SimHashError.prototype instanceof Error);
  const h = new SimHasher();
  const good = h.fingerprint(TEXT);
  const ix = new SimHashIndex({ k: 3, ids: 'string' });
  const seen = new ContentSeen();
  const failures = [
    () => new SimHasher({ ngram: 0 }),
    () => new SimHasher(42),
    () => new SimHasher({ html: 'yes' }),
    () => new cjs.SimHasher({ bogus: 1 }),
    () => h.fingerprint(''),
    () => h.fingerprintBytes(new Uint8Array([0xff])),
    () => h.fingerprintBatch([TEXT, 'ab']),
    () => fromHex('zz'),
    () => fromFeatures([['a', -1]]),
    () => fromFeatures([[1, 2, 3]]),
    () => simhashBits([{ bits: 'x', weight: 1 }]),
    () => simhashBits('nope'),
    () => new SimHashIndex({ k: 99 }),
    () => new SimHashIndex({ layout: [1] }),
    () => ix.remove('missing'),
    () => { ix.insert('a', 1n); ix.insert('a', 2n); },
    () => ix.insert(5, 1n),
    () => SimHashIndex.fromBytes(new Uint8Array([1, 2, 3])),
    () => seen.check('u', Buffer.from([0x61, 0xff])),
    () => ContentSeen.fromBytes(new Uint8Array(10)),
    () => ContentSeen.fromBytes(ix.toBytes()),
    () => new ContentSeen({ k: 3, layout: 'nope' }),
  ];
  for (const f of failures) {
    assert.throws(f, (e) => e instanceof SimHashError && e instanceof cjs.SimHashError && e instanceof Error &&
      e.name === 'SimHashError' && typeof e.code === 'string' && e.code.length > 0 && typeof e.stack === 'string', String(f));
    assert.equal(h.fingerprint(TEXT), good, `hasher alive after ${f}`);
    assert.equal(new SimHasher().fingerprint(TEXT), good);
    assert.equal(seen.check('probe', TEXT).fingerprint, good);
  }
});

test('htmlToText and the html option: markup, scripts, styles, comments and entities do not count', () => {
  assert.equal(htmlToText('<p>Fish &amp; chips</p><script>x()</script><!-- c --><style>p{}</style><p>caf&eacute;</p>'), 'Fish & chips\ncafé');
  const page = (body) => `<html><head><title>Site</title><script>track()</script></head><body><nav></nav><article><p>${body}</p></article><!-- footer --></body></html>`;
  const other = (body) => `<!doctype html><div class="wrap"><noscript>enable js</noscript><section>${body.replace('same', '<em>sa</em>me').replace('-', '&#45;')}</section></div>`;
  const h = new SimHasher({ html: true });
  assert.equal(h.options().html, true);
  assert.equal(h.fingerprint(page(TEXT)), h.fingerprint(other(TEXT)));
  assert.equal(h.fingerprint(page(TEXT)), new SimHasher().fingerprint(TEXT));
  assert.notEqual(new SimHasher().fingerprint(page(TEXT)), new SimHasher().fingerprint(other(TEXT)));
  // html does not change the scheme recorded in snapshots.
  assert.equal(h.options().scheme, new SimHasher().options().scheme);
});

test('ContentSeen: new pages are stored, duplicates counted, snapshots round-trip and refuse other settings', () => {
  const seen = new ContentSeen({ k: 3, html: true });
  const a = seen.check('https://a.example/1', `<p>${TEXT}</p>`);
  assert.equal(a.duplicate, false);
  assert.deepEqual(a.matches, []);
  assert.equal(typeof a.fingerprint, 'bigint');
  const b = seen.check('https://mirror.example/1', `<div><b>${TEXT}</b></div><script>ads()</script>`);
  assert.equal(b.duplicate, true);
  assert.deepEqual(b.matches, [{ id: 'https://a.example/1', distance: 0 }]);
  assert.equal(b.count, 2);
  seen.check('https://b.example/', '<p>A page about something else entirely: gardening, tomatoes and sun.</p>');
  assert.equal(seen.size, 2);
  assert.equal(seen.count('https://mirror.example/1'), 2);
  assert.equal(seen.count('https://b.example/'), 1);
  assert.equal(seen.count('https://unknown/'), undefined);
  const clusters = seen.clusters();
  assert.equal(clusters[0].id, 'https://a.example/1');
  assert.equal(clusters[0].count, 2);
  assert.deepEqual(clusters[0].duplicates, ['https://mirror.example/1']);
  const bytes = seen.toBytes();
  const back = ContentSeen.fromBytes(bytes);
  assert.deepEqual(back.clusters(), clusters);
  assert.ok(ContentSeen.fromBytes(bytes, { k: 3, html: true }));
  for (const other of [{ k: 4, html: true }, { k: 3 }, { k: 3, html: true, ngram: 5 }]) {
    assert.throws(() => ContentSeen.fromBytes(bytes, other), (e) => e instanceof SimHashError && e.code === 'SchemeMismatch');
  }
});

test('saveIndex/loadIndex and saveSeen/loadSeen write atomically and read back', () => {
  const dir = mkdtempSync(join(tmpdir(), 'simhash-files-'));
  const ix = new SimHashIndex({ k: 3, ids: 'string' });
  ix.insert('a', 0x1234n);
  saveIndex(ix, join(dir, 'index.bin'));
  assert.equal(loadIndex(join(dir, 'index.bin')).get('a'), 0x1234n);
  const seen = new ContentSeen();
  seen.check('u', TEXT);
  saveSeen(seen, join(dir, 'seen.bin'));
  saveSeen(seen, join(dir, 'seen.bin'));   // over an existing file
  assert.equal(loadSeen(join(dir, 'seen.bin')).count('u'), 1);
  assert.deepEqual(readdirSync(dir).sort(), ['index.bin', 'seen.bin']);   // no temp files left
  writeFileSync(join(dir, 'bad.bin'), 'garbage');
  assert.throws(() => loadIndex(join(dir, 'bad.bin')), SimHashError);
  assert.ok(readFileSync(join(dir, 'index.bin')).length > 20);
});

// A freed instance (free(), or the end of a `using` block) refuses every later call with a
// SimHashError (Closed) naming its class, getters included; freeing twice does nothing.
test('an instance used after free() throws Closed, and free() twice is allowed', () => {
  for (const api of [esm, cjs]) {
    const made = [
      ['ContentSeen', new api.ContentSeen(), (s) => s.check('https://a/1', 'the quick brown fox jumps over the lazy dog')],
      ['SimHasher', new api.SimHasher(), (h) => h.fingerprint('the quick brown fox')],
      ['SimHashIndex', new api.SimHashIndex(), (i) => i.query(5n)],
      ['PassageChecker', new api.PassageChecker(), (c) => c.size],
    ];
    for (const [name, obj, use] of made) {
      use(obj); // works while alive
      obj.free();
      assert.throws(() => use(obj), (e) => e instanceof api.SimHashError && e.code === 'Closed' && e.message.includes(name), name);
      obj.free();
      if (Symbol.dispose) obj[Symbol.dispose]();
    }
    // Another instance of the class is unaffected.
    assert.equal(typeof new api.SimHasher().fingerprint('the quick brown fox'), 'bigint');
  }
});

// A list of texts with one item of bytes that are not UTF-8: the error names the item.
test('an invalid UTF-8 item of a list of texts is named, with its index', () => {
  for (const api of [esm, cjs]) {
    const e = (() => { try { new api.SimHasher().fingerprintBatch(['fine text here', Buffer.from('ok'), Buffer.from([0x41, 0xff])]); } catch (err) { return err; } })();
    assert.ok(e instanceof api.SimHashError, String(e));
    assert.equal(e.code, 'InvalidUtf8');
    assert.equal(e.index, 2);
    assert.match(e.message, /^texts\[2\]: /);
  }
});
