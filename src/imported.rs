//! A model the user imported (config.json or GGUF header): its exact architecture applied over
//! the scenario's custom-model keys. Links carry only those keys (parameters, layers, KV heads,
//! head dim, file size), which is the closest a URL can say; the page says so.

use crate::estimator::arch::Arch;
use crate::estimator::{Inputs, ModelSpec, WeightSpec};
use crate::import::config::ImportedConfig;
use crate::import::gguf::Gguf;
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

    /// `None` when the header lacks the shape (its `unread` says why).
    pub fn from_gguf(g: &Gguf) -> Option<Imported> {
        let arch = g.arch.clone()?;
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
        Some(Imported {
            name,
            arch,
            file_bytes: Some(g.weight_bytes as f64),
            summary,
            unread: g.unread.clone(),
        })
    }

    /// The scenario keys that stand for this model in a link.
    pub fn apply_to(&self, s: &mut Scenario) {
        s.clear(Key::Model);
        s.put(Key::Params, Value::Number(round3(self.arch.total_params() / 1e9)));
        match self.arch.is_moe() {
            true => s.put(Key::Active, Value::Number(round3(self.arch.read_params_per_token() / 1e9))),
            false => s.clear(Key::Active),
        }
        s.put(Key::Layers, Value::Whole(self.arch.layers));
        s.put(Key::KvHeads, Value::Whole(self.arch.kv_heads));
        s.put(Key::HeadDim, Value::Whole(self.arch.head_dim));
        match self.file_bytes {
            Some(b) => s.put(
                Key::Weights,
                Value::Size(Size {
                    value: round3(b / 1e9),
                    unit: SizeUnit::GB,
                }),
            ),
            None => s.clear(Key::Weights),
        }
    }

    /// The keys [`Imported::apply_to`] writes.
    const KEYS: [Key; 7] = [
        Key::Model,
        Key::Params,
        Key::Active,
        Key::Layers,
        Key::KvHeads,
        Key::HeadDim,
        Key::Weights,
    ];

    /// Does the scenario still describe this import (a custom model with its keys)?
    pub fn matches(&self, s: &Scenario) -> bool {
        let mut want = s.clone();
        self.apply_to(&mut want);
        Self::KEYS.iter().all(|k| want.get(*k) == s.get(*k))
    }

    /// Resolves `s`, with this import's architecture when the scenario still describes it.
    pub fn resolve(import: Option<&Imported>, s: &Scenario, cat: &crate::catalog::Catalog) -> Option<Inputs> {
        let mut inputs = s.resolve(cat).ok()?;
        if let Some(i) = import.filter(|i| i.matches(s)) {
            i.apply(&mut inputs);
        }
        Some(inputs)
    }

    /// Replaces the resolved custom model by the imported architecture.
    pub fn apply(&self, inputs: &mut Inputs) {
        inputs.model = ModelSpec::Arch {
            name: self.name.clone(),
            arch: Box::new(self.arch.clone()),
        };
        if let Some(bytes) = self.file_bytes {
            inputs.weights = WeightSpec::File { bytes };
        }
    }
}

fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::catalog;
    use crate::estimator::estimate;

    #[test]
    fn an_imported_config_drives_the_estimate_and_its_link_carries_the_shape() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/deepseek-v3.config.json")).unwrap();
        let imported = Imported::from_config(crate::import::config::from_config_json(&text).unwrap());
        let mut s = Scenario::default();
        s.set(Key::Hw, "h200-sxm").unwrap();
        imported.apply_to(&mut s);
        assert!(imported.matches(&s));
        let query = s.to_query();
        assert!(query.contains("params=671.") && query.contains("layers=61"), "{query}");
        let mut inputs = s.resolve(catalog()).unwrap();
        imported.apply(&mut inputs);
        let e = estimate(&inputs);
        // MLA: about 70 KB of cache per token, not the GQA formula's megabytes.
        assert!(
            (e.bytes_per_token.kv / 4096.0 - 70_272.0).abs() < 1.0,
            "{}",
            e.bytes_per_token.kv / 4096.0
        );
        let mut other = s.clone();
        other.put(Key::Layers, Value::Whole(60));
        assert!(!imported.matches(&other));
        // Another machine, same model keys: still the import.
        assert!(imported.matches(&crate::views::with_machine(&s, "rtx-4090")));
    }
}
