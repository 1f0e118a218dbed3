// ★ The material's worked example (7 features, toy 6-bit hashes), computed by simhashBits().
import { simhashBits } from '../../pkg/index.js';
import { $, signed } from '../dom.js';
import { WORKED } from '../examples.js';

function render() {
  const r = simhashBits(WORKED.map(([, weight, bits]) => ({ bits, weight })));
  const width = WORKED[0][2].length;
  let html = '<tr><th>feature</th><th>w</th><th>hash</th>';
  for (let j = 0; j < width; j++) html += `<th style="text-align:center">bit ${j + 1}</th>`;
  html += '</tr>';
  for (const [f, w, bits] of WORKED) {
    html += `<tr><th>${f}</th><th>${w}</th><th><code>${bits}</code></th>`;
    for (const ch of bits) html += `<td class="${ch === '1' ? 'p' : 'n'}">${ch === '1' ? '+' : '−'}${w}</td>`;
    html += '</tr>';
  }
  html += `<tr class="total" id="worked-sums" data-sums="${r.sums.join(',')}"><th colspan="3">column sum</th>`;
  for (const s of r.sums) html += `<td class="sum">${signed(s)}</td>`;
  html += `</tr><tr class="total" id="worked-bits" data-bits="${r.bits}"><th colspan="3">sign → fingerprint <code>${r.bits}</code></th>`;
  for (const ch of r.bits) html += `<td class="b${ch}">${ch}</td>`;
  $('#worked-table').innerHTML = html + '</tr>';
}

export function mount() {
  $('#worked-toggle').addEventListener('change', (e) => {
    $('#worked').hidden = !e.target.checked;
  });
  render();
}
