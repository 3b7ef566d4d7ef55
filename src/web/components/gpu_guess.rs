//! "Looks like an NVIDIA GeForce RTX 4090 — use it?": the browser's own GPU name, matched
//! against the catalog, offered once and never applied without a click, never sent anywhere.

use leptos::prelude::*;

use crate::catalog::catalog;
use crate::report::measure;
use crate::web::long_tail::Tail;
use crate::web::state::scenario;

/// The offer (`gpu-guess`, with `gpu-guess-use` and `gpu-guess-dismiss`), shown when the
/// browser names a GPU the catalog knows and the page shows another machine.
#[component]
pub fn GpuGuess() -> impl IntoView {
    let scenario = scenario();
    let commit = use_context::<crate::web::state::UrlCommit>();
    let (guess, set_guess) = signal(None::<(String, String)>);
    // Asking WebGL for its renderer creates a context: after the page has painted, never before.
    // A GPU the curated catalog does not know is looked for again in the long tail of GPUs,
    // fetched for it.
    crate::web::browser::after_ms(200, move || {
        let Some(renderer) = crate::web::browser::gpu_renderer() else {
            return;
        };
        let software = measure::is_software_renderer(&renderer);
        let found = move || crate::report::measure::machine_from_renderer(catalog(), &renderer).map(|m| (m.id.clone(), m.name.clone()));
        match found() {
            None if !software && !Tail::Gpus.loaded() => crate::web::long_tail::request(Tail::Gpus, move || set_guess.set(found())),
            f => set_guess.set(f),
        }
    });
    let shown = move || {
        let (id, name) = guess.get()?;
        let current = scenario.with(|s| crate::report::views::machine_id(s).map(str::to_string));
        (current.as_deref() != Some(id.as_str())).then_some((id, name))
    };
    let use_it = move |_| {
        if let Some((id, _)) = guess.get_untracked() {
            scenario.update(|s| *s = crate::report::views::with_machine(s, &id));
            if let Some(c) = commit {
                c.0.run(());
            }
        }
        set_guess.set(None);
    };
    view! {
        {move || shown().map(|(_, name)| view! {
            <p class="gpu-guess" role="status" data-testid="gpu-guess">
                {format!("Looks like an {name} — use it? ")}
                <button type="button" data-testid="gpu-guess-use" on:click=use_it>"Use it"</button>
                " "
                <button type="button" data-testid="gpu-guess-dismiss" on:click=move |_| set_guess.set(None)>"No, thanks"</button>
                <small>" (your browser's name for its GPU, read here and sent nowhere)"</small>
            </p>
        })}
    }
}
