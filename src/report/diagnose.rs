//! "My run is slower than tokbound says": one pasted run set beside what tokbound expects of it,
//! why they differ and what to change, and the run given back as a data row.
//!
//! Each decode run of a paste ([`crate::calibration::paste`]) becomes a scenario of its own: the
//! query the user gave (the machine, and anything the run does not state) with every setting the
//! run states put over it ([`RunSettings`]): the model matched by name and size (else a custom one
//! of its file size), the depth, `-ngl` as `gpu_frac`, `n_cpu_moe` and `-ot exps=CPU`, threads,
//! the KV cache's type, flash attention, the backend, a batch. A setting the machine cannot take
//! (a backend it does not run) is left out and said to be. The estimate of that scenario gives
//! the expected figure, its band and the ceiling at the run's depth; the verdict places the
//! measured figure against the band.
//!
//! Causes ([`causes`]) are changes to that scenario, each estimated: a setting the run states
//! whose change gains more than the band's width (whatever the verdict), and, when the run is
//! slower than its band, what the scenario itself shows (weights read from disk, a second socket).
//! A setting the run does not state is never a cause, only an assumption listed. The figure a
//! cause gives is the estimate of the changed scenario, never a fixed factor. Two causes of a
//! slower run change nothing in the scenario and come from the machine's own measured runs
//! ([`super::peers`]): an old build the run names, where the machine's runs on newer builds read
//! faster, and a laptop or power-limited part whose own runs read below the band as well; their
//! figure is the run's own expected one.

use crate::calibration::paste::{parse, PastedRun};
use crate::catalog::Catalog;
use crate::estimator::{estimate, Estimate, Kind, Pool};
use crate::scenario::{Key, Scenario, Value};

/// Where the measured figure sits against the expected band.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Within,
    Slower,
    Faster,
}

impl Verdict {
    /// `within`, `slower` or `faster`, as the JSON and the page's `data-verdict` write it.
    pub fn id(self) -> &'static str {
        match self {
            Verdict::Within => "within",
            Verdict::Slower => "slower",
            Verdict::Faster => "faster",
        }
    }

    fn parse(s: &str) -> Option<Verdict> {
        [Verdict::Within, Verdict::Slower, Verdict::Faster]
            .into_iter()
            .find(|v| v.id() == s)
    }
}

/// A reason the run differs, and the change that removes it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Cause {
    pub id: String,
    pub label: String,
    pub evidence: String,
    /// What tokbound expects once the change is made (the estimate of the changed scenario).
    pub expected_tok_s: f64,
    /// The change as query keys, applied to the run's own scenario (`gpu_frac=&kv=q8_0`; an
    /// empty value unsets the key).
    pub change: String,
}

/// One decode run diagnosed.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RunDiagnosis {
    /// The run as the paste shows it (`qwen2 7B Q4_K - Medium tg128`).
    pub label: String,
    /// The run's own query: the user's, with every setting the run states.
    pub scenario: String,
    pub measured_tok_s: f64,
    pub expected_tok_s: f64,
    pub expected_low_tok_s: f64,
    pub expected_high_tok_s: f64,
    pub ceiling_tok_s: f64,
    pub share_of_ceiling: f64,
    pub verdict: Verdict,
    /// The settings read, as tokbound keys.
    #[serde(serialize_with = "as_object")]
    pub read: Vec<(String, String)>,
    /// The same settings as the run names them.
    #[serde(serialize_with = "as_object")]
    pub raw: Vec<(String, String)>,
    /// What the run does not state and tokbound assumed, or left out.
    pub assumed: Vec<String>,
    pub causes: Vec<Cause>,
    /// What the verdict and the causes add up to, in a sentence.
    pub summary: String,
    /// The run as a line of `row_file`.
    pub row: String,
    pub row_file: String,
}

/// Every decode run of a paste diagnosed.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Diagnosis {
    pub form: String,
    pub runs: Vec<RunDiagnosis>,
}

impl Diagnosis {
    /// As a flat list of strings, the form the parse worker hands the page: the form, then per
    /// run its twelve fields (figures as Rust writes them, which read back exactly), then the
    /// read settings, the raw ones, the assumptions and the causes, each list after its length.
    pub fn to_parts(&self) -> Vec<String> {
        let mut out = vec![self.form.clone()];
        for r in &self.runs {
            let figures = [
                r.measured_tok_s,
                r.expected_tok_s,
                r.expected_low_tok_s,
                r.expected_high_tok_s,
                r.ceiling_tok_s,
                r.share_of_ceiling,
            ];
            out.extend([r.label.clone(), r.scenario.clone()]);
            out.extend(figures.iter().map(f64::to_string));
            out.extend([r.verdict.id().to_string(), r.summary.clone(), r.row.clone(), r.row_file.clone()]);
            for map in [&r.read, &r.raw] {
                out.push(map.len().to_string());
                out.extend(map.iter().flat_map(|(k, v)| [k.clone(), v.clone()]));
            }
            out.push(r.assumed.len().to_string());
            out.extend(r.assumed.iter().cloned());
            out.push(r.causes.len().to_string());
            for c in &r.causes {
                out.extend([
                    c.id.clone(),
                    c.label.clone(),
                    c.evidence.clone(),
                    c.expected_tok_s.to_string(),
                    c.change.clone(),
                ]);
            }
        }
        out
    }

    /// Back from [`Diagnosis::to_parts`]; `None` for a list of another shape.
    pub fn from_parts(parts: &[String]) -> Option<Diagnosis> {
        let (form, mut rest) = parts.split_first()?;
        let mut runs = Vec::new();
        while !rest.is_empty() {
            let (run, after) = run_from_parts(rest)?;
            runs.push(run);
            rest = after;
        }
        Some(Diagnosis { form: form.clone(), runs })
    }
}

/// Reads [`Diagnosis::to_parts`] in order.
struct Cursor<'a>(&'a [String]);

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [String]> {
        let (taken, rest) = self.0.split_at_checked(n)?;
        self.0 = rest;
        Some(taken)
    }

    /// A list after its length, of items `width` parts each.
    fn list(&mut self, width: usize) -> Option<Vec<String>> {
        let n: usize = self.take(1)?[0].parse().ok()?;
        Some(self.take(n.checked_mul(width)?)?.to_vec())
    }
}

/// One run of [`Diagnosis::to_parts`], and what follows it.
fn run_from_parts(parts: &[String]) -> Option<(RunDiagnosis, &[String])> {
    let mut cursor = Cursor(parts);
    let head = cursor.take(12)?;
    let num = |i: usize| crate::text::decimal::parse(&head[i]);
    let pairs = |v: Vec<String>| v.chunks(2).map(|p| (p[0].clone(), p[1].clone())).collect::<Vec<_>>();
    let read = pairs(cursor.list(2)?);
    let raw = pairs(cursor.list(2)?);
    let assumed = cursor.list(1)?;
    let causes = cursor
        .list(5)?
        .chunks(5)
        .map(|c| {
            Some(Cause {
                id: c[0].clone(),
                label: c[1].clone(),
                evidence: c[2].clone(),
                expected_tok_s: crate::text::decimal::parse(&c[3])?,
                change: c[4].clone(),
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let run = RunDiagnosis {
        label: head[0].clone(),
        scenario: head[1].clone(),
        measured_tok_s: num(2)?,
        expected_tok_s: num(3)?,
        expected_low_tok_s: num(4)?,
        expected_high_tok_s: num(5)?,
        ceiling_tok_s: num(6)?,
        share_of_ceiling: num(7)?,
        verdict: Verdict::parse(&head[8])?,
        summary: head[9].clone(),
        row: head[10].clone(),
        row_file: head[11].clone(),
        read,
        raw,
        assumed,
        causes,
    };
    Some((run, cursor.0))
}

/// Name–value pairs as a JSON object, in their order (the command line's; the page's copy of a
/// diagnosis is [`Diagnosis::to_parts`]).
fn as_object<S: serde::Serializer>(pairs: &[(String, String)], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = s.serialize_map(Some(pairs.len()))?;
    for (k, v) in pairs {
        map.serialize_entry(k, v)?;
    }
    map.end()
}

impl RunDiagnosis {
    /// A setting read, by its key's name.
    pub fn read(&self, key: &str) -> Option<&str> {
        self.read.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// A setting as the run names it.
    pub fn raw(&self, name: &str) -> Option<&str> {
        self.raw.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

/// `s` with a cause's `change` made: each key set, or unset where its value is empty; `None`
/// where a value does not parse. (No cause changes the machine.)
pub fn apply_change(s: &Scenario, change: &[(Key, String)]) -> Option<Scenario> {
    let mut next = s.clone();
    for (k, v) in change {
        if v.is_empty() {
            next.clear(*k);
        } else {
            next.set(*k, v).ok()?;
        }
    }
    Some(next)
}

/// A cause's change text (`gpu_frac=&kv=q8_0`) as keys and values; `None` for a key tokbound
/// does not have.
pub fn change_keys(change: &str) -> Option<Vec<(Key, String)>> {
    crate::scenario::parse_query(change)
        .into_iter()
        .map(|(k, v)| Key::named(&k).map(|k| (k, v)))
        .collect()
}

/// Reads `text` and diagnoses each decode run against `base` (the machine and anything the run
/// does not state). A base without a machine takes the one the paste's device line names; where
/// neither names one, `on_screen` (the page) keeps the base's default machine, and otherwise the
/// error says to give it.
pub fn diagnose(text: &str, base: &Scenario, cat: &Catalog, on_screen: bool) -> Result<Diagnosis, String> {
    let paste = parse(text)?;
    let mut base = base.clone();
    base.clear(Key::Cal);
    let mut machine_from = "the query";
    if !base.has(Key::Hw) && !base.has(Key::Bw) {
        match paste.device.as_deref() {
            Some(device) => {
                let m = super::calibrate::machine_for_device(device, cat)?;
                base.put(Key::Hw, Value::Text(m.id.clone()));
                machine_from = "the paste's device line";
            }
            None if on_screen => machine_from = "the page",
            None => return Err("the paste names no device: give the machine (hw=… or bw=…)".into()),
        }
    }
    base.resolve(cat)
        .map_err(|issues| issues.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))?;
    let runs = paste
        .runs
        .iter()
        .map(|run| diagnose_run(run, paste.form, &base, machine_from, cat))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Diagnosis {
        form: paste.form.to_string(),
        runs,
    })
}

/// The settings a run states, as scenario keys, and what it leaves to the base.
pub struct RunSettings {
    pub scenario: Scenario,
    pub read: Vec<(Key, String)>,
    pub assumed: Vec<String>,
    /// The catalog model the run names, if any.
    pub model: Option<String>,
}

impl RunSettings {
    /// `base` with each setting `run` states put over it, one at a time: a setting the scenario
    /// cannot take is left out and listed with why.
    pub fn of(run: &PastedRun, form: &str, base: &Scenario, cat: &Catalog) -> RunSettings {
        let mut out = RunSettings {
            scenario: base.clone(),
            read: Vec::new(),
            assumed: Vec::new(),
            model: None,
        };
        out.model_keys(run, cat);
        out.put(Key::Ctx, format!("{}", run.context().round()), cat);
        if let Some(kv) = run.type_k.as_deref().or(run.type_v.as_deref()) {
            if run.type_v.as_deref().is_some_and(|v| v != kv) {
                out.assumed.push(format!(
                    "kv: {kv} for both K and V (the run's V cache is {})",
                    run.type_v.as_deref().unwrap_or("")
                ));
            }
            out.put(Key::Kv, kv.to_string(), cat);
        }
        if let Some(fa) = run.fa {
            out.put(Key::Fa, if fa { "on" } else { "off" }.into(), cat);
        }
        if let Some(b) = run.backend.as_deref().and_then(backend_id) {
            out.put(Key::Backend, b.to_string(), cat);
        }
        if let Some(t) = run.threads {
            out.put(Key::Threads, t.to_string(), cat);
        }
        if form.starts_with("ollama") {
            out.put(Key::Engine, "ollama".into(), cat);
        }
        out.placement_keys(run, cat);
        if let Some(b) = run.batch {
            out.put(Key::Batch, b.to_string(), cat);
        }
        out.list_assumed(cat);
        out
    }

    /// Puts `key=value` where the scenario still resolves with it; else lists why it was left out.
    fn put(&mut self, key: Key, value: String, cat: &Catalog) -> bool {
        let mut next = self.scenario.clone();
        if let Err(e) = next.set(key, &value) {
            self.assumed.push(format!("{}={value} from the run is left out: {e}", key.name()));
            return false;
        }
        match next.resolve(cat) {
            Ok(_) => {
                self.scenario = next;
                self.read.retain(|(k, _)| *k != key);
                self.read.push((key, value));
                true
            }
            Err(issues) => {
                let why = issues.iter().map(|i| i.problem.clone()).collect::<Vec<_>>().join("; ");
                self.assumed.push(format!("{}={value} from the run is left out: {why}", key.name()));
                false
            }
        }
    }

    /// The model: the catalog model of the run's type and parameters with its format, else a
    /// custom model of the run's file size and parameters; a run that names none keeps the base's.
    fn model_keys(&mut self, run: &PastedRun, cat: &Catalog) {
        let model = super::calibrate::model_for_run(run, cat);
        let quant = run.model.as_deref().and_then(|m| quant_of_type(m, cat));
        match (model, run.size_bytes) {
            (Some(m), _) => {
                self.scenario.clear(Key::Weights);
                self.scenario.clear(Key::Bpw);
                self.put(Key::Model, m.id.clone(), cat);
                self.model = Some(m.id.clone());
                match (quant, run.size_bytes) {
                    (Some(q), _) => {
                        self.put(Key::Quant, q, cat);
                    }
                    (None, Some(size)) => {
                        self.put(Key::Weights, gib_text(size), cat);
                    }
                    _ => {}
                }
            }
            (None, Some(size)) => {
                for k in [Key::Model, Key::Quant, Key::Bpw] {
                    self.scenario.clear(k);
                }
                if let Some(closest) = run.params.and_then(|p| closest_model(p / 1e9, cat)) {
                    self.assumed.push(format!(
                        "model: \"{}\" is no catalog model, read as a custom model of its file size; the closest by parameters is {} (model={})",
                        run.model.as_deref().unwrap_or(""),
                        closest.name,
                        closest.id
                    ));
                }
                if let Some(p) = run.params {
                    self.put(Key::Params, format!("{:.2}", p / 1e9), cat);
                }
                if let Some(share) = run.model.as_deref().and_then(super::calibrate::active_share) {
                    if let Some(p) = run.params {
                        self.put(Key::Active, format!("{:.2}", p / 1e9 * share), cat);
                    }
                }
                self.put(Key::Weights, gib_text(size), cat);
            }
            (None, None) => {}
        }
    }

    /// Where the run put the model: `-ngl` up to the layers as `gpu_frac` (those layers' share,
    /// the output head on the CPU: [`crate::estimator::Inputs::ngl_share`]), `n_cpu_moe` as
    /// `cpu_moe`, `-ot exps=CPU` as `offload=experts`; on a GPU machine only.
    fn placement_keys(&mut self, run: &PastedRun, cat: &Catalog) {
        let Ok(inputs) = self.scenario.resolve(cat) else { return };
        if inputs.machine.kind != Kind::Gpu {
            return;
        }
        if let Some(share) = run.ngl.and_then(|ngl| inputs.ngl_share(ngl)).filter(|s| *s < 1.0) {
            self.put(Key::GpuFrac, format!("{}", (share * 10_000.0).round() / 10_000.0), cat);
        }
        if let Some(n) = run.n_cpu_moe.filter(|n| *n > 0) {
            self.put(Key::CpuMoe, n.to_string(), cat);
        }
        let ot = run.override_tensor.as_deref().unwrap_or("").to_ascii_lowercase();
        if ot.contains("exps") && ot.contains("cpu") {
            self.put(Key::Offload, "experts".into(), cat);
        }
    }

    /// What the run leaves to the query or tokbound's defaults, for the settings that move the
    /// figure.
    fn list_assumed(&mut self, cat: &Catalog) {
        let read = |k: Key| self.read.iter().any(|(r, _)| *r == k);
        let mut out = Vec::new();
        if !read(Key::Model) && !read(Key::Weights) {
            out.push(format!(
                "model: {} (not in the run)",
                given_or_default(&self.scenario, Key::Model, cat)
            ));
        }
        if !read(Key::Quant) && !read(Key::Weights) {
            out.push(format!(
                "quant: {} (not in the run)",
                given_or_default(&self.scenario, Key::Quant, cat)
            ));
        }
        for (k, what) in [
            (Key::Kv, "KV cache type"),
            (Key::Fa, "flash attention"),
            (Key::Backend, "backend"),
            (Key::Threads, "threads"),
        ] {
            if !read(k) {
                out.push(format!("{what}: {} (not in the run)", given_or_default(&self.scenario, k, cat)));
            }
        }
        if !read(Key::GpuFrac) && !read(Key::CpuMoe) && !read(Key::Offload) {
            out.push("placement: as much of the model in the machine's own memory as fits (not in the run)".into());
        }
        self.assumed.extend(out);
    }
}

/// The catalog model nearest `params_b` billion parameters.
fn closest_model(params_b: f64, cat: &Catalog) -> Option<&crate::catalog::Model> {
    cat.models
        .iter()
        .filter(|m| !m.draft)
        .min_by(|a, b| (a.params_b / params_b).ln().abs().total_cmp(&(b.params_b / params_b).ln().abs()))
}

/// A key's text in the scenario, else what tokbound takes for it (`f16`, `on`, the machine's
/// backend, the CPU's cores).
fn given_or_default(s: &Scenario, k: Key, cat: &Catalog) -> String {
    if let Some(t) = s.text(k) {
        return t.to_string();
    }
    match k {
        Key::Fa => "on".into(),
        Key::Backend => s.backend(cat).id().into(),
        Key::Threads => s
            .resolve(cat)
            .ok()
            .and_then(|i| i.host.map(|h| h.threads.to_string()))
            .unwrap_or_else(|| "none needed (no weights read by the CPU)".into()),
        _ => s.default_text(k, cat),
    }
}

/// `4.36 GiB` as the `weights` key writes it.
fn gib_text(bytes: f64) -> String {
    format!("{:.3}GiB", bytes / crate::estimator::GIB)
}

/// The tokbound backend a printed backend list names (`Metal,BLAS` → `metal`, `CUDA` → `cuda`).
pub fn backend_id(printed: &str) -> Option<&'static str> {
    let words: Vec<String> = printed.split([',', ' ', '+']).map(|w| w.trim().to_ascii_lowercase()).collect();
    let has = |w: &str| words.iter().any(|x| x == w);
    [
        ("cuda", "cuda"),
        ("rocm", "rocm"),
        ("hip", "rocm"),
        ("vulkan", "vulkan"),
        ("metal", "metal"),
        ("mtl", "metal"),
        ("sycl", "sycl"),
    ]
    .into_iter()
    .find(|(w, _)| has(w))
    .map(|(_, id)| id)
    .or_else(|| (has("cpu") || has("blas")).then_some("cpu"))
}

/// The catalog format a llama-bench model type names (`qwen2 7B Q4_K - Medium` → `q4_k_m`,
/// `llama 7B mostly Q4_0` → `q4_0`).
pub fn quant_of_type(model_type: &str, cat: &Catalog) -> Option<String> {
    let words: Vec<&str> = model_type.split_whitespace().skip(2).filter(|w| *w != "mostly").collect();
    let text = words.join(" ").to_ascii_lowercase();
    let id = text
        .replace(" - medium", "_m")
        .replace(" - small", "_s")
        .replace(" - large", "_l")
        .replace(" - extra small", "_xs");
    let id = id.split_whitespace().next()?.to_string();
    cat.quant(&id).ok().filter(|q| q.weights).map(|q| q.id.clone())
}

/// The figure of `e` a run of `batch` measures: one stream's, or a batch's over its streams.
fn figure(e: &Estimate, batched: bool) -> Option<f64> {
    if batched {
        e.batch.as_ref().and_then(|b| b.aggregate_tok_s)
    } else {
        Some(e.expected_tok_s)
    }
}

fn diagnose_run(run: &PastedRun, form: &str, base: &Scenario, machine_from: &str, cat: &Catalog) -> Result<RunDiagnosis, String> {
    let settings = RunSettings::of(run, form, base, cat);
    let s = &settings.scenario;
    let inputs = s
        .resolve(cat)
        .map_err(|issues| issues.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))?;
    let e = estimate(&inputs);
    let batched = run.batch.is_some();
    let expected = figure(&e, batched).ok_or_else(|| format!("{}: no batched figure for this machine (it needs tflops=)", run.label()))?;
    let scale = expected / e.expected_tok_s;
    let (low, high) = (e.expected_low_tok_s * scale, e.expected_high_tok_s * scale);
    let ceiling = e.ceiling_tok_s * if batched { f64::from(run.batch.unwrap_or(1)) } else { 1.0 };
    let verdict = if run.tok_s < low {
        Verdict::Slower
    } else if run.tok_s > high {
        Verdict::Faster
    } else {
        Verdict::Within
    };
    let mut causes = causes(run, s, &e, expected, high, verdict, cat);
    if verdict == Verdict::Slower && !batched {
        causes.extend(evidence_causes(run, s, expected, low, cat));
    }
    let mut assumed = settings.assumed.clone();
    assumed.insert(0, format!("machine: {} (from {machine_from})", s.machine_key()));
    let (row, row_file) = super::contribute::row(run, form, s, &inputs, &e);
    Ok(RunDiagnosis {
        label: run.label(),
        scenario: s.to_query_with_defaults(),
        measured_tok_s: run.tok_s,
        expected_tok_s: expected,
        expected_low_tok_s: low,
        expected_high_tok_s: high,
        ceiling_tok_s: ceiling,
        share_of_ceiling: run.tok_s / ceiling,
        summary: summary(verdict, &causes, run.tok_s, expected, run.tok_s / ceiling),
        verdict,
        read: settings.read.iter().map(|(k, v)| (k.name().to_string(), v.clone())).collect(),
        raw: run.raw.clone(),
        assumed,
        causes,
        row,
        row_file: row_file.to_string(),
    })
}

/// The verdict and what follows from it, in a sentence.
fn summary(verdict: Verdict, causes: &[Cause], measured: f64, expected: f64, share_of_ceiling: f64) -> String {
    use crate::text::units::fmt_tok_s;
    let (m, x) = (fmt_tok_s(measured), fmt_tok_s(expected));
    if share_of_ceiling > 1.1 {
        return format!("{m} tok/s is above the ceiling of this scenario ({x} expected): the run was not on this machine, or not of this model and format; choose the machine it ran on (and, for timing lines, give its model).");
    }
    match (verdict, causes.is_empty()) {
        (Verdict::Within, true) => format!("{m} tok/s is within the band around the {x} tokbound expects, and nothing the run states costs more than the band."),
        (Verdict::Within, false) => format!("{m} tok/s is within the band around the {x} tokbound expects for these settings; the causes below are what the settings themselves cost."),
        (Verdict::Slower, false) => format!("{m} tok/s is slower than the {x} tokbound expects; the causes below are ranked by what their change gives."),
        (Verdict::Slower, true) => format!("{m} tok/s is slower than the {x} tokbound expects, and nothing the run states or the scenario shows explains it: measure this machine's memory bandwidth (Measure my machine) and check what else runs on it."),
        (Verdict::Faster, _) => format!("{m} tok/s is faster than the {x} tokbound expects: the catalog's figure for this machine may be low (Calibrate with this run fits it to your machine)."),
    }
}

/// A cause to try: its change and what to say of it.
struct Candidate {
    id: &'static str,
    label: String,
    evidence: String,
    change: Vec<(Key, String)>,
    /// Shown whatever the verdict (a setting the run states, or where the scenario puts the
    /// bytes); otherwise only when the run is slower than its band.
    stated: bool,
    /// Only where the changed scenario fits.
    must_fit: bool,
}

/// The causes for a run whose scenario is `s`, each estimated on its changed scenario, ranked by
/// the figure it gives.
fn causes(run: &PastedRun, s: &Scenario, e: &Estimate, expected: f64, high: f64, verdict: Verdict, cat: &Catalog) -> Vec<Cause> {
    let mut out: Vec<Cause> = Vec::new();
    for c in candidates(run, s, e, cat) {
        if !c.stated && verdict != Verdict::Slower {
            continue;
        }
        let Some(next) = apply_change(s, &c.change) else { continue };
        let Ok(inputs) = next.resolve(cat) else { continue };
        let ne = estimate(&inputs);
        if c.must_fit && ne.fits != Some(true) {
            continue;
        }
        let Some(value) = figure(&ne, run.batch.is_some()) else { continue };
        // A change worth naming gains more than the band's width.
        if value <= high.max(expected * 1.0001) {
            continue;
        }
        out.push(Cause {
            id: c.id.to_string(),
            label: c.label,
            evidence: c.evidence,
            expected_tok_s: value,
            change: c
                .change
                .iter()
                .map(|(k, v)| format!("{}={v}", k.name()))
                .collect::<Vec<_>>()
                .join("&"),
        });
    }
    out.sort_by(|a, b| b.expected_tok_s.total_cmp(&a.expected_tok_s));
    out
}

/// The causes the machine's own measured runs point to and no change of scenario models (an old
/// build, a laptop or power-limited part): the figure each gives is the run's own expected one,
/// what the machine's other runs reach with these settings, and its change is none.
fn evidence_causes(run: &PastedRun, s: &Scenario, expected: f64, low: f64, cat: &Catalog) -> Vec<Cause> {
    use super::peers::{build_number, old_build, peers, power_limit, Standing};
    let Some(machine) = s.text(Key::Hw).and_then(|id| cat.machine(id).ok()) else {
        return Vec::new();
    };
    let peers = peers(&machine.id, s.backend(cat).id(), cat);
    let at = Standing {
        ratio: run.tok_s / expected,
        low_ratio: low / expected,
    };
    let old = run.build.as_deref().and_then(build_number).and_then(|b| old_build(&peers, b, at));
    [
        ("old-build", "an old llama.cpp build", old),
        ("power-limited", "a laptop or power-limited part", power_limit(machine, &peers, at)),
    ]
    .into_iter()
    .filter_map(|(id, label, evidence)| {
        evidence.map(|evidence| Cause {
            id: id.into(),
            label: label.into(),
            evidence,
            expected_tok_s: expected,
            change: String::new(),
        })
    })
    .collect()
}

/// A candidate of `change` (`key`, value; an empty value unsets the key).
fn candidate(id: &'static str, label: String, evidence: String, change: &[(Key, &str)], stated: bool, must_fit: bool) -> Candidate {
    Candidate {
        id,
        label,
        evidence,
        change: change.iter().map(|(k, v)| (*k, v.to_string())).collect(),
        stated,
        must_fit,
    }
}

/// Every cause the run or its scenario gives grounds for, before estimating.
fn candidates(run: &PastedRun, s: &Scenario, e: &Estimate, cat: &Catalog) -> Vec<Candidate> {
    let mut out = stated_candidates(run, s, cat);
    if e.pools.iter().any(|p| p.pool == Pool::Disk && p.weight_bytes > 0.0) {
        if let Some(q) = lower_format_that_fits(s, cat) {
            out.push(candidate(
                "disk",
                "weights larger than free memory, read from disk".into(),
                "the weights do not all fit the machine's memory and system RAM: the rest is read from disk every token".into(),
                &[(Key::Quant, q.as_str())],
                true,
                true,
            ));
        }
    }
    let sockets = s.resolve(cat).ok().and_then(|i| i.host).map_or(1, |h| h.sockets);
    if sockets > 1 {
        out.push(candidate(
            "numa",
            "a second socket without NUMA pinning".into(),
            format!("the run spans {sockets} sockets; the share held by the other socket streams slower"),
            &[(Key::Sockets, "1")],
            false,
            false,
        ));
    }
    out
}

/// The causes a setting the run states may be.
fn stated_candidates(run: &PastedRun, s: &Scenario, cat: &Catalog) -> Vec<Candidate> {
    let mut out = Vec::new();
    if s.has(Key::GpuFrac) {
        let ngl = run.ngl.unwrap_or(0);
        out.push(candidate(
            "layers-in-ram",
            "layers left in system RAM".into(),
            format!("the run put {ngl} layers on the GPU (-ngl {ngl}); the rest are read from system RAM every token"),
            &[(Key::GpuFrac, "")],
            true,
            false,
        ));
    }
    if s.has(Key::CpuMoe) || s.has(Key::Offload) {
        let evidence = match run.n_cpu_moe {
            Some(n) => format!("the run kept the first {n} layers' experts on the CPU (n_cpu_moe {n})"),
            None => format!(
                "the run kept the experts on the CPU (-ot {})",
                run.override_tensor.as_deref().unwrap_or("")
            ),
        };
        out.push(candidate(
            "experts-in-ram",
            "experts kept in system RAM that would fit in VRAM".into(),
            evidence,
            &[(Key::CpuMoe, ""), (Key::Offload, "")],
            true,
            true,
        ));
    }
    if let Some(t) = run.threads {
        let evidence = format!(
            "the run used {t} thread{} (-t {t}); tokbound's default is one per performance core",
            if t == 1 { "" } else { "s" }
        );
        out.push(candidate("threads", "threads".into(), evidence, &[(Key::Threads, "")], true, false));
    }
    if run.fa == Some(false) {
        out.push(candidate(
            "flash-attention",
            "flash attention off".into(),
            format!("the run had flash attention off (fa 0) at a depth of {} tokens", run.depth),
            &[(Key::Fa, "on")],
            true,
            false,
        ));
    }
    if let Some(kv) = s.text(Key::Kv).filter(|k| *k == "f16" || *k == "bf16") {
        out.push(candidate(
            "kv-f16",
            "an f16 KV cache where q8_0 fits".into(),
            format!("the run's KV cache is {kv} (type_k)"),
            &[(Key::Kv, "q8_0")],
            true,
            true,
        ));
    }
    if s.has(Key::Backend) {
        let backend = s.backend(cat);
        for other in faster_backends(backend) {
            let evidence = format!(
                "the run used {}; the measured runs of machines like this one fit {} faster",
                backend.id(),
                other.id()
            );
            out.push(candidate(
                "backend",
                format!("the {} backend", backend.id()),
                evidence,
                &[(Key::Backend, other.id())],
                true,
                false,
            ));
        }
    }
    out
}

/// The highest-bit format below the scenario's, of the same kind, that fits.
fn lower_format_that_fits(s: &Scenario, cat: &Catalog) -> Option<String> {
    let current = cat.quant(super::views::model_and_quant(s).1?).ok()?;
    let mut lower: Vec<&crate::catalog::Quant> = cat
        .quants
        .iter()
        .filter(|q| q.weights && q.format == current.format && q.bpw < current.bpw)
        .collect();
    lower.sort_by(|a, b| b.bpw.total_cmp(&a.bpw));
    lower.into_iter().map(|q| q.id.clone()).find(|id| {
        apply_change(s, &[(Key::Quant, id.clone())])
            .and_then(|n| n.resolve(cat).ok())
            .is_some_and(|i| estimate(&i).fits == Some(true))
    })
}

/// The backends the measured runs may show faster than `b` on the same card: Vulkan against the
/// vendor's own API, SYCL against Vulkan (the estimate of each decides).
fn faster_backends(b: crate::calibration::Backend) -> Vec<crate::calibration::Backend> {
    use crate::calibration::Backend as B;
    match b {
        B::Vulkan => vec![B::Cuda, B::Rocm, B::Sycl],
        B::Sycl => vec![B::Vulkan],
        _ => Vec::new(),
    }
}

impl RunDiagnosis {
    /// "measured 60 tok/s · expected 111 (95–120) · ceiling 150 · 40% of the ceiling": the run's
    /// figures in one line, as `--text` and the page show them.
    pub fn figures(&self) -> String {
        use crate::text::units::fmt_tok_s;
        format!(
            "measured {} tok/s · expected {} ({}–{}) · ceiling {} · {:.0}% of the ceiling",
            fmt_tok_s(self.measured_tok_s),
            fmt_tok_s(self.expected_tok_s),
            fmt_tok_s(self.expected_low_tok_s),
            fmt_tok_s(self.expected_high_tok_s),
            fmt_tok_s(self.ceiling_tok_s),
            self.share_of_ceiling * 100.0
        )
    }
}

/// The diagnosis for people: per run, the verdict, the figures, the causes with their changes,
/// what was read and assumed, and the row.
pub fn text(d: &Diagnosis) -> String {
    use crate::text::units::fmt_tok_s;
    let mut out = String::new();
    for r in &d.runs {
        out.push_str(&format!("{} ({})\n  {}\n", r.label, d.form, r.summary));
        out.push_str(&format!("  {}\n", r.figures()));
        for c in &r.causes {
            let change = if c.change.is_empty() {
                "the run's own scenario"
            } else {
                c.change.as_str()
            };
            out.push_str(&format!(
                "  cause: {} — {}; fixed: {} tok/s ({change})\n",
                c.label,
                c.evidence,
                fmt_tok_s(c.expected_tok_s),
            ));
        }
        let read: Vec<String> = r.read.iter().map(|(k, v)| format!("{k}={v}")).collect();
        out.push_str(&format!("  read: {}\n", read.join(" ")));
        for a in &r.assumed {
            out.push_str(&format!("  assumed: {a}\n"));
        }
        out.push_str(&format!(
            "  scenario: {}\n  row for data/{}:\n  {}\n\n",
            r.scenario, r.row_file, r.row
        ));
    }
    out
}
