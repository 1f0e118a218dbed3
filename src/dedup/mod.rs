//! The main job: near-duplicate clusters of a collection of documents.
//!
//! Every document is fingerprinted and sketched in one scan. The candidate pairs are the
//! pairs within `k` bits (the self-join of the multi-table [`Index`]'s tables) and, when
//! verifying, the pairs whose sketches share a MinHash band ([`DedupOptions::bands`]); by
//! default each candidate is verified by the exact shingle Jaccard of the two texts
//! (`verify.rs`). Clusters are the connected components of the kept pairs.
//!
//! The defaults come from the dev corpus (truth: 4-gram Jaccard ≥ 0.8): fingerprints alone
//! reach F1 0.79 at best (k = 8); candidates verified at Jaccard ≥ 0.8 keep precision 1.0,
//! and their recall is capped by the candidate step alone.
//!
//! # The candidate step
//!
//! Short texts (poems, titles, forum posts) with Jaccard ≥ 0.8 often have fingerprints 10–16
//! bits apart: within `k = 13` alone the exact flow reaches F1 0.985, and a self-join at such
//! a `k` grows with `N²` (about 5 minutes and 2.3 kB of index a document at 1M). The band
//! join finds those pairs instead, at a sort per band: with it, every true pair of the dev
//! corpus is a candidate from `k = 3` up (F1 1.000, English and Chinese), and the
//! fingerprint part keeps a small `k` by collection size
//! ([`DedupOptions::K_BY_SIZE_WITH_BANDS`]: 6 up to 200k documents, 4 up to 2M, then 3),
//! whose self-join takes seconds at 1M. Without a verification there is no band join, and
//! `k` follows [`DedupOptions::K_BY_SIZE`]. The measurements are in decision record 090
//! (`cargo bench --bench dedup_k`).
//!
//! # Verification by sketches
//!
//! `verify: "sketch"` ([`DedupOptions::sketch`]) keeps no texts: each document's sketch is
//! made in its fingerprint's pass, and a candidate is kept when the sketches' estimate
//! reaches [`DedupOptions::DEFAULT_SKETCH_VERIFY`]. It is for runs that should not keep
//! texts; the exact verification stays the default, and stays exact. With the band join
//! (the default), its candidates are the band join's pairs whose estimate reaches the
//! threshold, each document's 64 highest estimates: the fingerprints serve only the
//! report (the pairs' distances), so the package's pool, reading a JSONL file twice,
//! makes the sketches alone in its first pass and fingerprints only the documents of a
//! candidate pair (decision record 095).
//!
//! ```
//! use simhash_wasm::dedup::{dedup, DedupOptions};
//! let docs = [
//!     ("a", "The quick brown fox jumps over the lazy dog, again and again and again."),
//!     ("b", "The quick brown fox jumps over the lazy dog, again and again and again!"),
//!     ("c", "Pack my box with five dozen liquor jugs, said the sphinx of black quartz."),
//! ];
//! let report = dedup(&docs, &DedupOptions::default())?;
//! assert_eq!(report.clusters, vec![vec!["a".to_string(), "b".to_string()]]);
//! assert_eq!(report.pairs.len(), 1);
//! # Ok::<(), simhash_wasm::Error>(())
//! ```

//!
//! [`dedup_into`] is the same job for runs that keep their index between calls (the CLI's
//! `--load/--save`): it adds the documents that are not in a given index yet and reports
//! the clusters of everything in it.
//!
//! [`dedup`] runs in three steps (fingerprints and candidates, the Jaccards of the candidate
//! pairs, the report); the npm package's worker pool runs the same steps with the pairs
//! measured on every core, for the same report.
//!
//! Defaults and validation live here ([`DedupOptions::validate`]); the JS bindings only
//! convert option names and values.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::error::{Error, Result};
use crate::fingerprint::{Options, SimHasher};
use crate::index::{clusters_of_slots, Index, Layout};
use crate::sketch::{self, Sketch, SketchScheme};
use crate::verify::{self, ShingleSet, DEFAULT_SHINGLE};

mod candidates;
mod plan;
mod rounds;
// The steps of `dedup` that the package's worker pool runs apart (src/wasm/dedup.rs).
#[cfg_attr(not(all(target_arch = "wasm32", feature = "crawler")), allow(unused_imports))]
pub(crate) use plan::{candidates, ranks_by_estimate};
pub(crate) use plan::{jaccards, DedupPlan};

/// How [`dedup`] works.
#[derive(Clone, Debug, PartialEq)]
pub struct DedupOptions {
    /// The fingerprint scheme.
    pub fingerprint: Options,
    /// Candidates differ in at most `k` bits, 0 to [`DedupOptions::MAX_K`]; `None` (the
    /// default) picks it by the collection's size ([`DedupOptions::k_for_size`]).
    pub k: Option<u32>,
    /// The index layout; `None` picks one for the collection's size ([`Layout::auto`]).
    /// Its `k` must be `k` (with `k: None`, [`dedup`] takes the layout's k).
    pub layout: Option<Layout>,
    /// Keep a candidate pair only when the shingle Jaccard of the texts is at least this,
    /// from 0 to 1 (default [`DedupOptions::DEFAULT_VERIFY`]); `None` keeps every pair within `k`.
    /// With [`sketch`](Self::sketch), the threshold applies to the sketches' estimate.
    pub verify: Option<f64>,
    /// Verify by similarity sketches ([`crate::sketch`]) instead of the texts: each
    /// document's sketch is made in the same pass as its fingerprint, the texts are not
    /// kept, and a candidate pair is kept when [`sketch::estimate_jaccard`] reaches
    /// `verify` ([`DedupOptions::DEFAULT_SKETCH_VERIFY`] by default). `None` (the default):
    /// the exact shingle Jaccard of the texts.
    pub sketch: Option<SketchScheme>,
    /// Shingle size for the verification, 1 to 16 (default
    /// 4).
    pub shingle: usize,
    /// Read the texts as HTML: fingerprint and verify their visible text (default false;
    /// needs the Cargo feature `html`).
    pub html: bool,
    /// With `html`, which text of a page is read: its main content (the default, see
    /// `html::main_content`) or all the visible text.
    pub content: crate::html::Content,
    /// When verifying, also take as candidates the pairs whose similarity sketches share a
    /// MinHash band (default true): each document's sketch is made in its fingerprint's
    /// scan, and the band join finds the near copies of short texts whose fingerprints sit
    /// far apart, at a cost that grows with `N log N`, so the fingerprint part keeps a
    /// small `k` ([`DedupOptions::K_BY_SIZE_WITH_BANDS`]).
    pub bands: bool,
}

impl Default for DedupOptions {
    fn default() -> Self {
        DedupOptions {
            fingerprint: Options::default(),
            k: None,
            layout: None,
            verify: Some(DedupOptions::DEFAULT_VERIFY),
            sketch: None,
            shingle: DEFAULT_SHINGLE,
            html: false,
            content: crate::html::Content::Main,
            bands: true,
        }
    }
}

/// The `verify` option as the JS API takes it: a threshold, `true` (the default
/// threshold) / `false` (no verification), or a name ([`Verify::from_name`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verify {
    /// `true`: verify at [`DedupOptions::DEFAULT_VERIFY`]; `false`: do not verify.
    Enabled(bool),
    /// Verify the texts at this Jaccard threshold (0 to 1).
    Threshold(f64),
    /// Verify by sketches ([`DedupOptions::sketch`]), at this threshold or the default
    /// [`DedupOptions::DEFAULT_SKETCH_VERIFY`].
    Sketch(Option<f64>),
}

impl Verify {
    /// What the names mean, for error messages.
    pub const EXPECTED: &'static str =
        "a Jaccard threshold from 0 to 1, true, false, \"exact\", \"sketch\" or \"sketch:J\"";

    /// The `verify` option given as text (the CLI's `--verify`, or a JS string): `"exact"`
    /// (the texts, at the default threshold), `"off"`, `"sketch"` (sketches, at
    /// [`DedupOptions::DEFAULT_SKETCH_VERIFY`]), `"sketch:J"` (sketches at `J`), or a number
    /// (the texts at that threshold).
    ///
    /// ```
    /// use simhash_wasm::dedup::Verify;
    /// assert_eq!(Verify::from_name("sketch")?, Verify::Sketch(None));
    /// assert_eq!(Verify::from_name("sketch:0.9")?, Verify::Sketch(Some(0.9)));
    /// assert_eq!(Verify::from_name("0.7")?, Verify::Threshold(0.7));
    /// assert_eq!(Verify::from_name("off")?, Verify::Enabled(false));
    /// assert!(Verify::from_name("fast").is_err());
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn from_name(name: &str) -> Result<Verify> {
        Verify::from_name_with(name, |s| s.trim().parse::<f64>().ok())
    }

    /// [`Verify::from_name`] with the numbers read by `parse` (the JS bindings use the
    /// host's `Number()`, so the wasm carries no float parser of its own).
    pub(crate) fn from_name_with(name: &str, parse: impl Fn(&str) -> Option<f64>) -> Result<Verify> {
        let bad = || Error::option("verify", crate::error::quoted(name), Self::EXPECTED);
        let number = |s: &str| parse(s).filter(|x| x.is_finite()).ok_or_else(bad);
        match name {
            "exact" | "on" | "true" => Ok(Verify::Enabled(true)),
            "off" | "false" => Ok(Verify::Enabled(false)),
            "sketch" => Ok(Verify::Sketch(None)),
            _ => match name.strip_prefix("sketch:") {
                Some(t) => Ok(Verify::Sketch(Some(number(t)?))),
                None => Ok(Verify::Threshold(number(name)?)),
            },
        }
    }
}

/// The dedup options by name, as the JS API and the CLI give them ([`DedupOptions::NAMES`]);
/// `None` is the default. The fingerprint options are given separately, as [`Options`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(not(all(target_arch = "wasm32", feature = "crawler")), allow(dead_code))]
pub(crate) struct DedupNames<'a> {
    /// `k`: a whole number from 0 to [`DedupOptions::MAX_K`].
    pub k: Option<f64>,
    /// `layout` given by name: `"auto"` (picked for the collection's size, the default),
    /// `"default"` or `"probe"`.
    pub layout: Option<&'a str>,
    /// `layout` given as block widths, e.g. `[16, 16, 16, 16]`.
    pub widths: Option<&'a [u32]>,
    /// `verify`.
    pub verify: Option<Verify>,
    /// `shingle`: a whole number from 1 to 16.
    pub shingle: Option<f64>,
    /// `html`.
    pub html: Option<bool>,
    /// `content`: `"main"` or `"all"` (with `html`).
    pub content: Option<&'a str>,
}

impl DedupOptions {
    /// The default `k` of collections larger than every row of [`DedupOptions::K_BY_SIZE`]:
    /// candidates within 10 bits, then verified (see the module docs).
    pub const DEFAULT_K: u32 = 10;
    /// The candidate `k` by collection size, `(at most this many documents, k)`, first
    /// match wins; larger collections take [`DedupOptions::DEFAULT_K`]. A wider `k` finds
    /// the short texts whose fingerprints sit 11–13 bits apart, at a self-join cost that
    /// grows with `N²`; see the module docs, "The candidate step", for the measurements.
    pub const K_BY_SIZE: [(usize, u32); 2] = [(200_000, 13), (2_000_000, 12)];

    /// The candidate `k` for a collection of `n` documents ([`DedupOptions::K_BY_SIZE`]).
    ///
    /// ```
    /// use simhash_wasm::dedup::DedupOptions;
    /// assert_eq!(DedupOptions::k_for_size(1_000), 13);
    /// assert_eq!(DedupOptions::k_for_size(usize::MAX), DedupOptions::DEFAULT_K);
    /// ```
    pub fn k_for_size(n: usize) -> u32 {
        Self::K_BY_SIZE.iter().find(|&&(limit, _)| n <= limit).map_or(Self::DEFAULT_K, |&(_, k)| k)
    }

    /// The candidate `k` of the fingerprint part when MinHash bands give candidates too
    /// ([`DedupOptions::bands`]), by collection size as [`DedupOptions::K_BY_SIZE`]; larger
    /// collections take [`DedupOptions::DEFAULT_K_WITH_BANDS`].
    pub const K_BY_SIZE_WITH_BANDS: [(usize, u32); 2] = [(200_000, 6), (2_000_000, 4)];
    /// The candidate `k` of collections larger than every row of
    /// [`DedupOptions::K_BY_SIZE_WITH_BANDS`].
    pub const DEFAULT_K_WITH_BANDS: u32 = 3;

    /// Whether the band join gives candidates: [`DedupOptions::bands`] and a verification.
    pub fn uses_bands(&self) -> bool {
        self.bands && self.verify.is_some()
    }

    /// The candidate `k` of a dedup of `n` documents: `k` when given, else by the
    /// collection's size ([`DedupOptions::K_BY_SIZE_WITH_BANDS`] when bands give
    /// candidates too, else [`DedupOptions::k_for_size`]).
    pub fn k_of(&self, n: usize) -> u32 {
        self.k.unwrap_or_else(|| match self.uses_bands() {
            true => Self::K_BY_SIZE_WITH_BANDS
                .iter()
                .find(|&&(limit, _)| n <= limit)
                .map_or(Self::DEFAULT_K_WITH_BANDS, |&(_, k)| k),
            false => DedupOptions::k_for_size(n),
        })
    }

    /// The sketch scheme the dedup makes sketches of: for the verification
    /// ([`DedupOptions::sketch`]) or the band join ([`DedupOptions::uses_bands`]).
    pub fn sketch_scheme(&self) -> Option<SketchScheme> {
        match (self.sketch, self.uses_bands()) {
            (Some(s), _) if self.verify.is_some() => Some(s),
            (_, true) => Some(SketchScheme::default()),
            _ => None,
        }
    }

    /// The index layout of a dedup of `n` fingerprinted documents: `layout` when given,
    /// else [`Layout::auto`] for `n` at [`DedupOptions::k_of`].
    pub fn layout_for(&self, n: usize) -> Result<Layout> {
        let n = n.max(1);
        match &self.layout {
            Some(l) => Ok(l.clone()),
            None => Layout::auto(n, self.k_of(n), None),
        }
    }
    /// The default Jaccard threshold of the verification.
    pub const DEFAULT_VERIFY: f64 = 0.8;
    /// The default threshold of the sketch verification (`verify: "sketch"`): the sketch's
    /// estimate errs both ways, and 0.81 is where F1 against the texts' Jaccard ≥ 0.8 peaks
    /// on the dev corpus (see `sketch-measurements`; precision ≥ 0.97 there).
    pub const DEFAULT_SKETCH_VERIFY: f64 = 0.81;
    /// The default `k` of runs that decide by fingerprints alone and keep their index
    /// ([`DedupOptions::fingerprints_only`], the CLI's `--load/--save`): 6, a point of the
    /// fingerprint-only curve that leans to precision (dev corpus: P 0.89, R 0.59; the best
    /// F1, 0.79, is at k = 8 with P 0.78).
    pub const FINGERPRINT_ONLY_K: u32 = 6;
    /// The largest `k`: a 64-bit fingerprint has 64 bits, and a layout needs `k + 1` blocks.
    pub const MAX_K: u32 = 63;
    /// The `k` the JS API and the CLI take for the default (`k` by the collection's size, or
    /// the base options' `k`), as `defaults()` shows it.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub(crate) const K_AUTO: &'static str = "auto";

    /// The error of a `k` that is neither a whole number from 0 to [`DedupOptions::MAX_K`]
    /// nor [`DedupOptions::K_AUTO`]; `shown` is the value as the caller wrote it.
    #[cfg_attr(not(all(target_arch = "wasm32", feature = "crawler")), allow(dead_code))]
    pub(crate) fn bad_k(shown: impl std::fmt::Display) -> Error {
        Error::option("k", shown, format!("an integer from 0 to {}, or \"{}\"", Self::MAX_K, Self::K_AUTO))
    }
    /// The option names as the JS API spells them, besides the fingerprint options'
    /// [`Options::NAMES`].
    #[cfg_attr(not(all(target_arch = "wasm32", feature = "crawler")), allow(dead_code))]
    pub(crate) const NAMES: [&'static str; 6] = ["k", "layout", "verify", "shingle", "html", "content"];
    /// The option names [`dedup_into`] uses: [`DedupOptions::NAMES`] but `k` and `layout`,
    /// which the index decides.
    #[cfg_attr(not(all(target_arch = "wasm32", feature = "crawler")), allow(dead_code))]
    pub(crate) const INTO_NAMES: [&'static str; 4] = ["verify", "shingle", "html", "content"];

    /// The defaults of runs with no texts to verify against: every pair within
    /// [`DedupOptions::FINGERPRINT_ONLY_K`] bits is kept.
    pub fn fingerprints_only() -> DedupOptions {
        DedupOptions { k: Some(DedupOptions::FINGERPRINT_ONLY_K), verify: None, ..DedupOptions::default() }
    }

    /// Options from their names and JS values, starting from `base` (the defaults, or
    /// [`DedupOptions::fingerprints_only`]); the result is validated.
    #[cfg_attr(not(all(target_arch = "wasm32", feature = "crawler")), allow(dead_code))]
    pub(crate) fn from_names(
        base: DedupOptions,
        fingerprint: Options,
        names: &DedupNames<'_>,
    ) -> Result<DedupOptions> {
        let k = match names.k {
            None => base.k,
            Some(x) if x.fract() == 0.0 && (0.0..=f64::from(Self::MAX_K)).contains(&x) => Some(x as u32),
            Some(x) => return Err(DedupOptions::bad_k(crate::error::number(x))),
        };
        // An explicit layout is built now, for a known k: without one, DEFAULT_K.
        let (k, layout) = match (names.layout, names.widths) {
            (None | Some("auto"), None) => (k, None),
            (name, widths) => {
                let k = k.unwrap_or(Self::DEFAULT_K);
                (Some(k), Some(Layout::from_options(name, widths, Some(k), None, None)?))
            }
        };
        let (verify, sketch) = match names.verify {
            None => (base.verify, base.sketch),
            Some(Verify::Enabled(true)) => (Some(Self::DEFAULT_VERIFY), None),
            Some(Verify::Enabled(false)) => (None, None),
            Some(Verify::Threshold(t)) => (Some(t), None),
            Some(Verify::Sketch(t)) => {
                (Some(t.unwrap_or(Self::DEFAULT_SKETCH_VERIFY)), Some(SketchScheme::default()))
            }
        };
        let shingle = match names.shingle {
            None => base.shingle,
            Some(x) if x.fract() == 0.0 && (1.0..=verify::MAX_SHINGLE as f64).contains(&x) => x as usize,
            Some(x) => return Err(verify::shingle_error(crate::error::number(x))),
        };
        let html = names.html.unwrap_or(base.html);
        let content = match names.content {
            Some(name) => crate::html::Content::from_name(name)?,
            None => base.content,
        };
        #[cfg(not(feature = "html"))]
        if names.content.is_some() {
            return Err(Error::html_disabled());
        }
        let o = DedupOptions {
            fingerprint,
            k,
            layout,
            verify,
            sketch,
            shingle,
            html,
            content,
            bands: base.bands,
        };
        o.validate()?;
        Ok(o)
    }

    /// Checks every option, naming the first one out of range.
    pub fn validate(&self) -> Result<()> {
        if let Some(k) = self.k.filter(|&k| k > Self::MAX_K) {
            return Err(Error::option("k", k, format!("an integer from 0 to {}", Self::MAX_K)));
        }
        if let (Some(l), Some(k)) = (&self.layout, self.k) {
            if l.k() != k {
                return Err(Error::option(
                    "layout",
                    l,
                    format!("a layout for k = {k} (the layout's k is {})", l.k()),
                ));
            }
        }
        self.validate_verification()
    }

    /// The checks that do not concern the index: verification and fingerprint scheme.
    fn validate_verification(&self) -> Result<()> {
        if let Some(t) = self.verify {
            if !(0.0..=1.0).contains(&t) {
                return Err(Error::option(
                    "verify",
                    crate::error::number(t),
                    "a Jaccard threshold from 0 to 1, or false",
                ));
            }
        }
        verify::check_shingle(self.shingle)?;
        if self.sketch.is_some() && self.shingle != sketch::SHINGLE {
            return Err(Error::option(
                "shingle",
                self.shingle,
                format!(
                    "{} with verify: \"sketch\" (sketches are made of {}-grams), or exact verification",
                    sketch::SHINGLE,
                    sketch::SHINGLE
                ),
            ));
        }
        self.fingerprint.validate()
    }
}

/// One near-duplicate pair.
#[derive(Clone, Debug, PartialEq)]
pub struct DupPair {
    /// The smaller id.
    pub a: String,
    /// The larger id.
    pub b: String,
    /// Hamming distance of the fingerprints.
    pub distance: u32,
    /// Shingle Jaccard of the texts, when verified (with [`DedupOptions::sketch`], the
    /// sketches' estimate of it).
    pub jaccard: Option<f64>,
}

/// What [`dedup`] found.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct DedupReport {
    /// Groups of ids (2 or more), each sorted, ordered by their first id.
    pub clusters: Vec<Vec<String>>,
    /// The pairs that join each cluster, sorted by (a, b). With a verification, a spanning
    /// tree of the cluster's verified candidate pairs: a cluster of `m` documents has
    /// `m − 1` pairs, each at the threshold or above (a pair whose documents are joined
    /// already is neither measured nor listed, so a page copied a thousand times costs a
    /// thousand pairs). Without one, every candidate pair (each document's
    /// 64 nearest within `k`).
    pub pairs: Vec<DupPair>,
    /// The fingerprint of every given document that has one, in input order.
    pub fingerprints: Vec<(String, u64)>,
    /// Documents that could not be fingerprinted (empty, too short), with the reason.
    pub skipped: Vec<(String, Error)>,
    /// [`dedup_into`] only: the given documents whose id was in the index already (their
    /// text serves the verification; the stored fingerprint is kept).
    pub already_indexed: Vec<String>,
    /// The layout used, e.g. `k=10 blocks=...`.
    pub layout: String,
    /// The `k` used (with [`dedup_into`], the index's).
    pub k: u32,
    /// The verification threshold used, if any.
    pub verify: Option<f64>,
    /// The sketch scheme the verification used, when it used sketches.
    pub sketch: Option<SketchScheme>,
}

/// The text read of every document when reading HTML (`opts.html`: its main content or
/// all its visible text, as `opts.content` says), else nothing (the texts are used as
/// they are).
fn visible_texts<S, T: AsRef<str>>(docs: &[(S, T)], opts: &DedupOptions) -> Result<Vec<String>> {
    if !opts.html {
        return Ok(Vec::new());
    }
    #[cfg(feature = "html")]
    return Ok(docs.iter().map(|(_, t)| crate::html::extract(t.as_ref(), opts.content)).collect());
    #[cfg(not(feature = "html"))]
    {
        let _ = docs;
        Err(Error::html_disabled())
    }
}

/// What [`dedup_into`]'s candidate pairs are verified against: the documents' texts
/// (exact), or their sketches (`verify: "sketch"`, made in the fingerprint's pass; the
/// texts are not kept).
enum Evidence<'t> {
    Texts(HashMap<&'t str, &'t str>),
    Sketches(HashMap<String, Sketch>),
}

impl<'t> Evidence<'t> {
    fn new(opts: &DedupOptions, capacity: usize) -> Evidence<'t> {
        match (opts.verify, opts.sketch) {
            (Some(_), Some(_)) => Evidence::Sketches(HashMap::with_capacity(capacity)),
            _ => Evidence::Texts(HashMap::with_capacity(capacity)),
        }
    }

    /// The fingerprint of `text`, keeping what the verification needs of it.
    fn fingerprint(
        &mut self,
        hasher: &mut SimHasher,
        id: &'t str,
        text: &'t str,
        opts: &DedupOptions,
    ) -> Result<u64> {
        match (self, opts.sketch) {
            (Evidence::Sketches(m), Some(scheme)) => {
                let (fp, sk) = hasher.fingerprint_and_sketch(text, scheme)?;
                m.insert(id.to_owned(), sk);
                Ok(fp)
            }
            (Evidence::Texts(m), _) => {
                let fp = hasher.fingerprint(text)?;
                m.insert(id, text);
                Ok(fp)
            }
            (Evidence::Sketches(_), None) => unreachable!("sketch evidence needs a sketch scheme"),
        }
    }

    /// The fingerprint the pool found (`known`), keeping the evidence from the text, or
    /// else the fingerprint made here.
    fn known_or_fingerprint(
        &mut self,
        known: Option<u64>,
        hasher: &mut SimHasher,
        id: &'t str,
        text: &'t str,
        opts: &DedupOptions,
    ) -> Result<u64> {
        match known {
            Some(fp) => {
                self.keep(hasher, id, text, opts);
                Ok(fp)
            }
            None => self.fingerprint(hasher, id, text, opts),
        }
    }

    /// A document already in the index: its text serves the verification (or its sketch,
    /// made from it).
    fn keep(&mut self, hasher: &mut SimHasher, id: &'t str, text: &'t str, opts: &DedupOptions) {
        match (self, opts.sketch) {
            (Evidence::Sketches(m), Some(scheme)) => {
                // A text the hasher cannot read has no sketch: its pairs report the error.
                if let Ok(sk) = hasher.sketch(text, scheme) {
                    m.insert(id.to_owned(), sk);
                }
            }
            (Evidence::Texts(m), _) => {
                m.insert(id, text);
            }
            (Evidence::Sketches(_), None) => {}
        }
    }
}

/// Near-duplicate clusters of `docs` (`(id, text)`; ids must be distinct).
pub fn dedup<S: AsRef<str>, T: AsRef<str>>(docs: &[(S, T)], opts: &DedupOptions) -> Result<DedupReport> {
    dedup_known(docs, &[], opts)
}

/// [`dedup`] with some fingerprints computed already (by the package's worker pool):
/// `known[i]`, when `Some`, is taken as the fingerprint of `docs[i]` under
/// `opts.fingerprint` (of its visible text with `opts.html`); every other document (a
/// `None`, or past the end of `known`) is fingerprinted here, which also gives the reason
/// of a document that cannot be. Same report as [`dedup`] when the fingerprints are right.
pub fn dedup_known<S: AsRef<str>, T: AsRef<str>>(
    docs: &[(S, T)],
    known: &[Option<u64>],
    opts: &DedupOptions,
) -> Result<DedupReport> {
    // HTML is parsed once here, and the plan and the measurement read the visible texts.
    let visible = visible_texts(docs, opts)?;
    let docs: Vec<(&str, &str)> = docs
        .iter()
        .enumerate()
        .map(|(i, (id, t))| (id.as_ref(), visible.get(i).map_or(t.as_ref(), String::as_str)))
        .collect();
    let opts = &DedupOptions { html: false, ..opts.clone() };
    let plan = DedupPlan::new(&docs, known, opts)?;
    let texts: Vec<&str> = docs.iter().map(|(_, t)| *t).collect();
    plan.verify_with(|pairs| jaccards(&texts, pairs, opts))
}

/// [`dedup`] starting from an existing index (one loaded from a snapshot, or kept from an
/// earlier call): the documents whose id is not in `index` are fingerprinted and added to
/// it, then the clusters of everything in the index are reported.
///
/// - The index's layout, and so its `k`, decides; `opts.k` and `opts.layout` are not used.
/// - An index that records a fingerprint scheme refuses other `opts.fingerprint` with
///   [`Error::SchemeMismatch`]; an empty index without one records `opts.fingerprint`.
/// - Documents already in the index are not fingerprinted again
///   ([`DedupReport::already_indexed`]); their texts serve the verification.
/// - With `opts.verify`, every candidate pair needs both texts (or, with `opts.sketch`,
///   both sketches, which are made from the texts given: the index stores fingerprints
///   only): a pair with a document whose text was not given (say, one only in a loaded
///   snapshot) is an [`Error::InvalidOption`] for `verify`. Without it, fingerprints
///   alone decide.
///
/// On an error the index may hold the new documents already (they were added before the
/// clusters were computed).
///
/// ```
/// use simhash_wasm::dedup::{dedup_into, DedupOptions};
/// use simhash_wasm::{Index, Layout};
/// let mut index: Index<String> = Index::new(Layout::default_for_k(6)?);
/// let opts = DedupOptions::fingerprints_only();
/// let first = [("a", "The quick brown fox jumps over the lazy dog, again and again and again.")];
/// assert!(dedup_into(&mut index, &first, &opts)?.clusters.is_empty());
/// let later = [("b", "The quick brown fox jumps over the lazy dog, again and again and again!")];
/// let report = dedup_into(&mut index, &later, &opts)?;
/// assert_eq!(report.clusters, vec![vec!["a".to_string(), "b".to_string()]]);
/// assert_eq!(index.len(), 2);
/// # Ok::<(), simhash_wasm::Error>(())
/// ```
pub fn dedup_into<S: AsRef<str>, T: AsRef<str>>(
    index: &mut Index<String>,
    docs: &[(S, T)],
    opts: &DedupOptions,
) -> Result<DedupReport> {
    dedup_into_known(index, docs, &[], opts)
}

/// [`dedup_into`] with some fingerprints computed already, as in [`dedup_known`].
pub fn dedup_into_known<S: AsRef<str>, T: AsRef<str>>(
    index: &mut Index<String>,
    docs: &[(S, T)],
    known: &[Option<u64>],
    opts: &DedupOptions,
) -> Result<DedupReport> {
    opts.validate_verification()?;
    if let Some(stored) = index.scheme() {
        crate::snapshot::check_scheme(Some(&stored), Some(&opts.fingerprint))?;
    }
    let mut hasher = SimHasher::new(opts.fingerprint)?;
    let visible = visible_texts(docs, opts)?;
    let mut report = DedupReport::default();
    let mut evidence = Evidence::new(opts, docs.len());
    let mut new = Vec::new();
    for (i, (id, text)) in docs.iter().enumerate() {
        let id = id.as_ref();
        let text = visible.get(i).map_or(text.as_ref(), String::as_str);
        if let Some(fp) = index.get(&id.to_owned()) {
            report.already_indexed.push(id.to_owned());
            report.fingerprints.push((id.to_owned(), fp));
            evidence.keep(&mut hasher, id, text, opts);
            continue;
        }
        let fingerprint =
            evidence.known_or_fingerprint(known.get(i).copied().flatten(), &mut hasher, id, text, opts);
        match fingerprint {
            Ok(fp) => {
                report.fingerprints.push((id.to_owned(), fp));
                new.push((id.to_owned(), fp));
            }
            Err(e) => report.skipped.push((id.to_owned(), e)),
        }
    }
    let was_empty = index.is_empty();
    index.extend(new)?;
    if index.scheme().is_none() && was_empty {
        index.set_scheme(Some(opts.fingerprint))?;
    }
    report.layout = index.layout().to_string();
    report.k = index.layout().k();
    cluster(index, &evidence, opts, report)
}

/// The error for a candidate whose text (or sketch) the verification does not have.
fn missing(id: &str, threshold: f64, what: &str) -> Error {
    Error::option(
        "verify",
        crate::error::number(threshold),
        format!(
            "false, or the text of every candidate: {} is in the index, but its {what} was not given",
            crate::error::quoted(id)
        ),
    )
}

/// The clusters and pairs of `index`, each candidate verified against `evidence` when
/// `opts.verify` asks for it.
fn cluster(
    index: &Index<String>,
    evidence: &Evidence<'_>,
    opts: &DedupOptions,
    report: DedupReport,
) -> Result<DedupReport> {
    // Each document's window of candidates, as `dedup` takes them.
    let candidates = plan::window_each(index.candidate_slots(candidates::BUCKET_WINDOW));
    let ids = index.slot_ids();
    let Some(threshold) = opts.verify else { return keep(ids, candidates, None, opts, report) };
    let mut rounds = rounds::Rounds::sorted(ids.len(), candidates, threshold);
    while rounds.len() > 0 {
        let similarities = match evidence {
            Evidence::Sketches(sketches) => sketch_similarities(ids, rounds.round(), sketches, threshold)?,
            Evidence::Texts(texts) => {
                measure(rounds.round().map(|(x, y, _)| (x, y)), opts.shingle, |slot| {
                    let id = index.slot_id(slot).as_str();
                    texts.get(id).map(|t| Cow::Borrowed(*t)).ok_or_else(|| missing(id, threshold, "text"))
                })?
            }
        };
        rounds.record(&similarities)?;
    }
    let (kept, similarities) = rounds.into_kept();
    keep(ids, kept, Some(&similarities), opts, report)
}

/// The sketches' estimate of the Jaccard of each candidate's documents (an error names a
/// document without a sketch: its text could not be read).
fn sketch_similarities(
    ids: &[String],
    candidates: impl Iterator<Item = (u32, u32, u32)>,
    sketches: &HashMap<String, Sketch>,
    threshold: f64,
) -> Result<Vec<f64>> {
    let sketch_of = |slot: u32| {
        let id = &ids[slot as usize];
        sketches.get(id).ok_or_else(|| missing(id, threshold, "text"))
    };
    candidates.map(|(x, y, _)| Ok(sketch::estimate(sketch_of(x)?, sketch_of(y)?))).collect()
}

/// The shingle Jaccard of each pair of documents, in order, each document shingled once
/// (when a pair first names it): `text(d)` is document `d`'s text, or why there is none.
fn measure<'t>(
    pairs: impl IntoIterator<Item = (u32, u32)>,
    shingle: usize,
    mut text: impl FnMut(u32) -> Result<Cow<'t, str>>,
) -> Result<Vec<f64>> {
    let mut sets: HashMap<u32, ShingleSet> = HashMap::new();
    let mut out = Vec::new();
    for (a, b) in pairs {
        for d in [a, b] {
            if let std::collections::hash_map::Entry::Vacant(e) = sets.entry(d) {
                e.insert(ShingleSet::new(&text(d)?, shingle)?);
            }
        }
        out.push(sets[&a].jaccard(&sets[&b]));
    }
    Ok(out)
}

/// The report from the candidate pairs (of slots, whose ids `ids` holds) and, when
/// verifying, the similarity of each (`similarities[i]` for `candidates[i]`): the pairs at
/// `opts.verify` or above are kept, and their connected components are the clusters.
fn keep(
    ids: &[String],
    mut candidates: Vec<(u32, u32, u32)>,
    similarities: Option<&[f64]>,
    opts: &DedupOptions,
    mut report: DedupReport,
) -> Result<DedupReport> {
    // The kept pairs' similarities, by their ids (smaller first, as the report's pairs).
    let mut jaccards: HashMap<(&str, &str), f64> = HashMap::new();
    if let (Some(threshold), Some(sims)) = (opts.verify, similarities) {
        let mut sims = sims.iter();
        candidates.retain(|&(x, y, _)| {
            let j = sims.next().copied().unwrap_or(f64::NAN);
            let kept = j >= threshold;
            if kept {
                let (a, b) = (ids[x as usize].as_str(), ids[y as usize].as_str());
                jaccards.insert((a.min(b), a.max(b)), j);
            }
            kept
        });
    }
    let (clusters, pairs) = clusters_of_slots(ids, candidates);
    report.verify = opts.verify;
    report.sketch = if opts.verify.is_some() { opts.sketch } else { None };
    report.clusters = clusters;
    report.pairs = pairs
        .into_iter()
        .map(|p| {
            let jaccard = jaccards.get(&(p.a.as_str(), p.b.as_str())).copied();
            DupPair { a: p.a, b: p.b, distance: p.distance, jaccard }
        })
        .collect();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_by_name_are_read_and_validated() -> Result<()> {
        let names = DedupNames { k: Some(8.0), verify: Some(Verify::Enabled(false)), ..Default::default() };
        let o = DedupOptions::from_names(DedupOptions::default(), Options::default(), &names)?;
        assert_eq!((o.k, o.verify), (Some(8), None));
        let bad = DedupNames { shingle: Some(0.0), ..Default::default() };
        assert!(DedupOptions::from_names(DedupOptions::default(), Options::default(), &bad).is_err());
        Ok(())
    }

    /// 300 copies of one page in an index, beside 3 other texts: one cluster joined by 299
    /// verified pairs, from at most a window of candidates a copy (every pair within k
    /// would be 44,850).
    #[test]
    fn copies_in_an_index_cost_a_window_each() -> Result<()> {
        let mut docs: Vec<(String, &str)> = (0..300).map(|i| (format!("copy {i:03}"), A)).collect();
        docs.extend([
            ("b".to_string(), B),
            ("c".to_string(), C),
            ("d".to_string(), "Other words, far apart from the rest."),
        ]);
        let mut index = Index::new(Layout::default_for_k(6)?);
        let report = dedup_into(&mut index, &docs, &DedupOptions::default())?;
        let mut cluster: Vec<String> = vec!["b".to_string()];
        cluster.extend((0..300).map(|i| format!("copy {i:03}")));
        assert_eq!(report.clusters, vec![cluster]);
        assert_eq!(report.pairs.len(), 300);
        let candidates = index.candidate_slots(candidates::BUCKET_WINDOW);
        assert!(candidates.len() <= 301 * candidates::BUCKET_WINDOW, "{} candidates", candidates.len());
        // Copy i keeps min(i, 64) pairs, and B 64.
        let windows: usize = (0..300).map(|i: usize| i.min(candidates::BUCKET_WINDOW)).sum::<usize>() + 64;
        assert_eq!(plan::window_each(candidates).len(), windows);
        Ok(())
    }

    const A: &str = "The quick brown fox jumps over the lazy dog, again and again and again.";
    const B: &str = "The quick brown fox jumps over the lazy dog, again and again and again!";
    const C: &str = "Pack my box with five dozen liquor jugs, said the sphinx of black quartz.";

    fn names<'a>() -> DedupNames<'a> {
        DedupNames::default()
    }

    #[test]
    fn a_shingle_size_out_of_range_is_an_error_not_empty_clusters() {
        let docs = [("a", A), ("b", B)];
        for shingle in [0, verify::MAX_SHINGLE + 1, 1000] {
            let opts = DedupOptions { shingle, ..DedupOptions::default() };
            let e = dedup(&docs, &opts).unwrap_err();
            assert_eq!(e.code(), "InvalidOption", "{shingle}");
            assert!(e.to_string().contains("`shingle`"), "{e}");
            let mut index: Index<String> = Index::new(Layout::default_for_k(10).unwrap());
            assert_eq!(dedup_into(&mut index, &docs, &opts).unwrap_err(), e);
            assert!(index.is_empty(), "nothing added on a bad option");
        }
        // Every size in range finds the pair.
        for shingle in 1..=verify::MAX_SHINGLE {
            let r = dedup(&docs, &DedupOptions { shingle, ..DedupOptions::default() }).unwrap();
            assert_eq!(r.clusters, vec![vec!["a".to_string(), "b".to_string()]], "{shingle}");
        }
    }

    #[test]
    fn known_fingerprints_give_the_same_report() {
        let docs = [("a", A), ("b", B), ("c", C), ("e", "  "), ("s", "ab")];
        let opts = DedupOptions::default();
        let whole = dedup(&docs, &opts).unwrap();
        assert_eq!(whole.clusters.len(), 1);
        assert_eq!(whole.skipped.len(), 2);
        let mut h = SimHasher::new(opts.fingerprint).unwrap();
        let each: Vec<Option<u64>> =
            h.fingerprint_each(docs.iter().map(|d| d.1)).into_iter().map(|r| r.ok()).collect();
        assert_eq!(dedup_known(&docs, &each, &opts).unwrap(), whole);
        // Partly known (a prefix): the rest is fingerprinted here.
        assert_eq!(dedup_known(&docs, &each[..2], &opts).unwrap(), whole);
        // A known value is taken as given: a wrong one changes the report (so it is used).
        let mut wrong = each.clone();
        wrong[1] = Some(!each[1].unwrap());
        assert_ne!(dedup_known(&docs, &wrong, &opts).unwrap(), whole);
        let no_bands = DedupOptions { bands: false, ..opts.clone() };
        assert!(dedup_known(&docs, &wrong, &no_bands).unwrap().clusters.is_empty());
        let fresh = || Index::<String>::new(Layout::default_for_k(10).unwrap());
        let (mut i1, mut i2) = (fresh(), fresh());
        assert_eq!(
            dedup_into_known(&mut i1, &docs, &each, &opts).unwrap(),
            dedup_into(&mut i2, &docs, &opts).unwrap()
        );
    }

    #[test]
    fn bad_options_name_themselves() {
        let d = DedupOptions::default;
        let sketch = Some(SketchScheme::default());
        let cases: [(DedupOptions, &str); 5] = [
            (DedupOptions { k: Some(64), ..d() }, "`k`"),
            (DedupOptions { verify: Some(1.5), ..d() }, "`verify`"),
            (DedupOptions { verify: Some(f64::NAN), ..d() }, "`verify`"),
            (
                DedupOptions { k: Some(10), layout: Some(Layout::default_for_k(3).unwrap()), ..d() },
                "`layout`",
            ),
            (DedupOptions { sketch, shingle: 5, ..d() }, "`shingle`"),
        ];
        for (o, name) in cases {
            let e = dedup(&[("a", A)], &o).unwrap_err();
            assert!(e.to_string().contains(name), "{e}");
        }
        // Without k, an explicit layout decides it.
        let o = DedupOptions { layout: Some(Layout::default_for_k(3).unwrap()), ..d() };
        assert_eq!(dedup(&[("a", A), ("b", B)], &o).unwrap().k, 3);
    }

    #[test]
    fn an_id_given_twice_is_refused_whole() {
        // Two documents under one id would read as one in the report's clusters and pairs.
        let e = dedup(&[("a", A), ("b", B), ("a", B)], &DedupOptions::default()).unwrap_err();
        assert!(matches!(&e, Error::DuplicateId { id } if id == "\"a\""), "{e}");
        let e = DedupPlan::new(&[("x", A), ("x", A)], &[], &DedupOptions::default()).map(|_| ()).unwrap_err();
        assert_eq!(e.code(), "DuplicateId");
        assert!(dedup(&[("a", A), ("A", B)], &DedupOptions::default()).is_ok(), "ids are compared exactly");
    }

    #[test]
    fn k_follows_the_collection_size_unless_given() {
        let mut last = u32::MAX;
        for n in [1, 1000, 200_000, 200_001, 2_000_000, 2_000_001, usize::MAX] {
            let k = DedupOptions::k_for_size(n);
            assert!(k <= last && (DedupOptions::DEFAULT_K..=DedupOptions::MAX_K).contains(&k), "{n}: {k}");
            last = k;
        }
        assert_eq!(DedupOptions::k_for_size(usize::MAX), DedupOptions::DEFAULT_K);
        let mut last = u32::MAX;
        for n in [1, 1000, 200_000, 200_001, 2_000_000, 2_000_001, usize::MAX] {
            let k = d().k_of(n);
            assert!(k <= last && k >= DedupOptions::DEFAULT_K_WITH_BANDS, "{n}: {k}");
            assert!(k < DedupOptions::k_for_size(n), "bands let k be smaller: {n}");
            last = k;
        }
        let docs = [("a", A), ("b", B), ("c", C)];
        assert_eq!(dedup(&docs, &d()).unwrap().k, d().k_of(3));
        let no_bands = DedupOptions { bands: false, ..d() };
        assert_eq!(dedup(&docs, &no_bands).unwrap().k, DedupOptions::k_for_size(3));
        let unverified = DedupOptions { verify: None, ..d() };
        assert_eq!(unverified.k_of(3), DedupOptions::k_for_size(3), "no bands without a verification");
        assert_eq!(dedup(&docs, &DedupOptions { k: Some(7), ..d() }).unwrap().k, 7);
    }

    /// A near copy whose fingerprint is far: only a candidate at a wide k finds it.
    #[test]
    fn sketch_verification_agrees_with_the_exact_one_away_from_the_threshold() {
        use crate::test_rng::Rng;
        let mut rng = Rng(12);
        let mut text = |n: usize| -> String {
            let word = |rng: &mut Rng| -> String {
                (0..3 + rng.below(5)).map(|_| char::from(b'a' + rng.below(26) as u8)).collect()
            };
            (0..n).map(|_| word(&mut rng)).collect::<Vec<_>>().join(" ")
        };
        // 30 base texts, each with an edited copy (a few words changed) and an unrelated one.
        let mut docs: Vec<(String, String)> = Vec::new();
        for i in 0..30 {
            let base = text(60);
            let mut copy: Vec<&str> = base.split(' ').collect();
            let at = i % 50;
            copy[at] = "omega";
            if i % 3 == 0 {
                copy[at + 5] = "sigma";
            }
            let copy = copy.join(" ");
            docs.push((format!("{i}a"), base));
            docs.push((format!("{i}b"), copy));
            docs.push((format!("{i}c"), text(60)));
        }
        let exact = DedupOptions { k: Some(20), ..d() };
        let by_sketch = DedupOptions::from_names(
            exact.clone(),
            Options::default(),
            &DedupNames { verify: Some(Verify::Sketch(None)), ..names() },
        )
        .unwrap();
        assert_eq!((by_sketch.verify, by_sketch.sketch), (Some(0.81), Some(SketchScheme::default())));
        let e = dedup(&docs, &exact).unwrap();
        let s = dedup(&docs, &by_sketch).unwrap();
        assert_eq!(s.sketch, Some(SketchScheme::default()));
        assert_eq!(e.sketch, None);
        // Every candidate the exact run judged far from the threshold is judged alike.
        let exact_j: HashMap<(String, String), f64> =
            e.pairs.iter().map(|p| ((p.a.clone(), p.b.clone()), p.jaccard.unwrap())).collect();
        let sketch_j: HashMap<(String, String), f64> =
            s.pairs.iter().map(|p| ((p.a.clone(), p.b.clone()), p.jaccard.unwrap())).collect();
        let all = dedup(&docs, &DedupOptions { verify: None, k: Some(20), ..d() }).unwrap();
        let mut far = 0;
        for p in &all.pairs {
            let a = ShingleSet::new(&docs.iter().find(|d| d.0 == p.a).unwrap().1, 4).unwrap();
            let b = ShingleSet::new(&docs.iter().find(|d| d.0 == p.b).unwrap().1, 4).unwrap();
            let j = a.jaccard(&b);
            let key = (p.a.clone(), p.b.clone());
            if !(0.7..=0.9).contains(&j) {
                far += 1;
                assert_eq!(exact_j.contains_key(&key), j >= 0.8, "{key:?} {j}");
                assert_eq!(
                    sketch_j.contains_key(&key),
                    j >= 0.8,
                    "{key:?} exact {j}, sketch {:?}",
                    sketch_j.get(&key)
                );
            }
            if let Some(est) = sketch_j.get(&key) {
                assert!((est - j).abs() < 0.1, "{key:?}: estimate {est}, exact {j}");
            }
        }
        assert!(far >= 30 && sketch_j.len() >= 25, "{far} decided pairs, {} kept", sketch_j.len());
        // The clusters are the edited pairs, each alone.
        assert!(s.clusters.len() >= 25, "{:?}", s.clusters);
        for c in &s.clusters {
            assert_eq!(c.len(), 2, "{c:?}");
            assert_eq!(c[0].trim_end_matches('a'), c[1].trim_end_matches('b'), "{c:?}");
        }
    }

    #[test]
    fn from_names_reads_every_option_and_keeps_the_defaults() {
        let o = DedupOptions::from_names(d(), Options::default(), &names()).unwrap();
        assert_eq!(o, DedupOptions::default());
        assert_eq!((o.k, o.verify, o.shingle, o.sketch), (None, Some(0.8), 4, None));
        let n = DedupNames {
            k: Some(7.0),
            layout: Some("probe"),
            verify: Some(Verify::Threshold(0.5)),
            shingle: Some(3.0),
            html: Some(true),
            ..names()
        };
        let o = DedupOptions::from_names(d(), Options::default(), &n);
        // probe allows k <= 4 only: the layout's own error comes through.
        assert_eq!(o.unwrap_err().code(), "InvalidLayout");
        let n = DedupNames { k: Some(3.0), ..n };
        let o = DedupOptions::from_names(d(), Options::default(), &n).unwrap();
        assert_eq!((o.k, o.verify, o.shingle, o.html), (Some(3), Some(0.5), 3, true));
        assert!(o.layout.unwrap().is_probe());
        let widths = [16, 16, 16, 16];
        let n = DedupNames { k: Some(3.0), widths: Some(&widths), ..names() };
        let o = DedupOptions::from_names(d(), Options::default(), &n).unwrap();
        assert_eq!(o.layout.unwrap().widths(), &widths);
        // "auto" is the default: picked for the collection's size.
        let n = DedupNames { layout: Some("auto"), ..names() };
        assert_eq!(DedupOptions::from_names(d(), Options::default(), &n).unwrap().layout, None);
        // verify: true is the base's threshold, false is none.
        let on = DedupNames { verify: Some(Verify::Enabled(true)), ..names() };
        let f = DedupOptions::fingerprints_only();
        assert_eq!(DedupOptions::from_names(f.clone(), Options::default(), &on).unwrap().verify, Some(0.8));
        let o = DedupOptions::from_names(f, Options::default(), &names()).unwrap();
        assert_eq!((o.k, o.verify), (Some(DedupOptions::FINGERPRINT_ONLY_K), None));
        for (n, name) in [
            (DedupNames { k: Some(64.0), ..names() }, "`k`"),
            (DedupNames { k: Some(2.5), ..names() }, "`k`"),
            (DedupNames { k: Some(-1.0), ..names() }, "`k`"),
            (DedupNames { shingle: Some(17.0), ..names() }, "`shingle`"),
            (DedupNames { shingle: Some(1.5), ..names() }, "`shingle`"),
            (DedupNames { verify: Some(Verify::Threshold(-0.1)), ..names() }, "`verify`"),
            (DedupNames { layout: Some("fast"), ..names() }, "`layout`"),
        ] {
            let e = DedupOptions::from_names(d(), Options::default(), &n).unwrap_err();
            assert!(e.to_string().contains(name), "{e}");
        }
    }

    fn d() -> DedupOptions {
        DedupOptions::default()
    }

    #[test]
    fn dedup_into_resumes_and_agrees_with_one_run() {
        let docs = [
            ("a", A),
            ("b", B),
            ("c", C),
            ("d", "Pack my box with five dozen liquor jugs, said the sphinx of black quartz!"),
        ];
        let opts = DedupOptions::fingerprints_only();
        let whole = dedup(&docs, &opts).unwrap();
        let mut index: Index<String> = Index::new(Layout::default_for_k(opts.k.unwrap()).unwrap());
        let first = dedup_into(&mut index, &docs[..2], &opts).unwrap();
        assert_eq!(first.clusters, vec![vec!["a".to_string(), "b".to_string()]]);
        assert_eq!(index.scheme(), Some(opts.fingerprint));
        // The second run gives one old document again and two new ones.
        let second = dedup_into(&mut index, &docs[1..], &opts).unwrap();
        assert_eq!(second.already_indexed, vec!["b".to_string()]);
        assert_eq!((second.k, second.verify), (6, None));
        assert_eq!(second.clusters, whole.clusters);
        assert_eq!(second.pairs, whole.pairs);
        assert_eq!(index.len(), 4);
        // Verification needs the texts of both sides of every candidate.
        let verified = DedupOptions { verify: Some(0.8), ..opts.clone() };
        let e = dedup_into(&mut index, &docs[2..], &verified).unwrap_err();
        assert!(e.to_string().contains("\"a\" is in the index, but its text was not given"), "{e}");
        let all = dedup_into(&mut index, &docs, &verified).unwrap();
        assert_eq!(all.already_indexed.len(), 4);
        assert!(all.pairs.iter().all(|p| p.jaccard.is_some()));
        // Sketch verification makes the sketches from the texts given: the same rule.
        let sketched =
            DedupOptions { verify: Some(0.81), sketch: Some(SketchScheme::default()), ..opts.clone() };
        let e = dedup_into(&mut index, &docs[2..], &sketched).unwrap_err();
        assert!(e.to_string().contains("\"a\" is in the index, but its text was not given"), "{e}");
        let by_sketch = dedup_into(&mut index, &docs, &sketched).unwrap();
        assert_eq!(by_sketch.sketch, Some(SketchScheme::default()));
        assert_eq!(by_sketch.clusters, all.clusters);
        assert!(by_sketch.pairs.iter().all(|p| p.jaccard.unwrap() >= 0.81));
        // Another scheme is refused.
        let other = DedupOptions {
            fingerprint: Options::from_names(None, Some(5.0), None, None, None, None).unwrap(),
            ..opts
        };
        assert_eq!(dedup_into(&mut index, &docs, &other).unwrap_err().code(), "SchemeMismatch");
    }
}
