//! The chosen machine across every weight format: quantization as a speed feature.

use leptos::prelude::*;

use super::live_cells::OnScreen;
use crate::units::{fmt_bytes, fmt_tok_s};
use crate::views::{self, QuantRow};

/// The formats table (`quant-table`).
#[component]
pub fn QuantTable(
    /// One row per weight format.
    rows: Memo<Vec<QuantRow>>,
) -> impl IntoView {
    let on_screen = StoredValue::new_local(OnScreen::new());
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
                        // Keyed by position, the changing cells written by one effect per row (rows
                        // off screen after the next paint), as in the comparison table.
                        <For each=move || 0..rows.with(Vec::len) key=|i| *i let:i>
                            {
                                let (tr, cells) = on_screen.with_value(|s| {
                                    s.live_row(i, 4, move || {
                                        rows.with(|r| {
                                            r.get(i).map_or_else(Vec::new, |r| {
                                                vec![fmt_bytes(r.size_bytes), fmt_tok_s(r.ceiling), fmt_tok_s(r.expected), views::fits_text(r.fits, 0.0)]
                                            })
                                        })
                                    })
                                });
                                let row = Memo::new(move |_| rows.with(|r| r.get(i).map(|r| (r.id.clone(), r.name.clone(), r.bpw, r.current))));
                                let fixed = move |f: fn(&(String, String, f64, bool)) -> String| move || row.with(|r| r.as_ref().map(f).unwrap_or_default());
                                view! {
                                    <tr
                                        node_ref=tr
                                        data-row=i
                                        class:current=move || row.with(|r| r.as_ref().is_some_and(|r| r.3))
                                        data-quant=fixed(|r| r.0.clone())
                                    >
                                        <th scope="row">{fixed(|r| r.1.clone())}</th>
                                        <td class="num">{fixed(|r| r.2.to_string())}</td>
                                        <td class="num" node_ref=cells[0]></td>
                                        <td class="num" node_ref=cells[1]></td>
                                        <td class="num" node_ref=cells[2]></td>
                                        <td node_ref=cells[3]></td>
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
