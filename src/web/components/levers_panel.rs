//! What would make it faster (`data-testid="levers"`): each single change a person can make, its
//! expected figure, the ratio to today's, whether it fits and what it costs, ranked by gain, each
//! with a button that applies it (`lever-apply`). The list is the page's shared one
//! ([`crate::web::state::levers`]), worked out after the keystroke's frame is painted.

use leptos::prelude::*;

use super::select_field::SelectField;
use crate::report::levers::Lever;
use crate::scenario::Key;
use crate::text::units::fmt_tok_s;
use crate::web::state::{apply_lever, levers, scenario, stale_attr};

#[component]
pub fn LeversPanel() -> impl IntoView {
    let scenario = scenario();
    // An applied lever is a committed change: the address bar takes it at once (absent in tests
    // that mount the panel alone).
    let commit = use_context::<crate::web::state::UrlCommit>();
    let shown = levers().shown;
    let rows = levers().list;
    let row = move |l: Lever| lever_row(l, scenario, commit, SECTION);
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
        <section class="levers" data-testid="levers" aria-labelledby="levers-title" data-stale=move || stale_attr(shown.waiting())>
            <h2 id="levers-title">"What would make it faster"</h2>
            <p class="hint">"Each change on its own: the speed the headline would show, against today's, and what it costs. Apply one to try it."</p>
            <SelectField key=Key::Rank label="Rank by" testid="input-rank" options=rank_options() default="speed" />
            <table class="levers-table">{head()}<tbody>{part(false)}</tbody></table>
            <Show when=any_alternative>
                <h3 class="levers-alternatives">"Alternatives that cost speed"</h3>
                <p class="hint">"Cheaper, or closer to the original weights, but slower than today."</p>
                <table class="levers-table">{head()}<tbody>{part(true)}</tbody></table>
            </Show>
        </section>
    }
}

/// The levers' orders (`rank=`): by speed, or by the electricity cost of a million tokens.
fn rank_options() -> Vec<(String, String)> {
    vec![
        ("speed".to_string(), "speed".to_string()),
        ("cost".to_string(), "cost of a million tokens".to_string()),
    ]
}

/// Where a lever's row stands: its hooks, and whether its Apply brings the headline back into view.
#[derive(Clone, Copy)]
pub struct RowHooks {
    row: &'static str,
    apply: &'static str,
    keep_headline: bool,
}

/// A row of the levers section (`lever-row`, `lever-apply`).
pub const SECTION: RowHooks = RowHooks {
    row: "lever-row",
    apply: "lever-apply",
    keep_headline: false,
};

/// A lever with the headline (`headline-lever`, `headline-lever-apply`): its Apply brings the
/// headline back into view where the page had scrolled past it.
pub const HEADLINE: RowHooks = RowHooks {
    row: "headline-lever",
    apply: "headline-lever-apply",
    keep_headline: true,
};

/// One change's row, with its Apply button (an applied lever is committed to the address bar).
/// The headline's levers are the same rows (one piece of page code), laid out there by the style
/// sheet.
pub fn lever_row(
    l: Lever,
    scenario: RwSignal<crate::scenario::Scenario>,
    commit: Option<crate::web::state::UrlCommit>,
    hooks: RowHooks,
) -> impl IntoView {
    let change = l.change.clone();
    let figure = fmt_tok_s(l.expected_tok_s);
    let (change_text, figure_id) = (l.change_text(), l.figure.id());
    let fits = match l.fits {
        Some(true) => "fits",
        Some(false) => "does not fit",
        None => "unknown",
    };
    let alternative = if l.alternative { "true" } else { "false" };
    let per_mtok = l.cost_per_mtok.map(crate::report::energy::fmt_sig);
    let energy = per_mtok.clone().map(|c| format!("{c} per million tokens in power"));
    view! {
        <tr
            data-testid=hooks.row
            data-expected-tok-s=figure.clone()
            data-change=change_text
            data-figure=figure_id
            data-alternative=alternative
            data-cost-per-mtok=per_mtok
        >
            <td class="lever-label">{l.label}<small>{l.note}</small></td>
            <td class="num">{format!("{figure} tok/s")}</td>
            <td class="num">{format!("×{:.2}", l.ratio)}</td>
            <td>{fits}</td>
            <td>{l.cost}<small>{energy}</small></td>
            <td>
                <button
                    type="button"
                    data-testid=hooks.apply
                    on:click=move |_| {
                        apply_lever(scenario, commit, &change);
                        if hooks.keep_headline {
                            crate::web::browser::after_next_paint(|| crate::web::browser::keep_in_view(".headline"));
                        }
                    }
                >
                    "Apply"
                </button>
            </td>
        </tr>
    }
}
