// The demo page (www/), served by the same module `npm run demo` uses, in Chromium.
// Screenshots of both views (desktop and a 390 px phone) go to target/screenshots/.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { launch } from './harness.mjs';
import { startDemoServer } from '../../scripts/demo-server.mjs';

const shots = fileURLToPath(new URL('../../target/screenshots/', import.meta.url));

async function openDemo(browser, url, viewport = { width: 1280, height: 900 }) {
  const page = await browser.newPage();
  await page.setViewportSize(viewport);
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
  page.on('response', (r) => { if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  return { page, errors };
}

const minus = (s) => s.replace(/−/g, '-');

test('the demo page: teaching view, worked example, k slider, passage checker, no console errors', async () => {
  await mkdir(shots, { recursive: true });
  const server = await startDemoServer(0);
  const browser = await launch();
  try {
    const { page, errors } = await openDemo(browser, server.url);

    // Typing changes the fingerprint.
    const before = await page.textContent('#fp-a');
    assert.match(before, /^[0-9a-f]{16}$/);
    await page.fill('#text-a', '');
    await page.type('#text-a', 'The quick brown fox jumps over the lazy dog.', { delay: 5 });
    await page.waitForFunction((b) => document.querySelector('#fp-a')?.textContent !== b, before, { timeout: 10000 });
    const after = await page.textContent('#fp-a');
    assert.notEqual(after, before);
    assert.match(await page.textContent('#normalized'), /the quick brown fox/);

    // The worked example: 26, −14, 24, −8, −8, −8 → 101000.
    assert.equal(await page.getAttribute('#worked-sums', 'data-sums'), '26,-14,24,-8,-8,-8');
    const sums = await page.$$eval('#worked-sums td', (tds) => tds.map((td) => td.textContent));
    assert.deepEqual(sums.map(minus), ['26', '-14', '24', '-8', '-8', '-8']);
    assert.equal(await page.getAttribute('#worked-bits', 'data-bits'), '101000');
    assert.match(await page.textContent('#worked'), /−24/);

    // The k slider changes the verdict (the cat/mat pair differs in a few bits).
    await page.selectOption('#example', 'mat');
    const d = Number(await page.getAttribute('#verdict', 'data-distance'));
    assert.ok(d > 0 && d <= 20, `distance ${d}`);
    await page.fill('#k', '0');
    assert.match(await page.textContent('#verdict'), /not near-duplicates at k = 0/);
    await page.fill('#k', '20');
    assert.match(await page.textContent('#verdict'), /→ near-duplicates at k = 20/);
    await page.fill('#k', '3');

    // The index panel shows the core's layouts and figures: for k = 3, 4 to 6 equal blocks
    // (split as Layout::even does) and the paper's 16,12,12,12,12; C(b, 3) tables each.
    const layouts = await page.$$eval('#layout option', (os) => os.map((o) => ({ value: o.value, label: o.textContent, disabled: o.disabled })));
    assert.deepEqual(layouts.map((o) => o.value), ['16,16,16,16', '16,12,12,12,12', '13,13,13,13,12', '11,11,11,11,10,10']);
    assert.deepEqual(layouts.map((o) => o.label.match(/→ (\d+) tables?/)?.[1]), ['4', '10', '10', '20']);
    assert.match(layouts[1].label, /the paper’s/);
    assert.ok(layouts.every((o) => !o.disabled));
    const tableRows = async () => page.$$eval('#tables tr:not(:first-child)', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    // 4 × 16 bits at N = 2^34: each probe expects 2^(34 − 16) = 262,144 candidates.
    let trs = await tableRows();
    assert.deepEqual(trs.map((r) => [r[1], r[2], r[3].replace(/\D/g, '')]),
      [['#1', '16', '262144'], ['#2', '16', '262144'], ['#3', '16', '262144'], ['#4', '16', '262144']]);
    await page.selectOption('#layout', '16,12,12,12,12');
    trs = await tableRows();
    assert.equal(trs.length, 10);
    assert.deepEqual(trs.map((r) => Number(r[2])), [28, 28, 28, 28, 24, 24, 24, 24, 24, 24]);
    await page.fill('#logn', '20');
    assert.equal((await tableRows())[0][3], '0.0039'); // 2^(20 − 28)
    // At k = 17, 20 blocks would make C(20, 17) = 1140 tables, over the core's limit of 1024:
    // offered disabled, with the core's reason, and not selected.
    await page.fill('#k', '17');
    const k17 = await page.$$eval('#layout option', (os) => os.map((o) => ({ value: o.value, disabled: o.disabled, title: o.title })));
    assert.deepEqual(k17.map((o) => o.disabled), [false, false, true]);
    assert.match(k17[2].title, /1140 tables/);
    assert.equal(await page.inputValue('#layout'), k17[0].value);
    assert.equal((await tableRows()).length, 18);
    await page.fill('#k', '3');
    await page.fill('#logn', '34');

    await page.selectOption('#example', 'football');
    await page.screenshot({ path: `${shots}demo-teach-desktop.png`, fullPage: true });

    // The plagiarism view: 2 copied paragraphs out of 20 → exactly those 2.
    await page.click('#tab-check');
    await page.click('#ex-2of20');
    await page.waitForSelector('#detail:not([hidden]) #sub-view mark', { timeout: 30000 });
    const rows = await page.$$eval('#results tr[data-doc]', (trs) => trs.map((tr) => [Number(tr.dataset.doc), Number(tr.querySelector('.matches').textContent)]));
    assert.deepEqual(rows[0], [0, 2]);
    assert.ok(rows.slice(1).every(([, n]) => n === 0), JSON.stringify(rows));
    assert.equal(await page.locator('#sub-view mark.m').count(), 2);
    assert.equal(await page.locator('#ref-view mark.m').count(), 2);
    // Paragraphs 5 and 16 of the submission are paragraphs 8 and 13 of the reference.
    const subMarks = await page.$$eval('#sub-view mark.m', (ms) => ms.map((m) => m.textContent.replace(/\d+$/, '')));
    const refMarks = await page.$$eval('#ref-view mark.m', (ms) => ms.map((m) => m.textContent.replace(/\d+$/, '')));
    const sub = (await page.inputValue('#submission')).split('\n\n');
    assert.equal(subMarks[0], sub[4]);
    assert.equal(subMarks[1], sub[15]);
    assert.equal(refMarks[0], subMarks[0]);
    // Clicking a passage brings its counterpart into view.
    await page.click('#sub-view mark.m >> nth=1');
    await page.waitForSelector('#ref-view mark.m.flash');
    const visible = await page.$eval('#ref-view', (view) => {
      const m = view.querySelector('mark.flash');
      const a = view.getBoundingClientRect(), b = m.getBoundingClientRect();
      return b.bottom > a.top && b.top < a.bottom;
    });
    assert.ok(visible, 'the counterpart is scrolled into view');
    await page.screenshot({ path: `${shots}demo-check-desktop.png`, fullPage: true });

    // Phone width.
    const phone = await openDemo(browser, server.url, { width: 390, height: 844 });
    await phone.page.screenshot({ path: `${shots}demo-teach-phone.png`, fullPage: true });
    const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow} px wider than the phone`);
    await phone.page.click('#tab-check');
    await phone.page.click('#ex-2of20');
    await phone.page.waitForSelector('#detail:not([hidden]) #sub-view mark', { timeout: 30000 });
    await phone.page.screenshot({ path: `${shots}demo-check-phone.png`, fullPage: true });

    assert.deepEqual(errors, []);
    assert.deepEqual(phone.errors, []);
    console.log(`screenshots: ${shots}`);
  } finally {
    await browser.close();
    await server.close();
  }
});

test('the stress case (200 references × 20 kB) runs in the worker and reports progress', async () => {
  const server = await startDemoServer(0);
  const browser = await launch();
  try {
    const { page, errors } = await openDemo(browser, `${server.url}#check`);
    await page.click('#ex-stress');
    await page.waitForSelector('#progress-row:not([hidden])', { timeout: 10000 });
    // The main thread stays responsive while the worker indexes.
    const t0 = Date.now();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
    assert.ok(Date.now() - t0 < 1000);
    await page.waitForSelector('#detail:not([hidden]) #sub-view mark', { timeout: 120000 });
    const rows = await page.$$eval('#results tr[data-doc]', (trs) => trs.map((tr) => Number(tr.querySelector('.matches').textContent)));
    // check() lists only the references with a match (issue 11): the three with a copied passage.
    assert.deepEqual(rows, [1, 1, 1]);
    assert.match(await page.textContent('#result-summary'), /3<\/b>|3 of 200/);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
