'use strict';
// RedisContentSeen: one ContentSeen shared by every crawler process, on Redis. This file
// only moves bytes: key names, stored formats, script arguments and the meaning of every
// reply come from the wasm core (src/redis/). See redis.d.ts for the API.
const { createHash, randomFillSync } = require('node:crypto');
const { SimHashError } = require('./errors.cjs');
const { check, SIGNATURES, trapped } = require('./args.cjs');

// RESP blob strings as Buffers (node-redis' RESP_TYPES.BLOB_STRING is '$').
const BLOB_STRING = 36;
// Import batches sent before the first of them is answered: enough to keep the server busy
// (a batch of 500 pages runs for milliseconds), few enough to hold little memory.
const IMPORT_IN_FLIGHT = 4;

// What a failed call's error tells the caller to do: a read changed nothing; a check's
// script may have been applied, and repeating the check with its `checkId` gets its first
// answer; another script (open, import) may have been applied too.
const READ_ADVICE = 'Nothing was changed: retry it once the connection is back';
const CALL_ADVICE = 'The call may or may not have been applied: repeat it once the connection is back';
const WRITE_ADVICE = 'Nothing wrong was stored; the check may or may not have been applied: ' +
  'retry it once the connection is back, passing the error\'s `checkId` (with the `retries` option, calls are repeated for you and get the answer their first attempt got)';

// Server replies that repeating the call at once cannot change, and what to do instead.
// Nothing was stored: a full server (`maxmemory-policy noeviction`) refuses a script's
// first write, and an ACL refuses the command before it runs.
const REFUSALS = [
  [/^OOM\b/, 'The server is out of memory, and nothing was stored: give Redis more memory (`maxmemory`) or free some, then repeat the call'],
  [/^NOPERM\b/, 'The Redis user may not run it, and nothing was stored: grant the user the commands RedisContentSeen sends (the categories @scripting, @read and @write on the keys {NAMESPACE}:*), or connect as another user, then repeat the call'],
];

function redisError(what, err, advice) {
  const msg = err && err.message ? err.message : String(err);
  const e = new SimHashError(`Redis ${what} failed: ${msg}. ${advice}`, 'RedisError');
  e.cause = err;
  return e;
}

// A check's RedisError, carrying the check's id (`checkId`), with which the caller can
// repeat it; one per check: a batch's calls share `err`.
function ofCheck(err, id) {
  if (!(err instanceof SimHashError) || err.code !== 'RedisError') return err;
  const e = new SimHashError(err.message, err.code);
  e.cause = err.cause;
  e.checkId = id;
  return e;
}

// Check ids: random, never 0, one per check, sent again by every retry of its calls
// (src/redis/script.rs), drawn 512 at a time.
const ids = new BigUint64Array(512);
let idsLeft = 0;
function checkId() {
  for (;;) {
    if (idsLeft === 0) {
      randomFillSync(ids);
      idsLeft = ids.length;
    }
    const id = ids[--idsLeft];
    if (id !== 0n) return id;
  }
}

// The arguments are checked as ContentSeen's are (args.cjs), so the same bad argument
// gets the same SimHashError.
const SIG = {
  check: SIGNATURES['ContentSeen#check'],
  checkFingerprint: SIGNATURES['ContentSeen#checkFingerprint'],
  count: SIGNATURES['ContentSeen#count'],
  clusterOf: SIGNATURES['ContentSeen#clusterOf'],
  fingerprint: SIGNATURES['ContentSeen#fingerprint'],
};
// The store's own argument specs, made once: the checks cache each spec's split.
const SPEC = {
  options: ['options:object'],
  checkId: ['checkId:fingerprint'],
  namespace: ['namespace:name'],
  pages: ['pages:array'],
  batch: ['batch:batch'],
  import: ['bytes:bytes', 'batch:count'],
};

// A check's id: a new one, or `options.checkId` (a failed check's, to repeat it).
function idOf(options) {
  const id = options === undefined ? undefined : onlyOption(options, 'checkId', 'a check');
  if (id === undefined) return checkId();
  check(SPEC.checkId, [id], SimHashError);
  return id; // 0n is refused by the core
}

/** `options[name]`, of an options object of `what` that may name nothing else. */
function onlyOption(options, name, what) {
  check(SPEC.options, [options], SimHashError);
  const unknown = Object.keys(options).filter((k) => k !== name);
  if (unknown.length) throw new SimHashError(`unknown option \`${unknown[0]}\` of ${what}; expected ${name}`, 'InvalidOption');
  return options[name];
}

/** Wraps a node-redis client or cluster, or an ioredis client or cluster, as one call function. */
function adapt(client) {
  if (!client || typeof client !== 'object') {
    throw new SimHashError('RedisContentSeen needs a connected Redis client (node-redis `createClient()` or ioredis), got ' + String(client), 'InvalidOption');
  }
  if (typeof client.callBuffer === 'function') {
    // ioredis (Redis or Cluster): callBuffer returns Buffers.
    const callOn = (c) => (_key, args) => c.callBuffer(String(args[0]), args.slice(1));
    return {
      kind: 'ioredis',
      ready: () => client.status === 'ready' || client.status === 'connecting' || client.status === 'connect' || client.status === 'reconnecting',
      call: callOn(client),
      // SCAN has no key: an ioredis cluster sends it to any node, so it goes to every master.
      scanners: client.isCluster ? () => client.nodes('master').map(callOn) : undefined,
    };
  }
  if (typeof client.sendCommand === 'function') {
    const opts = { typeMapping: { [BLOB_STRING]: Buffer } };
    const cluster = 'masters' in client && 'slots' in client;
    return {
      kind: cluster ? 'node-redis cluster' : 'node-redis',
      ready: () => (cluster ? client.isOpen : client.isReady),
      call: cluster
        ? (key, args) => client.sendCommand(key, false, args, opts)
        : (_key, args) => client.sendCommand(args, opts),
    };
  }
  throw new SimHashError('RedisContentSeen takes a node-redis client (createClient / createCluster) or an ioredis client; this object has neither sendCommand nor callBuffer', 'InvalidOption');
}

const asBuffer = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** Errors that mean "this page has no content to compare" (the core's Error::is_no_content). */
const noContent = (e) => e instanceof SimHashError && (e.code === 'EmptyText' || e.code === 'TextTooShort');

// The shape of a check's result, made from the values wasm decided (src/wasm/redis.rs
// `Shapes`): one call a result, an object literal of one shape, ContentSeen's fields and
// `roundTrips`. `undefined` arrives for null.
const SHAPES = {
  result: (duplicate, matches, fingerprint, cluster, count, distance, estimate, sketch, roundTrips) => ({
    duplicate,
    empty: false,
    matches,
    fingerprint,
    cluster: cluster ?? null,
    count: count ?? null,
    distance: distance ?? null,
    estimate: estimate ?? null,
    sketch: sketch ?? null,
    roundTrips,
  }),
  match: (id, fingerprint, distance) => ({ id: id ?? null, fingerprint, distance }),
};

/** ContentSeen's answer for a page with no content: not a duplicate, nothing stored or counted. */
const emptyAnswer = () => ({ duplicate: false, empty: true, matches: [], fingerprint: null, cluster: null, count: 0, distance: null, estimate: null, sketch: null, roundTrips: 0 });

function install(wasm) {
  const { __RedisStore: RedisStore } = wasm;
  const sources = {};
  for (const name of RedisStore.scriptNames()) {
    const lua = RedisStore.script(name);
    // What a failed call of the script tells the caller to do.
    const advice = name === 'lookup' ? READ_ADVICE : /^(check|check_sketch|learn)$/.test(name) ? WRITE_ADVICE : CALL_ADVICE;
    sources[name] = { lua, sha: createHash('sha1').update(lua).digest('hex'), advice };
  }

  class RedisContentSeen {
    /**
     * `await RedisContentSeen.open(client, { namespace, k, html, urls, retries, ...hasher options })`:
     * checks (or writes) the namespace's settings; a namespace made with other settings
     * throws SchemeMismatch.
     */
    static async open(client, options = {}) {
      const seen = new RedisContentSeen(client, options);
      await seen._open();
      return seen;
    }

    constructor(client, options = {}) {
      if (options !== null && typeof options === 'object' && typeof options.namespace === 'string') {
        check(SPEC.namespace, [options.namespace], SimHashError);
      }
      this._redis = adapt(client);
      this._store = new RedisStore(options);
      this._keys = this._store.keys();
      /** Sketch mode (`sketch: true` or a size): its own script and plan (see src/redis/sketch.rs). */
      this._sketch = this._store.sketchMode();
      this._retries = this._store.options().retries;
      /** Redis calls repeated after a failed attempt (a repeated check call gets its first attempt's answer). */
      this.retriedCalls = 0;
      this._closed = false;
      /** `replayed`: checks whose repeated call found its first attempt applied (answered from it, counted once). */
      this.stats = { checks: 0, roundTrips: 0, calls: 0, replayed: 0 };
      // Check steps waiting for the next script call (see _queue).
      this._waiting = [];
      this._batch = this._store.options().batch;
      this._meta = Buffer.from(this._store.meta());
      // Whether a check reads its page through templateRead (else the text would go into
      // wasm twice for nothing).
      this._learns = this._store.learnsTemplate();
    }

    _live() {
      if (this._closed) throw new SimHashError('this RedisContentSeen was closed; open a new one with RedisContentSeen.open', 'Closed');
      return this._store;
    }

    // One Redis command (`send()` returns its promise), repeated up to `retries` times
    // after a failure, or while the client is not connected; every failure is a SimHashError.
    async _call(what, send, advice) {
      this._live();
      for (let attempt = 0; ; attempt++) {
        if (!this._redis.ready()) {
          // Not connected (never, closed, or reconnecting after a drop): wait like a failed
          // call when retries are allowed (no call was sent, so retriedCalls stays), else a clear error.
          if (attempt >= this._retries) {
            throw new SimHashError(`Redis ${what}: the Redis client is not connected: call \`await client.connect()\` before using RedisContentSeen (or wait for it to reconnect)`, 'RedisError');
          }
          await new Promise((r) => setTimeout(r, Math.min(50 * 2 ** attempt, 500)));
          this._live();
          continue;
        }
        try {
          return await send();
        } catch (e) {
          if (e instanceof SimHashError) throw e;
          const msg = String(e && e.message);
          if (/WRONGTYPE|simhash-wasm:/.test(msg)) {
            throw new SimHashError(`the namespace ${JSON.stringify(this._store.options().namespace)} holds foreign data (${msg}); choose another namespace or delete its keys`, 'InvalidOption');
          }
          const refusal = REFUSALS.find(([reply]) => reply.test(msg));
          if (refusal) throw redisError(what, e, `${refusal[1]}${advice === WRITE_ADVICE ? ' (a check with the error\'s `checkId`)' : ''}`);
          if (attempt >= this._retries) throw redisError(what, e, advice);
          this.retriedCalls++;
          await new Promise((r) => setTimeout(r, Math.min(50 * 2 ** attempt, 500)));
          this._live();
        }
      }
    }

    // A plain command on `key` (reads: size, HSCAN, HMGET).
    _command(key, args) {
      return this._call(args[0], () => this._redis.call(key, args), READ_ADVICE);
    }

    _eval(name, argv) {
      return this._evalKeys(name, this._keys, argv);
    }

    async _evalKeys(name, keys, argv) {
      const s = sources[name];
      // Empty arguments go as '' (node-redis writes strings and buffers as separate chunks).
      const tail = [String(keys.length), ...keys, ...argv.map((a) => (a.byteLength ? Buffer.from(a.buffer, a.byteOffset, a.byteLength) : ''))];
      return this._call(`script ${name}`, async () => {
        try {
          return await this._redis.call(keys[0], ['EVALSHA', s.sha, ...tail]);
        } catch (e) {
          if (!/NOSCRIPT/.test(e && e.message)) throw e;
          return await this._redis.call(keys[0], ['EVAL', s.lua, ...tail]);
        }
      }, s.advice);
    }

    async _open() {
      // A server that evicts keys when full would lose the store's pages without a word: a
      // warning (process 'warning' event), as job queues on Redis give. INFO goes with the
      // OPEN script, one attempt; a server that refuses it is not checked.
      const [reply, info] = await Promise.all([
        this._eval('open', this._store.openArgs()),
        this._redis.call(this._keys[0], ['INFO', 'memory']).catch(() => null),
      ]);
      this.created = this._store.openReply(reply);
      const warning = info && this._store.serverWarning(String(info));
      if (warning) process.emitWarning(warning, { code: 'SIMHASH_REDIS_EVICTION' });
      // The meta the scripts check: ours, or a version-4 namespace's that is kept (src/redis/meta.rs).
      this._meta = Buffer.from(this._store.meta());
    }

    /** The settings: hasher options, k, layout, namespace, urls, batch, retries, sketch, threshold, content, template. */
    options() {
      return this._live().options();
    }

    /** The fingerprint of a text with the namespace's settings (nothing stored). */
    fingerprint(text) {
      // UTF-8 bytes are read in place by the wasm (validated there), not made a JS string.
      const bytes = text instanceof Uint8Array;
      [text] = check(SIG.fingerprint, [text], SimHashError, bytes ? undefined : wasm.__utf8);
      return bytes ? this._live().fingerprintBytes(text) : this._live().fingerprint(text);
    }

    /**
     * `options.checkId`: the `checkId` of a RedisError this check threw before (a bigint):
     * repeating a failed check with it gets the answer its lost attempt got, if it was applied.
     */
    async check(url, text, options) {
      // UTF-8 bytes are read in place by the wasm (validated there), not made a JS string.
      const bytes = text instanceof Uint8Array;
      [url, text] = check(SIG.check, [url, text], SimHashError, bytes ? undefined : wasm.__utf8);
      const id = idOf(options);
      const store = this._live();
      // With the site templates learnt (html, main content, `template`): read the page's
      // template counts, check the page without its template, then learn it (src/redis/template.rs).
      const tpl = !this._learns ? undefined : bytes ? store.templateReadBytes(url, text) : store.templateRead(url, text);
      if (tpl) {
        try {
          return await this._checkTemplate(tpl, url, id);
        } finally {
          tpl.free();
        }
      }
      let start;
      try {
        if (bytes) start = this._sketch ? store.beginSketchBytes(url, text, id) : store.fingerprintBytes(text);
        else start = this._sketch ? store.beginSketch(url, text, id) : store.fingerprint(text);
      } catch (e) {
        if (noContent(e)) return emptyAnswer();
        throw e;
      }
      return this._sketch ? this._checkSketch(start, id) : this._checkFingerprint(url, start, id);
    }

    async _checkTemplate(tpl, url, id) {
      const keys = tpl.keys();
      const fields = tpl.fields();
      // The counts of the page's blocks and the pages its host learnt, in one round trip.
      const [counts, pages] = fields.length
        ? await Promise.all([this._command(keys[2], ['HMGET', keys[2], ...fields.map(asBuffer)]), this._command(keys[1], ['SCARD', keys[1]])])
        : [[], 0];
      const read = tpl.read(counts, Number(pages));
      let result;
      try {
        const start = this._sketch ? this._live().beginSketchRead(url, read, id) : this._live().fingerprintRead(read);
        result = await (this._sketch ? this._checkSketch(start, id) : this._checkFingerprint(url, start, id));
      } catch (e) {
        if (!noContent(e)) throw e;
        result = emptyAnswer();
      }
      // The check is decided and stored: a failed LEARN fails the check with its id, and
      // the repeat gets the decided answer and learns again (LEARN counts a page once).
      const argv = tpl.learnArgs(this._store.meta(), result.duplicate);
      if (argv) {
        let reply;
        try {
          reply = await this._evalKeys('learn', keys, argv);
        } catch (err) {
          throw ofCheck(err, id);
        }
        this._live().learnReply(reply);
      }
      return result;
    }

    async checkFingerprint(url, fingerprint, options) {
      check(SIG.checkFingerprint, [url, fingerprint], SimHashError);
      return this._checkFingerprint(url, fingerprint, idOf(options));
    }

    _checkFingerprint(url, fingerprint, id) {
      if (this._sketch) return this._checkSketch(this._live().beginSketchFingerprint(url, fingerprint, id), id);
      const plan = this._live().begin(url, fingerprint, id);
      return this._drive(plan, () => this._queue(plan), id);
    }

    // Feeds a plan the replies of `call()` until it decides; frees it either way. A
    // RedisError carries the check's id (`checkId`), with which the caller can repeat it.
    async _drive(plan, call, id) {
      try {
        for (;;) {
          let reply;
          try {
            reply = await call();
          } catch (err) {
            throw ofCheck(err, id);
          }
          const result = plan.feed(reply, SHAPES);
          if (result !== undefined) {
            this.stats.checks++;
            this.stats.roundTrips += result.roundTrips;
            if (plan.replayed()) this.stats.replayed++;
            return result;
          }
        }
      } finally {
        plan.free();
      }
    }

    // Checks issued in the same turn of the event loop share script calls: each check's
    // plan waits here, and once the turn is over (setImmediate) the waiting plans go out
    // as CHECK calls of up to `batch` pages each: the meta, then the pages' entries one
    // after another, staged in wasm and taken as one byte string (src/redis/script.rs;
    // CHECK_SKETCH in sketch mode). The script answers each page in order; a page that
    // needs another call queues again. A failed call fails each of its pages.
    _queue(plan) {
      return new Promise((resolve, reject) => {
        if (this._waiting.push({ plan, resolve, reject }) === 1) setImmediate(() => this._flush());
      });
    }

    _flush() {
      const waiting = this._waiting;
      this._waiting = [];
      let store;
      try {
        store = this._live(); // closed in the meantime: each waiting check fails with Closed
      } catch (err) {
        for (let j = 0; j < waiting.length; j++) waiting[j].reject(err);
        return;
      }
      // Plain loops, no callbacks inside builtins (forEach, map) on this hot path: Node 20's
      // V8 can die deoptimizing such a callback (nodejs/node#51555; see bench-shared.mjs).
      for (let i = 0; i < waiting.length; i += this._batch) {
        const group = waiting.slice(i, i + this._batch);
        for (let j = 0; j < group.length; j++) group[j].plan.stage(store);
        this.stats.calls++;
        this._eval(this._sketch ? 'check_sketch' : 'check', [this._meta, store.takeEntries()]).then(
          (reply) => {
            for (let j = 0; j < group.length; j++) group[j].resolve(Array.isArray(reply) ? reply[j] : reply);
          },
          (err) => {
            for (const g of group) g.reject(err);
          },
        );
      }
    }

    /** Sketch mode: the check_sketch script until the plan decides (1 call, 2 with candidates, 3 at most to replace a URL's content), batched as the fingerprint-only checks are. */
    _checkSketch(plan, id) {
      return this._drive(plan, () => this._queue(plan), id);
    }

    /**
     * Checks many pages at once: they share script calls of up to `batch` pages (sketch mode:
     * their calls go out together, pipelined by the client). Returns one
     * entry per page, in order: the check result, or `{ url, error }` for a page that failed.
     */
    async checkBatch(pages) {
      check(SPEC.pages, [pages], SimHashError);
      this._live();
      return Promise.all(
        pages.map(async (p, i) => {
          try {
            if (p === null || typeof p !== 'object') check([`pages[${i}]:object`], [p], SimHashError);
            const o = p.checkId !== undefined ? { checkId: p.checkId } : undefined;
            return p.fingerprint !== undefined ? await this.checkFingerprint(p.url, p.fingerprint, o) : await this.check(p.url, p.text, o);
          } catch (error) {
            return { url: p && p.url, error };
          }
        }),
      );
    }

    async _lookup(url) {
      return this._store.lookupReply(await this._eval('lookup', this._live().lookupArgs(url)));
    }

    /** How many times the content of `url` was seen, or `undefined`. */
    async count(url) {
      check(SIG.count, [url], SimHashError);
      const r = await this._lookup(url);
      return r && r.count;
    }

    /** The stored page `url` is counted under, or `undefined`. */
    async clusterOf(url) {
      check(SIG.clusterOf, [url], SimHashError);
      const r = await this._lookup(url);
      return r && r.cluster;
    }

    /** Number of stored pages (a Promise). */
    get size() {
      return this._command(this._keys[1], ['GET', this._keys[1]]).then((b) => Number(b ? b.toString() : 0));
    }

    /**
     * The stored pages, streamed in batches of about `batch` (HSCAN): `{ id, fingerprint,
     * count }` each, in no particular order. Needs the URL map.
     */
    async *clusters(options = {}) {
      check(SPEC.options, [options], SimHashError);
      const { batch = 500 } = options;
      check(SPEC.batch, [batch], SimHashError);
      for await (const p of this._pages(batch)) yield { id: p.id, fingerprint: p.fingerprint, count: p.count };
    }

    /** The stored pages with their sketch payloads (null without one), for clusters() and exportSnapshot(). */
    async *_pages(batch) {
      let cursor = '0';
      do {
        const [next, flat] = await this._command(this._keys[2], ['HSCAN', this._keys[2], cursor, 'COUNT', String(batch)]);
        cursor = next.toString();
        const fields = [];
        const pages = [];
        for (let i = 0; i < flat.length; i += 2) {
          const [fingerprint, id, sketch] = this._store.pageEntry(flat[i], flat[i + 1]);
          fields.push(flat[i]);
          pages.push({ id, fingerprint, count: 0, sketch });
        }
        if (fields.length) {
          const counts = await this._command(this._keys[3], ['HMGET', this._keys[3], ...fields]);
          counts.forEach((c, i) => (pages[i].count = c ? Number(c.toString()) : 1)); // no field: seen once
        }
        yield* pages;
      } while (cursor !== '0');
    }

    /**
     * Loads a ContentSeen snapshot (same settings) into an empty namespace: its pages, then
     * its site templates (calls of at most `batch` pages or template blocks; a repeated
     * template call writes the same). Page batches are made as they are sent, at most
     * IMPORT_IN_FLIGHT at a time after the first (which checks that the namespace is empty),
     * so memory stays the decoded snapshot and a few batches.
     */
    async importSnapshot(bytes, options) {
      const batch = (options === undefined ? undefined : onlyOption(options, 'batch', 'importSnapshot')) ?? 500;
      check(SPEC.import, [bytes, batch], SimHashError);
      const script = this._sketch ? 'import_sketch' : 'import';
      const cursor = this._live().importCursor(bytes, batch);
      try {
        const first = cursor.nextBatch();
        await this._eval(script, first);
        const inFlight = new Set();
        let failed = null;
        for (;;) {
          while (inFlight.size >= IMPORT_IN_FLIGHT) await Promise.race(inFlight);
          if (failed) break;
          const argv = cursor.nextBatch();
          if (!argv) break;
          const p = this._eval(script, argv)
            .catch((e) => (failed = failed || e))
            .finally(() => inFlight.delete(p));
          inFlight.add(p);
        }
        await Promise.all(inFlight);
        if (failed) throw failed;
        for (const [keys, argv] of cursor.templateCalls()) this._live().importTemplateReply(await this._evalKeys('import_template', keys, argv));
      } finally {
        cursor.free();
      }
    }

    /** `[host, pageKeys, flatBlockPairs]` per template host of the namespace (SCAN, SSCAN, HSCAN). */
    async _templateHosts() {
      const store = this._live();
      const pattern = store.templatePattern();
      if (pattern === undefined) return [];
      const scanners = this._redis.scanners ? this._redis.scanners() : [this._redis.call];
      const keys = new Set();
      for (const call of scanners) {
        let cursor = '0';
        do {
          const [next, found] = await this._call('SCAN', () => call(this._keys[0], ['SCAN', cursor, 'MATCH', pattern, 'COUNT', '1000']), READ_ADVICE);
          cursor = next.toString();
          for (const k of found) keys.add(k.toString('latin1'));
        } while (cursor !== '0');
      }
      const hosts = [];
      for (const k of [...keys].sort()) {
        const key = Buffer.from(k, 'latin1');
        const [host, blockKey] = store.templateHostKeys(key);
        const members = [];
        let cursor = '0';
        do {
          const [next, found] = await this._command(key, ['SSCAN', key, cursor, 'COUNT', '1000']);
          cursor = next.toString();
          members.push(...found);
        } while (cursor !== '0');
        const pairs = [];
        cursor = '0';
        do {
          const [next, flat] = await this._command(blockKey, ['HSCAN', blockKey, cursor, 'COUNT', '1000']);
          cursor = next.toString();
          for (const x of flat) pairs.push(x);
        } while (cursor !== '0');
        hosts.push([host, members, pairs]);
      }
      return hosts;
    }

    /**
     * A ContentSeen snapshot of the whole namespace with its site templates (read with HSCAN
     * and SCAN; run it while no worker writes). Each scanned batch of pages goes into the
     * snapshot being built before the next is read.
     */
    async exportSnapshot() {
      const builder = this._live().exportBuilder();
      let owned = true;
      try {
        for await (const p of this._pages(500)) builder.addPage(p.fingerprint, p.id, p.count, p.sketch);
        let cursor = '0';
        do {
          const [next, flat] = await this._command(this._keys[4], ['HSCAN', this._keys[4], cursor, 'COUNT', '1000']);
          cursor = next.toString();
          for (let i = 0; i < flat.length; i += 2) {
            const cluster = this._store.aliasOf(flat[i + 1]);
            if (cluster !== undefined) builder.addAlias(flat[i].toString(), cluster);
          }
        } while (cursor !== '0');
        for (const [host, members, pairs] of await this._templateHosts()) builder.addTemplateHost(this._store, host, members, pairs);
        owned = false; // finish() frees it, also when it throws
        return builder.finish();
      } finally {
        if (owned) builder.free();
      }
    }

    /** Frees the wasm side. The Redis client is the caller's and stays open. */
    close() {
      if (!this._closed) {
        this._closed = true;
        this._store.free();
      }
    }
  }

  // A call that stops the wasm (out of memory, a bug) throws the SimHashError that says so
  // (args.cjs's `trapped`), as every other failure does; `checkBatch` goes through `check`.
  const calls = [[RedisContentSeen, ['open']],
    [RedisContentSeen.prototype, ['check', 'checkFingerprint', 'count', 'clusterOf', 'importSnapshot', 'exportSnapshot']]];
  for (const [target, names] of calls) {
    for (const name of names) {
      const f = target[name];
      const wrapped = { async [name](...args) {
        try { return await f.apply(this, args); } catch (e) { throw trapped(e, SimHashError, wasm); }
      } }[name];
      Object.defineProperty(target, name, { value: wrapped, writable: true, configurable: true });
    }
  }
  return { RedisContentSeen };
}

module.exports = { install };
