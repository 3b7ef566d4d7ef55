//! Context length: a plain integer box with a log-scale slider beside it, up to 1M tokens.

use leptos::prelude::*;

use super::number_field::NumberField;
use crate::scenario::{Key, Value, DEFAULT_CTX};
use crate::web::state::scenario;

/// Slider positions are log2(tokens) in tenths, from 2^7 = 128 to 2^20 = 1,048,576.
const LOG_MIN: f64 = 7.0;
const LOG_MAX: f64 = 20.0;

/// The context field and its slider, both writing `ctx`.
#[component]
pub fn ContextField() -> impl IntoView {
    let scenario = scenario();
    let ctx = move || scenario.with(|s| s.whole(Key::Ctx).unwrap_or(DEFAULT_CTX)) as f64;
    let slider = move || format!("{:.1}", ctx().max(1.0).log2().clamp(LOG_MIN, LOG_MAX));
    let on_slide = move |ev| {
        if let Some(pos) = crate::text::decimal::parse(&event_target_value(&ev)) {
            let tokens = pos.exp2().round() as u32;
            scenario.update(|s| s.put(Key::Ctx, Value::Whole(tokens)));
        }
    };
    // A context past what the catalog model was trained for is estimated, and said beside the field.
    let beyond = move || {
        let trained = scenario.with(|s| {
            let (model, _) = crate::report::views::model_and_quant(s);
            crate::catalog::catalog().model(model?).ok()?.max_context
        })?;
        (ctx() > f64::from(trained)).then(|| {
            format!(
                "Beyond the {} tokens this model was trained for: it may not hold together that far.",
                crate::report::views::fmt_tokens(f64::from(trained))
            )
        })
    };
    view! {
        <div class="context-field">
            <NumberField key=Key::Ctx label="Context" hint="tokens: 4096, 32k, 1M" testid="input-ctx" />
            <input
                type="range"
                class="ctx-slider"
                aria-label="context length, log scale"
                data-testid="input-ctx-slider"
                min=LOG_MIN
                max=LOG_MAX
                step="0.1"
                prop:value={slider}
                aria-valuetext={move || format!("{} tokens", crate::report::views::fmt_tokens(ctx()))}
                on:input={on_slide}
            />
            <p class="field-warning" data-testid="input-ctx-warning" role="status">{beyond}</p>
        </div>
    }
}
