//! Finds a page's main content in its [`Tree`](super::tree::Tree): drops the template's
//! parts, scores the containers of the text blocks, and writes the text of the best one
//! (with the siblings that continue it), cleaned of link lists and widgets.

use super::text::{Gap, Writer};
use super::tree::{
    self, Node, Tag, Tree, BLOCK_EL, BODY, HIDDEN, NEG, NONE, POS, ROLE_BOILER, ROLE_MAIN, STRONG_NEG,
};

/// Per-node sums over the subtree (template parts left out).
#[derive(Clone, Copy, Default, Debug)]
struct Stat {
    /// Visible characters, whitespace excluded (a CJK character counts twice: it carries
    /// about as much as a short word).
    chars: u32,
    /// Those inside links.
    link: u32,
    /// Commas and sentence ends.
    punct: u32,
    /// Text blocks (paragraphs) of some length.
    paras: u32,
    /// Characters outside links in those paragraphs that are not mostly links.
    good: u32,
}

/// The share of paragraph text in what an ancestor adds for the ancestor to replace the
/// best container.
const ASCEND: f32 = 0.8;

/// The link density from which a list whose every item holds a link is left out.
const LINK_LIST: f32 = 0.3;

/// The longest average item (in weighted characters) of such a list.
const LINK_ITEM: u32 = 100;

/// The score, relative to the best, of a chunk of the article elsewhere under an ancestor.
const CHUNK: f32 = 0.3;

/// The weight of one character for the length measures.
fn char_weight(c: char) -> u32 {
    if (c as u32) >= 0x2E80 {
        2
    } else {
        1
    }
}

fn is_punct(c: char) -> bool {
    matches!(c, ',' | '.' | ';' | '!' | '?' | '，' | '。' | '；' | '、' | '！' | '？')
}

/// The text of `html`'s main content.
pub(super) fn main_content_into(html: &str, out: &mut String) {
    main_content_of(&tree::build(html), out);
}

/// The text of the main content of a page read into `tree`.
pub(super) fn main_content_of(tree: &tree::Tree, out: &mut String) {
    out.clear();
    let nodes = &tree.nodes;
    let n = nodes.len();
    // Raw sums, for the size guard on drops.
    let mut raw = vec![0u32; n];
    for i in (1..n).rev() {
        let node = &nodes[i];
        if node.tag == Tag::Text {
            raw[i] = tree.text_of(node).chars().filter(|c| !c.is_whitespace()).map(char_weight).sum();
        }
        let p = node.parent as usize;
        raw[p] += raw[i];
    }
    let total = raw[0].max(1);
    // Template parts, top-down: a part's subtree is dropped with it.
    let mut dropped = vec![false; n];
    let has_body = nodes.iter().any(|nd| nd.flags & (BODY | ROLE_MAIN) != 0 || nd.tag == Tag::Article);
    for i in 1..n {
        let node = &nodes[i];
        let p = node.parent as usize;
        dropped[i] =
            dropped[p] || (node.tag != Tag::Text && is_template(node, raw[i], total, has_body, nodes, i));
    }
    // Sums over the kept nodes.
    let mut st = vec![Stat::default(); n];
    let mut in_link = vec![false; n];
    for i in 1..n {
        let p = nodes[i].parent as usize;
        in_link[i] = in_link[p] || nodes[i].tag == Tag::A;
    }
    // The nearest block ancestor of each text node collects its text as one paragraph.
    let mut own = vec![Stat::default(); n];
    for i in (1..n).rev() {
        if dropped[i] {
            continue;
        }
        let node = &nodes[i];
        if node.tag == Tag::Text {
            let mut s = Stat::default();
            for c in tree.text_of(node).chars() {
                if !c.is_whitespace() {
                    s.chars += char_weight(c);
                    if is_punct(c) {
                        s.punct += 1;
                    }
                }
            }
            if in_link[i] {
                s.link = s.chars;
            }
            st[i] = s;
            let b = block_of(nodes, i);
            own[b].chars += s.chars;
            own[b].link += s.link;
            own[b].punct += s.punct;
        }
        if own[i].chars >= 25 {
            st[i].paras += 1;
            if own[i].link * 2 < own[i].chars {
                st[i].good += own[i].chars - own[i].link;
            }
        }
        let p = node.parent as usize;
        let s = st[i];
        st[p].chars += s.chars;
        st[p].link += s.link;
        st[p].punct += s.punct;
        st[p].paras += s.paras;
        st[p].good += s.good;
    }
    // Scores: each paragraph gives its container a score, and the levels above less.
    let mut score = vec![0f32; n];
    let mut scored = vec![false; n];
    for i in 1..n {
        if dropped[i] || nodes[i].tag == Tag::Text {
            continue;
        }
        let o = own[i];
        let text = o.chars.saturating_sub(o.link);
        if text < 25 {
            continue;
        }
        let s = 1.0 + o.punct.min(30) as f32 * 0.5 + (text as f32 / 100.0).min(3.0);
        // Text straight in a container (a `div` of text and `br`s) is a paragraph of its
        // own inside it; a paragraph element's container is its parent.
        let mut a = if is_container(nodes[i].tag) { i as u32 } else { nodes[i].parent };
        let mut level = 0;
        while a != NONE && level < 5 {
            let ai = a as usize;
            if !scored[ai] {
                scored[ai] = true;
                score[ai] += base_score(&nodes[ai]);
            }
            score[ai] += match level {
                0 => s,
                1 => s / 2.0,
                _ => s / (3.0 * level as f32),
            };
            a = nodes[ai].parent;
            level += 1;
        }
    }
    let mut top = 0usize;
    let mut best = f32::MIN;
    for i in 0..n {
        if !scored[i] || dropped[i] {
            continue;
        }
        let ld = link_density(&st[i]);
        let f = score[i] * (1.0 - ld);
        score[i] = f;
        if f > best {
            best = f;
            top = i;
        }
    }
    if best == f32::MIN {
        top = 0;
    }
    // An article cut into chunks (between ads, or in several grid cells) has its chunks
    // in an ancestor of the best one: go up as long as what is added is mostly paragraphs.
    let mut a = nodes[top].parent;
    while a != NONE && !dropped[a as usize] {
        let (up, t) = (&st[a as usize], &st[top]);
        let added_good = up.good - t.good;
        let added = up.chars - t.chars;
        if added > 0 {
            if (added_good as f32) < ASCEND * added as f32 {
                break;
            }
            // The added paragraphs must include a chunk that scores as a container of
            // the article, not just teasers or captions.
            let ai = a as usize;
            let (t0, t1) = (top, nodes[top].end as usize);
            let chunk = (ai + 1..nodes[ai].end as usize)
                .filter(|&j| (j < t0 || j >= t1) && scored[j] && !dropped[j])
                .any(|j| score[j] >= CHUNK * best);
            if !chunk {
                break;
            }
            top = ai;
        }
        a = nodes[a as usize].parent;
    }
    // A list of short items that each hold a link, much of it link text (related stories,
    // "more from"), is not the article's text, even when each link has a few words before
    // it; an article that is a list has longer items.
    for i in 1..n {
        if dropped[i] || !matches!(nodes[i].tag, Tag::Ul | Tag::Ol) || link_density(&st[i]) < LINK_LIST {
            continue;
        }
        let (mut items, mut linked) = (0u32, 0u32);
        let mut c = i + 1;
        while c < nodes[i].end as usize {
            if nodes[c].tag == Tag::Li {
                items += 1;
                linked += u32::from(st[c].link > 0);
            }
            c = nodes[c].end as usize;
        }
        if items >= 3 && linked == items && st[i].chars < LINK_ITEM * items {
            dropped[i] = true;
        }
    }
    let mut w = Writer { out, pending: Gap::None };
    let parent = nodes[top].parent;
    if parent == NONE {
        write_subtree(tree, top, &dropped, &st, &mut w);
        return;
    }
    let threshold = (best * 0.2).max(10.0);
    let p = parent as usize;
    let mut c = p + 1;
    let end = nodes[p].end as usize;
    while c < end {
        let keep = c == top || (!dropped[c] && sibling_joins(&nodes[c], &st[c], score[c], threshold));
        if keep {
            write_subtree(tree, c, &dropped, &st, &mut w);
        }
        c = nodes[c].end as usize;
    }
}

fn is_container(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::Div
            | Tag::Section
            | Tag::Article
            | Tag::Main
            | Tag::Td
            | Tag::Other
            | Tag::Root
            | Tag::Blockquote
    )
}

/// A sibling of the top candidate that continues the article.
fn sibling_joins(node: &Node, st: &Stat, score: f32, threshold: f32) -> bool {
    if score >= threshold {
        return true;
    }
    if node.tag == Tag::P {
        let ld = link_density(st);
        let text = st.chars;
        return (text > 80 && ld < 0.25) || (text > 0 && ld == 0.0 && st.punct > 0);
    }
    false
}

fn link_density(s: &Stat) -> f32 {
    if s.chars == 0 {
        0.0
    } else {
        s.link as f32 / s.chars as f32
    }
}

/// The nearest block element at or above node `i`.
fn block_of(nodes: &[Node], i: usize) -> usize {
    let mut a = nodes[i].parent;
    while a != NONE {
        let n = &nodes[a as usize];
        if n.flags & BLOCK_EL != 0 {
            return a as usize;
        }
        a = n.parent;
    }
    0
}

/// A container's score before its paragraphs add to it: its kind and its hints.
fn base_score(node: &Node) -> f32 {
    let mut s = match node.tag {
        Tag::Div | Tag::Article | Tag::Main | Tag::Section => 5.0,
        Tag::Pre | Tag::Td | Tag::Blockquote => 3.0,
        Tag::Form | Tag::Li | Tag::Ol | Tag::Ul | Tag::Dl | Tag::Dd => -3.0,
        Tag::Heading(_) | Tag::Th => -5.0,
        _ => 0.0,
    };
    if node.flags & POS != 0 {
        s += 25.0;
    }
    if node.flags & NEG != 0 {
        s -= 25.0;
    }
    if node.flags & (BODY | ROLE_MAIN) != 0 {
        s += 50.0;
    }
    s
}

/// A template part: navigation, header, footer, asides, forms, hidden elements, and
/// elements whose class or role names such a part, unless it holds most of the page's
/// text (some sites wrap everything in a `form` or a `header`).
fn is_template(node: &Node, chars: u32, total: u32, _has_body: bool, _nodes: &[Node], _i: usize) -> bool {
    if node.flags & HIDDEN != 0 {
        return true;
    }
    let part = matches!(
        node.tag,
        Tag::Nav
            | Tag::Header
            | Tag::Footer
            | Tag::Aside
            | Tag::Form
            | Tag::Button
            | Tag::Menu
            | Tag::Option
            | Tag::Figcaption
    ) || node.flags & ROLE_BOILER != 0
        || node.flags & (STRONG_NEG | POS) == STRONG_NEG;
    if !part || node.flags & (BODY | ROLE_MAIN) != 0 {
        return false;
    }
    (chars as f32) < 0.5 * total as f32
}

/// Writes the text of the subtree at `root`, leaving out dropped nodes and the link lists
/// and widgets inside it.
fn write_subtree(tree: &Tree, root: usize, dropped: &[bool], st: &[Stat], w: &mut Writer<'_>) {
    let nodes = &tree.nodes;
    if dropped[root] {
        return;
    }
    let end = nodes[root].end as usize;
    // Ends of the open block elements, innermost last.
    let mut open: Vec<usize> = Vec::new();
    let mut i = root;
    while i < end {
        while open.last().is_some_and(|&e| e <= i) {
            open.pop();
            w.block();
        }
        let node = &nodes[i];
        if dropped[i] || (i != root && is_junk(node, &st[i])) {
            i = node.end as usize;
            continue;
        }
        if node.tag == Tag::Text {
            w.text(tree.text_of(node));
        } else if node.flags & BLOCK_EL != 0 {
            w.block();
            open.push(node.end as usize);
        }
        i += 1;
    }
    w.block();
}

/// A block inside the content that is not part of it: a list or table of links, or a
/// short element whose class names a template part.
fn is_junk(node: &Node, st: &Stat) -> bool {
    if node.tag == Tag::Text || node.tag == Tag::A {
        return false;
    }
    // The page's title: a reader sees it above the article, it is not its text.
    if node.tag == Tag::Heading(1) {
        return true;
    }
    let ld = link_density(st);
    let text = st.chars.saturating_sub(st.link);
    if matches!(
        node.tag,
        Tag::Ul | Tag::Ol | Tag::Table | Tag::Div | Tag::Section | Tag::Other | Tag::Dl | Tag::P | Tag::Li
    ) && ld > 0.5
        && text < 200
    {
        return true;
    }
    if node.flags & NEG != 0 && node.flags & (POS | BODY) == 0 && st.punct < 3 && st.chars < 200 {
        return true;
    }
    false
}
