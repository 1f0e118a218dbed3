//! `npm run quality:passages`: planted copies, found or not, by the passage checker.
//!
//! Cases are built from the dev corpus (`$SIMHASH_DEVCORPUS/docs.jsonl`), in English (man
//! pages, licences) and Chinese (man pages, Debian reference). Each case has 10 references
//! (3 sources, 7 unrelated) and a submission of original paragraphs (from other texts)
//! with 3 copies from the sources: whole paragraphs, or 1 to 3 sentences set inside an
//! original paragraph. Copies carry edits at 0, 5, 10 or 20 % of their words (Chinese:
//! characters): substitutions, insertions and deletions, and two sentences swapped when
//! the rate is above 0. Seeded: the same cases every run.
//!
//! A copy is found when a reported span of its source covers at least half of it and its
//! reference span overlaps the source. A reported span is correct when at least half of it
//! lies in a copy from that reference. Beside the checker: today's rule (paragraph
//! SimHash fingerprints within k = 3, no check on the text).
//!
//! Usage: `cargo bench --bench passages -- [--quick]`.

use simhash_wasm::passage::{sentences, PassageChecker, PassageOptions};
use simhash_wasm::{hamming, SimHasher};
use std::time::Instant;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 > 1.0 - p
    }
}

/// Paragraphs (blank-line separated, 150 to 2000 bytes) of one text.
fn paragraphs(t: &str) -> Vec<String> {
    t.split("\n\n").map(str::trim).filter(|p| (150..2000).contains(&p.len())).map(String::from).collect()
}

struct Copy {
    doc: usize,
    sub: (usize, usize),
    src: (usize, usize),
}

/// `text` with edits at `rate` of its tokens (words, or characters for Chinese).
fn edit(text: &str, rate: f64, zh: bool, vocab: &[String], rng: &mut Rng) -> String {
    if rate == 0.0 {
        return text.to_string();
    }
    // Swap two adjacent sentences.
    let s = sentences(text);
    let mut text = text.to_string();
    if s.len() >= 2 {
        let i = rng.below(s.len() - 1);
        let (a, b) = (s[i], s[i + 1]);
        text = format!(
            "{}{}{}{}{}",
            &text[..a.0],
            &text[b.0..b.1],
            &text[a.1..b.0],
            &text[a.0..a.1],
            &text[b.1..]
        );
    }
    let toks: Vec<String> = if zh {
        text.chars().map(String::from).collect()
    } else {
        text.split(' ').map(String::from).collect()
    };
    let mut out: Vec<String> = Vec::new();
    for t in toks {
        if !rng.chance(rate) || t.trim().is_empty() {
            out.push(t);
            continue;
        }
        let w = vocab[rng.below(vocab.len())].clone();
        match rng.below(3) {
            0 => out.push(w),
            1 => {
                out.push(t);
                out.push(w);
            }
            _ => {}
        }
    }
    out.join(if zh { "" } else { " " })
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let dir =
        std::path::PathBuf::from(std::env::var("SIMHASH_DEVCORPUS").unwrap_or("target/devcorpus".into()));
    let raw = std::fs::read_to_string(dir.join("docs.jsonl")).expect("docs.jsonl (set SIMHASH_DEVCORPUS)");
    let mut en = Vec::new();
    let mut zh = Vec::new();
    for l in raw.lines() {
        let v: serde_json::Value = serde_json::from_str(l).expect("docs.jsonl line");
        let (id, text) = (v["id"].as_str().unwrap_or(""), v["text"].as_str().unwrap_or("").to_string());
        let pool = if id.starts_with("en-man") || id.starts_with("en-spdx") {
            &mut en
        } else if id.starts_with("zh-man") || id.starts_with("zh-debref") {
            &mut zh
        } else {
            continue;
        };
        if paragraphs(&text).len() >= 4 {
            pool.push(text);
        }
    }
    let cases = if quick { 8 } else { 40 };
    let rates = [0.0, 0.05, 0.10, 0.20];
    let mut hasher = SimHasher::new(Default::default()).unwrap();
    println!("passages: {cases} cases per language and edit rate, 10 references each (3 sources, 7 unrelated), 3 copies per submission");
    println!(
        "{:<4} {:>5} | {:>8} {:>8} {:>9} | {:>10} | {:>8}",
        "lang", "edits", "copies", "recall", "spans ok", "today k=3", "ms/check"
    );
    let mut out = std::collections::BTreeMap::new();
    let (mut good, mut spans, mut ms_total, mut checks) = (0usize, 0usize, 0.0, 0usize);
    let mut rng = Rng(14);
    for (lang, pool) in [("en", &en), ("zh", &zh)] {
        let is_zh = lang == "zh";
        for &rate in &rates {
            let (mut copies_n, mut found, mut today, mut ok, mut reported, mut ms) = (0, 0, 0, 0, 0, 0.0);
            for _ in 0..cases {
                let refs: Vec<&String> = (0..10).map(|_| &pool[rng.below(pool.len())]).collect();
                let own: Vec<String> =
                    (0..4).flat_map(|_| paragraphs(&pool[rng.below(pool.len())])).take(8).collect();
                let vocab: Vec<String> = if is_zh {
                    own.concat().chars().filter(|c| !c.is_whitespace()).map(String::from).collect()
                } else {
                    own.concat().split_whitespace().map(String::from).collect()
                };
                let mut sub = String::new();
                let mut copies = Vec::new();
                for (i, p) in own.iter().enumerate() {
                    if !sub.is_empty() {
                        sub += "\n\n";
                    }
                    if i % 3 != 1 {
                        sub += p;
                        continue;
                    }
                    // A copy from source i / 3 (0, 1, 2).
                    let doc = i / 3;
                    let r = refs[doc];
                    let ps: Vec<(usize, usize)> = {
                        let mut v = Vec::new();
                        let mut pos = 0;
                        for piece in r.split("\n\n") {
                            let t = piece.trim();
                            let s = pos + (piece.len() - piece.trim_start().len());
                            if (150..2000).contains(&t.len()) {
                                v.push((s, s + t.len()));
                            }
                            pos += piece.len() + 2;
                        }
                        v
                    };
                    let whole = rng.below(2) == 0;
                    let (s, e) = ps[rng.below(ps.len())];
                    let src = if whole {
                        (s, e)
                    } else {
                        let ss = sentences(&r[s..e]);
                        let n = 1 + rng.below(3.min(ss.len()));
                        let a = rng.below(ss.len() + 1 - n);
                        (s + ss[a].0, s + ss[a + n - 1].1)
                    };
                    let copied = edit(&r[src.0..src.1], rate, is_zh, &vocab, &mut rng);
                    if copied.trim().is_empty() {
                        continue;
                    }
                    let (before, after) = if whole {
                        ("", "")
                    } else {
                        let cut = sentences(p).get(1).map_or(p.len(), |x| x.1);
                        (&p[..cut], &p[cut..])
                    };
                    sub += before;
                    if !before.is_empty() {
                        sub += if is_zh { "" } else { " " };
                    }
                    let start = sub.len();
                    sub += &copied;
                    copies.push(Copy { doc, sub: (start, sub.len()), src });
                    sub += after;
                }
                // The checker.
                let t0 = Instant::now();
                let mut c = PassageChecker::new(PassageOptions::default()).unwrap();
                for r in &refs {
                    c.add_reference(r).unwrap();
                }
                let report = c.check(&sub).unwrap();
                ms += t0.elapsed().as_secs_f64() * 1e3;
                let overlap =
                    |a: (usize, usize), b: (usize, usize)| a.1.min(b.1).saturating_sub(a.0.max(b.0));
                for cp in &copies {
                    copies_n += 1;
                    let hit =
                        report.references.iter().filter(|r| r.doc == cp.doc).flat_map(|r| &r.matches).any(
                            |m| {
                                let (s, rs) = (
                                    (m.submission_span.start, m.submission_span.end),
                                    (m.reference_span.start, m.reference_span.end),
                                );
                                2 * overlap(s, cp.sub) >= cp.sub.1 - cp.sub.0 && overlap(rs, cp.src) > 0
                            },
                        );
                    found += usize::from(hit);
                    // Today's rule: a paragraph of the submission holding the copy within k = 3 of
                    // a paragraph of the source holding the original.
                    let mut paras = |t: &str| -> Vec<((usize, usize), Option<u64>)> {
                        let mut v = Vec::new();
                        let mut pos = 0;
                        for piece in t.split("\n\n") {
                            v.push(((pos, pos + piece.len()), hasher.fingerprint(piece).ok()));
                            pos += piece.len() + 2;
                        }
                        v
                    };
                    let sp = paras(&sub);
                    let rp = paras(refs[cp.doc]);
                    let hit_today = sp.iter().filter(|(r, _)| overlap(*r, cp.sub) > 0).any(|(_, a)| {
                        rp.iter().filter(|(r, _)| overlap(*r, cp.src) > 0).any(|(_, b)| match (a, b) {
                            (Some(a), Some(b)) => hamming(*a, *b) <= 3,
                            _ => false,
                        })
                    });
                    today += usize::from(hit_today);
                }
                for r in &report.references {
                    for m in &r.matches {
                        reported += 1;
                        let s = (m.submission_span.start, m.submission_span.end);
                        let in_copy: usize =
                            copies.iter().filter(|c| c.doc == r.doc).map(|c| overlap(s, c.sub)).sum();
                        ok += usize::from(2 * in_copy >= s.1 - s.0);
                    }
                }
            }
            let recall = found as f64 / copies_n.max(1) as f64;
            println!(
                "{lang:<4} {:>4}% | {copies_n:>8} {recall:>8.3} {:>4}/{:<4} | {:>10.3} | {:>8.1}",
                rate * 100.0,
                ok,
                reported,
                today as f64 / copies_n.max(1) as f64,
                ms / cases as f64
            );
            out.insert((lang, (rate * 100.0) as u32), (found, copies_n));
            good += ok;
            spans += reported;
            ms_total += ms;
            checks += cases;
        }
    }
    let rec = |r: u32| {
        let (f, n) = ["en", "zh"].iter().fold((0, 0), |a, l| {
            let x = out[&(*l, r)];
            (a.0 + x.0, a.1 + x.1)
        });
        f as f64 / n.max(1) as f64
    };
    let zh10 = out[&("zh", 10)];
    println!(
        "RESULT passage_recall_0={:.3} passage_recall_10={:.3} passage_recall_20={:.3} passage_precision={:.3} recall_zh_10={:.3} check_ms={:.1}",
        rec(0),
        rec(10),
        rec(20),
        good as f64 / spans.max(1) as f64,
        zh10.0 as f64 / zh10.1.max(1) as f64,
        ms_total / checks.max(1) as f64
    );
}
