// Step 9: precision, recall and F1 against k, measured by `npm run quality` into
// data/quality.json; a dashed line marks the view's k. The x axis spans the k slider's
// whole range: beyond the measured k the chart says so, and the marker stays visible.
// Until the k slider is moved, the view's k is the measured best F1.
import { $ } from '../dom.js';
import * as model from './model.js';

let quality = null;

/** The measured k with the highest F1. */
export const bestK = (rows) => rows.reduce((b, r) => (r.f1 > b.f1 ? r : b)).k;

function render() {
  if (!quality) return;
  const rows = quality.rows, k = model.k;
  const W = 760, H = 290, L = 48, R = 110, T = 14, B = 40;
  const maxK = rows[rows.length - 1].k;
  const axisMax = Math.max(maxK, Number($('#k').max));
  const x = (kk) => L + (kk / axisMax) * (W - L - R);
  const y = (v) => T + (1 - v) * (H - T - B);
  let svg = '';
  if (axisMax > maxK) {
    svg += `<rect class="unmeasured" x="${x(maxK)}" y="${T}" width="${x(axisMax) - x(maxK)}" height="${H - T - B}"/>`
      + `<text class="unmeasured-label" x="${(x(maxK) + x(axisMax)) / 2}" y="${T + 18}" text-anchor="middle">not measured (k &gt; ${maxK})</text>`;
  }
  for (let v = 0; v <= 1.0001; v += 0.25) svg += `<line class="grid" x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}"/><text x="${L - 6}" y="${y(v) + 4}" text-anchor="end">${v.toFixed(2)}</text>`;
  for (let kk = 0; kk <= axisMax; kk += axisMax > 10 ? 2 : 1) svg += `<text x="${x(kk)}" y="${H - B + 17}" text-anchor="middle">${kk}</text>`;
  svg += `<text x="${(L + W - R) / 2}" y="${H - 4}" text-anchor="middle">k (bits)</text>`;
  svg += `<line class="axis" x1="${L}" x2="${L}" y1="${T}" y2="${H - B}"/><line class="axis" x1="${L}" x2="${W - R}" y1="${H - B}" y2="${H - B}"/>`;
  const series = [['p', 'lp', 'precision'], ['r', 'lr', 'recall'], ['f1', 'lf', 'F1']];
  series.forEach(([key, cls, name], i) => {
    svg += `<path class="${cls}" d="${rows.map((r, j) => `${j ? 'L' : 'M'}${x(r.k).toFixed(1)},${y(r[key]).toFixed(1)}`).join('')}"/>`;
    for (const r of rows) svg += `<circle class="${cls}" cx="${x(r.k)}" cy="${y(r[key])}" r="3"><title>k=${r.k}: ${name} ${r[key].toFixed(3)}</title></circle>`;
    svg += `<line class="${cls}" x1="${W - R + 14}" x2="${W - R + 34}" y1="${T + 14 + i * 22}" y2="${T + 14 + i * 22}" stroke-width="3"/><text x="${W - R + 40}" y="${T + 18 + i * 22}">${name}</text>`;
  });
  svg += `<line class="kline" id="k-marker" data-k="${k}" x1="${x(k)}" x2="${x(k)}" y1="${T}" y2="${H - B}"/><text class="klabel" x="${x(k) + 4}" y="${H - B - 6}">k = ${k}</text>`;
  const pr = $('#pr');
  pr.setAttribute('viewBox', `0 0 ${W} ${H}`);
  pr.innerHTML = svg;
  const row = rows.find((r) => r.k === k);
  const best = bestK(rows);
  $('#pr-note').textContent = (row
    ? `At k = ${k}: precision ${row.p.toFixed(3)}, recall ${row.r.toFixed(3)}, F1 ${row.f1.toFixed(3)}. `
    : `k = ${k} is beyond the measured range (0–${maxK}): recall keeps rising and precision falling. `)
    + `F1 is highest at k = ${best}, where the page starts. Setting: ${quality.setting}; truth: ${quality.truth}.`;
  $('#k-why').textContent = `The page starts at k = ${best}, the best balance of precision and recall (F1) measured on this project’s corpus (step 9). Manku et al. chose k = 3 for 8 billion web pages, where a false match costs more than a miss: lower k, fewer false matches, more misses.`;
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
  if (!model.kTouched) model.setK(bestK(quality.rows), false);
  render();
}

export function mount() {
  model.on('k', render);
  load();
}
