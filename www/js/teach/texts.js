// The teaching view's inputs: the example pair, texts A and B (with their lengths), the
// n-gram size, and which text steps 1–5 show. Typing updates the steps after a pause.
import { $, debounce } from '../dom.js';
import { PAIRS } from '../examples.js';
import * as model from './model.js';

const text = (w) => $(`#text-${w}`);

function updateLengths() {
  for (const w of ['a', 'b']) $(`#len-${w}`).textContent = `(${text(w).value.length.toLocaleString()} characters)`;
}

const update = () => model.setTexts(text('a').value, text('b').value);
const updateSoon = debounce(() => model.setTexts(text('a').value, text('b').value, true), 150);

/** Puts example pair `name` (a key of PAIRS) into the text boxes and updates every step. */
export function loadExample(name) {
  const [a, b] = PAIRS[name];
  text('a').value = a;
  text('b').value = b;
  updateLengths();
  update();
}

export function mount() {
  $('#example').addEventListener('change', (e) => loadExample(e.target.value));
  for (const w of ['a', 'b']) {
    text(w).addEventListener('input', () => {
      updateLengths();
      updateSoon();
    });
  }
  $('#ngram').addEventListener('change', (e) => {
    const n = Number(e.target.value);
    for (const el of document.querySelectorAll('.n-out')) el.textContent = String(n);
    model.setNgram(n);
  });
  for (const r of document.querySelectorAll('input[name="which"]')) {
    r.addEventListener('change', (e) => model.setWhich(e.target.value));
  }
}
