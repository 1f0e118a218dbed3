// scripts/test/floors.mjs, the check that fails `npm run bench:quick` when a quality figure
// leaves its bound: a figure under its floor, over its ceiling, missing or not a number fails
// the run; a SKIP line (no dev corpus) and a line within bounds pass it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { outOfBounds, lastLine } from '../../scripts/test/floors.mjs';

const script = fileURLToPath(new URL('../../scripts/test/floors.mjs', import.meta.url));
const floors = JSON.parse(readFileSync(new URL('../../scripts/test/floors.json', import.meta.url), 'utf8'));
const check = (run, input) => spawnSync(process.execPath, [script, run], { input, encoding: 'utf8' });

test('figures out of bounds are named, one message each', () => {
  const bounds = { p: { min: 0.97 }, r: { min: 0.9 }, lost: { max: 0 }, f1: { min: 0.5 } };
  assert.deepEqual(outOfBounds('RESULT p=0.97 r=0.95 lost=0 f1=0.6 other=NA', bounds), []);
  assert.deepEqual(outOfBounds('RESULT p=0.969 r=0.95 lost=2 f1=NA', bounds), [
    'p=0.969 is under its floor 0.97',
    'lost=2 is over its ceiling 0',
    'f1 is "NA", not a number',
  ]);
  assert.deepEqual(outOfBounds('RESULT p=1 lost=0 f1=1', bounds), ['r is missing from the RESULT line']);
});

test('the last RESULT or SKIP line is the one checked', () => {
  assert.equal(lastLine('x\nRESULT a=1\nprogress\nRESULT a=2\n'), 'RESULT a=2');
  assert.equal(lastLine('SKIP quality: the dev corpus cannot be built on this machine\n'),
    'SKIP quality: the dev corpus cannot be built on this machine');
  assert.equal(lastLine('no figures\n'), undefined);
});

test('the script passes its input through and exits 1 on a figure out of bounds', () => {
  const keys = Object.keys(floors['bench:shared']);
  const good = `a table\nRESULT checks_s=1 ${keys.map((k) => `${k}=0`).join(' ')}\n`;
  const ok = check('bench:shared', good);
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(ok.stdout, good);
  const bad = check('bench:shared', good.replace(`${keys[0]}=0`, `${keys[0]}=3`));
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, new RegExp(`${keys[0]}=3 is over its ceiling 0`));
  const none = check('bench:shared', 'it crashed\n');
  assert.equal(none.status, 1);
  assert.match(none.stderr, /no RESULT line/);
  assert.equal(check('bench:shared', 'SKIP bench:shared: no redis\n').status, 0);
  assert.equal(check('no-such-run', 'RESULT a=1\n').status, 2);
});

test('every bound names a run the quick benchmarks check, with a number as its min or max', () => {
  const quick = readFileSync(new URL('../../scripts/test/bench-quick.sh', import.meta.url), 'utf8');
  for (const [run, bounds] of Object.entries(floors)) {
    assert.match(quick, new RegExp(`floors ${run}\\b`), `bench-quick.sh checks ${run}`);
    for (const [key, b] of Object.entries(bounds)) {
      assert.deepEqual(Object.keys(b).filter((k) => k !== 'min' && k !== 'max'), [], key);
      assert.ok(typeof (b.min ?? b.max) === 'number', key);
    }
  }
});
