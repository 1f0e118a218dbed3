//! The JSON grammar (RFC 8259) over one line's bytes, as `JSON.parse` accepts it: a
//! scanner that validates and finds spans, and decodes a string only when asked. Nesting
//! is followed with an explicit stack, so no line can exhaust the call stack.

use std::borrow::Cow;

/// A scalar or container value's kind, as a document's fields need it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// A string; `escaped` when it holds a backslash.
    String {
        escaped: bool,
    },
    Number,
    Null,
    /// `true`, `false`, an object or an array.
    Other,
}

/// A value's kind and its bytes (a string's without its quotes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Value {
    pub(super) kind: Kind,
    pub(super) start: usize,
    pub(super) end: usize,
}

/// A cursor over a line; every method returns `Err(())` where the line stops being JSON.
pub(super) struct Scanner<'a> {
    pub(super) b: &'a [u8],
    pub(super) at: usize,
}

type Step<T = ()> = Result<T, ()>;

impl<'a> Scanner<'a> {
    pub(super) fn new(b: &'a [u8]) -> Scanner<'a> {
        Scanner { b, at: 0 }
    }

    pub(super) fn peek(&self) -> Option<u8> {
        self.b.get(self.at).copied()
    }

    /// Skips JSON's four whitespace bytes (not JS's wider set: `JSON.parse` refuses U+00A0).
    pub(super) fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// Consumes `byte`, or fails.
    pub(super) fn expect(&mut self, byte: u8) -> Step {
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(())
        }
    }

    /// A string at the cursor (its opening quote), up to its closing quote.
    pub(super) fn string(&mut self) -> Step<Value> {
        self.expect(b'"')?;
        let start = self.at;
        let mut escaped = false;
        loop {
            let rest = &self.b[self.at..];
            let Some(i) = rest.iter().position(|&c| c == b'"' || c == b'\\' || c < 0x20) else {
                return Err(());
            };
            self.at += i;
            match self.b[self.at] {
                b'"' => {
                    self.at += 1;
                    return Ok(Value { kind: Kind::String { escaped }, start, end: self.at - 1 });
                }
                b'\\' => {
                    escaped = true;
                    self.at += 1;
                    match self.peek().ok_or(())? {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.at += 1,
                        b'u' => {
                            let hex = self.b.get(self.at + 1..self.at + 5).ok_or(())?;
                            if !hex.iter().all(u8::is_ascii_hexdigit) {
                                return Err(());
                            }
                            self.at += 5;
                        }
                        _ => return Err(()),
                    }
                }
                _ => return Err(()), // a raw control character
            }
        }
    }

    /// A number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    fn number(&mut self) -> Step {
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(()),
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            self.some_digits()?;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            self.some_digits()?;
        }
        Ok(())
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.at += 1;
        }
    }

    fn some_digits(&mut self) -> Step {
        let from = self.at;
        self.digits();
        if self.at == from {
            Err(())
        } else {
            Ok(())
        }
    }

    fn literal(&mut self, word: &[u8]) -> Step {
        if self.b[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(())
        } else {
            Err(())
        }
    }

    /// A key and its colon, with the whitespace around the colon.
    fn key(&mut self) -> Step<Value> {
        let key = self.string()?;
        self.ws();
        self.expect(b':')?;
        self.ws();
        Ok(key)
    }

    /// One whole value at the cursor (no whitespace before it), nested or not.
    pub(super) fn value(&mut self) -> Step<Value> {
        let start = self.at;
        let kind = match self.peek().ok_or(())? {
            b'"' => return self.string(),
            b'{' | b'[' => {
                self.container()?;
                Kind::Other
            }
            b't' => {
                self.literal(b"true")?;
                Kind::Other
            }
            b'f' => {
                self.literal(b"false")?;
                Kind::Other
            }
            b'n' => {
                self.literal(b"null")?;
                Kind::Null
            }
            _ => {
                self.number()?;
                Kind::Number
            }
        };
        Ok(Value { kind, start, end: self.at })
    }

    /// An object or array at the cursor, however deep: each open container's closing
    /// byte on a stack.
    fn container(&mut self) -> Step {
        let mut open: Vec<u8> = Vec::new();
        'value: loop {
            match self.peek().ok_or(())? {
                c @ (b'{' | b'[') => {
                    self.at += 1;
                    self.ws();
                    let close = if c == b'{' { b'}' } else { b']' };
                    if self.peek() == Some(close) {
                        self.at += 1;
                    } else {
                        open.push(close);
                        if close == b'}' {
                            self.key()?;
                        }
                        continue 'value;
                    }
                }
                b'"' => {
                    self.string()?;
                }
                _ => {
                    self.value()?;
                }
            }
            // After a value: a comma and the next member, or closing brackets.
            loop {
                let Some(&close) = open.last() else { return Ok(()) };
                self.ws();
                match self.peek().ok_or(())? {
                    b',' => {
                        self.at += 1;
                        self.ws();
                        if close == b'}' {
                            self.key()?;
                        }
                        continue 'value;
                    }
                    c if c == close => {
                        self.at += 1;
                        open.pop();
                    }
                    _ => return Err(()),
                }
            }
        }
    }

    /// A top-level object's members, each `(key, value)` given to `member`; the cursor at
    /// its `{`.
    pub(super) fn object(&mut self, mut member: impl FnMut(&Self, Value, Value)) -> Step {
        self.expect(b'{')?;
        self.ws();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(());
        }
        loop {
            let key = self.key()?;
            let value = self.value()?;
            member(self, key, value);
            self.ws();
            match self.peek().ok_or(())? {
                b',' => {
                    self.at += 1;
                    self.ws();
                }
                b'}' => {
                    self.at += 1;
                    return Ok(());
                }
                _ => return Err(()),
            }
        }
    }
}

/// A decoded string: its UTF-16 escapes joined into characters, and a lone surrogate
/// written as U+FFFD (as it reaches the wasm from a JS string) with `lone` set.
pub(super) fn decode(raw: &str) -> (Cow<'_, str>, bool) {
    if !raw.contains('\\') {
        return (Cow::Borrowed(raw), false);
    }
    let mut out = String::with_capacity(raw.len());
    let mut lone = false;
    let b = raw.as_bytes();
    let mut i = 0;
    let mut from = 0;
    let hex =
        |at: usize| u32::from_str_radix(&raw[at..at + 4], 16).expect("hex digits, checked by the scanner");
    while i < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        out.push_str(&raw[from..i]);
        let c = b[i + 1];
        i += 2;
        let ch = match c {
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let u = hex(i);
                i += 4;
                if (0xD800..0xDC00).contains(&u) && b.get(i) == Some(&b'\\') && b.get(i + 1) == Some(&b'u') {
                    let v = hex(i + 2);
                    if (0xDC00..0xE000).contains(&v) {
                        i += 6;
                        char::from_u32(0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00))
                            .expect("a surrogate pair")
                    } else {
                        lone = true;
                        '\u{FFFD}'
                    }
                } else {
                    char::from_u32(u).unwrap_or_else(|| {
                        lone = true;
                        '\u{FFFD}'
                    })
                }
            }
            other => other as char, // " \ /
        };
        out.push(ch);
        from = i;
    }
    out.push_str(&raw[from..]);
    (Cow::Owned(out), lone)
}
