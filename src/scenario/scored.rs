//! Measured runs scored apart from the single-stream fit: one model split over two or more
//! different GPUs (`with=`, data/measured-mixed.csv), several streams served at once (`batch=`,
//! data/measured-batched.csv), and models whose kernels are young (hybrid linear attention such as
//! Qwen3-Next, data/measured-young.csv, which run below their bytes while llama.cpp's kernels for
//! them mature; its hosts disagree, so no per-architecture cost is fitted). Each is a tokbound query
//! with its source. The splits fit one multiplier ([`split_fit`]) and the batches a share of peak
//! compute per vendor and a routing exponent ([`batch_fit`]), each scored with its host held out;
//! the young kernels fit nothing. A split is scored on its single-stream expected figure, a batch
//! on the aggregate over its streams (`batch.aggregate_tok_s`).

use crate::calibration::{BatchFit, Vendor};
use crate::catalog::{csv, Catalog};
use crate::estimator::{batch_parts, estimate, BatchParts};
use crate::scenario::keys::Key;
use crate::scenario::Scenario;
use std::collections::BTreeSet;

const MIXED: &str = include_str!("../../data/measured-mixed.csv");
const BATCHED: &str = include_str!("../../data/measured-batched.csv");
const YOUNG: &str = include_str!("../../data/measured-young.csv");

/// Which file a scored run comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Layers split over different GPUs.
    MixedGpus,
    /// Concurrent streams on one machine.
    Batched,
    /// A model whose architecture's kernels are young, in the machine's own memory.
    YoungKernels,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::MixedGpus, Kind::Batched, Kind::YoungKernels];

    /// How `tokbound accuracy` and docs/accuracy.md name it.
    pub fn label(self) -> &'static str {
        match self {
            Kind::MixedGpus => "mixed GPUs",
            Kind::Batched => "batched",
            Kind::YoungKernels => "young kernels",
        }
    }

    fn text(self) -> &'static str {
        match self {
            Kind::MixedGpus => MIXED,
            Kind::Batched => BATCHED,
            Kind::YoungKernels => YOUNG,
        }
    }
}

/// One scored run: what was measured and what tokbound expects for it.
#[derive(Clone, Debug)]
pub struct ScoredRun {
    pub host: String,
    pub query: String,
    /// Single-stream decode for a split; the aggregate over the streams for a batch.
    pub measured_tok_s: f64,
    pub expected_tok_s: f64,
    /// The memory ceiling of the same figure (a batch: its aggregate ceiling).
    pub ceiling_tok_s: f64,
    pub url: String,
    /// A split's single-stream pass as the estimator times it: the fixed seconds one device
    /// would spend (per layer, per expert matmul) and the rest, so that the expected figure under
    /// another split multiplier ([`ScoredRun::expected_with`]) needs no new estimate. Zero for
    /// a batch.
    pub fixed_s: f64,
    pub rest_s: f64,
    /// Whether the fits may use it (the `fitted` column; rows without it are). A batched run
    /// on a build its own source shows slowed by a since-fixed kernel bug is kept and scored
    /// apart, but fitted on by nothing.
    pub fitted: bool,
    /// A batched run as the batch's fit needs it.
    pub batch: Option<BatchRun>,
}

/// A batched run's step, once per routing exponent of [`ROUTING_GRID`].
#[derive(Clone, Debug)]
pub struct BatchRun {
    pub vendor: Vendor,
    pub streams: u32,
    /// The single stream's expected tok/s.
    pub single_tok_s: f64,
    /// Whether the model is a mixture of experts (the routing exponent bears on it).
    pub moe: bool,
    pub parts: Vec<BatchParts>,
}

impl BatchRun {
    /// The expected aggregate tok/s with the routing exponent `ROUTING_GRID[r]` and `share` of
    /// peak compute.
    fn expected(&self, r: usize, share: f64) -> f64 {
        f64::from(self.streams) * self.single_tok_s / self.parts[r].slowdown(share)
    }
}

/// The routing exponents the batch's fit tries: [`crate::estimator::ROUTING_EXPONENT_BOUND`] (0.5)
/// to 1 by 0.05.
pub const ROUTING_GRID: [f64; 11] = [
    crate::estimator::ROUTING_EXPONENT_BOUND,
    0.55,
    0.6,
    0.65,
    0.7,
    0.75,
    0.8,
    0.85,
    0.9,
    0.95,
    1.0,
];

/// The shares of peak compute the batch's fit tries: 1% to 100%, each 8% above the last.
fn share_grid() -> impl Iterator<Item = f64> {
    (0..=60).map(|i| (0.01 * 1.08f64.powi(i)).min(1.0))
}

/// The mean over hosts of each host's mean |ln(expected ÷ measured)|, with `share(run)` of peak
/// compute and routing exponent `ROUTING_GRID[r]` (each host weighs the same).
fn batch_objective(runs: &[&ScoredRun], r: usize, share: &dyn Fn(&BatchRun) -> f64) -> f64 {
    let hosts: BTreeSet<&str> = runs.iter().map(|x| x.host.as_str()).collect();
    let per_host = hosts.iter().map(|h| {
        let errs: Vec<f64> = runs
            .iter()
            .filter(|x| x.host == *h)
            .filter_map(|x| x.batch.as_ref().map(|b| (b.expected(r, share(b)) / x.measured_tok_s).ln().abs()))
            .collect();
        errs.iter().sum::<f64>() / errs.len().max(1) as f64
    });
    per_host.sum::<f64>() / hosts.len().max(1) as f64
}

fn hosts_of(runs: &[&ScoredRun]) -> usize {
    runs.iter().map(|r| r.host.as_str()).collect::<BTreeSet<_>>().len()
}

/// The batch's fit on the fitted batched runs: for each routing exponent of [`ROUTING_GRID`]
/// (only 1 unless mixtures of experts were measured on two hosts or more), the share of peak
/// compute that best predicts each vendor's runs (a vendor with runs from two hosts or more) and
/// all runs (from two hosts or more); the exponent whose shares predict all runs best is kept.
/// Each fit minimises the mean over hosts of each host's mean |ln(expected ÷ measured)|.
pub fn batch_fit(runs: &[ScoredRun]) -> BatchFit {
    let fitted: Vec<&ScoredRun> = runs.iter().filter(|r| r.fitted && r.batch.is_some()).collect();
    if hosts_of(&fitted) < 2 {
        return BatchFit::default();
    }
    let moe: Vec<&ScoredRun> = fitted.iter().copied().filter(|r| r.batch.as_ref().is_some_and(|b| b.moe)).collect();
    let exponents: Vec<usize> = if hosts_of(&moe) >= 2 {
        (0..ROUTING_GRID.len()).collect()
    } else {
        vec![ROUTING_GRID.len() - 1]
    };
    let best_share = |rows: &[&ScoredRun], r: usize| {
        share_grid()
            .map(|s| (s, batch_objective(rows, r, &|_| s)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(1.0, |(s, _)| s)
    };
    let routed = exponents.len() > 1;
    let vendors: BTreeSet<Vendor> = fitted.iter().filter_map(|r| r.batch.as_ref().map(|b| b.vendor)).collect();
    let fit_at = |r: usize| {
        let pooled = (best_share(&fitted, r), fitted.len());
        let shares: Vec<(Vendor, (f64, usize))> = vendors
            .iter()
            .filter_map(|v| {
                let rows: Vec<&ScoredRun> = fitted
                    .iter()
                    .copied()
                    .filter(|x| x.batch.as_ref().is_some_and(|b| b.vendor == *v))
                    .collect();
                (hosts_of(&rows) >= 2).then(|| (*v, (best_share(&rows, r), rows.len())))
            })
            .collect();
        let routing = routed.then_some((ROUTING_GRID[r], moe.len()));
        BatchFit {
            shares,
            pooled: Some(pooled),
            routing,
        }
    };
    exponents
        .into_iter()
        .map(|r| {
            let fit = fit_at(r);
            let score = batch_objective(&fitted, r, &|b| fit.share_for(b.vendor));
            (fit, score)
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(f, _)| f)
        .unwrap_or_default()
}

/// Each batched run scored with its host held out of the batch's fit ([`batch_fit`] on the other
/// hosts' runs): |ln(expected aggregate ÷ measured)|.
pub fn leave_one_host_out_batched(runs: &[ScoredRun]) -> Vec<(&ScoredRun, f64)> {
    let hosts: BTreeSet<&str> = runs.iter().map(|r| r.host.as_str()).collect();
    let mut out = Vec::new();
    for h in hosts {
        let others: Vec<ScoredRun> = runs.iter().filter(|r| r.host != h).cloned().collect();
        let fit = batch_fit(&others);
        let r = ROUTING_GRID
            .iter()
            .position(|g| (g - fit.routing_exponent()).abs() < 1e-9)
            .unwrap_or(ROUTING_GRID.len() - 1);
        for run in runs.iter().filter(|x| x.host == h) {
            if let Some(b) = &run.batch {
                out.push((run, (b.expected(r, fit.share_for(b.vendor)) / run.measured_tok_s).ln().abs()));
            }
        }
    }
    out
}

impl ScoredRun {
    /// |ln(expected ÷ measured)|.
    pub fn error(&self) -> f64 {
        (self.expected_tok_s / self.measured_tok_s).ln().abs()
    }

    /// A split's expected figure with `split_fixed` as the multiplier on its fixed seconds.
    pub fn expected_with(&self, split_fixed: f64) -> f64 {
        (1.0 / (self.rest_s + split_fixed * self.fixed_s)).min(self.ceiling_tok_s)
    }

    /// The split multiplier that would give the measured figure exactly (at least 0.01: a run
    /// faster than its bytes alone counts as a split that costs nothing).
    fn split_fixed_measured(&self) -> Option<f64> {
        (self.fixed_s > 0.0).then(|| ((1.0 / self.measured_tok_s - self.rest_s) / self.fixed_s).max(0.01))
    }
}

/// The multiplier on a split pass's fixed seconds ([`crate::estimator::TimeModel::split_fixed`])
/// fitted on single-stream split runs: the median over pairs of each pair's geometric median of
/// the multiplier its runs measure, at least 1 (a split is never cheaper than one device), and the
/// runs it rests on; `None` under two pairs (the prior 1 stands).
pub fn split_fit(runs: &[ScoredRun]) -> Option<(f64, usize)> {
    let pairs: std::collections::BTreeSet<&str> = runs.iter().map(|r| r.host.as_str()).collect();
    if pairs.len() < 2 {
        return None;
    }
    let (f, n) = crate::calibration::median_over_hosts(runs.iter().filter_map(|r| r.split_fixed_measured().map(|f| (r.host.as_str(), f))))?;
    Some((f.max(1.0), n))
}

/// Each split run scored with its pair held out of the fit: the multiplier fitted on the other
/// pairs ([`split_fit`]), and |ln(expected ÷ measured)|.
pub fn leave_one_pair_out(runs: &[ScoredRun]) -> Vec<(&ScoredRun, f64)> {
    runs.iter()
        .map(|r| {
            let others: Vec<ScoredRun> = runs.iter().filter(|o| o.host != r.host).cloned().collect();
            let f = split_fit(&others).map_or(1.0, |(f, _)| f);
            (r, (r.expected_with(f) / r.measured_tok_s).ln().abs())
        })
        .collect()
}

/// Every run of `kind`'s file; an error names the bad line.
pub fn runs(kind: Kind, cat: &Catalog) -> Result<Vec<ScoredRun>, String> {
    csv::records(kind.text(), |r| {
        let query = r.required("query")?.to_string();
        let (s, issues) = Scenario::from_query(&query);
        let inputs = match (issues.is_empty(), s.resolve(cat)) {
            (true, Ok(inputs)) => inputs,
            _ => return Err(format!("line {}: the query does not resolve", r.line)),
        };
        let e = estimate(&inputs);
        let (mut fixed_s, mut rest_s) = (0.0, 0.0);
        if kind == Kind::MixedGpus {
            // The pass timed as one device would time its fixed costs, and the rest.
            let mut single = inputs.clone();
            single.machine.time.split_fixed = 1.0;
            fixed_s = inputs.machine.time.own.fixed_seconds(&inputs.pass_shape());
            rest_s = 1.0 / estimate(&single).expected_tok_s - fixed_s;
        }
        let batch = match kind {
            Kind::Batched => Some(batch_run(&s, &inputs, cat, r.line)?),
            _ => None,
        };
        let (measured_tok_s, expected_tok_s, ceiling_tok_s) = match kind {
            Kind::MixedGpus | Kind::YoungKernels => (r.f64("tg_tok_s")?, e.expected_tok_s, e.ceiling_tok_s),
            Kind::Batched => {
                let b = e
                    .batch
                    .as_ref()
                    .ok_or_else(|| format!("line {}: the query has no batch=", r.line))?;
                let expected = b
                    .aggregate_tok_s
                    .ok_or_else(|| format!("line {}: the batch does not fit", r.line))?;
                (r.f64("aggregate_tok_s")?, expected, b.aggregate_ceiling_tok_s.unwrap_or(expected))
            }
        };
        Ok(ScoredRun {
            host: r.required("host")?.to_string(),
            query,
            measured_tok_s,
            expected_tok_s,
            ceiling_tok_s,
            url: r.required("url")?.to_string(),
            fixed_s,
            rest_s,
            fitted: r.text("fitted") != "false",
            batch,
        })
    })
}

/// A batched run's step under every routing exponent the fit tries.
fn batch_run(s: &Scenario, inputs: &crate::estimator::Inputs, cat: &Catalog, line: usize) -> Result<BatchRun, String> {
    let streams = inputs.batch.unwrap_or(1).max(1);
    let vendor = s
        .text(Key::Hw)
        .and_then(|hw| cat.machine(hw).ok())
        .map_or(Vendor::Other, |m| m.class().vendor);
    let parts = ROUTING_GRID
        .iter()
        .map(|g| {
            let mut at = inputs.clone();
            at.machine.time.routing_exponent = *g;
            batch_parts(&at, streams)
        })
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| format!("line {line}: the machine has no compute figure"))?;
    Ok(BatchRun {
        vendor,
        streams,
        single_tok_s: estimate(inputs).expected_tok_s,
        moe: inputs.routing().is_some(),
        parts,
    })
}
