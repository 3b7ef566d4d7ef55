//! Fetching the long tail of GPUs (`gpus-longtail.txt` beside the page, build.rs's copy of
//! data/gpus-longtail.csv) once, when something needs it: a link naming a long-tail card or
//! `machines=all` (before the first view is painted), a machine search or the GPU guess that the
//! curated catalog misses. Never part of the first view otherwise.

use std::cell::RefCell;

use wasm_bindgen::JsCast;

use crate::catalog::long_tail;

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
    let mut then: Option<Box<dyn FnOnce()>> = Some(Box::new(then));
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
        wasm_bindgen_futures::spawn_local(async {
            if let Err(e) = fetch().await.and_then(|text| long_tail::load(&text)) {
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

/// Runs `then` when the link can be read: at once, unless it names the long tail, which is
/// fetched first ([`crate::scenario::link::needs_long_tail`]).
pub fn when_link_ready(then: impl FnOnce() + 'static) {
    let query = crate::web::browser::location_search();
    if crate::scenario::link::needs_long_tail(&query, crate::catalog::catalog()) {
        request(then);
    } else {
        then();
    }
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
