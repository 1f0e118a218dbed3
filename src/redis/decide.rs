//! One check as a small state machine: the arguments of the next script call, and what
//! its reply means. Distances are measured here, never in Lua.
//!
//! ```text
//! begin ─► call CHECK ─┬─ "N" / "E" / "D" ─► done
//!                      ├─ "C" candidates ──► measure, remember as evaluated ─► call again
//!                      └─ "M" old fp ──────► add the replace arguments ─────► call again
//! ```
//!
//! The common case (no record passes the pre-filter) is one call. A near-duplicate takes
//! two: candidates, then the decision with the matches wasm found.
//!
//! Sketch mode has a flow of its own ([`super::sketch`]): its script returns the
//! candidates' page values with their sketches, so neither flow fetches page records
//! between calls.

use std::sync::Arc;

use super::record::{fp_from, PageRecord};
use super::Store;
use crate::error::{Error, Result};

/// A stored page found within k of the query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// Its fingerprint.
    pub fingerprint: u64,
    /// Hamming distance to the query.
    pub distance: u32,
    /// The table it was found in, and its record there (how the script recognises it).
    pub table: u8,
    /// The record bytes in that table.
    pub record: Vec<u8>,
}

/// One stored page in a result: its URL (`None` without the URL map) and distance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreMatch {
    /// The stored page's URL.
    pub url: Option<String>,
    /// Its fingerprint.
    pub fingerprint: u64,
    /// Hamming distance to the checked page.
    pub distance: u32,
}

/// The answer of a check, as [`crate::Check`] with optional URL fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// A stored page is a near-duplicate (the page was not stored): within k, or in sketch
    /// mode a candidate whose estimate reaches the threshold.
    pub duplicate: bool,
    /// The near-duplicates still stored: fingerprint-only, those within k, nearest first
    /// (then by URL); sketch mode, ranked as `ContentSeen` ranks them (highest estimate,
    /// then nearest, then by URL).
    pub matches: Vec<StoreMatch>,
    /// The page's fingerprint.
    pub fingerprint: u64,
    /// The stored page it is counted under (itself when new); `None` without the URL map.
    pub cluster: Option<String>,
    /// That page's count after this check; `None` without the URL map.
    pub count: Option<u64>,
    /// Script calls this check took.
    pub calls: u32,
    /// `true` when a call repeated after a lost reply found that its first attempt had
    /// already decided the check (by the check id): the answer is that decision, and
    /// nothing was counted again.
    pub replayed: bool,
}

impl Outcome {
    /// The Hamming distance to the page this one is counted under (the match whose URL is
    /// the cluster, else the best match), as `ContentSeen`'s `distance`; `None` when new,
    /// or when a repeated call's answer names no measured match.
    pub fn distance(&self) -> Option<u32> {
        if !self.duplicate {
            return None;
        }
        let winner = self.matches.iter().find(|m| self.cluster.is_some() && m.url == self.cluster);
        winner.or(self.matches.first()).map(|m| m.distance)
    }
}

/// Most calls one check may take before it gives up (each extra call means other workers
/// stored new candidates in between; thousands would be needed to reach it).
pub const MAX_CALLS: u32 = 64;

/// The state of one check.
pub struct CheckPlan {
    store: Arc<Store>,
    url: String,
    fp: u64,
    /// The entry's query field: everything that does not change between calls (made once).
    query: Vec<u8>,
    evaluated: Vec<u8>,
    known: std::collections::HashSet<(u8, Vec<u8>)>,
    within: Vec<Candidate>,
    replace: Option<u64>,
    calls: u32,
}

impl CheckPlan {
    pub(super) fn new(store: Arc<Store>, url: &str, fp: u64, check_id: u64) -> Result<CheckPlan> {
        super::record::check_url(url)?;
        check_check_id(check_id)?;
        let page_record = PageRecord { url: url.to_owned(), sketch: None }.encode()?;
        let mut query = Vec::with_capacity(19 + 12 * store.geometry.len() + page_record.len());
        query.extend_from_slice(&fp.to_be_bytes());
        query.extend_from_slice(&check_id.to_be_bytes());
        query.push(u8::from(store.urls));
        query.push(store.k as u8);
        super::keys::push_tables(&mut query, &store.geometry, fp);
        query.extend_from_slice(&page_record);
        Ok(CheckPlan {
            store,
            url: url.to_owned(),
            fp,
            query,
            evaluated: Vec::new(),
            known: Default::default(),
            within: Vec::new(),
            replace: None,
            calls: 0,
        })
    }

    /// The page's entry in its next CHECK call (URL, query, evaluated, matches, replace,
    /// each after its length: `src/redis/script.rs`); [`check_argv`] makes the `ARGV` of a
    /// call for one or several entries.
    pub fn entry(&self) -> Vec<u8> {
        let s = &self.store;
        let mut matches = Vec::new();
        for c in &self.within {
            matches.extend_from_slice(&c.fingerprint.to_be_bytes());
            matches.push(c.distance as u8);
            matches.push(c.table);
            matches.extend_from_slice(&c.record);
        }
        let mut replace = Vec::new();
        if let Some(old) = self.replace {
            replace.extend_from_slice(&old.to_be_bytes());
            for g in &s.geometry {
                replace.extend(g.bucket_key(old));
                replace.extend(g.bucket_field(old));
                replace.extend(g.record(old));
            }
        }
        frame(&[self.url.as_bytes(), &self.query, &self.evaluated, &matches, &replace])
    }

    /// The CHECK script's reply for this page: `Some(outcome)` when decided, `None` to call
    /// again (with a new [`entry`](Self::entry)).
    pub fn feed(&mut self, reply: &[Vec<u8>]) -> Result<Option<Outcome>> {
        self.calls += 1;
        let s = Arc::clone(&self.store);
        let status = reply.first().map(Vec::as_slice).unwrap_or(b"");
        let text = |i: usize| reply_text(reply, i);
        let count = |i: usize| -> Result<Option<u64>> {
            if !s.urls {
                return Ok(None);
            }
            text(i)?.parse().map(Some).map_err(|_| bad_reply("a count is not a number"))
        };
        let out = match status {
            b"N" => Outcome {
                duplicate: false,
                matches: Vec::new(),
                fingerprint: self.fp,
                cluster: s.urls.then(|| self.url.clone()),
                count: s.urls.then_some(1),
                calls: self.calls,
                replayed: false,
            },
            b"E" => {
                let url = text(1)?;
                let url = s.urls.then_some(url);
                Outcome {
                    duplicate: true,
                    matches: vec![StoreMatch { url: url.clone(), fingerprint: self.fp, distance: 0 }],
                    fingerprint: self.fp,
                    cluster: url,
                    count: count(2)?,
                    calls: self.calls,
                    replayed: false,
                }
            }
            b"R" if reply.len() == 1 => Outcome {
                duplicate: false,
                matches: Vec::new(),
                fingerprint: self.fp,
                cluster: s.urls.then(|| self.url.clone()),
                count: s.urls.then_some(1),
                calls: self.calls,
                replayed: true,
            },
            b"D" | b"R" => {
                let cluster = text(1)?;
                let mut matches = Vec::new();
                if status == b"R" && self.within.is_empty() {
                    // Decided on an exact copy ("E"), before any candidate was measured.
                    matches.push(StoreMatch {
                        url: Some(cluster.clone()),
                        fingerprint: self.fp,
                        distance: 0,
                    });
                }
                for (i, c) in self.within.iter().enumerate() {
                    let m = reply.get(3 + i).ok_or_else(|| bad_reply("a match is missing"))?;
                    if m.first() == Some(&b'1') {
                        let url =
                            String::from_utf8(m[1..].to_vec()).map_err(|_| bad_reply("URL not UTF-8"))?;
                        matches.push(StoreMatch {
                            url: s.urls.then_some(url),
                            fingerprint: c.fingerprint,
                            distance: c.distance,
                        });
                    }
                }
                sort_matches(&mut matches);
                Outcome {
                    duplicate: true,
                    matches,
                    fingerprint: self.fp,
                    cluster: s.urls.then_some(cluster),
                    count: count(2)?,
                    calls: self.calls,
                    replayed: status == b"R",
                }
            }
            b"C" => {
                let blob = reply.get(1).ok_or_else(|| bad_reply("no candidates"))?;
                self.measure(blob)?;
                return again(self.calls);
            }
            b"M" => {
                let old = fp_from(reply.get(1).map(Vec::as_slice).unwrap_or(b""))?;
                self.replace = Some(old);
                return again(self.calls);
            }
            b"X" => {
                let key = &s.keys[0];
                super::meta::compare(reply.get(1).map(Vec::as_slice).unwrap_or(b""), &s.meta, key)?;
                return Err(bad_reply("the namespace's settings changed"));
            }
            b"G" => return Err(gone(&s.keys[0])),
            b"F" => {
                let what =
                    String::from_utf8_lossy(reply.get(1).map(Vec::as_slice).unwrap_or(b"")).into_owned();
                return Err(foreign(&s.keys[0], &what));
            }
            _ => return Err(bad_reply("an unknown status")),
        };
        Ok(Some(out))
    }

    /// Measures the candidate records of a `"C"` reply and remembers them as evaluated.
    fn measure(&mut self, blob: &[u8]) -> Result<()> {
        let s = Arc::clone(&self.store);
        let k = s.k;
        let mut i = 0;
        while i < blob.len() {
            let t = blob[i];
            let g = s.geometry.get(t as usize).ok_or_else(|| bad_reply("a table number is out of range"))?;
            let rl = g.record_len();
            let rec = blob.get(i + 1..i + 1 + rl).ok_or_else(|| bad_reply("a record is cut short"))?;
            i += 1 + rl;
            if !self.known.insert((t, rec.to_vec())) {
                continue;
            }
            self.evaluated.push(t);
            self.evaluated.extend_from_slice(rec);
            let fp = g.join(&g.field(self.fp), rec);
            let distance = crate::hamming(fp, self.fp);
            if distance <= k && !self.within.iter().any(|c| c.fingerprint == fp) {
                self.within.push(Candidate { fingerprint: fp, distance, table: t, record: rec.to_vec() });
            }
        }
        self.within.sort_by_key(|c| (c.distance, c.fingerprint));
        Ok(())
    }
}

/// An entry of a check call: each field after its length (4 bytes, big-endian).
pub(super) fn frame(fields: &[&[u8]]) -> Vec<u8> {
    let mut entry = Vec::with_capacity(fields.iter().map(|f| 4 + f.len()).sum());
    for f in fields {
        entry.extend_from_slice(&(f.len() as u32).to_be_bytes());
        entry.extend_from_slice(f);
    }
    entry
}

/// Check ids are random and never 0 (0 is what a page record written without one holds).
pub(super) fn check_check_id(id: u64) -> Result<()> {
    if id == 0 {
        return Err(Error::option("checkId", 0, "a random id per check, not 0 (its retries reuse it)"));
    }
    Ok(())
}

/// `None` (call again) while a check has taken fewer than [`MAX_CALLS`] calls, else the
/// error that gives up on it.
pub(super) fn again(calls: u32) -> Result<Option<Outcome>> {
    if calls >= MAX_CALLS {
        return Err(Error::option(
            "check",
            format!("{calls} script calls"),
            "a check that settles; other workers kept storing new candidates, retry it",
        ));
    }
    Ok(None)
}

/// Nearest first, then by URL (as `ContentSeen`), then by fingerprint.
pub fn sort_matches(m: &mut [StoreMatch]) {
    m.sort_by(|a, b| (a.distance, &a.url, a.fingerprint).cmp(&(b.distance, &b.url, b.fingerprint)));
}

/// Field `i` of a script reply, as text (a URL or a count).
pub(super) fn reply_text(reply: &[Vec<u8>], i: usize) -> Result<String> {
    let b = reply.get(i).ok_or_else(|| bad_reply("a field is missing"))?;
    String::from_utf8(b.clone()).map_err(|_| bad_reply("a URL is not UTF-8"))
}

/// A reply this build cannot read.
pub(super) fn bad_reply(why: &str) -> Error {
    Error::corrupt(
        "Redis script reply",
        0,
        format!("{why}; the script and this build disagree (mixed versions?)"),
    )
}

/// Data this build did not write, found in the namespace of `meta_key` (`what` says where).
pub(super) fn foreign(meta_key: &str, what: &str) -> Error {
    let ns = meta_key.strip_suffix(":meta").unwrap_or(meta_key);
    Error::option(
        "namespace",
        format!("{} holding foreign data ({what})", crate::error::quoted(ns)),
        "a namespace whose keys only simhash-wasm wrote: choose another namespace or delete its keys",
    )
}

/// The `ARGV` of one CHECK call: the namespace's meta, and the pages' entries (from
/// [`CheckPlan::entry`]) one after another. The reply holds one reply per page, in this order.
#[cfg_attr(not(test), allow(dead_code))]
pub fn check_argv<'a>(meta: &str, entries: impl IntoIterator<Item = &'a [u8]>) -> Vec<Vec<u8>> {
    vec![meta.as_bytes().to_vec(), entries.into_iter().flatten().copied().collect()]
}

/// The namespace's meta key vanished while in use.
pub(super) fn gone(key: &str) -> Error {
    Error::option(
        "namespace",
        crate::error::quoted(key),
        "a namespace that still exists: its meta key is gone (deleted, evicted by the server's `maxmemory-policy`, or the server \
         restarted without its data); \
         open it again to start a new one",
    )
}
