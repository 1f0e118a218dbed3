// The html_seen_* keys of `npm run quality:html`: ContentSeen with its defaults (and
// `html: true`) over a near-duplicate set of real pages, built here deterministically from
// the article-extraction benchmark's pages (../shared/extract-bench) and, for Chinese,
// the dev corpus's Chinese documents put into those pages' templates.
//
// The set (each "group" is one article; pages of a group are near-duplicates of each
// other, pages of different groups are not):
// - the original page (English: the benchmark's page; Chinese: a dev-corpus article put
//   into a benchmark page's template in place of its article);
// - a template swap: the article put into another page's HTML in place of that page's;
// - a print version: the article alone, in bare HTML;
// - the same page with other ads, dates and counters;
// - a copy with a few words (Chinese: characters) edited;
// - short pages in one template: a few lines of their own in place of the article, each its
//   own group (they must not match each other, nor the template's page).
// Precision and recall are over pairs: two pages are predicted near-duplicates when the
// test counts them under the same stored page, fed in one seeded order.
//
// A part of `npm run quality:html` (scripts/quality-html.mjs runs every part of this
// folder and merges their keys); alone: `node scripts/quality-html/20-seen.mjs [--content
// all|main] [--quick]`. --quick: a smaller set (15 English, 10 Chinese articles), for CI.
// SIMHASH_HTML_SEEN_DEBUG=1 lists the missed planted pages of the seeded order with their
// cause (see `explainMisses`).
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const ROOT = new URL('../..', import.meta.url).pathname;
const BENCH = join(ROOT, '../shared/extract-bench');

function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const paragraphs = (body) => body.split(/\n+/).filter((p) => p.trim()).map((p) => `<p>${esc(p.trim())}</p>`).join('\n');

/**
 * Where the article sits in a page's HTML: from the tag that opens the element holding
 * the first words of its first paragraph to the end of the element holding its last
 * words; null when either cannot be found as plain text (entities, markup inside).
 */
export function articleSpan(html, body) {
  const paras = body.split(/\n+/).map((p) => p.trim()).filter((p) => p.length >= 40);
  if (paras.length < 3) return null;
  const probe = (p, fromEnd, from = 0) => {
    const words = p.split(/\s+/);
    for (let i = 0; i + 5 <= words.length && i < 12; i++) {
      const j = fromEnd ? words.length - 5 - i : i;
      if (j < 0) break;
      const s = words.slice(j, j + 5).join(' ');
      if (/^[\w ,.;:'-]+$/.test(s) && s.length >= 20) {
        const at = html.indexOf(s, from);
        if (at >= 0) return at;
      }
    }
    return -1;
  };
  const first = probe(paras[0], false);
  const last = first < 0 ? -1 : probe(paras[paras.length - 1], true, first);
  if (first < 0 || last < first) return null;
  const start = html.lastIndexOf('<p', first);
  const close = html.indexOf('</p>', last);
  if (start < 0 || close < 0 || first - start > 1500) return null;
  const end = close + 4;
  const span = end - start;
  // Not less than the article, and not most of the page (its template must stay).
  if (span < body.length * 0.8 || span > html.length * 0.6 || /<\/body|<footer/i.test(html.slice(start, end))) return null;
  // Not less than the article in text either (markup makes a span's HTML longer than its
  // text): the rest of the article, left outside the span, would stay in every page put
  // into this one's template.
  const visible = (t) => t.replace(/<[^>]*>/g, ' ').replace(/&#?\w+;/g, 'x').replace(/\s+/g, '').length;
  if (visible(html.slice(start, end)) < 0.9 * body.replace(/\s+/g, '').length) return null;
  // Where a reader sees it: not in a script (a JSON-LD copy of the article), and holding none.
  const before = html.slice(0, start).toLowerCase();
  if (before.lastIndexOf('<script') > before.lastIndexOf('</script') || /<\/?script/i.test(html.slice(start, end))) return null;
  return [start, end];
}

/** Other ads, dates and counters: every number outside the article changed, an ad inserted after <body>. */
function otherAds(html, [s, e], r) {
  const bump = (t) => t.replace(/\b\d{1,4}\b/g, (d) => String((Number(d) + 1 + Math.floor(r() * 7)) % 10 ** d.length).padStart(d.length, '0'));
  const ad = `<div class="ad-slot"><a href="https://ads.example/${Math.floor(r() * 1e6)}">Limited offer: ${['fly to Lisbon from 19 euros', 'a new phone for 1 pound a day', 'learn Python in 30 days', 'free delivery on 500 items'][Math.floor(r() * 4)]}</a></div>`;
  let out = bump(html.slice(0, s)) + html.slice(s, e) + bump(html.slice(e));
  out = out.replace(/<body([^>]*)>/i, (m) => `${m}${ad}`);
  return out;
}

/** A few words (Chinese: characters) of the article edited. */
function edited(html, [s, e], zh, r) {
  let art = html.slice(s, e);
  for (let n = 0; n < 3; n++) {
    if (zh) {
      const cjk = [...art.matchAll(/[\u4e00-\u9fff]/g)];
      if (!cjk.length) break;
      const at = cjk[Math.floor(r() * cjk.length)].index;
      art = `${art.slice(0, at)}${'新旧大小多少'[Math.floor(r() * 6)]}${art.slice(at + 1)}`;
    } else {
      const words = [...art.matchAll(/>[^<]*\b([a-z]{5,})\b/g)];
      if (!words.length) break;
      const m = words[Math.floor(r() * words.length)];
      const at = m.index + m[0].length - m[1].length;
      art = `${art.slice(0, at)}${['however', 'notably', 'several', 'quickly'][Math.floor(r() * 4)]}${art.slice(at + m[1].length)}`;
    }
  }
  return html.slice(0, s) + art + html.slice(e);
}

// Short pages: a label and one line of their own. Each line is a real sentence that occurs
// nowhere else in the set (English: from benchmark pages that give no group; Chinese: from
// dev-corpus documents not picked as articles), so that short pages of different sites do
// not share their text, as real sites' About pages do not.
const SHORT_EN = ['About us', 'Contact', 'Subscribe'];
const SHORT_ZH = ['关于我们', '联系我们', '订阅'];

/** Up to `n` distinct sentences of 60 to 160 characters, one per text. */
function sentencesEn(texts, n) {
  const out = [];
  const seen = new Set();
  for (const t of texts) {
    const s = t.split(/(?<=[.!?])\s+/).map((x) => x.trim()).filter((x) => x.length >= 60 && x.length <= 160 && !x.includes('\n'))[1];
    if (s && !seen.has(s.slice(0, 30))) { seen.add(s.slice(0, 30)); out.push(s); }
    if (out.length >= n) break;
  }
  return out;
}

/** Up to `n` distinct Chinese sentences of 20 to 60 characters, one per text. */
function sentencesZh(texts, n) {
  const out = [];
  const seen = new Set();
  for (const t of texts) {
    const s = t.split(/(?<=。)/).map((x) => x.trim()).find((x) => x.length >= 20 && x.length <= 60 && !x.includes('\n') && (x.match(/[\u4e00-\u9fff]/g) || []).length >= x.length * 0.7);
    if (s && !seen.has(s.slice(0, 10))) { seen.add(s.slice(0, 10)); out.push(s); }
    if (out.length >= n) break;
  }
  return out;
}

/**
 * Chinese articles from the dev corpus: 1,500 to 6,000 characters, several paragraphs;
 * `rest` holds the texts of the documents not picked (for the short pages' lines).
 */
function chineseArticles(n) {
  const dir = process.env.SIMHASH_DEVCORPUS || join(ROOT, 'target/devcorpus');
  const file = join(dir, 'docs.jsonl');
  if (!existsSync(file)) throw new Error(`${file} is missing: build the dev corpus (npm run setup, or bash ../shared/corpus/build.sh ${dir})`);
  const out = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line || !line.includes('"zh"')) continue;
    const d = JSON.parse(line);
    if (d.lang !== 'zh') continue;
    const cjk = (d.text.match(/[\u4e00-\u9fff]/g) || []).length;
    if (d.text.length < 1500 || d.text.length > 6000 || cjk < d.text.length * 0.3) continue;
    const paras = d.text.split(/\n+/).filter((p) => p.trim().length >= 20);
    if (paras.length < 4) continue;
    out.push({ id: d.id, body: paras.join('\n') });
  }
  // Every k-th, to spread over the sources; the corpus holds near-duplicates of its own,
  // so keep only articles whose start is not already taken.
  const step = Math.max(1, Math.floor(out.length / (n * 3)));
  const seenStarts = new Set();
  const picked = [];
  const taken = new Set();
  for (let i = 0; i < out.length && picked.length < n; i += step) {
    const key = out[i].body.slice(0, 80);
    if (!seenStarts.has(key)) { seenStarts.add(key); picked.push(out[i]); taken.add(i); }
  }
  picked.rest = out.filter((_, i) => !taken.has(i) && i % 7 === 3).map((d) => d.body);
  return picked;
}

/** The near-duplicate set: `[{ id, html, group, zh, kind }]`, in a seeded order. */
export function buildSet({ english = 45, chinese = 30 } = {}) {
  const truth = JSON.parse(readFileSync(join(BENCH, 'ground-truth.json'), 'utf8'));
  const ids = readdirSync(join(BENCH, 'html')).filter((f) => f.endsWith('.html.gz')).map((f) => f.slice(0, -8)).sort();
  const pages = [];
  for (const id of ids) {
    const html = gunzipSync(readFileSync(join(BENCH, 'html', `${id}.html.gz`))).toString('utf8');
    const body = truth[id]?.articleBody ?? '';
    const span = articleSpan(html, body);
    if (span && body.length >= 1000) pages.push({ id, url: truth[id].url, html, body, span, title: (html.match(/<title[^>]*>([^<]*)</i) || [])[1] ?? id });
  }
  const r = rng(23);
  const out = [];
  const qualified = new Set(pages.map((p) => p.id));
  const linesEn = sentencesEn(ids.filter((id) => !qualified.has(id)).map((id) => truth[id]?.articleBody ?? ''), 3 * Math.ceil(english / 4));
  // Each page has the URL a crawler would meet it under: the benchmark page's own URL, and
  // a page in a page's template on that page's host (its site), so that the pages of one
  // template share a host as on a real site.
  const add = (url, html, group, zh, kind) => out.push({ id: url, html, group, zh, kind });
  const host = (p) => new URL(p.url).host;
  const withQuery = (p, q) => { const u = new URL(p.url); for (const [k, v] of Object.entries(q)) u.searchParams.set(k, v); return u.href; };
  const SHORT_PATHS = ['about', 'contact', 'subscribe'];
  const inTemplate = (tpl, bodyHtml) => tpl.html.slice(0, tpl.span[0]) + bodyHtml + tpl.html.slice(tpl.span[1]);
  const en = pages.slice(0, english);
  const templates = pages.slice(english);
  const spare = (i) => (templates.length ? templates[i % templates.length] : pages[(i + 7) % pages.length]);
  en.forEach((a, i) => {
    const g = `en:${a.id}`;
    const other = en[(i + 1) % en.length];
    add(a.url, a.html, g, false, 'original');
    const swapped = inTemplate(other, paragraphs(a.body));
    add(`https://${host(other)}/copies/${a.id.slice(0, 12)}`, swapped, g, false, 'template swap');
    add(withQuery(a, { print: '1' }), `<!doctype html><html><head><title>${a.title}</title></head><body><h1>${esc(a.title)}</h1>\n${paragraphs(a.body)}</body></html>`, g, false, 'print version');
    add(withQuery(a, { utm_source: 'feed', ref: String(i) }), otherAds(a.html, a.span, r), g, false, 'other ads, dates, counters');
    add(`https://${host(a)}/republished/${a.id.slice(0, 12)}`, edited(a.html, a.span, false, r), g, false, 'a few words edited');
    if (i % 4 === 0) {
      const tpl = spare(i);
      SHORT_EN.slice(0, 3).forEach((t, j) => add(`https://${host(tpl)}/${SHORT_PATHS[j]}?s=${i}`, inTemplate(tpl, `<p>${t}: ${linesEn[(i / 4) * 3 + j]}</p>`), `en:short:${i}:${j}`, false, 'short page'));
    }
  });
  const zh = chinese ? chineseArticles(chinese) : [];
  const linesZh = chinese ? sentencesZh(zh.rest, 3 * Math.ceil(chinese / 4)) : [];
  zh.forEach((a, i) => {
    const g = `zh:${a.id}`;
    const tpl = pages[(i * 3) % pages.length];
    const other = pages[(i * 3 + 1) % pages.length];
    const body = paragraphs(a.body);
    const original = inTemplate(tpl, body);
    const span = [tpl.span[0], tpl.span[0] + body.length];
    const at = `https://${host(tpl)}/zh/${i}`;
    add(at, original, g, true, 'original');
    add(`https://${host(other)}/zh/copies/${i}`, inTemplate(other, body), g, true, 'template swap');
    add(`${at}?print=1`, `<!doctype html><html><head><meta charset="utf-8"><title>文章 ${i}</title></head><body>${body}</body></html>`, g, true, 'print version');
    add(`${at}?utm_source=feed`, otherAds(original, span, r), g, true, 'other ads, dates, counters');
    add(`${at}/republished`, edited(original, span, true, r), g, true, 'a few characters edited');
    if (i % 4 === 0) {
      const t2 = pages[(i * 3 + 2) % pages.length];
      SHORT_ZH.slice(0, 3).forEach((t, j) => add(`https://${host(t2)}/zh/${SHORT_PATHS[j]}?s=${i}`, inTemplate(t2, `<p>${t}：${linesZh[(i / 4) * 3 + j]}</p>`), `zh:short:${i}:${j}`, true, 'short page'));
    }
  });
  // A seeded order: a crawler meets copies before and after their originals.
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Pairwise precision and recall of `clusterOf` against the groups, per language. */
function score(set, clusterOf) {
  const res = {};
  for (const zh of [false, true]) {
    const pages = set.filter((p) => p.zh === zh);
    let tp = 0;
    let pred = 0;
    let truth = 0;
    for (let i = 0; i < pages.length; i++) {
      for (let j = i + 1; j < pages.length; j++) {
        const same = pages[i].group === pages[j].group;
        const c = clusterOf(pages[i].id);
        const said = c !== undefined && c === clusterOf(pages[j].id);
        truth += same;
        pred += said;
        tp += same && said;
      }
    }
    res[zh ? 'zh' : 'en'] = { p: pred ? tp / pred : 1, r: truth ? tp / truth : 1, pred, truth, tp };
  }
  return res;
}

/** The keys, and per kind which planted pages were missed, for `options` (ContentSeen's). */
export function htmlSeen(api, options = {}, set = buildSet()) {
  const seen = new api.ContentSeen({ html: true, ...options });
  const sketches = new Map();
  for (const p of set) sketches.set(p.id, seen.check(p.id, Buffer.from(p.html)).sketch);
  const clusterOf = (id) => seen.clusterOf(id);
  const s = score(set, clusterOf);
  const byKind = {};
  const origin = new Map(set.filter((p) => p.kind === 'original').map((p) => [p.group, p.id]));
  for (const p of set) {
    if (p.kind === 'original') continue;
    const k = `${p.zh ? 'zh' : 'en'} ${p.kind}`;
    byKind[k] ??= { pages: 0, wrong: 0 };
    byKind[k].pages++;
    const o = origin.get(p.group);
    const right = o ? clusterOf(p.id) === clusterOf(o) : set.every((q) => q === p || q.group === p.group || clusterOf(q.id) !== clusterOf(p.id));
    byKind[k].wrong += !right;
  }
  const clusters = new Map(set.map((p) => [p.id, clusterOf(p.id)]));
  seen.free();
  return {
    keys: { html_seen_p: s.en.p, html_seen_r: s.en.r, html_seen_p_zh: s.zh.p, html_seen_r_zh: s.zh.r },
    detail: s,
    byKind,
    pages: set.length,
    clusterOf: clusters,
    sketches,
  };
}

/**
 * Why planted pages were missed (SIMHASH_HTML_SEEN_DEBUG=1): per group split over several
 * stored pages, each page outside its original's cluster, against the page of its group
 * outside its own cluster that it estimates highest (as read, with the templates learnt):
 * - "candidates": that estimate reaches the threshold, but the page was not stored when
 *   the other was checked (only stored pages are compared);
 * - "template": read without any template learnt (`template: false`) the two reach it:
 *   learnt template lines were removed from one and not the other;
 * - "estimate": within 0.09 under the threshold;
 * - "extraction": further apart: the main contents differ (the lines of each that the
 *   other lacks are printed).
 * Returns the counts per kind and cause.
 */
export function explainMisses(api, run, set, options = {}) {
  const raw = htmlSeen(api, { ...options, template: false }, set);
  const t = Number(options.threshold ?? 0.81);
  const est = (a, b) => (a && b ? api.estimateJaccard(a, b) : -1);
  const text = (p) => api.htmlToText(p.html, { content: 'main' });
  const causes = {};
  const groups = new Map();
  for (const p of set) if (p.kind !== 'short page') groups.set(p.group, [...(groups.get(p.group) ?? []), p]);
  for (const [g, pages] of groups) {
    const cl = (p) => run.clusterOf.get(p.id);
    const o = pages.find((p) => p.kind === 'original');
    if (new Set(pages.map(cl)).size === 1) continue;
    console.log(`  group ${g}: ${new Set(pages.map(cl)).size} stored pages`);
    for (const p of pages) {
      if (cl(p) === cl(o)) continue;
      let best = [-1, null];
      for (const q of pages) if (cl(q) !== cl(p)) { const e = est(run.sketches.get(p.id), run.sketches.get(q.id)); if (e > best[0]) best = [e, q]; }
      const [e, q] = best;
      const eRaw = est(raw.sketches.get(p.id), raw.sketches.get(q.id));
      const cause = e >= t ? 'candidates' : eRaw >= t ? 'template' : e >= t - 0.09 ? 'estimate' : 'extraction';
      const k = `${p.zh ? 'zh' : 'en'} ${p.kind}: ${cause}`;
      causes[k] = (causes[k] ?? 0) + 1;
      console.log(`    ${p.kind} ${p.id} vs ${q.kind} ${q.id}: estimate ${e.toFixed(3)} (no template ${eRaw.toFixed(3)}): ${cause}`);
      if (cause === 'extraction' || cause === 'template') {
        const [a, b] = [text(p), text(q)].map((x) => x.split('\n'));
        const [sa, sb] = [new Set(a), new Set(b)];
        for (const l of a.filter((l) => !sb.has(l)).slice(0, 6)) console.log(`      + ${l.slice(0, 100)}`);
        for (const l of b.filter((l) => !sa.has(l)).slice(0, 6)) console.log(`      - ${l.slice(0, 100)}`);
      }
    }
  }
  for (const [k, n] of Object.entries(causes).sort()) console.log(`  missed ${k.padEnd(44)} ${n}`);
  return causes;
}

/** The set in another seeded arrival order. */
export function reordered(set, seed) {
  const r = rng(seed);
  const out = set.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The keys' spread over `orders` other seeded arrival orders: `{ key: [min, max, mean] }`. */
export function orderSpread(api, options, set, orders) {
  const runs = [];
  for (let seed = 1; seed <= orders; seed++) runs.push(htmlSeen(api, options, reordered(set, 1000 + seed)).keys);
  return Object.fromEntries(Object.keys(runs[0]).map((k) => {
    const v = runs.map((x) => x[k]);
    return [k, [Math.min(...v), Math.max(...v), v.reduce((a, b) => a + b, 0) / v.length]];
  }));
}

/** The part's entry: prints the set, the pages each kind got right, P and R; returns the keys. */
export default async function seenPart(args = []) {
  const api = createRequire(import.meta.url)(join(ROOT, 'pkg/index.cjs'));
  const i = args.indexOf('--content');
  const options = i >= 0 ? { content: args[i + 1] } : {};
  const t = Date.now();
  const set = args.includes('--quick') ? buildSet({ english: 15, chinese: 10 }) : buildSet();
  const r = htmlSeen(api, options, set);
  console.log(`html_seen: ContentSeen ${JSON.stringify({ html: true, ...options })} over ${r.pages} pages (${set.filter((p) => p.zh).length} Chinese), ${Date.now() - t} ms`);
  for (const [k, v] of Object.entries(r.byKind)) console.log(`  ${k.padEnd(34)} ${v.pages - v.wrong}/${v.pages} right`);
  for (const [lang, v] of Object.entries(r.detail)) console.log(`  ${lang}: P ${v.p.toFixed(3)} R ${v.r.toFixed(3)} (${v.tp} of ${v.pred} predicted pairs true, ${v.truth} true pairs)`);
  if (process.env.SIMHASH_HTML_SEEN_DEBUG === '1') explainMisses(api, r, set, options);
  const keys = Object.fromEntries(Object.entries(r.keys).map(([k, v]) => [k, v.toFixed(3)]));
  // The order effect: the template is learnt while checking, so a page's reading depends
  // on the pages of its host met before it. The same set in other arrival orders.
  const orders = args.includes('--quick') ? 5 : 20;
  const t2 = Date.now();
  const spread = orderSpread(api, options, set, orders);
  console.log(`html_seen over ${orders} other arrival orders (${Date.now() - t2} ms): ${Object.entries(spread).map(([k, [lo, hi, mean]]) => `${k} ${lo.toFixed(3)}..${hi.toFixed(3)} (mean ${mean.toFixed(3)})`).join(', ')}`);
  for (const [k, [lo, hi]] of Object.entries(spread)) {
    keys[`${k}_min`] = lo.toFixed(3);
    keys[`${k}_max`] = hi.toFixed(3);
  }
  return keys;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const keys = await seenPart(process.argv.slice(2));
  console.log(`RESULT ${Object.entries(keys).map(([k, v]) => `${k}=${v}`).join(' ')}`);
}
