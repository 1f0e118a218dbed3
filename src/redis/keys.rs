//! Key names of a namespace, and where each fingerprint goes in the index tables.
//!
//! ## Key names
//!
//! Every key of namespace `NS` is `{NS}:` followed by a short suffix. The braces are a
//! Redis Cluster hash tag: all keys of a namespace live in one hash slot, so one Lua script
//! can read and write all of them atomically (see the [module docs](super) for why).
//!
//! | key | type | what |
//! | --- | --- | --- |
//! | `{NS}:meta` | string | the settings ([`super::meta`]); written once, checked by every script |
//! | `{NS}:n` | string (integer) | number of stored pages |
//! | `{NS}:tT:HHH` | hash | index buckets of table `T` whose key bits start with the hex digits `HHH` ([Tables](#tables)) |
//! | `{NS}:p` | hash | page records by fingerprint ([`super::record`]); only with the URL map |
//! | `{NS}:c` | hash | counts by fingerprint of the pages seen more than once (no field: seen once); only with the URL map |
//! | `{NS}:u` | hash | URL → its stored fingerprint or its cluster's URL, with check ids ([`super::record`]); only with the URL map |
//! | `{NS}:r:ID` | string | without the URL map: the check with id `ID` (8 bytes) stored its page; expires after 10 minutes, the time within which a call repeated after a lost reply still gets its first answer |
//!
//! In sketch mode ([`super::sketch`]) pages are known by *page numbers* (4 bytes, big-endian,
//! from 1, never reused) instead of fingerprints, since two stored pages may share a
//! fingerprint there (their estimate is below the threshold):
//!
//! | key | type | what |
//! | --- | --- | --- |
//! | `{NS}:p` | hash | page number → fingerprint (8 bytes) + page record ([`super::record`]) |
//! | `{NS}:c` | hash | counts by page number (no field: seen once) |
//! | `{NS}:u` | hash | URL → `0x03` + its stored page number, or its cluster's URL |
//! | `{NS}:i` | hash | field `n`: the last page number given out |
//! | `{NS}:tT:HHH` | hash | as below, each record followed by its page's number |
//! | `{NS}:bB:HHH` | hash | MinHash band `B`'s buckets of band records ([Bands](#bands-sketch-mode-store-format-4)) |
//!
//! ## Tables (store format 2)
//!
//! Table `t` of the layout keys on some blocks of the fingerprint (the paper's permuted
//! tables): `B` key bits (16 for the default layout). A *bucket* holds every stored page
//! whose key bits are equal: the concatenation of one fixed-size *record* per page, the
//! fingerprint's other `R = 64 − B` bits packed most significant first into ⌈R / 8⌉ bytes
//! (left-aligned, low padding bits zero).
//!
//! The buckets are spread over small hashes so that Redis keeps each one as a *listpack*
//! (one contiguous allocation, about 3 bytes of overhead per field and value) instead of a
//! hashtable (a 24-byte entry, two allocations and a bucket slot per field, about 50 bytes):
//! the key bits are cut into their high `H` bits, which name the hash
//! (`{NS}:t` + the table number + `:` + `H` bits as ⌈H / 4⌉ lower-case hex digits,
//! right-aligned), and their low `F = min(B, 5)` bits, the field (packed most significant
//! first into ⌈F / 8⌉ bytes, left-aligned), with `H = min(B − F, 12)` (so a huge key
//! never makes more than 4096 hashes a table; the rest goes to the field). With the
//! default layout that is 2,048 hashes a table of at most 32 fields each, well within
//! Redis's default `hash-max-listpack-entries` (128). Why 32 and not 128: a listpack is
//! searched and rewritten whole, and one `HGET` plus `HSET` of a 92-byte bucket costs
//! 3.0 µs in a hash of 128 such fields against 1.8 µs in one of 32 (measured in a
//! `redis-server` script), 5 µs a check over 4 tables, for 0.4 bytes a page of key overhead
//! at 1M pages. A bucket's value must also stay within
//! `hash-max-listpack-value`, whose default (64 bytes, 10 records) is too small from about
//! 300,000 pages on; the README's Redis settings raise it to 512 (85 records; a bucket
//! holds 1M / 65,536 ≈ 15 records on average at 1M pages). A hash that outgrows either
//! limit is converted by Redis to a hashtable: everything still works, only that hash
//! costs more memory (and at such sizes its per-field cost is spread over many records).
//! Field, record and the hash's name together give back the whole fingerprint
//! ([`TableGeometry::join`]).
//!
//! Store format 1 (one hash `{NS}:t` for all tables, field = table byte + key bits) cost
//! about 40 bytes a page at 1M pages against 29 for format 2 (`npm run bench:shared`); a namespace in
//! format 1 is refused ([`super::meta`]).
//!
//! ## The pre-filter (equality tests on nibbles)
//!
//! A stored fingerprint within `k` bits of the query that shares table `t`'s key differs in
//! at most `k` of the record's bits, so at most `k` of the record's 4-bit nibbles differ
//! (each differing bit spoils one nibble). The script keeps a record only when at most `k`
//! of its nibbles differ from the query's: a count of unequal nibbles, each found by byte
//! equality and, for an unequal byte, `byte % 16` and `byte - byte % 16` compared with the
//! query's (integers below 256, exact in doubles). This is an equality test, not a distance
//! (a record passes with up to `4k` differing bits); wasm measures the distances. For the
//! default layout (k = 3, records of 12 nibbles) a random record passes with probability
//! about C(12, 9) / 16^9 ≈ 3 · 10^-9, so a page with no stored page within k almost never
//! gets a candidate, and its check is one call. The script reads a record's bytes with one
//! `string.byte` call and gives up on it at the `k + 1`-th unequal nibble; it needs no
//! per-call tables.
//!
//! Padding bits (a record of `R` bits fills ⌈R / 8⌉ bytes, low bits zero) are equal in
//! every record, so they never count.
//!
//! ## Bands (sketch mode, store format 4)
//!
//! Band `b` of a sketch (`src/sketch/bands.rs`) has a 24-bit key, cut as the tables' keys
//! are: its high 10 bits name the hash (`{NS}:b` + `b` + `:` + 3 lower-case hex digits),
//! the next 6 bits are the field (one byte, 0 to 63), and the low 8 bits start the
//! *band record*, followed by the page's 4-byte number (5 bytes). A field's value is the
//! concatenation of its band records; the pages in it whose record's first byte equals the
//! query's are exactly those whose band `b` has the query's key. 1,024 hashes a band of at
//! most 64 fields (listpacks); at 1M pages a field holds about 15 records (76 bytes,
//! within the README's `hash-max-listpack-value 512` up to about 6M pages). Measured with
//! `redis-server` 7.0.15 at 1M pages of 20 random band keys: 122.9 bytes a page, against
//! 244.6 for store format 3's layout (16,384 hashes a band, a field per 24-bit key holding
//! bare page numbers: a field's ~7 bytes of listpack overhead per 4-byte entry); see
//! `docs/decisions/064-redis-band-records.md`.

use crate::error::{Error, Result};
use crate::index::Layout;

/// Longest namespace accepted, in bytes.
pub const MAX_NAMESPACE_BYTES: usize = 256;

/// Checks a namespace: 1 to [`MAX_NAMESPACE_BYTES`] bytes, no `{` or `}` (they would
/// change the hash tag), no control characters.
pub fn check_namespace(ns: &str) -> Result<()> {
    let bad = |why: &str| {
        Err(Error::option(
            "namespace",
            crate::error::quoted(ns),
            format!(
                "a name of 1 to {MAX_NAMESPACE_BYTES} bytes without braces or control characters ({why})"
            ),
        ))
    };
    if ns.is_empty() {
        return bad("it is empty");
    }
    if ns.len() > MAX_NAMESPACE_BYTES {
        return bad("it is too long");
    }
    if ns.contains(['{', '}']) {
        return bad("braces would change the Redis Cluster hash tag");
    }
    if ns.chars().any(char::is_control) {
        return bad("it has a control character");
    }
    Ok(())
}

/// The keys of a namespace, in the order the scripts take them (`KEYS[1]` …): meta, n, p,
/// c, u, and the prefix `{NS}:t` of the table hashes (no key by that name exists in store
/// format 2; the scripts append each bucket's [`TableGeometry::bucket_key`]).
pub fn key_names(ns: &str) -> Vec<String> {
    ["meta", "n", "p", "c", "u", "t"].iter().map(|s| format!("{{{ns}}}:{s}")).collect()
}

/// The names of the extra keys of a sketch-mode namespace, in the scripts' `KEYS` order
/// after [`key_names`]: `{NS}:i` (the page-number counter) and the prefix `{NS}:b` of the
/// band hashes (no key by that name exists; the scripts append [`band_bucket`]'s name).
pub fn sketch_key_names(ns: &str) -> Vec<String> {
    ["i", "b"].iter().map(|s| format!("{{{ns}}}:{s}")).collect()
}

/// Key bits of a band key that name its hash.
pub const BAND_NAME_BITS: u32 = 10;
/// Key bits of a band key that form its field (one byte).
pub const BAND_FIELD_BITS: u32 = 6;

/// The bucket of band `band` with 24-bit key `key`: the hash's name after the prefix
/// `{NS}:b`, the field, and the band record's first byte (the key's low 8 bits; the page
/// number follows it), see [Bands](self#bands-sketch-mode-store-format-4).
pub fn band_bucket(band: usize, key: u32) -> (Vec<u8>, Vec<u8>, u8) {
    let key = key & 0xff_ffff;
    let name = bucket_name(band, u64::from(key >> (24 - BAND_NAME_BITS)), BAND_NAME_BITS.div_ceil(4));
    let field = vec![(key >> 8) as u8 & ((1 << BAND_FIELD_BITS) - 1)];
    (name, field, key as u8)
}

/// A bucket hash's name after its prefix: `n` (a table or band) in decimal, then `:` and
/// `hi` in `digits` lowercase hex digits, zero-padded (just `n` when `digits` is 0), as
/// `format!("{n}:{hi:0digits$x}")` writes it. Written by hand: `format!` costs about a third
/// of a check's query, which names a bucket a table and a band.
fn bucket_name(n: usize, hi: u64, digits: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity(21 + digits as usize);
    let mut div = 1;
    while n / div >= 10 {
        div *= 10;
    }
    while div > 0 {
        out.push(b'0' + (n / div % 10) as u8);
        div /= 10;
    }
    if digits > 0 {
        out.push(b':');
        for i in (0..digits).rev() {
            out.push(b"0123456789abcdef"[(hi >> (4 * i) & 0xf) as usize]);
        }
    }
    out
}

/// Most tables a layout may have here (the table number is one byte).
pub const MAX_TABLES: usize = 255;

/// Key bits that go to a bucket's field: 2^5 = 32 fields a hash, within Redis's default
/// `hash-max-listpack-entries` (128), and small enough to search and rewrite quickly.
pub const FIELD_BITS: u32 = 5;

/// Most key bits that go to a hash's name (at most 4096 hashes a table).
pub const MAX_NAME_BITS: u32 = 12;

/// How one table cuts a fingerprint into a field and a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableGeometry {
    /// The table's number (0-based), the first byte of its hash fields.
    table: u8,
    /// Bits of the fingerprint that form the key, as a mask.
    key_mask: u64,
    key_bits: u32,
    /// The high key bits that name the bucket's hash; the other `key_bits − name_bits`
    /// form its field.
    name_bits: u32,
    rec_bits: u32,
    /// The layout's k: the pre-filter keeps records with at most `k` unequal nibbles.
    k: u32,
}

/// Gathers the bits of `x` selected by `mask`, most significant first, into the low bits
/// of the result (a portable `pext`).
/// Takes the mask's runs of adjacent bits a run at a time (a table's key is a few blocks of
/// the fingerprint), not a bit at a time: a check gathers three times a table.
fn gather(x: u64, mask: u64) -> u64 {
    let mut out = 0u64;
    let mut m = mask;
    while m != 0 {
        let top = 63 - m.leading_zeros();
        // The run's lowest bit: one above the highest clear bit below `top` (or bit 0).
        let clear_below = !m & ((1u64 << top) - 1);
        let low = if clear_below == 0 { 0 } else { 64 - clear_below.leading_zeros() };
        let len = top - low + 1;
        let ones = if len == 64 { u64::MAX } else { (1u64 << len) - 1 };
        out = if len == 64 { 0 } else { out << len } | (x >> low & ones);
        m &= !(ones << low);
    }
    out
}

/// The inverse of [`gather`]: spreads the low `mask.count_ones()` bits of `v` over `mask`.
fn scatter(v: u64, mask: u64) -> u64 {
    let n = mask.count_ones();
    let mut out = 0u64;
    let mut i = n;
    for bit in (0..64).rev() {
        if mask >> bit & 1 == 1 {
            i -= 1;
            out |= (v >> i & 1) << bit;
        }
    }
    out
}

/// `v` (its low `bits` bits) packed most significant first into ⌈bits/8⌉ bytes, left-aligned.
fn pack(v: u64, bits: u32) -> Vec<u8> {
    let n = bits.div_ceil(8) as usize;
    if n == 0 {
        return Vec::new();
    }
    let shifted = (u128::from(v)) << (n as u32 * 8 - bits);
    let be = shifted.to_be_bytes();
    be[16 - n..].to_vec()
}

fn unpack(bytes: &[u8], bits: u32) -> u64 {
    let mut x: u128 = 0;
    for &b in bytes {
        x = x << 8 | u128::from(b);
    }
    (x >> (bytes.len() as u32 * 8 - bits)) as u64
}

/// The tables' part of a check's query (`CHECK` and `CHECK_SKETCH`, src/redis/script.rs):
/// the table count, then per table the lengths of its bucket's hash name, field and record
/// (a byte each) and those three.
pub(crate) fn push_tables(query: &mut Vec<u8>, geometry: &[TableGeometry], fp: u64) {
    query.push(geometry.len() as u8);
    for g in geometry {
        let (h, f, r) = (g.bucket_key(fp), g.bucket_field(fp), g.record(fp));
        query.extend([h.len() as u8, f.len() as u8, r.len() as u8]);
        query.extend(h);
        query.extend(f);
        query.extend(r);
    }
}

impl TableGeometry {
    /// The geometry of every table of `layout`. The probing layout has no tables of this
    /// kind and is refused (it needs one lookup per variant, thousands of round trips'
    /// worth of keys).
    pub fn of_layout(layout: &Layout) -> Result<Vec<TableGeometry>> {
        if layout.is_probe() {
            return Err(Error::option(
                "layout",
                layout.to_string(),
                "a multi-table layout (the probing layout needs thousands of lookups a check)",
            ));
        }
        if layout.tables() > MAX_TABLES {
            return Err(Error::option(
                "layout",
                layout.to_string(),
                format!("a layout of at most {MAX_TABLES} tables for the Redis store"),
            ));
        }
        let widths = layout.widths();
        let k = layout.k();
        let mut out = Vec::new();
        for blocks in layout.table_blocks() {
            let mut mask = 0u64;
            for &b in blocks {
                let hi: u32 = 64 - widths[..b as usize].iter().sum::<u32>();
                let w = widths[b as usize];
                let block_mask = if w == 64 { u64::MAX } else { ((1u64 << w) - 1) << (hi - w) };
                mask |= block_mask;
            }
            let key_bits = mask.count_ones();
            let rec_bits = 64 - key_bits;
            let name_bits = (key_bits - key_bits.min(FIELD_BITS)).min(MAX_NAME_BITS);
            out.push(TableGeometry {
                table: out.len() as u8,
                key_mask: mask,
                key_bits,
                name_bits,
                rec_bits,
                k,
            });
        }
        Ok(out)
    }

    /// Bytes of a hash field (the key bits).
    #[cfg(test)]
    pub fn field_len(&self) -> usize {
        self.key_bits.div_ceil(8) as usize
    }

    /// Bytes of a record.
    pub fn record_len(&self) -> usize {
        self.rec_bits.div_ceil(8) as usize
    }

    /// The hash field `fp` is filed under.
    pub fn field(&self, fp: u64) -> Vec<u8> {
        pack(gather(fp, self.key_mask), self.key_bits)
    }

    /// The name of the hash that holds `fp`'s bucket, after the prefix `{NS}:t`: the table
    /// number, `:`, and the high key bits in hex (see [Tables](self#tables-store-format-2)).
    pub fn bucket_key(&self, fp: u64) -> Vec<u8> {
        let hi = gather(fp, self.key_mask) >> (self.key_bits - self.name_bits);
        bucket_name(usize::from(self.table), hi, self.name_bits.div_ceil(4))
    }

    /// The field of that hash that holds `fp`'s bucket: the low key bits.
    pub fn bucket_field(&self, fp: u64) -> Vec<u8> {
        let bits = self.key_bits - self.name_bits;
        let lo = gather(fp, self.key_mask) & if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
        pack(lo, bits)
    }

    /// The number of distinct hashes this table may use.
    pub fn hashes(&self) -> u64 {
        1u64 << self.name_bits
    }

    /// The record `fp` is stored as.
    pub fn record(&self, fp: u64) -> Vec<u8> {
        pack(gather(fp, !self.key_mask), self.rec_bits)
    }

    /// The fingerprint made of a field and a record (of the right lengths).
    pub fn join(&self, field: &[u8], record: &[u8]) -> u64 {
        scatter(unpack(field, self.key_bits), self.key_mask)
            | scatter(unpack(record, self.rec_bits), !self.key_mask)
    }

    /// `true` when `record` passes the pre-filter of query `fp`: the Rust twin of the
    /// script's test, used by the native tests and their model of the script.
    #[cfg(test)]
    pub fn passes(&self, fp: u64, record: &[u8]) -> bool {
        nibbles_within(&self.record(fp), record, self.k)
    }
}

/// `true` when at most `k` of the 4-bit nibbles of two equally long records differ (the
/// script's pre-filter, see the module docs).
#[cfg(test)]
pub fn nibbles_within(query: &[u8], record: &[u8], k: u32) -> bool {
    let mut unequal = 0;
    for (&q, &a) in query.iter().zip(record) {
        unequal += u32::from(q >> 4 != a >> 4) + u32::from(q & 15 != a & 15);
        if unequal > k {
            return false;
        }
    }
    query.len() == record.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    /// Layouts of every shape the store meets: the default, uneven widths, few and many tables.
    fn layouts() -> [Layout; 5] {
        [
            Layout::default_for_k(3).unwrap(),
            Layout::new(3, &[16, 12, 12, 12, 12]).unwrap(),
            Layout::even(2, 5).unwrap(),
            Layout::default_for_k(0).unwrap(),
            Layout::even(6, 9).unwrap(),
        ]
    }

    #[test]
    fn field_and_record_give_back_the_fingerprint() {
        let mut rng = Rng(7);
        for layout in layouts() {
            let geo = TableGeometry::of_layout(&layout).unwrap();
            assert_eq!(geo.len(), layout.tables());
            for (g, kb) in geo.iter().zip(layout.key_bits()) {
                assert_eq!(g.key_bits, kb);
            }
            for _ in 0..200 {
                let fp = rng.next();
                for g in &geo {
                    let (f, r) = (g.field(fp), g.record(fp));
                    assert_eq!(f.len(), g.field_len());
                    assert_eq!(r.len(), g.record_len());
                    assert_eq!(g.join(&f, &r), fp, "{layout}");
                }
            }
        }
    }

    /// `gather` by its definition: the mask's bits from the top, one at a time.
    fn gather_bit_by_bit(x: u64, mask: u64) -> u64 {
        (0..64).rev().filter(|b| mask >> b & 1 == 1).fold(0, |out, b| out << 1 | (x >> b & 1))
    }

    #[test]
    fn gather_takes_the_masked_bits_from_the_top() {
        let mut rng = Rng(11);
        let mut masks =
            vec![0, u64::MAX, 1, 1 << 63, 0xffff << 48, 0xffff, 0x00ff_ff00_0000_ffff, !0xffff_0000];
        for _ in 0..300 {
            masks.push(rng.next());
            masks.push(rng.next() & rng.next() & rng.next());
        }
        for &mask in &masks {
            for _ in 0..20 {
                let x = rng.next();
                assert_eq!(gather(x, mask), gather_bit_by_bit(x, mask), "x {x:#x} mask {mask:#x}");
                assert_eq!(scatter(gather(x, mask), mask), x & mask, "mask {mask:#x}");
            }
        }
    }

    #[test]
    fn bucket_names_are_the_table_in_decimal_then_zero_padded_hex() {
        let mut rng = Rng(12);
        for layout in layouts() {
            for g in TableGeometry::of_layout(&layout).unwrap() {
                for _ in 0..50 {
                    let fp = rng.next();
                    let hi = gather(fp, g.key_mask) >> (g.key_bits - g.name_bits);
                    let digits = g.name_bits.div_ceil(4) as usize;
                    let want = if digits == 0 {
                        format!("{}", g.table)
                    } else {
                        format!("{}:{hi:0digits$x}", g.table)
                    };
                    assert_eq!(g.bucket_key(fp), want.into_bytes(), "{layout}");
                }
            }
        }
        // Tables of one, two and three digits.
        for table in [0u8, 7, 10, 99, 100, 254] {
            let g = TableGeometry {
                table,
                key_mask: 0xffff << 48,
                key_bits: 16,
                name_bits: 11,
                rec_bits: 48,
                k: 3,
            };
            assert_eq!(g.bucket_key(0xfedc << 48), format!("{table}:{:03x}", 0xfedc >> 5).into_bytes());
        }
        for (n, hi, digits) in [
            (0, 0, 0),
            (5, 0, 0),
            (12345, 0, 0),
            (19, 0x3ff, 3),
            (1000, 0xabc, 5),
            (usize::MAX, u64::MAX, 16),
        ] {
            let want =
                if digits == 0 { format!("{n}") } else { format!("{n}:{hi:0w$x}", w = digits as usize) };
            assert_eq!(bucket_name(n, hi, digits), want.into_bytes());
        }
        for band in 0..64 {
            for key in [0, 0xabcdef, 0xffffff, 0x123456] {
                assert_eq!(band_bucket(band, key).0, format!("{band}:{:03x}", key >> 14).into_bytes());
            }
        }
    }

    #[test]
    fn default_layout_names_2048_hashes_a_table_and_six_byte_records() {
        let geo = TableGeometry::of_layout(&Layout::default_for_k(3).unwrap()).unwrap();
        assert_eq!(geo.len(), 4);
        for (t, g) in geo.iter().enumerate() {
            assert_eq!((g.field_len(), g.record_len()), (2, 6));
            let fp = 0x0123_4567_89ab_cdefu64;
            assert_eq!(g.field(fp), (fp >> (48 - 16 * t)).to_be_bytes()[6..].to_vec());
            // Golden names: 11 high key bits name the hash, 5 low ones (left-aligned) the field.
            let key = (fp >> (48 - 16 * t)) as u16;
            assert_eq!(g.bucket_key(fp), format!("{t}:{:03x}", key >> 5).into_bytes());
            assert_eq!(g.bucket_field(fp), vec![(key as u8 & 0x1f) << 3]);
            assert_eq!(g.hashes(), 2048);
        }
        let g = &geo[0];
        assert_eq!(g.bucket_key(0x0123_4567_89ab_cdef), b"0:009");
        assert_eq!(g.bucket_field(0x0123_4567_89ab_cdef), vec![0x18]);
        assert!(TableGeometry::of_layout(&Layout::probe(2).unwrap()).is_err());
    }

    /// The pigeonhole guarantee: every stored fingerprint within k that shares a table's
    /// key passes that table's pre-filter (against a naive oracle), and far ones mostly fail.
    #[test]
    fn prefilter_never_drops_a_match_and_drops_most_others() {
        let mut rng = Rng(11);
        for layout in
            [Layout::default_for_k(3).unwrap(), Layout::even(2, 5).unwrap(), Layout::even(5, 8).unwrap()]
        {
            let k = layout.k();
            let geo = TableGeometry::of_layout(&layout).unwrap();
            let (mut far_pass, mut far_total) = (0u32, 0u32);
            for _ in 0..3000 {
                let q = rng.next();
                let mut near = q;
                for _ in 0..rng.below(k as u64 + 1) {
                    near ^= 1 << rng.below(64);
                }
                let far = rng.next();
                for g in &geo {
                    if g.field(near) == g.field(q) {
                        assert!(g.passes(q, &g.record(near)), "{layout}: {q:x} {near:x}");
                    }
                    // A far record in the same bucket.
                    let rec = g.record(far);
                    far_total += 1;
                    far_pass += u32::from(g.passes(q, &rec));
                }
            }
            // A random record passes when at most k of its nibbles differ (padding nibbles
            // and padding bits never differ): a binomial tail over the record's nibbles.
            let expected: f64 = geo
                .iter()
                .map(|g| {
                    // Each nibble's chance of being equal, from its number of real bits.
                    let mut dist = vec![1.0f64]; // dist[j]: probability of j unequal so far
                    for n in 0..g.record_len() * 2 {
                        let bits = (g.rec_bits as i64 - 4 * n as i64).clamp(0, 4);
                        let eq = 0.5f64.powi(bits as i32);
                        let mut next = vec![0.0; dist.len() + 1];
                        for (j, p) in dist.iter().enumerate() {
                            next[j] += p * eq;
                            next[j + 1] += p * (1.0 - eq);
                        }
                        dist = next;
                    }
                    dist.iter().take(k as usize + 1).sum::<f64>()
                })
                .sum::<f64>()
                / geo.len() as f64;
            let rate = f64::from(far_pass) / f64::from(far_total);
            assert!(
                rate < expected * 1.3 + 0.001,
                "{layout}: {far_pass} of {far_total} pass, expected {expected}"
            );
            assert!(
                rate > expected * 0.7 - 0.001,
                "{layout}: {far_pass} of {far_total} pass, expected {expected}"
            );
        }
    }

    /// The nibble count against a naive oracle (hex digits compared as text), on records
    /// with 0 to 6 nibbles changed, for every k the scripts meet.
    #[test]
    fn nibble_filter_matches_a_naive_oracle() {
        let mut rng = Rng(23);
        let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
        let (mut yes, mut no) = (0, 0);
        for _ in 0..20_000 {
            let len = 1 + rng.below(8) as usize;
            let q: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
            let mut r = q.clone();
            for _ in 0..rng.below(7) {
                let i = rng.below(len as u64 * 2) as usize;
                r[i / 2] ^= (1 + rng.below(15) as u8) << (4 * (i % 2));
            }
            let k = rng.below(6) as u32;
            let unequal = hex(&q).chars().zip(hex(&r).chars()).filter(|(a, b)| a != b).count() as u32;
            let want = unequal <= k;
            assert_eq!(nibbles_within(&q, &r, k), want, "{} {} k={k}", hex(&q), hex(&r));
            if want {
                yes += 1
            } else {
                no += 1
            }
        }
        assert!(yes > 5000 && no > 5000, "{yes} {no}");
        assert!(!nibbles_within(&[1, 2], &[1], 3), "records of other lengths never pass");
    }

    /// Every layout: hashes have at most 32 fields (Redis's default listpack limit is 128) unless
    /// the name would need more than 12 bits, and (hash, field) tells the key bits apart.
    #[test]
    fn buckets_fit_listpack_sized_hashes() {
        let mut rng = Rng(31);
        for layout in [
            Layout::default_for_k(3).unwrap(),
            Layout::new(3, &[16, 12, 12, 12, 12]).unwrap(),
            Layout::even(2, 5).unwrap(),
            Layout::even(1, 4).unwrap(),
            Layout::even(6, 9).unwrap(),
            Layout::default_for_k(0).unwrap(),
        ] {
            for g in TableGeometry::of_layout(&layout).unwrap() {
                let field_bits = g.key_bits - g.name_bits;
                assert!(field_bits <= FIELD_BITS || g.name_bits == MAX_NAME_BITS, "{layout}");
                assert!(g.name_bits <= MAX_NAME_BITS);
                let mut seen = std::collections::HashMap::new();
                for _ in 0..2000 {
                    let fp = rng.next();
                    let place = (g.bucket_key(fp), g.bucket_field(fp));
                    assert!(place.0.starts_with(format!("{}", g.table).as_bytes()));
                    // Same place exactly when the key bits are equal.
                    let key = g.field(fp);
                    assert_eq!(*seen.entry(place).or_insert_with(|| key.clone()), key, "{layout}");
                }
            }
        }
    }

    #[test]
    fn namespaces_are_checked_and_tagged() {
        assert!(check_namespace("crawl-1").is_ok());
        for bad in ["", "a{b", "x}", "a\nb"] {
            assert!(matches!(check_namespace(bad), Err(Error::InvalidOption { option: "namespace", .. })));
        }
        assert!(check_namespace(&"x".repeat(MAX_NAMESPACE_BYTES + 1)).is_err());
        let keys = key_names("ns");
        assert_eq!(keys[0], "{ns}:meta");
        assert_eq!(keys[5], "{ns}:t");
        assert_eq!(keys.len(), 6);
        assert_eq!(sketch_key_names("ns"), ["{ns}:i", "{ns}:b"]);
    }

    /// Golden names, and (name, field, record byte) tells every band key apart.
    #[test]
    fn band_buckets_are_pinned_and_distinct() {
        assert_eq!(band_bucket(0, 0xabcdef), (b"0:2af".to_vec(), vec![0x0d], 0xef));
        assert_eq!(band_bucket(19, 0xffffff), (b"19:3ff".to_vec(), vec![0x3f], 0xff));
        assert_eq!(band_bucket(3, 0), (b"3:000".to_vec(), vec![0], 0));
        assert_eq!(BAND_NAME_BITS + BAND_FIELD_BITS + 8, 24);
        let mut seen = std::collections::HashSet::new();
        for key in (0..1 << 24).step_by(997) {
            assert!(seen.insert(band_bucket(5, key)));
        }
    }
}
