//! Union-find over `0..n`: the clusters of the self-join and of the dedup's rounds.

/// Disjoint sets of the slots `0..n`. A set's root is its smallest slot (the smaller root
/// is kept on a union), so roots do not depend on the order of the unions; paths are
/// halved on every `find`.
#[derive(Debug)]
pub(crate) struct UnionFind {
    /// Each slot's parent; a root is its own.
    parent: Vec<u32>,
}

impl UnionFind {
    /// `n` sets of one slot each.
    pub(crate) fn new(n: usize) -> UnionFind {
        UnionFind { parent: (0..n as u32).collect() }
    }

    /// The root of `x`'s set.
    pub(crate) fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let p = self.parent[x as usize];
            self.parent[x as usize] = self.parent[p as usize];
            x = p;
        }
        x
    }

    /// Joins the sets of `x` and `y`: false when they were one already.
    pub(crate) fn union(&mut self, x: u32, y: u32) -> bool {
        let (rx, ry) = (self.find(x), self.find(y));
        if rx == ry {
            return false;
        }
        self.parent[rx.max(ry) as usize] = rx.min(ry);
        true
    }

    /// Each slot's root, in slot order.
    pub(crate) fn into_roots(mut self) -> Vec<u32> {
        (0..self.parent.len() as u32).map(|s| self.find(s)).collect()
    }
}

/// The connected components of `0..n` under `pairs`: each slot's root, the smallest slot of
/// its component.
pub(crate) fn component_roots(n: usize, pairs: impl IntoIterator<Item = (u32, u32)>) -> Vec<u32> {
    let mut sets = UnionFind::new(n);
    for (x, y) in pairs {
        sets.union(x, y);
    }
    sets.into_roots()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    /// Roots against a naive oracle: each slot's root is the smallest slot it reaches over
    /// the pairs (a breadth-first search), whatever the order of the unions.
    #[test]
    fn roots_are_the_smallest_slot_each_reaches() {
        let mut rng = Rng(7);
        for case in 0..200 {
            let n = 1 + rng.below(60) as usize;
            let pairs: Vec<(u32, u32)> = (0..rng.below(n as u64 + 10))
                .map(|_| (rng.below(n as u64) as u32, rng.below(n as u64) as u32))
                .collect();
            let mut uf = UnionFind::new(n);
            let mut joined = 0;
            for &(x, y) in &pairs {
                joined += usize::from(uf.union(x, y));
            }
            let roots = uf.into_roots();
            let mut components = 0;
            for s in 0..n as u32 {
                let mut seen = vec![false; n];
                let mut queue = vec![s];
                seen[s as usize] = true;
                while let Some(x) = queue.pop() {
                    for &(a, b) in &pairs {
                        for (from, to) in [(a, b), (b, a)] {
                            if from == x && !seen[to as usize] {
                                seen[to as usize] = true;
                                queue.push(to);
                            }
                        }
                    }
                }
                let smallest = seen.iter().position(|&v| v).unwrap() as u32;
                assert_eq!(roots[s as usize], smallest, "case {case}, slot {s}");
                components += usize::from(smallest == s);
            }
            // Each union that joined two sets removed one set.
            assert_eq!(components, n - joined, "case {case}");
        }
    }
}
