// npm run bench:dedup [-- --quick] [-- --sizes 100000,300000] [-- --no-peers]
//   [-- --collections-only] (writes the collections, runs nothing)
//
// The main job at scale: the CLI's `dedup` (the default flow, exact verification, every
// core) on collections of 100k, 300k and 1M documents (quick: 5k and 20k), built from the
// dev corpus with seeded near-duplicates whose truth is kept.
//
// A collection: base documents made of sentences drawn at random from the dev corpus's
// documents of one language (so two bases share little), lengths drawn from the corpus's,
// at least 60 characters and capped per language so that the mean is near 1.4 kB of UTF-8
// (held-out text of the kind users dedup: 30 MB in 21,068 documents); then edited copies
// of earlier documents (1 to 10 % of the words, Chinese: characters, deleted, inserted or
// substituted), 15 % of the collection; and mirrors (one document copied 1,000 times, one
// in 100k documents), the case that makes pairwise output quadratic. Every planted (copy,
// source) pair is kept with its exact Jaccard, computed as the dev corpus's truth is
// (NFKC, lower case, whitespace runs to one space, the set of 4-code-point substrings); a
// collection is written once to target/bench-dedup/ and reused.
//
// Figures:
//   docs_s_100k, docs_s_1m  documents a second, end to end (reading and output included)
//   hash_share_1m           time of `fingerprint --sketch` (the pool hashing and sketching
//                           alone, reading included) over the dedup's time, at 1M
//   peak_mb_1m              the dedup's peak resident memory (VmHWM), in MB
//   scale_ratio             time(1M) / time(100k)
//   planted_r, planted_p    over every size run: the share of planted pairs with J >= 0.8
//                           whose documents share a cluster; the share of reported pairs
//                           whose exact Jaccard is >= 0.8
//   sketch_s_1m             seconds of `dedup --verify sketch` at 1M
//   peer_docs_s, peer_ratio the faster of rensa and datasketch (installed from PyPI in
//                           target/bench-venv) at 100k, and ours over it
//   f1_100k, peer_f1        F1 of planted recall and reported precision at 100k: ours, and
//                           the faster peer's
//   planted_r_min, planted_p_min  the same two, at the size where each is lowest
//   cluster_p               one pair of members drawn from each cluster (at most 20,000, over
//                           every size run): the share with J >= 0.8 (a cluster chains pairs)
//   sketch_share_1m, sketch_f1_1m  `dedup --verify sketch` at 1M: its time over the default
//                           flow's, and its F1 (planted recall, reported precision)
// A size that is not run prints `NA`. --quick runs 5k and 20k and reports them under the
// 100k and 1M keys, with `quick=1` on the line; no peers.
import { spawn, execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, openSync, readSync, writeSync, closeSync, readFileSync, renameSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const flag = (name) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
const SIZES = (flag('--sizes') ?? (quick ? '5000,20000' : '100000,300000,1000000')).split(',').map(Number);
const SMALL = SIZES[0];
const LARGE = SIZES[SIZES.length - 1];
const PEERS = !quick && !argv.includes('--no-peers');
const corpus = process.env.SIMHASH_DEVCORPUS ?? join(root, 'target', 'devcorpus');
const out = join(root, 'target', 'bench-dedup');
const cli = join(root, 'pkg', 'bin', 'simhash-wasm.mjs');
const COPY_SHARE = 0.15;
const MIRROR_EVERY = 100_000;
const MIRROR_COPIES = 1_000;
const MEAN_TARGET = 1400; // bytes of UTF-8 a base document, on average
// The collections' definition, in their file names: one of another definition is never reused.
const VERSION = 'v2';
const SEED = 20261126;

// --- the truth's Jaccard (shared/corpus/README.md, "The truth definition") -------------
const SPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;
function shingleSet(text) {
  const t = Array.from(text.normalize('NFKC').toLowerCase().replace(SPACE, ' ').trim());
  const s = new Set();
  if (t.length < 4) { s.add(t.join('')); return s; }
  for (let i = 0; i + 4 <= t.length; i++) s.add(t[i] + t[i + 1] + t[i + 2] + t[i + 3]);
  return s;
}
function jaccard(a, b) {
  const [x, y] = a.size < b.size ? [a, b] : [b, a];
  let inter = 0;
  for (const s of x) if (y.has(s)) inter++;
  const union = a.size + b.size - inter;
  return union === 0 ? 1 : inter / union;
}

// --- a seeded generator (xorshift128+ over two 32-bit halves is enough here) -------------
function rng(seed) {
  let a = seed >>> 0 || 1; let b = (seed * 2654435761) >>> 0 || 2; let c = 0x9e3779b9; let d = 0x7f4a7c15;
  return () => { // sfc32
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    const t = (a + b) | 0; a = b ^ (b >>> 9); b = (c + (c << 3)) | 0; c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0; const r = (t + d) | 0; c = (c + r) | 0;
    return (r >>> 0) / 4294967296;
  };
}

/** The dev corpus as sentence pools and length samples, per language. */
function loadCorpus() {
  const path = join(corpus, 'docs.jsonl');
  if (!existsSync(path)) throw new Error(`no dev corpus at ${path}: run scripts/setup.sh --corpus`);
  const pools = { en: [], zh: [] }; const lengths = { en: [], zh: [] }; const words = { en: [], zh: [] };
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line) continue;
    const d = JSON.parse(line);
    const lang = d.lang === 'zh' ? 'zh' : 'en';
    lengths[lang].push([d.text.length, Buffer.byteLength(d.text)]);
    for (const s of d.text.split(lang === 'zh' ? /(?<=[。！？!?\n])/u : /(?<=[.!?])\s+|\n{2,}/u)) {
      const t = s.trim();
      // A sentence of words: a table rule or a run of dots is not one.
      if (t.length >= 12 && t.length <= 600 && (t.match(/\p{L}/gu) ?? []).length >= 8) pools[lang].push(t);
    }
    if (words[lang].length < 200_000) {
      for (const w of lang === 'zh' ? Array.from(d.text.replace(/\s+/g, '')) : d.text.split(/\s+/)) if (w) words[lang].push(w);
    }
  }
  const caps = { en: capFor(lengths.en), zh: capFor(lengths.zh) };
  return { pools, lengths: { en: lengths.en.map((l) => l[0]), zh: lengths.zh.map((l) => l[0]) }, caps, words, enShare: lengths.en.length / (lengths.en.length + lengths.zh.length) };
}

/**
 * The length cap (in characters) at which documents of these [characters, bytes] lengths,
 * each raised to 60 characters and cut at the cap, average MEAN_TARGET bytes.
 */
function capFor(lengths) {
  const mean = (cap) => lengths.reduce((s, [c, b]) => s + (b / Math.max(1, c)) * Math.max(60, Math.min(c, cap)), 0) / lengths.length;
  let lo = 60;
  let hi = Math.max(...lengths.map((l) => l[0]));
  if (mean(hi) <= MEAN_TARGET) return hi;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (mean(mid) < MEAN_TARGET) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** Copies `text` with `rate` of its words (Chinese: characters) deleted, inserted or substituted. */
function edit(text, lang, rate, words, r) {
  const toks = lang === 'zh' ? Array.from(text) : text.split(/(\s+)/);
  const n = Math.max(1, Math.round(rate * toks.length / (lang === 'zh' ? 1 : 2)));
  for (let k = 0; k < n; k++) {
    let at = Math.floor(r() * toks.length);
    if (lang !== 'zh') at -= at % 2; // a word, not the space after it
    const w = words[Math.floor(r() * words.length)];
    const op = r();
    if (op < 1 / 3) toks.splice(at, lang === 'zh' ? 1 : 2);
    else if (op < 2 / 3) toks.splice(at, 0, ...(lang === 'zh' ? [w] : [w, ' ']));
    else toks[at] = w;
  }
  return toks.join('');
}

/** Writes the collection of `n` documents and its truth, unless they exist. */
function makeCollection(n, src) {
  mkdirSync(out, { recursive: true });
  const docsPath = join(out, `docs-${n}.${VERSION}.jsonl`);
  const truthPath = join(out, `truth-${n}.${VERSION}.tsv`);
  if (existsSync(docsPath) && existsSync(truthPath)) return { docsPath, truthPath };
  const t0 = Date.now();
  const r = rng(SEED + n);
  const mirrors = Math.max(1, Math.floor(n / MIRROR_EVERY));
  const mirrorCopies = Math.min(MIRROR_COPIES, Math.floor(n / 20));
  const docs = []; // [id, lang, text]
  const truth = [];
  const base = () => {
    const lang = r() < src.enShare ? 'en' : 'zh';
    const lens = src.lengths[lang];
    const cap = src.caps[lang];
    const want = Math.max(60, Math.min(lens[Math.floor(r() * lens.length)], cap));
    const pool = src.pools[lang];
    let text = '';
    while (text.length < want) text += (text ? (lang === 'zh' ? '' : ' ') : '') + pool[Math.floor(r() * pool.length)];
    return [lang, text];
  };
  const plant = (id, lang, text, sourceId, sourceText) => {
    docs.push([id, lang, text]);
    truth.push([id, sourceId, jaccard(shingleSet(text), shingleSet(sourceText))]);
  };
  const plain = n - mirrors * mirrorCopies;
  for (let i = 0; i < plain; i++) {
    if (i > 100 && r() < COPY_SHARE) {
      const [sid, lang, stext] = docs[Math.floor(r() * docs.length)];
      plant(`c${i}`, lang, edit(stext, lang, 0.01 + 0.09 * r(), src.words[lang], r), sid, stext);
    } else {
      const [lang, text] = base();
      docs.push([`b${i}`, lang, text]);
    }
  }
  for (let m = 0; m < mirrors; m++) {
    const [sid, lang, stext] = docs[Math.floor(r() * docs.length)];
    for (let j = 0; j < mirrorCopies; j++) {
      const text = j % 2 ? stext : edit(stext, lang, 0.002, src.words[lang], r);
      plant(`m${m}-${j}`, lang, text, sid, stext);
    }
  }
  for (let i = docs.length - 1; i > 0; i--) { // seeded shuffle: copies before or after sources
    const j = Math.floor(r() * (i + 1));
    [docs[i], docs[j]] = [docs[j], docs[i]];
  }
  const fd = openSync(`${docsPath}.tmp`, 'w');
  let buf = ''; let bytes = 0;
  for (const [id, , text] of docs) {
    buf += `${JSON.stringify({ id, text })}\n`;
    if (buf.length > 1 << 22) { bytes += writeSync(fd, buf); buf = ''; }
  }
  bytes += writeSync(fd, buf);
  closeSync(fd);
  const tfd = openSync(`${truthPath}.tmp`, 'w');
  writeSync(tfd, 'copy\tsource\tjaccard\n' + truth.map((t) => `${t[0]}\t${t[1]}\t${t[2].toFixed(6)}`).join('\n') + '\n');
  closeSync(tfd);
  renameSync(`${docsPath}.tmp`, docsPath);
  renameSync(`${truthPath}.tmp`, truthPath);
  console.error(`collection ${n}: ${docs.length} documents, ${(bytes / 1e6).toFixed(0)} MB, ${truth.length} planted copies, ` +
    `${mirrors} x ${mirrorCopies} mirrors, base lengths capped at ${src.caps.en} (en) and ${src.caps.zh} (zh) characters (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  return { docsPath, truthPath };
}

/** Runs a command, timing it and sampling its peak resident memory (VmHWM). */
function run(cmd, args, { stdout = 'ignore', env = process.env, okCodes = [0] } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const p = spawn(cmd, args, { stdio: ['ignore', stdout === 'ignore' ? 'ignore' : 'pipe', 'pipe'], env });
    let peakKb = 0; let err = ''; const chunks = [];
    const sample = () => {
      try {
        const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${p.pid}/status`, 'utf8'));
        if (m) peakKb = Math.max(peakKb, Number(m[1]));
      } catch { /* gone */ }
    };
    const timer = setInterval(sample, 100);
    p.stdout?.on('data', (c) => chunks.push(c));
    p.stderr.on('data', (c) => { err += c; if (err.length > 1 << 16) err = err.slice(-(1 << 15)); });
    p.on('error', reject);
    p.on('exit', (code) => {
      clearInterval(timer);
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      if (!okCodes.includes(code)) return reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err.slice(-2000)}`));
      resolve({ seconds, peakMb: peakKb / 1024, stdout: Buffer.concat(chunks).toString('utf8'), stderr: err });
    });
  });
}

/** The planted pairs with J >= 0.8, as [copy, source]. */
function planted(truthPath) {
  return readFileSync(truthPath, 'utf8').split('\n').slice(1).filter(Boolean)
    .map((l) => l.split('\t')).filter((f) => Number(f[2]) >= 0.8).map((f) => [f[0], f[1]]);
}

/** Texts of `ids`, read back from the collection. */
async function textsOf(docsPath, ids) {
  const want = new Set(ids); const texts = new Map();
  const rl = createInterface({ input: createReadStream(docsPath), crlfDelay: Infinity });
  for await (const line of rl) {
    const i = line.indexOf('"id":"');
    const id = line.slice(i + 6, line.indexOf('"', i + 6));
    if (want.has(id)) texts.set(id, JSON.parse(line).text);
  }
  return texts;
}

/**
 * Recall on the planted pairs and precision of the reported pairs (`pairs`: [a, b]), and
 * the share of the pairs `inside` (drawn inside clusters: `insidePairs`) with J >= 0.8; the
 * texts of both samples are read back in one pass over the collection.
 */
async function score(docsPath, truthPath, pairs, clusterOf, inside = []) {
  const truth = planted(truthPath);
  const found = truth.filter(([a, b]) => clusterOf.has(a) && clusterOf.get(a) === clusterOf.get(b)).length;
  // Precision over a sample of at most 20,000 reported pairs (all of them when fewer).
  const step = Math.max(1, Math.ceil(pairs.length / 20_000));
  const sample = pairs.filter((_, i) => i % step === 0);
  const texts = await textsOf(docsPath, [...sample.flat(), ...inside.flat()]);
  const sets = new Map();
  const set = (id) => { if (!sets.has(id)) sets.set(id, shingleSet(texts.get(id))); return sets.get(id); };
  const near = ([a, b]) => jaccard(set(a), set(b)) >= 0.8;
  return {
    truth: truth.length, found, checked: sample.length, good: sample.filter(near).length,
    insideChecked: inside.length, insideGood: inside.filter(near).length,
  };
}

/**
 * For precision inside the clusters, not only on the reported pairs: one pair of members
 * drawn (seeded) from each of at most 20,000 clusters. A cluster joins documents through
 * chains of near-duplicate pairs, so two of its members can sit further apart than any
 * reported pair; one pair a cluster keeps the mirrored documents from outweighing the rest.
 */
function insidePairs(clusterOf) {
  const members = new Map();
  for (const [id, c] of clusterOf) {
    if (!members.has(c)) members.set(c, []);
    members.get(c).push(id);
  }
  const all = [...members.values()].filter((m) => m.length > 1);
  const step = Math.max(1, Math.ceil(all.length / 20_000));
  let x = SEED >>> 0;
  const next = (n) => { x = (Math.imul(x, 1664525) + 1013904223) >>> 0; return x % n; };
  return all.filter((_, i) => i % step === 0).map((m) => {
    const a = next(m.length); const b = (a + 1 + next(m.length - 1)) % m.length;
    return [m[a], m[b]];
  });
}

/** The clusters and pairs the CLI printed (JSON lines). */
function parseDedup(stdout) {
  const clusterOf = new Map(); const pairs = [];
  for (const line of stdout.split('\n')) {
    if (!line) continue;
    const c = JSON.parse(line);
    for (const id of c.ids) clusterOf.set(id, c.cluster);
    for (const p of c.pairs ?? c.edges ?? []) pairs.push([p.a, p.b]);
  }
  return { clusterOf, pairs };
}

/** Union-find clusters of peer pairs. */
function clustersOfPairs(pairs) {
  const parent = new Map();
  const find = (x) => { while (parent.has(x) && parent.get(x) !== x) { const p = parent.get(parent.get(x)) ?? parent.get(x); parent.set(x, p); x = p; } return x; };
  for (const [a, b] of pairs) {
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    const ra = find(a); const rb = find(b);
    if (ra !== rb) parent.set(ra, rb);
  }
  const clusterOf = new Map();
  for (const x of parent.keys()) clusterOf.set(x, find(x));
  return clusterOf;
}

function venv() {
  const dir = join(root, 'target', 'bench-venv');
  const py = join(dir, 'bin', 'python');
  if (!existsSync(py)) execFileSync('python3', ['-m', 'venv', dir], { stdio: 'inherit' });
  try {
    execFileSync(py, ['-c', 'import rensa, datasketch'], { stdio: 'ignore' });
  } catch {
    console.error('installing the peers from PyPI into target/bench-venv (rensa 0.5.0, datasketch 2.0.0)');
    execFileSync(join(dir, 'bin', 'pip'), ['install', '-q', 'rensa==0.5.0', 'datasketch==2.0.0'], { stdio: 'inherit' });
  }
  return py;
}

/** F1 of a score: planted recall and the precision of the reported pairs. */
const f1 = (s) => { const r = s.found / s.truth; const p = s.good / s.checked; return (2 * p * r) / (p + r); };
const fmt = (x, d = 3) => (x === undefined || Number.isNaN(x) ? 'NA' : x.toFixed(d));

/**
 * Reads `path` once and drops it, so that every timed run (ours and the peers', which come
 * after ours) finds the collection in the page cache: a run's time is then its work, not
 * whether the file was read last.
 */
function warm(path) {
  const fd = openSync(path, 'r');
  const chunk = Buffer.allocUnsafe(16 << 20);
  try {
    while (readSync(fd, chunk, 0, chunk.length, null) > 0) { /* dropped */ }
  } finally {
    closeSync(fd);
  }
}

async function main() {
  if (!existsSync(cli)) throw new Error('no pkg/: run scripts/build.sh');
  const src = loadCorpus();
  if (argv.includes('--collections-only')) { for (const n of SIZES) makeCollection(n, src); return; }
  const runs = {};
  let truthTotal = 0; let found = 0; let checked = 0; let good = 0; let clusterChecked = 0; let clusterGood = 0;
  for (const n of SIZES) {
    const { docsPath, truthPath } = makeCollection(n, src);
    warm(docsPath);
    const r = await run('node', [cli, 'dedup', docsPath, '--format', 'jsonl'], { stdout: 'pipe' });
    const { clusterOf, pairs } = parseDedup(r.stdout);
    const s = await score(docsPath, truthPath, pairs, clusterOf, insidePairs(clusterOf));
    truthTotal += s.truth; found += s.found; checked += s.checked; good += s.good;
    clusterChecked += s.insideChecked; clusterGood += s.insideGood;
    runs[n] = { seconds: r.seconds, peakMb: r.peakMb, f1: f1(s), r: s.found / s.truth, p: s.good / s.checked };
    console.error(`dedup ${n}: ${r.seconds.toFixed(1)} s, peak ${r.peakMb.toFixed(0)} MB, ${clusterOf.size} documents in clusters, ` +
      `${pairs.length} pairs; planted recall ${s.found}/${s.truth}, precision ${s.good}/${s.checked}, ` +
      `a pair inside a cluster ${s.insideGood}/${s.insideChecked}`);
    console.error(`  ${r.stderr.trim().split('\n').pop()}`);
    if (n === LARGE) {
      // Exit 1: some documents could not be fingerprinted (each named on stderr).
      const h = await run('node', [cli, 'fingerprint', docsPath, '--sketch'], { okCodes: [0, 1] });
      runs[n].hashSeconds = h.seconds;
      const sk = await run('node', [cli, 'dedup', docsPath, '--format', 'jsonl', '--verify', 'sketch'], { stdout: 'pipe' });
      const skp = parseDedup(sk.stdout);
      const sks = await score(docsPath, truthPath, skp.pairs, skp.clusterOf);
      runs[n].sketchSeconds = sk.seconds;
      runs[n].sketchF1 = f1(sks);
      console.error(`fingerprint --sketch ${n}: ${h.seconds.toFixed(1)} s; dedup --verify sketch: ${sk.seconds.toFixed(1)} s, ` +
        `peak ${sk.peakMb.toFixed(0)} MB, planted recall ${sks.found}/${sks.truth}, precision ${sks.good}/${sks.checked}`);
    }
  }
  let peer;
  if (PEERS && SIZES.includes(100_000)) {
    const py = venv();
    const { docsPath, truthPath } = makeCollection(100_000, src);
    for (const name of ['rensa', 'datasketch']) {
      const pairsPath = join(out, `peer-${name}.tsv`);
      const r = await run(py, [join(root, 'scripts', 'bench-dedup-peers.py'), name, docsPath, pairsPath], { stdout: 'pipe' });
      const pairs = readFileSync(pairsPath, 'utf8').split('\n').filter(Boolean).map((l) => l.split('\t'));
      const s = await score(docsPath, truthPath, pairs, clustersOfPairs(pairs));
      const docsS = 100_000 / r.seconds;
      console.error(`${name} 100000: ${r.seconds.toFixed(1)} s, peak ${r.peakMb.toFixed(0)} MB, planted recall ${s.found}/${s.truth}, precision ${s.good}/${s.checked}`);
      if (!peer || docsS > peer.docsS) peer = { name, docsS, f1: f1(s) };
    }
  }
  const small = runs[SMALL]; const large = runs[LARGE];
  const docsSmall = SMALL / small.seconds; const docsLarge = LARGE / large.seconds;
  const line = [
    `docs_s_100k=${fmt(docsSmall, 0)}`,
    `docs_s_1m=${fmt(docsLarge, 0)}`,
    `hash_share_1m=${fmt(large.hashSeconds / large.seconds)}`,
    `peak_mb_1m=${fmt(large.peakMb, 0)}`,
    `scale_ratio=${fmt(large.seconds / small.seconds, 2)}`,
    `planted_r=${fmt(found / truthTotal)}`,
    `planted_p=${fmt(good / checked)}`,
    `sketch_s_1m=${fmt(large.sketchSeconds, 1)}`,
    `peer_docs_s=${peer ? fmt(peer.docsS, 0) : 'NA'}`,
    `peer_ratio=${peer && runs[100_000] ? fmt(100_000 / runs[100_000].seconds / peer.docsS, 2) : 'NA'}`,
    `f1_100k=${fmt(small.f1)}`,
    `peer_f1=${peer ? fmt(peer.f1) : 'NA'}`,
    `planted_r_min=${fmt(Math.min(...SIZES.map((n) => runs[n].r)))}`,
    `planted_p_min=${fmt(Math.min(...SIZES.map((n) => runs[n].p)))}`,
    `cluster_p=${fmt(clusterGood / clusterChecked)}`,
    `sketch_share_1m=${fmt(large.sketchSeconds / large.seconds)}`,
    `sketch_f1_1m=${fmt(large.sketchF1)}`,
  ];
  if (quick || SMALL !== 100_000 || LARGE !== 1_000_000) line.push(`sizes=${SMALL},${LARGE}`);
  if (quick) line.push('quick=1');
  console.log(`RESULT ${line.join(' ')}`);
}

main().catch((e) => { console.error(e.stack ?? e.message); process.exit(1); });
