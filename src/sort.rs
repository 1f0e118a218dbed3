//! Sorting with few copies of the sort code.
//!
//! Every `sort_unstable_by` on a new element type or with a new closure is a new copy of
//! the standard library's sort (pattern-defeating quicksort with its small-sort networks):
//! 6 to 17 kB of wasm each at `opt-level = 3` (17 such copies would be about 155 kB of the
//! release wasm's code). The sorts that are not on a hot path go
//! through [`sort_by`]: it sorts a permutation of indices with one shared, type-erased
//! comparator, so the whole crate carries one copy of the sort for all of them, plus a
//! small permutation step per element type. Hot sorts of plain `u64` keys keep calling
//! `sort_unstable` on `[u64]` (one copy), and [`sort_by_u64_key`] serves large sorts by
//! a 64-bit key (fingerprints), on one copy for `[(u64, usize)]`.
//! [`sort_by_u64_key_stable`] sorts by the key alone with a radix sort, in place (the
//! passage index, whose common keys come in long runs; a band join's keys), and
//! [`sort_by_u64_keys_stable`] by two keys (a dedup's candidate pairs).
//!
//! All of them are **stable**: equal elements keep their order.

use std::cmp::Ordering;

/// Up to this length [`sort_by`] sorts in place by insertion (stable, no allocation).
const SHORT: usize = 12;

/// Sorts `v` by `cmp`, stably.
pub(crate) fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if v.len() <= SHORT {
        // Short slices (a query's few matches): insertion sort, with no allocation.
        for i in 1..v.len() {
            let mut j = i;
            while j > 0 && cmp(&v[j - 1], &v[j]) == Ordering::Greater {
                v.swap(j - 1, j);
                j -= 1;
            }
        }
        return;
    }
    let mut perm: Vec<usize> = (0..v.len()).collect();
    sort_indices(&mut perm, &mut |a, b| cmp(&v[a], &v[b]));
    apply_permutation(v, &mut perm);
}

/// Sorts `v` by `key`, stably; [`sort_by`] with the key compared by `Ord`.
pub(crate) fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `v` in ascending order, stably.
pub(crate) fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// Sorts `v` by a 64-bit key, then by `tie` among equal keys, stably. For long slices
/// ordered mostly by the key (entries by fingerprint): the keys are sorted directly,
/// without a call through the comparator, and `tie` runs only inside runs of equal keys.
pub(crate) fn sort_by_u64_key<T>(
    v: &mut [T],
    key: impl Fn(&T) -> u64,
    mut tie: impl FnMut(&T, &T) -> Ordering,
) {
    if v.len() < 2 {
        return;
    }
    // (key, position): sorting the pairs is stable in the positions.
    let mut keys: Vec<(u64, usize)> = v.iter().enumerate().map(|(i, x)| (key(x), i)).collect();
    keys.sort_unstable();
    let mut perm: Vec<usize> = keys.iter().map(|&(_, i)| i).collect();
    let mut start = 0;
    while start < keys.len() {
        let mut end = start + 1;
        while end < keys.len() && keys[end].0 == keys[start].0 {
            end += 1;
        }
        if end - start > 1 {
            sort_indices(&mut perm[start..end], &mut |a, b| tie(&v[a], &v[b]));
        }
        start = end;
    }
    apply_permutation(v, &mut perm);
}

/// Sorts `v` by a 64-bit key, stably: equal keys keep their order (the passage index,
/// built in the order its ties should have, sorts by its hashes alone). A least
/// significant digit radix sort, a byte a pass, skipping a byte that every key shares:
/// no comparisons, so the long runs of a common key cost nothing extra (a comparison sort
/// takes 4 times as long on the passage index of 200 references).
pub(crate) fn sort_by_u64_key_stable<T: Copy>(v: &mut Vec<T>, key: impl Fn(&T) -> u64) {
    if v.len() < 2 {
        return;
    }
    // Every byte's counts, in one pass over the keys (a pass moves the keys, not their
    // counts).
    let mut counts = [[0usize; 256]; 8];
    for x in v.iter() {
        let k = key(x);
        for (byte, count) in counts.iter_mut().enumerate() {
            count[(k >> (8 * byte)) as usize & 255] += 1;
        }
    }
    let mut other: Vec<T> = Vec::new();
    for (byte, count) in counts.iter().enumerate() {
        let shift = 8 * byte;
        if count.contains(&v.len()) {
            continue;
        }
        // Each bucket's first place.
        let mut at = [0usize; 256];
        let mut sum = 0;
        for (a, &c) in at.iter_mut().zip(count) {
            *a = sum;
            sum += c;
        }
        if other.len() != v.len() {
            other = vec![v[0]; v.len()];
        }
        for x in v.iter() {
            let b = (key(x) >> shift) as usize & 255;
            other[at[b]] = *x;
            at[b] += 1;
        }
        std::mem::swap(v, &mut other);
    }
}

/// [`sort_by_u64_key_stable`] by `major`, then by `minor` among equal `major` keys: a
/// sort by each, the minor first.
pub(crate) fn sort_by_u64_keys_stable<T: Copy>(
    v: &mut Vec<T>,
    major: impl Fn(&T) -> u64,
    minor: impl Fn(&T) -> u64,
) {
    sort_by_u64_key_stable(v, minor);
    sort_by_u64_key_stable(v, major);
}

/// The one copy of the standard sort behind [`sort_by`]: indices by a comparator of
/// indices, ties by index (so the result is stable).
#[inline(never)]
fn sort_indices(perm: &mut [usize], cmp: &mut dyn FnMut(usize, usize) -> Ordering) {
    perm.sort_unstable_by(|&a, &b| cmp(a, b).then(a.cmp(&b)));
}

/// Reorders `v` so that `v[i]` becomes the old `v[perm[i]]`, in place (by following each
/// cycle of the permutation with swaps). `perm` must be a permutation of `0..v.len()`; it
/// is left as the identity.
fn apply_permutation<T>(v: &mut [T], perm: &mut [usize]) {
    for start in 0..v.len() {
        let mut cur = start;
        // Every position of the cycle through `start` gets its element, then is marked
        // done (perm[cur] == cur); a done position is skipped.
        while perm[cur] != start {
            let src = perm[cur];
            perm[cur] = cur;
            v.swap(cur, src);
            cur = src;
        }
        perm[cur] = cur;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    #[test]
    fn permutation_is_applied_in_place() {
        let mut rng = Rng(7);
        for len in 0..60 {
            // A random permutation (Fisher-Yates), applied to distinct values.
            let mut perm: Vec<usize> = (0..len).collect();
            for i in (1..len).rev() {
                perm.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let old: Vec<String> = (0..len).map(|i| format!("v{i}")).collect();
            let want: Vec<String> = perm.iter().map(|&p| old[p].clone()).collect();
            let mut v = old.clone();
            let mut p = perm.clone();
            apply_permutation(&mut v, &mut p);
            assert_eq!(v, want, "perm {perm:?}");
            assert!(p.iter().enumerate().all(|(i, &x)| i == x));
        }
    }

    #[test]
    fn the_radix_sort_agrees_with_the_standard_stable_sort_on_full_keys() {
        // Keys that differ in every byte, in one byte only, and in the top byte only (the
        // passes skipped when every key shares a byte), with repeats.
        let mut rng = Rng(5);
        for mask in [u64::MAX, 0xff << 24, 0xff << 56, 0x0101_0101_0101_0101] {
            for len in [0, 1, 2, 5, 300, 5000] {
                let v: Vec<(u64, u32)> =
                    (0..len).map(|i| (rng.next() & mask | (rng.below(3) * (mask & 1)), i)).collect();
                let mut want = v.clone();
                want.sort_by_key(|x| x.0);
                let mut got = v.clone();
                sort_by_u64_key_stable(&mut got, |x| x.0);
                assert_eq!(got, want, "mask {mask:x}, {len}");
            }
        }
    }

    #[test]
    fn the_two_key_radix_sort_agrees_with_the_standard_stable_sort() {
        // Few distinct majors and minors (long runs of ties) and full-width ones.
        let mut rng = Rng(6);
        for (majors, minors) in [(3, 4), (1000, 2), (u64::MAX, u64::MAX), (1, u64::MAX)] {
            for len in [0, 1, 2, 7, 4000] {
                let v: Vec<(u64, u64, u32)> =
                    (0..len).map(|i| (rng.next() % majors, rng.next() % minors, i)).collect();
                let mut want = v.clone();
                want.sort_by_key(|x| (x.0, x.1));
                let mut got = v.clone();
                sort_by_u64_keys_stable(&mut got, |x| x.0, |x| x.1);
                assert_eq!(got, want, "{majors} majors, {minors} minors, {len}");
            }
        }
    }

    #[test]
    fn sorts_agree_with_the_standard_stable_sort() {
        let mut rng = Rng(99);
        for len in [0, 1, 2, 3, 10, 12, 13, 31, 200, 2000] {
            // Few distinct keys, so there are many ties whose order stability decides.
            let v: Vec<(u64, u32)> = (0..len).map(|i| (rng.below(7), i)).collect();
            let mut want = v.clone();
            want.sort_by_key(|x| x.0);
            let mut a = v.clone();
            sort_by(&mut a, |x, y| x.0.cmp(&y.0));
            assert_eq!(a, want);
            let mut b = v.clone();
            sort_by_key(&mut b, |x| x.0);
            assert_eq!(b, want);
            let mut c = v.clone();
            sort_by_u64_key(&mut c, |x| x.0, |_, _| Ordering::Equal);
            assert_eq!(c, want);
            // With a tie-breaker: descending second field among equal keys.
            let mut want2 = v.clone();
            want2.sort_by(|x, y| x.0.cmp(&y.0).then(y.1.cmp(&x.1)));
            let mut d = v.clone();
            sort_by_u64_key(&mut d, |x| x.0, |x, y| y.1.cmp(&x.1));
            assert_eq!(d, want2);
            let mut f = v.clone();
            sort_by_u64_key_stable(&mut f, |x| x.0);
            assert_eq!(f, want);
            let mut e: Vec<String> = v.iter().map(|x| format!("{}-{}", x.0, x.1)).collect();
            let mut want3 = e.clone();
            want3.sort();
            sort(&mut e);
            assert_eq!(e, want3);
        }
    }
}
