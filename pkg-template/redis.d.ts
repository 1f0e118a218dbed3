// RedisContentSeen: one ContentSeen shared by every crawler process and host, on Redis.
// Node only. Peer dependency: `redis` (node-redis); ioredis clients work too.
import type { HasherOptions, ResolvedContentSeenOptions } from './web/index';

/** Options of {@link RedisContentSeen.open}: ContentSeen's, plus the namespace. */
export interface RedisContentSeenOptions
  extends Pick<HasherOptions, 'mode' | 'ngram' | 'weighting' | 'punctuation' | 'nfkc' | 'lowercase'> {
  /** Several crawls can share one Redis; every key is `{namespace}:…` (default "simhash"). No braces. */
  namespace?: string;
  /** Keep URLs, counts and clusters (default true). `false`: "seen or not" only, smallest memory (fingerprint-only store). */
  urls?: boolean;
  /**
   * The most pages one script call checks (default 32, 1 to 1000). Checks issued together
   * (`checkBatch`, or `check`s started in the same turn of the event loop) share calls of up
   * to this many pages, each call one atomic step on the server. Not stored: workers may differ.
   */
  batch?: number;
  /**
   * The similarity sketch, as in ContentSeen (the same defaults, so the same options give
   * the same decisions): by default 128 bytes (`true` says the same), or a size in bytes
   * (32 to 128, a multiple of 8): ContentSeen's two-step flow, shared (candidates within k
   * and from MinHash bands, duplicates when the estimated Jaccard similarity reaches
   * `threshold`), about 490 bytes a page in Redis with the URL map. `false`: fingerprints
   * only (29 bytes a page plus the URL map), the default with `urls: false`.
   */
  sketch?: boolean | number;
  /** Sketch mode's threshold on the estimated Jaccard similarity (default 0.81). */
  threshold?: number;
  /**
   * Repeats of a failed Redis call, or waits for a client that is reconnecting (50 ms
   * doubling to 500 ms), before a `RedisError` is thrown (default 0, at most 1000). A
   * repeated call gets the answer its first attempt got, even when only the reply was
   * lost: every stored page is reported new to exactly one check, and a check is counted
   * once (a URL remembers its last four counted checks: a fifth check of the same URL
   * counted between a lost reply and its repeat can make the repeat count once more). A
   * repeated duplicate's `count` is its cluster's count now, and its `cluster` the page
   * its first attempt counted it under, unless a later check of the URL was counted under
   * another page meanwhile (then that page). With `urls: false` a check that stored its
   * page is remembered for 10 minutes (1,000 waits of at most 500 ms fit in them).
   */
  retries?: number;
  k?: number;
  layout?: 'default' | 'auto' | number[];
  /** For `layout: "auto"`: the expected number of stored pages (default 1e6), as in SimHashIndex. */
  expectedSize?: number;
  /** For `layout: "auto"`: a memory budget in bytes for the tables, as in SimHashIndex. */
  memoryBudget?: number;
  html?: boolean;
  /** As in ContentSeen: with `html`, which text of a page is read (default "main"); stored in the namespace. */
  content?: 'main' | 'all';
  /**
   * As in ContentSeen: with `html` and the main content, the site templates are learnt,
   * shared by every worker (per host, in Redis): a line seen on this many distinct pages of
   * a URL's host is template and not read (default 3; `false`: not learnt). Stored in the namespace.
   */
  template?: boolean | number;
}

/**
 * The result of a shared check: ContentSeen's fields, with the same meaning, and the calls
 * it took. `cluster` and `count` are null when `urls: false`.
 */
export interface RedisCheck {
  duplicate: boolean;
  /**
   * As in ContentSeen: true when the page has no content to compare (no feature, or fewer
   * units than one n-gram): nothing was stored or counted; `fingerprint` and `cluster` are
   * null and `count` 0.
   */
  empty: boolean;
  /**
   * The stored pages judged near-duplicates, best first (sketch mode: highest estimate,
   * then nearest; fingerprint-only: those within k, nearest first); `id` is null when
   * `urls: false`.
   */
  matches: { id: string | null; fingerprint: bigint; distance: number }[];
  fingerprint: bigint | null;
  cluster: string | null;
  count: number | null;
  /**
   * Hamming distance to the page this one is counted under: null when new or empty, and in
   * sketch mode for a check repeated with `checkId` and answered from its lost attempt
   * (whose matches the repeat did not measure; `matches` is empty then too).
   */
  distance: number | null;
  /** Sketch mode: the estimated Jaccard similarity to that page (null when new or empty, when either page has no sketch, and in fingerprint-only mode). */
  estimate: number | null;
  /** Sketch mode: the page's own sketch, as ContentSeen's (null from `checkFingerprint`, for an empty page, and in fingerprint-only mode). */
  sketch: Uint8Array | null;
  /** Script calls this check took (1 for a new page without candidates; at most 3 in sketch mode unless other workers keep storing candidates). */
  roundTrips: number;
}

/** `RedisContentSeen#options()`: the settings in force, defaults filled in. */
export interface ResolvedRedisContentSeenOptions extends ResolvedContentSeenOptions {
  namespace: string;
  urls: boolean;
  batch: number;
  retries: number;
}

/**
 * The same meaning as ContentSeen, async, shared through Redis. Decisions are atomic and
 * linearizable across workers. Errors are SimHashError: `RedisError` (connection, after
 * the retries; a full server, which stored nothing), `SchemeMismatch` (the namespace was made with other settings),
 * `UnsupportedVersion` (a newer store format), `InvalidOption` (a bad argument: the same
 * checks as ContentSeen; URLs and namespaces with lone surrogates are refused), `Closed`
 * (after `close()`).
 */
export declare class RedisContentSeen {
  /**
   * Opens (or creates) a namespace with a connected node-redis or ioredis client or cluster.
   * A server that evicts any key once full (`maxmemory` with an `allkeys-*` policy) draws
   * a process warning (code `SIMHASH_REDIS_EVICTION`): it would lose the store's pages.
   */
  static open(client: unknown, options?: RedisContentSeenOptions): Promise<RedisContentSeen>;
  /** true when this open created the namespace. */
  readonly created: boolean;
  /**
   * Checks decided, their script calls summed per check (`roundTrips`), the script calls
   * sent (`calls`, shared by batched checks), and the checks whose repeated call found its
   * first attempt applied and was answered from it (`replayed`).
   */
  readonly stats: { checks: number; roundTrips: number; calls: number; replayed: number };
  /** Redis calls repeated after a failed attempt (with `retries`). */
  readonly retriedCalls: number;
  options(): ResolvedRedisContentSeenOptions;
  fingerprint(text: string | Uint8Array): bigint;
  /**
   * `options.checkId`: the `checkId` of a `RedisError` this check threw (its retries
   * exhausted): the repeat gets the answer its lost attempt got, if that was applied.
   *
   * A URL is 1 to 16,384 bytes of UTF-8 (a stored record holds it): an empty or longer URL
   * is an `InvalidOption`, where `ContentSeen` keeps any string.
   */
  check(url: string, htmlOrText: string | Uint8Array, options?: { checkId?: bigint }): Promise<RedisCheck>;
  checkFingerprint(url: string, fingerprint: bigint, options?: { checkId?: bigint }): Promise<RedisCheck>;
  /** The pages share script calls of up to `batch` pages; one entry per page, a failed (or malformed) page as `{ url, error }`. */
  checkBatch(
    pages: ({ url: string; text: string | Uint8Array; checkId?: bigint } | { url: string; fingerprint: bigint; checkId?: bigint })[],
  ): Promise<(RedisCheck | { url: string; error: Error })[]>;
  count(url: string): Promise<number | undefined>;
  clusterOf(url: string): Promise<string | undefined>;
  /** Number of stored pages. */
  readonly size: Promise<number>;
  /** Stored pages, streamed (HSCAN), in no particular order. */
  clusters(options?: { batch?: number }): AsyncIterable<{ id: string; fingerprint: bigint; count: number }>;
  /** Loads a ContentSeen snapshot (same settings) into an empty namespace, with its site templates; calls of at most `batch` pages or template blocks. */
  importSnapshot(bytes: Uint8Array, options?: { batch?: number }): Promise<void>;
  /** The namespace as a ContentSeen snapshot, with its site templates (run it while no worker writes). */
  exportSnapshot(): Promise<Uint8Array>;
  /** Frees the wasm side; the client stays open. */
  close(): void;
}
