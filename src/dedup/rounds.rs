//! The verification of candidate pairs in rounds, measuring only the pairs that could
//! still join two clusters.
//!
//! A cluster of `m` near-copies holds up to `m · BUCKET_WINDOW` candidate pairs, and
//! `m − 1` verified pairs already join it. So a pair is measured only while its two
//! documents are not yet joined by the pairs verified in earlier rounds:
//!
//! - **A round** gives each document (as the later document of its candidates) its first
//!   candidate not yet decided, nearest in Hamming distance first (then the earliest
//!   other document); after [`ONE_EACH`] such rounds, one last round takes every candidate
//!   still undecided. A pair whose documents have been joined meanwhile is dropped
//!   unmeasured. The rounds' pairs are independent, so each round is measured in parallel.
//! - **The kept pairs** of a round (similarity at the threshold or above), in the order of
//!   the first point, join clusters; a pair whose documents are joined already is verified
//!   but not kept. The kept pairs form a spanning forest of the clusters: a cluster of `m`
//!   documents is reported with `m − 1` pairs.
//!
//! The clusters are the connected components of every candidate pair that reaches the
//! threshold, as if all were measured: a pair is left out only when its documents are
//! joined by verified pairs already. The rounds and the kept pairs depend only on the set
//! of candidates and their similarities, not on the order they are given in, so any split
//! of the work gives one report.

use crate::error::{Error, Result};
use crate::union_find::UnionFind;

/// The rounds that give each document one candidate; the next round takes all the rest.
/// Each document's nearest candidate is verified in the first round nearly always (a copy
/// is nearest to what it copies), so few pairs are left for later rounds.
pub(crate) const ONE_EACH: usize = 4;

/// A candidate: the slots of its two documents and their fingerprints' Hamming distance.
type Pair = (u32, u32, u32);

/// The state of a verification in rounds over a list of candidate pairs.
#[derive(Debug)]
pub(crate) struct Rounds {
    /// The candidates, in the order of the rounds ([`order`]).
    candidates: Vec<Pair>,
    /// The order the pairs of a round are listed (and measured) in: a permutation of the
    /// candidates' indices (grouped by component, so a run of them names few documents).
    listed: Vec<u32>,
    threshold: f64,
    /// The candidates not yet measured or dropped, in the order of the rounds.
    pending: Vec<u32>,
    /// The candidates to measure in this round, in the listed order.
    round: Vec<u32>,
    /// The clusters joined by the kept pairs so far.
    joined: UnionFind,
    /// The kept pairs: index into `candidates` and similarity, in the order they joined.
    kept: Vec<(u32, f64)>,
    /// Rounds made so far.
    made: usize,
}

/// The order of the rounds: by later document, then distance, then earlier document.
fn order(c: &Pair) -> (u32, u32, u32) {
    (c.0.max(c.1), c.2, c.0.min(c.1))
}

/// Sorts `v` in the order of the rounds ([`order`]) of `pair(x)`, stably: radix sorts by
/// the later document and the distance (at most 255: a Hamming distance, or a rank by
/// estimate), then the earlier document, with no comparison.
pub(crate) fn sort_in_order<T: Copy>(v: &mut Vec<T>, pair: impl Fn(&T) -> Pair) {
    crate::sort::sort_by_u64_keys_stable(
        v,
        |x| {
            let (later, distance, _) = order(&pair(x));
            debug_assert!(distance < 256);
            u64::from(later) << 8 | u64::from(distance.min(255))
        },
        |x| u64::from(order(&pair(x)).2),
    );
}

impl Rounds {
    /// The rounds over `candidates` (slots below `slots`), keeping pairs at `threshold` or
    /// above; the first round is ready. `candidates` are in the order of the rounds (as
    /// the candidate step's window leaves them; [`Rounds::sorted`] sorts them), each pair
    /// once, and `listed` is the order to list a round's pairs in (a permutation of their
    /// indices; empty: their own order).
    pub(crate) fn new(slots: usize, candidates: Vec<Pair>, listed: Vec<u32>, threshold: f64) -> Rounds {
        debug_assert!(candidates.windows(2).all(|w| order(&w[0]) < order(&w[1])));
        let listed = if listed.is_empty() { (0..candidates.len() as u32).collect() } else { listed };
        debug_assert_eq!(listed.len(), candidates.len());
        let mut rounds = Rounds {
            pending: (0..candidates.len() as u32).collect(),
            candidates,
            listed,
            threshold,
            round: Vec::new(),
            joined: UnionFind::new(slots),
            kept: Vec::new(),
            made: 0,
        };
        rounds.next_round();
        rounds
    }

    /// [`Rounds::new`] over candidates in any order (each pair once), listed in the order of
    /// the rounds.
    pub(crate) fn sorted(slots: usize, mut candidates: Vec<Pair>, threshold: f64) -> Rounds {
        sort_in_order(&mut candidates, |&c| c);
        Rounds::new(slots, candidates, Vec::new(), threshold)
    }

    /// This round's candidates (slots and distance), in the listed order.
    pub(crate) fn round(&self) -> impl ExactSizeIterator<Item = Pair> + '_ {
        self.round.iter().map(|&i| self.candidates[i as usize])
    }

    /// This round's candidates, as indices into the candidates, in the listed order.
    pub(crate) fn indices(&self) -> &[u32] {
        &self.round
    }

    /// The candidates, decided or not, in the order of the rounds.
    #[cfg(test)]
    pub(crate) fn candidates(&self) -> &[Pair] {
        &self.candidates
    }

    /// The number of pairs this round measures (0 when every candidate is decided).
    pub(crate) fn len(&self) -> usize {
        self.round.len()
    }

    /// Takes the similarity of each pair of this round, in its order, keeps those that
    /// join two clusters, and makes the next round. A list of another length is an
    /// [`Error::InvalidOption`] for `jaccards`, and changes nothing.
    pub(crate) fn record(&mut self, similarities: &[f64]) -> Result<()> {
        if similarities.len() != self.round.len() {
            return Err(Error::option(
                "jaccards",
                similarities.len(),
                format!("one similarity per pair of the round ({})", self.round.len()),
            ));
        }
        // The pairs at the threshold, as (candidate index, position in the round): sorted,
        // in the order of the rounds.
        let mut reached: Vec<u64> = (0..self.round.len())
            .filter(|&at| similarities[at] >= self.threshold)
            .map(|at| u64::from(self.round[at]) << 32 | at as u64)
            .collect();
        reached.sort_unstable();
        for r in reached {
            let (i, at) = ((r >> 32) as u32, (r & 0xFFFF_FFFF) as usize);
            let (x, y, _) = self.candidates[i as usize];
            if self.joined.union(x, y) {
                self.kept.push((i, similarities[at]));
            }
        }
        self.next_round();
        Ok(())
    }

    /// The kept pairs with their similarities, once every round is recorded (any left
    /// unrecorded are not kept).
    pub(crate) fn into_kept(self) -> (Vec<Pair>, Vec<f64>) {
        self.kept.iter().map(|&(i, s)| (self.candidates[i as usize], s)).unzip()
    }

    /// Drops the pending candidates whose documents are joined, and moves the next
    /// round's out of `pending`.
    fn next_round(&mut self) {
        let mut pending = std::mem::take(&mut self.pending);
        pending.retain(|&i| {
            let (x, y, _) = self.candidates[i as usize];
            self.joined.find(x) != self.joined.find(y)
        });
        // This round's candidates, marked, then listed in the listed order.
        let mut chosen = vec![false; self.candidates.len()];
        if self.made >= ONE_EACH {
            for i in pending.drain(..) {
                chosen[i as usize] = true;
            }
        } else {
            // `pending` is in the order of the rounds, so grouped by later document: the
            // first of each group.
            let later = |i: u32| order(&self.candidates[i as usize]).0;
            let mut rest = Vec::with_capacity(pending.len());
            for (at, &i) in pending.iter().enumerate() {
                if at == 0 || later(pending[at - 1]) != later(i) {
                    chosen[i as usize] = true;
                } else {
                    rest.push(i);
                }
            }
            pending = rest;
        }
        self.round = self.listed.iter().copied().filter(|&i| chosen[i as usize]).collect();
        self.pending = pending;
        self.made += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;
    use crate::union_find::component_roots;
    use std::collections::HashSet;

    /// Runs every round with the similarities `sim(pair)`: the kept pairs, and how many
    /// pairs were measured.
    fn run(
        slots: usize,
        candidates: &[Pair],
        threshold: f64,
        sim: impl Fn(Pair) -> f64,
    ) -> (Vec<Pair>, usize) {
        let mut r = Rounds::sorted(slots, candidates.to_vec(), threshold);
        let mut measured = 0;
        let mut rounds = 0;
        while r.len() > 0 {
            let s: Vec<f64> = r.round().map(&sim).collect();
            measured += s.len();
            r.record(&s).unwrap();
            rounds += 1;
        }
        assert!(rounds <= ONE_EACH + 1, "{rounds} rounds");
        (r.into_kept().0, measured)
    }

    /// Random candidate graphs with random similarities: the kept pairs are a spanning
    /// forest of the pairs at the threshold (the naive oracle: union-find over all of them),
    /// each kept pair reaches the threshold, and the result does not depend on the order
    /// the candidates are given in.
    #[test]
    fn the_kept_pairs_span_the_clusters_of_all_pairs_at_the_threshold() {
        let mut rng = Rng(41);
        for case in 0..300 {
            let slots = 2 + rng.below(60) as usize;
            let mut set = HashSet::new();
            for _ in 0..rng.below(200) {
                let (x, y) = (rng.below(slots as u64) as u32, rng.below(slots as u64) as u32);
                if x != y {
                    set.insert((x.min(y), x.max(y), rng.below(8) as u32));
                }
            }
            let mut candidates: Vec<Pair> = set.into_iter().collect();
            candidates.sort_unstable();
            candidates.dedup_by_key(|c| (c.0, c.1));
            let seed = rng.below(u64::MAX);
            let sim = |c: Pair| {
                let h =
                    crate::hash::hash_bytes(&(seed ^ (u64::from(c.0) << 32 | u64::from(c.1))).to_le_bytes());
                (h % 1000) as f64 / 1000.0
            };
            let threshold = [0.0, 0.3, 0.8, 1.0][case % 4];
            let (kept, measured) = run(slots, &candidates, threshold, sim);
            assert!(measured <= candidates.len());
            let all: Vec<(u32, u32)> =
                candidates.iter().filter(|&&c| sim(c) >= threshold).map(|c| (c.0, c.1)).collect();
            let want = component_roots(slots, all.iter().copied());
            let got = component_roots(slots, kept.iter().map(|c| (c.0, c.1)));
            assert_eq!(got, want, "case {case}: the same clusters");
            let joined = want.iter().enumerate().filter(|&(s, &r)| r as usize != s).count();
            assert_eq!(kept.len(), joined, "case {case}: a spanning forest");
            assert!(kept.iter().all(|&c| sim(c) >= threshold && candidates.contains(&c)), "case {case}");
            let mut shuffled = candidates.clone();
            for i in (1..shuffled.len()).rev() {
                shuffled.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let (again, _) = run(slots, &shuffled, threshold, sim);
            let sorted = |mut v: Vec<Pair>| {
                v.sort_unstable();
                v
            };
            assert_eq!(sorted(again), sorted(kept), "case {case}: any order");
        }
    }

    /// A page mirrored 200 times, every copy a candidate of the 64 before it: one round
    /// of 199 pairs joins it all, and nothing else is measured.
    #[test]
    fn mirrors_cost_one_pair_each() {
        let candidates: Vec<Pair> =
            (1..200u32).flat_map(|b| (b.saturating_sub(64)..b).map(move |a| (a, b, b - a))).collect();
        let (kept, measured) = run(200, &candidates, 0.8, |_| 1.0);
        assert_eq!((kept.len(), measured), (199, 199));
        // With every pair below the threshold, each is measured once and none is kept.
        let (kept, measured) = run(200, &candidates, 0.8, |_| 0.5);
        assert_eq!((kept.len(), measured), (0, candidates.len()));
    }

    #[test]
    fn a_list_of_another_length_is_refused_and_changes_nothing() {
        let mut r = Rounds::new(3, vec![(0, 1, 2), (1, 2, 3)], vec![1, 0], 0.5);
        assert_eq!(r.len(), 2);
        assert_eq!(r.indices(), &[1, 0], "the listed order");
        let e = r.record(&[1.0]).unwrap_err();
        assert!(e.to_string().contains("`jaccards`") && e.to_string().contains("(2)"), "{e}");
        r.record(&[1.0, 1.0]).unwrap();
        assert_eq!(r.len(), 0);
        assert_eq!(r.into_kept().0, vec![(0, 1, 2), (1, 2, 3)]);
    }
}
