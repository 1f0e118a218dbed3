// Wasm-under-Node half of `npm run bench:snapshot`: the native half (tests/bench/snapshot.rs,
// output file argv[2]) prints the full table and the Huffman code; this measures the npm
// package on the same random set and ends with
// `RESULT n=… bits_per_fp=… encode_ms=… load_ms=… contains_qps=… load_ms_10m=… first_query_ms=… load_file_ms=…`
// (wasm under Node).
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { u64s } from './bench-common.mjs';

const require = createRequire(import.meta.url);
const { SimHashIndex, CompactSet, saveIndex, loadIndex } = require('../pkg/index.cjs');
const quick = process.argv.includes('--quick');
const tag = quick ? '100k' : '1m';
const dir = `${process.env.SIMHASH_DEVCORPUS}/fp`;
const set = u64s(`${dir}/set_${tag}.u64`);
const queries = u64s(`${dir}/queries_${tag}.u64`);
const time = (f) => { const t0 = performance.now(); const r = f(); return [r, performance.now() - t0]; };

// The compressed set alone: bits per fingerprint and contains_within speed.
const [cs, setEncodeMs] = time(() => new CompactSet(set));
const bits = cs.bitsPerFingerprint();
const setBytes = cs.toBytes();
const [cs2, setLoadMs] = time(() => CompactSet.fromBytes(setBytes));
const nq = quick ? 500 : 2000;
const [hits, qMs] = time(() => cs2.countContainedWithin(queries.slice(0, nq), 3));
const qps = nq / (qMs / 1000);

// The whole index: encode, and load = decode + rebuild of every table.
const ix = new SimHashIndex({ k: 3, ids: 'number' });
ix.insertNumbered(0, set);
const [bytes, encodeMs] = time(() => ix.toBytes());
const [loaded, loadMs] = time(() => SimHashIndex.fromBytes(bytes));
// The first query after a load: what a restarted crawler waits for on top of the load.
const [firstHits, firstQueryMs] = time(() => loaded.query(queries[0]));
const same = loaded.size === ix.size && firstHits.length === ix.query(queries[0]).length;
// The file path (files.cjs's loadIndex): the file read straight into wasm memory, against
// readFileSync + fromBytes, both including the read (page cache warm), best of 3 each.
const tmp = mkdtempSync(join(tmpdir(), 'simhash-bench-'));
const file = join(tmp, 'index.bin');
saveIndex(ix, file);
let loadFileMs = Infinity; let loadReadMs = Infinity;
for (let round = 0; round < 3; round++) {
  const [a, ms1] = time(() => loadIndex(file));
  const [b, ms2] = time(() => SimHashIndex.fromBytes(readFileSync(file)));
  if (a.size !== ix.size || b.size !== ix.size) throw new Error('a file load lost entries');
  a.free(); b.free();
  loadFileMs = Math.min(loadFileMs, ms1); loadReadMs = Math.min(loadReadMs, ms2);
}
rmSync(tmp, { recursive: true, force: true });
ix.free();
loaded.free();

// A crawler's restart at 10M pages: load a 10M-entry snapshot (random fingerprints made
// here with a seeded xorshift, so no corpus file is needed), best of 2 loads.
const N10 = 10_000_000;
const words = new Uint32Array(N10 * 2);
let st = 0x9E3779B9 >>> 0;
for (let i = 0; i < words.length; i++) { st ^= st << 13; st >>>= 0; st ^= st >>> 17; st ^= st << 5; st >>>= 0; words[i] = st; }
const big = new SimHashIndex({ k: 3, ids: 'number' });
big.insertNumbered(0, new BigUint64Array(words.buffer));
const bigBytes = big.toBytes();
big.free();
let load10 = Infinity;
for (let round = 0; round < 2; round++) {
  const [l, ms] = time(() => SimHashIndex.fromBytes(bigBytes));
  if (l.size !== N10) throw new Error(`10M load gave ${l.size} entries`);
  l.free();
  load10 = Math.min(load10, ms);
}

const floor = 64 - Math.log2(set.length) + 1.44;
console.log(`\nwasm under Node (npm package), n = ${set.length}`);
console.log(`compact set: ${bits.toFixed(3)} bits/fp (floor ${floor.toFixed(2)}); encode ${setEncodeMs.toFixed(1)} ms; load ${setLoadMs.toFixed(1)} ms`);
console.log(`contains_within(k=3) on the compressed set: ${qps.toFixed(0)} queries/s (${hits} of ${nq} queries have a neighbour)`);
console.log(`index snapshot: ${bytes.length} bytes (${(bytes.length * 8 / set.length).toFixed(2)} bits/entry with ids); toBytes ${encodeMs.toFixed(1)} ms; fromBytes (decode + rebuild) ${loadMs.toFixed(1)} ms; first query after it ${firstQueryMs.toFixed(2)} ms; answers the same: ${same}`);
console.log(`index snapshot file: loadIndex (read into wasm memory) ${loadFileMs.toFixed(1)} ms; readFileSync + fromBytes ${loadReadMs.toFixed(1)} ms (best of 3, after the first load)`);
console.log(`index snapshot of 10M entries: ${(bigBytes.length / 1e6).toFixed(1)} MB; fromBytes ${load10.toFixed(1)} ms (best of 2)`);
if (!same) throw new Error('the loaded index answers differently');
const native = readFileSync(process.argv[2], 'utf8').split('\n').find((l) => l.startsWith('native RESULT'));
if (native) console.log(`(${native})`);
console.log(`RESULT n=${set.length} bits_per_fp=${bits.toFixed(3)} encode_ms=${encodeMs.toFixed(1)} load_ms=${loadMs.toFixed(1)} contains_qps=${qps.toFixed(0)} load_ms_10m=${load10.toFixed(1)} first_query_ms=${firstQueryMs.toFixed(2)} load_file_ms=${loadFileMs.toFixed(1)}${quick ? ' quick=1' : ''}`);
