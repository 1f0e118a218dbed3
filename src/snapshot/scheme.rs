//! The fingerprint scheme recorded in an index snapshot: the settings fingerprints were
//! made with, so an index is never queried with incomparable fingerprints.
//!
//! | size | field |
//! | --- | --- |
//! | 1 | scheme present: 0 = none (raw fingerprints), 1 = the 13 bytes below follow |
//! | 4 | feature hash version ([`crate::hash::HASH_VERSION`]), `u32` |
//! | 1 | tokenizer: 0 = chars, 1 = words |
//! | 4 | n-gram size, `u32` |
//! | 1 | weighting: 0 = binary, 1 = tf, 2 = sublinear |
//! | 1 | punctuation: 0 = keep, 1 = drop, 2 = collapse |
//! | 1 | nfkc: 0 / 1 |
//! | 1 | lowercase: 0 / 1 |
//!
//! A stored scheme is validated like one given by a user ([`Options::validate`]); a hash
//! version other than this build's is [`Error::SchemeMismatch`], since such fingerprints
//! are not comparable with new ones. [`check_scheme`] compares a stored scheme with the
//! expected one field by field.

use super::bytes::{Reader, Writer};
use crate::error::{Error, Result};
use crate::fingerprint::{Options, Tokenizer};
use crate::normalize::{NormalizeOptions, Punctuation};
use crate::weight::Weighting;

/// Writes the scheme field of an index snapshot.
pub(crate) fn write_scheme(w: &mut Writer, scheme: Option<&Options>) {
    let Some(o) = scheme else {
        w.u8(0);
        return;
    };
    w.u8(1);
    w.u32(crate::hash::HASH_VERSION);
    let (mode, n) = match o.tokenizer {
        Tokenizer::Chars(n) => (0u8, n),
        Tokenizer::Words(n) => (1u8, n),
    };
    w.u8(mode);
    w.u32(u32::try_from(n).unwrap_or(u32::MAX));
    w.u8(match o.weighting {
        Weighting::Binary => 0,
        Weighting::Tf => 1,
        Weighting::Sublinear => 2,
    });
    w.u8(match o.normalize.punctuation {
        Punctuation::Keep => 0,
        Punctuation::Drop => 1,
        Punctuation::Collapse => 2,
    });
    w.flag(o.normalize.nfkc);
    w.flag(o.normalize.lowercase);
}

/// Reads the scheme field. A hash version other than this build's is refused with
/// [`Error::SchemeMismatch`]: such fingerprints are not comparable with new ones.
pub(crate) fn read_scheme(r: &mut Reader<'_>) -> Result<Option<Options>> {
    if !r.flag("scheme flag")? {
        return Ok(None);
    }
    let hv = r.u32("hash version")?;
    if hv != crate::hash::HASH_VERSION {
        return Err(Error::SchemeMismatch {
            field: "hash version",
            found: format!("sh64v{hv}"),
            expected: format!("sh64v{} (this build's feature hash)", crate::hash::HASH_VERSION),
        });
    }
    let at = r.offset();
    let mode = r.u8("tokenizer")?;
    let n = r.u32("n-gram size")? as usize;
    let tokenizer = match mode {
        0 => Tokenizer::Chars(n),
        1 => Tokenizer::Words(n),
        m => return Err(r.err_at(at, format!("tokenizer {m} is neither 0 (chars) nor 1 (words)"))),
    };
    let at = r.offset();
    let weighting = match r.u8("weighting")? {
        0 => Weighting::Binary,
        1 => Weighting::Tf,
        2 => Weighting::Sublinear,
        w => return Err(r.err_at(at, format!("weighting {w} is not 0, 1 or 2"))),
    };
    let at = r.offset();
    let punctuation = match r.u8("punctuation")? {
        0 => Punctuation::Keep,
        1 => Punctuation::Drop,
        2 => Punctuation::Collapse,
        p => return Err(r.err_at(at, format!("punctuation {p} is not 0, 1 or 2"))),
    };
    let nfkc = r.flag("nfkc flag")?;
    let lowercase = r.flag("lowercase flag")?;
    let o = Options { tokenizer, weighting, normalize: NormalizeOptions { punctuation, nfkc, lowercase } };
    o.validate().map_err(|e| r.err_at(at, format!("the stored scheme is invalid: {e}")))?;
    Ok(Some(o))
}

/// Compares a snapshot's scheme with the one the caller expects, naming the first field
/// that differs.
pub fn check_scheme(found: Option<&Options>, expected: Option<&Options>) -> Result<()> {
    let describe =
        |o: Option<&Options>| o.map_or_else(|| "none (raw fingerprints)".to_string(), |o| o.describe());
    let (f, e) = match (found, expected) {
        (None, None) => return Ok(()),
        (Some(f), Some(e)) => (f, e),
        _ => {
            return Err(Error::SchemeMismatch {
                field: "fingerprint scheme",
                found: describe(found),
                expected: describe(expected),
            })
        }
    };
    let mismatch = |field: &'static str, a: String, b: String| {
        Err(Error::SchemeMismatch { field, found: a, expected: b })
    };
    if f.tokenizer.mode() != e.tokenizer.mode() {
        return mismatch("tokenizer", f.tokenizer.mode().into(), e.tokenizer.mode().into());
    }
    if f.tokenizer.n() != e.tokenizer.n() {
        return mismatch("ngram", f.tokenizer.n().to_string(), e.tokenizer.n().to_string());
    }
    if f.weighting != e.weighting {
        return mismatch("weighting", f.weighting.name().into(), e.weighting.name().into());
    }
    if f.normalize.punctuation != e.normalize.punctuation {
        return mismatch(
            "punctuation",
            f.normalize.punctuation.name().into(),
            e.normalize.punctuation.name().into(),
        );
    }
    if f.normalize.nfkc != e.normalize.nfkc {
        return mismatch("nfkc", f.normalize.nfkc.to_string(), e.normalize.nfkc.to_string());
    }
    if f.normalize.lowercase != e.normalize.lowercase {
        return mismatch("lowercase", f.normalize.lowercase.to_string(), e.normalize.lowercase.to_string());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(scheme: Option<&Options>) -> Option<Options> {
        let mut w = Writer::new();
        write_scheme(&mut w, scheme);
        let b = w.into_bytes();
        assert_eq!(b.len(), if scheme.is_some() { 14 } else { 1 });
        let mut r = Reader::new(&b, 0, "test");
        let back = read_scheme(&mut r).unwrap();
        r.finish("the scheme").unwrap();
        back
    }

    #[test]
    fn every_setting_round_trips() {
        assert_eq!(round_trip(None), None);
        for tokenizer in [Tokenizer::Chars(1), Tokenizer::Chars(5), Tokenizer::Words(3)] {
            for weighting in [Weighting::Binary, Weighting::Tf, Weighting::Sublinear] {
                for punctuation in [Punctuation::Keep, Punctuation::Drop, Punctuation::Collapse] {
                    for (nfkc, lowercase) in [(false, false), (true, false), (false, true), (true, true)] {
                        let o = Options {
                            tokenizer,
                            weighting,
                            normalize: NormalizeOptions { punctuation, nfkc, lowercase },
                        };
                        assert_eq!(round_trip(Some(&o)), Some(o));
                        check_scheme(Some(&o), Some(&o)).unwrap();
                    }
                }
            }
        }
    }

    #[test]
    fn out_of_range_bytes_and_other_hash_versions_are_refused() {
        let mut w = Writer::new();
        write_scheme(&mut w, Some(&Options::default()));
        let good = w.into_bytes();
        // (offset, bad value, expected error code)
        for (at, v, code) in [
            (0, 2, "Corrupt"),
            (1, 9, "SchemeMismatch"),
            (5, 2, "Corrupt"),
            (6, 0, "Corrupt"),
            (10, 3, "Corrupt"),
            (11, 3, "Corrupt"),
            (12, 2, "Corrupt"),
            (13, 2, "Corrupt"),
        ] {
            let mut b = good.clone();
            b[at] = v;
            let e = read_scheme(&mut Reader::new(&b, 0, "test")).unwrap_err();
            assert_eq!(e.code(), code, "byte {at} = {v}: {e}");
        }
        for cut in 0..good.len() {
            assert!(read_scheme(&mut Reader::new(&good[..cut], 0, "test")).is_err());
        }
    }
}
