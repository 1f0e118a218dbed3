//! Tables and segments: how one table turns a fingerprint into a bucket ([`Extract`]),
//! the bucket directory and its packed entry list ([`Table`]), a run of slots indexed by
//! every table ([`Segment`]), the counting sort that builds them, and the XOR fold that
//! filters candidates before their fingerprint is loaded.

use super::layout::{bucket_bits, Layout};

#[derive(Clone, Copy, Debug)]
pub(super) struct Part {
    pub(super) shr: u32,
    pub(super) mask: u64,
    pub(super) shl: u32,
}

/// Computes a table's bucket: the top `d` bits of its key, gathered from the original bits.
#[derive(Clone, Debug)]
pub(super) struct Extract {
    pub(super) parts: Vec<Part>,
    /// The original bits the bucket is made of.
    pub(super) mask: u64,
    pub(super) bits: u32,
}

impl Extract {
    pub(super) fn new(layout: &Layout, table: usize, d: u32) -> Extract {
        let mut remaining = d;
        let mut parts: Vec<Part> = Vec::new();
        for &blk in &layout.tables[table] {
            if remaining == 0 {
                break;
            }
            let w = layout.widths[blk as usize];
            let hi = layout.block_hi(blk as usize);
            let take = w.min(remaining);
            remaining -= take;
            let shr = hi - take;
            match parts.last_mut() {
                Some(last) if last.shr == hi => {
                    let total = last.mask.count_ones() + take;
                    *last = Part { shr, mask: low_bits(total), shl: remaining };
                }
                _ => parts.push(Part { shr, mask: low_bits(take), shl: remaining }),
            }
        }
        let mask = parts.iter().fold(0u64, |m, p| m | (p.mask << p.shr));
        Extract { parts, mask, bits: d }
    }

    #[inline(always)]
    pub(super) fn bucket(&self, fp: u64) -> usize {
        let mut b = 0u64;
        for p in &self.parts {
            b |= ((fp >> p.shr) & p.mask) << p.shl;
        }
        b as usize
    }
}

pub(super) fn low_bits(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

#[derive(Clone, Debug)]
pub(super) struct Table {
    pub(super) ext: Extract,
    /// `2^d + 1` offsets into `list` (or into the segment's slot range).
    pub(super) dir: Vec<u32>,
    /// Entries in bucket order, each `fold << slot_bits | (slot - base)`: the slot, and
    /// in the bits it leaves free a fold of the fingerprint ([`fold`]) that rejects most
    /// candidates without loading their fingerprint (a random access).
    /// `None`: the slots `base..` are themselves in bucket order.
    pub(super) list: Option<Vec<u32>>,
    /// Low bits of an entry that hold the slot.
    pub(super) slot_bits: u32,
    pub(super) base: u32,
}

impl Table {
    /// The table of `ext` over `members` (`count` slots of `start..end`), its list of
    /// packed entries in bucket order.
    pub(super) fn with_list<M>(
        ext: Extract,
        members: M,
        count: usize,
        fps: &[u64],
        start: u32,
        end: u32,
    ) -> Table
    where
        M: Iterator<Item = u32> + Clone,
    {
        let slot_bits = slot_bits_for(start, end);
        let (dir, list) = bucket_sort(&ext, members, count, fps, Some((start, slot_bits)));
        Table { ext, dir, list: Some(list), slot_bits, base: start }
    }

    /// The slots of bucket `b`, in its order, into `out` (emptied first).
    pub(super) fn bucket_slots(&self, b: usize, out: &mut Vec<u32>) {
        let (lo, hi) = (self.dir[b] as usize, self.dir[b + 1] as usize);
        out.clear();
        match &self.list {
            None => out.extend(self.base + lo as u32..self.base + hi as u32),
            Some(list) => {
                let smask = low_bits(self.slot_bits) as u32;
                out.extend(list[lo..hi].iter().map(|&e| self.base + (e & smask)))
            }
        }
    }

    /// The bucket of `q`: its range `lo..hi` in `list` (or in the slots from `base`).
    #[inline(always)]
    pub(super) fn bucket_range(&self, q: u64) -> (usize, usize) {
        let b = self.ext.bucket(q);
        (self.dir[b] as usize, self.dir[b + 1] as usize)
    }

    /// The slots of `list[lo..hi]` whose stored fold is within `k` bits of `q`'s fold (a
    /// necessary condition for the fingerprint to be within `k`).
    #[inline(always)]
    pub(super) fn fold_candidates<'a>(
        &self,
        list: &'a [u32],
        lo: usize,
        hi: usize,
        q: u64,
        k: u32,
    ) -> impl Iterator<Item = u32> + 'a {
        let (sb, base) = (self.slot_bits, self.base);
        let qf = fold(q, 32 - sb);
        let smask = low_bits(sb) as u32;
        list[lo..hi]
            .iter()
            .filter(move |&&e| ((u64::from(e) >> sb) as u32 ^ qf).count_ones() <= k)
            .map(move |&e| base + (e & smask))
    }
}

#[derive(Clone, Debug)]
pub(super) struct Segment {
    /// The slot range the segment was built over (some slots in it may be dead).
    pub(super) start: u32,
    pub(super) end: u32,
    /// Entries it holds (live at build time).
    pub(super) n: usize,
    pub(super) tables: Vec<Table>,
    /// `tables[t].ext.mask`, together for the "already seen" test.
    pub(super) masks: Vec<u64>,
}

/// Counting sort of `members` by bucket: returns (directory, list). With `packed =
/// Some((start, slot_bits))` the list holds packed entries (see [`Table::list`]), made
/// while the fingerprints are read in order; otherwise plain slots.
pub(super) fn bucket_sort<M>(
    ext: &Extract,
    members: M,
    count: usize,
    fps: &[u64],
    packed: Option<(u32, u32)>,
) -> (Vec<u32>, Vec<u32>)
where
    M: Iterator<Item = u32> + Clone,
{
    let nb = 1usize << ext.bits;
    let mut dir = vec![0u32; nb + 1];
    for s in members.clone() {
        dir[ext.bucket(fps[s as usize]) + 1] += 1;
    }
    for i in 0..nb {
        dir[i + 1] += dir[i];
    }
    let mut cur = dir[..nb].to_vec();
    let mut list = vec![0u32; count];
    match packed {
        None => {
            for s in members {
                let b = ext.bucket(fps[s as usize]);
                list[cur[b] as usize] = s;
                cur[b] += 1;
            }
        }
        Some((start, sb)) => {
            for s in members {
                let fp = fps[s as usize];
                let b = ext.bucket(fp);
                list[cur[b] as usize] = ((u64::from(fold(fp, 32 - sb)) << sb) | u64::from(s - start)) as u32;
                cur[b] += 1;
            }
        }
    }
    (dir, list)
}

/// `true` when the buckets of `fps` never decrease, so the slots are in the table's order.
pub(super) fn in_bucket_order(ext: &Extract, fps: &[u64]) -> bool {
    let mut prev = 0;
    fps.iter().all(|&f| {
        let b = ext.bucket(f);
        let ok = b >= prev;
        prev = b;
        ok
    })
}

/// The directory of slots already in bucket order (see [`in_bucket_order`]).
pub(super) fn bucket_counts(ext: &Extract, fps: &[u64]) -> Vec<u32> {
    let nb = 1usize << ext.bits;
    let mut dir = vec![0u32; nb + 1];
    for &f in fps {
        dir[ext.bucket(f) + 1] += 1;
    }
    for i in 0..nb {
        dir[i + 1] += dir[i];
    }
    dir
}

impl Segment {
    pub(super) fn extracts(layout: &Layout, n: usize) -> Vec<Extract> {
        let kb = layout.key_bits();
        (0..layout.tables()).map(|t| Extract::new(layout, t, bucket_bits(kb[t], n, layout.probe))).collect()
    }

    /// A segment over arbitrary member slots, every table with its own list.
    pub(super) fn with_lists(layout: &Layout, members: &[u32], fps: &[u64], start: u32, end: u32) -> Segment {
        let n = members.len();
        let tables: Vec<Table> = Segment::extracts(layout, n)
            .into_iter()
            .map(|ext| Table::with_list(ext, members.iter().copied(), n, fps, start, end))
            .collect();
        let masks = tables.iter().map(|t| t.ext.mask).collect();
        Segment { start, end, n, tables, masks }
    }

    pub(super) fn bytes(&self) -> usize {
        self.tables
            .iter()
            .map(|t| {
                t.dir.capacity() * 4
                    + t.list.as_ref().map_or(0, |l| l.capacity() * 4)
                    + t.ext.parts.capacity() * std::mem::size_of::<Part>()
            })
            .sum::<usize>()
            + self.masks.capacity() * 8
            + std::mem::size_of::<Segment>()
    }
}

/// The 64 bits folded to `bits` bits by XOR of `bits`-wide chunks. Every bit lands in
/// exactly one fold bit, so two fingerprints `d` bits apart have folds at most `d` bits
/// apart: the fold is a filter that never rejects a true match.
#[inline]
pub(super) fn fold(mut x: u64, bits: u32) -> u32 {
    if bits == 0 {
        return 0;
    }
    let mask = low_bits(bits);
    let mut r = 0;
    while x != 0 {
        r ^= x & mask;
        x = x.checked_shr(bits).unwrap_or(0);
    }
    r as u32
}

/// Slot bits for slots `start..end`.
pub(super) fn slot_bits_for(start: u32, end: u32) -> u32 {
    let range = end.saturating_sub(start).max(1) - 1;
    32 - range.leading_zeros()
}
