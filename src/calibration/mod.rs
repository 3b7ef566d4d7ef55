//! The expected figure: a per-pass time model fitted to measured decode results.
//!
//! The ceiling assumes every byte streams at peak bandwidth with nothing else to do. Measured
//! runs fall short in ways the data shows plainly: a cost per layer per pass (kernel launches,
//! synchronisation) that dominates small models on fast GPUs, a cost per routed-expert matmul in
//! mixtures of experts, weights streaming below peak, and attention over the KV cache streaming
//! worse still, far worse without flash attention. So, per group g of machines and runtime:
//!
//! `t = a_g + l_g·layers + e_g·expert_matmuls + w_g·W/BW + k_g·K/BW`
//!
//! with W and K the weight and KV bytes a token reads, BW the machine's peak bandwidth,
//! `expert_matmuls` the routed experts per token times the MoE layers, and `k_g` the flash-attention
//! coefficient (rows run without flash attention are fitted with a separate one, which predictions
//! never use: tokbound assumes flash attention on). The coefficients are a weighted least-squares
//! fit of measured seconds per token, weighted by 1/t so each row counts by its relative error,
//! with every coefficient non-negative and `w_g`, `k_g` at least 1 (no runtime streams faster
//! than peak).
//!
//! Groups nest: a machine kind (GPU, Apple, SoC, CPU), its vendor (NVIDIA, AMD, Intel; HBM GPUs
//! apart), then the backend the runtime ran on (CUDA, ROCm, Vulkan, Metal, SYCL, CPU, MLX). Each
//! level is fitted on its own rows with a ridge pull ([`RIDGE`]) toward the level above, so a
//! group with few rows stays near its parent and one with none is its parent: the stated prior
//! of a combination that was never measured is the fit of the nearest level that was. The band
//! is the 10th–90th percentile of the group's residuals ln(measured ÷ fitted), the parent's below
//! [`MIN_BAND_ROWS`] rows. Only decode-only measurements (llama-bench, server timings, mlx_lm) are
//! fitted; whole-request timings and averages over prompt lengths are kept as data only.
//!
//! The fit is handed to the estimator as each machine's [`TimeModel`]; the catalog module fits it
//! on the shipped measurements, and a user's own llama-bench output can refit one machine
//! ([`UserFit`]). `tests/calibration.rs` recomputes the leave-one-machine-out and
//! leave-one-backend-out errors that docs/accuracy.md reports.

pub mod paste;
pub mod user;

use std::collections::BTreeSet;

use crate::estimator::{Coefficients, CpuFamily, Kind, PassShape, TimeModel, GB};

/// Strength of the pull of each group's fit toward its parent's.
pub const RIDGE: f64 = 1.0;
/// Fewer rows than this and a group takes its parent's fit and band.
pub const MIN_ROWS: usize = 3;
/// Fewer rows than this and a group takes its parent's band.
pub const MIN_BAND_ROWS: usize = 8;

/// The runtime backend a figure was measured on, or the scenario's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Backend {
    Cuda,
    Rocm,
    Vulkan,
    Metal,
    Sycl,
    Cpu,
    Mlx,
}

impl Backend {
    pub const ALL: [Backend; 7] = [
        Backend::Cuda,
        Backend::Rocm,
        Backend::Vulkan,
        Backend::Metal,
        Backend::Sycl,
        Backend::Cpu,
        Backend::Mlx,
    ];

    /// The lowercase id used in files, links and the CLI ([`BACKEND_IDS`]).
    pub fn id(self) -> &'static str {
        BACKEND_IDS[self as usize]
    }

    pub fn parse(s: &str) -> Option<Backend> {
        Backend::ALL.into_iter().find(|b| b.id() == s)
    }

    /// The backends a machine of this vendor and kind can run: a GPU its vendor's API, Vulkan
    /// and the CPU; Apple Metal, MLX and the CPU; a CPU the CPU. A GPU or SoC of no known vendor
    /// may run any GPU API its kind allows (a SoC's own list is a catalog column).
    pub fn allowed(vendor: Vendor, kind: Kind) -> Vec<Backend> {
        use Backend::*;
        match (kind, vendor) {
            (Kind::Cpu, _) => vec![Cpu],
            (Kind::Apple, _) | (_, Vendor::Apple) => vec![Metal, Mlx, Cpu],
            (_, Vendor::Nvidia) => vec![Cuda, Vulkan, Cpu],
            (_, Vendor::Amd) => vec![Rocm, Vulkan, Cpu],
            (_, Vendor::Intel) => vec![Sycl, Vulkan, Cpu],
            (Kind::Gpu, Vendor::Other) => vec![Cuda, Rocm, Sycl, Vulkan, Cpu],
            (Kind::Soc, Vendor::Other) => vec![Vulkan, Cpu],
        }
    }

    /// "a, b or c", for messages.
    pub fn list(backends: &[Backend]) -> String {
        let ids: Vec<&str> = backends.iter().map(|b| b.id()).collect();
        match ids.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => ids.join(""),
        }
    }

    /// A custom machine's default, by kind: CUDA on a discrete GPU, Metal on Apple silicon,
    /// Vulkan on another SoC (it runs on all of them), the CPU backend on a CPU.
    pub fn for_kind(kind: Kind) -> Backend {
        match kind {
            Kind::Gpu => Backend::Cuda,
            Kind::Apple => Backend::Metal,
            Kind::Soc => Backend::Vulkan,
            Kind::Cpu => Backend::Cpu,
        }
    }
}

/// Every backend's id, in [`Backend`] order: the one list links, files and the CLI read.
pub const BACKEND_IDS: [&str; 7] = ["cuda", "rocm", "vulkan", "metal", "sycl", "cpu", "mlx"];

/// Every vendor's id, in [`Vendor`] order.
pub const VENDOR_IDS: [&str; 5] = ["nvidia", "amd", "intel", "apple", "other"];

/// Who makes the machine's GPU (its kernels, drivers and memory controllers differ).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Vendor {
    Nvidia,
    Amd,
    Intel,
    Apple,
    Other,
}

impl Vendor {
    /// The vendor a machine's native backend names: CUDA NVIDIA, ROCm AMD, SYCL Intel, Metal and
    /// MLX Apple; Vulkan and CPU say nothing.
    pub fn of_backend(b: Backend) -> Vendor {
        match b {
            Backend::Cuda => Vendor::Nvidia,
            Backend::Rocm => Vendor::Amd,
            Backend::Sycl => Vendor::Intel,
            Backend::Metal | Backend::Mlx => Vendor::Apple,
            Backend::Vulkan | Backend::Cpu => Vendor::Other,
        }
    }

    /// The lowercase id data/calibration.csv and `vendor=` use ([`VENDOR_IDS`]).
    pub fn id(self) -> &'static str {
        VENDOR_IDS[self as usize]
    }

    pub fn parse(s: &str) -> Option<Vendor> {
        [Vendor::Nvidia, Vendor::Amd, Vendor::Intel, Vendor::Apple, Vendor::Other]
            .into_iter()
            .find(|v| v.id() == s)
    }

    pub fn label(self) -> &'static str {
        match self {
            Vendor::Nvidia => "NVIDIA",
            Vendor::Amd => "AMD",
            Vendor::Intel => "Intel",
            Vendor::Apple => "Apple",
            Vendor::Other => "other",
        }
    }
}

/// The hardware class the calibration is fitted per (with the backend).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Class {
    pub kind: Kind,
    pub vendor: Vendor,
    /// HBM datacenter GPUs stream batch-1 decode markedly less efficiently than GDDR cards.
    pub hbm: bool,
}

impl Class {
    pub fn label(&self) -> String {
        let kind = match self.kind {
            Kind::Gpu => "GPU",
            Kind::Apple => "Apple",
            Kind::Soc => "SoC",
            Kind::Cpu => "CPU",
        };
        match (self.kind, self.vendor, self.hbm) {
            (Kind::Apple, _, _) | (Kind::Cpu, _, _) => kind.to_string(),
            (_, v, true) => format!("{kind} {} HBM", v.label()),
            (_, v, false) => format!("{kind} {}", v.label()),
        }
    }
}

/// One measured row reduced to what the fit needs.
#[derive(Clone, Debug)]
pub struct Point {
    pub machine: String,
    pub class: Class,
    pub backend: Backend,
    /// Flash attention on (rows that do not say count as on from August 2025, and on MLX).
    pub fa: bool,
    pub bandwidth_gbs: f64,
    pub weight_bytes: f64,
    pub kv_bytes: f64,
    pub shape: PassShape,
    pub measured_tok_s: f64,
    pub ceiling_tok_s: f64,
    /// The weights' format (a data/quants.csv id), whose kernels stream at a rate of their own
    /// ([`Calibration::formats`]).
    pub format: String,
}

impl Point {
    /// The point as the levels' fit sees it: its weights' bytes times its format's factor.
    fn with_format(&self, factor: f64) -> Point {
        Point {
            weight_bytes: self.weight_bytes * factor,
            ..self.clone()
        }
    }

    /// The regressors: what each coefficient multiplies, in seconds or counts per pass.
    fn regressors(&self) -> [f64; N] {
        let bw = self.bandwidth_gbs * GB;
        let kv = self.kv_bytes / bw;
        [
            1.0,
            self.shape.layers,
            self.shape.expert_matmuls,
            self.weight_bytes / bw,
            if self.fa { kv } else { 0.0 },
            if self.fa { 0.0 } else { kv },
        ]
    }
}

/// Coefficients fitted: [overhead, per layer, per expert matmul, weight, KV with flash attention,
/// KV without].
const N: usize = 6;

/// The smallest scale of each coefficient for the ridge pull, which is otherwise relative: moving
/// a coefficient by its parent's value costs as much as one row's relative error.
const MIN_SCALES: [f64; N] = [1e-4, 1e-6, 1e-7, 0.01, 0.01, 0.01];

/// One group's fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fitted {
    pub c: [f64; N],
    /// (low, high) multipliers on the expected figure.
    pub band: (f64, f64),
    pub rows: usize,
}

impl Fitted {
    /// The estimator's coefficients (flash attention on).
    pub fn coefficients(&self) -> Coefficients {
        Coefficients {
            overhead_s: self.c[0],
            per_layer_s: self.c[1],
            per_expert_s: self.c[2],
            weight: self.c[3],
            kv: self.c[4],
        }
    }

    /// Expected tok/s for one measured point under this fit, at most its ceiling.
    pub fn predict(&self, p: &Point) -> f64 {
        let t: f64 = p.regressors().iter().zip(&self.c).map(|(x, c)| x * c).sum();
        if t > 0.0 {
            (1.0 / t).min(p.ceiling_tok_s)
        } else {
            p.ceiling_tok_s
        }
    }
}

/// Without decode-only CPU rows, CPU inference and the slow pool it shares with a GPU machine's
/// spill: weights at 65% of peak, attention at 35% (20% without flash attention), 30 µs per layer
/// of thread synchronisation. A prior, stated: the measurements hold no llama-bench CPU runs.
pub const CPU_PRIOR: [f64; N] = [0.0, 30e-6, 3e-6, 1.0 / 0.65, 1.0 / 0.35, 1.0 / 0.2];

/// Band used where no group on the way up has rows enough to measure its spread: ±25%.
const DEFAULT_BAND: (f64, f64) = (0.78, 1.25);

/// The level of the hierarchy a fit comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Group,
    Class,
    Kind,
    Global,
}

/// Fitted coefficients for every group that was measured, and the levels above.
#[derive(Clone, Debug)]
pub struct Calibration {
    pub global: Fitted,
    pub kinds: Vec<(Kind, Fitted)>,
    pub classes: Vec<(Class, Fitted)>,
    pub groups: Vec<((Class, Backend), Fitted)>,
    /// How weights stream from system RAM, fitted on measured CPU-only and offload runs.
    pub ram: RamFit,
    /// The same per engine, for the engines with runs of their own.
    pub ram_by_engine: Vec<(String, RamFit)>,
    /// The share of a CPU's peak that decode's matrix-vector products reach, per CPU family
    /// with measured runs, with the number of runs.
    pub cpu_compute: Vec<(CpuFamily, (f64, usize))>,
    /// How fast the share held by another socket streams, relative to the first's, fitted on
    /// multi-socket runs.
    pub numa: Option<(f64, usize)>,
    /// A CPU machine's own memory streaming multiplier per CPU family with runs from two hosts
    /// or more (it stands in for [`RamFit::cpu`] where the CPU is known), with the
    /// number of runs.
    pub cpu_stream: Vec<(CpuFamily, (f64, usize))>,
    /// Seconds per layer per round of a CPU machine's threads meeting
    /// ([`crate::estimator::cpu::sync_rounds`]), fitted on CPU-only runs, with the number of runs.
    pub cpu_sync: Option<(f64, usize)>,
    /// The share of a CPU's attention peak ([`crate::estimator::HostCpu::attention_peak`]) that
    /// decode's attention over the context reaches ([`crate::estimator::host_attention_seconds`]),
    /// per engine with deep runs from two hosts or more, with the number of runs.
    pub cpu_attention: Vec<(String, (f64, usize))>,
    /// The multiplier on a pass's fixed seconds where its layers are split over several GPUs
    /// ([`TimeModel::split_fixed`]), fitted on the mixed-GPU runs, with the number of runs.
    pub split_fixed: Option<(f64, usize)>,
    /// Several streams at once, fitted on data/measured-batched.csv.
    pub batch: BatchFit,
    /// How the weights of a low-bit format ([`low_bit`]) stream from a GPU's or Apple chip's
    /// own memory against the other formats the same machine ran: a factor on the time the
    /// weights take, per format compared on two machines or more, with the number of rows it rests
    /// on ([`Calibration::fit`]).
    pub formats: Vec<(String, (f64, usize))>,
}

/// The formats whose unpacking can cost more than their bytes: 2- and 3-bit K-quants (bits
/// spread over a low part, a high-bit mask and 6-bit sub-block scales) and the I-quants and
/// ternary formats (codebook look-ups per group of weights). Every other format streams at its
/// machine's fitted rate.
pub fn low_bit(format: &str) -> bool {
    ["iq", "tq", "q2_", "q3_"].iter().any(|p| format.starts_with(p))
}

/// The engine a scenario runs unless it names another (`engine=`), whose runs most fits rest on.
pub const DEFAULT_ENGINE: &str = "llama.cpp";

/// The figure fitted for `engine` among `fits` (engine, (figure, rows)), else llama.cpp's: the
/// engines without runs of their own (Ollama, llamafile) run its CPU kernels. `None` without
/// either.
pub fn engine_or_llama_cpp(fits: &[(String, (f64, usize))], engine: &str) -> Option<(f64, usize)> {
    let fit = |e: &str| fits.iter().find(|(g, _)| g == e).map(|(_, f)| *f);
    fit(engine).or_else(|| fit(DEFAULT_ENGINE))
}

/// `format`'s factor among fitted `factors` (format, (factor, rows)); 1 for a format without one.
fn factor_in(factors: &[(String, (f64, usize))], format: &str) -> f64 {
    factors.iter().find(|f| f.0 == format).map_or(1.0, |f| f.1 .0)
}

/// At most this many rounds of the alternating fit of levels and format factors; it stops sooner
/// once no factor moves by more than [`FORMAT_TOLERANCE`] (as a ratio) in a round.
const FORMAT_ROUNDS: usize = 8;
const FORMAT_TOLERANCE: f64 = 0.005;

/// A batched step as fitted on measured runs of several streams, each figure with the number of
/// runs it rests on: the share of peak compute its arithmetic reaches per vendor (with runs from
/// two hosts or more) and over every vendor, and the routing exponent
/// ([`crate::estimator::routed_tokens`]). Empty: the peak and independent routing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BatchFit {
    pub shares: Vec<(Vendor, (f64, usize))>,
    pub pooled: Option<(f64, usize)>,
    pub routing: Option<(f64, usize)>,
}

impl BatchFit {
    /// The share of peak compute for a machine of `vendor`: its own, else the pooled one, else
    /// the peak.
    pub fn share_for(&self, vendor: Vendor) -> f64 {
        self.shares
            .iter()
            .find(|(v, _)| *v == vendor)
            .map(|(_, s)| *s)
            .or(self.pooled)
            .map_or(1.0, |(s, _)| s)
    }

    /// The routing exponent (1: independent routing, unfitted).
    pub fn routing_exponent(&self) -> f64 {
        self.routing.map_or(1.0, |(r, _)| r)
    }
}

/// Multipliers on peak time for weight bytes read from system RAM by the CPU, each with the
/// number of runs it rests on: of whole layers (`cpu`: a CPU machine's own memory, and the layers
/// a GPU does not hold), and of a mixture's routed experts beside a GPU (`offload`). `None` where no run was measured: the
/// stated prior ([`CPU_PRIOR`]'s weight) stands.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RamFit {
    pub cpu: Option<(f64, usize)>,
    pub offload: Option<(f64, usize)>,
}

impl RamFit {
    /// The multiplier for what a machine of `kind` reads from system RAM: whole layers (a CPU
    /// machine's own weights, or the layers a GPU does not hold) unless `experts` (a mixture's
    /// routed experts beside a GPU); `None` where that side has no fit or nothing is read there.
    pub fn side(&self, kind: Kind, experts: bool) -> Option<(f64, usize)> {
        match kind {
            Kind::Gpu if experts => self.offload,
            Kind::Cpu | Kind::Gpu => self.cpu,
            Kind::Apple | Kind::Soc => None,
        }
    }
}

impl Calibration {
    /// The compute efficiency of a CPU family and the runs it rests on (`None`: the prior).
    pub fn compute_efficiency(&self, family: CpuFamily) -> (f64, Option<usize>) {
        match self.cpu_compute.iter().find(|(f, _)| *f == family) {
            Some((_, (e, n))) => (*e, Some(*n)),
            None => (crate::estimator::cpu::COMPUTE_EFFICIENCY_PRIOR, None),
        }
    }

    /// The remote sockets' streaming rate and the runs it rests on (`None`: the prior).
    pub fn numa_remote(&self) -> (f64, Option<usize>) {
        match self.numa {
            Some((r, n)) => (r, Some(n)),
            None => (crate::estimator::cpu::NUMA_PRIOR, None),
        }
    }

    /// The seconds a CPU machine's layer spends with `threads` threads meeting (0 without a fit).
    pub fn cpu_sync_per_layer(&self, threads: u32) -> f64 {
        self.cpu_sync.map_or(0.0, |(s, _)| s * crate::estimator::cpu::sync_rounds(threads))
    }

    /// The share of a CPU's attention peak decode's attention reaches under `engine`, and the runs
    /// it rests on: the engine's own fit, else llama.cpp's, else the prior (`None`).
    pub fn attention_share(&self, engine: &str) -> (f64, Option<usize>) {
        engine_or_llama_cpp(&self.cpu_attention, engine).map_or((crate::estimator::cpu::ATTENTION_PRIOR, None), |(a, n)| (a, Some(n)))
    }

    /// A CPU machine's own memory streaming multiplier for its CPU `family`, where fitted.
    pub fn cpu_stream_for(&self, family: CpuFamily) -> Option<(f64, usize)> {
        self.cpu_stream.iter().find(|(f, _)| *f == family).map(|(_, m)| *m)
    }

    /// The RAM side's fit for `engine`: its own where it has runs, else `None`.
    pub fn ram_for(&self, engine: &str) -> Option<&RamFit> {
        self.ram_by_engine.iter().find(|(e, _)| e == engine).map(|(_, f)| f)
    }

    /// Fits every level on `points` (the caller keeps only decode-only rows), and each low-bit
    /// format's factor on the weights' streaming time, alternately until the factors settle.
    ///
    /// A format's kernels turn bytes into arithmetic at a cost of their own, and a 2- or 3-bit
    /// K-quant or an I-quant spends more of it per byte than a 4-, 6- or 8-bit format does. A
    /// format's factor is read where the same machine on the same backend ran other formats too,
    /// so the machine and its software cancel: each round fits the levels on the weights' bytes
    /// times their format's factor, then moves each factor by the median over such machines of
    /// how much further the machine's rows of that format sit from the fit than its rows of every
    /// other format (each side a median of ln(measured ÷ expected)). A format compared on fewer
    /// than two machines keeps 1.
    pub fn fit(points: &[Point]) -> Calibration {
        let mut factors: Vec<(String, (f64, usize))> = Vec::new();
        let factor = |factors: &[(String, (f64, usize))], p: &Point| factor_in(factors, &p.format);
        let mut cal = Calibration::fit_levels(points);
        for _ in 0..FORMAT_ROUNDS {
            let residual = |p: &Point| (p.measured_tok_s / cal.predict_at(p, factor(&factors, p))).ln();
            let mut moved: f64 = 0.0;
            let mut next = Vec::new();
            let formats: BTreeSet<&str> = points.iter().map(|p| p.format.as_str()).filter(|f| low_bit(f)).collect();
            for format in formats {
                let units: BTreeSet<(&str, Backend)> = points
                    .iter()
                    .filter(|p| p.format == format)
                    .map(|p| (p.machine.as_str(), p.backend))
                    .collect();
                let mut contrasts = Vec::new();
                let mut machines = BTreeSet::new();
                let mut rows = 0;
                for (machine, backend) in units {
                    let (mut this, mut others) = (Vec::new(), Vec::new());
                    for p in points.iter().filter(|p| p.machine == machine && p.backend == backend) {
                        if p.format == format { &mut this } else { &mut others }.push(residual(p));
                    }
                    if !others.is_empty() {
                        rows += this.len();
                        machines.insert(machine);
                        contrasts.push(median(this) - median(others));
                    }
                }
                if machines.len() < 2 {
                    continue;
                }
                // Slower than the machine's other formats (a negative contrast): a larger factor.
                let m = median(contrasts);
                moved = moved.max(m.abs());
                let old = factor_in(&factors, format);
                next.push((format.to_string(), (old * (-m).exp(), rows)));
            }
            factors = next;
            cal = Calibration::fit_levels(&points.iter().map(|p| p.with_format(factor(&factors, p))).collect::<Vec<_>>());
            if moved < FORMAT_TOLERANCE {
                break;
            }
        }
        cal.formats = factors;
        cal
    }

    /// The factor on the weights' streaming time of `format` ([`Calibration::formats`]); 1 for a
    /// format without one.
    fn format_factor(&self, format: &str) -> f64 {
        factor_in(&self.formats, format)
    }

    /// Every level fitted on `points` as they are, without format factors.
    fn fit_levels(points: &[Point]) -> Calibration {
        let all: Vec<&Point> = points.iter().collect();
        let global_c = fit_group(&all, None).unwrap_or(CPU_PRIOR);
        let global = with_band(global_c, &all, DEFAULT_BAND);
        let mut kinds = Vec::new();
        for kind in points.iter().map(|p| p.class.kind).collect::<BTreeSet<_>>() {
            let rows: Vec<&Point> = all.iter().copied().filter(|p| p.class.kind == kind).collect();
            kinds.push((kind, level(&rows, &global)));
        }
        let mut classes = Vec::new();
        // Classes in order, so a vendor's GDDR class is fitted before its HBM class, which it
        // parents: the same vendor's software stack says more about an HBM part than the kind.
        for class in points.iter().map(|p| p.class).collect::<BTreeSet<_>>() {
            let sibling = classes.iter().find(|c: &&(Class, Fitted)| c.0 == Class { hbm: false, ..class });
            let parent = sibling
                .map(|c| c.1)
                .or_else(|| kinds.iter().find(|k| k.0 == class.kind).map(|k| k.1))
                .unwrap_or(global);
            let rows: Vec<&Point> = all.iter().copied().filter(|p| p.class == class).collect();
            classes.push((class, level(&rows, &parent)));
        }
        let mut groups = Vec::new();
        for key in points.iter().map(|p| (p.class, p.backend)).collect::<BTreeSet<_>>() {
            let parent = classes.iter().find(|c| c.0 == key.0).map_or(global, |c| c.1);
            let rows: Vec<&Point> = all.iter().copied().filter(|p| (p.class, p.backend) == key).collect();
            groups.push((key, level(&rows, &parent)));
        }
        Calibration {
            global,
            kinds,
            classes,
            groups,
            ram: RamFit::default(),
            ram_by_engine: Vec::new(),
            cpu_compute: Vec::new(),
            numa: None,
            split_fixed: None,
            batch: BatchFit::default(),
            cpu_stream: Vec::new(),
            cpu_sync: None,
            cpu_attention: Vec::new(),
            formats: Vec::new(),
        }
    }

    /// The most specific fit for a class and backend, and the level it comes from.
    pub fn fitted(&self, class: Class, backend: Backend) -> (Fitted, Level) {
        if let Some(g) = self.groups.iter().find(|g| g.0 == (class, backend)) {
            return (g.1, Level::Group);
        }
        if let Some(c) = self.classes.iter().find(|c| c.0 == class) {
            return (c.1, Level::Class);
        }
        // An HBM class never measured takes its vendor's GDDR class.
        if let Some(c) = self.classes.iter().find(|c| class.hbm && c.0 == Class { hbm: false, ..class }) {
            return (c.1, Level::Class);
        }
        if let Some(k) = self.kinds.iter().find(|k| k.0 == class.kind) {
            return (k.1, Level::Kind);
        }
        if class.kind == Kind::Cpu {
            // The stated prior, its weight streaming fitted on CPU-only runs where there are some.
            let mut c = CPU_PRIOR;
            if let Some((w, _)) = self.ram.cpu {
                c[3] = w;
            }
            let prior = Fitted {
                c,
                band: DEFAULT_BAND,
                rows: self.ram.cpu.map_or(0, |r| r.1),
            };
            return (prior, Level::Kind);
        }
        (self.global, Level::Global)
    }

    /// Which fitted group a machine of `class` on `backend` takes its figures from, as the
    /// headline and the CLI name it: "GPU AMD / vulkan", or the class, kind or "all machines"
    /// it falls back to where that group has no rows.
    pub fn group_label(&self, class: Class, backend: Backend) -> String {
        match self.fitted(class, backend).1 {
            Level::Group => format!("{} / {}", class.label(), backend.id()),
            Level::Class if self.classes.iter().any(|c| c.0 == class) => class.label(),
            Level::Class => Class { hbm: false, ..class }.label(),
            Level::Kind => Class {
                vendor: Vendor::Other,
                hbm: false,
                ..class
            }
            .label()
            .replace(" other", ""),
            Level::Global => "all machines".into(),
        }
    }

    /// The time model of a machine of `class` on `backend`: its own coefficients, a CPU's for
    /// the slow pool it spills to, and its band.
    pub fn time_model(&self, class: Class, backend: Backend) -> TimeModel {
        let (own, _) = self.fitted(class, backend);
        let mut slow = self.kinds.iter().find(|k| k.0 == Kind::Cpu).map_or(CPU_PRIOR, |k| k.1.c);
        if let Some((w, _)) = self.ram.offload {
            slow[3] = w;
        }
        TimeModel {
            own: own.coefficients(),
            slow: Coefficients {
                overhead_s: 0.0,
                per_layer_s: 0.0,
                per_expert_s: 0.0,
                weight: slow[3],
                kv: slow[4],
            },
            band: own.band,
            split_fixed: self.split_fixed.map_or(1.0, |(f, _)| f),
            batch_share: self.batch.share_for(class.vendor),
            routing_exponent: self.batch.routing_exponent(),
        }
    }

    /// Expected tok/s for one measured point, its weights at their format's factor.
    pub fn predict(&self, p: &Point) -> f64 {
        self.predict_at(p, self.format_factor(&p.format))
    }

    /// Expected tok/s for one measured point, its weights' time times `factor`.
    fn predict_at(&self, p: &Point, factor: f64) -> f64 {
        self.fitted(p.class, p.backend).0.predict(&p.with_format(factor))
    }

    /// The fit as data/calibration.csv holds it: one line per level and group, coefficients in
    /// seconds (or multipliers) to three significant digits, finer than the fit is certain (four
    /// cost the page 0.14 KB gzipped, five 0.3 KB).
    pub fn to_csv(&self) -> String {
        let mut out = format!("{}\n", CSV_COLUMNS.join(","));
        let mut line = |level: &str, kind: &str, class: Option<Class>, backend: &str, f: &Fitted| {
            let (vendor, hbm) = class.map_or(("", ""), |c| (c.vendor.id(), if c.hbm { "true" } else { "false" }));
            let mut fields = vec![
                level.to_string(),
                kind.to_string(),
                vendor.to_string(),
                hbm.to_string(),
                backend.to_string(),
                f.rows.to_string(),
            ];
            fields.extend(f.c.iter().chain([&f.band.0, &f.band.1]).map(|v| format!("{v:.2e}")));
            out.push_str(&fields.join(","));
            out.push('\n');
        };
        line("global", "", None, "", &self.global);
        for (k, f) in &self.kinds {
            line("kind", k.id(), None, "", f);
        }
        for (c, f) in &self.classes {
            line("class", c.kind.id(), Some(*c), "", f);
        }
        for ((c, b), f) in &self.groups {
            line("group", c.kind.id(), Some(*c), b.id(), f);
        }
        // The RAM side: the multiplier in the weight column, on the prior's other figures; per
        // engine on lines `ram:<engine>`.
        let engines =
            std::iter::once(("ram".to_string(), self.ram)).chain(self.ram_by_engine.iter().map(|(e, f)| (format!("ram:{e}"), *f)));
        for (level, ram) in engines {
            for (kind, fit) in [("cpu", ram.cpu), ("gpu", ram.offload)] {
                if let Some((w, rows)) = fit {
                    let mut c = CPU_PRIOR;
                    c[3] = w;
                    let f = Fitted {
                        c,
                        band: DEFAULT_BAND,
                        rows,
                    };
                    line(&level, kind, None, "", &f);
                }
            }
        }
        // The CPU side: a compute efficiency per family (`compute:<family>`), a CPU machine's
        // streaming multiplier per family (`stream:<family>`), the remote sockets' rate (`numa`)
        // and the seconds per layer per round of threads meeting (`sync`); a layer split's
        // fixed-cost multiplier (`split`); each in the weight column.
        let single = |v: f64, rows: usize| {
            let mut c = CPU_PRIOR;
            c[3] = v;
            Fitted {
                c,
                band: DEFAULT_BAND,
                rows,
            }
        };
        for (family, (e, rows)) in &self.cpu_compute {
            line(&format!("compute:{}", family.id()), "", None, "", &single(*e, *rows));
        }
        for (family, (m, rows)) in &self.cpu_stream {
            line(&format!("stream:{}", family.id()), "", None, "", &single(*m, *rows));
        }
        if let Some((r, rows)) = self.numa {
            line("numa", "", None, "", &single(r, rows));
        }
        if let Some((s, rows)) = self.cpu_sync {
            line("sync", "", None, "", &single(s, rows));
        }
        if let Some((f, rows)) = self.split_fixed {
            line("split", "", None, "", &single(f, rows));
        }
        // Several streams: the share of peak compute over every vendor (`batch`) and per vendor
        // (`batch:<vendor>`), and the routing exponent (`routing`).
        if let Some((f, rows)) = self.batch.pooled {
            line("batch", "", None, "", &single(f, rows));
        }
        for (vendor, (f, rows)) in &self.batch.shares {
            line(&format!("batch:{}", vendor.id()), "", None, "", &single(*f, *rows));
        }
        if let Some((f, rows)) = self.batch.routing {
            line("routing", "", None, "", &single(f, rows));
        }
        // A CPU's attention's share of its peak per engine (`attention:<engine>`), and the
        // weights' streaming factor per format (`format:<id>`).
        for (what, fits) in [("attention", &self.cpu_attention), ("format", &self.formats)] {
            for (key, (f, rows)) in fits {
                line(&format!("{what}:{key}"), "", None, "", &single(*f, *rows));
            }
        }
        out
    }
}

/// The columns of data/calibration.csv: where the line sits in the hierarchy (`level`: global,
/// kind, class or group; the class as kind, vendor and HBM; the group's backend), how many rows it
/// was fitted on, the six coefficients of [`Fitted::c`] and the band.
pub const CSV_COLUMNS: [&str; 14] = [
    "level",
    "kind",
    "vendor",
    "hbm",
    "backend",
    "rows",
    "overhead_s",
    "per_layer_s",
    "per_expert_s",
    "weight",
    "kv_fa",
    "kv_no_fa",
    "band_low",
    "band_high",
];

/// A level's fit: its rows pulled toward the parent's, or the parent's when it has too few.
fn level(rows: &[&Point], parent: &Fitted) -> Fitted {
    if rows.len() < MIN_ROWS {
        return Fitted {
            rows: rows.len(),
            ..*parent
        };
    }
    let c = fit_group(rows, Some(&parent.c)).unwrap_or(parent.c);
    with_band(c, rows, parent.band)
}

/// The fit with its band measured on `rows` (the parent's below [`MIN_BAND_ROWS`]).
fn with_band(c: [f64; N], rows: &[&Point], parent_band: (f64, f64)) -> Fitted {
    let f = Fitted {
        c,
        band: parent_band,
        rows: rows.len(),
    };
    if rows.len() < MIN_BAND_ROWS {
        return f;
    }
    let mut resid: Vec<f64> = rows.iter().map(|p| (p.measured_tok_s / f.predict(p)).ln()).collect();
    resid.sort_by(f64::total_cmp);
    Fitted {
        band: (quantile(&resid, 0.1).min(0.0).exp(), quantile(&resid, 0.9).max(0.0).exp()),
        ..f
    }
}

/// The median over hosts of each host's geometric median of its positive values (so a host
/// measured many times counts once), and how many values it rests on; `None` without any.
pub fn median_over_hosts<'a>(values: impl Iterator<Item = (&'a str, f64)>) -> Option<(f64, usize)> {
    let runs: Vec<(&str, f64)> = values.filter(|(_, v)| *v > 0.0).collect();
    let mut hosts: Vec<&str> = runs.iter().map(|(h, _)| *h).collect();
    hosts.sort_unstable();
    hosts.dedup();
    let per_host: Vec<f64> = hosts
        .iter()
        .map(|h| median(runs.iter().filter(|(r, _)| r == h).map(|(_, v)| v.ln()).collect()))
        .collect();
    (!per_host.is_empty()).then(|| (median(per_host).exp(), runs.len()))
}

/// The median of unsorted values (NaN for none).
pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    quantile(&values, 0.5)
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

/// Weighted least squares of t on the regressors, weights 1/t, every coefficient non-negative and
/// the streaming multipliers at least 1, pulled toward `prior` when one is given.
fn fit_group(rows: &[&Point], prior: Option<&[f64; N]>) -> Option<[f64; N]> {
    // The streaming multipliers are 1 + a non-negative excess: move the 1 to the left side.
    const FLOOR: [f64; N] = [0.0, 0.0, 0.0, 1.0, 1.0, 1.0];
    let mut g = [[0.0f64; N]; N];
    let mut h = [0.0f64; N];
    for p in rows {
        let t = 1.0 / p.measured_tok_s;
        let x = p.regressors();
        let base: f64 = x.iter().zip(&FLOOR).map(|(x, f)| x * f).sum();
        let y = (t - base) / t;
        let a: Vec<f64> = x.iter().map(|v| v / t).collect();
        for i in 0..N {
            for j in 0..N {
                g[i][j] += a[i] * a[j];
            }
            h[i] += a[i] * y;
        }
    }
    if let Some(prior) = prior {
        for i in 0..N {
            let s = prior[i].abs().max(MIN_SCALES[i]);
            let s2 = s * s;
            g[i][i] += RIDGE / s2;
            h[i] += RIDGE * (prior[i] - FLOOR[i]).max(0.0) / s2;
        }
    }
    let excess = nnls(&g, &h)?;
    let mut c = [0.0; N];
    for i in 0..N {
        c[i] = FLOOR[i] + excess[i];
    }
    c.iter().all(|v| v.is_finite()).then_some(c)
}

/// Non-negative least squares from the normal equations G x = h (Lawson and Hanson's active set,
/// 1974, ch. 23): the x ≥ 0 minimising ½xᵀGx − hᵀx.
fn nnls(g: &[[f64; N]; N], h: &[f64; N]) -> Option<[f64; N]> {
    let mut x = [0.0f64; N];
    let mut free = [false; N];
    let gradient = |x: &[f64; N]| -> [f64; N] {
        let mut w = *h;
        for i in 0..N {
            for j in 0..N {
                w[i] -= g[i][j] * x[j];
            }
        }
        w
    };
    for _ in 0..3 * N {
        let w = gradient(&x);
        let Some(t) = (0..N)
            .filter(|&j| !free[j] && w[j] > 1e-12 * (1.0 + h[j].abs()))
            .max_by(|&a, &b| w[a].total_cmp(&w[b]))
        else {
            break;
        };
        free[t] = true;
        loop {
            let z = solve_free(g, h, &free)?;
            if (0..N).filter(|&j| free[j]).all(|j| z[j] > 0.0) {
                x = z;
                break;
            }
            // Step toward z until a free coefficient reaches zero, and hold it there.
            let alpha = (0..N)
                .filter(|&j| free[j] && z[j] <= 0.0)
                .map(|j| x[j] / (x[j] - z[j]))
                .fold(f64::INFINITY, f64::min);
            for j in 0..N {
                x[j] += alpha * (z[j] - x[j]);
                if free[j] && x[j] <= 1e-15 {
                    free[j] = false;
                    x[j] = 0.0;
                }
            }
        }
    }
    Some(x)
}

/// The unconstrained solution on the free coefficients (the others held at 0).
fn solve_free(g: &[[f64; N]; N], h: &[f64; N], free: &[bool; N]) -> Option<[f64; N]> {
    let idx: Vec<usize> = (0..N).filter(|&j| free[j]).collect();
    let n = idx.len();
    let mut a: Vec<Vec<f64>> = idx.iter().map(|&i| idx.iter().map(|&j| g[i][j]).collect()).collect();
    let mut b: Vec<f64> = idx.iter().map(|&i| h[i]).collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..n {
            let f = a[row][col] / a[col][col];
            let pivot_row = a[col].clone();
            for (x, p) in a[row][col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            b[row] -= f * b[col];
        }
    }
    let mut z = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|k| a[row][k] * z[k]).sum();
        z[row] = (b[row] - s) / a[row][row];
    }
    let mut out = [0.0; N];
    for (k, &j) in idx.iter().enumerate() {
        out[j] = z[k];
    }
    out.iter().all(|v| v.is_finite()).then_some(out)
}

/// |ln(expected ÷ measured)| for every row, each predicted by a fit that never saw its part
/// (`part` names it: the machine for leave-one-machine-out, the backend for leave-one-backend-out).
pub fn leave_one_out(points: &[Point], part: impl Fn(&Point) -> String) -> Vec<(Point, f64)> {
    let parts: BTreeSet<String> = points.iter().map(&part).collect();
    let mut out = Vec::new();
    for held in parts {
        let train: Vec<Point> = points.iter().filter(|p| part(p) != held).cloned().collect();
        let cal = Calibration::fit(&train);
        for p in points.iter().filter(|p| part(p) == held) {
            out.push((p.clone(), (cal.predict(p) / p.measured_tok_s).ln().abs()));
        }
    }
    out
}
