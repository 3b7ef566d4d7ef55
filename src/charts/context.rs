//! Decode speed against context length: the KV-cache tax, across weight formats and KV types.

use super::axis_max;
use super::plot::{Axis, Dot, Mark, Paint, Plot};
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

/// Tok/s against context on a log axis: solid lines for the scenario, dashed for the other formats
/// and KV types, dots for measurements, a faint rule at the scenario's context.
pub fn plot(data: &Data) -> Plot {
    let y_max = axis_max(
        data.lines
            .iter()
            .flat_map(|l| l.points.iter().map(|p| p.1))
            .chain(data.measured.iter().map(|p| p.1)),
    );
    let mut p = Plot::new(
        "Decode speed vs context (the KV-cache tax)",
        Axis::tokens("context (tokens, log scale)", MIN_CTX, MAX_CTX),
        Axis::linear("tok/s", 0.0, y_max),
    );
    for (i, line) in data.lines.iter().enumerate() {
        p.add(
            Some(line.label.clone()),
            Paint::Series(i),
            Mark::Line {
                points: line.points.clone(),
                width: if line.dashed { 1 } else { 2 },
                dash: line.dashed.then_some((6, 4)),
            },
        );
    }
    let measured: Vec<Dot> = data
        .measured
        .iter()
        .filter(|m| m.0 >= MIN_CTX)
        .map(|&(c, t)| Dot::at(c, t, 4))
        .collect();
    p.facts.push(("measured-points", measured.len().to_string()));
    if !measured.is_empty() {
        p.add(
            Some("measured here (this model or its family)".into()),
            Paint::Ink,
            Mark::Dots {
                dots: measured,
                triangle: false,
            },
        );
    }
    let current = data.current.clamp(MIN_CTX, MAX_CTX);
    p.add(
        None,
        Paint::FaintInk,
        Mark::Line {
            points: vec![(current, 0.0), (current, y_max)],
            width: 1,
            dash: None,
        },
    );
    p
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
        let doc = svg(&plot(&d));
        for text in [
            "context (tokens, log scale)",
            "tok/s",
            "expected",
            "ceiling, Q8_0",
            "ceiling, KV q8_0",
            "measured here (this model or its family)",
            "100K",
        ] {
            assert!(doc.contains(text), "missing {text}");
        }
        assert!(doc.matches("<polyline").count() >= 4);
    }
}
