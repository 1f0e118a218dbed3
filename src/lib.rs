//! # simhash-wasm
//!
//! Near-duplicate detection with SimHash (Charikar 2002) and a multi-table index (Manku,
//! Jain and Das Sarma, WWW 2007), as a plain Rust library and, through `src/wasm/`, an
//! npm package for Node and browsers.
//!
//! The pipeline, one module per step:
//!
//! | step | module |
//! | --- | --- |
//! | NFKC, lower case, whitespace, punctuation | [`normalize`] |
//! | character n-grams over grapheme clusters, word shingles | [`tokenize`] |
//! | the pinned 64-bit feature hash | [`hash`] |
//! | binary / tf / sublinear weights, IDF tables | [`weight`] |
//! | per-bit weighted sums, the sign step, `explain` | [`fingerprint`] |
//! | HTML to visible text (optional, before normalisation; Cargo feature `html`) | `html` |
//! | the multi-table near-duplicate index | [`index`] |
//! | similarity sketches (odd sketch + b-bit MinHash) and their band index | [`sketch`] |
//! | passages: sentences matched on the texts, merged into spans (plagiarism) | [`passage`] |
//! | a crawler's content-seen test with counts (fingerprint + sketch) | [`seen`] |
//! | the shared content-seen test's Redis adapter (keys, records, Lua scripts; Cargo feature `redis`) | [`RedisSeen`] |
//! | snapshots: versioned, checksummed; the compact (delta + Huffman) fingerprint set; IDF tables | [`snapshot`] |
//! | exact verification of candidates (shingle Jaccard) | [`verify`] |
//! | the main job: clusters of a collection | [`dedup`] |
//! | errors with data and advice | [`error`] |
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

pub mod dedup;
pub mod error;
pub mod fingerprint;
pub mod hash;
#[cfg(feature = "html")]
#[cfg_attr(docsrs, doc(cfg(feature = "html")))]
pub mod html;
pub mod index;
pub mod normalize;
pub mod passage;
pub mod seen;
pub mod sketch;
pub mod snapshot;
// The shared content-seen test's Redis adapter (keys, records, Lua scripts, the state
// machine over replies), crate-private: its entry points are re-exported below.
#[cfg(feature = "redis")]
mod redis;
mod sort;
#[cfg(test)]
mod test_rng;
pub mod tokenize;
pub mod verify;
pub mod weight;

#[cfg(target_arch = "wasm32")]
mod wasm;

pub use error::{Error, Result};
pub use fingerprint::{Options, SimHasher, Tokenizer};
pub use hash::{hamming, similarity};
#[cfg(feature = "html")]
#[cfg_attr(docsrs, doc(cfg(feature = "html")))]
pub use html::html_to_text;
pub use index::{FlatMatches, Index, IndexId, Layout, Match, Pair, Stats};
pub use normalize::{NormalizeOptions, Punctuation};
#[cfg(feature = "redis")]
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub use redis::{check_argv, CheckPlan, Outcome, RedisSeen, SketchPlan, StoreConfig, StoreMatch, SCRIPTS};
pub use seen::{Candidate, Check, ContentSeen, SeenConfig, SeenPage};
pub use weight::{IdfTable, Weighting};

// The README's Rust example runs as a doctest (`cargo test --doc`), so it cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
