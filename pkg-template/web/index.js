// Browser and bundler entry: the --target web build, initialised once with top-level
// await, so `import { SimHasher } from 'simhash-wasm'` is ready to use as in Node; with
// the same argument checks as the Node entry (args.js, of which the Node entry's args.cjs
// is generated), and the worker pool (SimHashPool).
import init, * as wasm from './simhash_wasm.js';
import { SimHashError } from './errors.js';
import { guard, check, trapped } from './args.js';
import { makePool } from './pool.js';

const wasmUrl = new URL('./simhash_wasm_bg.wasm', import.meta.url);
try {
  await init({ module_or_path: wasmUrl });
} catch (e) {
  // A file: URL is Node (or a test runner in it) importing the browser build.
  const advice = wasmUrl.protocol === 'file:'
    ? "; this is the browser build: in Node, import 'simhash-wasm', which has everything"
    : '; check that the server sends it (as application/wasm) and that the page may fetch it';
  throw new SimHashError(`cannot load the wasm from ${wasmUrl.href}: ${e && e.message}${advice}`, 'FileError');
}
wasm.__setErrorClass(SimHashError);

const api = guard({ ...wasm }, SimHashError);

export const {
  SimHasher,
  SimHashIndex,
  ContentSeen,
  CompactSet,
  htmlToText,
  fromFeatures,
  simhashBits,
  hamming,
  similarity,
  toHex,
  fromHex,
  hashVersion,
  estimateJaccard,
  sketchInfo,
  IdfTable,
  defaults,
  huffmanTable,
  dedup,
  PassageChecker,
} = api;
export { SimHashError };

// SimHashPool (pool.js): fingerprints on every core, with module Web
// Workers that load this same build (pool-worker.js).
export const SimHashPool = makePool({
  spawn() {
    const w = new Worker(new URL('./pool-worker.js', import.meta.url), { type: 'module' });
    return {
      post: (msg, transfer) => w.postMessage(msg, transfer),
      listen(onMessage, onFail) {
        w.addEventListener('message', (e) => onMessage(e.data));
        w.addEventListener('error', (e) => { e.preventDefault(); onFail(new Error(e.message || 'the worker script failed to load')); });
        w.addEventListener('messageerror', () => onFail(new Error('a message could not be read')));
      },
      terminate: async () => w.terminate(),
      ref() {},
      unref() {},
    };
  },
  defaultSize: () => globalThis.navigator?.hardwareConcurrency || 4,
  api, hooks: wasm, SimHashError, check, trapped,
});
