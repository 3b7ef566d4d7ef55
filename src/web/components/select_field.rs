//! A `<select>` bound to one scenario key whose options are catalog ids.

use leptos::prelude::*;

use super::option_list::{bind_options, OptionGroup};
use crate::scenario::Key;
use crate::web::state::scenario;

/// A labelled select for scenario key `key`; `options` are (value, label) pairs and choosing the
/// default value `default` unsets the key so links stay short. What is wrong with the key (a
/// backend the machine cannot run, or what the link held) shows beside it as `{testid}-error`.
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
    let problems = use_context::<crate::web::state::KeyProblems>();
    let error = move || problems.and_then(|p| p.0.with(|all| all.iter().find(|(k, _)| *k == key).map(|(_, text)| text.clone())));
    let select = NodeRef::new();
    bind_options(select, Box::new(move || OptionGroup::ungrouped(options.clone())), current);
    let error_id = format!("{testid}-error");
    view! {
        <label class="field" class:invalid=move || error().is_some()>
            <span class="field-label">{label}</span>
            <select data-testid={testid} on:change={on_change} node_ref=select aria-describedby=error_id.clone()></select>
            <span class="field-error" id=error_id data-testid=format!("{testid}-error") role="status">{error}</span>
        </label>
    }
}
