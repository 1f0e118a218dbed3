//! `IdfTable` (feature `crawler`; the small browser build has the same names throwing
//! `FeatureDisabled`) and the `idf` option of `SimHasher`.
//!
//! A hasher option cannot hold a reference to a wasm-bindgen object (reading one from a
//! `JsValue` takes it away from its JS owner), so every live table is kept in a registry
//! under a number, which the JS object carries (`__key`); the option reads the number and
//! the hasher takes its own `Arc` of the table as it is then.

#[cfg(not(feature = "crawler"))]
pub(super) use off::idf_option;
#[cfg(feature = "crawler")]
pub(super) use on::idf_option;

#[cfg(feature = "crawler")]
mod on {
    use std::cell::{Cell, RefCell};
    use std::collections::HashMap;
    use std::sync::Arc;

    use js_sys::{Object, Reflect};
    use wasm_bindgen::prelude::*;

    use super::super::convert::{bad_argument, field, option_object, options_from, set_reading, HASHER_KEYS};
    use crate::fingerprint::SimHasher;
    use crate::weight::IdfTable;

    thread_local! {
        static TABLES: RefCell<HashMap<u32, Arc<IdfTable>>> = RefCell::new(HashMap::new());
        static NEXT: Cell<u32> = const { Cell::new(1) };
    }

    const EXPECTED: &str = "an IdfTable (IdfTable.learn or IdfTable.fromBytes) that was not freed";

    /// The `idf` option of an option object: `undefined`, or a live `IdfTable`.
    pub(in super::super) fn idf_option(o: &Option<Object>) -> Result<Option<Arc<IdfTable>>, JsValue> {
        let v = field(o, SimHasher::IDF);
        if v.is_undefined() {
            return Ok(None);
        }
        let key = if v.is_object() {
            Reflect::get(&v, &"__key".into()).ok().and_then(|k| k.as_f64())
        } else {
            None
        };
        let table = key.and_then(|k| TABLES.with(|t| t.borrow().get(&(k as u32)).cloned()));
        table.map(Some).ok_or_else(|| bad_argument(SimHasher::IDF, EXPECTED, &v))
    }

    /// Inverse document frequencies learnt from a corpus, for `new SimHasher({ idf })`.
    #[wasm_bindgen(js_name = IdfTable)]
    pub struct JsIdfTable {
        key: u32,
    }

    impl Drop for JsIdfTable {
        fn drop(&mut self) {
            TABLES.with(|t| t.borrow_mut().remove(&self.key));
        }
    }

    impl JsIdfTable {
        fn register(table: IdfTable) -> JsIdfTable {
            let key = NEXT.with(|n| {
                let k = n.get();
                n.set(k.wrapping_add(1).max(1));
                k
            });
            TABLES.with(|t| t.borrow_mut().insert(key, Arc::new(table)));
            JsIdfTable { key }
        }

        fn with<R>(&self, f: impl FnOnce(&IdfTable) -> R) -> R {
            TABLES.with(|t| f(&t.borrow()[&self.key]))
        }
    }

    /// A hasher for an option object of hasher options (no `idf`).
    fn hasher(options: &JsValue) -> Result<SimHasher, JsValue> {
        let o = option_object(options, &HASHER_KEYS, "{ ngram: 6 }")?;
        if !field(&o, SimHasher::IDF).is_undefined() {
            return Err(bad_argument(
                SimHasher::IDF,
                "nothing: a table is learnt without one",
                &field(&o, SimHasher::IDF),
            ));
        }
        let mut h = SimHasher::new(options_from(&o)?)?;
        set_reading(&mut h, &o)?;
        Ok(h)
    }

    #[wasm_bindgen(js_class = IdfTable)]
    impl JsIdfTable {
        /// An empty table (every idf is 1); `add` texts to it.
        #[wasm_bindgen(constructor)]
        pub fn new() -> JsIdfTable {
            JsIdfTable::register(IdfTable::new())
        }

        /// A table learnt from `texts`, cut into features with the hasher `options`.
        pub fn learn(texts: Vec<String>, options: JsValue) -> Result<JsIdfTable, JsValue> {
            let mut h = hasher(&options)?;
            let t = IdfTable::learn(&mut h, texts.iter().map(String::as_str))?;
            Ok(JsIdfTable::register(t))
        }

        /// Counts more documents; hashers made before keep the table as it was.
        pub fn add(&mut self, texts: Vec<String>, options: JsValue) -> Result<(), JsValue> {
            let mut h = hasher(&options)?;
            TABLES.with(|t| {
                let mut t = t.borrow_mut();
                let table = Arc::make_mut(t.get_mut(&self.key).expect("a live table"));
                Ok(table.add_texts(&mut h, texts.iter().map(String::as_str))?)
            })
        }

        /// The table as bytes (kind `IDF`, versioned and checksummed).
        #[wasm_bindgen(js_name = toBytes)]
        pub fn to_bytes(&self) -> Vec<u8> {
            self.with(IdfTable::to_bytes)
        }

        /// Loads `toBytes` output; damaged or foreign bytes throw `Corrupt`.
        #[wasm_bindgen(js_name = fromBytes)]
        pub fn from_bytes(bytes: &[u8]) -> Result<JsIdfTable, JsValue> {
            Ok(JsIdfTable::register(IdfTable::from_bytes(bytes)?))
        }

        /// Documents learnt from.
        #[wasm_bindgen(getter)]
        pub fn documents(&self) -> f64 {
            self.with(|t| t.documents() as f64)
        }

        /// Distinct features seen.
        #[wasm_bindgen(getter)]
        pub fn size(&self) -> f64 {
            self.with(|t| t.len() as f64)
        }

        /// The document frequency of a feature hash (as `explain` shows it).
        pub fn df(&self, hash: u64) -> u32 {
            self.with(|t| t.df(hash))
        }

        /// The idf of a feature hash: `1 + ln((1 + documents) / (1 + df))`.
        pub fn idf(&self, hash: u64) -> f64 {
            self.with(|t| t.idf(hash))
        }

        /// The registry key the `idf` option reads; not part of the public API.
        #[wasm_bindgen(getter, js_name = __key, skip_typescript)]
        pub fn key(&self) -> u32 {
            self.key
        }
    }
}

#[cfg(not(feature = "crawler"))]
mod off {
    use js_sys::Object;
    use wasm_bindgen::prelude::*;

    use super::super::convert::field;
    use crate::error::Error;
    use crate::fingerprint::SimHasher;
    use crate::weight::IdfTable;

    fn disabled(what: &'static str) -> JsValue {
        Error::FeatureDisabled { feature: "crawler", what }.into()
    }

    /// The `idf` option: not in this build.
    pub(in super::super) fn idf_option(
        o: &Option<Object>,
    ) -> Result<Option<std::sync::Arc<IdfTable>>, JsValue> {
        if field(o, SimHasher::IDF).is_undefined() {
            Ok(None)
        } else {
            Err(disabled("the SimHasher option `idf`"))
        }
    }

    /// Not in this build (Cargo feature `crawler`): throws `FeatureDisabled`.
    #[wasm_bindgen(js_name = IdfTable)]
    pub struct JsIdfTable;

    #[wasm_bindgen(js_class = IdfTable)]
    impl JsIdfTable {
        /// Throws `FeatureDisabled`.
        #[wasm_bindgen(constructor)]
        pub fn new() -> Result<JsIdfTable, JsValue> {
            Err(disabled("IdfTable"))
        }

        /// Throws `FeatureDisabled`.
        pub fn learn(_texts: JsValue, _options: JsValue) -> Result<JsIdfTable, JsValue> {
            Err(disabled("IdfTable"))
        }

        /// Throws `FeatureDisabled`.
        #[wasm_bindgen(js_name = fromBytes)]
        pub fn from_bytes(_bytes: JsValue) -> Result<JsIdfTable, JsValue> {
            Err(disabled("IdfTable"))
        }
    }
}
