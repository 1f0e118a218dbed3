//! The multi-table index: every stored fingerprint within `k` bits of a query, exactly.
//!
//! # How it works
//!
//! A [`Layout`] splits the 64 bits into `b` blocks (block 0 is the most significant bits).
//! Two fingerprints that differ in at most `k` bits agree exactly on at least `b − k`
//! blocks (pigeonhole), so the index keeps one *table* per choice of `b − k` blocks
//! (C(b, k) tables). A table keys each fingerprint on the concatenation of its chosen
//! blocks. A query looks up its own key in every table and checks the few candidates
//! with one XOR and one popcount each. The answer is exact: no false negatives, and every
//! reported match has been checked.
//!
//! Storage, per fingerprint: the fingerprint (8 bytes) and the id are kept **once**, in
//! slot order; each table is a bucket directory (`2^d + 1` `u32` offsets, `d` at most
//! the key width, so a probe is one array index, not a binary search) over a list of `u32`
//! entries. An entry holds the slot number in its low bits and, in the bits the slot does
//! not need, an XOR-fold of the fingerprint: a query rejects most candidates on the fold
//! alone (two fingerprints `d` bits apart have folds at most `d` bits apart), without the
//! random access to the fingerprint. After a bulk [`Index::build`] (or [`Index::compact`])
//! the slots themselves are ordered by the first table's key, so that table needs no list
//! at all and its candidates are contiguous. An id → slot hash map (open addressing over
//! `u32` slots, ids compared in place) makes `remove` and the duplicate-id check O(1).
//! For the default layout at N = 2^20 that is about 35 bytes per fingerprint in all
//! (`u64` ids). Batch queries touch the memory of 16 queries before answering them, so
//! their cache misses overlap.
//!
//! A match found in table `t` is reported only if no earlier table's bucket also holds it
//! (a mask test on the XOR already computed), so every id comes back once without a sort
//! or a hash set.
//!
//! Online inserts go to a small write buffer (scanned linearly, at most 256 entries);
//! when it fills it becomes a *segment* (the same table structure, built by one counting
//! sort), and segments of similar size are merged, log-structured, so an insert costs
//! amortised O(log N) and never re-sorts everything. Removes leave a tombstone that
//! queries skip; tombstones are dropped when segments merge and all at once when more
//! than a quarter of the slots are dead ([`Index::compact`] does it on demand).
//!
//! The **probing** strategy ([`Layout::probe`]) stores the fingerprints once, in one
//! table keyed on the whole fingerprint, and looks up every variant within `k` bits of the
//! query exactly (C(64,0) + … + C(64,k) lookups: 43,745 for k = 3). Same API, same answers.
//!
//! # Semantics
//!
//! * Results hold each id once, sorted by distance, then id. A stored entry whose id is
//!   the query's "own" id is reported like any other ([`Index::query`] takes no id);
//!   [`Index::query_and_insert`] queries *before* inserting, so it never reports itself.
//! * The same fingerprint under several ids is kept: they all match at distance 0.
//! * Inserting an id that is already present is an error ([`Error::DuplicateId`]); to
//!   update, [`Index::remove`] it first. Removing an absent id is [`Error::UnknownId`].
//! * [`Index::clusters`] omits singletons.
//!
//! ```
//! use simhash_wasm::index::{Index, Layout, Match};
//! let mut index: Index = Index::new(Layout::default_for_k(3)?);
//! index.insert(1, 0xFFFF_0000_FFFF_0000)?;
//! index.insert(2, 0xFFFF_0000_FFFF_0007)?; // 3 bits away
//! index.insert(3, 0x0000_FFFF_0000_FFFF)?; // far away
//! assert_eq!(
//!     index.query(0xFFFF_0000_FFFF_0000),
//!     vec![Match { id: 1, distance: 0 }, Match { id: 2, distance: 3 }]
//! );
//! # Ok::<(), simhash_wasm::Error>(())
//! ```

use std::fmt;
use std::hash::{Hash, Hasher};

use crate::error::{Error, Result};
use crate::fingerprint::Options;

/// Most tables a layout may have (C(blocks, k)); more would cost more memory than any
/// index is worth.
pub const MAX_TABLES: usize = 1024;
/// Largest `k` the probing strategy accepts: C(64,0)+…+C(64,4) = 679,121 lookups a query.
pub const MAX_PROBE_K: u32 = 4;
/// Entries the write buffer holds before it becomes a segment.
const BUFFER_LIMIT: usize = 256;
/// Widest bucket directory: 2^24 offsets.
const MAX_BUCKET_BITS: u32 = 24;
/// Most fingerprints one index holds (slots are `u32`).
pub const MAX_LEN: usize = (u32::MAX - 1) as usize;
const EMPTY: u32 = u32::MAX;
/// Queries a batch warms up together (see `Index::warm`).
const GROUP: usize = 16;

// ---------------------------------------------------------------------------------------
// Ids
// ---------------------------------------------------------------------------------------

/// What an index id can be: `u64` (document numbers) and `String` (URLs) are built in.
///
/// `hash64` feeds the id → slot map; the default uses the standard library's hasher and
/// can be overridden for speed. `heap_bytes` is counted by [`Index::stats`].
pub trait IndexId: Clone + Eq + Ord + Hash + fmt::Debug + fmt::Display {
    /// A well-mixed 64-bit hash of the id.
    fn hash64(&self) -> u64 {
        let mut h = std::hash::DefaultHasher::new();
        self.hash(&mut h);
        h.finish()
    }
    /// Heap bytes the id owns outside the index's own arrays (0 for plain numbers).
    fn heap_bytes(&self) -> usize {
        0
    }
}

#[inline]
fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl IndexId for u64 {
    #[inline]
    fn hash64(&self) -> u64 {
        mix64(*self)
    }
}

impl IndexId for u32 {
    #[inline]
    fn hash64(&self) -> u64 {
        mix64(u64::from(*self))
    }
}

impl IndexId for String {
    #[inline]
    fn hash64(&self) -> u64 {
        crate::hash::hash_bytes(self.as_bytes())
    }
    fn heap_bytes(&self) -> usize {
        self.capacity()
    }
}

// ---------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------

/// One stored entry within `k` bits of a query.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Match<I = u64> {
    /// The stored entry's id.
    pub id: I,
    /// Hamming distance between the query and the stored fingerprint.
    pub distance: u32,
}

/// One unordered pair of stored ids within `k` bits of each other, `a < b`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pair<I = u64> {
    /// The smaller id.
    pub a: I,
    /// The larger id.
    pub b: I,
    /// Hamming distance between their fingerprints.
    pub distance: u32,
}

/// The results of a batch query as three parallel arrays (one row per match), for thin
/// bindings: row `r` says query `queries[r]` matched `ids[r]` at `distances[r]`. Rows come
/// grouped by query in ascending query order, and within a query in result order
/// (distance, then id).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FlatMatches<I = u64> {
    /// Position of the query in the batch.
    pub queries: Vec<u32>,
    /// The matching stored id.
    pub ids: Vec<I>,
    /// The Hamming distance.
    pub distances: Vec<u32>,
}

impl<I> FlatMatches<I> {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.queries.len()
    }
    /// `true` when no query matched anything.
    pub fn is_empty(&self) -> bool {
        self.queries.is_empty()
    }
}

// ---------------------------------------------------------------------------------------
// Layout
// ---------------------------------------------------------------------------------------

/// How the index is organised: `k`, the block widths, and so the tables; or the probing
/// strategy. Validated on construction, so every `Layout` gives exact answers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    k: u32,
    widths: Vec<u32>,
    probe: bool,
    /// Per table, the chosen blocks in ascending order.
    tables: Vec<Vec<u32>>,
}

fn binomial(n: u64, r: u64) -> u128 {
    let r = r.min(n.saturating_sub(r));
    let mut c: u128 = 1;
    for i in 0..r {
        c = c.saturating_mul(u128::from(n - i)) / u128::from(i + 1);
    }
    c
}

fn invalid(reason: impl Into<String>) -> Error {
    Error::InvalidLayout { reason: reason.into() }
}

impl Layout {
    /// A layout with explicit block widths (most significant block first), which must be
    /// non-zero and sum to 64, with more blocks than `k`. The tables are all C(b, b − k)
    /// choices of `b − k` blocks.
    ///
    /// ```
    /// use simhash_wasm::index::Layout;
    /// let paper = Layout::new(3, &[16, 12, 12, 12, 12])?;
    /// assert_eq!(paper.tables(), 10);
    /// assert_eq!(paper.key_bits(), vec![28, 28, 28, 28, 24, 24, 24, 24, 24, 24]);
    /// assert!(Layout::new(3, &[32, 32]).is_err()); // 2 blocks cannot guarantee k = 3
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn new(k: u32, widths: &[u32]) -> Result<Layout> {
        let b = widths.len();
        if b == 0 {
            return Err(invalid(
                "no blocks were given; give block widths that sum to 64, e.g. [16, 16, 16, 16]",
            ));
        }
        if b > 64 {
            return Err(invalid(format!(
                "{b} blocks were given, but 64 bits make at most 64 blocks of 1 bit"
            )));
        }
        if let Some(i) = widths.iter().position(|&w| w == 0) {
            return Err(invalid(format!("block #{i} has width 0; every block needs at least 1 bit")));
        }
        let sum: u64 = widths.iter().map(|&w| u64::from(w)).sum();
        if sum != 64 {
            return Err(invalid(format!(
                "the block widths {widths:?} sum to {sum} bits, but a fingerprint has 64; adjust them to sum to 64"
            )));
        }
        if b as u64 <= u64::from(k) {
            return Err(invalid(format!(
                "{b} blocks cannot find every fingerprint within k = {k} bits: {k} differing bits \
                 can touch every block, so no block is guaranteed equal; use at least {} blocks",
                u64::from(k) + 1
            )));
        }
        let tables = binomial(b as u64, u64::from(k));
        if tables > MAX_TABLES as u128 {
            return Err(invalid(format!(
                "{b} blocks with k = {k} make {tables} tables, more than the limit of {MAX_TABLES}; \
                 use fewer blocks (k + 1 to k + 3 is usual)"
            )));
        }
        let keep = b - k as usize;
        let mut combos = Vec::new();
        let mut c: Vec<u32> = (0..keep as u32).collect();
        loop {
            combos.push(c.clone());
            // next combination in lexicographic order
            let mut i = keep;
            let mut advanced = false;
            while i > 0 {
                i -= 1;
                if c[i] < (b - keep + i) as u32 {
                    c[i] += 1;
                    for j in i + 1..keep {
                        c[j] = c[j - 1] + 1;
                    }
                    advanced = true;
                    break;
                }
            }
            if !advanced {
                break;
            }
        }
        Ok(Layout { k, widths: widths.to_vec(), probe: false, tables: combos })
    }

    /// `blocks` blocks of (nearly) equal width: the first `64 % blocks` blocks are one bit
    /// wider. `Layout::even(3, 4)` is the paper's 4 × 16 bits.
    ///
    /// ```
    /// use simhash_wasm::index::Layout;
    /// assert_eq!(Layout::even(3, 6)?.widths(), &[11, 11, 11, 11, 10, 10]);
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn even(k: u32, blocks: u32) -> Result<Layout> {
        if blocks == 0 || blocks > 64 {
            return Err(invalid(format!("{blocks} blocks: use from k + 1 to 64 blocks")));
        }
        let base = 64 / blocks;
        let rem = 64 % blocks;
        let widths: Vec<u32> = (0..blocks).map(|i| base + u32::from(i < rem)).collect();
        Layout::new(k, &widths)
    }

    /// The probing strategy: one exact-lookup table over whole fingerprints, queried with
    /// every variant within `k` bits (at most [`MAX_PROBE_K`]). Least memory, slow for
    /// k ≥ 3. Its [`widths`](Layout::widths) are `[64]`.
    ///
    /// ```
    /// use simhash_wasm::index::Layout;
    /// let p = Layout::probe(2)?;
    /// assert!(p.is_probe());
    /// assert_eq!(p.probes_per_query(), 1 + 64 + 2016);
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn probe(k: u32) -> Result<Layout> {
        if k > MAX_PROBE_K {
            return Err(invalid(format!(
                "probing every variant within k = {k} bits is {} lookups a query; the limit is \
                 k = {MAX_PROBE_K}, use a multi-table layout instead",
                (0..=u64::from(k)).map(|i| binomial(64, i)).sum::<u128>()
            )));
        }
        Ok(Layout { k, widths: vec![64], probe: true, tables: vec![vec![0]] })
    }

    /// The default layout for `k`, chosen by measurement for k = 3 (`tests/bench_index.rs`):
    /// `k + 1` equal blocks, so `k + 1` tables keyed on one block each (4 × 16 bits for
    /// k = 3). It is the most compact multi-table layout; [`Layout::auto`] trades memory
    /// for speed.
    ///
    /// ```
    /// use simhash_wasm::index::Layout;
    /// assert_eq!(Layout::default_for_k(3)?.widths(), &[16, 16, 16, 16]);
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn default_for_k(k: u32) -> Result<Layout> {
        if k >= 64 {
            return Err(invalid(format!("k = {k}: k must be below 64")));
        }
        Layout::even(k, k + 1)
    }

    /// Picks the layout with the lowest estimated query cost for about `expected_n`
    /// fingerprints whose estimated size fits `memory_budget_bytes` (no limit when
    /// `None`). Candidates: `k + 1` to `k + 6` equal blocks. The cost model charges each
    /// table probe like 4 candidate checks. Fails when even the most compact layout
    /// does not fit the budget.
    ///
    /// ```
    /// use simhash_wasm::index::Layout;
    /// // A million fingerprints in 40 MB: the 4-table layout.
    /// assert_eq!(Layout::auto(1 << 20, 3, Some(40 << 20))?.tables(), 4);
    /// // No budget: 10 tables keyed on 25-26 bits, far fewer candidates.
    /// assert_eq!(Layout::auto(1 << 20, 3, None)?.tables(), 10);
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn auto(expected_n: usize, k: u32, memory_budget_bytes: Option<usize>) -> Result<Layout> {
        if k >= 64 {
            return Err(invalid(format!("k = {k}: k must be below 64")));
        }
        let n = expected_n.max(1) as f64;
        let mut best: Option<(f64, Layout)> = None;
        let mut smallest: Option<f64> = None;
        for blocks in k + 1..=(k + 6).min(64) {
            let Ok(layout) = Layout::even(k, blocks) else {
                continue;
            };
            let bytes = layout.estimated_bytes(expected_n);
            smallest = Some(smallest.map_or(bytes, |s: f64| s.min(bytes)));
            if let Some(budget) = memory_budget_bytes {
                if bytes > budget as f64 {
                    continue;
                }
            }
            let cost: f64 =
                layout.key_bits().iter().map(|&kb| 4.0 + n / 2f64.powi(kb.min(1000) as i32)).sum();
            if best.as_ref().is_none_or(|(c, _)| cost < *c) {
                best = Some((cost, layout));
            }
        }
        best.map(|(_, l)| l).ok_or_else(|| {
            invalid(format!(
                "no layout for k = {k} and {expected_n} fingerprints fits in {} bytes; the most \
                 compact needs about {}",
                memory_budget_bytes.unwrap_or(0),
                smallest.unwrap_or(0.0).ceil() as u64
            ))
        })
    }

    /// Rough bytes an index of `n` `u64` ids in this layout uses after a bulk build.
    fn estimated_bytes(&self, n: usize) -> f64 {
        let n_f = n as f64;
        let per_fp = 8.0 + 8.0 + 6.0 + 4.0 * (self.tables.len() as f64 - 1.0);
        let dirs: f64 =
            self.key_bits().iter().map(|&kb| 4.0 * 2f64.powi(bucket_bits(kb, n, self.probe) as i32)).sum();
        per_fp * n_f + dirs
    }

    /// The largest distance the layout guarantees to find.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// The block widths, most significant block first (`[64]` for probing).
    pub fn widths(&self) -> &[u32] {
        &self.widths
    }

    /// `true` for the probing strategy ([`Layout::probe`]).
    pub fn is_probe(&self) -> bool {
        self.probe
    }

    /// Number of tables (1 for probing).
    pub fn tables(&self) -> usize {
        self.tables.len()
    }

    /// The blocks each table keys on, in key order (ascending block numbers).
    pub fn table_blocks(&self) -> &[Vec<u32>] {
        &self.tables
    }

    /// Key bits of each table (64 for probing).
    pub fn key_bits(&self) -> Vec<u32> {
        self.tables.iter().map(|t| t.iter().map(|&b| self.widths[b as usize]).sum()).collect()
    }

    /// Exact-key lookups a query makes: the tables, or C(64,0)+…+C(64,k) when probing.
    pub fn probes_per_query(&self) -> u64 {
        if self.probe {
            (0..=u64::from(self.k)).map(|i| binomial(64, i) as u64).sum()
        } else {
            self.tables.len() as u64
        }
    }

    /// Bit offset (from bit 0, the least significant) just above block `b`.
    fn block_hi(&self, b: usize) -> u32 {
        64 - self.widths[..b].iter().sum::<u32>()
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.probe {
            return write!(f, "probe k={}", self.k);
        }
        let w: Vec<String> = self.widths.iter().map(|w| w.to_string()).collect();
        write!(f, "k={} blocks={} ({} tables)", self.k, w.join(","), self.tables.len())
    }
}

/// Directory bits for a table with `key_bits` key bits over `n` entries.
fn bucket_bits(key_bits: u32, n: usize, probe: bool) -> u32 {
    if n < 2 {
        return 0;
    }
    let lg = usize::BITS - 1 - n.leading_zeros(); // floor(log2 n)
    let want = if probe { lg + 1 } else { lg };
    want.min(key_bits).min(MAX_BUCKET_BITS)
}

// ---------------------------------------------------------------------------------------
// Tables and segments
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug)]
struct Part {
    shr: u32,
    mask: u64,
    shl: u32,
}

/// Computes a table's bucket: the top `d` bits of its key, gathered from the original bits.
#[derive(Clone, Debug)]
struct Extract {
    parts: Vec<Part>,
    /// The original bits the bucket is made of.
    mask: u64,
    bits: u32,
}

impl Extract {
    fn new(layout: &Layout, table: usize, d: u32) -> Extract {
        let mut remaining = d;
        let mut parts: Vec<Part> = Vec::new();
        for &blk in &layout.tables[table] {
            if remaining == 0 {
                break;
            }
            let w = layout.widths[blk as usize];
            let hi = layout.block_hi(blk as usize);
            let take = w.min(remaining);
            remaining -= take;
            let shr = hi - take;
            match parts.last_mut() {
                Some(last) if last.shr == hi => {
                    let total = last.mask.count_ones() + take;
                    *last = Part { shr, mask: low_bits(total), shl: remaining };
                }
                _ => parts.push(Part { shr, mask: low_bits(take), shl: remaining }),
            }
        }
        let mask = parts.iter().fold(0u64, |m, p| m | (p.mask << p.shr));
        Extract { parts, mask, bits: d }
    }

    #[inline(always)]
    fn bucket(&self, fp: u64) -> usize {
        let mut b = 0u64;
        for p in &self.parts {
            b |= ((fp >> p.shr) & p.mask) << p.shl;
        }
        b as usize
    }
}

fn low_bits(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

#[derive(Clone, Debug)]
struct Table {
    ext: Extract,
    /// `2^d + 1` offsets into `list` (or into the segment's slot range).
    dir: Vec<u32>,
    /// Entries in bucket order, each `fold << slot_bits | (slot - base)`: the slot, and
    /// in the bits it leaves free a fold of the fingerprint ([`fold`]) that rejects most
    /// candidates without loading their fingerprint (a random access).
    /// `None`: the slots `base..` are themselves in bucket order.
    list: Option<Vec<u32>>,
    /// Low bits of an entry that hold the slot.
    slot_bits: u32,
    base: u32,
}

impl Table {
    /// The bucket of `q`: its range `lo..hi` in `list` (or in the slots from `base`).
    #[inline(always)]
    fn bucket_range(&self, q: u64) -> (usize, usize) {
        let b = self.ext.bucket(q);
        (self.dir[b] as usize, self.dir[b + 1] as usize)
    }

    /// The slots of `list[lo..hi]` whose stored fold is within `k` bits of `q`'s fold (a
    /// necessary condition for the fingerprint to be within `k`).
    #[inline(always)]
    fn fold_candidates<'a>(
        &self,
        list: &'a [u32],
        lo: usize,
        hi: usize,
        q: u64,
        k: u32,
    ) -> impl Iterator<Item = u32> + 'a {
        let (sb, base) = (self.slot_bits, self.base);
        let qf = fold(q, 32 - sb);
        let smask = low_bits(sb) as u32;
        list[lo..hi]
            .iter()
            .filter(move |&&e| ((u64::from(e) >> sb) as u32 ^ qf).count_ones() <= k)
            .map(move |&e| base + (e & smask))
    }
}

#[derive(Clone, Debug)]
struct Segment {
    /// The slot range the segment was built over (some slots in it may be dead).
    start: u32,
    end: u32,
    /// Entries it holds (live at build time).
    n: usize,
    tables: Vec<Table>,
    /// `tables[t].ext.mask`, together for the "already seen" test.
    masks: Vec<u64>,
}

/// Counting sort of `members` by bucket: returns (directory, list). With `packed =
/// Some((start, slot_bits))` the list holds packed entries (see [`Table::list`]), made
/// while the fingerprints are read in order; otherwise plain slots.
fn bucket_sort<M>(
    ext: &Extract,
    members: M,
    count: usize,
    fps: &[u64],
    packed: Option<(u32, u32)>,
) -> (Vec<u32>, Vec<u32>)
where
    M: Iterator<Item = u32> + Clone,
{
    let nb = 1usize << ext.bits;
    let mut dir = vec![0u32; nb + 1];
    for s in members.clone() {
        dir[ext.bucket(fps[s as usize]) + 1] += 1;
    }
    for i in 0..nb {
        dir[i + 1] += dir[i];
    }
    let mut cur = dir[..nb].to_vec();
    let mut list = vec![0u32; count];
    match packed {
        None => {
            for s in members {
                let b = ext.bucket(fps[s as usize]);
                list[cur[b] as usize] = s;
                cur[b] += 1;
            }
        }
        Some((start, sb)) => {
            for s in members {
                let fp = fps[s as usize];
                let b = ext.bucket(fp);
                list[cur[b] as usize] = ((u64::from(fold(fp, 32 - sb)) << sb) | u64::from(s - start)) as u32;
                cur[b] += 1;
            }
        }
    }
    (dir, list)
}

impl Segment {
    fn extracts(layout: &Layout, n: usize) -> Vec<Extract> {
        let kb = layout.key_bits();
        (0..layout.tables()).map(|t| Extract::new(layout, t, bucket_bits(kb[t], n, layout.probe))).collect()
    }

    /// A segment over arbitrary member slots, every table with its own list.
    fn with_lists(layout: &Layout, members: &[u32], fps: &[u64], start: u32, end: u32) -> Segment {
        let n = members.len();
        let tables: Vec<Table> = Segment::extracts(layout, n)
            .into_iter()
            .map(|ext| {
                let slot_bits = slot_bits_for(start, end);
                let (dir, list) =
                    bucket_sort(&ext, members.iter().copied(), n, fps, Some((start, slot_bits)));
                Table { ext, dir, list: Some(list), slot_bits, base: start }
            })
            .collect();
        let masks = tables.iter().map(|t| t.ext.mask).collect();
        Segment { start, end, n, tables, masks }
    }

    fn bytes(&self) -> usize {
        self.tables
            .iter()
            .map(|t| {
                t.dir.capacity() * 4
                    + t.list.as_ref().map_or(0, |l| l.capacity() * 4)
                    + t.ext.parts.capacity() * std::mem::size_of::<Part>()
            })
            .sum::<usize>()
            + self.masks.capacity() * 8
            + std::mem::size_of::<Segment>()
    }
}

/// The 64 bits folded to `bits` bits by XOR of `bits`-wide chunks. Every bit lands in
/// exactly one fold bit, so two fingerprints `d` bits apart have folds at most `d` bits
/// apart: the fold is a filter that never rejects a true match.
#[inline]
fn fold(mut x: u64, bits: u32) -> u32 {
    if bits == 0 {
        return 0;
    }
    let mask = low_bits(bits);
    let mut r = 0;
    while x != 0 {
        r ^= x & mask;
        x = x.checked_shr(bits).unwrap_or(0);
    }
    r as u32
}

/// Slot bits for slots `start..end`.
fn slot_bits_for(start: u32, end: u32) -> u32 {
    let range = end.saturating_sub(start).max(1) - 1;
    32 - range.leading_zeros()
}

// ---------------------------------------------------------------------------------------
// The id → slot map
// ---------------------------------------------------------------------------------------

/// Open addressing (linear probing) over `u32` slots; ids are compared in the index's
/// `ids` array, so the map itself is 4 bytes a cell.
#[derive(Clone, Debug, Default)]
struct IdMap {
    table: Vec<u32>,
    len: usize,
}

#[inline]
fn home(h: u64, cap: usize) -> usize {
    ((u128::from(h) * cap as u128) >> 64) as usize
}

impl IdMap {
    fn find<I: IndexId>(&self, id: &I, ids: &[I]) -> Option<(usize, u32)> {
        let cap = self.table.len();
        if cap == 0 {
            return None;
        }
        let mut i = home(id.hash64(), cap);
        loop {
            let s = self.table[i];
            if s == EMPTY {
                return None;
            }
            if ids[s as usize] == *id {
                return Some((i, s));
            }
            i += 1;
            if i == cap {
                i = 0;
            }
        }
    }

    /// Puts `slot` (known absent) in; the caller has made room.
    fn put(&mut self, slot: u32, h: u64) {
        let cap = self.table.len();
        let mut i = home(h, cap);
        while self.table[i] != EMPTY {
            i += 1;
            if i == cap {
                i = 0;
            }
        }
        self.table[i] = slot;
        self.len += 1;
    }

    fn capacity_for(n: usize) -> usize {
        (n + n / 2 + 8).max(16)
    }

    /// Rebuilds from the given slots. With `check`, stops at the first slot whose id is
    /// already in, and returns it.
    fn rebuild<I: IndexId>(
        &mut self,
        slots: impl Iterator<Item = u32>,
        n: usize,
        ids: &[I],
        check: bool,
    ) -> Option<u32> {
        let cap = IdMap::capacity_for(n);
        self.table = vec![EMPTY; cap];
        self.len = 0;
        for s in slots {
            let id = &ids[s as usize];
            let mut i = home(id.hash64(), cap);
            loop {
                let t = self.table[i];
                if t == EMPTY {
                    break;
                }
                if check && ids[t as usize] == *id {
                    return Some(s);
                }
                i += 1;
                if i == cap {
                    i = 0;
                }
            }
            self.table[i] = s;
            self.len += 1;
        }
        None
    }

    fn needs_grow(&self) -> bool {
        (self.len + 1) * 5 > self.table.len() * 4
    }

    fn remove_at<I: IndexId>(&mut self, mut hole: usize, ids: &[I]) {
        let cap = self.table.len();
        let mut j = hole;
        loop {
            j += 1;
            if j == cap {
                j = 0;
            }
            let s = self.table[j];
            if s == EMPTY {
                break;
            }
            let h = home(ids[s as usize].hash64(), cap);
            let from_home = (j + cap - h) % cap;
            let from_hole = (j + cap - hole) % cap;
            if from_home >= from_hole {
                self.table[hole] = s;
                hole = j;
            }
        }
        self.table[hole] = EMPTY;
        self.len -= 1;
    }
}

/// Reused buffers of a query.
#[derive(Default)]
struct Scratch {
    /// `(slot, distance)` matches.
    out: Vec<(u32, u32)>,
    /// Gathered candidate slots of one segment.
    cand: Vec<u32>,
    /// End of each table's candidates in `cand`.
    ends: Vec<usize>,
}

// ---------------------------------------------------------------------------------------
// Stats
// ---------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------
// The index
// ---------------------------------------------------------------------------------------

/// The near-duplicate index over `(id, fingerprint)` entries. See the [module
/// docs](self) for the design and the semantics.
#[derive(Clone, Debug)]
pub struct Index<I: IndexId = u64> {
    layout: Layout,
    scheme: Option<Options>,
    fps: Vec<u64>,
    ids: Vec<I>,
    /// Tombstone bit per slot.
    dead: Vec<u64>,
    dead_count: usize,
    map: IdMap,
    segments: Vec<Segment>,
    /// Slots `buf_start..` are the write buffer.
    buf_start: usize,
}

impl<I: IndexId> Index<I> {
    /// An empty index.
    pub fn new(layout: Layout) -> Index<I> {
        Index {
            layout,
            scheme: None,
            fps: Vec::new(),
            ids: Vec::new(),
            dead: Vec::new(),
            dead_count: 0,
            map: IdMap::default(),
            segments: Vec::new(),
            buf_start: 0,
        }
    }

    /// Bulk build: takes all entries, sorts once (counting sort per table). Duplicate ids
    /// are an error ([`Error::DuplicateId`]).
    ///
    /// ```
    /// use simhash_wasm::index::{Index, Layout};
    /// let index = Index::build(Layout::default_for_k(3)?, vec![(7u64, 0u64), (8, 1), (9, u64::MAX)])?;
    /// assert_eq!(index.len(), 3);
    /// let pairs = index.self_join();
    /// assert_eq!((pairs[0].a, pairs[0].b, pairs[0].distance), (7, 8, 1));
    /// assert!(Index::build(Layout::default_for_k(3)?, vec![(1u64, 0u64), (1, 5)]).is_err());
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn build(layout: Layout, entries: impl IntoIterator<Item = (I, u64)>) -> Result<Index<I>> {
        let mut index = Index::new(layout);
        for (id, fp) in entries {
            if index.fps.len() >= MAX_LEN {
                return Err(too_many());
            }
            index.ids.push(id);
            index.fps.push(fp);
        }
        index.dead = vec![0; index.fps.len().div_ceil(64)];
        index.reorganise(true)?;
        Ok(index)
    }

    /// Bulk build from parallel slices (for bindings).
    pub fn build_from_slices(layout: Layout, ids: &[I], fps: &[u64]) -> Result<Index<I>> {
        if ids.len() != fps.len() {
            return Err(Error::option(
                "fps",
                fps.len(),
                format!("one fingerprint per id ({} ids)", ids.len()),
            ));
        }
        Index::build(layout, ids.iter().cloned().zip(fps.iter().copied()))
    }

    /// The layout (or probing strategy) the index was made with.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The fingerprint scheme the entries were made with, if the owner recorded one. The
    /// index only carries it (snapshots store it to refuse mixing schemes).
    pub fn scheme(&self) -> Option<Options> {
        self.scheme
    }

    /// Records the fingerprint scheme; see [`Index::scheme`].
    pub fn set_scheme(&mut self, scheme: Option<Options>) {
        self.scheme = scheme;
    }

    /// Live entries.
    pub fn len(&self) -> usize {
        self.fps.len() - self.dead_count
    }

    /// `true` when no entry is live.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The live entries, in storage order: insertion order until the index reorganises
    /// itself (bulk build, [`Index::compact`], and the automatic compactions of online
    /// inserts and removes reorder it by the first table's key).
    pub fn iter(&self) -> impl Iterator<Item = (&I, u64)> + '_ {
        (0..self.fps.len()).filter(|&s| !self.is_dead(s)).map(|s| (&self.ids[s], self.fps[s]))
    }

    /// The fingerprint stored under `id`.
    pub fn get(&self, id: &I) -> Option<u64> {
        self.map.find(id, &self.ids).map(|(_, s)| self.fps[s as usize])
    }

    /// `true` when `id` is stored.
    pub fn contains(&self, id: &I) -> bool {
        self.map.find(id, &self.ids).is_some()
    }

    #[inline(always)]
    fn is_dead(&self, s: usize) -> bool {
        self.dead[s >> 6] >> (s & 63) & 1 == 1
    }

    /// Inserts one entry. An id that is already present is an error
    /// ([`Error::DuplicateId`]), and the index is unchanged: remove it first to update.
    pub fn insert(&mut self, id: I, fp: u64) -> Result<()> {
        if self.map.find(&id, &self.ids).is_some() {
            return Err(Error::DuplicateId { id: id.to_string() });
        }
        self.push_new(id, fp)?;
        if self.fps.len() - self.buf_start >= BUFFER_LIMIT {
            self.flush();
        }
        Ok(())
    }

    /// Appends an entry whose id is known to be absent.
    fn push_new(&mut self, id: I, fp: u64) -> Result<()> {
        if self.fps.len() >= MAX_LEN {
            return Err(too_many());
        }
        if self.map.needs_grow() {
            let n = self.map.len + 1;
            let live: Vec<u32> = (0..self.fps.len() as u32).filter(|&s| !self.is_dead(s as usize)).collect();
            self.map.rebuild(live.into_iter(), n * 2, &self.ids, false);
        }
        let slot = self.fps.len() as u32;
        let h = id.hash64();
        self.fps.push(fp);
        self.ids.push(id);
        if self.dead.len() * 64 < self.fps.len() {
            self.dead.push(0);
        }
        self.map.put(slot, h);
        Ok(())
    }

    /// Inserts many entries (ids must be new and distinct). On an error nothing is
    /// inserted. Into an empty index this is a bulk build.
    pub fn extend(&mut self, entries: impl IntoIterator<Item = (I, u64)>) -> Result<()> {
        if self.fps.is_empty() {
            let layout = self.layout.clone();
            let scheme = self.scheme;
            let mut built = Index::build(layout, entries)?;
            built.scheme = scheme;
            *self = built;
            return Ok(());
        }
        let before = self.fps.len();
        let before_buf = self.buf_start;
        let mut failure = None;
        for (id, fp) in entries {
            if self.map.find(&id, &self.ids).is_some() {
                failure = Some(Error::DuplicateId { id: id.to_string() });
                break;
            }
            if let Err(e) = self.push_new(id, fp) {
                failure = Some(e);
                break;
            }
        }
        if let Some(e) = failure {
            // roll back: drop the new slots from the map, then from the arrays
            for s in (before..self.fps.len()).rev() {
                if let Some((i, _)) = self.map.find(&self.ids[s], &self.ids) {
                    self.map.remove_at(i, &self.ids);
                }
            }
            self.fps.truncate(before);
            self.ids.truncate(before);
            self.dead.truncate(before.div_ceil(64));
            if !before.is_multiple_of(64) {
                if let Some(last) = self.dead.last_mut() {
                    *last &= low_bits((before % 64) as u32);
                }
            }
            self.buf_start = before_buf;
            return Err(e);
        }
        if self.fps.len() - self.buf_start >= BUFFER_LIMIT {
            self.flush();
        }
        Ok(())
    }

    /// Removes `id` and returns its fingerprint; an absent id is [`Error::UnknownId`].
    pub fn remove(&mut self, id: &I) -> Result<u64> {
        let Some((i, s)) = self.map.find(id, &self.ids) else {
            return Err(Error::UnknownId { id: id.to_string() });
        };
        self.map.remove_at(i, &self.ids);
        let s = s as usize;
        self.dead[s >> 6] |= 1 << (s & 63);
        self.dead_count += 1;
        let fp = self.fps[s];
        if self.dead_count >= 64 && self.dead_count * 4 > self.fps.len() {
            self.compact();
        }
        Ok(fp)
    }

    /// Reports the entries within `k` of `fp`, then inserts `(id, fp)`: the crawler's
    /// step. The result never contains `id` itself. A duplicate id is an error and then
    /// nothing is inserted or reported.
    ///
    /// ```
    /// use simhash_wasm::index::{Index, Layout, Match};
    /// let mut index: Index<String> = Index::new(Layout::default_for_k(3)?);
    /// assert!(index.query_and_insert("a.example/1".into(), 0xF0)?.is_empty());
    /// assert_eq!(
    ///     index.query_and_insert("b.example/1".into(), 0xF1)?,
    ///     vec![Match { id: "a.example/1".to_string(), distance: 1 }]
    /// );
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn query_and_insert(&mut self, id: I, fp: u64) -> Result<Vec<Match<I>>> {
        if self.map.find(&id, &self.ids).is_some() {
            return Err(Error::DuplicateId { id: id.to_string() });
        }
        let found = self.query(fp);
        self.insert(id, fp)?;
        Ok(found)
    }

    /// Turns the write buffer into a segment and merges segments of similar size.
    fn flush(&mut self) {
        let end = self.fps.len();
        if self.buf_start < end {
            let members: Vec<u32> =
                (self.buf_start as u32..end as u32).filter(|&s| !self.is_dead(s as usize)).collect();
            let seg =
                Segment::with_lists(&self.layout, &members, &self.fps, self.buf_start as u32, end as u32);
            self.segments.push(seg);
            self.buf_start = end;
        }
        while self.segments.len() >= 2 {
            let l = self.segments.len();
            if self.segments[l - 1].n * 2 < self.segments[l - 2].n {
                break;
            }
            if l == 2 {
                // the merge would rewrite everything: reorganise instead, into the compact
                // ordered form a bulk build makes (geometrically rare, so amortised O(1))
                self.compact();
                return;
            }
            let (start, end) = (self.segments[l - 2].start, self.segments[l - 1].end);
            self.segments.truncate(l - 2);
            let members: Vec<u32> = (start..end).filter(|&s| !self.is_dead(s as usize)).collect();
            let seg = Segment::with_lists(&self.layout, &members, &self.fps, start, end);
            self.segments.push(seg);
        }
    }

    /// Drops tombstones and rebuilds everything as one segment with the slots in the first
    /// table's order (the layout a bulk build makes: least memory, fastest queries).
    pub fn compact(&mut self) {
        // cannot fail: ids are already distinct
        let _ = self.reorganise(false);
    }

    fn reorganise(&mut self, check_ids: bool) -> Result<()> {
        if self.dead_count > 0 {
            let mut i = 0;
            let dead = &self.dead;
            self.fps.retain(|_| {
                let keep = dead[i >> 6] >> (i & 63) & 1 == 0;
                i += 1;
                keep
            });
            let mut i = 0;
            self.ids.retain(|_| {
                let keep = dead[i >> 6] >> (i & 63) & 1 == 0;
                i += 1;
                keep
            });
            self.dead_count = 0;
        }
        let n = self.fps.len();
        self.dead = vec![0; n.div_ceil(64)];
        self.segments.clear();
        let exts = Segment::extracts(&self.layout, n);
        let mut tables = Vec::with_capacity(exts.len());
        for (t, ext) in exts.into_iter().enumerate() {
            if t == 0 {
                let (dir, perm) = bucket_sort(&ext, 0..n as u32, n, &self.fps, None);
                self.fps = perm.iter().map(|&p| self.fps[p as usize]).collect();
                // moved, not cloned; a gather with independent loads, unlike swapping cycles
                let mut old: Vec<Option<I>> = std::mem::take(&mut self.ids).into_iter().map(Some).collect();
                self.ids = perm.iter().filter_map(|&p| old[p as usize].take()).collect();
                tables.push(Table { ext, dir, list: None, slot_bits: 0, base: 0 });
            } else {
                let slot_bits = slot_bits_for(0, n as u32);
                let (dir, list) = bucket_sort(&ext, 0..n as u32, n, &self.fps, Some((0, slot_bits)));
                tables.push(Table { ext, dir, list: Some(list), slot_bits, base: 0 });
            }
        }
        if n > 0 {
            let masks = tables.iter().map(|t| t.ext.mask).collect();
            self.segments.push(Segment { start: 0, end: n as u32, n, tables, masks });
        }
        self.buf_start = n;
        self.fps.shrink_to_fit();
        self.ids.shrink_to_fit();
        if let Some(dup) = self.map.rebuild(0..n as u32, n, &self.ids, check_ids) {
            return Err(Error::DuplicateId { id: self.ids[dup as usize].to_string() });
        }
        Ok(())
    }

    // -------------------------------------------------------------------------------
    // Queries
    // -------------------------------------------------------------------------------

    /// Every live entry within the layout's `k` bits of `fp`: each id once, sorted by
    /// distance, then id.
    pub fn query(&self, fp: u64) -> Vec<Match<I>> {
        let mut scratch = Scratch::default();
        std::hint::black_box(self.warm(&[fp], true));
        self.query_slots(fp, self.layout.k, &mut scratch);
        self.to_matches(&mut scratch.out)
    }

    /// Like [`Index::query`] with a smaller radius `k ≤ layout k`; a larger `k` is an
    /// error (the layout cannot guarantee it).
    ///
    /// ```
    /// use simhash_wasm::index::{Index, Layout};
    /// let index = Index::build(Layout::default_for_k(3)?, vec![(1u64, 0u64), (2, 0b11)])?;
    /// assert_eq!(index.query_within(0, 1)?.len(), 1);
    /// assert!(index.query_within(0, 4).is_err());
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn query_within(&self, fp: u64, k: u32) -> Result<Vec<Match<I>>> {
        if k > self.layout.k {
            return Err(Error::option("k", k, format!("at most the layout's k = {}", self.layout.k)));
        }
        let mut scratch = Scratch::default();
        std::hint::black_box(self.warm(&[fp], true));
        self.query_slots(fp, k, &mut scratch);
        Ok(self.to_matches(&mut scratch.out))
    }

    /// [`Index::query`] for each fingerprint of a batch.
    pub fn query_batch(&self, fps: &[u64]) -> Vec<Vec<Match<I>>> {
        let mut outs: Vec<Vec<(u32, u32)>> = vec![Vec::new(); GROUP];
        let mut pend = Vec::new();
        let mut all = Vec::with_capacity(fps.len());
        for group in fps.chunks(GROUP) {
            self.query_group(group, self.layout.k, &mut outs, &mut pend);
            for out in outs.iter_mut().take(group.len()) {
                all.push(self.to_matches(out));
            }
        }
        all
    }

    /// [`Index::query_batch`] as three flat arrays; see [`FlatMatches`].
    ///
    /// ```
    /// use simhash_wasm::index::{Index, Layout};
    /// let index = Index::build(Layout::default_for_k(3)?, vec![(1u64, 0u64), (2, 1)])?;
    /// let flat = index.query_batch_flat(&[u64::MAX, 1]);
    /// assert_eq!(flat.queries, vec![1, 1]);
    /// assert_eq!(flat.ids, vec![2, 1]);
    /// assert_eq!(flat.distances, vec![0, 1]);
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn query_batch_flat(&self, fps: &[u64]) -> FlatMatches<I> {
        let mut out = FlatMatches { queries: Vec::new(), ids: Vec::new(), distances: Vec::new() };
        let mut outs: Vec<Vec<(u32, u32)>> = vec![Vec::new(); GROUP];
        let mut pend = Vec::new();
        for (g, group) in fps.chunks(GROUP).enumerate() {
            self.query_group(group, self.layout.k, &mut outs, &mut pend);
            for (i, found) in outs.iter_mut().take(group.len()).enumerate() {
                self.sort_slots(found);
                for &(s, d) in found.iter() {
                    out.queries.push((g * GROUP + i) as u32);
                    out.ids.push(self.ids[s as usize].clone());
                    out.distances.push(d);
                }
            }
        }
        out
    }

    /// Number of live entries within `k` of `fp`, without building the result list.
    pub fn count(&self, fp: u64) -> usize {
        let mut scratch = Scratch::default();
        self.query_slots(fp, self.layout.k, &mut scratch);
        scratch.out.len()
    }

    #[doc(hidden)]
    pub fn debug_candidates(&self, q: u64) -> Vec<usize> {
        let mut v = Vec::new();
        for seg in &self.segments {
            for table in &seg.tables {
                let b = table.ext.bucket(q);
                v.push((table.dir[b + 1] - table.dir[b]) as usize);
            }
        }
        v
    }

    fn sort_slots(&self, v: &mut [(u32, u32)]) {
        let ids = &self.ids;
        crate::sort::sort_by(v, |a, b| a.1.cmp(&b.1).then_with(|| ids[a.0 as usize].cmp(&ids[b.0 as usize])));
    }

    fn to_matches(&self, v: &mut [(u32, u32)]) -> Vec<Match<I>> {
        self.sort_slots(v);
        v.iter().map(|&(s, d)| Match { id: self.ids[s as usize].clone(), distance: d }).collect()
    }

    /// Touches the directory entries, the start of each bucket's list and filter, and
    /// the first fingerprint of each ordered bucket for a group of queries, so that their
    /// cache misses overlap instead of coming one after another inside `query_slots`.
    fn warm(&self, qs: &[u64], second_wave: bool) -> u64 {
        let mut sink = 0u64;
        if self.layout.probe {
            return sink;
        }
        for seg in &self.segments {
            for table in &seg.tables {
                for &q in qs {
                    let b = table.ext.bucket(q);
                    let lo = table.dir[b] as usize;
                    sink ^= u64::from(table.dir[b + 1]);
                    match &table.list {
                        None => sink ^= self.fps.get(table.base as usize + lo).copied().unwrap_or(0),
                        Some(list) => {
                            let hi = table.dir[b + 1] as usize;
                            sink ^= u64::from(list.get(lo).copied().unwrap_or(0));
                            sink ^= u64::from(list.get(hi.wrapping_sub(1)).copied().unwrap_or(0));
                        }
                    }
                }
            }
            if !second_wave {
                continue;
            }
            // second wave: the fingerprints of the candidates that pass the filter
            let k = self.layout.k;
            for table in &seg.tables {
                let Some(list) = &table.list else { continue };
                for &q in qs {
                    let (lo, hi) = table.bucket_range(q);
                    for s in table.fold_candidates(list, lo, hi, q, k) {
                        sink ^= self.fps[s as usize];
                    }
                }
            }
        }
        sink
    }

    /// Answers a group of at most `GROUP` queries into `outs[i]` (unsorted `(slot,
    /// distance)`), in stages so that the cache misses of different queries overlap:
    /// touch the directories and list ends of all; gather every query's candidates that
    /// pass the fold filter; then check all the gathered candidates in one flat loop.
    fn query_group(
        &self,
        qs: &[u64],
        k: u32,
        outs: &mut [Vec<(u32, u32)>],
        pend: &mut Vec<(u32, u16, u16, u16)>,
    ) {
        for out in outs.iter_mut() {
            out.clear();
        }
        if self.layout.probe || self.segments.len() > usize::from(u16::MAX) {
            let mut scratch = Scratch::default();
            for (&q, out) in qs.iter().zip(outs.iter_mut()) {
                self.query_slots(q, k, &mut scratch);
                std::mem::swap(out, &mut scratch.out);
                scratch.out.clear();
            }
            return;
        }
        std::hint::black_box(self.warm(qs, false));
        pend.clear();
        for (qi, (&q, out)) in qs.iter().zip(outs.iter_mut()).enumerate() {
            for (si, seg) in self.segments.iter().enumerate() {
                for (t, table) in seg.tables.iter().enumerate() {
                    let (lo, hi) = table.bucket_range(q);
                    match &table.list {
                        None => self.scan_run(table, lo, hi, q, k, &seg.masks[..t], out),
                        Some(list) => pend.extend(
                            table
                                .fold_candidates(list, lo, hi, q, k)
                                .map(|s| (s, qi as u16, si as u16, t as u16)),
                        ),
                    }
                }
            }
            self.scan_buffer(q, k, out);
        }
        for &(s, qi, si, t) in pend.iter() {
            let x = self.fps[s as usize] ^ qs[usize::from(qi)];
            if x.count_ones() <= k {
                let masks = &self.segments[usize::from(si)].masks[..usize::from(t)];
                self.accept(s as usize, x, masks, &mut outs[usize::from(qi)]);
            }
        }
    }

    fn scan_buffer(&self, q: u64, k: u32, out: &mut Vec<(u32, u32)>) {
        for s in self.buf_start..self.fps.len() {
            let x = self.fps[s] ^ q;
            if x.count_ones() <= k && !self.is_dead(s) {
                out.push((s as u32, x.count_ones()));
            }
        }
    }

    /// Pushes `(slot, distance)` for every live match, each slot once, unsorted.
    fn query_slots(&self, q: u64, k: u32, scratch: &mut Scratch) {
        let out = &mut scratch.out;
        if self.layout.probe {
            self.probe_rec(q, q, 0, k, out);
        } else {
            let Scratch { cand, ends, .. } = scratch;
            ends.resize(self.layout.tables(), 0);
            for seg in &self.segments {
                for (t, table) in seg.tables.iter().enumerate() {
                    ends[t] = cand.len();
                    let (lo, hi) = table.bucket_range(q);
                    let earlier = &seg.masks[..t];
                    match &table.list {
                        None => self.scan_run(table, lo, hi, q, k, earlier, out),
                        Some(list) => {
                            // Gathered first, checked below in one flat loop: the fingerprint
                            // loads are independent cache misses that the CPU overlaps.
                            cand.extend(table.fold_candidates(list, lo, hi, q, k));
                            ends[t] = cand.len();
                        }
                    }
                }
                // phase 2: one flat loop over the tables' candidates
                let mut t = 0;
                for (i, &s) in cand.iter().enumerate() {
                    let x = self.fps[s as usize] ^ q;
                    if x.count_ones() <= k {
                        while ends[t] <= i {
                            t += 1;
                        }
                        self.accept(s as usize, x, &seg.masks[..t], out);
                    }
                }
                cand.clear();
            }
        }
        self.scan_buffer(q, k, out);
    }

    /// Checks bucket `lo..hi` of a table with no list, whose fingerprints lie contiguous
    /// in slot order.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn scan_run(
        &self,
        table: &Table,
        lo: usize,
        hi: usize,
        q: u64,
        k: u32,
        earlier: &[u64],
        out: &mut Vec<(u32, u32)>,
    ) {
        let base = table.base as usize + lo;
        for (i, &f) in self.fps[base..table.base as usize + hi].iter().enumerate() {
            let x = f ^ q;
            if x.count_ones() <= k {
                self.accept(base + i, x, earlier, out);
            }
        }
    }

    #[inline(always)]
    fn accept(&self, s: usize, x: u64, earlier: &[u64], out: &mut Vec<(u32, u32)>) {
        if earlier.iter().all(|&m| x & m != 0) && !self.is_dead(s) {
            out.push((s as u32, x.count_ones()));
        }
    }

    /// Probing: looks up `v` and every variant of it that flips `left` more bits at
    /// positions ≥ `from`.
    fn probe_rec(&self, q: u64, v: u64, from: u32, left: u32, out: &mut Vec<(u32, u32)>) {
        self.probe_exact(q, v, out);
        if left == 0 {
            return;
        }
        for bit in from..64 {
            self.probe_rec(q, v ^ (1u64 << bit), bit + 1, left - 1, out);
        }
    }

    #[inline]
    fn probe_exact(&self, q: u64, v: u64, out: &mut Vec<(u32, u32)>) {
        for seg in &self.segments {
            let table = &seg.tables[0];
            let (lo, hi) = table.bucket_range(v);
            if lo == hi {
                continue;
            }
            let mut check = |s: usize| {
                if self.fps[s] == v && !self.is_dead(s) {
                    out.push((s as u32, (v ^ q).count_ones()));
                }
            };
            match &table.list {
                None => (table.base as usize + lo..table.base as usize + hi).for_each(&mut check),
                Some(list) => {
                    let smask = low_bits(table.slot_bits) as u32;
                    list[lo..hi].iter().for_each(|&e| check((table.base + (e & smask)) as usize))
                }
            }
        }
    }

    // -------------------------------------------------------------------------------
    // Self-join and clusters
    // -------------------------------------------------------------------------------

    /// All unordered pairs of live ids within `k` of each other, each once, `a < b`,
    /// sorted by distance, then `a`, then `b`. Bucket by bucket, so far faster than one
    /// query per entry. (A probing index uses temporary pigeonhole tables of
    /// [`Layout::default_for_k`] here; probing every variant of every entry would be
    /// N × 43,745 lookups for k = 3.)
    pub fn self_join(&self) -> Vec<Pair<I>> {
        let mut pairs: Vec<Pair<I>> = self
            .join_slots()
            .into_iter()
            .map(|(x, y, d)| {
                let (a, b) = (&self.ids[x as usize], &self.ids[y as usize]);
                let (a, b) = if a < b { (a, b) } else { (b, a) };
                Pair { a: a.clone(), b: b.clone(), distance: d }
            })
            .collect();
        crate::sort::sort_by(&mut pairs, |p, q| {
            p.distance.cmp(&q.distance).then_with(|| p.a.cmp(&q.a)).then_with(|| p.b.cmp(&q.b))
        });
        pairs
    }

    /// Connected components of the "within k" graph (union-find over the self-join):
    /// groups of at least two ids (**singletons are omitted**), each sorted ascending,
    /// groups ordered by their smallest id.
    ///
    /// ```
    /// use simhash_wasm::index::{Index, Layout};
    /// // 0 and 0b111 are 3 apart, 0b111 and 0b111111 are 3 apart: one chain, one cluster.
    /// let index = Index::build(
    ///     Layout::default_for_k(3)?,
    ///     vec![(5u64, 0u64), (3, 0b111), (9, 0b111111), (1, u64::MAX)],
    /// )?;
    /// assert_eq!(index.clusters(), vec![vec![3, 5, 9]]);
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn clusters(&self) -> Vec<Vec<I>> {
        self.clusters_where(|_, _, _| true).0
    }

    /// Like [`Index::clusters`], over only the pairs within k that `keep(a, b, distance)`
    /// accepts (for example, pairs whose texts pass an exact similarity check). Also
    /// returns the kept pairs, `a < b`, sorted by (a, b).
    pub fn clusters_where(&self, mut keep: impl FnMut(&I, &I, u32) -> bool) -> (Vec<Vec<I>>, Vec<Pair<I>>) {
        let mut pairs = self.join_slots();
        pairs.retain(|&(x, y, d)| keep(&self.ids[x as usize], &self.ids[y as usize], d));
        let n = self.fps.len();
        let mut parent: Vec<u32> = (0..n as u32).collect();
        fn find(parent: &mut [u32], mut x: u32) -> u32 {
            while parent[x as usize] != x {
                let p = parent[x as usize];
                parent[x as usize] = parent[p as usize];
                x = p;
            }
            x
        }
        let mut touched = vec![false; n];
        for &(x, y, _) in &pairs {
            let (rx, ry) = (find(&mut parent, x), find(&mut parent, y));
            if rx != ry {
                let (lo, hi) = if rx < ry { (rx, ry) } else { (ry, rx) };
                parent[hi as usize] = lo;
            }
            touched[x as usize] = true;
            touched[y as usize] = true;
        }
        // (root, slot) of every slot in a kept pair, as one u64 (root high) so that
        // sorting them (the crate's one `[u64]` sort) groups them by root.
        let mut by_root: Vec<u64> = (0..n as u32)
            .filter(|&s| touched[s as usize])
            .map(|s| u64::from(find(&mut parent, s)) << 32 | u64::from(s))
            .collect();
        by_root.sort_unstable();
        let mut groups: Vec<Vec<I>> = Vec::new();
        let mut i = 0;
        while i < by_root.len() {
            let mut j = i;
            let mut g = Vec::new();
            while j < by_root.len() && by_root[j] >> 32 == by_root[i] >> 32 {
                g.push(self.ids[(by_root[j] & 0xFFFF_FFFF) as usize].clone());
                j += 1;
            }
            crate::sort::sort(&mut g);
            groups.push(g);
            i = j;
        }
        crate::sort::sort_by(&mut groups, |a, b| a.first().cmp(&b.first()));
        let mut kept: Vec<Pair<I>> = pairs
            .into_iter()
            .map(|(x, y, distance)| {
                let (a, b) = (&self.ids[x as usize], &self.ids[y as usize]);
                let (a, b) = if a <= b { (a.clone(), b.clone()) } else { (b.clone(), a.clone()) };
                Pair { a, b, distance }
            })
            .collect();
        crate::sort::sort_by(&mut kept, |p, q| (&p.a, &p.b).cmp(&(&q.a, &q.b)));
        (groups, kept)
    }

    /// `(slot, slot, distance)` for every pair within k, each once.
    fn join_slots(&self) -> Vec<(u32, u32, u32)> {
        let k = self.layout.k;
        let clean = self.segments.len() <= 1 && self.buf_start == self.fps.len() && self.dead_count == 0;
        let temp;
        let seg = if clean && !self.layout.probe {
            match self.segments.first() {
                Some(s) => s,
                None => return Vec::new(),
            }
        } else {
            let layout = if self.layout.probe {
                match Layout::default_for_k(k) {
                    Ok(l) => l,
                    Err(_) => return Vec::new(), // unreachable: probing k ≤ 4
                }
            } else {
                self.layout.clone()
            };
            let live: Vec<u32> = (0..self.fps.len() as u32).filter(|&s| !self.is_dead(s as usize)).collect();
            temp = Segment::with_lists(&layout, &live, &self.fps, 0, self.fps.len() as u32);
            &temp
        };
        let mut out = Vec::new();
        let mut bf: Vec<u64> = Vec::new();
        let mut bs: Vec<u32> = Vec::new();
        for (t, table) in seg.tables.iter().enumerate() {
            let earlier = &seg.masks[..t];
            for b in 0..table.dir.len() - 1 {
                let (lo, hi) = (table.dir[b] as usize, table.dir[b + 1] as usize);
                if hi - lo < 2 {
                    continue;
                }
                bs.clear();
                match &table.list {
                    None => bs.extend(table.base + lo as u32..table.base + hi as u32),
                    Some(list) => {
                        let smask = low_bits(table.slot_bits) as u32;
                        bs.extend(list[lo..hi].iter().map(|&e| table.base + (e & smask)))
                    }
                }
                bf.clear();
                bf.extend(bs.iter().map(|&s| self.fps[s as usize]));
                for i in 0..bf.len() {
                    let fi = bf[i];
                    for j in i + 1..bf.len() {
                        let x = fi ^ bf[j];
                        if x.count_ones() <= k && earlier.iter().all(|&m| x & m != 0) {
                            out.push((bs[i], bs[j], x.count_ones()));
                        }
                    }
                }
            }
        }
        out
    }

    // -------------------------------------------------------------------------------
    // Stats
    // -------------------------------------------------------------------------------

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

fn too_many() -> Error {
    Error::option("index size", MAX_LEN + 1, format!("at most {MAX_LEN} fingerprints in one index"))
}

// ---------------------------------------------------------------------------------------
// The oracle
// ---------------------------------------------------------------------------------------

/// The brute-force oracle: linear scans over `(id, fingerprint)` entries with distinct
/// ids, with the same result order as [`Index`]. For tests and small sets.
pub mod brute_force {
    use super::{IndexId, Match, Pair};

    /// Every entry within `k` of `fp`, sorted by distance, then id.
    ///
    /// ```
    /// use simhash_wasm::index::{brute_force, Match};
    /// let entries = vec![(2u64, 0b1u64), (1, 0b0), (3, 0b1111)];
    /// assert_eq!(
    ///     brute_force::query(&entries, 0, 1),
    ///     vec![Match { id: 1, distance: 0 }, Match { id: 2, distance: 1 }]
    /// );
    /// ```
    pub fn query<I: IndexId>(entries: &[(I, u64)], fp: u64, k: u32) -> Vec<Match<I>> {
        let mut v: Vec<Match<I>> = entries
            .iter()
            .filter(|(_, f)| (f ^ fp).count_ones() <= k)
            .map(|(id, f)| Match { id: id.clone(), distance: (f ^ fp).count_ones() })
            .collect();
        v.sort_unstable_by(|a, b| a.distance.cmp(&b.distance).then_with(|| a.id.cmp(&b.id)));
        v
    }

    /// Every unordered pair within `k`, `a < b`, sorted by distance, `a`, `b`.
    pub fn self_join<I: IndexId>(entries: &[(I, u64)], k: u32) -> Vec<Pair<I>> {
        let mut v = Vec::new();
        for (i, (x, fx)) in entries.iter().enumerate() {
            for (y, fy) in &entries[i + 1..] {
                let d = (fx ^ fy).count_ones();
                if d <= k {
                    let (a, b) = if x < y { (x, y) } else { (y, x) };
                    v.push(Pair { a: a.clone(), b: b.clone(), distance: d });
                }
            }
        }
        v.sort_unstable_by(|p, q| {
            p.distance.cmp(&q.distance).then_with(|| p.a.cmp(&q.a)).then_with(|| p.b.cmp(&q.b))
        });
        v
    }

    /// Connected components of size ≥ 2 of the within-`k` graph, each sorted, ordered by
    /// smallest id.
    pub fn clusters<I: IndexId>(entries: &[(I, u64)], k: u32) -> Vec<Vec<I>> {
        let n = entries.len();
        let mut comp: Vec<usize> = (0..n).collect();
        fn root(comp: &mut [usize], mut x: usize) -> usize {
            while comp[x] != x {
                x = comp[x];
            }
            x
        }
        for i in 0..n {
            for j in i + 1..n {
                if (entries[i].1 ^ entries[j].1).count_ones() <= k {
                    let (a, b) = (root(&mut comp, i), root(&mut comp, j));
                    comp[a.max(b)] = a.min(b);
                }
            }
        }
        for i in 0..n {
            comp[i] = root(&mut comp, i);
        }
        let mut groups: Vec<Vec<I>> = Vec::new();
        for c in 0..n {
            let mut g: Vec<I> = (0..n).filter(|&i| comp[i] == c).map(|i| entries[i].0.clone()).collect();
            if g.len() >= 2 {
                g.sort_unstable();
                groups.push(g);
            }
        }
        groups.sort_unstable_by(|a, b| a.first().cmp(&b.first()));
        groups
    }
}
