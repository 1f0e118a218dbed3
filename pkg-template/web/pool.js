// SimHashPool: fingerprints on every core. Each worker (Node: worker_threads; browsers:
// module Web Workers) loads its own instance of the package's wasm; a batch is cut into
// chunks of whole documents, the chunks go to whichever worker is free, and the results
// come back in input order. The workers run the core's own loop over their chunk
// (`SimHasher#__fingerprintEach`); for `dedup` they also find the candidate pairs from
// the fingerprints and sketches, a part of the work each (`__candidates`), the calling
// thread plans with them (`__dedupPlan`), the workers measure the pairs on the texts
// (`__jaccards`) a round at a time, and the plan keeps the pairs and makes the report.
// The CLI's JSON-lines files go to the workers as bytes, chunks of whole lines that the
// wasm reads where they lie (`__jsonlEach`, `__jaccardsJsonl`; the Node build only).
// This file moves texts, bytes and results, and decides nothing about them, so the
// results are the single-thread ones, bit for bit.
//
// Written once, as an ES module: the browser entries import it (web/pool.js, full/pool.js)
// and scripts/build.sh generates the Node entry's CommonJS form (pool.cjs) from it with
// scripts/esm-to-cjs.mjs. It uses nothing but the language: the entries give it the way
// to start a worker (`spawn`).

/** A chunk holds whole documents, about this many characters (fewer for small batches). */
const CHUNK_CHARS_MAX = 1 << 20;
const CHUNK_CHARS_MIN = 1 << 14;
/** ... and at most this many documents (bounds the per-message overhead's share). */
const CHUNK_DOCS_MAX = 4096;
/** Hashers a worker keeps, one per distinct option object. */
const WORKER_HASHERS = 8;
/** The codes of an error that leaves a worker's wasm instance spent (args.js's `trapped`). */
const SPENT = new Set(['OutOfMemory', 'Internal']);
/** The pool's argument specs (args.js's `check`), made once: the checks cache each spec's split. */
const SPEC = {
  options: ['options:object'],
  size: ['size:size'],
  texts: ['texts:texts'],
  dedup: ['ids:strings', 'texts:texts', '-', 'onProgress:function?'],
  batch: ['ids:strings', 'texts:texts'],
  ids: ['ids:strings'],
  index: ['index:index'],
};

/** The bytes of `parts` one after another. */
function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/**
 * The worker side: answers the pool's messages with `api` (the package's API in the
 * worker) and `hooks` (its wasm module, for the pool's own calls). `post(message,
 * transfer)` replies. `fault(e)` is a thrown `e` as the package throws it (args.js's
 * `trapped`): the reply to a call that stopped the wasm says so, and the pool then
 * replaces the worker (`SPENT`).
 */
export function serve(api, post, hooks = api, fault = (e) => e) {
  const hashers = new Map();
  // The pool's IdfTable (`idf` of SimHashPool.create's hasher), sent once, before any task:
  // options with `idf: true` use it.
  let idf = null;
  let idfError = null;
  return (msg) => {
    if (msg.kind === 'idf') {
      try { idf = api.IdfTable.fromBytes(msg.bytes); } catch (e) { idfError = e; }
      return;
    }
    try {
      if (msg.kind === 'jaccards') {
        const jaccards = msg.bytes ? hooks.__jaccardsJsonl(msg.bytes, msg.pairs, msg.shingle, msg.html)
          : hooks.__jaccards(msg.texts, msg.pairs, msg.shingle, msg.html);
        post({ id: msg.id, jaccards }, [jaccards.buffer]);
        return;
      }
      if (msg.kind === 'candidates') {
        const candidates = hooks.__candidates(msg.fingerprints, msg.sketches, msg.options, msg.part, msg.parts);
        post({ id: msg.id, candidates }, [candidates.buffer]);
        return;
      }
      const key = JSON.stringify(msg.options ?? null);
      let h = hashers.get(key);
      if (h === undefined) {
        // The hasher keeps its own copy of the table.
        const poolIdf = msg.options?.idf === true;
        if (poolIdf && idfError) throw idfError;
        h = new api.SimHasher(poolIdf ? { ...msg.options, idf } : msg.options);
        if (hashers.size >= WORKER_HASHERS) {
          const [oldKey, old] = hashers.entries().next().value;
          hashers.delete(oldKey);
          old.free();
        }
        hashers.set(key, h);
      }
      if (msg.kind === 'jsonl') {
        const r = h.__jsonlEach(msg.bytes, msg.sketch, msg.sketchOnly);
        // A number id's JSON text as JS writes the number; a string id with a lone
        // surrogate decoded by JS, the one place that can hold it.
        const ids = r.ids.map((id) => (id === undefined || typeof id === 'string' ? id
          : id.number !== undefined ? String(Number(id.number)) : JSON.parse(id.json)));
        post({ id: msg.id, fingerprints: r.fingerprints, sketches: r.sketches, failed: r.failed, reasons: r.reasons, codes: r.codes,
          ids, offsets: r.offsets, lengths: r.lengths, lines: r.lines, bad: r.error },
        [r.fingerprints.buffer, r.failed.buffer, r.offsets.buffer, r.lengths.buffer, ...(r.sketches ? [r.sketches.buffer] : [])]);
        return;
      }
      const r = msg.sketch === undefined ? h.__fingerprintEach(msg.texts, msg.base)
        : h.__fingerprintAndSketchEach(msg.texts, msg.base, msg.sketch);
      post({ id: msg.id, fingerprints: r.fingerprints, sketches: r.sketches, failed: r.failed, messages: r.messages, reasons: r.reasons, codes: r.codes },
        [r.fingerprints.buffer, r.failed.buffer, ...(r.sketches ? [r.sketches.buffer] : [])]);
    } catch (thrown) {
      const e = fault(thrown);
      post({ id: msg.id, error: { message: String(e && e.message), code: e && e.code } });
    }
  };
}

/**
 * The pool's handle on a Node `worker_threads` Worker `w` (the Node entry's workers): how
 * `makePool`'s `spawn` gives it one.
 */
export function nodeWorkerHandle(w) {
  return {
    post: (msg, transfer) => w.postMessage(msg, transfer),
    listen(onMessage, onFail) {
      w.on('message', onMessage);
      w.on('error', onFail);
      w.on('exit', (code) => onFail(new Error(`exited with code ${code}`)));
    },
    terminate: () => w.terminate(),
    ref: () => w.ref(),
    unref: () => w.unref(),
  };
}

/**
 * `dedup`'s report from a plan's (`__DedupPlan#finish`), whose ids come in bulk: `ids`
 * joins every id it names, `lengths` holding their UTF-16 lengths, in this order: the
 * `fingerprinted` documents', each cluster's members (`clusterSizes`), each pair's `a`
 * and `b` (the pairs' other fields in `distances` and `jaccards`, NaN for none).
 */
export function dedupReport(flat) {
  const { ids, lengths, clusterSizes, distances, jaccards } = flat;
  let at = 0;
  let i = 0;
  const next = () => ids.slice(at, (at += lengths[i++]));
  const fingerprinted = Array.from({ length: flat.fingerprinted }, next);
  const clusters = Array.from(clusterSizes, (size) => Array.from({ length: size }, next));
  const pairs = Array.from(distances, (distance, p) => {
    const a = next();
    return { a, b: next(), distance, jaccard: Number.isNaN(jaccards[p]) ? null : jaccards[p] };
  });
  const { fingerprints, skipped, alreadyIndexed, layout, k, verify, verifyBy } = flat;
  return { clusters, pairs, fingerprinted, fingerprints, skipped, alreadyIndexed, layout, k, verify, verifyBy };
}

/**
 * The SimHashPool class over `spawn()` (a new worker: `{ post(msg, transfer),
 * listen(onMessage, onFail), terminate(): Promise, ref(), unref() }`), for an entry whose
 * API is `api` (with its `SimHashError` and argument `check`), and whose wasm module,
 * with the pool's hooks, is `hooks`.
 */
export function makePool({ spawn, defaultSize, api, hooks, SimHashError, check, trapped }) {
  /** The failed documents of a run, each with its own error (as one hasher call throws it). */
  const documentErrors = (r) => r.failed.map((f) => ({ index: f.index, error: new SimHashError(f.reason, f.code) }));
  const closedError = () => new SimHashError(
    'the pool is closed; create a new one with SimHashPool.create()', 'PoolClosed');

  class SimHashPool {
    #workers = [];
    #queue = [];
    #nextId = 0;
    #closed = false;
    #hasher;
    #idf;
    #size;

    /** Use `await SimHashPool.create(...)`. */
    constructor(token, size, hasher, idf) {
      if (token !== makePool) throw new SimHashError('use `await SimHashPool.create({ size, hasher })`', 'InvalidOption');
      this.#size = size;
      this.#hasher = hasher;
      this.#idf = idf;
    }

    /**
     * `await SimHashPool.create({ size, hasher })`: `size` workers (default: the cores
     * available), each with a `SimHasher(hasher)`. Bad hasher options throw here, as
     * `new SimHasher(hasher)` throws them.
     */
    static async create(options = {}) {
      if (options === null || typeof options !== 'object') {
        check(SPEC.options, [options], SimHashError);
      }
      const { size = defaultSize(), hasher, ...rest } = options;
      const unknown = Object.keys(rest);
      if (unknown.length) {
        throw new SimHashError(`unknown option \`${unknown[0]}\` of SimHashPool.create; expected size, hasher`, 'InvalidOption');
      }
      check(SPEC.size, [size], SimHashError);
      new api.SimHasher(hasher).free();   // the options' checks, in the wasm
      // An IdfTable cannot cross to a worker: its bytes do, once to each worker as it
      // starts, and the batches' options name it as `idf: true`.
      const idf = hasher && hasher.idf !== undefined ? hasher.idf.toBytes() : undefined;
      const pool = new SimHashPool(makePool, size, idf ? { ...hasher, idf: true } : hasher, idf);
      try {
        await Promise.all(Array.from({ length: size }, () => pool.#start()));
      } catch (e) {
        await pool.close();
        throw e;
      }
      return pool;
    }

    /** The number of workers. */
    get size() { return this.#size; }

    /** Starts one worker; resolves when its wasm is loaded. */
    #start() {
      return new Promise((resolve, reject) => {
        const w = { handle: spawn(), task: null, ready: false };
        this.#workers.push(w); // not given tasks until ready; close() stops it all the same
        // Takes `w` out of the pool and stops it; false if it was out already.
        const retire = () => {
          const at = this.#workers.indexOf(w);
          if (at < 0) return false;
          this.#workers.splice(at, 1);
          Promise.resolve(w.handle.terminate()).catch(() => {});
          return true;
        };
        w.handle.listen((msg) => {
          if (msg && msg.type === 'ready') {
            w.ready = true;
            if (this.#idf) w.handle.post({ kind: 'idf', bytes: this.#idf });
            w.handle.unref();
            resolve();
            this.#dispatch();
            return;
          }
          const task = w.task;
          w.task = null;
          w.handle.unref();
          // A reply that stopped the worker's wasm: a fresh worker takes its place.
          if (msg.error && SPENT.has(msg.error.code) && !this.#closed && retire()) this.#start().catch(() => {});
          if (task && task.id === msg.id) task.done(msg);
          this.#dispatch();
        }, (err) => {
          if (this.#closed || !retire()) return; // retired already (an error, then the exit)
          const e = new SimHashError(`a pool worker stopped: ${err && err.message}`, 'WorkerFailed');
          if (!w.ready) { reject(e); return; }
          if (w.task) w.task.fail(e);
          w.task = null;
          this.#start().catch(() => {}); // a replacement, so the pool keeps its size
        });
      });
    }

    #dispatch() {
      for (const w of this.#workers) {
        if (!w.ready || w.task !== null) continue;
        let task;
        while ((task = this.#queue.shift()) && task.batch.settled) { /* dropped */ }
        if (!task) return;
        w.task = task;
        w.handle.ref();
        w.handle.post({ id: task.id, ...task.msg }, task.transfer);
      }
    }

    /**
     * Runs `texts` through the workers. Resolves to `{ fingerprints, sketches, width,
     * failed: [{ index, message, reason, code }] }` (`sketches`: with `sketch`, sketch
     * options, each document's sketch, `width` bytes each, one after another; else
     * empty); with `strict`,
     * rejects at the first failed document instead (as soon as every document before it
     * is known to be good). `onChunk(n)`, when given, is told of each chunk of `n`
     * documents done.
     */
    #run(texts, options, strict, sketch, onChunk) {
      if (this.#closed) return Promise.reject(closedError());
      const n = texts.length;
      const fingerprints = new BigUint64Array(n);
      const width = sketch === undefined ? 0 : hooks.__sketchWidth(sketch);
      const sketches = new Uint8Array(width * n);
      if (n === 0) return Promise.resolve({ fingerprints, sketches, width, failed: [] });
      let total = 0;
      for (const t of texts) total += t.length;
      const target = Math.min(CHUNK_CHARS_MAX, Math.max(CHUNK_CHARS_MIN, Math.ceil(total / (this.#size * 8))));
      return new Promise((resolve, reject) => {
        const batch = { options, settled: false };
        const chunks = [];
        const settle = (f, v) => { if (!batch.settled) { batch.settled = true; f(v); } };
        const progress = () => {
          const failed = [];
          for (const c of chunks) {
            if (!c.result) return;
            for (let j = 0; j < c.result.failed.length; j++) {
              const r = c.result;
              failed.push({ index: r.failed[j], message: r.messages[j], reason: r.reasons[j], code: r.codes[j] });
            }
            if (strict && failed.length) {
              const f = failed[0];
              const e = new SimHashError(f.message, f.code);
              e.index = f.index;
              settle(reject, e);
              return;
            }
          }
          settle(resolve, { fingerprints, sketches, width, failed });
        };
        for (let start = 0; start < n;) {
          let end = start, chars = 0;
          while (end < n && (end === start || (chars < target && end - start < CHUNK_DOCS_MAX))) chars += texts[end++].length;
          const chunk = { result: null };
          chunks.push(chunk);
          const base = start;
          this.#queue.push({
            id: this.#nextId++, batch, msg: { options, texts: texts.slice(start, end), base, sketch },
            done: (msg) => {
              if (msg.error) { settle(reject, new SimHashError(msg.error.message, msg.error.code)); return; }
              fingerprints.set(msg.fingerprints, base);
              if (width) sketches.set(msg.sketches, base * width);
              chunk.result = msg;
              onChunk?.(msg.fingerprints.length);
              progress();
            },
            fail: (e) => settle(reject, e),
          });
          start = end;
        }
        this.#dispatch();
      });
    }

    /**
     * Sends each message of `msgs` to a worker, as the tasks of one batch. Resolves to the
     * workers' replies, in the order of `msgs`; rejects with the error of the first
     * message that failed, in that order, once every task has settled. `onReply(i)`,
     * when given, is told of each good reply as it comes.
     */
    #scatter(msgs, onReply) {
      if (this.#closed) return Promise.reject(closedError());
      const batch = { settled: false };
      const replies = msgs.map((msg) => this.#task(msg, batch));
      replies.forEach((r, i) => r.then(() => onReply?.(i), () => {}));
      return Promise.allSettled(replies).then((results) => {
        batch.settled = true;
        const failed = results.find((r) => r.status === 'rejected');
        if (failed) throw failed.reason;
        return results.map((r) => r.value);
      });
    }

    /**
     * Sends `msg` to a worker (handing over `transfer`), as a task of `batch`; resolves to
     * the reply, or rejects with its error.
     */
    #task(msg, batch, transfer) {
      // A closed pool sends nothing (a task queued now would wait for ever).
      if (this.#closed) return Promise.reject(closedError());
      const reply = new Promise((resolve, reject) => {
        this.#queue.push({
          id: this.#nextId++, batch, msg, transfer,
          done: (r) => (r.error ? reject(new SimHashError(r.error.message, r.error.code)) : resolve(r)),
          fail: reject,
        });
      });
      this.#dispatch();
      return reply;
    }

    /**
     * A dedup's candidates (`__dedupPlan`'s last argument), found on the workers: the
     * candidate step over `fingerprints` and `sketches` (those of the documents that have
     * one, in order), one part of it a worker (a share of the index's tables and of the
     * sketches' bands), the parts concatenated. `onPart(done, parts)` is told of none
     * done, then of each part done.
     */
    async #candidates(fingerprints, sketches, options, onPart) {
      const parts = this.#size;
      // Every worker reads every sketch: shared, they are not copied once a worker.
      if (typeof SharedArrayBuffer === 'function' && sketches.length > 0 && !(sketches.buffer instanceof SharedArrayBuffer)) {
        const shared = new Uint8Array(new SharedArrayBuffer(sketches.length));
        shared.set(sketches);
        sketches = shared;
      }
      const msgs = Array.from({ length: parts }, (_, part) => ({
        kind: 'candidates', fingerprints, sketches, options, part, parts,
      }));
      let done = 0;
      onPart(0, parts);
      const replies = await this.#scatter(msgs, () => onPart(++done, parts));
      const out = new Uint32Array(replies.reduce((n, r) => n + r.candidates.length, 0));
      let at = 0;
      for (const r of replies) { out.set(r.candidates, at); at += r.candidates.length; }
      return out;
    }

    /**
     * JSON lines hashed on the workers where they lie (`SimHasher#__jsonlEach`): each of
     * `chunks` (whole lines, its buffer handed over) goes out as it is made, a few per
     * worker at a time; `onChunk(reply)` takes the replies in the chunks' order, and may
     * throw to stop. Resolves once every chunk is taken.
     */
    async __hashLines(chunks, hasher, sketch, sketchOnly, onChunk) {
      async function* messages() {
        for await (const bytes of chunks) {
          yield { msg: { kind: 'jsonl', options: hasher, bytes, sketch, sketchOnly }, transfer: [bytes.buffer] };
        }
      }
      await this.#inOrder(messages(), onChunk);
    }

    /**
     * Sends each `{ msg, transfer }` of `messages` (an iterable or async iterable, each
     * made as it is taken) to a worker, at most two a worker in flight, and gives the
     * replies to `onReply` in the order of `messages`; `onReply` may throw to stop. Rejects
     * with the first failure in that order, and resolves once every reply is taken.
     */
    async #inOrder(messages, onReply) {
      if (this.#closed) throw closedError();
      const batch = { settled: false };
      const inFlight = [];
      try {
        for await (const { msg, transfer } of messages) {
          const reply = this.#task(msg, batch, transfer);
          reply.catch(() => {}); // awaited in order below; not an unhandled rejection meanwhile
          inFlight.push(reply);
          if (inFlight.length >= 2 * this.#size) onReply(await inFlight.shift());
        }
        while (inFlight.length) onReply(await inFlight.shift());
      } finally {
        batch.settled = true;
      }
    }

    /**
     * The Jaccards of a dedup plan's candidate pairs, measured on the workers: runs of
     * pairs (the plan cuts them: `plan.runs`), each sent to a free worker with only the
     * texts it names. Rejects with the error of the first run that failed, in pair order
     * (the one-thread dedup's error). `onPairs(n)` is told of each run of `n` pairs done.
     */
    async #measure(textOf, plan, onPairs, sizes, lines) {
      const pairs = plan.pairs();
      const { shingle, html } = plan;
      const ends = plan.runs(this.#size, sizes);
      const out = new Float64Array(pairs.length / 2);
      // A run's message (its texts read) is made as one in flight is done, so the texts
      // held stay bounded, and the workers measure while the next texts are read.
      function* messages() {
        for (let r = 0; r < ends.length; r++) {
          const start = r === 0 ? 0 : ends[r - 1];
          const local = new Map();
          const runDocs = [];
          const runPairs = new Uint32Array(2 * (ends[r] - start));
          for (let j = 2 * start; j < 2 * ends[r]; j++) {
            let at = local.get(pairs[j]);
            if (at === undefined) { at = runDocs.length; local.set(pairs[j], at); runDocs.push(pairs[j]); }
            runPairs[j - 2 * start] = at;
          }
          // A JSON-lines source hands the workers its documents' lines, which they read.
          const bytes = lines ? lines(runDocs, false) : undefined;
          yield bytes ? { msg: { kind: 'jaccards', bytes, pairs: runPairs, shingle, html }, transfer: [bytes.buffer, runPairs.buffer] }
            : { msg: { kind: 'jaccards', texts: runDocs.map(textOf), pairs: runPairs, shingle, html }, transfer: [runPairs.buffer] };
        }
      }
      // The replies come in run order, so a run's place is where the one before it ended.
      let at = 0;
      await this.#inOrder(messages(), (reply) => {
        out.set(reply.jaccards, at);
        at += reply.jaccards.length;
        onPairs(reply.jaccards.length);
      });
      return out;
    }

    /**
     * Fingerprints of `texts`, in order, as a `BigUint64Array`: the same values as
     * `new SimHasher(hasher).fingerprintBatch(texts)`, and the same error for a bad
     * document (`document #i: ...`, with `error.index` = i).
     */
    async fingerprintBatch(texts) {
      [texts] = check(SPEC.texts, [texts], SimHashError, hooks.__utf8);
      return (await this.#run(texts, this.#hasher, true)).fingerprints;
    }

    /**
     * Fingerprints of `texts` going on past bad documents: `{ fingerprints, failed }`,
     * where `failed` lists `{ index, error }` (the document's own error, as
     * `hasher.fingerprint(text)` throws it) and `fingerprints[index]` is 0n for them.
     */
    async fingerprintEach(texts) {
      [texts] = check(SPEC.texts, [texts], SimHashError, hooks.__utf8);
      const r = await this.#run(texts, this.#hasher, false);
      return { fingerprints: r.fingerprints, failed: documentErrors(r) };
    }

    /**
     * `fingerprintEach` with each document's sketch too: `sketches[i]` is
     * `hasher.fingerprintAndSketch(texts[i], options).sketch` (a view of one buffer;
     * empty for a failed document). [full build]
     */
    async fingerprintAndSketchEach(texts, options) {
      [texts] = check(SPEC.texts, [texts], SimHashError, hooks.__utf8);
      if (hooks.__sketchWidth === undefined) {
        const h = new api.SimHasher();
        try { h.fingerprintAndSketch('', options); } finally { h.free(); } // throws FeatureDisabled
      }
      const r = await this.#run(texts, this.#hasher, false, options ?? {});
      const failed = documentErrors(r);
      const bad = new Set(failed.map((f) => f.index));
      const w = r.width;
      const sketches = Array.from(texts, (_, i) => r.sketches.subarray(i * w, bad.has(i) ? i * w : (i + 1) * w));
      return { fingerprints: r.fingerprints, sketches, failed };
    }

    /**
     * `dedup(ids, texts, options)` with the fingerprints made by the workers: the same
     * report. The fingerprint options are `options`' (not the pool's `hasher`).
     * `onProgress(phase, done, total)`, when given, is told how the work goes: phase
     * "hashing" (documents fingerprinted and sketched), "candidates" (the candidate step's
     * parts done, one a worker), then "verifying" (candidate pairs measured); `done` and
     * `total` count the phase's items.
     */
    async dedup(ids, texts, options, { onProgress } = {}) {
      [ids, texts] = check(SPEC.dedup, [ids, texts, options, onProgress], SimHashError, hooks.__utf8);
      if (hooks.__dedupHasherOptions === undefined) return api.dedup(ids, texts, options); // FeatureDisabled
      const tell = onProgress ?? (() => {});
      const size = hooks.__dedupSketchSize(options);
      let hashed = 0;
      tell('hashing', 0, texts.length);
      const r = await this.#run(texts, hooks.__dedupHasherOptions(options, false), false, size === undefined ? undefined : { size },
        (n) => tell('hashing', (hashed += n), texts.length));
      return this.#dedupHashed(ids, texts, r, options, tell, (i) => texts[i]);
    }

    /**
     * The rest of a dedup once the workers have hashed every document (`r`, as `#run`
     * gives it): the candidates on the workers, the plan here, the pairs measured on the
     * workers with the texts `textOf(i)` gives, the report. `texts` is what the plan reads
     * (every document's text, or only the failed documents' texts and `sizes`, the length
     * in bytes of each text, to cut the runs). With `later` (`__dedupFingerprintsLater`'s
     * width of a candidate), `r` holds no fingerprints yet: the documents of the candidate
     * pairs are read again as their lines (`lines`, as `#fingerprintCandidates` takes it)
     * and fingerprinted after the candidate step, and the others keep 0. With `lines`, the
     * pairs are measured on their documents' lines instead of `textOf`'s texts.
     */
    async #dedupHashed(ids, texts, r, options, tell, textOf, sizes, later, lines) {
      try {
        return await this.#planAndVerify(ids, texts, r, options, tell, textOf, sizes, later, lines);
      } catch (e) {
        throw trapped(e, SimHashError, hooks); // the plan's wasm is this thread's
      }
    }

    async #planAndVerify(ids, texts, r, options, tell, textOf, sizes, later, lines) {
      const failed = Uint32Array.from(r.failed, (f) => f.index);
      const bad = new Set(failed);
      const w = r.width;
      const sketches = bad.size === 0 ? r.sketches
        : concat(Array.from(ids.keys()).filter((i) => !bad.has(i)).map((i) => r.sketches.subarray(i * w, (i + 1) * w)));
      const found = await this.#candidates(r.fingerprints.filter((_, i) => !bad.has(i)), sketches, options,
        (done, parts) => tell('candidates', done, parts));
      if (later !== undefined) {
        await this.#fingerprintCandidates(r, bad, found, later, options, lines, sizes,
          (done, total) => tell('fingerprinting', done, total));
      }
      // The candidates carry what the plan needs of the sketches (their estimates). The ids
      // go as one string and their lengths: one copy, not one a document.
      const plan = hooks.__dedupPlan(ids.join(''), Uint32Array.from(ids, (id) => id.length), texts, r.fingerprints,
        failed, new Uint8Array(0), options, found);
      try {
        // The pairs come in rounds (a pair is measured only while its documents are not
        // joined yet): the total grows by each round's pairs.
        let measuredPairs = 0;
        let total = 0;
        for (let round = plan.pairs().length / 2; round > 0; round = plan.pairs().length / 2) {
          total += round;
          tell('verifying', measuredPairs, total);
          plan.record(await this.#measure(textOf, plan, (n) => tell('verifying', (measuredPairs += n), total), sizes, lines));
        }
        tell('verifying', measuredPairs, total);
        return dedupReport(plan.finish());
      } finally {
        plan.free();
      }
    }

    /**
     * Fingerprints the documents named by the candidates `found` (`width` u32s each, the
     * first two the slots: positions among the documents not in `bad`) into
     * `r.fingerprints`, read by the workers from their lines (`lines(indices, true)`: the
     * lines of documents `indices`, increasing), a few chunks of about 1 MB per worker at a
     * time. Every one was read and hashed before, so a failure is a changed file.
     * `onDocuments(done, total)` is told of each chunk done.
     */
    async #fingerprintCandidates(r, bad, found, width, options, lines, sizes, onDocuments) {
      const docOf = [];
      for (let i = 0; i < r.fingerprints.length; i++) if (!bad.has(i)) docOf.push(i);
      const named = new Uint8Array(docOf.length);
      for (let j = 0; j < found.length; j += width) { named[found[j]] = 1; named[found[j + 1]] = 1; }
      const wanted = [];
      for (let s = 0; s < named.length; s++) if (named[s]) wanted.push(docOf[s]);
      const CHUNK_BYTES = 1 << 20;
      const sent = [];
      let done = 0;
      onDocuments(0, wanted.length);
      function* chunks() {
        for (let from = 0; from < wanted.length;) {
          let to = from; let bytes = 0;
          while (to < wanted.length && (to === from || bytes < CHUNK_BYTES)) bytes += sizes[wanted[to++]] + 1;
          sent.push(wanted.slice(from, to));
          yield lines(sent[sent.length - 1], true);
          from = to;
        }
      }
      await this.__hashLines(chunks(), hooks.__dedupHasherOptions(options, false), undefined, false, (m) => {
        const docs = sent.shift();
        if (m.bad || m.failed.length || m.fingerprints.length !== docs.length) {
          throw new SimHashError(`the input changed while it was read: ${m.reasons[0] ?? 'its lines moved'}`, 'Corrupt');
        }
        docs.forEach((d, k) => { r.fingerprints[d] = m.fingerprints[k]; });
        onDocuments((done += docs.length), wanted.length);
      });
    }

    /**
     * `dedup` over a JSON-lines file read twice instead of held (the CLI's): `chunks` (an
     * iterable of its bytes, chunks of whole lines, in order) is hashed on the workers
     * chunk by chunk (`__hashLines`), and each reply, in order, is given to `placed` (which
     * keeps where the documents' lines are, and may throw at a bad line); then
     * `lines(indices, increasing)` gives the lines of documents `indices` again (for the
     * candidate pairs only), `read(i)` the text of document `i` (for the failed ones'
     * reasons), and `size(i)` the length in bytes of document `i`'s line. The same report
     * as `dedup` of all the documents at once, but that with a verification by sketches the
     * first pass makes the sketches alone, and the fingerprint of a document in no
     * candidate pair (so in no cluster) is 0: it is not made. `onProgress` is told `dedup`'s
     * phases, and with a verification by sketches, "fingerprinting" (the candidate pairs'
     * documents fingerprinted) between "candidates" and the report.
     */
    async __dedupSource({ chunks, placed, lines, read, size }, options, { onProgress } = {}) {
      if (hooks.__dedupHasherOptions === undefined) return api.dedup([], [], options); // FeatureDisabled
      const tell = onProgress ?? (() => {});
      const sketchSize = hooks.__dedupSketchSize(options);
      const hasher = hooks.__dedupHasherOptions(options, false);
      const sketch = sketchSize === undefined ? undefined : { size: sketchSize };
      const width = sketch === undefined ? 0 : hooks.__sketchWidth(sketch);
      // A verification by sketches: the first pass makes the sketches alone, and only the
      // documents of the candidate pairs are fingerprinted (the report's distances).
      const later = hooks.__dedupFingerprintsLater(options);
      const ids = []; const done = []; const failed = [];
      let hashed = 0;
      await this.__hashLines(chunks, hasher, sketch, later !== undefined, (m) => {
        placed(m);
        const base = ids.length;
        for (let j = 0; j < m.ids.length; j++) ids.push(m.ids[j] ?? String(base + j));
        for (const index of m.failed) failed.push({ index: base + index });
        done.push(m);
        tell('hashing', (hashed += m.ids.length), hashed);
      });
      check(SPEC.ids, [ids], SimHashError);
      const n = ids.length;
      // Shared memory where there is any: the candidate step's workers read it in place.
      const bytes = typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(width * n) : width * n;
      const r = { fingerprints: new BigUint64Array(n), sketches: new Uint8Array(bytes), width, failed };
      let at = 0;
      for (const d of done) {
        r.fingerprints.set(d.fingerprints, at);
        if (width) r.sketches.set(d.sketches, at * width);
        at += d.fingerprints.length;
      }
      done.length = 0;
      // The plan reads the failed documents' texts (for their reasons), and no other.
      const texts = Array(n).fill('');
      for (const f of failed) texts[f.index] = read(f.index);
      const sizes = Uint32Array.from({ length: n }, (_, i) => size(i));
      return this.#dedupHashed(ids, texts, r, options, tell, read, sizes, later, lines);
    }

    /** `index.dedup(ids, texts, options)` with the fingerprints made by the workers. */
    async dedupInto(index, ids, texts, options) {
      [ids, texts] = check(SPEC.batch, [ids, texts], SimHashError, hooks.__utf8);
      if (!(index instanceof api.SimHashIndex)) check(SPEC.index, [index], SimHashError);
      if (index.__dedupKnown === undefined) return index.dedup(ids, texts, options); // FeatureDisabled
      const r = await this.#run(texts, hooks.__dedupHasherOptions(options, true), false);
      return index.__dedupKnown(ids, texts, r.fingerprints, Uint32Array.from(r.failed, (f) => f.index), options);
    }

    /**
     * Stops every worker. Batches still running reject with a SimHashError (code
     * PoolClosed), and so does every later call.
     */
    async close() {
      if (this.#closed) return;
      this.#closed = true;
      const e = closedError();
      for (const t of this.#queue) if (!t.batch.settled) t.fail(e);
      this.#queue = [];
      const workers = this.#workers;
      this.#workers = [];
      for (const w of workers) if (w.task) w.task.fail(e);
      await Promise.all(workers.map((w) => w.handle.terminate()));
    }
  }
  return SimHashPool;
}
