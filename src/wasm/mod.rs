//! The JavaScript bindings: every function here converts types and maps errors, and
//! nothing else. Option names, defaults, validation and loops live in the core modules,
//! which never see a JS type.
//!
//! Conventions:
//! - Fingerprints are `u64` (JS `bigint`; batches `BigUint64Array`), texts `&str`, bytes
//!   `&[u8]`. wasm-bindgen's glue converts these without checking (a bigint out of range
//!   wraps, `null` as a text is a bare `TypeError`), so the package's JS layer checks them
//!   first, with one table (`pkg-template/web/args.js`), and throws the same `SimHashError`
//!   the core would. Taking them as `JsValue`s here instead cost 5 kB of the browser
//!   build's gzipped wasm, over its budget. Values the JS layer cannot judge (ids, option
//!   objects, feature lists) arrive as `JsValue`s and are checked in [`convert`].
//! - Option objects are camelCase; their keys are the core's lists (`Options::NAMES`,
//!   `DedupOptions::NAMES`, `PassageOptions::NAMES`, ...), and an unknown key throws.
//! - Every core [`Error`] becomes a thrown JS `Error` whose `name` is `"SimHashError"`,
//!   whose `code` is [`Error::code`], and whose message says what to fix; values in
//!   messages are written as JS writes them ([`convert::describe`]), never in Rust's
//!   debug form. The core never panics on input, so after any thrown error the instance
//!   keeps working.
//!
//! One file per JS class, each with its functions and its worker-pool hooks; what a
//! Cargo feature adds sits beside the stand-in that throws `FeatureDisabled` without it
//! (`on` / `off`, or `#[cfg]` on the item):
//!
//! | file | what |
//! | --- | --- |
//! | `mod.rs` | the allocator, the error class and panic hooks, the error mapping (`js_error`, `From<Error>`), test and benchmark hooks |
//! | `convert.rs` | option objects, ids and other `JsValue` arguments, results |
//! | `defaults.rs` | `defaults()`: every default, read from the core |
//! | `hasher.rs` | `SimHasher` (with `sketch`, `fingerprintAndSketch`, the pool's `__fingerprintEach`), `fromFeatures`, `simhashBits`, `hamming`, hex, `htmlToText`, `estimateJaccard`, `sketchInfo` |
//! | `idf.rs` | `IdfTable` and the `SimHasher` option `idf` (feature `crawler`) |
//! | `index.rs` | `SimHashIndex`, with its snapshots and `dedup` (feature `crawler`) |
//! | `compact.rs` | `CompactSet` (feature `crawler`), `huffmanTable` |
//! | `seen.rs` | `ContentSeen` (feature `crawler`) |
//! | `dedup.rs` | `dedup` and the worker pool's dedup hooks (feature `crawler`) |
//! | `passage.rs` | `PassageChecker` |
//! | `store.rs` | `RedisContentSeen`'s bindings (feature `redis`) |

use std::cell::RefCell;

use js_sys::{Array, Reflect};
use wasm_bindgen::prelude::*;

use crate::error::Error;
use crate::fingerprint::{self, Options};

mod compact;
mod convert;
mod dedup;
mod defaults;
mod hasher;
mod idf;
mod index;
mod passage;
mod seen;
// RedisContentSeen's bindings: Node only (redis.cjs is installed by the Node entry), so
// the browser builds leave them out (feature `redis`).
#[cfg(feature = "redis")]
mod redis;

#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

// The panic hook is in the full build only: the browser build's budget has no room for it
// (decision 103), and there the JS layer tells its stops apart by the memory held.
#[cfg(feature = "crawler")]
thread_local! {
    /// The message of the panic the instance stopped at, if it did. A stop with none is an
    /// allocation the allocator could not serve: Rust aborts there without a panic.
    static PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Why the instance stopped (a `RuntimeError` in JS, which says only `unreachable`): the
/// panic's message, or `undefined` when it ran out of memory. Not part of the public API.
#[cfg(feature = "crawler")]
#[wasm_bindgen(js_name = __panicMessage, skip_typescript)]
pub fn panic_message() -> Option<String> {
    PANIC.with(|p| p.borrow().clone())
}

/// Test hook, not part of the public API: reserves `bytes` (untouched, so no real memory)
/// and never frees them, to bring the instance to its memory's limit.
#[cfg(feature = "crawler")]
#[wasm_bindgen(js_name = __reserve, skip_typescript)]
pub fn reserve_for_test(bytes: u32) {
    std::mem::forget(Vec::<u8>::with_capacity(bytes as usize));
}

thread_local! {
    /// The package's `SimHashError` class, registered by the JS entry points at load time.
    static ERROR_CLASS: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
}

/// Registers the JS `SimHashError` class (`class SimHashError extends Error`, constructor
/// `(message, code)`) that every thrown error is an instance of, and the panic hook that
/// [`panic_message`] reads. Called once by the package's entry points; not part of the
/// public API.
#[wasm_bindgen(js_name = __setErrorClass, skip_typescript)]
pub fn set_error_class(class: js_sys::Function) {
    ERROR_CLASS.with(|c| *c.borrow_mut() = Some(class));
    #[cfg(feature = "crawler")]
    std::panic::set_hook(Box::new(|info| PANIC.with(|p| *p.borrow_mut() = Some(info.to_string()))));
}

/// Benchmark hook, not part of the public API: copies `texts` into wasm memory once, then
/// times `rounds` passes of the core's `fingerprint` over them, all inside wasm, and
/// returns the milliseconds. `npm run bench:fingerprint` compares it with
/// `fingerprintBatch` to isolate what the JS boundary costs.
#[wasm_bindgen(js_name = __benchCore, skip_typescript)]
pub fn bench_core(texts: Vec<String>, rounds: u32) -> Result<f64, JsValue> {
    let mut hasher = fingerprint::SimHasher::new(Options::default())?;
    let mut sink = 0u64;
    let start = js_sys::Date::now();
    for _ in 0..rounds {
        for t in &texts {
            sink ^= hasher.fingerprint(t).unwrap_or(0);
        }
    }
    std::hint::black_box(sink);
    Ok(js_sys::Date::now() - start)
}

/// [`Error::CODES`], every `code` a core error can have, for the test that checks the
/// typings' `SimHashErrorCode` against it. Not part of the public API.
#[wasm_bindgen(js_name = __errorCodes, skip_typescript)]
pub fn error_codes() -> Array {
    Error::CODES.iter().map(|c| JsValue::from_str(c)).collect()
}

/// The module's `WebAssembly.Memory`, for memory tests (release builds of the Node glue
/// do not expose it otherwise). Not part of the public API.
#[wasm_bindgen(js_name = __memory, skip_typescript)]
pub fn memory() -> JsValue {
    wasm_bindgen::memory()
}

/// What an npm user does about `e`, appended to the core's message (which speaks of Cargo
/// features, the Rust user's remedy): the package's builds are its features.
fn npm_advice(e: &Error) -> Option<&'static str> {
    match e {
        Error::FeatureDisabled { .. } => Some(
            "; from npm, import 'simhash-wasm/full' (the default browser build leaves it out to stay small)",
        ),
        Error::InDocument { error, .. } => npm_advice(error),
        _ => None,
    }
}

/// The message of `e` as a JS user reads it: the core's, with the npm advice.
fn js_message(e: &Error) -> String {
    let mut message = e.to_string();
    if let Some(advice) = npm_advice(e) {
        message.push_str(advice);
    }
    message
}

/// `?` on a core [`Result`](crate::Result) in a binding throws the error as
/// [`js_error`] makes it.
impl From<Error> for JsValue {
    fn from(e: Error) -> JsValue {
        js_error(e)
    }
}

/// A core error as the thrown JS value: an instance of the registered `SimHashError`
/// class, or (no class registered: the raw wasm-bindgen module used directly) a plain
/// `Error` named `SimHashError` with the same `code`. An error of one document of a list
/// carries its position as `index`.
fn js_error(e: Error) -> JsValue {
    let message = JsValue::from(js_message(&e));
    let code = JsValue::from(e.code());
    let index = match &e {
        Error::InDocument { index, .. } => JsValue::from(*index as u32),
        _ => JsValue::UNDEFINED,
    };
    let made = ERROR_CLASS.with(|c| {
        c.borrow()
            .as_ref()
            .and_then(|class| Reflect::construct(class, &Array::of3(&message, &code, &index)).ok())
    });
    if let Some(err) = made {
        return err;
    }
    let err = js_sys::Error::new(&message.as_string().unwrap_or_default());
    err.set_name("SimHashError");
    let _ = Reflect::set(&err, &"code".into(), &code);
    if !index.is_undefined() {
        let _ = Reflect::set(&err, &"index".into(), &index);
    }
    err.into()
}
