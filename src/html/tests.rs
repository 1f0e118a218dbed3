//! Tests of the tree builder and of main-content extraction (the all-text pass has its
//! own, in `text.rs`).

use super::tree::{self, Tag, Tree, NONE};
use super::*;

/// The tree as nested tags: `p(a) ul(li(x) li(y))`, text as itself, whitespace trimmed.
fn shape(t: &Tree) -> String {
    fn name(tag: Tag) -> String {
        match tag {
            Tag::Heading(l) => format!("h{l}"),
            Tag::TSection => "tbody".into(),
            other => format!("{other:?}").to_lowercase(),
        }
    }
    fn walk(t: &Tree, i: usize, out: &mut Vec<String>) {
        let n = &t.nodes[i];
        if n.tag == Tag::Text {
            let s = t.text_of(n).trim();
            if !s.is_empty() {
                out.push(s.to_string());
            }
            return;
        }
        let mut inner = Vec::new();
        let mut c = i + 1;
        while c < n.end as usize {
            walk(t, c, &mut inner);
            c = t.nodes[c].end as usize;
        }
        out.push(format!("{}({})", name(n.tag), inner.join(" ")));
    }
    let mut out = Vec::new();
    let mut c = 1;
    while c < t.nodes[0].end as usize {
        walk(t, c, &mut out);
        c = t.nodes[c].end as usize;
    }
    out.join(" ")
}

fn tree_of(html: &str) -> String {
    let t = tree::build(html);
    // Every node's subtree lies inside its parent's, in document order.
    for (i, n) in t.nodes.iter().enumerate().skip(1) {
        assert!(n.parent != NONE && (n.parent as usize) < i, "parent of {i}");
        let p = &t.nodes[n.parent as usize];
        assert!(n.end as usize > i && n.end <= p.end, "end of {i}");
    }
    shape(&t)
}

#[test]
fn implied_end_tags() {
    assert_eq!(tree_of("<p>a<p>b"), "p(a) p(b)");
    assert_eq!(tree_of("<ul><li>a<li>b</ul>c"), "ul(li(a) li(b)) c");
    assert_eq!(tree_of("<dl><dt>t<dd>d<dt>u</dl>"), "dl(dt(t) dd(d) dt(u))");
    assert_eq!(tree_of("<table><tr><td>a<td>b<tr><td>c</table>"), "table(tr(td(a) td(b)) tr(td(c)))");
    assert_eq!(tree_of("<p>x<div>y</div>"), "p(x) div(y)");
    assert_eq!(tree_of("<h2>a<h3>b</h3>"), "h2(a) h3(b)");
    assert_eq!(tree_of("<a href=1>a<a href=2>b</a>"), "a(a) a(b)");
    // A list inside an item is nested; its items do not close the outer one.
    assert_eq!(tree_of("<ul><li>a<ul><li>b<li>c</ul><li>d</ul>"), "ul(li(a ul(li(b) li(c))) li(d))");
}

#[test]
fn void_stray_and_misnested_tags() {
    assert_eq!(tree_of("<div>a<br>b<img src=x>c<hr></div>"), "div(a br() b img() c hr())");
    assert_eq!(tree_of("</div>a</p>b"), "a b");
    assert_eq!(tree_of("<div><p>a</div>b"), "div(p(a)) b");
    // An end tag does not close an element across a table cell.
    assert_eq!(tree_of("<div><table><tr><td>a</div>b</td></tr></table>c</div>"), "div(table(tr(td(a b))) c)");
    // Unclosed at the end of input.
    assert_eq!(tree_of("<article><p>a"), "article(p(a))");
    // Plain inline elements are not nodes; their text joins the parent.
    assert_eq!(tree_of("<p>a <b>b</b> <span>c</span></p>"), "p(a b c)");
    // Self-closing syntax on a non-void element is ignored, as browsers do.
    assert_eq!(tree_of("<div/>a</div>b"), "div(a) b");
}

#[test]
fn skipped_content_entities_and_cjk() {
    assert_eq!(
        tree_of("<head><title>T</title><style>p{}</style></head><body><script>x<p>y</script><p>caf&eacute; &amp; 中文，标点。"),
        "p(café & 中文，标点。)"
    );
    assert_eq!(tree_of("<svg><p>x</p></svg><template><p>t</p></template><noscript>n</noscript>z"), "z");
    assert_eq!(tree_of("<head>junk<body>text"), "text");
}

#[test]
fn hints_of_attributes() {
    let t = tree::build(
        "<div class='comments'>a</div><div id=main-content>b</div><div hidden>c</div>\
         <div style='display: none'>d</div><div role=navigation>e</div><div itemprop=articleBody>f</div>\
         <span class=share-buttons>g</span>",
    );
    let flags: Vec<u16> =
        t.nodes.iter().filter(|n| n.tag != Tag::Text).skip(1).map(|n| n.flags & !tree::BLOCK_EL).collect();
    assert_eq!(
        flags,
        vec![
            tree::STRONG_NEG | tree::NEG,
            tree::POS,
            tree::HIDDEN,
            tree::HIDDEN,
            tree::ROLE_BOILER,
            tree::BODY,
            tree::STRONG_NEG | tree::NEG
        ]
    );
}

#[test]
fn pathological_input_never_panics() {
    let deep = "<div>".repeat(20_000) + "x" + &"</div>".repeat(20_000);
    assert_eq!(main_content(&deep), "x");
    let lists = "<ul><li>".repeat(5_000);
    let _ = main_content(&lists);
    for s in ["", "<", "<p", "&", "<!--", "<script>", "</p></p>", "<table><td>a", "\u{0}<\u{0}>", "<a><a><a>"]
    {
        let _ = main_content(s);
        let _ = tree_of(s);
    }
    assert_eq!(main_content(""), "");
}

const PARAS: [&str; 4] = [
    "Near-duplicate detection finds pages that say the same thing, even when their markup, \
     their ads and their counters differ from one copy to the next.",
    "A crawler meets the same article under many addresses: mirrors, print views, syndicated \
     copies, and pages whose query parameters change nothing a reader sees.",
    "Fingerprinting the visible text, and not the template around it, lets the crawler \
     recognise all of them, keep one, and spend its budget on pages it has not seen.",
    "The template is the part of a page that every page of a site shares: the header, the \
     menu, the sidebars, the comments and the footer, with their many links.",
];

const PARAS_ZH: [&str; 3] = [
    "近似重复检测找出内容相同的网页，即使它们的标记、广告和计数器在每一份副本之间都不一样。",
    "爬虫会在许多地址遇到同一篇文章：镜像、打印版本、转载的副本，以及只改变了查询参数的网页。",
    "对读者看到的正文而不是周围的模板计算指纹，爬虫就能认出它们，只保留一份，把时间花在新的网页上。",
];

fn article(paras: &[&str]) -> String {
    paras.iter().map(|p| format!("<p>{p}</p>")).collect()
}

/// A news site's template around an article.
fn templated(paras: &[&str]) -> String {
    let nav: String = (0..15).map(|i| format!("<li><a href=/s{i}>Section {i}</a></li>")).collect();
    let related: String = (0..6)
        .map(|i| format!("<li><a href=/a{i}>Another story about topic number {i} that you may like</a></li>"))
        .collect();
    format!(
        "<!DOCTYPE html><html><head><title>Site</title><script>var a = 1;</script></head><body>\
         <header><a href=/>The Daily Site</a><form><input name=q><button>Search</button></form></header>\
         <nav><ul>{nav}</ul></nav>\
         <div class=layout><main><article>\
         <h1>The headline of the story</h1><div class=byline>By A. Writer, 3 May 2024, 1,234 views</div>\
         <div class=article-body>{}</div>\
         <div class=share-tools><a href=#>Share on a network</a> <a href=#>Email this story</a></div>\
         </article>\
         <section class=comments><h3>Comments</h3><p>First comment, short.</p><p>I disagree, strongly and at length, with the writer.</p></section>\
         </main><aside class=sidebar><h3>Most read</h3><ul>{related}</ul><div class=ad>Buy our product today, now at half price!</div></aside></div>\
         <footer><p>Copyright 2024 The Daily Site. All rights reserved. About us, contact, privacy policy, terms of use.</p></footer>\
         </body></html>",
        article(paras)
    )
}

/// The print copy: the article alone.
fn print_copy(paras: &[&str]) -> String {
    format!("<html><head><title>Print</title></head><body>{}</body></html>", article(paras))
}

#[test]
fn templated_and_print_copies_give_the_same_main_content() {
    for paras in [&PARAS[..], &PARAS_ZH[..]] {
        let want = paras.join("\n");
        assert_eq!(main_content(&templated(paras)), want);
        assert_eq!(main_content(&print_copy(paras)), want);
        // All the text keeps the template.
        let all = html_to_text(&templated(paras));
        assert!(all.contains("Section 14") && all.contains("Copyright") && all.contains(&want));
    }
}

#[test]
fn article_cut_into_chunks_between_ads_is_whole() {
    let chunk = |ps: &[&str]| {
        format!("<div class=grid><div class=body>{}</div><div class=ad-rail>Ad</div></div>", article(ps))
    };
    let html = format!(
        "<body><nav><a href=/>Home</a></nav><div class=chunks>{}<div class=promo>Subscribe now!</div>{}</div><footer>Footer text here.</footer></body>",
        chunk(&PARAS[..2]),
        chunk(&PARAS[2..])
    );
    assert_eq!(main_content(&html), PARAS.join("\n"));
}

#[test]
fn content_option() {
    assert_eq!(Content::from_name("main"), Ok(Content::Main));
    assert_eq!(Content::from_name("all"), Ok(Content::All));
    assert_eq!(Content::default(), Content::All);
    for c in [Content::Main, Content::All] {
        assert_eq!(Content::from_name(c.name()), Ok(c));
    }
    let err = Content::from_name("article").unwrap_err();
    assert_eq!(err.to_string(), "invalid option `content` = \"article\": expected \"main\" or \"all\"");
    let html = templated(&PARAS);
    assert_eq!(extract(&html, Content::All), html_to_text(&html));
    assert_eq!(extract(&html, Content::Main), main_content(&html));
}

#[test]
fn a_list_of_related_links_after_the_article_is_left_out() {
    // Each item has a few words before its link, so the list is not mostly links.
    let related: String = [
        ("Writers must unionize,", "no matter what the platforms say"),
        ("Paid ads are not the problem.", "Our perceptions are"),
        ("Could a lost astronaut", "use gravity to get around"),
        ("The plan to boost batteries", "with a tiny jet engine"),
    ]
    .iter()
    .map(|(a, b)| format!("<li>{a} <a href=/x>{b}</a></li>"))
    .collect();
    let html = format!("<body><div class=story>{}<hr><ul>{related}</ul></div></body>", article(&PARAS));
    assert_eq!(main_content(&html), PARAS.join("\n"));
    // An article that is a list of long items, each with a link, is kept.
    let items: String =
        PARAS.iter().map(|p| format!("<li>{p} <a href=/more>Read more here.</a></li>")).collect();
    let html = format!("<body><div class=story><p>{}</p><ol>{items}</ol></div></body>", PARAS[0]);
    assert!(main_content(&html).contains(PARAS[3]));
}

#[test]
fn the_previous_article_teaser_after_the_article_is_left_out() {
    // A link to the previous story with its title, its summary and its date, in a block
    // whose class names it; the summary is a paragraph of its own (no link).
    for (paras, summary) in [
        (&PARAS[..], "The most powerful hatchback to come out of the factory has a huge rear wing."),
        (&PARAS_ZH[..], "这家工厂出产的最强劲的掀背车装有一个巨大的尾翼，售价也随之上涨。"),
    ] {
        let teaser = format!(
            "<div class=\"grid prev\"><p class=btn><a href=/p>Previous story</a></p>\
             <div class=desc><a href=/p><h5>A monster hatch</h5></a><p class=excerpt>{summary}</p>\
             <label>2019-11-20 17:27:46 Marcus</label></div></div>"
        );
        let html =
            format!("<body><div id=article class=\"cell article\">{}{teaser}</div></body>", article(paras));
        assert_eq!(main_content(&html), paras.join("\n"));
    }
}

/// Random markup from the pieces the readers treat apart: block and inline tags, skipped
/// elements, template classes and roles, links, entities, raw text, comments, CJK text,
/// stray and unclosed tags.
fn random_html(rng: &mut crate::test_rng::Rng) -> String {
    const PIECES: [&str; 32] = [
        "<p>",
        "</p>",
        "<div class=content>",
        "<div class=sidebar>",
        "</div>",
        "<article>",
        "</article>",
        "<nav><a href=/x>Home</a>",
        "</nav>",
        "<li><a href=/y>a link of a few words</a>",
        "<ul>",
        "</ul>",
        "<script>if (a<b) {}</script>",
        "<style>p{}</style>",
        "<!-- c -->",
        "&amp; &copy;&#x4E2D;",
        "<br>",
        "<h1>Title</h1>",
        "<footer>Copyright, all rights reserved.</footer>",
        "<table><td>cell",
        "</td></table>",
        "<span hidden>gone</span>",
        "<div role=navigation>",
        "<main>",
        "</main>",
        "<img alt=x>",
        "<title>t</title>",
        "<body>",
        "<aside class=ad>Buy now!</aside>",
        "<p",
        "</",
        "<textarea>a<b</textarea>",
    ];
    const WORDS: [&str; 6] = [
        "The first paragraph of the story, long enough to count, with commas, and more. ",
        "A second sentence; it ends here. ",
        "近似重复检测找出内容相同的网页，即使它们的标记不一样。",
        "short ",
        "  \n\t ",
        "x",
    ];
    let mut s = String::new();
    for _ in 0..rng.below(60) {
        if rng.below(3) == 0 {
            s.push_str(WORDS[rng.below(WORDS.len() as u64) as usize]);
        } else {
            s.push_str(PIECES[rng.below(PIECES.len() as u64) as usize]);
        }
    }
    s
}

#[test]
fn one_pass_reads_each_text_as_its_own_reader_does() {
    let check = |html: &str| {
        let (all, main) = all_and_main(html);
        assert_eq!(all, html_to_text(html), "all the text of {html:?}");
        assert_eq!(main, main_content(html), "the main content of {html:?}");
    };
    for paras in [&PARAS[..], &PARAS_ZH[..]] {
        check(&templated(paras));
        check(&print_copy(paras));
    }
    for s in ["", "<", "<p", "&", "<!--", "<script>", "</p></p>", "<table><td>a", "\u{0}<\u{0}>", "<a><a><a>"]
    {
        check(s);
    }
    let mut rng = crate::test_rng::Rng(58);
    for _ in 0..3_000 {
        check(&random_html(&mut rng));
    }
    // Real pages: every third page of the article-extraction benchmark (61 pages).
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/extract-bench/html");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    names.sort();
    let mut read = 0;
    for path in names.iter().step_by(3) {
        let mut html = String::new();
        let file = std::fs::File::open(path).expect("a page");
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(file), &mut html)
            .expect("a UTF-8 page");
        check(&html);
        read += 1;
    }
    assert_eq!(read, 61);
}
