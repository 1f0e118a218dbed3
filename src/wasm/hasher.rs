//! `SimHasher`, the free fingerprint functions (`fromFeatures`, `simhashBits`), the
//! distance and hex helpers, and `htmlToText`.

use js_sys::{Array, BigUint64Array, Object, Reflect, Uint32Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::convert::{self, bad_argument, big, option_object, options_from, options_to_js, set, HASHER_KEYS};
use crate::error::Error;
use crate::fingerprint::{self, BitFeature, SimHasher};

/// The visible text of an HTML document: scripts, styles, comments, `<head>` and
/// templates dropped, entities decoded, block elements as line breaks.
/// `htmlToText(html, { content: "main" | "all" })`: the main content, or all the text.
#[cfg(feature = "html")]
#[wasm_bindgen(js_name = htmlToText)]
pub fn html_to_text(html: &str, options: JsValue) -> Result<String, JsValue> {
    use crate::html::Content;
    let o = option_object(&options, &[&[Content::OPTION]], "{ content: \"main\" }")?;
    let content = match convert::opt_string(&o, Content::OPTION)? {
        Some(name) => Content::from_name(&name)?,
        None => Content::default(),
    };
    Ok(crate::html::extract(html, content))
}

/// Not in this build (Cargo feature `html`): throws `FeatureDisabled`.
#[cfg(not(feature = "html"))]
#[wasm_bindgen(js_name = htmlToText)]
pub fn html_to_text(_html: JsValue) -> Result<String, JsValue> {
    Err(crate::error::Error::html_disabled().into())
}

/// Computes SimHash fingerprints with fixed options.
#[wasm_bindgen(js_name = SimHasher)]
pub struct JsSimHasher(pub(super) fingerprint::SimHasher);

#[wasm_bindgen(js_class = SimHasher)]
impl JsSimHasher {
    /// `new SimHasher({ ngram: 6, mode: "chars", weighting: "sublinear", punctuation: "collapse" })`
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<JsSimHasher, JsValue> {
        let o = option_object(&options, &HASHER_KEYS, "{ ngram: 6, weighting: \"sublinear\" }")?;
        let mut h = hasher_with_idf(&o)?;
        convert::set_reading(&mut h, &o)?;
        Ok(JsSimHasher(h))
    }

    /// The options in force, with defaults filled in.
    pub fn options(&self) -> JsValue {
        let o = options_to_js(self.0.options(), self.0.html());
        set(&o, SimHasher::CONTENT, convert::content_name(&self.0));
        o.into()
    }

    /// The fingerprint of a string.
    pub fn fingerprint(&mut self, text: &str) -> Result<u64, JsValue> {
        Ok(self.0.fingerprint(text)?)
    }

    /// The fingerprint of raw UTF-8 bytes; invalid UTF-8 throws.
    #[wasm_bindgen(js_name = fingerprintBytes)]
    pub fn fingerprint_bytes(&mut self, bytes: &[u8]) -> Result<u64, JsValue> {
        Ok(self.0.fingerprint_bytes(bytes)?)
    }

    /// Fingerprints of an array of strings, crossing into wasm once.
    #[wasm_bindgen(js_name = fingerprintBatch)]
    pub fn fingerprint_batch(&mut self, texts: Vec<String>) -> Result<Vec<u64>, JsValue> {
        Ok(self.0.fingerprint_batch(texts.iter().map(String::as_str))?)
    }

    /// Every step of the fingerprint, as parallel typed arrays with one item per feature
    /// occurrence: `{ normalized, start, end, hash, weight, tf, first, sums, fingerprint }`.
    /// `start`/`end` are UTF-16 offsets, so `normalized.slice(start[i], end[i])` is the
    /// token's text. The JS layer builds `explain()`'s token objects from these arrays.
    #[wasm_bindgen(js_name = explainArrays)]
    pub fn explain_arrays(&mut self, text: &str) -> Result<JsValue, JsValue> {
        let e = self.0.explain(text)?;
        // UTF-8 byte offset → UTF-16 offset, at every char boundary of the normalised text.
        let mut utf16 = vec![0u32; e.normalized.len() + 1];
        let mut at = 0u32;
        for (byte, c) in e.normalized.char_indices() {
            utf16[byte] = at;
            at += c.len_utf16() as u32;
        }
        utf16[e.normalized.len()] = at;
        let n = e.tokens.len();
        let (mut start, mut end, mut tf) =
            (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
        let (mut hash, mut weight, mut first) =
            (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
        for t in &e.tokens {
            start.push(utf16[t.start]);
            end.push(utf16[t.end]);
            tf.push(t.tf);
            hash.push(t.hash);
            weight.push(t.weight);
            first.push(u8::from(t.first));
        }
        let out = Object::new();
        set(&out, "normalized", e.normalized.as_str());
        set(&out, "start", js_sys::Uint32Array::from(&start[..]));
        set(&out, "end", js_sys::Uint32Array::from(&end[..]));
        set(&out, "hash", js_sys::BigUint64Array::from(&hash[..]));
        set(&out, "weight", js_sys::Float64Array::from(&weight[..]));
        set(&out, "tf", js_sys::Uint32Array::from(&tf[..]));
        set(&out, "first", js_sys::Uint8Array::from(&first[..]));
        set(&out, "sums", js_sys::Float64Array::from(&e.sums[..]));
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
    Ok(fingerprint::fingerprint_features(&list)?)
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
        let bits = crate::fingerprint::parse_bits(&bits, index)?;
        parsed.push(BitFeature { bits, weight });
    }
    let r = fingerprint::simhash_bits(&parsed)?;
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
pub fn to_hex(fingerprint: u64) -> String {
    crate::hash::to_hex(fingerprint)
}

/// Parses 16 (or fewer) hex digits, with or without `0x`.
#[wasm_bindgen(js_name = fromHex)]
pub fn from_hex(hex: &str) -> Result<u64, JsValue> {
    Ok(crate::hash::from_hex(hex)?)
}

/// The version of the feature hash (part of every fingerprint scheme).
#[wasm_bindgen(js_name = hashVersion)]
pub fn hash_version() -> u32 {
    crate::hash::HASH_VERSION
}

// ---- IDF and sketches -------------------------------------------------------------------

/// The core hasher of a `SimHasher` option object, with its `idf` table if one is given.
fn hasher_with_idf(o: &Option<Object>) -> Result<fingerprint::SimHasher, JsValue> {
    let opts = options_from(o)?;
    Ok(match super::idf::idf_option(o)? {
        Some(table) => fingerprint::SimHasher::with_idf(opts, table),
        None => fingerprint::SimHasher::new(opts),
    }?)
}

/// The sketch scheme of `{ size }` (`undefined`: the default, 128 bytes).
#[cfg(feature = "crawler")]
pub(super) fn sketch_scheme(options: &JsValue) -> Result<crate::sketch::SketchScheme, JsValue> {
    let o = option_object(options, &[&["size"]], "{ size: 128 }")?;
    crate::sketch::SketchScheme::from_number(convert::opt_number(&o, "size")?).map_err(|e| match e {
        // The core names the option as ContentSeen spells it; here it is `size`.
        crate::error::Error::InvalidOption { value, expected, .. } => {
            crate::error::Error::InvalidOption { option: "size", value, expected }.into()
        }
        e => e.into(),
    })
}

#[cfg(feature = "crawler")]
#[wasm_bindgen(js_class = SimHasher)]
impl JsSimHasher {
    /// The similarity sketch of a text (`{ size }` bytes, default 128) as bytes with its
    /// 2-byte header: `estimateJaccard` compares two.
    pub fn sketch(&mut self, text: &str, options: JsValue) -> Result<Vec<u8>, JsValue> {
        let scheme = sketch_scheme(&options)?;
        Ok(self.0.sketch(text, scheme)?.to_bytes())
    }

    /// `{ fingerprint, sketch }` from one pass over the text.
    #[wasm_bindgen(js_name = fingerprintAndSketch)]
    pub fn fingerprint_and_sketch(&mut self, text: &str, options: JsValue) -> Result<JsValue, JsValue> {
        let scheme = sketch_scheme(&options)?;
        let (fp, sketch) = self.0.fingerprint_and_sketch(text, scheme)?;
        let out = Object::new();
        set(&out, "fingerprint", big(fp));
        set(&out, "sketch", js_sys::Uint8Array::from(&sketch.to_bytes()[..]));
        Ok(out.into())
    }
}

/// The estimated Jaccard similarity (0 to 1) of the 4-gram shingle sets of the texts two
/// sketches were made from.
#[cfg(feature = "crawler")]
#[wasm_bindgen(js_name = estimateJaccard)]
pub fn estimate_jaccard(a: &[u8], b: &[u8]) -> Result<f64, JsValue> {
    use crate::sketch::{estimate_jaccard, Sketch};
    let a = Sketch::from_bytes(a)?;
    let b = Sketch::from_bytes(b)?;
    Ok(estimate_jaccard(&a, &b)?)
}

/// What a sketch holds, for teaching: `{ version, scheme, size, shingles, oddBits,
/// oddSet, bins, minhash }` (`minhash`: the bins' 4-bit values, one a byte).
#[cfg(feature = "crawler")]
#[wasm_bindgen(js_name = sketchInfo)]
pub fn sketch_info(bytes: &[u8]) -> Result<JsValue, JsValue> {
    let s = crate::sketch::Sketch::from_bytes(bytes)?;
    let scheme = s.scheme();
    let out = Object::new();
    set(&out, "version", crate::sketch::VERSION);
    set(&out, "scheme", scheme.describe());
    set(&out, "size", scheme.size() as u32);
    set(&out, "shingles", s.shingles());
    set(&out, "oddBits", scheme.odd_bits() as u32);
    set(&out, "oddSet", s.odd().iter().map(|b| b.count_ones()).sum::<u32>());
    set(&out, "bins", scheme.bins() as u32);
    let bins: Vec<u8> = (0..scheme.bins()).map(|i| s.bin(i)).collect();
    set(&out, "minhash", js_sys::Uint8Array::from(&bins[..]));
    Ok(out.into())
}

#[cfg(not(feature = "crawler"))]
mod sketch_disabled {
    use super::*;
    use crate::error::Error;

    fn disabled(what: &'static str) -> JsValue {
        Error::FeatureDisabled { feature: "crawler", what }.into()
    }

    #[wasm_bindgen(js_class = SimHasher)]
    impl JsSimHasher {
        /// Not in this build (Cargo feature `crawler`): throws `FeatureDisabled`.
        pub fn sketch(&mut self, _text: JsValue, _options: JsValue) -> Result<JsValue, JsValue> {
            Err(disabled("SimHasher.sketch"))
        }

        /// Not in this build (Cargo feature `crawler`): throws `FeatureDisabled`.
        #[wasm_bindgen(js_name = fingerprintAndSketch)]
        pub fn fingerprint_and_sketch(
            &mut self,
            _text: JsValue,
            _options: JsValue,
        ) -> Result<JsValue, JsValue> {
            Err(disabled("SimHasher.fingerprintAndSketch"))
        }
    }

    /// Not in this build (Cargo feature `crawler`): throws `FeatureDisabled`.
    #[wasm_bindgen(js_name = estimateJaccard)]
    pub fn estimate_jaccard(_a: JsValue, _b: JsValue) -> Result<f64, JsValue> {
        Err(disabled("estimateJaccard"))
    }

    /// Not in this build (Cargo feature `crawler`): throws `FeatureDisabled`.
    #[wasm_bindgen(js_name = sketchInfo)]
    pub fn sketch_info(_bytes: JsValue) -> Result<JsValue, JsValue> {
        Err(disabled("sketchInfo"))
    }
}

// ---- the worker pool's hooks (`SimHashPool`, `pkg-template/web/pool.js`), not public API -----

#[wasm_bindgen(js_class = SimHasher)]
impl JsSimHasher {
    /// The outcome of every text (core: `SimHasher::fingerprint_each`), for documents
    /// `base`, `base + 1`, ... of a batch: `{ fingerprints: BigUint64Array` (0 where one
    /// failed)`, failed: Uint32Array` (batch indices)`, messages, reasons, codes }`, with
    /// one message (`document #i: reason`, as `fingerprintBatch` throws it), reason and
    /// error code per failed document.
    #[wasm_bindgen(js_name = __fingerprintEach, skip_typescript)]
    pub fn fingerprint_each(&mut self, texts: Vec<String>, base: u32) -> JsValue {
        outcomes_to_js(self.0.fingerprint_each(texts.iter().map(String::as_str)), base).into()
    }
}

/// The object of `__fingerprintEach` for `outcomes` of documents `base`, `base + 1`, ….
pub(super) fn outcomes_to_js(outcomes: Vec<crate::error::Result<u64>>, base: u32) -> Object {
    {
        let mut fingerprints = Vec::with_capacity(outcomes.len());
        let (mut failed, messages, reasons, codes) = (Vec::new(), Array::new(), Array::new(), Array::new());
        for (i, r) in outcomes.into_iter().enumerate() {
            fingerprints.push(*r.as_ref().unwrap_or(&0));
            if let Err(e) = r {
                let index = base as usize + i;
                failed.push(index as u32);
                reasons.push(&JsValue::from(super::js_message(&e)));
                codes.push(&JsValue::from(e.code()));
                messages.push(&JsValue::from(super::js_message(&Error::InDocument {
                    index,
                    error: Box::new(e),
                })));
            }
        }
        let out = Object::new();
        set(&out, "fingerprints", BigUint64Array::from(&fingerprints[..]));
        set(&out, "failed", Uint32Array::from(&failed[..]));
        set(&out, "messages", messages);
        set(&out, "reasons", reasons);
        set(&out, "codes", codes);
        out
    }
}

#[cfg(feature = "crawler")]
mod pool {
    use js_sys::Uint8Array;
    use wasm_bindgen::prelude::*;

    use super::super::convert::set;
    use super::{sketch_scheme, JsSimHasher};
    use crate::sketch::{Sketch, SketchScheme};

    /// The bytes of one sketch made with `options` (as `fingerprintAndSketch` takes them,
    /// and checks them: a bad size throws here).
    #[wasm_bindgen(js_name = __sketchWidth, skip_typescript)]
    pub fn sketch_width(options: JsValue) -> Result<u32, JsValue> {
        Ok(2 + sketch_scheme(&options)?.size() as u32)
    }

    #[wasm_bindgen(js_class = SimHasher)]
    impl JsSimHasher {
        /// `__fingerprintEach` with each document's sketch too (`options` as
        /// `fingerprintAndSketch` takes them; core: `SimHasher::fingerprint_and_sketch_each`):
        /// `sketches` holds them one after another, `__sketchWidth(options)` bytes each
        /// (zeros for a failed document).
        #[wasm_bindgen(js_name = __fingerprintAndSketchEach, skip_typescript)]
        pub fn fingerprint_and_sketch_each(
            &mut self,
            texts: Vec<String>,
            base: u32,
            options: JsValue,
        ) -> Result<JsValue, JsValue> {
            let scheme = sketch_scheme(&options)?;
            let each = self.0.fingerprint_and_sketch_each(texts.iter().map(String::as_str), scheme);
            Ok(with_sketches(each, scheme, base))
        }

        /// `__fingerprintAndSketchEach` without the fingerprints (each 0), the same
        /// failures (core: `SimHasher::sketch_where_fingerprinted_each`): the first pass of
        /// a dedup verified by sketches, over texts, which `scripts/bench-hash-split-wasm.mjs`
        /// times beside `__fingerprintEach` (the pool's pass reads lines: `__jsonlEach`).
        #[wasm_bindgen(js_name = __sketchEach, skip_typescript)]
        pub fn sketch_each(
            &mut self,
            texts: Vec<String>,
            base: u32,
            options: JsValue,
        ) -> Result<JsValue, JsValue> {
            let scheme = sketch_scheme(&options)?;
            let each = self.0.sketch_where_fingerprinted_each(texts.iter().map(String::as_str), scheme);
            Ok(with_sketches(each.into_iter().map(|r| r.map(|sketch| (0, sketch))).collect(), scheme, base))
        }
    }

    #[cfg(feature = "cli")]
    #[wasm_bindgen(js_class = SimHasher)]
    impl JsSimHasher {
        /// The documents of `bytes`, whole lines of a JSON-lines file (core:
        /// `jsonl::read_chunk`), hashed where they lie: `__fingerprintAndSketchEach`'s
        /// object for them (`sketch` undefined: `__fingerprintEach`'s; `sketchOnly`:
        /// `__sketchEach`'s), their indices counted from the chunk's first document, and
        /// `ids` (a string, a number's JSON text as a `{ number }` object, or undefined
        /// where the line has none), `offsets` and `lengths` (each line's bytes in the
        /// chunk), `lines` (read, blank ones too) and, at the first line with no document,
        /// `error: { line, offset, kind, raw }` (`kind`: utf8, json, document or id; `raw`:
        /// a bad id's JSON text). A string id holding a lone surrogate comes as `{ json }`,
        /// its JSON text, which only JS can decode.
        #[wasm_bindgen(js_name = __jsonlEach, skip_typescript)]
        pub fn jsonl_each(
            &mut self,
            bytes: &[u8],
            sketch: JsValue,
            sketch_only: bool,
        ) -> Result<JsValue, JsValue> {
            use crate::jsonl::{read_chunk, Id, LineError};
            use js_sys::{Array, Object, Uint32Array};
            let scheme = if sketch.is_undefined() { None } else { Some(sketch_scheme(&sketch)?) };
            let hasher = &mut self.0;
            let chunk = read_chunk(bytes, |text| match scheme {
                None => hasher.fingerprint(text).map(|fp| (fp, None)),
                Some(s) if sketch_only => hasher.sketch_where_fingerprinted(text, s).map(|k| (0, Some(k))),
                Some(s) => hasher.fingerprint_and_sketch(text, s).map(|(fp, k)| (fp, Some(k))),
            });
            let (ids, mut offsets, mut lengths) = (Array::new(), Vec::new(), Vec::new());
            let mut outcomes = Vec::with_capacity(chunk.documents.len());
            let tagged = |key: &'static str, text: &str| {
                let o = Object::new();
                set(&o, key, text);
                JsValue::from(o)
            };
            for d in chunk.documents {
                offsets.push(d.offset as u32);
                lengths.push(d.length as u32);
                ids.push(&match d.id {
                    Id::Absent => JsValue::UNDEFINED,
                    Id::Text(t) => JsValue::from_str(&t),
                    Id::Number(n) => tagged("number", n),
                    Id::Surrogate(json) => tagged("json", json),
                });
                outcomes.push(d.outcome);
            }
            let out = match scheme {
                Some(s) => with_sketches(
                    outcomes.into_iter().map(|r| r.map(|(fp, k)| (fp, k.expect("made")))).collect(),
                    s,
                    0,
                ),
                None => super::outcomes_to_js(outcomes.into_iter().map(|r| r.map(|(fp, _)| fp)).collect(), 0)
                    .into(),
            };
            let out: Object = out.unchecked_into();
            set(&out, "ids", ids);
            set(&out, "offsets", Uint32Array::from(&offsets[..]));
            set(&out, "lengths", Uint32Array::from(&lengths[..]));
            set(&out, "lines", chunk.lines as u32);
            if let Some(bad) = chunk.error {
                let e = Object::new();
                set(&e, "line", bad.line as u32);
                set(&e, "offset", bad.offset as u32);
                let kind = match bad.error {
                    LineError::NotUtf8 => "utf8",
                    LineError::NotJson => "json",
                    LineError::NotADocument => "document",
                    LineError::BadId { start, end } => {
                        let line = &bytes[bad.offset..];
                        set(&e, "raw", String::from_utf8_lossy(&line[start..end]).as_ref());
                        "id"
                    }
                };
                set(&e, "kind", kind);
                set(&out, "error", e);
            }
            Ok(out.into())
        }
    }

    /// The outcomes of documents `base…` as `outcomes_to_js` gives them, with `sketches`:
    /// each document's sketch one after another, `__sketchWidth` bytes each (zeros for a
    /// failed document).
    fn with_sketches(
        each: Vec<crate::error::Result<(u64, Sketch)>>,
        scheme: SketchScheme,
        base: u32,
    ) -> JsValue {
        let width = 2 + scheme.size();
        let mut sketches = vec![0u8; width * each.len()];
        let mut outcomes = Vec::with_capacity(each.len());
        for (i, r) in each.into_iter().enumerate() {
            outcomes.push(r.map(|(fp, sketch)| {
                sketches[i * width..(i + 1) * width].copy_from_slice(&sketch.to_bytes());
                fp
            }));
        }
        let out = super::outcomes_to_js(outcomes, base);
        set(&out, "sketches", Uint8Array::from(&sketches[..]));
        out.into()
    }
}
