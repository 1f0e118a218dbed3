//! Fields to and from bytes: the bounds-checked [`Reader`] every decoder reads through,
//! the [`Writer`] every encoder writes with, and the integer encodings they share.
//!
//! - Fixed-width integers are little-endian: `u8`, `u32`, `u64`.
//! - `varint` is LEB128: 7 bits per byte, low group first, high bit = "more follows", at
//!   most 10 bytes for a `u64`. The reader accepts only the shortest form, so every value
//!   has one encoding and a re-encode is byte-identical.
//! - `zigzag` maps signed to unsigned, `0, -1, 1, -2, …` to `0, 1, 2, 3, …`, so small
//!   deltas of either sign make short varints.
//! - A *section* is a `u64` length followed by that many bytes.
//! - A *u32 string* is a `u32` byte length followed by that many bytes of UTF-8.
//!
//! Every [`Reader`] error is an [`Error::Corrupt`] that names the file kind, the field and
//! its absolute offset in the input.

use crate::error::{Error, Result};
use crate::snapshot::Kind;

/// Reads fields off a byte slice; every error carries the absolute offset (`base` +
/// position), so a reader over a payload or a section still reports offsets in the file.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    base: usize,
    what: &'static str,
}

impl<'a> Reader<'a> {
    /// A reader over `bytes`, which start at offset `base` of a file of kind `what` (a
    /// name for messages, [`Kind::what`]).
    pub(crate) fn new(bytes: &'a [u8], base: usize, what: &'static str) -> Self {
        Reader { bytes, pos: 0, base, what }
    }

    /// A reader over the payload of an envelope ([`open`](super::open) already checked it):
    /// offsets start at [`HEADER_LEN`](super::HEADER_LEN).
    pub(crate) fn payload(payload: &'a [u8], kind: Kind) -> Self {
        Reader::new(payload, super::HEADER_LEN, kind.what())
    }

    /// The file kind's name, for messages.
    pub(crate) fn what(&self) -> &'static str {
        self.what
    }

    /// The absolute offset of the next byte.
    pub(crate) fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// A [`Error::Corrupt`] at the current offset.
    pub(crate) fn err(&self, reason: impl Into<String>) -> Error {
        self.err_at(self.offset(), reason)
    }

    /// A [`Error::Corrupt`] at the absolute offset `at` (an offset saved before a field).
    pub(crate) fn err_at(&self, at: usize, reason: impl Into<String>) -> Error {
        Error::corrupt(self.what, at, reason)
    }

    /// Bytes not read yet.
    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// The next `n` bytes.
    pub(crate) fn take(&mut self, n: usize, field: &str) -> Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(self.err(format!("{field} needs {n} bytes but only {} are left", self.remaining())));
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn array<const N: usize>(&mut self, field: &str) -> Result<[u8; N]> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N, field)?);
        Ok(a)
    }

    pub(crate) fn u8(&mut self, field: &str) -> Result<u8> {
        Ok(self.take(1, field)?[0])
    }

    pub(crate) fn u32(&mut self, field: &str) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array(field)?))
    }

    pub(crate) fn u64(&mut self, field: &str) -> Result<u64> {
        Ok(u64::from_le_bytes(self.array(field)?))
    }

    /// A byte that must be 0 (`false`) or 1 (`true`); `field` names it in full, e.g.
    /// `"html flag"`.
    pub(crate) fn flag(&mut self, field: &str) -> Result<bool> {
        let at = self.offset();
        match self.u8(field)? {
            0 => Ok(false),
            1 => Ok(true),
            v => Err(self.err_at(at, format!("{field} {v} is neither 0 nor 1"))),
        }
    }

    /// A LEB128 varint in its shortest form.
    pub(crate) fn varint(&mut self, field: &str) -> Result<u64> {
        let start = self.offset();
        let mut v = 0u64;
        for i in 0..10 {
            let b = self.u8(field)?;
            if i == 9 && b > 1 {
                return Err(self.err_at(start, format!("{field}: varint overflows 64 bits")));
            }
            v |= u64::from(b & 0x7F) << (7 * i);
            if b & 0x80 == 0 {
                if b == 0 && i > 0 {
                    return Err(self.err_at(start, format!("{field}: varint is not in its shortest form")));
                }
                return Ok(v);
            }
        }
        Err(self.err_at(start, format!("{field}: varint longer than 10 bytes")))
    }

    /// A `u64` length field followed by that many bytes, checked against what is left.
    /// Returns the absolute offset of the section's first byte, and the bytes.
    pub(crate) fn section(&mut self, field: &str) -> Result<(usize, &'a [u8])> {
        let at = self.offset();
        let len = self.u64(field)?;
        if len > self.remaining() as u64 {
            return Err(
                self.err_at(at, format!("{field} claims {len} bytes but only {} are left", self.remaining()))
            );
        }
        let start = self.offset();
        Ok((start, self.take(len as usize, field)?))
    }

    /// A `u64` count of items that take at least `each` bytes apiece (at least 1), refused
    /// when they cannot fit in what is left, so a caller may allocate for the count.
    pub(crate) fn count(&mut self, field: &str, each: usize) -> Result<usize> {
        let at = self.offset();
        let n = self.u64(field)?;
        let fits = n.checked_mul(each.max(1) as u64).is_some_and(|need| need <= self.remaining() as u64);
        if !fits {
            return Err(self.err_at(
                at,
                format!(
                    "{field} says {n}, but that many entries of at least {each} bytes cannot fit in the {} bytes left",
                    self.remaining()
                ),
            ));
        }
        Ok(n as usize)
    }

    /// A `u32` byte length followed by that many bytes of UTF-8.
    pub(crate) fn str_u32(&mut self, field: &str) -> Result<String> {
        let n = self.u32(field)? as usize;
        let at = self.offset();
        let b = self.take(n, field)?;
        String::from_utf8(b.to_vec()).map_err(|_| self.err_at(at, format!("the {field} is not UTF-8")))
    }

    /// Refuses bytes left after the last field (`after` names it, e.g. `"the aliases"`).
    pub(crate) fn finish(&self, after: &str) -> Result<()> {
        if self.remaining() != 0 {
            return Err(self.err(format!("{} unexpected bytes after {after}", self.remaining())));
        }
        Ok(())
    }
}

/// Appends fields to a byte vector, in the encodings the [`Reader`] reads.
#[derive(Debug, Default)]
pub(crate) struct Writer {
    out: Vec<u8>,
}

impl Writer {
    pub(crate) fn new() -> Self {
        Writer::default()
    }

    pub(crate) fn with_capacity(n: usize) -> Self {
        Writer { out: Vec::with_capacity(n) }
    }

    pub(crate) fn u8(&mut self, v: u8) {
        self.out.push(v);
    }

    /// A byte 0 or 1.
    pub(crate) fn flag(&mut self, v: bool) {
        self.out.push(u8::from(v));
    }

    pub(crate) fn u32(&mut self, v: u32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }

    pub(crate) fn u64(&mut self, v: u64) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }

    /// A LEB128 varint, shortest form.
    pub(crate) fn varint(&mut self, v: u64) {
        put_varint(&mut self.out, v);
    }

    /// Raw bytes, no length.
    pub(crate) fn bytes(&mut self, b: &[u8]) {
        self.out.extend_from_slice(b);
    }

    /// A `u64` length, then the bytes.
    pub(crate) fn section(&mut self, b: &[u8]) {
        self.u64(b.len() as u64);
        self.bytes(b);
    }

    /// A `u32` byte length, then the UTF-8 bytes.
    pub(crate) fn str_u32(&mut self, s: &str) {
        self.u32(s.len() as u32);
        self.bytes(s.as_bytes());
    }

    /// The bytes written so far.
    pub(crate) fn into_bytes(self) -> Vec<u8> {
        self.out
    }

    /// The bytes written so far as the payload of an envelope of `kind`.
    pub(crate) fn seal(self, kind: Kind) -> Vec<u8> {
        super::seal(kind, &self.out)
    }

    /// [`seal`](Self::seal) as format version `version`.
    pub(crate) fn seal_version(self, kind: Kind, version: u32) -> Vec<u8> {
        super::envelope::seal_version(kind, version, &self.out)
    }
}

/// Appends `v` as a LEB128 varint, shortest form (for encoders that write into a plain
/// vector, like [`SnapshotId::encode_column`](super::SnapshotId::encode_column)).
pub(crate) fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Signed to unsigned, small magnitudes to small values: `0, -1, 1, -2` to `0, 1, 2, 3`.
pub(crate) fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// The inverse of [`zigzag`].
pub(crate) fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn varint_bytes(v: u64) -> Vec<u8> {
        let mut w = Writer::new();
        w.varint(v);
        w.into_bytes()
    }

    #[test]
    fn varints_round_trip_in_their_shortest_form() {
        let mut values = vec![0u64, 1, 127, 128, 255, 300, 16_383, 16_384, u64::MAX, u64::MAX - 1];
        values.extend((0..64).map(|i| 1u64 << i));
        values.extend((1..64).map(|i| (1u64 << i) - 1));
        for v in values {
            let b = varint_bytes(v);
            // The shortest form: ceil(bits / 7) bytes, at least one.
            let bits = 64 - v.leading_zeros();
            assert_eq!(b.len() as u32, bits.div_ceil(7).max(1), "{v}");
            let mut r = Reader::new(&b, 100, "test");
            assert_eq!(r.varint("v").unwrap(), v);
            r.finish("v").unwrap();
        }
    }

    #[test]
    fn malformed_varints_are_refused_at_their_offset() {
        for (bytes, reason) in [
            (vec![0x80, 0x00], "shortest form"),
            (vec![0xFF; 9].into_iter().chain([0x02]).collect(), "overflows"),
            (vec![0xFF; 11], "overflows"),
            (vec![0x80], "needs 1 bytes"),
        ] {
            let mut r = Reader::new(&bytes, 7, "test");
            let e = r.varint("v").unwrap_err();
            assert!(e.to_string().contains(reason), "{bytes:02x?}: {e}");
            assert!(matches!(e, Error::Corrupt { offset, .. } if offset == 7 || offset == 8), "{e:?}");
        }
    }

    #[test]
    fn zigzag_is_a_bijection_that_keeps_small_values_small() {
        for (v, z) in
            [(0i64, 0u64), (-1, 1), (1, 2), (-2, 3), (2, 4), (i64::MAX, u64::MAX - 1), (i64::MIN, u64::MAX)]
        {
            assert_eq!(zigzag(v), z);
            assert_eq!(unzigzag(z), v);
        }
    }

    #[test]
    fn fields_round_trip_and_lying_lengths_are_refused() {
        let mut w = Writer::new();
        w.u8(7);
        w.flag(true);
        w.u32(0xDEAD_BEEF);
        w.u64(u64::MAX - 3);
        w.section(b"abc");
        w.str_u32("héllo");
        w.u64(2);
        w.bytes(b"xy");
        let b = w.into_bytes();
        let mut r = Reader::new(&b, 20, "test");
        assert_eq!(r.u8("a").unwrap(), 7);
        assert!(r.flag("b").unwrap());
        assert_eq!(r.u32("c").unwrap(), 0xDEAD_BEEF);
        assert_eq!(r.u64("d").unwrap(), u64::MAX - 3);
        assert_eq!(r.section("e").unwrap(), (20 + 1 + 1 + 4 + 8 + 8, &b"abc"[..]));
        assert_eq!(r.str_u32("f").unwrap(), "héllo");
        // Two entries of 2 bytes do not fit in the 2 bytes left; two of 1 byte do.
        let mut again = Reader::new(&b[b.len() - 10..], 0, "test");
        assert!(again.count("g", 2).unwrap_err().to_string().contains("cannot fit"));
        assert_eq!(r.count("g", 1).unwrap(), 2);
        assert_eq!(r.take(2, "h").unwrap(), b"xy");
        r.finish("h").unwrap();
        // A flag of 2, a section longer than the input, a string that is not UTF-8.
        assert!(Reader::new(&[2], 0, "test").flag("x flag").unwrap_err().to_string().contains("x flag 2"));
        let mut long = Writer::new();
        long.u64(9);
        long.bytes(b"short");
        assert!(Reader::new(&long.into_bytes(), 0, "test").section("s").is_err());
        let mut bad = Writer::new();
        bad.u32(1);
        bad.u8(0xFF);
        assert!(Reader::new(&bad.into_bytes(), 0, "test").str_u32("s").is_err());
        assert!(Reader::new(b"x", 0, "test").finish("nothing").is_err());
    }
}
