// The npm package's browser build, imported by a plain <script type="module"> in Chromium.
import test from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch } from './harness.mjs';

// What each build answers: the small default one throws FeatureDisabled for the full
// build's parts; both agree on everything else.
const EXPECTED = {
  web: { error2: 'FeatureDisabled true', dup: 'FeatureDisabled true', text: 'FeatureDisabled true', near: 'FeatureDisabled true' },
  full: { error2: 'Corrupt true', dup: 'ok true', text: 'ok a & b', near: 'ok true' },
};

for (const build of ['web', 'full']) {
  test(`a plain browser module imports the ${build} build and gets the same fingerprints as Node`, async () => {
    const { SimHasher } = await import('../../pkg/index.mjs');
    const want = new SimHasher().fingerprint('The cat sat on the mat.').toString(16);
    const server = await serve();
    const browser = await launch();
    try {
      const page = await browser.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      await page.goto(`${server.url}/tests/browser/fixtures/import.html?build=${build}`);
      await page.waitForFunction(() => window.result !== undefined, null, { timeout: 20000 });
      const result = await page.evaluate(() => window.result);
      assert.deepEqual(errors, []);
      assert.equal(result.fp, want);
      assert.equal(result.sums, '26,-14,24,-8,-8,-8');
      assert.equal(result.error, 'SimHashError EmptyText true true');
      assert.equal(result.passages, 'ok 1');
      for (const [key, value] of Object.entries(EXPECTED[build])) assert.equal(result[key], value, key);
      assert.equal(result.after, want);
    } finally {
      await browser.close();
      await server.close();
    }
  });
}
