// Wasm-under-Node half of `npm run bench:index`: the same data and configurations as the
// native half (tests/bench/index.rs, whose output file is argv[2]), through the npm package.
// Ends with `RESULT n=… qps=… build_s=… bytes_per_fp=… selfjoin_s=… recall=…` for the
// default k = 3 layout at the largest N.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { u64s } from './bench-common.mjs';

const require = createRequire(import.meta.url);
const { SimHashIndex } = require('../pkg/index.cjs');
const quick = process.argv.includes('--quick');
const dir = `${process.env.SIMHASH_DEVCORPUS}/fp`;

const readTruth = (path) => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => {
  const rest = l.split('\t')[1];
  return rest ? rest.split(',').map((x) => Number(x.split(':')[0])).sort((a, b) => a - b) : [];
});

function run(name, layout, set, queries, truth) {
  const t0 = performance.now();
  const ix = new SimHashIndex({ k: 3, layout, ids: 'number' });
  ix.insertNumbered(0, set);
  const buildS = (performance.now() - t0) / 1000;
  let flat; let rounds = 0; const q0 = performance.now();
  do { flat = ix.queryBatchFlat(queries); rounds++; } while (performance.now() - q0 < (quick ? 300 : 1500));
  const qps = (queries.length * rounds) / ((performance.now() - q0) / 1000);
  const got = Array.from({ length: queries.length }, () => []);
  flat.queries.forEach((q, r) => got[q].push(flat.ids[r]));
  let want = 0; let found = 0; let exact = true;
  got.forEach((ids, q) => {
    ids.sort((a, b) => a - b);
    want += truth[q].length;
    found += truth[q].filter((id) => ids.includes(id)).length;
    if (ids.length !== truth[q].length || ids.some((id, i) => id !== truth[q][i])) exact = false;
  });
  let selfjoinS = NaN; let pairs = NaN;
  if (!layout.toString().includes('probe')) {
    const s0 = performance.now();
    pairs = ix.selfJoin().length;
    selfjoinS = (performance.now() - s0) / 1000;
  }
  const row = { name, n: set.length, buildS, qps, bytesPerFp: ix.stats().bytesPerFp, selfjoinS, pairs, recall: want ? found / want : 1, exact };
  ix.free();
  return row;
}

const sizes = quick ? ['100k'] : ['100k', '1m'];
console.log(`\nwasm under Node (npm package)\n${'strategy/layout'.padEnd(34)} ${'N'.padStart(9)} ${'build s'.padStart(8)} ${'batch q/s'.padStart(12)} ${'bytes/fp'.padStart(9)} ${'self-join s'.padStart(11)} ${'pairs'.padStart(8)} ${'recall'.padStart(7)} ${'exact'.padStart(6)}`);
let last;
for (const size of sizes) {
  const set = u64s(`${dir}/set_${size}.u64`);
  let queries = u64s(`${dir}/queries_${size}.u64`);
  let truth = readTruth(`${dir}/truth_${size}.tsv`);
  if (quick) { queries = queries.slice(0, 2000); truth = truth.slice(0, 2000); }
  const configs = [['tables 4x16 k=3 (default)', 'default', queries.length], ['tables 16,12,12,12,12 k=3', [16, 12, 12, 12, 12], queries.length], ['probe k=3', 'probe', size === '100k' ? Math.min(2000, queries.length) : 500]];
  for (const [name, layout, nq] of configs) {
    const r = run(name, layout, set, queries.slice(0, nq), truth.slice(0, nq));
    console.log(`${r.name.padEnd(34)} ${String(r.n).padStart(9)} ${r.buildS.toFixed(3).padStart(8)} ${r.qps.toFixed(0).padStart(12)} ${r.bytesPerFp.toFixed(1).padStart(9)} ${r.selfjoinS.toFixed(3).padStart(11)} ${String(r.pairs).padStart(8)} ${r.recall.toFixed(4).padStart(7)} ${String(r.exact).padStart(6)}`);
    if (layout === 'default') last = r;
  }
}
const native = readFileSync(process.argv[2], 'utf8').split('\n').find((l) => l.startsWith('native RESULT'));
if (native) console.log(`(${native})`);
console.log(`RESULT n=${last.n} qps=${last.qps.toFixed(0)} build_s=${last.buildS.toFixed(3)} bytes_per_fp=${last.bytesPerFp.toFixed(1)} selfjoin_s=${last.selfjoinS.toFixed(3)} recall=${last.recall.toFixed(4)}${quick ? ' quick=1' : ''}`);
