//! Decode speed against the share of the weights in VRAM: the spill cliff.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{axis_max, frame, legend, mesh, DrawResult, Theme};
use crate::estimator::{estimate, Inputs};

#[derive(Clone, Debug, PartialEq)]
pub struct Data {
    /// (share in VRAM 0–1, ceiling, expected)
    pub points: Vec<(f64, f64, f64)>,
    /// The share the scenario places in VRAM.
    pub current: f64,
    pub slow_pool: String,
}

/// Sweeps the share of weight bytes in the fast pool from 0 to 1.
pub fn data(inp: &Inputs) -> Data {
    let mut i = inp.clone();
    i.placement.expert_offload = false;
    let points = (0..=40)
        .map(|k| {
            let f = k as f64 / 40.0;
            i.placement.gpu_frac = Some(f);
            let e = estimate(&i);
            (f, e.ceiling_tok_s, e.expected_tok_s)
        })
        .collect();
    let e = estimate(inp);
    let fast: f64 = e.pools.first().map_or(0.0, |p| p.weight_bytes);
    let total: f64 = e.pools.iter().map(|p| p.weight_bytes).sum();
    let slow_pool = e.pools.get(1).map_or(
        if inp.machine.kind == crate::catalog::Kind::Gpu {
            "system RAM"
        } else {
            "disk"
        },
        |p| p.pool,
    );
    Data {
        points,
        current: if total > 0.0 { fast / total } else { 1.0 },
        slow_pool: slow_pool.to_string(),
    }
}

pub fn draw<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, data: &Data, theme: &Theme) -> DrawResult<DB> {
    let plot = frame(area, theme, &format!("The spill cliff: weights in VRAM vs in {}", data.slow_pool))?;
    let y_max = axis_max(data.points.iter().map(|p| p.1));
    let mut chart = ChartBuilder::on(&plot)
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d(0.0..100.0, 0.0..y_max)?;
    mesh!(chart, theme, "share of weights in the fast pool (%)", "tok/s").draw()?;
    let (c0, c1) = (theme.color(0), theme.color(1));
    chart
        .draw_series(LineSeries::new(data.points.iter().map(|p| (p.0 * 100.0, p.1)), c0.stroke_width(2)))?
        .label("ceiling")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], c0.stroke_width(2)));
    chart
        .draw_series(LineSeries::new(data.points.iter().map(|p| (p.0 * 100.0, p.2)), c1.stroke_width(2)))?
        .label("expected")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], c1.stroke_width(2)));
    let x = data.current * 100.0;
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(x, 0.0), (x, y_max)],
            theme.foreground.mix(0.6),
        )))?
        .label("this scenario")
        .legend(move |(x, y)| PathElement::new(vec![(x + 8, y - 6), (x + 8, y + 6)], theme.foreground));
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
    fn speed_climbs_as_more_weights_sit_in_vram() {
        let (s, _) = Scenario::from_query("hw=rtx-4090&model=llama-3.1-70b");
        let d = data(&s.resolve(catalog()).unwrap());
        assert!(d.points.first().unwrap().1 < d.points.last().unwrap().1 / 5.0);
        assert!(d.current > 0.2 && d.current < 0.8, "{}", d.current);
        let doc = svg(|a| draw(a, &d, &Theme::LIGHT));
        for text in [
            "system RAM",
            "share of weights in the fast pool (%)",
            "ceiling",
            "expected",
            "this scenario",
        ] {
            assert!(doc.contains(text), "missing {text}");
        }
    }
}
