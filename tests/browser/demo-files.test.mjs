// The checker reads real files, made by real tools (scripts/demo-fixtures.mjs: pandoc for
// .docx, .odt and .html, pdfkit for a two-column PDF and a Chinese one), in Chromium: the
// text it extracts, and the report it then gives (the two copied paragraphs found, the
// edited one with its edits marked). Files it can't read are refused, named with the reason,
// and never give a result.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launch } from './harness.mjs';
import { startDemoServer } from '../../scripts/demo-server.mjs';
import { ESSAY, ESSAY_TITLE, COPIED, ESSAY_ZH, REF_ZH } from '../../scripts/demo-fixtures.mjs';

const dir = fileURLToPath(new URL('./fixtures/files/', import.meta.url));
const file = (name, buffer = readFileSync(dir + name), mimeType = 'application/octet-stream') => ({ name, mimeType, buffer });
const squash = (s) => s.replace(/\s+/g, ' ').trim();

/** A deterministic run of bytes that no reader accepts as text. */
function junk(n, seed = 7) {
  const b = Buffer.alloc(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    b[i] = s >>> 24;
  }
  return b;
}

async function open(browser, url) {
  const page = await browser.newPage();
  await page.setViewportSize({ width: 1366, height: 900 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto(`${url}#check`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  return { page, errors };
}

/** Opens `f` as the submission; resolves when the reader has answered. */
async function openSubmission(page, f) {
  await page.setInputFiles('#sub-file', f);
  await page.waitForFunction(() => document.querySelector('#sub-reading').hidden, null, { timeout: 30000 });
}

async function check(page) {
  // The last check's "Done in" may still be on screen: clear it, so that the wait below
  // sees this check's.
  await page.$eval('#result-summary', (e) => { e.textContent = ''; });
  await page.click('#run-check');
  await page.waitForFunction(() => /Done in/.test(document.querySelector('#result-summary').textContent), null, { timeout: 30000 });
  return page.$$eval('#passages .passage', (ps) => ps.map((p) => ({
    doc: Number(p.dataset.doc),
    head: p.querySelector('.phead').textContent,
    sub: p.querySelector('.ptext.sub').textContent,
    edits: [...p.querySelectorAll('.ptext.sub span.ed')].map((s) => s.textContent),
    orig: [...p.querySelectorAll('.ptext.ref span.orig')].map((s) => s.textContent),
  })));
}

test('the checker reads .txt, .md, .html, .docx, .odt and a two-column .pdf, and finds both copies in each', async () => {
  const server = await startDemoServer(0);
  const browser = await launch();
  try {
    const { page, errors } = await open(browser, server.url);
    await page.setInputFiles('#ref-files', [file('ref-press.txt'), file('ref-telegraph.txt')]);
    await page.waitForFunction(() => document.querySelectorAll('#ref-list li').length === 2, null, { timeout: 30000 });
    for (const name of ['essay.txt', 'essay.md', 'essay.html', 'essay.docx', 'essay.odt', 'essay-2col.pdf']) {
      await openSubmission(page, file(name));
      const text = await page.inputValue('#submission');
      assert.deepEqual(await page.$$eval('#sub-errors li', (li) => li.map((x) => x.textContent)), [], name);
      // Every paragraph arrives whole, in order, each on its own (no line breaks inside one:
      // the checker cuts sentences at line breaks), the title first; no markup or zip bytes.
      const paras = text.split(/\n\s*\n/).map(squash).filter(Boolean);
      assert.equal(paras[0], ESSAY_TITLE, `${name}: ${paras[0]}`);
      assert.deepEqual(paras.slice(1), ESSAY.map(squash), name);
      assert.doesNotMatch(text, /PK|<\/?p>|\[Content_Types\]|%PDF|\*\*|^#/m, name);
      assert.match(await page.textContent('#sub-source'), new RegExp(`Read from ${name.replace('.', '\\.')} \\(`));

      const passages = await check(page);
      assert.equal(passages.length, 2, `${name}: ${JSON.stringify(passages)}`);
      // The report names the file it checked.
      assert.match(await page.textContent('#report-about'), new RegExp(`^Submission: ${name.replace('.', '\\.')} · checked `), name);
      const [press, tele] = passages;
      assert.equal(squash(press.sub), squash(COPIED.verbatim), name);
      assert.match(press.head, /100 %.*copied word for word.*no words changed/, name);
      assert.deepEqual(press.edits, [], name);
      assert.equal(squash(tele.sub), squash(COPIED.edited), name);
      assert.match(tele.head, /[5-9]\d % of its wording found · copied with small changes · 4 words not in the source, 4 words of the source left out or replaced/, name);
      // The edits are marked on both sides: the submission's words, and the source's.
      assert.deepEqual(tele.edits, ['earliest invention', 'country', 'day'], name);
      assert.deepEqual(tele.orig, ['first technology', 'continent', 'morning'], name);
      assert.match(await page.textContent('#result-summary'), /About \d+ % of the submission is copied: 2 passages from 2 of the 2 references/, name);
    }
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

test('a Chinese PDF (embedded CJK font) is read and its copied paragraph found; the reference can be a PDF too', async () => {
  const server = await startDemoServer(0);
  const browser = await launch();
  try {
    const { page, errors } = await open(browser, server.url);
    await page.setInputFiles('#ref-files', [file('ref-zh.txt'), file('essay-2col.pdf')]);
    await page.waitForFunction(() => document.querySelectorAll('#ref-list li').length === 2, null, { timeout: 30000 });
    assert.match(await page.textContent('#ref-list'), /essay-2col\.pdf \(PDF, 2 pages, [\d,]+ chars\)/);
    await openSubmission(page, file('essay-zh.pdf'));
    const paras = (await page.inputValue('#submission')).split(/\n\s*\n/);
    assert.deepEqual(paras, ['北京旅行记', ...ESSAY_ZH]);
    const passages = await check(page);
    assert.equal(passages.length, 1, JSON.stringify(passages));
    assert.equal(passages[0].sub, REF_ZH.split('\n\n')[1]);
    assert.equal(passages[0].doc, 0);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

test('binary junk, images, old .doc, zip archives and scans are refused with the reason, and give no result', async () => {
  const server = await startDemoServer(0);
  const browser = await launch();
  try {
    const { page, errors } = await open(browser, server.url);
    await page.setInputFiles('#ref-files', [file('ref-press.txt')]);
    await page.waitForFunction(() => document.querySelectorAll('#ref-list li').length === 1);
    const png = await page.screenshot();
    const ole = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), junk(4000, 3)]);
    const zip = readFileSync(dir + 'essay.docx');
    const cases = [
      [file('essay.txt', junk(6000)), /binary data, not text/],
      [file('notes.txt', junk(3000, 11)), /binary data, not text/],
      [file('photo.png', png), /an image/],
      [file('essay.doc', ole), /old Word 97–2003 file \(\.doc\)/],
      // A zip that is not a document: the .docx's bytes with its document part renamed.
      [file('archive.zip', Buffer.from(zip.toString('latin1').replaceAll('word/document.xml', 'word/documenX.xml'), 'latin1')), /zip archive, not a document/],
      [file('empty.txt', Buffer.alloc(0)), /empty/],
      // A text far longer than any essay or source (a data dump): refused before it reaches
      // the text box, which would freeze the page for tens of seconds.
      [file('dump.txt', Buffer.from('All work and no play makes a dull essay. '.repeat(80_000))), /3\.3 million characters; the checker takes texts of up to 3 million/],
    ];
    for (const [f, reason] of cases) {
      // A check of a readable essay leaves a report on screen …
      await openSubmission(page, file('essay.txt'));
      assert.equal((await check(page)).length, 1);
      await openSubmission(page, f);
      const refusals = await page.$$eval('#sub-errors li', (li) => li.map((x) => x.textContent));
      assert.equal(refusals.length, 1, f.name);
      assert.match(refusals[0], new RegExp(`^${f.name.replace('.', '\\.')} can’t be read: `), f.name);
      assert.match(refusals[0], reason, f.name);
      // … which goes: nothing stands for the unreadable file, not even an old report.
      assert.equal(await page.inputValue('#submission'), '', f.name);
      assert.equal(await page.locator('#passages .passage').count(), 0, f.name);
      assert.equal(await page.locator('#results tr').count(), 0, f.name);
      assert.equal(await page.isVisible('#passages-card'), false, f.name);
      assert.equal(await page.isVisible('#detail'), false, f.name);
      assert.equal(await page.isVisible('#stale-note'), false, f.name);
      assert.equal(await page.isVisible('#print-report'), false, f.name);
      assert.match(await page.textContent('#result-summary'), /The submission’s file can’t be read .*so there is no report/, f.name);
      await page.click('#run-check');
      assert.equal(await page.locator('#passages .passage').count(), 0, f.name);
      assert.match(await page.textContent('#result-summary'), /Add a submission/, f.name);
    }
    // A file's text edited on the page is named so in the report.
    await openSubmission(page, file('essay.txt'));
    await page.type('#submission', ' And a last sentence.');
    await check(page);
    assert.match(await page.textContent('#report-about'), /^Submission: essay\.txt, edited on this page · checked /);
    // As references: the junk is named and left out, the readable file is added.
    await page.setInputFiles('#ref-files', [file('noise.bin', junk(5000, 5)), file('ref-telegraph.txt')]);
    await page.waitForFunction(() => document.querySelectorAll('#ref-list li').length === 2);
    assert.match(await page.textContent('#ref-errors'), /noise\.bin can’t be read: it is binary data/);
    assert.doesNotMatch(await page.textContent('#ref-list'), /noise/);
    // Dropped files go the same way (a drop on the submission box).
    await page.evaluate(async (text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'dropped.md', { type: 'text/markdown' }));
      document.querySelector('#submission').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, `# Title\n\nSome **bold** words and a [link](http://example.com).\n`);
    // The box still holds the essay until the dropped file is read: wait for the file's text.
    await page.waitForFunction(() => document.querySelector('#submission').value.startsWith('Title'));
    assert.equal(await page.inputValue('#submission'), 'Title\n\nSome bold words and a link.');
    // The file picker offers what can be read.
    const accept = await page.getAttribute('#sub-file', 'accept');
    for (const ext of ['.docx', '.odt', '.pdf', '.html', '.md', '.txt']) assert.ok(accept.split(',').includes(ext), ext);
    assert.equal(await page.getAttribute('#ref-files', 'accept'), accept);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
