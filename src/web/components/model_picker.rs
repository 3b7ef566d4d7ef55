//! The model: a catalog select or a custom model made of the figures given.

use leptos::prelude::*;

use super::number_field::NumberField;
use super::option_list::{bind_options, OptionGroup};
use super::search_box::SearchBox;
use crate::catalog::catalog;
use crate::report::naming::field_label;
use crate::scenario::{Key, Scenario, Value, DEFAULT_MODEL};
use crate::web::state::scenario;

const CUSTOM: &str = "custom";

/// Model search (`input-model-search`, its status `model-search-status`), the model select
/// (`input-model`, family by family, smallest first; what a search finds, best first), what choosing did to the format
/// (`model-format-note`) and, for a custom model, its parameters and shape.
#[component]
pub fn ModelPicker() -> impl IntoView {
    let scenario = scenario();
    let cat = catalog();
    let search = RwSignal::new(String::new());
    let (format_note, set_format_note) = signal(None::<String>);
    let found = Memo::new(move |_| search.with(|q| cat.search_models(q).iter().map(|m| m.id.clone()).collect::<Vec<_>>()));
    let is_custom = Memo::new(move |_| scenario.with(Scenario::is_custom_model));
    // A memo: the select follows the choice, not every keystroke elsewhere in the form.
    let current = Memo::new(move |_| {
        if is_custom.get() {
            CUSTOM.to_string()
        } else {
            scenario.with(|s| s.text(Key::Model).unwrap_or(DEFAULT_MODEL).to_string())
        }
    });
    let choose = move |v: String| {
        let mut note = None;
        scenario.update(|s| {
            if v == CUSTOM {
                start_custom(s);
            } else {
                note = crate::report::runnable::choose_following_format(s, catalog(), &v);
            }
        });
        set_format_note.set(note);
    };
    let on_change = move |ev| choose(event_target_value(&ev));
    let select = NodeRef::new();
    bind_options(
        select,
        Box::new(move || {
            let searching = search.with(|q| !q.trim().is_empty());
            let cur = if searching { current.get() } else { String::new() };
            model_options(&cur, &found.get())
        }),
        current,
    );
    view! {
        <fieldset class="picker">
            <legend>"Model"</legend>
            <SearchBox
                testid="input-model-search"
                status_testid="model-search-status"
                label="Search models"
                placeholder="llama 70b, qwen3…"
                nouns=("model", "models")
                hint="a family (llama, qwen3)"
                search=search
                found=found
                on_choose=Callback::new(choose)
            />
            <label class="field wide">
                <span class="field-label">"Model"</span>
                <select data-testid="input-model" on:change={on_change} node_ref=select></select>
            </label>
            {move || format_note.get().map(|n| view! { <p class="hint" role="status" data-testid="model-format-note">{n}</p> })}
            {move || is_custom.get().then(custom_fields)}
        </fieldset>
    }
}

/// A custom model starts from the chosen catalog model's figures.
fn start_custom(s: &mut Scenario) {
    let m = catalog().model(s.text(Key::Model).unwrap_or(DEFAULT_MODEL)).ok();
    s.put_if_unset(Key::Params, m.map(|m| Value::Number(m.params_b)));
    s.put_if_unset(Key::Active, m.filter(|m| m.arch.is_moe()).map(|m| Value::Number(m.active_params_b)));
    s.put_if_unset(Key::Layers, m.map(|m| Value::Whole(m.arch.layers)));
    s.put_if_unset(Key::KvHeads, m.map(|m| Value::Whole(m.arch.kv_heads)));
    s.put_if_unset(Key::HeadDim, m.map(|m| Value::Whole(m.arch.head_dim)));
    s.clear(Key::Model);
}

/// The select's options: the models found, in the order the search ranks them (family by family
/// when it is blank), and the chosen one, `cur`, while searching; then Custom model….
fn model_options(cur: &str, found: &[String]) -> Vec<OptionGroup> {
    let cat = catalog();
    let chosen = (!cur.is_empty() && !found.iter().any(|f| f == cur)).then_some(cur);
    let models = found
        .iter()
        .map(String::as_str)
        .chain(chosen)
        .filter_map(|id| cat.model(id).ok())
        .map(|m| {
            let label = if m.arch.is_moe() {
                format!("{} ({}B, {}B active)", m.name, m.params_b, m.active_params_b)
            } else {
                format!("{} ({}B)", m.name, m.params_b)
            };
            (m.id.clone(), label)
        });
    vec![OptionGroup {
        label: None,
        options: models.chain([(CUSTOM.to_string(), "Custom model…".to_string())]).collect(),
    }]
}

/// A custom model's figures.
fn custom_fields() -> impl IntoView {
    view! {
        <div class="custom-fields">
            <NumberField key=Key::Params label="Parameters" hint="billions" testid="input-params" placeholder="from file size".to_string() />
            <NumberField key=Key::Active label="Active parameters" hint="billions, MoE" testid="input-active" placeholder="all".to_string() />
            <NumberField key=Key::Weights label="Weight file" hint="e.g. 19GB, 4.58GiB" testid="input-weights" placeholder="from quant".to_string() />
            <NumberField key=Key::Layers label={field_label(Key::Layers)} testid="input-layers" placeholder="unknown".to_string() />
            <NumberField key=Key::KvHeads label={field_label(Key::KvHeads)} testid="input-kv-heads" placeholder="unknown".to_string() />
            <NumberField key=Key::HeadDim label={field_label(Key::HeadDim)} testid="input-head-dim" placeholder="unknown".to_string() />
            <NumberField key=Key::Experts label={field_label(Key::Experts)} hint="routed, per layer (MoE)" testid="input-experts" placeholder="none".to_string() />
            <NumberField key=Key::TopK label={field_label(Key::TopK)} hint="top_k (MoE)" testid="input-top-k" placeholder="none".to_string() />
        </div>
    }
}
