//! Cutting normalised text into features: character n-grams over grapheme clusters, or
//! shingles of Unicode words.
//!
//! Both are borrowing iterators over the text, yielding each feature with its byte
//! offsets, so a page can highlight it.
//!
//! ```
//! use simhash_wasm::__private::tokenize::{char_ngrams, word_shingles};
//! let grams: Vec<_> = char_ngrams("the cat", 2).map(|g| g.text).collect();
//! assert_eq!(grams, ["th", "he", "e ", " c", "ca", "at"]);
//!
//! // Grapheme clusters, not code points: "é" written as e + U+0301 is one character.
//! let grams: Vec<_> = char_ngrams("ne\u{301}e", 2).map(|g| (g.start, g.text)).collect();
//! assert_eq!(grams, [(0, "ne\u{301}"), (1, "e\u{301}e")]);
//!
//! // Chinese needs no word segmenter.
//! let grams: Vec<_> = char_ngrams("上海上港", 3).map(|g| g.text).collect();
//! assert_eq!(grams, ["上海上", "海上港"]);
//!
//! let shingles: Vec<_> = word_shingles("the cat, the hat.", 2).map(|s| s.text).collect();
//! assert_eq!(shingles, ["the cat", "cat, the", "the hat"]);
//! ```

use unicode_segmentation::UnicodeSegmentation;

use crate::hash::hash_at;
use crate::normalize::ideograph_len;

/// One feature cut from a text: its bytes and where they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// Byte offset of the feature's start in the text.
    pub start: usize,
    /// Byte offset just past its end.
    pub end: usize,
    /// The feature itself, `&text[start..end]`.
    pub text: &'a str,
}

/// A character that forms a grapheme cluster of its own whenever its neighbours are such
/// characters too: printable ASCII, the main CJK ideograph blocks, and the CJK
/// punctuation and symbols U+3000..U+3029 (`、。「」《》〇`, which Chinese text keeps after
/// NFKC; U+302A..U+302F are combining tone marks, left out). (UAX #29 puts a boundary
/// between two characters of class "Other"; all these are "Other".)
#[inline(always)]
fn simple(c: char) -> bool {
    matches!(c as u32, 0x20..=0x7E | 0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x3000..=0x3029)
}

/// The UTF-8 length of the character at `bytes[i]` if it is [`simple`], else 0, read from
/// its lead bytes without decoding it: printable ASCII is one byte; the rest are three
/// bytes: U+3000..U+3029 are E3 80 80..A9, and the ideographs are `ideograph_len`'s (in `normalize.rs`).
/// `i` must be a char boundary.
#[inline(always)]
pub(crate) fn simple_len(bytes: &[u8], i: usize) -> usize {
    match bytes[i] {
        0x20..=0x7E => 1,
        0xE3 if bytes[i + 1] == 0x80 && bytes[i + 2] <= 0xA9 => 3,
        _ => ideograph_len(bytes, i),
    }
}

/// Appends the byte offset of every grapheme cluster start in `text` to `out`, then
/// `text.len()`. See `for_each_grapheme_start`.
pub fn grapheme_starts(text: &str, out: &mut Vec<u32>) {
    for_each_grapheme_start(text, |i| out.push(i as u32));
}

/// Calls `f` with the byte offset of every grapheme cluster start in `text`, in order,
/// then with `text.len()`. A fast path for text made of `simple` characters; every other
/// stretch is handed to `unicode-segmentation`, so the result always equals
/// `text.grapheme_indices(true)` (property test in `tests/properties.rs`).
#[inline]
pub fn for_each_grapheme_start(text: &str, f: impl FnMut(usize)) {
    struct Call<F>(F);
    impl<F: FnMut(usize)> OnStart for Call<F> {
        #[inline(always)]
        fn start(&mut self, i: usize) {
            (self.0)(i)
        }
    }
    scan_starts(text, &mut Call(f));
}

/// What [`scan_starts`] calls with every cluster start: a trait with an
/// `#[inline(always)]` method rather than a closure, so that the browser build's
/// opt-level "z" inlines it into the scan too (it leaves a closure as a call per byte).
trait OnStart {
    fn start(&mut self, i: usize);
}

/// [`for_each_grapheme_start`]'s scan.
#[inline(always)]
fn scan_starts(text: &str, f: &mut impl OnStart) {
    let bytes = text.as_bytes();
    let mut i = 0;
    // Invariant: i is a boundary, and the char before i (if any) is simple.
    while i < bytes.len() {
        // A run of simple characters: each one followed by a simple one (or the end) is a
        // cluster of its own. Each character's length is read once.
        let mut w = simple_len(bytes, i);
        while w != 0 {
            let next = i + w;
            let after = if next == bytes.len() { 1 } else { simple_len(bytes, next) };
            if after == 0 {
                break;
            }
            f.start(i);
            i = next;
            w = if next == bytes.len() { 0 } else { after };
        }
        if i == bytes.len() {
            break;
        }
        // Slow stretch: from i (a boundary: the char before is simple, or i == 0) to the
        // next position between two simple characters (or the end).
        let c = text[i..].chars().next().unwrap_or('\0');
        let mut j = i + c.len_utf8();
        let mut prev_simple = simple(c);
        while j < bytes.len() {
            let d = text[j..].chars().next().unwrap_or('\0');
            if prev_simple && simple(d) {
                break;
            }
            prev_simple = simple(d);
            j += d.len_utf8();
        }
        for (k, _) in text[i..j].grapheme_indices(true) {
            f.start(i + k);
        }
        i = j;
    }
    f.start(bytes.len());
}

/// Calls `f(start, end, hash)` for every run of `n` grapheme clusters of `text` (`n` from
/// 1 to [`MAX_NGRAM`](crate::fingerprint::MAX_NGRAM)), in order, and returns the number of clusters. The cluster starts
/// are gathered in blocks of a fixed-size buffer and each block's n-grams hashed in one
/// tight loop (the last `n` starts carry over to the next block), so memory stays
/// constant however long the text is.
#[inline]
pub(crate) fn for_each_char_ngram(text: &str, n: usize, f: impl FnMut(usize, usize, u64)) -> usize {
    for_each_char_ngram_pair(text, n, f, None::<(usize, fn(u64))>)
}

/// What [`for_each_char_ngram_pair`] calls with every n-gram (`start`, `end`, hash): any
/// `FnMut(usize, usize, u64)`, or a type whose `#[inline(always)]` method the browser
/// build's opt-level "z" inlines into the loops (it leaves a closure as a call per n-gram).
pub(crate) trait OnGram {
    fn gram(&mut self, start: usize, end: usize, hash: u64);
}

impl<F: FnMut(usize, usize, u64)> OnGram for F {
    #[inline(always)]
    fn gram(&mut self, start: usize, end: usize, hash: u64) {
        self(start, end, hash)
    }
}

/// [`for_each_char_ngram`] for `n`, and in the same pass over the cluster starts, when
/// `second` is `Some((m, g))`, `g(hash)` for every run of `m` clusters (`m` from 1 to
/// [`MAX_NGRAM`](crate::fingerprint::MAX_NGRAM)): the fingerprint's features and the
/// sketch's shingles from one scan.
pub(crate) fn for_each_char_ngram_pair<G: FnMut(u64)>(
    text: &str,
    n: usize,
    mut f: impl OnGram,
    mut second: Option<(usize, G)>,
) -> usize {
    const BLOCK: usize = 256;
    let bytes = text.as_bytes();
    // In ASCII only CR LF is a cluster of two characters (UAX #29): every other character,
    // control or not, is a cluster of its own. So an ASCII text without CR (every
    // normalised English text) needs no scan for cluster starts: its n-grams are its runs of
    // n bytes.
    if bytes.is_ascii() && !bytes.contains(&b'\r') {
        let runs = |size: usize| (bytes.len() + 1).saturating_sub(size);
        let mut s = 0;
        if let Some((m, g)) = second.as_mut() {
            // Both sizes from each start in one loop (one pass over the bytes, two
            // independent hashes in flight), then the tail of the smaller size.
            let m = *m;
            while s < runs(n.max(m)) {
                f.gram(s, s + n, hash_at(bytes, s, n));
                g(hash_at(bytes, s, m));
                s += 1;
            }
            for t in s..runs(m) {
                g(hash_at(bytes, t, m));
            }
        }
        for s in s..runs(n) {
            f.gram(s, s + n, hash_at(bytes, s, n));
        }
        return bytes.len();
    }
    let m = second.as_ref().map_or(n, |(m, _)| *m);
    let keep = n.max(m);
    let mut starts = [0usize; BLOCK];
    let len = 0; // starts in use
    let seen = 0usize; // starts seen in all
                       // Runs from start index `from` on were not hashed yet: 0 in the first block, and
                       // `keep - size` after `keep` starts carried over (those before were hashed already).
    let from = (0, 0);
    // Indices, not a zip of two iterators: opt-level "z" (the browser build) leaves
    // `Zip::next` as a call per n-gram.
    let mut hash_block = |starts: &[usize], from: (usize, usize)| {
        for i in from.0..starts.len().saturating_sub(n) {
            let (s, e) = (starts[i], starts[i + n]);
            f.gram(s, e, hash_at(bytes, s, e - s));
        }
        if let Some((_, g)) = second.as_mut() {
            for i in from.1..starts.len().saturating_sub(m) {
                let (s, e) = (starts[i], starts[i + m]);
                g(hash_at(bytes, s, e - s));
            }
        }
    };
    /// The block of starts being filled, and what to do with a full one.
    struct Blocks<'s, 'h, H> {
        starts: &'s mut [usize; BLOCK],
        len: usize,
        seen: usize,
        from: (usize, usize),
        keep: usize,
        sizes: (usize, usize),
        hash_block: &'h mut H,
    }
    impl<H: FnMut(&[usize], (usize, usize))> OnStart for Blocks<'_, '_, H> {
        #[inline(always)]
        fn start(&mut self, e: usize) {
            self.starts[self.len] = e;
            self.len += 1;
            self.seen += 1;
            if self.len == BLOCK {
                (self.hash_block)(&self.starts[..], self.from);
                self.starts.copy_within(BLOCK - self.keep.., 0);
                self.len = self.keep;
                self.from = (self.keep - self.sizes.0, self.keep - self.sizes.1);
            }
        }
    }
    let mut blocks =
        Blocks { starts: &mut starts, len, seen, from, keep, sizes: (n, m), hash_block: &mut hash_block };
    scan_starts(text, &mut blocks);
    let Blocks { len, seen, from, .. } = blocks;
    hash_block(&starts[..len], from);
    seen - 1
}

/// Character n-grams of `text`: every run of `n` consecutive grapheme clusters.
/// A text with fewer than `n` clusters yields nothing. `n = 0` yields nothing.
pub fn char_ngrams(text: &str, n: usize) -> CharNgrams<'_> {
    let mut starts = Vec::with_capacity(text.len() + 1);
    grapheme_starts(text, &mut starts);
    CharNgrams { text, starts, n, i: 0 }
}

/// Iterator returned by [`char_ngrams`].
#[derive(Clone, Debug)]
pub struct CharNgrams<'a> {
    text: &'a str,
    starts: Vec<u32>,
    n: usize,
    i: usize,
}

impl<'a> Iterator for CharNgrams<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        if self.n == 0 {
            return None;
        }
        let s = *self.starts.get(self.i)? as usize;
        let e = *self.starts.get(self.i + self.n)? as usize;
        self.i += 1;
        Some(Token { start: s, end: e, text: &self.text[s..e] })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.starts.len().saturating_sub(1) + 1).saturating_sub(self.n + self.i);
        let left = if self.n == 0 { 0 } else { left };
        (left, Some(left))
    }
}

/// Word shingles of `text`: every run of `n` consecutive Unicode words (UAX #29 words
/// that contain a letter or digit; each CJK ideograph is a word of its own). A shingle's
/// span runs from its first word's start to its last word's end; its feature is the
/// words joined by single spaces (see `Shingle::feature_into`), so punctuation and
/// spacing between words do not change it.
pub fn word_shingles(text: &str, n: usize) -> WordShingles<'_> {
    WordShingles {
        text,
        words: text.unicode_word_indices().map(|(s, w)| (s, s + w.len())).collect(),
        n,
        i: 0,
    }
}

/// Iterator returned by [`word_shingles`].
#[derive(Clone, Debug)]
pub struct WordShingles<'a> {
    text: &'a str,
    words: Vec<(usize, usize)>,
    n: usize,
    i: usize,
}

/// One word shingle: its span in the text and its words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shingle<'a> {
    /// Byte offset of the first word's start.
    pub start: usize,
    /// Byte offset of the last word's end.
    pub end: usize,
    /// `&text[start..end]`, with whatever lies between the words.
    pub text: &'a str,
    source: &'a str,
    words: &'a [(usize, usize)],
}

impl<'a> Shingle<'a> {
    /// The words of the shingle.
    pub fn words(&self) -> impl Iterator<Item = &'a str> + 'a {
        let source = self.source;
        self.words.iter().map(move |&(s, e)| &source[s..e])
    }

    /// Writes the shingle's feature (its words joined by single spaces) into `out`.
    pub fn feature_into(&self, out: &mut String) {
        out.clear();
        for (k, w) in self.words().enumerate() {
            if k > 0 {
                out.push(' ');
            }
            out.push_str(w);
        }
    }
}

impl<'a> WordShingles<'a> {
    /// Next shingle, borrowing from the iterator (the word list lives in it).
    pub fn next_shingle(&mut self) -> Option<Shingle<'_>> {
        if self.n == 0 || self.i + self.n > self.words.len() {
            return None;
        }
        let ws = &self.words[self.i..self.i + self.n];
        self.i += 1;
        let (start, end) = (ws[0].0, ws[ws.len() - 1].1);
        Some(Shingle { start, end, text: &self.text[start..end], source: self.text, words: ws })
    }
}

impl<'a> Iterator for WordShingles<'a> {
    type Item = Token<'a>;

    /// The shingle's span; use [`WordShingles::next_shingle`] for its words.
    fn next(&mut self) -> Option<Token<'a>> {
        if self.n == 0 || self.i + self.n > self.words.len() {
            return None;
        }
        let (start, end) = (self.words[self.i].0, self.words[self.i + self.n - 1].1);
        self.i += 1;
        Some(Token { start, end, text: &self.text[start..end] })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lead-byte test is the char test, on every code point.
    #[test]
    fn simple_len_agrees_with_simple_on_every_code_point() {
        let mut buf = [0u8; 4];
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let bytes = c.encode_utf8(&mut buf).as_bytes();
            let want = if simple(c) { c.len_utf8() } else { 0 };
            assert_eq!(simple_len(bytes, 0), want, "U+{:04X}", c as u32);
        }
    }

    /// The ASCII shortcut (no scan for cluster starts) against `char_ngrams`, on ASCII texts
    /// with every kind of control character, CR LF pairs and lone CRs and LFs (texts with a CR
    /// take the scan, which must agree too).
    #[test]
    fn ascii_ngrams_equal_char_ngrams() {
        let pieces =
            ["a", "bc", " ", "\r\n", "\n", "\r", "\t", "\u{0}", "\u{7}", "\u{1B}", "\u{7F}", "~", "Z"];
        let mut rng = crate::test_rng::Rng(0x5EED_A5C1);
        for case in 0..3000 {
            let len = rng.below(40) as usize;
            let text: String = (0..len).map(|_| pieces[rng.below(pieces.len() as u64) as usize]).collect();
            for (n, m) in [(1, 3), (2, 5), (3, 1), (6, 4), (8, 9)] {
                let mut got = Vec::new();
                let mut second = Vec::new();
                let units = for_each_char_ngram_pair(
                    &text,
                    n,
                    |s, e, h| got.push((s, e, h)),
                    Some((m, |h| second.push(h))),
                );
                let want: Vec<_> =
                    char_ngrams(&text, n).map(|g| (g.start, g.end, crate::hash::hash_str(g.text))).collect();
                let want_second: Vec<_> =
                    char_ngrams(&text, m).map(|g| crate::hash::hash_str(g.text)).collect();
                assert_eq!((got, second), (want, want_second), "case {case}: {text:?} n {n} m {m}");
                assert_eq!(units, text.graphemes(true).count(), "case {case}: {text:?}");
            }
        }
    }

    #[test]
    fn boundaries_match_unicode_segmentation_on_tricky_text() {
        for text in [
            "",
            "a",
            "abc de",
            "e\u{301}a",
            "a\u{301}\u{302}b",
            "🇫🇷🇩🇪x",
            "👩\u{200d}👩\u{200d}👧 family",
            "한국어 텍스트",
            "क्षि hindi",
            "上海\u{301}上港",
            "\r\nx\r",
            "x\u{0}y\u{7f}z",
        ] {
            let mut got = Vec::new();
            grapheme_starts(text, &mut got);
            let mut want: Vec<u32> = text.grapheme_indices(true).map(|(i, _)| i as u32).collect();
            want.push(text.len() as u32);
            assert_eq!(got, want, "{text:?}");
        }
    }
}
