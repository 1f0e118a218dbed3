//! Large query batches, answered table by table in bucket order.
//!
//! A query's lookups are random memory accesses: a directory entry and a bucket per table.
//! For a batch of at least [`SORTED_MIN`] queries, each table is visited once for the
//! whole batch, with the queries sorted by their bucket in that table (an LSD radix sort
//! of `bucket << 32 | query`): the directory and the buckets are then read in ascending
//! address order, so neighbouring queries share cache lines and the hardware prefetcher
//! sees forward strides. The candidates that pass the fold filter are checked afterwards
//! in one flat loop (independent loads the CPU overlaps), and the matches are grouped back
//! by query with a counting sort, so the caller sees them in its own order.
//!
//! The result is the same as answering each query alone: a match found in table `t` is
//! kept only if no earlier table's bucket holds it (the mask test on the XOR, which does
//! not depend on the order tables or queries are visited in), and tombstones are skipped.

use super::{Index, IndexId};

/// Batches at least this long take the sorted path; shorter ones go in groups of 16.
pub(super) const SORTED_MIN: usize = 64;

impl<I: IndexId> Index<I> {
    /// `true` when [`Index::batch_sorted`] serves a batch of `n` queries.
    pub(super) fn sorted_batch_applies(&self, n: usize) -> bool {
        n >= SORTED_MIN && !self.layout.probe && n <= u32::MAX as usize
    }

    /// Every query's `(slot, distance)` matches (unsorted within a query), grouped by
    /// query: query `i`'s are `rows[starts[i]..starts[i + 1]]`.
    pub(super) fn batch_sorted(&self, qs: &[u64], k: u32) -> (Vec<u32>, Vec<(u32, u32)>) {
        // (query, slot, distance)
        let mut found: Vec<(u32, u32, u32)> = Vec::new();
        // (query, slot, table) candidates that passed the fold filter
        let mut pend: Vec<(u32, u32, u32)> = Vec::new();
        let mut keys: Vec<u64> = Vec::with_capacity(qs.len());
        let mut tmp: Vec<u64> = vec![0; qs.len()];
        for seg in &self.segments {
            pend.clear();
            for (t, table) in seg.tables.iter().enumerate() {
                keys.clear();
                keys.extend(
                    qs.iter().enumerate().map(|(i, &q)| (table.ext.bucket(q) as u64) << 32 | i as u64),
                );
                radix_sort_high(&mut keys, &mut tmp, table.ext.bits);
                let earlier = &seg.masks[..t];
                let base = table.base as usize;
                match &table.list {
                    None => {
                        for &key in &keys {
                            let (b, i) = ((key >> 32) as usize, key as u32);
                            let q = qs[i as usize];
                            let lo = base + table.dir[b] as usize;
                            let hi = base + table.dir[b + 1] as usize;
                            for (j, &f) in self.fps[lo..hi].iter().enumerate() {
                                let x = f ^ q;
                                if x.count_ones() <= k
                                    && earlier.iter().all(|&m| x & m != 0)
                                    && !self.is_dead(lo + j)
                                {
                                    found.push((i, (lo + j) as u32, x.count_ones()));
                                }
                            }
                        }
                    }
                    Some(list) => {
                        for &key in &keys {
                            let (b, i) = ((key >> 32) as usize, key as u32);
                            let (lo, hi) = (table.dir[b] as usize, table.dir[b + 1] as usize);
                            pend.extend(
                                table
                                    .fold_candidates(list, lo, hi, qs[i as usize], k)
                                    .map(|s| (i, s, t as u32)),
                            );
                        }
                    }
                }
            }
            for &(i, s, t) in &pend {
                let x = self.fps[s as usize] ^ qs[i as usize];
                if x.count_ones() <= k
                    && seg.masks[..t as usize].iter().all(|&m| x & m != 0)
                    && !self.is_dead(s as usize)
                {
                    found.push((i, s, x.count_ones()));
                }
            }
        }
        if self.buf_start < self.fps.len() {
            for (i, &q) in qs.iter().enumerate() {
                for s in self.buf_start..self.fps.len() {
                    let x = self.fps[s] ^ q;
                    if x.count_ones() <= k && !self.is_dead(s) {
                        found.push((i as u32, s as u32, x.count_ones()));
                    }
                }
            }
        }
        // grouped by query (counting sort)
        let mut starts = vec![0u32; qs.len() + 1];
        for &(i, _, _) in &found {
            starts[i as usize + 1] += 1;
        }
        for i in 0..qs.len() {
            starts[i + 1] += starts[i];
        }
        let mut cur = starts[..qs.len()].to_vec();
        let mut rows = vec![(0u32, 0u32); found.len()];
        for &(i, s, d) in &found {
            rows[cur[i as usize] as usize] = (s, d);
            cur[i as usize] += 1;
        }
        (starts, rows)
    }
}

/// Sorts `keys` by their bits `32..32 + bits` (stable LSD radix sort, 8 bits a pass);
/// `tmp` is scratch of at least `keys.len()`.
fn radix_sort_high(keys: &mut Vec<u64>, tmp: &mut Vec<u64>, bits: u32) {
    let n = keys.len();
    tmp.resize(n, 0);
    let mut shift = 32;
    while shift < 32 + bits {
        let mut count = [0u32; 257];
        for &key in keys.iter() {
            count[((key >> shift) & 0xFF) as usize + 1] += 1;
        }
        for d in 0..256 {
            count[d + 1] += count[d];
        }
        for &key in keys.iter() {
            let d = ((key >> shift) & 0xFF) as usize;
            tmp[count[d] as usize] = key;
            count[d] += 1;
        }
        std::mem::swap(keys, tmp);
        shift += 8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radix_sort_high_sorts_by_the_key_bits_and_keeps_ties_in_order() {
        let mut rng = crate::test_rng::Rng(7);
        for bits in [0u32, 1, 8, 13, 16, 24] {
            let mut keys: Vec<u64> =
                (0..3000u64).map(|i| (rng.next() & super::super::table::low_bits(bits)) << 32 | i).collect();
            let mut want = keys.clone();
            want.sort_by_key(|k| k >> 32); // stable: ties keep the query order
            let mut tmp = Vec::new();
            radix_sort_high(&mut keys, &mut tmp, bits);
            assert_eq!(keys, want, "bits = {bits}");
        }
    }
}
