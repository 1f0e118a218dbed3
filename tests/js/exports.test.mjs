// Every public export of the wasm module reaches users through every entry point: the
// Node ESM and CJS entries and the browser entry (which lists its exports by name).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
  const { types: fullNodeTypes, ...fullNode } = pkg.exports['./full'].node;
  assert.deepEqual(fullNode, pkg.exports['.'].node);
  // The typings: Node's (with the file helpers and RedisContentSeen) in Node, the browser
  // entries' elsewhere.
  assert.deepEqual([fullNodeTypes, pkg.exports['./full'].types, pkg.exports['./web'].types, pkg.exports['.'].types],
    ['./index.d.ts', './full/index.d.ts', './web/index.d.ts', './index.d.ts']);
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

// The error class, the argument checks and the worker pool are written once, as ES modules
// (pkg-template/web/); the Node entry requires the CommonJS forms the build generates.
const SHARED_MODULES = ['errors', 'args', 'pool'];

test('the Node entry\'s errors.cjs, args.cjs and pool.cjs are the browser\'s ES modules, the same code', async () => {
  const text = (rel) => readFileSync(new URL(`../../${rel}`, import.meta.url), 'utf8');
  for (const m of SHARED_MODULES) {
    const source = text(`pkg-template/web/${m}.js`);
    assert.equal(text(`pkg/web/${m}.js`), source, `pkg/web/${m}.js is not pkg-template/web/${m}.js`);
    assert.equal(text(`pkg/full/${m}.js`), source, `pkg/full/${m}.js is not pkg-template/web/${m}.js`);
    const esm = await import(`../../pkg/web/${m}.js`);
    const cjs = require(`../../pkg/${m}.cjs`);
    assert.deepEqual(Object.keys(cjs).sort(), Object.keys(esm).sort(), `${m}: exported names differ`);
    assert.ok(Object.keys(esm).length > 0);
    for (const [name, value] of Object.entries(esm)) {
      if (typeof value === 'function') assert.equal(String(cjs[name]), String(value), `${m}.${name}: code differs`);
      else assert.deepEqual(cjs[name], value, `${m}.${name}: value differs`);
    }
  }
  // And they behave the same: the same description of a bad value, the same thrown error.
  const esmArgs = await import('../../pkg/web/args.js');
  const cjsArgs = require('../../pkg/args.cjs');
  for (const v of [5n, -1n, null, undefined, 'text', [1, 2], { a: 1 }, new Map(), () => 0, Symbol('s'), 'x'.repeat(200)]) {
    assert.equal(cjsArgs.describe(v), esmArgs.describe(v));
  }
  const { SimHashError } = require('../../pkg/errors.cjs');
  assert.throws(() => cjsArgs.check(['a:fingerprint'], [5], SimHashError),
    (e) => e instanceof SimHashError && e.code === 'InvalidOption' && e.message === 'invalid option `a` = 5: expected a bigint from 0n to 2n ** 64n - 1n');
});

test('scripts/esm-to-cjs.mjs refuses a module it cannot translate whole', () => {
  const dir = mkdtempSync(join(tmpdir(), 'esm-to-cjs-'));
  const script = fileURLToPath(new URL('../../scripts/esm-to-cjs.mjs', import.meta.url));
  const run = (source) => {
    writeFileSync(join(dir, 'in.js'), source);
    return spawnSync(process.execPath, [script, join(dir, 'in.js'), join(dir, 'out.cjs')], { encoding: 'utf8' });
  };
  try {
    const ok = run('// a comment that says import and export\nexport const A = 1;\nexport function f() { return A; }\nexport class C {}\n');
    assert.equal(ok.status, 0, ok.stderr);
    const out = require(join(dir, 'out.cjs'));
    assert.deepEqual(Object.keys(out), ['A', 'f', 'C']);
    assert.equal(out.f(), 1);
    for (const bad of ["import { x } from './x.js';\nexport const A = x;\n", 'export default 1;\n',
      'const A = 1;\nexport { A };\n', "export * from './x.js';\n", 'export const A = import.meta.url;\n',
      'const A = 1;\n']) {
      const r = run(bad);
      assert.notEqual(r.status, 0, `accepted: ${bad}`);
      assert.match(r.stderr, bad === 'const A = 1;\n' ? /exports nothing/ : /in\.js:\d+: only `export/);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
