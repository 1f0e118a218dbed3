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
//!
//! # The parts
//!
//! | file | what it holds |
//! | --- | --- |
//! | `mod.rs` | [`SimHasher`]: normalise, cut into features, count, weigh, sum, sign |
//! | `options.rs` | [`Options`] and [`Tokenizer`], their defaults and their names |
//! | `explain.rs` | [`SimHasher::explain`] and what it returns |
//! | `learn.rs` | [`IdfTable::learn`](crate::IdfTable::learn): an IDF table from texts, cut as the hasher cuts them |
//! | `features.rs` | fingerprints of supplied features, and the teaching form with written-out bits |
//! | `accumulate.rs` | the exact per-bit sums, the SWAR column counter, the sign step |
//! | `counter.rs` | the tf counter of one text's feature hashes |

mod accumulate;
mod counter;
mod explain;
mod features;
mod learn;
mod options;

pub use explain::{ExplainedToken, Explanation};
pub use features::{fingerprint_features, parse_bits, simhash_bits, BitFeature, BitsSimhash};
pub use options::{Options, Tokenizer, MAX_NGRAM};

use std::sync::Arc;

use unicode_segmentation::UnicodeSegmentation;

use crate::error::{Error, Result};
use crate::hash::hash_str;
use crate::normalize::normalize_into;
use crate::scan::{Shingles, SHINGLE};
use crate::sketch::{Sketch, SketchBuilder, SketchScheme};
use crate::tokenize::{for_each_char_ngram_pair, word_shingles, OnGram};
use crate::weight::{quantize, IdfTable, Weighting};
use accumulate::{sign, Accumulator, ColumnCounter, CLASSES};
use counter::Counter;

/// Computes fingerprints with fixed [`Options`], reusing its buffers between texts.
///
/// A `SimHasher` is cheap to keep and not meant to be shared between threads at once;
/// make one per thread.
#[derive(Clone, Debug)]
pub struct SimHasher {
    opts: Options,
    idf: Option<Arc<IdfTable>>,
    html: bool,
    /// Which text of an HTML input is read (with `html`).
    #[cfg(feature = "html")]
    content: crate::html::Content,
    /// The visible text of the last HTML input (a reused buffer).
    #[cfg(feature = "html")]
    text: String,
    norm: String,
    word: String,
    counter: Counter,
    hashes: Vec<u64>,
    /// The features of tf >= 2 of the current text, `(tf, hash)` (a reused buffer of
    /// [`sums_of`](Self::sums_of)).
    repeats: Vec<(u32, u64)>,
    /// Shingles of the current text for [`sketch`](Self::sketch), when one is asked for.
    shingles: Shingles,
    sketcher: SketchBuilder,
}

impl SimHasher {
    /// The name of the hasher's HTML setting ([`set_html`](Self::set_html)) in an option
    /// object; the configs that make a hasher (content-seen, dedup) take it too.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub(crate) const HTML: &'static str = "html";
    /// The name of the hasher's IDF table ([`with_idf`](Self::with_idf)) in an option object.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub(crate) const IDF: &'static str = "idf";
    /// The name of the hasher's content setting (`set_content`: which text of an HTML
    /// input is read, `"main"` or `"all"`) in an option object.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub(crate) const CONTENT: &'static str = "content";
    /// The hasher's settings besides the fingerprint scheme's [`Options::NAMES`].
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub(crate) const NAMES: [&'static str; 3] = [SimHasher::HTML, SimHasher::CONTENT, SimHasher::IDF];

    /// A hasher for `opts`, or an error naming the bad option.
    pub fn new(opts: Options) -> Result<SimHasher> {
        opts.validate()?;
        Ok(SimHasher {
            opts,
            idf: None,
            html: false,
            #[cfg(feature = "html")]
            content: crate::html::Content::All,
            #[cfg(feature = "html")]
            text: String::new(),
            norm: String::new(),
            word: String::new(),
            counter: Counter::default(),
            hashes: Vec::new(),
            repeats: Vec::new(),
            shingles: Shingles::default(),
            sketcher: SketchBuilder::default(),
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

    /// Which text of an HTML input is fingerprinted: all the visible text (the default)
    /// or the main content ([`crate::html::main_content`]). Like `html`, not part of the
    /// fingerprint scheme.
    #[cfg(feature = "html")]
    pub fn set_content(&mut self, content: crate::html::Content) {
        self.content = content;
    }

    /// Which text of an HTML input is read (see [`set_content`](Self::set_content)).
    #[cfg(feature = "html")]
    pub fn content(&self) -> crate::html::Content {
        self.content
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
        self.count_features(text, None)?;
        let sums = self.sums()?;
        Ok(sign(&sums))
    }

    /// The similarity sketch of `text` ([`crate::sketch`]): its shingles are runs of
    /// [`SHINGLE`] clusters of the text normalised as for the fingerprint. A text of
    /// fewer clusters is one shingle, so only an empty one is an error
    /// ([`Error::EmptyText`]).
    pub fn sketch(&mut self, text: &str, scheme: SketchScheme) -> Result<Sketch> {
        self.normalize_input(text);
        if self.norm.is_empty() {
            return Err(Error::EmptyText);
        }
        self.shingles.scan(&self.norm);
        Ok(self.sketcher.finish_collected(scheme, &mut self.shingles))
    }

    /// The fingerprint and the sketch of `text` from one normalisation and one scan of its
    /// grapheme clusters: the same values as [`fingerprint`](Self::fingerprint) and
    /// [`sketch`](Self::sketch), at less than their summed cost.
    pub fn fingerprint_and_sketch(&mut self, text: &str, scheme: SketchScheme) -> Result<(u64, Sketch)> {
        self.count_features_and(text, None, true)?;
        let sums = self.sums()?;
        Ok((sign(&sums), self.sketcher.finish_collected(scheme, &mut self.shingles)))
    }

    /// The sketch of [`fingerprint_and_sketch`](Self::fingerprint_and_sketch), and its
    /// error for a text that has no fingerprint, without making the fingerprint: for a
    /// caller that needs the sketch of every document and the fingerprints of few (a
    /// dedup verified by sketches). With character n-grams and no IDF table the only
    /// errors are an empty text and one of fewer clusters than an n-gram, both known from
    /// the sketch's own scan (the weights cannot overflow: at most `tf` each, 2^16 in fixed
    /// point, over fewer than 2^32 n-grams); otherwise both are made and the fingerprint
    /// is dropped.
    #[cfg_attr(not(all(target_arch = "wasm32", feature = "crawler")), allow(dead_code))]
    pub(crate) fn sketch_where_fingerprinted(&mut self, text: &str, scheme: SketchScheme) -> Result<Sketch> {
        match self.opts.tokenizer {
            Tokenizer::Chars(n) if self.idf.is_none() => {
                self.normalize_input(text);
                if self.norm.is_empty() {
                    return Err(Error::EmptyText);
                }
                let units = self.shingles.scan(&self.norm);
                if units < n {
                    return Err(Error::TextTooShort { units, needed: n, unit: "characters" });
                }
                Ok(self.sketcher.finish_collected(scheme, &mut self.shingles))
            }
            _ => self.fingerprint_and_sketch(text, scheme).map(|(_, sketch)| sketch),
        }
    }

    /// A 128-bit fingerprint: the 64-bit one, and 64 more bits from the same features
    /// with their hashes re-mixed (`mix(h ^ 0xD6E8FEB86659FD93)`), i.e. a second
    /// independent set of 64 hyperplanes. Halves the variance of the distance estimate;
    /// `npm run quality -- --wide` measures what that buys. Not yet a stable scheme.
    #[doc(hidden)]
    pub fn fingerprint128(&mut self, text: &str) -> Result<(u64, u64)> {
        self.count_features(text, None)?;
        let lo = sign(&self.sums()?);
        let hi = sign(&self.sums_of(|h| crate::hash::mix(h ^ 0xD6E8_FEB8_6659_FD93))?);
        Ok((lo, hi))
    }

    /// The fingerprint of UTF-8 bytes. Invalid UTF-8 is an [`Error::InvalidUtf8`] (never
    /// replaced silently: a wrong charset would give a wrong fingerprint).
    pub fn fingerprint_bytes(&mut self, bytes: &[u8]) -> Result<u64> {
        self.fingerprint(crate::error::utf8(bytes)?)
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

    /// The outcome of every text, in order, going on past failures: what a worker of the
    /// package's pool returns for its share of a batch (see `pkg-template/web/pool.js`).
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub(crate) fn fingerprint_each<'t, I>(&mut self, texts: I) -> Vec<Result<u64>>
    where
        I: IntoIterator<Item = &'t str>,
    {
        texts.into_iter().map(|text| self.fingerprint(text)).collect()
    }

    /// [`fingerprint_each`](Self::fingerprint_each) with each text's sketch too
    /// ([`fingerprint_and_sketch`](Self::fingerprint_and_sketch)): a pool worker's share
    /// of a dedup verified by sketches.
    #[cfg_attr(not(all(target_arch = "wasm32", feature = "crawler")), allow(dead_code))]
    pub(crate) fn fingerprint_and_sketch_each<'t, I>(
        &mut self,
        texts: I,
        scheme: SketchScheme,
    ) -> Vec<Result<(u64, Sketch)>>
    where
        I: IntoIterator<Item = &'t str>,
    {
        texts.into_iter().map(|text| self.fingerprint_and_sketch(text, scheme)).collect()
    }

    /// [`sketch_where_fingerprinted`](Self::sketch_where_fingerprinted) of each text: the
    /// first pass of a dedup verified by sketches, over texts (`__sketchEach`, which
    /// `scripts/bench-hash-split-wasm.mjs` times).
    #[cfg_attr(not(all(target_arch = "wasm32", feature = "crawler")), allow(dead_code))]
    pub(crate) fn sketch_where_fingerprinted_each<'t, I>(
        &mut self,
        texts: I,
        scheme: SketchScheme,
    ) -> Vec<Result<Sketch>>
    where
        I: IntoIterator<Item = &'t str>,
    {
        texts.into_iter().map(|text| self.sketch_where_fingerprinted(text, scheme)).collect()
    }

    /// The hashes of the distinct features of `text` (for learning an [`IdfTable`]).
    pub fn feature_hashes(&mut self, text: &str) -> Result<Vec<u64>> {
        self.count_features(text, None)?;
        Ok(self.counter.entries().map(|(h, _)| h).collect())
    }

    /// Normalises `text` (its visible text, when reading HTML) into `self.norm`.
    fn normalize_input(&mut self, text: &str) {
        #[cfg(feature = "html")]
        if self.html {
            let mut buf = std::mem::take(&mut self.text);
            match self.content {
                crate::html::Content::All => crate::html::html_to_text_into(text, &mut buf),
                crate::html::Content::Main => buf = crate::html::main_content(text),
            }
            normalize_into(&buf, &self.opts.normalize, &mut self.norm);
            self.text = buf;
            return;
        }
        normalize_into(text, &self.opts.normalize, &mut self.norm);
    }

    /// Normalises `text`, cuts it into features, and counts each feature's occurrences
    /// in `self.counter`. `each(start, end, hash)`, if given, sees every occurrence, in order.
    fn count_features(&mut self, text: &str, each: Option<&mut dyn FnMut(usize, usize, u64)>) -> Result<()> {
        self.count_features_and(text, each, false)
    }

    /// [`count_features`](Self::count_features), and when `sketch` is true, the sketch's
    /// shingles into `self.sketcher` from the same normalisation and the same scan.
    ///
    /// Not generic (`each` is a trait object, looked at once per feature): one copy of the
    /// whole pipeline serves every caller, which keeps the browser build small.
    fn count_features_and(
        &mut self,
        text: &str,
        mut each: Option<&mut dyn FnMut(usize, usize, u64)>,
        sketch: bool,
    ) -> Result<()> {
        self.normalize_input(text);
        if self.norm.is_empty() {
            return Err(Error::EmptyText);
        }
        self.shingles.clear();
        match self.opts.tokenizer {
            Tokenizer::Chars(n) => {
                // The n-grams' hashes are gathered first and counted after, in a loop of
                // their own: a callback that only stores a hash is inlined into the
                // tokenizer's loops, where one that counts would be a call per feature, and
                // in wasm a call costs more than natively (docs/decisions/021-hot-loop-at-opt-level-3.md).
                // Room for every n-gram (there are fewer than bytes), stored by index: no
                // `Vec::push`, whose growth check opt-level "z" leaves as a call. Only the
                // first `count` are read, so the room is not cleared between texts.
                let mut hashes = std::mem::take(&mut self.hashes);
                if hashes.len() < self.norm.len() {
                    hashes.resize(self.norm.len(), 0);
                }
                let shingles = &mut self.shingles.hashes;
                let second = sketch.then_some((SHINGLE, |h| shingles.push(h)));
                let mut store = GramSink { hashes: &mut hashes, count: 0, each };
                let units = for_each_char_ngram_pair(&self.norm, n, &mut store, second);
                let count = store.count;
                self.counter.reset(self.norm.len());
                for &h in &hashes[..count] {
                    self.counter.add(h);
                }
                self.hashes = hashes;
                if sketch {
                    self.shingles.short_text(&self.norm, units);
                }
                if units < n {
                    return Err(Error::TextTooShort { units, needed: n, unit: "characters" });
                }
            }
            Tokenizer::Words(n) => {
                if sketch {
                    self.shingles.scan(&self.norm);
                }
                let mut shingles = word_shingles(&self.norm, n);
                let mut count = 0;
                self.counter.reset(self.norm.len() / 8);
                while let Some(sh) = shingles.next_shingle() {
                    sh.feature_into(&mut self.word);
                    let h = hash_str(&self.word);
                    self.counter.add(h);
                    if let Some(each) = each.as_mut() {
                        each(sh.start, sh.end, h);
                    }
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
    fn sums(&mut self) -> Result<[i64; 64]> {
        self.sums_of(|h| h)
    }

    /// The 64 sums with each feature's hyperplane bits taken from `bits(hash)` (its
    /// weight still comes from the hash itself).
    #[inline(always)]
    fn sums_of(&mut self, bits: impl Fn(u64) -> u64) -> Result<[i64; 64]> {
        let mut acc = Accumulator::default();
        if self.idf.is_some() {
            for (h, tf) in self.counter.entries() {
                acc.add_weighted(bits(h), quantize(self.weight_of(h, tf)))?;
            }
            return Ok(acc.sums);
        }
        // Without idf, a feature's weight depends only on its tf: count bits per tf class
        // with column counters and multiply once per class. Every distinct feature is
        // counted with weight q(1) by one counter (fifteen at a time in registers, with no
        // branch per feature); a feature of tf >= 2 then adds q(tf) - q(1): by a counter
        // per tf below CLASSES, one by one above (its weight remembered per tf below 64,
        // one logarithm per tf). The sums are exact integers, so they equal those of adding
        // q(tf) per feature.
        let q = |tf: u32| quantize(self.opts.weighting.tf_weight(tf));
        let q1 = q(1);
        let mut all = ColumnCounter::default();
        all.add_all(self.counter.entries().map(|(h, _)| bits(h)));
        let mut classes: [ColumnCounter; CLASSES] = Default::default();
        if self.opts.weighting != Weighting::Binary {
            // The features of tf >= 2, gathered with no branch: each is written, and kept by
            // moving on past it.
            // Room for every feature, reused from text to text; only the first `r` are read.
            let mut room = std::mem::take(&mut self.repeats);
            if room.len() < self.counter.len() {
                room.resize(self.counter.len(), (0, 0));
            }
            // A slice: opt-level "z" (the browser build) leaves `Vec`'s `IndexMut` a call.
            let repeats = room.as_mut_slice();
            let mut r = 0;
            for (h, tf) in self.counter.entries() {
                repeats[r] = (tf, h);
                r += usize::from(tf >= 2);
            }
            let mut heavy = [0i64; 64];
            for &(tf, h) in &repeats[..r] {
                let class = tf as usize;
                if class < CLASSES {
                    classes[class].add(bits(h));
                    continue;
                }
                // 0 marks a weight not computed yet (q(tf) > q(1) for tf >= 2).
                let weight = match heavy.get_mut(class) {
                    Some(w) if *w != 0 => *w,
                    Some(w) => {
                        *w = q(tf) - q1;
                        *w
                    }
                    None => q(tf) - q1,
                };
                acc.add_weighted(bits(h), weight)?;
            }
            self.repeats = room;
        }
        all.flush();
        acc.add_counts(&all.counts, all.n, q1)?;
        for (class, cc) in classes.iter_mut().enumerate().skip(2) {
            if cc.n > 0 {
                cc.flush();
                acc.add_counts(&cc.counts, cc.n, q(class as u32) - q1)?;
            }
        }
        Ok(acc.sums)
    }
}

/// Stores each n-gram's hash by index (the n-grams of a text are fewer than its bytes,
/// so `hashes` has room for all) and shows it to `each`, if any: the n-gram callback of
/// [`SimHasher::count_features_and`].
struct GramSink<'a, 'e> {
    hashes: &'a mut [u64],
    count: usize,
    each: Option<&'e mut dyn FnMut(usize, usize, u64)>,
}

impl OnGram for &mut GramSink<'_, '_> {
    #[inline(always)]
    fn gram(&mut self, start: usize, end: usize, hash: u64) {
        self.hashes[self.count] = hash;
        self.count += 1;
        if let Some(each) = self.each.as_mut() {
            each(start, end, hash);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprint_each_goes_on_past_failures_and_agrees_with_fingerprint() {
        let mut h = SimHasher::new(Options::default()).unwrap();
        let texts = ["The cat sat on the mat.", "", "ab", "We all scream for ice cream!"];
        let each = h.fingerprint_each(texts);
        assert_eq!(each.len(), 4);
        for (t, r) in texts.iter().zip(&each) {
            assert_eq!(r, &h.fingerprint(t), "{t:?}");
        }
        assert_eq!(each[1].as_ref().unwrap_err().code(), "EmptyText");
        assert_eq!(each[2].as_ref().unwrap_err().code(), "TextTooShort");
        assert!(each[0].is_ok() && each[3].is_ok());
    }

    /// The sketch made without the fingerprint is the fused pass's sketch, and fails where
    /// the fused pass fails, with the same error, for every tokenizer, n, IDF table and
    /// HTML setting: texts empty, blank, of fewer clusters than an n-gram (combining marks
    /// and emoji sequences among them), of exactly as many, CJK and longer.
    #[test]
    fn the_sketch_where_fingerprinted_meets_the_fused_pass() {
        let texts = [
            "",
            " \t ",
            "ab",
            "abcde",
            "abcdef",
            "e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}",
            "e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}",
            "👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧",
            "上海上港赛季",
            "亚冠",
            "The cat sat on the mat.",
            "one two",
            "one two three four five six seven",
            "<p>hi</p>",
            "<html><body><p>The quick brown fox jumps over the lazy dog.</p></body></html>",
        ];
        let scheme = SketchScheme::default();
        let idf = Arc::new(
            IdfTable::learn(&mut SimHasher::new(Options::default()).unwrap(), texts[10..13].iter().copied())
                .unwrap(),
        );
        let mut checked = 0;
        for tokenizer in [Tokenizer::Chars(6), Tokenizer::Chars(2), Tokenizer::Chars(9), Tokenizer::Words(3)]
        {
            for with_idf in [false, true] {
                for html in [false, true] {
                    let opts = Options { tokenizer, ..Options::default() };
                    let make = || match with_idf {
                        true => SimHasher::with_idf(opts, idf.clone()),
                        false => SimHasher::new(opts),
                    };
                    let (mut a, mut b) = (make().unwrap(), make().unwrap());
                    if a.set_html(html).is_err() {
                        continue;
                    }
                    b.set_html(html).unwrap();
                    for t in texts {
                        let want = a.fingerprint_and_sketch(t, scheme).map(|(_, sk)| sk);
                        assert_eq!(
                            b.sketch_where_fingerprinted(t, scheme),
                            want,
                            "{tokenizer:?} idf {with_idf} html {html}: {t:?}"
                        );
                        checked += 1;
                    }
                    let each = b.sketch_where_fingerprinted_each(texts, scheme);
                    let fused = a.fingerprint_and_sketch_each(texts, scheme);
                    assert_eq!(each, fused.into_iter().map(|r| r.map(|x| x.1)).collect::<Vec<_>>());
                }
            }
        }
        assert!(checked >= 8 * texts.len(), "{checked}");
    }

    #[test]
    fn html_input_needs_the_html_feature() {
        let mut h = SimHasher::new(Options::default()).unwrap();
        let r = h.set_html(true);
        if cfg!(feature = "html") {
            assert!(r.is_ok() && h.html());
        } else {
            let e = r.unwrap_err();
            assert_eq!(e.code(), "FeatureDisabled");
            assert!(e.to_string().contains("Cargo feature `html`"), "{e}");
            assert!(!h.html(), "a refused set_html leaves the hasher as it was");
        }
    }
}
