// The package as a user gets it: the tarball (`npm run pack` makes the release one; here
// `npm pack` of the current pkg/, or $SIMHASH_TARBALL) installed offline into an empty
// folder, then imported (ESM and CJS), `npx simhash-wasm dedup` run, and every ```js block
// of the npm README executed there.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

const pkgDir = fileURLToPath(new URL('../../pkg/', import.meta.url));
let dir;
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000, ...opts });

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'simhash-install-'));
  let tarball = process.env.SIMHASH_TARBALL;
  if (!tarball) {
    const name = run('npm', ['pack', '--silent', '--pack-destination', dir, pkgDir]).trim().split('\n').pop();
    tarball = join(dir, name);
  }
  writeFileSync(join(dir, 'package.json'), '{ "name": "install-test", "private": true }\n');
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tarball]);
});

test('ESM and CJS imports of the installed package work and share the error class', () => {
  writeFileSync(join(dir, 'esm.mjs'), `
    import { SimHasher, SimHashError, ContentSeen } from 'simhash-wasm';
    import { createRequire } from 'node:module';
    const cjs = createRequire(import.meta.url)('simhash-wasm');
    const fp = new SimHasher().fingerprint('an installed package fingerprints text');
    let ok = false;
    try { new cjs.SimHasher().fingerprint(''); } catch (e) { ok = e instanceof SimHashError && e instanceof Error; }
    console.log(JSON.stringify({ fp: fp.toString(), same: cjs.SimHasher === SimHasher, ok, seen: typeof ContentSeen }));
  `);
  writeFileSync(join(dir, 'cjs.cjs'), `
    const { SimHasher } = require('simhash-wasm');
    console.log(new SimHasher().fingerprint('an installed package fingerprints text').toString());
  `);
  const esm = JSON.parse(run('node', ['esm.mjs']));
  assert.deepEqual({ same: esm.same, ok: esm.ok, seen: esm.seen }, { same: true, ok: true, seen: 'function' });
  assert.equal(run('node', ['cjs.cjs']).trim(), esm.fp);
});

test('the installed typings: each entry declares what it has, under Node and bundler resolution', () => {
  const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
  const nodeTypes = fileURLToPath(new URL('../../node_modules/@types/node', import.meta.url));
  // A browser app (bundler resolution, DOM types): `simhash-wasm/web` and `simhash-wasm/full`
  // have no file helpers and no RedisContentSeen; a Node app (NodeNext) has them.
  const cases = {
    browser: [{ module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM'], types: [] }, `
      import { SimHasher } from 'simhash-wasm/web';
      import * as full from 'simhash-wasm/full';
      import * as web from 'simhash-wasm/web';
      const fp: bigint = new SimHasher().fingerprint('x');
      const seen = new full.ContentSeen({ html: true });
      // @ts-expect-error the browser build has no file helpers
      web.saveIndex;
      // @ts-expect-error nor RedisContentSeen
      web.RedisContentSeen;
      // @ts-expect-error simhash-wasm/full in a browser has no file helpers either
      full.loadSeen;
      export { fp, seen };
    `],
    node: [{ module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022'], types: ['node'], typeRoots: [join(nodeTypes, '..')] }, `
      import { SimHasher, saveIndex, RedisContentSeen, SimHashIndex } from 'simhash-wasm';
      import * as full from 'simhash-wasm/full';
      const fp: bigint = new SimHasher().fingerprint('x');
      saveIndex(new SimHashIndex(), 'a.idx');
      full.saveSeen(new full.ContentSeen(), 'a.seen');
      export { fp, RedisContentSeen };
    `],
  };
  for (const [name, [options, code]] of Object.entries(cases)) {
    writeFileSync(join(dir, `types-${name}.ts`), code);
    writeFileSync(join(dir, `tsconfig-${name}.json`), JSON.stringify({
      compilerOptions: { target: 'ES2022', strict: true, noEmit: true, skipLibCheck: false, ...options },
      files: [`types-${name}.ts`],
    }));
    try {
      run(process.execPath, [tsc, '-p', `tsconfig-${name}.json`]);
    } catch (e) {
      assert.fail(`${name}: tsc failed:\n${e.stdout}${e.stderr}`);
    }
  }
});

test('npx simhash-wasm dedup runs from the installed tarball', () => {
  const out = run('npx', ['--offline', 'simhash-wasm', 'dedup', '--format', 'table']);
  assert.match(out, /^cluster/);
  assert.ok(out.split('\n').length > 10);
});

test('every js example of the npm README runs', () => {
  const readme = readFileSync(join(dir, 'node_modules/simhash-wasm/README.md'), 'utf8');
  const all = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  // A block that needs a Redis server (RedisContentSeen) is run by tests/js/redis-*.test.mjs,
  // which start one; here, with no server and no `redis` client installed, it is left out.
  const blocks = all.filter((code) => !/from 'redis'/.test(code));
  assert.ok(blocks.length >= 3 && all.length - blocks.length <= 1, `${blocks.length} blocks of ${all.length}`);
  let checked = 0;
  blocks.forEach((code, i) => {
    // Each console.log also reports its line, so the comment that says what it prints
    // (`// 5: …`, `// false`, `// 77 % …`, `// [{ id: 'a', distance: 5 }]`) is checked.
    const lines = code.split('\n');
    const imports = lines.filter((l) => /^import /.test(l));
    const body = lines.map((l, n) => (/^import /.test(l) ? '' : l.replace(/console\.log\(/g, `__log(${n}, `)));
    writeFileSync(join(dir, `readme-${i}.mjs`), [
      ...imports,
      "import { inspect as __inspect } from 'node:util';",
      "const __log = (n, ...a) => console.log(`\u0001${n}\u0001${a.map((x) => (typeof x === 'string' ? x : __inspect(x, { breakLength: Infinity }))).join(' ')}`);",
      ...body,
    ].join('\n'));
    const printed = new Map();
    for (const m of run('node', [`readme-${i}.mjs`]).matchAll(/^\u0001(\d+)\u0001(.*)$/gm)) {
      if (!printed.has(+m[1])) printed.set(+m[1], m[2]);
    }
    lines.forEach((l, n) => {
      const said = /console\.log\(.*\/\/ (-?\d[\d.]*(?: %)?|true|false|\[.*\]|\{.*\})(?=$|[:\s])/.exec(l);
      // A shape (`[{ id, distance }]`, no values) or an elided value is not checked.
      if (!said || /…|\.\.\./.test(said[1]) || (/^[[{]/.test(said[1]) && !said[1].includes(':'))) return;
      const flat = (t) => t.replace(/\s+/g, '').replace(/"/g, "'");
      const got = printed.get(n) ?? '(nothing printed)';
      assert.ok(flat(got).startsWith(flat(said[1])), `README block ${i}, line ${n + 1}: its comment says ${said[1]}, it prints ${got}`);
      checked++;
    });
  });
  assert.ok(checked >= 4, `${checked} README comments checked against what their line prints`);
});
