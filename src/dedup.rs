//! The main job: near-duplicate clusters of a collection of documents.
//!
//! Every document is fingerprinted, all fingerprints go into the multi-table [`Index`],
//! the self-join gives every pair within `k` bits, and (by default) each such candidate is
//! verified by the exact shingle Jaccard of the two texts ([`crate::verify`]). Clusters are
//! the connected components of the kept pairs.
//!
//! The defaults come from `npm run quality` on the dev corpus (truth: 4-gram Jaccard ≥ 0.8):
//! fingerprints alone reach F1 0.79 at best (k = 8); candidates at `k = 10` verified at
//! Jaccard ≥ 0.8 reach F1 0.95 with precision 1.0.
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
//! Option names, defaults and validation live here ([`DedupOptions::NAMES`],
//! [`DedupOptions::from_names`], [`DedupOptions::validate`]); the JS bindings only convert.

use std::collections::HashMap;

use crate::error::{Error, Result};
use crate::fingerprint::{Options, SimHasher};
use crate::index::{Index, Layout};
use crate::verify::{self, ShingleSet, DEFAULT_SHINGLE};

/// How [`dedup`] works.
#[derive(Clone, Debug, PartialEq)]
pub struct DedupOptions {
    /// The fingerprint scheme.
    pub fingerprint: Options,
    /// Candidates differ in at most `k` bits, 0 to [`DedupOptions::MAX_K`] (default
    /// [`DedupOptions::DEFAULT_K`]).
    pub k: u32,
    /// The index layout; `None` picks one for the collection's size ([`Layout::auto`]).
    /// Its `k` must be `k`.
    pub layout: Option<Layout>,
    /// Keep a candidate pair only when the shingle Jaccard of the texts is at least this,
    /// from 0 to 1 (default [`DedupOptions::DEFAULT_VERIFY`]); `None` keeps every pair within `k`.
    pub verify: Option<f64>,
    /// Shingle size for the verification, 1 to [`verify::MAX_SHINGLE`] (default
    /// [`DEFAULT_SHINGLE`]).
    pub shingle: usize,
    /// Read the texts as HTML: fingerprint and verify their visible text (default false;
    /// needs the Cargo feature `html`).
    pub html: bool,
}

impl Default for DedupOptions {
    fn default() -> Self {
        DedupOptions {
            fingerprint: Options::default(),
            k: DedupOptions::DEFAULT_K,
            layout: None,
            verify: Some(DedupOptions::DEFAULT_VERIFY),
            shingle: DEFAULT_SHINGLE,
            html: false,
        }
    }
}

/// The `verify` option as the JS API takes it: a threshold, or `true` (the default
/// threshold) / `false` (no verification).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verify {
    /// `true`: verify at [`DedupOptions::DEFAULT_VERIFY`]; `false`: do not verify.
    Enabled(bool),
    /// Verify at this Jaccard threshold (0 to 1).
    Threshold(f64),
}

/// The dedup options by name, as the JS API and the CLI give them ([`DedupOptions::NAMES`]);
/// `None` is the default. The fingerprint options are given separately, as [`Options`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DedupNames<'a> {
    /// `k`: a whole number from 0 to [`DedupOptions::MAX_K`].
    pub k: Option<f64>,
    /// `layout` given by name: `"auto"` (picked for the collection's size, the default),
    /// `"default"` or `"probe"`.
    pub layout: Option<&'a str>,
    /// `layout` given as block widths, e.g. `[16, 16, 16, 16]`.
    pub widths: Option<&'a [u32]>,
    /// `verify`.
    pub verify: Option<Verify>,
    /// `shingle`: a whole number from 1 to [`verify::MAX_SHINGLE`].
    pub shingle: Option<f64>,
    /// `html`.
    pub html: Option<bool>,
}

impl DedupOptions {
    /// The default `k`: candidates within 10 bits, then verified (see the module docs).
    pub const DEFAULT_K: u32 = 10;
    /// The default Jaccard threshold of the verification.
    pub const DEFAULT_VERIFY: f64 = 0.8;
    /// The default `k` of runs that decide by fingerprints alone and keep their index
    /// ([`DedupOptions::fingerprints_only`], the CLI's `--load/--save`): 6, a point of the
    /// fingerprint-only curve that leans to precision (dev corpus: P 0.89, R 0.59; the best
    /// F1, 0.79, is at k = 8 with P 0.78).
    pub const FINGERPRINT_ONLY_K: u32 = 6;
    /// The largest `k`: a 64-bit fingerprint has 64 bits, and a layout needs `k + 1` blocks.
    pub const MAX_K: u32 = 63;
    /// The option names as the JS API spells them, besides the fingerprint options'
    /// [`Options::NAMES`].
    pub const NAMES: [&'static str; 5] = ["k", "layout", "verify", "shingle", "html"];
    /// The option names [`dedup_into`] uses: [`DedupOptions::NAMES`] but `k` and `layout`,
    /// which the index decides.
    pub const INTO_NAMES: [&'static str; 3] = ["verify", "shingle", "html"];

    /// The defaults of runs with no texts to verify against: every pair within
    /// [`DedupOptions::FINGERPRINT_ONLY_K`] bits is kept.
    pub fn fingerprints_only() -> DedupOptions {
        DedupOptions { k: DedupOptions::FINGERPRINT_ONLY_K, verify: None, ..DedupOptions::default() }
    }

    /// Options from their names and JS values, starting from `base` (the defaults, or
    /// [`DedupOptions::fingerprints_only`]); the result is validated.
    ///
    /// ```
    /// use simhash_wasm::dedup::{DedupNames, DedupOptions, Verify};
    /// use simhash_wasm::Options;
    /// let names = DedupNames { k: Some(8.0), verify: Some(Verify::Enabled(false)), ..Default::default() };
    /// let o = DedupOptions::from_names(DedupOptions::default(), Options::default(), &names)?;
    /// assert_eq!((o.k, o.verify), (8, None));
    /// let bad = DedupNames { shingle: Some(0.0), ..Default::default() };
    /// assert!(DedupOptions::from_names(DedupOptions::default(), Options::default(), &bad).is_err());
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn from_names(
        base: DedupOptions,
        fingerprint: Options,
        names: &DedupNames<'_>,
    ) -> Result<DedupOptions> {
        let k = match names.k {
            None => base.k,
            Some(x) if x.fract() == 0.0 && (0.0..=f64::from(Self::MAX_K)).contains(&x) => x as u32,
            Some(x) => {
                return Err(Error::option(
                    "k",
                    crate::error::number(x),
                    format!("an integer from 0 to {}", Self::MAX_K),
                ))
            }
        };
        let layout = match (names.layout, names.widths) {
            (None | Some("auto"), None) => None,
            (name, widths) => Some(Layout::from_options(name, widths, Some(k), None, None)?),
        };
        let verify = match names.verify {
            None => base.verify,
            Some(Verify::Enabled(true)) => Some(base.verify.unwrap_or(Self::DEFAULT_VERIFY)),
            Some(Verify::Enabled(false)) => None,
            Some(Verify::Threshold(t)) => Some(t),
        };
        let shingle = match names.shingle {
            None => base.shingle,
            Some(x) if x.fract() == 0.0 && (1.0..=verify::MAX_SHINGLE as f64).contains(&x) => x as usize,
            Some(x) => return Err(verify::shingle_error(crate::error::number(x))),
        };
        let o =
            DedupOptions { fingerprint, k, layout, verify, shingle, html: names.html.unwrap_or(base.html) };
        o.validate()?;
        Ok(o)
    }

    /// Checks every option, naming the first one out of range.
    pub fn validate(&self) -> Result<()> {
        if self.k > Self::MAX_K {
            return Err(Error::option("k", self.k, format!("an integer from 0 to {}", Self::MAX_K)));
        }
        if let Some(l) = &self.layout {
            if l.k() != self.k {
                return Err(Error::option(
                    "layout",
                    l,
                    format!("a layout for k = {} (the layout's k is {})", self.k, l.k()),
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
    /// Shingle Jaccard of the texts, when verified.
    pub jaccard: Option<f64>,
}

/// What [`dedup`] found.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct DedupReport {
    /// Groups of ids (2 or more), each sorted, ordered by their first id.
    pub clusters: Vec<Vec<String>>,
    /// Every kept pair, sorted by (a, b).
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
}

/// The visible text of every document when reading HTML, else nothing (the texts are used
/// as they are).
fn visible_texts<S, T: AsRef<str>>(docs: &[(S, T)], html: bool) -> Result<Vec<String>> {
    if !html {
        return Ok(Vec::new());
    }
    #[cfg(feature = "html")]
    return Ok(docs.iter().map(|(_, t)| crate::html::html_to_text(t.as_ref())).collect());
    #[cfg(not(feature = "html"))]
    {
        let _ = docs;
        Err(Error::html_disabled())
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
    opts.validate()?;
    let mut hasher = SimHasher::new(opts.fingerprint)?;
    let visible = visible_texts(docs, opts.html)?;
    let mut report = DedupReport::default();
    let mut texts: HashMap<&str, &str> = HashMap::with_capacity(docs.len());
    for (i, (id, text)) in docs.iter().enumerate() {
        let id = id.as_ref();
        let text = visible.get(i).map_or(text.as_ref(), String::as_str);
        match known.get(i).copied().flatten().map_or_else(|| hasher.fingerprint(text), Ok) {
            Ok(fp) => {
                report.fingerprints.push((id.to_owned(), fp));
                texts.insert(id, text);
            }
            Err(e) => report.skipped.push((id.to_owned(), e)),
        }
    }
    let layout = match &opts.layout {
        Some(l) => l.clone(),
        None => Layout::auto(report.fingerprints.len().max(1), opts.k, None)?,
    };
    report.layout = layout.to_string();
    report.k = layout.k();
    let index = Index::build(layout, report.fingerprints.iter().cloned())?;
    cluster(&index, &texts, opts, report)
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
/// - With `opts.verify`, every candidate pair needs both texts: a pair with a document
///   whose text was not given (say, one only in a loaded snapshot) is an
///   [`Error::InvalidOption`] for `verify`. Without it, fingerprints alone decide.
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
    let visible = visible_texts(docs, opts.html)?;
    let mut report = DedupReport::default();
    let mut texts: HashMap<&str, &str> = HashMap::with_capacity(docs.len());
    let mut new = Vec::new();
    for (i, (id, text)) in docs.iter().enumerate() {
        let id = id.as_ref();
        let text = visible.get(i).map_or(text.as_ref(), String::as_str);
        if let Some(fp) = index.get(&id.to_owned()) {
            report.already_indexed.push(id.to_owned());
            report.fingerprints.push((id.to_owned(), fp));
            texts.insert(id, text);
            continue;
        }
        match known.get(i).copied().flatten().map_or_else(|| hasher.fingerprint(text), Ok) {
            Ok(fp) => {
                report.fingerprints.push((id.to_owned(), fp));
                new.push((id.to_owned(), fp));
                texts.insert(id, text);
            }
            Err(e) => report.skipped.push((id.to_owned(), e)),
        }
    }
    let was_empty = index.is_empty();
    index.extend(new)?;
    if index.scheme().is_none() && was_empty {
        index.set_scheme(Some(opts.fingerprint));
    }
    report.layout = index.layout().to_string();
    report.k = index.layout().k();
    cluster(index, &texts, opts, report)
}

/// The clusters and pairs of `index`, each candidate verified against `texts` when
/// `opts.verify` asks for it.
fn cluster(
    index: &Index<String>,
    texts: &HashMap<&str, &str>,
    opts: &DedupOptions,
    mut report: DedupReport,
) -> Result<DedupReport> {
    // Shingle sets are built once per document, and only for documents in some candidate.
    let mut shingles: HashMap<String, ShingleSet> = HashMap::new();
    let mut jaccards: HashMap<(String, String), f64> = HashMap::new();
    let mut failed: Option<Error> = None;
    let (clusters, pairs) = index.clusters_where(|a, b, _| {
        let Some(threshold) = opts.verify else { return true };
        if failed.is_some() {
            return false;
        }
        for id in [a, b] {
            if shingles.contains_key(id) {
                continue;
            }
            let set = match texts.get(id.as_str()) {
                Some(t) => ShingleSet::new(t, opts.shingle),
                None => Err(Error::option(
                    "verify",
                    crate::error::number(threshold),
                    format!(
                        "false, or the text of every candidate: {} is in the index, but its text \
                         was not given",
                        crate::error::quoted(id)
                    ),
                )),
            };
            match set {
                Ok(s) => {
                    shingles.insert(id.clone(), s);
                }
                Err(e) => {
                    failed = Some(e);
                    return false;
                }
            }
        }
        let j = shingles[a].jaccard(&shingles[b]);
        jaccards.insert((a.clone(), b.clone()), j);
        j >= threshold
    });
    if let Some(e) = failed {
        return Err(e);
    }
    report.verify = opts.verify;
    report.clusters = clusters;
    report.pairs = pairs
        .into_iter()
        .map(|p| {
            let jaccard = jaccards
                .get(&(p.a.clone(), p.b.clone()))
                .or_else(|| jaccards.get(&(p.b.clone(), p.a.clone())))
                .copied();
            DupPair { a: p.a, b: p.b, distance: p.distance, jaccard }
        })
        .collect();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(dedup_known(&docs, &wrong, &opts).unwrap().clusters.is_empty());
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
        let cases: [(DedupOptions, &str); 4] = [
            (DedupOptions { k: 64, ..d() }, "`k`"),
            (DedupOptions { verify: Some(1.5), ..d() }, "`verify`"),
            (DedupOptions { verify: Some(f64::NAN), ..d() }, "`verify`"),
            (DedupOptions { layout: Some(Layout::default_for_k(3).unwrap()), ..d() }, "`layout`"),
        ];
        for (o, name) in cases {
            let e = dedup(&[("a", A)], &o).unwrap_err();
            assert!(e.to_string().contains(name), "{e}");
        }
    }

    #[test]
    fn from_names_reads_every_option_and_keeps_the_defaults() {
        let o = DedupOptions::from_names(d(), Options::default(), &names()).unwrap();
        assert_eq!(o, DedupOptions::default());
        assert_eq!((o.k, o.verify, o.shingle), (10, Some(0.8), 4));
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
        assert_eq!((o.k, o.verify, o.shingle, o.html), (3, Some(0.5), 3, true));
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
        assert_eq!((o.k, o.verify), (DedupOptions::FINGERPRINT_ONLY_K, None));
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
        let mut index: Index<String> = Index::new(Layout::default_for_k(opts.k).unwrap());
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
        // Another scheme is refused.
        let other = DedupOptions {
            fingerprint: Options::from_names(None, Some(5.0), None, None, None, None).unwrap(),
            ..opts
        };
        assert_eq!(dedup_into(&mut index, &docs, &other).unwrap_err().code(), "SchemeMismatch");
    }
}
