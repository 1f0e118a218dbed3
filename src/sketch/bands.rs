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
//! **Layout.** One open-addressing table per band, of `u64` slots `key << 32 | entry`
//! (linear probing, multiply-shift hash of the key, load at most 3/4, deletion by
//! backward shift so no tombstones pile up). A query walks each band's probe run from the
//! key's home slot to the first empty slot: 20 short, cache-friendly scans. 8 bytes per
//! band per entry at full load, `160 / load` bytes per entry with 20 bands (see
//! `cargo bench --bench index -- bands` for the measured bytes and queries per second).

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
    // 6 bins = 3 bytes of the MinHash part, since 6·band is even.
    let m = &sketch.minhash()[3 * band..3 * band + 3];
    u32::from(m[0]) | u32::from(m[1]) << 8 | u32::from(m[2]) << 16
}

/// One band's table: a multimap from 24-bit keys to entry numbers.
#[derive(Clone, Debug)]
struct Table {
    slots: Vec<u64>,
    len: usize,
}

impl Table {
    fn new() -> Table {
        Table { slots: Vec::new(), len: 0 }
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
        if self.slots.is_empty() {
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
}

/// A band index: entry numbers (`u32`, chosen by the caller) keyed by their sketch's
/// bands. The caller keeps the sketches; [`remove`](Self::remove) needs the entry's
/// sketch again. See the [module docs](self).
///
/// ```
/// use simhash_wasm::sketch::{bands::BandIndex, Sketch, SketchScheme};
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
    tables: Vec<Table>,
    len: usize,
}

impl BandIndex {
    /// An empty band index for sketches of `scheme`.
    pub fn new(scheme: SketchScheme) -> BandIndex {
        BandIndex { scheme, tables: (0..bands_for(scheme)).map(|_| Table::new()).collect(), len: 0 }
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

    /// Heap bytes of the tables.
    pub fn heap_bytes(&self) -> usize {
        self.tables.iter().map(|t| t.slots.capacity() * 8).sum()
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
        for (band, table) in self.tables.iter().enumerate() {
            table.query(band_key(sketch, band), out);
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
                    Some(p) if rng.next() % 3 == 0 => {
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
        let small = Sketch::from_shingles(SketchScheme::new(64).unwrap(), &[1, 2, 3]);
        for e in [
            idx.insert(1, &small).unwrap_err(),
            idx.query(&small).unwrap_err(),
            idx.remove(1, &small).unwrap_err(),
        ] {
            assert!(matches!(e, Error::SchemeMismatch { .. }), "{e:?}");
            assert!(e.to_string().contains("sk1:64") && e.to_string().contains("sk1:128"), "{e}");
        }
        assert!(idx.is_empty() && idx.heap_bytes() == 0);
    }
}
