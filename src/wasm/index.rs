//! `SimHashIndex`: the multi-table index, with number or string ids.
//!
//! Its snapshots (`toBytes`/`fromBytes`) and `dedup` are in `crawler.rs` (Cargo feature
//! `crawler`), or `disabled.rs` without it.

use js_sys::{Array, Object, Uint32Array};
use wasm_bindgen::prelude::*;

use super::convert::{self, layout_from, opt_string, opt_whole_option, option_object, set};
use crate::error::{quoted, Error};
use crate::index::{FlatMatches, Index, IndexId, Layout, Match, Pair};

/// The option names of `new SimHashIndex`: `k`, the layout's, and `ids` (which id kind:
/// a JS concept, so a binding one).
const OPTION_NAMES: [&[&str]; 3] = [&["k"], &Layout::OPTION_NAMES, &["ids"]];

/// The two id kinds the core index takes; which one is fixed by the `ids` option, or by
/// the first id inserted.
pub(super) enum Ids {
    Unset(Layout),
    Num(Index<u64>),
    Str(Index<String>),
}

/// Runs `$body` with `$ix` bound to whichever concrete index is inside.
macro_rules! with_index {
    ($self:expr, $ix:ident => $body:expr, unset => $unset:expr) => {
        match &$self.0 {
            Ids::Num($ix) => $body,
            Ids::Str($ix) => $body,
            Ids::Unset(_) => $unset,
        }
    };
}

/// Conversion of one id kind to and from JS values.
pub(super) trait IdJs: Sized {
    const KIND: &'static str;
    fn from_js(v: &JsValue) -> Result<Self, JsValue>;
    fn to_js(&self) -> JsValue;
}

impl IdJs for u64 {
    const KIND: &'static str = "number";
    fn from_js(v: &JsValue) -> Result<u64, JsValue> {
        match v.as_f64() {
            Some(x) if x >= 0.0 && x.fract() == 0.0 && x <= 9_007_199_254_740_991.0 => Ok(x as u64),
            _ => Err(convert::bad_argument(
                "id",
                "a non-negative safe integer, since this index holds number ids (make one with { ids: \"string\" } for strings)",
                v,
            )),
        }
    }
    fn to_js(&self) -> JsValue {
        JsValue::from_f64(*self as f64)
    }
}

impl IdJs for String {
    const KIND: &'static str = "string";
    fn from_js(v: &JsValue) -> Result<String, JsValue> {
        v.as_string().ok_or_else(|| {
            convert::bad_argument(
                "id",
                "a string, since this index holds string ids (make one with { ids: \"number\" } for numbers)",
                v,
            )
        })
    }
    fn to_js(&self) -> JsValue {
        JsValue::from_str(self)
    }
}

pub(super) fn matches_to_js<I: IndexId + IdJs>(ms: &[Match<I>]) -> JsValue {
    let out = Array::new_with_length(ms.len() as u32);
    for (i, m) in ms.iter().enumerate() {
        let o = Object::new();
        set(&o, "id", m.id.to_js());
        set(&o, "distance", m.distance);
        out.set(i as u32, o.into());
    }
    out.into()
}

fn pairs_to_js<I: IndexId + IdJs>(ps: &[Pair<I>]) -> JsValue {
    let out = Array::new_with_length(ps.len() as u32);
    for (i, p) in ps.iter().enumerate() {
        let o = Object::new();
        set(&o, "a", p.a.to_js());
        set(&o, "b", p.b.to_js());
        set(&o, "distance", p.distance);
        out.set(i as u32, o.into());
    }
    out.into()
}

fn ids_to_js<I: IndexId + IdJs>(ids: &[I]) -> Array {
    let out = Array::new_with_length(ids.len() as u32);
    for (i, id) in ids.iter().enumerate() {
        out.set(i as u32, id.to_js());
    }
    out
}

fn flat_to_js<I: IndexId + IdJs>(f: &FlatMatches<I>) -> JsValue {
    let o = Object::new();
    set(&o, "queries", Uint32Array::from(&f.queries[..]));
    set(&o, "ids", ids_to_js(&f.ids));
    set(&o, "distances", Uint32Array::from(&f.distances[..]));
    o.into()
}

fn clusters_to_js<I: IndexId + IdJs>(cs: &[Vec<I>]) -> JsValue {
    let out = Array::new_with_length(cs.len() as u32);
    for (i, c) in cs.iter().enumerate() {
        out.set(i as u32, ids_to_js(c).into());
    }
    out.into()
}

fn ids_from_js<I: IdJs>(ids: &[JsValue]) -> Result<Vec<I>, JsValue> {
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        out.push(I::from_js(id)?);
    }
    Ok(out)
}

/// The multi-table near-duplicate index (Manku et al.): every stored fingerprint within
/// `k` bits of a query, exactly.
#[wasm_bindgen(js_name = SimHashIndex)]
pub struct JsIndex(pub(super) Ids);

#[wasm_bindgen(js_class = SimHashIndex)]
impl JsIndex {
    /// `new SimHashIndex({ k: 3, layout: "default" | "auto" | "probe" | [16, 16, 16, 16], expectedSize, memoryBudget, ids: "number" | "string" })`
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<JsIndex, JsValue> {
        let o = option_object(&options, &OPTION_NAMES, "{ k: 3, layout: \"default\" }")?;
        let layout = layout_from(&o, opt_whole_option(&o, "k")?)?;
        Ok(JsIndex(match opt_string(&o, "ids")?.as_deref() {
            None => Ids::Unset(layout),
            Some("number") => Ids::Num(Index::new(layout)),
            Some("string") => Ids::Str(Index::new(layout)),
            Some(other) => {
                return Err(Error::option("ids", quoted(other), "\"number\" or \"string\"").into());
            }
        }))
    }

    /// Fixes the id kind from the first id, if not fixed yet.
    pub(super) fn settle(&mut self, first: &JsValue) {
        if let Ids::Unset(layout) = &self.0 {
            let layout = layout.clone();
            self.0 =
                if first.is_string() { Ids::Str(Index::new(layout)) } else { Ids::Num(Index::new(layout)) };
        }
    }

    /// Adds one entry. An id already present throws (`DuplicateId`): remove it first.
    pub fn insert(&mut self, id: JsValue, fp: u64) -> Result<(), JsValue> {
        self.settle(&id);
        match &mut self.0 {
            Ids::Num(ix) => Ok(ix.insert(u64::from_js(&id)?, fp)?),
            Ids::Str(ix) => Ok(ix.insert(String::from_js(&id)?, fp)?),
            Ids::Unset(_) => Ok(()),
        }
    }

    /// Adds many entries at once (sorted once): `ids[i]` gets `fingerprints[i]`.
    #[wasm_bindgen(js_name = insertBatch)]
    pub fn insert_batch(&mut self, ids: Vec<JsValue>, fingerprints: Vec<u64>) -> Result<(), JsValue> {
        if ids.len() != fingerprints.len() {
            return Err(Error::option(
                "ids",
                ids.len(),
                format!("as many ids as fingerprints ({})", fingerprints.len()),
            )
            .into());
        }
        let Some(first) = ids.first() else { return Ok(()) };
        self.settle(first);
        match &mut self.0 {
            Ids::Num(ix) => Ok(ix.extend(ids_from_js(&ids)?.into_iter().zip(fingerprints))?),
            Ids::Str(ix) => Ok(ix.extend(ids_from_js(&ids)?.into_iter().zip(fingerprints))?),
            Ids::Unset(_) => Ok(()),
        }
    }

    /// Adds `fingerprints[i]` under the number id `firstId + i`, for every `i`: a bulk load
    /// of numbered documents with no id array to cross the boundary.
    #[wasm_bindgen(js_name = insertNumbered)]
    pub fn insert_numbered(&mut self, first_id: f64, fingerprints: &[u64]) -> Result<(), JsValue> {
        let first = u64::from_js(&JsValue::from_f64(first_id))?;
        u64::from_js(&JsValue::from_f64(first_id + fingerprints.len() as f64))?;
        if let Ids::Unset(layout) = &self.0 {
            self.0 = Ids::Num(Index::new(layout.clone()));
        }
        match &mut self.0 {
            Ids::Num(ix) => Ok(ix.extend((first..).zip(fingerprints.iter().copied()))?),
            _ => Err(Error::option(
                "firstId",
                crate::error::number(first_id),
                "a string id, since this index holds string ids (insertNumbered is for number ids)",
            )
            .into()),
        }
    }

    /// Removes an entry and returns its fingerprint; an unknown id throws (`UnknownId`).
    pub fn remove(&mut self, id: JsValue) -> Result<u64, JsValue> {
        match &mut self.0 {
            Ids::Num(ix) => Ok(ix.remove(&u64::from_js(&id)?)?),
            Ids::Str(ix) => Ok(ix.remove(&String::from_js(&id)?)?),
            Ids::Unset(_) => Err(Error::UnknownId { id: convert::describe(&id) }.into()),
        }
    }

    /// `true` when the id is stored.
    pub fn has(&self, id: JsValue) -> bool {
        match &self.0 {
            Ids::Num(ix) => u64::from_js(&id).map(|i| ix.contains(&i)).unwrap_or(false),
            Ids::Str(ix) => String::from_js(&id).map(|i| ix.contains(&i)).unwrap_or(false),
            Ids::Unset(_) => false,
        }
    }

    /// Every stored entry within `k` bits (the layout's k, or a smaller one), as
    /// `[{ id, distance }]` sorted by distance, then id.
    pub fn query(&self, fp: u64, k: Option<u32>) -> Result<JsValue, JsValue> {
        with_index!(self, ix => match k {
            None => Ok(matches_to_js(&ix.query(fp))),
            Some(k) => Ok(matches_to_js(&ix.query_within(fp, k)?)),
        }, unset => Ok(Array::new().into()))
    }

    /// One result array per query fingerprint.
    #[wasm_bindgen(js_name = queryBatch)]
    pub fn query_batch(&self, fps: Vec<u64>) -> JsValue {
        with_index!(self, ix => ix.query_batch(&fps).iter().map(|m| matches_to_js(m)).collect::<Array>().into(),
            unset => fps.iter().map(|_| JsValue::from(Array::new())).collect::<Array>().into())
    }

    /// All matches of a batch as parallel arrays `{ queries: Uint32Array, ids, distances: Uint32Array }`.
    #[wasm_bindgen(js_name = queryBatchFlat)]
    pub fn query_batch_flat(&self, fps: Vec<u64>) -> JsValue {
        with_index!(self, ix => flat_to_js(&ix.query_batch_flat(&fps)), unset => flat_to_js::<u64>(&FlatMatches::default()))
    }

    /// Reports the matches of `fingerprint`, then inserts it under `id` (one call).
    #[wasm_bindgen(js_name = queryAndInsert)]
    pub fn query_and_insert(&mut self, id: JsValue, fp: u64) -> Result<JsValue, JsValue> {
        self.settle(&id);
        match &mut self.0 {
            Ids::Num(ix) => Ok(matches_to_js(&ix.query_and_insert(u64::from_js(&id)?, fp)?)),
            Ids::Str(ix) => Ok(matches_to_js(&ix.query_and_insert(String::from_js(&id)?, fp)?)),
            Ids::Unset(_) => Ok(Array::new().into()),
        }
    }

    /// Every unordered pair of stored ids within `k` bits: `[{ a, b, distance }]`.
    #[wasm_bindgen(js_name = selfJoin)]
    pub fn self_join(&self) -> JsValue {
        with_index!(self, ix => pairs_to_js(&ix.self_join()), unset => Array::new().into())
    }

    /// Groups of ids connected by within-`k` links (connected components, 2+ members).
    pub fn clusters(&self) -> JsValue {
        with_index!(self, ix => clusters_to_js(&ix.clusters()), unset => Array::new().into())
    }

    /// The fingerprint stored under `id`, or `undefined`.
    pub fn get(&self, id: JsValue) -> Option<u64> {
        match &self.0 {
            Ids::Num(ix) => u64::from_js(&id).ok().and_then(|i| ix.get(&i)),
            Ids::Str(ix) => String::from_js(&id).ok().and_then(|i| ix.get(&i)),
            Ids::Unset(_) => None,
        }
    }

    /// Number of stored entries.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> f64 {
        with_index!(self, ix => ix.len() as f64, unset => 0.0)
    }

    /// `"number"`, `"string"`, or `undefined` before the first insert.
    #[wasm_bindgen(getter, js_name = idKind)]
    pub fn id_kind(&self) -> Option<String> {
        match &self.0 {
            Ids::Num(_) => Some(u64::KIND.into()),
            Ids::Str(_) => Some(String::KIND.into()),
            Ids::Unset(_) => None,
        }
    }

    /// Layout, costs and expectations: `{ k, widths, tables, keyBits, expectedCandidates, bytes, bytesPerFp, ... }`.
    pub fn stats(&self) -> JsValue {
        let (layout, st) = match &self.0 {
            Ids::Num(ix) => (ix.layout(), Some(ix.stats())),
            Ids::Str(ix) => (ix.layout(), Some(ix.stats())),
            Ids::Unset(l) => (l, None),
        };
        let st = st.unwrap_or_else(|| Index::<u64>::new(layout.clone()).stats());
        let nums = |xs: &[u32]| xs.iter().map(|&x| JsValue::from(x)).collect::<Array>();
        let o = Object::new();
        set(&o, "layout", layout.to_string());
        set(&o, "k", layout.k());
        set(&o, "widths", nums(layout.widths()));
        set(&o, "probe", layout.is_probe());
        set(&o, "size", st.len as f64);
        set(&o, "tables", st.tables as u32);
        set(
            &o,
            "tableBlocks",
            layout.table_blocks().iter().map(|b| JsValue::from(nums(b))).collect::<Array>(),
        );
        set(&o, "keyBits", nums(&st.key_bits));
        set(
            &o,
            "expectedCandidatesPerTable",
            st.expected_candidates_per_table.iter().map(|&x| JsValue::from(x)).collect::<Array>(),
        );
        set(&o, "expectedCandidates", st.expected_candidates);
        set(&o, "probesPerQuery", st.probes_per_query as f64);
        set(&o, "bytes", st.bytes as f64);
        set(&o, "bytesPerFp", st.bytes_per_fp);
        set(&o, "segments", st.segments as u32);
        set(&o, "buffered", st.buffered as f64);
        set(&o, "tombstones", st.tombstones as f64);
        o.into()
    }
}

// ---- snapshots and dedup (Cargo feature `crawler`; without it they throw) ----------------

#[cfg(feature = "crawler")]
mod crawler {
    use wasm_bindgen::prelude::*;

    use super::super::convert::option_object;
    use super::super::dedup::{dedup_options_from, docs_from, known, report_to_js};
    use super::{Ids, JsIndex};
    use crate::dedup::{dedup_into, dedup_into_known, DedupOptions};
    use crate::error::Error;
    use crate::fingerprint::Options;
    use crate::index::Index;
    use crate::snapshot::{peek_id_type, SnapshotId};

    #[wasm_bindgen(js_class = SimHashIndex)]
    impl JsIndex {
        /// The index as a compact, versioned, checksummed snapshot (see `src/snapshot/`).
        /// An index with no entries yet (and no id kind) is saved as a numeric one.
        #[wasm_bindgen(js_name = toBytes)]
        pub fn to_bytes(&self) -> Vec<u8> {
            match &self.0 {
                Ids::Num(ix) => ix.to_bytes(),
                Ids::Str(ix) => ix.to_bytes(),
                Ids::Unset(layout) => Index::<u64>::new(layout.clone()).to_bytes(),
            }
        }

        /// Loads a snapshot made by `toBytes`; damaged, truncated or foreign bytes throw.
        #[wasm_bindgen(js_name = fromBytes)]
        pub fn from_bytes(bytes: Vec<u8>) -> Result<JsIndex, JsValue> {
            JsIndex::load(bytes)
        }

        /// Loads a snapshot from a buffer in wasm memory (see `SnapshotBuffer`), which it
        /// consumes: the Node file helper `loadIndex` reads the file straight into one, so the
        /// bytes are neither held in a JS buffer nor copied. Not part of the public API.
        #[wasm_bindgen(js_name = __fromBuffer, skip_typescript)]
        pub fn from_buffer(buffer: SnapshotBuffer) -> Result<JsIndex, JsValue> {
            JsIndex::load(buffer.0)
        }

        /// `dedup` into this index (string ids): adds the documents whose id it does not hold
        /// yet, then returns the clusters of everything in it. Its layout decides `k`; options
        /// `{ verify, shingle, html, ...hasher options }`.
        pub fn dedup(
            &mut self,
            ids: Vec<String>,
            texts: Vec<String>,
            options: JsValue,
        ) -> Result<JsValue, JsValue> {
            let docs = docs_from(ids, texts)?;
            let o =
                option_object(&options, &[&Options::NAMES, &DedupOptions::INTO_NAMES], "{ verify: false }")?;
            let opts = dedup_options_from(&o)?;
            let report = dedup_into(self.string_index()?, &docs, &opts)?;
            Ok(report_to_js(&report))
        }
    }

    impl JsIndex {
        /// Both loads: the snapshot's id kind picks the index type, and the owned bytes are
        /// freed once decoded, before the tables are built (`Index::from_vec`).
        fn load(bytes: Vec<u8>) -> Result<JsIndex, JsValue> {
            let tag = peek_id_type(&bytes)?;
            Ok(JsIndex(if tag == <String as SnapshotId>::TYPE_TAG {
                Ids::Str(Index::from_vec(bytes)?)
            } else {
                Ids::Num(Index::from_vec(bytes)?)
            }))
        }
    }

    /// Bytes in wasm memory that JS fills in place (through a view at [`SnapshotBuffer::ptr`]
    /// of the module's memory), for loading a snapshot file without a JS-side copy. Not part
    /// of the public API.
    #[wasm_bindgen(js_name = __SnapshotBuffer, skip_typescript)]
    pub struct SnapshotBuffer(Vec<u8>);

    #[wasm_bindgen(js_class = __SnapshotBuffer)]
    impl SnapshotBuffer {
        /// `len` zero bytes (a JS number, the file's size). A size that does not fit in the
        /// module's memory is an error that says so (not an abort of the instance, nor a size
        /// wrapped modulo 2^32 by the number conversion).
        #[wasm_bindgen(constructor)]
        pub fn new(len: f64) -> Result<SnapshotBuffer, JsValue> {
            let too_big = || {
                Error::option(
                    "snapshot file size",
                    crate::error::number(len),
                    "a snapshot that fits in the wasm memory (at most 4 GiB, less what is in use)",
                )
                .into()
            };
            if !(0.0..=f64::from(u32::MAX)).contains(&len) || len.fract() != 0.0 {
                return Err(too_big());
            }
            let mut bytes = Vec::new();
            bytes.try_reserve_exact(len as usize).map_err(|_| too_big())?;
            bytes.resize(len as usize, 0);
            Ok(SnapshotBuffer(bytes))
        }

        /// Where the bytes start in the module's memory (valid until the memory grows).
        pub fn ptr(&self) -> usize {
            self.0.as_ptr() as usize
        }
    }

    impl JsIndex {
        /// The index as one of string ids, which `dedup` takes: an empty index becomes one;
        /// an index of number ids is refused.
        pub(crate) fn string_index(&mut self) -> Result<&mut Index<String>, JsValue> {
            if let Ids::Unset(layout) = &self.0 {
                self.0 = Ids::Str(Index::new(layout.clone()));
            }
            match &mut self.0 {
                Ids::Str(index) => Ok(index),
                _ => Err(Error::option(
                    "this",
                    "an index of number ids",
                    "an index of string ids: dedup takes string ids",
                )
                .into()),
            }
        }
    }

    #[wasm_bindgen(js_class = SimHashIndex)]
    impl JsIndex {
        /// `SimHashIndex#dedup` with the fingerprints the pool found (as `__dedupPlan`, with
        /// the candidates measured here).
        #[wasm_bindgen(js_name = __dedupKnown, skip_typescript)]
        pub fn dedup_known_js(
            &mut self,
            ids: Vec<String>,
            texts: Vec<String>,
            fingerprints: Vec<u64>,
            failed: Vec<u32>,
            options: JsValue,
        ) -> Result<JsValue, JsValue> {
            let docs = docs_from(ids, texts)?;
            let known = known(docs.len(), &fingerprints, &failed)?;
            let o =
                option_object(&options, &[&Options::NAMES, &DedupOptions::INTO_NAMES], "{ verify: false }")?;
            let opts = dedup_options_from(&o)?;
            let report = dedup_into_known(self.string_index()?, &docs, &known, &opts)?;
            Ok(report_to_js(&report))
        }
    }
}

#[cfg(not(feature = "crawler"))]
mod off {
    use super::JsIndex;
    use wasm_bindgen::prelude::*;

    use crate::error::Error;

    fn disabled(what: &'static str) -> JsValue {
        Error::FeatureDisabled { feature: "crawler", what }.into()
    }

    #[wasm_bindgen(js_class = SimHashIndex)]
    impl JsIndex {
        /// Not in this build (Cargo feature `crawler`): throws `FeatureDisabled`.
        #[wasm_bindgen(js_name = toBytes)]
        pub fn to_bytes(&self) -> Result<Vec<u8>, JsValue> {
            Err(disabled("SimHashIndex.toBytes"))
        }

        /// Not in this build (Cargo feature `crawler`): throws `FeatureDisabled`.
        #[wasm_bindgen(js_name = fromBytes)]
        pub fn from_bytes(_bytes: JsValue) -> Result<JsIndex, JsValue> {
            Err(disabled("SimHashIndex.fromBytes"))
        }

        /// Not in this build (Cargo feature `crawler`): throws `FeatureDisabled`.
        pub fn dedup(
            &mut self,
            _ids: JsValue,
            _texts: JsValue,
            _options: JsValue,
        ) -> Result<JsValue, JsValue> {
            Err(disabled("SimHashIndex.dedup"))
        }
    }
}
