// The index and the CLI through the npm package.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

import { SimHashIndex, SimHasher, hamming } from '../../pkg/index.mjs';

const bin = new URL('../../pkg/bin/simhash-wasm.mjs', import.meta.url).pathname;

test('index: string ids, query-and-insert, sorted results, errors keep the instance alive', () => {
  const ix = new SimHashIndex({ k: 3 });
  assert.equal(ix.idKind, undefined);
  const base = 0x0123456789abcdefn;
  assert.deepEqual(ix.queryAndInsert('https://a.example/', base), []);
  assert.equal(ix.idKind, 'string');
  assert.deepEqual(ix.queryAndInsert('https://b.example/', base ^ 0b101n), [{ id: 'https://a.example/', distance: 2 }]);
  ix.insert('https://c.example/', base);
  assert.deepEqual(ix.query(base), [
    { id: 'https://a.example/', distance: 0 },
    { id: 'https://c.example/', distance: 0 },
    { id: 'https://b.example/', distance: 2 },
  ]);
  assert.deepEqual(ix.query(base, 1).map((m) => m.id), ['https://a.example/', 'https://c.example/']);
  assert.throws(() => ix.insert('https://a.example/', 1n), (e) => e.code === 'DuplicateId' && /already/.test(e.message));
  assert.throws(() => ix.remove('https://nope.example/'), (e) => e.code === 'UnknownId');
  assert.throws(() => ix.insert(5, 1n), (e) => e.code === 'InvalidOption' && /string ids/.test(e.message));
  assert.equal(ix.remove('https://c.example/'), base);
  assert.equal(ix.size, 2);
  assert.deepEqual(ix.selfJoin(), [{ a: 'https://a.example/', b: 'https://b.example/', distance: 2 }]);
  assert.deepEqual(ix.clusters(), [['https://a.example/', 'https://b.example/']]);
  const st = ix.stats();
  assert.equal(st.tables, 4);
  assert.deepEqual(st.keyBits, [16, 16, 16, 16]);
});

test('index: numeric ids, batch insert and batch query agree with brute force', () => {
  let s = 42n;
  const rand = () => { s = (s * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn; return s; };
  const fps = new BigUint64Array(3000);
  for (let i = 0; i < fps.length; i++) fps[i] = i % 3 === 0 ? fps[i - 1 < 0 ? 0 : i - 1] ^ (1n << BigInt(i % 64)) : rand();
  const ids = [...fps.keys()];
  for (const layout of ['default', 'probe', [16, 12, 12, 12, 12], 'auto']) {
    const ix = new SimHashIndex({ k: 3, layout, ids: 'number', expectedSize: fps.length });
    ix.insertBatch(ids, fps);
    const queries = fps.slice(0, 200);
    const batch = ix.queryBatch(queries);
    queries.forEach((q, qi) => {
      const want = ids.map((id) => ({ id, distance: hamming(q, fps[id]) })).filter((m) => m.distance <= 3)
        .sort((x, y) => x.distance - y.distance || x.id - y.id);
      assert.deepEqual(batch[qi], want, `${JSON.stringify(layout)} query ${qi}`);
    });
    const flat = ix.queryBatchFlat(queries);
    assert.equal(flat.distances.length, batch.reduce((n, r) => n + r.length, 0));
  }
  assert.throws(() => new SimHashIndex({ k: 3, layout: [16, 16, 16] }), (e) => e.code === 'InvalidLayout');
  assert.throws(() => new SimHashIndex({ k: 4, layout: [16, 16, 16, 16] }), (e) => e.code === 'InvalidLayout');
  assert.throws(() => new SimHashIndex({ kk: 4 }), /only the keys/);
});

test('CLI: dedup on the shipped sample finds its known near-duplicates, verified', () => {
  const out = execFileSync(process.execPath, [bin, 'dedup'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const clusters = out.trim().split('\n').map((l) => JSON.parse(l));
  assert.ok(clusters.length >= 10, `${clusters.length} clusters`);
  const together = (a, b) => clusters.some((c) => c.ids.includes(a) && c.ids.includes(b));
  assert.ok(together('OLDAP-2.2', 'OLDAP-2.2.1'));
  assert.ok(together('PHP-3.0', 'PHP-3.01'));
  // Against the shipped truth (4-gram Jaccard >= 0.8): the pairs that join each cluster
  // (m - 1 for m documents) are all true, and the candidates (within k = 6, the default for a
  // collection this size, or sharing a MinHash band) put every true pair in one cluster
  // (within k = 13 alone: most; at k = 10, 107 of these 143).
  const truthPairs = readFileSync(new URL('../../pkg/sample/licenses.truth.tsv', import.meta.url), 'utf8')
    .trim().split('\n').slice(1).map((l) => l.split('\t').slice(0, 2));
  const truth = new Set(truthPairs.map((p) => [...p].sort().join('|')));
  const pairs = clusters.flatMap((c) => c.pairs.map((p) => [p.a, p.b].sort().join('|')));
  const hits = pairs.filter((p) => truth.has(p)).length;
  assert.ok(hits / pairs.length >= 0.95, `precision ${hits}/${pairs.length}`);
  const found = truthPairs.filter(([a, b]) => together(a, b)).length;
  assert.ok(found / truth.size >= 0.99, `recall ${found}/${truth.size}`);
  assert.ok(clusters.every((c) => c.pairs.length === c.size - 1), 'a spanning tree per cluster');
  assert.ok(clusters.every((c) => c.pairs.every((p) => p.jaccard >= 0.8 && p.distance <= 64)));
  assert.ok(clusters.some((c) => c.pairs.some((p) => p.distance > 13)), 'the band join finds pairs far apart in bits');
  // Without verification, fingerprints alone decide: more pairs, lower precision.
  const raw = execFileSync(process.execPath, [bin, 'dedup', '--verify', 'off'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const rawPairs = raw.trim().split('\n').flatMap((l) => JSON.parse(l).pairs);
  assert.ok(rawPairs.length > pairs.length && rawPairs.every((p) => p.jaccard == null));
});

test('CLI: fingerprint prints id TAB hex per document, from stdin JSONL', () => {
  const input = ['{"id":"a","text":"the cat sat on the mat"}', '{"id":"b","text":"we all scream for ice cream"}'].join('\n');
  const out = execFileSync(process.execPath, [bin, 'fingerprint', '-'], { input, encoding: 'utf8' });
  const h = new SimHasher();
  assert.equal(out, `a\t${h.fingerprint('the cat sat on the mat').toString(16).padStart(16, '0')}\nb\t${h.fingerprint('we all scream for ice cream').toString(16).padStart(16, '0')}\n`);
  // Ranges are the core's to check; the CLI shows its message.
  const bad = (...args) => () => execFileSync(process.execPath, [bin, 'dedup', ...args], { encoding: 'utf8', stdio: 'pipe' });
  assert.throws(bad('--k', '99'), (e) => /invalid option `k` = 99: expected an integer from 0 to 63/.test(e.stderr));
  assert.throws(bad('--ngram', '0'), (e) => /invalid option `ngram` = 0: expected an integer from 1 to 16/.test(e.stderr));
  assert.throws(bad('--k', 'ten'), (e) => /--k needs a number, not "ten"/.test(e.stderr));
  assert.throws(bad('--verify', '2'), (e) => /invalid option `verify` = 2/.test(e.stderr));
  assert.throws(bad('--format', 'xml'), (e) => /--format must be table or jsonl/.test(e.stderr));
});

/** Runs the CLI under a real pseudo-terminal (util-linux `script`), as a user at a terminal does. */
function onTerminal(args) {
  const cmd = [process.execPath, bin, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  const raw = execFileSync('script', ['-qec', cmd, '/dev/null'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  // As the terminal shows it: a line rewritten after a carriage return (the progress line)
  // shows its last form, and "erase to the end of the line" shows nothing.
  return raw.replace(/\r\n/g, '\n').split('\n').map((l) => l.slice(l.lastIndexOf('\r') + 1).replace(/\x1b\[K/g, '')).join('\n');
}

test('CLI: dedup prints a table on a terminal and JSON lines into a pipe; --format forces either', () => {
  const piped = execFileSync(process.execPath, [bin, 'dedup'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const clusters = piped.trim().split('\n').map((l) => JSON.parse(l));
  const tty = onTerminal(['dedup']);
  const header = tty.split('\n').findIndex((l) => /^cluster\s+fingerprint\s+id$/.test(l));
  assert.ok(header >= 0, tty.slice(0, 500));
  const rows = tty.split('\n').slice(header + 1).filter((l) => /^\d+\s+[0-9a-f]{16}  \S/.test(l));
  assert.equal(rows.length, clusters.reduce((n, c) => n + c.size, 0));
  assert.equal(new Set(rows.map((l) => l.split(/\s+/)[0])).size, clusters.length);
  assert.ok(tty.includes('near-duplicate clusters'), 'the summary still goes to the terminal (stderr)');
  const live = execFileSync('script', ['-qec', `'${process.execPath}' '${bin}' dedup`, '/dev/null'], { encoding: 'utf8' });
  assert.match(live, /hashing: 320 of 320/, 'a terminal sees the progress, phase by phase');
  assert.match(live, /verifying, round 1: [\d,]+ of [\d,]+/, 'verification, round by round');
  // Forced: JSON lines on a terminal, a table into a pipe.
  const forced = onTerminal(['dedup', '--format', 'jsonl']).split('\n').filter((l) => l.startsWith('{'));
  assert.deepEqual(forced.map((l) => JSON.parse(l)), clusters);
  const table = execFileSync(process.execPath, [bin, 'dedup', '--format', 'table'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  assert.deepEqual(table.trim().split('\n').slice(1), rows);
});

test('CLI: --save then --load finds what one run finds, through the core\'s dedup into an index', () => {
  const dir = mkdtempSync(join(tmpdir(), 'simhash-cli-'));
  const sample = readFileSync(new URL('../../pkg/sample/licenses.jsonl', import.meta.url), 'utf8').trim().split('\n');
  const half = Math.floor(sample.length / 2);
  writeFileSync(join(dir, 'first.jsonl'), sample.slice(0, half).join('\n'));
  writeFileSync(join(dir, 'rest.jsonl'), sample.slice(half - 5).join('\n'));   // 5 documents overlap
  writeFileSync(join(dir, 'all.jsonl'), sample.join('\n'));
  const run = (...args) => execFileSync(process.execPath, [bin, 'dedup', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const index = join(dir, 'index.bin');
  run(join(dir, 'first.jsonl'), '--save', index);
  assert.ok(existsSync(index));
  const resumed = run(join(dir, 'rest.jsonl'), '--load', index, '--save', index, '--format', 'jsonl');
  const once = run(join(dir, 'all.jsonl'), '--save', join(dir, 'once.bin'), '--format', 'jsonl');
  assert.ok(once.trim().split('\n').length >= 10);
  assert.equal(resumed, once);
  // Fingerprints alone decide by default there (k = 6), as the help says.
  const line = JSON.parse(once.split('\n')[0]);
  assert.ok(line.pairs.every((p) => p.jaccard === null && p.distance <= 6));
  // Verification needs every text: the documents only in the index have none here.
  assert.throws(() => run(join(dir, 'rest.jsonl'), '--load', index, '--verify', '0.8'),
    (e) => /its text was not given/.test(e.stderr));
  // With all the texts it works, and keeps only verified pairs.
  const verified = run(join(dir, 'all.jsonl'), '--load', index, '--verify', '0.8').trim().split('\n').flatMap((l) => JSON.parse(l).pairs);
  assert.ok(verified.length > 0 && verified.every((p) => p.jaccard >= 0.8));
  assert.throws(() => run(join(dir, 'rest.jsonl'), '--load', index, '--k', '3'), (e) => /built with --k 6, not 3/.test(e.stderr));
  assert.throws(() => run(join(dir, 'rest.jsonl'), '--load', index, '--ngram', '5'), (e) => /snapshot or namespace was made with ngram = 6/.test(e.stderr));
});

// What a user's folder and files hold: links, binary files, other encodings, HTML pages;
// and what a user types: misspelt options, a shell glob, --k auto, `| head`.
test('CLI: inputs as users have them, and options as they type them', async () => {
  const { symlinkSync, mkdirSync } = await import('node:fs');
  const { spawnSync } = await import('node:child_process');
  const run = (args, input) => spawnSync(process.execPath, [bin, ...args], { input, encoding: 'utf8' });
  const dir = mkdtempSync(join(tmpdir(), 'simhash-cli-inputs-'));
  const para = 'The river flooded the lower town twice that spring, and the council voted to build a new levee before the autumn rains came back to the valley.';
  mkdirSync(join(dir, 'docs', 'deep'), { recursive: true });
  writeFileSync(join(dir, 'docs', 'a.txt'), para);
  writeFileSync(join(dir, 'docs', 'deep', 'utf16.txt'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(para, 'utf16le')]));
  writeFileSync(join(dir, 'docs', 'bom.txt'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(para)]));
  writeFileSync(join(dir, 'docs', 'latin1.txt'), Buffer.from('caf\xe9 au lait, cr\xe8me br\xfbl\xe9e and a long enough text', 'latin1'));
  writeFileSync(join(dir, 'docs', 'image.txt'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]));
  const page = (body) => `<html><body><nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav><main><p>${body}</p></main><footer>The Valley Gazette, printed every morning since 1901. All rights reserved.</footer></body></html>`;
  writeFileSync(join(dir, 'docs', 'page.html'), page(para));
  symlinkSync(join(dir, 'docs', 'nowhere.txt'), join(dir, 'docs', 'dangling.txt'));
  symlinkSync(join(dir, 'docs'), join(dir, 'docs', 'deep', 'loop'));
  const r = run(['dedup', join(dir, 'docs'), '--format', 'jsonl']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /skipping latin1\.txt: not UTF-8 text/);
  assert.match(r.stderr, /skipping image\.txt: binary data/);
  assert.match(r.stderr, /skipping dangling\.txt: a link to nothing/);
  // The UTF-16 file, the one with a byte-order mark and the page's main content are the
  // same text as a.txt; the folder reached again through the loop is read once.
  const clusters = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(clusters.length, 1, r.stdout);
  assert.deepEqual(clusters[0].ids, ['a.txt', 'bom.txt', 'deep/utf16.txt', 'page.html']);
  assert.ok(clusters[0].pairs.every((p) => p.distance === 0), JSON.stringify(clusters[0].pairs));
  // JSONL: a byte-order mark, then lines that are not documents.
  const jsonl = join(dir, 'docs.jsonl');
  writeFileSync(jsonl, `\ufeff${JSON.stringify({ id: 'x', text: para })}\n${JSON.stringify({ id: 'y', text: para })}\n`);
  assert.equal(run(['fingerprint', jsonl]).stdout.split('\n')[0].split('\t')[0], 'x');
  for (const [line, message] of [['null', /:2: expected \{"id"/], ['[1,2]', /:2: expected \{"id"/], ['{"id":{"a":1},"text":"t"}', /:2: "id" must be a string or a number/]]) {
    writeFileSync(jsonl, `${JSON.stringify({ id: 'x', text: para })}\n${line}\n`);
    const e = run(['dedup', jsonl]);
    assert.equal(e.status, 2, line);
    assert.match(e.stderr, message, line);
  }
  // Two documents with one id: refused, not merged.
  writeFileSync(jsonl, `${JSON.stringify({ id: 7, text: para })}\n${JSON.stringify({ id: '7', text: `${para} Again.` })}\n`);
  const dup = run(['dedup', jsonl]);
  assert.equal(dup.status, 2);
  assert.match(dup.stderr, /docs\.jsonl:2: id "7" is on line 1 too/);
  // Options.
  for (const [args, message] of [
    [['dedup', '--treads', '1'], /unknown option --treads/],
    [['dedup', '-x'], /unknown option -x/],
    [['dedup', '--html=no'], /--html takes no value/],
    [['dedup', join(dir, 'docs', 'a.txt'), join(dir, 'docs', 'bom.txt')], /one PATH only, got 2/],
    // An option that does nothing where it is given is refused, not ignored.
    [['dedup', '--verify', 'sketch', '--sketch-size', '64'], /--sketch-size does nothing in dedup/],
    [['dedup', '--namespace', 'x'], /--namespace does nothing in dedup; it applies to dedup --redis/],
    [['dedup', '--redis', 'redis://127.0.0.1:1', '--namespace', 'n', '--save', 'x.bin'], /--save does nothing in dedup --redis/],
    [['dedup', '--redis', 'redis://127.0.0.1:1', '--namespace', 'n', '--format', 'table'], /--format does nothing in dedup --redis/],
    [['fingerprint', '--sketch-size', '64'], /--sketch-size needs --sketch/],
    [['explain', 'some text', '--k', '3'], /--k does nothing in explain/],
    [['dedup', '--save', join(dir, 'no-such-folder', 'x.bin')], /--save .*: cannot write in .*no-such-folder \(no such folder\)/],
  ]) {
    const e = run(args);
    assert.equal(e.status, 2, args.join(' '));
    assert.match(e.stderr, message, args.join(' '));
  }
  assert.equal(run(['--version']).stdout.trim(), JSON.parse(readFileSync(new URL('../../pkg/package.json', import.meta.url), 'utf8')).version);
  // Hidden folders and node_modules are not read; .markdown files are.
  mkdirSync(join(dir, 'docs', 'node_modules', 'pkg'), { recursive: true });
  mkdirSync(join(dir, 'docs', '.git'));
  writeFileSync(join(dir, 'docs', 'node_modules', 'pkg', 'README.md'), para);
  writeFileSync(join(dir, 'docs', '.git', 'notes.txt'), para);
  writeFileSync(join(dir, 'docs', 'notes.markdown'), para);
  const hidden = run(['dedup', join(dir, 'docs'), '--format', 'jsonl']);
  assert.match(hidden.stderr, /not reading 2 hidden or node_modules folders \(\.git, node_modules\)/);
  assert.deepEqual(JSON.parse(hidden.stdout.trim()).ids, ['a.txt', 'bom.txt', 'deep/utf16.txt', 'notes.markdown', 'page.html']);
  // The core's advice is given in the CLI's words.
  writeFileSync(jsonl, `${JSON.stringify({ id: 'dots', text: ' ... --- !!! ... --- !!! ' })}\n`);
  assert.match(run(['fingerprint', jsonl, '--punctuation', 'drop']).stderr, /keep punctuation with --punctuation keep$/m);
  // Options where they do something run (one accepted use of each refused elsewhere).
  for (const args of [
    ['explain', 'some text to explain here', '--sketch-size', '64', '--html', '--content', 'all'],
    ['fingerprint', jsonl, '--sketch', '--sketch-size', '64', '--threads', '1'],
    ['dedup', join(dir, 'docs', 'a.txt'), '--k', '3', '--layout', 'default', '--verify', 'off', '--format', 'jsonl'],
    ['dedup', join(dir, 'docs'), '--content', 'all', '--format', 'jsonl'],
  ]) {
    const ok = run(args);
    assert.equal(ok.status, 0, `${args.join(' ')}: ${ok.stderr}`);
  }
  // fingerprint exits 1 when it skipped a file, so a script sees the missing lines.
  const some = run(['fingerprint', join(dir, 'docs')]);
  assert.equal(some.status, 1, some.stderr);
  assert.match(some.stderr, /skipping image\.txt: binary data/);
  assert.ok(some.stdout.includes('a.txt\t'));
  const auto = run(['dedup', '--k', 'auto', '--format', 'jsonl']);
  assert.equal(auto.status, 0, auto.stderr);
  assert.equal(auto.stdout, run(['dedup', '--format', 'jsonl']).stdout);
  // More threads than lines start no more workers than lines.
  writeFileSync(jsonl, `${JSON.stringify({ id: 'x', text: para })}\n${JSON.stringify({ id: 'y', text: `${para} Again.` })}\n`);
  const many = spawnSync(process.execPath, [bin, 'dedup', jsonl, '--threads', '1000', '--format', 'jsonl'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(many.status, 0, many.stderr);
  // A reader that stops early (`| head -1`) ends the run quietly.
  const head = spawnSync('sh', ['-c', `"${process.execPath}" "${bin}" dedup --format table | head -1`], { encoding: 'utf8' });
  assert.equal(head.stdout.split('\n')[0].trim().split(/\s+/)[0], 'cluster');
  assert.doesNotMatch(head.stderr, /EPIPE|at .*\.mjs/);
  // An id with a tab is quoted in id<TAB>hex output, so each line stays two fields.
  writeFileSync(jsonl, `${JSON.stringify({ id: 'a\tb', text: para })}\n`);
  assert.deepEqual(run(['fingerprint', jsonl]).stdout.trim().split('\t').length, 2);
});
