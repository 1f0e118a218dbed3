//! What queries and joins return: [`Match`], [`Pair`], and the flat batch form
//! [`FlatMatches`].

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
