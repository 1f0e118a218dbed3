// A plagiarism check with PassageChecker: reference texts are cut into paragraphs, each
// paragraph is fingerprinted and indexed, and a submission's paragraphs are looked up;
// a paragraph within k bits of a reference paragraph is reported, with both spans.
//
//   node examples/node/plagiarism.mjs
//
// The references are the 320 licence texts of the package's sample corpus. The
// submission is written here: paragraphs of its own, one paragraph copied from the OpenSSL
// licence, and one from the Artistic licence 1.0 with a word changed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PassageChecker } from 'simhash-wasm';

const sample = join(dirname(createRequire(import.meta.url).resolve('simhash-wasm/package.json')), 'sample/licenses.jsonl');
const refs = readFileSync(sample, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

const checker = new PassageChecker({ split: 'paragraphs', k: 3 });
for (const { text } of refs) checker.addReference(text);
assert.equal(checker.size, refs.length);

// The longest paragraph of a licence, the one most worth copying.
const longest = (id) => refs.find((r) => r.id === id).text.split(/\n\s*\n/).reduce((a, b) => (b.length > a.length ? b : a));
const copied = longest('OpenSSL');
const edited = longest('Artistic-1.0').replace(' the ', ' this ');
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
const matched = report.references.filter((r) => r.matches.length > 0).sort((a, b) => b.coverage - a.coverage);
console.log(`${report.passages.length} passages in the submission; ${matched.length} references share a passage with it:`);
for (const r of matched) {
  console.log(`  ${refs[r.doc].id.padEnd(22)} coverage ${(100 * r.coverage).toFixed(0).padStart(3)} %  whole-text distance ${r.distance}`);
  for (const m of r.matches) {
    const text = submission.slice(m.submissionSpan.start, m.submissionSpan.end);
    console.log(`      passage ${m.submission} ~ their passage ${m.reference} (${m.distance} bits): "${text.slice(0, 60)}…"`);
  }
}

// The copied paragraphs are found in their sources (other licences that share the same
// paragraph may be listed too), and nothing the submission wrote itself matches.
const names = new Set(matched.map((r) => refs[r.doc].id));
assert.ok(names.has('OpenSSL'), 'the copied OpenSSL paragraph is found');
assert.ok(names.has('Artistic-1.0'), 'the edited Artistic-1.0 paragraph is found');
const flagged = new Set(matched.flatMap((r) => r.matches.map((m) => submission.slice(m.submissionSpan.start, m.submissionSpan.end).trim())));
assert.deepEqual([...flagged].sort(), [copied.trim(), edited.trim()].sort(), 'exactly the two copied paragraphs are flagged');
for (const r of matched) assert.ok(r.coverage > 0 && r.coverage < 1, `coverage of ${refs[r.doc].id}`);
checker.free();
console.log('plagiarism example: ok');
