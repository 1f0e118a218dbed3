//! [`Counter`]: occurrence counts (tf) of feature hashes, in first-occurrence order.

/// Occurrence counts of feature hashes.
///
/// The distinct features live in a dense `entries` array in first-occurrence order, which
/// the weighting step scans sequentially. Lookups go through an open-addressing table of
/// 8-byte slots (linear probing, indexed by the hash's top bits), each holding the hash's
/// low 32 bits as a tag and the entry's position plus one (0 = empty), so the table of a
/// typical page fits in L1 cache. Only the first `mask + 1` slots are in use, sized to the
/// current text; the allocation is kept between texts. The table doubles when half full.
#[derive(Clone, Debug, Default)]
pub(super) struct Counter {
    table: Vec<u64>,
    /// Room for as many entries as the table holds before it grows (half its slots, and
    /// one more); the first `len` are in use. Written by index, not pushed: opt-level "z"
    /// (the browser build) leaves `Vec::push` as a call per new feature.
    entries: Vec<Entry>,
    len: usize,
    mask: usize,
    shift: u32,
}

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    count: u32,
}

impl Counter {
    /// Empties the table, sized for about `expected` distinct features (it grows as needed).
    pub(super) fn reset(&mut self, expected: usize) {
        self.len = 0;
        self.resize((expected.clamp(8, 1 << 16) * 2).next_power_of_two());
    }

    /// Uses (and zeroes) the first `slots` slots, a power of two.
    fn resize(&mut self, slots: usize) {
        if self.table.len() < slots {
            self.table = vec![0; slots];
        } else {
            self.table[..slots].fill(0);
        }
        self.mask = slots - 1;
        self.shift = 64 - slots.trailing_zeros();
        if self.entries.len() < slots / 2 + 1 {
            self.entries.resize(slots / 2 + 1, Entry::default());
        }
    }

    /// Doubles the table and re-links every entry.
    #[cold]
    fn grow(&mut self) {
        self.resize((self.mask + 1) * 2);
        for (pos, e) in self.entries[..self.len].iter().enumerate() {
            let mut i = (e.key >> self.shift) as usize;
            while self.table[i] != 0 {
                i = (i + 1) & self.mask;
            }
            self.table[i] = (e.key << 32) | (pos as u64 + 1);
        }
    }

    #[inline(always)]
    pub(super) fn add(&mut self, h: u64) {
        if self.len * 2 > self.mask {
            self.grow();
        }
        let tag = h << 32;
        let mut i = (h >> self.shift) as usize;
        // Slices, not the Vecs: opt-level "z" (the browser build) calls `Vec`'s `Index`.
        let (table, entries) = (self.table.as_mut_slice(), self.entries.as_mut_slice());
        loop {
            let v = table[i];
            if v == 0 {
                table[i] = tag | (self.len as u64 + 1);
                entries[self.len] = Entry { key: h, count: 1 };
                self.len += 1;
                return;
            }
            if v & 0xFFFF_FFFF_0000_0000 == tag {
                let e = &mut entries[(v as u32 - 1) as usize];
                if e.key == h {
                    e.count = e.count.saturating_add(1);
                    return;
                }
            }
            i = (i + 1) & self.mask;
        }
    }

    pub(super) fn get(&self, h: u64) -> u32 {
        let tag = h << 32;
        let mut i = (h >> self.shift) as usize;
        loop {
            let v = self.table[i];
            if v == 0 {
                return 0;
            }
            if v & 0xFFFF_FFFF_0000_0000 == tag {
                let e = &self.entries[(v as u32 - 1) as usize];
                if e.key == h {
                    return e.count;
                }
            }
            i = (i + 1) & self.mask;
        }
    }

    /// The number of distinct features.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// `(hash, tf)` of every distinct feature, in first-occurrence order.
    pub(super) fn entries(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        self.entries[..self.len].iter().map(|e| (e.key, e.count))
    }
}
