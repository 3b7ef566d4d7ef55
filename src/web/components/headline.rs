//! The answer: the ceiling, the expected band, the division written out, fit and time to first token.

use leptos::prelude::*;

use crate::estimator::{Estimate, Inputs};
use crate::report::views;
use crate::text::units::{fmt_bytes, fmt_tok_s};

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
    let with = move |f: fn(&Estimate) -> String| move || e().map(|e| f(&e)).unwrap_or_default();
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
            <p class="big">
                <span data-testid="ceiling">{with(|e| format!("{} tok/s", fmt_tok_s(e.ceiling_tok_s)))}</span>
                <span class="label">" ceiling"</span>
            </p>
            <p class="expected">
                "Expected "
                <span data-testid="expected">
                    {with(|e| crate::text::units::fmt_band(e.expected_tok_s, e.expected_low_tok_s, e.expected_high_tok_s))}
                </span>
                <small data-testid="expected-basis">
                    {move || basis(e().as_ref())}
                </small>
            </p>
            <p class="division" data-testid="division">{with(views::division)}</p>
            <p class="bound" data-testid="bound">{with(views::bound_text)}</p>
            <p class="fit" data-testid="fit" class:spills=move || e().is_some_and(|e| e.fits == Some(false))>{with(views::fit_text)}</p>
            <p class="ttft" data-testid="ttft">
                {with(|e| match (e.ttft_s, e.prefill_tok_s) {
                    (Some(t), Some(p)) => format!("Time to first token: {t:.2} s (prefill {p:.0} tok/s, compute-bound)."),
                    _ => "Time to first token: unknown without a TFLOPS figure for this machine.".into(),
                })}
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
