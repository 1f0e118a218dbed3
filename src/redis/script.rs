//! The Lua scripts (Redis 7.0 runs Lua 5.1). They never compute a Hamming distance: Lua's
//! numbers are doubles and its `bit` library works on 32 bits. They compare bytes and small
//! nibbles of single bytes (the pre-filter of [`super::keys`]), append and cut fixed-size
//! records, and return candidate bytes for wasm to measure.
//!
//! `KEYS` are [`super::keys::key_names`]: meta, n, p, c, u, and the prefix `{NS}:t` of
//! the table hashes; a bucket's hash is that prefix followed by its
//! [name](super::keys::TableGeometry::bucket_key). Those hashes are not passed as `KEYS`
//! (a check would need 4 more, a replacement 4 more again); they share the namespace's
//! hash tag, so they live in the script's slot, which is all Redis Cluster asks of keys
//! a script reaches on its own (the cluster tests run it).
//!
//! ## `CHECK`
//!
//! One call checks one page or several (a *batch*: the checks one worker issued together).
//! `ARGV`: 1 meta, 2 the pages' *entries*, one after another. An entry is five fields,
//! each a 4-byte big-endian length and its bytes (one argument a call, however many pages:
//! the client writes and the server parses one string): URL, *query*, *evaluated* (table
//! byte + record, for every candidate wasm has already measured), *matches* (per match
//! within k: fingerprint, distance byte, table byte, record), *replace* (empty, or the
//! URL's old fingerprint then per table its bucket's hash name, field and record, as long
//! as the query's). The
//! *query* is one string: the fingerprint (8 bytes BE), the check id (8 bytes: random, the
//! same in every call and retry of one check), a byte 1 with the URL map else 0,
//! a byte k, a byte T (the number of tables), then per table the lengths of the bucket's
//! hash name, field and record (a byte each), the name, the field and the query's record;
//! the page record takes the rest. The reply holds one reply per page, in order (arrays
//! of bulk strings):
//!
//! - `{"N"}`: no stored page within k; the page was stored (in the same atomic step);
//! - `{"R"}` / `{"R", url, count, m1, m2, …}`: a repeated call whose check was decided
//!   already (the URL map, or without it a `{NS}:r:` key, holds its check id): the page was
//!   stored by it / it was counted, and `url` is the page its URL's counted list names (the
//!   one it was counted under, or one a later check of the URL was counted under:
//!   [`super::record`]; `count` is that page's count now; `m…` as for `"D"`); nothing was
//!   written;
//! - `{"C", blob}`: records that passed the pre-filter and are not in *evaluated*
//!   (table byte + record each); nothing was written; wasm measures them and calls again;
//! - `{"D", url, count, m1, m2, …}`: the nearest live match (distance, then URL) was
//!   counted; per match of *matches* `"1"..url` if it is still stored, else `"0"`;
//! - `{"E", url, count}`: the same fingerprint is stored (byte equality); counted;
//! - `{"M", fp}`: the URL is stored with other content; call again with *replace*;
//! - `{"X", meta}` / `{"G"}`: the namespace's settings differ / the namespace is gone
//!   (every page of the call gets it);
//! - `{"F", what}`: a bucket or page record that this build did not write (foreign data);
//!   nothing was written for this page.
//!
//! The pages of a batch are checked one after another inside the one atomic call, each
//! seeing what the ones before it stored: the batch is linearizable as the same checks
//! made one at a time, in its order. A page that needs another call (`"C"`, `"M"`) is
//! sent again, in a later batch.
//!
//! Because *evaluated* is sent back, a second call decides only if no record that wasm
//! has not measured passes the pre-filter now: nothing stored between the two calls is
//! missed (a content-based version check that never retries needlessly).
//!
//! ## Cost
//!
//! The script is loaded once per server (`EVALSHA`; the JS side falls back to `EVAL` on
//! `NOSCRIPT`, which also loads it). A call builds only its per-table lists (hash, field,
//! record, bucket) in the common case: the query's record bytes and nibbles are locals,
//! each stored record is read with one `string.byte` and dropped at its `k + 1`-th unequal
//! nibble ([`super::keys`]; 0.125 µs a record, measured alone), and a new page costs
//! `1 + T` reads and `T + 1` writes (`T + 5` reads and writes with the URL map). A batch
//! pays the call (reading and parsing the command, the meta `GET`, the reply's write and
//! the client's round trip) once for all its pages.

/// The check script.
pub const CHECK: &str = include_str!("lua/check.lua");

/// Opens a namespace: `ARGV[1]` = our meta. Replies `{"S", stored meta}` when the
/// namespace exists (wasm compares), `{"C"}` when it was created just now, or
/// `{"F", key, type}` when a key of the namespace holds data of a foreign type, or data
/// exists without a meta (foreign keys, or a namespace whose meta was deleted). `ARGV[2]`
/// holds one byte per table, the bits of its hashes' names: when there is no meta, every
/// table hash the namespace may use is tested with `EXISTS` (8,192 names for the default
/// layout, once per new namespace), so a namespace deleted but for some of its table
/// hashes is never reused with stale buckets. A key named `{NS}:t` itself would be store
/// format 1's table hash (the namespace's data without a meta). In sketch mode `ARGV[3]`
/// holds one byte, the number of bands (else it is empty), and every band hash
/// (`{NS}:bB:HHH`, 1,024 a band) is tested the same way (20,480 names with the default
/// sketch). `ARGV[4]` and `ARGV[5]` are the metas a store-format-2 and -3 namespace with our
/// settings hold (empty: none can): such
/// a namespace is upgraded (its meta set to ours) and the reply is `{"U"}`.
pub const OPEN: &str = include_str!("lua/open.lua");

/// Looks a URL up: `ARGV[1]` = meta, `ARGV[2]` = URL. Replies `{}` for an unknown URL
/// (or without the URL map), else `{"U", cluster url, count, fingerprint}` (in both
/// modes: a sketch-mode page's fingerprint is read from its page value); `{"X", meta}` /
/// `{"G"}` as [`CHECK`].
pub const LOOKUP: &str = include_str!("lua/lookup.lua");

/// Imports pages into an empty namespace (migration from a `ContentSeen` snapshot).
/// `ARGV`: 1 meta, 2 `"first"` on the first batch (refused unless the namespace is empty)
/// else `""`, 3 the number of tables, then groups: `"P"`, fingerprint, page record, count,
/// URL, then per table the bucket's hash name, field and record; or `"A"`, URL, cluster
/// URL. Replies `{"OK"}`.
pub const IMPORT: &str = include_str!("lua/import.lua");

/// The sketch-mode check ([`super::sketch`]; `KEYS` are [`super::keys::key_names`] then
/// [`super::keys::sketch_key_names`]: meta, n, p, c, u, the table prefix `{NS}:t`, the
/// page-number counter `{NS}:i`, the band prefix `{NS}:b`). Table records are the
/// fingerprint's record followed by the page's 4-byte number; `{NS}:p` maps page numbers
/// to page values ([`super::record`]).
///
/// `ARGV`: 1 meta, 2 the pages' entries (a batch, as in [`CHECK`]: five fields each, each
/// after its 4-byte length; one reply per page, in order): URL, *query*, *evaluated* (the
/// 4-byte page numbers wasm has measured), *ranked* (the page numbers wasm found to be
/// duplicates, best first),
/// *replace* (empty, or the URL's old page number, then per table the lengths of its
/// bucket's hash name, field and record (a byte each), the name, the field and the
/// record with the page number, then a band count byte and per band the lengths of the
/// band bucket's hash name and field, the name, the field and the band record's first
/// byte). The *query*: the
/// fingerprint (8 bytes BE), a byte k, a byte T, per table as in [`CHECK`] (lengths, hash
/// name, field, the query's record without a page number), a byte B (bands, 0 without a
/// sketch), per band the lengths of the bucket's hash name and field (a byte each), the
/// name, the field and the band record's first byte ([`super::keys::band_bucket`]; the
/// bucket's records starting with it are the band's candidates), the filter's bounds ([`super::sketch::Bounds`]: `zlim` 2 bytes,
/// `c16` 4, `emin` 2, big-endian), and the page record (its sketch is the query's) to the
/// end. The check id (8 bytes, as in [`CHECK`]) follows the fingerprint. Replies (arrays
/// of bulk strings):
///
/// - `{"N"}`: no stored page is a duplicate; the page was stored (same atomic step);
/// - `{"R"}` / `{"R", url, count, m1, m2, …}`: as in [`CHECK`] (`m…` per page of *ranked*);
/// - `{"C", n1, v1, n2, v2, …}`: pages not in *evaluated* (page number, page value): table
///   records passing the nibble pre-filter, and band references passing the sketch filter;
///   nothing was written; wasm measures them and calls again;
/// - `{"D", url, count, m1, m2, …}`: the first page of *ranked* still stored was counted
///   (its URL and new count); per page of *ranked* `"1"..url` if still stored, else `"0"`;
/// - `{"M", n, v}`: the URL is stored as page `n` (value `v`) and this page is not its
///   duplicate: call again with *replace*;
/// - `{"X", meta}` / `{"G"}` / `{"F", what}`: as [`CHECK`].
///
/// No distance-0 shortcut: equal fingerprints are confirmed by the estimate too.
pub const CHECK_SKETCH: &str = include_str!("lua/check_sketch.lua");

/// Imports pages into an empty sketch-mode namespace (migration from a `ContentSeen`
/// snapshot; `KEYS` as [`CHECK_SKETCH`]). `ARGV`: 1 meta, 2 `"first"` on the first batch
/// (refused unless the namespace is empty) else `""`, 3 the number of tables, 4 the last
/// page number given out before this batch (the batch is refused if another writer took
/// one meanwhile), 5 the last page number of this batch, then groups: `"P"`, page number,
/// page value, count, URL, then per table the bucket's hash name, field and record (with
/// the page number), then the number of bands, then per band the bucket's hash name,
/// field and the band record's first byte (the page number is appended); or `"A"`, URL, cluster URL. Replies `{"OK"}`.
pub const IMPORT_SKETCH: &str = include_str!("lua/import_sketch.lua");

/// Every script, by the name the JS side loads it under (`__RedisStore.script(name)`; the
/// one list of script names: `redis.cjs` reads it through `__RedisStore.scriptNames()`).
pub const SCRIPTS: [(&str, &str); 8] = [
    ("check", CHECK),
    ("open", OPEN),
    ("lookup", LOOKUP),
    ("import", IMPORT),
    ("check_sketch", CHECK_SKETCH),
    ("import_sketch", IMPORT_SKETCH),
    ("learn", LEARN),
    ("import_template", IMPORT_TEMPLATE),
];

/// The `LEARN` script (the site templates: [`super::template`]); it does nothing in a
/// build without HTML, where no store learns them.
#[cfg(feature = "html")]
pub const LEARN: &str = super::template::LEARN;
#[cfg(not(feature = "html"))]
pub const LEARN: &str = "-- simhash-wasm LEARN (no HTML in this build)\nreturn {'0'}";

/// The `IMPORT_TEMPLATE` script (migration of the site templates: [`super::template`]).
#[cfg(feature = "html")]
pub const IMPORT_TEMPLATE: &str = super::template::IMPORT_TEMPLATE;
#[cfg(not(feature = "html"))]
pub const IMPORT_TEMPLATE: &str = "-- simhash-wasm IMPORT_TEMPLATE (no HTML in this build)\nreturn {'OK'}";

#[cfg(test)]
mod tests {
    use super::*;

    /// The text between the lines `-- BEGIN what` and `-- END what` of a script.
    fn block<'a>(script: &'a str, what: &str) -> &'a str {
        let begin = format!("-- BEGIN {what}\n");
        let at = script.find(&begin).unwrap_or_else(|| panic!("no {begin:?}")) + begin.len();
        let len = script[at..].find(&format!("-- END {what}\n")).expect("an END line");
        &script[at..at + len]
    }

    /// The blocks written twice (the Lua files are whole scripts, so that a Lua linter
    /// reads them) are the same text in both.
    #[test]
    fn shared_blocks_are_the_same_in_both_scripts() {
        for what in ["nibble setup", "nibble test", "counted list"] {
            assert_eq!(block(CHECK, what), block(CHECK_SKETCH, what), "{what}");
        }
        for what in ["import prelude", "import flush"] {
            assert_eq!(block(IMPORT, what), block(IMPORT_SKETCH, what), "{what}");
        }
    }

    #[test]
    fn every_script_has_one_name() {
        for (i, (name, lua)) in SCRIPTS.iter().enumerate() {
            assert!(lua.starts_with("-- simhash-wasm "), "{name}");
            assert!(SCRIPTS[..i].iter().all(|(n, _)| n != name), "{name} twice");
        }
    }
}
