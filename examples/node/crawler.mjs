// A crawler's "content seen?" test with ContentSeen: every fetched page is checked once;
// a page within k bits of a stored one is a duplicate, counted under that page instead of
// stored. The state is saved to disk between runs (atomically) and loaded back.
//
//   node examples/node/crawler.mjs
//
// The "web" is made here from licence texts of the package's sample corpus: each licence
// is served as a page, again by a mirror with other navigation, and as a print view; one
// is fetched again after an edit, and one is a licence that differs from another in its
// title only (OFL-1.1 and OFL-1.1-RFN).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ContentSeen, loadSeen, saveSeen, toHex } from 'simhash-wasm';

const sample = join(dirname(createRequire(import.meta.url).resolve('simhash-wasm/package.json')), 'sample/licenses.jsonl');
const licences = new Map(readFileSync(sample, 'utf8').split('\n').filter(Boolean).map((l) => {
  const { id, text } = JSON.parse(l);
  return [id, text];
}));
const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const page = (nav, title, body, footer) =>
  `<html><head><title>${title}</title><script>track("${title}")</script></head><body>`
  + `<nav>${nav}</nav><article><h1>${title}</h1>`
  + body.split('\n\n').map((p) => `<p>${escape(p)}</p>`).join('\n')
  + `</article><footer>${footer}</footer></body></html>`;

const ids = ['OpenSSL', 'Libpng', 'Artistic-1.0', 'OFL-1.1'];
const crawl = [];
for (const id of ids) {
  const text = licences.get(id);
  crawl.push([`https://licenses.example.org/${id}`, page('Home | Licences | About', id, text, '© Example')]);
  crawl.push([`https://mirror.example.net/${id}.html`, page('Start', id, text, 'Mirrored daily')]);
  crawl.push([`https://licenses.example.org/print/${id}`, `<pre>${escape(text)}</pre>`]);
}
const firstRun = crawl.slice(0, 6);
const secondRun = [
  ...crawl.slice(6),
  ['https://licenses.example.org/OpenSSL?rev=2', page('Home | Licences | About', 'OpenSSL', licences.get('OpenSSL').replace(' the ', ' this '), '© Example')],
  ['https://licenses.example.org/OFL-1.1-RFN', page('Home | Licences | About', 'OFL-1.1-RFN', licences.get('OFL-1.1-RFN'), '© Example')],
];
const show = (url, r) => console.log(`${r.duplicate ? 'dup' : 'new'}  ${toHex(r.fingerprint)}  ${url}${r.duplicate ? `  -> ${r.cluster} (seen ${r.count}x)` : ''}`);

// First run: k = 3 as in the paper; html: true fingerprints the visible text.
const options = { k: 3, html: true };
let seen = new ContentSeen(options);
for (const [url, html] of firstRun) show(url, seen.check(url, html));
assert.equal(seen.size, 2, 'two distinct licences stored so far');

// Save, and load in a "second run" (refusing a snapshot made with other settings).
const dir = mkdtempSync(join(tmpdir(), 'simhash-crawler-'));
try {
  saveSeen(seen, join(dir, 'seen.bin'));
  seen.free();
  seen = loadSeen(join(dir, 'seen.bin'), options);
  assert.throws(() => loadSeen(join(dir, 'seen.bin'), { ...options, k: 5 }), { name: 'SimHashError', code: 'SchemeMismatch' });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
for (const [url, html] of secondRun) show(url, seen.check(url, html));

console.log('\nstored pages, most seen first:');
for (const c of seen.clusters()) console.log(`  ${String(c.count).padStart(2)}x  ${c.id}  (also: ${c.duplicates.join(', ')})`);

// Every licence was stored once, under its first URL, and every other copy was counted.
assert.equal(seen.size, ids.length);
for (const id of ids) {
  const home = `https://licenses.example.org/${id}`;
  assert.equal(seen.clusterOf(`https://mirror.example.net/${id}.html`), home);
  assert.equal(seen.clusterOf(`https://licenses.example.org/print/${id}`), home);
}
assert.equal(seen.clusterOf('https://licenses.example.org/OpenSSL?rev=2'), 'https://licenses.example.org/OpenSSL', 'a one-word edit is a near-duplicate');
assert.equal(seen.clusterOf('https://licenses.example.org/OFL-1.1-RFN'), 'https://licenses.example.org/OFL-1.1');
assert.equal(seen.count('https://licenses.example.org/OpenSSL'), 4);
assert.equal(seen.count('https://licenses.example.org/OFL-1.1'), 4);
assert.equal(seen.count('https://licenses.example.org/Libpng'), 3);
seen.free();
console.log('crawler example: ok');
