// The hand-written typings (web/index.d.ts, the API every entry shares) against the
// runtime: every option an API takes, and every field of what it returns, must be declared, with a type the value fits, and nothing
// may be declared that the runtime lacks. The interfaces are read with the TypeScript
// compiler's own checker (inherited members included); the runtime's option names come
// from its "only the keys ..." error, its result fields from real results.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

import {
  SimHasher, SimHashIndex, ContentSeen, PassageChecker, dedup, sketchInfo, defaults, htmlToText,
} from '../../pkg/index.mjs';

const ts = createRequire(import.meta.url)('typescript');
const DTS = new URL('../../pkg-template/web/index.d.ts', import.meta.url).pathname;
const program = ts.createProgram([DTS], {
  noEmit: true, strict: true, types: [], target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts', 'lib.esnext.disposable.d.ts'],
});
const checker = program.getTypeChecker();
const source = program.getSourceFile(DTS);

/** The declared type of `export interface name` (or `export type name`). */
function declared(name) {
  for (const st of source.statements) {
    if ((ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) && st.name.text === name) {
      return checker.getTypeAtLocation(st.name);
    }
  }
  assert.fail(`web/index.d.ts declares no ${name}`);
}

/** Its members (own and inherited) and their types. */
function members(type) {
  const out = new Map();
  for (const p of checker.getPropertiesOfType(type)) out.set(p.name, checker.getTypeOfSymbolAtLocation(p, source));
  return out;
}

/** Whether a runtime value fits a declared type (the kinds this API uses). */
function fits(value, type) {
  if (type.isUnion()) return type.types.some((t) => fits(value, t));
  const f = type.flags;
  const F = ts.TypeFlags;
  if (f & F.TypeParameter) return fits(value, checker.getBaseConstraintOfType(type));
  if (type.isLiteral() || f & F.BooleanLiteral) {
    const lit = f & F.BooleanLiteral ? checker.typeToString(type) === 'true' : type.value;
    return typeof lit === 'object' ? typeof value === 'bigint' : value === lit;
  }
  if (f & F.Null) return value === null;
  if (f & F.Undefined) return value === undefined;
  if (f & F.Number) return typeof value === 'number';
  if (f & F.String) return typeof value === 'string';
  if (f & F.Boolean) return typeof value === 'boolean';
  if (f & F.BigInt) return typeof value === 'bigint';
  if (checker.isTupleType(type)) return Array.isArray(value) && value.length === checker.getTypeArguments(type).length;
  if (checker.isArrayType(type)) {
    const item = checker.getTypeArguments(type)[0];
    return Array.isArray(value) && value.every((x) => fits(x, item));
  }
  const name = type.getSymbol()?.getName();
  if (name && /Array$/.test(name) && globalThis[name]) return value instanceof globalThis[name];
  if (f & F.Object) return value !== null && typeof value === 'object' && !Array.isArray(value);
  return false;
}

/**
 * A result against its interface (a name, or a type): the same field names, each value of
 * its declared type; nested plain objects (not arrays, not unions) are compared the same way.
 */
function sameShape(value, iface, what) {
  const type = typeof iface === 'string' ? declared(iface) : iface;
  const shown = typeof iface === 'string' ? iface : checker.typeToString(type);
  const m = members(type);
  assert.deepEqual(Object.keys(value).sort(), [...m.keys()].sort(), `${what}: runtime fields vs ${shown}`);
  for (const [k, t] of m) {
    assert.ok(fits(value[k], t), `${what}.${k} = ${String(value[k])} does not fit ${shown}.${k}: ${checker.typeToString(t)}`);
    const plain = !t.isUnion() && t.flags & ts.TypeFlags.Object && !checker.isArrayType(t) && !checker.isTupleType(t)
      && !/Array$/.test(t.getSymbol()?.getName() ?? '');
    if (plain) sameShape(value[k], t, `${what}.${k}`);
  }
}

/** The option names a call accepts, from the error for an unknown one. */
function accepted(call) {
  try {
    call({ noSuchOption: 1 });
  } catch (e) {
    const m = /only the keys (.*)$/.exec(e.message);
    assert.ok(m, e.message);
    return m[1].split(', ').sort();
  }
  assert.fail('an unknown option was accepted');
}

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

test('the test itself fails on a missing or mistyped field', () => {
  const seen = new ContentSeen();
  const c = seen.check('https://a/', 'The quick brown fox jumps over the lazy dog.');
  assert.throws(() => sameShape({ ...c, extra: 1 }, 'PageCheckResult', 'forged'), /runtime fields/);
  const { estimate, ...less } = c;
  assert.throws(() => sameShape(less, 'PageCheckResult', 'forged'), /runtime fields/);
  assert.throws(() => sameShape({ ...c, estimate: 'x', sketch: estimate }, 'PageCheckResult', 'forged'), /does not fit/);
  assert.throws(() => sameShape({ ...seen.check('https://b/', ''), count: 1 }, 'EmptyCheckResult', 'forged'), /does not fit/);
});
