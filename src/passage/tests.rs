use super::merge::{merge, RangePair};
use super::shingle::{containment, jaccard, shingles};
use super::*;
use crate::test_rng::Rng;

#[test]
fn options_by_name_are_read_and_validated() -> Result<()> {
    let o = PassageOptions::from_names(&PassageNames { threshold: Some(0.7), ..Default::default() })?;
    assert_eq!((o.min_chars, o.threshold), (40, 0.7));
    Ok(())
}

const WORDS: &[&str] = &[
    "river",
    "market",
    "winter",
    "teacher",
    "garden",
    "engine",
    "history",
    "village",
    "window",
    "science",
    "letter",
    "mountain",
    "journey",
    "problem",
    "evening",
    "station",
    "harvest",
    "language",
    "painting",
    "council",
    "bridge",
    "forest",
    "country",
    "doctor",
    "morning",
    "summer",
    "question",
    "picture",
    "machine",
    "library",
    "ocean",
    "answer",
    "kitchen",
    "island",
    "number",
    "project",
    "silver",
    "theatre",
    "weather",
    "student",
    "company",
    "quickly",
    "slowly",
    "carefully",
    "often",
    "rarely",
    "always",
    "never",
    "bright",
    "quiet",
    "ancient",
    "modern",
    "green",
    "heavy",
    "simple",
    "strange",
    "gentle",
    "narrow",
    "broken",
    "hidden",
    "walks",
    "builds",
    "remembers",
    "describes",
    "follows",
    "carries",
    "opens",
    "measures",
    "explains",
    "watches",
    "finds",
    "leaves",
    "the",
    "a",
    "of",
    "and",
    "in",
    "with",
    "near",
    "after",
    "before",
    "because",
    "while",
];

/// A deterministic paragraph of ~90 words from seed `s` (a small LCG).
fn paragraph(mut s: u64) -> String {
    let mut words = Vec::new();
    let mut sentence_len = 0;
    for _ in 0..90 {
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let mut w = WORDS[((s >> 33) as usize) % WORDS.len()].to_string();
        if sentence_len == 0 {
            w = w[..1].to_uppercase() + &w[1..];
        }
        sentence_len += 1;
        if sentence_len > 8 && (s >> 20).is_multiple_of(4) {
            w.push('.');
            sentence_len = 0;
        }
        words.push(w);
    }
    words.join(" ") + "."
}

fn checker() -> PassageChecker {
    PassageChecker::new(PassageOptions::default()).unwrap()
}

#[test]
fn an_edited_paragraph_is_found_with_its_similarity() {
    // A ~100-word paragraph with "the" changed to "a" twice.
    let seed = (1000..).find(|&s| paragraph(s).matches(" the ").count() >= 2).unwrap();
    let reference: Vec<String> = (0..8).map(|i| paragraph(seed - 3 + i)).collect();
    let copied = &reference[3];
    assert!(copied.matches(" the ").count() >= 2, "{copied}");
    let edited = copied.replacen(" the ", " a ", 2);
    let submission = format!("{}\n\n{}\n\n{}", paragraph(5000), edited, paragraph(5001));
    let mut c = checker();
    let rtext = reference.join("\n\n");
    c.add_reference(&rtext).unwrap();
    let r = c.check(&submission).unwrap();
    assert_eq!(r.references.len(), 1);
    let ms = &r.references[0].matches;
    assert_eq!(ms.len(), 1, "{ms:?}");
    assert_eq!(&submission[ms[0].submission_span.start..ms[0].submission_span.end], edited);
    assert_eq!(&rtext[ms[0].reference_span.start..ms[0].reference_span.end], copied.as_str());
    assert!(ms[0].similarity > 0.9 && ms[0].similarity < 1.0, "{}", ms[0].similarity);
    assert!(ms[0].jaccard <= ms[0].similarity);
    let cov = r.references[0].coverage;
    assert!(cov > 0.25 && cov < 0.4, "{cov}");
    assert_eq!(r.coverage, cov);
}

#[test]
fn two_copied_paragraphs_of_twenty_are_exactly_the_matches() {
    let reference: Vec<String> = (0..20).map(|i| paragraph(1000 + i)).collect();
    let mut submission: Vec<String> = (0..20).map(|i| paragraph(5000 + i)).collect();
    submission[4] = reference[7].clone();
    submission[15] = reference[12].replacen(" the ", " this ", 1);
    let mut c = checker();
    let rtext = reference.join("\n\n");
    c.add_reference(&rtext).unwrap();
    let stext = submission.join("\n\n");
    let r = c.check(&stext).unwrap();
    let got: Vec<(&str, &str)> = r.references[0]
        .matches
        .iter()
        .map(|m| {
            (
                &stext[m.submission_span.start..m.submission_span.end],
                &rtext[m.reference_span.start..m.reference_span.end],
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (submission[4].as_str(), reference[7].as_str()),
            (submission[15].as_str(), reference[12].as_str())
        ]
    );
    assert_eq!(r.references[0].matches[0].similarity, 1.0);
}

#[test]
fn two_sentences_inside_an_original_paragraph_are_one_span() {
    let reference = paragraph(77);
    let sents = sentences(&reference);
    assert!(sents.len() >= 5);
    let copied = &reference[sents[2].0..sents[3].1];
    let own = paragraph(4242);
    let cut = sentences(&own)[2].1;
    let submission = format!("{} {} {}", &own[..cut], copied, &own[cut..].trim_start());
    let mut c = checker();
    c.add_reference(&paragraph(1)).unwrap();
    c.add_reference(&reference).unwrap();
    let r = c.check(&submission).unwrap();
    assert_eq!(r.references.len(), 1);
    assert_eq!(r.references[0].doc, 1);
    let ms = &r.references[0].matches;
    assert_eq!(ms.len(), 1, "{ms:?}");
    assert_eq!(&submission[ms[0].submission_span.start..ms[0].submission_span.end], copied);
    assert_eq!(&reference[ms[0].reference_span.start..ms[0].reference_span.end], copied);
}

#[test]
fn chinese_copies_are_found_and_split_on_chinese_sentence_ends() {
    let reference = "今天的天气非常好，我们一起去公园散步吧。\
                     公园里有很多人在跑步，也有人在湖边钓鱼！\
                     你觉得明天还会这么晴朗吗？\n\
                     下午我们回到家里，开始准备丰盛的晚饭。";
    let s: Vec<&str> = sentences(reference).iter().map(|&(a, b)| &reference[a..b]).collect();
    assert_eq!(s.len(), 4);
    assert_eq!(s[2], "你觉得明天还会这么晴朗吗？");
    // One character of the second sentence changed; the rest is the submitter's own.
    let submission = "我昨天读了一本关于历史的书，内容十分有趣。\
                      公园里有很多人在跑步，也有人在河边钓鱼！\
                      这本书的作者是一位著名的教授。";
    let mut c = PassageChecker::new(PassageOptions { min_chars: 10, ..Default::default() }).unwrap();
    c.add_reference(reference).unwrap();
    let r = c.check(submission).unwrap();
    let m = &r.references[0].matches;
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!(
        &submission[m[0].submission_span.start..m[0].submission_span.end],
        "公园里有很多人在跑步，也有人在河边钓鱼！"
    );
    assert_eq!(m[0].reference, (1, 1));
    assert!(m[0].similarity > 0.7 && m[0].similarity < 1.0);
}

#[test]
fn offsets_in_bytes_and_utf16_on_mixed_script() {
    let t = "\n  Ünïcode 𝄞 first. 第二句话。\r\n\r\n \tthird line\nfourth — 𝄞𝄞! ";
    let r = sentences(t);
    let texts: Vec<&str> = r.iter().map(|&(s, e)| &t[s..e]).collect();
    assert_eq!(texts, ["Ünïcode 𝄞 first.", "第二句话。", "third line", "fourth — 𝄞𝄞!"]);
    let u: Vec<u16> = t.encode_utf16().collect();
    let spans = checker().passages_of(t);
    assert_eq!(spans.len(), 4);
    for s in spans {
        assert_eq!(String::from_utf16(&u[s.start_utf16..s.end_utf16]).unwrap(), &t[s.start..s.end]);
        assert_eq!(t[..s.start].encode_utf16().count(), s.start_utf16);
    }
    // And through a match: the reported spans slice both texts the same way.
    let reference = format!("𝄞 Prélude. {} Coda 終わり。", paragraph(3));
    let submission = format!("Ça 𝄞 commence ici. {} Fin.", paragraph(3));
    let mut c = checker();
    c.add_reference(&reference).unwrap();
    let m = c.check(&submission).unwrap().references[0].matches[0];
    let (su, ru): (Vec<u16>, Vec<u16>) =
        (submission.encode_utf16().collect(), reference.encode_utf16().collect());
    let a = String::from_utf16(&su[m.submission_span.start_utf16..m.submission_span.end_utf16]).unwrap();
    let b = String::from_utf16(&ru[m.reference_span.start_utf16..m.reference_span.end_utf16]).unwrap();
    assert_eq!(a, &submission[m.submission_span.start..m.submission_span.end]);
    assert_eq!(b, &reference[m.reference_span.start..m.reference_span.end]);
    assert_eq!(a, paragraph(3));
    assert_eq!(a, b);
}

/// Shingles as strings, the slow way: the normalised text cut into words and CJK
/// characters, and every two of them at most one apart (`a b` in `a b c` and in `a x b`)
/// joined by a NUL; a single token alone.
fn string_shingles(text: &str) -> std::collections::BTreeSet<String> {
    let mut norm = String::new();
    let opts = crate::normalize::NormalizeOptions {
        punctuation: crate::normalize::Punctuation::Drop,
        ..Default::default()
    };
    crate::normalize::normalize_into(text, &opts, &mut norm);
    let mut toks: Vec<String> = Vec::new();
    for w in norm.split(' ').filter(|w| !w.is_empty()) {
        let mut cur = String::new();
        for c in w.chars() {
            if shingle::is_cjk(c) {
                if !cur.is_empty() {
                    toks.push(std::mem::take(&mut cur));
                }
                toks.push(c.to_string());
            } else {
                cur.push(c);
            }
        }
        if !cur.is_empty() {
            toks.push(cur);
        }
    }
    let mut out = std::collections::BTreeSet::new();
    for i in 0..toks.len() {
        for j in i + 1..toks.len().min(i + 3) {
            out.insert(format!("{}\0{}", toks[i], toks[j]));
        }
    }
    if toks.len() == 1 {
        out.insert(toks[0].clone());
    }
    out
}

#[test]
fn containment_and_jaccard_match_the_exact_sets() {
    let mut rng = Rng(7);
    let mut buf = String::new();
    let words =
        ["the", "cat", "sat", "on", "a", "mat", "and", "then", "ran", "off", "猫", "坐", "在", "垫子", "上"];
    for _ in 0..300 {
        let mut text = || -> String {
            let n = 1 + rng.below(30) as usize;
            (0..n).map(|_| words[rng.below(words.len() as u64) as usize]).collect::<Vec<_>>().join(" ")
        };
        let (x, y) = (text(), text());
        let (a, b) = (shingles(&x, &mut buf), shingles(&y, &mut buf));
        let (sa, sb) = (string_shingles(&x), string_shingles(&y));
        assert_eq!(a.len(), sa.len(), "{x}");
        let inter = sa.intersection(&sb).count() as f64;
        let exact_c = if sa.is_empty() { 0.0 } else { inter / sa.len() as f64 };
        let exact_j = inter / sa.union(&sb).count() as f64;
        assert!((containment(&a, &b) - exact_c).abs() < 1e-12, "{x} / {y}");
        assert!((jaccard(&a, &b) - exact_j).abs() < 1e-12, "{x} / {y}");
    }
}

/// Merging by brute force: while any two pairs are near on both sides (at most `gap` apart), replace them by
/// their hull.
fn merge_oracle(mut v: Vec<RangePair>, gap: usize) -> Vec<RangePair> {
    let near = |a: (usize, usize), b: (usize, usize)| a.0 <= b.1 + 1 + gap && b.0 <= a.1 + 1 + gap;
    'outer: loop {
        for i in 0..v.len() {
            for j in i + 1..v.len() {
                if near(v[i].sub, v[j].sub) && near(v[i].re, v[j].re) {
                    let q = v.swap_remove(j);
                    let p = &mut v[i];
                    p.sub = (p.sub.0.min(q.sub.0), p.sub.1.max(q.sub.1));
                    p.re = (p.re.0.min(q.re.0), p.re.1.max(q.re.1));
                    continue 'outer;
                }
            }
        }
        v.sort();
        return v;
    }
}

#[test]
fn merging_matches_a_brute_force_reference() {
    let mut rng = Rng(11);
    let mut merged_some = 0;
    for _ in 0..2000 {
        let n = rng.below(12) as usize;
        let range = |rng: &mut Rng| {
            let a = rng.below(30) as usize;
            (a, a + rng.below(4) as usize)
        };
        let v: Vec<RangePair> =
            (0..n).map(|_| RangePair { sub: range(&mut rng), re: range(&mut rng) }).collect();
        let gap = rng.below(3) as usize;
        let got = merge(v.clone(), gap);
        merged_some += usize::from(got.len() < v.len());
        assert_eq!(got, merge_oracle(v.clone(), gap), "{v:?}");
    }
    assert!(merged_some > 200, "{merged_some}");
    // A copied page reads as one span: windows 0-2, 1-3, … against 10-12, 11-13, ….
    let windows: Vec<RangePair> =
        (0..40).map(|i| RangePair { sub: (i, i + 2), re: (i + 10, i + 12) }).collect();
    assert_eq!(merge(windows, 0), vec![RangePair { sub: (0, 41), re: (10, 51) }]);
}

#[test]
fn short_lines_that_repeat_are_not_copies() {
    // A program sharing a few boilerplate lines with the reference, each found verbatim,
    // each alone (more than `GAP` sentences from the next): no span. (A whole shared
    // skeleton, includes and `main` and exits in a row, shares enough to be reported.)
    let reference = "#include <stdio.h>\n#include <stdlib.h>\n\nint\nmain(int argc, char *argv[])\n{\n\
                     if (argc < 2) {\n    fprintf(stderr, \"usage: tick seconds\");\n    exit(EXIT_FAILURE);\n}\n\
                     sleep(atoi(argv[1]));\nexit(EXIT_SUCCESS);\n}";
    let submission = "#include <stdio.h>\n#include <stdlib.h>\n\nstatic int\ncount_words(const char *line)\n{\n\
                      int n = 0, in_word = 0;\nfor (; *line; line++) {\n    in_word = !isspace(*line) && (n += !in_word, 1);\n\
                      }\nreturn n;\n}\n\nvoid\nreport(const char *home)\n{\nif (home == NULL)\n    exit(EXIT_FAILURE);\n\
                      printf(\"%d words\", count_words(home));\n}";
    let mut c = checker();
    c.add_reference(reference).unwrap();
    assert!(c.check(submission).unwrap().references.is_empty());
    // The same lines inside a real copy are part of its span.
    let copy = format!("{}\n\n{}", paragraph(1), reference);
    let r = c.check(&copy).unwrap();
    assert_eq!(r.references.len(), 1);
    let m = &r.references[0].matches;
    assert_eq!(m.len(), 1, "one span, not split at the short lines: {m:?}");
    // All of it, to the closing `}`: it has no words, but is a token of the copied code.
    // Without the code path a span ends on a copied sentence, before it.
    let want = if cfg!(feature = "code") { reference } else { reference.strip_suffix("\n}").unwrap() };
    assert_eq!(&copy[m[0].submission_span.start..m[0].submission_span.end], want);
}

#[test]
fn a_copied_code_block_is_one_span_across_short_lines() {
    // Lines of the copy with too little text to match on their own (`}`, `x = 0;`) are
    // inside the span, which is cut at the copy's ends.
    let block = "memset(&hints, 0, sizeof(hints));\nhints.ai_family = AF_UNSPEC;    /* Allow IPv4 or IPv6 */\n\
                 hints.ai_socktype = SOCK_DGRAM; /* Datagram socket */\nhints.ai_flags = 0;\n}\n\
                 hints.ai_protocol = 0;          /* Any protocol */\ns = getaddrinfo(NULL, argv[1], &hints, &result);";
    let mut c = checker();
    c.add_reference(&format!("{}\n\n{block}\n\n{}", paragraph(40), paragraph(41))).unwrap();
    let sub = format!("{}\n\n{block}\n\n{}", paragraph(42), paragraph(43));
    let r = c.check(&sub).unwrap();
    let m = &r.references[0].matches;
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!(&sub[m[0].submission_span.start..m[0].submission_span.end], block);
}

#[test]
fn a_chinese_copy_with_character_edits_is_found() {
    let original = "我们在河边的小村庄里住了很多年。每年冬天，老师都会带着学生去图书馆读书。\
                    那座古老的桥在一场大雨之后被冲断了，村里的人花了整整一个夏天才把它修好。";
    // About 10 % of the characters changed, inserted or deleted.
    let edited = "我们在河边的小村子里住了很多年。每年冬天，老师会带着学生们去图书馆看书。\
                  那座古老的桥在一场暴雨之后被冲断了，村里人花了整整一个夏天才把它修好。";
    let mut c = checker();
    c.add_reference(&format!("山上的森林很安静。\n{original}\n海边的天气变化很快。")).unwrap();
    let sub = format!("这是我自己写的开头，和别人没有关系。{edited}");
    let r = c.check(&sub).unwrap();
    let m = &r.references[0].matches[0];
    assert_eq!(&sub[m.submission_span.start..m.submission_span.end], edited);
    assert!(m.similarity > 0.6 && m.similarity < 1.0, "{}", m.similarity);
}

#[test]
fn only_references_with_a_match_are_listed() {
    let mut c = checker();
    let refs: Vec<String> = (0..200).map(|i| paragraph(9000 + i) + "\n\n" + &paragraph(19000 + i)).collect();
    for r in &refs {
        c.add_reference(r).unwrap();
    }
    let submission = format!("{}\n\n{}\n\n{}", paragraph(1), paragraph(9017), refs[150]);
    let r = c.check(&submission).unwrap();
    let mut docs: Vec<usize> = r.references.iter().map(|x| x.doc).collect();
    docs.sort();
    assert_eq!(docs, vec![17, 150]);
    assert_eq!(r.references[0].doc, 150, "most covered first");
    assert!(r.references.iter().all(|x| !x.matches.is_empty() && x.coverage > 0.2));
    assert!((r.coverage - 0.75).abs() < 0.1, "{}", r.coverage);
    assert!(c.check(&paragraph(5)).unwrap().references.is_empty());
}

#[test]
fn bad_options_and_odd_inputs_do_not_panic() {
    for t in [0.0, -0.1, 1.5, f64::NAN] {
        let e = PassageChecker::new(PassageOptions { threshold: t, ..Default::default() }).unwrap_err();
        assert!(e.to_string().contains("`threshold`"), "{e}");
    }
    let e = PassageOptions::from_names(&PassageNames { min_chars: Some(-1.0), ..Default::default() })
        .unwrap_err();
    assert!(e.to_string().contains("`minChars`"));
    assert_eq!(PassageOptions::from_names(&PassageNames::default()).unwrap(), PassageOptions::default());
    let mut c = PassageChecker::new(PassageOptions { min_chars: 0, ..Default::default() }).unwrap();
    for t in ["", "\n", "。。。", "!?", "a", "\u{feff}\u{200b}", "x\n\n\n\ny", "…… ……", "\r\n\r"] {
        c.add_reference(t).unwrap();
        c.check(t).unwrap();
    }
    assert_eq!(c.passages(999), &[]);
}

#[test]
fn min_chars_counts_a_cjk_character_as_two() {
    assert_eq!(super::span_chars("ab c\n"), 3);
    // Three ideographs and a full-width comma.
    assert_eq!(super::span_chars("故宫，是"), 7);
    // A two-sentence Chinese copy of 39 characters is long enough at the default 40.
    let zh_ref = "北京是中国的首都，也是全国的政治和文化中心。\n\n故宫位于北京市中心，是明清两代的皇家宫殿。每年都有数以百万计的游客来这里参观！";
    let copy = "故宫位于北京市中心，是明清两朝的皇家宫殿。每年都有数以百万计的游客来这里参观！";
    let mut c = PassageChecker::new(PassageOptions::default()).unwrap();
    c.add_reference(zh_ref).unwrap();
    let r = c.check(&format!("我去年夏天第一次去北京旅行，天气非常炎热。{copy}")).unwrap();
    assert_eq!(r.references.len(), 1, "{r:?}");
    assert_eq!(r.references[0].matches.len(), 1);
}

#[test]
fn boilerplate_held_by_half_the_references_counts_for_nothing() {
    // A header that 6 of 10 references carry (a licence clause, a man page's head): a
    // submission that shares only it matches none of them. The same submission against a
    // single reference with the header is a copy of it (one text: nothing is common).
    let header = "Permission is hereby granted, free of charge, to any person obtaining a copy of this \
                  software and associated documentation files, to deal in the Software without restriction.";
    let refs: Vec<String> = (0..10)
        .map(|d| if d < 6 { format!("{header}\n\n{}", paragraph(600 + d)) } else { paragraph(600 + d) })
        .collect();
    let submission = format!("{}\n\n{header}\n\n{}", paragraph(700), paragraph(701));
    let mut c = checker();
    for r in &refs {
        c.add_reference(r).unwrap();
    }
    assert!(c.check(&submission).unwrap().references.is_empty());
    // A real copy beside the header is still found, from its own reference.
    let copy = format!("{submission}\n\n{}", paragraph(607));
    let r = c.check(&copy).unwrap();
    assert_eq!(r.references.iter().map(|x| x.doc).collect::<Vec<_>>(), [7]);
    let mut one = checker();
    one.add_reference(&refs[0]).unwrap();
    let r = one.check(&submission).unwrap();
    assert_eq!(r.references.len(), 1);
    let m = &r.references[0].matches[0];
    assert_eq!(&submission[m.submission_span.start..m.submission_span.end], header);
}

#[test]
fn a_paragraph_that_every_one_of_a_few_references_quotes_is_still_a_copy() {
    // A teacher gathered a few web pages that all quote the source of a copied paragraph
    // (3 of 3, 4 of 4, 4 of 5 references): too few references to call it boilerplate, so
    // the copy is reported against each of them.
    let quoted = paragraph(900);
    for (n, holding) in [(3u64, 3usize), (4, 4), (5, 4)] {
        let mut c = checker();
        for d in 0..n {
            let own = paragraph(910 + d);
            c.add_reference(&if (d as usize) < holding { format!("{own}\n\n{quoted}") } else { own })
                .unwrap();
        }
        let submission = format!("{}\n\n{quoted}\n\n{}", paragraph(950), paragraph(951));
        let r = c.check(&submission).unwrap();
        assert_eq!(r.references.len(), holding, "{holding} of {n}: {r:?}");
        for x in &r.references {
            let m = &x.matches[0];
            assert_eq!(
                &submission[m.submission_span.start..m.submission_span.end],
                quoted,
                "{holding} of {n}"
            );
        }
    }
}

#[test]
fn a_heavily_edited_last_sentence_still_ends_the_span() {
    // A copied paragraph whose last sentence keeps only about 40 % of its word pairs: below
    // the threshold on its own, above SEED x threshold, so it ends the span; the span as a
    // whole passes the threshold.
    let reference = format!("{}\n\n{}", paragraph(800), paragraph(801));
    let copied = paragraph(801);
    let cut = copied[..copied.len() - 1].rfind(". ").unwrap() + 2;
    let last: Vec<&str> = copied[cut..].split(' ').collect();
    // Words 1 and 4 of every 7 replaced: 3 of every 7 pairs survive.
    let edited: Vec<String> = last
        .iter()
        .enumerate()
        .map(|(i, w)| if i % 7 == 1 || i % 7 == 4 { format!("zz{i}") } else { w.to_string() })
        .collect();
    let edited = format!("{}{}", &copied[..cut], edited.join(" "));
    let mut buf = String::new();
    let (a, b) = (shingle::shingles(&edited[cut..], &mut buf), shingle::shingles(&copied[cut..], &mut buf));
    let c_last = shingle::containment(&a, &b);
    assert!((0.5 * SEED..0.5).contains(&c_last), "{c_last}");
    let sub = format!("{}\n\n{edited}", paragraph(802));
    let similarity = one_span(&reference, &sub, &edited);
    assert!((0.5..1.0).contains(&similarity), "{similarity}");
}

/// Checks `sub` against `reference` alone, asserts one reported span whose submission side
/// is exactly `span`, and returns its similarity.
fn one_span(reference: &str, sub: &str, span: &str) -> f64 {
    let m = only_match(reference, sub);
    assert_eq!(&sub[m.submission_span.start..m.submission_span.end], span);
    m.similarity
}

/// Checks `sub` against `reference` alone and returns the one match it must report.
fn only_match(reference: &str, sub: &str) -> PassageMatch {
    let mut c = checker();
    c.add_reference(reference).unwrap();
    let mut r = c.check(sub).unwrap();
    assert_eq!(r.references.len(), 1, "{r:?}");
    let mut m = r.references.remove(0).matches;
    assert_eq!(m.len(), 1, "{m:?}");
    m.remove(0)
}

#[test]
fn copies_merged_across_long_original_sentences_are_reported_apart() {
    // Two copied pieces with three long original sentences between them: merged across the
    // gap they fall below the threshold, so each piece is judged alone and both are found.
    let reference = paragraph(900);
    let s: Vec<&str> = sentences(&reference).iter().map(|&(a, b)| &reference[a..b]).collect();
    assert!(s.len() >= 6, "{reference}");
    let (a, b) = (format!("{} {}", s[1], s[2]), format!("{} {}", s[4], s[5]));
    let own: Vec<String> = (0..3).map(|i| paragraph(901 + i).replace('.', "") + ".").collect();
    let sub = format!("{}\n\n{a} {} {b}", paragraph(905), own.join(" "));
    let mut c = checker();
    c.add_reference(&reference).unwrap();
    let r = c.check(&sub).unwrap();
    let found: Vec<&str> = r.references[0]
        .matches
        .iter()
        .map(|m| &sub[m.submission_span.start..m.submission_span.end])
        .collect();
    assert_eq!(found, [a.as_str(), b.as_str()]);
    assert!(r.references[0].matches.iter().all(|m| m.similarity == 1.0));
}

#[test]
fn a_long_sentence_is_found_in_its_source_wrapped_into_short_lines() {
    // A licence clause of ~90 words on one line; its source is hard-wrapped at 6 words a
    // line (as mail and licence texts are), each line a sentence of its own.
    let clause = paragraph(950).replace('.', "");
    let words: Vec<&str> = clause.split(' ').collect();
    let wrapped: Vec<String> = words.chunks(6).map(|c| c.join(" ")).collect();
    let reference = format!("{}\n\n{}\n\n{}", paragraph(951), wrapped.join("\n"), paragraph(952));
    let sub = format!("{}\n\n{clause}.\n\n{}", paragraph(953), paragraph(954));
    let m = only_match(&reference, &sub);
    assert_eq!(&sub[m.submission_span.start..m.submission_span.end], format!("{clause}."));
    assert_eq!(&reference[m.reference_span.start..m.reference_span.end], wrapped.join("\n"));
    // The pairs across a line break are not in the wrapped source: 3 per break (the words
    // either side, and each with the word past the other), 41 of 170.
    assert!(m.similarity > 0.75 && m.similarity < 0.77, "{}", m.similarity);
}

#[test]
fn a_copy_inside_a_sentence_is_cut_from_the_original_words_around_it() {
    // The copied sentence is glued to original words, before it (no full stop between)
    // and after it: the submission's sentence holds under half copied shingles, so only
    // its copied part, measured alone, reaches the threshold, and it alone is highlighted.
    let reference = paragraph(960);
    let s: Vec<&str> = sentences(&reference).iter().map(|&(a, b)| &reference[a..b]).collect();
    let copy = s.iter().copied().find(|x| x.split(' ').count() >= 12).unwrap();
    let n = copy.split(' ').count();
    let (p1, p2) = (paragraph(961), paragraph(962));
    let own: Vec<&str> = p1.split(' ').take(n / 2 + 1).collect();
    let tail: Vec<&str> = p2.split(' ').take(n / 2 + 1).collect();
    let body = copy.trim_end_matches('.');
    let sentence =
        format!("Café {} {body}; {}.", own.join(" ").replace('.', ""), tail.join(" ").replace('.', ""));
    let sub = format!("{}\n\n{sentence}\n\n{}", paragraph(963), paragraph(964));
    let mut buf = String::new();
    let whole = containment(&shingles(&sentence, &mut buf), &shingles(&reference, &mut buf));
    assert!((0.5 * SEED..0.5).contains(&whole), "{whole}");
    let m = only_match(&reference, &sub);
    let span = m.submission_span;
    // The copied words with the punctuation glued to them, nothing of the original.
    assert_eq!(&sub[span.start..span.end], format!("{body};"));
    assert_eq!(m.similarity, 1.0);
    // UTF-16 offsets: "é" is 2 bytes and 1 unit.
    assert_eq!(sub[..span.start].encode_utf16().count(), span.start_utf16);
    assert_eq!(sub[..span.end].encode_utf16().count(), span.end_utf16);
    assert_eq!(span.start - span.start_utf16, 1);
}

#[test]
fn a_few_edited_words_at_a_copy_edge_stay_in_its_span() {
    // Two replaced words at the start of a copied sentence: an edit, not original text
    // (fewer than TRIM_MIN shingles), so the span keeps them.
    let reference = paragraph(970);
    let s: Vec<&str> = sentences(&reference).iter().map(|&(a, b)| &reference[a..b]).collect();
    let copy = s.iter().copied().find(|x| x.split(' ').count() >= 12).unwrap();
    let mut w: Vec<&str> = copy.split(' ').collect();
    w[0] = "Zzyzx";
    let edited = w.join(" ");
    let sub = format!("{}\n\n{edited}\n\n{}", paragraph(971), paragraph(972));
    assert!(one_span(&reference, &sub, &edited) < 1.0);
}

#[test]
fn a_clause_several_references_carry_weighs_less_than_original_words() {
    // A 17-word clause that 4 of 10 references carry (fewer than half: its word pairs are
    // not "common"), set in a sentence around 11 original words. Plainly, over half of the
    // sentence's word pairs are found (16 of 29); weighted by rarity across the references,
    // well under half, and the original words decide: no match. The clause alone, copied,
    // is still found in each of the 4.
    let clause_words: Vec<&str> = WORDS[..17].to_vec();
    let (head, tail) = (clause_words[..8].join(" "), clause_words[8..].join(" "));
    let refs: Vec<String> = (0..10)
        .map(|i| {
            let p = paragraph(980 + i);
            if i < 4 {
                format!("{p}\n\n{head} {tail}.\n\n{}", paragraph(990 + i))
            } else {
                p
            }
        })
        .collect();
    let own = "Xavier quietly yodels zebra quantum vortex jubilant kerosene umbrella wizard yak";
    let sentence = format!("{head} {own} {tail}.");
    let mut buf = String::new();
    let plain = containment(&shingles(&sentence, &mut buf), &shingles(&format!("{head} {tail}"), &mut buf));
    assert!(plain >= 0.5, "{plain}");
    let mut c = checker();
    for r in &refs {
        c.add_reference(r).unwrap();
    }
    let sub = format!("{}\n\n{sentence}\n\n{}", paragraph(995), paragraph(996));
    let r = c.check(&sub).unwrap();
    assert!(r.references.is_empty(), "{r:?}");
    let sub = format!("{}\n\n{head} {tail}.\n\n{}", paragraph(995), paragraph(996));
    let r = c.check(&sub).unwrap();
    assert_eq!(r.references.iter().map(|x| x.doc).collect::<Vec<_>>(), [0, 1, 2, 3]);
}

#[test]
fn a_copy_with_neighbouring_words_swapped_is_found() {
    // Words 1 and 2 of every 3 swapped ("walks quickly" for "quickly walks"): no pair of
    // neighbouring words is left, but a pair one apart becomes a pair of neighbours and
    // the other way round, so about two thirds of the shingles are still found.
    let reference = format!("{}\n\n{}", paragraph(1200), paragraph(1201));
    let copied = paragraph(1201);
    let mut w: Vec<&str> = copied.split(' ').collect();
    // The last word, with its full stop, stays last.
    for k in 0..(w.len() - 1) / 3 {
        w.swap(3 * k + 1, 3 * k + 2);
    }
    let edited = w.join(" ");
    // Pairs of neighbours alone would find none of it.
    let neighbours = |t: &str| -> std::collections::BTreeSet<String> {
        let v: Vec<String> = t.split(' ').map(|x| x.trim_matches('.').to_lowercase()).collect();
        v.windows(2).map(|p| p.join(" ")).collect()
    };
    let (a, b) = (neighbours(&edited), neighbours(&copied));
    let kept = a.intersection(&b).count() as f64 / a.len() as f64;
    assert!(kept < 0.1, "{kept}");
    let sub = format!("{}\n\n{edited}\n\n{}", paragraph(1202), paragraph(1203));
    let similarity = one_span(&reference, &sub, &edited);
    assert!((0.5..0.9).contains(&similarity), "{similarity}");
}

#[test]
fn brackets_and_commas_end_words_in_code() {
    // Two copied code lines. With punctuation dropped, `memset(&hints, 0, sizeof(hints));`
    // is three words (`memsethints 0 sizeofhints`) and the pair of lines shares 4 shingles,
    // under MIN_SHARED; cut at brackets and commas it is five words, and they share 8. The
    // full stop and underscore of `hints.ai_family` stay inside its word.
    let lines = "memset(&hints, 0, sizeof(hints));\nhints.ai_family = AF_UNSPEC;";
    let mut buf = String::new();
    assert_eq!(
        shingles("memset(&hints, 0, sizeof(hints));", &mut buf),
        shingles("memset hints 0 sizeof hints", &mut buf)
    );
    assert_eq!(
        shingles("hints.ai_family = AF_UNSPEC;", &mut buf),
        shingles("hintsai_family af_unspec", &mut buf)
    );
    let reference = format!(
        "{}\n\nint s;\n{lines}\nhints.ai_socktype = SOCK_DGRAM;\n\n{}",
        paragraph(1300),
        paragraph(1301)
    );
    let sub = format!("{}\n\n{lines}\n\n{}", paragraph(1302), paragraph(1303));
    assert_eq!(one_span(&reference, &sub, lines), 1.0);
}

#[test]
fn a_short_line_that_several_references_carry_needs_more_to_be_a_copy() {
    // A 6-word line (9 shingles) that 2 of 10 references carry: not common (under half),
    // but each of its shingles counts ln(1 + 10/2) / ln(1 + 10) = 0.75, 6.7 in all, under
    // MIN_SHARED (counted whole, 9 would pass).
    let line = "Quietly measures ancient harvest bridges tonight.";
    let longer =
        "Quietly measures ancient harvest bridges tonight. Gentle kitchens remember narrow villages always.";
    let refs: Vec<String> = (0..10)
        .map(|i| {
            let p = paragraph(1310 + i);
            if i < 2 {
                format!("{p}\n\n{longer}\n\n{}", paragraph(1330 + i))
            } else {
                p
            }
        })
        .collect();
    let mut c = checker();
    for r in &refs {
        c.add_reference(r).unwrap();
    }
    let sub = format!("{}\n\n{line}\n\n{}", paragraph(1350), paragraph(1351));
    let r = c.check(&sub).unwrap();
    assert!(r.references.is_empty(), "{r:?}");
    // The two sentences, copied, are a copy from both.
    let sub = format!("{}\n\n{longer}\n\n{}", paragraph(1350), paragraph(1351));
    let r = c.check(&sub).unwrap();
    assert_eq!(r.references.iter().map(|x| x.doc).collect::<Vec<_>>(), [0, 1]);
}

#[test]
fn a_submission_copied_whole_is_covered_once_never_more() {
    // Sentences and paragraphs with text between them (spaces, blank lines): the share
    // copied is of the sentences' text, so a whole copy is 1, not more (the gaps between
    // sentences count on neither side), English and Chinese.
    let en = (0..6).map(|i| paragraph(1200 + i)).collect::<Vec<_>>().join("\n\n\n");
    let zh = "北京是中国的首都，也是全国的政治和文化中心。  故宫位于北京市中心，是明清两代的皇家宫殿。\n\n\
              每年都有数以百万计的游客来这里参观！长城是世界上最长的军事建筑，全长两万多公里。\n\n\
              西湖在杭州市西面，湖光山色，风景秀丽，自古以来就是著名的游览胜地。";
    for text in [en.as_str(), zh] {
        let mut c = checker();
        c.add_reference(text).unwrap();
        let r = c.check(text).unwrap();
        assert_eq!(r.references.len(), 1);
        assert!((r.coverage - 1.0).abs() < 1e-12, "{}", r.coverage);
        assert!((r.references[0].coverage - 1.0).abs() < 1e-12, "{}", r.references[0].coverage);
    }
}
