// Step 7: the multi-table index. The layouts offered, their tables, key bits and expected
// candidates all come from the core (SimHashIndex.stats()); this panel only draws them,
// marks which blocks of A and B agree, and which tables would find the pair.
import { SimHashIndex, hamming } from '../../pkg/index.js';
import { $, esc, plural } from '../dom.js';
import * as model from './model.js';

const PAPER = [16, 12, 12, 12, 12]; // Manku et al.'s layout for k = 3
const MAX_TABLE_ROWS = 30;

let logN = 34;
/** The layouts the core accepts for the current k: select value → their stats(). */
let choices = new Map();

/**
 * stats() of an index with `layout` at `k`, holding one fingerprint, so that
 * expectedCandidatesPerTable is the expectation per stored fingerprint (2^−key bits):
 * N times it is the expectation for N. Throws the core's SimHashError for a layout it refuses.
 */
function layoutStats(k, layout) {
  const ix = new SimHashIndex({ k, layout, ids: 'number' });
  try {
    ix.insert(0, 0n);
    return ix.stats();
  } finally {
    ix.free();
  }
}

/**
 * The widths of `b` (nearly) equal blocks, as the core splits them (Layout::even). There is
 * no binding for that split yet; the default layout for k = b − 1 is exactly b equal blocks.
 */
function evenWidths(b) {
  const ix = new SimHashIndex({ k: b - 1, layout: 'default' });
  try {
    return ix.stats().widths;
  } finally {
    ix.free();
  }
}

/** An <option> for a layout, labelled by `label(stats)`; disabled, with the core's reason, when refused. */
function option(k, widths, label) {
  const value = widths.join(',');
  try {
    const stats = layoutStats(k, widths);
    choices.set(value, stats);
    return `<option value="${value}">${esc(label(stats))}</option>`;
  } catch (err) {
    const refused = `${plural(widths.length, 'block')}: too many tables`;
    return `<option value="${value}" disabled title="${esc(err.message)}">${esc(refused)}</option>`;
  }
}

/** The layouts for k: k + 1 to k + 3 equal blocks, and for k = 3 also the paper's. */
function fillLayouts() {
  const k = model.k;
  const sel = $('#layout');
  const prev = sel.value;
  choices = new Map();
  const options = [];
  for (let b = k + 1; b <= Math.min(64, k + 3); b++) {
    const label = (s) => `${plural(b, 'block')} (${[...new Set(s.widths)].join('/')} bits) → ${plural(s.tables, 'table')}`;
    options.push(option(k, evenWidths(b), label));
  }
  if (k === 3) {
    const label = (s) => `${plural(s.widths.length, 'block')} ${s.widths.join(',')} → ${plural(s.tables, 'table')} (the paper’s)`;
    options.splice(1, 0, option(k, PAPER, label));
  }
  sel.innerHTML = options.join('');
  if (choices.has(prev)) sel.value = prev;
  else sel.value = choices.keys().next().value ?? '';
}

function render() {
  const stats = choices.get($('#layout').value);
  if (!stats) return;
  const k = stats.k;
  const fps = model.fingerprints();
  // Block j covers bits hi…lo; block 0 is the most significant.
  let hi = 63;
  const blocks = stats.widths.map((w, j) => {
    const lo = hi - w + 1;
    const mask = ((1n << BigInt(w)) - 1n) << BigInt(lo);
    const same = fps ? ((fps[0] ^ fps[1]) & mask) === 0n : null;
    const blk = { j, w, hi, lo, same };
    hi = lo - 1;
    return blk;
  });
  $('#blocks').innerHTML = blocks.map((b) => `<div class="blk ${b.same === null ? '' : b.same ? 'same' : 'diff'}" style="flex:${b.w};background:var(--b${b.j % 6})" title="block ${b.j + 1}: bits ${b.hi}…${b.lo}">
      <span class="st">${b.same === null ? '' : b.same ? '=' : '≠'}</span><span>#${b.j + 1}</span> <span>· ${b.w}b</span></div>`).join('');
  const nb = blocks.length, need = nb - k;
  const sameCount = blocks.filter((b) => b.same).length;
  const found = stats.tableBlocks.map((t) => fps !== null && t.every((j) => blocks[j].same));
  const nFound = found.filter(Boolean).length;
  if (fps) {
    const d = hamming(fps[0], fps[1]);
    $('#pigeon').innerHTML = `A and B differ in <b>${d}</b> bits; <b>${sameCount}</b> of ${nb} blocks are identical (=). `
      + `A table finds the pair when all of its ${need} block${need === 1 ? ' is' : 's are'} identical: <b>${nFound}</b> of ${stats.tables.toLocaleString()} tables do. `
      + (d <= k ? `Since ${d} ≤ k = ${k}, at most ${d} blocks can differ, so at least ${need} are identical and some table must find the pair.`
        : `Since ${d} > k = ${k}, the index does not promise to find this pair${nFound ? ' (a table happens to, then the Hamming check rejects it)' : ''}.`);
  } else {
    $('#pigeon').textContent = 'Enter two texts with fingerprints to see which blocks match.';
  }
  const n = 2 ** logN;
  let html = '<tr><th>table</th><th>keyed on blocks</th><th class="r">key bits</th><th class="r">candidates per probe ≈ 2^(log₂N − key bits)</th><th>finds A–B?</th></tr>';
  stats.tableBlocks.slice(0, MAX_TABLE_ROWS).forEach((t, i) => {
    const cand = n * stats.expectedCandidatesPerTable[i];
    html += `<tr class="${found[i] ? 'found' : ''}"><td>${i + 1}</td><td>${t.map((j) => `#${j + 1}`).join(' ')}</td><td class="r">${stats.keyBits[i]}</td>`
      + `<td class="r">${cand >= 1 ? Math.round(cand).toLocaleString() : cand.toPrecision(2)}</td><td>${fps ? (found[i] ? 'yes' : 'no') : ''}</td></tr>`;
  });
  $('#tables').innerHTML = html;
  const total = n * stats.expectedCandidates;
  $('#tables-note').textContent = `${stats.tables > MAX_TABLE_ROWS ? `Showing ${MAX_TABLE_ROWS} of ${stats.tables.toLocaleString()} tables. ` : ''}`
    + `With N = 2^${logN} ≈ ${n.toExponential(2)} fingerprints, one query probes ${stats.tables.toLocaleString()} tables and checks about ${Math.round(total).toLocaleString()} candidates in all, `
    + `instead of comparing with all N. The price: every fingerprint is stored once per table (${stats.tables.toLocaleString()}×).`;
}

export function mount() {
  $('#layout').addEventListener('change', render);
  $('#logn').addEventListener('input', (e) => {
    logN = Number(e.target.value);
    $('#logn-out').value = String(logN);
    render();
  });
  model.on('k', () => {
    fillLayouts();
    render();
  });
  model.on('texts', render);
  fillLayouts();
}
