//! HTML to text, so that a page's fingerprint depends on what a reader sees and not on its
//! template, markup, scripts, styles, comments or entity spelling.
//!
//! The HTML is tokenized by `html5gum` (a WHATWG tokenizer: the spec's states, the full
//! named-entity table, and no tree builder), through an emitter of our own that keeps only
//! tag names and character data (no token is allocated). On top of that:
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
//!
//! `main_content` keeps only the page's main content (the article, not the template
//! around it); see [`Content`].
//!
//! Everything here but [`Content`] needs the Cargo feature `html`. [`Content`] is in every
//! build, so the options that name it (`SeenConfig::content`, `DedupOptions::content`) are
//! the same fields whichever features are on: features add, they never change a struct.

#[cfg(feature = "html")]
mod reader;
#[cfg(feature = "html")]
mod score;
#[cfg(feature = "html")]
#[cfg_attr(docsrs, doc(cfg(feature = "html")))]
pub mod template;
#[cfg(all(test, feature = "html"))]
mod tests;
#[cfg(feature = "html")]
mod text;
#[cfg(feature = "html")]
mod tree;

#[cfg(feature = "html")]
pub use template::{BlockHash, TemplateModel};
#[cfg(feature = "html")]
pub(crate) use text::all_and_main;
#[cfg(feature = "html")]
pub use text::{html_to_text, html_to_text_into};

use crate::error::{Error, Result};

/// Which text of a page to read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Content {
    /// The page's main content: its article or body text, without the navigation,
    /// header, footer, sidebars, comments and widgets of its template
    /// (`main_content`).
    Main,
    /// All the visible text (`html_to_text`).
    #[default]
    All,
}

impl Content {
    /// The option's name in option objects.
    pub const OPTION: &'static str = "content";

    /// The names the option takes.
    pub const NAMES: [&'static str; 2] = ["main", "all"];

    /// The option's name: `"main"` or `"all"`.
    pub fn name(self) -> &'static str {
        match self {
            Content::Main => "main",
            Content::All => "all",
        }
    }

    /// Parses [`Content::name`]; anything else is an [`Error::InvalidOption`] naming the
    /// option `content`.
    ///
    /// ```
    /// use simhash_wasm::html::Content;
    /// assert_eq!(Content::from_name("main")?, Content::Main);
    /// assert!(Content::from_name("article").is_err());
    /// # Ok::<(), simhash_wasm::Error>(())
    /// ```
    pub fn from_name(name: &str) -> Result<Content> {
        match name {
            "main" => Ok(Content::Main),
            "all" => Ok(Content::All),
            _ => Err(Error::option(Self::OPTION, crate::error::quoted(name), "\"main\" or \"all\"")),
        }
    }
}

/// The text of a page's main content (see [`Content::Main`]): the template's parts are
/// dropped, the containers of the text blocks scored by their text, punctuation and links,
/// and the text of the best one written as [`html_to_text`] writes text.
///
/// ```
/// use simhash_wasm::html::main_content;
/// let html = "<body><nav><a href=/>Home</a> <a href=/news>News</a></nav>\
///             <article><h1>Title</h1><p>The first paragraph of the story, long enough to count, \
///             with commas, and more.</p><p>A second paragraph, also of some length, ends here.</p></article>\
///             <footer>Copyright, all rights reserved.</footer></body>";
/// let text = main_content(html);
/// assert!(text.contains("The first paragraph"));
/// assert!(!text.contains("Home") && !text.contains("Copyright"));
/// ```
#[cfg(feature = "html")]
#[cfg_attr(docsrs, doc(cfg(feature = "html")))]
pub fn main_content(html: &str) -> String {
    let mut out = String::with_capacity(html.len() / 4);
    score::main_content_into(html, &mut out);
    out
}

/// The text of a page as `content` asks: [`main_content`] or [`html_to_text`].
#[cfg(feature = "html")]
#[cfg_attr(docsrs, doc(cfg(feature = "html")))]
pub fn extract(html: &str, content: Content) -> String {
    match content {
        Content::Main => main_content(html),
        Content::All => html_to_text(html),
    }
}
