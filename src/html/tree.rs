//! A light element tree built from html5gum's tokens, for main-content extraction.
//!
//! Not a full HTML tree builder: it keeps what the extractor scores (the elements that
//! structure a page, their `class`/`id`/`role`/`itemprop` hints, links, and text) and
//! follows the WHATWG tree-construction rules only where they change which element a
//! piece of text belongs to:
//!
//! - void elements (`br`, `img`, `hr` ...) never hold content;
//! - a block start tag closes an open `p`; `li`, `dt`/`dd`, `td`/`th`, `tr`, `option`
//!   close the open one of their kind, a heading closes an open heading, an `a` an open `a`;
//! - an end tag closes the nearest open element of its name, but not across a table cell or
//!   table; an end tag with nothing to close is ignored;
//! - the content of `script`, `style`, `head`, `template`, `svg` ... (the same elements
//!   [`html_to_text`](super::html_to_text) skips) is not in the tree.
//!
//! Generic inline elements (`span`, `b`, `em` ...) get a node only when their attributes
//! say something (hidden, or a class hint); otherwise their text joins their parent.
//!
//! Nodes are stored in document order (pre-order), so the subtree of node `i` is the range
//! `i..nodes[i].end`, and every aggregate is one backward pass with no recursion: a deeply
//! nested page cannot overflow the stack.

use html5gum::Tokenizer;

use super::reader::{Both, TagReader, Tags};
use super::text::{is_block, is_skipped, is_void};

/// No node (the root's parent).
pub(super) const NONE: u32 = u32::MAX;

/// Open elements beyond this depth are not nested further (their content joins the
/// deepest open element), which bounds the builder's work on pathological nesting.
const MAX_DEPTH: usize = 400;

/// The element kinds the extractor tells apart; every other element is [`Tag::Other`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Tag {
    /// A run of character data.
    Text,
    /// The document (stands for `html` and `body`).
    Root,
    A,
    P,
    Div,
    Li,
    Ul,
    Ol,
    Dl,
    Dt,
    Dd,
    Td,
    Th,
    Tr,
    Table,
    /// `tbody`, `thead`, `tfoot`.
    TSection,
    Caption,
    /// `h1` to `h6`, with the level.
    Heading(u8),
    Pre,
    Blockquote,
    Article,
    Main,
    Section,
    Nav,
    Header,
    Footer,
    Aside,
    Form,
    Button,
    Figure,
    Figcaption,
    Br,
    Hr,
    Img,
    Option,
    Menu,
    Label,
    Time,
    Other,
}

impl Tag {
    fn from_name(name: &[u8]) -> Tag {
        match name {
            b"a" => Tag::A,
            b"p" => Tag::P,
            b"div" => Tag::Div,
            b"li" => Tag::Li,
            b"ul" => Tag::Ul,
            b"ol" => Tag::Ol,
            b"dl" => Tag::Dl,
            b"dt" => Tag::Dt,
            b"dd" => Tag::Dd,
            b"td" => Tag::Td,
            b"th" => Tag::Th,
            b"tr" => Tag::Tr,
            b"table" => Tag::Table,
            b"tbody" | b"thead" | b"tfoot" => Tag::TSection,
            b"caption" => Tag::Caption,
            [b'h', d @ b'1'..=b'6'] => Tag::Heading(d - b'0'),
            b"pre" => Tag::Pre,
            b"blockquote" => Tag::Blockquote,
            b"article" => Tag::Article,
            b"main" => Tag::Main,
            b"section" => Tag::Section,
            b"nav" => Tag::Nav,
            b"header" => Tag::Header,
            b"footer" => Tag::Footer,
            b"aside" => Tag::Aside,
            b"form" => Tag::Form,
            b"button" => Tag::Button,
            b"figure" => Tag::Figure,
            b"figcaption" => Tag::Figcaption,
            b"br" => Tag::Br,
            b"hr" => Tag::Hr,
            b"img" => Tag::Img,
            b"option" => Tag::Option,
            b"menu" => Tag::Menu,
            b"label" => Tag::Label,
            b"time" => Tag::Time,
            _ => Tag::Other,
        }
    }

    /// Closes an open `p` when it starts (the spec's list, plus `li`/`dd`/`dt`, which
    /// close one too).
    fn closes_p(self) -> bool {
        matches!(
            self,
            Tag::P
                | Tag::Div
                | Tag::Li
                | Tag::Ul
                | Tag::Ol
                | Tag::Dl
                | Tag::Dt
                | Tag::Dd
                | Tag::Table
                | Tag::Heading(_)
                | Tag::Pre
                | Tag::Blockquote
                | Tag::Article
                | Tag::Main
                | Tag::Section
                | Tag::Nav
                | Tag::Header
                | Tag::Footer
                | Tag::Aside
                | Tag::Form
                | Tag::Figure
                | Tag::Figcaption
                | Tag::Hr
                | Tag::Menu
        )
    }

    /// Table parts: an end tag does not close an element across one of these.
    fn is_table_boundary(self) -> bool {
        matches!(self, Tag::Table | Tag::Td | Tag::Th | Tag::Caption | Tag::Root)
    }
}

/// The element is hidden (`hidden`, `aria-hidden="true"`, `display:none`, `visibility:hidden`).
pub(super) const HIDDEN: u16 = 1;
/// Its `class`/`id` name a part of a template (navigation, comments, sharing, ads ...).
pub(super) const NEG: u16 = 2;
/// Its `class`/`id` name content (article, post, story, entry, body, text ...).
pub(super) const POS: u16 = 4;
/// It says it is the article body (`itemprop="articleBody"`, or such a class/id).
pub(super) const BODY: u16 = 8;
/// Its ARIA role is a template part (navigation, banner, contentinfo, complementary ...).
pub(super) const ROLE_BOILER: u16 = 16;
/// Its ARIA role is `main` or `article`.
pub(super) const ROLE_MAIN: u16 = 32;
/// Its `class`/`id` name a template part that is never content (comments, sharing,
/// related links, ads, sidebars ...), so the element is dropped whole.
pub(super) const STRONG_NEG: u16 = 64;
/// A block element: a line break on either side of its text.
pub(super) const BLOCK_EL: u16 = 128;

/// One element or text run.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    pub(super) tag: Tag,
    pub(super) flags: u16,
    /// The parent's index, or [`NONE`] for the root.
    pub(super) parent: u32,
    /// One past the last node of the subtree.
    pub(super) end: u32,
    /// For [`Tag::Text`]: the byte range in [`Tree::text`]. For [`Tag::Other`]: a hash of
    /// the element's name in `start` (to match its end tag).
    pub(super) start: u32,
    pub(super) stop: u32,
}

/// The tree: nodes in document order, node 0 the root, and the text they point into.
pub(super) struct Tree {
    pub(super) nodes: Vec<Node>,
    pub(super) text: String,
}

impl Tree {
    /// The text of a [`Tag::Text`] node.
    pub(super) fn text_of(&self, n: &Node) -> &str {
        &self.text[n.start as usize..n.stop as usize]
    }
}

/// Builds the tree of an HTML document or fragment. Never fails and never panics.
pub(super) fn build(html: &str) -> Tree {
    build_with(html, None)
}

/// [`build`], with `other` (if any) reading the same tokens, in the same pass over the page.
pub(super) fn build_with(html: &str, other: Option<&mut dyn Tags>) -> Tree {
    let root = Node { tag: Tag::Root, flags: BLOCK_EL, parent: NONE, end: 1, start: 0, stop: 0 };
    let mut nodes = Vec::with_capacity(html.len() / 64 + 8);
    nodes.push(root);
    let mut tree = Tree { nodes, text: String::with_capacity(html.len() / 3) };
    let mut stack = vec![0];
    let mut tags = TreeTags {
        tree: &mut tree,
        stack: &mut stack,
        skipping: Vec::new(),
        attr_name: Vec::new(),
        attr: Attr::None,
        hints: Vec::new(),
        itemprop: Vec::new(),
        role: Vec::new(),
        style: Vec::new(),
        aria_hidden: Vec::new(),
        hidden: false,
    };
    // The emitter consumes every token itself (its token type is `Infallible`), and
    // reading a `&str` cannot fail, so this never returns an error.
    let Ok(()) = match other {
        None => Tokenizer::new_with_emitter(html, TagReader::new(&mut tags)).finish(),
        Some(other) => {
            Tokenizer::new_with_emitter(html, TagReader::new(&mut Both(&mut tags, other))).finish()
        }
    };
    drop(tags);
    // Elements still open at the end of input end there.
    let len = tree.nodes.len() as u32;
    for &i in &stack {
        tree.nodes[i as usize].end = len;
    }
    tree
}

/// Which attribute's value is being read.
#[derive(Clone, Copy, PartialEq)]
enum Attr {
    None,
    Hint,
    Itemprop,
    Role,
    Style,
    AriaHidden,
}

/// The [`Tags`] that build a [`Tree`].
struct TreeTags<'a> {
    tree: &'a mut Tree,
    /// Open elements, innermost last (node indices; the root at the bottom).
    stack: &'a mut Vec<u32>,
    /// Names of the open elements whose content is skipped, innermost last.
    skipping: Vec<Vec<u8>>,
    attr_name: Vec<u8>,
    attr: Attr,
    /// `class` and `id` values, lowercased, space-separated.
    hints: Vec<u8>,
    itemprop: Vec<u8>,
    role: Vec<u8>,
    style: Vec<u8>,
    aria_hidden: Vec<u8>,
    /// A valueless or valued `hidden` attribute was seen.
    hidden: bool,
}

/// A name hash for [`Tag::Other`] elements (FNV-1a).
fn name_hash(name: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in name {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    h
}

impl TreeTags<'_> {
    fn top(&self) -> u32 {
        *self.stack.last().unwrap_or(&0)
    }

    fn add_text(&mut self, text: &[u8]) {
        if !self.skipping.is_empty() {
            return;
        }
        let start = self.tree.text.len();
        self.tree.text.push_str(&String::from_utf8_lossy(text));
        let stop = self.tree.text.len();
        let parent = self.top();
        let at = self.tree.nodes.len() as u32;
        self.tree.nodes.push(Node {
            tag: Tag::Text,
            flags: 0,
            parent,
            end: at + 1,
            start: start as u32,
            stop: stop as u32,
        });
    }

    fn pop(&mut self) {
        if self.stack.len() > 1 {
            if let Some(i) = self.stack.pop() {
                let len = self.tree.nodes.len() as u32;
                self.tree.nodes[i as usize].end = len;
            }
        }
    }

    /// Pops up to and including the element at stack position `at`.
    fn close_to(&mut self, at: usize) {
        while self.stack.len() > at.max(1) {
            self.pop();
        }
    }

    /// The stack position of the nearest open element matching `is`, searching down to
    /// (not past) the first element matching `stop`.
    fn find_open(&self, is: impl Fn(&Node) -> bool, stop: impl Fn(Tag) -> bool) -> Option<usize> {
        for (at, &i) in self.stack.iter().enumerate().rev() {
            let n = &self.tree.nodes[i as usize];
            if is(n) {
                return Some(at);
            }
            if stop(n.tag) {
                return None;
            }
        }
        None
    }

    /// Closes what a start tag of `tag` implicitly ends.
    fn implied_end(&mut self, tag: Tag) {
        if tag.closes_p() {
            if let Some(at) =
                self.find_open(|n| n.tag == Tag::P, |t| t.is_table_boundary() || t == Tag::Button)
            {
                self.close_to(at);
            }
        }
        let found = match tag {
            Tag::Li => self.find_open(
                |n| n.tag == Tag::Li,
                |t| matches!(t, Tag::Ul | Tag::Ol | Tag::Menu) || t.is_table_boundary(),
            ),
            Tag::Dt | Tag::Dd => self
                .find_open(|n| matches!(n.tag, Tag::Dt | Tag::Dd), |t| t == Tag::Dl || t.is_table_boundary()),
            Tag::Td | Tag::Th => self.find_open(
                |n| matches!(n.tag, Tag::Td | Tag::Th),
                |t| matches!(t, Tag::Tr | Tag::Table | Tag::TSection | Tag::Root),
            ),
            Tag::Tr => {
                self.find_open(|n| n.tag == Tag::Tr, |t| matches!(t, Tag::Table | Tag::TSection | Tag::Root))
            }
            Tag::TSection => {
                self.find_open(|n| n.tag == Tag::TSection, |t| matches!(t, Tag::Table | Tag::Root))
            }
            Tag::Option => self.find_open(|n| n.tag == Tag::Option, |t| t != Tag::Option),
            Tag::Heading(_) => self.find_open(|n| matches!(n.tag, Tag::Heading(_)), |t| t != Tag::A),
            Tag::A => self.find_open(|n| n.tag == Tag::A, |t| t.is_table_boundary()),
            Tag::Button => self.find_open(|n| n.tag == Tag::Button, |t| t.is_table_boundary()),
            _ => None,
        };
        if let Some(at) = found {
            self.close_to(at);
        }
    }

    fn finish_attr(&mut self) {
        if self.attr_name == b"hidden" {
            self.hidden = true;
        }
        self.attr_name.clear();
        self.attr = Attr::None;
    }

    fn add_start_tag(&mut self, name: &[u8], self_closing: bool) {
        self.finish_attr();
        if name == b"body" {
            // An unclosed <head> (or <title>) ends where the body starts.
            self.skipping.clear();
        }
        let skipped = is_skipped(name);
        if !self.skipping.is_empty() || skipped {
            if skipped && !self_closing && !is_void(name) {
                self.skipping.push(name.to_vec());
            }
            return;
        }
        if matches!(name, b"html" | b"body") {
            return;
        }
        let tag = Tag::from_name(name);
        let mut flags =
            attr_flags(&self.hints, &self.itemprop, &self.role, &self.style, &self.aria_hidden, self.hidden);
        let block = is_block(name);
        if block {
            flags |= BLOCK_EL;
        }
        // Plain inline elements add nothing to the structure.
        if tag == Tag::Other && !block && flags == 0 {
            return;
        }
        let start = if tag == Tag::Other { name_hash(name) } else { 0 };
        let void = is_void(name);
        self.implied_end(tag);
        let parent = self.top();
        let at = self.tree.nodes.len() as u32;
        self.tree.nodes.push(Node { tag, flags, parent, end: at + 1, start, stop: 0 });
        if !void && self.stack.len() < MAX_DEPTH {
            self.stack.push(at);
        }
    }

    fn add_end_tag(&mut self, name: &[u8]) {
        if let Some(at) = self.skipping.iter().rposition(|n| n.as_slice() == name) {
            self.skipping.truncate(at);
            return;
        }
        if !self.skipping.is_empty() || matches!(name, b"html" | b"body" | b"br") {
            return;
        }
        let tag = Tag::from_name(name);
        let hash = if tag == Tag::Other { name_hash(name) } else { 0 };
        let found = if tag.is_table_boundary() || matches!(tag, Tag::Tr | Tag::TSection) {
            self.find_open(
                |n| n.tag == tag && n.start == hash,
                |t| t == Tag::Root || (t == Tag::Table && tag != Tag::Table),
            )
        } else {
            self.find_open(|n| n.tag == tag && n.start == hash, |t| t.is_table_boundary())
        };
        if let Some(at) = found {
            self.close_to(at);
        }
    }
}

/// The flags an element's attributes give it.
fn attr_flags(
    hints: &[u8],
    itemprop: &[u8],
    role: &[u8],
    style: &[u8],
    aria_hidden: &[u8],
    hidden: bool,
) -> u16 {
    let mut flags = 0;
    if hidden || aria_hidden.trim_ascii() == b"true" || hides(style) {
        flags |= HIDDEN;
    }
    if itemprop.split(u8::is_ascii_whitespace).any(|w| w.eq_ignore_ascii_case(b"articleBody")) {
        flags |= BODY;
    }
    match role.trim_ascii() {
        b"navigation" | b"banner" | b"contentinfo" | b"complementary" | b"search" | b"menu" | b"menubar"
        | b"dialog" | b"alertdialog" | b"toolbar" | b"tablist" => flags |= ROLE_BOILER,
        b"main" | b"article" => flags |= ROLE_MAIN,
        _ => {}
    }
    if !hints.is_empty() {
        flags |= hint_flags(hints);
    }
    flags
}

/// `display:none` or `visibility:hidden` in a `style` attribute.
fn hides(style: &[u8]) -> bool {
    if style.is_empty() {
        return false;
    }
    let mut s: Vec<u8> =
        style.iter().filter(|b| !b.is_ascii_whitespace()).map(u8::to_ascii_lowercase).collect();
    s.dedup();
    let s = s.as_slice();
    contains(s, b"display:none") || contains(s, b"visibility:hidden")
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// Words of `class`/`id` values that name template parts never part of the content.
fn is_strong_neg_word(word: &[u8]) -> bool {
    matches!(
        word,
        b"comment"
            | b"comments"
            | b"disqus"
            | b"share"
            | b"sharing"
            | b"social"
            | b"related"
            | b"sidebar"
            | b"breadcrumb"
            | b"breadcrumbs"
            | b"newsletter"
            | b"subscribe"
            | b"subscription"
            | b"signup"
            | b"popup"
            | b"modal"
            | b"cookie"
            | b"cookies"
            | b"gdpr"
            | b"consent"
            | b"ad"
            | b"ads"
            | b"advert"
            | b"advertisement"
            | b"adsbygoogle"
            | b"sponsor"
            | b"sponsored"
            | b"promo"
            | b"outbrain"
            | b"taboola"
            | b"recommended"
            | b"recommendations"
            | b"trending"
            | b"popular"
            | b"skip"
            | b"navbar"
            | b"nav"
            | b"navigation"
            | b"menu"
            | b"footer"
            | b"masthead"
            | b"pagination"
            | b"pager"
            | b"prev"
            | b"previous"
            | b"toolbar"
            | b"tags"
            | b"tagcloud"
            | b"byline"
            | b"gallery"
            | b"slideshow"
            | b"carousel"
            | b"caption"
            | b"dateline"
            | b"timestamp"
    )
}

/// Words that name template parts more weakly (a score penalty, no drop).
fn is_neg_word(word: &[u8]) -> bool {
    matches!(
        word,
        b"header"
            | b"meta"
            | b"banner"
            | b"author"
            | b"bio"
            | b"credit"
            | b"hidden"
            | b"print"
            | b"rail"
            | b"aside"
            | b"more"
            | b"links"
            | b"follow"
            | b"secondary"
            | b"extra"
            | b"date"
            | b"topics"
            | b"utility"
            | b"widget"
    )
}

/// Words that name content.
fn is_pos_word(word: &[u8]) -> bool {
    matches!(
        word,
        b"article"
            | b"content"
            | b"entry"
            | b"post"
            | b"story"
            | b"body"
            | b"text"
            | b"main"
            | b"blog"
            | b"prose"
            | b"richtext"
    )
}

fn hint_flags(hints: &[u8]) -> u16 {
    let mut flags = 0;
    let mut joined = Vec::new();
    for value in hints.split(|&b| b == b' ') {
        // A class like `article-body` or `articleBody` is both its words and its joint.
        joined.clear();
        for word in value.split(|b| !b.is_ascii_alphanumeric()).filter(|w| !w.is_empty()) {
            joined.extend_from_slice(word);
            if is_strong_neg_word(word) {
                flags |= STRONG_NEG | NEG;
            } else if is_neg_word(word) {
                flags |= NEG;
            } else if is_pos_word(word) {
                flags |= POS;
            }
        }
        if matches!(
            joined.as_slice(),
            b"articlebody"
                | b"articlecontent"
                | b"postbody"
                | b"postcontent"
                | b"entrycontent"
                | b"storybody"
        ) {
            flags |= BODY;
        }
    }
    flags
}

impl Tags for TreeTags<'_> {
    fn text(&mut self, text: &[u8]) {
        self.add_text(text);
    }

    fn start_tag(&mut self, name: &[u8], self_closing: bool) {
        self.add_start_tag(name, self_closing);
    }

    fn end_tag(&mut self, name: &[u8]) {
        self.add_end_tag(name);
    }

    fn begin_start_tag(&mut self) {
        self.hints.clear();
        self.itemprop.clear();
        self.role.clear();
        self.style.clear();
        self.aria_hidden.clear();
        self.hidden = false;
        self.attr_name.clear();
        self.attr = Attr::None;
    }

    fn begin_attribute(&mut self) {
        self.finish_attr();
    }

    fn attribute_name(&mut self, s: &[u8]) {
        if self.attr_name.len() < 16 {
            self.attr_name.extend(s.iter().map(u8::to_ascii_lowercase));
        }
    }

    fn begin_attribute_value(&mut self) {
        self.attr = match self.attr_name.as_slice() {
            b"class" | b"id" => {
                if !self.hints.is_empty() {
                    self.hints.push(b' ');
                }
                Attr::Hint
            }
            b"itemprop" => Attr::Itemprop,
            b"role" => Attr::Role,
            b"style" => Attr::Style,
            b"aria-hidden" => Attr::AriaHidden,
            _ => Attr::None,
        };
    }

    fn attribute_value(&mut self, s: &[u8]) {
        let buf = match self.attr {
            Attr::None => return,
            Attr::Hint => &mut self.hints,
            Attr::Itemprop => &mut self.itemprop,
            Attr::Role => &mut self.role,
            Attr::Style => &mut self.style,
            Attr::AriaHidden => &mut self.aria_hidden,
        };
        if buf.len() < 512 {
            buf.extend(s.iter().map(u8::to_ascii_lowercase));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The class and id words, each in its own list: a word moved or dropped changes what
    /// a page's main content is (the extraction benchmark's score holds the lists as a
    /// whole; this holds each word).
    #[test]
    fn class_words_are_the_lists() {
        let strong = "comment comments disqus share sharing social related sidebar breadcrumb breadcrumbs \
                      newsletter subscribe subscription signup popup modal cookie cookies gdpr consent ad ads \
                      advert advertisement adsbygoogle sponsor sponsored promo outbrain taboola recommended \
                      recommendations trending popular skip navbar nav navigation menu footer masthead \
                      pagination pager prev previous toolbar tags tagcloud byline gallery slideshow carousel \
                      caption dateline timestamp";
        let neg = "header meta banner author bio credit hidden print rail aside more links follow secondary \
                   extra date topics utility widget";
        let pos = "article content entry post story body text main blog prose richtext";
        let lists = [strong, neg, pos];
        for (i, list) in lists.iter().enumerate() {
            for w in list.split_whitespace() {
                let w = w.as_bytes();
                let found = [is_strong_neg_word(w), is_neg_word(w), is_pos_word(w)];
                let want: Vec<bool> = (0..3).map(|j| j == i).collect();
                assert_eq!(found.to_vec(), want, "{}", String::from_utf8_lossy(w));
            }
        }
        assert_eq!(lists.iter().map(|l| l.split_whitespace().count()).collect::<Vec<_>>(), [55, 19, 11]);
        for near in ["", "Comment", "commentary", "ads1", "navs", "contents", "art", "x"] {
            let w = near.as_bytes();
            assert!(!is_strong_neg_word(w) && !is_neg_word(w) && !is_pos_word(w), "{near}");
        }
    }
}
