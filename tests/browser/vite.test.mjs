// The package as a Vite app uses it: tests/js/fixtures/vite-app does
// `import { SimHasher, simhashBits } from 'simhash-wasm'`, is built with Vite's JS API into
// its dist/, and the built app runs in Chromium. The package is linked into the fixture's
// node_modules/ (git-ignored) as the built pkg/, so Vite resolves it through the package's
// `exports` map with its browser conditions, as it would an installed copy. Needs pkg/ built.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { serve, launch } from './harness.mjs';

const app = fileURLToPath(new URL('../js/fixtures/vite-app/', import.meta.url));
const pkgWasm = fileURLToPath(new URL('../../pkg/web/simhash_wasm_bg.wasm', import.meta.url));

test('a Vite app imports the package and gets the same fingerprints as Node', { timeout: 90000 }, async () => {
  const { SimHasher } = await import('../../pkg/index.mjs');
  const want = new SimHasher().fingerprint('The cat sat on the mat.').toString(16);

  // node_modules/simhash-wasm -> ../../../../../pkg (the repository's built package).
  const link = join(app, 'node_modules', 'simhash-wasm');
  await mkdir(join(app, 'node_modules'), { recursive: true });
  await rm(link, { force: true });
  await symlink('../../../../../pkg', link, 'dir');

  await build({ configFile: join(app, 'vite.config.mjs'), logLevel: 'warn' });

  // The wasm must be emitted as an asset (from the entry's new URL(..., import.meta.url)),
  // byte for byte the package's browser wasm.
  const dist = join(app, 'dist');
  const assets = await readdir(join(dist, 'assets'));
  const wasm = assets.filter((f) => f.endsWith('.wasm'));
  assert.equal(wasm.length, 1, `one .wasm asset in dist/assets, got ${assets.join(', ')}`);
  assert.ok((await readFile(join(dist, 'assets', wasm[0]))).equals(await readFile(pkgWasm)), 'the emitted wasm is pkg/web\'s');

  const server = await serve(dist);
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
    page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
    page.on('response', (r) => { if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`); });
    await page.goto(`${server.url}/`);
    try {
      await page.waitForFunction(() => window.result !== undefined, null, { timeout: 20000 });
    } catch (e) {
      assert.fail(`the app never set window.result; page errors: ${JSON.stringify(errors)}`);
    }
    const result = await page.evaluate(() => window.result);
    assert.deepEqual(errors, []);
    assert.equal(result.fp, want);
    assert.equal(result.sums, '26,-14,24,-8,-8,-8');
    assert.equal(await page.textContent('#out'), `fingerprint ${want}\nsums 26,-14,24,-8,-8,-8`);
  } finally {
    await browser.close();
    await server.close();
  }
});
