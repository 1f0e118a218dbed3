// Takes the README's two screenshots of the demo in Chromium (playwright-core):
//   www/screenshots/teach.png  the teaching view's steps 3–6 at 1366 px: all 64 bits, the
//                              columns aligned down the steps, the features only in A marked
//   www/screenshots/check.png  a checker report: the essay (the .docx fixture) against its two
//                              sources, the summary and each passage with its edits marked
// Usage: node scripts/demo-screenshots.mjs   (after scripts/build.sh)
import { fileURLToPath } from 'node:url';
import { launch } from '../tests/browser/harness.mjs';
import { startDemoServer } from './demo-server.mjs';

const out = fileURLToPath(new URL('../www/screenshots/', import.meta.url));
const fixtures = fileURLToPath(new URL('../tests/browser/fixtures/files/', import.meta.url));

/** The box around the elements matching `selectors` (page coordinates), padded. */
const around = (page, selectors, pad = 8) => page.evaluate(([sels, p]) => {
  const rs = sels.map((s) => document.querySelector(s).getBoundingClientRect());
  const x = Math.min(...rs.map((r) => r.left)) - p, y = Math.min(...rs.map((r) => r.top)) + window.scrollY - p;
  return { x: Math.max(0, x), y: Math.max(0, y), width: Math.max(...rs.map((r) => r.right)) - x + p, height: Math.max(...rs.map((r) => r.bottom)) + window.scrollY - y + p };
}, [selectors, pad]);

const server = await startDemoServer(0);
const browser = await launch();
try {
  const page = await browser.newPage();
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  // Every step laid out now (off-screen steps otherwise wait until scrolled to).
  await page.addStyleTag({ content: '#view-teach .step { content-visibility: visible !important; }' });
  await page.selectOption('#example', 'mat');
  await page.waitForSelector('#k-marker', { state: 'attached' });
  await page.screenshot({ path: `${out}teach.png`, fullPage: true, clip: await around(page, ['#h-hash', '#why']) });

  await page.click('#tab-check');
  await page.setInputFiles('#ref-files', [`${fixtures}ref-press.txt`, `${fixtures}ref-telegraph.txt`]);
  await page.waitForFunction(() => document.querySelectorAll('#ref-list li').length === 2);
  await page.setInputFiles('#sub-file', `${fixtures}essay.docx`);
  await page.waitForFunction(() => document.querySelector('#submission').value.length > 0);
  await page.click('#run-check');
  await page.waitForSelector('#passages .passage');
  await page.screenshot({ path: `${out}check.png`, fullPage: true, clip: await around(page, ['#results-card', '#passages-card']) });
  console.log(`wrote ${out}teach.png and ${out}check.png`);
} finally {
  await browser.close();
  await server.close();
}
