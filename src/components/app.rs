//! The root component: the scenario state (from and to the URL), the estimate, and the page.

use leptos::prelude::*;

use super::charts_panel::ChartsPanel;
use super::comparison_table::ComparisonTable;
use super::headline::Headline;
use super::how_it_works::HowItWorks;
use super::inputs_form::InputsForm;
use super::notices::Notices;
use super::quant_table::QuantTable;
use crate::catalog::catalog;
use crate::estimator::estimate;
use crate::scenario::Scenario;
use crate::views;

/// Reads a query string into a scenario that resolves, with one notice per key that could not be
/// used (the key is then left at its default).
pub fn scenario_from_query(query: &str) -> (Scenario, Vec<String>) {
    let cat = catalog();
    let (mut s, issues) = Scenario::from_query(query);
    let mut notices: Vec<String> = issues
        .iter()
        .map(|i| format!("{i}, using {}", s.default_text(&i.key, cat)))
        .collect();
    for _ in 0..4 {
        match s.resolve(cat) {
            Ok(_) => break,
            Err(issues) => {
                for i in issues {
                    s.clear(&i.key);
                    notices.push(format!("{i}, using {}", s.default_text(&i.key, cat)));
                }
            }
        }
    }
    if s.resolve(cat).is_err() {
        s = Scenario::default();
        notices.push("the link's scenario could not be used; showing the default".into());
    }
    (s, notices)
}

fn location_search() -> String {
    web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default()
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let (initial, initial_notices) = scenario_from_query(&location_search());
    let scenario = RwSignal::new(initial);
    provide_context(scenario);
    let (notices, _set_notices) = signal(initial_notices);

    let cat = catalog();
    let resolved = Memo::new(move |_| scenario.with(|s| s.resolve(cat)));
    // The last valid estimate stays on screen while an input is being corrected.
    let current = Memo::new(move |prev: Option<&Option<_>>| match resolved.get() {
        Ok(inputs) => {
            let e = estimate(&inputs);
            Some((inputs, e))
        }
        Err(_) => prev.cloned().flatten(),
    });
    let problems = move || {
        resolved.with(|r| {
            r.as_ref()
                .err()
                .map(|issues| issues.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))
        })
    };
    let machine_rows = Memo::new(move |_| {
        scenario
            .with(|s| {
                if s.resolve(cat).is_ok() {
                    Some(views::machine_rows(s, cat))
                } else {
                    None
                }
            })
            .unwrap_or_default()
    });
    let quant_rows = Memo::new(move |_| {
        scenario
            .with(|s| {
                if s.resolve(cat).is_ok() {
                    Some(views::quant_rows(s, cat))
                } else {
                    None
                }
            })
            .unwrap_or_default()
    });

    // Keep the address bar in step, without a history entry per keystroke.
    Effect::new(move |_| {
        let query = scenario.with(Scenario::to_query);
        if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("?{query}")));
        }
    });

    view! {
        <header class="top">
            <h1>"tokbound"</h1>
            <p class="tagline">"How fast will this model type on my machine? Memory bandwidth ÷ bytes per token."</p>
        </header>
        <main>
            <Notices notices=notices />
            <div class="layout">
                <InputsForm />
                <div class="results">
                    <Show when=move || problems().is_some()>
                        <p class="scenario-error" role="alert" data-testid="scenario-error">
                            {move || problems().unwrap_or_default()}
                            " — showing the last valid estimate."
                        </p>
                    </Show>
                    <Headline estimate=current />
                </div>
            </div>
            <ComparisonTable rows=machine_rows />
            <QuantTable rows=quant_rows />
            <ChartsPanel estimate=current machine_rows=machine_rows quant_rows=quant_rows />
            <HowItWorks />
        </main>
        <footer>
            <p>"tokbound runs entirely in your browser: no request leaves this page. Every catalog number keeps its source."</p>
        </footer>
    }
}
