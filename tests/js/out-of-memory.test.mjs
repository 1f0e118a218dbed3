// A call that stops the wasm (a WebAssembly trap: it ran out of its 4 GiB, or a bug
// panicked) throws a SimHashError that says which (OutOfMemory, Internal), not a bare
// `RuntimeError: unreachable`; a SimHashPool replaces the worker it happened in and goes on.
// Real wasm instances, filled to their limit (tests/js/fixtures/full-wasm.cjs), each in a
// worker thread of its own, since a stopped instance is spent.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const PKG = fileURLToPath(new URL('../../pkg/', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/full-wasm.cjs', import.meta.url));
const api = require(join(PKG, 'index.cjs'));
const { makePool, nodeWorkerHandle } = require(join(PKG, 'pool.cjs'));
const { check, trapped } = require(join(PKG, 'args.cjs'));

/** Runs `body` (a function's source, called with the package, its wasm module and `fill`) in a worker thread; resolves to what it returns. */
function inWorker(body) {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const api = require(workerData.pkg + 'index.cjs');
    const wasm = require(workerData.pkg + 'node/simhash_wasm.js');
    const { trapped } = require(workerData.pkg + 'args.cjs');
    const { fill } = require(workerData.fixture);
    const describe = (e) => ({ name: e.name, code: e.code, message: e.message, cause: e.cause && e.cause.constructor.name });
    Promise.resolve((${body})(api, wasm, fill, trapped, describe)).then((r) => parentPort.postMessage(r));`;
  return new Promise((resolve, reject) => {
    const w = new Worker(code, { eval: true, workerData: { pkg: PKG, fixture: FIXTURE } });
    w.once('message', (r) => { resolve(r); w.terminate(); });
    w.once('error', reject);
  });
}

test('a call the wasm has no memory left for throws OutOfMemory, and says what to do', async () => {
  const r = await inWorker(`(api, wasm, fill, trapped, describe) => {
    const big = 'word '.repeat(2 ** 21);   // 10 MiB
    const h = new api.SimHasher();
    const before = h.fingerprint(big).toString();
    const held = fill(wasm);
    const errors = [];
    for (const call of [() => h.fingerprint(big), () => api.htmlToText('<p>' + big + '</p>'), () => h.fingerprintBatch([big])]) {
      try { call(); errors.push(null); } catch (e) { errors.push(describe(e)); }
    }
    return { before, held, errors };
  }`);
  assert.match(r.before, /^\d+$/, 'the call works while there is memory');
  assert.ok(r.held > 4 * 2 ** 30 - 2 ** 20, `filled to ${r.held} bytes`);
  for (const e of r.errors) {
    assert.ok(e, 'the call failed');
    assert.equal(e.name, 'SimHashError');
    assert.equal(e.code, 'OutOfMemory');
    assert.equal(e.cause, 'RuntimeError');
    assert.match(e.message, /^out of memory: .*holds 4\.00 GiB.*at most 4\).*dedup --redis.*spent/);
  }
});

test('a panic of the wasm (a bug) is an Internal error with the panic message', async () => {
  const r = await inWorker(`(api, wasm, fill, trapped, describe) => {
    try { wasm.__reserve(2 ** 31 + 8); return null; }  // more than a wasm32 Vec can hold: Rust's "capacity overflow"
    catch (e) { return { raw: e.constructor.name, error: describe(trapped(e, api.SimHashError, wasm)) }; }
  }`);
  assert.equal(r.raw, 'RuntimeError');
  assert.equal(r.error.name, 'SimHashError');
  assert.equal(r.error.code, 'Internal');
  assert.match(r.error.message, /^the wasm stopped on a bug of simhash-wasm \(.*capacity overflow.*\); please report it/);
});

test('without a panic message (the browser build keeps none), the memory held decides', () => {
  // The browser build's own wasm cannot be filled here (it has no `__reserve`, and real
  // allocations of 4 GiB would be 4 GiB of memory): what `trapped` reads of that build is
  // given as the build has it (`__memory`, and no `__panicMessage`), at sizes on the rule's
  // two sides.
  const trap = new WebAssembly.RuntimeError('unreachable');
  const build = (bytes) => ({ __memory: () => ({ buffer: { byteLength: bytes } }) });
  const full = trapped(trap, api.SimHashError, build(2 ** 31 + 2 ** 20));
  assert.equal(full.code, 'OutOfMemory');
  assert.match(full.message, /holds 2\.00 GiB/);
  const bug = trapped(trap, api.SimHashError, build(2 ** 31 - 2 ** 20));
  assert.equal(bug.code, 'Internal');
  assert.match(bug.message, /simhash-wasm\/full/);
  assert.equal(bug.cause, trap);
});

test('any other error passes through unchanged', () => {
  const e = new TypeError('x');
  assert.equal(trapped(e, api.SimHashError, require(join(PKG, 'node', 'simhash_wasm.js'))), e);
});

test('a pool worker that runs out of memory is replaced, and the pool goes on', async () => {
  let spawned = 0;
  const SimHashPool = makePool({
    spawn: () => nodeWorkerHandle(new Worker(FIXTURE, { workerData: { pool: true, pkg: PKG, fill: spawned++ === 0 } })),
    defaultSize: () => 1,
    api, hooks: require(join(PKG, 'node', 'simhash_wasm.js')), SimHashError: api.SimHashError, check, trapped,
  });
  const pool = await SimHashPool.create({ size: 1 });
  try {
    const big = 'word '.repeat(2 ** 21);
    await assert.rejects(pool.fingerprintBatch([big]), (e) => {
      assert.ok(e instanceof api.SimHashError);
      assert.equal(e.code, 'OutOfMemory');
      assert.match(e.message, /out of memory/);
      return true;
    });
    // The same text again: only a fresh worker has the memory for it.
    const [fp] = await pool.fingerprintBatch([big]);
    assert.equal(fp, new api.SimHasher().fingerprint(big));
    assert.equal(spawned, 2, 'one worker replaced');
    assert.equal(pool.size, 1);
  } finally {
    await pool.close();
  }
});
