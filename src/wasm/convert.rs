//! Conversions between JS values and core types, and nothing else: option objects,
//! `JsValue` arguments, and results. No serde: a smaller wasm, and exact control of the
//! shapes. (Typed arguments, fingerprints, texts, bytes, are checked by the package's JS
//! layer before they reach the glue: see `mod.rs`.)

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::js_error;
use crate::error::Error;
use crate::fingerprint::Options;
use crate::index::Layout;

/// The option of the JS `SimHasher` besides [`Options::NAMES`]: `html` (`SimHasher::set_html`).
pub(super) const HTML: &str = "html";

/// The option of the JS `SimHasher` that says which text of an HTML input is read:
/// `"main"` or `"all"` (`SimHasher::set_content`).
pub(super) const CONTENT: &str = "content";

/// The keys of a `SimHasher` option object: the core's lists, for [`option_object`]
/// (`idf`: an `IdfTable`, see `idf.rs`).
pub(super) const HASHER_KEYS: [&[&str]; 2] = [&Options::NAMES, &[HTML, CONTENT, super::idf::IDF]];

/// Sets the hasher's `html` and `content` options from an option object (checked by the
/// core; `content` in a build without HTML is `FeatureDisabled`, like `html: true`).
pub(super) fn set_reading(h: &mut crate::SimHasher, o: &Option<Object>) -> Result<(), JsValue> {
    h.set_html(opt_bool(o, HTML)?.unwrap_or(false)).map_err(js_error)?;
    if let Some(name) = opt_string(o, CONTENT)? {
        #[cfg(feature = "html")]
        h.set_content(crate::html::Content::from_name(&name).map_err(js_error)?);
        #[cfg(not(feature = "html"))]
        {
            let _ = name;
            return Err(js_error(Error::html_disabled()));
        }
    }
    Ok(())
}

/// The name of the hasher's `content` setting (`"all"` in a build without HTML).
pub(super) fn content_name(h: &crate::SimHasher) -> &'static str {
    #[cfg(feature = "html")]
    return h.content().name();
    #[cfg(not(feature = "html"))]
    {
        let _ = h;
        "all"
    }
}

// ---- errors -----------------------------------------------------------------------------

/// An argument or option of the wrong type or range, as an `InvalidOption` error naming it.
pub(super) fn bad_argument(argument: &'static str, expected: &str, got: &JsValue) -> JsValue {
    js_error(Error::option(argument, describe(got), expected))
}

/// A JS value as a message shows it, as JS writes it: JSON (`"text"`, `7`, `null`,
/// `[1,2]`, `{"a":1}`), or else its type (`bigint`, `undefined`, `function`, `symbol`);
/// cut at 80 bytes. Never Rust's debug form.
pub(super) fn describe(v: &JsValue) -> String {
    let json = js_sys::JSON::stringify(v).ok().and_then(|s| s.as_string());
    let mut s = json.or_else(|| v.js_typeof().as_string()).unwrap_or_default();
    if s.len() > 80 {
        let mut end = 79;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
        s.push('…');
    }
    s
}

// ---- arguments --------------------------------------------------------------------------

/// UTF-8 bytes (a `Uint8Array` or Node `Buffer` given where a text is taken) as a JS
/// string, validated by the core: invalid UTF-8 throws `InvalidUtf8` with the offset of
/// the first bad byte. The package's JS layer calls it for every such argument
/// (`pkg-template/args.cjs`). Not part of the public API.
#[wasm_bindgen(js_name = __utf8, skip_typescript)]
pub fn utf8(bytes: &[u8]) -> Result<String, JsValue> {
    crate::error::utf8(bytes).map(str::to_owned).map_err(js_error)
}

// ---- option objects ---------------------------------------------------------------------

/// An option object: `undefined`/`null` is `None`; anything but a plain object, or an
/// unknown key, throws.
pub(super) fn option_object(
    value: &JsValue,
    allowed: &[&[&str]],
    example: &str,
) -> Result<Option<Object>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    if !value.is_object() || Array::is_array(value) {
        return Err(bad_argument("options", &format!("an object like {example}"), value));
    }
    let obj: Object = value.clone().unchecked_into();
    for key in Object::keys(&obj).iter() {
        let key = key.as_string().unwrap_or_default();
        if !allowed.iter().any(|list| list.contains(&key.as_str())) {
            let mut keys = String::new();
            for k in allowed.iter().flat_map(|list| list.iter()) {
                if !keys.is_empty() {
                    keys.push_str(", ");
                }
                keys.push_str(k);
            }
            return Err(js_error(Error::option(
                "options",
                format!("{{ {key}: … }}"),
                format!("only the keys {keys}"),
            )));
        }
    }
    Ok(Some(obj))
}

pub(super) fn field(o: &Option<Object>, key: &str) -> JsValue {
    match o {
        Some(o) => Reflect::get(o, &JsValue::from(key)).unwrap_or(JsValue::UNDEFINED),
        None => JsValue::UNDEFINED,
    }
}

pub(super) fn opt_string(o: &Option<Object>, key: &'static str) -> Result<Option<String>, JsValue> {
    let v = field(o, key);
    if v.is_undefined() {
        return Ok(None);
    }
    v.as_string().map(Some).ok_or_else(|| bad_argument(key, "a string", &v))
}

pub(super) fn opt_number(o: &Option<Object>, key: &'static str) -> Result<Option<f64>, JsValue> {
    let v = field(o, key);
    if v.is_undefined() {
        return Ok(None);
    }
    v.as_f64().map(Some).ok_or_else(|| bad_argument(key, "a number", &v))
}

pub(super) fn opt_bool(o: &Option<Object>, key: &'static str) -> Result<Option<bool>, JsValue> {
    let v = field(o, key);
    if v.is_undefined() {
        return Ok(None);
    }
    v.as_bool().map(Some).ok_or_else(|| bad_argument(key, "true or false", &v))
}

/// A whole-number option (`k`), or `None`; the core checks its range.
pub(super) fn opt_whole_option(o: &Option<Object>, key: &'static str) -> Result<Option<u32>, JsValue> {
    match opt_number(o, key)? {
        None => Ok(None),
        Some(x) if x.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&x) => Ok(Some(x as u32)),
        Some(x) => Err(js_error(Error::option(key, crate::error::number(x), "a non-negative whole number"))),
    }
}

/// The fingerprint options of an option object (whose keys were checked already).
pub(super) fn options_from(o: &Option<Object>) -> Result<Options, JsValue> {
    Options::from_names(
        opt_string(o, "mode")?.as_deref(),
        opt_number(o, "ngram")?,
        opt_string(o, "weighting")?.as_deref(),
        opt_string(o, "punctuation")?.as_deref(),
        opt_bool(o, "nfkc")?,
        opt_bool(o, "lowercase")?,
    )
    .map_err(js_error)
}

/// The `layout` option as the core takes it: a name, or block widths.
pub(super) struct LayoutArg {
    pub(super) name: Option<String>,
    pub(super) widths: Option<Vec<u32>>,
}

const LAYOUT: &str = "\"default\", \"auto\", \"probe\" or an array of block widths";

/// Reads `layout`: `undefined`, a name, or an array of whole numbers.
pub(super) fn layout_arg(o: &Option<Object>) -> Result<LayoutArg, JsValue> {
    let v = field(o, "layout");
    if v.is_undefined() {
        Ok(LayoutArg { name: None, widths: None })
    } else if let Some(name) = v.as_string() {
        Ok(LayoutArg { name: Some(name), widths: None })
    } else if let Some(a) = v.dyn_ref::<Array>() {
        let mut widths = Vec::with_capacity(a.length() as usize);
        for w in a.iter() {
            match w.as_f64() {
                Some(x) if x.fract() == 0.0 && (0.0..=64.0).contains(&x) => widths.push(x as u32),
                _ => {
                    return Err(bad_argument(
                        "layout",
                        "block widths from 1 to 64, like [16, 16, 16, 16]",
                        &v,
                    ))
                }
            }
        }
        Ok(LayoutArg { name: None, widths: Some(widths) })
    } else {
        Err(bad_argument("layout", LAYOUT, &v))
    }
}

/// The index layout of an option object with `k`, `layout`, `expectedSize`, `memoryBudget`.
pub(super) fn layout_from(o: &Option<Object>, k: Option<u32>) -> Result<Layout, JsValue> {
    let l = layout_arg(o)?;
    Layout::from_options(
        l.name.as_deref(),
        l.widths.as_deref(),
        k,
        opt_number(o, "expectedSize")?,
        opt_number(o, "memoryBudget")?,
    )
    .map_err(js_error)
}

// ---- results ----------------------------------------------------------------------------

pub(super) fn set(o: &Object, key: &str, value: impl Into<JsValue>) {
    let _ = Reflect::set(o, &JsValue::from(key), &value.into());
}

pub(super) fn big(x: u64) -> JsValue {
    js_sys::BigInt::from(x).into()
}

/// `{ mode, ngram, weighting, punctuation, nfkc, lowercase, html, scheme }`.
pub(super) fn options_to_js(o: &Options, html: bool) -> Object {
    let out = Object::new();
    set(&out, "mode", o.tokenizer.mode());
    set(&out, "ngram", o.tokenizer.n() as u32);
    set(&out, "weighting", o.weighting.name());
    set(&out, "punctuation", o.normalize.punctuation.name());
    set(&out, "nfkc", o.normalize.nfkc);
    set(&out, "lowercase", o.normalize.lowercase);
    set(&out, HTML, html);
    set(&out, "scheme", o.describe());
    out
}
