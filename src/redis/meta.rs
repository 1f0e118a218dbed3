//! The settings stored in `{NS}:meta`, written by the first worker and checked by every
//! script call, so that every worker of a namespace fingerprints and files pages alike.
//!
//! ## Format (version 5)
//!
//! UTF-8 text, one `name=value` per line after a first line `simhash-wasm-redis 5`:
//!
//! ```text
//! simhash-wasm-redis 5
//! scheme=chars:4 sublinear punct=keep nfkc lower sh64v1
//! layout=k=3 blocks=16,16,16,16 (4 tables)
//! html=true
//! content=main
//! template=3
//! urls=true
//! sketch=none
//! ```
//!
//! `scheme` is [`crate::Options::describe`] (it ends in the feature hash version), `layout`
//! the layout's display form, `content` which text of an HTML page is read (`main` or
//! `all`; `all` when `html` is false, where it is unused), `template` from how many
//! distinct pages of a host a line is template (`none`: the site templates are not learnt;
//! see [`super::template`]), `urls` whether the URL map is kept, `sketch` the similarity
//! sketch setting: `none` (the fingerprint-only store), or in sketch mode the sketch
//! scheme and the threshold, e.g. `sk1:128 t=0.81` ([`super::sketch`]). A value that differs is
//! [`Error::SchemeMismatch`] naming the field; another first line is a foreign key (or a
//! newer version: [`Error::UnsupportedVersion`]).
//!
//! The version is the *store format*: the meta's text, the key layout of the index
//! ([`super::keys`]) and the values the scripts write ([`super::record`]).
//!
//! - Version 5 (this build) has version 4's lines and keys; the site templates' blocks
//!   (`{NS}:tb:HOST`, [`super::template`]) are hashed with numbers folded
//!   ([`BlockHash::Numbers`]). Opening a version-4 namespace whose settings are ours
//!   upgrades its meta to version 5 in place when it learns no template; one that learns
//!   templates holds counts of blocks hashed by their words only, which cannot be rehashed:
//!   it stays at version 4, and this build works in it as version 4 does
//!   ([`BlockHash::Words`], [`kept_at_4`]), so workers of both builds share it.
//! - Version 4 adds the lines `content` and `template`: a version-3 store read
//!   all of an HTML page's text, and learnt no template. In sketch mode it also files band
//!   entries as records in fewer, fuller hashes (`{NS}:bB:HHH`, [`super::keys`]).
//!   Opening a fingerprint-only version-3 (or 2) namespace whose settings are ours
//!   (`content=all`, `template=none`, or `html=false`) upgrades its meta to this build's version in
//!   place; with other settings the first differing field is reported (`content`: found
//!   `all`). A sketch-mode namespace of version 3 or 2 (band hashes of page numbers) is
//!   refused with [`Error::SchemeMismatch`] on `store format`, saying what to do, as
//!   version 1 is: those layouts were written by development builds only.
//! - Version 3 writes URL-map values that carry check ids (the check that
//!   stored a page, the last one counted under it), so that a call repeated after a lost
//!   reply gets its first attempt's answer, and short-lived `{NS}:r:` keys without the URL
//!   map. It reads every version-2 value.
//! - Version 2 has the same lines and keys, without check ids. Opening a version-2
//!   namespace whose settings are ours upgrades its meta to this build's version in place (the OPEN
//!   script): nothing else changes, and workers of a version-2 build then stop with
//!   [`Error::UnsupportedVersion`] at their next call, before writing anything.
//! - Version 1 (one hash `{NS}:t` for every bucket, written by development builds before
//!   the listpack-sized hashes) is refused with [`Error::SchemeMismatch`] on the field
//!   `store format`, whose message says what to do: build format 1 never reached a
//!   release, so no converter is shipped; re-import the pages (`importSnapshot` of a
//!   `ContentSeen` snapshot, exported with the build that wrote the namespace) into a new
//!   namespace, or delete the old keys.

use crate::error::{Error, Result};
#[cfg(doc)]
use crate::html::BlockHash;

/// The meta format version this build writes and reads.
pub const META_VERSION: u32 = 5;
/// The older versions whose namespaces this build upgrades in place (see the module docs).
pub const UPGRADES_FROM: [u32; 3] = [2, 3, 4];
/// The version whose template-learning namespaces this build keeps (see [`kept_at_4`]).
const WORD_BLOCKS: u32 = 4;
const HEADER: &str = "simhash-wasm-redis ";

/// The fields of the meta string, in order.
pub const FIELDS: [&str; 7] = ["scheme", "layout", "html", "content", "template", "urls", "sketch"];

/// The values that versions before 4 imply for the fields they lack.
const IMPLIED: [(&str, &str); 2] = [("content", "all"), ("template", "none")];

/// The meta string of a set of settings. `content` is `main` or `all`, `template` a
/// number of pages or `none`.
pub fn encode(
    scheme: &str,
    layout: &str,
    html: bool,
    content: &str,
    template: &str,
    urls: bool,
    sketch: &str,
) -> String {
    format!(
        "{HEADER}{META_VERSION}\nscheme={scheme}\nlayout={layout}\nhtml={html}\ncontent={content}\ntemplate={template}\nurls={urls}\nsketch={sketch}\n"
    )
}

/// Whether a meta string is of a sketch-mode store (whose band layout has no older form).
fn is_sketch(meta: &str) -> bool {
    meta.lines().any(|l| l.starts_with("sketch=") && l != "sketch=none")
}

/// The meta string a version-`version` namespace (one of [`UPGRADES_FROM`]) with the same
/// settings holds; empty when no such namespace can have our settings (it read an HTML
/// page's main content, learnt templates, or is in sketch mode).
pub fn upgradable(ours: &str, version: u32) -> String {
    if version == WORD_BLOCKS {
        return if learns_template(ours) { String::new() } else { with_version(ours, WORD_BLOCKS) };
    }
    if is_sketch(ours) {
        return String::new();
    }
    let implied = IMPLIED.iter().all(|(f, v)| ours.lines().any(|l| l == format!("{f}={v}")));
    if !implied && !ours.contains("\nhtml=false\n") {
        return String::new();
    }
    let mut out = format!("{HEADER}{version}\n");
    for line in ours.lines().skip(1) {
        if !IMPLIED.iter().any(|(f, _)| line.starts_with(&format!("{f}="))) {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Whether a meta string is of a store that learns the site templates.
fn learns_template(meta: &str) -> bool {
    meta.lines().any(|l| l.starts_with("template=") && l != "template=none")
}

/// `meta` with another version on its first line.
fn with_version(meta: &str, version: u32) -> String {
    let rest = meta.split_once('\n').map_or("", |(_, r)| r);
    format!("{HEADER}{version}\n{rest}")
}

/// The version-4 meta string of our settings when they learn the site templates: a
/// namespace holding it is worked in as version 4 (blocks hashed by their words), not
/// upgraded; `None` for settings that learn none (such a namespace is upgraded).
pub fn kept_at_4(ours: &str) -> Option<String> {
    learns_template(ours).then(|| with_version(ours, WORD_BLOCKS))
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
        Ok(v) if v == META_VERSION || UPGRADES_FROM.contains(&v) => {}
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
    let older = !stored.starts_with(&format!("{HEADER}{META_VERSION}\n"));
    let before_4 = older && !stored.starts_with(&format!("{HEADER}{WORD_BLOCKS}\n"));
    for field in FIELDS {
        let implied =
            IMPLIED.iter().find(|(f, _)| *f == field).filter(|_| before_4).map(|(_, v)| v.to_string());
        let (found, expected) = (get(stored, field).or(implied), get(ours, field));
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
    if before_4 && is_sketch(ours) {
        return Err(Error::SchemeMismatch {
            field: "store format",
            found: format!(
                "{version} (sketch mode with band hashes of page numbers, written by an earlier development build)"
            ),
            expected: format!(
                "{META_VERSION} (band records in fewer hashes); export the namespace with the build that wrote it \
                 (exportSnapshot) and importSnapshot it into a new namespace, or delete its keys"
            ),
        });
    }
    if older {
        return Err(Error::SchemeMismatch {
            field: "store format",
            found: stored.lines().next().and_then(|l| l.strip_prefix(HEADER)).unwrap_or("").to_string(),
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
            "all",
            "none",
            true,
            "none",
        );
        assert_eq!(
            ours,
            "simhash-wasm-redis 5\nscheme=chars:4 sublinear punct=keep nfkc lower sh64v1\nlayout=k=3 blocks=16,16,16,16 (4 tables)\nhtml=false\ncontent=all\ntemplate=none\nurls=true\nsketch=none\n"
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
        let v2 = upgradable(&ours, 2);
        assert_eq!(v2, ours.replace("redis 5\n", "redis 2\n").replace("content=all\ntemplate=none\n", ""));
        let v3 = upgradable(&ours, 3);
        assert!(compare(v3.as_bytes(), &ours, "k").is_err_and(|e| e.to_string().contains("upgrades")));
        // An HTML store reading the main content, or learning templates, has no older form;
        // an older HTML namespace is reported as reading all the text.
        let main = encode("s", "l", true, "main", "3", true, "none");
        assert_eq!(upgradable(&main, 3), "");
        let old_html = upgradable(&encode("s", "l", true, "all", "none", true, "none"), 3);
        match compare(old_html.as_bytes(), &main, "k") {
            Err(Error::SchemeMismatch { field: "content", found, expected }) => {
                assert_eq!((found.as_str(), expected.as_str()), ("all", "main"))
            }
            e => panic!("{e:?}"),
        }
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
        let older = ours.replace("redis 5", "redis 1");
        match compare(older.as_bytes(), &ours, "k") {
            Err(e @ Error::SchemeMismatch { field: "store format", .. }) => {
                let m = e.to_string();
                assert!(m.contains("exportSnapshot") && m.contains("new namespace"), "{m}")
            }
            e => panic!("{e:?}"),
        }
        let newer = ours.replace("redis 5", "redis 9");
        assert!(matches!(
            compare(newer.as_bytes(), &ours, "k"),
            Err(Error::UnsupportedVersion { found: 9, .. })
        ));
        // Version 4 has version 5's lines: upgraded in place unless it learns templates,
        // then kept at version 4 (its blocks are hashed by their words).
        let v4 = upgradable(&ours, 4);
        assert_eq!(v4, ours.replace("redis 5\n", "redis 4\n"));
        assert_eq!(kept_at_4(&ours), None);
        assert!(compare(v4.as_bytes(), &ours, "k").is_err_and(|e| e.to_string().contains("upgrades")));
        let sk4 = encode("s", "l", false, "all", "none", true, "sk1:128 t=0.81");
        assert_eq!(upgradable(&sk4, 4), sk4.replace("redis 5\n", "redis 4\n"), "sketch mode too");
        assert_eq!(upgradable(&main, 4), "");
        let main4 = kept_at_4(&main).unwrap();
        assert_eq!(main4, main.replace("redis 5\n", "redis 4\n"));
        assert!(compare(main4.as_bytes(), &main4, "k").is_ok());
        match compare(main4.replace("template=3", "template=4").as_bytes(), &main, "k") {
            Err(Error::SchemeMismatch { field: "template", found, expected }) => {
                assert_eq!((found.as_str(), expected.as_str()), ("4", "3"))
            }
            e => panic!("{e:?}"),
        }
        // A sketch-mode namespace of version 3 or 2 is refused with advice, never upgraded
        // or misread.
        let sk = encode("s", "l", false, "all", "none", true, "sk1:128 t=0.81");
        assert_eq!(upgradable(&sk, 3), "");
        assert!(compare(sk.as_bytes(), &sk, "k").is_ok());
        for old in ["redis 3\n", "redis 2\n"] {
            let stored = sk.replace("redis 5\n", old).replace("content=all\ntemplate=none\n", "");
            match compare(stored.as_bytes(), &sk, "k") {
                Err(e @ Error::SchemeMismatch { field: "store format", .. }) => {
                    let m = e.to_string();
                    assert!(m.contains("exportSnapshot") && m.contains("new namespace"), "{m}")
                }
                e => panic!("{old}: {e:?}"),
            }
        }
        // A fingerprint-only worker meeting a sketch namespace reports the setting.
        assert!(matches!(
            compare(sk.as_bytes(), &encode("s", "l", false, "all", "none", true, "none"), "k"),
            Err(Error::SchemeMismatch { field: "sketch", .. })
        ));
        for junk in [&b"hello"[..], b"\xff\xfe", b"simhash-wasm-redis 5\nfoo=x\n"] {
            assert!(matches!(
                compare(junk, &ours, "k"),
                Err(Error::InvalidOption { option: "namespace", .. })
            ));
        }
    }
}
