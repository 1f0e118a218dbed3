// `simhash-wasm dedup --redis URL --namespace NS`: a batch job split over processes, each
// running the CLI on its share of the files against one redis-server started here. The
// shares hold near-duplicates of each other's documents, so the processes only get the
// invariants right by sharing the store: no two kept documents within k, every duplicate
// counted under a kept document within k, and the store's size is the number kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { haveRedis, startServer } from './redis-server.mjs';
import { rng, popcount } from './redis-common.mjs';

const require = createRequire(import.meta.url);
const { SimHasher } = require('../../pkg/index.cjs');
const CLI = new URL('../../pkg/bin/simhash-wasm.mjs', import.meta.url).pathname;
const skip = haveRedis() ? false : 'redis-server is not installed (scripts/setup.sh installs it)';

function run(args) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('exit', (code) => resolve({ code, out, err }));
  });
}

// 60 documents of 120 made-up words, and for each of the first 30 a copy with one word
// changed (within k = 3 of its document for about half of them), put in the other share.
function corpus(dir) {
  const next = rng(77);
  const vocab = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}${'aeiou'[i % 5]}`);
  const words = () => Array.from({ length: 120 }, () => vocab[Number(next() % 3000n)]);
  const shares = [join(dir, 'a'), join(dir, 'b')];
  shares.forEach((s) => mkdirSync(s));
  const texts = new Map();
  for (let i = 0; i < 60; i++) {
    const w = words();
    const home = i % 2;
    writeFileSync(join(shares[home], `doc${i}.txt`), w.join(' '));
    texts.set(`doc${i}.txt`, w.join(' '));
    if (i < 30) {
      w[Number(next() % 120n)] = 'changed';
      writeFileSync(join(shares[1 - home], `copy${i}.txt`), w.join(' '));
      texts.set(`copy${i}.txt`, w.join(' '));
    }
  }
  return { shares, texts };
}

test('dedup --redis: two processes, each on its share, keep each document once', { skip }, async () => {
  const server = await startServer();
  const dir = mkdtempSync(join(tmpdir(), 'simhash-cli-redis-'));
  try {
    const { shares, texts } = corpus(dir);
    const args = (share) => ['dedup', share, '--redis', server.url, '--namespace', 'cli'];
    const runs = await Promise.all(shares.map((s) => run(args(s))));
    const results = new Map();
    for (const r of runs) {
      assert.equal(r.code, 0, r.err);
      for (const line of r.out.trim().split('\n')) {
        const x = JSON.parse(line);
        assert.ok(!x.error, x.error);
        assert.ok(!results.has(x.id), `${x.id} reported twice`);
        results.set(x.id, x);
      }
      assert.match(r.err, /documents: \d+ new, \d+ duplicates, 0 failed; \d+ stored in cli/);
    }
    assert.equal(results.size, texts.size);
    const hasher = new SimHasher();
    const fp = new Map([...texts].map(([id, t]) => [id, hasher.fingerprint(t)]));
    const kept = [...results.values()].filter((x) => !x.duplicate).map((x) => x.id);
    for (let i = 0; i < kept.length; i++) {
      for (let j = i + 1; j < kept.length; j++) {
        assert.ok(popcount(fp.get(kept[i]) ^ fp.get(kept[j])) > 3, `${kept[i]} and ${kept[j]} are both kept`);
      }
    }
    let across = 0;
    for (const x of results.values()) {
      if (!x.duplicate) continue;
      assert.ok(kept.includes(x.cluster), `${x.id} is counted under ${x.cluster}, which is not kept`);
      assert.ok(popcount(fp.get(x.id) ^ fp.get(x.cluster)) <= 3, `${x.id} is far from ${x.cluster}`);
      across += Number(shares.some((s, n) => runs[n].out.includes(`"id":"${x.id}"`) && !runs[n].out.includes(`"id":"${x.cluster}"`)));
    }
    // Each copy within k of its document is kept once between them (the 60 documents are
    // far apart), wherever the two were checked.
    const pairs = [...Array(30).keys()].filter((i) => popcount(fp.get(`doc${i}.txt`) ^ fp.get(`copy${i}.txt`)) <= 3).length;
    assert.ok(pairs >= 10, `only ${pairs} copies are within k: the test would prove little`);
    assert.equal(kept.length, 90 - pairs);
    assert.ok(across > 0, 'some duplicates were found against the other process\'s documents');
    // A rerun of one share (a job resumed) finds every document already stored.
    const again = await run(args(shares[0]));
    assert.equal(again.code, 0, again.err);
    for (const line of again.out.trim().split('\n')) assert.equal(JSON.parse(line).duplicate, true, line);
    assert.match(again.err, / 0 new, /);
    assert.match(again.err, new RegExp(`; ${90 - pairs} stored in cli`));
    // --sketch: the store's sketch mode; a run without it on that namespace is refused.
    const sk = await run([...args(shares[0]), '--namespace', 'cli-sk', '--sketch']);
    assert.equal(sk.code, 0, sk.err);
    assert.match(sk.err, /0 failed; \d+ stored in cli-sk/);
    const mixed = await run([...args(shares[1]), '--namespace', 'cli-sk']);
    assert.equal(mixed.code, 2);
    assert.match(mixed.err, /sketch/);
    // Bad input: no namespace, a server that is not there.
    const noNs = await run(['dedup', shares[0], '--redis', server.url]);
    assert.equal(noNs.code, 2);
    assert.match(noNs.err, /--namespace/);
    await server.stop();
    const gone = await run(args(shares[0]));
    assert.equal(gone.code, 2);
    assert.match(gone.err, /simhash-wasm: .*(connect|ECONNREFUSED)/);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
