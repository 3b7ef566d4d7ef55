//! The expected band: a per-token time model fitted to measured llama-bench decode results.
//!
//! The ceiling assumes every byte streams at peak bandwidth with nothing else to do. Real runs
//! fall short in two ways the measurements show plainly: small quantized models on fast GPUs reach
//! only 0.3–0.6 of their ceiling (a fixed per-token cost — kernel launches, synchronisation,
//! sampling — that does not shrink with the bytes), while large F16 models reach 0.85–0.93
//! (streaming efficiency below 1). Attention over a long KV cache also streams less efficiently
//! than the weight matrices. So per hardware class c:
//!
//! `t_expected = a_c + Σ_pools (W_pool · w_c + K_pool · k_c) ÷ BW_pool`
//!
//! where `a_c` is the fixed overhead in seconds, `1/w_c` the weight-streaming efficiency and
//! `1/k_c` the KV-streaming efficiency. The slow pool of a spilled model uses the CPU class's
//! efficiencies. The three coefficients are a linear least-squares fit of measured seconds per token
//! on (1, W/BW, K/BW), weighted by 1/t so that every row counts by its relative error. Classes:
//! discrete GPUs with GDDR, GPUs with HBM (which stream at batch 1 markedly less efficiently in
//! the measured runtime), Apple silicon, other SoCs and CPUs. A class with fewer than
//! [`MIN_MACHINES`] measured machines uses the fit over all rows; CPU memory systems, absent from
//! the measurements, use [`CPU_PRIOR`]. The band is the 10th–90th percentile of the fit's
//! residuals ln(measured ÷ fitted) within the class.
//!
//! The fit is handed to the estimator as each machine's [`TimeModel`]; the catalog module fits it on
//! the shipped measurements. `tests/calibration.rs` recomputes the leave-one-machine-out error and
//! docs/accuracy.md reports it.

use std::collections::BTreeSet;

use crate::estimator::{Coefficients, Kind, TimeModel, GB};

/// Fewer measured machines than this and a class borrows the pooled fit.
pub const MIN_MACHINES: usize = 3;

/// CPU decode with llama.cpp: ~1 ms fixed cost, weights streamed at ~65% of theoretical DRAM
/// bandwidth, attention at ~35% — a prior, since the measurements hold no CPU-only runs.
pub const CPU_PRIOR: Coefficients = Coefficients {
    overhead_s: 0.001,
    weight: 1.0 / 0.65,
    kv: 1.0 / 0.35,
};

/// Band used where a class has too few rows to measure its spread: ±25%.
const DEFAULT_BAND: (f64, f64) = (0.78, 1.25);

/// A hardware class the calibration is fitted per.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    Gpu,
    GpuHbm,
    Apple,
    Soc,
    Cpu,
}

impl Class {
    pub fn of(kind: Kind, hbm: bool) -> Class {
        match kind {
            Kind::Gpu if hbm => Class::GpuHbm,
            Kind::Gpu => Class::Gpu,
            Kind::Apple => Class::Apple,
            Kind::Soc => Class::Soc,
            Kind::Cpu => Class::Cpu,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Class::Gpu => "GPU (GDDR)",
            Class::GpuHbm => "GPU (HBM)",
            Class::Apple => "Apple silicon",
            Class::Soc => "other SoC",
            Class::Cpu => "CPU",
        }
    }
}

/// One measured row reduced to what the fit needs.
#[derive(Clone, Debug)]
pub struct Point {
    pub machine: String,
    pub class: Class,
    pub bandwidth_gbs: f64,
    pub weight_bytes: f64,
    pub kv_bytes: f64,
    pub measured_tok_s: f64,
    pub ceiling_tok_s: f64,
}

/// Fitted coefficients and bands for every class.
#[derive(Clone, Debug)]
pub struct Calibration {
    pub classes: Vec<(Class, Coefficients, (f64, f64))>,
    pub pooled: Coefficients,
}

impl Calibration {
    pub fn coefficients(&self, class: Class) -> Coefficients {
        self.classes
            .iter()
            .find(|c| c.0 == class)
            .map_or(if class == Class::Cpu { CPU_PRIOR } else { self.pooled }, |c| c.1)
    }

    /// (low, high) multipliers on the expected figure.
    pub fn band(&self, class: Class) -> (f64, f64) {
        self.classes.iter().find(|c| c.0 == class).map_or(DEFAULT_BAND, |c| c.2)
    }

    /// The time model of a machine in `class`: its own coefficients, the CPU class's for the slow
    /// pool it spills to, and its band.
    pub fn time_model(&self, class: Class) -> TimeModel {
        TimeModel {
            own: self.coefficients(class),
            slow: self.coefficients(Class::Cpu),
            band: self.band(class),
        }
    }

    /// Fits every class on `points`.
    pub fn fit(points: &[Point]) -> Calibration {
        let pooled = fit_coefficients(points.iter()).unwrap_or(CPU_PRIOR);
        let mut classes = Vec::new();
        let present: BTreeSet<Class> = points.iter().map(|p| p.class).collect();
        for class in present {
            let rows: Vec<&Point> = points.iter().filter(|p| p.class == class).collect();
            let machines: BTreeSet<&str> = rows.iter().map(|p| p.machine.as_str()).collect();
            let coef = if machines.len() >= MIN_MACHINES {
                fit_coefficients(rows.iter().copied()).unwrap_or(pooled)
            } else {
                pooled
            };
            let mut resid: Vec<f64> = rows
                .iter()
                .map(|p| {
                    (p.measured_tok_s * coef.seconds(p.weight_bytes / (p.bandwidth_gbs * GB), p.kv_bytes / (p.bandwidth_gbs * GB))).ln()
                })
                .collect();
            let band = if rows.len() >= 8 {
                resid.sort_by(f64::total_cmp);
                (quantile(&resid, 0.1).min(0.0).exp(), quantile(&resid, 0.9).max(0.0).exp())
            } else {
                DEFAULT_BAND
            };
            classes.push((class, coef, band));
        }
        Calibration { classes, pooled }
    }

    /// Expected tok/s for one measured point under this calibration (single pool).
    pub fn predict(&self, p: &Point) -> f64 {
        let bw = p.bandwidth_gbs * GB;
        let t = self.coefficients(p.class).seconds(p.weight_bytes / bw, p.kv_bytes / bw);
        (1.0 / t).min(p.ceiling_tok_s)
    }
}

/// Linear-interpolated quantile of sorted values.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let pos = q.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let (i, frac) = (pos.floor() as usize, pos.fract());
    if i + 1 < sorted.len() {
        sorted[i] * (1.0 - frac) + sorted[i + 1] * frac
    } else {
        sorted[i]
    }
}

/// Weighted least squares of t = a + w·(W/BW) + k·(K/BW) with weights 1/t (relative error).
fn fit_coefficients<'a>(points: impl Iterator<Item = &'a Point>) -> Option<Coefficients> {
    let mut ata = [[0.0f64; 3]; 3];
    let mut atb = [0.0f64; 3];
    let mut n = 0;
    for p in points {
        let bw = p.bandwidth_gbs * GB;
        let t = 1.0 / p.measured_tok_s;
        let x = [1.0 / t, p.weight_bytes / bw / t, p.kv_bytes / bw / t];
        for i in 0..3 {
            for j in 0..3 {
                ata[i][j] += x[i] * x[j];
            }
            atb[i] += x[i];
        }
        n += 1;
    }
    if n < 3 {
        return None;
    }
    let s = solve3(ata, atb)?;
    let c = Coefficients {
        overhead_s: s[0],
        weight: s[1],
        kv: s[2],
    };
    // A fit that says bytes are free or time runs backwards is not physics: refuse it.
    (c.overhead_s >= 0.0 && c.weight >= 1.0 && c.kv >= 0.0).then_some(c)
}

/// Gaussian elimination with partial pivoting.
fn solve3(mut a: [[f64; 3]; 3], mut b: [f64; 3]) -> Option<[f64; 3]> {
    for col in 0..3 {
        let pivot = (col..3).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let pivot_row = a[col];
        for row in col + 1..3 {
            let f = a[row][col] / pivot_row[col];
            for (cell, p) in a[row].iter_mut().zip(pivot_row.iter()).skip(col) {
                *cell -= f * p;
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = [0.0; 3];
    for row in (0..3).rev() {
        let s: f64 = (row + 1..3).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// |ln(expected ÷ measured)| for every row, each predicted by a fit that never saw its machine.
pub fn leave_one_machine_out(points: &[Point]) -> Vec<(String, f64)> {
    let machines: BTreeSet<&str> = points.iter().map(|p| p.machine.as_str()).collect();
    let mut out = Vec::new();
    for held in machines {
        let train: Vec<Point> = points.iter().filter(|p| p.machine != held).cloned().collect();
        let cal = Calibration::fit(&train);
        for p in points.iter().filter(|p| p.machine == held) {
            out.push((held.to_string(), (cal.predict(p) / p.measured_tok_s).ln().abs()));
        }
    }
    out
}
