//! The compact fingerprint set: the `FSET` payload, also embedded in `INDX` and `IDF`.
//!
//! The scheme of the design notes ("Compact storage of a sorted fingerprint set"):
//! sort; keep the first fingerprint whole; for each next one `x` after `p`, let
//! `n = 63 − leading_zeros(x ^ p)`, the highest bit where they differ (in `p` it is 0, in
//! `x` it is 1; the bits above are equal). Write the symbol `n` Huffman-coded, then the
//! `n` bits of `x` *below* position `n`, low bit first. A duplicate (`x == p`) is the
//! symbol 64, [`REPEAT_SYMBOL`], with no bits after it. The Huffman code is built from
//! the symbol counts over the whole set (deterministically: ties go to the lower symbol),
//! limited to [`MAX_CODE_LEN`] bits so decoding is one table lookup, and stored as
//! canonical code lengths. The stream is cut in blocks of `B` fingerprints; each block's
//! first one is kept whole in the block table with the block's bit offset, so a lookup
//! binary-searches the table and decodes one block.
//!
//! | offset | size | field |
//! | --- | --- | --- |
//! | 0 | 8 | `N`, the number of fingerprints (duplicates count), `u64` |
//! | 8 | 4 | `B`, fingerprints per block, `u32`, 1 ..= 65 536 ([`MAX_BLOCK_SIZE`]) |
//! | 12 | 65 | code length of symbol 0 ..= 64, one byte each, 0 = unused, else 1 ..= [`MAX_CODE_LEN`] |
//! | 77 | 8 | `S`, the length of the bit stream in bits, `u64` |
//! | 85 | 16·`nb` | block table, `nb = ceil(N / B)` entries of: first fingerprint `u64`, bit offset of the block's 2nd fingerprint in the stream `u64` |
//! | 85 + 16·`nb` | `ceil(S / 8)` | the bit stream |
//!
//! The bit stream is read low bit first: stream bit `i` is bit `i % 8` of byte `i / 8`.
//! Unused bits of the last byte are 0. Canonical codes: symbols sorted by (length,
//! symbol) get consecutive code values, first bit (most significant code bit) first; the
//! code lengths must satisfy Kraft's inequality. Block `j` holds `min(B, N − j·B)`
//! fingerprints: its first from the table, the others coded in stream bits
//! `offset[j] .. offset[j+1]` (`offset[nb] = S`), which they must fill exactly. The whole
//! set must be in ascending order, including across blocks.
//!
//! **Version 2** (the `FSET` envelope's version field says which; `INDX` and `IDF`
//! payloads embed version 1) codes the *gap* `g = x − p` instead, with one more header
//! byte: `r` (1 ..= 63) after `B`, so the code lengths start at offset 13 and `S` at 78.
//! Symbols: 64 ([`REPEAT_SYMBOL`]) for `g = 0`; with `e` the largest of 0 ..= 5 such that
//! `2^e ≤ r + e` and `D = 2^e`, a gap below `2^(r+e)` is the symbol `g >> r` (< `D`)
//! followed by the `r` low bits of `g`; a larger gap, highest set bit `h`, is the symbol
//! `D + h − r − e` followed by the `h` bits of `g` below bit `h`. A decoded gap of 0
//! outside the repeat symbol, a symbol above `D + 63 − r − e`, or a sum past `2^64 − 1` is
//! corrupt. The encoder costs every `r` exactly and keeps the smallest;
//! [`CompactSet::with_block_size`] writes whichever version is smaller for the data.
//! Random fingerprints at `N = 10^6`: 46.19 bits each with the block table (45.5 without),
//! against 48.11 for version 1. [`CompactSet::huffman_table`] always shows version 1's
//! code (the teaching form), whatever the stored version.
//!
//! For `N` uniformly random fingerprints, `n` clusters just under `64 − log2 N`. Measured
//! at `N = 10^6` (`cargo bench --bench snapshot`): the low bits average 44.18 (`64 −
//! log2 N` is 44.07) and the Huffman code of `n` 3.30 bits (its entropy is 3.25), so the
//! stream costs 47.48 bits per fingerprint; the block table adds `(128 − ~47.5) / B`
//! (0.63 at the default `B = 128`), for 48.11 bits in all, against the floor
//! `64 − log2 N + 1.44 ≈ 45.51`. The gap is in the symbol: `n` carries 3.25 bits, where
//! an ideal gap code needs 1.44, because the bits below `n` are stored verbatim although
//! they are not uniform (the carry that flipped bit `n` leaves them small).

use super::bits::{low_mask, peek, read_bits, BitWriter};
use super::bytes::{Reader, Writer};
use super::formats::{FIRST, FSET, FSET_GAP_CODE};
use super::huffman::{self, MAX_CODE_LEN, SYMBOLS};
use super::{open, Kind};
use crate::error::{Error, Result};

/// The number of fingerprints per block [`CompactSet::from_sorted`] uses.
pub const DEFAULT_BLOCK_SIZE: u32 = 128;

/// The largest block size the format allows.
pub const MAX_BLOCK_SIZE: u32 = 65_536;

/// The teaching form's Huffman table of `fingerprints` (any order): the rows
/// [`CompactSet::huffman_table`] shows for `CompactSet::from_unsorted(fingerprints)`, computed
/// from the symbol counts alone, without coding the set (so the browser build, which has no
/// `CompactSet` class, can still show the table).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) fn huffman_table_of(mut fingerprints: Vec<u64>) -> Vec<(u8, u64, String)> {
    fingerprints.sort_unstable();
    let counts = CompactSet::teaching_counts(&fingerprints, DEFAULT_BLOCK_SIZE as usize);
    table_rows(&counts, &huffman::code_lengths(&counts))
}

/// `(symbol, count, code)` for every symbol with a code, shortest codes first.
fn table_rows(counts: &[u64; SYMBOLS], lens: &[u8; SYMBOLS]) -> Vec<(u8, u64, String)> {
    let codes = huffman::canonical_codes(lens);
    let mut rows: Vec<(u8, u64, String)> = (0..SYMBOLS)
        .filter(|&s| lens[s] > 0)
        .map(|s| {
            let l = usize::from(lens[s]);
            (s as u8, counts[s], format!("{:0l$b}", codes[s]))
        })
        .collect();
    crate::sort::sort_by(&mut rows, |x, y| (x.2.len(), &x.2).cmp(&(y.2.len(), &y.2)));
    rows
}

/// The Huffman symbol that stands for "same fingerprint as the previous one".
pub(crate) const REPEAT_SYMBOL: u8 = 64;

/// The fixed part of the payload: `N`, `B`, the code lengths, `S`.
const SET_HEADER: usize = 8 + 4 + SYMBOLS + 8;

/// The symbol that codes `x` after `prev` (`prev <= x`): the highest differing bit, or
/// [`REPEAT_SYMBOL`].
fn symbol_of(prev: u64, x: u64) -> u8 {
    let d = prev ^ x;
    if d == 0 {
        REPEAT_SYMBOL
    } else {
        (63 - d.leading_zeros()) as u8
    }
}

/// A sorted multiset of 64-bit fingerprints kept compressed (delta + Huffman, about
/// `64 − log2 N + 4` bits each for random fingerprints) and queried in place: [`contains`](Self::contains) and
/// [`contains_within`](Self::contains_within) decode one or a few blocks, never the whole
/// set. See `src/snapshot/compact.rs` for the format.
///
/// ```
/// use simhash_wasm::snapshot::CompactSet;
/// let set = CompactSet::from_unsorted(vec![0xFF00, 7, 0xFF00, u64::MAX])?;
/// assert_eq!(set.len(), 4);
/// assert!(set.contains(7) && !set.contains(8));
/// assert!(set.contains_within(0xFF03, 2)); // 0xFF00 is 2 bits away
/// let bytes = set.to_bytes();
/// let back = CompactSet::from_bytes(&bytes)?;
/// assert_eq!(back.iter().collect::<Vec<_>>(), vec![7, 0xFF00, 0xFF00, u64::MAX]);
/// # Ok::<(), simhash_wasm::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct CompactSet {
    /// The number of fingerprints, duplicates included (`N`).
    pub(super) n: u64,
    block_size: u32,
    /// The coding: 1 = the teaching form (highest differing bit, then the bits below it),
    /// 2 = gap coding (see [`Gap`]). Also the `FSET` envelope version it is written with.
    version: u32,
    /// Version 2's gap coding (unused in version 1).
    gap: Gap,
    /// Code lengths of the stream's symbols (version 1: `n`; version 2: gap symbols).
    lens: [u8; SYMBOLS],
    /// Counts of the teaching form's symbol `n` over the coded fingerprints (whatever the
    /// version), for [`huffman_table`](CompactSet::huffman_table).
    counts: [u64; SYMBOLS],
    /// First fingerprint of every block.
    firsts: Vec<u64>,
    /// Bit offset of every block's coded part, plus the stream length at the end.
    offsets: Vec<u64>,
    stream: Vec<u8>,
    table: Vec<u16>,
}

impl PartialEq for CompactSet {
    fn eq(&self, other: &Self) -> bool {
        self.n == other.n
            && self.version == other.version
            && self.gap == other.gap
            && self.block_size == other.block_size
            && self.lens == other.lens
            && self.firsts == other.firsts
            && self.offsets == other.offsets
            && self.stream == other.stream
    }
}

impl Default for CompactSet {
    fn default() -> Self {
        CompactSet::encode_as(&[], DEFAULT_BLOCK_SIZE, NEWEST_VERSION)
    }
}

/// The newest `FSET` coding, which [`CompactSet::from_sorted`] writes.
pub const NEWEST_VERSION: u32 = FSET.current;

/// Version 2's gap code. A fingerprint `x` after `p` is coded by its gap `g = x − p`:
/// `g = 0` is [`REPEAT_SYMBOL`]; a gap below `2^(r+e)` is the symbol `g >> r` (one of the
/// `D = 2^e` *direct* symbols) followed by the `r` low bits of `g`; a larger gap, whose
/// highest set bit is `h ≥ r + e`, is the symbol `D + (h − r − e)` followed by the `h`
/// bits of `g` below that bit. `e` is the largest of 0 ..= 5 with `2^e ≤ r + e`, so the
/// symbols fit in 0 ..= 63 for every `r` in 1 ..= 63.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) struct Gap {
    r: u32,
    e: u32,
}

impl Gap {
    fn new(r: u32) -> Gap {
        let e = (0..=5u32).rev().find(|&e| (1u32 << e) <= r + e).unwrap_or(0);
        Gap { r, e }
    }

    /// The symbol of gap `g` and how many low bits follow it.
    #[inline]
    fn symbol(self, g: u64) -> (u8, u32) {
        if g == 0 {
            return (REPEAT_SYMBOL, 0);
        }
        let h = 63 - g.leading_zeros();
        if h < self.r + self.e {
            ((g >> self.r) as u8, self.r)
        } else {
            (((1u32 << self.e) + h - self.r - self.e) as u8, h)
        }
    }

    /// For symbol `s` (not the repeat): the gap's high part and the number of low bits.
    #[inline]
    fn high(self, s: u32) -> (u64, u32) {
        let d = 1u32 << self.e;
        if s < d {
            (u64::from(s) << self.r, self.r)
        } else {
            let h = self.r + self.e + (s - d);
            (1u64 << h, h)
        }
    }

    /// The largest symbol this gap code uses (63 at most).
    fn max_symbol(self) -> u32 {
        (1u32 << self.e) + 63 - self.r - self.e
    }
}

impl CompactSet {
    /// Compresses fingerprints given in ascending order (duplicates allowed), with
    /// [`DEFAULT_BLOCK_SIZE`]. Unsorted input is refused with [`Error::InvalidOption`].
    pub fn from_sorted(fingerprints: &[u64]) -> Result<CompactSet> {
        CompactSet::with_block_size(fingerprints, DEFAULT_BLOCK_SIZE)
    }

    /// Sorts the fingerprints, then compresses them.
    pub fn from_unsorted(mut fingerprints: Vec<u64>) -> Result<CompactSet> {
        fingerprints.sort_unstable();
        CompactSet::from_sorted(&fingerprints)
    }

    /// [`from_sorted`](Self::from_sorted) with `block_size` fingerprints per block
    /// (1 ..= [`MAX_BLOCK_SIZE`]): smaller blocks make lookups faster and the set larger.
    ///
    /// The coding is the smaller of the two versions for these fingerprints (the gap code,
    /// version 2, on random sets; see [`with_version`](Self::with_version) to choose).
    pub fn with_block_size(fingerprints: &[u64], block_size: u32) -> Result<CompactSet> {
        if fingerprints.windows(2).any(|w| w[0] > w[1]) {
            return CompactSet::with_version(fingerprints, block_size, NEWEST_VERSION);
            // the error
        }
        let b = block_size.clamp(1, MAX_BLOCK_SIZE) as usize;
        let teaching = CompactSet::teaching_cost(&CompactSet::teaching_counts(fingerprints, b));
        let version = if CompactSet::best_gap(fingerprints, b).1 < teaching { FSET_GAP_CODE } else { FIRST };
        CompactSet::with_version(fingerprints, block_size, version)
    }

    /// [`with_block_size`](Self::with_block_size) in the coding of `FSET` format
    /// `version`: 1 is the teaching form (Huffman code of the highest differing bit `n`,
    /// then the `n` bits below it), 2 the gap code (about 1.8 bits a fingerprint smaller
    /// on random sets). Both load and answer the same.
    pub fn with_version(fingerprints: &[u64], block_size: u32, version: u32) -> Result<CompactSet> {
        if !(1..=NEWEST_VERSION).contains(&version) {
            return Err(Error::option("version", version, format!("1 or {NEWEST_VERSION}")));
        }
        if !(1..=MAX_BLOCK_SIZE).contains(&block_size) {
            return Err(Error::option(
                "block_size",
                block_size,
                format!("an integer from 1 to {MAX_BLOCK_SIZE}"),
            ));
        }
        if let Some(i) = fingerprints.windows(2).position(|w| w[0] > w[1]) {
            return Err(Error::option(
                "fingerprints",
                format!(
                    "{:#018x} before {:#018x} at position {}",
                    fingerprints[i],
                    fingerprints[i + 1],
                    i + 1
                ),
                "ascending order; sort them first or use CompactSet::from_unsorted",
            ));
        }
        Ok(CompactSet::encode_as(fingerprints, block_size, version))
    }

    /// Encodes sorted fingerprints with a valid block size (checked by the callers) in
    /// the version-1 coding, the one `INDX` and `IDF` payloads embed.
    pub(super) fn encode(fingerprints: &[u64], block_size: u32) -> CompactSet {
        CompactSet::encode_as(fingerprints, block_size, 1)
    }

    /// The teaching form's symbol counts over the coded (non-first) fingerprints.
    fn teaching_counts(fingerprints: &[u64], b: usize) -> [u64; SYMBOLS] {
        let mut counts = [0u64; SYMBOLS];
        for (i, w) in fingerprints.windows(2).enumerate() {
            if (i + 1) % b != 0 {
                counts[symbol_of(w[0], w[1]) as usize] += 1;
            }
        }
        counts
    }

    /// The gap code of least total size for these fingerprints, with that size in bits
    /// (Huffman codes plus low bits, without the block table): every `r` in 1 ..= 63 is
    /// costed exactly from one histogram of the gaps by their highest set bit `h` and the
    /// 4 bits below it (a direct symbol `g >> r` needs at most those, since `h − r < e ≤ 5`).
    fn best_gap(fingerprints: &[u64], b: usize) -> (Gap, u64) {
        let mut hist = vec![0u64; 65 * 16]; // row 64: repeats
        for (i, w) in fingerprints.windows(2).enumerate() {
            if (i + 1) % b != 0 {
                let g = w[1] - w[0];
                if g == 0 {
                    hist[64 * 16] += 1;
                } else {
                    let h = 63 - g.leading_zeros();
                    let next = if h >= 4 { (g >> (h - 4)) & 15 } else { (g << (4 - h)) & 15 };
                    hist[h as usize * 16 + next as usize] += 1;
                }
            }
        }
        let mut best = (Gap::new(1), u64::MAX);
        for r in 1..=63 {
            let gap = Gap::new(r);
            let mut counts = [0u64; SYMBOLS];
            counts[usize::from(REPEAT_SYMBOL)] = hist[64 * 16];
            let mut low = 0u64;
            for h in 0..64u32 {
                for next in 0..16u64 {
                    let c = hist[h as usize * 16 + next as usize];
                    if c == 0 {
                        continue;
                    }
                    // a representative gap with this highest bit and these next 4 bits
                    let g = if h >= 4 { (16 | next) << (h - 4) } else { (16 | next) >> (4 - h) };
                    let (sym, l) = gap.symbol(g);
                    counts[sym as usize] += c;
                    low += c * u64::from(l);
                }
            }
            let lens = huffman::code_lengths(&counts);
            let cost = low + counts.iter().zip(lens).map(|(&c, l)| c * u64::from(l)).sum::<u64>();
            if cost < best.1 {
                best = (gap, cost);
            }
        }
        best
    }

    /// Bits the version-1 coding spends on the stream (codes plus low bits).
    fn teaching_cost(counts: &[u64; SYMBOLS]) -> u64 {
        let lens = huffman::code_lengths(counts);
        (0..SYMBOLS)
            .map(|s| {
                counts[s] * (u64::from(lens[s]) + if s == usize::from(REPEAT_SYMBOL) { 0 } else { s as u64 })
            })
            .sum()
    }

    fn encode_as(fingerprints: &[u64], block_size: u32, version: u32) -> CompactSet {
        let b = block_size.clamp(1, MAX_BLOCK_SIZE) as usize;
        let counts = CompactSet::teaching_counts(fingerprints, b);
        let gap =
            if version >= FSET_GAP_CODE { CompactSet::best_gap(fingerprints, b).0 } else { Gap::default() };
        let lens = if version >= FSET_GAP_CODE {
            let mut gap_counts = [0u64; SYMBOLS];
            for (i, w) in fingerprints.windows(2).enumerate() {
                if (i + 1) % b != 0 {
                    gap_counts[gap.symbol(w[1] - w[0]).0 as usize] += 1;
                }
            }
            huffman::code_lengths(&gap_counts)
        } else {
            huffman::code_lengths(&counts)
        };
        let rcodes = huffman::stream_codes(&lens);
        let mut w = BitWriter::new();
        let mut firsts = Vec::with_capacity(fingerprints.len().div_ceil(b));
        let mut offsets = Vec::with_capacity(firsts.capacity() + 1);
        for (i, &x) in fingerprints.iter().enumerate() {
            if i % b == 0 {
                firsts.push(x);
                offsets.push(w.bits());
                continue;
            }
            if version >= FSET_GAP_CODE {
                let g = x - fingerprints[i - 1];
                let (s, l) = gap.symbol(g);
                w.put(u64::from(rcodes[s as usize]), u32::from(lens[s as usize]));
                w.put(g & low_mask(l), l);
                continue;
            }
            let s = symbol_of(fingerprints[i - 1], x);
            w.put(u64::from(rcodes[s as usize]), u32::from(lens[s as usize]));
            if s != REPEAT_SYMBOL {
                w.put(x & low_mask(u32::from(s)), u32::from(s));
            }
        }
        let (stream, bits) = w.finish();
        offsets.push(bits);
        CompactSet {
            n: fingerprints.len() as u64,
            version,
            gap,
            block_size: b as u32,
            lens,
            counts,
            firsts,
            offsets,
            stream,
            table: huffman::decode_table(&lens),
        }
    }

    /// The number of fingerprints, duplicates included.
    pub fn len(&self) -> usize {
        usize::try_from(self.n).unwrap_or(usize::MAX)
    }

    /// `true` for the empty set.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Fingerprints per block.
    pub fn block_size(&self) -> u32 {
        self.block_size
    }

    /// Size of the encoded set (the `FSET` payload, without the 24-byte envelope), in bytes.
    pub fn encoded_len(&self) -> usize {
        SET_HEADER + usize::from(self.version >= FSET_GAP_CODE) + 16 * self.firsts.len() + self.stream.len()
    }

    /// The `FSET` format version (the coding) of this set: 1 or 2, see
    /// [`with_version`](Self::with_version).
    pub fn version(&self) -> u32 {
        self.version
    }

    /// Bits per fingerprint of the encoding (payload only; 0 for the empty set).
    pub fn bits_per_fingerprint(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.encoded_len() as f64 * 8.0 / self.n as f64
        }
    }

    /// The Huffman code of the symbols, like the teaching slide: `(symbol, count, code)`
    /// for every symbol used, sorted by code. Symbol `n` in 0 ..= 63 means "the highest
    /// differing bit is `n`", 64 means a duplicate. The code is written
    /// first bit first, e.g. `"0110"`.
    ///
    /// This is the teaching form whatever the set's [`version`](Self::version): for a
    /// version-2 set (gap-coded) the code is the one version 1 would build from the same
    /// counts.
    pub fn huffman_table(&self) -> Vec<(u8, u64, String)> {
        let lens = if self.version < FSET_GAP_CODE { self.lens } else { huffman::code_lengths(&self.counts) };
        table_rows(&self.counts, &lens)
    }

    fn block_count(&self, j: usize) -> u64 {
        let start = j as u64 * u64::from(self.block_size);
        (self.n - start.min(self.n)).min(u64::from(self.block_size))
    }

    /// Decodes block `j`, calling `f` with each fingerprint until it returns `false`.
    /// On malformed data (impossible after validation) it stops with the reason.
    #[inline]
    fn walk_block(
        &self,
        j: usize,
        mut f: impl FnMut(u64) -> bool,
    ) -> std::result::Result<(), (u64, &'static str)> {
        let (Some(&first), Some(&start), Some(&end)) =
            (self.firsts.get(j), self.offsets.get(j), self.offsets.get(j + 1))
        else {
            return Ok(());
        };
        let mut x = first;
        if !f(x) {
            return Ok(());
        }
        let mut pos = start;
        for _ in 1..self.block_count(j) {
            let Some((s, l)) = huffman::decode(&self.table, peek(&self.stream, pos, MAX_CODE_LEN)) else {
                return Err((pos, "bits that start no Huffman code"));
            };
            pos += l;
            if self.version >= FSET_GAP_CODE {
                if s != u32::from(REPEAT_SYMBOL) {
                    if s > self.gap.max_symbol() {
                        return Err((pos, "a symbol the gap code does not have"));
                    }
                    let (high, l) = self.gap.high(s);
                    let g = high | read_bits(&self.stream, pos, l);
                    pos += u64::from(l);
                    x = match x.checked_add(g) {
                        Some(y) if g != 0 => y,
                        _ => return Err((pos, "a gap of 0 outside the repeat symbol, or past 2^64")),
                    };
                }
            } else if s != u32::from(REPEAT_SYMBOL) {
                if x & (1u64 << s) != 0 {
                    return Err((pos, "a fingerprint that is not larger than the previous one"));
                }
                let low = read_bits(&self.stream, pos, s);
                pos += u64::from(s);
                x = (x & !low_mask(s + 1)) | (1u64 << s) | low;
            }
            if pos > end {
                return Err((pos, "a block that runs past its end"));
            }
            if !f(x) {
                return Ok(());
            }
        }
        if pos != end {
            return Err((pos, "a block that ends before its end offset"));
        }
        Ok(())
    }

    /// Every fingerprint in ascending order (a full decode).
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.firsts.len()).flat_map(move |j| {
            let mut v = Vec::with_capacity(self.block_count(j) as usize);
            let _ = self.walk_block(j, |x| {
                v.push(x);
                true
            });
            v
        })
    }

    /// Decodes the whole set into a vector.
    pub fn to_vec(&self) -> Vec<u64> {
        self.iter().collect()
    }

    /// Whether `fp` is in the set: a binary search of the block table and the decode of
    /// at most one block.
    pub fn contains(&self, fp: u64) -> bool {
        let j = self.firsts.partition_point(|&f| f <= fp);
        if j == 0 {
            return false;
        }
        let mut found = false;
        let _ = self.walk_block(j - 1, |x| {
            found = x == fp;
            x < fp
        });
        found
    }

    /// Whether some fingerprint of the set is within Hamming distance `k` of `fp`. Exact.
    ///
    /// # Cost
    ///
    /// A depth-first walk of the binary trie of the sorted fingerprints, driven by the
    /// block table: a node is a prefix of the query with at most `k` bits flipped; its
    /// fingerprints are a contiguous run of the sorted set, found by binary search of the
    /// block table. A node whose run spans at most two blocks is finished by decoding
    /// them and comparing; a node with `k` flips already is a single [`contains`] of the
    /// one candidate left. With `t ≈ log2(N / B)` the depth where runs shrink to a block,
    /// that is about `Σ_{i ≤ k} C(t, i)` block decodes (for `N = 2^20`, `B = 128`,
    /// `k = 3`: about 380 decodes of 128 fingerprints), and no allocation.
    ///
    /// [`contains`]: Self::contains
    pub fn contains_within(&self, fp: u64, k: u32) -> bool {
        let mut found = false;
        self.search(fp, k, &mut |_| {
            found = true;
            false
        });
        found
    }

    /// Every fingerprint of the set within Hamming distance `k` of `fp`, ascending,
    /// duplicates included. Same cost as [`contains_within`](Self::contains_within) plus
    /// the output.
    pub fn find_within(&self, fp: u64, k: u32) -> Vec<u64> {
        let mut out = Vec::new();
        self.search(fp, k, &mut |x| {
            out.push(x);
            true
        });
        out.sort_unstable();
        out
    }

    /// How many of `fingerprints` have a fingerprint of the set within Hamming distance
    /// `k`: [`contains_within`](Self::contains_within) for each, counted. A query given
    /// twice counts twice.
    ///
    /// ```
    /// use simhash_wasm::snapshot::CompactSet;
    /// let set = CompactSet::from_unsorted(vec![0b1111_0000, 1 << 40])?;
    /// assert_eq!(set.count_contained_within(&[0b1111_0011, 0b1111_0111, u64::MAX, 1 << 40], 2), 2);
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn count_contained_within(&self, fingerprints: &[u64], k: u32) -> usize {
        fingerprints.iter().filter(|&&fp| self.contains_within(fp, k)).count()
    }

    /// Calls `f` with each match (in no particular order) until it returns `false`.
    fn search(&self, fp: u64, k: u32, f: &mut dyn FnMut(u64) -> bool) {
        if self.firsts.is_empty() {
            return;
        }
        let nb = self.firsts.len();
        self.descend(fp, k.min(64), 0, 0, 0, nb, f);
    }

    /// Visits the prefix `prefix` (its top `depth` bits are set, `m` of them differ from
    /// `fp`); blocks `lo..hi` are the only ones that may hold fingerprints under a prefix
    /// of the parent. Returns `false` once `f` asked to stop.
    #[allow(clippy::too_many_arguments)]
    fn descend(
        &self,
        fp: u64,
        k: u32,
        prefix: u64,
        depth: u32,
        lo: usize,
        hi: usize,
        f: &mut dyn FnMut(u64) -> bool,
    ) -> bool {
        let below = low_mask(64 - depth);
        let (p_lo, p_hi) = (prefix, prefix | below);
        let m = if depth == 0 { 0 } else { ((prefix ^ fp) & !below).count_ones() };
        // Blocks that may hold values in [p_lo, p_hi].
        let firsts = &self.firsts[lo..hi];
        let b_hi = lo + firsts.partition_point(|&x| x <= p_hi);
        let b_lo = (lo + firsts.partition_point(|&x| x < p_lo)).saturating_sub(1).max(lo);
        if b_hi == 0 || b_hi <= b_lo {
            return true;
        }
        if m == k {
            // Only one candidate is left: the query with the prefix's bits.
            let cand = p_lo | (fp & below);
            return self.emit_range(cand, cand, |_| true, b_lo, b_hi, f);
        }
        if b_hi - b_lo <= 2 || depth == 64 {
            return self.emit_range(p_lo, p_hi, |x| (x ^ fp).count_ones() <= k, b_lo, b_hi, f);
        }
        let bit = 63 - depth;
        let same = prefix | (fp & (1u64 << bit));
        let other = prefix | (!fp & (1u64 << bit));
        if !self.descend(fp, k, same, depth + 1, b_lo, b_hi, f) {
            return false;
        }
        self.descend(fp, k, other, depth + 1, b_lo, b_hi, f)
    }

    /// Decodes blocks `b_lo..b_hi` and reports values in `[lo, hi]` passing `keep`.
    fn emit_range(
        &self,
        lo: u64,
        hi: u64,
        keep: impl Fn(u64) -> bool,
        b_lo: usize,
        b_hi: usize,
        f: &mut dyn FnMut(u64) -> bool,
    ) -> bool {
        let mut go_on = true;
        let start = (b_lo + self.firsts[b_lo..b_hi].partition_point(|&x| x < lo)).saturating_sub(1).max(b_lo);
        for j in start..b_hi {
            if self.firsts[j] > hi {
                break;
            }
            let _ = self.walk_block(j, |x| {
                if x > hi {
                    return false;
                }
                if x >= lo && keep(x) && !f(x) {
                    go_on = false;
                    return false;
                }
                true
            });
            if !go_on {
                return false;
            }
        }
        true
    }

    /// The encoded set (the `FSET` payload, no envelope), as the [module docs](self)
    /// lay it out.
    pub(super) fn body(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(self.encoded_len());
        w.u64(self.n);
        w.u32(self.block_size);
        if self.version >= FSET_GAP_CODE {
            w.u8(self.gap.r as u8);
        }
        huffman::write_lengths(&mut w, &self.lens);
        w.u64(self.offsets.last().copied().unwrap_or(0));
        for (&f, &o) in self.firsts.iter().zip(&self.offsets) {
            w.u64(f);
            w.u64(o);
        }
        w.bytes(&self.stream);
        w.into_bytes()
    }

    /// The set in its own envelope (kind `FSET`).
    pub fn to_bytes(&self) -> Vec<u8> {
        super::envelope::seal_version(Kind::FingerprintSet, self.version, &self.body())
    }

    /// Loads a set written by [`to_bytes`](Self::to_bytes). Checks the envelope, parses
    /// the header and the block table, copies the bit stream and validates it in one
    /// decoding pass (so queries never meet malformed data): `O(bytes)` time and memory
    /// about the input's size, with no per-fingerprint allocation.
    pub fn from_bytes(bytes: &[u8]) -> Result<CompactSet> {
        let (version, payload) = open(Kind::FingerprintSet, bytes)?;
        CompactSet::read_body_into(payload, super::HEADER_LEN, Kind::FingerprintSet.what(), version, None)
    }

    /// Parses and validates a set body that is the whole of `bytes` (at absolute offset
    /// `base` of the input, for messages).
    pub(super) fn read_body(bytes: &[u8], base: usize, what: &'static str) -> Result<CompactSet> {
        CompactSet::read_body_into(bytes, base, what, 1, None)
    }

    /// [`read_body`](Self::read_body) that also pushes every fingerprint, in order, onto
    /// `values` (when given) during its validating pass, so a caller that needs them all
    /// decodes the stream once.
    pub(super) fn read_body_into(
        bytes: &[u8],
        base: usize,
        what: &'static str,
        version: u32,
        mut values: Option<&mut Vec<u64>>,
    ) -> Result<CompactSet> {
        let mut r = Reader::new(bytes, base, what);
        let n = r.u64("fingerprint count")?;
        let at = r.offset();
        let block_size = r.u32("block size")?;
        if !(1..=MAX_BLOCK_SIZE).contains(&block_size) {
            return Err(Error::corrupt(
                what,
                at,
                format!("block size {block_size} is not in 1 ..= {MAX_BLOCK_SIZE}"),
            ));
        }
        let gap = if version >= FSET_GAP_CODE {
            let at = r.offset();
            let rr = u32::from(r.u8("gap low bits")?);
            if !(1..=63).contains(&rr) {
                return Err(Error::corrupt(what, at, format!("{rr} low bits per gap is not in 1 ..= 63")));
            }
            Gap::new(rr)
        } else {
            Gap::default()
        };
        let at = r.offset();
        let lens = huffman::read_lengths(&mut r)?;
        let at_bits = r.offset();
        let bits = r.u64("stream length")?;
        let nb = n.div_ceil(u64::from(block_size));
        let table_bytes = nb.checked_mul(16).filter(|&t| t <= r.remaining() as u64).ok_or_else(|| {
            Error::corrupt(
                what,
                at_bits + 8,
                format!(
                    "{n} fingerprints in blocks of {block_size} need a {nb}-entry block table, more than the {} bytes left",
                    r.remaining()
                ),
            )
        })?;
        let table_at = r.offset();
        let stream_bytes = r.remaining() as u64 - table_bytes;
        if bits.div_ceil(8) != stream_bytes {
            return Err(Error::corrupt(
                what,
                at_bits,
                format!("the stream length says {bits} bits, but {stream_bytes} bytes are left"),
            ));
        }
        let nb = nb as usize;
        let mut firsts = Vec::with_capacity(nb);
        let mut offsets = Vec::with_capacity(nb + 1);
        for j in 0..nb {
            let f = r.u64("block table")?;
            let o = r.u64("block table")?;
            let prev = offsets.last().copied().unwrap_or(0);
            if (j == 0 && o != 0) || o < prev || o > bits {
                return Err(Error::corrupt(
                    what,
                    table_at + 16 * j + 8,
                    format!("block {j} starts at bit {o}, out of order or past the stream's {bits} bits"),
                ));
            }
            if firsts.last().is_some_and(|&p| p > f) {
                return Err(Error::corrupt(
                    what,
                    table_at + 16 * j,
                    format!("block {j}'s first fingerprint is smaller than the previous block's"),
                ));
            }
            firsts.push(f);
            offsets.push(o);
        }
        offsets.push(bits);
        let stream_at = r.offset();
        let stream = r.take(stream_bytes as usize, "bit stream")?.to_vec();
        if bits % 8 != 0 {
            if let Some(&last) = stream.last() {
                if last >> (bits % 8) != 0 {
                    return Err(Error::corrupt(
                        what,
                        stream_at + stream.len() - 1,
                        "the padding bits after the stream are not zero",
                    ));
                }
            }
        }
        let coded = n - nb as u64;
        if coded > 0 && lens.iter().all(|&l| l == 0) {
            return Err(Error::corrupt(what, at, "the set has coded fingerprints but no Huffman code"));
        }
        let mut set = CompactSet {
            n,
            version,
            gap,
            block_size,
            lens,
            counts: [0; SYMBOLS],
            firsts,
            offsets,
            stream,
            table: huffman::decode_table(&lens),
        };
        if let Some(v) = values.as_deref_mut() {
            // n is bounded by the input here: every coded fingerprint takes at least one bit
            v.reserve(n.min(bits + nb as u64) as usize);
        }
        // Validate every block and collect the symbol counts.
        let mut counts = [0u64; SYMBOLS];
        let mut last: Option<u64> = None;
        for j in 0..nb {
            if last.is_some_and(|l| l > set.firsts[j]) {
                return Err(Error::corrupt(
                    what,
                    table_at + 16 * j,
                    format!("block {j} starts below the end of block {}", j - 1),
                ));
            }
            let mut prev: Option<u64> = None;
            let res = set.walk_block(j, |x| {
                if let Some(p) = prev {
                    counts[symbol_of(p, x) as usize] += 1;
                }
                if let Some(v) = values.as_deref_mut() {
                    v.push(x);
                }
                prev = Some(x);
                true
            });
            if let Err((pos, reason)) = res {
                return Err(Error::corrupt(
                    what,
                    stream_at + (pos / 8).min(stream_bytes) as usize,
                    format!("block {j} decodes to {reason} (stream bit {pos})"),
                ));
            }
            last = prev;
        }
        set.counts = counts;
        Ok(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_from_counts_alone_is_the_sets_own() {
        let mut rng = crate::test_rng::Rng(21);
        for n in [0usize, 1, 2, 3, 127, 128, 129, 1000, 5000] {
            // Clustered values with repeats, so every kind of symbol occurs.
            let fps: Vec<u64> =
                (0..n).map(|i| if i % 7 == 0 { 42 } else { rng.next() >> (rng.below(40) as u32) }).collect();
            let set = CompactSet::from_unsorted(fps.clone()).unwrap();
            assert_eq!(huffman_table_of(fps), set.huffman_table(), "n = {n}");
        }
    }
    use crate::test_rng::Rng;

    /// Fingerprints in clusters (so queries near them find several) plus duplicates.
    fn clustered(rng: &mut Rng, n: usize) -> Vec<u64> {
        let centres: Vec<u64> = (0..(n / 10).max(1)).map(|_| rng.next()).collect();
        let mut v: Vec<u64> = (0..n)
            .map(|_| {
                let c = centres[rng.below(centres.len() as u64) as usize];
                c ^ (1 << rng.below(64)) ^ (1 << rng.below(64))
            })
            .collect();
        v.extend_from_within(..n / 20);
        v.sort_unstable();
        v
    }

    #[test]
    fn count_contained_within_agrees_with_a_naive_count() {
        let mut rng = Rng(0xC0);
        for (n, block) in [(0usize, 128u32), (1, 128), (300, 4), (2_000, 128), (2_000, 1)] {
            let fps = clustered(&mut rng, n);
            let set = CompactSet::with_block_size(&fps, block).unwrap();
            for k in [0u32, 1, 2, 3, 5, 64] {
                // Members, near misses at 0 ..= k + 2 bits, and random words.
                let queries: Vec<u64> = (0..150)
                    .map(|i| match (i % 3, fps.is_empty()) {
                        (0, _) | (_, true) => rng.next(),
                        _ => {
                            let mut q = fps[rng.below(fps.len() as u64) as usize];
                            for _ in 0..rng.below(u64::from(k.min(8)) + 3) {
                                q ^= 1 << rng.below(64);
                            }
                            q
                        }
                    })
                    .collect();
                let naive =
                    queries.iter().filter(|&&q| fps.iter().any(|&x| (x ^ q).count_ones() <= k)).count();
                assert_eq!(set.count_contained_within(&queries, k), naive, "n={n} block={block} k={k}");
                // A case that must count something, and one that must count nothing.
                if !fps.is_empty() && k < 64 {
                    assert!(naive > 0, "the queries near members must find some (n={n} k={k})");
                }
            }
            assert_eq!(set.count_contained_within(&[], 3), 0);
            assert_eq!(set.count_contained_within(&fps, 0), fps.len());
        }
    }

    #[test]
    fn symbols_are_the_highest_differing_bit_or_repeat() {
        assert_eq!(symbol_of(5, 5), REPEAT_SYMBOL);
        assert_eq!(symbol_of(0, 1), 0);
        assert_eq!(symbol_of(0b0111, 0b1000), 3);
        assert_eq!(symbol_of(0, u64::MAX), 63);
    }
}
