//! Learning an [`IdfTable`] from texts, cut into features as a [`SimHasher`] cuts them.
//! It lives with the hasher (and not with the table, in `weight.rs`) so that the weights
//! stay below the fingerprint: the table is data, the hasher is what reads texts.

use super::SimHasher;
use crate::error::{Error, Result};
use crate::weight::IdfTable;

impl IdfTable {
    /// A table learnt from `texts`, each cut into features as `hasher` cuts them (its
    /// options, and its HTML setting): see [`add_texts`](Self::add_texts).
    ///
    /// ```
    /// use simhash_wasm::{IdfTable, Options, SimHasher};
    /// let mut h = SimHasher::new(Options::default())?;
    /// let t = IdfTable::learn(&mut h, ["the cat sat on the mat", "the dog sat on the log"])?;
    /// assert_eq!(t.documents(), 2);
    /// let (one, both) = (h.feature_hashes("the ca")?[0], h.feature_hashes("sat on")?[0]);
    /// assert_eq!((t.df(one), t.df(both)), (1, 2));
    /// assert!(t.idf(one) > t.idf(both));
    /// assert!(IdfTable::learn(&mut h, ["long enough text", "short"]).is_err());
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn learn<'t>(hasher: &mut SimHasher, texts: impl IntoIterator<Item = &'t str>) -> Result<IdfTable> {
        let mut table = IdfTable::new();
        table.add_texts(hasher, texts)?;
        Ok(table)
    }

    /// Counts every text of `texts` as one document, with the distinct features `hasher`
    /// finds in it. A text with no feature (empty, or shorter than one n-gram) is an error
    /// naming its index ([`Error::InDocument`]), and nothing of this call is counted.
    pub fn add_texts<'t>(
        &mut self,
        hasher: &mut SimHasher,
        texts: impl IntoIterator<Item = &'t str>,
    ) -> Result<()> {
        let mut docs = Vec::new();
        for (index, text) in texts.into_iter().enumerate() {
            docs.push(
                hasher.feature_hashes(text).map_err(|e| Error::InDocument { index, error: Box::new(e) })?,
            );
        }
        for d in docs {
            self.add_document(d);
        }
        Ok(())
    }
}
