//! `npm run quality`: precision and recall of fingerprint distance ≤ k against the dev
//! corpus's ground truth (pairs with character 4-gram Jaccard ≥ 0.8), for k = 0..=10,
//! English and Chinese apart. Exact: every pair of documents is compared (brute force).
//!
//! Usage: `cargo bench --bench quality -- [--sweep] [--json FILE]`
//!   --sweep      also print best F1 for a grid of settings (how the defaults were chosen)
//!   --json FILE  write the default setting's table as JSON (the demo page plots it)
//!
//! The crawler's flow (`ContentSeen`): fingerprint only (pages within k) against
//! fingerprint + sketch (candidates within k or sharing a sketch band, kept when the
//! estimated Jaccard reaches the threshold), over k and threshold, per language; the
//! verified `dedup` at its defaults; the sketch's cost against the fingerprint alone.
//!
//! Ends with `RESULT f1=… f1_en=… f1_zh=… k=… p=… r=… seen_f1=… seen_f1_en=… seen_f1_zh=…
//! seen_p=… seen_r=… seen_f1_short_zh=… sketch_bytes=… exact_f1=… exact_f1_zh=…
//! sketch_cost_ratio=… dedup_sketch_f1=… dedup_sketch_f1_zh=… dedup_sketch_p=…
//! dedup_sketch_f1_short_zh=… dedup_sketch_r_short_zh=… exact_f1_short_zh=…
//! exact_f1_en=…`: the
//! fingerprint alone at its best k, then the crawler's default flow, then `dedup` (its
//! default flow; `--verify sketch` on the corpus and on the short Chinese set; the default
//! flow on that set).

use std::collections::{HashMap, HashSet};

use simhash_wasm::__private::sketch::band_key;
use simhash_wasm::seen::DEFAULT_THRESHOLD;
use simhash_wasm::sketch::BandIndex;
use simhash_wasm::sketch::{estimate_jaccard, estimator, Estimator, SketchScheme};
use simhash_wasm::{NormalizeOptions, Options, Punctuation, SimHasher, Tokenizer, Weighting};

mod common;
use common::Corpus;

/// A Chinese text under this many characters is "short" (`seen_f1_short_zh`).
const SHORT_ZH: usize = 200;

struct Doc {
    id: String,
    text: String,
    zh: bool,
}

fn load() -> (Vec<Doc>, HashSet<(usize, usize)>) {
    let Corpus { ids, texts, zh, truth } = Corpus::load();
    let docs = ids.into_iter().zip(texts).zip(zh).map(|((id, text), zh)| Doc { id, text, zh }).collect();
    (docs, truth)
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
    use simhash_wasm::__private::verify::ShingleSet;
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

/// A candidate pair of the crawler's flow.
struct FlowPair {
    distance: u32,
    /// The first band whose keys are equal (`None`: no band, a fingerprint candidate).
    band: Option<usize>,
    estimate: f64,
    /// The estimator that answered (odd sketch or MinHash).
    odd: bool,
    zh: bool,
    hit: bool,
}

/// Precision, recall, F1 from (predicted, hits, truth).
fn prf(pred: u64, hits: u64, truth: u64) -> (f64, f64, f64) {
    let p = if pred == 0 { 1.0 } else { hits as f64 / pred as f64 };
    let r = if truth == 0 { 1.0 } else { hits as f64 / truth as f64 };
    (p, r, if p + r == 0.0 { 0.0 } else { 2.0 * p * r / (p + r) })
}

/// The flow's candidate pairs: fingerprints within `kmax` (brute force) and sketch band
/// matches ([`BandIndex`]), each with the sketch estimate; and the truth per language.
fn flow_pairs(
    docs: &[Doc],
    truth: &HashSet<(usize, usize)>,
    opts: Options,
    scheme: SketchScheme,
    kmax: u32,
) -> (Vec<FlowPair>, [u64; 2]) {
    let mut h = SimHasher::new(opts).expect("options");
    let made: Vec<Option<(u64, simhash_wasm::sketch::Sketch)>> =
        docs.iter().map(|d| h.fingerprint_and_sketch(&d.text, scheme).ok()).collect();
    let mut bands = BandIndex::new(scheme);
    for (i, m) in made.iter().enumerate() {
        if let Some((_, s)) = m {
            bands.insert(i as u32, s).expect("one scheme");
        }
    }
    let mut pairs: HashMap<(usize, usize), bool> = HashMap::new();
    for (i, m) in made.iter().enumerate() {
        let Some((fa, sa)) = m else { continue };
        for e in bands.query(sa).expect("one scheme") {
            let j = e as usize;
            if j > i {
                pairs.insert((i, j), true);
            }
        }
        for (j, n) in made.iter().enumerate().skip(i + 1) {
            if let Some((fb, _)) = n {
                if (fa ^ fb).count_ones() <= kmax {
                    pairs.entry((i, j)).or_insert(false);
                }
            }
        }
    }
    let mut t = [0u64; 2];
    for &(a, _) in truth {
        t[usize::from(docs[a].zh)] += 1;
    }
    let out = pairs
        .into_iter()
        .map(|((i, j), banded)| {
            let (fa, sa) = made[i].as_ref().expect("made");
            let (fb, sb) = made[j].as_ref().expect("made");
            let band = (0..bands.bands()).find(|&b| band_key(sa, b) == band_key(sb, b));
            assert_eq!(band.is_some(), banded, "the band index agrees with the band keys");
            FlowPair {
                distance: (fa ^ fb).count_ones(),
                band,
                estimate: estimate_jaccard(sa, sb).expect("one scheme"),
                odd: estimator(sa, sb) == Estimator::Odd,
                zh: docs[i].zh && docs[j].zh,
                hit: truth.contains(&(i, j)),
            }
        })
        .collect();
    (out, t)
}

fn short_zh(d: &Doc) -> bool {
    d.zh && d.text.chars().count() < SHORT_ZH
}

/// The corpus's truth definition (`../shared/corpus/README.md`): NFKC, lower case, runs
/// of whitespace as one space, trimmed; the set of 4-code-point substrings (a shorter
/// text is its own shingle).
fn truth_shingles(text: &str) -> HashSet<String> {
    use unicode_normalization::UnicodeNormalization;
    let lower = text.nfkc().collect::<String>().to_lowercase();
    let t: Vec<char> = lower.split_whitespace().collect::<Vec<_>>().join(" ").chars().collect();
    if t.len() < 4 {
        return HashSet::from([t.iter().collect()]);
    }
    t.windows(4).map(|w| w.iter().collect()).collect()
}

fn jaccard(a: &HashSet<String>, b: &HashSet<String>) -> f64 {
    let inter = a.intersection(b).count();
    inter as f64 / (a.len() + b.len() - inter) as f64
}

/// Short Chinese texts with near-duplicates: the dev corpus has 2,317 Chinese texts under
/// [`SHORT_ZH`] characters (fortunes and poems) and not one pair among them with J ≥ 0.8,
/// so copies are made here, as reposts are: of `originals` of them (every k-th), two
/// copies each with 1 to 6 random edits (a character replaced, deleted or inserted, or a
/// punctuation mark changed), seeded. Returns the documents (originals then copies) and
/// every pair with exact J ≥ 0.8 by the corpus's truth definition (all pairs compared).
fn short_zh_set(docs: &[Doc], originals: usize) -> (Vec<Doc>, HashSet<(usize, usize)>) {
    const CJK: &str = "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坏兴切";
    const PUNCT: &[char] = &['，', '。', '、', '；', '：', '！', '？', ' '];
    let cjk: Vec<char> = CJK.chars().collect();
    let mut rng = common::Rng(0x5a07);
    let short: Vec<&Doc> = docs.iter().filter(|d| short_zh(d) && d.text.chars().count() >= 20).collect();
    let step = (short.len() / originals.max(1)).max(1);
    let mut out: Vec<Doc> = short
        .iter()
        .step_by(step)
        .take(originals)
        .map(|d| Doc { id: d.id.clone(), text: d.text.clone(), zh: true })
        .collect();
    let n = out.len();
    for o in 0..n {
        for copy in 0..2 {
            let mut t: Vec<char> = out[o].text.chars().collect();
            let edits = 1 + rng.below(6) as usize;
            for _ in 0..edits {
                let at = rng.below(t.len() as u64) as usize;
                let c = cjk[rng.below(cjk.len() as u64) as usize];
                match rng.below(4) {
                    0 => t[at] = c,
                    1 if t.len() > 20 => {
                        t.remove(at);
                    }
                    2 => t.insert(at, c),
                    _ => {
                        let p = PUNCT[rng.below(PUNCT.len() as u64) as usize];
                        match t.iter().position(|x| PUNCT.contains(x)) {
                            Some(i) => t[i] = p,
                            None => t.insert(at, p),
                        }
                    }
                }
            }
            out.push(Doc {
                id: format!("{}#copy{copy}", out[o].id),
                text: t.into_iter().collect(),
                zh: true,
            });
        }
    }
    let sets: Vec<HashSet<String>> = out.iter().map(|d| truth_shingles(&d.text)).collect();
    let mut truth = HashSet::new();
    for i in 0..out.len() {
        for j in i + 1..out.len() {
            let (a, b) = (sets[i].len() as f64, sets[j].len() as f64);
            if a.min(b) >= 0.8 * a.max(b) && jaccard(&sets[i], &sets[j]) >= 0.8 {
                truth.insert((i, j));
            }
        }
    }
    (out, truth)
}

/// (P, R, F1, F1_en, F1_zh, P_zh) of the flow at candidate `k`, with the first `bands`
/// bands (0: none), at `threshold`.
fn flow_score(pairs: &[FlowPair], t: [u64; 2], k: u32, bands: usize, threshold: f64) -> [f64; 6] {
    let (mut pred, mut hits) = ([0u64; 2], [0u64; 2]);
    for p in pairs {
        if (p.distance <= k || p.band.is_some_and(|b| b < bands)) && p.estimate >= threshold {
            pred[usize::from(p.zh)] += 1;
            hits[usize::from(p.zh)] += u64::from(p.hit);
        }
    }
    let (pa, ra, fa) = prf(pred[0] + pred[1], hits[0] + hits[1], t[0] + t[1]);
    let (pz, _, fz) = prf(pred[1], hits[1], t[1]);
    [pa, ra, fa, prf(pred[0], hits[0], t[0]).2, fz, pz]
}

/// F1 overall, for Chinese and for the rest, and the precision and recall, of a `dedup`,
/// scored as `bench:dedup` scores it: precision over the reported pairs (those that join
/// each cluster), recall over the true pairs whose documents share a cluster.
fn dedup_score(
    docs: &[Doc],
    truth: &HashSet<(usize, usize)>,
    options: &simhash_wasm::dedup::DedupOptions,
) -> (f64, f64, f64, f64, f64) {
    use simhash_wasm::dedup::dedup;
    let input: Vec<(&str, &str)> = docs.iter().map(|d| (d.id.as_str(), d.text.as_str())).collect();
    let report = dedup(&input, options).expect("dedup");
    let pos: HashMap<&str, usize> = docs.iter().enumerate().map(|(i, d)| (d.id.as_str(), i)).collect();
    let mut cluster_of: HashMap<usize, usize> = HashMap::new();
    for (n, c) in report.clusters.iter().enumerate() {
        cluster_of.extend(c.iter().map(|id| (pos[id.as_str()], n)));
    }
    // Per language (1: both Chinese): reported pairs, of them true, true pairs, of them found.
    let (mut pred, mut hits, mut t, mut found) = ([0u64; 2], [0u64; 2], [0u64; 2], [0u64; 2]);
    for &(a, b) in truth {
        let lang = usize::from(docs[a].zh && docs[b].zh);
        t[lang] += 1;
        found[lang] += u64::from(cluster_of.get(&a).is_some_and(|n| cluster_of.get(&b) == Some(n)));
    }
    for p in &report.pairs {
        let (a, b) = (pos[p.a.as_str()], pos[p.b.as_str()]);
        let lang = usize::from(docs[a].zh && docs[b].zh);
        pred[lang] += 1;
        hits[lang] += u64::from(truth.contains(&(a.min(b), a.max(b))));
    }
    let share = |part: u64, whole: u64| if whole == 0 { 1.0 } else { part as f64 / whole as f64 };
    let f1 = |p: f64, r: f64| if p + r == 0.0 { 0.0 } else { 2.0 * p * r / (p + r) };
    let p = share(hits[0] + hits[1], pred[0] + pred[1]);
    let r = share(found[0] + found[1], t[0] + t[1]);
    (
        f1(p, r),
        f1(share(hits[1], pred[1]), share(found[1], t[1])),
        f1(share(hits[0], pred[0]), share(found[0], t[0])),
        p,
        r,
    )
}

/// `dedup`'s two flows: the default (candidates verified on the texts), and `--verify
/// sketch` (verified by the sketches' estimate at its default threshold, no text kept).
fn dedup_flows() -> [simhash_wasm::dedup::DedupOptions; 2] {
    use simhash_wasm::dedup::DedupOptions;
    let sketch = DedupOptions {
        verify: Some(DedupOptions::DEFAULT_SKETCH_VERIFY),
        sketch: Some(SketchScheme::default()),
        ..DedupOptions::default()
    };
    [DedupOptions::default(), sketch]
}

/// Time of fingerprint_and_sketch over the corpus divided by fingerprint alone's (best of
/// 3 runs each).
fn sketch_cost_ratio(docs: &[Doc], opts: Options, scheme: SketchScheme) -> f64 {
    let mut h = SimHasher::new(opts).expect("options");
    let mut best = [f64::MAX; 2];
    for _ in 0..3 {
        for (which, slot) in best.iter_mut().enumerate() {
            let t0 = std::time::Instant::now();
            let mut acc = 0u64;
            for d in docs {
                acc ^= if which == 0 {
                    h.fingerprint(&d.text).unwrap_or(0)
                } else {
                    h.fingerprint_and_sketch(&d.text, scheme).map_or(0, |(f, s)| f ^ u64::from(s.shingles()))
                };
            }
            std::hint::black_box(acc);
            *slot = slot.min(t0.elapsed().as_secs_f64());
        }
    }
    best[1] / best[0]
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

    // The crawler's flow.
    let scheme = SketchScheme::default();
    let (pairs, t) = flow_pairs(&docs, &truth, opts, scheme, 10);
    let banded = pairs.iter().filter(|p| p.band.is_some()).count();
    let nbands = simhash_wasm::__private::sketch::bands_for(scheme);
    println!(
        "\ncrawler flow (ContentSeen), {}-byte sketch ({}): {} candidate pairs ({} from the {} bands, the rest within 10 bits)",
        scheme.size(),
        scheme.describe(),
        pairs.len(),
        banded,
        simhash_wasm::__private::sketch::bands_for(scheme),
    );
    println!("fingerprint only (8 bytes a page): duplicates = pages within k (the table above); its best and the crawler's default:");
    for k in [3usize, best_k(&a)] {
        let (p, r, f) = a.prf(k);
        println!("  k={k:>2}: P {p:.3} R {r:.3} F1 {f:.3} (en {:.3}, zh {:.3})", e.prf(k).2, z.prf(k).2);
    }
    let thresholds =
        [0.6, 0.65, 0.7, 0.75, 0.78, 0.79, 0.8, 0.805, 0.81, 0.815, 0.82, 0.83, 0.84, 0.86, 0.9, 0.95];
    let header = || {
        println!(
            "{:>9} {:>5} | {:>6} {:>6} {:>6} | {:>6} {:>6} {:>6}",
            "candidates", "t", "P", "R", "F1", "F1_en", "F1_zh", "P_zh"
        )
    };
    println!("\nfingerprint + sketch: candidates within k bits or sharing a band, kept when estimate >= t:");
    header();
    let row = |name: String, th: f64, [p, r, f, fe, fz, pz]: [f64; 6]| {
        println!("{name:>9} {th:>5.3} | {p:>6.3} {r:>6.3} {f:>6.3} | {fe:>6.3} {fz:>6.3} {pz:>6.3}")
    };
    for &th in &thresholds {
        row(format!("k3+{nbands}b"), th, flow_score(&pairs, t, 3, nbands, th));
    }
    let best97 = thresholds
        .iter()
        .map(|&th| (th, flow_score(&pairs, t, 3, nbands, th)))
        .filter(|x| x.1[0] >= 0.97)
        .max_by(|x, y| x.1[2].total_cmp(&y.1[2]));
    if let Some((th, sc)) = best97 {
        println!(
            "best F1 with P >= 0.97: t = {th} (F1 {:.3}); the default is t = {DEFAULT_THRESHOLD}",
            sc[2]
        );
    }
    println!("\nother candidate k and fewer bands, at t = {DEFAULT_THRESHOLD} (band b = bins [6b, 6b+6)):");
    for (k, b) in [(0u32, nbands), (6, nbands), (3, 16), (3, 12), (3, 8)] {
        let cands = pairs.iter().filter(|p| p.distance <= k || p.band.is_some_and(|x| x < b)).count();
        row(format!("k{k}+{b}b"), DEFAULT_THRESHOLD, flow_score(&pairs, t, k, b, DEFAULT_THRESHOLD));
        println!("{:>9} {cands} candidate pairs", "");
    }
    println!("\nwithout the bands (candidates within k bits only), each at its best t, for comparison:");
    header();
    for k in [3u32, 6, 8, 10] {
        let best = thresholds
            .iter()
            .map(|&th| (th, flow_score(&pairs, t, k, 0, th)))
            .max_by(|x, y| x.1[2].total_cmp(&y.1[2]))
            .expect("thresholds");
        row(format!("k{k}"), best.0, best.1);
    }
    // Short Chinese texts, and the two estimators apart.
    let (short_docs, short_truth) = short_zh_set(&docs, 600);
    let (short_pairs, st) = flow_pairs(&short_docs, &short_truth, opts, scheme, 10);
    let t_short = st[1];
    println!(
        "\nshort Chinese texts (under {SHORT_ZH} characters; the corpus has no near-duplicate pair among them, so reposts are made): {} texts, {t_short} true pairs (J >= 0.8), {} candidate pairs",
        short_docs.len(),
        short_pairs.len()
    );
    for odd in [true, false] {
        let ps: Vec<&FlowPair> = short_pairs.iter().filter(|p| p.odd == odd).collect();
        let hits = ps.iter().filter(|p| p.hit).count();
        let near = ps.iter().filter(|p| p.hit && p.estimate < DEFAULT_THRESHOLD).count();
        let name = if odd { "odd sketch" } else { "MinHash" };
        println!("  answered by the {name}: {} candidate pairs, {hits} true, {near} of them estimated under t = {DEFAULT_THRESHOLD}", ps.len());
    }
    // Each estimator's own threshold: the odd sketch's with MinHash's at the default, then
    // MinHash's with the odd sketch's at the default (the calibration of each regime).
    let score_by = |pairs: &[FlowPair], truth: u64, t_odd: f64, t_minhash: f64| {
        let (mut pred, mut hits) = (0u64, 0u64);
        for p in pairs {
            if (p.distance <= 3 || p.band.is_some()) && p.estimate >= if p.odd { t_odd } else { t_minhash } {
                pred += 1;
                hits += u64::from(p.hit);
            }
        }
        prf(pred, hits, truth)
    };
    for odd in [true, false] {
        let (name, other) = if odd { ("t_odd", "MinHash's") } else { ("t_mh", "the odd sketch's") };
        println!("  {name} ({other} at {DEFAULT_THRESHOLD}): the dev corpus | the short Chinese set");
        println!(
            "  {:>5} | {:>6} {:>6} {:>6} | {:>6} {:>6} {:>6}",
            name, "P", "R", "F1", "P_sz", "R_sz", "F1_sz"
        );
        for &th in &thresholds {
            let (to, tm) = if odd { (th, DEFAULT_THRESHOLD) } else { (DEFAULT_THRESHOLD, th) };
            let (p, r, f) = score_by(&pairs, t[0] + t[1], to, tm);
            let (ps, rs, fs) = score_by(&short_pairs, t_short, to, tm);
            println!("  {th:>5.3} | {p:>6.3} {r:>6.3} {f:>6.3} | {ps:>6.3} {rs:>6.3} {fs:>6.3}");
        }
    }

    // The default: k = 3 (SeenConfig::default()), bands, the default threshold.
    let [sp, sr, sf, sfe, sfz, _] = flow_score(&pairs, t, 3, nbands, DEFAULT_THRESHOLD);
    let (_, _, sfs) = score_by(&short_pairs, t_short, DEFAULT_THRESHOLD, DEFAULT_THRESHOLD);
    println!("\ncrawler default (k=3 + bands, t={DEFAULT_THRESHOLD}): P {sp:.3} R {sr:.3} F1 {sf:.3} (en {sfe:.3}, zh {sfz:.3}, short zh {sfs:.3})");
    let [exact, sketched] = dedup_flows();
    let (ef, efz, efe, ep, _) = dedup_score(&docs, &truth, &exact);
    println!("verified dedup (DedupOptions::default(), texts at hand): P {ep:.3} F1 {ef:.3} (en {efe:.3}, zh {efz:.3})");
    let (df, dfz, _, dp, dr) = dedup_score(&docs, &truth, &sketched);
    println!(
        "dedup --verify sketch (estimate >= {}): P {dp:.3} R {dr:.3} F1 {df:.3} (zh {dfz:.3})",
        sketched.verify.unwrap_or(0.0)
    );
    let (xs, _, _, xsp, xsr) = dedup_score(&short_docs, &short_truth, &exact);
    let (ds, _, _, dsp, dsr) = dedup_score(&short_docs, &short_truth, &sketched);
    println!("  on the short Chinese set: --verify sketch P {dsp:.3} R {dsr:.3} F1 {ds:.3}; verified on the texts P {xsp:.3} R {xsr:.3} F1 {xs:.3}");
    let ratio = sketch_cost_ratio(&docs, opts, scheme);
    println!("sketch cost: fingerprint_and_sketch takes {ratio:.2}x the time of fingerprint alone");

    let k = best_k(&a);
    let (p, r, f) = a.prf(k);
    println!(
        "RESULT f1={f:.3} f1_en={:.3} f1_zh={:.3} k={k} p={p:.3} r={r:.3} seen_f1={sf:.3} seen_f1_en={sfe:.3} seen_f1_zh={sfz:.3} seen_p={sp:.3} seen_r={sr:.3} seen_f1_short_zh={sfs:.3} sketch_bytes={} exact_f1={ef:.3} exact_f1_zh={efz:.3} sketch_cost_ratio={ratio:.2} dedup_sketch_f1={df:.3} dedup_sketch_f1_zh={dfz:.3} dedup_sketch_p={dp:.3} dedup_sketch_f1_short_zh={ds:.3} dedup_sketch_r_short_zh={dsr:.3} exact_f1_short_zh={xs:.3} exact_f1_en={efe:.3}",
        e.prf(k).2,
        z.prf(k).2,
        scheme.size()
    );
}
