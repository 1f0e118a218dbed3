// loadIndex reads the snapshot file straight into wasm memory (files.cjs): the same index
// as fromBytes over the same bytes, for number and string ids and every layout kind;
// damaged, truncated, empty and missing files throw, and the module keeps working after.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync, truncateSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { SimHashIndex, ContentSeen, SimHashError, saveIndex, loadIndex, saveSeen, loadSeen, writeFileAtomic } from '../../pkg/index.mjs';

const dir = mkdtempSync(join(tmpdir(), 'simhash-files-'));
let seed = 0x2545f491n;
const next = () => { seed ^= (seed << 13n) & 0xFFFFFFFFFFFFFFFFn; seed ^= seed >> 7n; seed ^= (seed << 17n) & 0xFFFFFFFFFFFFFFFFn; return seed; };

function sameAnswers(a, b, queries) {
  assert.equal(a.size, b.size);
  for (const q of queries) assert.deepEqual(a.query(q), b.query(q));
}

test('loadIndex gives the index fromBytes gives, for each id kind and layout', () => {
  for (const [ids, layout] of [['number', 'default'], ['string', 'default'], ['number', 'probe'], ['number', [16, 12, 12, 12, 12]]]) {
    const ix = new SimHashIndex({ k: 3, ids, layout });
    const fps = [];
    for (let i = 0; i < 3000; i++) {
      // clusters: a base and a few variants within 3 bits, so queries have answers
      const base = i % 4 === 0 ? next() : fps[fps.length - 1] ^ (1n << BigInt(i % 64));
      fps.push(base);
      ix.insert(ids === 'number' ? i : `doc-${i}`, base);
    }
    const file = join(dir, `ix-${ids}-${String(layout)}.bin`);
    saveIndex(ix, file);
    const viaFile = loadIndex(file);
    const viaBytes = SimHashIndex.fromBytes(readFileSync(file));
    const queries = fps.filter((_, i) => i % 37 === 0).concat([next(), next()]);
    sameAnswers(viaFile, viaBytes, queries);
    sameAnswers(viaFile, ix, queries);
    assert.ok(queries.some((q) => viaFile.query(q).length > 1), 'some query has neighbours');
    assert.deepEqual(viaFile.toBytes(), new Uint8Array(readFileSync(file)));
    viaFile.free(); viaBytes.free(); ix.free();
  }
});

test('damaged, truncated, empty and missing files throw; the module stays usable', () => {
  const ix = new SimHashIndex({ k: 3, ids: 'number' });
  for (let i = 0; i < 500; i++) ix.insert(i, next());
  const good = ix.toBytes();
  const cases = [
    ['flipped', (() => { const b = Uint8Array.from(good); b[b.length >> 1] ^= 0x10; return b; })()],
    ['truncated', good.subarray(0, good.length - 9)],
    ['empty', new Uint8Array(0)],
    ['foreign', new TextEncoder().encode('not a snapshot at all, just text')],
  ];
  for (const [name, bytes] of cases) {
    const file = join(dir, `bad-${name}.bin`);
    writeFileSync(file, bytes);
    assert.throws(() => loadIndex(file), (e) => e instanceof SimHashError && e.code === 'Corrupt', name);
  }
  assert.throws(() => loadIndex(join(dir, 'no-such-file.bin')), (e) => e instanceof SimHashError
    && e.code === 'FileError' && e.cause.code === 'ENOENT' && e.message.includes('no-such-file.bin'));
  // A file larger than wasm memory can hold (sparse, so nothing is written): a clear error
  // before anything is read, not an abort of the instance or a size wrapped modulo 2^32.
  const huge = join(dir, 'huge.bin');
  writeFileSync(huge, '');
  truncateSync(huge, 5 * 2 ** 30);
  assert.throws(() => loadIndex(huge), (e) => e instanceof SimHashError && e.code === 'InvalidOption'
    && /snapshot file size/.test(e.message) && /4 GiB/.test(e.message));
  rmSync(huge);
  // still working: a good file loads, and answers like the original
  const file = join(dir, 'good.bin');
  writeFileSync(file, good);
  const back = loadIndex(file);
  const q = 12345n;
  assert.equal(back.size, 500);
  assert.deepEqual(back.query(q), ix.query(q));
  back.free(); ix.free();
});

test('bad arguments to the file helpers are refused before any file is touched; file system failures are FileErrors', () => {
  const ix = new SimHashIndex({ k: 3, ids: 'number' });
  ix.insert(1, 0xabcn);
  const seen = new ContentSeen();
  seen.check('https://a.test/', 'one two three four five six');
  const good = join(dir, 'keep.bin');
  saveIndex(ix, good);
  const kept = readFileSync(good);
  const invalid = (f, name) => assert.throws(f, (e) => e instanceof SimHashError && e.code === 'InvalidOption'
    && e.message.includes(`\`${name}\``), name);
  // A wrong second argument never replaces the file with nothing.
  for (const bytes of [5, 'text', null, undefined, [1, 2], {}]) invalid(() => writeFileAtomic(good, bytes), 'bytes');
  assert.deepEqual(readFileSync(good), kept);
  for (const file of [undefined, null, '', 7, {}, 'a\0b']) {
    invalid(() => saveIndex(ix, file), 'path');
    invalid(() => saveSeen(seen, file), 'path');
    invalid(() => loadIndex(file), 'path');
    invalid(() => loadSeen(file), 'path');
  }
  invalid(() => saveIndex({}, good), 'index');
  invalid(() => saveIndex(seen, good), 'index');
  invalid(() => saveSeen(ix, good), 'seen');
  assert.deepEqual(readFileSync(good), kept);
  // A missing directory names the target, not the temp file.
  const nowhere = join(dir, 'no-dir', 'x.bin');
  assert.throws(() => saveIndex(ix, nowhere), (e) => e instanceof SimHashError && e.code === 'FileError'
    && e.message.includes(nowhere) && !e.message.includes('.tmp') && e.cause.code === 'ENOENT');
  assert.throws(() => loadSeen(dir), (e) => e instanceof SimHashError && e.code === 'FileError' && e.cause.code === 'EISDIR');
  // file: URLs, as objects and as strings, name the file they point to.
  const url = pathToFileURL(join(dir, 'by url.bin'));
  saveSeen(seen, url);
  assert.equal(loadSeen(url.href).size, 1);
  saveIndex(ix, url.href);
  assert.equal(loadIndex(url).size, 1);
  assert.deepEqual(new Uint8Array(readFileSync(url)), new Uint8Array(ix.toBytes()));
  // A name that starts with `file:` but is no URL is a file's name, relative like any other.
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    saveIndex(ix, 'file:rel.idx');
    assert.equal(loadIndex(join(dir, 'file:rel.idx')).size, 1);
  } finally {
    process.chdir(cwd);
  }
  ix.free(); seen.free();
});
