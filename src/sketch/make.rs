//! Building a sketch from shingle hashes, with buffers reused from text to text.

use super::{Sketch, SketchScheme, DENSIFY_SEED, NIBBLE_SEED, ODD_SEED, OPH_SEED};
use crate::hash::mix;
use crate::scan::Shingles;

/// `⌊x · n / 2^32⌋` for the top 32 bits `x` of a hash: a bin from `0..n` without a division.
#[inline(always)]
fn reduce(x: u64, n: usize) -> usize {
    (((x >> 32) * n as u64) >> 32) as usize
}

/// Makes sketches from shingle hashes, with its work buffers reused across texts.
#[derive(Clone, Debug, Default)]
pub(crate) struct SketchBuilder {
    mins: Vec<u32>,
    filled: Vec<bool>,
}

impl SketchBuilder {
    /// The sketch of a text's shingles, in text order with repeats (sorted and made
    /// distinct here, in place).
    pub(crate) fn finish_collected(&mut self, scheme: SketchScheme, shingles: &mut Shingles) -> Sketch {
        let hashes = &mut shingles.hashes;
        hashes.sort_unstable();
        hashes.dedup();
        self.finish(scheme, hashes)
    }

    /// The sketch of `distinct`, a set of distinct shingle hashes in any order.
    pub(crate) fn finish(&mut self, scheme: SketchScheme, distinct: &[u64]) -> Sketch {
        let size = scheme.size();
        let mut bytes = vec![0u8; size].into_boxed_slice();
        let n = u32::try_from(distinct.len()).unwrap_or(u32::MAX);
        bytes[..4].copy_from_slice(&n.to_le_bytes());

        let (head, minhash) = bytes.split_at_mut(size / 2);
        let odd = &mut head[4..];
        let m = odd.len() * 8;
        let bins = scheme.bins();
        self.mins.clear();
        self.mins.resize(bins, u32::MAX);
        self.filled.clear();
        self.filled.resize(bins, false);
        for &h in distinct {
            let p = reduce(mix(h ^ ODD_SEED), m);
            odd[p / 8] ^= 1 << (p % 8);
            let g = mix(h ^ OPH_SEED);
            let bin = reduce(g, bins);
            let order = g as u32;
            if !self.filled[bin] || order < self.mins[bin] {
                self.mins[bin] = order;
                self.filled[bin] = true;
            }
        }
        let nibble = |order: u32| (mix(order as u64 ^ NIBBLE_SEED) & 15) as u8;
        let any = self.filled.iter().any(|&f| f);
        for bin in 0..bins {
            let value = if self.filled[bin] {
                nibble(self.mins[bin])
            } else if any {
                nibble(self.mins[self.donor(bin)])
            } else {
                0 // no shingle at all: only an empty set, which no text gives
            };
            minhash[bin / 2] |= value << (4 * (bin % 2));
        }
        Sketch { bytes }
    }

    /// The filled bin whose value the empty `bin` takes (optimal densification), given
    /// that some bin is filled.
    fn donor(&self, bin: usize) -> usize {
        let bins = self.filled.len();
        for attempt in 0..64 * bins as u64 {
            let c = reduce(mix(((bin as u64) << 32 | attempt) ^ DENSIFY_SEED), bins);
            if self.filled[c] {
                return c;
            }
        }
        (1..bins).map(|d| (bin + d) % bins).find(|&c| self.filled[c]).expect("a filled bin")
    }
}
