//! Copied passages: which parts of a submission were taken from which parts of a set of
//! reference texts, even after light edits (the plagiarism checker's question).
//!
//! Both texts are at hand, so a match is decided on the texts, in two steps:
//!
//! 1. **Candidates.** Every text is cut into sentences ([`sentences`]: at `.!?…` before a
//!    space, at `。！？；`, and at line breaks). Each sentence's shingles (pairs of
//!    words at most one apart, or of characters in Chinese, see `shingle.rs`) are hashed into an inverted
//!    index of the reference sentences. Each sentence of the submission looks its
//!    shingles up, rarest first; the reference sentence sharing the most is its candidate
//!    in each reference (on a tie, the one nearest the sentence after the last match). On
//!    the dev corpus this finds more edited copies than SimHash fingerprints within any
//!    `k` that keeps the candidates few (see `npm run quality:passages`).
//! 2. **Verification.** The sentence's shingles are compared, exactly, with those of the
//!    candidate and its two neighbours (more, up to 64, for a long sentence whose source
//!    is wrapped into short lines). The similarity is the **containment**: the share of
//!    the sentence's shingles found there. A sentence seeds a span at 0.6 times
//!    [`PassageOptions::threshold`]; the merged span must reach the threshold itself.
//!    Containment, not Jaccard, because a copied sentence sits inside a longer paragraph
//!    and may be reordered: the benchmark measures both.
//!
//! Matched sentences at most 3 sentences apart on both sides merge into one span per
//! side (`merge.rs`), so the short lines of a copied code block do not break it up; a span's
//! first and last sentences must be copied themselves, and its similarity is measured
//! again on the merged texts. A merged span that falls below the threshold (long original
//! sentences in its gaps) is judged again as its pieces of touching matched sentences.
//! The span's first and last sentences count from their first and up to their last shared
//! pair of neighbouring words (when 3 or more unshared ones lie outside), so a copy glued to
//! original words inside one sentence is measured and highlighted without them. The span
//! must reach the threshold twice: plainly, and with each shingle weighted by its rarity
//! across the references (`ln(1 + N / df)`), so that a clause several references carry
//! does not outweigh the original words around it. A span is reported only when it has at least
//! [`PassageOptions::min_chars`] characters and 8 shared shingles that are
//! not common across the references (each counting less the more references hold it): a lone `exit(EXIT_FAILURE);` repeats across
//! unrelated man pages and is no copy, nor is a header that half of the references carry. A reference is
//! reported only when it has a span; its coverage is the share of the submission's text
//! (UTF-16 units inside sentences) its spans cover.
//!
//! Code has a path of its own (the `code` module): lines that read as code are cut into tokens
//! (identifiers, numbers and literals also by their class, for copies with renamed
//! variables), and their k-grams winnowed into fingerprints (the `winnow` module), as MOSS does. A
//! copied region found there becomes a match of the same form, joined with any span of
//! sentences it overlaps; text with no line of code is matched as above alone. (Cargo
//! feature `code`, on by default; without it, as in the small browser build, code is
//! matched by its sentences like any text.)
//!
//! Offsets are given in bytes (for Rust) and in UTF-16 code units (for JavaScript strings),
//! always into the text as given.
//!
//! ```
//! use simhash_wasm::passage::{PassageChecker, PassageOptions};
//! let mut checker = PassageChecker::new(PassageOptions::default())?;
//! let reference = "The first paragraph says something about cats and mats and hats.\n\n\
//!                  The second paragraph is about something else entirely, like dogs.";
//! checker.add_reference(reference)?;
//! let report = checker.check("Intro of my own that nobody else wrote, I promise.\n\n\
//!                             A second paragraph is about something else entirely, like dogs.")?;
//! let m = &report.references[0].matches[0];
//! assert_eq!(&reference[m.reference_span.start..m.reference_span.end],
//!            "The second paragraph is about something else entirely, like dogs.");
//! assert!(m.similarity >= 0.85 && m.similarity < 1.0);
//! # Ok::<(), simhash_wasm::Error>(())
//! ```

#[cfg(feature = "code")]
mod code;
mod merge;
pub(crate) mod shingle;
mod split;
#[cfg(feature = "code")]
mod winnow;
/// The length [`PassageOptions::min_chars`] counts: non-whitespace characters, those
/// of CJK scripts twice.
fn span_chars(text: &str) -> usize {
    text.chars().filter(|c| !c.is_whitespace()).map(|c| if shingle::is_cjk(c) { 2 } else { 1 }).sum()
}

#[cfg(test)]
mod tests;

use crate::error::{Error, Result};
use merge::{merge, RangePair};
pub use split::sentences;
use split::to_spans;

/// Options for passage matching.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PassageOptions {
    /// A reported span has at least this many non-whitespace characters, a Chinese,
    /// Japanese or Korean one counting as 2 (it carries about a word, as a Latin word's
    /// few letters do), and shares at least 8 shingles with the reference
    /// that are not common across the references.
    /// Default 40.
    pub min_chars: usize,
    /// The least containment (0 to 1) for a match. Default 0.5.
    pub threshold: f64,
}

impl Default for PassageOptions {
    fn default() -> Self {
        PassageOptions {
            min_chars: PassageOptions::DEFAULT_MIN_CHARS,
            threshold: PassageOptions::DEFAULT_THRESHOLD,
        }
    }
}

/// The passage options by name, as the JS API gives them ([`PassageOptions::NAMES`]);
/// `None` is the default.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) struct PassageNames {
    /// `minChars`.
    pub min_chars: Option<f64>,
    /// `threshold`.
    pub threshold: Option<f64>,
}

impl PassageOptions {
    /// The default `min_chars`.
    pub const DEFAULT_MIN_CHARS: usize = 40;
    /// The default `threshold`.
    pub const DEFAULT_THRESHOLD: f64 = 0.5;
    /// The option names as the JS API spells them.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub(crate) const NAMES: [&'static str; 2] = ["minChars", "threshold"];

    /// Options from their names and JS values ([`PassageNames`]), validated.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub(crate) fn from_names(names: &PassageNames) -> Result<PassageOptions> {
        let d = PassageOptions::default();
        let min_chars = match names.min_chars {
            None => d.min_chars,
            Some(x) if x >= 0.0 && x.fract() == 0.0 && x <= 1e9 => x as usize,
            Some(x) => {
                return Err(Error::option("minChars", crate::error::number(x), "a non-negative whole number"))
            }
        };
        let o = PassageOptions { min_chars, threshold: names.threshold.unwrap_or(d.threshold) };
        o.validate()?;
        Ok(o)
    }

    /// Checks the options, naming the one that is out of range.
    pub fn validate(&self) -> Result<()> {
        if !(self.threshold > 0.0 && self.threshold <= 1.0) {
            return Err(Error::option(
                "threshold",
                crate::error::number(self.threshold),
                "a share above 0 and at most 1",
            ));
        }
        Ok(())
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

/// A span of the submission copied from a span of a reference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PassageMatch {
    /// Where it is in the submission.
    pub submission_span: Span,
    /// Where it is in the reference.
    pub reference_span: Span,
    /// Submission sentences (first, last), numbers into [`Report::passages`].
    pub submission: (usize, usize),
    /// Reference sentences (first, last), numbers into [`PassageChecker::passages`].
    pub reference: (usize, usize),
    /// The share of the submission span's shingles found in the reference span (0 to 1).
    pub similarity: f64,
    /// Their Jaccard similarity (shared shingles over all shingles of the two spans).
    pub jaccard: f64,
}

/// What one reference shares with the submission.
#[derive(Clone, Debug, PartialEq)]
pub struct ReferenceReport {
    /// The reference's number (the order it was added in, from 0).
    pub doc: usize,
    /// The share of the submission's sentence text (in UTF-16 units) its spans cover.
    pub coverage: f64,
    /// The merged spans, in submission order.
    pub matches: Vec<PassageMatch>,
}

/// The result of [`PassageChecker::check`].
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The submission's sentences.
    pub passages: Vec<Span>,
    /// The share of the submission covered by the spans of any reference.
    pub coverage: f64,
    /// The references with at least one span, most covered first.
    pub references: Vec<ReferenceReport>,
}

/// A text cut into sentences, with each sentence's shingles.
#[derive(Clone, Debug, Default)]
struct Text {
    spans: Vec<Span>,
    shingles: Vec<Vec<u64>>,
    /// Non-whitespace characters per sentence.
    chars: Vec<usize>,
}

impl Text {
    fn new(text: &str, buf: &mut String) -> Text {
        let spans = to_spans(text, &sentences(text));
        let pieces = || spans.iter().map(|s| &text[s.start..s.end]);
        Text {
            shingles: pieces().map(|p| shingle::shingles(p, buf)).collect(),
            chars: pieces().map(span_chars).collect(),
            spans,
        }
    }

    fn union(&self, (a, b): (usize, usize)) -> Vec<u64> {
        shingle::union(self.shingles[a..=b].iter().map(Vec::as_slice))
    }

    fn span(&self, (a, b): (usize, usize)) -> Span {
        let (s, e) = (self.spans[a], self.spans[b]);
        Span { start: s.start, end: e.end, start_utf16: s.start_utf16, end_utf16: e.end_utf16 }
    }
}

/// A sentence looks up its shingles, rarest first, until it has read this many postings.
const BUDGET: usize = 2048;

/// The most reference sentences one submission sentence is verified against (a long
/// sentence whose source is wrapped into short lines).
pub(crate) const MAX_REGION: usize = 64;

/// Matched sentences this many sentences apart (on both sides) are one span: a copied code
/// block's short lines (`}`, `hints.ai_flags = 0;`) do not break it up.
pub(crate) const GAP: usize = 3;

/// The fewest references that make a shingle common (besides half of them): with 4
/// references or fewer nothing is common. A teacher who gathered three web pages that all
/// quote the source of a copied paragraph must still see the copy; the boilerplate this
/// rule is for (a man page's header, a licence clause) shows as such only in a larger set.
pub(crate) const COMMON_MIN: usize = 5;

/// A reported span shares at least this many shingles with its reference span that are
/// not common (held by half of the references or more, and at least [`COMMON_MIN`]): lines that
/// genuinely repeat across unrelated texts (`#include <stdio.h>`, `exit(EXIT_FAILURE);`)
/// share a few, and a man page's header or a licence's warranty clause, shared by many
/// references, counts for nothing. 8 because shingles include pairs one apart (about twice
/// as many a sentence as pairs of neighbours); the benchmark's sweep of this floor is in
/// `docs/decisions/026-passages-floors-and-rarity.md`. Each shared shingle counts by its rarity, 1 when one
/// reference holds it and less the more do (`ln(1 + N / df) / ln(1 + N)`), so a run of
/// `#include` lines that 2 to 4 references carry needs more of them.
pub(crate) const MIN_SHARED: usize = 8;

/// A sentence seeds or extends a span when this share of the threshold of its shingles
/// is found in the reference (0.3 at the default threshold): edited sentences that keep
/// less than half of their word pairs still join a span, which is reported only when, merged,
/// it reaches the threshold (see `docs/decisions/026-passages-floors-and-rarity.md`).
pub(crate) const SEED: f64 = 0.6;

/// The least run of not-shared pairs of neighbouring words cut off a span's first or last
/// sentence: fewer are an edit of the copy, not original text around it.
pub(crate) const TRIM_MIN: usize = 3;

/// Sentence `whole` of `text` from its first pair of neighbouring words found in `b` (when
/// `front`) and up to its last (when `back`): the sorted set of the shingles of the words
/// kept, and the byte range they cover. `None` when the sentence cannot be cut into words
/// with their places, or shares no such pair.
#[inline(never)]
fn trim(
    text: &str,
    whole: Span,
    b: &[u64],
    front: bool,
    back: bool,
    buf: &mut String,
) -> Option<(Vec<u64>, usize, usize)> {
    let (h, raw) = shingle::ordered(&text[whole.start..whole.end], buf)?;
    // Pairs of neighbours only: a pair one word apart can reach over an original word
    // (`… language; Language …` shares `language language` with any `language`).
    let next: Vec<bool> = h.windows(2).map(|w| b.binary_search(&shingle::pair(w[0], w[1])).is_ok()).collect();
    // Fewer than TRIM_MIN leading or trailing pairs not shared are an edit of the copy,
    // not original text around it: kept.
    let i = if front { next.iter().position(|&x| x)? } else { 0 };
    let i = if i < TRIM_MIN { 0 } else { i };
    let j = if back { next.iter().rposition(|&x| x)? } else { next.len() - 1 };
    let j = if next.len() - 1 - j < TRIM_MIN { next.len() - 1 } else { j };
    if i > j {
        return None;
    }
    // Words i..=j + 1 are kept, with all their pairs.
    let mut set: Vec<u64> = Vec::with_capacity(2 * (j + 2 - i));
    shingle::pairs(&h[i..=j + 1], |x, _, _| set.push(x));
    set.sort_unstable();
    set.dedup();
    // Whole when nothing is cut; otherwise with the punctuation next to the words kept
    // (an opening quote, a closing stop).
    let piece = &text[whole.start..whole.end];
    let glued = |c: char| crate::normalize::is_punct(c) && !crate::normalize::is_space(c);
    let start = if i == 0 {
        0
    } else {
        piece[..raw[i].0].char_indices().rev().take_while(|&(_, c)| glued(c)).last().map_or(raw[i].0, |x| x.0)
    };
    let end = if j + 1 == next.len() {
        piece.len()
    } else {
        let e = raw[j + 1].1;
        e + piece[e..].chars().take_while(|&c| glued(c)).map(char::len_utf8).sum::<usize>()
    };
    Some((set, whole.start + start, whole.start + end))
}

/// The length of `s` in UTF-16 code units.
fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// Matches sorted by their submission span, without overlaps: of the pieces of one merged
/// pair, each grown by its neighbours, one that reaches into an earlier one is dropped.
fn merge_matches(mut ms: Vec<PassageMatch>) -> Vec<PassageMatch> {
    crate::sort::sort_by(&mut ms, |a, b| {
        a.submission.0.cmp(&b.submission.0).then(b.submission.1.cmp(&a.submission.1))
    });
    let mut out: Vec<PassageMatch> = Vec::with_capacity(ms.len());
    for m in ms {
        if out.last().is_none_or(|l| m.submission.0 > l.submission.1) {
            out.push(m);
        }
    }
    out
}

/// Matches sorted by their submission span, those that overlap joined into one (a code
/// region found by [`code`] inside or across a span of sentences): the hull of both sides,
/// at the higher similarity.
#[cfg(feature = "code")]
fn with_code(mut ms: Vec<PassageMatch>) -> Vec<PassageMatch> {
    crate::sort::sort_by(&mut ms, |a, b| a.submission_span.start.cmp(&b.submission_span.start));
    let mut out: Vec<PassageMatch> = Vec::with_capacity(ms.len());
    let hull = |a: Span, b: Span| {
        let (s, e) = (if a.start <= b.start { a } else { b }, if a.end >= b.end { a } else { b });
        Span { start: s.start, end: e.end, start_utf16: s.start_utf16, end_utf16: e.end_utf16 }
    };
    for m in ms {
        match out.last_mut() {
            Some(l)
                if m.submission_span.start < l.submission_span.end || m.submission.0 <= l.submission.1 =>
            {
                l.submission_span = hull(l.submission_span, m.submission_span);
                l.reference_span = hull(l.reference_span, m.reference_span);
                l.submission = (l.submission.0.min(m.submission.0), l.submission.1.max(m.submission.1));
                l.reference = (l.reference.0.min(m.reference.0), l.reference.1.max(m.reference.1));
                if m.similarity > l.similarity {
                    l.similarity = m.similarity;
                    l.jaccard = m.jaccard;
                }
            }
            _ => out.push(m),
        }
    }
    out
}

/// The spans of sentences `ms` with the code regions `code` of the same reference joined
/// in ([`with_code`]).
#[cfg(feature = "code")]
fn join_code(mut ms: Vec<PassageMatch>, mut code: Vec<PassageMatch>) -> Vec<PassageMatch> {
    if code.is_empty() {
        return ms;
    }
    ms.append(&mut code);
    with_code(ms)
}

/// Without the code path: the spans of sentences as they are.
#[cfg(not(feature = "code"))]
fn join_code(ms: Vec<PassageMatch>, _code: Vec<PassageMatch>) -> Vec<PassageMatch> {
    ms
}

/// The sentences (first, last) of `spans` that byte range `start..end` touches.
#[cfg(feature = "code")]
fn sentences_of(spans: &[Span], start: usize, end: usize) -> (usize, usize) {
    let f = spans.partition_point(|s| s.end <= start);
    let l = spans.partition_point(|s| s.start < end).max(f + 1) - 1;
    (f.min(spans.len().saturating_sub(1)), l.min(spans.len().saturating_sub(1)))
}

/// Reference texts cut into sentences and indexed, ready to check submissions.
#[derive(Clone, Debug, Default)]
pub struct PassageChecker {
    opts: PassageOptions,
    refs: Vec<Text>,
    /// (shingle hash, reference, sentence), sorted once a check needs it.
    index: Vec<(u64, u32, u32)>,
    sorted: bool,
    buf: String,
    /// The references' code lines, fingerprinted.
    #[cfg(feature = "code")]
    code: code::CodeIndex,
}

impl PassageChecker {
    /// A checker with no references yet; errors name a bad option.
    pub fn new(opts: PassageOptions) -> Result<PassageChecker> {
        opts.validate()?;
        Ok(PassageChecker { opts, ..PassageChecker::default() })
    }

    /// The options in force.
    pub fn options(&self) -> &PassageOptions {
        &self.opts
    }

    /// The sentences of `text`, as [`PassageChecker::check`] cuts it.
    pub fn passages_of(&self, text: &str) -> Vec<Span> {
        to_spans(text, &sentences(text))
    }

    /// Adds a reference text; returns its number (0, 1, …).
    pub fn add_reference(&mut self, text: &str) -> Result<usize> {
        let doc = self.refs.len();
        let t = Text::new(text, &mut self.buf);
        if doc >= u32::MAX as usize || t.spans.len() >= u32::MAX as usize {
            return Err(Error::option("references", doc, "fewer than 2^32 texts and sentences"));
        }
        for (i, sh) in t.shingles.iter().enumerate() {
            self.index.extend(sh.iter().map(|&h| (h, doc as u32, i as u32)));
        }
        self.sorted = false;
        self.refs.push(t);
        #[cfg(feature = "code")]
        self.code.add(text);
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

    /// The sentences of reference `doc` (empty for an unknown number).
    pub fn passages(&self, doc: usize) -> &[Span] {
        self.refs.get(doc).map_or(&[], |r| &r.spans)
    }

    /// The postings of shingle `h`.
    fn postings(&self, h: u64) -> &[(u64, u32, u32)] {
        let lo = self.index.partition_point(|e| e.0 < h);
        let hi = lo + self.index[lo..].partition_point(|e| e.0 == h);
        &self.index[lo..hi]
    }

    /// Checks `submission` against every reference: the copied spans, with their
    /// similarities, of the references that have any (see the module docs).
    pub fn check(&mut self, submission: &str) -> Result<Report> {
        if !self.sorted {
            // Entries are added in (reference, sentence) order, so a stable sort by hash
            // leaves each posting list in that order: no comparisons inside the long runs
            // of a common pair.
            crate::sort::sort_by_u64_key_stable(&mut self.index, |e| e.0);
            self.sorted = true;
        }
        let sub = Text::new(submission, &mut self.buf);
        let mut pairs: Vec<Vec<RangePair>> = vec![Vec::new(); self.refs.len()];
        // Per reference, the reference sentence after the last match (ties go to it).
        let mut next: Vec<usize> = vec![0; self.refs.len()];
        // Postings hit, as reference << 32 | sentence: plain u64s sort fast.
        let mut hits: Vec<u64> = Vec::new();
        for (w, a) in sub.shingles.iter().enumerate() {
            // The sentence's shingles, rarest first, within the budget.
            let mut lists: Vec<&[(u64, u32, u32)]> =
                a.iter().map(|&h| self.postings(h)).filter(|l| !l.is_empty()).collect();
            crate::sort::sort_by_key(&mut lists, |l| l.len());
            hits.clear();
            for l in lists {
                if !hits.is_empty() && hits.len() + l.len() > BUDGET {
                    break;
                }
                hits.extend(l.iter().map(|e| u64::from(e.1) << 32 | u64::from(e.2)));
            }
            hits.sort_unstable();
            // Per reference, the sentence with the most hits (the nearest to the sentence
            // after the last match on a tie).
            let mut i = 0;
            while i < hits.len() {
                let doc = (hits[i] >> 32) as usize;
                let (mut best, mut best_n) = (0usize, 0usize);
                while i < hits.len() && (hits[i] >> 32) as usize == doc {
                    let s = (hits[i] & 0xffff_ffff) as usize;
                    let n = hits[i..].iter().take_while(|h| **h == hits[i]).count();
                    if n > best_n || (n == best_n && s.abs_diff(next[doc]) < best.abs_diff(next[doc])) {
                        (best, best_n) = (s, n);
                    }
                    i += n;
                }
                if let Some(p) = self.verify(a, w, doc, best) {
                    next[doc] = p.re.1 + 1;
                    pairs[doc].push(p);
                }
            }
        }
        let total: usize = sub.spans.iter().map(|s| s.end_utf16 - s.start_utf16).sum();
        // The share of the submission's sentences (`total`, text between sentences left
        // out) inside the union of these sentence ranges: at most 1.
        let share = |ranges: Vec<(usize, usize)>| {
            let n: usize = merge(ranges.into_iter().map(|sub| RangePair { sub, re: (0, 0) }).collect(), 0)
                .iter()
                .flat_map(|p| &sub.spans[p.sub.0..=p.sub.1])
                .map(|s| s.end_utf16 - s.start_utf16)
                .sum();
            if total == 0 {
                0.0
            } else {
                n as f64 / total as f64
            }
        };
        let common = self.common_docs();
        let df = self.weights(&sub);
        let mut all = Vec::new();
        let mut references = Vec::new();
        let code = self.code_matches(submission, &sub);
        for (doc, (ps, code)) in
            pairs.into_iter().zip(code).enumerate().filter(|(_, (p, c))| !p.is_empty() || !c.is_empty())
        {
            let r = &self.refs[doc];
            let judge = |p: RangePair| self.judge(submission, &sub, r, p, common, &df);
            let mut merged = merge(ps.clone(), GAP);
            for p in &mut merged {
                self.extend(&sub, r, p);
            }
            let mut matches: Vec<PassageMatch> = Vec::new();
            for p in merge(merged, GAP) {
                if let Some(m) = judge(p) {
                    matches.push(m);
                    continue;
                }
                // Merged across a gap with too much original text in it: its pieces of
                // touching sentences, each judged alone.
                let inside = |q: &&RangePair| q.sub.0 >= p.sub.0 && q.sub.1 <= p.sub.1;
                let pieces = merge(ps.iter().filter(inside).copied().collect(), 0);
                if pieces.len() > 1 {
                    matches.extend(pieces.into_iter().filter_map(|mut q| {
                        self.extend(&sub, r, &mut q);
                        judge(q)
                    }));
                }
            }
            let matches = join_code(merge_matches(matches), code);
            if matches.is_empty() {
                continue;
            }
            all.extend(matches.iter().map(|m| m.submission));
            let coverage = share(matches.iter().map(|m| m.submission).collect());
            references.push(ReferenceReport { doc, coverage, matches });
        }
        crate::sort::sort_by(&mut references, |a, b| {
            b.coverage.total_cmp(&a.coverage).then(a.doc.cmp(&b.doc))
        });
        let coverage = share(all);
        Ok(Report { coverage, passages: sub.spans, references })
    }

    /// Without the code path: no code regions, for any reference.
    #[cfg(not(feature = "code"))]
    fn code_matches(&mut self, _submission: &str, _sub: &Text) -> Vec<Vec<PassageMatch>> {
        vec![Vec::new(); self.refs.len()]
    }

    /// The copied code regions of `submission` ([`code`]) as matches, per reference: those
    /// of `min_chars` characters or more.
    #[cfg(feature = "code")]
    fn code_matches(&mut self, submission: &str, sub: &Text) -> Vec<Vec<PassageMatch>> {
        let mut out = vec![Vec::new(); self.refs.len()];
        let p = self.code.params();
        let text = code::CodeText::new(submission, &p);
        if text.tokens.is_empty() {
            return out;
        }
        for m in self.code.find(&text) {
            let span = |t: &[code::Token], (a, b): (usize, usize)| Span {
                start: t[a].start,
                end: t[b].end,
                start_utf16: t[a].start_utf16,
                end_utf16: t[b].end_utf16,
            };
            let s = span(&text.tokens, m.sub);
            if span_chars(&submission[s.start..s.end]) < self.opts.min_chars {
                continue;
            }
            let r = span(&self.code.texts[m.doc].tokens, m.re);
            out[m.doc].push(PassageMatch {
                submission_span: s,
                reference_span: r,
                submission: sentences_of(&sub.spans, s.start, s.end),
                reference: sentences_of(&self.refs[m.doc].spans, r.start, r.end),
                similarity: m.similarity,
                jaccard: m.jaccard,
            });
        }
        out
    }

    /// The least containment of one sentence to seed or extend a span: [`SEED`] times the
    /// threshold. The merged span must still reach the threshold itself.
    fn seed(&self) -> f64 {
        self.opts.threshold * SEED
    }

    /// A shingle found in this many references or more is common: boilerplate (a licence
    /// clause, `#include <stdio.h>`, a man page's `Standard C library`) that does not count
    /// toward [`MIN_SHARED`]. Half of the references, and at least 3 (with one or two
    /// references nothing is common).
    fn common_docs(&self) -> usize {
        (self.refs.len() / 2).max(COMMON_MIN)
    }

    /// The number of references holding shingle `h`, counted up to `cap` (a posting list
    /// is in reference order, so each reference's postings are one run).
    fn docs_holding(&self, h: u64, cap: usize) -> usize {
        let mut docs = 0;
        let mut last = u32::MAX;
        for e in self.postings(h) {
            if e.1 != last {
                last = e.1;
                docs += 1;
                if docs >= cap {
                    break;
                }
            }
        }
        docs
    }

    /// The submission's shingles, sorted, and the weight of each: its rarity across the
    /// references, `ln(1 + N / df)` with df the number of references holding it (a shingle
    /// no reference holds weighs as one that one holds, so edits do not count against a
    /// copy of unique text).
    fn weights(&self, sub: &Text) -> (Vec<u64>, Vec<f64>) {
        let n = self.refs.len() as f64;
        let all = shingle::union(sub.shingles.iter().map(Vec::as_slice));
        let mut w = Vec::with_capacity(all.len());
        for &h in &all {
            let docs = self.docs_holding(h, usize::MAX);
            w.push(crate::math::ln(1.0 + n / docs.max(1) as f64));
        }
        (all, w)
    }

    /// The containment of `a` in `b` with each shingle weighted as [`Self::weights`] says:
    /// word pairs of boilerplate that several references carry count less than the
    /// original words around them.
    fn weighted(a: &[u64], b: &[u64], (all, w): &(Vec<u64>, Vec<f64>)) -> f64 {
        let (mut total, mut shared) = (0.0, 0.0);
        for h in a {
            let x = all.binary_search(h).map_or(0.0, |i| w[i]);
            total += x;
            if b.binary_search(h).is_ok() {
                shared += x;
            }
        }
        if total > 0.0 {
            shared / total
        } else {
            0.0
        }
    }

    /// The shingles in both sorted sets that fewer than `common` references hold, each
    /// counted by its rarity: `ln(1 + N / df) / ln(1 + N)` (N references, df of them
    /// holding it), 1 for a shingle one reference holds, less the more hold it. An
    /// `#include` line that 2 of 10 references carry counts 0.75.
    fn rare_shared(&self, a: &[u64], b: &[u64], common: usize) -> f64 {
        let n = self.refs.len() as f64;
        let one = crate::math::ln(1.0 + n);
        let mut sum = 0.0;
        crate::sets::for_each_common(a, b, |h| {
            let docs = self.docs_holding(h, common);
            if docs < common {
                sum += crate::math::ln(1.0 + n / docs.max(1) as f64) / one;
            }
        });
        sum
    }

    /// The match of merged pair `p` when it is worth reporting: its ends are copied
    /// sentences (a gap may have joined an original one), it has `min_chars` characters,
    /// [`MIN_SHARED`] shared shingles that are not common, and reaches the threshold. Its
    /// first and last sentences count from their first and up to their last shared
    /// shingle ([`trim`]): a copy that starts or ends inside a sentence of the submission
    /// is measured, and highlighted, without the original words around it.
    fn judge(
        &self,
        text: &str,
        sub: &Text,
        r: &Text,
        mut p: RangePair,
        common: usize,
        df: &(Vec<u64>, Vec<f64>),
    ) -> Option<PassageMatch> {
        let b = r.union(p.re);
        let copied = |i: &usize| shingle::containment(&sub.shingles[*i], &b) >= self.seed();
        p.sub = ((p.sub.0..=p.sub.1).find(copied)?, (p.sub.0..=p.sub.1).rev().find(copied)?);
        let (f, l) = p.sub;
        let mut span = sub.span(p.sub);
        let mut chars: usize = sub.chars[f..=l].iter().sum();
        let mut first: Option<Vec<u64>> = None;
        let mut last: Option<Vec<u64>> = None;
        let mut buf = String::new();
        let whole = sub.spans[f];
        if let Some((set, s, e)) = trim(text, whole, &b, true, f == l, &mut buf) {
            chars = chars - sub.chars[f] + span_chars(&text[s..e]);
            span.start_utf16 = whole.start_utf16 + utf16_len(&text[whole.start..s]);
            span.start = s;
            if f == l {
                span.end_utf16 = whole.end_utf16 - utf16_len(&text[e..whole.end]);
                span.end = e;
            }
            first = Some(set);
        }
        let whole = sub.spans[l];
        if f != l {
            if let Some((set, s, e)) = trim(text, whole, &b, false, true, &mut buf) {
                chars = chars - sub.chars[l] + span_chars(&text[s..e]);
                span.end_utf16 = whole.end_utf16 - utf16_len(&text[e..whole.end]);
                span.end = e;
                last = Some(set);
            }
        }
        let mut a: Vec<u64> = Vec::new();
        for i in f..=l {
            a.extend_from_slice(match (i == f, i == l, &first, &last) {
                (true, _, Some(x), _) | (false, true, _, Some(x)) => x,
                _ => &sub.shingles[i],
            });
        }
        a.sort_unstable();
        a.dedup();
        let shared = shingle::intersection(&a, &b);
        let rare = self.rare_shared(&a, &b, common);
        let similarity = shared as f64 / a.len().max(1) as f64;
        let weighted = Self::weighted(&a, &b, df);
        (chars >= self.opts.min_chars
            && rare >= MIN_SHARED as f64
            && similarity >= self.opts.threshold
            && weighted >= self.opts.threshold)
            .then(|| PassageMatch {
                submission_span: span,
                reference_span: r.span(p.re),
                submission: p.sub,
                reference: p.re,
                similarity,
                jaccard: shingle::jaccard(&a, &b),
            })
    }

    /// Grows `p` by the sentences just before and after it that are copies of the
    /// reference's sentences just before and after (a short last sentence of a copy only
    /// sits in windows that reach past the copy).
    fn extend(&self, sub: &Text, r: &Text, p: &mut RangePair) {
        let ok = |k: usize, j: usize| {
            !sub.shingles[k].is_empty()
                && shingle::containment(&sub.shingles[k], &r.shingles[j]) >= self.seed()
        };
        while p.sub.1 + 1 < sub.spans.len() && p.re.1 + 1 < r.spans.len() && ok(p.sub.1 + 1, p.re.1 + 1) {
            p.sub.1 += 1;
            p.re.1 += 1;
        }
        while p.sub.0 > 0 && p.re.0 > 0 && ok(p.sub.0 - 1, p.re.0 - 1) {
            p.sub.0 -= 1;
            p.re.0 -= 1;
        }
    }

    /// The exact check of submission sentence `w` (shingles `a`) against the neighbourhood
    /// of sentence `s` of reference `doc` (one sentence either side): its pair when it matches.
    fn verify(&self, a: &[u64], w: usize, doc: usize, s: usize) -> Option<RangePair> {
        let r = &self.refs[doc];
        let last = r.spans.len() - 1;
        let mut region = (s.saturating_sub(1), (s + 1).min(last));
        // A long sentence against short ones (a paragraph on one line, its source wrapped
        // into lines): the region grows until it has as many shingles as the sentence.
        let mut n: usize = r.shingles[region.0..=region.1].iter().map(Vec::len).sum();
        while n < a.len() && (region.0 > 0 || region.1 < last) && region.1 - region.0 < MAX_REGION {
            if region.0 > 0 {
                region.0 -= 1;
                n += r.shingles[region.0].len();
            }
            if region.1 < last {
                region.1 += 1;
                n += r.shingles[region.1].len();
            }
        }
        if shingle::containment(a, &r.union(region)) < self.seed() {
            return None;
        }
        // The reference side: the region's sentences mostly found in the sentence.
        let inside = |i: &usize| shingle::containment(&r.shingles[*i], a) >= 0.4;
        let mut first = (region.0..=region.1).find(inside).unwrap_or(s).min(s);
        let mut end = (region.0..=region.1).rev().find(inside).unwrap_or(s).max(s);
        // And the lines past the region that the sentence still holds (a long sentence
        // whose source is wrapped into short lines).
        while end < last && inside(&(end + 1)) {
            end += 1;
        }
        while first > 0 && inside(&(first - 1)) {
            first -= 1;
        }
        Some(RangePair { sub: (w, w), re: (first, end) })
    }
}
