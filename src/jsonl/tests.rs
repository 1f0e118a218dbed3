//! The reader against fixed lines, and against serde_json on random lines.

use std::borrow::Cow;

use super::{document, read_chunk, BadLine, Document, Id, LineError};
use crate::test_rng::Rng;

fn doc<'a>(id: Id<'a>, text: &'a str) -> Option<Document<'a>> {
    Some(Document { id, text: Cow::Borrowed(text) })
}

#[test]
fn lines_read_as_the_cli_reads_them_with_json_parse() {
    use Id::*;
    use LineError::*;
    let text = |s: &'static str| Text(Cow::Borrowed(s));
    type Read<'a> = Result<Option<Document<'a>>, LineError>;
    let cases: Vec<(&[u8], Read)> = vec![
        (br#"{"id":"a","text":"b"}"#, Ok(doc(text("a"), "b"))),
        (b" \t{ \"text\" : \"b\" , \"id\" : 7 }\r", Ok(doc(Number("7"), "b"))),
        (br#"{"id":-1.5e+3,"text":""}"#, Ok(doc(Number("-1.5e+3"), ""))),
        (br#"{"text":"b","id":null}"#, Ok(doc(Absent, "b"))),
        (br#"{"text":"a","text":"b","id":1,"id":"x"}"#, Ok(doc(text("x"), "b"))),
        (br#"{"t\u0065xt":"b","other":[{"a":[1,2,{}]},[],"x",true,false,null]}"#, Ok(doc(Absent, "b"))),
        (br#"{"id":"\ud800","text":"b"}"#, Ok(doc(Surrogate(r#""\ud800""#), "b"))),
        (b"", Ok(None)),
        (b"  \t\r", Ok(None)),
        ("\u{a0}\u{feff}\u{3000}".as_bytes(), Ok(None)),
        (b"\xff", Err(NotUtf8)),
        (b"{\"text\":\"\xc3\"}", Err(NotUtf8)),
        ("\u{a0}{\"text\":\"b\"}".as_bytes(), Err(NotJson)),
        (b"\x0b{\"text\":\"b\"}", Err(NotJson)),
        (br#"{"text":"b",}"#, Err(NotJson)),
        (br#"{"text":"b"} x"#, Err(NotJson)),
        (br#"{"text":"b"}{}"#, Err(NotJson)),
        (br#"{"text":'b'}"#, Err(NotJson)),
        (b"{\"text\":\"a\tb\"}", Err(NotJson)),
        (br#"{"text":"\x"}"#, Err(NotJson)),
        (br#"{"text":"\u12"}"#, Err(NotJson)),
        (br#"{"text":"b","n":01}"#, Err(NotJson)),
        (br#"{"text":"b","n":1.}"#, Err(NotJson)),
        (br#"{"text":"b","n":[1,]}"#, Err(NotJson)),
        (br#"{"text":"b","n":[1 2]}"#, Err(NotJson)),
        (br#"{"text":"b","n":{"a"}}"#, Err(NotJson)),
        (br#"{"text":"b","n":tru}"#, Err(NotJson)),
        (br#"{"text":"b","n":[[[]]}"#, Err(NotJson)),
        (br#"["text","b"]"#, Err(NotADocument)),
        (br#""text""#, Err(NotADocument)),
        (b"null", Err(NotADocument)),
        (b"{}", Err(NotADocument)),
        (br#"{"text":1}"#, Err(NotADocument)),
        (br#"{"text":null,"id":"a"}"#, Err(NotADocument)),
        (br#"{"text":"b","id":true}"#, Err(BadId { start: 17, end: 21 })),
        (br#"{"text":"b","id":{"a":1}}"#, Err(BadId { start: 17, end: 24 })),
        (br#"{"text":"b","id":[]}"#, Err(BadId { start: 17, end: 19 })),
    ];
    for (line, want) in cases {
        assert_eq!(document(line), want, "{:?}", String::from_utf8_lossy(line));
    }
}

#[test]
fn escapes_decode_as_json_parse_decodes_them() {
    let read = |line: &str| document(line.as_bytes()).unwrap().unwrap().text.into_owned();
    assert_eq!(read(r#"{"text":"a\"b\\c\/d\be\ff\ng\rh\ti"}"#), "a\"b\\c/d\u{8}e\u{c}f\ng\rh\ti");
    assert_eq!(read(r#"{"text":"\u00e9\u4E2D\ud83d\ude00"}"#), "é中😀");
    // A surrogate without its partner reaches the wasm as U+FFFD, each one.
    assert_eq!(read(r#"{"text":"a\ud800b\udc00\ud800\ud800\ude00"}"#), "a\u{FFFD}b\u{FFFD}\u{FFFD}\u{10200}");
    assert_eq!(read(r#"{"text":"\ud83d\u0041"}"#), "\u{FFFD}A");
    // Text with no escape is not copied.
    assert!(matches!(document(br#"{"text":"plain"}"#).unwrap().unwrap().text, Cow::Borrowed("plain")));
}

#[test]
fn deep_nesting_is_read_without_the_call_stack() {
    let deep = format!(r#"{{"text":"b","n":{}{}}}"#, "[".repeat(1_000_000), "]".repeat(1_000_000));
    assert_eq!(document(deep.as_bytes()), Ok(doc(Id::Absent, "b")));
    let cut = format!(r#"{{"text":"b","n":{}{}}}"#, "[{\"a\":".repeat(100_000), "}]".repeat(99_999));
    assert_eq!(document(cut.as_bytes()), Err(LineError::NotJson));
}

#[test]
fn a_chunk_places_its_documents_and_stops_at_its_first_bad_line() {
    let bytes = b"{\"id\":1,\"text\":\"a\"}\n\n  \n{\"text\":\"bb\"}\r\n{\"text\":\"c\"}";
    let chunk = read_chunk(bytes, |t| t.len());
    let got: Vec<_> = chunk.documents.iter().map(|d| (d.offset, d.length, d.id.clone(), d.outcome)).collect();
    assert_eq!(got, vec![(0, 19, Id::Number("1"), 1), (24, 14, Id::Absent, 2), (39, 12, Id::Absent, 1)]);
    assert_eq!((chunk.lines, chunk.error), (5, None));
    let chunk = read_chunk(b"{\"text\":\"a\"}\n\n[1]\n{\"text\":\"c\"}\n", |t| t.to_string());
    assert_eq!(chunk.documents.len(), 1);
    assert_eq!(
        (chunk.lines, chunk.error),
        (3, Some(BadLine { line: 2, offset: 14, error: LineError::NotADocument }))
    );
    assert_eq!(read_chunk(b"\n", |_| ()).lines, 1);
    assert_eq!(read_chunk(b"", |_| ()).lines, 0);
}

/// A random JSON value written with random spacing and escapes, `depth` levels at most.
fn value(rng: &mut Rng, depth: u32, out: &mut String) {
    let ws = |rng: &mut Rng, out: &mut String| {
        for _ in 0..rng.below(3) {
            out.push([' ', '\t', '\r', '\n'][rng.below(4) as usize]);
        }
    };
    ws(rng, out);
    match rng.below(if depth == 0 { 5 } else { 7 }) {
        0 => string(rng, out),
        1 => out.push_str(
            ["0", "-0", "12", "-3.25", "1e5", "2E-3", "7.5e+2", "123456789012345678"][rng.below(8) as usize],
        ),
        2 => out.push_str(["true", "false"][rng.below(2) as usize]),
        3 => out.push_str("null"),
        4 => string(rng, out),
        5 => {
            out.push('[');
            for i in 0..rng.below(4) {
                if i > 0 {
                    out.push(',');
                }
                value(rng, depth - 1, out);
            }
            ws(rng, out);
            out.push(']');
        }
        _ => object(rng, depth - 1, out),
    }
    ws(rng, out);
}

fn object(rng: &mut Rng, depth: u32, out: &mut String) {
    out.push('{');
    for i in 0..rng.below(5) {
        if i > 0 {
            out.push(',');
        }
        match rng.below(4) {
            0 => {
                out.push_str(["\"id\"", "\"text\"", "\"i\\u0064\"", "\"te\\u0078t\""][rng.below(4) as usize])
            }
            _ => string(rng, out),
        }
        out.push(':');
        value(rng, depth, out);
    }
    out.push('}');
}

fn string(rng: &mut Rng, out: &mut String) {
    out.push('"');
    for _ in 0..rng.below(8) {
        match rng.below(10) {
            0 => out
                .push_str(["\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t"][rng.below(8) as usize]),
            1 => out.push_str(
                ["\\u00e9", "\\u4e2D", "\\ud83d\\ude00", "\\u0000", "\\u001F"][rng.below(5) as usize],
            ),
            2 => out.push(['é', '中', '😀', '\u{2028}', '\u{7f}'][rng.below(5) as usize]),
            _ => out.push((b'a' + rng.below(26) as u8) as char),
        }
    }
    out.push('"');
}

/// `s` with each `\\u` escape of a surrogate made `\\u0041`.
fn without_surrogates(s: &str) -> String {
    let mut out = s.to_string();
    let mut at = 0;
    while let Some(i) = out[at..].find("\\u") {
        let from = at + i + 2;
        let code = out.get(from..from + 4).and_then(|h| u32::from_str_radix(h, 16).ok());
        if code.is_some_and(|c| (0xD800..0xE000).contains(&c)) {
            out.replace_range(from..from + 4, "0041");
        }
        at = from;
    }
    out
}

#[test]
fn random_lines_meet_serde_json() {
    let mut rng = Rng(0x6a73_6f6e_6c69_6e65);
    let mut counts = [0usize; 4];
    for case in 0..40_000 {
        let mut line = String::new();
        match rng.below(4) {
            0 => value(&mut rng, 3, &mut line),
            1 => object(&mut rng, 3, &mut line),
            // A document: a text, and an id of any kind, among other members.
            _ => {
                let mut members = vec![String::from("\"text\":")];
                string(&mut rng, &mut members[0]);
                if rng.below(3) > 0 {
                    let mut id = String::from("\"id\":");
                    value(&mut rng, 1, &mut id);
                    members.push(id);
                }
                let mut other = String::new();
                object(&mut rng, 2, &mut other);
                if other.len() > 2 {
                    members.push(other[1..other.len() - 1].to_string());
                }
                let first = rng.below(members.len() as u64) as usize;
                members.swap(0, first);
                line = format!("{{{}}}", members.join(","));
            }
        }
        let mut bytes = line.into_bytes();
        // Half the lines broken at one byte: deleted, replaced or inserted.
        if case % 2 == 1 && !bytes.is_empty() {
            let at = rng.below(bytes.len() as u64) as usize;
            let junk = b"{}[],:\"\\ 0e.-tn"[rng.below(15) as usize];
            match rng.below(3) {
                0 => {
                    bytes.remove(at);
                }
                1 => bytes[at] = junk,
                _ => bytes.insert(at, junk),
            }
        }
        let Ok(s) = std::str::from_utf8(&bytes) else {
            assert_eq!(document(&bytes), Err(LineError::NotUtf8));
            continue;
        };
        let got = document(&bytes);
        if s.trim_matches(super::js_space).is_empty() {
            assert_eq!(got, Ok(None));
            continue;
        }
        let want: Result<serde_json::Value, _> = serde_json::from_str(s);
        // serde_json refuses a surrogate escape without its partner, and a number beyond
        // f64, which JSON.parse reads (as U+FFFD in the wasm, and Infinity): with the
        // surrogate escapes made plain, or an error of range, the grammar
        // holds, and the rest is judged without serde_json.
        if let Err(e) = &want {
            let plain = without_surrogates(s);
            if e.to_string().contains("out of range")
                || serde_json::from_str::<serde_json::Value>(&plain).is_ok()
            {
                assert_ne!(got, Err(LineError::NotJson), "{s:?}");
                continue;
            }
        }
        let Ok(v) = want else {
            assert_eq!(got, Err(LineError::NotJson), "{s:?}");
            counts[0] += 1;
            continue;
        };
        let text = v.as_object().and_then(|o| o.get("text")).and_then(|t| t.as_str());
        let Some(text) = text else {
            assert_eq!(got, Err(LineError::NotADocument), "{s}");
            counts[1] += 1;
            continue;
        };
        match v.get("id") {
            None | Some(serde_json::Value::Null) => assert_eq!(got, Ok(doc(Id::Absent, text)), "{s}"),
            Some(serde_json::Value::String(id)) => {
                assert_eq!(
                    got,
                    Ok(Some(Document {
                        id: Id::Text(Cow::Owned(id.clone())),
                        text: Cow::Owned(text.into())
                    })),
                    "{s}"
                )
            }
            Some(serde_json::Value::Number(n)) => match got {
                Ok(Some(Document { id: Id::Number(raw), text: t })) => {
                    assert_eq!((raw.parse::<f64>().unwrap(), &*t), (n.as_f64().unwrap(), text), "{s}")
                }
                other => panic!("{s}: {other:?}"),
            },
            Some(_) => assert!(matches!(got, Err(LineError::BadId { .. })), "{s}: {got:?}"),
        }
        counts[2 + usize::from(v.get("id").is_some())] += 1;
    }
    // Every outcome is met often: the generator is no filter that passes almost nothing.
    assert!(counts.iter().all(|&n| n > 1_000), "{counts:?}");
}
