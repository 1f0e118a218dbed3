//! The article-extraction benchmark's scorer (its evaluate.py), shared by
//! `cargo bench --bench extract` and the test that holds a floor on a few of its pages.
#![allow(dead_code)]

use std::collections::HashMap;

fn tokens(text: &str) -> Vec<&str> {
    // Python's `\w` on str: letters, digits and `_`.
    text.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|t| !t.is_empty()).collect()
}

fn shingles(text: &str) -> HashMap<Vec<&str>, u32> {
    let t = tokens(text);
    let mut m = HashMap::new();
    let n = 4;
    let count = if t.len() >= n { t.len() - n + 1 } else { 1 };
    for i in 0..count {
        let s: Vec<&str> = t[i..(i + n).min(t.len())].to_vec();
        if !s.is_empty() {
            *m.entry(s).or_insert(0) += 1;
        }
    }
    m
}

/// (tp, fp, fn), normalised to sum 1 when not all zero.
pub fn score(truth: &str, pred: &str) -> (f64, f64, f64) {
    let t = shingles(truth);
    let p = shingles(pred);
    let (mut tp, mut fp, mut fn_) = (0f64, 0f64, 0f64);
    for (k, &tc) in &t {
        let pc = p.get(k).copied().unwrap_or(0);
        tp += f64::from(tc.min(pc));
        fn_ += f64::from(tc.saturating_sub(pc));
    }
    for (k, &pc) in &p {
        let tc = t.get(k).copied().unwrap_or(0);
        fp += f64::from(pc.saturating_sub(tc));
    }
    let s = tp + fp + fn_;
    if s > 0.0 {
        (tp / s, fp / s, fn_ / s)
    } else {
        (0.0, 0.0, 0.0)
    }
}

pub fn precision((tp, fp, fn_): (f64, f64, f64)) -> f64 {
    if fp == 0.0 && fn_ == 0.0 {
        1.0
    } else if tp == 0.0 && fp == 0.0 {
        0.0
    } else {
        tp / (tp + fp)
    }
}

pub fn recall((tp, fp, fn_): (f64, f64, f64)) -> f64 {
    if fp == 0.0 && fn_ == 0.0 {
        1.0
    } else if tp == 0.0 && fn_ == 0.0 {
        0.0
    } else {
        tp / (tp + fn_)
    }
}

/// (F1, P, R) over pages, as evaluate.py averages them.
pub fn metrics(scores: &[(f64, f64, f64)]) -> (f64, f64, f64) {
    let ps: Vec<f64> = scores.iter().filter(|s| s.0 + s.1 > 0.0).map(|&s| precision(s)).collect();
    let rs: Vec<f64> = scores.iter().filter(|s| s.0 + s.2 > 0.0).map(|&s| recall(s)).collect();
    let p = ps.iter().sum::<f64>() / ps.len().max(1) as f64;
    let r = rs.iter().sum::<f64>() / rs.len().max(1) as f64;
    let f = if p + r > 0.0 { 2.0 * p * r / (p + r) } else { 0.0 };
    (f, p, r)
}
