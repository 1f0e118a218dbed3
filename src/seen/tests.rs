//! ContentSeen: the flow with and without sketches, against a brute-force oracle of exact
//! 4-gram Jaccard similarity.

use super::*;
use crate::test_rng::Rng;
use crate::verify::ShingleSet;

const A: &str = "Crawlers meet the same article under many addresses, and keep only one copy of it.";
const B: &str = "An entirely different page about gardening: tomatoes need sun, water and patience.";

fn both() -> [SeenConfig; 2] {
    [SeenConfig::fingerprint_only(), SeenConfig::default()]
}

#[test]
fn duplicates_are_counted_not_stored() {
    for config in both() {
        let sketching = config.sketch.is_some();
        let mut s = ContentSeen::new(config).unwrap();
        let c = s.check("a", A).unwrap();
        assert!(!c.duplicate && c.matches.is_empty() && c.count == 1);
        assert_eq!(c.sketch.is_some(), sketching);
        let c = s.check("a2", &format!("{A} ")).unwrap();
        assert!(c.duplicate);
        assert_eq!(c.matches[0].id, "a");
        assert_eq!(c.cluster, "a");
        assert_eq!(c.count, 2);
        assert_eq!(c.distance, Some(0));
        assert_eq!(c.estimate, if sketching { Some(1.0) } else { None });
        s.check("a3", A).unwrap();
        assert!(!s.check("b", B).unwrap().duplicate);
        assert_eq!(s.len(), 2);
        assert_eq!(s.count("a"), Some(3));
        assert_eq!(s.count("a3"), Some(3));
        assert_eq!(s.count("b"), Some(1));
        assert_eq!(s.count("zzz"), None);
        let cl = s.clusters();
        assert_eq!(cl[0].id, "a");
        assert_eq!(cl[0].duplicates, vec!["a2".to_string(), "a3".to_string()]);
        assert_eq!(cl[1].count, 1);
        // A page with no content is answered, and leaves the state unchanged.
        let c = s.check("empty", "   ").unwrap();
        assert!(c.empty && !c.duplicate && c.count == 0 && c.cluster.is_empty());
        assert_eq!(s.len(), 2);
        assert_eq!(s.count("empty"), None);
        assert_eq!(s.sketched(), if sketching { 2 } else { 0 });
    }
}

#[test]
fn pages_without_content_are_answered_not_stored() {
    for config in both() {
        let sketching = config.sketch.is_some();
        let mut s = ContentSeen::new(SeenConfig { html: cfg!(feature = "html"), ..config }).unwrap();
        let scripts = "<html><head><title>App</title><script>var a = 1; render(a);</script></head>\
                       <body><div id=root></div><script src=app.js></script></body></html>";
        let page = if cfg!(feature = "html") { scripts } else { " \n\t " };
        let short = "<p>Hi!</p>"; // 3 characters: less than one 6-gram
        s.check("u", A).unwrap();
        for (url, text) in [
            ("spa", page),
            ("spa2", page),
            ("u", page),
            ("short", if cfg!(feature = "html") { short } else { "Hi!" }),
        ] {
            let c = s.check(url, text).unwrap();
            assert_eq!(c, Check::empty(), "{url}");
            assert!(c.empty && !c.duplicate);
        }
        // Nothing stored or counted; the stored URL keeps the content it had.
        assert_eq!(s.len(), 1);
        assert_eq!(s.sketched(), usize::from(sketching));
        assert_eq!((s.count("spa"), s.count("short"), s.count("u")), (None, None, Some(1)));
        assert!(s.check("u2", A).unwrap().duplicate, "u still holds A");
        // Other errors still fail, and a real page is not empty.
        assert!(!s.check("b", B).unwrap().empty);
    }
    assert!(Error::EmptyText.is_no_content());
    assert!(Error::TextTooShort { units: 1, needed: 6, unit: "characters" }.is_no_content());
    assert!(!Error::InvalidUtf8 { valid_up_to: 0 }.is_no_content());
}

#[test]
fn a_changed_page_replaces_its_fingerprint() {
    for config in both() {
        let mut s = ContentSeen::new(config).unwrap();
        s.check("u", A).unwrap();
        assert!(s.check("u", A).unwrap().duplicate);
        assert_eq!(s.count("u"), Some(2));
        let c = s.check("u", B).unwrap();
        assert!(!c.duplicate);
        assert_eq!(s.len(), 1);
        assert_eq!(s.count("u"), Some(1));
        if s.config().sketch.is_some() {
            // The stored sketch is the new content's: A is no longer found.
            assert_eq!(s.sketched(), 1);
            assert!(!s.check("v", A).unwrap().duplicate);
        }
    }
}

#[test]
fn a_stored_page_that_becomes_a_copy_of_another_is_counted_there_and_keeps_its_content() {
    for config in both() {
        let mut s = ContentSeen::new(config).unwrap();
        s.check("a", A).unwrap();
        s.check("b", B).unwrap();
        let c = s.check("a", B).unwrap();
        assert!(c.duplicate);
        assert_eq!((c.cluster.as_str(), c.count), ("b", 2));
        // Content once seen stays seen: a later copy of A is a duplicate of the URL that
        // stored it, which still answers for itself.
        assert_eq!(s.cluster_of("a"), Some("a"));
        assert_eq!(s.count("a"), Some(1));
        let later = s.check("c", A).unwrap();
        assert!(later.duplicate);
        assert_eq!((later.cluster.as_str(), later.count), ("a", 2));
        assert_eq!(s.len(), 2);
    }
}

#[test]
fn settings_are_validated_and_described() {
    for t in [0.0, -0.5, 1.01, f64::NAN] {
        let e = ContentSeen::new(SeenConfig { threshold: t, ..SeenConfig::default() }).unwrap_err();
        assert_eq!(e.code(), "InvalidOption", "{t}");
        assert!(e.to_string().contains("threshold"), "{e}");
    }
    for k in [64, 65, u32::MAX] {
        let e = ContentSeen::new(SeenConfig { k, ..SeenConfig::default() }).unwrap_err();
        assert!(matches!(e, Error::InvalidOption { option: "k", .. }), "{k}: {e}");
    }
    assert!(ContentSeen::new(SeenConfig { k: 63, sketch: None, ..SeenConfig::default() }).is_ok());
    let d = SeenConfig::default().describe();
    assert!(d.ends_with(" k=3 sk1:128 t=0.81"), "{d}");
    assert!(d.starts_with(&Options::default().describe()), "{d}");
    assert!(!SeenConfig::fingerprint_only().describe().contains("sk1"));
    let s64 = SeenConfig { sketch: Some(SketchScheme::new(64).unwrap()), ..SeenConfig::default() };
    assert!(s64.describe().contains(" sk1:64 "));
}

#[test]
fn a_sketch_of_another_size_is_refused_and_nothing_changes() {
    let mut s = ContentSeen::new(SeenConfig::default()).unwrap();
    s.check("a", A).unwrap();
    let mut h = SimHasher::new(Options::default()).unwrap();
    let (fp, small) = h.fingerprint_and_sketch(A, SketchScheme::new(64).unwrap()).unwrap();
    let e = s.check_fingerprint_and_sketch("a2", fp, small).unwrap_err();
    assert!(matches!(e, Error::SchemeMismatch { .. }), "{e:?}");
    assert_eq!((s.len(), s.count("a"), s.count("a2")), (1, Some(1), None));
    // The right size works, and equals check().
    let (fp, sk) = h.fingerprint_and_sketch(A, SketchScheme::default()).unwrap();
    let c = s.check_fingerprint_and_sketch("a2", fp, sk).unwrap();
    assert!(c.duplicate && c.estimate == Some(1.0));
}

#[test]
fn check_fingerprint_matches_by_fingerprint_and_stores_without_a_sketch() {
    let mut s = ContentSeen::new(SeenConfig::default()).unwrap();
    let mut h = SimHasher::new(Options::default()).unwrap();
    let fa = h.fingerprint(A).unwrap();
    let c = s.check_fingerprint("a", fa);
    assert!(!c.duplicate && c.sketch.is_none());
    assert_eq!((s.len(), s.sketched()), (1, 0));
    // A sketching check finds it by fingerprint (within k) and, with no sketch to
    // estimate from, counts it as a duplicate.
    let c = s.check("a2", A).unwrap();
    assert!(c.duplicate && c.estimate.is_none() && c.distance == Some(0));
    assert_eq!(
        c.candidates,
        vec![SeenCandidate { id: "a".into(), distance: 0, estimate: None, duplicate: true }]
    );
    // And check_fingerprint matches sketched pages within k too.
    s.check("b", B).unwrap();
    let c = s.check_fingerprint("b2", h.fingerprint(B).unwrap() ^ 1);
    assert!(c.duplicate && c.cluster == "b" && c.distance == Some(1));
}

// ---------------------------------------------------------------------------------------
// The oracle
// ---------------------------------------------------------------------------------------

const WORDS: &[&str] = &[
    "river", "stone", "market", "window", "garden", "silver", "letter", "engine", "summer", "harbor",
    "forest", "candle", "mirror", "ticket", "planet", "butter", "castle", "pencil", "rocket", "spider",
    "copper", "marble", "saddle", "tunnel", "violin", "wallet", "anchor", "bridge", "cactus", "dragon",
    "falcon", "glacier", "hammer", "island", "jacket", "kettle", "lantern", "meadow", "needle", "orchid",
];

fn text(rng: &mut Rng, zh: bool, len: usize) -> Vec<String> {
    (0..len)
        .map(|_| {
            if zh {
                // 400 common-range CJK ideographs, one per token.
                char::from_u32(0x4E00 + rng.below(400) as u32).unwrap().to_string()
            } else {
                WORDS[rng.below(WORDS.len() as u64) as usize].to_string()
            }
        })
        .collect()
}

fn join(tokens: &[String], zh: bool) -> String {
    tokens.join(if zh { "" } else { " " })
}

/// A variant of `base` with about `rate` of its tokens replaced.
fn edit(rng: &mut Rng, base: &[String], zh: bool, rate: f64) -> Vec<String> {
    let mut v = base.to_vec();
    let fresh = text(rng, zh, v.len());
    for (i, t) in v.iter_mut().enumerate() {
        if (rng.below(1_000_000) as f64) < rate * 1e6 {
            *t = fresh[i].clone();
        }
    }
    v
}

#[test]
fn sketching_decisions_agree_with_exact_jaccard_away_from_the_threshold() {
    let threshold = DEFAULT_THRESHOLD;
    let mut rng = Rng(0x5EE_0C1E);
    let mut seen = ContentSeen::new(SeenConfig::default()).unwrap();
    // The oracle mirrors the stored pages: (url, exact shingle set).
    let mut stored: Vec<(String, ShingleSet)> = Vec::new();
    let mut bases: Vec<(Vec<String>, bool)> = Vec::new();
    let (mut clear_dup, mut clear_new, mut unclear) = (0, 0, 0);
    for i in 0..700 {
        let zh = i % 2 == 1;
        let tokens = if bases.is_empty() || rng.below(3) == 0 {
            // Short (a title, a poem) to long.
            let len = [12, 30, 80, 200][rng.below(4) as usize];
            let t = text(&mut rng, zh, len);
            bases.push((t.clone(), zh));
            t
        } else {
            let (base, bzh) = bases[rng.below(bases.len() as u64) as usize].clone();
            let rate = [0.0, 0.01, 0.03, 0.06, 0.1, 0.2, 0.4][rng.below(7) as usize];
            let _ = zh;
            edit(&mut rng, &base, bzh, rate)
        };
        let zh = tokens.iter().any(|t| !t.is_ascii());
        let body = join(&tokens, zh);
        let url = format!("u{i}");
        let set = ShingleSet::new(&body, 4).unwrap();
        let best = stored.iter().map(|(u, s)| (set.jaccard(s), u.clone())).max_by(|a, b| a.0.total_cmp(&b.0));
        let best_j = best.as_ref().map_or(0.0, |b| b.0);
        let c = seen.check(&url, &body).unwrap();
        if best_j > threshold + 0.1 {
            assert!(c.duplicate, "{url}: exact J {best_j:.3} with {:?}, but new ({:?})", best, c.candidates);
            clear_dup += 1;
        } else if best_j < threshold - 0.1 {
            assert!(!c.duplicate, "{url}: best exact J {best_j:.3}, but a duplicate of {c:?}");
            clear_new += 1;
        } else {
            unclear += 1;
        }
        if c.duplicate {
            // The page it joined is similar in truth, not just by estimate.
            let j = stored.iter().find(|(u, _)| *u == c.cluster).map(|(_, s)| set.jaccard(s)).unwrap();
            assert!(
                j >= threshold - 0.1,
                "{url} joined {} at exact J {j:.3} (estimate {:?})",
                c.cluster,
                c.estimate
            );
            assert!((j - c.estimate.unwrap()).abs() < 0.1, "{url}: J {j:.3}, estimate {:?}", c.estimate);
        } else {
            stored.push((url, set));
        }
    }
    assert_eq!(seen.len(), stored.len());
    eprintln!(
        "oracle: {clear_dup} clear duplicates, {clear_new} clear new pages, {unclear} near the threshold"
    );
    // Informative: many clear cases of each kind.
    assert!(clear_dup > 100 && clear_new > 200, "dup {clear_dup}, new {clear_new}, unclear {unclear}");
}

#[cfg(feature = "html")]
fn short_page(own: &str) -> String {
    format!(
        "<html><body><header><a href=/>Acme Widgets</a></header>\
         <nav><a href=/about>About</a> <a href=/contact>Contact</a> <a href=/blog>Blog</a></nav>\
         <div class=content><p>{own}</p></div>\
         <div class=site-info><p>Acme Widgets Ltd was founded in 1952 in Springfield, where it still makes, tests, \
         packs and ships every widget, gadget and gizmo it sells, to shops, workshops, schools and homes in forty countries, \
         with a guarantee of ten years, free repairs, and spare parts for every model ever made.</p>\
         <p>Our offices, at 1 Main Street, Springfield, are open Monday to Friday, nine to five, and on Saturdays by \
         appointment; visitors are welcome, parking is free, and the museum of widgets, on the first floor, is open to all.</p></div>\
         <footer>Copyright 2024 Acme Widgets. All rights reserved.</footer></body></html>"
    )
}

#[test]
#[cfg(feature = "html")]
fn short_pages_of_one_host_are_told_apart_by_their_own_lines() {
    let own = [
        "We make widgets in three sizes.",
        "Write to us at hello@example.com any day.",
        "Our blog has moved to a new address.",
        "Jobs: none are open today, sorry.",
        "Our shop opens at nine every morning.",
    ];
    // Two articles of random words, each two long paragraphs.
    let mut rng = Rng(41);
    let mut words = |n: usize| {
        (0..n)
            .map(|_| (0..5).map(|_| (b'a' + rng.below(26) as u8) as char).collect::<String>())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let articles: Vec<String> = (0..2).map(|_| format!("{}.</p><p>{}.", words(120), words(120))).collect();
    let check = |template: u32| {
        let mut s = ContentSeen::new(SeenConfig { html: true, template, ..SeenConfig::default() }).unwrap();
        for (i, a) in articles.iter().enumerate() {
            assert!(!s.check(&format!("https://acme.example/news/{i}"), &short_page(a)).unwrap().duplicate);
        }
        own.iter()
            .enumerate()
            .map(|(i, o)| s.check(&format!("https://acme.example/{i}"), &short_page(o)).unwrap())
            .collect::<Vec<_>>()
    };
    // Without learning, the site's text around the short line decides: the short pages are
    // duplicates of the first.
    assert!(check(0)[1..].iter().all(|c| c.duplicate));
    // Learning: the template is known from the host's third distinct page on, and the
    // short pages are told apart by their own lines.
    assert!(check(3).iter().all(|c| !c.duplicate));
    // Learnt from short pages alone, the second one is judged before the template is
    // known, a duplicate of the first, and so not learnt as content: the template is
    // learnt from pages of distinct content only.
    let mut s = ContentSeen::new(SeenConfig { html: true, ..SeenConfig::default() }).unwrap();
    let alone: Vec<bool> = own
        .iter()
        .enumerate()
        .map(|(i, o)| s.check(&format!("https://acme.example/{i}"), &short_page(o)).unwrap().duplicate)
        .collect();
    assert_eq!(alone, [false, true, true, true, true]);
    // A copy of an article met again on its host is still a duplicate (the article is not
    // learnt as template from its copies).
    let mut s = ContentSeen::new(SeenConfig { html: true, ..SeenConfig::default() }).unwrap();
    let article = format!("{A} {B} {A}");
    for i in 0..6 {
        let c = s
            .check(&format!("https://acme.example/a?ref={i}"), &short_page(&format!("{article} {i}")))
            .unwrap();
        assert_eq!(c.duplicate, i > 0, "{i}");
    }
    // Another learnt host's template does not strip this one's.
    assert!(!s.check("https://other.example/", &short_page(own[0])).unwrap().duplicate);
}
