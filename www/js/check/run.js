// Running a check: the passage options, the worker (a module worker running
// PassageChecker off the main thread), its progress bar, and the buttons that start
// a check: Check (and Check again on an out-of-date report), the two examples, and Clear.
// Any change to the inputs or the options after a check marks its report out of date.
import { $, setStatus } from '../dom.js';
import { twoOfTwenty, stress } from '../examples.js';
import { submission, submissionName, referenceList, setInputs, onChange, onRefused } from './inputs.js';
import { showResults, showMessage, clearResults, markStale, PROMPT } from './results.js';

/** The worker, once its module (and the wasm in it) is ready. */
let workerReady = null;
/** The latest check: only its messages are shown. `name` is the submission's, `at` when the check started. */
let job = { id: 0, submission: '', refs: [], version: 0, name: '', at: null };
/** Counts the changes to the inputs and options, so a report made from older ones is marked out of date. */
let version = 0;
const changed = () => {
  version++;
  markStale();
};

/** PassageChecker options from the form: `{ minChars, threshold }`. */
function options() {
  return { minChars: Math.max(0, Math.floor(Number($('#min-chars').value) || 0)), threshold: Number($('#threshold').value) / 100 };
}

const REFUSED = 'The submission’s file can’t be read (the reason is under the submission box), so there is no report. Open a file that can be read, or paste the text, then press Check.';

// Whether Check had the keyboard focus when a check began: disabled, it loses it, and it
// gets it back when the check ends unless the user moved on.
let checkHadFocus = false;

function showProgress(on, label = 'Working…', value = 0) {
  $('#progress-row').hidden = !on;
  $('#progress-label').textContent = label;
  $('#progress').value = value;
  const button = $('#run-check');
  if (on && !button.disabled) checkHadFocus = document.activeElement === button;
  button.disabled = on;
  if (!on && checkHadFocus && (document.activeElement === document.body || document.activeElement === null)) button.focus();
  if (!on) checkHadFocus = false;
}

function onWorkerMessage(m) {
  if (m.id !== job.id) return;
  if (m.type === 'progress') {
    $('#progress').value = m.done / m.total;
    $('#progress-label').textContent = m.done < m.total ? `Indexing references: ${m.done} of ${m.total - 1}` : 'Checking the submission…';
  } else if (m.type === 'error') {
    showProgress(false);
    showMessage(`The check failed: ${m.message}`, true);
  } else if (m.type === 'result') {
    showProgress(false);
    showResults(m.report, job.submission, job.refs, m.ms, { name: job.name, at: job.at });
    if (job.version !== version) markStale();
  }
}

/** Resolves to the worker once it has said 'ready': messages sent before then could be lost
 * while its top-level await loads the wasm. */
function ensureWorker() {
  workerReady ??= new Promise((resolve, reject) => {
    const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    w.onmessage = (e) => {
      if (e.data.type === 'ready') resolve(w);
      else onWorkerMessage(e.data);
    };
    w.onerror = (e) => {
      e.preventDefault();
      workerReady = null;
      showProgress(false);
      const why = e.message || (navigator.onLine ? 'its script or the WebAssembly module did not load' : 'this browser is offline and the page’s files are not cached yet');
      setStatus(`Checker error: the checker could not start (${why}).`, true);
      // Said where the user is looking: in the results, in place of the prompt.
      showMessage(`The checker could not start: ${why}. Nothing was checked. Reload the page (online) and press Check again.`, true);
      reject(new Error('worker failed'));
    };
  });
  return workerReady;
}

function runCheck() {
  const text = submission();
  const refs = referenceList();
  if (!text.trim() || refs.length === 0) {
    showMessage(PROMPT);
    return;
  }
  job = { id: job.id + 1, submission: text, refs, version, name: submissionName(), at: new Date() };
  const { id } = job;
  showProgress(true, `Indexing ${refs.length} reference${refs.length > 1 ? 's' : ''}…`, 0);
  ensureWorker().then((w) => w.postMessage({ id, options: options(), submission: text, references: refs }), () => {});
}

function loadCase({ submission: text, references }, name) {
  setInputs(text, references, name);
  runCheck();
}

export function mount() {
  $('#threshold').addEventListener('input', (e) => {
    $('#threshold-out').value = e.target.value;
    $('#rule-pct').value = e.target.value;
    changed();
  });
  $('#min-chars').addEventListener('input', changed);
  onChange(changed);
  // A report (or a check still running) stands for the submission before: with nothing
  // readable in its place, it goes.
  onRefused(() => {
    job = { id: job.id + 1, submission: '', refs: [], version };
    showProgress(false);
    showMessage(REFUSED);
  });
  $('#run-check').addEventListener('click', runCheck);
  $('#check-again').addEventListener('click', runCheck);
  $('#ex-2of20').addEventListener('click', () => loadCase(twoOfTwenty(), 'example submission (2 of 20 paragraphs copied)'));
  $('#ex-stress').addEventListener('click', () => {
    showProgress(true, 'Generating 200 texts…');
    setTimeout(() => loadCase(stress(), 'stress-test submission'), 20);
  });
  $('#clear-all').addEventListener('click', () => {
    job = { id: job.id + 1, submission: '', refs: [], version }; // a check still running is dropped
    showProgress(false);
    setInputs('', []);
    clearResults();
  });
}
