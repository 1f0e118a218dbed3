// The 64-bit grids of steps 3–6, laid out alike so a column can be followed down the
// steps: every grid has the same label column and the same bit columns, bit 63 on the left,
// so bit i sits at the same x in each step. Where 64 columns don't fit at a readable size
// the bits wrap into 2 bands of 32 or 4 of 16 (bits 63–32 above 31–0, and so on).
// The number of columns follows the teaching view's width (and presentation mode); a
// change re-renders the steps through model's 'layout' event.
import { esc } from '../dom.js';
import * as model from './model.js';

/**
 * The narrowest bit column before the grid wraps, and the label column's width (it stacks
 * above the bits where the grid is narrow; CSS's --lab is the same): in px, and in
 * presentation mode in rem, as its type follows the window's size there.
 */
const MIN_COL = 15;
const LABEL = 184;
const MIN_COL_PRESENT_REM = 1.45;
const LABEL_PRESENT_REM = 13;
/** The cells' largest font: px, and rem in presentation mode. */
const MAX_FONT = 26;
const MAX_FONT_PRESENT_REM = 1.25;

/**
 * The layout for a grid `width` px wide: `{ cols, font }`, columns per band (64, 32 or 16)
 * and the cells' font size in px (set once per grid, not computed per cell by CSS: the
 * step-3 grid has thousands of cells). `rem` is the root font size in px.
 */
export function layoutFor(width, present, rem = 16) {
  const min = present ? MIN_COL_PRESENT_REM * rem : MIN_COL;
  const label = present ? LABEL_PRESENT_REM * rem : LABEL;
  const maxFont = present ? MAX_FONT_PRESENT_REM * rem : MAX_FONT;
  let cols = 16, colWidth = width / 16;
  for (const c of [64, 32]) {
    if ((width - label) / c >= min) {
      cols = c;
      colWidth = (width - label) / c;
      break;
    }
  }
  return { cols, font: Math.round(Math.max(10, Math.min(maxFont, colWidth * 0.6)) * 10) / 10 };
}

/**
 * A grid of 64-bit rows: `rows` are { label (HTML), cls, cell(i) → { cls, html, title } }
 * for bit i. Returns HTML: a fixed-layout table (its columns set by the colgroup alone, so
 * every step's grid has the same columns, and laying out thousands of cells stays cheap),
 * one tbody per band of `model.cols` bits, each with a row of bit numbers first. Every cell
 * has data-bit="i". Where the grid is narrow, each row's label takes a row of its own above it.
 */
export function bitGrid(rows, { id = '', caption = '' } = {}) {
  const cols = model.cols;
  const narrow = cols === 16;
  let html = `<table class="bitgrid${narrow ? ' narrow' : ''}" ${id ? `id="${id}"` : ''} aria-label="${esc(caption)}" style="--cols:${cols};--cell-font:${model.cellFont}px">`
    + `<colgroup>${narrow ? '' : '<col class="labcol">'}<col span="${cols}"></colgroup>`;
  const label = (cls, text) => (narrow ? `<tr class="labrow ${cls}"><th colspan="${cols}" scope="row">${text}</th></tr><tr class="brow ${cls}">` : `<tr class="brow ${cls}"><th class="lab" scope="row">${text}</th>`);
  for (let band = 0; band < 64 / cols; band++) {
    const hi = 63 - band * cols;
    html += `<tbody class="band">${narrow ? '<tr class="brow colno">' : '<tr class="brow colno"><th class="lab">bit</th>'}`;
    for (let i = hi; i > hi - cols; i--) html += `<th class="c" scope="col" data-bit="${i}">${i}</th>`;
    html += '</tr>';
    for (const r of rows) {
      html += label(r.cls ?? '', r.label);
      for (let i = hi; i > hi - cols; i--) {
        const c = r.cell(i);
        html += `<td class="c ${c.cls ?? ''}" data-bit="${i}"${c.title ? ` title="${esc(c.title)}"` : ''}>${c.html}</td>`;
      }
      html += '</tr>';
    }
    html += '</tbody>';
  }
  return html + '</table>';
}
