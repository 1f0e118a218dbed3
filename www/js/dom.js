// Helpers every panel uses: element lookup, HTML escaping, number formatting, the status
// line, and a fingerprint's bits.

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

/** The status line under the header; `error` marks it red. */
export function setStatus(msg, error = false) {
  const s = $('#status');
  s.textContent = msg;
  s.classList.toggle('error', error);
}
