//! The quality tools' `mod common;`: the benchmarks' shared helpers (the dev corpus and its
//! ground truth, the seeded generator), one file for both.
#[path = "../../tests/bench/common.rs"]
mod shared;
pub use shared::*;
