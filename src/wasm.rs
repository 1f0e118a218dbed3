//! The JavaScript bindings: every function here converts types and maps errors, and
//! nothing else. All logic lives in the core modules, which never see a JS type.
//!
//! Conventions: fingerprints are `bigint` (batches `BigUint64Array`), option objects are
//! camelCase, and every core [`Error`] becomes a thrown JS `Error` whose `name` is
//! `"SimHashError"`, whose `code` is [`Error::code`], and whose message says what to fix.
//! The core never panics on input, so after any thrown error the instance keeps working.

use std::cell::RefCell;

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::error::Error;
use crate::fingerprint::{self, BitFeature, Options};

#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

thread_local! {
    /// The package's `SimHashError` class, registered by the JS entry points at load time.
    static ERROR_CLASS: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
}

/// Registers the JS `SimHashError` class (`class SimHashError extends Error`, constructor
/// `(message, code)`) that every thrown error is an instance of. Called once by the
/// package's entry points; not part of the public API.
#[wasm_bindgen(js_name = __setErrorClass, skip_typescript)]
pub fn set_error_class(class: js_sys::Function) {
    ERROR_CLASS.with(|c| *c.borrow_mut() = Some(class));
}

/// Benchmark hook, not part of the public API: copies `texts` into wasm memory once, then
/// times `rounds` passes of the core's `fingerprint` over them, all inside wasm, and
/// returns the milliseconds. `npm run bench:fingerprint` compares it with
/// `fingerprintBatch` to isolate what the JS boundary costs.
#[wasm_bindgen(js_name = __benchCore, skip_typescript)]
pub fn bench_core(texts: Vec<String>, rounds: u32) -> Result<f64, JsValue> {
    let mut hasher = fingerprint::SimHasher::new(Options::default()).map_err(js_error)?;
    let mut sink = 0u64;
    let start = js_sys::Date::now();
    for _ in 0..rounds {
        for t in &texts {
            sink ^= hasher.fingerprint(t).unwrap_or(0);
        }
    }
    std::hint::black_box(sink);
    Ok(js_sys::Date::now() - start)
}

/// The module's `WebAssembly.Memory`, for memory tests (release builds of the Node glue
/// do not expose it otherwise). Not part of the public API.
#[wasm_bindgen(js_name = __memory, skip_typescript)]
pub fn memory() -> JsValue {
    wasm_bindgen::memory()
}

fn js_error(e: Error) -> JsValue {
    let message = JsValue::from(e.to_string());
    let code = JsValue::from(e.code());
    let made = ERROR_CLASS.with(|c| {
        c.borrow().as_ref().and_then(|class| Reflect::construct(class, &Array::of2(&message, &code)).ok())
    });
    if let Some(err) = made {
        return err;
    }
    // No class registered (the raw wasm-bindgen module used directly): a plain Error.
    let err = js_sys::Error::new(&e.to_string());
    err.set_name("SimHashError");
    let _ = Reflect::set(&err, &"code".into(), &code);
    err.into()
}

/// A JS value of the wrong shape, as an `InvalidOption` error naming what was expected.
fn bad_argument(option: &'static str, expected: &str, got: &JsValue) -> JsValue {
    js_error(Error::InvalidOption { option, value: describe(got), expected: expected.to_owned() })
}

fn describe(v: &JsValue) -> String {
    if let Some(s) = v.as_string() {
        crate::error::quoted(&s)
    } else {
        js_sys::JSON::stringify(v).ok().and_then(|s| s.as_string()).unwrap_or_else(|| format!("{v:?}"))
    }
}

// -- hand-written conversions (no serde: smaller wasm, and exact control of the shapes) --

fn set(o: &Object, key: &str, value: impl Into<JsValue>) {
    let _ = Reflect::set(o, &JsValue::from(key), &value.into());
}

fn big(x: u64) -> JsValue {
    js_sys::BigInt::from(x).into()
}

/// An option object: `undefined`/`null` is `None`; anything but a plain object, or an
/// unknown key, throws.
fn option_object(value: &JsValue, allowed: &[&str], example: &str) -> Result<Option<Object>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    if !value.is_object() || Array::is_array(value) {
        return Err(bad_argument("options", &format!("an object like {example}"), value));
    }
    let obj: Object = value.clone().unchecked_into();
    for key in Object::keys(&obj).iter() {
        let key = key.as_string().unwrap_or_default();
        if !allowed.contains(&key.as_str()) {
            return Err(js_error(Error::option(
                "options",
                format!("{{ {key}: … }}"),
                format!("only the keys {}", allowed.join(", ")),
            )));
        }
    }
    Ok(Some(obj))
}

fn field(o: &Option<Object>, key: &str) -> JsValue {
    match o {
        Some(o) => Reflect::get(o, &JsValue::from(key)).unwrap_or(JsValue::UNDEFINED),
        None => JsValue::UNDEFINED,
    }
}

fn opt_string(o: &Option<Object>, key: &'static str) -> Result<Option<String>, JsValue> {
    let v = field(o, key);
    if v.is_undefined() {
        return Ok(None);
    }
    v.as_string().map(Some).ok_or_else(|| bad_argument(key, "a string", &v))
}

fn opt_number(o: &Option<Object>, key: &'static str) -> Result<Option<f64>, JsValue> {
    let v = field(o, key);
    if v.is_undefined() {
        return Ok(None);
    }
    v.as_f64().map(Some).ok_or_else(|| bad_argument(key, "a number", &v))
}

fn opt_bool(o: &Option<Object>, key: &'static str) -> Result<Option<bool>, JsValue> {
    let v = field(o, key);
    if v.is_undefined() {
        return Ok(None);
    }
    v.as_bool().map(Some).ok_or_else(|| bad_argument(key, "true or false", &v))
}

/// The hasher keys of an option object (read from `o`, whose keys were checked already).
fn options_from(o: &Option<Object>) -> Result<(Options, bool), JsValue> {
    let opts = Options::from_names(
        opt_string(o, "mode")?.as_deref(),
        opt_number(o, "ngram")?,
        opt_string(o, "weighting")?.as_deref(),
        opt_string(o, "punctuation")?.as_deref(),
        opt_bool(o, "nfkc")?,
        opt_bool(o, "lowercase")?,
    )
    .map_err(js_error)?;
    Ok((opts, opt_bool(o, "html")?.unwrap_or(false)))
}

const HASHER_KEYS: [&str; 7] = ["mode", "ngram", "weighting", "punctuation", "nfkc", "lowercase", "html"];

/// `{ mode, ngram, weighting, punctuation, nfkc, lowercase, html, scheme }`.
fn options_to_js(o: &Options, html: bool) -> Object {
    let out = Object::new();
    set(&out, "mode", o.tokenizer.mode());
    set(&out, "ngram", o.tokenizer.n() as u32);
    set(&out, "weighting", o.weighting.name());
    set(&out, "punctuation", o.normalize.punctuation.name());
    set(&out, "nfkc", o.normalize.nfkc);
    set(&out, "lowercase", o.normalize.lowercase);
    set(&out, "html", html);
    set(&out, "scheme", o.describe());
    out
}

/// The visible text of an HTML document: scripts, styles, comments, `<head>` and
/// templates dropped, entities decoded, block elements as line breaks.
#[cfg(feature = "html")]
#[wasm_bindgen(js_name = htmlToText)]
pub fn html_to_text(html: &str) -> String {
    crate::html::html_to_text(html)
}

/// Computes SimHash fingerprints with fixed options.
#[wasm_bindgen(js_name = SimHasher)]
pub struct JsSimHasher(fingerprint::SimHasher);

#[wasm_bindgen(js_class = SimHasher)]
impl JsSimHasher {
    /// `new SimHasher({ ngram: 6, mode: "chars", weighting: "sublinear", punctuation: "collapse" })`
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<JsSimHasher, JsValue> {
        let o = option_object(&options, &HASHER_KEYS, "{ ngram: 6, weighting: \"sublinear\" }")?;
        let (opts, html) = options_from(&o)?;
        let mut h = fingerprint::SimHasher::new(opts).map_err(js_error)?;
        h.set_html(html).map_err(js_error)?;
        Ok(JsSimHasher(h))
    }

    /// The options in force, with defaults filled in.
    pub fn options(&self) -> JsValue {
        options_to_js(self.0.options(), self.0.html()).into()
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
        let tokens = Array::new_with_length(e.tokens.len() as u32);
        for (i, t) in e.tokens.iter().enumerate() {
            let o = Object::new();
            set(&o, "start", t.start as u32);
            set(&o, "end", t.end as u32);
            set(&o, "text", e.normalized.get(t.start..t.end).unwrap_or(""));
            set(&o, "hash", big(t.hash));
            set(&o, "tf", t.tf);
            set(&o, "weight", t.weight);
            set(&o, "first", t.first);
            tokens.set(i as u32, o.into());
        }
        let out = Object::new();
        set(&out, "normalized", e.normalized.as_str());
        set(&out, "tokens", tokens);
        set(&out, "sums", e.sums.iter().map(|&x| JsValue::from(x)).collect::<Array>());
        set(&out, "fingerprint", big(e.fingerprint));
        Ok(out.into())
    }
}

/// The fingerprint of caller-supplied `[feature, weight]` pairs.
#[wasm_bindgen(js_name = fromFeatures)]
pub fn from_features(features: JsValue) -> Result<u64, JsValue> {
    const EXPECTED: &str = "an array of [string, number] pairs";
    if !Array::is_array(&features) {
        return Err(bad_argument("features", EXPECTED, &features));
    }
    let arr: Array = features.unchecked_into();
    let mut list: Vec<(String, f64)> = Vec::with_capacity(arr.length() as usize);
    for item in arr.iter() {
        let pair = item.dyn_ref::<Array>().filter(|p| p.length() == 2);
        let parsed = pair.and_then(|p| Some((p.get(0).as_string()?, p.get(1).as_f64()?)));
        list.push(parsed.ok_or_else(|| bad_argument("features", EXPECTED, &item))?);
    }
    fingerprint::fingerprint_features(&list).map_err(js_error)
}

/// SimHash with caller-given hash bits of any width:
/// `simhashBits([{ bits: "101001", weight: 3 }, ...])` → `{ sums, bits }`.
#[wasm_bindgen(js_name = simhashBits)]
pub fn simhash_bits(features: JsValue) -> Result<JsValue, JsValue> {
    const EXPECTED: &str = "an array like [{ bits: \"1010\", weight: 1 }]";
    if !Array::is_array(&features) {
        return Err(bad_argument("features", EXPECTED, &features));
    }
    let arr: Array = features.unchecked_into();
    let mut parsed = Vec::with_capacity(arr.length() as usize);
    for (index, item) in arr.iter().enumerate() {
        let get = |k: &str| {
            if item.is_object() {
                Reflect::get(&item, &JsValue::from(k)).unwrap_or(JsValue::UNDEFINED)
            } else {
                JsValue::UNDEFINED
            }
        };
        let (Some(bits), Some(weight)) = (get("bits").as_string(), get("weight").as_f64()) else {
            return Err(bad_argument("features", EXPECTED, &item));
        };
        let bits = fingerprint::parse_bits(&bits, index).map_err(js_error)?;
        parsed.push(BitFeature { bits, weight });
    }
    let r = fingerprint::simhash_bits(&parsed).map_err(js_error)?;
    let out = Object::new();
    set(&out, "sums", r.sums.iter().map(|&x| JsValue::from(x)).collect::<Array>());
    set(&out, "bits", r.to_bit_string());
    Ok(out.into())
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

const INDEX_OPTION_NAMES: [&str; 5] = ["k", "layout", "expectedSize", "memoryBudget", "ids"];

/// `layout`: `"default"`, `"auto"`, `"probe"`, or explicit block widths like `[16, 16, 16, 16]`
/// (`undefined`: the default for `k`).
fn layout_from(o: &Option<Object>, k: u32) -> Result<Layout, JsValue> {
    let v = field(o, "layout");
    let layout = if v.is_undefined() {
        Layout::default_for_k(k)
    } else if let Some(n) = v.as_string() {
        match n.as_str() {
            "default" => Layout::default_for_k(k),
            "probe" => Layout::probe(k),
            "auto" => {
                let expected = opt_number(o, "expectedSize")?.unwrap_or(1e6);
                let budget = opt_number(o, "memoryBudget")?;
                Layout::auto(expected as usize, k, budget.map(|b| b as usize))
            }
            _ => Err(Error::option(
                "layout",
                crate::error::quoted(&n),
                "\"default\", \"auto\", \"probe\" or an array of block widths",
            )),
        }
    } else if Array::is_array(&v) {
        let mut widths = Vec::new();
        for w in Array::from(&v).iter() {
            match w.as_f64() {
                Some(x) if x.fract() == 0.0 && (0.0..=64.0).contains(&x) => widths.push(x as u32),
                _ => {
                    return Err(bad_argument(
                        "layout",
                        "block widths from 1 to 64, like [16, 16, 16, 16]",
                        &v,
                    ))
                }
            }
        }
        Layout::new(k, &widths)
    } else {
        return Err(bad_argument(
            "layout",
            "\"default\", \"auto\", \"probe\" or an array of block widths",
            &v,
        ));
    };
    layout.map_err(js_error)
}

fn k_from(o: &Option<Object>, default: u32) -> Result<u32, JsValue> {
    match opt_number(o, "k")? {
        None => Ok(default),
        Some(k) if k.fract() == 0.0 && (0.0..=64.0).contains(&k) => Ok(k as u32),
        Some(k) => Err(js_error(Error::option("k", crate::error::number(k), "an integer from 0 to 63"))),
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
            js_error(Error::option(
                "id",
                format!("{v:?}"),
                "a string, since this index holds string ids (make one with { ids: \"number\" } for numbers)",
            ))
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
    let _ =
        js_sys::Reflect::set(&o, &"distances".into(), &js_sys::Uint32Array::from(&f.distances[..]).into());
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
        let o = option_object(&options, &INDEX_OPTION_NAMES, "{ k: 3, layout: \"default\" }")?;
        let k = k_from(&o, 3)?;
        let layout = layout_from(&o, k)?;
        Ok(JsIndex(match opt_string(&o, "ids")?.as_deref() {
            None => Ids::Unset(layout),
            Some("number") => Ids::Num(Index::new(layout)),
            Some("string") => Ids::Str(Index::new(layout)),
            Some(other) => {
                return Err(js_error(Error::option(
                    "ids",
                    crate::error::quoted(&other),
                    "\"number\" or \"string\"",
                )))
            }
        }))
    }

    /// Fixes the id kind from the first id, if not fixed yet.
    fn settle(&mut self, first: &JsValue) {
        if let Ids::Unset(layout) = &self.0 {
            let layout = layout.clone();
            self.0 =
                if first.is_string() { Ids::Str(Index::new(layout)) } else { Ids::Num(Index::new(layout)) };
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
            return Err(js_error(Error::option(
                "ids",
                ids.len(),
                format!("as many ids as fingerprints ({})", fingerprints.len()),
            )));
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
            _ => {
                Err(js_error(Error::option("id", "a number", "a string, since this index holds string ids")))
            }
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
            Ids::Num(ix) => {
                Ok(matches_to_js(&ix.query_and_insert(u64::from_js(&id)?, fingerprint).map_err(js_error)?))
            }
            Ids::Str(ix) => {
                Ok(matches_to_js(&ix.query_and_insert(String::from_js(&id)?, fingerprint).map_err(js_error)?))
            }
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
    pub fn stats(&self) -> JsValue {
        let (layout, st) = match &self.0 {
            Ids::Num(ix) => (ix.layout(), Some(ix.stats())),
            Ids::Str(ix) => (ix.layout(), Some(ix.stats())),
            Ids::Unset(l) => (l, None),
        };
        let st = st.unwrap_or_else(|| Index::<u64>::new(layout.clone()).stats());
        let nums = |xs: &[u32]| xs.iter().map(|&x| JsValue::from(x)).collect::<Array>();
        let o = Object::new();
        set(&o, "layout", layout.to_string());
        set(&o, "k", layout.k());
        set(&o, "widths", nums(layout.widths()));
        set(&o, "probe", layout.is_probe());
        set(&o, "size", st.len as f64);
        set(&o, "tables", st.tables as u32);
        set(
            &o,
            "tableBlocks",
            layout.table_blocks().iter().map(|b| JsValue::from(nums(b))).collect::<Array>(),
        );
        set(&o, "keyBits", nums(&st.key_bits));
        set(
            &o,
            "expectedCandidatesPerTable",
            st.expected_candidates_per_table.iter().map(|&x| JsValue::from(x)).collect::<Array>(),
        );
        set(&o, "expectedCandidates", st.expected_candidates);
        set(&o, "probesPerQuery", st.probes_per_query as f64);
        set(&o, "bytes", st.bytes as f64);
        set(&o, "bytesPerFp", st.bytes_per_fp);
        set(&o, "segments", st.segments as u32);
        set(&o, "buffered", st.buffered as f64);
        set(&o, "tombstones", st.tombstones as f64);
        o.into()
    }
}

// ---------------------------------------------------------------------------------------
// Snapshots of an index: the crawler's step 4 (Cargo feature `crawler`; the default
// browser build has the stubs at the end of this file instead)
// ---------------------------------------------------------------------------------------

#[cfg(feature = "crawler")]
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
    let set_ = crate::snapshot::CompactSet::from_unsorted(fingerprints).map_err(js_error)?;
    let rows = set_.huffman_table().into_iter().map(|(symbol, count, code)| {
        let o = Object::new();
        set(&o, "symbol", symbol);
        set(&o, "count", count as f64);
        set(&o, "code", code);
        JsValue::from(o)
    });
    Ok(rows.collect::<Array>().into())
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

// The Node crawler's part (Cargo feature `crawler`, off in the default browser build):
// ContentSeen and dedup.
#[cfg(feature = "crawler")]
mod crawler {
    use super::*;

    // ---------------------------------------------------------------------------------------
    // ContentSeen
    // ---------------------------------------------------------------------------------------

    use crate::seen::{Check, ContentSeen, SeenConfig};

    const SEEN_KEYS: [&str; 11] = [
        "k",
        "layout",
        "expectedSize",
        "memoryBudget",
        "html",
        "mode",
        "ngram",
        "weighting",
        "punctuation",
        "nfkc",
        "lowercase",
    ];

    fn seen_config_from(options: &JsValue) -> Result<Option<SeenConfig>, JsValue> {
        let o = option_object(options, &SEEN_KEYS, "{ k: 3, html: true }")?;
        if o.is_none() {
            return Ok(None);
        }
        let k = k_from(&o, 3)?;
        // No `layout` key: the default for k when creating, "whatever was stored" when loading.
        let layout = if field(&o, "layout").is_undefined() { None } else { Some(layout_from(&o, k)?) };
        let (options, html) = options_from(&o)?;
        Ok(Some(SeenConfig { k, layout, options, html }))
    }

    fn check_to_js(c: &Check) -> JsValue {
        let o = Object::new();
        set(&o, "duplicate", c.duplicate);
        set(&o, "matches", matches_to_js(&c.matches));
        set(&o, "fingerprint", big(c.fingerprint));
        set(&o, "cluster", c.cluster.as_str());
        set(&o, "count", c.count as f64);
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

        /// `{ duplicate, matches: [{ id, distance }], fingerprint, cluster, count }`.
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

        /// The settings: hasher options plus `k` and `layout`.
        pub fn options(&self) -> JsValue {
            let c = self.0.config();
            let o = options_to_js(&c.options, c.html);
            set(&o, "k", c.k);
            set(&o, "layout", c.layout.as_ref().map(|l| l.to_string()).unwrap_or_default());
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

    // ---------------------------------------------------------------------------------------
    // The main job: dedup of a collection
    // ---------------------------------------------------------------------------------------

    /// Near-duplicate clusters of a collection:
    /// `dedup(ids, texts, { k: 10, verify: 0.8 | false, shingle: 4, layout, ...hasher options })` →
    /// `{ clusters, pairs: [{ a, b, distance, jaccard }], fingerprinted: string[],
    /// fingerprints: BigUint64Array, skipped: [{ id, error }], layout }`.
    #[wasm_bindgen]
    pub fn dedup(ids: Vec<String>, texts: Vec<String>, options: JsValue) -> Result<JsValue, JsValue> {
        use crate::dedup::{dedup as run, DedupOptions};
        if ids.len() != texts.len() {
            return Err(js_error(Error::option(
                "ids",
                ids.len(),
                format!("as many ids as texts ({})", texts.len()),
            )));
        }
        let mut allowed = HASHER_KEYS.to_vec();
        allowed.extend(["k", "layout", "verify", "shingle"]);
        let o = option_object(&options, &allowed, "{ k: 10, verify: 0.8 }")?;
        let (fingerprint, html) = options_from(&o)?;
        let d = DedupOptions::default();
        let k = k_from(&o, d.k)?;
        let layout_given = field(&o, "layout");
        let layout = if layout_given.is_undefined() || layout_given.as_string().as_deref() == Some("auto") {
            None
        } else {
            Some(layout_from(&o, k)?)
        };
        let v = field(&o, "verify");
        let verify = if v.is_undefined() || v.as_bool() == Some(true) {
            d.verify
        } else if v.as_bool() == Some(false) {
            None
        } else {
            Some(
                v.as_f64()
                    .ok_or_else(|| bad_argument("verify", "a Jaccard threshold from 0 to 1, or false", &v))?,
            )
        };
        let shingle = match opt_number(&o, "shingle")? {
            None => d.shingle,
            Some(x) if x.fract() == 0.0 && (1.0..=16.0).contains(&x) => x as usize,
            Some(x) => {
                return Err(js_error(Error::option(
                    "shingle",
                    crate::error::number(x),
                    "an integer from 1 to 16",
                )))
            }
        };
        let docs: Vec<(&str, &str)> =
            ids.iter().map(String::as_str).zip(texts.iter().map(String::as_str)).collect();
        let r =
            run(&docs, &DedupOptions { fingerprint, k, layout, verify, shingle, html }).map_err(js_error)?;
        let out = Object::new();
        let clusters: Array =
            r.clusters.iter().map(|c| c.iter().map(|id| JsValue::from_str(id)).collect::<Array>()).collect();
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
        set(
            &out,
            "fingerprinted",
            r.fingerprints.iter().map(|(id, _)| JsValue::from_str(id)).collect::<Array>(),
        );
        let fps: Vec<u64> = r.fingerprints.iter().map(|&(_, f)| f).collect();
        set(&out, "fingerprints", js_sys::BigUint64Array::from(&fps[..]));
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
        set(&out, "layout", r.layout.as_str());
        Ok(out.into())
    }
}

// ---------------------------------------------------------------------------------------
// Passages (the demo's plagiarism view): the splitting and matching live in
// `src/passage.rs`.
// ---------------------------------------------------------------------------------------

use crate::passage::{Passage, PassageChecker, PassageOptions, Span, Split};

const PASSAGE_OPTION_NAMES: [&str; 6] = ["split", "window", "step", "k", "minChars", "hasher"];

fn count_from(o: &Option<Object>, key: &'static str, default: usize) -> Result<usize, JsValue> {
    match opt_number(o, key)? {
        None => Ok(default),
        Some(x) if x >= 0.0 && x.fract() == 0.0 && x <= 1e9 => Ok(x as usize),
        Some(x) => Err(js_error(Error::option(key, crate::error::number(x), "a non-negative whole number"))),
    }
}

fn passage_options_from(value: &JsValue) -> Result<PassageOptions, JsValue> {
    let mut opts = PassageOptions::default();
    let o = option_object(value, &PASSAGE_OPTION_NAMES, "{ split: \"paragraphs\", k: 3 }")?;
    if o.is_none() {
        return Ok(opts);
    }
    let window = count_from(&o, "window", 3)?;
    let step = count_from(&o, "step", 1)?;
    opts.split = match opt_string(&o, "split")?.as_deref() {
        None | Some("paragraphs") => Split::Paragraphs,
        Some("sentences") => Split::Sentences { window, step },
        Some(other) => {
            return Err(js_error(Error::option(
                "split",
                crate::error::quoted(&other),
                "\"paragraphs\" or \"sentences\"",
            )))
        }
    };
    opts.k = u32::try_from(count_from(&o, "k", 3)?).unwrap_or(u32::MAX);
    opts.min_chars = count_from(&o, "minChars", opts.min_chars)?;
    // Passages are spans of the text as given, so `html` is not among the hasher's keys.
    let hasher = option_object(&field(&o, "hasher"), &Options::NAMES, "{ ngram: 6 }")?;
    opts.fingerprint = options_from(&hasher)?.0;
    Ok(opts)
}

/// `{ start, end, byteStart, byteEnd }`: `start`/`end` are string (UTF-16) indices.
fn span_into(o: &Object, s: Span, prefix: &str) {
    let key = |k: &str| {
        if prefix.is_empty() {
            k.to_owned()
        } else {
            format!("{prefix}{}{}", k[..1].to_ascii_uppercase(), &k[1..])
        }
    };
    set(o, &key("start"), s.start_utf16 as u32);
    set(o, &key("end"), s.end_utf16 as u32);
    set(o, &key("byteStart"), s.start as u32);
    set(o, &key("byteEnd"), s.end as u32);
}

fn span_to_js(s: Span) -> JsValue {
    let o = Object::new();
    span_into(&o, s, "");
    o.into()
}

fn passages_to_js(ps: &[Passage]) -> JsValue {
    ps.iter()
        .map(|p| {
            let o = Object::new();
            span_into(&o, p.span, "");
            set(&o, "fingerprint", p.fingerprint.map_or(JsValue::UNDEFINED, big));
            JsValue::from(o)
        })
        .collect::<Array>()
        .into()
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
        Ok(JsPassageChecker(PassageChecker::new(passage_options_from(&options)?).map_err(js_error)?))
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
    pub fn passages(&self, doc: u32) -> JsValue {
        passages_to_js(self.0.passages(doc as usize))
    }

    /// Splits and fingerprints a text without adding it: `[{ start, end, byteStart, byteEnd, fingerprint }]`.
    #[wasm_bindgen(js_name = passagesOf)]
    pub fn passages_of(&mut self, text: &str) -> JsValue {
        passages_to_js(&self.0.passages_of(text))
    }

    /// `{ fingerprint, passages, references: [{ doc, distance, similarity, coverage,
    /// matches: [{ submission, reference, distance, submissionSpan, referenceSpan }] }] }`.
    pub fn check(&mut self, submission: &str) -> Result<JsValue, JsValue> {
        let r = self.0.check(submission).map_err(js_error)?;
        let out = Object::new();
        set(&out, "fingerprint", r.fingerprint.map_or(JsValue::UNDEFINED, big));
        set(&out, "passages", passages_to_js(&r.passages));
        let refs: Array = r
            .references
            .iter()
            .map(|x| {
                let o = Object::new();
                set(&o, "doc", x.doc as u32);
                set(&o, "distance", x.distance.map_or(JsValue::UNDEFINED, JsValue::from));
                set(&o, "similarity", x.similarity.map_or(JsValue::UNDEFINED, JsValue::from_f64));
                set(&o, "coverage", x.coverage);
                let ms: Array = x
                    .matches
                    .iter()
                    .map(|m| {
                        let mo = Object::new();
                        set(&mo, "submission", m.submission as u32);
                        set(&mo, "reference", m.reference as u32);
                        set(&mo, "distance", m.distance);
                        set(&mo, "submissionSpan", span_to_js(m.submission_span));
                        set(&mo, "referenceSpan", span_to_js(m.reference_span));
                        JsValue::from(mo)
                    })
                    .collect();
                set(&o, "matches", ms);
                JsValue::from(o)
            })
            .collect();
        set(&out, "references", refs);
        Ok(out.into())
    }
}

// ---------------------------------------------------------------------------------------
// What a build without the Cargo features `html` and `crawler` (the npm package's default
// browser build, kept under 150 kB gzip) has instead: the same names, throwing a
// `FeatureDisabled` error that says where the real ones are.
// ---------------------------------------------------------------------------------------

#[cfg(not(feature = "html"))]
#[wasm_bindgen(js_name = htmlToText)]
pub fn html_to_text(_html: &str) -> Result<String, JsValue> {
    Err(js_error(Error::html_disabled()))
}

#[cfg(not(feature = "crawler"))]
mod crawler_disabled {
    use super::*;

    fn disabled(what: &'static str) -> JsValue {
        js_error(Error::FeatureDisabled { feature: "crawler", what })
    }

    #[wasm_bindgen(js_class = SimHashIndex)]
    impl JsIndex {
        /// Not in this build (Cargo feature `crawler`): throws `FeatureDisabled`.
        #[wasm_bindgen(js_name = toBytes)]
        pub fn to_bytes(&self) -> Result<Vec<u8>, JsValue> {
            Err(disabled("SimHashIndex.toBytes"))
        }

        /// Not in this build (Cargo feature `crawler`): throws `FeatureDisabled`.
        #[wasm_bindgen(js_name = fromBytes)]
        pub fn from_bytes(_bytes: &[u8]) -> Result<JsIndex, JsValue> {
            Err(disabled("SimHashIndex.fromBytes"))
        }
    }

    /// Not in this build (Cargo feature `crawler`): the constructor throws `FeatureDisabled`.
    #[wasm_bindgen(js_name = ContentSeen)]
    pub struct JsContentSeen;

    #[wasm_bindgen(js_class = ContentSeen)]
    impl JsContentSeen {
        /// Throws `FeatureDisabled`.
        #[wasm_bindgen(constructor)]
        pub fn new(_options: JsValue) -> Result<JsContentSeen, JsValue> {
            Err(disabled("ContentSeen"))
        }

        /// Throws `FeatureDisabled`.
        #[wasm_bindgen(js_name = fromBytes)]
        pub fn from_bytes(_bytes: &[u8], _options: JsValue) -> Result<JsContentSeen, JsValue> {
            Err(disabled("ContentSeen"))
        }
    }

    /// Not in this build (Cargo feature `crawler`): throws `FeatureDisabled`.
    #[wasm_bindgen]
    pub fn dedup(_ids: Vec<String>, _texts: Vec<String>, _options: JsValue) -> Result<JsValue, JsValue> {
        Err(disabled("dedup"))
    }
}
