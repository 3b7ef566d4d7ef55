//! Measured runs where the essay points people: CPU-only machines, and mixtures of experts with
//! their routed experts in system RAM beside a GPU (data/measured-ram.csv: each run a tokbound
//! scenario query with its source, kept only where the memory configuration is established).
//!
//! They fit the one thing data/measured.csv cannot: how efficiently bytes stream from system RAM
//! when the CPU reads them. Per run, the step time is split into what the rest of the model
//! predicts (fixed costs, the KV cache, the GPU's share) and the weight bytes read from RAM at
//! peak bandwidth; the run's multiplier on the latter is (measured − rest) ÷ peak time, and the
//! fit is the geometric median over the runs of one situation. The page carries only the fitted
//! figures (data/calibration.csv), not these rows.

use crate::calibration::{quantile, RamFit};
use crate::catalog::{csv, Catalog};
use crate::estimator::estimate;
use crate::scenario::Scenario;

const MEASURED_RAM: &str = include_str!("../../data/measured-ram.csv");

/// Where the bytes the fit is about are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Situation {
    /// A CPU machine: every weight from its own memory.
    CpuOnly,
    /// A GPU machine with a mixture of experts' routed experts in system RAM (`offload=experts`).
    ExpertsInRam,
    /// A GPU machine with some layers in system RAM (a partial `-ngl`).
    LayersInRam,
}

impl Situation {
    pub const ALL: [Situation; 3] = [Situation::CpuOnly, Situation::ExpertsInRam, Situation::LayersInRam];

    pub fn id(self) -> &'static str {
        match self {
            Situation::CpuOnly => "cpu-only",
            Situation::ExpertsInRam => "experts-in-ram",
            Situation::LayersInRam => "layers-in-ram",
        }
    }

    /// How `tokbound accuracy` and docs/accuracy.md name it.
    pub fn label(self) -> &'static str {
        match self {
            Situation::CpuOnly => "CPU-only",
            Situation::ExpertsInRam => "experts in RAM",
            Situation::LayersInRam => "layers in RAM",
        }
    }
}

/// One measured run, as the fit sees it.
#[derive(Clone, Debug)]
pub struct RamRun {
    pub situation: Situation,
    /// The host's CPU and memory configuration: runs on one host are held out together.
    pub host: String,
    pub query: String,
    pub tg_tok_s: f64,
    pub engine: String,
    pub url: String,
    /// Whether the fit uses it: only runs whose memory configuration is established.
    pub fitted: bool,
    /// Seconds per token that the model predicts apart from the RAM side's weights.
    pub rest_s: f64,
    /// Seconds per token the RAM side's weights take at peak bandwidth.
    pub ram_peak_s: f64,
}

impl RamRun {
    /// The multiplier on peak time this run shows (never below 1: nothing streams faster than
    /// peak).
    pub fn multiplier(&self) -> f64 {
        ((1.0 / self.tg_tok_s - self.rest_s) / self.ram_peak_s).max(1.0)
    }

    /// The tok/s a fitted multiplier predicts for this run.
    pub fn predict(&self, multiplier: f64) -> f64 {
        1.0 / (self.rest_s + multiplier * self.ram_peak_s)
    }
}

/// Every run of data/measured-ram.csv, split as the fit needs; an error names the bad line.
pub fn runs(cat: &Catalog) -> Result<Vec<RamRun>, String> {
    csv::records(MEASURED_RAM, |r| {
        let situation = match r.required("situation")? {
            "cpu-only" => Situation::CpuOnly,
            "experts-in-ram" => Situation::ExpertsInRam,
            "layers-in-ram" => Situation::LayersInRam,
            s => {
                return Err(format!(
                    "line {}: situation \"{s}\" is not cpu-only, experts-in-ram or layers-in-ram",
                    r.line
                ))
            }
        };
        let query = r.required("query")?.to_string();
        let (s, issues) = Scenario::from_query(&query);
        let mut inputs = match (issues.is_empty(), s.resolve(cat)) {
            (true, Ok(inputs)) => inputs,
            _ => return Err(format!("line {}: the query does not resolve", r.line)),
        };
        // The rest of the model with the RAM side's weights left out of it.
        let cpu = situation == Situation::CpuOnly;
        if cpu {
            inputs.machine.time.own.weight = 0.0;
        } else {
            inputs.machine.time.slow.weight = 0.0;
        }
        let e = estimate(&inputs);
        let ram_pools = if cpu { &e.pools[..1] } else { &e.pools[1..] };
        let ram_peak_s = ram_pools.iter().map(|p| p.weight_bytes / (p.bandwidth_gbs * 1e9)).sum::<f64>();
        if ram_peak_s <= 0.0 {
            return Err(format!("line {}: nothing is read from system RAM in this scenario", r.line));
        }
        Ok(RamRun {
            situation,
            host: r.required("host")?.to_string(),
            rest_s: inputs.machine.time.step_seconds(&inputs.pass_shape(), &e.pools),
            ram_peak_s,
            tg_tok_s: r.f64("tg_tok_s")?,
            engine: r.text("engine").to_string(),
            url: r.required("url")?.to_string(),
            fitted: r.flag("fitted")?,
            query,
        })
    })
}

/// The median over hosts of each host's geometric median multiplier (so a host measured many
/// times counts once), and how many runs it rests on; `None` without fitted runs.
pub fn fit_multiplier<'a>(runs: impl Iterator<Item = &'a RamRun>) -> Option<(f64, usize)> {
    let runs: Vec<&RamRun> = runs.filter(|r| r.fitted).collect();
    let mut hosts: Vec<&str> = runs.iter().map(|r| r.host.as_str()).collect();
    hosts.sort_unstable();
    hosts.dedup();
    let median_log = |mut logs: Vec<f64>| {
        logs.sort_by(f64::total_cmp);
        quantile(&logs, 0.5)
    };
    let per_host: Vec<f64> = hosts
        .iter()
        .map(|h| median_log(runs.iter().filter(|r| r.host == *h).map(|r| r.multiplier().ln()).collect()))
        .collect();
    (!per_host.is_empty()).then(|| (median_log(per_host).exp(), runs.len()))
}

/// The whole calibration: every level fitted on data/measured.csv, and the RAM side on
/// data/measured-ram.csv (what `tokbound fit` prints and data/calibration.csv ships).
pub fn full_fit(cat: &Catalog) -> Result<crate::calibration::Calibration, String> {
    let points = cat.measured_points().map_err(|e| format!("data/measured.csv: {e}"))?;
    let mut cal = crate::calibration::Calibration::fit(&points);
    let runs = runs(cat).map_err(|e| format!("data/measured-ram.csv: {e}"))?;
    cal.ram = fit(&runs);
    // Per engine, for the engines with fitted runs of their own (in the key table's order).
    for engine in crate::scenario::keys::ENGINES {
        let mine: Vec<RamRun> = runs.iter().filter(|r| r.engine == *engine).cloned().collect();
        let f = fit(&mine);
        if f.cpu.is_some() || f.offload.is_some() {
            cal.ram_by_engine.push((engine.to_string(), f));
        }
    }
    Ok(cal)
}

/// The RAM side's fit over every run.
pub fn fit(runs: &[RamRun]) -> RamFit {
    let of = |s: Situation| fit_multiplier(runs.iter().filter(|r| r.situation == s));
    RamFit {
        cpu: of(Situation::CpuOnly),
        offload: of(Situation::ExpertsInRam).or_else(|| of(Situation::LayersInRam)),
    }
}

/// |ln(expected ÷ measured)| of each fitted run of `situation`, its host held out of the fit; with
/// a situation of one host the prior multiplier `prior` stands in.
pub fn leave_one_host_out(runs: &[RamRun], situation: Situation, prior: f64) -> Vec<f64> {
    let mine: Vec<&RamRun> = runs.iter().filter(|r| r.situation == situation && r.fitted).collect();
    mine.iter()
        .map(|r| {
            let m = fit_multiplier(mine.iter().copied().filter(|o| o.host != r.host)).map_or(prior, |f| f.0);
            (r.predict(m) / r.tg_tok_s).ln().abs()
        })
        .collect()
}
