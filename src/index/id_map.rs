//! The id → slot map: open addressing over `u32` slots, with the ids compared in place
//! in the index's own `ids` array.

use super::IndexId;

/// An empty cell.
const EMPTY: u32 = u32::MAX;

/// Open addressing (linear probing) over `u32` slots; ids are compared in the index's
/// `ids` array, so the map itself is 4 bytes a cell.
#[derive(Clone, Debug, Default)]
pub(super) struct IdMap {
    pub(super) table: Vec<u32>,
    pub(super) len: usize,
}

#[inline]
fn home(h: u64, cap: usize) -> usize {
    ((u128::from(h) * cap as u128) >> 64) as usize
}

impl IdMap {
    pub(super) fn find<I: IndexId>(&self, id: &I, ids: &[I]) -> Option<(usize, u32)> {
        let cap = self.table.len();
        if cap == 0 {
            return None;
        }
        let mut i = home(id.hash64(), cap);
        loop {
            let s = self.table[i];
            if s == EMPTY {
                return None;
            }
            if ids[s as usize] == *id {
                return Some((i, s));
            }
            i += 1;
            if i == cap {
                i = 0;
            }
        }
    }

    /// Puts `slot` (known absent) in; the caller has made room.
    pub(super) fn put(&mut self, slot: u32, h: u64) {
        let cap = self.table.len();
        let mut i = home(h, cap);
        while self.table[i] != EMPTY {
            i += 1;
            if i == cap {
                i = 0;
            }
        }
        self.table[i] = slot;
        self.len += 1;
    }

    pub(super) fn capacity_for(n: usize) -> usize {
        (n + n / 2 + 8).max(16)
    }

    /// Rebuilds from the given slots. With `check`, stops at a slot whose id is already
    /// in, and returns it.
    ///
    /// The slots are inserted in the order of their home cell (a counting sort on its top
    /// bits), so the probes and the writes walk the table forward instead of jumping, and
    /// 16 bits of each cell's hash are kept beside it while building, so a probe
    /// compares ids (a random load) only when those agree.
    pub(super) fn rebuild<I: IndexId>(
        &mut self,
        slots: impl Iterator<Item = u32> + Clone,
        n: usize,
        ids: &[I],
        check: bool,
    ) -> Option<u32> {
        let cap = IdMap::capacity_for(n);
        self.table = vec![EMPTY; cap];
        self.len = 0;
        // Counting sort by the top bits of the home cell (home is monotone in the hash):
        // about 512 slots a bucket, so the cells one bucket fills stay in the L1 cache,
        // and few enough buckets that the scatter's write streams stay cached too. The
        // hash is computed twice (count, then scatter) rather than stored: it is cheap,
        // and one less array of n entries is one less allocation to fault in.
        let lg = usize::BITS - n.max(1).leading_zeros();
        let shift = 64 - lg.saturating_sub(9).clamp(1, 16);
        let nb = 1usize << (64 - shift);
        let mut start = vec![0u32; nb + 1];
        let mut count = 0usize;
        for s in slots.clone() {
            start[(ids[s as usize].hash64() >> shift) as usize + 1] += 1;
            count += 1;
        }
        for i in 0..nb {
            start[i + 1] += start[i];
        }
        let mut keyed = vec![(0u64, 0u32); count];
        for s in slots {
            let h = ids[s as usize].hash64();
            let b = (h >> shift) as usize;
            keyed[start[b] as usize] = (h, s);
            start[b] += 1;
        }
        drop(start);
        // 16 low bits of each cell's hash (home uses the high bits): ids are compared only
        // when these agree, about once in 65,536 probes of different ids
        let mut tags = vec![0u16; cap];
        for (h, s) in keyed {
            let mut i = home(h, cap);
            loop {
                let t = self.table[i];
                if t == EMPTY {
                    break;
                }
                if check && tags[i] == h as u16 && ids[t as usize] == ids[s as usize] {
                    return Some(s);
                }
                i += 1;
                if i == cap {
                    i = 0;
                }
            }
            self.table[i] = s;
            tags[i] = h as u16;
            self.len += 1;
        }
        None
    }

    pub(super) fn needs_grow(&self) -> bool {
        (self.len + 1) * 5 > self.table.len() * 4
    }

    pub(super) fn remove_at<I: IndexId>(&mut self, mut hole: usize, ids: &[I]) {
        let cap = self.table.len();
        let mut j = hole;
        loop {
            j += 1;
            if j == cap {
                j = 0;
            }
            let s = self.table[j];
            if s == EMPTY {
                break;
            }
            let h = home(ids[s as usize].hash64(), cap);
            let from_home = (j + cap - h) % cap;
            let from_hole = (j + cap - hole) % cap;
            if from_home >= from_hole {
                self.table[hole] = s;
                hole = j;
            }
        }
        self.table[hole] = EMPTY;
        self.len -= 1;
    }
}
