// Step 6: A, B and A XOR B bit by bit, the Hamming distance, and the verdict at k (the
// k slider lives here and sets k for the whole view). Under the verdict: how much of the
// two texts' feature weight they share, which is why a one-word edit moves many bits of a
// short text and few of a long one.
import { toHex, hamming, similarity } from '../../pkg/index.js';
import { $, esc, bit, fmt } from '../dom.js';
import { bitGrid } from './bits.js';
import * as model from './model.js';

/** The share of A's and B's feature weight (sum of w) that belongs to features both have. */
function sharedWeight() {
  const fa = model.features('a'), fb = model.features('b');
  let shared = 0, total = 0, onlyA = 0, onlyB = 0;
  for (const [f, w] of fa) { total += w; if (fb.has(f)) shared += w; else onlyA++; }
  for (const [f, w] of fb) { total += w; if (fa.has(f)) shared += w; else onlyB++; }
  return { share: total ? shared / total : 0, onlyA, onlyB, a: fa.size, b: fb.size };
}

function whyNote(d) {
  const s = sharedWeight();
  const changed = s.onlyA + s.onlyB;
  let html = `A has ${s.a.toLocaleString()} distinct features and B ${s.b.toLocaleString()}; ${changed.toLocaleString()} of them are in only one text (${s.onlyA} only in A, ${s.onlyB} only in B), `
    + `so the texts share <b>${fmt(Math.round(1000 * s.share) / 10)} %</b> of their feature weight.`;
  if (changed === 0) return `${html} Same features, same weights: the same fingerprint.`;
  html += ' A column’s sum changes by the weights of those features; its bit flips only when the change crosses zero.';
  if (Math.min(s.a, s.b) < 60) {
    html += ` <b>Why so many bits for a small edit:</b> these texts are short. With only ${Math.min(s.a, s.b)} features, one changed word replaces a large share of them, and every column sum is made of few terms, so many sums cross zero: here ${d} of 64 bits. In a page of a few thousand characters the same edit changes a small share of the features, and only the few columns whose sums were near zero flip (the football report above: 2 bits). SimHash is meant for documents, not single sentences.`;
  } else {
    html += ` Each text has many features, so the changed ones move each sum only a little: only the columns whose sums were near zero flip (${d} of 64 here).`;
  }
  return html;
}

function render() {
  const verdict = $('#verdict');
  const fps = model.fingerprints();
  if (!fps) {
    const a = model.explain('a'), b = model.explain('b');
    $('#xor').innerHTML = `<p class="note">${esc(a.error ? `Text A: ${a.error}` : `Text B: ${b.error}`)}</p>`;
    verdict.textContent = 'No fingerprint to compare.';
    verdict.className = 'verdict';
    $('#why').innerHTML = '';
    delete verdict.dataset.distance;
    return;
  }
  const [fa, fb] = fps, x = fa ^ fb;
  const row = (label, fp, cls) => ({ label, cell: (i) => ({ cls: `${cls}${bit(fp, i)}`, html: String(bit(fp, i)), title: cls === 'x' && bit(fp, i) ? `bit ${i} differs` : '' }) });
  $('#xor').innerHTML = bitGrid([
    row(`A <span class="hex" id="fp-a">${toHex(fa)}</span>`, fa, 'b'),
    row(`B <span class="hex" id="fp-b">${toHex(fb)}</span>`, fb, 'b'),
    { ...row(`XOR <span class="hex">${toHex(x)}</span>`, x, 'x'), cls: 'xor' },
  ], { caption: 'Step 6: fingerprints A and B and their XOR' });
  const d = hamming(fa, fb), sim = similarity(fa, fb), k = model.k;
  const near = d <= k;
  verdict.className = `verdict ${near ? 'yes' : 'no'}`;
  verdict.dataset.distance = String(d);
  verdict.textContent = `Hamming distance ${d} (${d} of 64 bits differ), similarity ${(100 * sim).toFixed(1)} % → ${near ? `near-duplicates at k = ${k}` : `not near-duplicates at k = ${k}`}`;
  $('#why').innerHTML = whyNote(d);
}

export function mount() {
  $('#k').addEventListener('input', (e) => {
    $('#k-out').value = e.target.value;
    model.setK(Number(e.target.value));
  });
  model.on('k', () => {
    $('#k').value = String(model.k);
    $('#k-out').value = String(model.k);
    render();
  });
  model.on('texts', render);
  model.on('layout', render);
}
