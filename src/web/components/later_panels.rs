//! The panels below the tables, in a part of the module of their own (`more`) where the page is
//! split ([`crate::web::parts`]): what would make it faster and the commands that run it, and
//! further down the import, calibration, diagnosis, share and how-it-works panels. The tables and charts,
//! which the page shows first, do not wait for them: the part is fetched as the app mounts and
//! each group of panels appears where it belongs when it arrives. If it cannot be fetched, the
//! group's place says so (`part-error`) and everything else keeps working. The headline's
//! levers come from this part too (without it, their place in the headline says so).

use leptos::prelude::*;

use super::calibrate_panel::CalibratePanel;
use super::commands_panel::CommandsPanel;
use super::diagnose_panel::DiagnosePanel;
use super::headline_levers::HeadlineLevers;
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
    /// The panels at the bottom: import, calibration, diagnosis, share, and how the numbers are
    /// made.
    Bottom,
    /// The one or two levers with the headline, which work out the levers the section shows.
    HeadlineLevers,
}

/// A group of panels from the `more` part, shown when it is in.
#[component]
pub fn LaterPanels(
    panels: Panels,
    /// The last valid (inputs, estimate), which the commands read.
    estimate: Memo<Option<(Inputs, Estimate)>>,
) -> impl IntoView {
    Suspend::new(send_wrapper::SendWrapper::new(async move {
        crate::in_part!(panels_view(panels, estimate))
            .unwrap_or_else(|e| view! { <p class="part-error" role="alert" data-testid="part-error">{e.to_string()}</p> }.into_any())
    }))
}

/// The group's view, built in the `more` part: one way in for every group, as each costs the
/// module a stub of its own on both sides of the cut.
#[cfg_attr(tokbound_split, wasm_split_helpers::wasm_split(more, fallible))]
fn panels_view(panels: Panels, estimate: Memo<Option<(Inputs, Estimate)>>) -> Result<AnyView, Unloaded> {
    Ok(match panels {
        Panels::LeversAndCommands | Panels::Levers => view! {
            <LeversPanel />
            {(panels == Panels::LeversAndCommands).then(|| view! { <CommandsPanel estimate=estimate /> })}
        }
        .into_any(),
        Panels::Bottom => view! {
            <ImportPanel />
            <CalibratePanel />
            <DiagnosePanel />
            <SharePanel />
            <HowItWorks />
        }
        .into_any(),
        Panels::HeadlineLevers => view! { <HeadlineLevers /> }.into_any(),
    })
}
