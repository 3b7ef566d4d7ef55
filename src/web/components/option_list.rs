//! The form's option lists (machine, model, quantization, KV type, draft model, a custom
//! machine's kind), built straight into the DOM.
//!
//! The machine select holds 175 options and the model select 58. As view-macro options each one
//! cost several calls across the WebAssembly boundary plus its own reactive bookkeeping, about a
//! quarter of the time the page took to mount, and the browser then laid them all out before the
//! first ceiling could paint. Here each option is one `new Option(text, value)` and one append
//! (its text is text, never markup), and until the first paint a select holds only its current
//! option, which is all that frame shows; the full list follows straight after.

use leptos::html::Select;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Options under one `<optgroup label>` (or directly in the select when `label` is `None`), as
/// (value, text).
pub struct OptionGroup {
    pub label: Option<&'static str>,
    pub options: Vec<(String, String)>,
}

impl OptionGroup {
    /// A list without groups.
    pub fn ungrouped(options: Vec<(String, String)>) -> Vec<OptionGroup> {
        vec![OptionGroup { label: None, options }]
    }
}

/// Keeps the select at `select` holding `list()` and showing `current`. The list is rebuilt when
/// what `list` reads changes; a new `current` only changes the choice.
/// (`list` is boxed so every select shares one copy of this code in the page.)
pub fn bind_options(select: NodeRef<Select>, list: Box<dyn Fn() -> Vec<OptionGroup>>, current: Memo<String>) {
    let painted = RwSignal::new(false);
    crate::web::browser::after_next_paint(move || painted.set(true));
    Effect::new(move |_| {
        let mut groups = list();
        let full = painted.get();
        let Some(el) = select.get() else { return };
        let cur = current.get_untracked();
        if !full {
            for g in &mut groups {
                g.options.retain(|(value, _)| *value == cur);
            }
        }
        fill(&el, &groups, &cur);
    });
    Effect::new(move |_| {
        let cur = current.get();
        if let Some(el) = select.get() {
            el.set_value(&cur);
        }
    });
}

/// Replaces `select`'s options with `groups` and selects `current`.
fn fill(select: &web_sys::HtmlSelectElement, groups: &[OptionGroup], current: &str) {
    let Some(doc) = select.owner_document() else { return };
    let list = doc.create_document_fragment();
    for g in groups.iter().filter(|g| !g.options.is_empty()) {
        let parent: web_sys::Node = match g.label {
            Some(label) => {
                let Ok(group) = doc.create_element("optgroup") else { continue };
                let _ = group.set_attribute("label", label);
                let _ = list.append_child(&group);
                group.unchecked_into()
            }
            None => list.clone().unchecked_into(),
        };
        for (value, text) in &g.options {
            if let Ok(option) = web_sys::HtmlOptionElement::new_with_text_and_value(text, value) {
                let _ = parent.append_child(&option);
            }
        }
    }
    select.set_text_content(None);
    let _ = select.append_child(&list);
    select.set_value(current);
}
