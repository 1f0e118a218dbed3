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
//! | `{NS}:t0` … `{NS}:t<T-1>` | hash | index table `t`: field = the table's key bits, value = records |
//! | `{NS}:p` | hash | page records by fingerprint ([`super::record`]); only with the URL map |
//! | `{NS}:c` | hash | counts by fingerprint; only with the URL map |
//! | `{NS}:u` | hash | URL → its stored fingerprint or its cluster's URL; only with the URL map |
//!
//! ## Tables
//!
//! Table `t` of the layout keys on some blocks of the fingerprint (the paper's permuted
//! tables). Its hash field is those key bits, packed most significant first into
//! ⌈key bits / 8⌉ bytes; the value is the concatenation of one fixed-size *record* per stored
//! page whose key bits are equal: the fingerprint's other `R = 64 − key bits` bits, packed
//! most significant first into ⌈R / 8⌉ bytes (left-aligned, low padding bits zero). Field and
//! record together give back the whole fingerprint ([`TableGeometry::join`]).
//!
//! ## The pigeonhole pre-filter
//!
//! A stored fingerprint within `k` bits of the query that shares table `t`'s key differs in
//! at most `k` of the `R` record bits. Cut those bits into `k + 1` contiguous pieces: at
//! least one piece is then equal. The script keeps a record only when some piece is
//! byte-for-byte (bit-field for bit-field) equal to the query's; this is an equality test,
//! not a distance. For the default layout (k = 3, 4 × 16 bits) a record's 48 bits make four
//! 12-bit pieces, so a random record passes with probability ≈ 4 / 4096.
//!
//! The script is told how to test each piece by a *program* ([`TableGeometry::program`]):
//! per piece one byte with the number of parts, then per part four bytes — the record's
//! byte (1-based), the lowest bit of the part in that byte (0 = least significant), the
//! part's width, and the query's value of those bits. Lua checks
//! `floor(byte / 2^lo) % 2^width == want`: integers below 256, exact in doubles.

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
/// c, u, then the tables.
pub fn key_names(ns: &str, tables: usize) -> Vec<String> {
    let mut keys: Vec<String> =
        ["meta", "n", "p", "c", "u"].iter().map(|s| format!("{{{ns}}}:{s}")).collect();
    keys.extend((0..tables).map(|t| format!("{{{ns}}}:t{t}")));
    keys
}

/// How one table cuts a fingerprint into a field and a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableGeometry {
    /// Bits of the fingerprint that form the key, as a mask.
    key_mask: u64,
    key_bits: u32,
    rec_bits: u32,
    /// The `k + 1` pieces of the record, as bit ranges `[start, end)` counted from the
    /// record's most significant bit.
    pieces: Vec<(u32, u32)>,
}

/// Gathers the bits of `x` selected by `mask`, most significant first, into the low bits
/// of the result (a portable `pext`).
fn gather(x: u64, mask: u64) -> u64 {
    let mut out = 0u64;
    for bit in (0..64).rev() {
        if mask >> bit & 1 == 1 {
            out = out << 1 | (x >> bit & 1);
        }
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
            let n = (k + 1).min(rec_bits.max(1));
            let pieces = (0..n)
                .map(|i| {
                    let start = rec_bits * i / n;
                    let end = rec_bits * (i + 1) / n;
                    (start, end)
                })
                .filter(|(s, e)| e > s)
                .collect();
            out.push(TableGeometry { key_mask: mask, key_bits, rec_bits, pieces });
        }
        Ok(out)
    }

    /// Bytes of a hash field (the key bits).
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

    /// The record `fp` is stored as.
    pub fn record(&self, fp: u64) -> Vec<u8> {
        pack(gather(fp, !self.key_mask), self.rec_bits)
    }

    /// The fingerprint made of a field and a record (of the right lengths).
    pub fn join(&self, field: &[u8], record: &[u8]) -> u64 {
        scatter(unpack(field, self.key_bits), self.key_mask)
            | scatter(unpack(record, self.rec_bits), !self.key_mask)
    }

    /// The pre-filter program for query `fp` (format in the module docs).
    pub fn program(&self, fp: u64) -> Vec<u8> {
        let rec = self.record(fp);
        let mut out = Vec::new();
        for &(start, end) in &self.pieces {
            let mut parts = Vec::new();
            let mut bit = start;
            while bit < end {
                let byte = bit / 8;
                let upto = end.min(byte * 8 + 8);
                // Bits [bit, upto) of the record sit in byte `byte`, at LSB positions
                // [byte*8+8-upto, byte*8+8-bit).
                let lo = byte * 8 + 8 - upto;
                let width = upto - bit;
                let want = (rec[byte as usize] >> lo) & (((1u16 << width) - 1) as u8);
                parts.extend_from_slice(&[(byte + 1) as u8, lo as u8, width as u8, want]);
                bit = upto;
            }
            out.push((parts.len() / 4) as u8);
            out.extend_from_slice(&parts);
        }
        out
    }

    /// `true` when `record` passes the pre-filter of query `fp`: the Rust twin of the
    /// script's test, used by the native tests and the oracle.
    pub fn passes(&self, fp: u64, record: &[u8]) -> bool {
        program_passes(&self.program(fp), record)
    }
}

/// Runs a pre-filter program on a record, as the script does (the Rust twin of its loop).
pub fn program_passes(prog: &[u8], record: &[u8]) -> bool {
    let mut i = 0;
    while i < prog.len() {
        let n = prog[i] as usize;
        let parts = &prog[i + 1..(i + 1 + 4 * n).min(prog.len())];
        i += 1 + 4 * n;
        if parts.chunks(4).all(|p| {
            let b = record.get(p[0] as usize - 1).copied().unwrap_or(0);
            (u16::from(b) >> p[1]) & ((1u16 << p[2]) - 1) == u16::from(p[3])
        }) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    #[test]
    fn field_and_record_give_back_the_fingerprint() {
        let mut rng = Rng(7);
        for layout in [
            Layout::default_for_k(3).unwrap(),
            Layout::new(3, &[16, 12, 12, 12, 12]).unwrap(),
            Layout::even(2, 5).unwrap(),
            Layout::default_for_k(0).unwrap(),
            Layout::even(6, 9).unwrap(),
        ] {
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

    #[test]
    fn default_layout_uses_two_byte_fields_and_six_byte_records() {
        let geo = TableGeometry::of_layout(&Layout::default_for_k(3).unwrap()).unwrap();
        assert_eq!(geo.len(), 4);
        for (t, g) in geo.iter().enumerate() {
            assert_eq!((g.field_len(), g.record_len()), (2, 6));
            let fp = 0x0123_4567_89ab_cdefu64;
            assert_eq!(g.field(fp), (fp >> (48 - 16 * t)).to_be_bytes()[6..].to_vec());
        }
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
            // Each of the k + 1 pieces of w bits matches a random record with probability 2^-w.
            let expected: f64 = geo
                .iter()
                .map(|g| g.pieces.iter().map(|&(a, b)| 0.5f64.powi((b - a) as i32)).sum::<f64>())
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

    #[test]
    fn namespaces_are_checked_and_tagged() {
        assert!(check_namespace("crawl-1").is_ok());
        for bad in ["", "a{b", "x}", "a\nb"] {
            assert!(matches!(check_namespace(bad), Err(Error::InvalidOption { option: "namespace", .. })));
        }
        assert!(check_namespace(&"x".repeat(MAX_NAMESPACE_BYTES + 1)).is_err());
        let keys = key_names("ns", 4);
        assert_eq!(keys[0], "{ns}:meta");
        assert_eq!(keys[8], "{ns}:t3");
        assert_eq!(keys.len(), 9);
    }
}
