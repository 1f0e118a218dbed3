// The demo page: the teaching view (every step of SimHash from explain()) and the
// passage checker (a module worker running PassageChecker). No bundler, no CDN.
import { SimHasher, SimHashIndex, simhashBits, hamming, similarity, toHex, huffmanTable, hashVersion } from './pkg/index.js';
import { PAIRS, WORKED, twoOfTwenty, stress } from './examples.js';

const $ = (sel) => document.querySelector(sel);
const esc = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const minus = (x) => (x < 0 ? `−${fmt(-x)}` : `${x > 0 ? '+' : ''}${fmt(x)}`);
const fmt = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(2).replace(/0+$/, '').replace(/\.$/, ''));
const signed = (x) => (x < 0 ? `−${fmt(-x)}` : fmt(x));
const debounce = (fn, ms) => { let t; return (...a) => { clearTimeout(t); t = setTimeout(() => fn(...a), ms); }; };
const bit = (fp, i) => Number((fp >> BigInt(i)) & 1n);
const MAX_ROWS = 40;

const state = { which: 'a', k: 3, ngram: 6, hasher: null, cache: { a: null, b: null }, layout: null, logN: 34 };

function setStatus(msg, error = false) {
  const s = $('#status');
  s.textContent = msg;
  s.classList.toggle('error', error);
}
window.addEventListener('error', (e) => setStatus(`Error: ${e.message}`, true));
window.addEventListener('unhandledrejection', (e) => setStatus(`Error: ${e.reason?.message ?? e.reason}`, true));

// ------------------------------------------------------------------------- tabs
const tabs = [$('#tab-teach'), $('#tab-check')];
function selectTab(tab, focus = false) {
  for (const t of tabs) {
    const on = t === tab;
    t.setAttribute('aria-selected', String(on));
    t.tabIndex = on ? 0 : -1;
    document.getElementById(t.getAttribute('aria-controls')).hidden = !on;
  }
  if (focus) tab.focus();
  history.replaceState(null, '', tab.id === 'tab-check' ? '#check' : '#');
}
tabs.forEach((t, i) => {
  t.addEventListener('click', () => selectTab(t));
  t.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      e.preventDefault();
      selectTab(tabs[(i + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length], true);
    }
  });
});

// ------------------------------------------------------------------------- teaching view
function explain(which) {
  const text = $(`#text-${which}`).value;
  const c = state.cache[which];
  if (c && c.text === text && c.ngram === state.ngram) return c;
  let result;
  try {
    result = { text, ngram: state.ngram, e: state.hasher.explain(text) };
  } catch (err) {
    result = { text, ngram: state.ngram, error: err.code === 'EmptyText' ? 'The text is empty after normalisation.' : err.message };
  }
  state.cache[which] = result;
  return result;
}

function bitHeader() {
  let h = '<tr class="colno"><th></th>';
  for (let c = 0; c < 64; c++) { const i = 63 - c; h += `<td>${i % 8 === 7 ? i : ''}</td>`; }
  return h + '</tr>';
}

function renderSteps() {
  const which = state.which;
  const r = explain(which);
  const label = which.toUpperCase();
  if (r.error) {
    $('#normalized').textContent = `Text ${label}: ${r.error}`;
    for (const id of ['#tokens', '#rows', '#sign']) $(id).innerHTML = '';
    $('#sums').innerHTML = '';
    $('#tok-summary').textContent = '';
    $('#rows-note').textContent = '';
    return;
  }
  const e = r.e;
  const norm = e.normalized;
  $('#normalized').textContent = norm.length > 3000 ? `${norm.slice(0, 3000)} … (${norm.length.toLocaleString()} characters in all)` : norm;

  // Step 2: distinct features, in order of first occurrence.
  const distinct = e.tokens.filter((t) => t.first);
  $('#tok-summary').textContent = `Text ${label}: ${e.tokens.length.toLocaleString()} feature occurrences, ${distinct.length.toLocaleString()} distinct features.`;
  let html = '';
  for (const t of distinct.slice(0, 200)) {
    html += `<li><code>${esc(t.text)}</code><span class="w">${t.tf > 1 ? `×${t.tf} ` : ''}w=${fmt(t.weight)}</span></li>`;
  }
  if (distinct.length > 200) html += `<li>… and ${(distinct.length - 200).toLocaleString()} more</li>`;
  $('#tokens').innerHTML = html;

  // Step 3: hash rows, first MAX_ROWS distinct features.
  html = bitHeader();
  for (const t of distinct.slice(0, MAX_ROWS)) {
    html += `<tr><th class="tok" title="${esc(t.text)} — weight ${fmt(t.weight)}, hash ${toHex(t.hash)}"><code>${esc(t.text)}</code> ${fmt(t.weight)}</th>`;
    for (let c = 0; c < 64; c++) {
      const on = bit(t.hash, 63 - c);
      html += `<td class="${on ? 'p' : 'n'}" title="bit ${63 - c}: ${on ? '+' : '−'}${fmt(t.weight)}">${on ? '+' : '−'}</td>`;
    }
    html += '</tr>';
  }
  $('#rows').innerHTML = html;
  $('#rows-note').textContent = distinct.length > MAX_ROWS
    ? `Showing the first ${MAX_ROWS} of ${distinct.length.toLocaleString()} distinct features; all of them go into the sums below. Hover a cell for its ±w.`
    : 'Every distinct feature is shown. Hover a cell for its ±w.';

  // Step 4: the 64 sums as bars.
  const W = 14, H = 170, mid = 85, left = 4;
  const max = Math.max(1e-9, ...e.sums.map(Math.abs));
  let svg = `<line class="axis" x1="0" x2="${left + 64 * W}" y1="${mid}" y2="${mid}"/>`;
  for (let c = 0; c < 64; c++) {
    const i = 63 - c, s = e.sums[i], h = (Math.abs(s) / max) * (mid - 14);
    const x = left + c * W + 2, y = s >= 0 ? mid - h : mid;
    svg += `<rect class="${s > 0 ? 'pos' : 'neg'}" x="${x}" y="${y.toFixed(1)}" width="${W - 4}" height="${Math.max(h, 0.5).toFixed(1)}"><title>bit ${i}: sum ${signed(s)}</title></rect>`;
    if (i % 8 === 7) svg += `<text x="${x}" y="${H - 2}">${i}</text>`;
  }
  const sums = $('#sums');
  sums.setAttribute('viewBox', `0 0 ${left + 64 * W + 4} ${H}`);
  sums.setAttribute('width', String(left + 64 * W + 4));
  sums.setAttribute('height', String(H));
  sums.innerHTML = svg;

  // Step 5: sign.
  html = bitHeader() + '<tr><th>sum</th>';
  for (let c = 0; c < 64; c++) { const s = e.sums[63 - c]; html += `<td class="${s > 0 ? 'p' : 'n'}" title="bit ${63 - c}: ${signed(s)}">${s > 0 ? '+' : s < 0 ? '−' : '0'}</td>`; }
  html += '</tr><tr><th>bit</th>';
  for (let c = 0; c < 64; c++) { const b = bit(e.fingerprint, 63 - c); html += `<td class="b${b}">${b}</td>`; }
  html += `</tr><tr><th>hex</th><td colspan="64" class="hex" id="fp-steps">${toHex(e.fingerprint)}</td></tr>`;
  $('#sign').innerHTML = html;
}

function renderCompare() {
  const a = explain('a'), b = explain('b');
  const verdict = $('#verdict');
  if (a.error || b.error) {
    $('#xor').innerHTML = `<tr><td class="note">${esc(a.error ? `Text A: ${a.error}` : `Text B: ${b.error}`)}</td></tr>`;
    verdict.textContent = 'No fingerprint to compare.';
    verdict.className = 'verdict';
    state.fps = null;
    return;
  }
  const fa = a.e.fingerprint, fb = b.e.fingerprint, x = fa ^ fb;
  let html = bitHeader();
  for (const [name, fp, id] of [['A', fa, 'fp-a'], ['B', fb, 'fp-b']]) {
    html += `<tr><th>${name} <span class="hex" id="${id}">${toHex(fp)}</span></th>`;
    for (let c = 0; c < 64; c++) { const v = bit(fp, 63 - c); html += `<td class="b${v}">${v}</td>`; }
    html += '</tr>';
  }
  html += `<tr><th>A XOR B <span class="hex">${toHex(x)}</span></th>`;
  for (let c = 0; c < 64; c++) { const v = bit(x, 63 - c); html += `<td class="x${v}" ${v ? `title="bit ${63 - c} differs"` : ''}>${v}</td>`; }
  $('#xor').innerHTML = html + '</tr>';
  const d = hamming(fa, fb), sim = similarity(fa, fb);
  const near = d <= state.k;
  verdict.className = `verdict ${near ? 'yes' : 'no'}`;
  verdict.dataset.distance = String(d);
  verdict.textContent = `Hamming distance ${d} (${d} of 64 bits differ), similarity ${(100 * sim).toFixed(1)} % → ${near ? `near-duplicates at k = ${state.k}` : `not near-duplicates at k = ${state.k}`}`;
  state.fps = [fa, fb];
}

function renderWorked() {
  const r = simhashBits(WORKED.map(([, weight, bits]) => ({ bits, weight })));
  let html = '<tr><th>feature</th><th>w</th><th>hash</th>';
  for (let j = 0; j < 6; j++) html += `<th style="text-align:center">bit ${j + 1}</th>`;
  html += '</tr>';
  for (const [f, w, bits] of WORKED) {
    html += `<tr><th>${f}</th><th>${w}</th><th><code>${bits}</code></th>`;
    for (const ch of bits) html += `<td class="${ch === '1' ? 'p' : 'n'}">${ch === '1' ? '+' : '−'}${w}</td>`;
    html += '</tr>';
  }
  html += `<tr class="total" id="worked-sums" data-sums="${r.sums.join(',')}"><th colspan="3">column sum</th>`;
  for (const s of r.sums) html += `<td class="sum">${signed(s)}</td>`;
  html += `</tr><tr class="total" id="worked-bits" data-bits="${r.bits}"><th colspan="3">sign → fingerprint <code>${r.bits}</code></th>`;
  for (const ch of r.bits) html += `<td class="b${ch}">${ch}</td>`;
  $('#worked-table').innerHTML = html + '</tr>';
}

// --- the index panel
function evenWidths(b) {
  const base = Math.floor(64 / b), extra = 64 % b;
  return Array.from({ length: b }, (_, i) => base + (i < extra ? 1 : 0));
}
function binom(n, r) { let c = 1; for (let i = 0; i < r; i++) c = (c * (n - i)) / (i + 1); return Math.round(c); }

function layoutChoices(k) {
  const out = [];
  for (let b = k + 1; b <= Math.min(64, k + 3); b++) {
    const w = evenWidths(b);
    out.push({ value: w.join(','), label: `${b} blocks (${[...new Set(w)].join('/')} bits) → ${binom(b, k).toLocaleString()} tables` });
  }
  if (k === 3) out.splice(1, 0, { value: '16,12,12,12,12', label: '5 blocks 16,12,12,12,12 → 10 tables (the paper’s)' });
  return out;
}

function fillLayouts() {
  const sel = $('#layout');
  const prev = sel.value;
  const choices = layoutChoices(state.k);
  sel.innerHTML = choices.map((c) => `<option value="${c.value}">${esc(c.label)}</option>`).join('');
  if (choices.some((c) => c.value === prev)) sel.value = prev;
}

function renderIndex() {
  const widths = $('#layout').value.split(',').map(Number);
  let stats;
  const ix = new SimHashIndex({ k: state.k, layout: widths });
  try { stats = ix.stats(); } finally { ix.free(); }
  const fps = state.fps;
  // Block j covers bits [hi, lo], block 0 the most significant.
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
      <span class="st">${b.same === null ? '' : b.same ? '=' : '≠'}</span>#${b.j + 1} · ${b.w}b</div>`).join('');
  const nb = blocks.length, need = nb - state.k;
  const sameCount = blocks.filter((b) => b.same).length;
  const found = stats.tableBlocks.map((t) => fps !== null && t.every((j) => blocks[j].same));
  const nFound = found.filter(Boolean).length;
  if (fps) {
    const d = hamming(fps[0], fps[1]);
    $('#pigeon').innerHTML = `A and B differ in <b>${d}</b> bits; <b>${sameCount}</b> of ${nb} blocks are identical (=). `
      + `A table finds the pair when all of its ${need} block${need === 1 ? ' is' : 's are'} identical: <b>${nFound}</b> of ${stats.tables.toLocaleString()} tables do. `
      + (d <= state.k ? `Since ${d} ≤ k = ${state.k}, at most ${d} blocks can differ, so at least ${need} are identical and some table must find the pair.`
        : `Since ${d} > k = ${state.k}, the index does not promise to find this pair${nFound ? ' (a table happens to, then the Hamming check rejects it)' : ''}.`);
  } else {
    $('#pigeon').textContent = 'Enter two texts with fingerprints to see which blocks match.';
  }
  const logN = state.logN;
  let total = 0;
  let html = '<tr><th>table</th><th>keyed on blocks</th><th class="r">key bits</th><th class="r">candidates per probe ≈ 2^(log₂N − key bits)</th><th>finds A–B?</th></tr>';
  stats.tableBlocks.forEach((t, i) => {
    const kb = stats.keyBits[i];
    const cand = 2 ** (logN - kb);
    total += cand;
    if (i < 30) {
      html += `<tr class="${found[i] ? 'found' : ''}"><td>${i + 1}</td><td>${t.map((j) => `#${j + 1}`).join(' ')}</td><td class="r">${kb}</td>`
        + `<td class="r">${cand >= 1 ? Math.round(cand).toLocaleString() : cand.toPrecision(2)}</td><td>${fps ? (found[i] ? 'yes' : 'no') : ''}</td></tr>`;
    }
  });
  $('#tables').innerHTML = html;
  $('#tables-note').textContent = `${stats.tables > 30 ? `Showing 30 of ${stats.tables.toLocaleString()} tables. ` : ''}`
    + `With N = 2^${logN} ≈ ${(2 ** logN).toExponential(2)} fingerprints, one query probes ${stats.tables.toLocaleString()} tables and checks about ${Math.round(total).toLocaleString()} candidates in all, `
    + `instead of comparing with all N. The price: every fingerprint is stored once per table (${stats.tables.toLocaleString()}×).`;
}

// --- Huffman panel
function randomFingerprints(n) {
  const out = new BigUint64Array(n);
  let s = 0x9e3779b97f4a7c15n;
  const M = (1n << 64n) - 1n;
  for (let i = 0; i < n; i++) {
    s = (s + 0x9e3779b97f4a7c15n) & M; // SplitMix64
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M;
    out[i] = z ^ (z >> 31n);
  }
  return out;
}

function renderHuffman() {
  const n = Number($('#huff-n').value);
  const rows = huffmanTable(randomFingerprints(n)).slice().sort((a, b) => b.count - a.count);
  const total = rows.reduce((s, r) => s + r.count, 0) || 1;
  const avg = rows.reduce((s, r) => s + r.count * r.code.length, 0) / total;
  const avgN = rows.reduce((s, r) => s + r.count * (r.symbol < 64 ? r.symbol : 0), 0) / total;
  $('#huff-summary').innerHTML = `${n.toLocaleString()} sorted random fingerprints: h(n) takes <b>${avg.toFixed(2)}</b> bits on average with the Huffman code (6 bits without), `
    + `and about ${avgN.toFixed(1)} bits follow it: roughly ${(avg + avgN).toFixed(1)} bits per fingerprint instead of 64.`;
  let html = '<tr><th class="r">n (highest differing bit)</th><th class="r">count</th><th class="r">share</th><th>Huffman code</th><th class="r">bits</th></tr>';
  for (const r of rows) {
    html += `<tr><td class="r">${r.symbol === 64 ? 'repeat' : r.symbol}</td><td class="r">${r.count.toLocaleString()}</td><td class="r">${(100 * r.count / total).toFixed(1)} %</td><td><code>${r.code}</code></td><td class="r">${r.code.length}</td></tr>`;
  }
  $('#huff').innerHTML = html;
}

// --- precision / recall plot
let quality = null;
async function loadQuality() {
  try {
    const res = await fetch('data/quality.json');
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    quality = await res.json();
  } catch (err) {
    $('#pr-note').textContent = `data/quality.json could not be loaded (${err.message}); run npm run quality.`;
    return;
  }
  renderPR();
}

function renderPR() {
  if (!quality) return;
  const rows = quality.rows;
  const W = 640, H = 270, L = 44, R = 110, T = 12, B = 36;
  const maxK = rows[rows.length - 1].k;
  const x = (k) => L + (k / maxK) * (W - L - R);
  const y = (v) => T + (1 - v) * (H - T - B);
  let svg = '';
  for (let v = 0; v <= 1.0001; v += 0.25) svg += `<line class="grid" x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}"/><text x="${L - 6}" y="${y(v) + 4}" text-anchor="end">${v.toFixed(2)}</text>`;
  for (const r of rows) svg += `<text x="${x(r.k)}" y="${H - B + 16}" text-anchor="middle">${r.k}</text>`;
  svg += `<text x="${(L + W - R) / 2}" y="${H - 4}" text-anchor="middle">k (bits)</text>`;
  svg += `<line class="axis" x1="${L}" x2="${L}" y1="${T}" y2="${H - B}"/><line class="axis" x1="${L}" x2="${W - R}" y1="${H - B}" y2="${H - B}"/>`;
  const series = [['p', 'lp', 'precision'], ['r', 'lr', 'recall'], ['f1', 'lf', 'F1']];
  series.forEach(([key, cls, name], i) => {
    svg += `<path class="${cls}" d="${rows.map((r, j) => `${j ? 'L' : 'M'}${x(r.k).toFixed(1)},${y(r[key]).toFixed(1)}`).join('')}"/>`;
    for (const r of rows) svg += `<circle class="${cls}" cx="${x(r.k)}" cy="${y(r[key])}" r="2.6"><title>k=${r.k}: ${name} ${r[key].toFixed(3)}</title></circle>`;
    svg += `<line class="${cls}" x1="${W - R + 14}" x2="${W - R + 34}" y1="${T + 14 + i * 20}" y2="${T + 14 + i * 20}" stroke-width="3"/><text x="${W - R + 40}" y="${T + 18 + i * 20}">${name}</text>`;
  });
  if (state.k <= maxK) svg += `<line class="kline" x1="${x(state.k)}" x2="${x(state.k)}" y1="${T}" y2="${H - B}"/>`;
  const pr = $('#pr');
  pr.setAttribute('viewBox', `0 0 ${W} ${H}`);
  pr.setAttribute('width', String(W));
  pr.setAttribute('height', String(H));
  pr.innerHTML = svg;
  const row = rows.find((r) => r.k === state.k);
  $('#pr-note').textContent = (row
    ? `At k = ${state.k}: precision ${row.p.toFixed(3)}, recall ${row.r.toFixed(3)}, F1 ${row.f1.toFixed(3)}. `
    : `k = ${state.k} is beyond the measured range (0–${maxK}). `) + `Setting: ${quality.setting}; truth: ${quality.truth}.`;
}

function updateTeach() {
  renderSteps();
  renderCompare();
  renderIndex();
}
const updateTeachSoon = debounce(updateTeach, 150);

function loadExample(name) {
  const [a, b] = PAIRS[name];
  $('#text-a').value = a;
  $('#text-b').value = b;
  updateLengths();
  updateTeach();
}
function updateLengths() {
  for (const w of ['a', 'b']) $(`#len-${w}`).textContent = `(${$(`#text-${w}`).value.length.toLocaleString()} characters)`;
}

// ------------------------------------------------------------------------- plagiarism view
const check = { references: [], worker: null, job: 0, report: null, submission: '', refTexts: [], selected: null };

function renderRefList() {
  const n = check.references.length;
  const bytes = check.references.reduce((s, r) => s + r.text.length, 0);
  $('#ref-summary').textContent = n ? `${n} reference${n > 1 ? 's' : ''}, ${(bytes / 1000).toFixed(0)} k characters.` : 'No references yet.';
  const shown = check.references.slice(0, 100);
  $('#ref-list').innerHTML = shown.map((r, i) => `<li><span title="${esc(r.name)}">${esc(r.name)} <small>(${r.text.length.toLocaleString()} chars)</small></span>`
    + `<button type="button" data-remove="${i}" aria-label="Remove ${esc(r.name)}">✕</button></li>`).join('')
    + (n > 100 ? `<li>… and ${n - 100} more</li>` : '');
}

function addReference(name, text) {
  if (!text.trim()) return;
  check.references.push({ name, text });
  renderRefList();
}

async function readFiles(files) {
  return Promise.all([...files].map(async (f) => ({ name: f.name, text: await f.text() })));
}

function options() {
  const split = $('#split').value;
  const o = { split, k: Number($('#pk').value), minChars: Math.max(0, Number($('#min-chars').value) || 0) };
  if (split === 'sentences') {
    o.window = Math.max(1, Number($('#window').value) || 1);
    o.step = Math.max(1, Number($('#step').value) || 1);
  }
  return o;
}

/** The worker, once its module (and the wasm in it) is ready: messages sent before then
 * could be lost while its top-level await runs. */
function ensureWorker() {
  if (check.workerReady) return check.workerReady;
  check.workerReady = new Promise((resolve, reject) => {
    const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    w.onmessage = (e) => {
      if (e.data.type === 'ready') resolve(w);
      else onWorkerMessage(e.data);
    };
    w.onerror = (e) => {
      e.preventDefault();
      check.workerReady = null;
      showProgress(false);
      setStatus(`Worker error: ${e.message ?? 'the worker could not start'}`, true);
      reject(new Error('worker failed'));
    };
  });
  return check.workerReady;
}

function showProgress(on, label = 'Working…', value = 0) {
  $('#progress-row').hidden = !on;
  $('#progress-label').textContent = label;
  $('#progress').value = value;
  $('#run-check').disabled = on;
}

function runCheck() {
  const submission = $('#submission').value;
  if (!submission.trim() || check.references.length === 0) {
    $('#result-summary').textContent = 'Add a submission and at least one reference, then press Check.';
    return;
  }
  const id = ++check.job;
  check.pending = { id, submission, refs: check.references.slice() };
  showProgress(true, `Indexing ${check.references.length} reference${check.references.length > 1 ? 's' : ''}…`, 0);
  ensureWorker().then((w) => w.postMessage({ id, options: options(), submission, references: check.pending.refs }), () => {});
}

function onWorkerMessage(m) {
  if (m.type === 'ready' || m.id !== check.job) return;
  if (m.type === 'progress') {
    $('#progress').value = m.done / m.total;
    $('#progress-label').textContent = m.done < m.total ? `Indexing references: ${m.done} of ${m.total - 1}` : 'Checking the submission…';
  } else if (m.type === 'error') {
    showProgress(false);
    $('#result-summary').textContent = m.message;
  } else if (m.type === 'result') {
    showProgress(false);
    check.report = m.report;
    check.submission = check.pending.submission;
    check.refs = check.pending.refs;
    renderResults(m.ms);
  }
}

function renderResults(ms) {
  const rep = check.report;
  const rows = rep.references.map((r) => ({ ...r, name: check.refs[r.doc].name }));
  rows.sort((a, b) => b.matches.length - a.matches.length || (b.similarity ?? -1) - (a.similarity ?? -1) || a.doc - b.doc);
  const withMatches = rows.filter((r) => r.matches.length).length;
  const nPass = rep.passages.filter((p) => p.fingerprint).length;
  $('#result-summary').innerHTML = `Submission: ${rep.passages.length} passages (${nPass} long enough to fingerprint). `
    + `<b>${withMatches}</b> of ${check.refs.length} references share passages with it. Done in ${ms.toFixed(0)} ms.`;
  const shown = rows.slice(0, 50);
  let html = '<tr><th>reference</th><th class="r">whole-text similarity</th><th class="r">matching passages</th><th class="r">share of submission</th><th></th></tr>';
  for (const r of shown) {
    const sim = r.similarity == null ? '—' : `${(100 * r.similarity).toFixed(1)} % (d=${r.distance})`;
    html += `<tr data-doc="${r.doc}" class="${check.selected === r.doc ? 'sel' : ''}"><td>${esc(r.name)}</td><td class="r">${sim}</td>`
      + `<td class="r matches">${r.matches.length}</td><td class="r"><span class="meter"><i style="width:${(100 * r.coverage).toFixed(1)}%"></i></span>${(100 * r.coverage).toFixed(0)} %</td>`
      + `<td><button type="button" data-show="${r.doc}" ${r.matches.length ? '' : 'disabled'} aria-label="Show the passages shared with ${esc(r.name)}">Show</button></td></tr>`;
  }
  $('#results').innerHTML = html;
  if (rows.length > 50) $('#result-summary').innerHTML += ` Showing the top 50.`;
  const best = rows.find((r) => r.matches.length);
  if (best) showDetail(best.doc); else { $('#detail').hidden = true; check.selected = null; }
}

/** Marks for one side: merged spans, each with the match numbers it carries. */
function marksFor(matches, key) {
  const spans = matches.map((m, i) => ({ s: m[key].start, e: m[key].end, ids: [i] })).sort((a, b) => a.s - b.s || a.e - b.e);
  const out = [];
  for (const sp of spans) {
    const last = out[out.length - 1];
    if (last && sp.s < last.e) { last.e = Math.max(last.e, sp.e); last.ids.push(...sp.ids); } else out.push({ ...sp, ids: [...sp.ids] });
  }
  return out;
}

function highlighted(text, marks, side) {
  let html = '', pos = 0;
  marks.forEach((m, j) => {
    html += esc(text.slice(pos, m.s));
    const label = m.ids.map((i) => i + 1).join(',');
    html += `<mark class="m" id="${side}-${j}" data-ids="${m.ids.join(',')}" tabindex="0" role="button" aria-label="Matching passage ${label}; press Enter to show its counterpart">${esc(text.slice(m.s, m.e))}<sup>${label}</sup></mark>`;
    pos = m.e;
  });
  return html + esc(text.slice(pos));
}

function showDetail(doc) {
  check.selected = doc;
  for (const tr of document.querySelectorAll('#results tr[data-doc]')) tr.classList.toggle('sel', Number(tr.dataset.doc) === doc);
  const r = check.report.references.find((x) => x.doc === doc);
  $('#detail').hidden = false;
  $('#ref-title').textContent = `Reference: ${check.refs[doc].name}`;
  $('#sub-view').innerHTML = highlighted(check.submission, marksFor(r.matches, 'submissionSpan'), 's');
  $('#ref-view').innerHTML = highlighted(check.refs[doc].text, marksFor(r.matches, 'referenceSpan'), 'r');
  // Start each text at its first highlighted passage.
  for (const v of [$('#sub-view'), $('#ref-view')]) {
    const m = v.querySelector('mark.m');
    if (m) v.scrollTop += m.getBoundingClientRect().top - v.getBoundingClientRect().top - 24;
  }
}

function jumpToCounterpart(mark) {
  const side = mark.id.startsWith('s-') ? 'r' : 's';
  const first = Number(mark.dataset.ids.split(',')[0]);
  const view = $(side === 's' ? '#sub-view' : '#ref-view');
  const target = [...view.querySelectorAll('mark.m')].find((m) => m.dataset.ids.split(',').map(Number).includes(first));
  if (!target) return;
  // Scroll the text box (not the whole page) to the counterpart, then the box into view.
  view.scrollTop += target.getBoundingClientRect().top - view.getBoundingClientRect().top - view.clientHeight / 3;
  view.scrollIntoView({ block: 'nearest' });
  for (const m of document.querySelectorAll('mark.flash')) m.classList.remove('flash');
  target.classList.add('flash');
  mark.classList.add('flash');
  target.focus({ preventScroll: true });
  setTimeout(() => { target.classList.remove('flash'); mark.classList.remove('flash'); }, 1600);
}

function setupDrop(el, onFiles) {
  el.addEventListener('dragover', (e) => { e.preventDefault(); el.classList.add('dragover'); });
  el.addEventListener('dragleave', () => el.classList.remove('dragover'));
  el.addEventListener('drop', async (e) => {
    el.classList.remove('dragover');
    if (!e.dataTransfer?.files?.length) return;
    e.preventDefault();
    onFiles(await readFiles(e.dataTransfer.files));
  });
}

function loadCase({ submission, references }) {
  $('#submission').value = submission;
  check.references = references.slice();
  renderRefList();
  runCheck();
}

// ------------------------------------------------------------------------- wiring
function init() {
  state.hasher = new SimHasher({ ngram: state.ngram });
  $('#example').addEventListener('change', (e) => loadExample(e.target.value));
  $('#ngram').addEventListener('change', (e) => {
    state.ngram = Number(e.target.value);
    state.hasher.free();
    state.hasher = new SimHasher({ ngram: state.ngram });
    for (const el of document.querySelectorAll('.n-out')) el.textContent = String(state.ngram);
    updateTeach();
  });
  for (const r of document.querySelectorAll('input[name="which"]')) r.addEventListener('change', (e) => { state.which = e.target.value; renderSteps(); });
  for (const w of ['a', 'b']) $(`#text-${w}`).addEventListener('input', () => { updateLengths(); updateTeachSoon(); });
  $('#k').addEventListener('input', (e) => {
    state.k = Number(e.target.value);
    $('#k-out').value = String(state.k);
    fillLayouts();
    renderCompare();
    renderIndex();
    renderPR();
  });
  $('#layout').addEventListener('change', renderIndex);
  $('#logn').addEventListener('input', (e) => { state.logN = Number(e.target.value); $('#logn-out').value = String(state.logN); renderIndex(); });
  $('#worked-toggle').addEventListener('change', (e) => { $('#worked').hidden = !e.target.checked; });
  $('#huff-n').addEventListener('change', renderHuffman);

  $('#ref-add').addEventListener('click', () => {
    const t = $('#ref-input').value;
    addReference(`pasted text ${check.references.length + 1}`, t);
    $('#ref-input').value = '';
  });
  $('#ref-files').addEventListener('change', async (e) => {
    for (const f of await readFiles(e.target.files)) addReference(f.name, f.text);
    e.target.value = '';
  });
  setupDrop($('#ref-input'), (files) => files.forEach((f) => addReference(f.name, f.text)));
  setupDrop($('#submission'), (files) => { $('#submission').value = files.map((f) => f.text).join('\n\n'); });
  $('#ref-list').addEventListener('click', (e) => {
    const i = e.target.closest('button[data-remove]')?.dataset.remove;
    if (i !== undefined) { check.references.splice(Number(i), 1); renderRefList(); }
  });
  $('#split').addEventListener('change', (e) => { const s = e.target.value === 'sentences'; $('#window').disabled = !s; $('#step').disabled = !s; });
  $('#pk').addEventListener('input', (e) => { $('#pk-out').value = e.target.value; });
  $('#run-check').addEventListener('click', runCheck);
  $('#ex-2of20').addEventListener('click', () => loadCase(twoOfTwenty()));
  $('#ex-stress').addEventListener('click', () => { showProgress(true, 'Generating 200 texts…'); setTimeout(() => loadCase(stress()), 20); });
  $('#clear-all').addEventListener('click', () => {
    $('#submission').value = '';
    check.references = [];
    renderRefList();
    $('#results').innerHTML = '';
    $('#detail').hidden = true;
    $('#result-summary').textContent = 'Add a submission and at least one reference, then press Check.';
  });
  $('#results').addEventListener('click', (e) => { const d = e.target.closest('button[data-show]')?.dataset.show; if (d !== undefined) showDetail(Number(d)); });
  for (const v of ['#sub-view', '#ref-view']) {
    $(v).addEventListener('click', (e) => { const m = e.target.closest('mark.m'); if (m) jumpToCounterpart(m); });
    $(v).addEventListener('keydown', (e) => {
      const m = e.target.closest?.('mark.m');
      if (m && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); jumpToCounterpart(m); }
    });
  }

  fillLayouts();
  renderWorked();
  loadExample('football');
  renderHuffman();
  loadQuality();
  if (location.hash === '#check') selectTab($('#tab-check'));
  setStatus(`Ready: simhash-wasm in WebAssembly (feature hash v${hashVersion()}). Everything runs on this page.`);
  document.body.dataset.ready = 'true';
}

init();
