//! Native tests of the store's plan against a Rust model of the CHECK script (the model
//! follows script.rs line by line; the JS tests run the real Lua on a real redis-server).

// The model indexes tables by number, as the Lua script does.
#![allow(clippy::needless_range_loop)]
use std::collections::{HashMap, HashSet};

use super::keys::nibbles_within;
use super::tests_shared::{self as shared, counted, id, kept, s, with_id, ScriptModel};
use super::*;
use crate::test_rng::Rng;

/// A Rust model of `script::CHECK` over in-memory hashes.
#[derive(Default)]
struct Model {
    /// The layout's tables (the model keeps the table hashes as one map per table, keyed
    /// by the hash name followed by the field).
    tables: usize,
    meta: Option<Vec<u8>>,
    n: i64,
    p: HashMap<Vec<u8>, Vec<u8>>,
    c: HashMap<Vec<u8>, u64>,
    u: HashMap<Vec<u8>, Vec<u8>>,
    t: Vec<HashMap<Vec<u8>, Vec<u8>>>,
    /// `{NS}:r:` keys: check ids that stored their page without the URL map.
    r: HashSet<Vec<u8>>,
}

impl Model {
    fn check(&mut self, a: &[Vec<u8>]) -> Vec<Vec<u8>> {
        match &self.meta {
            None => return vec![s(b"G")],
            Some(m) if *m != a[0] => return vec![s(b"X"), m.clone()],
            _ => {}
        }
        // a[i] is ARGV[i + 1]; the query a[2] is parsed as the script does.
        let (url, q) = (&a[1], &a[2]);
        let (fp, cid, urls, k) = (&q[..8].to_vec(), q[8..16].to_vec(), q[16] == 1, u32::from(q[17]));
        let nt = q[18] as usize;
        assert_eq!(nt, self.tables);
        // fs[t]: the bucket's place, hash name then field (fixed lengths per table).
        let (mut fs, mut rs, mut pos) = (Vec::new(), Vec::new(), 19);
        for _ in 0..nt {
            let (hl, fl, rl) = (q[pos] as usize, q[pos + 1] as usize, q[pos + 2] as usize);
            pos += 3;
            fs.push(q[pos..pos + hl + fl].to_vec());
            rs.push(q[pos + hl + fl..pos + hl + fl + rl].to_vec());
            pos += hl + fl + rl;
        }
        let page_record = q[pos..].to_vec();
        if self.t.len() < nt {
            self.t.resize(nt, HashMap::new());
        }
        let f = |t: usize| &fs[t];
        let r = |t: usize| &rs[t];
        let rl = |t: usize| r(t).len();
        let page_url = |p: &HashMap<Vec<u8>, Vec<u8>>, fp: &[u8]| -> Vec<u8> {
            p.get(fp).map(|r| PageRecord::decode(r).unwrap().url.into_bytes()).unwrap_or_default()
        };
        let stored_kind = |c: &[u8]| c[0] == 1 || c[0] == 4;
        // A repeated call: its check id says what its first attempt decided.
        let cur = if urls { self.u.get(url).cloned() } else { None };
        if !urls && self.r.contains(&cid) {
            return vec![s(b"R")];
        }
        if let Some(c) = &cur {
            if c[0] == 4 && c[9..17] == cid[..] {
                return vec![s(b"R")];
            }
            let replay = match c[0] {
                4 if c.len() > 17 => {
                    let (ids, under) = counted(&c[17..]);
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
                    cc.filter(|x| stored_kind(x)).and_then(|x| self.c.get(&x[1..9]).copied()).unwrap_or(1);
                let mut res = vec![s(b"R"), cluster, n.to_string().into_bytes()];
                let mb = &a[4];
                let mut j = 0;
                while j < mb.len() {
                    let murl = page_url(&self.p, &mb[j..j + 8]);
                    res.push(if murl.is_empty() { s(b"0") } else { [&b"1"[..], &murl].concat() });
                    j += 10 + rl(mb[j + 9] as usize);
                }
                return res;
            }
        }
        let mut seen = HashSet::new();
        let ev = &a[3];
        let mut i = 0;
        while i < ev.len() {
            let l = rl(ev[i] as usize);
            seen.insert(ev[i..i + 1 + l].to_vec());
            i += 1 + l;
        }
        let (mut alive, mut fresh, mut npass, mut allexact) = (HashSet::new(), Vec::new(), 0, true);
        let mut buckets = Vec::new();
        for t in 0..nt {
            let b = self.t[t].get(f(t)).cloned().unwrap_or_default();
            for rec in b.chunks(rl(t)) {
                if nibbles_within(r(t), rec, k) {
                    let mut key = vec![t as u8];
                    key.extend_from_slice(rec);
                    alive.insert(key.clone());
                    npass += 1;
                    allexact &= rec == r(t).as_slice();
                    if !seen.contains(&key) {
                        fresh.extend(key);
                    }
                }
            }
            buckets.push(b);
        }
        let count_under = |m: &mut Model, bestfp: &[u8], best: &[u8]| -> Vec<u8> {
            if !urls {
                return s(b"0");
            }
            // No field means seen once.
            let n = m.c.entry(bestfp.to_vec()).or_insert(1);
            *n += 1;
            let n = *n;
            if let Some(c) = cur.as_ref().filter(|c| stored_kind(c)) {
                let own = c[0] == 4;
                let stored_by = if own { c[9..17].to_vec() } else { vec![0; 8] };
                let under = if best == url.as_slice() { &[][..] } else { best };
                let list = with_id(own.then(|| &c[17..]), under, &cid);
                m.u.insert(url.clone(), [&[4u8][..], &c[1..9], &stored_by, &list].concat());
            } else if best != url.as_slice() {
                let prev = cur.as_ref().filter(|c| c[0] == 5).map(|c| &c[1..]);
                m.u.insert(url.clone(), [&[5u8][..], &with_id(prev, best, &cid)].concat());
            }
            n.to_string().into_bytes()
        };
        if npass > 0 && allexact {
            let best = if urls { page_url(&self.p, fp) } else { Vec::new() };
            let n = count_under(self, fp, &best);
            return vec![s(b"E"), best, n];
        }
        if !fresh.is_empty() {
            return vec![s(b"C"), fresh];
        }
        let mb = &a[4];
        if !mb.is_empty() {
            let (mut best, mut bestd, mut bestfp, mut out, mut j) = (Vec::new(), 999u16, None, Vec::new(), 0);
            while j < mb.len() {
                let (mfp, d) = (&mb[j..j + 8], mb[j + 8]);
                let l = rl(mb[j + 9] as usize);
                let key = &mb[j + 9..j + 10 + l];
                j += 10 + l;
                if alive.contains(key) {
                    let murl = if urls { page_url(&self.p, mfp) } else { Vec::new() };
                    let mut o = vec![b'1'];
                    o.extend_from_slice(&murl);
                    out.push(o);
                    if u16::from(d) < bestd || (u16::from(d) == bestd && murl < best) {
                        (best, bestd, bestfp) = (murl.clone(), u16::from(d), Some(mfp.to_vec()));
                    }
                } else {
                    out.push(s(b"0"));
                }
            }
            if let Some(bfp) = bestfp {
                let n = count_under(self, &bfp, &best);
                let mut res = vec![s(b"D"), best, n];
                res.extend(out);
                return res;
            }
        }
        if urls {
            if let Some(cur) = cur.clone().filter(|c| stored_kind(c)) {
                let (old, rep) = (&cur[1..9], &a[5]);
                if rep.len() < 8 || &rep[..8] != old {
                    return vec![s(b"M"), old.to_vec()];
                }
                let mut j = 8;
                for t in 0..nt {
                    let (fl, l) = (f(t).len(), rl(t));
                    let (ff, rr) = (rep[j..j + fl].to_vec(), &rep[j + fl..j + fl + l]);
                    j += fl + l;
                    let mut b = self.t[t].get(&ff).cloned().unwrap_or_default();
                    if let Some(pos) = b.chunks(l).position(|x| x == rr) {
                        b.drain(pos * l..pos * l + l);
                    }
                    if b.is_empty() {
                        self.t[t].remove(&ff);
                    } else {
                        self.t[t].insert(ff.clone(), b.clone());
                    }
                    if ff == *f(t) {
                        buckets[t] = b;
                    }
                }
                self.p.remove(old);
                self.c.remove(old);
                self.n -= 1;
            }
        }
        for t in 0..nt {
            let mut b = buckets[t].clone();
            b.extend_from_slice(r(t));
            self.t[t].insert(f(t).clone(), b);
        }
        self.n += 1;
        if urls {
            self.p.insert(fp.clone(), page_record);
            let list = kept(cur.as_deref(), 4, 17);
            self.u.insert(url.clone(), [&[4u8][..], fp, &cid, list].concat());
        } else {
            self.r.insert(cid);
        }
        vec![s(b"N")]
    }

    /// The script over a call: the entries split into their five fields, the meta check
    /// once (its reply given to every page), then each page in turn, each seeing what the
    /// ones before it stored.
    fn check_batch(&mut self, argv: &[Vec<u8>]) -> Vec<Vec<Vec<u8>>> {
        assert_eq!(argv.len(), 2, "meta and entries");
        let (e, mut at, mut fields) = (&argv[1], 0, Vec::new());
        while at < e.len() {
            let n = u32::from_be_bytes(e[at..at + 4].try_into().unwrap()) as usize;
            fields.push(e[at + 4..at + 4 + n].to_vec());
            at += 4 + n;
        }
        assert_eq!(fields.len() % 5, 0, "five fields a page");
        fields
            .chunks(5)
            .map(|g| {
                let mut a = vec![argv[0].clone()];
                a.extend_from_slice(g);
                self.check(&a)
            })
            .collect()
    }
}

impl ScriptModel for Model {
    type Input = u64;
    type Plan = CheckPlan;
    type State = (i64, HashMap<Vec<u8>, Vec<u8>>, HashMap<Vec<u8>, u64>, Vec<HashMap<Vec<u8>, Vec<u8>>>);

    fn new(store: &RedisSeen) -> Model {
        Model {
            tables: store.layout().tables(),
            meta: Some(store.meta().as_bytes().to_vec()),
            ..Model::default()
        }
    }

    fn by_fingerprint(fp: u64) -> u64 {
        fp
    }

    fn begin(store: &RedisSeen, url: &str, fp: u64, check_id: u64) -> CheckPlan {
        store.begin(url, fp, check_id).unwrap()
    }

    /// One page's CHECK call.
    fn call(&mut self, store: &RedisSeen, entry: &[u8]) -> Vec<Vec<u8>> {
        let mut r = self.check_batch(&decide::check_argv(store.meta(), [entry]));
        assert_eq!(r.len(), 1);
        r.pop().unwrap()
    }

    fn stored(&self) -> i64 {
        self.n
    }

    fn count_total(&self) -> u64 {
        self.p.keys().map(|fp| self.c.get(fp).copied().unwrap_or(1)).sum()
    }

    fn count_of(&self, fp: u64) -> Option<u64> {
        self.c.get(fp.to_be_bytes().as_slice()).copied()
    }

    fn state(&self) -> Self::State {
        (self.n, self.p.clone(), self.c.clone(), self.t.clone())
    }
}

/// URL-map values without their check ids (which differ between runs of the same checks).
fn without_ids(u: &HashMap<Vec<u8>, Vec<u8>>) -> HashMap<Vec<u8>, Vec<u8>> {
    u.iter()
        .map(|(k, v)| {
            let v = match v[0] {
                4 => [&[1u8][..], &v[1..9]].concat(),
                5 => [&[2u8][..], &counted(&v[1..]).1].concat(),
                _ => v.clone(),
            };
            (k.clone(), v)
        })
        .collect()
}

fn config(k: u32, urls: bool) -> StoreConfig {
    StoreConfig {
        seen: SeenConfig { k, ..SeenConfig::fingerprint_only() },
        namespace: "t".into(),
        urls,
        batch: 32,
        retries: 0,
    }
}

/// A stream of fingerprints with planted near-duplicates (1 to k bits away) and exact copies.
fn stream(rng: &mut Rng, n: usize, k: u32) -> Vec<u64> {
    let mut out: Vec<u64> = Vec::new();
    for _ in 0..n {
        let fp = if !out.is_empty() && rng.below(3) == 0 {
            let mut f = out[rng.below(out.len() as u64) as usize];
            for _ in 0..rng.below(u64::from(k) + 3) {
                f ^= 1 << rng.below(64);
            }
            f
        } else {
            // Clustered high bits so buckets fill up and the pre-filter has work.
            rng.next() & 0x00ff_ffff_ffff_ffff | (rng.below(4) << 56)
        };
        out.push(fp);
    }
    out
}

#[test]
fn one_worker_decides_as_content_seen() {
    for (k, urls) in [(3, true), (3, false), (2, true), (5, true)] {
        let mut rng = Rng(u64::from(k) + 100);
        let store = RedisSeen::new(config(k, urls)).unwrap();
        let mut model = Model::new(&store);
        let mut cs = ContentSeen::new(SeenConfig { k, ..SeenConfig::fingerprint_only() }).unwrap();
        let fps = stream(&mut rng, 3000, k);
        let mut calls = 0;
        for (i, &fp) in fps.iter().enumerate() {
            // Every 50th check re-checks an earlier URL (counts, or replaced content).
            let url =
                if urls && i % 50 == 49 { format!("u{}", rng.below(i as u64)) } else { format!("u{i}") };
            let want = cs.check_fingerprint(&url, fp);
            let got = model.run(&store, &url, fp);
            calls += got.calls;
            assert_eq!(got.duplicate, want.duplicate, "#{i} k={k} {url} {fp:x} {got:?} {want:?}");
            let mut want_m: Vec<(u32, u64)> =
                want.matches.iter().map(|m| (m.distance, cs_fp(&cs, &m.id))).collect();
            let got_m: Vec<(u32, u64)> = got.matches.iter().map(|m| (m.distance, m.fingerprint)).collect();
            // Without URLs, equal distances are ordered by fingerprint.
            want_m.sort();
            if urls {
                assert_eq!(got.cluster.as_deref(), Some(want.cluster.as_str()), "#{i}");
                assert_eq!(got.count, Some(want.count), "#{i}");
                let ids: Vec<&str> = got.matches.iter().map(|m| m.url.as_deref().unwrap()).collect();
                let want_ids: Vec<&str> = want.matches.iter().map(|m| m.id.as_str()).collect();
                assert_eq!(ids, want_ids, "#{i}");
                assert_eq!(got.distance(), want.distance, "#{i}");
            } else if !want.duplicate {
                // Without URLs a re-checked URL is new content, so only compare fresh URLs.
                assert!(got.cluster.is_none() && got.count.is_none());
            }
            if !urls && i % 50 != 49 {
                assert_eq!(got_m, want_m, "#{i}");
            }
        }
        if urls {
            assert_eq!(model.n as usize, cs.len());
            for p in cs.clusters() {
                let c = model.c.get(p.fingerprint.to_be_bytes().as_slice()).copied().unwrap_or(1);
                assert_eq!(c, p.count);
            }
        }
        // New pages take one call, near-duplicates two, a few a third.
        assert!(calls < fps.len() as u32 * 2, "{calls} calls for {} checks", fps.len());
    }
}

/// Checks sent in batches (one script call for many pages, as `checkBatch` and
/// concurrent `check`s do) decide as the same checks made one at a time in the order the
/// batches decided them (a page needing a second call is decided in a later batch, after
/// pages that came after it): replayed one by one on a fresh model, every outcome is the
/// same.
#[test]
fn batches_decide_as_one_check_at_a_time_in_their_order() {
    for (k, urls) in [(3, true), (3, false), (5, true)] {
        let mut rng = Rng(u64::from(k) + 700);
        let store = RedisSeen::new(config(k, urls)).unwrap();
        let mut model = Model::new(&store);
        let fps = stream(&mut rng, 3000, k);
        let (mut next, mut pending, mut decided, mut calls, mut multi) = (0, Vec::new(), Vec::new(), 0, 0);
        while next < fps.len() || !pending.is_empty() {
            let size = 1 + rng.below(40) as usize;
            while pending.len() < size && next < fps.len() {
                let url = if urls && next % 50 == 49 {
                    format!("u{}", rng.below(next as u64))
                } else {
                    format!("u{next}")
                };
                pending.push((url.clone(), fps[next], store.begin(&url, fps[next], id()).unwrap()));
                next += 1;
            }
            let steps: Vec<Vec<u8>> = pending.iter().map(|(_, _, p)| p.entry()).collect();
            let replies =
                model.check_batch(&decide::check_argv(store.meta(), steps.iter().map(Vec::as_slice)));
            assert_eq!(replies.len(), pending.len());
            calls += 1;
            let mut again = Vec::new();
            for ((url, fp, mut plan), reply) in pending.drain(..).zip(replies) {
                match plan.feed(&reply).unwrap() {
                    Some(o) => decided.push((url, fp, o)),
                    None => again.push((url, fp, plan)),
                }
            }
            multi += usize::from(again.len() > 1);
            pending = again;
        }
        assert_eq!(decided.len(), fps.len());
        // Batches did share calls, and some held several pages that needed another.
        assert!(calls * 4 < fps.len(), "{calls} calls for {} pages", fps.len());
        assert!(multi > 0);
        let mut one = Model::new(&store);
        let mut reordered = 0;
        for (j, (url, fp, got)) in decided.iter().enumerate() {
            let want = one.run(&store, url, *fp);
            assert_eq!(
                decide::Outcome { calls: 0, ..got.clone() },
                decide::Outcome { calls: 0, ..want },
                "page #{j} of the decided order, k={k} urls={urls}"
            );
            reordered += usize::from(url.strip_prefix('u').and_then(|n| n.parse::<usize>().ok()) != Some(j));
        }
        assert!(reordered > 0, "some pages were decided after pages that came after them");
        assert_eq!(
            (one.n, &one.p, &one.c, without_ids(&one.u)),
            (model.n, &model.p, &model.c, without_ids(&model.u))
        );
        assert_eq!(one.t, model.t);
    }
}

/// Unrelated pages (20,000, so buckets of the 16-bit tables hold a few records each) are
/// decided and stored in one call: the nibble pre-filter lets a random record through with
/// probability about 3 · 10^-9, so no check here may take a second call.
#[test]
fn new_pages_take_one_call() {
    let store = RedisSeen::new(config(3, true)).unwrap();
    let mut m = Model::new(&store);
    let mut rng = Rng(9);
    let n = 20_000;
    let mut calls = 0;
    for i in 0..n {
        let o = m.run(&store, &format!("u{i}"), rng.next());
        calls += o.calls;
    }
    assert_eq!(calls, n, "every new page is decided in one call");
    // The buckets were not empty: the pre-filter did run over stored records.
    assert!(m.t[0].values().map(|b| b.len() / 6).max().unwrap() >= 2);
}

fn cs_fp(cs: &ContentSeen, id: &str) -> u64 {
    cs.index().get(&id.to_owned()).unwrap()
}

/// [`shared::a_page_stored_between_two_calls_is_not_missed`].
#[test]
fn a_page_stored_between_two_calls_is_not_missed() {
    shared::a_page_stored_between_two_calls_is_not_missed::<Model>(&RedisSeen::new(config(3, true)).unwrap());
}

#[test]
fn settings_and_namespace_are_checked() {
    let mut a = RedisSeen::new(config(3, true)).unwrap();
    let b = RedisSeen::new(config(4, true)).unwrap();
    let mut m = Model::new(&a);
    let mut plan = b.begin("u", 1, id()).unwrap();
    let args = plan.entry();
    let e = plan.feed(&m.call(&b, &args)).unwrap_err();
    assert!(matches!(e, Error::SchemeMismatch { field: "layout", .. }), "{e}");
    m.meta = None;
    let mut plan = a.begin("u", 1, id()).unwrap();
    let args = plan.entry();
    assert!(plan.feed(&m.call(&a, &args)).unwrap_err().to_string().contains("meta key is gone"));
    assert!(a.begin("", 1, id()).is_err());
    assert!(a.begin(&"x".repeat(record::MAX_URL_BYTES + 1), 1, id()).is_err());
    assert!(RedisSeen::new(StoreConfig { namespace: "a}b".into(), ..config(3, true) }).is_err());
    for batch in [0, StoreConfig::MAX_BATCH + 1] {
        let e = RedisSeen::new(StoreConfig { batch, ..config(3, true) }).err().unwrap().to_string();
        assert!(e.contains("batch") && e.contains("1 to 1000"), "{e}");
    }
    assert!(RedisSeen::new(StoreConfig { batch: StoreConfig::MAX_BATCH, ..config(3, true) }).is_ok());
    let e = RedisSeen::new(StoreConfig { retries: StoreConfig::MAX_RETRIES + 1, ..config(3, true) });
    assert!(matches!(e, Err(Error::InvalidOption { option: "retries", .. })));
    assert!(RedisSeen::new(StoreConfig { retries: StoreConfig::MAX_RETRIES, ..config(3, true) }).is_ok());
    let mut k64 = config(3, true);
    k64.seen.k = 64;
    assert!(matches!(RedisSeen::new(k64), Err(Error::InvalidOption { option: "k", .. })));
    assert!(matches!(a.begin("u", 1, 0), Err(Error::InvalidOption { option: "checkId", .. })));
    // The defaults are ContentSeen's (its sketch and threshold); without the URL map, fingerprints only.
    assert_eq!(StoreConfig::default().seen, SeenConfig::default());
    assert_eq!(StoreConfig::defaults(false).seen, SeenConfig::fingerprint_only());
    // OPEN replies.
    assert_eq!(a.open_reply(&[s(b"C")]), Ok(true));
    assert_eq!(a.open_reply(&[s(b"S"), a.meta().as_bytes().to_vec()]), Ok(false));
    assert_eq!(a.open_reply(&[s(b"U")]), Ok(false), "upgraded from store format 2");
    let args = a.open_args();
    assert_eq!(args[3], meta::upgradable(a.meta(), 2).into_bytes());
    assert_eq!(args[4], meta::upgradable(a.meta(), 3).into_bytes());
    assert_eq!(args[5], meta::upgradable(a.meta(), 4).into_bytes());
    assert!(args[2].is_empty(), "no bands without a sketch");
    assert!(matches!(
        a.open_reply(&[s(b"S"), b.meta().as_bytes().to_vec()]),
        Err(Error::SchemeMismatch { .. })
    ));
    let e = a.open_reply(&[s(b"F"), s(b"{t}:p"), s(b"list")]).unwrap_err();
    assert!(e.to_string().contains("foreign"), "{e}");
    // Garbage replies are errors, never answers.
    let mut plan = a.begin("u", 1, id()).unwrap();
    assert!(plan.feed(&[s(b"?")]).is_err());
    assert!(plan.feed(&[s(b"C"), vec![9, 1, 2]]).is_err());
}

#[test]
fn snapshots_export_and_import_through_the_namespace() {
    let store = RedisSeen::new(config(3, true)).unwrap();
    let mut cs = ContentSeen::new(SeenConfig::fingerprint_only()).unwrap();
    let mut rng = Rng(5);
    for (i, fp) in stream(&mut rng, 400, 3).into_iter().enumerate() {
        cs.check_fingerprint(&format!("u{i}"), fp);
    }
    let snap = cs.to_bytes();
    let batches = store.import_batches(&snap, 50).unwrap();
    assert!(batches.len() > 2 && batches[0][1] == b"first" && batches[1][1].is_empty());
    // Read the batches back as the script would, and export them again.
    let mut pages = Vec::new();
    let mut aliases = Vec::new();
    for b in &batches {
        let mut i = 3;
        while i < b.len() {
            if b[i] == b"P" {
                let fp = fp_from(&b[i + 1]).unwrap();
                let n: u64 = std::str::from_utf8(&b[i + 3]).unwrap().parse().unwrap();
                pages.push((fp, String::from_utf8(b[i + 4].clone()).unwrap(), n, None));
                i += 5 + 3 * 4; // four tables: hash name, field and record each
            } else {
                aliases.push((
                    String::from_utf8(b[i + 1].clone()).unwrap(),
                    String::from_utf8(b[i + 2].clone()).unwrap(),
                ));
                i += 3;
            }
        }
    }
    assert_eq!(pages.len(), cs.len());
    assert_eq!(aliases.len(), cs.duplicate_urls());
    let back = store.export_snapshot(&pages, &aliases).unwrap();
    assert_eq!(back, snap, "export gives back the same snapshot bytes");
    // A snapshot made with other settings is refused.
    let other = ContentSeen::new(SeenConfig { k: 4, ..SeenConfig::fingerprint_only() }).unwrap().to_bytes();
    assert!(matches!(store.import_batches(&other, 10), Err(Error::SchemeMismatch { .. })));
    // Inconsistent counts are refused.
    pages[0].2 = 0;
    assert!(store.export_snapshot(&pages, &aliases).is_err());
}

#[test]
fn import_batches_are_made_one_at_a_time_with_the_same_entries_in_any_batch_size() {
    let mut cs = ContentSeen::new(SeenConfig::fingerprint_only()).unwrap();
    let mut rng = Rng(6);
    for (i, fp) in stream(&mut rng, 300, 3).into_iter().enumerate() {
        cs.check_fingerprint(&format!("u{i}"), fp);
    }
    let snap = cs.to_bytes();
    for urls in [true, false] {
        let store = RedisSeen::new(config(3, urls)).unwrap();
        let entries = cs.len() + if urls { cs.duplicate_urls() } else { 0 };
        assert!(cs.duplicate_urls() > 20, "the stream has duplicates");
        let mut all: Option<Vec<Vec<u8>>> = None;
        for batch in [1, 3, 50, 100_000] {
            let mut cursor = store.import_cursor(&snap, batch).unwrap();
            assert_eq!(cursor.pages(), cs.len());
            let (mut tail, mut n) = (Vec::new(), 0);
            while let Some(b) = cursor.next_batch().unwrap() {
                assert_eq!(b[1] == b"first", n == 0, "only the first batch is marked");
                // Entries: a page is "P" and 4 + 3 × 4 arguments, a duplicate URL "A" and 2.
                let (mut i, mut k) = (3, 0);
                while i < b.len() {
                    i += if b[i] == b"P" { 5 + 3 * 4 } else { 3 };
                    k += 1;
                }
                assert!(k >= 1 && k <= batch, "{k} entries in a batch of {batch}");
                tail.extend_from_slice(&b[3..]);
                n += 1;
            }
            assert_eq!(n, entries.div_ceil(batch), "batch {batch}");
            assert_eq!(cursor.pages_done(), cs.len());
            assert!(cursor.next_batch().unwrap().is_none(), "stays ended");
            match &all {
                None => all = Some(tail),
                Some(a) => assert!(a == &tail, "batch {batch} sends other entries"),
            }
        }
    }
    // An empty snapshot still sends the first batch (it checks the namespace is empty).
    let store = RedisSeen::new(config(3, true)).unwrap();
    let empty = ContentSeen::new(SeenConfig::fingerprint_only()).unwrap().to_bytes();
    let b = store.import_batches(&empty, 10).unwrap();
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].len(), 3);
    assert_eq!(b[0][1], b"first");
}

/// [`shared::a_repeated_call_gets_its_first_answer`], with and without the URL map.
#[test]
fn a_repeated_call_gets_its_first_answer() {
    for urls in [true, false] {
        let store = RedisSeen::new(config(3, urls)).unwrap();
        shared::a_repeated_call_gets_its_first_answer::<Model>(&store, &stream(&mut Rng(91), 1500, 3));
    }
}

/// [`shared::racing_checks_of_one_url_each_find_their_id`].
#[test]
fn racing_checks_of_one_url_each_find_their_id() {
    shared::racing_checks_of_one_url_each_find_their_id::<Model>(&RedisSeen::new(config(3, true)).unwrap());
}

/// [`shared::a_repeat_after_the_url_moved_to_another_page_is_counted_once`].
#[test]
fn a_repeat_after_the_url_moved_to_another_page_is_counted_once() {
    let store = RedisSeen::new(config(3, true)).unwrap();
    shared::a_repeat_after_the_url_moved_to_another_page_is_counted_once::<Model>(&store);
}

#[test]
fn template_script_replies_are_read() {
    let a = RedisSeen::new(config(3, true)).unwrap();
    let b = RedisSeen::new(config(4, true)).unwrap();
    let r = |parts: &[&[u8]]| parts.iter().map(|p| p.to_vec()).collect::<Vec<_>>();
    assert!(a.learn_reply(&r(&[b"1"])).unwrap());
    assert!(!a.learn_reply(&r(&[b"0"])).unwrap());
    assert!(a.import_template_reply(&r(&[b"OK"])).is_ok());
    // Another worker's settings: the differing field, from either script.
    let other = r(&[b"X", b.meta().as_bytes()]);
    for e in [a.learn_reply(&other).unwrap_err(), a.import_template_reply(&other).unwrap_err()] {
        assert!(matches!(e, Error::SchemeMismatch { field: "layout", .. }), "{e}");
    }
    for e in [a.learn_reply(&r(&[b"G"])).unwrap_err(), a.import_template_reply(&r(&[b"G"])).unwrap_err()] {
        assert!(e.to_string().contains("meta key is gone"), "{e}");
    }
    for reply in [r(&[b"?"]), Vec::new()] {
        assert!(matches!(a.learn_reply(&reply), Err(Error::Corrupt { .. })), "{reply:?}");
        assert!(matches!(a.import_template_reply(&reply), Err(Error::Corrupt { .. })), "{reply:?}");
    }
}

#[test]
fn a_version_4_namespace_is_upgraded_unless_it_learns_templates() {
    let v4 = |meta: &str| meta.replace("simhash-wasm-redis 5\n", "simhash-wasm-redis 4\n");
    // Learning no template: OPEN upgrades a version-4 meta of our settings in place.
    let a = RedisSeen::new(config(3, true)).unwrap();
    assert!(a.meta().starts_with("simhash-wasm-redis 5\n"), "{}", a.meta());
    assert_eq!(a.open_args()[5], v4(a.meta()).into_bytes());
    // Learning templates: no upgrade; the handle works in it as version 4 does, with its
    // meta and blocks hashed by their words.
    let learning = || {
        let mut c = StoreConfig { namespace: "t".into(), ..StoreConfig::default() };
        c.seen.html = true;
        RedisSeen::new(c).unwrap()
    };
    let reads = |s: &RedisSeen| {
        let a = s.template_read("https://h.example/a", "<main><p>12 comments</p></main>").unwrap();
        let b = s.template_read("https://h.example/b", "<main><p>13 comments</p></main>").unwrap();
        (a.fields(), b.fields())
    };
    let mut new = learning();
    assert!(new.open_args()[5].is_empty(), "never upgraded");
    assert_eq!(new.open_reply(&[s(b"C")]), Ok(true));
    let (x, y) = reads(&new);
    assert_eq!(x, y, "a number is one block, whatever its digits");
    let mut old = learning();
    let stored = v4(old.meta());
    assert_eq!(old.open_reply(&[s(b"S"), stored.clone().into_bytes()]), Ok(false));
    assert_eq!(old.meta(), stored);
    let (x, y) = reads(&old);
    assert_ne!(x, y, "version 4 hashes the words as written");
    // A version-4 namespace with other settings still reports the setting.
    let mut other = learning();
    let e =
        other.open_reply(&[s(b"S"), stored.replace("template=3", "template=5").into_bytes()]).unwrap_err();
    assert!(matches!(e, Error::SchemeMismatch { field: "template", .. }), "{e}");
}

#[test]
fn a_server_that_evicts_any_key_once_full_is_warned_of() {
    let store = RedisSeen::new(config(3, true)).unwrap();
    let info = |limit: u64, policy: &str| {
        format!("# Memory\r\nused_memory:1032\r\nmaxmemory:{limit}\r\nmaxmemory_human:1M\r\nmaxmemory_policy:{policy}\r\n")
    };
    let w = store.server_warning(&info(1 << 20, "allkeys-lru")).expect("allkeys-lru evicts the store's keys");
    assert!(
        w.contains("maxmemory-policy allkeys-lru") && w.contains("1048576 bytes") && w.contains("noeviction"),
        "{w}"
    );
    assert!(store.server_warning(&info(1 << 20, "allkeys-lfu")).is_some());
    for policy in ["noeviction", "volatile-lru", "volatile-ttl"] {
        assert_eq!(store.server_warning(&info(1 << 20, policy)), None, "{policy}");
    }
    // No limit: nothing is evicted; a text without the fields (INFO renamed, another server): no word.
    assert_eq!(store.server_warning(&info(0, "allkeys-lru")), None);
    assert_eq!(store.server_warning(""), None);
    assert_eq!(store.server_warning("maxmemory_policy:allkeys-lru\r\n"), None);
}
