// What a crawler hands over: bytes where a text is taken (Crawlee's `body: string |
// Buffer`), pages with no content, and the settings in force.
import test from 'node:test';
import assert from 'node:assert/strict';

import {
  SimHasher, SimHashIndex, ContentSeen, SimHashError, PassageChecker, IdfTable, SimHashPool, htmlToText, dedup,
} from '../../pkg/index.mjs';

const PAGE = '<html><body><h1>Río 中文</h1><p>The quick brown fox jumps over the lazy dog, again and again, said the reporter.</p></body></html>';
const TEXT = 'Crawlers meet the same article under many addresses — «and» keep only one copy of it. 我们都喜欢。';
const BAD = Buffer.concat([Buffer.from('abc 中'), Buffer.from([0xe4, 0xb8]), Buffer.from(' tail')]);   // a cut 3-byte sequence at byte 7

const throwsCode = (fn, code, re) => assert.throws(fn, (e) => {
  assert.ok(e instanceof SimHashError, `${e}`);
  assert.equal(e.code, code, e.message);
  if (re) assert.match(e.message, re);
  return true;
});

test('every text argument takes UTF-8 bytes (Buffer, Uint8Array, a view into a bigger buffer) with the same answer as the string', () => {
  const bytes = (s) => {
    const big = Buffer.from(`xx${s}yy`);   // a view into a bigger buffer, at an offset
    return [Buffer.from(s), new Uint8Array(Buffer.from(s)), new Uint8Array(big.buffer, big.byteOffset + 2, Buffer.byteLength(s))];
  };
  const h = new SimHasher();
  const seenS = new ContentSeen({ html: true });
  const pc = new PassageChecker();
  pc.addReference(TEXT);
  for (const b of bytes(TEXT)) {
    assert.equal(h.fingerprint(b), h.fingerprint(TEXT));
    assert.deepEqual(h.fingerprintBatch([b, TEXT]), h.fingerprintBatch([TEXT, TEXT]));
    assert.deepEqual(h.sketch(b), h.sketch(TEXT));
    assert.deepEqual(h.fingerprintAndSketch(b), h.fingerprintAndSketch(TEXT));
    assert.equal(h.explain(b).normalized, h.explain(TEXT).normalized);
    assert.deepEqual(h.explainArrays(b).hash, h.explainArrays(TEXT).hash);
    assert.deepEqual(pc.check(b), pc.check(TEXT));
    assert.deepEqual(pc.passagesOf(b), pc.passagesOf(TEXT));
    assert.deepEqual(IdfTable.learn([b]).toBytes(), IdfTable.learn([TEXT]).toBytes());
  }
  for (const b of bytes(PAGE)) {
    assert.equal(htmlToText(b), htmlToText(PAGE));
    assert.equal(seenS.fingerprint(b), seenS.fingerprint(PAGE));
  }
  const a = new ContentSeen({ html: true });
  const b = new ContentSeen({ html: true });
  const ra = a.check('https://x/', PAGE);
  const rb = b.check('https://x/', Buffer.from(PAGE));
  assert.deepEqual(rb, ra);
  assert.equal(b.check('https://y/', new TextEncoder().encode(PAGE)).duplicate, true);
  const texts = [TEXT, `${TEXT}!`];
  assert.deepEqual(dedup(['a', 'b'], texts.map((t) => Buffer.from(t))), dedup(['a', 'b'], texts));
  const ix1 = new SimHashIndex();
  const ix2 = new SimHashIndex();
  assert.deepEqual(ix1.dedup(['a', 'b'], [Buffer.from(texts[0]), texts[1]]), ix2.dedup(['a', 'b'], texts));
  // The empty byte string is an empty text.
  throwsCode(() => h.fingerprint(new Uint8Array(0)), 'EmptyText');
});

test('invalid UTF-8 throws InvalidUtf8 naming the first bad byte, and nothing changes', () => {
  const h = new SimHasher();
  const seen = new ContentSeen({ html: true });
  seen.check('https://a/', PAGE);
  const re = /not valid UTF-8 \(the first 7 bytes are valid\)/;
  throwsCode(() => h.fingerprint(BAD), 'InvalidUtf8', re);
  throwsCode(() => seen.check('https://b/', BAD), 'InvalidUtf8', re);
  throwsCode(() => htmlToText(BAD), 'InvalidUtf8', re);
  throwsCode(() => h.fingerprintBatch(['ok text here', BAD]), 'InvalidUtf8', re);
  throwsCode(() => dedup(['a', 'b'], ['ok text here', BAD]), 'InvalidUtf8', re);
  throwsCode(() => new PassageChecker().addReference(Buffer.from([0xff])), 'InvalidUtf8', /first 0 bytes/);
  // Lone surrogates encoded (CESU-8) and overlong forms are not UTF-8 either.
  throwsCode(() => h.fingerprint(Buffer.from([0x61, 0xed, 0xa0, 0x80])), 'InvalidUtf8', /first 1 bytes/);
  throwsCode(() => h.fingerprint(Buffer.from([0xc0, 0xaf])), 'InvalidUtf8', /first 0 bytes/);
  // Not a text at all: the argument is named.
  throwsCode(() => seen.check('https://b/', 42), 'InvalidOption', /`htmlOrText` = 42: expected a string, or UTF-8 bytes/);
  throwsCode(() => dedup(['a'], [[1, 2]]), 'InvalidOption', /`texts` = \[1,2\] at \[0\]/);
  assert.equal(seen.size, 1);
  assert.equal(seen.count('https://b/'), undefined);
  assert.equal(seen.check('https://c/', Buffer.from(PAGE)).duplicate, true);
  assert.equal(h.fingerprint(Buffer.from(TEXT)), h.fingerprint(TEXT));
});

test('the pool takes bytes too, and reads HTML as one thread does', async () => {
  const pool = await SimHashPool.create({ size: 2 });
  try {
    const h = new SimHasher();
    assert.deepEqual(await pool.fingerprintBatch([Buffer.from(TEXT), TEXT]), h.fingerprintBatch([TEXT, TEXT]));
    await assert.rejects(pool.fingerprintBatch([BAD]), (e) => e.code === 'InvalidUtf8');
    // dedup reads the main content of HTML by default, on the workers as on one thread.
    const article = '<p>The quick brown fox jumps over the lazy dog near the river bank, again and again, while the farmers watch the harvest.</p>';
    const links = (words) => words.split(' ').map((w) => `<a href="/${w}">${w}</a>`).join(' · ');
    const tpl = (body, n) => `<html><body><nav>${links('Home News Sport Weather Travel Opinion')} ${n}</nav><article>${body}</article>`
      + `<footer>${links('About Contact Careers Privacy Terms Cookies Advertise Sitemap Archive Help')} © Example News ${n}</footer></body></html>`;
    const pages = [tpl(article, 1), `<html><body><h1>Print</h1>${article}</body></html>`, tpl('<p>Contact us by email at news@example.org on weekdays.</p>', 2)];
    const ids = ['a', 'print', 'contact'];
    const one = dedup(ids, pages, { html: true });
    assert.deepEqual(one.clusters, [['a', 'print']]);
    assert.deepEqual(await pool.dedup(ids, pages.map((p) => Buffer.from(p)), { html: true }), one);
    assert.deepEqual(dedup(ids, pages, { html: true, content: 'all' }).clusters, []);
    assert.deepEqual(await pool.dedup(ids, pages, { html: true, content: 'all' }), dedup(ids, pages, { html: true, content: 'all' }));
  } finally {
    await pool.close();
  }
});

test('a page with no content is answered empty, not stored, and does not replace what a URL held', () => {
  for (const sketch of [undefined, false]) {
    const seen = new ContentSeen({ html: true, sketch });
    seen.check('https://a/', PAGE);
    const shell = '<!doctype html><html><head><script>boot()</script><style>p{}</style></head><body><div id="root"></div><script src="/app.js"></script></body></html>';
    for (const [url, page] of [['https://spa/', shell], ['https://spa2/', Buffer.from(shell)], ['https://a/', shell], ['https://tiny/', '<p>Hi!</p>'], ['https://blank/', '']]) {
      const r = seen.check(url, page);
      assert.deepEqual(r, { duplicate: false, empty: true, matches: [], fingerprint: null, cluster: null, count: 0, distance: null, estimate: null, sketch: null }, url);
    }
    assert.equal(seen.size, 1);
    assert.equal(seen.count('https://spa/'), undefined);
    assert.equal(seen.count('https://a/'), 1);
    assert.equal(seen.check('https://a2/', PAGE).cluster, 'https://a/');
    // A plain fingerprint has nothing to give: it still throws.
    throwsCode(() => seen.fingerprint(shell), 'EmptyText');
    const back = ContentSeen.fromBytes(seen.toBytes(), { html: true, sketch });
    assert.equal(back.size, 1);
  }
});

test('options() reports the sketch and threshold in force', () => {
  assert.deepEqual([new ContentSeen().options().sketch, new ContentSeen().options().threshold], [128, 0.81]);
  const o = new ContentSeen({ sketch: 64, threshold: 0.9 }).options();
  assert.deepEqual([o.sketch, o.threshold], [64, 0.9]);
  assert.equal(new ContentSeen({ sketch: false }).options().sketch, false);
  const loaded = ContentSeen.fromBytes(new ContentSeen({ sketch: 64, threshold: 0.9 }).toBytes());
  assert.deepEqual([loaded.options().sketch, loaded.options().threshold], [64, 0.9]);
  throwsCode(() => new ContentSeen({ threshold: 1.5 }), 'InvalidOption', /threshold/);
});
