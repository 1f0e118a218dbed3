//! `PassageChecker`: the splitting and matching live in `src/passage/`; this converts
//! its options, spans and reports.

use js_sys::{Array, Object};
use wasm_bindgen::prelude::*;

use super::convert::{opt_number, option_object, set};
use crate::passage::{PassageChecker, PassageNames, PassageOptions, Span};

fn passage_options_from(value: &JsValue) -> Result<PassageOptions, JsValue> {
    let o = option_object(value, &[&PassageOptions::NAMES], "{ minChars: 40, threshold: 0.5 }")?;
    let names =
        PassageNames { min_chars: opt_number(&o, "minChars")?, threshold: opt_number(&o, "threshold")? };
    Ok(PassageOptions::from_names(&names)?)
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

fn passages_to_js(ps: &[Span]) -> JsValue {
    ps.iter().map(|&s| span_to_js(s)).collect::<Array>().into()
}

/// Reference texts cut into sentences and indexed; `check(submission)` reports, per
/// reference with a copied span, its coverage and the merged spans with their similarity.
#[wasm_bindgen(js_name = PassageChecker)]
pub struct JsPassageChecker(PassageChecker);

#[wasm_bindgen(js_class = PassageChecker)]
impl JsPassageChecker {
    /// `new PassageChecker({ minChars: 40, threshold: 0.5 })`
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<JsPassageChecker, JsValue> {
        Ok(JsPassageChecker(PassageChecker::new(passage_options_from(&options)?)?))
    }

    /// Adds a reference text; returns its number (0, 1, …).
    #[wasm_bindgen(js_name = addReference)]
    pub fn add_reference(&mut self, text: &str) -> Result<u32, JsValue> {
        Ok(self.0.add_reference(text).map(|d| d as u32)?)
    }

    /// Number of references added.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> u32 {
        self.0.len() as u32
    }

    /// The passages of reference `doc`: `[{ start, end, byteStart, byteEnd }]`.
    pub fn passages(&self, doc: u32) -> JsValue {
        passages_to_js(self.0.passages(doc as usize))
    }

    /// The sentences of a text, as `check` cuts it: `[{ start, end, byteStart, byteEnd }]`.
    #[wasm_bindgen(js_name = passagesOf)]
    pub fn passages_of(&self, text: &str) -> JsValue {
        passages_to_js(&self.0.passages_of(text))
    }

    /// `{ passages, coverage, references: [{ doc, coverage, matches: [{ submission:
    /// [first, last], reference: [first, last], similarity, jaccard, submissionSpan,
    /// referenceSpan }] }] }`, with the references that have a copied span.
    pub fn check(&mut self, submission: &str) -> Result<JsValue, JsValue> {
        let r = self.0.check(submission)?;
        let out = Object::new();
        set(&out, "passages", passages_to_js(&r.passages));
        set(&out, "coverage", r.coverage);
        let pair = |(a, b): (usize, usize)| JsValue::from(Array::of2(&(a as u32).into(), &(b as u32).into()));
        let refs: Array = r
            .references
            .iter()
            .map(|x| {
                let o = Object::new();
                set(&o, "doc", x.doc as u32);
                set(&o, "coverage", x.coverage);
                let ms: Array = x
                    .matches
                    .iter()
                    .map(|m| {
                        let mo = Object::new();
                        set(&mo, "submission", pair(m.submission));
                        set(&mo, "reference", pair(m.reference));
                        set(&mo, "similarity", m.similarity);
                        set(&mo, "jaccard", m.jaccard);
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
