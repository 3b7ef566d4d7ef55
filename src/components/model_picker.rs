//! The model: a catalog select or a custom model made of the figures given.

use leptos::prelude::*;

use super::number_field::NumberField;
use super::option_list::{bind_options, OptionGroup};
use super::scenario;
use crate::catalog::catalog;
use crate::scenario::DEFAULT_MODEL;

const CUSTOM: &str = "custom";

/// Model select (`input-model`) and, for a custom model, its parameters and shape.
#[component]
pub fn ModelPicker() -> impl IntoView {
    let scenario = scenario();
    let cat = catalog();
    let is_custom = Memo::new(move |_| {
        scenario.with(|s| s.model.is_none() && (s.has_custom_model_keys() || (s.weights.is_some() && s.hw.is_none() && s.bw.is_some())))
    });
    // A memo: the select follows the choice, not every keystroke elsewhere in the form.
    let current = Memo::new(move |_| {
        if is_custom.get() {
            CUSTOM.to_string()
        } else {
            scenario.with(|s| s.model.clone().unwrap_or_else(|| DEFAULT_MODEL.to_string()))
        }
    });
    let on_change = move |ev| {
        let v = event_target_value(&ev);
        scenario.update(|s| {
            if v == CUSTOM {
                let m = catalog().model(s.model.as_deref().unwrap_or(DEFAULT_MODEL)).ok();
                s.params = s.params.or(m.map(|m| m.params_b));
                s.active = s.active.or(m.filter(|m| m.arch.is_moe()).map(|m| m.active_params_b));
                s.layers = s.layers.or(m.map(|m| m.arch.layers));
                s.kv_heads = s.kv_heads.or(m.map(|m| m.arch.kv_heads));
                s.head_dim = s.head_dim.or(m.map(|m| m.arch.head_dim));
                s.model = None;
            } else {
                for k in ["params", "active", "layers", "kv_heads", "head_dim", "weights"] {
                    s.clear(k);
                }
                s.model = (v != DEFAULT_MODEL).then_some(v);
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
            <Show when=move || is_custom.get()>
                <div class="custom-fields">
                    <NumberField key="params" label="Parameters" hint="billions" testid="input-params" placeholder="from file size".to_string() />
                    <NumberField key="active" label="Active parameters" hint="billions, MoE" testid="input-active" placeholder="all".to_string() />
                    <NumberField key="weights" label="Weight file" hint="e.g. 19GB, 4.58GiB" testid="input-weights" placeholder="from quant".to_string() />
                    <NumberField key="layers" label="Layers" testid="input-layers" placeholder="unknown".to_string() />
                    <NumberField key="kv_heads" label="KV heads" testid="input-kv-heads" placeholder="unknown".to_string() />
                    <NumberField key="head_dim" label="Head dim" testid="input-head-dim" placeholder="unknown".to_string() />
                </div>
            </Show>
        </fieldset>
    }
}
