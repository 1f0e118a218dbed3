//! Arithmetic that stored values depend on, written with IEEE-754 `+ − × ÷` only, so that
//! every platform computes the same bits: the weights of a fingerprint and the estimates
//! of a sketch must not change with the CPU or the libm.

/// Natural logarithm of `x > 0`, bit-identical on every platform.
///
/// Writes `x = m · 2^e` with `m` in [√½, √2), then `ln m = 2·atanh(z)`, `z = (m−1)/(m+1)`,
/// summed as a fixed 14-term series in Horner form (|z| < 0.1716, so the error is below
/// 1e-16 relative). Only `+ − × ÷` are used. Returns `-inf` for 0 and NaN below 0.
///
/// ```
/// use simhash_wasm::__private::math::ln;
/// for x in [1.0, 2.0, 10.0, 12345.678, 1e300, 1e-300] {
///     assert!((ln(x) - x.ln()).abs() <= 1e-14 * x.ln().abs().max(1.0));
/// }
/// assert_eq!(ln(1.0), 0.0);
/// ```
pub fn ln(x: f64) -> f64 {
    if x.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    if x.is_infinite() {
        return x;
    }
    // Split x into mantissa and exponent exactly, from the bits (subnormals scaled first).
    let (mut bits, mut e) = (x.to_bits(), 0i64);
    if bits >> 52 == 0 {
        bits = (x * 18_014_398_509_481_984.0).to_bits(); // 2^54
        e -= 54;
    }
    e += ((bits >> 52) & 0x7FF) as i64 - 1023;
    let mut m = f64::from_bits((bits & 0x000F_FFFF_FFFF_FFFF) | 0x3FF0_0000_0000_0000); // [1, 2)
    if m > std::f64::consts::SQRT_2 {
        m *= 0.5;
        e += 1;
    }
    let z = (m - 1.0) / (m + 1.0);
    let z2 = z * z;
    // atanh(z)/z = sum z2^k / (2k+1), k = 0..14
    let mut s = 1.0 / 29.0;
    for k in (0..14).rev() {
        s = s * z2 + 1.0 / (2 * k + 1) as f64;
    }
    // ln 2 split in two (fdlibm's constants) so that e·LN2_HI is exact.
    const LN2_HI: f64 = f64::from_bits(0x3FE6_2E42_FEE0_0000);
    const LN2_LO: f64 = f64::from_bits(0x3DEA_39EF_3579_3C76);
    let ef = e as f64;
    ef * LN2_HI + (2.0 * z * s + ef * LN2_LO)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_is_accurate_over_a_wide_range() {
        let mut x = 1e-310;
        while x < 1e300 {
            let (a, b) = (ln(x), x.ln());
            assert!((a - b).abs() <= 4.0 * f64::EPSILON * b.abs().max(1.0), "{x}: {a} vs {b}");
            x *= 1.37;
        }
        for tf in 1..5000u32 {
            let (a, b) = (ln(f64::from(tf)), f64::from(tf).ln());
            assert!((a - b).abs() <= 2.0 * f64::EPSILON * b.max(1.0), "{tf}");
        }
        assert!(ln(-1.0).is_nan());
        assert_eq!(ln(0.0), f64::NEG_INFINITY);
    }
}
