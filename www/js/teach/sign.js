// Step 5 for the chosen text: the sign of each sum gives the fingerprint's bit.
import { toHex } from '../../pkg/index.js';
import { $, signed, bit, bitHeader } from '../dom.js';
import * as model from './model.js';

function render() {
  const r = model.explain(model.which);
  if (r.error) {
    $('#sign').innerHTML = '';
    return;
  }
  const { sums, fingerprint } = r.e;
  let html = bitHeader() + '<tr><th>sum</th>';
  for (let c = 0; c < 64; c++) {
    const s = sums[63 - c];
    html += `<td class="${s > 0 ? 'p' : 'n'}" title="bit ${63 - c}: ${signed(s)}">${s > 0 ? '+' : s < 0 ? '−' : '0'}</td>`;
  }
  html += '</tr><tr><th>bit</th>';
  for (let c = 0; c < 64; c++) {
    const b = bit(fingerprint, 63 - c);
    html += `<td class="b${b}">${b}</td>`;
  }
  html += `</tr><tr><th>hex</th><td colspan="64" class="hex" id="fp-steps">${toHex(fingerprint)}</td></tr>`;
  $('#sign').innerHTML = html;
}

export function mount() {
  model.on('texts', render);
  model.on('which', render);
}
