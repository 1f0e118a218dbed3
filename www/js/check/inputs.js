// The checker's inputs: the submission and the list of reference texts (pasted, picked
// as files, or dropped), each removable.
import { $, esc } from '../dom.js';

const MAX_LISTED = 100;

/** [{ name, text }] in the order added. */
let references = [];

function renderList() {
  const n = references.length;
  const chars = references.reduce((s, r) => s + r.text.length, 0);
  $('#ref-summary').textContent = n ? `${n} reference${n > 1 ? 's' : ''}, ${(chars / 1000).toFixed(0)} k characters.` : 'No references yet.';
  $('#ref-list').innerHTML = references.slice(0, MAX_LISTED).map((r, i) => `<li><span title="${esc(r.name)}">${esc(r.name)} <small>(${r.text.length.toLocaleString()} chars)</small></span>`
    + `<button type="button" data-remove="${i}" aria-label="Remove ${esc(r.name)}">✕</button></li>`).join('')
    + (n > MAX_LISTED ? `<li>… and ${n - MAX_LISTED} more</li>` : '');
}

function addReference(name, text) {
  if (!text.trim()) return;
  references.push({ name, text });
  renderList();
}

const readFiles = (files) => Promise.all([...files].map(async (f) => ({ name: f.name, text: await f.text() })));

/** Files dropped on `el` go to `onFiles([{ name, text }])`; other drops (text) behave as usual. */
function acceptDrops(el, onFiles) {
  el.addEventListener('dragover', (e) => {
    e.preventDefault();
    el.classList.add('dragover');
  });
  el.addEventListener('dragleave', () => el.classList.remove('dragover'));
  el.addEventListener('drop', async (e) => {
    el.classList.remove('dragover');
    if (!e.dataTransfer?.files?.length) return;
    e.preventDefault();
    onFiles(await readFiles(e.dataTransfer.files));
  });
}

export const submission = () => $('#submission').value;

/** A copy of the reference list. */
export const referenceList = () => references.slice();

/** Replaces the submission and the references. */
export function setInputs(text, refs) {
  $('#submission').value = text;
  references = refs.slice();
  renderList();
}

export function mount() {
  $('#ref-add').addEventListener('click', () => {
    addReference(`pasted text ${references.length + 1}`, $('#ref-input').value);
    $('#ref-input').value = '';
  });
  $('#ref-files').addEventListener('change', async (e) => {
    for (const f of await readFiles(e.target.files)) addReference(f.name, f.text);
    e.target.value = '';
  });
  acceptDrops($('#ref-input'), (files) => files.forEach((f) => addReference(f.name, f.text)));
  acceptDrops($('#submission'), (files) => {
    $('#submission').value = files.map((f) => f.text).join('\n\n');
  });
  $('#ref-list').addEventListener('click', (e) => {
    const i = e.target.closest('button[data-remove]')?.dataset.remove;
    if (i === undefined) return;
    references.splice(Number(i), 1);
    renderList();
  });
}
