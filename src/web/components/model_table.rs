//! Every catalog model on the chosen machine at the best format that fits: what can I run?

use leptos::prelude::*;

use super::live_cells::{LiveTable, RowText, TableSpec};
use super::number_field::NumberField;
use crate::report::runnable::{self, ModelColumn, ModelRow};
use crate::scenario::Key;
use crate::text::units::fmt_tok_s;
use crate::web::state::{scenario, stale_attr, Rows};

/// The model table (`model-table`), one `tbody tr[data-model=id]` per catalog model; clicking a
/// row chooses that model at that row's format.
#[component]
pub fn ModelTable(
    /// One row per catalog model, recomputed when the machine or context changes.
    rows: Rows<ModelRow>,
) -> impl IntoView {
    let Rows { list: rows, shown } = rows;
    let scenario = scenario();
    let commit = expect_context::<crate::web::state::UrlCommit>();
    let (sort, set_sort) = signal((ModelColumn::Expected, false));
    let min = Memo::new(move |_| shown.scenario.with(|s| s.number(Key::MinTokS)).unwrap_or(0.0));
    let order = Memo::new(move |_| {
        let (col, asc) = sort.get();
        let min = min.get();
        rows.with(|r| runnable::model_order(r, min, col, asc))
    });
    let body = NodeRef::new();
    let busy = live_rows(body, rows, order);
    // A click anywhere in a row, or Enter or Space on a focused row, chooses its model and format.
    let choose_row = move |target: Option<web_sys::EventTarget>| {
        let Some(tr) = target
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .and_then(|e| e.closest("tr").ok().flatten())
        else {
            return;
        };
        if let (Some(model), Some(quant)) = (tr.get_attribute("data-model"), tr.get_attribute("data-quant")) {
            scenario.update(|s| runnable::choose(s, &model, &quant));
            commit.0.run(());
        }
    };
    let choose = move |ev: leptos::ev::MouseEvent| choose_row(ev.target());
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if matches!(ev.key().as_str(), "Enter" | " ") {
            ev.prevent_default();
            choose_row(ev.target());
        }
    };
    let header = move |col: ModelColumn| {
        super::sort_header::sort_header(
            col,
            col.label(),
            format!("sort-model-{}", col.id()),
            col.ascending_first(),
            sort,
            set_sort,
        )
    };
    view! {
        <section class="table-section" data-stale=move || stale_attr(shown.waiting() || busy.get())>
            <h2 id="what-can-i-run">"What can I run? Every model, this machine"</h2>
            <p class="hint">
                "At this context and KV type: the most bits per weight that fits (Q2_K to Q8_0 and F16, and MLX on Apple), mixtures of experts with their experts in RAM where only that fits. Click a row, or press Enter on it, to choose it."
            </p>
            <NumberField key=Key::MinTokS label="At least" hint="tok/s expected" testid="input-min-tok-s" placeholder="0".to_string() />
            <p class="hint" data-testid="model-count">
                {move || format!("{} of {} models shown.", order.with(Vec::len), rows.with(Vec::len))}
            </p>
            <button
                type="button"
                class="export"
                data-testid="export-models-csv"
                on:click=move |_| {
                    let shown: Vec<ModelRow> = order.get_untracked().into_iter().filter_map(|i| rows.with_untracked(|r| r.get(i).cloned())).collect();
                    crate::web::browser::download_text("tokbound-models.csv", "text/csv", &runnable::model_rows_csv(&shown));
                }
            >
                "Download CSV"
            </button>
            <p class="scroll-cue" aria-hidden="true">"Scroll the table sideways for more columns →"</p>
            <div class="table-wrap" tabindex="0" role="region" aria-label="every model, this machine">
                <table class="rows models" role="table" data-testid="model-table">
                    <thead role="rowgroup">
                        <tr role="row">{ModelColumn::ALL.into_iter().map(header).collect_view()}</tr>
                    </thead>
                    <tbody role="rowgroup" node_ref=body on:click=choose on:keydown=on_key></tbody>
                </table>
            </div>
        </section>
    }
}

/// The model rows, written cell by cell as the estimates change (`live_cells`); set while rows off
/// screen wait for theirs.
fn live_rows(body: NodeRef<leptos::html::Tbody>, rows: Memo<Vec<ModelRow>>, order: Memo<Vec<usize>>) -> RwSignal<bool> {
    LiveTable::new(TableSpec {
        body,
        key_attr: "data-model",
        classes: &["num", "", "num", "num", "num", ""],
        track: Box::new(move || rows.track()),
        text: Box::new(move |i| {
            rows.with(|r| {
                r.get(i).map(|r| RowText {
                    key: r.id.clone(),
                    current: r.current,
                    data: vec![("data-quant", Some(r.quant))],
                    cells: vec![
                        r.name.clone(),
                        r.params_b.to_string(),
                        r.quant_name.clone(),
                        fmt_tok_s(r.ceiling),
                        fmt_tok_s(r.expected),
                        crate::text::units::fmt_gib(r.memory_needed),
                        r.held.label().to_string(),
                    ],
                })
            })
        }),
        order: Box::new(move || order.get()),
        focusable: true,
    })
    .busy()
}
