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
}

impl ScoredRun {
    /// |ln(expected ÷ measured)|.
    pub fn error(&self) -> f64 {
        (self.expected_tok_s / self.measured_tok_s).ln().abs()
    }
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
        })
    })
}
