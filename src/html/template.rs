//! A site's template, learnt from many of its pages: text blocks that repeat on many
//! pages of one host are template, whatever the page's markup says. A single-page
//! extractor cannot tell a short page's own lines (an About or Contact page) from the
//! footer around them; a crawler that has seen the host's other pages can.
//!
//! A block is a line of a page's text (as [`html_to_text`] writes
//! it), compared by a hash of its words (case and whitespace folded, and each run of digits
//! read as one number: [`BlockHash`]). The model counts,
//! per host, on how many distinct pages each block was seen; a block seen on at least
//! `min_pages` pages of the host is template.
//!
//! Order: the counts are sums over a set of pages, so the model learnt from a set of pages
//! is the same whatever order they came in (a page learnt twice counts once). Decisions
//! taken while learning (a crawler's stream) see only the pages learnt so far: learn all
//! pages first (`dedup`, a re-crawl) and the decisions do not depend on the order at all.

use std::collections::{HashMap, HashSet};

use super::text::html_to_text;

/// Blocks seen on at least this many pages of a host are template, by default.
pub const DEFAULT_MIN_PAGES: u32 = 3;

/// A host learns from this many distinct pages at most. Once it has, its model keeps only
/// its template blocks and learns no more: memory per host is bounded (about 16 bytes per
/// distinct block of its first pages while learning, then per template block), and a
/// template is settled long before (it is found from `min_pages` pages).
pub const PAGES_PER_HOST: u32 = 64;

/// How a line is made a block: which of its differences make it another block. Stored
/// models keep the hash they were learnt with (`SEEN` 4 and Redis store format 4 hold
/// [`BlockHash::Words`] blocks, later versions [`BlockHash::Numbers`] blocks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BlockHash {
    /// The line's words, lowercased: `12 comments` and `13 comments` are two blocks.
    Words,
    /// The line's words, lowercased, each number read as one `0`: a run of characters
    /// that are numeric in Unicode (`char::is_numeric`: any script's digits, `²`, `①`),
    /// with any `,` or `.` between two of them (`1,234.5`). A template line that holds a
    /// date, a count or a page number (`12 comments`, `© 2024`, `Page 3 of 12`) is then
    /// the same block on every page of the host.
    #[default]
    Numbers,
}

/// The template blocks of many hosts, learnt from their pages.
#[derive(Clone, Debug, Default)]
pub struct TemplateModel {
    min_pages: u32,
    hash: BlockHash,
    hosts: HashMap<String, Host>,
}

#[derive(Clone, Debug, Default, PartialEq)]
struct Host {
    /// The pages learnt, by a hash of their block set (the same page learnt twice counts
    /// once); emptied when the host is full.
    pages: HashSet<u64>,
    /// How many distinct pages were learnt (at most [`PAGES_PER_HOST`]).
    learnt: u32,
    /// Per block hash: on how many of those pages it was seen.
    blocks: HashMap<u64, u32>,
}

/// One host of a model as [`TemplateModel::hosts`] lists it and [`TemplateModel::insert_host`]
/// takes it: sorted, so that equal models list equal hosts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostParts {
    /// The host's name.
    pub host: String,
    /// How many distinct pages it learnt from.
    pub learnt: u32,
    /// The keys of those pages (empty once the host is full), ascending.
    pub pages: Vec<u64>,
    /// Per block hash, on how many pages it was seen, by hash ascending.
    pub blocks: Vec<(u64, u32)>,
}

/// The host of a URL, lowercased, without user info or port: `https://User@WWW.Example.org:8080/a`
/// gives `www.example.org`. A string that is not an absolute URL gives `""` (all such ids
/// are one host).
pub fn host_of(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return String::new() };
    if scheme.is_empty() || !scheme.bytes().all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b)) {
        return String::new();
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if host.starts_with('[') {
        host.split_once(']').map_or(host, |(h, _)| &host[..h.len() + 1])
    } else {
        host.split(':').next().unwrap_or("")
    };
    host.to_ascii_lowercase()
}

const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

fn fnv_char(h: u64, c: char) -> u64 {
    let mut buf = [0u8; 4];
    c.encode_utf8(&mut buf).bytes().fold(h, |h, b| (h ^ u64::from(b)).wrapping_mul(FNV_PRIME))
}

/// A block's identity: a 64-bit FNV-1a hash of the UTF-8 of the line's words, lowercased,
/// each followed by a space (with [`BlockHash::Numbers`], each number as one `0`).
fn block_hash(line: &str, hash: BlockHash) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for word in line.split_whitespace() {
        h = if word.is_ascii() {
            word_hash(h, ascii_units(word), hash)
        } else if word.chars().all(|c| c.is_ascii() || caseless(c)) {
            word_hash(h, caseless_units(word), hash)
        } else {
            word_hash(h, char_units(word), hash)
        };
        h = (h ^ 0x20).wrapping_mul(FNV_PRIME);
    }
    h
}

/// A unit of a lowercased word as [`block_hash`] reads it: what it hashes as, and whether
/// it is numeric.
trait Unit: Copy {
    fn numeric(self) -> bool;
    /// `,` or `.`: inside a number, part of it.
    fn separator(self) -> bool;
    /// `h` followed by the unit's UTF-8.
    fn hash_into(self, h: u64) -> u64;
}

/// An ASCII byte.
impl Unit for u8 {
    fn numeric(self) -> bool {
        self.is_ascii_digit()
    }
    fn separator(self) -> bool {
        matches!(self, b',' | b'.')
    }
    fn hash_into(self, h: u64) -> u64 {
        (h ^ u64::from(self)).wrapping_mul(FNV_PRIME)
    }
}

/// Any character.
impl Unit for char {
    fn numeric(self) -> bool {
        self.is_numeric()
    }
    fn separator(self) -> bool {
        matches!(self, ',' | '.')
    }
    fn hash_into(self, h: u64) -> u64 {
        fnv_char(h, self)
    }
}

/// An ASCII or [`caseless`] character: numeric only when an ASCII digit, which spares the
/// Unicode tables.
#[derive(Clone, Copy)]
struct Caseless(char);

impl Unit for Caseless {
    fn numeric(self) -> bool {
        self.0.is_ascii_digit()
    }
    fn separator(self) -> bool {
        self.0.separator()
    }
    fn hash_into(self, h: u64) -> u64 {
        fnv_char(h, self.0)
    }
}

/// A word's lowercase characters: any word.
fn char_units(word: &str) -> impl Iterator<Item = char> + '_ {
    word.chars().flat_map(char::to_lowercase)
}

/// An ASCII word's lowercase bytes: an ASCII character lowercases to one character, is
/// numeric when it is a digit, and is its own UTF-8.
fn ascii_units(word: &str) -> impl Iterator<Item = u8> + '_ {
    word.bytes().map(|b| b.to_ascii_lowercase())
}

/// A word of ASCII and [`caseless`] characters, lowercased: each lowercases to one
/// character, and only an ASCII digit is numeric.
fn caseless_units(word: &str) -> impl Iterator<Item = Caseless> + '_ {
    word.chars().map(|c| Caseless(c.to_ascii_lowercase()))
}

/// `h` followed by a word's part of [`block_hash`], from its lowercased units.
fn word_hash<U: Unit>(mut h: u64, mut units: impl Iterator<Item = U>, hash: BlockHash) -> u64 {
    let mut in_number = false;
    let mut next = units.next();
    while let Some(u) = next {
        next = units.next();
        if hash == BlockHash::Numbers {
            if u.numeric() {
                if !in_number {
                    h = fnv_char(h, '0');
                }
                in_number = true;
                continue;
            }
            if in_number && u.separator() && next.is_some_and(Unit::numeric) {
                continue;
            }
            in_number = false;
        }
        h = u.hash_into(h);
    }
    h
}

/// Characters that lowercase to themselves and are not numeric: the CJK ideographs (of the
/// basic block and extension A) and CJK and fullwidth punctuation, the text of most Chinese
/// lines. (Checked on every character of these ranges by a test.)
fn caseless(c: char) -> bool {
    matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}' | '\u{3001}'..='\u{3003}' | '\u{3008}'..='\u{3011}'
        | '\u{3014}'..='\u{301B}' | '\u{FF01}'..='\u{FF0F}' | '\u{FF1A}'..='\u{FF20}' | '\u{2018}'..='\u{201D}')
}

/// The distinct block hashes of a text (its lines, as [`html_to_text`] writes them), sorted.
pub fn blocks(text: &str, hash: BlockHash) -> Vec<u64> {
    let mut v: Vec<u64> =
        text.lines().filter(|l| !l.trim().is_empty()).map(|l| block_hash(l, hash)).collect();
    v.sort_unstable();
    v.dedup();
    v
}

impl TemplateModel {
    /// A model in which blocks seen on `min_pages` pages of a host (at least 2) are template,
    /// with blocks hashed as [`BlockHash::default`].
    pub fn new(min_pages: u32) -> TemplateModel {
        TemplateModel::with_hash(min_pages, BlockHash::default())
    }

    /// [`TemplateModel::new`] with blocks hashed as `hash` (a stored model's).
    pub fn with_hash(min_pages: u32, hash: BlockHash) -> TemplateModel {
        TemplateModel { min_pages: min_pages.max(2), hash, hosts: HashMap::new() }
    }

    /// How this model makes a line a block.
    pub fn hash(&self) -> BlockHash {
        self.hash
    }

    /// The number of pages from which a block is template.
    pub fn min_pages(&self) -> u32 {
        self.min_pages
    }

    /// Whether `host` learnt from [`min_pages`](Self::min_pages) distinct pages, so that its
    /// template can be known.
    pub fn knows(&self, host: &str) -> bool {
        self.hosts.get(host).is_some_and(|h| h.learnt >= self.min_pages)
    }

    /// The distinct pages learnt from `host`.
    pub fn pages(&self, host: &str) -> usize {
        self.hosts.get(host).map_or(0, |h| h.pages.len())
    }

    /// Learns the blocks of one page of `host` (its HTML). A page whose blocks were all
    /// learnt before, from the same host, is not counted again.
    pub fn learn(&mut self, host: &str, html: &str) {
        let b = blocks(&html_to_text(html), self.hash);
        self.learn_blocks(host, page_key(&b), &b);
    }

    /// Learns blocks `b` (distinct) of the page `key` (its [`page_key`]) of `host`: all of
    /// a page's [`blocks`], or some of them. A page key learnt before is not counted again,
    /// and a host that learnt [`PAGES_PER_HOST`] pages learns no more.
    pub fn learn_blocks(&mut self, host: &str, key: u64, b: &[u64]) {
        if b.is_empty() {
            return;
        }
        let min = self.min_pages;
        let host = self.hosts.entry(host.to_string()).or_default();
        if host.learnt >= PAGES_PER_HOST || !host.pages.insert(key) {
            return;
        }
        host.learnt += 1;
        for &x in b {
            *host.blocks.entry(x).or_insert(0) += 1;
        }
        if host.learnt >= PAGES_PER_HOST {
            // Full: only the template blocks matter from now on.
            host.pages = HashSet::new();
            host.blocks.retain(|_, n| *n >= min);
        }
    }

    /// Whether a line of text is template on `host`.
    pub fn is_template(&self, host: &str, line: &str) -> bool {
        self.is_template_block(host, block_hash(line, self.hash))
    }

    /// Whether a block (a line's hash, as [`blocks`] makes them) is template on `host`.
    pub fn is_template_block(&self, host: &str, block: u64) -> bool {
        self.hosts.get(host).and_then(|h| h.blocks.get(&block)).is_some_and(|&n| n >= self.min_pages)
    }

    /// `text` (lines, as [`main_content`](super::main_content()) or
    /// [`html_to_text`] write them) without the lines that are
    /// template on `host`.
    pub fn strip(&self, host: &str, text: &str) -> String {
        strip_with(text, self.hash, |b| self.is_template_block(host, b))
    }

    /// The main content of a page of `host`, without the host's template: the
    /// [`main_content`](super::main_content()) less its template lines, or, when those were
    /// all template (a short page, where the extractor took the footer), the page's whole
    /// text less its template lines.
    pub fn main_content(&self, host: &str, html: &str) -> String {
        let (all, extracted) = super::all_and_main(html);
        read_extracted(&extracted, &all, self.hash, self.knows(host), |b| self.is_template_block(host, b))
    }

    /// Every host with its counts, by name (see [`HostParts`]).
    pub fn hosts(&self) -> Vec<HostParts> {
        let mut out: Vec<HostParts> = self
            .hosts
            .iter()
            .map(|(name, h)| {
                let mut pages: Vec<u64> = h.pages.iter().copied().collect();
                pages.sort_unstable();
                let mut blocks: Vec<(u64, u32)> = h.blocks.iter().map(|(&b, &n)| (b, n)).collect();
                blocks.sort_unstable();
                HostParts { host: name.clone(), learnt: h.learnt, pages, blocks }
            })
            .collect();
        out.sort_unstable_by(|a, b| a.host.cmp(&b.host));
        out
    }

    /// Puts back a host listed by [`hosts`](Self::hosts) (replacing one of that name).
    pub fn insert_host(&mut self, parts: HostParts) {
        let h = Host {
            pages: parts.pages.into_iter().collect(),
            learnt: parts.learnt,
            blocks: parts.blocks.into_iter().collect(),
        };
        self.hosts.insert(parts.host, h);
    }

    /// `true` when no page was learnt.
    pub fn is_empty(&self) -> bool {
        self.hosts.is_empty()
    }
}

impl PartialEq for TemplateModel {
    fn eq(&self, other: &Self) -> bool {
        self.min_pages == other.min_pages && self.hash == other.hash && self.hosts == other.hosts
    }
}

/// A page's key: a hash of its block set (from [`blocks`]), so a page learnt twice counts once.
pub fn page_key(b: &[u64]) -> u64 {
    b.iter().fold(0x9E37_79B9_7F4A_7C15u64, |h, &x| (h ^ x).wrapping_mul(FNV_PRIME))
}

/// `text` without the lines whose block hash (made as `hash` says) `template` says is template.
pub fn strip_with(text: &str, hash: BlockHash, template: impl Fn(u64) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines().filter(|l| !template(block_hash(l, hash))) {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(line);
    }
    out
}

/// [`TemplateModel::main_content`] with the template given as a test on block hashes and
/// the page's whole text (`all`, its [`html_to_text`]) already made: a store that keeps
/// the counts elsewhere (Redis) reads them for the page's blocks and decides the same.
///
/// `known`: the host's template can be known (it learnt [`TemplateModel::min_pages`]
/// pages). Then a main content that is a remnant, a few short lines of a page that has more
/// text outside its template (an index, a table of contents, a member list: the extractor
/// leaves their link lists out and keeps a stray line, the same on every such page), gives
/// way to that text. Before the host is known, that text still holds the template.
pub fn main_content_with(
    html: &str,
    all: &str,
    hash: BlockHash,
    known: bool,
    template: impl Fn(u64) -> bool,
) -> String {
    read_extracted(&super::main_content(html), all, hash, known, template)
}

/// [`main_content_with`] of a page whose main content (`extracted`, as
/// [`main_content`](super::main_content) gives it) and whole text are already read, as
/// [`all_and_main`](super::all_and_main) reads both in one pass.
pub(crate) fn read_extracted(
    extracted: &str,
    all: &str,
    hash: BlockHash,
    known: bool,
    template: impl Fn(u64) -> bool,
) -> String {
    let main = strip_with(extracted, hash, &template);
    if main.is_empty() {
        return strip_with(all, hash, &template);
    }
    let weight = remnant_weight(&main);
    if known && weight < REMNANT_MAX {
        let rest = strip_with(all, hash, &template);
        if 4 * remnant_weight(&rest) >= 5 * weight {
            return rest;
        }
    }
    main
}

/// The main content below which (in [`remnant_weight`]) a page's other non-template text
/// is read too: about two lines of prose.
const REMNANT_MAX: usize = 200;

/// A text's weight as a remnant: its non-space characters, a CJK one (U+2E80 on) counting
/// 2, as it carries about as much as a short word.
fn remnant_weight(text: &str) -> usize {
    text.chars().filter(|c| !c.is_whitespace()).map(|c| if (c as u32) >= 0x2E80 { 2 } else { 1 }).sum()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn an_ascii_word_hashes_as_its_characters_do() {
        let mut rng = crate::test_rng::Rng(56);
        const PARTS: [&str; 12] = ["a", "Z", "q", "7", "0", ",", ".", "-", "'", "1,234", "3.5", "Ab"];
        for _ in 0..20_000 {
            let word: String = (0..1 + rng.below(8)).map(|_| PARTS[rng.below(12) as usize]).collect();
            for hash in [BlockHash::Words, BlockHash::Numbers] {
                let h = rng.next();
                assert_eq!(
                    word_hash(h, ascii_units(&word), hash),
                    word_hash(h, char_units(&word), hash),
                    "{word:?} {hash:?}"
                );
            }
        }
        // Caseless characters: each is its own lowercase and not numeric, so a word of them
        // and ASCII hashes as its characters do.
        let caseless_chars: Vec<char> =
            (0..=0x10FFFF).filter_map(char::from_u32).filter(|&c| caseless(c)).collect();
        assert!(caseless_chars.len() > 27_000, "{}", caseless_chars.len());
        for &c in &caseless_chars {
            assert!(c.to_lowercase().eq([c]) && !c.is_numeric(), "{c:?}");
        }
        for _ in 0..20_000 {
            let word: String = (0..1 + rng.below(8))
                .map(|_| match rng.below(3) {
                    0 => caseless_chars[rng.below(caseless_chars.len() as u64) as usize].to_string(),
                    _ => PARTS[rng.below(12) as usize].to_string(),
                })
                .collect();
            for hash in [BlockHash::Words, BlockHash::Numbers] {
                let h = rng.next();
                assert_eq!(
                    word_hash(h, caseless_units(&word), hash),
                    word_hash(h, char_units(&word), hash),
                    "{word:?} {hash:?}"
                );
            }
        }
        // Whole lines, ASCII words beside others.
        for line in [
            "Posted 12,345 times.",
            "ÉTÉ 2024: 3.5 °C",
            "İstanbul 1.000,5",
            "a  b\tc",
            "阅读 1,234 次。",
            "第3.5章（上）",
        ] {
            for hash in [BlockHash::Words, BlockHash::Numbers] {
                let mut want: u64 = 0xcbf2_9ce4_8422_2325;
                for word in line.split_whitespace() {
                    want = (word_hash(want, char_units(word), hash) ^ 0x20).wrapping_mul(FNV_PRIME);
                }
                assert_eq!(block_hash(line, hash), want, "{line:?}");
            }
        }
    }

    fn page(own: &str) -> String {
        format!(
            "<html><body><header><a href=/>Acme Widgets</a></header>\
             <nav><a href=/about>About</a> <a href=/contact>Contact</a> <a href=/blog>Blog</a></nav>\
             <div class=content><p>{own}</p></div>\
             <div class=footer-area><p>Acme Widgets Ltd, 1 Main Street, Springfield. Open Monday to Friday, nine to five.</p>\
             <p>Copyright 2024 Acme Widgets. All rights reserved.</p></div></body></html>"
        )
    }

    /// `i` spelled in letters: lines that differ by a number only are one block.
    pub(crate) fn spelled(mut i: u32) -> String {
        let mut s = String::new();
        loop {
            s.push(char::from(b'a' + (i % 26) as u8));
            i /= 26;
            if i == 0 {
                return s;
            }
        }
    }

    const OWN: [&str; 4] = [
        "We make widgets.",
        "Write to us at hello@example.com.",
        "Our blog has moved.",
        "Jobs: none open today.",
    ];

    /// An index page of the template: an intro sentence the extractor keeps, and a list of
    /// links it leaves out.
    fn index_page(letter: &str, names: &[&str]) -> String {
        let items: String = names
            .iter()
            .map(|n| format!("<li><a href=/m/{n}>{n}()</a> : <a href=/c/{n}>Json::Value</a></li>"))
            .collect();
        page(&format!(
            "Here is a list of all class members with links to the classes they belong to:</p><h3>- {letter} -</h3><ul>{items}</ul><p>"
        ))
    }

    #[test]
    fn index_pages_are_read_as_their_lists_not_their_intro() {
        let mut m = TemplateModel::new(3);
        let host = "docs.example.org";
        for own in OWN {
            m.learn(host, &page(own));
        }
        let a =
            index_page("a", &["append", "asBool", "asCString", "asDouble", "asFloat", "asInt", "asString"]);
        let b = index_page("b", &["begin", "beginObject", "bitsPerSample", "booleanValue", "bufferSize"]);
        let (ta, tb) = (m.main_content(host, &a), m.main_content(host, &b));
        assert!(ta.contains("asCString") && tb.contains("bufferSize"), "{ta:?} / {tb:?}");
        assert!(!ta.contains("Acme Widgets"), "the template stays out: {ta:?}");
        // Before the host's template is known, the main content is read as it is.
        let fresh = TemplateModel::new(3);
        let read = fresh.main_content(host, &a);
        assert!(!read.contains("Acme Widgets") && !read.contains("asCString"), "{read:?}");
        // A short page whose other text is all template keeps its main content.
        assert_eq!(m.main_content(host, &page(OWN[0])), OWN[0]);
    }

    #[test]
    fn short_pages_keep_their_own_lines_only() {
        let mut m = TemplateModel::new(3);
        for own in OWN {
            m.learn("acme.example", &page(own));
        }
        assert_eq!(m.pages("acme.example"), 4);
        for own in OWN {
            assert_eq!(m.main_content("acme.example", &page(own)), own);
        }
        // Another host learnt nothing: its pages keep everything the extractor keeps.
        assert!(m.main_content("other.example", &page(OWN[0])).contains(OWN[0]));
        // Learning a page again changes nothing.
        let before = m.pages("acme.example");
        m.learn("acme.example", &page(OWN[0]));
        assert_eq!(m.pages("acme.example"), before);
    }

    #[test]
    fn the_model_does_not_depend_on_the_order_of_learning() {
        let pages: Vec<String> = OWN.iter().map(|o| page(o)).collect();
        let mut a = TemplateModel::new(2);
        let mut b = TemplateModel::new(2);
        for p in &pages {
            a.learn("h", p);
        }
        for p in pages.iter().rev() {
            b.learn("h", p);
        }
        for p in &pages {
            assert_eq!(a.main_content("h", p), b.main_content("h", p));
        }
    }

    #[test]
    fn hosts_of_urls() {
        for (url, host) in [
            ("https://User:pw@WWW.Example.org:8080/a?b#c", "www.example.org"),
            ("http://example.com", "example.com"),
            ("http://example.com?x=1", "example.com"),
            ("https://[::1]:3000/x", "[::1]"),
            ("example.com/a", ""),
            ("page-1", ""),
            ("://x/y", ""),
        ] {
            assert_eq!(host_of(url), host, "{url}");
        }
    }

    #[test]
    fn a_full_host_keeps_only_its_template() {
        let mut m = TemplateModel::new(3);
        for i in 0..PAGES_PER_HOST + 5 {
            m.learn("h", &page(&format!("Page number {} has a line of its own.", spelled(i))));
        }
        let parts = m.hosts();
        assert_eq!(parts[0].learnt, PAGES_PER_HOST);
        assert!(parts[0].pages.is_empty());
        assert!(parts[0].blocks.iter().all(|&(_, n)| n >= 3));
        assert_eq!(m.main_content("h", &page("A new line.")), "A new line.");
        // Listed and put back, the model is the same.
        let mut back = TemplateModel::new(3);
        for p in m.hosts() {
            back.insert_host(p);
        }
        assert_eq!(back, m);
    }

    #[test]
    fn a_number_is_one_block_whatever_its_digits() {
        let n = |a: &str, b: &str| block_hash(a, BlockHash::Numbers) == block_hash(b, BlockHash::Numbers);
        let w = |a: &str, b: &str| block_hash(a, BlockHash::Words) == block_hash(b, BlockHash::Words);
        for (a, b) in [
            ("12 comments", "13 Comments"),
            ("1,234 readers online", "7 readers online"),
            ("Page 3 of 12", "Page 10 of 2,048.5"),
            ("2026年11月26日 更新", "２０２５年1月3日 更新"),
            ("Posted Nov 3, 2026.", "Posted Nov 24, 1999."),
            ("v1.2.3", "v10.0.1"),
        ] {
            assert!(n(a, b), "{a} / {b}");
            assert!(!w(a, b), "{a} / {b}: words as written");
        }
        for (a, b) in
            [("12 comments", "12 replies"), ("2026.", "2026"), ("1, 2", "1,2"), ("a1b", "ab"), ("x 1", "x1")]
        {
            assert!(!n(a, b), "{a} / {b}");
        }
        // Words hashes as version 4 did: its stored counts keep meaning the same lines.
        assert_eq!(block_hash("Copyright 2024 ACME", BlockHash::Words), 0x53e4_8988_dfdc_bf94);
    }

    #[test]
    fn below_min_pages_nothing_is_template() {
        let mut m = TemplateModel::new(3);
        m.learn("h", &page(OWN[0]));
        m.learn("h", &page(OWN[1]));
        assert!(!m.is_template("h", "Copyright 2024 Acme Widgets. All rights reserved."));
        m.learn("h", &page(OWN[2]));
        assert!(m.is_template("h", "copyright 2024  ACME widgets. All rights reserved."));
    }
}
