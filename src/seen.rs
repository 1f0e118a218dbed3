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

use std::collections::HashMap;

use crate::error::{Error, Result};
use crate::fingerprint::{Options, SimHasher};
use crate::index::{Index, Layout, Match};
use crate::snapshot::{open, seal, Kind};

/// Settings of a [`ContentSeen`].
#[derive(Clone, Debug, PartialEq)]
pub struct SeenConfig {
    /// Pages within `k` bits of a stored page are duplicates (default 3, as in the paper).
    pub k: u32,
    /// The index layout; `None` is [`Layout::default_for_k`].
    pub layout: Option<Layout>,
    /// The fingerprint scheme.
    pub options: Options,
    /// Read inputs as HTML and fingerprint their visible text ([`crate::html`]).
    pub html: bool,
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

    /// A snapshot (`SEEN` envelope): the index snapshot (layout, scheme, entries), the
    /// html flag, the counts and the aliases; deterministic.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut p = Vec::new();
        let ix = self.index.to_bytes();
        p.extend_from_slice(&(ix.len() as u64).to_le_bytes());
        p.extend_from_slice(&ix);
        p.push(u8::from(self.config.html));
        let mut counts: Vec<(&String, &u64)> = self.counts.iter().collect();
        crate::sort::sort(&mut counts);
        p.extend_from_slice(&(counts.len() as u64).to_le_bytes());
        for (id, n) in counts {
            put_str(&mut p, id);
            p.extend_from_slice(&n.to_le_bytes());
        }
        let mut aliases: Vec<(&String, &String)> = self.aliases.iter().collect();
        crate::sort::sort(&mut aliases);
        p.extend_from_slice(&(aliases.len() as u64).to_le_bytes());
        for (url, rep) in aliases {
            put_str(&mut p, url);
            put_str(&mut p, rep);
        }
        seal(Kind::Seen, &p)
    }

    /// Loads a snapshot made by [`to_bytes`](Self::to_bytes). With `expected`, a snapshot
    /// made with other settings (scheme, `k`, layout, html) is refused with
    /// [`Error::SchemeMismatch`]; with `None` its own settings are adopted.
    pub fn from_bytes(bytes: &[u8], expected: Option<&SeenConfig>) -> Result<ContentSeen> {
        let what = Kind::Seen.what();
        let (_, payload) = open(Kind::Seen, bytes)?;
        let mut r = Cursor { bytes: payload, pos: 0, what };
        let n = r.len("index length")?;
        let index_bytes = r.take(n, "index snapshot")?;
        let stored_scheme = crate::snapshot::peek_scheme(index_bytes)?;
        let index = match expected {
            Some(c) => Index::<String>::from_bytes_expecting(index_bytes, Some(&c.options))?,
            None => Index::<String>::from_bytes(index_bytes)?,
        };
        let options = stored_scheme
            .ok_or_else(|| Error::corrupt(what, 20, "the index snapshot has no fingerprint scheme"))?;
        let html = match r.take(1, "html flag")?[0] {
            0 => false,
            1 => true,
            v => {
                return Err(Error::corrupt(what, 20 + r.pos - 1, format!("html flag {v} is neither 0 nor 1")))
            }
        };
        let config =
            SeenConfig { k: index.layout().k(), layout: Some(index.layout().clone()), options, html };
        if let Some(e) = expected {
            let mismatch = |field: &'static str, found: String, expected: String| {
                Err(Error::SchemeMismatch { field, found, expected })
            };
            if e.k != config.k {
                return mismatch("k", config.k.to_string(), e.k.to_string());
            }
            if let Some(l) = &e.layout {
                if Some(l) != config.layout.as_ref() {
                    return mismatch("layout", index.layout().to_string(), l.to_string());
                }
            }
            if e.html != html {
                return mismatch("html", html.to_string(), e.html.to_string());
            }
        }
        let mut counts = HashMap::new();
        for _ in 0..r.len("count entries")? {
            let id = r.string("counted id")?;
            let n = u64::from_le_bytes(r.array("count")?);
            if !index.contains(&id) {
                return Err(Error::corrupt(
                    what,
                    20 + r.pos,
                    format!("a count for {}, which is not stored", crate::error::quoted(&id)),
                ));
            }
            counts.insert(id, n);
        }
        let mut aliases = HashMap::new();
        for _ in 0..r.len("alias entries")? {
            let url = r.string("duplicate url")?;
            let rep = r.string("its stored page")?;
            if !index.contains(&rep) {
                return Err(Error::corrupt(
                    what,
                    20 + r.pos,
                    format!("an alias to {}, which is not stored", crate::error::quoted(&rep)),
                ));
            }
            aliases.insert(url, rep);
        }
        if r.pos != payload.len() {
            return Err(Error::corrupt(what, 20 + r.pos, "bytes left over after the aliases"));
        }
        let mut hasher = SimHasher::new(options)?;
        hasher.set_html(html)?;
        Ok(ContentSeen { config, hasher, index, counts, aliases })
    }
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u32).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

/// Bounds-checked reads off the payload; offsets in errors are absolute (20-byte header).
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    what: &'static str,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize, field: &str) -> Result<&'a [u8]> {
        if self.bytes.len() - self.pos < n {
            return Err(Error::corrupt(self.what, 20 + self.pos, format!("the {field} is cut short")));
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }
    fn array<const N: usize>(&mut self, field: &str) -> Result<[u8; N]> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N, field)?);
        Ok(a)
    }
    fn len(&mut self, field: &str) -> Result<usize> {
        let n = u64::from_le_bytes(self.array(field)?);
        usize::try_from(n).ok().filter(|&n| n <= self.bytes.len()).ok_or_else(|| {
            Error::corrupt(self.what, 20 + self.pos - 8, format!("the {field} ({n}) exceeds the input"))
        })
    }
    fn string(&mut self, field: &str) -> Result<String> {
        let n = u32::from_le_bytes(self.array(field)?) as usize;
        let at = 20 + self.pos;
        let b = self.take(n, field)?;
        String::from_utf8(b.to_vec())
            .map_err(|_| Error::corrupt(self.what, at, format!("the {field} is not UTF-8")))
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
    #[cfg_attr(not(feature = "html"), ignore = "its config reads HTML")]
    fn snapshots_round_trip_and_refuse_other_settings() {
        let mut s = ContentSeen::new(SeenConfig { html: true, ..SeenConfig::default() }).unwrap();
        s.check("a", &format!("<p>{A}</p>")).unwrap();
        s.check("a2", A).unwrap();
        s.check("b", B).unwrap();
        let bytes = s.to_bytes();
        let back = ContentSeen::from_bytes(&bytes, None).unwrap();
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(back.count("a2"), Some(2));
        assert!(back.config().html);
        let same = SeenConfig { html: true, ..SeenConfig::default() };
        assert!(ContentSeen::from_bytes(&bytes, Some(&same)).is_ok());
        for other in [
            SeenConfig::default(),
            SeenConfig { k: 4, html: true, ..SeenConfig::default() },
            SeenConfig {
                options: Options { tokenizer: crate::Tokenizer::Chars(5), ..Options::default() },
                html: true,
                ..SeenConfig::default()
            },
        ] {
            assert!(
                matches!(ContentSeen::from_bytes(&bytes, Some(&other)), Err(Error::SchemeMismatch { .. })),
                "{other:?}"
            );
        }
        for cut in 0..bytes.len() {
            assert!(ContentSeen::from_bytes(&bytes[..cut], None).is_err());
        }
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
