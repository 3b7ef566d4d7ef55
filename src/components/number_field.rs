//! A text field bound to one scenario key: validated as you type by the scenario codec itself,
//! the typed text never thrown away, the message shown beside the field.

use leptos::prelude::*;

use super::scenario;
use crate::catalog::catalog;

/// A labelled field for scenario key `key`; invalid text stays in the box with its message.
#[component]
pub fn NumberField(
    /// The scenario (and URL) key, e.g. `ctx`.
    key: &'static str,
    /// Visible label.
    label: &'static str,
    /// The `data-testid` of the `<input>`; its message is `{testid}-error`.
    testid: &'static str,
    /// Shown when the key is unset: an empty box then means "use the default".
    #[prop(optional)]
    placeholder: Option<String>,
    /// Unit or hint after the label.
    #[prop(optional)]
    hint: &'static str,
) -> impl IntoView {
    let scenario = scenario();
    let optional = placeholder.is_some();
    let initial = scenario
        .with_untracked(|s| s.value_text(key).or_else(|| (!optional).then(|| s.default_text(key, catalog()))))
        .unwrap_or_default();
    let (text, set_text) = signal(initial);
    let (error, set_error) = signal(None::<String>);
    let on_input = move |ev| {
        let t = event_target_value(&ev);
        let mut next = scenario.get_untracked();
        let result = if t.trim().is_empty() && optional {
            next.clear(key);
            Ok(())
        } else {
            next.set(key, &t).map(|_| ())
        };
        match result {
            Ok(()) => {
                set_error.set(None);
                scenario.set(next);
            }
            Err(e) => set_error.set(Some(e)),
        }
        set_text.set(t);
    };
    let error_id = format!("{testid}-error");
    view! {
        <label class="field" class:invalid=move || error.with(Option::is_some)>
            <span class="field-label">{label} {(!hint.is_empty()).then(|| view! { <small>" " {hint}</small> })}</span>
            <input
                type="text"
                inputmode="decimal"
                autocomplete="off"
                data-testid=testid
                aria-describedby=error_id.clone()
                placeholder=placeholder.unwrap_or_default()
                prop:value={text}
                on:input={on_input}
            />
            <span class="field-error" id=error_id data-testid=format!("{testid}-error") role="status">{move || error.get()}</span>
        </label>
    }
}
