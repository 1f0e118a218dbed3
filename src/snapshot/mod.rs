//! Persistence: a versioned, checksummed envelope, the compact sorted fingerprint set,
//! index snapshots and IDF tables.
//!
//! Everything this crate writes to bytes is one envelope around a payload
//! whose layout depends on the envelope's kind. Decoders never trust a length field:
//! each one is checked against the bytes that are really left *before* anything is
//! allocated, every structure is validated on load, and a damaged, truncated or forged
//! input comes back as [`Error::Corrupt`](crate::Error::Corrupt) (with the byte offset and
//! what was wrong), [`Error::UnsupportedVersion`](crate::Error::UnsupportedVersion) or
//! [`Error::SchemeMismatch`](crate::Error::SchemeMismatch), never as a panic.
//!
//! All integers are **little-endian**. `varint` is LEB128 (7 bits per byte, low group
//! first, high bit = "more follows", at most 10 bytes for a `u64`, and the shortest form
//! only). `zigzag` maps `0, -1, 1, -2, …` to `0, 1, 2, 3, …`.
//!
//! Each format is documented, byte by byte, where it is encoded and decoded:
//!
//! | kind tag | what | layout |
//! | --- | --- | --- |
//! | (all) | magic, kind, version, length, payload, CRC-32C | `snapshot/envelope.rs` |
//! | `FSET` | a [`CompactSet`] of fingerprints (delta + Huffman, in blocks); also embedded in `INDX` and `IDF` | `snapshot/compact.rs` |
//! | `INDX` | an [`Index`](crate::Index) snapshot: layout, scheme (`scheme.rs`), id column ([`SnapshotId`]), fingerprints; version 2 also sketches | `snapshot/index.rs` |
//! | `IDF\0` | an [`IdfTable`](crate::IdfTable): feature hashes and document frequencies | `snapshot/idf.rs` |
//! | `SEEN` | a [`ContentSeen`](crate::ContentSeen): an `INDX` snapshot, counts and aliases; versions 2 to 5 also the threshold, 3 to 5 which text of a page is read, 4 and 5 the site templates learnt | `seen/codec.rs` |
//!
//! Below the formats, three private parts do the mechanics: `bytes.rs` (the bounds-checked
//! `Reader` every decoder reads through, the `Writer`, varints), `bits.rs` (the compact
//! set's bit stream) and `huffman.rs` (its length-limited canonical Huffman code).
//!
//! Stored bytes are a promise to users: the golden files in `tests/data` must keep
//! loading and re-encoding byte for byte, and a change of any layout here is a new
//! version in the table of `formats.rs` (which `FORMATS.md` lists, checked by a test), with
//! the old reader kept.

mod bits;
mod bytes;
mod compact;
pub(crate) mod envelope;
pub(crate) mod formats;
mod huffman;
mod idf;
mod ids;
pub(crate) mod index;
pub(crate) mod scheme;

pub use compact::{CompactSet, DEFAULT_BLOCK_SIZE, MAX_BLOCK_SIZE};
// The teaching form's Huffman table for the browser build, which has no `CompactSet`.
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_imports))]
pub(crate) use compact::huffman_table_of;
pub use ids::SnapshotId;

#[cfg(test)]
pub(crate) use envelope::crc32c;
pub(crate) use envelope::{open, seal, Kind, HEADER_LEN};
#[cfg(all(target_arch = "wasm32", feature = "crawler"))]
pub(crate) use index::peek_id_type;
pub(crate) use index::{decode_index, encode_sorted_index_with_sketches};
pub(crate) use scheme::check_scheme;

pub(crate) use bytes::{Reader, Writer};
