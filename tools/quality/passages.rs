//! `npm run quality:passages`: planted copies, found or not, by the passage checker.
//!
//! Cases are built from the dev corpus (`$SIMHASH_DEVCORPUS/docs.jsonl`), in English (man
//! pages, licences) and Chinese (man pages, Debian reference). Each case has 10 references
//! (3 sources, 7 unrelated) and a submission of original paragraphs (from other texts)
//! with 3 copies from the sources: whole paragraphs, or 1 to 3 sentences set inside an
//! original paragraph (grown to 40 characters or more). Copies carry edits at 0, 5, 10
//! or 20 % of their words (Chinese: characters, and the Latin words among them as words):
//! substitutions, insertions and deletions, and two sentences swapped when the rate is
//! above 0. Seeded: the same cases every run, each case from its own stream (a change in one
//! case moves no other); 100 cases a row (300 copies: a recall's standard error about 0.02).
//!
//! Honest negatives: documents with a near-duplicate in the corpus (any pair at J >= 0.5 in
//! `truth_j05.tsv`) are left out; references are distinct; an original paragraph with a
//! sentence, or a run of 3 (a code block's short lines), of 6 shingles or more half found
//! in a source is dropped, and so is an unrelated reference in which such a piece of the
//! submission is half found. A small sweep compares containment and Jaccard as the
//! verifying measure (`SIMHASH_PASSAGES_DEBUG=miss0` prints the verbatim copies missed,
//! with the spans reported; `miss10`, `miss20` the edited ones; `2` the false spans).
//!
//! A copy is found when a reported span of its source covers at least half of it and its
//! reference span overlaps the source. A reported span is correct when at least half of it
//! lies in a copy from that reference. Beside the checker: today's rule (paragraph
//! SimHash fingerprints within k = 3, no check on the text).
//!
//! Beside the totals: `code_recall_*` is the recall on copies of code ([`is_code`], by
//! language and edit rate), `code_precision` the share of correct spans among those whose
//! text reads as code, `precision_en` / `precision_zh` each language's precision (long
//! texts).
//!
//! Usage: `cargo bench --bench passages -- [--quick]` (`SIMHASH_PASSAGES_LANGS=en,zh` and
//! `SIMHASH_PASSAGES_SWEEP=0` run a part, for measuring).

use simhash_wasm::__private::hash::hash_bytes;
use simhash_wasm::__private::normalize::normalize_into;
use simhash_wasm::__private::passage::{containment, is_cjk};
use simhash_wasm::passage::{sentences, PassageChecker, PassageMatch, PassageOptions};
use simhash_wasm::{hamming, NormalizeOptions, Punctuation, SimHasher};
use std::time::Instant;

mod common;
use common::{corpus_dir, Rng};

/// The draws this benchmark makes, on the tests' seeded generator.
trait Draw {
    /// A position in `0..n` (0 when `n` is 0).
    fn pick(&mut self, n: usize) -> usize;
    /// `true` with probability `p`.
    fn chance(&mut self, p: f64) -> bool;
}

impl Draw for Rng {
    fn pick(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }
    fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 > 1.0 - p
    }
}

/// The benchmark's own measure of shared text, for building the cases (the honest
/// negatives) and judging the reported spans: the sorted, distinct hashes of the word pairs
/// of `text` normalised with punctuation dropped, a CJK character counting as a word. Fixed
/// here, apart from the checker's own shingles, so that a change to the checker's shingles
/// changes neither the cases nor the verdicts (docs/decisions/027-passages-benchmark.md).
fn shingles(text: &str, buf: &mut String) -> Vec<u64> {
    let opts = NormalizeOptions { punctuation: Punctuation::Drop, ..NormalizeOptions::default() };
    normalize_into(text, &opts, buf);
    let mut toks: Vec<(usize, usize)> = Vec::new();
    let mut word: Option<usize> = None;
    for (i, c) in buf.char_indices() {
        if c == ' ' || is_cjk(c) {
            toks.extend(word.take().map(|s| (s, i)));
            if c != ' ' {
                toks.push((i, i + c.len_utf8()));
            }
        } else if word.is_none() {
            word = Some(i);
        }
    }
    toks.extend(word.map(|s| (s, buf.len())));
    let mut out: Vec<u64> = toks.windows(2).map(|w| hash_bytes(&buf.as_bytes()[w[0].0..w[1].1])).collect();
    if out.is_empty() && !toks.is_empty() {
        out.push(hash_bytes(&buf.as_bytes()[toks[0].0..toks[toks.len() - 1].1]));
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Paragraphs (blank-line separated, 150 to 2000 bytes) of one text.
fn paragraphs(t: &str) -> Vec<String> {
    t.split("\n\n").map(str::trim).filter(|p| (150..2000).contains(&p.len())).map(String::from).collect()
}

/// A reference's sentences' shingles, each joined with its neighbours (windows of 3).
fn windows(text: &str, buf: &mut String) -> Vec<Vec<u64>> {
    let s: Vec<Vec<u64>> = sentences(text).iter().map(|&(a, b)| shingles(&text[a..b], buf)).collect();
    (0..s.len())
        .map(|i| {
            let mut w: Vec<u64> = s[i.saturating_sub(1)..(i + 2).min(s.len())].concat();
            w.sort_unstable();
            w.dedup();
            w
        })
        .collect()
}

/// Whether a sentence of `text`, or a run of 3 (the short lines of a code block, a list),
/// of 6 shingles or more (the least a reported span shares) has half of its shingles in
/// one window of 3 sentences of a reference ([`windows`]).
fn shares(text: &str, wins: &[Vec<u64>], buf: &mut String) -> bool {
    let s: Vec<Vec<u64>> = sentences(text).iter().map(|&(a, b)| shingles(&text[a..b], buf)).collect();
    let runs = (0..s.len()).map(|i| s[i].clone()).chain((0..s.len().saturating_sub(2)).map(|i| {
        let mut w = s[i..i + 3].concat();
        w.sort_unstable();
        w.dedup();
        w
    }));
    runs.into_iter().any(|x| x.len() >= 6 && wins.iter().any(|w| containment(&x, w) >= 0.5))
}

/// (found, copies) per (language, edit rate).
type Tally = std::collections::BTreeMap<(&'static str, u32), (usize, usize)>;

struct Copy {
    doc: usize,
    sub: (usize, usize),
    src: (usize, usize),
    /// The shingles of the original text (a reference span holding them finds the copy too).
    orig: Vec<u64>,
    /// Another document of the corpus holds half of the original's shingles: the copy is
    /// of shared text (boilerplate), and nothing in it tells it from an original use.
    shared: bool,
    /// The original is code ([`is_code`]): C examples and SEE ALSO lists of the man pages.
    code: bool,
}

/// Whether `text` reads as code, not prose: at least 5 % of its non-whitespace characters
/// are the brackets, operators and marks of C code and of man-page references
/// (`(){}[];=*&|<>#"\`). Prose stays under it (a licence's `(c)`, a quoted "AS IS": 2 to 4 %);
/// `verbose = 0;`, `#include <stdio.h>` and `fork(2),` are far above. The breakdown it
/// gives (`prose_recall_*`) says how the checker does on text in general, which the
/// corpus's code examples hide.
fn is_code(text: &str) -> bool {
    let (mut marks, mut all) = (0usize, 0usize);
    for c in text.chars().filter(|c| !c.is_whitespace()) {
        all += 1;
        marks += usize::from("(){}[];=*&|<>#\"\\".contains(c));
    }
    20 * marks >= all && all > 0
}

/// Every document's shingles as sorted `(shingle, document)` postings, to ask which other
/// documents hold a copy's text ([`held_elsewhere`]).
fn postings(pool: &[String], buf: &mut String) -> Vec<(u64, u32)> {
    let mut v: Vec<(u64, u32)> = pool
        .iter()
        .enumerate()
        .flat_map(|(d, t)| shingles(t, buf).into_iter().map(move |h| (h, d as u32)))
        .collect();
    v.sort_unstable();
    v
}

/// Whether a document of the pool other than `source` holds half of `orig` (shingles
/// held by more than `COMMON` documents count as held by every one: an upper bound that
/// keeps this fast).
fn held_elsewhere(orig: &[u64], post: &[(u64, u32)], source: usize) -> bool {
    const COMMON: usize = 500;
    let mut count: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
    let mut common = 0;
    for &h in orig {
        let lo = post.partition_point(|e| e.0 < h);
        let hi = lo + post[lo..].partition_point(|e| e.0 == h);
        if hi - lo > COMMON {
            common += 1;
            continue;
        }
        for e in &post[lo..hi] {
            if e.1 as usize != source {
                *count.entry(e.1).or_default() += 1;
            }
        }
    }
    let half = orig.len().div_ceil(2);
    common >= half || count.values().any(|&c| c + common >= half)
}

/// Whether reported reference span `rs` is the copy's source: it overlaps the source, or
/// holds the original's text elsewhere (a licence header that a man page repeats).
fn source_ok(cp: &Copy, reference: &str, rs: (usize, usize)) -> bool {
    rs.1.min(cp.src.1) > rs.0.max(cp.src.0)
        || containment(&cp.orig, &shingles(&reference[rs.0..rs.1], &mut String::new())) >= 0.5
}

/// The longest word (in characters) an English edit inserts.
const MAX_WORD: usize = 24;

/// The tokens of Chinese text as a reader (and the checker) counts them: each CJK
/// character, each run of other non-space characters (a Latin word, a number, a path),
/// and each run of whitespace (kept, never edited). One edit in `linuxforum` is one word
/// changed, as in the English rows, not a fifth of a word's letters each changed.
fn zh_tokens(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    // The class of `cur`: 0 none, 1 word, 2 whitespace, 3 a CJK character.
    let mut class = 0;
    for c in text.chars() {
        let k = if is_cjk(c) {
            3
        } else if c.is_whitespace() {
            2
        } else {
            1
        };
        if k != class || k == 3 {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            class = k;
        }
        cur.push(c);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// `text` with edits at `rate` of its tokens (words; for Chinese, characters and the
/// Latin words among them, [`zh_tokens`]).
fn edit(text: &str, rate: f64, zh: bool, vocab: &[String], rng: &mut Rng) -> String {
    if rate == 0.0 {
        return text.to_string();
    }
    // Swap two adjacent sentences.
    let s = sentences(text);
    let mut text = text.to_string();
    if s.len() >= 2 {
        let i = rng.pick(s.len() - 1);
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
    let toks: Vec<String> = if zh { zh_tokens(&text) } else { text.split(' ').map(String::from).collect() };
    let mut out: Vec<String> = Vec::new();
    for t in toks {
        if !rng.chance(rate) || t.trim().is_empty() {
            out.push(t);
            continue;
        }
        let w = vocab[rng.pick(vocab.len())].clone();
        match rng.pick(3) {
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

/// How much of reported span `m` (in bytes of the submission `sub`) lies in planted copies
/// that reference `doc` holds: copies from it, and copies from another source whose text
/// inside the span is half found in the reported reference span (two licences that
/// share a warranty clause both hold a copy of it).
fn in_copies(copies: &[Copy], sub: &str, reference: &str, doc: usize, m: &PassageMatch) -> usize {
    let s = (m.submission_span.start, m.submission_span.end);
    let rs = (m.reference_span.start, m.reference_span.end);
    let mut buf = String::new();
    let held = shingles(&reference[rs.0..rs.1], &mut buf);
    copies
        .iter()
        .map(|c| {
            let (a, b) = (s.0.max(c.sub.0), s.1.min(c.sub.1));
            if b <= a {
                0
            } else if c.doc == doc || containment(&shingles(&sub[a..b], &mut buf), &held) >= 0.5 {
                b - a
            } else {
                0
            }
        })
        .sum()
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let dir = corpus_dir();
    let raw = std::fs::read_to_string(dir.join("docs.jsonl")).expect("docs.jsonl (set SIMHASH_DEVCORPUS)");
    // Documents with a near-duplicate (a pair at J >= 0.5) are left out: their shared text
    // would count as a false match against an "unrelated" reference.
    let truth = std::fs::read_to_string(dir.join("truth_j05.tsv")).expect("truth_j05.tsv");
    let near: std::collections::HashSet<&str> =
        truth.lines().skip(1).flat_map(|l| l.split('\t').take(2)).collect();
    let mut en = Vec::new();
    let mut zh = Vec::new();
    for l in raw.lines() {
        let v: serde_json::Value = serde_json::from_str(l).expect("docs.jsonl line");
        let (id, text) = (v["id"].as_str().unwrap_or(""), v["text"].as_str().unwrap_or("").to_string());
        if near.contains(id) {
            continue;
        }
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
    // Short texts: fortunes (English quotes and letters, hard-wrapped like mail; Chinese
    // poems and classics), 15 to an anthology, one fortune a paragraph.
    let (mut en_short, mut zh_short) = (Vec::new(), Vec::new());
    {
        let mut items: Vec<(bool, String)> = Vec::new();
        for l in raw.lines() {
            let v: serde_json::Value = serde_json::from_str(l).expect("docs.jsonl line");
            let id = v["id"].as_str().unwrap_or("");
            if near.contains(id) || !id.contains("-fortune/") {
                continue;
            }
            let t = v["text"].as_str().unwrap_or("").trim().replace("\n\n", "\n");
            if (150..2000).contains(&t.len()) {
                items.push((id.starts_with("zh"), t));
            }
        }
        let mut rng = Rng(1414);
        for i in (1..items.len()).rev() {
            items.swap(i, rng.pick(i + 1));
        }
        for zh in [false, true] {
            let texts: Vec<&String> = items.iter().filter(|x| x.0 == zh).map(|x| &x.1).collect();
            let out = if zh { &mut zh_short } else { &mut en_short };
            out.extend(
                texts.chunks_exact(15).map(|c| c.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n\n")),
            );
        }
    }
    let cases = if quick { 8 } else { 100 };
    // For measuring one part: `SIMHASH_PASSAGES_LANGS=en,zh` runs those rows only, and
    // `SIMHASH_PASSAGES_SWEEP=0` leaves out the containment-vs-Jaccard sweep (its check).
    let langs = std::env::var("SIMHASH_PASSAGES_LANGS").ok();
    let run_lang = |l: &str| langs.as_ref().is_none_or(|v| v.split(',').any(|x| x == l));
    let sweep_on = std::env::var("SIMHASH_PASSAGES_SWEEP").map_or(true, |v| v != "0");
    let rates = [0.0, 0.05, 0.10, 0.20];
    let mut hasher = SimHasher::new(Default::default()).unwrap();
    println!("passages: {cases} cases per language and edit rate, 10 references each (3 sources, 7 unrelated), 3 copies per submission");
    println!(
        "{:<8} {:>5} | {:>8} {:>8} {:>9} | {:>10} | {:>8} | {:>15} | {:>15} | {:>15}",
        "lang",
        "edits",
        "copies",
        "recall",
        "spans ok",
        "today k=3",
        "ms/check",
        "own text: recall",
        "prose: recall",
        "own prose: rec."
    );
    let mut out = Tally::new();
    let mut own = Tally::new();
    let mut prose = Tally::new();
    let mut code = Tally::new();
    // Reported spans whose text reads as code ([`is_code`]): (correct, all), long texts.
    let (mut good_c, mut spans_c) = (0usize, 0usize);
    // Reported spans per language (correct, all).
    let mut by_lang: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
    let mut general = Tally::new();
    let (mut good, mut spans, mut ms_total, mut checks) = (0usize, 0usize, 0.0, 0usize);
    let (mut good_s, mut spans_s) = (0usize, 0usize);
    let mut buf = String::new();
    let (mut dropped, mut unrelated_dropped) = (0usize, 0usize);
    // The sweep: one check at a low threshold, its spans kept by containment or by Jaccard
    // at each level: (found, copies, correct spans, spans) per (measure, level).
    let levels = [0.3, 0.4, 0.5, 0.6, 0.7];
    let mut sweep = vec![[0usize; 4]; 2 * levels.len()];
    let mut sweep_zh = vec![[0usize; 4]; 2 * levels.len()];
    for (li, (lang, pool)) in
        [("en", &en), ("zh", &zh), ("en-short", &en_short), ("zh-poem", &zh_short)].into_iter().enumerate()
    {
        if !run_lang(lang) {
            for r in [0, 5, 10, 20] {
                for t in [&mut out, &mut own, &mut prose, &mut general, &mut code] {
                    t.insert((lang, r), (0, 0));
                }
            }
            continue;
        }
        let is_zh = lang.starts_with("zh");
        let short = lang.contains('-');
        let post = postings(pool, &mut buf);
        for (ri, &rate) in rates.iter().enumerate() {
            let (mut copies_n, mut found, mut today, mut ok, mut reported, mut ms) = (0, 0, 0, 0, 0, 0.0);
            // Copies of text no other document holds (found, copies).
            let (mut own_found, mut own_n) = (0usize, 0usize);
            // Copies of prose, not code (found, copies).
            let (mut prose_found, mut prose_n) = (0usize, 0usize);
            // Copies of code ([`is_code`]) (found, copies).
            let (mut code_found, mut code_n) = (0usize, 0usize);
            // Copies of own prose: neither shared nor code (found, copies).
            let (mut general_found, mut general_n) = (0usize, 0usize);
            for case in 0..cases {
                // Each case draws from its own stream, so a change in one case (its edits,
                // the references it then picks) moves no other.
                let mut rng = Rng(Rng(14 ^ (li as u64) << 48 ^ (ri as u64) << 40 ^ case as u64).next());
                // 3 distinct sources; original paragraphs from other documents, none with a
                // sentence mostly found in a source; then 7 unrelated references (distinct, not
                // the documents of the original paragraphs) in which no sentence of the
                // submission is mostly found (boilerplate would be a true copy).
                let mut picked: Vec<usize> = Vec::new();
                // A text not yet in this case; `None` when every one is.
                let draw = |rng: &mut Rng, picked: &mut Vec<usize>| loop {
                    if picked.len() >= pool.len() {
                        return None;
                    }
                    let d = rng.pick(pool.len());
                    if !picked.contains(&d) {
                        picked.push(d);
                        return Some(d);
                    }
                };
                let sources: Vec<usize> =
                    (0..3).map(|_| draw(&mut rng, &mut picked).expect("3 sources")).collect();
                let mut refs: Vec<&String> = sources.iter().map(|&d| &pool[d]).collect();
                let src_sets: Vec<Vec<Vec<u64>>> = refs.iter().map(|r| windows(r, &mut buf)).collect();
                let mut own: Vec<String> = Vec::new();
                while own.len() < 8 {
                    let d = draw(&mut rng, &mut picked).expect("texts for 8 original paragraphs");
                    for p in paragraphs(&pool[d]) {
                        if own.len() < 8 && !src_sets.iter().any(|set| shares(&p, set, &mut buf)) {
                            own.push(p);
                        } else if own.len() < 8 {
                            dropped += 1;
                        }
                    }
                }
                let zh_vocab = || -> Vec<String> {
                    zh_tokens(&own.concat()).into_iter().filter(|t| !t.trim().is_empty()).collect()
                };
                let vocab: Vec<String> = if is_zh {
                    zh_vocab()
                } else {
                    // Words, not whole paragraphs of a script written without spaces (a
                    // licence's Chinese version among the English ones): one inserted
                    // "word" of 10 kB made a 10 % edit bury the copy.
                    own.concat()
                        .split_whitespace()
                        .filter(|w| w.chars().count() <= MAX_WORD && !w.chars().any(is_cjk))
                        .map(String::from)
                        .collect()
                };
                // (Original paragraphs all in such a script: their characters, as in Chinese.)
                let vocab = if vocab.is_empty() { zh_vocab() } else { vocab };
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
                    let whole = rng.pick(2) == 0;
                    let (s, e) = ps[rng.pick(ps.len())];
                    let src = if whole {
                        (s, e)
                    } else {
                        let ss = sentences(&r[s..e]);
                        let mut n = 1 + rng.pick(3.min(ss.len()));
                        let mut a = rng.pick(ss.len() + 1 - n);
                        // A copy worth the name: at least 40 characters (the checker's window),
                        // not a lone code line like `NLMSG_DONE` or `}`: grown by the sentences
                        // after it, and, at the paragraph's end, by those before it.
                        let chars = |a: usize, n: usize| {
                            r[s + ss[a].0..s + ss[a + n - 1].1].chars().filter(|c| !c.is_whitespace()).count()
                        };
                        while a + n < ss.len() && chars(a, n) < 40 {
                            n += 1;
                        }
                        while a > 0 && chars(a, n) < 40 {
                            a -= 1;
                            n += 1;
                        }
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
                    let orig = shingles(&r[src.0..src.1], &mut buf);
                    let shared = held_elsewhere(&orig, &post, sources[doc]);
                    let code = is_code(&r[src.0..src.1]);
                    copies.push(Copy { doc, sub: (start, sub.len()), src, orig, shared, code });
                    sub += after;
                }
                while refs.len() < 10 {
                    // Chinese classics quoted across the anthologies can use every one up:
                    // the case then has fewer unrelated references.
                    let Some(d) = draw(&mut rng, &mut picked) else { break };
                    let set = windows(&pool[d], &mut buf);
                    if shares(&sub, &set, &mut buf) {
                        unrelated_dropped += 1;
                        continue;
                    }
                    refs.push(&pool[d]);
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
                if sweep_on {
                    let mut low =
                        PassageChecker::new(PassageOptions { threshold: 0.3, ..Default::default() }).unwrap();
                    for r in &refs {
                        low.add_reference(r).unwrap();
                    }
                    let low = low.check(&sub).unwrap();
                    for (v, &level) in levels.iter().enumerate() {
                        for (m_i, jac) in [(v, false), (levels.len() + v, true)] {
                            let keep = |m: &simhash_wasm::passage::PassageMatch| {
                                (if jac { m.jaccard } else { m.similarity }) >= level
                            };
                            let mut x = [0usize; 4];
                            for cp in &copies {
                                x[1] += 1;
                                x[0] += usize::from(
                                    low.references
                                        .iter()
                                        .filter(|r| r.doc == cp.doc)
                                        .flat_map(|r| &r.matches)
                                        .filter(|m| keep(m))
                                        .any(|m| {
                                            let (s, rs) = (
                                                (m.submission_span.start, m.submission_span.end),
                                                (m.reference_span.start, m.reference_span.end),
                                            );
                                            2 * overlap(s, cp.sub) >= cp.sub.1 - cp.sub.0
                                                && source_ok(cp, refs[cp.doc], rs)
                                        }),
                                );
                            }
                            for r in &low.references {
                                for m in r.matches.iter().filter(|m| keep(m)) {
                                    x[3] += 1;
                                    let s = (m.submission_span.start, m.submission_span.end);
                                    let in_copy = in_copies(&copies, &sub, refs[r.doc], r.doc, m);
                                    x[2] += usize::from(2 * in_copy >= s.1 - s.0);
                                }
                            }
                            for (t, a) in sweep[m_i].iter_mut().zip(x) {
                                *t += a;
                            }
                            if is_zh {
                                for (t, a) in sweep_zh[m_i].iter_mut().zip(x) {
                                    *t += a;
                                }
                            }
                        }
                    }
                }
                for cp in &copies {
                    copies_n += 1;
                    let hit =
                        report.references.iter().filter(|r| r.doc == cp.doc).flat_map(|r| &r.matches).any(
                            |m| {
                                let (s, rs) = (
                                    (m.submission_span.start, m.submission_span.end),
                                    (m.reference_span.start, m.reference_span.end),
                                );
                                2 * overlap(s, cp.sub) >= cp.sub.1 - cp.sub.0
                                    && source_ok(cp, refs[cp.doc], rs)
                            },
                        );
                    found += usize::from(hit);
                    if !cp.shared {
                        own_n += 1;
                        own_found += usize::from(hit);
                    }
                    if !cp.code {
                        prose_n += 1;
                        prose_found += usize::from(hit);
                    } else {
                        code_n += 1;
                        code_found += usize::from(hit);
                    }
                    if !cp.code && !cp.shared {
                        general_n += 1;
                        general_found += usize::from(hit);
                    }
                    if !hit
                        && std::env::var("SIMHASH_PASSAGES_DEBUG").is_ok_and(|v| {
                            v == format!("miss{}", (rate * 100.0) as u32)
                                || (cp.code && v == format!("codemiss{}", (rate * 100.0) as u32))
                        })
                    {
                        // Below the checker's floors? (40 characters, a CJK one counting 2; 6
                        // shingles.)
                        let text = &sub[cp.sub.0..cp.sub.1];
                        let chars: usize = text
                            .chars()
                            .filter(|c| !c.is_whitespace())
                            .map(|c| if c > '\u{2e80}' { 2 } else { 1 })
                            .sum();
                        let own = shingles(text, &mut String::new());
                        let n = own.len();
                        eprintln!(
                            "MISS {lang} copy {:?}{} ({chars} chars, {n} shingles, {:.2} of them in the original{}): {:?}",
                            cp.sub,
                            if cp.shared { " of shared text" } else { "" },
                            containment(&own, &cp.orig),
                            if chars < 40 || n < 6 { ", below the floor" } else { "" },
                            &sub[cp.sub.0..cp.sub.1].chars().take(200).collect::<String>()
                        );
                        for r in &report.references {
                            for m in &r.matches {
                                eprintln!(
                                    "   ref {} (src {}) span {:?} sim {:.2}: {:?}",
                                    r.doc,
                                    cp.doc,
                                    (m.submission_span.start, m.submission_span.end),
                                    m.similarity,
                                    &sub[m.submission_span.start..m.submission_span.end]
                                        .chars()
                                        .take(80)
                                        .collect::<String>()
                                );
                            }
                        }
                    }
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
                        let in_copy = in_copies(&copies, &sub, refs[r.doc], r.doc, m);
                        let good = 2 * in_copy >= s.1 - s.0;
                        ok += usize::from(good);
                        if !short && is_code(&sub[s.0..s.1]) {
                            good_c += usize::from(good);
                            spans_c += 1;
                        }
                        if !good && std::env::var("SIMHASH_PASSAGES_DEBUG").is_ok_and(|v| v == "2") {
                            // The submission's span, the reference's, and the copies the
                            // span touches (their source and whether their text is shared).
                            let rs = (m.reference_span.start, m.reference_span.end);
                            let near: Vec<String> = copies
                                .iter()
                                .filter(|c| overlap(s, c.sub) > 0)
                                .map(|c| {
                                    format!("copy from {}{}", c.doc, if c.shared { " (shared)" } else { "" })
                                })
                                .collect();
                            eprintln!(
                                "FALSE {lang} {rate} case {case} ref {}{} at {} {} sim {:.2} sents {:?} {near:?}\n  sub: {:?}\n  ref: {:?}",
                                r.doc,
                                if r.doc < 3 { " (a source)" } else { " (unrelated)" },
                                s.0,
                                s.1,
                                m.similarity,
                                m.submission,
                                &sub[s.0..s.1].chars().take(300).collect::<String>(),
                                &refs[r.doc][rs.0..rs.1].chars().take(300).collect::<String>()
                            );
                        }
                    }
                }
            }
            let recall = found as f64 / copies_n.max(1) as f64;
            println!(
                "{lang:<8} {:>4}% | {copies_n:>8} {recall:>8.3} {:>4}/{:<4} | {:>10.3} | {:>8.1} | {own_n:>5} {:>9.3} | {prose_n:>5} {:>9.3} | {general_n:>5} {:>9.3}",
                rate * 100.0,
                ok,
                reported,
                today as f64 / copies_n.max(1) as f64,
                ms / cases as f64,
                own_found as f64 / own_n.max(1) as f64,
                prose_found as f64 / prose_n.max(1) as f64,
                general_found as f64 / general_n.max(1) as f64
            );
            out.insert((lang, (rate * 100.0) as u32), (found, copies_n));
            own.insert((lang, (rate * 100.0) as u32), (own_found, own_n));
            prose.insert((lang, (rate * 100.0) as u32), (prose_found, prose_n));
            code.insert((lang, (rate * 100.0) as u32), (code_found, code_n));
            general.insert((lang, (rate * 100.0) as u32), (general_found, general_n));
            if short {
                good_s += ok;
                spans_s += reported;
                continue;
            }
            good += ok;
            spans += reported;
            let l = by_lang.entry(lang).or_default();
            l.0 += ok;
            l.1 += reported;
            ms_total += ms;
            checks += cases;
        }
    }
    println!("left out: {dropped} original paragraphs sharing a sentence with a source, {unrelated_dropped} unrelated references sharing a sentence with the submission");
    println!("containment vs Jaccard (one check at threshold 0.3, spans kept at each level; all rates):");
    println!(
        "{:<12} {:>5} | {:>8} {:>9} | {:>8} {:>9}",
        "measure", "level", "recall", "precision", "zh rec", "zh prec"
    );
    for (i, x) in sweep.iter().enumerate() {
        let z = sweep_zh[i];
        let f = |a: usize, b: usize| a as f64 / b.max(1) as f64;
        println!(
            "{:<12} {:>5.2} | {:>8.3} {:>9.3} | {:>8.3} {:>9.3}",
            if i < levels.len() { "containment" } else { "jaccard" },
            levels[i % levels.len()],
            f(x[0], x[1]),
            f(x[2], x[3]),
            f(z[0], z[1]),
            f(z[2], z[3])
        );
    }
    // The recall of the copies `tally` counts, in `langs` at edit rate `r`.
    let recall = |tally: &Tally, langs: &[&str], r: u32| {
        let (f, n) = langs.iter().fold((0, 0), |a, l| {
            let x = tally[&(*l, r)];
            (a.0 + x.0, a.1 + x.1)
        });
        f as f64 / n.max(1) as f64
    };
    // The share of the en and zh copies, at every rate, that `tally` does not count.
    let left_out = |tally: &Tally| {
        let (t, a) = ["en", "zh"]
            .iter()
            .flat_map(|l| [0, 5, 10, 20].map(|r| (tally[&(*l, r)].1, out[&(*l, r)].1)))
            .fold((0, 0), |a, x| (a.0 + x.0, a.1 + x.1));
        1.0 - t as f64 / a.max(1) as f64
    };
    const BOTH: &[&str] = &["en", "zh"];
    const SHORT: &[&str] = &["en-short", "zh-poem"];
    println!(
        "RESULT passage_recall_0={:.3} passage_recall_10={:.3} passage_recall_20={:.3} passage_precision={:.3} recall_zh_10={:.3} check_ms={:.1} short_recall_0={:.3} short_recall_10={:.3} short_recall_20={:.3} short_precision={:.3} recall_poem_10={:.3} own_recall_0={:.3} own_recall_10={:.3} own_recall_20={:.3} shared_copies={:.3} prose_recall_0={:.3} prose_recall_10={:.3} prose_recall_20={:.3} prose_recall_en_10={:.3} prose_recall_zh_10={:.3} code_copies={:.3} own_prose_recall_0={:.3} own_prose_recall_10={:.3} own_prose_recall_20={:.3} code_recall_0={:.3} code_recall_10={:.3} code_recall_20={:.3} code_recall_en_0={:.3} code_recall_en_10={:.3} code_recall_en_20={:.3} code_recall_zh_0={:.3} code_recall_zh_10={:.3} code_recall_zh_20={:.3} code_precision={:.3} precision_en={:.3} precision_zh={:.3}",
        recall(&out, BOTH, 0),
        recall(&out, BOTH, 10),
        recall(&out, BOTH, 20),
        good as f64 / spans.max(1) as f64,
        recall(&out, &["zh"], 10),
        ms_total / checks.max(1) as f64,
        recall(&out, SHORT, 0),
        recall(&out, SHORT, 10),
        recall(&out, SHORT, 20),
        good_s as f64 / spans_s.max(1) as f64,
        recall(&out, &["zh-poem"], 10),
        // Copies of text no other document of the corpus holds half of.
        recall(&own, BOTH, 0),
        recall(&own, BOTH, 10),
        recall(&own, BOTH, 20),
        left_out(&own),
        // Copies of prose (not code, [`is_code`]).
        recall(&prose, BOTH, 0),
        recall(&prose, BOTH, 10),
        recall(&prose, BOTH, 20),
        recall(&prose, &["en"], 10),
        recall(&prose, &["zh"], 10),
        left_out(&prose),
        // Copies of own prose (neither code nor shared text): text in general.
        recall(&general, BOTH, 0),
        recall(&general, BOTH, 10),
        recall(&general, BOTH, 20),
        // Copies of code ([`is_code`]), and the reported spans that read as code.
        recall(&code, BOTH, 0),
        recall(&code, BOTH, 10),
        recall(&code, BOTH, 20),
        recall(&code, &["en"], 0),
        recall(&code, &["en"], 10),
        recall(&code, &["en"], 20),
        recall(&code, &["zh"], 0),
        recall(&code, &["zh"], 10),
        recall(&code, &["zh"], 20),
        good_c as f64 / spans_c.max(1) as f64,
        by_lang.get("en").map_or(0.0, |x| x.0 as f64 / x.1.max(1) as f64),
        by_lang.get("zh").map_or(0.0, |x| x.0 as f64 / x.1.max(1) as f64)
    );
}
