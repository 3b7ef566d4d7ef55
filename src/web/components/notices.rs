//! Notices about the link the page was opened with: each bad key, literally, and why.

use leptos::prelude::*;

use crate::web::state::scenario;
use crate::web::state::Notice;

/// The list of URL notices (`url-notices`), with a button that dismisses them
/// (`url-notices-dismiss`); empty when the link was clean. A notice about a key goes once that
/// key has been changed on the page.
#[component]
pub fn Notices(
    /// One message per bad key, e.g. `bw: "abc" is not a number; using 1008`.
    notices: ReadSignal<Vec<Notice>>,
    /// Clears them.
    set_notices: WriteSignal<Vec<Notice>>,
) -> impl IntoView {
    let scenario = scenario();
    let current = Memo::new(move |_| {
        notices.with(|all| {
            scenario.with(|s| {
                all.iter()
                    .filter(|n| n.key.is_none_or(|k| s.value_text(k) == n.at_load))
                    .map(|n| n.text.clone())
                    .collect::<Vec<_>>()
            })
        })
    });
    view! {
        {move || current.with(|n| !n.is_empty()).then(|| view! {
            <div class="notices" role="alert" data-testid="url-notices">
                <div>
                    <p>"Some values in this link could not be used:"</p>
                    <ul>{move || current.get().into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
                </div>
                <button type="button" data-testid="url-notices-dismiss" aria-label="dismiss these notices" on:click=move |_| set_notices.set(Vec::new())>"×"</button>
            </div>
        })}
    }
}
