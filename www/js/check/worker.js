// The passage checker's worker: indexes the reference sentences and checks the
// submission off the main thread, reporting progress as it goes.
// In:  { id, options, submission, references: [{ name, text }] }
// Out: { type: 'ready' } once, when the wasm is loaded; then per request
//      { id, type: 'progress', done, total } … and { id, type: 'result', report, ms } or { id, type: 'error', message }
import { PassageChecker } from '../../pkg/index.js';

self.onmessage = (e) => {
  const { id, options, submission, references } = e.data;
  const t0 = performance.now();
  let checker;
  try {
    checker = new PassageChecker(options);
    const total = references.length + 1;
    let last = 0;
    references.forEach((r, i) => {
      checker.addReference(r.text);
      const now = performance.now();
      if (now - last > 50 || i === references.length - 1) {
        last = now;
        self.postMessage({ id, type: 'progress', done: i + 1, total });
      }
    });
    const report = checker.check(submission);
    self.postMessage({ id, type: 'progress', done: total, total });
    self.postMessage({ id, type: 'result', report, ms: performance.now() - t0 });
  } catch (err) {
    self.postMessage({ id, type: 'error', message: `${err.name}: ${err.message}` });
  } finally {
    checker?.free();
  }
};
self.postMessage({ type: 'ready' });
