//! Every key a tokbound link can carry, defined once: its name, the kind of value it takes, its
//! default and its line in docs/scenario.md. The codec, the CLI, the form and the docs test all
//! read this table, so a key that is not here does not exist, and a misspelled [`Key`] is a
//! compile error.

use crate::estimator::Kind;
use crate::text::shorten;

/// One key of a link, in the order links write them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Key {
    V,
    Hw,
    Bw,
    Mem,
    Kind,
    Tflops,
    Usable,
    Power,
    Backend,
    Vendor,
    Engine,
    Cpu,
    Threads,
    Sockets,
    CpuCores,
    CpuGhz,
    CpuSimd,
    Cal,
    Measured,
    Model,
    Src,
    Params,
    Active,
    Layers,
    KvHeads,
    HeadDim,
    Hidden,
    Heads,
    Vocab,
    Ffn,
    Tied,
    Mlp,
    AttnGate,
    Experts,
    TopK,
    ExpertFfn,
    SharedFfn,
    DenseLayers,
    Swa,
    SwaLayers,
    KvLora,
    QLora,
    RopeDim,
    NopeDim,
    VDim,
    Linear,
    LinearLayers,
    LinearKHeads,
    LinearVHeads,
    LinearKDim,
    LinearVDim,
    LinearConv,
    Quant,
    Bpw,
    Weights,
    Ctx,
    Kv,
    Fa,
    GpuFrac,
    RamBw,
    Ram,
    Offload,
    CpuMoe,
    Tp,
    Split,
    With,
    TensorSplit,
    Batch,
    Draft,
    DraftWeights,
    K,
    Accept,
    Prompt,
    Target,
    MinTokS,
    Machines,
    KwhPrice,
    Rank,
    Embed,
    View,
    Theme,
}

/// Where a key belongs: the scenario (the estimate's inputs) or the page's presentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Scenario,
    Page,
}

/// The docs section a key is listed under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    Link,
    Machine,
    Model,
    /// A model described by its figures instead of a catalog id.
    CustomModel,
    Context,
    Batching,
    /// What can I run: a target speed and the model table's filter.
    Targets,
    Page,
}

/// What a key's value may be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ValueKind {
    /// The link format's version.
    Version,
    /// A catalog id: lowercase letters, digits, `-`, `_`, `.`.
    Id,
    /// A number greater than 0 within `[min, max]`.
    Positive { min: f64, max: f64 },
    /// A number within `[min, max]` (0 allowed).
    Share { min: f64, max: f64 },
    /// A whole number within `[min, max]`.
    Whole { min: u32, max: u32 },
    /// A token count within `[min, max]`, written plain or with `k`/`M` (`32k` = 32,768).
    Tokens { min: u32, max: u32 },
    /// A size with its unit (`19GB`, `4.58GiB`).
    Size,
    /// A machine kind.
    Kind,
    /// One of the words listed.
    Choice(&'static [&'static str]),
    /// `1`/`true` or `0`/`false`.
    Flag,
    /// A comma-separated list of the words listed (unknown words are dropped).
    List(&'static [&'static str]),
    /// A user's calibration (`rtx-4090~0.87~38.5~0.06`).
    Calibration,
    /// A Hugging Face repository, or a file in one (`org/name`, `org/name/file.gguf`).
    HubSource,
    /// Comma-separated catalog ids.
    IdList,
    /// Comma-separated positive proportions (`24,16`).
    Ratios,
}

/// One key's definition.
#[derive(Clone, Copy, Debug)]
pub struct KeySpec {
    pub key: Key,
    pub name: &'static str,
    pub group: Group,
    pub value: ValueKind,
    // The docs line: docs/scenario.md and `tokbound keys` (native only; the page has no use for it).
    /// What the key means, as docs/scenario.md says it.
    #[cfg(not(target_arch = "wasm32"))]
    pub meaning: &'static str,
    /// Its unit or range, for the docs.
    #[cfg(not(target_arch = "wasm32"))]
    pub unit: &'static str,
    /// What applies when it is not given, for the docs.
    #[cfg(not(target_arch = "wasm32"))]
    pub default: &'static str,
    /// The value a link leaves out because it is the default, if any.
    pub link_default: Option<&'static str>,
}

/// The runtimes `engine=` names; the first is the default.
pub const ENGINES: &[&str] = &[
    crate::calibration::DEFAULT_ENGINE,
    "ik_llama.cpp",
    "llamafile",
    "ollama",
    "ktransformers",
];

/// The views an embed can show (`view=`), in [`View`] order: the one list the link codec, the
/// page and the docs read.
pub const EMBED_VIEWS: [&str; 10] = [
    "headline", "machines", "context", "quants", "spill", "batch", "spec", "table", "models", "levers",
];

/// The page's colours (`theme=`), in [`Theme`] order: the one list the link codec and the docs
/// read.
pub const THEMES: [&str; 3] = ["light", "dark", "auto"];

/// The machine sets the machine table and charts show (`machines=`): the curated catalog, or
/// every machine with the long tail of GPUs.
pub const MACHINE_SETS: [&str; 2] = ["curated", "all"];

/// The page's colours: light, dark, or the reader's own preference (`prefers-color-scheme`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    Light,
    Dark,
    Auto,
}

impl Theme {
    pub const ALL: [Theme; 3] = [Theme::Light, Theme::Dark, Theme::Auto];

    /// Its name in links ([`THEMES`]).
    pub fn id(self) -> &'static str {
        THEMES[self as usize]
    }

    pub fn parse(name: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.id() == name)
    }
}

/// A view an embed can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Headline,
    Machines,
    Context,
    Quants,
    Spill,
    Batch,
    Spec,
    Table,
    Models,
    Levers,
}

impl View {
    pub const ALL: [View; 10] = [
        View::Headline,
        View::Machines,
        View::Context,
        View::Quants,
        View::Spill,
        View::Batch,
        View::Spec,
        View::Table,
        View::Models,
        View::Levers,
    ];

    /// Its name in links ([`EMBED_VIEWS`]).
    pub fn id(self) -> &'static str {
        EMBED_VIEWS[self as usize]
    }

    pub fn parse(name: &str) -> Option<View> {
        View::ALL.into_iter().find(|v| v.id() == name)
    }

    /// A chart (the others are the headline and the two tables).
    pub fn is_chart(self) -> bool {
        !matches!(self, View::Headline | View::Table | View::Models | View::Levers)
    }
}

const BIG: f64 = 100_000.0;

/// Every key, in [`Key`] order.
pub const KEYS: &[KeySpec] = &[
    KeySpec {
        key: Key::V,
        name: "v",
        group: Group::Link,
        value: ValueKind::Version,
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "link format version, written first",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "1",
        link_default: None,
    },
    KeySpec {
        key: Key::Hw,
        name: "hw",
        group: Group::Machine,
        value: ValueKind::Id,
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "catalog machine id (`rtx-4090`, `m2-ultra-76c`, `ddr5-5600-2ch`)",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "`rtx-4090`",
        link_default: Some(super::DEFAULT_HW),
    },
    KeySpec {
        key: Key::Bw,
        name: "bw",
        group: Group::Machine,
        value: ValueKind::Positive { min: 0.01, max: BIG },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "peak memory bandwidth; without `hw`, makes a custom machine; with `hw`, overrides it",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "decimal GB/s (1e9 B/s), 0 < bw ≤ 100000",
        #[cfg(not(target_arch = "wasm32"))]
        default: "the machine's",
        link_default: None,
    },
    KeySpec {
        key: Key::Mem,
        name: "mem",
        group: Group::Machine,
        value: ValueKind::Positive { min: 0.01, max: BIG },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "memory",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "GiB as marketed (`mem=24` is 24 GiB)",
        #[cfg(not(target_arch = "wasm32"))]
        default: "the machine's; unknown for a custom machine",
        link_default: None,
    },
    KeySpec {
        key: Key::Kind,
        name: "kind",
        group: Group::Machine,
        value: ValueKind::Kind,
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "`gpu`, `apple`, `soc` or `cpu` (picks the calibration class)",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "`gpu`",
        link_default: None,
    },
    KeySpec {
        key: Key::Tflops,
        name: "tflops",
        group: Group::Machine,
        value: ValueKind::Positive {
            min: 0.001,
            max: 1_000_000.0,
        },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "dense FP16 tensor TFLOPS (FP32 accumulate), for prefill and batching",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "TFLOPS",
        #[cfg(not(target_arch = "wasm32"))]
        default: "the machine's, if known",
        link_default: None,
    },
    KeySpec {
        key: Key::Usable,
        name: "usable",
        group: Group::Machine,
        value: ValueKind::Share { min: 0.01, max: 1.0 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "share of memory the model may use",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "0.01–1",
        #[cfg(not(target_arch = "wasm32"))]
        default: "Apple 0.75, otherwise 1",
        link_default: None,
    },
    KeySpec {
        key: Key::Power,
        name: "power",
        group: Group::Machine,
        value: ValueKind::Positive { min: 0.1, max: 100_000.0 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "what the machine draws while it decodes, as you measured it (watts): used for the energy and cost figures in place of the rated power (TDP), and said so; the only power a custom machine or a described CPU has",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "W",
        #[cfg(not(target_arch = "wasm32"))]
        default: "the rated power: the GPU's board power (and a second GPU's), plus the host CPU's package power where weights are read from system RAM; a CPU machine's CPU package power × sockets; a SoC's package power; none for Apple",
        link_default: None,
    },
    KeySpec {
        key: Key::Backend,
        name: "backend",
        group: Group::Machine,
        value: ValueKind::Choice(&crate::calibration::BACKEND_IDS),
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "the runtime backend: `cuda`, `rocm`, `vulkan`, `metal`, `sycl`, `cpu` or `mlx` (picks the calibration fitted for it); one the machine cannot run is an error naming what it can (NVIDIA `cuda`/`vulkan`/`cpu`, AMD `rocm`/`vulkan`/`cpu`, Intel `sycl`/`vulkan`/`cpu`, Apple `metal`/`mlx`/`cpu`, a CPU `cpu`, a SoC its catalog list; a custom machine without `vendor` by kind: `gpu` any but `metal`/`mlx`, `soc` `vulkan`/`cpu`)",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "the machine's (NVIDIA `cuda`, AMD `rocm`, Intel `sycl`, Apple `metal`, CPUs `cpu`); a custom machine's by kind (`gpu` `cuda`, `apple` `metal`, `soc` `vulkan`, `cpu` `cpu`)",
        link_default: None,
    },
    KeySpec {
        key: Key::Vendor,
        name: "vendor",
        group: Group::Machine,
        value: ValueKind::Choice(&crate::calibration::VENDOR_IDS),
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "a custom machine's GPU vendor: `nvidia`, `amd`, `intel`, `apple` or `other`; picks the calibration fitted for that vendor and the backends it can run (ignored, with a note, on a catalog machine)",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "the vendor the backend names (`cuda` NVIDIA, `rocm` AMD, `sycl` Intel, `metal`/`mlx` Apple), else `other`",
        link_default: None,
    },
    KeySpec {
        key: Key::Engine,
        name: "engine",
        group: Group::Machine,
        value: ValueKind::Choice(ENGINES),
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "the runtime: `llama.cpp`, `ik_llama.cpp`, `llamafile`, `ollama` or `ktransformers` (MLX is a backend, `backend=mlx`); picks the system-RAM streaming fitted on its measured runs where it has some, else the fit over every engine, with a note; `ktransformers` runs `cuda` or `cpu`, and no engine but the default runs `mlx`",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "`llama.cpp`",
        link_default: Some(ENGINES[0]),
    },
    KeySpec {
        key: Key::Cpu,
        name: "cpu",
        group: Group::Machine,
        value: ValueKind::Id,
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "the CPU that reads system RAM (`tokbound list cpus`): a CPU machine's own, or a discrete GPU's host, which runs the matrix-vector products of everything kept in RAM (spilled layers, routed experts); its cores, clock and SIMD throughput give the compute side of those pools; an id that is not a catalog CPU is an error",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "a catalog CPU machine's own (data/machines.csv `cpu`); a GPU's host and a custom CPU machine: `ryzen-9-7950x`, a typical 16-core desktop, with a note; Apple and SoC machines read their memory with their GPU",
        link_default: None,
    },
    KeySpec {
        key: Key::Threads,
        name: "threads",
        group: Group::Machine,
        value: ValueKind::Whole { min: 1, max: 1024 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "the threads the runtime uses on the CPU (`-t`): performance cores first, then efficiency cores at half a core each; a second thread on a core adds no compute",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "1–1024",
        #[cfg(not(target_arch = "wasm32"))]
        default: "the CPU's performance cores × sockets",
        link_default: None,
    },
    KeySpec {
        key: Key::Sockets,
        name: "sockets",
        group: Group::Machine,
        value: ValueKind::Whole { min: 1, max: 8 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "how many sockets the run spans; `bw` (a CPU machine) or `ram_bw` (a GPU's host) is then the total over them; the share held by the other sockets streams slower (NUMA), as fitted on multi-socket runs, said in a note; more than the CPU runs in is an error",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "1–8",
        #[cfg(not(target_arch = "wasm32"))]
        default: "the catalog machine's (1, or 2 for the dual-socket configurations)",
        link_default: None,
    },
    KeySpec {
        key: Key::CpuCores,
        name: "cpu_cores",
        group: Group::Machine,
        value: ValueKind::Whole { min: 1, max: 512 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "a described CPU's performance cores per socket, for a CPU not in the catalog: with `cpu_ghz` and `cpu_simd` it replaces the figures of the CPU named by `cpu` (or, without `cpu`, of the typical desktop); a described CPU runs in up to 8 sockets",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "1–512",
        #[cfg(not(target_arch = "wasm32"))]
        default: "the CPU's (`cpu`, else the typical desktop's 16)",
        link_default: None,
    },
    KeySpec {
        key: Key::CpuGhz,
        name: "cpu_ghz",
        group: Group::Machine,
        value: ValueKind::Positive { min: 0.3, max: 7.0 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "a described CPU's all-core clock under a long vector load (its base clock), GHz",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "GHz",
        #[cfg(not(target_arch = "wasm32"))]
        default: "the CPU's base clock (`cpu`, else the typical desktop's)",
        link_default: None,
    },
    KeySpec {
        key: Key::CpuSimd,
        name: "cpu_simd",
        group: Group::Machine,
        value: ValueKind::Choice(crate::catalog::cpus::SIMD_IDS),
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "a described CPU's SIMD family, which sets its int8 and 16-bit throughput per core per cycle (docs/catalog.md): `avx` (no FMA), `avx2`, `avx512-256` (AVX-512 on 256-bit units: Zen 4, one-FMA Xeons), `avx512` (two 512-bit FMA units), `amx` (Sapphire Rapids and later; decode uses its AVX-512), `neon`, `neon-dotprod`, `neon-i8mm`, `sve`; an ARM family makes it an ARM CPU",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "the CPU's (`cpu`, else the typical desktop's `avx512-256`)",
        link_default: None,
    },
    KeySpec {
        key: Key::Cal,
        name: "cal",
        group: Group::Machine,
        value: ValueKind::Calibration,
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "your own calibration of this machine, fitted from your llama-bench output: `machine~efficiency~µs per layer~band~models`, where machine is the `hw` id (or the custom machine's `bw`) it was fitted for (ignored, with a note, on any other), efficiency the share of peak bandwidth weights stream at, then the cost per layer per token, the band's half-width (at least ±30% from one run, narrowing as 1/√runs) and the catalog models the fitted runs measured, comma-separated (for any other model the band doubles; a link without this last field keeps working) (`rtx-4090~0.871~38.5~0.06~llama-3.1-8b`); runs that kept part of the model in system RAM (`ngl` below the layers, `n_cpu_moe`, `-ot`) are read and not fitted",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "the catalog calibration",
        link_default: None,
    },
    KeySpec {
        key: Key::Measured,
        name: "measured",
        group: Group::Machine,
        value: ValueKind::Choice(&["cpu", "webgpu"]),
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "how `bw` (or `ram_bw`) was measured in the browser by Measure my machine: `cpu` (WebAssembly reads in Web Workers) or `webgpu` (a compute shader); a label only, naming nothing about the machine",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "spec-sheet figures",
        link_default: None,
    },
    KeySpec {
        key: Key::Model,
        name: "model",
        group: Group::Model,
        value: ValueKind::Id,
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "catalog model id (`qwen2.5-32b`, `deepseek-v3`, `gpt-oss-120b`)",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "`qwen2.5-32b`",
        link_default: Some(super::DEFAULT_MODEL),
    },
    KeySpec {
        key: Key::Src,
        name: "src",
        group: Group::Model,
        value: ValueKind::HubSource,
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "where an imported model came from on Hugging Face: `org/name` (its config.json) or `org/name/file.gguf`; the link carries the model's own keys, so opening it fetches nothing",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "",
        link_default: None,
    },
    KeySpec {
        key: Key::Params,
        name: "params",
        group: Group::CustomModel,
        value: ValueKind::Positive { min: 0.0001, max: BIG },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom model: total parameters",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "billions",
        #[cfg(not(target_arch = "wasm32"))]
        default: "",
        link_default: None,
    },
    KeySpec {
        key: Key::Active,
        name: "active",
        group: Group::CustomModel,
        value: ValueKind::Positive { min: 0.0001, max: BIG },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom model: active parameters per token (MoE)",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "billions",
        #[cfg(not(target_arch = "wasm32"))]
        default: "= `params`",
        link_default: None,
    },
    KeySpec {
        key: Key::Layers,
        name: "layers",
        group: Group::CustomModel,
        value: ValueKind::Whole { min: 1, max: 1000 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom model: layers, for the KV cache",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "count",
        #[cfg(not(target_arch = "wasm32"))]
        default: "KV not modelled",
        link_default: None,
    },
    KeySpec {
        key: Key::KvHeads,
        name: "kv_heads",
        group: Group::CustomModel,
        value: ValueKind::Whole { min: 1, max: 1024 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom model: KV heads per layer, for the KV cache",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "count",
        #[cfg(not(target_arch = "wasm32"))]
        default: "KV not modelled",
        link_default: None,
    },
    KeySpec {
        key: Key::HeadDim,
        name: "head_dim",
        group: Group::CustomModel,
        value: ValueKind::Whole { min: 1, max: 4096 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom model: width of one head, for the KV cache",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "count",
        #[cfg(not(target_arch = "wasm32"))]
        default: "KV not modelled",
        link_default: None,
    },
    KeySpec {
        key: Key::Hidden,
        name: "hidden",
        group: Group::CustomModel,
        value: ValueKind::Whole { min: 1, max: 1000000 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom architecture: hidden size; with `layers`, `heads`, `kv_heads`, `head_dim` and `vocab` it makes the custom model an exact architecture (an imported model's link carries these)",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "count",
        #[cfg(not(target_arch = "wasm32"))]
        default: "none: a custom model of `params` and `active`",
        link_default: None,
    },
    KeySpec {
        key: Key::Heads,
        name: "heads",
        group: Group::CustomModel,
        value: ValueKind::Whole { min: 1, max: 65536 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom architecture: attention heads",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "count",
        #[cfg(not(target_arch = "wasm32"))]
        default: "",
        link_default: None,
    },
    KeySpec {
        key: Key::Vocab,
        name: "vocab",
        group: Group::CustomModel,
        value: ValueKind::Whole { min: 1, max: 100000000 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom architecture: vocabulary size",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "count",
        #[cfg(not(target_arch = "wasm32"))]
        default: "",
        link_default: None,
    },
    KeySpec {
        key: Key::Ffn,
        name: "ffn",
        group: Group::CustomModel,
        value: ValueKind::Whole { min: 0, max: 100000000 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom architecture: dense MLP width (intermediate size)",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "count",
        #[cfg(not(target_arch = "wasm32"))]
        default: "0",
        link_default: None,
    },
    KeySpec {
        key: Key::Tied,
        name: "tied",
        group: Group::CustomModel,
        value: ValueKind::Flag,
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom architecture: the output head shares the embedding table",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "`1` or `0`",
        #[cfg(not(target_arch = "wasm32"))]
        default: "0",
        link_default: None,
    },
    KeySpec {
        key: Key::Mlp,
        name: "mlp",
        group: Group::CustomModel,
        value: ValueKind::Choice(&["gated", "plain"]),
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom architecture: MLP with three matrices (`gated`: SwiGLU, GeGLU) or two (`plain`: relu², GELU)",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "`gated`",
        link_default: None,
    },
    KeySpec {
        key: Key::AttnGate,
        name: "attn_gate",
        group: Group::CustomModel,
        value: ValueKind::Flag,
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom architecture: the q projection also produces an output gate",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "`1` or `0`",
        #[cfg(not(target_arch = "wasm32"))]
        default: "0",
        link_default: None,
    },
    KeySpec {
        key: Key::Experts,
        name: "experts",
        group: Group::CustomModel,
        value: ValueKind::Whole { min: 0, max: 1000000 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom model: routed experts per MoE layer; with `top_k`, `params` and `active` alone (no architecture keys) it makes a mixture of experts whose shared and routed weights follow from total = shared + experts × expert and active = shared + top_k × expert",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "count",
        #[cfg(not(target_arch = "wasm32"))]
        default: "0 (dense)",
        link_default: None,
    },
    KeySpec {
        key: Key::TopK,
        name: "top_k",
        group: Group::CustomModel,
        value: ValueKind::Whole { min: 1, max: 1000000 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom model: experts each token is routed to (with `experts`)",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "count",
        #[cfg(not(target_arch = "wasm32"))]
        default: "1",
        link_default: None,
    },
    KeySpec {
        key: Key::ExpertFfn,
        name: "expert_ffn",
        group: Group::CustomModel,
        value: ValueKind::Whole { min: 0, max: 100000000 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom architecture: one routed expert's width",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "count",
        #[cfg(not(target_arch = "wasm32"))]
        default: "0",
        link_default: None,
    },
    KeySpec {
        key: Key::SharedFfn,
        name: "shared_ffn",
        group: Group::CustomModel,
        value: ValueKind::Whole { min: 0, max: 100000000 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom architecture: total width of the shared expert(s)",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "count",
        #[cfg(not(target_arch = "wasm32"))]
        default: "0",
        link_default: None,
    },
    KeySpec {
        key: Key::DenseLayers,
        name: "dense_layers",
        group: Group::CustomModel,
        value: ValueKind::Whole { min: 0, max: 100000 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom architecture: layers with a dense MLP (in an MoE, those that are not MoE)",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "count",
        #[cfg(not(target_arch = "wasm32"))]
        default: "every layer of a dense model, none of an MoE",
        link_default: None,
    },
    KeySpec {
        key: Key::Swa,
        name: "swa",
        group: Group::CustomModel,
        value: ValueKind::Tokens { min: 1, max: 100000000 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom architecture: sliding window",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "tokens",
        #[cfg(not(target_arch = "wasm32"))]
        default: "none",
        link_default: None,
    },
    KeySpec {
        key: Key::SwaLayers,
        name: "swa_layers",
        group: Group::CustomModel,
        value: ValueKind::Whole { min: 0, max: 100000 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom architecture: layers that use the sliding window",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "count",
        #[cfg(not(target_arch = "wasm32"))]
        default: "every layer, when `swa` is given",
        link_default: None,
    },
    KeySpec {
        key: Key::KvLora,
        name: "kv_lora",
        group: Group::CustomModel,
        value: ValueKind::Whole { min: 1, max: 1000000 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom architecture: latent attention (MLA) KV rank",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "count",
        #[cfg(not(target_arch = "wasm32"))]
        default: "none",
        link_default: None,
    },
    KeySpec {
        key: Key::QLora,
        name: "q_lora",
        group: Group::CustomModel,
        value: ValueKind::Whole { min: 0, max: 1000000 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom architecture: MLA query rank",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "count",
        #[cfg(not(target_arch = "wasm32"))]
        default: "0 (no query LoRA)",
        link_default: None,
    },
    KeySpec {
        key: Key::RopeDim,
        name: "rope_dim",
        group: Group::CustomModel,
        value: ValueKind::Whole { min: 0, max: 1000000 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom architecture: MLA rotary dims per head",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "count",
        #[cfg(not(target_arch = "wasm32"))]
        default: "0",
        link_default: None,
    },
    KeySpec {
        key: Key::NopeDim,
        name: "nope_dim",
        group: Group::CustomModel,
        value: ValueKind::Whole { min: 0, max: 1000000 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom architecture: MLA non-rotary dims per head",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "count",
        #[cfg(not(target_arch = "wasm32"))]
        default: "0",
        link_default: None,
    },
    KeySpec {
        key: Key::VDim,
        name: "v_dim",
        group: Group::CustomModel,
        value: ValueKind::Whole { min: 0, max: 1000000 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom architecture: MLA value dims per head",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "count",
        #[cfg(not(target_arch = "wasm32"))]
        default: "0",
        link_default: None,
    },
    KeySpec {
        key: Key::Linear,
        name: "linear",
        group: Group::CustomModel,
        value: ValueKind::Choice(&["gdn", "mamba2"]),
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom architecture: linear layers, Gated DeltaNet (`gdn`) or Mamba-2 (`mamba2`)",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "none",
        link_default: None,
    },
    KeySpec {
        key: Key::LinearLayers,
        name: "linear_layers",
        group: Group::CustomModel,
        value: ValueKind::Whole { min: 1, max: 100000 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom architecture: how many layers are linear",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "count",
        #[cfg(not(target_arch = "wasm32"))]
        default: "none",
        link_default: None,
    },
    KeySpec {
        key: Key::LinearKHeads,
        name: "linear_k_heads",
        group: Group::CustomModel,
        value: ValueKind::Whole { min: 1, max: 1000000 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom architecture: linear key heads (Mamba-2: groups)",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "count",
        #[cfg(not(target_arch = "wasm32"))]
        default: "1",
        link_default: None,
    },
    KeySpec {
        key: Key::LinearVHeads,
        name: "linear_v_heads",
        group: Group::CustomModel,
        value: ValueKind::Whole { min: 1, max: 1000000 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom architecture: linear value heads",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "count",
        #[cfg(not(target_arch = "wasm32"))]
        default: "1",
        link_default: None,
    },
    KeySpec {
        key: Key::LinearKDim,
        name: "linear_k_dim",
        group: Group::CustomModel,
        value: ValueKind::Whole { min: 1, max: 1000000 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom architecture: linear key width (Mamba-2: state size)",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "count",
        #[cfg(not(target_arch = "wasm32"))]
        default: "1",
        link_default: None,
    },
    KeySpec {
        key: Key::LinearVDim,
        name: "linear_v_dim",
        group: Group::CustomModel,
        value: ValueKind::Whole { min: 1, max: 1000000 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom architecture: linear value width",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "count",
        #[cfg(not(target_arch = "wasm32"))]
        default: "1",
        link_default: None,
    },
    KeySpec {
        key: Key::LinearConv,
        name: "linear_conv",
        group: Group::CustomModel,
        value: ValueKind::Whole { min: 0, max: 1024 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "custom architecture: the linear layers' convolution width",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "count",
        #[cfg(not(target_arch = "wasm32"))]
        default: "4",
        link_default: None,
    },
    KeySpec {
        key: Key::Quant,
        name: "quant",
        group: Group::Model,
        value: ValueKind::Id,
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "weight format id (`q4_k_m`, `q8_0`, `f16`, `mxfp4`, `awq-4bit`, `mlx-4bit` …); one the scenario cannot run is an error naming `quant`: a format the `engine=` named does not load, an MLX format off Apple (on a Mac it picks `backend=mlx`); a format none of the listed engines loads (AWQ, GPTQ, EXL3, bitsandbytes, FP8, NVFP4) is estimated without `engine=`, with a note naming the runtimes that run it",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "`q4_k_m` (custom models too)",
        link_default: Some(super::DEFAULT_QUANT),
    },
    KeySpec {
        key: Key::Bpw,
        name: "bpw",
        group: Group::Model,
        value: ValueKind::Positive { min: 0.5, max: 64.0 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "bits per weight instead of a format (EXL2 at any bpw: `bpw=4.65`)",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "bits",
        #[cfg(not(target_arch = "wasm32"))]
        default: "",
        link_default: None,
    },
    KeySpec {
        key: Key::Weights,
        name: "weights",
        group: Group::Model,
        value: ValueKind::Size,
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "weight file size instead of a format",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "`19GB`, `4.58GiB`, `512MiB`; a bare number is GB",
        #[cfg(not(target_arch = "wasm32"))]
        default: "",
        link_default: None,
    },
    KeySpec {
        key: Key::Ctx,
        name: "ctx",
        group: Group::Context,
        value: ValueKind::Tokens { min: 0, max: 100_000_000 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "tokens in context when generating",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "tokens, 0–100,000,000; `32k` = 32,768, `128K` = 131,072, `1M` = 1,048,576",
        #[cfg(not(target_arch = "wasm32"))]
        default: "4096",
        link_default: Some("4096"),
    },
    KeySpec {
        key: Key::Kv,
        name: "kv",
        group: Group::Context,
        value: ValueKind::Id,
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "KV-cache element type: `f16`, `bf16`, `q8_0`, `q4_0`, `fp8`",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "`f16`",
        link_default: Some(super::DEFAULT_KV),
    },
    KeySpec {
        key: Key::Fa,
        name: "fa",
        group: Group::Context,
        value: ValueKind::Choice(&["on", "off"]),
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "flash attention: `off` reads the KV cache at the slower rate fitted on runs without it (`-fa 0`), which costs more the deeper the context",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "`on`",
        link_default: None,
    },
    KeySpec {
        key: Key::GpuFrac,
        name: "gpu_frac",
        group: Group::Context,
        value: ValueKind::Share { min: 0.0, max: 1.0 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "share of weight bytes in the machine's own memory (VRAM; unified memory or RAM elsewhere); the rest is read from system RAM on a GPU machine, from disk otherwise; more than fits is capped, with a note. llama.cpp's `-ngl N` of L layers is N/L of the layers' bytes, its output head staying in RAM (`tokbound diagnose` reads it so); placed automatically, a model that spills keeps its head in RAM likewise",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "0–1",
        #[cfg(not(target_arch = "wasm32"))]
        default: "as much as fits",
        link_default: None,
    },
    KeySpec {
        key: Key::RamBw,
        name: "ram_bw",
        group: Group::Context,
        value: ValueKind::Positive { min: 0.01, max: BIG },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "bandwidth of the pool holding the rest",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "GB/s",
        #[cfg(not(target_arch = "wasm32"))]
        default: "89.6 (dual-channel DDR5-5600)",
        link_default: None,
    },
    KeySpec {
        key: Key::Ram,
        name: "ram",
        group: Group::Context,
        value: ValueKind::Positive { min: 0.01, max: BIG },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "system RAM of a discrete-GPU machine: what does not fit VRAM goes there, and what fits neither is read from disk (ignored, with a note, on Apple, SoC and CPU machines, whose memory is their RAM)",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "GiB",
        #[cfg(not(target_arch = "wasm32"))]
        default: "64",
        link_default: None,
    },
    KeySpec {
        key: Key::Offload,
        name: "offload",
        group: Group::Context,
        value: ValueKind::Choice(&["experts", "none"]),
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "`experts`: routed MoE experts in RAM, the rest in VRAM; `none`",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "none",
        link_default: None,
    },
    KeySpec {
        key: Key::CpuMoe,
        name: "cpu_moe",
        group: Group::Context,
        value: ValueKind::Whole { min: 0, max: 10_000 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "the first N layers keep their routed experts in system RAM, the later layers' experts stay in VRAM (llama.cpp's `--n-cpu-moe N`); implies `offload=experts`; leading dense layers have no experts to move; needs a mixture of experts with its layer count",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "layers",
        #[cfg(not(target_arch = "wasm32"))]
        default: "every layer (with `offload=experts`)",
        link_default: None,
    },
    KeySpec {
        key: Key::Tp,
        name: "tp",
        group: Group::Context,
        value: ValueKind::Whole { min: 1, max: 64 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "tensor-parallel devices (bandwidths add, × 0.9 for the interconnect)",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "1–64",
        #[cfg(not(target_arch = "wasm32"))]
        default: "1",
        link_default: Some("1"),
    },
    KeySpec {
        key: Key::Split,
        name: "split",
        group: Group::Context,
        value: ValueKind::Whole { min: 1, max: 64 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "layer-split devices (capacity adds, speed does not)",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "1–64",
        #[cfg(not(target_arch = "wasm32"))]
        default: "1",
        link_default: Some("1"),
    },
    KeySpec {
        key: Key::With,
        name: "with",
        group: Group::Context,
        value: ValueKind::IdList,
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "further catalog GPUs holding layers beside `hw`, comma-separated (`with=rtx-4060-ti-16g`), in a layer split as llama.cpp's `--tensor-split`: each device's share of the layers is read at its own bandwidth, one after the other, so the token's time is the sum of each device's bytes over its bandwidth, plus its fixed costs times a multiplier fitted on measured splits, and each is a pool of its own (`VRAM (RTX 3090)`); with `split`, `tp`, an id that is not a GPU, or a device that cannot run the backend, it is an error",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "none",
        link_default: None,
    },
    KeySpec {
        key: Key::TensorSplit,
        name: "tensor_split",
        group: Group::Context,
        value: ValueKind::Ratios,
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "the layer split's proportions over `hw` and the `with` devices, as llama.cpp's `--tensor-split` (`24,16`); as many as devices",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "in proportion to each device's memory",
        link_default: None,
    },
    KeySpec {
        key: Key::Batch,
        name: "batch",
        group: Group::Batching,
        value: ValueKind::Whole { min: 1, max: 4096 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "concurrent streams sharing each weight read",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "1–4096",
        #[cfg(not(target_arch = "wasm32"))]
        default: "single stream (no batch result)",
        link_default: None,
    },
    KeySpec {
        key: Key::Draft,
        name: "draft",
        group: Group::Batching,
        value: ValueKind::Id,
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "draft model id for speculative decoding, at the target's format",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "none",
        link_default: None,
    },
    KeySpec {
        key: Key::DraftWeights,
        name: "draft_weights",
        group: Group::Batching,
        value: ValueKind::Size,
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "draft size instead of an id",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "size",
        #[cfg(not(target_arch = "wasm32"))]
        default: "",
        link_default: None,
    },
    KeySpec {
        key: Key::K,
        name: "k",
        group: Group::Batching,
        value: ValueKind::Whole { min: 1, max: 32 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "draft length: tokens proposed per verify step",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "1–32",
        #[cfg(not(target_arch = "wasm32"))]
        default: "4",
        link_default: Some("4"),
    },
    KeySpec {
        key: Key::Accept,
        name: "accept",
        group: Group::Batching,
        value: ValueKind::Share { min: 0.0, max: 1.0 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "probability each drafted token is accepted",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "0–1",
        #[cfg(not(target_arch = "wasm32"))]
        default: "0.7",
        link_default: Some("0.7"),
    },
    KeySpec {
        key: Key::Prompt,
        name: "prompt",
        group: Group::Batching,
        value: ValueKind::Tokens { min: 0, max: 10_000_000 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "prompt tokens, for time to first token",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "tokens",
        #[cfg(not(target_arch = "wasm32"))]
        default: "1024",
        link_default: Some("1024"),
    },
    KeySpec {
        key: Key::Target,
        name: "target",
        group: Group::Targets,
        value: ValueKind::Positive { min: 0.001, max: 1e6 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "a target speed: machines whose expected speed reaches it (and that fit) are marked, and the headline says the best format and the longest context that still reach it here",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "tok/s",
        #[cfg(not(target_arch = "wasm32"))]
        default: "none",
        link_default: None,
    },
    KeySpec {
        key: Key::MinTokS,
        name: "min_tok_s",
        group: Group::Targets,
        value: ValueKind::Share { min: 0.0, max: 1e6 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "the model table shows only models expected at least this fast on this machine",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "tok/s",
        #[cfg(not(target_arch = "wasm32"))]
        default: "0 (every model)",
        link_default: Some("0"),
    },
    KeySpec {
        key: Key::Machines,
        name: "machines",
        group: Group::Targets,
        value: ValueKind::Choice(&MACHINE_SETS),
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "which machines the machine table and charts show: `curated` (the hand-checked catalog) or `all` (every GPU of the long tail too, docs/catalog.md)",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "`curated`",
        link_default: Some("curated"),
    },
    KeySpec {
        key: Key::KwhPrice,
        name: "kwh_price",
        group: Group::Targets,
        value: ValueKind::Share { min: 0.0, max: 100_000.0 },
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "the price of a kWh of electricity in your own currency (shown without a symbol), for the cost of a million generated tokens",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "per kWh",
        #[cfg(not(target_arch = "wasm32"))]
        default: "0.30",
        link_default: Some("0.3"),
    },
    KeySpec {
        key: Key::Rank,
        name: "rank",
        group: Group::Targets,
        value: ValueKind::Choice(&["speed", "cost"]),
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "how the levers are ranked: `speed` (the expected figure) or `cost` (the electricity cost of a million tokens, cheapest first; levers without a power figure last)",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "`speed`",
        link_default: Some("speed"),
    },
    KeySpec {
        key: Key::Embed,
        name: "embed",
        group: Group::Page,
        value: ValueKind::Flag,
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "`1`: the compact embed view (headline plus `view`), with a link to the full page",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "the full page",
        link_default: None,
    },
    KeySpec {
        key: Key::View,
        name: "view",
        group: Group::Page,
        value: ValueKind::List(&EMBED_VIEWS),
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "what an embed shows, in order: `headline`, `machines`, `context`, `quants`, `spill`, `batch`, `spec`, `table` (every machine), `models` (every model on this machine), `levers` (what would make it faster)",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "comma-separated",
        #[cfg(not(target_arch = "wasm32"))]
        default: "the headline",
        link_default: None,
    },
    KeySpec {
        key: Key::Theme,
        name: "theme",
        group: Group::Page,
        value: ValueKind::Choice(&THEMES),
        #[cfg(not(target_arch = "wasm32"))]
        meaning: "the page's colours: `light`, `dark`, or `auto` (the reader's own preference); applied to the frame painted before the page loads, the page and the charts",
        #[cfg(not(target_arch = "wasm32"))]
        unit: "",
        #[cfg(not(target_arch = "wasm32"))]
        default: "`light` in an embed (`embed=1`), `auto` on the full page",
        link_default: None,
    },
];

impl Group {
    /// Every group, in the order docs/scenario.md lists them.
    pub const ALL: [Group; 8] = [
        Group::Link,
        Group::Machine,
        Group::Model,
        Group::CustomModel,
        Group::Context,
        Group::Batching,
        Group::Targets,
        Group::Page,
    ];
}

impl KeySpec {
    /// This key's row in docs/scenario.md.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn docs_row(&self) -> String {
        format!("| `{}` | {} | {} | {} |", self.name, self.meaning, self.unit, self.default)
    }

    /// Scenario keys are the estimate's inputs; page keys only change how the page shows it.
    pub fn scope(&self) -> Scope {
        match self.group {
            Group::Page => Scope::Page,
            _ => Scope::Scenario,
        }
    }
}

impl Key {
    /// This key's definition.
    pub fn spec(self) -> &'static KeySpec {
        // KEYS is in Key order (a test checks).
        &KEYS[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The key a link's name stands for.
    pub fn named(name: &str) -> Option<Key> {
        KEYS.iter().find(|k| k.name == name).map(|k| k.key)
    }

    /// Every key, in link order.
    pub fn all() -> impl Iterator<Item = Key> {
        KEYS.iter().map(|k| k.key)
    }

    /// The known key nearest to an unknown name, if one is close (`ctxx` → `ctx`), or the key a
    /// common longer word stands for (`context` → `ctx`).
    pub fn nearest(name: &str) -> Option<Key> {
        let lower = name.to_ascii_lowercase();
        if let Some((_, key)) = ALIASES.iter().find(|(word, _)| *word == lower) {
            return Some(*key);
        }
        KEYS.iter()
            .map(|k| (crate::catalog::edit_distance(name, k.name), k.key))
            .filter(|(d, k)| *d <= (k.name().len() / 3).max(1))
            .min_by_key(|(d, _)| *d)
            .map(|(_, k)| k)
    }
}

/// Words people write for a key, answered with "did you mean …?" (never read as the key).
const ALIASES: &[(&str, Key)] = &[
    ("context", Key::Ctx),
    ("context_length", Key::Ctx),
    ("n_ctx", Key::Ctx),
    ("c", Key::Ctx),
    ("bandwidth", Key::Bw),
    ("memory", Key::Mem),
    ("vram", Key::Mem),
    ("gpu", Key::Hw),
    ("machine", Key::Hw),
    ("hardware", Key::Hw),
    ("device", Key::Hw),
    ("quantization", Key::Quant),
    ("q", Key::Quant),
    ("format", Key::Quant),
    ("kv_cache", Key::Kv),
    ("cache_type", Key::Kv),
    ("ngl", Key::GpuFrac),
    ("draft_model", Key::Draft),
];

/// A key's value, parsed.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Number(f64),
    Whole(u32),
    Text(String),
    Size(super::Size),
    Kind(Kind),
    Flag(bool),
    List(Vec<String>),
}

impl Value {
    /// The value as a link writes it (numbers in their shortest exact form).
    pub fn text(&self) -> String {
        match self {
            Value::Number(v) => format!("{v}"),
            Value::Whole(v) => v.to_string(),
            Value::Text(t) => t.clone(),
            Value::Size(s) => s.to_string(),
            Value::Kind(k) => k.id().to_string(),
            Value::Flag(f) => if *f { "1" } else { "0" }.to_string(),
            Value::List(l) => l.join(","),
        }
    }
}

impl ValueKind {
    /// Parses a value of this kind from its text, or says what is wrong with it.
    pub fn parse(self, text: &str) -> Result<Value, String> {
        use crate::text::units;
        let t = text.trim();
        Ok(match self {
            ValueKind::Version => {
                if t != super::FORMAT_VERSION {
                    return Err(format!("is not a known version; reading as {}", super::FORMAT_VERSION));
                }
                Value::Text(t.to_string())
            }
            ValueKind::Id => Value::Text(id(t)?),
            ValueKind::Positive { min, max } => Value::Number(units::positive(text, min, max)?),
            ValueKind::Share { min, max } => Value::Number(units::number_in(text, min, max)?),
            ValueKind::Whole { min, max } => Value::Whole(units::whole(text, min, max)?),
            ValueKind::Tokens { min, max } => Value::Whole(units::tokens(text, min, max)?),
            ValueKind::Size => Value::Size(super::Size::parse(text)?),
            ValueKind::Kind => Value::Kind(Kind::parse(t).ok_or_else(|| format!("\"{}\" is not gpu, apple, soc or cpu", shorten(t)))?),
            ValueKind::Choice(words) => {
                if !words.contains(&t) {
                    return Err(format!("\"{}\" is not {}", shorten(t), or_list(words)));
                }
                Value::Text(t.to_string())
            }
            ValueKind::Flag => Value::Flag(match t {
                "1" | "true" => true,
                "0" | "false" => false,
                _ => return Err(format!("\"{}\" is not 1 or 0", shorten(t))),
            }),
            ValueKind::Calibration => {
                crate::calibration::user::parse_cal(t)?;
                Value::Text(t.to_string())
            }
            ValueKind::HubSource => {
                crate::import::hub::Source::parse_key(t)?;
                Value::Text(t.to_string())
            }
            ValueKind::IdList => Value::List(t.split(',').map(|w| id(w.trim())).collect::<Result<_, _>>()?),
            ValueKind::Ratios => {
                let parts: Vec<&str> = t.split([',', '/']).map(str::trim).collect();
                for p in &parts {
                    units::positive(p, 1e-9, 1e9)?;
                }
                Value::List(parts.into_iter().map(str::to_string).collect())
            }
            ValueKind::List(words) => Value::List(
                t.split(',')
                    .map(str::trim)
                    .filter(|w| words.contains(w))
                    .map(str::to_string)
                    .collect(),
            ),
        })
    }
}

/// "a, b or c".
fn or_list(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// A catalog id as typed, or why it cannot be one.
fn id(t: &str) -> Result<String, String> {
    if t.is_empty() {
        return Err("is empty".into());
    }
    if t.len() > 64
        || !t
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_' | '.'))
    {
        return Err(format!("\"{}\" is not a catalog id (lowercase letters, digits, - _ .)", shorten(t)));
    }
    Ok(t.to_string())
}
