// The article-extraction benchmark (../shared/extract-bench: 181 news and blog pages with
// their article body) through the built package's `htmlToText(html, { content: 'main' })`,
// scored exactly as the benchmark's own evaluate.py scores: per page, the multiset of
// 4-token shingles (tokens: runs of Python's `\w`, i.e. letters, digits and `_`) of the
// output against the article body's, tp/fp/fn normalised to sum 1; precision and recall
// averaged over the pages (precision over pages with output, recall over pages with a
// body); F1 from the two averages. Speed: HTML MB/s of the main-content pass, one thread,
// the best of 3 passes (`extract_all_mb_s`: the all-text pass, for comparison), and
// `seen_mb_s`: a crawler's whole check, `ContentSeen({ html: true }).check(url, html)` with
// its defaults (main content, the hosts' templates learnt, a sketch), of every page, under
// URLs on 8 hosts, a new ContentSeen each pass.
// With --quick: every 4th page, 1 pass.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
const BENCH = new URL('../../../shared/extract-bench/', import.meta.url);

const WORD = /[\p{L}\p{N}_]+/gu;

function shingles(text) {
  const t = text.match(WORD) ?? [];
  const m = new Map();
  const count = Math.max(1, t.length - 3);
  for (let i = 0; i < count; i++) {
    const s = t.slice(i, i + 4);
    if (s.length === 0) continue;
    const key = s.join('\u0000');
    m.set(key, (m.get(key) ?? 0) + 1);
  }
  return m;
}

/** evaluate.py's string_shingle_matching: [tp, fp, fn], normalised. */
export function score(truth, pred) {
  const t = shingles(truth);
  const p = shingles(pred);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const [k, tc] of t) {
    const pc = p.get(k) ?? 0;
    tp += Math.min(tc, pc);
    fn += Math.max(0, tc - pc);
  }
  for (const [k, pc] of p) fp += Math.max(0, pc - (t.get(k) ?? 0));
  const s = tp + fp + fn;
  return s > 0 ? [tp / s, fp / s, fn / s] : [0, 0, 0];
}

const precision = ([tp, fp, fn]) => (fp === 0 && fn === 0 ? 1 : tp === 0 && fp === 0 ? 0 : tp / (tp + fp));
const recall = ([tp, fp, fn]) => (fp === 0 && fn === 0 ? 1 : tp === 0 && fn === 0 ? 0 : tp / (tp + fn));
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

export function metrics(scores) {
  const p = mean(scores.filter(([tp, fp]) => tp + fp > 0).map(precision));
  const r = mean(scores.filter(([tp, , fn]) => tp + fn > 0).map(recall));
  return { f1: p + r > 0 ? (2 * p * r) / (p + r) : 0, p, r };
}

export default async function extract(args) {
  const quick = args.includes('--quick');
  const { htmlToText, ContentSeen } = require('../../pkg/index.cjs');
  const truth = JSON.parse(readFileSync(new URL('ground-truth.json', BENCH), 'utf8'));
  let ids = Object.keys(truth).sort();
  if (quick) ids = ids.filter((_, i) => i % 4 === 0);
  const pages = ids.map((id) => gunzipSync(readFileSync(new URL(`html/${id}.html.gz`, BENCH))).toString('utf8'));
  const bytes = pages.reduce((n, h) => n + Buffer.byteLength(h), 0);
  const passes = quick ? 1 : 3;
  const speed = (content) => {
    let best = Infinity;
    for (let pass = 0; pass < passes; pass++) {
      const t0 = performance.now();
      for (const h of pages) htmlToText(h, { content });
      best = Math.min(best, performance.now() - t0);
    }
    return bytes / 1e6 / (best / 1000);
  };
  const scores = pages.map((h, i) => score(truth[ids[i]].articleBody ?? '', htmlToText(h, { content: 'main' })));
  const { f1, p, r } = metrics(scores);
  const mbs = speed('main');
  const allMbs = speed('all');
  let bestSeen = Infinity;
  for (let pass = 0; pass < passes; pass++) {
    const seen = new ContentSeen({ html: true });
    try {
      const t0 = performance.now();
      pages.forEach((h, i) => seen.check(`https://host${i % 8}.test/${ids[i]}`, h));
      bestSeen = Math.min(bestSeen, performance.now() - t0);
    } finally {
      seen.free();
    }
  }
  const seenMbs = bytes / 1e6 / (bestSeen / 1000);
  console.log(`extract: ${ids.length} pages, ${(bytes / 1e6).toFixed(1)} MB: F1 ${f1.toFixed(4)} (P ${p.toFixed(4)}, R ${r.toFixed(4)}); ` +
    `main content ${mbs.toFixed(1)} MB/s, all text ${allMbs.toFixed(1)} MB/s, ContentSeen checks ${seenMbs.toFixed(1)} MB/s`);
  return {
    extract_f1: f1.toFixed(4),
    extract_p: p.toFixed(4),
    extract_r: r.toFixed(4),
    extract_mb_s: mbs.toFixed(1),
    extract_all_mb_s: allMbs.toFixed(1),
    seen_mb_s: seenMbs.toFixed(1),
  };
}
