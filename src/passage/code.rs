//! Copied code: the lines of a text that read as code ([`is_code_line`]) are cut into
//! tokens ([`tokens`]), and their k-grams winnowed ([`super::winnow`]) into fingerprints,
//! as MOSS and copydetect do. A submission's fingerprints are looked up in those of the
//! references; matches near each other on both sides are one region; a region is a copy
//! when it shares enough of its k-grams with the reference's region (see
//! [`CodeIndex::find`]).
//!
//! Code needs its own path because its lines are short (`}`, `x = 0;`), share much with
//! unrelated code (`exit(EXIT_FAILURE);`), and a copy is often edited by renaming: the
//! sentences and word pairs the prose path matches on find few of its copies.

use super::winnow::{kgrams, winnow};
use crate::hash::hash_bytes;

/// The code path's settings.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    /// Tokens per k-gram.
    pub k: usize,
    /// k-grams per winnowing window: a shared run of `w + k - 1` tokens is always found.
    pub w: usize,
    /// Fingerprint matches at most this many tokens apart on both sides are one region.
    pub gap: usize,
    /// The least share of a region's k-grams found in the reference's region.
    pub threshold: f64,
    /// The least number of shared fingerprints not common across the references.
    pub min_shared: f64,
    /// The least number of tokens of a region: a shorter one is an idiom as often as a
    /// copy (`if (s != 0) handle_error_en(s, "pthread_create");`).
    pub min_tokens: usize,
    /// 0: tokens as written; 1: numbers and literals normalised.
    pub norm: u8,
    /// Whether the second stream (identifiers normalised too) is matched.
    pub rename: bool,
    /// A region matched on the second stream only: the least share of its k-grams.
    pub rename_threshold: f64,
    /// A region matched on the second stream only: the least number of shared
    /// fingerprints not common across the references.
    pub rename_min_shared: f64,
    /// A region matched on the second stream only: the least number of tokens.
    pub rename_min_tokens: usize,
    /// A line is code when one in this many of its characters are marks.
    pub marks: usize,
}

impl Params {
    /// The settings in use, as measured on `npm run quality:passages` (decision record 080):
    /// k-grams of 4 tokens winnowed in windows of 4 (any shared run of 7 tokens is found),
    /// regions of matches at most 8 tokens apart, 70 % of a region's k-grams found in the
    /// reference, 4 rare shared fingerprints and 32 tokens; a renamed copy needs 90 %, 8
    /// and 60 tokens; a line is code at 1 mark in 20 characters (5 %).
    pub const DEFAULT: Params = Params {
        k: 4,
        w: 4,
        gap: 8,
        threshold: 0.7,
        min_shared: 4.0,
        min_tokens: 32,
        norm: 0,
        rename: true,
        rename_threshold: 0.9,
        rename_min_shared: 8.0,
        rename_min_tokens: 60,
        marks: 20,
    };
}

/// The brackets, operators and marks of code (C's, and those of man-page references such
/// as `fork(2)`).
fn is_mark(c: char) -> bool {
    matches!(
        c,
        '(' | ')' | '{' | '}' | '[' | ']' | ';' | '=' | '*' | '&' | '|' | '<' | '>' | '#' | '"' | '\\'
    )
}

/// Whether a line reads as code: at least 1 in `marks_per` of its non-whitespace
/// characters are the marks of code (`is_mark`), and it is not mostly CJK characters
/// ([`is_cjk_line`]).
pub fn is_code_line(line: &str, marks_per: usize) -> bool {
    let (mut marks, mut all) = (0usize, 0usize);
    for c in line.chars().filter(|c| !c.is_whitespace()) {
        all += 1;
        marks += usize::from(is_mark(c));
    }
    all > 0 && marks_per * marks >= all && !is_cjk_line(line)
}

/// Whether CJK characters are half or more of a line's non-whitespace characters: Chinese
/// prose that quotes a name (`"printcap"`) or a table row of Chinese words, which the
/// sentence path matches, not code (whose syntax is Latin, a Chinese comment aside).
pub fn is_cjk_line(line: &str) -> bool {
    let (mut cjk, mut all) = (0usize, 0usize);
    for c in line.chars().filter(|c| !c.is_whitespace()) {
        all += 1;
        cjk += usize::from(super::shingle::is_cjk(c));
    }
    all > 0 && 2 * cjk >= all
}

/// One token of code: its hash as written and as normalised, and where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// The hash of the token as written.
    pub raw: u64,
    /// The hash of its class for an identifier, a number or a string (a keyword, an
    /// operator or a bracket as written).
    pub norm: u64,
    /// Byte range.
    pub start: usize,
    /// Byte offset just past it.
    pub end: usize,
    /// UTF-16 offset of the start.
    pub start_utf16: usize,
    /// UTF-16 offset just past it.
    pub end_utf16: usize,
    /// The block of code it is in: lines of code with no prose between them
    /// ([`code_lines`]).
    pub block: u32,
    /// On a line of boilerplate (`#include`, `#define`): its k-grams do not count as
    /// evidence of a copy.
    pub boiler: bool,
    /// A word, a number or a literal: what a k-gram needs to be a fingerprint (a run of
    /// brackets and operators alone, `) ; } }` or a table's `|---+---|`, is layout found
    /// in any code).
    pub content: bool,
}

/// Words that keep their hash when identifiers are normalised: the keywords and built-in
/// types of C, C++, Java, JavaScript, Python, Rust, Go and the shell.
const KEYWORDS: &[&str] = &[
    "and",
    "as",
    "async",
    "auto",
    "await",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "continue",
    "def",
    "default",
    "defer",
    "define",
    "del",
    "do",
    "done",
    "double",
    "elif",
    "else",
    "enum",
    "esac",
    "except",
    "extern",
    "false",
    "fi",
    "finally",
    "float",
    "fn",
    "for",
    "func",
    "function",
    "go",
    "goto",
    "if",
    "ifdef",
    "ifndef",
    "impl",
    "import",
    "in",
    "include",
    "int",
    "interface",
    "is",
    "lambda",
    "let",
    "long",
    "loop",
    "match",
    "mod",
    "mut",
    "new",
    "nil",
    "none",
    "not",
    "null",
    "or",
    "package",
    "pass",
    "private",
    "protected",
    "pub",
    "public",
    "raise",
    "register",
    "return",
    "self",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "super",
    "switch",
    "then",
    "this",
    "throw",
    "true",
    "try",
    "typedef",
    "typeof",
    "union",
    "unsigned",
    "use",
    "var",
    "void",
    "volatile",
    "while",
    "with",
    "yield",
];

/// Operators of two characters kept as one token.
const PAIRS: &[&str] = &[
    "->", "++", "--", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "+=", "-=", "*=", "/=", "%=", "&=",
    "|=", "^=", "::", "=>",
];

const IDENT: u64 = 0x1d3e_4f50_6172_8394;
const NUMBER: u64 = 0x2e4f_5061_7283_94a5;
const STRING: u64 = 0x3f50_6172_8394_a5b6;

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The tokens of `text` inside byte ranges `lines` (sorted, not overlapping), in order:
/// words (identifiers and keywords), numbers, string and character literals closed on
/// their line, operators of two characters (`PAIRS`) and single marks. A CJK character
/// is a word of its own. Identifiers, numbers and literals are normalised to their class in
/// [`Token::norm`]; keywords (`KEYWORDS`) and marks are not.
pub fn tokens(text: &str, lines: &[CodeLine]) -> Vec<Token> {
    let mut out = Vec::new();
    // UTF-16 offset of byte `b`, counted forward from the last one asked.
    let (mut at, mut at16) = (0usize, 0usize);
    let mut u16_of = |b: usize| {
        at16 += text[at..b].chars().map(char::len_utf16).sum::<usize>();
        at = b;
        at16
    };
    let mut lower = String::new();
    for &CodeLine { start: ls, end: le, block } in lines {
        let line = &text[ls..le];
        let boiler = {
            let t = line.trim_start_matches(|c: char| c == '#' || c.is_whitespace());
            line.starts_with('#') && (t.starts_with("include") || t.starts_with("define"))
        };
        let mut it = line.char_indices().peekable();
        while let Some((i, c)) = it.next() {
            if c.is_whitespace() {
                continue;
            }
            let mut e = i + c.len_utf8();
            let (raw, norm);
            let mut content = true;
            if super::shingle::is_cjk(c) {
                raw = hash_bytes(&line.as_bytes()[i..e]);
                norm = IDENT;
            } else if is_word(c) {
                while let Some(&(j, d)) = it.peek() {
                    // A number's decimal point stays inside it.
                    if is_word(d) || (d == '.' && c.is_ascii_digit()) {
                        e = j + d.len_utf8();
                        it.next();
                    } else {
                        break;
                    }
                }
                let w = &line[i..e];
                lower.clear();
                lower.extend(w.chars().flat_map(char::to_lowercase));
                raw = hash_bytes(lower.as_bytes());
                norm = if c.is_ascii_digit() {
                    NUMBER
                } else if KEYWORDS.binary_search(&lower.as_str()).is_ok() {
                    raw
                } else {
                    IDENT
                };
            } else if (c == '"' || c == '\'') && line[e..].contains(c) {
                // A literal closed on its line (an apostrophe in a comment is not one).
                let close = e + line[e..].find(c).unwrap_or(0);
                if c == '\'' && close - e > 4 {
                    raw = hash_bytes(&line.as_bytes()[i..e]);
                    norm = raw;
                    content = false;
                } else {
                    e = close + 1;
                    while it.peek().is_some_and(|&(j, _)| j < e) {
                        it.next();
                    }
                    raw = hash_bytes(&line.as_bytes()[i..e]);
                    norm = STRING;
                }
            } else {
                if let Some(&(j, d)) = it.peek() {
                    if j == e && PAIRS.contains(&&line[i..j + d.len_utf8()]) {
                        e = j + d.len_utf8();
                        it.next();
                    }
                }
                raw = hash_bytes(&line.as_bytes()[i..e]);
                norm = raw;
                content = false;
            }
            let (start, end) = (ls + i, ls + e);
            let start_utf16 = u16_of(start);
            let end_utf16 = u16_of(end);
            out.push(Token { raw, norm, start, end, start_utf16, end_utf16, block, boiler, content });
        }
    }
    out
}

/// A line of code: its byte range, trimmed, and its block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodeLine {
    /// Byte offset of its first character.
    pub start: usize,
    /// Byte offset just past its last.
    pub end: usize,
    /// Lines of code with no prose between them share a block; a line of prose (of
    /// [`PROSE_WORDS`] words or more) between two lines of code starts a new one.
    pub block: u32,
}

/// A line that is not code, with this many words or more, is prose: it ends a block of
/// code (`static int` or `else` inside a function does not).
pub const PROSE_WORDS: usize = 4;

/// The lines of `text` that read as code: those that do alone ([`is_code_line`]), and
/// those with a mark of code next to one that does (`return total;` between two lines of
/// code has too few marks to read as code alone).
pub fn code_lines(text: &str, marks: usize) -> Vec<CodeLine> {
    // (range, reads as code alone, has a mark and is not mostly CJK, words) of each
    // non-blank line.
    let mut lines: Vec<((usize, usize), bool, bool, usize)> = Vec::new();
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if !t.is_empty() {
            let s = pos + (line.len() - line.trim_start().len());
            let words = t.split_whitespace().count();
            lines.push((
                (s, s + t.len()),
                is_code_line(t, marks),
                t.chars().any(is_mark) && !is_cjk_line(t),
                words,
            ));
        }
        pos += line.len();
    }
    let alone = |i: usize| lines.get(i).is_some_and(|l| l.1);
    let mut out = Vec::new();
    let mut block = 0u32;
    for (i, l) in lines.iter().enumerate() {
        if alone(i) || (l.2 && ((i > 0 && alone(i - 1)) || alone(i + 1))) {
            out.push(CodeLine { start: l.0 .0, end: l.0 .1, block });
        } else if l.3 >= PROSE_WORDS && out.last().is_some_and(|c: &CodeLine| c.block == block) {
            block += 1;
        }
    }
    out
}

/// The two token streams matched: as written (numbers and literals by their class, see
/// [`Params::norm`]), and with identifiers by their class too (a copy with renamed
/// variables).
pub const STREAMS: usize = 2;

/// A text's code: its tokens, and the k-grams and fingerprints of both streams.
#[derive(Clone, Debug, Default)]
pub struct CodeText {
    /// The tokens of its code lines, in order.
    pub tokens: Vec<Token>,
    /// Per stream, the hash of each k-gram, by its first token.
    pub grams: [Vec<u64>; STREAMS],
    /// Per stream, the fingerprints: `(hash, position)` of the winnowed k-grams.
    pub prints: [Vec<(u64, usize)>; STREAMS],
}

impl CodeText {
    /// The code of `text`.
    pub fn new(text: &str, p: &Params) -> CodeText {
        let tokens = tokens(text, &code_lines(text, p.marks));
        let stream = |s: usize| -> Vec<u64> {
            tokens
                .iter()
                .map(|t| match (s, p.norm) {
                    (0, 0) => t.raw,
                    (0, _) if t.norm == IDENT => t.raw,
                    // The second stream's hashes differ from the first's.
                    (1, _) => t.norm ^ 0x5bd1_e995_5bd1_e995,
                    _ => t.norm,
                })
                .collect()
        };
        let grams: [Vec<u64>; STREAMS] =
            [kgrams(&stream(0), p.k), if p.rename { kgrams(&stream(1), p.k) } else { Vec::new() }];
        // A k-gram with no word, number or literal ([`Token::content`]) is never a
        // fingerprint: it takes the greatest hash, so a window's choice stays a function of
        // its k-grams alone, and is dropped when a window holds nothing else.
        let prints = [0, 1].map(|s| {
            let h: Vec<u64> = grams[s]
                .iter()
                .enumerate()
                .map(|(i, &g)| {
                    if tokens[i..i + p.k].iter().any(|t| t.content) {
                        g.min(u64::MAX - 1)
                    } else {
                        u64::MAX
                    }
                })
                .collect();
            let mut w = winnow(&h, p.w);
            w.retain(|x| x.0 != u64::MAX);
            w
        });
        CodeText { tokens, grams, prints }
    }
}

/// A copied region of code: token ranges (first, last) on both sides, and the share of the
/// submission region's k-grams found in the reference region.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CodeMatch {
    /// The reference's number.
    pub doc: usize,
    /// First and last token of the submission's code.
    pub sub: (usize, usize),
    /// First and last token of the reference's code.
    pub re: (usize, usize),
    /// The share of the submission region's k-grams found in the reference region.
    pub similarity: f64,
    /// The Jaccard similarity of the two regions' k-grams.
    pub jaccard: f64,
}

/// The references' code, and an index of their fingerprints.
#[derive(Clone, Debug, Default)]
pub struct CodeIndex {
    /// Each reference's code.
    pub texts: Vec<CodeText>,
    /// Per stream, (fingerprint, reference, position), sorted by fingerprint once a lookup
    /// needs it.
    index: [Vec<(u64, u32, u32)>; STREAMS],
    sorted: bool,
}

/// The most postings of one fingerprint in one reference taken (a `} }` repeated).
const PER_DOC: usize = 8;

/// The sorted, distinct values of `v`.
fn set_of(v: &[u64]) -> Vec<u64> {
    let mut v = v.to_vec();
    v.sort_unstable();
    v.dedup();
    v
}

impl CodeIndex {
    /// The settings in force.
    pub fn params(&self) -> Params {
        Params::DEFAULT
    }

    /// Adds the code of the next reference.
    pub fn add(&mut self, text: &str) {
        let p = self.params();
        let t = CodeText::new(text, &p);
        let doc = self.texts.len() as u32;
        for s in 0..STREAMS {
            self.index[s].extend(t.prints[s].iter().map(|&(h, i)| (h, doc, i as u32)));
        }
        self.sorted = false;
        self.texts.push(t);
    }

    fn postings(&self, s: usize, h: u64) -> &[(u64, u32, u32)] {
        let x = &self.index[s];
        let lo = x.partition_point(|e| e.0 < h);
        let hi = lo + x[lo..].partition_point(|e| e.0 == h);
        &x[lo..hi]
    }

    /// The number of references holding fingerprint `h` of stream `s`.
    fn docs_holding(&self, s: usize, h: u64) -> usize {
        let mut docs = 0;
        let mut last = u32::MAX;
        for e in self.postings(s, h) {
            if e.1 != last {
                last = e.1;
                docs += 1;
            }
        }
        docs
    }

    /// The copied regions of code `sub` (a submission's [`CodeText`]), on both streams.
    pub fn find(&mut self, sub: &CodeText) -> Vec<CodeMatch> {
        if !self.sorted {
            for x in &mut self.index {
                crate::sort::sort_by_u64_key_stable(x, |e| e.0);
            }
            self.sorted = true;
        }
        let mut out = self.find_on(sub, 0);
        if self.params().rename {
            out.extend(self.find_on(sub, 1));
        }
        // A region that another reference holds whole, and more around it, at a similarity
        // as high, is that reference's: a `SEE ALSO` list's few shared entries, or a block
        // of `#include` lines, are found in many texts, the copy in its source.
        let dominated = |b: &CodeMatch| {
            out.iter().any(|a| {
                a.doc != b.doc
                    && a.sub.0 <= b.sub.0
                    && a.sub.1 >= b.sub.1
                    && a.sub != b.sub
                    && a.similarity >= b.similarity
            })
        };
        let keep: Vec<bool> = out.iter().map(|b| !dominated(b)).collect();
        let mut keep = keep.into_iter();
        out.retain(|_| keep.next().unwrap_or(true));
        out
    }

    /// The match of the run of submission k-grams `hit` (positions, found in the k-grams
    /// `ra..=rb` of reference `doc`, stream `s`) when it reaches the threshold, the least
    /// number of shared fingerprints not common across the references, and the least
    /// number of tokens.
    fn verify(
        &self,
        sub: &CodeText,
        s: usize,
        doc: usize,
        hit: &[usize],
        (ra, rb): (usize, usize),
        (threshold, min_shared, min_tokens): (f64, f64, usize),
    ) -> Option<CodeMatch> {
        let p = self.params();
        let r = &self.texts[doc];
        let n = self.texts.len();
        let (&f, &l) = (hit.first()?, hit.last()?);
        let similarity = hit.len() as f64 / (l + 1 - f) as f64;
        if similarity < threshold || l + p.k - f < min_tokens {
            return None;
        }
        let set = set_of(&r.grams[s][ra..=rb]);
        // Shared fingerprints not on boilerplate lines, each by its rarity across the
        // references.
        let common = (n / 2).max(3);
        let one = crate::math::ln(1.0 + n as f64);
        let prints: Vec<u64> = set_of(
            &sub.prints[s]
                .iter()
                .filter(|x| (f..=l).contains(&x.1) && !sub.tokens[x.1..x.1 + p.k].iter().all(|t| t.boiler))
                .filter(|x| set.binary_search(&x.0).is_ok())
                .map(|x| x.0)
                .collect::<Vec<u64>>(),
        );
        let rare: f64 = prints
            .iter()
            .map(|&h| self.docs_holding(s, h))
            .filter(|&d| d < common)
            .map(|d| crate::math::ln(1.0 + n as f64 / d.max(1) as f64) / one)
            .sum();
        if rare < min_shared {
            return None;
        }

        // The reference side: the k-grams the copy shares, in the block holding most of
        // them, from the first to the last.
        let mine = set_of(&sub.grams[s][f..=l]);
        let rhit: Vec<usize> = (ra..=rb)
            .filter(|&i| r.tokens[i].block == r.tokens[i + p.k - 1].block)
            .filter(|&i| mine.binary_search(&r.grams[s][i]).is_ok())
            .collect();
        let best =
            rhit.chunk_by(|&a, &b| r.tokens[a].block == r.tokens[b].block).max_by_key(|run| run.len())?;
        let (rf, rl) = (best[0], best[best.len() - 1]);
        let jaccard = super::shingle::jaccard(&mine, &set_of(&r.grams[s][rf..=rl]));
        Some(CodeMatch { doc, sub: (f, l + p.k - 1), re: (rf, rl + p.k - 1), similarity, jaccard })
    }

    /// The copied regions of code `sub` found on stream `s`.
    fn find_on(&mut self, sub: &CodeText, s: usize) -> Vec<CodeMatch> {
        let p = self.params();
        let (threshold, min_shared, min_tokens) = if s == 0 {
            (p.threshold, p.min_shared, p.min_tokens)
        } else {
            (p.rename_threshold, p.rename_min_shared, p.rename_min_tokens)
        };
        let n = self.texts.len();
        let mut pairs: Vec<Vec<super::merge::RangePair>> = vec![Vec::new(); n];
        for &(h, i) in &sub.prints[s] {
            let mut last = u32::MAX;
            let mut taken = 0;
            for e in self.postings(s, h) {
                if e.1 != last {
                    last = e.1;
                    taken = 0;
                }
                taken += 1;
                if taken > PER_DOC {
                    continue;
                }
                let q = e.2 as usize;
                pairs[e.1 as usize]
                    .push(super::merge::RangePair { sub: (i, i + p.k - 1), re: (q, q + p.k - 1) });
            }
        }
        let mut out = Vec::new();
        for (doc, ps) in pairs.into_iter().enumerate() {
            if ps.is_empty() {
                continue;
            }
            let r = &self.texts[doc];
            for c in super::merge::merge(ps, p.gap) {
                // The k-grams inside each side's region, grown by a window (the first
                // fingerprint of a shared run lies up to a window into it).
                let kg = |t: &CodeText, (a, b): (usize, usize)| -> (usize, usize) {
                    let last = t.grams[s].len().saturating_sub(1);
                    (a.saturating_sub(p.w), ((b + 1).saturating_sub(p.k) + p.w).min(last))
                };
                let (ra, rb) = kg(r, c.re);
                let set = set_of(&r.grams[s][ra..=rb]);
                let (sa, sb) = kg(sub, c.sub);
                // The submission's k-grams found in the reference region, none reaching
                // across two blocks, cut into runs of one block each.
                let within = |t: &CodeText, i: usize| t.tokens[i].block == t.tokens[i + p.k - 1].block;
                let hits: Vec<usize> = (sa..=sb)
                    .filter(|&i| within(sub, i) && set.binary_search(&sub.grams[s][i]).is_ok())
                    .collect();
                for run in
                    hits.chunk_by(|&a, &b| sub.tokens[a].block == sub.tokens[b].block && b - a <= p.gap)
                {
                    let run = trim_edges(run, p.w);
                    if let Some(m) =
                        self.verify(sub, s, doc, run, (ra, rb), (threshold, min_shared, min_tokens))
                    {
                        out.push(m);
                    }
                }
            }
        }
        out
    }
}

/// `hits` (sorted k-gram positions) without the runs of consecutive positions at either end
/// shorter than `w`: a shared run of fewer than `w + k - 1` tokens is below what winnowing
/// promises to find, and at a region's edge it is most often a common idiom
/// (`exit(EXIT_FAILURE); }`) next to the copy, not a part of it.
fn trim_edges(hits: &[usize], w: usize) -> &[usize] {
    let runs: Vec<&[usize]> = hits.chunk_by(|&a, &b| b == a + 1).collect();
    let Some(first) = runs.iter().position(|r| r.len() >= w) else { return &[] };
    let last = runs.iter().rposition(|r| r.len() >= w).unwrap_or(first);
    let start = runs[..first].iter().map(|r| r.len()).sum::<usize>();
    let end = runs[..=last].iter().map(|r| r.len()).sum::<usize>();
    &hits[start..end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passage::{PassageChecker, PassageOptions};

    /// Prose of `n` sentences from seed `s`, with no marks of code.
    fn prose(mut s: u64, n: usize) -> String {
        const WORDS: &[&str] = &[
            "river", "garden", "window", "slowly", "bright", "teacher", "mountain", "letter", "quiet",
            "harbour", "evening", "silver", "market", "winter", "candle", "forest", "music", "stone",
            "bridge", "morning", "yellow", "friend", "village", "paper", "ocean", "simple", "travel",
        ];
        let mut out = Vec::new();
        for _ in 0..n {
            let mut words = Vec::new();
            for _ in 0..9 {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                words.push(WORDS[(s >> 33) as usize % WORDS.len()]);
            }
            out.push(format!("The {}.", words.join(" ")));
        }
        out.join(" ")
    }

    const FUNCTION: &str = "static int\ncount_words(const char *line)\n{\n    int n = 0, in_word = 0;\n\
        for (; *line; line++) {\n        if (isspace(*line)) {\n            in_word = 0;\n        } else if (!in_word) {\n\
        in_word = 1;\n            n++;\n        }\n    }\n    return n;\n}";

    #[test]
    fn code_lines_are_told_from_prose() {
        for code in [
            "int n = 0, in_word = 0;",
            "}",
            "#include <stdio.h>",
            "for (; *line; line++) {",
            "fork(2), wait(2), execve(2), pipe(2)",
            "if (argc < 2) {",
        ] {
            assert!(is_code_line(code, Params::DEFAULT.marks), "{code}");
        }
        for text in [
            "The quick brown fox jumps over the lazy dog.",
            "See the manual for details (it is long), and read it twice before you start.",
            "我们在河边的小村庄里住了很多年。",
            "",
        ] {
            assert!(!is_code_line(text, Params::DEFAULT.marks), "{text}");
        }
        let text = format!("{}\n\n{FUNCTION}\n\n{}", prose(1, 3), prose(2, 2));
        let lines: Vec<&str> =
            code_lines(&text, Params::DEFAULT.marks).iter().map(|l| &text[l.start..l.end]).collect();
        let want: Vec<&str> = FUNCTION
            .lines()
            .map(str::trim)
            .filter(|l| is_code_line(l, Params::DEFAULT.marks) && !l.is_empty())
            .collect();
        assert_eq!(lines, want);
        // Everything but `static int` (no marks) is code.
        assert_eq!(lines.len(), FUNCTION.lines().count() - 1);
    }

    #[test]
    fn chinese_prose_and_table_rows_are_not_code_and_layout_is_no_fingerprint() {
        let m = Params::DEFAULT.marks;
        // Chinese prose quoting names, and a table row of Chinese words: prose.
        for text in ["這個布林值控制是否在\"printcap\"檔案中的所有印表機", "|-s      |模拟命令的结果    |"]
        {
            assert!(!is_code_line(text, m), "{text}");
        }
        // Code with a Chinese string is still code.
        assert!(is_code_line("printf(\"%s: %d\\n\", name, n);  // 行数", m));
        // A table's rule lines are code by their marks, but hold no word: no fingerprint.
        let rules = "|----------+----------|\n|----------+----------|\n|----------+----------|\n";
        let t = CodeText::new(rules, &Params::DEFAULT);
        assert!(!t.tokens.is_empty());
        assert!(t.prints.iter().all(Vec::is_empty), "{:?}", t.prints);
        // Beside words, only the k-grams with a word are fingerprints.
        let text = format!("{rules}x = f(1);\n}} }} }} }} }}\n");
        let t = CodeText::new(&text, &Params::DEFAULT);
        let k = Params::DEFAULT.k;
        assert!(!t.prints[0].is_empty());
        assert!(t.prints[0].iter().all(|&(_, i)| t.tokens[i..i + k].iter().any(|t| t.content)));
    }

    #[test]
    fn trim_edges_drops_short_runs_at_either_end_only() {
        // Runs (1), (5..9), (12), (20..24), (30, 31).
        let hits = [1, 5, 6, 7, 8, 12, 20, 21, 22, 23, 30, 31];
        assert_eq!(trim_edges(&hits, 4), &[5, 6, 7, 8, 12, 20, 21, 22, 23]);
        assert_eq!(trim_edges(&hits, 5), &[] as &[usize]);
        assert_eq!(trim_edges(&hits, 1), &hits);
        assert_eq!(trim_edges(&[], 4), &[] as &[usize]);
    }

    #[test]
    fn tokens_normalise_identifiers_numbers_and_literals() {
        let text = "x1 = foo(42, \"hi there\") -> y;";
        let t = tokens(text, &[CodeLine { start: 0, end: text.len(), block: 0 }]);
        let words: Vec<&str> = t.iter().map(|t| &text[t.start..t.end]).collect();
        assert_eq!(words, ["x1", "=", "foo", "(", "42", ",", "\"hi there\"", ")", "->", "y", ";"]);
        let norm: Vec<u64> = t.iter().map(|t| t.norm).collect();
        assert_eq!((norm[0], norm[2], norm[9]), (IDENT, IDENT, IDENT));
        assert_eq!((norm[4], norm[6]), (NUMBER, STRING));
        assert_eq!(norm[1], t[1].raw);
        // Keywords keep their own hash.
        let k = "return sizeof(int);";
        let t = tokens(k, &[CodeLine { start: 0, end: k.len(), block: 0 }]);
        assert!(t.iter().all(|t| t.norm == t.raw), "{t:?}");
        // UTF-16 offsets count from the text's start.
        let text = "说明：\nx = f(1);";
        let t = tokens(text, &[CodeLine { start: 10, end: text.len(), block: 0 }]);
        assert_eq!((t[0].start, t[0].start_utf16), (10, 4));
    }

    fn check(reference: &str, submission: &str) -> Vec<(String, f64)> {
        let mut c = PassageChecker::new(PassageOptions::default()).unwrap();
        c.add_reference(reference).unwrap();
        for i in 0..4 {
            c.add_reference(&prose(100 + i, 12)).unwrap();
        }
        let r = c.check(submission).unwrap();
        r.references
            .iter()
            .flat_map(|x| &x.matches)
            .map(|m| (submission[m.submission_span.start..m.submission_span.end].to_string(), m.similarity))
            .collect()
    }

    #[test]
    fn a_copied_function_with_renamed_identifiers_is_found() {
        let renamed = FUNCTION
            .replace("count_words", "num_tokens")
            .replace("in_word", "inside")
            .replace("line", "s")
            .replace("n++", "total++")
            .replace("int n", "int total")
            .replace("return n", "return total");
        assert!(!renamed.contains("line") && renamed.contains("total"));
        let reference = format!("{}\n\n{FUNCTION}\n\n{}", prose(10, 4), prose(11, 4));
        let submission = format!("{}\n\n{renamed}\n\n{}", prose(12, 3), prose(13, 3));
        let found = check(&reference, &submission);
        assert_eq!(found.len(), 1, "{found:?}");
        // From its first line with marks to its end.
        assert_eq!(found[0].0, renamed["static int\n".len()..]);
        assert!(found[0].1 >= 0.9, "{found:?}");
        // The prose around it alone, or another function, is no copy.
        let other = "int\nmain(int argc, char *argv[])\n{\n    if (argc < 2) {\n        fprintf(stderr, \"usage: %s file\\n\", argv[0]);\n\
                     exit(EXIT_FAILURE);\n    }\n    printf(\"%d\\n\", atoi(argv[1]) * 2);\n    return 0;\n}";
        let submission = format!("{}\n\n{other}\n\n{}", prose(12, 3), prose(13, 3));
        assert_eq!(check(&reference, &submission), vec![]);
    }

    #[test]
    fn an_edited_code_copy_is_one_span_with_its_short_lines() {
        let edited = FUNCTION.replace(
            "            n++;\n",
            "            n++;\n            printf(\"%d: %c\\n\", n, *line);\n",
        );
        let reference = format!("{}\n\n{FUNCTION}\n\n{}", prose(20, 4), prose(21, 4));
        let submission = format!("{}\n\n{edited}\n\n{}", prose(22, 3), prose(23, 3));
        let found = check(&reference, &submission);
        assert_eq!(found.len(), 1, "{found:?}");
        // With `static int`, which the prose path finds, to `return n;`: the inserted line
        // (more than `Params::gap` tokens) ends the code region, and the rest after it
        // (`} } return n; }`) is too short to be one; the prose path's span reaches
        // `return n;`.
        assert_eq!(found[0].0, edited.strip_suffix("\n}").unwrap());
        // The higher of the joined spans' similarities: the code region's, before the
        // inserted line.
        assert!(found[0].1 >= 0.7, "{found:?}");
    }
}
