//! The next step, where the eye already is (`headline-levers`): the one or two changes that make
//! this stream faster ([`headline_levers`]), each with its figure and an Apply that keeps the
//! headline in view. Where the model does not fit, what would run comes first. The box keeps its
//! height while the levers are worked out, so nothing under the headline moves when they arrive.

use leptos::prelude::*;

use crate::report::levers::{headline_levers, Lever};
use crate::scenario::Scenario;
use crate::text::units::fmt_tok_s;
use crate::web::browser;
use crate::web::state::{apply_lever, levers, scenario, UrlCommit};

/// The headline's levers, from the levers the page shares.
#[component]
pub fn HeadlineLevers(
    /// Whether today's scenario fits: where it does not, a lever that fits says so.
    #[prop(into)]
    fits_today: Signal<bool>,
) -> impl IntoView {
    let list = levers();
    let picks = Memo::new(move |_| list.with(|l| headline_levers(l)));
    let (scenario, commit) = (scenario(), use_context::<UrlCommit>());
    let item = move |l: Lever| lever(l, fits_today.get(), scenario, commit);
    view! {
        <div class="headline-levers" data-testid="headline-levers" aria-live="off">
            {move || (!picks.with(Vec::is_empty)).then(|| view! { <p class="hl-title">"Faster with one change"</p> })}
            <ul>{move || picks.get().into_iter().map(item).collect_view()}</ul>
        </div>
    }
}

/// One lever: the change, the figure it gives, and its Apply.
fn lever(l: Lever, fits_today: bool, scenario: RwSignal<Scenario>, commit: Option<UrlCommit>) -> impl IntoView {
    let figure = fmt_tok_s(l.expected_tok_s);
    let fits = (!fits_today && l.fits == Some(true)).then_some(", fits");
    let (change, change_text) = (l.change.clone(), l.change_text());
    // The label may be cut short on a phone: the whole of it, and why it helps, on hover.
    let title = format!("{}: {}", l.label, l.note);
    view! {
        <li
            class="headline-lever"
            data-testid="headline-lever"
            data-expected-tok-s=figure.clone()
            data-change=change_text
            data-figure=l.figure.id()
            title=title
        >
            <span class="hl-label">{l.label}</span>
            <span class="hl-figure"><b>{format!("{figure} tok/s")}</b>{format!(" ×{:.2}", l.ratio)}{fits}</span>
            <button
                type="button"
                data-testid="headline-lever-apply"
                on:click=move |_| {
                    apply_lever(scenario, commit, &change);
                    // The new figure is in the headline: where the page had scrolled past it, bring it back.
                    browser::after_next_paint(|| browser::keep_in_view(".headline"));
                }
            >
                "Apply"
            </button>
        </li>
    }
}
