// The teaching view's shared state: texts A and B, the n-gram size (and its hasher), the
// text whose steps are shown, and k. Panels read it and listen to its events:
//   'texts'  a text or n changed, so explanations and fingerprints may have changed
//   'which'  the text whose steps 1–5 are shown changed
//   'k'      the distance threshold changed
//   'layout' the bit grids' columns per band changed (the view's width, presentation mode)
import { SimHasher } from '../../pkg/index.js';

/** type → listeners, in the order they subscribed. */
const listeners = new Map();
const emit = (type) => (listeners.get(type) ?? []).forEach((fn) => fn());
export const on = (type, fn) => listeners.set(type, [...(listeners.get(type) ?? []), fn]);

/** Lets the browser paint and handle input between two panels' renders. */
const yieldTask = () => (globalThis.scheduler?.yield ? globalThis.scheduler.yield() : new Promise((r) => setTimeout(r, 0)));
let generation = 0;

/**
 * Like emit('texts'), with each panel rendered in a task of its own, so a long text (a
 * 25,000-character paste) never holds the main thread for all of them at once. A newer
 * change abandons the rest of an older one.
 */
async function emitSpread(type) {
  const mine = ++generation;
  for (const fn of listeners.get(type) ?? []) {
    fn();
    await yieldTask();
    if (mine !== generation) return;
  }
}

const texts = { a: '', b: '' };
const cache = { a: null, b: null };
let hasher = null;

export let ngram = 6;
export let which = 'a';
/** The chart's best F1 (step 9) on the dev corpus; step 9 sets it from its data until k is moved. */
export let k = 8;
export let kTouched = false;
/** Bit columns per band in the 64-bit grids (64, 32 or 16), and their cells' font size in px (bits.js). */
export let cols = 64;
export let cellFont = 12;

/** Sets both texts; `spread` renders the panels one task at a time (typing and pasting). */
export function setTexts(a, b, spread = false) {
  texts.a = a;
  texts.b = b;
  if (spread) emitSpread('texts');
  else {
    generation++;
    emit('texts');
  }
}

export function setNgram(n) {
  hasher?.free();
  hasher = null;
  ngram = n;
  emit('texts');
}

export function setWhich(w) {
  which = w;
  emit('which');
}

export function setK(value, byUser = true) {
  k = value;
  kTouched ||= byUser;
  emit('k');
}

export function setLayout(columns, font) {
  if (columns === cols && Math.abs(font - cellFont) < 0.5) return;
  cols = columns;
  cellFont = font;
  emit('layout');
}

/**
 * `explainArrays()` of text `w` ('a' or 'b'), cached: `{ e }`, or `{ error }` with a message
 * to show. The typed-array form: no JS object per token, so a 50 kB text stays fast.
 */
export function explain(w) {
  const text = texts[w];
  const c = cache[w];
  if (c && c.text === text && c.ngram === ngram) return c;
  hasher ??= new SimHasher({ ngram });
  let result;
  try {
    result = { text, ngram, e: hasher.explainArrays(text) };
  } catch (err) {
    result = { text, ngram, error: err.code === 'EmptyText' ? 'The text is empty after normalisation.' : err.message };
  }
  cache[w] = result;
  return result;
}

/** The distinct features of text `w` as a Map (feature → weight); empty when it has none. */
export function features(w) {
  const r = explain(w);
  if (r.error) return new Map();
  if (!r.features) {
    const e = r.e, norm = e.normalized;
    r.features = new Map();
    for (let i = 0; i < e.first.length; i++) if (e.first[i]) r.features.set(norm.slice(e.start[i], e.end[i]), e.weight[i]);
  }
  return r.features;
}

/** The two fingerprints `[a, b]`, or null when either text has none. */
export function fingerprints() {
  const a = explain('a'), b = explain('b');
  return a.error || b.error ? null : [a.e.fingerprint, b.e.fingerprint];
}
