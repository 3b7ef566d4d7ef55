//! The scenario: every input of an estimate, and the one codec that turns it into a URL query
//! string and back. The web app's URL, the CLI argument and the tests all go through it;
//! docs/scenario.md lists every key with its unit and default.

use crate::calibration::Class;
use crate::catalog::{Catalog, Kind};
use crate::estimator::{self, Inputs, MachineSpec, ModelSpec, Placement, Speculation, WeightSpec};
use crate::units;

pub const FORMAT_VERSION: &str = "1";
pub const DEFAULT_HW: &str = "rtx-4090";
pub const DEFAULT_MODEL: &str = "qwen2.5-32b";
pub const DEFAULT_QUANT: &str = "q4_k_m";
pub const DEFAULT_KV: &str = "f16";
pub const DEFAULT_CTX: u32 = 4096;
pub const DEFAULT_PROMPT: u32 = 1024;
pub const DEFAULT_K: u32 = 4;
pub const DEFAULT_ACCEPT: f64 = 0.7;

/// A size as the user wrote it, kept in its unit so links round-trip exactly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Size {
    pub value: f64,
    pub unit: SizeUnit,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizeUnit {
    B,
    KB,
    MB,
    GB,
    TB,
    KiB,
    MiB,
    GiB,
    TiB,
}

impl SizeUnit {
    const ALL: [SizeUnit; 9] = [
        SizeUnit::B,
        SizeUnit::KB,
        SizeUnit::MB,
        SizeUnit::GB,
        SizeUnit::TB,
        SizeUnit::KiB,
        SizeUnit::MiB,
        SizeUnit::GiB,
        SizeUnit::TiB,
    ];

    fn text(self) -> &'static str {
        match self {
            SizeUnit::B => "B",
            SizeUnit::KB => "KB",
            SizeUnit::MB => "MB",
            SizeUnit::GB => "GB",
            SizeUnit::TB => "TB",
            SizeUnit::KiB => "KiB",
            SizeUnit::MiB => "MiB",
            SizeUnit::GiB => "GiB",
            SizeUnit::TiB => "TiB",
        }
    }
}

impl Size {
    pub fn bytes(self) -> f64 {
        units::size_bytes(&format!("1{}", self.unit.text())).unwrap_or(1e9) * self.value
    }

    pub fn parse(text: &str) -> Result<Size, String> {
        units::size_bytes(text)?;
        let t = text.trim();
        let split = t.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(t.len());
        let unit_text = t[split..].trim().to_ascii_lowercase();
        let unit = if unit_text.is_empty() || unit_text == "g" {
            SizeUnit::GB
        } else {
            SizeUnit::ALL
                .into_iter()
                .find(|u| u.text().to_ascii_lowercase() == unit_text)
                .unwrap_or(SizeUnit::GB)
        };
        Ok(Size {
            value: units::number(&t[..split])?,
            unit,
        })
    }
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.value, self.unit.text())
    }
}

/// Every input the user can set; `None` means "the default" (or "not given" for custom keys).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scenario {
    pub hw: Option<String>,
    pub bw: Option<f64>,
    pub mem: Option<f64>,
    pub kind: Option<Kind>,
    pub tflops: Option<f64>,
    pub usable: Option<f64>,
    pub model: Option<String>,
    pub params: Option<f64>,
    pub active: Option<f64>,
    pub layers: Option<u32>,
    pub kv_heads: Option<u32>,
    pub head_dim: Option<u32>,
    pub quant: Option<String>,
    pub bpw: Option<f64>,
    pub weights: Option<Size>,
    pub ctx: Option<u32>,
    pub kv: Option<String>,
    pub gpu_frac: Option<f64>,
    pub ram_bw: Option<f64>,
    pub offload_experts: Option<bool>,
    pub tp: Option<u32>,
    pub split: Option<u32>,
    pub batch: Option<u32>,
    pub draft: Option<String>,
    pub draft_weights: Option<Size>,
    pub k: Option<u32>,
    pub accept: Option<f64>,
    pub prompt: Option<u32>,
}

/// A key whose value could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyIssue {
    pub key: String,
    pub problem: String,
}

impl std::fmt::Display for KeyIssue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.key, self.problem)
    }
}

/// Every key the codec reads, in the order it writes them.
pub const KEYS: [&str; 29] = [
    "v",
    "hw",
    "bw",
    "mem",
    "kind",
    "tflops",
    "usable",
    "model",
    "params",
    "active",
    "layers",
    "kv_heads",
    "head_dim",
    "quant",
    "bpw",
    "weights",
    "ctx",
    "kv",
    "gpu_frac",
    "ram_bw",
    "offload",
    "tp",
    "split",
    "batch",
    "draft",
    "draft_weights",
    "k",
    "accept",
    "prompt",
];

fn id(text: &str) -> Result<String, String> {
    let t = text.trim();
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
fn shorten(t: &str) -> String {
    if t.chars().count() > 40 {
        format!("{}…", t.chars().take(40).collect::<String>())
    } else {
        t.to_string()
    }
}

/// `"abc" is not a number`: the value as typed, then what is wrong with it.
fn quote_err(text: &str, e: String) -> String {
    if e.starts_with('"') {
        e
    } else {
        format!("\"{}\" {e}", shorten(text.trim()))
    }
}

impl Scenario {
    /// Sets one key from its text. Unknown keys are ignored (`Ok(false)`).
    pub fn set(&mut self, key: &str, text: &str) -> Result<bool, String> {
        let r = (|| -> Result<(), String> {
            match key {
                "v" => {
                    if text.trim() != FORMAT_VERSION {
                        return Err(format!("is not a known version; reading as {FORMAT_VERSION}"));
                    }
                }
                "hw" => self.hw = Some(id(text)?),
                "bw" => self.bw = Some(units::positive(text, 0.01, 100_000.0)?),
                "mem" => self.mem = Some(units::positive(text, 0.01, 100_000.0)?),
                "kind" => {
                    self.kind =
                        Some(Kind::parse(text.trim()).ok_or_else(|| format!("\"{}\" is not gpu, apple, soc or cpu", shorten(text)))?)
                }
                "tflops" => self.tflops = Some(units::positive(text, 0.001, 1_000_000.0)?),
                "usable" => self.usable = Some(units::number_in(text, 0.01, 1.0)?),
                "model" => self.model = Some(id(text)?),
                "params" => self.params = Some(units::positive(text, 0.0001, 100_000.0)?),
                "active" => self.active = Some(units::positive(text, 0.0001, 100_000.0)?),
                "layers" => self.layers = Some(units::whole(text, 1, 1000)?),
                "kv_heads" => self.kv_heads = Some(units::whole(text, 1, 1024)?),
                "head_dim" => self.head_dim = Some(units::whole(text, 1, 4096)?),
                "quant" => self.quant = Some(id(text)?),
                "bpw" => self.bpw = Some(units::positive(text, 0.5, 64.0)?),
                "weights" => self.weights = Some(Size::parse(text)?),
                "ctx" => self.ctx = Some(units::whole(text, 0, 100_000_000)?),
                "kv" => self.kv = Some(id(text)?),
                "gpu_frac" => self.gpu_frac = Some(units::number_in(text, 0.0, 1.0)?),
                "ram_bw" => self.ram_bw = Some(units::positive(text, 0.01, 100_000.0)?),
                "offload" => {
                    self.offload_experts = Some(match text.trim() {
                        "experts" => true,
                        "none" => false,
                        t => return Err(format!("\"{}\" is not experts or none", shorten(t))),
                    })
                }
                "tp" => self.tp = Some(units::whole(text, 1, 64)?),
                "split" => self.split = Some(units::whole(text, 1, 64)?),
                "batch" => self.batch = Some(units::whole(text, 1, 4096)?),
                "draft" => self.draft = Some(id(text)?),
                "draft_weights" => self.draft_weights = Some(Size::parse(text)?),
                "k" => self.k = Some(units::whole(text, 1, 32)?),
                "accept" => self.accept = Some(units::number_in(text, 0.0, 1.0)?),
                "prompt" => self.prompt = Some(units::whole(text, 0, 10_000_000)?),
                _ => return Ok(()),
            }
            Ok(())
        })();
        r.map_err(|e| quote_err(text, e))?;
        Ok(KEYS.contains(&key))
    }

    /// Reads a query string (with or without the leading `?`). Bad values are left at their
    /// default and reported; unknown keys are ignored.
    pub fn from_query(query: &str) -> (Scenario, Vec<KeyIssue>) {
        let mut s = Scenario::default();
        let mut issues = Vec::new();
        for (key, value) in parse_query(query) {
            if let Err(problem) = s.set(&key, &value) {
                issues.retain(|i: &KeyIssue| i.key != key);
                issues.push(KeyIssue { key, problem });
            }
        }
        (s, issues)
    }

    /// Does any custom-model key stand in this scenario?
    pub fn has_custom_model_keys(&self) -> bool {
        self.params.is_some() || self.active.is_some() || self.layers.is_some() || self.kv_heads.is_some() || self.head_dim.is_some()
    }

    /// Every key that is set, with its value as text, in [`KEYS`] order (defaults included).
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut out: Vec<(&'static str, String)> = Vec::new();
        let mut put = |k: &'static str, v: Option<String>| {
            if let Some(v) = v {
                out.push((k, v));
            }
        };
        put("hw", self.hw.clone());
        put("bw", self.bw.map(num));
        put("mem", self.mem.map(num));
        put("kind", self.kind.map(|k| k.id().to_string()));
        put("tflops", self.tflops.map(num));
        put("usable", self.usable.map(num));
        put("model", self.model.clone());
        put("params", self.params.map(num));
        put("active", self.active.map(num));
        put("layers", self.layers.map(|v| v.to_string()));
        put("kv_heads", self.kv_heads.map(|v| v.to_string()));
        put("head_dim", self.head_dim.map(|v| v.to_string()));
        put("quant", self.quant.clone());
        put("bpw", self.bpw.map(num));
        put("weights", self.weights.map(|w| w.to_string()));
        put("ctx", self.ctx.map(|v| v.to_string()));
        put("kv", self.kv.clone());
        put("gpu_frac", self.gpu_frac.map(num));
        put("ram_bw", self.ram_bw.map(num));
        put(
            "offload",
            self.offload_experts.map(|e| if e { "experts" } else { "none" }.to_string()),
        );
        put("tp", self.tp.map(|v| v.to_string()));
        put("split", self.split.map(|v| v.to_string()));
        put("batch", self.batch.map(|v| v.to_string()));
        put("draft", self.draft.clone());
        put("draft_weights", self.draft_weights.map(|w| w.to_string()));
        put("k", self.k.map(|v| v.to_string()));
        put("accept", self.accept.map(num));
        put("prompt", self.prompt.map(|v| v.to_string()));
        out
    }

    /// The text of one key if it is set.
    pub fn value_text(&self, key: &str) -> Option<String> {
        self.pairs().into_iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// Unsets one key (back to its default, or "not given").
    pub fn clear(&mut self, key: &str) {
        match key {
            "hw" => self.hw = None,
            "bw" => self.bw = None,
            "mem" => self.mem = None,
            "kind" => self.kind = None,
            "tflops" => self.tflops = None,
            "usable" => self.usable = None,
            "model" => self.model = None,
            "params" => self.params = None,
            "active" => self.active = None,
            "layers" => self.layers = None,
            "kv_heads" => self.kv_heads = None,
            "head_dim" => self.head_dim = None,
            "quant" => self.quant = None,
            "bpw" => self.bpw = None,
            "weights" => self.weights = None,
            "ctx" => self.ctx = None,
            "kv" => self.kv = None,
            "gpu_frac" => self.gpu_frac = None,
            "ram_bw" => self.ram_bw = None,
            "offload" => self.offload_experts = None,
            "tp" => self.tp = None,
            "split" => self.split = None,
            "batch" => self.batch = None,
            "draft" => self.draft = None,
            "draft_weights" => self.draft_weights = None,
            "k" => self.k = None,
            "accept" => self.accept = None,
            "prompt" => self.prompt = None,
            _ => {}
        }
    }

    /// Writes the scenario as a query string: `v=1` first, keys in [`KEYS`] order, defaults left
    /// out (except where leaving one out would change the meaning: `hw` beside `bw`, `model`
    /// beside custom-model keys).
    pub fn to_query(&self) -> String {
        let custom_machine = self.bw.is_some();
        let custom_model = self.has_custom_model_keys();
        let is_default = |k: &str, v: &str| match k {
            "hw" => !custom_machine && v == DEFAULT_HW,
            "model" => !custom_model && v == DEFAULT_MODEL,
            "quant" => v == DEFAULT_QUANT,
            "ctx" => v == DEFAULT_CTX.to_string(),
            "kv" => v == DEFAULT_KV,
            "tp" | "split" => v == "1",
            "k" => v == DEFAULT_K.to_string(),
            "accept" => v == num(DEFAULT_ACCEPT),
            "prompt" => v == DEFAULT_PROMPT.to_string(),
            _ => false,
        };
        std::iter::once(("v", FORMAT_VERSION.to_string()))
            .chain(self.pairs().into_iter().filter(|(k, v)| !is_default(k, v)))
            .map(|(k, v)| format!("{k}={}", encode(&v)))
            .collect::<Vec<_>>()
            .join("&")
    }

    /// The default value of `key` as text, for notices ("using 1008").
    pub fn default_text(&self, key: &str, cat: &Catalog) -> String {
        let machine = cat.machine(self.hw.as_deref().unwrap_or(DEFAULT_HW)).ok();
        match key {
            "hw" => DEFAULT_HW.into(),
            "bw" => machine.map_or("none".into(), |m| num(m.bandwidth_gbs)),
            "mem" => machine.map_or("none".into(), |m| num(m.memory_gib)),
            "model" => DEFAULT_MODEL.into(),
            "quant" => DEFAULT_QUANT.into(),
            "kv" => DEFAULT_KV.into(),
            "ctx" => DEFAULT_CTX.to_string(),
            "prompt" => DEFAULT_PROMPT.to_string(),
            "k" => DEFAULT_K.to_string(),
            "accept" => num(DEFAULT_ACCEPT),
            "ram_bw" => num(estimator::DEFAULT_RAM_BW_GBS),
            "tp" | "split" | "batch" => "1".into(),
            "gpu_frac" => "as much as fits".into(),
            "offload" => "none".into(),
            "v" => FORMAT_VERSION.into(),
            _ => "none".into(),
        }
    }

    /// Resolves ids against the catalogs and fills defaults. Every key that cannot be used is
    /// reported (an unknown id names the nearest ones).
    pub fn resolve(&self, cat: &Catalog) -> Result<Inputs, Vec<KeyIssue>> {
        let mut issues = Vec::new();
        let mut fail = |key: &str, problem: String| issues.push(KeyIssue { key: key.into(), problem });

        // Machine: a catalog id, or custom when bw is given without hw.
        let machine = if self.hw.is_none() && self.bw.is_some() {
            Some(MachineSpec {
                name: "custom machine".into(),
                kind: self.kind.unwrap_or(Kind::Gpu),
                bandwidth_gbs: self.bw.unwrap_or(1.0),
                memory_gib: self.mem,
                tflops: self.tflops,
                usable_fraction: self.usable.unwrap_or(if self.kind == Some(Kind::Apple) { 0.75 } else { 1.0 }),
                hbm: false,
                time: crate::catalog::calibration().time_model(Class::of(self.kind.unwrap_or(Kind::Gpu), false)),
            })
        } else {
            match cat.machine(self.hw.as_deref().unwrap_or(DEFAULT_HW)) {
                Ok(m) => {
                    let base = machine_spec(m);
                    Some(MachineSpec {
                        bandwidth_gbs: self.bw.unwrap_or(base.bandwidth_gbs),
                        memory_gib: self.mem.or(base.memory_gib),
                        tflops: self.tflops.or(base.tflops),
                        usable_fraction: self.usable.unwrap_or(base.usable_fraction),
                        ..base
                    })
                }
                Err(e) => {
                    fail("hw", e);
                    None
                }
            }
        };

        // Weights format.
        let quant = match (&self.quant, self.bpw, self.weights) {
            (_, _, Some(w)) => Some(WeightSpec::File { bytes: w.bytes() }),
            (_, Some(bpw), None) => Some(WeightSpec::Bits { bpw, other_bpw: None }),
            // Custom models too: the format, like every unset key, is the default scenario's.
            (q, None, None) => match cat.quant(q.as_deref().unwrap_or(DEFAULT_QUANT)) {
                Ok(q) => Some(WeightSpec::Bits {
                    bpw: q.bpw,
                    other_bpw: q.other_bpw,
                }),
                Err(e) => {
                    fail("quant", e);
                    None
                }
            },
        };

        // Model: a catalog id, or custom when custom keys or a weight file stand without one.
        let custom =
            self.model.is_none() && (self.has_custom_model_keys() || (self.weights.is_some() && self.bw.is_some() && self.hw.is_none()));
        let model = if custom {
            if self.params.is_none() && self.weights.is_none() {
                fail("params", "a custom model needs params (billions) or weights (file size)".into());
            }
            if let (Some(p), Some(a)) = (self.params, self.active) {
                if a > p {
                    fail("active", format!("{a} is more than params ({p})"));
                }
            }
            Some(ModelSpec::Custom {
                params_b: self.params,
                active_b: self.active,
                layers: self.layers,
                kv_heads: self.kv_heads,
                head_dim: self.head_dim,
            })
        } else {
            match cat.model(self.model.as_deref().unwrap_or(DEFAULT_MODEL)) {
                Ok(m) => Some(ModelSpec::Arch {
                    name: m.name.clone(),
                    arch: Box::new(m.arch.clone()),
                }),
                Err(e) => {
                    fail("model", e);
                    None
                }
            }
        };

        let kv_bits = match cat.kv_type(self.kv.as_deref().unwrap_or(DEFAULT_KV)) {
            Ok(q) => Some(q.bpw),
            Err(e) => {
                fail("kv", e);
                None
            }
        };

        let speculation = match (&self.draft, self.draft_weights) {
            (_, Some(w)) => Some(w.bytes()),
            (Some(d), None) => match cat.model(d) {
                Ok(m) => {
                    let bits = match quant {
                        Some(WeightSpec::Bits { bpw, .. }) => bpw,
                        _ => cat.quant(DEFAULT_QUANT).map_or(4.85, |q| q.bpw),
                    };
                    Some(m.arch.read_params_per_token() * bits / 8.0)
                }
                Err(e) => {
                    fail("draft", e);
                    None
                }
            },
            (None, None) => None,
        }
        .map(|draft_bytes| Speculation {
            draft_bytes,
            k: self.k.unwrap_or(DEFAULT_K),
            accept: self.accept.unwrap_or(DEFAULT_ACCEPT),
        });

        if !issues.is_empty() {
            return Err(issues);
        }
        let (Some(machine), Some(model), Some(weights), Some(kv_bits)) = (machine, model, quant, kv_bits) else {
            return Err(vec![KeyIssue {
                key: "v".into(),
                problem: "scenario incomplete".into(),
            }]);
        };
        Ok(Inputs {
            machine,
            model,
            weights,
            context: self.ctx.unwrap_or(DEFAULT_CTX) as f64,
            kv_bits,
            placement: Placement {
                gpu_frac: self.gpu_frac,
                ram_bw_gbs: self.ram_bw.unwrap_or(estimator::DEFAULT_RAM_BW_GBS),
                expert_offload: self.offload_experts.unwrap_or(false),
            },
            tp: self.tp.unwrap_or(1),
            split: self.split.unwrap_or(1),
            batch: self.batch,
            speculation,
            prompt: self.prompt.unwrap_or(DEFAULT_PROMPT) as f64,
        })
    }
}

/// How the page presents a scenario: the full page, or a compact embed with chosen views.
/// These keys (`embed`, `view`) travel beside the scenario's in the same query string.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Presentation {
    pub embed: bool,
    /// Views named by `view=context,machines`, in order, known ones only.
    pub views: Vec<String>,
}

/// The views an embed can show besides the headline.
pub const EMBED_VIEWS: [&str; 8] = ["headline", "machines", "context", "quants", "spill", "batch", "spec", "table"];

impl Presentation {
    pub fn from_query(query: &str) -> Presentation {
        let mut p = Presentation::default();
        for (k, v) in parse_query(query) {
            match k.as_str() {
                "embed" => p.embed = v == "1" || v == "true",
                "view" => {
                    p.views = v
                        .split(',')
                        .map(str::trim)
                        .filter(|v| EMBED_VIEWS.contains(v))
                        .map(str::to_string)
                        .collect()
                }
                _ => {}
            }
        }
        p
    }

    /// `&embed=1&view=…` to append to a scenario's query.
    pub fn to_query_suffix(&self) -> String {
        let mut out = String::new();
        if self.embed {
            out.push_str("&embed=1");
        }
        if !self.views.is_empty() {
            out.push_str(&format!("&view={}", encode(&self.views.join(","))));
        }
        out
    }
}

/// A catalog machine as the estimator sees it, without the scenario's overrides.
pub fn machine_spec(m: &crate::catalog::Machine) -> MachineSpec {
    MachineSpec {
        name: m.name.clone(),
        kind: m.kind,
        bandwidth_gbs: m.bandwidth_gbs,
        memory_gib: Some(m.memory_gib),
        tflops: m.fp16_tflops,
        usable_fraction: m.usable_fraction.unwrap_or(1.0),
        hbm: m.is_hbm(),
        time: crate::catalog::calibration().time_model(Class::of(m.kind, m.is_hbm())),
    }
}

/// Shortest text that reads back as the same f64.
fn num(v: f64) -> String {
    format!("{v}")
}

/// Splits `a=1&b=x%20y` into decoded pairs.
pub fn parse_query(query: &str) -> Vec<(String, String)> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(k), decode(v))
        })
        .collect()
}

/// Percent-encodes everything but unreserved characters.
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Decodes `%XX` and `+`; invalid escapes stay as written, invalid UTF-8 becomes U+FFFD.
pub fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(b) => {
                        out.push(b);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_decoding_is_total() {
        assert_eq!(decode("a%20b+c"), "a b c");
        assert_eq!(decode("%"), "%");
        assert_eq!(decode("%zz"), "%zz");
        assert_eq!(decode("%e2%82%ac"), "€");
        assert_eq!(decode("%ff"), "\u{fffd}");
    }

    #[test]
    fn bad_values_are_reported_by_key_and_left_at_default() {
        let (s, issues) = Scenario::from_query("bw=abc&ctx=-3&hw=rtx-3090&zzz=1");
        assert_eq!(s.bw, None);
        assert_eq!(s.ctx, None);
        assert_eq!(s.hw.as_deref(), Some("rtx-3090"));
        let keys: Vec<&str> = issues.iter().map(|i| i.key.as_str()).collect();
        assert_eq!(keys, vec!["bw", "ctx"]);
        assert_eq!(issues[0].to_string(), "bw: \"abc\" is not a number");
    }

    #[test]
    fn presentation_keys_ride_beside_the_scenario() {
        let p = Presentation::from_query("?hw=rtx-3090&embed=1&view=context,%3Cscript%3E,machines");
        assert!(p.embed);
        assert_eq!(p.views, vec!["context", "machines"]);
        assert_eq!(p.to_query_suffix(), "&embed=1&view=context%2Cmachines");
        assert_eq!(Presentation::from_query("hw=rtx-3090"), Presentation::default());
    }

    #[test]
    fn defaults_are_left_out_of_links() {
        let (s, _) = Scenario::from_query("v=1&hw=rtx-4090&ctx=4096&quant=q4_k_m&ctx=8192");
        assert_eq!(s.to_query(), "v=1&ctx=8192");
    }
}
