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
//! - Version 4 (this build, sketch mode only) files band entries as records in fewer,
//!   fuller hashes (`{NS}:bB:HHH`, [`super::keys`]); everything else is version 3's. A
//!   fingerprint-only namespace has no bands and keeps writing version 3 (the oldest version
//!   that holds its data), so its keys and meta are byte for byte as before.
//! - Version 3 writes URL-map values that carry check ids (the check that
//!   stored a page, the last one counted under it), so that a call repeated after a lost
//!   reply gets its first attempt's answer, and short-lived `{NS}:r:` keys without the URL
//!   map. It reads every version-2 value. A version-3 (or 2) namespace *in sketch mode*
//!   (band hashes `{NS}:bB:HHHH` of bare page numbers, written only by development builds)
//!   is refused with [`Error::SchemeMismatch`] on the field `store format`, whose message
//!   says what to do (export it with the build that wrote it, import it into a new
//!   namespace): no release wrote it, so no converter is shipped.
//! - Version 2 has the same lines and keys, without check ids. Opening a fingerprint-only
//!   version-2 namespace whose settings are ours upgrades its meta to version 3 in place (the OPEN
//!   script): nothing else changes, and workers of a version-2 build then stop with
//!   [`Error::UnsupportedVersion`] at their next call, before writing anything.
//! - Version 1 (one hash `{NS}:t` for every bucket, written by development builds before
//!   the listpack-sized hashes) is refused with [`Error::SchemeMismatch`] on the field
//!   `store format`, whose message says what to do: build format 1 never reached a
//!   release, so no converter is shipped; re-import the pages (`importSnapshot` of a
//!   `ContentSeen` snapshot, exported with the build that wrote the namespace) into a new
//!   namespace, or delete the old keys.

use crate::error::{Error, Result};

/// The newest store format this build writes and reads (sketch mode).
pub const META_VERSION: u32 = 4;
/// The store format a fingerprint-only namespace is written in (the oldest that holds it).
pub const FINGERPRINT_VERSION: u32 = 3;
/// The older version whose fingerprint-only namespaces this build upgrades in place (see
/// the module docs).
pub const UPGRADES_FROM: u32 = 2;

/// The store format a namespace with this `sketch` meta value is written in.
fn version_for(sketch: &str) -> u32 {
    if sketch == "none" {
        FINGERPRINT_VERSION
    } else {
        META_VERSION
    }
}
const HEADER: &str = "simhash-wasm-redis ";

/// The fields of the meta string, in order.
pub const FIELDS: [&str; 5] = ["scheme", "layout", "html", "urls", "sketch"];

/// The meta string of a set of settings.
pub fn encode(scheme: &str, layout: &str, html: bool, urls: bool, sketch: &str) -> String {
    let version = version_for(sketch);
    format!(
        "{HEADER}{version}\nscheme={scheme}\nlayout={layout}\nhtml={html}\nurls={urls}\nsketch={sketch}\n"
    )
}

/// The meta string a version-[`UPGRADES_FROM`] namespace with the same settings holds,
/// which OPEN upgrades in place; empty in sketch mode (no older sketch-mode namespace is
/// upgraded).
pub fn upgradable(ours: &str) -> String {
    let current = format!("{HEADER}{FINGERPRINT_VERSION}\n");
    if !ours.starts_with(&current) {
        return String::new();
    }
    ours.replacen(&current, &format!("{HEADER}{UPGRADES_FROM}\n"), 1)
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
    let version = version.parse::<u32>();
    match version {
        // Another version with other settings reports the setting; with ours, below.
        Ok(UPGRADES_FROM..=META_VERSION) => {}
        Ok(1) => {
            return Err(Error::SchemeMismatch {
                field: "store format",
                found: "1 (one hash for every index bucket, written by an earlier development build)".into(),
                expected: format!(
                "{FINGERPRINT_VERSION} (listpack-sized hashes); export the namespace with the build that wrote it \
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
    let ours_version = version_for(&get(ours, "sketch").unwrap_or_default());
    if ours_version == META_VERSION && version != Ok(META_VERSION) {
        return Err(Error::SchemeMismatch {
            field: "store format",
            found: format!(
                "{} (sketch mode with band hashes of page numbers, written by an earlier development build)",
                version.unwrap_or_default()
            ),
            expected: format!(
                "{META_VERSION} (band records in fewer hashes); export the namespace with the build that wrote it \
                 (exportSnapshot) and importSnapshot it into a new namespace, or delete its keys"
            ),
        });
    }
    if stored.starts_with(&format!("{HEADER}{UPGRADES_FROM}\n")) {
        return Err(Error::SchemeMismatch {
            field: "store format",
            found: UPGRADES_FROM.to_string(),
            expected: format!(
                "{FINGERPRINT_VERSION}: open the namespace with RedisContentSeen.open, which upgrades it in place"
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
        // Sketch mode writes version 4; its version-3 and version-2 namespaces are refused
        // with advice, never upgraded or misread.
        let sk = encode("s", "l", false, true, "sk1:128 t=0.81");
        assert!(sk.starts_with("simhash-wasm-redis 4\n"), "{sk}");
        assert_eq!(upgradable(&sk), "");
        assert!(compare(sk.as_bytes(), &sk, "k").is_ok());
        for old in ["redis 3\n", "redis 2\n"] {
            match compare(sk.replace("redis 4\n", old).as_bytes(), &sk, "k") {
                Err(e @ Error::SchemeMismatch { field: "store format", .. }) => {
                    let m = e.to_string();
                    assert!(m.contains("exportSnapshot") && m.contains("new namespace"), "{m}")
                }
                e => panic!("{old}: {e:?}"),
            }
        }
        // A fingerprint-only worker meeting a sketch namespace reports the setting.
        assert!(matches!(
            compare(sk.as_bytes(), &encode("s", "l", false, true, "none"), "k"),
            Err(Error::SchemeMismatch { field: "sketch", .. })
        ));
        for junk in [&b"hello"[..], b"\xff\xfe", b"simhash-wasm-redis 3\nfoo=x\n"] {
            assert!(matches!(
                compare(junk, &ours, "k"),
                Err(Error::InvalidOption { option: "namespace", .. })
            ));
        }
    }
}
