// Step 9: precision, recall and F1 against k, measured by `npm run quality` into
// data/quality.json; a dashed line marks the view's k.
import { $ } from '../dom.js';
import * as model from './model.js';

let quality = null;

function render() {
  if (!quality) return;
  const rows = quality.rows, k = model.k;
  const W = 640, H = 270, L = 44, R = 110, T = 12, B = 36;
  const maxK = rows[rows.length - 1].k;
  const x = (kk) => L + (kk / maxK) * (W - L - R);
  const y = (v) => T + (1 - v) * (H - T - B);
  let svg = '';
  for (let v = 0; v <= 1.0001; v += 0.25) svg += `<line class="grid" x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}"/><text x="${L - 6}" y="${y(v) + 4}" text-anchor="end">${v.toFixed(2)}</text>`;
  for (const r of rows) svg += `<text x="${x(r.k)}" y="${H - B + 16}" text-anchor="middle">${r.k}</text>`;
  svg += `<text x="${(L + W - R) / 2}" y="${H - 4}" text-anchor="middle">k (bits)</text>`;
  svg += `<line class="axis" x1="${L}" x2="${L}" y1="${T}" y2="${H - B}"/><line class="axis" x1="${L}" x2="${W - R}" y1="${H - B}" y2="${H - B}"/>`;
  const series = [['p', 'lp', 'precision'], ['r', 'lr', 'recall'], ['f1', 'lf', 'F1']];
  series.forEach(([key, cls, name], i) => {
    svg += `<path class="${cls}" d="${rows.map((r, j) => `${j ? 'L' : 'M'}${x(r.k).toFixed(1)},${y(r[key]).toFixed(1)}`).join('')}"/>`;
    for (const r of rows) svg += `<circle class="${cls}" cx="${x(r.k)}" cy="${y(r[key])}" r="2.6"><title>k=${r.k}: ${name} ${r[key].toFixed(3)}</title></circle>`;
    svg += `<line class="${cls}" x1="${W - R + 14}" x2="${W - R + 34}" y1="${T + 14 + i * 20}" y2="${T + 14 + i * 20}" stroke-width="3"/><text x="${W - R + 40}" y="${T + 18 + i * 20}">${name}</text>`;
  });
  if (k <= maxK) svg += `<line class="kline" x1="${x(k)}" x2="${x(k)}" y1="${T}" y2="${H - B}"/>`;
  const pr = $('#pr');
  pr.setAttribute('viewBox', `0 0 ${W} ${H}`);
  pr.setAttribute('width', String(W));
  pr.setAttribute('height', String(H));
  pr.innerHTML = svg;
  const row = rows.find((r) => r.k === k);
  $('#pr-note').textContent = (row
    ? `At k = ${k}: precision ${row.p.toFixed(3)}, recall ${row.r.toFixed(3)}, F1 ${row.f1.toFixed(3)}. `
    : `k = ${k} is beyond the measured range (0–${maxK}). `) + `Setting: ${quality.setting}; truth: ${quality.truth}.`;
}

async function load() {
  try {
    const res = await fetch(new URL('../../data/quality.json', import.meta.url));
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    quality = await res.json();
  } catch (err) {
    $('#pr-note').textContent = `data/quality.json could not be loaded (${err.message}); run npm run quality.`;
    return;
  }
  render();
}

export function mount() {
  model.on('k', render);
  load();
}
