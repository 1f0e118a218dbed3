//! Every version of what stored data depend on, in one table.
//!
//! The envelope ([`super::envelope`]) and each kind's encoder and decoder read their
//! versions from here, never a number of their own, and `FORMATS.md` at the root of the
//! repository lists the same table for users: the unit test below parses it and fails when
//! the two disagree. A new version of anything here is a new row value, with the old
//! reader kept and the document updated.
//!
//! The Redis store's format (its meta version) lives with the Redis adapter; the test reads
//! it from there, so the document covers it too.

/// The versions of one stored format this build knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Versions {
    /// The name `FORMATS.md` gives the format (the first code span of its row).
    pub(crate) name: &'static str,
    /// The newest version: what this build writes for data that need it. A kind with
    /// several versions writes its oldest one that holds the data.
    pub(crate) current: u32,
    /// The oldest version this build reads; every version from it to `current` loads.
    pub(crate) oldest: u32,
}

/// The feature hash `sh64`, and with it the fingerprint scheme, whose string ends in
/// `sh64v` + this version and whose record in a snapshot holds it. The code reads the
/// version where the hash is defined ([`crate::hash::HASH_VERSION`]); this row puts it in
/// the table the document is checked against.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const FEATURE_HASH: Versions =
    Versions { name: "sh64", current: crate::hash::HASH_VERSION, oldest: crate::hash::HASH_VERSION };

/// The similarity sketch scheme `sk` (read by the code as [`crate::sketch::VERSION`]).
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const SKETCH: Versions =
    Versions { name: "sk", current: crate::sketch::VERSION as u32, oldest: crate::sketch::VERSION as u32 };

/// The first version of every snapshot kind.
pub(crate) const FIRST: u32 = 1;

/// A fingerprint set on its own (`FSET`): version 2 is the gap code.
pub(crate) const FSET: Versions = Versions { name: "FSET", current: FSET_GAP_CODE, oldest: FIRST };

/// An index snapshot (`INDX`): version 2 adds the sketch column.
pub(crate) const INDX: Versions = Versions { name: "INDX", current: INDX_SKETCHES, oldest: FIRST };

/// An IDF table (`IDF\0`).
pub(crate) const IDF: Versions = Versions { name: "IDF\\0", current: FIRST, oldest: FIRST };

/// A content-seen snapshot (`SEEN`): version 2 holds an `INDX` version 2 and the threshold,
/// version 3 which text of a page is read, version 4 the site templates learnt, version 5
/// the same with numbers folded in the templates' block hashes.
pub(crate) const SEEN: Versions = Versions { name: "SEEN", current: SEEN_NUMBER_BLOCKS, oldest: FIRST };

/// The `FSET` version that codes gaps (version 1 codes the highest differing bit).
pub(crate) const FSET_GAP_CODE: u32 = 2;

/// The `INDX` version whose payload ends with a sketch column.
pub(crate) const INDX_SKETCHES: u32 = 2;

/// The first `SEEN` version that holds the threshold and sketches (an `INDX` with a sketch
/// column): this version always, later ones when the test keeps sketches.
pub(crate) const SEEN_SKETCHES: u32 = 2;

/// The first `SEEN` version that says which text of a page is read (all of it, or its main
/// content), as every later one does; a test that reads the main content and learns no
/// site template writes it, with or without sketches.
pub(crate) const SEEN_MAIN_CONTENT: u32 = 3;

/// The first `SEEN` version that ends with the site templates learnt (`TemplateModel`), as
/// version 5 does; a test whose model hashes blocks by their words writes it.
pub(crate) const SEEN_TEMPLATE: u32 = 4;

/// The `SEEN` version whose site templates hash blocks with numbers folded
/// ([`BlockHash::Numbers`](crate::html::BlockHash::Numbers)); version 4's hash the words only.
pub(crate) const SEEN_NUMBER_BLOCKS: u32 = 5;

/// The whole table, in `FORMATS.md`'s order (the Redis store's row aside).
#[cfg(test)]
pub(crate) const TABLE: [Versions; 6] = [FEATURE_HASH, SKETCH, FSET, INDX, IDF, SEEN];

#[cfg(test)]
mod tests {
    use super::*;

    const FORMATS_MD: &str = include_str!("../../FORMATS.md");

    /// The Redis store's row in FORMATS.md.
    const REDIS_ROW: &str = "redis-store";

    /// The rows of FORMATS.md's version table: (name, current, readable versions).
    fn document_rows() -> Vec<(String, u32, Vec<u32>)> {
        let mut rows = Vec::new();
        let mut in_table = false;
        for line in FORMATS_MD.lines() {
            if line.starts_with("| format | current | readable |") {
                in_table = true;
                continue;
            }
            if !in_table || line.starts_with("| ---") {
                continue;
            }
            if !line.starts_with('|') {
                break;
            }
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            // cells[0] is empty (the line starts with '|').
            let name = cells[1].split('`').nth(1).unwrap_or_else(|| panic!("no code span in {line}"));
            let current = cells[2].parse().unwrap_or_else(|_| panic!("current is not a number in {line}"));
            let readable = cells[3]
                .split(',')
                .map(|v| v.trim().parse().unwrap_or_else(|_| panic!("readable is not a list in {line}")))
                .collect();
            rows.push((name.to_string(), current, readable));
        }
        rows
    }

    /// The rows the code says FORMATS.md must hold.
    fn code_rows() -> Vec<(String, u32, Vec<u32>)> {
        let rows: Vec<_> =
            TABLE.iter().map(|v| (v.name.to_string(), v.current, (v.oldest..=v.current).collect())).collect();
        // The Redis store format: its meta's first line. Versions 2 to 5 are read (older ones
        // upgraded in place, or version 4 kept when it learns templates); sketch-mode
        // namespaces before 4 and version 1 are refused with advice. The Redis adapter
        // is compiled with the `redis` feature.
        #[cfg(feature = "redis")]
        let rows = {
            use crate::redis::meta::{META_VERSION, UPGRADES_FROM};
            let mut rows = rows;
            rows.push((
                REDIS_ROW.to_string(),
                META_VERSION,
                UPGRADES_FROM.iter().copied().chain([META_VERSION]).collect(),
            ));
            rows
        };
        rows
    }

    #[test]
    fn formats_md_lists_every_version_the_code_has() {
        let mut doc = document_rows();
        assert!(!doc.is_empty(), "FORMATS.md has no version table (its header row changed?)");
        if cfg!(not(feature = "redis")) {
            doc.retain(|row| row.0 != REDIS_ROW);
        }
        assert_eq!(doc, code_rows(), "FORMATS.md's version table and the code's disagree");
    }

    #[test]
    fn the_envelope_reads_the_table() {
        use super::super::envelope::Kind;
        for (kind, v) in
            [(Kind::FingerprintSet, FSET), (Kind::Index, INDX), (Kind::Idf, IDF), (Kind::Seen, SEEN)]
        {
            assert_eq!(kind.newest_version(), v.current, "{kind:?}");
            assert_eq!(String::from_utf8_lossy(&kind.tag()).replace('\0', "\\0"), v.name);
            assert_eq!(v.oldest, super::super::envelope::FORMAT_VERSION);
        }
    }
}
