//! Cutting a text into sentences, and byte ranges into [`Span`]s.

use super::Span;

/// `(s, e)` narrowed to exclude surrounding whitespace; `None` when nothing remains.
fn trim_range(text: &str, s: usize, e: usize) -> Option<(usize, usize)> {
    let piece = text.get(s..e)?;
    let lead = piece.len() - piece.trim_start().len();
    let trimmed = piece.trim();
    (!trimmed.is_empty()).then(|| (s + lead, s + lead + trimmed.len()))
}

fn is_closer(c: char) -> bool {
    matches!(c, '"' | '\'' | ')' | ']' | '”' | '’' | '」' | '』' | '）' | '》' | '】')
}

fn is_end(c: char) -> bool {
    matches!(c, '.' | '!' | '?' | '…' | '。' | '！' | '？' | '；')
}

/// Byte ranges of the sentences of `text`, trimmed, in order.
///
/// A sentence ends at a line break; after `.`, `!`, `?` or `…` followed by whitespace;
/// and after `。`, `！`, `？` or `；` (with any closing quotes or brackets after them).
///
/// ```
/// use simhash_wasm::passage::sentences;
/// let t = "One. Two! Pi is 3.14\nFour。五！“六？”七";
/// let s: Vec<&str> = sentences(t).iter().map(|&(a, b)| &t[a..b]).collect();
/// assert_eq!(s, ["One.", "Two!", "Pi is 3.14", "Four。", "五！", "“六？”", "七"]);
/// ```
pub fn sentences(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut it = text.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        let end = if c == '\n' || c == '\r' {
            Some(i)
        } else if is_end(c) {
            let wide = c > '\u{2fff}';
            let mut wide_run = wide;
            let mut j = i + c.len_utf8();
            while let Some(&(k, d)) = it.peek() {
                if !(is_end(d) || is_closer(d)) {
                    break;
                }
                wide_run |= d > '\u{2fff}' && is_end(d);
                j = k + d.len_utf8();
                it.next();
            }
            let next = it.peek().map(|&(_, d)| d);
            (wide_run || next.is_none_or(char::is_whitespace)).then_some(j)
        } else {
            None
        };
        if let Some(e) = end {
            out.extend(trim_range(text, start, e));
            start = e;
        }
    }
    out.extend(trim_range(text, start, text.len()));
    out
}

/// Adds UTF-16 offsets to byte ranges that are sorted by start (and by end).
pub(crate) fn to_spans(text: &str, ranges: &[(usize, usize)]) -> Vec<Span> {
    let mut spans = Vec::with_capacity(ranges.len());
    // Byte offsets come in increasing order within each of starts and ends, so two
    // cursors walk the text once.
    let (mut b, mut u) = (0usize, 0usize);
    let advance = |to: usize, b: &mut usize, u: &mut usize| {
        if to < *b {
            *b = 0;
            *u = 0;
        }
        *u += text[*b..to].chars().map(char::len_utf16).sum::<usize>();
        *b = to;
        *u
    };
    let (mut b2, mut u2) = (0usize, 0usize);
    for &(s, e) in ranges {
        let start_utf16 = advance(s, &mut b, &mut u);
        let end_utf16 = advance(e, &mut b2, &mut u2);
        spans.push(Span { start: s, end: e, start_utf16, end_utf16 });
    }
    spans
}
