//! The root component: the scenario state (from and to the URL), the estimate, and the page.

use leptos::prelude::*;

use super::charts_panel::ChartsPanel;
use super::comparison_table::ComparisonTable;
use super::embed_view::EmbedView;
use super::headline::Headline;
use super::inputs_form::InputsForm;
use super::later_panels::{LaterPanels, Panels};
use super::model_table::ModelTable;
use super::notices::Notices;
use super::provenance::Provenance;
use super::quant_table::QuantTable;
use crate::catalog::catalog;
use crate::estimator::estimate;
use crate::report::views;
use crate::scenario::{Presentation, Scenario};
use crate::web::browser;
use crate::web::state::{scenario_from_query, want_long_tail, Deferred, KeyProblems, Levers, Rows, UrlCommit};

/// How long typing (or dragging the context slider) must pause before the address bar is
/// rewritten, in milliseconds.
const URL_QUIET_MS: i32 = 300;

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let search = browser::location_search();
    let presentation = Presentation::from_query(&search);
    let (initial, initial_notices) = scenario_from_query(&search);
    let scenario = RwSignal::new(initial);
    provide_context(scenario);
    let (notices, set_notices) = signal(initial_notices);

    // The levers the headline works out and the levers section shows (both in the `more` part).
    provide_context(Levers {
        list: RwSignal::new(Vec::new()),
        shown: Deferred::new(scenario),
    });
    fetch_long_tail_for_all_machines(scenario);

    let cat = catalog();
    let resolved = Memo::new(move |_| scenario.with(|s| s.resolve(cat)));
    let current = last_valid_estimate(resolved);
    provide_context(current);
    let problems = move || {
        resolved.with(|r| {
            r.as_ref()
                .err()
                // Named as the form labels them: the field to change is beside its own message.
                .map(|issues| {
                    issues
                        .iter()
                        .map(|i| format!("{}: {}", crate::report::naming::field_label(i.key), i.problem))
                        .collect::<Vec<_>>()
                        .join("; ")
                })
        })
    };
    let key_problems = key_problems(resolved, notices, scenario);
    provide_context(KeyProblems(key_problems));
    // Whether the error line shows: it changes far less often than the problems themselves.
    let has_problems = Memo::new(move |_| resolved.with(Result::is_err));
    let machine_rows = rows_of(scenario, views::machine_rows);
    // Every catalog model on this machine: depends on the machine, context and KV type, not on
    // the chosen model (but for its highlight).
    let model_rows = rows_of(scenario, crate::report::runnable::model_rows);
    let quant_rows = rows_of(scenario, views::quant_rows);

    let (on_input, on_change) = address_bar(scenario, presentation.to_query_suffix(), set_notices);

    let (form, below) = stages();

    if presentation.embed {
        return view! {
            <EmbedView estimate=current machine_rows=machine_rows quant_rows=quant_rows model_rows=model_rows views=presentation.views.clone() />
        }
        .into_any();
    }

    view! {
        <header class="top">
            <h1>"tokbound"</h1>
            <p class="tagline">"How fast will this model type on my machine? Memory bandwidth ÷ bytes per token."</p>
        </header>
        <main>
            <Notices notices=notices set_notices=set_notices />
            <div class="layout">
                <div on:input=on_input.clone() on:change=on_change.clone()>
                    {move || form.get().then(|| view! { <InputsForm /> })}
                </div>
                <div class="results">
                    {move || has_problems.get().then(|| view! {
                        <p class="scenario-error" role="alert" data-testid="scenario-error">
                            {move || problems().unwrap_or_default()}
                            " — showing the last valid estimate."
                        </p>
                    })}
                    <Headline estimate=current />
                    // In the form's frame, not later: arriving after the form it would push it
                    // down where the two stack. Not in the headline's either: the measured runs it
                    // reads are parsed on first use, after the first ceiling is painted.
                    {move || form.get().then(|| view! { <Provenance /> })}
                </div>
            </div>
            {move || below.get().then(|| view! {
                // The tables' own fields (target, minimum speed) write the address as the form's do.
                <div on:input=on_input.clone() on:change=on_change.clone()>
                    <ComparisonTable rows=machine_rows />
                    <ModelTable rows=model_rows />
                </div>
                <LaterPanels panels=Panels::LeversAndCommands estimate=current />
                <QuantTable rows=quant_rows />
                <ChartsPanel estimate=current machine_rows=machine_rows quant_rows=quant_rows />
                <LaterPanels panels=Panels::Bottom estimate=current />
            })}
        </main>
        <footer>
            <p>"tokbound runs entirely in your browser: no request leaves this page. Every catalog number keeps its source."</p>
        </footer>
    }
    .into_any()
}

/// `machines=all` lists the long tail of GPUs: fetched when the scenario first asks for it.
fn fetch_long_tail_for_all_machines(scenario: RwSignal<Scenario>) {
    let want_long_tail = want_long_tail(crate::web::long_tail::Tail::Gpus, || ());
    Effect::new(move |_| {
        if scenario.with(Scenario::all_machines) {
            want_long_tail();
        }
    });
}

/// When the form, and then everything below it, mount. The answer first: the headline mounts
/// and paints on its own, the form beside it in the next frame, then the tables, charts and
/// panels below them (the form's fields and the hundreds of rows and canvases would otherwise
/// hold back the first painted ceiling). The headline keeps its place: the form fills its own
/// grid column (below it on narrow screens). Where the first view has painted the ceiling
/// already (src/web/first_view.rs), the form comes with the headline and only the rest waits
/// for a paint.
fn stages() -> (ReadSignal<bool>, ReadSignal<bool>) {
    let painted = crate::web::first_view::painted();
    let (form, set_form) = signal(painted);
    let (below, set_below) = signal(false);
    browser::after_next_paint(move || {
        set_form.set(true);
        if painted {
            set_below.set(true);
        } else {
            browser::after_next_paint(move || set_below.set(true));
        }
    });
    (form, below)
}

/// A table's rows, for a copy of the scenario of their own that follows it after the keystroke's
/// frame (state::Deferred): the frame shows the headline alone, and each table takes the change up
/// in a task of its own after that paint.
fn rows_of<T: Clone + PartialEq + Send + Sync + 'static>(
    scenario: RwSignal<Scenario>,
    rows: fn(&Scenario, &crate::catalog::Catalog) -> Vec<T>,
) -> Rows<T> {
    let cat = catalog();
    let shown = Deferred::new(scenario);
    Rows {
        list: Memo::new(move |_| {
            shown
                .scenario
                .with(|s| if s.resolve(cat).is_ok() { rows(s, cat) } else { Vec::new() })
        }),
        shown,
    }
}

/// What is wrong with each key: the scenario's problems, and the link's notices about keys that
/// still hold what the page opened with.
fn key_problems(
    resolved: Memo<Result<crate::estimator::Inputs, Vec<crate::scenario::KeyIssue>>>,
    notices: ReadSignal<Vec<crate::web::state::Notice>>,
    scenario: RwSignal<Scenario>,
) -> Memo<Vec<(crate::scenario::Key, String)>> {
    Memo::new(move |_| {
        let mut out: Vec<(crate::scenario::Key, String)> = resolved.with(|r| {
            r.as_ref()
                .err()
                .map(|issues| issues.iter().map(|i| (i.key, i.problem.clone())).collect())
                .unwrap_or_default()
        });
        notices.with(|all| {
            scenario.with(|s| {
                for n in all {
                    if let Some(k) = n.key.filter(|k| s.value_text(*k) == n.at_load) {
                        out.push((k, n.text.clone()));
                    }
                }
            })
        });
        out
    })
}

/// The address bar follows the scenario; returns what the form's fields do to it on `input`
/// and on `change`, and provides [`UrlCommit`] for everything else.
fn address_bar(
    scenario: RwSignal<Scenario>,
    suffix: String,
    set_notices: WriteSignal<Vec<crate::web::state::Notice>>,
) -> (impl Fn(leptos::ev::Event) + Clone, impl Fn(leptos::ev::Event) + Clone) {
    // The address bar follows the scenario. Keystrokes rewrite the current history entry once
    // the typing pauses (URL_QUIET_MS); a committed change (a `change` event: select, blur, Enter,
    // letting go of the slider) is written at once and ends the entry, so the next edit starts a
    // new one and back/forward step through the scenarios a person actually chose. Writing on
    // every keystroke or slider step would make the browser fetch the page's icon again for each
    // (Chromium does on every address change), and Safari refuses more than 100 history writes
    // in 30 seconds.
    let commit_pending = StoredValue::new(true);
    // Counts edits: a pending keystroke write runs only if no edit came after it.
    let edits = StoredValue::new(0u32);
    let next_edit = move || {
        edits.update_value(|n| *n = n.wrapping_add(1));
        edits.get_value()
    };
    let write = move |commit: bool| {
        if commit {
            // A committed change is written now: a pending keystroke write has nothing to add.
            next_edit();
        }
        let query = format!("{}{}", scenario.with_untracked(Scenario::to_query), suffix);
        let push = commit_pending.get_value();
        if browser::location_search() != format!("?{query}") {
            browser::write_url(&query, push);
            commit_pending.set_value(false);
        }
        if commit {
            commit_pending.set_value(true);
        }
    };
    let write_input = write.clone();
    // What the form's (and the tables') fields do to the address: a keystroke schedules a write
    // for when typing pauses; a committed change writes at once.
    let on_input = move |_: leptos::ev::Event| {
        let write = write_input.clone();
        let this = next_edit();
        browser::after_ms(URL_QUIET_MS, move || {
            if edits.get_value() == this {
                write(false);
            }
        });
    };
    let write_change = write.clone();
    let on_change = move |_: leptos::ev::Event| write_change(true);
    // Components outside the form (the importer) commit their changes the same way.
    let write_commit = write.clone();
    provide_context(UrlCommit(Callback::new(move |()| write_commit(true))));
    let _popstate = window_event_listener(leptos::ev::popstate, move |_| {
        let (s, n) = scenario_from_query(&browser::location_search());
        scenario.set(s);
        set_notices.set(n);
        commit_pending.set_value(true);
        next_edit();
    });
    (on_input, on_change)
}

/// The estimate of the scenario, or the last valid one while an input is being corrected.
fn last_valid_estimate(
    resolved: Memo<Result<crate::estimator::Inputs, Vec<crate::scenario::KeyIssue>>>,
) -> Memo<Option<(crate::estimator::Inputs, crate::estimator::Estimate)>> {
    Memo::new(move |prev: Option<&Option<_>>| match resolved.get() {
        Ok(inputs) => {
            let e = estimate(&inputs);
            Some((inputs, e))
        }
        Err(_) => prev.cloned().flatten(),
    })
}
