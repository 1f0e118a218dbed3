//! Shared by the benchmarks (`mod common;` in each): where the dev corpus is, the corpus
//! with its J ≥ 0.8 ground truth, this thread's CPU time, and the seeded generator the
//! unit and integration tests use. Each benchmark uses some of it.
#![allow(dead_code)]

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

include!("../../src/test_rng.rs");

/// `$SIMHASH_DEVCORPUS`, else `target/devcorpus` in the crate (where the set-up builds it).
pub fn corpus_dir() -> PathBuf {
    match std::env::var_os("SIMHASH_DEVCORPUS") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/devcorpus"),
    }
}

/// The dev corpus's documents (`docs.jsonl`, in file order) and every pair with 4-gram
/// Jaccard ≥ 0.8 (`truth_j08.tsv`) as `(i, j)` positions with `i < j`.
pub struct Corpus {
    pub ids: Vec<String>,
    pub texts: Vec<String>,
    pub zh: Vec<bool>,
    pub truth: HashSet<(usize, usize)>,
}

impl Corpus {
    /// Reads the corpus, or panics saying how to build it.
    pub fn load() -> Corpus {
        let dir = corpus_dir();
        let raw = std::fs::read_to_string(dir.join("docs.jsonl")).unwrap_or_else(|e| {
            panic!("{}: {e} (build it: bash ../shared/corpus/build.sh {})", dir.display(), dir.display())
        });
        let (mut ids, mut texts, mut zh) = (Vec::new(), Vec::new(), Vec::new());
        for l in raw.lines() {
            let v: serde_json::Value = serde_json::from_str(l).expect("docs.jsonl line");
            ids.push(v["id"].as_str().expect("id").to_owned());
            texts.push(v["text"].as_str().expect("text").to_owned());
            zh.push(v["lang"].as_str() == Some("zh"));
        }
        let pos: HashMap<&str, usize> = ids.iter().enumerate().map(|(i, d)| (d.as_str(), i)).collect();
        let truth = std::fs::read_to_string(dir.join("truth_j08.tsv")).expect("truth_j08.tsv");
        let truth = truth
            .lines()
            .skip(1)
            .map(|l| {
                let mut f = l.split('\t');
                let (a, b) = (pos[f.next().expect("id_a")], pos[f.next().expect("id_b")]);
                (a.min(b), a.max(b))
            })
            .collect();
        Corpus { ids, texts, zh, truth }
    }
}

/// This thread's CPU time in seconds (Linux; 10 ms ticks), to see through a busy machine;
/// `None` where the OS does not report it.
pub fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}
