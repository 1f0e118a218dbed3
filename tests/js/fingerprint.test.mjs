// The npm package as a Node user imports it (ESM and CommonJS), built into pkg/.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

import { SimHasher, fromFeatures, simhashBits, hamming, similarity, toHex, fromHex, hashVersion } from '../../pkg/index.mjs';

const require = createRequire(import.meta.url);

// Pinned in tests/golden.rs; the same values must come out of wasm.
const golden = readFileSync(new URL('../golden.rs', import.meta.url), 'utf8');
const FINGERPRINTS = [...golden.split('const FINGERPRINTS')[1].split('];')[0].matchAll(/^\s*\((".*"), (0x[0-9a-f]{16})\),$/gm)]
  // Rust's {:?} escapes (\u{301}) become the characters; the rest is JSON's syntax.
  .map(([, text, hex]) => [JSON.parse(text.replace(/\\u\{([0-9a-f]+)\}/g, (_, h) => String.fromCodePoint(parseInt(h, 16)))), BigInt(hex)]);

test('golden fingerprints match the native core, one by one and in a batch', () => {
  assert.ok(FINGERPRINTS.length >= 20, `parsed ${FINGERPRINTS.length} golden vectors`);
  const h = new SimHasher();
  for (const [text, want] of FINGERPRINTS) {
    assert.equal(h.fingerprint(text), want, text);
    assert.equal(h.fingerprintBytes(new TextEncoder().encode(text)), want, text);
  }
  const batch = h.fingerprintBatch(FINGERPRINTS.map(([t]) => t));
  assert.ok(batch instanceof BigUint64Array);
  assert.deepEqual([...batch], FINGERPRINTS.map(([, f]) => f));
  h.free();
});

test('CommonJS require gives the same instance and values', () => {
  const cjs = require('../../pkg/index.cjs');
  const h = new cjs.SimHasher();
  assert.equal(h.fingerprint(FINGERPRINTS[0][0]), FINGERPRINTS[0][1]);
  assert.equal(cjs.SimHasher, SimHasher);
});

test('options are camelCase, defaults filled in, and bad ones throw clear errors', () => {
  const h = new SimHasher({ ngram: 3, weighting: 'binary', punctuation: 'keep' });
  assert.deepEqual(h.options(), {
    mode: 'chars', ngram: 3, weighting: 'binary', punctuation: 'keep', nfkc: true, lowercase: true,
    html: false, content: 'all', scheme: 'chars:3 binary punct=keep nfkc lower sh64v1',
  });
  assert.equal(new SimHasher().options().scheme, 'chars:6 sublinear punct=collapse nfkc lower sh64v1');
  for (const [opts, re] of [
    [{ ngram: 0 }, /ngram.*from 1 to 16/],
    [{ ngram: 1000 }, /ngram.*from 1 to 16/],
    [{ ngram: 2.5 }, /ngram/],
    [{ mode: 'letters' }, /mode.*"chars" or "words"/],
    [{ weighting: 'idf' }, /weighting/],
    [{ ngramm: 3 }, /only the keys mode, ngram/],
    [42, /options/],
  ]) {
    assert.throws(() => new SimHasher(opts), (e) => e instanceof Error && e.name === 'SimHashError' && e.code === 'InvalidOption' && re.test(e.message));
  }
});

test('bad input throws, and the instance keeps working afterwards', () => {
  const h = new SimHasher();
  const cases = [
    [() => h.fingerprint(''), 'EmptyText'],
    [() => h.fingerprint('   '), 'EmptyText'],
    [() => h.fingerprint('abc'), 'TextTooShort'],
    [() => h.fingerprintBytes(new Uint8Array([0x61, 0xff, 0xfe])), 'InvalidUtf8'],
    [() => h.fingerprintBatch(['a fine text here', '']), 'EmptyText'],
    [() => fromFeatures([['a', NaN]]), 'InvalidWeight'],
    [() => fromFeatures([['a', -1]]), 'InvalidWeight'],
    [() => fromFeatures('nope'), 'InvalidOption'],
    [() => simhashBits([{ bits: '10x', weight: 1 }]), 'InvalidBits'],
    [() => fromHex('not hex'), 'InvalidOption'],
  ];
  for (const [f, code] of cases) {
    assert.throws(f, (e) => e.code === code && e.message.length > 20, code);
    assert.equal(h.fingerprint(FINGERPRINTS[0][0]), FINGERPRINTS[0][1], `still alive after ${code}`);
  }
  assert.throws(() => h.fingerprintBatch(['a fine text here', '']), /document #1/);
});

test('a 100 MB text is fingerprinted without error, and the instance lives on', () => {
  const h = new SimHasher();
  // Many distinct features, not one repeated line: a counter at its worst.
  const parts = [];
  for (let i = 0; i < 1_100_000; i++) parts.push(`line ${i * 7919 % 1_000_003} of a long text, 第${i}行。`);
  const big = parts.join('\n');
  assert.ok(Buffer.byteLength(big) > 40_000_000, `${Buffer.byteLength(big)} bytes`);
  const huge = big + big + big; // > 100 MB
  assert.ok(Buffer.byteLength(huge) > 100_000_000);
  assert.equal(typeof h.fingerprint(huge), 'bigint');
  assert.equal(h.fingerprint(FINGERPRINTS[0][0]), FINGERPRINTS[0][1]);
});

test('the teaching examples reproduce the material exactly', () => {
  const table = [['101001', 3], ['101110', 4], ['110001', 1], ['101000', 3], ['101011', 5], ['101100', 5], ['111000', 5]];
  const r = simhashBits(table.map(([bits, weight]) => ({ bits, weight })));
  assert.deepEqual(r, { sums: [26, -14, 24, -8, -8, -8], bits: '101000' });
  const hp = simhashBits([['(1,-1,1)', 1], ['(-1,1,1)', 2], ['(1,-1,-1)', 0], ['(-1,-1,1)', 3], ['(1,1,-1)', 0]].map(([bits, weight]) => ({ bits, weight })));
  assert.deepEqual(hp, { sums: [-4, -2, 6], bits: '001' });
});

test('explain shows every step, consistent with fingerprint()', () => {
  const h = new SimHasher({ ngram: 2 });
  const e = h.explain('The cat sat');
  assert.equal(e.normalized, 'the cat sat');
  assert.deepEqual(e.tokens.map((t) => t.text), ['th', 'he', 'e ', ' c', 'ca', 'at', 't ', ' s', 'sa', 'at']);
  assert.deepEqual(e.tokens.slice(0, 2).map((t) => [t.start, t.end]), [[0, 2], [1, 3]]);
  const at = e.tokens.filter((t) => t.text === 'at');
  assert.deepEqual(at.map((t) => [t.tf, t.first]), [[2, true], [2, false]]);
  assert.equal(e.sums.length, 64);
  let fp = 0n;
  e.sums.forEach((s, i) => { if (s > 0) fp |= 1n << BigInt(i); });
  assert.equal(fp, e.fingerprint);
  assert.equal(e.fingerprint, h.fingerprint('The cat sat'));
  // Every sum is the signed sum of the distinct tokens' weights.
  for (let i = 0; i < 64; i++) {
    const want = e.tokens.filter((t) => t.first).reduce((s, t) => s + (((t.hash >> BigInt(i)) & 1n) ? t.weight : -t.weight), 0);
    assert.ok(Math.abs(want - e.sums[i]) < 1e-9, `bit ${i}`);
  }
});

test('explain: offsets are UTF-16, so slicing the normalised text gives each token', () => {
  // Chinese (3 UTF-8 bytes, 1 UTF-16 unit), an accent, and an emoji (4 bytes, 2 units).
  for (const [text, mode] of [['北京的秋天 café 😀 naïve', 'chars'], ['déjà vu 😀 déjà vu encore', 'words']]) {
    const h = new SimHasher({ ngram: 2, mode });
    const e = h.explain(text);
    const a = h.explainArrays(text);
    assert.ok(e.tokens.length > 3);
    e.tokens.forEach((t, i) => {
      assert.equal(e.normalized.slice(t.start, t.end), t.text, `token ${i} of ${JSON.stringify(text)}`);
      assert.deepEqual([t.start, t.end, t.hash, t.tf, t.weight, t.first], [a.start[i], a.end[i], a.hash[i], a.tf[i], a.weight[i], a.first[i] === 1]);
    });
    assert.deepEqual(e.sums, Array.from(a.sums));
    assert.equal(e.fingerprint, h.fingerprint(text));
    // Bytes in, the same explanation out.
    assert.deepEqual(h.explain(new TextEncoder().encode(text)), e);
  }
});

test('distance helpers and hex conversions', () => {
  assert.equal(hamming(0b1011n, 0b0110n), 3);
  assert.equal(similarity(0n, 0xfn), 1 - 4 / 64);
  assert.equal(toHex(0xabcn), '0000000000000abc');
  assert.equal(fromHex('0xFFFFFFFFFFFFFFFF'), 0xffffffffffffffffn);
  assert.equal(hashVersion(), 1);
  const a = fromFeatures([['Apache', 10], ['Hadoop', 15]]);
  assert.equal(a, fromFeatures([['Hadoop', 15], ['Apache', 10]]));
});
