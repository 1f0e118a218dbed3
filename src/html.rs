//! HTML to text, so that a page's fingerprint depends on what a reader sees and not on its
//! template, markup, scripts, styles, comments or entity spelling.
//!
//! The HTML is tokenized by [`html5gum`] (a WHATWG tokenizer: the spec's states, the full
//! named-entity table, and no tree builder). On top of its tokens:
//!
//! - the content of `script`, `style`, `noscript`, `template`, `head` (with its `title`),
//!   `iframe`, `object`, `svg` and `math` is dropped, and so are comments and doctypes;
//! - character references (`&amp;`, `&#233;`, `&eacute;`, `&nbsp;` ...) are decoded;
//! - block-level elements (`p`, `div`, `li`, `h1`, `br`, `td` ...) become a line break, and
//!   inline ones (`b`, `a`, `span` ...) become nothing, so `<b>W</b>ord` reads `Word`;
//! - runs of whitespace become one space, or one line break where a block ended; the result
//!   is trimmed.
//!
//! Tag soup never fails: unclosed, stray or misnested tags are tolerated the way the
//! tokenizer recovers from them, and no input panics.
//!
//! ```
//! use simhash_wasm::html::html_to_text;
//! let html = "<html><head><title>T</title><style>p{}</style></head>\
//!             <body><p>Fish &amp; chips</p><!-- ad --><script>x()</script><p>caf&eacute;</p></body></html>";
//! assert_eq!(html_to_text(html), "Fish & chips\ncafé");
//! ```

use html5gum::{DefaultEmitter, Token, Tokenizer};

/// Elements whose whole content is not text a reader sees.
const SKIP: &[&[u8]] = &[
    b"script", b"style", b"noscript", b"template", b"head", b"title", b"iframe", b"object", b"svg", b"math",
    b"noembed", b"noframes", b"select", b"textarea",
];

/// Elements that start and end a block of text (a line break on either side).
const BLOCK: &[&[u8]] = &[
    b"address", b"article", b"aside", b"blockquote", b"body", b"br", b"caption", b"center", b"dd", b"details",
    b"dialog", b"dir", b"div", b"dl", b"dt", b"fieldset", b"figcaption", b"figure", b"footer", b"form", b"h1",
    b"h2", b"h3", b"h4", b"h5", b"h6", b"header", b"hgroup", b"hr", b"html", b"legend", b"li", b"main",
    b"menu", b"nav", b"ol", b"option", b"p", b"pre", b"section", b"summary", b"table", b"tbody", b"td", b"tfoot",
    b"th", b"thead", b"tr", b"ul",
];

/// The visible text of an HTML document or fragment (see the [module docs](self)).
pub fn html_to_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len() / 2);
    html_to_text_into(html, &mut out);
    out
}

/// [`html_to_text`] into a caller's buffer (cleared first), to reuse its allocation.
pub fn html_to_text_into(html: &str, out: &mut String) {
    out.clear();
    let mut emitter = DefaultEmitter::default();
    // Switches to the raw-text states after <script>, <style>, <textarea> ... (html5gum's
    // `naive_next_state`), so their content is one string token and a `<` inside a script
    // is not read as a tag.
    emitter.naively_switch_states(true);
    let mut w = Writer { out, pending: Gap::None };
    // Names of the open elements whose content is skipped, innermost last.
    let mut skipping: Vec<Vec<u8>> = Vec::new();
    for token in Tokenizer::new_with_emitter(html, emitter) {
        let Ok(token) = token;
        match token {
            Token::StartTag(tag) => {
                let name = tag.name.as_slice();
                if name == b"body" {
                    // An unclosed <head> (or <title>) ends where the body starts.
                    skipping.clear();
                }
                if SKIP.contains(&name) {
                    if !tag.self_closing && !is_void(name) {
                        skipping.push(name.to_vec());
                    }
                } else if BLOCK.contains(&name) {
                    w.block();
                }
            }
            Token::EndTag(tag) => {
                let name = tag.name.as_slice();
                if let Some(at) = skipping.iter().rposition(|n| n.as_slice() == name) {
                    skipping.truncate(at);
                } else if BLOCK.contains(&name) {
                    w.block();
                }
            }
            Token::String(s) if skipping.is_empty() => w.text(&String::from_utf8_lossy(s.as_slice())),
            _ => {}
        }
    }
}

fn is_void(name: &[u8]) -> bool {
    matches!(name, b"br" | b"img" | b"hr" | b"input" | b"meta" | b"link" | b"wbr" | b"area" | b"base" | b"col" | b"embed" | b"source" | b"track")
}

#[derive(Clone, Copy, PartialEq)]
enum Gap {
    None,
    Space,
    Line,
}

/// Appends text with whitespace collapsed: a pending gap is written only before the next
/// visible character, so the result has no leading or trailing whitespace.
struct Writer<'a> {
    out: &'a mut String,
    pending: Gap,
}

impl Writer<'_> {
    fn block(&mut self) {
        self.pending = Gap::Line;
    }

    fn text(&mut self, s: &str) {
        for c in s.chars() {
            if c.is_whitespace() {
                if self.pending == Gap::None {
                    self.pending = Gap::Space;
                }
            } else {
                if !self.out.is_empty() {
                    match self.pending {
                        Gap::Line => self.out.push('\n'),
                        Gap::Space => self.out.push(' '),
                        Gap::None => {}
                    }
                }
                self.pending = Gap::None;
                self.out.push(c);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Options, SimHasher};

    const ARTICLE: &str = "Near-duplicate detection finds pages that say the same thing. \
        A crawler meets the same article under many addresses: mirrors, print views, \
        syndicated copies. Fingerprinting the visible text, not the markup, lets it \
        recognise them all and keep one.";

    fn template_a(body: &str) -> String {
        format!(
            "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>Site A | News</title>\
             <style>body {{ font: 12px serif }} .x > p {{ color: red }}</style>\
             <script>var tracker = '<p>not text</p>'; if (a < b) {{ go(); }}</script></head>\
             <body class=\"a\"><div id=wrap><div class=\"content\"><article><p>{body}</p></article></div>\
             <!-- generated by CMS A --></div><script src=app.js></script></body></html>"
        )
    }

    fn template_b(body: &str) -> String {
        // Different structure, attributes, a noscript, a template, entities for the same
        // characters, and an inline element in the middle of a word.
        let body = body.replace("Near-duplicate", "Near&#8209;duplicate".replace("&#8209;", "&#45;").as_str());
        let body = body.replace("the same thing", "the <b>sa</b>me&#32;thing");
        format!(
            "<html><head><link rel=stylesheet href=b.css><title>B</title></head><body>\
             <noscript><p>Please enable JavaScript</p></noscript>\
             <template><p>hidden template text</p></template>\
             <main><section><span class=lead>{body}</span></section></main>\
             <style>.late {{ display: none }}</style></body></html>"
        )
    }

    #[test]
    fn same_article_in_two_templates_has_the_same_fingerprint() {
        let a = template_a(ARTICLE);
        let b = template_b(ARTICLE);
        assert_eq!(html_to_text(&a), ARTICLE);
        assert_eq!(html_to_text(&b), ARTICLE);
        let mut h = SimHasher::new(Options::default()).unwrap();
        h.set_html(true);
        let fa = h.fingerprint(&a).unwrap();
        let fb = h.fingerprint(&b).unwrap();
        assert_eq!(fa, fb);
        let mut plain = SimHasher::new(Options::default()).unwrap();
        assert_eq!(fa, plain.fingerprint(ARTICLE).unwrap());
        // Without html extraction the markup changes the fingerprint.
        assert_ne!(plain.fingerprint(&a).unwrap(), plain.fingerprint(&b).unwrap());
    }

    #[test]
    fn entities_are_decoded() {
        assert_eq!(html_to_text("Fish &amp; chips &lt;3 caf&eacute; &#233;&#xE9; &copy;2024"), "Fish & chips <3 café éé ©2024");
        assert_eq!(html_to_text("a&nbsp;b"), "a\u{a0}b".replace('\u{a0}', " "));
        // Unknown entities stay as written.
        assert_eq!(html_to_text("&bogus; &"), "&bogus; &");
    }

    #[test]
    fn scripts_styles_comments_are_ignored() {
        let html = "<p>one</p><script>document.write('<p>two</p>')</script><style>p::after{content:'three'}</style>\
                    <!-- four --><noscript>five</noscript><p>six</p>";
        assert_eq!(html_to_text(html), "one\nsix");
    }

    #[test]
    fn blocks_and_inline_elements() {
        assert_eq!(html_to_text("<ul><li>a</li><li>b</li></ul>x<br>y<b>z</b>w"), "a\nb\nx\ny zw".replace(" zw", "zw"));
        assert_eq!(html_to_text("   "), "");
        assert_eq!(html_to_text(""), "");
    }

    #[test]
    fn tag_soup_never_panics() {
        for s in ["<", "<<>>", "</p>", "<script>", "<script>x", "<!--", "<!-- x", "&", "&#", "&#x;", "&#99999999;",
            "<a href='", "<p <p>", "</head></body></html>x", "<head>title<body>text", "<svg><p>x</svg>y",
            "\u{0}<\u{0}>", "<textarea>a</textarea>b", "<title>a"] {
            let _ = html_to_text(s);
        }
        assert_eq!(html_to_text("<head>junk<body>text"), "text");
        assert_eq!(html_to_text("<svg><text>x</text></svg>y"), "y");
    }
}
