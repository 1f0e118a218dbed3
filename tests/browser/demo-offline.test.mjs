// Failures, said where the user looks: offline reload after a first visit (service worker),
// with the file readers (.docx, .odt, .pdf) kept for offline use even when none was used
// online, a reader that can't be loaded, a checker worker that can't start, the page opened
// from disk (file://). And the demo server's compressed responses.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { launch } from './harness.mjs';
import { startDemoServer } from '../../scripts/demo-server.mjs';
import { ESSAY_TITLE } from '../../scripts/demo-fixtures.mjs';

const files = fileURLToPath(new URL('./fixtures/files/', import.meta.url));

/** Opens `name` (a fixture) as the submission: { text, errors } once the reader has answered. */
async function openSubmission(page, name) {
  await page.setInputFiles('#sub-file', files + name);
  await page.waitForFunction(() => document.querySelector('#sub-reading').hidden, null, { timeout: 30000 });
  return { text: await page.inputValue('#submission'), errors: await page.$$eval('#sub-errors li', (li) => li.map((x) => x.textContent)) };
}

test('after a first visit, the page reloads offline and both views work', async () => {
  const server = await startDemoServer(0);
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    await page.goto(server.url);
    await page.waitForSelector('body[data-offline-ready="true"]', { timeout: 30000 });
    assert.match(await page.textContent('#status'), /^Ready: .* Saved for offline use\.$/);
    const fp = await page.textContent('#fp-a');
    await browser.setOffline(true);
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
    assert.equal(await page.textContent('#fp-a'), fp);
    await page.click('#tab-check');
    await page.click('#ex-2of20');
    await page.waitForFunction(() => /Done in/.test(document.querySelector('#result-summary').textContent), null, { timeout: 30000 });
    assert.equal(await page.locator('#passages .passage').count(), 2);
    // The file readers were kept when the page said it was ready for offline use, though
    // no file was opened online.
    for (const name of ['essay.docx', 'essay.odt', 'essay-2col.pdf']) {
      const r = await openSubmission(page, name);
      assert.deepEqual(r.errors, [], name);
      assert.equal(r.text.split('\n')[0], ESSAY_TITLE, name);
    }
    assert.deepEqual(errors, []);
  } finally {
    await browser.setOffline(false);
    await browser.close();
    await server.close();
  }
});

test('a file reader that cannot be loaded is said to be unavailable (offline), not the file damaged', async () => {
  const server = await startDemoServer(0);
  // No service worker: going offline leaves the readers unloadable, as before they are kept.
  const browser = await launch({ serviceWorkers: 'block' });
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}#check`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
    // The reader worker starts online (a text file needs no reader module) …
    assert.deepEqual((await openSubmission(page, 'essay.txt')).errors, []);
    await browser.setOffline(true);
    // … and offline, each reader module fails to load.
    for (const [name, what] of [['essay.docx', /Word and OpenDocument files/], ['essay.odt', /Word and OpenDocument files/], ['essay-2col.pdf', /PDF files/]]) {
      const r = await openSubmission(page, name);
      assert.equal(r.errors.length, 1, name);
      assert.match(r.errors[0], new RegExp(`can’t be read: the reader for ${what.source}.* is not available offline`), name);
      assert.doesNotMatch(r.errors[0], /damaged|dynamically imported/, name);
    }
    await browser.setOffline(false);
    await page.route('**/vendor/pdfjs/pdf.min.mjs', (r) => r.abort());
    const r = await openSubmission(page, 'essay-2col.pdf');
    assert.match(r.errors[0], /the reader for PDF files could not be loaded \(.*\)\. Reload the page/);
    assert.doesNotMatch(r.errors[0], /damaged/);
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
    // The controls that can't work without the code are not offered.
    const shown = (p) => p.evaluate(() => ['.tabs', '#view-teach', '#view-check', '#submission', '#run-check'].filter((s) => document.querySelector(s).getClientRects().length));
    assert.deepEqual(await shown(local), []);

    // Offline, with the page's code not in the offline copy: what is known, and no advice to
    // run a server (a visitor of a served page has none to run).
    const off = await browser.newPage();
    await off.addInitScript(() => Object.defineProperty(Navigator.prototype, 'onLine', { get: () => false }));
    await off.route('**/js/main.js', (r) => r.abort());
    await off.goto(server.url);
    await off.waitForSelector('#boot-error', { timeout: 10000 });
    const why = await off.textContent('#boot-error');
    assert.match(why, /This browser is offline, and the page’s code is not in its offline copy/);
    assert.match(why, /Connect to the internet and reload the page/);
    assert.doesNotMatch(why, /not visited online before|npm run demo/);
    assert.deepEqual(await shown(off), []);
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
