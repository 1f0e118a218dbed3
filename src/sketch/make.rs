//! Building a sketch from shingle hashes, with buffers reused from text to text.

use super::{Sketch, SketchScheme, DENSIFY_SEED, NIBBLE_SEED, ODD_SEED, OPH_SEED};
use crate::hash::mix;
use crate::scan::Shingles;

/// `⌊x · n / 2^32⌋` for the top 32 bits `x` of a hash: a bin from `0..n` without a division.
#[inline(always)]
fn reduce(x: u64, n: usize) -> usize {
    (((x >> 32) * n as u64) >> 32) as usize
}

/// A bin's minimum before any shingle reached it: above every `u32` order, so a plain
/// `min` fills a bin and keeps its least order with no branch.
const EMPTY: u64 = u64::MAX;

/// The most shingles made distinct by the set of [`distinct_in_place`] (16 bytes of table a
/// shingle); a longer text's are sorted in place instead, with no memory beside them.
pub(crate) const SET_MOST: usize = 1 << 20;

/// Makes sketches from shingle hashes, with its work buffers reused across texts.
#[derive(Clone, Debug, Default)]
pub(crate) struct SketchBuilder {
    /// Each bin's least order so far, or [`EMPTY`].
    mins: Vec<u64>,
    /// The open-addressing set that makes a text's shingles distinct.
    seen: Vec<u64>,
}

impl SketchBuilder {
    /// The sketch of a text's shingles, in text order with repeats (made distinct here, in
    /// place).
    pub(crate) fn finish_collected(&mut self, scheme: SketchScheme, shingles: &mut Shingles) -> Sketch {
        let hashes = &mut shingles.hashes;
        if hashes.len() <= SET_MOST {
            let n = distinct_in_place(&mut self.seen, hashes);
            hashes.truncate(n);
        } else {
            hashes.sort_unstable();
            hashes.dedup();
        }
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
        self.mins.resize(bins, EMPTY);
        // Slices, not the Vecs: opt-level "z" (the browser build) calls `Vec`'s `IndexMut`.
        let mins = self.mins.as_mut_slice();
        for &h in distinct {
            let p = reduce(mix(h ^ ODD_SEED), m);
            odd[p / 8] ^= 1 << (p % 8);
            let g = mix(h ^ OPH_SEED);
            let slot = &mut mins[reduce(g, bins)];
            *slot = (*slot).min(u64::from(g as u32));
        }
        let nibble = |order: u64| (mix(order ^ NIBBLE_SEED) & 15) as u8;
        let any = !distinct.is_empty();
        for bin in 0..bins {
            let value = if self.mins[bin] != EMPTY {
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
        let bins = self.mins.len();
        let filled = |c: usize| self.mins[c] != EMPTY;
        for attempt in 0..64 * bins as u64 {
            let c = reduce(mix(((bin as u64) << 32 | attempt) ^ DENSIFY_SEED), bins);
            if filled(c) {
                return c;
            }
        }
        (1..bins).map(|d| (bin + d) % bins).find(|&c| filled(c)).expect("a filled bin")
    }
}

/// Moves the distinct values of `hashes` to its front, each at its first occurrence and in
/// that order, and returns how many there are; `table` is the reused room of an
/// open-addressing set (linear probing from a value's top bits; 0 marks an empty slot, so
/// the value 0 is tracked apart). Linear in the number of values, where a sort is not.
pub(crate) fn distinct_in_place(table: &mut Vec<u64>, hashes: &mut [u64]) -> usize {
    let slots = (hashes.len() * 2).next_power_of_two().max(16);
    if table.len() < slots {
        table.resize(slots, 0);
    }
    let table = &mut table[..slots];
    table.fill(0);
    let mask = slots - 1;
    let shift = 64 - slots.trailing_zeros();
    let mut zero = false;
    let mut kept = 0;
    for r in 0..hashes.len() {
        let h = hashes[r];
        let new = if h == 0 {
            !std::mem::replace(&mut zero, true)
        } else {
            let mut i = (h >> shift) as usize;
            loop {
                let v = table[i];
                if v == h {
                    break false;
                }
                if v == 0 {
                    table[i] = h;
                    break true;
                }
                i = (i + 1) & mask;
            }
        };
        hashes[kept] = h;
        kept += usize::from(new);
    }
    kept
}
