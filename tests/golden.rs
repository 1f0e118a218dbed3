//! Golden vectors: the feature hash and the fingerprints of fixed texts, pinned forever.
//!
//! Stored fingerprints depend on these values. This file runs natively (`cargo test`) and
//! inside wasm (`wasm-pack test --node`), so the two builds can never drift apart. If a
//! value here must change, that is a new fingerprint format: bump `HASH_VERSION` (or the
//! scheme) and keep the old values answering under the old version.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test;

use simhash_wasm::__private::hash::{hash_bytes, hash_str};
use simhash_wasm::dedup::DedupOptions;
use simhash_wasm::HASH_VERSION;
use simhash_wasm::{fingerprint_features, parse_bits, simhash_bits, BitFeature};
use simhash_wasm::{Error, NormalizeOptions, Options, Punctuation, SimHasher, Tokenizer, Weighting};

/// (feature, sh64 v1 hash)
const HASHES: &[(&str, u64)] = &[
    ("", 0xbe3194f25caef870),
    ("a", 0xe8aad0c87b99ec22),
    ("the ", 0x3b99351701c9e06b),
    ("the cat", 0xf7c74cba9a5ffb10),
    ("abcdefgh", 0x91410091b59428f3),
    ("abcdefghi", 0xa32198083fd4f989),
    ("上海上港", 0x1838997951626095),
    ("附加赛", 0x78708e2946f85deb),
    ("亚冠", 0x73c7bd22dbdee181),
    ("Apache", 0x3c1f44fad34253e6),
    ("Hadoop", 0xfa0de1629dc6a65b),
    ("-----", 0x7ebaf2ffd72a0551),
    ("🙂🙃", 0x00876241e05826c9),
    ("e\u{301}", 0xc0eef75e7ecdc8eb),
    ("0123456789abcdef0123", 0x0b8e11fcc1b10722),
];

/// (text, fingerprint with the default options)
const FINGERPRINTS: &[(&str, u64)] = &[
    ("The cat sat on the mat.", 0x546208a33e102c36),
    ("The cat sat on a mat.", 0x015b80a21f043020),
    ("We all scream for ice cream!", 0x069e9cc2ef8423ab),
    ("the cat sat on the mat", 0x556f98a33e103e36),
    ("THE   CAT\tSAT\non the MAT...", 0x546208a33e102c36),
    ("SimHash maps similar documents to similar fingerprints.", 0x12b33955455ea227),
    ("Detecting near-duplicates for web crawling, Manku, Jain and Das Sarma, WWW 2007.", 0x8de47d71f5837df8),
    ("上海上港在亚冠附加赛中绝杀对手，小组赛首轮迎来新赛季。", 0x22801aa80e9cb272),
    ("上海上港在亚冠附加赛中绝杀对手。小组赛首轮迎来新赛季！", 0x219112a86fe8b852),
    ("我们都爱吃冰淇淋", 0xb4a7cf10f87be485),
    ("Mixed 中英文 text: SimHash 指纹 and Hamming 距离.", 0x773f8a50e065c2e8),
    ("Emoji 🙂🙃 and a family 👩\u{200d}👩\u{200d}👧 and flags 🇫🇷🇩🇪", 0x12f4801aa5ae2295),
    ("Café, naïve, résumé — déjà vu.", 0xa3578d149d3855b8),
    ("Cafe\u{301}, nai\u{308}ve, re\u{301}sume\u{301} — de\u{301}ja\u{300} vu.", 0xa3578d149d3855b8),
    ("ＦＵＬＬＷＩＤＴＨ ｔｅｘｔ １２３", 0x5d6aa50ec0b48a4d),
    ("Separator\n------------------------------------------------------------\nbelow", 0x15d8aa32422454c8),
    ("sixchr", 0x2d4e9924ce58186b),
    ("a b c d e f g", 0x9421394a00259421),
    ("Ελληνικά κείμενα ΚΑΙ ΣΙΓΜΑ", 0xb1ec5d0863c1a8dd),
    ("Русский текст для проверки", 0x613aabf1577d0d34),
    ("한국어 텍스트와 함께", 0x21ac18ca9a012160),
    ("Line one.\r\nLine two.\r\n\r\nLine three.", 0xd3902304e884f0c4),
];

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn feature_hash_is_pinned() {
    assert_eq!(HASH_VERSION, 1);
    assert!(HASHES.len() >= 12);
    for &(feature, want) in HASHES {
        assert_eq!(hash_str(feature), want, "sh64 of {feature:?} changed: that is a new HASH_VERSION");
        assert_eq!(hash_bytes(feature.as_bytes()), want);
    }
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn default_fingerprints_are_pinned() {
    assert!(FINGERPRINTS.len() >= 20);
    let mut h = SimHasher::new(Options::default()).unwrap();
    for &(text, want) in FINGERPRINTS {
        let got = h.fingerprint(text).unwrap();
        assert_eq!(got, want, "fingerprint of {text:?} is {got:#018x}, pinned {want:#018x}");
        // The batch form and the bytes form give the same values.
        assert_eq!(h.fingerprint_bytes(text.as_bytes()).unwrap(), want);
    }
    let texts: Vec<&str> = FINGERPRINTS.iter().map(|&(t, _)| t).collect();
    let batch = h.fingerprint_batch(texts).unwrap();
    assert_eq!(batch, FINGERPRINTS.iter().map(|&(_, f)| f).collect::<Vec<_>>());
}

/// The README, read at compile time, so this test runs inside wasm too.
const README: &str = include_str!("../README.md");

/// The number written right after each occurrence of `prefix` in the README (digits and
/// one dot), in order. Fails when `prefix` never occurs, so a reworded README cannot make
/// a check vacuous.
fn readme_numbers_after(prefix: &str) -> Vec<f64> {
    let found: Vec<f64> = README
        .match_indices(prefix)
        .map(|(at, _)| {
            let rest = &README[at + prefix.len()..];
            let end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
            let number = rest[..end].trim_end_matches('.');
            number.parse().unwrap_or_else(|_| panic!("README: no number after {prefix:?}: {number:?}"))
        })
        .collect();
    assert!(!found.is_empty(), "README no longer contains {prefix:?}; update this test with it");
    found
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn the_defaults_are_what_the_readme_says() {
    let d = Options::default();
    assert_eq!(d.tokenizer, Tokenizer::Chars(6));
    assert_eq!(d.weighting, Weighting::Sublinear);
    assert_eq!(
        d.normalize,
        NormalizeOptions { punctuation: Punctuation::Collapse, nfkc: true, lowercase: true }
    );
    assert_eq!(d.describe(), "chars:6 sublinear punct=collapse nfkc lower sh64v1");

    // The scheme section states the defaults in describe()'s own words.
    let key = "`Options::default().describe()`";
    let at = README.find(key).expect("README states the defaults after `Options::default().describe()`");
    let stated = README[at + key.len()..]
        .split('`')
        .skip(1)
        .step_by(2)
        .find(|span| span.contains(" sh64v"))
        .expect("a `… sh64vN` span after `Options::default().describe()` in the README");
    assert_eq!(stated, d.describe(), "README's stated defaults");

    // Every `Tokenizer::Chars(n)` and `chars:n` the README shows is the default n.
    let n = d.tokenizer.n() as f64;
    for prefix in ["Tokenizer::Chars(", "chars:"] {
        for found in readme_numbers_after(prefix) {
            assert_eq!(found, n, "README shows {prefix}{found}, the default is {n}");
        }
    }

    // The main job's flags: `[--k auto|N] [--verify 0.8|sketch|off]` (k by the collection's size).
    let dedup = DedupOptions::default();
    assert_eq!(dedup.k, None, "the default k is picked by size");
    assert!(README.contains("[--k auto|N]"), "README's --k default");
    assert_eq!(
        readme_numbers_after("[--verify ").into_iter().map(Some).collect::<Vec<_>>(),
        vec![dedup.verify],
        "README's --verify default"
    );
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn other_settings_are_pinned_too() {
    let cases: &[(Options, &str, u64)] = &[
        (
            Options {
                tokenizer: Tokenizer::Chars(2),
                weighting: Weighting::Binary,
                normalize: NormalizeOptions { punctuation: Punctuation::Keep, nfkc: true, lowercase: true },
            },
            "the cat sat on the mat",
            0xa19fd812671ee5e1,
        ),
        (
            Options {
                tokenizer: Tokenizer::Chars(3),
                weighting: Weighting::Tf,
                normalize: NormalizeOptions { punctuation: Punctuation::Drop, nfkc: true, lowercase: true },
            },
            "The cat, the hat, the bat.",
            0xba82fbeb1c7a53a7,
        ),
        (
            Options {
                tokenizer: Tokenizer::Chars(4),
                weighting: Weighting::Sublinear,
                normalize: NormalizeOptions { punctuation: Punctuation::Keep, nfkc: false, lowercase: false },
            },
            "Case Matters Here",
            0x028219df313cc034,
        ),
        (
            Options {
                tokenizer: Tokenizer::Words(1),
                weighting: Weighting::Tf,
                normalize: NormalizeOptions {
                    punctuation: Punctuation::Collapse,
                    nfkc: true,
                    lowercase: true,
                },
            },
            "to be or not to be",
            0x08307f9401888295,
        ),
        (
            Options {
                tokenizer: Tokenizer::Words(2),
                weighting: Weighting::Binary,
                normalize: NormalizeOptions {
                    punctuation: Punctuation::Collapse,
                    nfkc: true,
                    lowercase: true,
                },
            },
            "the quick brown fox jumps over the lazy dog",
            0xa8010cf0a34d26a8,
        ),
        (
            Options {
                tokenizer: Tokenizer::Chars(1),
                weighting: Weighting::Sublinear,
                normalize: NormalizeOptions {
                    punctuation: Punctuation::Collapse,
                    nfkc: true,
                    lowercase: true,
                },
            },
            "附加赛小组赛首轮绝杀",
            0xec4a9e0991767f56,
        ),
        (
            Options {
                tokenizer: Tokenizer::Chars(16),
                weighting: Weighting::Binary,
                normalize: NormalizeOptions {
                    punctuation: Punctuation::Collapse,
                    nfkc: true,
                    lowercase: true,
                },
            },
            "a sixteen-character window over a longer text",
            0xed3b83040495eccd,
        ),
    ];
    assert!(cases.len() >= 6);
    for &(opts, text, want) in cases {
        let got = SimHasher::new(opts).unwrap().fingerprint(text).unwrap();
        assert_eq!(got, want, "{} of {text:?}: {got:#018x}", opts.describe());
    }
    let features = fingerprint_features(&[("Apache", 10.0), ("Hadoop", 15.0)]).unwrap();
    assert_eq!(features, 0xfa0de1629dc6a65b);
}

/// The teaching material's worked example, exactly (docs/decisions/003-exact-fixed-point-sums.md).
/// The slide prints −24 for the second column; the right sum is −14, and the fingerprint is the same.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn worked_example_six_bit_hashes() {
    let table = [
        ("附加赛", 3.0, "101001"),
        ("小组赛", 4.0, "101110"),
        ("首轮", 1.0, "110001"),
        ("绝杀", 3.0, "101000"),
        ("上海上港", 5.0, "101011"),
        ("赛季", 5.0, "101100"),
        ("亚冠", 5.0, "111000"),
    ];
    let features: Vec<BitFeature> =
        table.iter().map(|&(_, w, b)| BitFeature { bits: parse_bits(b, 0).unwrap(), weight: w }).collect();
    let r = simhash_bits(&features).unwrap();
    assert_eq!(r.sums, [26.0, -14.0, 24.0, -8.0, -8.0, -8.0]);
    assert_eq!(r.to_bit_string(), "101000");
}

/// The random-hyperplane example: ±1 hash vectors, weights (1,2,0,3,0).
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn worked_example_random_hyperplanes() {
    let h = ["(1,-1,1)", "(-1,1,1)", "(1,-1,-1)", "(-1,-1,1)", "(1,1,-1)"];
    let w = [1.0, 2.0, 0.0, 3.0, 0.0];
    let features: Vec<BitFeature> =
        h.iter().zip(w).map(|(b, weight)| BitFeature { bits: parse_bits(b, 0).unwrap(), weight }).collect();
    let r = simhash_bits(&features).unwrap();
    assert_eq!(r.sums, [-4.0, -2.0, 6.0]);
    assert_eq!(r.to_bit_string(), "001");
}

/// A sum of exactly zero gives bit 0, in the teaching form and in real fingerprints.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn a_zero_sum_gives_bit_zero() {
    let f = |b: &str, weight| BitFeature { bits: parse_bits(b, 0).unwrap(), weight };
    let r = simhash_bits(&[f("10", 2.0), f("01", 2.0)]).unwrap();
    assert_eq!(r.sums, [0.0, 0.0]);
    assert_eq!(r.to_bit_string(), "00");
    // Two features of equal weight with complementary hashes cancel on every bit.
    let a = "x";
    let ha = hash_str(a);
    // A feature whose hash is the complement cannot be found by search, so build the
    // same situation with one feature of weight 0: all 64 sums are 0, the fingerprint 0.
    assert_eq!(fingerprint_features(&[(a, 0.0)]).unwrap(), 0, "hash {ha:x}");
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn bad_input_is_an_error_not_a_panic() {
    let mut h = SimHasher::new(Options::default()).unwrap();
    assert_eq!(h.fingerprint(""), Err(Error::EmptyText));
    assert_eq!(h.fingerprint(" \n\t "), Err(Error::EmptyText));
    assert!(matches!(h.fingerprint("abc"), Err(Error::TextTooShort { units: 3, needed: 6, .. })));
    assert!(matches!(h.fingerprint_bytes(b"ok \xff\xfe bad"), Err(Error::InvalidUtf8 { valid_up_to: 3 })));
    for n in [0, 17, 1000] {
        let opts = Options { tokenizer: Tokenizer::Chars(n), ..Options::default() };
        let e = SimHasher::new(opts).unwrap_err();
        assert!(e.to_string().contains("from 1 to 16"), "{e}");
    }
    for w in [f64::NAN, -1.0, f64::INFINITY] {
        assert!(matches!(
            fingerprint_features(&[("a", 1.0), ("b", w)]),
            Err(Error::InvalidWeight { index: 1, .. })
        ));
    }
    assert!(fingerprint_features::<&str>(&[]).is_err());
    assert!(Options::from_names(Some("letters"), None, None, None, None, None).is_err());
    assert!(Options::from_names(None, Some(2.5), None, None, None, None).is_err());
    assert!(Options::from_names(None, None, Some("idf"), None, None, None).is_err());
    // After every error the hasher still works.
    assert!(h.fingerprint("still working after errors").is_ok());
}

// ---------------------------------------------------------------------------------------
// Sketches (scheme sk1): the sketch bytes and the estimates, pinned
// ---------------------------------------------------------------------------------------

use simhash_wasm::sketch::{estimate_jaccard, Sketch, SketchScheme};

/// (text, distinct 4-gram shingles, `hash_bytes` of the 128-byte sketch's `to_bytes()`)
const SKETCHES: &[(&str, u32, u64)] = &[
    ("The cat sat on the mat.", 19, 0xf22aa7b4db8d45b1),
    ("The cat sat on a mat.", 18, 0x926f09537a3a5b14),
    (
        "Detecting near-duplicates for web crawling, Manku, Jain and Das Sarma, WWW 2007.",
        77,
        0x86cafb01af09acaf,
    ),
    ("上海上港在亚冠附加赛中绝杀对手，小组赛首轮迎来新赛季。", 24, 0xad9e9c8b7d122dd9),
    ("上海上港在亚冠附加赛中绝杀对手。小组赛首轮迎来新赛季！", 24, 0x54d480097a4580fa),
    ("床前明月光，疑是地上霜。举头望明月，低头思故乡。", 21, 0xb0da17dbda7fff58),
    ("Mixed 中英文 text: SimHash 指纹 and Hamming 距离.", 39, 0xb34c16be7e252ceb),
    ("abc", 1, 0x5e398ce7a90a1001),
    ("亚冠", 1, 0x3ed5eea43ce9edd7),
    ("Emoji 🙂🙃 and a family 👩\u{200d}👩\u{200d}👧 and flags 🇫🇷🇩🇪", 31, 0x1f6fb7e836b6c2d4),
    ("Café, naïve, résumé — déjà vu.", 27, 0x7b435a62d0d00c2e),
];

/// (index a, index b into SKETCHES, the estimate's f64 bits; 0 is 0.0, for unrelated texts)
const ESTIMATES: &[(usize, usize, u64)] =
    &[(0, 1, 0x3fe349083ef03be5), (3, 4, 0x3fe4c5419d16eac4), (0, 2, 0), (5, 3, 0), (7, 8, 0)];

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn sketches_are_pinned() {
    let mut h = SimHasher::new(Options::default()).unwrap();
    let scheme = SketchScheme::default();
    let sketches: Vec<Sketch> = SKETCHES.iter().map(|&(t, _, _)| h.sketch(t, scheme).unwrap()).collect();
    let mut bad = Vec::new();
    for (&(text, n, hash), s) in SKETCHES.iter().zip(&sketches) {
        let got = (s.shingles(), hash_bytes(&s.to_bytes()));
        if got != (n, hash) {
            bad.push(format!("    ({text:?}, {}, {:#018x}),", got.0, got.1));
        }
        // The one-pass path makes the same sketch and the same fingerprint (texts too
        // short for a fingerprint still have a sketch, and the one pass says why not).
        match h.fingerprint(text) {
            Ok(fp) => assert_eq!(h.fingerprint_and_sketch(text, scheme).unwrap(), (fp, s.clone()), "{text}"),
            Err(e) => assert_eq!(h.fingerprint_and_sketch(text, scheme).unwrap_err(), e),
        }
        assert_eq!(Sketch::from_bytes(&s.to_bytes()).unwrap(), *s);
    }
    for &(a, b, bits) in ESTIMATES {
        let e = estimate_jaccard(&sketches[a], &sketches[b]).unwrap();
        if e.to_bits() != bits {
            bad.push(format!("    ({a}, {b}, {:#018x}), // {e}", e.to_bits()));
        }
    }
    assert!(
        bad.is_empty(),
        "sketch golden vectors changed (a new sketch scheme version?):\n{}",
        bad.join("\n")
    );
    // Another size is another scheme, pinned by its first text.
    let small = h.sketch(SKETCHES[2].0, SketchScheme::new(64).unwrap()).unwrap();
    assert_eq!(hash_bytes(&small.to_bytes()), SMALL_SKETCH, "{:#018x}", hash_bytes(&small.to_bytes()));
    assert!(matches!(estimate_jaccard(&small, &sketches[2]), Err(Error::SchemeMismatch { .. })));
}

/// `hash_bytes` of the 64-byte sketch of `SKETCHES[2]`.
const SMALL_SKETCH: u64 = 0x762c_3e36_574d_a23e;
