//! [`dedup`](super::dedup) in three steps, so that the self-join and the exact
//! verification can run elsewhere (the package's worker pool runs both on every core):
//!
//! 1. [`DedupPlan::new`] fingerprints what it is not given, self-joins the fingerprints
//!    and joins the sketches' bands (or takes the candidates found elsewhere, in parts:
//!    [`candidates`], then [`DedupPlan::with_candidates`]) and lists the candidate pairs
//!    whose texts must be compared ([`DedupPlan::pairs`]);
//! 2. [`jaccards`] measures any list of pairs on their texts, anywhere (each text is
//!    shingled once), and [`DedupPlan::record`] takes the measurements: the pairs come in
//!    a few rounds, each pair measured only while its documents are not joined yet by the
//!    pairs verified before it;
//! 3. [`DedupPlan::finish`] makes the report: the clusters, and the verified pairs that
//!    join them.
//!
//! [`dedup_known`](super::dedup_known) is these three steps on one thread, so a plan
//! measured in pieces elsewhere gives the same report.

use std::borrow::Cow;
use std::collections::HashSet;

use super::candidates::{band_count, each_band_pair, BUCKET_WINDOW};
use super::rounds::{sort_in_order, Rounds};
use super::{keep, measure, visible_texts, DedupOptions, DedupReport};
use crate::error::{Error, Result};
use crate::fingerprint::SimHasher;
use crate::hash::hamming;
use crate::index::{join_part_kept, join_tables, too_many, MAX_LEN};
use crate::sketch::{estimate_payloads, EstimateFloor, Sketch, SketchRows};
use crate::union_find::component_roots;
use crate::verify::check_shingle;

/// A dedup whose fingerprints and candidates are known, waiting for the similarity of its
/// candidate pairs, a round at a time ([`DedupPlan::pairs`], [`DedupPlan::record`]).
#[derive(Debug)]
pub struct DedupPlan {
    /// The id of each fingerprinted document, in the given order: the candidates' slots
    /// are positions in it.
    ids: Vec<String>,
    report: DedupReport,
    opts: DedupOptions,
    /// Without a verification: every candidate, reported as it is (else empty).
    candidates: Vec<(u32, u32, u32)>,
    /// With a verification: the candidates, verified in rounds.
    rounds: Option<Rounds>,
    /// The document (index into the given `docs`) of each slot.
    doc_of: Vec<u32>,
    /// The documents of each pair of this round, when their texts are to be measured;
    /// else empty.
    pairs: Vec<(u32, u32)>,
    /// The length in bytes of each text in a candidate (what measuring it costs; 0 for
    /// others).
    #[cfg_attr(not(all(target_arch = "wasm32", feature = "crawler")), allow(dead_code))]
    sizes: Vec<u32>,
}

impl DedupPlan {
    /// Fingerprints `docs` (`known[i]`, when `Some`, is taken as the fingerprint of
    /// `docs[i]`, as in [`dedup_known`](super::dedup_known)), builds the index, and finds
    /// the candidate pairs.
    pub fn new<S: AsRef<str>, T: AsRef<str>>(
        docs: &[(S, T)],
        known: &[Option<u64>],
        opts: &DedupOptions,
    ) -> Result<DedupPlan> {
        DedupPlan::with_sketches(docs, known, &[], opts)
    }

    /// [`DedupPlan::new`] with sketches made already (by the pool's workers, with the
    /// fingerprints): with verification by sketches, `sketches[i]`, when `Some` and
    /// `known[i]` too, is taken as the sketch of `docs[i]` under `opts.sketch`, and the
    /// text is not read here. Ignored otherwise.
    pub fn with_sketches<S: AsRef<str>, T: AsRef<str>>(
        docs: &[(S, T)],
        known: &[Option<u64>],
        sketches: &[Option<Sketch>],
        opts: &DedupOptions,
    ) -> Result<DedupPlan> {
        DedupPlan::build(docs, known, sketches, None, opts)
    }

    /// [`DedupPlan::new`] with the candidate step done already (by the pool's workers):
    /// `candidates` is every part of [`candidates`], in any order, over the fingerprints
    /// of the documents that have one, in the given order (those `known` holds and the
    /// rest fingerprinted here), and their sketches. No sketch is needed here then: a
    /// verification by sketches takes the candidates' estimates. A slot past them is an
    /// [`Error::InvalidOption`] for `candidates`.
    #[cfg_attr(not(all(target_arch = "wasm32", feature = "crawler")), allow(dead_code))]
    pub fn with_candidates<S: AsRef<str>, T: AsRef<str>>(
        docs: &[(S, T)],
        known: &[Option<u64>],
        candidates: Vec<Candidate>,
        opts: &DedupOptions,
    ) -> Result<DedupPlan> {
        DedupPlan::build(docs, known, &[], Some(candidates), opts)
    }

    fn build<S: AsRef<str>, T: AsRef<str>>(
        docs: &[(S, T)],
        known: &[Option<u64>],
        sketches: &[Option<Sketch>],
        candidates: Option<Vec<Candidate>>,
        opts: &DedupOptions,
    ) -> Result<DedupPlan> {
        opts.validate()?;
        visible_texts::<&str, &str>(&[], opts)?; // the build can read HTML
        distinct_ids(docs)?;
        let mut hasher = SimHasher::new(opts.fingerprint)?;
        // Sketches serve the band join and the verification by sketches when the
        // candidates are found here (kept by slot, as rows of one buffer); each document's
        // is made in its fingerprint's scan.
        let by_sketch = verifies_by_sketch(opts);
        let here = candidates.is_none();
        let scheme = opts.sketch_scheme().filter(|_| here && (by_sketch || opts.uses_bands()));
        let mut rows: Vec<u8> = Vec::new();
        let mut report = DedupReport::default();
        // The document of each fingerprint (of each slot).
        let mut doc_of: Vec<u32> = Vec::with_capacity(docs.len());
        for (i, (id, text)) in docs.iter().enumerate() {
            let id = id.as_ref();
            let known = known.get(i).copied().flatten();
            let given = sketches.get(i).cloned().flatten();
            // A text is read only for what is not given (a caller may hand over texts it
            // converts on demand), and parsed as HTML only then.
            let read = || -> Result<Cow<'_, str>> { visible(text.as_ref(), opts) };
            let made: Result<(u64, Option<Sketch>)> = match (known, scheme, given) {
                (Some(fp), None, _) => Ok((fp, None)),
                (Some(fp), Some(_), Some(sk)) => Ok((fp, Some(sk))),
                (Some(fp), Some(scheme), None) => {
                    read().and_then(|t| hasher.sketch(&t, scheme)).map(|sk| (fp, Some(sk)))
                }
                (None, None, _) => read().and_then(|t| hasher.fingerprint(&t)).map(|fp| (fp, None)),
                (None, Some(scheme), _) => read()
                    .and_then(|t| hasher.fingerprint_and_sketch(&t, scheme))
                    .map(|(fp, sk)| (fp, Some(sk))),
            };
            match made {
                Ok((fp, sketch)) => {
                    report.fingerprints.push((id.to_owned(), fp));
                    doc_of.push(i as u32);
                    if let Some(sk) = sketch {
                        rows.extend_from_slice(&sk.to_bytes());
                    }
                }
                Err(e) => report.skipped.push((id.to_owned(), e)),
            }
        }
        let n = report.fingerprints.len();
        let layout = opts.layout_for(n)?;
        report.layout = layout.to_string();
        report.k = layout.k();
        if n >= MAX_LEN {
            return Err(too_many());
        }
        let fps: Vec<u64> = report.fingerprints.iter().map(|f| f.1).collect();
        let rows = match scheme {
            Some(scheme) => SketchRows::from_bytes(rows, scheme)?,
            None => SketchRows::default(),
        };
        let candidates = match candidates {
            Some(c) => {
                if let Some(&(x, y, _, _)) = c.iter().find(|&&(x, y, _, _)| x.max(y) as usize >= n) {
                    return Err(Error::option(
                        "candidates",
                        x.max(y),
                        format!("slots of the {n} documents with a fingerprint"),
                    ));
                }
                c
            }
            None => candidate_part(&layout, &fps, &rows, opts, 0, 1),
        };
        drop(rows);
        // The parts' windows, merged: each document keeps its window of the whole.
        // In the order of the rounds (later document, distance, earlier document).
        let merged = at_most_window_each(candidates);
        let estimates = by_sketch.then(|| merged.iter().map(|c| c.3).collect::<Vec<f64>>());
        let candidates: Vec<(u32, u32, u32)> = merged.into_iter().map(|(x, y, d, _)| (x, y, d)).collect();
        let ids: Vec<String> = report.fingerprints.iter().map(|f| f.0.clone()).collect();
        // The texts' lengths, of those in a candidate only (the others are not read).
        let mut sizes = Vec::new();
        if opts.verify.is_some() && !by_sketch {
            sizes = vec![0u32; docs.len()];
            for &(x, y, _) in &candidates {
                for d in [doc_of[x as usize], doc_of[y as usize]] {
                    sizes[d as usize] = u32::try_from(docs[d as usize].1.as_ref().len()).unwrap_or(u32::MAX);
                }
            }
        }
        let (candidates, rounds) = match opts.verify {
            None => (candidates, None),
            Some(threshold) => {
                let listed = by_component(&candidates);
                (Vec::new(), Some(Rounds::new(n, candidates, listed, threshold)))
            }
        };
        let mut plan = DedupPlan {
            ids,
            report,
            opts: opts.clone(),
            candidates,
            rounds,
            doc_of,
            pairs: Vec::new(),
            sizes,
        };
        match (&mut plan.rounds, estimates) {
            // Verified by the sketches' estimates, known already: every round is decided here.
            (Some(rounds), Some(estimates)) => {
                while rounds.len() > 0 {
                    let similarities: Vec<f64> =
                        rounds.indices().iter().map(|&i| estimates[i as usize]).collect();
                    rounds.record(&similarities)?;
                }
            }
            _ => plan.pairs = plan.round_pairs(),
        }
        Ok(plan)
    }

    /// The documents of each pair of this round.
    fn round_pairs(&self) -> Vec<(u32, u32)> {
        let doc = |s: u32| self.doc_of[s as usize];
        self.rounds.iter().flat_map(|r| r.round()).map(|(x, y, _)| (doc(x), doc(y))).collect()
    }

    /// This round's candidate pairs whose texts must be compared, as indices of the given
    /// `docs`: empty once every round is recorded, and from the start without a
    /// verification or when it is by sketches. A pair is measured only while its documents
    /// are not yet joined by pairs verified in earlier rounds, so the rounds' pairs are far
    /// fewer than the candidates in clusters of many copies.
    #[cfg_attr(not(all(target_arch = "wasm32", feature = "crawler")), allow(dead_code))]
    pub fn pairs(&self) -> &[(u32, u32)] {
        &self.pairs
    }

    /// Takes the shingle Jaccard of each pair of [`DedupPlan::pairs`], in its order (as
    /// [`jaccards`] measures them), and makes the next round's pairs. A list of another
    /// length is an [`Error::InvalidOption`] for `jaccards`, and changes nothing.
    pub fn record(&mut self, measured: &[f64]) -> Result<()> {
        match &mut self.rounds {
            Some(rounds) if !self.pairs.is_empty() => rounds.record(measured)?,
            _ if measured.is_empty() => return Ok(()),
            _ => {
                return Err(Error::option(
                    "jaccards",
                    measured.len(),
                    "none: the plan has no pairs left to measure",
                ))
            }
        }
        self.pairs = self.round_pairs();
        Ok(())
    }

    /// [`DedupPlan::pairs`] cut into consecutive runs for `n` workers: the end of each run
    /// (exclusive). Measuring a run shingles each text it names once and holds the shingle
    /// sets until the run ends, so runs are cut by the bytes of the distinct texts they
    /// name: about equal, `n` of them, or more runs of at most about 8 MB each when
    /// the `n` would be larger (a worker's memory stays bounded whatever the collection's
    /// size). Pairs come grouped by component, so a run shares few texts with the next one.
    #[cfg_attr(not(all(target_arch = "wasm32", feature = "crawler")), allow(dead_code))]
    pub fn runs(&self, n: usize) -> Vec<usize> {
        self.runs_of(n, RUN_BYTES, |d| u64::from(self.sizes[d as usize]))
    }

    /// [`DedupPlan::runs`] with the length in bytes of document `d`'s text given by
    /// `size(d)`: for a caller that gave the plan no texts but those it must read (and
    /// reads the others again to measure the pairs).
    #[cfg_attr(not(all(target_arch = "wasm32", feature = "crawler")), allow(dead_code))]
    pub fn runs_sized(&self, n: usize, size: impl Fn(u32) -> u64) -> Vec<usize> {
        self.runs_of(n, RUN_BYTES, size)
    }

    /// [`DedupPlan::runs`] with runs of at most about `most` bytes.
    #[cfg_attr(not(all(target_arch = "wasm32", feature = "crawler")), allow(dead_code))]
    fn runs_of(&self, n: usize, most: u64, size: impl Fn(u32) -> u64) -> Vec<usize> {
        let mut ends = Vec::new();
        if self.pairs.is_empty() {
            return ends;
        }
        let mut seen: HashSet<u32> = HashSet::new();
        let size = |d: u32| size(d).max(1);
        let total: u64 =
            self.pairs.iter().flat_map(|&(a, b)| [a, b]).filter(|&d| seen.insert(d)).map(size).sum();
        let even = total.div_ceil(n.max(1) as u64);
        let capped = even > most;
        let target = even.min(most).max(1);
        seen.clear();
        let mut run = 0u64;
        for (i, &(a, b)) in self.pairs.iter().enumerate() {
            for d in [a, b] {
                if seen.insert(d) {
                    run += size(d);
                }
            }
            if run >= target && (capped || ends.len() + 1 < n) {
                ends.push(i + 1);
                seen.clear();
                run = 0;
            }
        }
        if ends.last() != Some(&self.pairs.len()) {
            ends.push(self.pairs.len());
        }
        ends
    }

    /// The report, once every round is recorded: the clusters, and the verified pairs that
    /// join each of them (without a verification, every candidate pair). Pairs left to
    /// measure are an [`Error::InvalidOption`] for `jaccards`.
    pub fn finish(self) -> Result<DedupReport> {
        if !self.pairs.is_empty() {
            return Err(Error::option(
                "jaccards",
                "missing",
                format!("the similarities of the plan's {} pairs left, given to `record`", self.pairs.len()),
            ));
        }
        match self.rounds {
            None => keep(&self.ids, self.candidates, None, &self.opts, self.report),
            Some(rounds) => {
                let (mut kept, similarities) = rounds.into_kept();
                if ranks_by_estimate(&self.opts) {
                    // The rank stood in for the distance until now.
                    let fp = |s: u32| self.report.fingerprints[s as usize].1;
                    for c in &mut kept {
                        c.2 = hamming(fp(c.0), fp(c.1));
                    }
                }
                keep(&self.ids, kept, Some(&similarities), &self.opts, self.report)
            }
        }
    }

    /// Every candidate, decided or not.
    #[cfg(test)]
    fn all_candidates(&self) -> &[(u32, u32, u32)] {
        self.rounds.as_ref().map_or(&self.candidates, |r| r.candidates())
    }

    /// Measures every round with `measure` (each round's [`DedupPlan::pairs`] to their
    /// Jaccards), then makes the report.
    pub fn verify_with(
        mut self,
        mut measure: impl FnMut(&[(u32, u32)]) -> Result<Vec<f64>>,
    ) -> Result<DedupReport> {
        while !self.pairs.is_empty() {
            let measured = measure(&self.pairs)?;
            self.record(&measured)?;
        }
        self.finish()
    }
}

/// A candidate pair: the slots of its earlier and later document, their fingerprints'
/// Hamming distance, and the estimate of their sketches when the candidate step had them
/// (the band join, a verification by sketches), else 0.
pub type Candidate = (u32, u32, u32, f64);

/// Whether `opts` verify by sketches (`verify: "sketch"`).
fn verifies_by_sketch(opts: &DedupOptions) -> bool {
    opts.verify.is_some() && opts.sketch.is_some()
}

/// Whether the candidates of `opts` come from the band join alone, each at the
/// verification's threshold, with its rank by estimate ([`estimate_rank`]) in place of the
/// distance until the report (a verification by sketches with the band join): such a
/// candidate step reads no fingerprint, and the report reads only those of the documents
/// in a candidate pair (the pairs' distances), so a caller may make those alone, after it
/// (the pool's `__dedupSource`).
pub(crate) fn ranks_by_estimate(opts: &DedupOptions) -> bool {
    verifies_by_sketch(opts) && opts.uses_bands()
}

/// A candidate's place in its document's window when the candidates are ranked by their
/// estimate: 0 for an estimate of 1, up to 255 for 0 (the nearest first, as a distance).
fn estimate_rank(estimate: f64) -> u32 {
    ((1.0 - estimate.clamp(0.0, 1.0)) * 255.0).round() as u32
}

/// A dedup's candidate step over the fingerprints `fps` (those of the documents that have
/// one, in order; a slot is a position in it) and, when the band join gives candidates
/// ([`DedupOptions::uses_bands`]) or the verification is by sketches, their sketches
/// (`sketches`, one row per slot), cut into `parts` parts of about equal work, for as many
/// workers: part `part` (from 0) self-joins its share of the index's tables ([`join_part_kept`]
/// under [`DedupOptions::layout_for`] `fps.len()`) and of the sketches' bands (every
/// `parts`-th, from the `part`-th; the band join leaves out the pairs within `k`, which
/// the tables find), drops the pairs whose sketches' estimate falls more than 0.25 below
/// the threshold, and keeps each document's [`BUCKET_WINDOW`] nearest pairs of its share,
/// each with its sketches' estimate. A verification by sketches with the band join ([`ranks_by_estimate`]) takes
/// the band join's pairs alone instead, those whose estimate reaches the threshold, each
/// document's window by estimate (its rank in place of the distance), and reads no
/// fingerprint. The parts, concatenated in any order, are what
/// [`DedupPlan::with_candidates`] takes; the document's window of the whole is among the
/// union of its windows of the parts, so the plan's report is the same for any number of
/// parts.
///
/// `part` not below `parts`, or sketches missing or of another scheme when they are
/// needed, are an [`Error::InvalidOption`] for `part` or `sketches`.
#[cfg_attr(not(all(target_arch = "wasm32", feature = "crawler")), allow(dead_code))]
pub fn candidates(
    fps: &[u64],
    sketches: &SketchRows,
    opts: &DedupOptions,
    part: usize,
    parts: usize,
) -> Result<Vec<Candidate>> {
    opts.validate()?;
    if part >= parts {
        let expected = match parts {
            0 => "a part of at least one".to_string(),
            _ => format!("a part from 0 to {} (of {parts} parts)", parts - 1),
        };
        return Err(Error::option("part", part, expected));
    }
    let needed = opts.uses_bands() || verifies_by_sketch(opts);
    if needed
        && (sketches.len() != fps.len() || (!fps.is_empty() && sketches.scheme() != opts.sketch_scheme()))
    {
        let scheme = opts.sketch_scheme().map_or_else(String::new, |s| s.describe());
        return Err(Error::option(
            "sketches",
            sketches.len(),
            format!(
                "one {scheme} sketch per fingerprint ({}) for the band join or the verification",
                fps.len()
            ),
        ));
    }
    Ok(candidate_part(&opts.layout_for(fps.len())?, fps, sketches, opts, part, parts))
}

/// [`candidates`] with the layout and the sketches checked: `sketches` is empty or holds
/// one sketch per slot, and is used only with [`DedupOptions::uses_bands`] or a
/// verification by sketches.
fn candidate_part(
    layout: &crate::index::Layout,
    fps: &[u64],
    sketches: &SketchRows,
    opts: &DedupOptions,
    part: usize,
    parts: usize,
) -> Vec<Candidate> {
    // Every `parts`-th table and band: the first ones find the most pairs (a pair comes
    // from the first table or band that holds it), so a cut into ranges would give the
    // first part most of the work.
    let share = |total: usize| (part.min(total)..total).step_by(parts.max(1));
    let banded = opts.uses_bands() && !sketches.is_empty();
    if ranks_by_estimate(opts) {
        // The verification keeps the pairs whose estimate reaches the threshold: the band
        // join's pairs below it are dropped as they are found. The table join is not run
        // and the fingerprints are not read: a pair within `k` bits that shares no band and
        // still reaches the threshold is rare (decision record 095 measures it).
        let mut found: Vec<Candidate> = Vec::new();
        if let Some(scheme) = sketches.scheme().filter(|_| banded) {
            let threshold = EstimateFloor::new(opts.verify.unwrap_or(0.0), scheme);
            each_band_pair(sketches, share(band_count(sketches)), |x, y| {
                if let Some(e) =
                    threshold.reaching(sketches.payload(x as usize), sketches.payload(y as usize))
                {
                    found.push((x, y, estimate_rank(e), e));
                }
            });
        }
        return at_most_window_each(found);
    }
    // The band join's pairs pass the prefilter as they are found, and so do the table
    // join's when there is a band join: only the pairs worth measuring are held.
    let worth = Prefilter::new(sketches, opts.verify.filter(|_| banded));
    // Each pair as (earlier, later), whichever step and part found it; a table lists the
    // window of each later document (by distance, then earliest), which is all that
    // `at_most_window_each` keeps.
    let mut found: Vec<Candidate> = join_part_kept(
        layout,
        fps,
        share(join_tables(layout)),
        BUCKET_WINDOW,
        |a, b| worth.alike(a, b),
        |x, y, d| worth.keep((x, y, d, 0.0)).map(|c| c.3),
    );
    if banded {
        // A pair within `k` is the table join's (which finds every such pair), whichever
        // part holds its table: the band join skips it before estimating it again.
        let k = layout.k();
        each_band_pair(sketches, share(band_count(sketches)), |x, y| {
            let d = hamming(fps[x as usize], fps[y as usize]);
            if d > k {
                found.extend(worth.keep((x, y, d, 0.0)));
            }
        });
    }
    let mut found = at_most_window_each(found);
    if verifies_by_sketch(opts) && !banded && !sketches.is_empty() {
        estimate_each(&mut found, sketches);
    }
    found
}

/// Each candidate's sketches' estimate, in its last field.
fn estimate_each(candidates: &mut [Candidate], sketches: &SketchRows) {
    for c in candidates {
        c.3 = estimate_payloads(sketches.payload(c.0 as usize), sketches.payload(c.1 as usize));
    }
}

/// The most bytes of text one run of [`DedupPlan::runs`] names (about): its shingle sets
/// take about 8 bytes a shingle and a shingle a byte of English (a third of that for
/// Chinese), so a worker measuring a run holds about 70 MB of them.
#[cfg_attr(not(all(target_arch = "wasm32", feature = "crawler")), allow(dead_code))]
const RUN_BYTES: u64 = 8 << 20;

/// How far below the verification threshold a candidate's sketch estimate may be and the
/// pair still be measured on the texts: the estimate of a 128-byte sketch errs by about
/// 0.04 (one standard deviation) near Jaccard 0.8, and less for short texts, where the odd
/// sketch is near-exact, so a pair at the threshold is dropped with odds below one in a
/// million.
pub(crate) const PREFILTER_MARGIN: f64 = 0.25;

/// Which candidates are worth measuring: those whose sketches' estimate comes within
/// [`PREFILTER_MARGIN`] of the verification threshold (all of them without sketches or a
/// verification). Pairs that share a band, or sit within `k`, because they share a common
/// part (a licence header, a template) and are otherwise far apart cost a sketch
/// comparison instead of two texts' shingles.
struct Prefilter<'s> {
    sketches: &'s SketchRows,
    floor: Option<EstimateFloor>,
}

impl<'s> Prefilter<'s> {
    fn new(sketches: &'s SketchRows, verify: Option<f64>) -> Prefilter<'s> {
        let floor = verify
            .zip(sketches.scheme().filter(|_| !sketches.is_empty()))
            .map(|(t, scheme)| EstimateFloor::new(t - PREFILTER_MARGIN, scheme));
        Prefilter { sketches, floor }
    }

    /// Whether `keep` answers alike for documents `a` and `b` with any third: always
    /// without a floor, else when their sketches are equal.
    fn alike(&self, a: u32, b: u32) -> bool {
        self.floor.is_none() || self.sketches.payload(a as usize) == self.sketches.payload(b as usize)
    }

    /// `c` when it is worth measuring, with its estimate in its last field when there is a
    /// floor to compare it with.
    fn keep(&self, mut c: Candidate) -> Option<Candidate> {
        let Some(floor) = &self.floor else { return Some(c) };
        c.3 = floor.reaching(self.sketches.payload(c.0 as usize), self.sketches.payload(c.1 as usize))?;
        Some(c)
    }
}

/// `candidates` with each pair once and each document paired with at most
/// [`BUCKET_WINDOW`] documents before it, the nearest first by the third field (the Hamming
/// distance, or the rank by estimate: [`ranks_by_estimate`]), then the earliest: a
/// document copied a thousand times costs the window per copy, not half a million
/// verifications, and the copies still join one cluster. A document with fewer candidates
/// keeps them all.
fn at_most_window_each(mut candidates: Vec<Candidate>) -> Vec<Candidate> {
    let later = |c: &Candidate| c.0.max(c.1);
    // A pair given twice (the parts hold none twice; a caller's list may) sorts next to
    // itself: one pair has one distance.
    sort_in_order(&mut candidates, |&(x, y, d, _)| (x, y, d));
    // Kept in place: the first `kept` entries are the kept ones, in order.
    let mut kept = 0;
    let mut run = (u32::MAX, 0usize);
    let key = |c: &Candidate| (c.0.max(c.1), c.0.min(c.1));
    for i in 0..candidates.len() {
        let c = candidates[i];
        if kept > 0 && key(&candidates[kept - 1]) == key(&c) {
            continue;
        }
        run = if run.0 == later(&c) { (run.0, run.1 + 1) } else { (later(&c), 1) };
        if run.1 <= BUCKET_WINDOW {
            candidates[kept] = c;
            kept += 1;
        }
    }
    candidates.truncate(kept);
    candidates
}

/// [`at_most_window_each`] of candidates without estimates.
pub(crate) fn window_each(candidates: Vec<(u32, u32, u32)>) -> Vec<(u32, u32, u32)> {
    let with: Vec<Candidate> = candidates.into_iter().map(|(x, y, d)| (x, y, d, 0.0)).collect();
    at_most_window_each(with).into_iter().map(|(x, y, d, _)| (x, y, d)).collect()
}

/// `Ok` when every document has its own id: a report names documents by id, so two
/// documents with one id would read as one; else [`Error::DuplicateId`] for the first repeat.
fn distinct_ids<S: AsRef<str>, T>(docs: &[(S, T)]) -> Result<()> {
    let mut ids: HashSet<&str> = HashSet::with_capacity(docs.len());
    match docs.iter().find(|(id, _)| !ids.insert(id.as_ref())) {
        Some((id, _)) => Err(Error::DuplicateId { id: crate::error::quoted(id.as_ref()) }),
        None => Ok(()),
    }
}

/// The indices of `candidates` ordered by the connected component they belong to (stably),
/// so that a run of pairs listed in this order names few documents: a caller that measures
/// the pairs in runs (the worker pool) shingles most documents once, not once per run.
fn by_component(candidates: &[(u32, u32, u32)]) -> Vec<u32> {
    let n = candidates.iter().map(|&(x, y, _)| x.max(y) as usize + 1).max().unwrap_or(0);
    let roots = component_roots(n, candidates.iter().map(|&(x, y, _)| (x, y)));
    let mut listed: Vec<u32> = (0..candidates.len() as u32).collect();
    crate::sort::sort_by_u64_key_stable(&mut listed, |&i| {
        u64::from(roots[candidates[i as usize].0 as usize])
    });
    listed
}

/// The exact shingle Jaccard ([`crate::verify::ShingleSet::jaccard`], `opts.shingle`
/// grapheme clusters, of the text read with `opts.html` and `opts.content`) of each pair of
/// `texts` given by index, in order. Each text is shingled once, and only if some pair
/// names it. An index past the end is an [`Error::InvalidOption`] for `pairs`; a text with
/// no shingle gives its error.
pub fn jaccards<T: AsRef<str>>(texts: &[T], pairs: &[(u32, u32)], opts: &DedupOptions) -> Result<Vec<f64>> {
    check_shingle(opts.shingle)?;
    measure(pairs.iter().copied(), opts.shingle, |i| match texts.get(i as usize) {
        Some(text) => visible(text.as_ref(), opts),
        None => Err(Error::option("pairs", i, format!("indices of the {} texts", texts.len()))),
    })
}

/// The text read of one document with `opts.html`, else the text itself.
fn visible<'t>(text: &'t str, opts: &DedupOptions) -> Result<Cow<'t, str>> {
    if !opts.html {
        return Ok(Cow::Borrowed(text));
    }
    Ok(Cow::Owned(visible_texts(&[((), text)], opts)?.remove(0)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dedup::{dedup, dedup_into};

    #[test]
    fn a_plan_measured_step_by_step_reports_what_dedup_reports() -> Result<()> {
        let docs = [
            ("a", "The quick brown fox jumps over the lazy dog, again and again and again."),
            ("b", "The quick brown fox jumps over the lazy dog, again and again and again!"),
            ("c", "Pack my box with five dozen liquor jugs, said the sphinx of black quartz."),
        ];
        let opts = DedupOptions::default();
        let mut plan = DedupPlan::new(&docs, &[], &opts)?;
        assert_eq!(plan.pairs(), &[(0, 1)]); // documents 0 and 1 are candidates
        let texts: Vec<&str> = docs.iter().map(|d| d.1).collect();
        let measured = jaccards(&texts, plan.pairs(), &opts)?;
        assert!(measured[0] > 0.8);
        plan.record(&measured)?;
        assert!(plan.pairs().is_empty()); // no round is left
        assert_eq!(plan.finish()?, dedup(&docs, &opts)?);
        Ok(())
    }
    use crate::index::{Index, Layout};
    use crate::sketch::estimate;
    use crate::sketch::SketchScheme;
    use crate::test_rng::Rng;
    use crate::verify::ShingleSet;
    use std::collections::HashMap;

    /// 40 groups: a text of random words, copies with 1 to 12 of its 50 words changed (so
    /// some candidates pass the threshold and some do not), and an empty document.
    fn docs(seed: u64) -> Vec<(String, String)> {
        let mut rng = Rng(seed);
        let word = |rng: &mut Rng| -> String {
            (0..2 + rng.below(6)).map(|_| char::from(b'a' + rng.below(26) as u8)).collect()
        };
        let mut out = vec![("empty".to_string(), " ".to_string())];
        for g in 0..40 {
            let base: Vec<String> = (0..50).map(|_| word(&mut rng)).collect();
            out.push((format!("{g}-0"), base.join(" ")));
            for c in 1..=1 + rng.below(4) {
                let mut copy = base.clone();
                for _ in 0..1 + rng.below(12) {
                    let at = rng.below(50) as usize;
                    copy[at] = word(&mut rng);
                }
                out.push((format!("{g}-{c}"), copy.join(" ")));
            }
        }
        out
    }

    /// Measures `plan`'s pairs as the worker pool does: cut into pieces, each with only its
    /// own texts, indexed afresh.
    fn measure_in_pieces(
        docs: &[(String, String)],
        plan: &DedupPlan,
        pieces: usize,
        opts: &DedupOptions,
    ) -> Vec<f64> {
        let pairs = plan.pairs();
        let mut out = Vec::new();
        for chunk in pairs.chunks(pairs.len().div_ceil(pieces).max(1)) {
            let mut local: HashMap<u32, u32> = HashMap::new();
            let mut texts: Vec<&str> = Vec::new();
            let mut at = |d: u32| {
                *local.entry(d).or_insert_with(|| {
                    texts.push(&docs[d as usize].1);
                    texts.len() as u32 - 1
                })
            };
            let local_pairs: Vec<(u32, u32)> = chunk.iter().map(|&(a, b)| (at(a), at(b))).collect();
            out.extend(jaccards(&texts, &local_pairs, opts).unwrap());
        }
        out
    }

    /// Every round of `plan` measured in pieces, as the worker pool does, then the report.
    fn finish_in_pieces(
        docs: &[(String, String)],
        plan: DedupPlan,
        pieces: usize,
        opts: &DedupOptions,
    ) -> DedupReport {
        let mut plan = plan;
        while !plan.pairs().is_empty() {
            let measured = measure_in_pieces(docs, &plan, pieces, opts);
            plan.record(&measured).unwrap();
        }
        plan.finish().unwrap()
    }

    /// The plan measured in pieces gives the report of the path that verifies inside the
    /// self-join (`dedup_into` on an empty index of the same layout), for several options.
    #[test]
    fn a_plan_measured_in_pieces_gives_the_verifying_paths_report() {
        for (seed, verify, k) in
            [(1, Some(0.8), Some(12)), (2, Some(0.6), Some(16)), (3, None, Some(10)), (4, Some(0.8), None)]
        {
            let docs = docs(seed);
            // The index path has no band join: the plan is compared without it.
            let opts = DedupOptions { verify, k, bands: false, ..DedupOptions::default() };
            let plan = DedupPlan::new(&docs, &[], &opts).unwrap();
            let layout = Layout::auto(
                docs.len() - 1,
                k.unwrap_or_else(|| DedupOptions::k_for_size(docs.len() - 1)),
                None,
            )
            .unwrap();
            let mut index = Index::new(layout);
            let want = dedup_into(&mut index, &docs, &opts).unwrap();
            assert_eq!(plan.pairs().is_empty(), verify.is_none());
            let got = finish_in_pieces(&docs, plan, 7, &opts);
            assert_eq!(got, dedup(&docs, &opts).unwrap());
            // The index numbers its slots in its own order, so its rounds may pick another
            // spanning tree of the same clusters: the same report but for which pairs.
            let tree = |r: &DedupReport| DedupReport { pairs: Vec::new(), ..r.clone() };
            assert_eq!(tree(&got), tree(&want), "seed {seed}");
            assert_eq!(got.pairs.len(), want.pairs.len(), "seed {seed}");
            if let Some(threshold) = verify {
                let joined: usize = got.clusters.iter().map(|c| c.len() - 1).sum();
                assert_eq!(got.pairs.len(), joined, "seed {seed}: a spanning forest");
                let text = |id: &str| &docs.iter().find(|d| d.0 == id).unwrap().1;
                for p in got.pairs.iter().chain(&want.pairs) {
                    let j = jaccards(&[text(&p.a), text(&p.b)], &[(0, 1)], &opts).unwrap()[0];
                    assert!(p.jaccard == Some(j) && j >= threshold, "seed {seed}: {p:?}");
                }
            }
            if verify.is_some() {
                let dropped = got.pairs.len() < index.self_join().len();
                assert!(
                    dropped && got.pairs.len() > 20,
                    "seed {seed}: {} kept of {}",
                    got.pairs.len(),
                    index.self_join().len()
                );
            }
        }
    }

    /// `docs(seed)` and 150 copies of one of its texts, a word of each changed (or none):
    /// buckets and windows longer than [`BUCKET_WINDOW`].
    fn docs_with_mirrors(seed: u64) -> Vec<(String, String)> {
        let mut out = docs(seed);
        let mut rng = Rng(seed + 100);
        let words: Vec<String> = out[1].1.split(' ').map(str::to_string).collect();
        for m in 0..150 {
            let mut copy = words.clone();
            if m % 3 != 0 {
                let at = rng.below(copy.len() as u64) as usize;
                copy[at] = format!("w{}", rng.below(1000));
            }
            out.push((format!("m{m:03}"), copy.join(" ")));
        }
        out
    }

    /// Fingerprints and sketches as the pool's workers make them: `known` per document,
    /// and the fingerprints and sketches of those that have one, in order.
    #[allow(clippy::type_complexity)]
    fn made(docs: &[(String, String)]) -> (Vec<Option<u64>>, Vec<u64>, Vec<Sketch>) {
        made_as(docs, SketchScheme::default())
    }

    /// [`made`] with sketches of `scheme`.
    #[allow(clippy::type_complexity)]
    fn made_as(docs: &[(String, String)], scheme: SketchScheme) -> (Vec<Option<u64>>, Vec<u64>, Vec<Sketch>) {
        let mut hasher = SimHasher::new(crate::fingerprint::Options::default()).unwrap();
        let made: Vec<Option<(u64, Sketch)>> =
            docs.iter().map(|(_, t)| hasher.fingerprint_and_sketch(t, scheme).ok()).collect();
        let known = made.iter().map(|m| m.as_ref().map(|x| x.0)).collect();
        let fps = made.iter().flatten().map(|x| x.0).collect();
        let sketches = made.into_iter().flatten().map(|x| x.1).collect();
        (known, fps, sketches)
    }

    /// The candidate step cut into any number of parts, given in any order, gives the plan
    /// and the report of the one-thread step; a part left out changes them. With a
    /// verification by sketches, the parts' estimates are each kept pair's estimate.
    #[test]
    fn candidates_found_in_parts_give_the_one_thread_plan() {
        for (seed, verify, k, bands, by_sketch) in [
            (11, Some(0.8), Some(12), false, false),
            (12, None, Some(10), true, false),
            (13, Some(0.7), None, false, false),
            (14, Some(0.8), None, true, false),
            (15, Some(0.8), Some(2), true, false),
            (16, Some(0.81), None, true, true),
            (17, Some(0.7), Some(12), false, true),
        ] {
            let docs = docs_with_mirrors(seed);
            let sketch = by_sketch.then(SketchScheme::default);
            let opts = DedupOptions { verify, k, bands, sketch, ..DedupOptions::default() };
            let (known, fps, owned) = made(&docs);
            let sketches = SketchRows::from_sketches(&owned);
            assert_eq!(fps.len(), docs.len() - 1, "the empty document has none");
            let want = DedupPlan::new(&docs, &known, &opts).unwrap();
            let report = dedup(&docs, &opts).unwrap();
            let mut per_doc: HashMap<u32, usize> = HashMap::new();
            for c in want.all_candidates() {
                *per_doc.entry(c.1).or_default() += 1;
            }
            let full = per_doc.values().filter(|&&m| m == BUCKET_WINDOW).count();
            assert!(full >= 30, "seed {seed}: {full} documents with a full window");
            for parts in [1, 2, 3, 5, 8] {
                let mut found = Vec::new();
                for part in (0..parts).rev() {
                    found.extend(candidates(&fps, &sketches, &opts, part, parts).unwrap());
                }
                let plan = DedupPlan::with_candidates(&docs, &known, found, &opts).unwrap();
                assert_eq!(plan.all_candidates(), want.all_candidates(), "seed {seed}, {parts} parts");
                assert_eq!(plan.pairs(), want.pairs());
                assert_eq!(finish_in_pieces(&docs, plan, 3, &opts), report, "seed {seed}, {parts} parts");
            }
            assert!(
                report.pairs.len() > 20 && report.skipped.len() == 1,
                "seed {seed}: {} pairs",
                report.pairs.len()
            );
            if by_sketch {
                // Each kept pair's similarity is its sketches' estimate, at the threshold.
                let slot = |id: &str| report.fingerprints.iter().position(|f| f.0 == id).unwrap();
                for p in &report.pairs {
                    let j = p.jaccard.unwrap();
                    assert_eq!(j, estimate(&owned[slot(&p.a)], &owned[slot(&p.b)]), "seed {seed}");
                    assert!(j >= verify.unwrap(), "seed {seed}: {j}");
                }
                assert!(want.pairs().is_empty(), "no text is read");
            }
            // One part of eight alone misses pairs.
            let partial = candidates(&fps, &sketches, &opts, 0, 8).unwrap();
            let part = DedupPlan::with_candidates(&docs, &known, partial, &opts).unwrap();
            let fewer = finish_in_pieces(&docs, part, 1, &opts).pairs.len();
            assert!(fewer < report.pairs.len(), "seed {seed}: {fewer} of {} pairs", report.pairs.len());
        }
        let docs = docs(16);
        let (known, fps, sketches) = made(&docs);
        let opts = DedupOptions::default();
        let rows = SketchRows::from_sketches(&sketches);
        let bad = vec![(0, fps.len() as u32, 3, 0.0)];
        let e = DedupPlan::with_candidates(&docs, &known, bad, &opts).unwrap_err();
        assert!(e.to_string().contains("candidates") && e.to_string().contains("slots of the"), "{e}");
        let e = candidates(&fps, &rows, &opts, 2, 2).unwrap_err();
        assert!(e.to_string().contains("`part`") && e.to_string().contains("from 0 to 1"), "{e}");
        assert!(candidates(&fps, &rows, &opts, 0, 0).is_err());
        let e = candidates(&fps, &SketchRows::from_sketches(&sketches[1..]), &opts, 0, 1).unwrap_err();
        assert!(e.to_string().contains("`sketches`"), "{e}");
        let other = SketchRows::from_sketches(&made_as(&docs, SketchScheme::new(64).unwrap()).2);
        let e = candidates(&fps, &other, &opts, 0, 1).unwrap_err();
        assert!(e.to_string().contains("sk1:128"), "{e}");
    }

    /// The candidate step against its definition, pair by pair: within `k`, or sharing a
    /// band (from the first band they share, within the window of its bucket in document
    /// order), with a sketch estimate within [`PREFILTER_MARGIN`] of the threshold, and
    /// each document's [`BUCKET_WINDOW`] nearest (then earliest) such pairs.
    #[test]
    fn the_candidate_step_meets_its_naive_oracle() {
        use crate::sketch::bands::{band_key, bands_for};
        for (seed, k) in [(21, 4), (22, 7)] {
            let docs = docs_with_mirrors(seed);
            let (_, fps, sk) = made(&docs);
            let opts = DedupOptions { k: Some(k), ..DedupOptions::default() };
            let n = fps.len();
            let bands = bands_for(SketchScheme::default());
            // The rank of a document in its bucket of band b: the earlier members.
            let rank =
                |d: usize, b: usize| (0..d).filter(|&e| band_key(&sk[e], b) == band_key(&sk[d], b)).count();
            let mut want: Vec<(u32, u32, u32)> = Vec::new();
            for y in 0..n {
                let mut mine = Vec::new();
                for x in 0..y {
                    let d = hamming(fps[x], fps[y]);
                    let first = (0..bands).find(|&b| band_key(&sk[x], b) == band_key(&sk[y], b));
                    let banded = first.is_some_and(|b| rank(y, b) - rank(x, b) <= BUCKET_WINDOW);
                    if (d <= k || banded) && estimate(&sk[x], &sk[y]) >= 0.8 - PREFILTER_MARGIN {
                        mine.push((d, x as u32));
                    }
                }
                mine.sort_unstable();
                want.extend(mine.into_iter().take(BUCKET_WINDOW).map(|(d, x)| (x, y as u32, d)));
            }
            let rows = SketchRows::from_sketches(&sk);
            let mut got: Vec<(u32, u32, u32)> =
                candidates(&fps, &rows, &opts, 0, 1).unwrap().into_iter().map(|c| (c.0, c.1, c.2)).collect();
            got.sort_unstable_by_key(|&(x, y, _)| (y, x));
            want.sort_unstable_by_key(|&(x, y, _)| (y, x));
            assert_eq!(got, want, "seed {seed}");
            assert!(want.len() > 50 * BUCKET_WINDOW, "seed {seed}: {}", want.len());
        }
    }

    /// With a verification by sketches and the band join, the candidate step meets its
    /// oracle, written from its definition: the pairs sharing a band (the later document
    /// among the window of members after the earlier one in the first band they share)
    /// whose estimate reaches the threshold, each document's [`BUCKET_WINDOW`] highest
    /// estimates (by rank, then the earliest document), the rank in place of the distance.
    /// The fingerprints are not read: zeros give the same candidates.
    #[test]
    fn the_sketch_flows_candidate_step_meets_its_naive_oracle() {
        use crate::sketch::bands::{band_key, bands_for};
        for (seed, threshold) in [(21, 0.81), (22, 0.5)] {
            let docs = docs_with_mirrors(seed);
            let (_, fps, sk) = made(&docs);
            let opts = DedupOptions {
                verify: Some(threshold),
                sketch: Some(SketchScheme::default()),
                ..DedupOptions::default()
            };
            let n = fps.len();
            let bands = bands_for(SketchScheme::default());
            let rank =
                |d: usize, b: usize| (0..d).filter(|&e| band_key(&sk[e], b) == band_key(&sk[d], b)).count();
            let mut want: Vec<Candidate> = Vec::new();
            let mut below = 0;
            for y in 0..n {
                let mut mine = Vec::new();
                for x in 0..y {
                    let first = (0..bands).find(|&b| band_key(&sk[x], b) == band_key(&sk[y], b));
                    if first.is_none_or(|b| rank(y, b) - rank(x, b) > BUCKET_WINDOW) {
                        continue;
                    }
                    let e = estimate(&sk[x], &sk[y]);
                    if e >= threshold {
                        mine.push((((1.0 - e) * 255.0).round() as u32, x as u32, e));
                    } else {
                        below += 1;
                    }
                }
                mine.sort_by_key(|a| (a.0, a.1));
                want.extend(mine.into_iter().take(BUCKET_WINDOW).map(|(r, x, e)| (x, y as u32, r, e)));
            }
            let rows = SketchRows::from_sketches(&sk);
            let got = candidates(&fps, &rows, &opts, 0, 1).unwrap();
            assert_eq!(got, want, "seed {seed}");
            assert_eq!(
                candidates(&vec![0; n], &rows, &opts, 0, 1).unwrap(),
                want,
                "seed {seed}: no fingerprint read"
            );
            assert!(
                want.len() > 20 * BUCKET_WINDOW && below > 0,
                "seed {seed}: {} kept, {below} below",
                want.len()
            );
        }
    }

    /// The sketch flow's report gives each pair the Hamming distance of its documents'
    /// fingerprints (the rank by estimate ordered the candidates only), and finds pairs far
    /// apart in bits.
    #[test]
    fn the_sketch_flows_pairs_carry_their_distances() {
        let docs = docs_with_mirrors(23);
        let opts = DedupOptions {
            verify: Some(0.81),
            sketch: Some(SketchScheme::default()),
            ..DedupOptions::default()
        };
        let report = dedup(&docs, &opts).unwrap();
        let fp = |id: &str| report.fingerprints.iter().find(|f| f.0 == id).unwrap().1;
        assert!(report.pairs.len() > 100, "{}", report.pairs.len());
        for p in &report.pairs {
            assert_eq!(p.distance, hamming(fp(&p.a), fp(&p.b)), "{p:?}");
        }
        assert!(report.pairs.iter().any(|p| p.distance > report.k), "a pair beyond k");
    }

    /// The prefilter drops a pair whose sketches are far apart and keeps one near the
    /// threshold, against the exact Jaccard.
    #[test]
    fn the_prefilter_keeps_what_could_reach_the_threshold() {
        let all = docs(31);
        let mut h = SimHasher::new(crate::fingerprint::Options::default()).unwrap();
        let texts: Vec<&str> = all.iter().skip(1).map(|d| d.1.as_str()).collect();
        let sketches: Vec<Sketch> =
            texts.iter().map(|t| h.sketch(t, SketchScheme::default()).unwrap()).collect();
        let n = texts.len() as u32;
        let sketches = SketchRows::from_sketches(&sketches);
        let every: Vec<Candidate> = (0..n).flat_map(|y| (0..y).map(move |x| (x, y, 0, 0.0))).collect();
        let worth = |sketches: &SketchRows, verify: Option<f64>| -> Vec<Candidate> {
            let p = Prefilter::new(sketches, verify);
            every.iter().filter_map(|&c| p.keep(c)).collect()
        };
        let kept: Vec<(u32, u32, u32)> =
            worth(&sketches, Some(0.8)).into_iter().map(|c| (c.0, c.1, c.2)).collect();
        let (mut near, mut far) = (0, 0);
        for &(x, y, _, _) in &every {
            let j = ShingleSet::new(texts[x as usize], 4)
                .unwrap()
                .jaccard(&ShingleSet::new(texts[y as usize], 4).unwrap());
            let in_kept = kept.contains(&(x, y, 0));
            if j >= 0.7 {
                near += 1;
                assert!(in_kept, "({x}, {y}) J {j} dropped");
            } else if j < 0.3 {
                far += 1;
                assert!(!in_kept, "({x}, {y}) J {j} kept");
            }
        }
        assert!(near > 20 && far > 1000, "{near} near, {far} far");
        assert_eq!(worth(&sketches, None), every, "no verification, no filter");
        assert_eq!(worth(&SketchRows::default(), Some(0.8)), every, "no sketches, no filter");
    }

    /// A page mirrored 300 times: every copy is within k of every other, yet each is a
    /// candidate of at most the window of copies before it, one pair a copy is measured,
    /// and all form one cluster, joined by 299 pairs.
    #[test]
    fn a_mirrored_page_costs_the_window_per_copy() {
        let page = docs(21)[1].1.clone();
        let mut all: Vec<(String, String)> = (0..300).map(|i| (format!("m{i:03}"), page.clone())).collect();
        all.extend(docs(22).into_iter().skip(1));
        for bands in [true, false] {
            let opts = DedupOptions { bands, ..DedupOptions::default() };
            let plan = DedupPlan::new(&all, &[], &opts).unwrap();
            let mirror = plan.all_candidates().iter().filter(|p| p.0 < 300 && p.1 < 300).count();
            let window: usize = (1..300).map(|j| j.min(BUCKET_WINDOW)).sum();
            assert_eq!(mirror, window, "bands {bands}");
            let texts: Vec<&str> = all.iter().map(|d| d.1.as_str()).collect();
            let mut measured = 0;
            let report = plan
                .verify_with(|pairs| {
                    measured += pairs.iter().filter(|p| p.0 < 300 && p.1 < 300).count();
                    jaccards(&texts, pairs, &opts)
                })
                .unwrap();
            assert_eq!(measured, 299, "bands {bands}");
            let big = report.clusters.iter().find(|c| c[0] == "m000").unwrap();
            assert_eq!(big.len(), 300, "bands {bands}");
            let joining =
                report.pairs.iter().filter(|p| p.a.starts_with('m') && p.b.starts_with('m')).count();
            assert_eq!(joining, 299, "bands {bands}");
        }
    }

    #[test]
    fn runs_cut_the_pairs_by_the_bytes_they_name() {
        let docs = docs(8);
        let plan =
            DedupPlan::new(&docs, &[], &DedupOptions { k: Some(14), ..DedupOptions::default() }).unwrap();
        let pairs = plan.pairs();
        assert!(pairs.len() > 40);
        let bytes = |run: &[(u32, u32)]| -> usize {
            let mut ds: Vec<u32> = run.iter().flat_map(|&(a, b)| [a, b]).collect();
            ds.sort_unstable();
            ds.dedup();
            ds.iter().map(|&d| docs[d as usize].1.len()).sum()
        };
        for n in [1, 2, 3, 8] {
            let ends = plan.runs(n);
            assert_eq!(plan.runs_sized(n, |d| docs[d as usize].1.len() as u64), ends);
            assert_ne!(plan.runs_sized(n.max(2), |d| u64::from(d % 2) * 1000), plan.runs(n.max(2)));
            assert!(!ends.is_empty() && ends.len() <= n, "{n}: {ends:?}");
            assert_eq!(*ends.last().unwrap(), pairs.len());
            assert!(ends.windows(2).all(|w| w[0] < w[1]), "{ends:?}");
            let ideal = bytes(pairs) / n;
            let mut start = 0;
            for &end in &ends {
                let b = bytes(&pairs[start..end]);
                let last = bytes(&pairs[end - 1..end]);
                assert!(b <= 2 * ideal + last, "{n}: run {start}..{end} names {b} bytes, ideal {ideal}");
                start = end;
            }
        }
        // Runs of at most about `most` bytes: more of them, each within a pair of the bound.
        let most = (bytes(pairs) / 10) as u64;
        let ends = plan.runs_of(2, most, |d| docs[d as usize].1.len() as u64);
        assert!(ends.len() >= 8, "{ends:?}");
        assert_eq!(*ends.last().unwrap(), pairs.len());
        let mut start = 0;
        for &end in &ends {
            let b = bytes(&pairs[start..end]) as u64;
            assert!(
                b <= most + bytes(&pairs[end - 1..end]) as u64,
                "run {start}..{end} names {b} bytes of {most}"
            );
            start = end;
        }
        assert_eq!(
            DedupPlan::new(&docs, &[], &DedupOptions::fingerprints_only()).unwrap().runs(4),
            Vec::<usize>::new()
        );
    }

    /// HTML: with the fingerprints known (the pool's case) the plan parses no page, the
    /// workers' measurement parses the pages of the pairs, and the report is the one-thread
    /// one (which parses every page once).
    #[cfg(feature = "html")]
    #[test]
    fn html_pages_with_known_fingerprints_give_the_one_thread_report() {
        let docs: Vec<(String, String)> = docs(9)
            .into_iter()
            .map(|(id, t)| {
                (id.clone(), format!("<html><body><p>{t}</p><script>var x = '{id}';</script></body></html>"))
            })
            .collect();
        let opts = DedupOptions { k: Some(12), html: true, ..DedupOptions::default() };
        let mut hasher = SimHasher::new(opts.fingerprint).unwrap();
        let known: Vec<Option<u64>> =
            docs.iter().map(|(_, t)| hasher.fingerprint(&crate::html::html_to_text(t)).ok()).collect();
        let plan = DedupPlan::new(&docs, &known, &opts).unwrap();
        let got = finish_in_pieces(&docs, plan, 3, &opts);
        assert_eq!(got, dedup(&docs, &opts).unwrap());
        assert!(
            got.pairs.len() > 20 && got.skipped.len() == 1,
            "{} pairs, {} skipped",
            got.pairs.len(),
            got.skipped.len()
        );
    }

    /// Verification by sketches: sketches made elsewhere (the pool's workers) give the
    /// report of those made here, and are used (a wrong one changes it).
    #[test]
    fn given_sketches_give_the_report_of_sketches_made_here() {
        let docs = docs(10);
        let opts =
            DedupOptions { k: Some(14), sketch: Some(SketchScheme::default()), ..DedupOptions::default() };
        let mut hasher = SimHasher::new(opts.fingerprint).unwrap();
        let made: Vec<Option<(u64, Sketch)>> = docs
            .iter()
            .map(|(_, t)| hasher.fingerprint_and_sketch(t, SketchScheme::default()).ok())
            .collect();
        let known: Vec<Option<u64>> = made.iter().map(|m| m.as_ref().map(|x| x.0)).collect();
        let sketches: Vec<Option<Sketch>> = made.iter().map(|m| m.as_ref().map(|x| x.1.clone())).collect();
        let plan = DedupPlan::with_sketches(&docs, &known, &sketches, &opts).unwrap();
        assert!(plan.pairs().is_empty());
        let got = plan.finish().unwrap();
        assert_eq!(got, dedup(&docs, &opts).unwrap());
        assert!(got.pairs.len() > 20 && got.skipped.len() == 1, "{} pairs", got.pairs.len());
        // One document's sketch swapped for an unrelated one's: its pairs change.
        let mut wrong = sketches.clone();
        let (a, b) = (got.pairs[0].a.clone(), got.pairs[0].b.clone());
        let at = |id: &str| docs.iter().position(|d| d.0 == id).unwrap();
        let group = |id: &str| id.split('-').next().unwrap().to_string();
        let other = (1..docs.len()).find(|&i| group(&docs[i].0) != group(&a)).unwrap();
        wrong[at(&a)] = sketches[other].clone();
        let moved = DedupPlan::with_sketches(&docs, &known, &wrong, &opts).unwrap().finish().unwrap();
        assert!(!moved.clusters.iter().any(|c| c.contains(&a) && c.contains(&b)), "{a} {b}");
    }

    /// The measured values decide: all-zero similarities keep no pair.
    #[test]
    fn finish_keeps_the_pairs_its_measurements_keep() {
        let docs = docs(5);
        let opts = DedupOptions { k: Some(12), ..DedupOptions::default() };
        let mut plan = DedupPlan::new(&docs, &[], &opts).unwrap();
        let first = plan.pairs().len();
        assert!(first > 20);
        // A wrong length is refused and changes nothing; so is a report asked too early.
        let e = plan.record(&[0.0]).unwrap_err();
        assert!(e.to_string().contains("`jaccards`") && e.to_string().contains(&format!("({first})")), "{e}");
        assert_eq!(plan.pairs().len(), first);
        let early = DedupPlan::new(&docs, &[], &opts).unwrap().finish().unwrap_err();
        assert!(early.to_string().contains("pairs left"), "{early}");
        // All-zero similarities: every candidate is measured, in rounds, and none is kept.
        let candidates = plan.all_candidates().len();
        let mut measured = 0;
        let r = plan
            .verify_with(|pairs| {
                measured += pairs.len();
                Ok(vec![0.0; pairs.len()])
            })
            .unwrap();
        assert!(r.clusters.is_empty() && r.pairs.is_empty());
        assert_eq!(measured, candidates);
    }

    #[test]
    fn jaccards_are_the_exact_set_jaccards_and_bad_input_is_named() {
        let docs = docs(6);
        let texts: Vec<&str> = docs.iter().map(|d| d.1.as_str()).collect();
        let mut rng = Rng(7);
        let pairs: Vec<(u32, u32)> = (0..300)
            .map(|_| {
                (1 + rng.below(texts.len() as u64 - 1) as u32, 1 + rng.below(texts.len() as u64 - 1) as u32)
            })
            .collect();
        let got = jaccards(&texts, &pairs, &DedupOptions::default()).unwrap();
        for (&(a, b), j) in pairs.iter().zip(&got) {
            let (x, y) = (
                ShingleSet::new(texts[a as usize], 4).unwrap(),
                ShingleSet::new(texts[b as usize], 4).unwrap(),
            );
            assert_eq!(*j, x.jaccard(&y));
        }
        let e = jaccards(&texts, &[(1, texts.len() as u32)], &DedupOptions::default()).unwrap_err();
        assert!(e.to_string().contains("`pairs`"), "{e}");
        assert_eq!(jaccards(&texts, &[(0, 1)], &DedupOptions::default()).unwrap_err(), Error::EmptyText);
        let mut plan =
            DedupPlan::new(&docs, &[], &DedupOptions { k: Some(12), ..DedupOptions::default() }).unwrap();
        let e = plan.record(&[0.5]).unwrap_err();
        assert!(e.to_string().contains("`jaccards`"), "{e}");
    }

    /// Crowded buckets: 3 pages copied 300, 150 and 70 times (some copies with another
    /// sketch under the same fingerprint), 200 fingerprints 1 to 3 bits from one, and
    /// random ones; sketches copied or edited so that some pairs pass the prefilter and
    /// some do not.
    fn crowded(seed: u64) -> (Vec<u64>, SketchRows) {
        let mut rng = Rng(seed);
        let scheme = SketchScheme::default();
        let width = 2 + scheme.size();
        let row = |rng: &mut Rng| -> Vec<u8> {
            let mut r = vec![0u8; width];
            r[0] = crate::sketch::VERSION;
            r[1] = (scheme.size() / 8) as u8;
            r[2..6].copy_from_slice(&(50 + rng.below(200) as u32).to_le_bytes());
            r[6..].iter_mut().for_each(|b| *b = rng.next() as u8);
            r
        };
        let edit = |rng: &mut Rng, r: &[u8], n: u64| -> Vec<u8> {
            let mut e = r.to_vec();
            for _ in 0..n {
                let at = 6 + rng.below((width - 6) as u64) as usize;
                e[at] = rng.next() as u8;
            }
            e
        };
        let (mut fps, mut rows): (Vec<u64>, Vec<Vec<u8>>) = (Vec::new(), Vec::new());
        for copies in [300, 150, 70] {
            let (fp, sk, other) = (rng.next(), row(&mut rng), row(&mut rng));
            for c in 0..copies {
                fps.push(fp);
                rows.push(if c % 7 == 3 { other.clone() } else { sk.clone() });
            }
        }
        let (base, sk) = (rng.next(), row(&mut rng));
        for _ in 0..200 {
            let mut fp = base;
            for _ in 0..1 + rng.below(3) {
                fp ^= 1 << rng.below(64);
            }
            fps.push(fp);
            let n = rng.below(40);
            rows.push(edit(&mut rng, &sk, n));
        }
        for _ in 0..300 {
            fps.push(rng.next());
            rows.push(row(&mut rng));
        }
        // Shuffled, so that copies are spread over the slots.
        for i in (1..fps.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            fps.swap(i, j);
            rows.swap(i, j);
        }
        (fps, SketchRows::from_bytes(rows.concat(), scheme).unwrap())
    }

    /// Near copies: 2,000 fingerprints 2 or 3 bits from one page's, each a class of its
    /// own: a slot reads the bucket's first `CROWDED_CLASSES` classes, and the copies
    /// still form one cluster.
    #[test]
    fn near_copies_read_the_earliest_classes_of_a_crowded_bucket() {
        let mut rng = Rng(7);
        let base = rng.next();
        let fps: Vec<u64> =
            (0..2000).map(|_| (0..2 + rng.below(2)).fold(base, |fp, _| fp ^ 1 << rng.below(64))).collect();
        let layout = Layout::default_for_k(6).unwrap();
        let tables = join_tables(&layout);
        let every = at_most_window_each(
            crate::index::join::join_part(&layout, &fps, 0..tables)
                .into_iter()
                .map(|(a, b, d)| (a.min(b), a.max(b), d, 0.0))
                .collect(),
        );
        let kept = at_most_window_each(join_part_kept(
            &layout,
            &fps,
            0..tables,
            BUCKET_WINDOW,
            |_, _| true,
            |_, _, _| Some(0.0),
        ));
        let distinct = {
            let mut d = fps.clone();
            d.sort_unstable();
            d.dedup();
            d.len()
        };
        assert!(distinct > crate::index::join::CROWDED_CLASSES + 512, "{distinct} distinct fingerprints");
        // The same window for the documents that see at most that many classes before them.
        let early = |c: &Candidate| (c.1 as usize) < crate::index::join::CROWDED_CLASSES / 2;
        let early_every: Vec<Candidate> = every.iter().copied().filter(early).collect();
        assert_eq!(kept.iter().copied().filter(early).collect::<Vec<_>>(), early_every);
        // Later ones pair with the earliest copies, not always with the nearest.
        assert_ne!(kept, every);
        // Every copy is paired with an earlier one, so they form one cluster.
        let roots = component_roots(fps.len(), kept.iter().map(|c| (c.0, c.1)));
        assert!(roots.iter().all(|&r| r == roots[0]));
        assert!(kept.iter().all(|c| (fps[c.0 as usize] ^ fps[c.1 as usize]).count_ones() == c.2 && c.2 <= 6));
    }

    #[test]
    fn crowded_buckets_give_the_window_that_every_pair_gives() {
        for seed in 0..4 {
            let (fps, rows) = crowded(seed);
            for verify in [None, Some(0.8), Some(0.95)] {
                let worth = Prefilter::new(&rows, verify);
                let keep = |x: u32, y: u32, d: u32| worth.keep((x, y, d, 0.0)).map(|c| c.3);
                for k in [3, 6] {
                    let layout = Layout::default_for_k(k).unwrap();
                    let tables = join_tables(&layout);
                    // Every pair within k, kept or dropped, then each document's window.
                    let every: Vec<Candidate> = crate::index::join::join_part(&layout, &fps, 0..tables)
                        .into_iter()
                        .filter_map(|(a, b, d)| worth.keep((a.min(b), a.max(b), d, 0.0)))
                        .collect();
                    let listed = every.len();
                    let every = at_most_window_each(every);
                    let kept = join_part_kept(
                        &layout,
                        &fps,
                        0..tables,
                        BUCKET_WINDOW,
                        |a, b| worth.alike(a, b),
                        keep,
                    );
                    assert!(kept.len() < listed, "seed {seed} k {k}: {} of {listed}", kept.len());
                    // A table lists at most the window of each later document: the
                    // largest copies fill it.
                    let mut most = 0;
                    for t in 0..tables {
                        let mut per_later: HashMap<u32, usize> = HashMap::new();
                        for c in join_part_kept(
                            &layout,
                            &fps,
                            t..t + 1,
                            BUCKET_WINDOW,
                            |a, b| worth.alike(a, b),
                            keep,
                        ) {
                            *per_later.entry(c.1).or_default() += 1;
                        }
                        most = most.max(per_later.into_values().max().unwrap_or(0));
                    }
                    assert_eq!(most, BUCKET_WINDOW);
                    assert_eq!(at_most_window_each(kept), every, "seed {seed} k {k} verify {verify:?}");
                    // In two parts of interleaved tables, too.
                    let parts: Vec<Candidate> = (0..2)
                        .flat_map(|part| {
                            let share = (part..tables).step_by(2);
                            join_part_kept(
                                &layout,
                                &fps,
                                share,
                                BUCKET_WINDOW,
                                |a, b| worth.alike(a, b),
                                keep,
                            )
                        })
                        .collect();
                    assert_eq!(at_most_window_each(parts), every);
                }
            }
        }
    }
}
