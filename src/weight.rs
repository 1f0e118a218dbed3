//! Feature weights: how much each feature counts in the fingerprint.
//!
//! A feature's weight is `tf_part(tf) × idf(feature)`, where `tf` is how many times the
//! feature occurs in the text, `tf_part` is set by [`Weighting`], and `idf` is 1 unless an
//! [`IdfTable`] is given.
//!
//! # Exactness
//!
//! Weights are added in fixed point: each weight is rounded to a multiple of 2^-16
//! ([`quantize`]) and the per-bit sums are exact 64-bit integers. The fingerprint is thus
//! independent of the order features are added in and identical on every platform, to
//! the last bit. Logarithms are computed by `ln` (`math.rs`), which uses only IEEE-754 `+ - × ÷`
//! (correctly rounded everywhere, wasm included), never the platform's `log`.

use std::collections::HashMap;

use crate::error::{Error, Result};
use crate::math::ln;

/// The largest weight a feature may have (2^20).
pub const MAX_WEIGHT: f64 = 1_048_576.0;

/// Fixed-point scale of weights: 16 fractional bits.
pub const WEIGHT_SCALE: f64 = 65_536.0;

/// How the number of occurrences of a feature becomes its weight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Weighting {
    /// Every distinct feature counts once, however often it occurs.
    Binary,
    /// Raw term frequency: a feature occurring `tf` times weighs `tf`. One heavily repeated
    /// feature (a `-----` separator) can decide the whole fingerprint; not recommended.
    Tf,
    /// `1 + ln(tf)`: repeats count, with diminishing returns (the default).
    #[default]
    Sublinear,
}

impl Weighting {
    /// The option's name as the JS API and snapshots spell it.
    pub fn name(self) -> &'static str {
        match self {
            Weighting::Binary => "binary",
            Weighting::Tf => "tf",
            Weighting::Sublinear => "sublinear",
        }
    }

    /// Parses [`Weighting::name`].
    pub fn from_name(name: &str) -> Option<Weighting> {
        match name {
            "binary" => Some(Weighting::Binary),
            "tf" => Some(Weighting::Tf),
            "sublinear" => Some(Weighting::Sublinear),
            _ => None,
        }
    }

    /// The weight of a feature that occurs `tf >= 1` times.
    ///
    /// ```
    /// use simhash_wasm::Weighting;
    /// assert_eq!(Weighting::Binary.tf_weight(7), 1.0);
    /// assert_eq!(Weighting::Tf.tf_weight(7), 7.0);
    /// assert_eq!(Weighting::Sublinear.tf_weight(1), 1.0);
    /// assert!((Weighting::Sublinear.tf_weight(100) - (1.0 + 100f64.ln())).abs() < 1e-12);
    /// ```
    pub fn tf_weight(self, tf: u32) -> f64 {
        match self {
            Weighting::Binary => 1.0,
            Weighting::Tf => f64::from(tf),
            Weighting::Sublinear => 1.0 + ln(f64::from(tf.max(1))),
        }
    }
}

/// Rounds a weight to the fixed-point grid the sums are kept on (2^-16).
#[inline]
pub fn quantize(w: f64) -> i64 {
    (w * WEIGHT_SCALE).round() as i64
}

/// Checks a caller-supplied weight: finite, from 0 to [`MAX_WEIGHT`].
pub fn check_weight(index: usize, w: f64) -> Result<()> {
    if w.is_finite() && (0.0..=MAX_WEIGHT).contains(&w) {
        Ok(())
    } else {
        Err(Error::InvalidWeight { index, weight: crate::error::number(w), max: MAX_WEIGHT })
    }
}

/// Inverse document frequencies of features, learnt from a set of documents.
///
/// `idf(f) = 1 + ln((1 + N) / (1 + df(f)))`, with `N` the number of documents learnt from
/// and `df(f)` the number of them containing `f` (features never seen have `df = 0`, the
/// largest idf). Features are keyed by their 64-bit hash. Saved and loaded with
/// [`IdfTable::to_bytes`] / [`IdfTable::from_bytes`] (see the `snapshot` module).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IdfTable {
    pub(crate) docs: u64,
    pub(crate) df: HashMap<u64, u32>,
}

impl IdfTable {
    /// An empty table (every idf is 1 + ln 1 = 1 until documents are added).
    pub fn new() -> IdfTable {
        IdfTable::default()
    }

    /// Counts one document, given the hashes of its features (repeats are fine).
    pub fn add_document(&mut self, feature_hashes: impl IntoIterator<Item = u64>) {
        let mut seen: Vec<u64> = feature_hashes.into_iter().collect();
        seen.sort_unstable();
        seen.dedup();
        for h in seen {
            let c = self.df.entry(h).or_insert(0);
            *c = c.saturating_add(1);
        }
        self.docs += 1;
    }

    /// Number of documents learnt from.
    pub fn documents(&self) -> u64 {
        self.docs
    }

    /// Number of distinct features seen.
    pub fn len(&self) -> usize {
        self.df.len()
    }

    /// `true` when no feature has been seen.
    pub fn is_empty(&self) -> bool {
        self.df.is_empty()
    }

    /// Document frequency of a feature hash.
    pub fn df(&self, feature_hash: u64) -> u32 {
        self.df.get(&feature_hash).copied().unwrap_or(0)
    }

    /// The idf of a feature hash.
    pub fn idf(&self, feature_hash: u64) -> f64 {
        let n = self.docs as f64;
        1.0 + ln((1.0 + n) / (1.0 + f64::from(self.df(feature_hash))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_are_checked() {
        assert!(check_weight(0, 0.0).is_ok());
        assert!(check_weight(0, MAX_WEIGHT).is_ok());
        for bad in [f64::NAN, -1.0, f64::INFINITY, MAX_WEIGHT * 2.0] {
            let e = check_weight(3, bad).unwrap_err();
            assert!(e.to_string().contains("feature #3"), "{e}");
        }
    }
}
