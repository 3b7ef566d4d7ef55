//! The page's shared state, which every component may use and none owns: the scenario signal,
//! what the link held that could not be used, what is wrong with each key, and how a change is
//! written to the address bar.

use leptos::prelude::*;

pub use crate::scenario::link::Notice;
use crate::scenario::Scenario;

/// Reads the link's query string against the built-in catalog ([`crate::scenario::link::read`]).
pub fn scenario_from_query(query: &str) -> (Scenario, Vec<Notice>) {
    crate::scenario::link::read(query, crate::catalog::catalog())
}

/// The scenario every component reads and writes.
pub fn scenario() -> RwSignal<Scenario> {
    expect_context::<RwSignal<Scenario>>()
}

/// What is wrong with each key now: the scenario's own problems, and the link's notices about
/// keys that still hold what the page opened with. A select shows its key's beside it.
#[derive(Clone, Copy)]
pub struct KeyProblems(pub Memo<Vec<(crate::scenario::Key, String)>>);

/// Writes the scenario to the address bar as a committed change (a new history entry).
#[derive(Clone, Copy)]
pub struct UrlCommit(pub Callback<()>);

/// The current scenario's levers ([`crate::report::levers::levers`]), worked out once per change
/// by the headline's levers (`web/components/headline_levers.rs`, in the module's `more` part);
/// the levers section shows the same list.
#[derive(Clone, Copy)]
pub struct Levers(pub RwSignal<Vec<crate::report::levers::Lever>>);

/// The current scenario's levers (empty until they are worked out).
pub fn levers() -> RwSignal<Vec<crate::report::levers::Lever>> {
    expect_context::<Levers>().0
}

/// Applies a lever's change to the scenario ([`crate::report::levers::apply`]) and writes it to
/// the address bar as a committed change (`commit`: absent in tests that mount a component alone).
pub fn apply_lever(scenario: RwSignal<Scenario>, commit: Option<UrlCommit>, change: &[(crate::scenario::Key, String)]) {
    scenario.update(|s| {
        if let Some(next) = crate::report::levers::apply(s, change) {
            *s = next;
        }
    });
    if let Some(c) = commit {
        c.0.run(());
    }
}

/// Asks for the long tail of GPUs (fetched once); when it arrives, the scenario is estimated again
/// (a link's long-tail machine now resolves, the machine table lists it with `machines=all`) and
/// `then` runs (a search that found nothing searches again).
pub fn want_long_tail(then: impl Fn() + Copy + 'static) -> impl Fn() + Copy + 'static {
    let scenario = use_context::<RwSignal<Scenario>>();
    move || {
        if crate::web::long_tail::loaded() {
            return;
        }
        crate::web::long_tail::request(move || {
            if let Some(s) = scenario {
                s.update(|_| {});
            }
            then();
        });
    }
}
