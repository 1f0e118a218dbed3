//! Candidate pairs from the sketches' MinHash bands: the documents of a collection whose
//! sketches share a band ([`crate::sketch::band_key`]). A band join costs a sort per band,
//! so it grows with `N log N` where a wide-`k` fingerprint self-join grows with `N²`, and it
//! finds the near copies of short texts whose fingerprints sit far apart.
//!
//! **Buckets.** The documents of one band key form a bucket, and a pair of a bucket is a
//! candidate. A document is paired with at most [`BUCKET_WINDOW`] members before it (in
//! document order), so a bucket of `m` members gives at most `m · BUCKET_WINDOW` pairs: a
//! page mirrored a thousand times costs a thousand times the window, not half a million
//! pairs, and its copies still join one cluster (each is paired with those before it).
//! Buckets of at most `BUCKET_WINDOW + 1` members give every pair.
//!
//! **Each pair once.** A pair sharing several bands is listed from the first one only
//! (the earlier bands' keys are compared directly), so the parts of any split of the bands
//! ([`band_pairs`] over some of them), together, hold no repeats.

use crate::sketch::bands::{band_key_of, bands_for};
use crate::sketch::SketchRows;

/// The most earlier members of a bucket a document is paired with.
pub(crate) const BUCKET_WINDOW: usize = 64;

/// The number of bands of a band join over `sketches`: 0 without any.
pub(crate) fn band_count(sketches: &SketchRows) -> usize {
    sketches.scheme().filter(|_| !sketches.is_empty()).map_or(0, bands_for)
}

/// The pairs `(x, y)`, `x < y` positions in `sketches`, that share a key in one of the
/// bands `bands` (in the order given; those past the scheme's bands are skipped) and no
/// key in an earlier band, each document paired with at most [`BUCKET_WINDOW`] earlier
/// members of a bucket. Sorted by band, then bucket.
#[cfg(test)]
pub(crate) fn band_pairs(sketches: &SketchRows, bands: impl IntoIterator<Item = usize>) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    each_band_pair(sketches, bands, |x, y| out.push((x, y)));
    out
}

/// Calls `visit` with each pair of [`band_pairs`], in its order, holding none of them: at
/// a million documents the bands give tens of millions of pairs, most of which the
/// caller's prefilter drops.
pub(crate) fn each_band_pair(
    sketches: &SketchRows,
    bands: impl IntoIterator<Item = usize>,
    mut visit: impl FnMut(u32, u32),
) {
    let n = sketches.len();
    let width = band_count(sketches);
    let bands: Vec<usize> = bands.into_iter().filter(|&b| b < width).collect();
    let Some(&last) = bands.iter().max() else { return };
    if n < 2 {
        return;
    }
    // Every key of the bands read, a row per document (the earlier bands for the
    // first-band test, and this band's for the sort).
    let read = last + 1;
    let keys: Vec<u32> =
        (0..n).flat_map(|d| (0..read).map(move |b| band_key_of(sketches.payload(d), b))).collect();
    let row = |d: usize| &keys[d * read..(d + 1) * read];
    let mut slots: Vec<u64> = Vec::with_capacity(n);
    for b in bands {
        slots.clear();
        slots.extend((0..n).map(|d| u64::from(row(d)[b]) << 32 | d as u64));
        // By key, each bucket in document order: a stable radix sort of the keys alone
        // (the documents come in order), not a comparison sort of the whole.
        crate::sort::sort_by_u64_key_stable(&mut slots, |&s| s >> 32);
        let mut start = 0;
        while start < n {
            let key = slots[start] >> 32;
            let end = start + slots[start..].iter().take_while(|&&s| s >> 32 == key).count();
            for j in start + 1..end {
                let y = slots[j] as u32 as usize;
                for &sx in &slots[j.saturating_sub(BUCKET_WINDOW).max(start)..j] {
                    let x = sx as u32 as usize;
                    let earlier = row(x)[..b].iter().zip(&row(y)[..b]).any(|(p, q)| p == q);
                    if !earlier {
                        visit(x as u32, y as u32);
                    }
                }
            }
            start = end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fingerprint::{Options, SimHasher};
    use crate::sketch::bands::band_key;
    use crate::sketch::{Sketch, SketchScheme};
    use crate::test_rng::Rng;
    use std::collections::HashSet;

    fn sketches(texts: &[String]) -> Vec<Sketch> {
        let mut h = SimHasher::new(Options::default()).unwrap();
        texts.iter().map(|t| h.sketch(t, SketchScheme::default()).unwrap()).collect()
    }

    fn texts(seed: u64, groups: usize) -> Vec<String> {
        let mut rng = Rng(seed);
        let mut out = Vec::new();
        for _ in 0..groups {
            let words: Vec<String> = (0..40)
                .map(|_| (0..2 + rng.below(6)).map(|_| char::from(b'a' + rng.below(26) as u8)).collect())
                .collect();
            out.push(words.join(" "));
            for c in 0..rng.below(4) {
                let mut copy = words.clone();
                copy[rng.below(40) as usize] = format!("edit{c}");
                out.push(copy.join(" "));
            }
        }
        out
    }

    /// The oracle: every pair sharing a key in some band, by brute force.
    fn naive(sk: &[&Sketch]) -> HashSet<(u32, u32)> {
        let bands = sk.first().map_or(0, |s| bands_for(s.scheme()));
        let mut out = HashSet::new();
        for y in 0..sk.len() {
            for x in 0..y {
                if (0..bands).any(|b| band_key(sk[x], b) == band_key(sk[y], b)) {
                    out.insert((x as u32, y as u32));
                }
            }
        }
        out
    }

    #[test]
    fn small_buckets_give_exactly_the_pairs_sharing_a_band_once_each_for_any_split() {
        for seed in 1..4 {
            let t = texts(seed, 60);
            let owned = sketches(&t);
            let sk: Vec<&Sketch> = owned.iter().collect();
            let truth = naive(&sk);
            let sk = SketchRows::from_sketches(&owned);
            assert!(truth.len() > 40, "{}", truth.len());
            let whole = band_pairs(&sk, 0..20);
            let set: HashSet<(u32, u32)> = whole.iter().copied().collect();
            assert_eq!(set.len(), whole.len(), "no repeats");
            assert_eq!(set, truth);
            for cut in [1, 7, 13, 19] {
                let mut parts = band_pairs(&sk, 0..cut);
                parts.extend(band_pairs(&sk, cut..20));
                assert_eq!(parts, whole, "split at {cut}");
            }
            // Dealt out, every m-th band to a part: the same pairs, each once.
            for m in [2, 3, 7] {
                let mut dealt: Vec<(u32, u32)> =
                    (0..m).flat_map(|p| band_pairs(&sk, (p..20).step_by(m))).collect();
                dealt.sort_unstable();
                let mut sorted = whole.clone();
                sorted.sort_unstable();
                assert_eq!(dealt, sorted, "every {m}th band");
            }
            // A band range past the scheme's bands is clipped.
            assert_eq!(band_pairs(&sk, 0..99), whole);
        }
    }

    #[test]
    fn a_mirrored_page_costs_the_window_per_copy_and_stays_connected() {
        let base = texts(9, 1).remove(0);
        let mut t: Vec<String> = (0..500).map(|_| base.clone()).collect();
        t.extend(texts(10, 30));
        let sk = SketchRows::from_sketches(&sketches(&t));
        let pairs = band_pairs(&sk, 0..20);
        let mirror: Vec<&(u32, u32)> = pairs.iter().filter(|p| p.1 < 500).collect();
        // Each copy after the first is paired with the (at most) 64 before it, in band 0.
        let expected: usize = (1..500).map(|j| j.min(BUCKET_WINDOW)).sum();
        assert_eq!(mirror.len(), expected);
        let roots = crate::union_find::component_roots(500, mirror.iter().map(|p| (p.0, p.1)));
        assert!(roots.iter().all(|&r| r == roots[0]), "one component");
    }

    #[test]
    fn nothing_to_join() {
        assert!(band_pairs(&SketchRows::default(), 0..20).is_empty());
        let owned = sketches(&texts(3, 1)[..1]);
        assert!(band_pairs(&SketchRows::from_sketches(&owned), 0..20).is_empty());
    }
}
