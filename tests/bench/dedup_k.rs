//! `cargo bench --bench dedup_k`: how the exact `dedup` flow's candidate k was chosen by
//! collection size (see `src/dedup/mod.rs`, "The candidate step").
//!
//! 1. Quality: F1 of the exact flow (the crate's `dedup`, candidates verified by 4-gram
//!    Jaccard ≥ 0.8) against the dev corpus's truth, per language: candidates within
//!    k = 10..=13 alone, and within k = 3..8 or sharing a MinHash band (the default).
//! 2. Cost: the self-join of N fingerprints (`fp/set_1m.u64`, raw LE u64) for N = 10k,
//!    100k, 1M at each k: seconds (CPU) and candidate pairs. A run that would take longer
//!    than `--budget S` seconds (default 120) is estimated from the last N instead.
//!
//! `SIMHASH_DEVCORPUS=/path cargo bench --bench dedup_k [-- --budget S] [--quality-only]`
//! Ends with `RESULT f1_k10=… f1_zh_k10=… f1_k12=… f1_zh_k12=… join_s_1m_k10=…`.

use std::collections::HashMap;
use std::time::Instant;

use simhash_wasm::dedup::{dedup, DedupOptions};
use simhash_wasm::index::{Index, Layout};

mod common;
use common::{corpus_dir, cpu_seconds, Corpus};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let budget: f64 = args
        .iter()
        .position(|a| a == "--budget")
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(120.0);
    let Corpus { ids, texts, zh, truth } = Corpus::load();
    let pos: HashMap<String, usize> = ids.iter().enumerate().map(|(i, d)| (d.clone(), i)).collect();
    let docs: Vec<(String, String)> = ids.into_iter().zip(texts).collect();
    let mut t = [0u64; 2];
    for &(a, b) in &truth {
        t[usize::from(zh[a] && zh[b])] += 1;
    }
    let f1 = |p: u64, h: u64, t: u64| {
        let (pp, rr) = (if p == 0 { 1.0 } else { h as f64 / p as f64 }, h as f64 / t.max(1) as f64);
        (pp, rr, if pp + rr == 0.0 { 0.0 } else { 2.0 * pp * rr / (pp + rr) })
    };
    println!(
        "exact flow (dedup, verify 0.8) on {} docs, {} truth pairs ({} zh):",
        docs.len(),
        truth.len(),
        t[1]
    );
    println!(
        "{:>4} | {:>6} {:>6} {:>6} | {:>6} {:>6} | {:>7}",
        "k", "P", "R", "F1", "F1_en", "F1_zh", "cand_s"
    );
    let mut result = String::new();
    // Candidates within k alone (no band join), then the default: within a smaller k or
    // sharing a MinHash band of the sketches.
    let runs =
        [(10, false), (11, false), (12, false), (13, false), (3, true), (4, true), (6, true), (8, true)];
    for (k, bands) in runs {
        let start = Instant::now();
        let r = dedup(&docs, &DedupOptions { k: Some(k), bands, ..DedupOptions::default() }).expect("dedup");
        let secs = start.elapsed().as_secs_f64();
        let (mut pred, mut hits) = ([0u64; 2], [0u64; 2]);
        for p in &r.pairs {
            let (a, b) = (pos[p.a.as_str()], pos[p.b.as_str()]);
            let lang = usize::from(zh[a] && zh[b]);
            pred[lang] += 1;
            hits[lang] += u64::from(truth.contains(&(a.min(b), a.max(b))));
        }
        let (p, rr, f) = f1(pred[0] + pred[1], hits[0] + hits[1], t[0] + t[1]);
        let (fe, fz) = (f1(pred[0], hits[0], t[0]).2, f1(pred[1], hits[1], t[1]).2);
        let label = if bands { format!("{k}+b") } else { k.to_string() };
        println!("{label:>4} | {p:>6.3} {rr:>6.3} {f:>6.3} | {fe:>6.3} {fz:>6.3} | {secs:>7.2}");
        if (k == 10 || k == 12) && !bands {
            result += &format!(" f1_k{k}={f:.3} f1_zh_k{k}={fz:.3}");
        }
        if bands {
            result += &format!(" f1_bands_k{k}={f:.3} f1_zh_bands_k{k}={fz:.3}");
        }
    }
    if args.iter().any(|a| a == "--quality-only") {
        println!("RESULT{result}");
        return;
    }
    let bytes = std::fs::read(corpus_dir().join("fp/set_1m.u64")).expect("fp/set_1m.u64");
    let fps: Vec<u64> = bytes.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect();
    println!("\nself-join cost (fp/set_1m.u64, Layout::auto): CPU seconds, candidate pairs, index bytes/fp");
    println!("{:>8} {:>3} | {:>9} {:>11} {:>7} | layout", "N", "k", "join_s", "pairs", "B/fp");
    for k in [4, 6, 8, 10, 11, 12, 13u32] {
        let mut last: Option<(usize, f64)> = None;
        for n in [10_000usize, 100_000, 1_000_000] {
            let n = n.min(fps.len());
            // The join's time grows about as N² / 2^(bits per table key); estimate first.
            if let Some((n0, s0)) = last {
                let guess = s0 * (n as f64 / n0 as f64).powi(2);
                if guess > budget {
                    println!(
                        "{n:>8} {k:>3} | {:>9} {:>11} {:>7} | (skipped: estimated {guess:.0} s > budget)",
                        "-", "-", "-"
                    );
                    if n == 1_000_000 {
                        result += &format!(" join_s_1m_k{k}~{guess:.0}");
                    }
                    continue;
                }
            }
            let layout = Layout::auto(n, k, None).expect("layout");
            let (t0, c0) = (Instant::now(), cpu_seconds());
            let index =
                Index::build(layout.clone(), (0..n as u64).zip(fps[..n].iter().copied())).expect("build");
            let pairs = index.self_join().len();
            let secs = match (c0, cpu_seconds()) {
                (Some(a), Some(b)) => b - a,
                _ => t0.elapsed().as_secs_f64(),
            };
            let bpf = index.stats().bytes_per_fp;
            println!("{n:>8} {k:>3} | {secs:>9.2} {pairs:>11} {bpf:>7.1} | {layout}");
            if n == 1_000_000 {
                result += &format!(" join_s_1m_k{k}={secs:.1}");
            }
            last = Some((n, secs.max(0.01)));
        }
    }
    println!("RESULT{result}");
}
