//! The answer: the expected figure and its band, the ceiling, the division written out, fit, the
//! one or two changes that would make it faster, and time to first token. It follows the live
//! estimate, so the frame after a keystroke shows it; its levers, like every panel below, follow
//! after that paint (`data-stale` until they do).

use leptos::prelude::*;

use super::later_panels::{LaterPanels, Panels};
use crate::estimator::{Estimate, Inputs};
use crate::report::shell::CEILING_MEANS;
use crate::report::views;
use crate::text::units::{fmt_band_parts, fmt_bytes, fmt_tok_s};
use crate::web::state::{levers, stale_attr};

/// The headline for the latest valid estimate.
#[component]
pub fn Headline(
    /// The last valid (inputs, estimate).
    estimate: Memo<Option<(Inputs, Estimate)>>,
    /// The full page's link, where the headline stands in an embed: its scenario line links there.
    #[prop(optional, into)]
    full_page: Option<Signal<String>>,
) -> impl IntoView {
    let e = move || estimate.get().map(|(_, e)| e);
    let with = move |f: fn(&Estimate) -> String| line(estimate, f);
    let spills = move || estimate.with(|e| e.as_ref().is_some_and(|(_, e)| e.fits == Some(false)));
    let title = move || {
        estimate.with(|e| {
            e.as_ref()
                .map(|(inputs, _)| crate::web::state::scenario().with(|s| views::scenario_title(inputs, s, crate::catalog::catalog())))
                .unwrap_or_default()
        })
    };
    let scenario_line = match full_page {
        Some(href) => view! {
            <p class="scenario-title" data-testid="headline-scenario">
                <a href=href target="_blank" rel="noopener">{title}</a>
            </p>
        }
        .into_any(),
        None => view! { <p class="scenario-title" data-testid="headline-scenario">{title}</p> }.into_any(),
    };
    view! {
        <section class="headline" aria-live="polite">
            {scenario_line}
            {figures(estimate)}
            <p class="division" data-testid="division">{with(views::division)}</p>
            <p class="bound" data-testid="bound">{with(views::bound_text)}</p>
            <p class="fit" data-testid="fit" class:spills=spills>{with(views::fit_text)}</p>
            // Its height is kept from the start (style/main.css), so nothing moves when the
            // levers arrive with the `more` part.
            <div
                class="headline-levers"
                data-testid="headline-levers"
                aria-live="off"
                data-stale=move || stale_attr(levers().shown.waiting())
            >
                <p class="hl-title">"Faster with one change"</p>
                <LaterPanels panels=Panels::HeadlineLevers estimate=estimate />
            </div>
            <p class="ttft" data-testid="ttft">
                {with(|e| match (e.ttft_s, e.prefill_tok_s) {
                    (Some(t), Some(p)) => format!("Time to first token: {t:.2} s (prefill {p:.0} tok/s, compute-bound)."),
                    _ => "Time to first token: unknown without a TFLOPS figure for this machine.".into(),
                })}
            </p>
            <p class="energy" data-testid="energy">
                {move || {
                    estimate.with(|x| {
                        x.as_ref()
                            .map(|(inputs, e)| {
                                crate::web::state::scenario()
                                    .with(|s| crate::report::energy::energy(s, crate::catalog::catalog(), inputs, e).text(crate::report::naming::Naming::Fields))
                            })
                            .unwrap_or_default()
                    })
                }}
            </p>
            {move || {
                e()
                    .and_then(|e| e.batch)
                    .map(|b| {
                        view! {
                            <p data-testid="batch-result">
                                {crate::report::views::batch_text(&b)}
                            </p>
                        }
                    })
            }}
            {move || {
                e()
                    .and_then(|e| e.speculative)
                    .map(|s| {
                        view! {
                            <p data-testid="spec-result">
                                {crate::report::views::spec_text(&s)}
                            </p>
                        }
                    })
            }}
            {move || target_line(estimate)}
            <ul class="notes" data-testid="notes">{move || e().map(|e| e.notes.iter().map(|n| view! { <li>{crate::report::views::page_note_text(n)}</li> }).collect_view())}</ul>
            <p class="bytes">{with(|e| format!("Stored weights {}; read per token {}.", crate::text::units::fmt_gib(e.stored_weight_bytes), fmt_bytes(e.bytes_per_token.total)))}</p>
        </section>
    }
}

/// A line of the estimate's text, following it (empty before the first valid estimate).
fn line(estimate: Memo<Option<(Inputs, Estimate)>>, f: fn(&Estimate) -> String) -> impl Fn() -> String + Copy {
    move || estimate.with(|e| e.as_ref().map(|(_, e)| f(e)).unwrap_or_default())
}

/// The expected figure, the one to read, and the ceiling under it, smaller, saying what it is.
fn figures(estimate: Memo<Option<(Inputs, Estimate)>>) -> impl IntoView {
    fn band(e: &Estimate) -> (String, String) {
        fmt_band_parts(e.expected_tok_s, e.expected_low_tok_s, e.expected_high_tok_s)
    }
    view! {
        <p class="big">
            "Expected "
            <span class="fig" data-testid="expected">
                {line(estimate, |e| band(e).0 + " tok/s ")}
                <span class="band">{line(estimate, |e| band(e).1)}</span>
            </span>
            <small data-testid="expected-basis">
                {move || estimate.with(|e| basis(e.as_ref().map(|(_, e)| e)))}
            </small>
        </p>
        <p class="ceiling">
            <span class="fig" data-testid="ceiling">{line(estimate, |e| format!("{} tok/s", fmt_tok_s(e.ceiling_tok_s)))}</span>
            <span class="label">{CEILING_MEANS}</span>
        </p>
    }
}

/// Where the expected figure comes from: the backend, and the fitted group or the user's own runs.
fn basis(e: Option<&Estimate>) -> String {
    let (backend, group) = crate::web::state::scenario().with(|s| {
        let cat = crate::catalog::catalog();
        (s.backend(cat).id(), s.calibration_group(cat))
    });
    let own = e.is_some_and(|e| e.notes.iter().any(|n| matches!(n, crate::estimator::Note::Calibrated { .. })));
    views::expected_basis(backend, &group, own)
}

fn target_line(estimate: Memo<Option<(Inputs, Estimate)>>) -> Option<impl IntoView> {
    let (target, format, backend) = crate::web::state::scenario().with(|s| {
        let cat = crate::catalog::catalog();
        let format = views::model_and_quant(s)
            .1
            .and_then(|q| cat.quant(q).ok())
            .map_or("This format".to_string(), |q| q.name.clone());
        (crate::report::views::target(s), format, s.backend(cat))
    });
    let target = target?;
    estimate.with(|e| {
        e.as_ref().map(|(inputs, _)| {
            let reach = crate::report::runnable::target_reach(inputs, crate::catalog::catalog(), inputs.machine.kind, backend, target);
            view! { <p data-testid="target-result">{crate::report::runnable::target_text(&reach, &format, inputs.context)}</p> }
        })
    })
}
