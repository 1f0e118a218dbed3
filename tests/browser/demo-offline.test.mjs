// Failures, said where the user looks: offline reload after a first visit (service worker),
// a checker worker that can't start, the page opened from disk (file://). And the demo
// server's compressed responses.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { launch } from './harness.mjs';
import { startDemoServer } from '../../scripts/demo-server.mjs';

test('after a first visit, the page reloads offline and both views work', async () => {
  const server = await startDemoServer(0);
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    await page.goto(server.url);
    await page.waitForSelector('body[data-offline-ready="true"]', { timeout: 30000 });
    const fp = await page.textContent('#fp-a');
    await browser.setOffline(true);
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
    assert.equal(await page.textContent('#fp-a'), fp);
    await page.click('#tab-check');
    await page.click('#ex-2of20');
    await page.waitForFunction(() => /Done in/.test(document.querySelector('#result-summary').textContent), null, { timeout: 30000 });
    assert.equal(await page.locator('#passages .passage').count(), 2);
    assert.deepEqual(errors, []);
  } finally {
    await browser.setOffline(false);
    await browser.close();
    await server.close();
  }
});

test('a checker that cannot start says so in the results; file:// says why and how to serve the page', async () => {
  const server = await startDemoServer(0);
  // The page's service worker would fetch the checker's script past the route that fails it.
  const browser = await launch({ serviceWorkers: 'block' });
  try {
    const page = await browser.newPage();
    await page.route('**/js/check/worker.js', (r) => r.abort());
    await page.goto(`${server.url}#check`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
    await page.click('#ex-2of20');
    await page.waitForSelector('#result-summary .failure');
    assert.match(await page.textContent('#result-summary'), /The checker could not start: .*Nothing was checked/);
    assert.equal(await page.getAttribute('#result-summary .failure', 'role'), 'alert');
    assert.match(await page.textContent('#status'), /Checker error/);
    assert.equal(await page.isVisible('#progress-row'), false);

    const local = await browser.newPage();
    await local.goto(new URL('../../www/index.html', import.meta.url).href);
    await local.waitForSelector('#boot-error', { timeout: 10000 });
    const msg = await local.textContent('#boot-error');
    assert.match(msg, /Opened from a file: this page needs a web server/);
    assert.match(msg, /npm run demo/);
    assert.match(await local.textContent('#status'), /can’t start/);
  } finally {
    await browser.close();
    await server.close();
  }
});

/** GET `path` with `accept-encoding`: { headers, body } (body as sent). */
function get(base, path, acceptEncoding) {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } }, (res) => {
      const parts = [];
      res.on('data', (c) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(parts) }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('the demo server compresses text, scripts and wasm (Brotli or gzip, as asked) and says Vary', async () => {
  const server = await startDemoServer(0);
  try {
    const wasm = readFileSync(new URL('../../pkg/web/simhash_wasm_bg.wasm', import.meta.url));
    const br = await get(server.url, 'pkg/simhash_wasm_bg.wasm', 'gzip, deflate, br');
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(br.headers.vary, 'Accept-Encoding');
    assert.equal(br.headers['content-type'], 'application/wasm');
    assert.ok(brotliDecompressSync(br.body).equals(wasm));
    assert.ok(br.body.length < 0.6 * wasm.length, `${br.body.length} of ${wasm.length} bytes`);
    const gz = await get(server.url, 'js/main.js', 'gzip');
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.ok(gunzipSync(gz.body).equals(readFileSync(new URL('../../www/js/main.js', import.meta.url))));
    const html = await get(server.url, '', 'br;q=0, gzip;q=0.5');
    assert.equal(html.headers['content-encoding'], 'gzip');
    const plain = await get(server.url, 'index.html', undefined);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers.vary, 'Accept-Encoding');
    assert.ok(plain.body.equals(readFileSync(new URL('../../www/index.html', import.meta.url))));
    const png = await get(server.url, 'screenshots/teach.png', 'br');
    assert.equal(png.headers['content-encoding'], undefined);
    // The whole first load, compressed: page, styles, scripts, wasm.
    let sent = 0, raw = 0;
    for (const p of ['index.html', 'style.css', 'js/main.js', 'pkg/index.js', 'pkg/simhash_wasm.js', 'pkg/simhash_wasm_bg.wasm']) {
      const r = await get(server.url, p, 'br');
      sent += r.body.length;
      raw += brotliDecompressSync(r.body).length;
    }
    console.log(`first load (main files): ${raw} bytes raw, ${sent} sent with Brotli`);
  } finally {
    await server.close();
  }
});
