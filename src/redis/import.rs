//! Loading a [`ContentSeen`] snapshot into a namespace: the IMPORT scripts' argument
//! batches, made one at a time by an [`ImportCursor`] so that only the decoded snapshot
//! and the batch being sent are held, whatever the snapshot's size; then, from the same
//! decoded snapshot, the calls that write its site templates.

use std::sync::Arc;

use super::{keys, record, record::PageRecord, Store};
use crate::error::Result;
use crate::seen::{ContentSeen, SeenPage};

/// The IMPORT (fingerprint-only) or IMPORT_SKETCH (sketch mode) `ARGV` batches of one
/// snapshot, in order; [`ImportCursor::next_batch`] makes the next one. The first batch
/// carries `first` (the script then refuses a namespace that holds pages), so it must be
/// applied before the others are sent.
pub struct ImportCursor {
    store: Arc<Store>,
    namespace: String,
    seen: ContentSeen,
    pages: Vec<SeenPage>,
    batch: usize,
    /// The next page, and (fingerprint-only) what of it comes next: 0 its page entry,
    /// `i` its `i`th duplicate URL.
    page: usize,
    alias: usize,
    /// Sketch mode's page numbers: the last one given.
    number: u32,
    started: bool,
}

impl ImportCursor {
    pub(super) fn new(store: Arc<Store>, namespace: String, seen: ContentSeen, batch: usize) -> ImportCursor {
        let pages = seen.clusters();
        ImportCursor {
            store,
            namespace,
            seen,
            pages,
            batch: batch.max(1),
            page: 0,
            alias: 0,
            number: 0,
            started: false,
        }
    }

    /// The `IMPORT_TEMPLATE` calls (`(KEYS, ARGV)`, at most about `batch` blocks each) that
    /// write the snapshot's site templates, sent after its pages; none when the store
    /// learns no template, or when the snapshot's blocks are hashed otherwise than the
    /// namespace's (a `SEEN` 4 model into a version-5 namespace: the namespace learns its
    /// templates again from the pages it checks).
    #[cfg(feature = "html")]
    pub fn template_calls(&self) -> Vec<super::template::ImportCall> {
        let Some(model) = self.seen.template().filter(|m| m.hash() == self.store.block_hash) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for host in model.hosts() {
            out.extend(super::template::import_host(
                &self.namespace,
                &self.store.keys[0],
                &self.store.meta,
                &host,
                self.batch,
            ));
        }
        out
    }

    /// The snapshot's stored pages (for progress).
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn pages(&self) -> usize {
        self.pages.len()
    }

    /// The pages of the snapshot already put into batches.
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn pages_done(&self) -> usize {
        self.page
    }

    /// The next batch, or `None` after the last. An empty snapshot gives one batch (the
    /// `first` batch checks that the namespace is empty).
    pub fn next_batch(&mut self) -> Result<Option<Vec<Vec<u8>>>> {
        if self.started && self.page >= self.pages.len() {
            return Ok(None);
        }
        let first = !self.started;
        self.started = true;
        if self.store.sketch.is_some() {
            self.next_sketch(first).map(Some)
        } else {
            self.next_plain(first).map(Some)
        }
    }

    fn head(&self, first: bool) -> Vec<Vec<u8>> {
        vec![
            self.store.meta.as_bytes().to_vec(),
            if first { b"first".to_vec() } else { Vec::new() },
            self.store.geometry.len().to_string().into_bytes(),
        ]
    }

    /// Up to `batch` entries (a page, or one of its duplicate URLs, counts one).
    fn next_plain(&mut self, first: bool) -> Result<Vec<Vec<u8>>> {
        let store = &self.store;
        let mut args = self.head(first);
        let mut entries = 0;
        while entries < self.batch && self.page < self.pages.len() {
            let page = &self.pages[self.page];
            if self.alias == 0 {
                args.extend([
                    b"P".to_vec(),
                    page.fingerprint.to_be_bytes().to_vec(),
                    PageRecord { url: page.id.clone(), sketch: None }.encode()?,
                    page.count.to_string().into_bytes(),
                    if store.urls { page.id.clone().into_bytes() } else { Vec::new() },
                ]);
                for t in &store.geometry {
                    args.extend([
                        t.bucket_key(page.fingerprint),
                        t.bucket_field(page.fingerprint),
                        t.record(page.fingerprint),
                    ]);
                }
            } else {
                let d = &page.duplicates[self.alias - 1];
                args.extend([b"A".to_vec(), d.clone().into_bytes(), page.id.clone().into_bytes()]);
            }
            entries += 1;
            self.alias += 1;
            if self.alias > if store.urls { page.duplicates.len() } else { 0 } {
                self.page += 1;
                self.alias = 0;
            }
        }
        Ok(args)
    }

    /// Up to `batch` pages with their duplicate URLs; pages get the numbers 1, 2, … in the
    /// snapshot's order (so the namespace must be empty).
    fn next_sketch(&mut self, first: bool) -> Result<Vec<Vec<u8>>> {
        let end = (self.page + self.batch).min(self.pages.len());
        let mut args = self.head(first);
        args.extend([
            self.number.to_string().into_bytes(),
            (self.number + (end - self.page) as u32).to_string().into_bytes(),
        ]);
        for page in &self.pages[self.page..end] {
            self.number += 1;
            let pn = self.number.to_be_bytes();
            let sketch = self.seen.sketch_of(&page.id);
            let rec = PageRecord {
                url: page.id.clone(),
                sketch: sketch.map(|s| (crate::sketch::VERSION, s.payload().to_vec())),
            };
            args.extend([
                b"P".to_vec(),
                pn.to_vec(),
                record::encode_page_value(page.fingerprint, &rec)?,
                page.count.to_string().into_bytes(),
                page.id.clone().into_bytes(),
            ]);
            for t in &self.store.geometry {
                let mut r = t.record(page.fingerprint);
                r.extend_from_slice(&pn);
                args.extend([t.bucket_key(page.fingerprint), t.bucket_field(page.fingerprint), r]);
            }
            let bands = sketch.map_or(0, |s| crate::sketch::bands::bands_for(s.scheme()));
            args.push(bands.to_string().into_bytes());
            if let Some(s) = sketch {
                for b in 0..bands {
                    let (h, f, kb) = keys::band_bucket(b, crate::sketch::bands::band_key(s, b));
                    args.extend([h, f, vec![kb]]);
                }
            }
            for d in &page.duplicates {
                args.extend([b"A".to_vec(), d.clone().into_bytes(), page.id.clone().into_bytes()]);
            }
        }
        self.page = end;
        Ok(args)
    }
}
