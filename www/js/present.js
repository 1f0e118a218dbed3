// The teaching view's layout: the bit grids' columns per band follow the view's width
// (bits.js), and presentation mode, for a lecture: large type, one step at a time, moved by
// the buttons or the arrow keys (Page Up/Down too, as a clicker sends), Esc to leave.
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

function relayout() {
  if ($('#view-teach').hidden) return;
  const { cols, font } = layoutFor(gridWidth(), presenting());
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

function show(i) {
  const all = steps();
  current = Math.max(0, Math.min(all.length - 1, i));
  all.forEach((s, j) => s.classList.toggle('current', j === current));
  const h = all[current].querySelector('h2');
  $('#step-of').textContent = `Step ${current + 1} of ${all.length}: ${h.textContent.replace(/^\S+\s/, '')}`;
  $('#step-prev').disabled = current === 0;
  $('#step-next').disabled = current === all.length - 1;
  window.scrollTo({ top: 0 });
  relayout();
}

function setPresenting(on) {
  document.body.classList.toggle('present', on);
  $('#present').setAttribute('aria-pressed', String(on));
  $('#present-bar').hidden = !on;
  if (on) show(current);
  else {
    for (const s of steps()) s.classList.remove('current');
    relayout();
  }
}

export function mount() {
  $('#present').addEventListener('click', () => setPresenting(!presenting()));
  $('#present-exit').addEventListener('click', () => setPresenting(false));
  $('#step-prev').addEventListener('click', () => show(current - 1));
  $('#step-next').addEventListener('click', () => show(current + 1));
  document.addEventListener('keydown', (e) => {
    if (!presenting() || e.target.closest?.('textarea, input, select')) return;
    if (e.key === 'Escape') setPresenting(false);
    else if (e.key === 'ArrowRight' || e.key === 'PageDown') { e.preventDefault(); show(current + 1); }
    else if (e.key === 'ArrowLeft' || e.key === 'PageUp') { e.preventDefault(); show(current - 1); }
  });
  new ResizeObserver(onResize).observe($('#view-teach'));
  relayout();
}
