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
//! | `{NS}:t` | hash | the index tables: field = table number (1 byte) + the table's key bits, value = records |
//! | `{NS}:p` | hash | page records by fingerprint ([`super::record`]); only with the URL map |
//! | `{NS}:c` | hash | counts by fingerprint of the pages seen more than once (no field: seen once); only with the URL map |
//! | `{NS}:u` | hash | URL → its stored fingerprint or its cluster's URL; only with the URL map |
//!
//! ## Tables
//!
//! Table `t` of the layout keys on some blocks of the fingerprint (the paper's permuted
//! tables). All tables share one hash, `{NS}:t` (one `HMGET` reads a page's buckets in
//! every table, one `HSET` writes them). A bucket's hash field is the table number (one
//! byte, 0-based) followed by the key bits, packed most significant first into
//! ⌈key bits / 8⌉ bytes; the value is the concatenation of one fixed-size *record* per stored
//! page whose key bits are equal: the fingerprint's other `R = 64 − key bits` bits, packed
//! most significant first into ⌈R / 8⌉ bytes (left-aligned, low padding bits zero). Field and
//! record together give back the whole fingerprint ([`TableGeometry::join`]).
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
//! per-call tables (the first version rebuilt a program of bit-fields on every call).
//!
//! Padding bits (a record of `R` bits fills ⌈R / 8⌉ bytes, low bits zero) are equal in
//! every record, so they never count.

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
/// c, u, t.
pub fn key_names(ns: &str) -> Vec<String> {
    ["meta", "n", "p", "c", "u", "t"].iter().map(|s| format!("{{{ns}}}:{s}")).collect()
}

/// Most tables a layout may have here (the table number is one byte).
pub const MAX_TABLES: usize = 255;

/// How one table cuts a fingerprint into a field and a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableGeometry {
    /// The table's number (0-based), the first byte of its hash fields.
    table: u8,
    /// Bits of the fingerprint that form the key, as a mask.
    key_mask: u64,
    key_bits: u32,
    rec_bits: u32,
    /// The layout's k: the pre-filter keeps records with at most `k` unequal nibbles.
    k: u32,
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
            out.push(TableGeometry { table: out.len() as u8, key_mask: mask, key_bits, rec_bits, k });
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

    /// The field of `{NS}:t` that holds `fp`'s bucket: the table number, then [`Self::field`].
    pub fn hash_field(&self, fp: u64) -> Vec<u8> {
        let mut f = vec![self.table];
        f.extend(self.field(fp));
        f
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
    pub fn passes(&self, fp: u64, record: &[u8]) -> bool {
        nibbles_within(&self.record(fp), record, self.k)
    }
}

/// `true` when at most `k` of the 4-bit nibbles of two equally long records differ (the
/// script's pre-filter, see the module docs).
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
            assert_eq!(g.hash_field(fp)[0], t as u8);
            assert_eq!(g.hash_field(fp)[1..], g.field(fp));
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
    }
}
