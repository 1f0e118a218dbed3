//! Sketch mode: the shared store with `ContentSeen`'s two-step flow, with the similarity
//! sketch of [`crate::sketch`].
//!
//! A check's candidates are the stored pages within k (from the index tables, as in the
//! fingerprint-only flow) and the stored pages sharing a MinHash band with the page (from
//! the band buckets of [`super::keys`]); a candidate is a duplicate when the estimated
//! Jaccard similarity reaches the threshold (a page without a sketch, on either side, is
//! a duplicate when within k). The winner is chosen as `ContentSeen` chooses: highest
//! estimate first (a page without one ranks as if at the threshold), then nearest, then
//! by URL. Pages are known by page numbers (see [`super::keys`]), so two stored pages may
//! share a fingerprint, as in `ContentSeen`.
//!
//! ## Calls
//!
//! The `CHECK_SKETCH` script ([`super::script::CHECK_SKETCH`]) reads the page's table and
//! band buckets. Table records that pass the nibble pre-filter are returned with their
//! page values; band references are first filtered *in the script* by two byte-level
//! bounds that every page whose estimate reaches the threshold passes ([`Bounds`], with
//! a margin), and only the survivors are returned. When nothing is returned, the page is
//! stored in the same call (one round trip: the common case). Otherwise wasm measures
//! (distances, estimates), ranks the duplicates, and calls again with the page numbers it
//! measured and its ranked duplicates; the script decides only when no page it has not
//! measured passes now (the same linearizable version check as the fingerprint-only
//! flow, keyed by page numbers, which are never reused), counting the page under the
//! first ranked duplicate still stored, or storing it. A URL stored with other content
//! takes one more call (`"M"`: wasm sends the old page's bucket positions). So a check
//! takes one call, two with candidates, three at most when it also replaces a URL's
//! content (more only when other workers keep storing new candidates in between).
//!
//! ## The filter ([`Bounds`])
//!
//! [`crate::sketch::estimate_jaccard`] uses the odd sketch while its XOR has `z < 3m/8`
//! bits set (`ODD_LIMIT`), and then `J = (T − δ)/(T + δ)` with `T` the two shingle counts'
//! sum and `δ = −(m/2) ln(1 − 2z/m) ≥ z`: so `J ≥ t` needs `z ≤ T (1 − t)/(1 + t)`.
//! Otherwise the MinHash part answers, and `J ≥ t` needs at least `⌈bins (15t + 1)/16⌉`
//! equal bins. The script counts set bits of byte XORs (Lua's `bit.bxor` on single bytes
//! and a 256-byte table of bit counts: exact) and equal nibbles; it passes a page when
//! `z < zlim` and `z · 2^16 ≤ T · c16 + 2^16`, or when at least `emin` bins are equal,
//! where wasm sends `zlim = ⌈3m/8⌉ + 1`, `c16 = ⌈2^16 (1 − t)/(1 + t)⌉ + 1` and
//! `emin = ⌊bins (15t + 1)/16⌋ − 1` (margins against rounding). [`Bounds::passes`] is the
//! script's Rust twin; a test checks that no pair whose estimate reaches `t` fails it.

use std::collections::HashSet;
use std::sync::Arc;

use super::decide::{again, bad_reply, reply_text, Outcome, StoreMatch};
use super::keys::band_bucket;
use super::record::{decode_page_value, page_number, PageRecord};
use super::Store;
use crate::error::{Error, Result};
use crate::sketch::bands::{band_key, bands_for};
use crate::sketch::{estimate, Sketch, SketchScheme, ODD_LIMIT};

/// The filter's bounds for one threshold and sketch size (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The odd sketch may answer only while fewer than this many bits differ.
    pub zlim: u16,
    /// `(1 − t)/(1 + t)` in units of 2^-16, rounded up (plus one).
    pub c16: u32,
    /// Fewest equal MinHash bins with which the MinHash estimate may reach `t`.
    pub emin: u16,
}

impl Bounds {
    /// The bounds for `scheme` at threshold `t`.
    pub fn new(scheme: SketchScheme, t: f64) -> Bounds {
        let m = scheme.odd_bits() as f64;
        let zlim = (m * (1.0 - ODD_LIMIT) / 2.0).ceil() as u16 + 1;
        let c16 = ((1.0 - t) / (1.0 + t) * 65536.0).ceil() as u32 + 1;
        let bins = scheme.bins() as f64;
        let emin = ((bins * (15.0 * t + 1.0) / 16.0).floor() as i64 - 1).max(0) as u16;
        Bounds { zlim, c16, emin }
    }

    /// The script's filter (its Rust twin): `true` when `stored` may reach the threshold
    /// against `query`.
    #[cfg(test)]
    pub fn passes(&self, query: &Sketch, stored: &Sketch) -> bool {
        let z: u32 = query.odd().iter().zip(stored.odd()).map(|(a, b)| (a ^ b).count_ones()).sum();
        let total = u64::from(query.shingles()) + u64::from(stored.shingles());
        if z < u32::from(self.zlim) && u64::from(z) * 65536 <= total * u64::from(self.c16) + 65536 {
            return true;
        }
        let bins = query.scheme().bins();
        let equal = (0..bins).filter(|&i| query.bin(i) == stored.bin(i)).count();
        equal >= usize::from(self.emin)
    }

    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.zlim.to_be_bytes());
        out.extend_from_slice(&self.c16.to_be_bytes());
        out.extend_from_slice(&self.emin.to_be_bytes());
    }
}

/// A stored page measured by a sketch check.
#[derive(Clone, Debug)]
struct Measured {
    page: u32,
    url: String,
    fingerprint: u64,
    distance: u32,
    estimate: Option<f64>,
    duplicate: bool,
}

/// The state of one sketch-mode check (`src/redis/sketch.rs` documents the flow).
pub struct SketchPlan {
    store: Arc<Store>,
    url: String,
    fp: u64,
    sketch: Option<Sketch>,
    query: Vec<u8>,
    evaluated: Vec<u8>,
    known: HashSet<u32>,
    cands: Vec<Measured>,
    replace: Vec<u8>,
    calls: u32,
    estimate: Option<f64>,
}

impl SketchPlan {
    pub(super) fn new(
        store: Arc<Store>,
        url: &str,
        fp: u64,
        sketch: Option<Sketch>,
        check_id: u64,
    ) -> Result<SketchPlan> {
        super::record::check_url(url)?;
        super::decide::check_check_id(check_id)?;
        let scheme = store.sketch.expect("a sketch-mode store");
        if let Some(s) = &sketch {
            if s.scheme() != scheme {
                return Err(Error::SchemeMismatch {
                    field: "sketch",
                    found: s.scheme().describe(),
                    expected: scheme.describe(),
                });
            }
        }
        let record = PageRecord {
            url: url.to_owned(),
            sketch: sketch.as_ref().map(|s| (crate::sketch::VERSION, s.payload().to_vec())),
        };
        let mut query = Vec::with_capacity(256 + url.len());
        query.extend_from_slice(&fp.to_be_bytes());
        query.extend_from_slice(&check_id.to_be_bytes());
        query.push(store.k as u8);
        super::keys::push_tables(&mut query, &store.geometry, fp);
        push_bands(&mut query, sketch.as_ref());
        Bounds::new(scheme, store.threshold).encode(&mut query);
        query.extend(record.encode()?);
        Ok(SketchPlan {
            store,
            url: url.to_owned(),
            fp,
            sketch,
            query,
            evaluated: Vec::new(),
            known: HashSet::new(),
            cands: Vec::new(),
            replace: Vec::new(),
            calls: 0,
            estimate: None,
        })
    }

    /// The estimated Jaccard similarity to the winning match, once decided (`None` when
    /// new, or when either side has no sketch).
    pub fn estimate(&self) -> Option<f64> {
        self.estimate
    }

    /// The page's own sketch (`None` for a page checked by its fingerprint alone).
    pub fn sketch(&self) -> Option<&Sketch> {
        self.sketch.as_ref()
    }

    /// The page's entry in its next `CHECK_SKETCH` call (URL, query, evaluated, ranked,
    /// replace, each after its length, as [`CheckPlan::entry`](super::CheckPlan::entry));
    /// [`check_argv`](super::decide::check_argv) makes the `ARGV` of a call for one or several.
    pub fn entry(&self) -> Vec<u8> {
        let mut ranked = Vec::new();
        for c in self.cands.iter().filter(|c| c.duplicate) {
            ranked.extend_from_slice(&c.page.to_be_bytes());
        }
        super::decide::frame(&[self.url.as_bytes(), &self.query, &self.evaluated, &ranked, &self.replace])
    }

    /// The `CHECK_SKETCH` reply: `Some(outcome)` when decided, `None` to call again.
    pub fn feed(&mut self, reply: &[Vec<u8>]) -> Result<Option<Outcome>> {
        self.calls += 1;
        let s = Arc::clone(&self.store);
        let status = reply.first().map(Vec::as_slice).unwrap_or(b"");
        let text = |i: usize| reply_text(reply, i);
        match status {
            b"N" | b"R" if reply.len() == 1 => Ok(Some(Outcome {
                duplicate: false,
                matches: Vec::new(),
                fingerprint: self.fp,
                cluster: Some(self.url.clone()),
                count: Some(1),
                calls: self.calls,
                replayed: status == b"R",
            })),
            b"D" | b"R" => {
                let cluster = text(1)?;
                let count = text(2)?.parse().map_err(|_| bad_reply("a count is not a number"))?;
                let mut matches = Vec::new();
                for (i, c) in self.cands.iter().filter(|c| c.duplicate).enumerate() {
                    let m = reply.get(3 + i).ok_or_else(|| bad_reply("a match is missing"))?;
                    if m.first() == Some(&b'1') {
                        if matches.is_empty() {
                            self.estimate = c.estimate;
                        }
                        matches.push(StoreMatch {
                            url: Some(c.url.clone()),
                            fingerprint: c.fingerprint,
                            distance: c.distance,
                        });
                    }
                }
                Ok(Some(Outcome {
                    duplicate: true,
                    matches,
                    fingerprint: self.fp,
                    cluster: Some(cluster),
                    count: Some(count),
                    calls: self.calls,
                    replayed: status == b"R",
                }))
            }
            b"C" => {
                if reply.len() < 3 || reply.len().is_multiple_of(2) {
                    return Err(bad_reply("candidates come in pairs"));
                }
                for pair in reply[1..].chunks(2) {
                    self.measure(page_number(&pair[0])?, &pair[1])?;
                }
                self.rank();
                again(self.calls)
            }
            b"M" => {
                let old = reply.get(1).ok_or_else(|| bad_reply("no page number"))?;
                let (fp, rec) = decode_page_value(reply.get(2).map(Vec::as_slice).unwrap_or(b""))?;
                let sketch = match rec.sketch {
                    Some((_, bytes)) => {
                        Some(Sketch::from_stored_payload(s.sketch.expect("sketch mode"), &bytes)?)
                    }
                    None => None,
                };
                let page = page_number(old)?;
                let mut rep = page.to_be_bytes().to_vec();
                for g in &s.geometry {
                    let (h, f, mut r) = (g.bucket_key(fp), g.bucket_field(fp), g.record(fp));
                    r.extend_from_slice(&page.to_be_bytes());
                    rep.extend([h.len() as u8, f.len() as u8, r.len() as u8]);
                    rep.extend(h);
                    rep.extend(f);
                    rep.extend(r);
                }
                push_bands(&mut rep, sketch.as_ref());
                self.replace = rep;
                again(self.calls)
            }
            b"X" => {
                let key = &s.keys[0];
                super::meta::compare(reply.get(1).map(Vec::as_slice).unwrap_or(b""), &s.meta, key)?;
                Err(bad_reply("the namespace's settings changed"))
            }
            b"G" => Err(super::decide::gone(&s.keys[0])),
            b"F" => Err(super::decide::foreign(
                &s.keys[0],
                &String::from_utf8_lossy(reply.get(1).map(Vec::as_slice).unwrap_or(b"")),
            )),
            _ => Err(bad_reply("an unknown status")),
        }
    }

    /// Measures one returned page as `ContentSeen` does: a candidate when within k or
    /// sharing a band; a duplicate when its estimate reaches the threshold, or (no
    /// estimate) when within k.
    fn measure(&mut self, page: u32, value: &[u8]) -> Result<()> {
        if !self.known.insert(page) {
            return Ok(());
        }
        self.evaluated.extend_from_slice(&page.to_be_bytes());
        let (fingerprint, rec) = decode_page_value(value)?;
        let scheme = self.store.sketch.expect("sketch mode");
        let stored = match rec.sketch {
            Some((_, bytes)) => Some(Sketch::from_stored_payload(scheme, &bytes)?),
            None => None,
        };
        let distance = crate::hamming(fingerprint, self.fp);
        let within = distance <= self.store.k;
        let (estimate, banded) = match (&self.sketch, &stored) {
            (Some(q), Some(p)) => {
                (Some(estimate(q, p)), (0..bands_for(scheme)).any(|b| band_key(q, b) == band_key(p, b)))
            }
            _ => (None, false),
        };
        if !within && !banded {
            return Ok(());
        }
        let t = self.store.threshold;
        let duplicate = match estimate {
            Some(e) => e >= t,
            None => within,
        };
        self.cands.push(Measured { page, url: rec.url, fingerprint, distance, estimate, duplicate });
        Ok(())
    }

    /// `ContentSeen`'s order: duplicates first, then by estimate (none ranks at the
    /// threshold), then nearest, then by URL.
    fn rank(&mut self) {
        let t = self.store.threshold;
        let rank = |c: &Measured| c.estimate.unwrap_or(t);
        crate::sort::sort_by(&mut self.cands, |a, b| {
            b.duplicate
                .cmp(&a.duplicate)
                .then_with(|| rank(b).total_cmp(&rank(a)))
                .then_with(|| a.distance.cmp(&b.distance))
                .then_with(|| a.url.cmp(&b.url))
        });
    }
}

/// Appends the band count and each band's bucket (name and field lengths, name, field,
/// the band record's first byte).
fn push_bands(out: &mut Vec<u8>, sketch: Option<&Sketch>) {
    let Some(s) = sketch else {
        out.push(0);
        return;
    };
    let n = bands_for(s.scheme());
    out.push(n as u8);
    for b in 0..n {
        let (h, f, kb) = band_bucket(b, band_key(s, b));
        out.extend([h.len() as u8, f.len() as u8]);
        out.extend(h);
        out.extend(f);
        out.push(kb);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    /// Pairs of sets from identical to disjoint, small and large: every pair whose
    /// estimate reaches t passes the filter (never a missed duplicate), and unrelated
    /// pairs mostly fail (the filter does work).
    #[test]
    fn the_filter_never_drops_a_pair_that_reaches_the_threshold() {
        let mut rng = Rng(77);
        for size in [32, 64, 128] {
            let scheme = SketchScheme::new(size).unwrap();
            for t in [0.5, 0.7, 0.81, 0.9, 0.97] {
                let b = Bounds::new(scheme, t);
                let (mut reach, mut unrelated_pass, mut unrelated) = (0, 0, 0);
                for _ in 0..600 {
                    let n = 3 + rng.below(3000) as usize;
                    let a: Vec<u64> = (0..n).map(|_| rng.next()).collect();
                    // Keep a share of a, add fresh shingles.
                    // Light edits, moderate ones, or any overlap.
                    let (keep, fresh) = match rng.below(3) {
                        0 => (n - rng.below(n as u64 / 30 + 1) as usize, rng.below(n as u64 / 60 + 2)),
                        1 => (n - rng.below(n as u64 / 3 + 1) as usize, rng.below(n as u64 / 8 + 2)),
                        _ => (rng.below(n as u64 + 1) as usize, rng.below(n as u64 / 4 + 2)),
                    };
                    let mut c: Vec<u64> = a[..keep].to_vec();
                    c.extend((0..fresh).map(|_| rng.next()));
                    let (sa, sc) = (Sketch::from_shingles(scheme, &a), Sketch::from_shingles(scheme, &c));
                    let e = estimate(&sa, &sc);
                    if e >= t {
                        reach += 1;
                        assert!(b.passes(&sa, &sc), "size {size} t {t}: estimate {e} dropped");
                    }
                    if keep == 0 && n > 200 {
                        unrelated += 1;
                        unrelated_pass += usize::from(b.passes(&sa, &sc));
                    }
                }
                assert!(reach > 50, "size {size} t {t}: only {reach} pairs reach t");
                assert!(
                    unrelated_pass * 20 <= unrelated,
                    "{unrelated_pass} of {unrelated} unrelated pairs pass"
                );
            }
        }
    }

    /// The bounds at the default settings (golden, as the script receives them).
    #[test]
    fn default_bounds() {
        let b = Bounds::new(SketchScheme::default(), crate::seen::DEFAULT_THRESHOLD);
        // m = 480 odd bits: 3m/8 = 180; (1 - 0.81)/(1.81) · 65536 = 6879.3; 128 · (15 · 0.81 + 1)/16 = 105.2.
        assert_eq!(b, Bounds { zlim: 181, c16: 6881, emin: 104 });
    }
}
