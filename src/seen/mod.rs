//! A crawler's "content seen?" test (Manku et al. 2007, section 1): one call per fetched
//! page says whether a near-duplicate is already known, remembers the page when it is new,
//! and counts how often each page's content was met again.
//!
//! **Which pages are near-duplicates.** By default each stored page keeps a 128-byte
//! [similarity sketch](crate::sketch) beside its fingerprint, and a check has two steps:
//! the *candidates* are the stored pages within `k` bits (default 3: exact copies and
//! near-exact pages) and those sharing a MinHash band with the page
//! (the [`BandIndex`](crate::sketch::BandIndex), which finds pages of Jaccard ≥ 0.8 however far their
//! fingerprints are); a candidate is a *duplicate* when the estimated Jaccard similarity of
//! the 4-gram shingle sets reaches `threshold` (default [`DEFAULT_THRESHOLD`]). On the dev
//! corpus that flow reaches F1 0.941 at precision 0.981, where the 64-bit fingerprint alone
//! (`sketch: None`, [`SeenConfig::fingerprint_only`]: pages within `k` bits are
//! duplicates, 8 bytes a page) reaches 0.79 at best. A stored page without a sketch
//! (from a version-1 snapshot, or stored by [`ContentSeen::check_fingerprint`]) is matched
//! by fingerprint within `k` only, and a page so matched is a duplicate.
//!
//! **What a duplicate does.** A duplicate is *not* inserted: the index keeps one
//! representative per group of near-duplicates, as a crawler keeps one copy. The hit is
//! counted instead: the count of the best match (see [`Check::matches`]) goes up by one,
//! and the duplicate's URL is remembered as an alias of that page, so
//! [`ContentSeen::count`] answers for it too. A count is "how many times this content was
//! seen", 1 for a page met once; content that is copied often is likely to matter.
//!
//! Checking a stored URL again counts as another sighting when its content is still a
//! near-duplicate of what is stored. When its content is now a near-duplicate of another
//! stored page, that page is counted (the check's `cluster`), and the URL keeps what it
//! stored: content once seen stays seen, so a later copy of it is still a duplicate, and
//! [`ContentSeen::cluster_of`] still answers the URL itself. Otherwise (content new to the
//! store) the stored fingerprint (and sketch) is replaced by the new one and its count
//! starts again at 1. The shared store (`RedisContentSeen`) decides the same way.
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
//! The parts: this file is the test itself ([`ContentSeen`]); `sketches.rs` keeps the
//! stored pages' sketches and their band index; `codec.rs` is the `SEEN` codec
//! (`to_bytes` / `from_bytes`) and documents the layout.

use std::collections::HashMap;

use crate::error::{Error, Result};
use crate::fingerprint::{Options, SimHasher};
use crate::index::{Index, Layout, Match};
use crate::sketch::{estimate, Sketch, SketchScheme};

mod codec;
mod sketches;

use sketches::SketchStore;

/// The default threshold on the estimated Jaccard similarity: chosen on the dev corpus's
/// quality table (`npm run quality`), where it gives the best F1 with precision ≥ 0.97.
pub const DEFAULT_THRESHOLD: f64 = 0.81;

/// Settings of a [`ContentSeen`].
#[derive(Clone, Debug, PartialEq)]
pub struct SeenConfig {
    /// Pages within `k` bits of a stored page are candidates (default 3, as in the paper);
    /// without sketches, they are the duplicates.
    pub k: u32,
    /// The index layout; `None` is [`Layout::default_for_k`].
    pub layout: Option<Layout>,
    /// The fingerprint scheme.
    pub options: Options,
    /// Read inputs as HTML and fingerprint their visible text (the `html` module, Cargo
    /// feature `html`).
    pub html: bool,
    /// With `html`, which text of a page is read: its main content (the default: the
    /// article, not the template around it, so that a print version, the same article in
    /// another site's template and short pages of one template are judged by their own
    /// text) or all the visible text.
    pub content: crate::html::Content,
    /// The similarity sketch kept per page (default: 128 bytes); `None` for the
    /// fingerprint-only test (8 bytes a page, pages within `k` bits are duplicates).
    pub sketch: Option<SketchScheme>,
    /// With a sketch, a candidate is a duplicate when its estimated Jaccard similarity is
    /// at least this (default [`DEFAULT_THRESHOLD`]); unused without one.
    pub threshold: f64,
    /// With `html` and the main content: the site template learnt from the pages checked
    /// (see `html::TemplateModel`): a line seen on this many distinct new pages
    /// of a URL's host is template, and is not read (default [`DEFAULT_TEMPLATE_PAGES`];
    /// 0 turns the learning off, else at least 2).
    pub template: u32,
}

/// The default of [`SeenConfig::template`]: a line on 3 distinct pages of a host is template.
pub const DEFAULT_TEMPLATE_PAGES: u32 = 3;

impl SeenConfig {
    /// The option names of a ContentSeen, as the JS API spells them (besides
    /// [`crate::Options::NAMES`]).
    #[cfg_attr(not(all(target_arch = "wasm32", feature = "crawler")), allow(dead_code))]
    pub(crate) const NAMES: [&'static str; 9] =
        ["k", "layout", "expectedSize", "memoryBudget", "html", "content", "sketch", "threshold", "template"];

    /// The `sketch` option as the JS API gives it: `false` for the fingerprint-only test,
    /// a size in bytes up to `max` (a `ContentSeen` holds up to [`crate::sketch::MAX_SIZE`],
    /// a Redis store less), or nothing for the default (128 bytes).
    #[cfg_attr(not(all(target_arch = "wasm32", feature = "crawler")), allow(dead_code))]
    pub(crate) fn sketch_up_to(off: bool, size: Option<f64>, max: usize) -> Result<Option<SketchScheme>> {
        if off {
            return Ok(None);
        }
        SketchScheme::from_number_up_to(size, max).map(Some)
    }
}

impl Default for SeenConfig {
    fn default() -> Self {
        SeenConfig {
            k: 3,
            layout: None,
            options: Options::default(),
            html: false,
            content: crate::html::Content::Main,
            sketch: Some(SketchScheme::default()),
            threshold: DEFAULT_THRESHOLD,
            template: DEFAULT_TEMPLATE_PAGES,
        }
    }
}

impl SeenConfig {
    /// The fingerprint-only setting: the defaults without a sketch.
    pub fn fingerprint_only() -> SeenConfig {
        SeenConfig { sketch: None, ..SeenConfig::default() }
    }

    /// The settings as text: the fingerprint scheme, `k`, and with a sketch its scheme
    /// and threshold, e.g. `chars:6 sublinear punct=collapse nfkc lower sh64v1 k=3
    /// sk1:128 t=0.81`.
    pub fn describe(&self) -> String {
        let mut s = format!("{} k={}", self.options.describe(), self.k);
        if let Some(sk) = self.sketch {
            s.push_str(&format!(" {} t={}", sk.describe(), crate::error::number(self.threshold)));
        }
        s
    }

    /// `true` when the pages' template is learnt: `html`, the main content, and `template`
    /// not 0.
    pub fn learns_template(&self) -> bool {
        #[cfg(feature = "html")]
        return self.html && self.content == crate::html::Content::Main && self.template > 0;
        #[cfg(not(feature = "html"))]
        false
    }

    /// Checks `k`: 0 to 63 differing bits, refused as the option it is (before any layout
    /// is made from it).
    pub(crate) fn validate_k(&self) -> Result<()> {
        if self.k >= 64 {
            return Err(Error::option("k", self.k, "a number of differing bits from 0 to 63"));
        }
        Ok(())
    }

    fn validate_template(&self) -> Result<()> {
        if self.template == 1 {
            return Err(Error::option(
                "template",
                "1",
                "false (no learning) or the number of pages of a host from which a line is template, at least 2 (default 3)",
            ));
        }
        Ok(())
    }

    fn validate_threshold(&self) -> Result<()> {
        if !(self.threshold > 0.0 && self.threshold <= 1.0) {
            return Err(Error::option(
                "threshold",
                crate::error::number(self.threshold),
                "a Jaccard similarity above 0 and at most 1 (default 0.81)",
            ));
        }
        Ok(())
    }
}

/// A stored page found as a candidate by [`ContentSeen::check`], and the verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct SeenCandidate {
    /// The stored page's URL.
    pub id: String,
    /// Hamming distance between the fingerprints.
    pub distance: u32,
    /// Estimated Jaccard similarity; `None` when either side has no sketch.
    pub estimate: Option<f64>,
    /// `true` when it was judged a duplicate: estimate ≥ threshold, or (no estimate)
    /// within `k` bits.
    pub duplicate: bool,
}

/// The answer of [`ContentSeen::check`].
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// `true` when a stored page is a near-duplicate (the page was not stored).
    pub duplicate: bool,
    /// The stored pages judged near-duplicates, best first: without sketches, those
    /// within `k` bits, nearest first; with sketches, highest estimate first (a page
    /// without a sketch, matched by fingerprint, ranks as if at the threshold), then
    /// nearest, then by id.
    pub matches: Vec<Match<String>>,
    /// The page's fingerprint.
    pub fingerprint: u64,
    /// The stored page the URL is now counted under (itself when new).
    pub cluster: String,
    /// That page's count after this check.
    pub count: u64,
    /// The page's sketch (`None` without a sketch setting, or from
    /// [`check_fingerprint`](ContentSeen::check_fingerprint)).
    pub sketch: Option<Sketch>,
    /// Hamming distance to the best match (`None` when new).
    pub distance: Option<u32>,
    /// Estimated Jaccard similarity to the best match (`None` when new, or when either
    /// side has no sketch).
    pub estimate: Option<f64>,
    /// Every candidate examined, duplicates first in the order of `matches`, then the
    /// rejected ones by estimate (empty without sketches: there `matches` says it all).
    pub candidates: Vec<SeenCandidate>,
    /// `true` when the page has no content to compare: its text (with `html`, its visible
    /// text) has no feature, or fewer units than one n-gram (a page of scripts, an empty
    /// body, a one-word page). Nothing was stored or counted; `duplicate` is `false`,
    /// `fingerprint` 0, `cluster` empty and `count` 0 (see [`Check::empty`]).
    pub empty: bool,
}

impl Check {
    /// The answer for a page with no content to compare (the field `empty`):
    /// not a duplicate, not stored, nothing counted. A page that cannot be compared is not
    /// evidence of anything, so it neither joins a cluster (all such pages would be
    /// "duplicates" of each other) nor replaces what a URL held before.
    pub fn empty() -> Check {
        Check {
            duplicate: false,
            matches: Vec::new(),
            fingerprint: 0,
            cluster: String::new(),
            count: 0,
            sketch: None,
            distance: None,
            estimate: None,
            candidates: Vec::new(),
            empty: true,
        }
    }
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

/// The content-seen test: a hasher, an index of one page per near-duplicate group (with
/// sketches: their sketches and band index), and counts. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct ContentSeen {
    config: SeenConfig,
    hasher: SimHasher,
    index: Index<String>,
    sketches: Option<SketchStore>,
    counts: HashMap<String, u64>,
    aliases: HashMap<String, String>,
    /// The hosts' templates, learnt from the new pages checked (with
    /// [`SeenConfig::learns_template`]).
    #[cfg(feature = "html")]
    template: Option<crate::html::TemplateModel>,
}

impl ContentSeen {
    /// An empty content-seen test, or an error naming the bad setting.
    pub fn new(config: SeenConfig) -> Result<ContentSeen> {
        config.validate_k()?;
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
        config.validate_threshold()?;
        config.validate_template()?;
        let mut hasher = SimHasher::new(config.options)?;
        hasher.set_html(config.html)?;
        #[cfg(feature = "html")]
        hasher.set_content(config.content);
        let mut index = Index::new(layout.clone());
        index.set_scheme(Some(config.options))?;
        Ok(ContentSeen {
            #[cfg(feature = "html")]
            template: config.learns_template().then(|| crate::html::TemplateModel::new(config.template)),
            sketches: config.sketch.map(SketchStore::new),
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

    /// Fingerprints (and with a sketch setting, sketches, in the same pass) `text` (HTML
    /// when so configured), finds the stored near-duplicates, and either stores the page
    /// (new) or counts it (duplicate).
    ///
    /// Without a sketch, the duplicates are the stored pages within `k` bits. With one,
    /// the flow has two steps: candidates are the stored pages within `k` bits and those
    /// sharing a band of the sketch ([`BandIndex`](crate::sketch::BandIndex)); a candidate is a duplicate
    /// when the estimated Jaccard similarity of the sketches reaches the threshold. A
    /// stored page without a sketch (loaded from a version-1 snapshot, or stored by
    /// [`check_fingerprint`](Self::check_fingerprint)) is a duplicate when within `k` bits,
    /// as in the fingerprint-only test.
    ///
    /// A page with no content to compare (no feature, or fewer units than one n-gram:
    /// [`Error::is_no_content`]) is not an error: the answer is [`Check::empty`], and
    /// nothing is changed.
    ///
    /// With the template learnt ([`SeenConfig::learns_template`]), the text read is the
    /// main content less the lines that are template on the URL's host (as learnt from the
    /// pages before this one), and the page is then learnt: all its lines when it is not a
    /// duplicate, and when it is, only the lines it was not judged by. So the text of a
    /// group of near-duplicates is counted once, and an article met many times on one host
    /// does not become its template, while the template around each copy is counted.
    pub fn check(&mut self, url: &str, text: &str) -> Result<Check> {
        #[cfg(feature = "html")]
        if let Some(model) = &self.template {
            let host = crate::html::template::host_of(url);
            let (all, extracted) = crate::html::all_and_main(text);
            let hash = model.hash();
            let main =
                crate::html::template::read_extracted(&extracted, &all, hash, model.knows(&host), |b| {
                    model.is_template_block(&host, b)
                });
            let check = self.check_text(url, &main)?;
            let mut blocks = crate::html::template::blocks(&all, hash);
            let key = crate::html::template::page_key(&blocks);
            if check.duplicate {
                let read = crate::html::template::blocks(&main, hash);
                blocks.retain(|b| read.binary_search(b).is_err());
            }
            if let Some(m) = &mut self.template {
                m.learn_blocks(&host, key, &blocks);
            }
            return Ok(check);
        }
        self.check_read(url, text)
    }

    /// [`check`](Self::check) of a text already read from its HTML.
    #[cfg(feature = "html")]
    fn check_text(&mut self, url: &str, text: &str) -> Result<Check> {
        let html = self.hasher.html();
        self.hasher.set_html(false)?;
        let out = self.check_read(url, text);
        self.hasher.set_html(html)?;
        out
    }

    /// [`check`](Self::check) as the hasher reads `text`.
    fn check_read(&mut self, url: &str, text: &str) -> Result<Check> {
        let made = match self.config.sketch {
            None => self.hasher.fingerprint(text).map(|f| (f, None)),
            Some(scheme) => self.hasher.fingerprint_and_sketch(text, scheme).map(|(f, s)| (f, Some(s))),
        };
        match made {
            Ok((fingerprint, None)) => Ok(self.check_fingerprint(url, fingerprint)),
            Ok((fingerprint, Some(sketch))) => self.check_fingerprint_and_sketch(url, fingerprint, sketch),
            Err(e) if e.is_no_content() => Ok(Check::empty()),
            Err(e) => Err(e),
        }
    }

    /// [`check`](Self::check) for a fingerprint computed elsewhere (same scheme), without
    /// a sketch: the stored pages within `k` bits are the duplicates, whether they have a
    /// sketch or not (the fingerprint-only test), and a new page is stored without a
    /// sketch, so later pages match it by fingerprint only.
    pub fn check_fingerprint(&mut self, url: &str, fingerprint: u64) -> Check {
        let matches = self.index.query(fingerprint);
        let decided = matches.first().map(|m| (m.id.clone(), m.distance, None));
        self.record(url, fingerprint, None, matches, Vec::new(), decided)
    }

    /// [`check`](Self::check) for a fingerprint and sketch computed elsewhere (same
    /// schemes, e.g. [`SimHasher::fingerprint_and_sketch`]). Without a sketch setting, the
    /// sketch is ignored (the fingerprint-only test). A sketch of another size is
    /// [`Error::SchemeMismatch`], and nothing is changed.
    pub fn check_fingerprint_and_sketch(
        &mut self,
        url: &str,
        fingerprint: u64,
        sketch: Sketch,
    ) -> Result<Check> {
        let Some(store) = &self.sketches else {
            return Ok(self.check_fingerprint(url, fingerprint));
        };
        let band = store.band_matches(&sketch)?;
        let threshold = self.config.threshold;
        let mut cands: Vec<SeenCandidate> = Vec::new();
        for m in self.index.query(fingerprint) {
            let estimate = store.get(&m.id).map(|s| estimate(s, &sketch));
            let duplicate = estimate.is_none_or(|e| e >= threshold);
            cands.push(SeenCandidate { id: m.id, distance: m.distance, estimate, duplicate });
        }
        for (id, s) in band {
            if cands.iter().any(|c| c.id == id) {
                continue;
            }
            let fp = self.index.get(&id.to_owned()).expect("a sketched page is stored");
            let e = estimate(s, &sketch);
            cands.push(SeenCandidate {
                id: id.to_owned(),
                distance: (fp ^ fingerprint).count_ones(),
                estimate: Some(e),
                duplicate: e >= threshold,
            });
        }
        let rank = |c: &SeenCandidate| c.estimate.unwrap_or(threshold);
        crate::sort::sort_by(&mut cands, |a, b| {
            b.duplicate
                .cmp(&a.duplicate)
                .then_with(|| rank(b).total_cmp(&rank(a)))
                .then_with(|| a.distance.cmp(&b.distance))
                .then_with(|| a.id.cmp(&b.id))
        });
        let matches: Vec<Match<String>> = cands
            .iter()
            .filter(|c| c.duplicate)
            .map(|c| Match { id: c.id.clone(), distance: c.distance })
            .collect();
        let decided = cands.first().filter(|c| c.duplicate).map(|c| (c.id.clone(), c.distance, c.estimate));
        Ok(self.record(url, fingerprint, Some(sketch), matches, cands, decided))
    }

    /// Counts the page under the decided stored page, or stores it.
    fn record(
        &mut self,
        url: &str,
        fingerprint: u64,
        sketch: Option<Sketch>,
        matches: Vec<Match<String>>,
        candidates: Vec<SeenCandidate>,
        decided: Option<(String, u32, Option<f64>)>,
    ) -> Check {
        if let Some((cluster, distance, estimate)) = decided {
            let count = self.counts.entry(cluster.clone()).or_insert(1);
            *count += 1;
            let count = *count;
            if cluster != url && !self.index.contains(&url.to_owned()) {
                self.aliases.insert(url.to_owned(), cluster.clone());
            }
            return Check {
                duplicate: true,
                matches,
                fingerprint,
                cluster,
                count,
                sketch,
                distance: Some(distance),
                estimate,
                candidates,
                empty: false,
            };
        }
        let id = url.to_owned();
        if self.index.contains(&id) {
            // The stored page changed beyond recognition: keep the new content.
            let _ = self.index.remove(&id);
            if let Some(store) = &mut self.sketches {
                store.remove(url);
            }
        }
        self.aliases.remove(&id);
        if let (Some(store), Some(s)) = (&mut self.sketches, &sketch) {
            // Cannot fail: the sketch's scheme was checked by the band query.
            store.insert(url, s.clone()).expect("a sketch of the store's scheme");
        }
        // Cannot fail: the id is not stored (removed just above if it was).
        let _ = self.index.insert(id.clone(), fingerprint);
        self.counts.insert(id.clone(), 1);
        Check {
            duplicate: false,
            matches,
            fingerprint,
            cluster: id,
            count: 1,
            sketch,
            distance: None,
            estimate: None,
            candidates,
            empty: false,
        }
    }

    /// The template learnt (with [`SeenConfig::learns_template`]).
    #[cfg(feature = "html")]
    pub fn template(&self) -> Option<&crate::html::TemplateModel> {
        self.template.as_ref()
    }

    /// Makes the (empty) template model hash its blocks as `hash`: a snapshot of a store
    /// whose blocks are hashed so (a version-4 Redis namespace) is written as such.
    #[cfg(feature = "redis")]
    pub(crate) fn set_template_hash(&mut self, hash: crate::html::BlockHash) {
        if let Some(m) = &mut self.template {
            debug_assert!(m.is_empty(), "set before anything is learnt");
            *m = crate::html::TemplateModel::with_hash(m.min_pages(), hash);
        }
    }

    /// Puts back one host's template counts (as [`TemplateModel::hosts`](crate::html::TemplateModel::hosts)
    /// lists them, e.g. read from a shared store), replacing that host's; an error when this
    /// test does not learn templates.
    #[cfg(feature = "html")]
    pub fn insert_template_host(&mut self, host: crate::html::template::HostParts) -> Result<()> {
        let m = self.template.as_mut().ok_or_else(|| {
            Error::option(
                "template",
                "false",
                "a test that learns site templates (html, content: 'main', template: 2 or more)",
            )
        })?;
        m.insert_host(host);
        Ok(())
    }

    /// The fingerprint of `text` with this test's settings, without checking or storing.
    pub fn fingerprint(&mut self, text: &str) -> Result<u64> {
        self.hasher.fingerprint(text)
    }

    /// The fingerprint and sketch of `text` with this test's settings (one pass), without
    /// checking or storing; `None` for the sketch without a sketch setting.
    pub fn fingerprint_and_sketch(&mut self, text: &str) -> Result<(u64, Option<Sketch>)> {
        match self.config.sketch {
            None => Ok((self.hasher.fingerprint(text)?, None)),
            Some(scheme) => self.hasher.fingerprint_and_sketch(text, scheme).map(|(f, s)| (f, Some(s))),
        }
    }

    /// The sketch stored for a stored page (`None`: not stored, or stored without one).
    pub fn sketch_of(&self, url: &str) -> Option<&Sketch> {
        self.sketches.as_ref()?.get(url)
    }

    /// Number of stored pages that have a sketch.
    pub fn sketched(&self) -> usize {
        self.sketches.as_ref().map_or(0, SketchStore::len)
    }

    /// Approximate heap bytes of the band index (0 without sketches).
    pub fn band_bytes(&self) -> usize {
        self.sketches.as_ref().map_or(0, SketchStore::band_bytes)
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
mod tests;
