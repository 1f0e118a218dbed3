'use strict';
// Node-only file helpers: snapshots written so that a crash (kill -9, power loss) at any
// moment leaves either the old complete file or the new complete file at `path`, never a
// half-written one. The steps: write a temp file in the same directory (rename is only
// atomic within one file system), fsync it, rename it over the target, fsync the directory
// (so the rename itself is durable). A crash before the rename leaves a stray
// `.NAME.*.tmp` file next to the target; it is never read, and can be deleted.
//
// Every failure is a SimHashError: a bad argument is `InvalidOption` (checked before any
// file is touched, so a wrong call never replaces a good file), and a failure of the file
// system is `FileError`, naming the file the caller gave and the system's reason, with the
// system's error as `cause`.
const fs = require('node:fs');
const path = require('node:path');
const { fileURLToPath } = require('node:url');
const { SimHashError } = require('./errors.cjs');
const { describe } = require('./args.cjs');

const invalid = (name, value, expected) =>
  new SimHashError(`invalid option \`${name}\` = ${describe(value)}: expected ${expected}`, 'InvalidOption');

/**
 * The path of `file`: a non-empty string, or a `file:` URL (a URL object, or a string that
 * starts with `file://`; `file:name` is a file's name, not a URL).
 */
function filePath(file) {
  if (file instanceof URL || (typeof file === 'string' && file.startsWith('file://'))) {
    try {
      return fileURLToPath(file);
    } catch (e) {
      throw invalid('path', String(file), `a file path or a file: URL (${e.message})`);
    }
  }
  if (typeof file !== 'string' || file === '' || file.includes('\0')) {
    throw invalid('path', file, 'a file path (a non-empty string) or a file: URL');
  }
  return file;
}

const REASONS = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  ENOSPC: 'no space left on the device',
  EROFS: 'read-only file system',
  EEXIST: 'a file is in the way',
  EMFILE: 'too many open files',
  EDQUOT: 'disk quota exceeded',
};

/** The file system's error `e` while doing `what` to `file`, as a SimHashError. */
function fileError(e, what, file) {
  if (e instanceof SimHashError) return e;
  const reason = REASONS[e.code] || e.message;
  const err = new SimHashError(`cannot ${what} ${file}: ${reason}${e.code ? ` (${e.code})` : ''}`, 'FileError');
  err.cause = e;
  return err;
}

/** Writes `bytes` to `file` atomically and durably (see above). */
function writeFileAtomic(file, bytes) {
  const shown = filePath(file);
  if (!(bytes instanceof Uint8Array)) throw invalid('bytes', bytes, 'a Uint8Array (or Buffer) to write');
  try {
    writeAtomic(path.resolve(shown), bytes);
  } catch (e) {
    throw fileError(e, 'write', shown);
  }
}

function writeAtomic(target, bytes) {
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

/** `file`'s bytes, or a FileError. */
function readFile(file) {
  try {
    return fs.readFileSync(file);
  } catch (e) {
    throw fileError(e, 'read', file);
  }
}

function bind(api, hooks) {
  /** `value` when it is a live instance of `api[name]`; an InvalidOption naming `arg` otherwise. */
  const instance = (arg, value, name) => {
    if (!(value instanceof api[name])) throw invalid(arg, value, `a ${name}`);
    return value;
  };
  return {
    writeFileAtomic,
    /** Saves `index.toBytes()` to `file` atomically. */
    saveIndex(index, file) {
      instance('index', index, 'SimHashIndex');
      filePath(file);
      writeFileAtomic(file, index.toBytes());
    },
    /** Loads a snapshot written by saveIndex (or index.toBytes()). */
    loadIndex(file) {
      const p = filePath(file);
      if (!(hooks && hooks.__SnapshotBuffer)) return api.SimHashIndex.fromBytes(readFile(p));
      try {
        return readIndexIntoWasm(hooks, p);
      } catch (e) {
        throw fileError(e, 'read', p);
      }
    },
    /** Saves `seen.toBytes()` to `file` atomically. */
    saveSeen(seen, file) {
      instance('seen', seen, 'ContentSeen');
      filePath(file);
      writeFileAtomic(file, seen.toBytes());
    },
    /** Loads a ContentSeen snapshot; with `options`, other settings throw SchemeMismatch. */
    loadSeen(file, options) {
      return api.ContentSeen.fromBytes(readFile(filePath(file)), options);
    },
  };
}

module.exports = { writeFileAtomic, readIndexIntoWasm, bind };
