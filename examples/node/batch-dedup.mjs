// Batch dedup with dedup(): near-duplicate clusters of a whole collection in one call
// (fingerprints, the index's self-join at k = 10, and each candidate pair verified by the
// texts' shingle Jaccard ≥ 0.8). The same job as `npx simhash-wasm dedup`.
//
//   node examples/node/batch-dedup.mjs
//
// The collection is the package's sample corpus, 320 licence texts, and its true pairs
// (4-gram Jaccard ≥ 0.8) come with it, so the run is scored: with and without the
// verification step.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { dedup } from 'simhash-wasm';

const dir = join(dirname(createRequire(import.meta.url).resolve('simhash-wasm/package.json')), 'sample');
const docs = readFileSync(join(dir, 'licenses.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const truth = new Set(readFileSync(join(dir, 'licenses.truth.tsv'), 'utf8').split('\n').slice(1).filter(Boolean)
  .map((l) => l.split('\t').slice(0, 2).sort().join(' ')));

const ids = docs.map((d) => d.id);
const texts = docs.map((d) => d.text);

// Precision: the reported pairs that are true. Recall: the true pairs whose documents share
// a cluster (a verified cluster is reported with the pairs that join it, one fewer than its
// documents, not with every pair).
function score(result) {
  const found = result.pairs.map((p) => `${p.a} ${p.b}`);
  const hits = found.filter((p) => truth.has(p)).length;
  const clusterOf = new Map();
  result.clusters.forEach((c, n) => { for (const id of c) clusterOf.set(id, n); });
  const together = [...truth].filter((t) => {
    const [a, b] = t.split(' ');
    return clusterOf.has(a) && clusterOf.get(a) === clusterOf.get(b);
  }).length;
  return { pairs: found.length, precision: hits / Math.max(1, found.length), recall: together / truth.size };
}

const t0 = performance.now();
const verified = dedup(ids, texts); // k by the collection's size and MinHash bands, verify 0.8: the defaults
const ms = performance.now() - t0;
const raw = dedup(ids, texts, { verify: false });

console.log(`${docs.length} documents in ${ms.toFixed(0)} ms, layout ${verified.layout}; the largest clusters:`);
for (const c of [...verified.clusters].sort((a, b) => b.length - a.length).slice(0, 5)) {
  console.log(`  ${c.length}: ${c.join(', ')}`);
}
const v = score(verified);
const r = score(raw);
const line = (name, s) => `${name.padEnd(32)} ${String(s.pairs).padStart(5)} ${s.precision.toFixed(3).padStart(9)} ${s.recall.toFixed(3).padStart(7)}`;
console.log(`\n${'against the true pairs'.padEnd(32)} ${'pairs'.padStart(5)} ${'precision'.padStart(9)} ${'recall'.padStart(7)}`);
console.log(line(`k = ${verified.k} or a band, verified (default)`, v));
console.log(line(`k = ${raw.k}, fingerprints only`, r));

// The verification removes false pairs and keeps the true ones it is given; the band join
// gives it the pairs whose fingerprints sit far apart.
assert.equal(verified.skipped.length, 0);
assert.ok(v.precision >= 0.95, `verified precision ${v.precision}`);
assert.ok(v.recall >= 0.99, `verified recall ${v.recall}`);
assert.ok(r.pairs >= v.pairs && r.precision < v.precision, 'fingerprints alone give more, less precise pairs');
for (const p of verified.pairs) assert.ok(p.jaccard >= 0.8, `${p.a} ${p.b}`);
assert.ok(verified.pairs.some((p) => p.distance > verified.k), 'some pairs come from the bands alone');
assert.ok(verified.clusters.every((c) => verified.pairs.filter((p) => c.includes(p.a)).length === c.length - 1), 'a spanning tree per cluster');
console.log('batch dedup example: ok');
