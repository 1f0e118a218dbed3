//! A band index over sketches (MinHash LSH, Indyk and Motwani 1998; Broder 1997): the
//! candidate step of the crawler's flow when the fingerprint's Hamming distance is too
//! blunt to find near-duplicates at a sane cost.
//!
//! **Bands.** Band `b` is the 6 MinHash bins `[6b, 6b + 6)` of a sketch; its key is their
//! 24 bits (bin `6b` in the low nibble). A scheme with `K` bins has `min(K / 6, 20)` bands
//! ([`bands_for`]): 20 for the default 128-byte sketch (bins 0..120). Two sketches are
//! *candidates* when some band has equal keys. With `p = J + (1 − J)/16` the chance that a
//! 4-bit bin agrees, `P(candidate) = 1 − (1 − p⁶)²⁰`: 0.998 at `J = 0.8`, 0.39 at `J = 0.5`,
//! 0.02 at `J = 0.2` (measured on the dev corpus: every pair with `J ≥ 0.8` is a
//! candidate, and about 1.4 candidates per document).
//!
//! **Layout.** Per band, a sorted run of `u64` slots `key << 32 | entry` with a directory
//! of offsets on the keys' top bits (about 8 slots a bucket), and a write buffer (an
//! open-addressing table, linear probing, deletion by backward shift) that is merged into
//! the run when it outgrows 1/16 of it: inserts cost amortised O(1) moves, the memory is
//! close to 8 bytes per band per entry (160 with 20 bands, plus 1/2 byte of directory and
//! the buffer), and a query reads one buffer probe run and one bucket per band. A removal
//! from the run marks the slot dead (bit 63); dead slots go at the next merge, forced
//! when they pass a quarter of the run. Measured by `cargo bench --bench bands`.

use super::{Sketch, SketchScheme};
use crate::error::{Error, Result};

/// Bins per band.
pub const BAND_BINS: usize = 6;
/// The most bands an index uses.
pub const MAX_BANDS: usize = 20;

const EMPTY: u64 = u64::MAX;
const MIN_CAPACITY: usize = 16;

/// The number of bands for sketches of `scheme`: `min(bins / 6, 20)`.
pub fn bands_for(scheme: SketchScheme) -> usize {
    (scheme.bins() / BAND_BINS).min(MAX_BANDS)
}

/// The 24-bit key of band `band` of `sketch`: bins `[6·band, 6·band + 6)`, the first in
/// the low 4 bits.
pub fn band_key(sketch: &Sketch, band: usize) -> u32 {
    band_key_of(sketch.payload(), band)
}

/// [`band_key`] of a sketch given by its payload ([`Sketch::payload`]).
pub(crate) fn band_key_of(payload: &[u8], band: usize) -> u32 {
    // 6 bins = 3 bytes of the MinHash part, since 6·band is even.
    let m = &payload[payload.len() / 2 + 3 * band..payload.len() / 2 + 3 * band + 3];
    u32::from(m[0]) | u32::from(m[1]) << 8 | u32::from(m[2]) << 16
}

/// A write buffer: a small multimap from 24-bit keys to entry numbers, open addressing.
#[derive(Clone, Debug)]
struct BandTable {
    slots: Vec<u64>,
    len: usize,
}

impl BandTable {
    fn new() -> BandTable {
        BandTable { slots: Vec::new(), len: 0 }
    }

    #[inline]
    fn home(&self, key: u32) -> usize {
        let bits = self.slots.len().trailing_zeros();
        ((u64::from(key) | 1 << 40).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
    }

    fn insert(&mut self, slot: u64) {
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut pos = self.home((slot >> 32) as u32);
        while self.slots[pos] != EMPTY {
            pos = (pos + 1) & mask;
        }
        self.slots[pos] = slot;
        self.len += 1;
    }

    fn grow(&mut self) {
        let cap = (self.slots.len() * 2).max(MIN_CAPACITY);
        let old = std::mem::replace(&mut self.slots, vec![EMPTY; cap]);
        self.len = 0;
        for s in old.into_iter().filter(|&s| s != EMPTY) {
            self.insert(s);
        }
    }

    /// Removes the slot equal to `slot`; `false` if absent.
    fn remove(&mut self, slot: u64) -> bool {
        if self.slots.is_empty() {
            return false;
        }
        let mask = self.slots.len() - 1;
        let mut pos = self.home((slot >> 32) as u32);
        loop {
            match self.slots[pos] {
                EMPTY => return false,
                s if s == slot => break,
                _ => pos = (pos + 1) & mask,
            }
        }
        // Backward shift: pull later members of the run into the hole when their home
        // allows it, so every run stays unbroken without tombstones.
        let mut hole = pos;
        let mut j = (pos + 1) & mask;
        while self.slots[j] != EMPTY {
            let home = self.home((self.slots[j] >> 32) as u32);
            if (j.wrapping_sub(home) & mask) >= (j.wrapping_sub(hole) & mask) {
                self.slots[hole] = self.slots[j];
                hole = j;
            }
            j = (j + 1) & mask;
        }
        self.slots[hole] = EMPTY;
        self.len -= 1;
        true
    }

    #[inline]
    fn query(&self, key: u32, out: &mut Vec<u32>) {
        if self.len == 0 {
            return;
        }
        let mask = self.slots.len() - 1;
        let mut pos = self.home(key);
        loop {
            let s = self.slots[pos];
            if s == EMPTY {
                return;
            }
            if (s >> 32) as u32 == key {
                out.push(s as u32);
            }
            pos = (pos + 1) & mask;
        }
    }

    fn drain_sorted(&mut self) -> Vec<u64> {
        let mut v: Vec<u64> = self.slots.iter().copied().filter(|&s| s != EMPTY).collect();
        v.sort_unstable();
        *self = BandTable::new();
        v
    }
}

/// A removed slot in the sorted run: bit 63 set, so its key (bits 32..) never matches.
const DEAD: u64 = 1 << 63;
/// The buffer is merged into the sorted run when it holds more than this …
#[cfg(not(test))]
const MERGE_MIN: usize = 1024;
/// (small in tests, so that the oracle test goes through many merges)
#[cfg(test)]
const MERGE_MIN: usize = 8;
/// … and more than 1/`MERGE_SHARE` of the run.
const MERGE_SHARE: usize = 16;

/// One band: a sorted run of `key << 32 | entry` slots with a directory on the keys' top
/// bits, and a write buffer merged into it now and then (an LSM tree of two levels).
#[derive(Clone, Debug)]
struct Band {
    sorted: Vec<u64>,
    /// Bucket `b` (keys whose top `dir_bits` of 24 bits are `b`) is `sorted[dir[b]..dir[b + 1]]`.
    dir: Vec<u32>,
    dir_bits: u32,
    dead: usize,
    buffer: BandTable,
}

impl Band {
    fn new() -> Band {
        Band { sorted: Vec::new(), dir: vec![0, 0], dir_bits: 0, dead: 0, buffer: BandTable::new() }
    }

    fn bytes(&self) -> usize {
        self.sorted.capacity() * 8 + self.dir.capacity() * 4 + self.buffer.slots.capacity() * 8
    }

    #[inline]
    fn bucket(&self, key: u32) -> std::ops::Range<usize> {
        let b = (key >> (24 - self.dir_bits)) as usize;
        self.dir[b] as usize..self.dir[b + 1] as usize
    }

    fn insert(&mut self, slot: u64) {
        self.buffer.insert(slot);
        if self.buffer.len > MERGE_MIN.max((self.sorted.len() - self.dead) / MERGE_SHARE) {
            self.merge();
        }
    }

    fn remove(&mut self, slot: u64) -> bool {
        if self.buffer.remove(slot) {
            return true;
        }
        let range = self.bucket((slot >> 32) as u32);
        let Some(at) = self.sorted[range.clone()].iter().position(|&s| s == slot) else {
            return false;
        };
        self.sorted[range.start + at] |= DEAD;
        self.dead += 1;
        if self.dead * 4 > self.sorted.len() {
            self.merge();
        }
        true
    }

    #[inline]
    fn query(&self, key: u32, out: &mut Vec<u32>) {
        self.query_range(key, self.bucket(key), out);
    }

    /// [`query`](Self::query) with the key's bucket already looked up.
    #[inline]
    fn query_range(&self, key: u32, bucket: std::ops::Range<usize>, out: &mut Vec<u32>) {
        self.buffer.query(key, out);
        for &s in &self.sorted[bucket] {
            if (s >> 32) as u32 == key {
                out.push(s as u32);
            }
        }
    }

    /// Merges the buffer into the run, drops dead slots and rebuilds the directory.
    fn merge(&mut self) {
        let fresh = self.buffer.drain_sorted();
        let live = self.sorted.len() - self.dead + fresh.len();
        let mut merged = Vec::with_capacity(live);
        let mut old = self.sorted.iter().copied().filter(|s| s & DEAD == 0).peekable();
        let mut new = fresh.into_iter().peekable();
        loop {
            let next = match (old.peek(), new.peek()) {
                (Some(&a), Some(&b)) if a <= b => old.next(),
                (_, Some(_)) => new.next(),
                (Some(_), None) => old.next(),
                (None, None) => break,
            };
            merged.extend(next);
        }
        // About 8 slots a bucket: one or two cache lines scanned per query.
        let bits = (usize::BITS - (live / 8).leading_zeros()).min(24);
        let mut dir = vec![0u32; (1 << bits) + 1];
        for &s in &merged {
            dir[((s >> 32) as u32 >> (24 - bits)) as usize + 1] += 1;
        }
        for b in 1..dir.len() {
            dir[b] += dir[b - 1];
        }
        self.sorted = merged;
        self.dir = dir;
        self.dir_bits = bits;
        self.dead = 0;
    }
}

/// A band index: entry numbers (`u32`, chosen by the caller) keyed by their sketch's
/// bands. The caller keeps the sketches; [`remove`](Self::remove) needs the entry's
/// sketch again. See `src/sketch/bands.rs` for the bands.
///
/// ```
/// use simhash_wasm::sketch::{BandIndex, Sketch, SketchScheme};
/// let s = SketchScheme::default();
/// let a = Sketch::from_shingles(s, &(0..200).collect::<Vec<u64>>());
/// let b = Sketch::from_shingles(s, &(5..205).collect::<Vec<u64>>()); // J = 0.95
/// let c = Sketch::from_shingles(s, &(1000..1200).collect::<Vec<u64>>());
/// let mut bands = BandIndex::new(s);
/// bands.insert(7, &a)?;
/// bands.insert(9, &c)?;
/// assert_eq!(bands.query(&b)?, vec![7]);
/// assert!(bands.remove(7, &a)?);
/// assert!(bands.query(&b)?.is_empty());
/// # Ok::<(), simhash_wasm::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct BandIndex {
    scheme: SketchScheme,
    tables: Vec<Band>,
    len: usize,
}

impl BandIndex {
    /// An empty band index for sketches of `scheme`.
    pub fn new(scheme: SketchScheme) -> BandIndex {
        BandIndex { scheme, tables: (0..bands_for(scheme)).map(|_| Band::new()).collect(), len: 0 }
    }

    /// The sketch scheme it indexes.
    pub fn scheme(&self) -> SketchScheme {
        self.scheme
    }

    /// The number of bands.
    pub fn bands(&self) -> usize {
        self.tables.len()
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` when no entry is stored.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Heap bytes of the bands.
    pub fn heap_bytes(&self) -> usize {
        self.tables.iter().map(Band::bytes).sum()
    }

    fn check(&self, sketch: &Sketch) -> Result<()> {
        if sketch.scheme() != self.scheme {
            return Err(Error::SchemeMismatch {
                field: "sketch",
                found: sketch.scheme().describe(),
                expected: self.scheme.describe(),
            });
        }
        Ok(())
    }

    /// Adds `entry` under its sketch's bands. The caller keeps entry numbers unique
    /// (inserting one twice makes it a candidate twice over, and needs two removals).
    /// A sketch of another scheme is [`Error::SchemeMismatch`].
    pub fn insert(&mut self, entry: u32, sketch: &Sketch) -> Result<()> {
        self.check(sketch)?;
        for (band, table) in self.tables.iter_mut().enumerate() {
            table.insert(u64::from(band_key(sketch, band)) << 32 | u64::from(entry));
        }
        self.len += 1;
        Ok(())
    }

    /// Removes `entry`, stored with `sketch`; `false` (nothing changed) when it is not
    /// stored under that sketch.
    pub fn remove(&mut self, entry: u32, sketch: &Sketch) -> Result<bool> {
        self.check(sketch)?;
        let slot = |band: usize| u64::from(band_key(sketch, band)) << 32 | u64::from(entry);
        // All bands or none: look before removing.
        let present = self.tables.first().is_some_and(|t| {
            let mut v = Vec::new();
            t.query(band_key(sketch, 0), &mut v);
            v.contains(&entry)
        });
        if !present {
            return Ok(false);
        }
        for (band, table) in self.tables.iter_mut().enumerate() {
            let removed = table.remove(slot(band));
            debug_assert!(removed, "entry {entry} missing from band {band}");
        }
        self.len -= 1;
        Ok(true)
    }

    /// Merges every band's write buffer into its sorted run (done by itself as the
    /// buffers grow; call it after a bulk load to make queries a little faster).
    pub fn compact(&mut self) {
        for t in &mut self.tables {
            t.merge();
        }
    }

    /// The entries sharing at least one band key with `sketch`, ascending, each once.
    pub fn query(&self, sketch: &Sketch) -> Result<Vec<u32>> {
        let mut out = Vec::new();
        self.query_into(sketch, &mut out)?;
        Ok(out)
    }

    /// [`query`](Self::query) into a reused buffer (cleared first).
    pub fn query_into(&self, sketch: &Sketch, out: &mut Vec<u32>) -> Result<()> {
        self.check(sketch)?;
        out.clear();
        // Two passes, so the directory reads of all bands are in flight at once.
        let mut keys = [0u32; MAX_BANDS];
        let mut ranges = [(0usize, 0usize); MAX_BANDS];
        for (band, table) in self.tables.iter().enumerate() {
            keys[band] = band_key(sketch, band);
            let r = table.bucket(keys[band]);
            ranges[band] = (r.start, r.end);
        }
        for (band, table) in self.tables.iter().enumerate() {
            table.query_range(keys[band], ranges[band].0..ranges[band].1, out);
        }
        out.sort_unstable();
        out.dedup();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    /// Sketches of random sets overlapping a few bases, so that bands collide often.
    fn sketches(rng: &mut Rng, n: usize, scheme: SketchScheme) -> Vec<Sketch> {
        let bases: Vec<Vec<u64>> = (0..4).map(|_| (0..60).map(|_| rng.next()).collect()).collect();
        (0..n)
            .map(|_| {
                let base = &bases[(rng.next() % 4) as usize];
                let keep = (rng.next() % 60) as usize;
                let mut set: Vec<u64> = base[..keep].to_vec();
                let fresh = (rng.next() % 8) as usize + usize::from(keep == 0);
                set.extend((0..fresh).map(|_| rng.next()));
                Sketch::from_shingles(scheme, &set)
            })
            .collect()
    }

    fn oracle(stored: &[(u32, &Sketch)], q: &Sketch) -> Vec<u32> {
        let bands = bands_for(q.scheme());
        let mut v: Vec<u32> = stored
            .iter()
            .filter(|(_, s)| (0..bands).any(|b| band_key(s, b) == band_key(q, b)))
            .map(|&(e, _)| e)
            .collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn band_keys_are_the_bins() {
        let s = Sketch::from_shingles(SketchScheme::default(), &[1, 2, 3, 99, 1234]);
        for band in 0..20 {
            let want = (0..6).fold(0u32, |acc, i| acc | u32::from(s.bin(6 * band + i)) << (4 * i));
            assert_eq!(band_key(&s, band), want);
        }
        assert_eq!(bands_for(SketchScheme::default()), 20);
        assert_eq!(bands_for(SketchScheme::new(32).unwrap()), 5);
        assert_eq!(bands_for(SketchScheme::new(64).unwrap()), 10);
    }

    #[test]
    fn queries_match_a_brute_force_oracle_through_inserts_and_removals() {
        for size in [32, 128, 256] {
            let scheme = SketchScheme::new(size).unwrap();
            let mut rng = Rng(size as u64);
            let all = sketches(&mut rng, 600, scheme);
            let mut idx = BandIndex::new(scheme);
            let mut stored: Vec<(u32, &Sketch)> = Vec::new();
            let mut checked_nonempty = 0;
            for round in 0..1500 {
                let pick = (rng.next() % all.len() as u64) as u32;
                let pos = stored.iter().position(|&(e, _)| e == pick);
                match pos {
                    Some(p) if rng.next().is_multiple_of(3) => {
                        assert!(idx.remove(pick, &all[pick as usize]).unwrap());
                        stored.swap_remove(p);
                        assert!(!idx.remove(pick, &all[pick as usize]).unwrap());
                    }
                    Some(_) => {}
                    None => {
                        idx.insert(pick, &all[pick as usize]).unwrap();
                        stored.push((pick, &all[pick as usize]));
                    }
                }
                assert_eq!(idx.len(), stored.len());
                if round % 5 == 0 {
                    let q = &all[(rng.next() % all.len() as u64) as usize];
                    let got = idx.query(q).unwrap();
                    assert_eq!(got, oracle(&stored, q), "size {size}, round {round}");
                    checked_nonempty += usize::from(!got.is_empty() && got.len() < stored.len());
                }
            }
            // The test would fail if a query returned nothing or everything.
            assert!(checked_nonempty > 50, "size {size}: only {checked_nonempty} informative queries");
        }
    }

    #[test]
    fn other_schemes_are_refused_and_nothing_changes() {
        let mut idx = BandIndex::new(SketchScheme::default());
        let empty = idx.heap_bytes();
        let small = Sketch::from_shingles(SketchScheme::new(64).unwrap(), &[1, 2, 3]);
        for e in [
            idx.insert(1, &small).unwrap_err(),
            idx.query(&small).unwrap_err(),
            idx.remove(1, &small).unwrap_err(),
        ] {
            assert!(matches!(e, Error::SchemeMismatch { .. }), "{e:?}");
            assert!(e.to_string().contains("sk1:64") && e.to_string().contains("sk1:128"), "{e}");
        }
        assert!(idx.is_empty() && idx.heap_bytes() == empty);
    }
}
