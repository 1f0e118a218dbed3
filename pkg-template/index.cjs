'use strict';
// Node entry (CommonJS): the --target nodejs build, which loads its .wasm synchronously,
// plus the SimHashError class (registered with the wasm so it throws instances of it), the
// argument checks (args.cjs), the worker pool (pool.cjs) and the Node-only file helpers
// (saveIndex/loadIndex, saveSeen/loadSeen). errors.cjs, args.cjs and pool.cjs are generated
// by the build from the ES modules in web/ (scripts/esm-to-cjs.mjs), the one source.
const wasm = require('./node/simhash_wasm.js');
const { SimHashError } = require('./errors.cjs');
const { guard, check, trapped } = require('./args.cjs');
const { makePool, nodeWorkerHandle } = require('./pool.cjs');
const os = require('node:os');
const path = require('node:path');
const { Worker } = require('node:worker_threads');
const files = require('./files.cjs');

wasm.__setErrorClass(SimHashError);

const api = {};
for (const [name, value] of Object.entries(wasm)) {
  if (!name.startsWith('__') && name !== 'initSync' && name !== 'default') api[name] = value;
}
guard(api, SimHashError, wasm);
Object.assign(api, { SimHashError }, files.bind(api, wasm));
// SimHashPool (pool.cjs): fingerprints on every core, with worker_threads.
api.SimHashPool = makePool({
  spawn: () => nodeWorkerHandle(new Worker(path.join(__dirname, 'pool-worker.cjs'))),
  defaultSize: () => (os.availableParallelism ? os.availableParallelism() : os.cpus().length),
  api, hooks: wasm, SimHashError, check, trapped,
});
// RedisContentSeen (redis.cjs): the shared ContentSeen on Redis.
Object.assign(api, require('./redis.cjs').install(wasm));
module.exports = api;
