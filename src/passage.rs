//! Passage-level fingerprints: which parts of a submission match which parts of a set of
//! reference texts (partial duplicates, the plagiarism checker's question).
//!
//! A whole-document fingerprint says whether two texts are near-duplicates as a whole; a
//! text that copies two paragraphs out of twenty is not. So each text is cut into
//! passages ([`split`]): paragraphs (blank-line separated) or sliding windows of
//! sentences. Each passage is fingerprinted with the usual [`SimHasher`], reference
//! passages go into a multi-table [`Index`], and every submission passage is looked up.
//!
//! **The matching rule (verification-free):** a submission passage and a reference
//! passage match when the Hamming distance of their fingerprints is at most `k`. Nothing
//! re-reads the texts to confirm a match, so the index's answer is the result. The index
//! is exact, so every pair within `k` is found. Passages with fewer than
//! [`PassageOptions::min_chars`] non-space characters get no fingerprint and never match:
//! a fingerprint of a few words is noise.
//!
//! Offsets are given in bytes (for Rust) and in UTF-16 code units (for JavaScript strings),
//! always into the text as given (not the normalised text).
//!
//! ```
//! use simhash_wasm::passage::{PassageChecker, PassageOptions};
//! let mut checker = PassageChecker::new(PassageOptions::default())?;
//! let reference = "The first paragraph says something about cats and mats and hats.\n\n\
//!                  The second paragraph is about something else entirely, like dogs.";
//! checker.add_reference(reference)?;
//! let report = checker.check("Intro of my own that nobody else wrote, I promise.\n\n\
//!                             The second paragraph is about something else entirely, like dogs.")?;
//! assert_eq!(report.references[0].matches.len(), 1);
//! assert_eq!(report.references[0].matches[0].submission, 1);
//! assert_eq!(report.references[0].matches[0].reference, 1);
//! # Ok::<(), simhash_wasm::Error>(())
//! ```

use crate::error::{Error, Result};
use crate::fingerprint::{Options, SimHasher};
use crate::index::{Index, Layout};

/// How a text is cut into passages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// Paragraphs: runs of text separated by one or more blank lines (lines holding only
    /// whitespace). Surrounding whitespace is not part of a paragraph.
    Paragraphs,
    /// Sliding windows of `window` consecutive sentences, starting every `step` sentences.
    /// A sentence ends after `.`, `!`, `?` or `…` followed by whitespace, after `。`,
    /// `！`, `？` (with any closing quotes or brackets), or at a blank line. A text with
    /// fewer sentences than `window` is one window; the last window always reaches the
    /// last sentence.
    Sentences {
        /// Sentences per window (at least 1).
        window: usize,
        /// Sentences between window starts (at least 1).
        step: usize,
    },
}

impl Split {
    /// Sentences per window when `split: "sentences"` does not say (3).
    pub const DEFAULT_WINDOW: usize = 3;
    /// Sentences between window starts when `split: "sentences"` does not say (1).
    pub const DEFAULT_STEP: usize = 1;

    /// `"paragraphs"` or `"sentences"`.
    pub fn name(self) -> &'static str {
        match self {
            Split::Paragraphs => "paragraphs",
            Split::Sentences { .. } => "sentences",
        }
    }

    /// The split by name (`None`: paragraphs); `window` and `step` (defaults
    /// [`Split::DEFAULT_WINDOW`], [`Split::DEFAULT_STEP`]) apply to `"sentences"` only.
    pub fn from_name(name: Option<&str>, window: Option<usize>, step: Option<usize>) -> Result<Split> {
        match name {
            None | Some("paragraphs") => Ok(Split::Paragraphs),
            Some("sentences") => Ok(Split::Sentences {
                window: window.unwrap_or(Split::DEFAULT_WINDOW),
                step: step.unwrap_or(Split::DEFAULT_STEP),
            }),
            Some(other) => {
                Err(Error::option("split", crate::error::quoted(other), "\"paragraphs\" or \"sentences\""))
            }
        }
    }
}

/// Options for passage matching.
#[derive(Clone, Debug, PartialEq)]
pub struct PassageOptions {
    /// How texts are cut into passages. Default: paragraphs.
    pub split: Split,
    /// Passages match when their fingerprints differ in at most `k` bits. Default 3.
    pub k: u32,
    /// Passages with fewer non-whitespace characters get no fingerprint. Default 40.
    pub min_chars: usize,
    /// The fingerprint options for passages and whole documents.
    pub fingerprint: Options,
}

impl Default for PassageOptions {
    fn default() -> Self {
        PassageOptions {
            split: Split::Paragraphs,
            k: PassageOptions::DEFAULT_K,
            min_chars: PassageOptions::DEFAULT_MIN_CHARS,
            fingerprint: Options::default(),
        }
    }
}

/// The passage options by name, as the JS API gives them ([`PassageOptions::NAMES`]);
/// `None` is the default. Counts are JS numbers, checked to be whole and not negative.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PassageNames<'a> {
    /// `split`: `"paragraphs"` or `"sentences"`.
    pub split: Option<&'a str>,
    /// `window`: sentences per window.
    pub window: Option<f64>,
    /// `step`: sentences between window starts.
    pub step: Option<f64>,
    /// `k`.
    pub k: Option<f64>,
    /// `minChars`.
    pub min_chars: Option<f64>,
}

/// A count option: a whole number from 0 to 10^9.
fn count(option: &'static str, x: Option<f64>) -> Result<Option<usize>> {
    match x {
        None => Ok(None),
        Some(x) if x >= 0.0 && x.fract() == 0.0 && x <= 1e9 => Ok(Some(x as usize)),
        Some(x) => Err(Error::option(option, crate::error::number(x), "a non-negative whole number")),
    }
}

/// Largest `k` accepted: beyond it nearly every pair of short passages would match.
pub const MAX_K: u32 = 24;

impl PassageOptions {
    /// The default `k`.
    pub const DEFAULT_K: u32 = 3;
    /// The default `min_chars`.
    pub const DEFAULT_MIN_CHARS: usize = 40;
    /// The option names as the JS API spells them; `hasher` holds the fingerprint options
    /// ([`Options::NAMES`]).
    pub const NAMES: [&'static str; 6] = ["split", "window", "step", "k", "minChars", "hasher"];

    /// Options from their names and JS values ([`PassageNames`]), with the fingerprint
    /// options given as [`Options`]; the result is validated.
    ///
    /// ```
    /// use simhash_wasm::passage::{PassageNames, PassageOptions, Split};
    /// use simhash_wasm::Options;
    /// let names = PassageNames { split: Some("sentences"), step: Some(2.0), ..Default::default() };
    /// let o = PassageOptions::from_names(&names, Options::default())?;
    /// assert_eq!(o.split, Split::Sentences { window: 3, step: 2 });
    /// assert_eq!((o.k, o.min_chars), (3, 40));
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn from_names(names: &PassageNames<'_>, fingerprint: Options) -> Result<PassageOptions> {
        let window = count("window", names.window)?;
        let step = count("step", names.step)?;
        let d = PassageOptions::default();
        let o = PassageOptions {
            split: Split::from_name(names.split, window, step)?,
            k: count("k", names.k)?.map_or(d.k, |k| u32::try_from(k).unwrap_or(u32::MAX)),
            min_chars: count("minChars", names.min_chars)?.unwrap_or(d.min_chars),
            fingerprint,
        };
        o.validate()?;
        Ok(o)
    }

    /// Checks the options, naming the one that is out of range.
    pub fn validate(&self) -> Result<()> {
        if self.k > MAX_K {
            return Err(Error::option("k", self.k, format!("0 to {MAX_K} bits")));
        }
        if let Split::Sentences { window, step } = self.split {
            if window == 0 {
                return Err(Error::option("window", window, "at least 1 sentence"));
            }
            if step == 0 {
                return Err(Error::option("step", step, "at least 1 sentence"));
            }
        }
        self.fingerprint.validate()
    }
}

/// A range of a text, in bytes and in UTF-16 code units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    /// Byte offset of the first byte.
    pub start: usize,
    /// Byte offset just past the end.
    pub end: usize,
    /// UTF-16 offset of the start (a JavaScript string index).
    pub start_utf16: usize,
    /// UTF-16 offset just past the end.
    pub end_utf16: usize,
}

/// One passage of a text, with its fingerprint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Passage {
    /// Where it is in the text.
    pub span: Span,
    /// Its fingerprint, or `None` when it is shorter than [`PassageOptions::min_chars`] or
    /// has no features.
    pub fingerprint: Option<u64>,
}

fn is_blank_line(line: &str) -> bool {
    line.chars().all(char::is_whitespace)
}

/// Byte ranges of the paragraphs of `text`, trimmed.
fn paragraph_ranges(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut last_end = 0;
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        let line_start = pos;
        pos += line.len();
        if is_blank_line(line) {
            if let Some(s) = start.take() {
                out.push((s, last_end));
            }
        } else {
            if start.is_none() {
                start = Some(line_start);
            }
            last_end = pos;
        }
    }
    if let Some(s) = start {
        out.push((s, last_end));
    }
    out.into_iter().filter_map(|(s, e)| trim_range(text, s, e)).collect()
}

/// `(s, e)` narrowed to exclude surrounding whitespace; `None` when nothing remains.
fn trim_range(text: &str, s: usize, e: usize) -> Option<(usize, usize)> {
    let piece = text.get(s..e)?;
    let lead = piece.len() - piece.trim_start().len();
    let trimmed = piece.trim();
    if trimmed.is_empty() {
        None
    } else {
        Some((s + lead, s + lead + trimmed.len()))
    }
}

fn is_closer(c: char) -> bool {
    matches!(c, '"' | '\'' | ')' | ']' | '”' | '’' | '」' | '』' | '）' | '》' | '】')
}

/// Byte ranges of the sentences of `text`, trimmed.
fn sentence_ranges(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (ps, pe) in paragraph_ranges(text) {
        let para = &text[ps..pe];
        let chars: Vec<(usize, char)> = para.char_indices().collect();
        let mut start = 0;
        let mut i = 0;
        while i < chars.len() {
            let (_, c) = chars[i];
            let wide = matches!(c, '。' | '！' | '？');
            let narrow = matches!(c, '.' | '!' | '?' | '…');
            if wide || narrow {
                // Take the whole run of terminators and closing quotes.
                let mut j = i + 1;
                while j < chars.len()
                    && (matches!(chars[j].1, '.' | '!' | '?' | '…' | '。' | '！' | '？')
                        || is_closer(chars[j].1))
                {
                    j += 1;
                }
                let at_end = j >= chars.len();
                if wide || at_end || chars[j].1.is_whitespace() {
                    let end = if at_end { para.len() } else { chars[j].0 };
                    if let Some(r) = trim_range(text, ps + start, ps + end) {
                        out.push(r);
                    }
                    start = end;
                }
                i = j;
            } else {
                i += 1;
            }
        }
        if let Some(r) = trim_range(text, ps + start, pe) {
            out.push(r);
        }
    }
    out
}

/// Cuts `text` into passage byte ranges `(start, end)`, in text order.
///
/// ```
/// use simhash_wasm::passage::{split, Split};
/// let t = "One. Two! Three?\n\nFour。五。";
/// assert_eq!(split(t, Split::Paragraphs).len(), 2);
/// let w = split(t, Split::Sentences { window: 2, step: 1 });
/// let texts: Vec<&str> = w.iter().map(|&(s, e)| &t[s..e]).collect();
/// assert_eq!(texts, ["One. Two!", "Two! Three?", "Three?\n\nFour。", "Four。五。"]);
/// ```
pub fn split(text: &str, how: Split) -> Vec<(usize, usize)> {
    match how {
        Split::Paragraphs => paragraph_ranges(text),
        Split::Sentences { window, step } => {
            let s = sentence_ranges(text);
            let (window, step) = (window.max(1), step.max(1));
            if s.is_empty() {
                return Vec::new();
            }
            if s.len() <= window {
                return vec![(s[0].0, s[s.len() - 1].1)];
            }
            let mut out = Vec::new();
            let mut i = 0;
            loop {
                let last = (i + window).min(s.len()) - 1;
                out.push((s[i].0, s[last].1));
                if last == s.len() - 1 {
                    break;
                }
                i += step;
                if i + window > s.len() {
                    // The last window ends at the last sentence.
                    i = s.len() - window;
                }
            }
            out
        }
    }
}

/// Adds UTF-16 offsets to byte ranges that are sorted by start.
fn to_spans(text: &str, ranges: &[(usize, usize)]) -> Vec<Span> {
    // Every byte offset we need, sorted, then one pass over the text.
    let mut wanted: Vec<usize> = ranges.iter().flat_map(|&(s, e)| [s, e]).collect();
    crate::sort::sort(&mut wanted);
    wanted.dedup();
    let mut map = Vec::with_capacity(wanted.len());
    let mut units = 0;
    let mut next = 0;
    for (b, c) in text.char_indices().chain(std::iter::once((text.len(), '\0'))) {
        while next < wanted.len() && wanted[next] <= b {
            map.push((wanted[next], units));
            next += 1;
        }
        units += c.len_utf16();
    }
    let lookup = |b: usize| map.binary_search_by_key(&b, |&(k, _)| k).map_or(0, |i| map[i].1);
    ranges
        .iter()
        .map(|&(s, e)| Span { start: s, end: e, start_utf16: lookup(s), end_utf16: lookup(e) })
        .collect()
}

/// A reference document added to a [`PassageChecker`].
#[derive(Clone, Debug)]
struct Reference {
    fingerprint: Option<u64>,
    passages: Vec<Passage>,
}

/// A matching pair of passages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassageMatch {
    /// Index of the passage in [`Report::passages`] (the submission's passages).
    pub submission: usize,
    /// Index of the passage in the reference's passages ([`PassageChecker::passages`]).
    pub reference: usize,
    /// Where the submission passage is.
    pub submission_span: Span,
    /// Where the reference passage is.
    pub reference_span: Span,
    /// Hamming distance of the two passage fingerprints (≤ k).
    pub distance: u32,
}

/// What one reference shares with the submission.
#[derive(Clone, Debug, PartialEq)]
pub struct ReferenceReport {
    /// The reference's number (the order it was added in, from 0).
    pub doc: usize,
    /// Hamming distance of the whole-document fingerprints (`None` when either text has no
    /// fingerprint).
    pub distance: Option<u32>,
    /// `1 − distance / 64` for the whole documents.
    pub similarity: Option<f64>,
    /// Matching passage pairs, sorted by submission passage, then reference passage.
    pub matches: Vec<PassageMatch>,
    /// Share of the submission's fingerprinted characters (UTF-16 units) that lie in a
    /// passage matching this reference, 0 to 1.
    pub coverage: f64,
}

impl ReferenceReport {
    /// `true` when some passage pair matches, or the whole documents are within `k` bits.
    pub fn is_match(&self, k: u32) -> bool {
        !self.matches.is_empty() || self.distance.is_some_and(|d| d <= k)
    }
}

/// The result of [`PassageChecker::check`].
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The submission's whole-document fingerprint.
    pub fingerprint: Option<u64>,
    /// The submission's passages.
    pub passages: Vec<Passage>,
    /// One entry per reference with a match, in the order they were added: a reference
    /// is listed when some passage pair matches, or when the whole documents are within
    /// `k` bits of each other. The others (most of them, for a large reference set) are
    /// left out.
    pub references: Vec<ReferenceReport>,
}

/// Reference texts cut into fingerprinted passages and indexed, ready to check submissions.
#[derive(Clone, Debug)]
pub struct PassageChecker {
    opts: PassageOptions,
    hasher: SimHasher,
    index: Index<u64>,
    refs: Vec<Reference>,
}

/// Passage ids in the index: reference number in the high 32 bits, passage in the low.
fn passage_id(doc: usize, passage: usize) -> u64 {
    ((doc as u64) << 32) | (passage as u64 & 0xffff_ffff)
}

impl PassageChecker {
    /// A checker with no references yet; errors name a bad option.
    pub fn new(opts: PassageOptions) -> Result<PassageChecker> {
        opts.validate()?;
        let hasher = SimHasher::new(opts.fingerprint)?;
        let index = Index::new(Layout::default_for_k(opts.k)?);
        Ok(PassageChecker { opts, hasher, index, refs: Vec::new() })
    }

    /// The options in force.
    pub fn options(&self) -> &PassageOptions {
        &self.opts
    }

    /// Cuts `text` into passages and fingerprints each one (and nothing else).
    pub fn passages_of(&mut self, text: &str) -> Vec<Passage> {
        let ranges = split(text, self.opts.split);
        let spans = to_spans(text, &ranges);
        spans
            .into_iter()
            .map(|span| {
                let piece = &text[span.start..span.end];
                let long_enough =
                    piece.chars().filter(|c| !c.is_whitespace()).take(self.opts.min_chars).count()
                        >= self.opts.min_chars;
                let fingerprint = if long_enough { self.hasher.fingerprint(piece).ok() } else { None };
                Passage { span, fingerprint }
            })
            .collect()
    }

    /// Adds a reference text; returns its number (0, 1, …). A text with no usable passage
    /// is still added (it can only match as a whole document, if at all).
    pub fn add_reference(&mut self, text: &str) -> Result<usize> {
        let doc = self.refs.len();
        if doc > u32::MAX as usize {
            return Err(Error::option("references", doc, "at most 2^32 reference texts"));
        }
        let passages = self.passages_of(text);
        if passages.len() > u32::MAX as usize {
            return Err(Error::option("passages", passages.len(), "at most 2^32 passages per text"));
        }
        let entries: Vec<(u64, u64)> = passages
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.fingerprint.map(|f| (passage_id(doc, i), f)))
            .collect();
        self.index.extend(entries)?;
        let fingerprint = self.hasher.fingerprint(text).ok();
        self.refs.push(Reference { fingerprint, passages });
        Ok(doc)
    }

    /// Number of references added.
    pub fn len(&self) -> usize {
        self.refs.len()
    }

    /// `true` before the first reference.
    pub fn is_empty(&self) -> bool {
        self.refs.is_empty()
    }

    /// The passages of reference `doc` (empty for an unknown number).
    pub fn passages(&self, doc: usize) -> &[Passage] {
        self.refs.get(doc).map_or(&[], |r| &r.passages)
    }

    /// The whole-document fingerprint of reference `doc`.
    pub fn fingerprint(&self, doc: usize) -> Option<u64> {
        self.refs.get(doc).and_then(|r| r.fingerprint)
    }

    /// Compares `submission` with every reference: whole-document similarity and the
    /// matching passages (distance ≤ k, see the module docs), for the references with a
    /// match ([`Report::references`]).
    pub fn check(&mut self, submission: &str) -> Result<Report> {
        let passages = self.passages_of(submission);
        let fingerprint = self.hasher.fingerprint(submission).ok();
        let mut per_ref: Vec<Vec<PassageMatch>> = vec![Vec::new(); self.refs.len()];
        for (si, p) in passages.iter().enumerate() {
            let Some(fp) = p.fingerprint else { continue };
            for m in self.index.query(fp) {
                let doc = (m.id >> 32) as usize;
                let ri = (m.id & 0xffff_ffff) as usize;
                let (Some(list), Some(rp)) =
                    (per_ref.get_mut(doc), self.refs.get(doc).and_then(|r| r.passages.get(ri)))
                else {
                    continue;
                };
                list.push(PassageMatch {
                    submission: si,
                    reference: ri,
                    submission_span: p.span,
                    reference_span: rp.span,
                    distance: m.distance,
                });
            }
        }
        let total: usize = passages
            .iter()
            .filter(|p| p.fingerprint.is_some())
            .map(|p| p.span.end_utf16 - p.span.start_utf16)
            .sum();
        let references = per_ref
            .into_iter()
            .enumerate()
            .map(|(doc, mut matches)| {
                crate::sort::sort_by_key(&mut matches, |m| (m.submission, m.reference));
                let distance = match (fingerprint, self.refs[doc].fingerprint) {
                    (Some(a), Some(b)) => Some(crate::hamming(a, b)),
                    _ => None,
                };
                let covered = covered_units(
                    matches.iter().map(|m| (m.submission_span.start_utf16, m.submission_span.end_utf16)),
                );
                ReferenceReport {
                    doc,
                    distance,
                    similarity: distance.map(|d| 1.0 - f64::from(d) / 64.0),
                    coverage: if total == 0 { 0.0 } else { (covered as f64 / total as f64).min(1.0) },
                    matches,
                }
            })
            .filter(|r| r.is_match(self.opts.k))
            .collect();
        Ok(Report { fingerprint, passages, references })
    }
}

/// Length of the union of ranges (overlapping sentence windows count once).
fn covered_units(ranges: impl Iterator<Item = (usize, usize)>) -> usize {
    let mut r: Vec<(usize, usize)> = ranges.collect();
    crate::sort::sort(&mut r);
    let mut total = 0;
    let mut cur: Option<(usize, usize)> = None;
    for (s, e) in r {
        match cur {
            Some((cs, ce)) if s <= ce => cur = Some((cs, ce.max(e))),
            Some((cs, ce)) => {
                total += ce - cs;
                cur = Some((s, e));
            }
            None => cur = Some((s, e)),
        }
    }
    total + cur.map_or(0, |(s, e)| e - s)
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn two_copied_paragraphs_of_twenty_are_exactly_the_matches() {
        let reference: Vec<String> = (0..20).map(|i| paragraph(1000 + i)).collect();
        let mut submission: Vec<String> = (0..20).map(|i| paragraph(5000 + i)).collect();
        submission[4] = reference[7].clone();
        // The second copy is lightly edited: one word changed.
        submission[15] = reference[12].replacen(" the ", " this ", 1);
        let mut c = PassageChecker::new(PassageOptions::default()).unwrap();
        let rtext = reference.join("\n\n");
        c.add_reference(&rtext).unwrap();
        let stext = submission.join("\n\n");
        let r = c.check(&stext).unwrap();
        assert_eq!(r.passages.len(), 20);
        let got: Vec<(usize, usize)> =
            r.references[0].matches.iter().map(|m| (m.submission, m.reference)).collect();
        assert_eq!(got, vec![(4, 7), (15, 12)]);
        let m = &r.references[0].matches[0];
        assert_eq!(&stext[m.submission_span.start..m.submission_span.end], reference[7]);
        assert_eq!(&rtext[m.reference_span.start..m.reference_span.end], reference[7]);
        let cov = r.references[0].coverage;
        assert!(cov > 0.05 && cov < 0.15, "{cov}");
    }

    #[test]
    fn paragraphs_and_offsets() {
        let t = "\n  Ünïcode 𝄞 first.\r\n\r\n \t\nsecond line\nstill second\n\n\n";
        let p = split(t, Split::Paragraphs);
        let texts: Vec<&str> = p.iter().map(|&(s, e)| &t[s..e]).collect();
        assert_eq!(texts, ["Ünïcode 𝄞 first.", "second line\nstill second"]);
        let spans = to_spans(t, &p);
        let u: Vec<u16> = t.encode_utf16().collect();
        for s in spans {
            assert_eq!(String::from_utf16(&u[s.start_utf16..s.end_utf16]).unwrap(), &t[s.start..s.end]);
        }
    }

    #[test]
    fn sentences_windows() {
        let t = "A b. C d! E f? G h.";
        let w = split(t, Split::Sentences { window: 3, step: 2 });
        let texts: Vec<&str> = w.iter().map(|&(s, e)| &t[s..e]).collect();
        assert_eq!(texts, ["A b. C d! E f?", "C d! E f? G h."]);
        let z = "他来了。她走了！“真的吗？”是的";
        let w = split(z, Split::Sentences { window: 1, step: 1 });
        let texts: Vec<&str> = w.iter().map(|&(s, e)| &z[s..e]).collect();
        assert_eq!(texts, ["他来了。", "她走了！", "“真的吗？”", "是的"]);
        assert_eq!(split("e.g. 3.14 is pi", Split::Sentences { window: 1, step: 1 }).len(), 2);
        assert!(split("   \n\n  ", Split::Sentences { window: 2, step: 1 }).is_empty());
    }

    #[test]
    fn bad_options_and_odd_inputs_do_not_panic() {
        assert!(PassageChecker::new(PassageOptions { k: 99, ..Default::default() }).is_err());
        assert!(PassageChecker::new(PassageOptions {
            split: Split::Sentences { window: 0, step: 1 },
            ..Default::default()
        })
        .is_err());
        let mut c = PassageChecker::new(PassageOptions {
            split: Split::Sentences { window: 2, step: 1 },
            min_chars: 0,
            ..Default::default()
        })
        .unwrap();
        for t in ["", "\n", "。。。", "!?", "a", "\u{feff}\u{200b}", "x\n\n\n\ny", "…… ……"] {
            c.add_reference(t).unwrap();
            c.check(t).unwrap();
        }
        assert_eq!(c.passages(999), &[]);
    }

    #[test]
    fn only_references_with_a_match_are_listed() {
        let mut c = PassageChecker::new(PassageOptions::default()).unwrap();
        let refs: Vec<String> =
            (0..200).map(|i| paragraph(9000 + i) + "\n\n" + &paragraph(19000 + i)).collect();
        for r in &refs {
            c.add_reference(r).unwrap();
        }
        // Copies a paragraph of reference 17, and the whole of reference 150.
        let submission = format!("{}\n\n{}\n\n{}", paragraph(1), paragraph(9017), refs[150]);
        let r = c.check(&submission).unwrap();
        let docs: Vec<usize> = r.references.iter().map(|x| x.doc).collect();
        assert_eq!(docs, vec![17, 150]);
        assert!(r.references.iter().all(|x| !x.matches.is_empty() && x.coverage > 0.0));
        // A whole-document near-duplicate with no passage of its own is a match too.
        let mut c = PassageChecker::new(PassageOptions { min_chars: 10_000, ..Default::default() }).unwrap();
        c.add_reference(&refs[3]).unwrap();
        c.add_reference(&refs[4]).unwrap();
        let r = c.check(&refs[4]).unwrap();
        assert_eq!(r.references.len(), 1);
        assert_eq!(
            (r.references[0].doc, r.references[0].distance, r.references[0].matches.len()),
            (1, Some(0), 0)
        );
        assert!(c.check(&paragraph(5)).unwrap().references.is_empty());
    }

    #[test]
    fn options_from_names_keep_the_defaults_and_name_bad_values() {
        let d = PassageOptions::from_names(&PassageNames::default(), Options::default()).unwrap();
        assert_eq!(d, PassageOptions::default());
        let s = PassageNames { split: Some("sentences"), ..Default::default() };
        assert_eq!(
            PassageOptions::from_names(&s, Options::default()).unwrap().split,
            Split::Sentences { window: Split::DEFAULT_WINDOW, step: Split::DEFAULT_STEP }
        );
        assert_eq!((Split::DEFAULT_WINDOW, Split::DEFAULT_STEP), (3, 1));
        for (n, name) in [
            (PassageNames { split: Some("lines"), ..Default::default() }, "`split`"),
            (PassageNames { window: Some(-1.0), ..Default::default() }, "`window`"),
            (PassageNames { split: Some("sentences"), window: Some(0.0), ..Default::default() }, "`window`"),
            (PassageNames { split: Some("sentences"), step: Some(0.0), ..Default::default() }, "`step`"),
            (PassageNames { k: Some(25.0), ..Default::default() }, "`k`"),
            (PassageNames { k: Some(1.5), ..Default::default() }, "`k`"),
            (PassageNames { min_chars: Some(f64::NAN), ..Default::default() }, "`minChars`"),
        ] {
            let e = PassageOptions::from_names(&n, Options::default()).unwrap_err();
            assert!(e.to_string().contains(name), "{e}");
            assert_eq!(e.code(), "InvalidOption");
        }
    }
}
