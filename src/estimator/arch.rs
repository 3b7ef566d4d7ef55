//! Parameter and KV-cache arithmetic from a model's config.json fields.
//!
//! Parameters (norms and biases are below 0.1% and left out):
//! - embedding table: vocab × hidden; output head: vocab × hidden unless tied to the embedding.
//! - attention per layer, standard/GQA: hidden × head_dim × (2·heads + 2·kv_heads) (q and o use
//!   every head, k and v the KV heads), plus hidden × heads × head_dim where q also produces an
//!   output gate (Qwen3-Next, Qwen3.5: `attn_output_gate`).
//! - attention per layer, MLA (DeepSeek-V2 paper, §2.1): q = hidden·q_lora + q_lora·heads·(nope+rope)
//!   (or hidden·heads·(nope+rope) without a q LoRA); kv_a = hidden·(kv_lora+rope);
//!   kv_b = kv_lora·heads·(nope+v_head); o = heads·v_head·hidden.
//! - linear-attention layers, with Kh × Kd keys and Vh × Vd values per token:
//!   Gated DeltaNet (Qwen3-Next, Qwen3.5; Yang et al. 2024): in_proj hidden·(2·Kh·Kd + 2·Vh·Vd + 2·Vh)
//!   (q, k, v, the output gate z, and the b and a gates), a depthwise conv of conv·(2·Kh·Kd + Vh·Vd),
//!   out_proj Vh·Vd·hidden. Mamba-2 (Granite 4.0-H, Nemotron-H; Dao & Gu 2024), with Kh = groups,
//!   Kd = state size: in_proj hidden·(2·Vh·Vd + 2·Kh·Kd + Vh) (z, x, B, C, dt), conv
//!   conv·(Vh·Vd + 2·Kh·Kd), out_proj Vh·Vd·hidden.
//! - MLP: gated (SwiGLU/GeGLU) 3 × hidden × width, plain (relu², GELU) 2 × hidden × width; a
//!   mixture-of-experts layer has experts such blocks of moe_intermediate width, a shared block of
//!   shared_intermediate width and a router hidden × experts.
//!
//! Bytes read per decode token: every tensor the token passes through, except the input
//! embedding table, of which one row is read. Tied embeddings count once, as the head.
//!
//! KV cache read per token at context c, per layer: 2 (K and V) × kv_heads × head_dim × tokens
//! attended × bytes per element, where tokens attended is c for full attention and min(c, window)
//! for sliding-window layers. MLA caches one latent of kv_lora_rank + rope dims per token (not
//! doubled). Linear layers keep a fixed recurrent state, f32 as llama.cpp stores it: Gated DeltaNet
//! Vh·Kd·Vd, Mamba-2 Vh·Vd·Kd, plus the conv's last conv − 1 inputs.
//!
//! Prefill attention FLOPs (QKᵀ and AV, causal): 2 × 2 × heads × width per (query, key) pair, with
//! p²/2 pairs for a full layer and w²/2 + (p − w)·w for a sliding layer of window w; a linear
//! layer instead updates its state, 4 × state elements per token.

/// The recurrence of a linear-attention layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinearKind {
    /// Gated DeltaNet (Qwen3-Next, Qwen3.5).
    GatedDeltaNet,
    /// Mamba-2 (Granite 4.0-H, Nemotron-H).
    Mamba2,
}

impl LinearKind {
    /// The id used in files and links (`gdn`, `mamba2`).
    pub fn id(self) -> &'static str {
        match self {
            LinearKind::GatedDeltaNet => "gdn",
            LinearKind::Mamba2 => "mamba2",
        }
    }

    pub fn parse(s: &str) -> Option<LinearKind> {
        [LinearKind::GatedDeltaNet, LinearKind::Mamba2].into_iter().find(|k| k.id() == s)
    }
}

/// The linear-attention (or state-space) layers of a hybrid model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Linear {
    pub kind: LinearKind,
    /// How many of the model's layers are linear; the rest are full attention.
    pub layers: u32,
    /// Key heads (Mamba-2: groups).
    pub k_heads: u32,
    pub v_heads: u32,
    /// Key head width (Mamba-2: state size).
    pub k_dim: u32,
    pub v_dim: u32,
    /// Depthwise convolution kernel width.
    pub conv: u32,
}

impl Linear {
    /// Projection parameters of one layer.
    pub fn params_per_layer(&self, hidden: f64) -> f64 {
        let (kh, vh, kd, vd, conv) = (
            self.k_heads as f64,
            self.v_heads as f64,
            self.k_dim as f64,
            self.v_dim as f64,
            self.conv as f64,
        );
        match self.kind {
            LinearKind::GatedDeltaNet => {
                hidden * (2.0 * kh * kd + 2.0 * vh * vd + 2.0 * vh) + conv * (2.0 * kh * kd + vh * vd) + vh * vd * hidden
            }
            LinearKind::Mamba2 => hidden * (2.0 * vh * vd + 2.0 * kh * kd + vh) + conv * (vh * vd + 2.0 * kh * kd) + vh * vd * hidden,
        }
    }

    /// Recurrent state of one layer, in elements (the conv's window included).
    pub fn state_elems(&self) -> f64 {
        let (kh, vh, kd, vd) = (self.k_heads as f64, self.v_heads as f64, self.k_dim as f64, self.v_dim as f64);
        let conv_window = self.conv.saturating_sub(1) as f64;
        match self.kind {
            LinearKind::GatedDeltaNet => vh * kd * vd + conv_window * (2.0 * kh * kd + vh * vd),
            LinearKind::Mamba2 => vh * vd * kd + conv_window * (vh * vd + 2.0 * kh * kd),
        }
    }
}

/// How the layers attend.
#[derive(Clone, Debug, PartialEq)]
pub enum Attention {
    /// Every layer attends the whole context.
    Full,
    /// `swa_layers` of the layers attend only the last `window` tokens; the rest are full.
    SlidingWindow { window: u32, swa_layers: u32 },
    /// DeepSeek-style multi-head latent attention.
    Latent {
        kv_lora_rank: u32,
        q_lora_rank: u32,
        qk_rope_dim: u32,
        qk_nope_dim: u32,
        v_head_dim: u32,
    },
    /// Some layers are linear (a fixed state); the rest are full attention.
    HybridLinear(Linear),
}

/// A transformer's shape, as config.json gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct Arch {
    /// Layers with a token mixer (attention or linear).
    pub layers: u32,
    pub hidden: u32,
    pub heads: u32,
    pub kv_heads: u32,
    pub head_dim: u32,
    pub vocab: u32,
    pub tied_embeddings: bool,
    /// Width of the dense MLP layers.
    pub intermediate: u32,
    /// Gated MLPs (three matrices: SwiGLU, GeGLU) or plain ones (two).
    pub mlp_gated: bool,
    /// The attention's q projection also produces an output gate.
    pub attn_gate: bool,
    /// Routed experts per MoE layer (0 for a dense model).
    pub experts: u32,
    pub experts_per_token: u32,
    pub shared_experts: u32,
    /// Width of one routed expert.
    pub moe_intermediate: u32,
    /// Total width of the shared expert(s).
    pub shared_intermediate: u32,
    /// Blocks with a dense MLP (all layers of a dense model).
    pub dense_layers: u32,
    pub attention: Attention,
}

/// Bytes of a linear/recurrent layer's state element (f32).
const STATE_BYTES: f64 = 4.0;

impl Arch {
    fn h(&self) -> f64 {
        self.hidden as f64
    }

    /// Matrices per MLP block.
    fn mlp_matrices(&self) -> f64 {
        if self.mlp_gated {
            3.0
        } else {
            2.0
        }
    }

    pub fn is_moe(&self) -> bool {
        self.experts > 0
    }

    /// Layers whose MLP is a mixture of experts.
    pub fn moe_layers(&self) -> f64 {
        if self.is_moe() {
            self.layers.saturating_sub(self.dense_layers) as f64
        } else {
            0.0
        }
    }

    /// The linear layers, if the model has any.
    pub fn linear(&self) -> Option<&Linear> {
        match &self.attention {
            Attention::HybridLinear(l) => Some(l),
            _ => None,
        }
    }

    /// Layers with attention over the context (full or sliding).
    pub fn attention_layers(&self) -> f64 {
        let linear = self.linear().map_or(0, |l| l.layers.min(self.layers));
        (self.layers - linear) as f64
    }

    /// Attention parameters of one attention layer.
    pub fn attention_params_per_layer(&self) -> f64 {
        let h = self.h();
        match self.attention {
            Attention::Latent {
                kv_lora_rank,
                q_lora_rank,
                qk_rope_dim,
                qk_nope_dim,
                v_head_dim,
            } => {
                let (kl, ql, rope, nope, vh) = (
                    kv_lora_rank as f64,
                    q_lora_rank as f64,
                    qk_rope_dim as f64,
                    qk_nope_dim as f64,
                    v_head_dim as f64,
                );
                let heads = self.heads as f64;
                let q = if ql > 0.0 {
                    h * ql + ql * heads * (nope + rope)
                } else {
                    h * heads * (nope + rope)
                };
                q + h * (kl + rope) + kl * heads * (nope + vh) + heads * vh * h
            }
            _ => {
                let gate = if self.attn_gate { self.heads as f64 } else { 0.0 };
                h * self.head_dim as f64 * (2.0 * self.heads as f64 + 2.0 * self.kv_heads as f64 + gate)
            }
        }
    }

    /// One routed expert in one layer.
    pub fn expert_params(&self) -> f64 {
        self.mlp_matrices() * self.h() * self.moe_intermediate as f64
    }

    pub fn embedding_params(&self) -> f64 {
        self.vocab as f64 * self.h()
    }

    /// Parameters read for every token whatever the routing: head, attention and linear layers,
    /// dense MLPs, shared experts and routers.
    pub fn always_read_params(&self) -> f64 {
        let h = self.h();
        let m = self.mlp_matrices();
        let dense = self.dense_layers as f64 * m * h * self.intermediate as f64;
        let moe_fixed = self.moe_layers() * (m * h * self.shared_intermediate as f64 + h * self.experts as f64);
        let linear = self
            .linear()
            .map_or(0.0, |l| l.layers.min(self.layers) as f64 * l.params_per_layer(h));
        self.embedding_params() + self.attention_layers() * self.attention_params_per_layer() + linear + dense + moe_fixed
    }

    /// Routed-expert parameters read when `experts_touched` distinct experts run in every MoE layer.
    pub fn routed_params(&self, experts_touched: f64) -> f64 {
        self.moe_layers() * experts_touched * self.expert_params()
    }

    /// Distinct experts per layer that a step of `tokens` tokens reads: E × (1 − (1 − k/E)^tokens),
    /// the expected union of independent top-k choices (k for one token). `tokens` counts
    /// independent tokens ([`crate::estimator::routed_tokens`] of a batch, or of a speculative
    /// step's draft plus one).
    pub fn experts_touched(&self, tokens: f64) -> f64 {
        if !self.is_moe() {
            return 0.0;
        }
        experts_touched(self.experts as f64, self.experts_per_token as f64, tokens)
    }

    /// The routing: experts per MoE layer and experts per token, for a mixture of experts.
    pub fn routing(&self) -> Option<(f64, f64)> {
        self.is_moe().then_some((self.experts as f64, self.experts_per_token as f64))
    }

    /// Parameters read per decode token at batch 1.
    pub fn read_params_per_token(&self) -> f64 {
        self.always_read_params() + self.routed_params(self.experts_touched(1.0))
    }

    /// Total parameters stored.
    pub fn total_params(&self) -> f64 {
        let head = if self.tied_embeddings { 0.0 } else { self.embedding_params() };
        self.always_read_params() + head + self.routed_params(self.experts as f64)
    }

    /// Bytes of KV cache held (and read by one decode token) at `context` tokens.
    pub fn kv_bytes(&self, context: f64, bits_per_element: f64) -> f64 {
        let c = context.max(0.0);
        let per_layer_token = 2.0 * self.kv_heads as f64 * self.head_dim as f64;
        let layers = self.layers as f64;
        let elems = match &self.attention {
            Attention::Full => layers * per_layer_token * c,
            Attention::SlidingWindow { window, swa_layers } => {
                let swa = (*swa_layers as f64).min(layers);
                (layers - swa) * per_layer_token * c + swa * per_layer_token * c.min(*window as f64)
            }
            Attention::Latent {
                kv_lora_rank, qk_rope_dim, ..
            } => layers * (kv_lora_rank + qk_rope_dim) as f64 * c,
            Attention::HybridLinear(_) => self.attention_layers() * per_layer_token * c,
        };
        elems * bits_per_element / 8.0 + self.state_bytes()
    }

    /// Bytes of the linear layers' recurrent state (independent of the context).
    pub fn state_bytes(&self) -> f64 {
        self.linear()
            .map_or(0.0, |l| l.layers.min(self.layers) as f64 * l.state_elems() * STATE_BYTES)
    }

    /// Attention FLOPs of one decode token at `c` tokens of context: what the prompt's count adds
    /// for its next token (QKᵀ and AV over every key a layer attends, a linear layer's update).
    pub fn decode_attention_flops(&self, c: f64) -> f64 {
        self.attention_flops(c + 1.0) - self.attention_flops(c)
    }

    /// Attention FLOPs for a prompt of `p` tokens, sliding windows and linear layers included.
    pub fn attention_flops(&self, p: f64) -> f64 {
        let p = p.max(0.0);
        let width = match self.attention {
            Attention::Latent {
                qk_rope_dim,
                qk_nope_dim,
                v_head_dim,
                ..
            } => (qk_rope_dim + qk_nope_dim + v_head_dim) as f64 / 2.0,
            _ => self.head_dim as f64,
        };
        let per_pair = 2.0 * 2.0 * self.heads as f64 * width;
        let full_pairs = p * p / 2.0;
        let pairs = match &self.attention {
            Attention::SlidingWindow { window, swa_layers } => {
                let swa = (*swa_layers as f64).min(self.layers as f64);
                let w = *window as f64;
                let sliding_pairs = if p <= w { full_pairs } else { w * w / 2.0 + (p - w) * w };
                (self.layers as f64 - swa) * full_pairs + swa * sliding_pairs
            }
            _ => self.attention_layers() * full_pairs,
        };
        let linear = self
            .linear()
            .map_or(0.0, |l| l.layers.min(self.layers) as f64 * 4.0 * l.state_elems() * p);
        per_pair * pairs + linear
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn llama3_8b() -> Arch {
        Arch {
            layers: 32,
            hidden: 4096,
            heads: 32,
            kv_heads: 8,
            head_dim: 128,
            vocab: 128256,
            tied_embeddings: false,
            intermediate: 14336,
            mlp_gated: true,
            attn_gate: false,
            experts: 0,
            experts_per_token: 0,
            shared_experts: 0,
            moe_intermediate: 0,
            shared_intermediate: 0,
            dense_layers: 32,
            attention: Attention::Full,
        }
    }

    #[test]
    fn llama3_8b_has_8_03b_parameters_and_128_kib_of_kv_per_token() {
        let a = llama3_8b();
        assert!((a.total_params() / 1e9 - 8.03).abs() < 0.01, "{}", a.total_params());
        // 2 × 32 layers × 8 heads × 128 × 2 bytes = 131072 bytes per token.
        assert_eq!(a.kv_bytes(1.0, 16.0), 131072.0);
        // The input embedding is not read per token.
        assert!((a.total_params() - a.read_params_per_token() - a.embedding_params()).abs() < 1.0);
    }

    #[test]
    fn deepseek_v3_mla_caches_576_values_per_layer_per_token() {
        let a = Arch {
            layers: 61,
            attention: Attention::Latent {
                kv_lora_rank: 512,
                q_lora_rank: 1536,
                qk_rope_dim: 64,
                qk_nope_dim: 128,
                v_head_dim: 128,
            },
            ..llama3_8b()
        };
        // 61 × 576 × 2 bytes ≈ 70 KB per token.
        assert_eq!(a.kv_bytes(1.0, 16.0), 61.0 * 576.0 * 2.0);
    }

    #[test]
    fn sliding_window_layers_stop_growing_at_the_window() {
        let a = Arch {
            attention: Attention::SlidingWindow {
                window: 1024,
                swa_layers: 32,
            },
            ..llama3_8b()
        };
        assert_eq!(a.kv_bytes(1024.0, 16.0), a.kv_bytes(100_000.0, 16.0));
        assert!(a.kv_bytes(512.0, 16.0) < a.kv_bytes(1024.0, 16.0));
    }

    #[test]
    fn a_batch_reads_the_union_of_experts() {
        let a = Arch {
            experts: 8,
            experts_per_token: 2,
            moe_intermediate: 14336,
            dense_layers: 0,
            ..llama3_8b()
        };
        assert_eq!(a.experts_touched(1.0), 2.0);
        // 8 × (1 − 0.75²) = 3.5 experts for two tokens.
        assert!((a.experts_touched(2.0) - 3.5).abs() < 1e-9);
        assert!(a.experts_touched(1000.0) <= 8.0);
    }
}

#[cfg(test)]
mod linear_tests {
    use super::*;

    #[test]
    fn a_sliding_layer_attends_at_most_its_window_in_prefill() {
        let full = Arch {
            layers: 2,
            hidden: 64,
            heads: 4,
            kv_heads: 4,
            head_dim: 16,
            vocab: 10,
            tied_embeddings: true,
            intermediate: 0,
            mlp_gated: true,
            attn_gate: false,
            experts: 0,
            experts_per_token: 0,
            shared_experts: 0,
            moe_intermediate: 0,
            shared_intermediate: 0,
            dense_layers: 2,
            attention: Attention::Full,
        };
        let swa = Arch {
            attention: Attention::SlidingWindow {
                window: 128,
                swa_layers: 1,
            },
            ..full.clone()
        };
        // Below the window both are the same; far above it the sliding layer grows linearly.
        assert_eq!(full.attention_flops(100.0), swa.attention_flops(100.0));
        let p = 65536.0;
        let per_pair = 2.0 * 2.0 * 4.0 * 16.0;
        let want = per_pair * (p * p / 2.0 + 128.0 * 128.0 / 2.0 + (p - 128.0) * 128.0);
        assert_eq!(swa.attention_flops(p), want);
        assert!(swa.attention_flops(p) < 0.51 * full.attention_flops(p));
    }
}

/// Distinct experts of `experts` that a step of `tokens` tokens, each routed to `top_k`, reads:
/// E × (1 − (1 − k/E)^tokens), the expected union of independent top-k choices (k for one token).
/// `tokens` may be fractional: the independent tokens a step's routing amounts to
/// ([`crate::estimator::routed_tokens`]).
pub fn experts_touched(experts: f64, top_k: f64, tokens: f64) -> f64 {
    let k = top_k.min(experts);
    if tokens <= 1.0 {
        return k;
    }
    experts * (1.0 - (1.0 - k / experts).powf(tokens))
}
