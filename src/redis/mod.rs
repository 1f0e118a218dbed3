//! One content-seen test shared by many crawler processes and hosts, on Redis.
//!
//! The JS side (`RedisContentSeen` in the npm package) only moves bytes between a Redis
//! client and this module: the key names, the stored formats, the script arguments, and
//! the meaning of every reply are decided here, and tested natively.
//!
//! ## Design
//!
//! - **Keys** ([`keys`]; store format 5, the table layout of format 2): the buckets of each index table are spread over
//!   small hashes (2,048 a table with the default layout, named by the key's high 11 bits;
//!   field = the low 5 bits, value = the concatenated records, the other 48 bits, 6 bytes
//!   each), small enough for Redis to keep each hash as one listpack. A page then costs
//!   4 × 6 bytes of records plus about 3 bytes of listpack headers a bucket: 29 bytes
//!   a page at 1M pages, measured by `npm run bench:shared` (store format 1, one hashtable
//!   for all buckets, took 40). This needs `hash-max-listpack-value 512` (the default 64
//!   holds 10 records a bucket; see the README's Redis settings). The URL map (page
//!   records, counts, URL → cluster) is separate and optional (`urls: false` keeps only
//!   "seen or not").
//! - **Scripts** ([`script`]): Lua never computes a distance. It compares bytes (a
//!   pre-filter that counts a record's unequal 4-bit nibbles, see [`keys`]) and returns the
//!   candidate bytes; wasm measures ([`decide`]). A check whose page has no record passing
//!   the pre-filter is decided and stored in the same script call: one round trip.
//! - **Atomicity**: every decision and its writes happen inside one script. When a check
//!   needs a second call (candidates to measure), the second call sends back the set of
//!   candidates already measured; the script decides only if no other record passes the
//!   pre-filter now, else it returns the new ones. So nothing stored in between is missed,
//!   and the result is linearizable: each check takes effect at its deciding script call.
//! - **Cluster**: every key of a namespace carries the hash tag `{NS}`, so a namespace
//!   lives in one slot and one script sees all its tables. The alternative (one script
//!   per table, a sequence number so that an older match decides) needs T round trips in
//!   parallel, tentative inserts that other workers must resolve, and cannot give the
//!   one-round-trip common case. A namespace is therefore served by one master; a cluster
//!   spreads several namespaces (crawls) over its masters. One master running these
//!   scripts serves tens of thousands of checks a second, far above a crawl's fetch rate.
//! - **Durability**: the scripts are replicated and written to the AOF as their effects.
//!   Run Redis with `appendonly yes` and `appendfsync always` to lose no acknowledged check
//!   on a crash or power loss (`everysec`, Redis's default, may lose the last second; the
//!   fault test uses `always`). A restarted server that lost the namespace is detected: its
//!   meta key is gone, and every call fails with a clear error instead of starting afresh.
//! - **Faults**: a dropped connection fails the call with an error (the JS side maps it to
//!   `SimHashError`), and the client may repeat it (`retries`). Every check carries a
//!   random *check id*, the same in all its calls and their repeats, and the URL-map value
//!   a check writes records it ([`record`]; without the URL map, a short-lived `{NS}:r:`
//!   key): a repeated call whose first attempt was applied finds its id and gets that
//!   attempt's answer (`{"R"}`, [`Outcome::replayed`]), writing nothing. So every stored
//!   page is reported new to exactly one check, and counts are exact, however many replies
//!   are lost; only a check that fails for good may have been applied unseen.
//! - **Sketch mode** ([`sketch`], `sketch: true`): `ContentSeen`'s two-step flow (candidates
//!   within k and from MinHash bands stored in Redis, confirmed by the estimated Jaccard
//!   similarity), with pages known by page numbers; its own script (`CHECK_SKETCH`), which
//!   filters band candidates by byte-level bounds so that the common case stays one call.
//!   Its band buckets hold 5-byte band records in 1,024 hashes a band (store format 4,
//!   [`keys`]).
//! - **Same settings everywhere** ([`meta`]): the scheme, layout, html flag, URL-map flag,
//!   sketch setting, `content` and `template` are stored in `{NS}:meta`; every script compares them and a worker
//!   with other settings gets [`Error::SchemeMismatch`].

pub mod decide;
pub mod export;
pub mod import;
pub mod keys;
pub mod meta;
pub mod record;
pub mod script;
pub mod sketch;
#[cfg(feature = "html")]
pub mod template;

pub use decide::CheckPlan;
#[cfg(test)]
use decide::Outcome;
pub use export::ExportBuilder;
pub use import::ImportCursor;
pub use sketch::SketchPlan;

use std::sync::Arc;

use crate::error::{Error, Result};
use crate::fingerprint::SimHasher;
use crate::index::Layout;
use crate::seen::{ContentSeen, SeenConfig};
use crate::sketch::{Sketch, SketchScheme};
use keys::TableGeometry;
use record::{fp_from, PageRecord};

/// Settings of a shared store: those of a [`ContentSeen`] (with its defaults, so that the
/// same options give the same decisions), the namespace, whether the URL map is kept, and
/// the client's batching and retries.
#[derive(Clone, Debug, PartialEq)]
pub struct StoreConfig {
    /// The content-seen settings (k, layout, scheme, html).
    pub seen: SeenConfig,
    /// The namespace: several crawls can share one Redis.
    pub namespace: String,
    /// Keep URLs, counts and clusters (default `true`); `false` answers "seen or not" only.
    pub urls: bool,
    /// The most pages one script call checks (default [`StoreConfig::DEFAULT_BATCH`]):
    /// the checks a worker issues together share calls of up to this many pages. A call
    /// runs atomically, so a larger batch holds the server longer (about 30 µs a page).
    pub batch: u32,
    /// Times a failed Redis call is repeated (or a reconnecting client waited for) before
    /// the check fails (default 0, at most [`StoreConfig::MAX_RETRIES`]). A repeated call
    /// gets the answer its first attempt got, by the check's id ([`RedisSeen::begin`]).
    pub retries: u32,
}

impl StoreConfig {
    /// The option names of a shared store besides [`SeenConfig::NAMES`] and
    /// [`crate::Options::NAMES`], as the JS API spells them.
    pub const NAMES: [&'static str; 4] = ["namespace", "urls", "batch", "retries"];
    /// The namespace when none is given.
    pub const DEFAULT_NAMESPACE: &'static str = "simhash";
    /// Pages a script call checks at most, by default: 32 new pages hold a server for
    /// about 1 ms, and larger batches gained nothing in `npm run bench:shared`.
    pub const DEFAULT_BATCH: u32 = 32;
    /// The largest `batch` accepted (a call of 1,000 pages holds the server ~30 ms).
    pub const MAX_BATCH: u32 = 1000;
    /// The most `retries` accepted: with waits of 50 ms doubling to 500 ms, about 8
    /// minutes, within the 10 minutes for which a check without the URL map is
    /// remembered by its id (`{NS}:r:` keys).
    pub const MAX_RETRIES: u32 = 1000;
    /// The largest sketch a page record holds, in bytes (the in-memory store takes up to
    /// `sketch::MAX_SIZE`).
    pub const MAX_SKETCH: usize = record::MAX_SKETCH_BYTES;

    /// The defaults for a store with or without the URL map: [`ContentSeen`]'s (its
    /// default sketch and threshold) with the URL map; fingerprints only without it
    /// (sketch mode keeps the URL map: pages are known by number there).
    pub fn defaults(urls: bool) -> StoreConfig {
        StoreConfig {
            seen: if urls { SeenConfig::default() } else { SeenConfig::fingerprint_only() },
            namespace: StoreConfig::DEFAULT_NAMESPACE.to_owned(),
            urls,
            batch: StoreConfig::DEFAULT_BATCH,
            retries: 0,
        }
    }
}

impl Default for StoreConfig {
    /// [`StoreConfig::defaults`] with the URL map: the same defaults as [`ContentSeen`].
    fn default() -> Self {
        StoreConfig::defaults(true)
    }
}

/// The settings of a namespace, shared by the checks of one worker.
#[derive(Clone)]
pub struct Store {
    k: u32,
    layout: Layout,
    geometry: Vec<TableGeometry>,
    meta: String,
    keys: Vec<String>,
    urls: bool,
    /// Sketch mode ([`sketch`]): the sketch scheme and the threshold.
    sketch: Option<SketchScheme>,
    threshold: f64,
    /// How the site templates' blocks are hashed: as the namespace's store format says
    /// (`meta::kept_at_4`).
    block_hash: crate::html::BlockHash,
}

/// A worker's handle: the store's settings and a hasher.
pub struct RedisSeen {
    store: Arc<Store>,
    hasher: SimHasher,
    /// The same scheme over text already read from its HTML (with the site templates:
    /// [`template`]).
    plain: SimHasher,
    config: StoreConfig,
}

impl RedisSeen {
    /// A handle for `config`, or an error naming the bad setting.
    pub fn new(config: StoreConfig) -> Result<RedisSeen> {
        keys::check_namespace(&config.namespace)?;
        if !(1..=StoreConfig::MAX_BATCH).contains(&config.batch) {
            return Err(Error::option(
                "batch",
                config.batch,
                format!("the most pages a script call checks: 1 to {}", StoreConfig::MAX_BATCH),
            ));
        }
        if config.retries > StoreConfig::MAX_RETRIES {
            return Err(Error::option(
                "retries",
                config.retries,
                format!("0 to {} repeats of a failed Redis call", StoreConfig::MAX_RETRIES),
            ));
        }
        config.seen.validate_k()?;
        if let Some(sk) = config.seen.sketch {
            SketchScheme::up_to(sk.size(), StoreConfig::MAX_SKETCH)?;
            if !config.urls {
                return Err(Error::option(
                    "urls",
                    "false",
                    "true with a sketch (sketch mode keeps the URL map; use sketch: false for \"seen or not\" only)",
                ));
            }
        }
        // ContentSeen validates k, layout and scheme the same way.
        let checked = ContentSeen::new(config.seen.clone())?;
        let seen = checked.config().clone();
        let layout = seen.layout.clone().ok_or_else(|| Error::option("layout", "none", "a layout"))?;
        let geometry = TableGeometry::of_layout(&layout)?;
        let sketch_meta = match seen.sketch {
            None => "none".to_owned(),
            Some(sk) => format!("{} t={}", sk.describe(), crate::error::number(seen.threshold)),
        };
        #[cfg(feature = "html")]
        let content = if seen.html { seen.content.name() } else { "all" };
        #[cfg(not(feature = "html"))]
        let content = "all";
        let template = if seen.learns_template() { seen.template.to_string() } else { "none".to_owned() };
        let meta = meta::encode(
            &seen.options.describe(),
            &layout.to_string(),
            seen.html,
            content,
            &template,
            config.urls,
            &sketch_meta,
        );
        let mut key_list = keys::key_names(&config.namespace);
        if seen.sketch.is_some() {
            key_list.extend(keys::sketch_key_names(&config.namespace));
        }
        let mut hasher = SimHasher::new(seen.options)?;
        hasher.set_html(seen.html)?;
        #[cfg(feature = "html")]
        hasher.set_content(seen.content);
        let plain = SimHasher::new(seen.options)?;
        let store = Store {
            k: seen.k,
            keys: key_list,
            layout,
            geometry,
            meta,
            urls: config.urls,
            sketch: seen.sketch,
            threshold: seen.threshold,
            block_hash: crate::html::BlockHash::default(),
        };
        Ok(RedisSeen { store: Arc::new(store), hasher, plain, config: StoreConfig { seen, ..config } })
    }

    /// The settings in force (layout filled in).
    pub fn config(&self) -> &StoreConfig {
        &self.config
    }

    /// The layout.
    pub fn layout(&self) -> &Layout {
        &self.store.layout
    }

    /// The key names, in the scripts' `KEYS` order.
    pub fn keys(&self) -> &[String] {
        &self.store.keys
    }

    /// The meta string this worker expects.
    pub fn meta(&self) -> &str {
        &self.store.meta
    }

    /// The fingerprint of `text` with the namespace's settings.
    pub fn fingerprint(&mut self, text: &str) -> Result<u64> {
        self.hasher.fingerprint(text)
    }

    /// Starts a check of `url` with a fingerprint. `check_id` is a random id, not 0,
    /// drawn once per check and sent again by every retry of its calls: a call repeated
    /// after a lost reply then gets the answer its first attempt got (the page it stored
    /// is still reported new; see [`Outcome::replayed`]).
    pub fn begin(&self, url: &str, fp: u64, check_id: u64) -> Result<CheckPlan> {
        CheckPlan::new(Arc::clone(&self.store), url, fp, check_id)
    }

    /// The sketch setting (`None`: the fingerprint-only store).
    pub fn sketch_scheme(&self) -> Option<SketchScheme> {
        self.store.sketch
    }

    /// Starts a sketch-mode check of `url` (`src/redis/sketch.rs`): with the page's sketch (from
    /// [`fingerprint_and_sketch`](Self::fingerprint_and_sketch)), or without one
    /// (`checkFingerprint`: the stored pages within k are the duplicates, and a new page
    /// is stored without a sketch, as `ContentSeen::check_fingerprint` does).
    /// `check_id` as in [`begin`](Self::begin).
    pub fn begin_sketch(
        &self,
        url: &str,
        fp: u64,
        sketch: Option<Sketch>,
        check_id: u64,
    ) -> Result<SketchPlan> {
        if self.store.sketch.is_none() {
            return Err(Error::option("sketch", "false", "a sketch-mode store for a sketch check"));
        }
        SketchPlan::new(Arc::clone(&self.store), url, fp, sketch, check_id)
    }

    /// Starts a sketch-mode check of a text: the URL is checked first (a bad URL costs no
    /// fingerprint), then the fingerprint and sketch are made in one pass.
    pub fn begin_sketch_text(&mut self, url: &str, text: &str, check_id: u64) -> Result<SketchPlan> {
        record::check_url(url)?;
        let (fp, sketch) = self.fingerprint_and_sketch(text)?;
        self.begin_sketch(url, fp, Some(sketch), check_id)
    }

    /// [`begin_sketch_text`](Self::begin_sketch_text) of a text already read from its HTML
    /// (`TemplateRead::text` in the `template` module).
    pub fn begin_sketch_read(&mut self, url: &str, text: &str, check_id: u64) -> Result<SketchPlan> {
        record::check_url(url)?;
        let scheme = self
            .store
            .sketch
            .ok_or_else(|| Error::option("sketch", "false", "a sketch-mode store for a sketch"))?;
        let (fp, sketch) = self.plain.fingerprint_and_sketch(text, scheme)?;
        self.begin_sketch(url, fp, Some(sketch), check_id)
    }

    /// With the site templates learnt (`html`, the main content, `template`), the read of
    /// an HTML page of `url` (the `template` module); `None` otherwise.
    #[cfg(feature = "html")]
    pub fn template_read(&self, url: &str, html: &str) -> Option<template::TemplateRead> {
        let seen = &self.config.seen;
        seen.learns_template().then(|| {
            template::TemplateRead::new(
                &self.config.namespace,
                &self.store.keys[0],
                url,
                html,
                seen.template,
                self.store.block_hash,
            )
        })
    }

    /// The `LEARN` script's reply (the `template` module): `true` when the page was counted, `false`
    /// when it was learnt before or its host is full; an error when the namespace's
    /// settings changed or it is gone.
    pub fn learn_reply(&self, reply: &[Vec<u8>]) -> Result<bool> {
        match reply.first().map(Vec::as_slice) {
            Some(b"1") => Ok(true),
            Some(b"0") => Ok(false),
            _ => Err(self.failed_reply(reply)),
        }
    }

    /// The error of a template script's reply that is not a success: `X` (the namespace's
    /// settings changed: the differing field), `G` (the namespace is gone), or unknown.
    fn failed_reply(&self, reply: &[Vec<u8>]) -> Error {
        match reply.first().map(Vec::as_slice) {
            Some(b"X") => {
                if let Err(e) = meta::compare(
                    reply.get(1).map(Vec::as_slice).unwrap_or(b""),
                    &self.store.meta,
                    &self.store.keys[0],
                ) {
                    return e;
                }
                decide::bad_reply("the namespace's settings changed")
            }
            Some(b"G") => decide::gone(&self.store.keys[0]),
            _ => decide::bad_reply("an unknown status"),
        }
    }

    /// [`fingerprint`](Self::fingerprint) of a text already read from its HTML.
    pub fn fingerprint_read(&mut self, text: &str) -> Result<u64> {
        self.plain.fingerprint(text)
    }

    /// The fingerprint and sketch of `text` (sketch mode).
    pub fn fingerprint_and_sketch(&mut self, text: &str) -> Result<(u64, Sketch)> {
        let scheme = self
            .store
            .sketch
            .ok_or_else(|| Error::option("sketch", "false", "a sketch-mode store for a sketch"))?;
        self.hasher.fingerprint_and_sketch(text, scheme)
    }

    /// `ARGV` of the OPEN script: the meta, the name bits of each table's hashes, the
    /// number of bands in sketch mode (else empty), and the metas of a version-2 and a
    /// version-3 namespace with our settings (empty when none can have them, as in sketch
    /// mode), which OPEN upgrades in place.
    pub fn open_args(&self) -> Vec<Vec<u8>> {
        let bits = self.store.geometry.iter().map(|g| g.hashes().trailing_zeros() as u8).collect();
        // Sketch mode: the number of bands, whose hashes are tested too.
        let bands =
            self.store.sketch.map_or(Vec::new(), |sk| vec![crate::sketch::bands::bands_for(sk) as u8]);
        let mut args = vec![self.store.meta.as_bytes().to_vec(), bits, bands];
        args.extend(meta::UPGRADES_FROM.iter().map(|&v| meta::upgradable(&self.store.meta, v).into_bytes()));
        args
    }

    /// The OPEN script's reply: `Ok(true)` when this call created the namespace,
    /// `Ok(false)` when it existed with the same settings (upgraded from an older version or
    /// not). A version-4 namespace that learns the site templates is kept at version 4: from
    /// then on this handle works in it as version 4 does (the store format's docs, `meta.rs`).
    pub fn open_reply(&mut self, reply: &[Vec<u8>]) -> Result<bool> {
        let field =
            |i: usize| reply.get(i).map(|b| String::from_utf8_lossy(b).into_owned()).unwrap_or_default();
        match reply.first().map(Vec::as_slice) {
            Some(b"C") => Ok(true),
            Some(b"U") => Ok(false),
            Some(b"S") => {
                let stored = reply.get(1).map(Vec::as_slice).unwrap_or(b"");
                if let Some(v4) = meta::kept_at_4(&self.store.meta).filter(|v4| v4.as_bytes() == stored) {
                    let store = Arc::make_mut(&mut self.store);
                    store.meta = v4;
                    store.block_hash = crate::html::BlockHash::Words;
                    return Ok(false);
                }
                meta::compare(stored, &self.store.meta, &self.store.keys[0]).map(|()| false)
            }
            Some(b"F") => Err(Error::option(
                "namespace",
                crate::error::quoted(&self.config.namespace),
                format!(
                    "a namespace free of foreign keys: {} holds {} (choose another namespace, or delete its keys)",
                    crate::error::quoted(&field(1)),
                    field(2)
                ),
            )),
            _ => Err(Error::corrupt("Redis script reply", 0, "OPEN gave an unknown status")),
        }
    }

    /// What the server's memory settings risk, from its `INFO memory` text: a warning when it
    /// evicts any key once full (`maxmemory` set, `maxmemory-policy allkeys-*`). Evicted
    /// buckets, pages and meta leave a store that misses duplicates and then refuses every
    /// call. `noeviction` makes a full server refuse writes instead (a check fails with a
    /// clear error and stores nothing); `volatile-*` policies evict only keys with an expiry,
    /// and of the store's keys only the short-lived repeat records have one.
    pub fn server_warning(&self, info_memory: &str) -> Option<String> {
        let field =
            |name: &str| info_memory.lines().find_map(|l| l.trim_end().strip_prefix(name)?.strip_prefix(':'));
        let policy = field("maxmemory_policy")?;
        let limit: u64 = field("maxmemory")?.parse().ok()?;
        (limit > 0 && policy.starts_with("allkeys-")).then(|| {
            format!(
                "this Redis evicts any key when it reaches its maxmemory ({limit} bytes, maxmemory-policy \
                 {policy}): the namespace {} would lose pages and index entries without a word, miss \
                 duplicates, then refuse every call. Set `maxmemory-policy noeviction` (a full server then \
                 fails checks with a clear error and stores nothing), or give the store a Redis of its own",
                crate::error::quoted(&self.config.namespace)
            )
        })
    }

    /// `ARGV` of the LOOKUP script for a URL.
    pub fn lookup_args(&self, url: &str) -> Result<Vec<Vec<u8>>> {
        record::check_url(url)?;
        Ok(vec![self.store.meta.as_bytes().to_vec(), url.as_bytes().to_vec()])
    }

    /// The LOOKUP reply: `(cluster URL, count, fingerprint)` or `None` for an unknown URL.
    pub fn lookup_reply(&self, reply: &[Vec<u8>]) -> Result<Option<(String, u64, u64)>> {
        match reply.first().map(Vec::as_slice) {
            None => Ok(None),
            Some(b"U") if reply.len() == 4 => {
                let url = String::from_utf8(reply[1].clone())
                    .map_err(|_| Error::corrupt("Redis script reply", 0, "URL not UTF-8"))?;
                let n = std::str::from_utf8(&reply[2]).ok().and_then(|s| s.parse().ok()).unwrap_or(0);
                Ok(Some((url, n, fp_from(&reply[3])?)))
            }
            Some(b"G") => Err(decide::gone(&self.store.keys[0])),
            Some(b"X") => {
                meta::compare(
                    reply.get(1).map(Vec::as_slice).unwrap_or(b""),
                    &self.store.meta,
                    &self.store.keys[0],
                )?;
                Err(Error::corrupt("Redis script reply", 0, "LOOKUP: settings changed"))
            }
            _ => Err(Error::corrupt("Redis script reply", 0, "LOOKUP gave an unknown status")),
        }
    }

    /// Decodes one `HSCAN {NS}:p` pair into `(fingerprint, URL, sketch payload)` (the
    /// sketch only in sketch mode, for a page stored with one).
    pub fn page_entry(&self, field: &[u8], value: &[u8]) -> Result<(u64, String, Option<Vec<u8>>)> {
        if self.store.sketch.is_some() {
            record::page_number(field)?;
            let (fp, rec) = record::decode_page_value(value)?;
            return Ok((fp, rec.url, rec.sketch.map(|(_, b)| b)));
        }
        Ok((fp_from(field)?, PageRecord::decode(value)?.url, None))
    }

    /// The cluster URL of one `HSCAN {NS}:u` value when it is an alias (a URL counted under
    /// another stored page), `None` for a stored page.
    pub fn alias_of(&self, value: &[u8]) -> Result<Option<String>> {
        Ok(match record::UrlEntry::decode(value)? {
            record::UrlEntry::Alias(url) | record::UrlEntry::AliasBy { cluster: url, .. } => Some(url),
            _ => None,
        })
    }

    /// The IMPORT script's `ARGV` batches (at most about `batch` pages each) for a
    /// [`ContentSeen`] snapshot, which must have been made with this store's settings,
    /// made one at a time (an import cursor).
    pub fn import_cursor(&self, snapshot: &[u8], batch: usize) -> Result<ImportCursor> {
        let seen = ContentSeen::from_bytes(snapshot, Some(&self.config.seen))?;
        Ok(ImportCursor::new(Arc::clone(&self.store), self.config.namespace.clone(), seen, batch))
    }

    /// All of [`RedisSeen::import_cursor`]'s batches at once (for tests and small snapshots).
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn import_batches(&self, snapshot: &[u8], batch: usize) -> Result<Vec<Vec<Vec<u8>>>> {
        let mut cursor = self.import_cursor(snapshot, batch)?;
        let mut out = Vec::new();
        while let Some(b) = cursor.next_batch()? {
            out.push(b);
        }
        Ok(out)
    }

    /// The `SCAN MATCH` pattern of the namespace's template hosts; `None` when this store
    /// learns no template.
    #[cfg(feature = "html")]
    pub fn template_pattern(&self) -> Option<String> {
        self.config.seen.learns_template().then(|| template::host_pattern(&self.config.namespace))
    }

    /// The host of a key found with [`template_pattern`](Self::template_pattern), and the name
    /// of its block hash.
    #[cfg(feature = "html")]
    pub fn template_host_keys(&self, pages_key: &[u8]) -> Result<(String, String)> {
        template::host_keys(&self.config.namespace, pages_key)
    }

    /// One host's template, from its page set's members and its block hash's pairs (see
    /// `export_host` in the `template` module).
    #[cfg(feature = "html")]
    pub fn export_template_host(
        &self,
        host: String,
        members: &[Vec<u8>],
        pairs: &[(Vec<u8>, Vec<u8>)],
    ) -> Result<crate::html::template::HostParts> {
        template::export_host(host, members, pairs, self.config.seen.template)
    }

    /// The `IMPORT_TEMPLATE` reply.
    pub fn import_template_reply(&self, reply: &[Vec<u8>]) -> Result<()> {
        match reply.first().map(Vec::as_slice) {
            Some(b"OK") => Ok(()),
            _ => Err(self.failed_reply(reply)),
        }
    }

    /// A builder of the namespace's [`ContentSeen`] snapshot from its pages and aliases as
    /// they are read.
    pub fn export_builder(&self) -> Result<ExportBuilder> {
        ExportBuilder::new(Arc::clone(&self.store), &self.config.seen)
    }

    /// A [`ContentSeen`] snapshot of exported pages (fingerprint, URL, count, and in sketch
    /// mode the sketch payload, `None` for a page stored without one) and aliases, through
    /// [`RedisSeen::export_builder`].
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn export_snapshot(
        &self,
        pages: &[(u64, String, u64, Option<Vec<u8>>)],
        aliases: &[(String, String)],
    ) -> Result<Vec<u8>> {
        let mut b = self.export_builder()?;
        for (fp, url, count, sk) in pages {
            b.add_page(*fp, url, *count, sk.as_deref())?;
        }
        for (a, cluster) in aliases {
            b.add_alias(a, cluster)?;
        }
        b.finish()
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_shared;
#[cfg(test)]
mod tests_sketch;

/// The re-checks that bring a page checked in once, with `aliases` alias checks counted
/// under it, to `count`; fewer than `1 + aliases` is refused as corrupt.
fn rechecks(url: &str, count: u64, aliases: u64) -> Result<u64> {
    count.checked_sub(1 + aliases).ok_or_else(|| {
        Error::corrupt(
            "Redis namespace",
            0,
            format!("{} has count {count} but {aliases} duplicate URLs", crate::error::quoted(url)),
        )
    })
}
