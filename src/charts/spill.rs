//! Decode speed against the share of the weights in VRAM: the spill cliff.

use super::axis_max;
use super::plot::{Axis, Mark, Paint, Plot};
use crate::estimator::{estimate, Inputs, Kind, Pool};
use crate::report::views;

#[derive(Clone, Debug, PartialEq)]
pub struct Data {
    /// (share in the machine's own memory 0–1, ceiling, expected)
    pub points: Vec<(f64, f64, f64)>,
    /// The share the scenario places there.
    pub current: f64,
    /// The largest share that fits beside the KV cache, when less than all.
    pub fits_up_to: Option<f64>,
    /// The machine's own pool and the one the rest is read from.
    pub own_pool: String,
    pub slow_pool: String,
}

/// Sweeps the share of weight bytes in the machine's own memory (VRAM, or unified memory) from 0
/// to 1, as if it held any share: the rest is read from system RAM on a GPU machine, from disk on
/// unified memory.
pub fn data(inp: &Inputs) -> Data {
    let mut i = inp.clone();
    i.placement.expert_offload = false;
    i.placement.gpu_frac = None;
    let fits = {
        let e = estimate(&i);
        share_of(&e, own_bytes(&e))
    };
    // Unbounded memory: the curve shows every share, and a rule marks the one that fits.
    i.machine.memory_gib = None;
    let points = (0..=40)
        .map(|k| {
            let f = k as f64 / 40.0;
            i.placement.gpu_frac = Some(f);
            let e = estimate(&i);
            (f, e.ceiling_tok_s, e.expected_tok_s)
        })
        .collect();
    let e = estimate(inp);
    let gpu = inp.machine.kind == Kind::Gpu;
    Data {
        points,
        current: share_of(&e, own_bytes(&e)),
        fits_up_to: (fits < 0.999).then_some(fits),
        own_pool: views::pool_label(e.pools.first().map_or(Pool::Vram, |p| p.pool)).to_string(),
        slow_pool: views::pool_label(if gpu { Pool::SystemRam } else { Pool::Disk }).to_string(),
    }
}

/// The weight bytes the machine's own memory reads per token: its pool, or every device's VRAM
/// where `with=` splits the layers.
fn own_bytes(e: &crate::estimator::Estimate) -> f64 {
    let own = e.pools.first().map(|p| p.pool);
    e.pools.iter().filter(|p| Some(p.pool) == own).map(|p| p.weight_bytes).sum()
}

/// The share of the weights read per token that `bytes` are.
fn share_of(e: &crate::estimator::Estimate, bytes: f64) -> f64 {
    let total: f64 = e.pools.iter().map(|p| p.weight_bytes).sum();
    if total > 0.0 {
        bytes / total
    } else {
        1.0
    }
}

/// Ceiling and expected speed against the share of weights in the machine's own memory, with a
/// rule at the scenario's own share and one where memory is full.
pub fn plot(data: &Data) -> Plot {
    let y_max = axis_max(data.points.iter().map(|p| p.1));
    let mut p = Plot::new(
        format!("The spill cliff: weights in {} vs in {}", data.own_pool, data.slow_pool),
        Axis::linear(&format!("share of weights in {} (%)", data.own_pool), 0.0, 100.0),
        Axis::linear("tok/s", 0.0, y_max),
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
    if let Some(f) = data.fits_up_to {
        let x = f * 100.0;
        p.add(
            Some(format!("{} full at {:.0}%", data.own_pool, x)),
            Paint::Series(3),
            Mark::Line {
                points: vec![(x, 0.0), (x, y_max)],
                width: 2,
                dash: Some((2, 3)),
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
    fn every_card_of_a_split_counts_as_the_machines_own_memory() {
        let (s, _) = Scenario::from_query("hw=rtx-3090&with=rtx-4060-ti-16g&model=qwen2.5-32b");
        let d = data(&s.resolve(catalog()).unwrap());
        assert!((d.current - 1.0).abs() < 1e-9, "{}", d.current);
        assert_eq!(d.fits_up_to, None);
    }

    #[test]
    fn speed_climbs_as_more_weights_sit_in_vram() {
        let (s, _) = Scenario::from_query("hw=rtx-4090&model=llama-3.1-70b");
        let d = data(&s.resolve(catalog()).unwrap());
        assert!(d.points.first().unwrap().1 < d.points.last().unwrap().1 / 5.0);
        assert!(d.current > 0.2 && d.current < 0.8, "{}", d.current);
        assert!((d.fits_up_to.unwrap() - d.current).abs() < 1e-9);
        let doc = svg(&plot(&d));
        for text in [
            "system RAM",
            "share of weights in VRAM (%)",
            "ceiling",
            "expected",
            "this scenario",
            "VRAM full at",
        ] {
            assert!(doc.contains(text), "missing {text}");
        }
    }

    #[test]
    fn on_unified_memory_the_rest_is_read_from_disk() {
        // Was two flat lines: gpu_frac had no effect on a Mac.
        let (s, _) = Scenario::from_query("hw=m4-max-40c&model=llama-3.1-70b");
        let d = data(&s.resolve(catalog()).unwrap());
        assert!(d.points.first().unwrap().1 < d.points.last().unwrap().1 / 20.0);
        assert_eq!(d.fits_up_to, None, "a 70B Q4 model fits 96 GB");
        let doc = svg(&plot(&d));
        assert!(doc.contains("weights in unified memory vs in disk"), "{doc}");
        // A model that does not fit: the rule marks where memory is full.
        let (s, _) = Scenario::from_query("hw=m4-max-32c&model=llama-3.1-70b");
        let d = data(&s.resolve(catalog()).unwrap());
        assert!(d.fits_up_to.is_some_and(|f| f < 1.0));
    }
}
