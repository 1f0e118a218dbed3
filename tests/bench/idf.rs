//! `cargo bench --bench idf`: do IDF weights beat sublinear ones? Best F1 of fingerprints
//! alone (distance ≤ k, brute force over all pairs, k = 0..=12) against the dev corpus's
//! truth (4-gram Jaccard ≥ 0.8), per language, for the default options with
//! - `sublinear`: 1 + ln tf (the default);
//! - `sublinear × idf (all)`: the table learnt from the whole corpus;
//! - `sublinear × idf (half)`: learnt from every other document (held-out idf);
//! - `binary × idf (all)`: tf ignored, idf only.
//!
//! `SIMHASH_DEVCORPUS=/path cargo bench --bench idf`. Ends with
//! `RESULT f1_sublinear=… f1_idf=… f1_en_idf=… f1_zh_idf=…` (idf: learnt from all).

use std::collections::HashSet;
use std::sync::Arc;

use simhash_wasm::{IdfTable, Options, SimHasher, Weighting};

mod common;
use common::Corpus;

const KMAX: usize = 12;

/// (best k, F1 all, F1 en, F1 zh at that k, precision, recall)
fn best(
    fps: &[Option<u64>],
    zh: &[bool],
    truth: &HashSet<(usize, usize)>,
) -> (usize, f64, f64, f64, f64, f64) {
    let mut pred = [[0u64; KMAX + 1]; 2];
    let mut hits = [[0u64; KMAX + 1]; 2];
    let mut t = [0u64; 2];
    for &(a, b) in truth {
        t[usize::from(zh[a] && zh[b])] += 1;
    }
    for i in 0..fps.len() {
        let Some(a) = fps[i] else { continue };
        for j in i + 1..fps.len() {
            let Some(b) = fps[j] else { continue };
            let d = (a ^ b).count_ones() as usize;
            if d <= KMAX {
                let lang = usize::from(zh[i] && zh[j]);
                let hit = u64::from(truth.contains(&(i, j)));
                for k in d..=KMAX {
                    pred[lang][k] += 1;
                    hits[lang][k] += hit;
                }
            }
        }
    }
    let f1 = |p: u64, h: u64, t: u64| {
        let (pp, rr) = (if p == 0 { 1.0 } else { h as f64 / p as f64 }, h as f64 / t.max(1) as f64);
        (pp, rr, if pp + rr == 0.0 { 0.0 } else { 2.0 * pp * rr / (pp + rr) })
    };
    (0..=KMAX)
        .map(|k| {
            let (p, r, f) = f1(pred[0][k] + pred[1][k], hits[0][k] + hits[1][k], t[0] + t[1]);
            (k, f, f1(pred[0][k], hits[0][k], t[0]).2, f1(pred[1][k], hits[1][k], t[1]).2, p, r)
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .expect("k values")
}

fn main() {
    let Corpus { texts, zh, truth, .. } = Corpus::load();
    let base = Options::default();
    let mut learner = SimHasher::new(base).expect("options");
    let usable: Vec<&str> =
        texts.iter().map(String::as_str).filter(|t| learner.feature_hashes(t).is_ok()).collect();
    let all = Arc::new(IdfTable::learn(&mut learner, usable.iter().copied()).expect("learn"));
    let half = Arc::new(IdfTable::learn(&mut learner, usable.iter().copied().step_by(2)).expect("learn"));
    println!(
        "dev corpus: {} docs, {} truth pairs; idf tables: {} features / {} docs (all), {} / {} (half)",
        texts.len(),
        truth.len(),
        all.len(),
        all.documents(),
        half.len(),
        half.documents()
    );
    let binary = Options { weighting: Weighting::Binary, ..base };
    let settings: [(&str, SimHasher); 4] = [
        ("sublinear", SimHasher::new(base).expect("options")),
        ("sublinear x idf (all)", SimHasher::with_idf(base, all.clone()).expect("options")),
        ("sublinear x idf (half)", SimHasher::with_idf(base, half).expect("options")),
        ("binary x idf (all)", SimHasher::with_idf(binary, all).expect("options")),
    ];
    println!(
        "{:<24} | {:>3} {:>6} {:>6} {:>6} | {:>6} {:>6}",
        "weights", "k", "P", "R", "F1", "F1_en", "F1_zh"
    );
    let mut result = String::new();
    for (name, mut h) in settings {
        let fps: Vec<Option<u64>> = texts.iter().map(|t| h.fingerprint(t).ok()).collect();
        let (k, f, fe, fz, p, r) = best(&fps, &zh, &truth);
        println!("{name:<24} | {k:>3} {p:>6.3} {r:>6.3} {f:>6.3} | {fe:>6.3} {fz:>6.3}");
        match name {
            "sublinear" => {
                result += &format!(" f1_sublinear={f:.3} f1_en_sublinear={fe:.3} f1_zh_sublinear={fz:.3}")
            }
            "sublinear x idf (all)" => {
                result += &format!(" f1_idf={f:.3} f1_en_idf={fe:.3} f1_zh_idf={fz:.3}")
            }
            _ => {}
        }
    }
    println!("RESULT{result}");
}
