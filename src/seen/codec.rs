//! Content-seen snapshots: the `SEEN` payload, [`ContentSeen::to_bytes`] and
//! [`ContentSeen::from_bytes`].
//!
//! | size | field |
//! | --- | --- |
//! | 8 | `X`, length of the index snapshot in bytes, `u64` |
//! | `X` | the stored pages: a whole [index snapshot](crate::snapshot::index) (its own `INDX` envelope), string ids, with the fingerprint scheme; an `INDX` version 2 with the pages' sketches in format version 2, and in versions 3 to 5 when the test keeps sketches (an `INDX` version 1 otherwise) |
//! | 1 | html: 0 / 1 |
//! | 1 | *versions 3 to 5:* which text of a page is read (with html): 0 all the visible text, 1 the main content |
//! | 8 | *versions 2 to 5:* the threshold, an IEEE-754 `f64` (its bits as `u64`), above 0 and at most 1 (written without sketches too, in versions 3 to 5) |
//! | 8 | `C`, number of counts, `u64` |
//! | `C` × | a stored page's id (`u32` byte length, UTF-8) and its count (`u64`), by id, strictly ascending |
//! | 8 | `A`, number of aliases, `u64` |
//! | `A` × | a duplicate URL and the stored page it is counted under (each a `u32` byte length, UTF-8), by URL, strictly ascending |
//!
//! | | *versions 4 and 5 only:* the site templates learnt ([`TemplateModel`](crate::html::TemplateModel)): |
//! | 4 | `M`, the number of distinct pages of a host from which a line is template (the `template` setting, at least 2) |
//! | 8 | `H`, number of hosts, `u64` |
//! | `H` × | a host, by name strictly ascending: its name (`u32` byte length, UTF-8); `u32` pages learnt (at most 64); `u64` number of page keys and the keys (`u64`, strictly ascending; none once 64 pages were learnt); `u64` number of blocks and per block its hash (`u64`, strictly ascending) and on how many pages it was seen (`u32`, 1 to the pages learnt) |
//!
//! The payload must end after the last alias (versions 4 and 5: after the last host). Every counted id and every alias target
//! must be a stored page. `k` and the layout are the index snapshot's, the sketch scheme
//! its sketch column's. A [`ContentSeen`] that reads pages' main content writes format
//! version 3 (with or without sketches); otherwise a sketching one writes version 2 and a
//! fingerprint-only one version 1 (the same bytes as before sketches existed). Versions 1
//! and 2 read all of a page's visible text. A test that learns site templates
//! ([`SeenConfig::learns_template`]) writes version 5: version 3 and the model, sorted, so
//! equal models give equal bytes, its blocks hashed with numbers folded
//! ([`BlockHash::Numbers`](crate::html::BlockHash)). Version 4 is the same layout with blocks
//! hashed by their words only ([`BlockHash::Words`](crate::html::BlockHash)): it loads as a
//! model that keeps hashing so (its counts cannot be rehashed), and is written again as
//! version 4. Versions 1 to 3 load without learning, or, with an `expected` config that
//! learns, with an empty model.
//!
//! **Version-1 snapshots** load as fingerprint-only tests, or, when loaded with an
//! `expected` config that has a sketch, as sketching tests whose stored pages have no
//! sketch: those pages are matched by fingerprint within `k` only (and a page so matched
//! is a duplicate), while pages stored from then on carry sketches.

use std::collections::HashMap;

use super::sketches::SketchStore;
use super::{ContentSeen, SeenConfig, DEFAULT_THRESHOLD};
use crate::error::{Error, Result};
use crate::fingerprint::SimHasher;
use crate::index::Index;
use crate::snapshot::formats::{FIRST, SEEN_MAIN_CONTENT, SEEN_SKETCHES, SEEN_TEMPLATE};
use crate::snapshot::{
    check_scheme, decode_index, encode_sorted_index_with_sketches, open, Kind, Reader, Writer,
};

/// The fewest bytes a count entry takes: an empty id's length and the count.
const COUNT_MIN_LEN: usize = 4 + 8;
/// The fewest bytes an alias entry takes: two empty strings' lengths.
const ALIAS_MIN_LEN: usize = 4 + 4;

impl ContentSeen {
    /// A snapshot (`SEEN` envelope, `src/seen/codec.rs` has the layout):
    /// the index snapshot (layout, scheme, entries, sketches), the html flag, the
    /// threshold (with sketches), the counts and the aliases; deterministic.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new();
        #[cfg(feature = "html")]
        let main = self.config.html && self.config.content == crate::html::Content::Main;
        #[cfg(not(feature = "html"))]
        let main = false;
        let version = match &self.sketches {
            None if !main => {
                w.section(&self.index.to_bytes());
                w.flag(self.config.html);
                FIRST
            }
            None => {
                w.section(&self.index.to_bytes());
                w.flag(self.config.html);
                w.u8(1);
                w.u64(self.config.threshold.to_bits());
                SEEN_MAIN_CONTENT
            }
            Some(store) => {
                let mut entries: Vec<(&String, u64)> = self.index.iter().collect();
                crate::sort::sort_by_u64_key(&mut entries, |e| e.1, |a, b| a.0.cmp(b.0));
                let column: Vec<_> = entries.iter().map(|(id, _)| store.get(id)).collect();
                let layout = self.index.layout();
                w.section(&encode_sorted_index_with_sketches(
                    layout.k(),
                    layout.is_probe(),
                    layout.widths(),
                    self.index.scheme().as_ref(),
                    &entries,
                    Some((store.scheme(), &column)),
                ));
                w.flag(self.config.html);
                if main {
                    w.u8(1);
                }
                w.u64(self.config.threshold.to_bits());
                if main {
                    SEEN_MAIN_CONTENT
                } else {
                    SEEN_SKETCHES
                }
            }
        };
        let mut counts: Vec<(&String, &u64)> = self.counts.iter().collect();
        crate::sort::sort(&mut counts);
        w.u64(counts.len() as u64);
        for (id, &n) in counts {
            w.str_u32(id);
            w.u64(n);
        }
        let mut aliases: Vec<(&String, &String)> = self.aliases.iter().collect();
        crate::sort::sort(&mut aliases);
        w.u64(aliases.len() as u64);
        for (url, rep) in aliases {
            w.str_u32(url);
            w.str_u32(rep);
        }
        #[cfg(feature = "html")]
        if let Some(model) = &self.template {
            write_template(&mut w, model);
            let v = match model.hash() {
                crate::html::BlockHash::Words => SEEN_TEMPLATE,
                crate::html::BlockHash::Numbers => crate::snapshot::formats::SEEN_NUMBER_BLOCKS,
            };
            return w.seal_version(Kind::Seen, v);
        }
        w.seal_version(Kind::Seen, version)
    }

    /// Loads a snapshot made by [`to_bytes`](Self::to_bytes) (format versions 1 to 5).
    /// With `expected`, a snapshot made with other settings (fingerprint scheme, `k`,
    /// layout, html, `content`, sketch scheme) is refused with [`Error::SchemeMismatch`],
    /// except that a version-1 snapshot (no sketches) loads into a sketching config (see
    /// the module docs); the threshold and `template` are `expected`'s. With `None` the
    /// snapshot's own settings are adopted.
    pub fn from_bytes(bytes: &[u8], expected: Option<&SeenConfig>) -> Result<ContentSeen> {
        let (version, payload) = open(Kind::Seen, bytes)?;
        let mut r = Reader::payload(payload, Kind::Seen);
        let (index_at, index_bytes) = r.section("index snapshot")?;
        let mut parts = decode_index::<String>(index_bytes)?;
        if let Some(c) = expected {
            check_scheme(parts.scheme.as_ref(), Some(&c.options))?;
        }
        let options =
            parts.scheme.ok_or_else(|| r.err_at(index_at, "the index snapshot has no fingerprint scheme"))?;
        let column = parts.sketches.take();
        if version < SEEN_MAIN_CONTENT && (version >= SEEN_SKETCHES) != column.is_some() {
            return Err(r.err_at(
                index_at,
                format!(
                    "a version-{version} content-seen snapshot holds an index snapshot {} sketches",
                    if column.is_some() { "with" } else { "without" }
                ),
            ));
        }
        let sketched: Vec<(String, crate::sketch::Sketch)> = match &column {
            Some(c) => parts
                .entries
                .iter()
                .zip(&c.sketches)
                .filter_map(|((id, _), s)| s.clone().map(|s| (id.clone(), s)))
                .collect(),
            None => Vec::new(),
        };
        let index = Index::<String>::from_parts(parts)?;
        let html = r.flag("html flag")?;
        let main = if version >= SEEN_MAIN_CONTENT {
            let at = r.offset();
            match r.u8("content")? {
                0 => false,
                1 => true,
                c => return Err(r.err_at(at, format!("content {c} is neither 0 (all) nor 1 (main)"))),
            }
        } else {
            false
        };
        // Versions 1 and 2 read all of an HTML page's text; without html the setting is
        // unused and takes its default.
        let content = if main || !html { crate::html::Content::Main } else { crate::html::Content::All };
        #[cfg(not(feature = "html"))]
        if main {
            return Err(Error::html_disabled());
        }
        let mut threshold = DEFAULT_THRESHOLD;
        if version >= SEEN_SKETCHES {
            let at = r.offset();
            threshold = f64::from_bits(r.u64("threshold")?);
            if !(threshold > 0.0 && threshold <= 1.0) {
                return Err(r.err_at(
                    at,
                    format!("threshold {} is not above 0 and at most 1", crate::error::number(threshold)),
                ));
            }
        }
        let mut config = SeenConfig {
            k: index.layout().k(),
            layout: Some(index.layout().clone()),
            options,
            html,
            content,
            sketch: column.as_ref().map(|c| c.scheme),
            threshold,
            template: super::DEFAULT_TEMPLATE_PAGES,
        };
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
            #[cfg(feature = "html")]
            if html && e.content != content {
                return mismatch("content", content.name().to_string(), e.content.name().to_string());
            }
            let none = || "none (fingerprint only)".to_string();
            match (config.sketch, e.sketch) {
                (Some(found), Some(want)) if found != want => {
                    return mismatch("sketch", found.describe(), want.describe())
                }
                (Some(found), None) => return mismatch("sketch", found.describe(), none()),
                _ => {}
            }
            e.validate_threshold()?;
            config.sketch = e.sketch;
            config.threshold = e.threshold;
            config.template = e.template;
        }
        let n = r.count("count entries", COUNT_MIN_LEN)?;
        let mut counts = HashMap::with_capacity(n);
        let mut prev: Option<String> = None;
        for _ in 0..n {
            let at = r.offset();
            let id = r.str_u32("counted id")?;
            let n = r.u64("count")?;
            if !index.contains(&id) {
                return Err(
                    r.err_at(at, format!("a count for {}, which is not stored", crate::error::quoted(&id)))
                );
            }
            if prev.as_ref().is_some_and(|p| *p >= id) {
                return Err(r.err_at(at, "the counts are not in ascending order of id"));
            }
            prev = Some(id.clone());
            counts.insert(id, n);
        }
        let n = r.count("alias entries", ALIAS_MIN_LEN)?;
        let mut aliases = HashMap::with_capacity(n);
        let mut prev: Option<String> = None;
        for _ in 0..n {
            let at = r.offset();
            let url = r.str_u32("duplicate url")?;
            let rep = r.str_u32("its stored page")?;
            if !index.contains(&rep) {
                return Err(
                    r.err_at(at, format!("an alias to {}, which is not stored", crate::error::quoted(&rep)))
                );
            }
            if prev.as_ref().is_some_and(|p| *p >= url) {
                return Err(r.err_at(at, "the aliases are not in ascending order of URL"));
            }
            prev = Some(url.clone());
            aliases.insert(url, rep);
        }
        #[cfg(feature = "html")]
        let template = if version >= SEEN_TEMPLATE {
            let hash = if version >= crate::snapshot::formats::SEEN_NUMBER_BLOCKS {
                crate::html::BlockHash::Numbers
            } else {
                crate::html::BlockHash::Words
            };
            let model = read_template(&mut r, hash)?;
            r.finish("the site templates")?;
            if expected.is_none() {
                config.template = model.min_pages();
            }
            Some(model)
        } else {
            r.finish("the aliases")?;
            if expected.is_none() && config.learns_template() {
                // Made before templates were learnt: loads as not learning them (an
                // `expected` config that learns starts an empty model).
                config.template = 0;
            }
            None
        };
        #[cfg(not(feature = "html"))]
        if version >= SEEN_TEMPLATE {
            return Err(Error::html_disabled());
        }
        #[cfg(not(feature = "html"))]
        r.finish("the aliases")?;
        let sketches = match config.sketch {
            None => None,
            Some(scheme) => {
                let mut store = SketchStore::new(scheme);
                for (id, s) in sketched {
                    store.insert(&id, s)?;
                }
                Some(store)
            }
        };
        let mut hasher = SimHasher::new(options)?;
        hasher.set_html(html)?;
        #[cfg(feature = "html")]
        hasher.set_content(content);
        Ok(ContentSeen {
            #[cfg(feature = "html")]
            template: config.learns_template().then(|| {
                let hash = template.as_ref().map_or_else(Default::default, |t| t.hash());
                let mut m = crate::html::TemplateModel::with_hash(config.template, hash);
                for h in template.map(|t| t.hosts()).unwrap_or_default() {
                    m.insert_host(h);
                }
                m
            }),
            config,
            hasher,
            index,
            sketches,
            counts,
            aliases,
        })
    }
}

/// The site templates, as the module docs lay them out.
#[cfg(feature = "html")]
fn write_template(w: &mut Writer, model: &crate::html::TemplateModel) {
    w.u32(model.min_pages());
    let hosts = model.hosts();
    w.u64(hosts.len() as u64);
    for h in hosts {
        w.str_u32(&h.host);
        w.u32(h.learnt);
        w.u64(h.pages.len() as u64);
        for k in h.pages {
            w.u64(k);
        }
        w.u64(h.blocks.len() as u64);
        for (b, n) in h.blocks {
            w.u64(b);
            w.u32(n);
        }
    }
}

/// Reads [`write_template`]'s layout, refusing what it cannot have written.
#[cfg(feature = "html")]
fn read_template(r: &mut Reader<'_>, hash: crate::html::BlockHash) -> Result<crate::html::TemplateModel> {
    use crate::html::template::{HostParts, PAGES_PER_HOST};
    let at = r.offset();
    let min = r.u32("template pages")?;
    if min < 2 {
        return Err(r.err_at(at, format!("template pages {min} is below 2")));
    }
    let mut model = crate::html::TemplateModel::with_hash(min, hash);
    let n = r.count("template hosts", 4 + 4 + 8 + 8)?;
    let mut prev: Option<String> = None;
    for _ in 0..n {
        let at = r.offset();
        let host = r.str_u32("template host")?;
        if prev.as_ref().is_some_and(|p| *p >= host) {
            return Err(r.err_at(at, "the template hosts are not in ascending order"));
        }
        prev = Some(host.clone());
        let at = r.offset();
        let learnt = r.u32("pages learnt")?;
        if learnt == 0 || learnt > PAGES_PER_HOST {
            return Err(r.err_at(at, format!("{learnt} pages learnt, not 1 to {PAGES_PER_HOST}")));
        }
        let at = r.offset();
        let np = r.count("page keys", 8)?;
        if np != if learnt == PAGES_PER_HOST { 0 } else { learnt as usize } {
            return Err(r.err_at(at, format!("{np} page keys for {learnt} pages learnt")));
        }
        let mut pages = Vec::with_capacity(np);
        for _ in 0..np {
            let at = r.offset();
            let k = r.u64("page key")?;
            if pages.last().is_some_and(|&p| p >= k) {
                return Err(r.err_at(at, "the page keys are not in ascending order"));
            }
            pages.push(k);
        }
        let nb = r.count("template blocks", 12)?;
        let mut blocks = Vec::with_capacity(nb);
        for _ in 0..nb {
            let at = r.offset();
            let b = r.u64("block")?;
            let c = r.u32("block pages")?;
            if blocks.last().is_some_and(|&(p, _)| p >= b) {
                return Err(r.err_at(at, "the blocks are not in ascending order"));
            }
            if c == 0 || c > learnt {
                return Err(r.err_at(at, format!("a block seen on {c} pages of {learnt}")));
            }
            blocks.push((b, c));
        }
        model.insert_host(HostParts { host, learnt, pages, blocks });
    }
    Ok(model)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fingerprint::Options;
    use crate::snapshot::{crc32c, HEADER_LEN};
    use crate::Error;

    const A: &str = "Crawlers meet the same article under many addresses, and keep only one copy of it.";
    const B: &str = "An entirely different page about gardening: tomatoes need sun, water and patience.";

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
    fn forged_counts_and_aliases_are_refused_at_their_offset() {
        // The version-1 layout (fingerprint only).
        let mut s = ContentSeen::new(SeenConfig::fingerprint_only()).unwrap();
        s.check("a", A).unwrap();
        s.check("b", B).unwrap();
        s.check("a2", A).unwrap();
        let good = s.to_bytes();
        let index = s.index.to_bytes();
        let build = |counts: &[(&str, u64)], aliases: &[(&str, &str)], extra: &[u8]| {
            let mut w = Writer::new();
            w.section(&index);
            w.flag(false);
            w.u64(counts.len() as u64);
            for &(id, n) in counts {
                w.str_u32(id);
                w.u64(n);
            }
            w.u64(aliases.len() as u64);
            for &(url, rep) in aliases {
                w.str_u32(url);
                w.str_u32(rep);
            }
            w.bytes(extra);
            w.seal(Kind::Seen)
        };
        let counts = [("a", 2), ("b", 1)];
        assert_eq!(build(&counts, &[("a2", "a")], b""), good, "the layout of the module docs");
        // Offsets: the count of counts, each count entry 4 + 1 + 8 bytes here, the count
        // of aliases, the alias entry 4 + 2 + 4 + 1.
        let counts_at = HEADER_LEN + 8 + index.len() + 1;
        let second_count = counts_at + 8 + 13;
        let aliases_at = counts_at + 8 + 2 * 13;
        for (bytes, reason, offset) in [
            (build(&[("b", 1), ("a", 2)], &[("a2", "a")], b""), "ascending order of id", second_count),
            (build(&[("a", 2), ("c", 1)], &[("a2", "a")], b""), "\"c\", which is not stored", second_count),
            (build(&counts, &[("a2", "c")], b""), "\"c\", which is not stored", aliases_at + 8),
            (build(&counts, &[("x", "a"), ("a2", "a")], b""), "ascending order of URL", aliases_at + 8 + 10),
            (
                build(&counts, &[("a2", "a")], b"?"),
                "1 unexpected bytes after the aliases",
                aliases_at + 8 + 11,
            ),
        ] {
            let e = ContentSeen::from_bytes(&bytes, None).unwrap_err();
            assert!(e.to_string().contains(reason), "{e}");
            assert!(
                matches!(e, Error::Corrupt { offset: o, .. } if o == offset),
                "{e:?}, want offset {offset}"
            );
        }
        // A count of entries that cannot fit in the bytes left is refused before any
        // allocation, at the count's offset.
        let mut lying = good.clone();
        lying[counts_at..counts_at + 8].copy_from_slice(&(u64::MAX / 2).to_le_bytes());
        let n = lying.len();
        let crc = crc32c(&lying[..n - 4]);
        lying[n - 4..].copy_from_slice(&crc.to_le_bytes());
        let e = ContentSeen::from_bytes(&lying, None).unwrap_err();
        assert!(matches!(e, Error::Corrupt { offset, .. } if offset == counts_at), "{e:?}");
        assert!(e.to_string().contains("cannot fit"), "{e}");
    }

    #[test]
    fn every_forged_bit_flip_is_refused_or_loads_consistently() {
        let mut s = ContentSeen::new(SeenConfig::default()).unwrap();
        s.check("a", A).unwrap();
        s.check("b", B).unwrap();
        s.check("a2", A).unwrap();
        let good = s.to_bytes();
        let mut loaded = 0;
        for bit in 0..good.len() * 8 {
            let mut bad = good.clone();
            bad[bit / 8] ^= 1 << (bit % 8);
            assert!(ContentSeen::from_bytes(&bad, None).is_err(), "flip of bit {bit} went unnoticed");
            // The checksum forged: no panic, and whatever loads re-encodes to bytes that
            // load back to the same.
            let n = bad.len();
            let crc = crc32c(&bad[..n - 4]);
            bad[n - 4..].copy_from_slice(&crc.to_le_bytes());
            if let Ok(mut back) = ContentSeen::from_bytes(&bad, None) {
                loaded += 1;
                let bytes = back.to_bytes();
                assert_eq!(ContentSeen::from_bytes(&bytes, None).unwrap().to_bytes(), bytes, "bit {bit}");
                let _ = back.check_fingerprint("https://new.example/", 0);
            }
        }
        // Flips in counts and in URL letters load (as other counts and other URLs).
        assert!(loaded >= 50, "only {loaded} forged snapshots loaded");
    }
}
