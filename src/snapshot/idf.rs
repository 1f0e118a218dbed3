//! IDF tables: the `IDF\0` payload.
//!
//! | size | field |
//! | --- | --- |
//! | 8 | documents learnt from, `u64` |
//! | 8 | `F`, length of the feature set in bytes, `u64` |
//! | `F` | the distinct feature hashes, strictly ascending, as a [compact set](super::compact) |
//! | rest | one varint document frequency (≤ `u32::MAX`) per feature, in the same order; must end exactly at the payload's end |

use super::bytes::{Reader, Writer};
use super::{open, CompactSet, Kind, DEFAULT_BLOCK_SIZE};
use crate::error::{Error, Result};
use crate::weight::IdfTable;

impl IdfTable {
    /// The table in an envelope of kind `IDF` (see the [`snapshot`](crate::snapshot)
    /// module for the layout). Deterministic: equal tables give equal bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        // Hashes are distinct (map keys), so sorting by hash alone is the full order.
        let mut entries: Vec<(u64, u32)> = self.df.iter().map(|(&h, &d)| (h, d)).collect();
        crate::sort::sort_by_u64_key(&mut entries, |e| e.0, |_, _| std::cmp::Ordering::Equal);
        let hashes: Vec<u64> = entries.iter().map(|e| e.0).collect();
        let set = CompactSet::encode(&hashes, DEFAULT_BLOCK_SIZE);
        let mut w = Writer::new();
        w.u64(self.docs);
        w.section(&set.body());
        for &(_, d) in &entries {
            w.varint(u64::from(d));
        }
        w.seal(Kind::Idf)
    }

    /// Loads a table written by [`to_bytes`](Self::to_bytes).
    pub fn from_bytes(bytes: &[u8]) -> Result<IdfTable> {
        let (_, payload) = open(Kind::Idf, bytes)?;
        let mut r = Reader::payload(payload, Kind::Idf);
        let docs = r.u64("document count")?;
        let (at, body) = r.section("feature set")?;
        let set = CompactSet::read_body(body, at, r.what())?;
        // Each df takes at least one byte: refuse a count the rest cannot hold before
        // allocating for it.
        if set.n > r.remaining() as u64 {
            return Err(r.err(format!(
                "{} features need as many df values, but only {} bytes are left",
                set.n,
                r.remaining()
            )));
        }
        let mut df = std::collections::HashMap::with_capacity(set.len());
        let mut prev: Option<u64> = None;
        for h in set.iter() {
            if prev == Some(h) {
                return Err(Error::corrupt(r.what(), at, format!("feature hash {h:#018x} appears twice")));
            }
            prev = Some(h);
            let v = r.varint("document frequency")?;
            let d = u32::try_from(v)
                .map_err(|_| r.err(format!("document frequency {v} exceeds {}", u32::MAX)))?;
            df.insert(h, d);
        }
        r.finish("the document frequencies")?;
        Ok(IdfTable { docs, df })
    }
}
