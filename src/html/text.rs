//! All of a page's visible text: an html5gum emitter that writes text as it goes, with no
//! tree.

use html5gum::Tokenizer;

use super::reader::{TagReader, Tags};

/// Elements whose whole content is not text a reader sees.
pub(super) fn is_skipped(name: &[u8]) -> bool {
    matches!(
        name,
        b"script"
            | b"style"
            | b"noscript"
            | b"template"
            | b"head"
            | b"title"
            | b"iframe"
            | b"object"
            | b"svg"
            | b"math"
            | b"noembed"
            | b"noframes"
            | b"select"
            | b"textarea"
    )
}

/// Elements that start and end a block of text (a line break on either side).
pub(super) fn is_block(name: &[u8]) -> bool {
    matches!(
        name,
        b"address"
            | b"article"
            | b"aside"
            | b"blockquote"
            | b"body"
            | b"br"
            | b"caption"
            | b"center"
            | b"dd"
            | b"details"
            | b"dialog"
            | b"dir"
            | b"div"
            | b"dl"
            | b"dt"
            | b"fieldset"
            | b"figcaption"
            | b"figure"
            | b"footer"
            | b"form"
            | b"h1"
            | b"h2"
            | b"h3"
            | b"h4"
            | b"h5"
            | b"h6"
            | b"header"
            | b"hgroup"
            | b"hr"
            | b"html"
            | b"legend"
            | b"li"
            | b"main"
            | b"menu"
            | b"nav"
            | b"ol"
            | b"option"
            | b"p"
            | b"pre"
            | b"section"
            | b"summary"
            | b"table"
            | b"tbody"
            | b"td"
            | b"tfoot"
            | b"th"
            | b"thead"
            | b"tr"
            | b"ul"
    )
}

/// The visible text of an HTML document or fragment (see the [module docs](crate::html)).
pub fn html_to_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len() / 2);
    html_to_text_into(html, &mut out);
    out
}

/// [`html_to_text`] into a caller's buffer (cleared first), to reuse its allocation.
pub fn html_to_text_into(html: &str, out: &mut String) {
    out.clear();
    let mut tags = TextTags::new(out);
    let emitter = TagReader::new(&mut tags);
    // The emitter consumes every token itself (its token type is `Infallible`), and
    // reading a `&str` cannot fail, so this never returns an error.
    let Ok(()) = Tokenizer::new_with_emitter(html, emitter).finish();
}

/// [`html_to_text`] and the main content ([`super::main_content`]) of `html`, read in one
/// pass: each is what its own function gives.
pub(crate) fn all_and_main(html: &str) -> (String, String) {
    let mut all = String::with_capacity(html.len() / 2);
    let mut tags = TextTags::new(&mut all);
    let tree = super::tree::build_with(html, Some(&mut tags));
    let mut main = String::with_capacity(html.len() / 4);
    super::score::main_content_of(&tree, &mut main);
    (all, main)
}

/// The [`Tags`] of [`html_to_text`]: character data goes to the writer, block elements
/// break lines, and the content of [`is_skipped`] elements is left out.
struct TextTags<'a> {
    w: Writer<'a>,
    /// Names of the open elements whose content is skipped, innermost last.
    skipping: Vec<Vec<u8>>,
}

impl<'a> TextTags<'a> {
    /// A writer of a page's text into `out`.
    fn new(out: &'a mut String) -> Self {
        TextTags { w: Writer { out, pending: Gap::None }, skipping: Vec::new() }
    }
}

impl Tags for TextTags<'_> {
    fn text(&mut self, text: &[u8]) {
        if self.skipping.is_empty() {
            self.w.text(&String::from_utf8_lossy(text));
        }
    }

    fn start_tag(&mut self, name: &[u8], self_closing: bool) {
        if name == b"body" {
            // An unclosed <head> (or <title>) ends where the body starts.
            self.skipping.clear();
        }
        if is_skipped(name) {
            if !self_closing && !is_void(name) {
                self.skipping.push(name.to_vec());
            }
        } else if is_block(name) {
            self.w.block();
        }
    }

    fn end_tag(&mut self, name: &[u8]) {
        if let Some(at) = self.skipping.iter().rposition(|n| n.as_slice() == name) {
            self.skipping.truncate(at);
        } else if is_block(name) {
            self.w.block();
        }
    }

    // Attributes say nothing about the visible text.
    fn begin_start_tag(&mut self) {}
    fn begin_attribute(&mut self) {}
    fn attribute_name(&mut self, _: &[u8]) {}
    fn begin_attribute_value(&mut self) {}
    fn attribute_value(&mut self, _: &[u8]) {}
}

pub(super) fn is_void(name: &[u8]) -> bool {
    matches!(
        name,
        b"br"
            | b"img"
            | b"hr"
            | b"input"
            | b"meta"
            | b"link"
            | b"wbr"
            | b"area"
            | b"base"
            | b"col"
            | b"embed"
            | b"source"
            | b"track"
    )
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Gap {
    None,
    Space,
    Line,
}

/// Appends text with whitespace collapsed: a pending gap is written only before the next
/// visible character, so the result has no leading or trailing whitespace.
pub(super) struct Writer<'a> {
    pub(super) out: &'a mut String,
    pub(super) pending: Gap,
}

impl Writer<'_> {
    pub(super) fn block(&mut self) {
        self.pending = Gap::Line;
    }

    pub(super) fn text(&mut self, s: &str) {
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
        let body =
            body.replace("Near-duplicate", "Near&#8209;duplicate".replace("&#8209;", "&#45;").as_str());
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
        h.set_html(true).unwrap();
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
        assert_eq!(
            html_to_text("Fish &amp; chips &lt;3 caf&eacute; &#233;&#xE9; &copy;2024"),
            "Fish & chips <3 café éé ©2024"
        );
        assert_eq!(html_to_text("a&nbsp;b"), "a\u{a0}b".replace('\u{a0}', " "));
        // Unknown entities stay as written.
        assert_eq!(html_to_text("&bogus; &"), "&bogus; &");
    }

    #[test]
    fn scripts_styles_comments_are_ignored() {
        let html =
            "<p>one</p><script>document.write('<p>two</p>')</script><style>p::after{content:'three'}</style>\
                    <!-- four --><noscript>five</noscript><p>six</p>";
        assert_eq!(html_to_text(html), "one\nsix");
    }

    #[test]
    fn blocks_and_inline_elements() {
        assert_eq!(
            html_to_text("<ul><li>a</li><li>b</li></ul>x<br>y<b>z</b>w"),
            "a\nb\nx\ny zw".replace(" zw", "zw")
        );
        assert_eq!(html_to_text("   "), "");
        assert_eq!(html_to_text(""), "");
    }

    #[test]
    fn character_references_follow_the_spec() {
        // Legacy names without `;` (only those the spec lists), numeric and hex forms,
        // a missing `;` after a number, C1 replacements (&#128; is the euro sign), and
        // U+FFFD for NUL, surrogates and numbers past U+10FFFF.
        assert_eq!(
            html_to_text("&amp &ampx &amp; &notin; &notit; &copy2024 &#128; &#x20AC; &#0; &#xD800; &#1114112; &#65 &#x41z"),
            "& &x & \u{2209} \u{ac}it; \u{a9}2024 \u{20ac} \u{20ac} \u{fffd} \u{fffd} \u{fffd} A Az"
        );
        assert_eq!(html_to_text("a &lt b &gt c"), "a < b > c");
        // A reference in an attribute is not text.
        assert_eq!(html_to_text("<img alt=\"&lt;\">q"), "q");
    }

    #[test]
    fn raw_text_elements_are_not_parsed_as_markup() {
        // A `<` or a tag inside a script or style is script text, and skipped with it.
        assert_eq!(html_to_text("<script>if (a<b && c>d) {} '</p>'</script>z"), "z");
        assert_eq!(html_to_text("<style>a<b</style>c"), "c");
        // Only the matching end tag ends the script, in any letter case.
        assert_eq!(html_to_text("<script>a</scriptx>b</script>c"), "c");
        assert_eq!(html_to_text("<scrIPT>x</SCRIPT>y"), "y");
        // RCDATA (title, textarea): references are decoded but it is still skipped.
        assert_eq!(html_to_text("<textarea>&lt;p&gt;</textarea>v"), "v");
        assert_eq!(html_to_text("<title>t &amp; u</title>w"), "w");
    }

    #[test]
    fn markup_that_is_not_text() {
        assert_eq!(html_to_text("<p title='a > b'>x</p>y"), "x\ny");
        assert_eq!(html_to_text("a<!-- c -- -->b<!--->c<!---->d<?php x ?>e<!DOCTYPE html>f"), "abcdef");
        assert_eq!(html_to_text("<p>a</P><DIV>b</div>"), "a\nb");
        assert_eq!(html_to_text("a<br/>b"), "a\nb");
        // Unclosed and stray tags.
        assert_eq!(html_to_text("<b>unclosed <i>tags"), "unclosed tags");
        assert_eq!(html_to_text("x</script>y"), "xy");
        assert_eq!(html_to_text("<!-- unterminated"), "");
        assert_eq!(html_to_text("<p"), "");
    }

    /// The text as html5gum's own `DefaultEmitter` tokens give it: an independent oracle
    /// for this module's emitter. The two must agree on every input.
    fn reference(html: &str) -> String {
        use html5gum::{DefaultEmitter, Token};
        let mut emitter = DefaultEmitter::default();
        emitter.naively_switch_states(true);
        let mut out = String::new();
        let mut w = Writer { out: &mut out, pending: Gap::None };
        let mut skipping: Vec<Vec<u8>> = Vec::new();
        for token in Tokenizer::new_with_emitter(html, emitter) {
            let Ok(token) = token;
            match token {
                Token::StartTag(tag) => {
                    let name = tag.name.as_slice();
                    if name == b"body" {
                        skipping.clear();
                    }
                    if is_skipped(name) {
                        if !tag.self_closing && !is_void(name) {
                            skipping.push(name.to_vec());
                        }
                    } else if is_block(name) {
                        w.block();
                    }
                }
                Token::EndTag(tag) => {
                    let name = tag.name.as_slice();
                    if let Some(at) = skipping.iter().rposition(|n| n.as_slice() == name) {
                        skipping.truncate(at);
                    } else if is_block(name) {
                        w.block();
                    }
                }
                Token::String(s) if skipping.is_empty() => w.text(&String::from_utf8_lossy(s.as_slice())),
                _ => {}
            }
        }
        out
    }

    #[test]
    fn same_text_as_html5gums_default_emitter_on_tag_soup() {
        // Random documents stitched from markup fragments, so every tokenizer state is
        // reached, including half-finished tags, comments and references at the end.
        const PARTS: &[&str] = &[
            "<p>",
            "</p>",
            "<div class=\"a>b\">",
            "</div>",
            "<br/>",
            "<b>",
            "</b>",
            "<script>",
            "</script>",
            "</scr",
            "<style>",
            "</style>",
            "<title>",
            "</title>",
            "<textarea>",
            "</textarea>",
            "<head>",
            "<body>",
            "<!--",
            "-->",
            "--",
            "<!DOCTYPE html>",
            "<!",
            "<?x",
            "<",
            ">",
            "/",
            "'",
            "\"",
            "=",
            "&",
            "&amp",
            "&amp;",
            "&#",
            "&#x",
            "41",
            ";",
            "&notit;",
            "&eacute",
            "&#128;",
            " ",
            "\n",
            "\t",
            "word",
            "Wörd",
            "中文",
            "\u{0}",
            "<svg>",
            "</svg>",
            "<li>",
            "<td>",
            "<noscript>",
            "</noscript>",
            "<plaintext>",
            "<![CDATA[",
            "]]>",
            "<scrIPT>",
            "</SCRIPT>",
            "<iframe>",
            "</iframe>",
            "<a href=x>",
            "</a>",
            "<img src=x>",
        ];
        let mut rng = crate::test_rng::Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..3000 {
            let len = rng.below(40) as usize;
            let doc: String = (0..len).map(|_| PARTS[rng.below(PARTS.len() as u64) as usize]).collect();
            assert_eq!(html_to_text(&doc), reference(&doc), "on {doc:?}");
        }
    }

    #[test]
    fn tag_soup_never_panics() {
        for s in [
            "<",
            "<<>>",
            "</p>",
            "<script>",
            "<script>x",
            "<!--",
            "<!-- x",
            "&",
            "&#",
            "&#x;",
            "&#99999999;",
            "<a href='",
            "<p <p>",
            "</head></body></html>x",
            "<head>title<body>text",
            "<svg><p>x</svg>y",
            "\u{0}<\u{0}>",
            "<textarea>a</textarea>b",
            "<title>a",
        ] {
            let _ = html_to_text(s);
        }
        assert_eq!(html_to_text("<head>junk<body>text"), "text");
        assert_eq!(html_to_text("<svg><text>x</text></svg>y"), "y");
    }
}
