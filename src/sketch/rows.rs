//! Many sketches of one scheme as rows of one buffer, each as
//! [`Sketch::to_bytes`](super::Sketch::to_bytes) writes it (the pool's workers hand them over so): no allocation a sketch, and the rows are read in
//! place by [`estimate_payloads`](super::estimate_payloads) and the band join.

use super::{SketchScheme, VERSION};
use crate::error::{Error, Result};

/// Sketches of one scheme, by position (a dedup's slot), in one buffer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SketchRows {
    bytes: Vec<u8>,
    width: usize,
}

impl SketchRows {
    /// Rows of `2 + scheme.size()` bytes, one after another, each a sketch's
    /// [`Sketch::to_bytes`](super::Sketch::to_bytes). A length that is not a multiple of the
    /// width, or a row whose header is not `scheme`'s, is an [`Error::InvalidOption`] for `sketches`.
    pub fn from_bytes(bytes: Vec<u8>, scheme: SketchScheme) -> Result<SketchRows> {
        let width = 2 + scheme.size();
        let header = [VERSION, (scheme.size() / 8) as u8];
        let bad_row = bytes.chunks(width).position(|r| r.len() != width || r[..2] != header);
        if let Some(row) = bad_row {
            return Err(Error::option(
                "sketches",
                format!("row {row} of {} bytes", bytes.len()),
                format!("{} sketches of {width} bytes each, one after another", scheme.describe()),
            ));
        }
        Ok(SketchRows { bytes, width })
    }

    /// The rows of `sketches` (all of one scheme).
    #[cfg(test)]
    pub fn from_sketches(sketches: &[super::Sketch]) -> SketchRows {
        let width = sketches.first().map_or(0, |s| 2 + s.payload().len());
        let mut bytes = Vec::with_capacity(width * sketches.len());
        for s in sketches {
            bytes.extend_from_slice(&s.to_bytes());
        }
        SketchRows { bytes, width }
    }

    /// The number of sketches.
    pub fn len(&self) -> usize {
        self.bytes.len().checked_div(self.width).unwrap_or(0)
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The scheme of the rows (`None` without any).
    pub fn scheme(&self) -> Option<SketchScheme> {
        (self.width > 2).then(|| SketchScheme { size: (self.width - 2) as u16 })
    }

    /// The payload ([`Sketch::payload`](super::Sketch::payload)) of sketch `i`.
    pub fn payload(&self, i: usize) -> &[u8] {
        &self.bytes[i * self.width + 2..(i + 1) * self.width]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fingerprint::{Options, SimHasher};
    use crate::sketch::Sketch;

    #[test]
    fn rows_read_as_the_sketches_they_hold_and_bad_rows_are_named() {
        let mut h = SimHasher::new(Options::default()).unwrap();
        let texts = ["one small text about foxes and dogs", "another text, about cats", "一些中文的文字"];
        let sk: Vec<Sketch> = texts.iter().map(|t| h.sketch(t, SketchScheme::default()).unwrap()).collect();
        let rows = SketchRows::from_sketches(&sk);
        assert_eq!(rows.len(), 3);
        assert_eq!(rows.scheme(), Some(SketchScheme::default()));
        let flat: Vec<u8> = sk.iter().flat_map(|s| s.to_bytes()).collect();
        assert_eq!(SketchRows::from_bytes(flat.clone(), SketchScheme::default()).unwrap(), rows);
        for (i, s) in sk.iter().enumerate() {
            assert_eq!(rows.payload(i), s.payload());
            for (j, t) in sk.iter().enumerate() {
                assert_eq!(
                    super::super::estimate_payloads(rows.payload(i), rows.payload(j)),
                    super::super::estimate(s, t)
                );
            }
        }
        let e = SketchRows::from_bytes(flat[1..].to_vec(), SketchScheme::default()).unwrap_err();
        assert!(e.to_string().contains("`sketches`") && e.to_string().contains("row 0"), "{e}");
        let mut wrong = flat.clone();
        wrong[2 * 130 + 1] = 8;
        let e = SketchRows::from_bytes(wrong, SketchScheme::default()).unwrap_err();
        assert!(e.to_string().contains("row 2"), "{e}");
        assert!(SketchRows::from_sketches(&[]).is_empty());
    }
}
