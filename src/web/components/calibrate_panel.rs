//! Calibrate to your own machine: paste what llama-bench (or llama-server, or ollama) printed.

use leptos::prelude::*;

use crate::catalog::catalog;
use crate::report::calibrate::{self, Calibrated};
use crate::scenario::{Key, Value};
use crate::text::units::fmt_tok_s;
use crate::web::state::scenario;

/// The calibration panel: `calibrate-input`, `calibrate-apply`, `calibrate-status`,
/// `calibrate-result` (the fit, and each run before and after) and `calibrate-clear`.
#[component]
pub fn CalibratePanel() -> impl IntoView {
    let scenario = scenario();
    let commit = expect_context::<crate::web::state::UrlCommit>();
    let (text, set_text) = signal(String::new());
    let (status, set_status) = signal(None::<Result<String, String>>);
    let (result, set_result) = signal(None::<Calibrated>);
    let apply = move |_| {
        let fitted = scenario.with_untracked(|s| calibrate::calibrate_on_screen(&text.get_untracked(), s, catalog()));
        match fitted {
            Ok(c) => {
                scenario.update(|s| {
                    if let Some(hw) = c.scenario.text(Key::Hw).filter(|_| !s.has(Key::Hw) && !s.has(Key::Bw)) {
                        s.put(Key::Hw, Value::Text(hw.to_string()));
                    }
                    s.put(Key::Cal, Value::Text(c.cal.clone()));
                });
                commit.0.run(());
                set_status.set(Some(Ok(format!(
                    "{} rows of {}, {}: cal={}",
                    c.residuals.len(),
                    c.form,
                    c.basis,
                    c.cal
                ))));
                set_result.set(Some(c));
            }
            Err(e) => set_status.set(Some(Err(e))),
        }
    };
    let clear = move |_| {
        scenario.update(|s| s.clear(Key::Cal));
        commit.0.run(());
        set_result.set(None);
        set_status.set(Some(Ok("Calibration cleared: the catalog's fit applies.".into())));
    };
    view! {
        <section class="calibrate" aria-label="calibrate to your machine">
            <h2>"Calibrate to your machine"</h2>
            <p class="hint">
                "Paste llama-bench's output (its table, or -o json / -o jsonl), llama-server's timing lines or "
                "ollama run --verbose statistics. The expected figure is then fitted to your own runs, and the link carries the fit (cal=)."
            </p>
            <label class="field-label" for="calibrate-input">"Your llama-bench, llama-server or ollama output"</label>
            <textarea
                id="calibrate-input"
                rows="5"
                data-testid="calibrate-input"
                placeholder="| model | size | params | backend | ngl | test | t/s |"
                prop:value=text
                on:input:target=move |ev| set_text.set(ev.target().value())
            ></textarea>
            <div class="share-row">
                <button type="button" data-testid="calibrate-apply" on:click=apply>"Fit to my runs"</button>
                <button type="button" data-testid="calibrate-clear" on:click=clear>"Clear calibration"</button>
            </div>
            <p data-testid="calibrate-status" class="import-status" class:error=move || matches!(status.get(), Some(Err(_)))>
                {move || status.get().map(|s| s.unwrap_or_else(|e| e))}
            </p>
            <div data-testid="calibrate-result">
                {move || result.get().map(|c| fit_view(&c))}
            </div>
        </section>
    }
}

/// The fit and each run before and after it.
fn fit_view(c: &Calibrated) -> impl IntoView {
    view! {
        <p>
            {format!(
                "Weights stream at {:.0}% of peak, {:.1} µs per layer per token, band ±{:.0}%.",
                c.fit.efficiency * 100.0,
                c.fit.per_layer_s * 1e6,
                c.fit.band * 100.0
            )}
        </p>
        <table class="residuals">
            <thead>
                <tr>
                    <th scope="col">"run"</th>
                    <th scope="col">"measured"</th>
                    <th scope="col">"before"</th>
                    <th scope="col">"after"</th>
                </tr>
            </thead>
            <tbody>
                {c.residuals
                    .iter()
                    .map(|r| {
                        view! {
                            <tr>
                                <th scope="row">{r.label.clone()}</th>
                                <td>{fmt_tok_s(r.measured_tok_s)}</td>
                                <td>{fmt_tok_s(r.before_tok_s)}</td>
                                <td>{fmt_tok_s(r.after_tok_s)}</td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}
