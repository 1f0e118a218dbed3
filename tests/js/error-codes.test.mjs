// The typings' SimHashErrorCode (pkg-template/web/index.d.ts) lists exactly the codes the package
// can throw: the Rust core's (`Error::code` in src/error.rs) and the ones the JS layer adds
// (`new SimHashError(message, 'Code')` in pkg-template/). Read from the sources, so a code
// added on either side without the typings (or left in the typings when no longer thrown)
// fails here.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (rel) => readFileSync(join(root, rel), 'utf8');

/** The text from `open` (an index of `{`, `(` or `[`) to its matching close, skipping strings and comments. */
function balanced(src, open) {
  const pairs = { '{': '}', '(': ')', '[': ']' };
  const stack = [];
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '/' && src[i + 1] === '/') { i = src.indexOf('\n', i); if (i < 0) break; continue; }
    if (c === '/' && src[i + 1] === '*') { i = src.indexOf('*/', i + 2) + 1; continue; }
    if (c === '"' || c === "'" || c === '`') {
      for (i++; i < src.length && src[i] !== c; i++) if (src[i] === '\\') i++;
      continue;
    }
    if (pairs[c]) stack.push(pairs[c]);
    else if (c === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return src.slice(open, i + 1);
    }
  }
  throw new Error(`unbalanced from offset ${open}`);
}

/** The codes `Error::code` returns: the string literals of its body. */
function rustCodes() {
  const src = read('src/error.rs');
  const at = src.search(/\bfn code\(&self\)/);
  assert.ok(at >= 0, 'src/error.rs has no `fn code(&self)`');
  let codes = [...balanced(src, src.indexOf('{', at)).matchAll(/"([A-Z][A-Za-z]*)"/g)].map((m) => m[1]);
  if (codes.length === 0) {
    // `code` reads a table instead: the string array whose name says it holds the codes.
    const list = /\bconst \w*CODES\w*\s*:[^=]*=\s*&?\[/.exec(src);
    assert.ok(list, 'src/error.rs: `fn code` returns no literal, and no *CODES* list was found');
    codes = [...balanced(src, list.index + list[0].length - 1).matchAll(/"([A-Z][A-Za-z]*)"/g)].map((m) => m[1]);
  }
  return codes;
}

/** Every JS source file the package ships from pkg-template/. */
function jsFiles(dir = 'pkg-template') {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = join(dir, e.name);
    if (e.isDirectory()) return jsFiles(rel);
    return /\.(c|m)?js$/.test(e.name) ? [rel] : [];
  });
}

/** The codes the JS layer throws: each `new SimHashError(...)` whose last argument is a string literal. */
function jsCodes() {
  const found = new Map();
  for (const rel of jsFiles()) {
    const src = read(rel);
    for (const m of src.matchAll(/new SimHashError\(/g)) {
      const call = balanced(src, m.index + m[0].length - 1);
      const last = /,\s*'([A-Za-z]+)'\s*,?\s*\)$/.exec(call);
      if (last) found.set(last[1], [...(found.get(last[1]) || []), relative(root, join(root, rel))]);
    }
  }
  return found;
}

/** The union `SimHashErrorCode` of the typings. */
function typedCodes() {
  const dts = read('pkg-template/web/index.d.ts').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const m = /export type SimHashErrorCode\s*=([^;]*);/.exec(dts);
  assert.ok(m, 'web/index.d.ts has no `export type SimHashErrorCode = ...;`');
  return [...m[1].matchAll(/'([A-Za-z]+)'/g)].map((x) => x[1]);
}

test('the readers find what they look for (so the comparison below can fail)', () => {
  const rust = rustCodes();
  assert.ok(rust.includes('InvalidOption') && rust.includes('EmptyText') && rust.length >= 10, rust.join(' '));
  const js = jsCodes();
  assert.ok(js.has('InvalidOption') && js.has('PoolClosed') && js.has('WorkerFailed'), [...js.keys()].join(' '));
  assert.ok(typedCodes().length >= 10);
});

test('SimHashErrorCode in index.d.ts is exactly the codes the core and the JS layer throw', () => {
  const typed = typedCodes();
  assert.equal(new Set(typed).size, typed.length, `a code is listed twice: ${typed.join(' ')}`);
  const js = jsCodes();
  const thrown = new Set([...rustCodes(), ...js.keys()]);
  const missing = [...thrown].filter((c) => !typed.includes(c));
  const stale = typed.filter((c) => !thrown.has(c));
  assert.deepEqual(missing, [], `thrown but not in SimHashErrorCode: ${missing.map((c) => `${c} (${js.has(c) ? [...new Set(js.get(c))].join(', ') : 'src/error.rs'})`).join(', ')}`);
  assert.deepEqual(stale, [], `in SimHashErrorCode but never thrown: ${stale.join(', ')}`);
});
