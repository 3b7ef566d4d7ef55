//! The next step, where the eye already is (inside `headline-levers`): the one or two changes that
//! make this stream faster ([`headline_levers`]), each with its figure and an Apply that keeps the
//! headline in view, as the levers section's own rows ([`lever_row`]). Where the model does not
//! fit, what would run comes first.
//!
//! Every view has a headline, so the page's levers ([`crate::web::state::levers`]) are worked out
//! here, once per change and after its frame is painted, in a task of their own (each is a full
//! estimate of the scenario it makes); the levers section shows the same list. Both are marked
//! `data-stale` until the list is the current scenario's (the headline's box, `headline-levers`,
//! for these).

use leptos::prelude::*;

use super::levers_panel::{lever_row, HEADLINE};
use crate::catalog::catalog;
use crate::report::levers::{headline_levers, levers as levers_of};
use crate::web::state::{levers, scenario, UrlCommit};

/// The headline's levers; works out the page's.
#[component]
pub fn HeadlineLevers() -> impl IntoView {
    let (scenario, commit, levers) = (scenario(), use_context::<UrlCommit>(), levers());
    let list = levers.list;
    // Runs in the task that takes the change up (state::Deferred), after the keystroke's paint.
    Effect::new(move |_| list.set(levers.shown.scenario.with(|s| levers_of(s, catalog()))));
    view! {
        <table>
            <tbody>
                {move || list.with(|l| headline_levers(l)).into_iter().map(|l| lever_row(l, scenario, commit, HEADLINE)).collect_view()}
            </tbody>
        </table>
    }
}
