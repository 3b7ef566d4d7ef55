//! Calibrating the expected figure to the user's own machine from what their runtime printed
//! (the pastes are read by [`super::paste`]).
//!
//! Only generation figures are fitted (`tg` tests, eval rates); prompt-processing rows are read
//! and left out. A llama-bench row names its model by type, size and parameter count; it is
//! matched to the catalog model of that parameter count and family where one is close (its
//! architecture then gives the bytes read per token, the layers and the KV cache at the test's
//! depth), else its bytes are the file's (times active ÷ total for an `30B.A3B` type) and its
//! layers follow from its size. Timing lines and ollama statistics say nothing of the model: the
//! scenario's model and format stand for it.
//!
//! The fit, per [`UserFit`]: this machine's weight-streaming efficiency e, and, when two or more
//! rows differ in bytes or depth, its cost per layer per pass l, in
//! `t = l·layers + e_moe·expert_matmuls + W ÷ (BW·e) + k·K ÷ BW`, with the expert and KV terms
//! kept from the machine's class fit. One row fits e alone, l kept from the class. Its band is
//! the spread of its residuals, at least ±5%.

use crate::estimator::{Coefficients, PassShape, GB};

pub use super::paste::{first_number, parse, Paste, PastedRun, MAX_PASTE};

/// The least band a user's fit is given: ±5%.
pub const MIN_BAND: f64 = 0.05;
/// The widest: ±200% (figures further from any fit are not a calibration).
pub const MAX_BAND: f64 = 2.0;
/// The band one run leaves: ±30%, narrowing as 1/√n with n runs (±9.5% at ten), so a fit on a
/// single figure never claims the precision of many.
pub const ONE_RUN_BAND: f64 = 0.30;
/// How far above the ceiling a figure may be before it is refused (the published sizes and
/// bandwidths behind a ceiling are a few percent from what a run reads).
const ABOVE_CEILING: f64 = 1.1;

/// One run as the fit sees it: bytes read per token and the pass's fixed work.
#[derive(Clone, Debug, PartialEq)]
pub struct FitRow {
    pub label: String,
    pub weight_bytes: f64,
    pub kv_bytes: f64,
    pub shape: PassShape,
    pub measured_tok_s: f64,
}

/// A machine's own calibration: what `cal=` carries.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UserFit {
    /// Weight-streaming efficiency (the share of peak bandwidth weights stream at).
    pub efficiency: f64,
    /// Seconds per layer per pass.
    pub per_layer_s: f64,
    /// Half-width of the band, as a share (0.05 = ±5%).
    pub band: f64,
}

impl UserFit {
    /// The class's coefficients with this machine's efficiency and per-layer cost.
    pub fn apply(&self, class: &Coefficients) -> Coefficients {
        Coefficients {
            overhead_s: 0.0,
            per_layer_s: self.per_layer_s,
            weight: 1.0 / self.efficiency,
            ..*class
        }
    }
}

/// One row's figures before and after a fit.
#[derive(Clone, Debug, PartialEq)]
pub struct Residual {
    pub label: String,
    pub measured_tok_s: f64,
    pub before_tok_s: f64,
    pub after_tok_s: f64,
}

/// Fits a machine of `bandwidth_gbs` on `rows`, starting from its class's coefficients.
pub fn fit(rows: &[FitRow], bandwidth_gbs: f64, class: &Coefficients) -> Result<(UserFit, Vec<Residual>), String> {
    if rows.is_empty() {
        return Err("no generation figure to fit".into());
    }
    let bw = bandwidth_gbs * GB;
    // A figure well above the ceiling is no calibration: the machine or the model is not the one
    // that ran.
    for r in rows {
        let ceiling = bw / (r.weight_bytes + r.kv_bytes);
        if r.measured_tok_s > ABOVE_CEILING * ceiling {
            return Err(format!(
                "{}: {} tok/s is above this machine's ceiling of {} tok/s for that model; is the machine right (and, for timing lines, the model and format)?",
                r.label,
                crate::text::units::fmt_tok_s(r.measured_tok_s),
                crate::text::units::fmt_tok_s(ceiling)
            ));
        }
    }
    let predict = |c: &Coefficients, r: &FitRow| 1.0 / c.seconds(&r.shape, r.weight_bytes / bw, r.kv_bytes / bw);
    // t − (expert and KV terms) = l·layers + W/BW · (1/e): least squares weighted by 1/t.
    let target = |r: &FitRow| 1.0 / r.measured_tok_s - class.per_expert_s * r.shape.expert_matmuls - class.kv * r.kv_bytes / bw;
    let distinct = rows.iter().any(|r| {
        (r.weight_bytes / rows[0].weight_bytes - 1.0).abs() > 0.05 || (r.kv_bytes - rows[0].kv_bytes).abs() > 0.05 * r.weight_bytes
    });
    let (per_layer, inv_e) = if distinct {
        let (mut a11, mut a12, mut a22, mut b1, mut b2) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for r in rows {
            let w = r.measured_tok_s * r.measured_tok_s;
            let (x1, x2, y) = (r.shape.layers, r.weight_bytes / bw, target(r));
            a11 += w * x1 * x1;
            a12 += w * x1 * x2;
            a22 += w * x2 * x2;
            b1 += w * x1 * y;
            b2 += w * x2 * y;
        }
        let det = a11 * a22 - a12 * a12;
        let (l, ie) = if det.abs() > 1e-30 {
            ((b1 * a22 - b2 * a12) / det, (a11 * b2 - a12 * b1) / det)
        } else {
            (class.per_layer_s, class.weight)
        };
        if l >= 0.0 && ie >= 1.0 {
            (l, ie)
        } else {
            (class.per_layer_s, one_coefficient(rows, bw, class, &target))
        }
    } else {
        (class.per_layer_s, one_coefficient(rows, bw, class, &target))
    };
    if !(per_layer.is_finite() && inv_e.is_finite()) || inv_e > 100.0 {
        return Err("the figures are far below what this machine's bandwidth allows (under 1% of it): is the machine right?".into());
    }
    let mut fit = UserFit {
        efficiency: 1.0 / inv_e,
        per_layer_s: per_layer,
        band: MIN_BAND,
    };
    let after = fit.apply(class);
    let residuals: Vec<Residual> = rows
        .iter()
        .map(|r| Residual {
            label: r.label.clone(),
            measured_tok_s: r.measured_tok_s,
            before_tok_s: predict(class, r),
            after_tok_s: predict(&after, r),
        })
        .collect();
    let spread = residuals
        .iter()
        .map(|r| (r.measured_tok_s / r.after_tok_s).ln().abs())
        .fold(0.0f64, f64::max);
    let few = ONE_RUN_BAND / (rows.len() as f64).sqrt();
    fit.band = (spread.exp() - 1.0).max(few).clamp(MIN_BAND, MAX_BAND);
    Ok((fit, residuals))
}

/// The streaming multiplier alone (at least 1), the per-layer cost kept from the class.
fn one_coefficient(rows: &[FitRow], bw: f64, class: &Coefficients, target: &dyn Fn(&FitRow) -> f64) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    for r in rows {
        let w = r.measured_tok_s * r.measured_tok_s;
        let x = r.weight_bytes / bw;
        num += w * x * (target(r) - class.per_layer_s * r.shape.layers);
        den += w * x * x;
    }
    if den > 0.0 {
        (num / den).max(1.0)
    } else {
        class.weight
    }
}

/// The `cal=` text: what it was fitted for (a catalog machine id, or a bandwidth in GB/s),
/// efficiency, cost per layer in µs, the band's half-width and, where known, the catalog models the
/// runs measured (comma-separated), joined by `~`: `rtx-4090~0.871~38.5~0.06~llama-3.1-8b`.
pub fn cal_text(machine: &str, f: &UserFit, models: &[String]) -> String {
    let mut text = format!(
        "{machine}~{}~{}~{}",
        round(f.efficiency, 1000.0),
        round(f.per_layer_s * 1e6, 10.0),
        round(f.band, 1000.0)
    );
    if !models.is_empty() {
        text.push('~');
        text.push_str(&models.join(","));
    }
    text
}

fn round(v: f64, scale: f64) -> f64 {
    (v * scale).round() / scale
}

/// Reads a `cal=` text: (machine, fit, the models its runs measured; none in a link written
/// before the field existed).
pub fn parse_cal(text: &str) -> Result<(String, UserFit, Vec<String>), String> {
    let parts: Vec<&str> = text.trim().split('~').collect();
    let (machine, e, l, b, models) = match parts.as_slice() {
        [machine, e, l, b] => (machine, e, l, b, Vec::new()),
        [machine, e, l, b, m] => (
            machine,
            e,
            l,
            b,
            m.split(',').filter(|x| !x.is_empty()).map(str::to_string).collect(),
        ),
        _ => return Err("is not machine~efficiency~µs per layer~band[~models] (e.g. rtx-4090~0.87~38.5~0.06~llama-3.1-8b)".into()),
    };
    if models.len() > 64 || models.iter().any(|m| m.len() > 64) {
        return Err("names too many models".into());
    }
    let num = |s: &str, what: &str, lo: f64, hi: f64| {
        crate::text::decimal::parse(s.trim())
            .filter(|v| v.is_finite() && (lo..=hi).contains(v))
            .ok_or_else(|| format!("has {what} \"{s}\", not within {lo}–{hi}"))
    };
    if machine.is_empty() || machine.len() > 64 {
        return Err("names no machine".into());
    }
    Ok((
        machine.to_string(),
        UserFit {
            efficiency: num(e, "an efficiency", 0.01, 1.0)?,
            per_layer_s: num(l, "a cost per layer", 0.0, 100_000.0)? * 1e-6,
            band: num(b, "a band", MIN_BAND, MAX_BAND)?,
        },
        models,
    ))
}
