//! Native benchmark of the sketch band index (`simhash_wasm::sketch::bands`), the crawler
//! flow's candidate step: insert rate, bytes per entry, query rate and candidates per
//! query at N = 1M (or `--quick`: 100k).
//!
//! ```text
//! cargo bench --bench bands [-- --quick] [-- --bands-only]
//! ```
//!
//! Documents are synthetic shingle sets (20 to 400 distinct shingles, the dev corpus's
//! range), sketched with the default 128-byte scheme. Queries: near-duplicates of stored
//! documents (5% of the shingles replaced, J ≈ 0.9) and unrelated documents, half each.
//! Rates are per second of this thread's CPU time (the machine may be shared). The last line is `RESULT n=... bands=... qps=... qps_near=... qps_new=...
//! bytes_per_entry=... sketch_bytes=... insert_per_s=... remove_per_s=... cands_near=...
//! cands_new=... recall_near=...`.

use std::time::Instant;

use simhash_wasm::sketch::BandIndex;
use simhash_wasm::sketch::{Sketch, SketchScheme};

mod common;
use common::{cpu_seconds, Rng};

/// Document `i`'s shingle set (regenerable from `i`).
fn doc(i: u64) -> Vec<u64> {
    let mut rng = Rng(i.wrapping_mul(0xA24B_AED4_963E_E407) ^ 0x5EED);
    let n = 20 + rng.next() % 381;
    (0..n).map(|_| rng.next()).collect()
}

/// Document `i` with about 5% of its shingles replaced.
fn near(i: u64, salt: u64) -> Vec<u64> {
    let mut set = doc(i);
    let mut rng = Rng(i ^ salt.rotate_left(32));
    let m = set.len();
    for _ in 0..(m / 20).max(1) {
        let at = (rng.next() % m as u64) as usize;
        set[at] = rng.next();
    }
    set
}

/// Seconds since `t0`: this thread's CPU time where the OS reports it (the machine may be
/// shared), else wall time.
fn elapsed(t0: Instant, c0: Option<f64>) -> f64 {
    match (c0, cpu_seconds()) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => t0.elapsed().as_secs_f64(),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let n: u64 = if quick { 100_000 } else { 1_000_000 };
    let queries: u64 = if quick { 20_000 } else { 100_000 };
    let scheme = SketchScheme::default();

    let t0 = Instant::now();
    let sketches: Vec<Sketch> = (0..n).map(|i| Sketch::from_shingles(scheme, &doc(i))).collect();
    println!("sketched {n} synthetic documents in {:.2} s", t0.elapsed().as_secs_f64());

    let mut index = BandIndex::new(scheme);
    let (t0, c0) = (Instant::now(), cpu_seconds());
    for (i, s) in sketches.iter().enumerate() {
        index.insert(i as u32, s).expect("one scheme");
    }
    let insert_s = elapsed(t0, c0);
    let bytes = index.heap_bytes() as f64 / n as f64;
    println!(
        "inserted into {} bands in {insert_s:.2} s ({:.0} /s); tables {:.1} MB = {bytes:.1} bytes per entry (+ {} bytes of sketch)",
        index.bands(),
        n as f64 / insert_s,
        index.heap_bytes() as f64 / 1e6,
        scheme.size()
    );

    let near_q: Vec<(u64, Sketch)> = (0..queries / 2)
        .map(|q| {
            let i = q * 7919 % n;
            (i, Sketch::from_shingles(scheme, &near(i, q)))
        })
        .collect();
    let new_q: Vec<Sketch> = (0..queries / 2).map(|q| Sketch::from_shingles(scheme, &doc(n + q))).collect();
    let run = |index: &BandIndex, qs: &mut dyn Iterator<Item = &Sketch>| {
        let mut out = Vec::new();
        let (t0, c0) = (Instant::now(), cpu_seconds());
        let (mut count, mut cands) = (0u64, 0u64);
        for s in qs {
            index.query_into(s, &mut out).expect("one scheme");
            cands += out.len() as u64;
            count += 1;
        }
        (count as f64 / elapsed(t0, c0), cands as f64 / count as f64)
    };
    let (qps_near, cands_near) = run(&index, &mut near_q.iter().map(|q| &q.1));
    let (qps_new, cands_new) = run(&index, &mut new_q.iter());
    let both = near_q.iter().map(|q| &q.1).chain(new_q.iter()).collect::<Vec<_>>();
    let (qps, _) = run(&index, &mut both.into_iter());
    let found =
        near_q.iter().filter(|(i, s)| index.query(s).expect("one scheme").contains(&(*i as u32))).count();
    let recall_near = found as f64 / near_q.len() as f64;
    println!(
        "queries: {qps:.0} /s mixed; near-duplicates {qps_near:.0} /s ({cands_near:.2} candidates each, the original found in {:.4}); unrelated {qps_new:.0} /s ({cands_new:.3} candidates each)",
        recall_near
    );

    index.compact();
    let (qps_compact, _) = run(&index, &mut near_q.iter().map(|q| &q.1).chain(new_q.iter()));
    println!(
        "after compact() (write buffers merged): {qps_compact:.0} /s mixed, {:.1} bytes per entry",
        index.heap_bytes() as f64 / n as f64
    );
    let removals = (n / 10) as usize;
    let (t0, c0) = (Instant::now(), cpu_seconds());
    for (i, s) in sketches.iter().enumerate().take(removals) {
        assert!(index.remove(i as u32, s).expect("one scheme"));
    }
    let remove_per_s = removals as f64 / elapsed(t0, c0);
    println!("removed {removals} entries: {remove_per_s:.0} /s; {} left", index.len());
    println!(
        "RESULT n={n} bands={} qps={qps:.0} qps_compact={qps_compact:.0} qps_near={qps_near:.0} qps_new={qps_new:.0} bytes_per_entry={bytes:.1} sketch_bytes={} insert_per_s={:.0} remove_per_s={remove_per_s:.0} cands_near={cands_near:.2} cands_new={cands_new:.3} recall_near={recall_near:.4}",
        index.bands(),
        scheme.size(),
        n as f64 / insert_s
    );
}
