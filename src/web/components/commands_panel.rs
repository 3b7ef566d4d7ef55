//! How to run and measure the scenario (`data-testid="commands"`): the llama.cpp (or mlx_lm)
//! command that runs it and the one that measures its decode, each with a copy button; the
//! measurement's output goes back into Calibrate.

use leptos::prelude::*;

use super::copy_button::copy_button;
use crate::catalog::catalog;
use crate::estimator::{Estimate, Inputs};
use crate::report::commands::commands;
use crate::web::state::{scenario, stale_attr, Deferred};

/// One command line and its copy button (`{testid}`, `{testid}-copy`).
fn line(label: &'static str, testid: &'static str, text: Signal<String>) -> impl IntoView {
    view! {
        <div class="command">
            <span class="field-label">{label}</span>
            <pre><code data-testid=testid>{move || text.get()}</code></pre>
            {copy_button(format!("{testid}-copy"), text, "Copy", "Copy failed: select the text")}
        </div>
    }
}

#[component]
pub fn CommandsPanel(estimate: Memo<Option<(Inputs, Estimate)>>) -> impl IntoView {
    // After the keystroke's frame, in a task of its own (state::Deferred).
    let shown = Deferred::new(scenario());
    let estimate = shown.estimate(estimate);
    let cmds = Memo::new(move |_| {
        estimate.with(|e| {
            e.as_ref()
                .map(|(inputs, e)| shown.scenario.with(|s| commands(s, catalog(), inputs, e)))
        })
    });
    let part = move |f: fn(&crate::report::commands::Commands) -> Option<String>| {
        Signal::derive(move || cmds.with(|c| c.as_ref().and_then(f).unwrap_or_default()))
    };
    // A format no listed engine loads has no command, only the note naming its runtimes.
    let runnable = move || cmds.with(|c| c.as_ref().is_some_and(|c| c.run.is_some()));
    view! {
        <section class="commands" data-testid="commands" aria-labelledby="commands-title" data-stale=move || stale_attr(shown.waiting())>
            <h2 id="commands-title">"Run it, then measure it"</h2>
            <Show when=runnable>
                {line("Run", "command-run", part(|c| c.run.clone()))}
                {line("Measure", "command-bench", part(|c| c.bench.clone()))}
            </Show>
            <p class="hint" data-testid="command-note">{move || cmds.with(|c| c.as_ref().map(|c| c.note.clone()).unwrap_or_default())}</p>
        </section>
    }
}
