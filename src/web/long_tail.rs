//! Fetching the long tails of the catalog once each, when something needs them: the long tail
//! of GPUs (`gpus-longtail.txt` beside the page, build.rs's copy of data/gpus-longtail.csv) for a
//! link naming a long-tail card or `machines=all` (before the app mounts), a machine search or
//! the GPU guess that the curated catalog misses; the long tail of CPUs (`cpus-longtail.txt`, the
//! CPUs no machine names) for a link naming one of them, a machine search, or the CPU select.
//! Never part of the first view: where the page is split, only the app's part fetches them, and
//! the code that reads the GPUs is a part of its own (`tail`). The parse worker fetches those its
//! scenario names for itself ([`ready_for`]), as its module starts with the first part's catalog.

use std::cell::RefCell;

use wasm_bindgen::JsCast;

use crate::catalog::{cpus, long_tail};
use crate::web::parts::Unloaded;

/// A long tail of the catalog, fetched on demand.
#[derive(Clone, Copy)]
pub enum Tail {
    Gpus,
    Cpus,
}

impl Tail {
    /// The file the build puts beside the page (scripts/shell.sh, index.html).
    fn file(self) -> &'static str {
        match self {
            Tail::Gpus => "gpus-longtail.txt",
            Tail::Cpus => "cpus-longtail.txt",
        }
    }

    /// Whether it is in the catalog.
    pub fn loaded(self) -> bool {
        match self {
            Tail::Gpus => long_tail::get().is_some(),
            Tail::Cpus => cpus::all_loaded(),
        }
    }
}

/// What waits for a long tail.
type Waiting = Vec<Box<dyn FnOnce()>>;

enum State {
    Idle,
    Loading(Waiting),
    /// Fetched and read, or failed: what asks now runs at once.
    Settled,
}

thread_local! {
    /// Per [`Tail`], in its order.
    static STATE: RefCell<[State; 2]> = const { RefCell::new([State::Idle, State::Idle]) };
}

/// Runs `then` once `tail` is in the catalog (or could not be fetched), fetching it on the first
/// call.
pub fn request(tail: Tail, then: impl FnOnce() + 'static) {
    request_boxed(tail, Box::new(then));
}

/// [`request`] in one copy for every caller's `then`.
fn request_boxed(tail: Tail, then: Box<dyn FnOnce()>) {
    let mut then = Some(then);
    let start = STATE.with_borrow_mut(|states| {
        let state = &mut states[tail as usize];
        match state {
            State::Settled => false,
            State::Loading(waiting) => {
                waiting.extend(then.take());
                false
            }
            State::Idle => {
                *state = State::Loading(then.take().into_iter().collect());
                true
            }
        }
    });
    if start {
        // The code that reads the GPUs is a part of the module of its own: fetched beside the file.
        if let Tail::Gpus = tail {
            wasm_bindgen_futures::spawn_local(async {
                let _ = crate::in_part!(reader());
            });
        }
        wasm_bindgen_futures::spawn_local(async move {
            let read = match (fetch(tail.file()).await, tail) {
                (Ok(text), Tail::Gpus) => crate::in_part!(read(text)).unwrap_or_else(|e| Err(e.to_string())),
                (Ok(text), Tail::Cpus) => cpus::load_long_tail(&text),
                (Err(e), _) => Err(e),
            };
            if let Err(e) = read {
                web_sys::console::warn_1(&format!("tokbound: {}: {e}", tail.file()).into());
            }
            let waiting = STATE.with_borrow_mut(|s| match std::mem::replace(&mut s[tail as usize], State::Settled) {
                State::Loading(w) => w,
                _ => Vec::new(),
            });
            waiting.into_iter().for_each(|f| f());
        });
    }
    if let Some(f) = then {
        f();
    }
}

/// Nothing: awaiting it fetches the part that reads the long tail ([`read`]).
#[cfg_attr(tokbound_split, wasm_split_helpers::wasm_split(tail, fallible))]
fn reader() -> Result<(), Unloaded> {
    Ok(())
}

/// Reads the fetched file into the catalog. Where the page is split, a part of the module of
/// its own (`tail`), which only a visit that needs the long tail fetches.
#[cfg_attr(tokbound_split, wasm_split_helpers::wasm_split(tail, fallible))]
fn read(text: String) -> Result<Result<(), String>, Unloaded> {
    Ok(long_tail::load(&text))
}

/// Runs `then` when the link can be read: at once, unless it names a long tail, which is fetched
/// first ([`crate::scenario::link::needs_long_tail`], [`crate::scenario::link::needs_cpu_long_tail`]).
pub fn when_link_ready(then: impl FnOnce() + 'static) {
    when_ready(needs(&crate::web::browser::location_search()), Box::new(then));
}

/// A promise that settles once the long tails the scenario `query` names are in the catalog (or
/// could not be fetched): the parse worker's module, which starts with the first part's catalog,
/// waits on it before it resolves the page's scenario ([`crate::web::tools::calibrate_reply`]).
pub fn ready_for(query: &str) -> js_sys::Promise {
    let needs = needs(query);
    js_sys::Promise::new(&mut |resolve, _| {
        when_ready(
            needs,
            Box::new(move || {
                let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
            }),
        );
    })
}

/// Runs `then` once the long tails `[gpus, cpus]` says are needed are in.
fn when_ready([gpus, cpus]: [bool; 2], then: Box<dyn FnOnce()>) {
    let then: Box<dyn FnOnce()> = if cpus {
        Box::new(move || request_boxed(Tail::Cpus, then))
    } else {
        then
    };
    if gpus {
        request_boxed(Tail::Gpus, then);
    } else {
        then();
    }
}

/// Whether the scenario `query` names the long tail of GPUs, and of CPUs.
fn needs(query: &str) -> [bool; 2] {
    let cat = crate::catalog::catalog();
    [
        crate::scenario::link::needs_long_tail(query, cat),
        crate::scenario::link::needs_cpu_long_tail(query, cat),
    ]
}

/// Whether the page's link names a long tail ([`when_link_ready`] fetches it first).
pub fn link_needs_it() -> bool {
    needs(&crate::web::browser::location_search()).contains(&true)
}

/// The text of `file`, beside the page (or beside the parse worker's script, which is too).
async fn fetch(file: &'static str) -> Result<String, String> {
    let request = match web_sys::window() {
        Some(window) => window.fetch_with_str(file),
        // The parse worker, which has no window.
        None => js_sys::global().unchecked_into::<web_sys::WorkerGlobalScope>().fetch_with_str(file),
    };
    let response: web_sys::Response = wasm_bindgen_futures::JsFuture::from(request)
        .await
        .map_err(|_| format!("{file} could not be fetched"))?
        .dyn_into()
        .map_err(|_| "not a response".to_string())?;
    if !response.ok() {
        return Err(format!("{file}: HTTP {}", response.status()));
    }
    let text = response.text().map_err(|_| "no body".to_string())?;
    wasm_bindgen_futures::JsFuture::from(text)
        .await
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(|| format!("{file} could not be read"))
}
