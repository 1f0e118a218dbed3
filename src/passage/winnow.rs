//! Winnowing (Schleimer, Wilkerson and Aiken, SIGMOD 2003): of the hashes of a text's
//! k-grams, the least of every window of `w` neighbours is kept as a fingerprint.
//!
//! The choice in a window depends only on the window's hashes (the rightmost least, on a
//! tie), so two texts that share a run of at least `w + k - 1` tokens share its `w`
//! k-grams, hence that window, hence the fingerprint chosen in it, at the same place in
//! the run. A shorter shared run may be missed; a fingerprint is kept about once every
//! `(w + 1) / 2` k-grams, so an index holds that share of them.

/// The hashes of the k-grams of `tokens` (token hashes), in order: one for every run of `k`
/// tokens, none when there are fewer than `k` (`k` of 0 counts as 1).
pub fn kgrams(tokens: &[u64], k: usize) -> Vec<u64> {
    let k = k.max(1);
    tokens
        .windows(k)
        .map(|g| {
            g.iter().fold(0x6a09_e667_f3bc_c908u64, |h, &t| {
                let mut x = (h ^ t).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                x = (x ^ (x >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                x ^ (x >> 32)
            })
        })
        .collect()
}

/// The fingerprints of k-gram hashes `h`: `(hash, position)` of the rightmost least hash
/// of every window of `w` neighbours (`w` of 0 counts as 1), each position once, in
/// order. Fewer than `w` hashes are one window. A monotone queue finds each window's least
/// in one pass.
pub fn winnow(h: &[u64], w: usize) -> Vec<(u64, usize)> {
    let w = w.max(1);
    let mut out: Vec<(u64, usize)> = Vec::with_capacity(2 * h.len() / (w + 1) + 1);
    if h.is_empty() {
        return out;
    }
    // Positions whose hashes rise strictly from front to back: the front is the window's
    // rightmost least (a later equal or smaller hash removes the earlier ones).
    let mut q: std::collections::VecDeque<usize> = std::collections::VecDeque::with_capacity(w);
    for (i, &x) in h.iter().enumerate() {
        while q.back().is_some_and(|&j| h[j] >= x) {
            q.pop_back();
        }
        q.push_back(i);
        if q.front().is_some_and(|&j| j + w <= i) {
            q.pop_front();
        }
        // Window i + 1 - w ..= i is complete (or the whole text is one short window).
        if i + 1 >= w || i + 1 == h.len() {
            let j = q[0];
            if out.last().is_none_or(|&(_, p)| p != j) {
                out.push((h[j], j));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    /// Each window's rightmost least hash, found by looking at every hash of every window.
    fn naive(h: &[u64], w: usize) -> Vec<(u64, usize)> {
        let mut out: Vec<(u64, usize)> = Vec::new();
        let windows = if h.len() < w { usize::from(!h.is_empty()) } else { h.len() + 1 - w };
        for s in 0..windows {
            let e = (s + w).min(h.len());
            let mut j = s;
            for i in s..e {
                if h[i] <= h[j] {
                    j = i;
                }
            }
            if !out.iter().any(|x| x.1 == j) {
                out.push((h[j], j));
            }
        }
        out.sort_by_key(|x| x.1);
        out
    }

    fn random_tokens(rng: &mut Rng, n: usize, alphabet: u64) -> Vec<u64> {
        (0..n).map(|_| rng.below(alphabet)).collect()
    }

    #[test]
    fn winnowing_selects_each_windows_rightmost_least() {
        let mut rng = Rng(80);
        for _ in 0..400 {
            let n = rng.below(60) as usize;
            let w = 1 + rng.below(9) as usize;
            // Few distinct values: many ties.
            let alphabet = 1 + rng.below(6);
            let h = random_tokens(&mut rng, n, alphabet);
            assert_eq!(winnow(&h, w), naive(&h, w), "w {w}, {h:?}");
        }
    }

    #[test]
    fn a_shared_run_of_w_plus_k_minus_1_tokens_shares_a_fingerprint() {
        let mut rng = Rng(81);
        let mut runs = 0;
        for _ in 0..300 {
            let (k, w) = (1 + rng.below(6) as usize, 1 + rng.below(8) as usize);
            let t = w + k - 1;
            // Two random strings over a small alphabet, with a shared run planted in each.
            let (na, nb, nr) =
                (10 + rng.below(80) as usize, 10 + rng.below(80) as usize, t + rng.below(5) as usize);
            let mut a = random_tokens(&mut rng, na, 4);
            let mut b = random_tokens(&mut rng, nb, 4);
            let run = random_tokens(&mut rng, nr, 4);
            let (i, j) = (rng.below(a.len() as u64) as usize, rng.below(b.len() as u64) as usize);
            a.splice(i..i, run.iter().copied());
            b.splice(j..j, run.iter().copied());
            let (fa, fb) = (winnow(&kgrams(&a, k), w), winnow(&kgrams(&b, k), w));
            // Every shared run of t tokens, found by comparing every pair of places.
            for x in 0..=a.len() - t {
                for y in 0..=b.len() - t {
                    if a[x..x + t] != b[y..y + t] {
                        continue;
                    }
                    runs += 1;
                    let inside = |f: &[(u64, usize)], at: usize| -> Vec<(u64, usize)> {
                        f.iter().filter(|p| p.1 >= at && p.1 + k <= at + t).map(|p| (p.0, p.1 - at)).collect()
                    };
                    let (ia, ib) = (inside(&fa, x), inside(&fb, y));
                    assert!(
                        ia.iter().any(|p| ib.contains(p)),
                        "k {k} w {w}: run at {x} and {y} has no shared fingerprint"
                    );
                }
            }
        }
        assert!(runs > 300, "{runs}");
    }

    #[test]
    fn kgrams_depend_on_order_and_short_texts_have_none() {
        assert_eq!(kgrams(&[1, 2, 3], 4), Vec::<u64>::new());
        assert_eq!(kgrams(&[1, 2, 3], 3).len(), 1);
        assert_ne!(kgrams(&[1, 2], 2), kgrams(&[2, 1], 2));
        assert_eq!(kgrams(&[5, 1, 2, 9], 2)[1], kgrams(&[1, 2], 2)[0]);
        assert_eq!(winnow(&[], 4), vec![]);
        assert_eq!(winnow(&[7, 3, 5], 4), vec![(3, 1)]);
    }
}
