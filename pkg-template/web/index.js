// Browser and bundler entry: the --target web build, initialised once with top-level
// await, so `import { SimHasher } from 'simhash-wasm'` is ready to use as in Node.
import init, { __setErrorClass } from './simhash_wasm.js';
import { SimHashError } from './errors.js';

await init({ module_or_path: new URL('./simhash_wasm_bg.wasm', import.meta.url) });
__setErrorClass(SimHashError);

export {
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
  defaults,
  huffmanTable,
  dedup,
  PassageChecker,
} from './simhash_wasm.js';
export { SimHashError };
