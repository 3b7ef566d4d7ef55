//! A user's GGUF file, config.json, calibration paste or run to diagnose is parsed in a Web Worker
//! (public/parse-worker.js), so a hostile or huge input never holds the page's thread: the page
//! keeps answering keystrokes while it is read, shows how far the reading has got, and can stop
//! it.
//!
//! The worker runs the page's own WebAssembly module (the same glue and `.wasm` files, from the
//! browser's cache): [`start`](crate::web::start::start) mounts nothing where there is no window,
//! and the `worker_*` functions below are what the worker calls. An import comes back as its
//! query string ([`Imported::to_query`](crate::report::imported::Imported::to_query)), the form a link already carries exactly; a fit as the
//! text the page shows ([`Shown`](crate::report::calibrate::Shown)). The readers themselves are in
//! [`tools`], a part of the module of its own where the page is split.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::web::tools;

/// An answer of the readers' part, or `["error", why]` when the part could not be fetched.
fn answer(result: Result<Vec<String>, tools::Unloaded>) -> Vec<String> {
    result.unwrap_or_else(|e| vec!["error".to_string(), e.to_string()])
}

/// In the worker: the header in the first `prefix.len()` bytes of a `size`-byte GGUF file.
/// `["need", n]` asks for the first `n` bytes instead (at least double, at most the file).
#[wasm_bindgen]
pub async fn worker_import_gguf(prefix: Vec<u8>, size: f64) -> Vec<String> {
    answer(crate::in_part!(tools::gguf_reply(prefix, size)))
}

/// In the worker: a pasted or chosen config.json.
#[wasm_bindgen]
pub async fn worker_import_config(text: String) -> Vec<String> {
    answer(crate::in_part!(tools::config_reply(text)))
}

/// In the worker: a calibration paste fitted for the scenario `query` (the page's own), as the
/// page shows it: `["ok", parts of [`calibrate::Shown`]…]` or `["error", message]`.
#[wasm_bindgen]
pub async fn worker_calibrate(paste: String, query: String) -> Vec<String> {
    answer_later(crate::in_part!(tools::calibrate_reply(paste, query))).await
}

/// [`answer`] for an answer the readers' part works out later: the long tails of GPUs and CPUs the
/// scenario names, which the worker's module (starting with the first part's catalog) fetches for
/// itself, come first.
async fn answer_later(result: Result<tools::Later, tools::Unloaded>) -> Vec<String> {
    match result {
        Ok(later) => later.await,
        Err(e) => answer(Err(e)),
    }
}

/// In the worker: a run to diagnose against the scenario `query` (the page's own):
/// `["ok", parts of [`Diagnosis::to_parts`](crate::report::diagnose::Diagnosis::to_parts)…]` or
/// `["error", message]`.
#[wasm_bindgen]
pub async fn worker_diagnose(paste: String, query: String) -> Vec<String> {
    answer_later(crate::in_part!(tools::diagnose_reply(paste, query))).await
}

/// What the page hands the worker.
pub enum Request {
    Gguf(web_sys::File),
    Config(String),
    /// A calibration paste, and the scenario it is fitted for as a query string.
    Calibrate {
        paste: String,
        query: String,
    },
    /// A run to diagnose, and the scenario it is set against as a query string.
    Diagnose {
        paste: String,
        query: String,
    },
}

/// What the worker says.
pub enum Reply {
    /// Bytes of the file read so far.
    Progress(f64),
    /// The answer after "ok" (an import: its query, then the lines that describe it; a fit: the
    /// parts of [`calibrate::Shown`]), or why there is none.
    Done(Result<Vec<String>, String>),
}

/// A running import: the worker stops when this is dropped (done, cancelled, or replaced).
pub struct Job {
    worker: web_sys::Worker,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

impl Drop for Job {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// The `href` of the first element `selector` names.
fn href(document: &web_sys::Document, selector: &str) -> Option<String> {
    document.query_selector(selector).ok()??.get_attribute("href")
}

/// The module's glue and `.wasm` as the page loaded them (Trunk's preload links).
fn module_urls() -> Option<(String, String)> {
    let document = web_sys::window()?.document()?;
    Some((
        href(&document, "link[rel=modulepreload][href*='tokbound-web-']")?,
        href(&document, "link[rel=preload][type='application/wasm']")?,
    ))
}

/// Reads one message of the worker (`{progress}`, `{reply: [...]}` or `{failed}`).
fn read_reply(data: &JsValue) -> Reply {
    let field = |name: &str| js_sys::Reflect::get(data, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED);
    if let Some(bytes) = field("progress").as_f64() {
        return Reply::Progress(bytes);
    }
    if let Some(failed) = field("failed").as_string() {
        return Reply::Done(Err(format!("the import stopped: {failed}")));
    }
    let parts: Vec<String> = js_sys::Array::from(&field("reply")).iter().filter_map(|v| v.as_string()).collect();
    match parts.split_first() {
        Some((status, rest)) if status == "ok" && !rest.is_empty() => Reply::Done(Ok(rest.to_vec())),
        Some((status, rest)) if status == "error" => Reply::Done(Err(rest.join(" "))),
        _ => Reply::Done(Err("the parse worker gave an answer this page does not know".into())),
    }
}

/// Starts a worker on `request`; its messages go to `on_reply`. An error when the browser will
/// not start it (the page and every input stay as they are).
pub fn start(request: Request, on_reply: impl Fn(Reply) + 'static) -> Result<Job, String> {
    let (glue, wasm) = module_urls().ok_or("the page's module could not be found for the parse worker")?;
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let worker = web_sys::Worker::new_with_options("./parse-worker.js", &options)
        .map_err(|_| "this browser would not start the parse worker".to_string())?;
    let on_reply = std::rc::Rc::new(on_reply);
    let on_message = {
        let on_reply = on_reply.clone();
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| on_reply(read_reply(&ev.data())))
    };
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
        let message = ev
            .dyn_ref::<web_sys::ErrorEvent>()
            .map(|e| e.message())
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| "the parse worker could not load".into());
        on_reply(Reply::Done(Err(message)));
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    let message = js_sys::Object::new();
    let set = |k: &str, v: &JsValue| js_sys::Reflect::set(&message, &JsValue::from_str(k), v).is_ok();
    let sent = set("glue", &JsValue::from_str(&glue))
        && set("wasm", &JsValue::from_str(&wasm))
        && match &request {
            Request::Gguf(file) => set("file", file),
            Request::Config(text) => set("text", &JsValue::from_str(text)),
            Request::Calibrate { paste, query } => set("paste", &JsValue::from_str(paste)) && set("query", &JsValue::from_str(query)),
            Request::Diagnose { paste, query } => set("diagnose", &JsValue::from_str(paste)) && set("query", &JsValue::from_str(query)),
        };
    if !sent || worker.post_message(&message).is_err() {
        worker.terminate();
        return Err("the import could not be handed to its worker".into());
    }
    Ok(Job {
        worker,
        _on_message: on_message,
        _on_error: on_error,
    })
}
