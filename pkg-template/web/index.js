// Browser and bundler entry: the --target web build, initialised once with top-level
// await, so `import { SimHasher } from 'simhash-wasm'` is ready to use as in Node; with
// the same argument checks as the Node entry (args.js, made from args.cjs by the build).
import init, * as wasm from './simhash_wasm.js';
import { SimHashError } from './errors.js';
import { guard } from './args.js';

await init({ module_or_path: new URL('./simhash_wasm_bg.wasm', import.meta.url) });
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
