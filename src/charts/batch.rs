//! Aggregate and per-stream speed against batch size, and where a step turns compute-bound.

use super::axis_max;
use super::plot::{Axis, Mark, Paint, Plot};
use crate::estimator::{estimate, Inputs};

pub const MAX_BATCH: u32 = 1024;

#[derive(Clone, Debug, PartialEq)]
pub struct Data {
    /// (batch, aggregate tok/s, per-stream tok/s)
    pub points: Vec<(f64, f64, f64)>,
    pub compute_bound_from: Option<u32>,
    /// The largest batch drawn whose KV caches still fit, when a larger one does not.
    pub memory_full_after: Option<u32>,
}

pub fn data(inp: &Inputs) -> Data {
    let mut i = inp.clone();
    i.speculation = None;
    let mut points = Vec::new();
    let mut crossover = None;
    let mut fits_up_to = None;
    let mut overflows = false;
    let mut b = 1u32;
    while b <= MAX_BATCH {
        i.batch = Some(b);
        let e = estimate(&i);
        if let Some((r, agg, per)) = e
            .batch
            .and_then(|r| Some((r.aggregate_tok_s?, r.per_stream_tok_s?, r)).map(|(a, p, r)| (r, a, p)))
        {
            points.push((b as f64, agg, per));
            crossover = r.compute_bound_from;
        }
        match e.fits {
            Some(true) => fits_up_to = Some(b),
            Some(false) => overflows = true,
            None => {}
        }
        b *= 2;
    }
    Data {
        points,
        compute_bound_from: crossover,
        memory_full_after: fits_up_to.filter(|_| overflows),
    }
}

/// Aggregate and per-stream speed against batch size on log axes, with dashed rules where a step
/// turns compute-bound and where the KV caches stop fitting.
pub fn plot(data: &Data) -> Plot {
    const TITLE: &str = "Batching: one weight read shared by many streams";
    if data.points.is_empty() {
        // Without a compute figure, nothing but the bytes would bound a batch: no line is drawn.
        return Plot::empty(
            TITLE,
            "No compute limit known for this machine: give its FP16 TFLOPS (tflops) to draw batching.",
        );
    }
    let y_max = axis_max(data.points.iter().map(|p| p.1));
    let mut p = Plot::new(
        TITLE,
        Axis::log("batch size (streams, log scale)", 1.0, f64::from(MAX_BATCH)),
        Axis::log("tok/s (log scale)", 0.1, y_max),
    );
    for (i, label) in ["aggregate", "per stream"].into_iter().enumerate() {
        p.add(
            Some(label.into()),
            Paint::Series(i),
            Mark::Line {
                points: data.points.iter().map(|q| (q.0, if i == 0 { q.1 } else { q.2 }.max(0.1))).collect(),
                width: 2,
                dash: None,
            },
        );
    }
    let rule = |b: u32| vec![(f64::from(b), 0.1), (f64::from(b), y_max)];
    if let Some(b) = data.compute_bound_from.filter(|&b| b <= MAX_BATCH) {
        p.add(
            Some(format!("compute-bound from batch {b}")),
            Paint::Ink,
            Mark::Line {
                points: rule(b),
                width: 1,
                dash: Some((5, 4)),
            },
        );
    }
    if let Some(b) = data.memory_full_after {
        p.add(
            Some(format!("memory full beyond batch {b}")),
            Paint::Series(3),
            Mark::Line {
                points: rule(b),
                width: 2,
                dash: Some((2, 3)),
            },
        );
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::catalog;
    use crate::charts::test_support::svg;
    use crate::scenario::Scenario;

    #[test]
    fn aggregate_grows_and_the_crossover_is_marked() {
        let (s, _) = Scenario::from_query("hw=rtx-4090&model=llama-3.1-8b&ctx=512");
        let d = data(&s.resolve(catalog()).unwrap());
        assert_eq!(d.points.len(), 11);
        // Batch 32 shares one weight read among 32 streams.
        assert!(d.points[5].1 > 10.0 * d.points[0].1);
        let b = d.compute_bound_from.expect("crossover");
        let doc = svg(&plot(&d));
        for text in [
            "aggregate",
            "per stream",
            &format!("compute-bound from batch {b}"),
            "batch size (streams, log scale)",
        ] {
            assert!(doc.contains(text), "missing {text}");
        }
        // 512 streams of 512 tokens of KV do not fit 24 GB.
        let full = d.memory_full_after.expect("memory fills");
        assert!((32..512).contains(&full), "{full}");
        assert!(svg(&plot(&d)).contains(&format!("memory full beyond batch {full}")));
    }

    #[test]
    fn without_a_compute_figure_the_chart_says_so_instead_of_a_line() {
        let (s, _) = Scenario::from_query("bw=500&mem=24&model=llama-3.1-8b&ctx=512");
        let d = data(&s.resolve(catalog()).unwrap());
        assert!(d.points.is_empty());
        let doc = svg(&plot(&d));
        assert!(doc.contains("No compute limit known"), "{doc}");
    }
}
