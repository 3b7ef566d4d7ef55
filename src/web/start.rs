//! Browser start-up: the panic hook, the first view, then the app.
//!
//! Where the release page's module is split in parts (`--cfg tokbound_split`, set by
//! scripts/webenv for `make dist`; [`crate::web::parts`]), this start-up, the link's reading and
//! the estimator are in the first part, which paints the link's ceiling ([`first_view`]); the
//! Leptos app is in the `app` part, asked for just before that ceiling is computed
//! ([`mount_app`] once it is in). Other builds (tests, lints) keep one module and mount at once.

use crate::web::{first_view, long_tail};

/// Installs the panic hook, paints the first view and mounts the app. In the parse worker, which
/// runs this same module, there is no window and nothing to paint or mount.
pub fn start() {
    std::panic::set_hook(Box::new(|info| show_panic(&info.to_string())));
    if web_sys::window().is_none() {
        return;
    }
    #[cfg(tokbound_split)]
    {
        // The app's part is asked for first, then the first view computed and painted while it
        // downloads: both run in this task's microtasks, before the browser's next frame.
        wasm_bindgen_futures::spawn_local(async {
            if app_part().await.is_err() {
                first_view::part_failed();
            }
        });
        // A link that names a card of the long tail of GPUs or a CPU of the long tail of CPUs
        // keeps "computing…" until the app's part has fetched that long tail and mounts: the code
        // that fetches and reads them stays out of the first part.
        wasm_bindgen_futures::spawn_local(async {
            if !long_tail::link_needs_it() {
                first_view::paint();
            }
        });
    }
    #[cfg(not(tokbound_split))]
    long_tail::when_link_ready(|| {
        first_view::paint();
        mount_app();
    });
}

/// The second part's entry: it loads the part, then mounts the app.
#[cfg(tokbound_split)]
#[wasm_split_helpers::wasm_split(app, fallible)]
fn app_part() -> Result<(), wasm_split_helpers::SplitLoaderError> {
    long_tail::when_link_ready(mount_app);
    Ok(())
}

/// Mounts [`crate::web::components::app::App`] on the page body and removes the frame.
fn mount_app() {
    leptos::prelude::mount_to_body(crate::web::components::app::App);
    // The frame index.html painted while the module loaded, and the first view's headline in it:
    // the app's own headline now stands in its place (removed in the same task, so no frame shows
    // both).
    if let Some(shell) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("shell"))
    {
        shell.remove();
    }
}

/// A panic stops the WebAssembly module for good, so instead of a frozen page this puts a
/// readable message over it (`data-testid="panic"`) with a link that resets the scenario and
/// one that reloads the same link. The message is set as text, never markup.
pub fn show_panic(message: &str) {
    web_sys::console::error_1(&format!("tokbound stopped: {message}").into());
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Some(body) = document.body() else { return };
    let build = || -> Option<web_sys::Element> {
        let panel = document.create_element("div").ok()?;
        panel.set_class_name("panic");
        panel.set_attribute("role", "alert").ok()?;
        panel.set_attribute("data-testid", "panic").ok()?;
        let title = document.create_element("h2").ok()?;
        title.set_text_content(Some("tokbound stopped with an internal error"));
        let text = document.create_element("p").ok()?;
        text.set_text_content(Some(
            "The page cannot continue. Your scenario is still in the address bar; the error was:",
        ));
        let detail = document.create_element("pre").ok()?;
        detail.set_text_content(Some(message));
        let reset = document.create_element("a").ok()?;
        reset.set_attribute("href", "./").ok()?;
        reset.set_attribute("data-testid", "panic-reset").ok()?;
        reset.set_text_content(Some("Reset the scenario"));
        let reload = document.create_element("a").ok()?;
        reload.set_attribute("href", &crate::web::browser::location_search()).ok()?;
        reload.set_text_content(Some("Reload this link"));
        for child in [&title, &text, &detail, &reset, &reload] {
            panel.append_child(child).ok()?;
        }
        Some(panel)
    };
    if let Some(panel) = build() {
        let _ = body.class_list().add_1("crashed");
        let _ = body.prepend_with_node_1(&panel);
    }
}
