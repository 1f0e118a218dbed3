// A Crawlee CheerioCrawler that skips near-duplicate pages with simhash-wasm's ContentSeen,
// and keeps what it has seen between runs in Crawlee's key-value store.
//
//   npm run example:crawlee            (from the repository root: builds, installs, runs)
//   node examples/crawlee/crawl.mjs    (once pkg/ is built and this folder installed)
//
// It serves a small site on loopback (site.mjs: articles in a realistic template, with
// near-duplicates planted), then crawls it in two runs, each its own process, as a crawl
// that stops and resumes would: run 1 crawls part 1 of the site; run 2 loads run 1's
// ContentSeen from the key-value store and crawls part 2, which also holds copies of
// part 1's articles. Each run prints what it found; the parent checks it against the
// site's answer key and exits non-zero when a page got the wrong answer.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { makeSite, serve } from './site.mjs';

const SEEN_KEY = 'content-seen';

// ---- one run: a crawler process ----------------------------------------------------------
async function run(part, base) {
  const { CheerioCrawler, KeyValueStore, Configuration, EventType, log } = await import('@crawlee/cheerio');
  const { ContentSeen } = await import('simhash-wasm');
  log.setLevel(log.LEVELS.WARNING);

  // A named store: Crawlee purges the default storages when a crawl starts, not named ones.
  const store = await KeyValueStore.open('dedup-state');
  const saved = await store.getValue(SEEN_KEY);
  // html: true reads the page's visible text; the options must be those the snapshot was
  // made with (fromBytes throws SchemeMismatch otherwise).
  const options = { html: true };
  const seen = saved ? ContentSeen.fromBytes(saved, options) : new ContentSeen(options);
  const save = () => store.setValue(SEEN_KEY, Buffer.from(seen.toBytes()), { contentType: 'application/octet-stream' });
  // Saved whenever Crawlee persists its own state (every minute, and on migration or abort),
  // and at the end.
  Configuration.getEventManager().on(EventType.PERSIST_STATE, save);

  const results = [];
  const crawler = new CheerioCrawler({
    maxConcurrency: 8,
    async requestHandler({ request, body, enqueueLinks }) {
      // `body` is a string or a Buffer: ContentSeen takes both.
      const r = seen.check(request.loadedUrl ?? request.url, body);
      results.push({ path: new URL(request.url).pathname + new URL(request.url).search, duplicate: r.duplicate, empty: r.empty, cluster: r.cluster && new URL(r.cluster).pathname + new URL(r.cluster).search });
      if (!r.duplicate && !r.empty) {
        // New content: this is where a crawler extracts and stores the page. A duplicate
        // is skipped; an empty page (drawn by scripts, or a hub of links with no main
        // content) has nothing to store, but its links are still followed.
      }
      await enqueueLinks();
    },
  });
  await crawler.run([`${base}/p${part}`]);
  await save();
  const clusters = Object.fromEntries(results.filter((r) => !r.empty).map((r) => {
    const c = seen.clusterOf(`${base}${r.path}`);
    return [r.path, c && new URL(c).pathname + new URL(c).search];
  }));
  process.stdout.write(`${JSON.stringify({ part, loaded: Boolean(saved), stored: seen.size, results, clusters })}\n`);
}

// ---- the parent: serve the site, run twice, check the answers -------------------------
async function main() {
  const started = Date.now();
  const site = makeSite();
  const server = await serve(site);
  const storage = mkdtempSync(join(tmpdir(), 'crawlee-example-'));
  const fail = [];
  try {
    const runs = [];
    for (const part of [1, 2]) {
      // A child process (the site is served by this one, so not spawnSync).
      const child = await new Promise((resolve, reject) => {
        const p = spawn(process.execPath, [fileURLToPath(import.meta.url), '--run', String(part), server.base], {
          env: { ...process.env, CRAWLEE_STORAGE_DIR: storage }, timeout: 120_000,
        });
        let stdout = '';
        let stderr = '';
        p.stdout.on('data', (d) => { stdout += d; });
        p.stderr.on('data', (d) => { stderr += d; });
        p.on('error', reject);
        p.on('close', (status) => resolve({ status, stdout, stderr }));
      });
      if (child.status !== 0) throw new Error(`run ${part} failed (${child.status}):\n${child.stderr}`);
      runs.push(JSON.parse(child.stdout.trim().split('\n').pop()));
    }
    const [one, two] = runs;
    if (one.loaded || !two.loaded) fail.push(`run 1 must start empty and run 2 load run 1's state (loaded: ${one.loaded}, ${two.loaded})`);
    // Every page of the site was crawled once, in the run of its part.
    for (const [path, e] of site.expect) {
      const got = runs[e.part - 1].results.filter((r) => r.path === path);
      if (got.length !== 1) fail.push(`${path} crawled ${got.length} times in run ${e.part}`);
    }
    // The answers: pages of one group share a cluster, groups never do, empty pages are empty.
    // A page's cluster cannot change after its run (stored pages and their duplicates stay
    // put unless the same URL is fetched again), so each run reports its own pages'.
    const clusters = { ...one.clusters, ...two.clusters };
    const clusterOf = (path) => clusters[path] ?? null;
    const byGroup = new Map();
    let duplicates = 0;
    let empty = 0;
    for (const r of [...one.results, ...two.results]) {
      const e = site.expect.get(r.path);
      if (r.duplicate) duplicates++;
      if (r.empty) empty++;
      if (e.kind === 'empty') {
        if (!r.empty) fail.push(`${r.path}: a page of scripts must be empty`);
        continue;
      }
      if (e.kind === 'index') continue;   // a list of links: its answer is not planted
      if (r.empty) fail.push(`${r.path}: not empty`);
      const c = clusterOf(r.path);
      if (!byGroup.has(e.group)) byGroup.set(e.group, new Set());
      byGroup.get(e.group).add(c);
    }
    const owner = new Map();
    for (const [group, cs] of byGroup) {
      if (cs.size !== 1) fail.push(`${group} split over clusters ${[...cs].join(', ')}`);
      for (const c of cs) {
        if (owner.has(c) && owner.get(c) !== group) fail.push(`${group} and ${owner.get(c)} matched each other (cluster ${c})`);
        owner.set(c, group);
      }
    }
    const groups = byGroup.size;
    const pages = site.expect.size;
    // Each group keeps one page; its other pages are the planted near-duplicates.
    const planted = [...site.expect.values()].filter((e) => e.kind !== 'empty' && e.kind !== 'index').length - groups;
    // The two index pages (lists of links) may be stored, or be empty (no main content).
    const indexStored = [...one.results, ...two.results].filter((r) => site.expect.get(r.path).kind === 'index' && !r.empty && !r.duplicate).length;
    if (two.stored !== groups + indexStored) fail.push(`${two.stored} pages stored, ${groups + indexStored} expected (one per group)`);
    const indexDuplicates = [...one.results, ...two.results].filter((r) => site.expect.get(r.path).kind === 'index' && r.duplicate).length;
    if (duplicates - indexDuplicates !== planted) fail.push(`${duplicates} duplicates found, ${planted} planted`);
    const crossRun = two.results.filter((r) => site.expect.get(r.path).kind.startsWith('mirror')).filter((r) => r.duplicate).length;
    console.log(`pages ${pages}, run 1 stored ${one.stored}, run 2 stored ${two.stored - one.stored} more; `
      + `duplicates ${duplicates} of ${planted} planted (${crossRun} of them copies of run 1's pages), empty ${empty}; ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await server.close();
    rmSync(storage, { recursive: true, force: true });
  }
  if (fail.length) {
    console.error(`wrong answers:\n  ${fail.join('\n  ')}`);
    process.exit(1);
  }
}

if (process.argv[2] === '--run') await run(Number(process.argv[3]), process.argv[4]);
else await main();
