// Steps 1–3 for the chosen text: the normalised text, its distinct features with their
// weights, and each feature's 64-bit hash as a row of ±w. The features found in only one of
// the two texts are marked in both steps, and step 3 lists them first: they are what moves
// the fingerprint.
import { toHex } from '../../pkg/index.js';
import { $, esc, fmt } from '../dom.js';
import { bitGrid } from './bits.js';
import * as model from './model.js';

const MAX_FEATURES = 200; // listed in step 2
const MAX_ROWS = 24; // drawn in step 3 (the ones only in this text first)
const MAX_NORMALIZED = 3000; // characters shown in step 1
const MAX_ONLY_LISTED = 24; // named in step 2's summary

const bitOf = (h, i) => Number((h >> BigInt(i)) & 1n);

function render() {
  const r = model.explain(model.which);
  const label = model.which.toUpperCase();
  const otherLabel = model.which === 'a' ? 'B' : 'A';
  if (r.error) {
    $('#normalized').textContent = `Text ${label}: ${r.error}`;
    for (const id of ['#tokens', '#rows', '#only-list']) $(id).innerHTML = '';
    for (const id of ['#tok-summary', '#rows-note']) $(id).textContent = '';
    return;
  }
  const e = r.e;
  const norm = e.normalized;
  $('#normalized').textContent = norm.length > MAX_NORMALIZED
    ? `${norm.slice(0, MAX_NORMALIZED)} … (${norm.length.toLocaleString()} characters in all)`
    : norm;

  // Step 2: distinct features, in order of first occurrence (the explanation's typed
  // arrays; an object only for the few shown). Those missing from the other text are marked.
  const other = model.features(model.which === 'a' ? 'b' : 'a');
  const hasOther = !model.explain(model.which === 'a' ? 'b' : 'a').error;
  let count = 0;
  const distinct = [], only = [];
  for (let i = 0; i < e.first.length; i++) {
    if (!e.first[i]) continue;
    count++;
    const text = norm.slice(e.start[i], e.end[i]);
    const isOnly = hasOther && !other.has(text);
    const t = { text, tf: e.tf[i], weight: e.weight[i], hash: e.hash[i], only: isOnly };
    if (isOnly) only.push(t);
    if (distinct.length < MAX_FEATURES) distinct.push(t);
  }
  $('#tok-summary').textContent = `Text ${label}: ${e.first.length.toLocaleString()} feature occurrences, ${count.toLocaleString()} distinct features`
    + (hasOther ? `; ${only.length.toLocaleString()} of them are not in text ${otherLabel} (marked).` : '.');
  $('#only-list').innerHTML = only.length && hasOther
    ? `<b>Only in ${label}:</b> ${only.slice(0, MAX_ONLY_LISTED).map((t) => `<code class="only">${esc(t.text)}</code>`).join(' ')}${only.length > MAX_ONLY_LISTED ? ` … and ${only.length - MAX_ONLY_LISTED} more` : ''}`
    : hasOther ? `Every feature of ${label} is also in ${otherLabel}.` : '';
  let html = '';
  for (const t of distinct) {
    html += `<li${t.only ? ' class="only"' : ''}><code>${esc(t.text)}</code><span class="w">${t.tf > 1 ? `×${t.tf} ` : ''}w=${fmt(t.weight)}</span>${t.only ? `<span class="tag">only ${label}</span>` : ''}</li>`;
  }
  if (count > MAX_FEATURES) html += `<li>… and ${(count - MAX_FEATURES).toLocaleString()} more</li>`;
  $('#tokens').innerHTML = html;

  // Step 3: one row of ±w per distinct feature; the ones only in this text first.
  const shownRows = [...only.slice(0, MAX_ROWS), ...distinct.filter((t) => !t.only)].slice(0, MAX_ROWS);
  $('#rows').innerHTML = bitGrid(shownRows.map((t) => ({
    cls: t.only ? 'only' : '',
    label: `<span class="wt">w ${fmt(t.weight)}</span> <span class="feat" title="${esc(t.text)} — hash ${toHex(t.hash)}"><code>${esc(t.text)}</code></span>${t.only ? `<span class="tag">only ${label}</span>` : ''}`,
    cell: (i) => (bitOf(t.hash, i) ? { cls: 'p', html: '+' } : { cls: 'n', html: '−' }),
  })), { caption: `Step 3: the hash bits of text ${label}'s features as +w or −w` });
  $('#rows-note').textContent = (count > MAX_ROWS
    ? `Showing ${MAX_ROWS} of ${count.toLocaleString()} distinct features${only.length ? `, the ${Math.min(only.length, MAX_ROWS)} only in ${label} first` : ''}; all of them go into the sums below.`
    : 'Every distinct feature is shown.') + ' A + cell adds the feature’s weight w to its column, a − cell subtracts it.';
}

export function mount() {
  model.on('texts', render);
  model.on('which', render);
  model.on('layout', render);
}
