//! "My run is slower than tokbound says": paste a run, see why it differs and what to change,
//! and give the run back as a data row.

use leptos::prelude::*;

use super::copy_button::copy_button;
use crate::report::contribute::{issue_link, REPO};
use crate::report::diagnose::{apply_change, change_keys, Cause, Diagnosis, RunDiagnosis};
use crate::scenario::Scenario;
use crate::text::units::fmt_tok_s;
use crate::web::parse_worker;
use crate::web::state::scenario;

/// The diagnose panel (`diagnose`): the paste (`diagnose-input`), `diagnose-run`, and while the
/// parse worker reads it `diagnose-cancel`; per run its verdict (`diagnose-verdict`), each cause
/// (`diagnose-cause`, with `data-expected-tok-s` and `data-change`, and its `diagnose-apply`),
/// the data row (`diagnose-row`, `diagnose-row-copy`) and, where the build names a repository,
/// the prefilled issue (`diagnose-contribute`).
#[component]
pub fn DiagnosePanel() -> impl IntoView {
    let scenario = scenario();
    let (text, set_text) = signal(String::new());
    let (status, set_status) = signal(None::<Result<String, String>>);
    let (result, set_result) = signal(None::<Diagnosis>);
    let job = StoredValue::new_local(None::<parse_worker::Job>);
    let (running, set_running) = signal(false);
    let finish = move |s: Result<String, String>| {
        job.set_value(None);
        set_running.set(false);
        set_status.set(Some(s));
    };
    let on_reply = move |reply: parse_worker::Reply| match reply {
        parse_worker::Reply::Progress(_) => {}
        parse_worker::Reply::Done(Ok(parts)) => match Diagnosis::from_parts(&parts) {
            Some(d) => {
                let n = d.runs.len();
                finish(Ok(format!("{n} run{} of {} diagnosed.", if n == 1 { "" } else { "s" }, d.form)));
                set_result.set(Some(d));
            }
            _ => finish(Err("the parse worker gave an answer this page does not know".into())),
        },
        parse_worker::Reply::Done(Err(e)) => finish(Err(e)),
    };
    let run = move |_| {
        job.set_value(None);
        let request = parse_worker::Request::Diagnose {
            paste: text.get_untracked(),
            query: scenario.with_untracked(|s| s.to_query_with_defaults()),
        };
        set_running.set(true);
        set_status.set(Some(Ok("Reading your run…".into())));
        match parse_worker::start(request, on_reply) {
            Ok(j) => job.set_value(Some(j)),
            Err(e) => finish(Err(e)),
        }
    };
    let cancel = move |_| finish(Ok("Stopped: nothing changed.".into()));
    view! {
        <section class="diagnose" aria-label="diagnose your run" data-testid="diagnose">
            <h2>"My run is slower (or faster) than this"</h2>
            <p class="hint">
                "Paste what your run printed: llama-bench (its table, -o json, -o jsonl or -o csv), llama-server's or llama-cli's timing lines, "
                "ollama run --verbose, or llama-sweep-bench / llama-batched-bench rows. Each generation run is set beside what tokbound expects "
                "of its own settings on the machine chosen here, with the causes of the difference and what each change gives."
            </p>
            <label class="field wide">
                <span class="field-label">"Your run's output"</span>
                <textarea
                    id="diagnose-input"
                    rows="5"
                    data-testid="diagnose-input"
                    placeholder="slot print_timing: id  0 | task 0 | eval time = … ms / … tokens"
                    prop:value=text
                    on:input:target=move |ev| set_text.set(ev.target().value())
                ></textarea>
            </label>
            <div class="share-row">
                <button type="button" data-testid="diagnose-run" on:click=run>"Diagnose my run"</button>
                {move || running.get().then(|| view! {
                    <button type="button" data-testid="diagnose-cancel" on:click=cancel>"Cancel"</button>
                })}
            </div>
            <p data-testid="diagnose-status" class="import-status" class:error=move || matches!(status.get(), Some(Err(_)))>
                {move || status.get().map(|s| s.unwrap_or_else(|e| e))}
            </p>
            {move || result.get().map(|d| d.runs.iter().map(run_view).collect_view())}
        </section>
    }
}

/// One run: its verdict and figures, its causes, what was read and assumed, and its row.
fn run_view(r: &RunDiagnosis) -> impl IntoView {
    let verdict = r.verdict.id();
    let figures = r.figures();
    let read = r.read.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ");
    let row = r.row.clone();
    let link = issue_link(REPO, &r.label, &r.row, &r.row_file, &r.scenario);
    view! {
        <article class="diagnosis">
            <h3>{r.label.clone()}</h3>
            <p data-testid="diagnose-verdict" data-verdict=verdict>{r.summary.clone()}</p>
            <p>{figures}</p>
            <ol class="causes">
                {r.causes.iter().map(|c| cause_view(&r.scenario, c)).collect_view()}
            </ol>
            <p class="hint">"Read from the run: " {read}</p>
            <ul class="hint">{r.assumed.iter().map(|a| view! { <li>{a.clone()}</li> }).collect_view()}</ul>
            <p>"Your run as a line of data/" {r.row_file.clone()} ":"</p>
            <pre data-testid="diagnose-row">{row.clone()}</pre>
            <div class="share-row">
                {copy_button("diagnose-row-copy".into(), Signal::derive(move || row.clone()), "Copy row", "Copy failed: select the row")}
                {link.map(|href| view! {
                    <a data-testid="diagnose-contribute" href=href target="_blank" rel="noopener">"Contribute this run"</a>
                })}
            </div>
        </article>
    }
}

/// One cause, and the button that opens the run's own scenario with its change.
fn cause_view(run_scenario: &str, c: &Cause) -> impl IntoView {
    let scenario = scenario();
    let commit = expect_context::<crate::web::state::UrlCommit>();
    let (base, change) = (run_scenario.to_string(), c.change.clone());
    // A cause the machine's measured runs point to changes nothing: its button opens the run's
    // own scenario, whose figure is the one its fix reaches.
    let button = if c.change.is_empty() {
        "Open the run's scenario"
    } else {
        "Open with this change"
    };
    let apply = move |_| {
        let next = change_keys(&change).and_then(|pairs| apply_change(&Scenario::from_query(&base).0, &pairs));
        if let Some(next) = next {
            scenario.set(next);
            commit.0.run(());
        }
    };
    view! {
        <li data-testid="diagnose-cause" data-cause=c.id.clone() data-expected-tok-s=format!("{}", c.expected_tok_s) data-change=c.change.clone()>
            <strong>{c.label.clone()}</strong>
            ": " {c.evidence.clone()} ". Fixed: " {fmt_tok_s(c.expected_tok_s)} " tok/s. "
            <button type="button" data-testid="diagnose-apply" on:click=apply>{button}</button>
        </li>
    }
}
