//! `CompactSet` (a compressed fingerprint set queried without decoding it) and
//! `huffmanTable` (the code of its gaps, as the teaching slide prints it).

use js_sys::{Array, Object};
use wasm_bindgen::prelude::*;

use super::convert::set;
use crate::snapshot::huffman_table_of;
#[cfg(feature = "crawler")]
use crate::snapshot::CompactSet;

/// The Huffman code of the snapshot's h(n) symbols for a set of fingerprints, as the
/// teaching slide prints it: `[{ symbol, count, code }]` (symbol 64 means "repeat").
#[wasm_bindgen(js_name = huffmanTable)]
pub fn huffman_table(fingerprints: Vec<u64>) -> JsValue {
    let rows = huffman_table_of(fingerprints).into_iter().map(|(symbol, count, code)| {
        let o = Object::new();
        set(&o, "symbol", symbol);
        set(&o, "count", count as f64);
        set(&o, "code", code);
        JsValue::from(o)
    });
    rows.collect::<Array>().into()
}

/// A compressed, sorted fingerprint set queried without decoding it whole (Cargo feature
/// `crawler`: compact storage is the crawler's; the browser build has `huffmanTable` only).
#[cfg(feature = "crawler")]
#[wasm_bindgen(js_name = CompactSet)]
pub struct JsCompactSet(CompactSet);

#[cfg(feature = "crawler")]
#[wasm_bindgen(js_class = CompactSet)]
impl JsCompactSet {
    /// Compresses a set of fingerprints (any order; duplicates kept).
    #[wasm_bindgen(constructor)]
    pub fn new(fingerprints: Vec<u64>) -> Result<JsCompactSet, JsValue> {
        Ok(JsCompactSet(CompactSet::from_unsorted(fingerprints)?))
    }

    /// Loads bytes made by `toBytes`.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes: &[u8]) -> Result<JsCompactSet, JsValue> {
        Ok(JsCompactSet(CompactSet::from_bytes(bytes)?))
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
    pub fn count_contained_within(&self, fingerprints: &[u64], k: u32) -> f64 {
        self.0.count_contained_within(fingerprints, k) as f64
    }
}

#[cfg(not(feature = "crawler"))]
mod off {
    use wasm_bindgen::prelude::*;

    use crate::error::Error;

    fn disabled(what: &'static str) -> JsValue {
        Error::FeatureDisabled { feature: "crawler", what }.into()
    }

    /// Not in this build (Cargo feature `crawler`): the constructor throws `FeatureDisabled`.
    #[wasm_bindgen(js_name = CompactSet)]
    pub struct JsCompactSet;

    #[wasm_bindgen(js_class = CompactSet)]
    impl JsCompactSet {
        /// Throws `FeatureDisabled`.
        #[wasm_bindgen(constructor)]
        pub fn new(_fingerprints: JsValue) -> Result<JsCompactSet, JsValue> {
            Err(disabled("CompactSet"))
        }

        /// Throws `FeatureDisabled`.
        #[wasm_bindgen(js_name = fromBytes)]
        pub fn from_bytes(_bytes: JsValue) -> Result<JsCompactSet, JsValue> {
            Err(disabled("CompactSet"))
        }
    }
}
