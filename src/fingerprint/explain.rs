//! [`SimHasher::explain`]: every step of one fingerprint (normalised text, tokens with
//! offsets, hashes, weights, the 64 sums), for teaching and debugging.

use super::accumulate::sign;
use super::SimHasher;
use crate::error::Result;
use crate::weight::{quantize, WEIGHT_SCALE};

/// One feature occurrence in an [`Explanation`].
#[derive(Clone, Debug, PartialEq)]
pub struct ExplainedToken {
    /// Byte offset in the normalised text.
    pub start: usize,
    /// Byte offset just past the token in the normalised text.
    pub end: usize,
    /// The feature's hash; its bits are the row the token adds.
    pub hash: u64,
    /// How many times the feature occurs in the text.
    pub tf: u32,
    /// The feature's weight (after fixed-point rounding). It is added once per distinct
    /// feature, at its first occurrence.
    pub weight: f64,
    /// `true` at the feature's first occurrence, where its weight is added.
    pub first: bool,
}

/// Every step of the fingerprint of one text, for teaching and debugging.
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    /// The normalised text.
    pub normalized: String,
    /// Every feature occurrence, in text order.
    pub tokens: Vec<ExplainedToken>,
    /// The 64 per-bit weighted sums; index `i` is bit `i` (least significant first).
    pub sums: [f64; 64],
    /// The fingerprint: bit `i` is 1 where `sums[i] > 0`.
    pub fingerprint: u64,
}

impl SimHasher {
    /// Every step of the fingerprint of `text`: normalised text, tokens with offsets,
    /// hashes and weights, the 64 sums, and the fingerprint.
    pub fn explain(&mut self, text: &str) -> Result<Explanation> {
        let mut occurrences = Vec::new();
        self.count_features(text, Some(&mut |start, end, hash| occurrences.push((start, end, hash))))?;
        let sums = self.sums()?;
        let mut seen = std::collections::HashSet::new();
        let tokens = occurrences
            .into_iter()
            .map(|(start, end, hash)| {
                let tf = self.counter.get(hash);
                ExplainedToken {
                    start,
                    end,
                    hash,
                    tf,
                    weight: quantize(self.weight_of(hash, tf)) as f64 / WEIGHT_SCALE,
                    first: seen.insert(hash),
                }
            })
            .collect();
        let mut fsums = [0.0; 64];
        for (f, s) in fsums.iter_mut().zip(sums) {
            *f = s as f64 / WEIGHT_SCALE;
        }
        Ok(Explanation { normalized: self.norm.clone(), tokens, sums: fsums, fingerprint: sign(&sums) })
    }
}
