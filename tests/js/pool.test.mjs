// SimHashPool (worker_threads): the same fingerprints and dedup reports as the single-thread
// calls, bit for bit and in order; a bad document names itself and leaves the pool usable;
// close() mid-batch rejects cleanly and leaves no worker behind; the CLI's --threads.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { SimHasher, SimHashPool, SimHashIndex, SimHashError, dedup } from '../../pkg/index.mjs';

const PKG = fileURLToPath(new URL('../../pkg/', import.meta.url));
const CLI = join(PKG, 'bin', 'simhash-wasm.mjs');
const sample = readFileSync(join(PKG, 'sample', 'licenses.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));

function rng(seed) {
  let s = seed >>> 0;
  return () => { s = (s + 0x6d2b79f5) >>> 0; let t = s; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
}

/** Random texts of 0 to ~6000 characters: words, punctuation, accents, CJK, emoji; some empty or too short. */
function randomTexts(n, seed) {
  const next = rng(seed);
  const alphabet = ['the', 'cat', 'sat', 'on', 'mat', 'Größe', 'café', '東京', 'データ', '🙂', '👩‍👩‍👧', 'e\u0301', ',', '!', '—', 'ÆØÅ', 'naïve', 'x'];
  const out = [];
  for (let i = 0; i < n; i++) {
    const r = next();
    if (r < 0.03) { out.push(''); continue; }
    if (r < 0.06) { out.push('ab'); continue; }
    const words = Math.floor(next() ** 3 * 1200) + 1;
    let t = '';
    for (let w = 0; w < words; w++) t += alphabet[Math.floor(next() * alphabet.length)] + (next() < 0.8 ? ' ' : '');
    out.push(t);
  }
  return out;
}

/** The single-thread outcome of every text: a fingerprint or the thrown error's message. */
function syncEach(texts, options) {
  const h = new SimHasher(options);
  const out = texts.map((t) => { try { return h.fingerprint(t); } catch (e) { return e.message; } });
  h.free();
  return out;
}

test('fingerprintBatch equals the single-thread batch, in order (sample corpus, 1 to 3 workers)', async () => {
  const texts = sample.map((d) => d.text);
  const want = new SimHasher().fingerprintBatch(texts);
  assert.ok(texts.length > 100);
  for (const size of [1, 2, 3]) {
    const pool = await SimHashPool.create({ size });
    assert.equal(pool.size, size);
    const got = await pool.fingerprintBatch(texts);
    assert.ok(got instanceof BigUint64Array);
    assert.deepEqual([...got], [...want], `size ${size}`);
    await pool.close();
  }
});

test('random texts with bad documents: fingerprintEach equals one-by-one, for several options', async () => {
  const texts = randomTexts(3000, 7);
  for (const hasher of [undefined, { ngram: 3, weighting: 'tf' }, { mode: 'words', ngram: 2, punctuation: 'drop' }]) {
    const want = syncEach(texts, hasher);
    const bad = want.filter((x) => typeof x === 'string').length;
    assert.ok(bad > 50 && bad < 800, `${bad} bad documents planted`);
    const pool = await SimHashPool.create({ size: 2, hasher });
    const r = await pool.fingerprintEach(texts);
    const got = [...r.fingerprints];
    for (const f of r.failed) {
      assert.ok(f.error instanceof SimHashError);
      assert.equal(got[f.index], 0n);
      got[f.index] = f.error.message;
    }
    assert.deepEqual(got, want, JSON.stringify(hasher));
    assert.equal(r.failed.length, bad);
    await pool.close();
  }
});

test('fingerprintAndSketchEach equals fingerprintAndSketch one by one; bad options reject', async () => {
  const pool = await SimHashPool.create({ size: 2, hasher: { ngram: 5 } });
  const texts = randomTexts(700, 21);
  const h = new SimHasher({ ngram: 5 });
  for (const options of [undefined, { size: 32 }]) {
    const r = await pool.fingerprintAndSketchEach(texts, options);
    const bad = new Map(r.failed.map((f) => [f.index, f.error]));
    assert.ok(bad.size > 10 && bad.size < 100, `${bad.size} failed`);
    texts.forEach((t, i) => {
      let want;
      try { want = h.fingerprintAndSketch(t, options); } catch (e) { want = e.message; }
      if (typeof want === 'string') {
        assert.equal(bad.get(i)?.message, want, `#${i}`);
        assert.equal(r.sketches[i].length, 0);
        return;
      }
      assert.equal(r.fingerprints[i], want.fingerprint, `#${i}`);
      assert.deepEqual(r.sketches[i], want.sketch, `#${i}`);
    });
  }
  await assert.rejects(pool.fingerprintAndSketchEach(texts, { size: 33 }), (e) => e instanceof SimHashError && e.code === 'InvalidOption' && /size/.test(e.message));
  assert.equal((await pool.fingerprintAndSketchEach(['fine text here'], {})).sketches[0].length, 130);
  h.free();
  await pool.close();
});

test('a bad document rejects with the sync error (its index), and the pool keeps working', async () => {
  const texts = randomTexts(4000, 11).filter((t) => t.length > 20);
  texts[1500] = '   ';
  texts[1700] = '';
  let syncError;
  try { new SimHasher().fingerprintBatch(texts); } catch (e) { syncError = e; }
  assert.match(syncError.message, /^document #1500: /);
  const pool = await SimHashPool.create({ size: 2 });
  await assert.rejects(pool.fingerprintBatch(texts), (e) => {
    assert.ok(e instanceof SimHashError);
    assert.equal(e.message, syncError.message);
    assert.equal(e.code, syncError.code);
    assert.equal(e.index, 1500);
    return true;
  });
  // Concurrent batches share the workers, each in its own order.
  const [a, b] = await Promise.all([pool.fingerprintBatch(texts.slice(0, 1500)), pool.fingerprintBatch(texts.slice(1701))]);
  assert.deepEqual([...a], [...new SimHasher().fingerprintBatch(texts.slice(0, 1500))]);
  assert.deepEqual([...b], [...new SimHasher().fingerprintBatch(texts.slice(1701))]);
  assert.deepEqual([...(await pool.fingerprintBatch([]))], []);
  await pool.close();
});

test('bad arguments reject with an InvalidOption naming them', async () => {
  await assert.rejects(SimHashPool.create({ hasher: { ngram: 0 } }), { name: 'SimHashError', code: 'InvalidOption', message: /`ngram`/ });
  await assert.rejects(SimHashPool.create({ size: 0 }), { code: 'InvalidOption', message: /`size`/ });
  await assert.rejects(SimHashPool.create({ sise: 2 }), { code: 'InvalidOption', message: /`sise`/ });
  const pool = await SimHashPool.create({ size: 1 });
  await assert.rejects(pool.fingerprintBatch(['a text', null]), { code: 'InvalidOption', message: /`texts` = null at \[1\]/ });
  await assert.rejects(pool.dedup(['a'], ['some text here'], { k: 99 }), { code: 'InvalidOption', message: /`k`/ });
  assert.equal((await pool.fingerprintBatch(['still working'])).length, 1);
  await pool.close();
  await assert.rejects(pool.fingerprintBatch(['x y z w v u']), { code: 'PoolClosed' });
});

test('dedup on the pool gives the same report as dedup (sample corpus, random texts with planted duplicates)', async () => {
  const pool = await SimHashPool.create({ size: 2 });
  const ids = sample.map((d) => String(d.id));
  const texts = sample.map((d) => d.text);
  const want = dedup(ids, texts);
  assert.ok(want.clusters.length > 5, `${want.clusters.length} clusters`);
  assert.deepEqual(await pool.dedup(ids, texts), want);
  for (const options of [{ verify: false, k: 6 }, { ngram: 4, k: 8, verify: 0.7 }, { verify: 'sketch' }, { verify: 'sketch:0.7', k: 10 }]) {
    assert.deepEqual(await pool.dedup(ids, texts, options), dedup(ids, texts, options), JSON.stringify(options));
  }
  // HTML pages: the workers parse them; the calling thread parses only those it must read.
  const pages = texts.map((t, i) => `<html><body><p>${t}</p><script>var page = ${i};</script></body></html>`);
  const hwant = dedup(ids, pages, { html: true });
  assert.ok(hwant.clusters.length > 5 && hwant.pairs.length > 20, `${hwant.clusters.length} clusters`);
  assert.deepEqual(await pool.dedup(ids, pages, { html: true }), hwant);
  // Random texts, near-duplicates planted (one character changed), bad documents skipped.
  const next = rng(3);
  const base = randomTexts(800, 5);
  // ... and a text mirrored 150 times (each copy with a few characters added, or none):
  // the workers' windows of their parts merge into each copy's window of the whole.
  const long = base.find((t) => t.length > 200);
  const mirrors = Array.from({ length: 150 }, (_, i) => (i % 3 ? `${long} ${'x'.repeat(i % 7)}` : long));
  const rtexts = [...base, ...base.slice(0, 200).map((t) => (t.length > 40 ? t.slice(0, 20) + '#' + t.slice(21) : t)), ...mirrors];
  // Ids of every width in UTF-16 (they cross into the plan, and back in its report, joined
  // with their lengths).
  const marks = ['', 'é', '文档', '😀', 'a😀b\u{10FFFF}'];
  const rids = rtexts.map((_, i) => `doc${i}-${Math.floor(next() * 1e6)}${marks[i % marks.length]}`);
  const rwant = dedup(rids, rtexts);
  assert.ok(rwant.skipped.length > 10 && rwant.clusters.length > 100, `${rwant.skipped.length} skipped, ${rwant.clusters.length} clusters`);
  assert.deepEqual(await pool.dedup(rids, rtexts), rwant);
  assert.deepEqual(await pool.dedup(rids, rtexts, { verify: false, k: 6 }), dedup(rids, rtexts, { verify: false, k: 6 }));
  // Into an index (the CLI's --load/--save), in two runs.
  const fresh = () => new SimHashIndex({ k: 6, ids: 'string' });
  const [i1, i2] = [fresh(), fresh()];
  assert.deepEqual(await pool.dedupInto(i1, rids.slice(0, 500), rtexts.slice(0, 500), { verify: false }), i2.dedup(rids.slice(0, 500), rtexts.slice(0, 500), { verify: false }));
  assert.deepEqual(await pool.dedupInto(i1, rids, rtexts, { verify: false }), i2.dedup(rids, rtexts, { verify: false }));
  assert.deepEqual(i1.toBytes(), i2.toBytes());
  await pool.close();
});

test('close() mid-batch rejects with PoolClosed and leaves no worker (the process exits by itself)', () => {
  const script = `
    import { SimHashPool, SimHashError } from ${JSON.stringify(join(PKG, 'index.mjs'))};
    import { threadId } from 'node:worker_threads';
    const texts = Array.from({ length: 4000 }, (_, i) => 'lorem ipsum dolor sit amet '.repeat(200) + i);
    const pool = await SimHashPool.create({ size: 2 });
    const running = pool.fingerprintBatch(texts);
    await new Promise((r) => setTimeout(r, 30));
    const closing = pool.close();
    try { await running; console.log('resolved'); } catch (e) { console.log(e instanceof SimHashError, e.code); }
    await closing;
    try { await pool.fingerprintBatch(['x y z w v u']); } catch (e) { console.log('after', e.code); }
    // A dedup closed mid-way rejects the same way, and frees its workers too.
    const other = await SimHashPool.create({ size: 2 });
    const deduping = other.dedup(texts.map((_, i) => String(i)), texts);
    await new Promise((r) => setTimeout(r, 30));
    const closingOther = other.close();
    try { await deduping; console.log('dedup resolved'); } catch (e) { console.log('dedup', e.code); }
    await closingOther;
    // An idle pool never closed does not keep the process alive either.
    const idle = await SimHashPool.create({ size: 2 });
    console.log('idle', (await idle.fingerprintBatch(['a b c d e f g'])).length);
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.signal, null, `the process had to be killed: ${r.stderr}`);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, 'true PoolClosed\nafter PoolClosed\ndedup PoolClosed\nidle 1\n');
});

test('CLI: fingerprint (with and without --sketch) and dedup give the same output with --threads 2 as with --threads 1', () => {
  const dir = mkdtempSync(join(tmpdir(), 'simhash-pool-'));
  try {
    const docs = randomTexts(600, 13).map((text, i) => JSON.stringify({ id: `d${i}`, text }));
    const file = join(dir, 'docs.jsonl');
    writeFileSync(file, docs.join('\n') + '\n');
    const run = (...args) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 120_000 });
    const one = run('fingerprint', file, '--threads', '1');
    const two = run('fingerprint', file, '--threads', '2');
    assert.equal(one.status, 1, 'bad documents make the exit code 1');
    assert.ok(one.stdout.split('\n').length > 500);
    assert.ok(one.stderr.includes('d'), one.stderr);
    assert.equal(two.stdout, one.stdout);
    assert.equal(two.stderr, one.stderr);
    assert.equal(two.status, one.status);
    // --sketch: the workers make the sketches too.
    const sk1 = run('fingerprint', file, '--sketch', '--sketch-size', '64', '--threads', '1');
    const sk2 = run('fingerprint', file, '--sketch', '--sketch-size', '64', '--threads', '2');
    assert.ok(sk1.stdout.split('\n').length > 500 && /^d\d+\t[0-9a-f]{16}\t[0-9a-f]{132}$/m.test(sk1.stdout), sk1.stdout.slice(0, 200));
    assert.deepEqual([sk2.stdout, sk2.stderr, sk2.status], [sk1.stdout, sk1.stderr, sk1.status]);
    const d1 = execFileSync(process.execPath, [CLI, 'dedup', '--threads', '1', '--format', 'jsonl'], { encoding: 'utf8' });
    const d2 = execFileSync(process.execPath, [CLI, 'dedup', '--threads', '2', '--format', 'jsonl'], { encoding: 'utf8' });
    assert.ok(d1.split('\n').length > 5);
    assert.equal(d2, d1);
    // A JSONL file with the pool is read twice (texts not held): the same clusters, pairs,
    // skipped documents and summary as one thread holding every text, for both verifications.
    const mirrored = join(dir, 'mirrored.jsonl');
    const long = randomTexts(600, 13).find((t) => t.length > 300);
    const copies = Array.from({ length: 120 }, (_, i) => JSON.stringify({ id: `m${i}`, text: i % 3 ? `${long} ${'x'.repeat(i % 7)}` : long }));
    writeFileSync(mirrored, [...docs, ...copies, '', ...docs.slice(0, 200).map((l) => l.replace('"id":"d', '"id":"e').replace('"text":"', '"text":"# '))].join('\n') + '\n');
    // With --verify sketch the second pass fingerprints only the documents of the
    // candidate pairs: the table (each clustered document's fingerprint) and the pairs'
    // distances are those of one thread too.
    for (const [verify, format] of [[[], 'jsonl'], [['--verify', 'sketch'], 'jsonl'], [['--verify', 'sketch'], 'table']]) {
      const t1 = run('dedup', mirrored, '--threads', '1', '--format', format, ...verify);
      const t2 = run('dedup', mirrored, '--threads', '2', '--format', format, ...verify);
      assert.ok(t1.stdout.split('\n').length > 50 && /skipping d\d+/.test(t1.stderr), t1.stderr);
      assert.deepEqual([t2.stdout, t2.stderr, t2.status], [t1.stdout, t1.stderr, t1.status], `${verify.join(' ')} ${format}`);
    }
    const save1 = join(dir, 'a.idx'), save2 = join(dir, 'b.idx');
    assert.equal(run('dedup', file, '--threads', '2', '--save', save2, '--format', 'jsonl').stdout,
      run('dedup', file, '--threads', '1', '--save', save1, '--format', 'jsonl').stdout);
    assert.deepEqual(readFileSync(save2), readFileSync(save1));
    const bad = run('fingerprint', file, '--threads', '0');
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--threads needs a whole number/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a pool whose hasher has an IdfTable gives that hasher\'s fingerprints', async () => {
  const { IdfTable } = await import('../../pkg/index.mjs');
  const corpus = Array.from({ length: 40 }, (_, i) => `common words in every text here, and then document ${i} with its own topic ${i * 7919}`);
  const texts = corpus.slice(0, 12).concat(['the common words in every text here', 'a text of its own, with nothing in common']);
  const idf = IdfTable.learn(corpus);
  const other = IdfTable.learn(['nothing like the corpus at all, other words entirely', 'more words of another kind']);
  const pool = await SimHashPool.create({ size: 2, hasher: { idf } });
  const pool2 = await SimHashPool.create({ size: 2, hasher: { idf: other } });
  try {
    const want = new SimHasher({ idf }).fingerprintBatch(texts);
    assert.deepEqual(await pool.fingerprintBatch(texts), want);
    assert.deepEqual(await pool2.fingerprintBatch(texts), new SimHasher({ idf: other }).fingerprintBatch(texts));
    assert.notDeepEqual(want, new SimHasher().fingerprintBatch(texts), 'the table changes the fingerprints');
    // The table given to create may be freed: each worker holds its own.
    idf.free();
    assert.deepEqual(await pool.fingerprintBatch(texts), want);
  } finally {
    await pool.close();
    await pool2.close();
    other.free();
  }
});

test('dedup on the pool tells its progress: each phase in order, counts within their totals, each phase ending done', async () => {
  const pool = await SimHashPool.create({ size: 2 });
  const base = randomTexts(400, 21);
  const texts = [...base, ...base.slice(0, 150).map((t) => (t.length > 40 ? `${t.slice(0, 20)}#${t.slice(21)}` : t))];
  const ids = texts.map((_, i) => `d${i}`);
  for (const options of [{}, { verify: 'sketch' }]) {
    const told = [];
    const r = await pool.dedup(ids, texts, options, { onProgress: (phase, done, total) => told.push([phase, done, total]) });
    assert.deepEqual(r, dedup(ids, texts, options));
    const phases = [...new Set(told.map(([p]) => p))];
    assert.deepEqual(phases, ['hashing', 'candidates', 'verifying'], JSON.stringify(options));
    const last = (p) => told.filter(([q]) => q === p).at(-1);
    assert.deepEqual(last('hashing'), ['hashing', texts.length, texts.length]);
    assert.deepEqual(told.filter(([p]) => p === 'candidates'), [['candidates', 0, 2], ['candidates', 1, 2], ['candidates', 2, 2]]);
    const [, done, total] = last('verifying');
    assert.equal(done, total);
    if (options.verify === undefined) assert.ok(total > 100, `${total} pairs measured`);
    for (const [p, d, t] of told) assert.ok(d >= 0 && d <= t, `${p}: ${d} of ${t}`);
    // Within a phase the count never goes back.
    for (let i = 1; i < told.length; i++) {
      if (told[i][0] === told[i - 1][0]) assert.ok(told[i][1] >= told[i - 1][1], JSON.stringify(told.slice(i - 1, i + 1)));
    }
  }
  await pool.close();
});

test('CLI on a terminal: dedup of a JSONL file shows each phase, its count and its end', () => {
  const dir = mkdtempSync(join(tmpdir(), 'simhash-progress-'));
  try {
    const base = randomTexts(500, 23).filter((t) => t.length > 40);
    const docs = [...base, ...base.slice(0, 200).map((t) => `${t.slice(0, 20)}#${t.slice(21)}`)];
    const file = join(dir, 'docs.jsonl');
    writeFileSync(file, docs.map((text, i) => JSON.stringify({ id: `d${i}`, text })).join('\n') + '\n');
    // util-linux's `script` gives the CLI a terminal for stderr; stdout goes to a file.
    const onTerminal = (...args) => {
      const cmd = [process.execPath, CLI, 'dedup', file, '--threads', '2', '--format', 'jsonl', ...args]
        .map((a) => `'${a}'`).join(' ');
      const r = spawnSync('script', ['-qfec', `${cmd} > '${join(dir, 'out.jsonl')}'`, '/dev/null'], { encoding: 'utf8', timeout: 120_000 });
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.ok(readFileSync(join(dir, 'out.jsonl'), 'utf8').split('\n').length > 50);
      // Each state the bar showed, as the terminal got it (a carriage return and an erase before each).
      return r.stdout.split('\r\x1b[K').map((s) => s.trim()).filter(Boolean);
    };
    const exact = onTerminal();
    const n = docs.length.toLocaleString('en');
    assert.ok(exact.includes(`hashing: ${n} of ${n}`), exact.join(' | '));
    assert.ok(exact.includes('candidates: 2 of 2'), exact.join(' | '));
    assert.ok(exact.some((s) => /^verifying, round 1: ([\d,]+) of \1$/.test(s)), exact.join(' | '));
    assert.ok(!exact.some((s) => s.startsWith('fingerprinting')), exact.join(' | '));
    // The sketch flow fingerprints the candidate pairs' documents after the candidate step.
    const sketch = onTerminal('--verify', 'sketch');
    const at = (re) => sketch.findIndex((s) => re.test(s));
    const fp = at(/^fingerprinting: ([\d,]+) of \1$/);
    assert.ok(fp > at(/^candidates: 2 of 2$/) && at(/^candidates: 2 of 2$/) > at(new RegExp(`^hashing: ${n} of ${n}$`)), sketch.join(' | '));
    assert.ok(Number(sketch[fp].split(' ')[1].replace(/,/g, '')) > 100, sketch[fp]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
