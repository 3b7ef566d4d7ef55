//! The chosen machine across every weight format: quantization as a speed feature.

use leptos::prelude::*;

use crate::units::{fmt_bytes, fmt_tok_s};
use crate::views::{self, QuantRow};

/// The formats table (`quant-table`).
#[component]
pub fn QuantTable(
    /// One row per weight format.
    rows: Memo<Vec<QuantRow>>,
) -> impl IntoView {
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
                <table data-testid="quant-table">
                    <thead>
                        <tr>
                            <th scope="col">"Format"</th>
                            <th scope="col">"Bits/weight"</th>
                            <th scope="col">"Weights"</th>
                            <th scope="col">"Ceiling (tok/s)"</th>
                            <th scope="col">"Expected (tok/s)"</th>
                            <th scope="col">"Fits?"</th>
                        </tr>
                    </thead>
                    <tbody>
                        // Keyed by position with a memo per row, as in the comparison table: a
                        // keystroke rewrites the cells that changed instead of rebuilding rows.
                        <For each=move || 0..rows.with(Vec::len) key=|i| *i let:i>
                            {
                                let row = Memo::new(move |_| rows.with(|r| r.get(i).cloned()));
                                let cell = move |f: fn(&QuantRow) -> String| move || row.with(|r| r.as_ref().map(f).unwrap_or_default());
                                view! {
                                    <tr
                                        class:current=move || row.with(|r| r.as_ref().is_some_and(|r| r.current))
                                        data-quant=cell(|r| r.id.clone())
                                    >
                                        <th scope="row">{cell(|r| r.name.clone())}</th>
                                        <td class="num">{cell(|r| r.bpw.to_string())}</td>
                                        <td class="num">{cell(|r| fmt_bytes(r.size_bytes))}</td>
                                        <td class="num">{cell(|r| fmt_tok_s(r.ceiling))}</td>
                                        <td class="num">{cell(|r| fmt_tok_s(r.expected))}</td>
                                        <td>{cell(|r| views::fits_text(r.fits, 0.0))}</td>
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
