//! The per-bit sums: the exact fixed-point [`Accumulator`], the SWAR [`ColumnCounter`]
//! that counts set bits per column for features of equal weight, and the sign step.

use crate::error::{Error, Result};

/// The sign step: bit `i` is 1 where `sums[i] > 0`; a sum of exactly 0 gives 0.
#[inline]
pub(super) fn sign(sums: &[i64; 64]) -> u64 {
    sums.iter().enumerate().fold(0u64, |fp, (i, &s)| fp | (u64::from(s > 0) << i))
}

/// Exact fixed-point per-bit sums.
pub(super) struct Accumulator {
    pub(super) sums: [i64; 64],
    /// Sum of all weights so far: no |sum| can exceed it, so checking it alone rules out
    /// overflow of every column.
    total: i64,
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator { sums: [0; 64], total: 0 }
    }
}

impl Accumulator {
    #[inline]
    pub(super) fn add_weighted(&mut self, h: u64, q: i64) -> Result<()> {
        self.total = self.total.checked_add(q).ok_or(Error::WeightOverflow)?;
        for (i, s) in self.sums.iter_mut().enumerate() {
            let bit = ((h >> i) & 1) as i64;
            *s += (2 * bit - 1) * q;
        }
        Ok(())
    }

    /// Adds `n` features of weight `q`, of which `counts[i]` have bit `i` set.
    pub(super) fn add_counts(&mut self, counts: &[u32; 64], n: u32, q: i64) -> Result<()> {
        let w = q.checked_mul(i64::from(n)).ok_or(Error::WeightOverflow)?;
        self.total = self.total.checked_add(w).ok_or(Error::WeightOverflow)?;
        for (s, &c) in self.sums.iter_mut().zip(counts) {
            *s += q * (2 * i64::from(c) - i64::from(n));
        }
        Ok(())
    }
}

/// Number of tf classes counted with byte counters (tf 1..CLASSES-1); rarer, higher tfs
/// are added one by one.
pub(super) const CLASSES: usize = 8;

/// Counts, for each of the 64 bit positions, how many added hashes have that bit set, with
/// SWAR counters in two stages:
///
/// - four words of sixteen 4-bit counters: word `m` counts bits `m, m + 4, ..., m + 60`
///   (`(h >> m) & 0x1111..11` puts each in its own nibble), so a hash costs four
///   shift-mask-adds; they are spilled every 15 hashes, before a nibble can overflow,
/// - into eight words of eight byte counters: word `q` counts bits `q, q + 8, ..., q + 56`
///   (the low nibbles of word `m` are bits `m + 8k`, its high nibbles bits `m + 4 + 8k`),
///   which go to the `u32` totals every 17 spills (255 hashes).
#[derive(Clone, Debug)]
pub(super) struct ColumnCounter {
    nibbles: [u64; 4],
    bytes: [u64; 8],
    /// Hashes in `nibbles`, and spills in `bytes`.
    pending: u32,
    spills: u32,
    pub(super) counts: [u32; 64],
    pub(super) n: u32,
}

impl Default for ColumnCounter {
    fn default() -> Self {
        ColumnCounter { nibbles: [0; 4], bytes: [0; 8], pending: 0, spills: 0, counts: [0; 64], n: 0 }
    }
}

impl ColumnCounter {
    const NIBBLE_LOW_BITS: u64 = 0x1111_1111_1111_1111;
    const LOW_NIBBLES: u64 = 0x0F0F_0F0F_0F0F_0F0F;

    #[inline(always)]
    pub(super) fn add(&mut self, h: u64) {
        // Written out, not a loop: opt-level "z" (the browser build) does not unroll.
        let [a, b, c, d] = &mut self.nibbles;
        *a += h & Self::NIBBLE_LOW_BITS;
        *b += (h >> 1) & Self::NIBBLE_LOW_BITS;
        *c += (h >> 2) & Self::NIBBLE_LOW_BITS;
        *d += (h >> 3) & Self::NIBBLE_LOW_BITS;
        self.n += 1;
        self.pending += 1;
        if self.pending == 15 {
            self.spill();
        }
    }

    /// Adds every hash of `hashes`: fifteen at a time in four locals (which the compiler
    /// keeps in registers, where `add` works on the counter in memory), then spilled.
    #[inline(always)]
    pub(super) fn add_all(&mut self, mut hashes: impl Iterator<Item = u64>) {
        const L: u64 = ColumnCounter::NIBBLE_LOW_BITS;
        if self.pending != 0 {
            self.spill();
        }
        loop {
            let (mut a, mut b, mut c, mut d) = (0, 0, 0, 0);
            let mut k = 0;
            for h in hashes.by_ref().take(15) {
                a += h & L;
                b += (h >> 1) & L;
                c += (h >> 2) & L;
                d += (h >> 3) & L;
                k += 1;
            }
            self.nibbles = [a, b, c, d];
            self.n += k;
            self.spill();
            if k < 15 {
                return;
            }
        }
    }

    fn spill(&mut self) {
        for m in 0..4 {
            let w = self.nibbles[m];
            self.bytes[m] += w & Self::LOW_NIBBLES;
            self.bytes[m + 4] += (w >> 4) & Self::LOW_NIBBLES;
            self.nibbles[m] = 0;
        }
        self.pending = 0;
        self.spills += 1;
        if self.spills == 17 {
            self.flush_bytes();
        }
    }

    fn flush_bytes(&mut self) {
        for (q, acc) in self.bytes.iter_mut().enumerate() {
            for k in 0..8 {
                self.counts[8 * k + q] += ((*acc >> (8 * k)) & 0xFF) as u32;
            }
            *acc = 0;
        }
        self.spills = 0;
    }

    /// Moves everything pending into `counts`.
    pub(super) fn flush(&mut self) {
        self.spill();
        self.flush_bytes();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (every counter at its maximum between spills), single bits, and a reference count.
    #[test]
    fn column_counter_counts_every_bit() {
        for total in [0u32, 1, 14, 15, 16, 254, 255, 256, 1000, 4097] {
            let mut c = ColumnCounter::default();
            for _ in 0..total {
                c.add(u64::MAX);
            }
            c.flush();
            assert_eq!((c.n, c.counts), (total, [total; 64]), "{total} all-ones hashes");
        }
        let mut c = ColumnCounter::default();
        let mut want = [0u32; 64];
        let mut rng = crate::test_rng::Rng(0x243F_6A88_85A3_08D3);
        for i in 0..3000u32 {
            let x = rng.next();
            let h = if i % 7 == 0 { 1 << (i % 64) } else { x };
            for (b, w) in want.iter_mut().enumerate() {
                *w += (h >> b & 1) as u32;
            }
            c.add(h);
        }
        c.flush();
        assert_eq!(c.counts, want);
    }

    /// `add_all` (fifteen hashes in registers, then a spill) against one `add` at a time,
    /// for counts around every spill and flush boundary, after some single adds.
    #[test]
    fn add_all_counts_like_add() {
        let mut rng = crate::test_rng::Rng(0x9E37_79B9);
        for total in [0usize, 1, 14, 15, 16, 30, 254, 255, 256, 1000, 4097] {
            for before in [0, 3, 15] {
                let hashes: Vec<u64> =
                    (0..total).map(|i| if i % 5 == 0 { u64::MAX } else { rng.next() }).collect();
                let (mut one, mut all) = (ColumnCounter::default(), ColumnCounter::default());
                for _ in 0..before {
                    one.add(u64::MAX);
                    all.add(u64::MAX);
                }
                hashes.iter().for_each(|&h| one.add(h));
                all.add_all(hashes.iter().copied());
                one.flush();
                all.flush();
                assert_eq!((all.n, all.counts), (one.n, one.counts), "{total} after {before}");
            }
        }
    }
}
