//! A `<select>` bound to one scenario key whose options are catalog ids.

use leptos::prelude::*;

use super::option_list::{bind_options, OptionGroup};
use super::scenario;
use crate::scenario::Key;

/// A labelled select for scenario key `key`; `options` are (value, label) pairs and choosing the
/// default value `default` unsets the key so links stay short.
#[component]
pub fn SelectField(
    /// The scenario (and URL) key, e.g. [`Key::Quant`].
    key: Key,
    /// Visible label.
    label: &'static str,
    /// The `data-testid` of the `<select>`.
    testid: &'static str,
    /// (value, label) pairs.
    options: Vec<(String, String)>,
    /// The value meaning "unset".
    default: &'static str,
) -> impl IntoView {
    let scenario = scenario();
    // A memo: the select follows this key, not every keystroke elsewhere in the form.
    let current = Memo::new(move |_| scenario.with(|s| s.value_text(key)).unwrap_or_else(|| default.to_string()));
    let on_change = move |ev| {
        let v = event_target_value(&ev);
        scenario.update(|s| {
            if v == default || v.is_empty() {
                s.clear(key);
            } else {
                // The options are catalog ids, which the key always takes.
                let _ = s.set(key, &v);
            }
        });
    };
    let select = NodeRef::new();
    bind_options(
        select,
        Box::new(move || {
            vec![OptionGroup {
                label: None,
                options: options.clone(),
            }]
        }),
        current,
    );
    view! {
        <label class="field">
            <span class="field-label">{label}</span>
            <select data-testid={testid} on:change={on_change} node_ref=select></select>
        </label>
    }
}
