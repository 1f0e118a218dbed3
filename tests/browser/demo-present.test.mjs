// Presentation mode of the teaching view, measured in Chromium at the usual projector sizes
// (1280×720, 1366×768, 1920×1080): the inputs are hidden until asked for; each step's card
// is inside the viewport with nothing of it cut off (a long part scrolls in its own area,
// inside the viewport, under the step's heading), its result in view; Next and Previous
// leave the step in view; every text of the step is large (20 px at 1920×1080); the bar's
// step number is the card's badge; Esc leaves from a text box or slider. And the labels
// that were cut off: the XOR row's hex, step 7's blocks at 390 px.
import test from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './harness.mjs';
import { startDemoServer } from '../../scripts/demo-server.mjs';

/** Viewport, and the smallest font in px a step's text may have there. */
const SIZES = [[1280, 720, 13], [1366, 768, 14], [1920, 1080, 19.5]];

/** Per step (by its heading's id): what it concludes with, which must be in view. */
const RESULT = {
  'h-norm': '#normalized', 'h-tok': '#tok-summary', 'h-hash': '#rows-note', 'h-sum': '#sums', 'h-sign': '#fp-steps',
  'h-cmp': '#verdict', 'h-worked': '#worked-bits', 'h-index': '#pigeon', 'h-huff': '#huff-summary', 'h-pr': '#pr',
};

async function open(browser, url, width, height) {
  const page = await browser.newPage();
  await page.setViewportSize({ width, height });
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  await page.waitForSelector('#k-marker', { state: 'attached' });
  return { page, errors };
}

/** The current step, measured: where it is, what of it is cut off or out of view, its smallest text, the bar and the badge. */
const measureStep = (page, result) => page.evaluate((result) => {
  const vw = document.documentElement.clientWidth, vh = document.documentElement.clientHeight;
  const inView = (r) => r.top >= -0.5 && r.left >= -0.5 && r.bottom <= vh + 0.5 && r.right <= vw + 0.5 && r.height > 0;
  const box = (r) => `${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)}`;
  const card = document.querySelector('#view-teach .step.current');
  const h2 = card.querySelector('h2');
  const problems = [];
  if (!inView(card.getBoundingClientRect())) problems.push(`card at ${box(card.getBoundingClientRect())}, viewport ${vw}×${vh}`);
  if (card.scrollHeight > card.clientHeight + 1) problems.push(`card cut off: ${card.scrollHeight} px of content in ${card.clientHeight}`);
  if (!inView(h2.getBoundingClientRect())) problems.push(`heading at ${box(h2.getBoundingClientRect())}`);
  if (document.documentElement.scrollHeight > vh + 1) problems.push(`the page scrolls: ${document.documentElement.scrollHeight} px`);
  // The parts that scroll inside the card: in view, under the heading, tall enough to read.
  for (const el of card.querySelectorAll('*')) {
    if (el.scrollHeight <= el.clientHeight + 1 || !/(auto|scroll)/.test(getComputedStyle(el).overflowY)) continue;
    const r = el.getBoundingClientRect();
    if (!inView(r) || r.top < h2.getBoundingClientRect().bottom || r.height < 50) problems.push(`scroll area ${el.id || el.className} at ${box(r)}`);
  }
  const key = card.querySelector(result[h2.id]);
  if (!key || !inView(key.getBoundingClientRect())) problems.push(`result ${result[h2.id]} at ${key && box(key.getBoundingClientRect())}`);
  // The smallest text drawn, by its computed size (an SVG text's times the chart's scale).
  let min = Infinity, minAt = '';
  const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const el = t.parentElement;
    if (!t.data.trim() || !el.getClientRects().length) continue;
    let px = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement) px *= el.ownerSVGElement.getScreenCTM().a;
    if (px < min) { min = px; minAt = `${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''} “${t.data.trim().slice(0, 20)}”`; }
  }
  return { id: h2.id, badge: h2.querySelector('.num').textContent.trim(), bar: document.querySelector('#step-of').textContent, problems, min, minAt, scrollY: window.scrollY };
}, result);

test('presentation mode at 1280×720, 1366×768 and 1920×1080: each step fits, in large type, numbered as its badge', async () => {
  const server = await startDemoServer(0);
  const browser = await launch();
  try {
    for (const [width, height, floor] of SIZES) {
      const { page, errors } = await open(browser, server.url, width, height);
      const label = `${width}×${height}`;
      const badges = await page.$$eval('#view-teach .step h2 .num', (ns) => ns.map((n) => n.textContent.trim()));
      const numbered = badges.filter((b) => /^\d+$/.test(b)).length;
      await page.click('#present');
      // The inputs are hidden until asked for.
      for (const sel of ['#example', '#text-a', '#text-b']) assert.equal(await page.isVisible(sel), false, `${label}: ${sel} shown`);
      for (let i = 0; i < badges.length; i++) {
        const m = await measureStep(page, RESULT);
        const at = `${label} ${m.id}`;
        assert.deepEqual(m.problems, [], at);
        assert.equal(m.scrollY, 0, `${at}: page scrolled`);
        assert.ok(m.min >= floor, `${at}: text at ${m.min.toFixed(1)} px (${m.minAt}), under ${floor} px`);
        // The bar's number is the badge's, counting the numbered steps only.
        if (/^\d+$/.test(m.badge)) assert.match(m.bar, new RegExp(`^Step ${m.badge} of ${numbered}: `), at);
        else assert.doesNotMatch(m.bar, /^Step \d/, at);
        if (i < badges.length - 1) await page.click('#step-next');
      }
      // Previous keeps the step in view too.
      for (let i = 0; i < 4; i++) await page.click('#step-prev');
      const back = await measureStep(page, RESULT);
      assert.deepEqual(back.problems, [], `${label} back to ${back.id}`);
      assert.equal(back.badge, badges[badges.length - 5], `${label}: ${back.bar}`);

      // A short pair has a longer note under the verdict: step 6 still fits.
      await page.click('#present-inputs');
      assert.equal(await page.isVisible('#text-a'), true, `${label}: the texts on demand`);
      await page.selectOption('#example', 'mat');
      await page.click('#present-inputs');
      assert.equal(await page.isVisible('#text-a'), false);
      while (!(await page.textContent('#step-of')).startsWith('Step 6 ')) await page.click('#step-prev');
      const cmp = await measureStep(page, RESULT);
      assert.deepEqual(cmp.problems, [], `${label} mat ${cmp.id}`);
      assert.deepEqual(errors, []);
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
});

test('Esc leaves presentation mode from a text box and from the k slider; the arrow keys stay theirs there', async () => {
  const server = await startDemoServer(0);
  const browser = await launch();
  try {
    const { page, errors } = await open(browser, server.url, 1366, 768);
    const presenting = () => page.evaluate(() => document.body.classList.contains('present'));
    await page.click('#present');
    await page.click('#present-inputs');
    await page.focus('#text-a');
    await page.keyboard.press('Escape');
    assert.equal(await presenting(), false, 'Esc in text A');
    assert.ok((await page.locator('#view-teach .step:visible').count()) > 5);

    await page.click('#present');
    while (!(await page.textContent('#step-of')).startsWith('Step 6 ')) await page.click('#step-next');
    await page.focus('#k');
    const k = Number(await page.inputValue('#k'));
    await page.keyboard.press('ArrowRight');
    assert.equal(Number(await page.inputValue('#k')), k + 1);
    assert.match(await page.textContent('#step-of'), /^Step 6 /);
    await page.keyboard.press('Escape');
    assert.equal(await presenting(), false, 'Esc on the k slider');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

/** Sets the k slider (in step 6, hidden while presentation mode shows another step). */
const setK = (page, k) => page.$eval('#k', (el, v) => {
  el.value = v;
  el.dispatchEvent(new Event('input', { bubbles: true }));
}, k);

/** Labels drawn narrower than their text: [text, scrollWidth, clientWidth]. */
const clipped = (page, sel) => page.$$eval(sel, (els) => els
  .filter((el) => el.getClientRects().length && el.scrollWidth > el.clientWidth)
  .map((el) => [el.textContent.trim(), el.scrollWidth, el.clientWidth]));

test('the fingerprints\' hex labels in step 6 and the blocks of step 7 are shown whole', async () => {
  const server = await startDemoServer(0);
  const browser = await launch();
  try {
    for (const [width, height] of [[1280, 720], [1366, 768], [1920, 1080], [390, 844]]) {
      const { page, errors } = await open(browser, server.url, width, height);
      for (const present of [false, true]) {
        const label = `${width}px${present ? ' presenting' : ''}`;
        if (present) {
          await page.click('#present');
          while (!(await page.textContent('#step-of')).startsWith('Step 6 ')) await page.click('#step-next');
        } else await page.locator('#xor').scrollIntoViewIfNeeded();
        assert.match(await page.textContent('#xor'), /XOR\s*[0-9a-f]{16}/);
        assert.deepEqual(await clipped(page, '#xor :is(.lab, .labrow th)'), [], `${label}: step 6's labels`);
        if (present) await page.click('#step-next');
        if (present) await page.click('#step-next');
        else await page.locator('#blocks').scrollIntoViewIfNeeded();
        for (const k of ['8', '0', '20']) {
          await setK(page, k);
          const blocks = await page.$$eval('#blocks .blk', (bs) => bs.map((b) => b.textContent.replace(/\s+/g, ' ').trim()));
          assert.ok(blocks.length > Number(k) && blocks.every((b, j) => new RegExp(`#${j + 1} · \\d+b$`).test(b)), `${label} k = ${k}: ${blocks.join(' | ')}`);
          assert.deepEqual(await clipped(page, '#blocks .blk'), [], `${label} k = ${k}: step 7's blocks`);
        }
        await setK(page, '8');
        if (present) await page.click('#present-exit');
      }
      assert.deepEqual(errors, []);
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
});
