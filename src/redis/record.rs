//! The stored values: page records (`{NS}:p`), URL-map values (`{NS}:u`) and index
//! records (in `{NS}:t*`, see [`super::keys`]).
//!
//! ## Page record versions (the first byte)
//!
//! - **1** (this release writes it): `0x01`, then the URL's UTF-8 bytes to the end.
//! - **2** (a page with a similarity sketch, written in sketch mode, [`super::sketch`]):
//!   `0x02`, the sketch scheme version (1 byte, [`crate::sketch::VERSION`]), the sketch
//!   length `L` (1 byte, at most [`MAX_SKETCH_BYTES`]), the `L` sketch bytes (the sketch's
//!   payload), then the URL to the end. A version-1 record simply has no sketch (in sketch
//!   mode: a page stored by `checkFingerprint`, or imported from a version-1 snapshot),
//!   and such a page is matched by fingerprint within k only, as in `ContentSeen`.
//!
//! ## Page values (sketch mode)
//!
//! In sketch mode `{NS}:p` maps a page number (4 bytes, big-endian) to a *page value*:
//! the page's fingerprint (8 bytes, big-endian), then its page record (either version).
//!
//! Any other first byte is refused with [`Error::UnsupportedVersion`] (a newer writer) —
//! never guessed at. The Lua scripts read the URL of both versions.
//!
//! ## URL-map values
//!
//! Written by store format 2 and read by every later one:
//!
//! - `0x01` + 8-byte big-endian fingerprint: the URL is a stored page;
//! - `0x02` + URL: the URL was a duplicate, counted under that stored page's URL (it follows
//!   the URL, as `ContentSeen`'s aliases do when a stored page's content is replaced);
//! - `0x03` + 4-byte big-endian page number: the URL is that stored page (sketch mode).
//!
//! Written by store format 3 (the checks' writes; imports still write the ones above),
//! with *check ids* (8 bytes each, [`super::RedisSeen::begin`]): a call repeated after a
//! lost reply finds its own id and gets its first attempt's answer.
//!
//! - `0x04` + fingerprint + the id of the check that stored the page, then optionally the
//!   *counted list*: a byte `n` (1 to 4), the ids of the last `n` checks of this URL counted
//!   as duplicates (newest first), whichever page each was counted under, and the URL of
//!   the page the newest of them was counted under (empty: this one): a stored page;
//! - `0x05` + a counted list (its URL the cluster's): an alias;
//! - `0x06` + page number, then as `0x04`: a stored page (sketch mode).
//!
//! A counted list outlives a switch of the page the URL's checks are counted under (a
//! closer page stored meanwhile), the URL becoming a stored page (an alias's list moves
//! into the stored value, its URL unchanged) and the replacement of the URL's page (the
//! list stays), so that up to four checks of one URL racing each other around lost
//! replies each find their id, and none is counted twice. A repeat whose id is listed is
//! answered as counted under the list's page, with that page's count now: its first
//! attempt's page, unless a later check of the URL was counted under another page
//! meanwhile; then that later page (for a URL checked with the same content, a
//! near-duplicate of it as well). The list keeps one page URL, not one per id: per-id
//! pages would be a new value kind, and so a new store format.
//!
//! ## Index records
//!
//! No version byte: their size is fixed by the layout, which the namespace's meta pins.
//! A new record format would be a new meta version.

use crate::error::{Error, Result};

/// The largest sketch a page record holds.
pub const MAX_SKETCH_BYTES: usize = 128;
/// Longest URL accepted, in bytes.
pub const MAX_URL_BYTES: usize = 16 * 1024;

const WHAT: &str = "Redis page record";

/// A page record: the URL, and later the similarity sketch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageRecord {
    /// The URL the page was stored under.
    pub url: String,
    /// `(sketch scheme, sketch bytes)`, when the page has one (format version 2).
    pub sketch: Option<(u8, Vec<u8>)>,
}

/// Checks a URL given to a check: 1 to [`MAX_URL_BYTES`] bytes.
pub fn check_url(url: &str) -> Result<()> {
    if url.is_empty() || url.len() > MAX_URL_BYTES {
        let shown =
            if url.len() > 60 { format!("a URL of {} bytes", url.len()) } else { crate::error::quoted(url) };
        return Err(Error::option("url", shown, format!("a URL of 1 to {MAX_URL_BYTES} bytes")));
    }
    Ok(())
}

impl PageRecord {
    /// The record's bytes (version 1 without a sketch, 2 with one).
    pub fn encode(&self) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(self.url.len() + 4);
        match &self.sketch {
            None => out.push(1),
            Some((scheme, bytes)) => {
                if bytes.len() > MAX_SKETCH_BYTES {
                    return Err(Error::option(
                        "sketch",
                        format!("{} bytes", bytes.len()),
                        format!("at most {MAX_SKETCH_BYTES} bytes"),
                    ));
                }
                out.extend_from_slice(&[2, *scheme, bytes.len() as u8]);
                out.extend_from_slice(bytes);
            }
        }
        out.extend_from_slice(self.url.as_bytes());
        Ok(out)
    }

    /// Reads a record of version 1 or 2.
    pub fn decode(bytes: &[u8]) -> Result<PageRecord> {
        let (sketch, rest) = match bytes.first() {
            None => return Err(Error::corrupt(WHAT, 0, "the record is empty")),
            Some(1) => (None, &bytes[1..]),
            Some(2) => {
                if bytes.len() < 3 {
                    return Err(Error::corrupt(WHAT, bytes.len(), "the sketch header is cut short"));
                }
                let n = bytes[2] as usize;
                if n > MAX_SKETCH_BYTES || bytes.len() < 3 + n {
                    return Err(Error::corrupt(WHAT, 2, format!("a sketch of {n} bytes does not fit")));
                }
                (Some((bytes[1], bytes[3..3 + n].to_vec())), &bytes[3 + n..])
            }
            Some(&v) => {
                return Err(Error::UnsupportedVersion { what: WHAT, found: u32::from(v), supported: 2 })
            }
        };
        let url = std::str::from_utf8(rest)
            .map_err(|_| Error::corrupt(WHAT, bytes.len() - rest.len(), "the URL is not UTF-8"))?;
        Ok(PageRecord { url: url.to_owned(), sketch })
    }
}

/// What the URL map says about a URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UrlEntry {
    /// The URL is a stored page with this fingerprint.
    Stored(u64),
    /// The URL was a duplicate of the stored page with this URL.
    Alias(String),
    /// The URL is a stored page with this page number (sketch mode).
    Page(u32),
    /// A stored page (fingerprint, or page number in sketch mode), with the check that
    /// stored it and the last checks of this URL counted as duplicates (newest first),
    /// with the URL the newest was counted under (`None`: this page).
    StoredBy { page: StoredAs, stored_by: u64, counted: Option<(Vec<u64>, Option<String>)> },
    /// An alias, with the last checks that counted the URL (newest first) and the cluster
    /// the newest was counted under.
    AliasBy { counted_by: Vec<u64>, cluster: String },
}

/// How a stored page is known: by fingerprint, or (sketch mode) by page number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoredAs {
    /// The fingerprint-only store.
    Fingerprint(u64),
    /// Sketch mode.
    Number(u32),
}

impl UrlEntry {
    /// The value's bytes (the scripts write them; the goldens test this twin).
    #[cfg(test)]
    pub fn encode(&self) -> Vec<u8> {
        let mut v = Vec::new();
        match self {
            UrlEntry::Stored(fp) => {
                v.push(1);
                v.extend_from_slice(&fp.to_be_bytes());
            }
            UrlEntry::Alias(url) => {
                v.push(2);
                v.extend_from_slice(url.as_bytes());
            }
            UrlEntry::Page(n) => {
                v.push(3);
                v.extend_from_slice(&n.to_be_bytes());
            }
            UrlEntry::StoredBy { page, stored_by, counted } => {
                match page {
                    StoredAs::Fingerprint(fp) => {
                        v.push(4);
                        v.extend_from_slice(&fp.to_be_bytes());
                    }
                    StoredAs::Number(n) => {
                        v.push(6);
                        v.extend_from_slice(&n.to_be_bytes());
                    }
                }
                v.extend_from_slice(&stored_by.to_be_bytes());
                if let Some((ids, under)) = counted {
                    v.push(ids.len() as u8);
                    ids.iter().for_each(|c| v.extend_from_slice(&c.to_be_bytes()));
                    v.extend_from_slice(under.as_deref().unwrap_or("").as_bytes());
                }
            }
            UrlEntry::AliasBy { counted_by, cluster } => {
                v.push(5);
                v.push(counted_by.len() as u8);
                counted_by.iter().for_each(|c| v.extend_from_slice(&c.to_be_bytes()));
                v.extend_from_slice(cluster.as_bytes());
            }
        }
        v
    }

    /// Reads a value.
    pub fn decode(bytes: &[u8]) -> Result<UrlEntry> {
        const W: &str = "Redis URL-map value";
        let id = |b: &[u8]| u64::from_be_bytes(b.try_into().expect("8 bytes"));
        let url = |b: &[u8]| {
            std::str::from_utf8(b)
                .map(str::to_owned)
                .map_err(|_| Error::corrupt(W, 1, "the URL is not UTF-8"))
        };
        // A counted list: n, n ids, a URL.
        let list = |b: &[u8]| -> Result<(Vec<u64>, String)> {
            let n = *b.first().ok_or_else(|| Error::corrupt(W, 0, "a counted list is empty"))? as usize;
            if !(1..=4).contains(&n) || b.len() < 1 + 8 * n {
                return Err(Error::corrupt(W, 0, "a counted list is cut short"));
            }
            Ok(((0..n).map(|i| id(&b[1 + 8 * i..9 + 8 * i])).collect(), url(&b[1 + 8 * n..])?))
        };
        let counted = |b: &[u8]| -> Result<Option<(Vec<u64>, Option<String>)>> {
            if b.is_empty() {
                return Ok(None);
            }
            let (ids, under) = list(b)?;
            Ok(Some((ids, (!under.is_empty()).then_some(under))))
        };
        let n = bytes.len();
        match bytes.first() {
            Some(1) if n == 9 => Ok(UrlEntry::Stored(fp_from(&bytes[1..])?)),
            Some(2) => Ok(UrlEntry::Alias(url(&bytes[1..])?)),
            Some(3) if n == 5 => Ok(UrlEntry::Page(page_number(&bytes[1..])?)),
            Some(4) if n >= 17 => Ok(UrlEntry::StoredBy {
                page: StoredAs::Fingerprint(fp_from(&bytes[1..9])?),
                stored_by: id(&bytes[9..17]),
                counted: counted(&bytes[17..])?,
            }),
            Some(6) if n >= 13 => Ok(UrlEntry::StoredBy {
                page: StoredAs::Number(page_number(&bytes[1..5])?),
                stored_by: id(&bytes[5..13]),
                counted: counted(&bytes[13..])?,
            }),
            Some(5) => list(&bytes[1..]).map(|(counted_by, cluster)| UrlEntry::AliasBy { counted_by, cluster }),
            _ => Err(Error::corrupt(
                W,
                0,
                "neither a stored page (0x01, 0x03, 0x04, 0x06) nor an alias (0x02, 0x05) of the sizes this build writes",
            )),
        }
    }
}

/// A 4-byte big-endian page number (sketch mode).
pub fn page_number(bytes: &[u8]) -> Result<u32> {
    <[u8; 4]>::try_from(bytes)
        .map(u32::from_be_bytes)
        .map_err(|_| Error::corrupt("Redis page number", 0, format!("{} bytes, not 4", bytes.len())))
}

/// A page value (sketch mode): fingerprint, then the page record.
pub fn encode_page_value(fp: u64, record: &PageRecord) -> Result<Vec<u8>> {
    let mut out = fp.to_be_bytes().to_vec();
    out.extend(record.encode()?);
    Ok(out)
}

/// Reads a page value (sketch mode).
pub fn decode_page_value(bytes: &[u8]) -> Result<(u64, PageRecord)> {
    if bytes.len() < 9 {
        return Err(Error::corrupt(
            "Redis page value",
            bytes.len(),
            "shorter than a fingerprint and a record",
        ));
    }
    Ok((fp_from(&bytes[..8])?, PageRecord::decode(&bytes[8..])?))
}

/// An 8-byte big-endian fingerprint.
pub fn fp_from(bytes: &[u8]) -> Result<u64> {
    <[u8; 8]>::try_from(bytes)
        .map(u64::from_be_bytes)
        .map_err(|_| Error::corrupt("Redis fingerprint", 0, format!("{} bytes, not 8", bytes.len())))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Golden bytes: a change here is a format change and needs a new version.
    #[test]
    fn records_are_pinned_and_round_trip() {
        let v1 = PageRecord { url: "https://a.example/x".into(), sketch: None };
        assert_eq!(v1.encode().unwrap(), b"\x01https://a.example/x");
        let v2 = PageRecord { url: "u".into(), sketch: Some((7, vec![9, 8, 7])) };
        assert_eq!(v2.encode().unwrap(), b"\x02\x07\x03\x09\x08\x07u");
        for r in [v1, v2] {
            let b = r.encode().unwrap();
            assert_eq!(PageRecord::decode(&b).unwrap(), r);
            for cut in 0..b.len().min(3) {
                let _ = PageRecord::decode(&b[..cut]); // never panics
            }
        }
        let big = PageRecord { url: "u".into(), sketch: Some((1, vec![0; MAX_SKETCH_BYTES])) };
        assert_eq!(PageRecord::decode(&big.encode().unwrap()).unwrap(), big);
        let too_big = PageRecord { url: "u".into(), sketch: Some((1, vec![0; MAX_SKETCH_BYTES + 1])) };
        assert!(too_big.encode().is_err());
        assert!(matches!(PageRecord::decode(b"\x03u"), Err(Error::UnsupportedVersion { found: 3, .. })));
        assert!(matches!(PageRecord::decode(b"\x02\x01\x09ab"), Err(Error::Corrupt { .. })));
        assert!(PageRecord::decode(b"\x01\xff").is_err());
    }

    #[test]
    fn url_entries_round_trip_and_urls_are_bounded() {
        for e in [UrlEntry::Stored(0x0102_0304_0506_0708), UrlEntry::Alias("https://b/".into())] {
            assert_eq!(UrlEntry::decode(&e.encode()).unwrap(), e);
        }
        assert_eq!(UrlEntry::Stored(1).encode(), b"\x01\0\0\0\0\0\0\0\x01");
        assert!(UrlEntry::decode(b"\x01abc").is_err());
        assert!(UrlEntry::decode(b"").is_err());
        assert_eq!(UrlEntry::Page(0x0102_0304).encode(), b"\x03\x01\x02\x03\x04");
        assert_eq!(UrlEntry::decode(b"\x03\0\0\x01\x00").unwrap(), UrlEntry::Page(256));
        assert!(UrlEntry::decode(b"\x03\0\0\x01").is_err());
        // Store format 3: check ids (golden bytes).
        let by = UrlEntry::StoredBy { page: StoredAs::Fingerprint(0x0102), stored_by: 7, counted: None };
        assert_eq!(by.encode(), b"\x04\0\0\0\0\0\0\x01\x02\0\0\0\0\0\0\0\x07");
        let by2 =
            UrlEntry::StoredBy { page: StoredAs::Number(9), stored_by: 7, counted: Some((vec![8], None)) };
        assert_eq!(by2.encode(), b"\x06\0\0\0\x09\0\0\0\0\0\0\0\x07\x01\0\0\0\0\0\0\0\x08");
        let by3 = UrlEntry::StoredBy {
            page: StoredAs::Number(9),
            stored_by: 7,
            counted: Some((vec![8, 3], Some("x".into()))),
        };
        assert_eq!(
            by3.encode(),
            b"\x06\0\0\0\x09\0\0\0\0\0\0\0\x07\x02\0\0\0\0\0\0\0\x08\0\0\0\0\0\0\0\x03x"
        );
        let al = UrlEntry::AliasBy { counted_by: vec![5], cluster: "https://c/".into() };
        assert_eq!(al.encode(), b"\x05\x01\0\0\0\0\0\0\0\x05https://c/");
        for e in [by, by2, by3, al] {
            let b = e.encode();
            assert_eq!(UrlEntry::decode(&b).unwrap(), e);
            let _ = UrlEntry::decode(&b[..b.len() - 1]); // never panics
        }
        assert!(UrlEntry::decode(b"\x05abc").is_err());
        assert!(UrlEntry::decode(b"\x05\x05").is_err(), "at most 4 ids");
        let r = PageRecord { url: "u".into(), sketch: Some((1, vec![5; 4])) };
        let v = encode_page_value(0x0a0b, &r).unwrap();
        assert_eq!(v, b"\0\0\0\0\0\0\x0a\x0b\x02\x01\x04\x05\x05\x05\x05u");
        assert_eq!(decode_page_value(&v).unwrap(), (0x0a0b, r));
        assert!(decode_page_value(&v[..8]).is_err());
        assert!(check_url("https://a/").is_ok());
        assert!(check_url("").is_err());
        assert!(check_url(&"x".repeat(MAX_URL_BYTES)).is_ok());
        let e = check_url(&"x".repeat(MAX_URL_BYTES + 1)).unwrap_err();
        assert!(e.to_string().contains("16385 bytes"), "{e}");
    }
}
