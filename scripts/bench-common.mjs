// Shared by the wasm halves of the benchmarks (scripts/bench-*.mjs).
import { readFileSync } from 'node:fs';

/**
 * A file of little-endian u64s (the dev corpus's `fp/*.u64`) as a BigUint64Array over its
 * bytes. Copies only when Node hands back a buffer not aligned to 8 bytes (pooled).
 */
export function u64s(path) {
  const b = readFileSync(path);
  if (b.byteLength % 8 !== 0) throw new Error(`${path}: ${b.byteLength} bytes is not a whole number of u64s`);
  const bytes = b.byteOffset % 8 === 0 ? b : new Uint8Array(b);
  return new BigUint64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
}
