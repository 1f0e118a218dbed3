//! # simhash-wasm
//!
//! Near-duplicate detection with SimHash (Charikar 2002) and a multi-table index (Manku,
//! Jain and Das Sarma, WWW 2007), as a plain Rust library and, through `src/wasm/`, an
//! npm package for Node and browsers.
//!
//! # The API
//!
//! Seven public modules, one per thing a user builds, each holding that thing's whole
//! family (options, reports, limits); the root re-exports the types most code names:
//!
//! | what | module | at the root |
//! | --- | --- | --- |
//! | fingerprints: normalise, tokenize, hash, weigh, sum, sign | (root) | [`SimHasher`], [`Options`], [`Tokenizer`], [`NormalizeOptions`], [`Punctuation`], [`Weighting`], [`IdfTable`], [`Explanation`]; [`hamming`], [`similarity`], [`to_hex`], [`from_hex`], [`HASH_VERSION`]; fingerprints of given features: [`fingerprint_features`], [`simhash_bits`] |
//! | HTML to visible text, or to the page's main content (Cargo feature `html`; its option type `html::Content` is in every build) | [`html`] | `html_to_text` |
//! | the multi-table near-duplicate index | [`index`] | [`Index`], [`Layout`], [`Match`], [`Pair`], [`FlatMatches`], [`Stats`], [`IndexId`] |
//! | similarity sketches (odd sketch + b-bit MinHash) and their band index | [`sketch`] | [`Sketch`], [`SketchScheme`], [`estimate_jaccard`] |
//! | a crawler's content-seen test with counts | [`seen`] | [`ContentSeen`], [`SeenConfig`], [`Check`], [`SeenPage`] |
//! | passages matched between texts (plagiarism) | [`passage`] | [`PassageChecker`], [`PassageOptions`] |
//! | the main job: clusters of a collection | [`dedup`](mod@dedup) | [`dedup()`](fn@dedup), [`DedupOptions`], [`DedupReport`] |
//! | the compact fingerprint set and the snapshot id types | [`snapshot`] | [`CompactSet`] |
//! | errors with data and advice | (root) | [`Error`], [`Result`] |
//!
//! Every type with bytes has `to_bytes` / `from_bytes`: a versioned, checksummed snapshot.
//!
//! What only the npm package needs is crate-private: the option names and JS-style values
//! its bindings read, the worker pool's steps of `dedup`, and the shared content-seen test's
//! Redis adapter (Cargo feature `redis`), which drives Redis replies the JS side relays.
//!
//! # Inside
//!
//! One private module per step of the scheme, so they can change without breaking users:
//! `normalize.rs` (NFKC, lower case, whitespace, punctuation), `tokenize.rs` (n-grams over
//! grapheme clusters, word shingles), `hash.rs` (the pinned 64-bit feature hash),
//! `weight.rs` (weights, IDF tables), `fingerprint/` (per-bit weighted sums, the sign
//! step, `explain`), `scan.rs` (the sketch's shingles, gathered by the fingerprint's scan),
//! `html/`, `verify.rs` (exact shingle Jaccard of candidates), `sets.rs` (operations on
//! sorted hash sets), `math.rs` (IEEE-only `ln`), `redis/` (the shared content-seen store's
//! logic for Redis) and `error.rs`. `src/wasm/` is the JS binding, compiled for `wasm32`
//! only. The modules form layers that point one way, checked by `tests/tree.rs`.
//!
//! ```
//! use simhash_wasm::{SimHasher, Options, hamming};
//! let mut h = SimHasher::new(Options::default())?;
//! let a = h.fingerprint("SimHash maps similar documents to similar fingerprints.")?;
//! let b = h.fingerprint("SimHash maps similar documents to similar fingerprints!")?;
//! assert!(hamming(a, b) <= 10);
//! # Ok::<(), simhash_wasm::Error>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]
// docs.rs builds with `--cfg docsrs` (Cargo.toml's `[package.metadata.docs.rs]`), so the
// items behind a Cargo feature say which one.
#![cfg_attr(docsrs, feature(doc_cfg))]

// The public API: seven modules, one per thing a Rust user builds (HTML text, the index,
// sketches, content-seen tests, passages, dedup, snapshots), and the root re-exports below. The
// steps of the scheme (normalise, tokenize, hash, weigh, fingerprint) are private: their
// types that users name are re-exported, the rest may change freely. `__private` holds
// what the crate's own tests and benchmarks reach into; it is not part of the API.
pub mod dedup;
mod error;
mod fingerprint;
mod hash;
pub mod html;
pub mod index;
// JSON lines of documents read in place: the pool's workers read the CLI's collections with it.
#[cfg_attr(not(all(target_arch = "wasm32", feature = "cli")), allow(dead_code))]
mod jsonl;
mod math;
mod normalize;
pub mod passage;
mod scan;
pub mod seen;
mod sets;
pub mod sketch;
pub mod snapshot;
// The shared content-seen test's Redis adapter (keys, records, Lua scripts, the state
// machine over replies): the npm package's `RedisContentSeen` (src/wasm/redis.rs) is its
// one user, so it is crate-private, and outside wasm only its unit tests call it.
#[cfg(feature = "redis")]
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
mod redis;
mod sort;
#[cfg(test)]
mod test_rng;
mod tokenize;
mod union_find;
mod verify;
mod weight;

#[cfg(target_arch = "wasm32")]
mod wasm;

pub use dedup::{dedup, DedupOptions, DedupReport};
pub use error::{Error, Result};
pub use fingerprint::{
    fingerprint_features, parse_bits, simhash_bits, BitFeature, BitsSimhash, ExplainedToken, Explanation,
    Options, SimHasher, Tokenizer,
};
pub use hash::{from_hex, hamming, similarity, to_hex, HASH_VERSION};
#[cfg(feature = "html")]
#[cfg_attr(docsrs, doc(cfg(feature = "html")))]
pub use html::html_to_text;
pub use index::{FlatMatches, Index, IndexId, Layout, Match, Pair, Stats};
pub use normalize::{NormalizeOptions, Punctuation};
pub use passage::{PassageChecker, PassageOptions};
pub use seen::{Check, ContentSeen, SeenCandidate, SeenConfig, SeenPage};
pub use sketch::{estimate_jaccard, Sketch, SketchScheme};
pub use snapshot::CompactSet;
pub use weight::{IdfTable, Weighting};

/// Internals that the crate's own integration tests (`tests/*.rs`) and benchmarks
/// (`tests/bench/`) check against oracles. Not part of the API: no semver promise, hidden
/// from the documentation, and may change in any release.
#[doc(hidden)]
pub mod __private {
    #![allow(missing_docs)]
    // One module per crate-private module, holding what the tests and benchmarks name.
    pub mod hash {
        pub use crate::hash::{hash_bytes, hash_str, mix};
    }
    pub mod index {
        pub use crate::index::join::{join_part, join_tables};
        pub mod brute_force {
            pub use crate::index::brute_force::{clusters, query, self_join};
        }
    }
    pub mod normalize {
        pub use crate::normalize::{normalize, normalize_into, normalize_reference};
    }
    pub mod passage {
        pub use crate::passage::shingle::is_cjk;
        pub use crate::sets::containment;
    }
    pub mod sketch {
        pub use crate::sketch::bands::{band_key, bands_for};
    }
    pub mod snapshot {
        pub use crate::snapshot::envelope::{crc32c, Kind, FORMAT_VERSION};
        pub use crate::snapshot::index::{
            decode_index, encode_index, encode_sorted_index_with_sketches, SketchColumn, SnapshotParts,
        };
        pub use crate::snapshot::scheme::check_scheme;
    }
    pub mod tokenize {
        pub use crate::tokenize::{
            char_ngrams, grapheme_starts, word_shingles, CharNgrams, Shingle, Token, WordShingles,
        };
    }
    pub mod verify {
        pub use crate::verify::ShingleSet;
    }
    pub mod weight {
        pub use crate::weight::quantize;
    }
    pub mod math {
        pub use crate::math::ln;
    }
}

// The README's Rust example runs as a doctest (`cargo test --doc`), so it cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
