// The checker's report, written for the teacher who reads it (on screen or on paper):
//   0. what was checked (the submission's file name, or "pasted text") and when;
//   1. a plain-language summary: how much of the submission is copied, from which
//      references, and how closely;
//   2. the references with a copied passage (most covered first), each numbered S1, S2, …;
//   3. every copied passage from every source, in the submission's order, beside the
//      source's wording, with the edited words marked (a word-level diff);
//   4. for one chosen source, both whole texts side by side with the passages marked,
//      numbered alike on both sides; activating a mark brings its counterpart into view.
// When the inputs change after a check, the report is marked out of date (markStale), in
// print too.
import { $, esc, plural } from '../dom.js';
import { wordDiff } from './diff.js';

const MAX_ROWS = 50;
export const PROMPT = 'Add a submission and at least one reference, then press Check.';

/** The run shown: { report, submission, refs, rows, passages }, and the source shown side by side. */
let shown = null;
let selected = null;

/** A similarity (0 to 1) as a whole percentage, never rounded up to 100 %. */
export const percent = (x) => `${x < 1 ? Math.min(99, Math.round(100 * x)) : 100} %`;

/** How closely a passage follows its source, in words: by the share of its words edited (wordDiff). */
export function closeness(d) {
  if (d.changed === 0) return d.moved ? 'word for word, some of it reordered' : 'word for word';
  const edited = Math.max(d.added, d.dropped) / Math.max(1, d.words);
  if (edited <= 0.15) return 'with small changes';
  if (edited <= 0.4) return 'with changes';
  return 'heavily reworded';
}

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

const MOVED_TITLE = 'moved: the same words, in another place of the passage on the other side';

/**
 * `text[s, e)` escaped, with the `edits` ranges inside it wrapped in <span class="cls">
 * (a moved run in <span class="mv">).
 */
function withEdits(text, s, e, edits, cls, title) {
  let html = '', pos = s;
  for (const r of edits) {
    if (r.e <= s || r.s >= e) continue;
    const a = Math.max(r.s, pos), b = Math.min(r.e, e);
    const [c, t] = r.moved ? ['mv', MOVED_TITLE] : [cls, title];
    html += esc(text.slice(pos, a)) + `<span class="${c}" title="${t}">${esc(text.slice(a, b))}</span>`;
    pos = b;
  }
  return html + esc(text.slice(pos, e));
}

function highlighted(text, marks, matches, side, edits) {
  let html = '', pos = 0;
  marks.forEach((m, j) => {
    html += esc(text.slice(pos, m.s));
    const label = m.ids.map((i) => `${i + 1}: ${percent(matches[i].similarity)}`).join(', ');
    const body = withEdits(text, m.s, m.e, edits, side === 's' ? 'ed' : 'orig', side === 's' ? 'not in the source' : 'the source’s wording, changed in the submission');
    html += `<mark class="m" id="${side}-${j}" data-ids="${m.ids.join(',')}" tabindex="0" role="button" aria-label="Copied passage ${label}; press Enter to show its counterpart"><span class="t">${body}</span><sup class="sim">${label}</sup></mark>`;
    pos = m.e;
  });
  return html + esc(text.slice(pos));
}

function showDetail(doc) {
  selected = doc;
  for (const tr of document.querySelectorAll('#results tr[data-doc]')) tr.classList.toggle('sel', Number(tr.dataset.doc) === doc);
  const row = shown.rows.find((x) => x.doc === doc);
  const ref = shown.refs[doc];
  const mine = shown.passages.filter((p) => p.doc === doc);
  $('#detail').hidden = false;
  $('#ref-title').textContent = `${row.label}: ${ref.name}`;
  $('#sub-view').innerHTML = highlighted(shown.submission, marksFor(row.matches, 'submissionSpan'), row.matches, 's', mine.flatMap((p) => p.diff.sub));
  $('#ref-view').innerHTML = highlighted(ref.text, marksFor(row.matches, 'referenceSpan'), row.matches, 'r', mine.flatMap((p) => p.diff.ref));
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

const srcTag = (row) => `<span class="src s${row.n % 6}" title="${esc(row.name)}">${row.label}</span>`;

/** What changed in a passage, in words. */
function editNote(d) {
  const mv = d.moved ? `${plural(d.moved, 'word')} moved` : '';
  if (d.changed === 0) return mv ? `no words changed, ${mv}` : 'no words changed';
  const parts = mv ? [mv] : [];
  if (d.added) parts.push(`${plural(d.added, 'word')} not in the source`);
  if (d.dropped) parts.push(`${plural(d.dropped, 'word')} of the source left out or replaced`);
  return parts.join(', ') + (d.exact ? '' : ' (estimated: the passage is too long to compare word by word)');
}

/**
 * The submission's length in the units its script counts in: words, or characters for
 * Chinese (Han characters, which the checker takes one by one), or both for mixed text.
 */
export function lengthInUnits(text) {
  const han = (text.match(/\p{Script=Han}/gu) ?? []).length;
  const words = (text.replace(/\p{Script=Han}/gu, ' ').match(/[\p{L}\p{N}]+/gu) ?? []).length;
  if (!han) return plural(words, 'word');
  if (!words) return plural(han, 'character');
  return `${plural(words, 'word')} and ${plural(han, 'Chinese character')}`;
}

/** When a check was made, for the report: a date and a time of day, in the reader's locale. */
const when = (at) => at.toLocaleString(undefined, { dateStyle: 'long', timeStyle: 'short' });

function summaryHtml(report, rows, refs, ms, length) {
  const total = (100 * report.coverage).toFixed(0);
  if (!rows.length) {
    return `<p class="headline">No copied passages found: none of the ${plural(refs.length, 'reference')} shares a passage with the submission.</p>`
      + `<p class="meta">${plural(report.passages.length, 'sentence')} checked. Done in ${ms.toFixed(0)} ms.</p>`;
  }
  const passages = rows.reduce((s, r) => s + r.matches.length, 0);
  let html = `<p class="headline"><b>About ${total} %</b> of the submission is copied: ${plural(passages, 'passage')} from <b>${rows.length}</b> of the ${plural(refs.length, 'reference')}.</p><ul class="sources-summary">`;
  for (const r of rows.slice(0, MAX_ROWS)) {
    const ds = shown.passages.filter((p) => p.doc === r.doc);
    const kinds = [...new Set(ds.map((p) => p.closeness))];
    html += `<li>${srcTag(r)} <b>${esc(r.name)}</b>: ${plural(r.matches.length, 'passage')}, ${(100 * r.coverage).toFixed(0)} % of the submission, copied ${kinds.join(' and ')}`
      + ` (${r.matches.length > 1 ? `${percent(Math.min(...r.matches.map((m) => m.similarity)))} to ${percent(r.best)}` : percent(r.best)} of the wording found).</li>`;
  }
  html += '</ul>';
  return html + `<p class="meta">${length} in the submission, ${plural(report.passages.length, 'sentence')}. ${rows.length > MAX_ROWS ? `Showing the top ${MAX_ROWS} sources. ` : ''}Done in ${ms.toFixed(0)} ms.</p>`;
}

function passagesHtml() {
  const { submission, refs, rows } = shown;
  let html = '';
  shown.passages.forEach((p, k) => {
    const row = rows.find((r) => r.doc === p.doc);
    const ref = refs[p.doc].text;
    html += `<li class="passage" data-doc="${p.doc}"><div class="phead"><b>Passage ${k + 1}</b> ${srcTag(row)} from <b>${esc(refs[p.doc].name)}</b> · ${percent(p.similarity)} of its wording found · copied <span class="close">${p.closeness}</span> · ${editNote(p.diff)}</div>`
      + `<div class="pair"><div><h4>In the submission</h4><p class="ptext sub">${withEdits(submission, p.sub.start, p.sub.end, p.diff.sub, 'ed', 'not in the source')}</p></div>`
      + `<div><h4>In the source</h4><p class="ptext ref">${withEdits(ref, p.ref.start, p.ref.end, p.diff.ref, 'orig', 'the source’s wording, changed in the submission')}</p></div></div></li>`;
  });
  return html;
}

/** Shows a PassageChecker report for `submission` against `refs` ([{ name, text }]):
 * the report lists only the references with a copied span, most covered first. `about`
 * names the submission and says when the check was made: { name, at: Date }. */
export function showResults(report, submission, refs, ms, about = { name: 'pasted text', at: new Date() }) {
  const rows = report.references.map((r, n) => ({ ...r, n, label: `S${n + 1}`, name: refs[r.doc].name, best: Math.max(...r.matches.map((m) => m.similarity)) }));
  const passages = [];
  for (const r of rows.slice(0, MAX_ROWS)) {
    for (const m of r.matches) {
      const diff = wordDiff(submission, m.submissionSpan.start, m.submissionSpan.end, refs[r.doc].text, m.referenceSpan.start, m.referenceSpan.end);
      passages.push({ doc: r.doc, sub: m.submissionSpan, ref: m.referenceSpan, similarity: m.similarity, diff, closeness: closeness(diff) });
    }
  }
  passages.sort((a, b) => a.sub.start - b.sub.start || b.similarity - a.similarity);
  shown = { report, submission, refs, rows, passages };
  $('#report-about').hidden = false;
  $('#report-about').innerHTML = `Submission: <b class="sub-name">${esc(about.name)}</b> · checked <time datetime="${about.at.toISOString()}">${esc(when(about.at))}</time>`
    + ` against ${plural(refs.length, 'reference')}`;
  $('#result-summary').innerHTML = summaryHtml(report, rows, refs, ms, lengthInUnits(submission));
  let html = rows.length ? '<tr><th>source</th><th>reference</th><th class="r">copied passages</th><th class="r">highest similarity</th><th class="r">share of the submission</th><th class="noprint"></th></tr>' : '';
  for (const r of rows.slice(0, MAX_ROWS)) {
    html += `<tr data-doc="${r.doc}" class="${selected === r.doc ? 'sel' : ''}"><td>${srcTag(r)}</td><td>${esc(r.name)}</td><td class="r matches">${r.matches.length}</td>`
      + `<td class="r">${percent(r.best)}</td><td class="r"><span class="meter"><i style="width:${(100 * r.coverage).toFixed(1)}%"></i></span>${(100 * r.coverage).toFixed(0)} %</td>`
      + `<td class="noprint"><button type="button" data-show="${r.doc}" aria-label="Compare the submission with ${esc(r.name)} side by side">Side by side</button></td></tr>`;
  }
  $('#results').innerHTML = html;
  $('#passages').innerHTML = passagesHtml();
  $('#passages-card').hidden = passages.length === 0;
  $('#print-report').hidden = false;
  markStale(false);
  if (rows.length) showDetail(rows.some((r) => r.doc === selected) ? selected : rows[0].doc);
  else hideDetail();
}

/** Marks the report as out of date (the inputs changed since it was made), or current. */
export function markStale(stale = true) {
  if (stale && !shown) return;
  $('#report').classList.toggle('stale', stale);
  $('#report').dataset.stale = String(stale);
  $('#stale-note').hidden = !stale;
}

/** A message in place of results (an error, or a prompt for input); any earlier report is removed. */
export function showMessage(text, error = false) {
  clearReport();
  $('#result-summary').innerHTML = `<p class="${error ? 'failure' : ''}" role="${error ? 'alert' : 'status'}">${esc(text)}</p>`;
}

function hideDetail() {
  $('#detail').hidden = true;
  selected = null;
}

function clearReport() {
  shown = null;
  $('#results').innerHTML = '';
  $('#passages').innerHTML = '';
  $('#passages-card').hidden = true;
  $('#print-report').hidden = true;
  $('#report-about').hidden = true;
  $('#report-about').textContent = '';
  $('#report').classList.remove('stale');
  $('#report').dataset.stale = 'false';
  $('#stale-note').hidden = true;
  hideDetail();
}

export function clearResults() {
  showMessage(PROMPT);
}

export function mount() {
  $('#results').addEventListener('click', (e) => {
    const d = e.target.closest('button[data-show]')?.dataset.show;
    if (d !== undefined) {
      showDetail(Number(d));
      $('#detail').scrollIntoView({ block: 'start' });
    }
  });
  $('#print-report').addEventListener('click', () => window.print());
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
