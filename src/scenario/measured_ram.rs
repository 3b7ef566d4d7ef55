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

use crate::calibration::RamFit;
use crate::catalog::{csv, Catalog};
use crate::estimator::cpu::{numa_factor, ATTENTION_PRIOR, COMPUTE_EFFICIENCY_PRIOR, NUMA_PRIOR};
use crate::estimator::{estimate, host_compute_seconds, CpuFamily};
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

    /// Whether the CPU streams whole layers from RAM here (a CPU machine, or layers a GPU does not
    /// hold), rather than a mixture's routed experts, a few small matrices a layer: the two
    /// streaming multipliers of the fit ([`RamFit::cpu`], [`RamFit::offload`]).
    pub fn streams_dense(self) -> bool {
        self != Situation::ExpertsInRam
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
    /// Seconds per token the CPU's arithmetic on them takes at its peak (0: no CPU known).
    pub compute_peak_s: f64,
    /// Seconds per token the CPU's attention over the context takes at its attention peak (0: no
    /// CPU known, or attention on the GPU: [`crate::estimator::host_attention_seconds`]).
    pub attention_peak_s: f64,
    /// The CPU's family, where the run names its CPU.
    pub family: Option<CpuFamily>,
    /// Sockets the run spans.
    pub sockets: u32,
    /// Tokens in the KV cache when it generated.
    pub context: f64,
    /// It ran on fewer threads than its CPU has performance cores (over its sockets): the CPU's
    /// arithmetic was held back, so a run slower than its bytes can show it.
    pub fewer_threads_than_cores: bool,
    /// The pass's shape (layers, routed-expert matmuls).
    pub shape: crate::estimator::PassShape,
    /// Threads it ran on (0: no CPU known).
    pub threads: u32,
    /// The fixed seconds per token inside `rest_s` (per layer, per expert matmul).
    pub fixed_s: f64,
    /// What the CPU's thread synchronisation costs this run per second of the fitted
    /// [`RamSide::sync`]: its layers × log2(threads) on a CPU machine whose CPU is known, 0
    /// elsewhere ([`crate::estimator::cpu::sync_rounds`]).
    pub sync_units: f64,
}

/// What the RAM side's fit gives: the streaming multipliers (over every CPU, and per CPU family
/// on a CPU machine's own memory), the CPU families' compute efficiencies, the remote sockets'
/// streaming rate, and the CPU's thread synchronisation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RamSide {
    pub ram: RamFit,
    /// A CPU machine's own memory, per CPU family with runs from two hosts or more: how much of
    /// its peak a platform's memory controllers deliver (many-channel servers, dual-channel
    /// desktops, boards' LPDDR) differs by more than a runtime's.
    pub families: Vec<(CpuFamily, (f64, usize))>,
    pub compute: Vec<(CpuFamily, (f64, usize))>,
    pub numa: Option<(f64, usize)>,
    /// The share of the CPU's attention peak its attention over the context reaches, per engine,
    /// with the runs it rests on ([`attention_fit`]).
    pub attention: Vec<(String, (f64, usize))>,
    /// Seconds per layer per log2(threads) of a CPU machine's own threads meeting
    /// ([`crate::estimator::cpu::sync_rounds`]), and the runs it rests on; `None`: no such cost.
    pub sync: Option<(f64, usize)>,
}

impl RamSide {
    /// The compute efficiency of `family`: fitted, else the prior.
    pub fn efficiency(&self, family: Option<CpuFamily>) -> f64 {
        family
            .and_then(|f| self.compute.iter().find(|(g, _)| *g == f))
            .map_or(COMPUTE_EFFICIENCY_PRIOR, |(_, (e, _))| *e)
    }

    /// The streaming multiplier for `situation`: fitted, else the prior.
    pub fn multiplier(&self, situation: Situation) -> f64 {
        let f = if situation.streams_dense() {
            self.ram.cpu
        } else {
            self.ram.offload
        };
        f.map_or(crate::calibration::CPU_PRIOR[3], |(m, _)| m)
    }

    /// The streaming multiplier `run` is predicted with: its CPU family's on a CPU machine where
    /// the family has a fit, else its situation's.
    pub fn multiplier_for(&self, run: &RamRun) -> f64 {
        let family = run
            .family
            .filter(|_| run.situation == Situation::CpuOnly)
            .and_then(|f| self.families.iter().find(|(g, _)| *g == f));
        family.map_or_else(|| self.multiplier(run.situation), |(_, (m, _))| *m)
    }

    /// The fitted synchronisation seconds per layer per log2(threads) (0 without a fit).
    pub fn sync_s(&self) -> f64 {
        self.sync.map_or(0.0, |(s, _)| s)
    }

    /// The share of peak the CPU's attention reaches under `engine`: its own fit, else
    /// llama.cpp's, else the prior.
    pub fn attention_share(&self, engine: &str) -> f64 {
        crate::calibration::engine_or_llama_cpp(&self.attention, engine).map_or(ATTENTION_PRIOR, |(a, _)| a)
    }
}

/// A run slower than the memory side's fit predicts by more than this factor is taken as
/// compute-bound: beyond the ±25% band of the memory fit.
const COMPUTE_BOUND_MARGIN: f64 = 1.3;

/// The deepest context at which a run can show the weights' arithmetic binding: past it, the
/// attention's own work (not modelled on the CPU side) is mixed in.
const COMPUTE_FIT_MAX_CONTEXT: f64 = 1024.0;

/// The shallowest context at which a run's time is taken to show the CPU's attention (a deep
/// run): below it attention is a few percent of a token's time on every CPU measured.
pub const ATTENTION_FIT_MIN_CONTEXT: f64 = 4096.0;

impl RamRun {
    /// Seconds per token apart from the RAM side's weights, with `sync` seconds per layer per
    /// log2(threads) of thread synchronisation.
    pub fn rest(&self, sync: f64) -> f64 {
        self.rest_s + sync * self.sync_units
    }

    /// The multiplier on peak time this run shows (never below 1: nothing streams faster than
    /// peak).
    pub fn multiplier(&self, sync: f64) -> f64 {
        ((1.0 / self.tg_tok_s - self.rest(sync)) / self.ram_peak_s).max(1.0)
    }

    /// The tok/s the memory side alone predicts with a fitted multiplier.
    pub fn predict_memory(&self, multiplier: f64, sync: f64) -> f64 {
        1.0 / (self.rest(sync) + multiplier * self.ram_peak_s)
    }

    /// The tok/s the whole fit predicts for this run: the larger of the RAM side's streaming time
    /// (slowed by spanning sockets) and the CPU's arithmetic at its efficiency, then the CPU's
    /// attention at its engine's share of peak.
    pub fn predict(&self, side: &RamSide) -> f64 {
        1.0 / (self.weights_seconds(side) + self.attention_s(side))
    }

    /// Seconds per token the fit predicts apart from the CPU's attention.
    fn weights_seconds(&self, side: &RamSide) -> f64 {
        let remote = side.numa.map_or(NUMA_PRIOR, |(r, _)| r);
        let memory = side.multiplier_for(self) * self.ram_peak_s / numa_factor(self.sockets, remote);
        let compute = self.compute_peak_s / side.efficiency(self.family);
        self.rest(side.sync_s()) + memory.max(compute)
    }

    /// Seconds per token of the CPU's attention at `side`'s share for this run's engine.
    fn attention_s(&self, side: &RamSide) -> f64 {
        self.attention_peak_s / side.attention_share(&self.engine)
    }

    /// Deep enough for its time to show the CPU's attention ([`ATTENTION_FIT_MIN_CONTEXT`]).
    pub fn deep(&self) -> bool {
        self.attention_peak_s > 0.0 && self.context >= ATTENTION_FIT_MIN_CONTEXT
    }

    /// The compute efficiency this run shows if its arithmetic sets its time.
    fn implied_efficiency(&self, sync: f64) -> Option<f64> {
        let t = 1.0 / self.tg_tok_s - self.rest(sync);
        (self.compute_peak_s > 0.0 && t > 0.0).then(|| self.compute_peak_s / t)
    }
}

/// Every run of data/measured-ram.csv, split as the fit needs; an error names the bad line.
pub fn runs(cat: &Catalog) -> Result<Vec<RamRun>, String> {
    runs_from(MEASURED_RAM, cat)
}

/// The runs of `text` in data/measured-ram.csv's format (a header, then one run a line).
pub fn runs_from(text: &str, cat: &Catalog) -> Result<Vec<RamRun>, String> {
    csv::records(text, |r| {
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
        let shape = inputs.pass_shape();
        // The synchronisation the shipped fit adds to a CPU machine's layers is left out: the fit
        // puts its own in.
        let sync_units = match (&inputs.host, cpu) {
            (Some(h), true) => {
                let shipped = crate::catalog::calibration().cpu_sync_per_layer(h.threads);
                inputs.machine.time.own.per_layer_s -= shipped;
                shape.layers * crate::estimator::cpu::sync_rounds(h.threads)
            }
            _ => 0.0,
        };
        let fixed_s = inputs.machine.time.fixed_seconds(&shape, inputs.devices_used());
        Ok(RamRun {
            situation,
            shape,
            threads: inputs.host.as_ref().map_or(0, |h| h.threads),
            fixed_s,
            sync_units,
            host: r.required("host")?.to_string(),
            rest_s: inputs
                .machine
                .time
                .step_seconds(&inputs.pass_shape(), &e.pools, inputs.devices_used()),
            ram_peak_s,
            compute_peak_s: host_compute_seconds(&inputs, &e),
            attention_peak_s: crate::estimator::host_attention_seconds(&inputs, &e.pools),
            family: inputs.host.as_ref().map(|h| h.family),
            sockets: inputs.host.as_ref().map_or(1, |h| h.sockets),
            context: inputs.context,
            fewer_threads_than_cores: inputs
                .host
                .as_ref()
                .and_then(|h| cat.cpu(&h.id).ok().map(|c| h.threads < c.cores * h.sockets.max(1)))
                .unwrap_or(false),
            tg_tok_s: r.f64("tg_tok_s")?,
            engine: r.text("engine").to_string(),
            url: r.required("url")?.to_string(),
            fitted: r.flag("fitted")?,
            query,
        })
    })
}

/// The median over hosts of each host's geometric median of `value` (so a host measured many
/// times counts once), and how many runs it rests on; `None` without runs.
fn host_median<'a>(runs: impl Iterator<Item = &'a RamRun>, value: impl Fn(&RamRun) -> Option<f64>) -> Option<(f64, usize)> {
    crate::calibration::median_over_hosts(runs.filter_map(|r| value(r).map(|v| (r.host.as_str(), v))))
}

/// How many hosts `runs` come from.
fn host_count<'a>(runs: impl Iterator<Item = &'a RamRun>) -> usize {
    runs.map(|r| r.host.as_str()).collect::<std::collections::BTreeSet<_>>().len()
}

/// The streaming multiplier over the fitted runs given, by [`host_median`], with `sync` seconds
/// of synchronisation per layer per log2(threads).
pub fn fit_multiplier<'a>(runs: impl Iterator<Item = &'a RamRun>, sync: f64) -> Option<(f64, usize)> {
    host_median(runs.filter(|r| r.fitted), |r| Some(r.multiplier(sync)))
}

/// The whole calibration: every level fitted on data/measured.csv, and the RAM side on
/// data/measured-ram.csv (what `tokbound fit` prints and data/calibration.csv ships).
pub fn full_fit(cat: &Catalog) -> Result<crate::calibration::Calibration, String> {
    let points = cat.measured_points().map_err(|e| format!("data/measured.csv: {e}"))?;
    let mut cal = crate::calibration::Calibration::fit(&points);
    let runs = runs(cat).map_err(|e| format!("data/measured-ram.csv: {e}"))?;
    let side = fit(&runs);
    let sync = side.sync_s();
    let runs = bake(&runs, &side);
    cal.cpu_attention = side.attention;
    cal.ram = side.ram;
    cal.cpu_compute = side.compute;
    cal.numa = side.numa;
    cal.cpu_stream = side.families;
    cal.cpu_sync = side.sync;
    let mixed = crate::scenario::scored::runs(crate::scenario::scored::Kind::MixedGpus, cat)
        .map_err(|e| format!("data/measured-mixed.csv: {e}"))?;
    cal.split_fixed = crate::scenario::scored::split_fit(&mixed);
    let batched = crate::scenario::scored::runs(crate::scenario::scored::Kind::Batched, cat)
        .map_err(|e| format!("data/measured-batched.csv: {e}"))?;
    cal.batch = crate::scenario::scored::batch_fit(&batched);
    // Per engine, for the engines with fitted runs of their own (in the key table's order).
    for engine in crate::scenario::keys::ENGINES {
        let f = engine_fit_at(&runs, engine, sync);
        if f.cpu.is_some() || f.offload.is_some() {
            cal.ram_by_engine.push((engine.to_string(), f));
        }
    }
    Ok(cal)
}

/// The synchronisation costs tried, seconds per layer per log2(threads): 0 to 100 µs by 5 µs.
const SYNC_GRID: std::ops::RangeInclusive<u32> = 0..=20;
const SYNC_STEP_S: f64 = 5e-6;

/// The RAM side's fit over the fitted runs. The CPU's thread synchronisation is the cost in
/// [`SYNC_GRID`] whose fit ([`fit_at`]) predicts the CPU-only runs best: the smallest median over
/// hosts of each host's median |ln(expected ÷ measured)|, each run read as the estimator reads a
/// run of its engine. It needs CPU-only runs on several threads from two hosts or more; without
/// them there is none.
pub fn fit(runs: &[RamRun]) -> RamSide {
    // First without the deep runs (the shallower ones' attention at the prior share, a few
    // percent of their time), then each engine's attention on the deep runs, then everything
    // with each run's attention at its engine's share counted as known time.
    let shallow: Vec<RamRun> = runs.iter().filter(|r| !r.deep()).cloned().collect();
    let first = fit_side(&bake(&shallow, &RamSide::default()));
    let attention = attention_fit(runs, &first, &shallow);
    let known = RamSide {
        attention,
        ..RamSide::default()
    };
    let mut side = fit_side(&bake(runs, &known));
    side.attention = known.attention;
    side
}

/// `runs` with each run's attention at `side`'s share moved into the time it does not fit
/// (`rest_s`), so that a fit over them needs no share of its own.
pub fn bake(runs: &[RamRun], side: &RamSide) -> Vec<RamRun> {
    runs.iter()
        .map(|r| RamRun {
            rest_s: r.rest_s + r.attention_s(side),
            attention_peak_s: 0.0,
            ..r.clone()
        })
        .collect()
}

/// The share of peak the CPU's attention reaches, fitted on the deep runs ([`RamRun::deep`])
/// that are fitted or name their CPU (at depth the attention outweighs what an unknown memory
/// configuration could move): each run's time beyond what `first` (fitted without them) predicts
/// for its weights is its attention, and its attention's seconds at peak over that is the share it
/// shows (1 where it shows none). The share is the median over hosts, per engine where the
/// engine's deep runs come from two hosts or more.
pub fn attention_fit(runs: &[RamRun], first: &RamSide, shallow: &[RamRun]) -> Vec<(String, (f64, usize))> {
    let deep: Vec<&RamRun> = runs.iter().filter(|r| r.deep() && (r.fitted || r.family.is_some())).collect();
    let mut sides: Vec<(&str, RamSide)> = Vec::new();
    for r in &deep {
        if !sides.iter().any(|(e, _)| *e == r.engine) {
            sides.push((r.engine.as_str(), with_engine(first.clone(), shallow, &r.engine)));
        }
    }
    let shown = |r: &RamRun| {
        let side = &sides.iter().find(|(e, _)| *e == r.engine)?.1;
        let t = 1.0 / r.tg_tok_s - r.weights_seconds(side);
        Some(if t > 0.0 { (r.attention_peak_s / t).min(1.0) } else { 1.0 })
    };
    sides
        .iter()
        .filter_map(|&(e, _)| {
            let mine = deep.iter().copied().filter(|r| r.engine == e);
            (host_count(mine.clone()) >= 2)
                .then(|| host_median(mine, shown))
                .flatten()
                .map(|a| (e.to_string(), a))
        })
        .collect()
}

/// The RAM side's fit over runs whose attention is known time ([`bake`]): the synchronisation
/// cost in [`SYNC_GRID`] whose fit predicts the CPU-only runs best.
fn fit_side(runs: &[RamRun]) -> RamSide {
    let threaded = runs
        .iter()
        .filter(|r| r.fitted && r.situation == Situation::CpuOnly && r.sync_units > 0.0);
    if host_count(threaded.clone()) < 2 {
        return fit_at(runs, 0.0);
    }
    let n = threaded.count();
    let mut best: Option<(f64, RamSide)> = None;
    for step in SYNC_GRID {
        let sync = f64::from(step) * SYNC_STEP_S;
        let mut side = fit_at(runs, sync);
        side.sync = (step > 0).then_some((sync, n));
        let score = cpu_error(runs, &side);
        if best.as_ref().is_none_or(|(b, _)| score < *b - 1e-12) {
            best = Some((score, side));
        }
    }
    best.map(|(_, side)| side).unwrap_or_default()
}

/// The median over hosts of each host's median |ln(expected ÷ measured)| over the fitted CPU-only
/// runs, each read with `side` and its engine's own multipliers ([`engine_fit_at`]).
fn cpu_error(runs: &[RamRun], side: &RamSide) -> f64 {
    let mut sides: Vec<(&str, RamSide)> = Vec::new();
    let mut per_host: std::collections::BTreeMap<&str, Vec<f64>> = std::collections::BTreeMap::new();
    for r in runs.iter().filter(|r| r.fitted && r.situation == Situation::CpuOnly) {
        if !sides.iter().any(|(e, _)| *e == r.engine) {
            sides.push((r.engine.as_str(), with_engine(side.clone(), runs, &r.engine)));
        }
        let Some((_, s)) = sides.iter().find(|(e, _)| *e == r.engine) else {
            continue;
        };
        per_host
            .entry(r.host.as_str())
            .or_default()
            .push((r.predict(s) / r.tg_tok_s).ln().abs());
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        crate::calibration::quantile(&v, 0.5)
    };
    median(per_host.into_values().map(median).collect())
}

/// The RAM side's fit over the fitted runs with `sync` seconds per layer per log2(threads) of
/// synchronisation on a CPU machine, in four steps:
/// 1. the streaming multiplier of each situation over the single-socket runs;
/// 2. a run on fewer threads than its CPU's cores that is slower than that predicts by more than
///    [`COMPUTE_BOUND_MARGIN`] is compute-bound: the
///    efficiency of its CPU family is fitted on such runs (the share of peak their time implies),
///    and the multiplier is fitted again without them;
/// 3. a CPU machine's multiplier per CPU family, on that family's memory-bound runs from two hosts
///    or more;
/// 4. the remote sockets' streaming rate on the multi-socket runs.
pub fn fit_at(runs: &[RamRun], sync: f64) -> RamSide {
    let single: Vec<&RamRun> = runs.iter().filter(|r| r.fitted && r.sockets <= 1).collect();
    // Whole layers in system RAM beside a GPU stream as a CPU machine's own weights do: one
    // multiplier; routed experts another.
    let of = |rs: &[&RamRun], dense: bool| fit_multiplier(rs.iter().copied().filter(|r| r.situation.streams_dense() == dense), sync);
    let multipliers = |rs: &[&RamRun]| RamFit {
        cpu: of(rs, true),
        offload: of(rs, false),
    };
    let first = RamSide {
        ram: multipliers(&single),
        ..RamSide::default()
    };
    // The arithmetic modelled is the weights' matrix-vector products, not attention: only runs
    // near an empty context can show it binding, and only those on fewer threads than the CPU has
    // cores. A run on every core that is slower than its bytes may be held back by anything the
    // model does not count (a slow memory controller); one on fewer threads shows the arithmetic
    // those threads can do.
    let flagged = |r: &RamRun| {
        r.family.is_some()
            && r.fewer_threads_than_cores
            && r.context <= COMPUTE_FIT_MAX_CONTEXT
            && r.tg_tok_s * COMPUTE_BOUND_MARGIN < r.predict_memory(first.multiplier(r.situation), sync)
    };
    // A family's efficiency rests on compute-bound runs of at least two hosts, so that one odd run
    // cannot set it; runs of a family without such a fit stay in the memory side's.
    let compute: Vec<(CpuFamily, (f64, usize))> = CpuFamily::ALL
        .into_iter()
        .filter_map(|f| {
            let mine: Vec<&RamRun> = single.iter().copied().filter(|r| r.family == Some(f) && flagged(r)).collect();
            (host_count(mine.iter().copied()) >= 2)
                .then(|| host_median(mine.into_iter(), |r| r.implied_efficiency(sync)))
                .flatten()
                .map(|e| (f, e))
        })
        .collect();
    let explained = |r: &RamRun| flagged(r) && compute.iter().any(|(f, _)| Some(*f) == r.family);
    let memory_bound: Vec<&RamRun> = single.iter().copied().filter(|r| !explained(r)).collect();
    // A family's own multiplier, like an engine's, stands on two hosts.
    let families = CpuFamily::ALL
        .into_iter()
        .filter_map(|f| {
            let mine: Vec<&RamRun> = memory_bound
                .iter()
                .copied()
                .filter(|r| r.situation == Situation::CpuOnly && r.family == Some(f))
                .collect();
            (host_count(mine.iter().copied()) >= 2)
                .then(|| fit_multiplier(mine.into_iter(), sync))
                .flatten()
                .map(|m| (f, m))
        })
        .collect();
    let mut side = RamSide {
        ram: multipliers(&memory_bound),
        families,
        compute,
        numa: None,
        attention: Vec::new(),
        sync: None,
    };
    side.numa = host_median(runs.iter().filter(|r| r.fitted && r.sockets > 1), |r| {
        let s = f64::from(r.sockets);
        let t = 1.0 / r.tg_tok_s - r.rest(sync);
        let factor = side.multiplier(r.situation) * r.ram_peak_s / t;
        (t > 0.0).then(|| ((factor * s - 1.0) / (s - 1.0)).clamp(0.05, 1.0))
    });
    side
}

/// The streaming multipliers `engine`'s own runs give: each side (a CPU machine's own memory;
/// system RAM beside a GPU) only where its fitted single-socket runs come from two hosts or more,
/// so that one host's runs cannot set an engine's rate. The synchronisation is the fit's over
/// every engine ([`fit`]).
pub fn engine_fit(runs: &[RamRun], engine: &str) -> RamFit {
    let side = fit(runs);
    engine_fit_at(&bake(runs, &side), engine, side.sync_s())
}

/// [`engine_fit`] with `sync` seconds per layer per log2(threads) of synchronisation.
pub fn engine_fit_at(runs: &[RamRun], engine: &str, sync: f64) -> RamFit {
    let mine: Vec<RamRun> = runs.iter().filter(|r| r.engine == engine).cloned().collect();
    let hosts = |cpu: bool| {
        host_count(
            mine.iter()
                .filter(|r| r.fitted && r.sockets <= 1 && r.situation.streams_dense() == cpu),
        )
    };
    let f = fit_at(&mine, sync).ram;
    RamFit {
        cpu: f.cpu.filter(|_| hosts(true) >= 2),
        offload: f.offload.filter(|_| hosts(false) >= 2),
    }
}

/// `side` with `engine`'s own streaming multipliers where they stand on two hosts.
fn with_engine(mut side: RamSide, runs: &[RamRun], engine: &str) -> RamSide {
    let own = engine_fit_at(runs, engine, side.sync_s());
    side.ram.cpu = own.cpu.or(side.ram.cpu);
    side.ram.offload = own.offload.or(side.ram.offload);
    side
}

/// What the estimator reads a run of `engine` with: the fit over every engine, its streaming
/// multipliers those of the engine's own runs where they stand on two hosts ([`engine_fit`]).
pub fn side_for(runs: &[RamRun], engine: &str) -> RamSide {
    let side = fit(runs);
    let known = bake(runs, &side);
    with_engine(side, &known, engine)
}

/// Each fitted run of `situation` with its |ln(expected ÷ measured)|, its host held out of the fit
/// (the priors stand in for what the other hosts do not fit), read as the estimator reads a run of
/// its engine ([`side_for`]).
pub fn leave_one_host_out(runs: &[RamRun], situation: Situation) -> Vec<(&RamRun, f64)> {
    let mut fits: Vec<(&str, RamSide, Vec<RamRun>)> = Vec::new();
    runs.iter()
        .filter(|r| r.situation == situation && r.fitted)
        .map(|r| {
            if !fits.iter().any(|(h, _, _)| *h == r.host) {
                let others: Vec<RamRun> = runs.iter().filter(|o| o.host != r.host).cloned().collect();
                let side = fit(&others);
                let known = bake(&others, &side);
                fits.push((r.host.as_str(), side, known));
            }
            let (_, side, others) = fits.iter().find(|(h, _, _)| *h == r.host).expect("fitted above");
            let side = with_engine(side.clone(), others, &r.engine);
            (r, (r.predict(&side) / r.tg_tok_s).ln().abs())
        })
        .collect()
}
