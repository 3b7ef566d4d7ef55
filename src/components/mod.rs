//! The page's components, one per file. They read and write one shared
//! `RwSignal<Scenario>` (provided by [`app::App`]) and call the plain-Rust modules.

pub mod app;
pub mod chart_canvas;
pub mod charts_panel;
pub mod comparison_table;
pub mod context_field;
pub mod embed_view;
pub mod headline;
pub mod how_it_works;
pub mod import_panel;
pub mod inputs_form;
pub mod live_cells;
pub mod machine_picker;
pub mod model_picker;
pub mod notices;
pub mod number_field;
pub mod option_list;
pub mod quant_table;
pub mod select_field;
pub mod share_panel;

use leptos::prelude::*;

use crate::scenario::Scenario;

/// The scenario every component reads and writes.
pub fn scenario() -> RwSignal<Scenario> {
    expect_context::<RwSignal<Scenario>>()
}

/// A fixed attribute, for a view's `{..attr("role", "row")}`. The page's views are type-erased
/// (`--cfg erase_components`), so each attribute type carries its own set of build and update
/// functions. Written `role="row"`, every attribute name (role, scope, type, …) is a type of its
/// own; written through `attr`, they all share one (`CustomAttr<&str, &str>`). The DOM is the
/// same. Attributes whose value changes stay in the plain form.
pub fn attr<V: leptos::attr::AttributeValue>(
    name: &'static str,
    value: V,
) -> leptos::tachys::html::attribute::custom::CustomAttr<&'static str, V> {
    leptos::tachys::html::attribute::custom::custom_attribute(name, value)
}

/// An event handler, for a view's `{..on("click", move |_| …)}`. As with [`attr`], each event
/// type written `on:click=…` carries its own set of functions in the type-erased views; through
/// `on` every handler shares one (a listener for the named event on the element, given the plain
/// `Event`).
pub fn on(
    name: &'static str,
    handler: impl FnMut(web_sys::Event) + 'static,
) -> leptos::tachys::html::event::On<leptos::ev::Custom, leptos::tachys::html::event::SharedEventCallback<web_sys::Event>> {
    use leptos::attr::Attribute;
    leptos::tachys::html::event::on(leptos::ev::Custom::new(name), handler).into_cloneable_owned()
}
