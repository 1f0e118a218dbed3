//! The one error type of the crate.
//!
//! Every fallible call returns [`Result<T>`](Result). Nothing in the crate panics on
//! input: in WebAssembly a panic kills the module instance for every later call, so bad
//! input must come back as a value. Each variant carries the data that explains it, and
//! its message says what to change.

use std::fmt;

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong, with the data needed to explain it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// An option is outside its allowed range, or two options contradict each other.
    InvalidOption {
        /// The option's name as the API spells it, e.g. `"ngram"`.
        option: &'static str,
        /// The value that was given, printed.
        value: String,
        /// What is allowed instead.
        expected: String,
    },
    /// The text has no features at all after normalisation (empty, or only
    /// whitespace / dropped punctuation).
    EmptyText,
    /// The normalised text has fewer units (grapheme clusters or words) than one n-gram.
    TextTooShort {
        /// Units in the normalised text.
        units: usize,
        /// Units one feature needs.
        needed: usize,
        /// `"characters"` or `"words"`.
        unit: &'static str,
    },
    /// Bytes given as text are not UTF-8.
    InvalidUtf8 {
        /// Length of the longest valid prefix, in bytes.
        valid_up_to: usize,
    },
    /// A caller-supplied weight is NaN, infinite, negative or too large.
    InvalidWeight {
        /// Position of the feature in the caller's list.
        index: usize,
        /// The weight, printed (`NaN`, `-1`, ...).
        weight: String,
        /// The largest weight allowed.
        max: f64,
    },
    /// Hash bits supplied for the teaching form of the algorithm are malformed.
    InvalidBits {
        /// Position of the feature in the caller's list.
        index: usize,
        /// Why the bits were refused.
        reason: String,
    },
    /// The summed weights no longer fit the exact fixed-point accumulator.
    WeightOverflow,
    /// An index layout that cannot guarantee exact answers, or is malformed.
    InvalidLayout {
        /// Why, in words.
        reason: String,
    },
    /// `insert` was given an id the index already holds.
    DuplicateId {
        /// The id, printed: a number as it is, a string quoted (`"a"`).
        id: String,
    },
    /// `remove` (or a lookup) was given an id the index does not hold.
    UnknownId {
        /// The id, printed: a number as it is, a string quoted (`"a"`).
        id: String,
    },
    /// Bytes given to a decoder (snapshot, IDF table) are not a valid encoding.
    Corrupt {
        /// What was being decoded, e.g. `"snapshot"` or `"IDF table"`.
        what: &'static str,
        /// Byte offset at which the problem was found.
        offset: usize,
        /// What was wrong there.
        reason: String,
    },
    /// A snapshot or table written by an unknown (newer) format version.
    UnsupportedVersion {
        /// What was being decoded.
        what: &'static str,
        /// The version found in the bytes.
        found: u32,
        /// The newest version this build reads.
        supported: u32,
    },
    /// One text of a batch failed.
    InDocument {
        /// Position of the text in the batch, from 0.
        index: usize,
        /// Why it failed.
        error: Box<Error>,
    },
    /// A capability this build was compiled without (a Cargo feature that is off).
    FeatureDisabled {
        /// The Cargo feature, e.g. `"html"`.
        feature: &'static str,
        /// What needed it, e.g. `"reading HTML"`.
        what: &'static str,
    },
    /// A snapshot whose fingerprint scheme or layout differs from the one expected.
    SchemeMismatch {
        /// What differs, e.g. `"ngram"`.
        field: &'static str,
        /// The value in the snapshot.
        found: String,
        /// The value expected by the caller.
        expected: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidOption { option, value, expected } => {
                write!(f, "invalid option `{option}` = {value}: expected {expected}")
            }
            Error::EmptyText => f.write_str(
                "the text has no features after normalisation (it is empty, or only whitespace \
                 or dropped punctuation); skip it, or keep punctuation with `punctuation: \"keep\"`",
            ),
            Error::TextTooShort { units, needed, unit } => write!(
                f,
                "the normalised text has {units} {unit}, fewer than one feature needs ({needed}); \
                 use a smaller n-gram size, or compare such short texts directly"
            ),
            Error::InvalidUtf8 { valid_up_to } => write!(
                f,
                "the bytes are not valid UTF-8 (the first {valid_up_to} bytes are valid); decode \
                 the text with its real charset first, or pass it as a string"
            ),
            Error::InvalidWeight { index, weight, max } => write!(
                f,
                "feature #{index} has weight {weight}: weights must be finite numbers from 0 to {}",
                number(*max)
            ),
            Error::InvalidBits { index, reason } => {
                write!(f, "feature #{index} has malformed hash bits: {reason}")
            }
            Error::WeightOverflow => {
                f.write_str("the summed weights are too large to add exactly; use smaller weights")
            }
            Error::InvalidLayout { reason } => write!(f, "invalid index layout: {reason}"),
            Error::DuplicateId { id } => {
                write!(f, "id {id} is already taken (in the index, or earlier in the input); use another id")
            }
            Error::UnknownId { id } => write!(f, "id {id} is not in the index"),
            Error::Corrupt { what, offset, reason } => write!(
                f,
                "corrupt {what} at byte {offset}: {reason}; the bytes were damaged or truncated, \
                 so rebuild it or load an earlier copy"
            ),
            Error::UnsupportedVersion { what, found, supported } => write!(
                f,
                "{what} has format version {found}, but this build reads versions up to \
                 {supported}; upgrade simhash-wasm to read it"
            ),
            Error::InDocument { index, error } => write!(f, "document #{index}: {error}"),
            Error::FeatureDisabled { feature, what } => write!(
                f,
                "{what} needs the `{feature}` feature, which this build was compiled without; \
                 from Rust, enable the Cargo feature `{feature}`"
            ),
            Error::SchemeMismatch { field, found, expected } => write!(
                f,
                "the snapshot or namespace was made with {field} = {found}, not {expected}{}; \
                 fingerprints of other settings cannot be mixed: use the settings it was made \
                 with, or a new snapshot or namespace",
                if *field == "sketch" { " (sk1:N: the `sketch` size, t=: the `threshold`)" } else { "" }
            ),
        }
    }
}

// No `source()`: `InDocument`'s message already holds its document's error, and error
// reporters print a source after the message, so it would show twice.
impl std::error::Error for Error {}

impl Error {
    /// Every code [`code`](Error::code) returns, in the order of the variants. The JS
    /// package's `SimHashErrorCode` is these and the codes its JS layer adds.
    pub const CODES: [&'static str; 14] = [
        "InvalidOption",
        "EmptyText",
        "TextTooShort",
        "InvalidUtf8",
        "InvalidWeight",
        "InvalidBits",
        "WeightOverflow",
        "InvalidLayout",
        "DuplicateId",
        "UnknownId",
        "Corrupt",
        "UnsupportedVersion",
        "SchemeMismatch",
        "FeatureDisabled",
    ];

    /// A short stable name for the kind of error, e.g. `"InvalidOption"`, one of
    /// [`Error::CODES`]. The JS bindings use it as the `code` of the thrown `Error`.
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidOption { .. } => "InvalidOption",
            Error::EmptyText => "EmptyText",
            Error::TextTooShort { .. } => "TextTooShort",
            Error::InvalidUtf8 { .. } => "InvalidUtf8",
            Error::InvalidWeight { .. } => "InvalidWeight",
            Error::InvalidBits { .. } => "InvalidBits",
            Error::WeightOverflow => "WeightOverflow",
            Error::InvalidLayout { .. } => "InvalidLayout",
            Error::DuplicateId { .. } => "DuplicateId",
            Error::UnknownId { .. } => "UnknownId",
            Error::Corrupt { .. } => "Corrupt",
            Error::UnsupportedVersion { .. } => "UnsupportedVersion",
            Error::InDocument { error, .. } => error.code(),
            Error::SchemeMismatch { .. } => "SchemeMismatch",
            Error::FeatureDisabled { .. } => "FeatureDisabled",
        }
    }

    pub(crate) fn option(
        option: &'static str,
        value: impl fmt::Display,
        expected: impl Into<String>,
    ) -> Error {
        Error::InvalidOption { option, value: value.to_string(), expected: expected.into() }
    }

    /// The same error, for the feature at position `index` of the caller's list (an
    /// [`Error::InvalidBits`] made without knowing its position).
    pub fn at_feature(self, index: usize) -> Error {
        match self {
            Error::InvalidBits { reason, .. } => Error::InvalidBits { index, reason },
            e => e,
        }
    }

    /// `true` for the errors that mean "this text has no content to compare"
    /// ([`Error::EmptyText`], [`Error::TextTooShort`]): `ContentSeen::check` answers
    /// `Check::empty()` for them instead of failing.
    pub fn is_no_content(&self) -> bool {
        matches!(self, Error::EmptyText | Error::TextTooShort { .. })
    }

    /// The error for HTML input in a build without the `html` feature.
    pub(crate) fn html_disabled() -> Error {
        Error::FeatureDisabled { feature: "html", what: "reading HTML" }
    }

    pub(crate) fn corrupt(what: &'static str, offset: usize, reason: impl Into<String>) -> Error {
        Error::Corrupt { what, offset, reason: reason.into() }
    }
}

/// `bytes` as text, or [`Error::InvalidUtf8`] (never replaced silently: a wrong charset
/// would give a wrong fingerprint). A byte-order mark is kept, as in the bytes.
pub fn utf8(bytes: &[u8]) -> Result<&str> {
    std::str::from_utf8(bytes).map_err(|e| Error::InvalidUtf8 { valid_up_to: e.valid_up_to() })
}

/// `s` in double quotes, for a message. Unlike `{s:?}` it does not escape, which keeps
/// `core`'s string-escaping code (about 3 kB) out of the wasm.
pub(crate) fn quoted(s: &str) -> String {
    format!("\"{s}\"")
}

/// `x` written for a message without `core`'s float formatting, which would add about
/// 14 kB to the wasm for a few error messages: integers exactly, other finite values to
/// 6 significant digits (`0.333333`, `1.5e-7`), and `NaN`, `Infinity` and `-Infinity` as
/// JavaScript writes them.
pub(crate) fn number(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    let sign = if x < 0.0 { "-" } else { "" };
    let a = x.abs();
    if a.is_infinite() {
        return format!("{sign}Infinity");
    }
    if a.fract() == 0.0 && a < 1e15 {
        return format!("{sign}{}", a as u64);
    }
    // a = m * 10^e with m scaled into [1e5, 1e6), then rounded to 6 digits.
    let (mut m, mut e) = (a, 0i32);
    while m >= 1e6 {
        m /= 10.0;
        e += 1;
    }
    while m < 1e5 {
        m *= 10.0;
        e -= 1;
    }
    let mut d = m.round() as u64;
    if d == 1_000_000 {
        d = 100_000;
        e += 1;
    }
    let digits = d.to_string();
    let lead = e + 5; // the power of ten of the first digit
    let trim = |s: &str| s.trim_end_matches('0').to_owned();
    let body = if !(-6..21).contains(&lead) {
        let frac = trim(&digits[1..]);
        let dot = if frac.is_empty() { "" } else { "." };
        format!("{}{dot}{frac}e{}{lead}", &digits[..1], if lead > 0 { "+" } else { "" })
    } else if lead >= 5 {
        format!("{digits}{}", "0".repeat((lead - 5) as usize))
    } else if lead >= 0 {
        let (int, frac) = digits.split_at(lead as usize + 1);
        let frac = trim(frac);
        if frac.is_empty() {
            int.to_owned()
        } else {
            format!("{int}.{frac}")
        }
    } else {
        format!("0.{}{}", "0".repeat((-lead - 1) as usize), trim(&digits))
    };
    format!("{sign}{body}")
}

#[cfg(test)]
mod tests {
    use super::{number, Error};

    /// One error of each variant. The match below has no wildcard, so a new variant does
    /// not compile until it is added here (and its code to `Error::CODES`).
    fn one_of_each() -> Vec<Error> {
        let all = vec![
            Error::option("k", 99, "0 to 63"),
            Error::EmptyText,
            Error::TextTooShort { units: 1, needed: 6, unit: "characters" },
            Error::InvalidUtf8 { valid_up_to: 0 },
            Error::InvalidWeight { index: 0, weight: "NaN".into(), max: 1.0 },
            Error::InvalidBits { index: 0, reason: "empty".into() },
            Error::WeightOverflow,
            Error::InvalidLayout { reason: "no".into() },
            Error::DuplicateId { id: "1".into() },
            Error::UnknownId { id: "1".into() },
            Error::corrupt("snapshot", 0, "short"),
            Error::UnsupportedVersion { what: "snapshot", found: 9, supported: 2 },
            Error::InDocument { index: 0, error: Box::new(Error::EmptyText) },
            Error::FeatureDisabled { feature: "html", what: "reading HTML" },
            Error::SchemeMismatch { field: "ngram", found: "5".into(), expected: "6".into() },
        ];
        for e in &all {
            match e {
                Error::InvalidOption { .. }
                | Error::EmptyText
                | Error::TextTooShort { .. }
                | Error::InvalidUtf8 { .. }
                | Error::InvalidWeight { .. }
                | Error::InvalidBits { .. }
                | Error::WeightOverflow
                | Error::InvalidLayout { .. }
                | Error::DuplicateId { .. }
                | Error::UnknownId { .. }
                | Error::Corrupt { .. }
                | Error::UnsupportedVersion { .. }
                | Error::InDocument { .. }
                | Error::FeatureDisabled { .. }
                | Error::SchemeMismatch { .. } => {}
            }
        }
        all
    }

    #[test]
    fn codes_lists_every_code_once() {
        let codes: Vec<&str> = one_of_each().iter().map(Error::code).collect();
        for code in &codes {
            assert!(Error::CODES.contains(code), "{code} is not in Error::CODES");
        }
        for code in Error::CODES {
            assert!(codes.contains(&code), "Error::CODES lists {code}, which no error has");
            assert_eq!(Error::CODES.iter().filter(|c| **c == code).count(), 1, "{code} twice");
        }
        // A wrapped error reports the code of what went wrong inside.
        assert_eq!(
            Error::InDocument { index: 3, error: Box::new(Error::WeightOverflow) }.code(),
            "WeightOverflow"
        );
    }

    #[test]
    fn numbers_print_as_javascript_would_to_six_digits() {
        let cases: [(f64, &str); 16] = [
            (0.0, "0"),
            (3.0, "3"),
            (-17.0, "-17"),
            (1.5, "1.5"),
            (-0.25, "-0.25"),
            (1.0 / 3.0, "0.333333"),
            (2.0 / 3.0, "0.666667"),
            (123456.7, "123457"),
            (9.9999996, "10"),
            (1e-7, "1e-7"),
            (1.5e-7, "1.5e-7"),
            (0.000123, "0.000123"),
            (1e300, "1e+300"),
            (1e15 + 0.5, "1000000000000000"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
        ];
        for (x, want) in cases {
            assert_eq!(number(x), want, "{x:e}");
        }
        assert_eq!(number(f64::NAN), "NaN");
        assert_eq!(number(5e-324), "4.94066e-324");
    }

    #[test]
    fn utf8_is_validated_and_says_where_it_breaks() {
        assert_eq!(super::utf8("a中\u{feff}".as_bytes()), Ok("a中\u{feff}"));
        assert_eq!(super::utf8(b"ab\xe4\xb8"), Err(super::Error::InvalidUtf8 { valid_up_to: 2 }));
        assert_eq!(super::utf8(b"\xff"), Err(super::Error::InvalidUtf8 { valid_up_to: 0 }));
    }
}
