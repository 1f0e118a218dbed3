//! The self-join (every pair within `k`, bucket by bucket) and the clusters built on it
//! by union-find.

use super::layout::Layout;
use super::table::{Segment, Table};
use super::{Index, IndexId, Pair};
use crate::union_find::component_roots;

/// The clusters (groups of at least two ids, each sorted, ordered by their first id) and
/// the pairs (`a <= b`, sorted by `(a, b)`) of the kept candidate pairs `pairs` of slots,
/// where `ids[slot]` is a slot's id.
pub(crate) fn clusters_of_slots<I: IndexId>(
    ids: &[I],
    pairs: Vec<(u32, u32, u32)>,
) -> (Vec<Vec<I>>, Vec<Pair<I>>) {
    let n = ids.len();
    let roots = component_roots(n, pairs.iter().map(|&(x, y, _)| (x, y)));
    let mut touched = vec![false; n];
    for &(x, y, _) in &pairs {
        touched[x as usize] = true;
        touched[y as usize] = true;
    }
    // (root, slot) of every slot in a kept pair, as one u64 (root high) so that
    // sorting them (the crate's one `[u64]` sort) groups them by root.
    let mut by_root: Vec<u64> = (0..n as u32)
        .filter(|&s| touched[s as usize])
        .map(|s| u64::from(roots[s as usize]) << 32 | u64::from(s))
        .collect();
    by_root.sort_unstable();
    let mut groups: Vec<Vec<I>> = Vec::new();
    let mut i = 0;
    while i < by_root.len() {
        let mut j = i;
        let mut g = Vec::new();
        while j < by_root.len() && by_root[j] >> 32 == by_root[i] >> 32 {
            g.push(ids[(by_root[j] & 0xFFFF_FFFF) as usize].clone());
            j += 1;
        }
        crate::sort::sort(&mut g);
        groups.push(g);
        i = j;
    }
    crate::sort::sort_by(&mut groups, |a, b| a.first().cmp(&b.first()));
    let mut kept: Vec<Pair<I>> = pairs
        .into_iter()
        .map(|(x, y, distance)| {
            let (a, b) = (&ids[x as usize], &ids[y as usize]);
            let (a, b) = if a <= b { (a.clone(), b.clone()) } else { (b.clone(), a.clone()) };
            Pair { a, b, distance }
        })
        .collect();
    crate::sort::sort_by(&mut kept, |p, q| (&p.a, &p.b).cmp(&(&q.a, &q.b)));
    (groups, kept)
}

impl<I: IndexId> Index<I> {
    /// All unordered pairs of live ids within `k` of each other, each once, `a < b`,
    /// sorted by distance, then `a`, then `b`. Bucket by bucket, so far faster than one
    /// query per entry. (A probing index uses temporary pigeonhole tables of
    /// [`Layout::default_for_k`] here; probing every variant of every entry would be
    /// N × 43,745 lookups for k = 3.)
    pub fn self_join(&self) -> Vec<Pair<I>> {
        let mut pairs: Vec<Pair<I>> = self
            .join_slots()
            .into_iter()
            .map(|(x, y, d)| {
                let (a, b) = (&self.ids[x as usize], &self.ids[y as usize]);
                let (a, b) = if a < b { (a, b) } else { (b, a) };
                Pair { a: a.clone(), b: b.clone(), distance: d }
            })
            .collect();
        crate::sort::sort_by(&mut pairs, |p, q| {
            p.distance.cmp(&q.distance).then_with(|| p.a.cmp(&q.a)).then_with(|| p.b.cmp(&q.b))
        });
        pairs
    }

    /// Connected components of the "within k" graph (union-find over the self-join):
    /// groups of at least two ids (**singletons are omitted**), each sorted ascending,
    /// groups ordered by their smallest id.
    ///
    /// ```
    /// use simhash_wasm::index::{Index, Layout};
    /// // 0 and 0b111 are 3 apart, 0b111 and 0b111111 are 3 apart: one chain, one cluster.
    /// let index = Index::build(
    ///     Layout::default_for_k(3)?,
    ///     vec![(5u64, 0u64), (3, 0b111), (9, 0b111111), (1, u64::MAX)],
    /// )?;
    /// assert_eq!(index.clusters(), vec![vec![3, 5, 9]]);
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn clusters(&self) -> Vec<Vec<I>> {
        self.clusters_where(|_, _, _| true).0
    }

    /// Like [`Index::clusters`], over only the pairs within k that `keep(a, b, distance)`
    /// accepts (for example, pairs whose texts pass an exact similarity check). Also
    /// returns the kept pairs, `a < b`, sorted by (a, b).
    pub fn clusters_where(&self, mut keep: impl FnMut(&I, &I, u32) -> bool) -> (Vec<Vec<I>>, Vec<Pair<I>>) {
        let mut pairs = self.join_slots();
        pairs.retain(|&(x, y, d)| keep(&self.ids[x as usize], &self.ids[y as usize], d));
        self.clusters_of_slots(pairs)
    }

    /// The pairs within k of the live slots, `(slot, slot, distance)`, earlier slot first
    /// (ids by [`Index::slot_id`]), where a table lists each later slot's `window` nearest
    /// ([`join_part_kept`]): the window of each slot, taken over them, is its window of
    /// every pair within k, and a page copied a thousand times costs a thousand windows.
    pub(crate) fn candidate_slots(&self, window: usize) -> Vec<(u32, u32, u32)> {
        let live = self.live_slots();
        let fps: Vec<u64> = live.iter().map(|&s| self.fps[s as usize]).collect();
        join_part_kept(
            &self.layout,
            &fps,
            0..join_tables(&self.layout),
            window,
            |_, _| true,
            |_, _, _| Some(0.0),
        )
        .into_iter()
        .map(|(x, y, d, _)| (live[x as usize], live[y as usize], d))
        .collect()
    }

    /// The id stored in `slot` (a slot of [`Index::candidate_slots`]).
    pub(crate) fn slot_id(&self, slot: u32) -> &I {
        &self.ids[slot as usize]
    }

    /// The id of every slot, in slot order.
    pub(crate) fn slot_ids(&self) -> &[I] {
        &self.ids
    }

    /// [`Index::clusters_where`]'s result for the kept candidate pairs `pairs`.
    pub(crate) fn clusters_of_slots(&self, pairs: Vec<(u32, u32, u32)>) -> (Vec<Vec<I>>, Vec<Pair<I>>) {
        clusters_of_slots(&self.ids, pairs)
    }

    /// `(slot, slot, distance)` for every pair within k, each once.
    fn join_slots(&self) -> Vec<(u32, u32, u32)> {
        let k = self.layout.k;
        let clean = self.segments.len() <= 1 && self.buf_start == self.fps.len() && self.dead_count == 0;
        let temp;
        let seg = if clean && !self.layout.probe {
            match self.segments.first() {
                Some(s) => s,
                None => return Vec::new(),
            }
        } else {
            let layout = join_layout(&self.layout);
            let live = self.live_slots();
            temp = Segment::with_lists(&layout, &live, &self.fps, 0, self.fps.len() as u32);
            &temp
        };
        let mut out = Vec::new();
        for (t, table) in seg.tables.iter().enumerate() {
            join_table(table, &seg.masks[..t], &self.fps, k, &mut out);
        }
        out
    }
}

/// The layout whose tables the self-join reads: a probing index's are temporary pigeonhole
/// tables of [`Layout::default_for_k`] (probing every variant of every entry would be N ×
/// 43,745 lookups for k = 3).
fn join_layout(layout: &Layout) -> Layout {
    if layout.probe {
        // Probing layouts have k ≤ 4, which default_for_k always serves.
        Layout::default_for_k(layout.k).unwrap_or_else(|_| layout.clone())
    } else {
        layout.clone()
    }
}

/// The number of tables [`join_part`] splits the self-join of `layout` into.
pub fn join_tables(layout: &Layout) -> usize {
    join_layout(layout).tables()
}

/// The part of the self-join of `fps` under `layout` that tables `tables` find (indices
/// below [`join_tables`]): `(slot, slot, distance)` for every pair
/// within `k`, where a slot is a position in `fps`, each pair from the first table its two
/// fingerprints share a bucket in. So the parts of any split of `0..join_tables(layout)`
/// hold the whole self-join together, each pair once (a range cut in order gives it in
/// order). An index past the tables is skipped.
///
/// ```
/// use simhash_wasm::__private::index::{join_part, join_tables};
/// use simhash_wasm::index::Layout;
/// let fps = [0u64, 0b111, 0b111111, u64::MAX, 0b1];
/// let layout = Layout::default_for_k(3)?;
/// let n = join_tables(&layout);
/// let whole = join_part(&layout, &fps, 0..n);
/// let mut pairs: Vec<(u32, u32)> = whole.iter().map(|&(x, y, _)| (x.min(y), x.max(y))).collect();
/// pairs.sort();
/// assert_eq!(pairs, [(0, 1), (0, 4), (1, 2), (1, 4)]);
/// let split: Vec<_> = (0..n).flat_map(|t| join_part(&layout, &fps, t..t + 1)).collect();
/// assert_eq!(split, whole);
/// let mut even = join_part(&layout, &fps, (0..n).step_by(2));
/// even.extend(join_part(&layout, &fps, (1..n).step_by(2)));
/// assert_eq!(even.len(), whole.len());
/// # Ok::<(), simhash_wasm::Error>(())
/// ```
pub fn join_part(
    layout: &Layout,
    fps: &[u64],
    tables: impl IntoIterator<Item = usize>,
) -> Vec<(u32, u32, u32)> {
    let mut out = Vec::new();
    each_table(layout, fps, tables, |table, earlier| join_table(table, earlier, fps, layout.k(), &mut out));
    out
}

/// Each table `tables` names (those past [`join_tables`] skipped) of the self-join of
/// `fps` under `layout`, built over all of `fps`, with the masks of the tables before it.
fn each_table(
    layout: &Layout,
    fps: &[u64],
    tables: impl IntoIterator<Item = usize>,
    mut visit: impl FnMut(&Table, &[u64]),
) {
    let layout = join_layout(layout);
    let n = fps.len();
    let exts = Segment::extracts(&layout, n);
    let masks: Vec<u64> = exts.iter().map(|e| e.mask).collect();
    for t in tables.into_iter().filter(|&t| t < exts.len()) {
        let table = Table::with_list(exts[t].clone(), 0..n as u32, n, fps, 0, n as u32);
        visit(&table, &masks[..t]);
    }
}

/// The pairs of [`join_part`] that `keep(x, y, distance)` keeps (`x < y`), each with what
/// `keep` gave, where a table lists for each later slot `y` at most `window` of its kept
/// pairs, the nearest first, then the earliest `x`: each slot's `window` nearest kept pairs
/// of the whole join (distance, then earliest) are among them, so a caller that keeps that
/// window of each slot gets what it would from all of [`join_part`]'s pairs.
///
/// `alike(a, b)`, for two slots of equal fingerprints, says that `keep` answers alike for
/// them: `keep(a, y, d)` and `keep(b, y, d)` give the same for every `y` (it must be an
/// equivalence). A bucket with more than `window + 1` slots is read by classes of alike
/// slots, `keep` asked once a class and later slot: a page copied a thousand times costs a
/// thousand windows, not half a million comparisons and pairs. A slot of such a bucket
/// reads its [`CROWDED_CLASSES`] earliest classes only: in a bucket of more distinct
/// fingerprints than that (near copies), its window is the nearest among those.
pub(crate) fn join_part_kept(
    layout: &Layout,
    fps: &[u64],
    tables: impl IntoIterator<Item = usize>,
    window: usize,
    alike: impl Fn(u32, u32) -> bool,
    mut keep: impl FnMut(u32, u32, u32) -> Option<f64>,
) -> Vec<(u32, u32, u32, f64)> {
    let mut join = KeptJoin { fps, k: layout.k(), window, alike: &alike, keep: &mut keep, out: Vec::new() };
    each_table(layout, fps, tables, |table, earlier| join.table(table, earlier));
    join.out
}

/// The most classes of a crowded bucket (the earliest) that a slot of it reads: near
/// copies of a page with distinct fingerprints (a view counter, a date) are each a class
/// of their own, and a slot reading all those before it would make the bucket's work
/// quadratic.
pub(crate) const CROWDED_CLASSES: usize = 256;

/// [`join_part_kept`]'s state: its arguments and the pairs found so far. Its callers'
/// closures are called through pointers, so one copy of the join serves them all.
struct KeptJoin<'a> {
    fps: &'a [u64],
    k: u32,
    window: usize,
    alike: &'a dyn Fn(u32, u32) -> bool,
    keep: &'a mut dyn FnMut(u32, u32, u32) -> Option<f64>,
    out: Vec<(u32, u32, u32, f64)>,
}

/// The slots of a crowded bucket that hold one fingerprint and are alike, in slot order.
struct Class {
    fp: u64,
    slots: Vec<u32>,
}

impl KeptJoin<'_> {
    /// The kept pairs that `table` finds, bucket by bucket, and no table of `earlier`
    /// (their masks) has found already.
    fn table(&mut self, table: &Table, earlier: &[u64]) {
        let (mut bs, mut bf): (Vec<u32>, Vec<u64>) = (Vec::new(), Vec::new());
        for b in 0..table.dir.len() - 1 {
            if table.dir[b + 1] - table.dir[b] < 2 {
                continue;
            }
            table.bucket_slots(b, &mut bs);
            if bs.len() > self.window + 1 {
                self.crowded(&bs, earlier);
                continue;
            }
            // No slot has more than `window` earlier ones here: every kept pair is listed.
            bf.clear();
            bf.extend(bs.iter().map(|&s| self.fps[s as usize]));
            for i in 0..bs.len() {
                for j in i + 1..bs.len() {
                    let diff = bf[i] ^ bf[j];
                    let d = diff.count_ones();
                    if d <= self.k && earlier.iter().all(|&m| diff & m != 0) {
                        let (x, y) = (bs[i].min(bs[j]), bs[i].max(bs[j]));
                        if let Some(e) = (self.keep)(x, y, d) {
                            self.out.push((x, y, d, e));
                        }
                    }
                }
            }
        }
    }

    /// A bucket of more than `window + 1` slots: its slots' classes, then for each slot
    /// the classes within `k` that hold earlier slots (the [`CROWDED_CLASSES`] earliest),
    /// nearest first, each asked of `keep` once, until the slot's window is full.
    fn crowded(&mut self, bucket: &[u32], earlier: &[u64]) {
        // The bucket's slots come in slot order, so a stable sort by fingerprint leaves
        // each fingerprint's slots in order.
        debug_assert!(bucket.windows(2).all(|w| w[0] < w[1]));
        let mut by_fp: Vec<(u64, u32)> = bucket.iter().map(|&s| (self.fps[s as usize], s)).collect();
        crate::sort::sort_by_u64_key_stable(&mut by_fp, |e| e.0);
        let mut classes: Vec<Class> = Vec::new();
        let mut start = 0;
        while start < by_fp.len() {
            let fp = by_fp[start].0;
            let end = start + by_fp[start..].iter().take_while(|e| e.0 == fp).count();
            let first_class = classes.len();
            for &(_, s) in &by_fp[start..end] {
                match classes[first_class..].iter_mut().find(|c| (self.alike)(c.slots[0], s)) {
                    Some(c) => c.slots.push(s),
                    None => classes.push(Class { fp, slots: vec![s] }),
                }
            }
            start = end;
        }
        // By first slot: a slot reads the classes up to its own, and each distance's
        // earliest slots come from the first classes that pass.
        crate::sort::sort_by_key(&mut classes, |c| c.slots[0]);
        // The classes at each distance from the slot, with how many of their slots come
        // before it; the pairs of one distance, sorted by their earlier slot.
        let mut levels: Vec<Vec<(usize, usize)>> = vec![Vec::new(); self.k as usize + 1];
        let mut near: Vec<(u32, f64)> = Vec::new();
        for &y in bucket {
            let fy = self.fps[y as usize];
            for level in &mut levels {
                level.clear();
            }
            let read = classes.iter().take_while(|c| c.slots[0] < y).take(CROWDED_CLASSES);
            for (c, class) in read.enumerate() {
                let diff = class.fp ^ fy;
                let d = diff.count_ones();
                if d <= self.k && earlier.iter().all(|&m| diff & m != 0) {
                    levels[d as usize].push((c, class.slots.partition_point(|&s| s < y)));
                }
            }
            let mut room = self.window;
            for (d, level) in levels.iter().enumerate() {
                if room == 0 {
                    break;
                }
                near.clear();
                for (i, &(c, before)) in level.iter().enumerate() {
                    let class = &classes[c];
                    if let Some(e) = (self.keep)(class.slots[0], y, d as u32) {
                        near.extend(class.slots[..before].iter().take(room).map(|&x| (x, e)));
                    }
                    // The next classes start later than the `room` earliest slots found.
                    if near.len() >= room {
                        crate::sort::sort_by(&mut near, |a, b| a.0.cmp(&b.0));
                        near.truncate(room);
                        if level.get(i + 1).is_none_or(|&(next, _)| classes[next].slots[0] > near[room - 1].0)
                        {
                            break;
                        }
                    }
                }
                crate::sort::sort_by(&mut near, |a, b| a.0.cmp(&b.0));
                for &(x, e) in near.iter().take(room) {
                    self.out.push((x, y, d as u32, e));
                }
                room -= near.len().min(room);
            }
        }
    }
}

/// The pairs within `k` that `table` finds, bucket by bucket, and no table of `earlier`
/// (their masks) has found already, appended to `out`.
fn join_table(table: &Table, earlier: &[u64], fps: &[u64], k: u32, out: &mut Vec<(u32, u32, u32)>) {
    let mut bf: Vec<u64> = Vec::new();
    let mut bs: Vec<u32> = Vec::new();
    for b in 0..table.dir.len() - 1 {
        if table.dir[b + 1] - table.dir[b] < 2 {
            continue;
        }
        table.bucket_slots(b, &mut bs);
        bf.clear();
        bf.extend(bs.iter().map(|&s| fps[s as usize]));
        for i in 0..bf.len() {
            let fi = bf[i];
            for j in i + 1..bf.len() {
                let x = fi ^ bf[j];
                if x.count_ones() <= k && earlier.iter().all(|&m| x & m != 0) {
                    out.push((bs[i], bs[j], x.count_ones()));
                }
            }
        }
    }
}
