// A crawler with N worker processes sharing one RedisContentSeen.
//
//   node examples/redis-crawler/crawl.mjs --redis redis://127.0.0.1:6379 [--workers 4]
//   node examples/redis-crawler/crawl.mjs --spawn-redis        (starts a throwaway redis-server)
//
// The example serves a small site on loopback itself: articles, plus planted
// near-duplicates (mirrors, the same article in another template, one changed word). The
// workers share a frontier (a Redis list) and the content-seen test, and the parent prints
// pages, kept, duplicates and the biggest clusters. Run `npm run build` first.
import { spawn, fork } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { RedisContentSeen } = require('../../pkg/index.cjs');
const { createClient } = require('redis');

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : process.argv[i + 1];
};
const NS = 'example-crawl';

// ---- the site --------------------------------------------------------------------------
// Article text: words drawn (seeded) from 3,000 made-up words, so that, as with real
// articles, two different stories share few of their 4-character shingles.
function lcg(seed) {
  let x = seed >>> 0;
  return () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0);
}
const WORDS = (() => {
  const r = lcg(7);
  return Array.from({ length: 3000 }, () => String.fromCharCode(...Array.from({ length: 3 + (r() % 7) }, () => 97 + (r() % 26))));
})();
function article(i) {
  const r = lcg(1000 + i);
  const sentence = () => Array.from({ length: 8 + (r() % 10) }, () => WORDS[r() % WORDS.length]).join(' ');
  return Array.from({ length: 6 }, (_, p) => `Story ${i}, part ${p}: ${sentence()}, ${sentence()}; a closing ${sentence()}.`).join('\n\n');
}
const pages = new Map();
const link = (u) => `<a href="${u}">${u}</a>`;
const layoutA = (body, links) => `<html><head><title>t</title></head><body><nav>Home | News</nav><article>${body.split('\n\n').map((p) => `<p>${p}</p>`).join('')}</article><footer>${links.map(link).join(' ')}</footer></body></html>`;
const layoutB = (body, links) => `<html><body><div class="wrap"><header>Mirror site</header>${body.split('\n\n').map((p) => `<div>${p}</div>`).join('')}<ul>${links.map((l) => `<li>${link(l)}</li>`).join('')}</ul></div></body></html>`;
const ARTICLES = 24;
const all = [];
for (let i = 0; i < ARTICLES; i++) {
  all.push([`/a/${i}`, article(i), layoutA]);
  if (i % 3 === 0) all.push([`/mirror/a/${i}`, article(i), layoutA]); // exact mirror
  if (i % 4 === 0) all.push([`/print/${i}`, article(i), layoutB]); // other template
  if (i % 5 === 0) all.push([`/a/${i}/v2`, article(i).replace('closing', 'final'), layoutA]); // one word
}
all.forEach(([path, body, layout], j) => {
  const links = [all[(j + 1) % all.length][0], all[(j * 5 + 2) % all.length][0]];
  pages.set(path, layout(body, links));
});
pages.set('/', `<html><body>${[...pages.keys()].filter((p) => p.startsWith('/a/')).slice(0, 4).map(link).join(' ')}</body></html>`);

// ---- a worker ---------------------------------------------------------------------------
if (process.argv.includes('--worker')) {
  const [redisUrl, base] = [arg('redis'), arg('base')];
  const client = createClient({ url: redisUrl });
  await client.connect();
  const seen = await RedisContentSeen.open(client, { namespace: NS, html: true });
  let idle = 0;
  while (idle < 20) {
    const path = await client.lPop(`{${NS}}:frontier`);
    if (!path) {
      idle++;
      await new Promise((r) => setTimeout(r, 25));
      continue;
    }
    idle = 0;
    const html = await (await fetch(base + path)).text();
    const r = await seen.check(base + path, html);
    for (const [, href] of html.matchAll(/href="([^"]+)"/g)) {
      if (await client.sAdd(`{${NS}}:visited`, href)) await client.rPush(`{${NS}}:frontier`, href);
    }
    await client.hIncrBy(`{${NS}}:stats`, r.duplicate ? 'duplicates' : 'kept', 1);
  }
  seen.close();
  await client.quit();
  process.exit(0);
}

// ---- the parent -------------------------------------------------------------------------
const workers = Number(arg('workers', '4'));
let redisUrl = arg('redis', 'redis://127.0.0.1:6379');
let redisProc;
let dir;
if (process.argv.includes('--spawn-redis')) {
  dir = mkdtempSync(join(tmpdir(), 'simhash-example-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  redisProc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--hash-max-listpack-value', '512'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    let log = '';
    redisProc.stdout.on('data', (d) => ((log += d), /Ready to accept/.test(log) && resolve()));
    redisProc.once('exit', (c) => reject(new Error('redis-server exited ' + c + ': ' + log)));
  });
  redisUrl = `redis://127.0.0.1:${port}`;
}
const server = http.createServer((req, res) => {
  const body = pages.get(req.url);
  res.writeHead(body ? 200 : 404, { 'content-type': 'text/html' });
  res.end(body ?? 'not found');
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;
try {
  const client = createClient({ url: redisUrl });
  await client.connect();
  // A fresh crawl: drop this example's keys from an earlier run.
  for await (const keys of client.scanIterator({ MATCH: `{${NS}}:*`, COUNT: 100 })) if (keys.length) await client.del(keys);
  await client.sAdd(`{${NS}}:visited`, '/');
  await client.rPush(`{${NS}}:frontier`, '/');
  await Promise.all(
    Array.from({ length: workers }, () =>
      new Promise((resolve, reject) => {
        const c = fork(new URL(import.meta.url).pathname, ['--worker', '--redis', redisUrl, '--base', base]);
        c.on('exit', (code) => (code === 0 ? resolve() : reject(new Error('worker failed'))));
      }),
    ),
  );
  const stats = await client.hGetAll(`{${NS}}:stats`);
  const seen = await RedisContentSeen.open(client, { namespace: NS, html: true });
  const clusters = [];
  for await (const p of seen.clusters()) clusters.push(p);
  clusters.sort((a, b) => b.count - a.count || a.id.localeCompare(b.id));
  const kept = Number(stats.kept ?? 0);
  const dups = Number(stats.duplicates ?? 0);
  console.log(`${workers} workers: pages ${kept + dups}, kept ${kept}, duplicates ${dups}`);
  console.log('biggest clusters:');
  for (const c of clusters.slice(0, 5)) console.log(`  ${c.count}× ${c.id.slice(base.length)}`);
  if (kept + dups !== pages.size || kept !== clusters.length || dups === 0) {
    console.error(`unexpected: ${pages.size} pages served`);
    process.exitCode = 1;
  }
  seen.close();
  await client.quit();
} finally {
  server.close();
  if (redisProc) {
    redisProc.kill();
    await new Promise((r) => redisProc.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}
