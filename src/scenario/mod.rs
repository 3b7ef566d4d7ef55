//! The scenario: every input of an estimate, and the one codec that turns it into a URL query
//! string and back. The web app's URL, the CLI argument and the tests all go through it; every
//! key is defined once in [`keys`], and docs/scenario.md lists them (a test keeps the two in step).

mod devices;
mod host;
pub mod keys;
pub mod link;
pub mod measured_ram;
pub mod scored;

use crate::calibration::{Backend, Class, Vendor};
use crate::catalog::{Catalog, Kind};
use crate::estimator::arch::{Arch, Attention, Linear, LinearKind};
use crate::estimator::{self, Inputs, MachineSpec, ModelSpec, Note, PassShape, Placement, Speculation, WeightSpec};
use crate::text::shorten;
use crate::text::units;
use keys::Scope;
pub use keys::{Key, Theme, Value, ValueKind, View, EMBED_VIEWS};

pub const FORMAT_VERSION: &str = "1";
pub const DEFAULT_HW: &str = "rtx-4090";
pub const DEFAULT_MODEL: &str = "qwen2.5-32b";
pub const DEFAULT_QUANT: &str = "q4_k_m";
pub const DEFAULT_KV: &str = "f16";
pub const DEFAULT_CTX: u32 = 4096;
pub const DEFAULT_PROMPT: u32 = 1024;
pub const DEFAULT_K: u32 = 4;
pub const DEFAULT_ACCEPT: f64 = 0.7;

/// What resolving a scenario found wrong, and what it had to assume.
#[derive(Default)]
struct Resolving {
    issues: Vec<KeyIssue>,
    notes: Vec<Note>,
}

impl Resolving {
    fn fail(&mut self, key: Key, problem: String) {
        self.issues.push(KeyIssue { key, problem });
    }
}

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
        let unit = match self.unit {
            SizeUnit::B => 1.0,
            SizeUnit::KB => 1e3,
            SizeUnit::MB => 1e6,
            SizeUnit::GB => 1e9,
            SizeUnit::TB => 1e12,
            SizeUnit::KiB => 1024.0,
            SizeUnit::MiB => 1024.0 * 1024.0,
            SizeUnit::GiB => 1024.0 * 1024.0 * 1024.0,
            SizeUnit::TiB => 1024f64.powi(4),
        };
        self.value * unit
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

/// Every input the user can set: the scenario-scope keys that are given (an absent key means
/// "the default", or "not given" for custom keys).
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// One slot per key, at `key as usize` (the key table is in key order, which a test checks).
    values: Vec<Option<Value>>,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            values: vec![None; keys::KEYS.len()],
        }
    }
}

/// A key whose value could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyIssue {
    pub key: Key,
    pub problem: String,
}

impl std::fmt::Display for KeyIssue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.key.name(), self.problem)
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

/// What a query string held besides the scenario: the names it did not know.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Unknown {
    pub names: Vec<String>,
}

impl Unknown {
    /// One line per unknown name: `zzz: unknown key`, with `did you mean ctx?` where one is close.
    pub fn lines(&self) -> Vec<String> {
        self.names
            .iter()
            .map(|n| match Key::nearest(n) {
                Some(k) => format!("{}: unknown key; did you mean {}?", shorten(n), k.name()),
                None => format!("{}: unknown key", shorten(n)),
            })
            .collect()
    }
}

impl Scenario {
    /// Sets `key` from its text; on an error the scenario is unchanged.
    pub fn set(&mut self, key: Key, text: &str) -> Result<(), String> {
        let value = key.spec().value.parse(text).map_err(|e| quote_err(text, e))?;
        if key != Key::V {
            self.put(key, value);
        }
        Ok(())
    }

    /// Puts an already parsed value.
    pub fn put(&mut self, key: Key, value: Value) {
        self.values[key as usize] = Some(value);
    }

    /// Puts `value` only where `key` is not set yet.
    pub fn put_if_unset(&mut self, key: Key, value: Option<Value>) {
        if let (false, Some(v)) = (self.has(key), value) {
            self.put(key, v);
        }
    }

    /// Unsets one key (back to its default, or "not given").
    pub fn clear(&mut self, key: Key) {
        self.values[key as usize] = None;
    }

    pub fn get(&self, key: Key) -> Option<&Value> {
        self.values[key as usize].as_ref()
    }

    pub fn has(&self, key: Key) -> bool {
        self.values[key as usize].is_some()
    }

    /// A number key's value.
    pub fn number(&self, key: Key) -> Option<f64> {
        match self.get(key) {
            Some(Value::Number(v)) => Some(*v),
            _ => None,
        }
    }

    /// A whole-number key's value.
    pub fn whole(&self, key: Key) -> Option<u32> {
        match self.get(key) {
            Some(Value::Whole(v)) => Some(*v),
            _ => None,
        }
    }

    /// An id or word key's value.
    pub fn text(&self, key: Key) -> Option<&str> {
        match self.get(key) {
            Some(Value::Text(t)) => Some(t),
            _ => None,
        }
    }

    /// A size key's value.
    pub fn size(&self, key: Key) -> Option<Size> {
        match self.get(key) {
            Some(Value::Size(s)) => Some(*s),
            _ => None,
        }
    }

    pub fn kind(&self) -> Option<Kind> {
        match self.get(Key::Kind) {
            Some(Value::Kind(k)) => Some(*k),
            _ => None,
        }
    }

    /// Are routed experts in system RAM: `offload=experts`, or `cpu_moe=` (which implies it)?
    pub fn offload_experts(&self) -> bool {
        self.text(Key::Offload) == Some("experts") || (self.has(Key::CpuMoe) && self.text(Key::Offload) != Some("none"))
    }

    /// The share of the routed experts `cpu_moe=` puts in system RAM: those of its first layers
    /// that have experts (leading dense layers have none). 1 without it; an issue naming
    /// `cpu_moe` where the model has no experts or no layer count, or fewer layers.
    fn resolve_cpu_moe(&self, model: Option<&ModelSpec>, r: &mut Resolving) -> f64 {
        let (Some(n), Some(model)) = (self.whole(Key::CpuMoe), model) else {
            return 1.0;
        };
        if self.text(Key::Offload) == Some("none") {
            r.fail(
                Key::CpuMoe,
                "puts experts in RAM, which offload=none refuses: drop one of the two".into(),
            );
            return 1.0;
        }
        let (name, layers, dense, moe) = match model {
            ModelSpec::Arch { name, arch, .. } => (name.as_str(), Some(arch.layers), arch.dense_layers, arch.is_moe()),
            ModelSpec::Custom { layers, routing, .. } => ("the custom model", *layers, 0, routing.is_some()),
        };
        match layers {
            _ if !moe => r.fail(Key::CpuMoe, format!("{name} has no routed experts to keep in RAM")),
            None => r.fail(Key::CpuMoe, "counts layers: give the custom model's layers=".into()),
            Some(l) if n > l => r.fail(Key::CpuMoe, format!("{n} is more than {name}'s {l} layers")),
            Some(l) if l > dense => return f64::from(n.saturating_sub(dense)) / f64::from(l - dense),
            Some(_) => {}
        }
        1.0
    }

    /// Reads a query string (with or without the leading `?`). Bad values are left at their
    /// default and reported; page keys (`embed`, `view`) are left to [`Presentation`].
    pub fn from_query(query: &str) -> (Scenario, Vec<KeyIssue>) {
        let (s, issues, _) = Scenario::from_query_with_unknown(query);
        (s, issues)
    }

    /// [`Scenario::from_query`], also naming the keys no table entry knows.
    pub fn from_query_with_unknown(query: &str) -> (Scenario, Vec<KeyIssue>, Unknown) {
        let mut s = Scenario::default();
        let mut issues: Vec<KeyIssue> = Vec::new();
        let mut unknown = Unknown::default();
        for (name, value) in parse_query(query) {
            let Some(key) = Key::named(&name) else {
                if !name.is_empty() && !unknown.names.contains(&name) {
                    unknown.names.push(name);
                }
                continue;
            };
            if key.spec().scope() != Scope::Scenario {
                continue;
            }
            if let Err(problem) = s.set(key, &value) {
                issues.retain(|i| i.key != key);
                issues.push(KeyIssue { key, problem });
            }
        }
        (s, issues, unknown)
    }

    /// Moves the scenario to catalog model `id`: a custom model's keys and its weight file go.
    pub fn choose_model(&mut self, id: &str) {
        for key in Key::all().filter(|k| k.spec().group == keys::Group::CustomModel) {
            self.clear(key);
        }
        self.clear(Key::Weights);
        self.clear(Key::Src);
        if id == DEFAULT_MODEL {
            self.clear(Key::Model);
        } else {
            self.put(Key::Model, Value::Text(id.to_string()));
        }
    }

    /// Does any custom-model key stand in this scenario?
    pub fn has_custom_model_keys(&self) -> bool {
        Key::all().any(|k| k.spec().group == keys::Group::CustomModel && self.has(k))
    }

    /// A custom machine: `bw` without `hw`.
    pub fn is_custom_machine(&self) -> bool {
        !self.has(Key::Hw) && self.has(Key::Bw)
    }

    /// A custom model: custom-model keys without `model`, or a custom machine's bare weight file.
    pub fn is_custom_model(&self) -> bool {
        !self.has(Key::Model) && (self.has_custom_model_keys() || (self.has(Key::Weights) && self.is_custom_machine()))
    }

    /// Every key that is set, with its value as text, in link order (defaults included).
    pub fn pairs(&self) -> Vec<(Key, String)> {
        Key::all().filter_map(|k| Some((k, self.get(k)?.text()))).collect()
    }

    /// The text of one key if it is set.
    pub fn value_text(&self, key: Key) -> Option<String> {
        self.get(key).map(Value::text)
    }

    /// Writes the scenario as a query string: `v=1` first, keys in link order, defaults left out
    /// (except where leaving one out would change the meaning: `hw` beside `bw`, `model` beside
    /// custom-model keys).
    pub fn to_query(&self) -> String {
        self.query(false)
    }

    /// [`Scenario::to_query`] keeping every key that is set, defaults too: for reading the
    /// scenario back where it matters whether a key was given (the parse worker's calibration
    /// says "the machine chosen" only of a machine that was).
    pub fn to_query_with_defaults(&self) -> String {
        self.query(true)
    }

    fn query(&self, keep_defaults: bool) -> String {
        let custom_machine = self.has(Key::Bw);
        let custom_model = self.has_custom_model_keys();
        let is_default = |k: Key, v: &str| match k {
            _ if keep_defaults => false,
            Key::Hw if custom_machine => false,
            Key::Model if custom_model => false,
            _ => k.spec().link_default == Some(v),
        };
        std::iter::once(format!("v={FORMAT_VERSION}"))
            .chain(
                self.pairs()
                    .into_iter()
                    .filter(|(k, v)| !is_default(*k, v))
                    .map(|(k, v)| format!("{}={}", k.name(), encode(&v))),
            )
            .collect::<Vec<_>>()
            .join("&")
    }

    /// The default value of `key` as text, for notices ("using 1008").
    pub fn default_text(&self, key: Key, cat: &Catalog) -> String {
        let machine = cat.machine(self.text(Key::Hw).unwrap_or(DEFAULT_HW)).ok();
        match key {
            Key::Bw => machine.map_or("none".into(), |m| num(m.bandwidth_gbs)),
            Key::Mem => machine.map_or("none".into(), |m| num(m.memory_gib)),
            Key::RamBw => num(estimator::DEFAULT_RAM_BW_GBS),
            Key::Batch => "1".into(),
            Key::V => FORMAT_VERSION.into(),
            _ => match key.spec().link_default {
                Some(d) => d.to_string(),
                None => match key {
                    Key::GpuFrac => "as much as fits".into(),
                    Key::Offload => "none".into(),
                    _ => "none".into(),
                },
            },
        }
    }

    /// Resolves ids against the catalogs and fills defaults. Every key that cannot be used is
    /// reported (an unknown id names the nearest ones).
    pub fn resolve(&self, cat: &Catalog) -> Result<Inputs, Vec<KeyIssue>> {
        let mut r = Resolving::default();
        let machine = self.resolve_machine(cat, &mut r);
        let machine = self.apply_engine(cat, machine, &mut r);
        let host = self.resolve_host(cat, machine.as_ref(), &mut r);
        let machine = machine.map(|m| with_host_cpu(m, host.as_ref())).map(|mut m| {
            // A GPU's or Apple chip's own memory streams each format at the rate its kernels
            // reach; a CPU's rate is fitted on its own runs.
            if let (false, Some((format, (factor, runs)))) = (m.kind == Kind::Cpu, self.format_fit()) {
                m.time.own.weight *= factor;
                r.notes.push(Note::FormatStreaming { format, factor, runs });
            }
            m
        });
        let devices = self.resolve_devices(cat, &mut r);
        let quant = self.resolve_weights(cat, &mut r);
        self.check_format_runs(cat, &mut r);
        let model = self.resolve_model(cat, &mut r);
        let kv_bits = match cat.kv_type(self.text(Key::Kv).unwrap_or(DEFAULT_KV)) {
            Ok(q) => Some(q.bpw),
            Err(e) => {
                r.fail(Key::Kv, e);
                None
            }
        };
        let context = self.whole(Key::Ctx).unwrap_or(DEFAULT_CTX) as f64;
        let speculation = self.resolve_draft(cat, quant, kv_bits, context, &mut r);
        let expert_ram_share = self.resolve_cpu_moe(model.as_ref(), &mut r);
        if !r.issues.is_empty() {
            return Err(r.issues);
        }
        let (Some(machine), Some(model), Some(weights), Some(kv_bits)) = (machine, model, quant, kv_bits) else {
            return Err(vec![KeyIssue {
                key: Key::V,
                problem: "scenario incomplete".into(),
            }]);
        };
        Ok(Inputs {
            machine,
            model,
            weights,
            context,
            kv_bits,
            placement: Placement {
                gpu_frac: self.number(Key::GpuFrac),
                ram_bw_gbs: self.number(Key::RamBw).unwrap_or(estimator::DEFAULT_RAM_BW_GBS),
                expert_offload: self.offload_experts(),
                expert_ram_share,
            },
            tp: self.whole(Key::Tp).unwrap_or(1),
            split: self.whole(Key::Split).unwrap_or(1),
            batch: self.whole(Key::Batch),
            speculation,
            prompt: self.whole(Key::Prompt).unwrap_or(DEFAULT_PROMPT) as f64,
            host,
            devices,
            tensor_split: self.ratios(Key::TensorSplit),
            notes: r.notes,
        })
    }

    /// The fitted streaming factor of the scenario's weight format, with the format's id and the
    /// runs it rests on ([`crate::calibration::Calibration::formats`]); `None` for a format
    /// without one, or weights given as bits per weight.
    fn format_fit(&self) -> Option<(&'static str, (f64, usize))> {
        if self.has(Key::Bpw) {
            return None;
        }
        let id = self.text(Key::Quant).unwrap_or(DEFAULT_QUANT);
        let fit = crate::catalog::calibration().formats.iter().find(|f| f.0 == id)?;
        Some((&fit.0, fit.1))
    }

    /// The machine: a catalog id, or custom when bw is given without hw; the keys that go with
    /// it checked (a backend it runs, a custom machine's bandwidth), and what the scenario sets
    /// on it (usable share, RAM, a measured bandwidth, the user's own calibration).
    fn resolve_machine(&self, cat: &Catalog, r: &mut Resolving) -> Option<MachineSpec> {
        if !self.has(Key::Hw) && !self.has(Key::Bw) && self.has(Key::Kind) {
            r.fail(
                Key::Bw,
                "a custom machine (kind=…) needs its memory bandwidth: give bw= in GB/s, or choose a catalog machine (hw=…)".into(),
            );
        }
        if let Some(b) = self.backend_choice() {
            let (allowed, name) = self.allowed_backends(cat);
            if !allowed.contains(&b) {
                r.fail(
                    Key::Backend,
                    format!("{} does not run on {name}: it runs {}", b.id(), Backend::list(&allowed)),
                );
            }
        }
        if self.has(Key::Vendor) && !self.is_custom_machine() {
            r.notes.push(Note::VendorIgnored);
        }
        if self.is_custom_machine() {
            let kind = self.kind().unwrap_or(Kind::Gpu);
            Some(MachineSpec {
                name: "custom machine".into(),
                kind,
                bandwidth_gbs: self.number(Key::Bw).unwrap_or(1.0),
                memory_gib: self.number(Key::Mem),
                tflops: self.number(Key::Tflops),
                usable_fraction: 1.0,
                hbm: false,
                ram_gib: estimator::DEFAULT_RAM_GIB,
                time: self.time_model(kind),
            })
        } else {
            match cat.machine(self.text(Key::Hw).unwrap_or(DEFAULT_HW)) {
                Ok(m) => {
                    if m.long_tail {
                        r.notes.push(Note::LongTail {
                            source: crate::catalog::long_tail::source_url(&m.id),
                        });
                    }
                    let base = machine_spec(m, self.backend_choice());
                    Some(MachineSpec {
                        bandwidth_gbs: self.number(Key::Bw).unwrap_or(base.bandwidth_gbs),
                        memory_gib: self.number(Key::Mem).or(base.memory_gib),
                        tflops: self.number(Key::Tflops).or(base.tflops),
                        ..base
                    })
                }
                Err(e) => {
                    r.fail(Key::Hw, e);
                    None
                }
            }
        }
        .map(|mut m| {
            // Apple lets the GPU wire about two thirds of unified memory up to 36 GB and three
            // quarters above (Metal's recommendedMaxWorkingSetSize), of the memory in effect.
            m.usable_fraction = match (self.number(Key::Usable), m.kind, m.memory_gib) {
                (Some(u), _, _) => u,
                (None, Kind::Apple, Some(g)) => apple_usable_share(g),
                (None, _, _) => m.usable_fraction,
            };
            match (m.kind, self.number(Key::Ram)) {
                (Kind::Gpu, Some(r)) => m.ram_gib = r,
                (_, Some(_)) => r.notes.push(Note::RamIgnored),
                _ => {}
            }
            if let Some(how) = self.text(Key::Measured) {
                r.notes.push(Note::Measured { webgpu: how == "webgpu" });
            }
            self.apply_cal(&mut m, r);
            if self.text(Key::Fa) == Some("off") {
                // Without flash attention the KV cache streams at the rate fitted on such runs.
                let (class, backend) = self.class_and_backend(cat);
                m.time.own.kv = crate::catalog::calibration().fitted(class, backend).0.c[5];
            }
            m
        })
    }

    /// The user's own calibration (`cal=`), for the machine it was fitted for.
    fn apply_cal(&self, m: &mut MachineSpec, r: &mut Resolving) {
        if let Some((fitted_for, fit, models)) = self.text(Key::Cal).and_then(|c| crate::calibration::user::parse_cal(c).ok()) {
            if fitted_for == self.machine_key() {
                // Runs of other models say less about this one: twice the band.
                let model = (!self.is_custom_model()).then(|| self.text(Key::Model).unwrap_or(DEFAULT_MODEL));
                let other_model = !models.is_empty() && !model.is_some_and(|id| models.iter().any(|m| m == id));
                let band: f64 = if other_model {
                    (fit.band * 2.0).min(crate::calibration::user::MAX_BAND)
                } else {
                    fit.band
                };
                m.time.own = fit.apply(&m.time.own);
                m.time.band = ((1.0 - band).max(0.05), 1.0 + band);
                r.notes.push(Note::Calibrated {
                    efficiency: fit.efficiency,
                    band,
                    other_model,
                });
            } else {
                r.notes.push(Note::CalibrationForOtherMachine { fitted_for });
            }
        }
    }

    /// The engine: what it runs on, and its own fit of system RAM's streaming where it has runs.
    /// (A CPU machine whose CPU is known takes its family's streaming instead: [`with_host_cpu`].)
    fn apply_engine(&self, cat: &Catalog, machine: Option<MachineSpec>, r: &mut Resolving) -> Option<MachineSpec> {
        let engine = self.text(Key::Engine).unwrap_or(keys::ENGINES[0]);
        let backend = self.backend(cat);
        if engine == "ktransformers" && !matches!(backend, Backend::Cuda | Backend::Cpu) {
            r.fail(Key::Engine, format!("ktransformers runs cuda or cpu, not {}", backend.id()));
        }
        if backend == Backend::Mlx && engine != keys::ENGINES[0] {
            r.fail(
                Key::Engine,
                "MLX is its own runtime (backend=mlx): engine= names a llama.cpp-family runtime or ktransformers".into(),
            );
        }
        let experts = self.offload_experts();
        machine.map(|mut m| {
            let cal = crate::catalog::calibration();
            // Whole layers in system RAM are dense weights the CPU streams as a CPU machine does
            // its own; routed experts are read a few small matrices at a time.
            if let (Kind::Gpu, Some((w, _))) = (m.kind, cal.ram.side(m.kind, experts)) {
                m.time.slow.weight = w;
            }
            let side = cal.ram_for(engine).and_then(|f| f.side(m.kind, experts));
            match (side, m.kind) {
                (Some((w, _)), Kind::Cpu) => m.time.own.weight = w,
                (Some((w, _)), _) => m.time.slow.weight = w,
                (None, Kind::Cpu | Kind::Gpu) if self.has(Key::Engine) => r.notes.push(Note::EngineNotFitted {
                    engine: engine.to_string(),
                }),
                _ => {}
            }
            m
        })
    }

    /// The catalog format can run where the scenario puts it: an engine named with `engine=` must
    /// load it, and the backend must run it (MLX only on Apple's `mlx`); a format that none of the
    /// listed engines loads (AWQ, GPTQ, EXL3, …) is estimated with a note naming its runtimes.
    fn check_format_runs(&self, cat: &Catalog, r: &mut Resolving) {
        if self.has(Key::Bpw) || self.has(Key::Weights) {
            return;
        }
        let Ok(q) = cat.quant(self.text(Key::Quant).unwrap_or(DEFAULT_QUANT)) else {
            return;
        };
        let backend = self.backend(cat);
        if !q.runs_on_backend(backend.id()) {
            r.fail(
                Key::Quant,
                format!(
                    "{} runs only on {} ({}), not on {}",
                    q.name,
                    q.backends.join(", "),
                    q.runtimes,
                    backend.id()
                ),
            );
        } else if let Some(engine) = self.text(Key::Engine).filter(|e| !q.runs_on_engine(e)) {
            let runs = if q.engines.is_empty() {
                format!("{} run it", q.runtimes)
            } else {
                format!("it loads in {}", q.engines.join(", "))
            };
            r.fail(Key::Quant, format!("{engine} cannot load {}: {runs}", q.name));
        } else if q.engines.is_empty() && backend != Backend::Mlx {
            r.notes.push(Note::OtherRuntime {
                format: q.name.clone(),
                runtimes: q.runtimes.clone(),
            });
        }
    }

    /// The weights' format: a file size, bits per weight, or a catalog format.
    fn resolve_weights(&self, cat: &Catalog, r: &mut Resolving) -> Option<WeightSpec> {
        match (self.number(Key::Bpw), self.size(Key::Weights)) {
            (_, Some(w)) => Some(WeightSpec::File { bytes: w.bytes() }),
            (Some(bpw), None) => Some(WeightSpec::Bits { bpw, other_bpw: None }),
            // Custom models too: the format, like every unset key, is the default scenario's.
            (None, None) => match cat.quant(self.text(Key::Quant).unwrap_or(DEFAULT_QUANT)) {
                Ok(q) => Some(WeightSpec::Bits {
                    bpw: q.bpw,
                    other_bpw: q.other_bpw,
                }),
                Err(e) => {
                    r.fail(Key::Quant, e);
                    None
                }
            },
        }
    }

    /// The model: a catalog id, or custom when custom keys or a weight file stand without one;
    /// with the architecture keys, an exact architecture.
    fn resolve_model(&self, cat: &Catalog, r: &mut Resolving) -> Option<ModelSpec> {
        if self.is_custom_model() && self.has(Key::Hidden) {
            if self.has(Key::Params) || self.has(Key::Active) {
                r.notes.push(Note::ArchOverridesParams);
            }
            match self.custom_arch() {
                Ok(arch) => Some(ModelSpec::Arch {
                    name: "custom model".into(),
                    arch: Box::new(arch),
                    max_context: None,
                }),
                Err(issues) => {
                    for (k, p) in issues {
                        r.fail(k, p);
                    }
                    None
                }
            }
        } else if self.is_custom_model() {
            let (params, active) = (self.number(Key::Params), self.number(Key::Active));
            if params.is_none() && !self.has(Key::Weights) {
                r.fail(Key::Params, "a custom model needs params (billions) or weights (file size)".into());
            }
            if let (Some(p), Some(a)) = (params, active) {
                if a > p {
                    r.fail(Key::Active, format!("{a} is more than params ({p})"));
                }
            }
            let routing = self.custom_routing(params, active, r);
            Some(ModelSpec::Custom {
                params_b: params,
                active_b: active,
                layers: self.whole(Key::Layers),
                kv_heads: self.whole(Key::KvHeads),
                head_dim: self.whole(Key::HeadDim),
                routing,
            })
        } else {
            match cat.model(self.text(Key::Model).unwrap_or(DEFAULT_MODEL)) {
                Ok(m) => Some(ModelSpec::Arch {
                    name: m.name.clone(),
                    arch: Box::new(m.arch.clone()),
                    max_context: m.max_context,
                }),
                Err(e) => {
                    r.fail(Key::Model, e);
                    None
                }
            }
        }
    }

    /// A custom mixture of experts described by its counts: experts and top_k go together, with
    /// params and active to split the weights between shared and routed ones.
    fn custom_routing(&self, params: Option<f64>, active: Option<f64>, r: &mut Resolving) -> Option<(u32, u32)> {
        // A mixture of experts described by its counts: experts and top_k go together, with
        // params and active to split the weights between shared and routed ones.
        match (self.whole(Key::Experts), self.whole(Key::TopK)) {
            (Some(e), Some(k)) => {
                match (params, active) {
                    (Some(p), Some(a)) if a < p && k < e => match estimator::custom_split(params, active, Some((e, k))) {
                        Some((_, shared)) if shared >= 0.0 => {
                            r.notes.push(Note::CustomMoe { experts: e, top_k: k, params_b: p, active_b: a });
                        }
                        _ => r.fail(
                            Key::Experts,
                            format!("{e} experts of which {k} per token cannot hold {p}B in all with {a}B active: the routed experts would outweigh the whole model"),
                        ),
                    },
                    (Some(_), Some(_)) if k >= e => r.fail(Key::TopK, format!("{k} is not fewer than experts ({e})")),
                    _ => r.fail(Key::Active, "a custom mixture of experts (experts=, top_k=) needs params and active, active below params".into()),
                }
                Some((e, k))
            }
            (Some(_), None) => {
                r.fail(Key::TopK, "experts= needs top_k= (experts each token is routed to)".into());
                None
            }
            (None, Some(_)) => {
                r.fail(Key::Experts, "top_k= needs experts= (routed experts per layer)".into());
                None
            }
            (None, None) => {
                if let (Some(p), Some(a)) = (params, active) {
                    if a < p * 0.999 {
                        r.notes.push(Note::CustomMoeAssumed);
                    }
                }
                None
            }
        }
    }

    /// The draft model for speculative decoding, by catalog id or by its file size.
    fn resolve_draft(
        &self,
        cat: &Catalog,
        quant: Option<WeightSpec>,
        kv_bits: Option<f64>,
        context: f64,
        r: &mut Resolving,
    ) -> Option<Speculation> {
        // (weights read per token, stored, KV cache at the context)
        let draft = match (self.text(Key::Draft), self.size(Key::DraftWeights)) {
            (_, Some(w)) => Some((w.bytes(), w.bytes(), None, PassShape::default())),
            (Some(d), None) => match cat.model(d) {
                Ok(m) => {
                    let bits = match quant {
                        Some(WeightSpec::Bits { bpw, .. }) => bpw,
                        _ => cat.quant(DEFAULT_QUANT).map_or(4.85, |q| q.bpw),
                    };
                    let kv = kv_bits.map(|b| m.arch.kv_bytes(context, b));
                    let shape = PassShape {
                        layers: f64::from(m.arch.layers),
                        expert_matmuls: m.arch.experts_touched(1.0) * m.arch.moe_layers(),
                    };
                    Some((
                        m.arch.read_params_per_token() * bits / 8.0,
                        m.arch.total_params() * bits / 8.0,
                        kv,
                        shape,
                    ))
                }
                Err(e) => {
                    r.fail(Key::Draft, e);
                    None
                }
            },
            (None, None) => None,
        };
        draft.map(|(draft_bytes, draft_stored_bytes, draft_kv_bytes, draft_shape)| Speculation {
            draft_bytes,
            draft_stored_bytes,
            draft_kv_bytes,
            draft_shape,
            k: self.whole(Key::K).unwrap_or(DEFAULT_K),
            accept: self.number(Key::Accept).unwrap_or(DEFAULT_ACCEPT),
        })
    }

    /// What a calibration is fitted for: the catalog machine's id, or a custom machine's bandwidth.
    pub fn machine_key(&self) -> String {
        if self.is_custom_machine() {
            self.value_text(Key::Bw).unwrap_or_default()
        } else {
            self.text(Key::Hw).unwrap_or(DEFAULT_HW).to_string()
        }
    }

    /// The kind of the scenario's machine: the catalog machine's, or a custom machine's `kind`.
    pub fn machine_kind(&self, cat: &Catalog) -> Kind {
        match cat.machine(self.text(Key::Hw).unwrap_or(DEFAULT_HW)) {
            Ok(m) if !self.is_custom_machine() => m.kind,
            _ => self.kind().unwrap_or(Kind::Gpu),
        }
    }

    /// The backend the `backend` key names, if given.
    pub fn backend_choice(&self) -> Option<Backend> {
        self.text(Key::Backend).and_then(Backend::parse)
    }

    /// The backend the scenario runs on: the `backend` key, else the catalog machine's default,
    /// else the custom machine's kind's.
    pub fn backend(&self, cat: &Catalog) -> Backend {
        self.backend_choice().unwrap_or_else(|| {
            match cat
                .machine(self.text(Key::Hw).unwrap_or(DEFAULT_HW))
                .ok()
                .filter(|_| !self.is_custom_machine())
            {
                // An MLX format on a machine that runs MLX means MLX.
                Some(m) if self.mlx_format(cat) && m.allowed_backends().contains(&Backend::Mlx) => Backend::Mlx,
                Some(m) => m.default_backend(),
                None => Backend::for_kind(self.kind().unwrap_or(Kind::Gpu)),
            }
        })
    }

    /// Whether the weights are a catalog format that only MLX runs.
    fn mlx_format(&self, cat: &Catalog) -> bool {
        !self.has(Key::Bpw)
            && !self.has(Key::Weights)
            && cat
                .quant(self.text(Key::Quant).unwrap_or(DEFAULT_QUANT))
                .is_ok_and(|q| q.backends.iter().any(|b| b == "mlx"))
    }

    /// A custom machine's vendor: `vendor=`, else the one its backend names.
    fn custom_vendor(&self, kind: Kind) -> Vendor {
        self.text(Key::Vendor)
            .and_then(Vendor::parse)
            .unwrap_or_else(|| Vendor::of_backend(self.backend_choice().unwrap_or(Backend::for_kind(kind))))
    }

    /// The calibration class and backend the scenario's machine is fitted as.
    fn class_and_backend(&self, cat: &Catalog) -> (Class, Backend) {
        let catalog_machine = (!self.is_custom_machine())
            .then(|| cat.machine(self.text(Key::Hw).unwrap_or(DEFAULT_HW)).ok())
            .flatten();
        match catalog_machine {
            Some(m) => (m.class(), self.backend(cat)),
            None => {
                let kind = self.kind().unwrap_or(Kind::Gpu);
                let class = Class {
                    kind,
                    vendor: self.custom_vendor(kind),
                    hbm: false,
                };
                (class, self.backend(cat))
            }
        }
    }

    /// The fitted group the expected figure comes from ("GPU AMD / vulkan"), as the headline
    /// and the CLI's `calibration_group` name it.
    pub fn calibration_group(&self, cat: &Catalog) -> String {
        let (class, backend) = self.class_and_backend(cat);
        crate::catalog::calibration().group_label(class, backend)
    }

    /// Whether the machine table and charts show every machine, the long tail of GPUs too (`machines=all`).
    pub fn all_machines(&self) -> bool {
        self.text(Key::Machines) == Some(keys::MACHINE_SETS[1])
    }

    /// The machines the machine table and charts show: the curated catalog, or with `machines=all`
    /// the long tail too (where it is loaded).
    pub fn machines_shown<'a>(&self, cat: &'a Catalog) -> impl Iterator<Item = &'a crate::catalog::Machine> + 'a {
        cat.machines_with_long_tail(self.all_machines())
    }

    /// Which catalog the scenario's machine is from (`tokbound estimate`'s `catalog`): `curated`,
    /// `long-tail`, or `None` for a custom machine or an unknown id.
    pub fn machine_catalog(&self, cat: &Catalog) -> Option<&'static str> {
        if self.is_custom_machine() {
            return None;
        }
        let m = cat.machine(self.text(Key::Hw).unwrap_or(DEFAULT_HW)).ok()?;
        Some(if m.long_tail { "long-tail" } else { "curated" })
    }

    /// The backends the scenario's machine can run, and the machine's name for messages.
    pub fn allowed_backends(&self, cat: &Catalog) -> (Vec<Backend>, String) {
        if self.is_custom_machine() {
            let kind = self.kind().unwrap_or(Kind::Gpu);
            let vendor = self.text(Key::Vendor).and_then(Vendor::parse).unwrap_or(Vendor::Other);
            let what = match vendor {
                Vendor::Other => format!("a custom {} machine", kind.id()),
                v => format!("a custom {} {} machine", v.label(), kind.id()),
            };
            return (Backend::allowed(vendor, kind), what);
        }
        match cat.machine(self.text(Key::Hw).unwrap_or(DEFAULT_HW)) {
            Ok(m) => (m.allowed_backends(), m.name.clone()),
            Err(_) => (Backend::ALL.to_vec(), String::new()),
        }
    }

    /// A custom machine's time model: the calibration's fit for its kind, its vendor and its
    /// backend.
    fn time_model(&self, kind: Kind) -> estimator::TimeModel {
        let backend = self.backend_choice().unwrap_or(Backend::for_kind(kind));
        let class = Class {
            kind,
            vendor: self.custom_vendor(kind),
            hbm: false,
        };
        crate::catalog::calibration().time_model(class, backend)
    }

    /// The exact architecture the custom-architecture keys describe; every missing or
    /// inconsistent key is reported.
    pub fn custom_arch(&self) -> Result<Arch, Vec<(Key, String)>> {
        let mut issues = Vec::new();
        let mut need = |k: Key| match self.whole(k) {
            Some(v) => v,
            None => {
                issues.push((k, "is needed with hidden (an exact architecture)".to_string()));
                1
            }
        };
        let (layers, heads, kv_heads, head_dim, vocab) = (
            need(Key::Layers),
            need(Key::Heads),
            need(Key::KvHeads),
            need(Key::HeadDim),
            need(Key::Vocab),
        );
        let hidden = self.whole(Key::Hidden).unwrap_or(1);
        let count = |k: Key, default: u32| self.whole(k).unwrap_or(default);
        let experts = count(Key::Experts, 0);
        let attention = if let Some(kv_lora_rank) = self.whole(Key::KvLora) {
            Attention::Latent {
                kv_lora_rank,
                q_lora_rank: count(Key::QLora, 0),
                qk_rope_dim: count(Key::RopeDim, 0),
                qk_nope_dim: count(Key::NopeDim, 0),
                v_head_dim: count(Key::VDim, 0),
            }
        } else if let Some(kind) = self.text(Key::Linear).and_then(LinearKind::parse) {
            Attention::HybridLinear(Linear {
                kind,
                layers: count(Key::LinearLayers, layers).min(layers),
                k_heads: count(Key::LinearKHeads, 1),
                v_heads: count(Key::LinearVHeads, 1),
                k_dim: count(Key::LinearKDim, 1),
                v_dim: count(Key::LinearVDim, 1),
                conv: count(Key::LinearConv, 4),
            })
        } else if let Some(window) = self.whole(Key::Swa) {
            Attention::SlidingWindow {
                window,
                swa_layers: count(Key::SwaLayers, layers).min(layers),
            }
        } else {
            Attention::Full
        };
        if kv_heads > heads {
            issues.push((Key::KvHeads, format!("{kv_heads} is more than heads ({heads})")));
        }
        let flag = |k: Key| matches!(self.get(k), Some(Value::Flag(true)));
        let arch = Arch {
            layers,
            hidden,
            heads,
            kv_heads,
            head_dim,
            vocab,
            tied_embeddings: flag(Key::Tied),
            intermediate: count(Key::Ffn, 0),
            mlp_gated: self.text(Key::Mlp) != Some("plain"),
            attn_gate: flag(Key::AttnGate),
            experts,
            experts_per_token: count(Key::TopK, 1).min(experts.max(1)),
            shared_experts: u32::from(count(Key::SharedFfn, 0) > 0),
            moe_intermediate: count(Key::ExpertFfn, 0),
            shared_intermediate: count(Key::SharedFfn, 0),
            dense_layers: count(Key::DenseLayers, if experts > 0 { 0 } else { layers }).min(layers),
            attention,
        };
        if issues.is_empty() {
            Ok(arch)
        } else {
            Err(issues)
        }
    }
}

/// The share of unified memory Apple's GPU may wire by default: two thirds up to 36 GB, three
/// quarters above (Metal's `recommendedMaxWorkingSetSize`, as llama.cpp reports it at start-up).
pub fn apple_usable_share(memory_gib: f64) -> f64 {
    if memory_gib <= 36.0 {
        2.0 / 3.0
    } else {
        0.75
    }
}

/// How the page presents a scenario: the full page, or a compact embed with chosen views, in
/// light or dark colours. These keys (`embed`, `view`, `theme`) travel beside the scenario's in
/// the same query string.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Presentation {
    pub embed: bool,
    /// Views named by `view=context,machines`, in order, known ones only.
    pub views: Vec<String>,
    /// The colours the link asks for, if it names them (else index.html's first script picks:
    /// light in an embed, the reader's own on the full page).
    pub theme: Option<Theme>,
}

impl Presentation {
    pub fn from_query(query: &str) -> Presentation {
        let mut p = Presentation::default();
        for (k, v) in parse_query(query) {
            let key = Key::named(&k);
            match key.map(|k| (k, k.spec().value.parse(&v))) {
                Some((Key::Embed, Ok(Value::Flag(f)))) => p.embed = f,
                Some((Key::View, Ok(Value::List(l)))) => p.views = l,
                Some((Key::Theme, Ok(Value::Text(t)))) => p.theme = Theme::parse(&t),
                _ => {}
            }
        }
        p
    }

    /// `&embed=1&view=…` to append to a scenario's query.
    pub fn to_query_suffix(&self) -> String {
        let mut out = String::new();
        if self.embed {
            out.push_str(&format!("&{}=1", Key::Embed.name()));
        }
        if !self.views.is_empty() {
            out.push_str(&format!("&{}={}", Key::View.name(), encode(&self.views.join(","))));
        }
        if let Some(t) = self.theme {
            out.push_str(&format!("&{}={}", Key::Theme.name(), t.id()));
        }
        out
    }
}

/// A catalog machine as the estimator sees it, without the scenario's overrides, on `backend`
/// (its default when `None`).
pub fn machine_spec(m: &crate::catalog::Machine, backend: Option<Backend>) -> MachineSpec {
    MachineSpec {
        name: m.name.clone(),
        kind: m.kind,
        bandwidth_gbs: m.bandwidth_gbs,
        memory_gib: Some(m.memory_gib),
        tflops: m.fp16_tflops,
        usable_fraction: match (m.usable_fraction, m.kind) {
            (Some(u), _) => u,
            (None, Kind::Apple) => apple_usable_share(m.memory_gib),
            (None, _) => 1.0,
        },
        hbm: m.is_hbm(),
        ram_gib: estimator::DEFAULT_RAM_GIB,
        time: crate::catalog::calibration().time_model(m.class(), backend.unwrap_or_else(|| m.default_backend())),
    }
}

/// Shortest text that reads back as the same f64.
fn num(v: f64) -> String {
    format!("{v}")
}

/// Splits `a=1&b=x%20y` into decoded pairs (`+` is a space; invalid UTF-8 becomes U+FFFD).
pub fn parse_query(query: &str) -> Vec<(String, String)> {
    form_urlencoded::parse(query.trim_start_matches('?').as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

/// Percent-encodes everything but unreserved characters (RFC 3986).
pub fn encode(s: &str) -> String {
    const RESERVED: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'_')
        .remove(b'.')
        .remove(b'~');
    percent_encoding::utf8_percent_encode(s, RESERVED).to_string()
}

/// A CPU machine whose CPU is known (named, or assumed for the machine): its threads' synchronisation on every layer
/// ([`crate::estimator::cpu::sync_rounds`]) and its CPU family's streaming multiplier where the
/// family has a fit (data/calibration.csv, `sync` and `stream:<family>`).
fn with_host_cpu(mut m: MachineSpec, host: Option<&crate::estimator::HostCpu>) -> MachineSpec {
    if let (Kind::Cpu, Some(h)) = (m.kind, host) {
        let cal = crate::catalog::calibration();
        m.time.own.per_layer_s += cal.cpu_sync_per_layer(h.threads);
        if let Some((w, _)) = cal.cpu_stream_for(h.family) {
            m.time.own.weight = w;
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_decoding_is_total() {
        let value = |q: &str| parse_query(&format!("k={q}")).pop().unwrap().1;
        assert_eq!(value("a%20b+c"), "a b c");
        assert_eq!(value("%"), "%");
        assert_eq!(value("%zz"), "%zz");
        assert_eq!(value("%e2%82%ac"), "€");
        assert_eq!(value("%ff"), "\u{fffd}");
        assert_eq!(encode("a b/€~"), "a%20b%2F%E2%82%AC~");
    }

    #[test]
    fn bad_values_are_reported_by_key_and_left_at_default() {
        let (s, issues, unknown) = Scenario::from_query_with_unknown("bw=abc&ctx=-3&hw=rtx-3090&zzz=1&ctxx=2");
        assert_eq!(s.number(Key::Bw), None);
        assert_eq!(s.whole(Key::Ctx), None);
        assert_eq!(s.text(Key::Hw), Some("rtx-3090"));
        let keys: Vec<Key> = issues.iter().map(|i| i.key).collect();
        assert_eq!(keys, vec![Key::Bw, Key::Ctx]);
        assert_eq!(issues[0].to_string(), "bw: \"abc\" is not a number");
        assert_eq!(
            unknown.lines(),
            vec!["zzz: unknown key".to_string(), "ctxx: unknown key; did you mean ctx?".to_string()]
        );
    }

    #[test]
    fn presentation_keys_ride_beside_the_scenario() {
        let p = Presentation::from_query("?hw=rtx-3090&embed=1&view=context,%3Cscript%3E,machines");
        assert!(p.embed);
        assert_eq!(p.views, vec!["context", "machines"]);
        assert_eq!(p.to_query_suffix(), "&embed=1&view=context%2Cmachines");
        assert_eq!(Presentation::from_query("hw=rtx-3090"), Presentation::default());
        let (s, issues) = Scenario::from_query("embed=1&view=table&theme=dark");
        assert_eq!((s, issues.len()), (Scenario::default(), 0));
    }

    #[test]
    fn the_theme_key_round_trips_beside_the_scenario() {
        let dark = Presentation::from_query("?hw=rtx-3090&embed=1&theme=dark");
        assert_eq!(dark.theme, Some(Theme::Dark));
        assert_eq!(dark.to_query_suffix(), "&embed=1&theme=dark");
        assert_eq!(Presentation::from_query(&dark.to_query_suffix()), dark);
        for t in Theme::ALL {
            assert_eq!(Presentation::from_query(&format!("theme={}", t.id())).theme, Some(t));
        }
        // Not given, or not a theme: the page's default applies (index.html: light in an embed,
        // the reader's own on the full page).
        assert_eq!(Presentation::from_query("embed=1").theme, None);
        assert_eq!(Presentation::from_query("embed=1&theme=purple").theme, None);
        assert_eq!(
            Key::Theme.spec().value.parse("sepia").unwrap_err(),
            "\"sepia\" is not light, dark or auto"
        );
    }

    #[test]
    fn sizes_in_every_unit_give_their_bytes() {
        for (text, bytes) in [("4920734720B", 4920734720.0), ("19GB", 19e9), ("512MiB", 536870912.0), ("2KB", 2e3)] {
            assert_eq!(Size::parse(text).unwrap().bytes(), bytes, "{text}");
        }
    }

    #[test]
    fn defaults_are_left_out_of_links() {
        let (s, _) = Scenario::from_query("v=1&hw=rtx-4090&ctx=4096&quant=q4_k_m&ctx=8192");
        assert_eq!(s.to_query(), "v=1&ctx=8192");
    }

    #[test]
    fn the_table_is_in_key_order_and_names_are_unique() {
        for (i, k) in keys::KEYS.iter().enumerate() {
            assert_eq!(k.key as usize, i, "{}", k.name);
            assert_eq!(Key::named(k.name), Some(k.key));
        }
    }
}
