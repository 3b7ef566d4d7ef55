//! A button that copies a text to the clipboard and says whether it could.

use leptos::prelude::*;

use crate::web::browser;

/// "Copy" (`label`), then "Copied", or what to do where the browser refused.
#[component]
pub fn CopyButton(
    /// The `data-testid` of the button.
    testid: String,
    /// What it copies, read when it is pressed.
    text: Signal<String>,
    /// Its label before it is pressed.
    label: &'static str,
    /// What it says where copying failed ("Copy failed: select the text").
    failed: &'static str,
) -> impl IntoView {
    let (copied, set_copied) = signal(None::<bool>);
    view! {
        <button
            type="button"
            data-testid=testid
            on:click=move |_| {
                let t = text.get_untracked();
                wasm_bindgen_futures::spawn_local(async move {
                    set_copied.set(Some(browser::copy_to_clipboard(t).await));
                });
            }
        >
            {move || match copied.get() {
                Some(true) => "Copied",
                Some(false) => failed,
                None => label,
            }}
        </button>
    }
}
