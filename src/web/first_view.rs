//! The first view: the link's own ceiling, painted into index.html's frame before the rest of the
//! page arrives. It reads the link as the app does ([`crate::scenario::link::read`]) and writes
//! the headline's lines with [`crate::report::shell::headline`], the function that writes the
//! frame at build time, under the app's `ceiling` hook. No Leptos here: the components, tables,
//! charts and tools come after, and the app's headline replaces this one when it mounts.

use crate::report::shell::{self, Figures};

/// Writes the link's headline into the frame. Does nothing where there is no frame (the parse
/// worker, a test page) or when the link does not resolve, which the app then explains.
pub fn paint() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let found = |id: &str| document.query_selector(&format!("[data-testid={id}]")).ok().flatten();
    let (Some(figures), Some(computing)) = (found("shell-default"), found("shell-computing")) else {
        return;
    };
    let cat = crate::catalog::catalog();
    let (scenario, _) = crate::scenario::link::read(&crate::web::browser::location_search(), cat);
    if let Ok(html) = shell::headline(cat, &scenario, Figures::Live) {
        figures.set_inner_html(&html);
        let _ = figures.remove_attribute("hidden");
        let _ = computing.set_attribute("hidden", "");
    }
}

/// Whether the first view's ceiling is on the page (the app has not replaced the frame yet).
pub fn painted() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("#shell [data-testid=ceiling]").ok().flatten())
        .is_some()
}

/// Says, under the first view's headline, that the rest of the page could not be fetched
/// (`data-testid="part-error"`), with a link that loads the same link again. The headline and the
/// address bar keep the user's scenario.
pub fn part_failed() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Some(headline) = document.query_selector("#shell .headline").ok().flatten() else {
        return;
    };
    let build = || -> Option<web_sys::Element> {
        let line = document.create_element("p").ok()?;
        line.set_class_name("part-error");
        line.set_attribute("role", "alert").ok()?;
        line.set_attribute("data-testid", "part-error").ok()?;
        line.set_text_content(Some(
            "The rest of the page (the form, tables and charts) could not be loaded: offline, or the site changed since this page was opened. ",
        ));
        let again = document.create_element("a").ok()?;
        again.set_attribute("href", &crate::web::browser::location_search()).ok()?;
        again.set_text_content(Some("Load this link again"));
        line.append_child(&again).ok()?;
        Some(line)
    };
    if let Some(line) = build() {
        let _ = headline.append_child(&line);
    }
}
