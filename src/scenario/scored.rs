//! Measured runs that are scored, not fitted: one model split over two or more different GPUs
//! (`with=`, data/measured-mixed.csv), and several streams served at once (`batch=`,
//! data/measured-batched.csv), and models whose kernels are young (hybrid linear attention such as
//! Qwen3-Next, data/measured-young.csv, which run below their bytes while llama.cpp's kernels for
//! them mature; one host so far, so no per-architecture cost is fitted). Each is a tokbound query with its source; nothing is fitted on
//! them, so each run's error is the estimate's as shipped: the single-stream expected figure for a
//! split, the aggregate over the streams (`batch.aggregate_tok_s`) for a batch.

use crate::catalog::{csv, Catalog};
use crate::estimator::estimate;
use crate::scenario::Scenario;

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
        })
    })
}
