// SimHashPool in Chromium: module Web Workers that load the package's own web build give
// the single-thread fingerprints and dedup report, the same error for a bad document, and
// reject on close().
import test from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch } from './harness.mjs';

for (const build of ['web', 'full']) {
  test(`the Web Worker pool of the ${build} build matches fingerprintBatch`, async () => {
    const server = await serve();
    const browser = await launch();
    try {
      const page = await browser.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      const workers = [];
      page.on('worker', (w) => workers.push(w.url()));
      await page.goto(`${server.url}/tests/browser/fixtures/pool.html?build=${build}`);
      await page.waitForFunction(() => window.result !== undefined, null, { timeout: 60000 });
      const result = await page.evaluate(() => window.result);
      assert.deepEqual(errors, []);
      assert.equal(result.error, undefined);
      assert.equal(result.size, 2);
      assert.ok(workers.length >= 2 && workers.every((u) => u.endsWith(`/pkg/${build}/pool-worker.js`)), workers.join());
      assert.equal(result.same, true);
      assert.equal(result.bad, 'true undefined 2222 true'.replace('undefined', 'EmptyText'));
      assert.equal(result.after, true);
      assert.equal(result.dedup, build === 'full' ? true : 'FeatureDisabled', `${result.dedupPairs} pairs`);
      assert.equal(result.sketches, build === 'full' ? true : 'FeatureDisabled');
      assert.equal(result.closed, 'PoolClosed');
      assert.equal(result.explain, true);
    } finally {
      await browser.close();
      await server.close();
    }
  });
}
