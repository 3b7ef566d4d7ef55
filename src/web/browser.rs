//! Thin wrappers over the browser APIs the page uses: the address bar, history, downloads and
//! the clipboard, animation frames. Each failure is swallowed into a `false`/`None`, never a panic.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The page's query string, with its `?`.
pub fn location_search() -> String {
    web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default()
}

/// The page's address without query or fragment.
pub fn location_base() -> String {
    web_sys::window()
        .and_then(|w| {
            let l = w.location();
            Some(format!("{}{}", l.origin().ok()?, l.pathname().ok()?))
        })
        .unwrap_or_default()
}

/// Writes `?query` to the address bar: a new history entry when `push`, else in place. Does
/// nothing when the address already says it.
pub fn write_url(query: &str, push: bool) {
    let target = format!("?{query}");
    if location_search() == target {
        return;
    }
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let null = wasm_bindgen::JsValue::NULL;
        let _ = if push {
            history.push_state_with_url(&null, "", Some(&target))
        } else {
            history.replace_state_with_url(&null, "", Some(&target))
        };
    }
}

/// Offers `href` (a data: or blob: URL) as a download named `filename`.
fn click_download(href: &str, filename: &str) -> bool {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return false;
    };
    let Ok(a) = document.create_element("a") else { return false };
    let a: web_sys::HtmlAnchorElement = a.unchecked_into();
    a.set_href(href);
    a.set_download(filename);
    a.click();
    true
}

/// Downloads `text` as a file.
pub fn download_text(filename: &str, mime: &str, text: &str) -> bool {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return false;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return false;
    };
    let ok = click_download(&url, filename);
    let _ = web_sys::Url::revoke_object_url(&url);
    ok
}

/// Downloads the canvas with `data-testid=testid` as a PNG, as drawn.
pub fn download_canvas_png(testid: &str, filename: &str) -> bool {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return false;
    };
    let Some(canvas) = document.query_selector(&format!("canvas[data-testid=\"{testid}\"]")).ok().flatten() else {
        return false;
    };
    let canvas: web_sys::HtmlCanvasElement = canvas.unchecked_into();
    match canvas.to_data_url_with_type("image/png") {
        Ok(url) => click_download(&url, filename),
        Err(_) => false,
    }
}

/// A `<canvas>` that is not in the page, to draw on before showing the result with
/// [`show_bitmap`].
pub fn offpage_canvas() -> Option<web_sys::HtmlCanvasElement> {
    let document = web_sys::window()?.document()?;
    document.create_element("canvas").ok()?.dyn_into().ok()
}

/// A copy of what `surface` shows now, once the browser has made it.
pub async fn snapshot(surface: &web_sys::HtmlCanvasElement) -> Option<web_sys::ImageBitmap> {
    let promise = web_sys::window()?.create_image_bitmap_with_html_canvas_element(surface).ok()?;
    wasm_bindgen_futures::JsFuture::from(promise).await.ok()?.dyn_into().ok()
}

/// Shows `bitmap` on `target`, a canvas in the page (its `bitmaprenderer` context, sized to the
/// bitmap). A canvas drawn with the 2D context is copied for the compositor again at every
/// frame that changes anything on the page; a transferred bitmap is handed over once.
pub fn show_bitmap(target: &web_sys::HtmlCanvasElement, bitmap: &web_sys::ImageBitmap) -> bool {
    let (width, height) = (bitmap.width(), bitmap.height());
    if target.width() != width {
        target.set_width(width);
    }
    if target.height() != height {
        target.set_height(height);
    }
    let Some(context) = target
        .get_context("bitmaprenderer")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<web_sys::ImageBitmapRenderingContext>().ok())
    else {
        return false;
    };
    context.transfer_from_image_bitmap(bitmap);
    true
}

/// Puts `text` on the clipboard; `true` once the browser confirms it.
pub async fn copy_to_clipboard(text: String) -> bool {
    let Some(w) = web_sys::window() else { return false };
    wasm_bindgen_futures::JsFuture::from(w.navigator().clipboard().write_text(&text))
        .await
        .is_ok()
}

/// Runs `f` once `ms` milliseconds have passed (a timer task).
pub fn after_ms(ms: i32, f: impl FnOnce() + 'static) {
    after_ms_boxed(ms, Box::new(f));
}

/// [`after_ms`] for one type of callback (see [`after_next_paint_boxed`]).
fn after_ms_boxed(ms: i32, f: Box<dyn FnOnce()>) {
    let Some(window) = web_sys::window() else { return };
    let f = Closure::once_into_js(f);
    let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(f.unchecked_ref(), ms);
}

/// Runs `f` in a task of its own once the next frame has been painted, so what a change updates
/// first is on screen before slower work starts. Such tasks take turns ([`Turns`]): a frame is let
/// through whenever those run since the last one have taken [`TURN_BUDGET_MS`], so no frame has
/// to lay out and paint more than that much work, and a key pressed meanwhile is answered
/// between two of them.
pub fn after_next_paint(f: impl FnOnce() + 'static) {
    Turns::push(Box::new(f), false);
}

/// Runs `f` in a task of its own in the turns [`after_next_paint`] takes, without waiting for a
/// paint unless the work since the last one has used its budget (a chart's draw, a table's rows
/// off screen).
pub fn in_turn(f: impl FnOnce() + 'static) {
    Turns::push(Box::new(f), true);
}

/// How much of the work after a paint runs before the next frame is let through, in
/// milliseconds: the frame that follows lays out and paints what that work wrote, and a key
/// pressed while it does waits for it.
const TURN_BUDGET_MS: f64 = 5.0;

/// The work waiting for a paint (`next`) and the work let run since the last one (`now`), each in
/// a task of its own.
#[derive(Default)]
struct Turns {
    next: Vec<Box<dyn FnOnce()>>,
    now: std::collections::VecDeque<Box<dyn FnOnce()>>,
    /// A task or an animation frame is asked for.
    asked: bool,
    /// When the work since the last paint started.
    started: f64,
}

thread_local! {
    static TURNS: std::cell::RefCell<Turns> = std::cell::RefCell::default();
}

/// Milliseconds now (the clock's whole milliseconds are fine for a budget of a few: one import
/// where `performance.now` takes two).
fn now_ms() -> f64 {
    js_sys::Date::now()
}

impl Turns {
    fn push(f: Box<dyn FnOnce()>, this_turn: bool) {
        let start = TURNS.with_borrow_mut(|t| {
            if this_turn {
                t.now.push_back(f);
            } else {
                t.next.push(f);
            }
            !std::mem::replace(&mut t.asked, true)
        });
        if start {
            if this_turn {
                TURNS.with_borrow_mut(|t| t.started = now_ms());
                Self::ask_task();
            } else {
                Self::ask_frame();
            }
        }
    }

    /// A timer set from the next frame's animation callback: a second animation callback would
    /// hold that frame.
    fn ask_frame() {
        let Some(window) = web_sys::window() else { return };
        let frame = Closure::once_into_js(|| {
            after_ms_boxed(
                0,
                Box::new(|| {
                    TURNS.with_borrow_mut(|t| {
                        let waited = std::mem::take(&mut t.next);
                        t.now.extend(waited);
                        t.started = now_ms();
                    });
                    Self::run_one();
                }),
            );
        });
        let _ = window.request_animation_frame(frame.unchecked_ref());
    }

    fn ask_task() {
        after_ms_boxed(0, Box::new(Self::run_one));
    }

    /// Runs the next piece of work and asks for a task for the one after it; where the work since
    /// the last paint has spent the budget, asks for a paint first. The budget is read here, as a
    /// task starts, because a piece of work's effects run after it returns, in its microtasks.
    fn run_one() {
        let spent = TURNS.with_borrow(|t| now_ms() - t.started);
        if spent >= TURN_BUDGET_MS {
            Self::ask_frame();
            return;
        }
        if let Some(f) = TURNS.with_borrow_mut(|t| t.now.pop_front()) {
            f();
        }
        let (more_now, more_later) = TURNS.with_borrow(|t| (!t.now.is_empty(), !t.next.is_empty()));
        if more_now {
            Self::ask_task();
        } else if more_later {
            Self::ask_frame();
        } else {
            TURNS.with_borrow_mut(|t| t.asked = false);
        }
    }
}

/// Scrolls the first element `selector` finds to the top of the window where the page has
/// scrolled past its top; leaves the page where it is otherwise.
pub fn keep_in_view(selector: &str) {
    let Some(element) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(selector).ok().flatten())
    else {
        return;
    };
    if element.get_bounding_client_rect().top() < 0.0 {
        element.scroll_into_view();
    }
}

/// A ResizeObserver keeping a width (see [`follow_width`]), disconnected when dropped.
pub struct WidthWatch {
    observer: web_sys::ResizeObserver,
    _callback: Closure<dyn FnMut()>,
}

impl Drop for WidthWatch {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}

/// Keeps `width` at `element`'s CSS width (`clientWidth`) whenever its size changes. A
/// ResizeObserver's callback runs just after the frame's layout, so reading it there forces none.
pub fn follow_width(element: &web_sys::Element, width: std::rc::Rc<std::cell::Cell<i32>>) -> Option<WidthWatch> {
    let target = element.clone();
    let callback = Closure::<dyn FnMut()>::new(move || width.set(target.client_width()));
    let observer = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()).ok()?;
    observer.observe(element);
    Some(WidthWatch {
        observer,
        _callback: callback,
    })
}

/// In an embed: tells the page around the iframe how tall the embed's content is, now and
/// whenever it changes, as a message `{tokbound: "height", height}` (CSS pixels). The share
/// panel's snippet listens for it and sizes the iframe, so nothing is cut off at any width.
pub fn report_height_to_parent(selector: &str) {
    let Some(window) = web_sys::window() else { return };
    let Some(element) = window.document().and_then(|d| d.query_selector(selector).ok().flatten()) else {
        return;
    };
    let Ok(Some(parent)) = window.parent() else { return };
    let target = element.clone();
    let post = Closure::<dyn FnMut()>::new(move || {
        let rect = target.get_bounding_client_rect();
        let scroll = web_sys::window().map_or(0.0, |w| w.scroll_y().unwrap_or(0.0));
        let height = (rect.bottom() + scroll).ceil() + 2.0;
        let message = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&message, &"tokbound".into(), &"height".into());
        let _ = js_sys::Reflect::set(&message, &"height".into(), &height.into());
        let _ = parent.post_message(&message, "*");
    });
    if let Ok(observer) = web_sys::ResizeObserver::new(post.as_ref().unchecked_ref()) {
        observer.observe(&element);
        // The observer lives as long as the page.
        std::mem::forget(observer);
    }
    post.forget();
}

/// The GPU's name as WebGL reports it (its unmasked renderer where the browser allows), or
/// `None` without WebGL. Read through plain property lookups: the page needs no WebGL bindings
/// for one string.
pub fn gpu_renderer() -> Option<String> {
    use js_sys::{Function, Reflect};
    let canvas = web_sys::window()?.document()?.create_element("canvas").ok()?;
    let call = |target: &JsValue, name: &str, arg: &JsValue| -> Option<JsValue> {
        let f: Function = Reflect::get(target, &name.into()).ok()?.dyn_into().ok()?;
        f.call1(target, arg).ok().filter(|v| !v.is_null() && !v.is_undefined())
    };
    let gl = call(&canvas, "getContext", &"webgl".into())?;
    // WEBGL_debug_renderer_info's UNMASKED_RENDERER_WEBGL, else the plain RENDERER.
    let id = if call(&gl, "getExtension", &"WEBGL_debug_renderer_info".into()).is_some() {
        0x9246
    } else {
        0x1F01
    };
    call(&gl, "getParameter", &JsValue::from(id))?.as_string()
}
