//! The site templates of a shared store ([`crate::html::TemplateModel`] kept in Redis), so
//! that every worker learns from every page and decides as one `ContentSeen` would.
//!
//! Per host, two keys: `{NS}:tp:HOST`, the set of the keys of the pages learnt
//! ([`page_key`](crate::html::template::page_key), 8 bytes big-endian), and `{NS}:tb:HOST`,
//! a hash of block hash (8 bytes big-endian) to the number of those pages it was seen on.
//! A check:
//!
//! 1. reads the counts of the page's blocks with one `HMGET` ([`TemplateRead::fields`]),
//!    and the number of pages the host learnt (`SCARD` of its page set), in one round trip;
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
//!
//! ## Migration
//!
//! `exportSnapshot` finds the hosts by `SCAN` over [`host_pattern`] and reads each host's
//! keys (`SSCAN`, `HSCAN`) into a [`HostParts`] ([`export_host`]); `importSnapshot` writes
//! a snapshot's hosts back with the `IMPORT_TEMPLATE` script ([`import_host`]), after its
//! pages. A host that learnt its [`PAGES_PER_HOST`] pages is kept as `ContentSeen` keeps
//! it: its template blocks only, and no page keys; in Redis its page set then holds that
//! many stand-in keys (the numbers 0, 1, … as 8 bytes big-endian), so that `LEARN` finds it
//! full. `IMPORT_TEMPLATE`: `KEYS` as `LEARN`'s; `ARGV`: 1 meta, 2 the number of page keys
//! `n`, then `n` page keys, then (block hash, count) pairs. It adds the page keys and sets
//! the counts (`SADD`, `HSET`: a call repeated after a lost reply writes the same), and
//! replies `{"OK"}`, or `{"X", meta}` / `{"G"}` as the other scripts do.

use crate::error::{Error, Result};
use crate::html::template::{blocks, page_key, read_extracted, BlockHash, HostParts, PAGES_PER_HOST};

/// The `LEARN` script.
pub const LEARN: &str = include_str!("lua/learn.lua");

/// The `IMPORT_TEMPLATE` script (see [Migration](self#migration)).
pub const IMPORT_TEMPLATE: &str = include_str!("lua/import_template.lua");

/// The most page keys and blocks an `IMPORT_TEMPLATE` call carries (its `SADD` and `HSET`
/// take them as one `unpack`, which Redis's Lua bounds at 8,000 values).
pub const MAX_IMPORT_BATCH: usize = 1000;

/// One `IMPORT_TEMPLATE` call: its `KEYS` (meta, page set, block hash) and `ARGV`.
pub type ImportCall = ([String; 3], Vec<Vec<u8>>);

/// The prefix of the page-set keys of namespace `ns`: `{NS}:tp:`, the host follows.
fn pages_prefix(ns: &str) -> String {
    format!("{{{ns}}}:tp:")
}

/// The `SCAN MATCH` pattern of the page-set keys of namespace `ns` (one per host), the
/// namespace's glob characters escaped.
pub fn host_pattern(ns: &str) -> String {
    let mut out = String::with_capacity(ns.len() + 8);
    for c in pages_prefix(ns).chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('*');
    out
}

/// The host of a page-set key found by [`host_pattern`], and the name of its block hash.
pub fn host_keys(ns: &str, pages_key: &[u8]) -> Result<(String, String)> {
    let prefix = pages_prefix(ns);
    let host = pages_key
        .strip_prefix(prefix.as_bytes())
        .and_then(|h| std::str::from_utf8(h).ok())
        .ok_or_else(|| Error::corrupt("Redis namespace", 0, "a template key outside the namespace"))?;
    Ok((host.to_owned(), format!("{{{ns}}}:tb:{host}")))
}

/// A host of the namespace as a [`HostParts`], from the members of its page set and the
/// (field, value) pairs of its block hash: as `ContentSeen` holds it (a full host keeps its
/// template blocks only, `min` being the `template` setting, and no page keys).
pub fn export_host(
    host: String,
    members: &[Vec<u8>],
    pairs: &[(Vec<u8>, Vec<u8>)],
    min: u32,
) -> Result<HostParts> {
    let bad = |why: String| {
        Error::corrupt(
            "Redis namespace",
            0,
            format!("template of host {}: {why}", crate::error::quoted(&host)),
        )
    };
    let full = members.len() >= PAGES_PER_HOST as usize;
    let learnt = if full { PAGES_PER_HOST } else { members.len() as u32 };
    let mut pages = Vec::new();
    if !full {
        for m in members {
            let k: [u8; 8] =
                m.as_slice().try_into().map_err(|_| bad("a page key that is not 8 bytes".into()))?;
            pages.push(u64::from_be_bytes(k));
        }
        pages.sort_unstable();
        pages.dedup();
    }
    let mut blocks = Vec::with_capacity(pairs.len());
    for (f, v) in pairs {
        let b: [u8; 8] =
            f.as_slice().try_into().map_err(|_| bad("a block hash that is not 8 bytes".into()))?;
        let n = std::str::from_utf8(v)
            .ok()
            .and_then(|s| s.parse::<u32>().ok())
            .filter(|&n| (1..=learnt).contains(&n))
            .ok_or_else(|| bad(format!("a block count that is not 1 to {learnt}")))?;
        if !full || n >= min {
            blocks.push((u64::from_be_bytes(b), n));
        }
    }
    blocks.sort_unstable();
    if blocks.windows(2).any(|w| w[0].0 == w[1].0) {
        return Err(bad("a block twice".into()));
    }
    Ok(HostParts { host, learnt, pages, blocks })
}

/// The `IMPORT_TEMPLATE` calls that write `host` into namespace `ns` (meta key `meta_key`,
/// meta `meta`): `(KEYS, ARGV)` each, with at most `batch` page keys and blocks a call.
pub fn import_host(ns: &str, meta_key: &str, meta: &str, host: &HostParts, batch: usize) -> Vec<ImportCall> {
    let keys = [
        meta_key.to_owned(),
        format!("{}{}", pages_prefix(ns), host.host),
        format!("{{{ns}}}:tb:{}", host.host),
    ];
    let pages: Vec<u64> = if host.learnt >= PAGES_PER_HOST && host.pages.is_empty() {
        (0..u64::from(PAGES_PER_HOST)).collect()
    } else {
        host.pages.clone()
    };
    let batch = batch.clamp(1, MAX_IMPORT_BATCH);
    let mut out = Vec::new();
    let (mut p, mut b) = (0, 0);
    while out.is_empty() || p < pages.len() || b < host.blocks.len() {
        let np = (pages.len() - p).min(batch);
        let nb = (host.blocks.len() - b).min(batch - np);
        let mut argv = vec![meta.as_bytes().to_vec(), np.to_string().into_bytes()];
        argv.extend(pages[p..p + np].iter().map(|k| k.to_be_bytes().to_vec()));
        for (h, n) in &host.blocks[b..b + nb] {
            argv.push(h.to_be_bytes().to_vec());
            argv.push(n.to_string().into_bytes());
        }
        p += np;
        b += nb;
        out.push((keys.clone(), argv));
    }
    out
}

/// One page's template read, between the `HMGET` of its blocks' counts and the `LEARN`.
#[derive(Clone, Debug)]
pub struct TemplateRead {
    keys: [String; 3],
    /// The page's main content as extracted, and its whole text (read in one pass).
    extracted: String,
    all: String,
    blocks: Vec<u64>,
    key: u64,
    min: u32,
    hash: BlockHash,
    text: Option<String>,
}

impl TemplateRead {
    /// The read of `html`, a page of `url`, in namespace `ns` whose meta key is `meta_key`,
    /// with `min` the `template` setting and `hash` the store's block hash.
    pub fn new(ns: &str, meta_key: &str, url: &str, html: &str, min: u32, hash: BlockHash) -> TemplateRead {
        let host = crate::html::template::host_of(url);
        let (all, extracted) = crate::html::all_and_main(html);
        let b = blocks(&all, hash);
        TemplateRead {
            keys: [meta_key.to_owned(), format!("{{{ns}}}:tp:{host}"), format!("{{{ns}}}:tb:{host}")],
            extracted,
            all,
            key: page_key(&b),
            blocks: b,
            min,
            hash,
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
    /// `None` for a block never seen) and the `SCARD` of the host's page set (`pages`, the
    /// pages it learnt).
    pub fn read(&mut self, counts: &[Option<Vec<u8>>], pages: u64) -> Result<String> {
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
        let known = pages >= u64::from(self.min);
        let text = read_extracted(&self.extracted, &self.all, self.hash, known, |b| {
            template.binary_search(&b).is_ok()
        });
        self.text = Some(text.clone());
        Ok(text)
    }

    /// The `LEARN` script's `ARGV` once the check was decided (`duplicate`: it was), after
    /// [`read`](Self::read); `None` when there is nothing to learn.
    pub fn learn_args(&self, meta: &str, duplicate: bool) -> Option<Vec<Vec<u8>>> {
        let mut b = self.blocks.clone();
        if duplicate {
            let read = blocks(self.text.as_deref().unwrap_or(""), self.hash);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::template::tests::spelled;
    use crate::html::TemplateModel;
    use std::collections::{BTreeMap, BTreeSet};

    fn page(own: &str) -> String {
        format!(
            "<html><body><nav><a href=/>Home</a> <a href=/about>About us</a></nav><main><p>{own}</p></main>\
             <footer><p>The Example Gazette is printed in Springfield every day of the year.</p></footer></body></html>"
        )
    }

    /// The keys `IMPORT_TEMPLATE` writes, applied as Redis would (`SADD`, `HSET`).
    type Keys = (BTreeSet<Vec<u8>>, BTreeMap<Vec<u8>, Vec<u8>>);

    fn apply(calls: &[ImportCall]) -> Keys {
        let (mut set, mut hash) = (BTreeSet::new(), BTreeMap::new());
        for (_, argv) in calls {
            let n: usize = std::str::from_utf8(&argv[1]).unwrap().parse().unwrap();
            set.extend(argv[2..2 + n].iter().cloned());
            for pair in argv[2 + n..].chunks(2) {
                hash.insert(pair[0].clone(), pair[1].clone());
            }
        }
        (set, hash)
    }

    #[test]
    fn hosts_go_into_redis_and_come_back_the_same() {
        let mut m = TemplateModel::new(3);
        for i in 0..10 {
            m.learn("a.example", &page(&format!("Page {} of host a says something of its own.", spelled(i))));
        }
        for i in 0..PAGES_PER_HOST + 3 {
            m.learn("full.example", &page(&format!("Page {} of a full host.", spelled(i))));
        }
        for host in m.hosts() {
            for batch in [1, 3, 500, 5000] {
                let calls = import_host("ns", "{ns}:meta", "META", &host, batch);
                for (keys, argv) in &calls {
                    assert_eq!(keys[1], format!("{{ns}}:tp:{}", host.host));
                    assert_eq!(argv[0], b"META");
                    let n: usize = std::str::from_utf8(&argv[1]).unwrap().parse().unwrap();
                    assert!(n + (argv.len() - 2 - n) / 2 <= batch.clamp(1, MAX_IMPORT_BATCH), "bounded");
                }
                let (set, hash) = apply(&calls);
                // The same calls again (a retry) write the same keys.
                let twice: Vec<_> = calls.iter().chain(&calls).cloned().collect();
                assert_eq!(apply(&twice), (set.clone(), hash.clone()));
                let members: Vec<Vec<u8>> = set.into_iter().collect();
                let pairs: Vec<(Vec<u8>, Vec<u8>)> = hash.into_iter().collect();
                assert_eq!(members.len(), host.learnt as usize, "a full host's set holds stand-ins");
                let back = export_host(host.host.clone(), &members, &pairs, 3).unwrap();
                assert_eq!(back, host, "batch {batch}");
            }
        }
        // A full host learnt in Redis keeps every block; the export keeps its template only,
        // as ContentSeen does.
        let full = &m.hosts()[1];
        let members: Vec<Vec<u8>> = (0..64u64).map(|k| (k * 7919).to_be_bytes().to_vec()).collect();
        let mut pairs: Vec<(Vec<u8>, Vec<u8>)> =
            full.blocks.iter().map(|(b, n)| (b.to_be_bytes().to_vec(), n.to_string().into_bytes())).collect();
        pairs.push((42u64.to_be_bytes().to_vec(), b"1".to_vec()));
        assert_eq!(&export_host(full.host.clone(), &members, &pairs, 3).unwrap(), full);
    }

    #[test]
    fn corrupt_template_keys_are_refused() {
        let key = 5u64.to_be_bytes().to_vec();
        let ok =
            |members: &[Vec<u8>], pairs: &[(Vec<u8>, Vec<u8>)]| export_host("h".into(), members, pairs, 3);
        let one = std::slice::from_ref(&key);
        assert!(ok(one, &[(key.clone(), b"1".to_vec())]).is_ok());
        assert!(ok(&[b"short".to_vec()], &[]).is_err());
        assert!(ok(one, &[(b"x".to_vec(), b"1".to_vec())]).is_err());
        assert!(ok(one, &[(key.clone(), b"2".to_vec())]).is_err(), "more pages than learnt");
        assert!(ok(one, &[(key.clone(), b"0".to_vec())]).is_err());
        assert!(ok(one, &[(key.clone(), b"one".to_vec())]).is_err());
        assert!(host_keys("ns", b"{other}:tp:h").is_err());
        assert_eq!(
            host_keys("ns", b"{ns}:tp:a.example").unwrap(),
            ("a.example".into(), "{ns}:tb:a.example".into())
        );
        assert_eq!(host_pattern("a*b[c]"), "{a\\*b\\[c\\]}:tp:*");
    }
}
