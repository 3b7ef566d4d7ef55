//! Browser tests: components mounted in real headless Chromium (wasm-bindgen-test).
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn mount_app() -> web_sys::Element {
    let document = web_sys::window().unwrap().document().unwrap();
    let host = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&host).unwrap();
    let handle = leptos::mount::mount_to(host.clone().unchecked_into(), tokbound::components::app::App);
    handle.forget();
    host
}

fn by_testid(host: &web_sys::Element, id: &str) -> web_sys::Element {
    host.query_selector(&format!("[data-testid=\"{id}\"]"))
        .unwrap()
        .unwrap_or_else(|| panic!("no element {id}"))
}

#[wasm_bindgen_test]
fn the_app_shows_the_default_ceiling() {
    let host = mount_app();
    let text = by_testid(&host, "ceiling").text_content().unwrap();
    assert!(text.ends_with("tok/s"), "{text}");
    let value: f64 = text.split(' ').next().unwrap().parse().unwrap();
    assert!(value > 1.0, "{text}");
}
