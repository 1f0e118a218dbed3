// The checker's inputs: the submission (typed, pasted, opened or dropped as a file) and the
// list of reference texts (pasted, picked as files, or dropped), each removable. Files are
// read by files.js; a file that can't be read is named with the reason, and adds nothing.
// Every change is announced to onChange listeners (the results mark themselves stale); a
// submission file that can't be read, to onRefused listeners (the results are taken away).
import { $, esc } from '../dom.js';
import { ACCEPT, readFiles } from './files.js';

const MAX_LISTED = 100;

/** [{ name, text, kind }] in the order added. */
let references = [];
/** Pasted references are named "pasted text n", n counting up: a number is never given twice, so no two have one name. */
let pastedCount = 0;
/** Where the submission came from: its file's (or files') name, an example's name, or null when typed or pasted. */
let subOrigin = null;
/** Whether the submission was edited on the page after it came from `subOrigin`. */
let subEdited = false;
const listeners = [];
const changed = () => listeners.forEach((fn) => fn());

/** Calls `fn` whenever the submission or the references change. */
export const onChange = (fn) => listeners.push(fn);

const refusedListeners = [];
/** Calls `fn` when a submission file can't be read (the submission is then empty). */
export const onRefused = (fn) => refusedListeners.push(fn);

function renderList() {
  const n = references.length;
  const chars = references.reduce((s, r) => s + r.text.length, 0);
  $('#ref-summary').textContent = n ? `${n} reference${n > 1 ? 's' : ''}, ${(chars / 1000).toFixed(0)} k characters.` : 'No references yet.';
  $('#ref-list').innerHTML = references.slice(0, MAX_LISTED).map((r, i) => `<li><span title="${esc(r.name)}">${esc(r.name)} <small>(${r.kind ? `${esc(r.kind)}, ` : ''}${r.text.length.toLocaleString()} chars)</small></span>`
    + `<button type="button" data-remove="${i}" aria-label="Remove ${esc(r.name)}">✕</button></li>`).join('')
    + (n > MAX_LISTED ? `<li>… and ${n - MAX_LISTED} more</li>` : '');
}

function addReference(name, text, kind = '') {
  if (!text.trim()) return;
  references.push({ name, text, kind });
  renderList();
  changed();
}

/** Lists the files that could not be read (or clears the list) in `el`. */
function showRefusals(el, results) {
  const bad = results.filter((r) => !r.ok);
  el.hidden = bad.length === 0;
  el.innerHTML = bad.map((r) => `<li><b>${esc(r.name)}</b> can’t be read: ${esc(r.reason)} Nothing was added from it.</li>`).join('');
}

function busy(el, on, what = '') {
  el.hidden = !on;
  el.textContent = on ? `Reading ${what}…` : '';
}

async function addReferenceFiles(files) {
  if (!files.length) return;
  busy($('#ref-reading'), true, files.length > 1 ? `${files.length} files` : files[0].name);
  const results = await readFiles(files);
  busy($('#ref-reading'), false);
  showRefusals($('#ref-errors'), results);
  for (const r of results) if (r.ok) addReference(r.name, r.text, r.kind);
}

/** The submission from file(s): their texts one after another, or, when one can't be read, nothing (and the reason). */
async function openSubmission(files) {
  if (!files.length) return;
  busy($('#sub-reading'), true, files.length > 1 ? `${files.length} files` : files[0].name);
  const results = await readFiles(files);
  busy($('#sub-reading'), false);
  showRefusals($('#sub-errors'), results);
  const ok = results.filter((r) => r.ok);
  if (ok.length < results.length) {
    // Never check what could not be read: the box is emptied, so no result stands for it.
    $('#submission').value = '';
    $('#sub-source').textContent = '';
    subOrigin = null;
  } else {
    $('#submission').value = ok.map((r) => r.text).join('\n\n');
    subOrigin = ok.map((r) => r.name).join(', ');
    $('#sub-source').textContent = `Read from ${ok.map((r) => `${r.name} (${r.kind}, ${r.text.length.toLocaleString()} characters)`).join(', ')}.`;
  }
  subEdited = false;
  changed();
  if (ok.length < results.length) refusedListeners.forEach((fn) => fn());
}

/** Files dropped on `el` go to `onFiles(File[])`; other drops (text) behave as usual. */
function acceptDrops(el, onFiles) {
  el.addEventListener('dragover', (e) => {
    e.preventDefault();
    el.classList.add('dragover');
  });
  el.addEventListener('dragleave', () => el.classList.remove('dragover'));
  el.addEventListener('drop', (e) => {
    el.classList.remove('dragover');
    if (!e.dataTransfer?.files?.length) return;
    e.preventDefault();
    onFiles([...e.dataTransfer.files]);
  });
}

export const submission = () => $('#submission').value;

/** The submission's name for the report: its file's name (marked when edited here since), or "pasted text". */
export const submissionName = () => (subOrigin ? (subEdited ? `${subOrigin}, edited on this page` : subOrigin) : 'pasted text');

/** A copy of the reference list. */
export const referenceList = () => references.slice();

/** Replaces the submission (named `name`, or "pasted text" when null) and the references. */
export function setInputs(text, refs, name = null) {
  $('#submission').value = text;
  subOrigin = name;
  subEdited = false;
  $('#sub-source').textContent = '';
  for (const id of ['#sub-errors', '#ref-errors']) showRefusals($(id), []);
  references = refs.slice();
  renderList();
  changed();
}

export function mount() {
  for (const id of ['#ref-files', '#sub-file']) $(id).accept = ACCEPT;
  $('#ref-add').addEventListener('click', () => {
    if ($('#ref-input').value.trim()) addReference(`pasted text ${++pastedCount}`, $('#ref-input').value);
    $('#ref-input').value = '';
  });
  $('#ref-files').addEventListener('change', async (e) => {
    const files = [...e.target.files];
    e.target.value = '';
    await addReferenceFiles(files);
  });
  $('#sub-file').addEventListener('change', async (e) => {
    const files = [...e.target.files];
    e.target.value = '';
    await openSubmission(files);
  });
  acceptDrops($('#ref-input'), addReferenceFiles);
  acceptDrops($('#submission'), openSubmission);
  $('#submission').addEventListener('input', () => {
    $('#sub-source').textContent = '';
    subEdited = true;
    changed();
  });
  $('#ref-list').addEventListener('click', (e) => {
    const i = e.target.closest('button[data-remove]')?.dataset.remove;
    if (i === undefined) return;
    references.splice(Number(i), 1);
    renderList();
    changed();
  });
}
