//! A model the user imported (config.json or GGUF header): its architecture written into the
//! scenario as the custom-architecture keys, so a shared link reproduces it exactly without the
//! file.

use crate::estimator::arch::{Arch, Attention};
use crate::import::config::ImportedConfig;
use crate::import::gguf::Gguf;
use crate::scenario::keys::Group;
use crate::scenario::{Key, Scenario, Size, SizeUnit, Value};

/// What was imported.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    pub name: String,
    pub arch: Arch,
    /// The GGUF's stored tensor bytes; `None` for a config.json (the chosen quant applies).
    pub file_bytes: Option<f64>,
    /// Lines to show: what was read, and what could not be.
    pub summary: Vec<String>,
    pub unread: Vec<String>,
}

impl Imported {
    pub fn from_config(c: ImportedConfig) -> Imported {
        let name = c.name.clone().unwrap_or_else(|| "imported config.json".into());
        let summary = vec![format!(
            "{name}: {:.2}B parameters, {:.2}B read per token, {} layers",
            c.params_b, c.active_params_b, c.arch.layers
        )];
        Imported {
            name,
            arch: c.arch,
            file_bytes: None,
            summary,
            unread: c.unread,
        }
    }

    /// An error when the header lacks the shape, saying what it could not read.
    pub fn from_gguf(g: &Gguf) -> Result<Imported, String> {
        let arch = g
            .arch
            .clone()
            .ok_or_else(|| format!("the header has no model shape ({})", g.unread.join("; ")))?;
        let name = g
            .name
            .clone()
            .or_else(|| g.architecture.clone())
            .unwrap_or_else(|| "imported GGUF".into());
        let summary = vec![format!(
            "{name}: GGUF v{}, {:.2}B parameters in {} tensors, {:.2} GB of weights in a {:.2} GB file",
            g.version,
            g.params as f64 / 1e9,
            g.tensor_count,
            g.weight_bytes as f64 / 1e9,
            g.file_size as f64 / 1e9
        )];
        Ok(Imported {
            name,
            arch,
            file_bytes: Some(g.weight_bytes as f64),
            summary,
            unread: g.unread.clone(),
        })
    }

    /// Writes this model into the scenario as the custom-architecture keys (and its file size),
    /// so that the link alone reproduces it exactly.
    pub fn apply_to(&self, s: &mut Scenario) {
        for key in import_keys() {
            s.clear(key);
        }
        s.clear(Key::Model);
        // Where a Hub import came from is set by the Hub import, after this.
        s.clear(Key::Src);
        let a = &self.arch;
        let mut whole = |k: Key, v: u32| s.put(k, Value::Whole(v));
        whole(Key::Layers, a.layers);
        whole(Key::KvHeads, a.kv_heads);
        whole(Key::HeadDim, a.head_dim);
        whole(Key::Hidden, a.hidden);
        whole(Key::Heads, a.heads);
        whole(Key::Vocab, a.vocab);
        if a.intermediate > 0 {
            whole(Key::Ffn, a.intermediate);
        }
        if a.experts > 0 {
            whole(Key::Experts, a.experts);
            whole(Key::TopK, a.experts_per_token.max(1));
            whole(Key::ExpertFfn, a.moe_intermediate);
            if a.shared_intermediate > 0 {
                whole(Key::SharedFfn, a.shared_intermediate);
            }
            if a.dense_layers > 0 {
                whole(Key::DenseLayers, a.dense_layers);
            }
        } else if a.dense_layers != a.layers {
            whole(Key::DenseLayers, a.dense_layers);
        }
        match &a.attention {
            Attention::Full => {}
            Attention::SlidingWindow { window, swa_layers } => {
                whole(Key::Swa, *window);
                whole(Key::SwaLayers, *swa_layers);
            }
            Attention::Latent {
                kv_lora_rank,
                q_lora_rank,
                qk_rope_dim,
                qk_nope_dim,
                v_head_dim,
            } => {
                whole(Key::KvLora, *kv_lora_rank);
                whole(Key::QLora, *q_lora_rank);
                whole(Key::RopeDim, *qk_rope_dim);
                whole(Key::NopeDim, *qk_nope_dim);
                whole(Key::VDim, *v_head_dim);
            }
            Attention::HybridLinear(l) => {
                whole(Key::LinearLayers, l.layers);
                whole(Key::LinearKHeads, l.k_heads);
                whole(Key::LinearVHeads, l.v_heads);
                whole(Key::LinearKDim, l.k_dim);
                whole(Key::LinearVDim, l.v_dim);
                whole(Key::LinearConv, l.conv);
                s.put(Key::Linear, Value::Text(l.kind.id().into()));
            }
        }
        if a.tied_embeddings {
            s.put(Key::Tied, Value::Flag(true));
        }
        if !a.mlp_gated {
            s.put(Key::Mlp, Value::Text("plain".into()));
        }
        if a.attn_gate {
            s.put(Key::AttnGate, Value::Flag(true));
        }
        match self.file_bytes {
            // In bytes, so the link gives back exactly the file's size.
            Some(b) => s.put(
                Key::Weights,
                Value::Size(Size {
                    value: b.round(),
                    unit: SizeUnit::B,
                }),
            ),
            None => s.clear(Key::Weights),
        }
    }
}

/// The keys an import writes: the custom-model keys and the weight file's size.
fn import_keys() -> impl Iterator<Item = Key> {
    Key::all()
        .filter(|k| k.spec().group == Group::CustomModel)
        .chain(std::iter::once(Key::Weights))
}

impl Imported {
    /// What to say of it: what was read, then what could not be.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = self.summary.clone();
        lines.extend(self.unread.iter().map(|u| format!("not read: {u}")));
        lines
    }

    /// This model as a query string: what [`Imported::apply_to`] writes, in link form. The import
    /// worker hands an import back to the page this way (a query is what a link already carries
    /// exactly).
    pub fn to_query(&self) -> String {
        let mut s = Scenario::default();
        self.apply_to(&mut s);
        s.to_query()
    }
}

/// Lands an import given as its query ([`Imported::to_query`]) in `s`, as
/// [`Imported::apply_to`] would: the import's keys replace the model, the rest of `s` stays.
pub fn land_query(query: &str, s: &mut Scenario) {
    let (from, _) = Scenario::from_query(query);
    s.clear(Key::Model);
    s.clear(Key::Src);
    for key in import_keys() {
        match from.get(key) {
            Some(v) => s.put(key, v.clone()),
            None => s.clear(key),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::catalog;
    use crate::estimator::{estimate, Inputs, ModelSpec, WeightSpec};

    /// The resolved scenario with the import's own architecture put in directly.
    fn with_arch(mut inputs: Inputs, i: &Imported) -> Inputs {
        inputs.model = ModelSpec::Arch {
            name: i.name.clone(),
            arch: Box::new(i.arch.clone()),
            max_context: None,
        };
        if let Some(bytes) = i.file_bytes {
            inputs.weights = WeightSpec::File { bytes };
        }
        inputs
    }

    #[test]
    fn a_link_reproduces_an_imported_model_exactly() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/deepseek-v3.config.json")).unwrap();
        let imported = Imported::from_config(crate::import::config::from_config_json(&text).unwrap());
        let mut s = Scenario::default();
        s.set(Key::Hw, "h200-sxm").unwrap();
        imported.apply_to(&mut s);
        let (back, issues) = Scenario::from_query(&s.to_query());
        assert!(issues.is_empty(), "{issues:?}");
        let from_link = estimate(&back.resolve(catalog()).unwrap());
        let direct = estimate(&with_arch(s.resolve(catalog()).unwrap(), &imported));
        assert_eq!(from_link.ceiling_tok_s, direct.ceiling_tok_s);
        assert_eq!(from_link.bytes_per_token, direct.bytes_per_token);
        assert_eq!(from_link.ttft_s, direct.ttft_s);
        // MLA: about 70 KB of cache per token, not the GQA formula's megabytes.
        assert!((from_link.bytes_per_token.kv / 4096.0 - 70_272.0).abs() < 1.0);
    }

    #[test]
    fn an_import_handed_over_as_its_query_lands_as_applying_it_directly() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/deepseek-v3.config.json")).unwrap();
        let config = Imported::from_config(crate::import::config::from_config_json(&text).unwrap());
        let mut gguf = config.clone();
        gguf.file_bytes = Some(377_562_118_144.0);
        for imported in [config, gguf] {
            // A scenario with a catalog model, a source and other keys the import must keep.
            let (start, _) = Scenario::from_query("hw=h200-sxm&model=llama-3.1-8b&src=org/name&ctx=9000&weights=5GB&experts=4");
            let mut direct = start.clone();
            imported.apply_to(&mut direct);
            let mut handed = start.clone();
            land_query(&imported.to_query(), &mut handed);
            assert_eq!(handed.to_query(), direct.to_query());
            assert_eq!(handed.value_text(Key::Ctx).as_deref(), Some("9000"));
            assert!(!handed.has(Key::Model) && !handed.has(Key::Src));
        }
    }
}
