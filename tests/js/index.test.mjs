// The index and the CLI through the npm package.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

import { SimHashIndex, SimHasher, hamming } from '../../pkg/index.mjs';

const bin = new URL('../../pkg/bin/simhash-wasm.mjs', import.meta.url).pathname;

test('index: string ids, query-and-insert, sorted results, errors keep the instance alive', () => {
  const ix = new SimHashIndex({ k: 3 });
  assert.equal(ix.idKind, undefined);
  const base = 0x0123456789abcdefn;
  assert.deepEqual(ix.queryAndInsert('https://a.example/', base), []);
  assert.equal(ix.idKind, 'string');
  assert.deepEqual(ix.queryAndInsert('https://b.example/', base ^ 0b101n), [{ id: 'https://a.example/', distance: 2 }]);
  ix.insert('https://c.example/', base);
  assert.deepEqual(ix.query(base), [
    { id: 'https://a.example/', distance: 0 },
    { id: 'https://c.example/', distance: 0 },
    { id: 'https://b.example/', distance: 2 },
  ]);
  assert.deepEqual(ix.query(base, 1).map((m) => m.id), ['https://a.example/', 'https://c.example/']);
  assert.throws(() => ix.insert('https://a.example/', 1n), (e) => e.code === 'DuplicateId' && /already/.test(e.message));
  assert.throws(() => ix.remove('https://nope.example/'), (e) => e.code === 'UnknownId');
  assert.throws(() => ix.insert(5, 1n), (e) => e.code === 'InvalidOption' && /string ids/.test(e.message));
  assert.equal(ix.remove('https://c.example/'), base);
  assert.equal(ix.size, 2);
  assert.deepEqual(ix.selfJoin(), [{ a: 'https://a.example/', b: 'https://b.example/', distance: 2 }]);
  assert.deepEqual(ix.clusters(), [['https://a.example/', 'https://b.example/']]);
  const st = ix.stats();
  assert.equal(st.tables, 4);
  assert.deepEqual(st.keyBits, [16, 16, 16, 16]);
});

test('index: numeric ids, batch insert and batch query agree with brute force', () => {
  let s = 42n;
  const rand = () => { s = (s * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn; return s; };
  const fps = new BigUint64Array(3000);
  for (let i = 0; i < fps.length; i++) fps[i] = i % 3 === 0 ? fps[i - 1 < 0 ? 0 : i - 1] ^ (1n << BigInt(i % 64)) : rand();
  const ids = [...fps.keys()];
  for (const layout of ['default', 'probe', [16, 12, 12, 12, 12], 'auto']) {
    const ix = new SimHashIndex({ k: 3, layout, ids: 'number', expectedSize: fps.length });
    ix.insertBatch(ids, fps);
    const queries = fps.slice(0, 200);
    const batch = ix.queryBatch(queries);
    queries.forEach((q, qi) => {
      const want = ids.map((id) => ({ id, distance: hamming(q, fps[id]) })).filter((m) => m.distance <= 3)
        .sort((x, y) => x.distance - y.distance || x.id - y.id);
      assert.deepEqual(batch[qi], want, `${JSON.stringify(layout)} query ${qi}`);
    });
    const flat = ix.queryBatchFlat(queries);
    assert.equal(flat.distances.length, batch.reduce((n, r) => n + r.length, 0));
  }
  assert.throws(() => new SimHashIndex({ k: 3, layout: [16, 16, 16] }), (e) => e.code === 'InvalidLayout');
  assert.throws(() => new SimHashIndex({ k: 4, layout: [16, 16, 16, 16] }), (e) => e.code === 'InvalidLayout');
  assert.throws(() => new SimHashIndex({ kk: 4 }), /only the keys/);
});

test('CLI: dedup on the shipped sample finds its known near-duplicates, verified', () => {
  const out = execFileSync(process.execPath, [bin, 'dedup'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const clusters = out.trim().split('\n').map((l) => JSON.parse(l));
  assert.ok(clusters.length >= 10, `${clusters.length} clusters`);
  const together = (a, b) => clusters.some((c) => c.ids.includes(a) && c.ids.includes(b));
  assert.ok(together('OLDAP-2.2', 'OLDAP-2.2.1'));
  assert.ok(together('PHP-3.0', 'PHP-3.01'));
  // Against the shipped truth (4-gram Jaccard >= 0.8): verified pairs are all true, and
  // k = 10 finds most of them (measured here: 107 of 143; the whole dev corpus: 0.91).
  const truth = new Set(readFileSync(new URL('../../pkg/sample/licenses.truth.tsv', import.meta.url), 'utf8')
    .trim().split('\n').slice(1).map((l) => l.split('\t').slice(0, 2).sort().join('|')));
  const pairs = clusters.flatMap((c) => c.pairs.map((p) => [p.a, p.b].sort().join('|')));
  const hits = pairs.filter((p) => truth.has(p)).length;
  assert.ok(hits / pairs.length >= 0.95, `precision ${hits}/${pairs.length}`);
  assert.ok(hits / truth.size >= 0.7, `recall ${hits}/${truth.size}`);
  assert.ok(clusters.every((c) => c.pairs.every((p) => p.jaccard >= 0.8 && p.distance <= 10)));
  // Without verification, fingerprints alone decide: more pairs, lower precision.
  const raw = execFileSync(process.execPath, [bin, 'dedup', '--verify', 'off'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const rawPairs = raw.trim().split('\n').flatMap((l) => JSON.parse(l).pairs);
  assert.ok(rawPairs.length > pairs.length && rawPairs.every((p) => p.jaccard == null));
});

test('CLI: fingerprint prints id TAB hex per document, from stdin JSONL', () => {
  const input = ['{"id":"a","text":"the cat sat on the mat"}', '{"id":"b","text":"we all scream for ice cream"}'].join('\n');
  const out = execFileSync(process.execPath, [bin, 'fingerprint', '-'], { input, encoding: 'utf8' });
  const h = new SimHasher();
  assert.equal(out, `a\t${h.fingerprint('the cat sat on the mat').toString(16).padStart(16, '0')}\nb\t${h.fingerprint('we all scream for ice cream').toString(16).padStart(16, '0')}\n`);
  const bad = () => execFileSync(process.execPath, [bin, 'dedup', '--k', '99'], { encoding: 'utf8', stdio: 'pipe' });
  assert.throws(bad, (e) => /--k must be an integer from 0 to 63/.test(e.stderr));
});
