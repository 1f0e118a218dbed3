// Bad input at the JS boundary, as a new user would try it: every failure is a
// SimHashError (code InvalidOption for a bad argument) naming the argument, values are
// shown as JS writes them, and the instance keeps working afterwards.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import {
  SimHasher, SimHashIndex, ContentSeen, CompactSet, PassageChecker, SimHashError, hamming, similarity,
  toHex, fromHex, huffmanTable, htmlToText, dedup, fromFeatures, simhashBits,
} from '../../pkg/index.mjs';

const { SIGNATURES, describe } = createRequire(import.meta.url)('../../pkg/args.cjs');
const TEXT = 'Near-duplicate detection finds pages that say the same thing under different addresses.';
const MAX = 2n ** 64n - 1n;

/** Asserts that `f` throws a SimHashError InvalidOption naming `arg` and showing `shown`. */
function rejects(f, arg, shown, what = String(f)) {
  assert.throws(f, (e) => {
    assert.ok(e instanceof SimHashError, `${what}: ${e?.constructor?.name}: ${e?.message}`);
    assert.equal(e.code, 'InvalidOption', what);
    assert.match(e.message, new RegExp(`\`${arg}\``), `${what}: ${e.message}`);
    if (shown !== undefined) assert.match(e.message, new RegExp(`= ${shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( at \\[\\d+\\])?:`), `${what}: ${e.message}`);
    assert.doesNotMatch(e.message, /JsValue|BigInt\(|Object \{|\bSome\(/, `${what}: ${e.message}`);
    return true;
  }, what);
}

test('fingerprints outside 0n ..= 2n ** 64n - 1n are refused everywhere one is taken', () => {
  // The bounds themselves are fine.
  assert.equal(hamming(MAX, 0n), 64);
  assert.equal(hamming(0n, 0n), 0);
  assert.equal(similarity(MAX, MAX), 1);
  assert.equal(toHex(MAX), 'ffffffffffffffff');
  const ix = new SimHashIndex({ k: 3, ids: 'string' });
  ix.insert('max', MAX);
  ix.insertBatch(['zero', 'one'], [0n, 1n]);   // an array of bigints works like a BigUint64Array
  const set = new CompactSet(BigUint64Array.of(0n, 5n, MAX));
  const seen = new ContentSeen();
  const bad = [[-1n, '-1n'], [2n ** 64n, '18446744073709551616n'], [-(2n ** 63n), '-9223372036854775808n'], [1, '1'], ['0x1', '"0x1"'], [null, 'null']];
  for (const [fp, shown] of bad) {
    rejects(() => hamming(fp, 0n), 'a', shown);
    rejects(() => hamming(0n, fp), 'b', shown);
    rejects(() => similarity(fp, 0n), 'a', shown);
    rejects(() => toHex(fp), 'fingerprint', shown);
    rejects(() => ix.insert('b', fp), 'fingerprint', shown);
    rejects(() => ix.query(fp), 'fingerprint', shown);
    rejects(() => ix.queryAndInsert('c', fp), 'fingerprint', shown);
    rejects(() => ix.insertBatch(['d'], [fp]), 'fingerprints', shown);
    rejects(() => ix.queryBatch([0n, fp]), 'fingerprints', shown);
    rejects(() => ix.queryBatchFlat([fp]), 'fingerprints', shown);
    rejects(() => set.containsWithin(fp, 3), 'fingerprint', shown);
    rejects(() => set.countContainedWithin([fp], 3), 'fingerprints', shown);
    rejects(() => new CompactSet([fp]), 'fingerprints', shown);
    rejects(() => huffmanTable([fp]), 'fingerprints', shown);
    rejects(() => seen.checkFingerprint('u', fp), 'fingerprint', shown);
  }
  // Nothing was added by the failed calls, and everything still works.
  assert.equal(ix.size, 3);
  assert.deepEqual(ix.query(MAX).map((m) => m.id), ['max']);
  assert.equal(set.countContainedWithin(BigUint64Array.of(1n, MAX), 1), 2);
  assert.equal(seen.size, 0);
  assert.equal(hamming(0b1011n, 0b0110n), 3);
});

test('other arguments of the wrong type name the argument instead of a bare TypeError', () => {
  const h = new SimHasher();
  const good = h.fingerprint(TEXT);
  const ix = new SimHashIndex({ k: 3 });
  const seen = new ContentSeen();
  const checker = new PassageChecker();
  const set = new CompactSet(BigUint64Array.of(1n));
  ix.insert('a', 1n);
  const cases = [
    [() => h.fingerprint(null), 'text', 'null'],
    [() => h.fingerprint(12345), 'text', '12345'],
    [() => h.fingerprint(undefined), 'text', 'undefined'],
    [() => h.fingerprint(new ArrayBuffer(2)), 'text', 'an ArrayBuffer'],
    [() => h.fingerprintBytes('abc'), 'bytes', '"abc"'],
    [() => h.fingerprintBytes([1, 2]), 'bytes', '[1,2]'],
    [() => h.fingerprintBatch(null), 'texts', 'null'],
    [() => h.fingerprintBatch(['ok', 7]), 'texts', '7'],
    [() => h.explain({ text: 'x' }), 'text', '{"text":"x"}'],
    [() => fromHex(255), 'hex', '255'],
    [() => htmlToText(null), 'html', 'null'],
    [() => fromFeatures(null), 'features', 'null'],
    [() => simhashBits({}), 'features', '{}'],
    [() => ix.insertBatch('a', BigUint64Array.of(1n)), 'ids', '"a"'],
    [() => ix.insertBatch(['a', 'b'], BigUint64Array.of(1n)), 'ids', '2'],
    [() => ix.query(1n, -1), 'k', '-1'],
    [() => ix.query(1n, 2.5), 'k', '2.5'],
    [() => set.containsWithin(1n, '3'), 'k', '"3"'],
    [() => checker.addReference(null), 'text', 'null'],
    [() => checker.check(42), 'submission', '42'],
    [() => checker.passagesOf(Symbol('s')), 'text', 'a symbol'],
    [() => checker.passages('0'), 'doc', '"0"'],
    [() => seen.check('u', null), 'htmlOrText', 'null'],
    [() => seen.check(null, TEXT), 'url', 'null'],
    [() => seen.count(5), 'url', '5'],
    [() => dedup(null, []), 'ids', 'null'],
    [() => dedup(['a'], [1]), 'texts', '1'],
    [() => dedup(['a', 'b'], [TEXT]), 'ids', '2'],
    [() => SimHashIndex.fromBytes('bytes'), 'bytes', '"bytes"'],
    [() => ContentSeen.fromBytes(null), 'bytes', 'null'],
    [() => CompactSet.fromBytes([1, 2, 3]), 'bytes', '[1,2,3]'],
    [() => h.fingerprint(() => 1), 'text', 'a function'],
    [() => h.fingerprint(new Map()), 'text', 'a Map'],
    [() => h.fingerprint(['y'.repeat(200)]), 'text', undefined],
  ];
  for (const [f, arg, shown] of cases) {
    rejects(f, arg, shown);
    assert.equal(h.fingerprint(TEXT), good, `alive after ${f}`);
  }
  // Long values are cut short in messages.
  try { h.fingerprint(['y'.repeat(500)]); } catch (e) { assert.ok(e.message.length < 300, e.message); }
});

test('every wasm export that takes fingerprints, texts, bytes or counts has its checks', () => {
  // The wasm-bindgen typings of the Node build list each export's parameters; those of
  // the kinds the glue converts unchecked must all appear in args.cjs's table.
  const dts = readFileSync(new URL('../../pkg/node/simhash_wasm.d.ts', import.meta.url), 'utf8');
  const unchecked = /^(string|bigint|Uint8Array|BigUint64Array|string\[\]|number)$/;
  let owner = null;
  let seen = 0;
  for (const line of dts.split('\n')) {
    const cls = /^export class (\w+)/.exec(line);
    if (cls) { owner = cls[1]; continue; }
    if (/^}/.test(line)) { owner = null; continue; }
    const m = /^\s*(?:export function |(static )?)(\w+)\((.*)\):/.exec(line);
    if (!m || m[2].startsWith('__') || m[2] === 'free' || m[2] === 'initSync') continue;
    const params = m[3] ? m[3].split(', ').map((p) => p.split(': ')) : [];
    if (!params.some(([, type]) => unchecked.test(type))) continue;
    const key = owner === null ? m[2] : m[2] === 'constructor' ? `new ${owner}` : `${owner}${m[1] ? '.' : '#'}${m[2]}`;
    const spec = SIGNATURES[key];
    assert.ok(spec, `args.cjs has no checks for ${key}(${m[3]})`);
    params.forEach(([name, type], i) => {
      if (unchecked.test(type)) assert.ok(spec[i] && spec[i] !== '-', `${key}: argument ${name} (${type}) is not checked`);
    });
    seen++;
  }
  assert.ok(seen >= 20, `${seen} exports checked`);
});

test('ids are shown as JS writes them, never in Rust\'s debug form', () => {
  const strings = new SimHashIndex({ ids: 'string' });
  rejects(() => strings.insert(7, 1n), 'id', '7');
  rejects(() => strings.insert(5n, 1n), 'id', '5n');
  rejects(() => strings.remove({ a: 1 }), 'id', '{"a":1}');
  rejects(() => strings.remove(new Map()), 'id', 'a Map');
  rejects(() => strings.insert(NaN, 1n), 'id', 'NaN');
  rejects(() => strings.insert(() => 1, 1n), 'id', 'a function');
  // The Rust describer (src/wasm/convert.rs) and args.cjs's write a value the same way.
  for (const v of [5n, -1n, NaN, Infinity, true, [1, 2], { a: 1 }, new Map(), new Uint8Array(2), () => 1, Array(40).fill(12345)]) {
    assert.throws(() => strings.insert(v, 1n), (e) => e.code === 'InvalidOption' && e.message.includes(`= ${describe(v)}:`), String(describe(v)));
  }
  const numbers = new SimHashIndex({ ids: 'number' });
  rejects(() => numbers.insert('seven', 1n), 'id', '"seven"');
  rejects(() => numbers.insert(-1, 1n), 'id', '-1');
  rejects(() => numbers.insert(2 ** 53, 1n), 'id', '9007199254740992');
  assert.throws(() => new SimHashIndex().remove(Symbol('x')), (e) => e.code === 'UnknownId' && /symbol/.test(e.message) && !/JsValue/.test(e.message));
});

test('PassageChecker.check lists only the references with a match', () => {
  const para = (seed) => {
    // 64 words: with 16, random texts share half their word pairs, which is a copy by
    // the checker's rule (at least half of a passage's word pairs found in the reference).
    const words = ['river', 'market', 'winter', 'teacher', 'garden', 'engine', 'history', 'village', 'window', 'science', 'letter', 'mountain', 'journey', 'problem', 'evening', 'station',
      'harbour', 'lantern', 'meadow', 'pencil', 'orchard', 'bridge', 'castle', 'doctor', 'island', 'kitchen', 'ladder', 'mirror', 'needle', 'ocean', 'palace', 'rabbit',
      'saddle', 'tunnel', 'valley', 'wagon', 'basket', 'candle', 'desert', 'feather', 'forest', 'hammer', 'jacket', 'kettle', 'lemon', 'marble', 'napkin', 'parrot',
      'quarry', 'ribbon', 'silver', 'thunder', 'umbrella', 'violin', 'walnut', 'yellow', 'anchor', 'blanket', 'cellar', 'dragon', 'falcon', 'glacier', 'helmet', 'iceberg'];
    let s = seed; const out = [];
    // The word from the state's top 6 bits: lower bits of this generator cycle with short
    // periods (bits 16-21 every 2^22 steps), so paragraphs from different seeds shared
    // verbatim runs of 20 words and more, which the checker rightly reports as copies.
    for (let i = 0; i < 60; i++) { s = (Math.imul(s, 1103515245) + 12345) >>> 0; out.push(words[s >>> 26]); }
    return `${out.join(' ')}.`;
  };
  const c = new PassageChecker();
  for (let i = 0; i < 200; i++) c.addReference(`${para(i * 7 + 1)}\n\n${para(i * 7 + 2)}`);
  const r = c.check(`${para(999_999)}\n\n${para(43 * 7 + 2)}`);
  assert.deepEqual(r.references.map((x) => x.doc), [43]);
  assert.equal(r.references[0].matches.length, 1);
  assert.ok(r.references[0].coverage > 0.4 && r.references[0].coverage < 0.6, String(r.references[0].coverage));
  assert.deepEqual(c.check(para(123_456)).references, []);
});

test('dedup: an invalid shingle size throws instead of silently finding no clusters', () => {
  const ids = ['a', 'b'];
  const texts = [TEXT, TEXT.replace('.', '!')];
  assert.deepEqual(dedup(ids, texts).clusters, [['a', 'b']]);
  for (const shingle of [0, 17, 2.5, -1, 1e9]) {
    assert.throws(() => dedup(ids, texts, { shingle }), (e) => e instanceof SimHashError && e.code === 'InvalidOption'
      && /`shingle`/.test(e.message) && /from 1 to 16/.test(e.message), String(shingle));
  }
  for (const shingle of [1, 16]) assert.deepEqual(dedup(ids, texts, { shingle }).clusters, [['a', 'b']], String(shingle));
  for (const [opts, name] of [[{ verify: 1.5 }, 'verify'], [{ verify: 'yes' }, 'verify'], [{ k: 64 }, 'k'], [{ k: -1 }, 'k'], [{ layout: 'fast' }, 'layout']]) {
    assert.throws(() => dedup(ids, texts, opts), (e) => e.code === 'InvalidOption' && e.message.includes(`\`${name}\``), JSON.stringify(opts));
  }
  const r = dedup(ids, texts, { verify: false });
  assert.equal(r.verify, false);
  assert.equal(r.k, 13);   // k by the collection's size without a verification (no band join): 13 up to 200k
  assert.equal(dedup(ids, texts).k, 6);   // verified, with the band join: 6 up to 200k
  assert.deepEqual(r.alreadyIndexed, []);
});

test('SimHashIndex.dedup resumes from an index, and from its snapshot', () => {
  const docs = [
    ['a', TEXT], ['b', TEXT.replace('.', '!')], ['c', 'Pack my box with five dozen liquor jugs, said the sphinx of black quartz.'],
    ['d', 'Pack my box with five dozen liquor jugs, said the sphinx of black quartz!'], ['e', 'Something else entirely, about gardens and tomatoes in the sun.'],
  ];
  const ids = docs.map(([id]) => id);
  const texts = docs.map(([, t]) => t);
  const whole = dedup(ids, texts, { k: 6, verify: false });
  const ix = new SimHashIndex({ k: 6 });
  const first = ix.dedup(ids.slice(0, 3), texts.slice(0, 3), { verify: false });
  assert.deepEqual(first.clusters, [['a', 'b']]);
  assert.equal(ix.idKind, 'string');
  const again = SimHashIndex.fromBytes(ix.toBytes());
  const second = again.dedup(ids.slice(2), texts.slice(2), { verify: false });
  assert.deepEqual(second.alreadyIndexed, ['c']);
  assert.deepEqual(second.clusters, whole.clusters);
  assert.deepEqual(second.pairs, whole.pairs);
  assert.equal(again.size, 5);
  // Verification needs every candidate's text; with all of them it works.
  assert.throws(() => SimHashIndex.fromBytes(ix.toBytes()).dedup(['z'], ['a text of its own, long enough.']),
    (e) => e.code === 'InvalidOption' && /"[ab]" is in the index, but its text was not given/.test(e.message));
  const verified = again.dedup(ids, texts, { verify: 0.8 });
  assert.ok(verified.pairs.every((p) => p.jaccard >= 0.8));
  // Another scheme, k or layout: refused.
  assert.throws(() => again.dedup(['x'], [TEXT], { ngram: 5, verify: false }), (e) => e.code === 'SchemeMismatch');
  assert.throws(() => again.dedup(['x'], [TEXT], { k: 3 }), (e) => e.code === 'InvalidOption' && /only the keys/.test(e.message));
  assert.throws(() => new SimHashIndex({ ids: 'number' }).dedup(['x'], [TEXT]), (e) => e.code === 'InvalidOption' && /string ids/.test(e.message));
});

test('k = 64 is refused everywhere, as the messages say (0 to 63), and k = 63 works', () => {
  for (const f of [() => new SimHashIndex({ k: 64 }), () => new ContentSeen({ k: 64 }), () => dedup(['a'], [TEXT], { k: 64 }),
    () => new SimHashIndex({ k: 64, layout: 'auto' }), () => new SimHashIndex({ k: -1 }), () => new SimHashIndex({ k: 1.5 })]) {
    assert.throws(f, (e) => e instanceof SimHashError && /`k`|k = 64|k must be below 64/.test(e.message), String(f));
  }
  assert.equal(new SimHashIndex({ k: 63 }).stats().k, 63);
});

test('string ids with lone surrogates are refused, not merged into one U+FFFD id', () => {
  const lone = ['x\uD800', 'x\uDC00', '\uDBFF'];
  const refused = (f, what) => assert.throws(f, (e) => e instanceof SimHashError && e.code === 'InvalidOption'
    && /lone surrogates/.test(e.message), what);
  const ix = new SimHashIndex({ ids: 'string' });
  for (const id of lone) {
    refused(() => ix.insert(id, 1n), `insert ${JSON.stringify(id)}`);
    refused(() => ix.queryAndInsert(id, 1n), 'queryAndInsert');
    refused(() => ix.insertBatch(['ok', id], new BigUint64Array([1n, 2n])), 'insertBatch');
    refused(() => ix.has(id), 'has');
    refused(() => ix.get(id), 'get');
    refused(() => ix.remove(id), 'remove');
    refused(() => dedup(['a', id], ['one text here', 'one text here']), 'dedup');
    refused(() => ix.dedup([id], ['one text here']), 'SimHashIndex#dedup');
  }
  assert.equal(ix.size, 0, 'nothing was stored by a refused call');
  // Whole pairs are ids like any other, and the instance still works.
  ix.insert('emoji \uD83D\uDE00', 7n);
  assert.deepEqual(ix.query(7n), [{ id: 'emoji \uD83D\uDE00', distance: 0 }]);
  const numbers = new SimHashIndex({ ids: 'number' });
  numbers.insert(5, 9n);
  assert.equal(numbers.has(5), true);
  ix.free(); numbers.free();
});

test('a failing document of a list names its position as error.index, as the pool does', () => {
  const h = new SimHasher();
  assert.throws(() => h.fingerprintBatch(['hello world, a text', 'another text here', '   ']),
    (e) => e instanceof SimHashError && e.code === 'EmptyText' && e.index === 2 && /document #2/.test(e.message));
  // Errors of no list carry no index.
  assert.throws(() => h.fingerprint(''), (e) => e.code === 'EmptyText' && !('index' in e));
  h.free();
});

test('dedup takes k: "auto", the default defaults() shows, and names it when k is wrong', () => {
  const texts = ['the first of two texts that are nearly the same, word for word', 'the first of two texts that are nearly the same, word for word!'];
  const auto = dedup(['a', 'b'], texts, { k: 'auto' });
  assert.deepEqual(auto, dedup(['a', 'b'], texts));
  for (const k of ['x', 'AUTO', 64, -1]) {
    assert.throws(() => dedup(['a', 'b'], texts, { k }), (e) => e instanceof SimHashError && e.code === 'InvalidOption'
      && /`k`/.test(e.message) && /or "auto"/.test(e.message), String(k));
  }
});

test('the browser build imported in Node says which entry to use', async () => {
  await assert.rejects(import('../../pkg/web/index.js'), (e) => e.name === 'SimHashError' && e.code === 'FileError'
    && /browser build: in Node, import 'simhash-wasm'/.test(e.message));
});

test('ContentSeen takes sketch: true, the default sketch, as RedisContentSeen does', () => {
  const page = 'A page of some length, with enough words to make a sketch of its four-grams.';
  const made = [{}, { sketch: true }, { sketch: 128 }].map((o) => {
    const s = new ContentSeen(o);
    s.check('https://a.test/', page);
    const bytes = s.toBytes();
    s.free();
    return bytes;
  });
  assert.deepEqual(made[1], made[0]);
  assert.deepEqual(made[2], made[0]);
  assert.throws(() => new ContentSeen({ sketch: 'yes' }), (e) => e instanceof SimHashError && e.code === 'InvalidOption'
    && /`sketch` = "yes": expected true, false or a size in bytes/.test(e.message));
});

test('ContentSeen.check reads UTF-8 bytes in place, with the answers and errors a string gets', () => {
  const page = (i) => `<html><body><nav><a href=/>Home</a></nav><article><p>第${i % 3}篇 — an article of some length, `
    + `with commas, words and a number ${i % 3}, long enough to count as the page's content.</p></article></body></html>`;
  const asText = new ContentSeen({ html: true });
  const asBytes = new ContentSeen({ html: true });
  try {
    for (let i = 0; i < 12; i++) {
      const url = `https://site${i % 2}.test/${i}`;
      const a = asText.check(url, page(i));
      const b = asBytes.check(url, i % 2 ? Buffer.from(page(i)) : new TextEncoder().encode(page(i)));
      assert.deepEqual(b, a, url);
    }
    assert.deepEqual(asBytes.toBytes(), asText.toBytes());
    const bad = Buffer.from([0x3c, 0x70, 0x3e, 0xe4, 0xb8]);
    const errorOf = (f) => { try { f(); } catch (e) { return [e instanceof SimHashError, e.code, e.message]; } return null; };
    const viaDecode = errorOf(() => new SimHasher().fingerprint(bad));
    assert.deepEqual(errorOf(() => asBytes.check('https://site0.test/bad', bad)), viaDecode);
    assert.equal(viaDecode[1], 'InvalidUtf8');
    assert.ok(asText.size > 0);
    assert.equal(asBytes.size, asText.size, 'a refused page stores nothing');
  } finally {
    asText.free();
    asBytes.free();
  }
});
