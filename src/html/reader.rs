//! The tokenizer side that both HTML readers share: an html5gum [`Emitter`] that gathers a
//! tag's name, its self-closing flag and the character data between tags, and hands each to
//! a [`Tags`] implementation ([`super::text`]'s writer of plain text, [`super::tree`]'s
//! builder of the element tree).
//!
//! Comments, doctypes and parse errors are dropped as they come, and no token is
//! allocated, which also keeps it smaller in wasm than html5gum's `DefaultEmitter` (see the
//! comment on html5gum in Cargo.toml).

use std::convert::Infallible;

use html5gum::{naive_next_state, Emitter, Error, State};

/// What a reader does with the tags and text the tokenizer finds.
pub(super) trait Tags {
    /// Character data read since the last tag (decoded character references included);
    /// never empty.
    fn text(&mut self, text: &[u8]);
    /// A start tag, once its attributes are read.
    fn start_tag(&mut self, name: &[u8], self_closing: bool);
    /// An end tag.
    fn end_tag(&mut self, name: &[u8]);

    // No method has a default body: a reader, and [`Both`], must say what it does with
    // each, so a new method cannot be left unforwarded without a compile error.
    /// A start tag begins; its attributes follow.
    fn begin_start_tag(&mut self);
    /// A start tag's attribute begins.
    fn begin_attribute(&mut self);
    /// Part of the current attribute's name.
    fn attribute_name(&mut self, name: &[u8]);
    /// The current attribute's value begins (an attribute without one has none).
    fn begin_attribute_value(&mut self);
    /// Part of the current attribute's value.
    fn attribute_value(&mut self, value: &[u8]);
}

/// Two readers fed by one tokenizer: each call goes to the first, then to the second, so
/// each reads the page exactly as it would alone.
pub(super) struct Both<A, B>(pub(super) A, pub(super) B);

impl<A: Tags, B: Tags> Tags for Both<A, B> {
    fn text(&mut self, text: &[u8]) {
        self.0.text(text);
        self.1.text(text);
    }
    fn start_tag(&mut self, name: &[u8], self_closing: bool) {
        self.0.start_tag(name, self_closing);
        self.1.start_tag(name, self_closing);
    }
    fn end_tag(&mut self, name: &[u8]) {
        self.0.end_tag(name);
        self.1.end_tag(name);
    }
    fn begin_start_tag(&mut self) {
        self.0.begin_start_tag();
        self.1.begin_start_tag();
    }
    fn begin_attribute(&mut self) {
        self.0.begin_attribute();
        self.1.begin_attribute();
    }
    fn attribute_name(&mut self, name: &[u8]) {
        self.0.attribute_name(name);
        self.1.attribute_name(name);
    }
    fn begin_attribute_value(&mut self) {
        self.0.begin_attribute_value();
        self.1.begin_attribute_value();
    }
    fn attribute_value(&mut self, value: &[u8]) {
        self.0.attribute_value(value);
        self.1.attribute_value(value);
    }
}

/// A reader lent to [`Both`].
impl<T: Tags + ?Sized> Tags for &mut T {
    fn text(&mut self, text: &[u8]) {
        (**self).text(text);
    }
    fn start_tag(&mut self, name: &[u8], self_closing: bool) {
        (**self).start_tag(name, self_closing);
    }
    fn end_tag(&mut self, name: &[u8]) {
        (**self).end_tag(name);
    }
    fn begin_start_tag(&mut self) {
        (**self).begin_start_tag();
    }
    fn begin_attribute(&mut self) {
        (**self).begin_attribute();
    }
    fn attribute_name(&mut self, name: &[u8]) {
        (**self).attribute_name(name);
    }
    fn begin_attribute_value(&mut self) {
        (**self).begin_attribute_value();
    }
    fn attribute_value(&mut self, value: &[u8]) {
        (**self).attribute_value(value);
    }
}

/// An [`Emitter`] over a [`Tags`]. It holds the reader as a trait object, so html5gum's
/// tokenizer is compiled once for every reader (decision 018 has what a copy costs).
pub(super) struct TagReader<'a> {
    tags: &'a mut dyn Tags,
    /// Character data since the last tag.
    text: Vec<u8>,
    /// The name of the tag being read.
    name: Vec<u8>,
    /// The name of the last start tag, for the raw-text states' "appropriate end tag"
    /// test; cleared by an end tag (as html5gum's own emitters do).
    last_start_tag: Vec<u8>,
    end_tag: bool,
    self_closing: bool,
}

impl<'a> TagReader<'a> {
    pub(super) fn new(tags: &'a mut dyn Tags) -> Self {
        TagReader {
            tags,
            text: Vec::new(),
            name: Vec::new(),
            last_start_tag: Vec::new(),
            end_tag: false,
            self_closing: false,
        }
    }

    fn flush_text(&mut self) {
        if !self.text.is_empty() {
            self.tags.text(&self.text);
            self.text.clear();
        }
    }
}

impl Emitter for TagReader<'_> {
    type Token = Infallible;

    fn set_last_start_tag(&mut self, last_start_tag: Option<&[u8]>) {
        self.last_start_tag.clear();
        self.last_start_tag.extend_from_slice(last_start_tag.unwrap_or_default());
    }

    fn emit_eof(&mut self) {
        self.flush_text();
    }

    fn emit_error(&mut self, _: Error) {}

    fn should_emit_errors(&mut self) -> bool {
        false
    }

    fn pop_token(&mut self) -> Option<Infallible> {
        None
    }

    fn emit_string(&mut self, s: &[u8]) {
        self.text.extend_from_slice(s);
    }

    fn init_start_tag(&mut self) {
        self.name.clear();
        self.end_tag = false;
        self.self_closing = false;
        self.tags.begin_start_tag();
    }

    fn init_end_tag(&mut self) {
        self.name.clear();
        self.end_tag = true;
        self.self_closing = false;
    }

    fn emit_current_tag(&mut self) -> Option<State> {
        self.flush_text();
        if self.end_tag {
            self.last_start_tag.clear();
            self.tags.end_tag(&self.name);
            None
        } else {
            self.tags.start_tag(&self.name, self.self_closing);
            std::mem::swap(&mut self.last_start_tag, &mut self.name);
            // Switches to the raw-text states after <script>, <style>, <textarea> ...
            // (html5gum's `naive_next_state`, as its `DefaultEmitter` does when told to),
            // so their content is character data and a `<` inside a script is not a tag.
            naive_next_state(&self.last_start_tag)
        }
    }

    fn set_self_closing(&mut self) {
        if !self.end_tag {
            self.self_closing = true;
        }
    }

    fn push_tag_name(&mut self, s: &[u8]) {
        self.name.extend_from_slice(s);
    }

    fn current_is_appropriate_end_tag_token(&mut self) -> bool {
        self.end_tag && !self.last_start_tag.is_empty() && self.last_start_tag == self.name
    }

    // An end tag's attributes mean nothing.
    fn init_attribute(&mut self) {
        if !self.end_tag {
            self.tags.begin_attribute();
        }
    }

    fn push_attribute_name(&mut self, s: &[u8]) {
        if !self.end_tag {
            self.tags.attribute_name(s);
        }
    }

    fn init_attribute_value(&mut self) {
        if !self.end_tag {
            self.tags.begin_attribute_value();
        }
    }

    fn push_attribute_value(&mut self, s: &[u8]) {
        if !self.end_tag {
            self.tags.attribute_value(s);
        }
    }

    // Comments and doctypes are not text: nothing to keep.
    fn init_comment(&mut self) {}
    fn emit_current_comment(&mut self) {}
    fn emit_current_doctype(&mut self) {}
    fn set_force_quirks(&mut self) {}
    fn push_comment(&mut self, _: &[u8]) {}
    fn push_doctype_name(&mut self, _: &[u8]) {}
    fn init_doctype(&mut self) {}
    fn set_doctype_public_identifier(&mut self, _: &[u8]) {}
    fn set_doctype_system_identifier(&mut self, _: &[u8]) {}
    fn push_doctype_public_identifier(&mut self, _: &[u8]) {}
    fn push_doctype_system_identifier(&mut self, _: &[u8]) {}
}
