// The hand-written typings (web/index.d.ts, the API every entry shares; SimHashPool too) against the
// runtime: every option an API takes, and every field of what it returns, must be declared, with a type the value fits, and nothing
// may be declared that the runtime lacks. The interfaces are read with the TypeScript
// compiler's own checker (inherited members included); the runtime's option names come
// from its "only the keys ..." error, its result fields from real results.
import test from 'node:test';
import assert from 'node:assert/strict';
import { typingsOf } from './typings-common.mjs';

import {
  SimHasher, SimHashIndex, ContentSeen, PassageChecker, dedup, sketchInfo, defaults, htmlToText, SimHashPool, SimHashError,
} from '../../pkg/index.mjs';

const { declared, members, sameShape, accepted, returned, itemOf } = typingsOf(new URL('../../pkg-template/web/index.d.ts', import.meta.url).pathname);

test('every option the runtime takes is declared, and every declared option is taken', () => {
  const ix = new SimHashIndex();
  const cases = [
    ['HasherOptions', (o) => new SimHasher(o)],
    ['IndexOptions', (o) => new SimHashIndex(o)],
    ['ContentSeenOptions', (o) => new ContentSeen(o)],
    ['ContentSeenOptions', (o) => ContentSeen.fromBytes(new ContentSeen().toBytes(), o)],
    ['DedupOptions', (o) => dedup(['a'], ['some text here'], o)],
    ['DedupIntoOptions', (o) => ix.dedup(['a'], ['some text here'], o)],
    ['PassageOptions', (o) => new PassageChecker(o)],
    ['SketchOptions', (o) => new SimHasher().sketch('some text', o)],
    ['HtmlToTextOptions', (o) => htmlToText('<p>x</p>', o)],
  ];
  for (const [iface, call] of cases) {
    assert.deepEqual(accepted(call), [...members(declared(iface)).keys()].sort(), iface);
  }
});

test('every result field is declared with its type, for every kind of answer', () => {
  const page = '<html><body><nav>Home | About</nav><p>The quick brown fox jumps over the lazy dog, again and again.</p></body></html>';
  for (const sketch of [undefined, 64, false]) {
    const seen = new ContentSeen({ html: true, sketch });
    sameShape(seen.check('https://a/', page), 'PageCheckResult', `check (new, sketch ${sketch})`);
    sameShape(seen.check('https://b/', `${page} `), 'PageCheckResult', `check (duplicate, sketch ${sketch})`);
    sameShape(seen.check('https://c/', '<script>app()</script>'), 'EmptyCheckResult', `check (empty, sketch ${sketch})`);
    sameShape(seen.check('https://d/', Buffer.from(page.replace('fox', 'cat'))), 'PageCheckResult', `check (bytes, sketch ${sketch})`);
    sameShape(seen.checkFingerprint('https://e/', 5n), 'PageCheckResult', `checkFingerprint (sketch ${sketch})`);
    sameShape(seen.options(), 'ResolvedContentSeenOptions', `options() (sketch ${sketch})`);
    sameShape(seen.clusters()[0], 'SeenCluster', 'clusters()[0]');
  }
  const h = new SimHasher();
  sameShape(h.options(), 'ResolvedHasherOptions', 'SimHasher#options()');
  sameShape(sketchInfo(h.sketch('some text here')), 'SketchInfo', 'sketchInfo');
  sameShape(h.explainArrays('the cat sat'), 'ExplanationArrays', 'explainArrays');
  sameShape(h.explain('the cat sat'), 'Explanation', 'explain');
  sameShape(h.explain('the cat sat').tokens[0], 'ExplainedToken', 'explain().tokens[0]');
  const texts = ['The cat sat on the mat, and then again on the mat.', 'The cat sat on the mat, and then again on the mat!', ''];
  const r = dedup(['a', 'b', 'c'], texts);
  sameShape(r, 'DedupResult', 'dedup');
  const ix = new SimHashIndex({ k: 3 });
  ix.insert('a', 1n);
  sameShape(ix.stats(), 'IndexStats', 'stats()');
  sameShape(ix.query(1n)[0], 'Match', 'query()[0]');
  sameShape(defaults(), 'Defaults', 'defaults()');
});

test('SimHashPool: its options and every result are declared with their types', async () => {
  const names = await SimHashPool.create({ noSuchOption: 1 }).then(() => assert.fail('an unknown option was accepted'), (e) => {
    const m = /; expected (.*)$/.exec(e.message);
    assert.ok(m && e.code === 'InvalidOption', e.message);
    return m[1].split(', ').sort();
  });
  assert.deepEqual(names, [...members(declared('PoolOptions')).keys()].sort(), 'PoolOptions');
  const pool = await SimHashPool.create({ size: 1 });
  try {
    const texts = ['The cat sat on the mat, and then again on the mat.', Buffer.from('The cat sat on the mat, and then again on the mat!'), ''];
    for (const method of ['fingerprintEach', 'fingerprintAndSketchEach']) {
      const r = await pool[method](texts);
      sameShape(r, returned('SimHashPool', method), `pool.${method}`);
      assert.equal(r.failed.length, 1, `pool.${method}: the empty text fails`);
      assert.ok(r.failed[0].error instanceof SimHashError, `pool.${method}: a SimHashError`);
      sameShape(r.failed[0], itemOf(returned('SimHashPool', method), 'failed'), `pool.${method}().failed[0]`);
    }
    sameShape(await pool.dedup(['a', 'b', 'c'], texts), returned('SimHashPool', 'dedup'), 'pool.dedup');
    sameShape(await pool.dedupInto(new SimHashIndex(), ['a', 'b', 'c'], texts), returned('SimHashPool', 'dedupInto'), 'pool.dedupInto');
  } finally {
    await pool.close();
  }
});

test('the test itself fails on a missing or mistyped field', () => {
  const seen = new ContentSeen();
  const c = seen.check('https://a/', 'The quick brown fox jumps over the lazy dog.');
  assert.throws(() => sameShape({ ...c, extra: 1 }, 'PageCheckResult', 'forged'), /runtime fields/);
  const { estimate, ...less } = c;
  assert.throws(() => sameShape(less, 'PageCheckResult', 'forged'), /runtime fields/);
  assert.throws(() => sameShape({ ...c, estimate: 'x', sketch: estimate }, 'PageCheckResult', 'forged'), /does not fit/);
  assert.throws(() => sameShape({ ...seen.check('https://b/', ''), count: 1 }, 'EmptyCheckResult', 'forged'), /does not fit/);
});
