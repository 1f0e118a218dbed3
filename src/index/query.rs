//! Queries: one fingerprint, a smaller radius, batches (grouped so that their cache
//! misses overlap), counts, and the probing strategy's variant lookups.

use super::table::{low_bits, Table};
use super::{FlatMatches, Index, IndexId, Match};
use crate::error::{Error, Result};

/// Queries a batch warms up together (see `Index::warm`).
const GROUP: usize = 16;

/// Reused buffers of a query.
#[derive(Default)]
struct Scratch {
    /// `(slot, distance)` matches.
    out: Vec<(u32, u32)>,
    /// Gathered candidate slots of one segment.
    cand: Vec<u32>,
    /// End of each table's candidates in `cand`.
    ends: Vec<usize>,
}

impl<I: IndexId> Index<I> {
    /// Every live entry within the layout's `k` bits of `fp`: each id once, sorted by
    /// distance, then id.
    pub fn query(&self, fp: u64) -> Vec<Match<I>> {
        let mut scratch = Scratch::default();
        std::hint::black_box(self.warm(&[fp], true));
        self.query_slots(fp, self.layout.k, &mut scratch);
        self.to_matches(&mut scratch.out)
    }

    /// Like [`Index::query`] with a smaller radius `k ≤ layout k`; a larger `k` is an
    /// error (the layout cannot guarantee it).
    ///
    /// ```
    /// use simhash_wasm::index::{Index, Layout};
    /// let index = Index::build(Layout::default_for_k(3)?, vec![(1u64, 0u64), (2, 0b11)])?;
    /// assert_eq!(index.query_within(0, 1)?.len(), 1);
    /// assert!(index.query_within(0, 4).is_err());
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn query_within(&self, fp: u64, k: u32) -> Result<Vec<Match<I>>> {
        if k > self.layout.k {
            return Err(Error::option("k", k, format!("at most the layout's k = {}", self.layout.k)));
        }
        let mut scratch = Scratch::default();
        std::hint::black_box(self.warm(&[fp], true));
        self.query_slots(fp, k, &mut scratch);
        Ok(self.to_matches(&mut scratch.out))
    }

    /// [`Index::query`] for each fingerprint of a batch.
    pub fn query_batch(&self, fps: &[u64]) -> Vec<Vec<Match<I>>> {
        let mut outs: Vec<Vec<(u32, u32)>> = vec![Vec::new(); GROUP];
        let mut pend = Vec::new();
        let mut all = Vec::with_capacity(fps.len());
        for group in fps.chunks(GROUP) {
            self.query_group(group, self.layout.k, &mut outs, &mut pend);
            for out in outs.iter_mut().take(group.len()) {
                all.push(self.to_matches(out));
            }
        }
        all
    }

    /// [`Index::query_batch`] as three flat arrays; see [`FlatMatches`].
    ///
    /// ```
    /// use simhash_wasm::index::{Index, Layout};
    /// let index = Index::build(Layout::default_for_k(3)?, vec![(1u64, 0u64), (2, 1)])?;
    /// let flat = index.query_batch_flat(&[u64::MAX, 1]);
    /// assert_eq!(flat.queries, vec![1, 1]);
    /// assert_eq!(flat.ids, vec![2, 1]);
    /// assert_eq!(flat.distances, vec![0, 1]);
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn query_batch_flat(&self, fps: &[u64]) -> FlatMatches<I> {
        let mut out = FlatMatches { queries: Vec::new(), ids: Vec::new(), distances: Vec::new() };
        let mut outs: Vec<Vec<(u32, u32)>> = vec![Vec::new(); GROUP];
        let mut pend = Vec::new();
        for (g, group) in fps.chunks(GROUP).enumerate() {
            self.query_group(group, self.layout.k, &mut outs, &mut pend);
            for (i, found) in outs.iter_mut().take(group.len()).enumerate() {
                self.sort_slots(found);
                for &(s, d) in found.iter() {
                    out.queries.push((g * GROUP + i) as u32);
                    out.ids.push(self.ids[s as usize].clone());
                    out.distances.push(d);
                }
            }
        }
        out
    }

    /// Number of live entries within `k` of `fp`, without building the result list.
    pub fn count(&self, fp: u64) -> usize {
        let mut scratch = Scratch::default();
        self.query_slots(fp, self.layout.k, &mut scratch);
        scratch.out.len()
    }

    #[doc(hidden)]
    pub fn debug_candidates(&self, q: u64) -> Vec<usize> {
        let mut v = Vec::new();
        for seg in &self.segments {
            for table in &seg.tables {
                let b = table.ext.bucket(q);
                v.push((table.dir[b + 1] - table.dir[b]) as usize);
            }
        }
        v
    }

    fn sort_slots(&self, v: &mut [(u32, u32)]) {
        let ids = &self.ids;
        crate::sort::sort_by(v, |a, b| a.1.cmp(&b.1).then_with(|| ids[a.0 as usize].cmp(&ids[b.0 as usize])));
    }

    fn to_matches(&self, v: &mut [(u32, u32)]) -> Vec<Match<I>> {
        self.sort_slots(v);
        v.iter().map(|&(s, d)| Match { id: self.ids[s as usize].clone(), distance: d }).collect()
    }

    /// Touches the directory entries, the start of each bucket's list and filter, and
    /// the first fingerprint of each ordered bucket for a group of queries, so that their
    /// cache misses overlap instead of coming one after another inside `query_slots`.
    fn warm(&self, qs: &[u64], second_wave: bool) -> u64 {
        let mut sink = 0u64;
        if self.layout.probe {
            return sink;
        }
        for seg in &self.segments {
            for table in &seg.tables {
                for &q in qs {
                    let b = table.ext.bucket(q);
                    let lo = table.dir[b] as usize;
                    sink ^= u64::from(table.dir[b + 1]);
                    match &table.list {
                        None => sink ^= self.fps.get(table.base as usize + lo).copied().unwrap_or(0),
                        Some(list) => {
                            let hi = table.dir[b + 1] as usize;
                            sink ^= u64::from(list.get(lo).copied().unwrap_or(0));
                            sink ^= u64::from(list.get(hi.wrapping_sub(1)).copied().unwrap_or(0));
                        }
                    }
                }
            }
            if !second_wave {
                continue;
            }
            // second wave: the fingerprints of the candidates that pass the filter
            let k = self.layout.k;
            for table in &seg.tables {
                let Some(list) = &table.list else { continue };
                for &q in qs {
                    let (lo, hi) = table.bucket_range(q);
                    for s in table.fold_candidates(list, lo, hi, q, k) {
                        sink ^= self.fps[s as usize];
                    }
                }
            }
        }
        sink
    }

    /// Answers a group of at most `GROUP` queries into `outs[i]` (unsorted `(slot,
    /// distance)`), in stages so that the cache misses of different queries overlap:
    /// touch the directories and list ends of all; gather every query's candidates that
    /// pass the fold filter; then check all the gathered candidates in one flat loop.
    fn query_group(
        &self,
        qs: &[u64],
        k: u32,
        outs: &mut [Vec<(u32, u32)>],
        pend: &mut Vec<(u32, u16, u16, u16)>,
    ) {
        for out in outs.iter_mut() {
            out.clear();
        }
        if self.layout.probe || self.segments.len() > usize::from(u16::MAX) {
            let mut scratch = Scratch::default();
            for (&q, out) in qs.iter().zip(outs.iter_mut()) {
                self.query_slots(q, k, &mut scratch);
                std::mem::swap(out, &mut scratch.out);
                scratch.out.clear();
            }
            return;
        }
        std::hint::black_box(self.warm(qs, false));
        pend.clear();
        for (qi, (&q, out)) in qs.iter().zip(outs.iter_mut()).enumerate() {
            for (si, seg) in self.segments.iter().enumerate() {
                for (t, table) in seg.tables.iter().enumerate() {
                    let (lo, hi) = table.bucket_range(q);
                    match &table.list {
                        None => self.scan_run(table, lo, hi, q, k, &seg.masks[..t], out),
                        Some(list) => pend.extend(
                            table
                                .fold_candidates(list, lo, hi, q, k)
                                .map(|s| (s, qi as u16, si as u16, t as u16)),
                        ),
                    }
                }
            }
            self.scan_buffer(q, k, out);
        }
        for &(s, qi, si, t) in pend.iter() {
            let x = self.fps[s as usize] ^ qs[usize::from(qi)];
            if x.count_ones() <= k {
                let masks = &self.segments[usize::from(si)].masks[..usize::from(t)];
                self.accept(s as usize, x, masks, &mut outs[usize::from(qi)]);
            }
        }
    }

    fn scan_buffer(&self, q: u64, k: u32, out: &mut Vec<(u32, u32)>) {
        for s in self.buf_start..self.fps.len() {
            let x = self.fps[s] ^ q;
            if x.count_ones() <= k && !self.is_dead(s) {
                out.push((s as u32, x.count_ones()));
            }
        }
    }

    /// Pushes `(slot, distance)` for every live match, each slot once, unsorted.
    fn query_slots(&self, q: u64, k: u32, scratch: &mut Scratch) {
        let out = &mut scratch.out;
        if self.layout.probe {
            self.probe_rec(q, q, 0, k, out);
        } else {
            let Scratch { cand, ends, .. } = scratch;
            ends.resize(self.layout.tables(), 0);
            for seg in &self.segments {
                for (t, table) in seg.tables.iter().enumerate() {
                    ends[t] = cand.len();
                    let (lo, hi) = table.bucket_range(q);
                    let earlier = &seg.masks[..t];
                    match &table.list {
                        None => self.scan_run(table, lo, hi, q, k, earlier, out),
                        Some(list) => {
                            // Gathered first, checked below in one flat loop: the fingerprint
                            // loads are independent cache misses that the CPU overlaps.
                            cand.extend(table.fold_candidates(list, lo, hi, q, k));
                            ends[t] = cand.len();
                        }
                    }
                }
                // phase 2: one flat loop over the tables' candidates
                let mut t = 0;
                for (i, &s) in cand.iter().enumerate() {
                    let x = self.fps[s as usize] ^ q;
                    if x.count_ones() <= k {
                        while ends[t] <= i {
                            t += 1;
                        }
                        self.accept(s as usize, x, &seg.masks[..t], out);
                    }
                }
                cand.clear();
            }
        }
        self.scan_buffer(q, k, out);
    }

    /// Checks bucket `lo..hi` of a table with no list, whose fingerprints lie contiguous
    /// in slot order.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn scan_run(
        &self,
        table: &Table,
        lo: usize,
        hi: usize,
        q: u64,
        k: u32,
        earlier: &[u64],
        out: &mut Vec<(u32, u32)>,
    ) {
        let base = table.base as usize + lo;
        for (i, &f) in self.fps[base..table.base as usize + hi].iter().enumerate() {
            let x = f ^ q;
            if x.count_ones() <= k {
                self.accept(base + i, x, earlier, out);
            }
        }
    }

    #[inline(always)]
    fn accept(&self, s: usize, x: u64, earlier: &[u64], out: &mut Vec<(u32, u32)>) {
        if earlier.iter().all(|&m| x & m != 0) && !self.is_dead(s) {
            out.push((s as u32, x.count_ones()));
        }
    }

    /// Probing: looks up `v` and every variant of it that flips `left` more bits at
    /// positions ≥ `from`.
    fn probe_rec(&self, q: u64, v: u64, from: u32, left: u32, out: &mut Vec<(u32, u32)>) {
        self.probe_exact(q, v, out);
        if left == 0 {
            return;
        }
        for bit in from..64 {
            self.probe_rec(q, v ^ (1u64 << bit), bit + 1, left - 1, out);
        }
    }

    #[inline]
    fn probe_exact(&self, q: u64, v: u64, out: &mut Vec<(u32, u32)>) {
        for seg in &self.segments {
            let table = &seg.tables[0];
            let (lo, hi) = table.bucket_range(v);
            if lo == hi {
                continue;
            }
            let mut check = |s: usize| {
                if self.fps[s] == v && !self.is_dead(s) {
                    out.push((s as u32, (v ^ q).count_ones()));
                }
            };
            match &table.list {
                None => (table.base as usize + lo..table.base as usize + hi).for_each(&mut check),
                Some(list) => {
                    let smask = low_bits(table.slot_bits) as u32;
                    list[lo..hi].iter().for_each(|&e| check((table.base + (e & smask)) as usize))
                }
            }
        }
    }
}
