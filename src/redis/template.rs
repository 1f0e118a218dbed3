//! The site templates of a shared store ([`crate::html::TemplateModel`] kept in Redis), so
//! that every worker learns from every page and decides as one `ContentSeen` would.
//!
//! Per host, two keys: `{NS}:tp:HOST`, the set of the keys of the pages learnt
//! ([`page_key`](crate::html::template::page_key), 8 bytes big-endian), and `{NS}:tb:HOST`,
//! a hash of block hash (8 bytes big-endian) to the number of those pages it was seen on.
//! A check:
//!
//! 1. reads the counts of the page's blocks with one `HMGET` ([`TemplateRead::fields`]);
//! 2. reads the page without the blocks counted on `template` pages or more
//!    ([`TemplateRead::read`]) and checks that text as usual;
//! 3. learns the page with the `LEARN` script ([`TemplateRead::learn_args`]): all its
//!    blocks when it was not a duplicate, else those it was not judged by; `SADD` of the
//!    page key first, and the counts go up only when it was new, so a page learnt by
//!    several workers at once counts once. A host learns from
//!    [`PAGES_PER_HOST`](crate::html::template::PAGES_PER_HOST) pages at most (the
//!    set's size), as in `ContentSeen`; its keys keep the blocks of those pages (about 16
//!    bytes each), and are not pruned to the template as `ContentSeen`'s model is (the
//!    decisions are the same).
//!
//! `LEARN`: `KEYS` = the meta key, the page set, the block hash; `ARGV`: 1 meta, 2 the page
//! key, 3 the most pages a host learns, then the block hashes. Replies `{"1"}` (learnt),
//! `{"0"}` (learnt before, or the host is full), `{"X", meta}` / `{"G"}` as the other
//! scripts do.
//!
//! Sequential checks give `ContentSeen`'s decisions exactly; checks of one host running at
//! once on several workers each read the counts as they were before the others learnt.

use crate::error::{Error, Result};
use crate::html::template::{blocks, main_content_with, page_key, PAGES_PER_HOST};

/// The `LEARN` script.
pub const LEARN: &str = include_str!("lua/learn.lua");

/// One page's template read, between the `HMGET` of its blocks' counts and the `LEARN`.
#[derive(Clone, Debug)]
pub struct TemplateRead {
    keys: [String; 3],
    html: String,
    all: String,
    blocks: Vec<u64>,
    key: u64,
    min: u32,
    text: Option<String>,
}

impl TemplateRead {
    /// The read of `html`, a page of `url`, in namespace `ns` whose meta key is `meta_key`,
    /// with `min` the `template` setting.
    pub fn new(ns: &str, meta_key: &str, url: &str, html: &str, min: u32) -> TemplateRead {
        let host = crate::html::template::host_of(url);
        let all = crate::html::html_to_text(html);
        let b = blocks(&all);
        TemplateRead {
            keys: [meta_key.to_owned(), format!("{{{ns}}}:tp:{host}"), format!("{{{ns}}}:tb:{host}")],
            html: html.to_owned(),
            all,
            key: page_key(&b),
            blocks: b,
            min,
            text: None,
        }
    }

    /// The `LEARN` script's `KEYS`: the meta key, the host's page set and block hash.
    pub fn keys(&self) -> &[String; 3] {
        &self.keys
    }

    /// The `HMGET` fields (after the block hash's key): the page's blocks, 8 bytes
    /// big-endian each; none for a page without text (then no `HMGET` is needed).
    pub fn fields(&self) -> Vec<Vec<u8>> {
        self.blocks.iter().map(|b| b.to_be_bytes().to_vec()).collect()
    }

    /// The page's text without its template, from the `HMGET` reply (a count per field,
    /// `None` for a block never seen).
    pub fn read(&mut self, counts: &[Option<Vec<u8>>]) -> Result<String> {
        if counts.len() != self.blocks.len() {
            return Err(Error::corrupt(
                "Redis reply",
                0,
                "HMGET gave another number of counts than blocks asked",
            ));
        }
        let mut template = Vec::new();
        for (b, c) in self.blocks.iter().zip(counts) {
            let n = match c {
                None => 0,
                Some(v) => {
                    std::str::from_utf8(v).ok().and_then(|s| s.parse::<u64>().ok()).ok_or_else(|| {
                        Error::corrupt("Redis reply", 0, "a template count that is not a number")
                    })?
                }
            };
            if n >= u64::from(self.min) {
                template.push(*b);
            }
        }
        let text = main_content_with(&self.html, &self.all, |b| template.binary_search(&b).is_ok());
        self.text = Some(text.clone());
        Ok(text)
    }

    /// The `LEARN` script's `ARGV` once the check was decided (`duplicate`: it was), after
    /// [`read`](Self::read); `None` when there is nothing to learn.
    pub fn learn_args(&self, meta: &str, duplicate: bool) -> Option<Vec<Vec<u8>>> {
        let mut b = self.blocks.clone();
        if duplicate {
            let read = blocks(self.text.as_deref().unwrap_or(""));
            b.retain(|x| read.binary_search(x).is_err());
        }
        if b.is_empty() {
            return None;
        }
        let mut argv = vec![
            meta.as_bytes().to_vec(),
            self.key.to_be_bytes().to_vec(),
            PAGES_PER_HOST.to_string().into_bytes(),
        ];
        argv.extend(b.iter().map(|x| x.to_be_bytes().to_vec()));
        Some(argv)
    }
}
