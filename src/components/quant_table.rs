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
                        {move || {
                            rows.get()
                                .into_iter()
                                .map(|r| {
                                    view! {
                                        <tr class:current=r.current data-quant=r.id.clone()>
                                            <th scope="row">{r.name.clone()}</th>
                                            <td class="num">{r.bpw}</td>
                                            <td class="num">{fmt_bytes(r.size_bytes)}</td>
                                            <td class="num">{fmt_tok_s(r.ceiling)}</td>
                                            <td class="num">{fmt_tok_s(r.expected)}</td>
                                            <td>{views::fits_text(r.fits, 0.0)}</td>
                                        </tr>
                                    }
                                })
                                .collect_view()
                        }}
                    </tbody>
                </table>
            </div>
        </section>
    }
}
