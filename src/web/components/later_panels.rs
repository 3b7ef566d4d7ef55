//! The panels below the tables: what would make it faster and the commands that run it (with the
//! headline's levers, in the app's part), and further down the import, calibration, diagnosis,
//! share and how-it-works panels, in a part of the module of their own (`more`) where the page is
//! split ([`crate::web::parts`]). The tables and charts, which the page shows first, do not wait
//! for that part: it is fetched as the app mounts and the panels appear where they belong when it
//! arrives. If it cannot be fetched, their place says so (`part-error`) and everything else keeps
//! working.

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

/// A group of panels: the levers and commands at once (they come with the app's part, beside the
/// tables), the bottom panels from the `more` part when it is in.
#[component]
pub fn LaterPanels(
    panels: Panels,
    /// The last valid (inputs, estimate), which the commands read.
    estimate: Memo<Option<(Inputs, Estimate)>>,
) -> impl IntoView {
    if panels != Panels::Bottom {
        return near_panels(panels, estimate);
    }
    Suspend::new(send_wrapper::SendWrapper::new(async move {
        crate::in_part!(bottom_panels())
            .unwrap_or_else(|e| view! { <p class="part-error" role="alert" data-testid="part-error">{e.to_string()}</p> }.into_any())
    }))
    .into_any()
}

/// The levers, the commands and the headline's levers, in the app's part: a part of their own
/// would cost the page more in stubs and shared code than they weigh (docs/performance.md).
fn near_panels(panels: Panels, estimate: Memo<Option<(Inputs, Estimate)>>) -> AnyView {
    match panels {
        Panels::HeadlineLevers => view! { <HeadlineLevers /> }.into_any(),
        _ => view! {
            <LeversPanel />
            {(panels == Panels::LeversAndCommands).then(|| view! { <CommandsPanel estimate=estimate /> })}
        }
        .into_any(),
    }
}

/// The bottom panels, built in the `more` part.
#[cfg_attr(tokbound_split, wasm_split_helpers::wasm_split(more, fallible))]
fn bottom_panels() -> Result<AnyView, Unloaded> {
    Ok(view! {
        <ImportPanel />
        <CalibratePanel />
        <DiagnosePanel />
        <SharePanel />
        <HowItWorks />
    }
    .into_any())
}
