//! The brute-force oracle: linear scans over `(id, fingerprint)` entries with distinct
//! ids, with the same result order as [`Index`](super::Index). For tests and small sets.

use super::{IndexId, Match, Pair};

/// Every entry within `k` of `fp`, sorted by distance, then id.
///
/// ```
/// use simhash_wasm::__private::index::brute_force;
/// use simhash_wasm::Match;
/// let entries = vec![(2u64, 0b1u64), (1, 0b0), (3, 0b1111)];
/// assert_eq!(
///     brute_force::query(&entries, 0, 1),
///     vec![Match { id: 1, distance: 0 }, Match { id: 2, distance: 1 }]
/// );
/// ```
pub fn query<I: IndexId>(entries: &[(I, u64)], fp: u64, k: u32) -> Vec<Match<I>> {
    let mut v: Vec<Match<I>> = entries
        .iter()
        .filter(|(_, f)| (f ^ fp).count_ones() <= k)
        .map(|(id, f)| Match { id: id.clone(), distance: (f ^ fp).count_ones() })
        .collect();
    v.sort_unstable_by(|a, b| a.distance.cmp(&b.distance).then_with(|| a.id.cmp(&b.id)));
    v
}

/// Every unordered pair within `k`, `a < b`, sorted by distance, `a`, `b`.
pub fn self_join<I: IndexId>(entries: &[(I, u64)], k: u32) -> Vec<Pair<I>> {
    let mut v = Vec::new();
    for (i, (x, fx)) in entries.iter().enumerate() {
        for (y, fy) in &entries[i + 1..] {
            let d = (fx ^ fy).count_ones();
            if d <= k {
                let (a, b) = if x < y { (x, y) } else { (y, x) };
                v.push(Pair { a: a.clone(), b: b.clone(), distance: d });
            }
        }
    }
    v.sort_unstable_by(|p, q| {
        p.distance.cmp(&q.distance).then_with(|| p.a.cmp(&q.a)).then_with(|| p.b.cmp(&q.b))
    });
    v
}

/// Connected components of size ≥ 2 of the within-`k` graph, each sorted, ordered by
/// smallest id.
pub fn clusters<I: IndexId>(entries: &[(I, u64)], k: u32) -> Vec<Vec<I>> {
    let n = entries.len();
    let mut comp: Vec<usize> = (0..n).collect();
    fn root(comp: &mut [usize], mut x: usize) -> usize {
        while comp[x] != x {
            x = comp[x];
        }
        x
    }
    for i in 0..n {
        for j in i + 1..n {
            if (entries[i].1 ^ entries[j].1).count_ones() <= k {
                let (a, b) = (root(&mut comp, i), root(&mut comp, j));
                comp[a.max(b)] = a.min(b);
            }
        }
    }
    for i in 0..n {
        comp[i] = root(&mut comp, i);
    }
    let mut groups: Vec<Vec<I>> = Vec::new();
    for c in 0..n {
        let mut g: Vec<I> = (0..n).filter(|&i| comp[i] == c).map(|i| entries[i].0.clone()).collect();
        if g.len() >= 2 {
            g.sort_unstable();
            groups.push(g);
        }
    }
    groups.sort_unstable_by(|a, b| a.first().cmp(&b.first()));
    groups
}
