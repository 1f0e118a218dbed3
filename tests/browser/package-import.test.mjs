// The npm package's browser build, imported by a plain <script type="module"> in Chromium.
import test from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch } from './harness.mjs';

test('a plain browser module imports the package and gets the same fingerprints as Node', async () => {
  const { SimHasher } = await import('../../pkg/index.mjs');
  const want = new SimHasher().fingerprint('The cat sat on the mat.').toString(16);
  const server = await serve();
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(`${server.url}/tests/browser/fixtures/import.html`);
    await page.waitForFunction(() => window.result !== undefined, null, { timeout: 20000 });
    const result = await page.evaluate(() => window.result);
    assert.deepEqual(errors, []);
    assert.equal(result.fp, want);
    assert.equal(result.sums, '26,-14,24,-8,-8,-8');
    assert.equal(result.error, 'SimHashError EmptyText true true');
    assert.equal(result.error2, 'Corrupt true');
    assert.equal(result.dup, true);
    assert.equal(result.text, 'a & b');
    assert.equal(result.after, want);
  } finally {
    await browser.close();
    await server.close();
  }
});
