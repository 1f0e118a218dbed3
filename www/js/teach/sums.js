// Step 4 for the chosen text: the 64 per-bit weighted sums as bars (SVG), bit 63 on the left.
import { $, signed } from '../dom.js';
import * as model from './model.js';

const W = 14, H = 170, MID = 85, LEFT = 4; // bar pitch, height, zero line, left margin

function render() {
  const svg = $('#sums');
  const r = model.explain(model.which);
  if (r.error) {
    svg.innerHTML = '';
    return;
  }
  const sums = r.e.sums;
  const max = Math.max(1e-9, ...Array.from(sums, Math.abs));
  let html = `<line class="axis" x1="0" x2="${LEFT + 64 * W}" y1="${MID}" y2="${MID}"/>`;
  for (let c = 0; c < 64; c++) {
    const i = 63 - c, s = sums[i], h = (Math.abs(s) / max) * (MID - 14);
    const x = LEFT + c * W + 2, y = s >= 0 ? MID - h : MID;
    html += `<rect class="${s > 0 ? 'pos' : 'neg'}" x="${x}" y="${y.toFixed(1)}" width="${W - 4}" height="${Math.max(h, 0.5).toFixed(1)}"><title>bit ${i}: sum ${signed(s)}</title></rect>`;
    if (i % 8 === 7) html += `<text x="${x}" y="${H - 2}">${i}</text>`;
  }
  svg.setAttribute('viewBox', `0 0 ${LEFT + 64 * W + 4} ${H}`);
  svg.setAttribute('width', String(LEFT + 64 * W + 4));
  svg.setAttribute('height', String(H));
  svg.innerHTML = html;
}

export function mount() {
  model.on('texts', render);
  model.on('which', render);
}
