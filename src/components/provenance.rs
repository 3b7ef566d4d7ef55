//! The measured points behind the expected figure, with links to where they were read.

use leptos::prelude::*;

use super::scenario;
use crate::catalog::catalog;
use crate::views;

/// The nearest measured points (`provenance`), an exact measurement marked "measured".
#[component]
pub fn Provenance() -> impl IntoView {
    let scenario = scenario();
    let points = Memo::new(move |_| scenario.with(|s| views::provenance(s, catalog(), 3)));
    view! {
        <div class="provenance" data-testid="provenance">
            {move || {
                points.with(|p| {
                    if p.is_empty() {
                        return view! { <p class="hint">"No measured run of this model or its family on this machine or its class."</p> }
                            .into_any();
                    }
                    view! {
                        <p class="hint">"Measured nearby:"</p>
                        <ul>
                            {p.iter()
                                .map(|m| {
                                    let mark = m.exact.then(|| view! { <strong class="measured-mark">"measured "</strong> });
                                    view! {
                                        <li>
                                            {mark}
                                            <a href=m.url.clone() rel="noopener noreferrer" target="_blank">{m.text.clone()}</a>
                                        </li>
                                    }
                                })
                                .collect_view()}
                        </ul>
                    }
                    .into_any()
                })
            }}
        </div>
    }
}
