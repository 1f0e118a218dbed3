//! The index against the brute-force oracle, for every layout below.
//!
//! Table-driven, like the aho-corasick crate's tests: one list of configurations, and every
//! property runs against every configuration as a test of its own (`testconfig!`), named
//! `property::configuration`, so the first failure does not hide the rest. Random data comes from a seeded
//! splitmix64, with neighbours planted at distances 0..=k+1 of random centres so that the
//! boundary (distance exactly k, and k + 1) is hit on every run.

mod common;
use common::Rng;

use simhash_wasm::__private::index::{brute_force, join_part, join_tables};
use simhash_wasm::index::{Index, IndexId, Layout, Match, Stats};
use simhash_wasm::Error;

struct Config {
    name: &'static str,
    layout: Layout,
    /// Random query cases to run (each against a random index).
    cases: usize,
}

fn config(name: &'static str, layout: Result<Layout, Error>, cases: usize) -> Config {
    Config { name, layout: layout.unwrap(), cases }
}

// The configurations. Each property below runs against each of them as a test of its own
// (named `property::configuration`), so one failing layout does not hide the others.

fn k3_4x16() -> Config {
    config("4x16 k=3", Layout::new(3, &[16, 16, 16, 16]), 10_000)
}
fn k3_16_12_12_12_12() -> Config {
    config("16,12,12,12,12 k=3", Layout::new(3, &[16, 12, 12, 12, 12]), 10_000)
}
fn k1_32_32() -> Config {
    config("32,32 k=1", Layout::new(1, &[32, 32]), 10_000)
}
fn k2_22_21_21() -> Config {
    config("22,21,21 k=2", Layout::new(2, &[22, 21, 21]), 10_000)
}
fn k3_10_10_11_11_11_11() -> Config {
    config("10,10,11,11,11,11 k=3", Layout::new(3, &[10, 10, 11, 11, 11, 11]), 10_000)
}
fn k4_even_6_blocks() -> Config {
    config("even k=4 6 blocks", Layout::even(4, 6), 10_000)
}
fn k0_64x1() -> Config {
    config("64 x 1 k=0", Layout::new(0, &[1; 64]), 10_000)
}
fn probe_k2() -> Config {
    config("probe k=2", Layout::probe(2), 10_000)
}
fn probe_k3() -> Config {
    config("probe k=3", Layout::probe(3), 1_000)
}

/// `testconfig!(property, config, ...)`: a module `property` with one `#[test]` per
/// configuration, each calling `property(&config())` (the aho-corasick crate's
/// `testconfig!` style).
macro_rules! testconfig {
    ($property:ident, $($config:ident),+ $(,)?) => {
        mod $property {
            $(
                #[test]
                fn $config() {
                    super::$property(&super::$config());
                }
            )+
        }
    };
}

/// [`testconfig!`] over every configuration.
macro_rules! every_config {
    ($property:ident) => {
        testconfig!(
            $property,
            k3_4x16,
            k3_16_12_12_12_12,
            k1_32_32,
            k2_22_21_21,
            k3_10_10_11_11_11_11,
            k4_even_6_blocks,
            k0_64x1,
            probe_k2,
            probe_k3,
        );
    };
}

impl Rng {
    /// `fp` with exactly `d` distinct bits flipped.
    fn flip(&mut self, fp: u64, d: u32) -> u64 {
        let mut mask = 0u64;
        while mask.count_ones() < d {
            mask |= 1 << self.below(64);
        }
        fp ^ mask
    }
    /// `fp` with `d` flips inside a narrow bit range (so many flips share a block).
    fn flip_clustered(&mut self, fp: u64, d: u32) -> u64 {
        let lo = self.below(56);
        let mut mask = 0u64;
        while mask.count_ones() < d {
            mask |= 1 << (lo + self.below(8));
        }
        fp ^ mask
    }
}

/// Random entries: centres with planted neighbours at 0..=k+1, plus noise.
fn random_entries(rng: &mut Rng, n: usize, k: u32, next_id: &mut u64) -> Vec<(u64, u64)> {
    let mut v = Vec::with_capacity(n);
    while v.len() < n {
        let centre = rng.next();
        let mut push = |fp: u64, v: &mut Vec<(u64, u64)>| {
            *next_id += 1 + (*next_id % 3); // gaps, not in fp order
            v.push((*next_id, fp));
        };
        push(centre, &mut v);
        let neighbours = rng.below(6);
        for _ in 0..neighbours {
            let d = rng.below(u64::from(k) + 2) as u32;
            let fp = if rng.below(2) == 0 { rng.flip(centre, d) } else { rng.flip_clustered(centre, d) };
            push(fp, &mut v);
        }
    }
    v.truncate(n);
    v
}

/// A query near some stored entry (at 0..=k+1), or a random one.
fn random_query(rng: &mut Rng, entries: &[(u64, u64)], k: u32) -> u64 {
    if entries.is_empty() || rng.below(8) == 0 {
        return rng.next();
    }
    let base = entries[rng.below(entries.len() as u64) as usize].1;
    let d = rng.below(u64::from(k) + 2) as u32;
    if rng.below(2) == 0 {
        rng.flip(base, d)
    } else {
        rng.flip_clustered(base, d)
    }
}

fn size(rng: &mut Rng) -> usize {
    match rng.below(4) {
        0 => rng.below(20) as usize,
        1 | 2 => 50 + rng.below(300) as usize,
        _ => 300 + rng.below(1500) as usize,
    }
}

fn check_query<I: IndexId>(cfg: &str, index: &Index<I>, oracle: &[(I, u64)], q: u64) {
    let k = index.layout().k();
    let got = index.query(q);
    let want = brute_force::query(oracle, q, k);
    assert_eq!(got, want, "{cfg}: query {q:#018x}, {} entries", oracle.len());
}

every_config!(query_matches_oracle_bulk_and_online);
fn query_matches_oracle_bulk_and_online(cfg: &Config) {
    let layout = cfg.layout.clone();
    let k = layout.k();
    let mut rng = Rng(0x5EED ^ cfg.cases as u64 ^ u64::from(k) << 32);
    let mut next_id = 0;
    let mut cases = 0;
    let mut round = 0;
    let mut boundary_hits = 0;
    while cases < cfg.cases {
        round += 1;
        let n = size(&mut rng);
        let entries = random_entries(&mut rng, n, k, &mut next_id);
        let index = if round % 2 == 0 {
            Index::build(layout.clone(), entries.clone()).unwrap()
        } else {
            let mut index = Index::new(layout.clone());
            for &(id, fp) in &entries {
                index.insert(id, fp).unwrap();
            }
            index
        };
        assert_eq!(index.len(), entries.len());
        for _ in 0..50 {
            let q = random_query(&mut rng, &entries, k);
            check_query(cfg.name, &index, &entries, q);
            boundary_hits += entries.iter().filter(|e| (e.1 ^ q).count_ones() == k).count().min(1);
            cases += 1;
        }
    }
    assert!(
        boundary_hits > cfg.cases / 20,
        "{}: distance exactly k hit only {boundary_hits} times",
        cfg.name
    );
}

every_config!(batch_and_flat_queries_agree);
fn batch_and_flat_queries_agree(cfg: &Config) {
    let layout = cfg.layout.clone();
    let k = layout.k();
    let mut rng = Rng(77);
    let mut next_id = 0;
    let mut entries = random_entries(&mut rng, 1700, k, &mut next_id);
    // bulk-built, and online-built (segments, write buffer, tombstones)
    let bulk = Index::build(layout.clone(), entries.clone()).unwrap();
    let mut online = Index::new(layout);
    for &(id, fp) in &entries {
        online.insert(id, fp).unwrap();
    }
    for _ in 0..300 {
        let i = rng.below(entries.len() as u64) as usize;
        let (id, _) = entries.swap_remove(i);
        online.remove(&id).unwrap();
    }
    assert!(online.stats().segments > 1 || online.stats().buffered > 0, "{}", cfg.name);
    for (index, entries) in
        [(bulk.clone(), bulk.iter().map(|(&i, f)| (i, f)).collect::<Vec<_>>()), (online, entries)]
    {
        let nq = if cfg.cases < 10_000 { 60 } else { 300 };
        let qs: Vec<u64> = (0..nq).map(|_| random_query(&mut rng, &entries, k)).collect();
        check_batch(cfg.name, &index, &entries, &qs, k);
    }
}

/// Checks `query_batch` and `query_batch_flat` over `qs` against brute force (and `count`),
/// in the callers' order; returns how many queries matched something.
fn check_batch(name: &str, index: &Index<u64>, entries: &[(u64, u64)], qs: &[u64], k: u32) -> usize {
    let batch = index.query_batch(qs);
    let flat = index.query_batch_flat(qs);
    assert_eq!(batch.len(), qs.len(), "{name}");
    let (mut row, mut matched) = (0, 0);
    for (qi, (&q, got)) in qs.iter().zip(&batch).enumerate() {
        let want = brute_force::query(entries, q, k);
        assert_eq!(got, &want, "{name}: batch of {}, query {qi}", qs.len());
        assert_eq!(index.count(q), got.len(), "{name}");
        matched += usize::from(!want.is_empty());
        for m in got {
            assert_eq!(
                (flat.queries[row] as usize, flat.ids[row], flat.distances[row]),
                (qi, m.id, m.distance)
            );
            row += 1;
        }
    }
    assert_eq!(flat.len(), row, "{name}");
    matched
}

// Batches of every length (a group of 16 queries, partial groups, many groups) against
// brute force, on a bulk-built index and an online one (several segments, the write
// buffer, tombstones), with a repeated query in the batch. Any other batch strategy (see
// docs/decisions/008-index-batch-queries.md) must pass this too.
every_config!(large_batches_match_oracle);
fn large_batches_match_oracle(cfg: &Config) {
    let layout = cfg.layout.clone();
    let k = layout.k();
    let mut rng = Rng(1616);
    let mut next_id = 0;
    let mut entries = random_entries(&mut rng, 2500, k, &mut next_id);
    let bulk = Index::build(layout.clone(), entries.clone()).unwrap();
    let bulk_entries: Vec<(u64, u64)> = bulk.iter().map(|(&i, f)| (i, f)).collect();
    let mut online = Index::new(layout);
    for &(id, fp) in &entries {
        online.insert(id, fp).unwrap();
    }
    for _ in 0..400 {
        let i = rng.below(entries.len() as u64) as usize;
        let (id, _) = entries.swap_remove(i);
        online.remove(&id).unwrap();
    }
    for extra in 0..7u64 {
        // a few entries left in the write buffer
        let (id, fp) = (1_000_000 + extra, random_query(&mut rng, &entries, k));
        online.insert(id, fp).unwrap();
        entries.push((id, fp));
    }
    assert!(online.stats().segments > 1 && online.stats().buffered > 0, "{}", cfg.name);
    for (index, entries) in [(&bulk, &bulk_entries), (&online, &entries)] {
        for nq in [63usize, 64, 65, 700] {
            let mut qs: Vec<u64> = (0..nq).map(|_| random_query(&mut rng, entries, k)).collect();
            qs[nq / 2] = qs[0]; // a repeated query
            let matched = check_batch(cfg.name, index, entries, &qs, k);
            assert!(matched * 4 > nq, "{}: only {matched} of {nq} queries matched anything", cfg.name);
        }
    }
}

every_config!(self_join_and_clusters_match_oracle);
fn self_join_and_clusters_match_oracle(cfg: &Config) {
    let layout = cfg.layout.clone();
    let k = layout.k();
    let mut rng = Rng(0xC1u64 << 8 | u64::from(k));
    let mut next_id = 0;
    let rounds = if layout.is_probe() { 40 } else { 60 };
    for round in 0..rounds {
        let n = size(&mut rng).min(600);
        let entries = random_entries(&mut rng, n, k, &mut next_id);
        let mut index = if round % 3 == 0 {
            Index::build(layout.clone(), entries.clone()).unwrap()
        } else {
            let mut index = Index::new(layout.clone());
            for &(id, fp) in &entries {
                index.insert(id, fp).unwrap();
            }
            index
        };
        let mut oracle = entries.clone();
        if round % 3 == 2 {
            // with tombstones
            for _ in 0..n / 5 {
                let i = rng.below(oracle.len() as u64) as usize;
                let (id, fp) = oracle.swap_remove(i);
                assert_eq!(index.remove(&id).unwrap(), fp);
            }
        }
        assert_eq!(index.self_join(), brute_force::self_join(&oracle, k), "{} round {round}", cfg.name);
        assert_eq!(index.clusters(), brute_force::clusters(&oracle, k), "{} round {round}", cfg.name);
    }
}

every_config!(join_parts_make_the_self_join);
/// The self-join split by tables (`join_part`, what the pool's workers compute): every
/// split of the tables, concatenated in order, is the whole join, and the parts of an
/// interleaved split (every `m`-th table) hold its pairs together; each pair comes once,
/// and the pairs are the brute-force oracle's, slots being positions in the fingerprints.
fn join_parts_make_the_self_join(cfg: &Config) {
    let layout = cfg.layout.clone();
    let k = layout.k();
    let mut rng = Rng(0x701u64 << 8 | u64::from(k));
    let mut next_id = 0;
    let tables = join_tables(&layout);
    assert!(tables >= 1, "{}", cfg.name);
    let mut found = 0;
    for round in 0..20 {
        let n = size(&mut rng).min(500);
        let entries = random_entries(&mut rng, n, k, &mut next_id);
        let fps: Vec<u64> = entries.iter().map(|e| e.1).collect();
        let whole = join_part(&layout, &fps, 0..tables);
        // Slots are positions: the oracle over (position, fingerprint).
        let by_position: Vec<(u64, u64)> = fps.iter().enumerate().map(|(i, &f)| (i as u64, f)).collect();
        let mut got: Vec<(u64, u64, u32)> =
            whole.iter().map(|&(x, y, d)| (u64::from(x.min(y)), u64::from(x.max(y)), d)).collect();
        let mut want: Vec<(u64, u64, u32)> =
            brute_force::self_join(&by_position, k).into_iter().map(|p| (p.a, p.b, p.distance)).collect();
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want, "{} round {round}", cfg.name);
        found += got.len();
        // A random split of the tables into parts (and a range past the end, cut to them).
        let mut cuts: Vec<usize> = (0..rng.below(4)).map(|_| rng.below(tables as u64 + 1) as usize).collect();
        cuts.extend([0, tables]);
        cuts.sort_unstable();
        let mut split: Vec<(u32, u32, u32)> =
            cuts.windows(2).flat_map(|w| join_part(&layout, &fps, w[0]..w[1])).collect();
        split.extend(join_part(&layout, &fps, tables..tables + 5));
        assert_eq!(split, whole, "{} round {round}: split at {cuts:?}", cfg.name);
        let m = 1 + rng.below(4) as usize;
        let mut dealt: Vec<(u32, u32, u32)> =
            (0..m).flat_map(|p| join_part(&layout, &fps, (p..tables).step_by(m))).collect();
        let mut sorted = whole.clone();
        dealt.sort_unstable();
        sorted.sort_unstable();
        assert_eq!(dealt, sorted, "{} round {round}: every {m}th table", cfg.name);
    }
    assert!(found > 20, "{}: {found} pairs in all rounds", cfg.name);
}

every_config!(online_inserts_removes_and_queries_interleaved);
fn online_inserts_removes_and_queries_interleaved(cfg: &Config) {
    let layout = cfg.layout.clone();
    let k = layout.k();
    let mut rng = Rng(0xAB ^ u64::from(k));
    let mut next_id = 0;
    let pool = random_entries(&mut rng, 3000, k, &mut next_id);
    let mut index = Index::new(layout);
    let mut oracle: Vec<(u64, u64)> = Vec::new();
    let steps = if cfg.cases < 10_000 { 1500 } else { 6000 };
    let mut p = 0;
    for step in 0..steps {
        match rng.below(10) {
            0..=4 if p < pool.len() => {
                let (id, fp) = pool[p];
                p += 1;
                if rng.below(4) == 0 {
                    let got = index.query_and_insert(id, fp).unwrap();
                    assert_eq!(got, brute_force::query(&oracle, fp, k), "{} step {step}", cfg.name);
                } else {
                    index.insert(id, fp).unwrap();
                }
                oracle.push((id, fp));
            }
            5..=6 if !oracle.is_empty() => {
                let i = rng.below(oracle.len() as u64) as usize;
                let (id, fp) = oracle.swap_remove(i);
                assert_eq!(index.remove(&id).unwrap(), fp);
                assert!(matches!(index.remove(&id), Err(Error::UnknownId { .. })));
                if rng.below(3) == 0 {
                    // re-insert the same id, maybe with another fingerprint
                    let d = rng.below(3) as u32;
                    let fp2 = rng.flip(fp, d);
                    index.insert(id, fp2).unwrap();
                    oracle.push((id, fp2));
                }
            }
            _ => {
                let q = random_query(&mut rng, &oracle, k);
                check_query(cfg.name, &index, &oracle, q);
            }
        }
        assert_eq!(index.len(), oracle.len());
        if step % 997 == 0 {
            let mut live: Vec<(u64, u64)> = index.iter().map(|(&id, fp)| (id, fp)).collect();
            live.sort_unstable();
            let mut o = oracle.clone();
            o.sort_unstable();
            assert_eq!(live, o);
        }
    }
    index.compact();
    assert_eq!(index.stats().segments, usize::from(!oracle.is_empty()));
    for _ in 0..300 {
        let q = random_query(&mut rng, &oracle, k);
        check_query(cfg.name, &index, &oracle, q);
    }
    assert_eq!(index.self_join(), brute_force::self_join(&oracle, k), "{}", cfg.name);
}

// The configurations with the full number of cases (probing with k = 3 is slow).
testconfig!(
    string_ids,
    k3_4x16,
    k3_16_12_12_12_12,
    k1_32_32,
    k2_22_21_21,
    k3_10_10_11_11_11_11,
    k4_even_6_blocks,
    k0_64x1,
    probe_k2,
);
fn string_ids(cfg: &Config) {
    let layout = cfg.layout.clone();
    let k = layout.k();
    let mut rng = Rng(3);
    let mut next_id = 0;
    let entries: Vec<(String, u64)> = random_entries(&mut rng, 500, k, &mut next_id)
        .into_iter()
        .map(|(id, fp)| (format!("https://example.com/page/{id}"), fp))
        .collect();
    let mut index: Index<String> = Index::new(layout.clone());
    index.extend(entries[..250].iter().cloned()).unwrap();
    index.extend(entries[250..].iter().cloned()).unwrap();
    for e in &entries {
        check_query(cfg.name, &index, &entries, e.1);
    }
    let built = Index::build(layout, entries.clone()).unwrap();
    assert_eq!(built.self_join(), brute_force::self_join(&entries, k));
    assert_eq!(index.clusters(), brute_force::clusters(&entries, k));
    assert!(index.stats().bytes > built.stats().len * 24);
}

every_config!(empty_and_single);
fn empty_and_single(cfg: &Config) {
    let layout = cfg.layout.clone();
    let mut index: Index = Index::new(layout.clone());
    assert!(index.is_empty());
    assert_eq!(index.query(0), vec![]);
    assert_eq!(index.self_join(), vec![]);
    assert_eq!(index.clusters(), Vec::<Vec<u64>>::new());
    assert!(index.query_batch_flat(&[1, 2]).is_empty());
    assert_eq!(index.stats().bytes_per_fp, 0.0);
    let built: Index = Index::build(layout.clone(), vec![]).unwrap();
    assert!(built.is_empty() && built.query(5).is_empty());

    index.insert(42, 0xDEAD_BEEF).unwrap();
    assert_eq!(index.len(), 1);
    assert_eq!(index.query(0xDEAD_BEEF), vec![Match { id: 42, distance: 0 }]);
    assert_eq!(index.get(&42), Some(0xDEAD_BEEF));
    assert!(index.self_join().is_empty());
    assert_eq!(index.remove(&42).unwrap(), 0xDEAD_BEEF);
    assert!(index.is_empty());
    assert!(index.query(0xDEAD_BEEF).is_empty());
    index.compact();
    assert!(index.query(0xDEAD_BEEF).is_empty());
}

every_config!(all_equal_fingerprints_under_many_ids);
fn all_equal_fingerprints_under_many_ids(cfg: &Config) {
    let layout = cfg.layout.clone();
    let n = 600u64;
    let index = Index::build(layout.clone(), (0..n).map(|i| (n - i, 0x0123_4567_89AB_CDEF))).unwrap();
    let got = index.query(0x0123_4567_89AB_CDEF);
    assert_eq!(got, (1..=n).map(|id| Match { id, distance: 0 }).collect::<Vec<_>>(), "{}", cfg.name);
    assert_eq!(index.self_join().len() as u64, n * (n - 1) / 2);
    assert_eq!(index.clusters(), vec![(1..=n).collect::<Vec<_>>()]);
    let mut online = Index::new(layout);
    for i in 0..n {
        online.insert(i, 7).unwrap();
    }
    assert_eq!(online.query(7).len() as u64, n);
}

#[test]
fn duplicate_ids() {
    let layout = Layout::default_for_k(3).unwrap();
    let mut index: Index = Index::new(layout.clone());
    index.insert(1, 10).unwrap();
    let e = index.insert(1, 99).unwrap_err();
    assert_eq!(e, Error::DuplicateId { id: "1".into() });
    assert!(e.to_string().contains("already taken (in the index"));
    assert_eq!(index.get(&1), Some(10), "a refused insert changes nothing");
    assert!(index.query_and_insert(1, 5).is_err());
    assert_eq!(index.len(), 1);

    // build refuses duplicates
    assert!(matches!(
        Index::build(layout.clone(), vec![(1u64, 1u64), (2, 2), (1, 3)]),
        Err(Error::DuplicateId { .. })
    ));
    // extend is all or nothing
    let mut big: Index = Index::build(layout, (0..1000u64).map(|i| (i, i))).unwrap();
    let before: Vec<(u64, u64)> = big.iter().map(|(&i, f)| (i, f)).collect();
    let err = big.extend((5000..5300u64).map(|i| (i, i)).chain([(17, 0)])).unwrap_err();
    assert_eq!(err, Error::DuplicateId { id: "17".into() });
    assert_eq!(big.iter().map(|(&i, f)| (i, f)).collect::<Vec<_>>(), before);
    assert!(!big.contains(&5000));
    big.extend((5000..5300u64).map(|i| (i, i))).unwrap();
    assert_eq!(big.len(), 1300);
    assert!(big.extend([(9000, 1), (9000, 2)]).is_err());
    assert_eq!(big.len(), 1300);
}

#[test]
fn unknown_id_removal() {
    let mut index: Index = Index::new(Layout::default_for_k(3).unwrap());
    let e = index.remove(&5).unwrap_err();
    assert_eq!(e, Error::UnknownId { id: "5".into() });
    assert_eq!(e.to_string(), "id 5 is not in the index");
    let mut s: Index<String> = Index::new(Layout::probe(1).unwrap());
    assert_eq!(s.remove(&"https://x".to_string()), Err(Error::UnknownId { id: "\"https://x\"".into() }));
    // String ids are quoted in errors, as `dedup` quotes them, so an id with spaces reads whole.
    s.insert("a b".to_string(), 1).unwrap();
    let e = s.insert("a b".to_string(), 2).unwrap_err();
    assert_eq!(e, Error::DuplicateId { id: "\"a b\"".into() });
    let d = simhash_wasm::dedup::dedup(
        &[("a b", "one text of some words"), ("a b", "another text")],
        &Default::default(),
    );
    assert_eq!(d.unwrap_err(), e);
}

#[test]
fn invalid_layouts() {
    let cases: Vec<(Result<Layout, Error>, &str)> = vec![
        (Layout::new(3, &[22, 21, 21]), "at least 4 blocks"),
        (Layout::new(3, &[32, 32]), "at least 4 blocks"),
        (Layout::new(1, &[16, 16, 16]), "sum to 48"),
        (Layout::new(1, &[16, 16, 16, 17]), "sum to 65"),
        (Layout::new(1, &[32, 0, 32]), "block #1 has width 0"),
        (Layout::new(1, &[1; 65]), "at most 64 blocks"),
        (Layout::new(1, &[]), "no blocks"),
        (Layout::new(5, &[1; 64]), "tables"),
        (Layout::even(3, 0), "blocks"),
        (Layout::even(3, 65), "blocks"),
        (Layout::even(3, 3), "at least 4 blocks"),
        (Layout::default_for_k(64), "below 64"),
        (Layout::probe(5), "limit is k = 4"),
        (Layout::auto(1 << 20, 3, Some(1000)), "fits in 1000 bytes"),
    ];
    for (r, needle) in cases {
        let e = r.unwrap_err();
        assert_eq!(e.code(), "InvalidLayout");
        assert!(e.to_string().contains(needle), "{e} should mention {needle:?}");
    }
    // the largest valid shapes
    assert_eq!(Layout::new(0, &[1; 64]).unwrap().tables(), 1);
    assert_eq!(Layout::new(1, &[1; 64]).unwrap().tables(), 64);
    assert!(Layout::new(2, &[1; 64]).is_err()); // 2016 tables > MAX_TABLES
}

#[test]
fn layouts_and_stats() {
    let paper = Layout::new(3, &[16, 12, 12, 12, 12]).unwrap();
    assert_eq!(paper.tables(), 10);
    assert_eq!(paper.table_blocks()[0], vec![0, 1]);
    let d = Layout::default_for_k(3).unwrap();
    assert_eq!((d.k(), d.widths(), d.tables()), (3, &[16u32, 16, 16, 16][..], 4));
    assert_eq!(d.to_string(), "k=3 blocks=16,16,16,16 (4 tables)");
    assert_eq!(Layout::probe(3).unwrap().probes_per_query(), 43_745);
    assert_eq!(Layout::auto(1000, 3, None).unwrap().tables(), 4);

    let index: Index =
        Index::build(paper, (0..1u64 << 12).map(|i| (i, i.wrapping_mul(0x9E37_79B9_7F4A_7C15)))).unwrap();
    let s: Stats = index.stats();
    assert_eq!(s.len, 4096);
    assert_eq!(s.key_bits, vec![28, 28, 28, 28, 24, 24, 24, 24, 24, 24]);
    assert_eq!(s.expected_candidates_per_table[0], 1.0 / 65536.0);
    assert_eq!(s.expected_candidates_per_table[9], 1.0 / 4096.0);
    assert_eq!((s.segments, s.buffered, s.tombstones), (1, 0, 0));
    assert!(s.bytes_per_fp > 16.0 && s.bytes_per_fp < 150.0, "{}", s.bytes_per_fp);
}

every_config!(query_within_smaller_k);
fn query_within_smaller_k(cfg: &Config) {
    let mut rng = Rng(9 ^ cfg.cases as u64 ^ u64::from(cfg.layout.k()) << 32);
    let mut next_id = 0;
    let layout = cfg.layout.clone();
    let k = layout.k();
    let entries = random_entries(&mut rng, 400, k, &mut next_id);
    let index = Index::build(layout, entries.clone()).unwrap();
    for _ in 0..200 {
        let q = random_query(&mut rng, &entries, k);
        for k2 in 0..=k {
            assert_eq!(
                index.query_within(q, k2).unwrap(),
                brute_force::query(&entries, q, k2),
                "{}",
                cfg.name
            );
        }
    }
    assert!(index.query_within(0, k + 1).is_err());
}

#[test]
fn scheme_is_carried() {
    let mut index: Index = Index::new(Layout::default_for_k(3).unwrap());
    assert_eq!(index.scheme(), None);
    let opts = simhash_wasm::Options::default();
    index.set_scheme(Some(opts)).unwrap();
    index.extend([(1, 1), (2, 2)]).unwrap();
    assert_eq!(index.scheme(), Some(opts));
    index.compact();
    assert_eq!(index.scheme(), Some(opts));
    // A scheme no snapshot could hold is refused, and the recorded one stays.
    let bad = simhash_wasm::Options { tokenizer: simhash_wasm::Tokenizer::Chars(0), ..opts };
    let e = index.set_scheme(Some(bad)).unwrap_err();
    assert_eq!(e.code(), "InvalidOption", "{e}");
    assert_eq!(index.scheme(), Some(opts));
    assert_eq!(Index::<u64>::from_bytes(&index.to_bytes()).unwrap().scheme(), Some(opts));
}
