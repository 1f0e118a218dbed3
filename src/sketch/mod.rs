//! Similarity sketches: a few dozen bytes per document from which the Jaccard similarity
//! of two documents' shingle sets is estimated, for the crawler that keeps no texts.
//!
//! A 64-bit SimHash estimates the angle between two documents with an error of several
//! bits, while "near-duplicate" is a sharp Jaccard threshold. A sketch stored beside each
//! fingerprint verifies candidates without the texts (see `docs/decisions/005-similarity-sketch.md`).
//!
//! ```
//! use simhash_wasm::{SimHasher, Options};
//! use simhash_wasm::sketch::{estimate_jaccard, SketchScheme};
//! let mut h = SimHasher::new(Options::default())?;
//! let s = SketchScheme::default();
//! let a = h.sketch("The quick brown fox jumps over the lazy dog, again and again.", s)?;
//! let b = h.sketch("The quick brown fox jumps over the lazy cat, again and again.", s)?;
//! let c = h.sketch("Pack my box with five dozen liquor jugs, said the sphinx.", s)?;
//! assert_eq!(a.to_bytes().len(), 2 + 128);
//! assert!(estimate_jaccard(&a, &b)? > 0.6);
//! assert!(estimate_jaccard(&a, &c)? < 0.1);
//! assert_eq!(estimate_jaccard(&a, &a)?, 1.0);
//! # Ok::<(), simhash_wasm::Error>(())
//! ```
//!
//! # The scheme (version 1, `sk1`)
//!
//! **Shingles.** The set of distinct runs of [`SHINGLE`] = 4 grapheme clusters of the text as
//! the fingerprint normalises it (the same [`Options`](crate::Options)), each hashed with
//! the pinned feature hash (`sh64` v1, `src/hash.rs`). A text shorter than 4 clusters is
//! one shingle. Four, not the fingerprint's 6: measured on the dev corpus, the 4-gram set
//! is the one whose Jaccard tracks near-duplicates best (its truth is 4-gram Jaccard ≥ 0.8),
//! while exact 6-gram Jaccard caps F1 at 0.956.
//!
//! **Three parts, in `size` bytes** (`size` from [`MIN_SIZE`] to [`MAX_SIZE`], a multiple
//! of 8; default [`DEFAULT_SIZE`] = 128):
//!
//! | bytes | part | what |
//! | --- | --- | --- |
//! | `0..4` | `n` | the number of distinct shingles, u32 little-endian (saturating) |
//! | `4..size/2` | odd sketch | `m = 8 · (size/2 − 4)` bits: shingle `h` flips bit `⌊(mix(h ⊕ ODD_SEED) >> 32) · m / 2^32⌋` (bit `i % 8` of byte `i / 8`) |
//! | `size/2..size` | one-permutation MinHash | `K = size` bins of 4 bits (bin `2j` in the low half of byte `j`) |
//!
//! The MinHash part: shingle `h` goes to bin `⌊(g >> 32) · K / 2^32⌋` with `g = mix(h ⊕
//! OPH_SEED)`, ordered by `g mod 2^32`; each bin keeps the 4 low bits of
//! `mix(min ⊕ NIBBLE_SEED)` (b-bit minwise hashing, Li and König 2010). An empty bin takes
//! the value of the first non-empty bin on its own pseudo-random probe sequence
//! `⌊(mix((bin << 32 | attempt) ⊕ DENSIFY_SEED) >> 32) · K / 2^32⌋` (optimal densification,
//! Shrivastava 2017), falling back to the next non-empty bin after `64 · K` attempts.
//!
//! **The estimate** ([`estimate_jaccard`]). XOR of two odd sketches is the odd sketch of
//! the symmetric difference Δ (Mitzenmacher, Pagh and Pham 2014): with `z` bits set,
//! `|Δ| ≈ −(m/2) · ln(1 − 2z/m)`, and `J = (nₐ + n_b − |Δ|) / (nₐ + n_b + |Δ|)`. That is
//! nearly exact while `|Δ|` is small against `m`: short texts and very similar ones, where
//! a MinHash with more bins than shingles is at its worst. Once `1 − 2z/m` falls to
//! [`ODD_LIMIT`] or below, the MinHash part answers instead: with a share `e` of equal
//! bins, `J = (e − 2⁻⁴) / (1 − 2⁻⁴)`. Both are clamped to `[0, 1]`; `ln` is the crate's
//! IEEE-only `ln`, so an estimate is the same on every platform to the bit.
//!
//! Measured against the dev corpus (candidates from the sketch's bands, keep `J ≥ 0.81`):
//! F1 0.941 at precision 0.981 (English 0.938, Chinese 0.959), where the best 128-byte
//! MinHash alone (256 bins of 4 bits) reached 0.934 with Chinese at 0.834.
//!
//! **Bytes** ([`Sketch::to_bytes`]): a version byte ([`VERSION`] = 1), `size / 8`, then the
//! `size` bytes above. Snapshots store the `size` bytes per entry and the scheme once.
//!
//! **Checks.** A sketch carries no checksum, but its parts agree in ways [`Sketch::from_bytes`]
//! and [`Sketch::from_payload`] check, refusing damage as [`Error::Corrupt`]. Each shingle
//! flips one odd-sketch bit and fills at most one MinHash bin, whose value the empty bins
//! copy; so, while `n` is below the saturated `u32::MAX`:
//!
//! - the odd sketch has at most `n` bits set, and their number has `n`'s parity;
//! - the MinHash bins hold at most `n` distinct values, and all are 0 when `n` is 0.
//!
//! Any change of an odd number of odd-sketch bits is refused, and so is a count that
//! changes parity or falls below the bits set: the count and the odd sketch answer the
//! estimates of similar texts. A count changed by an even amount that stays at or above the
//! bits set, or a changed MinHash bin of a sketch of 16 shingles or more, passes: nothing in
//! the bytes tells it. A changed bin moves an estimate by at most `16 / (15 · K)`.
//! Snapshots (whose checksum covers their sketches) and Redis stores read sketches without
//! these checks: earlier builds stored there whatever sketch bytes a caller handed them,
//! and those still load.

pub(crate) mod bands;
pub use bands::BandIndex;
mod make;
mod rows;
pub(crate) use rows::SketchRows;

pub(crate) use make::SketchBuilder;

use crate::error::{Error, Result};
use crate::math::ln;

/// The scheme version written in every sketch's bytes.
pub const VERSION: u8 = 1;
pub use crate::scan::SHINGLE;
/// The default sketch size in bytes: the largest the quality goal allows (128 bytes a page).
pub const DEFAULT_SIZE: usize = 128;
/// The smallest sketch size.
pub const MIN_SIZE: usize = 32;
/// The largest sketch size.
pub const MAX_SIZE: usize = 256;
/// The odd sketch answers while `1 − 2z/m` is above this; the MinHash part below it.
pub const ODD_LIMIT: f64 = 0.25;

pub(crate) const ODD_SEED: u64 = 0x9C1E_5A7B_3F02_D481;
pub(crate) const OPH_SEED: u64 = 0x5CE7_C40B_1E55_ED01;
pub(crate) const NIBBLE_SEED: u64 = 0x2B7E_1516_28AE_D2A6;
pub(crate) const DENSIFY_SEED: u64 = 0xB4F1_0C3D_6A95_E827;

/// Which sketch: its size in bytes. The shingle size and the seeds are fixed by [`VERSION`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SketchScheme {
    size: u16,
}

impl Default for SketchScheme {
    fn default() -> Self {
        SketchScheme { size: DEFAULT_SIZE as u16 }
    }
}

impl SketchScheme {
    /// A scheme of `size` bytes: a multiple of 8 from [`MIN_SIZE`] to [`MAX_SIZE`].
    pub fn new(size: usize) -> Result<SketchScheme> {
        SketchScheme::up_to(size, MAX_SIZE)
    }

    /// A scheme of `size` bytes for a store that holds sketches of at most `max` bytes
    /// (at most [`MAX_SIZE`]): the error names that range.
    pub(crate) fn up_to(size: usize, max: usize) -> Result<SketchScheme> {
        let max = max.min(MAX_SIZE);
        if !(MIN_SIZE..=max).contains(&size) || !size.is_multiple_of(8) {
            return Err(SketchScheme::out_of_range(size, max));
        }
        Ok(SketchScheme { size: size as u16 })
    }

    fn out_of_range(size: impl std::fmt::Display, max: usize) -> crate::Error {
        Error::option("sketch", size, format!("a multiple of 8 from {MIN_SIZE} to {max} (bytes per page)"))
    }

    /// The size from a JS number (`None`: the default).
    pub fn from_number(size: Option<f64>) -> Result<SketchScheme> {
        SketchScheme::from_number_up_to(size, MAX_SIZE)
    }

    /// [`SketchScheme::from_number`] for a store that holds at most `max` bytes a sketch.
    pub(crate) fn from_number_up_to(size: Option<f64>, max: usize) -> Result<SketchScheme> {
        match size {
            None => Ok(SketchScheme::default()),
            Some(x) if x.fract() == 0.0 && (0.0..=65536.0).contains(&x) => {
                SketchScheme::up_to(x as usize, max)
            }
            Some(x) => Err(SketchScheme::out_of_range(crate::error::number(x), max.min(MAX_SIZE))),
        }
    }

    /// Bytes per sketch, as stored per page.
    pub fn size(self) -> usize {
        self.size as usize
    }

    /// Bits of the odd sketch.
    pub fn odd_bits(self) -> usize {
        8 * (self.size() / 2 - 4)
    }

    /// Bins of the MinHash part (4 bits each).
    pub fn bins(self) -> usize {
        self.size()
    }

    /// The scheme as text, as snapshots and `describe()` print it: `sk1:128`.
    pub fn describe(self) -> String {
        format!("sk{VERSION}:{}", self.size)
    }
}

/// A similarity sketch of one text (see the [module docs](self) for the scheme).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Sketch {
    bytes: Box<[u8]>,
}

impl std::fmt::Debug for Sketch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Sketch({}, n = {})", self.scheme().describe(), self.shingles())
    }
}

impl Sketch {
    /// The sketch of a set of distinct shingle hashes (any order).
    pub fn from_shingles(scheme: SketchScheme, distinct: &[u64]) -> Sketch {
        let mut b = SketchBuilder::default();
        b.finish(scheme, distinct)
    }

    /// The scheme this sketch was made with.
    pub fn scheme(&self) -> SketchScheme {
        SketchScheme { size: self.bytes.len() as u16 }
    }

    /// The number of distinct shingles of the text (saturating at `u32::MAX`).
    pub fn shingles(&self) -> u32 {
        u32::from_le_bytes(self.bytes[..4].try_into().expect("4 bytes"))
    }

    /// The odd-sketch part.
    pub fn odd(&self) -> &[u8] {
        &self.bytes[4..self.bytes.len() / 2]
    }

    /// The MinHash part, two 4-bit bins a byte.
    pub fn minhash(&self) -> &[u8] {
        &self.bytes[self.bytes.len() / 2..]
    }

    /// MinHash bin `i` (4 bits).
    pub fn bin(&self, i: usize) -> u8 {
        let b = self.minhash()[i / 2];
        if i.is_multiple_of(2) {
            b & 15
        } else {
            b >> 4
        }
    }

    /// The `size` bytes stored per page (no header).
    pub fn payload(&self) -> &[u8] {
        &self.bytes
    }

    /// A sketch from `payload` bytes ([`Sketch::payload`]) of a known scheme. A length
    /// other than the scheme's, or parts no sketch can hold together (see
    /// [`Sketch::from_bytes`]), is [`Error::Corrupt`].
    pub fn from_payload(scheme: SketchScheme, payload: &[u8]) -> Result<Sketch> {
        Sketch::read_payload(scheme, payload, 0)
    }

    /// [`Sketch::from_payload`] checking the length only, for a payload read from a snapshot
    /// (its checksum guards against damage) or a Redis store: earlier builds stored any
    /// payload of the right length that a caller handed them, and such a store still loads.
    pub(crate) fn from_stored_payload(scheme: SketchScheme, payload: &[u8]) -> Result<Sketch> {
        Sketch::check_length(scheme, payload, 0)?;
        Ok(Sketch { bytes: payload.into() })
    }

    /// [`Sketch::from_payload`] for a payload at byte `at` of the bytes being read (error
    /// offsets count from there).
    fn read_payload(scheme: SketchScheme, payload: &[u8], at: usize) -> Result<Sketch> {
        Sketch::check_length(scheme, payload, at)?;
        let sketch = Sketch { bytes: payload.into() };
        sketch.check_parts(at)?;
        Ok(sketch)
    }

    fn check_length(scheme: SketchScheme, payload: &[u8], at: usize) -> Result<()> {
        if payload.len() != scheme.size() {
            return Err(Error::corrupt(
                "sketch",
                at + payload.len().min(scheme.size()),
                format!(
                    "{} bytes, where a {} sketch has {}",
                    payload.len(),
                    scheme.describe(),
                    scheme.size()
                ),
            ));
        }
        Ok(())
    }

    /// Refuses parts that no set of shingles gives together (the module docs' **Checks**);
    /// `at` is the payload's offset in the bytes being read.
    fn check_parts(&self, at: usize) -> Result<()> {
        let n = self.shingles();
        if n == u32::MAX {
            // Saturated: the true count, and so the odd sketch's parity, is unknown.
            return Ok(());
        }
        let set: u32 = self.odd().iter().map(|b| b.count_ones()).sum();
        if set > n || set % 2 != n % 2 {
            let why = if set > n {
                format!("more than {n} shingles can set")
            } else {
                format!(
                    "where {n} shingles leave an {} number",
                    if n.is_multiple_of(2) { "even" } else { "odd" }
                )
            };
            return Err(Error::corrupt(
                "sketch",
                at,
                format!(
                    "the odd sketch has {set} bits set, {why} (each shingle flips one bit), so the \
                     shingle count (bytes 0..4) or the odd sketch is damaged"
                ),
            ));
        }
        if n < 16 {
            // Each bin holds the value of a filled bin, and n shingles fill at most n bins.
            let half = self.bytes.len() / 2;
            let mut values = 0u16;
            for (i, &b) in self.minhash().iter().enumerate() {
                values |= 1 << (b & 15) | 1 << (b >> 4);
                let distinct = values.count_ones();
                if (n == 0 && b != 0) || (n > 0 && distinct > n) {
                    let holds = if n == 0 {
                        "no shingles, where an empty sketch's bins are all 0".to_owned()
                    } else {
                        format!("{distinct} distinct values, more than its {n} shingles give")
                    };
                    return Err(Error::corrupt(
                        "sketch",
                        at + half + i,
                        format!(
                            "the MinHash bins up to this byte hold {holds}, so the shingle \
                             count (bytes 0..4) or the MinHash part is damaged"
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The sketch as self-describing bytes: [`VERSION`], `size / 8`, the payload.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(2 + self.bytes.len());
        out.push(VERSION);
        out.push((self.bytes.len() / 8) as u8);
        out.extend_from_slice(&self.bytes);
        out
    }

    /// Reads [`to_bytes`](Self::to_bytes)' output. Another version is
    /// [`Error::UnsupportedVersion`]; a bad size or length is [`Error::Corrupt`], and so are
    /// parts that no set of shingles gives together (see the [module docs](self), **Checks**).
    pub fn from_bytes(bytes: &[u8]) -> Result<Sketch> {
        let [version, eighths, payload @ ..] = bytes else {
            return Err(Error::corrupt("sketch", bytes.len(), "shorter than its 2-byte header"));
        };
        if *version != VERSION {
            return Err(Error::UnsupportedVersion {
                what: "sketch",
                found: *version as u32,
                supported: VERSION as u32,
            });
        }
        let scheme = SketchScheme::new(*eighths as usize * 8)
            .map_err(|_| Error::corrupt("sketch", 1, format!("size byte {eighths} is no sketch size")))?;
        Sketch::read_payload(scheme, payload, 2)
    }
}

/// The estimated Jaccard similarity of the shingle sets of the two texts that `a` and `b`
/// sketch, from 0 to 1. Sketches of different sizes are an [`Error::SchemeMismatch`].
pub fn estimate_jaccard(a: &Sketch, b: &Sketch) -> Result<f64> {
    if a.bytes.len() != b.bytes.len() {
        return Err(Error::SchemeMismatch {
            field: "sketch",
            found: b.scheme().describe(),
            expected: a.scheme().describe(),
        });
    }
    Ok(estimate(a, b))
}

/// The part of two sketches that answers their estimate (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Estimator {
    /// The odd sketch: near-exact while the symmetric difference is small against its bits
    /// (short texts, very similar ones); also identical sketches.
    Odd,
    /// The MinHash bins, beyond.
    MinHash,
}

/// Calls `each` with the XOR of `a` and `b` (of one length) read as little-endian 64-bit
/// words, a short last word padded with zero bytes in both, so that a sketch part is
/// compared with a few `popcnt`s (wasm's `i64.popcnt`) instead of a loop over its bytes.
/// `each` answers whether to go on.
#[inline(always)]
fn xor_words(a: &[u8], b: &[u8], mut each: impl FnMut(u64) -> bool) {
    let (mut wa, mut wb) = (a.chunks_exact(8), b.chunks_exact(8));
    for (x, y) in (&mut wa).zip(&mut wb) {
        let word = |c: &[u8]| u64::from_le_bytes(c.try_into().expect("8 bytes"));
        if !each(word(x) ^ word(y)) {
            return;
        }
    }
    let (ra, rb) = (wa.remainder(), wb.remainder());
    if !ra.is_empty() {
        let padded = |r: &[u8]| {
            let mut w = [0u8; 8];
            w[..r.len()].copy_from_slice(r);
            u64::from_le_bytes(w)
        };
        each(padded(ra) ^ padded(rb));
    }
}

/// The number of 4-bit bins of `x` that are not 0: in the XOR of two MinHash parts, the
/// bins that differ.
#[inline(always)]
fn nonzero_nibbles(x: u64) -> u32 {
    let any = x | x >> 1;
    let any = any | any >> 2;
    (any & 0x1111_1111_1111_1111).count_ones()
}

/// The MinHash bins that differ between two payloads, counted until more than `most`
/// differ (then some number above `most`).
fn differing_bins(a: &[u8], b: &[u8], most: usize) -> usize {
    let (ma, mb) = (&a[a.len() / 2..], &b[b.len() / 2..]);
    let mut differ = 0;
    xor_words(ma, mb, |x| {
        differ += nonzero_nibbles(x) as usize;
        differ <= most
    });
    differ
}

/// The odd-sketch part of a payload.
fn odd_part(p: &[u8]) -> &[u8] {
    &p[4..p.len() / 2]
}

/// The bits set in the XOR of two payloads' odd sketches (`z`).
fn odd_xor_bits(a: &[u8], b: &[u8]) -> u32 {
    let mut z = 0u32;
    xor_words(odd_part(a), odd_part(b), |x| {
        z += x.count_ones();
        true
    });
    z
}

/// `1 − 2z/m` for `z` bits set of an odd sketch's `m`.
fn ratio_of(z: u32, m: f64) -> f64 {
    1.0 - 2.0 * z as f64 / m
}

/// `1 − 2z/m` of two odd sketches (`z` bits of their XOR set, `m` bits) and `m`, from the
/// sketches' payloads.
fn odd_ratio(a: &[u8], b: &[u8]) -> (f64, f64) {
    let m = (odd_part(a).len() * 8) as f64;
    (ratio_of(odd_xor_bits(a, b), m), m)
}

/// Which estimator answers [`estimate_jaccard`] for two sketches of one scheme.
pub fn estimator(a: &Sketch, b: &Sketch) -> Estimator {
    if a.bytes == b.bytes || odd_ratio(&a.bytes, &b.bytes).0 > ODD_LIMIT {
        Estimator::Odd
    } else {
        Estimator::MinHash
    }
}

/// [`estimate_jaccard`] for sketches known to share a scheme.
pub(crate) fn estimate(a: &Sketch, b: &Sketch) -> f64 {
    estimate_payloads(&a.bytes, b.bytes.as_ref())
}

/// The size of the symmetric difference that `1 − 2z/m` = `r` of an odd sketch of `m`
/// bits tells.
fn odd_delta(r: f64, m: f64) -> f64 {
    -(m / 2.0) * ln(r)
}

/// The odd sketch's estimate, for a symmetric difference of `delta` ([`odd_delta`]).
fn odd_estimate(a: &[u8], b: &[u8], delta: f64) -> f64 {
    let shingles = |p: &[u8]| f64::from(u32::from_le_bytes(p[..4].try_into().expect("4 bytes")));
    let total = shingles(a) + shingles(b);
    ((total - delta) / (total + delta)).clamp(0.0, 1.0)
}

/// The MinHash part's estimate from `equal` bins of `bins`: it grows with `equal` (each
/// step rounds a function that grows with it), which [`EstimateFloor`] relies on.
fn minhash_estimate(equal: usize, bins: usize) -> f64 {
    let equal = equal as f64 / bins as f64;
    ((equal - 1.0 / 16.0) / (15.0 / 16.0)).clamp(0.0, 1.0)
}

/// [`estimate`] of two sketches given by their payloads ([`Sketch::payload`]) of one
/// scheme: for sketches kept as rows of one buffer ([`SketchRows`]).
pub(crate) fn estimate_payloads(a: &[u8], b: &[u8]) -> f64 {
    if a == b {
        return 1.0;
    }
    let (r, m) = odd_ratio(a, b);
    if r > ODD_LIMIT {
        return odd_estimate(a, b, odd_delta(r, m));
    }
    // Two 4-bit MinHash bins a byte, in the payload's second half.
    let bins = a.len();
    minhash_estimate(bins - differing_bins(a, b, bins), bins)
}

/// A floor for the estimates of sketches of one scheme, tested pair by pair: the band
/// join lists tens of millions of pairs at a million documents and keeps a tenth, so the
/// MinHash bins of a pair stop being counted once too many differ to reach the floor, and
/// the odd sketch's symmetric difference is looked up by `z` instead of taking a logarithm.
#[derive(Clone, Debug)]
pub(crate) struct EstimateFloor {
    floor: f64,
    /// The scheme's payload length, for which `most_differ` holds.
    size: usize,
    /// The most MinHash bins that may differ for the MinHash estimate to reach `floor`;
    /// `None` when no number of equal bins reaches it.
    most_differ: Option<usize>,
    /// `odd_delta` of each `z` for which the odd sketch answers (`1 − 2z/m` above
    /// [`ODD_LIMIT`]), from 0: the same values, without a logarithm a pair.
    deltas: Vec<f64>,
    /// The odd sketch's bits.
    m: f64,
}

impl EstimateFloor {
    /// The floor `floor` (any number: a NaN is reached by no estimate) for sketches of `scheme`.
    pub(crate) fn new(floor: f64, scheme: SketchScheme) -> EstimateFloor {
        let bins = scheme.bins();
        // The fewest equal bins whose estimate reaches the floor, found by computing each
        // estimate as `estimate_payloads` does, so the f64 rounding decides as it does there.
        let fewest = (0..=bins).find(|&equal| minhash_estimate(equal, bins) >= floor);
        let m = scheme.odd_bits() as f64;
        let deltas = (0..=scheme.odd_bits() as u32)
            .map(|z| ratio_of(z, m))
            .take_while(|&r| r > ODD_LIMIT)
            .map(|r| odd_delta(r, m))
            .collect();
        EstimateFloor { floor, size: scheme.size(), most_differ: fewest.map(|e| bins - e), deltas, m }
    }

    /// The estimate of two payloads of the floor's scheme when it reaches the floor: the
    /// same as `estimate_payloads(a, b) >= floor`, to the bit.
    pub(crate) fn reaching(&self, a: &[u8], b: &[u8]) -> Option<f64> {
        if a.len() != self.size || b.len() != self.size {
            let e = estimate_payloads(a, b);
            return (e >= self.floor).then_some(e);
        }
        let z = odd_xor_bits(a, b);
        // Equal payloads have equal odd sketches.
        if z == 0 && a == b {
            return (1.0 >= self.floor).then_some(1.0);
        }
        let r = ratio_of(z, self.m);
        if r > ODD_LIMIT {
            // The table holds every `z` for which `r` is above the limit.
            let delta = self.deltas[z as usize];
            let e = odd_estimate(a, b, delta);
            return (e >= self.floor).then_some(e);
        }
        let most = self.most_differ?;
        let (bins, differ) = (a.len(), differing_bins(a, b, most));
        (differ <= most).then(|| minhash_estimate(bins - differ, bins))
    }
}

#[cfg(test)]
mod tests;
