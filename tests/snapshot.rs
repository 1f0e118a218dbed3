//! Snapshots: round trips against brute force, corruption of every kind, golden files.
//!
//! A seeded splitmix64 drives everything, so failures reproduce. No dependencies.

mod common;
use common::Rng;

use simhash_wasm::__private::snapshot::{self, crc32c, Kind, FORMAT_VERSION};
use simhash_wasm::sketch::{Sketch, SketchScheme};
use simhash_wasm::CompactSet;
use simhash_wasm::{Error, IdfTable, Options, Tokenizer};

impl Rng {
    /// `x` with `d` distinct random bits flipped.
    fn flip(&mut self, mut x: u64, d: u32) -> u64 {
        let mut mask = 0u64;
        while mask.count_ones() < d.min(64) {
            mask |= 1 << self.below(64);
        }
        x ^= mask;
        x
    }
}

/// A set of one of several shapes, sorted.
fn make_set(rng: &mut Rng, shape: u64, n: usize) -> Vec<u64> {
    let mut v: Vec<u64> = match shape {
        0 => (0..n).map(|_| rng.next()).collect(),
        // Clustered: a few centres, members within a few bits.
        1 => {
            let centres: Vec<u64> = (0..(n / 8).max(1)).map(|_| rng.next()).collect();
            (0..n)
                .map(|_| {
                    let c = centres[rng.below(centres.len() as u64) as usize];
                    let d = rng.below(5) as u32;
                    rng.flip(c, d)
                })
                .collect()
        }
        // Many duplicates.
        2 => {
            let pool: Vec<u64> = (0..(n / 4).max(1)).map(|_| rng.next()).collect();
            (0..n).map(|_| pool[rng.below(pool.len() as u64) as usize]).collect()
        }
        // All equal.
        3 => vec![rng.next(); n],
        // Extremes and small values.
        4 => (0..n)
            .map(|i| match i % 4 {
                0 => 0,
                1 => u64::MAX,
                2 => rng.below(1000),
                _ => u64::MAX - rng.below(1000),
            })
            .collect(),
        // Dense run: consecutive integers from a random start.
        _ => {
            let s = rng.next();
            (0..n as u64).map(|i| s.wrapping_add(i)).collect()
        }
    };
    v.sort_unstable();
    v
}

fn brute_within(set: &[u64], q: u64, k: u32) -> Vec<u64> {
    set.iter().copied().filter(|&x| (x ^ q).count_ones() <= k).collect()
}

fn check_set(rng: &mut Rng, fps: &[u64], block: u32, queries: usize) {
    let set = CompactSet::with_block_size(fps, block).unwrap();
    assert_eq!(set.len(), fps.len());
    assert_eq!(set.to_vec(), fps, "iter, block {block}");
    let bytes = set.to_bytes();
    let back = CompactSet::from_bytes(&bytes).unwrap();
    assert_eq!(back, set);
    assert_eq!(back.to_vec(), fps);
    assert_eq!(back.huffman_table(), set.huffman_table());
    assert_eq!(back.to_bytes(), bytes, "re-encode is byte-identical");
    for _ in 0..queries {
        let q = if fps.is_empty() || rng.below(4) == 0 {
            rng.next()
        } else {
            let x = fps[rng.below(fps.len() as u64) as usize];
            let d = rng.below(6) as u32;
            rng.flip(x, d)
        };
        assert_eq!(back.contains(q), fps.binary_search(&q).is_ok(), "contains {q:#x}");
        let k = rng.below(5) as u32;
        let want = brute_within(fps, q, k);
        assert_eq!(back.contains_within(q, k), !want.is_empty(), "contains_within {q:#x} k={k}");
        assert_eq!(back.find_within(q, k), want, "find_within {q:#x} k={k}");
    }
    for &x in fps.iter().take(50) {
        assert!(back.contains(x));
        assert!(back.contains_within(x, 0));
    }
}

#[test]
fn round_trip_matches_brute_force() {
    let mut rng = Rng(1);
    let blocks = [1u32, 2, 3, 7, 16, 128];
    let mut sizes = vec![0usize, 1, 2, 3, 100, 500];
    for b in [7usize, 16, 128] {
        sizes.extend([b - 1, b, b + 1, 2 * b - 1, 2 * b, 2 * b + 1]);
    }
    for &n in &sizes {
        for shape in 0..6 {
            for &block in &blocks {
                if n > 200 && block < 7 {
                    continue;
                }
                let fps = make_set(&mut rng, shape, n);
                check_set(&mut rng, &fps, block, 12);
            }
        }
    }
}

#[test]
fn contains_within_large_k_and_big_set() {
    let mut rng = Rng(2);
    let fps = make_set(&mut rng, 0, 20_000);
    let set = CompactSet::from_sorted(&fps).unwrap();
    for k in [0u32, 1, 2, 3, 4, 6] {
        for _ in 0..20 {
            let x = fps[rng.below(fps.len() as u64) as usize];
            let d = rng.below(u64::from(k) + 2) as u32;
            let q = rng.flip(x, d);
            assert_eq!(set.find_within(q, k), brute_within(&fps, q, k), "k={k}");
        }
    }
    // k >= 64 matches everything; k = 64 with an empty set matches nothing.
    assert!(set.contains_within(0, 64));
    assert_eq!(set.find_within(123, 99).len(), fps.len());
    assert!(!CompactSet::from_sorted(&[]).unwrap().contains_within(0, 64));
}

#[test]
fn unsorted_input_and_bad_block_size_are_refused() {
    let e = CompactSet::from_sorted(&[3, 1]).unwrap_err();
    assert_eq!(e.code(), "InvalidOption");
    assert!(e.to_string().contains("ascending"), "{e}");
    assert!(CompactSet::with_block_size(&[1], 0).is_err());
    assert!(CompactSet::with_block_size(&[1], 65_537).is_err());
    assert_eq!(CompactSet::from_unsorted(vec![3, 1, 2]).unwrap().to_vec(), vec![1, 2, 3]);
}

#[test]
fn huffman_table_is_a_prefix_code_over_the_symbols() {
    let mut rng = Rng(3);
    let fps = make_set(&mut rng, 0, 5000);
    let set = CompactSet::from_sorted(&fps).unwrap();
    let t = set.huffman_table();
    let total: u64 = t.iter().map(|r| r.1).sum();
    assert_eq!(total as usize, fps.len() - fps.len().div_ceil(128));
    for (i, a) in t.iter().enumerate() {
        for b in &t[i + 1..] {
            assert!(!b.2.starts_with(&a.2) && !a.2.starts_with(&b.2), "{a:?} {b:?}");
        }
    }
    // The most frequent symbol sits near 64 - log2(5000) ~ 51.7.
    let top = t.iter().max_by_key(|r| r.1).unwrap();
    assert!((49..=52).contains(&top.0), "{t:?}");
}

// ---------------------------------------------------------------------------------------
// Corruption
// ---------------------------------------------------------------------------------------

/// Recomputes the envelope's checksum, so the decoder's own checks are reached.
fn reseal(bytes: &mut [u8]) {
    let n = bytes.len();
    if n >= 24 {
        let crc = crc32c(&bytes[..n - 4]);
        bytes[n - 4..].copy_from_slice(&crc.to_le_bytes());
    }
}

/// What a set loaded from `bytes` must satisfy, whatever the bytes were (forged ones
/// included): its size is the stored count, it is sorted, it re-encodes to the very same
/// bytes, its Huffman table counts every coded fingerprint, and its queries answer like
/// brute force over the decoded fingerprints. Returns how many queries found a match, so
/// callers can check that the near-member queries were not vacuous.
fn exercise(set: &CompactSet, bytes: &[u8]) -> usize {
    let v = set.to_vec();
    let stored_n = u64::from_le_bytes(bytes[20..28].try_into().unwrap());
    assert_eq!(v.len() as u64, stored_n, "decoded size vs the stored count");
    assert_eq!(set.len(), v.len());
    assert_eq!(set.is_empty(), v.is_empty());
    assert_eq!(set.iter().count(), v.len());
    assert!(v.windows(2).all(|w| w[0] <= w[1]), "a loaded set is not sorted: {v:x?}");
    assert_eq!(set.to_bytes(), bytes, "a loaded set re-encodes to other bytes");
    let blocks = v.len().div_ceil(set.block_size() as usize);
    let coded: u64 = set.huffman_table().iter().map(|r| r.1).sum();
    assert_eq!(coded as usize, v.len() - blocks, "Huffman counts vs coded fingerprints");
    // Members, members with 1 to 3 bits flipped, the extremes and random words.
    let mut rng = Rng(stored_n ^ 0xE7E7);
    let mut queries = vec![0, u64::MAX, rng.next(), rng.next()];
    for i in 0..v.len().min(6) {
        let x = v[i * v.len() / v.len().min(6)];
        queries.push(x);
        let d = 1 + rng.below(3) as u32;
        queries.push(rng.flip(x, d));
    }
    let mut found = 0;
    for &q in &queries {
        assert_eq!(set.contains(q), v.binary_search(&q).is_ok(), "contains {q:#x}");
        for k in [0u32, 1, 3] {
            let want = brute_within(&v, q, k);
            assert_eq!(set.find_within(q, k), want, "find_within {q:#x} k={k}");
            assert_eq!(set.contains_within(q, k), !want.is_empty(), "contains_within {q:#x} k={k}");
            found += usize::from(k == 3 && !want.is_empty());
        }
    }
    let naive = queries.iter().filter(|&&q| !brute_within(&v, q, 2).is_empty()).count();
    assert_eq!(set.count_contained_within(&queries, 2), naive);
    found
}

fn all_decoders(bytes: &[u8]) -> [bool; 4] {
    let a = match CompactSet::from_bytes(bytes) {
        Ok(s) => {
            let found = exercise(&s, bytes);
            assert!(s.is_empty() || found > 0, "no query near a member found it");
            true
        }
        Err(e) => {
            assert!(!e.to_string().is_empty());
            false
        }
    };
    let b = match IdfTable::from_bytes(bytes) {
        Ok(t) => {
            assert_eq!(IdfTable::from_bytes(&t.to_bytes()).unwrap(), t, "a loaded IDF table round-trips");
            true
        }
        Err(_) => false,
    };
    // Whatever index snapshot decodes holds its entries in fingerprint order.
    let by_fingerprint = |fps: Vec<u64>| assert!(fps.windows(2).all(|w| w[0] <= w[1]), "entries unsorted");
    let c =
        snapshot::decode_index::<u64>(bytes).map(|p| by_fingerprint(p.entries.iter().map(|e| e.1).collect()));
    let d = snapshot::decode_index::<String>(bytes)
        .map(|p| by_fingerprint(p.entries.iter().map(|e| e.1).collect()));
    [a, b, c.is_ok(), d.is_ok()]
}

fn small_inputs() -> Vec<Vec<u8>> {
    let mut rng = Rng(4);
    let fps = make_set(&mut rng, 1, 40);
    let set = CompactSet::with_block_size(&fps, 8).unwrap();
    let mut idf = IdfTable::new();
    for _ in 0..5 {
        idf.add_document((0..6).map(|_| rng.below(20)));
    }
    let ids: Vec<(u64, u64)> = fps.iter().enumerate().map(|(i, &f)| (i as u64 * 7, f)).collect();
    let sids: Vec<(String, u64)> = fps.iter().enumerate().map(|(i, &f)| (format!("doc-é{i}"), f)).collect();
    vec![
        set.to_bytes(),
        CompactSet::with_version(&fps, 8, 1).unwrap().to_bytes(),
        idf.to_bytes(),
        snapshot::encode_index(3, false, &[16, 16, 16, 16], Some(&Options::default()), ids),
        snapshot::encode_index(3, false, &[16, 16, 16, 16], None, sids.clone()),
        sketched_index(&sids, SketchScheme::new(32).unwrap()),
    ]
}

#[test]
fn every_bit_flip_and_every_truncation_is_an_error() {
    // How many inputs with a forged checksum still loaded, per decoder: those were
    // checked by all_decoders (a consistent set, sorted entries, ...).
    let mut loaded = [0usize; 4];
    for good in small_inputs() {
        assert!(all_decoders(&good).iter().any(|&ok| ok));
        for bit in 0..good.len() * 8 {
            let mut bad = good.clone();
            bad[bit / 8] ^= 1 << (bit % 8);
            assert_eq!(all_decoders(&bad), [false; 4], "flip of bit {bit} went unnoticed");
            // With the checksum forged, the structural checks must still hold: no panic,
            // and whatever loads is consistent.
            reseal(&mut bad);
            for (n, ok) in loaded.iter_mut().zip(all_decoders(&bad)) {
                *n += usize::from(ok);
            }
        }
        for len in 0..good.len() {
            assert_eq!(all_decoders(&good[..len]), [false; 4], "truncation to {len} bytes");
            let mut cut = good[..len].to_vec();
            reseal(&mut cut);
            let _ = all_decoders(&cut);
        }
    }
    eprintln!("forged inputs that loaded (set, idf, u64 index, string index): {loaded:?}");
    // Flips in fingerprints and low bits give other valid sets: the checks above ran
    // on a good number of them.
    assert!(loaded.iter().all(|&n| n >= 100), "{loaded:?}");
}

#[test]
fn random_flips_in_a_large_snapshot() {
    let mut rng = Rng(5);
    let fps = make_set(&mut rng, 0, 30_000);
    let good = CompactSet::from_sorted(&fps).unwrap().to_bytes();
    for _ in 0..60 {
        let mut bad = good.clone();
        for _ in 0..=rng.below(3) {
            let bit = rng.below(bad.len() as u64 * 8) as usize;
            bad[bit / 8] ^= 1 << (bit % 8);
        }
        assert!(CompactSet::from_bytes(&bad).is_err());
        reseal(&mut bad);
        if let Ok(s) = CompactSet::from_bytes(&bad) {
            exercise(&s, &bad);
        }
    }
}

#[test]
fn wrong_version_kind_magic_and_lengths() {
    let good = CompactSet::from_sorted(&[1, 2, 3, 1 << 40]).unwrap().to_bytes();
    // Newer version: refused as such, even with a valid checksum.
    let newest = Kind::FingerprintSet.newest_version();
    assert_eq!((newest, FORMAT_VERSION, u32::from_le_bytes(good[8..12].try_into().unwrap())), (2, 1, 2));
    let mut v = good.clone();
    v[8..12].copy_from_slice(&(newest + 1).to_le_bytes());
    reseal(&mut v);
    match CompactSet::from_bytes(&v) {
        Err(Error::UnsupportedVersion { found, supported, .. }) => {
            assert_eq!((found, supported), (newest + 1, newest))
        }
        other => panic!("{other:?}"),
    }
    // INDX is at version 2 (a sketch column), written only when entries carry sketches:
    // an index without them is still version 1, and one claiming 3 is refused.
    let ix = simhash_wasm::Index::build(simhash_wasm::Layout::default_for_k(3).unwrap(), vec![(1u64, 5u64)])
        .unwrap();
    let mut iv = ix.to_bytes();
    assert_eq!(&iv[8..12], &1u32.to_le_bytes());
    iv[8..12].copy_from_slice(&3u32.to_le_bytes());
    reseal(&mut iv);
    assert_eq!(simhash_wasm::Index::<u64>::from_bytes(&iv).unwrap_err().code(), "UnsupportedVersion");

    let msg = CompactSet::from_bytes(&v).unwrap_err().to_string();
    assert!(msg.contains("upgrade"), "{msg}");
    // Version 0.
    let mut v = good.clone();
    v[8..12].copy_from_slice(&0u32.to_le_bytes());
    reseal(&mut v);
    assert_eq!(CompactSet::from_bytes(&v).unwrap_err().code(), "Corrupt");
    // Wrong kind: an FSET given to the IDF loader says what it is.
    let e = IdfTable::from_bytes(&good).unwrap_err().to_string();
    assert!(e.contains("fingerprint set"), "{e}");
    // Not ours at all; empty.
    assert!(CompactSet::from_bytes(b"GIF89a, certainly not a snapshot")
        .unwrap_err()
        .to_string()
        .contains("magic"));
    let e = CompactSet::from_bytes(&[]).unwrap_err();
    assert!(matches!(e, Error::Corrupt { offset: 0, .. }), "{e:?}");
    // Lying envelope length fields.
    for len in [0u64, 1, u64::MAX, u64::MAX / 2, (good.len() - 24) as u64 + 1] {
        let mut v = good.clone();
        v[12..20].copy_from_slice(&len.to_le_bytes());
        reseal(&mut v);
        let e = CompactSet::from_bytes(&v).unwrap_err();
        assert!(matches!(e, Error::Corrupt { offset: 12, .. }), "{e:?}");
    }
    // Lying inner fields (checksum forged): a huge count, a huge stream length.
    for (at, val) in [(20usize, u64::MAX), (20, 1 << 40), (20, 5), (97, u64::MAX), (97, 1 << 50)] {
        let mut v = good.clone();
        v[at..at + 8].copy_from_slice(&val.to_le_bytes());
        reseal(&mut v);
        let e = CompactSet::from_bytes(&v).unwrap_err();
        assert_eq!(e.code(), "Corrupt", "{e}");
    }
}

/// A flipped bit of the version field is damage (the checksum, checked first, covers it),
/// not a newer file; a newer version with a valid checksum is one.
#[test]
fn a_damaged_version_field_is_corrupt_and_a_newer_version_unsupported() {
    let index =
        simhash_wasm::Index::build(simhash_wasm::Layout::default_for_k(3).unwrap(), vec![(1u64, 5u64)])
            .unwrap()
            .to_bytes();
    let mut idf = IdfTable::new();
    idf.add_document([1, 2, 3]);
    type Load = fn(&[u8]) -> Result<(), Error>;
    #[cfg_attr(not(feature = "html"), allow(unused_mut))]
    let mut cases: Vec<(Kind, Vec<u8>, Load)> = vec![
        (Kind::Index, index, |b| simhash_wasm::Index::<u64>::from_bytes(b).map(drop)),
        (Kind::FingerprintSet, CompactSet::from_sorted(&[1, 2, 3]).unwrap().to_bytes(), |b| {
            CompactSet::from_bytes(b).map(drop)
        }),
        (Kind::Idf, idf.to_bytes(), |b| IdfTable::from_bytes(b).map(drop)),
    ];
    // The SEEN golden learns site templates, which need the Cargo feature `html`.
    #[cfg(feature = "html")]
    cases.push((Kind::Seen, golden_seen_templates().to_bytes(), |b| {
        ContentSeen::from_bytes(b, None).map(drop)
    }));
    for (kind, good, load) in cases {
        load(&good).unwrap();
        for bit in 64..96 {
            let mut bad = good.clone();
            bad[bit / 8] ^= 1 << (bit % 8);
            let e = load(&bad).unwrap_err();
            assert!(
                matches!(&e, Error::Corrupt { reason, .. } if reason.contains("checksum mismatch")),
                "{kind:?}, bit {bit}: {e}"
            );
        }
        let newer = kind.newest_version() + 1;
        let mut v = good.clone();
        v[8..12].copy_from_slice(&newer.to_le_bytes());
        reseal(&mut v);
        match load(&v) {
            Err(Error::UnsupportedVersion { found, .. }) => assert_eq!(found, newer, "{kind:?}"),
            other => panic!("{kind:?}: {other:?}"),
        }
    }
}

#[test]
fn lying_lengths_inside_index_and_idf_payloads() {
    // A string-id snapshot whose column length and id lengths are forged huge.
    let mut v =
        snapshot::encode_index::<String>(3, false, &[32, 32], None, vec![("a".into(), 5), ("b".into(), 9)]);
    // Payload: k(4) strategy(1) b(4) widths(8) scheme(1) idtype(1) = 19: the column length is at 20 + 19.
    let at = 20 + 19;
    for val in [u64::MAX, 1 << 33, 1000] {
        let mut w = v.clone();
        w[at..at + 8].copy_from_slice(&val.to_le_bytes());
        reseal(&mut w);
        assert_eq!(snapshot::decode_index::<String>(&w).unwrap_err().code(), "Corrupt");
    }
    // Id length varint forged to the maximum.
    v[at + 8 + 1] = 0x7F;
    reseal(&mut v);
    assert!(snapshot::decode_index::<String>(&v).is_err());
    let mut idf = IdfTable::new();
    idf.add_document([1, 2, 3]);
    let good = idf.to_bytes();
    let mut w = good.clone();
    w[28..36].copy_from_slice(&u64::MAX.to_le_bytes());
    reseal(&mut w);
    assert_eq!(IdfTable::from_bytes(&w).unwrap_err().code(), "Corrupt");
}

// ---------------------------------------------------------------------------------------
// IDF tables and index snapshot parts
// ---------------------------------------------------------------------------------------

#[test]
fn idf_round_trip() {
    let mut rng = Rng(6);
    for docs in [0usize, 1, 3, 200] {
        let mut t = IdfTable::new();
        for _ in 0..docs {
            let n = rng.below(30);
            let feats: Vec<u64> =
                (0..n).map(|_| if rng.below(2) == 0 { rng.below(50) } else { rng.next() }).collect();
            t.add_document(feats);
        }
        let b = t.to_bytes();
        let back = IdfTable::from_bytes(&b).unwrap();
        assert_eq!(back, t);
        assert_eq!(back.to_bytes(), b);
        assert_eq!(&b[4..8], &Kind::Idf.tag());
    }
}

#[test]
fn index_parts_round_trip_and_scheme_checks() {
    let mut rng = Rng(7);
    let fps = make_set(&mut rng, 2, 300);
    let num: Vec<(u64, u64)> = fps
        .iter()
        .map(|&f| {
            let sh = rng.below(64);
            (rng.next() >> sh, f)
        })
        .collect();
    let words = Options { tokenizer: Tokenizer::Words(3), ..Options::default() };
    let b = snapshot::encode_index(2, false, &[22, 21, 21], Some(&words), num.clone());
    let p = snapshot::decode_index::<u64>(&b).unwrap();
    assert_eq!((p.k, p.probe, p.widths.as_slice(), p.scheme), (2, false, &[22u32, 21, 21][..], Some(words)));
    let mut want: Vec<(u64, u64)> = num.clone();
    want.sort_by_key(|&(i, f)| (f, i));
    assert_eq!(p.entries, want);
    // Entry order does not change the bytes.
    let mut rev = num.clone();
    rev.reverse();
    assert_eq!(snapshot::encode_index(2, false, &[22, 21, 21], Some(&words), rev), b);
    // Wrong id type.
    let e = snapshot::decode_index::<String>(&b).unwrap_err();
    assert_eq!(e.code(), "SchemeMismatch");
    // Scheme comparison.
    snapshot::check_scheme(p.scheme.as_ref(), Some(&words)).unwrap();
    let e = snapshot::check_scheme(p.scheme.as_ref(), Some(&Options::default())).unwrap_err();
    assert!(matches!(e, Error::SchemeMismatch { field: "tokenizer", .. }), "{e:?}");
    assert!(e.to_string().contains("words"), "{e}");
    let four = Options { tokenizer: Tokenizer::Words(4), ..words };
    let e = snapshot::check_scheme(Some(&words), Some(&four)).unwrap_err();
    assert!(matches!(e, Error::SchemeMismatch { field: "ngram", .. }), "{e:?}");
    assert!(snapshot::check_scheme(None, Some(&words)).is_err());
    assert!(snapshot::check_scheme(Some(&words), None).is_err());
    // String ids with shared prefixes and multi-byte characters.
    let sids: Vec<(String, u64)> = fps
        .iter()
        .enumerate()
        .map(|(i, &f)| (format!("https://例え.jp/page/{}", i % 97), f))
        .chain([(String::new(), 0), ("é".into(), 0), ("e\u{301}".into(), 0)])
        .collect();
    let b = snapshot::encode_index(3, false, &[16; 4], None, sids.clone());
    let p = snapshot::decode_index::<String>(&b).unwrap();
    let mut want = sids;
    want.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
    assert_eq!(p.entries, want);
    assert_eq!(p.scheme, None);
}

// ---------------------------------------------------------------------------------------
// Golden files: must keep loading, answering and re-encoding byte for byte.
// ---------------------------------------------------------------------------------------

fn golden_entries() -> Vec<(u64, u64)> {
    let mut rng = Rng(0x5EED);
    let mut fps = make_set(&mut rng, 1, 200);
    fps.extend([0, 0, u64::MAX, 1, 1 << 63]);
    fps.sort_unstable();
    fps.iter().enumerate().map(|(i, &f)| (1000 + 3 * i as u64, f)).collect()
}

fn golden_idf() -> IdfTable {
    let mut rng = Rng(0x1DF);
    let mut t = IdfTable::new();
    for _ in 0..20 {
        let n = rng.below(12) + 1;
        t.add_document(
            (0..n).map(|_| simhash_wasm::__private::hash::hash_bytes(&rng.below(40).to_le_bytes())),
        );
    }
    t
}

fn golden_options() -> Options {
    // Spelled out in full: the golden file must not follow later changes of the defaults.
    Options {
        tokenizer: Tokenizer::Chars(5),
        weighting: simhash_wasm::Weighting::Sublinear,
        normalize: simhash_wasm::NormalizeOptions {
            punctuation: simhash_wasm::Punctuation::Keep,
            nfkc: true,
            lowercase: true,
        },
    }
}

fn golden(name: &str, fresh: &[u8]) -> Vec<u8> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("SIMHASH_BLESS").is_some() {
        std::fs::create_dir_all(format!("{}/tests/data", env!("CARGO_MANIFEST_DIR"))).unwrap();
        std::fs::write(&path, fresh).unwrap();
    }
    std::fs::read(&path).unwrap_or_else(|e| {
        panic!("{path}: {e} (create it with SIMHASH_BLESS=1 cargo test --test snapshot golden)")
    })
}

#[test]
fn golden_v1_index_snapshot() {
    let entries = golden_entries();
    let fresh = snapshot::encode_index(3, false, &[16, 16, 16, 16], Some(&golden_options()), entries.clone());
    let bytes = golden("golden_v1.snap", &fresh);
    // Pinned: if this changes, the format changed; that needs a new FORMAT_VERSION and a
    // new golden file, with the v1 reader kept.
    assert_eq!(
        (bytes.len(), simhash_wasm::__private::hash::hash_bytes(&bytes)),
        (1545, 0x4c89_6cb5_2ff2_60e1),
        "golden_v1.snap changed"
    );
    let p = snapshot::decode_index::<u64>(&bytes).unwrap();
    assert_eq!(
        (p.k, p.probe, p.widths.clone(), p.scheme),
        (3, false, vec![16, 16, 16, 16], Some(golden_options()))
    );
    assert_eq!(p.entries, entries);
    assert_eq!(fresh, bytes, "encoding drifted from the v1 golden file");
    // It answers exactly.
    let fps: Vec<u64> = entries.iter().map(|e| e.1).collect();
    let set = CompactSet::from_sorted(&fps).unwrap();
    let mut rng = Rng(9);
    for _ in 0..200 {
        let x = fps[rng.below(fps.len() as u64) as usize];
        let d = rng.below(5) as u32;
        let q = rng.flip(x, d);
        assert_eq!(set.find_within(q, 3), brute_within(&fps, q, 3));
    }
}

#[test]
fn golden_fingerprint_sets_of_both_versions() {
    let fps: Vec<u64> = golden_entries().iter().map(|e| e.1).collect();
    let v1 = golden("golden_v1.fset", &CompactSet::with_version(&fps, 16, 1).unwrap().to_bytes());
    let v2 = golden("golden_v2.fset", &CompactSet::with_version(&fps, 16, 2).unwrap().to_bytes());
    // Pinned: a change here is a format change (a new version, the old reader kept).
    assert_eq!(
        [
            (v1.len(), simhash_wasm::__private::hash::hash_bytes(&v1)),
            (v2.len(), simhash_wasm::__private::hash::hash_bytes(&v2))
        ],
        [(1400, 0x5a06_d095_ea58_9572), (1377, 0xe98e_ccf0_19cd_1894)],
        "golden_v1.fset / golden_v2.fset changed"
    );
    assert_eq!((&v1[8..12], &v2[8..12]), (&1u32.to_le_bytes()[..], &2u32.to_le_bytes()[..]));
    let (a, b) = (CompactSet::from_bytes(&v1).unwrap(), CompactSet::from_bytes(&v2).unwrap());
    assert_eq!((a.version(), b.version()), (1, 2));
    assert_eq!(a.to_vec(), fps);
    assert_eq!(b.to_vec(), fps);
    // Each re-encodes to its own bytes; today's default writes version 2.
    assert_eq!(a.to_bytes(), v1, "encoding drifted from the v1 golden file");
    assert_eq!(b.to_bytes(), v2, "encoding drifted from the v2 golden file");
    // The default picks the smaller coding for the data.
    let chosen = CompactSet::with_block_size(&fps, 16).unwrap().to_bytes();
    assert_eq!(chosen, if v2.len() < v1.len() { v2.clone() } else { v1.clone() });
    // The teaching form (the demo's Huffman panel) is the same whatever the coding.
    assert_eq!(a.huffman_table(), b.huffman_table());
    let mut rng = Rng(10);
    for _ in 0..300 {
        let (x, d) = (fps[rng.below(fps.len() as u64) as usize], rng.below(5) as u32);
        let q = rng.flip(x, d);
        let want = brute_within(&fps, q, 3);
        assert_eq!((a.find_within(q, 3), b.find_within(q, 3)), (want.clone(), want));
    }
    assert!(CompactSet::with_version(&fps, 16, 3).is_err());
}

#[test]
fn both_codings_round_trip_every_shape() {
    let mut rng = Rng(0xF5E7);
    for shape in 0..6 {
        for n in [0usize, 1, 2, 17, 300, 5000] {
            let fps = make_set(&mut rng, shape, n);
            for block in [1u32, 7, 128] {
                let sizes: Vec<usize> = [1, 2]
                    .iter()
                    .map(|&version| {
                        let bytes = CompactSet::with_version(&fps, block, version).unwrap().to_bytes();
                        let set = CompactSet::from_bytes(&bytes).unwrap();
                        assert_eq!(set.to_vec(), fps, "shape {shape} n {n} block {block} v{version}");
                        exercise(&set, &bytes);
                        bytes.len()
                    })
                    .collect();
                if shape == 0 && n >= 300 && block == 128 {
                    assert!(sizes[1] < sizes[0], "random sets: the gap code is smaller ({sizes:?})");
                }
                let chosen = CompactSet::with_block_size(&fps, block).unwrap().to_bytes().len();
                assert!(
                    chosen <= sizes[0].min(sizes[1]) + 1,
                    "the default picks the smaller: {chosen} {sizes:?}"
                );
            }
        }
    }
}

#[test]
fn a_snapshot_with_an_id_stored_twice_is_corrupt() {
    // Among many entries, so the id map's build meets the duplicate after its tag filter.
    let mut rng = Rng(0xD0B);
    for n in [2usize, 50, 20_000] {
        let fps = make_set(&mut rng, 0, n);
        let mut ids: Vec<(u64, u64)> = fps.iter().enumerate().map(|(i, &f)| (i as u64 * 3, f)).collect();
        let dup = ids[rng.below(n as u64) as usize].0;
        ids[rng.below(n as u64) as usize].0 = dup;
        ids[0].0 = dup;
        ids[n - 1].0 = dup;
        let bytes = snapshot::encode_index(3, false, &[16; 4], None, ids.clone());
        let e = Index::<u64>::from_bytes(&bytes).unwrap_err();
        assert_eq!(e.code(), "Corrupt", "{e}");
        assert!(e.to_string().contains(&format!("id {dup} is stored twice")), "{e}");
        let strings = ids.iter().map(|(i, f)| (format!("u{i}"), *f));
        let bytes = snapshot::encode_index(3, false, &[16; 4], None, strings);
        assert!(Index::<String>::from_bytes(&bytes).unwrap_err().to_string().contains("stored twice"));
        // Without the duplicate it loads.
        ids[0].0 = u64::MAX;
        ids[n - 1].0 = u64::MAX - 1;
        ids.sort();
        ids.dedup_by_key(|e| e.0);
        let bytes = snapshot::encode_index(3, false, &[16; 4], None, ids.clone());
        assert_eq!(Index::<u64>::from_bytes(&bytes).unwrap().len(), ids.len());
    }
}

#[test]
fn golden_v1_idf_table() {
    let t = golden_idf();
    let bytes = golden("golden_v1.idf", &t.to_bytes());
    assert_eq!(
        (bytes.len(), simhash_wasm::__private::hash::hash_bytes(&bytes)),
        (474, 0x1e0e_6425_f0b4_3af2),
        "golden_v1.idf changed"
    );
    let back = IdfTable::from_bytes(&bytes).unwrap();
    assert_eq!(back, t);
    assert_eq!(back.to_bytes(), bytes, "encoding drifted from the v1 golden file");
    assert_eq!(back.documents(), 20);
}

// ---------------------------------------------------------------------------------------
// Index::to_bytes / from_bytes
// ---------------------------------------------------------------------------------------

use simhash_wasm::__private::index::brute_force;
use simhash_wasm::index::{Index, Layout};

fn sorted_entries<I: simhash_wasm::IndexId>(index: &Index<I>) -> Vec<(I, u64)> {
    let mut v: Vec<(I, u64)> = index.iter().map(|(i, f)| (i.clone(), f)).collect();
    v.sort();
    v
}

#[test]
fn index_round_trip_answers_like_brute_force() {
    let mut rng = Rng(11);
    let layouts = [
        Layout::default_for_k(3).unwrap(),
        Layout::new(2, &[10, 10, 11, 11, 22]).unwrap(),
        Layout::probe(2).unwrap(),
        Layout::default_for_k(0).unwrap(),
    ];
    for (li, layout) in layouts.iter().enumerate() {
        for shape in 0..6 {
            let n = [0usize, 1, 129, 700][(li + shape as usize) % 4];
            let fps = make_set(&mut rng, shape, n);
            let entries: Vec<(u64, u64)> = fps.iter().map(|&f| (rng.next() >> rng.below(60), f)).collect();
            let mut entries = entries;
            entries.sort();
            entries.dedup_by_key(|e| e.0);
            let mut index = Index::build(layout.clone(), entries.clone()).unwrap();
            // Removals and later inserts must not leak into the snapshot.
            if let Some(&(id, _)) = entries.first() {
                index.remove(&id).unwrap();
                entries.remove(0);
            }
            index.insert(u64::MAX, 12345).unwrap();
            entries.push((u64::MAX, 12345));
            let bytes = index.to_bytes();
            let back = Index::<u64>::from_bytes(&bytes).unwrap();
            assert_eq!(back.layout(), layout);
            assert_eq!(back.scheme(), None);
            assert_eq!(sorted_entries(&back), sorted_entries(&index));
            assert_eq!(back.to_bytes(), bytes);
            for _ in 0..20 {
                let q = if fps.is_empty() {
                    rng.next()
                } else {
                    let x = fps[rng.below(fps.len() as u64) as usize];
                    let d = rng.below(5) as u32;
                    rng.flip(x, d)
                };
                assert_eq!(back.query(q), brute_force::query(&entries, q, layout.k()));
            }
        }
    }
}

#[test]
fn index_string_and_u32_ids_and_schemes() {
    let opts = Options { tokenizer: Tokenizer::Words(2), ..Options::default() };
    let mut s: Index<String> = Index::build(
        Layout::default_for_k(3).unwrap(),
        vec![
            ("https://a.example/x".to_string(), 5u64),
            ("https://a.example/y".into(), 5),
            ("ü".into(), 1 << 63),
        ],
    )
    .unwrap();
    s.set_scheme(Some(opts)).unwrap();
    let b = s.to_bytes();
    let back = Index::<String>::from_bytes_expecting(&b, Some(&opts)).unwrap();
    assert_eq!(sorted_entries(&back), sorted_entries(&s));
    assert_eq!(back.scheme(), Some(opts));
    let e = Index::<String>::from_bytes_expecting(&b, Some(&Options::default())).unwrap_err();
    assert!(matches!(e, Error::SchemeMismatch { field: "tokenizer", .. }), "{e:?}");
    assert!(e.to_string().contains("settings"), "{e}");
    let e = Index::<String>::from_bytes_expecting(&b, None).unwrap_err();
    assert_eq!(e.code(), "SchemeMismatch");
    // The wrong id type is refused by name.
    let e = Index::<u64>::from_bytes(&b).unwrap_err();
    assert!(e.to_string().contains("string"), "{e}");
    let u: Index<u32> = Index::build(Layout::probe(1).unwrap(), vec![(7u32, 9u64), (u32::MAX, 8)]).unwrap();
    let back = Index::<u32>::from_bytes(&u.to_bytes()).unwrap();
    assert_eq!(sorted_entries(&back), sorted_entries(&u));
    assert!(back.layout().is_probe());
}

#[test]
fn index_snapshot_with_forged_contents_is_refused() {
    // Duplicate ids and an impossible layout, each with a valid checksum.
    let dup = snapshot::encode_index(3, false, &[16; 4], None, vec![(1u64, 5u64), (1, 6)]);
    let e = Index::<u64>::from_bytes(&dup).unwrap_err();
    assert!(e.to_string().contains("twice"), "{e}");
    let bad = snapshot::encode_index(3, false, &[32, 32], None, vec![(1u64, 5u64)]);
    assert_eq!(Index::<u64>::from_bytes(&bad).unwrap_err().code(), "Corrupt");
    let bad = snapshot::encode_index(1, true, &[32, 32], None, vec![(1u64, 5u64)]);
    assert_eq!(Index::<u64>::from_bytes(&bad).unwrap_err().code(), "Corrupt");
    for len in 0..dup.len() {
        assert!(Index::<u64>::from_bytes(&dup[..len]).is_err());
    }
}

#[test]
fn golden_v1_loads_as_an_index() {
    let bytes = std::fs::read(format!("{}/tests/data/golden_v1.snap", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let index = Index::<u64>::from_bytes_expecting(&bytes, Some(&golden_options())).unwrap();
    let entries = golden_entries();
    assert_eq!(index.len(), entries.len());
    assert_eq!(index.layout().widths(), &[16, 16, 16, 16]);
    let mut rng = Rng(10);
    for _ in 0..100 {
        let x = entries[rng.below(entries.len() as u64) as usize].1;
        let d = rng.below(5) as u32;
        let q = rng.flip(x, d);
        assert_eq!(index.query(q), brute_force::query(&entries, q, 3));
    }
    assert_eq!(index.to_bytes(), bytes);
}

// ---------------------------------------------------------------------------------------
// ContentSeen snapshots (SEEN): a golden file too
// ---------------------------------------------------------------------------------------

#[cfg(feature = "html")]
use simhash_wasm::html::BlockHash;
use simhash_wasm::{ContentSeen, SeenConfig};

/// Pages, near-duplicates (aliases), a page seen again and non-ASCII URLs, from fixed
/// fingerprints: the file pins the SEEN container, not the fingerprint scheme.
fn golden_seen() -> ContentSeen {
    let layout = Layout::new(3, &[16, 16, 16, 16]).unwrap();
    let config = SeenConfig {
        k: 3,
        layout: Some(layout),
        options: golden_options(),
        sketch: None,
        threshold: 0.81,
        ..SeenConfig::default() // html: false
    };
    let mut s = ContentSeen::new(config).unwrap();
    let mut rng = Rng(0x5EE);
    for i in 0..40 {
        let url = format!("https://site{}.example/page/{i}", i % 3);
        let fp = rng.next();
        s.check_fingerprint(&url, fp);
        if i % 4 == 0 {
            let d = 1 + rng.below(3) as u32;
            s.check_fingerprint(&format!("https://mirror.example/ü/{i}"), rng.flip(fp, d));
        }
        if i % 5 == 0 {
            s.check_fingerprint(&url, fp ^ 1);
        }
    }
    s
}

#[test]
fn golden_v1_content_seen() {
    let seen = golden_seen();
    let fresh = seen.to_bytes();
    let bytes = golden("golden_v1.seen", &fresh);
    assert_eq!(
        (bytes.len(), simhash_wasm::__private::hash::hash_bytes(&bytes)),
        (3414, 0x61ac_fdbc_7142_e91d),
        "golden_v1.seen changed"
    );
    // Written by the code before the snapshot/ and seen/ split, read by this one.
    assert_eq!(fresh, bytes, "encoding drifted from the v1 golden file");
    let back = ContentSeen::from_bytes(&bytes, None).unwrap();
    assert_eq!(back.to_bytes(), bytes);
    assert_eq!(back.clusters(), seen.clusters());
    assert_eq!((back.len(), back.duplicate_urls()), (40, 10));
    assert_eq!(back.count("https://mirror.example/ü/8"), Some(2));
    assert_eq!(back.count("https://site0.example/page/0"), Some(3));
}

// ---------------------------------------------------------------------------------------
// Format version 2: sketches in INDX and SEEN
// ---------------------------------------------------------------------------------------

/// A deterministic sketch for entry `i`: a shingle set drawn from `i / 3`'s (so entries
/// come in similar threes).
fn entry_sketch(scheme: SketchScheme, i: u64) -> Sketch {
    let mut rng = Rng(0x5C + i / 3);
    let mut set: Vec<u64> = (0..20 + (i % 7) * 9).map(|_| rng.next()).collect();
    set.push(i);
    Sketch::from_shingles(scheme, &set)
}

/// An INDX version 2 of `entries` (sorted here), every third entry without a sketch.
fn sketched_index<I: simhash_wasm::snapshot::SnapshotId + Ord + Clone>(
    entries: &[(I, u64)],
    scheme: SketchScheme,
) -> Vec<u8> {
    let mut sorted: Vec<&(I, u64)> = entries.iter().collect();
    sorted.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
    let refs: Vec<(&I, u64)> = sorted.iter().map(|e| (&e.0, e.1)).collect();
    let sketches: Vec<Option<Sketch>> =
        (0..refs.len() as u64).map(|i| (i % 3 != 2).then(|| entry_sketch(scheme, i))).collect();
    let column: Vec<Option<&Sketch>> = sketches.iter().map(Option::as_ref).collect();
    snapshot::encode_sorted_index_with_sketches(
        3,
        false,
        &[16, 16, 16, 16],
        Some(&Options::default()),
        &refs,
        Some((scheme, &column)),
    )
}

#[test]
fn golden_v2_index_snapshot() {
    let entries = golden_entries();
    let scheme = SketchScheme::default();
    let fresh = sketched_index(&entries, scheme);
    let bytes = golden("golden_v2.snap", &fresh);
    assert_eq!(&bytes[8..12], &2u32.to_le_bytes(), "format version 2");
    assert_eq!(
        (bytes.len(), simhash_wasm::__private::hash::hash_bytes(&bytes)),
        (GOLDEN_V2_SNAP_LEN, GOLDEN_V2_SNAP_HASH),
        "golden_v2.snap changed"
    );
    assert_eq!(fresh, bytes, "encoding drifted from the v2 golden file");
    let p = snapshot::decode_index::<u64>(&bytes).unwrap();
    assert_eq!(p.entries, entries);
    let column = p.sketches.clone().expect("a version-2 snapshot has sketches");
    assert_eq!(column.scheme, scheme);
    assert_eq!(column.sketches.len(), entries.len());
    for (i, s) in column.sketches.iter().enumerate() {
        let want = (i % 3 != 2).then(|| entry_sketch(scheme, i as u64));
        assert_eq!(s, &want, "entry {i}");
    }
    // The v1 twin holds the same entries; an Index loads v2 and ignores the sketches.
    let v1 = std::fs::read(format!("{}/tests/data/golden_v1.snap", env!("CARGO_MANIFEST_DIR"))).unwrap();
    assert_eq!(snapshot::decode_index::<u64>(&v1).unwrap().sketches, None);
    let index = Index::<u64>::from_bytes(&bytes).unwrap();
    assert_eq!(index.len(), entries.len());
    assert_eq!(sorted_entries(&index), entries);
}

/// Pinned: if these change, the format changed (a new version, the v2 reader kept).
const GOLDEN_V2_SNAP_LEN: usize = 19110;
const GOLDEN_V2_SNAP_HASH: u64 = 0x0f60_aaa6_6205_8291;

#[test]
fn index_v2_bad_sketch_columns_are_refused() {
    let entries: Vec<(u64, u64)> = (0..10).map(|i| (i, i * 0x1234_5678)).collect();
    let good = sketched_index(&entries, SketchScheme::new(32).unwrap());
    assert!(snapshot::decode_index::<u64>(&good).is_ok());
    // Every truncation is Corrupt (a cut envelope, or a cut column once resealed with the
    // length fixed).
    for cut in 0..good.len() {
        let e = snapshot::decode_index::<u64>(&good[..cut]).unwrap_err();
        assert_eq!(e.code(), "Corrupt", "cut at {cut}: {e}");
        if cut > 24 {
            let mut v = good[..cut].to_vec();
            let len = (cut - 24) as u64;
            v[12..20].copy_from_slice(&len.to_le_bytes());
            v.extend_from_slice(&[0; 4]);
            reseal(&mut v);
            let e = snapshot::decode_index::<u64>(&v).unwrap_err();
            assert_eq!(e.code(), "Corrupt", "payload cut at {cut}: {e}");
        }
    }
    // The column's fields: sketch version, size, presence bits (from the end: 10 entries,
    // 7 sketches of 32 bytes, 2 bytes of bits, 2 of size, 1 of version).
    let col = good.len() - 4 - 7 * 32 - 2 - 2 - 1;
    let forge = |at: usize, v: u8| {
        let mut b = good.clone();
        b[at] = v;
        reseal(&mut b);
        snapshot::decode_index::<u64>(&b).unwrap_err()
    };
    let e = forge(col, 2);
    assert!(matches!(e, Error::SchemeMismatch { .. }) && e.to_string().contains("sk2"), "{e}");
    let e = forge(col + 1, 40); // size 40: a valid scheme, but not the bytes present
    assert!(e.code() == "Corrupt" && e.to_string().contains("sk1:40"), "{e}");
    let e = forge(col + 1, 33); // not a scheme
    assert!(e.code() == "Corrupt" && e.to_string().contains("33"), "{e}");
    let e = forge(col + 4, 0b0000_0111); // bits beyond entry 10
    assert!(e.code() == "Corrupt" && e.to_string().contains("beyond"), "{e}");
}

/// A sketching ContentSeen: sketched pages, near-duplicates found by sketch and by
/// fingerprint, pages stored from a fingerprint alone.
fn golden_seen_v2() -> ContentSeen {
    let layout = Layout::new(3, &[16, 16, 16, 16]).unwrap();
    let config = SeenConfig {
        k: 3,
        layout: Some(layout),
        options: golden_options(),
        sketch: Some(SketchScheme::default()),
        threshold: 0.75,
        ..SeenConfig::default() // html: false
    };
    let mut s = ContentSeen::new(config).unwrap();
    let mut rng = Rng(0x5EE2);
    for i in 0..30u64 {
        let url = format!("https://site{}.example/päge/{i}", i % 3);
        let fp = rng.next();
        if i % 7 == 6 {
            s.check_fingerprint(&url, fp);
            continue;
        }
        // i and i + 1 share their shingle base when i is even: found by the bands.
        let c = s.check_fingerprint_and_sketch(&url, fp, entry_sketch(SketchScheme::default(), i)).unwrap();
        assert!(!c.duplicate || i % 3 != 0, "{c:?}");
    }
    s
}

#[test]
fn golden_v2_content_seen() {
    let seen = golden_seen_v2();
    assert!(seen.duplicate_urls() > 0 && seen.sketched() > 0 && seen.sketched() < seen.len());
    let fresh = seen.to_bytes();
    let bytes = golden("golden_v2.seen", &fresh);
    assert_eq!(&bytes[8..12], &2u32.to_le_bytes(), "format version 2");
    assert_eq!(
        (bytes.len(), simhash_wasm::__private::hash::hash_bytes(&bytes)),
        (GOLDEN_V2_SEEN_LEN, GOLDEN_V2_SEEN_HASH),
        "golden_v2.seen changed"
    );
    assert_eq!(fresh, bytes, "encoding drifted from the v2 golden file");
    let back = ContentSeen::from_bytes(&bytes, None).unwrap();
    assert_eq!(back.to_bytes(), bytes);
    assert_eq!(back.clusters(), seen.clusters());
    assert_eq!(back.config(), seen.config());
    assert_eq!((back.len(), back.sketched()), (seen.len(), seen.sketched()));
    for (id, _) in seen.index().iter() {
        assert_eq!(back.sketch_of(id), seen.sketch_of(id), "{id}");
    }
    // Same settings load; another sketch size or none is refused.
    assert!(ContentSeen::from_bytes(&bytes, Some(seen.config())).is_ok());
    for sketch in [Some(SketchScheme::new(64).unwrap()), None] {
        let other = SeenConfig { sketch, ..seen.config().clone() };
        let e = ContentSeen::from_bytes(&bytes, Some(&other)).unwrap_err();
        assert!(matches!(e, Error::SchemeMismatch { field: "sketch", .. }), "{e:?}");
        assert!(e.to_string().contains("sk1:128"), "{e}");
    }
    // Truncated anywhere: Corrupt.
    for cut in 0..bytes.len() {
        assert_eq!(ContentSeen::from_bytes(&bytes[..cut], None).unwrap_err().code(), "Corrupt", "cut {cut}");
    }
}

const GOLDEN_V2_SEEN_LEN: usize = 4920;
const GOLDEN_V2_SEEN_HASH: u64 = 0xfd32_e7a3_b4bd_05e9;

#[test]
fn v1_content_seen_loads_into_a_sketching_config() {
    let path = format!("{}/tests/data/golden_v1.seen", env!("CARGO_MANIFEST_DIR"));
    let v1 = std::fs::read(path).unwrap();
    let old = ContentSeen::from_bytes(&v1, None).unwrap();
    assert_eq!(old.config().sketch, None, "a v1 file on its own is fingerprint-only");
    let config = SeenConfig { sketch: Some(SketchScheme::default()), ..old.config().clone() };
    let mut s = ContentSeen::from_bytes(&v1, Some(&config)).unwrap();
    assert_eq!(s.config().sketch, Some(SketchScheme::default()));
    assert_eq!((s.len(), s.sketched()), (old.len(), 0));
    assert_eq!(s.clusters(), old.clusters());
    // A stored page without a sketch matches by fingerprint within k, with no estimate.
    let page = old.clusters()[0].clone();
    let sketch = entry_sketch(SketchScheme::default(), 1);
    let c = s
        .check_fingerprint_and_sketch("https://new.example/1", page.fingerprint ^ 0b101, sketch.clone())
        .unwrap();
    assert!(c.duplicate && c.cluster == page.id && c.estimate.is_none() && c.distance == Some(2), "{c:?}");
    // A new page is stored with its sketch; the next save is version 2 and loads back.
    let c =
        s.check_fingerprint_and_sketch("https://new.example/2", !page.fingerprint, sketch.clone()).unwrap();
    assert!(!c.duplicate);
    let c = s
        .check_fingerprint_and_sketch("https://new.example/3", page.fingerprint.rotate_left(17), sketch)
        .unwrap();
    assert!(c.duplicate && c.cluster == "https://new.example/2" && c.estimate == Some(1.0), "{c:?}");
    let v2 = s.to_bytes();
    assert_eq!(&v2[8..12], &2u32.to_le_bytes());
    let back = ContentSeen::from_bytes(&v2, None).unwrap();
    assert_eq!((back.len(), back.sketched()), (old.len() + 1, 1));
    assert_eq!(back.to_bytes(), v2);
    // A fingerprint-only save of the old file is still version 1, byte for byte.
    assert_eq!(old.to_bytes(), v1);
}

/// A ContentSeen reading pages' main content (version 3): the golden v2 pages, read as HTML.
#[cfg(feature = "html")]
fn golden_seen_v3(sketch: Option<SketchScheme>) -> ContentSeen {
    let config = SeenConfig {
        html: true,
        content: simhash_wasm::html::Content::Main,
        sketch,
        template: 0,
        ..golden_seen_v2().config().clone()
    };
    let mut s = ContentSeen::new(config).unwrap();
    let mut rng = Rng(0x5EE3);
    for i in 0..20u64 {
        let url = format!("https://site{}.example/页/{i}", i % 2);
        match sketch {
            Some(scheme) => {
                s.check_fingerprint_and_sketch(&url, rng.next(), entry_sketch(scheme, i)).unwrap();
            }
            None => {
                s.check_fingerprint(&url, rng.next() & if i % 4 == 1 { 0 } else { u64::MAX });
            }
        }
    }
    s
}

#[test]
#[cfg(feature = "html")]
fn golden_v3_content_seen_reads_main_content_and_older_files_read_all() {
    use simhash_wasm::html::Content;
    let seen = golden_seen_v3(Some(SketchScheme::default()));
    assert!(seen.duplicate_urls() > 0 && seen.sketched() > 0);
    let fresh = seen.to_bytes();
    let bytes = golden("golden_v3.seen", &fresh);
    assert_eq!(&bytes[8..12], &3u32.to_le_bytes(), "format version 3");
    assert_eq!(
        (bytes.len(), simhash_wasm::__private::hash::hash_bytes(&bytes)),
        (GOLDEN_V3_SEEN_LEN, GOLDEN_V3_SEEN_HASH),
        "golden_v3.seen changed"
    );
    assert_eq!(fresh, bytes, "encoding drifted from the v3 golden file");
    let back = ContentSeen::from_bytes(&bytes, None).unwrap();
    assert_eq!(back.config(), seen.config());
    assert_eq!(back.config().content, Content::Main);
    assert_eq!(back.to_bytes(), bytes);
    assert_eq!(back.clusters(), seen.clusters());
    // Reading all the text instead is another setting.
    let all = SeenConfig { content: Content::All, ..seen.config().clone() };
    let e = ContentSeen::from_bytes(&bytes, Some(&all)).unwrap_err();
    assert!(matches!(e, Error::SchemeMismatch { field: "content", .. }), "{e:?}");
    // Fingerprint-only, main content: version 3 as well, without a sketch column.
    let fp_only = golden_seen_v3(None);
    let b = fp_only.to_bytes();
    assert_eq!(&b[8..12], &3u32.to_le_bytes());
    let back = ContentSeen::from_bytes(&b, None).unwrap();
    assert_eq!((back.config().sketch, back.config().content), (None, Content::Main));
    assert_eq!(back.to_bytes(), b);
    // A forged content byte is refused at its offset; every cut is Corrupt.
    for cut in 0..bytes.len() {
        assert_eq!(ContentSeen::from_bytes(&bytes[..cut], None).unwrap_err().code(), "Corrupt", "cut {cut}");
    }
    // Older files read all the visible text: a v2 file of an HTML test loads as `all`, and
    // the default (main content) refuses it.
    let mut v2 =
        ContentSeen::new(SeenConfig { html: true, content: Content::All, ..SeenConfig::default() }).unwrap();
    v2.check("https://a.example/", "<p>The quick brown fox jumps over the lazy dog.</p>").unwrap();
    let v2 = v2.to_bytes();
    assert_eq!(&v2[8..12], &2u32.to_le_bytes(), "reading all the text still writes version 2");
    assert_eq!(ContentSeen::from_bytes(&v2, None).unwrap().config().content, Content::All);
    let main = SeenConfig { html: true, ..SeenConfig::default() };
    let e = ContentSeen::from_bytes(&v2, Some(&main)).unwrap_err();
    assert!(matches!(e, Error::SchemeMismatch { field: "content", .. }), "{e:?}");
    assert!(e.to_string().contains("content = all"), "{e}");
}

/// A ContentSeen learning site templates (version 5): short pages and articles of two hosts.
#[cfg(feature = "html")]
fn golden_seen_templates() -> ContentSeen {
    let config = SeenConfig { html: true, template: 3, ..golden_seen_v2().config().clone() };
    let mut s = ContentSeen::new(config).unwrap();
    let mut rng = Rng(0x5EE4);
    let mut words = |n: usize| {
        (0..n)
            .map(|_| (0..5).map(|_| (b'a' + rng.below(26) as u8) as char).collect::<String>())
            .collect::<Vec<_>>()
            .join(" ")
    };
    for i in 0..12 {
        let site = i % 2;
        let own = if i % 3 == 0 { words(6) } else { format!("{}.</p><p>{}.", words(80), words(80)) };
        // The footer's count changes from page to page: one block all the same.
        let page = format!(
            "<html><body><nav><a href=/>Site {site} home</a> <a href=/about>About site {site}</a></nav>\
             <main><p>{own}</p></main><footer><p>Site {site} is written, edited and published by its readers, \
             every day of the year, from three cities.</p><p>{} readers online.</p></footer></body></html>",
            1000 + 37 * i
        );
        s.check(&format!("https://site{site}.example/页/{i}"), &page).unwrap();
    }
    s
}

/// The footer line of site `n`.
#[cfg(feature = "html")]
fn footer(n: u32) -> String {
    format!(
        "Site {n} is written, edited and published by its readers, every day of the year, from three cities."
    )
}

/// A new short page of site 0, with a reader count no page had.
#[cfg(feature = "html")]
const NEW_SHORT_PAGE: &str = "<html><body><nav><a href=/>Site 0 home</a> <a href=/about>About site 0</a></nav>\
    <main><p>Write to the editors of site zero, any day.</p></main><footer><p>Site 0 is written, \
    edited and published by its readers, every day of the year, from three cities.</p><p>1,234 readers online.</p></footer></body></html>";

#[test]
#[cfg(feature = "html")]
fn golden_v5_content_seen_keeps_its_templates_and_older_files_load_without() {
    let seen = golden_seen_templates();
    let model = seen.template().unwrap();
    assert_eq!(model.hash(), BlockHash::Numbers);
    assert_eq!((model.pages("site0.example"), model.pages("site1.example")), (6, 6));
    // The reader counts, each on one page, are one template block; so are lines that
    // differ from a template line by a number only.
    assert!(model.is_template("site0.example", "987 readers online."));
    assert!(model.is_template("site0.example", &footer(7)));
    let fresh = seen.to_bytes();
    let bytes = golden("golden_v5.seen", &fresh);
    assert_eq!(&bytes[8..12], &5u32.to_le_bytes(), "format version 5");
    assert_eq!(
        (bytes.len(), simhash_wasm::__private::hash::hash_bytes(&bytes)),
        (GOLDEN_V5_SEEN_LEN, GOLDEN_V5_SEEN_HASH),
        "golden_v5.seen changed"
    );
    assert_eq!(fresh, bytes, "encoding drifted from the v5 golden file");
    let mut back = ContentSeen::from_bytes(&bytes, None).unwrap();
    assert_eq!(back.config(), seen.config());
    assert_eq!(back.template(), seen.template());
    assert_eq!(back.to_bytes(), bytes);
    // The model survived: a new short page of site 0 is read without its template.
    let mut again = seen.clone();
    assert_eq!(
        back.check("https://site0.example/new", NEW_SHORT_PAGE).unwrap(),
        again.check("https://site0.example/new", NEW_SHORT_PAGE).unwrap()
    );
    // Equal models give equal bytes, whatever order they were learnt in.
    assert_eq!(back.to_bytes(), again.to_bytes());
    // Loaded with settings that do not learn, the model is dropped.
    let off = SeenConfig { template: 0, ..seen.config().clone() };
    assert!(ContentSeen::from_bytes(&bytes, Some(&off)).unwrap().template().is_none());
    // A version-3 file loads without learning, or with an empty model when asked to learn.
    let v3 = std::fs::read(format!("{}/tests/data/golden_v3.seen", env!("CARGO_MANIFEST_DIR"))).unwrap();
    assert!(ContentSeen::from_bytes(&v3, None).unwrap().template().is_none());
    let learn = SeenConfig { template: 3, ..ContentSeen::from_bytes(&v3, None).unwrap().config().clone() };
    let up = ContentSeen::from_bytes(&v3, Some(&learn)).unwrap();
    assert!(up.template().is_some_and(|m| m.is_empty() && m.hash() == BlockHash::Numbers));
    assert_eq!(&up.to_bytes()[8..12], &5u32.to_le_bytes());
    // Every cut is Corrupt.
    for cut in 0..bytes.len() {
        assert_eq!(ContentSeen::from_bytes(&bytes[..cut], None).unwrap_err().code(), "Corrupt", "cut {cut}");
    }
}

#[test]
#[cfg(feature = "html")]
fn golden_v4_content_seen_keeps_hashing_blocks_by_their_words() {
    // Written by the build before version 5 from the same pages without the reader counts.
    let bytes = std::fs::read(format!("{}/tests/data/golden_v4.seen", env!("CARGO_MANIFEST_DIR"))).unwrap();
    assert_eq!(&bytes[8..12], &4u32.to_le_bytes(), "format version 4");
    assert_eq!(
        (bytes.len(), simhash_wasm::__private::hash::hash_bytes(&bytes)),
        (GOLDEN_V4_SEEN_LEN, GOLDEN_V4_SEEN_HASH),
        "golden_v4.seen changed"
    );
    let mut back = ContentSeen::from_bytes(&bytes, None).unwrap();
    let model = back.template().unwrap();
    assert_eq!(model.hash(), BlockHash::Words);
    assert_eq!((model.pages("site0.example"), model.pages("site1.example")), (6, 6));
    assert!(model.is_template("site0.example", &footer(0)));
    assert!(!model.is_template("site0.example", &footer(7)), "words as written");
    assert_eq!(back.to_bytes(), bytes, "re-encoded byte for byte, as version 4");
    assert!(!back.check("https://site0.example/new", NEW_SHORT_PAGE).unwrap().duplicate);
    assert_eq!(back.template().unwrap().hash(), BlockHash::Words);
    assert_eq!(&back.to_bytes()[8..12], &4u32.to_le_bytes(), "still version 4 after learning");
    for cut in 0..bytes.len() {
        assert_eq!(ContentSeen::from_bytes(&bytes[..cut], None).unwrap_err().code(), "Corrupt", "cut {cut}");
    }
}

#[cfg(feature = "html")]
const GOLDEN_V5_SEEN_LEN: usize = 2964;
#[cfg(feature = "html")]
const GOLDEN_V5_SEEN_HASH: u64 = 0x2246_dbca_1892_20d4;

#[cfg(feature = "html")]
const GOLDEN_V4_SEEN_LEN: usize = 2940;
#[cfg(feature = "html")]
const GOLDEN_V4_SEEN_HASH: u64 = 0xb059_e977_a571_cd0c;

#[cfg(feature = "html")]
const GOLDEN_V3_SEEN_LEN: usize = 3284;
#[cfg(feature = "html")]
const GOLDEN_V3_SEEN_HASH: u64 = 0xe940_bf5a_fef2_bf81;
