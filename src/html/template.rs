//! A site's template, learnt from many of its pages: text blocks that repeat on many
//! pages of one host are template, whatever the page's markup says. A single-page
//! extractor cannot tell a short page's own lines (an About or Contact page) from the
//! footer around them; a crawler that has seen the host's other pages can.
//!
//! A block is a line of a page's text (as [`html_to_text`] writes
//! it), compared by a hash of its words (case and whitespace folded). The model counts,
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

/// The template blocks of many hosts, learnt from their pages.
#[derive(Clone, Debug, Default)]
pub struct TemplateModel {
    min_pages: u32,
    hosts: HashMap<String, Host>,
}

#[derive(Clone, Debug, Default)]
struct Host {
    /// The pages learnt, by a hash of their block set (the same page learnt twice counts once).
    pages: HashSet<u64>,
    /// Per block hash: on how many of those pages it was seen.
    blocks: HashMap<u64, u32>,
}

/// A 64-bit FNV-1a hash of the words of a line, lowercased: the block's identity.
fn block_hash(line: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for word in line.split_whitespace() {
        for c in word.chars().flat_map(char::to_lowercase) {
            let mut buf = [0u8; 4];
            for &b in c.encode_utf8(&mut buf).as_bytes() {
                h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
        h = (h ^ 0x20).wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The distinct block hashes of a text, sorted.
fn blocks(text: &str) -> Vec<u64> {
    let mut v: Vec<u64> = text.lines().filter(|l| !l.trim().is_empty()).map(block_hash).collect();
    v.sort_unstable();
    v.dedup();
    v
}

impl TemplateModel {
    /// A model in which blocks seen on `min_pages` pages of a host (at least 2) are template.
    pub fn new(min_pages: u32) -> TemplateModel {
        TemplateModel { min_pages: min_pages.max(2), hosts: HashMap::new() }
    }

    /// The number of pages from which a block is template.
    pub fn min_pages(&self) -> u32 {
        self.min_pages
    }

    /// The distinct pages learnt from `host`.
    pub fn pages(&self, host: &str) -> usize {
        self.hosts.get(host).map_or(0, |h| h.pages.len())
    }

    /// Learns the blocks of one page of `host` (its HTML). A page whose blocks were all
    /// learnt before, from the same host, is not counted again.
    pub fn learn(&mut self, host: &str, html: &str) {
        let b = blocks(&html_to_text(html));
        if b.is_empty() {
            return;
        }
        let key =
            b.iter().fold(0x9E37_79B9_7F4A_7C15u64, |h, &x| (h ^ x).wrapping_mul(0x0000_0100_0000_01b3));
        let host = self.hosts.entry(host.to_string()).or_default();
        if host.pages.insert(key) {
            for x in b {
                *host.blocks.entry(x).or_insert(0) += 1;
            }
        }
    }

    /// Whether a line of text is template on `host`.
    pub fn is_template(&self, host: &str, line: &str) -> bool {
        self.hosts
            .get(host)
            .and_then(|h| h.blocks.get(&block_hash(line)))
            .is_some_and(|&n| n >= self.min_pages)
    }

    /// `text` (lines, as [`main_content`](super::main_content()) or
    /// [`html_to_text`] write them) without the lines that are
    /// template on `host`.
    pub fn strip(&self, host: &str, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        for line in text.lines().filter(|l| !self.is_template(host, l)) {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(line);
        }
        out
    }

    /// The main content of a page of `host`, without the host's template: the
    /// [`main_content`](super::main_content()) less its template lines, or, when those were
    /// all template (a short page, where the extractor took the footer), the page's whole
    /// text less its template lines.
    pub fn main_content(&self, host: &str, html: &str) -> String {
        let main = self.strip(host, &super::main_content(html));
        if !main.is_empty() {
            return main;
        }
        self.strip(host, &html_to_text(html))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(own: &str) -> String {
        format!(
            "<html><body><header><a href=/>Acme Widgets</a></header>\
             <nav><a href=/about>About</a> <a href=/contact>Contact</a> <a href=/blog>Blog</a></nav>\
             <div class=content><p>{own}</p></div>\
             <div class=footer-area><p>Acme Widgets Ltd, 1 Main Street, Springfield. Open Monday to Friday, nine to five.</p>\
             <p>Copyright 2024 Acme Widgets. All rights reserved.</p></div></body></html>"
        )
    }

    const OWN: [&str; 4] = [
        "We make widgets.",
        "Write to us at hello@example.com.",
        "Our blog has moved.",
        "Jobs: none open today.",
    ];

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
    fn below_min_pages_nothing_is_template() {
        let mut m = TemplateModel::new(3);
        m.learn("h", &page(OWN[0]));
        m.learn("h", &page(OWN[1]));
        assert!(!m.is_template("h", "Copyright 2024 Acme Widgets. All rights reserved."));
        m.learn("h", &page(OWN[2]));
        assert!(m.is_template("h", "copyright 2024  ACME widgets. All rights reserved."));
    }
}
