//! Calibrating the expected figure to the user's own machine from what their runtime printed.
//!
//! Accepted pastes (anything else is an error that says what was expected):
//! - llama-bench's markdown table (`| model | size | params | backend | … | test | t/s |`), with the
//!   device lines it prints before it;
//! - llama-bench `-o json` (an array of runs) or `-o jsonl` (one run a line);
//! - llama-server's timing lines (`eval time = 1234.56 ms / 128 tokens (…)`), or llama-cli's;
//! - `ollama run --verbose` statistics (`eval rate: 103.52 tokens/s`).
//!
//! Only generation figures are fitted (`tg` tests, eval rates); prompt-processing rows are read
//! and left out. A llama-bench row names its model by type, size and parameter count; it is
//! matched to the catalog model of that parameter count and family where one is close (its
//! architecture then gives the bytes read per token, the layers and the KV cache at the test's
//! depth), else its bytes are the file's (times active ÷ total for an `30B.A3B` type) and its
//! layers follow from its size. Timing lines and ollama statistics say nothing of the model: the
//! scenario's model and format stand for it.
//!
//! The fit, per [`UserFit`]: this machine's weight-streaming efficiency e, and, when two or more
//! rows differ in bytes or depth, its cost per layer per pass l, in
//! `t = l·layers + e_moe·expert_matmuls + W ÷ (BW·e) + k·K ÷ BW`, with the expert and KV terms
//! kept from the machine's class fit. One row fits e alone, l kept from the class. Its band is
//! the spread of its residuals, at least ±5%. Pastes over [`MAX_PASTE`] bytes are refused.

use serde_json::Value;

use crate::estimator::{Coefficients, PassShape, GB};

/// The largest paste read, in bytes.
pub const MAX_PASTE: usize = 1 << 20;
/// The most rows read from one paste.
const MAX_ROWS: usize = 2000;
/// The least band a user's fit is given: ±5%.
pub const MIN_BAND: f64 = 0.05;
/// The widest: ±200% (figures further from any fit are not a calibration).
pub const MAX_BAND: f64 = 2.0;
/// The band one run leaves: ±30%, narrowing as 1/√n with n runs (±9.5% at ten), so a fit on a
/// single figure never claims the precision of many.
pub const ONE_RUN_BAND: f64 = 0.30;
/// How far above the ceiling a figure may be before it is refused (the published sizes and
/// bandwidths behind a ceiling are a few percent from what a run reads).
const ABOVE_CEILING: f64 = 1.1;

/// One measured figure from a paste.
#[derive(Clone, Debug, PartialEq)]
pub struct PastedRun {
    /// What the paste calls the model (`llama 8B Q4_0`), if it says.
    pub model: Option<String>,
    /// Model file size in bytes, if given.
    pub size_bytes: Option<f64>,
    /// Parameters, if given.
    pub params: Option<f64>,
    /// Backend as printed (`CUDA`, `Metal,BLAS`), if given.
    pub backend: Option<String>,
    /// Tokens generated (`None` for a prompt-processing figure).
    pub generated: Option<f64>,
    /// Tokens already in the cache when the test started.
    pub depth: f64,
    pub tok_s: f64,
    /// Flash attention, where printed.
    pub fa: Option<bool>,
    /// Where the run put the model, where printed: layers on the GPU (`ngl`), the first layers
    /// whose experts stay in system RAM (`n_cpu_moe`), tensor overrides (`ot`: `exps=CPU`).
    pub ngl: Option<u32>,
    pub n_cpu_moe: Option<u32>,
    pub override_tensor: Option<String>,
    /// Threads and the KV cache's types (`q8_0`, `f16`), where printed.
    pub threads: Option<u32>,
    pub type_k: Option<String>,
    pub type_v: Option<String>,
}

impl Default for PastedRun {
    fn default() -> PastedRun {
        PastedRun {
            model: None,
            size_bytes: None,
            params: None,
            backend: None,
            generated: None,
            depth: 0.0,
            tok_s: 0.0,
            fa: None,
            ngl: None,
            n_cpu_moe: None,
            override_tensor: None,
            threads: None,
            type_k: None,
            type_v: None,
        }
    }
}

impl PastedRun {
    /// The mean KV length during generation: depth + generated ÷ 2.
    pub fn context(&self) -> f64 {
        self.depth + self.generated.unwrap_or(0.0) / 2.0
    }

    /// A short description for residual tables (`llama 8B Q4_0 tg128 @ d4096`).
    pub fn label(&self) -> String {
        let test = match self.generated {
            Some(n) => format!("tg{n}"),
            None => "pp".into(),
        };
        let depth = if self.depth > 0.0 {
            format!(" @ d{}", self.depth)
        } else {
            String::new()
        };
        format!("{}{test}{depth}", self.model.as_ref().map(|m| format!("{m} ")).unwrap_or_default())
    }
}

/// What a paste held.
#[derive(Clone, Debug, PartialEq)]
pub struct Paste {
    pub runs: Vec<PastedRun>,
    /// The device the runtime named (`NVIDIA GeForce RTX 4090`, `Apple M2 Ultra`), if it did.
    pub device: Option<String>,
    /// Which of the accepted forms it was.
    pub form: &'static str,
}

/// Reads a paste; the error says what was expected.
pub fn parse(text: &str) -> Result<Paste, String> {
    if text.len() > MAX_PASTE {
        return Err(format!(
            "the paste is {:.1} MB; at most 1 MB is read (paste llama-bench's table or its -o json output)",
            text.len() as f64 / 1e6
        ));
    }
    let device = device_line(text);
    let trimmed = text.trim_start();
    let (runs, form) = if trimmed.starts_with('[') || trimmed.starts_with('{') {
        (json_runs(trimmed)?, "llama-bench JSON")
    } else if text.lines().any(|l| l.trim_start().starts_with('|') && l.contains("t/s")) {
        (markdown_runs(text)?, "llama-bench table")
    } else if text.contains("eval time") {
        (timing_runs(text), "llama-server timings")
    } else if text.contains("eval rate") {
        (ollama_runs(text), "ollama --verbose statistics")
    } else {
        return Err(
            "not llama-bench output (its table, or -o json / -o jsonl), llama-server timing lines or ollama --verbose statistics".into(),
        );
    };
    if runs.is_empty() {
        return Err(format!("the {form} held no generation figure to fit"));
    }
    Ok(Paste { runs, device, form })
}

/// `Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9` (CUDA, ROCm, Vulkan, SYCL) or
/// Metal's `picking default device: Apple M2 Ultra`; llama-bench JSON's `gpu_info`.
fn device_line(text: &str) -> Option<String> {
    for line in text.lines().take(MAX_ROWS) {
        let l = line.trim();
        if let Some(rest) = l.split("Device 0:").nth(1) {
            return rest.split(',').next().map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
        }
        if let Some(rest) = l.split("picking default device:").nth(1) {
            return Some(rest.trim().to_string()).filter(|s| !s.is_empty());
        }
    }
    None
}

/// The first number in `s` (`"170.21 ± 0.30"` → 170.21).
pub fn first_number(s: &str) -> Option<f64> {
    let start = s.find(|c: char| c.is_ascii_digit())?;
    let rest = &s[start..];
    let end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
    crate::text::decimal::parse(&rest[..end]).filter(|v| v.is_finite())
}

/// A whole number cell (`99`, `16`); `None` for anything else.
fn whole(s: &str) -> Option<u32> {
    s.trim().parse().ok()
}

/// `4.33 GiB`, `512.00 MiB`, `7.16 GB` in bytes.
fn size_text(s: &str) -> Option<f64> {
    let v = first_number(s)?;
    let unit = if s.contains("GiB") {
        1024f64.powi(3)
    } else if s.contains("MiB") {
        1024f64.powi(2)
    } else if s.contains("TiB") {
        1024f64.powi(4)
    } else if s.contains("GB") {
        1e9
    } else if s.contains("MB") {
        1e6
    } else {
        1.0
    };
    Some(v * unit)
}

/// `8.03 B`, `30.53 B`, `494.03 M` as a parameter count.
fn params_text(s: &str) -> Option<f64> {
    let v = first_number(s)?;
    let t = s.trim_end();
    Some(if t.ends_with('M') {
        v * 1e6
    } else if t.ends_with('T') {
        v * 1e12
    } else {
        v * 1e9
    })
}

/// `tg128`, `pp512`, `tg128 @ d4096`, `pp512+tg128`: (generated tokens, depth).
fn test_text(s: &str) -> Option<(Option<f64>, f64)> {
    let s = s.trim();
    let (test, depth) = match s.split_once('@') {
        Some((t, d)) => (t.trim(), first_number(d).unwrap_or(0.0)),
        None => (s, 0.0),
    };
    if test.contains('+') {
        return None;
    }
    if let Some(n) = test.strip_prefix("tg") {
        return Some((Some(first_number(n)?), depth));
    }
    test.strip_prefix("pp").map(|_| (None, depth))
}

fn markdown_runs(text: &str) -> Result<Vec<PastedRun>, String> {
    let mut header: Option<Vec<String>> = None;
    let mut runs = Vec::new();
    for line in text.lines().take(MAX_ROWS * 2) {
        let l = line.trim();
        if !l.starts_with('|') {
            continue;
        }
        let cells: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
        if cells.iter().all(|c| c.chars().all(|ch| matches!(ch, '-' | ':' | ' '))) {
            continue;
        }
        if cells.contains(&"t/s") && cells.contains(&"test") {
            header = Some(cells.iter().map(|c| c.to_string()).collect());
            continue;
        }
        let Some(h) = &header else { continue };
        let col = |name: &str| h.iter().position(|c| c == name).and_then(|i| cells.get(i).copied());
        let Some((generated, depth)) = col("test").and_then(test_text) else {
            continue;
        };
        let Some(tok_s) = col("t/s").and_then(first_number).filter(|v| *v > 0.0) else {
            continue;
        };
        runs.push(PastedRun {
            model: col("model").map(str::to_string).filter(|m| !m.is_empty()),
            size_bytes: col("size").and_then(size_text),
            params: col("params").and_then(params_text),
            backend: col("backend").map(str::to_string),
            generated,
            depth,
            tok_s,
            fa: col("fa").and_then(|f| match f {
                "1" | "on" | "true" => Some(true),
                "0" | "off" | "false" => Some(false),
                _ => None,
            }),
            ngl: col("ngl").and_then(whole),
            n_cpu_moe: col("n_cpu_moe").and_then(whole),
            override_tensor: col("ot").map(str::to_string).filter(|t| !t.is_empty()),
            threads: col("threads").and_then(whole),
            type_k: col("type_k").map(str::to_string).filter(|t| !t.is_empty()),
            type_v: col("type_v").map(str::to_string).filter(|t| !t.is_empty()),
        });
    }
    if header.is_none() {
        return Err("no llama-bench table header (| model | size | params | … | test | t/s |)".into());
    }
    Ok(runs.into_iter().filter(|r| r.generated.is_some()).take(MAX_ROWS).collect())
}

fn json_runs(text: &str) -> Result<Vec<PastedRun>, String> {
    let values: Vec<Value> = if text.starts_with('[') {
        match serde_json::from_str::<Value>(text) {
            Ok(Value::Array(items)) => items,
            Ok(_) => return Err("llama-bench -o json is an array of runs".into()),
            Err(e) => return Err(format!("not valid JSON: {e}")),
        }
    } else {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .take(MAX_ROWS)
            .enumerate()
            .map(|(i, l)| serde_json::from_str::<Value>(l).map_err(|e| format!("line {}: not valid JSON: {e}", i + 1)))
            .collect::<Result<_, _>>()?
    };
    let num = |v: &Value, k: &str| v.get(k).and_then(Value::as_f64);
    let runs = values
        .iter()
        .take(MAX_ROWS)
        .filter_map(|v| {
            let generated = num(v, "n_gen").filter(|n| *n > 0.0)?;
            if num(v, "n_prompt").is_some_and(|p| p > 0.0) {
                // A combined prompt + generation test: not a generation figure.
                return None;
            }
            Some(PastedRun {
                model: v.get("model_type").and_then(Value::as_str).map(str::to_string),
                size_bytes: num(v, "model_size"),
                params: num(v, "model_n_params"),
                backend: v.get("backends").and_then(Value::as_str).map(str::to_string),
                generated: Some(generated),
                depth: num(v, "n_depth").unwrap_or(0.0),
                tok_s: num(v, "avg_ts").filter(|t| *t > 0.0 && t.is_finite())?,
                fa: v.get("flash_attn").and_then(|f| f.as_bool().or_else(|| f.as_i64().map(|n| n != 0))),
                ngl: num(v, "n_gpu_layers").map(|n| n as u32),
                n_cpu_moe: num(v, "n_cpu_moe").map(|n| n as u32),
                override_tensor: v
                    .get("tensor_buft_overrides")
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .filter(|t| !t.is_empty() && t != "none"),
                threads: num(v, "n_threads").map(|n| n as u32),
                type_k: v.get("type_k").and_then(Value::as_str).map(str::to_string),
                type_v: v.get("type_v").and_then(Value::as_str).map(str::to_string),
            })
        })
        .collect();
    Ok(runs)
}

/// llama-server and llama-cli: `prompt eval time = 245.20 ms / 512 tokens (…)` then
/// `eval time = 1234.56 ms / 128 tokens (…)`.
fn timing_runs(text: &str) -> Vec<PastedRun> {
    let mut runs = Vec::new();
    let mut prompt = 0.0;
    for line in text.lines().take(MAX_ROWS * 2) {
        let Some((before, after)) = line.split_once("eval time") else {
            continue;
        };
        let Some((ms, tokens)) = after.split_once('/') else { continue };
        let (Some(ms), Some(tokens)) = (first_number(ms), first_number(tokens)) else {
            continue;
        };
        if before.trim_end().ends_with("prompt") {
            prompt = tokens;
        } else if ms > 0.0 && tokens > 0.0 {
            runs.push(PastedRun {
                generated: Some(tokens),
                depth: prompt,
                tok_s: tokens / (ms / 1000.0),
                ..PastedRun::default()
            });
            prompt = 0.0;
        }
    }
    runs
}

/// `ollama run --verbose`: `prompt eval count: 26 token(s)` … `eval count: 128 token(s)` …
/// `eval rate: 103.52 tokens/s`.
fn ollama_runs(text: &str) -> Vec<PastedRun> {
    let mut runs = Vec::new();
    let (mut prompt, mut count) = (0.0, None);
    for line in text.lines().take(MAX_ROWS * 4) {
        let l = line.trim();
        if let Some(rest) = l.strip_prefix("prompt eval count:") {
            prompt = first_number(rest).unwrap_or(0.0);
        } else if let Some(rest) = l.strip_prefix("eval count:") {
            count = first_number(rest);
        } else if let Some(rest) = l.strip_prefix("eval rate:") {
            if let Some(rate) = first_number(rest).filter(|r| *r > 0.0) {
                runs.push(PastedRun {
                    generated: Some(count.unwrap_or(128.0)),
                    depth: prompt,
                    tok_s: rate,
                    ..PastedRun::default()
                });
            }
            (prompt, count) = (0.0, None);
        }
    }
    runs
}

/// One run as the fit sees it: bytes read per token and the pass's fixed work.
#[derive(Clone, Debug, PartialEq)]
pub struct FitRow {
    pub label: String,
    pub weight_bytes: f64,
    pub kv_bytes: f64,
    pub shape: PassShape,
    pub measured_tok_s: f64,
}

/// A machine's own calibration: what `cal=` carries.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UserFit {
    /// Weight-streaming efficiency (the share of peak bandwidth weights stream at).
    pub efficiency: f64,
    /// Seconds per layer per pass.
    pub per_layer_s: f64,
    /// Half-width of the band, as a share (0.05 = ±5%).
    pub band: f64,
}

impl UserFit {
    /// The class's coefficients with this machine's efficiency and per-layer cost.
    pub fn apply(&self, class: &Coefficients) -> Coefficients {
        Coefficients {
            overhead_s: 0.0,
            per_layer_s: self.per_layer_s,
            weight: 1.0 / self.efficiency,
            ..*class
        }
    }
}

/// One row's figures before and after a fit.
#[derive(Clone, Debug, PartialEq)]
pub struct Residual {
    pub label: String,
    pub measured_tok_s: f64,
    pub before_tok_s: f64,
    pub after_tok_s: f64,
}

/// Fits a machine of `bandwidth_gbs` on `rows`, starting from its class's coefficients.
pub fn fit(rows: &[FitRow], bandwidth_gbs: f64, class: &Coefficients) -> Result<(UserFit, Vec<Residual>), String> {
    if rows.is_empty() {
        return Err("no generation figure to fit".into());
    }
    let bw = bandwidth_gbs * GB;
    // A figure well above the ceiling is no calibration: the machine or the model is not the one
    // that ran.
    for r in rows {
        let ceiling = bw / (r.weight_bytes + r.kv_bytes);
        if r.measured_tok_s > ABOVE_CEILING * ceiling {
            return Err(format!(
                "{}: {} tok/s is above this machine's ceiling of {} tok/s for that model; is the machine right (and, for timing lines, the model and format)?",
                r.label,
                crate::text::units::fmt_tok_s(r.measured_tok_s),
                crate::text::units::fmt_tok_s(ceiling)
            ));
        }
    }
    let predict = |c: &Coefficients, r: &FitRow| 1.0 / c.seconds(&r.shape, r.weight_bytes / bw, r.kv_bytes / bw);
    // t − (expert and KV terms) = l·layers + W/BW · (1/e): least squares weighted by 1/t.
    let target = |r: &FitRow| 1.0 / r.measured_tok_s - class.per_expert_s * r.shape.expert_matmuls - class.kv * r.kv_bytes / bw;
    let distinct = rows.iter().any(|r| {
        (r.weight_bytes / rows[0].weight_bytes - 1.0).abs() > 0.05 || (r.kv_bytes - rows[0].kv_bytes).abs() > 0.05 * r.weight_bytes
    });
    let (per_layer, inv_e) = if distinct {
        let (mut a11, mut a12, mut a22, mut b1, mut b2) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for r in rows {
            let w = r.measured_tok_s * r.measured_tok_s;
            let (x1, x2, y) = (r.shape.layers, r.weight_bytes / bw, target(r));
            a11 += w * x1 * x1;
            a12 += w * x1 * x2;
            a22 += w * x2 * x2;
            b1 += w * x1 * y;
            b2 += w * x2 * y;
        }
        let det = a11 * a22 - a12 * a12;
        let (l, ie) = if det.abs() > 1e-30 {
            ((b1 * a22 - b2 * a12) / det, (a11 * b2 - a12 * b1) / det)
        } else {
            (class.per_layer_s, class.weight)
        };
        if l >= 0.0 && ie >= 1.0 {
            (l, ie)
        } else {
            (class.per_layer_s, one_coefficient(rows, bw, class, &target))
        }
    } else {
        (class.per_layer_s, one_coefficient(rows, bw, class, &target))
    };
    if !(per_layer.is_finite() && inv_e.is_finite()) || inv_e > 100.0 {
        return Err("the figures are far below what this machine's bandwidth allows (under 1% of it): is the machine right?".into());
    }
    let mut fit = UserFit {
        efficiency: 1.0 / inv_e,
        per_layer_s: per_layer,
        band: MIN_BAND,
    };
    let after = fit.apply(class);
    let residuals: Vec<Residual> = rows
        .iter()
        .map(|r| Residual {
            label: r.label.clone(),
            measured_tok_s: r.measured_tok_s,
            before_tok_s: predict(class, r),
            after_tok_s: predict(&after, r),
        })
        .collect();
    let spread = residuals
        .iter()
        .map(|r| (r.measured_tok_s / r.after_tok_s).ln().abs())
        .fold(0.0f64, f64::max);
    let few = ONE_RUN_BAND / (rows.len() as f64).sqrt();
    fit.band = (spread.exp() - 1.0).max(few).clamp(MIN_BAND, MAX_BAND);
    Ok((fit, residuals))
}

/// The streaming multiplier alone (at least 1), the per-layer cost kept from the class.
fn one_coefficient(rows: &[FitRow], bw: f64, class: &Coefficients, target: &dyn Fn(&FitRow) -> f64) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    for r in rows {
        let w = r.measured_tok_s * r.measured_tok_s;
        let x = r.weight_bytes / bw;
        num += w * x * (target(r) - class.per_layer_s * r.shape.layers);
        den += w * x * x;
    }
    if den > 0.0 {
        (num / den).max(1.0)
    } else {
        class.weight
    }
}

/// The `cal=` text: what it was fitted for (a catalog machine id, or a bandwidth in GB/s),
/// efficiency, cost per layer in µs, the band's half-width and, where known, the catalog models the
/// runs measured (comma-separated), joined by `~`: `rtx-4090~0.871~38.5~0.06~llama-3.1-8b`.
pub fn cal_text(machine: &str, f: &UserFit, models: &[String]) -> String {
    let mut text = format!(
        "{machine}~{}~{}~{}",
        round(f.efficiency, 1000.0),
        round(f.per_layer_s * 1e6, 10.0),
        round(f.band, 1000.0)
    );
    if !models.is_empty() {
        text.push('~');
        text.push_str(&models.join(","));
    }
    text
}

fn round(v: f64, scale: f64) -> f64 {
    (v * scale).round() / scale
}

/// Reads a `cal=` text: (machine, fit, the models its runs measured; none in a link written
/// before the field existed).
pub fn parse_cal(text: &str) -> Result<(String, UserFit, Vec<String>), String> {
    let parts: Vec<&str> = text.trim().split('~').collect();
    let (machine, e, l, b, models) = match parts.as_slice() {
        [machine, e, l, b] => (machine, e, l, b, Vec::new()),
        [machine, e, l, b, m] => (
            machine,
            e,
            l,
            b,
            m.split(',').filter(|x| !x.is_empty()).map(str::to_string).collect(),
        ),
        _ => return Err("is not machine~efficiency~µs per layer~band[~models] (e.g. rtx-4090~0.87~38.5~0.06~llama-3.1-8b)".into()),
    };
    if models.len() > 64 || models.iter().any(|m| m.len() > 64) {
        return Err("names too many models".into());
    }
    let num = |s: &str, what: &str, lo: f64, hi: f64| {
        crate::text::decimal::parse(s.trim())
            .filter(|v| v.is_finite() && (lo..=hi).contains(v))
            .ok_or_else(|| format!("has {what} \"{s}\", not within {lo}–{hi}"))
    };
    if machine.is_empty() || machine.len() > 64 {
        return Err("names no machine".into());
    }
    Ok((
        machine.to_string(),
        UserFit {
            efficiency: num(e, "an efficiency", 0.01, 1.0)?,
            per_layer_s: num(l, "a cost per layer", 0.0, 100_000.0)? * 1e-6,
            band: num(b, "a band", MIN_BAND, MAX_BAND)?,
        },
        models,
    ))
}
