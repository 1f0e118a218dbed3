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

/** The fewest words in a row that read as moved text rather than as words edited. */
export const MOVED_MIN = 4;

/**
 * Text moved inside a passage (a sentence put at the end of its paragraph): runs of at least
 * MOVED_MIN words outside the common subsequence on both sides, the same words in the same
 * order. A longest common subsequence keeps one order, so a moved run shows as words added
 * on one side and left out on the other. Returns the moved indices of each side (Sets).
 */
function moved(a, b, inA, inB) {
  const movedA = new Set(), movedB = new Set();
  const free = (ws, kept, used, i) => i < ws.length && !kept.has(i) && !used.has(i);
  // Each run of MOVED_MIN free words of `b`, by its words.
  const starts = new Map();
  for (let j = 0; j + MOVED_MIN <= b.length; j++) {
    let ok = true;
    for (let k = 0; k < MOVED_MIN && ok; k++) ok = free(b, inB, movedB, j + k);
    if (!ok) continue;
    const key = b.slice(j, j + MOVED_MIN).map((x) => x.w).join(' ');
    if (!starts.has(key)) starts.set(key, []);
    starts.get(key).push(j);
  }
  for (let i = 0; i + MOVED_MIN <= a.length;) {
    let ok = true;
    for (let k = 0; k < MOVED_MIN && ok; k++) ok = free(a, inA, movedA, i + k);
    const at = ok ? (starts.get(a.slice(i, i + MOVED_MIN).map((x) => x.w).join(' ')) ?? []).find((j) => free(b, inB, movedB, j)) : undefined;
    if (at === undefined) { i++; continue; }
    let n = 0;
    while (free(a, inA, movedA, i + n) && free(b, inB, movedB, at + n) && a[i + n].w === b[at + n].w) n++;
    if (n < MOVED_MIN) { i++; continue; }
    for (let k = 0; k < n; k++) { movedA.add(i + k); movedB.add(at + k); }
    i += n;
  }
  return { movedA, movedB };
}

/**
 * Adjacent edited words joined into one range (the gap between them is in it too); a run of
 * moved words is a range of its own, `{ s, e, moved: true }`.
 */
function ranges(ws, kept, movedSet) {
  const out = [];
  ws.forEach((w, i) => {
    if (kept.has(i)) return;
    const mv = movedSet.has(i);
    const last = out[out.length - 1];
    if (last && last.i === i - 1 && last.moved === mv) { last.e = w.e; last.i = i; } else out.push({ s: w.s, e: w.e, i, moved: mv });
  });
  return out.map(({ s, e, moved: mv }) => (mv ? { s, e, moved: true } : { s, e }));
}

/**
 * The edits between `sub[subStart, subEnd)` and `ref[refStart, refEnd)`:
 * `{ sub: [{ s, e, moved? }], ref: [{ s, e, moved? }], changed, added, dropped, moved, words, exact }`,
 * ranges as offsets into each whole text; `changed` counts the submission's words not in the
 * source plus the source's words left out (moved words are neither: `moved` counts them, on
 * the submission's side); `exact` is false when the passage was too long for a full diff.
 */
export function wordDiff(sub, subStart, subEnd, ref, refStart, refEnd) {
  const a = words(sub, subStart, subEnd), b = words(ref, refStart, refEnd);
  const { inA, inB, exact } = lcs(a, b);
  const { movedA, movedB } = exact ? moved(a, b, inA, inB) : { movedA: new Set(), movedB: new Set() };
  const added = a.length - inA.size - movedA.size, dropped = b.length - inB.size - movedB.size;
  return { sub: ranges(a, inA, movedA), ref: ranges(b, inB, movedB), changed: added + dropped, added, dropped, moved: movedA.size, words: a.length, exact };
}
