//! Speculative decoding: speed-up over decoding alone against the draft's acceptance rate.

use super::axis_max;
use super::plot::{Axis, Mark, Paint, Plot};
use crate::estimator::{estimate, Inputs, Speculation};

/// Draft lengths drawn.
pub const DRAFT_LENGTHS: [u32; 4] = [1, 2, 4, 8];
/// Without a chosen draft: a draft reading this share of the target's bytes per token.
pub const DEFAULT_DRAFT_SHARE: f64 = 0.05;

#[derive(Clone, Debug, PartialEq)]
pub struct Data {
    /// (draft length k, [(acceptance, speed-up)])
    pub lines: Vec<(u32, Vec<(f64, f64)>)>,
    pub draft_label: String,
    /// The scenario's (k, acceptance) when a draft is set.
    pub current: Option<(u32, f64)>,
}

pub fn data(inp: &Inputs) -> Data {
    let base = estimate(inp);
    let (draft, draft_label) = match inp.speculation {
        Some(s) => (s, format!("draft reads {:.2} GB per token", s.draft_bytes / 1e9)),
        None => {
            let share = |b: f64| b * DEFAULT_DRAFT_SHARE;
            (
                Speculation {
                    draft_bytes: share(base.bytes_per_token.weights),
                    draft_stored_bytes: share(base.stored_weight_bytes),
                    draft_kv_bytes: Some(share(base.bytes_per_token.kv)),
                    draft_shape: inp.pass_shape(),
                    k: 1,
                    accept: 0.0,
                },
                format!("no draft chosen: one at {:.0}% of the target's bytes", DEFAULT_DRAFT_SHARE * 100.0),
            )
        }
    };
    let mut i = inp.clone();
    i.batch = None;
    let lines = DRAFT_LENGTHS
        .iter()
        .map(|&k| {
            let points = (0..=20)
                .map(|a| {
                    let accept = a as f64 / 20.0;
                    i.speculation = Some(Speculation { k, accept, ..draft });
                    (accept, estimate(&i).speculative.map_or(1.0, |s| s.speedup))
                })
                .collect();
            (k, points)
        })
        .collect();
    Data {
        lines,
        draft_label,
        current: inp.speculation.map(|s| (s.k, s.accept)),
    }
}

/// Speed-up over the expected speed without a draft against acceptance rate, one line per draft
/// length, with a dashed rule at 1× (no speed-up).
pub fn plot(data: &Data) -> Plot {
    let y_max = axis_max(data.lines.iter().flat_map(|l| l.1.iter().map(|p| p.1))).max(1.5);
    let mut p = Plot::new(
        format!("Speculative decoding speed-up ({})", data.draft_label),
        Axis::linear("acceptance rate", 0.0, 1.0),
        Axis::linear("speed-up over decoding alone (×)", 0.0, y_max),
    );
    for (i, (k, points)) in data.lines.iter().enumerate() {
        p.add(
            Some(format!("draft length {k}")),
            Paint::Series(i),
            Mark::Line {
                points: points.clone(),
                width: 2,
                dash: None,
            },
        );
    }
    p.add(
        Some("no speed-up".into()),
        Paint::Ink,
        Mark::Line {
            points: vec![(0.0, 1.0), (1.0, 1.0)],
            width: 1,
            dash: Some((5, 4)),
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
    fn speed_up_rises_with_acceptance() {
        let d = data(&Scenario::default().resolve(catalog()).unwrap());
        assert_eq!(d.lines.len(), 4);
        for (_, pts) in &d.lines {
            assert!(pts.last().unwrap().1 > pts[0].1);
            assert!(pts[0].1 < 1.0, "a draft that always misses costs time");
        }
        let doc = svg(&plot(&d));
        for text in ["acceptance rate", "draft length 8", "no speed-up", "speed-up over decoding alone"] {
            assert!(doc.contains(text), "missing {text}");
        }
    }
}
