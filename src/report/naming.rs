//! How a sentence names a key: as links and the CLI write it (`cpu=`), or as the page's field
//! that sets it ("CPU"), so a note on the page points at something the reader can change there.
//! The fields' labels are defined here once; the form reads them.

use crate::scenario::Key;

/// Who reads the sentence: the CLI and links (keys), or the page (its fields).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Naming {
    Keys,
    Fields,
}

impl Naming {
    /// A key as a sentence's subject: `ram`, or "System RAM".
    pub fn key(self, key: Key) -> String {
        match self {
            Naming::Keys => key.name().to_string(),
            Naming::Fields => format!("“{}”", field_label(key)),
        }
    }

    /// A key set to a value: `offload=experts`, or "Experts in RAM" (the field that sets it).
    pub fn setting(self, key: Key, value: &str) -> String {
        match self {
            Naming::Keys => format!("{}={value}", key.name()),
            Naming::Fields => self.key(key),
        }
    }

    /// What to give: "give cpu= and threads=", or "set “CPU” and “Threads”".
    pub fn give(self, keys: &[Key]) -> String {
        let mut out = String::from(if self == Naming::Keys { "give" } else { "set" });
        for (i, k) in keys.iter().enumerate() {
            out.push_str(match i {
                0 => " ",
                _ if i + 1 == keys.len() => " and ",
                _ => ", ",
            });
            match self {
                Naming::Keys => out.push_str(&format!("{}=", k.name())),
                Naming::Fields => out.push_str(&self.key(*k)),
            }
        }
        out
    }
}

/// The label of the page's field for `key`; a key the page has no field for is named as in links.
pub fn field_label(key: Key) -> &'static str {
    match key {
        Key::Cpu => "CPU",
        Key::Threads => "Threads",
        Key::Sockets => "Sockets",
        Key::Tflops => "FP16 TFLOPS",
        Key::Vendor => "Vendor",
        Key::Layers => "Layers",
        Key::KvHeads => "KV heads",
        Key::HeadDim => "Head dim",
        Key::Experts => "Experts",
        Key::TopK => "Experts per token",
        Key::Offload => "Experts in RAM",
        Key::GpuFrac => "Share of weights in VRAM (or memory)",
        Key::Ram => "System RAM",
        Key::RamBw => "RAM bandwidth for the rest",
        Key::Tp => "Tensor-parallel devices",
        Key::Split => "Layer-split devices",
        Key::With => "Other GPUs",
        Key::TensorSplit => "Share of the layers",
        Key::Power => "Measured power",
        Key::KwhPrice => "Electricity price",
        Key::CpuCores => "CPU cores",
        Key::CpuGhz => "CPU clock",
        Key::CpuSimd => "CPU SIMD",
        _ => key.name(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_as_links_write_them_and_fields_as_the_form_labels_them() {
        let both = [Key::Cpu, Key::Threads];
        assert_eq!(Naming::Keys.give(&both), "give cpu= and threads=");
        assert_eq!(Naming::Fields.give(&both), "set “CPU” and “Threads”");
        assert_eq!(
            Naming::Keys.give(&[Key::Layers, Key::KvHeads, Key::HeadDim]),
            "give layers=, kv_heads= and head_dim="
        );
        assert_eq!(Naming::Fields.setting(Key::Offload, "experts"), "“Experts in RAM”");
        assert_eq!(Naming::Keys.setting(Key::Offload, "experts"), "offload=experts");
        assert_eq!(Naming::Fields.give(&[Key::Tflops]), "set “FP16 TFLOPS”");
    }
}
