//! `npm run quality`: precision and recall of fingerprint distance ≤ k against the dev
//! corpus's ground truth (pairs with character 4-gram Jaccard ≥ 0.8), for k = 0..=10,
//! English and Chinese apart. Exact: every pair of documents is compared (brute force).
//!
//! Usage: `cargo bench --bench quality -- [--sweep] [--json FILE]`
//!   --sweep      also print best F1 for a grid of settings (how the defaults were chosen)
//!   --json FILE  write the default setting's table as JSON (the demo page plots it)
//!
//! Ends with `RESULT f1=… f1_en=… f1_zh=… k=… p=… r=…` for the default setting at its best k.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use simhash_wasm::{NormalizeOptions, Options, Punctuation, SimHasher, Tokenizer, Weighting};

struct Doc {
    id: String,
    text: String,
    zh: bool,
}

fn corpus_dir() -> PathBuf {
    match std::env::var_os("SIMHASH_DEVCORPUS") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/devcorpus"),
    }
}

fn load() -> (Vec<Doc>, HashSet<(usize, usize)>) {
    let dir = corpus_dir();
    let raw = std::fs::read_to_string(dir.join("docs.jsonl")).unwrap_or_else(|e| {
        panic!("{}: {e} (build it: bash ../shared/corpus/build.sh {})", dir.display(), dir.display())
    });
    let docs: Vec<Doc> = raw
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("docs.jsonl line");
            Doc {
                id: v["id"].as_str().expect("id").to_owned(),
                text: v["text"].as_str().expect("text").to_owned(),
                zh: v["lang"].as_str() == Some("zh"),
            }
        })
        .collect();
    let pos: HashMap<&str, usize> = docs.iter().enumerate().map(|(i, d)| (d.id.as_str(), i)).collect();
    let truth = std::fs::read_to_string(dir.join("truth_j08.tsv")).expect("truth_j08.tsv");
    let pairs = truth
        .lines()
        .skip(1)
        .map(|l| {
            let mut f = l.split('\t');
            let a = pos[f.next().expect("id_a")];
            let b = pos[f.next().expect("id_b")];
            (a.min(b), a.max(b))
        })
        .collect();
    (docs, pairs)
}

/// Counts per k for one language: (predicted pairs, true positives), and the truth size.
struct Curve {
    predicted: [u64; 11],
    hits: [u64; 11],
    truth: u64,
}

impl Curve {
    fn prf(&self, k: usize) -> (f64, f64, f64) {
        let p = if self.predicted[k] == 0 { 1.0 } else { self.hits[k] as f64 / self.predicted[k] as f64 };
        let r = if self.truth == 0 { 1.0 } else { self.hits[k] as f64 / self.truth as f64 };
        let f = if p + r == 0.0 { 0.0 } else { 2.0 * p * r / (p + r) };
        (p, r, f)
    }

    fn merged(a: &Curve, b: &Curve) -> Curve {
        let mut c = Curve { predicted: [0; 11], hits: [0; 11], truth: a.truth + b.truth };
        for k in 0..11 {
            c.predicted[k] = a.predicted[k] + b.predicted[k];
            c.hits[k] = a.hits[k] + b.hits[k];
        }
        c
    }
}

/// Evaluates one setting: returns the English, Chinese and overall curves.
fn evaluate(docs: &[Doc], truth: &HashSet<(usize, usize)>, opts: Options) -> [Curve; 3] {
    let mut h = SimHasher::new(opts).expect("options");
    let fps: Vec<Option<u64>> = docs.iter().map(|d| h.fingerprint(&d.text).ok()).collect();
    let mut curves = [0, 1].map(|_| Curve { predicted: [0; 11], hits: [0; 11], truth: 0 });
    for &(a, b) in truth {
        curves[usize::from(docs[a].zh)].truth += 1;
        debug_assert_eq!(docs[a].zh, docs[b].zh);
    }
    // Brute force over all pairs; a pair counts for a language when both docs are in it
    // (pairs across languages are never true and are counted as English false positives).
    let fp: Vec<(u64, bool, usize)> =
        fps.iter().enumerate().filter_map(|(i, f)| f.map(|f| (f, docs[i].zh, i))).collect();
    for (x, &(fa, za, ia)) in fp.iter().enumerate() {
        for &(fb, zb, ib) in &fp[x + 1..] {
            let d = (fa ^ fb).count_ones() as usize;
            if d > 10 {
                continue;
            }
            let lang = usize::from(za && zb);
            let hit = truth.contains(&(ia.min(ib), ia.max(ib)));
            for k in d..=10 {
                curves[lang].predicted[k] += 1;
                curves[lang].hits[k] += u64::from(hit);
            }
        }
    }
    let all = Curve::merged(&curves[0], &curves[1]);
    let [en, zh] = curves;
    [en, zh, all]
}

/// Candidates within k (64-bit fingerprints), verified by shingle Jaccard >= 0.8.
fn evaluate_verified(
    docs: &[Doc],
    truth: &HashSet<(usize, usize)>,
    opts: Options,
    ks: &[usize],
) -> Vec<(usize, f64, f64, f64, f64, f64)> {
    use simhash_wasm::verify::ShingleSet;
    let mut h = SimHasher::new(opts).expect("options");
    let fps: Vec<Option<u64>> = docs.iter().map(|d| h.fingerprint(&d.text).ok()).collect();
    let sets: Vec<Option<ShingleSet>> = docs.iter().map(|d| ShingleSet::new(&d.text, 4).ok()).collect();
    let kmax = *ks.iter().max().unwrap_or(&10);
    let mut t = [0u64; 2];
    for &(a, _) in truth {
        t[usize::from(docs[a].zh)] += 1;
    }
    // (distance, language, verified, true) for every candidate pair within kmax
    let mut cands = Vec::new();
    for i in 0..docs.len() {
        let Some(fa) = fps[i] else { continue };
        for j in i + 1..docs.len() {
            let Some(fb) = fps[j] else { continue };
            let d = (fa ^ fb).count_ones() as usize;
            if d > kmax {
                continue;
            }
            let ok = match (&sets[i], &sets[j]) {
                (Some(a), Some(b)) => a.jaccard_at_least(b, 0.8),
                _ => false,
            };
            cands.push((d, usize::from(docs[i].zh && docs[j].zh), ok, truth.contains(&(i, j))));
        }
    }
    let f1 = |p: u64, h: u64, t: u64| {
        let (pp, rr) = (if p == 0 { 1.0 } else { h as f64 / p as f64 }, h as f64 / t.max(1) as f64);
        (pp, rr, if pp + rr == 0.0 { 0.0 } else { 2.0 * pp * rr / (pp + rr) })
    };
    ks.iter()
        .map(|&k| {
            let (mut pred, mut hits) = ([0u64; 2], [0u64; 2]);
            for &(d, lang, ok, hit) in &cands {
                if d <= k && ok {
                    pred[lang] += 1;
                    hits[lang] += u64::from(hit);
                }
            }
            let (p, r, f) = f1(pred[0] + pred[1], hits[0] + hits[1], t[0] + t[1]);
            (k, p, r, f, f1(pred[0], hits[0], t[0]).2, f1(pred[1], hits[1], t[1]).2)
        })
        .collect()
}

/// The 128-bit experiment: distances over 128 bits, thresholds 0..=20 (two curves of 11).
fn evaluate_wide(
    docs: &[Doc],
    truth: &HashSet<(usize, usize)>,
    opts: Options,
) -> Vec<(usize, f64, f64, f64, f64, f64)> {
    let mut h = SimHasher::new(opts).expect("options");
    let fps: Vec<Option<(u64, u64)>> = docs.iter().map(|d| h.fingerprint128(&d.text).ok()).collect();
    let (mut pred, mut hits) = ([[0u64; 21]; 2], [[0u64; 21]; 2]);
    let mut t = [0u64; 2];
    for &(a, _) in truth {
        t[usize::from(docs[a].zh)] += 1;
    }
    let fp: Vec<((u64, u64), bool, usize)> =
        fps.iter().enumerate().filter_map(|(i, f)| f.map(|f| (f, docs[i].zh, i))).collect();
    for (x, &((a0, a1), za, ia)) in fp.iter().enumerate() {
        for &((b0, b1), zb, ib) in &fp[x + 1..] {
            let d = ((a0 ^ b0).count_ones() + (a1 ^ b1).count_ones()) as usize;
            if d > 20 {
                continue;
            }
            let lang = usize::from(za && zb);
            let hit = truth.contains(&(ia.min(ib), ia.max(ib)));
            for k in d..=20 {
                pred[lang][k] += 1;
                hits[lang][k] += u64::from(hit);
            }
        }
    }
    let f1 = |p: u64, h: u64, t: u64| {
        let (pp, rr) = (if p == 0 { 1.0 } else { h as f64 / p as f64 }, h as f64 / t.max(1) as f64);
        (pp, rr, if pp + rr == 0.0 { 0.0 } else { 2.0 * pp * rr / (pp + rr) })
    };
    (0..=20)
        .map(|k| {
            let (p, r, f) = f1(pred[0][k] + pred[1][k], hits[0][k] + hits[1][k], t[0] + t[1]);
            (k, p, r, f, f1(pred[0][k], hits[0][k], t[0]).2, f1(pred[1][k], hits[1][k], t[1]).2)
        })
        .collect()
}

fn best_k(c: &Curve) -> usize {
    (0..11).max_by(|&a, &b| c.prf(a).2.total_cmp(&c.prf(b).2).then(b.cmp(&a))).unwrap_or(0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let sweep = args.iter().any(|a| a == "--sweep");
    let json = args.iter().position(|a| a == "--json").and_then(|i| args.get(i + 1)).cloned();
    let (docs, truth) = load();
    let en = docs.iter().filter(|d| !d.zh).count();
    println!(
        "dev corpus: {} documents ({} en, {} zh), {} true pairs (J >= 0.8)",
        docs.len(),
        en,
        docs.len() - en,
        truth.len()
    );

    if sweep {
        println!("\nsweep: best F1 (at its k) per setting");
        println!("{:<44} {:>14} {:>14} {:>14}", "setting", "all", "en", "zh");
        // The grid: SWEEP_NGRAMS=2,3,4 (characters) SWEEP_WORDS=1,2 override it.
        let list = |var: &str, default: &str| -> Vec<usize> {
            std::env::var(var)
                .unwrap_or_else(|_| default.into())
                .split(',')
                .filter_map(|x| x.trim().parse().ok())
                .collect()
        };
        let toks: Vec<Tokenizer> = list("SWEEP_NGRAMS", "2,3,4,5,6,7,8")
            .into_iter()
            .map(Tokenizer::Chars)
            .chain(list("SWEEP_WORDS", "1,2,3").into_iter().map(Tokenizer::Words))
            .collect();
        for tok in toks {
            for weighting in [Weighting::Binary, Weighting::Sublinear, Weighting::Tf] {
                for punctuation in [Punctuation::Keep, Punctuation::Drop, Punctuation::Collapse] {
                    let opts = Options {
                        tokenizer: tok,
                        weighting,
                        normalize: NormalizeOptions { punctuation, ..Default::default() },
                    };
                    let [e, z, a] = evaluate(&docs, &truth, opts);
                    let cell = |c: &Curve| {
                        let k = best_k(c);
                        format!("{:.3} (k={k})", c.prf(k).2)
                    };
                    println!("{:<44} {:>14} {:>14} {:>14}", opts.describe(), cell(&a), cell(&e), cell(&z));
                }
            }
        }
    }

    let opts = Options::default();
    let [e, z, a] = evaluate(&docs, &truth, opts);
    println!("\ndefault setting: {}", opts.describe());
    println!(
        "{:>3} | {:>6} {:>6} {:>6} | {:>6} {:>6} {:>6} | {:>6} {:>6} {:>6}",
        "k", "P", "R", "F1", "P_en", "R_en", "F1_en", "P_zh", "R_zh", "F1_zh"
    );
    for k in 0..11 {
        let (p, r, f) = a.prf(k);
        let (pe, re, fe) = e.prf(k);
        let (pz, rz, fz) = z.prf(k);
        println!("{k:>3} | {p:>6.3} {r:>6.3} {f:>6.3} | {pe:>6.3} {re:>6.3} {fe:>6.3} | {pz:>6.3} {rz:>6.3} {fz:>6.3}");
    }
    if let Some(path) = json {
        let rows: Vec<String> = (0..11)
            .map(|k| {
                let (p, r, f) = a.prf(k);
                let (pe, re, fe) = e.prf(k);
                let (pz, rz, fz) = z.prf(k);
                format!(
                    "    {{\"k\": {k}, \"p\": {p:.4}, \"r\": {r:.4}, \"f1\": {f:.4}, \"p_en\": {pe:.4}, \"r_en\": {re:.4}, \"f1_en\": {fe:.4}, \"p_zh\": {pz:.4}, \"r_zh\": {rz:.4}, \"f1_zh\": {fz:.4}}}"
                )
            })
            .collect();
        let body = format!(
            "{{\n  \"setting\": \"{}\",\n  \"truth\": \"character 4-gram Jaccard >= 0.8, dev corpus ({} docs, {} pairs)\",\n  \"rows\": [\n{}\n  ]\n}}\n",
            opts.describe(),
            docs.len(),
            truth.len(),
            rows.join(",\n")
        );
        std::fs::write(&path, body).expect("write json");
        println!("wrote {path}");
    }
    // A verification step: candidates at distance <= k, kept when the crate's own exact
    // shingle Jaccard (simhash_wasm::verify, 4-grams of grapheme clusters) is >= 0.8.
    println!("\nwith verification (candidates within k, kept when verify::ShingleSet Jaccard >= 0.8):");
    println!("{:>3} | {:>6} {:>6} {:>6} | {:>6} {:>6}", "k", "P", "R", "F1", "F1_en", "F1_zh");
    let verified = evaluate_verified(&docs, &truth, opts, &[6, 8, 10, 12]);
    for &(k, p, r, f, fe, fz) in &verified {
        println!("{k:>3} | {p:>6.3} {r:>6.3} {f:>6.3} | {fe:>6.3} {fz:>6.3}");
    }
    if args.iter().any(|a| a == "--wide") {
        println!("\n128-bit fingerprints (two independent 64-bit SimHashes), k over 128 bits:");
        println!("{:>3} | {:>6} {:>6} {:>6} | {:>6} {:>6}", "k", "P", "R", "F1", "F1_en", "F1_zh");
        let rows = evaluate_wide(&docs, &truth, opts);
        for &(k, p, r, f, fe, fz) in &rows {
            println!("{k:>3} | {p:>6.3} {r:>6.3} {f:>6.3} | {fe:>6.3} {fz:>6.3}");
        }
        if let Some(best) = rows.iter().max_by(|x, y| x.3.total_cmp(&y.3)) {
            println!("128-bit best: k={} F1 {:.3} (en {:.3}, zh {:.3})", best.0, best.3, best.4, best.5);
        }
    }
    let k = best_k(&a);
    let (p, r, f) = a.prf(k);
    println!("RESULT f1={f:.3} f1_en={:.3} f1_zh={:.3} k={k} p={p:.3} r={r:.3}", e.prf(k).2, z.prf(k).2);
}
