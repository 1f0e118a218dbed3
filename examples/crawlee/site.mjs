// The site the example crawls, served on loopback: articles in a realistic template (a
// header, a 15-link nav, a byline with date and view counter, a rotating ad, a sidebar,
// comments, a long footer), with near-duplicates planted as a crawler meets them, and the
// answer each page must get. Deterministic: the same site on every run.
import http from 'node:http';

// A seeded generator (mulberry32), so that every article is different and every run the same.
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
const WORDS = (
  'the a of to and in that for on with as by at from river mountain library engine garden harbour signal market '
  + 'winter lantern orbit canyon meadow circuit archive council budget school railway bridge hospital farmers '
  + 'season storm coast village museum theatre festival museum record report study research scientists team '
  + 'students teachers city mayor plan project water energy solar wind power grid price cost year month week '
  + 'morning evening night old new small large local national public private early late first last many few '
  + 'said says told found showed built opened closed raised lowered moved changed planned announced expected'
).split(' ');
const ZH = '我们的城市今年将开放一座新的图书馆并且计划在河边修建公园市民对这个项目非常期待学校老师和学生也参与了讨论'
  + '冬天的风很大港口的船只暂时停航农民在市场上出售新鲜的蔬菜和水果博物馆举办了关于铁路历史的展览';

function sentence(r, words) {
  const n = 10 + Math.floor(r() * 14);
  const w = Array.from({ length: n }, () => words[Math.floor(r() * words.length)]);
  w[0] = w[0][0].toUpperCase() + w[0].slice(1);
  return `${w.join(' ')}.`;
}
function englishArticle(i) {
  const r = rng(1000 + i);
  return Array.from({ length: 6 + (i % 4) }, () => Array.from({ length: 4 }, () => sentence(r, WORDS)).join(' '));
}
function chineseArticle(i) {
  const r = rng(5000 + i);
  const chars = [...ZH];
  return Array.from({ length: 5 }, () => Array.from({ length: 60 + Math.floor(r() * 40) }, (_, j) => ((j + 1) % 17 === 0 ? '，' : chars[Math.floor(r() * chars.length)])).join('') + '。');
}

const NAV = ['World', 'Business', 'Tech', 'Science', 'Health', 'Sport', 'Culture', 'Travel', 'Food', 'Style', 'Opinion', 'Video', 'Podcasts', 'Weather', 'Local'];
const ADS = ['Save 20% on winter tyres this week only at Tyre World, fitted free.', 'Learn a language in ten minutes a day: try LingoFast free for a month.',
  'Your dream kitchen, designed and installed in five days. Book a visit.', 'Fresh coffee beans roasted to order, delivered to your door every Monday.'];
const FOOTER = 'About us · Contact · Careers · Advertise · Privacy policy · Cookie settings · Terms of use · Accessibility · Newsletter · RSS feeds · '
  + 'Corrections · Editorial standards · Help centre · Sitemap · Archive. © 2026 The Daily Example. All rights reserved. '
  + 'The Daily Example is not responsible for the content of external sites. Registered in England and Wales, company number 01234567.';

/** A page in the site's template: `body` is the page's own HTML, `v` varies date, counter and ad. */
function template(title, body, { v = 0, comments = [], links = [] } = {}) {
  const nav = NAV.map((n) => `<li><a href="/section/${n.toLowerCase()}">${n}</a></li>`).join('');
  const more = links.map((l) => `<li><a href="${l}">${l}</a></li>`).join('');
  return `<!doctype html><html><head><title>${title} | The Daily Example</title>
<script>window.dataLayer=[];function track(){dataLayer.push(arguments)}track('view');</script>
<style>body{font-family:sans-serif}.ad{border:1px solid}</style></head><body>
<header><a href="/">The Daily Example</a><form action="/search"><input name="q"></form></header>
<nav><ul>${nav}</ul></nav>
<main><article><h1>${title}</h1>
<p class="byline">By Staff Reporter · ${new Date(Date.UTC(2026, 0, 1 + v)).toDateString()} · ${1234 + v * 977} views</p>
${body}</article>
<aside class="ad">${ADS[v % ADS.length]}</aside>
<section class="comments"><h2>Comments</h2>${comments.map((c) => `<p>${c}</p>`).join('')}</section></main>
<aside><h2>Most read</h2><ul>${more}</ul></aside>
<footer>${FOOTER}</footer></body></html>`;
}
const paragraphs = (ps) => ps.map((p) => `<p>${p}</p>`).join('\n');
const print = (title, ps) => `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1>${paragraphs(ps)}</body></html>`;

/**
 * The site: `pages` (path -> HTML) and `expect` (path -> { group, kind }): pages of one
 * group are near-duplicates of each other, pages of different groups are not; kind
 * `empty` pages have no content. Part 1 (`/p1`) holds the first half of the articles with
 * their copies; part 2 (`/p2`) the rest, plus copies of part 1's articles.
 */
export function makeSite() {
  const pages = new Map();
  const expect = new Map();
  const add = (path, html, group, kind, part) => {
    pages.set(path, html);
    expect.set(path, { group, kind, part });
  };
  const parts = { 1: [], 2: [] };
  const ARTICLES = 16;
  for (let i = 0; i < ARTICLES; i++) {
    const zh = i % 4 === 3;
    const ps = zh ? chineseArticle(i) : englishArticle(i);
    const title = zh ? `新闻报道 ${i}` : `Story number ${i}`;
    const g = `article-${i}`;
    const part = i < ARTICLES / 2 ? 1 : 2;
    const comments = [`Great piece, thanks for story ${i}.`];
    add(`/article/${i}`, template(title, paragraphs(ps), { v: i, comments }), g, 'original', part);
    add(`/article/${i}?ref=feed`, template(title, paragraphs(ps), { v: i + 3, comments }), g, 'other ad and counter', part);
    if (i % 2 === 0) add(`/article/${i}/republished`, template(title, paragraphs(ps), { v: i + 40, comments: [...comments, 'Is there an update on this?'] }), g, 'republished', part);
    const edited = [...ps];
    edited[1] = zh ? edited[1].replace(/^(..)/, '今天') : edited[1].replace(/\b(\w+)\b/, 'Yesterday');
    if (i % 4 === 1) add(`/print/article/${i}`, print(title, ps), g, 'print version', part);
    if (i % 3 === 0) add(`/article/${i}/corrected`, template(title, paragraphs(edited), { v: i + 7, comments }), g, 'a word changed', part);
    if (part === 1) add(`/mirror/article/${i}`, template(title, paragraphs(ps), { v: i + 11, comments }), g, 'mirror, crawled in part 2', 2);
  }
  // Short pages in the same template: a few lines of their own, which must not match each other.
  const SHORT = [
    ['About us', 'The Daily Example has reported on the city and its people since 1921, from a small office by the harbour.'],
    ['Contact', 'Write to the newsroom at news@example.org or call the front desk on weekdays between nine and five.'],
    ['Careers', 'We are hiring a data reporter and a night editor; applications close at the end of the month.'],
    ['Advertise', 'Reach half a million readers a week in print and online; ask for our media kit and rates.'],
  ];
  SHORT.forEach(([t, p], j) => add(`/info/${j}`, template(t, `<p>${p}</p>`, { v: j }), `short-${j}`, 'short page', 1 + (j % 2)));
  // A page whose content is drawn by scripts: nothing to compare.
  add('/app', '<!doctype html><html><head><title>App</title><script src="/app.js"></script></head><body><div id="root"></div><script>render(document.getElementById("root"))</script></body></html>', null, 'empty', 2);
  for (const [path, { part }] of expect) parts[part].push(path);
  for (const part of [1, 2]) {
    add(`/p${part}`, `<!doctype html><html><body><h1>Part ${part}</h1><ul>${parts[part].map((p) => `<li><a href="${p}">${p}</a></li>`).join('')}</ul></body></html>`, `index-${part}`, 'index', part);
  }
  return { pages, expect };
}

/** Serves the site on a loopback port; resolves to `{ base, close() }`. */
export function serve(site) {
  const server = http.createServer((req, res) => {
    const html = site.pages.get(req.url);
    if (html === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    resolve({ base: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) });
  }));
}
