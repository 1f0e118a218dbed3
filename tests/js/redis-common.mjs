// Shared parts of the Redis tests: a page stream with planted near-duplicates, the worker
// runner, and the invariant checks.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';

const worker = fileURLToPath(new URL('./redis-worker.mjs', import.meta.url));

export function rng(seed) {
  let s = BigInt(seed);
  return () => {
    s = (s + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
    return z ^ (z >> 31n);
  };
}

export function popcount(x) {
  let n = 0;
  while (x) {
    x &= x - 1n;
    n++;
  }
  return n;
}

/** `n` pages; about `dupShare` of them are 0..k bits from an earlier page, some are k+1..k+3. */
export function pageStream(n, { seed = 1, dupShare = 0.3, k = 3 } = {}) {
  const next = rng(seed);
  const pages = [];
  for (let i = 0; i < n; i++) {
    let fp;
    const r = Number(next() % 1000n) / 1000;
    if (pages.length && r < dupShare + 0.05) {
      fp = pages[Number(next() % BigInt(pages.length))].fp;
      const flips = r < dupShare ? Number(next() % BigInt(k + 1)) : k + 1 + Number(next() % 3n);
      for (let f = 0; f < flips; f++) fp ^= 1n << (next() % 64n);
    } else {
      fp = next();
    }
    pages.push({ url: `https://site.example/p${i}`, fp });
  }
  return pages;
}

/** Runs `workers` processes over `pages`, dealt at random; resolves with every result line. */
/** `onProgress(done)` is called as result lines arrive (`done`: lines so far, all workers). */
export async function runWorkers(target, namespace, pages, workers, { seed = 2, k = 3, retries = 0, batch = 1, sketch, onSpawn, onProgress } = {}) {
  let done = 0;
  const next = rng(seed);
  const shares = Array.from({ length: workers }, () => []);
  for (const p of pages) shares[Number(next() % BigInt(workers))].push(p.text !== undefined ? { url: p.url, text: p.text } : { url: p.url, fp: p.fp.toString(16) });
  const runs = shares.map(
    (share) =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [worker], { stdio: ['pipe', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => {
          out += d;
          if (onProgress) {
            for (const c of d) if (c === 10) done++;
            onProgress(done);
          }
        });
        child.stderr.on('data', (d) => (err += d));
        child.on('exit', (code) => {
          const lines = out.split('\n').filter(Boolean).map((l) => JSON.parse(l));
          if (code !== 0 && !onSpawn && !onProgress) reject(new Error(`worker exited ${code}: ${err}`));
          else resolve({ lines, code, err });
        });
        child.stdin.end(JSON.stringify({ target, namespace, pages: share, k, retries, batch, sketch }));
      }),
  );
  if (onSpawn) onSpawn();
  const lines = (await Promise.all(runs)).flatMap((r) => r.lines);
  // Each worker's last line counts the calls it repeated after a failure.
  const results = lines.filter((l) => l.retriedCalls === undefined);
  results.retriedCalls = lines.reduce((s, l) => s + (l.retriedCalls ?? 0), 0);
  return results;
}

/** The three invariants, against what the namespace holds now. */
export async function checkInvariants(seen, pages, results, k = 3) {
  const fpOf = new Map(pages.map((p) => [p.url, p.fp]));
  const stored = [];
  for await (const p of seen.clusters({ batch: 200 })) stored.push(p);
  assert.equal(await seen.size, stored.length, 'size matches the stored pages');
  // 1. No two stored pages within k.
  for (let i = 0; i < stored.length; i++) {
    for (let j = i + 1; j < stored.length; j++) {
      const d = popcount(stored[i].fingerprint ^ stored[j].fingerprint);
      assert.ok(d > k, `stored ${stored[i].id} and ${stored[j].id} are ${d} bits apart`);
    }
  }
  const storedUrls = new Set(stored.map((p) => p.id));
  for (const p of stored) assert.equal(p.fingerprint, fpOf.get(p.id), `stored fingerprint of ${p.id}`);
  const decided = results.filter((r) => !r.error);
  for (const r of decided) {
    if (r.duplicate) {
      // 2. Every duplicate has a stored page within k.
      const fp = fpOf.get(r.url);
      assert.ok(stored.some((s) => popcount(s.fingerprint ^ fp) <= k), `${r.url} was called a duplicate with no stored page within k`);
      assert.ok(storedUrls.has(r.cluster), `${r.url}'s cluster ${r.cluster} is stored`);
    } else {
      assert.ok(storedUrls.has(r.url), `new page ${r.url} is stored`);
    }
  }
  // 3. Stored pages plus counts account for every page.
  const total = stored.reduce((a, p) => a + p.count, 0);
  return { stored, total, decided: decided.length };
}

/**
 * `n` pages of real text (the package's sample licences, as windows of 120 to 300 words)
 * with planted near-duplicates of earlier pages: about `dupShare` of them are one changed
 * word, a few changed words, a site header added, or the last words cut; a few more are
 * heavier edits (a fifth of the words changed), which may fall either side of the
 * threshold. Texts are made the same on every run (seeded).
 */
export function textStream(n, { seed = 1, dupShare = 0.3 } = {}) {
  const licences = readFileSync(new URL('../../pkg-template/sample/licenses.jsonl', import.meta.url), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l).text.split(/\s+/).filter(Boolean))
    .filter((w) => w.length >= 150);
  const next = rng(seed);
  const pick = (m) => Number(next() % BigInt(m));
  const pages = [];
  for (let i = 0; i < n; i++) {
    let words;
    const r = pick(1000) / 1000;
    if (pages.length && r < dupShare + 0.05) {
      words = pages[pick(pages.length)].words.slice();
      const kind = r < dupShare ? pick(4) : 4;
      if (kind === 0) words[pick(words.length)] = 'changed';
      else if (kind === 1) for (let e = 0; e < 4; e++) words[pick(words.length)] = `edit${pick(100)}`;
      else if (kind === 2) words.unshift('Home', '|', 'About', '|', 'Mirror', `site${pick(50)}`);
      else if (kind === 3) words.length -= Math.min(6, words.length >> 4);
      else for (let e = 0; e < words.length / 5; e++) words[pick(words.length)] = `w${pick(1000)}`;
    } else {
      const src = licences[pick(licences.length)];
      const len = Math.min(src.length, 120 + pick(181));
      const at = pick(src.length - len + 1);
      words = src.slice(at, at + len);
    }
    pages.push({ url: `https://site.example/t${i}`, words, text: words.join(' ') });
  }
  return pages.map(({ url, text }) => ({ url, text }));
}

/**
 * Sketch mode's invariants, against what the namespace holds now: no two stored pages
 * whose estimate reaches `t` (or within k, when one has no sketch); every page called a
 * duplicate has a stored page whose estimate reaches `t` (or within k without a sketch);
 * new pages are stored. `sketchOf(url)` and `fpOf(url)` give the page's sketch and
 * fingerprint; `estimate(a, b)` the estimated Jaccard similarity.
 */
export async function checkSketchInvariants(seen, results, { fpOf, sketchOf, estimate, t = 0.81, k = 3 }) {
  const stored = [];
  for await (const p of seen.clusters({ batch: 200 })) stored.push(p);
  assert.equal(await seen.size, stored.length, 'size matches the stored pages');
  const alike = (a, b) => {
    const sa = sketchOf(a);
    const sb = sketchOf(b);
    if (sa && sb) return estimate(sa, sb) >= t;
    return popcount(fpOf(a) ^ fpOf(b)) <= k;
  };
  for (const p of stored) assert.equal(p.fingerprint, fpOf(p.id), `stored fingerprint of ${p.id}`);
  for (let i = 0; i < stored.length; i++) {
    for (let j = i + 1; j < stored.length; j++) {
      assert.ok(!alike(stored[i].id, stored[j].id), `stored ${stored[i].id} and ${stored[j].id} are near-duplicates`);
    }
  }
  const storedUrls = new Set(stored.map((p) => p.id));
  const decided = results.filter((r) => !r.error);
  for (const r of decided) {
    if (r.duplicate) {
      assert.ok(stored.some((s) => alike(s.id, r.url)), `${r.url} was called a duplicate with no stored near-duplicate`);
      assert.ok(storedUrls.has(r.cluster), `${r.url}'s cluster ${r.cluster} is stored`);
      assert.ok(alike(r.cluster, r.url), `${r.url}'s cluster ${r.cluster} is a near-duplicate of it`);
    } else {
      assert.ok(storedUrls.has(r.url), `new page ${r.url} is stored`);
    }
  }
  const total = stored.reduce((a, p) => a + p.count, 0);
  return { stored, total, decided: decided.length };
}

/**
 * Every stored page was reported new to exactly one check, unless a check of its URL
 * failed (that caller knows it has no answer); every page reported new is stored.
 */
export function assertNewOnce(stored, results) {
  const newBy = new Map();
  const failed = new Set(results.filter((r) => r.error).map((r) => r.url));
  for (const r of results) if (!r.error && !r.duplicate) newBy.set(r.url, (newBy.get(r.url) || 0) + 1);
  const storedUrls = new Set(stored.map((p) => p.id));
  for (const p of stored) {
    const n = newBy.get(p.id) || 0;
    assert.ok(n === 1 || (n === 0 && failed.has(p.id)), `${p.id} was reported new ${n} times`);
  }
  for (const url of newBy.keys()) assert.ok(storedUrls.has(url), `${url} was reported new and is not stored`);
}
