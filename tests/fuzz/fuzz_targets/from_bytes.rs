//! Every decoder must turn arbitrary bytes into `Ok` or `Err`, never a panic, a hang or a
//! huge allocation; whatever loads must answer queries without panicking.
//!
//! ```text
//! cd fuzz && cargo +nightly fuzz run from_bytes -- -max_total_time=300
//! ```
//!
//! Half of the inputs get their envelope checksum recomputed, so the fuzzer reaches the
//! structural checks behind the CRC instead of stopping at it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simhash_wasm::index::Index;
use simhash_wasm::__private::snapshot::crc32c;
use simhash_wasm::snapshot::CompactSet;
use simhash_wasm::{ContentSeen, IdfTable};

fn all(data: &[u8]) {
    if let Ok(set) = CompactSet::from_bytes(data) {
        let v = set.to_vec();
        assert_eq!(v.len(), set.len());
        assert!(v.windows(2).all(|w| w[0] <= w[1]));
        for &x in v.iter().take(8) {
            assert!(set.contains(x));
            assert!(set.contains_within(x ^ 0b101, 2));
        }
        let probes: Vec<u64> = v.iter().take(8).map(|&x| x ^ 0b101).collect();
        assert_eq!(set.count_contained_within(&probes, 2), probes.len());
        let again = CompactSet::from_bytes(&set.to_bytes()).expect("re-encoded set loads");
        assert_eq!(again.to_vec(), v);
        let _ = set.huffman_table();
    }
    if let Ok(t) = IdfTable::from_bytes(data) {
        assert_eq!(IdfTable::from_bytes(&t.to_bytes()).expect("re-encoded table loads"), t);
    }
    // from_vec (the owned-buffer load behind Node's loadIndex) accepts and refuses exactly
    // what from_bytes does, with the same contents.
    match (Index::<u64>::from_bytes(data), Index::<u64>::from_vec(data.to_vec())) {
        (Ok(index), Ok(owned)) => {
            let _ = index.query(0);
            let bytes = index.to_bytes();
            assert_eq!(owned.to_bytes(), bytes);
            let _ = Index::<u64>::from_bytes(&bytes).expect("re-encoded index loads");
        }
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        (a, b) => panic!("from_bytes {:?} but from_vec {:?}", a.map(|_| ()), b.map(|_| ())),
    }
    if let Ok(index) = Index::<String>::from_bytes(data) {
        let _ = index.query(u64::MAX);
    }
    if let Ok(mut seen) = ContentSeen::from_bytes(data, None) {
        let bytes = seen.to_bytes();
        assert_eq!(
            ContentSeen::from_bytes(&bytes, None).expect("re-encoded content-seen loads").to_bytes(),
            bytes
        );
        let _ = seen.check_fingerprint("https://fuzz.example/", 0);
    }
}

fuzz_target!(|data: &[u8]| {
    all(data);
    if data.len() >= 24 {
        let mut v = data.to_vec();
        let n = v.len();
        let crc = crc32c(&v[..n - 4]);
        v[n - 4..].copy_from_slice(&crc.to_le_bytes());
        all(&v);
    }
});
