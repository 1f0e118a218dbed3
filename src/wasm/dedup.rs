//! `dedup` (Cargo feature `crawler`; without it, the same name throws `FeatureDisabled`),
//! and the hooks of the package's worker pool for it, not part of the public API: the
//! workers find `dedup`'s candidates from the fingerprints and sketches, each a part of
//! the index's tables and the sketches' bands (`__candidates`), the main thread plans with them
//! (`__dedupPlan`, with the options split by `__dedupHasherOptions` and
//! `__dedupSketchSize`), the workers measure the candidate pairs (`__jaccards`), and the
//! plan finishes the report (`SimHashIndex#__dedupKnown`, in `index.rs`, does the whole of
//! `dedupInto` on the main thread). The JS side only moves the texts and the results;
//! every decision stays in the core.

#[cfg(feature = "crawler")]
pub(super) use on::{dedup_options_from, docs_from, known, report_to_js};

#[cfg(feature = "crawler")]
mod on {
    use std::cell::OnceCell;

    use js_sys::{Array, BigUint64Array, Float64Array, Object, Reflect, Uint32Array};
    use wasm_bindgen::prelude::*;

    use super::super::convert::{
        self, field, opt_bool, opt_number, option_object, options_from, options_to_js, set,
    };
    use crate::dedup::{
        candidates, jaccards, ranks_by_estimate, DedupNames, DedupOptions, DedupPlan, DedupReport, Verify,
    };
    use crate::error::Error;
    use crate::fingerprint::{Options, SimHasher};
    use crate::sketch::SketchRows;

    /// `(id, text)` pairs from two parallel arrays of strings.
    pub(crate) fn docs_from<T>(ids: Vec<String>, texts: Vec<T>) -> Result<Vec<(String, T)>, JsValue> {
        if ids.len() != texts.len() {
            return Err(
                Error::option("ids", ids.len(), format!("as many ids as texts ({})", texts.len())).into()
            );
        }
        Ok(ids.into_iter().zip(texts).collect())
    }

    /// The dedup options of an option object (keys checked already), from the core's defaults.
    pub(crate) fn dedup_options_from(o: &Option<Object>) -> Result<DedupOptions, JsValue> {
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
            Some(Verify::from_name_with(&name, number)?)
        } else {
            return Err(convert::bad_argument("verify", Verify::EXPECTED, &v));
        };
        let layout = convert::layout_arg(o)?;
        let content = convert::opt_string(o, SimHasher::CONTENT)?;
        let names = DedupNames {
            k: match field(o, "k").as_string() {
                Some(s) if s == DedupOptions::K_AUTO => None,
                Some(s) => return Err(DedupOptions::bad_k(crate::error::quoted(&s)).into()),
                None => opt_number(o, "k")?,
            },
            layout: layout.name.as_deref(),
            widths: layout.widths.as_deref(),
            verify,
            shingle: opt_number(o, "shingle")?,
            html: opt_bool(o, SimHasher::HTML)?,
            content: content.as_deref(),
        };
        Ok(DedupOptions::from_names(DedupOptions::default(), options_from(o)?, &names)?)
    }

    /// `{ clusters, pairs, fingerprinted, fingerprints, skipped, alreadyIndexed, layout, k, verify,
    /// verifyBy }` (`verifyBy`: `"exact"`, the sketch scheme like `"sk1:128"`, or `false`).
    pub(crate) fn report_to_js(r: &DedupReport) -> JsValue {
        let strings =
            |xs: &mut dyn Iterator<Item = &String>| xs.map(|s| JsValue::from_str(s)).collect::<Array>();
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
        set_rest(&out, r);
        out.into()
    }

    /// A report as [`report_to_js`] gives it, with the ids in bulk, for a caller that makes
    /// the arrays and objects itself (the pool, `dedupReport` in `pool.js`): a million ids
    /// cross as one string, not one call each. `ids` joins every id named, in this order:
    /// the fingerprinted documents' (`fingerprinted` of them), each cluster's members
    /// (`clusterSizes`), each pair's `a` and `b`; `lengths` are their UTF-16 lengths, as JS
    /// counts them. Each pair's `distance` is in `distances` and its `jaccard` in
    /// `jaccards` (NaN for none). The other fields are [`report_to_js`]'s.
    fn report_to_flat(r: &DedupReport) -> JsValue {
        let named = r.fingerprints.len() + r.clusters.iter().map(Vec::len).sum::<usize>() + 2 * r.pairs.len();
        let mut ids = String::new();
        let mut lengths: Vec<u32> = Vec::with_capacity(named);
        let mut add = |id: &str| {
            ids.push_str(id);
            let units = if id.is_ascii() { id.len() } else { id.encode_utf16().count() };
            lengths.push(units as u32);
        };
        r.fingerprints.iter().for_each(|(id, _)| add(id));
        r.clusters.iter().flatten().for_each(|id| add(id));
        r.pairs.iter().for_each(|p| {
            add(&p.a);
            add(&p.b);
        });
        let out = Object::new();
        set(&out, "ids", ids);
        set(&out, "lengths", Uint32Array::from(&lengths[..]));
        set(&out, "fingerprinted", r.fingerprints.len() as u32);
        let sizes: Vec<u32> = r.clusters.iter().map(|c| c.len() as u32).collect();
        set(&out, "clusterSizes", Uint32Array::from(&sizes[..]));
        let distances: Vec<u32> = r.pairs.iter().map(|p| p.distance).collect();
        set(&out, "distances", Uint32Array::from(&distances[..]));
        let jaccards: Vec<f64> = r.pairs.iter().map(|p| p.jaccard.unwrap_or(f64::NAN)).collect();
        set(&out, "jaccards", Float64Array::from(&jaccards[..]));
        set_rest(&out, r);
        out.into()
    }

    /// The fields of a report past its ids: the fingerprints, the skipped documents, and
    /// what was used.
    fn set_rest(out: &Object, r: &DedupReport) {
        let fps: Vec<u64> = r.fingerprints.iter().map(|&(_, f)| f).collect();
        set(out, "fingerprints", BigUint64Array::from(&fps[..]));
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
        set(out, "skipped", skipped);
        set(out, "alreadyIndexed", r.already_indexed.iter().map(|s| JsValue::from_str(s)).collect::<Array>());
        set(out, "layout", r.layout.as_str());
        set(out, "k", r.k);
        set(out, "verify", r.verify.map_or(JsValue::FALSE, JsValue::from_f64));
        let by = match (r.verify, r.sketch) {
            (None, _) => JsValue::FALSE,
            (Some(_), None) => "exact".into(),
            (Some(_), Some(s)) => s.describe().into(),
        };
        set(out, "verifyBy", by);
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
        let report = crate::dedup::dedup(&docs, &opts)?;
        Ok(report_to_js(&report))
    }

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
        set(&out, SimHasher::CONTENT, opts.content.name());
        Reflect::delete_property(&out, &JsValue::from("scheme"))?;
        Ok(out.into())
    }

    /// The sketch size of `dedup` options when they make sketches, to verify by or for
    /// the band join (core: `DedupOptions::sketch_scheme`; the pool's workers then make
    /// each document's sketch with its fingerprint), else `undefined`.
    #[wasm_bindgen(js_name = __dedupSketchSize, skip_typescript)]
    pub fn dedup_sketch_size(options: JsValue) -> Result<Option<u32>, JsValue> {
        let opts = dedup_options(&options)?;
        Ok(opts.sketch_scheme().map(|s| s.size() as u32))
    }

    /// The u32s of one candidate of `__candidates` when the candidate step of `dedup`
    /// options reads no fingerprint (core: `ranks_by_estimate`, a verification by
    /// sketches), so that the pool makes only the fingerprints of the documents in a
    /// candidate pair, after it; else `undefined`.
    #[wasm_bindgen(js_name = __dedupFingerprintsLater, skip_typescript)]
    pub fn dedup_fingerprints_later(options: JsValue) -> Result<Option<u32>, JsValue> {
        let opts = dedup_options(&options)?;
        Ok(ranks_by_estimate(&opts).then(|| candidate_width(&opts) as u32))
    }

    /// `fingerprints[i]` known for every document but those listed in `failed`.
    pub(crate) fn known(n: usize, fingerprints: &[u64], failed: &[u32]) -> Result<Vec<Option<u64>>, JsValue> {
        if fingerprints.len() != n {
            let e = Error::option("fingerprints", fingerprints.len(), format!("one per text ({n})"));
            return Err(e.into());
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

    /// Whether `dedup` options verify by sketches (`verify: "sketch"`): the candidates then
    /// carry their estimates (`__candidates`).
    fn verifies_by_sketch(opts: &DedupOptions) -> bool {
        opts.verify.is_some() && opts.sketch.is_some()
    }

    /// The u32s of one candidate in `__candidates`' output: slot, slot, distance, and with
    /// a verification by sketches the estimate's f64 bits (low half, high half).
    fn candidate_width(opts: &DedupOptions) -> usize {
        if verifies_by_sketch(opts) {
            5
        } else {
            3
        }
    }

    /// Part `part` of `parts` of the candidate step of a `dedup` over `fingerprints` (those
    /// of the documents that have one, in order) and their `sketches` (one after another,
    /// as `__fingerprintAndSketchEach` gives them, in the same order; empty when the
    /// options make none), flat: `slot, slot, distance, …`, each followed by the estimate's
    /// bits when verifying by sketches (core: `dedup::candidates`); a worker's share of it.
    /// The sketches are read in place, as rows of the one buffer they came in.
    #[wasm_bindgen(js_name = __candidates, skip_typescript)]
    pub fn candidates_js(
        fingerprints: Vec<u64>,
        sketches: Vec<u8>,
        options: JsValue,
        part: u32,
        parts: u32,
    ) -> Result<Uint32Array, JsValue> {
        let opts = dedup_options(&options)?;
        let sketches = match opts.sketch_scheme() {
            Some(scheme) if !sketches.is_empty() => SketchRows::from_bytes(sketches, scheme)?,
            _ => SketchRows::default(),
        };
        let found = candidates(&fingerprints, &sketches, &opts, part as usize, parts as usize)?;
        drop(sketches);
        let width = candidate_width(&opts);
        let mut flat: Vec<u32> = Vec::with_capacity(width * found.len());
        for &(x, y, d, e) in &found {
            flat.extend_from_slice(&[x, y, d]);
            if width == 5 {
                let bits = e.to_bits();
                flat.extend_from_slice(&[bits as u32, (bits >> 32) as u32]);
            }
        }
        Ok(Uint32Array::from(&flat[..]))
    }

    /// `dedup` with the fingerprints the pool found (none for the `failed` indices, which
    /// are fingerprinted here for their reasons), the ids given as one string and the
    /// length of each (see [`split_ids`]), and the candidates its workers found
    /// (`__candidates`' parts, flat, concatenated; `undefined`: found here, from
    /// `sketches`), up to the candidate pairs: the pool has their texts measured on its
    /// workers (`__jaccards`) a round at a time (`record`), then calls `finish`.
    #[wasm_bindgen(js_name = __dedupPlan, skip_typescript)]
    #[allow(clippy::too_many_arguments)] // one argument an array the pool holds
    pub fn dedup_plan_js(
        ids: &str,
        id_lengths: Vec<u32>,
        texts: js_sys::Array,
        fingerprints: Vec<u64>,
        failed: Vec<u32>,
        sketches: Vec<u8>,
        options: JsValue,
        found: Option<Vec<u32>>,
    ) -> Result<JsDedupPlan, JsValue> {
        // The plan reads few texts (those with no fingerprint, and the lengths of those in
        // a pair): each is copied into wasm when it is read, not all up front.
        let texts: Vec<LazyText> =
            (0..texts.length()).map(|i| LazyText(&texts, i, OnceCell::new())).collect();
        let docs = docs_from(split_ids(ids, &id_lengths)?, texts)?;
        let known = known(docs.len(), &fingerprints, &failed)?;
        let opts = dedup_options(&options)?;
        let pairs = found.as_ref().map_or(0, Vec::len) / candidate_width(&opts);
        reserve(PLAN_BYTES_PER_DOC * docs.len() + PLAN_BYTES_PER_CANDIDATE * pairs);
        // `__fingerprintAndSketchEach`'s sketches, one per document (none for a failed
        // one), which the plan reads when it finds the candidates itself.
        let width = opts.sketch_scheme().map_or(0, |s| 2 + s.size());
        let mut given: Vec<Option<crate::sketch::Sketch>> = Vec::new();
        if width > 0 && sketches.len() == width * docs.len() && found.is_none() {
            given = sketches.chunks_exact(width).map(|b| crate::sketch::Sketch::from_bytes(b).ok()).collect();
            for &i in &failed {
                if let Some(g) = given.get_mut(i as usize) {
                    *g = None;
                }
            }
        }
        let w = candidate_width(&opts);
        let plan = match found {
            None => DedupPlan::with_sketches(&docs, &known, &given, &opts),
            Some(flat) if flat.len().is_multiple_of(w) => {
                let estimate = |c: &[u32]| match c {
                    [_, _, _, lo, hi] => f64::from_bits(u64::from(*lo) | u64::from(*hi) << 32),
                    _ => 0.0,
                };
                let found = flat.chunks_exact(w).map(|c| (c[0], c[1], c[2], estimate(c))).collect();
                drop(flat);
                DedupPlan::with_candidates(&docs, &known, found, &opts)
            }
            Some(flat) => Err(Error::option(
                "candidates",
                flat.len(),
                format!(
                    "a length that is a multiple of {w} (slot, slot, distance, the estimate with sketches)"
                ),
            )),
        }?;
        Ok(JsDedupPlan { plan: Some(plan), shingle: opts.shingle as u32, html: reading_to_js(&opts) })
    }

    /// About the memory a plan takes a document and a candidate pair (ids, slots, the
    /// candidates and their sort), at a million documents and three million pairs.
    const PLAN_BYTES_PER_DOC: usize = 128;
    const PLAN_BYTES_PER_CANDIDATE: usize = 40;

    /// Grows the instance's memory by `bytes` at once, for the allocations that follow. V8
    /// counts each growth of a wasm memory as external memory and may collect the whole JS
    /// heap at it; the calling thread of a large dedup holds a million ids there, so the
    /// plan's memory taken in the allocator's small steps costs seconds of collection
    /// (decision record 098). The allocator keeps what is freed for later allocations;
    /// memory it cannot have now is left to the plan to ask for.
    fn reserve(bytes: usize) {
        let mut block: Vec<u8> = Vec::new();
        if block.try_reserve_exact(bytes).is_ok() {
            std::hint::black_box(block.as_ptr());
        }
    }

    /// The ids of a collection from their concatenation and the length of each in UTF-16
    /// code units, as JS counts it: a million ids cross into the wasm as one string, not a
    /// million. The ids are well-formed (the pool checks them), so no character straddles
    /// two of them; lengths that do not fit the string are an [`Error::InvalidOption`] for
    /// `ids`.
    fn split_ids(joined: &str, lengths: &[u32]) -> Result<Vec<String>, Error> {
        let bad = || {
            Error::option("ids", lengths.len(), "ids joined, with the UTF-16 length of each as JS counts it")
        };
        let mut out = Vec::with_capacity(lengths.len());
        let mut chars = joined.char_indices().map(|(at, c)| (at + c.len_utf8(), c.len_utf16() as u64));
        let mut start = 0;
        for &length in lengths {
            let (mut units, mut end) = (0u64, start);
            while units < u64::from(length) {
                let (next, n) = chars.next().ok_or_else(bad)?;
                (units, end) = (units + n, next);
            }
            if units != u64::from(length) {
                return Err(bad());
            }
            out.push(joined[start..end].to_owned());
            start = end;
        }
        if start != joined.len() {
            return Err(bad());
        }
        Ok(out)
    }

    /// The JS string at an index of an array, converted to UTF-8 the first time it is read
    /// (and only then taken from the array).
    struct LazyText<'a>(&'a js_sys::Array, u32, OnceCell<String>);

    impl AsRef<str> for LazyText<'_> {
        fn as_ref(&self) -> &str {
            self.2.get_or_init(|| self.0.get(self.1).as_string().unwrap_or_default())
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

        /// `pairs()` cut into runs for `n` workers (core: `DedupPlan::runs`): their ends.
        /// `sizes`, when given, is the length in bytes of each document's text (core:
        /// `DedupPlan::runs_sized`), for texts the plan was not given.
        pub fn runs(&self, n: u32, sizes: Option<Vec<u32>>) -> Vec<u32> {
            let ends = match (&self.plan, sizes) {
                (None, _) => Vec::new(),
                (Some(p), None) => p.runs(n as usize),
                (Some(p), Some(sizes)) => {
                    p.runs_sized(n as usize, |d| sizes.get(d as usize).copied().map_or(0, u64::from))
                }
            };
            ends.into_iter().map(|e| e as u32).collect()
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

        /// Takes one Jaccard per pair of `pairs()`, in order; `pairs()` then lists the next
        /// round's (empty when none is left; core: `DedupPlan::record`).
        pub fn record(&mut self, jaccards: Vec<f64>) -> Result<(), JsValue> {
            let plan = self.plan.as_mut().ok_or_else(|| Error::option("plan", "finished", "a new plan"))?;
            Ok(plan.record(&jaccards)?)
        }

        /// The report, once every round is recorded (once), with its ids in bulk (see
        /// [`report_to_flat`]; `dedupReport` in `pool.js` makes `dedup`'s report of it).
        pub fn finish(&mut self) -> Result<JsValue, JsValue> {
            let plan = self.plan.take().ok_or_else(|| Error::option("plan", "finished", "a new plan"))?;
            Ok(report_to_flat(&plan.finish()?))
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
        jaccards_of(&texts, pairs, shingle, html)
    }

    /// `__jaccards` of the documents of `bytes`, whole lines of a JSON-lines file read
    /// where they lie (core: `jsonl::read_chunk`), in place of texts.
    #[cfg(feature = "cli")]
    #[wasm_bindgen(js_name = __jaccardsJsonl, skip_typescript)]
    pub fn jaccards_jsonl_js(
        bytes: &[u8],
        pairs: Vec<u32>,
        shingle: u32,
        html: JsValue,
    ) -> Result<Vec<f64>, JsValue> {
        let chunk = crate::jsonl::read_chunk(bytes, str::to_owned);
        if let Some(bad) = chunk.error {
            return Err(Error::option(
                "bytes",
                format!("a line ({}) with no document", bad.line + 1),
                "lines of documents only",
            )
            .into());
        }
        let texts: Vec<String> = chunk.documents.into_iter().map(|d| d.outcome).collect();
        jaccards_of(&texts, pairs, shingle, html)
    }

    fn jaccards_of<T: AsRef<str>>(
        texts: &[T],
        pairs: Vec<u32>,
        shingle: u32,
        html: JsValue,
    ) -> Result<Vec<f64>, JsValue> {
        if !pairs.len().is_multiple_of(2) {
            return Err(Error::option("pairs", pairs.len(), "an even length (a, b, a, b, …)").into());
        }
        let pairs: Vec<(u32, u32)> = pairs.chunks_exact(2).map(|p| (p[0], p[1])).collect();
        let content = html.as_string();
        let names = DedupNames {
            shingle: Some(f64::from(shingle)),
            html: Some(content.is_some() || html.is_truthy()),
            content: content.as_deref(),
            ..DedupNames::default()
        };
        let opts = DedupOptions::from_names(DedupOptions::default(), Default::default(), &names)?;
        Ok(jaccards(texts, &pairs, &opts)?)
    }
}

#[cfg(not(feature = "crawler"))]
mod off {
    use wasm_bindgen::prelude::*;

    use crate::error::Error;

    fn disabled(what: &'static str) -> JsValue {
        Error::FeatureDisabled { feature: "crawler", what }.into()
    }

    /// Not in this build (Cargo feature `crawler`): throws `FeatureDisabled`.
    #[wasm_bindgen]
    pub fn dedup(_ids: JsValue, _texts: JsValue, _options: JsValue) -> Result<JsValue, JsValue> {
        Err(disabled("dedup"))
    }
}
