//! Browser tests: components mounted in real headless Chromium (wasm-bindgen-test).
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use tokbound::scenario::{Key, Scenario, Value};
use tokbound::web::components::number_field::NumberField;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn host() -> web_sys::HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let host: web_sys::HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&host).unwrap();
    host
}

fn by_testid(host: &web_sys::Element, id: &str) -> web_sys::Element {
    host.query_selector(&format!("[data-testid=\"{id}\"]"))
        .unwrap()
        .unwrap_or_else(|| panic!("no element {id}"))
}

fn type_into(input: &web_sys::Element, text: &str) {
    let input: &web_sys::HtmlInputElement = input.unchecked_ref();
    input.set_value(text);
    input.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
}

/// Lets Leptos run its scheduled effects and DOM updates.
async fn tick() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 20)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

/// Waits (up to two seconds) for an element the page mounts after its first paint.
async fn mounted(host: &web_sys::Element, id: &str) -> web_sys::Element {
    for _ in 0..100 {
        if let Some(e) = host.query_selector(&format!("[data-testid=\"{id}\"]")).unwrap() {
            return e;
        }
        tick().await;
    }
    panic!("{id} never mounted");
}

fn ceiling(host: &web_sys::Element) -> f64 {
    let text = by_testid(host, "ceiling").text_content().unwrap();
    assert!(text.ends_with(" tok/s"), "{text}");
    text.split(' ').next().unwrap().parse().unwrap()
}

#[wasm_bindgen_test]
async fn the_app_shows_the_default_ceiling_and_follows_the_context_field() {
    let host = host();
    leptos::mount::mount_to(host.clone(), tokbound::web::components::app::App).forget();
    tick().await;
    let first = ceiling(&host);
    assert!((45.0..55.0).contains(&first), "{first}");
    // The form mounts after the headline's first paint (app.rs, stages).
    type_into(&mounted(&host, "input-ctx").await, "131072");
    tick().await;
    let long = ceiling(&host);
    assert!(long < first, "{long} should be below {first}");
    let rows = mounted(&host, "comparison-table")
        .await
        .query_selector_all("tbody tr")
        .unwrap()
        .length();
    assert!(rows >= 100, "{rows} rows");
    for chart in [
        "chart-machines",
        "chart-context",
        "chart-quants",
        "chart-spill",
        "chart-batch",
        "chart-spec",
    ] {
        by_testid(&host, chart);
    }
}

#[wasm_bindgen_test]
async fn a_number_field_keeps_bad_text_and_the_last_good_value() {
    let host = host();
    let scenario = RwSignal::new(Scenario::default());
    let s = scenario;
    leptos::mount::mount_to(host.clone(), move || {
        provide_context(s);
        view! { <NumberField key=Key::Bw label="Bandwidth" testid="input-bw" placeholder="catalog".to_string() /> }
    })
    .forget();
    let input = by_testid(&host, "input-bw");
    type_into(&input, "800");
    tick().await;
    assert_eq!(scenario.get_untracked().number(Key::Bw), Some(800.0));
    type_into(&input, "abc");
    tick().await;
    assert_eq!(
        scenario.get_untracked().number(Key::Bw),
        Some(800.0),
        "a bad value does not replace the good one"
    );
    assert_eq!(input.unchecked_ref::<web_sys::HtmlInputElement>().value(), "abc");
    assert_eq!(
        by_testid(&host, "input-bw-error").text_content().unwrap(),
        "\"abc\" is not a number"
    );
    type_into(&input, "");
    tick().await;
    assert_eq!(
        scenario.get_untracked().number(Key::Bw),
        None,
        "an empty optional field means the default"
    );
    assert_eq!(by_testid(&host, "input-bw-error").text_content().unwrap(), "");
}

#[wasm_bindgen_test]
async fn a_field_follows_the_scenario_when_it_changes_elsewhere_without_remounting() {
    let host = host();
    let scenario = RwSignal::new(Scenario::default());
    let s = scenario;
    leptos::mount::mount_to(host.clone(), move || {
        provide_context(s);
        view! { <NumberField key=Key::Ctx label="Context" testid="input-ctx" /> }
    })
    .forget();
    let input = by_testid(&host, "input-ctx");
    let value = |i: &web_sys::Element| i.unchecked_ref::<web_sys::HtmlInputElement>().value();
    tick().await;
    assert_eq!(value(&input), "4096", "an unset key shows its default");
    // Typing keeps the typed form ("08192" reads as 8192) while it stands for the scenario's value.
    type_into(&input, "08192");
    tick().await;
    assert_eq!(scenario.get_untracked().whole(Key::Ctx), Some(8192));
    assert_eq!(value(&input), "08192");
    // A change from elsewhere (back/forward, the slider) replaces the text in the same element.
    scenario.update(|s| s.put(Key::Ctx, Value::Whole(32768)));
    tick().await;
    let same = by_testid(&host, "input-ctx");
    assert!(same.is_same_node(Some(&input)), "the field was not rebuilt");
    assert_eq!(value(&input), "32768");
    // Bad text stays with its message until the scenario moves on; then both give way.
    type_into(&input, "12q");
    tick().await;
    assert_eq!(value(&input), "12q");
    assert_eq!(
        by_testid(&host, "input-ctx-error").text_content().unwrap(),
        "\"12q\" is not a token count (4096, 32k, 128K or 1M)"
    );
    scenario.update(|s| s.put(Key::Ctx, Value::Whole(2048)));
    tick().await;
    assert_eq!(value(&input), "2048");
    assert_eq!(by_testid(&host, "input-ctx-error").text_content().unwrap(), "");
}

#[wasm_bindgen_test]
async fn a_panic_shows_a_readable_message_with_a_reset_link() {
    tokbound::web::start::show_panic("index out of bounds <img src=x onerror=alert(1)>");
    let document = web_sys::window().unwrap().document().unwrap();
    let panel = document.query_selector("[data-testid=panic]").unwrap().expect("the panic panel");
    let text = panel.text_content().unwrap();
    assert!(text.contains("tokbound stopped with an internal error"), "{text}");
    assert!(
        text.contains("index out of bounds <img src=x onerror=alert(1)>"),
        "the message is text: {text}"
    );
    assert!(panel.query_selector("img").unwrap().is_none(), "no markup from the message");
    let reset = document.query_selector("[data-testid=panic-reset]").unwrap().unwrap();
    assert_eq!(reset.get_attribute("href").as_deref(), Some("./"));
    assert!(document.body().unwrap().class_list().contains("crashed"));
    // Leave the page as the other tests expect it.
    panel.remove();
    document.body().unwrap().class_list().remove_1("crashed").unwrap();
}
