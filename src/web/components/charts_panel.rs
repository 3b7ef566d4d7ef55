//! The six charts, all drawn on load.

use leptos::prelude::*;

use super::chart_canvas::{plot_source, ChartCanvas, PlotSource};
use crate::catalog::catalog;
use crate::charts::{batch, context, machines, quants, spec, spill};
use crate::estimator::{Estimate, Inputs, WeightSpec};
use crate::report::views::{self, MachineRow, QuantRow};
use crate::scenario::View;
use crate::web::state::{scenario, Deferred, Rows};

/// Formats drawn on the context chart beside the scenario's own.
const CONTEXT_FORMATS: [&str; 3] = ["f16", "q8_0", "q4_k_m"];
const CONTEXT_KV: [&str; 2] = ["q8_0", "q4_0"];

/// The charts: machines, context, quants, spill, batch and speculative decoding.
#[component]
pub fn ChartsPanel(
    /// The last valid (inputs, estimate).
    estimate: Memo<Option<(Inputs, Estimate)>>,
    /// The comparison table's rows (the machines chart reuses them).
    machine_rows: Rows<MachineRow>,
    /// The formats table's rows.
    quant_rows: Rows<QuantRow>,
    /// Draw only these charts (`machines`, `context` …); all when empty.
    #[prop(optional)]
    only: Vec<String>,
) -> impl IntoView {
    let show = move |name: &str| only.is_empty() || only.iter().any(|o| o == name);
    // The charts take a change up after the keystroke's paint, in a task of their own
    // (state::Deferred); the estimate is read as it is then, which is the estimate of the
    // scenario they show. The machines and formats charts draw the tables' rows, which follow the
    // tables' own copies of the scenario.
    let shown = Deferred::new(scenario());
    let scenario = shown.scenario;
    let estimate = shown.estimate(estimate);
    let inputs = Memo::new(move |_| estimate.get().map(|(i, _)| i));
    let chosen_hw = move || scenario.with(|s| views::machine_id(s).unwrap_or_default().to_string());
    let (machines_behind, formats_behind) = (machine_rows.shown, quant_rows.shown);
    let (machine_rows, quant_rows) = (machine_rows.list, quant_rows.list);
    let bars = Memo::new(move |_| machine_bars(&machine_rows.get(), &chosen_hw(), estimate.get()));

    // What each chart depends on, as small memos that compare equal when an input leaves the
    // chart alone (the prompt length moves no chart); the charts' own data, hundreds of
    // estimates, is computed when they draw, each in a task of its own.
    let curve_inputs = Memo::new(move |_| {
        inputs.get().map(|mut i| {
            i.prompt = 0.0;
            i.batch = None;
            i.speculation = None;
            i
        })
    });
    let spec_inputs = Memo::new(move |_| {
        inputs.get().map(|mut i| {
            i.prompt = 0.0;
            i.batch = None;
            i
        })
    });
    let context_key = Memo::new(move |_| {
        let inp = curve_inputs.get()?;
        // The runs of this machine and model, or its family, at their depths beside the curve.
        let measured = scenario.with(|s| {
            views::provenance(s, catalog(), 64)
                .into_iter()
                .filter(|p| matches!(p.relation, "same-machine-same-model" | "same-machine-same-family"))
                .map(|p| (p.context, p.tg_tok_s))
                .collect::<Vec<_>>()
        });
        Some((inp, measured))
    });
    let quant_points = Memo::new(move |_| {
        quant_rows
            .get()
            .into_iter()
            .map(|r| quants::Point {
                label: r.name,
                size_bytes: r.size_bytes,
                ceiling: r.ceiling,
                expected: r.expected,
                fits: r.fits != Some(false),
                current: r.current,
                compute_bound: r.compute_bound,
            })
            .collect::<Vec<_>>()
    });

    let chart = move |view: View, testid: &'static str, label: &'static str, source: PlotSource| {
        let behind = Signal::derive(move || {
            shown.waiting()
                || match view {
                    View::Machines => machines_behind.waiting(),
                    View::Quants => formats_behind.waiting(),
                    _ => false,
                }
        });
        show(view.id()).then(|| view! { <ChartCanvas testid=testid label=label chart=source behind=behind /> })
    };
    view! {
        <section class="charts" aria-label="charts">
            {chart(View::Machines, "chart-machines", "decode ceiling and expected speed by machine", plot_source(bars, |b| Some(machines::plot(b))))}
            {chart(View::Context, "chart-context", "decode speed against context length", plot_source(context_key, |key| {
                key.as_ref().map(|(inputs, measured)| context::plot(&context_data(inputs, measured.clone())))
            }))}
            {chart(View::Quants, "chart-quants", "speed against size across quantizations", plot_source(quant_points, |q| Some(quants::plot(q))))}
            {chart(View::Spill, "chart-spill", "decode speed against the share of weights in VRAM", plot_source(curve_inputs, |i| {
                i.as_ref().map(|i| spill::plot(&spill::data(i)))
            }))}
            {chart(View::Batch, "chart-batch", "aggregate and per-stream speed against batch size", plot_source(curve_inputs, |i| {
                i.as_ref().map(|i| batch::plot(&batch::data(i)))
            }))}
            {chart(View::Spec, "chart-spec", "speculative decoding speed-up against acceptance rate", plot_source(spec_inputs, |i| {
                i.as_ref().map(|i| spec::plot(&spec::data(i)))
            }))}
        </section>
    }
}

/// The machines chart's bars: the featured machines and the chosen one, slowest first; a custom
/// machine's bar from its own estimate.
fn machine_bars(rows: &[MachineRow], cur: &str, estimate: Option<(Inputs, Estimate)>) -> Vec<machines::Bar> {
    let mut picked: Vec<&MachineRow> = rows
        .iter()
        .filter(|r| machines::FEATURED.contains(&r.id.as_str()) || r.id == cur)
        .collect();
    picked.sort_by(|a, b| a.ceiling.total_cmp(&b.ceiling));
    let mut bars: Vec<machines::Bar> = picked
        .into_iter()
        .map(|r| machines::Bar {
            label: crate::report::views::short_name(&r.name),
            ceiling: r.ceiling,
            expected: r.expected,
            low: r.low,
            high: r.high,
            highlight: r.id == cur,
            fits: r.fits != Some(false),
            measured: r.measured.map(|(_, t)| t),
        })
        .collect();
    if cur.is_empty() {
        if let Some((_, e)) = estimate {
            bars.push(machines::Bar {
                label: "custom machine".into(),
                ceiling: e.ceiling_tok_s,
                expected: e.expected_tok_s,
                low: e.expected_low_tok_s,
                high: e.expected_high_tok_s,
                highlight: true,
                fits: e.fits != Some(false),
                measured: None,
            });
        }
    }
    bars
}

/// The context chart's lines: the scenario's format, the common formats and KV types beside it.
fn context_data(inp: &Inputs, measured: Vec<(f64, f64)>) -> context::Data {
    let cat = catalog();
    let formats: Vec<(String, WeightSpec)> = match inp.weights {
        WeightSpec::Bits { .. } => CONTEXT_FORMATS
            .iter()
            .filter_map(|id| cat.quant(id).ok())
            .map(|q| {
                (
                    q.name.clone(),
                    WeightSpec::Bits {
                        bpw: q.bpw,
                        other_bpw: q.other_bpw,
                    },
                )
            })
            .collect(),
        WeightSpec::File { .. } => Vec::new(),
    };
    let kv: Vec<(String, f64)> = CONTEXT_KV
        .iter()
        .filter_map(|id| cat.kv_type(id).ok())
        .map(|q| (q.name.clone(), q.bpw))
        .collect();
    context::data(inp, &formats, &kv, measured)
}
