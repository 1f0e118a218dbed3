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

    // The plagiarism view: 2 copied paragraphs out of 20 (one with a word changed) → exactly
    // those 2, each with its similarity, and only the one matching reference listed.
    await page.click('#tab-check');
    await page.click('#ex-2of20');
    await page.waitForSelector('#detail:not([hidden]) #sub-view mark', { timeout: 30000 });
    const rows = await page.$$eval('#results tr[data-doc]', (trs) => trs.map((tr) => [Number(tr.dataset.doc), Number(tr.querySelector('.matches').textContent)]));
    assert.deepEqual(rows, [[0, 2]]);
    assert.equal(await page.locator('#sub-view mark.m').count(), 2);
    assert.equal(await page.locator('#ref-view mark.m').count(), 2);
    // Paragraphs 5 and 16 of the submission are paragraphs 8 and 13 of the reference.
    const subMarks = await page.$$eval('#sub-view mark.m', (ms) => ms.map((m) => m.querySelector('.t').textContent));
    const refMarks = await page.$$eval('#ref-view mark.m', (ms) => ms.map((m) => m.querySelector('.t').textContent));
    const sub = (await page.inputValue('#submission')).split('\n\n');
    assert.equal(subMarks[0], sub[4]);
    assert.equal(subMarks[1], sub[15]);
    assert.equal(refMarks[0], subMarks[0]);
    // Each pair shows its similarity, the same on both sides: 100 % verbatim, less when edited.
    const subSims = await page.$$eval('#sub-view mark.m sup', (ss) => ss.map((x) => x.textContent));
    assert.deepEqual(subSims, await page.$$eval('#ref-view mark.m sup', (ss) => ss.map((x) => x.textContent)));
    assert.equal(subSims[0], '1: 100 %');
    assert.match(subSims[1], /^2: (9\d) %$/);
    assert.match(await page.textContent('#check-rule'), /at least 50 % of its word pairs/);
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
    const rows = await page.$$eval('#results tr[data-doc]', (trs) => trs.map((tr) => [Number(tr.dataset.doc), Number(tr.querySelector('.matches').textContent)]));
    // check() lists only the references with a match: the three with a copied passage.
    assert.deepEqual(rows.sort((a, b) => a[0] - b[0]), [[17, 1], [120, 1], [199, 1]]);
    const ms = Number((await page.textContent('#result-summary')).match(/Done in (\d+) ms/)[1]);
    console.log(`stress check in the worker: ${ms} ms (200 references × 20 kB + a 7 kB submission)`);
    assert.match(await page.textContent('#result-summary'), /3 passages from 3 of the 200 references/);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

/** Runs the checker on the page with `submission` and `refs` ([text]) typed in. */
async function checkOnPage(page, submission, refs) {
  await page.click('#clear-all');
  await page.fill('#submission', submission);
  for (const r of refs) {
    await page.fill('#ref-input', r);
    await page.click('#ref-add');
  }
  await page.click('#run-check');
  await page.waitForFunction(() => /Done in/.test(document.querySelector('#result-summary').textContent), null, { timeout: 30000 });
  return page.$$eval('#sub-view mark.m', (ms) => ms.map((m) => ({ text: m.querySelector('.t').textContent, sim: m.querySelector('sup').textContent })));
}

test('the checker on the demo: an edited copy is found with its similarity, a 2-sentence copy is one span, Chinese is found', async () => {
  const { paragraph } = await import('../../www/js/examples.js');
  const server = await startDemoServer(0);
  const browser = await launch();
  try {
    const { page, errors } = await openDemo(browser, `${server.url}#check`);
    // Three references of ~12 kB; a submission of two paragraphs of its own and three
    // copied from them: two verbatim, one with "the" changed to "a" twice.
    const refs = [0, 1, 2].map((d) => Array.from({ length: 20 }, (_, i) => paragraph(300000 + 1000 * d + i)).join('\n\n'));
    const twice = (p) => p.split(' the ').length > 2;
    const pick = (d) => refs[d].split('\n\n').find(twice);
    const edited = pick(2).replace(' the ', ' a ').replace(' the ', ' a ');
    const own = [paragraph(400001), paragraph(400002)];
    const copies = [pick(0), pick(1), edited];
    const marks = await checkOnPage(page, [own[0], copies[0], copies[1], own[1], copies[2]].join('\n\n'), refs);
    assert.equal(marks.length, 1, 'the best-covered reference is shown first, with its one copied span');
    assert.ok(copies.includes(marks[0].text), marks[0].text);
    const rows = await page.$$eval('#results tr[data-doc]', (trs) => trs.map((tr) => Number(tr.dataset.doc)));
    assert.deepEqual(rows.sort(), [0, 1, 2]);
    await page.click('#results button[data-show="2"]');
    const found = await page.$$eval('#sub-view mark.m', (ms) => ms.map((m) => ({ text: m.querySelector('.t').textContent, sim: m.querySelector('sup').textContent })));
    assert.equal(found.length, 1);
    assert.equal(found[0].text, edited, 'the edited copy is found whole');
    const pct = Number(found[0].sim.match(/^1: (\d+) %$/)[1]);
    assert.ok(pct >= 50 && pct < 100, `the edited copy shows ${found[0].sim}`);
    await page.screenshot({ path: `${shots}demo-check-edited.png`, fullPage: true });

    // Two sentences copied into an original paragraph: one highlighted span, exactly them.
    const src = refs[0].split('\n\n')[5];
    const sents = src.match(/[^.]+\./g).map((x) => x.trim());
    const two = `${sents[1]} ${sents[2]}`;
    const mine = paragraph(400003).match(/[^.]+\./g).map((x) => x.trim());
    const inside = [...mine.slice(0, 2), two, ...mine.slice(2)].join(' ');
    const partial = await checkOnPage(page, [paragraph(400004), inside].join('\n\n'), refs);
    assert.deepEqual(partial.map((m) => m.text), [two]);

    // Chinese: sentences end at 。！？; a copied passage with one character changed is found.
    const zhRef = [
      '北京是中国的首都，也是全国的政治和文化中心。这座城市有三千多年的历史，留下了许多古老的建筑。',
      '故宫位于北京市中心，是明清两代的皇家宫殿。每年都有数以百万计的游客来这里参观！',
      '长城是世界上最著名的古代工程之一，它蜿蜒在中国北方的群山之间。人们常说，不到长城非好汉。',
      '北京的胡同和四合院代表了老北京人的生活方式。如今，很多胡同已经被改造成了商店和咖啡馆？',
    ].join('\n\n');
    const zhOther = '上海是中国最大的经济中心，位于长江入海口。外滩的万国建筑博览群吸引了大量游客。浦东新区的发展非常迅速。';
    const zhCopy = '故宫位于北京市中心，是明清两朝的皇家宫殿。每年都有数以百万计的游客来这里参观！';
    const zhSub = `我去年夏天第一次去北京旅行，天气非常炎热。${zhCopy}\n\n回家以后，我给朋友们讲了很多旅途中的故事。`;
    const zh = await checkOnPage(page, zhSub, [zhOther, zhRef]);
    assert.deepEqual(zh.map((m) => m.text), [zhCopy]);
    assert.match(zh[0].sim, /^1: (9\d) %$/);
    assert.deepEqual(await page.$$eval('#results tr[data-doc]', (trs) => trs.map((tr) => Number(tr.dataset.doc))), [1]);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
