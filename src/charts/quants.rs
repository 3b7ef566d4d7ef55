//! Size and speed across weight formats on the chosen machine: quantization as a speed feature.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{axis_max, empty, frame, legend, mesh, DrawResult, Theme};

/// One format on the chosen machine.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub label: String,
    /// Stored weight bytes.
    pub size_bytes: f64,
    pub ceiling: f64,
    pub expected: f64,
    pub fits: bool,
    pub current: bool,
}

/// Which points get a text label: the chosen format first, then the fastest, skipping any point
/// that would sit within 6% of the axes of one already labelled.
pub fn labelled(points: &[Point], x_max: f64, y_max: f64) -> Vec<bool> {
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by(|&a, &b| {
        points[b]
            .current
            .cmp(&points[a].current)
            .then(points[b].ceiling.total_cmp(&points[a].ceiling))
    });
    let mut keep = vec![false; points.len()];
    let mut placed: Vec<(f64, f64)> = Vec::new();
    for i in order {
        let (x, y) = (points[i].size_bytes / 1e9 / x_max, points[i].ceiling / y_max);
        if placed.iter().all(|&(px, py)| (px - x).abs() > 0.06 || (py - y).abs() > 0.06) {
            placed.push((x, y));
            keep[i] = true;
        }
    }
    keep
}

/// Draws tok/s against file size, one point per format, labelled where the labels do not collide.
pub fn draw<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, points: &[Point], theme: &Theme) -> DrawResult<DB> {
    if points.is_empty() {
        return empty(area, theme, "no formats to compare for a model given by file size");
    }
    let plot = frame(area, theme, "Speed vs size across quantizations")?;
    let x_max = axis_max(points.iter().map(|p| p.size_bytes / 1e9));
    let y_max = axis_max(points.iter().map(|p| p.ceiling));
    let mut chart = ChartBuilder::on(&plot)
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)?;
    mesh!(chart, theme, "weights (GB)", "tok/s").draw()?;
    let (c0, c1, c2) = (theme.color(0), theme.color(1), theme.color(3));
    let keep = labelled(points, x_max, y_max);
    chart
        .draw_series(points.iter().zip(keep).map(|(p, label)| {
            let style = if p.fits { c0.filled() } else { c2.filled() };
            let text = if label { p.label.clone() } else { String::new() };
            EmptyElement::at((p.size_bytes / 1e9, p.ceiling))
                + Circle::new((0, 0), if p.current { 6 } else { 4 }, style)
                + Text::new(text, (6, -14), theme.text(11))
        }))?
        .label("ceiling (red: does not fit)")
        .legend(move |(x, y)| Circle::new((x + 8, y), 4, c0.filled()));
    chart
        .draw_series(
            points
                .iter()
                .map(|p| TriangleMarker::new((p.size_bytes / 1e9, p.expected), 5, c1.filled())),
        )?
        .label("expected")
        .legend(move |(x, y)| TriangleMarker::new((x + 8, y), 5, c1.filled()));
    legend!(chart, theme, SeriesLabelPosition::UpperRight)?;
    area.present()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::test_support::svg;

    #[test]
    fn draws_a_labelled_point_per_format() {
        let points = vec![
            Point {
                label: "F16".into(),
                size_bytes: 65e9,
                ceiling: 15.0,
                expected: 13.0,
                fits: false,
                current: false,
            },
            Point {
                label: "Q4_K_M".into(),
                size_bytes: 19.6e9,
                ceiling: 48.8,
                expected: 35.0,
                fits: true,
                current: true,
            },
        ];
        let doc = svg(|a| draw(a, &points, &Theme::LIGHT));
        for text in ["F16", "Q4_K_M", "weights (GB)", "tok/s", "expected"] {
            assert!(doc.contains(text), "missing {text}");
        }
        assert!(doc.matches("<circle").count() >= 2);
        // Two formats a hair apart: only the chosen one is labelled.
        let close = vec![
            Point {
                label: "A".into(),
                size_bytes: 19.0e9,
                ceiling: 48.0,
                expected: 35.0,
                fits: true,
                current: false,
            },
            Point {
                label: "B".into(),
                size_bytes: 19.2e9,
                ceiling: 47.5,
                expected: 35.0,
                fits: true,
                current: true,
            },
        ];
        assert_eq!(labelled(&close, 20.0, 50.0), vec![false, true]);
    }
}
