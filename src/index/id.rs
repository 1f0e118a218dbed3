//! Ids: what an index can key its entries on ([`IndexId`]), and the id hashes that feed
//! the id → slot map.

use std::fmt;
use std::hash::{Hash, Hasher};

use crate::hash::mix;

/// What an index id can be: `u64` (document numbers) and `String` (URLs) are built in.
///
/// `hash64` feeds the id → slot map; the default uses the standard library's hasher and
/// can be overridden for speed. `heap_bytes` is counted by [`Index::stats`](super::Index::stats).
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
    /// The id as an error shows it ([`Error::DuplicateId`](crate::Error::DuplicateId)):
    /// numbers as they are, strings quoted.
    fn shown(&self) -> String {
        self.to_string()
    }
}

impl IndexId for u64 {
    #[inline]
    fn hash64(&self) -> u64 {
        mix(*self)
    }
}

impl IndexId for u32 {
    #[inline]
    fn hash64(&self) -> u64 {
        mix(u64::from(*self))
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
    fn shown(&self) -> String {
        crate::error::quoted(self)
    }
}
