//! The compact set's Huffman code over its 65 symbols: length-limited, canonical, and
//! decoded with one table lookup.
//!
//! **Construction** (deterministic, so equal sets give equal bytes): a Huffman tree over
//! the symbols with a non-zero count, leaves numbered by symbol and internal nodes after
//! them, always merging the two smallest (count, node number) pairs. A single used
//! symbol gets length 1. When a length exceeds [`MAX_CODE_LEN`], every non-zero count is
//! halved (keeping it at least 1) and the tree is built again; this ends, since 65 equal
//! counts give lengths of at most 7.
//!
//! **Storage**: only the code lengths, one byte per symbol 0 ..= 64 (0 = unused, else
//! 1 ..= [`MAX_CODE_LEN`]). They must satisfy Kraft's inequality (`Σ 2^-len ≤ 1`), which
//! [`read_lengths`] checks. **Canonical codes**: the used symbols sorted by (length,
//! symbol) get consecutive code values, each shifted left when the length grows. A code
//! is written into the bit stream first (most significant) code bit first.

use super::bytes::{Reader, Writer};
use crate::error::Result;

/// The longest Huffman code the compact set uses, in bits.
pub(crate) const MAX_CODE_LEN: u32 = 12;

/// The alphabet: 64 "highest differing bit" symbols and the repeat symbol.
pub(super) const SYMBOLS: usize = 65;

/// Code lengths for the counts, at most [`MAX_CODE_LEN`], deterministic.
pub(super) fn code_lengths(counts: &[u64; SYMBOLS]) -> [u8; SYMBOLS] {
    let mut c = *counts;
    loop {
        let lens = huffman_lengths(&c);
        if lens.iter().all(|&l| u32::from(l) <= MAX_CODE_LEN) {
            return lens;
        }
        // Flatten the distribution and retry; terminates because all-ones counts over
        // 65 symbols give lengths of at most 7.
        for x in c.iter_mut() {
            if *x > 0 {
                *x = (*x / 2).max(1);
            }
        }
    }
}

fn huffman_lengths(counts: &[u64; SYMBOLS]) -> [u8; SYMBOLS] {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    let mut lens = [0u8; SYMBOLS];
    let used: Vec<usize> = (0..SYMBOLS).filter(|&s| counts[s] > 0).collect();
    match used.len() {
        0 => return lens,
        1 => {
            lens[used[0]] = 1;
            return lens;
        }
        _ => {}
    }
    // Nodes 0..65 are leaves, then internal nodes; ties go to the lower node number.
    let mut parent: Vec<usize> = vec![usize::MAX; SYMBOLS];
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> = used.iter().map(|&s| Reverse((counts[s], s))).collect();
    while heap.len() > 1 {
        let (Some(Reverse((ca, a))), Some(Reverse((cb, b)))) = (heap.pop(), heap.pop()) else {
            break;
        };
        let id = parent.len();
        parent.push(usize::MAX);
        parent[a] = id;
        parent[b] = id;
        heap.push(Reverse((ca.saturating_add(cb), id)));
    }
    for &s in &used {
        let (mut d, mut x) = (0u32, s);
        while parent[x] != usize::MAX {
            x = parent[x];
            d += 1;
        }
        lens[s] = d.min(255) as u8;
    }
    lens
}

/// Canonical codes (MSB-first values) for the lengths.
pub(super) fn canonical_codes(lens: &[u8; SYMBOLS]) -> [u32; SYMBOLS] {
    let mut order: Vec<usize> = (0..SYMBOLS).filter(|&s| lens[s] > 0).collect();
    crate::sort::sort_by_key(&mut order, |&s| (lens[s], s));
    let mut codes = [0u32; SYMBOLS];
    let mut code = 0u32;
    let mut prev_len = 0u8;
    for (i, &s) in order.iter().enumerate() {
        if i > 0 {
            code += 1;
        }
        code <<= lens[s] - prev_len;
        prev_len = lens[s];
        codes[s] = code;
    }
    codes
}

fn reverse_bits(v: u32, n: u8) -> u32 {
    if n == 0 {
        0
    } else {
        v.reverse_bits() >> (32 - u32::from(n))
    }
}

/// The canonical codes as the low-bit-first stream takes them: code bits reversed, so
/// that writing the low `len` bits puts the code's first bit first.
pub(super) fn stream_codes(lens: &[u8; SYMBOLS]) -> [u32; SYMBOLS] {
    let codes = canonical_codes(lens);
    std::array::from_fn(|s| reverse_bits(codes[s], lens[s]))
}

/// Decoding table indexed by the next [`MAX_CODE_LEN`] stream bits: `symbol << 4 | len`,
/// 0 for bit patterns no code starts. Read with [`decode`].
pub(super) fn decode_table(lens: &[u8; SYMBOLS]) -> Vec<u16> {
    let codes = stream_codes(lens);
    let size = 1usize << MAX_CODE_LEN;
    let mut table = vec![0u16; size];
    for s in 0..SYMBOLS {
        let l = lens[s];
        if l == 0 {
            continue;
        }
        let entry = ((s as u16) << 4) | u16::from(l);
        let mut i = codes[s] as usize;
        while i < size {
            table[i] = entry;
            i += 1 << l;
        }
    }
    table
}

/// The symbol whose code starts the [`MAX_CODE_LEN`] bits `next` (stream bits, low bit
/// first), and the code's length; `None` when no code starts so.
#[inline]
pub(super) fn decode(table: &[u16], next: u64) -> Option<(u32, u64)> {
    let e = table[next as usize];
    (e != 0).then(|| (u32::from(e >> 4), u64::from(e & 15)))
}

/// Writes the code lengths, one byte per symbol.
pub(super) fn write_lengths(w: &mut Writer, lens: &[u8; SYMBOLS]) {
    w.bytes(lens);
}

/// Reads the code lengths and checks that they are at most [`MAX_CODE_LEN`] and form a
/// prefix code (Kraft's inequality).
pub(super) fn read_lengths(r: &mut Reader<'_>) -> Result<[u8; SYMBOLS]> {
    let at = r.offset();
    let mut lens = [0u8; SYMBOLS];
    lens.copy_from_slice(r.take(SYMBOLS, "code lengths")?);
    let mut kraft = 0u64;
    for (s, &l) in lens.iter().enumerate() {
        if u32::from(l) > MAX_CODE_LEN {
            return Err(r.err_at(at + s, format!("code length {l} of symbol {s} exceeds {MAX_CODE_LEN}")));
        }
        if l > 0 {
            kraft += 1u64 << (MAX_CODE_LEN - u32::from(l));
        }
    }
    if kraft > 1u64 << MAX_CODE_LEN {
        return Err(r.err_at(at, "the code lengths do not form a prefix code"));
    }
    Ok(lens)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts from a small generator: skewed, with zeros and ties.
    fn counts(seed: u64) -> [u64; SYMBOLS] {
        let mut x = seed;
        std::array::from_fn(|s| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            match (x >> 60) % 4 {
                0 => 0,
                1 => 1 << ((x >> 58) & 31),
                _ => (x >> 40) % 1000 + s as u64 % 3,
            }
        })
    }

    #[test]
    fn codes_are_limited_prefix_free_and_decode_back() {
        let mut cases: Vec<[u64; SYMBOLS]> = (1..200).map(counts).collect();
        // Fibonacci counts force the deepest tree, so the length limit must act.
        let mut fib = [0u64; SYMBOLS];
        let (mut a, mut b) = (1u64, 1u64);
        for c in fib.iter_mut() {
            *c = a;
            (a, b) = (b, a.saturating_add(b));
        }
        cases.push(fib);
        let mut one = [0u64; SYMBOLS];
        one[17] = 5;
        cases.push(one);
        for c in cases {
            let lens = code_lengths(&c);
            for s in 0..SYMBOLS {
                assert_eq!(lens[s] > 0, c[s] > 0, "symbol {s} used iff counted");
                assert!(u32::from(lens[s]) <= MAX_CODE_LEN);
            }
            let kraft: u64 =
                lens.iter().filter(|&&l| l > 0).map(|&l| 1u64 << (MAX_CODE_LEN - u32::from(l))).sum();
            assert!(kraft <= 1 << MAX_CODE_LEN);
            let mut w = Writer::new();
            write_lengths(&mut w, &lens);
            let bytes = w.into_bytes();
            assert_eq!(read_lengths(&mut Reader::new(&bytes, 0, "test")).unwrap(), lens);
            // Every used symbol's code decodes to that symbol, whatever bits follow.
            let table = decode_table(&lens);
            let codes = stream_codes(&lens);
            for s in (0..SYMBOLS).filter(|&s| lens[s] > 0) {
                for tail in [0u64, u64::MAX, 0x5555] {
                    let next = (u64::from(codes[s]) | (tail << lens[s])) & ((1 << MAX_CODE_LEN) - 1);
                    assert_eq!(decode(&table, next), Some((s as u32, u64::from(lens[s]))));
                }
            }
        }
    }

    #[test]
    fn canonical_codes_count_up_by_length_then_symbol() {
        let mut lens = [0u8; SYMBOLS];
        (lens[3], lens[1], lens[64], lens[0]) = (1, 2, 3, 3);
        let codes = canonical_codes(&lens);
        assert_eq!((codes[3], codes[1], codes[0], codes[64]), (0b0, 0b10, 0b110, 0b111));
        assert_eq!(stream_codes(&lens)[0], 0b011);
        // Lengths that break Kraft, or exceed the limit, are refused.
        let mut over = [0u8; SYMBOLS];
        over[..3].copy_from_slice(&[1, 1, 1]);
        assert!(read_lengths(&mut Reader::new(&over, 0, "test")).is_err());
        over = [0u8; SYMBOLS];
        over[5] = MAX_CODE_LEN as u8 + 1;
        let e = read_lengths(&mut Reader::new(&over, 12, "test")).unwrap_err();
        assert!(matches!(e, crate::Error::Corrupt { offset: 17, .. }), "{e:?}");
    }
}
