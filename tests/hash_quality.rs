//! Statistical checks of the feature hash: every output bit near 50/50, pairs of bits
//! independent, and full avalanche (one input bit flipped changes each output bit with
//! probability near 1/2). Inputs are the kind of features the scheme hashes: short
//! n-grams of text, sequential and near-identical.

use simhash_wasm::__private::hash::hash_bytes;

fn features() -> Vec<Vec<u8>> {
    // 40,000 near-identical n-grams: the worst case for a weak hash.
    let mut v = Vec::new();
    for i in 0..20_000u32 {
        v.push(format!("w{i:05}").into_bytes()); // 6 bytes, sequential
        v.push(format!("第{i}行").into_bytes()); // CJK + digits, 7-11 bytes
    }
    v
}

#[test]
fn every_output_bit_is_balanced() {
    let f = features();
    let n = f.len() as f64;
    let mut ones = [0u32; 64];
    for x in &f {
        let h = hash_bytes(x);
        for (i, o) in ones.iter_mut().enumerate() {
            *o += ((h >> i) & 1) as u32;
        }
    }
    // 5 standard deviations of Binomial(n, 1/2).
    let tol = 5.0 * (n * 0.25).sqrt();
    for (i, &o) in ones.iter().enumerate() {
        assert!((f64::from(o) - n / 2.0).abs() < tol, "bit {i}: {o} ones of {n}");
    }
}

#[test]
fn pairs_of_output_bits_are_independent() {
    let f = features();
    let n = f.len() as f64;
    let hs: Vec<u64> = f.iter().map(|x| hash_bytes(x)).collect();
    let tol = 5.0 * (n * 0.1875).sqrt(); // sd of Binomial(n, 1/4)
    for i in 0..64 {
        for j in i + 1..64 {
            let both = hs.iter().filter(|&&h| (h >> i) & 1 == 1 && (h >> j) & 1 == 1).count() as f64;
            assert!((both - n / 4.0).abs() < tol, "bits {i},{j}: {both} of {n}");
        }
    }
}

#[test]
fn flipping_one_input_bit_flips_each_output_bit_half_the_time() {
    // An odd step takes both kinds of feature (they alternate), so input bits up to 88
    // (the 11-byte CJK features) are flipped, not only the 48 bits of the 6-byte ones.
    let f: Vec<Vec<u8>> = features().into_iter().step_by(3).collect();
    let mut flips = vec![[0u32; 64]; 96]; // input bit position (first 12 bytes) x output bit
    let mut trials = [0u32; 96];
    for x in &f {
        let h = hash_bytes(x);
        for ib in 0..(x.len() * 8).min(96) {
            let mut y = x.clone();
            y[ib / 8] ^= 1 << (ib % 8);
            let d = h ^ hash_bytes(&y);
            trials[ib] += 1;
            for (ob, c) in flips[ib].iter_mut().enumerate() {
                *c += ((d >> ob) & 1) as u32;
            }
        }
    }
    // Input bits that too few features have are not judged, but every bit that 2,500
    // features have must be, so the tolerance of 0.05 is 5 standard deviations or more.
    let mut checked = 0;
    for ib in 0..96 {
        let n = f64::from(trials[ib]);
        if n < 2500.0 {
            continue;
        }
        checked += 1;
        for (ob, &f) in flips[ib].iter().enumerate() {
            let p = f64::from(f) / n;
            assert!((p - 0.5).abs() < 0.05, "input bit {ib} -> output bit {ob}: {p:.3} over {n}");
        }
    }
    assert_eq!(checked, 88, "input bits flipped by at least 2,500 features");
}
