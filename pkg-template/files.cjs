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

function bind(api) {
  return {
    writeFileAtomic,
    /** Saves `index.toBytes()` to `file` atomically. */
    saveIndex(index, file) {
      writeFileAtomic(file, index.toBytes());
    },
    /** Loads a snapshot written by saveIndex (or index.toBytes()). */
    loadIndex(file) {
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

module.exports = { writeFileAtomic, bind };
