//! The envelope around every stored payload, and its checksum, CRC-32C.
//!
//! | offset | size | field |
//! | --- | --- | --- |
//! | 0 | 4 | magic `b"SHWS"` (simhash-wasm storage), [`MAGIC`] |
//! | 4 | 4 | kind tag ([`Kind::tag`]): `b"FSET"` fingerprint set, `b"INDX"` index snapshot, `b"IDF\0"` IDF table, `b"SEEN"` content-seen snapshot |
//! | 8 | 4 | format version, `u32`: 1 ([`FORMAT_VERSION`]) up to the kind's [`Kind::newest_version`] (`FSET`: 2, the gap code; `INDX`: 2, a sketch column; `SEEN`: 5, see `seen/codec.rs`; `IDF\0`: 1) |
//! | 12 | 8 | payload length `L`, `u64` |
//! | 20 ([`HEADER_LEN`]) | `L` | payload |
//! | 20 + `L` | 4 ([`TRAILER_LEN`]) | CRC-32C (Castagnoli, reflected, init and final xor `0xFFFFFFFF`, the iSCSI / ext4 CRC; see [`crc32c`]) of bytes `0 .. 20 + L` |
//!
//! The envelope itself is frozen for all versions: every version of every kind keeps
//! these fields and this checksum over the version field too. So a build checks the
//! checksum before the version, and can tell a file of a newer version ("upgrade"), whose
//! checksum holds, from a damaged one. Checks, in order ([`open`]): length ≥ 24, magic,
//! kind, `L == total − 24` exactly, checksum, version (0, or newer than the kind's
//! [`Kind::newest_version`], is refused). The checksum detects every burst error up to 32
//! bits and every flip of up to 5 bits in a message of this size; the validation of each
//! payload catches the rest as best it can, and nothing ever panics.

use super::formats;
use crate::error::{Error, Result};

/// The magic number that starts every envelope.
pub const MAGIC: [u8; 4] = *b"SHWS";

/// The format version of every kind's first layout; the newest version of each kind is
/// [`Kind::newest_version`]. A kind with several versions writes its oldest one that can
/// hold the data, so files without the newer parts stay byte for byte as before.
pub const FORMAT_VERSION: u32 = formats::FIRST;

/// The envelope's header: magic, kind, version and payload length. The payload starts at
/// this offset, so decoders report offsets inside it as `HEADER_LEN + position`.
pub const HEADER_LEN: usize = 20;

/// The envelope's trailer: the CRC-32C.
pub const TRAILER_LEN: usize = 4;

/// Slicing-by-8 tables: `[0]` is the classic byte table; `[j][b]` is
/// the CRC of byte `b` followed by `j` zero bytes, so eight bytes fold in one step.
fn crc_tables() -> [[u32; 256]; 8] {
    let mut t = [[0u32; 256]; 8];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 { (c >> 1) ^ 0x82F6_3B78 } else { c >> 1 };
            k += 1;
        }
        t[0][i] = c;
        i += 1;
    }
    let mut j = 1;
    while j < 8 {
        let mut i = 0;
        while i < 256 {
            let prev = t[j - 1][i];
            t[j][i] = (prev >> 8) ^ t[0][(prev & 0xFF) as usize];
            i += 1;
        }
        j += 1;
    }
    t
}

/// The tables, computed on first use: as static data they would add 8 kB of
/// incompressible bytes to the wasm module (the browser build has a size budget).
fn tables() -> &'static [[u32; 256]; 8] {
    static TABLES: std::sync::OnceLock<[[u32; 256]; 8]> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| std::hint::black_box(crc_tables)())
}

/// CRC-32C (Castagnoli polynomial `0x1EDC6F41`, reflected, init and final xor
/// `0xFFFFFFFF`): the checksum of every envelope.
///
/// ```
/// use simhash_wasm::__private::snapshot::crc32c;
/// assert_eq!(crc32c(b"123456789"), 0xE306_9283); // the standard check value
/// assert_eq!(crc32c(b""), 0);
/// ```
pub fn crc32c(bytes: &[u8]) -> u32 {
    let t = tables();
    let mut c = !0u32;
    // Eight bytes a step where big snapshots are loaded (the crawler's part); the small
    // browser build keeps only the byte loop, which is less code.
    #[cfg(not(feature = "crawler"))]
    let rest = bytes;
    #[cfg(feature = "crawler")]
    let rest = {
        let mut chunks = bytes.chunks_exact(8);
        for w in &mut chunks {
            let lo = c ^ u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            c = t[7][(lo & 0xFF) as usize]
                ^ t[6][(lo >> 8 & 0xFF) as usize]
                ^ t[5][(lo >> 16 & 0xFF) as usize]
                ^ t[4][(lo >> 24) as usize]
                ^ t[3][usize::from(w[4])]
                ^ t[2][usize::from(w[5])]
                ^ t[1][usize::from(w[6])]
                ^ t[0][usize::from(w[7])];
        }
        chunks.remainder()
    };
    for &b in rest {
        c = t[0][((c ^ u32::from(b)) & 0xFF) as usize] ^ (c >> 8);
    }
    !c
}

/// What an envelope holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kind {
    /// A [`CompactSet`](super::CompactSet) on its own (`b"FSET"`).
    FingerprintSet,
    /// An index snapshot (`b"INDX"`).
    Index,
    /// An [`IdfTable`](crate::IdfTable) (`b"IDF\0"`).
    Idf,
    /// A [`ContentSeen`](crate::seen::ContentSeen): an index snapshot plus counts (`b"SEEN"`).
    Seen,
}

impl Kind {
    /// The 4-byte tag stored at offset 4.
    pub fn tag(self) -> [u8; 4] {
        match self {
            Kind::FingerprintSet => *b"FSET",
            Kind::Index => *b"INDX",
            Kind::Idf => *b"IDF\0",
            Kind::Seen => *b"SEEN",
        }
    }

    /// A name for messages: `"fingerprint set"`, `"snapshot"`, `"IDF table"` or
    /// `"content-seen snapshot"`.
    pub fn what(self) -> &'static str {
        match self {
            Kind::FingerprintSet => "fingerprint set",
            Kind::Index => "snapshot",
            Kind::Idf => "IDF table",
            Kind::Seen => "content-seen snapshot",
        }
    }

    /// The newest payload version of this kind this build reads (and, for new data,
    /// writes): 2 for `FSET` (the gap code, see [`compact`](super::compact)), 2 for `INDX`
    /// (a sketch column), 5 for `SEEN` (2: a sketch column; 3: which text of a page is
    /// read; 4: the site templates learnt; 5: their blocks hashed with numbers folded),
    /// 1 for `IDF\0`.
    pub fn newest_version(self) -> u32 {
        match self {
            Kind::FingerprintSet => formats::FSET.current,
            Kind::Index => formats::INDX.current,
            Kind::Idf => formats::IDF.current,
            Kind::Seen => formats::SEEN.current,
        }
    }

    fn from_tag(tag: &[u8]) -> Option<Kind> {
        [Kind::FingerprintSet, Kind::Index, Kind::Idf, Kind::Seen].into_iter().find(|k| k.tag() == tag)
    }
}

/// Wraps a payload in the envelope: magic, kind, [`FORMAT_VERSION`], length, payload,
/// CRC-32C.
pub fn seal(kind: Kind, payload: &[u8]) -> Vec<u8> {
    seal_version(kind, FORMAT_VERSION, payload)
}

/// [`seal`] with an explicit format version (at most [`Kind::newest_version`]): a kind
/// whose payload has several versions writes the one it was made in.
pub fn seal_version(kind: Kind, version: u32, payload: &[u8]) -> Vec<u8> {
    debug_assert!((1..=kind.newest_version()).contains(&version));
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len() + TRAILER_LEN);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&kind.tag());
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(payload);
    let crc = crc32c(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// Checks an envelope of the given kind and returns its version and payload (which
/// starts at byte [`HEADER_LEN`] of `bytes`).
pub fn open(kind: Kind, bytes: &[u8]) -> Result<(u32, &[u8])> {
    let what = kind.what();
    if bytes.len() < HEADER_LEN + TRAILER_LEN {
        return Err(Error::corrupt(
            what,
            bytes.len(),
            format!(
                "the input has {} bytes, fewer than the {} of an empty envelope (is it empty or cut short?)",
                bytes.len(),
                HEADER_LEN + TRAILER_LEN
            ),
        ));
    }
    if bytes[0..4] != MAGIC {
        return Err(Error::corrupt(
            what,
            0,
            format!(
                "the magic number is {:02x?}, not {:02x?} (\"SHWS\"): this is not a simhash-wasm file",
                &bytes[0..4],
                MAGIC
            ),
        ));
    }
    if bytes[4..8] != kind.tag() {
        let found = match Kind::from_tag(&bytes[4..8]) {
            Some(k) => {
                format!("a {} ({})", k.what(), crate::error::quoted(&String::from_utf8_lossy(&k.tag())))
            }
            None => format!("an unknown kind {:02x?}", &bytes[4..8]),
        };
        return Err(Error::corrupt(
            what,
            4,
            format!("this file holds {found}, not a {what}; load it with the matching function"),
        ));
    }
    let mut len = [0u8; 8];
    len.copy_from_slice(&bytes[12..HEADER_LEN]);
    let len = u64::from_le_bytes(len);
    let actual = (bytes.len() - HEADER_LEN - TRAILER_LEN) as u64;
    if len != actual {
        return Err(Error::corrupt(
            what,
            12,
            format!("the payload length field says {len} bytes, but {actual} are present (truncated or extended?)"),
        ));
    }
    let body_end = bytes.len() - TRAILER_LEN;
    let stored =
        u32::from_le_bytes([bytes[body_end], bytes[body_end + 1], bytes[body_end + 2], bytes[body_end + 3]]);
    let computed = crc32c(&bytes[..body_end]);
    if stored != computed {
        return Err(Error::corrupt(
            what,
            body_end,
            format!("checksum mismatch (stored CRC-32C {stored:08x}, computed {computed:08x})"),
        ));
    }
    // After the checksum, which covers it: a damaged version field is damage, not a newer file.
    let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
    if version > kind.newest_version() {
        return Err(Error::UnsupportedVersion { what, found: version, supported: kind.newest_version() });
    }
    if version == 0 {
        return Err(Error::corrupt(what, 8, "format version 0 does not exist"));
    }
    Ok((version, &bytes[HEADER_LEN..body_end]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slicing_by_8_equals_the_bytewise_crc_at_every_length_and_alignment() {
        let bytewise = |bytes: &[u8]| {
            let mut c = !0u32;
            for &b in bytes {
                c = tables()[0][((c ^ u32::from(b)) & 0xFF) as usize] ^ (c >> 8);
            }
            !c
        };
        let data: Vec<u8> = (0..300u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        for start in 0..9 {
            for end in start..data.len() {
                assert_eq!(crc32c(&data[start..end]), bytewise(&data[start..end]), "{start}..{end}");
            }
        }
        assert_ne!(crc32c(&data[..64]), crc32c(&data[1..65]));
    }

    #[test]
    fn seal_then_open_gives_the_payload_back_and_every_kind_its_own_tag() {
        for kind in [Kind::FingerprintSet, Kind::Index, Kind::Idf, Kind::Seen] {
            for payload in [&b""[..], b"x", b"a longer payload \x00\xff"] {
                let bytes = seal(kind, payload);
                assert_eq!(bytes.len(), HEADER_LEN + payload.len() + TRAILER_LEN);
                assert_eq!(&bytes[4..8], &kind.tag());
                assert_eq!(open(kind, &bytes).unwrap(), (1, payload));
                // Version 2 as `seal_version` writes it; for a kind without one, forged.
                let sealed = if kind == Kind::Idf {
                    let mut b = seal(kind, payload);
                    b[8..12].copy_from_slice(&2u32.to_le_bytes());
                    let n = b.len();
                    let crc = crc32c(&b[..n - TRAILER_LEN]);
                    b[n - TRAILER_LEN..].copy_from_slice(&crc.to_le_bytes());
                    b
                } else {
                    seal_version(kind, 2, payload)
                };
                let v2 = open(kind, &sealed);
                match kind {
                    Kind::FingerprintSet | Kind::Index | Kind::Seen => assert_eq!(v2.unwrap(), (2, payload)),
                    _ => assert_eq!(v2.unwrap_err().code(), "UnsupportedVersion"),
                }
                assert_eq!(Kind::from_tag(&kind.tag()), Some(kind));
            }
        }
        let e = open(Kind::Idf, &seal(Kind::Seen, b"")).unwrap_err().to_string();
        assert!(e.contains("content-seen snapshot") && e.contains("IDF table"), "{e}");
    }
}
