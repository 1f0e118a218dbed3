use super::*;
use crate::error::Error;
use crate::hash::hash_str;
use crate::normalize::normalize_into;
use crate::test_rng::Rng;
use crate::tokenize::{char_ngrams, for_each_char_ngram, for_each_char_ngram_pair};
use crate::{Options, SimHasher, Tokenizer};

const ALPHABET: &[&str] = &[
    "a", "b", "c", " ", "e", "the ", "cat ", ".", ",", "猫", "狗", "。", "e\u{301}", "ß", "🙂", "İ", "\n",
    "Ω",
];

fn random_text(rng: &mut Rng, max_parts: u64) -> String {
    let parts = 1 + rng.below(max_parts);
    (0..parts).map(|_| ALPHABET[rng.below(ALPHABET.len() as u64) as usize]).collect()
}

/// The naive sketch: the text normalised as the fingerprint does, its 4-grams from the
/// plain iterator, hashed one by one, deduplicated through a sort.
fn naive(text: &str, opts: &Options, scheme: SketchScheme) -> Option<Sketch> {
    let mut norm = String::new();
    normalize_into(text, &opts.normalize, &mut norm);
    if norm.is_empty() {
        return None;
    }
    let mut set: Vec<u64> = char_ngrams(&norm, SHINGLE).map(|t| hash_str(t.text)).collect();
    if set.is_empty() {
        set.push(hash_str(&norm));
    }
    set.sort_unstable();
    set.dedup();
    Some(Sketch::from_shingles(scheme, &set))
}

#[test]
fn the_fast_sketch_equals_the_naive_one_and_the_fused_pass_changes_nothing() {
    let mut rng = Rng(7);
    let settings = [
        Options::default(),
        Options { tokenizer: Tokenizer::Chars(3), ..Options::default() },
        Options { tokenizer: Tokenizer::Words(2), ..Options::default() },
    ];
    let mut compared = 0;
    for case in 0..600 {
        // Some texts span several 256-cluster blocks of the scan.
        let text = random_text(&mut rng, if case % 5 == 0 { 900 } else { 60 });
        for opts in &settings {
            let scheme = if case % 2 == 0 { SketchScheme::default() } else { SketchScheme::new(32).unwrap() };
            let mut h = SimHasher::new(*opts).unwrap();
            let expected = naive(&text, opts, scheme);
            let got = h.sketch(&text, scheme).ok();
            assert_eq!(got, expected, "{text:?} {opts:?}");
            match (h.fingerprint(&text), h.fingerprint_and_sketch(&text, scheme)) {
                (Ok(fp), Ok((fp2, sk))) => {
                    assert_eq!(fp, fp2, "{text:?}");
                    assert_eq!(Some(sk), expected, "{text:?}");
                    compared += 1;
                }
                (Err(a), Err(b)) => assert_eq!(a, b),
                (a, b) => panic!("{text:?}: {a:?} vs {b:?}"),
            }
        }
    }
    assert!(compared > 1000, "only {compared} fused cases compared");
}

#[test]
fn the_paired_scan_gives_each_size_exactly_what_a_scan_of_its_own_does() {
    let mut rng = Rng(11);
    for _ in 0..120 {
        let text = random_text(&mut rng, 1200);
        for n in 1..=8 {
            for m in [1, 2, 4, 6, 9] {
                let (mut a, mut b) = (vec![], vec![]);
                let units_a = for_each_char_ngram(&text, n, |s, e, h| a.push((s, e, h)));
                for_each_char_ngram(&text, m, |_, _, h| b.push(h));
                let (mut a2, mut b2) = (vec![], vec![]);
                let units = for_each_char_ngram_pair(
                    &text,
                    n,
                    |s, e, h| a2.push((s, e, h)),
                    Some((m, |h| b2.push(h))),
                );
                assert_eq!(units, units_a);
                assert_eq!(a2, a, "n = {n}");
                assert_eq!(b2, b, "m = {m} beside n = {n}");
            }
        }
    }
}

/// Two random sets of `n` distinct hashes with exactly `common` in common.
fn pair(rng: &mut Rng, n: usize, common: usize) -> (Vec<u64>, Vec<u64>, f64) {
    let shared: Vec<u64> = (0..common).map(|_| rng.next()).collect();
    let mut a = shared.clone();
    let mut b = shared;
    a.extend((common..n).map(|_| rng.next()));
    b.extend((common..n).map(|_| rng.next()));
    let j = common as f64 / (2 * n - common) as f64;
    (a, b, j)
}

fn mean_sd(xs: &[f64]) -> (f64, f64) {
    let mean = xs.iter().sum::<f64>() / xs.len() as f64;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (xs.len() - 1) as f64;
    (mean, var.sqrt())
}

#[test]
fn the_estimate_is_unbiased_and_as_tight_as_the_theory_says() {
    let scheme = SketchScheme::default();
    let (bins, m) = (scheme.bins() as f64, scheme.odd_bits() as f64);
    let mut rng = Rng(3);
    // (set size, J): small sets and near copies use the odd sketch, large distant ones
    // the MinHash part.
    for (n, target) in
        [(40, 0.8), (150, 0.8), (150, 0.9), (400, 0.95), (5000, 0.8), (5000, 0.5), (20000, 0.7)]
    {
        let common = ((2.0 * n as f64 * target) / (1.0 + target)).round() as usize;
        let mut errors = vec![];
        let mut j = 0.0;
        for _ in 0..300 {
            let (a, b, exact) = pair(&mut rng, n, common);
            j = exact;
            let est =
                estimate_jaccard(&Sketch::from_shingles(scheme, &a), &Sketch::from_shingles(scheme, &b))
                    .unwrap();
            errors.push(est - exact);
        }
        let (bias, sd) = mean_sd(&errors);
        let delta = (2 * (n - common)) as f64;
        let odd = (-2.0 * delta / m).exp() > ODD_LIMIT;
        // Theory. Odd sketch: with |Δ| balls in m bins, Var(ln(1 − 2z/m)) is about
        // (4/m)(e^{4|Δ|/m} − 1 − 4|Δ|/m) to first order, so Var(|Δ̂|) ≈ (m/4)(e^{4|Δ|/m} −
        // 1 − 4|Δ|/m), and J = (N − |Δ|)/(N + |Δ|) moves by 2N/(N + |Δ|)² per unit of |Δ|.
        // b-bit MinHash: p = J + (1 − J)/16 per bin, sd(J) = sqrt(p(1 − p)/K) / (15/16).
        let theory = if odd {
            let var_delta = (m / 4.0) * ((4.0 * delta / m).exp() - 1.0 - 4.0 * delta / m);
            let total = 2.0 * n as f64;
            let dj = 2.0 * total / (total + delta).powi(2);
            (var_delta.sqrt() * dj).max(1e-3)
        } else {
            let p = j + (1.0 - j) / 16.0;
            (p * (1.0 - p) / bins).sqrt() / (15.0 / 16.0)
        };
        eprintln!(
            "n {n:5} J {j:.3} {}: bias {bias:+.4}, sd {sd:.4}, theory sd {theory:.4}",
            if odd { "odd sketch" } else { "MinHash   " }
        );
        // The mean error is within 4 standard errors of 0 (plus a 0.01 allowance for the
        // small-set bias of the odd estimator's logarithm), and the spread is within 50 %
        // of the theory.
        assert!(bias.abs() <= 4.0 * sd / (errors.len() as f64).sqrt() + 0.01, "n {n} J {j}: bias {bias}");
        assert!(sd <= 1.5 * theory + 0.002, "n {n} J {j}: sd {sd} > theory {theory}");
        assert!(
            sd >= 0.5 * theory - 0.002,
            "n {n} J {j}: sd {sd} < theory {theory}: the test is not measuring"
        );
    }
}

#[test]
fn identical_texts_estimate_one_and_unrelated_ones_near_zero() {
    let mut h = SimHasher::new(Options::default()).unwrap();
    let s = SketchScheme::default();
    let a = h.sketch("我们都喜欢冰淇淋，尤其是在炎热的夏天里。", s).unwrap();
    let b = h.sketch("我们都喜欢冰淇淋，尤其是在炎热的夏天里。", s).unwrap();
    let c = h.sketch("The quick brown fox jumps over the lazy dog.", s).unwrap();
    assert_eq!(estimate_jaccard(&a, &b).unwrap(), 1.0);
    assert!(estimate_jaccard(&a, &c).unwrap() < 0.05);
    // A text shorter than one shingle is one shingle: the sketch exists, equal texts match.
    let short = h.sketch("猫", s).unwrap();
    assert_eq!(short.shingles(), 1);
    assert_eq!(estimate_jaccard(&short, &h.sketch("猫", s).unwrap()).unwrap(), 1.0);
    assert_eq!(h.sketch("  ", s).unwrap_err(), Error::EmptyText);
}

#[test]
fn bytes_round_trip_and_bad_bytes_are_refused() {
    let mut h = SimHasher::new(Options::default()).unwrap();
    for size in [32, 64, 128, 256] {
        let scheme = SketchScheme::new(size).unwrap();
        let s = h.sketch("SimHash maps similar documents to similar fingerprints.", scheme).unwrap();
        let bytes = s.to_bytes();
        assert_eq!(bytes.len(), size + 2);
        assert_eq!(Sketch::from_bytes(&bytes).unwrap(), s);
        assert_eq!(Sketch::from_payload(scheme, s.payload()).unwrap(), s);
        // Truncated anywhere: Corrupt.
        for cut in 0..bytes.len() {
            let e = Sketch::from_bytes(&bytes[..cut]).unwrap_err();
            assert_eq!(e.code(), "Corrupt", "cut at {cut}");
        }
    }
    let s = h.sketch("a text", SketchScheme::default()).unwrap();
    let mut v2 = s.to_bytes();
    v2[0] = 2;
    assert_eq!(Sketch::from_bytes(&v2).unwrap_err().code(), "UnsupportedVersion");
    let mut odd_size = s.to_bytes();
    odd_size[1] = 3;
    assert_eq!(Sketch::from_bytes(&odd_size).unwrap_err().code(), "Corrupt");
    let small = h.sketch("a text", SketchScheme::new(64).unwrap()).unwrap();
    let e = estimate_jaccard(&s, &small).unwrap_err();
    assert_eq!(e.code(), "SchemeMismatch");
    assert!(e.to_string().contains("sk1:64") && e.to_string().contains("sk1:128"), "{e}");
    for bad in [0, 8, 30, 33, 264, 1000] {
        assert_eq!(SketchScheme::new(bad).unwrap_err().code(), "InvalidOption", "{bad}");
    }
    assert_eq!(SketchScheme::from_number(Some(64.5)).unwrap_err().code(), "InvalidOption");
    assert_eq!(SketchScheme::from_number(None).unwrap(), SketchScheme::default());
}

/// The sketch of a distinct set written from the scheme's definition (module docs), with
/// none of `SketchBuilder`'s shortcuts: each bin's minimum as an `Option`, the odd sketch
/// as a list of bit parities.
fn naive_from_shingles(scheme: SketchScheme, distinct: &[u64]) -> Vec<u8> {
    use crate::hash::mix;
    let size = scheme.size();
    let m = 8 * (size / 2 - 4);
    let bins = size;
    let top = |x: u64, n: usize| ((x >> 32) as u128 * n as u128 / (1u128 << 32)) as usize;
    let mut odd = vec![false; m];
    let mut mins: Vec<Option<u32>> = vec![None; bins];
    for &h in distinct {
        let p = top(mix(h ^ ODD_SEED), m);
        odd[p] = !odd[p];
        let g = mix(h ^ OPH_SEED);
        let bin = top(g, bins);
        let order = (g & 0xFFFF_FFFF) as u32;
        mins[bin] = Some(mins[bin].map_or(order, |o| o.min(order)));
    }
    let value = |o: u32| (mix(u64::from(o) ^ NIBBLE_SEED) % 16) as u8;
    let mut out = (distinct.len() as u32).to_le_bytes().to_vec();
    for byte in 0..m / 8 {
        out.push((0..8).map(|b| u8::from(odd[8 * byte + b]) << b).sum());
    }
    let mut nibbles = Vec::new();
    for bin in 0..bins {
        let probe = (0..64 * bins as u64)
            .map(|a| top(mix(((bin as u64) << 32 | a) ^ DENSIFY_SEED), bins))
            .chain((1..bins).map(|d| (bin + d) % bins));
        nibbles.push(match mins[bin] {
            Some(o) => value(o),
            None if distinct.is_empty() => 0,
            None => probe.filter_map(|c| mins[c]).map(value).next().unwrap(),
        });
    }
    out.extend(nibbles.chunks(2).map(|p| p[0] | p[1] << 4));
    out
}

#[test]
fn the_builder_meets_the_schemes_definition_and_distinct_meets_a_sort() {
    let mut rng = Rng(0xD15_71AC7);
    let mut table = Vec::new();
    for case in 0..400 {
        // Sets from empty to several times the bins (empty bins and densification, then none),
        // with repeats and the value 0 (the set's empty-slot marker) in some.
        let len = [0, 1, 2, 5, 40, 130, 700, 3000][case % 8];
        let pool = 1 + rng.below(len as u64 + 1);
        let mut hashes: Vec<u64> =
            (0..len).map(|_| (rng.next() % pool).wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
        if case % 3 == 0 && len > 0 {
            hashes[rng.below(len as u64) as usize] = 0;
        }
        let mut sorted = hashes.clone();
        sorted.sort_unstable();
        sorted.dedup();
        let mut first = Vec::new();
        for &h in &hashes {
            if !first.contains(&h) {
                first.push(h);
            }
        }
        let mut fast = hashes.clone();
        let n = make::distinct_in_place(&mut table, &mut fast);
        assert_eq!(&fast[..n], &first[..], "case {case}: first occurrences, in order");
        for scheme in
            [SketchScheme::default(), SketchScheme::new(32).unwrap(), SketchScheme::new(256).unwrap()]
        {
            let want = naive_from_shingles(scheme, &sorted);
            assert_eq!(Sketch::from_shingles(scheme, &sorted).payload(), &want[..], "case {case} {scheme:?}");
            assert_eq!(
                Sketch::from_shingles(scheme, &fast[..n]).payload(),
                &want[..],
                "case {case}, any order"
            );
        }
    }
}

/// A text of more shingles than the set takes is sorted instead: the same sketch.
#[test]
fn more_shingles_than_the_set_takes_give_the_same_sketch() {
    let mut rng = Rng(0x5E7_0057);
    let len = make::SET_MOST + 1000;
    let hashes: Vec<u64> = (0..len).map(|_| rng.next() % (len as u64 / 2)).collect();
    let mut sorted = hashes.clone();
    sorted.sort_unstable();
    sorted.dedup();
    let scheme = SketchScheme::default();
    let mut shingles = crate::scan::Shingles { hashes };
    let got = SketchBuilder::default().finish_collected(scheme, &mut shingles);
    assert_eq!(got.shingles() as usize, sorted.len());
    assert_eq!(got.payload(), &naive_from_shingles(scheme, &sorted)[..]);
}

/// Shingle sets as the writer may meet them: random ones of every size up to several times
/// the bins, ones whose shingles cancel in pairs in the odd sketch, ones with repeats
/// (counted, flipping their bit twice), and the empty set.
fn sets_for(rng: &mut Rng, scheme: SketchScheme) -> Vec<Vec<u64>> {
    let mut sets: Vec<Vec<u64>> = (0..=40).map(|n| (0..n).map(|_| rng.next()).collect()).collect();
    for n in [63, 64, 65, 200, 1001, 4000] {
        sets.push((0..n).map(|_| rng.next()).collect());
    }
    // Pairs that flip the same odd-sketch bit: the bits set fall below the count.
    let m = scheme.odd_bits();
    let mut by_bit: Vec<Option<u64>> = vec![None; m];
    let mut cancelling = Vec::new();
    while cancelling.len() < 40 {
        let h = rng.next();
        let p = (((crate::hash::mix(h ^ ODD_SEED) >> 32) * m as u64) >> 32) as usize;
        match by_bit[p].take() {
            Some(g) => {
                cancelling.extend([g, h]);
                sets.push(cancelling.clone());
                // and one more, so that an odd count is met too
                sets.push([&cancelling[..], &[rng.next()]].concat());
            }
            None => by_bit[p] = Some(h),
        }
    }
    let mut repeats: Vec<u64> = (0..9).map(|_| rng.next()).collect();
    repeats.extend_from_within(..5);
    sets.push(repeats);
    sets
}

#[test]
fn every_sketch_the_writer_makes_passes_the_checks() {
    let mut rng = Rng(0x0C4E_C4ED);
    let mut h = SimHasher::new(Options::default()).unwrap();
    let (mut checked, mut cancelled) = (0, 0);
    for size in (MIN_SIZE..=MAX_SIZE).step_by(8) {
        let scheme = SketchScheme::new(size).unwrap();
        let mut sketches: Vec<Sketch> =
            sets_for(&mut rng, scheme).iter().map(|set| Sketch::from_shingles(scheme, set)).collect();
        for case in 0..40 {
            let text = random_text(&mut rng, if case % 4 == 0 { 400 } else { 12 });
            sketches.extend(h.sketch(&text, scheme).ok());
        }
        for s in &sketches {
            assert_eq!(Sketch::from_bytes(&s.to_bytes()).as_ref(), Ok(s), "{s:?}");
            assert_eq!(Sketch::from_payload(scheme, s.payload()).as_ref(), Ok(s), "{s:?}");
            checked += 1;
            cancelled += usize::from(s.odd().iter().map(|b| b.count_ones()).sum::<u32>() + 2 <= s.shingles());
        }
        // A saturated count says nothing of the parts: any load.
        let mut saturated = vec![0xA5; size];
        saturated[..4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(Sketch::from_payload(scheme, &saturated).is_ok(), "{size}");
    }
    assert!(checked > 29 * 120 && cancelled > 29 * 40, "{checked} {cancelled}");
}

/// Every single-bit flip and every byte replacement of `bytes` (a sketch's `to_bytes`):
/// for each part (header, count, odd sketch, MinHash), (damaged, refused) counts.
fn damage(bytes: &[u8]) -> [[(usize, usize); 4]; 2] {
    let half = 2 + (bytes.len() - 2) / 2;
    let mut out = [[(0, 0); 4]; 2];
    for i in 0..bytes.len() {
        let part = [2, 6, half, bytes.len()].iter().position(|&end| i < end).unwrap();
        for v in 0..=255u8 {
            let mut d = bytes.to_vec();
            d[i] = v;
            let flips = (v ^ bytes[i]).count_ones();
            let refused = usize::from(Sketch::from_bytes(&d).is_err());
            for (kind, counts) in [flips == 1, flips > 0].into_iter().zip(&mut out) {
                if kind {
                    counts[part].0 += 1;
                    counts[part].1 += refused;
                }
            }
        }
    }
    out
}

#[test]
fn damaged_sketches_are_refused_where_their_parts_disagree() {
    let mut h = SimHasher::new(Options::default()).unwrap();
    let scheme = SketchScheme::default();
    let text = "Heavy rain closed the mountain road early on Tuesday night";
    let (a, b) = (h.sketch(text, scheme).unwrap(), h.sketch(&text.replace("early", "late"), scheme).unwrap());
    assert_eq!(a.shingles(), 54);
    let [bits, bytes] = damage(&a.to_bytes());
    println!("54 shingles: (damaged, refused) by header, count, odd sketch, MinHash: bit flips {bits:?}, bytes {bytes:?}");
    // Every flipped bit of the header and the odd sketch is refused, and so is the count's
    // parity bit; of replaced odd-sketch bytes, all that change its parity (128 of 255
    // values) and more.
    assert_eq!((bits[0].1, bits[2].1), (bits[0].0, bits[2].0));
    assert!(bytes[2].1 * 2 > bytes[2].0, "{bytes:?}");
    let share = |c: [(usize, usize); 4]| {
        c.iter().map(|p| p.1).sum::<usize>() as f64 / c.iter().map(|p| p.0).sum::<usize>() as f64
    };
    assert!(share(bits) > 0.45 && share(bytes) > 0.24, "{bits:?} {bytes:?}");

    // The audit's damage: the count 54 → 4041 (two bytes) made a near copy a duplicate.
    let mut damaged = a.to_bytes();
    damaged[2..6].copy_from_slice(&4041u32.to_le_bytes());
    let (before, after) = (estimate_jaccard(&a, &b).unwrap(), estimate_payloads(&damaged[2..], b.payload()));
    println!("estimate {before} → {after} with the count damaged");
    assert!(before < 0.81 && after > 0.95, "{before} {after}");
    let e = Sketch::from_bytes(&damaged).unwrap_err();
    assert_eq!(e.code(), "Corrupt");
    assert!(e.to_string().contains("4041 shingles") && e.to_string().contains("odd sketch"), "{e}");
    // Fewer shingles than bits set.
    damaged[2..6].copy_from_slice(&2u32.to_le_bytes());
    let e = Sketch::from_payload(scheme, &damaged[2..]).unwrap_err();
    assert!(e.to_string().contains("more than 2 shingles can set"), "{e}");

    // A short text's MinHash bins hold a few values: most of their damage is refused too.
    let short = h.sketch("Hello!", scheme).unwrap();
    assert_eq!(short.shingles(), 3);
    let [bits, bytes] = damage(&short.to_bytes());
    println!("{} shingles: bit flips {bits:?}, bytes {bytes:?}", short.shingles());
    assert!(share(bits) > 0.85 && share(bytes) > 0.9, "{bits:?} {bytes:?}");
    let mut empty = Sketch::from_shingles(scheme, &[]).to_bytes();
    empty[2 + 64 + 7] = 0x10;
    let e = Sketch::from_bytes(&empty).unwrap_err();
    assert!(matches!(e, Error::Corrupt { offset: 73, .. }) && e.to_string().contains("no shingles"), "{e}");
}

/// The estimate of two payloads computed a byte at a time, from the module docs' formulas:
/// the oracle of the word-at-a-time [`estimate_payloads`] and of [`EstimateFloor`].
fn estimate_bytewise(a: &[u8], b: &[u8]) -> f64 {
    if a == b {
        return 1.0;
    }
    let (oa, ob) = (&a[4..a.len() / 2], &b[4..b.len() / 2]);
    let m = (oa.len() * 8) as f64;
    let z: u32 = oa.iter().zip(ob).map(|(x, y)| (x ^ y).count_ones()).sum();
    let r = 1.0 - 2.0 * z as f64 / m;
    if r > ODD_LIMIT {
        let delta = -(m / 2.0) * ln(r);
        let shingles = |p: &[u8]| f64::from(u32::from_le_bytes(p[..4].try_into().unwrap()));
        let total = shingles(a) + shingles(b);
        return ((total - delta) / (total + delta)).clamp(0.0, 1.0);
    }
    let (ma, mb) = (&a[a.len() / 2..], &b[b.len() / 2..]);
    let bins = ma.len() * 2;
    let equal: usize =
        ma.iter().zip(mb).map(|(x, y)| usize::from(x & 15 == y & 15) + usize::from(x >> 4 == y >> 4)).sum();
    let equal = equal as f64 / bins as f64;
    ((equal - 1.0 / 16.0) / (15.0 / 16.0)).clamp(0.0, 1.0)
}

/// `count` distinct values of `range`, drawn at random (the first `count` of a shuffle).
fn distinct(rng: &mut Rng, range: std::ops::Range<usize>, count: usize) -> Vec<usize> {
    let mut order: Vec<usize> = range.collect();
    for i in 0..count {
        let j = i + rng.below((order.len() - i) as u64) as usize;
        order.swap(i, j);
    }
    order.truncate(count);
    order
}

/// Pairs of payloads of `scheme` that exercise every branch of the estimate: random bytes,
/// sketches of overlapping shingle sets (near copies to strangers), equal payloads and
/// equal odd sketches (empty sets: a NaN), the odd sketch's XOR with exactly as many bits
/// set as [`ODD_LIMIT`] allows and one more or less, and MinHash parts differing in each
/// number of bins.
fn estimate_cases(rng: &mut Rng, scheme: SketchScheme) -> Vec<(Vec<u8>, Vec<u8>)> {
    let size = scheme.size();
    let random = |rng: &mut Rng| -> Vec<u8> {
        let mut p: Vec<u8> = (0..size).map(|_| rng.next() as u8).collect();
        let n = if rng.below(3) == 0 { 0 } else { rng.below(5000) as u32 };
        p[..4].copy_from_slice(&n.to_le_bytes());
        p
    };
    let mut cases = vec![];
    for _ in 0..40 {
        let a = random(rng);
        cases.push((a.clone(), random(rng)));
        cases.push((a.clone(), a.clone()));
        let mut b = a.clone();
        b[..4].copy_from_slice(&(rng.next() as u32).to_le_bytes());
        cases.push((a, b));
    }
    // Empty sets: the same odd sketch, other bins (0 / 0 in the odd estimate).
    let mut empty = vec![0u8; size];
    let mut other = empty.clone();
    other[size - 1] = 0x51;
    cases.push((empty.clone(), other));
    empty[4] = 1;
    cases.push((vec![0u8; size], empty));
    for (n, common) in [(3, 2), (40, 36), (150, 130), (400, 390), (2000, 1800), (5000, 4300), (5000, 2500)] {
        for _ in 0..6 {
            let (a, b, _) = pair(rng, n, common);
            cases.push((
                Sketch::from_shingles(scheme, &a).payload().to_vec(),
                Sketch::from_shingles(scheme, &b).payload().to_vec(),
            ));
        }
    }
    let odd_bits = 32..size / 2 * 8;
    let limit = 3 * scheme.odd_bits() / 8; // 1 − 2z/m = ODD_LIMIT
    for z in [1, 2, limit / 2, limit - 1, limit, limit + 1, scheme.odd_bits()] {
        for _ in 0..4 {
            let a = random(rng);
            let mut b = a.clone();
            for bit in distinct(rng, odd_bits.clone(), z) {
                b[bit / 8] ^= 1 << (bit % 8);
            }
            if rng.below(2) == 0 {
                b[size / 2..].copy_from_slice(&random(rng)[size / 2..]);
            }
            cases.push((a, b));
        }
    }
    for differ in 0..=scheme.bins() {
        // Odd sketches far apart, so the MinHash part answers.
        let a = random(rng);
        let mut b = random(rng);
        b[size / 2..].copy_from_slice(&a[size / 2..]);
        for k in distinct(rng, 0..scheme.bins(), differ) {
            b[size / 2 + k / 2] ^= (1 + rng.below(15) as u8) << (4 * (k % 2));
        }
        cases.push((a, b));
    }
    cases
}

#[test]
fn the_word_at_a_time_estimate_is_the_bytewise_one_to_the_bit() {
    let mut rng = Rng(27);
    let (mut odd, mut minhash, mut nan) = (0, 0, 0);
    for size in (MIN_SIZE..=MAX_SIZE).step_by(8) {
        let scheme = SketchScheme::new(size).unwrap();
        for (a, b) in estimate_cases(&mut rng, scheme) {
            let (got, expected) = (estimate_payloads(&a, &b), estimate_bytewise(&a, &b));
            assert_eq!(got.to_bits(), expected.to_bits(), "size {size}: {got} != {expected}\n{a:?}\n{b:?}");
            assert_eq!(estimate_payloads(&b, &a).to_bits(), expected.to_bits(), "size {size}, swapped");
            nan += usize::from(expected.is_nan());
            let (sa, sb) = (Sketch { bytes: a.into() }, Sketch { bytes: b.into() });
            match estimator(&sa, &sb) {
                Estimator::Odd => odd += 1,
                Estimator::MinHash => minhash += 1,
            }
        }
    }
    assert!(odd > 2000 && minhash > 5000 && nan > 0, "{odd} odd, {minhash} MinHash, {nan} NaN");
}

#[test]
fn a_floor_keeps_exactly_the_estimates_that_reach_it() {
    let mut rng = Rng(95);
    let (mut kept, mut dropped, mut at) = (0, 0, 0);
    for size in (MIN_SIZE..=MAX_SIZE).step_by(8) {
        let scheme = SketchScheme::new(size).unwrap();
        let cases = estimate_cases(&mut rng, scheme);
        // Floors at each estimate the MinHash part can give and a step of an ulp either
        // side, the thresholds in use, and beyond the range.
        let mut floors: Vec<f64> = vec![0.81, 0.81 - 0.25, 0.8 - 0.25, 0.0, -0.0, -0.25, 1.0, 1.5, f64::NAN];
        for equal in 0..=scheme.bins() {
            let e = ((equal as f64 / scheme.bins() as f64 - 1.0 / 16.0) / (15.0 / 16.0)).clamp(0.0, 1.0);
            floors.extend([e, e.next_up(), e.next_down()]);
        }
        let floors: Vec<EstimateFloor> = floors.into_iter().map(|f| EstimateFloor::new(f, scheme)).collect();
        for (a, b) in &cases {
            let e = estimate_bytewise(a, b);
            // And floors at this pair's own estimate.
            let own = [e, e.next_up(), e.next_down()].map(|f| EstimateFloor::new(f, scheme));
            for floor in floors.iter().chain(&own) {
                let expected = (e >= floor.floor).then_some(e.to_bits());
                let got = floor.reaching(a, b).map(f64::to_bits);
                assert_eq!(got, expected, "size {size}, floor {}: estimate {e}\n{a:?}\n{b:?}", floor.floor);
                match got {
                    Some(_) => kept += 1,
                    None => dropped += 1,
                }
                at += usize::from(e == floor.floor);
            }
        }
    }
    assert!(kept > 100_000 && dropped > 100_000 && at > 10_000, "{kept} kept, {dropped} dropped, {at} at");
}
