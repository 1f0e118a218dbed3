//! `defaults()`: every default of the API, read from the core, so that JS (the CLI's help,
//! the tests of the `.d.ts` docs) has one source for them.

use js_sys::Object;
use wasm_bindgen::prelude::*;

use super::convert::{options_to_js, set};
use crate::dedup::DedupOptions;
use crate::fingerprint::{Options, SimHasher};
use crate::index::{DEFAULT_EXPECTED_SIZE, DEFAULT_K};
use crate::passage::PassageOptions;
use crate::seen::SeenConfig;

fn dedup_to_js(d: &DedupOptions) -> Object {
    let o = Object::new();
    // `k` undefined is "by the collection's size" (`kBySize`).
    set(&o, "k", d.k.map_or(JsValue::from(DedupOptions::K_AUTO), JsValue::from));
    set(&o, "verify", d.verify.map_or(JsValue::FALSE, JsValue::from_f64));
    o
}

/// The defaults of every option, each in the shape of its option object: `{ hasher,
/// index: { k, layout, expectedSize }, contentSeen: { k, layout }, dedup: { k, verify,
/// layout, shingle }, dedupFingerprintsOnly: { k, verify }, passage: { minChars, threshold }
/// }`.
#[wasm_bindgen]
pub fn defaults() -> JsValue {
    let out = Object::new();
    let hasher = options_to_js(&Options::default(), false);
    set(&hasher, SimHasher::CONTENT, "all");
    set(&out, "hasher", hasher);

    let index = Object::new();
    set(&index, "k", DEFAULT_K);
    set(&index, "layout", "default");
    set(&index, "expectedSize", DEFAULT_EXPECTED_SIZE);
    set(&out, "index", index);

    let seen = SeenConfig::default();
    let content_seen = Object::new();
    set(&content_seen, "k", seen.k);
    set(&content_seen, "layout", "default");
    set(&content_seen, "sketch", seen.sketch.map_or(JsValue::FALSE, |s| JsValue::from(s.size() as u32)));
    set(&content_seen, "threshold", seen.threshold);
    #[cfg(feature = "html")]
    set(&content_seen, "content", seen.content.name());
    set(&content_seen, "template", seen.template);
    set(&out, "contentSeen", content_seen);

    let dedup = dedup_to_js(&DedupOptions::default());
    // `layout: None` is "auto": picked for the collection's size.
    set(&dedup, "layout", "auto");
    set(&dedup, "shingle", DedupOptions::default().shingle as u32);
    #[cfg(feature = "html")]
    set(&dedup, SimHasher::CONTENT, DedupOptions::default().content.name());
    let by_size = |table: &[(usize, u32)]| -> js_sys::Array {
        table
            .iter()
            .map(|&(n, k)| {
                let row = Object::new();
                set(&row, "upTo", n as f64);
                set(&row, "k", k);
                JsValue::from(row)
            })
            .collect()
    };
    // The verified default takes candidates from the sketches' bands too, at a smaller k;
    // `verify: false` keeps the wider k of fingerprints alone.
    set(&dedup, "kBySize", by_size(&DedupOptions::K_BY_SIZE_WITH_BANDS));
    set(&dedup, "kBeyond", DedupOptions::DEFAULT_K_WITH_BANDS);
    set(&dedup, "kBySizeUnverified", by_size(&DedupOptions::K_BY_SIZE));
    set(&dedup, "kBeyondUnverified", DedupOptions::DEFAULT_K);
    set(&dedup, "sketchVerify", DedupOptions::DEFAULT_SKETCH_VERIFY);
    set(&out, "dedup", dedup);
    set(&out, "dedupFingerprintsOnly", dedup_to_js(&DedupOptions::fingerprints_only()));

    let p = PassageOptions::default();
    let passage = Object::new();
    set(&passage, "minChars", p.min_chars as u32);
    set(&passage, "threshold", p.threshold);
    set(&out, "passage", passage);
    out.into()
}
