//! Exact verification of near-duplicate candidates: the Jaccard similarity of two texts'
//! sets of character n-grams.
//!
//! A 64-bit SimHash estimates the angle between two documents with a standard error of
//! several bits, so any distance threshold trades precision against recall (see
//! `npm run quality`). When the texts are at hand, take candidates from the index at a
//! generous `k` and keep the pairs whose shingle Jaccard reaches a threshold: on the dev
//! corpus, `k = 10` plus `jaccard ≥ 0.8` lifts F1 from 0.79 to about 0.95.
//!
//! Shingles are runs of `n` grapheme clusters of the text normalised with punctuation
//! kept (NFKC, lower case, whitespace collapsed), stored as their sorted, distinct 64-bit
//! hashes: exact up to a 2^-64 chance of two different shingles sharing a hash.
//!
//! ```
//! use simhash_wasm::__private::verify::ShingleSet;
//! let a = ShingleSet::new("the cat sat on the mat", 4).unwrap();
//! let b = ShingleSet::new("The cat sat on the mat!", 4).unwrap();
//! let c = ShingleSet::new("we all scream for ice cream", 4).unwrap();
//! assert!(a.jaccard(&b) > 0.9);
//! assert!(a.jaccard(&c) < 0.1);
//! assert_eq!(a.jaccard(&a), 1.0);
//! ```

use crate::error::{Error, Result};
use crate::fingerprint::MAX_NGRAM;
use crate::hash::hash_bytes;
use crate::normalize::{normalize_into, NormalizeOptions, Punctuation};
use crate::sets;
use crate::tokenize::for_each_char_ngram;

/// The shingle size the verification defaults to: 4, as the dev corpus's ground truth.
pub const DEFAULT_SHINGLE: usize = 4;

/// The largest shingle size (that of the fingerprint's n-grams).
pub const MAX_SHINGLE: usize = MAX_NGRAM;

/// Checks a shingle size: 1 to [`MAX_SHINGLE`].
pub fn check_shingle(n: usize) -> Result<()> {
    if (1..=MAX_SHINGLE).contains(&n) {
        Ok(())
    } else {
        Err(shingle_error(n))
    }
}

/// The error for a shingle size out of range, showing `value` as given.
pub(crate) fn shingle_error(value: impl std::fmt::Display) -> Error {
    Error::option("shingle", value, format!("an integer from 1 to {MAX_SHINGLE}"))
}

/// The distinct shingle hashes of one text, sorted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShingleSet {
    hashes: Vec<u64>,
}

impl ShingleSet {
    /// The shingles of `text`: runs of `n` grapheme clusters (1 ≤ n ≤ 16) of the text
    /// normalised with punctuation kept. A text shorter than `n` clusters is one shingle.
    pub fn new(text: &str, n: usize) -> Result<ShingleSet> {
        check_shingle(n)?;
        let mut norm = String::new();
        normalize_into(
            text,
            &NormalizeOptions { punctuation: Punctuation::Keep, ..NormalizeOptions::default() },
            &mut norm,
        );
        if norm.is_empty() {
            return Err(Error::EmptyText);
        }
        let mut hashes = Vec::with_capacity(norm.len());
        for_each_char_ngram(&norm, n, |_, _, h| hashes.push(h));
        if hashes.is_empty() {
            hashes.push(hash_bytes(norm.as_bytes()));
        }
        hashes.sort_unstable();
        hashes.dedup();
        // The capacity was a byte a shingle: three times the shingles of Chinese text.
        hashes.shrink_to_fit();
        Ok(ShingleSet { hashes })
    }

    /// Number of distinct shingles.
    pub fn len(&self) -> usize {
        self.hashes.len()
    }

    /// Always `false`: a set has at least one shingle.
    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }

    /// Shingles in both sets.
    pub fn intersection(&self, other: &ShingleSet) -> usize {
        sets::intersection(&self.hashes, &other.hashes)
    }

    /// `|A ∩ B| / |A ∪ B|`, from 0 to 1 (`sets::jaccard`).
    pub fn jaccard(&self, other: &ShingleSet) -> f64 {
        sets::jaccard(&self.hashes, &other.hashes)
    }

    /// `true` when the Jaccard similarity is at least `threshold`. Cheap when the set
    /// sizes alone rule it out (`min/max < threshold`).
    pub fn jaccard_at_least(&self, other: &ShingleSet, threshold: f64) -> bool {
        let (small, large) = (self.len().min(other.len()) as f64, self.len().max(other.len()) as f64);
        if large > 0.0 && small / large < threshold {
            return false;
        }
        self.jaccard(other) >= threshold
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Jaccard similarity of the `n`-shingle sets of two texts.
    fn jaccard(a: &str, b: &str, n: usize) -> Result<f64> {
        Ok(ShingleSet::new(a, n)?.jaccard(&ShingleSet::new(b, n)?))
    }

    #[test]
    fn jaccard_counts_distinct_shingles() {
        // "abab" has 2-shingles {ab, ba}; "abc" has {ab, bc}: 1 shared of 3.
        assert_eq!(jaccard("abab", "abc", 2).unwrap(), 1.0 / 3.0);
        assert_eq!(jaccard("ab", "ab", 4).unwrap(), 1.0); // shorter than n: one shingle
        assert!(jaccard("", "ab", 2).is_err());
        assert!(ShingleSet::new("abc", 0).is_err());
        let a = ShingleSet::new("abcdef", 2).unwrap();
        assert!(!a.jaccard_at_least(&ShingleSet::new("ab", 2).unwrap(), 0.5));
    }
}
