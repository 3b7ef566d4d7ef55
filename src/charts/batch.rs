//! Aggregate and per-stream speed against batch size, and where a step turns compute-bound.

use super::axis_max;
use super::plot::{Axis, Dot, Mark, Paint, Plot};
use crate::estimator::{estimate, Inputs};

pub const MAX_BATCH: u32 = 1024;

#[derive(Clone, Debug, PartialEq)]
pub struct Data {
    /// (batch, aggregate tok/s, per-stream tok/s), up to the most streams that fit.
    pub points: Vec<(f64, f64, f64)>,
    pub compute_bound_from: Option<u32>,
    /// The most streams whose KV caches fit (`None`: memory unknown): the lines end there.
    pub max_streams: Option<u32>,
}

/// Batch sizes 1, 2, 4, … up to [`MAX_BATCH`], ending at `max_streams` where memory ends them.
fn sizes(max_streams: Option<u32>) -> Vec<u32> {
    let last = max_streams.unwrap_or(MAX_BATCH).min(MAX_BATCH);
    let mut out: Vec<u32> = std::iter::successors(Some(1u32), |b| Some(b * 2))
        .take_while(|b| *b <= last)
        .collect();
    if last >= 1 && out.last() != Some(&last) {
        out.push(last);
    }
    out
}

pub fn data(inp: &Inputs) -> Data {
    let mut i = inp.clone();
    i.speculation = None;
    i.batch = Some(1);
    let max_streams = estimate(&i).batch.and_then(|b| b.max_streams);
    let mut points = Vec::new();
    let mut crossover = None;
    for b in sizes(max_streams) {
        i.batch = Some(b);
        if let Some(r) = estimate(&i).batch {
            if let (Some(agg), Some(per)) = (r.aggregate_tok_s, r.per_stream_tok_s) {
                points.push((f64::from(b), agg, per));
                crossover = r.compute_bound_from.or(crossover);
            }
        }
    }
    Data {
        points,
        compute_bound_from: crossover,
        max_streams,
    }
}

/// Aggregate and per-stream speed against batch size on log axes, with a dashed rule where a
/// step turns compute-bound; the lines end, marked, at the most streams whose KV caches fit.
pub fn plot(data: &Data) -> Plot {
    const TITLE: &str = "Batching: one weight read shared by many streams";
    if data.max_streams == Some(0) {
        let mut p = Plot::empty(TITLE, "One stream's KV cache does not fit beside the weights: no batch fits.");
        p.facts.push(("max-streams", "0".into()));
        return p;
    }
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
    if let Some(b) = data.compute_bound_from.filter(|&b| b <= MAX_BATCH) {
        p.add(
            Some(format!("compute-bound at peak from batch {b}")),
            Paint::Ink,
            Mark::Line {
                points: vec![(f64::from(b), 0.1), (f64::from(b), y_max)],
                width: 1,
                dash: Some((5, 4)),
            },
        );
    }
    if let Some(m) = data.max_streams {
        p.facts.push(("max-streams", m.to_string()));
    }
    // Where memory ends the lines: a marker on the aggregate's last point, labelled.
    if let (Some(m), Some(last)) = (data.max_streams.filter(|&m| m < MAX_BATCH), data.points.last()) {
        let mut dot = Dot::at(last.0, last.1.max(0.1), 6);
        dot.label = Some(format!("memory full: {m} streams"));
        p.add(
            Some(format!("memory holds at most {m} streams")),
            Paint::Series(3),
            Mark::Dots {
                dots: vec![dot],
                triangle: true,
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
        assert!(d.points.len() >= 6, "{}", d.points.len());
        // Batch 32 shares one weight read among 32 streams: several times one stream's figure,
        // though its arithmetic, at the fitted share of peak, now takes longer than the read.
        assert!(d.points[5].1 > 5.0 * d.points[0].1, "{:?}", d.points);
        let b = d.compute_bound_from.expect("crossover");
        let doc = svg(&plot(&d));
        for text in [
            "aggregate",
            "per stream",
            &format!("compute-bound at peak from batch {b}"),
            "batch size (streams, log scale)",
        ] {
            assert!(doc.contains(text), "missing {text}");
        }
        // 512 streams of 512 tokens of KV do not fit 24 GB: the lines end at the most that do.
        let full = d.max_streams.expect("memory known");
        assert!((32..512).contains(&full), "{full}");
        assert_eq!(d.points.last().map(|p| p.0), Some(f64::from(full)));
        assert!(
            d.points.windows(2).all(|w| w[1].1 >= w[0].1),
            "the aggregate never falls while streams fit"
        );
        let doc = svg(&plot(&d));
        assert!(doc.contains(&format!("memory full: {full} streams")), "{doc}");
        assert_eq!(plot(&d).facts, vec![("max-streams", full.to_string())]);
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
