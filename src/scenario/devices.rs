//! Mixed GPUs: `with=` names further catalog GPUs that hold layers beside `hw` in a layer split,
//! `tensor_split=` the split's proportions.

use super::{Key, Resolving, Scenario};
use crate::catalog::{Catalog, Kind};
use crate::estimator::Device;
use crate::scenario::Value;

impl Scenario {
    /// A key's comma-separated numbers (`tensor_split`), where given.
    pub(super) fn ratios(&self, key: Key) -> Option<Vec<f64>> {
        match self.get(key) {
            Some(Value::List(parts)) => parts.iter().map(|p| crate::text::decimal::parse(p)).collect(),
            _ => None,
        }
    }

    /// The devices of `with=`, checked: catalog GPUs that run the scenario's backend, not beside
    /// `split` or `tp`, on a GPU machine; `tensor_split` with one proportion per device.
    pub(super) fn resolve_devices(&self, cat: &Catalog, r: &mut Resolving) -> Vec<Device> {
        let ids: Vec<String> = match self.get(Key::With) {
            Some(Value::List(ids)) => ids.clone(),
            _ => {
                if self.has(Key::TensorSplit) {
                    r.fail(Key::TensorSplit, "tensor_split needs with= (the devices it splits over)".into());
                }
                return Vec::new();
            }
        };
        if self.has(Key::Split) || self.has(Key::Tp) {
            r.fail(
                Key::With,
                "with= names the other devices of a layer split; it does not go with split= or tp=".into(),
            );
        }
        let backend = self.backend(cat);
        let primary_gpu = !self.is_custom_machine()
            && cat
                .machine(self.text(Key::Hw).unwrap_or(super::DEFAULT_HW))
                .is_ok_and(|m| m.kind == Kind::Gpu);
        if !primary_gpu {
            r.fail(Key::With, "with= adds GPUs beside a catalog GPU (hw=…)".into());
        }
        let mut devices = Vec::new();
        for id in &ids {
            match cat.machine(id) {
                Ok(m) if m.kind != Kind::Gpu => r.fail(Key::With, format!("{} is not a GPU", m.name)),
                Ok(m) if !m.allowed_backends().contains(&backend) => {
                    r.fail(
                        Key::With,
                        format!("{} cannot run {}: the devices need a backend in common", m.name, backend.id()),
                    );
                }
                Ok(m) => devices.push(Device {
                    name: m.name.clone(),
                    bandwidth_gbs: m.bandwidth_gbs,
                    memory_gib: m.memory_gib,
                }),
                Err(e) => r.fail(Key::With, e),
            }
        }
        if let Some(t) = self.ratios(Key::TensorSplit) {
            if t.len() != ids.len() + 1 {
                r.fail(
                    Key::TensorSplit,
                    format!("{} proportions for {} devices (hw and with=)", t.len(), ids.len() + 1),
                );
            }
        }
        devices
    }
}
