//! The hooks of the package's worker pool (`SimHashPool`, `pkg-template/pool.cjs`), not
//! part of the public API. A worker fingerprints its share of a batch with
//! `__fingerprintEach` (with sketches: `__fingerprintAndSketchEach`); the workers then
//! find `dedup`'s candidates from the fingerprints, each over a part of the index's tables
//! (`__candidates`, of `__dedupTables`), the main thread plans with them (`__dedupPlan`,
//! with the options split by `__dedupHasherOptions` and `__dedupSketchSize`), the workers
//! measure the candidate pairs (`__jaccards`), and the plan finishes the report
//! (`SimHashIndex#__dedupKnown` does the whole of `dedupInto` on the main thread). The JS side
//! only moves the texts and the results; every decision stays in the core.

use js_sys::{Array, BigUint64Array, Object, Uint32Array};
use wasm_bindgen::prelude::*;

use super::convert::set;
use super::hasher::JsSimHasher;
use crate::error::Error;

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
fn outcomes_to_js(outcomes: Vec<crate::error::Result<u64>>, base: u32) -> Object {
    {
        let mut fingerprints = Vec::with_capacity(outcomes.len());
        let (mut failed, messages, reasons, codes) = (Vec::new(), Array::new(), Array::new(), Array::new());
        for (i, r) in outcomes.into_iter().enumerate() {
            fingerprints.push(*r.as_ref().unwrap_or(&0));
            if let Err(e) = r {
                let index = base as usize + i;
                failed.push(index as u32);
                reasons.push(&JsValue::from(e.to_string()));
                codes.push(&JsValue::from(e.code()));
                messages.push(&JsValue::from(Error::InDocument { index, error: Box::new(e) }.to_string()));
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
mod crawler {
    use js_sys::Reflect;
    use std::cell::OnceCell;
    use wasm_bindgen::prelude::*;

    use super::super::convert::{option_object, options_to_js};
    use super::super::crawler::{dedup_options_from, docs_from, report_to_js};
    use super::super::index::JsIndex;
    use super::super::js_error;
    use crate::dedup::{
        candidate_tables, candidates, dedup_into_known, jaccards, DedupNames, DedupOptions, DedupPlan,
    };
    use crate::error::Error;
    use crate::fingerprint::Options;
    use crate::sketch::Sketch;
    use js_sys::{Uint32Array, Uint8Array};

    use super::super::convert::set;
    use super::super::hasher::{sketch_scheme, JsSimHasher};

    /// The fingerprint part of `dedup` options (`into`: of `SimHashIndex#dedup`'s), as
    /// `new SimHasher` takes it; every option is checked first, as `dedup` checks it.
    #[wasm_bindgen(js_name = __dedupHasherOptions, skip_typescript)]
    pub fn dedup_hasher_options(options: JsValue, into: bool) -> Result<JsValue, JsValue> {
        let o = if into {
            option_object(&options, &[&Options::NAMES, &DedupOptions::INTO_NAMES], "{ verify: false }")?
        } else {
            option_object(&options, &[&Options::NAMES, &DedupOptions::NAMES], "{ k: 10, verify: 0.8 }")?
        };
        let opts = dedup_options_from(&o)?;
        let out = options_to_js(&opts.fingerprint, opts.html);
        #[cfg(feature = "html")]
        super::super::convert::set(&out, super::super::convert::CONTENT, opts.content.name());
        Reflect::delete_property(&out, &JsValue::from("scheme"))?;
        Ok(out.into())
    }

    /// The bytes of one sketch made with `options` (as `fingerprintAndSketch` takes them,
    /// and checks them: a bad size throws here).
    #[wasm_bindgen(js_name = __sketchWidth, skip_typescript)]
    pub fn sketch_width(options: JsValue) -> Result<u32, JsValue> {
        Ok(2 + sketch_scheme(&options)?.size() as u32)
    }

    /// The sketch size of `dedup` options when they verify by sketches (the pool's workers
    /// then make each document's sketch with its fingerprint), else `undefined`.
    #[wasm_bindgen(js_name = __dedupSketchSize, skip_typescript)]
    pub fn dedup_sketch_size(options: JsValue) -> Result<Option<u32>, JsValue> {
        let opts = dedup_options(&options)?;
        Ok(opts.verify.and(opts.sketch).map(|s| s.size() as u32))
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
            Ok(out.into())
        }
    }

    /// `fingerprints[i]` known for every document but those listed in `failed`.
    fn known(n: usize, fingerprints: &[u64], failed: &[u32]) -> Result<Vec<Option<u64>>, JsValue> {
        if fingerprints.len() != n {
            let e = Error::option("fingerprints", fingerprints.len(), format!("one per text ({n})"));
            return Err(js_error(e));
        }
        let mut known: Vec<Option<u64>> = fingerprints.iter().copied().map(Some).collect();
        for &i in failed {
            if let Some(k) = known.get_mut(i as usize) {
                *k = None;
            }
        }
        Ok(known)
    }

    /// `dedup` options (checked as `dedup` checks them).
    fn dedup_options(options: &JsValue) -> Result<DedupOptions, JsValue> {
        let o = option_object(options, &[&Options::NAMES, &DedupOptions::NAMES], "{ k: 10, verify: 0.8 }")?;
        dedup_options_from(&o)
    }

    /// The number of tables the self-join of a `dedup` of `n` fingerprinted documents
    /// reads (core: `dedup::candidate_tables`): the pool gives each worker a part.
    #[wasm_bindgen(js_name = __dedupTables, skip_typescript)]
    pub fn dedup_tables(n: u32, options: JsValue) -> Result<u32, JsValue> {
        let n = candidate_tables(n as usize, &dedup_options(&options)?).map_err(js_error)?;
        Ok(n as u32)
    }

    /// The candidates that tables `from..to` find among `fingerprints` (those of the
    /// documents that have one, in order), flat: `slot, slot, distance, …` (core:
    /// `dedup::candidates`); a worker's part of a self-join.
    #[wasm_bindgen(js_name = __candidates, skip_typescript)]
    pub fn candidates_js(
        fingerprints: Vec<u64>,
        options: JsValue,
        from: u32,
        to: u32,
    ) -> Result<Uint32Array, JsValue> {
        let opts = dedup_options(&options)?;
        let found = candidates(&fingerprints, &opts, from as usize..to as usize).map_err(js_error)?;
        let flat: Vec<u32> = found.iter().flat_map(|&(x, y, d)| [x, y, d]).collect();
        Ok(Uint32Array::from(&flat[..]))
    }

    /// `dedup` with the fingerprints the pool found (none for the `failed` indices, which
    /// are fingerprinted here for their reasons), and the candidates its workers found
    /// (`__candidates` over every table, flat, in table order; `undefined`: found here),
    /// up to the candidate pairs: the pool has their texts measured on its workers
    /// (`__jaccards`), then calls `finish`.
    #[wasm_bindgen(js_name = __dedupPlan, skip_typescript)]
    pub fn dedup_plan_js(
        ids: Vec<String>,
        texts: js_sys::Array,
        fingerprints: Vec<u64>,
        failed: Vec<u32>,
        sketches: Vec<u8>,
        options: JsValue,
        found: Option<Vec<u32>>,
    ) -> Result<JsDedupPlan, JsValue> {
        // The plan reads few texts (those with no fingerprint, and the lengths of those in
        // a pair): each is copied into wasm when it is read, not all up front.
        let texts: Vec<LazyText> = texts.iter().map(|t| LazyText(t, OnceCell::new())).collect();
        let docs = docs_from(ids, texts)?;
        let known = known(docs.len(), &fingerprints, &failed)?;
        let opts = dedup_options(&options)?;
        // `__fingerprintAndSketchEach`'s sketches, one per document (none for a failed one).
        let width = opts.sketch.map_or(0, |s| 2 + s.size());
        let mut given: Vec<Option<Sketch>> = Vec::new();
        if width > 0 && sketches.len() == width * docs.len() {
            given = sketches.chunks_exact(width).map(|b| Sketch::from_bytes(b).ok()).collect();
            for &i in &failed {
                if let Some(g) = given.get_mut(i as usize) {
                    *g = None;
                }
            }
        }
        let plan = match found {
            None => DedupPlan::with_sketches(&docs, &known, &given, &opts),
            Some(flat) if flat.len().is_multiple_of(3) => {
                let found = flat.chunks_exact(3).map(|c| (c[0], c[1], c[2])).collect();
                DedupPlan::with_candidates(&docs, &known, &given, found, &opts)
            }
            Some(flat) => Err(Error::option(
                "candidates",
                flat.len(),
                "a length that is a multiple of 3 (slot, slot, distance)",
            )),
        }
        .map_err(js_error)?;
        Ok(JsDedupPlan { plan: Some(plan), shingle: opts.shingle as u32, html: reading_to_js(&opts) })
    }

    /// A JS string, converted to UTF-8 the first time it is read.
    struct LazyText(JsValue, OnceCell<String>);

    impl AsRef<str> for LazyText {
        fn as_ref(&self) -> &str {
            self.1.get_or_init(|| self.0.as_string().unwrap_or_default())
        }
    }

    /// A `dedup` waiting for the Jaccards of its candidate pairs (core: `DedupPlan`).
    #[wasm_bindgen(js_name = __DedupPlan, skip_typescript)]
    pub struct JsDedupPlan {
        plan: Option<DedupPlan>,
        shingle: u32,
        html: JsValue,
    }

    /// How the texts are read, as `__jaccards` takes it: `false` (as they are), or the
    /// `content` read of them as HTML (`"main"`, `"all"`).
    fn reading_to_js(opts: &DedupOptions) -> JsValue {
        if !opts.html {
            return JsValue::FALSE;
        }
        #[cfg(feature = "html")]
        return opts.content.name().into();
        #[cfg(not(feature = "html"))]
        JsValue::TRUE
    }

    #[wasm_bindgen(js_class = __DedupPlan)]
    impl JsDedupPlan {
        /// The pairs to measure, flat: document indices `a0, b0, a1, b1, …`.
        pub fn pairs(&self) -> Uint32Array {
            let flat: Vec<u32> =
                self.plan.iter().flat_map(|p| p.pairs().iter().flat_map(|&(a, b)| [a, b])).collect();
            Uint32Array::from(&flat[..])
        }

        /// `pairs()` cut into at most `n` runs (core: `DedupPlan::runs`): their ends.
        pub fn runs(&self, n: u32) -> Vec<u32> {
            self.plan.iter().flat_map(|p| p.runs(n as usize)).map(|e| e as u32).collect()
        }

        /// The shingle size the pairs are measured with (`__jaccards`' argument).
        #[wasm_bindgen(getter)]
        pub fn shingle(&self) -> u32 {
            self.shingle
        }

        /// How the texts are read (`__jaccards`' argument): `false`, `"main"` or `"all"`.
        #[wasm_bindgen(getter)]
        pub fn html(&self) -> JsValue {
            self.html.clone()
        }

        /// The report, given one Jaccard per pair, in order (once).
        pub fn finish(&mut self, jaccards: Vec<f64>) -> Result<JsValue, JsValue> {
            let plan =
                self.plan.take().ok_or_else(|| js_error(Error::option("plan", "finished", "a new plan")))?;
            Ok(report_to_js(&plan.finish(&jaccards).map_err(js_error)?))
        }
    }

    /// The shingle Jaccard of each pair of `texts` (`pairs` flat: `a0, b0, a1, b1, …`),
    /// as a `Float64Array` (core: `dedup::jaccards`); a worker's share of a plan.
    #[wasm_bindgen(js_name = __jaccards, skip_typescript)]
    pub fn jaccards_js(
        texts: Vec<String>,
        pairs: Vec<u32>,
        shingle: u32,
        html: JsValue,
    ) -> Result<Vec<f64>, JsValue> {
        if !pairs.len().is_multiple_of(2) {
            return Err(js_error(Error::option("pairs", pairs.len(), "an even length (a, b, a, b, …)")));
        }
        let pairs: Vec<(u32, u32)> = pairs.chunks_exact(2).map(|p| (p[0], p[1])).collect();
        let content = html.as_string();
        let names = DedupNames {
            shingle: Some(f64::from(shingle)),
            html: Some(content.is_some() || html.is_truthy()),
            content: content.as_deref(),
            ..DedupNames::default()
        };
        let opts = DedupOptions::from_names(DedupOptions::default(), Default::default(), &names)
            .map_err(js_error)?;
        jaccards(&texts, &pairs, &opts).map_err(js_error)
    }

    #[wasm_bindgen(js_class = SimHashIndex)]
    impl JsIndex {
        /// `SimHashIndex#dedup` with the fingerprints the pool found (as `__dedupPlan`, with
        /// the candidates measured here).
        #[wasm_bindgen(js_name = __dedupKnown, skip_typescript)]
        pub fn dedup_known_js(
            &mut self,
            ids: Vec<String>,
            texts: Vec<String>,
            fingerprints: Vec<u64>,
            failed: Vec<u32>,
            options: JsValue,
        ) -> Result<JsValue, JsValue> {
            let docs = docs_from(ids, texts)?;
            let known = known(docs.len(), &fingerprints, &failed)?;
            let o =
                option_object(&options, &[&Options::NAMES, &DedupOptions::INTO_NAMES], "{ verify: false }")?;
            let opts = dedup_options_from(&o)?;
            let report = dedup_into_known(self.string_index()?, &docs, &known, &opts).map_err(js_error)?;
            Ok(report_to_js(&report))
        }
    }
}
