//! The chosen machine across every weight format: quantization as a speed feature.

use leptos::prelude::*;

use super::live_cells::LiveTable;
use crate::units::{fmt_bytes, fmt_tok_s};
use crate::views::{self, QuantRow};

/// The formats table (`quant-table`).
#[component]
pub fn QuantTable(
    /// One row per weight format.
    rows: Memo<Vec<QuantRow>>,
) -> impl IntoView {
    let live = StoredValue::new_local(LiveTable::new(move |i| {
        rows.with(|r| {
            r.get(i).map_or_else(Vec::new, |r| {
                vec![
                    fmt_bytes(r.size_bytes),
                    fmt_tok_s(r.ceiling),
                    fmt_tok_s(r.expected),
                    views::fits_text(r.fits, 0.0),
                ]
            })
        })
    }));
    view! {
        <section class="table-section">
            <h2>"This machine, every quantization"</h2>
            <button
                type="button"
                class="export"
                data-testid="export-quants-csv"
                on:click=move |_| {
                    crate::browser::download_text("tokbound-quants.csv", "text/csv", &views::quant_rows_csv(&rows.get_untracked()));
                }
            >
                "Download CSV"
            </button>
            <div class="table-wrap">
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
                    <tbody role="rowgroup">
                        // Keyed by position, the changing cells written by the table's one effect
                        // (rows off screen after the next paint), as in the comparison table.
                        <For each=move || 0..rows.with(Vec::len) key=|i| *i let:i>
                            {
                                let (tr, cells) = live.with_value(|t| t.live_row(i, 4));
                                let row = Memo::new(move |_| rows.with(|r| r.get(i).map(|r| (r.id.clone(), r.name.clone(), r.bpw, r.current))));
                                let fixed = move |f: fn(&(String, String, f64, bool)) -> String| move || row.with(|r| r.as_ref().map(f).unwrap_or_default());
                                view! {
                                    <tr role="row"
                                        node_ref=tr
                                        data-row=i
                                        class:current=move || row.with(|r| r.as_ref().is_some_and(|r| r.3))
                                        data-quant=fixed(|r| r.0.clone())
                                    >
                                        <th scope="row" role="rowheader">{fixed(|r| r.1.clone())}</th>
                                        <td role="cell" class="num">{fixed(|r| r.2.to_string())}</td>
                                        <td role="cell" class="num" node_ref=cells[0]></td>
                                        <td role="cell" class="num" node_ref=cells[1]></td>
                                        <td role="cell" class="num" node_ref=cells[2]></td>
                                        <td role="cell" node_ref=cells[3]></td>
                                    </tr>
                                }
                            }
                        </For>
                    </tbody>
                </table>
            </div>
        </section>
    }
}
