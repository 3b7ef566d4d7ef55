//! Fetching the long tail of GPUs (`gpus-longtail.txt` beside the page, build.rs's copy of
//! data/gpus-longtail.csv) once, when something needs it: a link naming a long-tail card or
//! `machines=all` (before the app mounts), a machine search or the GPU guess that the curated
//! catalog misses. Never part of the first view: where the page is split, only the app's part
//! fetches it, and the code that reads it is a part of its own (`tail`).

use std::cell::RefCell;

use wasm_bindgen::JsCast;

use crate::catalog::long_tail;
use crate::web::parts::Unloaded;

/// The file the build puts beside the page (scripts/shell.sh, index.html).
const FILE: &str = "gpus-longtail.txt";

/// What waits for the long tail.
type Waiting = Vec<Box<dyn FnOnce()>>;

enum State {
    Idle,
    Loading(Waiting),
    /// Fetched and read, or failed: what asks now runs at once.
    Settled,
}

thread_local! {
    static STATE: RefCell<State> = const { RefCell::new(State::Idle) };
}

/// Whether the long tail is in the catalog.
pub fn loaded() -> bool {
    long_tail::get().is_some()
}

/// Runs `then` once the long tail is in the catalog (or could not be fetched), fetching it on the
/// first call.
pub fn request(then: impl FnOnce() + 'static) {
    request_boxed(Box::new(then));
}

/// [`request`] in one copy for every caller's `then`.
fn request_boxed(then: Box<dyn FnOnce()>) {
    let mut then = Some(then);
    let start = STATE.with_borrow_mut(|state| match state {
        State::Settled => false,
        State::Loading(waiting) => {
            waiting.extend(then.take());
            false
        }
        State::Idle => {
            *state = State::Loading(then.take().into_iter().collect());
            true
        }
    });
    if start {
        // The code that reads it is a part of the module of its own: fetched beside the file.
        wasm_bindgen_futures::spawn_local(async {
            let _ = crate::in_part!(reader());
        });
        wasm_bindgen_futures::spawn_local(async {
            let read = match fetch().await {
                Ok(text) => crate::in_part!(read(text)).unwrap_or_else(|e| Err(e.to_string())),
                Err(e) => Err(e),
            };
            if let Err(e) = read {
                web_sys::console::warn_1(&format!("tokbound: the long tail of GPUs: {e}").into());
            }
            let waiting = STATE.with_borrow_mut(|s| match std::mem::replace(s, State::Settled) {
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

/// Runs `then` when the link can be read: at once, unless it names the long tail, which is
/// fetched first ([`crate::scenario::link::needs_long_tail`]).
pub fn when_link_ready(then: impl FnOnce() + 'static) {
    if link_needs_it() {
        request(then);
    } else {
        then();
    }
}

/// Whether the page's link names the long tail ([`crate::scenario::link::needs_long_tail`]).
pub fn link_needs_it() -> bool {
    crate::scenario::link::needs_long_tail(&crate::web::browser::location_search(), crate::catalog::catalog())
}

/// The file's text.
async fn fetch() -> Result<String, String> {
    let window = web_sys::window().ok_or("no window")?;
    let response: web_sys::Response = wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(FILE))
        .await
        .map_err(|_| format!("{FILE} could not be fetched"))?
        .dyn_into()
        .map_err(|_| "not a response".to_string())?;
    if !response.ok() {
        return Err(format!("{FILE}: HTTP {}", response.status()));
    }
    let text = response.text().map_err(|_| "no body".to_string())?;
    wasm_bindgen_futures::JsFuture::from(text)
        .await
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(|| format!("{FILE} could not be read"))
}
