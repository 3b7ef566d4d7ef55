//! What can I run, and what do I need: every catalog model on one machine at the best format that
//! fits, and how far a target speed reaches on it.
//!
//! The format search per model is memory arithmetic alone ([`memory_fit`], the headline's own fit
//! rule) over a short ladder of formats, then one full estimate for the format chosen: 91 models
//! cost about as much as the machine table's 231 estimates.

use serde::Serialize;

use crate::calibration::Backend;
use crate::catalog::{Catalog, Kind, Model};
use crate::estimator::{estimate, memory_fit, Inputs, ModelSpec, WeightSpec};
use crate::scenario::{Key, Scenario, Value};

/// The GGUF formats tried, smallest first: the K-quant ladder people download, then F16.
pub const GGUF_LADDER: [&str; 7] = ["q2_k", "q3_k_m", "q4_k_m", "q5_k_m", "q6_k", "q8_0", "f16"];
/// Also tried on Apple machines: MLX's formats.
pub const MLX_LADDER: [&str; 5] = ["mlx-3bit", "mlx-4bit", "mlx-5bit", "mlx-6bit", "mlx-8bit"];

/// How the chosen format is held.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Held {
    /// The smallest format tried does not fit either.
    DoesNotFit,
    /// Fits with a mixture of experts' routed experts in system RAM (`offload=experts`).
    ExpertsInRam,
    /// The machine's memory is not known: the largest format, fit unknown.
    Unknown,
    /// Fits in the machine's own memory.
    Fits,
}

impl Held {
    pub fn label(self) -> &'static str {
        match self {
            Held::DoesNotFit => "does not fit",
            Held::ExpertsInRam => "experts in RAM",
            Held::Unknown => "memory unknown",
            Held::Fits => "fits",
        }
    }
}

/// One catalog model on the scenario's machine.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelRow {
    pub id: String,
    pub name: String,
    pub params_b: f64,
    /// The format chosen: the highest bits per weight that fits (the smallest when none does).
    pub quant: &'static str,
    pub quant_name: String,
    pub bpw: f64,
    pub held: Held,
    pub ceiling: f64,
    pub expected: f64,
    pub memory_needed: f64,
    /// The scenario's own model.
    pub current: bool,
}

impl ModelRow {
    /// The format that fits, if one does.
    pub fn fitting_quant(&self) -> Option<&'static str> {
        (self.held != Held::DoesNotFit).then_some(self.quant)
    }
}

/// The formats tried on a machine of `kind` with `backend`, most bits first; on a tie the
/// backend's own format first (MLX on `mlx`, GGUF otherwise).
pub fn ladder(cat: &Catalog, kind: Kind, backend: Backend) -> Vec<(&'static str, f64, Option<f64>)> {
    let mut ids: Vec<&'static str> = GGUF_LADDER.to_vec();
    if kind == Kind::Apple {
        ids.extend(MLX_LADDER);
    }
    let mut out: Vec<(&'static str, f64, Option<f64>)> = ids
        .into_iter()
        .filter_map(|id| cat.quant(id).ok().map(|q| (id, q.bpw, q.other_bpw)))
        .collect();
    let mlx_first = backend == Backend::Mlx;
    out.sort_by(|a, b| {
        b.1.total_cmp(&a.1)
            .then((a.0.starts_with("mlx") != mlx_first).cmp(&(b.0.starts_with("mlx") != mlx_first)))
    });
    out
}

/// The scenario with catalog model `id` (a custom model's keys and weight file dropped).
pub fn with_model(s: &Scenario, id: &str) -> Scenario {
    let mut s = s.clone();
    s.choose_model(id);
    s
}

/// The inputs to search from: the scenario's machine, context, KV type and system RAM, one stream,
/// no draft, placed by the fit rule (no `gpu_frac`, no expert offload).
fn search_inputs(s: &Scenario, cat: &Catalog) -> Option<Inputs> {
    let first = cat.models.first()?;
    let mut base = with_model(s, &first.id);
    for key in [Key::GpuFrac, Key::Offload, Key::Batch, Key::Draft, Key::DraftWeights] {
        base.clear(key);
    }
    let mut inputs = base.resolve(cat).ok()?;
    // The table shows decode speeds: no time to first token to work out.
    inputs.prompt = 0.0;
    Some(inputs)
}

fn set_model(inputs: &mut Inputs, m: &Model) {
    inputs.model = ModelSpec::Arch {
        name: m.name.clone(),
        arch: Box::new(m.arch.clone()),
        max_context: m.max_context,
    };
}

fn set_format(inputs: &mut Inputs, bpw: f64, other_bpw: Option<f64>) {
    inputs.weights = WeightSpec::Bits { bpw, other_bpw };
}

/// The highest format of `ladder` (most bits first) that fits `inputs`' model, and how it is held.
fn best_format(inputs: &mut Inputs, ladder: &[(&'static str, f64, Option<f64>)]) -> Option<(usize, Held)> {
    // Fewer bits never need more memory, so the first that fits is found by bisection.
    let first_fitting = |inputs: &mut Inputs| {
        let mut fits_at = |i: usize| {
            let (_, bpw, other) = ladder[i];
            set_format(inputs, bpw, other);
            memory_fit(inputs).0
        };
        match fits_at(0) {
            Some(true) => return Some((0, Held::Fits)),
            None => return Some((0, Held::Unknown)),
            Some(false) => {}
        }
        let last = ladder.len() - 1;
        if fits_at(last) != Some(true) {
            return None;
        }
        // fits_at(lo) is false, fits_at(hi) true.
        let (mut lo, mut hi) = (0, last);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if fits_at(mid) == Some(true) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        Some((hi, Held::Fits))
    };
    if ladder.is_empty() {
        return None;
    }
    inputs.placement.expert_offload = false;
    if let Some(found) = first_fitting(inputs) {
        return Some(found);
    }
    let moe = matches!(&inputs.model, ModelSpec::Arch { arch, .. } if arch.is_moe());
    if moe && inputs.machine.kind == Kind::Gpu {
        inputs.placement.expert_offload = true;
        if let Some((i, _)) = first_fitting(inputs) {
            return Some((i, Held::ExpertsInRam));
        }
        inputs.placement.expert_offload = false;
    }
    let smallest = ladder.len() - 1;
    let (_, bpw, other) = ladder[smallest];
    set_format(inputs, bpw, other);
    Some((smallest, Held::DoesNotFit))
}

/// Every catalog model on the scenario's machine at the scenario's context and KV type, at the
/// best format that fits. Empty when the scenario's machine cannot be resolved.
pub fn model_rows(s: &Scenario, cat: &Catalog) -> Vec<ModelRow> {
    let Some(mut inputs) = search_inputs(s, cat) else {
        return Vec::new();
    };
    let ladder = ladder(cat, inputs.machine.kind, s.backend(cat));
    let current = crate::report::views::model_and_quant(s).0;
    cat.models
        .iter()
        .filter_map(|m| {
            set_model(&mut inputs, m);
            let (i, held) = best_format(&mut inputs, &ladder)?;
            // (The search leaves the last format it tried.)
            set_format(&mut inputs, ladder[i].1, ladder[i].2);
            inputs.placement.expert_offload = held == Held::ExpertsInRam;
            let e = estimate(&inputs);
            let quant = ladder[i].0;
            Some(ModelRow {
                id: m.id.clone(),
                name: m.name.clone(),
                params_b: m.params_b,
                quant,
                quant_name: cat.quant(quant).map_or(quant.to_string(), |q| q.name.clone()),
                bpw: ladder[i].1,
                held,
                ceiling: e.ceiling_tok_s,
                expected: e.expected_tok_s,
                memory_needed: e.memory_needed_bytes,
                current: current == Some(m.id.as_str()),
            })
        })
        .collect()
}

/// The model table's sortable columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelColumn {
    Model,
    Params,
    Format,
    Ceiling,
    Expected,
    Memory,
    Fits,
}

impl ModelColumn {
    pub const ALL: [ModelColumn; 7] = [
        ModelColumn::Model,
        ModelColumn::Params,
        ModelColumn::Format,
        ModelColumn::Ceiling,
        ModelColumn::Expected,
        ModelColumn::Memory,
        ModelColumn::Fits,
    ];

    pub fn label(self) -> &'static str {
        match self {
            ModelColumn::Model => "Model",
            ModelColumn::Params => "Parameters (B)",
            ModelColumn::Format => "Best format that fits",
            ModelColumn::Ceiling => "Ceiling (tok/s)",
            ModelColumn::Expected => "Expected (tok/s)",
            ModelColumn::Memory => "Memory needed",
            ModelColumn::Fits => "Fits?",
        }
    }

    /// The sort hook's suffix: `sort-model-<id>`.
    pub fn id(self) -> &'static str {
        match self {
            ModelColumn::Model => "model",
            ModelColumn::Params => "params",
            ModelColumn::Format => "format",
            ModelColumn::Ceiling => "ceiling",
            ModelColumn::Expected => "expected",
            ModelColumn::Memory => "memory",
            ModelColumn::Fits => "fits",
        }
    }

    /// Text columns sort A→Z first; numbers largest first.
    pub fn ascending_first(self) -> bool {
        self == ModelColumn::Model
    }
}

/// The positions of the rows expected at least `min_tok_s` fast, sorted by `column`.
pub fn model_order(rows: &[ModelRow], min_tok_s: f64, column: ModelColumn, ascending: bool) -> Vec<usize> {
    let mut order: Vec<usize> = (0..rows.len()).filter(|&i| rows[i].expected >= min_tok_s).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&rows[a], &rows[b]);
        let o = match column {
            ModelColumn::Model => a.name.to_ascii_lowercase().cmp(&b.name.to_ascii_lowercase()),
            ModelColumn::Params => a.params_b.total_cmp(&b.params_b),
            ModelColumn::Format => a.bpw.total_cmp(&b.bpw),
            ModelColumn::Ceiling => a.ceiling.total_cmp(&b.ceiling),
            ModelColumn::Expected => a.expected.total_cmp(&b.expected),
            ModelColumn::Memory => a.memory_needed.total_cmp(&b.memory_needed),
            ModelColumn::Fits => a.held.cmp(&b.held).then(a.expected.total_cmp(&b.expected)),
        };
        if ascending {
            o
        } else {
            o.reverse()
        }
    });
    order
}

/// The model rows as CSV (the table's Download CSV).
pub fn model_rows_csv(rows: &[ModelRow]) -> String {
    crate::report::views::csv(
        [
            "id",
            "model",
            "params_b",
            "quant",
            "bits_per_weight",
            "held",
            "ceiling_tok_s",
            "expected_tok_s",
            "memory_needed_bytes",
        ],
        rows.iter().map(|r| {
            [
                r.id.clone(),
                r.name.clone(),
                r.params_b.to_string(),
                r.quant.to_string(),
                r.bpw.to_string(),
                r.held.label().to_string(),
                r.ceiling.to_string(),
                r.expected.to_string(),
                format!("{:.0}", r.memory_needed),
            ]
        }),
    )
}

/// What a target speed means on the scenario's machine: the highest-bits format that reaches it
/// at this context, and the longest context at this format that still does.
#[derive(Clone, Debug, PartialEq)]
pub struct TargetReach {
    pub target: f64,
    /// The best format of the ladder that fits and reaches the target at the scenario's context.
    pub best_format: Option<String>,
    /// The longest context (tokens) at the scenario's format that fits and reaches the target;
    /// `None` when even an empty context does not.
    pub longest_context: Option<f64>,
    /// The model's trained context bounds the search, when the catalog knows it.
    pub context_limit: f64,
}

/// The longest context searched when the model's trained context is unknown.
const MAX_SEARCH_CONTEXT: f64 = 1_048_576.0;

/// Whether an estimate of `inputs` fits (or its fit is unknown) and reaches `target`.
fn reaches(inputs: &Inputs, target: f64) -> bool {
    memory_fit(inputs).0 != Some(false) && estimate(inputs).expected_tok_s >= target
}

/// How far `target` tok/s reaches on the scenario's machine (with its model, placement and all).
pub fn target_reach(inputs: &Inputs, cat: &Catalog, kind: Kind, backend: Backend, target: f64) -> TargetReach {
    let mut probe = inputs.clone();
    let best_format = ladder(cat, kind, backend).into_iter().find_map(|(id, bpw, other)| {
        set_format(&mut probe, bpw, other);
        reaches(&probe, target).then(|| cat.quant(id).map_or(id.to_string(), |q| q.name.clone()))
    });
    let limit = match &inputs.model {
        ModelSpec::Arch { max_context: Some(m), .. } => f64::from(*m),
        _ => MAX_SEARCH_CONTEXT,
    };
    let mut probe = inputs.clone();
    let at = |probe: &mut Inputs, ctx: f64| {
        probe.context = ctx;
        reaches(probe, target)
    };
    let longest_context = if !at(&mut probe, 0.0) {
        None
    } else if at(&mut probe, limit) {
        Some(limit)
    } else {
        // Speed falls as the context grows: bisect to the nearest 256 tokens.
        let (mut lo, mut hi) = (0.0, limit);
        while hi - lo > 256.0 {
            let mid = ((lo + hi) / 2.0).round();
            if at(&mut probe, mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Some(lo)
    };
    TargetReach {
        target,
        best_format,
        longest_context,
        context_limit: limit,
    }
}

/// The headline's target sentence.
pub fn target_text(r: &TargetReach, format: &str, context: f64) -> String {
    let t = crate::text::units::fmt_tok_s(r.target);
    let best = match &r.best_format {
        Some(f) => format!("{f} is the highest-bits format that reaches {t} tok/s here at {context:.0} tokens of context"),
        None => format!("No format reaches {t} tok/s here at {context:.0} tokens of context"),
    };
    let longest = match r.longest_context {
        None => format!("{format} does not reach it even with an empty context."),
        Some(c) if c >= r.context_limit => format!("{format} reaches it up to the model's whole {c:.0}-token context."),
        Some(c) => format!("{format} reaches it up to {c:.0} tokens of context."),
    };
    format!("{best}; {longest}")
}

/// Whether format `quant` is made for `model`: a model released in its own format (gpt-oss in
/// MXFP4) comes in that format's family; any other model in every format but those families; and
/// a format made only for some model families (ternary types) only for those.
pub fn format_exists(cat: &Catalog, model: &Model, quant: &str) -> bool {
    if cat
        .quant(quant)
        .is_ok_and(|q| !q.models.is_empty() && !q.models.contains(&model.family))
    {
        return false;
    }
    let family = |id: &str| cat.quant(id).map(|q| q.format.clone()).unwrap_or_default();
    let natives: Vec<String> = cat.models.iter().filter_map(|m| m.native_quant.as_deref()).map(family).collect();
    match model.native_quant.as_deref() {
        Some(native) => family(native) == family(quant),
        None => !natives.contains(&family(quant)),
    }
}

/// Moves the scenario to catalog model `id` as the model picker does: the chosen format stays
/// where it is made for that model and fits; otherwise the model's own format (its native one,
/// else the default) where that fits, else the most bits that fit. Returns what changed and why,
/// for the page to say, when the format changed.
pub fn choose_following_format(s: &mut Scenario, cat: &Catalog, id: &str) -> Option<String> {
    let custom_bits = s.has(Key::Bpw) || s.has(Key::Weights);
    s.choose_model(id);
    let model = cat.model(id).ok()?;
    if custom_bits {
        return None;
    }
    let before = s.text(Key::Quant).unwrap_or(crate::scenario::DEFAULT_QUANT).to_string();
    let set = |s: &mut Scenario, q: &str| {
        if q == crate::scenario::DEFAULT_QUANT {
            s.clear(Key::Quant);
        } else {
            s.put(Key::Quant, Value::Text(q.to_string()));
        }
    };
    let fits = |s: &Scenario, q: &str| {
        let mut t = s.clone();
        set(&mut t, q);
        t.resolve(cat).map(|i| memory_fit(&i).0 != Some(false)).unwrap_or(false)
    };
    let name = |q: &str| cat.quant(q).map_or(q.to_string(), |q| q.name.clone());
    let exists = format_exists(cat, model, &before);
    if exists && fits(s, &before) {
        return None;
    }
    let own = model
        .native_quant
        .clone()
        .unwrap_or_else(|| crate::scenario::DEFAULT_QUANT.to_string());
    let kind = s.resolve(cat).map(|i| i.machine.kind).unwrap_or(Kind::Gpu);
    let chosen = if fits(s, &own) {
        own.clone()
    } else {
        ladder(cat, kind, s.backend(cat))
            .into_iter()
            .map(|(q, _, _)| q)
            .find(|q| format_exists(cat, model, q) && fits(s, q))
            .map_or(own, str::to_string)
    };
    let none_fits = !fits(s, &chosen);
    set(s, &chosen);
    (chosen != before).then(|| {
        if none_fits {
            format!(
                "No format of {} fits entirely here, so the format is now {}, its usual one; what does not fit is read from the next pool.",
                model.name,
                name(&chosen)
            )
        } else if exists {
            format!(
                "{} does not fit {} here, so the format is now {}.",
                name(&before),
                model.name,
                name(&chosen)
            )
        } else {
            format!(
                "{} does not come in {}, so the format is now {}.",
                model.name,
                name(&before),
                name(&chosen)
            )
        }
    })
}

/// The scenario moved to model `id` at format `quant` (as clicking a model row does).
pub fn choose(s: &mut Scenario, id: &str, quant: &str) {
    s.choose_model(id);
    for key in [Key::Bpw, Key::Weights] {
        s.clear(key);
    }
    if quant == crate::scenario::DEFAULT_QUANT {
        s.clear(Key::Quant);
    } else {
        s.put(Key::Quant, Value::Text(quant.to_string()));
    }
}
