//! [`Layout`]: `k`, the block widths and the tables chosen from them (or the probing
//! strategy), validated on construction; the cost model behind [`Layout::auto`]; and
//! the directory width each table gets ([`bucket_bits`]).

use std::fmt;

use crate::error::{Error, Result};

/// Most tables a layout may have (C(blocks, k)); more would cost more memory than any
/// index is worth.
pub const MAX_TABLES: usize = 1024;
/// Largest `k` the probing strategy accepts: C(64,0)+…+C(64,4) = 679,121 lookups a query.
pub const MAX_PROBE_K: u32 = 4;
/// Widest bucket directory: 2^24 offsets.
const MAX_BUCKET_BITS: u32 = 24;
/// Largest `k` any layout accepts: a multi-table layout needs more blocks than `k`, and
/// 64 bits make at most 64 blocks.
pub const MAX_K: u32 = 63;
/// `k` of an index made from the JS API (`SimHashIndex`, `ContentSeen`) when none is given.
pub const DEFAULT_K: u32 = 3;
/// Fingerprints the `"auto"` layout plans for when no expected size is given.
pub const DEFAULT_EXPECTED_SIZE: f64 = 1e6;
/// What the layout option takes, for messages.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
const LAYOUT_EXPECTED: &str = "\"default\", \"auto\", \"probe\" or an array of block widths";

/// How the index is organised: `k`, the block widths, and so the tables; or the probing
/// strategy. Validated on construction, so every `Layout` gives exact answers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    pub(super) k: u32,
    pub(super) widths: Vec<u32>,
    pub(super) probe: bool,
    /// Per table, the chosen blocks in ascending order.
    pub(super) tables: Vec<Vec<u32>>,
}

/// C(n, r), saturating at `u64::MAX`: rows of Pascal's triangle by addition (n ≤ 64 here),
/// so neither 128-bit division nor 128-bit formatting lands in the wasm (about 2.6 kB).
fn binomial(n: u64, r: u64) -> u64 {
    if r > n {
        return 0;
    }
    let r = r.min(n - r) as usize;
    let mut row = vec![0u64; r + 1];
    row[0] = 1;
    for i in 1..=n as usize {
        for j in (1..=r.min(i)).rev() {
            row[j] = row[j].saturating_add(row[j - 1]);
        }
    }
    row[r]
}

/// C(64,0)+…+C(64,k), saturating: the variants of a fingerprint within `k` bits. C(64, i) is
/// 0 past i = 64, so the sum stops there, whatever `k` a caller (or a damaged snapshot) gives.
fn probes_within(k: u32) -> u64 {
    (0..=u64::from(k.min(64))).fold(0u64, |s, i| s.saturating_add(binomial(64, i)))
}

/// A count for a message: exact, or "2^64 or more" where [`binomial`] saturated.
fn count_text(x: u64) -> String {
    if x == u64::MAX {
        "2^64 or more".to_owned()
    } else {
        x.to_string()
    }
}

fn invalid(reason: impl Into<String>) -> Error {
    Error::InvalidLayout { reason: reason.into() }
}

impl Layout {
    /// A layout with explicit block widths (most significant block first), which must be
    /// non-zero and sum to 64, with more blocks than `k`. The tables are all C(b, b − k)
    /// choices of `b − k` blocks.
    ///
    /// ```
    /// use simhash_wasm::index::Layout;
    /// let paper = Layout::new(3, &[16, 12, 12, 12, 12])?;
    /// assert_eq!(paper.tables(), 10);
    /// assert_eq!(paper.key_bits(), vec![28, 28, 28, 28, 24, 24, 24, 24, 24, 24]);
    /// assert!(Layout::new(3, &[32, 32]).is_err()); // 2 blocks cannot guarantee k = 3
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn new(k: u32, widths: &[u32]) -> Result<Layout> {
        let b = widths.len();
        if b == 0 {
            return Err(invalid(
                "no blocks were given; give block widths that sum to 64, e.g. [16, 16, 16, 16]",
            ));
        }
        if b > 64 {
            return Err(invalid(format!(
                "{b} blocks were given, but 64 bits make at most 64 blocks of 1 bit"
            )));
        }
        if let Some(i) = widths.iter().position(|&w| w == 0) {
            return Err(invalid(format!("block #{i} has width 0; every block needs at least 1 bit")));
        }
        let sum: u64 = widths.iter().map(|&w| u64::from(w)).sum();
        if sum != 64 {
            return Err(invalid(format!(
                "the block widths {widths:?} sum to {sum} bits, but a fingerprint has 64; adjust them to sum to 64"
            )));
        }
        if b as u64 <= u64::from(k) {
            return Err(invalid(format!(
                "{b} blocks cannot find every fingerprint within k = {k} bits: {k} differing bits \
                 can touch every block, so no block is guaranteed equal; use at least {} blocks",
                u64::from(k) + 1
            )));
        }
        let tables = binomial(b as u64, u64::from(k));
        if tables > MAX_TABLES as u64 {
            let tables = count_text(tables);
            return Err(invalid(format!(
                "{b} blocks with k = {k} make {tables} tables, more than the limit of {MAX_TABLES}; \
                 use fewer blocks (k + 1 to k + 3 is usual)"
            )));
        }
        let keep = b - k as usize;
        let mut combos = Vec::new();
        let mut c: Vec<u32> = (0..keep as u32).collect();
        loop {
            combos.push(c.clone());
            // next combination in lexicographic order
            let mut i = keep;
            let mut advanced = false;
            while i > 0 {
                i -= 1;
                if c[i] < (b - keep + i) as u32 {
                    c[i] += 1;
                    for j in i + 1..keep {
                        c[j] = c[j - 1] + 1;
                    }
                    advanced = true;
                    break;
                }
            }
            if !advanced {
                break;
            }
        }
        Ok(Layout { k, widths: widths.to_vec(), probe: false, tables: combos })
    }

    /// `blocks` blocks of (nearly) equal width: the first `64 % blocks` blocks are one bit
    /// wider. `Layout::even(3, 4)` is the paper's 4 × 16 bits.
    ///
    /// ```
    /// use simhash_wasm::index::Layout;
    /// assert_eq!(Layout::even(3, 6)?.widths(), &[11, 11, 11, 11, 10, 10]);
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn even(k: u32, blocks: u32) -> Result<Layout> {
        if blocks == 0 || blocks > 64 {
            return Err(invalid(format!("{blocks} blocks: use from k + 1 to 64 blocks")));
        }
        let base = 64 / blocks;
        let rem = 64 % blocks;
        let widths: Vec<u32> = (0..blocks).map(|i| base + u32::from(i < rem)).collect();
        Layout::new(k, &widths)
    }

    /// The probing strategy: one exact-lookup table over whole fingerprints, queried with
    /// every variant within `k` bits (at most [`MAX_PROBE_K`]). Least memory, slow for
    /// k ≥ 3. Its [`widths`](Layout::widths) are `[64]`.
    ///
    /// ```
    /// use simhash_wasm::index::Layout;
    /// let p = Layout::probe(2)?;
    /// assert!(p.is_probe());
    /// assert_eq!(p.probes_per_query(), 1 + 64 + 2016);
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn probe(k: u32) -> Result<Layout> {
        if k > MAX_PROBE_K {
            return Err(invalid(format!(
                "probing every variant within k = {k} bits is {} lookups a query; the limit is \
                 k = {MAX_PROBE_K}, use a multi-table layout instead",
                count_text(probes_within(k))
            )));
        }
        Ok(Layout { k, widths: vec![64], probe: true, tables: vec![vec![0]] })
    }

    /// The default layout for `k`, chosen by measurement for k = 3 (`tests/bench/index.rs`):
    /// `k + 1` equal blocks, so `k + 1` tables keyed on one block each (4 × 16 bits for
    /// k = 3). It is the most compact multi-table layout; [`Layout::auto`] trades memory
    /// for speed.
    ///
    /// ```
    /// use simhash_wasm::index::Layout;
    /// assert_eq!(Layout::default_for_k(3)?.widths(), &[16, 16, 16, 16]);
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn default_for_k(k: u32) -> Result<Layout> {
        if k >= 64 {
            return Err(invalid(format!("k = {k}: k must be below 64")));
        }
        Layout::even(k, k + 1)
    }

    /// Picks the layout with the lowest estimated query cost for about `expected_n`
    /// fingerprints whose estimated size fits `memory_budget_bytes` (no limit when
    /// `None`). Candidates: `k + 1` to `k + 6` equal blocks. The cost model charges each
    /// table probe like 4 candidate checks. Fails when even the most compact layout
    /// does not fit the budget.
    ///
    /// ```
    /// use simhash_wasm::index::Layout;
    /// // A million fingerprints in 40 MB: the 4-table layout.
    /// assert_eq!(Layout::auto(1 << 20, 3, Some(40 << 20))?.tables(), 4);
    /// // No budget: 10 tables keyed on 25-26 bits, far fewer candidates.
    /// assert_eq!(Layout::auto(1 << 20, 3, None)?.tables(), 10);
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn auto(expected_n: usize, k: u32, memory_budget_bytes: Option<usize>) -> Result<Layout> {
        if k >= 64 {
            return Err(invalid(format!("k = {k}: k must be below 64")));
        }
        let n = expected_n.max(1) as f64;
        let mut best: Option<(f64, Layout)> = None;
        let mut smallest: Option<f64> = None;
        for blocks in k + 1..=(k + 6).min(64) {
            let Ok(layout) = Layout::even(k, blocks) else {
                continue;
            };
            let bytes = layout.estimated_bytes(expected_n);
            smallest = Some(smallest.map_or(bytes, |s: f64| s.min(bytes)));
            if let Some(budget) = memory_budget_bytes {
                if bytes > budget as f64 {
                    continue;
                }
            }
            let cost: f64 =
                layout.key_bits().iter().map(|&kb| 4.0 + n / 2f64.powi(kb.min(1000) as i32)).sum();
            if best.as_ref().is_none_or(|(c, _)| cost < *c) {
                best = Some((cost, layout));
            }
        }
        best.map(|(_, l)| l).ok_or_else(|| {
            invalid(format!(
                "no layout for k = {k} and {expected_n} fingerprints fits in {} bytes; the most \
                 compact needs about {}",
                memory_budget_bytes.unwrap_or(0),
                smallest.unwrap_or(0.0).ceil() as u64
            ))
        })
    }
}

// The layout options as the JS bindings read them (names, and numbers as JS gives them);
// only src/wasm/ calls these.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
impl Layout {
    /// The layout names [`Layout::from_name`] takes, as the JS API and the CLI spell them.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) const NAMES: [&'static str; 3] = ["default", "auto", "probe"];

    /// The option names of a layout besides `k`, as the JS API spells them.
    pub(crate) const OPTION_NAMES: [&'static str; 3] = ["layout", "expectedSize", "memoryBudget"];

    /// The layout options as the JS API and the CLI give them, resolved in one place:
    /// explicit block `widths` win (checked by [`Layout::new`]); otherwise the `name`
    /// with [`Layout::from_name`]. `k` defaults to [`DEFAULT_K`].
    pub(crate) fn from_options(
        name: Option<&str>,
        widths: Option<&[u32]>,
        k: Option<u32>,
        expected_size: Option<f64>,
        memory_budget: Option<f64>,
    ) -> Result<Layout> {
        let k = k.unwrap_or(DEFAULT_K);
        match widths {
            Some(w) => Layout::new(k, w),
            None => Layout::from_name(name, k, expected_size, memory_budget),
        }
    }

    /// `k` as a user gives it (the JS API's `k` option, a number): `None` takes `default`;
    /// otherwise an integer from 0 to [`MAX_K`], or an [`Error::InvalidOption`] that says so.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn k_from_number(k: Option<f64>, default: u32) -> Result<u32> {
        match k {
            None => Ok(default),
            Some(x) if x.fract() == 0.0 && (0.0..=f64::from(MAX_K)).contains(&x) => Ok(x as u32),
            Some(x) => {
                Err(Error::option("k", crate::error::number(x), format!("an integer from 0 to {MAX_K}")))
            }
        }
    }

    /// The layout a user names, as the JS API and the CLI take it:
    ///
    /// * `None` or `"default"`: [`Layout::default_for_k`];
    /// * `"probe"`: [`Layout::probe`];
    /// * `"auto"`: [`Layout::auto`] for `expected_size` fingerprints (default
    ///   [`DEFAULT_EXPECTED_SIZE`], 1e6; fractions are dropped) within `memory_budget` bytes
    ///   (no limit when `None`). Both must be numbers from 0 up (`Infinity` is no limit).
    ///   The other names ignore them.
    ///
    /// Any other name is an [`Error::InvalidOption`] that lists the names; a layout that
    /// cannot be made (k too large for probing, no layout within the budget) is an
    /// [`Error::InvalidLayout`].
    pub(crate) fn from_name(
        name: Option<&str>,
        k: u32,
        expected_size: Option<f64>,
        memory_budget: Option<f64>,
    ) -> Result<Layout> {
        match name.unwrap_or("default") {
            "default" => Layout::default_for_k(k),
            "probe" => Layout::probe(k),
            "auto" => {
                let expected = count_option("expectedSize", expected_size, "a number of fingerprints")?
                    .unwrap_or(DEFAULT_EXPECTED_SIZE);
                let budget = count_option("memoryBudget", memory_budget, "a number of bytes")?;
                Layout::auto(expected as usize, k, budget.map(|b| b as usize))
            }
            other => Err(Error::option("layout", crate::error::quoted(other), LAYOUT_EXPECTED)),
        }
    }

    /// A layout from block widths as a user gives them (the JS API's `layout: [16, 16, 16,
    /// 16]`, numbers): each must be an integer from 0 to 64, or the whole list is an
    /// [`Error::InvalidOption`]; then [`Layout::new`] checks the layout itself (no zero
    /// widths, sum 64, more blocks than `k`).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn from_widths(k: u32, widths: &[f64]) -> Result<Layout> {
        let mut ws = Vec::with_capacity(widths.len());
        for &w in widths {
            if w.fract() == 0.0 && (0.0..=64.0).contains(&w) {
                ws.push(w as u32);
            } else {
                let list: Vec<String> = widths.iter().map(|&x| crate::error::number(x)).collect();
                return Err(Error::option(
                    "layout",
                    format!("[{}]", list.join(",")),
                    "block widths from 1 to 64, like [16, 16, 16, 16]",
                ));
            }
        }
        Layout::new(k, &ws)
    }
}

impl Layout {
    /// Rough bytes an index of `n` `u64` ids in this layout uses after a bulk build.
    fn estimated_bytes(&self, n: usize) -> f64 {
        let n_f = n as f64;
        let per_fp = 8.0 + 8.0 + 6.0 + 4.0 * (self.tables.len() as f64 - 1.0);
        let dirs: f64 =
            self.key_bits().iter().map(|&kb| 4.0 * 2f64.powi(bucket_bits(kb, n, self.probe) as i32)).sum();
        per_fp * n_f + dirs
    }

    /// The largest distance the layout guarantees to find.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// The block widths, most significant block first (`[64]` for probing).
    pub fn widths(&self) -> &[u32] {
        &self.widths
    }

    /// `true` for the probing strategy ([`Layout::probe`]).
    pub fn is_probe(&self) -> bool {
        self.probe
    }

    /// Number of tables (1 for probing).
    pub fn tables(&self) -> usize {
        self.tables.len()
    }

    /// The blocks each table keys on, in key order (ascending block numbers).
    pub fn table_blocks(&self) -> &[Vec<u32>] {
        &self.tables
    }

    /// Key bits of each table (64 for probing).
    pub fn key_bits(&self) -> Vec<u32> {
        self.tables.iter().map(|t| t.iter().map(|&b| self.widths[b as usize]).sum()).collect()
    }

    /// Exact-key lookups a query makes: the tables, or C(64,0)+…+C(64,k) when probing.
    pub fn probes_per_query(&self) -> u64 {
        if self.probe {
            probes_within(self.k)
        } else {
            self.tables.len() as u64
        }
    }

    /// Bit offset (from bit 0, the least significant) just above block `b`.
    pub(super) fn block_hi(&self, b: usize) -> u32 {
        64 - self.widths[..b].iter().sum::<u32>()
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.probe {
            return write!(f, "probe k={}", self.k);
        }
        let w: Vec<String> = self.widths.iter().map(|w| w.to_string()).collect();
        write!(f, "k={} blocks={} ({} tables)", self.k, w.join(","), self.tables.len())
    }
}

/// A count option (`expectedSize`, `memoryBudget`): absent, or a number from 0 up.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn count_option(option: &'static str, value: Option<f64>, what: &str) -> Result<Option<f64>> {
    match value {
        Some(x) if x.is_nan() || x < 0.0 => {
            Err(Error::option(option, crate::error::number(x), format!("{what}, 0 or more")))
        }
        v => Ok(v),
    }
}

/// Directory bits for a table with `key_bits` key bits over `n` entries.
pub(super) fn bucket_bits(key_bits: u32, n: usize, probe: bool) -> u32 {
    if n < 2 {
        return 0;
    }
    let lg = usize::BITS - 1 - n.leading_zeros(); // floor(log2 n)
    let want = if probe { lg + 1 } else { lg };
    want.min(key_bits).min(MAX_BUCKET_BITS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_as_the_js_api_gives_them() -> Result<()> {
        assert_eq!(Layout::k_from_number(None, DEFAULT_K)?, 3);
        assert_eq!(Layout::k_from_number(Some(63.0), DEFAULT_K)?, 63);
        assert_eq!(
            Layout::k_from_number(Some(64.0), DEFAULT_K).unwrap_err().to_string(),
            "invalid option `k` = 64: expected an integer from 0 to 63"
        );

        assert_eq!(Layout::from_name(None, 3, None, None)?, Layout::default_for_k(3)?);
        assert!(Layout::from_name(Some("probe"), 2, None, None)?.is_probe());
        let auto = Layout::from_name(Some("auto"), 3, Some(1e6), None)?;
        assert_eq!(auto, Layout::auto(1_000_000, 3, None)?);
        assert_eq!(Layout::from_name(Some("fast"), 3, None, None).unwrap_err().code(), "InvalidOption");

        assert_eq!(Layout::from_widths(3, &[16.0, 12.0, 12.0, 12.0, 12.0])?.tables(), 10);
        assert_eq!(
            Layout::from_widths(3, &[16.0, 16.5]).unwrap_err().to_string(),
            "invalid option `layout` = [16,16.5]: expected block widths from 1 to 64, like [16, 16, 16, 16]"
        );
        assert_eq!(Layout::from_widths(3, &[32.0, 32.0]).unwrap_err().code(), "InvalidLayout");
        Ok(())
    }

    #[test]
    fn binomial_by_addition_equals_the_multiplicative_formula() {
        for n in 0..=64u64 {
            for r in 0..=n + 1 {
                let mut exact: u128 = if r > n { 0 } else { 1 };
                for i in 0..r.min(n + 1) {
                    exact = exact * u128::from(n - i) / u128::from(i + 1);
                }
                assert_eq!(u128::from(binomial(n, r)), exact.min(u128::from(u64::MAX)), "C({n}, {r})");
            }
        }
        assert_eq!(count_text(binomial(64, 32)), "1832624140942590534");
    }

    #[test]
    fn a_huge_probe_k_is_refused_with_the_count_of_lookups() {
        assert_eq!(probes_within(2), 1 + 64 + 2016);
        assert_eq!(probes_within(64), u64::MAX);
        // Any k a caller or a damaged snapshot gives: the sum stops at 64 bits.
        for k in [5, 63, 64, 65, 1 << 20, u32::MAX] {
            let (code, text) = message(Layout::probe(k));
            assert_eq!(code, "InvalidLayout");
            assert!(
                text.contains(&format!("k = {k} bits is {} lookups", count_text(probes_within(k)))),
                "{text}"
            );
        }
    }

    fn message(r: Result<impl fmt::Debug>) -> (&'static str, String) {
        let e = r.unwrap_err();
        (e.code(), e.to_string())
    }

    #[test]
    fn k_from_number_takes_integers_from_0_to_63() {
        assert_eq!(Layout::k_from_number(None, 3).unwrap(), 3);
        assert_eq!(Layout::k_from_number(None, 10).unwrap(), 10);
        for k in [0u32, 1, 3, 10, 62, 63] {
            assert_eq!(Layout::k_from_number(Some(f64::from(k)), 3).unwrap(), k);
        }
        for (bad, shown) in [
            (64.0, "64"),
            (65.0, "65"),
            (-1.0, "-1"),
            (2.5, "2.5"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Infinity"),
        ] {
            assert_eq!(
                message(Layout::k_from_number(Some(bad), 3)),
                ("InvalidOption", format!("invalid option `k` = {shown}: expected an integer from 0 to 63")),
                "k = {bad}"
            );
        }
    }

    /// Every k the option accepts makes a default layout, and the message's bound is the
    /// layouts' bound: k = MAX_K works, and MAX_K + 1 fails in the layout too.
    #[test]
    fn the_k_bound_is_the_layouts_bound() {
        let k = Layout::k_from_number(Some(f64::from(MAX_K)), 3).unwrap();
        assert_eq!(Layout::default_for_k(k).unwrap().widths(), &[1; 64]);
        assert!(Layout::from_name(Some("auto"), k, None, None).is_ok());
        assert_eq!(Layout::default_for_k(MAX_K + 1).unwrap_err().code(), "InvalidLayout");
        assert_eq!(Layout::auto(10, MAX_K + 1, None).unwrap_err().code(), "InvalidLayout");
    }

    #[test]
    fn from_name_knows_default_probe_and_auto() {
        for k in [0, 3, 6, 10] {
            assert_eq!(Layout::from_name(None, k, None, None).unwrap(), Layout::default_for_k(k).unwrap());
            assert_eq!(
                Layout::from_name(Some("default"), k, Some(5.0), Some(1.0)).unwrap(),
                Layout::default_for_k(k).unwrap(),
                "the size options only matter to \"auto\""
            );
        }
        assert_eq!(Layout::from_name(Some("probe"), 2, None, None).unwrap(), Layout::probe(2).unwrap());
        // "auto" plans for 1e6 fingerprints unless told otherwise
        assert_eq!(
            Layout::from_name(Some("auto"), 3, None, None).unwrap(),
            Layout::auto(1_000_000, 3, None).unwrap()
        );
        assert_eq!(
            Layout::from_name(Some("auto"), 3, Some(1000.7), None).unwrap(),
            Layout::auto(1000, 3, None).unwrap()
        );
        let budget = 40.0 * 1024.0 * 1024.0;
        let small = Layout::from_name(Some("auto"), 3, Some(1048576.0), Some(budget)).unwrap();
        assert_eq!(small, Layout::auto(1 << 20, 3, Some(40 << 20)).unwrap());
        assert_eq!(small.tables(), 4);
        assert_eq!(
            Layout::from_name(Some("auto"), 3, Some(1048576.0), Some(f64::INFINITY)).unwrap(),
            Layout::auto(1 << 20, 3, None).unwrap()
        );
        assert_eq!(
            Layout::from_name(Some("auto"), 3, Some(0.0), None).unwrap(),
            Layout::auto(0, 3, None).unwrap()
        );
        for name in Layout::NAMES {
            assert!(Layout::from_name(Some(name), 3, None, None).is_ok(), "{name}");
        }
    }

    #[test]
    fn from_name_refuses_what_it_cannot_make() {
        let expected = "expected \"default\", \"auto\", \"probe\" or an array of block widths";
        for bad in ["fast", "", "Default", "auto "] {
            assert_eq!(
                message(Layout::from_name(Some(bad), 3, None, None)),
                ("InvalidOption", format!("invalid option `layout` = \"{bad}\": {expected}"))
            );
        }
        let (code, msg) = message(Layout::from_name(Some("probe"), 5, None, None));
        assert_eq!(code, "InvalidLayout");
        assert!(msg.contains("the limit is k = 4"), "{msg}");
        let (code, msg) = message(Layout::from_name(Some("auto"), 3, Some(1e6), Some(1000.0)));
        assert_eq!(code, "InvalidLayout");
        assert!(msg.contains("fits in 1000 bytes"), "{msg}");
        for (option, size, budget, shown) in [
            ("expectedSize", -1.0, None, "-1"),
            ("expectedSize", f64::NAN, None, "NaN"),
            ("memoryBudget", 1e6, Some(-5.0), "-5"),
            ("memoryBudget", 1e6, Some(f64::NAN), "NaN"),
        ] {
            let (code, msg) = message(Layout::from_name(Some("auto"), 3, Some(size), budget));
            assert_eq!(code, "InvalidOption");
            assert!(
                msg.starts_with(&format!("invalid option `{option}` = {shown}: expected a number of ")),
                "{msg}"
            );
            assert!(msg.ends_with(", 0 or more"), "{msg}");
        }
    }

    #[test]
    fn from_widths_checks_each_width_then_the_layout() {
        assert_eq!(
            Layout::from_widths(3, &[16.0, 12.0, 12.0, 12.0, 12.0]).unwrap(),
            Layout::new(3, &[16, 12, 12, 12, 12]).unwrap()
        );
        assert_eq!(Layout::from_widths(0, &[64.0]).unwrap().tables(), 1);
        for (bad, shown) in [
            (vec![16.0, 16.5, 16.0, 15.5], "[16,16.5,16,15.5]"),
            (vec![65.0], "[65]"),
            (vec![-16.0, 80.0], "[-16,80]"),
            (vec![f64::NAN, 64.0], "[NaN,64]"),
            (vec![f64::INFINITY], "[Infinity]"),
        ] {
            assert_eq!(
                message(Layout::from_widths(3, &bad)),
                (
                    "InvalidOption",
                    format!(
                        "invalid option `layout` = {shown}: expected block widths from 1 to 64, like [16, 16, 16, 16]"
                    )
                )
            );
        }
        // well-formed numbers, impossible layouts: Layout::new says why
        let (code, msg) = message(Layout::from_widths(3, &[16.0, 0.0, 16.0, 16.0, 16.0]));
        assert_eq!(code, "InvalidLayout");
        assert!(msg.contains("block #1 has width 0"), "{msg}");
        let (code, msg) = message(Layout::from_widths(3, &[32.0, 32.0]));
        assert_eq!(code, "InvalidLayout");
        assert!(msg.contains("use at least 4 blocks"), "{msg}");
        assert_eq!(message(Layout::from_widths(3, &[])).0, "InvalidLayout");
        assert_eq!(message(Layout::from_widths(3, &[16.0; 3])).0, "InvalidLayout");
    }
}
