//! The expected band against the measured results: leave-one-machine-out error, the ceiling as a
//! bound, and docs/accuracy.md kept in step with the figures.

use tokbound::calibration::{self, quantile};
use tokbound::catalog::catalog;

fn lomo() -> (f64, f64) {
    let points = catalog().measured_points().unwrap();
    let mut errs: Vec<f64> = calibration::leave_one_machine_out(&points).into_iter().map(|e| e.1).collect();
    errs.sort_by(f64::total_cmp);
    (quantile(&errs, 0.5), quantile(&errs, 0.9))
}

#[test]
fn held_out_machines_are_predicted_within_the_targets() {
    let (median, p90) = lomo();
    assert!(median <= 0.15, "median |ln(expected/measured)| {median:.3}");
    assert!(p90 <= 0.35, "p90 |ln(expected/measured)| {p90:.3}");
}

#[test]
fn the_ceiling_bounds_the_measurements() {
    let points = catalog().measured_points().unwrap();
    let above = points.iter().filter(|p| p.measured_tok_s > p.ceiling_tok_s).count();
    assert!(
        above as f64 <= 0.02 * points.len() as f64,
        "{above} of {} rows above the ceiling",
        points.len()
    );
}

#[test]
fn the_fit_is_physical() {
    for (class, c, (lo, hi)) in &tokbound::catalog::calibration().classes {
        assert!(c.overhead_s >= 0.0 && c.overhead_s < 0.02, "{class:?} {c:?}");
        assert!(c.weight >= 1.0 && c.weight < 4.0, "{class:?} {c:?}");
        assert!(*lo <= 1.0 && *hi >= 1.0, "{class:?}");
    }
}

#[test]
fn docs_accuracy_reports_the_current_figures() {
    let (median, p90) = lomo();
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/accuracy.md")).unwrap();
    let want = format!("median {median:.3}, p90 {p90:.3}");
    assert!(
        doc.contains(&want),
        "docs/accuracy.md should say \"{want}\" (run `cargo run -- accuracy`)"
    );
}
