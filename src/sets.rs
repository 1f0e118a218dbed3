//! Operations on sets of hashes stored as sorted slices of distinct `u64`s: the shingle
//! sets of verification (`verify.rs`) and of passages (`passage/`). One merge pass each.
//!
//! Two empty sets have Jaccard similarity 0, as an empty set and any other: a similarity
//! that decides "duplicate" must not call two texts with nothing to compare identical.
//! The same goes for containment of an empty set.

use std::cmp::Ordering;

/// Calls `f` with each element of both sets, in order.
pub fn for_each_common(a: &[u64], b: &[u64], mut f: impl FnMut(u64)) {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                f(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
}

/// `|A ∩ B|`.
pub fn intersection(a: &[u64], b: &[u64]) -> usize {
    let mut n = 0;
    for_each_common(a, b, |_| n += 1);
    n
}

/// The union of sets, sorted and distinct.
pub fn union<'a>(sets: impl Iterator<Item = &'a [u64]>) -> Vec<u64> {
    let mut out: Vec<u64> = sets.flatten().copied().collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// `|A ∩ B| / |A|`: the share of `a` found in `b`; 0 for an empty `a`.
pub fn containment(a: &[u64], b: &[u64]) -> f64 {
    if a.is_empty() {
        0.0
    } else {
        intersection(a, b) as f64 / a.len() as f64
    }
}

/// `|A ∩ B| / |A ∪ B|`, from 0 to 1; 0 when both are empty.
pub fn jaccard(a: &[u64], b: &[u64]) -> f64 {
    let i = intersection(a, b);
    let u = a.len() + b.len() - i;
    if u == 0 {
        0.0
    } else {
        i as f64 / u as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn set(rng: &mut crate::test_rng::Rng, len: u64, range: u64) -> Vec<u64> {
        let s: BTreeSet<u64> = (0..rng.below(len)).map(|_| rng.below(range)).collect();
        s.into_iter().collect()
    }

    #[test]
    fn operations_agree_with_ordered_sets() {
        let mut rng = crate::test_rng::Rng(0x5E75_0F4A_5E75);
        for _ in 0..2000 {
            let (a, b) = (set(&mut rng, 12, 20), set(&mut rng, 12, 20));
            let (sa, sb): (BTreeSet<u64>, BTreeSet<u64>) =
                (a.iter().copied().collect(), b.iter().copied().collect());
            let common: Vec<u64> = sa.intersection(&sb).copied().collect();
            let mut seen = Vec::new();
            for_each_common(&a, &b, |x| seen.push(x));
            assert_eq!(seen, common);
            assert_eq!(intersection(&a, &b), common.len());
            let all: Vec<u64> = sa.union(&sb).copied().collect();
            assert_eq!(union([a.as_slice(), b.as_slice()].into_iter()), all);
            let j = if all.is_empty() { 0.0 } else { common.len() as f64 / all.len() as f64 };
            assert_eq!(jaccard(&a, &b), j);
            assert_eq!(jaccard(&b, &a), j);
            let c = if a.is_empty() { 0.0 } else { common.len() as f64 / a.len() as f64 };
            assert_eq!(containment(&a, &b), c);
        }
    }

    #[test]
    fn empty_sets_have_similarity_zero() {
        assert_eq!(jaccard(&[], &[]), 0.0);
        assert_eq!(jaccard(&[], &[1]), 0.0);
        assert_eq!(containment(&[], &[]), 0.0);
        assert_eq!(jaccard(&[1, 2], &[1, 2]), 1.0);
    }
}
