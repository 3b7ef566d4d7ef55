//! Every key a tokbound link can carry, defined once: its name, the kind of value it takes, its
//! default and its line in docs/scenario.md. The codec, the CLI, the form and the docs test all
//! read this table, so a key that is not here does not exist, and a misspelled [`Key`] is a
//! compile error.

use crate::estimator::Kind;

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
    Model,
    Params,
    Active,
    Layers,
    KvHeads,
    HeadDim,
    Quant,
    Bpw,
    Weights,
    Ctx,
    Kv,
    GpuFrac,
    RamBw,
    Offload,
    Tp,
    Split,
    Batch,
    Draft,
    DraftWeights,
    K,
    Accept,
    Prompt,
    Embed,
    View,
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
    Context,
    Batching,
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
}

/// One key's definition.
#[derive(Clone, Copy, Debug)]
pub struct KeySpec {
    pub key: Key,
    pub name: &'static str,
    pub group: Group,
    pub value: ValueKind,
    /// What the key means, as docs/scenario.md says it.
    pub meaning: &'static str,
    /// Its unit or range, for the docs.
    pub unit: &'static str,
    /// What applies when it is not given, for the docs.
    pub default: &'static str,
    /// The value a link leaves out because it is the default, if any.
    pub link_default: Option<&'static str>,
}

/// The views an embed can show besides the headline.
pub const EMBED_VIEWS: &[&str] = &["headline", "machines", "context", "quants", "spill", "batch", "spec", "table"];

const BIG: f64 = 100_000.0;

/// Every key, in [`Key`] order.
pub const KEYS: &[KeySpec] = &[
    KeySpec {
        key: Key::V,
        name: "v",
        group: Group::Link,
        value: ValueKind::Version,
        meaning: "link format version, written first",
        unit: "",
        default: "1",
        link_default: None,
    },
    KeySpec {
        key: Key::Hw,
        name: "hw",
        group: Group::Machine,
        value: ValueKind::Id,
        meaning: "catalog machine id (`rtx-4090`, `m2-ultra-76c`, `ddr5-5600-2ch`)",
        unit: "",
        default: "`rtx-4090`",
        link_default: Some("rtx-4090"),
    },
    KeySpec {
        key: Key::Bw,
        name: "bw",
        group: Group::Machine,
        value: ValueKind::Positive { min: 0.01, max: BIG },
        meaning: "peak memory bandwidth; without `hw`, makes a custom machine; with `hw`, overrides it",
        unit: "decimal GB/s (1e9 B/s), 0 < bw ≤ 100000",
        default: "the machine's",
        link_default: None,
    },
    KeySpec {
        key: Key::Mem,
        name: "mem",
        group: Group::Machine,
        value: ValueKind::Positive { min: 0.01, max: BIG },
        meaning: "memory",
        unit: "GiB as marketed (`mem=24` is 24 GiB)",
        default: "the machine's; unknown for a custom machine",
        link_default: None,
    },
    KeySpec {
        key: Key::Kind,
        name: "kind",
        group: Group::Machine,
        value: ValueKind::Kind,
        meaning: "`gpu`, `apple`, `soc` or `cpu` (picks the calibration class)",
        unit: "",
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
        meaning: "dense FP16 tensor TFLOPS (FP32 accumulate), for prefill and batching",
        unit: "TFLOPS",
        default: "the machine's, if known",
        link_default: None,
    },
    KeySpec {
        key: Key::Usable,
        name: "usable",
        group: Group::Machine,
        value: ValueKind::Share { min: 0.01, max: 1.0 },
        meaning: "share of memory the model may use",
        unit: "0.01–1",
        default: "Apple 0.75, otherwise 1",
        link_default: None,
    },
    KeySpec {
        key: Key::Model,
        name: "model",
        group: Group::Model,
        value: ValueKind::Id,
        meaning: "catalog model id (`qwen2.5-32b`, `deepseek-v3`, `gpt-oss-120b`)",
        unit: "",
        default: "`qwen2.5-32b`",
        link_default: Some("qwen2.5-32b"),
    },
    KeySpec {
        key: Key::Params,
        name: "params",
        group: Group::Model,
        value: ValueKind::Positive { min: 0.0001, max: BIG },
        meaning: "custom model: total parameters",
        unit: "billions",
        default: "",
        link_default: None,
    },
    KeySpec {
        key: Key::Active,
        name: "active",
        group: Group::Model,
        value: ValueKind::Positive { min: 0.0001, max: BIG },
        meaning: "custom model: active parameters per token (MoE)",
        unit: "billions",
        default: "= `params`",
        link_default: None,
    },
    KeySpec {
        key: Key::Layers,
        name: "layers",
        group: Group::Model,
        value: ValueKind::Whole { min: 1, max: 1000 },
        meaning: "custom model: layers, for the KV cache",
        unit: "count",
        default: "KV not modelled",
        link_default: None,
    },
    KeySpec {
        key: Key::KvHeads,
        name: "kv_heads",
        group: Group::Model,
        value: ValueKind::Whole { min: 1, max: 1024 },
        meaning: "custom model: KV heads per layer, for the KV cache",
        unit: "count",
        default: "KV not modelled",
        link_default: None,
    },
    KeySpec {
        key: Key::HeadDim,
        name: "head_dim",
        group: Group::Model,
        value: ValueKind::Whole { min: 1, max: 4096 },
        meaning: "custom model: width of one head, for the KV cache",
        unit: "count",
        default: "KV not modelled",
        link_default: None,
    },
    KeySpec {
        key: Key::Quant,
        name: "quant",
        group: Group::Model,
        value: ValueKind::Id,
        meaning: "weight format id (`q4_k_m`, `q8_0`, `f16`, `mxfp4`, `awq-4bit`, `mlx-4bit` …)",
        unit: "",
        default: "`q4_k_m` (custom models too)",
        link_default: Some("q4_k_m"),
    },
    KeySpec {
        key: Key::Bpw,
        name: "bpw",
        group: Group::Model,
        value: ValueKind::Positive { min: 0.5, max: 64.0 },
        meaning: "bits per weight instead of a format (EXL2 at any bpw: `bpw=4.65`)",
        unit: "bits",
        default: "",
        link_default: None,
    },
    KeySpec {
        key: Key::Weights,
        name: "weights",
        group: Group::Model,
        value: ValueKind::Size,
        meaning: "weight file size instead of a format",
        unit: "`19GB`, `4.58GiB`, `512MiB`; a bare number is GB",
        default: "",
        link_default: None,
    },
    KeySpec {
        key: Key::Ctx,
        name: "ctx",
        group: Group::Context,
        value: ValueKind::Whole { min: 0, max: 100_000_000 },
        meaning: "tokens in context when generating",
        unit: "tokens, 0–100,000,000",
        default: "4096",
        link_default: Some("4096"),
    },
    KeySpec {
        key: Key::Kv,
        name: "kv",
        group: Group::Context,
        value: ValueKind::Id,
        meaning: "KV-cache element type: `f16`, `bf16`, `q8_0`, `q4_0`, `fp8`",
        unit: "",
        default: "`f16`",
        link_default: Some("f16"),
    },
    KeySpec {
        key: Key::GpuFrac,
        name: "gpu_frac",
        group: Group::Context,
        value: ValueKind::Share { min: 0.0, max: 1.0 },
        meaning: "share of weight bytes in VRAM (GPU machines)",
        unit: "0–1",
        default: "as much as fits",
        link_default: None,
    },
    KeySpec {
        key: Key::RamBw,
        name: "ram_bw",
        group: Group::Context,
        value: ValueKind::Positive { min: 0.01, max: BIG },
        meaning: "bandwidth of the pool holding the rest",
        unit: "GB/s",
        default: "89.6 (dual-channel DDR5-5600)",
        link_default: None,
    },
    KeySpec {
        key: Key::Offload,
        name: "offload",
        group: Group::Context,
        value: ValueKind::Choice(&["experts", "none"]),
        meaning: "`experts`: routed MoE experts in RAM, the rest in VRAM; `none`",
        unit: "",
        default: "none",
        link_default: None,
    },
    KeySpec {
        key: Key::Tp,
        name: "tp",
        group: Group::Context,
        value: ValueKind::Whole { min: 1, max: 64 },
        meaning: "tensor-parallel devices (bandwidths add, × 0.9 for the interconnect)",
        unit: "1–64",
        default: "1",
        link_default: Some("1"),
    },
    KeySpec {
        key: Key::Split,
        name: "split",
        group: Group::Context,
        value: ValueKind::Whole { min: 1, max: 64 },
        meaning: "layer-split devices (capacity adds, speed does not)",
        unit: "1–64",
        default: "1",
        link_default: Some("1"),
    },
    KeySpec {
        key: Key::Batch,
        name: "batch",
        group: Group::Batching,
        value: ValueKind::Whole { min: 1, max: 4096 },
        meaning: "concurrent streams sharing each weight read",
        unit: "1–4096",
        default: "single stream (no batch result)",
        link_default: None,
    },
    KeySpec {
        key: Key::Draft,
        name: "draft",
        group: Group::Batching,
        value: ValueKind::Id,
        meaning: "draft model id for speculative decoding, at the target's format",
        unit: "",
        default: "none",
        link_default: None,
    },
    KeySpec {
        key: Key::DraftWeights,
        name: "draft_weights",
        group: Group::Batching,
        value: ValueKind::Size,
        meaning: "draft size instead of an id",
        unit: "size",
        default: "",
        link_default: None,
    },
    KeySpec {
        key: Key::K,
        name: "k",
        group: Group::Batching,
        value: ValueKind::Whole { min: 1, max: 32 },
        meaning: "draft length: tokens proposed per verify step",
        unit: "1–32",
        default: "4",
        link_default: Some("4"),
    },
    KeySpec {
        key: Key::Accept,
        name: "accept",
        group: Group::Batching,
        value: ValueKind::Share { min: 0.0, max: 1.0 },
        meaning: "probability each drafted token is accepted",
        unit: "0–1",
        default: "0.7",
        link_default: Some("0.7"),
    },
    KeySpec {
        key: Key::Prompt,
        name: "prompt",
        group: Group::Batching,
        value: ValueKind::Whole { min: 0, max: 10_000_000 },
        meaning: "prompt tokens, for time to first token",
        unit: "tokens",
        default: "1024",
        link_default: Some("1024"),
    },
    KeySpec {
        key: Key::Embed,
        name: "embed",
        group: Group::Page,
        value: ValueKind::Flag,
        meaning: "`1`: the compact embed view (headline plus `view`), with a link to the full page",
        unit: "",
        default: "the full page",
        link_default: None,
    },
    KeySpec {
        key: Key::View,
        name: "view",
        group: Group::Page,
        value: ValueKind::List(EMBED_VIEWS),
        meaning: "what an embed shows, in order: `headline`, `machines`, `context`, `quants`, `spill`, `batch`, `spec`, `table`",
        unit: "comma-separated",
        default: "the headline",
        link_default: None,
    },
];

impl KeySpec {
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

    /// The known key nearest to an unknown name, if one is close (`ctxx` → `ctx`).
    pub fn nearest(name: &str) -> Option<Key> {
        KEYS.iter()
            .map(|k| (crate::catalog::edit_distance(name, k.name), k.key))
            .filter(|(d, k)| *d <= (k.name().len() / 3).max(1))
            .min_by_key(|(d, _)| *d)
            .map(|(_, k)| k)
    }
}

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
        use crate::units;
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

/// Cuts long user text in messages so a hostile URL cannot flood the page.
pub fn shorten(t: &str) -> String {
    if t.chars().count() > 40 {
        format!("{}…", t.chars().take(40).collect::<String>())
    } else {
        t.to_string()
    }
}
