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

/// The scenario as one panel below the headline shows it. A keystroke's frame paints the headline
/// alone; each panel takes the scenario up after that paint, in a task of its own, so a key pressed
/// meanwhile is answered between two panels rather than after all of them. A burst of keys costs a
/// panel one update: it takes the newest scenario when its turn comes.
#[derive(Clone, Copy)]
pub struct Deferred {
    /// The scenario the panel shows.
    pub scenario: ReadSignal<Scenario>,
    /// Set from a change until the panel has taken it up.
    waiting: ReadSignal<bool>,
}

impl Deferred {
    /// A panel's copy of `live`, following it a paint behind. An effect that writes signals, on
    /// purpose: the copy must be taken in a later task, which a memo cannot do.
    pub fn new(live: RwSignal<Scenario>) -> Deferred {
        let (shown, set_shown) = signal(live.get_untracked());
        let (waiting, set_waiting) = signal(false);
        Effect::new(move |first: Option<()>| {
            live.track();
            // The copy starts current; one already on its way takes the newest scenario.
            if first.is_none() || waiting.get_untracked() {
                return;
            }
            set_waiting.set(true);
            crate::web::browser::after_next_paint(move || {
                set_waiting.try_set(false);
                // Taken even when equal: a scenario notified unchanged asks its panels to look
                // again (the long tail of GPUs has arrived, and machines=all lists it).
                if let Some(now) = live.try_get_untracked() {
                    set_shown.try_set(now);
                }
            });
        });
        Deferred { scenario: shown, waiting }
    }

    /// The live estimate as it is when this copy takes a change up, which is the estimate of the
    /// scenario it shows.
    pub fn estimate(
        &self,
        live: Memo<Option<(crate::estimator::Inputs, crate::estimator::Estimate)>>,
    ) -> Memo<Option<(crate::estimator::Inputs, crate::estimator::Estimate)>> {
        let shown = self.scenario;
        Memo::new(move |_| {
            shown.track();
            live.get_untracked()
        })
    }

    /// Whether the panel still waits for the scenario's latest change.
    pub fn waiting(&self) -> bool {
        self.waiting.get()
    }
}

/// A table's rows and the scenario they are for.
pub struct Rows<T: Send + Sync + 'static> {
    /// One row per entry, empty while the scenario does not resolve.
    pub list: Memo<Vec<T>>,
    /// The scenario they are for.
    pub shown: Deferred,
}

impl<T: Send + Sync + 'static> Clone for Rows<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Send + Sync + 'static> Copy for Rows<T> {}

/// The value of a panel's `data-stale` attribute: `"true"` while it shows an older scenario than
/// the headline's, absent once it shows the current one.
pub fn stale_attr(stale: bool) -> Option<&'static str> {
    stale.then_some("true")
}

/// What is wrong with each key now: the scenario's own problems, and the link's notices about
/// keys that still hold what the page opened with. A select shows its key's beside it.
#[derive(Clone, Copy)]
pub struct KeyProblems(pub Memo<Vec<(crate::scenario::Key, String)>>);

/// Writes the scenario to the address bar as a committed change (a new history entry).
#[derive(Clone, Copy)]
pub struct UrlCommit(pub Callback<()>);

/// The levers ([`crate::report::levers::levers`]) of the scenario `shown`, worked out once per
/// change it takes up by the headline's levers (`web/components/headline_levers.rs`, in the
/// module's `more` part); the levers section shows the same list.
#[derive(Clone, Copy)]
pub struct Levers {
    /// The levers, empty until they are worked out.
    pub list: RwSignal<Vec<crate::report::levers::Lever>>,
    /// The scenario they are worked out for.
    pub shown: Deferred,
}

/// The page's levers.
pub fn levers() -> Levers {
    expect_context::<Levers>()
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

/// Asks for a long tail of the catalog (fetched once); when it arrives, the scenario is estimated
/// again (a link's long-tail machine now resolves, the machine table lists it with
/// `machines=all`) and `then` runs (a search searches again, the CPU select lists every CPU).
pub fn want_long_tail(tail: crate::web::long_tail::Tail, then: impl Fn() + Copy + 'static) -> impl Fn() + Copy + 'static {
    let scenario = use_context::<RwSignal<Scenario>>();
    move || {
        if tail.loaded() {
            return;
        }
        crate::web::long_tail::request(tail, move || {
            if let Some(s) = scenario {
                s.update(|_| {});
            }
            then();
        });
    }
}
