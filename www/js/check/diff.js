// A word-level diff of a copied passage against its source: which words of each side are
// not in their longest common subsequence (the edits). Words are letter/digit runs (each
// CJK character is one word), compared case-insensitively; punctuation is not compared.

const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}]+)*/gu;
const MAX_CELLS = 4_000_000; // the LCS table's limit: 2,000 × 2,000 words

/** The words of `text` between `start` and `end`: [{ s, e, w }], offsets into `text`. */
export function words(text, start = 0, end = text.length) {
  const out = [];
  WORD.lastIndex = 0;
  const part = text.slice(start, end);
  for (const m of part.matchAll(WORD)) out.push({ s: start + m.index, e: start + m.index + m[0].length, w: m[0].toLowerCase() });
  return out;
}

/** Indices of `a` and `b` in a longest common subsequence of their words (as two Sets). */
function lcs(a, b) {
  const inA = new Set(), inB = new Set();
  // Common ends cost nothing: a verbatim copy needs no table at all.
  let lo = 0;
  while (lo < a.length && lo < b.length && a[lo].w === b[lo].w) { inA.add(lo); inB.add(lo); lo++; }
  let ha = a.length, hb = b.length;
  while (ha > lo && hb > lo && a[ha - 1].w === b[hb - 1].w) { ha--; hb--; inA.add(ha); inB.add(hb); }
  const n = ha - lo, m = hb - lo;
  if (n === 0 || m === 0) return { inA, inB, exact: true };
  if (n * m > MAX_CELLS) {
    // Too long for the table: a word counts as kept when the other side has it at all.
    const setA = new Set(a.slice(lo, ha).map((x) => x.w)), setB = new Set(b.slice(lo, hb).map((x) => x.w));
    for (let i = lo; i < ha; i++) if (setB.has(a[i].w)) inA.add(i);
    for (let j = lo; j < hb; j++) if (setA.has(b[j].w)) inB.add(j);
    return { inA, inB, exact: false };
  }
  const L = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      L[i * (m + 1) + j] = a[lo + i].w === b[lo + j].w ? L[(i + 1) * (m + 1) + j + 1] + 1 : Math.max(L[(i + 1) * (m + 1) + j], L[i * (m + 1) + j + 1]);
    }
  }
  for (let i = 0, j = 0; i < n && j < m;) {
    if (a[lo + i].w === b[lo + j].w) { inA.add(lo + i); inB.add(lo + j); i++; j++; }
    else if (L[(i + 1) * (m + 1) + j] >= L[i * (m + 1) + j + 1]) i++;
    else j++;
  }
  return { inA, inB, exact: true };
}

/** Adjacent edited words joined into one range (the gap between them is in it too). */
function ranges(ws, kept) {
  const out = [];
  ws.forEach((w, i) => {
    if (kept.has(i)) return;
    const last = out[out.length - 1];
    if (last && last.i === i - 1) { last.e = w.e; last.i = i; } else out.push({ s: w.s, e: w.e, i });
  });
  return out.map(({ s, e }) => ({ s, e }));
}

/**
 * The edits between `sub[subStart, subEnd)` and `ref[refStart, refEnd)`:
 * `{ sub: [{ s, e }], ref: [{ s, e }], changed, words, exact }`, ranges as offsets into each
 * whole text; `changed` counts the submission's words not in the source plus the source's
 * words left out; `exact` is false when the passage was too long for a full diff.
 */
export function wordDiff(sub, subStart, subEnd, ref, refStart, refEnd) {
  const a = words(sub, subStart, subEnd), b = words(ref, refStart, refEnd);
  const { inA, inB, exact } = lcs(a, b);
  return { sub: ranges(a, inA), ref: ranges(b, inB), changed: (a.length - inA.size) + (b.length - inB.size), added: a.length - inA.size, dropped: b.length - inB.size, words: a.length, exact };
}
