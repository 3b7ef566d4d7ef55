//! Every input of the scenario, grouped as a person thinks of them.

use leptos::prelude::*;

use super::context_field::ContextField;
use super::machine_picker::MachinePicker;
use super::model_picker::ModelPicker;
use super::number_field::NumberField;
use super::select_field::SelectField;
use crate::catalog::{catalog, Kind};
use crate::estimator::{Note, DEFAULT_RAM_BW_GBS, DEFAULT_RAM_GIB};
use crate::report::naming::field_label;
use crate::scenario::{Key, Scenario, Value, DEFAULT_KV, DEFAULT_QUANT};
use crate::web::state::scenario;

/// The form: machine, model, weights and KV formats, context, placement, batch, speculation, prompt.
#[component]
pub fn InputsForm() -> impl IntoView {
    let scenario = scenario();
    let cat = catalog();
    let quants: Vec<(String, String)> = cat
        .quants
        .iter()
        .filter(|q| q.weights)
        .map(|q| (q.id.clone(), format!("{} ({} bits/weight)", q.name, q.bpw)))
        .collect();
    let kv_types: Vec<(String, String)> = cat
        .quants
        .iter()
        .filter(|q| q.kv)
        .map(|q| (q.id.clone(), format!("{} ({} bits)", q.name, q.bpw)))
        .collect();
    let mut drafts: Vec<(String, String)> = vec![(String::new(), "none".into())];
    drafts.extend(cat.models.iter().filter(|m| m.draft).map(|m| (m.id.clone(), m.name.clone())));
    drafts.extend(
        cat.models
            .iter()
            .filter(|m| !m.draft && m.params_b < 10.0)
            .map(|m| (m.id.clone(), m.name.clone())),
    );
    // How the estimate used the placement: a share above what VRAM holds is capped.
    let current = expect_context::<Memo<Option<(crate::estimator::Inputs, crate::estimator::Estimate)>>>();
    let placement_note = move |pick: fn(&Note) -> bool| {
        Signal::derive(move || {
            current.with(|c| {
                c.as_ref()
                    .and_then(|(_, e)| e.notes.iter().find(|n| pick(n)).map(crate::report::views::page_note_text))
            })
        })
    };
    let ram_bw_shown = Memo::new(move |_| scenario.with(|s| s.has(Key::RamBw) || s.machine_kind(cat) == Kind::Gpu));
    let frac_notice = placement_note(|n| matches!(n, Note::GpuFracCapped { .. }));
    let ram_notice = placement_note(|n| matches!(n, Note::RamIgnored));
    view! {
        // One form per fieldset: a browser's autofill reads every control of the form a typed
        // field belongs to on each keystroke (forty-two controls and almost six hundred options in
        // one form took 3 ms a key in Chromium; the context's own form, 0.9 ms).
        <div class="inputs" role="group" aria-label="scenario">
            <form on:submit=no_submit><MachinePicker /></form>
            <form on:submit=no_submit><ModelPicker /></form>
            <form on:submit=no_submit><fieldset class="picker">
                <legend>"Weights and context"</legend>
                <SelectField key=Key::Quant label="Quantization" testid="input-quant" options=quants default=DEFAULT_QUANT />
                <SelectField key=Key::Kv label="KV cache type" testid="input-kv" options=kv_types default=DEFAULT_KV />
                <ContextField />
                <NumberField key=Key::Prompt label="Prompt" hint="tokens" testid="input-prompt" />
            </fieldset></form>
            <form on:submit=no_submit><fieldset class="picker">
                <legend>"Placement"</legend>
                <NumberField key=Key::GpuFrac label={field_label(Key::GpuFrac)} hint="0–1" testid="input-gpu-frac" placeholder="as much as fits".to_string() notice=frac_notice />
                <NumberField key=Key::Ram label={field_label(Key::Ram)} hint="GiB, discrete GPUs" testid="input-ram" placeholder=format!("{DEFAULT_RAM_GIB}") notice=ram_notice />
                // Only a discrete GPU reads the rest from system RAM: elsewhere the machine's own
                // memory is its RAM, and the field would mean nothing.
                <div class="slot" hidden=move || !ram_bw_shown.get()>
                    <NumberField key=Key::RamBw label={field_label(Key::RamBw)} hint="GB/s" testid="input-ram-bw" placeholder=format!("{DEFAULT_RAM_BW_GBS}") />
                </div>
                {offload_field(scenario)}
                <NumberField key=Key::CpuMoe label="Layers with experts in RAM" hint="the first N, --n-cpu-moe" testid="input-cpu-moe" placeholder="all".to_string() />
                <NumberField key=Key::Tp label={field_label(Key::Tp)} testid="input-tp" placeholder="1".to_string() />
                <NumberField key=Key::Split label={field_label(Key::Split)} testid="input-split" placeholder="1".to_string() />
            </fieldset></form>
            <form on:submit=no_submit><fieldset class="picker">
                <legend>"Batching and speculative decoding"</legend>
                <NumberField key=Key::Batch label="Batch" hint="streams" testid="input-batch" placeholder="1 (single stream)".to_string() />
                <SelectField key=Key::Draft label="Draft model" testid="input-draft" options=drafts default="" />
                <NumberField key=Key::K label="Draft length" hint="tokens" testid="input-k" />
                <NumberField key=Key::Accept label="Acceptance rate" hint="0–1" testid="input-accept" />
            </fieldset></form>
            <form on:submit=no_submit><fieldset class="picker">
                <legend>"Energy"</legend>
                <NumberField key=Key::KwhPrice label={field_label(Key::KwhPrice)} hint="per kWh, your currency" testid="input-kwh-price" placeholder="0.30".to_string() />
                <NumberField key=Key::Power label={field_label(Key::Power)} hint="W, in place of TDP" testid="input-power" placeholder="rated (TDP)".to_string() />
            </fieldset></form>
        </div>
    }
}

/// Enter in a field submits its form: the page has nothing to send, each change is applied as typed.
fn no_submit(ev: leptos::ev::SubmitEvent) {
    ev.prevent_default();
}

/// Experts in RAM: the checkbox sets `offload=experts`; clearing it clears `cpu_moe` too, which
/// implies it.
fn offload_field(scenario: RwSignal<Scenario>) -> impl IntoView {
    let offload = move || scenario.with(Scenario::offload_experts);
    view! {
        <label class="field check">
            <input
                type="checkbox"
                data-testid="input-offload"
                prop:checked={offload}
                on:change={move |ev| {
                    let on = event_target_checked(&ev);
                    scenario.update(|s| match on {
                        true => s.put(Key::Offload, Value::Text("experts".into())),
                        false => {
                            s.clear(Key::Offload);
                            s.clear(Key::CpuMoe);
                        }
                    });
                }}
            />
            <span>{field_label(Key::Offload)} " (MoE expert offload)"</span>
        </label>
    }
}
