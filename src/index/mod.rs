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
//!
//! # The parts
//!
//! | file | what it holds |
//! | --- | --- |
//! | `mod.rs` | the [`Index`] type, its construction and accessors |
//! | `id.rs` | [`IndexId`]: what an id can be, and its hash |
//! | `results.rs` | [`Match`], [`Pair`], [`FlatMatches`] |
//! | `layout.rs` | [`Layout`]: blocks and tables, validation, the cost model |
//! | `table.rs` | tables and segments: bucket extraction, directories, the fold filter |
//! | `id_map.rs` | the id → slot map |
//! | `changes.rs` | inserts, removes, the write buffer, segment merges, compaction |
//! | `query.rs` | queries: single, batched, counted, probing |
//! | `join.rs` | the self-join and clusters |
//! | `stats.rs` | [`Stats`] |
//! | `brute_force.rs` | the linear-scan oracle the tests compare against |

mod changes;
mod id;
mod id_map;
pub(crate) mod join;
pub(crate) use join::clusters_of_slots;
mod layout;
mod query;
mod results;
mod stats;
mod table;

pub(crate) mod brute_force;

pub use id::IndexId;
pub(crate) use join::{join_part_kept, join_tables};
pub use layout::{Layout, DEFAULT_EXPECTED_SIZE, DEFAULT_K, MAX_K, MAX_PROBE_K, MAX_TABLES};
pub use results::{FlatMatches, Match, Pair};
pub use stats::Stats;

use crate::error::{Error, Result};
use crate::fingerprint::Options;
use id_map::IdMap;
use table::Segment;

/// Entries the write buffer holds before it becomes a segment.
const BUFFER_LIMIT: usize = 256;
/// Most fingerprints one index holds (slots are `u32`).
pub const MAX_LEN: usize = (u32::MAX - 1) as usize;

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

    /// Bulk build from owned columns: `ids[i]` is stored with `fps[i]`, and the vectors
    /// become the index's own storage (no copy). Fastest when `fps` is ascending, as in a
    /// snapshot: that is already the first table's order, so it is not sorted again.
    pub fn from_columns(layout: Layout, ids: Vec<I>, fps: Vec<u64>) -> Result<Index<I>> {
        if ids.len() != fps.len() {
            return Err(Error::option(
                "fps",
                fps.len(),
                format!("one fingerprint per id ({} ids)", ids.len()),
            ));
        }
        if fps.len() > MAX_LEN {
            return Err(too_many());
        }
        let mut index = Index::new(layout);
        index.dead = vec![0; fps.len().div_ceil(64)];
        index.ids = ids;
        index.fps = fps;
        index.reorganise(true)?;
        Ok(index)
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

    /// Records the fingerprint scheme; see [`Index::scheme`]. Invalid options (an n-gram
    /// size out of range) are refused, since a snapshot holding them could not be loaded.
    pub fn set_scheme(&mut self, scheme: Option<Options>) -> Result<()> {
        if let Some(o) = &scheme {
            o.validate()?;
        }
        self.scheme = scheme;
        Ok(())
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

    /// The slots that hold a live entry, in order.
    fn live_slots(&self) -> Vec<u32> {
        (0..self.fps.len() as u32).filter(|&s| !self.is_dead(s as usize)).collect()
    }
}

pub(crate) fn too_many() -> Error {
    Error::option("index size", MAX_LEN + 1, format!("at most {MAX_LEN} fingerprints in one index"))
}
