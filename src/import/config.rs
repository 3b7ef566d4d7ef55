//! Hugging Face `config.json` → a custom model's [`Arch`].
//!
//! Fields read (Hugging Face transformers configuration classes; a multimodal config's nested
//! `text_config` object is searched first, then the top level):
//!
//! | field | meaning | when absent |
//! | --- | --- | --- |
//! | `num_hidden_layers`, `hidden_size`, `num_attention_heads`, `vocab_size` | the shape | error |
//! | `num_key_value_heads` | K/V heads (GQA) | = attention heads (plain multi-head), noted |
//! | `head_dim` | width of one head | `hidden_size / num_attention_heads`, noted |
//! | `tie_word_embeddings` | output head shares the embedding table | false (true for the Gemma family, whose transformers classes default to tied), noted |
//! | `intermediate_size` | dense MLP width | 0, noted |
//! | `num_local_experts` / `num_experts` / `n_routed_experts` | routed experts per MoE layer (Mixtral / Qwen / DeepSeek spelling) | dense model |
//! | `num_experts_per_tok` (`experts_per_token`, gpt-oss) | top-k | 1, noted |
//! | `moe_intermediate_size` | one expert's width | `intermediate_size`: Mixtral and gpt-oss put the expert width there |
//! | `n_shared_experts`, `shared_expert_intermediate_size` | always-on shared expert(s) | none; total width = count × expert width when only the count is given (DeepSeek) |
//! | `first_k_dense_replace` | leading dense layers of an MoE (DeepSeek) | 0 |
//! | `sliding_window` + `layer_types` / `sliding_window_pattern` / `use_sliding_window` | sliding-window layers | see below |
//! | `kv_lora_rank`, `q_lora_rank`, `qk_rope_head_dim`, `qk_nope_head_dim`, `v_head_dim` | multi-head latent attention (DeepSeek-V2/V3) | not MLA; `q_lora_rank: null` means no query LoRA (0) |
//! | `layer_types` "linear_attention" or `full_attention_interval`, `linear_num_value_heads` × `linear_key_head_dim` × `linear_value_head_dim` | linear-attention layers and their state (Qwen3-Next) | none |
//!
//! Sliding window: `sliding_window` null, 0 or absent, or `use_sliding_window: false` (Qwen2)
//! means full attention. Otherwise the sliding layers are, in order of preference: the
//! `layer_types` entries equal to "sliding_attention" (gpt-oss, newer transformers); for
//! `sliding_window_pattern` N, N−1 of every N layers (Gemma 3: layer i is full when (i+1) % N = 0);
//! for `model_type` "gemma2", every other layer (transformers' Gemma2 alternates, and its
//! config.json carries no pattern); otherwise every layer (Mistral 7B v0.1), noted.
//!
//! The text is read with serde_json into a `serde_json::Value` and each field is then taken from
//! it by name, so an error names its field and a field of an unexpected kind is reported, never
//! skipped. (A derived struct of the same fields was measured at 11–12 KB gzipped more in the
//! page: docs/performance.md.)
//!
//! Numbers must be whole and within 0..=u32::MAX; anything else is an error naming the field.
//! Assumptions and fields that could not be used are listed in plain words in
//! [`ImportedConfig::unread`] so the page can show them.

use serde_json::Value;

type Object = serde_json::Map<String, Value>;

use crate::estimator::arch::{Arch, Attention, Linear, LinearKind};
use crate::text::shorten;

/// A custom model read from a config.json.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportedConfig {
    /// `_name_or_path`, else `model_type`.
    pub name: Option<String>,
    pub arch: Arch,
    /// [`Arch::total_params`] in billions.
    pub params_b: f64,
    /// Parameters one decode token passes through ([`Arch::read_params_per_token`]), in billions:
    /// the unused routed experts and the input embedding (one row is read) left out. Model cards
    /// differ on the embedding: gpt-oss leaves it out, Mixtral's 12.9B counts it.
    pub active_params_b: f64,
    /// What could not be read, or was assumed, in plain words.
    pub unread: Vec<String>,
}

/// Model types whose transformers configuration defaults `tie_word_embeddings` to true.
const TIED_BY_DEFAULT: &[&str] = &["gemma", "gemma2", "gemma3", "gemma3_text"];

/// Reads a config.json's text. Errors name the offending field.
pub fn from_config_json(text: &str) -> Result<ImportedConfig, String> {
    let root: Value = serde_json::from_str(text).map_err(|e| format!("config.json is not valid JSON: {e}"))?;
    let root = root.as_object().ok_or("config.json is not a JSON object")?;
    let text_config = match root.get("text_config") {
        None | Some(Value::Null) => None,
        Some(Value::Object(m)) => Some(m),
        Some(_) => return Err("text_config: not an object".into()),
    };
    let c = Fields { text: text_config, root };
    let mut unread = Vec::new();

    let blocks = c.required_count("num_hidden_layers")?;
    let hidden = c.required_count("hidden_size")?;
    let heads = c.required_count("num_attention_heads")?;
    let vocab = c.required_count("vocab_size")?;
    for (field, v) in [
        ("num_hidden_layers", blocks),
        ("hidden_size", hidden),
        ("num_attention_heads", heads),
        ("vocab_size", vocab),
    ] {
        if v == 0 {
            return Err(format!("{field}: must be at least 1"));
        }
    }
    let model_type = c.string("model_type")?;
    let pattern = c.string("hybrid_override_pattern")?;
    let (layers, mlp_blocks) = layer_count(pattern.as_deref(), blocks, &mut unread)?;
    let mlp_gated = !matches!(c.string("mlp_hidden_act")?.or(c.string("hidden_act")?).as_deref(), Some("relu2"));

    let (kv_heads, tied_embeddings) = kv_heads_and_tying(&c, heads, model_type.as_deref(), &mut unread)?;
    let mlp = mlp_shape(&c, layers, mlp_blocks, &mut unread)?;
    let (attention, head_dim) = attention_kind(&c, pattern.as_deref(), layers, (hidden, heads), model_type.as_deref(), &mut unread)?;
    // Qwen3.5 says so in `attn_output_gate`; Qwen3-Next's attention always gates its output.
    let attn_gate = match c.flag("attn_output_gate")? {
        Some(g) => g,
        None => model_type.as_deref() == Some("qwen3_next"),
    };
    let arch = Arch {
        layers,
        hidden,
        heads,
        kv_heads,
        head_dim,
        vocab,
        tied_embeddings,
        intermediate: mlp.intermediate,
        mlp_gated,
        attn_gate,
        experts: mlp.experts,
        experts_per_token: mlp.experts_per_token,
        shared_experts: mlp.shared_experts,
        moe_intermediate: mlp.moe_intermediate,
        shared_intermediate: mlp.shared_intermediate,
        dense_layers: mlp.dense_layers,
        attention,
    };
    let name = match c.root_string("_name_or_path")?.filter(|s| !s.is_empty()) {
        Some(n) => Some(n),
        None => model_type,
    };
    Ok(ImportedConfig {
        name,
        params_b: arch.total_params() / 1e9,
        active_params_b: arch.read_params_per_token() / 1e9,
        arch,
        unread,
    })
}

/// The KV heads (all heads where not given: no grouped-query attention) and whether the output
/// reuses the input embedding (the transformers default for the model type where not given).
fn kv_heads_and_tying(c: &Fields, heads: u32, model_type: Option<&str>, unread: &mut Vec<String>) -> Result<(u32, bool), String> {
    let kv_heads = match c.count("num_key_value_heads")? {
        Some(0) => return Err("num_key_value_heads: must be at least 1".into()),
        Some(n) => n,
        None => {
            unread.push(format!(
                "num_key_value_heads: not given, using num_attention_heads ({heads}): no grouped-query attention"
            ));
            heads
        }
    };
    let tied_embeddings = match c.flag("tie_word_embeddings")? {
        Some(t) => t,
        None => {
            let tied = model_type.is_some_and(|t| TIED_BY_DEFAULT.contains(&t));
            unread.push(format!(
                "tie_word_embeddings: not given, assuming {tied} (the transformers default for this model type)"
            ));
            tied
        }
    };
    Ok((kv_heads, tied_embeddings))
}

/// Layers and MLP-only blocks. Nemotron-H writes its blocks as a pattern: `M` a Mamba-2 mixer,
/// `*` attention, `-` an MLP alone. A layer here is a block with a mixer; the MLP-only blocks
/// count as dense MLPs.
fn layer_count(pattern: Option<&str>, blocks: u32, unread: &mut Vec<String>) -> Result<(u32, Option<u32>), String> {
    let (layers, mlp_blocks) = match pattern {
        Some(p) => {
            let count = |ch: char| p.chars().filter(|c| *c == ch).count().min(u32::MAX as usize) as u32;
            if count('M') + count('*') + count('-') != p.chars().count().min(u32::MAX as usize) as u32 {
                return Err(format!(
                    "hybrid_override_pattern: expected only M, * and -, found \"{}\"",
                    shorten(p)
                ));
            }
            if p.chars().count() != blocks as usize {
                unread.push(format!("hybrid_override_pattern: {} blocks for {blocks} layers", p.chars().count()));
            }
            (count('M') + count('*'), Some(count('-')))
        }
        None => (blocks, None),
    };
    if layers == 0 {
        return Err("hybrid_override_pattern: no mixer layer (M or *)".into());
    }
    Ok((layers, mlp_blocks))
}

/// The MLP: a dense width, or a mixture of experts' counts and widths.
struct Mlp {
    intermediate: u32,
    experts: u32,
    experts_per_token: u32,
    shared_experts: u32,
    moe_intermediate: u32,
    shared_intermediate: u32,
    dense_layers: u32,
}

/// The MLP of `layers` layers (`mlp_blocks` MLP-only blocks of a hybrid pattern): dense, or a
/// mixture of experts with its routed, shared and dense widths.
fn mlp_shape(c: &Fields, layers: u32, mlp_blocks: Option<u32>, unread: &mut Vec<String>) -> Result<Mlp, String> {
    let intermediate_size = c.count("intermediate_size")?;
    let experts = c
        .first_count(&["num_local_experts", "num_experts", "n_routed_experts"])?
        .unwrap_or(0);
    let (mut intermediate, experts_per_token, moe_intermediate, shared_experts, shared_intermediate, dense_layers);
    if experts > 0 {
        experts_per_token = match c.first_count(&["num_experts_per_tok", "experts_per_token"])? {
            Some(k) => k,
            None => {
                unread.push("num_experts_per_tok: not given, assuming 1 expert per token".into());
                1
            }
        };
        if experts_per_token > experts {
            unread.push(format!("num_experts_per_tok ({experts_per_token}) exceeds the {experts} experts"));
        }
        intermediate = intermediate_size.unwrap_or(0);
        moe_intermediate = match c.count("moe_intermediate_size")? {
            Some(w) => w,
            // Mixtral and gpt-oss give the expert width as intermediate_size; then there is no
            // separate dense width.
            None => match intermediate_size {
                Some(w) => {
                    intermediate = 0;
                    w
                }
                None => return Err("moe_intermediate_size: missing (and no intermediate_size) for a mixture of experts".into()),
            },
        };
        let shared_width = c.count("shared_expert_intermediate_size")?.filter(|&w| w > 0);
        shared_experts = match c.count("n_shared_experts")? {
            Some(n) => n,
            None => u32::from(shared_width.is_some()),
        };
        shared_intermediate = match shared_width {
            Some(w) => w,
            None => shared_experts
                .checked_mul(moe_intermediate)
                .ok_or("n_shared_experts: shared width n_shared_experts × moe_intermediate_size overflows")?,
        };
        let mut dense = c.count("first_k_dense_replace")?.unwrap_or(0);
        if let Some(Value::Array(only_dense)) = c.get("mlp_only_layers") {
            if !only_dense.is_empty() {
                dense = dense.saturating_add(only_dense.len().min(u32::MAX as usize) as u32);
                unread.push(format!("mlp_only_layers: counting its {} layers as dense", only_dense.len()));
            }
        }
        dense_layers = dense.min(layers);
        for field in ["moe_layer_freq", "decoder_sparse_step"] {
            if let Some(step) = c.count(field)? {
                if step > 1 {
                    unread.push(format!(
                        "{field}: only every {step}th layer is an MoE layer; treating every layer as MoE"
                    ));
                }
            }
        }
    } else {
        intermediate = intermediate_size.unwrap_or_else(|| {
            unread.push("intermediate_size: not given, counting no MLP parameters".into());
            0
        });
        experts_per_token = 0;
        moe_intermediate = 0;
        shared_experts = 0;
        shared_intermediate = 0;
        dense_layers = mlp_blocks.unwrap_or(layers);
    }

    Ok(Mlp {
        intermediate,
        experts,
        experts_per_token,
        shared_experts,
        moe_intermediate,
        shared_intermediate,
        dense_layers,
    })
}

/// The attention kind — MLA, then linear-attention hybrids, then sliding windows — and the
/// head width.
fn attention_kind(
    c: &Fields,
    pattern: Option<&str>,
    layers: u32,
    (hidden, heads): (u32, u32),
    model_type: Option<&str>,
    unread: &mut Vec<String>,
) -> Result<(Attention, u32), String> {
    let mut head_dim = c.count("head_dim")?.or(c.count("attention_head_dim")?);
    let layer_types = c.layer_types()?;
    let attention = if let Some(kv_lora_rank) = c.count("kv_lora_rank")?.filter(|&r| r > 0) {
        let q_lora_rank = c.count("q_lora_rank")?.unwrap_or(0);
        let qk_rope_dim = c.required_count("qk_rope_head_dim")?;
        let qk_nope_dim = c.required_count("qk_nope_head_dim")?;
        let v_head_dim = c.required_count("v_head_dim")?;
        // MLA heads are nope + rope wide; a head_dim field, when present, is not used.
        head_dim = Some(
            qk_nope_dim
                .checked_add(qk_rope_dim)
                .ok_or("qk_nope_head_dim: qk_nope_head_dim + qk_rope_head_dim overflows")?,
        );
        Attention::Latent {
            kv_lora_rank,
            q_lora_rank,
            qk_rope_dim,
            qk_nope_dim,
            v_head_dim,
        }
    } else if let Some(linear) = linear_layers(c, &layer_types, pattern, layers, hidden, unread)? {
        if layer_types.iter().any(|t| t == "sliding_attention") {
            unread.push("layer_types: sliding-window layers beside linear-attention layers are counted as full attention".into());
        }
        Attention::HybridLinear(linear)
    } else {
        sliding_window(c, &layer_types, layers, model_type, unread)?
    };
    let head_dim = match head_dim {
        Some(0) => return Err("head_dim: must be at least 1".into()),
        Some(d) => d,
        None if hidden < heads => return Err("head_dim: not given, and hidden_size is smaller than num_attention_heads".into()),
        None => {
            let d = hidden / heads;
            let exact = if hidden % heads == 0 { "" } else { " (rounded down)" };
            unread.push(format!("head_dim: not given, using hidden_size / num_attention_heads = {d}{exact}"));
            d
        }
    };

    Ok((attention, head_dim))
}

/// The linear layers of a hybrid, or `None`. Gated DeltaNet (Qwen3-Next, Qwen3.5): `layer_types`
/// entries "linear_attention", else every layer but each `full_attention_interval`-th, with the
/// `linear_*` widths. Mamba-2: `layer_types` entries "mamba" (Granite 4.0-H) or the M blocks of
/// `hybrid_override_pattern` (Nemotron-H), with the `mamba_*` (or `ssm_state_size`, `n_groups`,
/// `conv_kernel`) widths.
fn linear_layers(
    c: &Fields,
    layer_types: &[String],
    pattern: Option<&str>,
    layers: u32,
    hidden: u32,
    unread: &mut Vec<String>,
) -> Result<Option<Linear>, String> {
    let counted = |name: &str| layer_types.iter().filter(|t| *t == name).count().min(layers as usize) as u32;
    let mamba = match pattern {
        Some(p) => p.chars().filter(|c| *c == 'M').count().min(layers as usize) as u32,
        None => counted("mamba"),
    };
    if mamba > 0 {
        let v_heads = width(c, unread, &["mamba_n_heads", "mamba_num_heads"], None)?;
        let expand = c.count("mamba_expand")?.unwrap_or(2);
        // Granite writes "auto" for d_inner ÷ heads.
        let d_head = match c.get("mamba_d_head") {
            Some(Value::String(auto)) if auto == "auto" => None,
            _ => c.count("mamba_d_head")?,
        };
        let v_dim = match d_head.or(c.count("mamba_head_dim")?) {
            Some(d) => d,
            // Granite writes "auto": d_inner ÷ heads, with d_inner = expand × hidden.
            None if v_heads > 0 => expand.saturating_mul(hidden) / v_heads,
            None => return Err("mamba_n_heads: must be at least 1".into()),
        };
        return Ok(Some(Linear {
            kind: LinearKind::Mamba2,
            layers: mamba,
            k_heads: width(c, unread, &["mamba_n_groups", "n_groups"], Some(1))?,
            v_heads,
            k_dim: width(c, unread, &["mamba_d_state", "ssm_state_size"], None)?,
            v_dim,
            conv: width(c, unread, &["mamba_d_conv", "conv_kernel"], Some(4))?,
        }));
    }
    let linear = match counted("linear_attention") {
        n if n > 0 => n,
        _ if !layer_types.is_empty() => return Ok(None),
        _ => match c.count("full_attention_interval")? {
            Some(n) if n > 1 && c.get("linear_num_value_heads").is_some() => {
                let linear = layers - layers / n;
                unread.push(format!(
                    "layer_types: not given, taking every {n}th layer as full attention and the other {linear} as linear attention (full_attention_interval)"
                ));
                linear
            }
            _ => return Ok(None),
        },
    };
    Ok(Some(Linear {
        kind: LinearKind::GatedDeltaNet,
        layers: linear,
        k_heads: width(c, unread, &["linear_num_key_heads"], None)?,
        v_heads: width(c, unread, &["linear_num_value_heads"], None)?,
        k_dim: width(c, unread, &["linear_key_head_dim"], None)?,
        v_dim: width(c, unread, &["linear_value_head_dim"], None)?,
        conv: width(c, unread, &["linear_conv_kernel_dim"], Some(4))?,
    }))
}

/// The first of `fields` given; else `default`, noted; else an error naming the first.
fn width(c: &Fields, unread: &mut Vec<String>, fields: &[&str], default: Option<u32>) -> Result<u32, String> {
    for f in fields {
        if let Some(v) = c.count(f)? {
            return Ok(v);
        }
    }
    match default {
        Some(d) => {
            unread.push(format!("{}: not given, assuming {d}", fields[0]));
            Ok(d)
        }
        None => Err(format!("{}: missing for the linear-attention layers", fields[0])),
    }
}

/// The sliding-window rule of the module docs.
fn sliding_window(
    c: &Fields,
    layer_types: &[String],
    layers: u32,
    model_type: Option<&str>,
    unread: &mut Vec<String>,
) -> Result<Attention, String> {
    let window = match c.count("sliding_window")? {
        Some(w) if w > 0 => w,
        _ => return Ok(Attention::Full),
    };
    if c.flag("use_sliding_window")? == Some(false) {
        return Ok(Attention::Full);
    }
    let swa_layers = if !layer_types.is_empty() {
        if layer_types.len() != layers as usize {
            unread.push(format!("layer_types: {} entries for {layers} layers", layer_types.len()));
        }
        layer_types
            .iter()
            .filter(|t| *t == "sliding_attention")
            .count()
            .min(layers as usize) as u32
    } else if let Some(n) = c.count("sliding_window_pattern")? {
        if n == 0 {
            return Err("sliding_window_pattern: must be at least 1".into());
        }
        layers - layers / n
    } else if model_type == Some("gemma2") {
        unread.push("sliding_window: Gemma 2 alternates sliding and full layers; counting every other layer as sliding".into());
        layers - layers / 2
    } else {
        unread.push("sliding_window: no layer pattern given, assuming every layer slides".into());
        layers
    };
    if swa_layers == 0 {
        return Ok(Attention::Full);
    }
    Ok(Attention::SlidingWindow { window, swa_layers })
}

/// Field lookup: the nested `text_config` first, then the top level.
struct Fields<'a> {
    text: Option<&'a Object>,
    root: &'a Object,
}

impl Fields<'_> {
    /// The value of `field`; JSON null counts as absent.
    fn get(&self, field: &str) -> Option<&Value> {
        self.text
            .and_then(|m| m.get(field))
            .filter(|v| !v.is_null())
            .or_else(|| self.root.get(field).filter(|v| !v.is_null()))
    }

    fn count(&self, field: &str) -> Result<Option<u32>, String> {
        self.get(field).map(|v| as_count(field, v)).transpose()
    }

    fn required_count(&self, field: &str) -> Result<u32, String> {
        self.count(field)?.ok_or_else(|| format!("{field}: missing"))
    }

    /// The first of several spellings present.
    fn first_count(&self, fields: &[&str]) -> Result<Option<u32>, String> {
        for f in fields {
            if let Some(v) = self.count(f)? {
                return Ok(Some(v));
            }
        }
        Ok(None)
    }

    fn flag(&self, field: &str) -> Result<Option<bool>, String> {
        match self.get(field) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(v) => Err(format!("{field}: expected true or false, found {}", short(v))),
        }
    }

    fn string(&self, field: &str) -> Result<Option<String>, String> {
        match self.get(field) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(format!("{field}: expected a string, found {}", short(v))),
        }
    }

    /// A top-level string (the name belongs to the whole checkpoint, not its text part).
    fn root_string(&self, field: &str) -> Result<Option<String>, String> {
        match self.root.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(format!("{field}: expected a string, found {}", short(v))),
        }
    }

    fn layer_types(&self) -> Result<Vec<String>, String> {
        match self.get("layer_types") {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| {
                    v.as_str()
                        .map(str::to_string)
                        .ok_or_else(|| format!("layer_types: expected strings, found {}", short(v)))
                })
                .collect(),
            Some(v) => Err(format!("layer_types: expected an array, found {}", short(v))),
        }
    }
}

/// A whole number in 0..=u32::MAX.
fn as_count(field: &str, v: &Value) -> Result<u32, String> {
    match v.as_u64() {
        Some(n) => u32::try_from(n).map_err(|_| format!("{field}: {n} is larger than {}", u32::MAX)),
        None => Err(format!(
            "{field}: expected a whole number from 0 to {}, found {}",
            u32::MAX,
            short(v)
        )),
    }
}

/// A value for an error message, cut short so hostile input cannot flood the page.
fn short(v: &Value) -> String {
    let s = match v {
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(t) => format!("\"{t}\""),
        Value::Array(_) => "an array".to_string(),
        Value::Object(_) => "an object".to_string(),
    };
    shorten(&s)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LLAMA: &str = r#"{"num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
        "num_key_value_heads": 8, "vocab_size": 128256, "intermediate_size": 14336, "tie_word_embeddings": false}"#;

    #[test]
    fn a_dense_gqa_model_reads_its_shape_and_defaults_head_dim() {
        let c = from_config_json(LLAMA).unwrap();
        assert_eq!(c.arch.head_dim, 128);
        assert_eq!(c.arch.dense_layers, 32);
        assert!((c.params_b - 8.03).abs() < 0.01, "{}", c.params_b);
        assert!(
            (c.params_b - c.active_params_b - 0.525).abs() < 0.001,
            "the input embedding, 128256 × 4096"
        );
        assert!(c.unread.iter().any(|u| u.starts_with("head_dim")), "{:?}", c.unread);
    }

    #[test]
    fn text_config_takes_precedence() {
        let c = from_config_json(
            r#"{"model_type": "llava", "hidden_size": 1, "text_config": {"num_hidden_layers": 2, "hidden_size": 64,
               "num_attention_heads": 4, "vocab_size": 100, "intermediate_size": 128, "tie_word_embeddings": true}}"#,
        )
        .unwrap();
        assert_eq!(c.arch.hidden, 64);
        assert_eq!(c.name.as_deref(), Some("llava"));
    }

    #[test]
    fn errors_name_the_field() {
        for (text, field) in [
            (r#"{"hidden_size": 1}"#, "num_hidden_layers"),
            (&LLAMA.replace("4096", "4096.5"), "hidden_size"),
            (&LLAMA.replace("128256", "-1"), "vocab_size"),
            (&LLAMA.replace("128256", "99999999999999999999999"), "vocab_size"),
            (
                &LLAMA.replace("\"num_key_value_heads\": 8", "\"num_key_value_heads\": 4294967296"),
                "num_key_value_heads",
            ),
            (&LLAMA.replace("false", "\"no\""), "tie_word_embeddings"),
        ] {
            let e = from_config_json(text).unwrap_err();
            assert!(e.starts_with(field), "{e}");
        }
        assert!(from_config_json("[1]").unwrap_err().contains("not a JSON object"));
        assert!(from_config_json("{").unwrap_err().contains("not valid JSON"));
    }

    #[test]
    fn linear_attention_layers_and_state_are_read() {
        let c = from_config_json(
            r#"{"num_hidden_layers": 4, "hidden_size": 64, "num_attention_heads": 4, "vocab_size": 100,
               "intermediate_size": 128, "layer_types": ["linear_attention", "linear_attention", "linear_attention", "full_attention"],
               "linear_num_key_heads": 16, "linear_num_value_heads": 32, "linear_key_head_dim": 128, "linear_value_head_dim": 128}"#,
        )
        .unwrap();
        assert_eq!(
            c.arch.attention,
            Attention::HybridLinear(Linear {
                kind: LinearKind::GatedDeltaNet,
                layers: 3,
                k_heads: 16,
                v_heads: 32,
                k_dim: 128,
                v_dim: 128,
                conv: 4,
            })
        );
    }

    #[test]
    fn sliding_window_pattern_and_opt_out() {
        let base = r#"{"num_hidden_layers": 62, "hidden_size": 5376, "num_attention_heads": 32, "vocab_size": 262208,
            "intermediate_size": 21504, "sliding_window": 1024"#;
        let c = from_config_json(&format!("{base}, \"sliding_window_pattern\": 6}}")).unwrap();
        // 62 layers, every 6th full: 10 full, 52 sliding.
        assert_eq!(
            c.arch.attention,
            Attention::SlidingWindow {
                window: 1024,
                swa_layers: 52
            }
        );
        let c = from_config_json(&format!("{base}, \"use_sliding_window\": false}}")).unwrap();
        assert_eq!(c.arch.attention, Attention::Full);
    }
}
