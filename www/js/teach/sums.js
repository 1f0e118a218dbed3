// Step 4 for the chosen text: the 64 per-bit weighted sums as bars, each with its value
// written beside it (no hover needed), in the same columns as steps 3, 5 and 6.
import { $, signed } from '../dom.js';
import { bitGrid } from './bits.js';
import * as model from './model.js';

/** A sum as printed under its bar: at most one decimal, typographic minus. */
const short = (s) => signed(Math.abs(s) >= 10 ? Math.round(s) : Math.round(s * 10) / 10);

function render() {
  const r = model.explain(model.which);
  if (r.error) {
    $('#sums').innerHTML = '';
    return;
  }
  const sums = r.e.sums;
  const max = Math.max(1e-9, ...Array.from(sums, Math.abs));
  $('#sums').innerHTML = bitGrid([
    {
      cls: 'bars',
      label: 'sum <small>(bar)</small>',
      cell: (i) => ({ cls: sums[i] > 0 ? 'pos' : 'neg', html: `<i style="--h:${(Math.abs(sums[i]) / max).toFixed(3)}"></i>`, title: `bit ${i}: sum ${signed(sums[i])}` }),
    },
    { cls: 'vals', label: 'sum', cell: (i) => ({ cls: sums[i] > 0 ? 'pos' : 'neg', html: `<span>${short(sums[i])}</span>` }) },
  ], { caption: 'Step 4: the 64 per-bit weighted sums' });
}

export function mount() {
  model.on('texts', render);
  model.on('which', render);
  model.on('layout', render);
}
