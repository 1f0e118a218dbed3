//! Property tests: every fast path equals its naive reference on random input (the memchr
//! model), and the fingerprint has the properties the scheme promises.

use simhash_wasm::__private::normalize::{normalize, normalize_reference};
use simhash_wasm::__private::tokenize::grapheme_starts;
use simhash_wasm::fingerprint_features;
use simhash_wasm::{hamming, NormalizeOptions as N, Options, SimHasher, Tokenizer, Weighting};
use simhash_wasm::{NormalizeOptions, Punctuation};
use unicode_segmentation::UnicodeSegmentation;

mod common;
use common::Rng;

fn below(rng: &mut Rng, n: usize) -> usize {
    rng.below(n as u64) as usize
}

/// Characters that exercise every path: ASCII, CJK, combining marks, compatibility forms,
/// Hangul jamo, emoji with ZWJ and skin tones, regional indicators, Indic conjuncts,
/// controls, odd whitespace, punctuation of several scripts.
const ALPHABET: &[&str] = &[
    "a",
    "B",
    "z",
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    ".",
    ",",
    "-",
    "!",
    "'",
    "0",
    "9",
    "上",
    "海",
    "赛",
    "㐀",
    "，",
    "。",
    "！",
    "「",
    "」",
    "、",
    "〇",
    "\u{3029}",
    "\u{302A}",
    "\u{302F}",
    "\u{3030}",
    "\u{301}",
    "\u{308}",
    "\u{327}",
    "e\u{301}",
    "ﬁ",
    "Ａ",
    "ｂ",
    "①",
    "Ⅻ",
    "ㄱ",
    "\u{1100}",
    "\u{1161}",
    "\u{11A8}",
    "가",
    "👩",
    "\u{200D}",
    "👧",
    "\u{1F3FD}",
    "🇫",
    "🇷",
    "क",
    "\u{94D}",
    "ष",
    "\u{0}",
    "\u{7F}",
    "\u{1C}",
    "\u{85}",
    "\u{A0}",
    "\u{2028}",
    "\u{3000}",
    "İ",
    "ß",
    "Σ",
    "ς",
    "ǅ",
    "ｶ",
    "\u{FF9E}",
    "\u{3099}",
    "か",
    "が",
    "€",
    "≈",
    "^",
    "`",
    "\u{FEFF}",
    "\u{E000}",
    "\u{10FFFF}",
    "\u{2F800}",
    "\u{F900}",
];

fn random_text(rng: &mut Rng, max_len: usize) -> String {
    let len = below(rng, max_len + 1);
    (0..len).map(|_| ALPHABET[below(rng, ALPHABET.len())]).collect()
}

const CASES: usize = 20_000;

#[test]
fn fast_normalisation_equals_the_reference() {
    let mut rng = Rng(1);
    for case in 0..CASES {
        let text = random_text(&mut rng, 24);
        for punctuation in [Punctuation::Keep, Punctuation::Drop, Punctuation::Collapse] {
            for (nfkc, lowercase) in [(true, true), (false, true), (true, false)] {
                let o = NormalizeOptions { punctuation, nfkc, lowercase };
                assert_eq!(
                    normalize(&text, &o),
                    normalize_reference(&text, &o),
                    "case {case}: {text:?} {o:?}"
                );
            }
        }
    }
}

/// The eight-bytes-at-a-time ASCII step of the normaliser against the reference, on texts
/// made to hit its every rule: runs of letters of both cases and digits, single and double
/// spaces, punctuation alone and in runs, spaces first and last, tabs and newlines,
/// controls, and a CJK ideograph or an accented letter now and then, at every alignment.
#[test]
fn ascii_word_step_equals_the_reference() {
    const PIECES: &[&str] = &[
        "word", "Cat", "ABC", "x", "42", " ", " ", " ", "  ", ".", ",", "--", "!?", "\n", "\t", "\u{7}",
        "\u{7F}", "\u{8}", "\u{B}", "\r", "\u{E}", "\u{1B}", "\u{1C}", "\u{1F}", "上", "é", "~", "a.b",
        " - ",
    ];
    let mut rng = Rng(8);
    for case in 0..CASES {
        let len = below(&mut rng, 30);
        let text: String = (0..len).map(|_| PIECES[below(&mut rng, PIECES.len())]).collect();
        for punctuation in [Punctuation::Keep, Punctuation::Drop, Punctuation::Collapse] {
            for (nfkc, lowercase) in [(true, true), (false, true), (true, false)] {
                let o = NormalizeOptions { punctuation, nfkc, lowercase };
                assert_eq!(
                    normalize(&text, &o),
                    normalize_reference(&text, &o),
                    "case {case}: {text:?} {o:?}"
                );
            }
        }
    }
}

#[test]
fn fast_grapheme_boundaries_equal_unicode_segmentation() {
    let mut rng = Rng(2);
    for case in 0..CASES {
        let text = random_text(&mut rng, 24);
        let mut got = Vec::new();
        grapheme_starts(&text, &mut got);
        let mut want: Vec<u32> = text.grapheme_indices(true).map(|(i, _)| i as u32).collect();
        want.push(text.len() as u32);
        assert_eq!(got, want, "case {case}: {text:?}");
    }
}

/// Normalising twice changes nothing, for every option combination, on every case: no
/// case is filtered out. Two exceptions are known, and in them the text must be stable
/// after the second pass:
///
/// * `İ` lower-cases (after NFKC ran) to `i` + U+0307, and a following mark of a lower
///   combining class is put before the U+0307 by the next NFKC pass;
/// * dropped punctuation (after NFKC ran) can bring a base and a mark together that the
///   next NFKC pass composes or reorders (`a,\u{301}` → `a\u{301}` → `á`).
///
/// The counts make sure the property was checked: on at least 95% of the cases of every
/// combination, and on long texts (6 or more grapheme clusters) in at least half of them.
#[test]
fn normalisation_is_idempotent() {
    let mut rng = Rng(3);
    let per_combination = CASES / 4;
    for punctuation in [Punctuation::Keep, Punctuation::Drop, Punctuation::Collapse] {
        for (nfkc, lowercase) in [(true, true), (false, true), (true, false), (false, false)] {
            let o = NormalizeOptions { punctuation, nfkc, lowercase };
            let (mut strict, mut long, mut exceptions) = (0, 0, 0);
            for _ in 0..per_combination {
                let text = random_text(&mut rng, 24);
                let once = normalize(&text, &o);
                let twice = normalize(&once, &o);
                if twice == once {
                    strict += 1;
                    long += usize::from(once.graphemes(true).count() >= 6);
                } else {
                    let turkish_i = nfkc && lowercase && text.contains('İ');
                    let dropped = nfkc && punctuation == Punctuation::Drop;
                    assert!(turkish_i || dropped, "{o:?}: {text:?} -> {once:?} -> {twice:?}");
                    assert_eq!(
                        normalize(&twice, &o),
                        twice,
                        "{o:?}: {text:?} is not stable after two passes"
                    );
                    exceptions += 1;
                }
                assert!(!once.starts_with(' ') && !once.ends_with(' ') && !once.contains("  "), "{once:?}");
            }
            assert!(
                strict * 100 >= per_combination * 95 && long * 2 >= per_combination,
                "{o:?}: idempotence checked on {strict} of {per_combination} cases ({long} long), \
                 {exceptions} known exceptions"
            );
        }
    }
}

#[test]
fn fingerprint_depends_on_the_normalised_text_only() {
    let mut h = SimHasher::new(Options::default()).unwrap();
    let pairs = [
        ("The Quick Brown Fox jumps", "the   quick\nbrown\tfox JUMPS"),
        ("ＦＵＬＬ width ﬁne text", "FULL width fine text"),
        ("Cafe\u{301} au lait, s'il vous plait", "Café au lait, s'il vous plait"),
        ("Separator -------- below it", "Separator - below it"),
        ("上海上港，亚冠附加赛。", "上海上港,亚冠附加赛。"),
    ];
    for (a, b) in pairs {
        assert_eq!(h.fingerprint(a).unwrap(), h.fingerprint(b).unwrap(), "{a:?} vs {b:?}");
    }
}

/// The reported failure of TF weights: 152 different e-mails shared one fingerprint,
/// because a `-----` separator dominated. With the default options, a long separator run
/// or a heavily repeated boilerplate line must not decide the fingerprint.
#[test]
fn a_repeated_feature_cannot_decide_the_default_fingerprint() {
    let mut rng = Rng(4);
    let words = [
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo",
        "lima", "mike", "november", "oscar", "papa",
    ];
    let mut body = || (0..60).map(|_| words[below(&mut rng, words.len())]).collect::<Vec<_>>().join(" ");
    let sep = "-".repeat(5000);
    let boiler = "-----\n".repeat(400);
    let mut default = SimHasher::new(Options::default()).unwrap();
    let mut tf = SimHasher::new(Options {
        weighting: Weighting::Tf,
        normalize: N { punctuation: Punctuation::Keep, ..N::default() },
        ..Options::default()
    })
    .unwrap();
    let mut fps = Vec::new();
    let mut tf_fps = Vec::new();
    for _ in 0..152 {
        let mail = format!("{}\n{sep}\n{}\n{boiler}", body(), body());
        fps.push(default.fingerprint(&mail).unwrap());
        tf_fps.push(tf.fingerprint(&mail).unwrap());
    }
    // TF weights with punctuation kept reproduce the failure: the separator wins.
    let tf_distinct: std::collections::HashSet<_> = tf_fps.iter().collect();
    assert!(tf_distinct.len() < 5, "the TF control should collapse, got {} distinct", tf_distinct.len());
    // The default keeps different mails apart: all distinct, and far apart on average.
    let distinct: std::collections::HashSet<_> = fps.iter().collect();
    assert_eq!(distinct.len(), fps.len());
    let mean: f64 =
        fps.windows(2).map(|w| f64::from(hamming(w[0], w[1]))).sum::<f64>() / (fps.len() - 1) as f64;
    assert!(mean > 16.0, "mean distance between different mails {mean}");
}

#[test]
fn similar_texts_are_closer_than_different_ones() {
    let mut h = SimHasher::new(Options::default()).unwrap();
    let base = "Detecting near-duplicates for web crawling is a problem of practical importance. \
                Documents that are exact duplicates of each other are easy to find; near-duplicates \
                differ in a small portion, such as advertisements, counters and timestamps.";
    let edited = base.replace("counters", "visit counters").replace("practical", "real practical");
    let other = "We all scream for ice cream, and the cat sat on the mat while the dog barked at the moon all night long.";
    let (a, b, c) =
        (h.fingerprint(base).unwrap(), h.fingerprint(&edited).unwrap(), h.fingerprint(other).unwrap());
    assert!(hamming(a, b) <= 10, "{}", hamming(a, b));
    assert!(hamming(a, c) >= 16, "{}", hamming(a, c));
}

#[test]
fn caller_features_are_order_independent_and_add_up() {
    let a = fingerprint_features(&[("Apache", 10.0), ("Hadoop", 15.0), ("Apache", 5.0)]).unwrap();
    let b = fingerprint_features(&[("Hadoop", 15.0), ("Apache", 15.0)]).unwrap();
    assert_eq!(a, b);
}

#[test]
fn every_setting_handles_random_text_without_panicking() {
    let mut rng = Rng(5);
    let mut hashers: Vec<SimHasher> = Vec::new();
    for n in [1, 2, 3, 6, 16] {
        for w in [Weighting::Binary, Weighting::Tf, Weighting::Sublinear] {
            for tok in [Tokenizer::Chars(n), Tokenizer::Words(n)] {
                hashers.push(
                    SimHasher::new(Options { tokenizer: tok, weighting: w, normalize: N::default() })
                        .unwrap(),
                );
            }
        }
    }
    for _ in 0..2000 {
        let text = random_text(&mut rng, 40);
        for h in &mut hashers {
            match h.fingerprint(&text) {
                Ok(_)
                | Err(simhash_wasm::Error::EmptyText)
                | Err(simhash_wasm::Error::TextTooShort { .. }) => {}
                Err(e) => panic!("{text:?}: {e}"),
            }
        }
    }
}

/// The fast fingerprint path (block-buffered grapheme starts, word-read hashes, the
/// hash-table counter, per-class bit counting) equals a naive reference built from
/// `char_ngrams`, `hash_str`, a `HashMap` of term frequencies and one signed add per bit,
/// on texts long enough to span several blocks of starts, for every n and weighting.
#[test]
fn fast_fingerprint_equals_a_naive_reference() {
    use simhash_wasm::__private::hash::hash_str;
    use simhash_wasm::__private::tokenize::char_ngrams;
    use std::collections::HashMap;
    let mut rng = Rng(6);
    let (mut checked, mut too_short, mut total) = (0, 0, 0);
    for case in 0..120 {
        // Mostly ASCII and CJK (the fast paths), salted with everything else.
        let len = below(&mut rng, 1500);
        let text: String = (0..len)
            .map(|_| match below(&mut rng, 10) {
                0..=5 => ["t", "h", "e", " ", "a", "n"][below(&mut rng, 6)],
                6..=7 => ["上", "海", "赛", "港"][below(&mut rng, 4)],
                _ => ALPHABET[below(&mut rng, ALPHABET.len())],
            })
            .collect();
        for n in [1, 2, 3, 5, 6, 8, 9, 16] {
            for w in [Weighting::Binary, Weighting::Tf, Weighting::Sublinear] {
                let mut h = SimHasher::new(Options {
                    tokenizer: Tokenizer::Chars(n),
                    weighting: w,
                    normalize: N::default(),
                })
                .unwrap();
                total += 1;
                let e = match h.explain(&text) {
                    Ok(e) => e,
                    Err(err) => {
                        // Only a text with no features may fail, and then fingerprinting fails alike.
                        assert!(
                            matches!(
                                err,
                                simhash_wasm::Error::EmptyText | simhash_wasm::Error::TextTooShort { .. }
                            ),
                            "case {case} n {n}: {err}"
                        );
                        assert_eq!(h.fingerprint(&text).unwrap_err(), err, "case {case} n {n}");
                        too_short += 1;
                        continue;
                    }
                };
                checked += 1;
                let want: Vec<(usize, usize, u64)> =
                    char_ngrams(&e.normalized, n).map(|g| (g.start, g.end, hash_str(g.text))).collect();
                let got: Vec<(usize, usize, u64)> =
                    e.tokens.iter().map(|t| (t.start, t.end, t.hash)).collect();
                assert_eq!(got, want, "case {case} n {n}: tokens");
                let mut tf: HashMap<u64, u32> = HashMap::new();
                for &(_, _, hash) in &want {
                    *tf.entry(hash).or_default() += 1;
                }
                let mut sums = [0f64; 64];
                for t in e.tokens.iter().filter(|t| t.first) {
                    assert_eq!(t.tf, tf[&t.hash], "case {case} n {n}: tf");
                    for (i, s) in sums.iter_mut().enumerate() {
                        *s += if t.hash >> i & 1 == 1 { t.weight } else { -t.weight };
                    }
                }
                assert_eq!(e.sums, sums, "case {case} n {n} {w:?}: sums");
                let fp = sums.iter().enumerate().fold(0u64, |fp, (i, &s)| fp | (u64::from(s > 0.0) << i));
                assert_eq!(h.fingerprint(&text).unwrap(), fp, "case {case} n {n} {w:?}: fingerprint");
            }
        }
    }
    assert_eq!(checked + too_short, total);
    assert!(
        checked * 100 >= total * 95,
        "only {checked} of {total} cases were compared ({too_short} too short)"
    );
}

/// The whole fast pipeline (the byte-writing normaliser, the block scan of cluster starts
/// through its inlined trait method, word-read hashes, the tf table, the per-class column
/// counters) against one built from the straightforward parts only: `normalize_reference`
/// (character by character), `unicode-segmentation`'s clusters, `hash_bytes`, a `HashMap`
/// of term frequencies and one signed fixed-point add per bit. Texts mix long ASCII runs
/// (upper case, punctuation runs, odd spaces) with everything in `ALPHABET` (combining
/// marks, CJK, emoji ZWJ sequences, controls), and run past several blocks of starts.
#[test]
fn fingerprint_equals_one_built_from_the_reference_parts() {
    use simhash_wasm::__private::hash::hash_bytes;
    use simhash_wasm::__private::weight::quantize;
    use std::collections::HashMap;
    let mut rng = Rng(15);
    let words = ["The", "cat", "SAT", "on", "the", "mat", "--", "!!!", "a\u{301}", "上海", "👩\u{200D}👧"];
    let mut compared = 0;
    for case in 0..150 {
        let len = below(&mut rng, 700);
        let text: String = (0..len)
            .map(|_| match below(&mut rng, 8) {
                0..=4 => words[below(&mut rng, words.len())],
                5 => " ",
                _ => ALPHABET[below(&mut rng, ALPHABET.len())],
            })
            .collect();
        for (n, w, punctuation) in [
            (6, Weighting::Sublinear, Punctuation::Collapse),
            (3, Weighting::Tf, Punctuation::Keep),
            (8, Weighting::Binary, Punctuation::Drop),
        ] {
            let normalize = NormalizeOptions { punctuation, ..NormalizeOptions::default() };
            let opts = Options { tokenizer: Tokenizer::Chars(n), weighting: w, normalize };
            let norm = normalize_reference(&text, &normalize);
            let clusters: Vec<&str> = norm.graphemes(true).collect();
            let got = SimHasher::new(opts).unwrap().fingerprint(&text);
            if clusters.len() < n {
                assert!(got.is_err(), "case {case}: {} clusters, n {n}", clusters.len());
                continue;
            }
            let mut tf: HashMap<u64, u32> = HashMap::new();
            for g in clusters.windows(n) {
                *tf.entry(hash_bytes(g.concat().as_bytes())).or_default() += 1;
            }
            let mut sums = [0i64; 64];
            for (&h, &count) in &tf {
                let q = quantize(w.tf_weight(count));
                for (i, s) in sums.iter_mut().enumerate() {
                    *s += if h >> i & 1 == 1 { q } else { -q };
                }
            }
            let want = sums.iter().enumerate().fold(0u64, |fp, (i, &s)| fp | (u64::from(s > 0) << i));
            assert_eq!(got.unwrap(), want, "case {case}, n {n}, {w:?}, {punctuation:?}: {text:?}");
            compared += 1;
        }
    }
    assert!(compared >= 400, "only {compared} of 450 cases had enough clusters to compare");
}
