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

fn options_from_js(value: JsValue) -> Result<Options, JsValue> {
    let o: JsOptions = if value.is_undefined() || value.is_null() {
        JsOptions::default()
    } else {
        // serde_wasm_bindgen reads only the known keys, so check for misspelt ones here.
        if let Some(obj) = value.dyn_ref::<js_sys::Object>() {
            for key in js_sys::Object::keys(obj).iter() {
                let key = key.as_string().unwrap_or_default();
                if !Options::NAMES.contains(&key.as_str()) {
                    return Err(js_error(Error::option("options", format!("{{ {key}: … }}"), format!("only the keys {}", Options::NAMES.join(", ")))));
                }
            }
        }
        serde_wasm_bindgen::from_value(value)
            .map_err(|e| bad_argument("options", "an object like { ngram: 6, weighting: \"sublinear\" }", e))?
    };
    Options::from_names(o.mode.as_deref(), o.ngram, o.weighting.as_deref(), o.punctuation.as_deref(), o.nfkc, o.lowercase)
        .map_err(js_error)
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
