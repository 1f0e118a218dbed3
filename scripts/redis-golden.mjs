// Makes a Redis store golden (tests/data/redis/NAME.json) with an OLD build of the package:
// runs a small fixed crawl (scripts/redis-golden-common.mjs) through its RedisContentSeen on a
// redis-server started as the tests start one (loopback, a free port, stopped at the end), dumps
// every key of the namespace (type and full content, binary values in base64, sorted), then
// continues the crawl with more pages and records that build's answers too.
//
//   node scripts/redis-golden.mjs OLD_WORKTREE NAME [--out DIR]
//
// OLD_WORKTREE is a checkout of the old commit with its Node package built into pkg/ (its
// index.cjs, redis.cjs and node/ wasm: see tests/data/redis/README.md). NAME is one of the
// kinds below. The golden records the commit, the options, the pages and every answer.
import { execFileSync } from 'node:child_process';
import { writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { goldenPages, dumpNamespace } from './redis-golden-common.mjs';
import { startServer } from '../tests/js/redis-server.mjs';

const require = createRequire(import.meta.url);
const IORedis = require('ioredis');

// The kinds: options given to the old build's RedisContentSeen.open, and the page form.
const KINDS = {
  'fmt2-text': { options: { sketch: false, html: false }, asHtml: false },
  'fmt2-sketch': { options: { sketch: true, html: false }, asHtml: false },
  'fmt3-text': { options: { sketch: false, html: false }, asHtml: false },
  'fmt3-html': { options: { sketch: false, html: true }, asHtml: true },
  'fmt3-sketch': { options: { sketch: true, html: false }, asHtml: false },
  'fmt4-text': { options: { sketch: false, html: false }, asHtml: false },
  'fmt4-html-all': { options: { sketch: false, html: true, content: 'all', template: false }, asHtml: true },
  'fmt4-template': { options: { sketch: false, html: true, content: 'main', template: 3 }, asHtml: true },
  'fmt4-sketch': { options: { sketch: true, html: false }, asHtml: false },
};

const [dirArg, name, ...rest] = process.argv.slice(2);
const kind = KINDS[name];
if (!dirArg || !kind) {
  console.error(`usage: node scripts/redis-golden.mjs OLD_WORKTREE NAME [--out DIR]\n  NAME: ${Object.keys(KINDS).join(', ')}`);
  process.exit(2);
}
const oldDir = resolve(dirArg);
const outDir = rest[0] === '--out' ? resolve(rest[1]) : new URL('../tests/data/redis/', import.meta.url).pathname;
const commit = execFileSync('git', ['-C', oldDir, 'rev-parse', 'HEAD']).toString().trim();
const subject = execFileSync('git', ['-C', oldDir, 'log', '-1', '--format=%s']).toString().trim();
const old = require(join(oldDir, 'pkg/index.cjs'));
const NS = 'golden';
// Each check's id (store format 3 on keeps them in the URL map) is given, not random, so
// that a golden made again is the same byte for byte (builds before format 3 ignore it).
const checkId = (i) => 0x5eed0000n + BigInt(i + 1);

const b64 = (b) => Buffer.from(b).toString('base64');
const hex = (fp) => (fp === null || fp === undefined ? null : fp.toString(16).padStart(16, '0'));
const answer = (r) => ({
  duplicate: r.duplicate,
  cluster: r.cluster ?? null,
  count: r.count ?? null,
  fingerprint: hex(r.fingerprint),
  ...(r.empty !== undefined ? { empty: r.empty } : {}),
  ...(r.estimate !== undefined ? { estimate: r.estimate } : {}),
});

async function main() {
  const { pages, more } = goldenPages({ asHtml: kind.asHtml });
  const server = await startServer();
  const client = new IORedis({ port: server.port, host: '127.0.0.1', lazyConnect: true });
  await client.connect();
  try {
    const seen = await old.RedisContentSeen.open(client, { namespace: NS, ...kind.options });
    const meta = (await client.getBuffer(`{${NS}}:meta`)).toString('utf8');
    const answers = [];
    for (const [i, p] of pages.entries()) answers.push({ url: p.url, ...answer(await seen.check(p.url, p.text, { checkId: checkId(i) })) });
    const urls = [...new Set(pages.map((p) => p.url)), 'https://never.example.com/seen'];
    const byUrl = {};
    for (const u of urls) {
      const count = await seen.count(u);
      const clusterOf = await seen.clusterOf(u);
      byUrl[u] = { count: count ?? null, clusterOf: clusterOf ?? null };
    }
    const clusters = [];
    for await (const c of seen.clusters()) clusters.push({ id: c.id, fingerprint: hex(c.fingerprint), count: c.count });
    clusters.sort((a, b) => (a.id < b.id ? -1 : 1));
    const size = await seen.size;
    const keys = await dumpNamespace(client, NS);
    // The old build continues the crawl after the dump (its answers, for the kinds whose
    // format is kept as it is: the current build must give the same).
    const moreAnswers = [];
    for (const [j, p] of more.entries()) moreAnswers.push({ url: p.url, ...answer(await seen.check(p.url, p.text, { checkId: checkId(pages.length + j) })) });
    // A namespace kept in its format (site templates hashed by words) must end as the old
    // build left it: the whole namespace after the continuation too.
    const keysAfterMore = kind.options.template ? await dumpNamespace(client, NS) : undefined;
    seen.close();
    const golden = {
      golden: name,
      storeFormat: Number(/^simhash-wasm-redis (\d+)\n/.exec(meta)[1]),
      made: { commit, subject, crate: /^version = "(.*)"/m.exec(readFileSync(join(oldDir, 'Cargo.toml'), 'utf8'))[1], script: 'scripts/redis-golden.mjs' },
      namespace: NS,
      options: kind.options,
      checkIds: 'check i (from 0) of pages then more has checkId 0x5eed0000 + i + 1',
      meta,
      pages,
      answers,
      size,
      byUrl,
      clusters,
      more,
      moreAnswers,
      keys,
      keysAfterMore,
    };
    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, `${name}.json`);
    writeFileSync(file, JSON.stringify(golden, null, 1) + '\n');
    console.error(`${file}: store format ${golden.storeFormat}, ${keys.length} keys, size ${size}, commit ${commit.slice(0, 7)}`);
  } finally {
    client.disconnect();
    await server.stop();
  }
}

await main();
