//! Native tests of sketch mode's plan against a Rust model of the `CHECK_SKETCH` script
//! (the model follows script.rs; the JS tests run the real Lua on a real redis-server).

use std::collections::HashMap;

use super::keys::nibbles_within;
use super::sketch::Bounds;
use super::tests_shared::{self as shared, counted, id, kept, s, with_id, ScriptModel};
use super::*;
use crate::test_rng::Rng;

/// A Rust model of `script::CHECK_SKETCH` over in-memory hashes (table and band hashes
/// keyed by name followed by field).
#[derive(Default)]
struct Model {
    meta: Vec<u8>,
    n: i64,
    next: u32,
    p: HashMap<Vec<u8>, Vec<u8>>,
    c: HashMap<Vec<u8>, u64>,
    u: HashMap<Vec<u8>, Vec<u8>>,
    t: HashMap<Vec<u8>, Vec<u8>>,
    b: HashMap<Vec<u8>, Vec<u8>>,
}

fn sketch_of(v: &[u8]) -> Option<Sketch> {
    let rec = PageRecord::decode(&v[8..]).unwrap();
    rec.sketch.map(|(_, b)| Sketch::from_payload(SketchScheme::new(b.len()).unwrap(), &b).unwrap())
}

impl Model {
    fn check(&mut self, a: &[Vec<u8>]) -> Vec<Vec<u8>> {
        if a[0] != self.meta {
            return vec![s(b"X"), self.meta.clone()];
        }
        let (url, q) = (&a[1], &a[2]);
        let (fp, cid, k, nt) = (q[..8].to_vec(), q[8..16].to_vec(), u32::from(q[16]), q[17] as usize);
        let mut pos = 18;
        let (mut places, mut recs) = (Vec::new(), Vec::new());
        for _ in 0..nt {
            let (hl, fl, rl) = (q[pos] as usize, q[pos + 1] as usize, q[pos + 2] as usize);
            pos += 3;
            places.push(q[pos..pos + hl + fl].to_vec());
            recs.push(q[pos + hl + fl..pos + hl + fl + rl].to_vec());
            pos += hl + fl + rl;
        }
        let nb = q[pos] as usize;
        pos += 1;
        let mut bands = Vec::new();
        for _ in 0..nb {
            let (hl, fl) = (q[pos] as usize, q[pos + 1] as usize);
            pos += 2;
            bands.push((q[pos..pos + hl + fl].to_vec(), q[pos + hl + fl]));
            pos += hl + fl + 1;
        }
        let be = |x: &[u8]| x.iter().fold(0u32, |acc, &b| acc << 8 | u32::from(b));
        let bounds = Bounds {
            zlim: be(&q[pos..pos + 2]) as u16,
            c16: be(&q[pos + 2..pos + 6]),
            emin: be(&q[pos + 6..pos + 8]) as u16,
        };
        let rec = q[pos + 8..].to_vec();
        let mut query_value = fp.clone();
        query_value.extend_from_slice(&rec);
        let qsketch = sketch_of(&query_value);
        let url_of = |v: &[u8]| PageRecord::decode(&v[8..]).unwrap().url.into_bytes();
        let stored_kind = |c: &[u8]| c[0] == 3 || c[0] == 6;
        // A repeated call: its check id says what its first attempt decided.
        let cur = self.u.get(url).cloned();
        if let Some(c) = &cur {
            if c[0] == 6 && c[5..13] == cid[..] {
                return vec![s(b"R")];
            }
            let replay = match c[0] {
                6 if c.len() > 13 => {
                    let (ids, under) = counted(&c[13..]);
                    ids.contains(&cid).then(|| if under.is_empty() { url.clone() } else { under })
                }
                5 => {
                    let (ids, cluster) = counted(&c[1..]);
                    ids.contains(&cid).then_some(cluster)
                }
                _ => None,
            };
            if let Some(cluster) = replay {
                let cc = if cluster == *url { Some(c.clone()) } else { self.u.get(&cluster).cloned() };
                let n =
                    cc.filter(|x| stored_kind(x)).and_then(|x| self.c.get(&x[1..5]).copied()).unwrap_or(1);
                let mut res = vec![s(b"R"), cluster, n.to_string().into_bytes()];
                for pn in a[4].chunks(4) {
                    res.push(self.p.get(pn).map_or(s(b"0"), |v| [&b"1"[..], &url_of(v)].concat()));
                }
                return res;
            }
        }
        let seen: std::collections::HashSet<&[u8]> = a[3].chunks(4).collect();
        let mut fresh = std::collections::HashSet::new();
        let mut out = vec![s(b"C")];
        for t in 0..nt {
            let bucket = self.t.get(&places[t]).cloned().unwrap_or_default();
            let rl = recs[t].len();
            for entry in bucket.chunks(rl + 4) {
                if nibbles_within(&recs[t], &entry[..rl], k) {
                    let pn = entry[rl..].to_vec();
                    if !seen.contains(pn.as_slice()) && fresh.insert(pn.clone()) {
                        if let Some(v) = self.p.get(&pn) {
                            out.extend([pn, v.clone()]);
                        }
                    }
                }
            }
        }
        for (place, kb) in &bands {
            let bucket = self.b.get(place).cloned().unwrap_or_default();
            assert_eq!(bucket.len() % 5, 0, "band records of 5 bytes");
            for pn in bucket.chunks(5).filter(|r| r[0] == *kb).map(|r| &r[1..]) {
                if !seen.contains(pn) && fresh.insert(pn.to_vec()) {
                    if let Some(v) = self.p.get(pn) {
                        if sketch_of(v).is_some_and(|st| bounds.passes(qsketch.as_ref().unwrap(), &st)) {
                            out.extend([pn.to_vec(), v.clone()]);
                        }
                    }
                }
            }
        }
        if out.len() > 1 {
            return out;
        }
        let ranked = &a[4];
        if !ranked.is_empty() {
            let mut res = vec![s(b"D"), Vec::new(), Vec::new()];
            let mut best: Option<(Vec<u8>, Vec<u8>)> = None;
            for pn in ranked.chunks(4) {
                match self.p.get(pn) {
                    Some(v) => {
                        let murl = url_of(v);
                        let mut m = vec![b'1'];
                        m.extend_from_slice(&murl);
                        res.push(m);
                        best.get_or_insert((pn.to_vec(), murl));
                    }
                    None => res.push(s(b"0")),
                }
            }
            if let Some((pn, burl)) = best {
                let n = self.c.entry(pn).or_insert(1);
                *n += 1;
                res[2] = n.to_string().into_bytes();
                if let Some(c) = cur.as_ref().filter(|c| stored_kind(c)) {
                    let own = c[0] == 6;
                    let stored_by = if own { c[5..13].to_vec() } else { vec![0; 8] };
                    let under = if burl == *url { &[][..] } else { &burl[..] };
                    let list = with_id(own.then(|| &c[13..]), under, &cid);
                    self.u.insert(url.clone(), [&[6u8][..], &c[1..5], &stored_by, &list].concat());
                } else if burl != *url {
                    let prev = cur.as_ref().filter(|c| c[0] == 5).map(|c| &c[1..]);
                    self.u.insert(url.clone(), [&[5u8][..], &with_id(prev, &burl, &cid)].concat());
                }
                res[1] = burl;
                return res;
            }
        }
        if let Some(cur) = cur.clone().filter(|c| stored_kind(c)) {
            let (old, rep) = (&cur[1..5], &a[5]);
            if rep.len() < 4 || &rep[..4] != old {
                return vec![s(b"M"), old.to_vec(), self.p.get(old).cloned().unwrap_or_default()];
            }
            let mut j = 4;
            for _ in 0..nt {
                let (hl, fl, rl) = (rep[j] as usize, rep[j + 1] as usize, rep[j + 2] as usize);
                j += 3;
                let place = rep[j..j + hl + fl].to_vec();
                let r = &rep[j + hl + fl..j + hl + fl + rl];
                j += hl + fl + rl;
                let mut b = self.t.get(&place).cloned().unwrap_or_default();
                if let Some(at) = b.chunks(rl).position(|x| x == r) {
                    b.drain(at * rl..at * rl + rl);
                }
                self.t.insert(place, b);
            }
            let onb = rep[j] as usize;
            j += 1;
            for _ in 0..onb {
                let (hl, fl) = (rep[j] as usize, rep[j + 1] as usize);
                j += 2;
                let place = rep[j..j + hl + fl].to_vec();
                let record = [&rep[j + hl + fl..j + hl + fl + 1], old].concat();
                j += hl + fl + 1;
                let mut b = self.b.get(&place).cloned().unwrap_or_default();
                if let Some(at) = b.chunks(5).position(|x| x == record) {
                    b.drain(at * 5..at * 5 + 5);
                }
                self.b.insert(place, b);
            }
            self.p.remove(old);
            self.c.remove(old);
            self.n -= 1;
        }
        self.next += 1;
        let pn = self.next.to_be_bytes().to_vec();
        for t in 0..nt {
            let b = self.t.entry(places[t].clone()).or_default();
            b.extend_from_slice(&recs[t]);
            b.extend_from_slice(&pn);
        }
        for (place, kb) in bands {
            let b = self.b.entry(place).or_default();
            b.push(kb);
            b.extend_from_slice(&pn);
        }
        self.n += 1;
        self.p.insert(pn.clone(), query_value);
        let list = kept(cur.as_deref(), 6, 13);
        self.u.insert(url.clone(), [&[6u8][..], &pn, &cid, list].concat());
        vec![s(b"N")]
    }

    /// A call sent by a worker whose meta is `meta`: the entry's fields as the script's
    /// `check` takes them.
    fn call_as(&mut self, meta: &[u8], entry: &[u8]) -> Vec<Vec<u8>> {
        let mut a = vec![meta.to_vec()];
        let mut at = 0;
        while at < entry.len() {
            let n = u32::from_be_bytes(entry[at..at + 4].try_into().unwrap()) as usize;
            a.push(entry[at + 4..at + 4 + n].to_vec());
            at += 4 + n;
        }
        assert_eq!(a.len(), 6, "five fields");
        self.check(&a)
    }
}

impl ScriptModel for Model {
    /// The fingerprint and, unless the check is by fingerprint alone, the sketch.
    type Input = (u64, Option<Sketch>);
    type Plan = SketchPlan;
    type State = (
        i64,
        HashMap<Vec<u8>, Vec<u8>>,
        HashMap<Vec<u8>, u64>,
        HashMap<Vec<u8>, Vec<u8>>,
        HashMap<Vec<u8>, Vec<u8>>,
    );

    fn new(store: &RedisSeen) -> Model {
        Model { meta: store.meta().as_bytes().to_vec(), ..Model::default() }
    }

    fn by_fingerprint(fp: u64) -> Self::Input {
        (fp, None)
    }

    fn begin(store: &RedisSeen, url: &str, (fp, sketch): Self::Input, check_id: u64) -> SketchPlan {
        store.begin_sketch(url, fp, sketch, check_id).unwrap()
    }

    fn call(&mut self, store: &RedisSeen, entry: &[u8]) -> Vec<Vec<u8>> {
        self.call_as(store.meta().as_bytes(), entry)
    }

    fn stored(&self) -> i64 {
        self.n
    }

    fn count_total(&self) -> u64 {
        self.p.keys().map(|pn| self.c.get(pn).copied().unwrap_or(1)).sum()
    }

    /// Page values start with the page's fingerprint (the scenarios store one page a
    /// fingerprint).
    fn count_of(&self, fp: u64) -> Option<u64> {
        let (pn, _) = self.p.iter().find(|(_, v)| v[..8] == fp.to_be_bytes())?;
        self.c.get(pn).copied()
    }

    fn state(&self) -> Self::State {
        (self.n, self.p.clone(), self.c.clone(), self.t.clone(), self.b.clone())
    }
}

fn sketch_config() -> StoreConfig {
    StoreConfig { seen: SeenConfig::default(), namespace: "s".into(), urls: true, batch: 32, retries: 0 }
}

/// A page of the test stream: fingerprint and shingle set.
struct Page {
    fp: u64,
    set: Vec<u64>,
}

/// Pages with planted near-duplicates: light edits of an earlier set whose fingerprint is
/// 0 to 5 bits away (within k, or found by bands only), heavier edits (around the
/// threshold), and unrelated sets that reuse an earlier fingerprint exactly (two stored
/// pages with one fingerprint).
fn stream(rng: &mut Rng, n: usize) -> Vec<Page> {
    let mut out: Vec<Page> = Vec::new();
    for _ in 0..n {
        let r = rng.below(10);
        let page = if out.is_empty() || r < 4 {
            let len = 40 + rng.below(400) as usize;
            // Clustered high bits, so table buckets fill up.
            Page {
                fp: rng.next() & 0x00ff_ffff_ffff_ffff | (rng.below(4) << 56),
                set: (0..len).map(|_| rng.next()).collect(),
            }
        } else {
            let base = &out[rng.below(out.len() as u64) as usize];
            let mut fp = base.fp;
            let mut set = base.set.clone();
            if r == 9 {
                // Same fingerprint, other content.
                set = (0..base.set.len()).map(|_| rng.next()).collect();
            } else {
                for _ in 0..rng.below(6) {
                    fp ^= 1 << rng.below(64);
                }
                let edits = if r < 7 {
                    1 + rng.below(set.len() as u64 / 30 + 1)
                } else {
                    rng.below(set.len() as u64 / 5 + 1)
                };
                for _ in 0..edits {
                    let i = rng.below(set.len() as u64) as usize;
                    set[i] = rng.next();
                }
            }
            Page { fp, set }
        };
        out.push(page);
    }
    out
}

#[test]
fn one_worker_decides_as_content_seen_with_sketches() {
    let store = RedisSeen::new(sketch_config()).unwrap();
    let scheme = store.sketch_scheme().unwrap();
    let mut model = Model::new(&store);
    let mut cs = ContentSeen::new(SeenConfig::default()).unwrap();
    let mut rng = Rng(4242);
    let pages = stream(&mut rng, 2500);
    let (mut calls, mut band_only, mut same_fp_kept, mut most) = (0, 0, 0, 0);
    for (i, page) in pages.iter().enumerate() {
        let url = if i % 40 == 39 { format!("u{}", rng.below(i as u64)) } else { format!("u{i}") };
        let sketch = Sketch::from_shingles(scheme, &page.set);
        let by_fp = i % 30 == 29;
        let (want, mut plan) = if by_fp {
            (cs.check_fingerprint(&url, page.fp), store.begin_sketch(&url, page.fp, None, id()).unwrap())
        } else {
            (
                cs.check_fingerprint_and_sketch(&url, page.fp, sketch.clone()).unwrap(),
                store.begin_sketch(&url, page.fp, Some(sketch), id()).unwrap(),
            )
        };
        let got = model.drive(&store, &mut plan);
        calls += got.calls;
        most = most.max(got.calls);
        assert_eq!(got.duplicate, want.duplicate, "#{i} {url}: {got:?} {want:?}");
        assert_eq!(got.cluster.as_deref(), Some(want.cluster.as_str()), "#{i}");
        assert_eq!(got.count, Some(want.count), "#{i}");
        let ids: Vec<(&str, u32)> =
            got.matches.iter().map(|m| (m.url.as_deref().unwrap(), m.distance)).collect();
        let want_ids: Vec<(&str, u32)> = want.matches.iter().map(|m| (m.id.as_str(), m.distance)).collect();
        assert_eq!(ids, want_ids, "#{i}");
        assert_eq!(plan.estimate(), want.estimate, "#{i}");
        assert_eq!(got.distance(), want.distance, "#{i}");
        assert_eq!(plan.sketch().map(Sketch::to_bytes), want.sketch.as_ref().map(Sketch::to_bytes), "#{i}");
        band_only += usize::from(want.distance.is_some_and(|d| d > 3));
        same_fp_kept += usize::from(
            !want.duplicate
                && pages[..i].iter().any(|p| p.fp == page.fp)
                && cs.index().query(page.fp).len() > 1,
        );
    }
    assert_eq!(model.n as usize, cs.len());
    assert!(band_only > 50, "{band_only} duplicates beyond k");
    assert!(same_fp_kept > 20, "{same_fp_kept} pages stored beside another with their fingerprint");
    assert!(most <= 3, "a check took {most} calls");
    assert!(calls < pages.len() as u32 * 2, "{calls} calls");
}

/// B's first call returns a candidate; A then stores a near-duplicate of B found by its
/// bands only; B's second call must see A (page numbers it has not measured) and count B
/// under A.
#[test]
fn a_page_stored_between_two_calls_is_not_missed_in_sketch_mode() {
    let store = RedisSeen::new(sketch_config()).unwrap();
    let scheme = store.sketch_scheme().unwrap();
    let mut m = Model::new(&store);
    let mut rng = Rng(8);
    let base: Vec<u64> = (0..300).map(|_| rng.next()).collect();
    let fp = 0x1234_5678_9abc_def0u64;
    // A decoy within k of B, with unrelated content: a candidate, not a duplicate.
    let decoy: Vec<u64> = (0..300).map(|_| rng.next()).collect();
    let mut p =
        store.begin_sketch("decoy", fp ^ 1, Some(Sketch::from_shingles(scheme, &decoy)), id()).unwrap();
    assert!(!m.drive(&store, &mut p).duplicate);
    let mut b = store.begin_sketch("b", fp, Some(Sketch::from_shingles(scheme, &base)), id()).unwrap();
    assert!(b.feed(&m.call(&store, &b.entry())).unwrap().is_none(), "the decoy is a candidate");
    // Meanwhile another worker stores B's near-duplicate, its fingerprint 20 bits away.
    let mut near = base.clone();
    near[0] = 1;
    let mut a = store
        .begin_sketch(
            "a",
            !fp & 0xffff_f000_0000_0000 | fp & 0xfff_ffff_ffff,
            Some(Sketch::from_shingles(scheme, &near)),
            id(),
        )
        .unwrap();
    assert!(!m.drive(&store, &mut a).duplicate);
    let o = m.drive(&store, &mut b);
    assert!(o.duplicate, "{o:?}");
    assert_eq!(o.cluster.as_deref(), Some("a"));
    assert_eq!(o.calls, 3);
    assert_eq!(m.n, 2);
}

/// [`shared::a_page_stored_between_two_calls_is_not_missed`] (pages by fingerprint alone).
#[test]
fn a_page_stored_between_two_calls_is_not_missed_by_fingerprint_in_sketch_mode() {
    shared::a_page_stored_between_two_calls_is_not_missed::<Model>(&RedisSeen::new(sketch_config()).unwrap());
}

#[test]
fn sketch_settings_are_checked() {
    let a = RedisSeen::new(sketch_config()).unwrap();
    assert!(a.meta().contains("sketch=sk1:128 t=0.81\n"), "{}", a.meta());
    assert_eq!(a.keys().len(), 8);
    let other = RedisSeen::new(StoreConfig {
        seen: SeenConfig { threshold: 0.9, ..SeenConfig::default() },
        ..sketch_config()
    })
    .unwrap();
    let mut m = Model::new(&a);
    let mut plan = other.begin_sketch("u", 1, None, id()).unwrap();
    let e = plan.feed(&m.call_as(other.meta().as_bytes(), &plan.entry())).unwrap_err();
    assert!(matches!(e, Error::SchemeMismatch { field: "sketch", .. }), "{e}");
    assert!(RedisSeen::new(StoreConfig { urls: false, ..sketch_config() }).is_err());
    let big = SeenConfig { sketch: Some(SketchScheme::new(256).unwrap()), ..SeenConfig::default() };
    let e = RedisSeen::new(StoreConfig { seen: big, ..sketch_config() }).err().unwrap();
    assert!(e.to_string().contains("a multiple of 8 from 32 to 128"), "{e}");
    for size in [None, Some(300.0), Some(136.0), Some(20.5)] {
        let redis = SeenConfig::sketch_up_to(false, size, StoreConfig::MAX_SKETCH);
        let memory = SeenConfig::sketch_up_to(false, size, crate::sketch::MAX_SIZE);
        match size {
            None => assert_eq!(redis.unwrap(), memory.unwrap()),
            Some(_) => {
                let e = redis.unwrap_err().to_string();
                assert!(e.contains("from 32 to 128 (bytes per page)"), "{e}");
            }
        }
    }
    let fp_only =
        RedisSeen::new(StoreConfig { seen: SeenConfig::fingerprint_only(), ..sketch_config() }).unwrap();
    assert!(fp_only.begin_sketch("u", 1, None, id()).is_err());
    let small = Sketch::from_shingles(SketchScheme::new(64).unwrap(), &[1, 2, 3]);
    assert!(matches!(a.begin_sketch("u", 1, Some(small), id()), Err(Error::SchemeMismatch { .. })));
}

#[test]
fn sketch_snapshots_import_and_export() {
    let store = RedisSeen::new(sketch_config()).unwrap();
    let scheme = store.sketch_scheme().unwrap();
    let mut cs = ContentSeen::new(SeenConfig::default()).unwrap();
    let mut rng = Rng(15);
    for (i, p) in stream(&mut rng, 400).into_iter().enumerate() {
        if i % 20 == 19 {
            cs.check_fingerprint(&format!("u{i}"), p.fp);
        } else {
            cs.check_fingerprint_and_sketch(&format!("u{i}"), p.fp, Sketch::from_shingles(scheme, &p.set))
                .unwrap();
        }
    }
    let snap = cs.to_bytes();
    let batches = store.import_batches(&snap, 50).unwrap();
    assert!(batches.len() > 2 && batches[0][1] == b"first" && batches[1][1].is_empty());
    // Read the batches back as IMPORT_SKETCH does.
    let (mut pages, mut aliases) = (Vec::new(), Vec::new());
    let mut last = 0u32;
    for b in &batches {
        assert_eq!(b[3], last.to_string().into_bytes(), "batches continue the page numbers");
        let mut i = 5;
        while i < b.len() {
            if b[i] == b"P" {
                let pn = record::page_number(&b[i + 1]).unwrap();
                assert_eq!(pn, last + 1);
                last = pn;
                let (fp, rec) = record::decode_page_value(&b[i + 2]).unwrap();
                let n: u64 = std::str::from_utf8(&b[i + 3]).unwrap().parse().unwrap();
                pages.push((fp, rec.url, n, rec.sketch.map(|s| s.1)));
                i += 5 + 3 * 4;
                let nb: usize = std::str::from_utf8(&b[i]).unwrap().parse().unwrap();
                i += 1 + 3 * nb;
            } else {
                aliases.push((
                    String::from_utf8(b[i + 1].clone()).unwrap(),
                    String::from_utf8(b[i + 2].clone()).unwrap(),
                ));
                i += 3;
            }
        }
        assert_eq!(b[4], last.to_string().into_bytes());
    }
    assert_eq!(pages.len(), cs.len());
    assert!(pages.iter().any(|p| p.3.is_none()) && pages.iter().any(|p| p.3.is_some()));
    assert_eq!(store.export_snapshot(&pages, &aliases).unwrap(), snap, "export gives back the same bytes");
}

#[test]
fn sketch_import_batches_hold_the_same_entries_in_any_batch_size() {
    let store = RedisSeen::new(sketch_config()).unwrap();
    let scheme = store.sketch_scheme().unwrap();
    let mut cs = ContentSeen::new(SeenConfig::default()).unwrap();
    let mut rng = Rng(16);
    for (i, p) in stream(&mut rng, 200).into_iter().enumerate() {
        cs.check_fingerprint_and_sketch(&format!("u{i}"), p.fp, Sketch::from_shingles(scheme, &p.set))
            .unwrap();
    }
    let snap = cs.to_bytes();
    let mut all: Option<Vec<Vec<u8>>> = None;
    for batch in [1, 7, 1000] {
        let mut cursor = store.import_cursor(&snap, batch).unwrap();
        let (mut tail, mut n, mut last) = (Vec::new(), 0, 0usize);
        while let Some(b) = cursor.next_batch().unwrap() {
            assert_eq!(b[1] == b"first", n == 0);
            let from: usize = std::str::from_utf8(&b[3]).unwrap().parse().unwrap();
            let to: usize = std::str::from_utf8(&b[4]).unwrap().parse().unwrap();
            assert_eq!(from, last, "batches continue the page numbers");
            assert!(to > from && to - from <= batch);
            last = to;
            tail.extend_from_slice(&b[5..]);
            n += 1;
        }
        assert_eq!((n, last), (cs.len().div_ceil(batch), cs.len()));
        match &all {
            None => all = Some(tail),
            Some(a) => assert!(a == &tail, "batch {batch} sends other entries"),
        }
    }
}

/// [`shared::a_repeated_call_gets_its_first_answer`] over the sketch stream, every 25th
/// page by fingerprint alone.
#[test]
fn a_repeated_call_gets_its_first_answer_in_sketch_mode() {
    let store = RedisSeen::new(sketch_config()).unwrap();
    let scheme = store.sketch_scheme().unwrap();
    let pages = stream(&mut Rng(515), 1200);
    let inputs: Vec<_> = pages
        .iter()
        .enumerate()
        .map(|(i, page)| (page.fp, (i % 25 != 24).then(|| Sketch::from_shingles(scheme, &page.set))))
        .collect();
    shared::a_repeated_call_gets_its_first_answer::<Model>(&store, &inputs);
}

/// [`shared::racing_checks_of_one_url_each_find_their_id`] (pages by fingerprint alone).
#[test]
fn racing_checks_of_one_url_each_find_their_id_in_sketch_mode() {
    shared::racing_checks_of_one_url_each_find_their_id::<Model>(&RedisSeen::new(sketch_config()).unwrap());
}

/// [`shared::a_repeat_after_the_url_moved_to_another_page_is_counted_once`] (pages by
/// fingerprint alone).
#[test]
fn a_repeat_after_the_url_moved_to_another_page_is_counted_once_in_sketch_mode() {
    let store = RedisSeen::new(sketch_config()).unwrap();
    shared::a_repeat_after_the_url_moved_to_another_page_is_counted_once::<Model>(&store);
}
