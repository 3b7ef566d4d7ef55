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
//!   is the plain BW ÷ (W + K). The pools are the machine's own memory (VRAM, unified memory, or a
//!   CPU's RAM), a GPU machine's system RAM (`ram` GiB at `ram_bw`), and disk at [`DISK_BW_GBS`]
//!   (mmap'd weights that fit nowhere else). On a GPU, layers are split between VRAM and the CPU,
//!   each layer's KV cache with it: VRAM holds a share s of weights and KV (as much as fits, or
//!   `gpu_frac`, capped at what fits); system RAM holds the rest of the KV cache and as many of
//!   the remaining weights as fit, disk the others. Expert offload keeps attention, shared
//!   experts, dense layers and the KV cache in VRAM and the routed experts in RAM. On unified
//!   memory and CPUs the KV cache stays in memory and weights that do not fit are read from disk.
//!   The time per token grows with the share of bytes read from the slower pools: the spill cliff.
//! - **Expected**: the machine's [`TimeModel`] (fitted by the calibration module on measured runs and
//!   handed in with the machine): a fixed per-token overhead plus per-pool bytes over bandwidth
//!   divided by streaming efficiencies, never above the ceiling.
//! - **Multi-device**: tensor parallel over `tp` devices splits the bytes, so bandwidths add (times
//!   [`TP_EFFICIENCY`] for the interconnect); a layer split over `split` devices adds capacity but
//!   not speed, since each token still passes through every layer in turn. A pass over several
//!   devices pays its fixed costs (per layer, per expert matmul) [`TimeModel::split_fixed`] times.
//! - **Fit**: every pool the placement means to use holds what it is given: VRAM (or memory) ×
//!   usable fraction for weights, KV at the context × batch and [`RUNTIME_OVERHEAD_BYTES`]; system
//!   RAM for what the placement puts there. Spilling past the intended pool does not fit.
//! - **Prefill** (time to first token): compute-bound, (2 × active params × prompt + attention
//!   FLOPs, sliding windows and linear layers included) ÷ (dense FP16 TFLOPS ×
//!   [`PREFILL_UTILIZATION`]), never faster than one read of the weights. Without a TFLOPS figure
//!   there is no time to first token, and a note says so.
//! - **Batching** B streams: step = max((W(B) + B·K) ÷ BW, 2 × active × B ÷ FLOPS), where W(B)
//!   reads the union of experts the B tokens route to; aggregate = B ÷ step, per stream = 1 ÷ step.
//!   Without a TFLOPS figure no batched figure is given (nothing bounds it but the bytes).
//! - **Speculative decoding**: a draft proposes k tokens, the target verifies k + 1 in one pass.
//!   Accepted tokens per step with acceptance α: (1 − α^(k+1)) ÷ (1 − α) (k + 1 at α = 1; Leviathan
//!   et al. 2023, eq. 1). Step time = k draft passes (each the machine's fixed per-token overhead
//!   plus the draft's weights and its own KV cache at the context) + one target step over k + 1
//!   tokens (its overhead, weights and KV), both with the expected figure's efficiencies; the
//!   speed-up is against the expected figure.

pub mod arch;
pub mod cpu;
pub mod sweep;

pub use cpu::{CpuFamily, HostCpu};

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
/// Default system RAM of a discrete-GPU machine, GiB.
pub const DEFAULT_RAM_GIB: f64 = 64.0;

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
#[derive(Clone, Debug, PartialEq)]
pub enum Note {
    /// Routed experts come from system RAM, the rest from VRAM; `share` is the part of the routed
    /// experts in RAM (below 1 with `cpu_moe`: the later layers' experts are in VRAM).
    ExpertOffload { share: f64 },
    /// Expert offload asked for where it does not apply: on a mixture of experts (`moe`), because
    /// the machine has no separate system RAM; otherwise because the model has no routed experts.
    ExpertOffloadIgnored { moe: bool },
    /// Weights are read back from disk on every token. `ram_needed_bytes` is the system RAM (or,
    /// on a machine without discrete VRAM, the memory) that would hold them; `experts_bytes` is
    /// what a mixture of experts' routed experts take, where moving them to RAM
    /// (`offload=experts`) was not asked for.
    ReadFromDisk { ram_needed_bytes: f64, experts_bytes: Option<f64> },
    /// No memory figure, so no fit.
    MemoryUnknown,
    /// A custom model without layers, KV heads and head dim.
    KvNotModelled,
    /// Prefill needs a TFLOPS figure.
    PrefillNoTflops,
    /// Prefill needs the parameter count.
    PrefillNoParams,
    /// `gpu_frac` asked for more than VRAM holds; this share was used.
    GpuFracCapped { asked: f64, held: f64 },
    /// `ram` applies to discrete-GPU machines only.
    RamIgnored,
    /// The context is beyond what the model was trained for.
    ContextBeyondTrained { trained: u32 },
    /// A batch needs a compute figure to be bounded.
    BatchNeedsTflops,
    /// The batch's KV caches do not fit beside the weights: `needed_bytes` of KV cache for the
    /// batch, `free_bytes` beside the weights, `max_streams` that do fit.
    BatchPastMemory {
        needed_bytes: f64,
        free_bytes: f64,
        max_streams: u32,
    },
    /// A draft given by its size has no KV cache modelled.
    DraftKvNotModelled,
    /// An exact architecture was given: its own parameter counts stand, not `params`/`active`.
    ArchOverridesParams,
    /// The expected figure uses the user's own calibration of this machine; `other_model` where
    /// its runs measured other models than this one (its band is then doubled).
    Calibrated { efficiency: f64, band: f64, other_model: bool },
    /// A calibration for another machine was given and not used.
    CalibrationForOtherMachine { fitted_for: String },
    /// The machine is from the long tail of GPUs, whose figures are its spec page's (`source`).
    LongTail { source: String },
    /// A custom mixture of experts given by its counts: the split derived from them.
    CustomMoe {
        experts: u32,
        top_k: u32,
        params_b: f64,
        active_b: f64,
    },
    /// A custom mixture of experts given by params and active alone: routing assumed.
    CustomMoeAssumed,
    /// The engine named has no measured runs of its own for how this machine reads system RAM.
    EngineNotFitted { engine: String },
    /// A weight format none of the listed engines loads (`format`), run by `runtimes`.
    OtherRuntime { format: String, runtimes: String },
    /// `vendor` describes a custom machine; a catalog machine's vendor is known.
    VendorIgnored,
    /// `cpu`, `threads` or `sockets` on a machine whose GPU reads its memory.
    HostIgnored,
    /// No CPU was named for what reads system RAM: this typical desktop stands in.
    HostAssumed { cpu: String },
    /// The CPU's family has no measured runs: its compute efficiency is the stated prior.
    ComputePrior { family: &'static str },
    /// More threads than the CPU has hardware threads: the extra ones add nothing.
    ThreadsBeyondCpu { threads: u32 },
    /// The run spans sockets: system RAM streams at `factor` of the summed rate (fitted on `runs`
    /// multi-socket runs, else the prior).
    Numa { sockets: u32, factor: f64, runs: Option<usize> },
    /// A bandwidth was measured in the browser (`measured=`): by a WebGPU shader, or by the CPU.
    Measured { webgpu: bool },
    /// The weights' low-bit format (a data/quants.csv id) unpacks more slowly than other formats
    /// stream: their time is `factor` times their bytes' (fitted on `runs` runs of it beside other
    /// formats on the same machines).
    FormatStreaming { format: &'static str, factor: f64, runs: usize },
    /// The CPU's attention over the context takes `time_share` of the expected token's time
    /// ([`host_attention_seconds`]).
    CpuAttention { time_share: f64 },
}

/// What a decode step costs beyond its bytes: the fixed work of one forward pass.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PassShape {
    /// Layers the pass runs through (each a handful of kernel launches and syncs).
    pub layers: f64,
    /// Routed-expert matmuls: experts per token × MoE layers (routing and many small matmuls).
    pub expert_matmuls: f64,
}

impl PassShape {
    /// Layers a custom model without a layer count most likely has: about 12 × (billions of
    /// parameters)^0.4 (Llama 3.2 1B has 16, 8B 32, 70B 80; this gives 12, 27, 66).
    pub fn layers_from_params(params_b: f64) -> f64 {
        (12.0 * params_b.max(0.01).powf(0.4)).round().max(1.0)
    }

    /// Experts a custom mixture of experts (active below total) most likely routes each token to
    /// in each layer, when the count is not given: eight, as most current MoE models do.
    pub const ASSUMED_EXPERTS_PER_TOKEN: f64 = 8.0;
}

/// One pool's cost per token, as the expected-speed model sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Coefficients {
    /// Fixed seconds per pass.
    pub overhead_s: f64,
    /// Seconds per layer per pass (kernel launches and synchronisation).
    pub per_layer_s: f64,
    /// Seconds per routed-expert matmul.
    pub per_expert_s: f64,
    /// Multiplier on weight bytes ÷ bandwidth (1 ÷ streaming efficiency).
    pub weight: f64,
    /// Multiplier on KV bytes ÷ bandwidth (flash attention on).
    pub kv: f64,
}

impl Coefficients {
    /// Peak bandwidth, no fixed cost: the expected figure equals the ceiling.
    pub const IDEAL: Coefficients = Coefficients {
        overhead_s: 0.0,
        per_layer_s: 0.0,
        per_expert_s: 0.0,
        weight: 1.0,
        kv: 1.0,
    };

    /// The fixed seconds of one pass of `shape`.
    pub fn fixed_seconds(&self, shape: &PassShape) -> f64 {
        self.overhead_s + self.per_layer_s * shape.layers + self.per_expert_s * shape.expert_matmuls
    }

    /// Seconds for a pass of `shape` reading `w_over_bw` and `kv_over_bw` seconds' worth of bytes
    /// at peak.
    pub fn seconds(&self, shape: &PassShape, w_over_bw: f64, kv_over_bw: f64) -> f64 {
        self.fixed_seconds(shape) + self.weight * w_over_bw + self.kv * kv_over_bw
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
    /// Multiplier on the fixed per-pass seconds (per layer, per expert matmul) of a pass over
    /// several GPUs ([`Inputs::devices_used`]: `with=`, `split=`, `tp=`), fitted on layer splits
    /// over different cards: a split pass is launched kernel by kernel
    /// and synchronised at each hand-over, where one device replays it as a captured graph
    /// (llama.cpp's CUDA backend turns its graphs off for several GPUs), which costs most where a
    /// pass has most kernels, a mixture of experts. Fitted on data/measured-mixed.csv; 1 where
    /// no split is measured.
    pub split_fixed: f64,
    /// The share of the machine's peak (`tflops`) that a batched step's arithmetic reaches in the
    /// expected figure, fitted per vendor on data/measured-batched.csv; 1 (the peak) unfitted.
    pub batch_share: f64,
    /// How far the tokens of one step route to the same experts: a step of n tokens reads the
    /// experts n^exponent independent tokens would ([`routed_tokens`]); 1 (independent routing)
    /// unfitted.
    pub routing_exponent: f64,
}

impl Default for TimeModel {
    fn default() -> Self {
        TimeModel {
            own: Coefficients::IDEAL,
            slow: Coefficients::IDEAL,
            band: (1.0, 1.0),
            split_fixed: 1.0,
            batch_share: 1.0,
            routing_exponent: 1.0,
        }
    }
}

/// The routing exponent of a batch's ceiling: a step's tokens sharing experts as √n independent
/// tokens' would, the most concentrated routing the batch's fit tries
/// ([`crate::scenario::scored::ROUTING_GRID`]), so that the ceiling bounds runs whose routing is
/// more concentrated than the fitted exponent says.
pub const ROUTING_EXPONENT_BOUND: f64 = 0.5;

/// The independent tokens whose experts a step of `tokens` tokens reads: `tokens^exponent`, one
/// token for one. Tokens of one step (several streams, or a draft and its verification) share
/// experts more than independent draws would: the experts a model favours, favoured by each.
pub fn routed_tokens(tokens: f64, exponent: f64) -> f64 {
    if tokens <= 1.0 {
        tokens
    } else {
        tokens.powf(exponent)
    }
}

impl TimeModel {
    /// Expected seconds for a pass of `shape` reading from `pools` (the first is the machine's own),
    /// memory side only.
    pub fn step_seconds(&self, shape: &PassShape, pools: &[PoolRead], devices: u32) -> f64 {
        self.pool_seconds(pools, (1.0, false)).iter().sum::<f64>() + self.fixed_seconds(shape, devices)
    }

    /// The fixed seconds of a pass of `shape` over `devices` GPUs ([`Inputs::devices_used`]):
    /// one device's, times [`TimeModel::split_fixed`] where there are several.
    pub fn fixed_seconds(&self, shape: &PassShape, devices: u32) -> f64 {
        self.own.fixed_seconds(shape) * if devices > 1 { self.split_fixed } else { 1.0 }
    }

    /// Expected seconds of each pool's reads; `numa` divides the streaming rate of the pools a
    /// CPU reads over several sockets (the second onwards on a GPU machine, all on a CPU one).
    pub fn pool_seconds(&self, pools: &[PoolRead], numa: (f64, bool)) -> Vec<f64> {
        let (factor, own_too) = numa;
        pools
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let own = i == 0 || p.pool == Pool::Vram;
                let c = if own { self.own } else { self.slow };
                let bw = p.bandwidth_gbs * GB * if !own || own_too { factor } else { 1.0 };
                c.weight * p.weight_bytes / bw + c.kv * p.kv_bytes / bw
            })
            .collect()
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
    /// System RAM of a discrete-GPU machine, GiB (the pool that takes what VRAM does not).
    pub ram_gib: f64,
    /// How this machine's runtime turns bytes into time, for the expected figure.
    pub time: TimeModel,
}

/// The model: a catalog architecture, or a custom model made of the figures given.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelSpec {
    Arch {
        name: String,
        arch: Box<Arch>,
        /// The context it was trained for, if known.
        max_context: Option<u32>,
    },
    Custom {
        params_b: Option<f64>,
        active_b: Option<f64>,
        layers: Option<u32>,
        kv_heads: Option<u32>,
        head_dim: Option<u32>,
        /// A mixture of experts' routing: (routed experts per layer, experts per token).
        routing: Option<(u32, u32)>,
    },
}

impl ModelSpec {
    /// The layer count, where the model gives it.
    pub fn layers(&self) -> Option<u32> {
        match self {
            ModelSpec::Arch { arch, .. } => Some(arch.layers),
            ModelSpec::Custom { layers, .. } => *layers,
        }
    }
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
    /// With `expert_offload`, the share of the routed experts held in system RAM (those of the
    /// first layers, llama.cpp's `--n-cpu-moe`); the rest stay in VRAM. 1 = all of them.
    pub expert_ram_share: f64,
}

/// A draft model for speculative decoding.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Speculation {
    /// Weight bytes the draft reads per drafted token.
    pub draft_bytes: f64,
    /// The draft's stored weights (held beside the target's).
    pub draft_stored_bytes: f64,
    /// The draft's own KV cache at the context, read per drafted token; `None` when unknown.
    pub draft_kv_bytes: Option<f64>,
    /// The draft's fixed work per pass.
    pub draft_shape: PassShape,
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
    /// The CPU that reads system RAM (a CPU machine's own memory, a GPU machine's RAM pool), if
    /// known: the compute side of those pools.
    pub host: Option<HostCpu>,
    /// Further GPUs holding layers beside the machine's (`with=`), in a layer split: each reads
    /// its share at its own bandwidth, one after the other.
    pub devices: Vec<Device>,
    /// The layer split's proportions, the machine's first (`tensor_split=`); `None`: in
    /// proportion to each device's memory, as llama.cpp does by default.
    pub tensor_split: Option<Vec<f64>>,
    /// Notes from reading the inputs (a key that does not apply), carried into the estimate.
    pub notes: Vec<Note>,
}

/// A further GPU in a layer split (`with=`).
#[derive(Clone, Debug, PartialEq)]
pub struct Device {
    pub name: String,
    pub bandwidth_gbs: f64,
    pub memory_gib: f64,
}

/// Bytes read per token, split by what can live apart.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BytesPerToken {
    pub weights: f64,
    pub kv: f64,
    pub total: f64,
}

/// One memory pool's share of a token's reads, and whether it holds what it is given.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolRead {
    pub pool: Pool,
    /// The device whose memory this is, where several GPUs split the layers (`with=`).
    pub device: Option<String>,
    pub bandwidth_gbs: f64,
    pub weight_bytes: f64,
    pub kv_bytes: f64,
    pub seconds: f64,
    /// What the pool holds at most (`None`: unknown, or disk).
    pub capacity_bytes: Option<f64>,
    /// What the placement asks it to hold.
    pub needed_bytes: f64,
    pub fits: bool,
}

/// Which side of a roofline sets a pool's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Memory,
    Compute,
}

/// The arithmetic on one pool's weights: its seconds at the reader's peak, at the reader's
/// fitted share of peak, and whether the CPU is that reader.
struct PoolCompute {
    peak_s: f64,
    expected_s: f64,
    by_host: bool,
}

/// Who does the arithmetic on a pool's weights and how long it takes: a GPU's own memory by the
/// GPU (its `tflops`, taken as reached); system RAM and disk, and a CPU machine's memory, by the
/// CPU ([`HostCpu`]) at its share of peak; `None` where the reader's compute or the parameter
/// count is unknown. Each pool's share of the arithmetic follows its share of the weights read.
fn pool_compute(inp: &Inputs, wb: &WeightBytes, p: &PoolRead, weights_read: f64) -> Option<PoolCompute> {
    let by_host = read_by_host(inp, p);
    let gpu_flops = peak_flops(inp);
    let (rate, share) = match (&inp.host, by_host) {
        (Some(h), true) => (Some(h.peak_ops(inp.stored_bpw(wb))), h.efficiency),
        (None, true) => (None, 1.0),
        // A CPU machine given by its TFLOPS alone: the prior share of a CPU's peak.
        (_, false) if inp.machine.kind == Kind::Cpu => (gpu_flops, cpu::COMPUTE_EFFICIENCY_PRIOR),
        (_, false) => (gpu_flops, 1.0),
    };
    match (rate, wb.active_params) {
        (Some(f), Some(a)) if weights_read > 0.0 && f > 0.0 => {
            let peak_s = 2.0 * a * (p.weight_bytes / weights_read) / f;
            Some(PoolCompute {
                peak_s,
                expected_s: peak_s / share,
                by_host,
            })
        }
        _ => None,
    }
}

/// Whether the CPU does the arithmetic on what pool `p` holds: a GPU machine's system RAM and
/// disk; a CPU machine's own memory, and an Apple or SoC machine's where the scenario gives it a
/// CPU (only where the CPU reads its memory).
fn read_by_host(inp: &Inputs, p: &PoolRead) -> bool {
    match inp.machine.kind {
        Kind::Gpu => p.pool != Pool::Vram,
        Kind::Cpu | Kind::Apple | Kind::Soc => inp.host.is_some(),
    }
}

/// Seconds per token the CPU's attention over the context takes at its attention peak
/// ([`HostCpu::attention_peak`]): one decode token's attention FLOPs
/// ([`arch::Arch::decode_attention_flops`]) in the share of the KV cache the CPU reads (its
/// layers' share where layers are split; none where routed experts alone are in system RAM, as
/// attention stays on the GPU). The expected figure adds it at the engine's fitted share of that
/// peak ([`HostCpu::attention`]); 0 without a host CPU or an architecture.
pub fn host_attention_seconds(inp: &Inputs, pools: &[PoolRead]) -> f64 {
    let (Some(h), Some(a)) = (&inp.host, inp.arch()) else {
        return 0.0;
    };
    let kv: f64 = pools.iter().map(|p| p.kv_bytes).sum();
    let host_kv: f64 = pools.iter().filter(|p| read_by_host(inp, p)).map(|p| p.kv_bytes).sum();
    if kv > 0.0 {
        a.decode_attention_flops(inp.context) * host_kv / kv / h.attention_peak()
    } else {
        0.0
    }
}

/// [`host_attention_seconds`] at the engine's fitted share of the attention peak: what the
/// expected figure adds for one token (each token of a batch or a verified draft its own).
fn cpu_attention_seconds(inp: &Inputs, pools: &[PoolRead]) -> f64 {
    inp.host.as_ref().map_or(0.0, |h| host_attention_seconds(inp, pools) / h.attention)
}

/// The roofline of one token: what compute allows, and what binds where.
struct Roofline {
    compute_ceiling_tok_s: Option<f64>,
    compute_expected_tok_s: Option<f64>,
    pool_bounds: Vec<Bound>,
    bound: (Pool, Bound),
    /// The index in `pools` of the pool the bound names.
    bound_index: usize,
    /// Expected seconds of the pools' reads and arithmetic (fixed costs apart).
    expected_s: f64,
}

/// The compute side of decode: each weight read does about two operations (a multiply and an
/// add), done by whatever reads its pool ([`pool_compute`]). A pool's expected time is the larger
/// of its memory time (`mem_s`, the calibrated streaming time) and its compute time; the
/// ceiling's compute side is at peak.
fn roofline(inp: &Inputs, wb: &WeightBytes, pools: &[PoolRead], weights_read: f64, mem_s: &[f64]) -> Roofline {
    // (peak seconds, expected seconds) of each pool's arithmetic.
    let compute: Vec<Option<(f64, f64)>> = pools
        .iter()
        .map(|p| pool_compute(inp, wb, p, weights_read).map(|c| (c.peak_s, c.expected_s)))
        .collect();
    let total: Option<f64> = compute.iter().map(|c| c.map(|c| c.0)).sum();
    let total_expected: Option<f64> = compute.iter().map(|c| c.map(|c| c.1)).sum();
    let pool_bounds: Vec<Bound> = compute
        .iter()
        .zip(mem_s)
        .map(|(c, m)| {
            if c.is_some_and(|c| c.1 > *m) {
                Bound::Compute
            } else {
                Bound::Memory
            }
        })
        .collect();
    let times: Vec<f64> = compute.iter().zip(mem_s).map(|(c, m)| c.map_or(*m, |c| c.1.max(*m))).collect();
    let slowest = times.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).map_or(0, |(i, _)| i);
    Roofline {
        compute_ceiling_tok_s: total.filter(|t| *t > 0.0).map(|t| 1.0 / t),
        compute_expected_tok_s: total_expected.filter(|t| *t > 0.0).map(|t| 1.0 / t),
        bound: (
            pools.get(slowest).map_or(Pool::Vram, |p| p.pool),
            pool_bounds.get(slowest).copied().unwrap_or(Bound::Memory),
        ),
        bound_index: slowest,
        pool_bounds,
        expected_s: times.iter().sum(),
    }
}

/// Seconds per token the CPU's arithmetic takes at its peak on the weights it reads (system RAM
/// and disk on a GPU machine, everything where the CPU reads the machine's own memory); 0 without
/// a CPU or a parameter count.
pub fn host_compute_seconds(inp: &Inputs, e: &Estimate) -> f64 {
    let wb = inp.weight_bytes();
    e.pools
        .iter()
        .filter_map(|p| pool_compute(inp, &wb, p, e.bytes_per_token.weights))
        .filter(|c| c.by_host)
        .map(|c| c.peak_s)
        .sum()
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
    /// The pool where most of the token's time goes (bytes ÷ bandwidth): disk when anything is
    /// read from disk, since it is the slowest by far.
    pub slowest: Pool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct BatchResult {
    pub size: u32,
    /// `None` without a compute figure (nothing but the bytes would bound it), and past
    /// `max_streams` (the streams' KV caches do not fit).
    /// Expected: the single stream's calibrated time scaled by how much longer the batch's step
    /// takes at the roofline, so `per_stream_tok_s` at one stream is `expected_tok_s`.
    pub aggregate_tok_s: Option<f64>,
    pub per_stream_tok_s: Option<f64>,
    /// The same at the roofline: the step's bytes at peak bandwidth, or its arithmetic at peak.
    pub aggregate_ceiling_tok_s: Option<f64>,
    pub per_stream_ceiling_tok_s: Option<f64>,
    /// The smallest batch at which a step becomes compute-bound, if any up to 4096.
    pub compute_bound_from: Option<u32>,
    /// The most streams whose KV caches at this context fit beside the weights (`None` where
    /// the machine's memory is unknown): how many people the machine can serve at once.
    pub max_streams: Option<u32>,
    /// Whether this batch fits (`None` where memory is unknown).
    pub fits: Option<bool>,
    pub note: Option<Note>,
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
    /// The memory ceiling: bandwidth ÷ bytes, pool by pool.
    pub ceiling_tok_s: f64,
    /// The compute side's ceiling: two FLOPs per weight read at the peak of whatever reads each
    /// pool; `None` where a reader's compute is unknown (a custom machine without `tflops`, or a
    /// GPU machine's system RAM, read by a host CPU the machine does not describe).
    pub compute_ceiling_tok_s: Option<f64>,
    /// The compute side as the expected figure counts it: each reader at the share of its peak
    /// the estimate applies (a GPU's own memory at its peak, a CPU at its family's fitted
    /// efficiency or the prior); `None` where `compute_ceiling_tok_s` is. The expected figure
    /// never exceeds it.
    pub compute_expected_tok_s: Option<f64>,
    /// Per pool (as `pools`), which side of the roofline is slower at peak.
    pub pool_bounds: Vec<Bound>,
    /// The pool where most of the token's time goes, and which side binds it.
    pub bound: (Pool, Bound),
    /// Its index in `pools` (several VRAM pools where `with=` splits the layers).
    pub bound_index: usize,
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
    /// The output head's bytes, read per token and part of `fixed` (0 where the model does not
    /// say).
    pub head: f64,
}

impl WeightBytes {
    /// Weight bytes one step of `tokens` tokens reads (the union of their experts), for a model
    /// routed as `routing` (experts per layer, experts per token).
    pub fn read(&self, routing: Option<(f64, f64)>, tokens: f64) -> f64 {
        self.fixed + routing.map_or(0.0, |(e, k)| arch::experts_touched(e, k, tokens) * self.per_expert)
    }

    /// The output head's share of the bytes one token reads (0 where nothing is read).
    pub fn head_share(&self, routing: Option<(f64, f64)>) -> f64 {
        let read = self.read(routing, 1.0);
        if read > 0.0 {
            (self.head / read).min(1.0)
        } else {
            0.0
        }
    }
}

impl Inputs {
    /// The multiplier on the streaming rate of the pools the CPU reads when the run spans sockets,
    /// and whether it applies to the machine's own pool (a CPU machine).
    pub fn numa(&self) -> (f64, bool) {
        (self.host.as_ref().map_or(1.0, |h| h.numa), self.machine.kind == Kind::Cpu)
    }

    /// Bits per weight as stored (for the format's arithmetic path): the file's size over the
    /// parameters where both are known, else the format's.
    pub fn stored_bpw(&self, wb: &WeightBytes) -> f64 {
        match (self.weights, self.total_params()) {
            (WeightSpec::Bits { bpw, .. }, _) => bpw,
            (WeightSpec::File { .. }, Some(p)) if p > 0.0 => wb.stored * 8.0 / p,
            (WeightSpec::File { .. }, _) => 4.5,
        }
    }

    /// The model's parameter count, where known.
    pub fn total_params(&self) -> Option<f64> {
        match &self.model {
            ModelSpec::Arch { arch, .. } => Some(arch.total_params()),
            ModelSpec::Custom { params_b, .. } => params_b.map(|p| p * 1e9),
        }
    }

    /// The model's routing, a mixture of experts' (experts per layer, experts per token): from
    /// its architecture, or a custom model's `experts` and `top_k`.
    pub fn routing(&self) -> Option<(f64, f64)> {
        match &self.model {
            ModelSpec::Arch { arch, .. } => arch.routing(),
            ModelSpec::Custom { routing, .. } => routing.map(|(e, k)| (f64::from(e), f64::from(k))),
        }
    }

    pub(crate) fn arch(&self) -> Option<&Arch> {
        match &self.model {
            ModelSpec::Arch { arch, .. } => Some(arch),
            ModelSpec::Custom { .. } => None,
        }
    }

    /// The share of the weights a token reads that llama.cpp's `-ngl ngl` puts in VRAM, as
    /// `gpu_frac` takes it: everything where `ngl` exceeds the layer count; otherwise `ngl` of
    /// the layers, with the output head left to the CPU, since llama.cpp offloads the output layer
    /// only past the last repeating one (`llama_model::load_tensors`: the output layer's device is
    /// layer `n_layer`'s, on the GPU only when `-ngl` is above `n_layer`). The layers' bytes are
    /// taken as even. `None` where the model gives no layer count.
    pub fn ngl_share(&self, ngl: u32) -> Option<f64> {
        let layers = self.model.layers().filter(|l| *l > 0)?;
        if ngl > layers {
            return Some(1.0);
        }
        Some(f64::from(ngl) / f64::from(layers) * (1.0 - self.weight_bytes().head_share(self.routing())))
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
                // The input embedding, stored beside the head unless tied to it; one row is read.
                let head = arch.embedding_params() * other / 8.0;
                let input = if arch.tied_embeddings { 0.0 } else { head };
                let stored = fixed + input + per_expert * arch.experts as f64;
                let scale = match self.weights {
                    WeightSpec::File { bytes } if stored > 0.0 => bytes / stored,
                    _ => 1.0,
                };
                WeightBytes {
                    fixed: fixed * scale,
                    per_expert: per_expert * scale,
                    stored: stored * scale,
                    active_params: Some(arch.read_params_per_token()),
                    head: head * scale,
                }
            }
            ModelSpec::Custom {
                params_b,
                active_b,
                routing,
                ..
            } => {
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
                // With its routing, a custom mixture of experts splits into shared and routed
                // weights: total = shared + E × expert and active = shared + k × expert.
                match (custom_split(*params_b, *active_b, *routing), params) {
                    (Some((expert_b, _)), Some(p)) => {
                        let (e, _) = routing.unwrap_or((0, 0));
                        let per_expert = stored * expert_b * 1e9 / p;
                        WeightBytes {
                            fixed: stored - per_expert * f64::from(e),
                            per_expert,
                            stored,
                            active_params: active,
                            head: 0.0,
                        }
                    }
                    _ => WeightBytes {
                        fixed: stored * share,
                        per_expert: 0.0,
                        stored,
                        active_params: active,
                        head: 0.0,
                    },
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

    /// The GPUs one pass runs on: the machine's, times tensor parallel and a layer split of
    /// identical devices, plus the further devices of a mixed split (`with=`).
    pub fn devices_used(&self) -> u32 {
        self.tp.max(1) * self.split.max(1) + u32::try_from(self.devices.len()).unwrap_or(u32::MAX)
    }

    /// The fixed work of one decode pass of this model: its layers and routed-expert matmuls,
    /// from the architecture, or, for a custom model, from what its keys imply.
    pub fn pass_shape(&self) -> PassShape {
        match &self.model {
            ModelSpec::Arch { arch, .. } => PassShape {
                layers: f64::from(arch.layers),
                expert_matmuls: arch.experts_touched(1.0) * arch.moe_layers(),
            },
            ModelSpec::Custom {
                params_b,
                active_b,
                layers,
                routing,
                ..
            } => {
                let params = params_b.unwrap_or_else(|| match self.weights {
                    WeightSpec::File { bytes } => bytes / 1e9 * 2.0,
                    WeightSpec::Bits { .. } => 8.0,
                });
                let layers = layers.map_or_else(|| PassShape::layers_from_params(params), f64::from);
                let moe = routing.is_some() || active_b.is_some_and(|a| a < params * 0.999);
                let per_token = routing.map_or(PassShape::ASSUMED_EXPERTS_PER_TOKEN, |(_, k)| f64::from(k));
                PassShape {
                    layers,
                    expert_matmuls: if moe { per_token * layers } else { 0.0 },
                }
            }
        }
    }

    /// Bandwidth of the fast pool: devices in tensor parallel add theirs.
    pub fn fast_bandwidth_gbs(&self) -> f64 {
        let tp = self.tp.max(1) as f64;
        self.machine.bandwidth_gbs * tp * if tp > 1.0 { TP_EFFICIENCY } else { 1.0 }
    }

    pub(crate) fn capacity_bytes(&self) -> Option<f64> {
        let others: f64 = self.devices.iter().map(|d| d.memory_gib * GIB).sum();
        self.machine
            .memory_gib
            .map(|m| m * GIB * self.machine.usable_fraction * self.tp.max(1) as f64 * self.split.max(1) as f64 + others)
    }

    /// Each device's share of the layers in a split over `with=` devices, the machine's first:
    /// `tensor_split=` normalised, else in proportion to memory.
    pub fn device_shares(&self) -> Vec<f64> {
        let raw: Vec<f64> = match &self.tensor_split {
            Some(t) => t.clone(),
            None => std::iter::once(self.machine.memory_gib.unwrap_or(1.0) * self.machine.usable_fraction)
                .chain(self.devices.iter().map(|d| d.memory_gib))
                .collect(),
        };
        let total: f64 = raw.iter().sum();
        raw.iter().map(|r| if total > 0.0 { r / total } else { 0.0 }).collect()
    }
}

/// Where the bytes live: shares of the stored weights in each pool, and of the KV cache in the
/// fast pool (the rest of the KV cache is in system RAM on a GPU machine, which has one).
#[derive(Clone, Copy, Debug)]
struct Layout {
    /// Share of the weights (expert offload: of the fixed weights) in the fast pool.
    fast: f64,
    /// Share in system RAM (GPU machines; expert offload: of the routed experts).
    ram: f64,
    /// Share read from disk (expert offload: of the routed experts).
    disk: f64,
    /// Share of the KV cache in the fast pool.
    kv_fast: f64,
    expert_offload: bool,
    /// `gpu_frac` was above what VRAM holds: (asked, held).
    capped: Option<(f64, f64)>,
    /// The fast pool was meant to hold everything (no placement asked for).
    auto: bool,
}

/// What the fast pool must hold beside the weights: the runtime and the draft model.
pub(crate) fn fixed_overhead(inp: &Inputs) -> f64 {
    RUNTIME_OVERHEAD_BYTES
        + inp
            .speculation
            .map_or(0.0, |s| s.draft_stored_bytes + s.draft_kv_bytes.unwrap_or(0.0))
}

fn is_gpu(inp: &Inputs) -> bool {
    inp.machine.kind == Kind::Gpu
}

fn ram_capacity(inp: &Inputs) -> f64 {
    inp.machine.ram_gib * GIB
}

/// The placement of `wb` and `kv_total` bytes of KV cache.
fn layout(inp: &Inputs, wb: &WeightBytes, kv_total: f64) -> Layout {
    let cap = inp.capacity_bytes();
    let over = fixed_overhead(inp);
    let w = wb.stored;
    let clamp = |v: f64| if v.is_finite() { v.clamp(0.0, 1.0) } else { 1.0 };
    // `gpu_frac` asks for a share in the machine's own memory; more than fits is capped.
    let place = |room: f64| match inp.placement.gpu_frac {
        Some(f) if f.clamp(0.0, 1.0) > room + 1e-9 => (room, Some((f, room))),
        Some(f) => (f.clamp(0.0, 1.0), None),
        None => (room, None),
    };
    if !is_gpu(inp) {
        // Unified memory and CPUs: the KV cache stays in memory, weights that are not held there
        // are read from disk (mmap).
        let room = match cap {
            Some(c) if w > 0.0 => clamp((c - over - kv_total) / w),
            _ => 1.0,
        };
        let (fast, capped) = place(room);
        return Layout {
            fast,
            ram: 0.0,
            disk: 1.0 - fast,
            kv_fast: 1.0,
            expert_offload: false,
            capped,
            auto: inp.placement.gpu_frac.is_none(),
        };
    }
    let ram_cap = ram_capacity(inp);
    if inp.placement.expert_offload && wb.per_expert > 0.0 {
        let experts = wb.per_expert * experts_of(inp) * expert_ram_share(inp);
        let ram = if experts > 0.0 { clamp(ram_cap / experts) } else { 1.0 };
        return Layout {
            fast: 1.0,
            ram,
            disk: 1.0 - ram,
            kv_fast: 1.0,
            expert_offload: true,
            capped: None,
            auto: false,
        };
    }
    // Layers split between VRAM and the CPU, each layer's KV cache with it.
    let room = match cap {
        Some(c) if w + kv_total > 0.0 => clamp((c - over) / (w + kv_total)),
        _ => 1.0,
    };
    let (mut fast, capped) = place(room);
    // Placed automatically, layers that spill leave the output head with the CPU (llama.cpp
    // offloads it only with every layer: [`Inputs::ngl_share`]).
    if inp.placement.gpu_frac.is_none() && fast < 1.0 {
        fast = fast.min(1.0 - wb.head_share(inp.routing()));
    }
    // System RAM holds the CPU layers' KV cache, then as many of their weights as fit.
    let kv_ram = (1.0 - fast) * kv_total;
    let ram = if w > 0.0 {
        clamp((ram_cap - kv_ram).max(0.0) / w).min(1.0 - fast)
    } else {
        1.0 - fast
    };
    Layout {
        fast,
        ram,
        disk: (1.0 - fast - ram).max(0.0),
        kv_fast: fast,
        expert_offload: false,
        capped,
        auto: inp.placement.gpu_frac.is_none(),
    }
}

/// The share of the routed experts kept in system RAM under expert offload.
fn expert_ram_share(inp: &Inputs) -> f64 {
    let share = inp.placement.expert_ram_share;
    if share.is_finite() {
        share.clamp(0.0, 1.0)
    } else {
        1.0
    }
}

fn experts_of(inp: &Inputs) -> f64 {
    inp.routing().map_or(0.0, |(e, _)| e)
}

/// A custom mixture of experts' split, in billions: (one routed expert, the shared weights),
/// from total = shared + E × expert and active = shared + k × expert. `None` unless both counts
/// and the routing are given with active below total and k below E.
pub fn custom_split(params_b: Option<f64>, active_b: Option<f64>, routing: Option<(u32, u32)>) -> Option<(f64, f64)> {
    let (p, a, (e, k)) = (params_b?, active_b?, routing?);
    if a >= p || k >= e {
        return None;
    }
    let expert = (p - a) / f64::from(e - k);
    Some((expert, p - expert * f64::from(e)))
}

/// The machine's own pool.
fn fast_pool(kind: Kind) -> Pool {
    match kind {
        Kind::Gpu => Pool::Vram,
        Kind::Cpu => Pool::SystemRam,
        Kind::Apple | Kind::Soc => Pool::Unified,
    }
}

/// Per-pool reads for one step of `tokens` tokens reading `kv_read` bytes of KV cache, with
/// what each pool holds for a KV cache of `kv_total` bytes.
fn pool_reads(inp: &Inputs, wb: &WeightBytes, lay: &Layout, tokens: f64, kv_read: f64, kv_total: f64) -> Vec<PoolRead> {
    let weights = wb.read(inp.routing(), tokens);
    let over = fixed_overhead(inp);
    let w = wb.stored;
    // (weights read, KV read, bytes held) per pool.
    let (fast, ram, disk) = if lay.expert_offload {
        // The experts of the first layers are in RAM (spilling to disk past its size), the
        // rest in VRAM with everything else.
        let share = expert_ram_share(inp);
        let (routed, experts_stored) = ((weights - wb.fixed) * share, wb.per_expert * experts_of(inp) * share);
        (
            (weights - routed, kv_read, w - experts_stored + kv_total + over),
            (routed * lay.ram, 0.0, experts_stored * lay.ram),
            (routed * lay.disk, 0.0, experts_stored * lay.disk),
        )
    } else {
        let kv_slow = 1.0 - lay.kv_fast;
        (
            (
                weights * lay.fast,
                kv_read * lay.kv_fast,
                w * lay.fast + kv_total * lay.kv_fast + over,
            ),
            (weights * lay.ram, kv_read * kv_slow, w * lay.ram + kv_total * kv_slow),
            (weights * lay.disk, 0.0, w * lay.disk),
        )
    };
    let cap = inp.capacity_bytes();
    // Placed automatically, the machine's own pool was meant to hold everything.
    let fast_needed = if lay.auto && lay.fast < 1.0 { w + kv_total + over } else { fast.2 };
    let fast_bw = inp.fast_bandwidth_gbs();
    let mut pools = vec![PoolRead {
        pool: fast_pool(inp.machine.kind),
        device: None,
        bandwidth_gbs: fast_bw,
        weight_bytes: fast.0,
        kv_bytes: fast.1,
        seconds: (fast.0 + fast.1) / (fast_bw * GB),
        capacity_bytes: cap,
        needed_bytes: fast_needed,
        fits: cap.is_none_or(|c| fast_needed <= c * (1.0 + 1e-12)),
    }];
    let ram_cap = ram_capacity(inp);
    if is_gpu(inp) && ram.2 > 0.0 {
        // RAM was meant to hold what the placement gave the CPU; past it, disk.
        let ram_needed = ram.2 + disk.2;
        pools.push(PoolRead {
            pool: Pool::SystemRam,
            device: None,
            bandwidth_gbs: inp.placement.ram_bw_gbs,
            weight_bytes: ram.0,
            kv_bytes: ram.1,
            seconds: (ram.0 + ram.1) / (inp.placement.ram_bw_gbs * GB),
            capacity_bytes: Some(ram_cap),
            needed_bytes: ram_needed,
            fits: disk.2 <= 0.0,
        });
    }
    if disk.2 > 0.0 {
        pools.push(PoolRead {
            pool: Pool::Disk,
            device: None,
            bandwidth_gbs: DISK_BW_GBS,
            weight_bytes: disk.0,
            kv_bytes: 0.0,
            seconds: disk.0 / (DISK_BW_GBS * GB),
            capacity_bytes: None,
            needed_bytes: disk.2,
            fits: true,
        });
    }
    if is_gpu(inp) && !inp.devices.is_empty() {
        split_devices(inp, &mut pools);
    }
    pools
}

/// A layer split over several GPUs (`with=`): the machine's VRAM pool becomes one pool per device,
/// each with its share of the layers (weights and KV cache) read at its own bandwidth, and holding
/// at most its own memory.
fn split_devices(inp: &Inputs, pools: &mut Vec<PoolRead>) {
    let fast = pools.remove(0);
    let own = inp.machine.memory_gib.map(|m| m * GIB * inp.machine.usable_fraction);
    let devices = std::iter::once((inp.machine.name.clone(), inp.machine.bandwidth_gbs, own)).chain(
        inp.devices
            .iter()
            .map(|d| (d.name.clone(), d.bandwidth_gbs, Some(d.memory_gib * GIB))),
    );
    let split: Vec<PoolRead> = devices
        .zip(inp.device_shares())
        .map(|((name, bw, cap), share)| {
            let needed = fast.needed_bytes * share;
            PoolRead {
                pool: Pool::Vram,
                device: Some(name),
                bandwidth_gbs: bw,
                weight_bytes: fast.weight_bytes * share,
                kv_bytes: fast.kv_bytes * share,
                seconds: (fast.weight_bytes + fast.kv_bytes) * share / (bw * GB),
                capacity_bytes: cap,
                needed_bytes: needed,
                fits: cap.is_none_or(|c| needed <= c * (1.0 + 1e-12)),
            }
        })
        .collect();
    pools.splice(0..0, split);
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

/// The most streams (up to 65,536) whose KV caches of `kv` bytes each fit beside the weights by
/// the fit rule of [`Estimate::fits`]: 0 when one stream does not fit, `None` when memory is
/// unknown. Bisection: what fits for n streams fits for fewer.
fn max_streams(inp: &Inputs, wb: &WeightBytes, kv: f64) -> Option<u32> {
    inp.capacity_bytes()?;
    let fits = |n: u32| {
        let kv_total = kv * f64::from(n);
        let lay = layout(inp, wb, kv_total);
        pool_reads(inp, wb, &lay, 1.0, kv, kv_total).iter().all(|p| p.fits)
    };
    if !fits(1) {
        return Some(0);
    }
    let (mut lo, mut hi) = (1u32, 65_536u32);
    if fits(hi) {
        return Some(hi);
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo)
}

/// The memory half of [`estimate`]: the weights, one stream's and every stream's KV cache, where
/// they are placed and what each pool reads for one token.
struct Placed {
    wb: WeightBytes,
    kv: f64,
    kv_total: f64,
    lay: Layout,
    pools: Vec<PoolRead>,
}

fn place(inp: &Inputs) -> Placed {
    let wb = inp.weight_bytes();
    let kv = inp.kv_bytes(inp.context);
    let kv_total = kv * inp.batch.unwrap_or(1).max(1) as f64;
    let lay = layout(inp, &wb, kv_total);
    let pools = pool_reads(inp, &wb, &lay, 1.0, kv, kv_total);
    Placed {
        wb,
        kv,
        kv_total,
        lay,
        pools,
    }
}

/// Whether the scenario fits by the same rule as [`Estimate::fits`] (`None` where the machine's
/// memory is unknown), and the bytes it needs in all: the memory arithmetic alone, for searches
/// over many formats and contexts.
pub fn memory_fit(inp: &Inputs) -> (Option<bool>, f64) {
    let p = place(inp);
    let fits = inp.capacity_bytes().map(|_| p.pools.iter().all(|pool| pool.fits));
    (fits, p.wb.stored + p.kv_total + fixed_overhead(inp))
}

/// Runs the whole arithmetic for one scenario.
pub fn estimate(inp: &Inputs) -> Estimate {
    let mut notes = inp.notes.clone();
    let placed = place(inp);
    let Placed {
        wb, kv, kv_total, pools, ..
    } = &placed;
    let t_ceiling = memory_seconds(pools);
    let weights_read = wb.read(inp.routing(), 1.0);
    let bytes = BytesPerToken {
        weights: weights_read,
        kv: *kv,
        total: weights_read + kv,
    };
    let ceiling = if t_ceiling > 0.0 { 1.0 / t_ceiling } else { 0.0 };

    let time = &inp.machine.time;
    let mem_s = time.pool_seconds(pools, inp.numa());
    let roofline = roofline(inp, wb, pools, weights_read, &mem_s);
    let attention_s = cpu_attention_seconds(inp, pools);
    let t_expected = roofline.expected_s + time.fixed_seconds(&inp.pass_shape(), inp.devices_used()) + attention_s;
    let cap = roofline.compute_ceiling_tok_s.map_or(ceiling, |c| c.min(ceiling));
    let expected = if t_expected > 0.0 { (1.0 / t_expected).min(cap) } else { 0.0 };
    let (lo, hi) = time.band;
    if attention_s > 0.1 * t_expected {
        notes.push(Note::CpuAttention {
            time_share: attention_s / t_expected,
        });
    }

    let needed = wb.stored + kv_total + fixed_overhead(inp);
    let available = inp.capacity_bytes();
    placement_notes(inp, &placed, needed, &mut notes);
    // What the CPU side says matters only where the CPU reads weights.
    let host_reads = pools.iter().any(|p| p.weight_bytes > 0.0 && (p.pool != Pool::Vram || !is_gpu(inp)));
    if !host_reads {
        notes.retain(|n| {
            !matches!(
                n,
                Note::HostAssumed { .. } | Note::ComputePrior { .. } | Note::ThreadsBeyondCpu { .. } | Note::Numa { .. }
            )
        });
    }
    let flops = peak_flops(inp);
    let (ttft_s, prefill_tok_s) = prefill(inp, &placed, flops, &mut notes);
    let batch = inp.batch.map(|b| batch_result(inp, &placed, flops, b.max(1), expected));
    let speculative = inp
        .speculation
        .map(|s| speculative_result(inp, &placed, flops, &s, expected, &mut notes));

    Estimate {
        ceiling_tok_s: ceiling,
        compute_ceiling_tok_s: roofline.compute_ceiling_tok_s,
        compute_expected_tok_s: roofline.compute_expected_tok_s,
        pool_bounds: roofline.pool_bounds,
        bound: roofline.bound,
        bound_index: roofline.bound_index,
        expected_tok_s: expected,
        expected_low_tok_s: expected * lo,
        expected_high_tok_s: (expected * hi).min(cap),
        bytes_per_token: bytes,
        memory_needed_bytes: needed,
        memory_available_bytes: available,
        fits: available.map(|_| pools.iter().all(|p| p.fits)),
        spill: spill_of(pools, weights_read),
        stored_weight_bytes: wb.stored,
        pools: placed.pools,
        ttft_s,
        prefill_tok_s,
        batch,
        speculative,
        notes,
    }
}

/// Where memory overflows: the first pool that does not hold what it is given spills into the
/// next.
fn spill_of(pools: &[PoolRead], weights_read: f64) -> Option<Spill> {
    pools.iter().position(|p| !p.fits).map(|i| {
        let from = &pools[i];
        let slow: f64 = pools[i + 1..].iter().map(|p| p.weight_bytes).sum();
        Spill {
            pool: from.pool,
            into: pools.get(i + 1).map_or(Pool::Disk, |p| p.pool),
            bytes: from.capacity_bytes.map_or(0.0, |c| (from.needed_bytes - c).max(0.0)),
            fraction: if weights_read > 0.0 { slow / weights_read } else { 0.0 },
            slowest: pools
                .iter()
                .max_by(|a, b| a.seconds.total_cmp(&b.seconds))
                .map_or(from.pool, |p| p.pool),
        }
    })
}

/// What the placement had to assume or could not do: experts in RAM or not, weights read from
/// disk and what would avoid it, a capped share, unknown memory, a context past training.
fn placement_notes(inp: &Inputs, placed: &Placed, needed: f64, notes: &mut Vec<Note>) {
    let Placed { wb, lay, pools, .. } = placed;
    if lay.expert_offload {
        notes.push(Note::ExpertOffload {
            share: expert_ram_share(inp),
        });
    } else if inp.placement.expert_offload {
        notes.push(Note::ExpertOffloadIgnored { moe: wb.per_expert > 0.0 });
    }
    if let Some(disk) = pools.iter().find(|p| p.pool == Pool::Disk && p.weight_bytes > 0.0) {
        // What would hold the disk's share in memory: the CPU side's whole share on a GPU
        // machine, the whole model on any other.
        let ram_needed_bytes = match pools.iter().find(|p| p.pool == Pool::SystemRam && is_gpu(inp)) {
            Some(ram) => ram.needed_bytes,
            None if is_gpu(inp) => disk.needed_bytes,
            None => needed,
        };
        let experts_bytes = (is_gpu(inp) && !lay.expert_offload && wb.per_expert > 0.0).then(|| wb.per_expert * experts_of(inp));
        notes.push(Note::ReadFromDisk {
            ram_needed_bytes,
            experts_bytes,
        });
    }
    if let Some((asked, held)) = lay.capped {
        notes.push(Note::GpuFracCapped { asked, held });
    }
    if inp.capacity_bytes().is_none() {
        notes.push(Note::MemoryUnknown);
    }
    if let ModelSpec::Custom { layers: None, .. } | ModelSpec::Custom { kv_heads: None, .. } | ModelSpec::Custom { head_dim: None, .. } =
        inp.model
    {
        notes.push(Note::KvNotModelled);
    }
    if let ModelSpec::Arch {
        max_context: Some(trained),
        ..
    } = inp.model
    {
        if inp.context > f64::from(trained) {
            notes.push(Note::ContextBeyondTrained { trained });
        }
    }
}

/// Prefill (time to first token, prefill tok/s): compute-bound, never faster than one read of
/// the weights; unknown without a compute figure or a parameter count.
fn prefill(inp: &Inputs, placed: &Placed, flops: Option<f64>, notes: &mut Vec<Note>) -> (Option<f64>, Option<f64>) {
    let Placed { wb, lay, kv_total, .. } = placed;
    match (flops, wb.active_params) {
        (Some(f), Some(active)) if inp.prompt > 0.0 => {
            let work = 2.0 * active * inp.prompt + inp.arch().map_or(0.0, |a| a.attention_flops(inp.prompt));
            let prompt_kv = inp.kv_bytes(inp.prompt);
            let read_all = memory_seconds(&pool_reads(inp, wb, lay, inp.prompt, prompt_kv, *kv_total));
            let t = (work / (f * PREFILL_UTILIZATION)).max(read_all);
            (Some(t), Some(inp.prompt / t))
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
    }
}

/// The machine's peak FLOPS (`tflops`, times the tensor-parallel devices), where known.
fn peak_flops(inp: &Inputs) -> Option<f64> {
    inp.machine.tflops.map(|t| t * 1e12 * inp.tp.max(1) as f64)
}

/// The compute time of one step of `tokens` tokens at peak (0 where unknown).
fn compute_seconds(flops: Option<f64>, active_params: Option<f64>, tokens: f64) -> f64 {
    match (flops, active_params) {
        (Some(f), Some(a)) => 2.0 * a * tokens / f,
        _ => 0.0,
    }
}

/// A batched step's parts, in seconds: the memory side as the expected figure times it (the
/// time model: fixed costs and the bytes at the fitted streaming rates, experts routed by the
/// fitted exponent) at one stream and at `b`, the bytes at peak bandwidth with experts routed as
/// concentrated as [`ROUTING_EXPONENT_BOUND`] allows, and the arithmetic at peak (`tflops`) at
/// one stream and at `b`.
/// The expected step is the memory side plus the arithmetic at the fitted share of peak
/// ([`TimeModel::batch_share`]); the ceiling's is the larger of the two at peak.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BatchParts {
    pub memory_one_s: f64,
    pub memory_s: f64,
    pub memory_peak_s: f64,
    pub compute_one_s: f64,
    pub compute_s: f64,
    /// The CPU's attention over one stream's context at its fitted rate ([`cpu_attention_seconds`]):
    /// every stream pays its own.
    pub attention_one_s: f64,
    pub streams: f64,
}

impl BatchParts {
    /// The expected step at `share` of peak compute, relative to one stream's.
    pub fn slowdown(&self, share: f64) -> f64 {
        (self.memory_s + self.compute_s / share + self.streams * self.attention_one_s)
            / (self.memory_one_s + self.compute_one_s / share + self.attention_one_s)
    }
}

/// The parts of a step of `b` streams ([`BatchParts`]); `None` without a compute figure or an
/// active parameter count.
pub fn batch_parts(inp: &Inputs, b: u32) -> Option<BatchParts> {
    let placed = place(inp);
    let flops = peak_flops(inp);
    parts_of(inp, &placed, flops, b)
}

fn parts_of(inp: &Inputs, placed: &Placed, flops: Option<f64>, b: u32) -> Option<BatchParts> {
    let Placed { wb, lay, kv, kv_total, .. } = placed;
    let (Some(_), Some(_)) = (flops, wb.active_params) else {
        return None;
    };
    let time = &inp.machine.time;
    let shape = inp.pass_shape();
    let n = f64::from(b.max(1));
    let routed = routed_tokens(n, time.routing_exponent);
    let reads = pool_reads(inp, wb, lay, routed, kv * n, *kv_total);
    let step_shape = PassShape {
        expert_matmuls: inp
            .arch()
            .map_or(shape.expert_matmuls, |a| a.experts_touched(routed) * a.moe_layers()),
        ..shape
    };
    let one = pool_reads(inp, wb, lay, 1.0, *kv, *kv_total);
    let bound = pool_reads(inp, wb, lay, routed_tokens(n, ROUTING_EXPONENT_BOUND), kv * n, *kv_total);
    Some(BatchParts {
        memory_one_s: time.step_seconds(&shape, &one, inp.devices_used()),
        memory_s: time.step_seconds(&step_shape, &reads, inp.devices_used()),
        memory_peak_s: memory_seconds(&bound),
        compute_one_s: compute_seconds(flops, wb.active_params, 1.0),
        compute_s: compute_seconds(flops, wb.active_params, n),
        attention_one_s: cpu_attention_seconds(inp, &one),
        streams: n,
    })
}

/// A batch of `b` streams: bounded by memory (the streams' KV caches must fit) and by compute;
/// expected as the single stream's `expected` figure slowed by the ratio of the batch's expected
/// step to one token's ([`BatchParts::slowdown`]), so one stream is the expected figure itself.
fn batch_result(inp: &Inputs, placed: &Placed, flops: Option<f64>, b: u32, expected: f64) -> BatchResult {
    let Placed { wb, kv, .. } = placed;
    let max_streams = max_streams(inp, wb, *kv);
    let fits = max_streams.map(|m| b <= m);
    let empty = |note: Note| BatchResult {
        size: b,
        aggregate_tok_s: None,
        per_stream_tok_s: None,
        aggregate_ceiling_tok_s: None,
        per_stream_ceiling_tok_s: None,
        compute_bound_from: None,
        max_streams,
        fits,
        note: Some(note),
    };
    if let (Some(false), Some(m)) = (fits, max_streams) {
        let free = inp.capacity_bytes().map_or(0.0, |c| (c - fixed_overhead(inp) - wb.stored).max(0.0));
        return empty(Note::BatchPastMemory {
            needed_bytes: kv * b as f64,
            free_bytes: free,
            max_streams: m,
        });
    }
    let Some(parts) = parts_of(inp, placed, flops, b) else {
        return empty(Note::BatchNeedsTflops);
    };
    let ceiling_step = parts.memory_peak_s.max(parts.compute_s);
    let slowdown = parts.slowdown(inp.machine.time.batch_share);
    let per_stream = if expected > 0.0 && slowdown > 0.0 {
        expected / slowdown
    } else {
        0.0
    };
    let compute_bound_from = first_compute_bound(|n| parts_of(inp, placed, flops, n).is_some_and(|p| p.compute_s >= p.memory_peak_s));
    BatchResult {
        size: b,
        aggregate_tok_s: Some(b as f64 * per_stream),
        per_stream_tok_s: Some(per_stream),
        aggregate_ceiling_tok_s: Some(b as f64 / ceiling_step),
        per_stream_ceiling_tok_s: Some(1.0 / ceiling_step),
        compute_bound_from,
        max_streams,
        fits,
        note: None,
    }
}

/// Speculative decoding: a draft proposes k tokens, the target verifies k + 1 in one pass.
fn speculative_result(
    inp: &Inputs,
    placed: &Placed,
    flops: Option<f64>,
    s: &Speculation,
    expected: f64,
    notes: &mut Vec<Note>,
) -> SpecResult {
    let Placed { wb, lay, kv, kv_total, .. } = placed;
    let time = &inp.machine.time;
    let shape = inp.pass_shape();
    let drafted = s.k.max(1);
    let k = f64::from(drafted);
    let a = s.accept.clamp(0.0, 1.0);
    let tokens_per_step = if a >= 1.0 {
        k + 1.0
    } else {
        (1.0 - a.powi(i32::try_from(drafted).map_or(i32::MAX, |n| n.saturating_add(1)))) / (1.0 - a)
    };
    if s.draft_kv_bytes.is_none() {
        notes.push(Note::DraftKvNotModelled);
    }
    // The draft lives in the fast pool: its own fixed cost, weights and KV cache per token.
    let bw = inp.fast_bandwidth_gbs() * GB;
    // Where the CPU does attention, each verified token pays the target's over the context, and
    // each drafted one the draft's, taken as the target's in the ratio of their KV caches.
    let attention = cpu_attention_seconds(inp, &placed.pools);
    let t_draft = time
        .own
        .seconds(&s.draft_shape, s.draft_bytes / bw, s.draft_kv_bytes.unwrap_or(0.0) / bw)
        + if *kv > 0.0 {
            attention * s.draft_kv_bytes.unwrap_or(0.0) / kv
        } else {
            0.0
        };
    // The target verifies k + 1 tokens in one pass, routed as one step's tokens are.
    let verified = routed_tokens(k + 1.0, time.routing_exponent);
    let verify_shape = PassShape {
        expert_matmuls: inp
            .arch()
            .map_or(shape.expert_matmuls, |a| a.experts_touched(verified) * a.moe_layers()),
        ..shape
    };
    let t_verify = time
        .step_seconds(
            &verify_shape,
            &pool_reads(inp, wb, lay, verified, *kv, *kv_total),
            inp.devices_used(),
        )
        .max(compute_seconds(flops, wb.active_params, k + 1.0))
        + (k + 1.0) * attention;
    let tok_s = tokens_per_step / (k * t_draft + t_verify);
    SpecResult {
        tok_s,
        speedup: if expected > 0.0 { tok_s / expected } else { 0.0 },
        tokens_per_step,
    }
}
