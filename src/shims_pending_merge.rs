//! TEMPORARY (helper C, issue 11): stand-ins for core APIs that helpers A and B add in the
//! files they are splitting (`src/index/`, `src/fingerprint/`, `src/snapshot/`,
//! `src/seen/`), so that this branch compiles before those branches are merged.
//!
//! THE LEAD DELETES THIS FILE WHEN MERGING A AND B, and removes `mod shims_pending_merge;`
//! from lib.rs and the `use crate::shims_pending_merge::...` lines (each is marked
//! `// shim:`). Items 1-3 are the APIs A and B were asked for, with the semantics
//! specified to C. Items 4-5 are NOT in A's or B's brief: they must move into
//! `src/index/layout.rs` and `src/seen/` at merge time (each is written against public
//! APIs only, so it moves verbatim, minus the trait wrapper).
//!
//! 1. (A) `Layout::from_name(name, k, expected_size)`: `"default"` (also `None`), `"probe"`,
//!    `"auto"` (for `expected_size`, default 1e6), k default [`DEFAULT_K`].
//! 2. (A) `fingerprint::parse_bits` returning `Result<Vec<bool>>` with `Error::InvalidBits`.
//! 3. (B) `CompactSet::count_contained_within(&self, fps: &[u64], k: u32) -> usize`.
//! 4. (for A) `Layout::from_options(name, widths, k, expected_size, memory_budget)`: the
//!    JS API's layout options resolved in one place. A's `from_name` has no memory budget,
//!    which the public option `memoryBudget` needs, nor the explicit-widths form.
//! 5. (for B) `SeenConfig::NAMES`: the ContentSeen option names, as the JS API spells
//!    them (besides `Options::NAMES`).
#![allow(missing_docs, dead_code)]

use crate::error::{Error, Result};
use crate::index::Layout;
use crate::seen::SeenConfig;
use crate::snapshot::CompactSet;

/// The index's default `k` (3, as in Manku et al.), which `from_name` uses for `k: None`.
pub const DEFAULT_K: u32 = 3;
/// `expectedSize` for `"auto"` when not given.
pub const DEFAULT_EXPECTED_SIZE: f64 = 1e6;

/// Items 1 and 4: layout names and the layout options.
pub trait LayoutShim: Sized {
    /// The layout option names besides `k` (item 4).
    const OPTION_NAMES: [&'static str; 3] = ["layout", "expectedSize", "memoryBudget"];
    fn from_name(name: Option<&str>, k: Option<u32>, expected_size: Option<f64>) -> Result<Self>;
    fn from_options(
        name: Option<&str>,
        widths: Option<&[u32]>,
        k: Option<u32>,
        expected_size: Option<f64>,
        memory_budget: Option<f64>,
    ) -> Result<Self>;
}

fn expected_size(x: Option<f64>) -> usize {
    x.unwrap_or(DEFAULT_EXPECTED_SIZE) as usize
}

impl LayoutShim for Layout {
    fn from_name(name: Option<&str>, k: Option<u32>, expected: Option<f64>) -> Result<Layout> {
        let k = k.unwrap_or(DEFAULT_K);
        match name.unwrap_or("default") {
            "default" => Layout::default_for_k(k),
            "probe" => Layout::probe(k),
            "auto" => Layout::auto(expected_size(expected), k, None),
            other => Err(Error::option(
                "layout",
                crate::error::quoted(other),
                "\"default\", \"auto\", \"probe\" or an array of block widths",
            )),
        }
    }

    fn from_options(
        name: Option<&str>,
        widths: Option<&[u32]>,
        k: Option<u32>,
        expected: Option<f64>,
        memory_budget: Option<f64>,
    ) -> Result<Layout> {
        if let Some(w) = widths {
            return Layout::new(k.unwrap_or(DEFAULT_K), w);
        }
        match (name, memory_budget) {
            (Some("auto"), Some(b)) => {
                Layout::auto(expected_size(expected), k.unwrap_or(DEFAULT_K), Some(b as usize))
            }
            _ => Layout::from_name(name, k, expected),
        }
    }
}

/// Item 2.
pub fn parse_bits(s: &str) -> Result<Vec<bool>> {
    crate::fingerprint::parse_bits(s).ok_or_else(|| Error::InvalidBits {
        index: 0,
        reason: format!("{} is neither 0/1 digits nor ±1 entries", crate::error::quoted(s)),
    })
}

/// Item 3.
pub trait CompactSetShim {
    fn count_contained_within(&self, fps: &[u64], k: u32) -> usize;
}

impl CompactSetShim for CompactSet {
    fn count_contained_within(&self, fps: &[u64], k: u32) -> usize {
        fps.iter().filter(|&&f| self.contains_within(f, k)).count()
    }
}

/// Item 5.
pub trait SeenConfigShim {
    /// Besides [`crate::Options::NAMES`].
    const NAMES: [&'static str; 5] = ["k", "layout", "expectedSize", "memoryBudget", "html"];
}

impl SeenConfigShim for SeenConfig {}
