//! [`Stats`]: what an index costs and what a query should expect.

use super::table::Segment;
use super::{Index, IndexId};

/// What an index costs and what a query should expect; see [`Index::stats`].
#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    /// Live entries.
    pub len: usize,
    /// Tables (1 for probing).
    pub tables: usize,
    /// Key bits of each table.
    pub key_bits: Vec<u32>,
    /// Expected candidates per probe of each table, 2^(log2 N − key bits), for random
    /// fingerprints.
    pub expected_candidates_per_table: Vec<f64>,
    /// Their sum: expected candidates checked per query.
    pub expected_candidates: f64,
    /// Exact-key lookups per query (tables, or variants when probing).
    pub probes_per_query: u64,
    /// Bytes held: fingerprints, ids (with their heap bytes), the id map, tombstones,
    /// directories and lists.
    pub bytes: usize,
    /// `bytes / len` (0 when empty).
    pub bytes_per_fp: f64,
    /// Segments (1 after a bulk build or `compact`).
    pub segments: usize,
    /// Entries in the write buffer.
    pub buffered: usize,
    /// Removed entries whose tombstones are not yet compacted away.
    pub tombstones: usize,
}

impl<I: IndexId> Index<I> {
    /// Sizes and expectations; see [`Stats`].
    ///
    /// ```
    /// use simhash_wasm::index::{Index, Layout};
    /// let index = Index::build(Layout::default_for_k(3)?, (0..1u64 << 16).map(|i| (i, i.wrapping_mul(0x9E37_79B9_7F4A_7C15))))?;
    /// let s = index.stats();
    /// assert_eq!((s.tables, s.key_bits.clone()), (4, vec![16, 16, 16, 16]));
    /// assert_eq!(s.expected_candidates_per_table, vec![1.0; 4]); // 2^(16 - 16)
    /// assert_eq!(s.expected_candidates, 4.0);
    /// assert!(s.bytes_per_fp < 60.0);
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn stats(&self) -> Stats {
        let len = self.len();
        let key_bits = self.layout.key_bits();
        let per_table: Vec<f64> = key_bits.iter().map(|&kb| len as f64 / 2f64.powi(kb as i32)).collect();
        let id_heap: usize = self.ids.iter().map(IndexId::heap_bytes).sum();
        let bytes = self.fps.capacity() * 8
            + self.ids.capacity() * std::mem::size_of::<I>()
            + id_heap
            + self.dead.capacity() * 8
            + self.map.table.capacity() * 4
            + self.segments.iter().map(Segment::bytes).sum::<usize>()
            + std::mem::size_of::<Self>();
        Stats {
            len,
            tables: self.layout.tables(),
            expected_candidates: per_table.iter().sum(),
            expected_candidates_per_table: per_table,
            key_bits,
            probes_per_query: self.layout.probes_per_query(),
            bytes,
            bytes_per_fp: if len == 0 { 0.0 } else { bytes as f64 / len as f64 },
            segments: self.segments.len(),
            buffered: self.fps.len() - self.buf_start,
            tombstones: self.dead_count,
        }
    }
}
