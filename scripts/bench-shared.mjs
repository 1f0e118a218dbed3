// npm run bench:shared [-- --quick]: RedisContentSeen against one local redis-server.
// Loads N stored pages (1M; 50k with --quick) through the migration path, then checks a
// stream in which about one page in five is a near-duplicate (1-3 bits from a stored page),
// with 1 and with 4 worker processes, each keeping a few checks in flight (pipelined).
// The floor: the same workers doing pipelined GETs (redis_get_s).
// The server runs with AOF on: `appendonly yes`, `appendfsync everysec` (Redis's advice;
// `--fsync always` to fsync every write, as the fault test does). server_us: redis-server
// CPU time per check (INFO cpu), a figure that holds when other programs load the machine;
// script_us: time inside the CHECK script per check (INFO commandstats: the calls' total
// time over the checks they made, the workers' warm-up checks included).
// Latency: p50_ms / p99_ms with 4 workers, p50_ms_1w / p99_ms_1w with one, each next to the
// plain-GET floor measured the same way (get_p99_ms, get_p99_ms_1w): on a 2-core machine
// running 4 workers, the driver and redis-server, the tail is mostly the scheduler's.
// SIMHASH_BENCH_INFLIGHT (default 4) sets the checks each worker keeps in flight; checks in
// flight together share script calls of up to SIMHASH_BENCH_BATCH pages (the `batch`
// option, default 32; 1 sends each check alone, as before batching). calls_per_check: the
// script calls sent per check, with 4 workers.
// Sketch mode (`sketch: true`, a phase of its own): SK_N stored pages of generated text
// (1M, as the fingerprint phase; 20k with --quick; SIMHASH_BENCH_SKETCH_PAGES to change
// it: 1M sketched pages take about half a gigabyte in Redis and minutes to sketch and
// load), loaded through the
// migration path, then a stream of texts in which one in five is a near-duplicate (1 to 3
// words changed) of a stored page, checked by 4 workers: sketch_checks_s_4w,
// sketch_round_trips, sketch_calls_per_check, sketch_p99_ms, and sketch_bytes_per_page (sketches and bands: the
// namespace's bytes a page in sketch mode less the same pages' fingerprint-only bytes
// with the URL map, both from INFO memory). sketch_ratio: sketch_checks_s_4w / checks_s_4w.
// The same texts then go to the fingerprint-only store by `check` (fp_text_checks_s_4w,
// fp_text_script_us, fp_text_client_us): sketch_ratio_texts = sketch_checks_s_4w /
// fp_text_checks_s_4w, the two modes given the same input. sketch_checks_ratio:
// sketch_checks_s_4w / redis_get_s, sketch mode's checks_ratio.
// The fault phase: FAULT_CHECKS checks in each mode (fresh namespaces, 4 in-process
// workers, each page checked by two of them) through a loopback proxy that loses 2% of the
// replies after the server ran the call (tests/js/redis-server.mjs startProxy), with
// retries; new_lost counts the stored pages that no check was told were new (must be 0),
// fault_replayed the checks answered from their first attempt.
import { spawn, execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { startServer, startProxy, usedMemory, serverCpu, scriptMicros } from '../tests/js/redis-server.mjs';
import { rng } from '../tests/js/redis-common.mjs';

const require = createRequire(import.meta.url);
const sw = require('../pkg/index.cjs');
const { createClient } = require('redis');
const self = fileURLToPath(import.meta.url);
const quick = process.argv.includes('--quick');
const N = quick ? 50_000 : 1_000_000;
const CHECKS = quick ? 8_000 : 40_000; // per phase, split over the workers
const INFLIGHT = Number(process.env.SIMHASH_BENCH_INFLIGHT || 4);
const BATCH = process.env.SIMHASH_BENCH_BATCH ? { batch: Number(process.env.SIMHASH_BENCH_BATCH) } : {};
const WARM = 1500; // warm-up checks per worker
const fsyncArg = process.argv.indexOf('--fsync');
const FSYNC = fsyncArg > 0 ? process.argv[fsyncArg + 1] : 'everysec';
const SK_N = Number(process.env.SIMHASH_BENCH_SKETCH_PAGES || (quick ? 20_000 : 1_000_000));
const SK_CHECKS = quick ? 4_000 : 20_000;
const FAULT_CHECKS = quick ? 2_000 : 10_000;

// `n` values of `f(i)`, made by a plain loop. Not Array.from(…, callback): the driver
// died three times in V8's deoptimizer ("Fatal error … unreachable code" in
// Deoptimizer::DoComputeBuiltinContinuation, an intermittent Node 20 bug,
// nodejs/node#51555) right after loading, where it built its streams with BigInt
// arithmetic inside Array.from callbacks; a deopt inside a builtin's callback is what
// that code path handles.
function fill(n, f) {
  const out = new Array(n);
  for (let i = 0; i < n; i++) out[i] = f(i);
  return out;
}

// Generated text: 150 words from a vocabulary of 16,384 made-up words of 3 to 9 random
// letters (so that, as in real text, unrelated pages share few 4-grams); page `id` is
// always the same text, and `edit` (non-zero) changes 1 to 3 of its words.
const VOCAB = (() => {
  const next = rng(99);
  return fill(16384, () => String.fromCharCode(...fill(3 + Number(next() % 7n), () => 97 + Number(next() % 26n))));
})();
function textOf(id, edit = 0) {
  const next = rng(1_000_003 + id);
  const words = fill(150, () => VOCAB[Number(next() % 16384n)]);
  if (edit) {
    const e = rng(edit);
    for (let n = 1 + Number(e() % 3n); n > 0; n--) words[Number(e() % 150n)] = VOCAB[Number(e() % 16384n)];
  }
  return words.join(' ');
}

if (process.argv[2] === '--worker') {
  let input = '';
  for await (const c of process.stdin) input += c;
  const { url, mode, fps } = JSON.parse(input);
  const client = createClient({ url });
  await client.connect();
  const sketch = mode === 'sketch';
  // 'fptext': the fingerprint-only store checking the sketch phase's texts (`check`, which
  // hashes them), against the same stored pages' fingerprints.
  const texted = sketch || mode === 'fptext';
  const opts = sketch ? { sketch: true } : { sketch: false, ...BATCH };
  const namespace = { sketch: 'bench-sketch', fptext: 'bench-fp' }[mode] || 'bench';
  const seen = mode !== 'get' ? await sw.RedisContentSeen.open(client, { namespace, ...opts }) : null;
  // Warm-up (JIT, wasm tier-up), off the clock and off the bench namespace.
  const warm = mode !== 'get' ? await sw.RedisContentSeen.open(client, { namespace: `warm-${process.pid}`, ...opts }) : null;
  let wfp = BigInt(process.pid) * 0x9e3779b97f4a7c15n;
  for (let i = 0; i < WARM; i += 50) {
    const batch = fill(50, (j) => {
      wfp = (wfp * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
      return texted ? { url: `w${i + j}`, text: textOf(Number(wfp % 1000000n) + 5_000_000) } : { url: `w${i + j}`, fingerprint: wfp };
    });
    if (warm) await warm.checkBatch(batch);
    else await Promise.all(batch.map((_, j) => client.get(`{bench}:g${j}`)));
  }
  if (warm) {
    warm.close();
  }
  // Sketch mode: [serial, text id, edit] become the texts before the clock starts (a
  // crawler has the page's text in hand when it checks it; making it is not the store's work).
  const texts = texted ? fill(fps.length, (i) => textOf(fps[i][1], fps[i][2])) : null;
  const cpu0 = process.cpuUsage();
  const lat = [];
  const out = [];
  let rts = 0;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: INFLIGHT }, async () => {
      while (next < fps.length) {
        const i = next++;
        const s = performance.now();
        if (texted) {
          const r = await seen.check(`https://bench/s${fps[i][0]}`, texts[i]);
          rts += r.roundTrips;
          out.push([fps[i][0], r.duplicate ? 1 : 0]);
        } else if (seen) {
          const r = await seen.checkFingerprint(`https://bench/s${fps[i][0]}`, BigInt('0x' + fps[i][1]));
          rts += r.roundTrips;
          out.push([fps[i][0], r.duplicate ? 1 : 0]);
        } else {
          await client.get(`{bench}:g${i % 1000}`);
        }
        lat.push(performance.now() - s);
      }
    }),
  );
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuUs = cpu.user + cpu.system;
  await client.quit();
  // Exit only once the pipe has taken the whole reply (process.exit would cut it short).
  const calls = seen ? seen.stats.calls : fps.length;
  process.stdout.write(JSON.stringify({ ms, lat, rts, out, cpuUs, calls }), () => process.exit(0));
}

async function workers(url, mode, jobs, w) {
  const shares = Array.from({ length: w }, (_, i) => jobs.filter((_, j) => j % w === i));
  const t0 = performance.now();
  const res = await Promise.all(
    shares.map(
      (fps) =>
        new Promise((resolve, reject) => {
          const c = spawn(process.execPath, [self, '--worker'], { stdio: ['pipe', 'pipe', 'inherit'] });
          let o = '';
          c.stdout.on('data', (d) => (o += d));
          c.on('exit', (code) => (code === 0 ? resolve(JSON.parse(o)) : reject(new Error('worker failed'))));
          c.stdin.end(JSON.stringify({ url, mode, fps }));
        }),
    ),
  );
  const ms = Math.max(...res.map((r) => r.ms));
  const lat = res.flatMap((r) => r.lat).sort((a, b) => a - b);
  return {
    rate: jobs.length / (ms / 1000),
    p50: lat[Math.floor(lat.length * 0.5)],
    p99: lat[Math.floor(lat.length * 0.99)],
    rts: res.reduce((a, r) => a + r.rts, 0) / jobs.length,
    calls: res.reduce((a, r) => a + r.calls, 0) / jobs.length,
    clientUs: res.reduce((a, r) => a + r.cpuUs, 0) / jobs.length,
    out: res.flatMap((r) => r.out),
    wall: performance.now() - t0,
  };
}

const popcount = (x) => {
  let n = 0;
  for (; x; x &= x - 1n) n++;
  return n;
};

// Rewrites the AOF after a bulk load and waits for it: the load's writes would otherwise
// trigger Redis's automatic rewrite (when the file doubles) during a timed phase, a fork
// and a child writing the whole data set on the same 2 cores. Steady state is what a
// crawl sees. aof_rewrites (in the RESULT line) counts the rewrites that ran anyway.
async function compactAof(port) {
  const cli = (...a) => execFileSync('redis-cli', ['-p', String(port), ...a]).toString();
  while (/aof_rewrite_in_progress:1|aof_rewrite_scheduled:1/.test(cli('info', 'persistence'))) await new Promise((r) => setTimeout(r, 100));
  cli('bgrewriteaof');
  do await new Promise((r) => setTimeout(r, 100));
  while (/aof_rewrite_in_progress:1|aof_rewrite_scheduled:1/.test(cli('info', 'persistence')));
}
const aofRewrites = (port) => Number(/aof_rewrites:(\d+)/.exec(execFileSync('redis-cli', ['-p', String(port), 'info', 'persistence']).toString())[1]);

// The README's Redis settings: buckets stay listpacks (store format 2, about 27 B/page).
const server = await startServer(['--appendfsync', FSYNC, '--hash-max-listpack-value', '512']);
try {
  const client = createClient({ url: server.url });
  await client.connect();
  const empty = usedMemory(server.port);
  const next = rng(42);
  const base = new BigUint64Array(N);
  for (let i = 0; i < N; i++) base[i] = next();
  // The stored pages, through ContentSeen and the migration path.
  const load = async (urls) => {
    const cs = new sw.ContentSeen({ k: 3, sketch: false }); // the fingerprint-only test
    for (let i = 0; i < N; i++) cs.checkFingerprint(`https://bench/b${i}`, base[i]);
    const seen = await sw.RedisContentSeen.open(client, { namespace: 'bench', urls, sketch: false });
    const t = performance.now();
    await seen.importSnapshot(cs.toBytes(), { batch: 2000 });
    const stored = await seen.size;
    seen.close();
    return { stored, ms: performance.now() - t };
  };
  const ix = await load(false);
  const indexBytes = (usedMemory(server.port) - empty) / ix.stored;
  await client.flushAll();
  const full = await load(true);
  const fullBytes = (usedMemory(server.port) - empty) / full.stored;
  console.log(`loaded ${full.stored} pages (${(full.ms / 1000).toFixed(1)} s); index ${indexBytes.toFixed(1)} B/page, URL map ${(fullBytes - indexBytes).toFixed(1)} B/page more`);
  await compactAof(server.port);
  for (let i = 0; i < 1000; i++) await client.set(`{bench}:g${i}`, 'x'.repeat(16));

  // Streams: 1 in 5 a near-duplicate of a stored page, the rest new.
  let serial = 0;
  const stream = (n) =>
    fill(n, () => {
      let fp;
      if (next() % 5n === 0n) {
        fp = base[Number(next() % BigInt(N))];
        for (let f = 1 + Number(next() % 3n); f > 0; f--) fp ^= 1n << (next() % 64n);
      } else fp = next();
      return [serial++, fp.toString(16)];
    });
  const s1 = stream(CHECKS);
  const s4 = stream(CHECKS);
  let timedRewrites = -aofRewrites(server.port);
  const one = await workers(server.url, 'check', s1, 1);
  timedRewrites += aofRewrites(server.port); // before resetstat zeroes the count
  const cpu0 = serverCpu(server.port);
  execFileSync('redis-cli', ['-p', String(server.port), 'config', 'resetstat']);
  const four = await workers(server.url, 'check', s4, 4);
  const serverUs = ((serverCpu(server.port) - cpu0) * 1e6) / s4.length;
  // script_us: time inside the CHECK script per check (INFO commandstats), the part of
  // server_us that the store's Lua decides; the rest is reading, writing and the AOF.
  const scriptUs = scriptMicros(server.port) / (s4.length + 4 * WARM);
  const gets = await workers(server.url, 'get', s4, 4);
  const gets1 = await workers(server.url, 'get', s1, 1);
  // The 4-worker and GET phases (after resetstat); read here, before the sketch-mode bulk
  // loads below, whose own rewrites are no timed phase's.
  timedRewrites += aofRewrites(server.port);
  for (const [name, r] of [['1 worker', one], ['4 workers', four], ['GET 1 worker', gets1], ['GET 4 workers', gets]]) {
    console.log(`${name}: ${Math.round(r.rate)}/s p50 ${r.p50.toFixed(3)} ms p99 ${r.p99.toFixed(3)} ms round trips ${r.rts.toFixed(3)}`);
  }
  // lost: a page answered "new" that is not stored; double_kept: a stored stream page with
  // another stored page within k.
  const all = new Map([...s1, ...s4].map(([i, fp]) => [i, BigInt('0x' + fp)]));
  const kept = [...one.out, ...four.out].filter(([, d]) => d === 0).map(([i]) => i);
  const idx = new sw.SimHashIndex({ k: 3 });
  for (let i = 0; i < N; i++) idx.insert(i, base[i]);
  let lost = 0;
  let doubleKept = 0;
  const keptFps = [];
  for (const i of kept) {
    const fp = all.get(i);
    if (!(await client.hExists('{bench}:p', Buffer.from(fp.toString(16).padStart(16, '0'), 'hex')))) lost++;
    if (idx.query(fp).length) doubleKept++;
    keptFps.push(fp);
  }
  // Kept stream pages against each other (within k of one kept earlier).
  const kIdx = new sw.SimHashIndex({ k: 3 });
  keptFps.forEach((fp, j) => {
    if (kIdx.query(fp).length) doubleKept++;
    kIdx.insert(N + j, fp);
  });
  const dups = [...one.out, ...four.out].filter(([, d]) => d === 1);
  for (const [i] of dups) if (!idx.query(all.get(i)).length && !kIdx.query(all.get(i)).length) lost++;

  // Sketch mode: SK_N stored pages of text, sketched through ContentSeen, migrated in;
  // the same pages fingerprint-only (with the URL map) in another namespace, for the
  // bytes net of the index.
  const skLoad = performance.now();
  const cs = new sw.ContentSeen({ k: 3 }); // the default sketch (128 bytes), threshold 0.81
  const fpOnly = new sw.ContentSeen({ k: 3, sketch: false });
  for (let i = 0; i < SK_N; i++) {
    const r = cs.check(`https://bench/t${i}`, textOf(i));
    fpOnly.checkFingerprint(`https://bench/t${i}`, r.fingerprint);
  }
  const sketchMs = performance.now() - skLoad;
  const mem0 = usedMemory(server.port);
  const fpSeen = await sw.RedisContentSeen.open(client, { namespace: 'bench-fp', urls: true, sketch: false });
  await fpSeen.importSnapshot(fpOnly.toBytes(), { batch: 2000 });
  const fpPages = await fpSeen.size;
  fpSeen.close();
  fpOnly.free();
  const mem1 = usedMemory(server.port);
  const skSeen = await sw.RedisContentSeen.open(client, { namespace: 'bench-sketch', sketch: true });
  const t1 = performance.now();
  await skSeen.importSnapshot(cs.toBytes(), { batch: 1000 });
  const skImportMs = performance.now() - t1;
  const skPages = await skSeen.size;
  skSeen.close();
  cs.free();
  const mem2 = usedMemory(server.port);
  const skTotal = (mem2 - mem1) / skPages;
  const skNet = skTotal - (mem1 - mem0) / fpPages;
  console.log(
    `sketch mode: ${skPages} pages sketched in ${(sketchMs / 1000).toFixed(1)} s, loaded in ${(skImportMs / 1000).toFixed(1)} s; ` +
      `${skTotal.toFixed(1)} B/page in all, ${skNet.toFixed(1)} B/page for sketches and bands`,
  );
  let skSerial = 10_000_000;
  const skStream = fill(SK_CHECKS, () => {
    const near = next() % 5n === 0n;
    // A near-duplicate of a stored page, or a new text (ids beyond the stored ones).
    return near ? [skSerial++, Number(next() % BigInt(SK_N)), 1 + Number(next() % 1000000n)] : [skSerial++, SK_N + 1 + Number(next() % 4_000_000n), 0];
  });
  // A timed phase of 4 workers over the texts of skStream, from a compacted AOF and zeroed
  // statistics, with its script time a check, as script_us (the workers' warm-up checks
  // and OPEN calls included).
  const textPhase = async (mode) => {
    await compactAof(server.port);
    execFileSync('redis-cli', ['-p', String(server.port), 'config', 'resetstat']);
    const r = await workers(server.url, mode, skStream, 4);
    timedRewrites += aofRewrites(server.port);
    return { ...r, scriptUs: scriptMicros(server.port) / (skStream.length + 4 * WARM) };
  };
  const sk = await textPhase('sketch');
  const skFound = sk.out.filter(([i, d]) => d === 1).length / sk.out.length;
  console.log(`sketch mode, 4 workers: ${Math.round(sk.rate)}/s p50 ${sk.p50.toFixed(3)} ms p99 ${sk.p99.toFixed(3)} ms round trips ${sk.rts.toFixed(3)}, duplicates ${(skFound * 100).toFixed(1)}%`);
  // The same texts checked by the fingerprint-only store (`bench-fp`: the same stored pages'
  // fingerprints with the URL map), hashing included as in the sketch phase: what a crawler
  // that hands over text pays for sketch mode (sketch_ratio_texts), where sketch_ratio
  // compares against ready fingerprints.
  const ft = await textPhase('fptext');
  console.log(`fingerprint-only, the same texts, 4 workers: ${Math.round(ft.rate)}/s p50 ${ft.p50.toFixed(3)} ms p99 ${ft.p99.toFixed(3)} ms round trips ${ft.rts.toFixed(3)}`);

  // The fault phase: lost replies, both modes.
  const proxy = await startProxy(server.port, { rate: 0.02, seed: 5 });
  let newLost = 0;
  let faultReplayed = 0;
  let faultChecks = 0;
  for (const sketch of [false, true]) {
    const namespace = sketch ? 'bench-fault-s' : 'bench-fault-f';
    const n = FAULT_CHECKS / 2;
    const pages = fill(n, (i) => {
      const near = next() % 5n === 0n;
      if (sketch) return { url: `https://fault/s${i}`, text: near ? textOf(Number(next() % BigInt(SK_N)), 1 + i) : textOf(20_000_000 + i) };
      let fp = near ? base[Number(next() % BigInt(N))] : next();
      if (near) fp ^= 1n << (next() % 64n);
      return { url: `https://fault/f${i}`, fp };
    });
    const clients = [];
    const seens = [];
    for (let w = 0; w < 4; w++) {
      const c = createClient({ url: `redis://127.0.0.1:${proxy.port}`, socket: { reconnectStrategy: () => 10 } });
      c.on('error', () => {});
      await c.connect();
      clients.push(c);
      seens.push(await sw.RedisContentSeen.open(c, { namespace, sketch, retries: 100 }));
    }
    const reportedNew = new Map();
    await Promise.all(
      seens.map(async (seen, w) => {
        // Worker w checks pages w and w + 1 (mod 4) of every four: each page by two workers.
        const mine = pages.filter((_, i) => i % 4 === w || (i + 3) % 4 === w);
        let at = 0;
        await Promise.all(
          fill(INFLIGHT, () => (async () => {
            while (at < mine.length) {
              const p = mine[at++];
              const r = sketch ? await seen.check(p.url, p.text) : await seen.checkFingerprint(p.url, p.fp);
              faultChecks++;
              if (!r.duplicate) reportedNew.set(p.url, (reportedNew.get(p.url) || 0) + 1);
            }
          })()),
        );
      }),
    );
    for (const seen of seens) {
      faultReplayed += seen.stats.replayed;
      seen.close();
    }
    for (const c of clients) await c.disconnect().catch(() => {});
    const check = await sw.RedisContentSeen.open(client, { namespace, sketch });
    for await (const p of check.clusters()) if (reportedNew.get(p.id) !== 1) newLost++;
    check.close();
  }
  await proxy.stop();
  console.log(`fault phase: ${faultChecks} checks, ${proxy.drops} replies lost, ${faultReplayed} answered from their first attempt, ${newLost} stored pages not reported new exactly once`);

  await client.quit();
  const f = (x, d = 0) => x.toFixed(d);
  console.log(
    `RESULT checks_s=${f(one.rate)} checks_s_4w=${f(four.rate)} redis_get_s=${f(gets.rate)} checks_ratio=${f(four.rate / gets.rate, 3)} ` +
      `p50_ms=${f(four.p50, 3)} p99_ms=${f(four.p99, 3)} get_p99_ms=${f(gets.p99, 3)} ` +
      `p50_ms_1w=${f(one.p50, 3)} p99_ms_1w=${f(one.p99, 3)} get_p99_ms_1w=${f(gets1.p99, 3)} round_trips=${f(four.rts, 3)} calls_per_check=${f(four.calls, 3)} ` +
      `near_dup_share=${f(four.out.filter(([, d]) => d === 1).length / four.out.length, 3)} server_us=${f(serverUs, 1)} script_us=${f(scriptUs, 1)} client_us=${f(four.clientUs, 1)} get_client_us=${f(gets.clientUs, 1)} aof=${FSYNC} bytes_per_page=${f(indexBytes, 1)} ` +
      `map_bytes_per_page=${f(fullBytes - indexBytes, 1)} pages=${full.stored} lost=${lost} double_kept=${doubleKept} ` +
      `sketch_checks_s_4w=${f(sk.rate)} sketch_round_trips=${f(sk.rts, 3)} sketch_p50_ms=${f(sk.p50, 3)} sketch_p99_ms=${f(sk.p99, 3)} ` +
      `sketch_script_us=${f(sk.scriptUs, 1)} sketch_client_us=${f(sk.clientUs, 1)} sketch_near_dup_share=${f(skFound, 3)} sketch_bytes_per_page=${f(skNet, 1)} sketch_total_bytes_per_page=${f(skTotal, 1)} sketch_pages=${skPages} aof_rewrites=${timedRewrites} ` +
      `sketch_calls_per_check=${f(sk.calls, 3)} sketch_checks_ratio=${f(sk.rate / gets.rate, 3)} fp_text_checks_s_4w=${f(ft.rate)} fp_text_script_us=${f(ft.scriptUs, 1)} fp_text_client_us=${f(ft.clientUs, 1)} sketch_ratio_texts=${f(sk.rate / ft.rate, 3)} ` +
      `sketch_ratio=${f(sk.rate / four.rate, 3)} new_lost=${newLost} fault_replayed=${faultReplayed} fault_lost_replies=${proxy.drops}`,
  );
} finally {
  await server.stop();
}
