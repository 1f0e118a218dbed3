//! Native half of `npm run bench:fingerprint`: fingerprint throughput on the dev corpus
//! (real English and Chinese text) with the default options, and the `simhash` crate on
//! crates.io (whitespace words) on the same text as the reference peer.
//!
//! Usage: `cargo bench --bench fingerprint -- [--quick]`. Prints a table, then one line
//! `NATIVE {json}` that `scripts/bench-fingerprint.mjs` reads.
//!
//! `-- --profile N` instead fingerprints the quick slice exactly N times and prints the
//! xor of the fingerprints: a fixed amount of work, for `valgrind --tool=callgrind` or
//! `perf record` (instruction counts are repeatable where wall-clock times are not).

use std::time::Instant;

use simhash_wasm::{Options, SimHasher};

mod common;
use common::corpus_dir;

/// The corpus texts, English and Chinese apart (quick mode: a slice of each).
pub fn load(quick: bool) -> (Vec<String>, Vec<String>) {
    let dir = corpus_dir();
    let raw = std::fs::read_to_string(dir.join("docs.jsonl")).unwrap_or_else(|e| {
        panic!("{}: {e} (build it: bash ../shared/corpus/build.sh {})", dir.display(), dir.display())
    });
    let (mut en, mut zh) = (Vec::new(), Vec::new());
    for line in raw.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("docs.jsonl line");
        let text = v["text"].as_str().expect("text").to_owned();
        if v["lang"].as_str() == Some("zh") {
            zh.push(text)
        } else {
            en.push(text)
        }
    }
    if quick {
        en.truncate(1500);
        zh.truncate(1500);
    }
    (en, zh)
}

/// Runs `f` over all texts repeatedly for at least `min_s` seconds; returns MB/s (10^6 bytes).
fn throughput(texts: &[String], min_s: f64, mut f: impl FnMut(&str) -> u64) -> f64 {
    let bytes: usize = texts.iter().map(String::len).sum();
    let mut sink = 0u64;
    for t in texts.iter().take(200) {
        sink ^= f(t); // warm-up
    }
    let start = Instant::now();
    let mut rounds = 0;
    loop {
        for t in texts {
            sink ^= f(t);
        }
        rounds += 1;
        if start.elapsed().as_secs_f64() >= min_s {
            break;
        }
    }
    std::hint::black_box(sink);
    (bytes * rounds) as f64 / start.elapsed().as_secs_f64() / 1e6
}

fn peak_rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--profile") {
        let rounds: usize = args.get(i + 1).and_then(|r| r.parse().ok()).expect("--profile N");
        let (en, zh) = load(true);
        let mut h = SimHasher::new(Options::default()).expect("default options");
        let mut x = 0u64;
        for _ in 0..rounds {
            for t in en.iter().chain(&zh) {
                x ^= h.fingerprint(t).unwrap_or(0);
            }
        }
        println!("xor of fingerprints: {x:016x}");
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    let min_s = if quick { 0.3 } else { 2.0 };
    let (en, zh) = load(quick);
    let all: Vec<String> = en.iter().chain(&zh).cloned().collect();
    let mb = |v: &[String]| v.iter().map(String::len).sum::<usize>() as f64 / 1e6;
    println!(
        "dev corpus: {} en docs ({:.1} MB), {} zh docs ({:.1} MB){}",
        en.len(),
        mb(&en),
        zh.len(),
        mb(&zh),
        if quick { " [quick]" } else { "" }
    );

    let mut h = SimHasher::new(Options::default()).expect("default options");
    let mut ours = |t: &str| h.fingerprint(t).unwrap_or(0);
    let native_all = throughput(&all, min_s, &mut ours);
    let native_en = throughput(&en, min_s, &mut ours);
    let native_zh = throughput(&zh, min_s, &mut ours);
    // The crawler's default pass: fingerprint and 128-byte sketch from one scan.
    let mut hs = SimHasher::new(Options::default()).expect("default options");
    let scheme = simhash_wasm::sketch::SketchScheme::default();
    let mut both = |t: &str| hs.fingerprint_and_sketch(t, scheme).map_or(0, |(fp, _)| fp);
    let sketch_all = throughput(&all, min_s, &mut both);
    let peer = |t: &str| simhash::simhash(t);
    let peer_all = throughput(&all, min_s, peer);
    let peer_en = throughput(&en, min_s, peer);
    let peer_zh = throughput(&zh, min_s, peer);
    let rss = peak_rss_mb();

    println!("{:<44} {:>9} {:>9} {:>9}", "native (MB/s)", "all", "en", "zh");
    println!(
        "{:<44} {native_all:>9.1} {native_en:>9.1} {native_zh:>9.1}",
        format!("simhash-wasm core, {}", Options::default().describe())
    );
    println!(
        "{:<44} {peer_all:>9.1} {peer_en:>9.1} {peer_zh:>9.1}",
        "simhash 0.3.0 crate (whitespace words)"
    );
    println!(
        "{:<44} {sketch_all:>9.1}   (cost {:.2}x the fingerprint alone)",
        "fingerprint + sketch (one pass)",
        native_all / sketch_all
    );
    println!("peak RSS {rss:.1} MB (corpus text included)");
    println!(
        "NATIVE {{\"native_mb_s\": {native_all:.2}, \"sketch_mb_s\": {sketch_all:.2}, \"sketch_cost_ratio\": {:.3}, \"native_en_mb_s\": {native_en:.2}, \"native_zh_mb_s\": {native_zh:.2}, \"peer_mb_s\": {peer_all:.2}, \"peer_en_mb_s\": {peer_en:.2}, \"peer_zh_mb_s\": {peer_zh:.2}, \"native_peak_rss_mb\": {rss:.1}}}",
        native_all / sketch_all
    );
}
