// The default browser build (pkg/web: no HTML, no crawler part, opt-level "z"), loaded in
// Node from its bytes, against the Node build (pkg/node: every feature, opt-level 3). The
// two are separate compilations of the same core, so this checks that they agree bit for
// bit on fingerprints, explanations and index answers, and that what the browser build
// leaves out throws a FeatureDisabled error that says where to get it.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import * as node from '../../pkg/index.mjs';
import { SimHashError } from '../../pkg/web/errors.js';
import * as web from '../../pkg/web/simhash_wasm.js';

web.initSync({ module: readFileSync(new URL('../../pkg/web/simhash_wasm_bg.wasm', import.meta.url)) });
web.__setErrorClass(SimHashError);

// Mixed-script texts of many lengths, from a fixed seed: Latin with accents and
// punctuation, CJK, Cyrillic, emoji with modifiers, combining marks, full-width forms.
function* texts(count) {
  const pieces = ['The cat sat on the mat. ', 'Ｆｕｌｌ－ｗｉｄｔｈ ', '北京欢迎你，', 'Привет, мир! ', '👍🏽 👨‍👩‍👧 ',
    'e\u0301te\u0301 ', 'ﬁle ½ ', 'Straße ', '— “quoted” — ', '\n\n', 'Ünïcödé ', '12,345.67 ', '東京都 '];
  let s = 0x9e3779b9;
  const next = () => { s = (s * 1103515245 + 12345) >>> 0; return s >>> 8; };
  for (let i = 0; i < count; i++) {
    let t = '';
    const n = 1 + (next() % 40);
    for (let j = 0; j < n; j++) t += pieces[next() % pieces.length];
    yield t;
  }
}

const SETTINGS = [
  {},
  { ngram: 3, weighting: 'binary' },
  { ngram: 1, punctuation: 'keep', nfkc: false },
  { mode: 'words', ngram: 2, weighting: 'tf' },
  { ngram: 16, lowercase: false, punctuation: 'drop' },
];

test('the browser build gives the Node build\'s fingerprints, bit for bit', () => {
  const all = [...texts(300)];
  for (const options of SETTINGS) {
    const a = new node.SimHasher(options);
    const b = new web.SimHasher(options);
    const usable = all.filter((t) => { try { a.fingerprint(t); return true; } catch { return false; } });
    assert.ok(usable.length > 200, `${usable.length} usable texts for ${JSON.stringify(options)}`);
    assert.deepEqual([...b.fingerprintBatch(usable)], [...a.fingerprintBatch(usable)], JSON.stringify(options));
    const e1 = a.explainArrays(usable[7]);
    const e2 = b.explainArrays(usable[7]);
    assert.deepEqual(e2, e1);
    a.free();
    b.free();
  }
});

test('the browser build answers index queries as the Node build does', () => {
  const h = new node.SimHasher();
  const fps = [...texts(400)].flatMap((t) => { try { return [h.fingerprint(t)]; } catch { return []; } });
  assert.ok(fps.length > 300, `${fps.length} fingerprints`);
  const a = new node.SimHashIndex({ k: 6 });
  const b = new web.SimHashIndex({ k: 6 });
  fps.forEach((fp, i) => { a.insert(i, fp); b.insert(i, fp); });
  for (const fp of fps.slice(0, 50)) assert.deepEqual(b.query(fp), a.query(fp));
  assert.deepEqual(b.clusters(), a.clusters());
  assert.deepEqual(b.selfJoin(), a.selfJoin());
  // The Huffman table (the demo's storage view) is in both builds, and the same; in the
  // full build it is the one the compact set itself shows.
  const sorted = BigUint64Array.from(fps);
  assert.ok(web.huffmanTable(sorted).length > 5);
  assert.deepEqual(web.huffmanTable(sorted), node.huffmanTable(sorted));
  const rows = (t) => t.map((r) => [r.symbol, r.count, r.code]);
  assert.deepEqual(rows(node.huffmanTable(sorted)), rows(node.huffmanTable(BigUint64Array.from([...sorted].reverse()))));
});

test('what the browser build leaves out throws FeatureDisabled, naming simhash-wasm/full', () => {
  const ix = new web.SimHashIndex();
  const calls = {
    'SimHasher({ html: true })': () => new web.SimHasher({ html: true }),
    htmlToText: () => web.htmlToText('<p>x</p>'),
    ContentSeen: () => new web.ContentSeen(),
    'ContentSeen.fromBytes': () => web.ContentSeen.fromBytes(new Uint8Array(8)),
    dedup: () => web.dedup(['a'], ['text'], {}),
    'SimHashIndex.toBytes': () => ix.toBytes(),
    'SimHashIndex.dedup': () => ix.dedup(['a'], ['text'], {}),
    'SimHashIndex.fromBytes': () => web.SimHashIndex.fromBytes(new node.SimHashIndex().toBytes()),
    CompactSet: () => new web.CompactSet(new BigUint64Array([1n, 2n])),
    'CompactSet.fromBytes': () => web.CompactSet.fromBytes(new node.CompactSet(new BigUint64Array([1n])).toBytes()),
  };
  for (const [name, call] of Object.entries(calls)) {
    assert.throws(call, (e) => e instanceof SimHashError && e.code === 'FeatureDisabled'
      && /simhash-wasm\/full/.test(e.message), name);
  }
  // The passage checker's options are `minChars` and `threshold` in both builds; the old
  // fingerprint options are refused by name, and the same check gives the same report.
  for (const m of [web, node]) {
    assert.throws(() => new m.PassageChecker({ k: 3 }), (e) => e.code === 'InvalidOption' && /\{ k: /.test(e.message) && /minChars, threshold/.test(e.message));
    assert.throws(() => new m.PassageChecker({ threshold: 0 }), (e) => e.code === 'InvalidOption' && /`threshold`/.test(e.message));
  }
  const ref = 'The committee met on Tuesday to review the budget for the coming year. Several members asked for more detail.';
  const sub = 'My own opening line is here. The committee met on a Tuesday to review the budget for the next year.';
  const reports = [web, node].map((m) => {
    const pc = new m.PassageChecker();
    pc.addReference(ref);
    return pc.check(sub);
  });
  assert.deepEqual(reports[0], reports[1]);
  assert.equal(reports[0].references.length, 1);
  // The instance is still alive after the errors, and the same calls work in the full build.
  assert.equal(new web.SimHasher().fingerprint('The cat sat on the mat.'), new node.SimHasher().fingerprint('The cat sat on the mat.'));
  assert.equal(node.htmlToText('<p>a &amp; b</p>'), 'a & b');
});
