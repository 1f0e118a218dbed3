//! The JavaScript bindings: every function here converts types and maps errors, and
//! nothing else. All logic lives in the core modules, which never see a JS type.
//!
//! Conventions: fingerprints are `bigint` (batches `BigUint64Array`), option objects are
//! camelCase, and every core [`Error`] becomes a thrown JS `Error` whose `name` is
//! `"SimHashError"`, whose `code` is [`Error::code`], and whose message says what to fix.
//! The core never panics on input, so after any thrown error the instance keeps working.

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use crate::error::Error;
use crate::fingerprint::{self, BitFeature, Options};

fn js_error(e: Error) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    err.set_name("SimHashError");
    let _ = js_sys::Reflect::set(&err, &"code".into(), &e.code().into());
    err.into()
}

/// A JS value of the wrong shape, as an `InvalidOption` error naming what was expected.
fn bad_argument(option: &'static str, expected: &str, e: impl std::fmt::Display) -> JsValue {
    js_error(Error::InvalidOption { option, value: format!("({e})"), expected: expected.to_owned() })
}

fn to_js<T: Serialize>(v: &T) -> Result<JsValue, JsValue> {
    v.serialize(&serde_wasm_bindgen::Serializer::new().serialize_large_number_types_as_bigints(true).serialize_maps_as_objects(true))
        .map_err(|e| bad_argument("result", "a serialisable value", e))
}

/// Options as JS spells them: `{ mode, ngram, weighting, punctuation, nfkc, lowercase }`.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct JsOptions {
    mode: Option<String>,
    ngram: Option<f64>,
    weighting: Option<String>,
    punctuation: Option<String>,
    nfkc: Option<bool>,
    lowercase: Option<bool>,
}

/// Refuses keys outside `allowed` (serde_wasm_bindgen reads only the known keys, so a
/// misspelt option would otherwise be ignored silently).
fn check_keys(value: &JsValue, allowed: &[&str]) -> Result<(), JsValue> {
    if let Some(obj) = value.dyn_ref::<js_sys::Object>() {
        for key in js_sys::Object::keys(obj).iter() {
            let key = key.as_string().unwrap_or_default();
            if !allowed.contains(&key.as_str()) {
                return Err(js_error(Error::option("options", format!("{{ {key}: … }}"), format!("only the keys {}", allowed.join(", ")))));
            }
        }
    }
    Ok(())
}

fn options_from_js(value: JsValue) -> Result<Options, JsValue> {
    let o: JsOptions = if value.is_undefined() || value.is_null() {
        JsOptions::default()
    } else {
        check_keys(&value, &Options::NAMES)?;
        serde_wasm_bindgen::from_value(value)
            .map_err(|e| bad_argument("options", "an object like { ngram: 6, weighting: \"sublinear\" }", e))?
    };
    o.to_options()
}

impl JsOptions {
    fn to_options(&self) -> Result<Options, JsValue> {
        Options::from_names(self.mode.as_deref(), self.ngram, self.weighting.as_deref(), self.punctuation.as_deref(), self.nfkc, self.lowercase)
            .map_err(js_error)
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsOptionsOut {
    mode: &'static str,
    ngram: u32,
    weighting: &'static str,
    punctuation: &'static str,
    nfkc: bool,
    lowercase: bool,
    scheme: String,
}

impl From<&Options> for JsOptionsOut {
    fn from(o: &Options) -> Self {
        JsOptionsOut {
            mode: o.tokenizer.mode(),
            ngram: o.tokenizer.n() as u32,
            weighting: o.weighting.name(),
            punctuation: o.normalize.punctuation.name(),
            nfkc: o.normalize.nfkc,
            lowercase: o.normalize.lowercase,
            scheme: o.describe(),
        }
    }
}

/// Computes SimHash fingerprints with fixed options.
#[wasm_bindgen(js_name = SimHasher)]
pub struct JsSimHasher(fingerprint::SimHasher);

#[wasm_bindgen(js_class = SimHasher)]
impl JsSimHasher {
    /// `new SimHasher({ ngram: 6, mode: "chars", weighting: "sublinear", punctuation: "collapse" })`
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<JsSimHasher, JsValue> {
        Ok(JsSimHasher(fingerprint::SimHasher::new(options_from_js(options)?).map_err(js_error)?))
    }

    /// The options in force, with defaults filled in.
    pub fn options(&self) -> Result<JsValue, JsValue> {
        to_js(&JsOptionsOut::from(self.0.options()))
    }

    /// The fingerprint of a string.
    pub fn fingerprint(&mut self, text: &str) -> Result<u64, JsValue> {
        self.0.fingerprint(text).map_err(js_error)
    }

    /// The fingerprint of raw UTF-8 bytes; invalid UTF-8 throws.
    #[wasm_bindgen(js_name = fingerprintBytes)]
    pub fn fingerprint_bytes(&mut self, bytes: &[u8]) -> Result<u64, JsValue> {
        self.0.fingerprint_bytes(bytes).map_err(js_error)
    }

    /// Fingerprints of an array of strings, crossing into wasm once.
    #[wasm_bindgen(js_name = fingerprintBatch)]
    pub fn fingerprint_batch(&mut self, texts: Vec<String>) -> Result<Vec<u64>, JsValue> {
        self.0.fingerprint_batch(texts.iter().map(String::as_str)).map_err(js_error)
    }

    /// Every step of the fingerprint: `{ normalized, tokens, sums, fingerprint }`.
    pub fn explain(&mut self, text: &str) -> Result<JsValue, JsValue> {
        let e = self.0.explain(text).map_err(js_error)?;
        #[derive(Serialize)]
        struct Tok<'a> {
            start: u32,
            end: u32,
            text: &'a str,
            hash: u64,
            tf: u32,
            weight: f64,
            first: bool,
        }
        #[derive(Serialize)]
        struct Out<'a> {
            normalized: &'a str,
            tokens: Vec<Tok<'a>>,
            sums: Vec<f64>,
            fingerprint: u64,
        }
        let tokens = e
            .tokens
            .iter()
            .map(|t| Tok { start: t.start as u32, end: t.end as u32, text: &e.normalized[t.start..t.end], hash: t.hash, tf: t.tf, weight: t.weight, first: t.first })
            .collect();
        to_js(&Out { normalized: &e.normalized, tokens, sums: e.sums.to_vec(), fingerprint: e.fingerprint })
    }
}

/// The fingerprint of caller-supplied `[feature, weight]` pairs.
#[wasm_bindgen(js_name = fromFeatures)]
pub fn from_features(features: JsValue) -> Result<u64, JsValue> {
    let list: Vec<(String, f64)> = serde_wasm_bindgen::from_value(features)
        .map_err(|e| bad_argument("features", "an array of [string, number] pairs", e))?;
    fingerprint::fingerprint_features(&list).map_err(js_error)
}

/// SimHash with caller-given hash bits of any width:
/// `simhashBits([{ bits: "101001", weight: 3 }, ...])` → `{ sums, bits }`.
#[wasm_bindgen(js_name = simhashBits)]
pub fn simhash_bits(features: JsValue) -> Result<JsValue, JsValue> {
    #[derive(Deserialize)]
    struct F {
        bits: String,
        weight: f64,
    }
    let list: Vec<F> = serde_wasm_bindgen::from_value(features)
        .map_err(|e| bad_argument("features", "an array like [{ bits: \"1010\", weight: 1 }]", e))?;
    let mut parsed = Vec::with_capacity(list.len());
    for (index, f) in list.into_iter().enumerate() {
        let bits = fingerprint::parse_bits(&f.bits).ok_or_else(|| {
            js_error(Error::InvalidBits { index, reason: format!("{:?} is neither 0/1 digits nor ±1 entries", f.bits) })
        })?;
        parsed.push(BitFeature { bits, weight: f.weight });
    }
    let r = fingerprint::simhash_bits(&parsed).map_err(js_error)?;
    #[derive(Serialize)]
    struct Out {
        sums: Vec<f64>,
        bits: String,
    }
    to_js(&Out { bits: r.to_bit_string(), sums: r.sums })
}

/// Number of differing bits.
#[wasm_bindgen]
pub fn hamming(a: u64, b: u64) -> u32 {
    crate::hamming(a, b)
}

/// `1 - hamming(a, b) / 64`.
#[wasm_bindgen]
pub fn similarity(a: u64, b: u64) -> f64 {
    crate::similarity(a, b)
}

/// A fingerprint as 16 lower-case hex digits.
#[wasm_bindgen(js_name = toHex)]
pub fn to_hex(fp: u64) -> String {
    crate::hash::to_hex(fp)
}

/// Parses 16 (or fewer) hex digits, with or without `0x`.
#[wasm_bindgen(js_name = fromHex)]
pub fn from_hex(hex: &str) -> Result<u64, JsValue> {
    crate::hash::from_hex(hex).map_err(js_error)
}

/// The version of the feature hash (part of every fingerprint scheme).
#[wasm_bindgen(js_name = hashVersion)]
pub fn hash_version() -> u32 {
    crate::hash::HASH_VERSION
}

// ---------------------------------------------------------------------------------------
// The index
// ---------------------------------------------------------------------------------------

use crate::index::{FlatMatches, Index, IndexId, Layout, Match, Pair};

/// Index options as JS spells them.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct JsIndexOptions {
    k: Option<u32>,
    layout: Option<JsLayout>,
    expected_size: Option<f64>,
    memory_budget: Option<f64>,
    ids: Option<String>,
}

const INDEX_OPTION_NAMES: [&str; 5] = ["k", "layout", "expectedSize", "memoryBudget", "ids"];

/// `layout`: `"default"`, `"auto"`, `"probe"`, or explicit block widths like `[16, 16, 16, 16]`.
#[derive(Deserialize)]
#[serde(untagged)]
enum JsLayout {
    Named(String),
    Widths(Vec<u32>),
}

fn layout_from_js(layout: Option<JsLayout>, k: u32, expected: usize, budget: Option<usize>) -> Result<Layout, Error> {
    match layout {
        None => Layout::default_for_k(k),
        Some(JsLayout::Named(n)) => match n.as_str() {
            "default" => Layout::default_for_k(k),
            "probe" => Layout::probe(k),
            "auto" => Layout::auto(expected, k, budget),
            _ => Err(Error::option("layout", format!("{n:?}"), "\"default\", \"auto\", \"probe\" or an array of block widths")),
        },
        Some(JsLayout::Widths(w)) => Layout::new(k, &w),
    }
}

/// The two id kinds the core index takes; which one is fixed by the `ids` option, or by
/// the first id inserted.
enum Ids {
    Unset(Layout),
    Num(Index<u64>),
    Str(Index<String>),
}

/// Runs `$body` with `$ix` bound to whichever concrete index is inside.
macro_rules! with_index {
    ($self:expr, $ix:ident => $body:expr, unset => $unset:expr) => {
        match &$self.0 {
            Ids::Num($ix) => $body,
            Ids::Str($ix) => $body,
            Ids::Unset(_) => $unset,
        }
    };
}

fn id_to_js<I: IndexId + IdJs>(id: &I) -> JsValue {
    id.to_js()
}

/// Conversion of one id kind to and from JS values.
trait IdJs: Sized {
    const KIND: &'static str;
    fn from_js(v: &JsValue) -> Result<Self, JsValue>;
    fn to_js(&self) -> JsValue;
}

impl IdJs for u64 {
    const KIND: &'static str = "number";
    fn from_js(v: &JsValue) -> Result<u64, JsValue> {
        match v.as_f64() {
            Some(x) if x >= 0.0 && x.fract() == 0.0 && x <= 9_007_199_254_740_991.0 => Ok(x as u64),
            _ => Err(js_error(Error::option(
                "id",
                format!("{v:?}"),
                "a non-negative safe integer, since this index holds number ids (make one with { ids: \"string\" } for strings)",
            ))),
        }
    }
    fn to_js(&self) -> JsValue {
        JsValue::from_f64(*self as f64)
    }
}

impl IdJs for String {
    const KIND: &'static str = "string";
    fn from_js(v: &JsValue) -> Result<String, JsValue> {
        v.as_string().ok_or_else(|| {
            js_error(Error::option("id", format!("{v:?}"), "a string, since this index holds string ids (make one with { ids: \"number\" } for numbers)"))
        })
    }
    fn to_js(&self) -> JsValue {
        JsValue::from_str(self)
    }
}

fn matches_to_js<I: IndexId + IdJs>(ms: &[Match<I>]) -> JsValue {
    let out = js_sys::Array::new_with_length(ms.len() as u32);
    for (i, m) in ms.iter().enumerate() {
        let o = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&o, &"id".into(), &id_to_js(&m.id));
        let _ = js_sys::Reflect::set(&o, &"distance".into(), &m.distance.into());
        out.set(i as u32, o.into());
    }
    out.into()
}

fn pairs_to_js<I: IndexId + IdJs>(ps: &[Pair<I>]) -> JsValue {
    let out = js_sys::Array::new_with_length(ps.len() as u32);
    for (i, p) in ps.iter().enumerate() {
        let o = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&o, &"a".into(), &id_to_js(&p.a));
        let _ = js_sys::Reflect::set(&o, &"b".into(), &id_to_js(&p.b));
        let _ = js_sys::Reflect::set(&o, &"distance".into(), &p.distance.into());
        out.set(i as u32, o.into());
    }
    out.into()
}

fn flat_to_js<I: IndexId + IdJs>(f: &FlatMatches<I>) -> JsValue {
    let o = js_sys::Object::new();
    let ids = js_sys::Array::new_with_length(f.ids.len() as u32);
    for (i, id) in f.ids.iter().enumerate() {
        ids.set(i as u32, id_to_js(id));
    }
    let _ = js_sys::Reflect::set(&o, &"queries".into(), &js_sys::Uint32Array::from(&f.queries[..]).into());
    let _ = js_sys::Reflect::set(&o, &"ids".into(), &ids.into());
    let _ = js_sys::Reflect::set(&o, &"distances".into(), &js_sys::Uint32Array::from(&f.distances[..]).into());
    o.into()
}

fn clusters_to_js<I: IndexId + IdJs>(cs: &[Vec<I>]) -> JsValue {
    let out = js_sys::Array::new_with_length(cs.len() as u32);
    for (i, c) in cs.iter().enumerate() {
        out.set(i as u32, c.iter().map(id_to_js).collect::<js_sys::Array>().into());
    }
    out.into()
}

/// The multi-table near-duplicate index (Manku et al.): every stored fingerprint within
/// `k` bits of a query, exactly.
#[wasm_bindgen(js_name = SimHashIndex)]
pub struct JsIndex(Ids);

#[wasm_bindgen(js_class = SimHashIndex)]
impl JsIndex {
    /// `new SimHashIndex({ k: 3, layout: "default" | "auto" | "probe" | [16, 16, 16, 16], expectedSize, memoryBudget, ids: "number" | "string" })`
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<JsIndex, JsValue> {
        let o: JsIndexOptions = if options.is_undefined() || options.is_null() {
            JsIndexOptions::default()
        } else {
            check_keys(&options, &INDEX_OPTION_NAMES)?;
            serde_wasm_bindgen::from_value(options).map_err(|e| bad_argument("options", "an object like { k: 3, layout: \"default\" }", e))?
        };
        let k = o.k.unwrap_or(3);
        let layout = layout_from_js(o.layout, k, o.expected_size.unwrap_or(1e6) as usize, o.memory_budget.map(|b| b as usize))
            .map_err(js_error)?;
        Ok(JsIndex(match o.ids.as_deref() {
            None => Ids::Unset(layout),
            Some("number") => Ids::Num(Index::new(layout)),
            Some("string") => Ids::Str(Index::new(layout)),
            Some(other) => return Err(js_error(Error::option("ids", format!("{other:?}"), "\"number\" or \"string\""))),
        }))
    }

    /// Fixes the id kind from the first id, if not fixed yet.
    fn settle(&mut self, first: &JsValue) {
        if let Ids::Unset(layout) = &self.0 {
            let layout = layout.clone();
            self.0 = if first.is_string() { Ids::Str(Index::new(layout)) } else { Ids::Num(Index::new(layout)) };
        }
    }

    /// Adds one entry. An id already present throws (`DuplicateId`): remove it first.
    pub fn insert(&mut self, id: JsValue, fingerprint: u64) -> Result<(), JsValue> {
        self.settle(&id);
        match &mut self.0 {
            Ids::Num(ix) => ix.insert(u64::from_js(&id)?, fingerprint).map_err(js_error),
            Ids::Str(ix) => ix.insert(String::from_js(&id)?, fingerprint).map_err(js_error),
            Ids::Unset(_) => Ok(()),
        }
    }

    /// Adds many entries at once (sorted once): `ids[i]` gets `fingerprints[i]`.
    #[wasm_bindgen(js_name = insertBatch)]
    pub fn insert_batch(&mut self, ids: Vec<JsValue>, fingerprints: Vec<u64>) -> Result<(), JsValue> {
        if ids.len() != fingerprints.len() {
            return Err(js_error(Error::option("ids", ids.len(), format!("as many ids as fingerprints ({})", fingerprints.len()))));
        }
        let Some(first) = ids.first() else { return Ok(()) };
        self.settle(first);
        match &mut self.0 {
            Ids::Num(ix) => {
                let ids: Vec<u64> = ids.iter().map(u64::from_js).collect::<Result<_, _>>()?;
                ix.extend(ids.into_iter().zip(fingerprints)).map_err(js_error)
            }
            Ids::Str(ix) => {
                let ids: Vec<String> = ids.iter().map(String::from_js).collect::<Result<_, _>>()?;
                ix.extend(ids.into_iter().zip(fingerprints)).map_err(js_error)
            }
            Ids::Unset(_) => Ok(()),
        }
    }

    /// Adds `fingerprints[i]` under the number id `firstId + i`, for every `i`: a bulk load
    /// of numbered documents with no id array to cross the boundary.
    #[wasm_bindgen(js_name = insertNumbered)]
    pub fn insert_numbered(&mut self, first_id: f64, fingerprints: &[u64]) -> Result<(), JsValue> {
        let first = u64::from_js(&JsValue::from_f64(first_id))?;
        u64::from_js(&JsValue::from_f64(first_id + fingerprints.len() as f64))?;
        if let Ids::Unset(layout) = &self.0 {
            self.0 = Ids::Num(Index::new(layout.clone()));
        }
        match &mut self.0 {
            Ids::Num(ix) => ix.extend((first..).zip(fingerprints.iter().copied())).map_err(js_error),
            _ => Err(js_error(Error::option("id", "a number", "a string, since this index holds string ids"))),
        }
    }

    /// Removes an entry and returns its fingerprint; an unknown id throws (`UnknownId`).
    pub fn remove(&mut self, id: JsValue) -> Result<u64, JsValue> {
        match &mut self.0 {
            Ids::Num(ix) => ix.remove(&u64::from_js(&id)?).map_err(js_error),
            Ids::Str(ix) => ix.remove(&String::from_js(&id)?).map_err(js_error),
            Ids::Unset(_) => Err(js_error(Error::UnknownId { id: format!("{id:?}") })),
        }
    }

    /// `true` when the id is stored.
    pub fn has(&self, id: JsValue) -> bool {
        match &self.0 {
            Ids::Num(ix) => u64::from_js(&id).map(|i| ix.contains(&i)).unwrap_or(false),
            Ids::Str(ix) => String::from_js(&id).map(|i| ix.contains(&i)).unwrap_or(false),
            Ids::Unset(_) => false,
        }
    }

    /// Every stored entry within `k` bits (the layout's k, or a smaller one), as
    /// `[{ id, distance }]` sorted by distance, then id.
    pub fn query(&self, fingerprint: u64, k: Option<u32>) -> Result<JsValue, JsValue> {
        with_index!(self, ix => match k {
            None => Ok(matches_to_js(&ix.query(fingerprint))),
            Some(k) => Ok(matches_to_js(&ix.query_within(fingerprint, k).map_err(js_error)?)),
        }, unset => Ok(js_sys::Array::new().into()))
    }

    /// One result array per query fingerprint.
    #[wasm_bindgen(js_name = queryBatch)]
    pub fn query_batch(&self, fingerprints: Vec<u64>) -> JsValue {
        with_index!(self, ix => ix.query_batch(&fingerprints).iter().map(|m| matches_to_js(m)).collect::<js_sys::Array>().into(),
            unset => fingerprints.iter().map(|_| JsValue::from(js_sys::Array::new())).collect::<js_sys::Array>().into())
    }

    /// All matches of a batch as parallel arrays `{ queries: Uint32Array, ids, distances: Uint32Array }`.
    #[wasm_bindgen(js_name = queryBatchFlat)]
    pub fn query_batch_flat(&self, fingerprints: Vec<u64>) -> JsValue {
        with_index!(self, ix => flat_to_js(&ix.query_batch_flat(&fingerprints)), unset => flat_to_js::<u64>(&FlatMatches::default()))
    }

    /// Reports the matches of `fingerprint`, then inserts it under `id` (one call).
    #[wasm_bindgen(js_name = queryAndInsert)]
    pub fn query_and_insert(&mut self, id: JsValue, fingerprint: u64) -> Result<JsValue, JsValue> {
        self.settle(&id);
        match &mut self.0 {
            Ids::Num(ix) => Ok(matches_to_js(&ix.query_and_insert(u64::from_js(&id)?, fingerprint).map_err(js_error)?)),
            Ids::Str(ix) => Ok(matches_to_js(&ix.query_and_insert(String::from_js(&id)?, fingerprint).map_err(js_error)?)),
            Ids::Unset(_) => Ok(js_sys::Array::new().into()),
        }
    }

    /// Every unordered pair of stored ids within `k` bits: `[{ a, b, distance }]`.
    #[wasm_bindgen(js_name = selfJoin)]
    pub fn self_join(&self) -> JsValue {
        with_index!(self, ix => pairs_to_js(&ix.self_join()), unset => js_sys::Array::new().into())
    }

    /// Groups of ids connected by within-`k` links (connected components, 2+ members).
    pub fn clusters(&self) -> JsValue {
        with_index!(self, ix => clusters_to_js(&ix.clusters()), unset => js_sys::Array::new().into())
    }

    /// The fingerprint stored under `id`, or `undefined`.
    pub fn get(&self, id: JsValue) -> Option<u64> {
        match &self.0 {
            Ids::Num(ix) => u64::from_js(&id).ok().and_then(|i| ix.get(&i)),
            Ids::Str(ix) => String::from_js(&id).ok().and_then(|i| ix.get(&i)),
            Ids::Unset(_) => None,
        }
    }

    /// Number of stored entries.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> f64 {
        with_index!(self, ix => ix.len() as f64, unset => 0.0)
    }

    /// `"number"`, `"string"`, or `undefined` before the first insert.
    #[wasm_bindgen(getter, js_name = idKind)]
    pub fn id_kind(&self) -> Option<String> {
        match &self.0 {
            Ids::Num(_) => Some(u64::KIND.into()),
            Ids::Str(_) => Some(String::KIND.into()),
            Ids::Unset(_) => None,
        }
    }

    /// Layout, costs and expectations: `{ k, widths, tables, keyBits, expectedCandidates, bytes, bytesPerFp, ... }`.
    pub fn stats(&self) -> Result<JsValue, JsValue> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct S<'a> {
            layout: String,
            k: u32,
            widths: &'a [u32],
            probe: bool,
            size: f64,
            tables: u32,
            table_blocks: &'a [Vec<u32>],
            key_bits: Vec<u32>,
            expected_candidates_per_table: Vec<f64>,
            expected_candidates: f64,
            probes_per_query: f64,
            bytes: f64,
            bytes_per_fp: f64,
            segments: u32,
            buffered: f64,
            tombstones: f64,
        }
        let (layout, st) = match &self.0 {
            Ids::Num(ix) => (ix.layout(), Some(ix.stats())),
            Ids::Str(ix) => (ix.layout(), Some(ix.stats())),
            Ids::Unset(l) => (l, None),
        };
        let st = st.unwrap_or_else(|| Index::<u64>::new(layout.clone()).stats());
        to_js(&S {
            layout: layout.to_string(),
            k: layout.k(),
            widths: layout.widths(),
            probe: layout.is_probe(),
            size: st.len as f64,
            tables: st.tables as u32,
            table_blocks: layout.table_blocks(),
            key_bits: st.key_bits,
            expected_candidates_per_table: st.expected_candidates_per_table,
            expected_candidates: st.expected_candidates,
            probes_per_query: st.probes_per_query as f64,
            bytes: st.bytes as f64,
            bytes_per_fp: st.bytes_per_fp,
            segments: st.segments as u32,
            buffered: st.buffered as f64,
            tombstones: st.tombstones as f64,
        })
    }
}

// ---------------------------------------------------------------------------------------
// Snapshots
// ---------------------------------------------------------------------------------------

#[wasm_bindgen(js_class = SimHashIndex)]
impl JsIndex {
    /// The index as a compact, versioned, checksummed snapshot (see `src/snapshot.rs`).
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
    pub fn from_bytes(bytes: &[u8]) -> Result<JsIndex, JsValue> {
        use crate::snapshot::{peek_id_type, SnapshotId};
        let tag = peek_id_type(bytes).map_err(js_error)?;
        Ok(JsIndex(if tag == <String as SnapshotId>::TYPE_TAG {
            Ids::Str(Index::from_bytes(bytes).map_err(js_error)?)
        } else {
            Ids::Num(Index::from_bytes(bytes).map_err(js_error)?)
        }))
    }
}

/// The Huffman code of the snapshot's h(n) symbols for a set of fingerprints, as the
/// teaching slide prints it: `[{ symbol, count, code }]` (symbol 64 means "repeat").
#[wasm_bindgen(js_name = huffmanTable)]
pub fn huffman_table(fingerprints: Vec<u64>) -> Result<JsValue, JsValue> {
    let set = crate::snapshot::CompactSet::from_unsorted(fingerprints).map_err(js_error)?;
    #[derive(Serialize)]
    struct Row {
        symbol: u8,
        count: f64,
        code: String,
    }
    let rows: Vec<Row> = set.huffman_table().into_iter().map(|(symbol, count, code)| Row { symbol, count: count as f64, code }).collect();
    to_js(&rows)
}

/// A compressed, sorted fingerprint set queried without decoding it whole.
#[wasm_bindgen(js_name = CompactSet)]
pub struct JsCompactSet(crate::snapshot::CompactSet);

#[wasm_bindgen(js_class = CompactSet)]
impl JsCompactSet {
    /// Compresses a set of fingerprints (any order; duplicates kept).
    #[wasm_bindgen(constructor)]
    pub fn new(fingerprints: Vec<u64>) -> Result<JsCompactSet, JsValue> {
        crate::snapshot::CompactSet::from_unsorted(fingerprints).map(JsCompactSet).map_err(js_error)
    }
    /// Loads bytes made by `toBytes`.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes: &[u8]) -> Result<JsCompactSet, JsValue> {
        crate::snapshot::CompactSet::from_bytes(bytes).map(JsCompactSet).map_err(js_error)
    }
    /// The set as bytes (envelope: magic, version, CRC-32C).
    #[wasm_bindgen(js_name = toBytes)]
    pub fn to_bytes(&self) -> Vec<u8> {
        self.0.to_bytes()
    }
    /// Number of fingerprints.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> f64 {
        self.0.len() as f64
    }
    /// Average encoded bits per fingerprint.
    #[wasm_bindgen(js_name = bitsPerFingerprint)]
    pub fn bits_per_fingerprint(&self) -> f64 {
        self.0.bits_per_fingerprint()
    }
    /// `true` when some stored fingerprint is within `k` bits of `fingerprint`.
    #[wasm_bindgen(js_name = containsWithin)]
    pub fn contains_within(&self, fingerprint: u64, k: u32) -> bool {
        self.0.contains_within(fingerprint, k)
    }
    /// How many of `fingerprints` have a stored fingerprint within `k` bits (one crossing).
    #[wasm_bindgen(js_name = countContainedWithin)]
    pub fn count_contained_within(&self, fingerprints: &[u64], k: u32) -> u32 {
        fingerprints.iter().filter(|&&f| self.0.contains_within(f, k)).count() as u32
    }
}

// ---------------------------------------------------------------------------------------
// The main job: dedup of a collection
// ---------------------------------------------------------------------------------------

/// `verify`: a Jaccard threshold, or `false` for fingerprints only.
#[derive(Deserialize)]
#[serde(untagged)]
enum JsVerify {
    Off(bool),
    Threshold(f64),
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct JsDedupOptions {
    #[serde(flatten)]
    fingerprint: JsOptions,
    k: Option<u32>,
    layout: Option<JsLayout>,
    verify: Option<JsVerify>,
    shingle: Option<u32>,
}

/// Near-duplicate clusters of a collection: `dedup(ids, texts, { k: 10, verify: 0.8, ngram, ... })`
/// → `{ clusters, pairs: [{ a, b, distance, jaccard }], fingerprints: BigUint64Array, fingerprinted: string[], skipped: [{ id, error }], layout }`.
#[wasm_bindgen]
pub fn dedup(ids: Vec<String>, texts: Vec<String>, options: JsValue) -> Result<JsValue, JsValue> {
    use crate::dedup::{dedup as run, DedupOptions};
    if ids.len() != texts.len() {
        return Err(js_error(Error::option("ids", ids.len(), format!("as many ids as texts ({})", texts.len()))));
    }
    let o: JsDedupOptions = if options.is_undefined() || options.is_null() {
        JsDedupOptions::default()
    } else {
        let mut allowed = Options::NAMES.to_vec();
        allowed.extend(["k", "layout", "verify", "shingle"]);
        check_keys(&options, &allowed)?;
        serde_wasm_bindgen::from_value(options).map_err(|e| bad_argument("options", "an object like { k: 10, verify: 0.8 }", e))?
    };
    let d = DedupOptions::default();
    let k = o.k.unwrap_or(d.k);
    let opts = DedupOptions {
        fingerprint: o.fingerprint.to_options()?,
        k,
        layout: match o.layout {
            None => None,
            Some(JsLayout::Named(n)) if n == "auto" => None,
            l => Some(layout_from_js(l, k, ids.len(), None).map_err(js_error)?),
        },
        verify: match o.verify {
            None => d.verify,
            Some(JsVerify::Off(false)) => None,
            Some(JsVerify::Off(true)) => d.verify,
            Some(JsVerify::Threshold(t)) => Some(t),
        },
        shingle: o.shingle.map_or(d.shingle, |s| s as usize),
    };
    let docs: Vec<(&str, &str)> = ids.iter().map(String::as_str).zip(texts.iter().map(String::as_str)).collect();
    let r = run(&docs, &opts).map_err(js_error)?;
    #[derive(Serialize)]
    struct P<'a> {
        a: &'a str,
        b: &'a str,
        distance: u32,
        jaccard: Option<f64>,
    }
    #[derive(Serialize)]
    struct S<'a> {
        id: &'a str,
        error: String,
    }
    let out = js_sys::Object::new();
    let set = |k: &str, v: JsValue| {
        let _ = js_sys::Reflect::set(&out, &k.into(), &v);
    };
    set("clusters", to_js(&r.clusters)?);
    set("pairs", to_js(&r.pairs.iter().map(|p| P { a: &p.a, b: &p.b, distance: p.distance, jaccard: p.jaccard }).collect::<Vec<_>>())?);
    set("fingerprinted", to_js(&r.fingerprints.iter().map(|(id, _)| id.as_str()).collect::<Vec<_>>())?);
    set("fingerprints", js_sys::BigUint64Array::from(&r.fingerprints.iter().map(|&(_, f)| f).collect::<Vec<_>>()[..]).into());
    set("skipped", to_js(&r.skipped.iter().map(|(id, e)| S { id, error: e.to_string() }).collect::<Vec<_>>())?);
    set("layout", r.layout.into());
    Ok(out.into())
}

// ---------------------------------------------------------------------------------------
// Passages (issue 6: the demo's plagiarism view). Self-contained section: conversions
// only; the splitting and matching live in `src/passage.rs`.
// ---------------------------------------------------------------------------------------

mod passage_bindings {
    use serde::{Deserialize, Serialize};
    use wasm_bindgen::prelude::*;

    use super::{bad_argument, js_error, options_from_js, to_js};
    use crate::error::Error;
    use crate::passage::{Passage, PassageChecker, PassageOptions, Span, Split};

    const PASSAGE_OPTION_NAMES: [&str; 6] = ["split", "window", "step", "k", "minChars", "hasher"];

    /// Passage options as JS spells them.
    #[derive(Deserialize, Default)]
    #[serde(rename_all = "camelCase")]
    struct JsPassageOptions {
        split: Option<String>,
        window: Option<f64>,
        step: Option<f64>,
        k: Option<f64>,
        min_chars: Option<f64>,
    }

    fn count(option: &'static str, v: Option<f64>, default: usize) -> Result<usize, JsValue> {
        match v {
            None => Ok(default),
            Some(x) if x >= 0.0 && x.fract() == 0.0 && x <= 1e9 => Ok(x as usize),
            Some(x) => Err(js_error(Error::InvalidOption { option, value: x.to_string(), expected: "a non-negative whole number".into() })),
        }
    }

    fn passage_options_from_js(value: JsValue) -> Result<PassageOptions, JsValue> {
        let mut opts = PassageOptions::default();
        if value.is_undefined() || value.is_null() {
            return Ok(opts);
        }
        let mut hasher = JsValue::UNDEFINED;
        if let Some(obj) = value.dyn_ref::<js_sys::Object>() {
            for key in js_sys::Object::keys(obj).iter() {
                let key = key.as_string().unwrap_or_default();
                if !PASSAGE_OPTION_NAMES.contains(&key.as_str()) {
                    return Err(js_error(Error::InvalidOption {
                        option: "options",
                        value: format!("{{ {key}: … }}"),
                        expected: format!("only the keys {}", PASSAGE_OPTION_NAMES.join(", ")),
                    }));
                }
            }
            hasher = js_sys::Reflect::get(obj, &"hasher".into()).unwrap_or(JsValue::UNDEFINED);
            // `hasher` is read above; serde skips it (and every key checked above) here.
            let o: JsPassageOptions = serde_wasm_bindgen::from_value(obj.clone().into())
                .map_err(|e| bad_argument("options", "an object like { split: \"paragraphs\", k: 3 }", e))?;
            let window = count("window", o.window, 3)?;
            let step = count("step", o.step, 1)?;
            opts.split = match o.split.as_deref() {
                None | Some("paragraphs") => Split::Paragraphs,
                Some("sentences") => Split::Sentences { window, step },
                Some(other) => {
                    return Err(js_error(Error::InvalidOption { option: "split", value: format!("{other:?}"), expected: "\"paragraphs\" or \"sentences\"".into() }))
                }
            };
            opts.k = u32::try_from(count("k", o.k, 3)?).unwrap_or(u32::MAX);
            opts.min_chars = count("minChars", o.min_chars, opts.min_chars)?;
        }
        opts.fingerprint = options_from_js(hasher)?;
        Ok(opts)
    }

    /// A span as JS wants it: `start`/`end` are string (UTF-16) indices.
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct JsSpan {
        start: u32,
        end: u32,
        byte_start: u32,
        byte_end: u32,
    }

    impl From<Span> for JsSpan {
        fn from(s: Span) -> Self {
            JsSpan { start: s.start_utf16 as u32, end: s.end_utf16 as u32, byte_start: s.start as u32, byte_end: s.end as u32 }
        }
    }

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct JsPassage {
        start: u32,
        end: u32,
        byte_start: u32,
        byte_end: u32,
        fingerprint: Option<u64>,
    }

    fn passages_out(ps: &[Passage]) -> Vec<JsPassage> {
        ps.iter()
            .map(|p| {
                let s = JsSpan::from(p.span);
                JsPassage { start: s.start, end: s.end, byte_start: s.byte_start, byte_end: s.byte_end, fingerprint: p.fingerprint }
            })
            .collect()
    }

    /// Reference texts cut into fingerprinted passages (paragraphs or sentence windows) and
    /// indexed; `check(submission)` reports, per reference, the whole-document similarity
    /// and the passage pairs whose fingerprints differ in at most `k` bits.
    #[wasm_bindgen(js_name = PassageChecker)]
    pub struct JsPassageChecker(PassageChecker);

    #[wasm_bindgen(js_class = PassageChecker)]
    impl JsPassageChecker {
        /// `new PassageChecker({ split: "paragraphs" | "sentences", window: 3, step: 1, k: 3, minChars: 40, hasher: { ngram: 6 } })`
        #[wasm_bindgen(constructor)]
        pub fn new(options: JsValue) -> Result<JsPassageChecker, JsValue> {
            Ok(JsPassageChecker(PassageChecker::new(passage_options_from_js(options)?).map_err(js_error)?))
        }

        /// Adds a reference text; returns its number (0, 1, …).
        #[wasm_bindgen(js_name = addReference)]
        pub fn add_reference(&mut self, text: &str) -> Result<u32, JsValue> {
            self.0.add_reference(text).map(|d| d as u32).map_err(js_error)
        }

        /// Number of references added.
        #[wasm_bindgen(getter)]
        pub fn size(&self) -> u32 {
            self.0.len() as u32
        }

        /// The passages of reference `doc`: `[{ start, end, byteStart, byteEnd, fingerprint }]`.
        pub fn passages(&self, doc: u32) -> Result<JsValue, JsValue> {
            to_js(&passages_out(self.0.passages(doc as usize)))
        }

        /// Splits and fingerprints a text without adding it: `[{ start, end, byteStart, byteEnd, fingerprint }]`.
        #[wasm_bindgen(js_name = passagesOf)]
        pub fn passages_of(&mut self, text: &str) -> Result<JsValue, JsValue> {
            to_js(&passages_out(&self.0.passages_of(text)))
        }

        /// `{ fingerprint, passages, references: [{ doc, distance, similarity, coverage,
        /// matches: [{ submission, reference, distance, submissionSpan, referenceSpan }] }] }`.
        pub fn check(&mut self, submission: &str) -> Result<JsValue, JsValue> {
            let r = self.0.check(submission).map_err(js_error)?;
            #[derive(Serialize)]
            #[serde(rename_all = "camelCase")]
            struct M {
                submission: u32,
                reference: u32,
                distance: u32,
                submission_span: JsSpan,
                reference_span: JsSpan,
            }
            #[derive(Serialize)]
            #[serde(rename_all = "camelCase")]
            struct R {
                doc: u32,
                distance: Option<u32>,
                similarity: Option<f64>,
                coverage: f64,
                matches: Vec<M>,
            }
            #[derive(Serialize)]
            struct Out {
                fingerprint: Option<u64>,
                passages: Vec<JsPassage>,
                references: Vec<R>,
            }
            to_js(&Out {
                fingerprint: r.fingerprint,
                passages: passages_out(&r.passages),
                references: r
                    .references
                    .into_iter()
                    .map(|x| R {
                        doc: x.doc as u32,
                        distance: x.distance,
                        similarity: x.similarity,
                        coverage: x.coverage,
                        matches: x
                            .matches
                            .into_iter()
                            .map(|m| M {
                                submission: m.submission as u32,
                                reference: m.reference as u32,
                                distance: m.distance,
                                submission_span: m.submission_span.into(),
                                reference_span: m.reference_span.into(),
                            })
                            .collect(),
                    })
                    .collect(),
            })
        }
    }
}
