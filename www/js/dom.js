// Helpers every panel uses: element lookup, HTML escaping, number formatting, the status
// line, and the pieces of the 64-bit tables (bit 63 on the left).

export const $ = (sel) => document.querySelector(sel);

export const esc = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** A number with at most two decimals, trailing zeros dropped. */
export const fmt = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(2).replace(/0+$/, '').replace(/\.$/, ''));

/** Like fmt, with a typographic minus. */
export const signed = (x) => (x < 0 ? `−${fmt(-x)}` : fmt(x));

/** `n thing` or `n things`. */
export const plural = (n, one, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

export const debounce = (fn, ms) => {
  let t;
  return (...a) => {
    clearTimeout(t);
    t = setTimeout(() => fn(...a), ms);
  };
};

/** Bit `i` (0 = least significant) of a fingerprint, as 0 or 1. */
export const bit = (fp, i) => Number((fp >> BigInt(i)) & 1n);

/** The column-number row of a 64-bit table: every 8th bit number, bit 63 on the left. */
export function bitHeader() {
  let h = '<tr class="colno"><th></th>';
  for (let c = 0; c < 64; c++) {
    const i = 63 - c;
    h += `<td>${i % 8 === 7 ? i : ''}</td>`;
  }
  return h + '</tr>';
}

/** The status line under the header; `error` marks it red. */
export function setStatus(msg, error = false) {
  const s = $('#status');
  s.textContent = msg;
  s.classList.toggle('error', error);
}
