//! What decides a fingerprint: the [`Tokenizer`], the [`Options`] (tokenizer, weighting,
//! normalisation) with their defaults, and the options as the JS API and the CLI name them
//! ([`Options::from_names`]).

use crate::error::{Error, Result};
use crate::normalize::NormalizeOptions;
use crate::weight::Weighting;

/// The largest n-gram size (characters or words).
pub const MAX_NGRAM: usize = 16;

/// How a text is cut into features.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tokenizer {
    /// Overlapping runs of `n` grapheme clusters of the normalised text (spaces included).
    Chars(usize),
    /// Overlapping runs of `n` Unicode words (UAX #29 word boundaries).
    Words(usize),
}

impl Tokenizer {
    /// `"chars"` or `"words"`.
    pub fn mode(self) -> &'static str {
        match self {
            Tokenizer::Chars(_) => "chars",
            Tokenizer::Words(_) => "words",
        }
    }

    /// The n-gram size.
    pub fn n(self) -> usize {
        match self {
            Tokenizer::Chars(n) | Tokenizer::Words(n) => n,
        }
    }
}

/// Everything that decides a fingerprint. Two fingerprints are comparable only when they
/// were made with equal `Options` (and the same [`crate::hash::HASH_VERSION`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// How the text is cut into features.
    pub tokenizer: Tokenizer,
    /// How occurrences become weights.
    pub weighting: Weighting,
    /// How the text is normalised first.
    pub normalize: NormalizeOptions,
}

/// The default n-gram size: 6 grapheme clusters, chosen with `npm run quality` (see the
/// README, "Choosing the defaults": n = 2..12, words 1..3, three weightings and three
/// punctuation modes were measured; 5..8 characters are best for English and Chinese
/// alike, and 6 with sublinear weights and collapsed punctuation had the best F1).
pub const DEFAULT_NGRAM: usize = 6;

impl Default for Options {
    fn default() -> Self {
        Options {
            tokenizer: Tokenizer::Chars(DEFAULT_NGRAM),
            weighting: Weighting::Sublinear,
            normalize: NormalizeOptions::default(),
        }
    }
}

impl Options {
    /// Checks the options, with a message that says what is allowed.
    pub fn validate(&self) -> Result<()> {
        let n = self.tokenizer.n();
        if !(1..=MAX_NGRAM).contains(&n) {
            return Err(Error::option("ngram", n, format!("an integer from 1 to {MAX_NGRAM}")));
        }
        Ok(())
    }

    /// The option names [`Options::from_names`] takes, as the JS API spells them.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub(crate) const NAMES: [&'static str; 6] =
        ["mode", "ngram", "weighting", "punctuation", "nfkc", "lowercase"];

    /// Options from their names, as the JS API and the CLI spell them: `mode` is `"chars"`
    /// or `"words"`, `weighting` and `punctuation` as [`Weighting::name`] and
    /// [`crate::Punctuation::name`]. Missing values take the defaults. Every bad value is an
    /// [`Error::InvalidOption`] that names what is allowed.
    pub fn from_names(
        mode: Option<&str>,
        ngram: Option<f64>,
        weighting: Option<&str>,
        punctuation: Option<&str>,
        nfkc: Option<bool>,
        lowercase: Option<bool>,
    ) -> Result<Options> {
        let d = Options::default();
        let n = match ngram {
            None => d.tokenizer.n(),
            Some(x) if x.fract() == 0.0 && (1.0..=MAX_NGRAM as f64).contains(&x) => x as usize,
            Some(x) => {
                return Err(Error::option(
                    "ngram",
                    crate::error::number(x),
                    format!("an integer from 1 to {MAX_NGRAM}"),
                ))
            }
        };
        let tokenizer = match mode.unwrap_or("chars") {
            "chars" => Tokenizer::Chars(n),
            "words" => Tokenizer::Words(n),
            m => return Err(Error::option("mode", crate::error::quoted(m), "\"chars\" or \"words\"")),
        };
        let weighting = match weighting {
            None => d.weighting,
            Some(w) => Weighting::from_name(w).ok_or_else(|| {
                Error::option("weighting", crate::error::quoted(w), "\"binary\", \"tf\" or \"sublinear\"")
            })?,
        };
        let punctuation = match punctuation {
            None => d.normalize.punctuation,
            Some(p) => crate::Punctuation::from_name(p).ok_or_else(|| {
                Error::option("punctuation", crate::error::quoted(p), "\"keep\", \"drop\" or \"collapse\"")
            })?,
        };
        let normalize = NormalizeOptions {
            punctuation,
            nfkc: nfkc.unwrap_or(d.normalize.nfkc),
            lowercase: lowercase.unwrap_or(d.normalize.lowercase),
        };
        let opts = Options { tokenizer, weighting, normalize };
        opts.validate()?;
        Ok(opts)
    }

    /// A one-line description, e.g. `chars:4 sublinear punct=keep nfkc lower sh64v1`.
    pub fn describe(&self) -> String {
        format!(
            "{}:{} {} punct={}{}{} sh64v{}",
            self.tokenizer.mode(),
            self.tokenizer.n(),
            self.weighting.name(),
            self.normalize.punctuation.name(),
            if self.normalize.nfkc { " nfkc" } else { "" },
            if self.normalize.lowercase { " lower" } else { "" },
            crate::hash::HASH_VERSION
        )
    }
}
