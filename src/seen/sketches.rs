//! The stored pages' sketches and their band index: the second candidate source and the
//! verification step of [`ContentSeen`](super::ContentSeen)'s two-step flow.

use std::collections::HashMap;

use crate::error::Result;
use crate::sketch::bands::BandIndex;
use crate::sketch::{Sketch, SketchScheme};

/// Sketches by URL, with entry numbers for the [`BandIndex`] (freed numbers are reused).
#[derive(Clone, Debug)]
pub(crate) struct SketchStore {
    bands: BandIndex,
    entry_of: HashMap<String, u32>,
    /// Entry number → (URL, sketch); `None` for a freed number.
    entries: Vec<Option<(String, Sketch)>>,
    free: Vec<u32>,
}

impl SketchStore {
    pub(crate) fn new(scheme: SketchScheme) -> SketchStore {
        SketchStore {
            bands: BandIndex::new(scheme),
            entry_of: HashMap::new(),
            entries: Vec::new(),
            free: Vec::new(),
        }
    }

    pub(crate) fn scheme(&self) -> SketchScheme {
        self.bands.scheme()
    }

    /// Number of pages with a sketch.
    pub(crate) fn len(&self) -> usize {
        self.entry_of.len()
    }

    /// The sketch stored for `url`.
    pub(crate) fn get(&self, url: &str) -> Option<&Sketch> {
        let &e = self.entry_of.get(url)?;
        self.entries[e as usize].as_ref().map(|(_, s)| s)
    }

    /// Stores `sketch` for `url` (replacing any earlier one). The scheme is the caller's
    /// to check: a sketch of another size is [`crate::Error::SchemeMismatch`], unchanged.
    pub(crate) fn insert(&mut self, url: &str, sketch: Sketch) -> Result<()> {
        let e = match self.free.last() {
            Some(&e) => e,
            None => u32::try_from(self.entries.len()).expect("fewer than 2^32 stored pages"),
        };
        self.bands.insert(e, &sketch)?;
        if self.free.last() == Some(&e) {
            self.free.pop();
        } else {
            self.entries.push(None);
        }
        self.remove(url);
        self.entries[e as usize] = Some((url.to_owned(), sketch));
        self.entry_of.insert(url.to_owned(), e);
        Ok(())
    }

    /// Forgets the sketch of `url`, returning it.
    pub(crate) fn remove(&mut self, url: &str) -> Option<Sketch> {
        let e = self.entry_of.remove(url)?;
        let (_, sketch) = self.entries[e as usize].take().expect("a live entry");
        let removed = self.bands.remove(e, &sketch).expect("a sketch of the store's scheme");
        debug_assert!(removed);
        self.free.push(e);
        Some(sketch)
    }

    /// The URLs of stored pages sharing a band with `sketch`, with their sketches.
    pub(crate) fn band_matches(&self, sketch: &Sketch) -> Result<Vec<(&str, &Sketch)>> {
        let hits = self.bands.query(sketch)?;
        Ok(hits
            .into_iter()
            .filter_map(|e| self.entries[e as usize].as_ref().map(|(u, s)| (u.as_str(), s)))
            .collect())
    }

    /// Heap bytes of the band index (the sketches themselves are `len · size`).
    pub(crate) fn band_bytes(&self) -> usize {
        self.bands.heap_bytes()
    }
}
