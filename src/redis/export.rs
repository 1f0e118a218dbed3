//! A namespace's [`ContentSeen`] snapshot, built from its pages and aliases as they are
//! read (`HSCAN`), so that the reader holds one scan batch at a time, never the whole list.

use std::collections::HashMap;
use std::sync::Arc;

use super::Store;
use crate::error::{Error, Result};
use crate::seen::{ContentSeen, SeenConfig};
use crate::sketch::Sketch;

/// Builds the snapshot with [`ContentSeen`]'s public API only: each page is checked in
/// (with its sketch when it has one) as it is added, each alias is checked with its
/// cluster's fingerprint and sketch (one more on that count), and [`ExportBuilder::finish`]
/// re-checks each page to reach its count (a page's own sketch is its best match, estimate
/// 1): `count − 1 − aliases` times, fewer being refused as corrupt. Pages must all be
/// added before the first alias.
pub struct ExportBuilder {
    store: Arc<Store>,
    seen: ContentSeen,
    /// Each page's fingerprint, stored count, and the aliases checked under it.
    pages: HashMap<String, (u64, u64, u64)>,
}

impl ExportBuilder {
    pub(super) fn new(store: Arc<Store>, config: &SeenConfig) -> Result<ExportBuilder> {
        let mut seen = ContentSeen::new(config.clone())?;
        seen.set_template_hash(store.block_hash);
        Ok(ExportBuilder { store, seen, pages: HashMap::new() })
    }

    fn check(&mut self, url: &str, fp: u64, sketch_of: &str) -> Result<crate::Check> {
        match self.seen.sketch_of(sketch_of).cloned() {
            Some(s) => self.seen.check_fingerprint_and_sketch(url, fp, s),
            None => Ok(self.seen.check_fingerprint(url, fp)),
        }
    }

    /// One stored page: fingerprint, URL, count, and in sketch mode the sketch payload
    /// (`None` for a page stored without one).
    pub fn add_page(&mut self, fp: u64, url: &str, count: u64, sketch: Option<&[u8]>) -> Result<()> {
        let sk = match sketch {
            None => None,
            Some(b) => {
                let scheme = self.store.sketch.ok_or_else(|| {
                    Error::option("sketch", "false", "a sketch-mode store for pages with sketches")
                })?;
                Some(Sketch::from_stored_payload(scheme, b)?)
            }
        };
        let what = if sk.is_some() { "a duplicate of" } else { "within k of" };
        let dup = match sk {
            Some(s) => self.seen.check_fingerprint_and_sketch(url, fp, s)?,
            None => self.seen.check_fingerprint(url, fp),
        };
        if dup.duplicate || self.pages.insert(url.to_owned(), (fp, count, 0)).is_some() {
            return Err(Error::corrupt(
                "Redis namespace",
                0,
                format!("{} is {what} another stored page", crate::error::quoted(url)),
            ));
        }
        Ok(())
    }

    /// One alias: a URL counted under the stored page `cluster` (ignored when no such page
    /// was added).
    pub fn add_alias(&mut self, url: &str, cluster: &str) -> Result<()> {
        let Some(&(fp, _, _)) = self.pages.get(cluster) else { return Ok(()) };
        self.check(url, fp, cluster)?;
        self.pages.get_mut(cluster).expect("found above").2 += 1;
        Ok(())
    }

    /// One host's site template (from [`super::RedisSeen::export_template_host`]).
    #[cfg(feature = "html")]
    pub fn add_template_host(&mut self, host: crate::html::template::HostParts) -> Result<()> {
        self.seen.insert_template_host(host)
    }

    /// The snapshot bytes.
    pub fn finish(mut self) -> Result<Vec<u8>> {
        let pages = std::mem::take(&mut self.pages);
        for (url, (fp, count, aliases)) in &pages {
            for _ in 0..super::rechecks(url, *count, *aliases)? {
                self.check(url, *fp, url)?;
            }
        }
        Ok(self.seen.to_bytes())
    }
}
