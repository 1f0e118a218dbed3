// Sketches, estimateJaccard, sketchInfo, IdfTable and the hasher option `idf`, through
// the package (the Node entry: the full build), and their stand-ins in the small build.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import {
  SimHasher, SimHashError, estimateJaccard, sketchInfo, IdfTable, dedup, hamming, defaults,
} from '../../pkg/index.mjs';

const FOX = 'The quick brown fox jumps over the lazy dog.';
const ZH = '我们都喜欢冰淇淋，尤其是在炎热的夏天里。';
const hex = (bytes) => Buffer.from(bytes).toString('hex');

// Computed from the native core (SimHasher::sketch, Options::default()); the same bytes
// must come out of wasm. A change here is a new sketch version (FORMATS.md).
const GOLDEN = [
  [FOX, 128, 40, '011028000000000000080a2000010048c00001000000000001000110001000000400008000000000020000004180000180000048444800540002008200000a0000443bb056d69073bc69bf657766ebddc2bfbbf76dfd0d60dbaedd479a635d440f304dbbafa2ffd627b303b96bf46bb6bbd6caf757b9d2f37bbbf5fb6904dbc079a7'],
  [ZH, 32, 17, '010411000000240000400c01400098448084bf0dd2df2fd5e05fd55d022b05bee5fe'],
];

const throwsCode = (fn, code, re) => assert.throws(fn, (e) => {
  assert.ok(e instanceof SimHashError, `${e}`);
  assert.equal(e.code, code, e.message);
  if (re) assert.match(e.message, re);
  return true;
});

test('golden sketches: the same bytes as the native core, and sketchInfo reads them', () => {
  const h = new SimHasher();
  for (const [text, size, shingles, want] of GOLDEN) {
    const s = h.sketch(text, { size });
    assert.ok(s instanceof Uint8Array);
    assert.equal(hex(s), want, text);
    const both = h.fingerprintAndSketch(text, { size });
    assert.equal(hex(both.sketch), want);
    assert.equal(both.fingerprint, h.fingerprint(text));
    const info = sketchInfo(s);
    assert.deepEqual(
      [info.version, info.size, info.scheme, info.shingles, info.oddBits, info.bins],
      [1, size, `sk1:${size}`, shingles, 8 * (size / 2 - 4), size],
    );
    assert.equal(info.minhash.length, size);
    assert.ok(info.minhash.every((v) => v < 16));
    const popcount = [...s.subarray(6, 2 + size / 2)].reduce((n, b) => n + b.toString(2).split('1').length - 1, 0);
    assert.equal(info.oddSet, popcount);
  }
  // The default size is 128 bytes (2 header bytes).
  assert.equal(h.sketch(FOX).length, 130);
  assert.equal(hex(h.sketch(FOX)), GOLDEN[0][3]);
});

test('estimateJaccard: 1 for equal texts, high for near copies, low for others, as the core says', () => {
  const h = new SimHasher();
  const a = h.sketch(FOX);
  const b = h.sketch('The quick brown fox jumps over the lazy cat.');
  const c = h.sketch('Pack my box with five dozen liquor jugs.');
  assert.equal(estimateJaccard(a, a), 1);
  // Pinned from the native core (estimate_jaccard of these two sketches).
  assert.equal(estimateJaccard(a, b), 0.8153685662251334);
  assert.equal(estimateJaccard(b, a), estimateJaccard(a, b));
  assert.ok(estimateJaccard(a, c) < 0.1, `${estimateJaccard(a, c)}`);
  // The fingerprints of the near copies may be far apart; the sketch still sees them.
  assert.ok(hamming(h.fingerprint(FOX), h.fingerprint('The quick brown fox jumps over the lazy cat.')) >= 0);
});

test('bad sketches and sizes throw SimHashError with the right code, and the hasher keeps working', () => {
  const h = new SimHasher();
  const a = h.sketch(FOX);
  const small = h.sketch(FOX, { size: 64 });
  throwsCode(() => estimateJaccard(a, small), 'SchemeMismatch', /sk1:64.*sk1:128|sk1:128.*sk1:64/);
  throwsCode(() => estimateJaccard(a, a.subarray(0, 100)), 'Corrupt', /sketch/);
  throwsCode(() => estimateJaccard(a, new Uint8Array(1)), 'Corrupt');
  const future = Uint8Array.from(a); future[0] = 2;
  throwsCode(() => estimateJaccard(future, a), 'UnsupportedVersion');
  const badSize = Uint8Array.from(a); badSize[1] = 3;
  throwsCode(() => sketchInfo(badSize), 'Corrupt');
  throwsCode(() => estimateJaccard(a, [1, 16]), 'InvalidOption', /`b`.*Uint8Array/);
  throwsCode(() => sketchInfo('01'), 'InvalidOption', /`bytes`/);
  for (const size of [0, 31, 100, 264, 1.5, -8]) throwsCode(() => h.sketch(FOX, { size }), 'InvalidOption', /`size`/);
  throwsCode(() => h.sketch(FOX, { bytes: 64 }), 'InvalidOption', /size/);
  throwsCode(() => h.sketch(null), 'InvalidOption', /`text`/);
  throwsCode(() => h.fingerprintAndSketch('   '), 'EmptyText');
  // A text shorter than one fingerprint n-gram still has a sketch (one shingle).
  assert.equal(sketchInfo(h.sketch('abc')).shingles, 1);
  assert.equal(hex(h.sketch(FOX)), GOLDEN[0][3]);
});

test('IdfTable: learn, toBytes/fromBytes, df/idf, and the hasher option idf changes the weights', () => {
  const texts = [
    'the cat sat on the mat and looked at the door',
    'the dog sat on the log and looked at the cat',
    'a bird sang on the roof and looked at the sky',
  ];
  const t = IdfTable.learn(texts);
  assert.equal(t.documents, 3);
  assert.ok(t.size > 50, `${t.size}`);
  const plain = new SimHasher();
  const tokens = plain.explain('sat on the mat').tokens;
  // " on th" is in all three texts; "sat on" in two; "he mat" in one.
  const hashOf = (s) => tokens.find((x) => x.text === s).hash;
  assert.deepEqual([t.df(hashOf(' on th')), t.df(hashOf('sat on')), t.df(hashOf('he mat'))], [3, 2, 1]);
  assert.equal(t.idf(hashOf(' on th')), 1);
  assert.ok(Math.abs(t.idf(hashOf('he mat')) - (1 + Math.log(4 / 2))) < 1e-12);
  // Bytes round-trip; the loaded table answers the same.
  const bytes = t.toBytes();
  const u = IdfTable.fromBytes(bytes);
  assert.deepEqual([u.documents, u.size, u.df(hashOf('sat on'))], [3, t.size, 2]);
  assert.deepEqual(u.toBytes(), bytes);
  // A hasher with idf weighs tokens by tf × idf; the fingerprint differs from the plain one.
  const withIdf = new SimHasher({ idf: t });
  const e = withIdf.explain('sat on the mat');
  const w = (s) => e.tokens.find((x) => x.text === s).weight;
  assert.ok(Math.abs(w('he mat') - t.idf(hashOf('he mat'))) < 1e-4, `${w('he mat')}`);
  assert.equal(w(' on th'), 1);
  const doc = 'the cat sat on the mat and looked at the door, then the dog came';
  assert.notEqual(withIdf.fingerprint(doc), plain.fingerprint(doc));
  // The hasher keeps its own copy: freeing the table or adding to it changes nothing.
  const before = withIdf.fingerprint(doc);
  u.add(['the cat sat on the mat and looked at the door again and again']);
  assert.equal(u.documents, 4);
  assert.equal(new SimHasher({ idf: IdfTable.fromBytes(bytes) }).fingerprint(doc), before);
  t.free();
  assert.equal(withIdf.fingerprint(doc), before);
  // A freed table, or anything else, is refused by name.
  throwsCode(() => new SimHasher({ idf: t }), 'InvalidOption', /`idf`.*IdfTable/);
  throwsCode(() => new SimHasher({ idf: bytes }), 'InvalidOption', /`idf`/);
  throwsCode(() => new SimHasher({ idf: { __key: 99999 } }), 'InvalidOption', /`idf`/);
  // Learning: a text with no n-gram names its index; options are the hasher's.
  throwsCode(() => IdfTable.learn(['long enough text here', 'ab']), 'TextTooShort', /document #1/);
  throwsCode(() => IdfTable.learn(['x'], { ngram: 0 }), 'InvalidOption', /`ngram`/);
  throwsCode(() => IdfTable.learn(['some text'], { idf: u }), 'InvalidOption', /`idf`/);
  throwsCode(() => IdfTable.learn('some text'), 'InvalidOption', /`texts`/);
  throwsCode(() => IdfTable.fromBytes(bytes.subarray(0, bytes.length - 3)), 'Corrupt');
  const words = IdfTable.learn(texts, { mode: 'words', ngram: 1 });
  assert.equal(words.size, new Set(texts.join(' ').split(' ')).size);
  assert.equal(new IdfTable().documents, 0);
});

test("dedup verify: 'sketch' keeps near copies without the texts' exact check; verifyBy says which", () => {
  const ids = ['a', 'b', 'c'];
  const texts = [
    'The quick brown fox jumps over the lazy dog, again and again and again.',
    'The quick brown fox jumps over the lazy dog, again and again and again!',
    'Pack my box with five dozen liquor jugs, said the sphinx of black quartz.',
  ];
  const exact = dedup(ids, texts);
  assert.equal(exact.verifyBy, 'exact');
  const D = defaults();
  assert.equal(exact.k, D.dedup.kBySize[0].k);
  const s = dedup(ids, texts, { verify: 'sketch' });
  assert.deepEqual(s.clusters, [['a', 'b']]);
  assert.equal(s.verify, D.dedup.sketchVerify);
  assert.equal(s.verifyBy, 'sk1:128');
  assert.ok(s.pairs[0].jaccard > 0.81);
  assert.equal(dedup(ids, texts, { verify: 'sketch:0.99' }).verify, 0.99);
  assert.equal(dedup(ids, texts, { verify: false }).verifyBy, false);
  throwsCode(() => dedup(ids, texts, { verify: 'fast' }), 'InvalidOption', /`verify`.*sketch/);
  throwsCode(() => dedup(ids, texts, { verify: 'sketch', shingle: 5 }), 'InvalidOption', /`shingle`/);
  assert.equal(dedup(ids, texts, { k: 4 }).k, 4);
});

test('the small browser build has the same names, throwing FeatureDisabled', async () => {
  const glue = readFileSync(new URL('../../pkg/web/simhash_wasm.js', import.meta.url), 'utf8');
  for (const name of ['estimateJaccard', 'sketchInfo', 'IdfTable']) assert.match(glue, new RegExp(`export (function|class) ${name}\\b`));
  for (const m of ['sketch', 'fingerprintAndSketch']) assert.match(glue, new RegExp(`\\n    ${m}\\(`));
});

test('the CLI: fingerprint --sketch prints the golden sketch, explain shows it, dedup --verify sketch', async () => {
  const { execFileSync, spawnSync } = await import('node:child_process');
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const bin = new URL('../../pkg/bin/simhash-wasm.mjs', import.meta.url).pathname;
  const dir = mkdtempSync(join(tmpdir(), 'sketch-cli-'));
  try {
    const file = join(dir, 'docs.jsonl');
    writeFileSync(file, `${JSON.stringify({ id: 'fox', text: FOX })}\n${JSON.stringify({ id: 'zh', text: ZH })}\n`);
    const out = execFileSync(process.execPath, [bin, 'fingerprint', file, '--sketch'], { encoding: 'utf8' });
    const h = new SimHasher();
    assert.deepEqual(out.trim().split('\n').map((l) => l.split('\t')), [
      ['fox', h.fingerprint(FOX).toString(16).padStart(16, '0'), GOLDEN[0][3]],
      ['zh', h.fingerprint(ZH).toString(16).padStart(16, '0'), hex(h.sketch(ZH))],
    ]);
    const small = execFileSync(process.execPath, [bin, 'fingerprint', file, '--sketch', '--sketch-size', '32'], { encoding: 'utf8' });
    assert.equal(small.trim().split('\n')[1].split('\t')[2], GOLDEN[1][3]);
    const plain = execFileSync(process.execPath, [bin, 'fingerprint', file], { encoding: 'utf8' });
    assert.equal(plain.trim().split('\n')[0].split('\t').length, 2);
    const bad = spawnSync(process.execPath, [bin, 'fingerprint', file, '--sketch', '--sketch-size', '33'], { encoding: 'utf8' });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /`size` = 33/);
    const explained = execFileSync(process.execPath, [bin, 'explain', FOX], { encoding: 'utf8' });
    assert.match(explained, new RegExp(`sketch \\(sk1:128\\): ${GOLDEN[0][2]} distinct 4-gram shingles`));
    const r = spawnSync(process.execPath, [bin, 'dedup', '--verify', 'sketch', '--format', 'jsonl'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /band candidates whose sk1:128 sketches estimate Jaccard >= 0.81/);
    const clusters = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    assert.ok(clusters.length >= 5 && clusters.every((c) => c.pairs.every((p) => p.jaccard >= 0.81)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
