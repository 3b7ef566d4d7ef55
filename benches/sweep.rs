//! Native benchmark: every catalog machine × every weight format × 64 context points, the grid
//! behind the comparison views. Prints figures; `make bench` runs it.

use std::time::Instant;

use tokbound::catalog::catalog;
use tokbound::estimator::{estimate, sweep, WeightSpec};
use tokbound::report::views::with_machine;
use tokbound::scenario::Scenario;

fn main() {
    let cat = catalog();
    let base = Scenario::default();
    let inputs = base.resolve(cat).expect("default scenario");
    let machines: Vec<_> = cat
        .machines
        .iter()
        .map(|m| with_machine(&base, &m.id).resolve(cat).expect("catalog machine").machine)
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
    let mut times = Vec::new();
    for _ in 0..200 {
        let t = Instant::now();
        sweep::ceilings(&inputs, &machines, &formats, &contexts, &mut out);
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let checksum: f64 = out.iter().sum();
    println!(
        "sweep: {} machines x {} formats x {} contexts = {points} ceilings: median {:.3} ms, p90 {:.3} ms, min {:.3} ms (checksum {checksum:.1})",
        machines.len(),
        formats.len(),
        contexts.len(),
        times[times.len() / 2] * 1e3,
        times[times.len() * 9 / 10] * 1e3,
        times[0] * 1e3
    );
    let mut est = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        let rows = tokbound::report::views::machine_rows(&base, cat);
        est.push(t.elapsed().as_secs_f64());
        assert_eq!(rows.len(), machines.len());
    }
    est.sort_by(f64::total_cmp);
    println!(
        "comparison table: {} full estimates: median {:.3} ms",
        machines.len(),
        est[est.len() / 2] * 1e3
    );
    let mut model_times = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        let rows = tokbound::report::runnable::model_rows(&base, cat);
        model_times.push(t.elapsed().as_secs_f64());
        assert_eq!(rows.len(), cat.models.len());
    }
    model_times.sort_by(f64::total_cmp);
    println!(
        "model table: {} models, a format search and one full estimate each: median {:.3} ms",
        cat.models.len(),
        model_times[model_times.len() / 2] * 1e3
    );
    // Provenance runs at every keystroke: the measured points nearest the scenario.
    let mut prov_times = Vec::new();
    for _ in 0..200 {
        let t = Instant::now();
        let found = tokbound::report::views::provenance(&base, cat, 5);
        prov_times.push(t.elapsed().as_secs_f64());
        assert!(!found.is_empty(), "the default scenario has measured neighbours");
    }
    prov_times.sort_by(f64::total_cmp);
    println!(
        "provenance: nearest measured points over {} decode runs: median {:.1} µs",
        cat.decode_measurements().count(),
        prov_times[prov_times.len() / 2] * 1e6
    );
    let t = Instant::now();
    let e = estimate(&inputs);
    println!(
        "one full estimate: {:.1} µs ({:.1} tok/s)",
        t.elapsed().as_secs_f64() * 1e6,
        e.ceiling_tok_s
    );
}
