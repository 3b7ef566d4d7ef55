//! Decode speed against the share of the weights in VRAM: the spill cliff.

use super::axis_max;
use super::plot::{Axis, Corner, Mark, Paint, Plot};
use crate::estimator::{estimate, Inputs, Pool};

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
        if inp.machine.kind == crate::estimator::Kind::Gpu {
            Pool::SystemRam
        } else {
            Pool::Disk
        },
        |p| p.pool,
    );
    Data {
        points,
        current: if total > 0.0 { fast / total } else { 1.0 },
        slow_pool: crate::views::pool_label(slow_pool).to_string(),
    }
}

/// Ceiling and expected speed against the share of weights in the fast pool, with a rule at the
/// scenario's own share.
pub fn plot(data: &Data) -> Plot {
    let y_max = axis_max(data.points.iter().map(|p| p.1));
    let mut p = Plot::new(
        format!("The spill cliff: weights in VRAM vs in {}", data.slow_pool),
        Axis::linear("share of weights in the fast pool (%)", 0.0, 100.0),
        Axis::linear("tok/s", 0.0, y_max),
        Corner::UpperLeft,
    );
    for (i, label) in ["ceiling", "expected"].into_iter().enumerate() {
        p.add(
            Some(label.into()),
            Paint::Series(i),
            Mark::Line {
                points: data.points.iter().map(|q| (q.0 * 100.0, if i == 0 { q.1 } else { q.2 })).collect(),
                width: 2,
                dash: None,
            },
        );
    }
    let x = data.current * 100.0;
    p.add(
        Some("this scenario".into()),
        Paint::FaintInk,
        Mark::Line {
            points: vec![(x, 0.0), (x, y_max)],
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
    fn speed_climbs_as_more_weights_sit_in_vram() {
        let (s, _) = Scenario::from_query("hw=rtx-4090&model=llama-3.1-70b");
        let d = data(&s.resolve(catalog()).unwrap());
        assert!(d.points.first().unwrap().1 < d.points.last().unwrap().1 / 5.0);
        assert!(d.current > 0.2 && d.current < 0.8, "{}", d.current);
        let doc = svg(&plot(&d));
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
