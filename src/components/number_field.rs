//! A numeric input that validates as you type and never throws the text away.

use leptos::prelude::*;

/// A labelled numeric field bound to `value`; invalid text stays in the box with a message beside it.
#[component]
pub fn NumberField(
    /// Visible label.
    label: &'static str,
    /// The `data-testid` of the `<input>`.
    testid: &'static str,
    /// The last valid value.
    value: ReadSignal<f64>,
    /// Written only with valid values.
    set_value: WriteSignal<f64>,
    /// Parses and validates the text; `Err` holds the message shown beside the field.
    parse: fn(&str) -> Result<f64, String>,
) -> impl IntoView {
    let (text, set_text) = signal(value.get_untracked().to_string());
    let (error, set_error) = signal(None::<String>);
    let on_input = move |ev| {
        let t = event_target_value(&ev);
        match parse(&t) {
            Ok(v) => {
                set_error.set(None);
                set_value.set(v);
            }
            Err(e) => set_error.set(Some(e)),
        }
        set_text.set(t);
    };
    view! {
        <label class="field">
            <span>{label}</span>
            <input type="text" inputmode="decimal" data-testid=testid prop:value=text on:input=on_input />
            <span class="field-error" data-testid=format!("{testid}-error")>{move || error.get()}</span>
        </label>
    }
}
