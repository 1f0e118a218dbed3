// Step 5 for the chosen text: the sign of each sum gives the fingerprint's bit.
import { toHex } from '../../pkg/index.js';
import { $, signed, bit } from '../dom.js';
import { bitGrid } from './bits.js';
import * as model from './model.js';

function render() {
  const r = model.explain(model.which);
  if (r.error) {
    $('#sign').innerHTML = '';
    $('#fp-steps').textContent = '';
    return;
  }
  const { sums, fingerprint } = r.e;
  $('#sign').innerHTML = bitGrid([
    { label: 'sign of the sum', cell: (i) => ({ cls: sums[i] > 0 ? 'p' : 'n', html: sums[i] > 0 ? '+' : sums[i] < 0 ? '−' : '0', title: `bit ${i}: ${signed(sums[i])}` }) },
    { label: 'bit', cell: (i) => ({ cls: `b${bit(fingerprint, i)}`, html: String(bit(fingerprint, i)) }) },
  ], { caption: 'Step 5: sign of each sum and the fingerprint bit' });
  $('#fp-steps').textContent = toHex(fingerprint);
}

export function mount() {
  model.on('texts', render);
  model.on('which', render);
  model.on('layout', render);
}
