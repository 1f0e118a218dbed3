//! JSON lines of documents, one `{"id": ..., "text": "..."}` object a line, read in place
//! from UTF-8 bytes: how the CLI's pool workers read a collection's file, so that the
//! calling thread only cuts it into chunks of whole lines.
//!
//! A line is read as the CLI reads it with `JSON.parse` (`pkg-template/bin`): a line of
//! JS whitespace is no document; anything else must be one JSON object with a string
//! `text`, and an `id` that is absent, `null`, a string or a number (a later member of the
//! same name wins, as in JS). Where a line breaks these rules the reader says how
//! ([`LineError`]); bytes that are not UTF-8 are an error too (JSON is UTF-8, and a text
//! decoded with replacement characters would be fingerprinted wrongly without a word).
//! A `\uD800` escape with no partner is read as U+FFFD, as a JS string carrying it
//! reaches the wasm.

mod json;
#[cfg(test)]
mod tests;

use std::borrow::Cow;

use json::{decode, Kind, Scanner, Value};

/// A document's id as its line gives it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Id<'a> {
    /// No `id`, or `null`: the caller numbers the document.
    Absent,
    /// A string id, decoded.
    Text(Cow<'a, str>),
    /// A number id, as written (JS, which formats numbers its own way, makes it a string).
    Number(&'a str),
    /// A string id holding a lone surrogate, as written with its quotes: only a JS string
    /// can hold it, so the caller decodes it there.
    Surrogate(&'a str),
}

/// One line's document.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Document<'a> {
    pub(crate) id: Id<'a>,
    pub(crate) text: Cow<'a, str>,
}

/// Why a line holds no document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LineError {
    /// Its bytes are not UTF-8.
    NotUtf8,
    /// It is not one JSON value.
    NotJson,
    /// It is JSON, but not an object with a string `text`.
    NotADocument,
    /// Its `id` is neither a string nor a number: the id's bytes are `start..end` of the line.
    BadId { start: usize, end: usize },
}

/// `true` for what JS's `String.prototype.trim` removes.
fn js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}' | '\u{feff}'
    )
}

/// The document of `line` (without its `\n`); `None` for a line of whitespace.
pub(crate) fn document(line: &[u8]) -> Result<Option<Document<'_>>, LineError> {
    let s = std::str::from_utf8(line).map_err(|_| LineError::NotUtf8)?;
    if s.chars().all(js_space) {
        return Ok(None);
    }
    let mut scan = Scanner::new(line);
    scan.ws();
    let (mut id, mut text): (Option<Value>, Option<Value>) = (None, None);
    let top = if scan.peek() == Some(b'{') {
        scan.object(|_, key, value| {
            let raw = &s[key.start..key.end];
            let name = if matches!(key.kind, Kind::String { escaped: true }) {
                decode(raw).0
            } else {
                Cow::Borrowed(raw)
            };
            match &*name {
                "id" => id = Some(value),
                "text" => text = Some(value),
                _ => {}
            }
        })
    } else {
        scan.value().map(|_| ())
    };
    scan.ws();
    if top.is_err() || scan.at != line.len() {
        return Err(LineError::NotJson);
    }
    let text = match text {
        Some(Value { kind: Kind::String { .. }, start, end }) => decode(&s[start..end]).0,
        _ => return Err(LineError::NotADocument),
    };
    let id = match id {
        None | Some(Value { kind: Kind::Null, .. }) => Id::Absent,
        Some(Value { kind: Kind::Number, start, end }) => Id::Number(&s[start..end]),
        Some(Value { kind: Kind::String { .. }, start, end }) => match decode(&s[start..end]) {
            (_, true) => Id::Surrogate(&s[start - 1..end + 1]),
            (id, false) => Id::Text(id),
        },
        Some(Value { kind: Kind::Other, start, end }) => return Err(LineError::BadId { start, end }),
    };
    Ok(Some(Document { id, text }))
}

/// A document of a chunk: where its line is, its id, and what `each` made of its text.
#[derive(Debug)]
pub(crate) struct Placed<'a, T> {
    /// The line's first byte in the chunk.
    pub(crate) offset: usize,
    /// The line's bytes, without its `\n`.
    pub(crate) length: usize,
    pub(crate) id: Id<'a>,
    pub(crate) outcome: T,
}

/// A chunk's documents, in order, up to its first bad line.
#[derive(Debug)]
pub(crate) struct Chunk<'a, T> {
    pub(crate) documents: Vec<Placed<'a, T>>,
    /// The lines read (blank ones too), the bad one included.
    pub(crate) lines: usize,
    /// The first bad line, if any: reading stops there.
    pub(crate) error: Option<BadLine>,
}

/// A line that holds no document, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BadLine {
    /// Its index in the chunk, from 0.
    pub(crate) line: usize,
    /// Its first byte in the chunk.
    pub(crate) offset: usize,
    pub(crate) error: LineError,
}

/// Reads `bytes`, whole lines (the last one may lack its `\n`), and gives each document's
/// text to `each`.
pub(crate) fn read_chunk<T>(bytes: &[u8], mut each: impl FnMut(&str) -> T) -> Chunk<'_, T> {
    let mut chunk = Chunk { documents: Vec::new(), lines: 0, error: None };
    let mut start = 0;
    while start < bytes.len() {
        let end = bytes[start..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |i| start + i);
        let line = &bytes[start..end];
        chunk.lines += 1;
        match document(line) {
            Ok(Some(d)) => {
                let outcome = each(&d.text);
                chunk.documents.push(Placed { offset: start, length: line.len(), id: d.id, outcome });
            }
            Ok(None) => {}
            Err(e) => {
                chunk.error = Some(BadLine { line: chunk.lines - 1, offset: start, error: e });
                break;
            }
        }
        start = end + 1;
    }
    chunk
}
