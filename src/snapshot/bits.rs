//! The bit stream of the compact set.
//!
//! Bits are written and read **low bit first**: stream bit `i` is bit `i % 8` of byte
//! `i / 8`, and a value of `n` bits is stored from its bit 0 up. The unused bits of the
//! last byte are 0 (the reader checks that). Reads past the end of the stream see zero
//! bits, so a decoder can always peek [`MAX_CODE_LEN`](super::huffman::MAX_CODE_LEN) bits ahead;
//! the compact set checks that every block ends exactly where the block table says.

/// Packs values of up to 64 bits, low bit first.
pub(super) struct BitWriter {
    out: Vec<u8>,
    acc: u64,
    nacc: u32,
    bits: u64,
}

impl BitWriter {
    pub(super) fn new() -> Self {
        BitWriter { out: Vec::new(), acc: 0, nacc: 0, bits: 0 }
    }

    /// The number of bits written so far.
    pub(super) fn bits(&self) -> u64 {
        self.bits
    }

    /// Writes the low `n <= 32` bits of `v`.
    fn put32(&mut self, v: u64, n: u32) {
        debug_assert!(n <= 32);
        if n == 0 {
            return;
        }
        self.acc |= (v & ((1u64 << n) - 1)) << self.nacc;
        self.nacc += n;
        self.bits += u64::from(n);
        while self.nacc >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.nacc -= 8;
        }
    }

    /// Writes the low `n <= 64` bits of `v`, low bit first.
    pub(super) fn put(&mut self, v: u64, n: u32) {
        if n > 32 {
            self.put32(v, 32);
            self.put32(v >> 32, n - 32);
        } else {
            self.put32(v, n);
        }
    }

    /// The stream's bytes (the last one padded with zero bits) and its length in bits.
    pub(super) fn finish(mut self) -> (Vec<u8>, u64) {
        if self.nacc > 0 {
            self.out.push(self.acc as u8);
        }
        (self.out, self.bits)
    }
}

/// `n <= 56` bits of `stream` from bit `pos`; bits past the end read as 0.
#[inline]
pub(super) fn peek(stream: &[u8], pos: u64, n: u32) -> u64 {
    let byte = pos >> 3;
    let mut buf = [0u8; 8];
    if byte + 8 <= stream.len() as u64 {
        let b = byte as usize;
        buf.copy_from_slice(&stream[b..b + 8]);
    } else if byte < stream.len() as u64 {
        let rest = &stream[byte as usize..];
        buf[..rest.len()].copy_from_slice(rest);
    }
    (u64::from_le_bytes(buf) >> (pos & 7)) & low_mask(n)
}

/// The low `n` bits set (all 64 for `n >= 64`).
#[inline]
pub(super) fn low_mask(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// `n <= 64` bits from `pos`.
#[inline]
pub(super) fn read_bits(stream: &[u8], pos: u64, n: u32) -> u64 {
    if n > 32 {
        peek(stream, pos, 32) | (peek(stream, pos + 32, n - 32) << 32)
    } else {
        peek(stream, pos, n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_of_every_width_read_back_where_they_were_written() {
        let mut w = BitWriter::new();
        let mut written = Vec::new();
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for n in (0..=64).chain((0..=64).rev()) {
            x = x.rotate_left(7).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            written.push((w.bits(), x & low_mask(n), n));
            w.put(x, n);
        }
        let (stream, bits) = w.finish();
        assert_eq!(bits, written.iter().map(|w| u64::from(w.2)).sum::<u64>());
        assert_eq!(stream.len() as u64, bits.div_ceil(8));
        for (pos, v, n) in written {
            assert_eq!(read_bits(&stream, pos, n), v, "{n} bits at {pos}");
        }
        // Low bit first, padding zero, and zeros past the end.
        let mut w = BitWriter::new();
        w.put(0b1, 1);
        w.put(0b10, 2);
        assert_eq!(w.finish(), (vec![0b101], 3));
        assert_eq!(peek(&[0xFF], 4, 12), 0xF);
        assert_eq!(peek(&[0xFF], 100, 12), 0);
    }
}
