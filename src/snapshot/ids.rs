//! The id column of an index snapshot: one id per stored fingerprint, in the snapshot's
//! entry order (by fingerprint, then id), exactly `N` of them, ending exactly at the
//! column's end. The id type byte says which encoding follows:
//!
//! | type byte | ids | each id |
//! | --- | --- | --- |
//! | 0 | `u64` | `zigzag(id − previous id)` as a varint (wrapping subtraction; the previous of the first is 0) |
//! | 2 | `u32` | as `u64`; a value over `u32::MAX` is refused |
//! | 1 | `String` | front-coded: varint length of the prefix shared with the previous id (in bytes, on a UTF-8 boundary), varint length of the rest, the rest's UTF-8 bytes |
//!
//! Sorted ids make small deltas and long shared prefixes, which is why the entries are
//! stored in (fingerprint, id) order.

use super::bytes::{put_varint, unzigzag, zigzag, Reader};
use crate::error::{Error, Result};

/// Ids that can be stored in an index snapshot: `u64` (zigzag delta varints) and
/// `String` (front-coded).
pub trait SnapshotId: Sized {
    /// The id type byte of the snapshot: 0 for `u64`, 1 for strings.
    const TYPE_TAG: u8;
    /// Appends the id column for `ids` (in the snapshot's entry order).
    fn encode_column(ids: &[&Self], out: &mut Vec<u8>);
    /// Reads exactly `count` ids from a column that must be consumed exactly. `base` is
    /// the column's absolute offset, for messages.
    fn decode_column(bytes: &[u8], count: u64, base: usize, what: &'static str) -> Result<Vec<Self>>;
}

impl SnapshotId for u64 {
    const TYPE_TAG: u8 = 0;

    fn encode_column(ids: &[&u64], out: &mut Vec<u8>) {
        let mut prev = 0u64;
        for &&id in ids {
            put_varint(out, zigzag(id.wrapping_sub(prev) as i64));
            prev = id;
        }
    }

    fn decode_column(bytes: &[u8], count: u64, base: usize, what: &'static str) -> Result<Vec<u64>> {
        let mut r = Reader::new(bytes, base, what);
        if count > bytes.len() as u64 {
            return Err(r.err(format!("{count} ids cannot fit in a {}-byte id column", bytes.len())));
        }
        let mut out = Vec::with_capacity(count as usize);
        let mut prev = 0u64;
        for _ in 0..count {
            let d = unzigzag(r.varint("id")?);
            prev = prev.wrapping_add(d as u64);
            out.push(prev);
        }
        r.finish("the id column")?;
        Ok(out)
    }
}

impl SnapshotId for u32 {
    const TYPE_TAG: u8 = 2;

    fn encode_column(ids: &[&u32], out: &mut Vec<u8>) {
        let wide: Vec<u64> = ids.iter().map(|&&i| u64::from(i)).collect();
        u64::encode_column(&wide.iter().collect::<Vec<_>>(), out);
    }

    fn decode_column(bytes: &[u8], count: u64, base: usize, what: &'static str) -> Result<Vec<u32>> {
        let wide = u64::decode_column(bytes, count, base, what)?;
        wide.into_iter()
            .map(|v| {
                u32::try_from(v)
                    .map_err(|_| Error::corrupt(what, base, format!("id {v} does not fit a u32 id")))
            })
            .collect()
    }
}

impl SnapshotId for String {
    const TYPE_TAG: u8 = 1;

    fn encode_column(ids: &[&String], out: &mut Vec<u8>) {
        let mut prev: &str = "";
        for &id in ids {
            let mut shared = prev.bytes().zip(id.bytes()).take_while(|(a, b)| a == b).count();
            while !id.is_char_boundary(shared) {
                shared -= 1;
            }
            put_varint(out, shared as u64);
            put_varint(out, (id.len() - shared) as u64);
            out.extend_from_slice(&id.as_bytes()[shared..]);
            prev = id;
        }
    }

    fn decode_column(bytes: &[u8], count: u64, base: usize, what: &'static str) -> Result<Vec<String>> {
        let mut r = Reader::new(bytes, base, what);
        if count > (bytes.len() / 2) as u64 {
            return Err(r.err(format!("{count} string ids cannot fit in a {}-byte id column", bytes.len())));
        }
        let mut out: Vec<String> = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let at = r.offset();
            let shared = r.varint("shared prefix length")?;
            let prev = out.last().map_or("", |s| s.as_str());
            if shared > prev.len() as u64 || !prev.is_char_boundary(shared as usize) {
                return Err(Error::corrupt(
                    what,
                    at,
                    format!("shared prefix of {shared} bytes does not fit the previous id"),
                ));
            }
            let rest_len = r.varint("id length")?;
            if rest_len > r.remaining() as u64 {
                return Err(
                    r.err(format!("an id claims {rest_len} bytes but only {} are left", r.remaining()))
                );
            }
            let at = r.offset();
            let rest = r.take(rest_len as usize, "id")?;
            let mut id = Vec::with_capacity(shared as usize + rest.len());
            id.extend_from_slice(&prev.as_bytes()[..shared as usize]);
            id.extend_from_slice(rest);
            let id =
                String::from_utf8(id).map_err(|_| Error::corrupt(what, at, "an id is not valid UTF-8"))?;
            out.push(id);
        }
        r.finish("the id column")?;
        Ok(out)
    }
}

/// The id type byte's name, for messages.
pub(super) fn id_type_name(tag: u8) -> String {
    match tag {
        0 => "numeric (u64)".to_string(),
        1 => "string".to_string(),
        2 => "numeric (u32)".to_string(),
        x => format!("unknown ({x})"),
    }
}
