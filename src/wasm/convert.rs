//! Conversions between JS values and core types, and nothing else: option objects,
//! `JsValue` arguments, and results. No serde: a smaller wasm, and exact control of the
//! shapes. (Typed arguments, fingerprints, texts, bytes, are checked by the package's JS
//! layer before they reach the glue: see `mod.rs`.)

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::error::Error;
use crate::fingerprint::{Options, SimHasher};
use crate::index::Layout;

/// The keys of a `SimHasher` option object: the core's lists, for [`option_object`]
/// (`idf`: an `IdfTable`, see `idf.rs`).
pub(super) const HASHER_KEYS: [&[&str]; 2] = [&Options::NAMES, &SimHasher::NAMES];

/// Sets the hasher's `html` and `content` options from an option object (checked by the
/// core; `content` in a build without HTML is `FeatureDisabled`, like `html: true`).
pub(super) fn set_reading(h: &mut SimHasher, o: &Option<Object>) -> Result<(), JsValue> {
    h.set_html(opt_bool(o, SimHasher::HTML)?.unwrap_or(false))?;
    if let Some(name) = opt_string(o, SimHasher::CONTENT)? {
        #[cfg(feature = "html")]
        h.set_content(crate::html::Content::from_name(&name)?);
        #[cfg(not(feature = "html"))]
        {
            let _ = name;
            return Err(Error::html_disabled().into());
        }
    }
    Ok(())
}

/// The name of the hasher's `content` setting (`"all"` in a build without HTML).
pub(super) fn content_name(h: &SimHasher) -> &'static str {
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
    Error::option(argument, describe(got), expected).into()
}

/// A JS value as a message shows it, as JS writes it: `"text"`, `7`, `NaN`, `-1n`, `null`,
/// `undefined`, `[1,2]`, `{"a":1}`, `a Map`, `a function`; cut at 80 characters. Never
/// Rust's debug form. The same rules as `describe` in `pkg-template/web/args.js`, which
/// describes the values the JS layer checks, so a message reads the same from either side.
pub(super) fn describe(v: &JsValue) -> String {
    let string = |s: js_sys::JsString| String::from(s);
    let mut s = if let Some(text) = v.as_string() {
        js_sys::JSON::stringify(v).ok().map(string).unwrap_or(text)
    } else if let Some(b) = v.dyn_ref::<js_sys::BigInt>() {
        b.to_string(10).map(|d| format!("{}n", String::from(d))).unwrap_or_else(|_| "a bigint".into())
    } else if v.is_function() {
        "a function".into()
    } else if v.is_symbol() {
        "a symbol".into()
    } else if v.is_null() {
        "null".into()
    } else if v.is_undefined() {
        "undefined".into()
    } else if let Some(b) = v.as_bool() {
        b.to_string()
    } else if let Some(x) = v.as_f64() {
        // As `String(x)` writes it: `NaN`, `Infinity`, `1e+21`.
        js_sys::Number::from(x).to_string_with_radix(10).map(string).unwrap_or_default()
    } else {
        let proto = js_sys::Object::get_prototype_of(v);
        if js_sys::Array::is_array(v)
            || proto.is_null()
            || proto == js_sys::Object::get_prototype_of(&js_sys::Object::new())
        {
            let json = js_sys::JSON::stringify(v).ok().map(string);
            json.unwrap_or_else(|| {
                if js_sys::Array::is_array(v) {
                    "an array".into()
                } else {
                    "an object".into()
                }
            })
        } else {
            let ctor = Reflect::get(v, &"constructor".into()).ok();
            let name = ctor.and_then(|c| Reflect::get(&c, &"name".into()).ok()).and_then(|n| n.as_string());
            let name = name.filter(|n| !n.is_empty()).unwrap_or_else(|| "Object".into());
            let article = if name.starts_with(['A', 'E', 'I', 'O']) { "an" } else { "a" };
            format!("{article} {name}")
        }
    };
    // Cut as `s.slice(0, 79) + '…'` cuts: at 79 UTF-16 units, when longer than 80.
    if s.encode_utf16().count() > 80 {
        let (mut units, mut end) = (0, 0);
        for c in s.chars() {
            if units + c.len_utf16() > 79 {
                break;
            }
            units += c.len_utf16();
            end += c.len_utf8();
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
/// (`pkg-template/web/args.js`). Not part of the public API.
#[wasm_bindgen(js_name = __utf8, skip_typescript)]
pub fn utf8(bytes: &[u8]) -> Result<String, JsValue> {
    Ok(crate::error::utf8(bytes)?.to_owned())
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
            return Err(
                Error::option("options", format!("{{ {key}: … }}"), format!("only the keys {keys}")).into()
            );
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
        Some(x) => Err(Error::option(key, crate::error::number(x), "a non-negative whole number").into()),
    }
}

/// The fingerprint options of an option object (whose keys were checked already).
pub(super) fn options_from(o: &Option<Object>) -> Result<Options, JsValue> {
    Ok(Options::from_names(
        opt_string(o, "mode")?.as_deref(),
        opt_number(o, "ngram")?,
        opt_string(o, "weighting")?.as_deref(),
        opt_string(o, "punctuation")?.as_deref(),
        opt_bool(o, "nfkc")?,
        opt_bool(o, "lowercase")?,
    )?)
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
    Ok(Layout::from_options(
        l.name.as_deref(),
        l.widths.as_deref(),
        k,
        opt_number(o, "expectedSize")?,
        opt_number(o, "memoryBudget")?,
    )?)
}

// ---- results ----------------------------------------------------------------------------

#[wasm_bindgen]
extern "C" {
    /// `Reflect.set` imported without wasm-bindgen's exception wrapper (a closure and an
    /// `arguments` object a call): setting a property of a plain object made here cannot throw.
    #[wasm_bindgen(js_namespace = Reflect, js_name = set)]
    fn reflect_set(target: &Object, key: &JsValue, value: &JsValue) -> bool;
}

thread_local! {
    /// Property names as JS strings, made once each: a result object's names are the same
    /// few on every call, and decoding them from wasm memory each time cost more than the
    /// object. A list, not a map: it holds a few dozen names, and the browser build's size
    /// is budgeted.
    static NAMES: std::cell::RefCell<Vec<(&'static str, JsValue)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Sets `o[key] = value` (`key` one of the API's property names).
pub(super) fn set(o: &Object, key: &'static str, value: impl Into<JsValue>) {
    let value = value.into();
    NAMES.with(|names| {
        let mut names = names.borrow_mut();
        let i = names.iter().position(|&(k, _)| k == key).unwrap_or_else(|| {
            names.push((key, JsValue::from_str(key)));
            names.len() - 1
        });
        reflect_set(o, &names[i].1, &value);
    });
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
    set(&out, SimHasher::HTML, html);
    set(&out, "scheme", o.describe());
    out
}
