// The argument checks of the package's JS layer: one table, one helper. wasm-bindgen's
// glue converts arguments without checking them: a bigint outside 0n ..= 2n ** 64n - 1n
// wraps (`hamming(-1n, 0n)` would give 64), `null` or a number given as a text fails inside the
// glue with a bare TypeError. Here every such argument is checked before the call reaches
// the wasm, and a wrong one throws a SimHashError (code InvalidOption) that names it, in
// the core's words: "invalid option `text` = null: expected a string".
//
// (Checked here and not in the wasm: taking every argument as a JsValue in the bindings
// cost 5 kB of the browser build's gzipped wasm, over its 150 kB budget. Option objects
// and ids are still checked in the wasm, which knows their names and meanings.)
//
// Written once, as an ES module: the browser entries import it (web/args.js, full/args.js)
// and scripts/build.sh generates the Node entry's CommonJS form (args.cjs) from it with
// scripts/esm-to-cjs.mjs. It uses nothing but the language: no imports.

const MAX = 0xffffffffffffffffn;
const isFingerprint = (v) => typeof v === 'bigint' && v >= 0n && v <= MAX;
const isCount = (v) => Number.isInteger(v) && v >= 0 && v <= 0xffffffff;
// A name that is stored and compared (a URL, a namespace): a string with no lone surrogate,
// which the UTF-8 conversion would replace by U+FFFD, merging two different names.
const isName = (v) => typeof v === 'string' && !/[\uD800-\uDFFF]/u.test(v);

/** Argument kinds: [test, what is expected, the test of each item (arrays)]. */
const KINDS = {
  fingerprint: [isFingerprint, 'a bigint from 0n to 2n ** 64n - 1n'],
  fingerprints: [(v) => v instanceof BigUint64Array || Array.isArray(v),
    'a BigUint64Array, or an array of bigints from 0n to 2n ** 64n - 1n', isFingerprint],
  string: [(v) => typeof v === 'string', 'a string'],
  name: [isName, 'a string without lone surrogates (half of a UTF-16 pair on its own)'],
  strings: [Array.isArray, 'an array of strings', (v) => typeof v === 'string'],
  bytes: [(v) => v instanceof Uint8Array, 'a Uint8Array'],
  array: [Array.isArray, 'an array'],
  number: [(v) => typeof v === 'number', 'a number'],
  count: [isCount, 'a non-negative whole number'],
  'count?': [(v) => v === undefined || isCount(v), 'a non-negative whole number, or nothing'],
  object: [(v) => v !== null && typeof v === 'object', 'an object'],
  size: [(v) => Number.isInteger(v) && v >= 1 && v <= 1024, 'a whole number of workers from 1 to 1024'],
  index: [() => false, 'a SimHashIndex'],
  'function?': [(v) => v === undefined || typeof v === 'function', 'a function, or nothing'],
};

/**
 * Every export that takes such arguments: `fn`, `Class#method`, `Class.static` or
 * `new Class`, with `name:kind` per argument (`-` for one the wasm checks: ids, options).
 */
export const SIGNATURES = {
  hamming: ['a:fingerprint', 'b:fingerprint'],
  similarity: ['a:fingerprint', 'b:fingerprint'],
  toHex: ['fingerprint:fingerprint'],
  fromHex: ['hex:string'],
  htmlToText: ['html:string'],
  huffmanTable: ['fingerprints:fingerprints'],
  dedup: ['ids:strings', 'texts:strings'],
  'SimHasher#fingerprint': ['text:string'],
  'SimHasher#fingerprintBytes': ['bytes:bytes'],
  'SimHasher#fingerprintBatch': ['texts:strings'],
  'SimHasher#explain': ['text:string'],
  'SimHasher#explainArrays': ['text:string'],
  'SimHasher#sketch': ['text:string'],
  'SimHasher#fingerprintAndSketch': ['text:string'],
  estimateJaccard: ['a:bytes', 'b:bytes'],
  sketchInfo: ['bytes:bytes'],
  'IdfTable.learn': ['texts:strings'],
  'IdfTable#add': ['texts:strings'],
  'IdfTable.fromBytes': ['bytes:bytes'],
  'IdfTable#df': ['hash:fingerprint'],
  'IdfTable#idf': ['hash:fingerprint'],
  'SimHashIndex#insert': ['-', 'fingerprint:fingerprint'],
  'SimHashIndex#insertBatch': ['ids:array', 'fingerprints:fingerprints'],
  'SimHashIndex#insertNumbered': ['firstId:number', 'fingerprints:fingerprints'],
  'SimHashIndex#query': ['fingerprint:fingerprint', 'k:count?'],
  'SimHashIndex#queryBatch': ['fingerprints:fingerprints'],
  'SimHashIndex#queryBatchFlat': ['fingerprints:fingerprints'],
  'SimHashIndex#queryAndInsert': ['-', 'fingerprint:fingerprint'],
  'SimHashIndex#dedup': ['ids:strings', 'texts:strings'],
  'SimHashIndex.fromBytes': ['bytes:bytes'],
  'new CompactSet': ['fingerprints:fingerprints'],
  'CompactSet.fromBytes': ['bytes:bytes'],
  'CompactSet#containsWithin': ['fingerprint:fingerprint', 'k:count'],
  'CompactSet#countContainedWithin': ['fingerprints:fingerprints', 'k:count'],
  'ContentSeen#check': ['url:name', 'htmlOrText:string'],
  'ContentSeen#checkFingerprint': ['url:name', 'fingerprint:fingerprint'],
  'ContentSeen#fingerprint': ['htmlOrText:string'],
  'ContentSeen#count': ['url:name'],
  'ContentSeen#clusterOf': ['url:name'],
  'ContentSeen.fromBytes': ['bytes:bytes'],
  'PassageChecker#addReference': ['text:string'],
  'PassageChecker#passages': ['doc:count'],
  'PassageChecker#passagesOf': ['text:string'],
  'PassageChecker#check': ['submission:string'],
};

/** A value as a message shows it, as JS writes it: `"text"`, `-1n`, `null`, `[1,2]`, `a Map`. */
export function describe(v) {
  let s;
  if (typeof v === 'bigint') s = `${v}n`;
  else if (typeof v === 'function') s = 'a function';
  else if (typeof v === 'symbol') s = 'a symbol';
  else if (typeof v === 'string' || v === null || typeof v !== 'object') s = typeof v === 'string' ? JSON.stringify(v) : String(v);
  else if (Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null) {
    try { s = JSON.stringify(v); } catch { s = Array.isArray(v) ? 'an array' : 'an object'; }
  } else {
    const name = (v.constructor && v.constructor.name) || 'Object';
    s = `${/^[AEIO]/.test(name) ? 'an' : 'a'} ${name}`;
  }
  return s.length > 80 ? `${s.slice(0, 79)}…` : s;
}

/** Checks `args` against `spec`; throws for the first wrong one (or wrong item of one). */
export function check(spec, args, SimHashError) {
  for (let i = 0; i < spec.length; i++) {
    const [name, kind] = spec[i].split(':');
    if (kind === undefined) continue;
    const [ok, expected, each] = KINDS[kind];
    let shown;
    if (!ok(args[i])) shown = describe(args[i]);
    else if (each && Array.isArray(args[i])) {
      const at = args[i].findIndex((x) => !each(x));
      if (at >= 0) shown = `${describe(args[i][at])} at [${at}]`;
    }
    if (shown !== undefined) {
      throw new SimHashError(`invalid option \`${name}\` = ${shown}: expected ${expected}`, 'InvalidOption');
    }
  }
}

/**
 * Puts the checks in front of the exports of `api` (the wasm module's exports, copied):
 * free functions are replaced in `api`, methods are wrapped on the classes' prototypes
 * (shared by every entry of the same build), constructors behind a Proxy in `api`.
 */
export function guard(api, SimHashError) {
  for (const [where, spec] of Object.entries(SIGNATURES)) {
    const m = /^(new )?(\w+)(?:([#.])(\w+))?$/.exec(where);
    const [, isNew, owner, sep, member] = m;
    if (api[owner] === undefined) continue;
    if (isNew) {
      api[owner] = new Proxy(api[owner], {
        construct(target, args, newTarget) {
          check(spec, args, SimHashError);
          return Reflect.construct(target, args, newTarget);
        },
      });
    } else if (sep === undefined) {
      const f = api[owner];
      api[owner] = { [owner](...args) { check(spec, args, SimHashError); return f.apply(this, args); } }[owner];
    } else {
      const target = sep === '#' ? api[owner].prototype : api[owner];
      const f = target[member];
      if (typeof f !== 'function' || f.guarded) continue;
      const wrapped = { [member](...args) { check(spec, args, SimHashError); return f.apply(this, args); } }[member];
      Object.defineProperty(wrapped, 'guarded', { value: true });
      Object.defineProperty(target, member, { value: wrapped, writable: true, configurable: true, enumerable: false });
    }
  }
  return api;
}
