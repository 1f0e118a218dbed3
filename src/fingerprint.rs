//! SimHash fingerprints: features, weights, per-bit sums, and the sign step.
//!
//! For every distinct feature `f` with weight `w` and 64-bit hash `h` (see [`crate::hash`]),
//! every bit `i` of `h` adds `+w` to sum `i` if the bit is 1 and `−w` if it is 0. Bit `i`
//! of the fingerprint is 1 where sum `i` is **strictly positive**, and 0 where it is
//! negative **or exactly zero**. Bit 0 is the least significant bit, in the feature hashes
//! and in the fingerprint alike.
//!
//! ```
//! use simhash_wasm::{SimHasher, Options, hamming};
//! let mut hasher = SimHasher::new(Options::default()).unwrap();
//! let a = hasher.fingerprint("The cat sat on the mat.").unwrap();
//! let b = hasher.fingerprint("The cat sat on a mat.").unwrap();
//! let c = hasher.fingerprint("We all scream for ice cream!").unwrap();
//! assert!(hamming(a, b) < hamming(a, c));
//! ```

use std::sync::Arc;

use unicode_segmentation::UnicodeSegmentation;

use crate::error::{Error, Result};
use crate::hash::{hash_at, hash_str};
use crate::normalize::{normalize_into, NormalizeOptions};
use crate::tokenize::{for_each_grapheme_start, word_shingles};
use crate::weight::{check_weight, quantize, IdfTable, Weighting, WEIGHT_SCALE};

/// The largest n-gram size (characters or words).
pub const MAX_NGRAM: usize = 16;

/// How a text is cut into features.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tokenizer {
    /// Overlapping runs of `n` grapheme clusters of the normalised text (spaces included).
    Chars(usize),
    /// Overlapping runs of `n` Unicode words (see [`crate::tokenize::word_shingles`]).
    Words(usize),
}

impl Tokenizer {
    /// `"chars"` or `"words"`.
    pub fn mode(self) -> &'static str {
        match self {
            Tokenizer::Chars(_) => "chars",
            Tokenizer::Words(_) => "words",
        }
    }

    /// The n-gram size.
    pub fn n(self) -> usize {
        match self {
            Tokenizer::Chars(n) | Tokenizer::Words(n) => n,
        }
    }
}

/// Everything that decides a fingerprint. Two fingerprints are comparable only when they
/// were made with equal `Options` (and the same [`crate::hash::HASH_VERSION`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// How the text is cut into features.
    pub tokenizer: Tokenizer,
    /// How occurrences become weights.
    pub weighting: Weighting,
    /// How the text is normalised first.
    pub normalize: NormalizeOptions,
}

/// The default n-gram size: 6 grapheme clusters, chosen with `npm run quality` (see the
/// README, "Choosing the defaults": n = 2..12, words 1..3, three weightings and three
/// punctuation modes were measured; 5..8 characters are best for English and Chinese
/// alike, and 6 with sublinear weights and collapsed punctuation had the best F1).
pub const DEFAULT_NGRAM: usize = 6;

impl Default for Options {
    fn default() -> Self {
        Options {
            tokenizer: Tokenizer::Chars(DEFAULT_NGRAM),
            weighting: Weighting::Sublinear,
            normalize: NormalizeOptions::default(),
        }
    }
}

impl Options {
    /// Checks the options, with a message that says what is allowed.
    pub fn validate(&self) -> Result<()> {
        let n = self.tokenizer.n();
        if !(1..=MAX_NGRAM).contains(&n) {
            return Err(Error::option("ngram", n, format!("an integer from 1 to {MAX_NGRAM}")));
        }
        Ok(())
    }

    /// The option names [`Options::from_names`] takes, as the JS API spells them.
    pub const NAMES: [&'static str; 6] = ["mode", "ngram", "weighting", "punctuation", "nfkc", "lowercase"];

    /// Options from their names, as the JS API and the CLI spell them: `mode` is `"chars"`
    /// or `"words"`, `weighting` and `punctuation` as [`Weighting::name`] and
    /// [`crate::Punctuation::name`]. Missing values take the defaults. Every bad value is an
    /// [`Error::InvalidOption`] that names what is allowed.
    pub fn from_names(
        mode: Option<&str>,
        ngram: Option<f64>,
        weighting: Option<&str>,
        punctuation: Option<&str>,
        nfkc: Option<bool>,
        lowercase: Option<bool>,
    ) -> Result<Options> {
        let d = Options::default();
        let n = match ngram {
            None => d.tokenizer.n(),
            Some(x) if x.fract() == 0.0 && (1.0..=MAX_NGRAM as f64).contains(&x) => x as usize,
            Some(x) => {
                return Err(Error::option(
                    "ngram",
                    crate::error::number(x),
                    format!("an integer from 1 to {MAX_NGRAM}"),
                ))
            }
        };
        let tokenizer = match mode.unwrap_or("chars") {
            "chars" => Tokenizer::Chars(n),
            "words" => Tokenizer::Words(n),
            m => return Err(Error::option("mode", crate::error::quoted(&m), "\"chars\" or \"words\"")),
        };
        let weighting = match weighting {
            None => d.weighting,
            Some(w) => Weighting::from_name(w).ok_or_else(|| {
                Error::option("weighting", crate::error::quoted(&w), "\"binary\", \"tf\" or \"sublinear\"")
            })?,
        };
        let punctuation = match punctuation {
            None => d.normalize.punctuation,
            Some(p) => crate::Punctuation::from_name(p).ok_or_else(|| {
                Error::option("punctuation", crate::error::quoted(&p), "\"keep\", \"drop\" or \"collapse\"")
            })?,
        };
        let normalize = NormalizeOptions {
            punctuation,
            nfkc: nfkc.unwrap_or(d.normalize.nfkc),
            lowercase: lowercase.unwrap_or(d.normalize.lowercase),
        };
        let opts = Options { tokenizer, weighting, normalize };
        opts.validate()?;
        Ok(opts)
    }

    /// A one-line description, e.g. `chars:4 sublinear punct=keep nfkc lower sh64v1`.
    pub fn describe(&self) -> String {
        format!(
            "{}:{} {} punct={}{}{} sh64v{}",
            self.tokenizer.mode(),
            self.tokenizer.n(),
            self.weighting.name(),
            self.normalize.punctuation.name(),
            if self.normalize.nfkc { " nfkc" } else { "" },
            if self.normalize.lowercase { " lower" } else { "" },
            crate::hash::HASH_VERSION
        )
    }
}

/// One feature occurrence in an [`Explanation`].
#[derive(Clone, Debug, PartialEq)]
pub struct ExplainedToken {
    /// Byte offset in the normalised text.
    pub start: usize,
    /// Byte offset just past the token in the normalised text.
    pub end: usize,
    /// The feature's hash; its bits are the row the token adds.
    pub hash: u64,
    /// How many times the feature occurs in the text.
    pub tf: u32,
    /// The feature's weight (after fixed-point rounding). It is added once per distinct
    /// feature, at its first occurrence.
    pub weight: f64,
    /// `true` at the feature's first occurrence, where its weight is added.
    pub first: bool,
}

/// Every step of the fingerprint of one text, for teaching and debugging.
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    /// The normalised text.
    pub normalized: String,
    /// Every feature occurrence, in text order.
    pub tokens: Vec<ExplainedToken>,
    /// The 64 per-bit weighted sums; index `i` is bit `i` (least significant first).
    pub sums: [f64; 64],
    /// The fingerprint: bit `i` is 1 where `sums[i] > 0`.
    pub fingerprint: u64,
}

/// Computes fingerprints with fixed [`Options`], reusing its buffers between texts.
///
/// A `SimHasher` is cheap to keep and not meant to be shared between threads at once;
/// make one per thread.
#[derive(Clone, Debug)]
pub struct SimHasher {
    opts: Options,
    idf: Option<Arc<IdfTable>>,
    html: bool,
    /// The visible text of the last HTML input (a reused buffer).
    #[cfg(feature = "html")]
    text: String,
    norm: String,
    word: String,
    counter: Counter,
}

impl SimHasher {
    /// A hasher for `opts`, or an error naming the bad option.
    pub fn new(opts: Options) -> Result<SimHasher> {
        opts.validate()?;
        Ok(SimHasher {
            opts,
            idf: None,
            html: false,
            #[cfg(feature = "html")]
            text: String::new(),
            norm: String::new(),
            word: String::new(),
            counter: Counter::default(),
        })
    }

    /// A hasher whose weights are also multiplied by the features' idf from `table`.
    pub fn with_idf(opts: Options, table: Arc<IdfTable>) -> Result<SimHasher> {
        let mut h = SimHasher::new(opts)?;
        h.idf = Some(table);
        Ok(h)
    }

    /// The options this hasher was made with.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// Reads every input as HTML and fingerprints its visible text
    /// (`crate::html::html_to_text`) when `html` is true.
    ///
    /// This is a property of the hasher, not of the fingerprint scheme ([`Options`]):
    /// a page and its plain text get the same fingerprint, so snapshots do not record it.
    /// Asking for HTML in a build without the Cargo feature `html` is an
    /// [`Error::FeatureDisabled`], and leaves the hasher as it was.
    pub fn set_html(&mut self, html: bool) -> Result<()> {
        if html && !cfg!(feature = "html") {
            return Err(Error::html_disabled());
        }
        self.html = html;
        Ok(())
    }

    /// `true` when inputs are read as HTML (see [`set_html`](Self::set_html)).
    pub fn html(&self) -> bool {
        self.html
    }

    /// The IDF table, if any.
    pub fn idf(&self) -> Option<&Arc<IdfTable>> {
        self.idf.as_ref()
    }

    /// The fingerprint of `text`.
    ///
    /// Errors: [`Error::EmptyText`] when normalisation leaves nothing, and
    /// [`Error::TextTooShort`] when fewer units remain than one n-gram needs.
    pub fn fingerprint(&mut self, text: &str) -> Result<u64> {
        self.count_features(text, |_, _, _| {})?;
        let sums = self.sums()?;
        Ok(sign(&sums))
    }

    /// A 128-bit fingerprint: the 64-bit one, and 64 more bits from the same features
    /// with their hashes re-mixed (`mix(h ^ 0xD6E8FEB86659FD93)`), i.e. a second
    /// independent set of 64 hyperplanes. Halves the variance of the distance estimate;
    /// `npm run quality -- --wide` measures what that buys. Not yet a stable scheme.
    #[doc(hidden)]
    pub fn fingerprint128(&mut self, text: &str) -> Result<(u64, u64)> {
        self.count_features(text, |_, _, _| {})?;
        let lo = sign(&self.sums()?);
        let hi = sign(&self.sums_of(|h| crate::hash::mix(h ^ 0xD6E8_FEB8_6659_FD93))?);
        Ok((lo, hi))
    }

    /// The fingerprint of UTF-8 bytes. Invalid UTF-8 is an [`Error::InvalidUtf8`] (never
    /// replaced silently: a wrong charset would give a wrong fingerprint).
    pub fn fingerprint_bytes(&mut self, bytes: &[u8]) -> Result<u64> {
        let text =
            std::str::from_utf8(bytes).map_err(|e| Error::InvalidUtf8 { valid_up_to: e.valid_up_to() })?;
        self.fingerprint(text)
    }

    /// Fingerprints of many texts, in order. Stops at the first text that fails, and says
    /// which one ([`Error::InDocument`]).
    pub fn fingerprint_batch<'t, I>(&mut self, texts: I) -> Result<Vec<u64>>
    where
        I: IntoIterator<Item = &'t str>,
    {
        let iter = texts.into_iter();
        let mut out = Vec::with_capacity(iter.size_hint().0);
        for (index, text) in iter.enumerate() {
            out.push(self.fingerprint(text).map_err(|e| Error::InDocument { index, error: Box::new(e) })?);
        }
        Ok(out)
    }

    /// Every step of the fingerprint of `text`: normalised text, tokens with offsets,
    /// hashes and weights, the 64 sums, and the fingerprint.
    pub fn explain(&mut self, text: &str) -> Result<Explanation> {
        let mut occurrences = Vec::new();
        self.count_features(text, |start, end, hash| occurrences.push((start, end, hash)))?;
        let sums = self.sums()?;
        let mut seen = std::collections::HashSet::new();
        let tokens = occurrences
            .into_iter()
            .map(|(start, end, hash)| {
                let tf = self.counter.get(hash);
                ExplainedToken {
                    start,
                    end,
                    hash,
                    tf,
                    weight: quantize(self.weight_of(hash, tf)) as f64 / WEIGHT_SCALE,
                    first: seen.insert(hash),
                }
            })
            .collect();
        let mut fsums = [0.0; 64];
        for (f, s) in fsums.iter_mut().zip(sums) {
            *f = s as f64 / WEIGHT_SCALE;
        }
        Ok(Explanation { normalized: self.norm.clone(), tokens, sums: fsums, fingerprint: sign(&sums) })
    }

    /// The hashes of the distinct features of `text` (for learning an [`IdfTable`]).
    pub fn feature_hashes(&mut self, text: &str) -> Result<Vec<u64>> {
        self.count_features(text, |_, _, _| {})?;
        Ok(self.counter.entries().map(|(h, _)| h).collect())
    }

    /// Normalises `text` (its visible text, when reading HTML) into `self.norm`.
    fn normalize_input(&mut self, text: &str) {
        #[cfg(feature = "html")]
        if self.html {
            let mut buf = std::mem::take(&mut self.text);
            crate::html::html_to_text_into(text, &mut buf);
            normalize_into(&buf, &self.opts.normalize, &mut self.norm);
            self.text = buf;
            return;
        }
        normalize_into(text, &self.opts.normalize, &mut self.norm);
    }

    /// Normalises `text`, cuts it into features, and counts each feature's occurrences
    /// in `self.counter`. `each(start, end, hash)` sees every occurrence, in order.
    fn count_features(&mut self, text: &str, mut each: impl FnMut(usize, usize, u64)) -> Result<()> {
        self.normalize_input(text);
        if self.norm.is_empty() {
            return Err(Error::EmptyText);
        }
        match self.opts.tokenizer {
            Tokenizer::Chars(n) => {
                let counter = &mut self.counter;
                counter.reset(self.norm.len());
                let units = for_each_char_ngram(&self.norm, n, |start, end, h| {
                    counter.add(h);
                    each(start, end, h);
                });
                if units < n {
                    return Err(Error::TextTooShort { units, needed: n, unit: "characters" });
                }
            }
            Tokenizer::Words(n) => {
                let mut shingles = word_shingles(&self.norm, n);
                let mut count = 0;
                self.counter.reset(self.norm.len() / 8);
                while let Some(sh) = shingles.next_shingle() {
                    sh.feature_into(&mut self.word);
                    let h = hash_str(&self.word);
                    self.counter.add(h);
                    each(sh.start, sh.end, h);
                    count += 1;
                }
                if count == 0 {
                    let units = self.norm.unicode_words().count();
                    return Err(Error::TextTooShort { units, needed: n, unit: "words" });
                }
            }
        }
        Ok(())
    }

    fn weight_of(&self, hash: u64, tf: u32) -> f64 {
        let w = self.opts.weighting.tf_weight(tf);
        match &self.idf {
            Some(t) => w * t.idf(hash),
            None => w,
        }
    }

    /// The 64 sums, in fixed point, from the counted features.
    fn sums(&self) -> Result<[i64; 64]> {
        self.sums_of(|h| h)
    }

    /// The 64 sums with each feature's hyperplane bits taken from `bits(hash)` (its
    /// weight still comes from the hash itself).
    #[inline(always)]
    fn sums_of(&self, bits: impl Fn(u64) -> u64) -> Result<[i64; 64]> {
        let mut acc = Accumulator::default();
        if self.idf.is_some() {
            for (h, tf) in self.counter.entries() {
                acc.add_weighted(bits(h), quantize(self.weight_of(h, tf)))?;
            }
            return Ok(acc.sums);
        }
        // Without idf, a feature's weight depends only on its tf: count bits per tf class
        // with byte counters and multiply once per class.
        // Most features occur once: class 1 gets a counter of its own, a local the compiler
        // keeps in registers, and joins the others at the end.
        let binary = self.opts.weighting == Weighting::Binary;
        let mut ones = ColumnCounter::default();
        let mut classes: [ColumnCounter; CLASSES] = Default::default();
        for (h, tf) in self.counter.entries() {
            let class = if binary { 1 } else { tf as usize };
            if class == 1 {
                ones.add(bits(h));
            } else if class < CLASSES {
                classes[class].add(bits(h));
            } else {
                acc.add_weighted(bits(h), quantize(self.opts.weighting.tf_weight(tf)))?;
            }
        }
        classes[1] = ones;
        for (class, cc) in classes.iter_mut().enumerate().skip(1) {
            if cc.n > 0 {
                cc.flush();
                acc.add_counts(&cc.counts, cc.n, quantize(self.opts.weighting.tf_weight(class as u32)))?;
            }
        }
        Ok(acc.sums)
    }
}

/// Calls `f(start, end, hash)` for every run of `n` grapheme clusters of `text` (`n` from
/// 1 to [`MAX_NGRAM`]), in order, and returns the number of clusters. The cluster starts
/// are gathered in blocks of a fixed-size buffer and each block's n-grams hashed in one
/// tight loop (the last `n` starts carry over to the next block), so memory stays
/// constant however long the text is.
pub(crate) fn for_each_char_ngram(text: &str, n: usize, mut f: impl FnMut(usize, usize, u64)) -> usize {
    const BLOCK: usize = 256;
    let bytes = text.as_bytes();
    let mut starts = [0usize; BLOCK];
    let mut len = 0; // starts in use
    let mut seen = 0usize; // starts seen in all
    let mut hash_block = |starts: &[usize]| {
        for (&s, &e) in starts.iter().zip(&starts[n..]) {
            f(s, e, hash_at(bytes, s, e - s));
        }
    };
    for_each_grapheme_start(text, |e| {
        starts[len] = e;
        len += 1;
        seen += 1;
        if len == BLOCK {
            hash_block(&starts);
            starts.copy_within(BLOCK - n.., 0);
            len = n;
        }
    });
    if len > n {
        hash_block(&starts[..len]);
    }
    seen - 1
}

/// The fingerprint of caller-supplied features, such as `[("Apache", 10.0), ("Hadoop", 15.0)]`.
///
/// Features are hashed exactly as given (no normalisation), and a feature listed twice
/// has its weights added. Weights must be finite, from 0 to [`crate::weight::MAX_WEIGHT`].
///
/// ```
/// use simhash_wasm::fingerprint::fingerprint_features;
/// let a = fingerprint_features(&[("Apache", 10.0), ("Hadoop", 15.0)]).unwrap();
/// let b = fingerprint_features(&[("Hadoop", 15.0), ("Apache", 10.0)]).unwrap();
/// assert_eq!(a, b); // order does not matter
/// ```
pub fn fingerprint_features<S: AsRef<str>>(features: &[(S, f64)]) -> Result<u64> {
    if features.is_empty() {
        return Err(Error::EmptyText);
    }
    let mut acc = Accumulator::default();
    for (i, (f, w)) in features.iter().enumerate() {
        check_weight(i, *w)?;
        acc.add_weighted(hash_str(f.as_ref()), quantize(*w))?;
    }
    Ok(sign(&acc.sums))
}

/// One feature of the teaching form: hash bits written out, and a weight.
#[derive(Clone, Debug, PartialEq)]
pub struct BitFeature {
    /// The hash bits in written order, leftmost first.
    pub bits: Vec<bool>,
    /// The weight (finite, 0 to `MAX_WEIGHT`).
    pub weight: f64,
}

/// The result of [`simhash_bits`].
#[derive(Clone, Debug, PartialEq)]
pub struct BitsSimhash {
    /// One weighted sum per column, in written order.
    pub sums: Vec<f64>,
    /// The signature: `true` where the sum is strictly positive.
    pub bits: Vec<bool>,
}

impl BitsSimhash {
    /// The signature as a string of `0` and `1`, leftmost column first.
    pub fn to_bit_string(&self) -> String {
        self.bits.iter().map(|&b| if b { '1' } else { '0' }).collect()
    }
}

/// Parses hash bits written as `"101001"`, or as ±1 entries like `"1,-1,1"` / `"(1, -1, 1)"`.
pub fn parse_bits(s: &str) -> Option<Vec<bool>> {
    let t = s.trim().trim_start_matches('(').trim_end_matches(')');
    if t.contains(',') {
        t.split(',')
            .map(|x| match x.trim() {
                "1" | "+1" => Some(true),
                "-1" | "\u{2212}1" | "0" => Some(false),
                _ => None,
            })
            .collect()
    } else if !t.is_empty() && t.chars().all(|c| c == '0' || c == '1') {
        Some(t.chars().map(|c| c == '1').collect())
    } else {
        None
    }
}

/// SimHash with hash bits given by the caller, of any width: the algorithm exactly as
/// the teaching material draws it, with the same weights, sums and sign rule as
/// [`SimHasher`].
///
/// ```
/// use simhash_wasm::fingerprint::{parse_bits, simhash_bits, BitFeature};
/// let table = [("101001", 3.0), ("101110", 4.0), ("110001", 1.0), ("101000", 3.0),
///              ("101011", 5.0), ("101100", 5.0), ("111000", 5.0)];
/// let features: Vec<_> = table.iter()
///     .map(|&(b, w)| BitFeature { bits: parse_bits(b).unwrap(), weight: w })
///     .collect();
/// let r = simhash_bits(&features).unwrap();
/// assert_eq!(r.sums, [26.0, -14.0, 24.0, -8.0, -8.0, -8.0]);
/// assert_eq!(r.to_bit_string(), "101000");
/// ```
pub fn simhash_bits(features: &[BitFeature]) -> Result<BitsSimhash> {
    let width = match features.first() {
        Some(f) => f.bits.len(),
        None => return Err(Error::EmptyText),
    };
    let mut sums = vec![0i64; width];
    let mut total: i64 = 0;
    for (i, f) in features.iter().enumerate() {
        check_weight(i, f.weight)?;
        if f.bits.len() != width || width == 0 {
            return Err(Error::InvalidBits {
                index: i,
                reason: format!("it has {} bits where the first feature has {width}", f.bits.len()),
            });
        }
        let q = quantize(f.weight);
        total = total.checked_add(q).ok_or(Error::WeightOverflow)?;
        for (s, &b) in sums.iter_mut().zip(&f.bits) {
            *s += if b { q } else { -q };
        }
    }
    Ok(BitsSimhash {
        bits: sums.iter().map(|&s| s > 0).collect(),
        sums: sums.iter().map(|&s| s as f64 / WEIGHT_SCALE).collect(),
    })
}

/// The sign step: bit `i` is 1 where `sums[i] > 0`; a sum of exactly 0 gives 0.
#[inline]
fn sign(sums: &[i64; 64]) -> u64 {
    sums.iter().enumerate().fold(0u64, |fp, (i, &s)| fp | (u64::from(s > 0) << i))
}

/// Exact fixed-point per-bit sums.
struct Accumulator {
    sums: [i64; 64],
    /// Sum of all weights so far: no |sum| can exceed it, so checking it alone rules out
    /// overflow of every column.
    total: i64,
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator { sums: [0; 64], total: 0 }
    }
}

impl Accumulator {
    #[inline]
    fn add_weighted(&mut self, h: u64, q: i64) -> Result<()> {
        self.total = self.total.checked_add(q).ok_or(Error::WeightOverflow)?;
        for (i, s) in self.sums.iter_mut().enumerate() {
            let bit = ((h >> i) & 1) as i64;
            *s += (2 * bit - 1) * q;
        }
        Ok(())
    }

    /// Adds `n` features of weight `q`, of which `counts[i]` have bit `i` set.
    fn add_counts(&mut self, counts: &[u32; 64], n: u32, q: i64) -> Result<()> {
        let w = q.checked_mul(i64::from(n)).ok_or(Error::WeightOverflow)?;
        self.total = self.total.checked_add(w).ok_or(Error::WeightOverflow)?;
        for (s, &c) in self.sums.iter_mut().zip(counts) {
            *s += q * (2 * i64::from(c) - i64::from(n));
        }
        Ok(())
    }
}

/// Number of tf classes counted with byte counters (tf 1..CLASSES-1); rarer, higher tfs
/// are added one by one.
const CLASSES: usize = 8;

/// Counts, for each of the 64 bit positions, how many added hashes have that bit set, with
/// SWAR counters in two stages:
///
/// - four words of sixteen 4-bit counters: word `m` counts bits `m, m + 4, ..., m + 60`
///   (`(h >> m) & 0x1111..11` puts each in its own nibble), so a hash costs four
///   shift-mask-adds; they are spilled every 15 hashes, before a nibble can overflow,
/// - into eight words of eight byte counters: word `q` counts bits `q, q + 8, ..., q + 56`
///   (the low nibbles of word `m` are bits `m + 8k`, its high nibbles bits `m + 4 + 8k`),
///   which go to the `u32` totals every 17 spills (255 hashes).
#[derive(Clone, Debug)]
struct ColumnCounter {
    nibbles: [u64; 4],
    bytes: [u64; 8],
    /// Hashes in `nibbles`, and spills in `bytes`.
    pending: u32,
    spills: u32,
    counts: [u32; 64],
    n: u32,
}

impl Default for ColumnCounter {
    fn default() -> Self {
        ColumnCounter { nibbles: [0; 4], bytes: [0; 8], pending: 0, spills: 0, counts: [0; 64], n: 0 }
    }
}

impl ColumnCounter {
    const NIBBLE_LOW_BITS: u64 = 0x1111_1111_1111_1111;
    const LOW_NIBBLES: u64 = 0x0F0F_0F0F_0F0F_0F0F;

    #[inline(always)]
    fn add(&mut self, h: u64) {
        for (m, acc) in self.nibbles.iter_mut().enumerate() {
            *acc += (h >> m) & Self::NIBBLE_LOW_BITS;
        }
        self.n += 1;
        self.pending += 1;
        if self.pending == 15 {
            self.spill();
        }
    }

    fn spill(&mut self) {
        for m in 0..4 {
            let w = self.nibbles[m];
            self.bytes[m] += w & Self::LOW_NIBBLES;
            self.bytes[m + 4] += (w >> 4) & Self::LOW_NIBBLES;
            self.nibbles[m] = 0;
        }
        self.pending = 0;
        self.spills += 1;
        if self.spills == 17 {
            self.flush_bytes();
        }
    }

    fn flush_bytes(&mut self) {
        for (q, acc) in self.bytes.iter_mut().enumerate() {
            for k in 0..8 {
                self.counts[8 * k + q] += ((*acc >> (8 * k)) & 0xFF) as u32;
            }
            *acc = 0;
        }
        self.spills = 0;
    }

    /// Moves everything pending into `counts`.
    fn flush(&mut self) {
        self.spill();
        self.flush_bytes();
    }
}

/// Occurrence counts of feature hashes.
///
/// The distinct features live in a dense `entries` array in first-occurrence order, which
/// the weighting step scans sequentially. Lookups go through an open-addressing table of
/// 8-byte slots (linear probing, indexed by the hash's top bits), each holding the hash's
/// low 32 bits as a tag and the entry's position plus one (0 = empty), so the table of a
/// typical page fits in L1 cache. Only the first `mask + 1` slots are in use, sized to the
/// current text; the allocation is kept between texts. The table doubles when half full.
#[derive(Clone, Debug, Default)]
struct Counter {
    table: Vec<u64>,
    entries: Vec<Entry>,
    mask: usize,
    shift: u32,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    count: u32,
}

impl Counter {
    /// Empties the table, sized for about `expected` distinct features (it grows as needed).
    fn reset(&mut self, expected: usize) {
        self.entries.clear();
        self.resize((expected.clamp(8, 1 << 16) * 2).next_power_of_two());
    }

    /// Uses (and zeroes) the first `slots` slots, a power of two.
    fn resize(&mut self, slots: usize) {
        if self.table.len() < slots {
            self.table = vec![0; slots];
        } else {
            self.table[..slots].fill(0);
        }
        self.mask = slots - 1;
        self.shift = 64 - slots.trailing_zeros();
    }

    /// Doubles the table and re-links every entry.
    #[cold]
    fn grow(&mut self) {
        self.resize((self.mask + 1) * 2);
        for (pos, e) in self.entries.iter().enumerate() {
            let mut i = (e.key >> self.shift) as usize;
            while self.table[i] != 0 {
                i = (i + 1) & self.mask;
            }
            self.table[i] = (e.key << 32) | (pos as u64 + 1);
        }
    }

    #[inline(always)]
    fn add(&mut self, h: u64) {
        if self.entries.len() * 2 > self.mask {
            self.grow();
        }
        let tag = h << 32;
        let mut i = (h >> self.shift) as usize;
        loop {
            let v = self.table[i];
            if v == 0 {
                self.entries.push(Entry { key: h, count: 1 });
                self.table[i] = tag | self.entries.len() as u64;
                return;
            }
            if v & 0xFFFF_FFFF_0000_0000 == tag {
                let e = &mut self.entries[(v as u32 - 1) as usize];
                if e.key == h {
                    e.count = e.count.saturating_add(1);
                    return;
                }
            }
            i = (i + 1) & self.mask;
        }
    }

    fn get(&self, h: u64) -> u32 {
        let tag = h << 32;
        let mut i = (h >> self.shift) as usize;
        loop {
            let v = self.table[i];
            if v == 0 {
                return 0;
            }
            if v & 0xFFFF_FFFF_0000_0000 == tag {
                let e = &self.entries[(v as u32 - 1) as usize];
                if e.key == h {
                    return e.count;
                }
            }
            i = (i + 1) & self.mask;
        }
    }

    /// `(hash, tf)` of every distinct feature, in first-occurrence order.
    fn entries(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        self.entries.iter().map(|e| (e.key, e.count))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_input_needs_the_html_feature() {
        let mut h = SimHasher::new(Options::default()).unwrap();
        let r = h.set_html(true);
        if cfg!(feature = "html") {
            assert!(r.is_ok() && h.html());
        } else {
            let e = r.unwrap_err();
            assert_eq!(e.code(), "FeatureDisabled");
            assert!(e.to_string().contains("simhash-wasm/full"), "{e}");
            assert!(!h.html(), "a refused set_html leaves the hasher as it was");
        }
    }

    /// The SWAR stages never overflow and land every bit in its column: all-ones hashes
    /// (every counter at its maximum between spills), single bits, and a reference count.
    #[test]
    fn column_counter_counts_every_bit() {
        for total in [0u32, 1, 14, 15, 16, 254, 255, 256, 1000, 4097] {
            let mut c = ColumnCounter::default();
            for _ in 0..total {
                c.add(u64::MAX);
            }
            c.flush();
            assert_eq!((c.n, c.counts), (total, [total; 64]), "{total} all-ones hashes");
        }
        let mut c = ColumnCounter::default();
        let mut want = [0u32; 64];
        let mut rng = crate::test_rng::Rng(0x243F_6A88_85A3_08D3);
        for i in 0..3000u32 {
            let x = rng.next();
            let h = if i % 7 == 0 { 1 << (i % 64) } else { x };
            for (b, w) in want.iter_mut().enumerate() {
                *w += (h >> b & 1) as u32;
            }
            c.add(h);
        }
        c.flush();
        assert_eq!(c.counts, want);
    }
}
