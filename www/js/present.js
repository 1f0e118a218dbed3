// The teaching view's layout: the bit grids' columns per band follow the view's width
// (bits.js), and presentation mode, for a lecture: large type, one step at a time, moved by
// the buttons or the arrow keys (Page Up/Down too, as a clicker sends), Esc to leave (from
// a text box or slider too). The bar counts the numbered steps, as their badges do; the
// worked example (★) is named as such. The inputs are hidden there until asked for.
import { $ } from './dom.js';
import { layoutFor } from './teach/bits.js';
import * as model from './teach/model.js';

let current = 0;
const steps = () => [...document.querySelectorAll('#view-teach .step')];
const presenting = () => document.body.classList.contains('present');

/** The width the grids get: the view's, less a card's padding and border. */
function gridWidth() {
  const probe = document.querySelector('#view-teach .step:not([hidden]) .gridwrap') ?? document.querySelector('#view-teach .gridwrap');
  const w = probe?.clientWidth || 0;
  return w > 0 ? w : $('#view-teach').clientWidth - 40;
}

/** The root font size in px: presentation mode's type follows the window through it. */
const rem = () => parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;

function relayout() {
  if ($('#view-teach').hidden) return;
  const { cols, font } = layoutFor(gridWidth(), presenting(), rem());
  model.setLayout(cols, font);
}

let lastWidth = -1;
let frame = 0;

/**
 * The view's width changed: the grids are laid out again in the next frame. Re-rendering
 * them inside the observer's callback would resize what it observes, which the browser
 * reports as a "ResizeObserver loop" error; a change of height alone needs nothing.
 */
function onResize(entries) {
  const width = entries[entries.length - 1].contentRect.width;
  if (width === lastWidth) return;
  lastWidth = width;
  cancelAnimationFrame(frame);
  frame = requestAnimationFrame(relayout);
}

/** A step's badge: its number, or ★ for the worked example. */
const badge = (step) => step.querySelector('h2 .num').textContent.trim();
const isNumbered = (step) => /^\d+$/.test(badge(step));

/** The bar's words for step `step` of `all`: "Step 4 of 9: …", or the worked example and where it sits. */
function stepLabel(step, all) {
  const title = step.querySelector('h2').textContent.replace(/^\S+\s/, '');
  const numbered = all.filter(isNumbered);
  if (isNumbered(step)) return `Step ${badge(step)} of ${numbered.length}: ${title}`;
  const before = all.slice(0, all.indexOf(step)).filter(isNumbered).pop();
  return `${badge(step)} ${title}${before ? ` (after step ${badge(before)} of ${numbered.length})` : ''}`;
}

function show(i) {
  const all = steps();
  current = Math.max(0, Math.min(all.length - 1, i));
  all.forEach((s, j) => s.classList.toggle('current', j === current));
  $('#step-of').textContent = stepLabel(all[current], all);
  $('#step-prev').disabled = current === 0;
  $('#step-next').disabled = current === all.length - 1;
  window.scrollTo({ top: 0 });
  relayout();
}

/** Shows or hides the example, n and the texts in presentation mode. */
function showInputs(open) {
  $('#view-teach').classList.toggle('inputs-open', open);
  $('#present-inputs').setAttribute('aria-expanded', String(open));
}

function setPresenting(on) {
  const focusWasIn = document.activeElement?.closest?.('#teach-controls, #present-bar');
  document.body.classList.toggle('present', on);
  $('#present').setAttribute('aria-pressed', String(on));
  $('#present-bar').hidden = !on;
  showInputs(false);
  if (on) show(current);
  else {
    for (const s of steps()) s.classList.remove('current');
    relayout();
  }
  // The button that was pressed may have been hidden: the focus goes to its counterpart.
  if (focusWasIn) (on ? ($('#step-next').disabled ? $('#present-exit') : $('#step-next')) : $('#present')).focus();
}

export function mount() {
  $('#present').addEventListener('click', () => setPresenting(!presenting()));
  $('#present-exit').addEventListener('click', () => setPresenting(false));
  $('#step-prev').addEventListener('click', () => show(current - 1));
  $('#step-next').addEventListener('click', () => show(current + 1));
  $('#present-inputs').addEventListener('click', () => showInputs(!$('#view-teach').classList.contains('inputs-open')));
  document.addEventListener('keydown', (e) => {
    if (!presenting()) return;
    if (e.key === 'Escape') {
      setPresenting(false);
      return;
    }
    // In a text box, a list or a slider the arrow keys move the caret or the value.
    if (e.target.closest?.('textarea, input, select')) return;
    if (e.key === 'ArrowRight' || e.key === 'PageDown') { e.preventDefault(); show(current + 1); }
    else if (e.key === 'ArrowLeft' || e.key === 'PageUp') { e.preventDefault(); show(current - 1); }
  });
  new ResizeObserver(onResize).observe($('#view-teach'));
  relayout();
}
