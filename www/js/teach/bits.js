// The 64-bit grids of steps 3–6, laid out alike so a column can be followed down the
// steps: every grid has the same label column and the same bit columns, bit 63 on the left,
// so bit i sits at the same x in each step. Where 64 columns don't fit at a readable size
// the bits wrap into 2 bands of 32 or 4 of 16 (bits 63–32 above 31–0, and so on).
// The number of columns follows the teaching view's width (and presentation mode); a
// change re-renders the steps through model's 'layout' event.
import { esc } from '../dom.js';
import * as model from './model.js';

/** The narrowest bit column, in CSS px, before the grid wraps (wider in presentation mode). */
const MIN_COL = 15;
const MIN_COL_PRESENT = 32;
/** The label column's width in px (it stacks above the bits where the grid is narrow). */
export const LABEL_WIDE = 170;

/** Columns per band (64, 32 or 16) for a grid `width` px wide. */
export function columnsFor(width, present) {
  const min = present ? MIN_COL_PRESENT : MIN_COL;
  for (const cols of [64, 32]) if ((width - LABEL_WIDE) / cols >= min) return cols;
  return 16;
}

/**
 * A grid of 64-bit rows: `rows` are { label (HTML), cls, cell(i) → { cls, html, title } }
 * for bit i. Returns HTML: one band per run of `model.cols` bits, each with a row of bit
 * numbers first. Every cell has data-bit="i".
 */
export function bitGrid(rows, { id = '', caption = '' } = {}) {
  const cols = model.cols;
  let html = `<div class="bitgrid${cols === 16 ? ' narrow' : ''}" ${id ? `id="${id}"` : ''} role="table" aria-label="${esc(caption)}" style="--cols:${cols}">`;
  for (let band = 0; band < 64 / cols; band++) {
    const hi = 63 - band * cols;
    html += '<div class="band" role="rowgroup">';
    html += '<div class="brow colno" role="row"><div class="lab" role="rowheader">bit</div>';
    for (let i = hi; i > hi - cols; i--) html += `<div class="c" role="columnheader" data-bit="${i}">${i}</div>`;
    html += '</div>';
    for (const r of rows) {
      html += `<div class="brow ${r.cls ?? ''}" role="row"><div class="lab" role="rowheader">${r.label}</div>`;
      for (let i = hi; i > hi - cols; i--) {
        const c = r.cell(i);
        html += `<div class="c ${c.cls ?? ''}" role="cell" data-bit="${i}"${c.title ? ` title="${esc(c.title)}"` : ''}>${c.html}</div>`;
      }
      html += '</div>';
    }
    html += '</div>';
  }
  return html + '</div>';
}
