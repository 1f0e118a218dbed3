//! Generates the punctuation table of `src/normalize.rs` (`is_punct`) from the general
//! categories of the `unicode-properties` crate, at build time.
//!
//! The crate's own lookup is a binary search over a table of every general-category range
//! (3,466 ranges of 12 bytes: 41.6 kB in the wasm). The fingerprint scheme needs one bit of
//! it, "is the category P*, Sm, Sc or Sk", so this writes just that bit as a two-level
//! bitmap: one byte per 256 code points choosing one of the distinct 256-bit blocks (the
//! empty block is number 0). Same answers for every code point (an exhaustive test in
//! `src/normalize.rs` checks it against the crate), about 6 kB, and one lookup instead of
//! a 12-step search.

use std::fmt::Write as _;

include!("src/punct_category.rs");

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/punct_category.rs");
    let mut blocks: Vec<[u64; 4]> = vec![[0; 4]];
    let mut index = Vec::with_capacity(0x1100);
    for hi in 0..0x1100u32 {
        let mut bits = [0u64; 4];
        for lo in 0..256u32 {
            if char::from_u32(hi << 8 | lo).is_some_and(punct_by_category) {
                bits[(lo >> 6) as usize] |= 1 << (lo & 63);
            }
        }
        let at = blocks.iter().position(|b| *b == bits).unwrap_or_else(|| {
            blocks.push(bits);
            blocks.len() - 1
        });
        index.push(u8::try_from(at).expect("at most 256 distinct blocks"));
    }
    let mut out = String::new();
    writeln!(out, "/// For each 256 code points, its block in [`PUNCT_BITS`] (0: no punctuation).").unwrap();
    writeln!(out, "static PUNCT_BLOCK: [u8; {}] = {:?};", index.len(), index).unwrap();
    writeln!(out, "/// 256-bit blocks: bit `c % 256` is set when `c` is punctuation.").unwrap();
    writeln!(out, "static PUNCT_BITS: [[u64; 4]; {}] = {:?};", blocks.len(), blocks).unwrap();
    let path = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("punct_table.rs");
    std::fs::write(path, out).unwrap();
}
