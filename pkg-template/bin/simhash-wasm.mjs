#!/usr/bin/env node
// simhash-wasm command line: near-duplicate clusters, fingerprints and explanations.
// Run `simhash-wasm --help` for usage. Every piece of logic is the wasm core's; this file
// reads inputs, parses flags and prints.
import { readFileSync, readdirSync, statSync, realpathSync, existsSync, openSync, readSync, closeSync, accessSync, constants } from 'node:fs';
import { join, relative, extname, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import os from 'node:os';

const require = createRequire(import.meta.url);
const wasm = require('../index.cjs');
const { SimHasher, SimHashIndex, SimHashPool, toHex, saveIndex, loadIndex } = wasm;

// Every default shown here is the wasm core's (defaults()), so the help cannot drift.
const D = wasm.defaults();
// os.availableParallelism is Node 18.14 and later; the package supports Node 18.
const CORES = os.availableParallelism ? os.availableParallelism() : os.cpus().length;
/** The files a folder's documents are read from (a .html or .htm file as HTML). */
const TEXT_FILES = ['.txt', '.text', '.md', '.markdown', '.html', '.htm'];
/** With no --threads, inputs smaller than this skip the pool: starting workers costs more. */
const POOL_MIN_CHARS = 256 * 1024;

const HELP = `simhash-wasm: near-duplicate detection with SimHash

usage:
  simhash-wasm dedup [PATH|-] [options]     near-duplicate clusters (a table on a terminal,
                                            JSON lines when piped)
  simhash-wasm fingerprint [PATH|-] [opts]  one line per document: id<TAB>16 hex digits
                                            (--sketch: <TAB>the sketch's bytes in hex)
  simhash-wasm explain TEXT|FILE [opts]     every step of one fingerprint, as a table

PATH is a folder of .txt/.md/.html files (searched recursively, but not its hidden and
node_modules folders; a .html file is read as HTML, its main content), a JSONL file of
{"id": ..., "text": ...} lines (ids must differ), a single text file, or - for JSONL on
stdin. Files are UTF-8 (or UTF-16 with a byte-order mark); binary files and files that
are not UTF-8 are skipped with a warning.
dedup with no PATH runs on the sample corpus shipped with the package (SPDX licence texts).

options:
  --k N|auto         candidates differ in at most N bits (default, auto: by the collection's
                     size, ${D.dedup.kBySize.map((r) => `${r.k} up to ${r.upTo} documents`).join(', ')},
                     then ${D.dedup.kBeyond}; ${D.dedupFingerprintsOnly.k} with --load/--save); when
                     verifying, documents whose sketches share a MinHash band are
                     candidates too
  --verify J|sketch[:J]|off
                     keep a candidate pair when the ${D.dedup.shingle}-gram Jaccard of the texts is at
                     least J (default ${D.dedup.verify}); sketch: when the estimate from the texts'
                     sketches is at least J (default ${D.dedup.sketchVerify}), keeping no texts;
                     off: fingerprints alone decide. With --load/--save the default is off:
                     a saved index keeps no texts, so J needs the texts of every document in
                     it (give them all as PATH)
  --sketch           fingerprint: also print each document's similarity sketch (hex);
                     dedup --redis: the store's sketch mode (candidates confirmed by sketches)
  --sketch-size N    bytes per sketch, a multiple of 8 from 32 to 256 (default 128)
  --ngram N          characters per n-gram (default ${D.hasher.ngram})
  --mode chars|words n-grams of characters (default) or of words
  --weighting W      binary | tf | sublinear (default ${D.hasher.weighting})
  --punctuation P    keep | drop | collapse (default ${D.hasher.punctuation})
  --layout L         index layout: auto (default), default, probe, or widths like 16,16,16,16
  --format F         table or jsonl (default: table when stdout is a terminal, else jsonl)
  --html             read every document as HTML (JSONL texts too): fingerprint the
                     visible text only
  --content C        which text of a page read as HTML (with --html, or a folder's .html
                     files): main (default: its main content, without the template
                     around it) or all (all its visible text)
  --load FILE        dedup: start from an index saved by --save (documents already in it
                     are not added again), so runs can be incremental
  --save FILE        dedup: save the index (all documents) to FILE atomically
  --redis URL        dedup: check every document against a RedisContentSeen shared by
                     all processes and hosts (needs --namespace; prints JSON lines
                     { id, duplicate, cluster, count }); split a big job by running the
                     CLI on each share of the files
  --namespace NS     the RedisContentSeen namespace (with --redis)
  --threads N        dedup, fingerprint: fingerprint on N worker threads (default: the
                     cores available, ${CORES} here; inputs under ${POOL_MIN_CHARS / 1024} kB use one);
                     --threads 1 uses none. The results are the same for every N
  --version          the package's version
  -h, --help         this text

exit status: 0 when done (a file or document dedup skips is named in a warning); 1 when
fingerprint skipped a file or could not fingerprint a document (each is named, and has no
line), or dedup --redis could not check a document (its line holds the error); 2 for a bad
option or an input that can't be read.
`;

/** Files skipped unread (binary, not UTF-8, a link to nothing): `fingerprint` exits 1 then. */
let unreadFiles = 0;

function warn(msg) {
  // The core's advice names API options; here they are flags.
  const said = String(msg).replace(/`punctuation: "keep"`/g, '--punctuation keep');
  process.stderr.write(`simhash-wasm: ${said}\n`);
}

function fail(msg) {
  warn(msg);
  process.exit(2);
}

// The options --help lists: those that take a value, and the flags that take none.
const VALUED = new Set(['k', 'verify', 'sketch-size', 'ngram', 'mode', 'weighting', 'punctuation', 'layout', 'format',
  'content', 'load', 'save', 'redis', 'namespace', 'threads']);
const FLAGS = new Set(['html', 'sketch', 'help', 'version']);

/**
 * Where each option applies: `dedup`, `redis` (dedup --redis), `fingerprint`, `explain`.
 * An option given where it does nothing is refused rather than ignored.
 */
const APPLIES = {
  k: ['dedup', 'redis'],
  verify: ['dedup'],
  sketch: ['fingerprint', 'redis'],
  'sketch-size': ['fingerprint', 'redis', 'explain'],
  layout: ['dedup', 'redis'],
  format: ['dedup'],
  load: ['dedup'],
  save: ['dedup'],
  redis: ['dedup', 'redis'],
  namespace: ['redis'],
  threads: ['dedup', 'fingerprint'],
};
const SHOWN = { dedup: 'dedup', redis: 'dedup --redis', fingerprint: 'fingerprint', explain: 'explain' };

/** Refuses the options of `o` that do nothing in `cmd` (dedup with --redis is `redis`). */
function checkApplies(cmd, o) {
  const mode = cmd === 'dedup' && o.redis !== undefined ? 'redis' : cmd;
  for (const [key, modes] of Object.entries(APPLIES)) {
    if (o[key] === undefined || modes.includes(mode)) continue;
    const where = modes.map((m) => SHOWN[m]).join(', ');
    fail(`--${key} does nothing in ${SHOWN[mode]}; it applies to ${where}`);
  }
  // Checked before any file is read: the core's own check of the name.
  if (o.content !== undefined) {
    try { wasm.htmlToText('', { content: o.content }); } catch (e) { fail(e.message); }
  }
  if (o['sketch-size'] !== undefined && !o.sketch && mode !== 'explain') {
    fail(`--sketch-size needs --sketch (${SHOWN[mode]} makes no sketch without it)`);
  }
}

function parseArgs(argv) {
  const opts = { positional: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h') opts.help = true;
    else if (a === '-' || !a.startsWith('-')) opts.positional.push(a);
    else if (a.startsWith('--')) {
      const [key, inline] = a.slice(2).split(/=(.*)/s, 2);
      if (FLAGS.has(key)) {
        if (inline !== undefined) fail(`--${key} takes no value (got --${key}=${inline}); leave it out to turn it off`);
        opts[key] = true;
        continue;
      }
      if (!VALUED.has(key)) fail(`unknown option --${key}; see --help`);
      const value = inline ?? argv[++i];
      if (value === undefined) fail(`--${key} needs a value`);
      opts[key] = value;
    } else fail(`unknown option ${a}; see --help`);
  }
  return opts;
}

/** A flag's value as a number; its range is the wasm core's to check. */
function num(name, v) {
  const n = Number(v);
  if (String(v).trim() === '' || Number.isNaN(n)) fail(`--${name} needs a number, not ${JSON.stringify(v)}`);
  return n;
}

/** --k: a number, or auto (the default: by the collection's size). */
function kOption(v) {
  return v === undefined || v === 'auto' ? undefined : num('k', v);
}

/** The one PATH of a command (none: `fallback`); a shell glob gives many, which are refused. */
function onePath(o, fallback) {
  if (o.positional.length > 1) {
    fail(`one PATH only, got ${o.positional.length} (${o.positional.slice(0, 3).map((p) => JSON.stringify(p)).join(', ')}${o.positional.length > 3 ? ', …' : ''}): give their folder, or a JSONL file`);
  }
  return o.positional[0] ?? fallback;
}

/** An id as a line of table or id<TAB>hex output: as it is, or JSON-quoted when it holds a tab, a line break or a quote at its start. */
const shownId = (id) => (/[\t\n\r]|^"/.test(id) ? JSON.stringify(id) : id);

function hasherOptions(o) {
  const h = {};
  if (o.ngram !== undefined) h.ngram = num('ngram', o.ngram);
  if (o.mode !== undefined) h.mode = o.mode;
  if (o.weighting !== undefined) h.weighting = o.weighting;
  if (o.punctuation !== undefined) h.punctuation = o.punctuation;
  if (o.html) {
    h.html = true;
    h.content = o.content ?? 'main';
  }
  // Without --html, --content is how a folder's .html files are read (fileText).
  return h;
}

/**
 * Documents as [{ id, text }], from a folder, a JSONL file, a text file, or stdin; a JSONL
 * file's reading is told to `bar` (bytes read of its size). Without --html, a .html file is
 * read as HTML all the same (its main content, as --html reads every document); other
 * files, and JSONL texts, as text.
 */
function readDocs(path, o, bar) {
  if (path === '-') return parseJsonl(0, 'stdin');
  let st;
  try { st = statSync(path); } catch (e) { fail(`cannot read ${path}: ${e.code ?? e.message}`); }
  if (st.isDirectory()) {
    const docs = [];
    const skipped = [];
    const seenDirs = new Set();
    const walk = (dir) => {
      // A folder reached again through a link (a loop, or two links to one folder) is read once.
      const real = realpathSync(dir);
      if (seenDirs.has(real)) return;
      seenDirs.add(real);
      for (const name of readdirSync(dir).sort()) {
        const p = join(dir, name);
        let s;
        try { s = statSync(p); } catch (e) {
          unreadFiles++;
          warn(`skipping ${relative(path, p)}: ${e.code === 'ENOENT' ? 'a link to nothing' : e.code ?? e.message}`);
          continue;
        }
        if (s.isDirectory()) {
          // A project's hidden folders (.git) and installed packages hold no documents of its own.
          if (name.startsWith('.') || name === 'node_modules') skipped.push(relative(path, p));
          else walk(p);
        } else if (TEXT_FILES.includes(extname(name).toLowerCase())) {
          const id = relative(path, p);
          const text = fileText(p, id, o);
          if (text !== undefined) docs.push({ id, text });
        }
      }
    };
    walk(path);
    if (skipped.length) {
      warn(`not reading ${skipped.length} hidden or node_modules folder${skipped.length > 1 ? 's' : ''} (${skipped.slice(0, 3).join(', ')}${skipped.length > 3 ? ', …' : ''}); give one as PATH to read it`);
    }
    if (docs.length === 0) warn(`${path} holds no readable ${TEXT_FILES.join(', ')} file`);
    return docs;
  }
  if (/\.(jsonl|ndjson)$/i.test(path)) return parseJsonl(path, path, bar, st.size);
  const text = fileText(path, path, o);
  return text === undefined ? [] : [{ id: path, text }];
}

/**
 * A file's text: UTF-8 (its byte-order mark dropped), or UTF-16 with a byte-order mark; a
 * .html file's main content without --html. Undefined, with a warning naming the file, for
 * binary data, bytes that are not UTF-8, or a page that can't be read.
 */
function fileText(p, id, o) {
  const text = decodedFile(p, id);
  if (text === undefined || o.html || !/\.html?$/i.test(p)) return text;
  try {
    return wasm.htmlToText(text, { content: o.content ?? 'main' });
  } catch (e) {
    unreadFiles++;
    warn(`skipping ${id}: ${e.message}`);
    return undefined;
  }
}

/** fileText's decoding. */
function decodedFile(p, id) {
  let b;
  try { b = readFileSync(p); } catch (e) { unreadFiles++; warn(`skipping ${id}: ${e.code ?? e.message}`); return undefined; }
  if (b[0] === 0xff && b[1] === 0xfe) return new TextDecoder('utf-16le').decode(b.subarray(2));
  if (b[0] === 0xfe && b[1] === 0xff) return new TextDecoder('utf-16be').decode(b.subarray(2));
  if (b.subarray(0, 8192).includes(0)) { unreadFiles++; warn(`skipping ${id}: binary data, not text`); return undefined; }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(b);
  } catch {
    unreadFiles++;
    warn(`skipping ${id}: not UTF-8 text (save it as UTF-8)`);
    return undefined;
  }
}

/**
 * The documents of a JSONL file (or of stdin, fd 0), read in chunks of bytes and parsed a
 * line at a time: a collection may be larger than the longest string V8 can hold (512 MB).
 */
function parseJsonl(path, where, bar, size) {
  const docs = [];
  for (const d of jsonlDocs(path, where, (read) => bar?.tell('reading (MB)', Math.round(read / 1e6), Math.round(size / 1e6)))) {
    docs.push({ id: d.id, text: d.text });
  }
  return docs;
}

/**
 * The JSONL file open as `fd` in chunks of whole lines for the pool's workers, each in a
 * buffer of its own (handed over to a worker); the file offset of each chunk's first byte
 * is pushed to `starts` as the chunk is made.
 */
function* jsonlChunks(fd, starts) {
  const CHUNK = 1 << 20;
  for (let at = 0, want = CHUNK; ;) {
    const bytes = new Uint8Array(want);
    const n = readSync(fd, bytes, 0, want, at);
    if (n === 0) return;
    // A chunk ends after its last newline (the file's end closes the last one); a line
    // longer than a chunk is read whole, with room doubled until it fits.
    const end = n < want ? n : bytes.lastIndexOf(10, n - 1) + 1;
    if (end === 0) { want *= 2; continue; }
    // A byte-order mark before the first line (Windows tools write one) is no part of it.
    const bom = at === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    starts.push(at + bom);
    yield bytes.subarray(bom, end);
    at += end; want = CHUNK;
  }
}

/**
 * Follows the line numbers of `path`'s chunks as a worker's replies come, in order: fails at
 * a reply's bad line as jsonlDocs does at the same line.
 */
function lineCounter(path) {
  let line = 1; // the next chunk's first line
  return ({ lines, bad }) => {
    if (bad) fail(`${path}:${line + bad.line}: ${lineError(bad.kind, bad.raw)}`);
    line += lines;
  };
}

/**
 * Why a JSONL line holds no document, by the kind the reader found (the same words whether
 * this thread read it or a pool worker did): `raw` is a bad id's JSON text.
 */
function lineError(kind, raw) {
  if (kind === 'utf8') return 'not UTF-8 text (save the file as UTF-8)';
  if (kind === 'json') return 'not a JSON line';
  if (kind === 'document') return 'expected {"id": ..., "text": "..."}';
  return `"id" must be a string or a number, not ${JSON.stringify(JSON.parse(raw))}`;
}

/**
 * Each document of a JSONL file (or of stdin, fd 0) as `{ id, text, offset, length, line }`
 * (where its line starts in the file, its length in bytes, and its line number), read in chunks of bytes;
 * `onRead(bytes)` is told of the bytes read so far.
 */
function* jsonlDocs(path, where, onRead) {
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let fd = 0;
  if (path !== 0) {
    try { fd = openSync(path, 'r'); } catch (e) { fail(`cannot read ${path}: ${e.code ?? e.message}`); }
  }
  const chunk = Buffer.allocUnsafe(1 << 24);
  let rest = Buffer.alloc(0);
  let lineNo = 0;
  let count = 0;
  let read = 0;
  const take = (bytes, offset) => {
    lineNo++;
    // A byte-order mark before the first line (Windows tools write one) is no part of it.
    const bom = lineNo === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    let line;
    try { line = utf8.decode(bytes.subarray(bom)); } catch { fail(`${where}:${lineNo}: ${lineError('utf8')}`); }
    if (!line.trim()) return null;
    let d;
    try { d = JSON.parse(line); } catch { fail(`${where}:${lineNo}: ${lineError('json')}`); }
    if (d === null || typeof d !== 'object' || Array.isArray(d) || typeof d.text !== 'string') {
      fail(`${where}:${lineNo}: ${lineError('document')}`);
    }
    if (d.id !== undefined && d.id !== null && typeof d.id !== 'string' && typeof d.id !== 'number') {
      fail(`${where}:${lineNo}: ${lineError('id', JSON.stringify(d.id))}`);
    }
    count++;
    return { id: String(d.id ?? count - 1), text: d.text, offset: offset + bom, length: bytes.length - bom, line: lineNo };
  };
  try {
    for (;;) {
      let n;
      try { n = readSync(fd, chunk, 0, chunk.length, null); } catch (e) {
        if (e.code === 'EAGAIN') continue;
        if (e.code === 'EOF') break;
        throw e;
      }
      if (n === 0) break;
      const dataStart = read - rest.length; // the file offset of data[0]
      read += n;
      onRead?.(read);
      const data = rest.length ? Buffer.concat([rest, chunk.subarray(0, n)]) : chunk.subarray(0, n);
      let start = 0;
      for (let nl = data.indexOf(10, start); nl !== -1; nl = data.indexOf(10, start)) {
        const d = take(data.subarray(start, nl), dataStart + start);
        if (d) yield d;
        start = nl + 1;
      }
      rest = Buffer.from(data.subarray(start));
    }
    if (rest.length) {
      const d = take(rest, read - rest.length);
      if (d) yield d;
    }
  } finally {
    if (fd !== 0) closeSync(fd);
  }
}

/**
 * `fingerprint` of a JSONL file on `threads` workers (no more than its lines), which read
 * it a chunk at a time: the output is written as the chunks come back, in order, and the
 * texts are never held. So a bad line stops the run (exit 2) after the lines of every
 * document before it, where the one-thread run, which reads the file first, writes none.
 */
async function fingerprintLines(o, path, threads, sketch) {
  let fd;
  try { fd = openSync(path, 'r'); } catch (e) { fail(`cannot read ${path}: ${e.code ?? e.message}`); }
  try {
    const pool = await SimHashPool.create({ size: Math.max(1, Math.min(threads, countLines(fd, threads))), hasher: hasherOptions(o) });
    const lineOf = lineCounter(path);
    let count = 0;
    try {
      await pool.__hashLines(jsonlChunks(fd, []), hasherOptions(o), sketch, false, (m) => {
        const failed = new Map(Array.from(m.failed, (index, j) => [index, m.reasons[j]]));
        const width = sketch ? m.sketches.length / m.ids.length : 0;
        let out = '';
        for (let j = 0; j < m.ids.length; j++) {
          const id = m.ids[j] ?? String(count + j);
          const reason = failed.get(j);
          if (reason !== undefined) {
            process.stdout.write(out);
            out = '';
            warn(`${id}: ${reason}`);
            process.exitCode = 1;
          } else {
            const hex = sketch ? `\t${Buffer.from(m.sketches.buffer, m.sketches.byteOffset + j * width, width).toString('hex')}` : '';
            out += `${shownId(id)}\t${toHex(m.fingerprints[j])}${hex}\n`;
          }
        }
        count += m.ids.length;
        process.stdout.write(out);
        lineOf(m); // a bad line stops the run after every document before it is written
      });
    } finally {
      await pool.close();
    }
  } finally {
    closeSync(fd);
  }
}

/** --layout: a name, or comma-separated block widths. */
function layoutOption(v) {
  if (v === undefined || /^[a-z]+$/i.test(v)) return v;
  return v.split(',').map((x) => num('layout', x));
}

/**
 * The worker pool for `docs` (null: fingerprint on this thread): --threads N, else one
 * worker per core for inputs of POOL_MIN_CHARS or more.
 */
async function openPool(o, docs, hasher) {
  const threads = Math.min(poolThreads(o, docs.reduce((s, d) => s + d.text.length, 0)), Math.max(docs.length, 1));
  return threads > 1 ? SimHashPool.create({ size: threads, hasher }) : null;
}

/** The workers for an input of `chars` characters (or bytes): --threads N, else as openPool. */
function poolThreads(o, chars) {
  if (o.threads !== undefined) {
    const threads = num('threads', o.threads);
    if (!Number.isInteger(threads) || threads < 1) fail(`--threads needs a whole number from 1, not ${JSON.stringify(o.threads)}`);
    return threads;
  }
  return chars < POOL_MIN_CHARS ? 1 : CORES;
}

/**
 * The lines of the file open as `fd` (a last line without a newline counted); with `most`,
 * reading stops once that many are seen, and the count is then at least `most`.
 */
function countLines(fd, most = Infinity) {
  const buf = Buffer.allocUnsafe(1 << 24);
  let lines = 0; let last = 10;
  for (let at = 0, n; (n = readSync(fd, buf, 0, buf.length, at)) > 0; at += n) {
    for (let i = buf.indexOf(10); i !== -1 && i < n; i = buf.indexOf(10, i + 1)) lines++;
    if (lines >= most) return lines;
    last = buf[n - 1];
  }
  return lines + (last === 10 ? 0 : 1);
}

/**
 * dedup of a JSONL file in two passes, its texts not held: the first reads the file in
 * batches that the workers fingerprint and sketch; the second reads again, by their
 * offsets, only the documents of the candidate pairs, as the workers measure them.
 * Resolves to the report and the number of documents.
 */
async function dedupTwoPass(pool, path, lines, options, bar) {
  const offsets = []; const lengths = [];
  const fd = openSync(path, 'r');
  // The first pass hands the workers the file's bytes, which they read as jsonlDocs does.
  const starts = [];
  const lineOf = lineCounter(path);
  const placed = (m) => {
    const at = starts.shift();
    lineOf(m);
    for (let j = 0; j < m.offsets.length; j++) { offsets.push(at + m.offsets[j]); lengths.push(m.lengths[j]); }
  };
  try {
    let buf = Buffer.allocUnsafe(1 << 16);
    const read = (i) => {
      if (buf.length < lengths[i]) buf = Buffer.allocUnsafe(lengths[i]);
      readSync(fd, buf, 0, lengths[i], offsets[i]);
      return JSON.parse(buf.toString('utf8', 0, lengths[i])).text;
    };
    // The lines of documents `indices`, each ended by a newline, in one buffer for a worker
    // to read: when the indices increase, through blocks of up to 4 MB of the file, each
    // spanning several of them (one read for many documents); else one read each.
    let block = Buffer.allocUnsafe(1 << 22);
    const linesOf = (indices, increasing) => {
      let total = 0;
      for (const i of indices) total += lengths[i] + 1;
      const out = new Uint8Array(total);
      let at = 0; let from = 0; let to = 0;
      for (const i of indices) {
        const start = offsets[i]; const end = start + lengths[i];
        if (!increasing) {
          readSync(fd, out, at, lengths[i], start);
        } else {
          if (start < from || end > to) {
            if (block.length < lengths[i]) block = Buffer.allocUnsafe(lengths[i]);
            from = start;
            to = from + readSync(fd, block, 0, block.length, from);
          }
          out.set(block.subarray(start - from, end - from), at);
        }
        at += lengths[i];
        out[at++] = 10;
      }
      return out;
    };
    // The documents to hash: the file's `lines` (a blank line is none; the count is a guide).
    const onProgress = (phase, done, total) => bar.tell(phase, done, phase === 'hashing' ? Math.max(done, lines) : total);
    const r = await pool.__dedupSource({ chunks: jsonlChunks(fd, starts), placed, lines: linesOf, read, size: (i) => lengths[i] }, options, { onProgress });
    return { r, count: offsets.length };
  } finally {
    closeSync(fd);
  }
}

/**
 * Progress on a terminal (stderr), one line rewritten in place: the phase, its count, and
 * the seconds left in it (by its pace so far). Verification comes in rounds, each with
 * its own count of pairs (a round's total is known when it starts), so it is shown by
 * round. Silent when stderr is not a terminal.
 */
function progressLine() {
  if (!process.stderr.isTTY) return { tell() {}, end() {} };
  let phase = ''; let started = 0; let last = 0; let round = 0; let base = 0; let roundTotal = 0;
  return {
    tell(name, done, total) {
      const now = Date.now();
      if (name !== phase) { phase = name; started = now; round = 0; base = 0; roundTotal = 0; }
      let label = name;
      if (name === 'verifying') {
        if (round === 0 || total !== roundTotal) { round++; base = roundTotal; roundTotal = total; started = now; }
        label = `verifying, round ${round}`;
        done -= base;
        total -= base;
      }
      if (done !== total && now - last < 200) return;
      last = now;
      const s = (now - started) / 1000;
      const left = done > 0 && done < total ? `, ${Math.ceil((s * (total - done)) / done)} s left` : '';
      process.stderr.write(`\r\x1b[K${label}: ${done.toLocaleString('en')} of ${total.toLocaleString('en')}${left}`);
    },
    end() { if (phase) process.stderr.write('\r\x1b[K'); },
  };
}

/** The output format: --format, else a table for a terminal and JSON lines for a pipe. */
function outputFormat(o) {
  const format = o.format ?? (process.stdout.isTTY ? 'table' : 'jsonl');
  if (format !== 'jsonl' && format !== 'table') fail(`--format must be table or jsonl, not ${JSON.stringify(format)}`);
  return format;
}

async function dedup(o) {
  const here = dirname(fileURLToPath(import.meta.url));
  const path = onePath(o, join(here, '..', 'sample', 'licenses.jsonl'));
  try {
    await dedupPath(o, path);
  } catch (e) {
    throw duplicateLines(e, path);
  }
}

/**
 * A DuplicateId error of a JSONL file's documents, told with the lines that hold the id
 * (found again only now: the run holds no map of ids to lines).
 */
function duplicateLines(e, path) {
  if (e?.code !== 'DuplicateId' || path === '-' || !/\.(jsonl|ndjson)$/i.test(path)) return e;
  const first = new Map();
  for (const d of jsonlDocs(path, path)) {
    const line = first.get(d.id);
    if (line !== undefined) {
      e.message = `${path}:${d.line}: id ${JSON.stringify(d.id)} is on line ${line} too; every document needs an id of its own`;
      break;
    }
    first.set(d.id, d.line);
  }
  return e;
}

/** dedup of the documents at `path`, printed. */
async function dedupPath(o, path) {
  const format = outputFormat(o);
  const incremental = o.load !== undefined || o.save !== undefined;
  if (o.save !== undefined) {
    // Before the work, not after it: a run can take an hour.
    const dir = dirname(resolve(o.save));
    try { accessSync(dir, constants.W_OK); } catch (e) {
      fail(`--save ${o.save}: cannot write in ${dir} (${e.code === 'ENOENT' ? 'no such folder' : e.code ?? e.message})`);
    }
  }
  const k = kOption(o.k);
  // A number, off, or a name the core reads (exact, sketch, sketch:J).
  const verify = o.verify === undefined ? undefined : o.verify === 'off' ? false
    : /^(exact|sketch(:.*)?)$/.test(o.verify) ? o.verify : num('verify', o.verify);
  const layout = layoutOption(o.layout);
  const bar = progressLine();
  let r; let index; let count;
  // A JSONL file large enough for the pool is read twice rather than held.
  const st = path !== '-' && /\.(jsonl|ndjson)$/i.test(path) ? statSync(path, { throwIfNoEntry: false }) : undefined;
  if (!incremental && st?.isFile() && poolThreads(o, st.size) > 1) {
    // No more workers than lines: a worker a document at most, as for other inputs.
    let fd;
    try { fd = openSync(path, 'r'); } catch (e) { fail(`cannot read ${path}: ${e.code ?? e.message}`); }
    let lines;
    try { lines = countLines(fd); } finally { closeSync(fd); }
    const pool = await SimHashPool.create({ size: Math.max(1, Math.min(poolThreads(o, st.size), lines)), hasher: hasherOptions(o) });
    try {
      ({ r, count } = await dedupTwoPass(pool, path, lines, { ...hasherOptions(o), k, verify, layout }, bar));
    } finally {
      await pool.close();
    }
  }
  const docs = r ? [] : readDocs(path, o, bar);
  const ids = docs.map((d) => d.id);
  const texts = docs.map((d) => d.text);
  const pool = r ? null : await openPool(o, docs, hasherOptions(o));
  try {
  if (r) {
    // Done above, in two passes.
  } else if (!incremental) {
    // The whole job in the core: index candidates within k, verified against the texts
    // (the fingerprints made by the pool's workers, when there is one).
    const options = { ...hasherOptions(o), k, verify, layout };
    r = pool ? await pool.dedup(ids, texts, options, { onProgress: bar.tell }) : wasm.dedup(ids, texts, options);
  } else {
    // The same job into an index kept between runs: the core adds what is new to it.
    if (o.load !== undefined && existsSync(o.load)) {
      index = loadIndex(o.load);
      const stored = index.stats().k;
      if (k !== undefined && stored !== k) fail(`${o.load} was built with --k ${stored}, not ${k}`);
      if (layout !== undefined) fail(`${o.load} has its layout (${index.stats().layout}); drop --layout`);
      if (index.idKind === 'number') fail(`${o.load} holds number ids; the CLI stores file names and JSONL ids as strings`);
    } else {
      if (o.load !== undefined) warn(`${o.load} does not exist yet: starting a new index`);
      index = new SimHashIndex({
        k: k ?? D.dedupFingerprintsOnly.k, layout: layout ?? D.dedup.layout,
        expectedSize: Math.max(docs.length, 1), ids: 'string',
      });
    }
    const before = index.size;
    const options = { ...hasherOptions(o), verify: verify ?? D.dedupFingerprintsOnly.verify };
    r = pool ? await pool.dedupInto(index, ids, texts, options) : index.dedup(ids, texts, options);
    if (o.load !== undefined && existsSync(o.load)) {
      process.stderr.write(`loaded ${before} documents from ${o.load}; ${r.alreadyIndexed.length} of the inputs were in it already\n`);
    }
    if (o.save !== undefined) saveIndex(index, o.save);
  }
  } finally {
    await pool?.close();
  }
  bar.end();
  for (const s of r.skipped) warn(`skipping ${s.id}: ${s.error}`);
  // Each id's fingerprint, for the table (a map of every document: made only for it).
  let fps;
  const fingerprintOf = (id) => {
    fps ??= new Map(r.fingerprinted.map((d, i) => [d, r.fingerprints[i]]));
    return fps.get(id) ?? index?.get(id);
  };
  const { clusters, pairs } = r;
  if (format === 'jsonl') {
    // Each pair under its cluster, found through its first id (linear in the output).
    const clusterOf = new Map();
    clusters.forEach((ids, n) => { for (const id of ids) clusterOf.set(id, n); });
    const links = clusters.map(() => []);
    for (const p of pairs) links[clusterOf.get(p.a)]?.push(p);
    let buf = '';
    clusters.forEach((ids, n) => {
      buf += `${JSON.stringify({ cluster: n + 1, size: ids.length, ids, pairs: links[n] })}\n`;
      if (buf.length > 1 << 20) { process.stdout.write(buf); buf = ''; }
    });
    process.stdout.write(buf);
  } else {
    process.stdout.write(`${'cluster'.padEnd(8)} ${'fingerprint'.padEnd(16)}  id\n`);
    clusters.forEach((ids, n) => {
      for (const id of ids) process.stdout.write(`${String(n + 1).padEnd(8)} ${toHex(fingerprintOf(id))}  ${shownId(id)}\n`);
    });
  }
  const inClusters = clusters.reduce((s, c) => s + c.length, 0);
  // The sketch flow's candidates are the MinHash band join's (no fingerprint index).
  const bySketch = r.verify !== false && r.verifyBy !== 'exact';
  const how = r.verify === false ? `within ${r.k} bits`
    : bySketch ? `joining them: band candidates whose ${r.verifyBy} sketches estimate Jaccard >= ${r.verify}`
      : `joining them, within ${r.k} bits, verified at Jaccard >= ${r.verify}`;
  process.stderr.write(
    `${count ?? docs.length} documents, ${r.fingerprinted.length - r.alreadyIndexed.length} ${bySketch ? 'sketched' : 'fingerprinted'}; ${clusters.length} near-duplicate clusters ` +
    `holding ${inClusters} documents (${pairs.length} pairs ${how}; ` +
    `${new SimHasher(hasherOptions(o)).options().scheme}${bySketch ? '' : `; layout ${r.layout}`})\n`,
  );
}

function sketchOptions(o) {
  return o['sketch-size'] === undefined ? {} : { size: num('sketch-size', o['sketch-size']) };
}

async function fingerprint(o) {
  const hasher = new SimHasher(hasherOptions(o));
  const path = onePath(o, '-');
  const sk = sketchOptions(o);
  if (o.sketch) {
    try { hasher.sketch('size check', sk); } catch (e) { fail(e.message); }   // a bad --sketch-size, once
  }
  // A JSONL file large enough for the pool is streamed: its lines read by the workers.
  const st = path !== '-' && /\.(jsonl|ndjson)$/i.test(path) ? statSync(path, { throwIfNoEntry: false }) : undefined;
  if (st?.isFile() && poolThreads(o, st.size) > 1) {
    await fingerprintLines(o, path, poolThreads(o, st.size), o.sketch ? sk : undefined);
    return;
  }
  const docs = readDocs(path, o);
  if (unreadFiles) process.exitCode = 1;
  const pool = await openPool(o, docs, hasherOptions(o));
  if (pool === null) {
    for (const d of docs) {
      try {
        if (o.sketch) {
          const { fingerprint: fp, sketch } = hasher.fingerprintAndSketch(d.text, sk);
          process.stdout.write(`${shownId(d.id)}\t${toHex(fp)}\t${Buffer.from(sketch).toString('hex')}\n`);
          continue;
        }
        process.stdout.write(`${shownId(d.id)}\t${toHex(hasher.fingerprint(d.text))}\n`);
      } catch (e) {
        warn(`${d.id}: ${e.message}`);
        process.exitCode = 1;
      }
    }
    return;
  }
  let r;
  try {
    const texts = docs.map((d) => d.text);
    r = o.sketch ? await pool.fingerprintAndSketchEach(texts, sk) : await pool.fingerprintEach(texts);
  } finally {
    await pool.close();
  }
  const errors = new Map(r.failed.map((f) => [f.index, f.error]));
  let out = '';
  docs.forEach((d, i) => {
    const e = errors.get(i);
    if (e) {
      process.stdout.write(out);
      out = '';
      warn(`${d.id}: ${e.message}`);
      process.exitCode = 1;
    } else {
      out += `${shownId(d.id)}\t${toHex(r.fingerprints[i])}${o.sketch ? `\t${Buffer.from(r.sketches[i]).toString('hex')}` : ''}\n`;
      if (out.length > 1 << 16) { process.stdout.write(out); out = ''; }
    }
  });
  process.stdout.write(out);
}

function explain(o) {
  const arg = o.positional[0];
  if (arg === undefined) fail('explain needs a text or a file');
  let text = arg;
  try { if (statSync(arg).isFile()) text = readFileSync(arg, 'utf8'); } catch { /* a literal text */ }
  const hasher = new SimHasher(hasherOptions(o));
  const e = hasher.explain(text);
  const bits = (h) => { let s = ''; for (let i = 63; i >= 0; i--) s += (h >> BigInt(i)) & 1n ? '1' : '0'; return s; };
  const w = Math.max(8, ...e.tokens.map((t) => [...t.text].length + 2));
  process.stdout.write(`normalised: ${JSON.stringify(e.normalized)}\n`);
  process.stdout.write(`options:    ${hasher.options().scheme}\n\n`);
  process.stdout.write(`${'token'.padEnd(w)} ${'tf'.padStart(3)} ${'weight'.padStart(7)}  hash bits (bit 63 … bit 0)\n`);
  for (const t of e.tokens) {
    if (!t.first) continue;
    process.stdout.write(`${JSON.stringify(t.text).padEnd(w)} ${String(t.tf).padStart(3)} ${t.weight.toFixed(3).padStart(7)}  ${bits(t.hash)}\n`);
  }
  process.stdout.write(`\nsums (bit 63 … bit 0):\n  ${e.sums.slice().reverse().map((s) => s.toFixed(2)).join(' ')}\n`);
  process.stdout.write(`sign (sum > 0 → 1; a sum of 0 → 0):\n  ${bits(e.fingerprint)}\n`);
  process.stdout.write(`fingerprint: ${toHex(e.fingerprint)}\n`);
  // The sketch beside it: what the crawler stores to estimate Jaccard without the text.
  const info = wasm.sketchInfo(hasher.sketch(text, sketchOptions(o)));
  process.stdout.write(
    `\nsketch (${info.scheme}): ${info.shingles} distinct ${D.dedup.shingle}-gram shingles; odd sketch ` +
    `${info.oddSet} of ${info.oddBits} bits set; ${info.bins} MinHash bins of 4 bits:\n  ` +
    `${[...info.minhash].map((v) => v.toString(16)).join('')}\n`,
  );
}

// --- dedup --redis URL --namespace NS: the shared store (RedisContentSeen) -------------
async function dedupRedis(o) {
  if (!o.namespace) fail('--redis needs --namespace NS (the crawl the documents belong to)');
  let redis;
  try { redis = require('redis'); } catch { fail('--redis needs the `redis` package: npm install redis'); }
  const docs = readDocs(onePath(o, '-'), o);
  // A batch job: reconnect a few times (0.1 s doubling to 2 s), then give up with an error
  // rather than wait for ever; checks during a drop are retried as many times.
  const client = redis.createClient({
    url: o.redis,
    socket: { reconnectStrategy: (n, cause) => (n >= 5 ? new Error(`gave up after ${n} attempts (${cause && cause.message})`) : Math.min(100 * 2 ** n, 2000)) },
  });
  client.on('error', () => {});
  try { await client.connect(); } catch (e) { fail(`cannot connect to ${o.redis}: ${e.message}`); }
  const opts = { ...hasherOptions(o), namespace: o.namespace, html: Boolean(o.html), retries: 5 };
  const k = kOption(o.k);
  if (k !== undefined) opts.k = k;
  const layout = layoutOption(o.layout);
  if (layout !== undefined && layout !== 'auto') opts.layout = layout;
  // --sketch: the store's sketch mode (ContentSeen's default flow), --sketch-size its bytes.
  opts.sketch = !o.sketch ? false : o['sketch-size'] === undefined ? true : num('sketch-size', o['sketch-size']);
  const seen = await wasm.RedisContentSeen.open(client, opts);
  let dups = 0;
  let failed = 0;
  for (let i = 0; i < docs.length; i += 256) {
    const chunk = docs.slice(i, i + 256);
    const rs = await seen.checkBatch(chunk.map((d) => ({ url: d.id, text: d.text })));
    rs.forEach((r, j) => {
      if (r.error) {
        failed++;
        process.stdout.write(JSON.stringify({ id: chunk[j].id, error: r.error.message }) + '\n');
      } else {
        dups += r.duplicate ? 1 : 0;
        process.stdout.write(JSON.stringify({ id: chunk[j].id, duplicate: r.duplicate, cluster: r.cluster, count: r.count }) + '\n');
      }
    });
  }
  process.stderr.write(`${docs.length} documents: ${docs.length - dups - failed} new, ${dups} duplicates, ${failed} failed; ${await seen.size} stored in ${o.namespace}\n`);
  if (failed) process.exitCode = 1;
  seen.close();
  await client.quit();
}

// A reader that stopped reading (`| head`) ends the run quietly.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  fail(e.message);
});

const o = parseArgs(process.argv.slice(2));
const cmd = o.positional.shift();
if (o.version) {
  process.stdout.write(`${require('../package.json').version}\n`);
  process.exit(0);
}
if (o.help || !cmd) {
  process.stdout.write(HELP);
  process.exit(o.help ? 0 : 2);
}
if (SHOWN[cmd] !== undefined) checkApplies(cmd, o);
try {
  if (cmd === 'dedup' && o.redis !== undefined) await dedupRedis(o);
  else if (cmd === 'dedup') await dedup(o);
  else if (cmd === 'fingerprint') await fingerprint(o);
  else if (cmd === 'explain') explain(o);
  else fail(`unknown command ${JSON.stringify(cmd)}; see --help`);
} catch (e) {
  fail(e.message);
}
