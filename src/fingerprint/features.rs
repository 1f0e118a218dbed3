//! Fingerprints of features the caller supplies instead of text:
//! [`fingerprint_features`] (feature strings with weights, hashed as usual) and the teaching
//! form [`simhash_bits`] (hash bits written out, of any width, as textbooks draw the
//! algorithm), with [`parse_bits`] for bits written as `"101001"` or `"1,-1,1"`.

use super::accumulate::{sign, Accumulator};
use crate::error::{Error, Result};
use crate::hash::hash_str;
use crate::weight::{check_weight, quantize, WEIGHT_SCALE};

/// The fingerprint of caller-supplied features, such as `[("Apache", 10.0), ("Hadoop", 15.0)]`.
///
/// Features are hashed exactly as given (no normalisation), and a feature listed twice
/// has its weights added. Weights must be finite, from 0 to 2^20.
///
/// ```
/// use simhash_wasm::fingerprint_features;
/// let a = fingerprint_features(&[("Apache", 10.0), ("Hadoop", 15.0)]).unwrap();
/// let b = fingerprint_features(&[("Hadoop", 15.0), ("Apache", 10.0)]).unwrap();
/// assert_eq!(a, b); // order does not matter
/// ```
pub fn fingerprint_features<S: AsRef<str>>(features: &[(S, f64)]) -> Result<u64> {
    if features.is_empty() {
        return Err(Error::EmptyText);
    }
    let mut acc = Accumulator::default();
    for (i, (f, w)) in features.iter().enumerate() {
        check_weight(i, *w)?;
        acc.add_weighted(hash_str(f.as_ref()), quantize(*w))?;
    }
    Ok(sign(&acc.sums))
}

/// One feature of the teaching form: hash bits written out, and a weight.
#[derive(Clone, Debug, PartialEq)]
pub struct BitFeature {
    /// The hash bits in written order, leftmost first.
    pub bits: Vec<bool>,
    /// The weight (finite, 0 to `MAX_WEIGHT`).
    pub weight: f64,
}

/// The result of [`simhash_bits`].
#[derive(Clone, Debug, PartialEq)]
pub struct BitsSimhash {
    /// One weighted sum per column, in written order.
    pub sums: Vec<f64>,
    /// The signature: `true` where the sum is strictly positive.
    pub bits: Vec<bool>,
}

impl BitsSimhash {
    /// The signature as a string of `0` and `1`, leftmost column first.
    pub fn to_bit_string(&self) -> String {
        self.bits.iter().map(|&b| if b { '1' } else { '0' }).collect()
    }
}

/// Parses the hash bits of feature #`index` of a list, written as `"101001"`, or as ±1
/// entries like `"1,-1,1"` / `"(1, -1, 1)"` (`0`, `-1` and `−1` are 0; `1` and `+1` are 1).
/// Anything else is an [`Error::InvalidBits`] naming feature `index`.
///
/// ```
/// use simhash_wasm::parse_bits;
/// assert_eq!(parse_bits("101", 0)?, [true, false, true]);
/// assert_eq!(parse_bits("(1, -1, +1)", 0)?, [true, false, true]);
/// assert_eq!(
///     parse_bits("10x1", 2).unwrap_err().to_string(),
///     "feature #2 has malformed hash bits: \"10x1\" is neither 0/1 digits nor ±1 entries"
/// );
/// # Ok::<(), simhash_wasm::Error>(())
/// ```
pub fn parse_bits(s: &str, index: usize) -> Result<Vec<bool>> {
    let t = s.trim().trim_start_matches('(').trim_end_matches(')');
    let bits = if t.contains(',') {
        t.split(',')
            .map(|x| match x.trim() {
                "1" | "+1" => Some(true),
                "-1" | "\u{2212}1" | "0" => Some(false),
                _ => None,
            })
            .collect()
    } else if !t.is_empty() && t.chars().all(|c| c == '0' || c == '1') {
        Some(t.chars().map(|c| c == '1').collect())
    } else {
        None
    };
    bits.ok_or_else(|| Error::InvalidBits {
        index,
        reason: format!("{} is neither 0/1 digits nor ±1 entries", crate::error::quoted(s)),
    })
}

/// SimHash with hash bits given by the caller, of any width: the algorithm exactly as
/// the teaching material draws it, with the same weights, sums and sign rule as
/// [`SimHasher`](super::SimHasher).
///
/// ```
/// use simhash_wasm::{parse_bits, simhash_bits, BitFeature};
/// let table = [("101001", 3.0), ("101110", 4.0), ("110001", 1.0), ("101000", 3.0),
///              ("101011", 5.0), ("101100", 5.0), ("111000", 5.0)];
/// let features: Vec<_> = table.iter()
///     .map(|&(b, w)| BitFeature { bits: parse_bits(b, 0).unwrap(), weight: w })
///     .collect();
/// let r = simhash_bits(&features).unwrap();
/// assert_eq!(r.sums, [26.0, -14.0, 24.0, -8.0, -8.0, -8.0]);
/// assert_eq!(r.to_bit_string(), "101000");
/// ```
pub fn simhash_bits(features: &[BitFeature]) -> Result<BitsSimhash> {
    let width = match features.first() {
        Some(f) => f.bits.len(),
        None => return Err(Error::EmptyText),
    };
    let mut sums = vec![0i64; width];
    let mut total: i64 = 0;
    for (i, f) in features.iter().enumerate() {
        check_weight(i, f.weight)?;
        if f.bits.len() != width || width == 0 {
            return Err(Error::InvalidBits {
                index: i,
                reason: format!("it has {} bits where the first feature has {width}", f.bits.len()),
            });
        }
        let q = quantize(f.weight);
        total = total.checked_add(q).ok_or(Error::WeightOverflow)?;
        for (s, &b) in sums.iter_mut().zip(&f.bits) {
            *s += if b { q } else { -q };
        }
    }
    Ok(BitsSimhash {
        bits: sums.iter().map(|&s| s > 0).collect(),
        sums: sums.iter().map(|&s| s as f64 / WEIGHT_SCALE).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_bits_reads_digits_and_signed_entries() {
        let want = vec![true, false, true, true, false, false];
        for written in [
            "101100",
            "  101100\n",
            "1,-1,1,1,-1,-1",
            "(1, -1, 1, 1, -1, -1)",
            "(+1,0,+1,+1,0,0)",
            "1, \u{2212}1, 1, 1, \u{2212}1, \u{2212}1",
        ] {
            assert_eq!(parse_bits(written, 0).unwrap(), want, "{written:?}");
        }
        assert_eq!(parse_bits("0", 0).unwrap(), [false]);
        assert_eq!(parse_bits("-1", 0).unwrap_err().code(), "InvalidBits", "one entry needs a comma");
    }

    #[test]
    fn parse_bits_names_the_feature_and_the_bad_text() {
        for (bad, index) in [
            ("", 0),
            ("  ", 1),
            ("()", 2),
            ("10x1", 3),
            ("1,2,1", 4),
            ("1,,1", 5),
            ("0b101", 6),
            ("1 0 1", 7),
        ] {
            let e = parse_bits(bad, index).unwrap_err();
            assert_eq!(
                e,
                Error::InvalidBits {
                    index,
                    reason: format!("\"{bad}\" is neither 0/1 digits nor ±1 entries"),
                },
            );
            assert_eq!(
                e.to_string(),
                format!("feature #{index} has malformed hash bits: \"{bad}\" is neither 0/1 digits nor ±1 entries")
            );
        }
    }
}
