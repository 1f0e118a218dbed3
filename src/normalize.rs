//! Text normalisation: NFKC, lower-casing, whitespace collapsing and punctuation handling.
//!
//! The normalised text is what features are cut from, so two texts that differ only in
//! Unicode representation, letter case, spacing or (optionally) punctuation give the same
//! features. In order, for every character:
//!
//! 1. **NFKC** (Unicode compatibility composition), by the `unicode-normalization` crate:
//!    full-width `ＡＢＣ` becomes `ABC`, the ligature `ﬁ` becomes `fi`, `é` written as `e` +
//!    U+0301 becomes one `é`.
//! 2. **Lower case**, by the full Unicode lower-case mapping of each character (as
//!    `char::to_lowercase`; no context-dependent final-sigma rule). This is the case folding
//!    the scheme uses; it agrees with Python's `str.lower()` on everything but final sigma.
//! 3. **Whitespace**: every run of whitespace (`char::is_whitespace`, plus U+001C..U+001F,
//!    which Python's `isspace` also counts) becomes one space; leading and trailing
//!    whitespace is removed.
//! 4. **Punctuation** (general categories P\*, Sm, Sc and Sk: the Unicode counterparts of
//!    ASCII punctuation, so `-`, `=`, `$` and `，` but not letters, digits or emoji) is
//!    handled as [`Punctuation`] says.
//!
//! ```
//! use simhash_wasm::normalize::{normalize, NormalizeOptions, Punctuation};
//! let keep = NormalizeOptions { punctuation: Punctuation::Keep, ..Default::default() };
//! assert_eq!(normalize("  Ｈｅｌｌｏ,\t\nWORLD!!  ", &keep), "hello, world!!");
//! let drop = NormalizeOptions { punctuation: Punctuation::Drop, ..keep };
//! assert_eq!(normalize("Hello, world -- again!", &drop), "hello world again");
//! let collapse = NormalizeOptions { punctuation: Punctuation::Collapse, ..keep };
//! assert_eq!(normalize("Wait!!!  ----- 你好，，世界", &collapse), "wait! - 你好,世界");
//! ```

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// What to do with punctuation characters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Punctuation {
    /// Keep every punctuation character.
    Keep,
    /// Remove punctuation. Spaces around it still collapse: `"a - b"` becomes `"a b"`.
    Drop,
    /// Replace each run of punctuation (with no space inside) by its first character, so
    /// a `-----` separator or `!!!` counts once (the default).
    #[default]
    Collapse,
}

impl Punctuation {
    /// The option's name as the JS API and snapshots spell it.
    pub fn name(self) -> &'static str {
        match self {
            Punctuation::Keep => "keep",
            Punctuation::Drop => "drop",
            Punctuation::Collapse => "collapse",
        }
    }

    /// Parses [`Punctuation::name`].
    pub fn from_name(name: &str) -> Option<Punctuation> {
        match name {
            "keep" => Some(Punctuation::Keep),
            "drop" => Some(Punctuation::Drop),
            "collapse" => Some(Punctuation::Collapse),
            _ => None,
        }
    }
}

/// How text is normalised before features are cut from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NormalizeOptions {
    /// What to do with punctuation.
    pub punctuation: Punctuation,
    /// Apply NFKC. Turning it off is only for texts known to be normalised already.
    pub nfkc: bool,
    /// Lower-case letters.
    pub lowercase: bool,
}

impl Default for NormalizeOptions {
    fn default() -> Self {
        NormalizeOptions { punctuation: Punctuation::Collapse, nfkc: true, lowercase: true }
    }
}

/// Normalises `text` into a new string. See the [module docs](self).
pub fn normalize(text: &str, opts: &NormalizeOptions) -> String {
    let mut out = String::with_capacity(text.len());
    normalize_into(text, opts, &mut out);
    out
}

/// Normalises `text`, replacing the contents of `out` (whose allocation is reused).
pub fn normalize_into(text: &str, opts: &NormalizeOptions, out: &mut String) {
    out.clear();
    out.reserve(text.len());
    let mut sink = Sink { out, opts, pending_space: false, in_punct: false };
    // ASCII is its own NFKC form: an all-ASCII text (most English pages) skips the scan
    // for stretches that need the NFKC machinery.
    if opts.nfkc && !text.is_ascii() {
        nfkc_into(text, &mut sink);
    } else {
        sink.push_str(text);
    }
}

/// The reference implementation: NFKC over the whole text, one character at a time.
/// The fast path in [`normalize_into`] must equal it on every input (property test).
#[doc(hidden)]
pub fn normalize_reference(text: &str, opts: &NormalizeOptions) -> String {
    let mut out = String::new();
    let mut sink = Sink { out: &mut out, opts, pending_space: false, in_punct: false };
    if opts.nfkc {
        text.nfkc().for_each(|c| sink.push(c));
    } else {
        text.chars().for_each(|c| sink.push(c));
    }
    out
}

/// A character that NFKC leaves alone and that never composes with what follows it:
/// ASCII and the two main CJK ideograph blocks. Text made of these skips the NFKC
/// machinery.
#[inline(always)]
fn nfkc_inert(c: char) -> bool {
    (c as u32) < 0x80 || matches!(c as u32, 0x4E00..=0x9FFF | 0x3400..=0x4DBF)
}

/// Feeds the NFKC form of `text` to `sink`. Runs of inert characters skip the NFKC
/// machinery (ASCII bytes go through a byte-level path with no UTF-8 decoding); every other
/// stretch is normalised together with the inert character before it (the starter that
/// combining marks may compose with).
fn nfkc_into(text: &str, sink: &mut Sink<'_>) {
    let bytes = text.as_bytes();
    let mut done = 0; // everything before `done` has been fed
    let mut i = 0;
    while i < bytes.len() {
        // Skip the inert run starting at i, remembering where its last char starts.
        let mut last_inert_start = None;
        while i < bytes.len() {
            let b = bytes[i];
            if b < 0x80 {
                last_inert_start = Some(i);
                i += 1;
                continue;
            }
            let c = text[i..].chars().next().unwrap_or('\0');
            if nfkc_inert(c) {
                last_inert_start = Some(i);
                i += c.len_utf8();
            } else {
                break;
            }
        }
        if i >= bytes.len() {
            sink.push_str(&text[done..]);
            return;
        }
        // A non-inert char at i: it may compose with the inert char before it.
        let seg_start = last_inert_start.unwrap_or(done);
        sink.push_str(&text[done..seg_start]);
        let mut j = i;
        while j < bytes.len() {
            let c = text[j..].chars().next().unwrap_or('\0');
            if nfkc_inert(c) {
                break;
            }
            j += c.len_utf8();
        }
        text[seg_start..j].nfkc().for_each(|c| sink.push(c));
        done = j;
        i = j;
    }
    sink.push_str(&text[done..]);
}

/// Whitespace as the scheme defines it.
#[inline(always)]
pub fn is_space(c: char) -> bool {
    c.is_whitespace() || matches!(c, '\u{1C}'..='\u{1F}')
}

/// Punctuation as the scheme defines it: general categories P*, Sm, Sc, Sk.
#[inline(always)]
pub fn is_punct(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_punctuation();
    }
    use GeneralCategory::*;
    matches!(
        c.general_category(),
        ConnectorPunctuation
            | DashPunctuation
            | OpenPunctuation
            | ClosePunctuation
            | InitialPunctuation
            | FinalPunctuation
            | OtherPunctuation
            | MathSymbol
            | CurrencySymbol
            | ModifierSymbol
    )
}

/// Steps 2-4 of the normalisation, fed one NFKC character at a time.
struct Sink<'a> {
    out: &'a mut String,
    opts: &'a NormalizeOptions,
    /// A space is owed before the next kept character.
    pending_space: bool,
    /// The last kept character was punctuation (for `Collapse`).
    in_punct: bool,
}

/// Byte classes for the ASCII path of [`Sink`].
const WORD: u8 = 0;
const UPPER: u8 = 1;
const SPACE: u8 = 2;
const PUNCT: u8 = 3;

static ASCII_CLASS: [u8; 128] = {
    let mut t = [WORD; 128]; // letters, digits and the controls not counted as space
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = if c.is_ascii_uppercase() {
            UPPER
        } else if matches!(c, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | 0x1C..=0x1F) {
            SPACE
        } else if c.is_ascii_punctuation() {
            PUNCT
        } else {
            WORD
        };
        b += 1;
    }
    t
};

impl Sink<'_> {
    /// Feeds every character of `s` (already in NFKC form), ASCII bytes without decoding.
    #[inline]
    fn push_str(&mut self, s: &str) {
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b < 0x80 {
                self.push_ascii(b);
                i += 1;
            } else {
                let c = s[i..].chars().next().unwrap_or('\0');
                self.push(c);
                i += c.len_utf8();
            }
        }
    }

    #[inline(always)]
    fn push_ascii(&mut self, b: u8) {
        match ASCII_CLASS[b as usize] {
            WORD => self.keep_ascii(b),
            UPPER => self.keep_ascii(if self.opts.lowercase { b | 0x20 } else { b }),
            SPACE => self.space(),
            _ => self.punct(b as char),
        }
    }

    #[inline(always)]
    fn keep_ascii(&mut self, b: u8) {
        if self.pending_space {
            self.out.push(' ');
            self.pending_space = false;
        }
        self.out.push(b as char);
        self.in_punct = false;
    }

    #[inline(always)]
    fn push(&mut self, c: char) {
        if c.is_ascii() {
            self.push_ascii(c as u8);
            return;
        }
        if matches!(c as u32, 0x4E00..=0x9FFF | 0x3400..=0x4DBF) {
            self.keep(c); // CJK ideographs: no case, no space, no punctuation
        } else if is_space(c) {
            self.space();
        } else if is_punct(c) {
            self.punct(c);
        } else if self.opts.lowercase {
            for l in c.to_lowercase() {
                self.keep(l);
            }
        } else {
            self.keep(c);
        }
    }

    #[inline(always)]
    fn space(&mut self) {
        if !self.out.is_empty() {
            self.pending_space = true;
        }
        self.in_punct = false;
    }

    #[inline(always)]
    fn punct(&mut self, c: char) {
        match self.opts.punctuation {
            Punctuation::Keep => self.keep(c),
            Punctuation::Drop => {}
            Punctuation::Collapse => {
                if !self.in_punct {
                    self.keep(c);
                }
                self.in_punct = true;
            }
        }
    }

    #[inline(always)]
    fn keep(&mut self, c: char) {
        if self.pending_space {
            self.out.push(' ');
            self.pending_space = false;
        }
        self.out.push(c);
        self.in_punct = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn composes_marks_after_ascii_and_cjk() {
        let o = NormalizeOptions { punctuation: Punctuation::Keep, ..Default::default() };
        assert_eq!(normalize("Cafe\u{301} x", &o), "café x");
        assert_eq!(normalize("ﬁne ＡＢＣ", &o), "fine abc");
        assert_eq!(normalize("\u{1C}a\u{1F}b\u{3000}c", &o), "a b c");
        assert_eq!(normalize("", &o), "");
        assert_eq!(normalize(" \t\n ", &o), "");
    }

    #[test]
    fn drop_does_not_leave_double_spaces() {
        let o = NormalizeOptions { punctuation: Punctuation::Drop, ..Default::default() };
        assert_eq!(normalize("- a -- b -", &o), "a b");
        assert_eq!(normalize("-----", &o), "");
    }
}
