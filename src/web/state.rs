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
