// The checker's results: one row per reference (most matching passages first), and for
// the chosen one both texts side by side with the shared passages marked; activating a
// mark brings its counterpart into view.
import { $, esc } from '../dom.js';

const MAX_ROWS = 50;
export const PROMPT = 'Add a submission and at least one reference, then press Check.';

/** The run shown: { report, submission, refs }, and the reference whose passages are shown. */
let shown = null;
let selected = null;

/** Marks for one side: overlapping spans merged, each with the numbers of the matches it carries. */
function marksFor(matches, key) {
  const spans = matches.map((m, i) => ({ s: m[key].start, e: m[key].end, ids: [i] })).sort((a, b) => a.s - b.s || a.e - b.e);
  const out = [];
  for (const sp of spans) {
    const last = out[out.length - 1];
    if (last && sp.s < last.e) {
      last.e = Math.max(last.e, sp.e);
      last.ids.push(...sp.ids);
    } else {
      out.push({ ...sp, ids: [...sp.ids] });
    }
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
  selected = doc;
  for (const tr of document.querySelectorAll('#results tr[data-doc]')) tr.classList.toggle('sel', Number(tr.dataset.doc) === doc);
  const r = shown.report.references.find((x) => x.doc === doc);
  const ref = shown.refs[doc];
  $('#detail').hidden = false;
  $('#ref-title').textContent = `Reference: ${ref.name}`;
  $('#sub-view').innerHTML = highlighted(shown.submission, marksFor(r.matches, 'submissionSpan'), 's');
  $('#ref-view').innerHTML = highlighted(ref.text, marksFor(r.matches, 'referenceSpan'), 'r');
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
  setTimeout(() => {
    target.classList.remove('flash');
    mark.classList.remove('flash');
  }, 1600);
}

/** Shows a PassageChecker report for `submission` against `refs` ([{ name, text }]). */
export function showResults(report, submission, refs, ms) {
  shown = { report, submission, refs };
  const rows = report.references.map((r) => ({ ...r, name: refs[r.doc].name }));
  rows.sort((a, b) => b.matches.length - a.matches.length || (b.similarity ?? -1) - (a.similarity ?? -1) || a.doc - b.doc);
  const withMatches = rows.filter((r) => r.matches.length).length;
  const nPass = report.passages.filter((p) => p.fingerprint).length;
  $('#result-summary').innerHTML = `Submission: ${report.passages.length} passages (${nPass} long enough to fingerprint). `
    + `<b>${withMatches}</b> of ${refs.length} references share passages with it. Done in ${ms.toFixed(0)} ms.`
    + (rows.length > MAX_ROWS ? ` Showing the top ${MAX_ROWS}.` : '');
  let html = '<tr><th>reference</th><th class="r">whole-text similarity</th><th class="r">matching passages</th><th class="r">share of submission</th><th></th></tr>';
  for (const r of rows.slice(0, MAX_ROWS)) {
    const sim = r.similarity == null ? '—' : `${(100 * r.similarity).toFixed(1)} % (d=${r.distance})`;
    html += `<tr data-doc="${r.doc}" class="${selected === r.doc ? 'sel' : ''}"><td>${esc(r.name)}</td><td class="r">${sim}</td>`
      + `<td class="r matches">${r.matches.length}</td><td class="r"><span class="meter"><i style="width:${(100 * r.coverage).toFixed(1)}%"></i></span>${(100 * r.coverage).toFixed(0)} %</td>`
      + `<td><button type="button" data-show="${r.doc}" ${r.matches.length ? '' : 'disabled'} aria-label="Show the passages shared with ${esc(r.name)}">Show</button></td></tr>`;
  }
  $('#results').innerHTML = html;
  const best = rows.find((r) => r.matches.length);
  if (best) showDetail(best.doc);
  else hideDetail();
}

/** A message in place of results (an error, or a prompt for input). */
export function showMessage(text) {
  $('#result-summary').textContent = text;
}

function hideDetail() {
  $('#detail').hidden = true;
  selected = null;
}

export function clearResults() {
  shown = null;
  $('#results').innerHTML = '';
  hideDetail();
  showMessage(PROMPT);
}

export function mount() {
  $('#results').addEventListener('click', (e) => {
    const d = e.target.closest('button[data-show]')?.dataset.show;
    if (d !== undefined) showDetail(Number(d));
  });
  for (const v of [$('#sub-view'), $('#ref-view')]) {
    v.addEventListener('click', (e) => {
      const m = e.target.closest('mark.m');
      if (m) jumpToCounterpart(m);
    });
    v.addEventListener('keydown', (e) => {
      const m = e.target.closest?.('mark.m');
      if (m && (e.key === 'Enter' || e.key === ' ')) {
        e.preventDefault();
        jumpToCounterpart(m);
      }
    });
  }
}
