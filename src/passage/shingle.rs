//! The exact measure: sets of shingles, and their containment and Jaccard.
//!
//! A sentence's shingles are the pairs of its tokens at most one apart (each token with
//! the next and with the one after: `a b c` gives `a b`, `b c` and `a c`) in its
//! normalised text (NFKC, lower case, whitespace collapsed), where a token is a word, or
//! a single Chinese, Japanese or Korean character (one of those carries about as much as
//! a word). Whitespace and punctuation end a word, but for the marks of paths, file names
//! and identifiers (`.`, `/`, `-`, `_`, `<`, `>`, `#`) and apostrophes, which are dropped
//! inside it: so code such as `atoi(argv[3])` is two words, and `<stdio.h>` one. A pair
//! one apart and a pair of neighbours hash alike, so a word replaced, inserted or deleted
//! leaves the pair around it, and two neighbouring words swapped keep most of their pairs
//! (measured against neighbours alone in `docs/decisions/025-passages-sentences-and-word-pairs.md`). They are
//! kept as sorted, distinct 64-bit hashes: exact up to a 2^-64 chance of two different
//! shingles sharing a hash. Word pairs, not character runs, because a character 5-gram
//! like `" the "` is shared by nearly every English sentence, while a pair of words is
//! shared by few (`npm run quality:passages` measures both).

use crate::hash::hash_bytes;
use crate::normalize::{is_punct, is_space, normalize_into, NormalizeOptions, Punctuation};

/// Tokens per shingle (a pair; its two tokens are neighbours or one apart).
pub const SHINGLE: usize = 2;

/// Han, kana, hangul: each character is a token of its own.
pub fn is_cjk(c: char) -> bool {
    matches!(c, '\u{2e80}'..='\u{9fff}' | '\u{ac00}'..='\u{d7af}' | '\u{f900}'..='\u{faff}' | '\u{20000}'..='\u{3ffff}')
}

/// Whether punctuation character `c` stays inside a word (and is dropped from it) rather
/// than ending it: the marks of paths, file names and identifiers (`sys/socket.h`,
/// `EXIT_FAILURE`, `--force`, `<stdio.h>`, `#include`), apostrophes (`don't`) and full
/// stops (`3.14`, `e.g.`). Other punctuation (brackets, commas, semicolons, quotes,
/// operators) ends a word: `atoi(argv[3])` is the words `atoi argv3`, not one word.
fn joins(c: char) -> bool {
    matches!(c, '_' | '\'' | '\u{2019}' | '.' | '/' | '-' | '<' | '>' | '#')
}

/// How character `c` counts when a text is cut into tokens.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Whitespace, or punctuation that ends a word.
    Break,
    /// Punctuation kept out of the word it sits in ([`joins`]).
    Skip,
    /// A CJK character: a token of its own.
    Alone,
    /// Part of a word.
    Word,
}

fn class(c: char) -> Class {
    if is_space(c) {
        Class::Break
    } else if is_punct(c) {
        if joins(c) {
            Class::Skip
        } else {
            Class::Break
        }
    } else if is_cjk(c) {
        Class::Alone
    } else {
        Class::Word
    }
}

/// The hashes of the tokens of normalised text `t`, in order: each word without the
/// punctuation it holds, each CJK character alone.
fn tokens(t: &str) -> Vec<u64> {
    let mut out: Vec<u64> = Vec::new();
    // The word being read, without its skipped punctuation.
    let mut word: Vec<u8> = Vec::new();
    let end = |word: &mut Vec<u8>, out: &mut Vec<u64>| {
        if !word.is_empty() {
            out.push(hash_bytes(word));
            word.clear();
        }
    };
    let mut utf8 = [0u8; 4];
    for c in t.chars() {
        match class(c) {
            Class::Break => end(&mut word, &mut out),
            Class::Skip => {}
            Class::Alone => {
                end(&mut word, &mut out);
                out.push(hash_bytes(c.encode_utf8(&mut utf8).as_bytes()));
            }
            Class::Word => word.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes()),
        }
    }
    end(&mut word, &mut out);
    out
}

/// `text` normalised (NFKC, lower case, whitespace collapsed, punctuation kept for
/// [`tokens`] to cut at) into `buf`, and its token hashes.
fn normalized_tokens(text: &str, buf: &mut String) -> Vec<u64> {
    let opts = NormalizeOptions { punctuation: Punctuation::Keep, ..NormalizeOptions::default() };
    normalize_into(text, &opts, buf);
    tokens(buf)
}

/// The hash of the token pair (`a`, `b`) from the tokens' own hashes: the same for two
/// words next to each other and for two words one apart.
pub fn pair(a: u64, b: u64) -> u64 {
    let mut x = a.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ b;
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The pairs of `h` (token hashes) in order: each token with the next, and with the one
/// after (so a word replaced, inserted or deleted leaves the pair around it).
pub fn pairs(h: &[u64], mut f: impl FnMut(u64, usize, usize)) {
    for i in 0..h.len() {
        if i + 1 < h.len() {
            f(pair(h[i], h[i + 1]), i, i + 1);
        }
        if i + 2 < h.len() {
            f(pair(h[i], h[i + 2]), i, i + 2);
        }
    }
}

/// The sorted, distinct shingle hashes of `text` (see the module docs); a text of fewer
/// than [`SHINGLE`] tokens is one shingle, an empty one has none. `buf` is scratch space.
pub fn shingles(text: &str, buf: &mut String) -> Vec<u64> {
    let h = normalized_tokens(text, buf);
    let mut out: Vec<u64> = Vec::with_capacity(2 * h.len());
    pairs(&h, |x, _, _| out.push(x));
    if out.is_empty() && !h.is_empty() {
        out.push(h[0]);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Byte ranges of the tokens of raw text `t`, as [`tokens`] cuts the normalised text:
/// whitespace and punctuation end a word, but the punctuation that [`joins`] a word is
/// dropped inside it (a word of it alone is none); a CJK character is a token of its own.
fn raw_tokens(t: &str) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    // The current word: its start, and the end of its last kept character.
    let mut word: Option<(usize, usize)> = None;
    for (i, c) in t.char_indices() {
        let e = i + c.len_utf8();
        match class(c) {
            Class::Break => out.extend(word.take()),
            Class::Skip => {}
            Class::Alone => {
                out.extend(word.take());
                out.push((i, e));
            }
            Class::Word => word = Some(word.map_or((i, e), |(s, _)| (s, e))),
        }
    }
    out.extend(word);
    out
}

/// The hash of each token of a text, and the byte range of the raw text it comes from.
pub type Ordered = (Vec<u64>, Vec<(usize, usize)>);

/// The tokens of `text` in order: the hash of each (pair them with [`pair`], [`pairs`])
/// and the byte range of the raw text it comes from; `None` when there are fewer than
/// [`SHINGLE`] tokens or the raw words do not line up with the normalised ones (NFKC
/// splitting or joining a character). Used to trim a span's first and last sentences to
/// their copied part.
pub fn ordered(text: &str, buf: &mut String) -> Option<Ordered> {
    let h = normalized_tokens(text, buf);
    let raw = raw_tokens(text);
    if h.len() < SHINGLE || raw.len() != h.len() {
        return None;
    }
    Some((h, raw))
}

// The set operations on shingle hashes are the crate's one set of them.
pub(crate) use crate::sets::{containment, intersection, jaccard, union};
