// A plagiarism check with PassageChecker: reference texts are cut into sentences and
// indexed by their word pairs; runs of the submission's sentences look up their
// candidates, and each candidate is checked on the texts (the share of the passage's word
// pairs found in the reference passage, at least 0.5). Copied spans are reported merged,
// with both spans and their similarity.
//
//   node examples/node/plagiarism.mjs
//
// The references are the 320 licence texts of the package's sample corpus. The
// submission is written here: paragraphs of its own, one paragraph copied from the OpenSSL
// licence, and one from the Artistic licence 1.0 with "the" changed to "a" twice.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PassageChecker } from 'simhash-wasm';

const sample = join(dirname(createRequire(import.meta.url).resolve('simhash-wasm/package.json')), 'sample/licenses.jsonl');
const refs = readFileSync(sample, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

const checker = new PassageChecker();   // { minChars: 40, threshold: 0.5 }
for (const { text } of refs) checker.addReference(text);
assert.equal(checker.size, refs.length);

// The longest paragraph of a licence, the one most worth copying.
const longest = (id) => refs.find((r) => r.id === id).text.split(/\n\s*\n/).reduce((a, b) => (b.length > a.length ? b : a));
const copied = longest('OpenSSL');
const edited = longest('Artistic-1.0').replace(' the ', ' a ').replace(' the ', ' a ');
const own = [
  'Our project is a small command-line tool that renames photographs by the date they were taken, '
    + 'read from their metadata, and sorts them into one folder per month.',
  'Contributions are welcome. Please open an issue before sending a large change, so that we can '
    + 'agree on the design first, and run the test suite before you push.',
  'The tool is written in Rust and has no dependencies beyond the standard library and one crate '
    + 'that reads the metadata of JPEG and HEIC files.',
];
const submission = [own[0], copied, own[1], edited, own[2]].join('\n\n');

const report = checker.check(submission);
const matched = report.references;   // only the references with a copied span, most covered first
console.log(`${report.passages.length} sentences in the submission, ${(100 * report.coverage).toFixed(0)} % copied; ${matched.length} references share a passage with it:`);
for (const r of matched.slice(0, 6)) {
  console.log(`  ${refs[r.doc].id.padEnd(22)} coverage ${(100 * r.coverage).toFixed(0).padStart(3)} %`);
  for (const m of r.matches) {
    const text = submission.slice(m.submissionSpan.start, m.submissionSpan.end);
    console.log(`      sentences ${m.submission.join('-')} ~ their ${m.reference.join('-')} (${(100 * m.similarity).toFixed(0)} %): "${text.slice(0, 60)}…"`);
  }
}
console.log(`  … and ${matched.length - 6} more (the BSD disclaimer and the Artistic terms are in many licences)`);

// The copied paragraphs are found in their sources (other licences that share the same
// paragraph may be listed too), and nothing the submission wrote itself matches.
const names = new Set(matched.map((r) => refs[r.doc].id));
assert.ok(names.has('OpenSSL'), 'the copied OpenSSL paragraph is found');
assert.ok(names.has('Artistic-1.0'), 'the edited Artistic-1.0 paragraph is found');
// Every flagged span lies inside one of the two copies, and each copy is flagged whole
// against its own source.
const start = (t) => submission.indexOf(t);
const copies = [copied.trim(), edited.trim()].map((t) => [start(t), start(t) + t.length]);
for (const r of matched) {
  for (const m of r.matches) {
    const { start: s, end: e } = m.submissionSpan;
    assert.ok(copies.some(([a, b]) => a <= s && e <= b), `${refs[r.doc].id}: "${submission.slice(s, e)}" is not copied`);
  }
}
const whole = (id, [a, b]) => matched.find((r) => refs[r.doc].id === id).matches.some((m) => m.submissionSpan.start === a && m.submissionSpan.end === b);
assert.ok(whole('OpenSSL', copies[0]), 'the OpenSSL paragraph is one span');
assert.ok(whole('Artistic-1.0', copies[1]), 'the edited Artistic-1.0 paragraph is one span');
for (const r of matched) assert.ok(r.coverage > 0 && r.coverage < 1, `coverage of ${refs[r.doc].id}`);
const art = matched.find((r) => refs[r.doc].id === 'Artistic-1.0').matches[0];
assert.ok(art.similarity > 0.8 && art.similarity < 1, `the edited copy's similarity ${art.similarity}`);
checker.free();
console.log('plagiarism example: ok');
