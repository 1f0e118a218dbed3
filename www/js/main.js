// The demo page's entry (native ES modules, no bundler, no CDN). Each panel module owns
// its part of the page and its listeners; this mounts them, shows the first example and
// tells the page (and the browser test) it is ready.
//   teaching view: teach/model.js (shared state) → texts, features (steps 1–3), sums (4),
//     sign (5), compare (6), worked (★), tables (7), huffman (8), quality (9); the 64-bit
//     grids' layout (teach/bits.js) and presentation mode (present.js)
//   passage checker: check/inputs, check/run (+ check/worker.js), check/results
import { hashVersion } from '../pkg/index.js';
import { $, setStatus } from './dom.js';
import * as tabs from './tabs.js';
import * as present from './present.js';
import * as texts from './teach/texts.js';
import * as features from './teach/features.js';
import * as sums from './teach/sums.js';
import * as sign from './teach/sign.js';
import * as compare from './teach/compare.js';
import * as worked from './teach/worked.js';
import * as tables from './teach/tables.js';
import * as huffman from './teach/huffman.js';
import * as quality from './teach/quality.js';
import * as inputs from './check/inputs.js';
import * as run from './check/run.js';
import * as results from './check/results.js';

// "ResizeObserver loop completed with undelivered notifications" only says some resize
// notifications wait for the next frame: nothing failed, so the status line keeps its message.
const benign = (message) => /^ResizeObserver loop/.test(message ?? '');
window.addEventListener('error', (e) => {
  if (!benign(e.message)) setStatus(`Error: ${e.message}`, true);
});
window.addEventListener('unhandledrejection', (e) => setStatus(`Error: ${e.reason?.message ?? e.reason}`, true));

for (const panel of [texts, features, sums, sign, compare, worked, tables, huffman, quality, inputs, run, results]) panel.mount();
present.mount();
texts.loadExample($('#example').value);
tabs.mount();
const READY = `Ready: simhash-wasm in WebAssembly (feature hash v${hashVersion()}). Everything runs on this page.`;
setStatus(READY);
document.body.dataset.ready = 'true';

// Offline use: the service worker (sw.js) keeps what this page loaded, so a reload works
// without the network after the first visit.
if ('serviceWorker' in navigator && window.isSecureContext) {
  navigator.serviceWorker.register('sw.js').then(() => navigator.serviceWorker.ready).then((reg) => {
    const urls = [location.href.split('#')[0], ...performance.getEntriesByType('resource').map((e) => e.name)];
    navigator.serviceWorker.addEventListener('message', (e) => {
      if (e.data?.type !== 'cached') return;
      document.body.dataset.offlineReady = 'true';
      // Said only over the ready message: an error in the status line stays.
      if ($('#status').textContent === READY) setStatus(`${READY} Saved for offline use.`);
    });
    reg.active.postMessage({ type: 'cache', urls });
  }).catch((err) => console.warn(`offline cache unavailable: ${err.message}`));
}
