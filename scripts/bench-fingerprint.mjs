// Wasm-under-Node half of `npm run bench:fingerprint`. Reads the native figures printed
// by `cargo bench --bench fingerprint` (file given as argv[2]), measures the npm package
// on the same texts (one thread, and every core with SimHashPool), and prints the combined
// table and the RESULT line. `pool_speedup` (the issue's `parallel_speedup`, the same
// figure) is the pool's MB/s over one thread's; `peer_ratio` is wasm MB/s over the peer's;
// `browser_ratio` is the browser build's (pkg/web, opt-level "z") MB/s over the Node build's.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { availableParallelism } from 'node:os';
import v8 from 'node:v8';

const require = createRequire(import.meta.url);
const { SimHasher, SimHashPool, dedup } = require('../pkg/index.cjs');
const quick = process.argv.includes('--quick');
const native = JSON.parse(readFileSync(process.argv[2], 'utf8').split('\n').find((l) => l.startsWith('NATIVE ')).slice(7));

const dir = process.env.SIMHASH_DEVCORPUS;
const en = []; const zh = [];
for (const line of readFileSync(`${dir}/docs.jsonl`, 'utf8').split('\n')) {
  if (!line) continue;
  const d = JSON.parse(line);
  (d.lang === 'zh' ? zh : en).push(d.text);
}
if (quick) { en.length = Math.min(en.length, 1500); zh.length = Math.min(zh.length, 1500); }
const all = en.concat(zh);
const bytes = (v) => v.reduce((s, t) => s + Buffer.byteLength(t), 0);
const minMs = quick ? 300 : 2000;

function throughput(texts, run) {
  run(texts.slice(0, 200)); // warm-up
  const total = bytes(texts);
  let rounds = 0; const t0 = performance.now();
  do { run(texts); rounds++; } while (performance.now() - t0 < minMs);
  return (total * rounds) / ((performance.now() - t0) / 1000) / 1e6;
}

const h = new SimHasher();
let sink = 0n;
const perDoc = (texts) => { for (const t of texts) sink ^= h.fingerprint(t); };
const batch = (texts) => { for (const f of h.fingerprintBatch(texts)) sink ^= f; };
const wasmAll = throughput(all, batch);
const wasmEn = throughput(en, batch);
const wasmZh = throughput(zh, batch);
const perDocAll = throughput(all, perDoc);
// The same core inside wasm with the texts already in wasm memory: no boundary at all.
const benchCore = require('../pkg/node/simhash_wasm.js').__benchCore;
const coreAll = (() => {
  benchCore(all.slice(0, 200), 1); // warm-up
  let rounds = 0; let ms = 0;
  while (ms < minMs) { ms += benchCore(all, 1); rounds++; }
  return (bytes(all) * rounds) / (ms / 1000) / 1e6;
})();
// The default browser build (pkg/web: opt-level "z", no HTML), loaded in Node from its bytes.
const web = await import('../pkg/web/simhash_wasm.js');
web.initSync({ module: readFileSync(new URL('../pkg/web/simhash_wasm_bg.wasm', import.meta.url)) });
const hw = new web.SimHasher();
const webAll = throughput(all, (texts) => { for (const f of hw.fingerprintBatch(texts)) sink ^= f; });
// The worker pool (SimHashPool): one worker per core, the same batch; its speed-up is
// over fingerprintBatch on one thread (wasmAll), measured in this run.
const pool = await SimHashPool.create();
const poolThroughput = async (texts) => {
  await pool.fingerprintBatch(texts); // warm-up: every worker compiles and tiers up its wasm
  const total = bytes(texts);
  let rounds = 0; const t0 = performance.now();
  do { for (const f of await pool.fingerprintBatch(texts)) sink ^= f; rounds++; } while (performance.now() - t0 < minMs);
  return (total * rounds) / ((performance.now() - t0) / 1000) / 1e6;
};
const poolAll = await poolThroughput(all);
const threads = pool.size;
// Where more cores stop helping (docs/decisions/022-worker-pool.md). The calling thread serialises each
// chunk of texts into a worker's message (the structured clone: V8's serializer, measured
// here as v8.serialize on chunks of 1024 documents), so fingerprintBatch scales to about
// post_mb_s / wasm_mb_s workers. dedup's plan (the merge of the workers' candidates, the
// pairs to measure) and its report stay on the calling thread (the workers fingerprint,
// sketch, find the candidates and measure the pairs): their share of a one-thread dedup
// bounds its speed-up (Amdahl).
const postMbS = throughput(all, (texts) => {
  for (let i = 0; i < texts.length; i += 1024) sink ^= BigInt(v8.serialize(texts.slice(i, i + 1024)).length);
});
const ids = all.map((_, i) => `d${i}`);
// The fastest of a few runs: the first is cold (the workers compile the measuring code).
const fastest = async (run) => {
  let best = Infinity;
  for (let r = 0; r < (quick ? 2 : 4); r++) { const t0 = performance.now(); await run(); best = Math.min(best, performance.now() - t0); }
  return best;
};
const poolDedupMs = await fastest(() => pool.dedup(ids, all));
const oneDedupMs = await fastest(() => dedup(ids, all));
// The calling thread's own part of a pool dedup: the plan (from the candidates, which the
// workers find from the fingerprints and sketches they make) and the report, timed by the
// pool's own hooks; the workers' fingerprints, sketches, candidates and jaccards are made
// here untimed.
const wasmHooks = require('../pkg/node/simhash_wasm.js');
const { dedupReport } = require('../pkg/pool.cjs');
const made = await pool.fingerprintAndSketchEach(all, { size: wasmHooks.__dedupSketchSize(undefined) });
if (made.failed.length) throw new Error(`the corpus has documents with no fingerprint: ${made.failed[0].error.message}`);
const allFps = made.fingerprints;
const allSketches = new Uint8Array(made.sketches[0].buffer);
const found = wasmHooks.__candidates(allFps, allSketches, undefined, 0, 1);
let serialMs = Infinity;
for (let r = 0; r < (quick ? 2 : 4); r++) {
  let t0 = performance.now();
  const plan = wasmHooks.__dedupPlan(ids.join(''), Uint32Array.from(ids, (id) => id.length), all, allFps, new Uint32Array(0), new Uint8Array(0), undefined, found);
  let ms = performance.now() - t0;
  // Each round's pairs measured untimed, its recording and the report timed.
  for (let pairs = plan.pairs(); pairs.length > 0; pairs = plan.pairs()) {
    const measured = wasmHooks.__jaccards(all, pairs, plan.shingle, plan.html);
    t0 = performance.now();
    plan.record(measured);
    ms += performance.now() - t0;
  }
  t0 = performance.now();
  dedupReport(plan.finish());
  ms += performance.now() - t0;
  plan.free();
  serialMs = Math.min(serialMs, ms);
}
const serialShare = Math.min(1, serialMs / oneDedupMs);
await pool.close();
// explain on a 50 kB text in Chromium (scripts/bench-explain.html): objects vs typed arrays.
let explain = null;
try {
  const { serve, launch } = await import('../tests/browser/harness.mjs');
  const server = await serve();
  const browser = await launch();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/scripts/bench-explain.html`);
    await page.waitForFunction(() => window.result !== undefined, null, { timeout: 120000 });
    explain = await page.evaluate(() => window.result);
  } finally {
    await browser.close();
    await server.close();
  }
} catch (e) {
  console.log(`explain in Chromium: not measured (${e.message.split('\n')[0]})`);
}
const rssMb = process.resourceUsage().maxRSS / 1024;
const wasmMemMb = require('../pkg/node/simhash_wasm.js').__wasm?.memory?.buffer?.byteLength / 2 ** 20;

const f = (x) => x.toFixed(1).padStart(9);
console.log(`\n${'MB/s, one run'.padEnd(52)} ${'all'.padStart(9)} ${'en'.padStart(9)} ${'zh'.padStart(9)}`);
console.log(`${'native core (cargo bench)'.padEnd(52)} ${f(native.native_mb_s)} ${f(native.native_en_mb_s)} ${f(native.native_zh_mb_s)}`);
console.log(`${'wasm under Node, fingerprintBatch (one crossing)'.padEnd(52)} ${f(wasmAll)} ${f(wasmEn)} ${f(wasmZh)}`);
console.log(`${'wasm under Node, fingerprint() per document'.padEnd(52)} ${f(perDocAll)}`);
console.log(`${'wasm core alone (texts already in wasm memory)'.padEnd(52)} ${f(coreAll)}`);
console.log(`${'browser build (pkg/web, opt-level z), fingerprintBatch'.padEnd(52)} ${f(webAll)}`);
console.log(`${`wasm under Node, SimHashPool (${threads} workers)`.padEnd(52)} ${f(poolAll)}`);
console.log(`${'peer: simhash 0.3.0 crate, native'.padEnd(52)} ${f(native.peer_mb_s)} ${f(native.peer_en_mb_s)} ${f(native.peer_zh_mb_s)}`);
console.log(`JS boundary: the batch loses ${(100 * (1 - wasmAll / coreAll)).toFixed(1)}% to the wasm core, per-document calls ${(100 * (1 - perDocAll / coreAll)).toFixed(1)}%`);
console.log(`wasm/native ${(wasmAll / native.native_mb_s).toFixed(2)}; batch vs per-document call ${(wasmAll / perDocAll).toFixed(2)}x; ours (wasm) vs peer (native) ${(wasmAll / native.peer_mb_s).toFixed(2)}x`);
console.log(`peak memory: native process ${native.native_peak_rss_mb.toFixed(1)} MB RSS; Node process ${rssMb.toFixed(1)} MB RSS${Number.isFinite(wasmMemMb) ? `, wasm linear memory ${wasmMemMb.toFixed(1)} MB` : ''} (corpus text included)`);
console.log(`pool: ${(poolAll / wasmAll).toFixed(2)}x one thread with ${threads} workers on ${availableParallelism()} cores`);
console.log(`pool limits: the calling thread posts ${postMbS.toFixed(0)} MB/s of texts (fingerprintBatch scales to about ${(postMbS / wasmAll).toFixed(0)} workers); dedup of the corpus: ${oneDedupMs.toFixed(0)} ms on one thread, ${poolDedupMs.toFixed(0)} ms with the pool (${(oneDedupMs / poolDedupMs).toFixed(2)}x), ${serialMs.toFixed(0)} ms of it on the calling thread (the plan from the workers' candidates, and the report: ${(100 * serialShare).toFixed(1)}% of one thread's time, so at most ${(1 / serialShare).toFixed(1)}x on any number of cores)`);
if (explain) console.log(`explain in Chromium, ${explain.chars} characters (${explain.tokens} tokens): explain() ${explain.objects.toFixed(1)} ms, explainArrays() ${explain.arrays.toFixed(1)} ms (median of 9)`);
if (sink === 42n) console.log('');
console.log(`RESULT wasm_mb_s=${wasmAll.toFixed(1)} native_mb_s=${native.native_mb_s.toFixed(1)} ratio=${(wasmAll / native.native_mb_s).toFixed(2)} peer_mb_s=${native.peer_mb_s.toFixed(1)} per_doc_mb_s=${perDocAll.toFixed(1)} wasm_core_mb_s=${coreAll.toFixed(1)} boundary_loss=${(1 - wasmAll / coreAll).toFixed(3)} browser_build_mb_s=${webAll.toFixed(1)} browser_ratio=${(webAll / wasmAll).toFixed(2)} peer_ratio=${(wasmAll / native.peer_mb_s).toFixed(2)} threads=${threads} pool_mb_s=${poolAll.toFixed(1)} pool_speedup=${(poolAll / wasmAll).toFixed(2)} parallel_speedup=${(poolAll / wasmAll).toFixed(2)} sketch_cost_ratio=${native.sketch_cost_ratio.toFixed(2)} post_mb_s=${postMbS.toFixed(0)} fp_pool_limit=${(postMbS / wasmAll).toFixed(1)} dedup_serial_share=${serialShare.toFixed(3)} dedup_pool_speedup=${(oneDedupMs / poolDedupMs).toFixed(2)}${explain ? ` explain_50k_ms=${explain.arrays.toFixed(1)} explain_objects_50k_ms=${explain.objects.toFixed(1)}` : ''}${quick ? ' quick=1' : ''}`);
