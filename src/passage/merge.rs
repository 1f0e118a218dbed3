//! Merging matched windows into spans: two matches whose submission sentence ranges
//! overlap or touch, and whose reference sentence ranges overlap or touch, are one span.

/// A match in sentence numbers: submission sentences `sub.0..=sub.1` against reference
/// sentences `re.0..=re.1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RangePair {
    /// First and last submission sentence.
    pub sub: (usize, usize),
    /// First and last reference sentence.
    pub re: (usize, usize),
}

/// Inclusive ranges that overlap, or have at most `gap` numbers between them.
fn near(a: (usize, usize), b: (usize, usize), gap: usize) -> bool {
    a.0 <= b.1 + 1 + gap && b.0 <= a.1 + 1 + gap
}

fn hull(a: (usize, usize), b: (usize, usize)) -> (usize, usize) {
    (a.0.min(b.0), a.1.max(b.1))
}

/// Merges pairs that are near on both sides (overlapping, or at most `gap` sentences
/// apart), repeatedly, until no two are; returns the
/// merged pairs sorted. Growing a pair only makes it nearer others, so the result does
/// not depend on the order of merging.
pub fn merge(mut pairs: Vec<RangePair>, gap: usize) -> Vec<RangePair> {
    loop {
        crate::sort::sort(&mut pairs);
        let mut out: Vec<RangePair> = Vec::with_capacity(pairs.len());
        let mut changed = false;
        for p in pairs {
            // Sorted by submission start: a pair can only be near recent ones; scan back
            // while their submission ranges could still touch it.
            let hit = out.iter_mut().rev().find(|q| near(q.sub, p.sub, gap) && near(q.re, p.re, gap));
            match hit {
                Some(q) => {
                    q.sub = hull(q.sub, p.sub);
                    q.re = hull(q.re, p.re);
                    changed = true;
                }
                None => out.push(p),
            }
        }
        pairs = out;
        if !changed {
            return pairs;
        }
    }
}
