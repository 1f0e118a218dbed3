// Step 8: sorted random fingerprints stored as h(n) plus the bits after n; huffmanTable()
// gives the code for the n values.
import { huffmanTable } from '../../pkg/index.js';
import { $ } from '../dom.js';

/** `n` pseudo-random fingerprints (SplitMix64 from a fixed seed: the same set every time). */
function randomFingerprints(n) {
  const out = new BigUint64Array(n);
  let s = 0x9e3779b97f4a7c15n;
  const M = (1n << 64n) - 1n;
  for (let i = 0; i < n; i++) {
    s = (s + 0x9e3779b97f4a7c15n) & M;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M;
    out[i] = z ^ (z >> 31n);
  }
  return out;
}

function render() {
  const n = Number($('#huff-n').value);
  const rows = huffmanTable(randomFingerprints(n)).slice().sort((a, b) => b.count - a.count);
  const total = rows.reduce((s, r) => s + r.count, 0) || 1;
  const avg = rows.reduce((s, r) => s + r.count * r.code.length, 0) / total;
  // Symbol 64 means "a repeat of the previous fingerprint": no bits follow it.
  const avgN = rows.reduce((s, r) => s + r.count * (r.symbol < 64 ? r.symbol : 0), 0) / total;
  $('#huff-summary').innerHTML = `${n.toLocaleString()} sorted random fingerprints: h(n) takes <b>${avg.toFixed(2)}</b> bits on average with the Huffman code (6 bits without), `
    + `and about ${avgN.toFixed(1)} bits follow it: roughly ${(avg + avgN).toFixed(1)} bits per fingerprint instead of 64.`;
  let html = '<tr><th class="r">n (highest differing bit)</th><th class="r">count</th><th class="r">share</th><th>Huffman code</th><th class="r">bits</th></tr>';
  for (const r of rows) {
    html += `<tr><td class="r">${r.symbol === 64 ? 'repeat' : r.symbol}</td><td class="r">${r.count.toLocaleString()}</td><td class="r">${(100 * r.count / total).toFixed(1)} %</td><td><code>${r.code}</code></td><td class="r">${r.code.length}</td></tr>`;
  }
  $('#huff').innerHTML = html;
}

export function mount() {
  $('#huff-n').addEventListener('change', render);
  render();
}
