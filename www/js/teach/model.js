// The teaching view's shared state: texts A and B, the n-gram size (and its hasher), the
// text whose steps are shown, and k. Panels read it and listen to its events:
//   'texts'  a text or n changed, so explanations and fingerprints may have changed
//   'which'  the text whose steps 1–5 are shown changed
//   'k'      the distance threshold changed
import { SimHasher } from '../../pkg/index.js';

const events = new EventTarget();
const emit = (type) => events.dispatchEvent(new Event(type));
export const on = (type, fn) => events.addEventListener(type, fn);

const texts = { a: '', b: '' };
const cache = { a: null, b: null };
let hasher = null;

export let ngram = 6;
export let which = 'a';
export let k = 3;

export function setTexts(a, b) {
  texts.a = a;
  texts.b = b;
  emit('texts');
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

export function setK(value) {
  k = value;
  emit('k');
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

/** The two fingerprints `[a, b]`, or null when either text has none. */
export function fingerprints() {
  const a = explain('a'), b = explain('b');
  return a.error || b.error ? null : [a.e.fingerprint, b.e.fingerprint];
}
