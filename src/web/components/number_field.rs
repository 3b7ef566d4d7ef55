//! A text field bound to one scenario key: validated as you type by the scenario codec itself,
//! the typed text never thrown away, the message shown beside the field, and the field following
//! the scenario when it changes from elsewhere (back/forward, the context slider, an import).

use leptos::prelude::*;

use crate::catalog::catalog;
use crate::scenario::{Key, Scenario};
use crate::web::state::scenario;

/// What the person typed, and the scenario's text for the key that it was typed against.
#[derive(Clone, Debug, PartialEq)]
struct Typed {
    text: String,
    against: String,
    error: Option<String>,
}

/// A labelled field for scenario key `key`; invalid text stays in the box with its message.
#[component]
pub fn NumberField(
    /// The scenario (and URL) key, e.g. [`Key::Ctx`].
    key: Key,
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
    /// A remark on how the value was used (shown as `{testid}-notice`), e.g. a capped share.
    #[prop(optional, into)]
    notice: Option<Signal<Option<String>>>,
    /// Card `n`'s share of the layers (the machine is card 0) instead of the key's whole value
    /// (`key` is then [`Key::TensorSplit`]): empty is the card's memory; what is wrong with the
    /// shares as a whole shows beside card 0's.
    #[prop(optional)]
    share: Option<usize>,
) -> impl IntoView {
    let scenario = scenario();
    let optional = placeholder.is_some();
    let own_text = move |s: &Scenario| match share {
        Some(n) => s.share_text(n).unwrap_or_default(),
        None => s
            .value_text(key)
            .or_else(|| (!optional).then(|| s.default_text(key, catalog())))
            .unwrap_or_default(),
    };
    // The scenario's text for this key: a memo, so the field follows this key only.
    let canonical = Memo::new(move |_| scenario.with(own_text));
    // The typed text is shown while the scenario still holds what it was typed against, so
    // "0.50" or "1e" is never rewritten under the cursor, and a change from elsewhere replaces it.
    let (typed, set_typed) = signal(None::<Typed>);
    let shown = Memo::new(move |_| {
        let now = canonical.get();
        typed.with(|t| t.as_ref().filter(|t| t.against == now).cloned())
    });
    let text = move || {
        shown
            .with(|t| t.as_ref().map(|t| t.text.clone()))
            .unwrap_or_else(|| canonical.get())
    };
    // What is wrong with the text typed, else with the key as the scenario resolves it (a socket
    // count the CPU cannot take).
    let problems = use_context::<crate::web::state::KeyProblems>().filter(|_| share.is_none_or(|n| n == 0));
    let error = move || {
        shown
            .with(|t| t.as_ref().and_then(|t| t.error.clone()))
            .or_else(|| problems.and_then(|p| p.0.with(|all| all.iter().find(|(k, _)| *k == key).map(|(_, text)| text.clone()))))
    };
    let on_input = move |ev| {
        let t = event_target_value(&ev);
        let mut next = scenario.get_untracked();
        let result = match share {
            Some(n) => next.set_share(catalog(), n, &t),
            None if t.trim().is_empty() && optional => {
                next.clear(key);
                Ok(())
            }
            None => next.set(key, &t),
        };
        match result {
            Ok(()) => {
                set_typed.set(Some(Typed {
                    against: own_text(&next),
                    text: t,
                    error: None,
                }));
                scenario.set(next);
            }
            Err(e) => set_typed.set(Some(Typed {
                against: canonical.get_untracked(),
                text: t,
                error: Some(e),
            })),
        }
    };
    // Unique on the page where several cards show the same field.
    let error_id = format!("{testid}-error{}", share.map_or(String::new(), |n| format!("-{n}")));
    view! {
        <label class="field" class:invalid=move || error().is_some()>
            <span class="field-label">{label} {(!hint.is_empty()).then(|| view! { <small>" " {hint}</small> })}</span>
            <input
                type="text"
                inputmode="decimal"
                autocomplete="off"
                data-testid=testid
                aria-describedby=error_id.clone()
                placeholder=placeholder.unwrap_or_default()
                prop:value=text
                on:input=on_input
            />
            <span class="field-error" id=error_id data-testid=format!("{testid}-error") role="status">{error}</span>
            {notice.map(|n| view! { <span class="field-notice" data-testid=format!("{testid}-notice")>{move || n.get()}</span> })}
        </label>
    }
}
