//! The curated catalogs: machines, models and quantization formats, each a CSV file under
//! `data/` with one record per entry and a `source` for every number. They are compiled into
//! the binary and parsed once on first use; `tests/catalog.rs` validates every entry.

pub mod cpus;
pub mod csv;
pub mod long_tail;
pub mod methods;
pub mod search;

use std::sync::OnceLock;

use crate::calibration::{Backend, Calibration, Class, Fitted, Point, Vendor};
use crate::estimator::arch::{Arch, Attention, Linear, LinearKind};
pub use crate::estimator::Kind;
use crate::estimator::{estimate, Inputs, MachineSpec, ModelSpec, Placement, TimeModel, WeightSpec};

/// One machine: a memory system with a peak bandwidth.
#[derive(Clone, Debug)]
pub struct Machine {
    pub id: String,
    pub name: String,
    pub kind: Kind,
    /// Memory as marketed, in GiB (a "24 GB" card is 24 GiB).
    pub memory_gib: f64,
    /// Peak memory bandwidth, decimal GB/s.
    pub bandwidth_gbs: f64,
    pub bus_bits: Option<f64>,
    pub data_rate_mts: Option<f64>,
    /// Dense FP16 tensor TFLOPS with FP32 accumulate (a CPU's SIMD or AMX peak).
    pub fp16_tflops: Option<f64>,
    /// Where the TFLOPS figure comes from, or how it was derived.
    pub tflops_source: String,
    /// The runtime backend people use on it by default (`cuda`, `rocm`, `metal`, …).
    pub backend: String,
    /// Launch list price in USD, where the machine is one product with one: read it with
    /// [`Machine::price`] (the page keeps a curated machine's apart).
    price_usd: Option<f64>,
    pub price_source: String,
    /// Share of memory a GPU may use (Apple unified memory); `None` means all of it.
    pub usable_fraction: Option<f64>,
    /// The backends it can run, where the catalog lists them (SoCs); otherwise its vendor's.
    pub backends: Vec<Backend>,
    /// The memory's type as its maker names it: `gddr6x`, `hbm3e`, `lpddr5x`, `ddr5`, …
    pub memory_type: String,
    /// The CPU of a CPU machine or SoC (a data/cpus.csv id), where the catalog names one.
    pub cpu: Option<String>,
    /// The sockets a CPU machine's bandwidth is summed over.
    pub sockets: u32,
    /// Where its figures come from; empty in the page's copy of a curated machine, whose source is
    /// kept apart: read it with [`Machine::source_text`].
    pub source: String,
    /// From the long tail of GPUs ([`long_tail`]) rather than the curated catalog.
    pub long_tail: bool,
    /// A laptop part (the curated catalog names them "Laptop GPU", TechPowerUp "Mobile" or "Max-Q").
    pub laptop: bool,
    /// What it draws at most, watts, with its source: a GPU's board power, a SoC's package power
    /// (a CPU machine's comes from its CPU, [`Cpu::tdp_w`]); `None` where the maker states none.
    /// Read it with [`Machine::power`] (the page keeps a curated machine's apart).
    power_w: Option<f64>,
    pub power_source: String,
}

/// A memory type's family, which the calibration's classes follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryClass {
    Hbm,
    Gddr,
    Lpddr,
    Ddr,
}

impl MemoryClass {
    /// Every memory type the catalog may name, with its class.
    pub const TYPES: &'static [(&'static str, MemoryClass)] = &[
        ("gddr5", MemoryClass::Gddr),
        ("gddr5x", MemoryClass::Gddr),
        ("gddr6", MemoryClass::Gddr),
        ("gddr6x", MemoryClass::Gddr),
        ("gddr7", MemoryClass::Gddr),
        ("hbm", MemoryClass::Hbm),
        ("hbm2", MemoryClass::Hbm),
        ("hbm2e", MemoryClass::Hbm),
        ("hbm3", MemoryClass::Hbm),
        ("hbm3e", MemoryClass::Hbm),
        ("lpddr4", MemoryClass::Lpddr),
        ("lpddr4x", MemoryClass::Lpddr),
        ("lpddr5", MemoryClass::Lpddr),
        ("lpddr5x", MemoryClass::Lpddr),
        ("ddr3", MemoryClass::Ddr),
        ("ddr4", MemoryClass::Ddr),
        ("ddr5", MemoryClass::Ddr),
    ];

    pub fn of(memory_type: &str) -> Option<MemoryClass> {
        Self::TYPES.iter().find(|(t, _)| *t == memory_type).map(|(_, c)| *c)
    }

    pub fn label(self) -> &'static str {
        match self {
            MemoryClass::Hbm => "HBM",
            MemoryClass::Gddr => "GDDR",
            MemoryClass::Lpddr => "LPDDR",
            MemoryClass::Ddr => "DDR",
        }
    }
}

/// The curated machines' sources, prices and board power on the page, one machine a line in their
/// order, fields as build.rs's `MACHINE_APART`: read only by the panels after the first view, so
/// the first part does not carry them.
#[cfg(target_arch = "wasm32")]
const MACHINE_SOURCES: &str = include_str!(concat!(env!("OUT_DIR"), "/machine-sources.csv"));

impl Machine {
    /// On the page, field `field` of a curated machine's line among those kept apart
    /// ([`MACHINE_SOURCES`]); `None` elsewhere (a long-tail machine, and the CLI, which carry
    /// their own).
    #[cfg(target_arch = "wasm32")]
    fn apart(&self, field: usize) -> Option<&'static str> {
        static LINES: OnceLock<Vec<&'static str>> = OnceLock::new();
        if !self.source.is_empty() {
            return None;
        }
        let at = catalog().machines.iter().position(|m| std::ptr::eq(m, self))?;
        LINES
            .get_or_init(|| MACHINE_SOURCES.lines().collect())
            .get(at)?
            .split('\x1f')
            .nth(field)
    }

    /// Where its figures come from: its `source`, which on the page a curated machine finds in
    /// the sources kept apart ([`MACHINE_SOURCES`]).
    pub fn source_text(&self) -> &str {
        #[cfg(target_arch = "wasm32")]
        if let Some(s) = self.apart(0) {
            return s;
        }
        &self.source
    }

    /// Its launch list price in USD, where it is one product with one.
    pub fn price(&self) -> Option<f64> {
        #[cfg(target_arch = "wasm32")]
        if let Some(p) = self.apart(1) {
            return crate::text::decimal::parse(p);
        }
        self.price_usd
    }

    /// What it draws at most, watts ([`Machine::power_w`]'s field).
    pub fn power(&self) -> Option<f64> {
        #[cfg(target_arch = "wasm32")]
        if let Some(p) = self.apart(2) {
            return crate::text::decimal::parse(p);
        }
        self.power_w
    }

    /// The memory's class (the catalog checks every machine names a known type).
    pub fn memory_class(&self) -> MemoryClass {
        MemoryClass::of(&self.memory_type).unwrap_or(MemoryClass::Gddr)
    }

    /// HBM GPUs stream weights less efficiently at batch 1 in the measured runtimes than GDDR
    /// cards of the same bandwidth; the calibration keeps them apart. From the memory type, never
    /// from the bus width (which a catalog row may not know).
    pub fn is_hbm(&self) -> bool {
        self.kind == Kind::Gpu && self.memory_class() == MemoryClass::Hbm
    }

    /// The backends it can run: the catalog's list, else its vendor's and kind's.
    pub fn allowed_backends(&self) -> Vec<Backend> {
        if self.backends.is_empty() {
            Backend::allowed(self.class().vendor, self.kind)
        } else {
            self.backends.clone()
        }
    }

    /// The backend people run on it by default.
    pub fn default_backend(&self) -> Backend {
        Backend::parse(&self.backend).unwrap_or(Backend::for_kind(self.kind))
    }

    /// The calibration's class: its kind, the vendor its native backend names, HBM or not.
    pub fn class(&self) -> Class {
        Class {
            kind: self.kind,
            vendor: Vendor::of_backend(self.default_backend()),
            hbm: self.is_hbm(),
        }
    }
}

/// One model and its architecture, from its config.json.
#[derive(Clone, Debug)]
pub struct Model {
    pub id: String,
    pub name: String,
    /// One generation and line of models (`llama-3`, `qwen3`), for "same family" comparisons.
    pub family: String,
    /// The context length it was trained for, tokens.
    pub max_context: Option<u32>,
    /// Published total parameters, billions.
    pub params_b: f64,
    /// Published active parameters per token, billions (= total for dense models).
    pub active_params_b: f64,
    pub arch: Arch,
    /// Commonly used as a speculative-decoding draft.
    pub draft: bool,
    /// Why the architecture's parameter count may differ from the published total.
    pub exemption: Option<String>,
    /// The format the model is released in, where it is not a GGUF K-quant (gpt-oss: MXFP4).
    pub native_quant: Option<String>,
    pub source: String,
}

/// A weight or KV-cache storage format.
#[derive(Clone, Debug)]
pub struct Quant {
    pub id: String,
    pub name: String,
    pub format: String,
    /// Bits per weight; for mixes (K-quant _M/_S) the effective average over a model's tensors.
    pub bpw: f64,
    /// Bits for the non-expert tensors where the format keeps them wider (MXFP4 GGUFs: Q8_0).
    pub other_bpw: Option<f64>,
    /// Usable for weights.
    pub weights: bool,
    /// Usable for the KV cache.
    pub kv: bool,
    pub note: String,
    pub source: String,
    /// The engines (`engine=` ids) that load it; none for formats another runtime runs.
    pub engines: Vec<String>,
    /// The backends that run it (`backend=` ids); none where no listed engine runs it.
    pub backends: Vec<String>,
    /// The runtimes that run it where none of the listed engines does (for a note).
    pub runtimes: String,
    /// The model families that come in it (ternary formats: ternary-trained models); empty for
    /// every model.
    pub models: Vec<String>,
}

impl Quant {
    /// Whether engine `id` loads this format.
    pub fn runs_on_engine(&self, id: &str) -> bool {
        self.engines.iter().any(|e| e == id)
    }

    /// Whether backend `id` runs this format (every backend where the format names none).
    pub fn runs_on_backend(&self, id: &str) -> bool {
        self.backends.is_empty() || self.backends.iter().any(|b| b == id)
    }
}

/// One measured decode result (llama-bench), used to fit and check the expected band.
#[derive(Clone, Debug)]
pub struct Measurement {
    pub hw: String,
    pub model: String,
    pub quant: String,
    /// Mean KV depth during the measured generation, tokens.
    pub context: f64,
    pub tg_tok_s: f64,
    pub pp_tok_s: Option<f64>,
    /// The runtime backend it ran on (`cuda`, `rocm`, `vulkan`, `metal`, `sycl`, `cpu`, `mlx`).
    pub backend: String,
    /// Flash attention on (`Some(true)`), off, or not stated.
    pub fa: Option<bool>,
    /// When it was run or posted (YYYY-MM or YYYY-MM-DD), and the build where given.
    pub date: String,
    pub build: String,
    /// The page the figures were read from.
    pub url: String,
    /// How it was measured: `llama-bench`, `server` (llama-server or ollama timings), `mlx_lm`,
    /// `wall` (tokens over a whole request's time, prompt included) or `localscore` (an average
    /// over several prompt and output lengths).
    pub method: String,
    pub source: String,
}

impl Measurement {
    /// A decode-only figure (not a whole request's time, not an average over prompt lengths):
    /// what the calibration is fitted on and judged by.
    pub fn is_decode_only(&self) -> bool {
        methods::DECODE_ONLY_METHODS.contains(&self.method.as_str())
    }
}

/// All catalogs.
pub struct Catalog {
    pub machines: Vec<Machine>,
    pub cpus: Vec<cpus::Cpu>,
    pub models: Vec<Model>,
    pub quants: Vec<Quant>,
    /// The measured runs ([`Catalog::measurements`]): read with the rest by [`Catalog::parse`];
    /// the built-in catalog reads data/measured.csv on first use, which on the page comes after
    /// the first ceiling is painted.
    measurements: OnceLock<Vec<Measurement>>,
}

// The page embeds copies that keep only the columns it reads (build.rs); the CLI and the tests
// read the files as they are.
#[cfg(not(target_arch = "wasm32"))]
const MACHINES: &str = include_str!("../../data/machines.csv");
#[cfg(not(target_arch = "wasm32"))]
const CPUS: &str = include_str!("../../data/cpus.csv");
#[cfg(not(target_arch = "wasm32"))]
const MODELS: &str = include_str!("../../data/models.csv");
#[cfg(not(target_arch = "wasm32"))]
const QUANTS: &str = include_str!("../../data/quants.csv");
#[cfg(not(target_arch = "wasm32"))]
const MEASURED: &str = include_str!("../../data/measured.csv");
#[cfg(not(target_arch = "wasm32"))]
const CALIBRATION: &str = include_str!("../../data/calibration.csv");
#[cfg(target_arch = "wasm32")]
const MACHINES: &str = include_str!(concat!(env!("OUT_DIR"), "/machines.csv"));
#[cfg(target_arch = "wasm32")]
const CPUS: &str = include_str!(concat!(env!("OUT_DIR"), "/cpus.csv"));
#[cfg(target_arch = "wasm32")]
const MODELS: &str = include_str!(concat!(env!("OUT_DIR"), "/models.csv"));
#[cfg(target_arch = "wasm32")]
const QUANTS: &str = include_str!(concat!(env!("OUT_DIR"), "/quants.csv"));
#[cfg(target_arch = "wasm32")]
const MEASURED: &str = include_str!(concat!(env!("OUT_DIR"), "/measured.csv"));
#[cfg(target_arch = "wasm32")]
const CALIBRATION: &str = include_str!(concat!(env!("OUT_DIR"), "/calibration.csv"));

/// The built-in catalogs, parsed on first use. The files are validated by the test suite, so a
/// parse failure here is a build defect.
pub fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    // The message through Display: `expect` would keep String's Debug (and its Unicode tables) in
    // the page for a panic the catalog tests rule out.
    CATALOG.get_or_init(|| Catalog::parse_deferred([MACHINES, CPUS, MODELS, QUANTS]).unwrap_or_else(|e| panic!("built-in catalogs: {e}")))
}

/// The calibration fitted on the built-in measurements: data/calibration.csv, which
/// `make calibration` writes from `Calibration::fit` and tests/calibration.rs checks is in step.
/// Shipping the fit as data keeps the fitting code and 400-odd estimates out of the page's start.
pub fn calibration() -> &'static Calibration {
    static CAL: OnceLock<Calibration> = OnceLock::new();
    CAL.get_or_init(|| parse_calibration(CALIBRATION).unwrap_or_else(|e| panic!("calibration.csv: {e}")))
}

/// Reads data/measured.csv.
pub fn read_measurements(text: &str) -> Result<Vec<Measurement>, String> {
    csv::records(text, parse_measurement).map_err(|e| format!("measured.csv: {e}"))
}

/// One line of data/calibration.csv.
struct CalibrationLine {
    level: String,
    kind: Option<Kind>,
    class: Option<Class>,
    backend: Option<Backend>,
    fitted: Fitted,
}

fn parse_calibration_line(r: &csv::Record) -> Result<CalibrationLine, String> {
    let bad = |name: &str| format!("line {}: {name} = \"{}\" is not known", r.line, r.text(name));
    let kind = match r.text("kind") {
        "" => None,
        t => Some(Kind::parse(t).ok_or_else(|| bad("kind"))?),
    };
    let class = match (kind, r.text("vendor")) {
        (Some(kind), v) if !v.is_empty() => Some(Class {
            kind,
            vendor: Vendor::parse(v).ok_or_else(|| bad("vendor"))?,
            hbm: r.flag("hbm")?,
        }),
        _ => None,
    };
    let backend = match r.text("backend") {
        "" => None,
        t => Some(Backend::parse(t).ok_or_else(|| bad("backend"))?),
    };
    let mut c = [0.0; 6];
    for (v, name) in c.iter_mut().zip(&crate::calibration::CSV_COLUMNS[6..12]) {
        *v = r.f64(name)?;
    }
    Ok(CalibrationLine {
        level: r.required("level")?.to_string(),
        kind,
        class,
        backend,
        fitted: Fitted {
            c,
            band: (r.f64("band_low")?, r.f64("band_high")?),
            rows: r.count("rows")? as usize,
        },
    })
}

/// Reads data/calibration.csv (as [`Calibration::to_csv`] writes it).
pub fn parse_calibration(text: &str) -> Result<Calibration, String> {
    let lines = csv::records(text, parse_calibration_line)?;
    let mut global = None;
    let (mut kinds, mut classes, mut groups) = (Vec::new(), Vec::new(), Vec::new());
    let mut ram = crate::calibration::RamFit::default();
    let mut ram_by_engine: Vec<(String, crate::calibration::RamFit)> = Vec::new();
    let (mut cpu_compute, mut cpu_stream, mut formats) = (Vec::new(), Vec::new(), Vec::new());
    let (mut numa, mut split_fixed, mut cpu_sync) = (None, None, None);
    let mut cpu_attention = Vec::new();
    let mut batch = crate::calibration::BatchFit::default();
    for l in lines {
        // The one-figure lines: the figure and the rows it rests on.
        let figure = (l.fitted.c[3], l.fitted.rows);
        let family = |f: &str| crate::estimator::CpuFamily::parse(f).ok_or_else(|| format!("{}: not a CPU family", l.level));
        // A line named by a key after a colon: `stream:<family>`, `compute:<family>`,
        // `batch:<vendor>`, `format:<id>`, `ram:<engine>`.
        match l.level.split_once(':') {
            Some(("stream", f)) => cpu_stream.push((family(f)?, figure)),
            Some(("compute", f)) => cpu_compute.push((family(f)?, figure)),
            Some(("format", f)) => formats.push((f.to_string(), figure)),
            Some(("attention", engine)) => cpu_attention.push((engine.to_string(), figure)),
            Some(("batch", v)) => {
                let vendor = crate::calibration::Vendor::parse(v).ok_or_else(|| format!("{}: not a vendor", l.level))?;
                batch.shares.push((vendor, figure));
            }
            Some(("ram", engine)) => {
                if ram_by_engine.last().is_none_or(|(e, _)| e != engine) {
                    ram_by_engine.push((engine.to_string(), crate::calibration::RamFit::default()));
                }
                if let Some((_, fit)) = ram_by_engine.last_mut() {
                    match l.kind {
                        Some(Kind::Cpu) => fit.cpu = Some(figure),
                        Some(Kind::Gpu) => fit.offload = Some(figure),
                        _ => return Err(format!("a {} line with the wrong kind", l.level)),
                    }
                }
            }
            _ => match (l.level.as_str(), l.kind, l.class, l.backend) {
                ("sync", ..) => cpu_sync = Some(figure),
                ("numa", ..) => numa = Some(figure),
                ("split", ..) => split_fixed = Some(figure),
                ("batch", ..) => batch.pooled = Some(figure),
                ("routing", ..) => batch.routing = Some(figure),
                ("global", None, None, None) => global = Some(l.fitted),
                ("ram", Some(Kind::Cpu), None, None) => ram.cpu = Some(figure),
                ("ram", Some(Kind::Gpu), None, None) => ram.offload = Some(figure),
                ("kind", Some(k), None, None) => kinds.push((k, l.fitted)),
                ("class", Some(_), Some(c), None) => classes.push((c, l.fitted)),
                ("group", Some(_), Some(c), Some(b)) => groups.push(((c, b), l.fitted)),
                _ => return Err(format!("a {} line with the wrong columns filled", l.level)),
            },
        }
    }
    Ok(Calibration {
        global: global.ok_or("no global line")?,
        kinds,
        classes,
        groups,
        ram,
        ram_by_engine,
        cpu_compute,
        numa,
        split_fixed,
        batch,
        cpu_stream,
        cpu_sync,
        cpu_attention,
        formats,
    })
}

impl Catalog {
    /// Parses the catalog files (machines, CPUs, models, formats, measured runs); the error lists
    /// every bad line.
    pub fn parse([machines, cpus, models, quants, measured]: [&str; 5]) -> Result<Catalog, String> {
        let cat = Catalog::parse_deferred([machines, cpus, models, quants])?;
        let _ = cat.measurements.set(read_measurements(measured)?);
        Ok(cat)
    }

    /// [`Catalog::parse`] without the measured runs: the built-in catalog's are read on first use
    /// ([`Catalog::measurements`]).
    fn parse_deferred([machines, cpus, models, quants]: [&str; 4]) -> Result<Catalog, String> {
        Ok(Catalog {
            machines: csv::records(machines, parse_machine).map_err(|e| format!("machines.csv: {e}"))?,
            cpus: csv::records(cpus, cpus::parse_cpu).map_err(|e| format!("cpus.csv: {e}"))?,
            models: csv::records(models, parse_model).map_err(|e| format!("models.csv: {e}"))?,
            quants: csv::records(quants, parse_quant).map_err(|e| format!("quants.csv: {e}"))?,
            measurements: OnceLock::new(),
        })
    }

    /// Every measured run. Only the built-in catalog reads them here, on first use: the page's
    /// first view needs none, so where the page is split their text goes with the app's part.
    pub fn measurements(&self) -> &[Measurement] {
        self.measurements
            .get_or_init(|| read_measurements(MEASURED).unwrap_or_else(|e| panic!("built-in catalogs: {e}")))
    }

    /// A machine by id: a curated one, else one of the long tail where it is loaded (a long-tail
    /// id of a card the curated catalog has stands for the curated entry).
    pub fn machine(&self, id: &str) -> Result<&Machine, String> {
        let curated = |id: &str| self.machines.iter().find(|m| m.id == id);
        let tail = long_tail::get();
        curated(id)
            .or_else(|| tail.and_then(|t| t.curated_for(id)).and_then(curated))
            .or_else(|| tail.and_then(|t| t.machine(id)))
            .ok_or_else(|| unknown("machine", id, self.every_machine().map(|m| m.id.as_str())))
    }

    /// The curated machines, then the long tail's where it is loaded.
    pub fn every_machine(&self) -> impl Iterator<Item = &Machine> {
        self.machines_with_long_tail(true)
    }

    /// The curated machines, then the long tail's where `long_tail` says so and it is loaded.
    pub fn machines_with_long_tail(&self, long_tail: bool) -> impl Iterator<Item = &Machine> {
        // Two slices chained: smaller in the page's first part than a flattened `Option`.
        let tail: &[Machine] = long_tail::get().filter(|_| long_tail).map_or(&[], |t| &t.machines);
        self.machines.iter().chain(tail)
    }

    pub fn model(&self, id: &str) -> Result<&Model, String> {
        self.models
            .iter()
            .find(|m| m.id == id)
            .ok_or_else(|| unknown("model", id, self.models.iter().map(|m| m.id.as_str())))
    }

    /// A weight format by id.
    pub fn quant(&self, id: &str) -> Result<&Quant, String> {
        self.quants
            .iter()
            .find(|q| q.id == id && q.weights)
            .ok_or_else(|| unknown("quant", id, self.quants.iter().filter(|q| q.weights).map(|q| q.id.as_str())))
    }

    /// The decode-only measured rows.
    pub fn decode_measurements(&self) -> impl Iterator<Item = &Measurement> {
        self.measurements().iter().filter(|m| m.is_decode_only())
    }

    /// The decode-only measured rows as calibration points, with bytes from the estimator's own
    /// arithmetic.
    pub fn measured_points(&self) -> Result<Vec<Point>, String> {
        self.decode_measurements().map(|m| self.point(m)).collect()
    }

    /// One measured row as a calibration point.
    pub fn point(&self, m: &Measurement) -> Result<Point, String> {
        let machine = self.machine(&m.hw)?;
        let model = self.model(&m.model)?;
        let quant = self.quant(&m.quant)?;
        let f16 = self.kv_type("f16")?;
        let backend = Backend::parse(&m.backend).ok_or_else(|| format!("{}: backend \"{}\" is not known", m.hw, m.backend))?;
        let inputs = Inputs {
            machine: MachineSpec {
                name: machine.name.clone(),
                kind: machine.kind,
                bandwidth_gbs: machine.bandwidth_gbs,
                memory_gib: None,
                tflops: None,
                usable_fraction: 1.0,
                hbm: machine.is_hbm(),
                ram_gib: crate::estimator::DEFAULT_RAM_GIB,
                time: TimeModel::default(),
            },
            host: None,
            devices: Vec::new(),
            tensor_split: None,
            model: ModelSpec::Arch {
                name: model.name.clone(),
                arch: Box::new(model.arch.clone()),
                max_context: model.max_context,
            },
            weights: WeightSpec::Bits {
                bpw: quant.bpw,
                other_bpw: quant.other_bpw,
            },
            context: m.context,
            kv_bits: f16.bpw,
            placement: Placement {
                gpu_frac: Some(1.0),
                ram_bw_gbs: 1.0,
                expert_offload: false,
                expert_ram_share: 1.0,
            },
            tp: 1,
            split: 1,
            batch: None,
            speculation: None,
            prompt: 0.0,
            notes: Vec::new(),
        };
        let e = estimate(&inputs);
        Ok(Point {
            machine: m.hw.clone(),
            class: machine.class(),
            backend,
            // Rows that do not say: MLX always fuses attention, and llama.cpp turns flash
            // attention on by default from its August 2025 builds.
            fa: m.fa.unwrap_or(backend == Backend::Mlx || m.date.as_str() >= "2025-08"),
            bandwidth_gbs: machine.bandwidth_gbs,
            weight_bytes: e.bytes_per_token.weights,
            kv_bytes: e.bytes_per_token.kv,
            shape: inputs.pass_shape(),
            measured_tok_s: m.tg_tok_s,
            ceiling_tok_s: e.ceiling_tok_s,
            format: m.quant.clone(),
        })
    }

    /// A KV-cache element type by id.
    pub fn kv_type(&self, id: &str) -> Result<&Quant, String> {
        self.quants
            .iter()
            .find(|q| q.id == id && q.kv)
            .ok_or_else(|| unknown("KV type", id, self.quants.iter().filter(|q| q.kv).map(|q| q.id.as_str())))
    }
}

/// "unknown machine "rtx-4900"; nearest: rtx-4090, rtx-4080, rtx-4060"
fn unknown<'a>(what: &str, id: &str, ids: impl Iterator<Item = &'a str>) -> String {
    let mut scored: Vec<(usize, &str)> = ids.map(|c| (edit_distance(id, c), c)).collect();
    scored.sort();
    let nearest: Vec<&str> = scored.iter().take(3).map(|(_, c)| *c).collect();
    format!("unknown {what} \"{id}\"; nearest: {}", nearest.join(", "))
}

/// Edit distance with adjacent transpositions (optimal string alignment), for "nearest" hints:
/// "rtx-4900" is one step from "rtx-4090".
pub fn edit_distance(a: &str, b: &str) -> usize {
    strsim::osa_distance(a, b)
}

fn parse_machine(r: &csv::Record) -> Result<Machine, String> {
    let kind = r.required("kind")?;
    Ok(Machine {
        id: r.required("id")?.to_string(),
        name: r.required("name")?.to_string(),
        kind: Kind::parse(kind).ok_or_else(|| format!("line {}: kind \"{kind}\" is not gpu|apple|soc|cpu", r.line))?,
        memory_gib: r.f64("memory_gib")?,
        bandwidth_gbs: r.f64("bandwidth_gbs")?,
        bus_bits: r.opt_f64("bus_bits")?,
        data_rate_mts: r.opt_f64("data_rate_mts")?,
        fp16_tflops: r.opt_f64("fp16_tflops")?,
        tflops_source: r.text("tflops_source").to_string(),
        backend: r.text("backend").to_string(),
        price_usd: r.opt_f64("price_usd")?,
        price_source: r.text("price_source").to_string(),
        usable_fraction: r.opt_f64("usable_fraction")?,
        backends: r
            .text("backends")
            .split_whitespace()
            .map(|b| Backend::parse(b).ok_or_else(|| format!("line {}: backends: \"{b}\" is not a backend", r.line)))
            .collect::<Result<_, _>>()?,
        memory_type: {
            let t = r.required("memory_type")?;
            MemoryClass::of(t).ok_or_else(|| format!("line {}: memory_type \"{t}\" is not a known memory type", r.line))?;
            t.to_string()
        },
        cpu: Some(r.text("cpu")).filter(|c| !c.is_empty()).map(str::to_string),
        sockets: match r.text("sockets") {
            "" => 1,
            _ => r.count("sockets")?,
        },
        source: r.text("source").to_string(),
        long_tail: false,
        laptop: r.text("name").contains("Laptop"),
        power_w: r.opt_f64("power_w")?,
        power_source: r.text("power_source").to_string(),
    })
}

fn parse_model(r: &csv::Record) -> Result<Model, String> {
    let layers = r.count("layers")?;
    let attention = match r.required("attention")? {
        "full" => Attention::Full,
        "swa" | "sliding-window" => Attention::SlidingWindow {
            window: r.count("sliding_window")?,
            swa_layers: r.count("swa_layers")?,
        },
        "mla" => Attention::Latent {
            kv_lora_rank: r.count("kv_lora_rank")?,
            q_lora_rank: r.count("q_lora_rank")?,
            qk_rope_dim: r.count("qk_rope_dim")?,
            qk_nope_dim: r.count("qk_nope_dim")?,
            v_head_dim: r.count("v_head_dim")?,
        },
        "hybrid-linear" => {
            let kind = r.required("linear_kind")?;
            Attention::HybridLinear(Linear {
                kind: LinearKind::parse(kind).ok_or_else(|| format!("line {}: linear_kind \"{kind}\" is not gdn|mamba2", r.line))?,
                layers: r.count("linear_layers")?,
                k_heads: r.count("linear_k_heads")?,
                v_heads: r.count("linear_v_heads")?,
                k_dim: r.count("linear_k_dim")?,
                v_dim: r.count("linear_v_dim")?,
                conv: r.count("linear_conv")?,
            })
        }
        other => {
            return Err(format!(
                "line {}: attention \"{other}\" is not full|sliding-window|mla|hybrid-linear",
                r.line
            ))
        }
    };
    let experts = r.count("experts")?;
    let params_b = r.f64("params_b")?;
    let arch = Arch {
        layers,
        hidden: r.count("hidden")?,
        heads: r.count("heads")?,
        kv_heads: r.count("kv_heads")?,
        head_dim: r.count("head_dim")?,
        vocab: r.count("vocab")?,
        tied_embeddings: r.flag("tied_embeddings")?,
        intermediate: r.count("intermediate")?,
        mlp_gated: match r.text("mlp") {
            "" | "gated" => true,
            "plain" => false,
            other => return Err(format!("line {}: mlp \"{other}\" is not gated|plain", r.line)),
        },
        attn_gate: r.flag("attn_gate")?,
        experts,
        experts_per_token: r.count("experts_per_token")?,
        shared_experts: r.count("shared_experts")?,
        moe_intermediate: r.count("moe_intermediate")?,
        shared_intermediate: r.count("shared_intermediate")?,
        dense_layers: match (experts, r.text("dense_layers")) {
            (0, "") => layers,
            _ => r.count("dense_layers")?,
        },
        attention,
    };
    let exemption = r.text("exemption");
    Ok(Model {
        id: r.required("id")?.to_string(),
        name: r.required("name")?.to_string(),
        family: r.text("family").to_string(),
        max_context: r.opt_f64("max_context")?.map(|c| c as u32),
        params_b,
        active_params_b: r.opt_f64("active_params_b")?.unwrap_or(params_b),
        arch,
        draft: r.flag("draft")?,
        exemption: (!exemption.is_empty()).then(|| exemption.to_string()),
        native_quant: Some(r.text("native_quant")).filter(|q| !q.is_empty()).map(str::to_string),
        source: r.text("source").to_string(),
    })
}

fn parse_quant(r: &csv::Record) -> Result<Quant, String> {
    Ok(Quant {
        id: r.required("id")?.to_string(),
        name: r.required("name")?.to_string(),
        format: r.required("format")?.to_string(),
        bpw: r.f64("bpw")?,
        other_bpw: r.opt_f64("other_bpw")?,
        weights: r.flag("weights")?,
        kv: r.flag("kv")?,
        note: r.text("note").to_string(),
        source: r.text("source").to_string(),
        engines: r.text("engines").split_whitespace().map(str::to_string).collect(),
        backends: r.text("backends").split_whitespace().map(str::to_string).collect(),
        runtimes: r.text("runtimes").to_string(),
        models: r.text("models").split_whitespace().map(str::to_string).collect(),
    })
}

fn parse_measurement(r: &csv::Record) -> Result<Measurement, String> {
    Ok(Measurement {
        hw: r.required("hw")?.to_string(),
        model: r.required("model")?.to_string(),
        quant: r.required("quant")?.to_string(),
        context: r.f64("context")?,
        tg_tok_s: r.f64("tg_tok_s")?,
        pp_tok_s: r.opt_f64("pp_tok_s")?,
        backend: r.text("backend").to_string(),
        fa: match r.text("fa") {
            "" => None,
            "1" => Some(true),
            "0" => Some(false),
            t => return Err(format!("line {}: fa = \"{t}\" is not 1, 0 or empty", r.line)),
        },
        date: r.text("date").to_string(),
        build: r.text("build").to_string(),
        url: r.text("url").to_string(),
        method: r.text("method").to_string(),
        // The page's copy leaves the long note out (build.rs); tests/calibration.rs checks that
        // every row in data/ has one.
        source: r.text("source").to_string(),
    })
}
