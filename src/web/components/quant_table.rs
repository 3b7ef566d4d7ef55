//! The chosen machine across every weight format: quantization as a speed feature.

use leptos::prelude::*;

use super::live_cells::{LiveTable, RowText, TableSpec};
use crate::report::views::{self, QuantRow};
use crate::text::units::fmt_tok_s;
use crate::web::state::{stale_attr, Rows};

/// The formats table (`quant-table`).
#[component]
pub fn QuantTable(
    /// One row per weight format.
    rows: Rows<QuantRow>,
) -> impl IntoView {
    let Rows { list: rows, shown } = rows;
    let body = NodeRef::new();
    let busy = LiveTable::new(TableSpec {
        body,
        key_attr: "data-quant",
        classes: &["num", "num", "num", "num", ""],
        track: Box::new(move || rows.track()),
        text: Box::new(move |i| {
            rows.with(|r| {
                r.get(i).map(|r| RowText {
                    key: r.id.clone(),
                    current: r.current,
                    data: Vec::new(),
                    cells: vec![
                        r.name.clone(),
                        r.bpw.to_string(),
                        crate::text::units::fmt_gib(r.size_bytes),
                        fmt_tok_s(r.ceiling),
                        fmt_tok_s(r.expected),
                        views::fits_text(r.fits, 0.0),
                    ],
                })
            })
        }),
        order: Box::new(move || (0..rows.with(Vec::len)).collect()),
        focusable: false,
    })
    .busy();
    view! {
        <section class="table-section" data-stale=move || stale_attr(shown.waiting() || busy.get())>
            <h2>"This machine, every quantization"</h2>
            <button
                type="button"
                class="export"
                data-testid="export-quants-csv"
                on:click={move |_| {
                    crate::web::browser::download_text("tokbound-quants.csv", "text/csv", &views::quant_rows_csv(&rows.get_untracked()));
                }}
            >
                "Download CSV"
            </button>
            <p class="scroll-cue" aria-hidden="true">"Scroll the table sideways for more columns →"</p>
            <div class="table-wrap" tabindex="0" role="region" aria-label="this machine, every quantization">
                <table class="rows formats" role="table" data-testid="quant-table">
                    <thead role="rowgroup">
                        <tr role="row">
                            <th scope="col" role="columnheader">"Format"</th>
                            <th scope="col" role="columnheader">"Bits/weight"</th>
                            <th scope="col" role="columnheader">"Weights"</th>
                            <th scope="col" role="columnheader">"Ceiling (tok/s)"</th>
                            <th scope="col" role="columnheader">"Expected (tok/s)"</th>
                            <th scope="col" role="columnheader">"Fits?"</th>
                        </tr>
                    </thead>
                    // Rows built and kept in step by the table's one effect (live_cells).
                    <tbody role="rowgroup" node_ref=body></tbody>
                </table>
            </div>
        </section>
    }
}
