//! The feature hash, `sh64` version 1: a 64-bit hash of a feature's UTF-8 bytes.
//!
//! Stored fingerprints depend on every bit of this function, so it is frozen: the golden
//! vectors in `tests/golden.rs` pin it on native and on wasm, and any change to it must
//! come as a new [`HASH_VERSION`] (a new fingerprint format), never in place.
//!
//! # The algorithm
//!
//! With `P = 0x9E3779B97F4A7C15`, `SEED = 0x736832363476_3031`, and `len` the byte length:
//!
//! ```text
//! h = SEED ^ (len * P)                          (wrapping u64 arithmetic throughout)
//! for each whole 8-byte chunk c (little-endian):
//!     h = rotate_left((h ^ c) * P, 31)
//! w = the 0..7 remaining bytes, little-endian, zero-padded to 8 bytes (0 if none)
//! return mix(h ^ w)
//!
//! mix(z): z ^= z >> 30; z *= 0xBF58476D1CE4E5B9;
//!         z ^= z >> 27; z *= 0x94D049BB133111EB;
//!         z ^= z >> 31; return z
//! ```
//!
//! `mix` is the SplitMix64 finaliser (Stafford's "Mix13"): a bijection with full
//! avalanche, so every output bit is near 50/50 and independent of the others (checked by
//! the statistical tests in `tests/hash_quality.rs`). Features of at most 8 bytes, which
//! is nearly all of them (an ASCII 4-gram is 4 bytes, a CJK 2-gram 6), cost one or two
//! 64-bit multiplies plus the finaliser, and no 128-bit products, so wasm runs it at
//! native speed. Two different features of the same length up to 8 bytes never collide,
//! because every step is a bijection of the input word.

/// Version of the feature hash. Part of every fingerprint scheme's identity.
pub const HASH_VERSION: u32 = 1;

const P: u64 = 0x9E37_79B9_7F4A_7C15;
const SEED: u64 = 0x7368_3634_7630_3031; // "sh64v001"
const M1: u64 = 0xBF58_476D_1CE4_E5B9;
const M2: u64 = 0x94D0_49BB_1331_11EB;

/// The SplitMix64 finaliser: a bijection on `u64` with full avalanche.
#[inline(always)]
pub const fn mix(mut z: u64) -> u64 {
    z ^= z >> 30;
    z = z.wrapping_mul(M1);
    z ^= z >> 27;
    z = z.wrapping_mul(M2);
    z ^ (z >> 31)
}

/// Hashes a feature's bytes. This is the function the fingerprint scheme is defined by.
///
/// ```
/// use simhash_wasm::__private::hash::hash_bytes;
/// assert_eq!(hash_bytes(b"the "), hash_bytes("the ".as_bytes()));
/// assert_ne!(hash_bytes(b"the "), hash_bytes(b"the"));
/// assert_eq!(format!("{:016x}", hash_bytes(b"")), "be3194f25caef870");
/// ```
#[inline]
pub fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h = SEED ^ (bytes.len() as u64).wrapping_mul(P);
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let c = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        h = (h ^ c).wrapping_mul(P).rotate_left(31);
    }
    let mut w = 0u64;
    for (i, &b) in chunks.remainder().iter().enumerate() {
        w |= u64::from(b) << (8 * i);
    }
    mix(h ^ w)
}

/// Hashes a string feature: [`hash_bytes`] of its UTF-8 bytes.
#[inline]
pub fn hash_str(s: &str) -> u64 {
    hash_bytes(s.as_bytes())
}

/// [`hash_bytes`] of `buf[start..start + len]`, read as whole little-endian words straight
/// from `buf`: the last, partial word is loaded whole and masked, so there is no byte loop.
/// Near the end of `buf`, where that word would run past it, it falls back to
/// `hash_bytes`. Equal to `hash_bytes` on every input (unit test below).
#[inline(always)]
pub(crate) fn hash_at(buf: &[u8], start: usize, len: usize) -> u64 {
    let whole_end = start + (len & !7);
    if whole_end + 8 > buf.len() {
        return hash_bytes(&buf[start..start + len]);
    }
    let mut h = SEED ^ (len as u64).wrapping_mul(P);
    let mut p = start;
    while p < whole_end {
        h = (h ^ word_at(buf, p)).wrapping_mul(P).rotate_left(31);
        p += 8;
    }
    let rest = len & 7;
    // The low `rest` bytes of the next word (none when rest == 0: 1 << 0 minus 1 is 0).
    let mask = (1u64 << (8 * rest)).wrapping_sub(1);
    mix(h ^ (word_at(buf, p) & mask))
}

/// The little-endian word at `buf[p..p + 8]` (inlined by force: the small browser build's
/// opt-level "z" would otherwise call it, twice per feature).
#[inline(always)]
fn word_at(buf: &[u8], p: usize) -> u64 {
    let s = &buf[p..p + 8];
    u64::from_le_bytes([s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]])
}

/// Number of differing bits between two fingerprints.
///
/// ```
/// assert_eq!(simhash_wasm::hamming(0b1011, 0b0110), 3);
/// ```
#[inline]
pub const fn hamming(a: u64, b: u64) -> u32 {
    (a ^ b).count_ones()
}

/// `1 - hamming(a, b) / 64`: 1.0 for equal fingerprints, 0.0 for complementary ones.
///
/// ```
/// assert_eq!(simhash_wasm::similarity(0, 0xF), 1.0 - 4.0 / 64.0);
/// ```
#[inline]
pub fn similarity(a: u64, b: u64) -> f64 {
    1.0 - f64::from(hamming(a, b)) / 64.0
}

/// A fingerprint as 16 lower-case hex digits, most significant first.
///
/// ```
/// assert_eq!(simhash_wasm::to_hex(0xABC), "0000000000000abc");
/// ```
pub fn to_hex(fp: u64) -> String {
    format!("{fp:016x}")
}

/// Parses 1 to 16 hex digits, with or without a `0x` prefix.
///
/// ```
/// use simhash_wasm::{from_hex, to_hex};
/// assert_eq!(from_hex("0x0000000000000ABC").unwrap(), 0xABC);
/// assert_eq!(from_hex(&to_hex(u64::MAX)).unwrap(), u64::MAX);
/// assert!(from_hex("xyz").is_err());
/// ```
pub fn from_hex(hex: &str) -> crate::Result<u64> {
    let t = hex.trim();
    let t = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")).unwrap_or(t);
    if t.is_empty() || t.len() > 16 || !t.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(crate::Error::option(
            "hex",
            crate::error::quoted(hex),
            "1 to 16 hex digits, with or without 0x",
        ));
    }
    u64::from_str_radix(t, 16)
        .map_err(|_| crate::Error::option("hex", crate::error::quoted(hex), "1 to 16 hex digits"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_path_equals_reference_for_every_length_and_offset() {
        let text =
            "héllo wörld, 你好世界 and more ascii text here, long enough for 40-byte features!!".as_bytes();
        for padding in [0, 3, 8] {
            // Garbage after the feature must be masked away; no padding exercises the fallback.
            let mut buf = text.to_vec();
            buf.extend(std::iter::repeat_n(0xAB, padding));
            for start in 0..text.len() {
                for len in 0..=40.min(text.len() - start) {
                    assert_eq!(
                        hash_at(&buf, start, len),
                        hash_bytes(&text[start..start + len]),
                        "start {start} len {len} padding {padding}"
                    );
                }
            }
        }
    }
}
