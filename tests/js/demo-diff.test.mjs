// The demo's word diff (www/js/check/diff.js): edits against a naive oracle, and text moved
// inside a passage shown as moved, not as words added on one side and left out on the other.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wordDiff, words, MOVED_MIN } from '../../www/js/check/diff.js';

const marked = (text, ranges, moved) => ranges.filter((r) => Boolean(r.moved) === moved).map((r) => text.slice(r.s, r.e));

test('a sentence moved to the end of its paragraph is marked moved on both sides, not changed', () => {
  const src = 'Bees gather nectar in spring. In winter the colony forms a tight cluster around the queen. The hive hums all summer long.';
  const sub = 'Bees gather nectar in spring. The hive hums all summer long. In winter the colony forms a tight cluster around the queen.';
  const d = wordDiff(sub, 0, sub.length, src, 0, src.length);
  assert.equal(d.changed, 0, JSON.stringify(d));
  assert.ok(d.moved >= MOVED_MIN);
  // One of the two sentences is the LCS's, the other moved: the same words on both sides.
  const [a] = marked(sub, d.sub, true), [b] = marked(src, d.ref, true);
  assert.equal(a, b);
  assert.ok(['The hive hums all summer long', 'In winter the colony forms a tight cluster around the queen'].includes(a), a);
});

test('edits stay edits: a replaced word, and a short run that merely repeats elsewhere', () => {
  const src = 'The old mill stood by the river for two hundred years before the flood.';
  const sub = 'The old mill stood by the stream for two hundred years before the flood.';
  const d = wordDiff(sub, 0, sub.length, src, 0, src.length);
  assert.deepEqual([d.added, d.dropped, d.moved], [1, 1, 0]);
  assert.deepEqual(marked(sub, d.sub, false), ['stream']);
  assert.deepEqual(marked(src, d.ref, false), ['river']);
  // Three words in another order are below MOVED_MIN: edits.
  const s2 = 'red green blue and then the rest of the sentence stays';
  const r2 = 'the rest of the sentence stays red green blue';
  const d2 = wordDiff(s2, 0, s2.length, r2, 0, r2.length);
  assert.equal(d2.moved, 0);
});

test('the diff keeps its invariants on random edits: kept + edited + moved = words, each side', () => {
  let x = 12345;
  const rnd = (n) => { x = (x * 1103515245 + 12345) % 2147483648; return x % n; };
  const vocab = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau'.split(' ');
  for (let c = 0; c < 300; c++) {
    const a = Array.from({ length: 5 + rnd(40) }, () => vocab[rnd(vocab.length)]);
    const b = a.slice();
    for (let e = rnd(6); e > 0; e--) {
      const op = rnd(3), at = rnd(b.length + 1);
      if (op === 0) b.splice(at, 0, vocab[rnd(vocab.length)]);
      else if (op === 1 && b.length) b.splice(at % b.length, 1);
      else if (b.length > 8) { const from = rnd(b.length - 6), run = b.splice(from, 5); b.splice(rnd(b.length + 1), 0, ...run); }
    }
    const sub = a.join(' '), ref = b.join(' ');
    const d = wordDiff(sub, 0, sub.length, ref, 0, ref.length);
    const count = (text, rs, mv) => rs.filter((r) => Boolean(r.moved) === mv).reduce((n, r) => n + words(text, r.s, r.e).length, 0);
    assert.equal(count(sub, d.sub, false), d.added, sub);
    assert.equal(count(ref, d.ref, false), d.dropped, ref);
    assert.equal(count(sub, d.sub, true), d.moved);
    assert.equal(count(ref, d.ref, true), d.moved);
    // The moved runs read the same on both sides, in order of the submission's runs' words.
    const mvA = d.sub.filter((r) => r.moved).flatMap((r) => words(sub, r.s, r.e).map((w) => w.w)).sort();
    const mvB = d.ref.filter((r) => r.moved).flatMap((r) => words(ref, r.s, r.e).map((w) => w.w)).sort();
    assert.deepEqual(mvA, mvB);
    if (sub === ref) assert.equal(d.changed + d.moved, 0);
  }
});
