//! Calibrate to your own machine: paste what llama-bench (or llama-server, or ollama) printed.

use leptos::prelude::*;

use crate::report::calibrate::Shown;
use crate::scenario::{Key, Value};
use crate::web::parse_worker;
use crate::web::state::scenario;

/// The calibration panel: `calibrate-input`, `calibrate-apply`, `calibrate-status`,
/// `calibrate-result` (the fit, and each run before and after) and `calibrate-clear`; while the
/// paste is read (in the parse worker), `calibrate-cancel`.
#[component]
pub fn CalibratePanel() -> impl IntoView {
    let scenario = scenario();
    let commit = expect_context::<crate::web::state::UrlCommit>();
    let (text, set_text) = signal(String::new());
    let (status, set_status) = signal(None::<Result<String, String>>);
    let (result, set_result) = signal(None::<Shown>);
    let job = StoredValue::new_local(None::<parse_worker::Job>);
    let (running, set_running) = signal(false);
    let finish = move |s: Result<String, String>| {
        job.set_value(None);
        set_running.set(false);
        set_status.set(Some(s));
    };
    let on_reply = move |reply: parse_worker::Reply| match reply {
        parse_worker::Reply::Progress(_) => {}
        parse_worker::Reply::Done(Ok(parts)) => match Shown::from_parts(&parts) {
            Some(c) => {
                scenario.update(|s| land(s, &c));
                commit.0.run(());
                finish(Ok(c.status.clone()));
                set_result.set(Some(c));
            }
            None => finish(Err("the parse worker gave an answer this page does not know".into())),
        },
        parse_worker::Reply::Done(Err(e)) => finish(Err(e)),
    };
    let apply = move |_| {
        job.set_value(None);
        let request = parse_worker::Request::Calibrate {
            paste: text.get_untracked(),
            query: scenario.with_untracked(|s| s.to_query_with_defaults()),
        };
        set_running.set(true);
        set_status.set(Some(Ok("Reading your runs…".into())));
        match parse_worker::start(request, on_reply) {
            Ok(j) => job.set_value(Some(j)),
            Err(e) => finish(Err(e)),
        }
    };
    let cancel = move |_| finish(Ok("Stopped: nothing changed.".into()));
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
            <label class="field wide">
                <span class="field-label">"Your llama-bench, llama-server or ollama output"</span>
                <textarea
                    id="calibrate-input"
                    rows="5"
                    data-testid="calibrate-input"
                    placeholder="| model | size | params | backend | ngl | test | t/s |"
                    prop:value=text
                    on:input:target=move |ev| set_text.set(ev.target().value())
                ></textarea>
            </label>
            <div class="share-row">
                <button type="button" data-testid="calibrate-apply" on:click=apply>"Fit to my runs"</button>
                <button type="button" data-testid="calibrate-clear" on:click=clear>"Clear calibration"</button>
                {move || running.get().then(|| view! {
                    <button type="button" data-testid="calibrate-cancel" on:click=cancel>"Cancel"</button>
                })}
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

/// A fit lands in the scenario: its `cal=`, and the machine the paste named where the link names
/// none.
fn land(s: &mut crate::scenario::Scenario, c: &Shown) {
    if let Some(hw) = c.hw.clone().filter(|_| !s.has(Key::Hw) && !s.has(Key::Bw)) {
        s.put(Key::Hw, Value::Text(hw));
    }
    s.put(Key::Cal, Value::Text(c.cal.clone()));
}

/// The fit and each run before and after it.
fn fit_view(c: &Shown) -> impl IntoView {
    view! {
        <p>{c.fit.clone()}</p>
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
                {c.rows
                    .iter()
                    .map(|[label, measured, before, after]| {
                        view! {
                            <tr>
                                <th scope="row">{label.clone()}</th>
                                <td>{measured.clone()}</td>
                                <td>{before.clone()}</td>
                                <td>{after.clone()}</td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}
