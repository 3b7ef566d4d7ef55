//! Notices about the link the page was opened with: each bad key, literally, and why.

use leptos::prelude::*;

/// The list of URL notices (`url-notices`); empty when the link was clean.
#[component]
pub fn Notices(
    /// One message per bad key, e.g. `bw: "abc" is not a number, using 1008`.
    notices: ReadSignal<Vec<String>>,
) -> impl IntoView {
    view! {
        {move || notices.with(|n| !n.is_empty()).then(|| view! {
            <div class="notices" role="alert" data-testid="url-notices">
                <p>"Some values in this link could not be used:"</p>
                <ul>{move || notices.get().into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
            </div>
        })}
    }
}
