// RedisContentSeen over a wasm instance that runs out of memory: `check` throws, and
// `checkBatch` lists, a SimHashError `OutOfMemory`, as the in-memory classes do (tests/js/out-of-memory.test.mjs), never a bare `RuntimeError`. A
// real server; the instance, filled to its 4 GiB with the test hook `__reserve`, in a
// worker thread of its own (tests/js/fixtures/full-wasm.cjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { haveRedis, startServer } from './redis-server.mjs';

const skip = haveRedis() ? false : 'redis-server is not installed (scripts/setup.sh installs it)';
const PKG = fileURLToPath(new URL('../../pkg/', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/full-wasm.cjs', import.meta.url));

const BODY = `
  const { parentPort, workerData } = require('node:worker_threads');
  const { RedisContentSeen } = require(workerData.pkg + 'index.cjs');
  const wasm = require(workerData.pkg + 'node/simhash_wasm.js');
  const { fill } = require(workerData.fixture);
  const { createClient } = require(require.resolve('redis', { paths: [workerData.pkg, process.cwd()] }));
  const describe = (e) => e && { name: e.name, code: e.code, message: e.message };
  (async () => {
    const client = createClient({ url: workerData.url });
    await client.connect();
    const out = {};
    for (const sketch of [false, true]) {
      const seen = await RedisContentSeen.open(client, { namespace: 'oom' + sketch, sketch });
      const big = 'word '.repeat(2 ** 21);
      if (!sketch) out.before = (await seen.check('https://oom.test/first', 'a page of a few words, checked before the memory is gone')).duplicate;
      if (!sketch) fill(wasm);
      const errors = [];
      try { await seen.check('https://oom.test/big', big); errors.push(null); } catch (e) { errors.push(describe(e)); }
      const [r] = await seen.checkBatch([{ url: 'https://oom.test/big2', text: big }]);
      errors.push(describe(r.error));
      out[sketch ? 'sketch' : 'fingerprint'] = errors;
      seen.close();
    }
    await client.quit();
    parentPort.postMessage(out);
  })().catch((e) => parentPort.postMessage({ failed: String(e && e.stack) }));`;

test('RedisContentSeen on a wasm out of memory throws OutOfMemory, in both modes', { skip }, async () => {
  const server = await startServer();
  try {
    const out = await new Promise((resolve, reject) => {
      const w = new Worker(BODY, { eval: true, workerData: { pkg: PKG, fixture: FIXTURE, url: server.url } });
      w.once('message', (m) => { resolve(m); w.terminate(); });
      w.once('error', reject);
    });
    assert.equal(out.failed, undefined, out.failed);
    assert.equal(out.before, false);
    for (const mode of ['fingerprint', 'sketch']) {
      assert.equal(out[mode].length, 2);
      for (const e of out[mode]) {
        assert.ok(e, `${mode}: the call failed`);
        assert.equal(e.name, 'SimHashError', `${mode}: ${e.message}`);
        assert.equal(e.code, 'OutOfMemory', `${mode}: ${e.message}`);
        assert.match(e.message, /^out of memory: /);
      }
    }
  } finally {
    await server.stop();
  }
});
