//! The measured points behind the expected figure, with links to where they were read.

use leptos::prelude::*;

use crate::catalog::catalog;
use crate::report::views;
use crate::web::state::{scenario, stale_attr, Deferred};

/// The measured runs about this scenario (`provenance`, each `li[data-relation]` saying how it
/// relates), an exact measurement marked "measured".
#[component]
pub fn Provenance() -> impl IntoView {
    // After the keystroke's frame, in a task of its own (state::Deferred).
    let shown = Deferred::new(scenario());
    let points = Memo::new(move |_| shown.scenario.with(|s| views::provenance(s, catalog(), 5)));
    view! {
        <div class="provenance" data-testid="provenance" data-stale=move || stale_attr(shown.waiting())>
            {move || {
                points.with(|p| {
                    if p.is_empty() {
                        return view! { <p class="hint">"No measured run on this machine or one of its class within 25% of its bandwidth."</p> }
                            .into_any();
                    }
                    view! {
                        <p class="hint">"Measured nearby:"</p>
                        <ul>
                            {p.iter()
                                .map(|m| {
                                    let mark = m.exact.then(|| view! { <strong class="measured-mark">"measured "</strong> });
                                    view! {
                                        <li data-relation=m.relation>
                                            {mark}
                                            <span class="relation">{format!("{}: ", views::relation_label(m.relation))}</span>
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
