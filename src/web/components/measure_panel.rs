//! Measure my machine: the bandwidth probe (public/measure-worker.js, loaded only when asked)
//! runs in Web Workers and on the GPU, never in the frame that paints a keystroke.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::catalog::catalog;
use crate::report::measure::{self, CpuFigure, GpuFigure, Message};
use crate::web::state::scenario;
use crate::web::tools;

/// The probe's worker and its message handler, stopped when dropped.
struct Probe {
    worker: web_sys::Worker,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
}

impl Drop for Probe {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

impl Probe {
    /// Starts the probe's worker, its messages going to `on_message`; `None` where the browser
    /// will not start it.
    fn start(on_message: impl Fn(String) + 'static) -> Option<Probe> {
        let handler = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            on_message(ev.data().as_string().unwrap_or_default());
        });
        let worker = web_sys::Worker::new("./measure-worker.js").ok()?;
        worker.set_onmessage(Some(handler.as_ref().unchecked_ref()));
        let _ = worker.post_message(&JsValue::from_str("measure"));
        Some(Probe {
            worker,
            _on_message: handler,
        })
    }
}

/// What the probe has said so far.
#[derive(Clone, Default)]
struct State {
    running: bool,
    progress: f64,
    status: String,
    cpu: Option<CpuFigure>,
    gpu: Option<GpuFigure>,
    /// Why the GPU was not measured.
    gpu_note: Option<String>,
}

/// Starts the probe once the readers' part (which reads its messages) is in.
fn start_probe(
    state: RwSignal<State>,
    probe: StoredValue<Option<Probe>, LocalStorage>,
    stop: impl Fn(&str) + 'static,
    on_message: impl Fn(String) + 'static,
) {
    state.set(State {
        running: true,
        status: "Starting…".into(),
        ..State::default()
    });
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(e) = crate::in_part!(tools::ready()) {
            return stop(&e.to_string());
        }
        if !state.with_untracked(|st| st.running) {
            return; // cancelled while the part was fetched
        }
        match Probe::start(on_message) {
            Some(p) => probe.set_value(Some(p)),
            None => stop("This browser would not start the probe's worker."),
        }
    });
}

/// `measure-start`, `measure-progress`, `measure-cancel`, `measure-status`, `measure-result`,
/// `measure-cpu-result`, `measure-gpu-result`, `measure-use` (and `measure-matches`).
#[component]
pub fn MeasurePanel() -> impl IntoView {
    let scenario = scenario();
    let commit = expect_context::<crate::web::state::UrlCommit>();
    let probe = StoredValue::new_local(None::<Probe>);
    // One signal for the probe's whole state: its parts change together.
    let state = RwSignal::new(State::default());
    let stop = move |text: &str| {
        probe.set_value(None);
        state.update(|st| {
            st.running = false;
            st.status = text.to_string();
        });
    };
    let on_parsed = move |parsed: Result<Message, String>| match parsed {
        Ok(Message::Done) => {
            state.update(|st| st.progress = 1.0);
            stop("Done.");
        }
        Ok(m) => state.update(|st| st.take(m)),
        Err(e) => stop(&e),
    };
    // The probe's messages are read in the readers' part, which `start` has fetched already: each
    // call then answers at its first poll, so the messages land in the order they came.
    let on_message = move |text: String| {
        wasm_bindgen_futures::spawn_local(async move {
            on_parsed(crate::in_part!(tools::probe_message(text)).unwrap_or_else(|e| Err(e.to_string())));
        });
    };
    let start = move |_| start_probe(state, probe, stop, on_message);
    let cancel = move |_| stop("Cancelled.");
    on_cleanup(move || probe.set_value(None));
    let result = move || state.with(|st| scenario.with(|s| st.result(s)));
    let use_it = move |_| {
        let (cpu, gpu) = state.with_untracked(|st| (st.cpu.clone(), st.gpu.clone()));
        let before = scenario.get_untracked();
        let status = match scenario.try_update(|s| measure::apply(s, catalog(), cpu.as_ref(), gpu.as_ref())) {
            Some(Ok(())) => {
                commit.0.run(());
                scenario.with_untracked(|after| measure::applied_text(&before, after, catalog()))
            }
            Some(Err(e)) => e,
            None => return,
        };
        state.update(|st| st.status = status);
    };
    let matches = move || state.with(State::likely_machines);
    // The list of likely adapters shows once there is one (the probe's progress changes the
    // state often; the list is built only when it appears).
    let any_match = Memo::new(move |_| !matches().is_empty());
    view! {
        <div class="measure" aria-label="measure this machine">
            <div class="share-row">
                <button type="button" data-testid="measure-start" on:click=start disabled=move || state.with(|st| st.running)>
                    "Measure my machine"
                </button>
                <button type="button" data-testid="measure-cancel" on:click=cancel disabled=move || !state.with(|st| st.running)>
                    "Cancel"
                </button>
                <progress
                    data-testid="measure-progress"
                    max="1"
                    prop:value=move || state.with(|st| st.progress)
                    hidden=move || !state.with(|st| st.running)
                ></progress>
            </div>
            <p class="hint" data-testid="measure-status" role="status">{move || state.with(|st| st.status.clone())}</p>
            <p data-testid="measure-result">{result}</p>
            <p class="hint" data-testid="measure-cpu-result">{move || state.with(|st| st.cpu.as_ref().map(measure::cpu_text))}</p>
            <p class="hint" data-testid="measure-gpu-result">{move || state.with(|st| st.gpu.as_ref().map(measure::gpu_text).or_else(|| st.gpu_note.clone()))}</p>
            {move || any_match.get().then(|| adapter_select(Signal::derive(matches)))}
            <button
                type="button"
                data-testid="measure-use"
                on:click=use_it
                disabled=move || state.with(|st| measure::taken(st.cpu.as_ref(), st.gpu.as_ref()).is_none())
            >
                "Use as machine"
            </button>
        </div>
    }
}

impl State {
    /// Takes one of the probe's messages (all but `Done`, which stops it).
    fn take(&mut self, m: Message) {
        match m {
            Message::Progress { value, text } => {
                self.progress = value;
                self.status = text;
            }
            Message::Cpu(c) => self.cpu = Some(c),
            Message::CpuFailed(why) => self.status = format!("The CPU test failed: {why}"),
            Message::Gpu(g) => self.gpu = Some(g),
            Message::GpuMissing(why) => self.gpu_note = Some(format!("GPU: not measured: {why}.")),
            Message::Done => {}
        }
    }

    /// The figure Use as machine takes, beside the chosen machine's spec.
    fn result(&self, s: &crate::scenario::Scenario) -> Option<String> {
        let spec = crate::report::views::machine_id(s).and_then(|id| catalog().machine(id).ok());
        measure::result_text(
            self.cpu.as_ref(),
            self.gpu.as_ref(),
            spec.map(|m| (m.name.as_str(), m.bandwidth_gbs, m.kind)),
        )
    }

    /// The catalog machines a real adapter may be: (id, name).
    fn likely_machines(&self) -> Vec<(String, String)> {
        self.gpu
            .as_ref()
            .filter(|g| !g.fallback)
            .map(|g| {
                measure::adapter_matches(catalog(), g)
                    .into_iter()
                    .map(|m| (m.id.clone(), m.name.clone()))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// The catalog machines the adapter may be, one of which can be chosen (`measure-matches`).
fn adapter_select(matches: Signal<Vec<(String, String)>>) -> impl IntoView {
    let scenario = scenario();
    let commit = expect_context::<crate::web::state::UrlCommit>();
    view! {
        <label class="field wide">
            <span class="field-label">"This adapter may be"</span>
            <select
                data-testid="measure-matches"
                on:change=move |ev| {
                    let id = event_target_value(&ev);
                    if !id.is_empty() {
                        scenario.update(|s| *s = crate::report::views::with_machine(s, &id));
                        commit.0.run(());
                    }
                }
            >
                <option value="">"choose a catalog machine…"</option>
                {move || matches.get().into_iter().map(|(id, name)| view! { <option value=id>{name}</option> }).collect_view()}
            </select>
        </label>
    }
}
