// Type declarations of simhash-wasm's browser entries (hand-written): `simhash-wasm/web`,
// and `simhash-wasm` and `simhash-wasm/full` in browsers and bundlers. The Node entry's
// (../index.d.ts) are these plus the Node-only file helpers and RedisContentSeen.
// Fingerprints are 64-bit unsigned integers as `bigint`; batches of them are
// `BigUint64Array` (an array of bigints is accepted too). Every failure throws a
// `SimHashError`: a fingerprint outside 0n ..= 2n ** 64n - 1n, a number where a bigint
// belongs, or an argument of the wrong type is an `InvalidOption` naming the argument.
// Every default documented below is `defaults()`'s (a test compares them).
//
// Builds. `simhash-wasm` in Node, and `simhash-wasm/full` everywhere, have everything.
// `simhash-wasm` in browsers and bundlers is the small build (under 150 kB of gzipped
// wasm): the same names and the same fingerprints, bit for bit, but the parts marked
// "[full build]" below throw a `SimHashError` with code `FeatureDisabled` there. Those
// are HTML to text and the crawler's part: ContentSeen, dedup, index snapshots, sketches
// (`sketch`, `fingerprintAndSketch`, `estimateJaccard`, `sketchInfo`) and IDF (`IdfTable`,
// the hasher option `idf`).

declare global {
  // `Symbol.dispose` (the classes' `using` support), declared as TypeScript's
  // lib.esnext.disposable and @types/node declare it, so a project whose `lib` is older
  // type-checks these declarations too.
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

/** A 64-bit SimHash fingerprint (0n ..= 2n ** 64n - 1n). */
export type Fingerprint = bigint;

/**
 * A text, or HTML: a string, or its UTF-8 bytes (a `Uint8Array`; Node's `Buffer` is one,
 * so Crawlee's `body: string | Buffer` is taken as it is). Bytes that are not UTF-8 throw
 * `InvalidUtf8`, naming the offset of the first bad byte: decode other charsets first.
 */
export type Text = string | Uint8Array;

/** Options of a SimHasher. Every field is optional; the defaults are shown. */
export interface HasherOptions {
  /** `"chars"`: n-grams of grapheme clusters; `"words"`: n-grams of Unicode words (default "chars"). */
  mode?: 'chars' | 'words';
  /** Units per n-gram, an integer from 1 to 16 (default 6). */
  ngram?: number;
  /** How occurrences become weights: `"binary"`, `"tf"` or `"sublinear"` (default "sublinear": 1 + ln tf). */
  weighting?: 'binary' | 'tf' | 'sublinear';
  /** Punctuation: `"keep"`, `"drop"`, or `"collapse"` (default "collapse": runs become one mark). */
  punctuation?: 'keep' | 'drop' | 'collapse';
  /** Unicode NFKC normalisation first (default true). */
  nfkc?: boolean;
  /** Lower-case first (default true). */
  lowercase?: boolean;
  /**
   * Read every input as HTML and fingerprint its visible text, see `htmlToText`
   * (default false). Not part of the fingerprint scheme: a page and its text get the same
   * fingerprint.
   * [full build]
   */
  html?: boolean;
  /**
   * With `html: true`, which text of a page is read (default "all"): `"all"`, all its
   * visible text; `"main"`, its main content only (see `htmlToText`). Like `html`, not part
   * of the fingerprint scheme. [full build]
   */
  content?: 'main' | 'all';
  /**
   * Weigh each feature by tf × idf from this table (see `IdfTable`). The hasher takes the
   * table as it is now: later `add`s or `free()` do not change it. Not part of the
   * `scheme` string: fingerprints made with and without a table are not comparable.
   * [full build]
   */
  idf?: IdfTable;
}

/** The options in force, defaults filled in, plus the scheme string stored in snapshots. */
export interface ResolvedHasherOptions extends Required<Omit<HasherOptions, 'idf'>> {
  /** The fingerprint scheme, e.g. `"chars:6 sublinear punct=collapse nfkc lower sh64v1"`. */
  scheme: string;
}

/** One token of `explain()`. */
export interface ExplainedToken {
  /** UTF-16 offsets into `normalized`, as every JS string API counts: `normalized.slice(start, end)` is `text`. */
  start: number;
  end: number;
  /** The token's text. */
  text: string;
  /** Its 64-bit feature hash. */
  hash: bigint;
  /** Occurrences in the text. */
  tf: number;
  /** Its weight. */
  weight: number;
  /** `true` at the first occurrence (the one that counts). */
  first: boolean;
}

/** Every step of one fingerprint. */
export interface Explanation {
  /** The normalised text the tokens index into. */
  normalized: string;
  tokens: ExplainedToken[];
  /** The 64 per-bit weighted sums, bit 0 first. */
  sums: number[];
  fingerprint: Fingerprint;
}

/**
 * `explainArrays()`: the same steps as `explain()`, as parallel typed arrays with one item
 * per feature occurrence: no object per token, the form for long texts.
 */
export interface ExplanationArrays {
  /** The normalised text. */
  normalized: string;
  /** UTF-16 offsets into `normalized`: `normalized.slice(start[i], end[i])` is token i. */
  start: Uint32Array;
  end: Uint32Array;
  /** Each token's 64-bit feature hash. */
  hash: BigUint64Array;
  /** Each token's weight. */
  weight: Float64Array;
  /** Occurrences of each token's feature in the text. */
  tf: Uint32Array;
  /** 1 at a feature's first occurrence (the one that counts), else 0. */
  first: Uint8Array;
  /** The 64 per-bit weighted sums, bit 0 first. */
  sums: Float64Array;
  fingerprint: Fingerprint;
}

/** Computes SimHash fingerprints with fixed options; reuses its buffers between texts. */
export class SimHasher {
  /** Throws `SimHashError` (`InvalidOption`) for a bad or misspelt option. */
  constructor(options?: HasherOptions);
  /** The fingerprint of a text (HTML when `html: true`). Throws `EmptyText`, `TextTooShort`. */
  fingerprint(text: Text): Fingerprint;
  /** The fingerprint of UTF-8 bytes; invalid UTF-8 throws `InvalidUtf8`. */
  fingerprintBytes(bytes: Uint8Array): Fingerprint;
  /** Fingerprints of many texts in one call; the first failing text throws, naming its index. */
  fingerprintBatch(texts: Text[]): BigUint64Array;
  /** Every step of the fingerprint: normalised text, tokens, sums. */
  explain(text: Text): Explanation;
  /** `explain` as parallel typed arrays (for long texts). */
  explainArrays(text: Text): ExplanationArrays;
  /**
   * The similarity sketch of a text: `2 + size` bytes (a version byte, `size / 8`, then
   * the payload: distinct 4-gram count, odd sketch, 4-bit MinHash bins). Compare two with
   * `estimateJaccard`; read one with `sketchInfo`. A text shorter than 4 characters is one
   * shingle; an empty one throws `EmptyText`. [full build]
   */
  sketch(text: Text, options?: SketchOptions): Uint8Array;
  /** The fingerprint and the sketch from one pass over the text (cheaper than both calls). [full build] */
  fingerprintAndSketch(text: Text, options?: SketchOptions): { fingerprint: Fingerprint; sketch: Uint8Array };
  /** The options in force. */
  options(): ResolvedHasherOptions;
  /** Releases the wasm memory now (a FinalizationRegistry also does it after GC). */
  free(): void;
  /** `using h = new SimHasher()` frees at the end of the scope. */
  [Symbol.dispose](): void;
}

/** Options of `SimHasher.sketch`. */
export interface SketchOptions {
  /** Bytes per sketch (without the 2-byte header): a multiple of 8 from 32 to 256 (default 128). */
  size?: number;
}

/**
 * The estimated Jaccard similarity (0 to 1) of the 4-gram shingle sets of the texts two
 * sketches were made from: exact-ish (odd sketch) for short or very similar texts, MinHash
 * otherwise. Sketches of different sizes throw `SchemeMismatch`; truncated or damaged ones
 * `Corrupt`; another version `UnsupportedVersion`. [full build]
 */
export function estimateJaccard(a: Uint8Array, b: Uint8Array): number;

/** What a sketch holds (for teaching). */
export interface SketchInfo {
  /** The sketch scheme's version (1). */
  version: number;
  /** E.g. `"sk1:128"`. */
  scheme: string;
  /** Payload bytes. */
  size: number;
  /** Distinct 4-gram shingles of the text. */
  shingles: number;
  /** Bits of the odd sketch (each shingle flips one), and how many are set. */
  oddBits: number;
  oddSet: number;
  /** MinHash bins, and their 4-bit values. */
  bins: number;
  minhash: Uint8Array;
}

/** Reads a sketch's parts; bad bytes throw as in `estimateJaccard`. [full build] */
export function sketchInfo(sketch: Uint8Array): SketchInfo;

/**
 * Inverse document frequencies learnt from a corpus, for `new SimHasher({ idf })`:
 * `idf = 1 + ln((1 + documents) / (1 + df))`, features keyed by their 64-bit hash.
 * [full build]
 */
export class IdfTable {
  /** An empty table (every idf is 1). */
  constructor();
  /**
   * A table learnt from `texts`, cut into features with these hasher options (use the
   * options of the hashers that will use it). A text with no n-gram throws, naming its index.
   */
  static learn(texts: Text[], options?: Omit<HasherOptions, 'idf'>): IdfTable;
  /** Counts more documents (same options as `learn`); hashers made before keep the old table. */
  add(texts: Text[], options?: Omit<HasherOptions, 'idf'>): void;
  /** Versioned, checksummed bytes. */
  toBytes(): Uint8Array;
  /** Loads `toBytes` output; damaged bytes throw `Corrupt`. */
  static fromBytes(bytes: Uint8Array): IdfTable;
  /** Documents learnt from. */
  readonly documents: number;
  /** Distinct features seen. */
  readonly size: number;
  /** Document frequency of a feature hash (`explain().tokens[i].hash`). */
  df(hash: bigint): number;
  /** The idf of a feature hash. */
  idf(hash: bigint): number;
  free(): void;
  [Symbol.dispose](): void;
}

/** The fingerprint of caller-supplied `[feature, weight]` pairs. */
export function fromFeatures(features: Array<[string, number]>): Fingerprint;

/** SimHash over hash bits written out (teaching form), any width. */
export function simhashBits(features: Array<{ bits: string; weight: number }>): { sums: number[]; bits: string };

/** Number of differing bits (0..64). */
export function hamming(a: Fingerprint, b: Fingerprint): number;
/** `1 - hamming(a, b) / 64`. */
export function similarity(a: Fingerprint, b: Fingerprint): number;
/** 16 lower-case hex digits. */
export function toHex(fingerprint: Fingerprint): string;
/** Parses up to 16 hex digits, with or without `0x`; bad input throws `InvalidOption`. */
export function fromHex(hex: string): Fingerprint;
/** The version of the feature hash (part of every fingerprint scheme). */
export function hashVersion(): number;
/**
 * The visible text of an HTML document: script, style, noscript, template and head content
 * and comments dropped, entities decoded, block elements as line breaks, whitespace collapsed.
 * [full build]
 */
export function htmlToText(html: Text, options?: HtmlToTextOptions): string;

/** Options of `htmlToText`. */
export interface HtmlToTextOptions {
  /**
   * `"all"` (default): all the visible text. `"main"`: only the page's main content (its
   * article or body text), without the navigation, header, footer, sidebars, comments and
   * widgets of its template; works on any site, in any language, with no site rules.
   */
  content?: 'main' | 'all';
}

/** Index ids: all numbers (non-negative safe integers) or all strings, per index. */
export type Id = number | string;

/** A stored entry within k bits of a query. */
export interface Match<I extends Id = Id> {
  id: I;
  /** Hamming distance to the query. */
  distance: number;
}

/** Index layout: a named strategy or explicit block widths summing to 64. */
export type LayoutOption = 'default' | 'auto' | 'probe' | number[];

/** Options of a SimHashIndex. */
export interface IndexOptions {
  /** Matches differ in at most k bits, 0..63 (default 3). */
  k?: number;
  /** The tables (default "default": k + 1 equal blocks, the most compact). */
  layout?: LayoutOption;
  /** For `layout: "auto"`: the expected number of entries (default 1e6). */
  expectedSize?: number;
  /** For `layout: "auto"`: a memory budget in bytes. */
  memoryBudget?: number;
  /** Fix the id kind up front; otherwise the first id decides. */
  ids?: 'number' | 'string';
}

/** Costs and layout of an index. */
export interface IndexStats {
  layout: string;
  k: number;
  widths: number[];
  probe: boolean;
  size: number;
  tables: number;
  tableBlocks: number[][];
  keyBits: number[];
  expectedCandidatesPerTable: number[];
  expectedCandidates: number;
  probesPerQuery: number;
  bytes: number;
  bytesPerFp: number;
  segments: number;
  buffered: number;
  tombstones: number;
}

/** The multi-table near-duplicate index: every stored fingerprint within k bits, exactly. */
export class SimHashIndex {
  constructor(options?: IndexOptions);
  /** Adds an entry; an id already present throws `DuplicateId`. */
  insert(id: Id, fingerprint: Fingerprint): void;
  /** Adds many entries at once: `ids[i]` gets `fingerprints[i]`. */
  insertBatch(ids: Id[], fingerprints: BigUint64Array): void;
  /** Removes an entry and returns its fingerprint; unknown ids throw `UnknownId`. */
  remove(id: Id): Fingerprint;
  has(id: Id): boolean;
  get(id: Id): Fingerprint | undefined;
  /** Matches within k (or a smaller `k`), nearest first. A fingerprint outside 0n ..= 2n ** 64n - 1n throws `InvalidOption`. */
  query(fingerprint: Fingerprint, k?: number): Match[];
  queryBatch(fingerprints: BigUint64Array): Match[][];
  /** All matches of a batch as parallel arrays. */
  queryBatchFlat(fingerprints: BigUint64Array): { queries: Uint32Array; ids: Id[]; distances: Uint32Array };
  /** Reports the matches, then inserts. */
  queryAndInsert(id: Id, fingerprint: Fingerprint): Match[];
  /** Every pair within k bits. */
  selfJoin(): Array<{ a: Id; b: Id; distance: number }>;
  /** Connected components (2+ members) of the within-k graph. */
  clusters(): Id[][];
  stats(): IndexStats;
  readonly size: number;
  readonly idKind: 'number' | 'string' | undefined;
  /** A compact, versioned, checksummed snapshot. [full build] */
  toBytes(): Uint8Array;
  /** Loads a snapshot; damaged or foreign bytes throw `Corrupt`. [full build] */
  static fromBytes(bytes: Uint8Array): SimHashIndex;
  /**
   * `dedup` into this index, for runs that keep it (`saveIndex`/`loadIndex`): adds the
   * documents whose id it does not hold yet, then returns the clusters of everything in
   * it. Its layout decides `k`. String ids only (an index without ids yet takes them).
   * An index that records another fingerprint scheme throws `SchemeMismatch`. With
   * `verify` (the default), every candidate needs its text: a pair with a document only
   * in the index throws `InvalidOption`, so pass `verify: false` or all the texts.
   * [full build]
   */
  dedup(ids: string[], texts: Text[], options?: DedupIntoOptions): DedupResult;
  free(): void;
  [Symbol.dispose](): void;
}

/**
 * A compressed, sorted fingerprint set queried without decoding it. [full build: in the
 * small browser build the constructor and `fromBytes` throw `FeatureDisabled`;
 * `huffmanTable` is in both]
 */
export class CompactSet {
  constructor(fingerprints: BigUint64Array);
  static fromBytes(bytes: Uint8Array): CompactSet;
  toBytes(): Uint8Array;
  readonly size: number;
  bitsPerFingerprint(): number;
  containsWithin(fingerprint: Fingerprint, k: number): boolean;
  countContainedWithin(fingerprints: BigUint64Array, k: number): number;
  free(): void;
  [Symbol.dispose](): void;
}

/** The snapshot's Huffman code table. */
export function huffmanTable(fingerprints: BigUint64Array): Array<{ symbol: number; count: number; code: string }>;

/**
 * Options of a ContentSeen: the hasher options, the index's k and layout, and the
 * similarity sketch that confirms candidates.
 */
export interface ContentSeenOptions extends Omit<HasherOptions, 'idf'> {
  /**
   * Pages within k bits of a stored page are candidates (default 3); without a sketch
   * (`sketch: false`) they are the duplicates.
   */
  k?: number;
  /** The index's tables (default "default"; when loading, the snapshot's). */
  layout?: LayoutOption;
  /** For `layout: "auto"`: the expected number of pages. */
  expectedSize?: number;
  /** For `layout: "auto"`: a memory budget in bytes. */
  memoryBudget?: number;
  /**
   * With `html: true`, which text of a page is compared (default "main"): `"main"`, its
   * main content (the article, without the navigation, header, footer, sidebars, comments
   * and widgets of its template: see `htmlToText`), so that a print version or the same
   * article in another site's template is a duplicate and short pages of one template are
   * not; `"all"`, all its visible text. Snapshots record it: `fromBytes` with the other
   * value throws `SchemeMismatch` (a snapshot that records none, as version 0.1.0 saved
   * them, reads `"all"`).
   */
  content?: 'main' | 'all';
  /**
   * The similarity sketch kept per stored page, in bytes: a multiple of 8 from 32 to 256
   * (default 128). Candidates (pages within k bits, and pages sharing a MinHash band of
   * the sketch, which finds pages of Jaccard ≥ 0.8 however far their fingerprints are)
   * are duplicates when the estimated Jaccard similarity of their 4-gram shingles reaches
   * `threshold`. `true` says the default; `false`: the fingerprint-only test (8 bytes a
   * page; pages within k bits are the duplicates).
   */
  sketch?: number | boolean;
  /**
   * With a sketch, a candidate is a duplicate when its estimated Jaccard similarity is
   * at least this, above 0 and at most 1 (default 0.81); unused with `sketch: false`.
   */
  threshold?: number;
  /**
   * With `html: true` and the main content: the site templates are learnt from the pages
   * checked. A line seen on this many distinct pages of a URL's host (default 3, at least
   * 2) is template and not read, so short pages of one site (About, Contact) are told apart
   * by their own lines. A page is read with what was learnt before it, then learnt (a
   * duplicate only by the lines it was not judged by). A host learns from its first 64
   * distinct pages. Snapshots keep what was learnt. `false`: not learnt.
   */
  template?: boolean | number;
}

/** `ContentSeen.options()`: the settings in force, defaults filled in. */
export interface ResolvedContentSeenOptions extends ResolvedHasherOptions {
  k: number;
  /** The index layout in force, e.g. `"k=3 blocks=16,16,16,16 (4 tables)"`. */
  layout: string;
  /** The sketch size in bytes, or `false` for the fingerprint-only test. */
  sketch: number | false;
  /** The estimate a candidate needs to be a duplicate (unused without a sketch). */
  threshold: number;
  /** Which text of an HTML page is compared. */
  content: 'main' | 'all';
  /** With `html` and the main content, from how many pages of a host a line is template; `false`: not learnt. */
  template: number | false;
}

/** The answer of `ContentSeen.check` for a page with content. */
export interface PageCheckResult {
  /** `true`: a stored page is a near-duplicate; this page was counted, not stored. */
  duplicate: boolean;
  /** `false`: the page had content to compare. */
  empty: false;
  /**
   * The stored pages judged near-duplicates, best first (highest estimate, then
   * nearest); without a sketch, those within k bits, nearest first.
   */
  matches: Array<Match<string>>;
  fingerprint: Fingerprint;
  /** The stored URL this page is counted under (itself when new). */
  cluster: string;
  /** That cluster's "times seen" count after this check. */
  count: number;
  /** Hamming distance to the best match (null when new). */
  distance: number | null;
  /** Estimated Jaccard similarity to the best match (null when new, or without sketches on both sides). */
  estimate: number | null;
  /** The page's own sketch (`estimateJaccard`, `sketchInfo`); null with `sketch: false` or from `checkFingerprint`. */
  sketch: Uint8Array | null;
}

/**
 * The answer of `ContentSeen.check` for a page with no content to compare: its (visible)
 * text is empty, only scripts or markup, or shorter than one n-gram. Nothing was stored
 * or counted, and a URL stored before keeps what it held.
 */
export interface EmptyCheckResult {
  duplicate: false;
  empty: true;
  matches: [];
  fingerprint: null;
  cluster: null;
  count: 0;
  distance: null;
  estimate: null;
  sketch: null;
}

/** The answer of `ContentSeen.check`: test `empty` first to narrow it. */
export type CheckResult = PageCheckResult | EmptyCheckResult;

/** A stored page with its count. */
export interface SeenCluster {
  id: string;
  fingerprint: Fingerprint;
  /** Times seen: 1 + duplicate hits. */
  count: number;
  /** URLs found to be duplicates of it. */
  duplicates: string[];
}

/**
 * A crawler's content-seen test. New pages are stored; a duplicate is NOT stored, but
 * counted under the nearest stored page (and its URL remembered as an alias).
 * [full build]
 */
export class ContentSeen {
  constructor(options?: ContentSeenOptions);
  /**
   * Is a near-duplicate of this page known? Stores the page when new, counts it when a
   * duplicate. A page with no content to compare is answered `{ empty: true }` (not
   * stored), not thrown.
   */
  check(url: string, htmlOrText: Text): CheckResult;
  /** `check` for a fingerprint made elsewhere with the same settings (matched by fingerprint only, stored without a sketch). */
  checkFingerprint(url: string, fingerprint: Fingerprint): PageCheckResult;
  /** The fingerprint with these settings; nothing stored. Throws `EmptyText`, `TextTooShort`. */
  fingerprint(htmlOrText: Text): Fingerprint;
  /** Times the content of `url` was seen, or undefined for an unknown URL. */
  count(url: string): number | undefined;
  clusterOf(url: string): string | undefined;
  /** Stored pages, most seen first. */
  clusters(): SeenCluster[];
  readonly size: number;
  options(): ResolvedContentSeenOptions;
  toBytes(): Uint8Array;
  /**
   * Without `options`, the snapshot's settings. With them, another fingerprint scheme,
   * `html`, `content`, `k` or sketch size throws `SchemeMismatch`; `threshold` and
   * `template` are taken from the options.
   */
  static fromBytes(bytes: Uint8Array, options?: ContentSeenOptions): ContentSeen;
  free(): void;
  [Symbol.dispose](): void;
}

/** Options of `dedup`: the hasher options plus the search and its verification. */
export interface DedupOptions extends DedupIntoOptions {
  /**
   * Candidate pairs differ in at most k bits, 0 to 63, or (when verifying) their
   * similarity sketches share a MinHash band (default "auto": by the collection's size,
   * `defaults().dedup.kBySize`: 6 up to 200k documents, 4 up to 2M, then 3; with
   * `verify: false`, `kBySizeUnverified`: 13, 12, then 10). The band join finds the short
   * near-duplicates whose fingerprints sit far apart at a cost that grows with N log N,
   * where a wider k's self-join grows with N².
   */
  k?: number | 'auto';
  /** Index layout (default "auto": picked for the collection's size). */
  layout?: LayoutOption;
}

/** Options of `SimHashIndex.dedup`: those of `dedup` but `k` and `layout` (the index's). */
export interface DedupIntoOptions extends Omit<HasherOptions, 'idf'> {
  /**
   * Keep a pair only when the texts' shingle Jaccard is at least this, 0 to 1
   * (default 0.8); false keeps every pair within k; true is the default threshold. `"sketch"`:
   * verify by the texts' sketches instead (made in the fingerprint's pass, the texts are
   * not kept), keeping pairs whose estimate is at least 0.81; `"sketch:J"` at J. `"exact"`
   * is the default. Exact verification is exact (precision 1.0 on the dev corpus); the
   * sketch's estimate errs both ways.
   */
  verify?: number | boolean | 'exact' | 'sketch' | `sketch:${number}`;
  /** Grapheme clusters per shingle for the verification, 1 to 16 (default 4); out of range throws `InvalidOption`. */
  shingle?: number;
  /**
   * With `html: true`, which text of a page is compared (default "main"): its main
   * content (the article, not the template: see `htmlToText`), or `"all"` its visible text.
   */
  content?: 'main' | 'all';
}

/** What `dedup` found. */
export interface DedupResult {
  /** Groups of 2+ ids, each sorted, ordered by their first id. */
  clusters: string[][];
  /**
   * The pairs (`a < b`) that join each cluster, with their Hamming distance and Jaccard (null
   * when not verified). Verified: a spanning tree of the cluster's verified pairs, so a
   * cluster of m documents has m − 1 pairs (a pair whose documents are joined already is not
   * measured). Not verified: every candidate pair (each document's 64 nearest within k).
   */
  pairs: Array<{ a: string; b: string; distance: number; jaccard: number | null }>;
  /** The ids that got a fingerprint, in input order, and their fingerprints. */
  fingerprinted: string[];
  fingerprints: BigUint64Array;
  /** Documents that could not be fingerprinted (empty, too short), with the reason. */
  skipped: Array<{ id: string; error: string }>;
  /** `SimHashIndex.dedup` only: the given ids that were in the index already (not added again). */
  alreadyIndexed: string[];
  /** The layout used. */
  layout: string;
  /** The k used. */
  k: number;
  /** The verification threshold used, or false. */
  verify: number | false;
  /** What verified the pairs: `"exact"` (the texts), a sketch scheme like `"sk1:128"`, or false. */
  verifyBy: 'exact' | string | false;
}

/** Near-duplicate clusters of a collection (the CLI's `dedup`). [full build] */
export function dedup(ids: string[], texts: Text[], options?: DedupOptions): DedupResult;

/** Options of a PassageChecker. Unknown names are refused (`InvalidOption`). */
export interface PassageOptions {
  /** A reported span has at least this many non-whitespace characters, a Chinese,
   * Japanese or Korean one counting 2 (default 40). It also shares at least 8 shingles
   * with its reference span that fewer than half of the references hold (or fewer than 5:
   * with 4 references or fewer, a shingle all of them hold still counts), each counting
   * less the more references hold it (boilerplate such as a licence clause counts for
   * nothing). */
  minChars?: number;
  /** The least similarity for a copy, above 0 and at most 1: the share of a submission
   * passage's shingles (pairs of words next to each other or one apart; in Chinese,
   * Japanese and Korean, of characters)
   * found in the reference passage (default 0.5). */
  threshold?: number;
}

/** A span of a text: string (UTF-16) indices, and UTF-8 byte offsets. */
export interface Span {
  start: number;
  end: number;
  byteStart: number;
  byteEnd: number;
}

/** A sentence of a text, as the checker cuts it (at `. ! ? …` before a space, at
 * `。！？；`, and at line breaks), trimmed. */
export type Passage = Span;

/** A span of the submission copied from a span of a reference. Adjacent and overlapping
 * matched windows are merged into one span per side. */
export interface PassageMatch {
  /** Submission sentences `[first, last]` (indices into `PassageReport.passages`). */
  submission: [number, number];
  /** Reference sentences `[first, last]` (indices into `passages(doc)`). */
  reference: [number, number];
  /** Containment, 0 to 1: the share of the submission span's shingles found in the
   * reference span. A match has `similarity >= threshold`. */
  similarity: number;
  /** Their Jaccard similarity (shared shingles over all shingles of both spans). */
  jaccard: number;
  submissionSpan: Span;
  referenceSpan: Span;
}

/** The answer of `PassageChecker.check`. */
export interface PassageReport {
  /** The submission's sentences. */
  passages: Passage[];
  /** The share of the submission (UTF-16 units inside its sentences) copied from any reference, 0 to 1. */
  coverage: number;
  /** Only the references with at least one copied span, most covered first. */
  references: Array<{
    /** The reference's number (the order it was added in, from 0). */
    doc: number;
    /** The share of the submission covered by this reference's spans, 0 to 1. */
    coverage: number;
    /** The merged spans, in submission order. */
    matches: PassageMatch[];
  }>;
}

/** The plagiarism check: reference texts cut into sentences and indexed; `check` finds
 * the submission's passages copied from them, also after light edits, verified on the texts. */
export class PassageChecker {
  constructor(options?: PassageOptions);
  /** Adds a reference text; returns its number (0, 1, ...). */
  addReference(text: Text): number;
  /** Number of references added. */
  readonly size: number;
  /** The sentences of reference `doc` (empty for an unknown number). */
  passages(doc: number): Passage[];
  /** The sentences of a text, as `check` cuts it, without adding it. */
  passagesOf(text: Text): Passage[];
  check(submission: Text): PassageReport;
  free(): void;
  [Symbol.dispose](): void;
}

/** The default of every option, from the wasm core (the values documented above). */
export interface Defaults {
  hasher: ResolvedHasherOptions;
  index: { k: number; layout: 'default'; expectedSize: number };
  contentSeen: { k: number; layout: 'default'; sketch: number; threshold: number; content: 'main' | 'all'; template: number };
  dedup: {
    /** `"auto"`: by the collection's size, from `kBySize` (first row with `upTo >= N`), else `kBeyond`. */
    k: 'auto';
    kBySize: Array<{ upTo: number; k: number }>;
    kBeyond: number;
    /** `k: "auto"` with `verify: false` (no band join): from `kBySizeUnverified`, else `kBeyondUnverified`. */
    kBySizeUnverified: Array<{ upTo: number; k: number }>;
    kBeyondUnverified: number;
    verify: number | false;
    /** The threshold of `verify: "sketch"`. */
    sketchVerify: number;
    layout: 'auto';
    shingle: number;
    content: 'main' | 'all';
  };
  /** The CLI's `--load/--save` runs: fingerprints alone decide (the rest as `dedup`). */
  dedupFingerprintsOnly: { k: number; verify: number | false };
  passage: { minChars: number; threshold: number };
}

/** The defaults of every option, read from the wasm core. */
export function defaults(): Defaults;

/** What failed. */
export type SimHashErrorCode =
  | 'InvalidOption' | 'EmptyText' | 'TextTooShort' | 'InvalidUtf8' | 'InvalidWeight' | 'InvalidBits'
  | 'WeightOverflow' | 'InvalidLayout' | 'DuplicateId' | 'UnknownId' | 'Corrupt' | 'UnsupportedVersion'
  | 'SchemeMismatch'
  /** A part the small browser build leaves out; import `simhash-wasm/full` for it. */
  | 'FeatureDisabled'
  /** SimHashPool: the pool was closed (before the batch finished, or before the call). */
  | 'PoolClosed'
  /** SimHashPool: a worker stopped (crashed, or its script failed to load); it is replaced. */
  | 'WorkerFailed'
  /** RedisContentSeen: a Redis call failed (connection lost, client not connected, server full, ACL). A check may have been applied before its reply was lost: repeat it with `{ checkId }` from this error, and it gets the answer its first attempt got. */
  | 'RedisError'
  /**
   * Node's file helpers (`saveIndex`, `loadIndex`, `saveSeen`, `loadSeen`,
   * `writeFileAtomic`): a file could not be read or written. The message names the file and
   * the reason; the file system's own error is `cause`. A failed save leaves the old file.
   * In browsers: the import of the package could not fetch its `.wasm`.
   */
  | 'FileError'
  /**
   * The instance was closed: a RedisContentSeen after `close()` (open a new one with
   * `RedisContentSeen.open`), or any other class's instance after `free()` or the end of
   * its `using` block (make a new one). Freeing twice is allowed.
   */
  | 'Closed'
  /**
   * The wasm could not have the memory a call needed: a WebAssembly instance addresses at
   * most 4 GiB. The message gives the memory it holds. Give one call less, or split the
   * collection (the CLI's `dedup --redis`). The wasm instance is spent: a `SimHashPool`
   * replaces the worker it happened in; anywhere else, load the package in a new worker or
   * process.
   */
  | 'OutOfMemory'
  /** The wasm stopped on a bug of this package (please report it, with the input). The instance is spent, as after `OutOfMemory`. */
  | 'Internal';

/**
 * Every error thrown by this package. The instance stays usable after it, but after
 * `OutOfMemory` and `Internal`.
 */
export class SimHashError extends Error {
  /** `index`: the position of the failing document in a list, when there is one. */
  constructor(message: string, code: SimHashErrorCode, index?: number);
  readonly name: 'SimHashError';
  readonly code: SimHashErrorCode;
  /**
   * The position of the failing document in a list: a text of `fingerprintBatch` (on a
   * `SimHasher` or a `SimHashPool`) that can't be fingerprinted, or an item of a list of
   * texts (`dedup`, `fingerprintBatch`, …) that is bytes but not UTF-8. A wrong argument
   * of a list (`InvalidOption`) names the item's position in its message instead.
   */
  index?: number;
  /**
   * RedisContentSeen, a `RedisError` of a check only: the check's id. Repeat the check with
   * `{ checkId }` to get the answer its failed attempt got, if that attempt was applied.
   */
  checkId?: bigint;
}

/** Options of `SimHashPool.create`. */
export interface PoolOptions {
  /** Workers, 1 to 1024 (default: the cores available: `os.availableParallelism()`, `navigator.hardwareConcurrency`). */
  size?: number;
  /**
   * The options of every worker's SimHasher (checked as `new SimHasher(hasher)` checks them).
   * An `idf` table is copied to each worker: freeing it afterwards changes nothing.
   */
  hasher?: HasherOptions;
}

/**
 * Fingerprints on every core: workers (Node `worker_threads`; browsers: module Web Workers
 * loading this same build), each with its own wasm instance. A batch is cut into chunks of
 * whole documents; the results come back in input order and equal the single-thread ones,
 * bit for bit. The pool keeps working after a bad document. Concurrent calls share the
 * workers. Idle workers do not keep a Node process alive, but `close()` when done.
 *
 * ```js
 * const pool = await SimHashPool.create({ hasher: { ngram: 6 } });
 * const fps = await pool.fingerprintBatch(texts);   // BigUint64Array
 * await pool.close();
 * ```
 */
export class SimHashPool {
  /** Starts `size` workers and waits until each has loaded the wasm. Bad options reject (`InvalidOption`). */
  static create(options?: PoolOptions): Promise<SimHashPool>;
  /** The number of workers. */
  readonly size: number;
  /**
   * `new SimHasher(hasher).fingerprintBatch(texts)` on the workers: a BigUint64Array in input
   * order. A bad document rejects with the same error (`document #i: ...`, `error.index` = i).
   */
  fingerprintBatch(texts: Text[]): Promise<BigUint64Array>;
  /**
   * Fingerprints going on past bad documents: each failed one is listed with its own error
   * (as `hasher.fingerprint(text)` throws it), and its slot in `fingerprints` is 0n.
   */
  fingerprintEach(texts: Text[]): Promise<{ fingerprints: BigUint64Array; failed: Array<{ index: number; error: SimHashError }> }>;
  /**
   * `fingerprintEach` with each document's sketch too: `sketches[i]` equals
   * `hasher.fingerprintAndSketch(texts[i], options).sketch` (a view of one shared buffer;
   * empty for a failed document). Bad options reject (`InvalidOption`). [full build]
   */
  fingerprintAndSketchEach(texts: Text[], options?: SketchOptions): Promise<{ fingerprints: BigUint64Array; sketches: Uint8Array[]; failed: Array<{ index: number; error: SimHashError }> }>;
  /**
   * `dedup(ids, texts, options)` on the workers: they fingerprint the texts, find the
   * candidate pairs (each a part of the tables and bands) and measure them; this thread
   * plans and reports. The same result. [full build]
   */
  dedup(ids: string[], texts: Text[], options?: DedupOptions, progress?: {
    /**
     * Told how the work goes: "hashing" (documents fingerprinted and sketched, per chunk),
     * "candidates" (the candidate step's parts done, one a worker), "verifying" (candidate
     * pairs measured, the total growing by each round's pairs).
     */
    onProgress?: (phase: 'hashing' | 'candidates' | 'verifying', done: number, total: number) => void;
  }): Promise<DedupResult>;
  /** `index.dedup(ids, texts, options)` with the fingerprints made on the workers (the pairs are measured on this thread). [full build] */
  dedupInto(index: SimHashIndex, ids: string[], texts: Text[], options?: DedupIntoOptions): Promise<DedupResult>;
  /** Stops the workers; running batches and later calls reject with `PoolClosed`. */
  close(): Promise<void>;
}
