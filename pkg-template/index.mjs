// Node entry (ES modules): the same instance as index.cjs, with named exports, so ESM and
// CommonJS callers share classes (instanceof works across them) and wasm memory.
import { createRequire } from 'node:module';

const wasm = createRequire(import.meta.url)('./index.cjs');

export const {
  SimHasher,
  SimHashIndex,
  ContentSeen,
  CompactSet,
  SimHashError,
  SimHashPool,
  htmlToText,
  huffmanTable,
  dedup,
  PassageChecker,
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
  saveIndex,
  loadIndex,
  saveSeen,
  loadSeen,
  writeFileAtomic,
  RedisContentSeen,
} = wasm;
export default wasm;
