//! The settings stored in `{NS}:meta`, written by the first worker and checked by every
//! script call, so that every worker of a namespace fingerprints and files pages alike.
//!
//! ## Format (version 3)
//!
//! UTF-8 text, one `name=value` per line after a first line `simhash-wasm-redis 3`:
//!
//! ```text
//! simhash-wasm-redis 3
//! scheme=chars:4 sublinear punct=keep nfkc lower sh64v1
//! layout=k=3 blocks=16,16,16,16 (4 tables)
//! html=false
//! urls=true
//! sketch=none
//! ```
//!
//! `scheme` is [`crate::Options::describe`] (it ends in the feature hash version), `layout`
//! the layout's display form, `urls` whether the URL map is kept, `sketch` the similarity
//! sketch setting: `none` (the fingerprint-only store), or in sketch mode the sketch
//! scheme and the threshold, e.g. `sk1:128 t=0.81` ([`super::sketch`]). A value that differs is
//! [`Error::SchemeMismatch`] naming the field; another first line is a foreign key (or a
//! newer version: [`Error::UnsupportedVersion`]).
//!
//! The version is the *store format*: the meta's text, the key layout of the index
//! ([`super::keys`]) and the values the scripts write ([`super::record`]).
//!
//! - Version 3 (this build) writes URL-map values that carry check ids (the check that
//!   stored a page, the last one counted under it), so that a call repeated after a lost
//!   reply gets its first attempt's answer, and short-lived `{NS}:r:` keys without the URL
//!   map. It reads every version-2 value.
//! - Version 2 has the same lines and keys, without check ids. Opening a version-2
//!   namespace whose settings are ours upgrades its meta to version 3 in place (the OPEN
//!   script): nothing else changes, and workers of a version-2 build then stop with
//!   [`Error::UnsupportedVersion`] at their next call, before writing anything.
//! - Version 1 (one hash `{NS}:t` for every bucket, written by development builds before
//!   the listpack-sized hashes) is refused with [`Error::SchemeMismatch`] on the field
//!   `store format`, whose message says what to do: build format 1 never reached a
//!   release, so no converter is shipped; re-import the pages (`importSnapshot` of a
//!   `ContentSeen` snapshot, exported with the build that wrote the namespace) into a new
//!   namespace, or delete the old keys.

use crate::error::{Error, Result};

/// The meta format version this build writes and reads.
pub const META_VERSION: u32 = 3;
/// The older version whose namespaces this build upgrades in place (see the module docs).
pub const UPGRADES_FROM: u32 = 2;
const HEADER: &str = "simhash-wasm-redis ";

/// The fields of the meta string, in order.
pub const FIELDS: [&str; 5] = ["scheme", "layout", "html", "urls", "sketch"];

/// The meta string of a set of settings.
pub fn encode(scheme: &str, layout: &str, html: bool, urls: bool, sketch: &str) -> String {
    format!("{HEADER}{META_VERSION}\nscheme={scheme}\nlayout={layout}\nhtml={html}\nurls={urls}\nsketch={sketch}\n")
}

/// The meta string a version-[`UPGRADES_FROM`] namespace with the same settings holds.
pub fn upgradable(ours: &str) -> String {
    ours.replacen(&format!("{HEADER}{META_VERSION}\n"), &format!("{HEADER}{UPGRADES_FROM}\n"), 1)
}

/// Why a stored meta string was refused: not ours at all, or other settings.
fn foreign(key: &str) -> Error {
    Error::option(
        "namespace",
        crate::error::quoted(key),
        "a namespace whose keys were made by simhash-wasm (this one holds foreign data; choose another namespace or delete its keys)",
    )
}

/// Compares the stored meta with ours: `Ok` when equal, else the first differing field as
/// [`Error::SchemeMismatch`] (found = stored, expected = ours).
pub fn compare(stored: &[u8], ours: &str, key: &str) -> Result<()> {
    if stored == ours.as_bytes() {
        return Ok(());
    }
    let Ok(stored) = std::str::from_utf8(stored) else { return Err(foreign(key)) };
    let mut lines = stored.lines();
    let Some(version) = lines.next().and_then(|l| l.strip_prefix(HEADER)) else { return Err(foreign(key)) };
    match version.parse::<u32>() {
        // Version 2 with other settings reports the setting; with ours, OPEN upgraded it.
        Ok(META_VERSION | UPGRADES_FROM) => {}
        Ok(1) => {
            return Err(Error::SchemeMismatch {
                field: "store format",
                found: "1 (one hash for every index bucket, written by an earlier development build)".into(),
                expected: format!(
                "{META_VERSION} (listpack-sized hashes); export the namespace with the build that wrote it \
                     (exportSnapshot) and importSnapshot it into a new namespace, or delete its keys"
            ),
            })
        }
        Ok(v) => {
            return Err(Error::UnsupportedVersion {
                what: "Redis namespace",
                found: v,
                supported: META_VERSION,
            })
        }
        Err(_) => return Err(foreign(key)),
    }
    let get = |text: &str, name: &str| -> Option<String> {
        text.lines().find_map(|l| l.strip_prefix(name).and_then(|r| r.strip_prefix('=')).map(str::to_owned))
    };
    for field in FIELDS {
        let (found, expected) = (get(stored, field), get(ours, field));
        if found.is_none() {
            return Err(foreign(key));
        }
        if found != expected {
            return Err(Error::SchemeMismatch {
                field,
                found: found.unwrap_or_default(),
                expected: expected.unwrap_or_default(),
            });
        }
    }
    if stored.starts_with(&format!("{HEADER}{UPGRADES_FROM}\n")) {
        return Err(Error::SchemeMismatch {
            field: "store format",
            found: UPGRADES_FROM.to_string(),
            expected: format!(
                "{META_VERSION}: open the namespace with RedisContentSeen.open, which upgrades it in place"
            ),
        });
    }
    Err(foreign(key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_is_pinned_and_compared_field_by_field() {
        let ours = encode(
            "chars:4 sublinear punct=keep nfkc lower sh64v1",
            "k=3 blocks=16,16,16,16 (4 tables)",
            false,
            true,
            "none",
        );
        assert_eq!(
            ours,
            "simhash-wasm-redis 3\nscheme=chars:4 sublinear punct=keep nfkc lower sh64v1\nlayout=k=3 blocks=16,16,16,16 (4 tables)\nhtml=false\nurls=true\nsketch=none\n"
        );
        assert!(compare(ours.as_bytes(), &ours, "{ns}:meta").is_ok());
        let other = ours.replace("html=false", "html=true");
        match compare(other.as_bytes(), &ours, "{ns}:meta") {
            Err(Error::SchemeMismatch { field: "html", found, expected }) => {
                assert_eq!((found.as_str(), expected.as_str()), ("true", "false"))
            }
            e => panic!("{e:?}"),
        }
        let other = ours.replace("chars:4", "chars:5");
        assert!(matches!(
            compare(other.as_bytes(), &ours, "k"),
            Err(Error::SchemeMismatch { field: "scheme", .. })
        ));
        let v2 = upgradable(&ours);
        assert_eq!(v2, ours.replace("redis 3\n", "redis 2\n"));
        match compare(v2.as_bytes(), &ours, "k") {
            Err(e @ Error::SchemeMismatch { field: "store format", .. }) => {
                assert!(e.to_string().contains("upgrades"))
            }
            e => panic!("{e:?}"),
        }
        let v2_other = v2.replace("html=false", "html=true");
        assert!(matches!(
            compare(v2_other.as_bytes(), &ours, "k"),
            Err(Error::SchemeMismatch { field: "html", .. })
        ));
        let older = ours.replace("redis 3", "redis 1");
        match compare(older.as_bytes(), &ours, "k") {
            Err(e @ Error::SchemeMismatch { field: "store format", .. }) => {
                let m = e.to_string();
                assert!(m.contains("exportSnapshot") && m.contains("new namespace"), "{m}")
            }
            e => panic!("{e:?}"),
        }
        let newer = ours.replace("redis 3", "redis 9");
        assert!(matches!(
            compare(newer.as_bytes(), &ours, "k"),
            Err(Error::UnsupportedVersion { found: 9, .. })
        ));
        for junk in [&b"hello"[..], b"\xff\xfe", b"simhash-wasm-redis 3\nfoo=x\n"] {
            assert!(matches!(
                compare(junk, &ours, "k"),
                Err(Error::InvalidOption { option: "namespace", .. })
            ));
        }
    }
}
