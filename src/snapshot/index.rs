//! Index snapshots: the `INDX` payload, [`Index::to_bytes`] and [`Index::from_bytes`].
//!
//! | size | field |
//! | --- | --- |
//! | 4 | `k`, `u32` |
//! | 1 | strategy: 0 = multi-table layout, 1 = probing ([`Layout::probe`]) |
//! | 4 | `b`, number of blocks, `u32` (1 ..= 64) |
//! | 4·`b` | block widths, most significant block first, `u32` each |
//! | 1 or 14 | the fingerprint [scheme](super::scheme): a flag byte, then the settings if present |
//! | 1 | id type: 0 = `u64`, 1 = string, 2 = `u32` ([`SnapshotId::TYPE_TAG`]) |
//! | 8 | `I`, length of the id column in bytes, `u64` |
//! | `I` | the [id column](super::ids) |
//! | 8 | `F`, length of the fingerprint set in bytes, `u64` |
//! | `F` | the fingerprints, ascending, as a [compact set](super::compact) |
//! | | *version 2 only (format version 2, written when the entries carry sketches):* |
//! | 1 | the [sketch](crate::sketch) scheme's version ([`sketch::VERSION`](crate::sketch::VERSION) = 1; another is [`Error::SchemeMismatch`]) |
//! | 2 | `S`, the sketch size in bytes, `u16` (a valid [`SketchScheme`]: `sk1:S`) |
//! | ⌈`N`/8⌉ | which entries have a sketch: bit `i % 8` of byte `i / 8` for entry `i` (unused bits 0) |
//! | `P`·`S` | the `P` sketches' payloads ([`Sketch::payload`]), in entry order |
//!
//! A version-1 snapshot is read as entries without sketches. In version 2 an entry may
//! lack a sketch (a [`ContentSeen`](crate::ContentSeen) page loaded from version 1, or
//! stored from its fingerprint alone). The payload must end after the last sketch: a
//! missing or extra byte is [`Error::Corrupt`].
//!
//! Entries are stored sorted by (fingerprint, id); id `i` of the column belongs to
//! fingerprint `i` of the set, and the column holds exactly `N` ids. On load the index is
//! rebuilt from (id, fingerprint) pairs with the stored layout, so only the first
//! table's order is stored; the others are recomputed.

use super::bytes::{Reader, Writer};
use super::formats::INDX_SKETCHES;
use super::ids::id_type_name;
use super::scheme::{read_scheme, write_scheme};
use super::{check_scheme, open, CompactSet, Kind, SnapshotId, DEFAULT_BLOCK_SIZE, HEADER_LEN};
use crate::error::{Error, Result};
use crate::fingerprint::Options;
use crate::index::{Index, IndexId, Layout};
use crate::sketch::{Sketch, SketchScheme};

/// The sketches of an index snapshot's entries (format version 2).
#[derive(Clone, Debug, PartialEq)]
pub struct SketchColumn {
    /// Their scheme (size).
    pub scheme: SketchScheme,
    /// One per entry, in the entries' order; `None` for an entry without a sketch.
    pub sketches: Vec<Option<Sketch>>,
}

/// The decoded parts of an index snapshot, before the index is rebuilt from them.
#[derive(Clone, Debug, PartialEq)]
pub struct SnapshotParts<I> {
    /// The layout's `k`.
    pub k: u32,
    /// `true` for the probing strategy ([`Layout::probe`]).
    pub probe: bool,
    /// The layout's block widths.
    pub widths: Vec<u32>,
    /// The fingerprint scheme, or `None` for raw fingerprints.
    pub scheme: Option<Options>,
    /// `(id, fingerprint)` pairs, sorted by fingerprint then id.
    pub entries: Vec<(I, u64)>,
    /// The entries' sketches (format version 2), or `None` (version 1).
    pub sketches: Option<SketchColumn>,
}

/// Borrowed entries in the snapshot's order: by fingerprint, then id.
fn sorted_entries<'a, I: Ord + 'a>(entries: impl Iterator<Item = (&'a I, u64)>) -> Vec<(&'a I, u64)> {
    let mut v: Vec<(&I, u64)> = entries.collect();
    crate::sort::sort_by_u64_key(&mut v, |e| e.1, |a, b| a.0.cmp(b.0));
    v
}

/// Encodes an index snapshot from its parts (entries in any order; they are sorted by
/// (fingerprint, id) here). [`Index::to_bytes`] writes the same bytes for an index with
/// these parts.
pub fn encode_index<I: SnapshotId + Ord>(
    k: u32,
    probe: bool,
    widths: &[u32],
    scheme: Option<&Options>,
    entries: impl IntoIterator<Item = (I, u64)>,
) -> Vec<u8> {
    let entries: Vec<(I, u64)> = entries.into_iter().collect();
    let sorted = sorted_entries(entries.iter().map(|(i, f)| (i, *f)));
    encode_sorted_index(k, probe, widths, scheme, &sorted)
}

/// [`encode_index`] for borrowed entries already sorted by (fingerprint, id).
pub fn encode_sorted_index<I: SnapshotId>(
    k: u32,
    probe: bool,
    widths: &[u32],
    scheme: Option<&Options>,
    entries: &[(&I, u64)],
) -> Vec<u8> {
    encode_sorted_index_with_sketches(k, probe, widths, scheme, entries, None)
}

/// `encode_sorted_index` with a sketch per entry (`None` for an entry without one), in
/// the entries' order: a format-version-2 snapshot. Without `sketches`, version 1.
///
/// Panics if `sketches` has another length than `entries`, or a sketch of another scheme.
pub fn encode_sorted_index_with_sketches<I: SnapshotId>(
    k: u32,
    probe: bool,
    widths: &[u32],
    scheme: Option<&Options>,
    entries: &[(&I, u64)],
    sketches: Option<(SketchScheme, &[Option<&Sketch>])>,
) -> Vec<u8> {
    debug_assert!(entries.windows(2).all(|e| e[0].1 <= e[1].1), "entries not sorted by fingerprint");
    let mut w = Writer::new();
    w.u32(k);
    w.flag(probe);
    w.u32(widths.len() as u32);
    for &width in widths {
        w.u32(width);
    }
    write_scheme(&mut w, scheme);
    w.u8(I::TYPE_TAG);
    let ids: Vec<&I> = entries.iter().map(|e| e.0).collect();
    let mut col = Vec::new();
    I::encode_column(&ids, &mut col);
    w.section(&col);
    let fps: Vec<u64> = entries.iter().map(|e| e.1).collect();
    w.section(&CompactSet::encode(&fps, DEFAULT_BLOCK_SIZE).body());
    let Some((sk, column)) = sketches else {
        return w.seal(Kind::Index);
    };
    assert_eq!(column.len(), entries.len(), "one sketch slot per entry");
    w.u8(crate::sketch::VERSION);
    w.bytes(&(sk.size() as u16).to_le_bytes());
    let mut bits = vec![0u8; entries.len().div_ceil(8)];
    for (i, s) in column.iter().enumerate() {
        if s.is_some() {
            bits[i / 8] |= 1 << (i % 8);
        }
    }
    w.bytes(&bits);
    for s in column.iter().flatten() {
        assert_eq!(s.scheme(), sk, "a sketch of another scheme");
        w.bytes(s.payload());
    }
    w.seal_version(Kind::Index, INDX_SKETCHES)
}

/// Reads the version-2 sketch column of `n` entries; the reader must end after it.
fn read_sketches(r: &mut Reader<'_>, n: usize) -> Result<SketchColumn> {
    let version = r.u8("sketch version")?;
    if version != crate::sketch::VERSION {
        return Err(Error::SchemeMismatch {
            field: "sketch version",
            found: format!("sk{version}"),
            expected: format!("sk{} (this build's sketch)", crate::sketch::VERSION),
        });
    }
    let at = r.offset();
    let size = r.take(2, "sketch size")?;
    let size = u16::from_le_bytes([size[0], size[1]]) as usize;
    let scheme = SketchScheme::new(size).map_err(|_| {
        r.err_at(at, format!("sketch size {size} is no sketch scheme (a multiple of 8 from 32 to 256)"))
    })?;
    let at = r.offset();
    let bits = r.take(n.div_ceil(8), "sketch presence bits")?;
    if !n.is_multiple_of(8) && bits[n / 8] >> (n % 8) != 0 {
        return Err(r.err_at(at + n / 8, "presence bits are set beyond the last entry"));
    }
    let present = bits.iter().map(|b| b.count_ones() as usize).sum::<usize>();
    if r.remaining() != present * size {
        return Err(r.err(format!(
            "{} bytes of sketches, where {present} sketches of {} take {} (truncated or extended?)",
            r.remaining(),
            scheme.describe(),
            present * size
        )));
    }
    let mut sketches = Vec::with_capacity(n);
    for i in 0..n {
        if bits[i / 8] >> (i % 8) & 1 == 1 {
            let payload = r.take(size, "sketch")?;
            sketches.push(Some(Sketch::from_stored_payload(scheme, payload)?));
        } else {
            sketches.push(None);
        }
    }
    Ok(SketchColumn { scheme, sketches })
}

/// The fields before the id column: everything but the entries.
struct Header {
    k: u32,
    probe: bool,
    widths: Vec<u32>,
    scheme: Option<Options>,
    id_type: u8,
    version: u32,
}

/// Opens the envelope and reads the [`Header`]; the reader is left at the id column.
fn read_header(bytes: &[u8]) -> Result<(Header, Reader<'_>)> {
    let (version, payload) = open(Kind::Index, bytes)?;
    let mut r = Reader::payload(payload, Kind::Index);
    let k = r.u32("k")?;
    let at = r.offset();
    let probe = match r.u8("strategy")? {
        0 => false,
        1 => true,
        v => return Err(r.err_at(at, format!("strategy {v} is neither 0 (tables) nor 1 (probe)"))),
    };
    let at = r.offset();
    let t = r.u32("block count")?;
    if !(1..=64).contains(&t) {
        return Err(r.err_at(at, format!("{t} blocks; a layout has 1 to 64")));
    }
    let widths = (0..t).map(|_| r.u32("block width")).collect::<Result<Vec<u32>>>()?;
    let scheme = read_scheme(&mut r)?;
    let id_type = r.u8("id type")?;
    Ok((Header { k, probe, widths, scheme, id_type, version }, r))
}

/// Decodes an index snapshot into its parts (no index is built). Checks the envelope,
/// every field, and that the ids are of type `I`.
pub fn decode_index<I: SnapshotId>(bytes: &[u8]) -> Result<SnapshotParts<I>> {
    let (Header { k, probe, widths, scheme, id_type, version }, mut r) = read_header(bytes)?;
    check_id_type::<I>(id_type)?;
    let (ids, fps) = read_columns(&mut r, version)?;
    let entries: Vec<(I, u64)> = ids.into_iter().zip(fps).collect();
    let sketches = if version >= INDX_SKETCHES { Some(read_sketches(&mut r, entries.len())?) } else { None };
    Ok(SnapshotParts { k, probe, widths, scheme, entries, sketches })
}

/// Reads the id column and the fingerprint set (one validating decode) as two columns.
/// In version 1 the reader must end there; version 2's sketch column follows.
fn read_columns<I: SnapshotId>(r: &mut Reader<'_>, version: u32) -> Result<(Vec<I>, Vec<u64>)> {
    let (id_at, col) = r.section("id column")?;
    let (set_at, body) = r.section("fingerprint set")?;
    if version < INDX_SKETCHES {
        r.finish("the fingerprint set")?;
    }
    let mut fps = Vec::new();
    let set = CompactSet::read_body_into(body, set_at, r.what(), 1, Some(&mut fps))?;
    let ids = I::decode_column(col, set.n, id_at, r.what())?;
    Ok((ids, fps))
}

/// Checks the id type byte against `I`.
fn check_id_type<I: SnapshotId>(id_type: u8) -> Result<()> {
    if id_type != I::TYPE_TAG {
        return Err(Error::SchemeMismatch {
            field: "id type",
            found: id_type_name(id_type),
            expected: format!(
                "{} ids; load it as an index with {} ids",
                id_type_name(I::TYPE_TAG),
                id_type_name(id_type)
            ),
        });
    }
    Ok(())
}

impl<I: IndexId + SnapshotId> Index<I> {
    /// A compact snapshot of the index (an `INDX` envelope, see the
    /// [`snapshot`](crate::snapshot) module): the layout, the fingerprint scheme, the live
    /// entries sorted by fingerprint (fingerprints as a [`CompactSet`], ids delta- or
    /// front-coded) and a checksum. Deterministic: equal contents give equal bytes,
    /// whatever the insertion order, removals or segments.
    ///
    /// ```
    /// use simhash_wasm::{Index, Layout, Options};
    /// let mut index = Index::build(Layout::default_for_k(3)?, vec![(1u64, 0xFFu64), (2, 0xF0F0)])?;
    /// index.set_scheme(Some(Options::default()))?;
    /// let bytes = index.to_bytes();
    /// let back = Index::<u64>::from_bytes_expecting(&bytes, Some(&Options::default()))?;
    /// assert_eq!(back.get(&2), Some(0xF0F0));
    /// assert!(Index::<u64>::from_bytes_expecting(&bytes, None).is_err());
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let layout = self.layout();
        let entries = sorted_entries(self.iter());
        encode_sorted_index(layout.k(), layout.is_probe(), layout.widths(), self.scheme().as_ref(), &entries)
    }

    /// Loads a snapshot written by [`to_bytes`](Self::to_bytes), whatever its scheme
    /// (see [`scheme`](Self::scheme)): decodes it and rebuilds every table with the
    /// stored layout. Use [`from_bytes_expecting`](Self::from_bytes_expecting) to refuse
    /// snapshots made with other fingerprint settings.
    pub fn from_bytes(bytes: &[u8]) -> Result<Index<I>> {
        Index::load(bytes, None)
    }

    /// [`from_bytes`](Self::from_bytes), refusing with [`Error::SchemeMismatch`] a
    /// snapshot whose fingerprint scheme is not `expected` (`None`: raw fingerprints, no
    /// scheme recorded). The scheme is checked before the index is rebuilt.
    pub fn from_bytes_expecting(bytes: &[u8], expected: Option<&Options>) -> Result<Index<I>> {
        Index::load(bytes, Some(expected))
    }

    /// [`from_bytes`](Self::from_bytes) from an owned buffer, which is freed as soon as
    /// the columns are decoded, before the tables are built: the tables then reuse its
    /// memory (in wasm, where a snapshot read from a file lands in such a buffer, fresh
    /// memory pages are the dearest part of a load).
    ///
    /// ```
    /// use simhash_wasm::{Index, Layout};
    /// let index = Index::build(Layout::default_for_k(3)?, vec![(1u64, 0xFFu64), (2, 0xF0F0)])?;
    /// let back = Index::<u64>::from_vec(index.to_bytes())?;
    /// assert_eq!(back.get(&2), Some(0xF0F0));
    /// assert!(Index::<u64>::from_vec(vec![1, 2, 3]).is_err());
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn from_vec(bytes: Vec<u8>) -> Result<Index<I>> {
        let (layout, ids, fps, scheme) = Index::decode_for_load(&bytes, None)?;
        drop(bytes);
        Index::from_checked_columns(layout, ids, fps, scheme)
    }

    /// Decodes the columns (checking the scheme first when `expected` is given) and builds
    /// the index from them: the entries come sorted by fingerprint, which is the first
    /// table's order already, so that table costs one counting pass (see `Index::reorganise`).
    /// A version-2 snapshot's sketch column is checked and left out: an index holds none.
    fn load(bytes: &[u8], expected: Option<Option<&Options>>) -> Result<Index<I>> {
        let (layout, ids, fps, scheme) = Index::decode_for_load(bytes, expected)?;
        Index::from_checked_columns(layout, ids, fps, scheme)
    }

    /// What [`Index::load`] builds the index from: the layout, the columns, the scheme.
    #[allow(clippy::type_complexity)]
    fn decode_for_load(
        bytes: &[u8],
        expected: Option<Option<&Options>>,
    ) -> Result<(Layout, Vec<I>, Vec<u64>, Option<Options>)> {
        let (Header { k, probe, widths, scheme, id_type, version }, mut r) = read_header(bytes)?;
        check_id_type::<I>(id_type)?;
        if let Some(expected) = expected {
            check_scheme(scheme.as_ref(), expected)?;
        }
        let (ids, fps) = read_columns::<I>(&mut r, version)?;
        if version >= INDX_SKETCHES {
            read_sketches(&mut r, fps.len())?;
        }
        Ok((stored_layout(probe, k, &widths)?, ids, fps, scheme))
    }

    /// Rebuilds an index from decoded snapshot parts (their sketches are the caller's).
    pub(crate) fn from_parts(parts: SnapshotParts<I>) -> Result<Index<I>> {
        let layout = stored_layout(parts.probe, parts.k, &parts.widths)?;
        let (ids, fps) = parts.entries.into_iter().unzip();
        Index::from_checked_columns(layout, ids, fps, parts.scheme)
    }

    /// [`Index::from_columns`] for decoded columns: a duplicate id is a corrupt snapshot.
    fn from_checked_columns(
        layout: Layout,
        ids: Vec<I>,
        fps: Vec<u64>,
        scheme: Option<Options>,
    ) -> Result<Index<I>> {
        let mut index = Index::from_columns(layout, ids, fps).map_err(|e| match e {
            Error::DuplicateId { id } => {
                Error::corrupt(Kind::Index.what(), HEADER_LEN, format!("id {id} is stored twice"))
            }
            e => e,
        })?;
        index
            .set_scheme(scheme)
            .map_err(|e| Error::corrupt(Kind::Index.what(), HEADER_LEN, e.to_string()))?;
        Ok(index)
    }
}

/// The layout a snapshot records, validated.
fn stored_layout(probe: bool, k: u32, widths: &[u32]) -> Result<Layout> {
    let what = Kind::Index.what();
    let layout = if probe {
        match widths {
            [64] => Layout::probe(k),
            w => {
                return Err(Error::corrupt(
                    what,
                    HEADER_LEN,
                    format!("a probing layout has widths [64], not {w:?}"),
                ))
            }
        }
    } else {
        Layout::new(k, widths)
    };
    layout.map_err(|e| Error::corrupt(what, HEADER_LEN, format!("the stored layout is invalid: {e}")))
}

/// The fingerprint scheme recorded in an index snapshot, without decoding the rest
/// (the envelope's checksum is verified).
#[cfg(test)]
pub fn peek_scheme(bytes: &[u8]) -> Result<Option<Options>> {
    read_header(bytes).map(|(h, _)| h.scheme)
}

/// The id type byte of an index snapshot (0: `u64`, 1: `String`, 2: `u32`), without
/// decoding the rest (the envelope's checksum is verified), so a caller can pick the
/// `Index<I>` to load it as.
// Read by the JS bindings (and this file's tests), which pick the id type of the index they build from it.
#[cfg_attr(not(all(target_arch = "wasm32", feature = "crawler")), allow(dead_code))]
pub fn peek_id_type(bytes: &[u8]) -> Result<u8> {
    read_header(bytes).map(|(h, _)| h.id_type)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_peeks_read_what_decode_reads_and_refuse_what_it_refuses() {
        let words = Options { tokenizer: crate::Tokenizer::Words(2), ..Options::default() };
        for scheme in [None, Some(words)] {
            let num = encode_index(3, false, &[16; 4], scheme.as_ref(), vec![(9u64, 1u64), (4, 1), (1, 7)]);
            let text = encode_index(2, true, &[64], scheme.as_ref(), vec![("b".to_string(), 3u64)]);
            assert_eq!(peek_scheme(&num).unwrap(), scheme);
            assert_eq!(peek_scheme(&num).unwrap(), decode_index::<u64>(&num).unwrap().scheme);
            assert_eq!(peek_id_type(&num).unwrap(), <u64 as SnapshotId>::TYPE_TAG);
            assert_eq!(peek_id_type(&text).unwrap(), <String as SnapshotId>::TYPE_TAG);
            assert_eq!(decode_index::<u64>(&num).unwrap().entries, vec![(4, 1), (9, 1), (1, 7)]);
            // A strategy byte or block count the decoder refuses, checksum forged: the
            // peeks refuse it too (one shared reader of the header).
            for (at, v) in [(HEADER_LEN + 4, 2u8), (HEADER_LEN + 5, 0), (HEADER_LEN + 5, 65)] {
                let mut bad = num.clone();
                bad[at] = v;
                let n = bad.len();
                let crc = super::super::crc32c(&bad[..n - 4]);
                bad[n - 4..].copy_from_slice(&crc.to_le_bytes());
                assert!(decode_index::<u64>(&bad).is_err());
                assert_eq!(peek_scheme(&bad).unwrap_err().code(), "Corrupt", "byte {at} = {v}");
                assert_eq!(peek_id_type(&bad).unwrap_err().code(), "Corrupt", "byte {at} = {v}");
            }
        }
    }

    /// `from_vec` (the owned-buffer load, which frees the bytes before the tables are
    /// built, and so the map-before-lists order of `reorganise`) against brute force, for
    /// each layout kind, with clustered entries so that queries have neighbours; and it
    /// refuses what `from_bytes` refuses, with the same error.
    #[test]
    fn from_vec_answers_like_brute_force_and_refuses_what_from_bytes_refuses() {
        let mut rng = crate::test_rng::Rng(0x5eed_0016);
        for layout in [
            Layout::default_for_k(3).unwrap(),
            Layout::new(3, &[16, 12, 12, 12, 12]).unwrap(),
            Layout::probe(2).unwrap(),
            Layout::new(0, &[64]).unwrap(),
        ] {
            let k = layout.k();
            let mut entries: Vec<(u64, u64)> = Vec::new();
            for i in 0..4000u64 {
                let fp = if i % 5 == 0 || entries.is_empty() {
                    rng.next()
                } else {
                    // a copy (for k = 0) or one bit away
                    entries[entries.len() - 1].1 ^ if i % 3 == 0 { 0 } else { 1 << rng.below(64) }
                };
                entries.push((rng.next() >> 1, fp));
            }
            let index = Index::build(layout.clone(), entries.clone()).unwrap();
            let loaded = Index::<u64>::from_vec(index.to_bytes()).unwrap();
            assert_eq!(loaded.len(), entries.len());
            let mut with_neighbours = 0;
            for (j, &(id, fp)) in entries.iter().enumerate().step_by(7) {
                let q = if j % 2 == 0 { fp } else { fp ^ 0b101 };
                let want = crate::index::brute_force::query(&entries, q, k);
                with_neighbours += usize::from(want.len() > 1);
                assert_eq!(loaded.query(q), want, "{layout} query {q:#x}");
                assert_eq!(loaded.get(&id), Some(fp));
            }
            assert!(with_neighbours > 50, "{layout}: only {with_neighbours} queries had neighbours");
            assert_eq!(loaded.to_bytes(), index.to_bytes());
        }
        let good =
            Index::build(Layout::default_for_k(3).unwrap(), vec![(1u64, 7u64), (2, 9)]).unwrap().to_bytes();
        for cut in [0, 1, good.len() / 2, good.len() - 1] {
            let a = Index::<u64>::from_vec(good[..cut].to_vec()).unwrap_err();
            let b = Index::<u64>::from_bytes(&good[..cut]).unwrap_err();
            assert_eq!((a.code(), a.to_string()), (b.code(), b.to_string()), "cut at {cut}");
        }
        // a duplicate id (checksum forged) is Corrupt on both paths
        let dup = encode_index(3, false, &[16; 4], None, vec![(5u64, 1u64), (5, 2)]);
        assert_eq!(Index::<u64>::from_vec(dup.clone()).unwrap_err().code(), "Corrupt");
        assert_eq!(Index::<u64>::from_bytes(&dup).unwrap_err().code(), "Corrupt");
        assert_eq!(Index::<String>::from_vec(good).unwrap_err().code(), "SchemeMismatch");
    }

    /// Earlier builds stored any sketch a caller handed them: a snapshot holding one whose
    /// parts disagree (which `Sketch::from_bytes` refuses) still loads, unchanged.
    #[test]
    fn a_stored_sketch_is_read_without_the_standalone_sketchs_checks() {
        let scheme = SketchScheme::new(32).unwrap();
        let mut payload = Sketch::from_shingles(scheme, &[1, 2, 3]).payload().to_vec();
        payload[..4].copy_from_slice(&4u32.to_le_bytes());
        assert_eq!(Sketch::from_payload(scheme, &payload).unwrap_err().code(), "Corrupt");
        let odd = Sketch::from_stored_payload(scheme, &payload).unwrap();
        let bytes = encode_sorted_index_with_sketches(
            3,
            false,
            &[16; 4],
            None,
            &[(&7u64, 1)],
            Some((scheme, &[Some(&odd)])),
        );
        let column = decode_index::<u64>(&bytes).unwrap().sketches.unwrap();
        assert_eq!(column.sketches, vec![Some(odd)]);
    }

    #[test]
    fn to_bytes_writes_what_encode_index_writes() {
        let entries = vec![(5u64, 0xFFu64), (2, 0xFF), (7, 0), (1, u64::MAX), (3, 0xF0F0)];
        let mut index = Index::build(Layout::default_for_k(3).unwrap(), entries.clone()).unwrap();
        index.set_scheme(Some(Options::default())).unwrap();
        let direct = encode_index(3, false, index.layout().widths(), Some(&Options::default()), entries);
        assert_eq!(index.to_bytes(), direct);
    }
}
