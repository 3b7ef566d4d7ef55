//! What would make it faster (`data-testid="levers"`): each single change a person can make, its
//! expected figure, the ratio to today's, whether it fits and what it costs, ranked by gain, each
//! with a button that applies it (`lever-apply`). The list is the page's shared one
//! ([`crate::web::state::levers`]), worked out after the keystroke's frame is painted.

use leptos::prelude::*;

use crate::report::levers::Lever;
use crate::text::units::fmt_tok_s;
use crate::web::state::{apply_lever, levers, scenario};

#[component]
pub fn LeversPanel() -> impl IntoView {
    let scenario = scenario();
    // An applied lever is a committed change: the address bar takes it at once (absent in tests
    // that mount the panel alone).
    let commit = use_context::<crate::web::state::UrlCommit>();
    let rows = levers();
    let row = move |l: Lever| lever_row(l, scenario, commit);
    let head = || {
        view! {
            <thead>
                <tr><th scope="col">"Change"</th><th scope="col">"Expected"</th><th scope="col">"vs now"</th><th scope="col">"Fits"</th><th scope="col">"Cost"</th><th scope="col">"Try it"</th></tr>
            </thead>
        }
    };
    // Changes that cost speed (a cheaper machine, more bits) are alternatives, never advice.
    let part = move |alternative: bool| {
        move || {
            rows.get()
                .into_iter()
                .filter(|l| l.alternative == alternative)
                .map(row)
                .collect_view()
        }
    };
    let any_alternative = move || rows.with(|r| r.iter().any(|l| l.alternative));
    view! {
        <section class="levers" data-testid="levers" aria-labelledby="levers-title">
            <h2 id="levers-title">"What would make it faster"</h2>
            <p class="hint">"Each change on its own: the speed the headline would show, against today's, and what it costs. Apply one to try it."</p>
            <table class="levers-table">{head()}<tbody>{part(false)}</tbody></table>
            <Show when=any_alternative>
                <h3 class="levers-alternatives">"Alternatives that cost speed"</h3>
                <p class="hint">"Cheaper, or closer to the original weights, but slower than today."</p>
                <table class="levers-table">{head()}<tbody>{part(true)}</tbody></table>
            </Show>
        </section>
    }
}

/// One change's row, with its Apply button (an applied lever is committed to the address bar).
fn lever_row(l: Lever, scenario: RwSignal<crate::scenario::Scenario>, commit: Option<crate::web::state::UrlCommit>) -> impl IntoView {
    let change = l.change.clone();
    let (expected, change_text, figure) = (l.expected_tok_s.to_string(), l.change_text(), l.figure.id());
    let fits = match l.fits {
        Some(true) => "fits",
        Some(false) => "does not fit",
        None => "unknown",
    };
    let alternative = if l.alternative { "true" } else { "false" };
    view! {
        <tr
            data-testid="lever-row"
            data-expected-tok-s=expected
            data-change=change_text
            data-figure=figure
            data-alternative=alternative
        >
            <td class="lever-label">{l.label}<small>{l.note}</small></td>
            <td class="num">{format!("{} tok/s", fmt_tok_s(l.expected_tok_s))}</td>
            <td class="num">{format!("×{:.2}", l.ratio)}</td>
            <td>{fits}</td>
            <td>{l.cost}</td>
            <td>
                <button
                    type="button"
                    data-testid="lever-apply"
                    on:click=move |_| apply_lever(scenario, commit, &change)
                >
                    "Apply"
                </button>
            </td>
        </tr>
    }
}
