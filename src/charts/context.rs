//! Decode speed against context length: the KV-cache tax, across weight formats and KV types.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{axis_max, frame, legend, mesh, DrawResult, Theme};
use crate::estimator::{estimate, Inputs, WeightSpec};

/// Shortest and longest context drawn (log axis).
pub const MIN_CTX: f64 = 128.0;
pub const MAX_CTX: f64 = 1_048_576.0;
const POINTS: usize = 40;

/// One line: tok/s at each context.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub label: String,
    pub points: Vec<(f64, f64)>,
    pub dashed: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Data {
    pub lines: Vec<Line>,
    /// Measured results for this machine and model: (context, tok/s).
    pub measured: Vec<(f64, f64)>,
    /// The scenario's own context, marked on the axis.
    pub current: f64,
}

/// Log-spaced contexts from [`MIN_CTX`] to [`MAX_CTX`].
pub fn contexts() -> impl Iterator<Item = f64> {
    let (lo, hi) = (MIN_CTX.ln(), MAX_CTX.ln());
    (0..POINTS).map(move |i| (lo + (hi - lo) * i as f64 / (POINTS - 1) as f64).exp())
}

/// Lines for the scenario's format plus each `(label, weights)` in `formats`, and each
/// `(label, bits)` KV type in `kv_types` at the scenario's format; the expected line first.
pub fn data(inp: &Inputs, formats: &[(String, WeightSpec)], kv_types: &[(String, f64)], measured: Vec<(f64, f64)>) -> Data {
    let sweep = |inp: &Inputs, expected: bool| -> Vec<(f64, f64)> {
        contexts()
            .map(|c| {
                let mut i = inp.clone();
                i.context = c;
                let e = estimate(&i);
                (c, if expected { e.expected_tok_s } else { e.ceiling_tok_s })
            })
            .collect()
    };
    let mut lines = vec![
        Line {
            label: "expected".into(),
            points: sweep(inp, true),
            dashed: false,
        },
        Line {
            label: "ceiling".into(),
            points: sweep(inp, false),
            dashed: false,
        },
    ];
    for (label, w) in formats {
        if *w != inp.weights {
            let mut i = inp.clone();
            i.weights = *w;
            lines.push(Line {
                label: format!("ceiling, {label}"),
                points: sweep(&i, false),
                dashed: true,
            });
        }
    }
    for (label, bits) in kv_types {
        if *bits != inp.kv_bits {
            let mut i = inp.clone();
            i.kv_bits = *bits;
            lines.push(Line {
                label: format!("ceiling, KV {label}"),
                points: sweep(&i, false),
                dashed: true,
            });
        }
    }
    Data {
        lines,
        measured,
        current: inp.context,
    }
}

/// Draws tok/s against context on a log axis.
pub fn draw<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, data: &Data, theme: &Theme) -> DrawResult<DB> {
    let plot = frame(area, theme, "Decode speed vs context (the KV-cache tax)")?;
    let y_max = axis_max(
        data.lines
            .iter()
            .flat_map(|l| l.points.iter().map(|p| p.1))
            .chain(data.measured.iter().map(|p| p.1)),
    );
    let mut chart = ChartBuilder::on(&plot)
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d((MIN_CTX..MAX_CTX).log_scale(), 0.0..y_max)?;
    mesh!(chart, theme, "context (tokens, log scale)", "tok/s")
        .x_label_formatter(&|v| short_tokens(*v))
        .draw()?;
    for (i, line) in data.lines.iter().enumerate() {
        let color = theme.color(i);
        let style = ShapeStyle::from(&color).stroke_width(if line.dashed { 1 } else { 2 });
        let series = if line.dashed {
            chart.draw_series(DashedLineSeries::new(line.points.iter().copied(), 6, 4, style))?
        } else {
            chart.draw_series(LineSeries::new(line.points.iter().copied(), style))?
        };
        series
            .label(line.label.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], style));
    }
    if !data.measured.is_empty() {
        let color = theme.foreground;
        chart
            .draw_series(
                data.measured
                    .iter()
                    .filter(|p| p.0 >= MIN_CTX)
                    .map(|&(c, t)| Circle::new((c, t), 4, color.filled())),
            )?
            .label("measured (llama-bench)")
            .legend(move |(x, y)| Circle::new((x + 8, y), 4, color.filled()));
    }
    let current = data.current.clamp(MIN_CTX, MAX_CTX);
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(current, 0.0), (current, y_max)],
        theme.foreground.mix(0.5),
    )))?;
    legend!(chart, theme, SeriesLabelPosition::UpperRight)?;
    area.present()
}

/// Axis labels in decimal thousands: 1000 → "1K", 100000 → "100K", 1000000 → "1M".
pub fn short_tokens(v: f64) -> String {
    if v >= 999_999.0 {
        format!("{:.0}M", v / 1e6)
    } else if v >= 999.0 {
        format!("{:.0}K", v / 1e3)
    } else {
        format!("{v:.0}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::catalog;
    use crate::charts::test_support::svg;
    use crate::scenario::Scenario;

    #[test]
    fn draws_axes_lines_and_legend() {
        let inp = Scenario::default().resolve(catalog()).unwrap();
        let d = data(
            &inp,
            &[("Q8_0".into(), WeightSpec::Bits { bpw: 8.5, other_bpw: None })],
            &[("q8_0".into(), 8.5)],
            vec![(4096.0, 30.0)],
        );
        assert_eq!(d.lines.len(), 4);
        // The KV tax: speed falls with context.
        let ceiling = &d.lines[1].points;
        assert!(ceiling.last().unwrap().1 < ceiling[0].1);
        let doc = svg(|a| draw(a, &d, &Theme::LIGHT));
        for text in [
            "context (tokens, log scale)",
            "tok/s",
            "expected",
            "ceiling, Q8_0",
            "ceiling, KV q8_0",
            "measured (llama-bench)",
            "100K",
        ] {
            assert!(doc.contains(text), "missing {text}");
        }
        assert!(doc.matches("<polyline").count() >= 4);
    }
}
