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
const isText = (v) => typeof v === 'string' || v instanceof Uint8Array;

/** Argument kinds: [test, what is expected, the test of each item (arrays)]. */
const KINDS = {
  fingerprint: [isFingerprint, 'a bigint from 0n to 2n ** 64n - 1n'],
  fingerprints: [(v) => v instanceof BigUint64Array || Array.isArray(v),
    'a BigUint64Array, or an array of bigints from 0n to 2n ** 64n - 1n', isFingerprint],
  string: [(v) => typeof v === 'string', 'a string'],
  name: [isName, 'a string without lone surrogates (half of a UTF-16 pair on its own)'],
  strings: [Array.isArray, 'an array of strings without lone surrogates (half of a UTF-16 pair on its own)', isName],
  // An id: its type is the wasm's to check (a number or a string, as the index takes);
  // a string id is a name, stored and compared.
  id: [(v) => typeof v !== 'string' || isName(v), 'a number, or a string without lone surrogates (half of a UTF-16 pair on its own)'],
  ids: [Array.isArray, 'an array of ids (numbers, or strings without lone surrogates)', (v) => typeof v !== 'string' || isName(v)],
  // A text: a string, or its UTF-8 bytes (a Uint8Array; Node's Buffer is one), which
  // the wasm core validates and decodes (`__utf8`: invalid UTF-8 throws InvalidUtf8).
  text: [isText, 'a string, or UTF-8 bytes (a Uint8Array or Buffer)'],
  texts: [Array.isArray, 'an array of strings or UTF-8 bytes (Uint8Array or Buffer)', isText],
  bytes: [(v) => v instanceof Uint8Array, 'a Uint8Array'],
  array: [Array.isArray, 'an array'],
  number: [(v) => typeof v === 'number', 'a number'],
  count: [isCount, 'a non-negative whole number'],
  'count?': [(v) => v === undefined || isCount(v), 'a non-negative whole number, or nothing'],
  batch: [(v) => isCount(v) && v >= 1, 'a whole number from 1 to 4294967295'],
  object: [(v) => v !== null && typeof v === 'object', 'an object'],
  size: [(v) => Number.isInteger(v) && v >= 1 && v <= 1024, 'a whole number of workers from 1 to 1024'],
  index: [() => false, 'a SimHashIndex'],
  'function?': [(v) => v === undefined || typeof v === 'function', 'a function, or nothing'],
};

/**
 * Every export that takes such arguments: `fn`, `Class#method`, `Class.static` or
 * `new Class`, with `name:kind` per argument (`-` for one the wasm checks: options).
 */
export const SIGNATURES = {
  hamming: ['a:fingerprint', 'b:fingerprint'],
  similarity: ['a:fingerprint', 'b:fingerprint'],
  toHex: ['fingerprint:fingerprint'],
  fromHex: ['hex:string'],
  htmlToText: ['html:text'],
  huffmanTable: ['fingerprints:fingerprints'],
  dedup: ['ids:strings', 'texts:texts'],
  'SimHasher#fingerprint': ['text:text'],
  'SimHasher#fingerprintBytes': ['bytes:bytes'],
  'SimHasher#fingerprintBatch': ['texts:texts'],
  'SimHasher#explainArrays': ['text:text'],
  'SimHasher#sketch': ['text:text'],
  'SimHasher#fingerprintAndSketch': ['text:text'],
  estimateJaccard: ['a:bytes', 'b:bytes'],
  sketchInfo: ['bytes:bytes'],
  'IdfTable.learn': ['texts:texts'],
  'IdfTable#add': ['texts:texts'],
  'IdfTable.fromBytes': ['bytes:bytes'],
  'IdfTable#df': ['hash:fingerprint'],
  'IdfTable#idf': ['hash:fingerprint'],
  'SimHashIndex#insert': ['id:id', 'fingerprint:fingerprint'],
  'SimHashIndex#insertBatch': ['ids:ids', 'fingerprints:fingerprints'],
  'SimHashIndex#remove': ['id:id'],
  'SimHashIndex#has': ['id:id'],
  'SimHashIndex#get': ['id:id'],
  'SimHashIndex#insertNumbered': ['firstId:number', 'fingerprints:fingerprints'],
  'SimHashIndex#query': ['fingerprint:fingerprint', 'k:count?'],
  'SimHashIndex#queryBatch': ['fingerprints:fingerprints'],
  'SimHashIndex#queryBatchFlat': ['fingerprints:fingerprints'],
  'SimHashIndex#queryAndInsert': ['id:id', 'fingerprint:fingerprint'],
  'SimHashIndex#dedup': ['ids:strings', 'texts:texts'],
  'SimHashIndex.fromBytes': ['bytes:bytes'],
  'new CompactSet': ['fingerprints:fingerprints'],
  'CompactSet.fromBytes': ['bytes:bytes'],
  'CompactSet#containsWithin': ['fingerprint:fingerprint', 'k:count'],
  'CompactSet#countContainedWithin': ['fingerprints:fingerprints', 'k:count'],
  'ContentSeen#check': ['url:name', 'htmlOrText:text'],
  'ContentSeen#checkFingerprint': ['url:name', 'fingerprint:fingerprint'],
  'ContentSeen#fingerprint': ['htmlOrText:text'],
  'ContentSeen#count': ['url:name'],
  'ContentSeen#clusterOf': ['url:name'],
  'ContentSeen.fromBytes': ['bytes:bytes'],
  'PassageChecker#addReference': ['text:text'],
  'PassageChecker#passages': ['doc:count'],
  'PassageChecker#passagesOf': ['text:text'],
  'PassageChecker#check': ['submission:text'],
};

/**
 * Methods with a twin in the wasm that takes the text argument (the last) as UTF-8 bytes
 * and reads them in place: given a `Uint8Array`, the guard calls the twin instead of
 * decoding the bytes to a JS string that the call would encode back.
 */
const BYTES_TWINS = {
  'SimHasher#fingerprint': 'fingerprintBytes',
  'ContentSeen#check': '__checkBytes',
  'ContentSeen#fingerprint': '__fingerprintBytes',
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

// Each spec's `[name, kind]` pairs, split once: a check runs on every call of the API, and
// splitting its strings cost most of it. Weak: a spec made for one call is dropped with it.
const SPLIT = new WeakMap();
function kindsOf(spec) {
  let kinds = SPLIT.get(spec);
  if (kinds === undefined) {
    kinds = spec.map((s) => s.split(':'));
    SPLIT.set(spec, kinds);
  }
  return kinds;
}

/**
 * Checks `args` against `spec`; throws for the first wrong one (or wrong item of one).
 * Returns the arguments to pass on: with `utf8` (the wasm's `__utf8`), texts given as
 * bytes are decoded to strings by it (invalid UTF-8 throws its InvalidUtf8).
 */
export function check(spec, args, SimHashError, utf8) {
  const kinds = kindsOf(spec);
  for (let i = 0; i < spec.length; i++) {
    const [name, kind] = kinds[i];
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
  if (!utf8) return args;
  let out = args;
  const decode = (t) => (typeof t === 'string' ? t : utf8(t));
  for (let i = 0; i < spec.length; i++) {
    const kind = kinds[i][1];
    if (kind === 'text' && typeof args[i] !== 'string') {
      if (out === args) out = Array.from(args);
      out[i] = decode(args[i]);
    } else if (kind === 'texts' && args[i].some((t) => typeof t !== 'string')) {
      if (out === args) out = Array.from(args);
      const name = kinds[i][0];
      // The failing item is named, and its position is the error's `index`.
      out[i] = args[i].map((t, j) => {
        try {
          return decode(t);
        } catch (e) {
          if (e instanceof SimHashError) {
            e.message = `${name}[${j}]: ${e.message}`;
            e.index = j;
          }
          throw e;
        }
      });
    }
  }
  return out;
}

/**
 * `e` as the package throws it. A WebAssembly trap (a `RuntimeError`, which says only
 * `unreachable`) stops the instance part-way through a call, and what the call held then is
 * never freed, so the instance is spent. Rust stops it at a panic (a bug: the full build's
 * `hooks.__panicMessage()` gives its message) or at an allocation it cannot serve (no panic:
 * an instance addresses at most 4 GiB). Each becomes the SimHashError that says so
 * (`Internal`, `OutOfMemory`), the trap as its `cause`; any other error is `e` itself. The
 * browser build keeps no panic message: there a stop holding 2 GiB or more is taken for
 * memory (one allocation is at most 2 GiB in wasm32, so one that fails for room leaves more
 * than 2 GiB held), and any other for a bug.
 */
export function trapped(e, SimHashError, hooks) {
  if (!(e instanceof WebAssembly.RuntimeError)) return e;
  const bytes = hooks.__memory().buffer.byteLength;
  const panic = hooks.__panicMessage ? hooks.__panicMessage() : bytes >= 2 ** 31 ? undefined : 'its message is kept by simhash-wasm/full';
  const spent = 'this instance of the package is spent (what it held is not freed): a SimHashPool replaces its worker; anywhere else, load the package in a new worker or process';
  const held = (bytes / 2 ** 30).toFixed(2);
  const error = panic === undefined
    ? new SimHashError(`out of memory: the wasm could not have the memory a call needed (it holds ${held} GiB; a WebAssembly instance addresses at most 4). Give one call less (fewer or shorter documents), or split the collection: the CLI's \`dedup --redis\` shares one store between several processes; ${spent}`, 'OutOfMemory')
    : new SimHashError(`the wasm stopped on a bug of simhash-wasm (${panic.replace(/\s*\n\s*/g, ' ')}); please report it with the input that caused it; ${spent}`, 'Internal');
  error.cause = e;
  return error;
}

/**
 * Puts the checks in front of the exports of `api` (the wasm module's exports, copied;
 * `hooks`, the module itself when `api` leaves out its `__` names, gives `__utf8`):
 * free functions are replaced in `api`, methods are wrapped on the classes' prototypes
 * (shared by every entry of the same build), constructors behind a Proxy in `api`.
 */
export function guard(api, SimHashError, hooks) {
  const utf8 = (hooks || api).__utf8;
  // Every call into the wasm made through here: a trap becomes the SimHashError that says what stopped it.
  const call = (f, self, args) => {
    try { return f.apply(self, args); } catch (e) { throw trapped(e, SimHashError, hooks || api); }
  };
  if (api.SimHasher) addExplain(api.SimHasher.prototype);
  for (const [where, spec] of Object.entries(SIGNATURES)) {
    const m = /^(new )?(\w+)(?:([#.])(\w+))?$/.exec(where);
    const [, isNew, owner, sep, member] = m;
    if (api[owner] === undefined) continue;
    if (isNew) {
      api[owner] = new Proxy(api[owner], {
        construct(target, args, newTarget) {
          return call(Reflect.construct, Reflect, [target, check(spec, args, SimHashError, utf8), newTarget]);
        },
      });
    } else if (sep === undefined) {
      const f = api[owner];
      api[owner] = { [owner](...args) { return call(f, this, check(spec, args, SimHashError, utf8)); } }[owner];
    } else {
      const target = sep === '#' ? api[owner].prototype : api[owner];
      const f = target[member];
      if (typeof f !== 'function' || f.guarded) continue;
      const twin = target[BYTES_TWINS[where]];
      const last = spec.length - 1;
      const wrapped = twin
        ? { [member](...args) {
          if (args[last] instanceof Uint8Array) return call(twin, this, check(spec, args, SimHashError));
          return call(f, this, check(spec, args, SimHashError, utf8));
        } }[member]
        : { [member](...args) { return call(f, this, check(spec, args, SimHashError, utf8)); } }[member];
      Object.defineProperty(wrapped, 'guarded', { value: true });
      Object.defineProperty(target, member, { value: wrapped, writable: true, configurable: true, enumerable: false });
    }
  }
  for (const [name, cls] of Object.entries(api)) {
    if (typeof cls === 'function' && cls.prototype && typeof cls.prototype.free === 'function') guardFree(name, cls.prototype, SimHashError, call);
  }
  return api;
}

/**
 * `SimHasher#explain`, one object per token, made from `explainArrays` (the wasm's one
 * explanation): its offsets are UTF-16, so `normalized.slice(start, end)` is the token's
 * text, as in every JS string API.
 */
function addExplain(proto) {
  if (Object.prototype.hasOwnProperty.call(proto, 'explain') || typeof proto.explainArrays !== 'function') return;
  const explain = {
    explain(text) {
      const a = this.explainArrays(text);
      const tokens = new Array(a.start.length);
      for (let i = 0; i < tokens.length; i++) {
        tokens[i] = {
          start: a.start[i],
          end: a.end[i],
          text: a.normalized.slice(a.start[i], a.end[i]),
          hash: a.hash[i],
          tf: a.tf[i],
          weight: a.weight[i],
          first: a.first[i] === 1,
        };
      }
      return { normalized: a.normalized, tokens, sums: Array.from(a.sums), fingerprint: a.fingerprint };
    },
  }.explain;
  Object.defineProperty(proto, 'explain', { value: explain, writable: true, configurable: true, enumerable: false });
}

const FREE_GUARDED = Symbol('simhash-wasm free guard');

/**
 * A freed instance (`free()`, or the end of a `using` block) refuses every later call with
 * a SimHashError (`Closed`) that names its class, and freeing it again does nothing.
 * wasm-bindgen marks a freed instance by a zero `__wbg_ptr`.
 */
function guardFree(name, proto, SimHashError, call) {
  if (Object.prototype.hasOwnProperty.call(proto, FREE_GUARDED)) return;
  Object.defineProperty(proto, FREE_GUARDED, { value: true });
  const freed = () => new SimHashError(`this ${name} was freed (by free() or at the end of a \`using\` block): make a new one to go on`, 'Closed');
  const live = (f) => {
    if (!f) return f;
    const w = { [f.name](...args) { if (this.__wbg_ptr === 0) throw freed(); return call(f, this, args); } }[f.name];
    if (f.guarded) Object.defineProperty(w, 'guarded', { value: true });
    return w;
  };
  for (const key of Reflect.ownKeys(proto)) {
    if (key === 'constructor' || key === '__destroy_into_raw' || key === FREE_GUARDED || (typeof Symbol.dispose === 'symbol' && key === Symbol.dispose)) continue;
    const d = Object.getOwnPropertyDescriptor(proto, key);
    if (key === 'free') {
      const f = d.value;
      d.value = function free() { if (this.__wbg_ptr !== 0) f.call(this); };
      if (typeof Symbol.dispose === 'symbol') Object.defineProperty(proto, Symbol.dispose, { value: d.value, writable: true, configurable: true });
    } else if (typeof d.value === 'function') {
      d.value = live(d.value);
    } else {
      d.get = live(d.get);
      d.set = live(d.set);
    }
    Object.defineProperty(proto, key, d);
  }
}
