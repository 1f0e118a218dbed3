//! A crawler's "content seen?" test (Manku et al. 2007, section 1): one call per fetched
//! page says whether a near-duplicate is already known, remembers the page when it is new,
//! and counts how often each page's content was met again.
//!
//! **What a duplicate does.** A page whose fingerprint is within `k` bits of a stored page
//! is *not* inserted: the index keeps one representative per group of near-duplicates, as a
//! crawler keeps one copy. The hit is counted instead: the count of the nearest stored page
//! (smallest distance, then smallest id) goes up by one, and the duplicate's URL is
//! remembered as an alias of that page, so [`ContentSeen::count`] answers for it too.
//! A count is "how many times this content was seen", 1 for a page met once; content that
//! is copied often is likely to matter.
//!
//! Checking a stored URL again counts as another sighting when its content is still within
//! `k` bits of what is stored; when the content moved further, the stored fingerprint is
//! replaced by the new one and its count starts again at 1.
//!
//! ```
//! use simhash_wasm::{ContentSeen, SeenConfig};
//! let mut seen = ContentSeen::new(SeenConfig { html: true, ..SeenConfig::default() })?;
//! let page = "<p>The quick brown fox jumps over the lazy dog, again and again.</p>";
//! assert!(!seen.check("https://a.example/1", page)?.duplicate);
//! let again = seen.check("https://mirror.example/1", &format!("<div>{page}</div>"))?;
//! assert!(again.duplicate);
//! assert_eq!(seen.count("https://mirror.example/1"), Some(2));
//! let back = ContentSeen::from_bytes(&seen.to_bytes(), None)?;
//! assert_eq!(back.count("https://a.example/1"), Some(2));
//! # Ok::<(), simhash_wasm::Error>(())
//! ```
//!
//! The parts: this file is the test itself ([`ContentSeen`]); [`snapshot`] is its
//! `SEEN` codec (`to_bytes` / `from_bytes`) and documents the layout.

use std::collections::HashMap;

use crate::error::{Error, Result};
use crate::fingerprint::{Options, SimHasher};
use crate::index::{Index, Layout, Match};

pub mod snapshot;

/// Settings of a [`ContentSeen`].
#[derive(Clone, Debug, PartialEq)]
pub struct SeenConfig {
    /// Pages within `k` bits of a stored page are duplicates (default 3, as in the paper).
    pub k: u32,
    /// The index layout; `None` is [`Layout::default_for_k`].
    pub layout: Option<Layout>,
    /// The fingerprint scheme.
    pub options: Options,
    /// Read inputs as HTML and fingerprint their visible text (the `html` module, Cargo
    /// feature `html`).
    pub html: bool,
}

impl SeenConfig {
    /// The option names of a ContentSeen, as the JS API spells them (besides
    /// [`crate::Options::NAMES`]).
    pub const NAMES: [&'static str; 5] = ["k", "layout", "expectedSize", "memoryBudget", "html"];
}

impl Default for SeenConfig {
    fn default() -> Self {
        SeenConfig { k: 3, layout: None, options: Options::default(), html: false }
    }
}

/// The answer of [`ContentSeen::check`].
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// `true` when a stored page is within `k` bits (the page was not stored).
    pub duplicate: bool,
    /// Stored pages within `k` bits, nearest first.
    pub matches: Vec<Match<String>>,
    /// The page's fingerprint.
    pub fingerprint: u64,
    /// The stored page the URL is now counted under (itself when new).
    pub cluster: String,
    /// That page's count after this check.
    pub count: u64,
}

/// A stored page with its count, as [`ContentSeen::clusters`] lists them.
#[derive(Clone, Debug, PartialEq)]
pub struct SeenPage {
    /// The URL (id) the content was first stored under.
    pub id: String,
    /// Its fingerprint.
    pub fingerprint: u64,
    /// How many times its content was seen (1 + duplicate hits).
    pub count: u64,
    /// URLs that were found to be duplicates of it, sorted.
    pub duplicates: Vec<String>,
}

/// The content-seen test: a hasher, an index of one page per near-duplicate group, and
/// counts. See the [module docs](self) for what a duplicate does.
#[derive(Clone, Debug)]
pub struct ContentSeen {
    config: SeenConfig,
    hasher: SimHasher,
    index: Index<String>,
    counts: HashMap<String, u64>,
    aliases: HashMap<String, String>,
}

impl ContentSeen {
    /// An empty content-seen test, or an error naming the bad setting.
    pub fn new(config: SeenConfig) -> Result<ContentSeen> {
        let layout = match &config.layout {
            Some(l) => {
                if l.k() != config.k {
                    return Err(Error::option(
                        "layout",
                        l.to_string(),
                        format!("a layout for k = {}", config.k),
                    ));
                }
                l.clone()
            }
            None => Layout::default_for_k(config.k)?,
        };
        let mut hasher = SimHasher::new(config.options)?;
        hasher.set_html(config.html)?;
        let mut index = Index::new(layout.clone());
        index.set_scheme(Some(config.options));
        Ok(ContentSeen {
            config: SeenConfig { layout: Some(layout), ..config },
            hasher,
            index,
            counts: HashMap::new(),
            aliases: HashMap::new(),
        })
    }

    /// The settings in force (the layout filled in).
    pub fn config(&self) -> &SeenConfig {
        &self.config
    }

    /// Fingerprints `text` (HTML when so configured), reports the stored pages within `k`
    /// bits, and either stores the page (new) or counts it (duplicate).
    ///
    /// Errors: the text cannot be fingerprinted ([`Error::EmptyText`],
    /// [`Error::TextTooShort`]); nothing is changed then.
    pub fn check(&mut self, url: &str, text: &str) -> Result<Check> {
        let fingerprint = self.hasher.fingerprint(text)?;
        Ok(self.check_fingerprint(url, fingerprint))
    }

    /// [`check`](Self::check) for a fingerprint computed elsewhere (same scheme).
    pub fn check_fingerprint(&mut self, url: &str, fingerprint: u64) -> Check {
        let matches = self.index.query(fingerprint);
        if let Some(nearest) = matches.first() {
            let cluster = nearest.id.clone();
            let count = self.counts.entry(cluster.clone()).or_insert(1);
            *count += 1;
            let count = *count;
            if cluster != url && !self.index.contains(&url.to_owned()) {
                self.aliases.insert(url.to_owned(), cluster.clone());
            }
            return Check { duplicate: true, matches, fingerprint, cluster, count };
        }
        let id = url.to_owned();
        if self.index.contains(&id) {
            // The stored page changed beyond k bits: keep the new content.
            let _ = self.index.remove(&id);
        }
        self.aliases.remove(&id);
        // Cannot fail: the id is not stored (removed just above if it was).
        let _ = self.index.insert(id.clone(), fingerprint);
        self.counts.insert(id.clone(), 1);
        Check { duplicate: false, matches, fingerprint, cluster: id, count: 1 }
    }

    /// The fingerprint of `text` with this test's settings, without checking or storing.
    pub fn fingerprint(&mut self, text: &str) -> Result<u64> {
        self.hasher.fingerprint(text)
    }

    /// How many times the content of `url` was seen: for a stored URL its own count, for
    /// a URL found to be a duplicate the count of the page it joined; `None` if unknown.
    pub fn count(&self, url: &str) -> Option<u64> {
        match self.aliases.get(url) {
            Some(rep) => self.counts.get(rep).copied(),
            None => self.counts.get(url).copied(),
        }
    }

    /// The stored page a URL is counted under (itself when stored), if known.
    pub fn cluster_of(&self, url: &str) -> Option<&str> {
        match self.aliases.get(url) {
            Some(rep) => Some(rep),
            None => self.counts.get_key_value(url).map(|(k, _)| k.as_str()),
        }
    }

    /// Every stored page with its count and duplicate URLs, most seen first (then by id).
    pub fn clusters(&self) -> Vec<SeenPage> {
        let mut dups: HashMap<&str, Vec<String>> = HashMap::new();
        for (url, rep) in &self.aliases {
            dups.entry(rep.as_str()).or_default().push(url.clone());
        }
        let mut out: Vec<SeenPage> = self
            .index
            .iter()
            .map(|(id, fingerprint)| {
                let mut duplicates = dups.remove(id.as_str()).unwrap_or_default();
                crate::sort::sort(&mut duplicates);
                SeenPage {
                    id: id.clone(),
                    fingerprint,
                    count: self.counts.get(id).copied().unwrap_or(1),
                    duplicates,
                }
            })
            .collect();
        crate::sort::sort_by(&mut out, |a, b| b.count.cmp(&a.count).then_with(|| a.id.cmp(&b.id)));
        out
    }

    /// Number of stored (distinct) pages.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// `true` when no page is stored.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// Number of URLs known as duplicates of a stored page.
    pub fn duplicate_urls(&self) -> usize {
        self.aliases.len()
    }

    /// The index of stored pages (read only).
    pub fn index(&self) -> &Index<String> {
        &self.index
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "Crawlers meet the same article under many addresses, and keep only one copy of it.";
    const B: &str = "An entirely different page about gardening: tomatoes need sun, water and patience.";

    #[test]
    fn duplicates_are_counted_not_stored() {
        let mut s = ContentSeen::new(SeenConfig::default()).unwrap();
        let c = s.check("a", A).unwrap();
        assert!(!c.duplicate && c.matches.is_empty() && c.count == 1);
        let c = s.check("a2", &format!("{A} ")).unwrap();
        assert!(c.duplicate);
        assert_eq!(c.matches[0].id, "a");
        assert_eq!(c.cluster, "a");
        assert_eq!(c.count, 2);
        s.check("a3", A).unwrap();
        assert!(!s.check("b", B).unwrap().duplicate);
        assert_eq!(s.len(), 2);
        assert_eq!(s.count("a"), Some(3));
        assert_eq!(s.count("a3"), Some(3));
        assert_eq!(s.count("b"), Some(1));
        assert_eq!(s.count("zzz"), None);
        let cl = s.clusters();
        assert_eq!(cl[0].id, "a");
        assert_eq!(cl[0].duplicates, vec!["a2".to_string(), "a3".to_string()]);
        assert_eq!(cl[1].count, 1);
        // An error leaves the state unchanged.
        assert!(s.check("empty", "   ").is_err());
        assert_eq!(s.len(), 2);
    }

    #[test]
    fn a_changed_page_replaces_its_fingerprint() {
        let mut s = ContentSeen::new(SeenConfig::default()).unwrap();
        s.check("u", A).unwrap();
        assert!(s.check("u", A).unwrap().duplicate);
        assert_eq!(s.count("u"), Some(2));
        let c = s.check("u", B).unwrap();
        assert!(!c.duplicate);
        assert_eq!(s.len(), 1);
        assert_eq!(s.count("u"), Some(1));
    }
}
