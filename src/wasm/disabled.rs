//! What a build without the Cargo features `html` and `crawler` (the npm package's default
//! browser build, kept under 150 kB gzip) has instead: the same names, throwing a
//! `FeatureDisabled` error that says where the real ones are. Their arguments are
//! `JsValue`s, unread: no code to decode strings or bytes that are never used.

use wasm_bindgen::prelude::*;

use crate::error::Error;

/// Not in this build (Cargo feature `html`): throws `FeatureDisabled`.
#[cfg(not(feature = "html"))]
#[wasm_bindgen(js_name = htmlToText)]
pub fn html_to_text(_html: JsValue) -> Result<String, JsValue> {
    Err(Error::html_disabled().into())
}

#[cfg(not(feature = "crawler"))]
mod crawler {
    use super::super::index::JsIndex;
    use super::*;

    fn disabled(what: &'static str) -> JsValue {
        Error::FeatureDisabled { feature: "crawler", what }.into()
    }

    #[wasm_bindgen(js_class = SimHashIndex)]
    impl JsIndex {
        /// Not in this build (Cargo feature `crawler`): throws `FeatureDisabled`.
        #[wasm_bindgen(js_name = toBytes)]
        pub fn to_bytes(&self) -> Result<Vec<u8>, JsValue> {
            Err(disabled("SimHashIndex.toBytes"))
        }

        /// Not in this build (Cargo feature `crawler`): throws `FeatureDisabled`.
        #[wasm_bindgen(js_name = fromBytes)]
        pub fn from_bytes(_bytes: JsValue) -> Result<JsIndex, JsValue> {
            Err(disabled("SimHashIndex.fromBytes"))
        }

        /// Not in this build (Cargo feature `crawler`): throws `FeatureDisabled`.
        pub fn dedup(
            &mut self,
            _ids: JsValue,
            _texts: JsValue,
            _options: JsValue,
        ) -> Result<JsValue, JsValue> {
            Err(disabled("SimHashIndex.dedup"))
        }
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

    /// Not in this build (Cargo feature `crawler`): the constructor throws `FeatureDisabled`.
    #[wasm_bindgen(js_name = CompactSet)]
    pub struct JsCompactSet;

    #[wasm_bindgen(js_class = CompactSet)]
    impl JsCompactSet {
        /// Throws `FeatureDisabled`.
        #[wasm_bindgen(constructor)]
        pub fn new(_fingerprints: JsValue) -> Result<JsCompactSet, JsValue> {
            Err(disabled("CompactSet"))
        }

        /// Throws `FeatureDisabled`.
        #[wasm_bindgen(js_name = fromBytes)]
        pub fn from_bytes(_bytes: JsValue) -> Result<JsCompactSet, JsValue> {
            Err(disabled("CompactSet"))
        }
    }

    /// Not in this build (Cargo feature `crawler`): throws `FeatureDisabled`.
    #[wasm_bindgen]
    pub fn dedup(_ids: JsValue, _texts: JsValue, _options: JsValue) -> Result<JsValue, JsValue> {
        Err(disabled("dedup"))
    }
}
