//! A search box over a picker's list: what it finds said under it, Enter choosing the first.

use leptos::prelude::*;

use crate::report::views;

/// The search box (`testid`) and its status line (`status_testid`). `found` is what the text in
/// `search` finds; Enter chooses the first of it through `on_choose`, as a committed change.
#[component]
pub fn SearchBox(
    /// The `data-testid` of the `<input>`.
    testid: &'static str,
    /// The `data-testid` of the line under it.
    status_testid: &'static str,
    /// Visible label.
    label: &'static str,
    /// An example of what to type.
    placeholder: &'static str,
    /// What is searched, singular and plural ("machine", "machines").
    nouns: (&'static str, &'static str),
    /// What to try when nothing matches.
    hint: &'static str,
    /// The text typed.
    search: RwSignal<String>,
    /// The ids it finds, in the list's order.
    found: Memo<Vec<String>>,
    /// Chooses an id.
    on_choose: Callback<String>,
) -> impl IntoView {
    let help = format!("{testid}-help");
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Enter" {
            ev.prevent_default();
            if let Some(first) = found.with_untracked(|f| f.first().cloned()) {
                on_choose.run(first);
                if let Some(commit) = use_context::<crate::web::state::UrlCommit>() {
                    commit.0.run(());
                }
            }
        }
    };
    view! {
        <label class="field">
            <span class="field-label">{label}</span>
            <input
                type="search"
                data-testid=testid
                placeholder=placeholder
                aria-describedby=help.clone()
                prop:value=move || search.get()
                on:input=move |ev| search.set(event_target_value(&ev))
                on:keydown=on_key
            />
        </label>
        <p class="hint" id=help data-testid=status_testid aria-live="polite">
            {move || search.with(|q| views::search_status(q, found.with(Vec::len), nouns, hint))}
        </p>
    }
}
