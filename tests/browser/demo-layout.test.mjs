// The teaching view at 1366, 1920 and 390 px wide, measured in Chromium: every one of the
// 64 bits is inside the viewport and its card in steps 3–6, and bit i's column has the same
// x-centre in each of those steps (within 1 px); the features found in only one text are
// marked; the sums are written out; the precision/recall chart covers the k slider; the
// presentation mode shows one step at a time. (The 25,000-character paste is measured by
// scripts/demo-bench.mjs.)
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launch } from './harness.mjs';
import { startDemoServer } from '../../scripts/demo-server.mjs';

const GRIDS = ['#rows', '#sums', '#sign', '#xor'];

async function open(browser, url, width, height) {
  const page = await browser.newPage();
  await page.setViewportSize({ width, height });
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  return { page, errors };
}

/** Per grid: the bits seen, cells outside the viewport or their card, and each bit's x-centre (first cell of it). */
const measure = (page) => page.evaluate((grids) => grids.map((sel) => {
  const root = document.querySelector(sel);
  // Off-screen steps are not laid out (content-visibility: auto) until they are seen.
  root.scrollIntoView({ block: 'center' });
  const card = root.closest('.card').getBoundingClientRect();
  const cells = [...root.querySelectorAll('.brow:not(.colno) .c[data-bit]')];
  const centre = {};
  const outside = [];
  for (const c of cells) {
    const r = c.getBoundingClientRect();
    const i = Number(c.dataset.bit);
    if (r.width < 6 || r.left < 0 || r.right > window.innerWidth + 0.5 || r.left < card.left - 0.5 || r.right > card.right + 0.5) outside.push([i, r.left, r.right]);
    centre[i] ??= r.left + r.width / 2;
  }
  return { sel, bits: new Set(cells.map((c) => c.dataset.bit)).size, outside, centre, cols: Number(root.querySelector('.bitgrid').style.getPropertyValue('--cols')) };
}), GRIDS);

function assertAligned(grids, label) {
  for (const g of grids) {
    assert.equal(g.bits, 64, `${label} ${g.sel}: ${g.bits} bits`);
    assert.deepEqual(g.outside, [], `${label} ${g.sel}: cells outside the viewport or card`);
  }
  for (let i = 0; i < 64; i++) {
    const xs = grids.map((g) => g.centre[i]);
    assert.ok(Math.max(...xs) - Math.min(...xs) <= 1, `${label}: bit ${i} at x = ${xs.map((x) => x.toFixed(1)).join(', ')}`);
  }
}

test('all 64 bits visible and aligned across steps 3–6 at 1366, 1920 and 390 px; presentation mode', async () => {
  const server = await startDemoServer(0);
  const browser = await launch();
  try {
    for (const [width, height, cols] of [[1366, 768, 64], [1920, 1080, 64], [390, 844, 16]]) {
      const { page, errors } = await open(browser, server.url, width, height);
      for (const ex of ['football', 'mat']) {
        await page.selectOption('#example', ex);
        const grids = await measure(page);
        assert.deepEqual(grids.map((g) => g.cols), [cols, cols, cols, cols], `${width}px`);
        assertAligned(grids, `${width}px ${ex}`);
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${width}px: no sideways scroll`);
      }
      // Text B's steps too.
      await page.check('input[name="which"][value="b"]');
      assertAligned(await measure(page), `${width}px text B`);
      await page.check('input[name="which"][value="a"]');

      // Presentation mode: large type, one step at a time, the grids still whole and aligned.
      await page.click('#present');
      assert.equal(await page.locator('#view-teach .step:visible').count(), 1);
      for (let s = 0; s < 2; s++) await page.click('#step-next');
      assert.match(await page.textContent('#step-of'), /^Step 3 of \d+/);
      const fontPx = await page.$eval('#rows .brow:not(.colno) .c', (c) => parseFloat(getComputedStyle(c).fontSize));
      assert.ok(fontPx >= (width > 1000 ? 18 : 12), `${width}px presentation: cell font ${fontPx}px`);
      const inStep3 = await page.evaluate(() => [...document.querySelectorAll('#rows .brow:not(.colno) .c')].every((c) => {
        const r = c.getBoundingClientRect();
        return r.left >= 0 && r.right <= window.innerWidth + 0.5 && r.width >= 6;
      }));
      assert.ok(inStep3, `${width}px presentation: step 3's cells inside the viewport`);
      await page.keyboard.press('ArrowRight');
      assert.match(await page.textContent('#step-of'), /^Step 4 of/);
      await page.keyboard.press('Escape');
      assert.equal(await page.evaluate(() => document.body.classList.contains('present')), false);
      assert.ok((await page.locator('#view-teach .step:visible').count()) > 5);
      assert.deepEqual(errors, []);
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
});

test('what changed between A and B, the sums written out, k and the chart', async () => {
  const server = await startDemoServer(0);
  const browser = await launch();
  try {
    const { page, errors } = await open(browser, server.url, 1366, 768);
    // The Chinese pair differs in one word (精彩 → 关键): the features with it are marked,
    // in A's steps and in B's, and step 3 lists them first.
    const onlyA = await page.$$eval('#tokens li.only code', (cs) => cs.map((c) => c.textContent));
    assert.ok(onlyA.length >= 1 && onlyA.every((f) => f.includes('精') || f.includes('彩')), onlyA.join(' '));
    assert.match(await page.textContent('#only-list'), /Only in A:/);
    const firstRows = await page.$$eval('#rows .band:first-of-type .brow:not(.colno)', (rs) => rs.map((r) => r.classList.contains('only')));
    assert.deepEqual(firstRows.slice(0, onlyA.length), onlyA.map(() => true));
    assert.equal(firstRows.filter(Boolean).length, onlyA.length);
    // The weight is its own element, not run into the feature's text.
    assert.match(await page.textContent('#rows .brow:not(.colno) .wt'), /^w \d/);
    await page.check('input[name="which"][value="b"]');
    const onlyB = await page.$$eval('#tokens li.only code', (cs) => cs.map((c) => c.textContent));
    assert.ok(onlyB.length >= 1 && onlyB.every((f) => f.includes('关') || f.includes('键')), onlyB.join(' '));
    await page.check('input[name="which"][value="a"]');
    // The XOR row shows exactly as many red cells as the distance says.
    const d = Number(await page.getAttribute('#verdict', 'data-distance'));
    assert.equal(await page.locator('#xor .brow.xor .c.x1').count(), d);
    // Each sum is written under its bar, equal to what step 5's sign says.
    const vals = await page.$$eval('#sums .brow.vals .c', (cs) => cs.map((c) => [c.dataset.bit, c.textContent.replace('−', '-')]));
    assert.equal(vals.length, 64);
    const signs = await page.$$eval('#sign .brow:nth-child(2) .c', (cs) => Object.fromEntries(cs.map((c) => [c.dataset.bit, c.textContent])));
    for (const [bitNo, v] of vals) assert.equal(Number(v) > 0 ? '+' : Number(v) < 0 ? '−' : '0', signs[bitNo], `bit ${bitNo}: ${v}`);

    // A short pair: the note says why one word moves many bits.
    await page.selectOption('#example', 'mat');
    assert.match(await page.textContent('#why'), /Why so many bits for a small edit: these texts are short/);

    // k starts at the chart's best F1, and says why; the marker stays on the chart for every k.
    const q = JSON.parse(readFileSync(new URL('../../www/data/quality.json', import.meta.url)));
    const best = q.rows.reduce((b, r) => (r.f1 > b.f1 ? r : b)).k;
    await page.waitForSelector('#k-marker', { state: 'attached' });
    assert.equal(Number(await page.inputValue('#k')), best);
    assert.match(await page.textContent('#k-why'), new RegExp(`starts at k = ${best}`));
    for (const k of ['0', '10', '12', '20']) {
      await page.fill('#k', k);
      const m = await page.evaluate(() => {
        const svg = document.querySelector('#pr'), line = document.querySelector('#k-marker');
        const s = svg.getBoundingClientRect(), l = line.getBoundingClientRect();
        return { k: line.dataset.k, inside: l.left >= s.left && l.right <= s.right && l.height > 10 };
      });
      assert.deepEqual(m, { k, inside: true }, `k = ${k}`);
    }
    assert.match(await page.textContent('#pr-note'), /k = 20 is beyond the measured range/);

    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

test('resizing the window re-lays the grids out without a "ResizeObserver loop" error, and the status keeps its message', async () => {
  const server = await startDemoServer(0);
  const browser = await launch({ serviceWorkers: 'block' });
  try {
    const { page, errors } = await open(browser, server.url, 1366, 768);
    await page.evaluate(() => {
      window.__roErrors = 0;
      window.addEventListener('error', (e) => { if (/ResizeObserver/.test(e.message)) window.__roErrors++; });
    });
    const ready = await page.textContent('#status');
    assert.match(ready, /^Ready/);
    const cols = () => page.$eval('#rows .bitgrid', (t) => Number(t.style.getPropertyValue('--cols')));
    for (const [width, height, want] of [[1920, 1080, 64], [1366, 768, 64], [390, 844, 16], [844, 390, 32], [1366, 768, 64]]) {
      await page.setViewportSize({ width, height });
      await page.waitForFunction((n) => Number(document.querySelector('#rows .bitgrid').style.getPropertyValue('--cols')) === n, want, { timeout: 5000 })
        .catch(() => {});
      assert.equal(await cols(), want, `${width}px`);
      await page.waitForTimeout(300);
      assert.equal(await page.textContent('#status'), ready, `${width}px`);
    }
    // The observer re-renders in the next frame, so the browser has no loop to report …
    assert.equal(await page.evaluate(() => window.__roErrors), 0);
    // … and where a browser reports one anyway, the page does not call it an error.
    await page.evaluate(() => window.dispatchEvent(new ErrorEvent('error', { message: 'ResizeObserver loop completed with undelivered notifications.' })));
    assert.equal(await page.textContent('#status'), ready);
    assert.equal(await page.$eval('#status', (s) => s.classList.contains('error')), false);
    await page.evaluate(() => window.dispatchEvent(new ErrorEvent('error', { message: 'something real' })));
    assert.equal(await page.textContent('#status'), 'Error: something real');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
