//! JS bindings of [`crate::RedisSeen`] (the Redis-shared content-seen test): types converted,
//! errors mapped, nothing decided here. The Node helper `redis.cjs` moves the bytes.

use js_sys::{Array, Object, Uint8Array};
use wasm_bindgen::prelude::*;

use super::convert::{big, opt_bool, opt_string, opt_whole_option, option_object, options_to_js, set};
use super::js_error;
use super::seen::seen_config_fields;
use crate::fingerprint::Options;
use crate::redis::decide::{CheckPlan, Outcome};
use crate::redis::sketch::SketchPlan;
use crate::redis::{script, ExportBuilder, ImportCursor, RedisSeen, StoreConfig};
use crate::seen::SeenConfig;
use crate::sketch::Sketch;

/// A reply's byte strings (Buffers; strings and numbers as some clients give them). Read
/// in place: the array is not copied, and a Buffer is tested for first.
fn bytes_list(v: &JsValue) -> Result<Vec<Vec<u8>>, JsValue> {
    let Some(list) = v.dyn_ref::<Array>() else {
        return Err(js_error(crate::Error::corrupt("Redis reply", 0, "not an array of byte strings")));
    };
    (0..list.length())
        .map(|i| {
            let x = list.get(i);
            if let Some(b) = x.dyn_ref::<Uint8Array>() {
                Ok(b.to_vec())
            } else if let Some(s) = x.as_string() {
                Ok(s.into_bytes())
            } else if let Some(n) = x.as_f64() {
                Ok(crate::error::number(n).into_bytes())
            } else {
                Err(js_error(crate::Error::corrupt("Redis reply", 0, "an element is not a byte string")))
            }
        })
        .collect()
}

fn to_js_list(v: &[Vec<u8>]) -> Array {
    v.iter().map(|b| JsValue::from(Uint8Array::from(b.as_slice()))).collect()
}

#[wasm_bindgen]
extern "C" {
    /// The functions that make a check's result objects (`SHAPES` in `redis.cjs`): the
    /// values cross once, in one call, and the object is a literal of one shape (a
    /// `Reflect.set` a property, crossing from here, costs more than the rest of `feed`).
    pub type Shapes;

    /// `{ duplicate, empty: false, matches, fingerprint, cluster, count, distance, estimate,
    /// sketch, roundTrips }`: `ContentSeen`'s answer and the calls it took (`undefined`
    /// arrives for `null`).
    #[wasm_bindgen(method)]
    #[allow(clippy::too_many_arguments)]
    fn result(
        this: &Shapes,
        duplicate: bool,
        matches: Array,
        fingerprint: u64,
        cluster: Option<&str>,
        count: Option<f64>,
        distance: Option<u32>,
        estimate: Option<f64>,
        sketch: Option<Uint8Array>,
        round_trips: u32,
    ) -> JsValue;

    /// `{ id, fingerprint, distance }` (`id`: `undefined` for `null`).
    #[wasm_bindgen(method, js_name = match)]
    fn match_of(this: &Shapes, id: Option<&str>, fingerprint: u64, distance: u32) -> JsValue;
}

fn matches_to_js(o: &Outcome, shapes: &Shapes) -> Array {
    o.matches.iter().map(|m| shapes.match_of(m.url.as_deref(), m.fingerprint, m.distance)).collect()
}

/// The result object of a decided check; `estimate` and `sketch` are sketch mode's.
fn outcome_to_js(o: &Outcome, shapes: &Shapes, estimate: Option<f64>, sketch: Option<&Sketch>) -> JsValue {
    let matches = matches_to_js(o, shapes);
    shapes.result(
        o.duplicate,
        matches,
        o.fingerprint,
        o.cluster.as_deref(),
        o.count.map(|n| n as f64),
        o.distance(),
        estimate,
        sketch.map(|s| Uint8Array::from(&s.to_bytes()[..])),
        o.calls,
    )
}

/// The wasm side of `RedisContentSeen` (not public API: use the class from the package).
#[wasm_bindgen(js_name = __RedisStore, skip_typescript)]
pub struct JsRedisStore {
    seen: RedisSeen,
    /// The entries staged for the next script call (`stage`, `takeEntries`).
    staged: Vec<u8>,
}

#[wasm_bindgen(js_class = __RedisStore)]
impl JsRedisStore {
    /// `{ namespace, urls, batch, retries, k, layout, html, sketch, threshold, ...hasher options }`.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<JsRedisStore, JsValue> {
        let o = option_object(
            &options,
            &[&StoreConfig::NAMES, &SeenConfig::NAMES, &Options::NAMES],
            "{ namespace: 'crawl', k: 3 }",
        )?;
        let urls = opt_bool(&o, "urls")?.unwrap_or(true);
        let d = StoreConfig::defaults(urls);
        let config = StoreConfig {
            seen: seen_config_fields(&o, d.seen.clone(), StoreConfig::MAX_SKETCH)?,
            namespace: opt_string(&o, "namespace")?.unwrap_or(d.namespace),
            urls,
            batch: opt_whole_option(&o, "batch")?.unwrap_or(d.batch),
            retries: opt_whole_option(&o, "retries")?.unwrap_or(d.retries),
        };
        RedisSeen::new(config).map(|seen| JsRedisStore { seen, staged: Vec::new() }).map_err(js_error)
    }

    /// The key names (`KEYS` of every script).
    pub fn keys(&self) -> Array {
        self.seen.keys().iter().map(|k| JsValue::from(k.as_str())).collect()
    }

    /// A script's Lua source, by one of the names of `scriptNames()`.
    pub fn script(name: &str) -> Result<String, JsValue> {
        script::SCRIPTS.iter().find(|(n, _)| *n == name).map(|(_, lua)| (*lua).to_owned()).ok_or_else(|| {
            let names: Vec<&str> = script::SCRIPTS.iter().map(|(n, _)| *n).collect();
            js_error(crate::Error::option(
                "script",
                crate::error::quoted(name),
                format!("one of {}", names.join(", ")),
            ))
        })
    }

    /// The scripts' names (the one list: [`script::SCRIPTS`]).
    #[wasm_bindgen(js_name = scriptNames)]
    pub fn script_names() -> Array {
        script::SCRIPTS.iter().map(|(n, _)| JsValue::from(*n)).collect()
    }

    /// The settings (hasher options, k, layout, namespace, urls, batch, retries, sketch,
    /// threshold, content, template).
    pub fn options(&self) -> JsValue {
        let c = self.seen.config();
        let o = options_to_js(&c.seen.options, c.seen.html);
        set(&o, "k", c.seen.k);
        set(&o, "layout", self.seen.layout().to_string());
        set(&o, "namespace", c.namespace.as_str());
        set(&o, "urls", c.urls);
        set(&o, "batch", c.batch);
        set(&o, "retries", c.retries);
        set(&o, "sketch", c.seen.sketch.map_or(JsValue::FALSE, |s| JsValue::from(s.size() as u32)));
        // As ContentSeen's options(): the threshold in force, unused without a sketch.
        set(&o, "threshold", c.seen.threshold);
        set(&o, "content", c.seen.content.name());
        set(
            &o,
            "template",
            if c.seen.learns_template() { JsValue::from(c.seen.template) } else { JsValue::FALSE },
        );
        o.into()
    }

    /// `true` in sketch mode (checks go through `beginSketch` and the `check_sketch` script).
    #[wasm_bindgen(js_name = sketchMode)]
    pub fn sketch_mode(&self) -> bool {
        self.seen.sketch_scheme().is_some()
    }

    /// Starts a sketch-mode check of a text (fingerprint and sketch in one pass);
    /// `check_id`: random, not 0, the same for every retry of the check's calls.
    #[wasm_bindgen(js_name = beginSketch)]
    pub fn begin_sketch(&mut self, url: &str, text: &str, check_id: u64) -> Result<JsSketchCheck, JsValue> {
        self.seen.begin_sketch_text(url, text, check_id).map(JsSketchCheck::new).map_err(js_error)
    }

    /// `beginSketch` of a text given as UTF-8 bytes, read in place (validated as `__utf8`
    /// validates them).
    #[wasm_bindgen(js_name = beginSketchBytes)]
    pub fn begin_sketch_bytes(
        &mut self,
        url: &str,
        bytes: &[u8],
        check_id: u64,
    ) -> Result<JsSketchCheck, JsValue> {
        let text = crate::error::utf8(bytes).map_err(js_error)?;
        self.begin_sketch(url, text, check_id)
    }

    /// Starts a sketch-mode check of a fingerprint (no sketch: `checkFingerprint`).
    #[wasm_bindgen(js_name = beginSketchFingerprint)]
    pub fn begin_sketch_fingerprint(
        &self,
        url: &str,
        fingerprint: u64,
        check_id: u64,
    ) -> Result<JsSketchCheck, JsValue> {
        self.seen.begin_sketch(url, fingerprint, None, check_id).map(JsSketchCheck::new).map_err(js_error)
    }

    /// Whether checks read pages through [`templateRead`](Self::template_read): the site
    /// templates are learnt (`html`, the main content, `template`).
    #[wasm_bindgen(js_name = learnsTemplate)]
    pub fn learns_template(&self) -> bool {
        self.seen.config().seen.learns_template()
    }

    /// With the site templates learnt, the read of an HTML page (`undefined` otherwise):
    /// `HMGET` its `fields()` from `keys()[2]`, `read(reply)` gives the text to check
    /// (`beginSketchRead`, `fingerprintRead`), and `learnArgs(duplicate)` the `learn`
    /// script's `ARGV` (its `KEYS` are `keys()`).
    #[wasm_bindgen(js_name = templateRead)]
    pub fn template_read(&self, url: &str, html: &str) -> Option<JsTemplateRead> {
        self.seen.template_read(url, html).map(JsTemplateRead)
    }

    /// `templateRead` of a page given as UTF-8 bytes, read in place (validated as `__utf8`
    /// validates them).
    #[wasm_bindgen(js_name = templateReadBytes)]
    pub fn template_read_bytes(&self, url: &str, bytes: &[u8]) -> Result<Option<JsTemplateRead>, JsValue> {
        Ok(self.template_read(url, crate::error::utf8(bytes).map_err(js_error)?))
    }

    /// The `learn` script's reply: `true` when the page was counted.
    #[wasm_bindgen(js_name = learnReply)]
    pub fn learn_reply(&self, reply: JsValue) -> Result<bool, JsValue> {
        self.seen.learn_reply(&bytes_list(&reply)?).map_err(js_error)
    }

    /// `beginSketch` of a text read by `templateRead`.
    #[wasm_bindgen(js_name = beginSketchRead)]
    pub fn begin_sketch_read(
        &mut self,
        url: &str,
        text: &str,
        check_id: u64,
    ) -> Result<JsSketchCheck, JsValue> {
        self.seen.begin_sketch_read(url, text, check_id).map(JsSketchCheck::new).map_err(js_error)
    }

    /// `fingerprint` of a text read by `templateRead`.
    #[wasm_bindgen(js_name = fingerprintRead)]
    pub fn fingerprint_read(&mut self, text: &str) -> Result<u64, JsValue> {
        self.seen.fingerprint_read(text).map_err(js_error)
    }

    /// The meta string stored in the namespace.
    pub fn meta(&self) -> String {
        self.seen.meta().to_owned()
    }

    /// The fingerprint of a text with the namespace's settings.
    pub fn fingerprint(&mut self, text: &str) -> Result<u64, JsValue> {
        self.seen.fingerprint(text).map_err(js_error)
    }

    /// `fingerprint` of a text given as UTF-8 bytes, read in place (validated as `__utf8`
    /// validates them).
    #[wasm_bindgen(js_name = fingerprintBytes)]
    pub fn fingerprint_bytes(&mut self, bytes: &[u8]) -> Result<u64, JsValue> {
        let text = crate::error::utf8(bytes).map_err(js_error)?;
        self.fingerprint(text)
    }

    /// Starts a check (`check_id` as in `beginSketch`).
    pub fn begin(&self, url: &str, fingerprint: u64, check_id: u64) -> Result<JsStoreCheck, JsValue> {
        self.seen
            .begin(url, fingerprint, check_id)
            .map(|plan| JsStoreCheck { plan, replayed: false })
            .map_err(js_error)
    }

    #[wasm_bindgen(js_name = openArgs)]
    pub fn open_args(&self) -> Array {
        to_js_list(&self.seen.open_args())
    }

    /// `true` when the namespace was created by this call.
    #[wasm_bindgen(js_name = openReply)]
    pub fn open_reply(&mut self, reply: JsValue) -> Result<bool, JsValue> {
        self.seen.open_reply(&bytes_list(&reply)?).map_err(js_error)
    }

    /// A warning about the server's memory settings, from its `INFO memory` text, or
    /// `undefined`.
    #[wasm_bindgen(js_name = serverWarning)]
    pub fn server_warning(&self, info_memory: &str) -> Option<String> {
        self.seen.server_warning(info_memory)
    }

    #[wasm_bindgen(js_name = lookupArgs)]
    pub fn lookup_args(&self, url: &str) -> Result<Array, JsValue> {
        self.seen.lookup_args(url).map(|a| to_js_list(&a)).map_err(js_error)
    }

    /// `{ cluster, count, fingerprint }` or `undefined`.
    #[wasm_bindgen(js_name = lookupReply)]
    pub fn lookup_reply(&self, reply: JsValue) -> Result<JsValue, JsValue> {
        Ok(match self.seen.lookup_reply(&bytes_list(&reply)?).map_err(js_error)? {
            None => JsValue::UNDEFINED,
            Some((cluster, count, fp)) => {
                let o = Object::new();
                set(&o, "cluster", cluster.as_str());
                set(&o, "count", count as f64);
                set(&o, "fingerprint", big(fp));
                o.into()
            }
        })
    }

    /// `[fingerprint, url, sketch]` of one `HSCAN {NS}:p` pair (`sketch`: the payload
    /// bytes in sketch mode, else `null`).
    #[wasm_bindgen(js_name = pageEntry)]
    pub fn page_entry(&self, field: &[u8], value: &[u8]) -> Result<Array, JsValue> {
        let (fp, url, sketch) = self.seen.page_entry(field, value).map_err(js_error)?;
        let sketch = sketch.map_or(JsValue::NULL, |b| Uint8Array::from(b.as_slice()).into());
        Ok(Array::of3(&big(fp), &JsValue::from(url), &sketch))
    }

    /// The cluster URL of one `HSCAN {NS}:u` value when it is an alias, else `null`.
    #[wasm_bindgen(js_name = aliasOf)]
    pub fn alias_of(&self, value: &[u8]) -> Result<Option<String>, JsValue> {
        self.seen.alias_of(value).map_err(js_error)
    }

    /// The IMPORT script's `ARGV` batches for a `ContentSeen` snapshot, one at a time.
    #[wasm_bindgen(js_name = importCursor)]
    pub fn import_cursor(&self, snapshot: &[u8], batch: u32) -> Result<JsImportCursor, JsValue> {
        self.seen.import_cursor(snapshot, batch as usize).map(JsImportCursor).map_err(js_error)
    }

    /// Checks the `import_template` script's reply.
    #[wasm_bindgen(js_name = importTemplateReply)]
    pub fn import_template_reply(&self, reply: JsValue) -> Result<(), JsValue> {
        self.seen.import_template_reply(&bytes_list(&reply)?).map_err(js_error)
    }

    /// The `SCAN MATCH` pattern of the namespace's template hosts (`undefined` when it
    /// learns no template).
    #[wasm_bindgen(js_name = templatePattern)]
    pub fn template_pattern(&self) -> Option<String> {
        #[cfg(feature = "html")]
        return self.seen.template_pattern();
        #[cfg(not(feature = "html"))]
        None
    }

    /// `[host, blockHashKey]` of a key found with `templatePattern()`.
    #[wasm_bindgen(js_name = templateHostKeys)]
    pub fn template_host_keys(&self, pages_key: &[u8]) -> Result<Array, JsValue> {
        #[cfg(feature = "html")]
        {
            let (host, blocks) = self.seen.template_host_keys(pages_key).map_err(js_error)?;
            Ok(Array::of2(&JsValue::from(host), &JsValue::from(blocks)))
        }
        #[cfg(not(feature = "html"))]
        {
            let _ = pages_key;
            Err(js_error(crate::Error::html_disabled()))
        }
    }

    /// A builder of the namespace's `ContentSeen` snapshot, fed page by page as they are read.
    #[wasm_bindgen(js_name = exportBuilder)]
    pub fn export_builder(&self) -> Result<JsExportBuilder, JsValue> {
        self.seen.export_builder().map(JsExportBuilder).map_err(js_error)
    }

    /// The entries staged since the last call (`stage` of each check), one after another:
    /// the entries argument of one CHECK or `check_sketch` call. Clears the stage.
    #[wasm_bindgen(js_name = takeEntries)]
    pub fn take_entries(&mut self) -> Uint8Array {
        let out = Uint8Array::from(self.staged.as_slice());
        self.staged.clear();
        out
    }
}

/// One page's template read (not public API; `src/redis/template.rs`).
#[wasm_bindgen(js_name = __TemplateRead, skip_typescript)]
pub struct JsTemplateRead(crate::redis::template::TemplateRead);

#[wasm_bindgen(js_class = __TemplateRead)]
impl JsTemplateRead {
    /// The `learn` script's `KEYS`: meta, the host's page set, its block hash.
    pub fn keys(&self) -> Array {
        self.0.keys().iter().map(|k| JsValue::from(k.as_str())).collect()
    }

    /// The `HMGET` fields: the page's block hashes.
    pub fn fields(&self) -> Array {
        to_js_list(&self.0.fields())
    }

    /// The text to check, from the `HMGET` reply (byte strings, `null` for a block never seen)
    /// and the `SCARD` reply of the host's page set (`pages`).
    pub fn read(&mut self, reply: JsValue, pages: f64) -> Result<String, JsValue> {
        if !Array::is_array(&reply) {
            return Err(js_error(crate::Error::corrupt("Redis reply", 0, "HMGET did not give an array")));
        }
        let counts: Vec<Option<Vec<u8>>> = Array::from(&reply)
            .iter()
            .map(|x| {
                if x.is_null() || x.is_undefined() {
                    None
                } else if let Some(s) = x.as_string() {
                    Some(s.into_bytes())
                } else {
                    Some(Uint8Array::from(x).to_vec())
                }
            })
            .collect();
        if !(pages >= 0.0 && pages.fract() == 0.0) {
            return Err(js_error(crate::Error::corrupt("Redis reply", 0, "SCARD did not give a count")));
        }
        self.0.read(&counts, pages as u64).map_err(js_error)
    }

    /// The `learn` script's `ARGV` after the check (`undefined`: nothing to learn).
    #[wasm_bindgen(js_name = learnArgs)]
    pub fn learn_args(&self, meta: &str, duplicate: bool) -> Option<Array> {
        self.0.learn_args(meta, duplicate).map(|a| to_js_list(&a))
    }
}

/// One check in progress (not public API).
#[wasm_bindgen(js_name = __StoreCheck, skip_typescript)]
pub struct JsStoreCheck {
    plan: CheckPlan,
    replayed: bool,
}

#[wasm_bindgen(js_class = __StoreCheck)]
impl JsStoreCheck {
    /// Appends the page's entry in its next call to the store's staged entries (`takeEntries`).
    pub fn stage(&self, store: &mut JsRedisStore) {
        store.staged.extend(self.plan.entry());
    }

    /// The CHECK reply: the result object (made by `shapes`), or `undefined` to call again.
    pub fn feed(&mut self, reply: JsValue, shapes: &Shapes) -> Result<JsValue, JsValue> {
        Ok(match self.plan.feed(&bytes_list(&reply)?).map_err(js_error)? {
            Some(o) => {
                self.replayed = o.replayed;
                outcome_to_js(&o, shapes, None, None)
            }
            None => JsValue::UNDEFINED,
        })
    }

    /// Once decided: whether a repeated call found its first attempt applied (redis.cjs
    /// counts it in `stats.replayed`).
    pub fn replayed(&self) -> bool {
        self.replayed
    }
}

/// One sketch-mode check in progress (not public API).
#[wasm_bindgen(js_name = __SketchCheck, skip_typescript)]
pub struct JsSketchCheck {
    plan: SketchPlan,
    replayed: bool,
}

impl JsSketchCheck {
    fn new(plan: SketchPlan) -> JsSketchCheck {
        JsSketchCheck { plan, replayed: false }
    }
}

#[wasm_bindgen(js_class = __SketchCheck)]
impl JsSketchCheck {
    /// Appends the page's entry in its next call to the store's staged entries (`takeEntries`).
    pub fn stage(&self, store: &mut JsRedisStore) {
        store.staged.extend(self.plan.entry());
    }

    /// The reply: the result object (made by `shapes`, with `estimate`: the winner's
    /// estimated Jaccard similarity, or `null`, and the page's sketch), or `undefined` to
    /// call again.
    pub fn feed(&mut self, reply: JsValue, shapes: &Shapes) -> Result<JsValue, JsValue> {
        Ok(match self.plan.feed(&bytes_list(&reply)?).map_err(js_error)? {
            Some(o) => {
                self.replayed = o.replayed;
                outcome_to_js(&o, shapes, self.plan.estimate(), self.plan.sketch())
            }
            None => JsValue::UNDEFINED,
        })
    }

    /// As [`JsStoreCheck::replayed`].
    pub fn replayed(&self) -> bool {
        self.replayed
    }
}

/// A snapshot's import batches in progress (not public API).
#[wasm_bindgen(js_name = __ImportCursor, skip_typescript)]
pub struct JsImportCursor(ImportCursor);

#[wasm_bindgen(js_class = __ImportCursor)]
impl JsImportCursor {
    /// The next batch's `ARGV` (a list of byte arrays), or `undefined` after the last.
    #[wasm_bindgen(js_name = nextBatch)]
    pub fn next_batch(&mut self) -> Result<Option<Array>, JsValue> {
        Ok(self.0.next_batch().map_err(js_error)?.map(|b| to_js_list(&b)))
    }

    /// The `import_template` script's calls for the snapshot's site templates: `[keys,
    /// argv]` each (none without templates).
    #[wasm_bindgen(js_name = templateCalls)]
    pub fn template_calls(&self) -> Array {
        #[cfg(feature = "html")]
        return self
            .0
            .template_calls()
            .iter()
            .map(|(keys, argv)| {
                let k: Array = keys.iter().map(|x| JsValue::from(x.as_str())).collect();
                JsValue::from(Array::of2(&k, &to_js_list(argv)))
            })
            .collect();
        #[cfg(not(feature = "html"))]
        Array::new()
    }
}

/// A namespace's snapshot being built (not public API).
#[wasm_bindgen(js_name = __ExportBuilder, skip_typescript)]
pub struct JsExportBuilder(ExportBuilder);

#[wasm_bindgen(js_class = __ExportBuilder)]
impl JsExportBuilder {
    /// One stored page: fingerprint (bigint), URL, count, sketch payload (a Uint8Array, or
    /// `null` without one).
    #[wasm_bindgen(js_name = addPage)]
    pub fn add_page(&mut self, fp: u64, url: &str, count: f64, sketch: JsValue) -> Result<(), JsValue> {
        if !(count.fract() == 0.0 && (1.0..=u64::MAX as f64).contains(&count)) {
            return Err(js_error(crate::Error::corrupt("Redis export", 0, format!("page count {count}"))));
        }
        let sk = sketch.is_instance_of::<Uint8Array>().then(|| Uint8Array::from(sketch).to_vec());
        self.0.add_page(fp, url, count as u64, sk.as_deref()).map_err(js_error)
    }

    /// One alias: a URL counted under the stored page `cluster`.
    #[wasm_bindgen(js_name = addAlias)]
    pub fn add_alias(&mut self, url: &str, cluster: &str) -> Result<(), JsValue> {
        self.0.add_alias(url, cluster).map_err(js_error)
    }

    /// One template host (`host`, its page set's members, its block hash's flat pairs from
    /// `SSCAN` and `HSCAN`).
    #[wasm_bindgen(js_name = addTemplateHost)]
    pub fn add_template_host(
        &mut self,
        store: &JsRedisStore,
        host: String,
        members: JsValue,
        pairs: JsValue,
    ) -> Result<(), JsValue> {
        #[cfg(feature = "html")]
        {
            let bad = || js_error(crate::Error::corrupt("Redis export", 0, "malformed template host"));
            let members = bytes_list(&members)?;
            let flat = bytes_list(&pairs)?;
            if flat.len() % 2 != 0 {
                return Err(bad());
            }
            let pairs: Vec<(Vec<u8>, Vec<u8>)> =
                flat.chunks(2).map(|c| (c[0].clone(), c[1].clone())).collect();
            let h = store.seen.export_template_host(host, &members, &pairs).map_err(js_error)?;
            self.0.add_template_host(h).map_err(js_error)
        }
        #[cfg(not(feature = "html"))]
        {
            let _ = (store, host, members, pairs);
            Err(js_error(crate::Error::html_disabled()))
        }
    }

    /// The snapshot bytes (frees the builder).
    pub fn finish(self) -> Result<Vec<u8>, JsValue> {
        self.0.finish().map_err(js_error)
    }
}
