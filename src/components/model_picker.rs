//! The model: a catalog select or a custom model made of the figures given.

use leptos::prelude::*;

use super::number_field::NumberField;
use super::option_list::{bind_options, OptionGroup};
use super::scenario;
use crate::catalog::catalog;
use crate::scenario::{Key, Scenario, Value, DEFAULT_MODEL};

const CUSTOM: &str = "custom";

/// Model select (`input-model`) and, for a custom model, its parameters and shape.
#[component]
pub fn ModelPicker() -> impl IntoView {
    let scenario = scenario();
    let cat = catalog();
    let is_custom = Memo::new(move |_| scenario.with(Scenario::is_custom_model));
    // A memo: the select follows the choice, not every keystroke elsewhere in the form.
    let current = Memo::new(move |_| {
        if is_custom.get() {
            CUSTOM.to_string()
        } else {
            scenario.with(|s| s.text(Key::Model).unwrap_or(DEFAULT_MODEL).to_string())
        }
    });
    let on_change = move |ev| {
        let v = event_target_value(&ev);
        scenario.update(|s| {
            if v == CUSTOM {
                let m = catalog().model(s.text(Key::Model).unwrap_or(DEFAULT_MODEL)).ok();
                s.put_if_unset(Key::Params, m.map(|m| Value::Number(m.params_b)));
                s.put_if_unset(Key::Active, m.filter(|m| m.arch.is_moe()).map(|m| Value::Number(m.active_params_b)));
                s.put_if_unset(Key::Layers, m.map(|m| Value::Whole(m.arch.layers)));
                s.put_if_unset(Key::KvHeads, m.map(|m| Value::Whole(m.arch.kv_heads)));
                s.put_if_unset(Key::HeadDim, m.map(|m| Value::Whole(m.arch.head_dim)));
                s.clear(Key::Model);
            } else {
                s.choose_model(&v);
            }
        });
    };
    let select = NodeRef::new();
    bind_options(
        select,
        Box::new(move || {
            let models = cat.models.iter().map(|m| {
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
        }),
        current,
    );
    view! {
        <fieldset class="picker">
            <legend>"Model"</legend>
            <label class="field wide">
                <span class="field-label">"Model"</span>
                <select data-testid="input-model" on:change={on_change} node_ref=select></select>
            </label>
            {move || is_custom.get().then(|| view! {
                <div class="custom-fields">
                    <NumberField key=Key::Params label="Parameters" hint="billions" testid="input-params" placeholder="from file size".to_string() />
                    <NumberField key=Key::Active label="Active parameters" hint="billions, MoE" testid="input-active" placeholder="all".to_string() />
                    <NumberField key=Key::Weights label="Weight file" hint="e.g. 19GB, 4.58GiB" testid="input-weights" placeholder="from quant".to_string() />
                    <NumberField key=Key::Layers label="Layers" testid="input-layers" placeholder="unknown".to_string() />
                    <NumberField key=Key::KvHeads label="KV heads" testid="input-kv-heads" placeholder="unknown".to_string() />
                    <NumberField key=Key::HeadDim label="Head dim" testid="input-head-dim" placeholder="unknown".to_string() />
                </div>
            })}
        </fieldset>
    }
}
