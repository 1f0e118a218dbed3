//! Snapshot benchmark: size, encode and load times, in-place queries of the compact set.
//!
//! ```text
//! SIMHASH_DEVCORPUS=/work/main/target/devcorpus cargo bench --bench snapshot [-- --quick]
//! ```
//!
//! Reads `fp/set_1m.u64` and `fp/queries_1m.u64` (raw little-endian u64; `--quick`: the
//! 100k files) under `$SIMHASH_DEVCORPUS`, else `target/devcorpus`, and checks the
//! `contains_within` answers against `fp/truth_*.tsv` when present. Ends with one line
//! `RESULT n=… bits_per_fp=… encode_ms=… load_ms=… contains_qps=…` (native).

use std::time::Instant;

use simhash_wasm::index::{Index, Layout};
use simhash_wasm::snapshot::CompactSet;

mod common;
use common::corpus_dir;

fn read_u64s(path: &str) -> Vec<u64> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| {
        eprintln!("cannot read {path}: {e}; build the dev corpus or set SIMHASH_DEVCORPUS");
        std::process::exit(2)
    });
    bytes.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect()
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let dir = corpus_dir();
    let dir = dir.display();
    let tag = if quick { "100k" } else { "1m" };
    let raw = read_u64s(&format!("{dir}/fp/set_{tag}.u64"));
    let queries = read_u64s(&format!("{dir}/fp/queries_{tag}.u64"));
    let truth: Option<Vec<bool>> = std::fs::read_to_string(format!("{dir}/fp/truth_{tag}.tsv"))
        .ok()
        .map(|t| t.lines().map(|l| l.split('\t').nth(1).is_some_and(|m| !m.trim().is_empty())).collect());
    let n = raw.len();
    let mut sorted = raw.clone();
    sorted.sort_unstable();
    let floor = 64.0 - (n as f64).log2() + std::f64::consts::LOG2_E;
    println!("snapshot benchmark: n = {n}, {} queries, k = 3 (native)", queries.len());

    // Encode.
    let t = Instant::now();
    let set = CompactSet::from_sorted(&sorted).unwrap();
    let bytes = set.to_bytes();
    let encode_ms = ms(t);
    let bits = bytes.len() as f64 * 8.0 / n as f64;
    println!(
        "compact set: {} bytes = {bits:.3} bits/fp (payload {:.3}; floor 64 - log2 N + 1.44 = {floor:.3}; raw 64); encode {encode_ms:.1} ms",
        bytes.len(),
        set.bits_per_fingerprint()
    );

    // Load.
    let t = Instant::now();
    let loaded = CompactSet::from_bytes(&bytes).unwrap();
    let set_load_ms = ms(t);
    assert!(loaded == set);
    let t = Instant::now();
    let all = loaded.to_vec();
    let decode_all_ms = ms(t);
    assert_eq!(all, sorted);
    println!("set load (checksum + header + block table + validating decode): {set_load_ms:.1} ms; full decode to a Vec: {decode_all_ms:.1} ms");

    // Index snapshot: ids 0..n in the file's order.
    let layout = Layout::default_for_k(3).unwrap();
    let t = Instant::now();
    let index = Index::build(layout, raw.iter().enumerate().map(|(i, &f)| (i as u64, f))).unwrap();
    let build_ms = ms(t);
    let t = Instant::now();
    let snap = index.to_bytes();
    let snap_encode_ms = ms(t);
    if std::env::args().any(|a| a == "--profile-load") {
        // a fixed amount of loading, for perf / callgrind
        for _ in 0..10 {
            std::hint::black_box(Index::<u64>::from_bytes(&snap).unwrap());
        }
        return;
    }
    let t = Instant::now();
    let back = Index::<u64>::from_bytes(&snap).unwrap();
    let load_ms = ms(t);
    assert_eq!(back.len(), n);
    println!(
        "index snapshot ({}): {} bytes = {:.3} bits/entry (ids included); build {build_ms:.1} ms, to_bytes {snap_encode_ms:.1} ms, from_bytes (decode + rebuild) {load_ms:.1} ms",
        back.layout(),
        snap.len(),
        snap.len() as f64 * 8.0 / n as f64
    );

    // Queries in place.
    let t = Instant::now();
    let mut hits = 0usize;
    let mut wrong = 0usize;
    for (i, &q) in queries.iter().enumerate() {
        let h = loaded.contains_within(q, 3);
        hits += usize::from(h);
        if let Some(tr) = &truth {
            if tr.get(i).is_some_and(|&want| want != h) {
                wrong += 1;
            }
        }
    }
    let qs = t.elapsed().as_secs_f64();
    let qps = queries.len() as f64 / qs;
    println!(
        "contains_within(k=3) on the compact set: {qps:.0} queries/s ({:.1} us each), {hits} hits{}",
        qs * 1e6 / queries.len() as f64,
        if truth.is_some() { format!(", {wrong} disagreements with the truth file") } else { String::new() }
    );
    let t = Instant::now();
    let mut c = 0usize;
    for &q in &queries {
        c += usize::from(loaded.contains(q));
    }
    println!(
        "contains (exact): {:.0} queries/s ({c} hits)",
        queries.len() as f64 / t.elapsed().as_secs_f64()
    );
    let t = Instant::now();
    for &q in &queries {
        std::hint::black_box(back.query(q));
    }
    println!(
        "for comparison, Index::query (k=3, uncompressed tables): {:.0} queries/s",
        queries.len() as f64 / t.elapsed().as_secs_f64()
    );

    // Uniformly random fingerprints of the same count (splitmix64), the case the floor
    // is computed for; the corpus set above holds planted near-duplicates.
    let mut state = 0x5EED_u64;
    let mut uniform: Vec<u64> = (0..n)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            simhash_wasm::__private::hash::mix(state)
        })
        .collect();
    uniform.sort_unstable();

    // Block size trade-off.
    println!("\nblock size | bits/fp corpus | bits/fp uniform | contains_within k=3 queries/s (corpus)");
    for b in [32u32, 64, 128, 256, 512] {
        let s = CompactSet::with_block_size(&sorted, b).unwrap();
        let u = CompactSet::with_block_size(&uniform, b).unwrap();
        let nq = queries.len().min(3000);
        let t = Instant::now();
        for &q in &queries[..nq] {
            std::hint::black_box(s.contains_within(q, 3));
        }
        println!(
            "{b:>10} | {:>14.3} | {:>15.3} | {:>8.0}",
            s.to_bytes().len() as f64 * 8.0 / n as f64,
            u.to_bytes().len() as f64 * 8.0 / n as f64,
            nq as f64 / t.elapsed().as_secs_f64()
        );
    }
    let u = CompactSet::from_sorted(&uniform).unwrap();
    let rows = u.huffman_table();
    let coded: u64 = rows.iter().map(|r| r.1).sum();
    let mean_n = rows.iter().map(|r| if r.0 == 64 { 0.0 } else { r.1 as f64 * f64::from(r.0) }).sum::<f64>()
        / coded as f64;
    let mean_code = rows.iter().map(|r| r.1 as f64 * r.2.len() as f64).sum::<f64>() / coded as f64;
    let entropy = -rows
        .iter()
        .map(|r| {
            let p = r.1 as f64 / coded as f64;
            p * p.log2()
        })
        .sum::<f64>();
    println!(
        "uniform, where the bits go: mean n (low bits stored) {mean_n:.3} + mean Huffman code {mean_code:.3} (entropy of n {entropy:.3}) = {:.3} bits per coded fingerprint",
        mean_n + mean_code
    );
    println!(
        "uniform, block {}: {:.3} bits/fp, floor {floor:.3}, gap {:.3} bits",
        u.block_size(),
        u.to_bytes().len() as f64 * 8.0 / n as f64,
        u.to_bytes().len() as f64 * 8.0 / n as f64 - floor
    );

    println!(
        "\nHuffman code of n (the highest differing bit; 64 = repeat), block size {}:",
        set.block_size()
    );
    println!("symbol |     count | share  | code");
    let total: u64 = set.huffman_table().iter().map(|r| r.1).sum();
    for (s, count, code) in set.huffman_table() {
        let name = if s == 64 { "repeat".to_string() } else { s.to_string() };
        println!("{name:>6} | {count:>9} | {:>5.2}% | {code}", count as f64 * 100.0 / total.max(1) as f64);
    }
    println!(
        "\nRESULT n={n} bits_per_fp={bits:.3} encode_ms={encode_ms:.1} load_ms={load_ms:.1} contains_qps={qps:.0}"
    );
}
