//! The panels below the tables, in a part of the module of their own (`more`) where the page is
//! split ([`crate::web::parts`]): what would make it faster and the commands that run it, and
//! further down the import, calibration, share and how-it-works panels. The tables and charts,
//! which the page shows first, do not wait for them: the part is fetched as the app mounts and
//! each group of panels appears where it belongs when it arrives. If it cannot be fetched, the
//! group's place says so (`part-error`) and everything else keeps working. The levers the
//! headline and the levers section share are worked out here too ([`levers_of`]).

use leptos::prelude::*;

use super::calibrate_panel::CalibratePanel;
use super::commands_panel::CommandsPanel;
use super::how_it_works::HowItWorks;
use super::import_panel::ImportPanel;
use super::levers_panel::LeversPanel;
use super::share_panel::SharePanel;
use crate::estimator::{Estimate, Inputs};
use crate::web::parts::Unloaded;

/// Which group of panels.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Panels {
    /// What would make it faster, and the commands that run and measure the scenario.
    LeversAndCommands,
    /// What would make it faster alone (an embed's `levers` view).
    Levers,
    /// The panels at the bottom: import, calibration, share, and how the numbers are made.
    Bottom,
}

/// A group of panels from the `more` part, shown when it is in.
#[component]
pub fn LaterPanels(
    panels: Panels,
    /// The last valid (inputs, estimate), which the commands read.
    estimate: Memo<Option<(Inputs, Estimate)>>,
) -> impl IntoView {
    Suspend::new(send_wrapper::SendWrapper::new(async move {
        let view = match panels {
            Panels::LeversAndCommands => crate::in_part!(levers_and_commands(Some(estimate))),
            Panels::Levers => crate::in_part!(levers_and_commands(None)),
            Panels::Bottom => crate::in_part!(bottom_panels()),
        };
        view.unwrap_or_else(|e| view! { <p class="part-error" role="alert" data-testid="part-error">{e.to_string()}</p> }.into_any())
    }))
}

#[cfg_attr(tokbound_split, wasm_split_helpers::wasm_split(more, fallible))]
fn levers_and_commands(commands_for: Option<Memo<Option<(Inputs, Estimate)>>>) -> Result<AnyView, Unloaded> {
    Ok(view! {
        <LeversPanel />
        {commands_for.map(|estimate| view! { <CommandsPanel estimate=estimate /> })}
    }
    .into_any())
}

#[cfg_attr(tokbound_split, wasm_split_helpers::wasm_split(more, fallible))]
fn bottom_panels() -> Result<AnyView, Unloaded> {
    Ok(view! {
        <ImportPanel />
        <CalibratePanel />
        <SharePanel />
        <HowItWorks />
    }
    .into_any())
}

/// The scenario's levers ([`crate::report::levers::levers`]): the levers' code lives in this part.
#[cfg_attr(tokbound_split, wasm_split_helpers::wasm_split(more, fallible))]
pub fn levers_of(s: crate::scenario::Scenario) -> Result<Vec<crate::report::levers::Lever>, Unloaded> {
    Ok(crate::report::levers::levers(&s, crate::catalog::catalog()))
}
