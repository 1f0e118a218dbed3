// The checker's report as a teacher reads it, in Chromium: the plain-language summary, every
// passage from every source with its edits marked, the rule out of the way, out-of-date
// results marked as such, what was checked and when, and the print stylesheet (emulated
// print media, in the light and the dark colour scheme, and a real PDF).
import test from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './harness.mjs';
import { startDemoServer } from '../../scripts/demo-server.mjs';
import { paragraph } from '../../www/js/examples.js';
import { ESSAY_ZH, REF_ZH } from '../../scripts/demo-fixtures.mjs';

async function open(browser, url) {
  const page = await browser.newPage();
  await page.setViewportSize({ width: 1366, height: 900 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto(`${url}#check`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  return { page, errors };
}

const done = (page) => page.waitForFunction(() => /Done in/.test(document.querySelector('#result-summary').textContent), null, { timeout: 30000 });

test('summary first, all sources at once with word-level edits, the rule folded away, stale results marked', async () => {
  const server = await startDemoServer(0);
  const browser = await launch();
  try {
    const { page, errors } = await open(browser, server.url);
    // The rule is in a closed "How it works".
    assert.equal(await page.isVisible('#check-rule'), false);
    await page.click('details.howto summary');
    assert.equal(await page.isVisible('#check-rule'), true);
    await page.click('details.howto summary');

    // Three sources, one passage from each (one with two words changed).
    const refs = [0, 1, 2].map((d) => Array.from({ length: 12 }, (_, i) => paragraph(300000 + 1000 * d + i)).join('\n\n'));
    const twice = (p) => p.split(' the ').length > 2;
    const pick = (d) => refs[d].split('\n\n').find(twice);
    const edited = pick(2).replace(' the ', ' a ').replace(' the ', ' a ');
    const sub = [paragraph(400001), pick(1), paragraph(400002), edited, paragraph(400003), pick(0)].join('\n\n');
    await page.fill('#submission', sub);
    for (const r of refs) {
      await page.fill('#ref-input', r);
      await page.click('#ref-add');
    }
    await page.click('#run-check');
    await done(page);
    assert.match(await page.textContent('#report-about'), /^Submission: pasted text · checked .* against 3 references$/);
    assert.match(await page.textContent('#result-summary .meta'), /^[\d,]+ words in the submission, /);
    const headline = await page.textContent('#result-summary .headline');
    assert.match(headline, /^About \d+ % of the submission is copied: 3 passages from 3 of the 3 references\.$/);
    const lines = await page.$$eval('.sources-summary li', (li) => li.map((x) => x.textContent));
    assert.equal(lines.length, 3);
    assert.ok(lines.filter((l) => /copied word for word \(100 % of the wording found\)/.test(l)).length === 2, lines.join('\n'));
    assert.ok(lines.some((l) => /copied with small changes \(9\d % of the wording found\)/.test(l)), lines.join('\n'));
    // Every passage of every source, in the submission's order.
    const ps = await page.$$eval('#passages .passage', (xs) => xs.map((p) => ({ doc: Number(p.dataset.doc), sub: p.querySelector('.ptext.sub').textContent, ed: [...p.querySelectorAll('span.ed')].map((s) => s.textContent), orig: [...p.querySelectorAll('span.orig')].map((s) => s.textContent) })));
    assert.deepEqual(ps.map((p) => p.doc), [1, 2, 0]);
    assert.equal(ps[1].sub, edited);
    assert.deepEqual(ps[1].ed, ['a', 'a']);
    assert.deepEqual(ps[1].orig, ['the', 'the']);
    assert.deepEqual([ps[0].ed, ps[2].ed], [[], []]);
    // The side-by-side view marks the same edits inside the highlighted passage.
    await page.click('#results button[data-show="2"]');
    assert.deepEqual(await page.$$eval('#sub-view mark.m span.ed', (s) => s.map((x) => x.textContent)), ['a', 'a']);
    assert.deepEqual(await page.$$eval('#ref-view mark.m span.orig', (s) => s.map((x) => x.textContent)), ['the', 'the']);

    // Stale: each kind of change marks the report out of date; Check again makes it current.
    const stale = () => page.getAttribute('#report', 'data-stale');
    assert.equal(await stale(), 'false');
    assert.equal(await page.isVisible('#stale-note'), false);
    await page.type('#submission', ' More words.');
    assert.equal(await stale(), 'true');
    assert.equal(await page.isVisible('#stale-note'), true);
    assert.equal(await page.$eval('#results-card', (e) => getComputedStyle(e).opacity), '0.45');
    await page.click('#check-again');
    await page.waitForFunction(() => document.querySelector('#report').dataset.stale === 'false');
    await page.fill('#threshold', '70');
    assert.equal(await stale(), 'true');
    await page.click('#run-check');
    await page.waitForFunction(() => document.querySelector('#report').dataset.stale === 'false');
    await page.fill('#min-chars', '60');
    assert.equal(await stale(), 'true');
    await page.click('#run-check');
    await page.waitForFunction(() => document.querySelector('#report').dataset.stale === 'false');
    await page.click('#ref-list button[data-remove="0"]');
    assert.equal(await stale(), 'true');
    await page.click('#check-again');
    await page.waitForFunction(() => document.querySelector('#report').dataset.stale === 'false');
    assert.equal(await page.locator('#passages .passage').count(), 2);
    // Clear empties everything.
    await page.click('#clear-all');
    assert.equal(await page.locator('#passages .passage').count(), 0);
    assert.match(await page.textContent('#result-summary'), /Add a submission/);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

test('the print stylesheet: the report with its highlights and sources, without the inputs', async () => {
  const server = await startDemoServer(0);
  const browser = await launch();
  try {
    const { page, errors } = await open(browser, server.url);
    const before = Date.now();
    await page.click('#ex-2of20');
    await done(page);
    // What was checked, and when (a date and a time of day), on screen and on paper.
    const about = await page.textContent('#report-about');
    assert.match(about, new RegExp(`^Submission: example submission \\(2 of 20 paragraphs copied\\) · checked .*${new Date().getFullYear()}.*\\d:\\d\\d.* against 5 references$`));
    const at = Date.parse(await page.getAttribute('#report-about time', 'datetime'));
    assert.ok(at >= before - 1000 && at <= Date.now(), `${at}`);
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.isVisible('#report-about'), true);
    const seen = await page.evaluate(() => Object.fromEntries(['#submission', '#ref-input', '#run-check', '.tabs', '#print-report', '#results-card', '#passages-card', '#passages .passage', '.sources-summary', '#results'].map((s) => {
      const el = document.querySelector(s);
      return [s, !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden'];
    })));
    assert.deepEqual(seen, {
      '#submission': false, '#ref-input': false, '#run-check': false, '.tabs': false, '#print-report': false,
      '#results-card': true, '#passages-card': true, '#passages .passage': true, '.sources-summary': true, '#results': true,
    });
    // The highlights keep their colours on paper.
    const ed = await page.$eval('#passages span.ed', (s) => [getComputedStyle(s).backgroundColor, getComputedStyle(s).printColorAdjust]);
    assert.notEqual(ed[0], 'rgba(0, 0, 0, 0)');
    assert.equal(ed[1], 'exact');
    const pdf = await page.pdf({ format: 'A4' });
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    assert.ok(pdf.length > 10000, `${pdf.length} bytes`);
    // The row chosen for the side-by-side view prints like the others, and paper is light
    // in the dark colour scheme too: every colour in the report is the light scheme's.
    const colours = () => page.evaluate(() => [...document.querySelectorAll('#report, #report *')].filter((e) => e.getClientRects().length)
      .map((e) => `${e.tagName}.${e.className} ${getComputedStyle(e).backgroundColor} ${getComputedStyle(e).color}`));
    assert.equal(await page.$eval('#results tr.sel td', (td) => getComputedStyle(td).backgroundColor), 'rgba(0, 0, 0, 0)');
    await page.emulateMedia({ media: 'print', colorScheme: 'light' });
    const light = await colours();
    await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
    assert.deepEqual(await colours(), light);
    assert.equal(await page.$eval('#results tr.sel td', (td) => getComputedStyle(td).backgroundColor), 'rgba(0, 0, 0, 0)');
    assert.equal(await page.$eval('body', (b) => getComputedStyle(b).backgroundColor), 'rgb(255, 255, 255)');
    // An out-of-date report says so on paper too.
    await page.emulateMedia({ media: 'screen', colorScheme: 'light' });
    assert.equal(await page.isVisible('#stale-note'), false);
    await page.type('#submission', ' More words.');
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.isVisible('#stale-note'), true);
    assert.match(await page.textContent('#stale-note'), /this report is out of date/);
    assert.equal(await page.isVisible('#check-again'), false);
    await page.emulateMedia({ media: 'screen' });
    assert.equal(await page.isVisible('#submission'), true);
    // Check pressed from the keyboard keeps the focus once the check is done.
    await page.focus('#run-check');
    await page.evaluate(() => { document.querySelector('#result-summary').textContent = ''; });
    await page.keyboard.press('Enter');
    await done(page);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'run-check');
    // The teaching view prints its steps (a lecturer's handout), titled as such.
    await page.click('#tab-teach');
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.isVisible('#view-teach'), true);
    assert.equal(await page.isVisible('#view-check'), false);
    assert.ok((await page.locator('#view-teach .step:visible').count()) > 5);
    assert.equal(await page.$eval('.top h1', (h) => getComputedStyle(h, '::after').content), '" — SimHash step by step"');
    await page.emulateMedia({ media: 'screen' });
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

test('pasted references keep unique names; a Chinese submission is measured in characters', async () => {
  const server = await startDemoServer(0);
  const browser = await launch();
  try {
    const { page, errors } = await open(browser, server.url);
    const names = () => page.$$eval('#ref-list li span', (ss) => ss.map((x) => x.title));
    for (const text of ['first reference text', REF_ZH, 'third reference text']) {
      await page.fill('#ref-input', text);
      await page.click('#ref-add');
    }
    await page.click('#ref-list button[data-remove="0"]');
    await page.fill('#ref-input', 'fourth reference text');
    await page.click('#ref-add');
    // An empty paste adds nothing and uses no number.
    await page.click('#ref-add');
    assert.deepEqual(await names(), ['pasted text 2', 'pasted text 3', 'pasted text 4']);

    await page.fill('#submission', ESSAY_ZH.join('\n\n'));
    await page.click('#run-check');
    await done(page);
    const meta = await page.textContent('#result-summary .meta');
    assert.match(meta, /^[\d,]+ characters in the submission, /);
    assert.doesNotMatch(meta, /word/);
    const chars = ESSAY_ZH.join('').match(/\p{Script=Han}/gu).length;
    assert.ok(meta.startsWith(`${chars.toLocaleString('en')} characters`), meta);
    // Mixed scripts: both units.
    await page.fill('#submission', `${ESSAY_ZH.join('\n\n')}\n\nA few English words here.`);
    await page.click('#run-check');
    await page.waitForFunction(() => document.querySelector('#report').dataset.stale === 'false');
    assert.match(await page.textContent('#result-summary .meta'), new RegExp(`^5 words and ${chars.toLocaleString('en')} Chinese characters in the submission`));
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
