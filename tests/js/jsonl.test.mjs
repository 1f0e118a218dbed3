// JSON lines read where they lie: the pool's workers read a collection's lines in the wasm
// (`__jsonlEach`, `__jaccardsJsonl`) as the CLI reads a line on its own thread with
// JSON.parse, which is the oracle here; and the CLI's two passes over a file of several
// chunks give the one-thread output, the same ids and the same errors at the same lines.
import test from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const raw = createRequire(import.meta.url)('../../pkg/node/simhash_wasm.js');
const CLI = fileURLToPath(new URL('../../pkg/bin/simhash-wasm.mjs', import.meta.url));
const enc = new TextEncoder();

function rng(seed) {
  let s = seed >>> 0;
  return () => { s = (s + 0x6d2b79f5) >>> 0; let t = s; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
}

/** What the CLI's own reader makes of one line's bytes (pkg-template/bin, jsonlDocs). */
function oracle(bytes) {
  let line;
  try { line = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes); } catch { return { kind: 'utf8' }; }
  if (!line.trim()) return null;
  let d;
  try { d = JSON.parse(line); } catch { return { kind: 'json' }; }
  if (d === null || typeof d !== 'object' || Array.isArray(d) || typeof d.text !== 'string') return { kind: 'document' };
  if (d.id !== undefined && d.id !== null && typeof d.id !== 'string' && typeof d.id !== 'number') {
    return { kind: 'id', shown: JSON.stringify(d.id) };
  }
  return { id: d.id ?? undefined, text: d.text };
}

/** A random line: mostly documents, written every way JSON allows, some broken. */
function randomLine(next) {
  const pick = (xs) => xs[Math.floor(next() * xs.length)];
  const ws = () => pick(['', '', ' ', '\t', '\r', ' \t ']);
  const str = () => {
    let s = '"';
    for (let n = Math.floor(next() * 12); n > 0; n--) {
      s += pick(['a', 'b', ' ', 'é', '中', '😀', '\u2028', '\\n', '\\"', '\\\\', '\\/', '\\u00e9', '\\ud83d\\ude00', '\\ud800', '\\udc00', '\\u0000', '\\t', 'x y']);
    }
    return `${s}"`;
  };
  const scalar = () => pick([str, () => pick(['0', '-0', '7', '1.50', '-2.5e3', '1e400', '123456789012345678901', '1E-7', 'true', 'false', 'null'])])();
  const value = (depth) => {
    const r = next();
    if (depth <= 0 || r < 0.6) return scalar();
    if (r < 0.8) return `[${ws()}${Array.from({ length: Math.floor(next() * 3) }, () => value(depth - 1)).join(`${ws()},${ws()}`)}${ws()}]`;
    return `{${Array.from({ length: Math.floor(next() * 3) }, () => `${str()}${ws()}:${ws()}${value(depth - 1)}`).join(',')}}`;
  };
  const members = [];
  if (next() < 0.9) members.push(`${pick(['"text"', '"te\\u0078t"'])}${ws()}:${ws()}${next() < 0.9 ? str() : value(1)}`);
  if (next() < 0.7) members.push(`${pick(['"id"', '"i\\u0064"'])}:${ws()}${next() < 0.8 ? scalar() : value(2)}`);
  for (let n = Math.floor(next() * 3); n > 0; n--) members.push(`${str()}:${value(2)}`);
  if (next() < 0.2) members.push(members[0] ?? '"text":"dup"');
  members.sort(() => next() - 0.5);
  let line = next() < 0.1 ? value(2) : `${ws()}{${members.join(`${ws()},${ws()}`)}}${ws()}`;
  const r = next();
  if (r < 0.15) {
    const at = Math.floor(next() * (line.length + 1));
    line = line.slice(0, at) + pick(['', ',', '}', '"', '\\', ']', ' ', '\u00a0', '\ufeff']) + line.slice(at + 1);
  } else if (r < 0.18) {
    line = pick(['', ' ', '\u00a0\ufeff', '\u000b', '\u3000']);
  }
  const bytes = enc.encode(line);
  if (next() < 0.03) return Uint8Array.from([...bytes.subarray(0, 5), 0xff, ...bytes.subarray(5)]);
  return bytes;
}

test('the wasm reads each line as JSON.parse and the CLI checks read it, and hashes its text', () => {
  // Unigrams of the text as it is (no NFKC, case or punctuation folding): the fingerprint
  // sees nearly every character the reader decoded.
  const h = new raw.SimHasher({ ngram: 1, nfkc: false, lowercase: false, punctuation: 'keep' });
  const next = rng(7);
  const kinds = {};
  for (let i = 0; i < 6000; i++) {
    const bytes = randomLine(next);
    const want = oracle(bytes);
    const r = h.__jsonlEach(bytes, undefined, false);
    assert.equal(r.lines, bytes.length ? 1 : 0);
    const what = new TextDecoder().decode(bytes);
    if (want === null) {
      assert.deepEqual([r.ids.length, r.error], [0, undefined], what);
      kinds.blank = (kinds.blank ?? 0) + 1;
      continue;
    }
    if (want.kind) {
      assert.equal(r.error?.kind, want.kind, what);
      assert.equal(r.ids.length, 0);
      if (want.kind === 'id') assert.equal(JSON.stringify(JSON.parse(r.error.raw)), want.shown, what);
      kinds[want.kind] = (kinds[want.kind] ?? 0) + 1;
      continue;
    }
    assert.equal(r.error, undefined, what);
    const id = r.ids[0];
    const got = id === undefined || typeof id === 'string' ? id : id.number !== undefined ? Number(id.number) : JSON.parse(id.json);
    assert.ok(Object.is(got, want.id), `${what}: ${JSON.stringify(id)}`);
    let fp; let code;
    try { fp = h.fingerprint(want.text); } catch (e) { fp = 0n; code = e.code; }
    assert.deepEqual([r.fingerprints[0], r.codes[0]], [fp, code], what);
    assert.deepEqual([r.offsets[0], r.lengths[0]], [0, bytes.length]);
    kinds.document = (kinds.document ?? 0) + 1;
  }
  // Every outcome is met many times: no filter that passes almost nothing.
  for (const k of ['blank', 'utf8', 'json', 'document', 'id']) assert.ok(kinds[k] > 20, JSON.stringify(kinds));
  assert.ok(kinds.document > 2000, JSON.stringify(kinds));
  h.free();
});

test('a chunk of many lines: offsets, lengths, sketches and the first bad line', () => {
  const h = new raw.SimHasher({});
  const lines = ['{"id":"a","text":"the first document of the chunk"}', '', '  ', '{"text":"a second one, with no id"}\r',
    '{"id":3,"text":"the third"}'];
  const bytes = enc.encode(`${lines.join('\n')}\n`);
  const r = h.__jsonlEach(bytes, { size: 64 }, false);
  assert.equal(r.lines, 5);
  assert.deepEqual([...r.offsets], [0, lines[0].length + 5, bytes.length - lines[4].length - 1]);
  assert.deepEqual([...r.lengths], [lines[0].length, lines[3].length, lines[4].length]);
  assert.deepEqual(r.ids, ['a', undefined, { number: '3' }]);
  const { fingerprint, sketch } = h.fingerprintAndSketch('a second one, with no id', { size: 64 });
  assert.equal(r.fingerprints[1], fingerprint);
  assert.deepEqual(r.sketches.subarray(66, 132), sketch);
  const only = h.__jsonlEach(bytes, { size: 64 }, true);
  assert.deepEqual([...only.fingerprints], [0n, 0n, 0n]);
  assert.deepEqual(only.sketches, r.sketches);
  const bad = h.__jsonlEach(enc.encode('{"text":"ok"}\n\n{"text":"x","id":[1]}\n{"text":"never read"}\n'), undefined, false);
  assert.deepEqual([bad.lines, bad.ids.length, bad.error], [3, 1, { line: 2, offset: 15, kind: 'id', raw: '[1]' }]);
  // The pool's measuring step on lines gives what it gives on the texts.
  const texts = ['one two three four five six seven', 'one two three four five six eight', 'nothing alike here at all'];
  const pairs = Uint32Array.from([0, 1, 1, 2]);
  const chunk = enc.encode(texts.map((text) => JSON.stringify({ text })).join('\n'));
  assert.deepEqual(raw.__jaccardsJsonl(chunk, pairs, 4, undefined), raw.__jaccards(texts, pairs, 4, undefined));
  h.free();
});

test('CLI: a file of many chunks, read twice by the pool, gives the one-thread output and the same errors', () => {
  const dir = mkdtempSync(join(tmpdir(), 'simhash-jsonl-'));
  try {
    const next = rng(11);
    const words = ['the', 'cat', 'sat', 'on', 'a', 'mat', 'café', '東京', 'データ', 'naïve', 'under', 'different', 'addresses'];
    const text = (n) => Array.from({ length: n }, () => words[Math.floor(next() * words.length)]).join(' ');
    const lines = [];
    let t = '';
    for (let i = 0; i < 5000; i++) {
      // Documents 3, 6 and 9 of every ten a copy of the one before, its first word changed.
      t = [3, 6, 9].includes(i % 10) ? t.replace(/^\S+/, 'copy') : text(20 + Math.floor(next() * 120));
      // Some documents with no fingerprint (empty, too short): skipped with their reasons.
      if (i % 151 === 0) t = ['', 'ab', ' ... '][i % 3];
      const id = [() => `d${i}`, () => 100_000 + i, () => undefined, () => 1e21 * (i + 1), () => `s\\"\u00e9${i}`][i % 5]();
      lines.push(JSON.stringify(id === undefined ? { text: t } : { id, text: t }));
      if (i % 97 === 0) lines.push('');
    }
    // One line longer than a chunk (1 MB).
    lines.splice(2500, 0, JSON.stringify({ id: 'long', text: text(300_000) }));
    const file = join(dir, 'docs.jsonl');
    const body = `\ufeff${lines.join('\r\n')}`;
    writeFileSync(file, body);
    assert.ok(Buffer.byteLength(body) > 4 << 20);
    const run = (f, ...args) => spawnSync(process.execPath, [CLI, 'dedup', f, '--format', 'jsonl', ...args], { encoding: 'utf8', timeout: 300_000 });
    for (const verify of [[], ['--verify', 'sketch']]) {
      const one = run(file, '--threads', '1', ...verify);
      const two = run(file, '--threads', '2', ...verify);
      assert.equal(one.status, 0, one.stderr);
      // Ids of every kind reached the report: numbers as JS writes them, escaped strings.
      assert.ok(one.stdout.split('\n').length > 100 && /"\d(\.\d+)?e\+2\d"/.test(one.stdout) && /"s\\\\\\"é\d+"/.test(one.stdout)
        && /"1\d{5}"/.test(one.stdout) && /"d\d+"/.test(one.stdout), one.stdout.slice(0, 300));
      assert.deepEqual([two.stdout, two.stderr], [one.stdout, one.stderr], verify.join(' '));
    }
    // fingerprint streams the file through the workers: the one-thread lines and warnings.
    const fp = (...args) => spawnSync(process.execPath, [CLI, 'fingerprint', file, ...args], { encoding: 'utf8', timeout: 300_000 });
    for (const sketch of [[], ['--sketch', '--sketch-size', '64']]) {
      const one = fp('--threads', '1', ...sketch);
      const two = fp('--threads', '2', ...sketch);
      assert.ok(one.stdout.split('\n').length > 4900 && one.status === 1 && /: the text has no features/.test(one.stderr), one.stderr);
      assert.deepEqual([two.stdout, two.stderr, two.status], [one.stdout, one.stderr, one.status], sketch.join(' '));
    }
    // A bad line past the first chunks: the same words at the same line number.
    const at = 4000;
    for (const [bad, words] of [
      [Buffer.from([0x7b, 0xff, 0x7d]), /:4001: not UTF-8 text/],
      [Buffer.from('{"text": "x",}'), /:4001: not a JSON line/],
      [Buffer.from('["text"]'), /:4001: expected \{"id": \.\.\., "text": "\.\.\."\}/],
      [Buffer.from('{"text":"x","id":{"a": [1, true]}}'), /:4001: "id" must be a string or a number, not \{"a":\[1,true\]\}/],
      // An id no UTF-8 can hold: refused as the one-thread call refuses it.
      [Buffer.from('{"text":"x","id":"a\\ud800"}'), /invalid option `ids` = "a\\ud800" at \[\d+\]: expected an array of strings without lone surrogates/],
    ]) {
      const broken = join(dir, 'broken.jsonl');
      writeFileSync(broken, Buffer.concat([Buffer.from(lines.slice(0, at).join('\n') + '\n'), bad, Buffer.from('\n' + lines.slice(at).join('\n'))]));
      const one = run(broken, '--threads', '1');
      const two = run(broken, '--threads', '2');
      assert.equal(one.status, 2);
      assert.match(one.stderr, words);
      assert.deepEqual([two.status, two.stderr, two.stdout], [one.status, one.stderr, one.stdout]);
      if (!/ids/.test(String(words))) {
        // fingerprint streams: with the pool it stops at the bad line after writing every
        // document before it (the one-thread run, which reads first, writes none).
        const f1 = spawnSync(process.execPath, [CLI, 'fingerprint', broken, '--threads', '1'], { encoding: 'utf8' });
        const f2 = spawnSync(process.execPath, [CLI, 'fingerprint', broken, '--threads', '2'], { encoding: 'utf8' });
        assert.match(f1.stderr, words);
        assert.equal(f1.stdout, '');
        const head = join(dir, 'head.jsonl');
        writeFileSync(head, lines.slice(0, at).join('\n') + '\n');
        const before = spawnSync(process.execPath, [CLI, 'fingerprint', head, '--threads', '1'], { encoding: 'utf8' });
        assert.ok(before.stdout.split('\n').length > 3000);
        assert.deepEqual([f2.status, f2.stdout, f2.stderr], [2, before.stdout, before.stderr + f1.stderr]);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a failed chunk rejects once, in order, and leaves the pool working', async () => {
  const { SimHashPool, SimHashError } = await import('../../pkg/index.mjs');
  const pool = await SimHashPool.create({ size: 2 });
  try {
    const chunk = () => enc.encode('{"text":"the same short document"}\n'.repeat(2000));
    function* chunks() { for (let i = 0; i < 12; i++) yield chunk(); }
    // A bad sketch size fails every chunk on the workers: the first is reported, the
    // others are no unhandled rejections (which would end this process).
    let taken = 0;
    await assert.rejects(pool.__hashLines(chunks(), {}, { size: 3 }, false, () => { taken++; }),
      (e) => e instanceof SimHashError && e.code === 'InvalidOption');
    assert.equal(taken, 0);
    const replies = [];
    await pool.__hashLines(chunks(), {}, undefined, false, (m) => replies.push(m.ids.length));
    assert.deepEqual(replies, Array(12).fill(2000));
    assert.equal((await pool.fingerprintBatch(['a b c d e f g'])).length, 1);
  } finally {
    await pool.close();
  }
});
