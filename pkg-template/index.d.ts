// Type declarations of simhash-wasm in Node (hand-written): the API every entry shares
// (web/index.d.ts, where each item is documented), plus what only Node has: the atomic
// snapshot files and RedisContentSeen.
import type { SimHashIndex, ContentSeen, ContentSeenOptions } from './web/index';
export * from './web/index';

// Node only (not in the browser build): atomic snapshot files. Each writes a temp file in
// the same directory, fsyncs it, renames it over the target and fsyncs the directory. A
// path is a string or a `file:` URL. Bad arguments throw `InvalidOption` before any file is
// touched; the file system's failures throw `FileError` (a failed save leaves the old file).
/** Saves `index.toBytes()` to `path` atomically. */
export function saveIndex(index: SimHashIndex, path: string | URL): void;
/**
 * Loads a file written by saveIndex. The file is read straight into wasm memory (no JS
 * buffer, no copy), and those bytes are freed before the tables are built; damaged or
 * foreign files throw `Corrupt` like `SimHashIndex.fromBytes`.
 */
export function loadIndex(path: string | URL): SimHashIndex;
/** Saves `seen.toBytes()` to `path` atomically. */
export function saveSeen(seen: ContentSeen, path: string | URL): void;
/** Loads a file written by saveSeen; `options` as `ContentSeen.fromBytes` takes them. */
export function loadSeen(path: string | URL, options?: ContentSeenOptions): ContentSeen;
/** Writes bytes to `path` atomically and durably. */
export function writeFileAtomic(path: string | URL, bytes: Uint8Array): void;
export { RedisContentSeen, RedisContentSeenOptions, RedisCheck, ResolvedRedisContentSeenOptions } from './redis';
