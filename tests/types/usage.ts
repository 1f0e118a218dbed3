// Type test of pkg-template/index.d.ts and web/index.d.ts (`tsc --noEmit -p tests/types`):
// every line must type-check, and every `@ts-expect-error` line must be an error.
import {
  SimHasher, SimHashIndex, ContentSeen, CompactSet, SimHashError, htmlToText, hamming, similarity,
  toHex, fromHex, fromFeatures, simhashBits, hashVersion, saveIndex, loadIndex, saveSeen, loadSeen,
  type Fingerprint, type Match, type CheckResult, type HasherOptions,
  PassageChecker, estimateJaccard, sketchInfo, IdfTable, dedup, type PassageReport, type DedupResult, defaults, type Defaults,
  SimHashPool, type ExplanationArrays, type RedisContentSeenOptions, type ResolvedRedisContentSeenOptions, type PageCheckResult, RedisContentSeen,
} from 'simhash-wasm';
import * as full from 'simhash-wasm/full';
import * as web from 'simhash-wasm/web';

const opts: HasherOptions = { ngram: 6, mode: 'chars', weighting: 'sublinear', punctuation: 'collapse', html: true };
const h = new SimHasher(opts);
const fp: Fingerprint = h.fingerprint('text');
const batch: BigUint64Array = h.fingerprintBatch(['a', 'b']);
const d: number = hamming(fp, batch[0]);
const s: number = similarity(fp, fromHex(toHex(fp)));
const scheme: string = h.options().scheme;
const explained = h.explain('the cat');
const firstHash: bigint = explained.tokens[0].hash;
const ff: bigint = fromFeatures([['a', 1]]);
const bits: string = simhashBits([{ bits: '101', weight: 1 }]).bits;
const v: number = hashVersion();
const text: string = htmlToText('<p>x</p>');

const ix = new SimHashIndex({ k: 3, layout: 'auto', expectedSize: 1000, ids: 'string' });
ix.insert('a', fp);
const ms: Match[] = ix.query(fp);
const dist: number = ms[0].distance;
ix.insertBatch(['b', 'c'], batch);
const back = SimHashIndex.fromBytes(ix.toBytes());
const size: number = back.size;
saveIndex(ix, '/tmp/x.bin');
const loaded: SimHashIndex = loadIndex('/tmp/x.bin');

const seen = new ContentSeen({ k: 3, html: true, ngram: 6 });
const r: CheckResult = seen.check('https://a/', '<p>hi</p>');
const dup: boolean = r.duplicate;
const n: number | undefined = seen.count('https://a/');
saveSeen(seen, '/tmp/s.bin');
const s2: ContentSeen = loadSeen('/tmp/s.bin', { k: 3, html: true });
const clusterCount: number = s2.clusters()[0].count;
const set = new CompactSet(batch);
const inSet: boolean = set.containsWithin(fp, 3);

const pc = new PassageChecker({ minChars: 30, threshold: 0.6 });
const refNo: number = pc.addReference('One. Two. Three.');
const report: PassageReport = pc.check('One. Two.');
const coverage: number = report.references[0].coverage;
const spanStart: number = report.references[0].matches[0].submissionSpan.start;
const sim: number = report.references[0].matches[0].similarity;
const [firstSentence, lastSentence]: [number, number] = report.references[0].matches[0].submission;
const total: number = report.coverage;
const passageDefaults: { minChars: number; threshold: number } = defaults().passage;
const deduped: DedupResult = dedup(['a', 'b'], ['x y z', 'x y z'], { k: 10, verify: 0.8, html: true });
const firstCluster: string[] = deduped.clusters[0];
const resumed: DedupResult = ix.dedup(['d'], ['x y z'], { verify: false, ngram: 6 });
const already: string[] = resumed.alreadyIndexed;
const usedVerify: number | false = resumed.verify;
const D: Defaults = defaults();
const defaultK: number = D.dedup.kBySize[0].k + D.dedup.kBeyond;
const autoK: 'auto' = D.dedup.k;
// @ts-expect-error the index decides k in SimHashIndex.dedup
ix.dedup(['d'], ['x'], { k: 3 });
const fullSeen: full.ContentSeen = new full.ContentSeen({ k: 3 });

try {
  h.fingerprint('');
} catch (e) {
  if (e instanceof SimHashError) {
    const code: 'EmptyText' | string = e.code;
    const disabled: boolean = e.code === 'FeatureDisabled';
    const err: Error = e;
  }
}
h.free();
{
  using scoped = new SimHasher();
  scoped.fingerprint('x');
}

// @ts-expect-error fingerprints are bigint, not number
const wrong: number = h.fingerprint('x');
// @ts-expect-error unknown option
new SimHasher({ ngramm: 3 });
// @ts-expect-error weighting is one of three names
new SimHasher({ weighting: 'idf' });
// @ts-expect-error batches are BigUint64Array, not number[]
ix.insertBatch(['a'], [1]);
// @ts-expect-error check needs a url and a text
seen.check('https://a/');
// @ts-expect-error results have `distance`, not `dist`
ms[0].dist;
// The worker pool and explain's typed arrays.
async function pooled(texts: string[]): Promise<bigint> {
  const pool = await SimHashPool.create({ size: 2, hasher: { ngram: 5 } });
  const fps: BigUint64Array = await pool.fingerprintBatch(texts);
  const each = await pool.fingerprintEach(texts);
  const badIndex: number = each.failed[0].index;
  const sketched = await pool.fingerprintAndSketchEach(texts, { size: 64 });
  const sketch: Uint8Array = sketched.sketches[0];
  // @ts-expect-error the sketch size is a number
  await pool.fingerprintAndSketchEach(texts, { size: '64' });
  const report: DedupResult = await pool.dedup(['a'], texts, { k: 3 });
  const workers: number = pool.size + badIndex + report.k + sketch.length;
  await pool.close();
  // @ts-expect-error the pool's results are promises
  const sync: BigUint64Array = pool.fingerprintBatch(texts);
  // @ts-expect-error size is a number
  await SimHashPool.create({ size: '2' });
  return fps[0] + BigInt(workers) + sync[0];
}
const arrays: ExplanationArrays = h.explainArrays('the cat');
const firstStart: number = arrays.start[0];
const poolCode: SimHashError['code'] = 'PoolClosed';
// @ts-expect-error the checker takes no fingerprint options
new PassageChecker({ k: 3 });
// @ts-expect-error matches carry a similarity, not a distance
report.references[0].matches[0].distance;
// @ts-expect-error codes are a closed set
const badCode: SimHashError['code'] = 'NoSuchCode';

// Sketches and IDF.
const sk: Uint8Array = h.sketch('some text', { size: 64 });
const both: { fingerprint: bigint; sketch: Uint8Array } = h.fingerprintAndSketch('some text');
const est: number = estimateJaccard(sk, both.sketch);
const shingles: number = sketchInfo(sk).shingles;
const table: IdfTable = IdfTable.learn(['a text', 'another text'], { ngram: 3 });
const weighted = new SimHasher({ idf: IdfTable.fromBytes(table.toBytes()) });
const idfOf: number = table.idf(1n) + table.documents;
const bySketch: DedupResult = dedup(['a'], ['x y z'], { verify: 'sketch:0.85' });
const verifiedBy: string | false = bySketch.verifyBy;
// @ts-expect-error sizes are numbers
h.sketch('x', { size: '64' });
// @ts-expect-error the learn options have no idf
IdfTable.learn(['x'], { idf: table });

// Crawlee's page body (`string | Buffer`), ContentSeen's sketch settings, and results.
declare const body: string | Buffer;
const sketched = new ContentSeen({ html: true, sketch: 128, threshold: 0.85, k: 3 });
const fpOff = new ContentSeen({ sketch: false });
const crawled: CheckResult = sketched.check('https://a/', body);
if (crawled.empty) {
  const none: null = crawled.fingerprint;
  const nothing: 0 = crawled.count;
} else {
  const fpOfPage: Fingerprint = crawled.fingerprint;
  const cluster: string = crawled.cluster;
  const estimate: number | null = crawled.estimate;
  const distance: number | null = crawled.distance;
  const pageSketch: Uint8Array | null = crawled.sketch;
}
// @ts-expect-error without narrowing, a result's fingerprint may be null
const unsure: Fingerprint = crawled.fingerprint;
const byFp: bigint = sketched.checkFingerprint('https://b/', fp).fingerprint;
const inForce: number | false = sketched.options().sketch;
const thresholdInForce: number = fpOff.options().threshold + D.contentSeen.threshold + D.contentSeen.sketch;
const fromBuffer: bigint = h.fingerprint(Buffer.from('text')) + sketched.fingerprint(new Uint8Array([104, 105]));
const textOfBytes: string = htmlToText(Buffer.from('<p>x</p>'));
const dedupedBytes: DedupResult = dedup(['a', 'b'], [Buffer.from('x y z'), 'x y z']);
new ContentSeen({ sketch: true });   // the default sketch
// @ts-expect-error the sketch is a size, true or false, not a word
new ContentSeen({ sketch: 'yes' });
// @ts-expect-error a number is not a text
sketched.check('https://a/', 42);

// RedisContentSeen takes the hasher's text options, typed as SimHasher's.
const redisOptions: RedisContentSeenOptions = { namespace: 'crawl', mode: 'words', ngram: 3, weighting: 'tf', punctuation: 'keep', nfkc: false, lowercase: true };
// @ts-expect-error an n-gram size is a number
const badRedisOptions: RedisContentSeenOptions = { ngram: 'six' };

// A crawler hands RedisContentSeen its response bodies as they come: bytes, one by one or in a batch.
async function redisBodies(seen: RedisContentSeen, body: Buffer): Promise<void> {
  const r = await seen.check('https://a/', body);
  // The same fields as ContentSeen's answer, and the settings in force, typed.
  const same: Pick<PageCheckResult, 'distance' | 'estimate' | 'sketch'> = r;
  const settings: ResolvedRedisContentSeenOptions = seen.options();
  settings.namespace satisfies string;
  same.sketch satisfies Uint8Array | null;
  const [first] = await seen.checkBatch([{ url: 'https://a/', text: body }, { url: 'https://b/', text: 'text' }, { url: 'https://c/', fingerprint: 1n }]);
  if (!('error' in first)) first.duplicate satisfies boolean;
  // @ts-expect-error a number is not a text
  await seen.checkBatch([{ url: 'https://a/', text: 42 }]);
}

// The browser entry declares the shared API and leaves out what only Node has.
const webFp: bigint = new web.SimHasher().fingerprint('text');
// @ts-expect-error simhash-wasm/web has no file helpers
web.saveIndex;
// @ts-expect-error nor RedisContentSeen
web.RedisContentSeen;

export { redisBodies, redisOptions, badRedisOptions, webFp, unsure, byFp, inForce, thresholdInForce, fromBuffer, textOfBytes, dedupedBytes };
export { pooled, firstStart, poolCode, autoK, est, shingles, weighted, idfOf, verifiedBy, already, usedVerify, defaultK, refNo, coverage, spanStart, firstCluster, fullSeen, d, s, scheme, firstHash, ff, bits, v, text, dist, size, loaded, dup, n, clusterCount, inSet, wrong, badCode };
