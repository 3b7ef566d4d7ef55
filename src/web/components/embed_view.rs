//! The compact, chrome-less view for an iframe: the headline and the views named by `view=`.

use leptos::prelude::*;

use super::charts_panel::ChartsPanel;
use super::comparison_table::ComparisonTable;
use super::headline::Headline;
use super::later_panels::{LaterPanels, Panels};
use super::model_table::ModelTable;
use crate::estimator::{Estimate, Inputs};
use crate::report::views::{MachineRow, QuantRow};
use crate::scenario::View;
use crate::web::state::{scenario, Rows};

/// The embed: headline, the chosen charts or table, and a link to the full page.
#[component]
pub fn EmbedView(
    /// The last valid (inputs, estimate).
    estimate: Memo<Option<(Inputs, Estimate)>>,
    /// Rows for the machines chart and table.
    machine_rows: Rows<MachineRow>,
    /// Rows for the quants chart.
    quant_rows: Rows<QuantRow>,
    /// Rows for the model table.
    model_rows: Rows<crate::report::runnable::ModelRow>,
    /// The views named in the link (`context`, `machines`, `table` …).
    views: Vec<String>,
) -> impl IntoView {
    let scenario = scenario();
    let full = move || format!("./?{}", scenario.with(|s| s.to_query()));
    // Tell the page around the iframe how tall this is, once mounted and whenever it changes.
    request_animation_frame(|| crate::web::browser::report_height_to_parent("main.embed"));
    let charts: Vec<String> = views
        .iter()
        .filter(|v| View::parse(v).is_some_and(View::is_chart))
        .cloned()
        .collect();
    let table = views.iter().any(|v| v == View::Table.id());
    let models = views.iter().any(|v| v == View::Models.id());
    let levers = views.iter().any(|v| v == View::Levers.id());
    view! {
        <main class="embed" data-testid="embed">
            <Headline estimate=estimate full_page=Signal::derive(full) />
            {(!charts.is_empty()).then(|| view! { <ChartsPanel estimate=estimate machine_rows=machine_rows quant_rows=quant_rows only=charts /> })}
            {table.then(|| view! { <ComparisonTable rows=machine_rows /> })}
            {models.then(|| view! { <ModelTable rows=model_rows /> })}
            {levers.then(|| view! { <LaterPanels panels=Panels::Levers estimate=estimate /> })}
            <p class="embed-link">
                <a href={full} target="_blank" rel="noopener" data-testid="open-full">"open in tokbound ↗"</a>
            </p>
        </main>
    }
}
