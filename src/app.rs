//! Browser start-up: panic hook, then mount the root component.

use leptos::prelude::*;

/// Installs the panic hook and mounts [`crate::components::app::App`] on the page body.
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&format!("tokbound: {info}").into());
    }));
    mount_to_body(crate::components::app::App);
}
