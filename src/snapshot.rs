//! Persistence: a versioned, checksummed envelope, the compact sorted fingerprint set,
//! index snapshots and IDF tables.
//!
//! Everything this crate writes to bytes is one [envelope](#the-envelope) around a
//! payload whose layout depends on the envelope's kind. Decoders never trust a length
//! field: each one is checked against the bytes that are really left *before* anything is
//! allocated, every structure is validated on load, and a damaged, truncated or forged
//! input comes back as [`Error::Corrupt`] (with the byte offset and what was wrong),
//! [`Error::UnsupportedVersion`] or [`Error::SchemeMismatch`], never as a panic.
//!
//! All integers are **little-endian**. `varint` is LEB128 (7 bits per byte, low group
//! first, high bit = "more follows", at most 10 bytes for a `u64`, and the shortest form
//! only). `zigzag` maps `0, -1, 1, -2, …` to `0, 1, 2, 3, …`.
//!
//! # The envelope
//!
//! | offset | size | field |
//! | --- | --- | --- |
//! | 0 | 4 | magic `b"SHWS"` (simhash-wasm storage) |
//! | 4 | 4 | kind tag: `b"FSET"` fingerprint set, `b"INDX"` index snapshot, `b"IDF\0"` IDF table |
//! | 8 | 4 | format version, `u32` (this build writes and reads [`FORMAT_VERSION`] = 1) |
//! | 12 | 8 | payload length `L`, `u64` |
//! | 20 | `L` | payload |
//! | 20 + `L` | 4 | CRC-32C (Castagnoli, reflected, init and final xor `0xFFFFFFFF`, the iSCSI / ext4 CRC; see [`crc32c`]) of bytes `0 .. 20 + L` |
//!
//! The envelope itself is frozen for all versions, so an old build can always tell a
//! newer file ("upgrade") from a damaged one. Checks, in order: length ≥ 24, magic, kind,
//! version (0 or newer than [`FORMAT_VERSION`] is refused), `L == total − 24` exactly,
//! checksum. The checksum detects every burst error up to 32 bits and every flip of up
//! to 5 bits in a message of this size; the validation below catches the rest as best it
//! can, and nothing ever panics.
//!
//! # The compact fingerprint set (`FSET` payload, also embedded in `INDX` and `IDF`)
//!
//! The scheme of the design notes ("Compact storage of a sorted fingerprint set"):
//! sort; keep the first fingerprint whole; for each next one `x` after `p`, let
//! `n = 63 − leading_zeros(x ^ p)`, the highest bit where they differ (in `p` it is 0, in
//! `x` it is 1; the bits above are equal). Write the symbol `n` Huffman-coded, then the
//! `n` bits of `x` *below* position `n`, low bit first. A duplicate (`x == p`) is the
//! symbol 64, "repeat", with no bits after it. The Huffman code is built from the symbol
//! counts over the whole set (deterministically: ties go to the lower symbol), limited to
//! [`MAX_CODE_LEN`] bits so decoding is one table lookup, and stored as canonical code
//! lengths. The stream is cut in blocks of `B` fingerprints; each block's first one is
//! kept whole in the block table with the block's bit offset, so a lookup
//! binary-searches the table and decodes one block.
//!
//! | offset | size | field |
//! | --- | --- | --- |
//! | 0 | 8 | `N`, the number of fingerprints (duplicates count), `u64` |
//! | 8 | 4 | `B`, fingerprints per block, `u32`, 1 ..= 65 536 |
//! | 12 | 65 | code length of symbol 0 ..= 64, one byte each, 0 = unused, else 1 ..= [`MAX_CODE_LEN`] |
//! | 77 | 8 | `S`, the length of the bit stream in bits, `u64` |
//! | 85 | 16·`nb` | block table, `nb = ceil(N / B)` entries of: first fingerprint `u64`, bit offset of the block's 2nd fingerprint in the stream `u64` |
//! | 85 + 16·`nb` | `ceil(S / 8)` | the bit stream |
//!
//! The bit stream is read low bit first: stream bit `i` is bit `i % 8` of byte `i / 8`.
//! Unused bits of the last byte are 0. Canonical codes: symbols sorted by (length,
//! symbol) get consecutive code values, first bit (most significant code bit) first.
//! Block `j` holds `min(B, N − j·B)` fingerprints: its first from the table, the others
//! coded in stream bits `offset[j] .. offset[j+1]` (`offset[nb] = S`), which they must
//! fill exactly. The whole set must be in ascending order, including across blocks.
//!
//! For `N` uniformly random fingerprints, `n` clusters just under `64 − log2 N`. Measured
//! at `N = 10^6` (`cargo bench --bench snapshot`): the low bits average 44.18 (`64 −
//! log2 N` is 44.07) and the Huffman code of `n` 3.30 bits (its entropy is 3.25), so the
//! stream costs 47.48 bits per fingerprint; the block table adds `(128 − ~47.5) / B`
//! (0.63 at the default `B = 128`), for 48.11 bits in all, against the floor
//! `64 − log2 N + 1.44 ≈ 45.51`. The gap is in the symbol: `n` carries 3.25 bits, where
//! an ideal gap code needs 1.44, because the bits below `n` are stored verbatim although
//! they are not uniform (the carry that flipped bit `n` leaves them small).
//!
//! # Index snapshots (`INDX` payload)
//!
//! | size | field |
//! | --- | --- |
//! | 4 | `k`, `u32` |
//! | 1 | strategy: 0 = multi-table layout, 1 = probing ([`Layout::probe`]) |
//! | 4 | `b`, number of blocks, `u32` (1 ..= 64) |
//! | 4·`b` | block widths, most significant block first, `u32` each |
//! | 1 | scheme present: 0 = none (raw fingerprints), 1 = the 12 bytes below follow |
//! | 4 | feature hash version ([`crate::hash::HASH_VERSION`]) |
//! | 1 | tokenizer: 0 = chars, 1 = words |
//! | 4 | n-gram size, `u32` |
//! | 1 | weighting: 0 = binary, 1 = tf, 2 = sublinear |
//! | 1 | punctuation: 0 = keep, 1 = drop, 2 = collapse |
//! | 1 | nfkc: 0 / 1 |
//! | 1 | lowercase: 0 / 1 |
//! | 1 | id type: 0 = `u64`, 1 = string, 2 = `u32` |
//! | 8 | `I`, length of the id column in bytes, `u64` |
//! | `I` | id column (below) |
//! | 8 | `F`, length of the fingerprint set in bytes, `u64` |
//! | `F` | the fingerprints, ascending, as a compact set (above) |
//!
//! Entries are stored sorted by (fingerprint, id); id `i` of the column belongs to
//! fingerprint `i` of the set, and the column holds exactly `N` ids. Numeric ids (`u64`,
//! `u32`): each is
//! `zigzag(id − previous id)` (wrapping, previous of the first = 0) as a varint. String
//! ids, front-coded: varint length of the prefix shared with the previous id (in bytes, on
//! a UTF-8 boundary), varint length of the rest, the rest's UTF-8 bytes. On load the
//! index is rebuilt from (id, fingerprint) pairs with the stored layout, so only the first
//! table's order is stored; the others are recomputed.
//!
//! # IDF tables (`IDF\0` payload)
//!
//! | size | field |
//! | --- | --- |
//! | 8 | documents learnt from, `u64` |
//! | 8 | `F`, length of the feature set in bytes, `u64` |
//! | `F` | the distinct feature hashes, strictly ascending, as a compact set |
//! | rest | one varint document frequency (≤ `u32::MAX`) per feature, in the same order; must end exactly at the payload's end |

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::error::{Error, Result};
use crate::fingerprint::{Options, Tokenizer};
use crate::index::{Index, IndexId, Layout};
use crate::normalize::{NormalizeOptions, Punctuation};
use crate::weight::{IdfTable, Weighting};

/// The magic number that starts every envelope.
pub const MAGIC: [u8; 4] = *b"SHWS";

/// The format version this build writes, and the newest it reads.
pub const FORMAT_VERSION: u32 = 1;

/// The longest Huffman code the compact set uses, in bits.
pub const MAX_CODE_LEN: u32 = 12;

/// The number of fingerprints per block [`CompactSet::from_sorted`] uses.
pub const DEFAULT_BLOCK_SIZE: u32 = 128;

/// The largest block size the format allows.
pub const MAX_BLOCK_SIZE: u32 = 65_536;

/// The Huffman symbol that stands for "same fingerprint as the previous one".
pub const REPEAT_SYMBOL: u8 = 64;

const SYMBOLS: usize = 65;
const HEADER: usize = 20;
const TRAILER: usize = 4;
const SET_HEADER: usize = 8 + 4 + SYMBOLS + 8;

// ---------------------------------------------------------------------------------------
// CRC-32C and the envelope
// ---------------------------------------------------------------------------------------

const fn crc_table() -> [u32; 256] {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 { (c >> 1) ^ 0x82F6_3B78 } else { c >> 1 };
            k += 1;
        }
        t[i] = c;
        i += 1;
    }
    t
}

static CRC_TABLE: [u32; 256] = crc_table();

/// CRC-32C (Castagnoli polynomial `0x1EDC6F41`, reflected, init and final xor
/// `0xFFFFFFFF`): the checksum of every envelope.
///
/// ```
/// use simhash_wasm::snapshot::crc32c;
/// assert_eq!(crc32c(b"123456789"), 0xE306_9283); // the standard check value
/// assert_eq!(crc32c(b""), 0);
/// ```
pub fn crc32c(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in bytes {
        c = CRC_TABLE[((c ^ u32::from(b)) & 0xFF) as usize] ^ (c >> 8);
    }
    !c
}

/// What an envelope holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kind {
    /// A [`CompactSet`] on its own (`b"FSET"`).
    FingerprintSet,
    /// An index snapshot (`b"INDX"`).
    Index,
    /// An [`IdfTable`] (`b"IDF\0"`).
    Idf,
    /// A [`ContentSeen`](crate::seen::ContentSeen): an index snapshot plus counts (`b"SEEN"`).
    Seen,
}

impl Kind {
    /// The 4-byte tag stored at offset 4.
    pub fn tag(self) -> [u8; 4] {
        match self {
            Kind::FingerprintSet => *b"FSET",
            Kind::Index => *b"INDX",
            Kind::Idf => *b"IDF\0",
            Kind::Seen => *b"SEEN",
        }
    }

    /// A name for messages: `"fingerprint set"`, `"snapshot"` or `"IDF table"`.
    pub fn what(self) -> &'static str {
        match self {
            Kind::FingerprintSet => "fingerprint set",
            Kind::Index => "snapshot",
            Kind::Idf => "IDF table",
            Kind::Seen => "content-seen snapshot",
        }
    }

    fn from_tag(tag: &[u8]) -> Option<Kind> {
        [Kind::FingerprintSet, Kind::Index, Kind::Idf, Kind::Seen].into_iter().find(|k| k.tag() == tag)
    }
}

/// Wraps a payload in the envelope: magic, kind, [`FORMAT_VERSION`], length, payload,
/// CRC-32C.
pub fn seal(kind: Kind, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER + payload.len() + TRAILER);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&kind.tag());
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(payload);
    let crc = crc32c(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// Checks an envelope of the given kind and returns its version and payload (which
/// starts at byte 20 of `bytes`).
pub fn open(kind: Kind, bytes: &[u8]) -> Result<(u32, &[u8])> {
    let what = kind.what();
    if bytes.len() < HEADER + TRAILER {
        return Err(Error::corrupt(
            what,
            bytes.len(),
            format!(
                "the input has {} bytes, fewer than the {} of an empty envelope (is it empty or cut short?)",
                bytes.len(),
                HEADER + TRAILER
            ),
        ));
    }
    if bytes[0..4] != MAGIC {
        return Err(Error::corrupt(
            what,
            0,
            format!(
                "the magic number is {:02x?}, not {:02x?} (\"SHWS\"): this is not a simhash-wasm file",
                &bytes[0..4],
                MAGIC
            ),
        ));
    }
    if bytes[4..8] != kind.tag() {
        let found = match Kind::from_tag(&bytes[4..8]) {
            Some(k) => {
                format!("a {} ({})", k.what(), crate::error::quoted(&String::from_utf8_lossy(&k.tag())))
            }
            None => format!("an unknown kind {:02x?}", &bytes[4..8]),
        };
        return Err(Error::corrupt(
            what,
            4,
            format!("this file holds {found}, not a {what}; load it with the matching function"),
        ));
    }
    let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
    if version > FORMAT_VERSION {
        return Err(Error::UnsupportedVersion { what, found: version, supported: FORMAT_VERSION });
    }
    if version == 0 {
        return Err(Error::corrupt(what, 8, "format version 0 does not exist"));
    }
    let mut len = [0u8; 8];
    len.copy_from_slice(&bytes[12..20]);
    let len = u64::from_le_bytes(len);
    let actual = (bytes.len() - HEADER - TRAILER) as u64;
    if len != actual {
        return Err(Error::corrupt(
            what,
            12,
            format!("the payload length field says {len} bytes, but {actual} are present (truncated or extended?)"),
        ));
    }
    let body_end = bytes.len() - TRAILER;
    let stored =
        u32::from_le_bytes([bytes[body_end], bytes[body_end + 1], bytes[body_end + 2], bytes[body_end + 3]]);
    let computed = crc32c(&bytes[..body_end]);
    if stored != computed {
        return Err(Error::corrupt(
            what,
            body_end,
            format!("checksum mismatch (stored CRC-32C {stored:08x}, computed {computed:08x})"),
        ));
    }
    Ok((version, &bytes[HEADER..body_end]))
}

// ---------------------------------------------------------------------------------------
// Byte reader / writer helpers
// ---------------------------------------------------------------------------------------

/// Reads fields off a byte slice; every error carries the absolute offset.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    base: usize,
    what: &'static str,
}

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8], base: usize, what: &'static str) -> Self {
        Reader { bytes, pos: 0, base, what }
    }

    fn offset(&self) -> usize {
        self.base + self.pos
    }

    fn err(&self, reason: impl Into<String>) -> Error {
        Error::corrupt(self.what, self.offset(), reason)
    }

    fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    fn take(&mut self, n: usize, field: &str) -> Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(self.err(format!("{field} needs {n} bytes but only {} are left", self.remaining())));
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn u8(&mut self, field: &str) -> Result<u8> {
        Ok(self.take(1, field)?[0])
    }

    fn u32(&mut self, field: &str) -> Result<u32> {
        let b = self.take(4, field)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self, field: &str) -> Result<u64> {
        let b = self.take(8, field)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }

    fn varint(&mut self, field: &str) -> Result<u64> {
        let start = self.offset();
        let mut v = 0u64;
        for i in 0..10 {
            let b = self.u8(field)?;
            if i == 9 && b > 1 {
                return Err(Error::corrupt(self.what, start, format!("{field}: varint overflows 64 bits")));
            }
            v |= u64::from(b & 0x7F) << (7 * i);
            if b & 0x80 == 0 {
                if b == 0 && i > 0 {
                    return Err(Error::corrupt(
                        self.what,
                        start,
                        format!("{field}: varint is not in its shortest form"),
                    ));
                }
                return Ok(v);
            }
        }
        Err(Error::corrupt(self.what, start, format!("{field}: varint longer than 10 bytes")))
    }

    /// A `u64` length field followed by that many bytes, checked against what is left.
    fn section(&mut self, field: &str) -> Result<(usize, &'a [u8])> {
        let at = self.offset();
        let len = self.u64(field)?;
        if len > self.remaining() as u64 {
            return Err(Error::corrupt(
                self.what,
                at,
                format!("{field} claims {len} bytes but only {} are left", self.remaining()),
            ));
        }
        let start = self.offset();
        Ok((start, self.take(len as usize, field)?))
    }

    fn finish(&self, field: &str) -> Result<()> {
        if self.remaining() != 0 {
            return Err(self.err(format!("{} unexpected bytes after {field}", self.remaining())));
        }
        Ok(())
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

// ---------------------------------------------------------------------------------------
// Bit stream
// ---------------------------------------------------------------------------------------

struct BitWriter {
    out: Vec<u8>,
    acc: u64,
    nacc: u32,
    bits: u64,
}

impl BitWriter {
    fn new() -> Self {
        BitWriter { out: Vec::new(), acc: 0, nacc: 0, bits: 0 }
    }

    /// Writes the low `n <= 32` bits of `v`.
    fn put32(&mut self, v: u64, n: u32) {
        debug_assert!(n <= 32);
        if n == 0 {
            return;
        }
        self.acc |= (v & ((1u64 << n) - 1)) << self.nacc;
        self.nacc += n;
        self.bits += u64::from(n);
        while self.nacc >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.nacc -= 8;
        }
    }

    /// Writes the low `n <= 64` bits of `v`, low bit first.
    fn put(&mut self, v: u64, n: u32) {
        if n > 32 {
            self.put32(v, 32);
            self.put32(v >> 32, n - 32);
        } else {
            self.put32(v, n);
        }
    }

    fn finish(mut self) -> (Vec<u8>, u64) {
        if self.nacc > 0 {
            self.out.push(self.acc as u8);
        }
        (self.out, self.bits)
    }
}

/// `n <= 56` bits of `stream` from bit `pos`; bits past the end read as 0.
#[inline]
fn peek(stream: &[u8], pos: u64, n: u32) -> u64 {
    let byte = pos >> 3;
    let mut buf = [0u8; 8];
    if byte + 8 <= stream.len() as u64 {
        let b = byte as usize;
        buf.copy_from_slice(&stream[b..b + 8]);
    } else if byte < stream.len() as u64 {
        let rest = &stream[byte as usize..];
        buf[..rest.len()].copy_from_slice(rest);
    }
    (u64::from_le_bytes(buf) >> (pos & 7)) & low_mask(n)
}

#[inline]
fn low_mask(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// `n <= 64` bits from `pos`.
#[inline]
fn read_bits(stream: &[u8], pos: u64, n: u32) -> u64 {
    if n > 32 {
        peek(stream, pos, 32) | (peek(stream, pos + 32, n - 32) << 32)
    } else {
        peek(stream, pos, n)
    }
}

// ---------------------------------------------------------------------------------------
// Huffman code
// ---------------------------------------------------------------------------------------

/// Code lengths for the counts, at most [`MAX_CODE_LEN`], deterministic.
fn code_lengths(counts: &[u64; SYMBOLS]) -> [u8; SYMBOLS] {
    let mut c = *counts;
    loop {
        let lens = huffman_lengths(&c);
        if lens.iter().all(|&l| u32::from(l) <= MAX_CODE_LEN) {
            return lens;
        }
        // Flatten the distribution and retry; terminates because all-ones counts over
        // 65 symbols give lengths of at most 7.
        for x in c.iter_mut() {
            if *x > 0 {
                *x = (*x / 2).max(1);
            }
        }
    }
}

fn huffman_lengths(counts: &[u64; SYMBOLS]) -> [u8; SYMBOLS] {
    let mut lens = [0u8; SYMBOLS];
    let used: Vec<usize> = (0..SYMBOLS).filter(|&s| counts[s] > 0).collect();
    match used.len() {
        0 => return lens,
        1 => {
            lens[used[0]] = 1;
            return lens;
        }
        _ => {}
    }
    // Nodes 0..65 are leaves, then internal nodes; ties go to the lower node number.
    let mut parent: Vec<usize> = vec![usize::MAX; SYMBOLS];
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> = used.iter().map(|&s| Reverse((counts[s], s))).collect();
    while heap.len() > 1 {
        let (Some(Reverse((ca, a))), Some(Reverse((cb, b)))) = (heap.pop(), heap.pop()) else {
            break;
        };
        let id = parent.len();
        parent.push(usize::MAX);
        parent[a] = id;
        parent[b] = id;
        heap.push(Reverse((ca.saturating_add(cb), id)));
    }
    for &s in &used {
        let (mut d, mut x) = (0u32, s);
        while parent[x] != usize::MAX {
            x = parent[x];
            d += 1;
        }
        lens[s] = d.min(255) as u8;
    }
    lens
}

/// Canonical codes (MSB-first values) for the lengths.
fn canonical_codes(lens: &[u8; SYMBOLS]) -> [u32; SYMBOLS] {
    let mut order: Vec<usize> = (0..SYMBOLS).filter(|&s| lens[s] > 0).collect();
    crate::sort::sort_by_key(&mut order, |&s| (lens[s], s));
    let mut codes = [0u32; SYMBOLS];
    let mut code = 0u32;
    let mut prev_len = 0u8;
    for (i, &s) in order.iter().enumerate() {
        if i > 0 {
            code += 1;
        }
        code <<= lens[s] - prev_len;
        prev_len = lens[s];
        codes[s] = code;
    }
    codes
}

fn reverse_bits(v: u32, n: u8) -> u32 {
    if n == 0 {
        0
    } else {
        v.reverse_bits() >> (32 - u32::from(n))
    }
}

/// Decoding table indexed by the next [`MAX_CODE_LEN`] stream bits: `symbol << 4 | len`,
/// 0 for bit patterns no code starts.
fn decode_table(lens: &[u8; SYMBOLS]) -> Vec<u16> {
    let codes = canonical_codes(lens);
    let size = 1usize << MAX_CODE_LEN;
    let mut table = vec![0u16; size];
    for s in 0..SYMBOLS {
        let l = lens[s];
        if l == 0 {
            continue;
        }
        let rev = reverse_bits(codes[s], l) as usize;
        let entry = ((s as u16) << 4) | u16::from(l);
        let mut i = rev;
        while i < size {
            table[i] = entry;
            i += 1 << l;
        }
    }
    table
}

fn symbol_of(prev: u64, x: u64) -> u8 {
    let d = prev ^ x;
    if d == 0 {
        REPEAT_SYMBOL
    } else {
        (63 - d.leading_zeros()) as u8
    }
}

// ---------------------------------------------------------------------------------------
// The compact set
// ---------------------------------------------------------------------------------------

/// A sorted multiset of 64-bit fingerprints kept compressed (delta + Huffman, about
/// `64 − log2 N + 4` bits each for random fingerprints) and queried in place: [`contains`](Self::contains) and
/// [`contains_within`](Self::contains_within) decode one or a few blocks, never the whole
/// set. See the [module docs](self) for the format.
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
    n: u64,
    block_size: u32,
    lens: [u8; SYMBOLS],
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
            && self.block_size == other.block_size
            && self.lens == other.lens
            && self.firsts == other.firsts
            && self.offsets == other.offsets
            && self.stream == other.stream
    }
}

impl Default for CompactSet {
    fn default() -> Self {
        CompactSet::encode(&[], DEFAULT_BLOCK_SIZE)
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
    pub fn with_block_size(fingerprints: &[u64], block_size: u32) -> Result<CompactSet> {
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
        Ok(CompactSet::encode(fingerprints, block_size))
    }

    /// Encodes sorted fingerprints with a valid block size (checked by the callers).
    fn encode(fingerprints: &[u64], block_size: u32) -> CompactSet {
        let b = block_size.clamp(1, MAX_BLOCK_SIZE) as usize;
        let mut counts = [0u64; SYMBOLS];
        for (i, w) in fingerprints.windows(2).enumerate() {
            if (i + 1) % b != 0 {
                counts[symbol_of(w[0], w[1]) as usize] += 1;
            }
        }
        let lens = code_lengths(&counts);
        let codes = canonical_codes(&lens);
        let rcodes: Vec<u32> = (0..SYMBOLS).map(|s| reverse_bits(codes[s], lens[s])).collect();
        let mut w = BitWriter::new();
        let mut firsts = Vec::with_capacity(fingerprints.len().div_ceil(b));
        let mut offsets = Vec::with_capacity(firsts.capacity() + 1);
        for (i, &x) in fingerprints.iter().enumerate() {
            if i % b == 0 {
                firsts.push(x);
                offsets.push(w.bits);
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
            block_size: b as u32,
            lens,
            counts,
            firsts,
            offsets,
            stream,
            table: decode_table(&lens),
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
        SET_HEADER + 16 * self.firsts.len() + self.stream.len()
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
    /// differing bit is `n`", [`REPEAT_SYMBOL`] (64) means a duplicate. The code is written
    /// first bit first, e.g. `"0110"`.
    pub fn huffman_table(&self) -> Vec<(u8, u64, String)> {
        let codes = canonical_codes(&self.lens);
        let mut rows: Vec<(u8, u64, String)> = (0..SYMBOLS)
            .filter(|&s| self.lens[s] > 0)
            .map(|s| {
                let l = usize::from(self.lens[s]);
                (s as u8, self.counts[s], format!("{:0l$b}", codes[s]))
            })
            .collect();
        crate::sort::sort_by(&mut rows, |x, y| (x.2.len(), &x.2).cmp(&(y.2.len(), &y.2)));
        rows
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
            let e = self.table[peek(&self.stream, pos, MAX_CODE_LEN) as usize];
            if e == 0 {
                return Err((pos, "bits that start no Huffman code"));
            }
            let (s, l) = (u32::from(e >> 4), u64::from(e & 15));
            pos += l;
            if s != u32::from(REPEAT_SYMBOL) {
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

    /// Appends the encoded set (the `FSET` payload, no envelope).
    fn write_body(&self, out: &mut Vec<u8>) {
        out.reserve(self.encoded_len());
        out.extend_from_slice(&self.n.to_le_bytes());
        out.extend_from_slice(&self.block_size.to_le_bytes());
        out.extend_from_slice(&self.lens);
        let bits = self.offsets.last().copied().unwrap_or(0);
        out.extend_from_slice(&bits.to_le_bytes());
        for (f, o) in self.firsts.iter().zip(&self.offsets) {
            out.extend_from_slice(&f.to_le_bytes());
            out.extend_from_slice(&o.to_le_bytes());
        }
        out.extend_from_slice(&self.stream);
    }

    /// The set in its own envelope (kind `FSET`).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::new();
        self.write_body(&mut body);
        seal(Kind::FingerprintSet, &body)
    }

    /// Loads a set written by [`to_bytes`](Self::to_bytes). Checks the envelope, parses
    /// the header and the block table, copies the bit stream and validates it in one
    /// decoding pass (so queries never meet malformed data): `O(bytes)` time and memory
    /// about the input's size, with no per-fingerprint allocation.
    pub fn from_bytes(bytes: &[u8]) -> Result<CompactSet> {
        let (_, payload) = open(Kind::FingerprintSet, bytes)?;
        CompactSet::read_body(payload, HEADER, Kind::FingerprintSet.what())
    }

    /// Parses and validates a set body that is the whole of `bytes` (at absolute offset
    /// `base` of the input, for messages).
    fn read_body(bytes: &[u8], base: usize, what: &'static str) -> Result<CompactSet> {
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
        let at = r.offset();
        let mut lens = [0u8; SYMBOLS];
        lens.copy_from_slice(r.take(SYMBOLS, "code lengths")?);
        let mut kraft = 0u64;
        for (s, &l) in lens.iter().enumerate() {
            if u32::from(l) > MAX_CODE_LEN {
                return Err(Error::corrupt(
                    what,
                    at + s,
                    format!("code length {l} of symbol {s} exceeds {MAX_CODE_LEN}"),
                ));
            }
            if l > 0 {
                kraft += 1u64 << (MAX_CODE_LEN - u32::from(l));
            }
        }
        if kraft > 1u64 << MAX_CODE_LEN {
            return Err(Error::corrupt(what, at, "the code lengths do not form a prefix code"));
        }
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
        let raw = r.take(table_bytes as usize, "block table")?;
        let stream_bytes = r.remaining() as u64;
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
        for (j, e) in raw.chunks_exact(16).enumerate() {
            let mut a = [0u8; 8];
            a.copy_from_slice(&e[..8]);
            let f = u64::from_le_bytes(a);
            a.copy_from_slice(&e[8..]);
            let o = u64::from_le_bytes(a);
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
        if coded > 0 && kraft == 0 {
            return Err(Error::corrupt(what, at, "the set has coded fingerprints but no Huffman code"));
        }
        let mut set = CompactSet {
            n,
            block_size,
            lens,
            counts: [0; SYMBOLS],
            firsts,
            offsets,
            stream,
            table: decode_table(&lens),
        };
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

// ---------------------------------------------------------------------------------------
// IDF tables
// ---------------------------------------------------------------------------------------

impl IdfTable {
    /// The table in an envelope of kind `IDF` (see the [`snapshot`](crate::snapshot)
    /// module for the layout). Deterministic: equal tables give equal bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        // Hashes are distinct (map keys), so sorting by hash alone is the full order.
        let mut entries: Vec<(u64, u32)> = self.df.iter().map(|(&h, &d)| (h, d)).collect();
        crate::sort::sort_by_u64_key(&mut entries, |e| e.0, |_, _| std::cmp::Ordering::Equal);
        let hashes: Vec<u64> = entries.iter().map(|e| e.0).collect();
        let set = CompactSet::encode(&hashes, DEFAULT_BLOCK_SIZE);
        let mut p = Vec::new();
        p.extend_from_slice(&self.docs.to_le_bytes());
        let mut body = Vec::new();
        set.write_body(&mut body);
        p.extend_from_slice(&(body.len() as u64).to_le_bytes());
        p.extend_from_slice(&body);
        for &(_, d) in &entries {
            put_varint(&mut p, u64::from(d));
        }
        seal(Kind::Idf, &p)
    }

    /// Loads a table written by [`to_bytes`](Self::to_bytes).
    pub fn from_bytes(bytes: &[u8]) -> Result<IdfTable> {
        let what = Kind::Idf.what();
        let (_, payload) = open(Kind::Idf, bytes)?;
        let mut r = Reader::new(payload, HEADER, what);
        let docs = r.u64("document count")?;
        let (at, body) = r.section("feature set")?;
        let set = CompactSet::read_body(body, at, what)?;
        // Each df takes at least one byte: refuse a count the rest cannot hold before
        // allocating for it.
        if set.n > r.remaining() as u64 {
            return Err(r.err(format!(
                "{} features need as many df values, but only {} bytes are left",
                set.n,
                r.remaining()
            )));
        }
        let mut df = std::collections::HashMap::with_capacity(set.len());
        let mut prev: Option<u64> = None;
        for h in set.iter() {
            if prev == Some(h) {
                return Err(Error::corrupt(what, at, format!("feature hash {h:#018x} appears twice")));
            }
            prev = Some(h);
            let v = r.varint("document frequency")?;
            let d = u32::try_from(v)
                .map_err(|_| r.err(format!("document frequency {v} exceeds {}", u32::MAX)))?;
            df.insert(h, d);
        }
        r.finish("the document frequencies")?;
        Ok(IdfTable { docs, df })
    }
}

// ---------------------------------------------------------------------------------------
// Scheme identity and id columns (the index snapshot's parts that need no index)
// ---------------------------------------------------------------------------------------

/// Writes the scheme field of an index snapshot.
fn write_scheme(out: &mut Vec<u8>, scheme: Option<&Options>) {
    let Some(o) = scheme else {
        out.push(0);
        return;
    };
    out.push(1);
    out.extend_from_slice(&crate::hash::HASH_VERSION.to_le_bytes());
    let (mode, n) = match o.tokenizer {
        Tokenizer::Chars(n) => (0u8, n),
        Tokenizer::Words(n) => (1u8, n),
    };
    out.push(mode);
    out.extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
    out.push(match o.weighting {
        Weighting::Binary => 0,
        Weighting::Tf => 1,
        Weighting::Sublinear => 2,
    });
    out.push(match o.normalize.punctuation {
        Punctuation::Keep => 0,
        Punctuation::Drop => 1,
        Punctuation::Collapse => 2,
    });
    out.push(u8::from(o.normalize.nfkc));
    out.push(u8::from(o.normalize.lowercase));
}

/// Reads the scheme field. A hash version other than this build's is refused with
/// [`Error::SchemeMismatch`]: such fingerprints are not comparable with new ones.
fn read_scheme(r: &mut Reader<'_>) -> Result<Option<Options>> {
    let at = r.offset();
    match r.u8("scheme flag")? {
        0 => return Ok(None),
        1 => {}
        t => return Err(Error::corrupt(r.what, at, format!("scheme flag {t} is neither 0 nor 1"))),
    }
    let hv = r.u32("hash version")?;
    if hv != crate::hash::HASH_VERSION {
        return Err(Error::SchemeMismatch {
            field: "hash version",
            found: format!("sh64v{hv}"),
            expected: format!("sh64v{} (this build's feature hash)", crate::hash::HASH_VERSION),
        });
    }
    let at = r.offset();
    let mode = r.u8("tokenizer")?;
    let n = r.u32("n-gram size")? as usize;
    let tokenizer = match mode {
        0 => Tokenizer::Chars(n),
        1 => Tokenizer::Words(n),
        m => {
            return Err(Error::corrupt(
                r.what,
                at,
                format!("tokenizer {m} is neither 0 (chars) nor 1 (words)"),
            ))
        }
    };
    let at = r.offset();
    let weighting = match r.u8("weighting")? {
        0 => Weighting::Binary,
        1 => Weighting::Tf,
        2 => Weighting::Sublinear,
        w => return Err(Error::corrupt(r.what, at, format!("weighting {w} is not 0, 1 or 2"))),
    };
    let at = r.offset();
    let punctuation = match r.u8("punctuation")? {
        0 => Punctuation::Keep,
        1 => Punctuation::Drop,
        2 => Punctuation::Collapse,
        p => return Err(Error::corrupt(r.what, at, format!("punctuation {p} is not 0, 1 or 2"))),
    };
    let mut flag = |name: &str| -> Result<bool> {
        let at = r.offset();
        match r.u8(name)? {
            0 => Ok(false),
            1 => Ok(true),
            v => Err(Error::corrupt(r.what, at, format!("{name} flag {v} is neither 0 nor 1"))),
        }
    };
    let nfkc = flag("nfkc")?;
    let lowercase = flag("lowercase")?;
    let o = Options { tokenizer, weighting, normalize: NormalizeOptions { punctuation, nfkc, lowercase } };
    o.validate().map_err(|e| Error::corrupt(r.what, at, format!("the stored scheme is invalid: {e}")))?;
    Ok(Some(o))
}

/// Compares a snapshot's scheme with the one the caller expects, naming the first field
/// that differs.
pub fn check_scheme(found: Option<&Options>, expected: Option<&Options>) -> Result<()> {
    let describe =
        |o: Option<&Options>| o.map_or_else(|| "none (raw fingerprints)".to_string(), |o| o.describe());
    let (f, e) = match (found, expected) {
        (None, None) => return Ok(()),
        (Some(f), Some(e)) => (f, e),
        _ => {
            return Err(Error::SchemeMismatch {
                field: "fingerprint scheme",
                found: describe(found),
                expected: describe(expected),
            })
        }
    };
    let mismatch = |field: &'static str, a: String, b: String| {
        Err(Error::SchemeMismatch { field, found: a, expected: b })
    };
    if f.tokenizer.mode() != e.tokenizer.mode() {
        return mismatch("tokenizer", f.tokenizer.mode().into(), e.tokenizer.mode().into());
    }
    if f.tokenizer.n() != e.tokenizer.n() {
        return mismatch("ngram", f.tokenizer.n().to_string(), e.tokenizer.n().to_string());
    }
    if f.weighting != e.weighting {
        return mismatch("weighting", f.weighting.name().into(), e.weighting.name().into());
    }
    if f.normalize.punctuation != e.normalize.punctuation {
        return mismatch(
            "punctuation",
            f.normalize.punctuation.name().into(),
            e.normalize.punctuation.name().into(),
        );
    }
    if f.normalize.nfkc != e.normalize.nfkc {
        return mismatch("nfkc", f.normalize.nfkc.to_string(), e.normalize.nfkc.to_string());
    }
    if f.normalize.lowercase != e.normalize.lowercase {
        return mismatch("lowercase", f.normalize.lowercase.to_string(), e.normalize.lowercase.to_string());
    }
    Ok(())
}

/// Ids that can be stored in an index snapshot: `u64` (zigzag delta varints) and
/// `String` (front-coded).
pub trait SnapshotId: Sized {
    /// The id type byte of the snapshot: 0 for `u64`, 1 for strings.
    const TYPE_TAG: u8;
    /// Appends the id column for `ids` (in the snapshot's entry order).
    fn encode_column(ids: &[&Self], out: &mut Vec<u8>);
    /// Reads exactly `count` ids from a column that must be consumed exactly. `base` is
    /// the column's absolute offset, for messages.
    fn decode_column(bytes: &[u8], count: u64, base: usize, what: &'static str) -> Result<Vec<Self>>;
}

impl SnapshotId for u64 {
    const TYPE_TAG: u8 = 0;

    fn encode_column(ids: &[&u64], out: &mut Vec<u8>) {
        let mut prev = 0u64;
        for &&id in ids {
            put_varint(out, zigzag(id.wrapping_sub(prev) as i64));
            prev = id;
        }
    }

    fn decode_column(bytes: &[u8], count: u64, base: usize, what: &'static str) -> Result<Vec<u64>> {
        let mut r = Reader::new(bytes, base, what);
        if count > bytes.len() as u64 {
            return Err(r.err(format!("{count} ids cannot fit in a {}-byte id column", bytes.len())));
        }
        let mut out = Vec::with_capacity(count as usize);
        let mut prev = 0u64;
        for _ in 0..count {
            let d = unzigzag(r.varint("id")?);
            prev = prev.wrapping_add(d as u64);
            out.push(prev);
        }
        r.finish("the id column")?;
        Ok(out)
    }
}

impl SnapshotId for u32 {
    const TYPE_TAG: u8 = 2;

    fn encode_column(ids: &[&u32], out: &mut Vec<u8>) {
        let wide: Vec<u64> = ids.iter().map(|&&i| u64::from(i)).collect();
        u64::encode_column(&wide.iter().collect::<Vec<_>>(), out);
    }

    fn decode_column(bytes: &[u8], count: u64, base: usize, what: &'static str) -> Result<Vec<u32>> {
        let wide = u64::decode_column(bytes, count, base, what)?;
        wide.into_iter()
            .map(|v| {
                u32::try_from(v)
                    .map_err(|_| Error::corrupt(what, base, format!("id {v} does not fit a u32 id")))
            })
            .collect()
    }
}

impl SnapshotId for String {
    const TYPE_TAG: u8 = 1;

    fn encode_column(ids: &[&String], out: &mut Vec<u8>) {
        let mut prev: &str = "";
        for &id in ids {
            let mut shared = prev.bytes().zip(id.bytes()).take_while(|(a, b)| a == b).count();
            while !id.is_char_boundary(shared) {
                shared -= 1;
            }
            put_varint(out, shared as u64);
            put_varint(out, (id.len() - shared) as u64);
            out.extend_from_slice(&id.as_bytes()[shared..]);
            prev = id;
        }
    }

    fn decode_column(bytes: &[u8], count: u64, base: usize, what: &'static str) -> Result<Vec<String>> {
        let mut r = Reader::new(bytes, base, what);
        if count > (bytes.len() / 2) as u64 {
            return Err(r.err(format!("{count} string ids cannot fit in a {}-byte id column", bytes.len())));
        }
        let mut out: Vec<String> = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let at = r.offset();
            let shared = r.varint("shared prefix length")?;
            let prev = out.last().map_or("", |s| s.as_str());
            if shared > prev.len() as u64 || !prev.is_char_boundary(shared as usize) {
                return Err(Error::corrupt(
                    what,
                    at,
                    format!("shared prefix of {shared} bytes does not fit the previous id"),
                ));
            }
            let rest_len = r.varint("id length")?;
            if rest_len > r.remaining() as u64 {
                return Err(
                    r.err(format!("an id claims {rest_len} bytes but only {} are left", r.remaining()))
                );
            }
            let at = r.offset();
            let rest = r.take(rest_len as usize, "id")?;
            let mut id = Vec::with_capacity(shared as usize + rest.len());
            id.extend_from_slice(&prev.as_bytes()[..shared as usize]);
            id.extend_from_slice(rest);
            let id =
                String::from_utf8(id).map_err(|_| Error::corrupt(what, at, "an id is not valid UTF-8"))?;
            out.push(id);
        }
        r.finish("the id column")?;
        Ok(out)
    }
}

/// The decoded parts of an index snapshot, before the index is rebuilt from them.
#[derive(Clone, Debug, PartialEq)]
pub struct SnapshotParts<I> {
    /// The layout's `k`.
    pub k: u32,
    /// `true` for the probing strategy ([`Layout::probe`]).
    pub probe: bool,
    /// The layout's block widths.
    pub widths: Vec<u32>,
    /// The fingerprint scheme, or `None` for raw fingerprints.
    pub scheme: Option<Options>,
    /// `(id, fingerprint)` pairs, sorted by fingerprint then id.
    pub entries: Vec<(I, u64)>,
}

/// Encodes an index snapshot from its parts (entries in any order; they are sorted by
/// (fingerprint, id) here). Used by `Index::to_bytes`.
pub fn encode_index<I: SnapshotId + Ord>(
    k: u32,
    probe: bool,
    widths: &[u32],
    scheme: Option<&Options>,
    entries: impl IntoIterator<Item = (I, u64)>,
) -> Vec<u8> {
    let mut entries: Vec<(u64, I)> = entries.into_iter().map(|(i, f)| (f, i)).collect();
    crate::sort::sort_by_u64_key(&mut entries, |e| e.0, |a, b| a.1.cmp(&b.1));
    encode_sorted_index(k, probe, widths, scheme, &entries.iter().map(|(f, i)| (i, *f)).collect::<Vec<_>>())
}

/// [`encode_index`] for borrowed entries already sorted by (fingerprint, id).
pub fn encode_sorted_index<I: SnapshotId>(
    k: u32,
    probe: bool,
    widths: &[u32],
    scheme: Option<&Options>,
    entries: &[(&I, u64)],
) -> Vec<u8> {
    let mut p = Vec::new();
    p.extend_from_slice(&k.to_le_bytes());
    p.push(u8::from(probe));
    p.extend_from_slice(&(widths.len() as u32).to_le_bytes());
    for w in widths {
        p.extend_from_slice(&w.to_le_bytes());
    }
    write_scheme(&mut p, scheme);
    p.push(I::TYPE_TAG);
    let ids: Vec<&I> = entries.iter().map(|e| e.0).collect();
    let mut col = Vec::new();
    I::encode_column(&ids, &mut col);
    p.extend_from_slice(&(col.len() as u64).to_le_bytes());
    p.extend_from_slice(&col);
    let fps: Vec<u64> = entries.iter().map(|e| e.1).collect();
    let set = CompactSet::encode(&fps, DEFAULT_BLOCK_SIZE);
    let mut body = Vec::new();
    set.write_body(&mut body);
    p.extend_from_slice(&(body.len() as u64).to_le_bytes());
    p.extend_from_slice(&body);
    seal(Kind::Index, &p)
}

/// Decodes an index snapshot into its parts (no index is built). Checks the envelope,
/// every field, and that the ids are of type `I`.
pub fn decode_index<I: SnapshotId>(bytes: &[u8]) -> Result<SnapshotParts<I>> {
    let what = Kind::Index.what();
    let (_, payload) = open(Kind::Index, bytes)?;
    let mut r = Reader::new(payload, HEADER, what);
    let k = r.u32("k")?;
    let at = r.offset();
    let probe = match r.u8("strategy")? {
        0 => false,
        1 => true,
        v => {
            return Err(Error::corrupt(what, at, format!("strategy {v} is neither 0 (tables) nor 1 (probe)")))
        }
    };
    let at = r.offset();
    let t = r.u32("block count")?;
    if !(1..=64).contains(&t) {
        return Err(Error::corrupt(what, at, format!("{t} blocks; a layout has 1 to 64")));
    }
    let mut widths = Vec::with_capacity(t as usize);
    for _ in 0..t {
        widths.push(r.u32("block width")?);
    }
    let scheme = read_scheme(&mut r)?;
    let tag = r.u8("id type")?;
    if tag != I::TYPE_TAG {
        let name = |t: u8| match t {
            0 => "numeric (u64)".to_string(),
            1 => "string".to_string(),
            2 => "numeric (u32)".to_string(),
            x => format!("unknown ({x})"),
        };
        return Err(Error::SchemeMismatch {
            field: "id type",
            found: name(tag),
            expected: format!("{} ids; load it as an index with {} ids", name(I::TYPE_TAG), name(tag)),
        });
    }
    let (id_at, col) = r.section("id column")?;
    let (set_at, body) = r.section("fingerprint set")?;
    r.finish("the fingerprint set")?;
    let set = CompactSet::read_body(body, set_at, what)?;
    let ids = I::decode_column(col, set.n, id_at, what)?;
    let entries = ids.into_iter().zip(set.iter()).collect();
    Ok(SnapshotParts { k, probe, widths, scheme, entries })
}

// ---------------------------------------------------------------------------------------
// Index snapshots
// ---------------------------------------------------------------------------------------

impl<I: IndexId + SnapshotId> Index<I> {
    /// A compact snapshot of the index (an `INDX` envelope, see the
    /// [`snapshot`](crate::snapshot) module): the layout, the fingerprint scheme, the live
    /// entries sorted by fingerprint (fingerprints as a [`CompactSet`], ids delta- or
    /// front-coded) and a checksum. Deterministic: equal contents give equal bytes,
    /// whatever the insertion order, removals or segments.
    ///
    /// ```
    /// use simhash_wasm::{Index, Layout, Options};
    /// let mut index = Index::build(Layout::default_for_k(3)?, vec![(1u64, 0xFFu64), (2, 0xF0F0)])?;
    /// index.set_scheme(Some(Options::default()));
    /// let bytes = index.to_bytes();
    /// let back = Index::<u64>::from_bytes_expecting(&bytes, Some(&Options::default()))?;
    /// assert_eq!(back.get(&2), Some(0xF0F0));
    /// assert!(Index::<u64>::from_bytes_expecting(&bytes, None).is_err());
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut entries: Vec<(u64, &I)> = self.iter().map(|(i, f)| (f, i)).collect();
        crate::sort::sort_by_u64_key(&mut entries, |e| e.0, |a, b| a.1.cmp(b.1));
        let entries: Vec<(&I, u64)> = entries.into_iter().map(|(f, i)| (i, f)).collect();
        let layout = self.layout();
        encode_sorted_index(layout.k(), layout.is_probe(), layout.widths(), self.scheme().as_ref(), &entries)
    }

    /// Loads a snapshot written by [`to_bytes`](Self::to_bytes), whatever its scheme
    /// (see [`scheme`](Self::scheme)): decodes it and rebuilds every table with the
    /// stored layout. Use [`from_bytes_expecting`](Self::from_bytes_expecting) to refuse
    /// snapshots made with other fingerprint settings.
    pub fn from_bytes(bytes: &[u8]) -> Result<Index<I>> {
        Index::from_parts(decode_index::<I>(bytes)?)
    }

    /// [`from_bytes`](Self::from_bytes), refusing with [`Error::SchemeMismatch`] a
    /// snapshot whose fingerprint scheme is not `expected` (`None`: raw fingerprints, no
    /// scheme recorded). The scheme is checked before the index is rebuilt.
    pub fn from_bytes_expecting(bytes: &[u8], expected: Option<&Options>) -> Result<Index<I>> {
        let parts = decode_index::<I>(bytes)?;
        check_scheme(parts.scheme.as_ref(), expected)?;
        Index::from_parts(parts)
    }

    /// Rebuilds an index from decoded snapshot parts.
    fn from_parts(parts: SnapshotParts<I>) -> Result<Index<I>> {
        let what = Kind::Index.what();
        let layout = if parts.probe {
            match parts.widths.as_slice() {
                [64] => Layout::probe(parts.k),
                w => {
                    return Err(Error::corrupt(
                        what,
                        HEADER,
                        format!("a probing layout has widths [64], not {w:?}"),
                    ))
                }
            }
        } else {
            Layout::new(parts.k, &parts.widths)
        }
        .map_err(|e| Error::corrupt(what, HEADER, format!("the stored layout is invalid: {e}")))?;
        let mut index = Index::build(layout, parts.entries).map_err(|e| match e {
            Error::DuplicateId { id } => Error::corrupt(what, HEADER, format!("id {id} is stored twice")),
            e => e,
        })?;
        index.set_scheme(parts.scheme);
        Ok(index)
    }
}

/// The fingerprint scheme recorded in an index snapshot, without decoding the rest
/// (the envelope's checksum is verified).
pub fn peek_scheme(bytes: &[u8]) -> Result<Option<Options>> {
    peek_header(bytes).map(|(scheme, _)| scheme)
}

/// The id type byte of an index snapshot (0: `u64`, 1: `String`, 2: `u32`), without
/// decoding the rest (the envelope's checksum is verified), so a caller can pick the
/// `Index<I>` to load it as.
pub fn peek_id_type(bytes: &[u8]) -> Result<u8> {
    peek_header(bytes).map(|(_, tag)| tag)
}

fn peek_header(bytes: &[u8]) -> Result<(Option<Options>, u8)> {
    let what = Kind::Index.what();
    let (_, payload) = open(Kind::Index, bytes)?;
    let mut r = Reader::new(payload, HEADER, what);
    r.u32("k")?;
    r.u8("strategy")?;
    let at = r.offset();
    let t = r.u32("block count")?;
    if !(1..=64).contains(&t) {
        return Err(Error::corrupt(what, at, format!("{t} blocks; a layout has 1 to 64")));
    }
    r.take(4 * t as usize, "block widths")?;
    let scheme = read_scheme(&mut r)?;
    Ok((scheme, r.u8("id type")?))
}
