//! The bandwidth arithmetic: from a resolved scenario to an [`Estimate`].
//!
//! # Terms (units: bytes, seconds, decimal GB/s = 1e9 B/s)
//!
//! - **Weights read per token** `W`: see [`arch`] — every tensor a token passes through at its
//!   quantization's bits/weight ÷ 8 (input embedding excluded; for a mixture of experts only the
//!   top-k routed experts). A custom model given by file size reads the whole file per token, or
//!   file × active ÷ total for an MoE.
//! - **KV cache read per token** `K(c)` at context c: see [`arch`]; element sizes f16/bf16 16 bits,
//!   q8_0 8.5, q4_0 4.5, fp8 8.
//! - **Ceiling**: tok/s = 1 ÷ Σ_pools (W_pool + K_pool) ÷ BW_pool. With everything in one pool this
//!   is the plain BW ÷ (W + K). Weights that do not fit the fast pool (VRAM) are read from the slow
//!   one (system RAM at `ram_bw`; on unified-memory machines, disk at [`DISK_BW_GBS`]), so the time
//!   per token grows with the share of bytes in the slow pool: the spill cliff.
//! - **Expected**: the machine's [`TimeModel`] (fitted by the calibration module on measured runs and
//!   handed in with the machine): a fixed per-token overhead plus per-pool bytes over bandwidth
//!   divided by streaming efficiencies, never above the ceiling.
//! - **Multi-device**: tensor parallel over `tp` devices splits the bytes, so bandwidths add (times
//!   [`TP_EFFICIENCY`] for the interconnect); a layer split over `split` devices adds capacity but
//!   not speed, since each token still passes through every layer in turn.
//! - **Fit**: memory needed = stored weights + KV at the context × batch + [`RUNTIME_OVERHEAD_BYTES`],
//!   against memory × usable fraction (Apple: the ~75% the GPU may wire by default).
//! - **Prefill** (time to first token): compute-bound, (2 × active params × prompt + attention
//!   FLOPs) ÷ (dense FP16 TFLOPS × [`PREFILL_UTILIZATION`]), never faster than one read of the weights.
//! - **Batching** B streams: step = max((W(B) + B·K) ÷ BW, 2 × active × B ÷ FLOPS), where W(B)
//!   reads the union of experts the B tokens route to; aggregate = B ÷ step, per stream = 1 ÷ step.
//! - **Speculative decoding**: a draft proposes k tokens, the target verifies k + 1 in one pass.
//!   Accepted tokens per step with acceptance α: (1 − α^(k+1)) ÷ (1 − α) (k + 1 at α = 1; Leviathan
//!   et al. 2023, eq. 1). Step time = k × draft read + one target step over k + 1 tokens.

pub mod arch;
pub mod sweep;

use arch::Arch;

/// Share of summed bandwidth that tensor parallelism keeps after the interconnect's all-reduces.
pub const TP_EFFICIENCY: f64 = 0.9;
/// Compute buffers, CUDA/Metal context and scratch space held beside weights and KV cache.
pub const RUNTIME_OVERHEAD_BYTES: f64 = 0.5 * GIB;
/// Reading weights that overflow a unified-memory machine back from an NVMe drive (mmap).
pub const DISK_BW_GBS: f64 = 3.5;
/// Share of peak dense FP16 throughput that prompt processing reaches.
pub const PREFILL_UTILIZATION: f64 = 0.5;
/// Default system-RAM bandwidth for the slow pool of a GPU machine: dual-channel DDR5-5600.
pub const DEFAULT_RAM_BW_GBS: f64 = 89.6;

pub const GB: f64 = 1e9;
pub const GIB: f64 = 1024.0 * 1024.0 * 1024.0;

/// What kind of memory system a machine has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// A discrete GPU with its own VRAM.
    Gpu,
    /// Apple silicon unified memory.
    Apple,
    /// Another system-on-chip with unified memory (Strix Halo, DGX Spark, Jetson, Snapdragon).
    Soc,
    /// Plain CPU inference from system RAM.
    Cpu,
}

impl Kind {
    pub const ALL: [Kind; 4] = [Kind::Gpu, Kind::Apple, Kind::Soc, Kind::Cpu];

    /// The lowercase id used in files, URLs and the CLI.
    pub fn id(self) -> &'static str {
        match self {
            Kind::Gpu => "gpu",
            Kind::Apple => "apple",
            Kind::Soc => "soc",
            Kind::Cpu => "cpu",
        }
    }

    pub fn parse(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.id() == s)
    }
}

/// A memory pool a token's bytes are read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pool {
    /// A discrete GPU's own memory.
    Vram,
    /// System RAM: a CPU machine's memory, or a GPU machine's slow pool.
    SystemRam,
    /// The shared memory of Apple silicon and other SoCs.
    Unified,
    /// Weights read back from an NVMe drive (mmap) when memory overflows.
    Disk,
}

/// Something the estimate could not model or had to assume.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Note {
    /// Routed experts come from system RAM, the rest from VRAM.
    ExpertOffload,
    /// Expert offload asked for where it does not apply.
    ExpertOffloadIgnored,
    /// No memory figure, so no fit.
    MemoryUnknown,
    /// A custom model without layers, KV heads and head dim.
    KvNotModelled,
    /// Prefill needs a TFLOPS figure.
    PrefillNoTflops,
    /// Prefill needs the parameter count.
    PrefillNoParams,
}

/// One pool's cost per token, as the expected-speed model sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Coefficients {
    /// Fixed seconds per token.
    pub overhead_s: f64,
    /// Multiplier on weight bytes ÷ bandwidth (1 ÷ streaming efficiency).
    pub weight: f64,
    /// Multiplier on KV bytes ÷ bandwidth.
    pub kv: f64,
}

impl Coefficients {
    /// Peak bandwidth, no fixed cost: the expected figure equals the ceiling.
    pub const IDEAL: Coefficients = Coefficients {
        overhead_s: 0.0,
        weight: 1.0,
        kv: 1.0,
    };

    /// Seconds for a token reading `w_over_bw` and `kv_over_bw` seconds' worth of bytes at peak.
    pub fn seconds(&self, w_over_bw: f64, kv_over_bw: f64) -> f64 {
        self.overhead_s + self.weight * w_over_bw + self.kv * kv_over_bw
    }
}

/// How a machine and its runtime turn bytes into time: the machine's own pool, the slow pool it
/// spills to, and the band of the expected figure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeModel {
    pub own: Coefficients,
    /// Used for the bytes read from the slow pool (system RAM, disk).
    pub slow: Coefficients,
    /// (low, high) multipliers on the expected figure.
    pub band: (f64, f64),
}

impl Default for TimeModel {
    fn default() -> Self {
        TimeModel {
            own: Coefficients::IDEAL,
            slow: Coefficients::IDEAL,
            band: (1.0, 1.0),
        }
    }
}

impl TimeModel {
    /// Expected seconds per token for reads spread over `pools` (the first is the machine's own).
    pub fn step_seconds(&self, pools: &[PoolRead]) -> f64 {
        pools
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let c = if i == 0 { self.own } else { self.slow };
                let bw = p.bandwidth_gbs * GB;
                c.weight * p.weight_bytes / bw + c.kv * p.kv_bytes / bw
            })
            .sum::<f64>()
            + self.own.overhead_s
    }
}

/// The machine as the estimator needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct MachineSpec {
    pub name: String,
    pub kind: Kind,
    pub bandwidth_gbs: f64,
    /// Memory in GiB; `None` for a custom machine given without memory (fit unknown).
    pub memory_gib: Option<f64>,
    pub tflops: Option<f64>,
    pub usable_fraction: f64,
    pub hbm: bool,
    /// How this machine's runtime turns bytes into time, for the expected figure.
    pub time: TimeModel,
}

/// The model: a catalog architecture, or a custom model made of the figures given.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelSpec {
    Arch {
        name: String,
        arch: Box<Arch>,
    },
    Custom {
        params_b: Option<f64>,
        active_b: Option<f64>,
        layers: Option<u32>,
        kv_heads: Option<u32>,
        head_dim: Option<u32>,
    },
}

/// How the weights are stored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WeightSpec {
    /// Bits per weight, with wider non-expert tensors where the format keeps them so.
    Bits { bpw: f64, other_bpw: Option<f64> },
    /// A weight file of this many bytes.
    File { bytes: f64 },
}

/// Where the weights live.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// Share of weight bytes in VRAM; `None` = as much as fits.
    pub gpu_frac: Option<f64>,
    pub ram_bw_gbs: f64,
    /// Routed experts in system RAM, everything else in VRAM.
    pub expert_offload: bool,
}

/// A draft model for speculative decoding.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Speculation {
    /// Bytes the draft reads per drafted token.
    pub draft_bytes: f64,
    pub k: u32,
    pub accept: f64,
}

/// A fully resolved scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Inputs {
    pub machine: MachineSpec,
    pub model: ModelSpec,
    pub weights: WeightSpec,
    pub context: f64,
    pub kv_bits: f64,
    pub placement: Placement,
    pub tp: u32,
    pub split: u32,
    pub batch: Option<u32>,
    pub speculation: Option<Speculation>,
    pub prompt: f64,
}

/// Bytes read per token, split by what can live apart.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BytesPerToken {
    pub weights: f64,
    pub kv: f64,
    pub total: f64,
}

/// One memory pool's share of a token's reads.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolRead {
    pub pool: Pool,
    pub bandwidth_gbs: f64,
    pub weight_bytes: f64,
    pub kv_bytes: f64,
    pub seconds: f64,
}

/// Where memory overflows.
#[derive(Clone, Debug, PartialEq)]
pub struct Spill {
    /// The pool that overflows (VRAM or unified memory).
    pub pool: Pool,
    /// The pool that takes the overflow (system RAM or disk).
    pub into: Pool,
    pub bytes: f64,
    /// Share of the weight bytes read from the slower pool.
    pub fraction: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct BatchResult {
    pub size: u32,
    pub aggregate_tok_s: f64,
    pub per_stream_tok_s: f64,
    /// The smallest batch at which a step becomes compute-bound, if any up to 4096.
    pub compute_bound_from: Option<u32>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SpecResult {
    pub tok_s: f64,
    pub speedup: f64,
    pub tokens_per_step: f64,
}

/// Everything tokbound says about one scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    pub ceiling_tok_s: f64,
    pub expected_tok_s: f64,
    pub expected_low_tok_s: f64,
    pub expected_high_tok_s: f64,
    pub bytes_per_token: BytesPerToken,
    pub pools: Vec<PoolRead>,
    pub memory_needed_bytes: f64,
    pub memory_available_bytes: Option<f64>,
    pub fits: Option<bool>,
    pub spill: Option<Spill>,
    pub stored_weight_bytes: f64,
    pub ttft_s: Option<f64>,
    pub prefill_tok_s: Option<f64>,
    pub batch: Option<BatchResult>,
    pub speculative: Option<SpecResult>,
    pub notes: Vec<Note>,
}

/// Weight bytes of a model: what is read whatever the routing, what routed experts add, and
/// what is stored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WeightBytes {
    /// Read per token whatever the routing.
    pub fixed: f64,
    /// Bytes of one routed expert in all MoE layers together.
    pub per_expert: f64,
    /// Stored bytes (the file).
    pub stored: f64,
    /// Parameters that do arithmetic per token (for prefill and batch FLOPs), if known.
    pub active_params: Option<f64>,
}

impl WeightBytes {
    /// Weight bytes one step of `tokens` tokens reads (the union of their experts).
    pub fn read(&self, arch: Option<&Arch>, tokens: f64) -> f64 {
        self.fixed + arch.map_or(0.0, |a| a.experts_touched(tokens) * self.per_expert)
    }
}

impl Inputs {
    fn arch(&self) -> Option<&Arch> {
        match &self.model {
            ModelSpec::Arch { arch, .. } => Some(arch),
            ModelSpec::Custom { .. } => None,
        }
    }

    /// The weight bytes of this model at this format.
    pub fn weight_bytes(&self) -> WeightBytes {
        match &self.model {
            ModelSpec::Arch { arch, .. } => {
                let (bpw, other) = match self.weights {
                    WeightSpec::Bits { bpw, other_bpw } => (bpw, if arch.is_moe() { other_bpw.unwrap_or(bpw) } else { bpw }),
                    WeightSpec::File { .. } => (16.0, 16.0),
                };
                let fixed = arch.always_read_params() * other / 8.0;
                let per_expert = arch.moe_layers() * arch.expert_params() * bpw / 8.0;
                let head = if arch.tied_embeddings {
                    0.0
                } else {
                    arch.embedding_params() * other / 8.0
                };
                let stored = fixed + head + per_expert * arch.experts as f64;
                let scale = match self.weights {
                    WeightSpec::File { bytes } if stored > 0.0 => bytes / stored,
                    _ => 1.0,
                };
                WeightBytes {
                    fixed: fixed * scale,
                    per_expert: per_expert * scale,
                    stored: stored * scale,
                    active_params: Some(arch.read_params_per_token()),
                }
            }
            ModelSpec::Custom { params_b, active_b, .. } => {
                let params = params_b.map(|p| p * 1e9);
                let active = active_b.map(|a| a * 1e9).or(params);
                let share = match (params, active) {
                    (Some(p), Some(a)) if p > 0.0 => (a / p).min(1.0),
                    _ => 1.0,
                };
                let stored = match self.weights {
                    WeightSpec::File { bytes } => bytes,
                    WeightSpec::Bits { bpw, .. } => params.unwrap_or(0.0) * bpw / 8.0,
                };
                WeightBytes {
                    fixed: stored * share,
                    per_expert: 0.0,
                    stored,
                    active_params: active,
                }
            }
        }
    }

    /// KV-cache bytes at `context` tokens for one sequence.
    pub fn kv_bytes(&self, context: f64) -> f64 {
        match &self.model {
            ModelSpec::Arch { arch, .. } => arch.kv_bytes(context, self.kv_bits),
            ModelSpec::Custom {
                layers: Some(l),
                kv_heads: Some(h),
                head_dim: Some(d),
                ..
            } => 2.0 * *l as f64 * *h as f64 * *d as f64 * context.max(0.0) * self.kv_bits / 8.0,
            ModelSpec::Custom { .. } => 0.0,
        }
    }

    /// Bandwidth of the fast pool: devices in tensor parallel add theirs.
    pub fn fast_bandwidth_gbs(&self) -> f64 {
        let tp = self.tp.max(1) as f64;
        self.machine.bandwidth_gbs * tp * if tp > 1.0 { TP_EFFICIENCY } else { 1.0 }
    }

    fn capacity_bytes(&self) -> Option<f64> {
        self.machine
            .memory_gib
            .map(|m| m * GIB * self.machine.usable_fraction * self.tp.max(1) as f64 * self.split.max(1) as f64)
    }
}

/// How a step's reads divide between the fast and the slow pool.
struct Layout {
    /// Share of non-offloaded weight bytes (and their KV) in the fast pool.
    fast_share: f64,
    expert_offload: bool,
    slow_pool: Pool,
    slow_bw: f64,
}

fn layout(inp: &Inputs, wb: &WeightBytes, kv_total: f64) -> Layout {
    let gpu = inp.machine.kind == Kind::Gpu;
    let (slow_pool, slow_bw) = if gpu {
        (Pool::SystemRam, inp.placement.ram_bw_gbs)
    } else {
        (Pool::Disk, DISK_BW_GBS)
    };
    let expert_offload = gpu && inp.placement.expert_offload && wb.per_expert > 0.0;
    let fast_share = match (inp.placement.gpu_frac, inp.capacity_bytes()) {
        (Some(f), _) if gpu => f.clamp(0.0, 1.0),
        (_, Some(cap)) => {
            let in_fast = if expert_offload {
                wb.stored - wb.per_expert * experts_of(inp)
            } else {
                wb.stored
            };
            let room = cap - kv_total - RUNTIME_OVERHEAD_BYTES;
            if in_fast <= 0.0 {
                1.0
            } else {
                (room / in_fast).clamp(0.0, 1.0)
            }
        }
        _ => 1.0,
    };
    Layout {
        fast_share,
        expert_offload,
        slow_pool,
        slow_bw,
    }
}

fn experts_of(inp: &Inputs) -> f64 {
    inp.arch().map_or(0.0, |a| a.experts as f64)
}

/// Per-pool reads for one step of `tokens` tokens of one sequence each, with `streams` KV caches.
fn pool_reads(inp: &Inputs, wb: &WeightBytes, lay: &Layout, tokens: f64, kv_read: f64) -> Vec<PoolRead> {
    let weights = wb.read(inp.arch(), tokens);
    let routed = weights - wb.fixed;
    let (fast_w, slow_w, fast_kv, slow_kv) = if lay.expert_offload {
        (wb.fixed, routed, kv_read, 0.0)
    } else {
        (
            weights * lay.fast_share,
            weights * (1.0 - lay.fast_share),
            kv_read * lay.fast_share,
            kv_read * (1.0 - lay.fast_share),
        )
    };
    let fast_name = match inp.machine.kind {
        Kind::Gpu => Pool::Vram,
        Kind::Cpu => Pool::SystemRam,
        Kind::Apple | Kind::Soc => Pool::Unified,
    };
    let fast_bw = inp.fast_bandwidth_gbs();
    let mut pools = vec![PoolRead {
        pool: fast_name,
        bandwidth_gbs: fast_bw,
        weight_bytes: fast_w,
        kv_bytes: fast_kv,
        seconds: (fast_w + fast_kv) / (fast_bw * GB),
    }];
    if slow_w + slow_kv > 0.0 {
        pools.push(PoolRead {
            pool: lay.slow_pool,
            bandwidth_gbs: lay.slow_bw,
            weight_bytes: slow_w,
            kv_bytes: slow_kv,
            seconds: (slow_w + slow_kv) / (lay.slow_bw * GB),
        });
    }
    pools
}

fn memory_seconds(pools: &[PoolRead]) -> f64 {
    pools.iter().map(|p| p.seconds).sum()
}

/// The smallest batch in 1..=4096 for which `bound(n)` holds, assuming it keeps holding once it
/// does (compute grows linearly with n, memory sub-linearly): doubling, then bisection.
fn first_compute_bound(bound: impl Fn(u32) -> bool) -> Option<u32> {
    let mut hi = 1u32;
    while !bound(hi) {
        if hi >= 4096 {
            return None;
        }
        hi = (hi * 2).min(4096);
    }
    let mut lo = hi / 2;
    if lo == 0 {
        return Some(1);
    }
    // bound(lo) is false, bound(hi) is true.
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if bound(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// Runs the whole arithmetic for one scenario.
pub fn estimate(inp: &Inputs) -> Estimate {
    let mut notes = Vec::new();
    let wb = inp.weight_bytes();
    let kv = inp.kv_bytes(inp.context);
    let streams = inp.batch.unwrap_or(1).max(1) as f64;
    let lay = layout(inp, &wb, kv * streams);
    let pools = pool_reads(inp, &wb, &lay, 1.0, kv);
    let t_ceiling = memory_seconds(&pools);
    let weights_read = wb.read(inp.arch(), 1.0);
    let bytes = BytesPerToken {
        weights: weights_read,
        kv,
        total: weights_read + kv,
    };
    let ceiling = if t_ceiling > 0.0 { 1.0 / t_ceiling } else { 0.0 };

    let time = &inp.machine.time;
    let t_expected = time.step_seconds(&pools);
    let expected = if t_expected > 0.0 { (1.0 / t_expected).min(ceiling) } else { 0.0 };
    let (lo, hi) = time.band;
    let expected_low = expected * lo;
    let expected_high = (expected * hi).min(ceiling);

    let draft_bytes = inp.speculation.map_or(0.0, |s| s.draft_bytes);
    let needed = wb.stored + kv * streams + RUNTIME_OVERHEAD_BYTES + draft_bytes;
    let available = inp.capacity_bytes();
    let fits = available.map(|a| needed <= a);
    let spill = match (available, fits) {
        (Some(a), Some(false)) => {
            let slow: f64 = pools.iter().skip(1).map(|p| p.weight_bytes).sum();
            Some(Spill {
                pool: pools[0].pool,
                into: lay.slow_pool,
                bytes: needed - a,
                fraction: if weights_read > 0.0 { slow / weights_read } else { 0.0 },
            })
        }
        _ => None,
    };
    if lay.expert_offload {
        notes.push(Note::ExpertOffload);
    } else if inp.placement.expert_offload {
        notes.push(Note::ExpertOffloadIgnored);
    }
    if available.is_none() {
        notes.push(Note::MemoryUnknown);
    }
    if let ModelSpec::Custom { layers: None, .. } | ModelSpec::Custom { kv_heads: None, .. } | ModelSpec::Custom { head_dim: None, .. } =
        inp.model
    {
        notes.push(Note::KvNotModelled);
    }

    // Prefill: compute-bound, never faster than one read of the weights.
    let flops_per_s = inp.machine.tflops.map(|t| t * 1e12 * inp.tp.max(1) as f64);
    let (ttft_s, prefill_tok_s) = match (flops_per_s, wb.active_params) {
        (Some(f), Some(active)) if inp.prompt > 0.0 => {
            let flops = 2.0 * active * inp.prompt + inp.arch().map_or(0.0, |a| a.attention_flops(inp.prompt));
            let prompt_tokens = inp.prompt;
            let read_all = memory_seconds(&pool_reads(inp, &wb, &lay, prompt_tokens, inp.kv_bytes(inp.prompt)));
            let t = (flops / (f * PREFILL_UTILIZATION)).max(read_all);
            (Some(t), Some(prompt_tokens / t))
        }
        (None, _) if inp.prompt > 0.0 => {
            notes.push(Note::PrefillNoTflops);
            (None, None)
        }
        (_, None) if inp.prompt > 0.0 => {
            notes.push(Note::PrefillNoParams);
            (None, None)
        }
        _ => (None, None),
    };

    let step_seconds = |tokens: f64, kv_read: f64| -> f64 {
        let mem = memory_seconds(&pool_reads(inp, &wb, &lay, tokens, kv_read));
        let compute = match (flops_per_s, wb.active_params) {
            (Some(f), Some(a)) => 2.0 * a * tokens / f,
            _ => 0.0,
        };
        mem.max(compute)
    };

    let batch = inp.batch.map(|b| {
        let b = b.max(1);
        let step = step_seconds(b as f64, kv * b as f64);
        let compute_bound_from = match (flops_per_s, wb.active_params) {
            (Some(f), Some(a)) => first_compute_bound(|n| {
                let lay_n = layout(inp, &wb, kv * n as f64);
                2.0 * a * n as f64 / f >= memory_seconds(&pool_reads(inp, &wb, &lay_n, n as f64, kv * n as f64))
            }),
            _ => None,
        };
        BatchResult {
            size: b,
            aggregate_tok_s: b as f64 / step,
            per_stream_tok_s: 1.0 / step,
            compute_bound_from,
        }
    });

    let speculative = inp.speculation.map(|s| {
        let drafted = s.k.max(1);
        let k = f64::from(drafted);
        let a = s.accept.clamp(0.0, 1.0);
        let tokens_per_step = if a >= 1.0 {
            k + 1.0
        } else {
            (1.0 - a.powi(i32::try_from(drafted).map_or(i32::MAX, |n| n.saturating_add(1)))) / (1.0 - a)
        };
        let t_draft = s.draft_bytes / (inp.fast_bandwidth_gbs() * GB);
        let t_verify = step_seconds(k + 1.0, kv);
        let tok_s = tokens_per_step / (k * t_draft + t_verify);
        SpecResult {
            tok_s,
            speedup: if ceiling > 0.0 { tok_s / ceiling } else { 0.0 },
            tokens_per_step,
        }
    });

    Estimate {
        ceiling_tok_s: ceiling,
        expected_tok_s: expected,
        expected_low_tok_s: expected_low,
        expected_high_tok_s: expected_high,
        bytes_per_token: bytes,
        pools,
        memory_needed_bytes: needed,
        memory_available_bytes: available,
        fits,
        spill,
        stored_weight_bytes: wb.stored,
        ttft_s,
        prefill_tok_s,
        batch,
        speculative,
        notes,
    }
}
