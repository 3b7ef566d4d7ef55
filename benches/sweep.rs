//! Native benchmark: every catalog machine × every weight format × 64 context points, the grid
//! behind the comparison views. Prints figures; `make bench` runs it.

use std::time::Instant;

use tokbound::catalog::catalog;
use tokbound::estimator::{estimate, sweep, WeightSpec};
use tokbound::report::views::with_machine;
use tokbound::scenario::Scenario;

/// Sorted times of `runs` calls of `f`, in seconds.
fn timed(runs: usize, mut f: impl FnMut()) -> Vec<f64> {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times
}

fn median(times: &[f64]) -> f64 {
    times[times.len() / 2]
}

/// The ceiling grid behind the comparison views.
fn sweep_grid(base: &Scenario) {
    let cat = catalog();
    let inputs = base.resolve(cat).expect("default scenario");
    let machines: Vec<_> = cat
        .machines
        .iter()
        .map(|m| with_machine(base, &m.id).resolve(cat).expect("catalog machine").machine)
        .collect();
    let formats: Vec<WeightSpec> = cat
        .quants
        .iter()
        .filter(|q| q.weights)
        .map(|q| WeightSpec::Bits {
            bpw: q.bpw,
            other_bpw: q.other_bpw,
        })
        .collect();
    let contexts: Vec<f64> = (0..64).map(|i| 2f64.powf(7.0 + 13.0 * i as f64 / 63.0).round()).collect();
    let points = machines.len() * formats.len() * contexts.len();
    let mut out = Vec::new();
    let times = timed(200, || sweep::ceilings(&inputs, &machines, &formats, &contexts, &mut out));
    let checksum: f64 = out.iter().sum();
    println!(
        "sweep: {} machines x {} formats x {} contexts = {points} ceilings: median {:.3} ms, p90 {:.3} ms, min {:.3} ms (checksum {checksum:.1})",
        machines.len(),
        formats.len(),
        contexts.len(),
        median(&times) * 1e3,
        times[times.len() * 9 / 10] * 1e3,
        times[0] * 1e3
    );
}

fn main() {
    let cat = catalog();
    let base = Scenario::default();
    sweep_grid(&base);
    let est = timed(20, || {
        assert_eq!(tokbound::report::views::machine_rows(&base, cat).len(), cat.machines.len())
    });
    println!(
        "comparison table: {} full estimates: median {:.3} ms",
        cat.machines.len(),
        median(&est) * 1e3
    );
    let model_times = timed(20, || {
        assert_eq!(tokbound::report::runnable::model_rows(&base, cat).len(), cat.models.len())
    });
    println!(
        "model table: {} models, a format search and one full estimate each: median {:.3} ms",
        cat.models.len(),
        median(&model_times) * 1e3
    );
    // Provenance runs at every keystroke: the measured runs about the scenario.
    let prov_times = timed(200, || {
        assert!(
            !tokbound::report::views::provenance(&base, cat, 5).is_empty(),
            "the default scenario has measured neighbours"
        )
    });
    println!(
        "provenance: nearest measured points over {} decode runs: median {:.1} µs",
        cat.decode_measurements().count(),
        median(&prov_times) * 1e6
    );
    let inputs = base.resolve(cat).expect("default scenario");
    let t = Instant::now();
    let e = estimate(&inputs);
    println!(
        "one full estimate: {:.1} µs ({:.1} tok/s)",
        t.elapsed().as_secs_f64() * 1e6,
        e.ceiling_tok_s
    );
}
