//! `PassageChecker`: the splitting and matching live in `src/passage.rs`; this converts
//! its options, spans and reports.

use js_sys::{Array, Object};
use wasm_bindgen::prelude::*;

use super::convert::{big, field, opt_number, opt_string, option_object, options_from, set};
use super::js_error;
use crate::fingerprint::Options;
use crate::passage::{Passage, PassageChecker, PassageNames, PassageOptions, Span};

fn passage_options_from(value: &JsValue) -> Result<PassageOptions, JsValue> {
    let o = option_object(value, &[&PassageOptions::NAMES], "{ split: \"paragraphs\", k: 3 }")?;
    // Passages are spans of the text as given, so `html` is not among the hasher's keys.
    let hasher = option_object(&field(&o, "hasher"), &[&Options::NAMES], "{ ngram: 6 }")?;
    let split = opt_string(&o, "split")?;
    let names = PassageNames {
        split: split.as_deref(),
        window: opt_number(&o, "window")?,
        step: opt_number(&o, "step")?,
        k: opt_number(&o, "k")?,
        min_chars: opt_number(&o, "minChars")?,
    };
    PassageOptions::from_names(&names, options_from(&hasher)?).map_err(js_error)
}

/// `{ start, end, byteStart, byteEnd }`: `start`/`end` are string (UTF-16) indices.
fn span_into(o: &Object, s: Span) {
    set(o, "start", s.start_utf16 as u32);
    set(o, "end", s.end_utf16 as u32);
    set(o, "byteStart", s.start as u32);
    set(o, "byteEnd", s.end as u32);
}

fn span_to_js(s: Span) -> JsValue {
    let o = Object::new();
    span_into(&o, s);
    o.into()
}

fn passages_to_js(ps: &[Passage]) -> JsValue {
    ps.iter()
        .map(|p| {
            let o = Object::new();
            span_into(&o, p.span);
            set(&o, "fingerprint", p.fingerprint.map_or(JsValue::UNDEFINED, big));
            JsValue::from(o)
        })
        .collect::<Array>()
        .into()
}

/// Reference texts cut into fingerprinted passages (paragraphs or sentence windows) and
/// indexed; `check(submission)` reports, per reference with a match, the whole-document
/// similarity and the passage pairs whose fingerprints differ in at most `k` bits.
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
    /// matches: [{ submission, reference, distance, submissionSpan, referenceSpan }] }] }`,
    /// with the references that have a match.
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
