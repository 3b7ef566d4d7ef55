//! Mixed GPUs: `with=` names further catalog GPUs that hold layers beside `hw` in a layer split,
//! `tensor_split=` the split's proportions.
//!
//! The messages name no key: the page shows them beside its own fields (each card's picker, the
//! first share), the CLI after the key they are about.

use super::{Key, Resolving, Scenario};
use crate::calibration::Backend;
use crate::catalog::{Catalog, Kind};
use crate::estimator::Device;
use crate::scenario::Value;

impl Scenario {
    /// A key's comma-separated numbers (`tensor_split`), where given.
    pub fn ratios(&self, key: Key) -> Option<Vec<f64>> {
        match self.get(key) {
            Some(Value::List(parts)) => parts.iter().map(|p| crate::text::decimal::parse(p)).collect(),
            _ => None,
        }
    }

    /// The further cards `with=` names, in order (none without it).
    pub fn with_ids(&self) -> &[String] {
        match self.get(Key::With) {
            Some(Value::List(ids)) => ids,
            _ => &[],
        }
    }

    /// What is wrong with having further cards at all: beside `split` or `tp` (which count
    /// identical devices), or beside a machine that is not a catalog GPU.
    pub fn split_problem(&self, cat: &Catalog) -> Option<String> {
        if self.has(Key::Split) || self.has(Key::Tp) {
            return Some(
                "further cards are named one by one, which does not go with a count of identical layer-split or tensor-parallel devices: give one or the other".into(),
            );
        }
        let primary_gpu = !self.is_custom_machine() && self.machine_kind(cat) == Kind::Gpu;
        (!primary_gpu).then(|| "further cards go beside a catalog GPU, and this machine is not one".into())
    }

    /// Catalog machine `id` as a further card of this scenario's split, or why it cannot be one:
    /// it must be a GPU that runs the scenario's backend.
    pub fn split_device(&self, cat: &Catalog, id: &str) -> Result<Device, String> {
        let m = cat.machine(id)?;
        if m.kind != Kind::Gpu {
            return Err(format!("{} is not a GPU", m.name));
        }
        let backend = self.backend(cat);
        let theirs = m.allowed_backends();
        if !theirs.contains(&backend) {
            let (ours, _) = self.allowed_backends(cat);
            // The CPU backend runs on any of them, but leaves the cards idle: not worth naming.
            let common: Vec<&str> = ours
                .iter()
                .filter(|b| theirs.contains(b) && **b != Backend::Cpu)
                .map(|b| b.id())
                .collect();
            return Err(match common.as_slice() {
                [] => format!("{} cannot run {}, and the two have no backend in common", m.name, backend.id()),
                c => format!(
                    "{} cannot run {}: the cards of a split need a backend they all run ({})",
                    m.name,
                    backend.id(),
                    c.join(", ")
                ),
            });
        }
        Ok(Device {
            name: m.name.clone(),
            bandwidth_gbs: m.bandwidth_gbs,
            memory_gib: m.memory_gib,
        })
    }

    /// Every card's memory in GiB, the machine's first: what the layers are split in proportion
    /// to without `tensor_split` (an unknown card counts 0).
    pub fn split_memories(&self, cat: &Catalog) -> Vec<f64> {
        let memory = |id: &str| cat.machine(id).map_or(0.0, |m| m.memory_gib);
        let own = self
            .number(Key::Mem)
            .unwrap_or_else(|| memory(self.text(Key::Hw).unwrap_or(super::DEFAULT_HW)));
        std::iter::once(own).chain(self.with_ids().iter().map(|id| memory(id))).collect()
    }

    /// Card `i`'s share (the machine is card 0) as `tensor_split` writes it, where given.
    pub fn share_text(&self, i: usize) -> Option<String> {
        match self.get(Key::TensorSplit) {
            Some(Value::List(parts)) => parts.get(i).cloned(),
            _ => None,
        }
    }

    /// Sets card `i`'s share from what was typed: a positive number, or nothing for its memory.
    /// The other cards keep theirs, or take their memory where none was given; when every card
    /// is at its memory, `tensor_split` goes (the split it describes is the default).
    pub fn set_share(&mut self, cat: &Catalog, i: usize, text: &str) -> Result<(), String> {
        let memories = self.split_memories(cat);
        let mut parts: Vec<String> = (0..memories.len())
            .map(|j| self.share_text(j).unwrap_or_else(|| memories[j].to_string()))
            .collect();
        let typed = text.trim();
        parts[i] = if typed.is_empty() {
            memories[i].to_string()
        } else {
            // One share is a list of one: the key's own check, so the page takes what links take.
            if typed.contains([',', '/']) {
                return Err(format!("\"{}\" is one card's share: a single number", crate::text::shorten(typed)));
            }
            Key::TensorSplit.spec().value.parse(typed).map_err(|e| super::quote_err(typed, e))?;
            typed.to_string()
        };
        let at_memory = parts.iter().zip(&memories).all(|(p, m)| crate::text::decimal::parse(p) == Some(*m));
        if at_memory {
            self.clear(Key::TensorSplit);
        } else {
            self.put(Key::TensorSplit, Value::List(parts));
        }
        Ok(())
    }

    /// Adds catalog GPU `id` as a further card; where shares are given, it takes its memory.
    pub fn add_card(&mut self, cat: &Catalog, id: &str) {
        let mut ids = self.with_ids().to_vec();
        ids.push(id.to_string());
        if let Some(Value::List(parts)) = self.get(Key::TensorSplit) {
            let mut parts = parts.clone();
            parts.push(cat.machine(id).map_or(1.0, |m| m.memory_gib).to_string());
            self.put(Key::TensorSplit, Value::List(parts));
        }
        self.put(Key::With, Value::List(ids));
    }

    /// Makes further card `i` (0 is the first beside the machine) catalog GPU `id`.
    pub fn set_card(&mut self, i: usize, id: &str) {
        let mut ids = self.with_ids().to_vec();
        if let Some(slot) = ids.get_mut(i) {
            *slot = id.to_string();
            self.put(Key::With, Value::List(ids));
        }
    }

    /// Removes further card `i` and its share; with the last card the shares go too.
    pub fn remove_card(&mut self, i: usize) {
        let mut ids = self.with_ids().to_vec();
        if i >= ids.len() {
            return;
        }
        ids.remove(i);
        if let Some(Value::List(parts)) = self.get(Key::TensorSplit) {
            let mut parts = parts.clone();
            if i + 1 < parts.len() {
                parts.remove(i + 1);
            }
            self.put(Key::TensorSplit, Value::List(parts));
        }
        if ids.is_empty() {
            self.clear(Key::With);
            self.clear(Key::TensorSplit);
        } else {
            self.put(Key::With, Value::List(ids));
        }
    }

    /// The devices of `with=`, checked ([`Scenario::split_problem`], [`Scenario::split_device`]);
    /// `tensor_split` with one proportion per device.
    pub(super) fn resolve_devices(&self, cat: &Catalog, r: &mut Resolving) -> Vec<Device> {
        let ids = self.with_ids();
        if ids.is_empty() {
            if self.has(Key::TensorSplit) {
                r.fail(
                    Key::TensorSplit,
                    "shares split the layers over further cards, and none is given".into(),
                );
            }
            return Vec::new();
        }
        if let Some(problem) = self.split_problem(cat) {
            r.fail(Key::With, problem);
        }
        let mut devices = Vec::new();
        for id in ids {
            match self.split_device(cat, id) {
                Ok(d) => devices.push(d),
                Err(e) => r.fail(Key::With, e),
            }
        }
        if let Some(t) = self.ratios(Key::TensorSplit) {
            if t.len() != ids.len() + 1 {
                r.fail(
                    Key::TensorSplit,
                    format!(
                        "{} shares for {} cards (the machine and {} beside it)",
                        t.len(),
                        ids.len() + 1,
                        ids.len()
                    ),
                );
            }
        }
        devices
    }
}
