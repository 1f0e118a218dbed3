//! [`Tally`]: every feature occurrence of one text, and their exact counts (tf), found by
//! partitioning the hashes so that each part is counted in a table that fits in L1 cache.

/// Features counted per part, at most about: a part's table has at most `2 * PART` slots of
/// 12 bytes (a key and a count), 24 kB.
const PART: usize = 1024;

/// The feature hashes of one text, in text order, and their distinct values with counts.
///
/// Counting goes in two passes over the hashes, not one pass of lookups into a table sized
/// for the whole text (whose lookups miss the cache once the text passes a few kB):
///
/// 1. the hashes are radix-partitioned by their top bits into parts of about [`PART`]
///    (a histogram, then a scatter: sequential reads, one write stream per part);
/// 2. each part is counted in an open-addressing table of full 64-bit keys (linear
///    probing from the hash's low bits, at most half full), which stays in L1 cache, then
///    the table is read out in slot order.
///
/// Every hash of a part shares its top bits, and no hash is in two parts, so the counts
/// are exact: the same `(hash, tf)` pairs as any other exact count, in another order
/// (the sums they feed are order-independent integers).
#[derive(Clone, Debug, Default)]
pub(super) struct Tally {
    /// The hashes in text order, in `hashes[..len]` (the rest is room kept between texts).
    hashes: Vec<u64>,
    len: usize,
    /// The hashes grouped by part.
    parts: Vec<u64>,
    /// Per part: its size, then (prefix sums) its end in `parts`.
    ends: Vec<usize>,
    /// A part's table: keys, and counts (0 = empty slot). Every count is 0 between parts.
    keys: Vec<u64>,
    counts: Vec<u32>,
}

impl Tally {
    /// Forgets the last text's hashes, with room for `expected` (more are still taken).
    pub(super) fn reset(&mut self, expected: usize) {
        self.len = 0;
        if self.hashes.len() < expected {
            self.hashes.resize(expected, 0);
        }
    }

    /// Adds one occurrence.
    #[inline(always)]
    pub(super) fn push(&mut self, h: u64) {
        if self.len == self.hashes.len() {
            self.grow();
        }
        self.hashes.as_mut_slice()[self.len] = h;
        self.len += 1;
    }

    #[cold]
    fn grow(&mut self) {
        let room = (2 * self.hashes.len()).max(64);
        self.hashes.resize(room, 0);
    }

    /// The hashes added since [`reset`](Self::reset), in order.
    pub(super) fn hashes(&self) -> &[u64] {
        &self.hashes[..self.len]
    }

    /// Replaces every hash `h` by `f(h)`.
    pub(super) fn remap(&mut self, f: impl Fn(u64) -> u64) {
        for h in &mut self.hashes[..self.len] {
            *h = f(*h);
        }
    }

    /// Counts the hashes and hands each part's table to `f(keys, counts)`: every distinct
    /// hash is the key of exactly one slot, whose count is its tf; the other slots have
    /// count 0 (and key 0). Stops at the first error `f` returns.
    pub(super) fn count<E>(&mut self, mut f: impl FnMut(&[u64], &[u32]) -> Result<(), E>) -> Result<(), E> {
        let n = self.len;
        let parts = n.div_ceil(PART).next_power_of_two();
        if parts <= 1 {
            return count_part(&self.hashes[..n], &mut self.keys, &mut self.counts, &mut f);
        }
        let shift = 64 - parts.trailing_zeros();
        let hashes = &self.hashes[..n];
        self.ends.clear();
        self.ends.resize(parts, 0);
        let ends = self.ends.as_mut_slice();
        for &h in hashes {
            ends[(h >> shift) as usize] += 1;
        }
        // Part p goes to [ends[p - 1], ends[p]) (ends[-1] = 0): ends[p] starts at the
        // part's start and walks to its end as the part is filled.
        let mut start = 0;
        for e in ends.iter_mut() {
            let size = *e;
            *e = start;
            start += size;
        }
        if self.parts.len() < n {
            self.parts.resize(n, 0);
        }
        let out = self.parts.as_mut_slice();
        for &h in hashes {
            let p = &mut ends[(h >> shift) as usize];
            out[*p] = h;
            *p += 1;
        }
        let mut start = 0;
        for &end in ends.iter() {
            count_part(&out[start..end], &mut self.keys, &mut self.counts, &mut f)?;
            start = end;
        }
        Ok(())
    }
}

/// Counts the hashes of one part in `keys`/`counts` (grown as needed; all zero on entry
/// and on return), and hands the table to `f`. Key 0 marks an empty slot, so the hash 0
/// is counted apart and handed to `f` as a table of its own.
fn count_part<E>(
    hashes: &[u64],
    keys: &mut Vec<u64>,
    counts: &mut Vec<u32>,
    f: &mut impl FnMut(&[u64], &[u32]) -> Result<(), E>,
) -> Result<(), E> {
    let slots = (2 * hashes.len()).next_power_of_two().max(16);
    if counts.len() < slots {
        keys.resize(slots, 0);
        counts.resize(slots, 0);
    }
    let (keys, counts) = (&mut keys[..slots], &mut counts[..slots]);
    let mask = slots - 1;
    let mut zeros = 0u32;
    for &h in hashes {
        if h == 0 {
            zeros = zeros.saturating_add(1);
            continue;
        }
        let mut i = h as usize & mask;
        loop {
            let k = keys[i];
            // An empty slot (k == 0) takes the key, a slot holding it counts it again:
            // the same two stores, so one test covers both (min(k ^ h, k) is 0 exactly
            // when k is h or 0) and the usual case has no branch to guess.
            if (k ^ h).min(k) == 0 {
                keys[i] = h;
                counts[i] = counts[i].saturating_add(1);
                break;
            }
            i = (i + 1) & mask;
        }
    }
    let mut result = f(keys, counts);
    if zeros != 0 && result.is_ok() {
        result = f(&[0], &[zeros]);
    }
    keys.fill(0);
    counts.fill(0);
    result
}
