// Every public export of the wasm module reaches users through every entry point: the
// Node ESM and CJS entries and the browser entry (which lists its exports by name).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const raw = require('../../pkg/node/simhash_wasm.js');
const publicNames = Object.keys(raw).filter((n) => !n.startsWith('__') && n !== 'initSync' && n !== 'default').sort();

test('the Node entries export every public wasm export', async () => {
  assert.ok(publicNames.length >= 15, publicNames.join(' '));
  const esm = await import('../../pkg/index.mjs');
  const cjs = require('../../pkg/index.cjs');
  for (const name of publicNames) {
    assert.equal(typeof esm[name], typeof raw[name], `ESM entry lacks ${name}`);
    assert.equal(typeof cjs[name], typeof raw[name], `CJS entry lacks ${name}`);
  }
});

test('simhash-wasm/full is the Node entry in Node, and the same browser entry over the full build', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../pkg/package.json', import.meta.url), 'utf8'));
  assert.deepEqual(pkg.exports['./full'].node, pkg.exports['.'].node);
  assert.equal(pkg.exports['./full'].browser, './full/index.js');
  assert.equal(pkg.exports['.'].browser, './web/index.js');
  const entry = (dir) => readFileSync(new URL(`../../pkg/${dir}/index.js`, import.meta.url), 'utf8');
  assert.equal(entry('full'), entry('web'));
  // The same public names in both browser builds (the small one has throwing stand-ins);
  // hidden hooks (`__`) may differ: the pool's dedup hooks are in the full build only.
  const names = (dir) => [...readFileSync(new URL(`../../pkg/${dir}/simhash_wasm.js`, import.meta.url), 'utf8')
    .matchAll(/^export (?:function|class) (\w+)/gm)].map((m) => m[1]).filter((n) => !n.startsWith('__')).sort();
  assert.deepEqual(names('web'), names('full'));
  assert.ok(names('web').includes('ContentSeen'));
});

test('the browser entry re-exports every public wasm export', () => {
  const src = readFileSync(new URL('../../pkg/web/index.js', import.meta.url), 'utf8');
  const listed = new Set([...src.matchAll(/^\s+(\w+),$/gm)].map((m) => m[1]));
  for (const name of publicNames) assert.ok(listed.has(name), `pkg/web/index.js does not export ${name}`);
});
