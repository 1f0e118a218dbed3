//! The sketch's shingles, gathered by the fingerprint's scan: one pass over a normalised
//! text yields both the fingerprint's n-grams and the sketch's shingles (the second n-gram
//! size of `tokenize::for_each_char_ngram_pair`). The fingerprint (`fingerprint/`) fills a
//! [`Shingles`]; the sketch (`sketch/`) makes a sketch of its hashes. Neither reaches into
//! the other's buffers.

use crate::hash::hash_bytes;
use crate::tokenize::for_each_char_ngram;

/// Shingles are runs of this many grapheme clusters.
pub const SHINGLE: usize = 4;

/// One text's shingle hashes, in text order, with repeats. Reused across texts.
#[derive(Clone, Debug, Default)]
pub(crate) struct Shingles {
    pub(crate) hashes: Vec<u64>,
}

impl Shingles {
    /// Forgets the current text's shingles.
    pub(crate) fn clear(&mut self) {
        self.hashes.clear();
    }

    /// The shingles of `norm`, a normalised text, by a scan of their own; returns the
    /// number of grapheme clusters of `norm`.
    pub(crate) fn scan(&mut self, norm: &str) -> usize {
        self.clear();
        let hashes = &mut self.hashes;
        let units = for_each_char_ngram(norm, SHINGLE, |_, _, h| hashes.push(h));
        self.short_text(norm, units);
        units
    }

    /// After a scan of `units` clusters of `norm` that found no shingle (fewer than
    /// [`SHINGLE`] clusters): the whole text is the one shingle.
    pub(crate) fn short_text(&mut self, norm: &str, units: usize) {
        if units < SHINGLE && !norm.is_empty() {
            self.hashes.clear();
            self.hashes.push(hash_bytes(norm.as_bytes()));
        }
    }
}
