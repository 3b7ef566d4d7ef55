//! The root component: the form, the headline ceiling and the charts.

use leptos::prelude::*;

use crate::catalog::catalog;
use crate::charts;
use crate::components::chart_canvas::ChartCanvas;
use crate::components::number_field::NumberField;
use crate::estimator;
use crate::scenario::Scenario;

fn parse_positive(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        Ok(_) => Err("must be a positive number".into()),
        Err(_) => Err(format!("\"{text}\" is not a number")),
    }
}

fn ceiling_for(bw: f64, weights: f64, ctx: f64) -> f64 {
    let (s, _) = Scenario::from_query(&format!("bw={bw}&weights={weights}GB&ctx={}", ctx.round()));
    s.resolve(catalog()).map(|i| estimator::estimate(&i).ceiling_tok_s).unwrap_or(0.0)
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let (bandwidth, set_bandwidth) = signal(1008.0);
    let (weights, set_weights) = signal(19.0);
    let (context, set_context) = signal(4096.0);
    let ceiling = Memo::new(move |_| ceiling_for(bandwidth.get(), weights.get(), context.get()));
    let draw_context = move |area: &plotters::drawing::DrawingArea<plotters_canvas::CanvasBackend, plotters::coord::Shift>| {
        let bw = bandwidth.get();
        let w = weights.get();
        let points = (0..=32)
            .map(|i| (i as f64 * 4096.0, ceiling_for(bw, w, i as f64 * 4096.0)))
            .collect();
        let _ = charts::context::draw(
            area,
            &[charts::context::Series {
                label: "ceiling".into(),
                points,
            }],
        );
    };
    view! {
        <main>
            <h1>"tokbound"</h1>
            <form on:submit=|ev| ev.prevent_default()>
                <NumberField label="Bandwidth (GB/s)" testid="input-bw" value=bandwidth set_value=set_bandwidth parse=parse_positive />
                <NumberField label="Weights (GB)" testid="input-weights" value=weights set_value=set_weights parse=parse_positive />
                <NumberField label="Context (tokens)" testid="input-ctx" value=context set_value=set_context parse=parse_positive />
            </form>
            <p class="headline"><span data-testid="ceiling">{move || format!("{:.1} tok/s", ceiling.get())}</span></p>
            <ChartCanvas testid="chart-context" label="decode speed against context length" draw=draw_context />
        </main>
    }
}
