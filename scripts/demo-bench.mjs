// The demo page's responsiveness in Chromium: pasting 25,000 characters into text A of the
// teaching view, the longest main-thread task it causes (PerformanceObserver 'longtask':
// tasks over 50 ms) and their total, median of RUNS pastes. Goal: no task of 200 ms or more.
// Usage: node scripts/demo-bench.mjs [--quick]   (needs pkg/ built and /usr/bin/chromium)
// Ends with one line: RESULT paste_25k_longest_task_ms=… paste_25k_long_tasks_ms=… runs=…
import { launch } from '../tests/browser/harness.mjs';
import { startDemoServer } from './demo-server.mjs';

const RUNS = process.argv.includes('--quick') ? 3 : 9;
const server = await startDemoServer(0);
const browser = await launch();
const worst = [], total = [];
try {
  const page = await browser.newPage();
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  for (let run = 0; run < RUNS; run++) {
    await page.selectOption('#example', run % 2 ? 'mat' : 'football');
    await page.evaluate(() => {
      window.__long = [];
      window.__obs?.disconnect();
      window.__obs = new PerformanceObserver((l) => window.__long.push(...l.getEntries().map((e) => e.duration)));
      window.__obs.observe({ type: 'longtask' });
    });
    const text = Array.from({ length: 500 }, (_, i) => `Sentence ${i + run} of a long pasted essay about rivers, bridges and the towns between them.`).join(' ').slice(0, 25000);
    const before = await page.textContent('#fp-a');
    // A paste: the text lands in the box and one input event follows, as the browser does it.
    await page.$eval('#text-a', (el, t) => {
      el.focus();
      el.value = t;
      el.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
    }, text);
    await page.waitForFunction((b) => document.querySelector('#fp-a')?.textContent !== b, before, { timeout: 10000 });
    await page.waitForTimeout(600);
    const long = await page.evaluate(() => window.__long);
    worst.push(Math.max(0, ...long));
    total.push(long.reduce((s, x) => s + x, 0));
  }
} finally {
  await browser.close();
  await server.close();
}
const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
console.log(`longest task per paste (ms): ${worst.map((x) => x.toFixed(0)).join(' ')}; all long tasks (ms): ${total.map((x) => x.toFixed(0)).join(' ')}`);
console.log(`RESULT paste_25k_longest_task_ms=${median(worst).toFixed(0)} paste_25k_long_tasks_ms=${median(total).toFixed(0)} runs=${RUNS}`);
