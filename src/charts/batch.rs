//! Aggregate and per-stream speed against batch size, and where a step turns compute-bound.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{axis_max, frame, legend, mesh, DrawResult, Theme};
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
        if let Some(r) = e.batch {
            points.push((b as f64, r.aggregate_tok_s, r.per_stream_tok_s));
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

pub fn draw<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, data: &Data, theme: &Theme) -> DrawResult<DB> {
    let plot = frame(area, theme, "Batching: one weight read shared by many streams")?;
    let y_max = axis_max(data.points.iter().map(|p| p.1));
    let mut chart = ChartBuilder::on(&plot)
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(64)
        .build_cartesian_2d((1.0..MAX_BATCH as f64).log_scale(), (0.1..y_max).log_scale())?;
    mesh!(chart, theme, "batch size (streams, log scale)", "tok/s (log scale)").draw()?;
    let (c0, c1) = (theme.color(0), theme.color(1));
    chart
        .draw_series(LineSeries::new(data.points.iter().map(|p| (p.0, p.1.max(0.1))), c0.stroke_width(2)))?
        .label("aggregate")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], c0.stroke_width(2)));
    chart
        .draw_series(LineSeries::new(data.points.iter().map(|p| (p.0, p.2.max(0.1))), c1.stroke_width(2)))?
        .label("per stream")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], c1.stroke_width(2)));
    if let Some(b) = data.compute_bound_from.filter(|&b| b <= MAX_BATCH) {
        let x = b as f64;
        let fg = theme.foreground;
        chart
            .draw_series(DashedLineSeries::new(vec![(x, 0.1), (x, y_max)], 5, 4, fg.stroke_width(1)))?
            .label(format!("compute-bound from batch {b}"))
            .legend(move |(x, y)| PathElement::new(vec![(x + 8, y - 6), (x + 8, y + 6)], fg));
    }
    if let Some(b) = data.memory_full_after {
        let x = b as f64;
        let c = theme.color(3);
        chart
            .draw_series(DashedLineSeries::new(vec![(x, 0.1), (x, y_max)], 2, 3, c.stroke_width(2)))?
            .label(format!("memory full beyond batch {b}"))
            .legend(move |(x, y)| PathElement::new(vec![(x + 8, y - 6), (x + 8, y + 6)], c.stroke_width(2)));
    }
    legend!(chart, theme, SeriesLabelPosition::UpperLeft)?;
    area.present()
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
        let doc = svg(|a| draw(a, &d, &Theme::LIGHT));
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
        assert!(svg(|a| draw(a, &d, &Theme::LIGHT)).contains(&format!("memory full beyond batch {full}")));
    }
}
