// The checker's results: one row per reference with a copied passage (most covered
// first), and for the chosen one both texts side by side with the copied spans marked,
// numbered alike on both sides, each with its similarity; activating a mark brings its
// counterpart into view.
import { $, esc, plural } from '../dom.js';

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

/** A similarity (0 to 1) as a whole percentage, never rounded up to 100 %. */
export const percent = (x) => `${x < 1 ? Math.min(99, Math.round(100 * x)) : 100} %`;

function highlighted(text, marks, matches, side) {
  let html = '', pos = 0;
  marks.forEach((m, j) => {
    html += esc(text.slice(pos, m.s));
    const label = m.ids.map((i) => `${i + 1}: ${percent(matches[i].similarity)}`).join(', ');
    html += `<mark class="m" id="${side}-${j}" data-ids="${m.ids.join(',')}" tabindex="0" role="button" aria-label="Copied passage ${label}; press Enter to show its counterpart">${esc(text.slice(m.s, m.e))}<sup class="sim">${label}</sup></mark>`;
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
  $('#sub-view').innerHTML = highlighted(shown.submission, marksFor(r.matches, 'submissionSpan'), r.matches, 's');
  $('#ref-view').innerHTML = highlighted(ref.text, marksFor(r.matches, 'referenceSpan'), r.matches, 'r');
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

/** Shows a PassageChecker report for `submission` against `refs` ([{ name, text }]):
 * the report lists only the references with a copied span, most covered first. */
export function showResults(report, submission, refs, ms) {
  shown = { report, submission, refs };
  const rows = report.references.map((r) => ({ ...r, name: refs[r.doc].name, best: Math.max(...r.matches.map((m) => m.similarity)) }));
  $('#result-summary').innerHTML = `Submission: ${plural(report.passages.length, 'sentence')}. `
    + `<b>${rows.length}</b> of ${refs.length} references share passages with it; `
    + `<b>${(100 * report.coverage).toFixed(0)} %</b> of the submission is copied from them. Done in ${ms.toFixed(0)} ms.`
    + (rows.length > MAX_ROWS ? ` Showing the top ${MAX_ROWS}.` : '');
  let html = rows.length ? '<tr><th>reference</th><th class="r">copied spans</th><th class="r">highest similarity</th><th class="r">coverage (share of submission)</th><th></th></tr>' : '';
  for (const r of rows.slice(0, MAX_ROWS)) {
    html += `<tr data-doc="${r.doc}" class="${selected === r.doc ? 'sel' : ''}"><td>${esc(r.name)}</td><td class="r matches">${r.matches.length}</td>`
      + `<td class="r">${percent(r.best)}</td><td class="r"><span class="meter"><i style="width:${(100 * r.coverage).toFixed(1)}%"></i></span>${(100 * r.coverage).toFixed(0)} %</td>`
      + `<td><button type="button" data-show="${r.doc}" aria-label="Show the passages copied from ${esc(r.name)}">Show</button></td></tr>`;
  }
  $('#results').innerHTML = html;
  if (rows.length) showDetail(rows.some((r) => r.doc === selected) ? selected : rows[0].doc);
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
