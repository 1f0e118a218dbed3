'use strict';
// Node-only file helpers: snapshots written so that a crash (kill -9, power loss) at any
// moment leaves either the old complete file or the new complete file at `path`, never a
// half-written one. The steps: write a temp file in the same directory (rename is only
// atomic within one file system), fsync it, rename it over the target, fsync the directory
// (so the rename itself is durable). A crash before the rename leaves a stray
// `.NAME.*.tmp` file next to the target; it is never read, and can be deleted.
const fs = require('node:fs');
const path = require('node:path');

/** Writes `bytes` to `file` atomically and durably (see above). */
function writeFileAtomic(file, bytes) {
  const target = path.resolve(String(file));
  const dir = path.dirname(target);
  const tmp = path.join(dir, `.${path.basename(target)}.${process.pid}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`);
  const fd = fs.openSync(tmp, 'wx', 0o644);
  try {
    let off = 0;
    while (off < bytes.length) off += fs.writeSync(fd, bytes, off, bytes.length - off);
    fs.fsyncSync(fd);
  } catch (e) {
    fs.closeSync(fd);
    try { fs.unlinkSync(tmp); } catch { /* already gone */ }
    throw e;
  }
  fs.closeSync(fd);
  try {
    fs.renameSync(tmp, target);
  } catch (e) {
    try { fs.unlinkSync(tmp); } catch { /* already gone */ }
    throw e;
  }
  let dfd;
  try {
    dfd = fs.openSync(dir, 'r');
    fs.fsyncSync(dfd);
  } catch (e) {
    // Directories cannot be opened or fsynced on some platforms (Windows): the rename
    // is still atomic there, only its durability is up to the OS.
    if (!['EISDIR', 'EPERM', 'EINVAL', 'EBADF', 'EACCES'].includes(e.code)) throw e;
  } finally {
    if (dfd !== undefined) fs.closeSync(dfd);
  }
}

/**
 * Reads `file` straight into wasm memory and loads it as an index: Node has no mmap, but
 * fs.readSync into a view of the module's memory skips the JS buffer and the copy into
 * wasm that `fromBytes(readFileSync(file))` makes, and the wasm frees the bytes once
 * decoded, before it builds the tables (which then reuse that memory). `hooks` is the raw
 * wasm-bindgen module (its `__SnapshotBuffer`, `__memory`, `SimHashIndex.__fromBuffer`).
 */
function readIndexIntoWasm(hooks, file) {
  const fd = fs.openSync(file, 'r');
  let buffer;
  try {
    const size = fs.fstatSync(fd).size;
    buffer = new hooks.__SnapshotBuffer(size);
    // The view is made after the allocation (growing the memory detaches older views).
    const view = new Uint8Array(hooks.__memory().buffer, buffer.ptr(), size);
    let off = 0;
    while (off < size) {
      const got = fs.readSync(fd, view, off, size - off, off);
      if (got === 0) break; // the file shrank while read: the decoder reports the truncation
      off += got;
    }
  } catch (e) {
    if (buffer) buffer.free();
    throw e;
  } finally {
    fs.closeSync(fd);
  }
  return hooks.SimHashIndex.__fromBuffer(buffer); // consumes the buffer, even on error
}

function bind(api, hooks) {
  return {
    writeFileAtomic,
    /** Saves `index.toBytes()` to `file` atomically. */
    saveIndex(index, file) {
      writeFileAtomic(file, index.toBytes());
    },
    /** Loads a snapshot written by saveIndex (or index.toBytes()). */
    loadIndex(file) {
      if (hooks && hooks.__SnapshotBuffer) return readIndexIntoWasm(hooks, file);
      return api.SimHashIndex.fromBytes(fs.readFileSync(file));
    },
    /** Saves `seen.toBytes()` to `file` atomically. */
    saveSeen(seen, file) {
      writeFileAtomic(file, seen.toBytes());
    },
    /** Loads a ContentSeen snapshot; with `options`, other settings throw SchemeMismatch. */
    loadSeen(file, options) {
      return api.ContentSeen.fromBytes(fs.readFileSync(file), options);
    },
  };
}

module.exports = { writeFileAtomic, readIndexIntoWasm, bind };
