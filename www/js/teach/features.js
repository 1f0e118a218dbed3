// Steps 1–3 for the chosen text: the normalised text, its distinct features with their
// weights, and each feature's 64-bit hash as a row of ±w.
import { toHex } from '../../pkg/index.js';
import { $, esc, fmt, bit, bitHeader } from '../dom.js';
import * as model from './model.js';

const MAX_FEATURES = 200; // listed in step 2
const MAX_ROWS = 40; // drawn in step 3
const MAX_NORMALIZED = 3000; // characters shown in step 1

function render() {
  const r = model.explain(model.which);
  const label = model.which.toUpperCase();
  if (r.error) {
    $('#normalized').textContent = `Text ${label}: ${r.error}`;
    for (const id of ['#tokens', '#rows']) $(id).innerHTML = '';
    for (const id of ['#tok-summary', '#rows-note']) $(id).textContent = '';
    return;
  }
  const e = r.e;
  const norm = e.normalized;
  $('#normalized').textContent = norm.length > MAX_NORMALIZED
    ? `${norm.slice(0, MAX_NORMALIZED)} … (${norm.length.toLocaleString()} characters in all)`
    : norm;

  // Step 2: distinct features, in order of first occurrence (the explanation's typed
  // arrays; an object only for the few shown).
  let count = 0;
  for (let i = 0; i < e.first.length; i++) count += e.first[i];
  const distinct = [];
  for (let i = 0; i < e.first.length && distinct.length < Math.max(MAX_FEATURES, MAX_ROWS); i++) {
    if (e.first[i]) distinct.push({ text: norm.slice(e.start[i], e.end[i]), tf: e.tf[i], weight: e.weight[i], hash: e.hash[i] });
  }
  $('#tok-summary').textContent = `Text ${label}: ${e.first.length.toLocaleString()} feature occurrences, ${count.toLocaleString()} distinct features.`;
  let html = '';
  for (const t of distinct.slice(0, MAX_FEATURES)) {
    html += `<li><code>${esc(t.text)}</code><span class="w">${t.tf > 1 ? `×${t.tf} ` : ''}w=${fmt(t.weight)}</span></li>`;
  }
  if (count > MAX_FEATURES) html += `<li>… and ${(count - MAX_FEATURES).toLocaleString()} more</li>`;
  $('#tokens').innerHTML = html;

  // Step 3: one row of ±w per distinct feature (the first MAX_ROWS).
  html = bitHeader();
  for (const t of distinct.slice(0, MAX_ROWS)) {
    html += `<tr><th class="tok" title="${esc(t.text)} — weight ${fmt(t.weight)}, hash ${toHex(t.hash)}"><code>${esc(t.text)}</code> ${fmt(t.weight)}</th>`;
    for (let c = 0; c < 64; c++) {
      const on = bit(t.hash, 63 - c);
      html += `<td class="${on ? 'p' : 'n'}" title="bit ${63 - c}: ${on ? '+' : '−'}${fmt(t.weight)}">${on ? '+' : '−'}</td>`;
    }
    html += '</tr>';
  }
  $('#rows').innerHTML = html;
  $('#rows-note').textContent = count > MAX_ROWS
    ? `Showing the first ${MAX_ROWS} of ${count.toLocaleString()} distinct features; all of them go into the sums below. Hover a cell for its ±w.`
    : 'Every distinct feature is shown. Hover a cell for its ±w.';
}

export function mount() {
  model.on('texts', render);
  model.on('which', render);
}
