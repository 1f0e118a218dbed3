//! What the native tests of both CHECK scripts share: the [`ScriptModel`] trait that the
//! fingerprint-mode model (tests.rs) and the sketch-mode model (tests_sketch.rs) implement,
//! the counted-list helpers both models use, and the fault scenarios written once over the
//! trait and run in both modes.

use super::*;

/// A fresh check id (distinct, never 0), as the JS side draws random ones.
pub(super) fn id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

pub(super) fn s(b: &[u8]) -> Vec<u8> {
    b.to_vec()
}

/// A counted list (src/redis/record.rs): its ids and URL.
pub(super) fn counted(t: &[u8]) -> (Vec<Vec<u8>>, Vec<u8>) {
    let n = t[0] as usize;
    ((0..n).map(|i| t[1 + 8 * i..9 + 8 * i].to_vec()).collect(), t[1 + 8 * n..].to_vec())
}

/// The counted list after check `id` was counted under `cluster`: the last four ids,
/// whichever page each was counted under, and the newest one's page.
pub(super) fn with_id(prev: Option<&[u8]>, cluster: &[u8], id: &[u8]) -> Vec<u8> {
    let mut ids = vec![id.to_vec()];
    if let Some((old, _)) = prev.filter(|t| !t.is_empty()).map(counted) {
        ids.extend(old.into_iter().take(3));
    }
    [&[ids.len() as u8][..], &ids.concat(), cluster].concat()
}

/// The counted list a URL's value `cur` keeps when the URL's page is stored or replaced:
/// a stored value's (kind `kind`, its list from byte `at`), or an alias's.
pub(super) fn kept(cur: Option<&[u8]>, kind: u8, at: usize) -> &[u8] {
    match cur {
        Some(c) if c[0] == kind => &c[at..],
        Some(c) if c[0] == 5 => &c[1..],
        _ => &[],
    }
}

/// A check's plan as the models drive it: [`CheckPlan`] or [`SketchPlan`].
pub(super) trait Plan {
    fn entry(&self) -> Vec<u8>;
    fn feed(&mut self, reply: &[Vec<u8>]) -> Result<Option<Outcome>>;
}

impl Plan for CheckPlan {
    fn entry(&self) -> Vec<u8> {
        CheckPlan::entry(self)
    }
    fn feed(&mut self, reply: &[Vec<u8>]) -> Result<Option<Outcome>> {
        CheckPlan::feed(self, reply)
    }
}

impl Plan for SketchPlan {
    fn entry(&self) -> Vec<u8> {
        SketchPlan::entry(self)
    }
    fn feed(&mut self, reply: &[Vec<u8>]) -> Result<Option<Outcome>> {
        SketchPlan::feed(self, reply)
    }
}

/// A Rust model of one mode's CHECK script over in-memory hashes, with the plan that
/// mode's checks take.
pub(super) trait ScriptModel: Sized {
    /// What a check takes besides its URL.
    type Input: Clone;
    type Plan: Plan;
    /// The namespace's contents that two runs of the same checks must end with alike.
    type State: PartialEq + std::fmt::Debug;

    /// An empty namespace opened by `store` (its meta stored).
    fn new(store: &RedisSeen) -> Self;
    /// The input of a check matched by its fingerprint alone.
    fn by_fingerprint(fp: u64) -> Self::Input;
    fn begin(store: &RedisSeen, url: &str, input: Self::Input, check_id: u64) -> Self::Plan;
    /// One page's script call, sent by the worker `store`.
    fn call(&mut self, store: &RedisSeen, entry: &[u8]) -> Vec<Vec<u8>>;
    /// How many pages are stored.
    fn stored(&self) -> i64;
    /// The sum of the stored pages' counts (a page without a count field was seen once).
    fn count_total(&self) -> u64;
    /// The count field of the stored page with fingerprint `fp` (`None`: no such page, or
    /// seen once).
    fn count_of(&self, fp: u64) -> Option<u64>;
    fn state(&self) -> Self::State;

    /// Drives `plan` to its decision.
    fn drive(&mut self, store: &RedisSeen, plan: &mut Self::Plan) -> Outcome {
        loop {
            if let Some(o) = plan.feed(&self.call(store, &plan.entry())).unwrap() {
                return o;
            }
        }
    }

    /// Drives `plan` to its decision, answering every call twice: the first reply is lost
    /// (as when the connection drops after the server ran the call) and the call is
    /// repeated with the same entry.
    fn drive_losing_replies(&mut self, store: &RedisSeen, plan: &mut Self::Plan) -> Outcome {
        loop {
            let entry = plan.entry();
            let _lost = self.call(store, &entry);
            if let Some(o) = plan.feed(&self.call(store, &entry)).unwrap() {
                return o;
            }
        }
    }

    /// A check with the id `check_id` (a repeat of an earlier check when it is that one's).
    fn run_as(&mut self, store: &RedisSeen, url: &str, input: Self::Input, check_id: u64) -> Outcome {
        let mut plan = Self::begin(store, url, input, check_id);
        self.drive(store, &mut plan)
    }

    /// A check with a fresh id.
    fn run(&mut self, store: &RedisSeen, url: &str, input: Self::Input) -> Outcome {
        self.run_as(store, url, input, id())
    }
}

/// Every call's first reply is lost and the call repeated: each repeated call gets the
/// answer its first attempt got (by the check id), so every stored page is reported new
/// exactly once, and counts and stored pages are those of the same checks without faults.
/// Every 30th check repeats an earlier URL (counted under itself, or replaced); at least
/// a third of the `inputs` must be stored.
pub(super) fn a_repeated_call_gets_its_first_answer<M: ScriptModel>(store: &RedisSeen, inputs: &[M::Input]) {
    let (mut faulty, mut clean) = (M::new(store), M::new(store));
    let urls = store.config().urls;
    let (mut replayed, mut new) = (0, 0);
    for (i, input) in inputs.iter().enumerate() {
        let url = if i % 30 == 29 { format!("u{}", i / 2) } else { format!("u{i}") };
        let mut plan = M::begin(store, &url, input.clone(), id());
        let got = faulty.drive_losing_replies(store, &mut plan);
        let want = clean.run(store, &url, input.clone());
        replayed += usize::from(got.replayed);
        new += usize::from(!got.duplicate);
        assert_eq!(
            Outcome { calls: 0, replayed: false, ..got },
            Outcome { calls: 0, ..want },
            "#{i} urls={urls}"
        );
    }
    // With the URL map every repeated deciding call is a replay; without it, those of new
    // pages (a duplicate's repeat decides again, which writes nothing without counts).
    assert_eq!(replayed, if urls { inputs.len() } else { new }, "urls={urls}");
    // Every page reported new is stored, once (a repeated URL with new content replaces its page).
    let stored = clean.stored();
    assert!(new as i64 >= stored && stored * 3 > inputs.len() as i64, "{new} new, {stored} stored");
    assert_eq!(faulty.state(), clean.state());
}

/// Two checks of one URL race around a lost reply: X is applied and its reply lost, Y is
/// counted under the same page, then X's repeat still finds its id (the URL's counted list
/// keeps the last four) and is answered from its first attempt: counted once. The store
/// keeps the URL map.
pub(super) fn racing_checks_of_one_url_each_find_their_id<M: ScriptModel>(store: &RedisSeen) {
    assert!(store.config().urls);
    for url_stored in [false, true] {
        let mut m = M::new(store);
        let base = 0x0f0f_1234_5678_9abcu64;
        assert!(!m.run(store, "a", M::by_fingerprint(base)).duplicate);
        // The URL "u" is a stored page of its own (other content), or unknown.
        if url_stored {
            assert!(!m.run(store, "u", M::by_fingerprint(!base)).duplicate);
        }
        let near = base ^ 0b101;
        let mut x = M::begin(store, "u", M::by_fingerprint(near), id());
        let lost_entry = loop {
            let entry = x.entry();
            let reply = m.call(store, &entry);
            if reply[0] != b"C" && reply[0] != b"M" {
                break entry; // decided and applied; the reply is lost
            }
            assert!(x.feed(&reply).unwrap().is_none());
        };
        let y = m.run(store, "u", M::by_fingerprint(near));
        assert!(y.duplicate && y.cluster.as_deref() == Some("a"));
        let got = x.feed(&m.call(store, &lost_entry)).unwrap().unwrap();
        assert!(got.replayed && got.duplicate, "{got:?}");
        assert_eq!(got.cluster.as_deref(), Some("a"));
        assert_eq!(m.count_of(base), Some(3), "a, X and Y: X counted once");
    }
}

/// The page a URL is counted under switches between a check and its repeat: X of "u" is
/// counted under "a" (its reply lost), "b" is stored (one bit from u's content, four from
/// "a"), Y of "u" is counted under "b", and X is repeated: it finds its id, is answered as
/// counted under "b" (the page the URL's newest counted check was counted under) and
/// counts nothing. Then "u" gets content of its own (stored, or its page replaced), and X
/// and Y repeated still count nothing: every check is counted once in all. The checks are
/// matched by fingerprint within k = 3, so the distances are chosen; the store keeps the
/// URL map.
pub(super) fn a_repeat_after_the_url_moved_to_another_page_is_counted_once<M: ScriptModel>(
    store: &RedisSeen,
) {
    assert!(store.config().urls && store.config().seen.k == 3);
    for url_stored in [false, true] {
        let mut m = M::new(store);
        let x_fp = 0x0f0f_1234_5678_9abcu64;
        let (a_fp, b_fp) = (x_fp ^ 0b111, x_fp ^ 1 << 40);
        let run = |m: &mut M, url: &str, fp: u64, check_id: u64| {
            m.run_as(store, url, M::by_fingerprint(fp), check_id)
        };
        if url_stored {
            assert!(!run(&mut m, "u", !x_fp, id()).duplicate);
        }
        assert!(!run(&mut m, "a", a_fp, id()).duplicate);
        let (x, y) = (id(), id());
        let first = run(&mut m, "u", x_fp, x);
        assert_eq!((first.duplicate, first.cluster.as_deref(), first.count), (true, Some("a"), Some(2)));
        assert!(!run(&mut m, "b", b_fp, id()).duplicate, "b is 4 bits from a");
        let other = run(&mut m, "u", x_fp, y);
        assert_eq!((other.duplicate, other.cluster.as_deref(), other.count), (true, Some("b"), Some(2)));
        // Checks so far: "u" stored (url_stored), a, X, b, Y.
        let checks = 4 + u64::from(url_stored);
        let again = run(&mut m, "u", x_fp, x);
        assert!(again.replayed && again.duplicate, "{again:?}");
        assert_eq!((again.cluster.as_deref(), again.count), (Some("b"), Some(2)));
        assert_eq!(m.count_total(), checks, "url_stored={url_stored}: every check counted once");
        // "u" gets content of its own: stored, or (url_stored) its page replaced, whose
        // count (its own check) goes with it.
        let z = run(&mut m, "u", x_fp ^ 0xffff_0000_ffff_0000, id());
        assert!(!z.duplicate, "{z:?}");
        for c in [x, y] {
            let again = run(&mut m, "u", x_fp, c);
            assert!(again.replayed && again.duplicate, "{again:?}");
            assert_eq!(again.cluster.as_deref(), Some("b"));
        }
        // Z's check counted, the replaced page's count (url_stored) gone.
        assert_eq!(m.count_total(), checks + 1 - u64::from(url_stored), "url_stored={url_stored}");
        assert_eq!(m.count_of(b_fp), Some(2));
        assert_eq!(m.count_of(a_fp), Some(2));
    }
}

/// Two checks interleaved: B's candidates call, A stores a near-duplicate of B, B's second
/// call must see it (the evaluated-set version check) and call B a duplicate. The pages are
/// matched by fingerprint within k = 3, and the store keeps the URL map.
pub(super) fn a_page_stored_between_two_calls_is_not_missed<M: ScriptModel>(store: &RedisSeen) {
    assert!(store.config().urls && store.config().seen.k == 3);
    let mut m = M::new(store);
    let base = 0x1234_5678_9abc_def0u64;
    // A far page in B's buckets that passes B's pre-filter but is beyond k.
    let decoy = base ^ 0b1111_1000; // 5 bits, all in the lowest 12-bit piece of table 0
    assert!(!m.run(store, "decoy", M::by_fingerprint(decoy)).duplicate);
    let mut b = M::begin(store, "b", M::by_fingerprint(base), id());
    assert!(b.feed(&m.call(store, &b.entry())).unwrap().is_none(), "the decoy is a candidate");
    // Meanwhile another worker stores a page 2 bits from B.
    assert!(!m.run(store, "a", M::by_fingerprint(base ^ 0b11 << 40)).duplicate);
    let mut out = None;
    for _ in 0..4 {
        if let Some(o) = b.feed(&m.call(store, &b.entry())).unwrap() {
            out = Some(o);
            break;
        }
    }
    let o = out.unwrap();
    assert!(o.duplicate, "{o:?}");
    assert_eq!(o.cluster.as_deref(), Some("a"));
    assert_eq!(m.stored(), 2);
}
