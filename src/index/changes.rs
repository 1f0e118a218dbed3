//! Changes to an [`Index`]: inserts (through the write buffer, flushed into segments that
//! merge log-structured), removes (tombstones), and the reorganisation that a bulk build
//! and [`Index::compact`] share.

use super::table::{bucket_counts, bucket_sort, in_bucket_order, low_bits, Segment, Table};
use super::{too_many, Index, IndexId, Match, BUFFER_LIMIT, MAX_LEN};
use crate::error::{Error, Result};

impl<I: IndexId> Index<I> {
    /// Inserts one entry. An id that is already present is an error
    /// ([`Error::DuplicateId`]), and the index is unchanged: remove it first to update.
    pub fn insert(&mut self, id: I, fp: u64) -> Result<()> {
        if self.map.find(&id, &self.ids).is_some() {
            return Err(Error::DuplicateId { id: id.shown() });
        }
        self.push_new(id, fp)?;
        if self.fps.len() - self.buf_start >= BUFFER_LIMIT {
            self.flush();
        }
        Ok(())
    }

    /// Appends an entry whose id is known to be absent.
    fn push_new(&mut self, id: I, fp: u64) -> Result<()> {
        if self.fps.len() >= MAX_LEN {
            return Err(too_many());
        }
        if self.map.needs_grow() {
            let n = self.map.len + 1;
            let live = self.live_slots();
            self.map.rebuild(live.into_iter(), n * 2, &self.ids, false);
        }
        let slot = self.fps.len() as u32;
        let h = id.hash64();
        self.fps.push(fp);
        self.ids.push(id);
        if self.dead.len() * 64 < self.fps.len() {
            self.dead.push(0);
        }
        self.map.put(slot, h);
        Ok(())
    }

    /// Inserts many entries (ids must be new and distinct). On an error nothing is
    /// inserted. Into an empty index this is a bulk build.
    pub fn extend(&mut self, entries: impl IntoIterator<Item = (I, u64)>) -> Result<()> {
        if self.fps.is_empty() {
            let layout = self.layout.clone();
            let scheme = self.scheme;
            let mut built = Index::build(layout, entries)?;
            built.scheme = scheme;
            *self = built;
            return Ok(());
        }
        let before = self.fps.len();
        let before_buf = self.buf_start;
        let mut failure = None;
        for (id, fp) in entries {
            if self.map.find(&id, &self.ids).is_some() {
                failure = Some(Error::DuplicateId { id: id.shown() });
                break;
            }
            if let Err(e) = self.push_new(id, fp) {
                failure = Some(e);
                break;
            }
        }
        if let Some(e) = failure {
            // roll back: drop the new slots from the map, then from the arrays
            for s in (before..self.fps.len()).rev() {
                if let Some((i, _)) = self.map.find(&self.ids[s], &self.ids) {
                    self.map.remove_at(i, &self.ids);
                }
            }
            self.fps.truncate(before);
            self.ids.truncate(before);
            self.dead.truncate(before.div_ceil(64));
            if !before.is_multiple_of(64) {
                if let Some(last) = self.dead.last_mut() {
                    *last &= low_bits((before % 64) as u32);
                }
            }
            self.buf_start = before_buf;
            return Err(e);
        }
        if self.fps.len() - self.buf_start >= BUFFER_LIMIT {
            self.flush();
        }
        Ok(())
    }

    /// Removes `id` and returns its fingerprint; an absent id is [`Error::UnknownId`].
    pub fn remove(&mut self, id: &I) -> Result<u64> {
        let Some((i, s)) = self.map.find(id, &self.ids) else {
            return Err(Error::UnknownId { id: id.shown() });
        };
        self.map.remove_at(i, &self.ids);
        let s = s as usize;
        self.dead[s >> 6] |= 1 << (s & 63);
        self.dead_count += 1;
        let fp = self.fps[s];
        if self.dead_count >= 64 && self.dead_count * 4 > self.fps.len() {
            self.compact();
        }
        Ok(fp)
    }

    /// Reports the entries within `k` of `fp`, then inserts `(id, fp)`: the crawler's
    /// step. The result never contains `id` itself. A duplicate id is an error and then
    /// nothing is inserted or reported.
    ///
    /// ```
    /// use simhash_wasm::index::{Index, Layout, Match};
    /// let mut index: Index<String> = Index::new(Layout::default_for_k(3)?);
    /// assert!(index.query_and_insert("a.example/1".into(), 0xF0)?.is_empty());
    /// assert_eq!(
    ///     index.query_and_insert("b.example/1".into(), 0xF1)?,
    ///     vec![Match { id: "a.example/1".to_string(), distance: 1 }]
    /// );
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn query_and_insert(&mut self, id: I, fp: u64) -> Result<Vec<Match<I>>> {
        if self.map.find(&id, &self.ids).is_some() {
            return Err(Error::DuplicateId { id: id.shown() });
        }
        let found = self.query(fp);
        self.insert(id, fp)?;
        Ok(found)
    }

    /// Turns the write buffer into a segment and merges segments of similar size.
    fn flush(&mut self) {
        let end = self.fps.len();
        if self.buf_start < end {
            let members: Vec<u32> =
                (self.buf_start as u32..end as u32).filter(|&s| !self.is_dead(s as usize)).collect();
            let seg =
                Segment::with_lists(&self.layout, &members, &self.fps, self.buf_start as u32, end as u32);
            self.segments.push(seg);
            self.buf_start = end;
        }
        while self.segments.len() >= 2 {
            let l = self.segments.len();
            if self.segments[l - 1].n * 2 < self.segments[l - 2].n {
                break;
            }
            if l == 2 {
                // the merge would rewrite everything: reorganise instead, into the compact
                // ordered form a bulk build makes (geometrically rare, so amortised O(1))
                self.compact();
                return;
            }
            let (start, end) = (self.segments[l - 2].start, self.segments[l - 1].end);
            self.segments.truncate(l - 2);
            let members: Vec<u32> = (start..end).filter(|&s| !self.is_dead(s as usize)).collect();
            let seg = Segment::with_lists(&self.layout, &members, &self.fps, start, end);
            self.segments.push(seg);
        }
    }

    /// Drops tombstones and rebuilds everything as one segment with the slots in the first
    /// table's order (the layout a bulk build makes: least memory, fastest queries).
    pub fn compact(&mut self) {
        // cannot fail: ids are already distinct
        let _ = self.reorganise(false);
    }

    pub(super) fn reorganise(&mut self, check_ids: bool) -> Result<()> {
        if self.dead_count > 0 {
            let mut i = 0;
            let dead = &self.dead;
            self.fps.retain(|_| {
                let keep = dead[i >> 6] >> (i & 63) & 1 == 0;
                i += 1;
                keep
            });
            let mut i = 0;
            self.ids.retain(|_| {
                let keep = dead[i >> 6] >> (i & 63) & 1 == 0;
                i += 1;
                keep
            });
            self.dead_count = 0;
        }
        let n = self.fps.len();
        self.dead = vec![0; n.div_ceil(64)];
        self.segments.clear();
        let exts = Segment::extracts(&self.layout, n);
        let table_count = exts.len();
        let mut tables = Vec::with_capacity(table_count);
        for (t, ext) in exts.into_iter().enumerate() {
            if t == 1 {
                // The id map is rebuilt once the slots have their final order and before
                // the other tables: its temporary arrays (about 19 bytes an entry) are
                // freed by then, and the tables' lists reuse that memory instead of fresh
                // pages (in wasm, first-touched pages dominated a cold snapshot load).
                self.rebuild_map(n, check_ids)?;
            }
            if t == 0 && in_bucket_order(&ext, &self.fps) {
                // already in this table's order (a snapshot, or a compaction without
                // inserts since): the directory is a count, the slots stay where they are
                let dir = bucket_counts(&ext, &self.fps);
                tables.push(Table { ext, dir, list: None, slot_bits: 0, base: 0 });
            } else if t == 0 {
                let (dir, perm) = bucket_sort(&ext, 0..n as u32, n, &self.fps, None);
                self.fps = perm.iter().map(|&p| self.fps[p as usize]).collect();
                // moved, not cloned; a gather with independent loads, unlike swapping cycles
                let mut old: Vec<Option<I>> = std::mem::take(&mut self.ids).into_iter().map(Some).collect();
                self.ids = perm.iter().filter_map(|&p| old[p as usize].take()).collect();
                tables.push(Table { ext, dir, list: None, slot_bits: 0, base: 0 });
            } else {
                tables.push(Table::with_list(ext, 0..n as u32, n, &self.fps, 0, n as u32));
            }
        }
        if n > 0 {
            let masks = tables.iter().map(|t| t.ext.mask).collect();
            self.segments.push(Segment { start: 0, end: n as u32, n, tables, masks });
        }
        if table_count <= 1 {
            self.rebuild_map(n, check_ids)?;
        }
        self.buf_start = n;
        self.fps.shrink_to_fit();
        self.ids.shrink_to_fit();
        Ok(())
    }

    /// Rebuilds the id map over slots `0..n`; with `check_ids`, a duplicate id is an error.
    fn rebuild_map(&mut self, n: usize, check_ids: bool) -> Result<()> {
        match self.map.rebuild(0..n as u32, n, &self.ids, check_ids) {
            Some(dup) => Err(Error::DuplicateId { id: self.ids[dup as usize].shown() }),
            None => Ok(()),
        }
    }
}
