// Step 6: A, B and A XOR B bit by bit, the Hamming distance, and the verdict at k (the
// k slider lives here and sets k for the whole view).
import { toHex, hamming, similarity } from '../../pkg/index.js';
import { $, esc, bit, bitHeader } from '../dom.js';
import * as model from './model.js';

function bitRow(head, fp, cls, title = () => '') {
  let html = `<tr><th>${head}</th>`;
  for (let c = 0; c < 64; c++) {
    const v = bit(fp, 63 - c);
    html += `<td class="${cls}${v}"${title(v, 63 - c)}>${v}</td>`;
  }
  return html + '</tr>';
}

function render() {
  const verdict = $('#verdict');
  const fps = model.fingerprints();
  if (!fps) {
    const a = model.explain('a'), b = model.explain('b');
    $('#xor').innerHTML = `<tr><td class="note">${esc(a.error ? `Text A: ${a.error}` : `Text B: ${b.error}`)}</td></tr>`;
    verdict.textContent = 'No fingerprint to compare.';
    verdict.className = 'verdict';
    delete verdict.dataset.distance;
    return;
  }
  const [fa, fb] = fps, x = fa ^ fb;
  $('#xor').innerHTML = bitHeader()
    + bitRow(`A <span class="hex" id="fp-a">${toHex(fa)}</span>`, fa, 'b')
    + bitRow(`B <span class="hex" id="fp-b">${toHex(fb)}</span>`, fb, 'b')
    + bitRow(`A XOR B <span class="hex">${toHex(x)}</span>`, x, 'x', (v, i) => (v ? ` title="bit ${i} differs"` : ''));
  const d = hamming(fa, fb), sim = similarity(fa, fb), k = model.k;
  const near = d <= k;
  verdict.className = `verdict ${near ? 'yes' : 'no'}`;
  verdict.dataset.distance = String(d);
  verdict.textContent = `Hamming distance ${d} (${d} of 64 bits differ), similarity ${(100 * sim).toFixed(1)} % → ${near ? `near-duplicates at k = ${k}` : `not near-duplicates at k = ${k}`}`;
}

export function mount() {
  $('#k').addEventListener('input', (e) => {
    $('#k-out').value = e.target.value;
    model.setK(Number(e.target.value));
  });
  model.on('texts', render);
  model.on('k', render);
}
