// npm run bench:dedup-redis [-- --quick] [-- --size N] [-- --modes fingerprint,sketch]:
// `dedup --redis` with two processes, beside the in-memory run of bench:dedup. Its
// collection of N documents (1M by default; make it first with `npm run bench:dedup --
// --collections-only --sizes N`) is cut into two halves of consecutive lines; each half is
// a `simhash-wasm dedup HALF --redis URL --namespace bench` process, both at once, against
// one redis-server on a free loopback port (no persistence, `hash-max-listpack-value 512`,
// as the README advises), flushed between modes. Per mode: the wall time and documents a
// second, the duplicates the processes reported, the server's CPU a document (its one
// thread is the limit: decision 092) and its memory. Ends with
// `RESULT size=N redis_docs_s=… redis_server_ms_doc=… redis_sketch_docs_s=… …`. --quick:
// the 20k collection of `bench:dedup --quick` (a SKIP line when it is missing, as there
// when the dev corpus cannot be built).
import { spawn, execFileSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, renameSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { startServer, usedMemory, serverCpu } from '../tests/js/redis-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const flag = (name) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
const quick = argv.includes('--quick');
const SIZE = Number(flag('--size') ?? (quick ? 20_000 : 1_000_000));
const MODES = (flag('--modes') ?? 'fingerprint,sketch').split(',');
for (const mode of MODES) if (mode !== 'fingerprint' && mode !== 'sketch') throw new Error(`--modes takes fingerprint and sketch, not ${mode}`);
const cli = join(root, 'pkg', 'bin', 'simhash-wasm.mjs');
const dir = join(root, 'target', 'bench-dedup');
const collection = join(dir, `docs-${SIZE}.v2.jsonl`);
if (!existsSync(collection) && quick) {
  console.log(`SKIP bench:dedup-redis --quick: no ${collection} (bench:dedup --quick makes it)`);
  process.exit(0);
}
if (!existsSync(collection)) {
  throw new Error(`${collection} is missing: make it with npm run bench:dedup -- --collections-only --sizes ${SIZE}`);
}

/** Writes the collection's first and second halves of lines (once). */
async function halves() {
  const paths = [0, 1].map((h) => join(dir, `docs-${SIZE}.v2.half${h}.jsonl`));
  if (paths.every(existsSync)) return paths;
  const outs = paths.map((p) => createWriteStream(`${p}.tmp`));
  let n = 0;
  for await (const line of createInterface({ input: createReadStream(collection), crlfDelay: Infinity })) {
    const out = outs[n++ < SIZE / 2 ? 0 : 1];
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  await Promise.all(outs.map((o) => new Promise((resolve) => o.end(resolve))));
  for (const p of paths) renameSync(`${p}.tmp`, p);
  return paths;
}

/** One CLI process: resolves with its reported duplicates and documents. */
function dedupProcess(half, url, sketch) {
  const args = [cli, 'dedup', half, '--redis', url, '--namespace', 'bench', ...(sketch ? ['--sketch'] : [])];
  const p = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  p.stderr.on('data', (d) => (err += d));
  let docs = 0;
  let dups = 0;
  const lines = createInterface({ input: p.stdout, crlfDelay: Infinity });
  lines.on('line', (l) => {
    docs++;
    if (l.includes('"duplicate":true')) dups++;
  });
  return new Promise((resolve, reject) => {
    p.on('error', reject);
    // 'close': the process has ended and its output has been read to the end.
    p.on('close', (code) => (code === 0 ? resolve({ docs, dups }) : reject(new Error(`dedup --redis exited ${code}: ${err.slice(-2000)}`))));
  });
}

const parts = await halves();
const server = await startServer(['--appendonly', 'no', '--hash-max-listpack-value', '512']);
const keys = [`size=${SIZE}`];
try {
  for (const mode of MODES) {
    execFileSync('redis-cli', ['-p', String(server.port), 'flushall']);
    const mem0 = usedMemory(server.port);
    const cpu0 = serverCpu(server.port);
    const t0 = performance.now();
    const runs = await Promise.all(parts.map((h) => dedupProcess(h, server.url, mode === 'sketch')));
    const s = (performance.now() - t0) / 1000;
    const docs = runs.reduce((a, r) => a + r.docs, 0);
    const dups = runs.reduce((a, r) => a + r.dups, 0);
    const cpu = serverCpu(server.port) - cpu0;
    const mb = (usedMemory(server.port) - mem0) / 1e6;
    console.log(`dedup --redis${mode === 'sketch' ? ' --sketch' : ''}, 2 processes, ${docs} documents: ${s.toFixed(1)} s, ` +
      `${Math.round(docs / s)} documents/s, ${dups} duplicates, server CPU ${cpu.toFixed(0)} s (${((cpu * 1000) / docs).toFixed(3)} ms a document), server memory ${mb.toFixed(0)} MB`);
    const p = mode === 'sketch' ? 'redis_sketch' : 'redis';
    keys.push(`${p}_docs_s=${Math.round(docs / s)}`, `${p}_s=${s.toFixed(1)}`, `${p}_server_ms_doc=${((cpu * 1000) / docs).toFixed(3)}`, `${p}_duplicates=${dups}`, `${p}_server_mb=${mb.toFixed(0)}`);
  }
} finally {
  await server.stop();
}
console.log(`RESULT ${keys.join(' ')}`);
