//! Size and speed across weight formats on the chosen machine: quantization as a speed feature.

use super::axis_max;
use super::plot::{Axis, Dot, Mark, Paint, Plot};

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
    /// Whether the expected figure is set by arithmetic rather than bytes (the roofline's
    /// compute side): quantization stops being a speed feature there.
    pub compute_bound: bool,
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

/// Tok/s against file size, one point per format (red where it does not fit, larger for the
/// chosen one), labelled where the labels do not collide; triangles for the expected speed, in
/// their own colour where the format is compute-bound on this machine (listed in the
/// `compute-bound` fact).
pub fn plot(points: &[Point]) -> Plot {
    let title = "Speed vs size across quantizations";
    if points.is_empty() {
        return Plot::empty(title, "no formats to compare for a model given by file size");
    }
    let x_max = axis_max(points.iter().map(|p| p.size_bytes / 1e9));
    let y_max = axis_max(points.iter().map(|p| p.ceiling));
    let mut p = Plot::new(title, Axis::linear("weights (GB)", 0.0, x_max), Axis::linear("tok/s", 0.0, y_max));
    let keep = labelled(points, x_max, y_max);
    p.add(
        Some("ceiling (red: does not fit)".into()),
        Paint::Series(0),
        Mark::Dots {
            dots: points
                .iter()
                .zip(keep)
                .map(|(q, label)| Dot {
                    paint: (!q.fits).then_some(Paint::Series(3)),
                    label: label.then(|| q.label.clone()),
                    ..Dot::at(q.size_bytes / 1e9, q.ceiling, if q.current { 6 } else { 4 })
                })
                .collect(),
            triangle: false,
        },
    );
    for (compute, label, paint) in [(false, "expected", 1), (true, "expected, compute-bound", 2)] {
        let dots: Vec<Dot> = points
            .iter()
            .filter(|q| q.compute_bound == compute)
            .map(|q| Dot::at(q.size_bytes / 1e9, q.expected, 5))
            .collect();
        if !dots.is_empty() {
            p.add(Some(label.into()), Paint::Series(paint), Mark::Dots { dots, triangle: true });
        }
    }
    let bound: Vec<&str> = points.iter().filter(|q| q.compute_bound).map(|q| q.label.as_str()).collect();
    p.facts.push(("compute-bound", bound.join(",")));
    p
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
                compute_bound: false,
            },
            Point {
                label: "Q4_K_M".into(),
                size_bytes: 19.6e9,
                ceiling: 48.8,
                expected: 35.0,
                fits: true,
                current: true,
                compute_bound: false,
            },
        ];
        let doc = svg(&plot(&points));
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
                compute_bound: false,
            },
            Point {
                label: "B".into(),
                size_bytes: 19.2e9,
                ceiling: 47.5,
                expected: 35.0,
                fits: true,
                current: true,
                compute_bound: false,
            },
        ];
        assert_eq!(labelled(&close, 20.0, 50.0), vec![false, true]);
    }

    #[test]
    fn compute_bound_formats_are_drawn_apart_and_named() {
        let point = |label: &str, size: f64, compute_bound: bool| Point {
            label: label.into(),
            size_bytes: size,
            ceiling: 100.0 / size * 1e9,
            expected: 30.0,
            fits: true,
            current: false,
            compute_bound,
        };
        let p = plot(&[point("Q4_K_M", 4.9e9, true), point("F16", 16e9, false)]);
        assert_eq!(p.facts, vec![("compute-bound", "Q4_K_M".to_string())]);
        let doc = svg(&p);
        let has = |t: &str| doc.lines().any(|l| l.trim() == t);
        assert!(has("expected, compute-bound") && has("expected"), "{doc}");
        // None compute-bound: no such legend entry, an empty fact.
        let p = plot(&[point("F16", 16e9, false)]);
        assert_eq!(p.facts, vec![("compute-bound", String::new())]);
        assert!(!svg(&p).contains("compute-bound"));
    }
}
