//! The next step, where the eye already is (inside `headline-levers`): the one or two changes that
//! make this stream faster ([`headline_levers`]), each with its figure and an Apply that keeps the
//! headline in view, as the levers section's own rows ([`lever_row`]). Where the model does not
//! fit, what would run comes first.
//!
//! Every view has a headline, so the page's levers ([`crate::web::state::levers`]) are worked out
//! here, once per change and after its frame is painted (each is a full estimate of the scenario
//! it makes); the levers section shows the same list.

use leptos::prelude::*;

use super::levers_panel::{lever_row, HEADLINE};
use crate::catalog::catalog;
use crate::report::levers::{headline_levers, levers as levers_of};
use crate::web::browser;
use crate::web::state::{levers, scenario, UrlCommit};

/// The headline's levers; works out the page's.
#[component]
pub fn HeadlineLevers() -> impl IntoView {
    let (scenario, commit, list) = (scenario(), use_context::<UrlCommit>(), levers());
    Effect::new(move |_| {
        let s = scenario.get();
        browser::after_next_paint(move || {
            // Only the newest scenario's levers are worked out.
            if scenario.with_untracked(|now| *now == s) {
                list.set(levers_of(&s, catalog()));
            }
        });
    });
    view! {
        <table>
            <tbody>
                {move || list.with(|l| headline_levers(l)).into_iter().map(|l| lever_row(l, scenario, commit, HEADLINE)).collect_view()}
            </tbody>
        </table>
    }
}
