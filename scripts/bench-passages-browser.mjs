// The passage checker at the size, in Chromium, through the demo's own Web Worker
// (www/js/check/worker.js over the browser build pkg/web): 200 references of about 20 kB
// and a 20 kB submission, posted as the page posts them; the time is the worker's own
// (the "Done in … ms" the page shows: indexing the 200 references, then the check).
//
// Two sets: real text from the dev corpus (140 English man pages and licences, 60 Chinese
// man pages and Debian reference pages, each cut to whole paragraphs of about 20 kB; the
// submission has 12 paragraphs copied from 12 references between paragraphs of other
// documents), and the demo's generated stress text (a 110-word vocabulary, so every word
// pair is in every reference: the worst case for the inverted index).
//
// Usage: node scripts/bench-passages-browser.mjs [--quick]   (after scripts/build.sh)
// Prints a table and one line `BROWSER browser_check_ms=… browser_generated_ms=…
// browser_found=…` that scripts/quality-passages.sh adds to its RESULT line.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from '../tests/browser/harness.mjs';
import { startDemoServer } from './demo-server.mjs';
import { paragraph } from '../www/js/examples.js';

const quick = process.argv.includes('--quick');
const runs = quick ? 2 : 5;
const root = fileURLToPath(new URL('..', import.meta.url));
const corpus = process.env.SIMHASH_DEVCORPUS ?? join(root, 'target', 'devcorpus');

/** A seeded generator (xorshift), so every run builds the same texts. */
function rng(seed) {
  let s = BigInt(seed) | 1n;
  const M = (1n << 64n) - 1n;
  return (n) => {
    s ^= (s << 13n) & M;
    s ^= s >> 7n;
    s ^= (s << 17n) & M;
    return Number(s % BigInt(n));
  };
}

/** Whole paragraphs of `text` up to about `bytes` (UTF-8). */
function cut(paras, bytes) {
  const out = [];
  let size = 0;
  for (const p of paras) {
    if (size >= bytes) break;
    out.push(p);
    size += Buffer.byteLength(p) + 2;
  }
  return out;
}

function realSet() {
  const docs = readFileSync(join(corpus, 'docs.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const pick = rng(20000);
  const shuffle = (xs) => {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = pick(i + 1);
      [xs[i], xs[j]] = [xs[j], xs[i]];
    }
    return xs;
  };
  const paras = (t) => t.split('\n\n').map((p) => p.trim()).filter((p) => p.length > 0);
  const en = shuffle(docs.filter((d) => /^en-(man|spdx)\//.test(d.id)));
  const zh = shuffle(docs.filter((d) => /^zh-(man|debref)\//.test(d.id)));
  // A reference: documents of one language joined until about 20 kB.
  const refsOf = (pool, n) => {
    const refs = [];
    while (refs.length < n) {
      let ps = [];
      while (ps.reduce((a, p) => a + Buffer.byteLength(p) + 2, 0) < 20000) ps.push(...paras(pool.pop().text));
      refs.push(cut(ps, 20000));
    }
    return refs;
  };
  const refs = [...refsOf(en, 140), ...refsOf(zh, 60)];
  // The submission: paragraphs of unseen documents, with one long paragraph copied from
  // each of 12 references in between, until about 20 kB.
  const own = [...paras(en.pop().text), ...paras(en.pop().text), ...paras(zh.pop().text), ...paras(en.pop().text)].filter((p) => p.length > 80);
  const sources = [3, 17, 40, 66, 90, 111, 139, 140, 155, 170, 185, 199];
  const sub = [];
  let size = 0;
  for (let i = 0; size < 20000; i++) {
    const p = i % 3 === 1 && sources.length ? longest(refs[sources.shift()]) : own[i % own.length];
    sub.push(p);
    size += Buffer.byteLength(p) + 2;
  }
  return { submission: sub.join('\n\n'), references: refs.map((ps, d) => ({ name: `ref-${d}`, text: ps.join('\n\n') })), copies: 12 };
}

function longest(ps) {
  return ps.reduce((a, p) => (p.length > a.length && p.length < 1500 ? p : a), '');
}

function generatedSet() {
  const references = [];
  for (let d = 0; d < 200; d++) {
    const ps = [];
    for (let i = 0, size = 0; size < 20000; i++) {
      const p = paragraph(100000 + d * 1000 + i);
      ps.push(p);
      size += p.length + 2;
    }
    references.push({ name: `generated-${d}`, text: ps.join('\n\n') });
  }
  const own = [];
  for (let i = 0, size = 0; size < 20000; i++) {
    const p = i % 10 === 3 ? references[(i * 37) % 200].text.split('\n\n')[i % 20] : paragraph(77000 + i);
    own.push(p);
    size += p.length + 2;
  }
  return { submission: own.join('\n\n'), references, copies: own.filter((_, i) => i % 10 === 3).length };
}

const sets = [['dev corpus (en + zh)', realSet()], ['generated (110 words)', generatedSet()]];
const server = await startDemoServer(0);
const browser = await launch();
const results = [];
try {
  const page = await browser.newPage();
  await page.goto(server.url);
  page.on('pageerror', (e) => console.error(`pageerror: ${e.message}`));
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 60000 });
  console.log(`passages in the browser: the demo's worker, 200 references of ~20 kB, a ~20 kB submission, best of ${runs} runs`);
  console.log(`${'set'.padEnd(24)} | ${'refs kB'.padStart(8)} ${'sub kB'.padStart(7)} | ${'ms'.padStart(7)} | spans reported (copies planted), references listed`);
  for (const [name, set] of sets) {
    const out = await page.evaluate(async ({ set, runs }) => {
      const w = new Worker(new URL('./js/check/worker.js', location.href), { type: 'module' });
      await new Promise((r) => { w.onmessage = (e) => e.data.type === 'ready' && r(); });
      const times = [];
      let report;
      for (let i = 0; i < runs; i++) {
        const m = await new Promise((resolve) => {
          w.onmessage = (e) => { if (e.data.type === 'result' || e.data.type === 'error') resolve(e.data); };
          w.postMessage({ id: i + 1, options: { minChars: 40, threshold: 0.5 }, submission: set.submission, references: set.references });
        });
        if (m.type === 'error') throw new Error(m.message);
        times.push(m.ms);
        report = m.report;
      }
      w.terminate();
      const matches = report.references.reduce((a, r) => a + r.matches.length, 0);
      return { ms: Math.min(...times), listed: report.references.length, matches };
    }, { set, runs });
    const kb = (s) => Buffer.byteLength(s) / 1000;
    const refKb = set.references.reduce((a, r) => a + kb(r.text), 0) / set.references.length;
    console.log(`${name.padEnd(24)} | ${refKb.toFixed(1).padStart(8)} ${kb(set.submission).toFixed(1).padStart(7)} | ${out.ms.toFixed(0).padStart(7)} | ${out.matches} spans / ${set.copies} copies, ${out.listed} refs`);
    results.push(out);
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(`BROWSER browser_check_ms=${results[0].ms.toFixed(0)} browser_generated_ms=${results[1].ms.toFixed(0)}`);
