//! A button that copies a text to the clipboard and says whether it could: the share panel's
//! link and embed snippet, and each command.

use leptos::prelude::*;

use crate::web::browser;

/// The button (`testid`): `label`, then "Copied", or `failed` (what to do where the browser
/// refused); it copies what `text` holds when pressed. A plain function, not a component: it
/// costs the page less, and it has no state a parent would need.
pub fn copy_button(testid: String, text: Signal<String>, label: &'static str, failed: &'static str) -> impl IntoView {
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
