//! `ContentSeen`, a crawler's content-seen test (Cargo feature `crawler`; without it, the
//! same names throw `FeatureDisabled`).

// The options of `RedisContentSeen` are ContentSeen's (`store.rs`).
#[cfg(feature = "redis")]
pub(super) use on::seen_config_fields;

#[cfg(feature = "crawler")]
mod on {
    use js_sys::{Array, Object};
    use wasm_bindgen::prelude::*;

    use super::super::convert::{
        self, big, field, layout_from, opt_bool, opt_number, opt_whole_option, option_object, options_from,
        options_to_js, set,
    };
    use super::super::index::matches_to_js;
    use crate::fingerprint::{Options, SimHasher};
    use crate::seen::{Check, ContentSeen, SeenConfig};

    fn seen_config_from(options: &JsValue) -> Result<Option<SeenConfig>, JsValue> {
        let o = option_object(options, &[&SeenConfig::NAMES, &Options::NAMES], "{ k: 3, html: true }")?;
        if o.is_none() {
            return Ok(None);
        }
        seen_config_fields(&o, SeenConfig::default(), crate::sketch::MAX_SIZE).map(Some)
    }

    /// The ContentSeen keys of an option object whose keys were checked already, over the
    /// defaults `d`. `sketch` is `true` (the default sketch), `false` or a size in bytes, at
    /// most `max_sketch`.
    pub(crate) fn seen_config_fields(
        o: &Option<Object>,
        d: SeenConfig,
        max_sketch: usize,
    ) -> Result<SeenConfig, JsValue> {
        let k = opt_whole_option(o, "k")?.unwrap_or(d.k);
        // No `layout` key: the default for k when creating, "whatever was stored" when loading.
        let layout = if field(o, "layout").is_undefined() { None } else { Some(layout_from(o, Some(k))?) };
        let html = opt_bool(o, SimHasher::HTML)?.unwrap_or(d.html);
        // `true` is the default sketch (128 bytes), `false` none, a number its size in bytes.
        let v = field(o, "sketch");
        let off = v.as_bool() == Some(false);
        let sketch = if v.is_undefined() {
            d.sketch
        } else if v.as_bool().is_some() || v.as_f64().is_some() {
            SeenConfig::sketch_up_to(off, v.as_f64(), max_sketch)?
        } else {
            return Err(convert::bad_argument("sketch", "true, false or a size in bytes, like 128", &v));
        };
        let threshold = opt_number(o, "threshold")?.unwrap_or(d.threshold);
        let content = match convert::opt_string(o, SimHasher::CONTENT)? {
            Some(name) => crate::html::Content::from_name(&name)?,
            None => d.content,
        };
        let v = field(o, "template");
        let template = if v.is_undefined() || v.as_bool() == Some(true) {
            d.template
        } else if v.as_bool() == Some(false) {
            0
        } else {
            match opt_whole_option(o, "template")? {
                Some(n) => n,
                None => {
                    return Err(convert::bad_argument(
                        "template",
                        "true, false or a number of pages, like 3",
                        &v,
                    ))
                }
            }
        };
        Ok(SeenConfig { k, layout, options: options_from(o)?, html, content, sketch, threshold, template })
    }

    /// `content`, `sketch` (the size in bytes, or `false` for the fingerprint-only test) and
    /// `threshold` (unused without a sketch) of a ContentSeen's settings.
    fn set_sketch_settings(o: &Object, c: &SeenConfig) {
        set(o, SimHasher::CONTENT, c.content.name());
        set(o, "sketch", c.sketch.map_or(JsValue::FALSE, |s| JsValue::from(s.size() as u32)));
        set(o, "threshold", c.threshold);
        set(o, "template", if c.learns_template() { JsValue::from(c.template) } else { JsValue::FALSE });
    }

    fn check_to_js(c: &Check) -> JsValue {
        let o = Object::new();
        set(&o, "duplicate", c.duplicate);
        set(&o, "empty", c.empty);
        set(&o, "matches", matches_to_js(&c.matches));
        // A page with no content has no fingerprint and joins no cluster: null, not 0n or "".
        set(&o, "fingerprint", if c.empty { JsValue::NULL } else { big(c.fingerprint) });
        set(&o, "cluster", if c.empty { JsValue::NULL } else { c.cluster.as_str().into() });
        set(&o, "count", c.count as f64);
        // The best match's distance and estimated Jaccard (null when none or no sketch), and
        // the page's own sketch bytes (null in the fingerprint-only test).
        set(&o, "distance", c.distance.map_or(JsValue::NULL, JsValue::from));
        set(&o, "estimate", c.estimate.map_or(JsValue::NULL, JsValue::from));
        set(
            &o,
            "sketch",
            c.sketch.as_ref().map_or(JsValue::NULL, |s| js_sys::Uint8Array::from(&s.to_bytes()[..]).into()),
        );
        o.into()
    }

    /// A crawler's content-seen test: `check(url, htmlOrText)` says whether a near-duplicate
    /// is known, stores new pages, and counts duplicates (which are not stored).
    #[wasm_bindgen(js_name = ContentSeen)]
    pub struct JsContentSeen(ContentSeen);

    #[wasm_bindgen(js_class = ContentSeen)]
    impl JsContentSeen {
        /// `new ContentSeen({ k: 3, layout, html: false, ngram, mode, weighting, punctuation, nfkc, lowercase })`
        #[wasm_bindgen(constructor)]
        pub fn new(options: JsValue) -> Result<JsContentSeen, JsValue> {
            let config = seen_config_from(&options)?.unwrap_or_default();
            Ok(JsContentSeen(ContentSeen::new(config)?))
        }

        /// `{ duplicate, empty, matches: [{ id, distance }], fingerprint, cluster, count,
        /// distance, estimate, sketch }`; a page with no content is `empty: true`, not stored.
        pub fn check(&mut self, url: &str, text: &str) -> Result<JsValue, JsValue> {
            Ok(check_to_js(&self.0.check(url, text)?))
        }

        /// `check` of a text given as UTF-8 bytes, read in place (validated as `__utf8`
        /// validates them): the JS layer calls it for a `Uint8Array`, which would otherwise
        /// be decoded to a JS string and encoded back. Not part of the public API.
        #[wasm_bindgen(js_name = __checkBytes, skip_typescript)]
        pub fn check_bytes(&mut self, url: &str, bytes: &[u8]) -> Result<JsValue, JsValue> {
            Ok(check_to_js(&self.0.check(url, crate::error::utf8(bytes)?)?))
        }

        /// `check` for a fingerprint made elsewhere with the same settings.
        #[wasm_bindgen(js_name = checkFingerprint)]
        pub fn check_fingerprint(&mut self, url: &str, fingerprint: u64) -> JsValue {
            check_to_js(&self.0.check_fingerprint(url, fingerprint))
        }

        /// The fingerprint with this test's settings, nothing stored.
        pub fn fingerprint(&mut self, text: &str) -> Result<u64, JsValue> {
            Ok(self.0.fingerprint(text)?)
        }

        /// `fingerprint` of a text given as UTF-8 bytes, read in place, as `__checkBytes`.
        /// Not part of the public API.
        #[wasm_bindgen(js_name = __fingerprintBytes, skip_typescript)]
        pub fn fingerprint_bytes(&mut self, bytes: &[u8]) -> Result<u64, JsValue> {
            Ok(self.0.fingerprint(crate::error::utf8(bytes)?)?)
        }

        /// How many times the content of `url` was seen, or `undefined` for an unknown URL.
        pub fn count(&self, url: &str) -> Option<f64> {
            self.0.count(url).map(|n| n as f64)
        }

        /// The stored page `url` is counted under, or `undefined`.
        #[wasm_bindgen(js_name = clusterOf)]
        pub fn cluster_of(&self, url: &str) -> Option<String> {
            self.0.cluster_of(url).map(str::to_owned)
        }

        /// `[{ id, fingerprint, count, duplicates: [url] }]`, most seen first.
        pub fn clusters(&self) -> JsValue {
            self.0
                .clusters()
                .iter()
                .map(|p| {
                    let o = Object::new();
                    set(&o, "id", p.id.as_str());
                    set(&o, "fingerprint", big(p.fingerprint));
                    set(&o, "count", p.count as f64);
                    set(
                        &o,
                        "duplicates",
                        p.duplicates.iter().map(|d| JsValue::from(d.as_str())).collect::<Array>(),
                    );
                    JsValue::from(o)
                })
                .collect::<Array>()
                .into()
        }

        /// Number of stored (distinct) pages.
        #[wasm_bindgen(getter)]
        pub fn size(&self) -> f64 {
            self.0.len() as f64
        }

        /// The settings: hasher options plus `k`, `layout`, `content`, `sketch` and `threshold`.
        pub fn options(&self) -> JsValue {
            let c = self.0.config();
            let o = options_to_js(&c.options, c.html);
            set(&o, "k", c.k);
            set(&o, "layout", c.layout.as_ref().map(|l| l.to_string()).unwrap_or_default());
            set_sketch_settings(&o, c);
            o.into()
        }

        /// A snapshot: index, counts, duplicate URLs, settings.
        #[wasm_bindgen(js_name = toBytes)]
        pub fn to_bytes(&self) -> Vec<u8> {
            self.0.to_bytes()
        }

        /// Loads a snapshot; with `options`, one made with other settings throws `SchemeMismatch`.
        #[wasm_bindgen(js_name = fromBytes)]
        pub fn from_bytes(bytes: &[u8], options: JsValue) -> Result<JsContentSeen, JsValue> {
            let expected = seen_config_from(&options)?;
            Ok(JsContentSeen(ContentSeen::from_bytes(bytes, expected.as_ref())?))
        }
    }
}

#[cfg(not(feature = "crawler"))]
mod off {
    use wasm_bindgen::prelude::*;

    use crate::error::Error;

    fn disabled(what: &'static str) -> JsValue {
        Error::FeatureDisabled { feature: "crawler", what }.into()
    }

    /// Not in this build (Cargo feature `crawler`): the constructor throws `FeatureDisabled`.
    #[wasm_bindgen(js_name = ContentSeen)]
    pub struct JsContentSeen;

    #[wasm_bindgen(js_class = ContentSeen)]
    impl JsContentSeen {
        /// Throws `FeatureDisabled`.
        #[wasm_bindgen(constructor)]
        pub fn new(_options: JsValue) -> Result<JsContentSeen, JsValue> {
            Err(disabled("ContentSeen"))
        }

        /// Throws `FeatureDisabled`.
        #[wasm_bindgen(js_name = fromBytes)]
        pub fn from_bytes(_bytes: JsValue, _options: JsValue) -> Result<JsContentSeen, JsValue> {
            Err(disabled("ContentSeen"))
        }
    }
}
