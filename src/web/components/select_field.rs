//! A `<select>` bound to one scenario key whose options are catalog ids.

use leptos::prelude::*;

use super::option_list::{bind_options, OptionGroup};
use crate::scenario::Key;
use crate::web::state::scenario;

/// A select's (value, label) pairs, listed again when what the closure reads changes.
pub struct Options(pub Box<dyn Fn() -> Vec<(String, String)>>);

impl From<Vec<(String, String)>> for Options {
    fn from(list: Vec<(String, String)>) -> Self {
        Options(Box::new(move || list.clone()))
    }
}

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
    /// (value, label) pairs: a list, or a closure the select follows where what it reads changes.
    #[prop(into)]
    options: Options,
    /// The value meaning "unset".
    default: &'static str,
    /// Runs when the select is about to be used (focused, as pressing it does): a list fetched on demand
    /// asks for the rest of its options.
    #[prop(optional)]
    on_open: Option<Callback<()>>,
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
    bind_options(select, Box::new(move || OptionGroup::ungrouped((options.0)())), current);
    let open = move |_| {
        if let Some(f) = on_open {
            f.run(());
        }
    };
    let error_id = format!("{testid}-error");
    view! {
        <label class="field" class:invalid=move || error().is_some()>
            <span class="field-label">{label}</span>
            <select data-testid={testid} on:change={on_change} on:focus=open node_ref=select aria-describedby=error_id.clone()></select>
            <span class="field-error" id=error_id data-testid=format!("{testid}-error") role="status">{error}</span>
        </label>
    }
}
