//! Where the per-document hashing of `dedup` goes: the worker pool's `fingerprint_and_sketch`
//! on a `bench:dedup` collection, and each of its parts run alone (normalisation, the
//! fingerprint, the sketch), natively.
//!
//! Usage: `cargo bench --bench hash_split -- [FILE.jsonl] [--docs N] [--profile ROUNDS]`
//! (default: `target/bench-dedup/docs-20000.v2.jsonl`, every document). `--profile` runs only
//! `fingerprint_and_sketch` ROUNDS times, for `perf record`. Ends with a `RESULT` line of
//! microseconds of CPU time a document.

use std::time::Instant;

/// This thread's CPU time in seconds (user and system, from `/proc/thread-self/stat`, in
/// clock ticks of 10 ms): on a shared machine wall-clock time also counts the time other
/// processes had the core. Wall-clock time where there is no such file.
fn cpu_seconds() -> f64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default();
    // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    let rest = stat.rsplit_once(')').map_or("", |r| r.1);
    let ticks: Vec<f64> = rest.split_whitespace().skip(11).take(2).filter_map(|x| x.parse().ok()).collect();
    match ticks[..] {
        [u, s] => (u + s) / 100.0,
        _ => START.get_or_init(Instant::now).elapsed().as_secs_f64(),
    }
}

use simhash_wasm::__private::normalize::normalize_into;
use simhash_wasm::sketch::SketchScheme;
use simhash_wasm::{Options, SimHasher};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let flag = |name: &str| args.iter().position(|a| a == name).map(|i| args[i + 1].clone());
    let file = args
        .iter()
        .find(|a| a.ends_with(".jsonl"))
        .cloned()
        .unwrap_or_else(|| "target/bench-dedup/docs-20000.v2.jsonl".into());
    let raw = std::fs::read_to_string(&file)
        .unwrap_or_else(|e| panic!("{file}: {e} (npm run bench:dedup -- --quick writes it)"));
    let limit: usize = flag("--docs").map_or(usize::MAX, |n| n.parse().expect("--docs N"));
    let texts: Vec<String> = raw
        .lines()
        .take(limit)
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).expect("jsonl")["text"]
                .as_str()
                .expect("text")
                .to_owned()
        })
        .collect();
    let bytes: usize = texts.iter().map(String::len).sum();
    let scheme = SketchScheme::default();
    let mut h = SimHasher::new(Options::default()).unwrap();

    if let Some(rounds) = flag("--profile") {
        let mut sink = 0u64;
        for _ in 0..rounds.parse::<usize>().expect("--profile N") {
            for t in &texts {
                if let Ok((fp, sk)) = h.fingerprint_and_sketch(t, scheme) {
                    sink ^= fp ^ u64::from(sk.payload()[7]);
                }
            }
        }
        println!("xor {sink:016x}");
        return;
    }

    let n = texts.len() as f64;
    // The best of three rounds, in microseconds of this thread's CPU time a document.
    let time = |f: &mut dyn FnMut(&str) -> u64| {
        let mut best = f64::MAX;
        let mut sink = 0u64;
        for _ in 0..3 {
            let start = cpu_seconds();
            for t in &texts {
                sink ^= f(t);
            }
            best = best.min((cpu_seconds() - start) * 1e6 / n);
        }
        std::hint::black_box(sink);
        best
    };
    let opts = Options::default().normalize;
    let mut norm = String::new();
    let normalize = time(&mut |t| {
        normalize_into(t, &opts, &mut norm);
        norm.len() as u64
    });
    let fingerprint = time(&mut |t| h.fingerprint(t).unwrap_or(0));
    let sketch = time(&mut |t| h.sketch(t, scheme).map_or(0, |s| u64::from(s.payload()[7])));
    let both =
        time(&mut |t| h.fingerprint_and_sketch(t, scheme).map_or(0, |(f, s)| f ^ u64::from(s.payload()[7])));
    println!("{} documents, {:.0} bytes each on average ({file})", texts.len(), bytes as f64 / n);
    println!("{:<28} {:>8}", "part (alone)", "us/doc");
    for (name, us) in [
        ("normalize", normalize),
        ("fingerprint (incl. normalize)", fingerprint),
        ("sketch (incl. normalize)", sketch),
        ("fingerprint_and_sketch", both),
    ] {
        println!("{name:<28} {us:>8.2}");
    }
    println!(
        "RESULT normalize_us={normalize:.2} fingerprint_us={fingerprint:.2} sketch_us={sketch:.2} both_us={both:.2} both_mb_s={:.1}",
        bytes as f64 / n / both
    );
}
