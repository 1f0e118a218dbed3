//! The Node crawler's part of the API (Cargo feature `crawler`; `disabled.rs` has the
//! stubs of the small browser build): `ContentSeen`, `dedup` (also into an existing
//! `SimHashIndex`), and index snapshots.

use js_sys::{Array, BigUint64Array, Object};
use wasm_bindgen::prelude::*;

use super::convert::{
    self, big, field, layout_from, opt_bool, opt_number, opt_whole_option, option_object, options_from,
    options_to_js, set,
};
use super::index::{matches_to_js, Ids, JsIndex};
use super::js_error;
use crate::dedup::{dedup_into, DedupNames, DedupOptions, DedupReport, Verify};
use crate::error::Error;
use crate::fingerprint::Options;
use crate::index::Index;
use crate::seen::{Check, ContentSeen, SeenConfig};
use crate::snapshot::{peek_id_type, SnapshotId};

// ---- index snapshots --------------------------------------------------------------------

#[wasm_bindgen(js_class = SimHashIndex)]
impl JsIndex {
    /// The index as a compact, versioned, checksummed snapshot (see `src/snapshot/`).
    /// An index with no entries yet (and no id kind) is saved as a numeric one.
    #[wasm_bindgen(js_name = toBytes)]
    pub fn to_bytes(&self) -> Vec<u8> {
        match &self.0 {
            Ids::Num(ix) => ix.to_bytes(),
            Ids::Str(ix) => ix.to_bytes(),
            Ids::Unset(layout) => Index::<u64>::new(layout.clone()).to_bytes(),
        }
    }

    /// Loads a snapshot made by `toBytes`; damaged, truncated or foreign bytes throw.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes: Vec<u8>) -> Result<JsIndex, JsValue> {
        JsIndex::load(bytes)
    }

    /// Loads a snapshot from a buffer in wasm memory (see `SnapshotBuffer`), which it
    /// consumes: the Node file helper `loadIndex` reads the file straight into one, so the
    /// bytes are neither held in a JS buffer nor copied. Not part of the public API.
    #[wasm_bindgen(js_name = __fromBuffer, skip_typescript)]
    pub fn from_buffer(buffer: SnapshotBuffer) -> Result<JsIndex, JsValue> {
        JsIndex::load(buffer.0)
    }

    /// `dedup` into this index (string ids): adds the documents whose id it does not hold
    /// yet, then returns the clusters of everything in it. Its layout decides `k`; options
    /// `{ verify, shingle, html, ...hasher options }`.
    pub fn dedup(
        &mut self,
        ids: Vec<String>,
        texts: Vec<String>,
        options: JsValue,
    ) -> Result<JsValue, JsValue> {
        let docs = docs_from(ids, texts)?;
        let o = option_object(&options, &[&Options::NAMES, &DedupOptions::INTO_NAMES], "{ verify: false }")?;
        let opts = dedup_options_from(&o)?;
        let report = dedup_into(self.string_index()?, &docs, &opts).map_err(js_error)?;
        Ok(report_to_js(&report))
    }
}

impl JsIndex {
    /// Both loads: the snapshot's id kind picks the index type, and the owned bytes are
    /// freed once decoded, before the tables are built (`Index::from_vec`).
    fn load(bytes: Vec<u8>) -> Result<JsIndex, JsValue> {
        let tag = peek_id_type(&bytes).map_err(js_error)?;
        Ok(JsIndex(if tag == <String as SnapshotId>::TYPE_TAG {
            Ids::Str(Index::from_vec(bytes).map_err(js_error)?)
        } else {
            Ids::Num(Index::from_vec(bytes).map_err(js_error)?)
        }))
    }
}

/// Bytes in wasm memory that JS fills in place (through a view at [`SnapshotBuffer::ptr`]
/// of the module's memory), for loading a snapshot file without a JS-side copy. Not part
/// of the public API.
#[wasm_bindgen(js_name = __SnapshotBuffer, skip_typescript)]
pub struct SnapshotBuffer(Vec<u8>);

#[wasm_bindgen(js_class = __SnapshotBuffer)]
impl SnapshotBuffer {
    /// `len` zero bytes (a JS number, the file's size). A size that does not fit in the
    /// module's memory is an error that says so (not an abort of the instance, nor a size
    /// wrapped modulo 2^32 by the number conversion).
    #[wasm_bindgen(constructor)]
    pub fn new(len: f64) -> Result<SnapshotBuffer, JsValue> {
        let too_big = || {
            js_error(Error::option(
                "snapshot file size",
                crate::error::number(len),
                "a snapshot that fits in the wasm memory (at most 4 GiB, less what is in use)",
            ))
        };
        if !(0.0..=f64::from(u32::MAX)).contains(&len) || len.fract() != 0.0 {
            return Err(too_big());
        }
        let mut bytes = Vec::new();
        bytes.try_reserve_exact(len as usize).map_err(|_| too_big())?;
        bytes.resize(len as usize, 0);
        Ok(SnapshotBuffer(bytes))
    }

    /// Where the bytes start in the module's memory (valid until the memory grows).
    pub fn ptr(&self) -> usize {
        self.0.as_ptr() as usize
    }
}

impl JsIndex {
    /// The index as one of string ids, which `dedup` takes: an empty index becomes one;
    /// an index of number ids is refused.
    pub(super) fn string_index(&mut self) -> Result<&mut Index<String>, JsValue> {
        if let Ids::Unset(layout) = &self.0 {
            self.0 = Ids::Str(Index::new(layout.clone()));
        }
        match &mut self.0 {
            Ids::Str(index) => Ok(index),
            _ => Err(js_error(Error::option(
                "this",
                "an index of number ids",
                "an index of string ids: dedup takes string ids",
            ))),
        }
    }
}

// ---- ContentSeen ------------------------------------------------------------------------

fn seen_config_from(options: &JsValue) -> Result<Option<SeenConfig>, JsValue> {
    let o = option_object(options, &[&SeenConfig::NAMES, &Options::NAMES], "{ k: 3, html: true }")?;
    if o.is_none() {
        return Ok(None);
    }
    seen_config_fields(&o, SeenConfig::default()).map(Some)
}

/// The ContentSeen keys of an option object whose keys were checked already, over the
/// defaults `d`. `sketch` is `false` or a size in bytes.
pub(super) fn seen_config_fields(o: &Option<Object>, d: SeenConfig) -> Result<SeenConfig, JsValue> {
    let k = opt_whole_option(o, "k")?.unwrap_or(d.k);
    // No `layout` key: the default for k when creating, "whatever was stored" when loading.
    let layout = if field(o, "layout").is_undefined() { None } else { Some(layout_from(o, Some(k))?) };
    let html = opt_bool(o, convert::HTML)?.unwrap_or(d.html);
    let v = field(o, "sketch");
    let off = v.as_bool() == Some(false);
    let sketch = if v.is_undefined() {
        d.sketch
    } else if off || v.as_f64().is_some() {
        SeenConfig::sketch_from(off, v.as_f64()).map_err(js_error)?
    } else {
        return Err(convert::bad_argument("sketch", "false or a size in bytes, like 128", &v));
    };
    let threshold = opt_number(o, "threshold")?.unwrap_or(d.threshold);
    let content = match convert::opt_string(o, "content")? {
        Some(name) => content_from(&name)?,
        None => d.content,
    };
    Ok(SeenConfig { k, layout, options: options_from(o)?, html, content, sketch, threshold })
}

/// The `content` option (`"main"` or `"all"`), checked by the core.
fn content_from(name: &str) -> Result<crate::html::Content, JsValue> {
    crate::html::Content::from_name(name).map_err(js_error)
}

/// `sketch` (the size in bytes, or `false` for the fingerprint-only test) and `threshold`
/// (unused without a sketch) of a ContentSeen's settings.
pub(super) fn set_sketch_settings(o: &Object, c: &SeenConfig) {
    set(o, "content", c.content.name());
    set(o, "sketch", c.sketch.map_or(JsValue::FALSE, |s| JsValue::from(s.size() as u32)));
    set(o, "threshold", c.threshold);
}

fn check_to_js(c: &Check) -> JsValue {
    let o = Object::new();
    set(&o, "duplicate", c.duplicate);
    set(&o, "empty", c.empty);
    set(&o, "matches", matches_to_js(&c.matches));
    // A page with no content has no fingerprint and joins no cluster: null, not 0n or "".
    set(&o, "fingerprint", if c.empty { JsValue::NULL } else { big(c.fingerprint) });
    set(&o, "cluster", if c.empty { JsValue::NULL } else { c.cluster.as_str().into() });
    set(&o, "count", c.count as f64);
    // The best match's distance and estimated Jaccard (null when none or no sketch), and
    // the page's own sketch bytes (null in the fingerprint-only test).
    set(&o, "distance", c.distance.map_or(JsValue::NULL, JsValue::from));
    set(&o, "estimate", c.estimate.map_or(JsValue::NULL, JsValue::from));
    set(
        &o,
        "sketch",
        c.sketch.as_ref().map_or(JsValue::NULL, |s| js_sys::Uint8Array::from(&s.to_bytes()[..]).into()),
    );
    o.into()
}

/// A crawler's content-seen test: `check(url, htmlOrText)` says whether a near-duplicate
/// is known, stores new pages, and counts duplicates (which are not stored).
#[wasm_bindgen(js_name = ContentSeen)]
pub struct JsContentSeen(ContentSeen);

#[wasm_bindgen(js_class = ContentSeen)]
impl JsContentSeen {
    /// `new ContentSeen({ k: 3, layout, html: false, ngram, mode, weighting, punctuation, nfkc, lowercase })`
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<JsContentSeen, JsValue> {
        let config = seen_config_from(&options)?.unwrap_or_default();
        ContentSeen::new(config).map(JsContentSeen).map_err(js_error)
    }

    /// `{ duplicate, empty, matches: [{ id, distance }], fingerprint, cluster, count,
    /// distance, estimate, sketch }`; a page with no content is `empty: true`, not stored.
    pub fn check(&mut self, url: &str, text: &str) -> Result<JsValue, JsValue> {
        self.0.check(url, text).map(|c| check_to_js(&c)).map_err(js_error)
    }

    /// `check` for a fingerprint made elsewhere with the same settings.
    #[wasm_bindgen(js_name = checkFingerprint)]
    pub fn check_fingerprint(&mut self, url: &str, fingerprint: u64) -> JsValue {
        check_to_js(&self.0.check_fingerprint(url, fingerprint))
    }

    /// The fingerprint with this test's settings, nothing stored.
    pub fn fingerprint(&mut self, text: &str) -> Result<u64, JsValue> {
        self.0.fingerprint(text).map_err(js_error)
    }

    /// How many times the content of `url` was seen, or `undefined` for an unknown URL.
    pub fn count(&self, url: &str) -> Option<f64> {
        self.0.count(url).map(|n| n as f64)
    }

    /// The stored page `url` is counted under, or `undefined`.
    #[wasm_bindgen(js_name = clusterOf)]
    pub fn cluster_of(&self, url: &str) -> Option<String> {
        self.0.cluster_of(url).map(str::to_owned)
    }

    /// `[{ id, fingerprint, count, duplicates: [url] }]`, most seen first.
    pub fn clusters(&self) -> JsValue {
        self.0
            .clusters()
            .iter()
            .map(|p| {
                let o = Object::new();
                set(&o, "id", p.id.as_str());
                set(&o, "fingerprint", big(p.fingerprint));
                set(&o, "count", p.count as f64);
                set(
                    &o,
                    "duplicates",
                    p.duplicates.iter().map(|d| JsValue::from(d.as_str())).collect::<Array>(),
                );
                JsValue::from(o)
            })
            .collect::<Array>()
            .into()
    }

    /// Number of stored (distinct) pages.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> f64 {
        self.0.len() as f64
    }

    /// The settings: hasher options plus `k`, `layout`, `sketch` and `threshold`.
    pub fn options(&self) -> JsValue {
        let c = self.0.config();
        let o = options_to_js(&c.options, c.html);
        set(&o, "k", c.k);
        set(&o, "layout", c.layout.as_ref().map(|l| l.to_string()).unwrap_or_default());
        set_sketch_settings(&o, c);
        o.into()
    }

    /// A snapshot: index, counts, duplicate URLs, settings.
    #[wasm_bindgen(js_name = toBytes)]
    pub fn to_bytes(&self) -> Vec<u8> {
        self.0.to_bytes()
    }

    /// Loads a snapshot; with `options`, one made with other settings throws `SchemeMismatch`.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes: &[u8], options: JsValue) -> Result<JsContentSeen, JsValue> {
        let expected = seen_config_from(&options)?;
        ContentSeen::from_bytes(bytes, expected.as_ref()).map(JsContentSeen).map_err(js_error)
    }
}

// ---- dedup ------------------------------------------------------------------------------

/// `(id, text)` pairs from two parallel arrays of strings.
pub(super) fn docs_from<T>(ids: Vec<String>, texts: Vec<T>) -> Result<Vec<(String, T)>, JsValue> {
    if ids.len() != texts.len() {
        return Err(js_error(Error::option(
            "ids",
            ids.len(),
            format!("as many ids as texts ({})", texts.len()),
        )));
    }
    Ok(ids.into_iter().zip(texts).collect())
}

/// The dedup options of an option object (keys checked already), from the core's defaults.
pub(super) fn dedup_options_from(o: &Option<Object>) -> Result<DedupOptions, JsValue> {
    let v = field(o, "verify");
    let verify = if v.is_undefined() {
        None
    } else if let Some(b) = v.as_bool() {
        Some(Verify::Enabled(b))
    } else if let Some(t) = v.as_f64() {
        Some(Verify::Threshold(t))
    } else if let Some(name) = v.as_string() {
        // Numbers in the name ("sketch:0.9") are read by JS's parseFloat, given only digits
        // and a dot: no float parser in the wasm.
        let number = |s: &str| {
            let s = s.trim();
            let plain = !s.is_empty() && s.chars().all(|c| c.is_ascii_digit() || c == '.');
            plain.then(|| js_sys::Number::parse_float(s))
        };
        Some(Verify::from_name_with(&name, number).map_err(js_error)?)
    } else {
        return Err(convert::bad_argument("verify", Verify::EXPECTED, &v));
    };
    let layout = convert::layout_arg(o)?;
    let content = convert::opt_string(o, convert::CONTENT)?;
    let names = DedupNames {
        k: opt_number(o, "k")?,
        layout: layout.name.as_deref(),
        widths: layout.widths.as_deref(),
        verify,
        shingle: opt_number(o, "shingle")?,
        html: opt_bool(o, convert::HTML)?,
        content: content.as_deref(),
    };
    DedupOptions::from_names(DedupOptions::default(), options_from(o)?, &names).map_err(js_error)
}

/// `{ clusters, pairs, fingerprinted, fingerprints, skipped, alreadyIndexed, layout, k, verify,
/// verifyBy }` (`verifyBy`: `"exact"`, the sketch scheme like `"sk1:128"`, or `false`).
pub(super) fn report_to_js(r: &DedupReport) -> JsValue {
    let strings = |xs: &mut dyn Iterator<Item = &String>| xs.map(|s| JsValue::from_str(s)).collect::<Array>();
    let out = Object::new();
    let clusters: Array = r.clusters.iter().map(|c| JsValue::from(strings(&mut c.iter()))).collect();
    set(&out, "clusters", clusters);
    let pairs: Array = r
        .pairs
        .iter()
        .map(|p| {
            let o = Object::new();
            set(&o, "a", p.a.as_str());
            set(&o, "b", p.b.as_str());
            set(&o, "distance", p.distance);
            set(&o, "jaccard", p.jaccard.map_or(JsValue::NULL, JsValue::from_f64));
            JsValue::from(o)
        })
        .collect();
    set(&out, "pairs", pairs);
    set(&out, "fingerprinted", strings(&mut r.fingerprints.iter().map(|(id, _)| id)));
    let fps: Vec<u64> = r.fingerprints.iter().map(|&(_, f)| f).collect();
    set(&out, "fingerprints", BigUint64Array::from(&fps[..]));
    let skipped: Array = r
        .skipped
        .iter()
        .map(|(id, e)| {
            let o = Object::new();
            set(&o, "id", id.as_str());
            set(&o, "error", e.to_string());
            JsValue::from(o)
        })
        .collect();
    set(&out, "skipped", skipped);
    set(&out, "alreadyIndexed", strings(&mut r.already_indexed.iter()));
    set(&out, "layout", r.layout.as_str());
    set(&out, "k", r.k);
    set(&out, "verify", r.verify.map_or(JsValue::FALSE, JsValue::from_f64));
    let by = match (r.verify, r.sketch) {
        (None, _) => JsValue::FALSE,
        (Some(_), None) => "exact".into(),
        (Some(_), Some(s)) => s.describe().into(),
    };
    set(&out, "verifyBy", by);
    out.into()
}

/// Near-duplicate clusters of a collection:
/// `dedup(ids, texts, { k: 10, verify: 0.8 | false, shingle: 4, layout, ...hasher options })` →
/// `{ clusters, pairs: [{ a, b, distance, jaccard }], fingerprinted: string[],
/// fingerprints: BigUint64Array, skipped: [{ id, error }], alreadyIndexed: [], layout }`.
#[wasm_bindgen]
pub fn dedup(ids: Vec<String>, texts: Vec<String>, options: JsValue) -> Result<JsValue, JsValue> {
    let docs = docs_from(ids, texts)?;
    let o = option_object(&options, &[&Options::NAMES, &DedupOptions::NAMES], "{ k: 10, verify: 0.8 }")?;
    let opts = dedup_options_from(&o)?;
    let report = crate::dedup::dedup(&docs, &opts).map_err(js_error)?;
    Ok(report_to_js(&report))
}
