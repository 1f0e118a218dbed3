// Node entry (ES modules): the same instance as index.cjs, with named exports.
import { createRequire } from 'node:module';

const wasm = createRequire(import.meta.url)('./index.cjs');

export const {
  SimHasher,
  SimHashIndex,
  CompactSet,
  huffmanTable,
  dedup,
  fromFeatures,
  simhashBits,
  hamming,
  similarity,
  toHex,
  fromHex,
  hashVersion,
} = wasm;
export default wasm;
