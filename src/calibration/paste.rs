//! Reading what a runtime printed about its own runs: the forms people have at hand.
//!
//! Accepted pastes (anything else is an error that names the forms accepted, [`NOT_A_RUN`]):
//! - llama-bench's markdown table (`| model | size | params | backend | … | test | t/s |`), with the
//!   device lines it prints before it, and its `-o json` (an array of runs), `-o jsonl` (one run a
//!   line) and `-o csv` (a header, then one run a line);
//! - llama-server's timing lines, in the older layout (a `slot print_timing: id 0 | task 0 |` line,
//!   then `prompt eval time = …` and `eval time = …` on lines of their own) and the current one
//!   (every line carrying that prefix); the depth is the slot's `n_past` / `n_tokens` where the
//!   log says it (when the prompt cache is used, the prompt line counts only the tokens processed
//!   anew), else the prompt's tokens;
//! - llama-cli's `llama_perf_context_print` lines (`eval time = … ms / N runs (…)`), and the older
//!   `llama_print_timings`;
//! - `ollama run --verbose` statistics (`prompt eval count`, `eval count`, `eval rate: … tokens/s`);
//! - llama-sweep-bench and llama-batched-bench tables (`| PP | TG | B | N_KV | … | S_TG t/s |`),
//!   with the `main: n_kv_max = …, flash_attn = 1, n_gpu_layers = …` line they print first.
//!
//! Every setting a run states is kept twice: as tokbound reads it ([`PastedRun`]'s fields) and as
//! the run names it ([`PastedRun::raw`]). Log lines state some for timing lines too (`offloaded
//! 20/33 layers to GPU`, `flash_attn = 0`, `K (q8_0)`, `n_threads = 8`). Pastes over
//! [`MAX_PASTE`] bytes are refused.

use serde_json::Value;

/// The largest paste read, in bytes.
pub const MAX_PASTE: usize = 1 << 20;
/// The most rows read from one paste.
const MAX_ROWS: usize = 2000;

/// What a paste that is none of the accepted forms is told: the forms, by the program's name.
pub const NOT_A_RUN: &str = "not llama-bench output (its table, or -o json / -o jsonl / -o csv), llama-server timing lines, llama-cli's llama_perf_context_print lines, ollama run --verbose statistics, or a llama-sweep-bench / llama-batched-bench table";

/// One measured figure from a paste.
#[derive(Clone, Debug, PartialEq, Default)]
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
    /// Tokens per second; for a batch of several sequences, over all of them.
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
    /// Sequences decoded together (llama-batched-bench's `B`), where more than one.
    pub batch: Option<u32>,
    /// The build (`8cf427ff (5163)`), where printed.
    pub build: Option<String>,
    /// The settings as the run names them (`n_gpu_layers` → `16`), in the order read.
    pub raw: Vec<(String, String)>,
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
        let batch = self.batch.map(|b| format!(" × {b}")).unwrap_or_default();
        format!(
            "{}{test}{depth}{batch}",
            self.model.as_ref().map(|m| format!("{m} ")).unwrap_or_default()
        )
    }

    /// Records a stated setting as the run names it.
    fn stated(&mut self, name: &str, value: impl ToString) {
        let value = value.to_string();
        if !value.is_empty() && !self.raw.iter().any(|(n, _)| n == name) {
            self.raw.push((name.to_string(), value));
        }
    }

    /// The settings a log's own lines state, where the run's line did not state them.
    fn take_log(&mut self, log: &LogSettings) {
        if self.fa.is_none() {
            self.fa = log.fa;
        }
        if self.ngl.is_none() {
            self.ngl = log.ngl;
        }
        if self.threads.is_none() {
            self.threads = log.threads;
        }
        if self.type_k.is_none() {
            self.type_k.clone_from(&log.type_k);
        }
        if self.type_v.is_none() {
            self.type_v.clone_from(&log.type_v);
        }
        if self.build.is_none() {
            self.build.clone_from(&log.build);
        }
        for (n, v) in &log.raw {
            self.stated(n, v);
        }
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

/// Reads a paste; the error says what was expected. Only generation runs are kept.
pub fn parse(text: &str) -> Result<Paste, String> {
    let mut paste = parse_all(text)?;
    paste.runs.retain(|r| r.generated.is_some());
    if paste.runs.is_empty() {
        return Err(format!("the {} held no generation figure", paste.form));
    }
    Ok(paste)
}

/// Reads a paste, prompt-processing rows kept (`generated` `None`).
pub fn parse_all(text: &str) -> Result<Paste, String> {
    if text.len() > MAX_PASTE {
        return Err(format!(
            "the paste is {:.1} MB; at most 1 MB is read (paste llama-bench's table or its -o json output)",
            text.len() as f64 / 1e6
        ));
    }
    let log = LogSettings::read(text);
    let trimmed = text.trim_start();
    let first_line = trimmed.lines().next().unwrap_or("");
    let table = |needle: &str| text.lines().any(|l| l.trim_start().starts_with('|') && l.contains(needle));
    let (mut runs, form) = if trimmed.starts_with('[') || trimmed.starts_with('{') {
        (json_runs(trimmed)?, "llama-bench JSON")
    } else if first_line.contains("avg_ts") && first_line.contains(',') {
        (csv_runs(trimmed)?, "llama-bench CSV")
    } else if table("S_TG t/s") {
        let (runs, batched) = sweep_runs(text);
        (
            runs,
            if batched {
                "llama-batched-bench table"
            } else {
                "llama-sweep-bench table"
            },
        )
    } else if table("t/s") {
        (markdown_runs(text)?, "llama-bench table")
    } else if text.contains("eval time") {
        let cli = text.contains("llama_perf_context_print") || text.contains("llama_print_timings");
        (timing_runs(text), if cli { "llama-cli timings" } else { "llama-server timings" })
    } else if text.contains("eval rate") {
        (ollama_runs(text), "ollama --verbose statistics")
    } else {
        return Err(NOT_A_RUN.into());
    };
    for r in &mut runs {
        r.take_log(&log);
    }
    if runs.is_empty() {
        return Err(format!("the {form} held no figure to read"));
    }
    Ok(Paste {
        runs,
        device: log.device,
        form,
    })
}

/// Settings a runtime's log lines state beside the figures, for every run of the paste.
#[derive(Default)]
struct LogSettings {
    device: Option<String>,
    fa: Option<bool>,
    ngl: Option<u32>,
    threads: Option<u32>,
    type_k: Option<String>,
    type_v: Option<String>,
    build: Option<String>,
    raw: Vec<(String, String)>,
}

impl LogSettings {
    fn read(text: &str) -> LogSettings {
        let mut s = LogSettings::default();
        for line in text.lines().take(MAX_ROWS * 4) {
            let l = line.trim();
            s.device = s.device.take().or_else(|| device_line(l));
            if let Some(v) = value_after(l, "flash_attn") {
                match v {
                    "1" | "on" | "true" | "enabled" => s.fa = Some(true),
                    "0" | "off" | "false" | "disabled" => s.fa = Some(false),
                    _ => {}
                }
                s.raw.push(("flash_attn".into(), v.into()));
            }
            if let Some(v) = value_after(l, "n_gpu_layers").and_then(|v| v.parse::<i64>().ok()) {
                // -1 (and llama-bench's 99) mean every layer.
                s.ngl = Some(if v < 0 { 999 } else { v as u32 });
                s.raw.push(("n_gpu_layers".into(), v.to_string()));
            }
            if let Some((n, of)) = l.split("offloaded ").nth(1).and_then(|r| r.split_once('/')) {
                if let (Some(n), true) = (first_number(n), of.contains("layers to GPU")) {
                    s.ngl = Some(n as u32);
                    s.raw
                        .push(("offloaded".into(), format!("{}/{}", n, first_number(of).unwrap_or(0.0))));
                }
            }
            if let Some(v) = value_after(l, "n_threads").and_then(|v| v.parse::<u32>().ok()) {
                s.threads = Some(v);
                s.raw.push(("n_threads".into(), v.to_string()));
            }
            for (mark, slot, name) in [("K (", &mut s.type_k, "type_k"), ("V (", &mut s.type_v, "type_v")] {
                if let Some(t) = l.split(mark).nth(1).and_then(|r| r.split_once("):")).map(|(t, _)| t.trim()) {
                    if !t.is_empty() && !t.contains(' ') && slot.is_none() {
                        *slot = Some(t.to_string());
                        s.raw.push((name.into(), t.into()));
                    }
                }
            }
            if let Some(b) = l.strip_prefix("build:").or_else(|| l.strip_prefix("version:")) {
                s.build = Some(b.trim().to_string()).filter(|b| !b.is_empty());
            }
        }
        s
    }
}

/// The value after `key =` in a log line (`flash_attn = 1,` → `1`), where the line has one.
fn value_after<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let at = line.find(key)?;
    let before = line[..at].chars().next_back();
    if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let rest = line[at + key.len()..].trim_start().strip_prefix('=')?.trim_start();
    let end = rest.find(|c: char| c == ',' || c == '|' || c.is_whitespace()).unwrap_or(rest.len());
    Some(&rest[..end]).filter(|v| !v.is_empty())
}

/// `Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9` (CUDA, ROCm, SYCL), Vulkan's
/// `ggml_vulkan: 0 = NVIDIA GeForce RTX 4070 (NVIDIA) | uma: 0 | …` or Metal's `picking default
/// device: Apple M2 Ultra`.
fn device_line(l: &str) -> Option<String> {
    if let Some(rest) = l.split("Device 0:").nth(1) {
        return rest.split(',').next().map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
    }
    if let Some(rest) = l.split("ggml_vulkan: 0 =").nth(1) {
        let name = rest.split('|').next().unwrap_or("");
        let name = name.split(" (").next().unwrap_or(name);
        return Some(name.trim().to_string()).filter(|s| !s.is_empty());
    }
    if let Some(rest) = l.split("picking default device:").nth(1) {
        return Some(rest.trim().to_string()).filter(|s| !s.is_empty());
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

/// A flash-attention cell: `1`, `on`, `true` or `0`, `off`, `false` (llama-bench's `-1`, auto,
/// states nothing).
fn flag(s: &str) -> Option<bool> {
    match s.trim() {
        "1" | "on" | "true" => Some(true),
        "0" | "off" | "false" => Some(false),
        _ => None,
    }
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

/// `tg128`, `pp512`, `tg 128`, `tg128 @ d4096`, `pp512+tg128`: (generated tokens, depth).
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

/// A llama-bench run from its named fields (a table's columns, a CSV's or JSON's keys): `get`
/// gives a field's text by its name.
fn bench_run(get: &dyn Fn(&str) -> Option<String>, generated: Option<f64>, depth: f64, tok_s: f64) -> PastedRun {
    let text = |k: &str| get(k).filter(|v| !v.is_empty() && v != "none");
    let mut run = PastedRun {
        model: text("model").or_else(|| text("model_type")),
        size_bytes: text("size")
            .and_then(|s| size_text(&s))
            .or_else(|| text("model_size").and_then(|s| crate::text::decimal::parse(&s))),
        params: text("params")
            .and_then(|s| params_text(&s))
            .or_else(|| text("model_n_params").and_then(|s| crate::text::decimal::parse(&s))),
        backend: text("backend").or_else(|| text("backends")),
        generated,
        depth,
        tok_s,
        ..PastedRun::default()
    };
    for name in ["ngl", "n_gpu_layers"] {
        if let Some(v) = text(name).and_then(|v| v.trim().parse::<i64>().ok()) {
            run.ngl = Some(if v < 0 { 999 } else { v as u32 });
            run.stated(name, v);
        }
    }
    for name in ["n_cpu_moe", "ncmoe"] {
        if let Some(v) = text(name).and_then(|v| whole(&v)) {
            run.n_cpu_moe = Some(v);
            run.stated(name, v);
        }
    }
    for name in ["ot", "tensor_buft_overrides"] {
        if let Some(v) = text(name) {
            run.stated(name, &v);
            run.override_tensor = Some(v);
        }
    }
    for name in ["threads", "n_threads"] {
        if let Some(v) = text(name).and_then(|v| whole(&v)) {
            run.threads = Some(v);
            run.stated(name, v);
        }
    }
    for name in ["fa", "flash_attn"] {
        if let Some(v) = text(name) {
            run.fa = flag(&v);
            run.stated(name, v);
        }
    }
    if let Some(v) = text("type_k") {
        run.stated("type_k", &v);
        run.type_k = Some(v);
    }
    if let Some(v) = text("type_v") {
        run.stated("type_v", &v);
        run.type_v = Some(v);
    }
    for name in ["n_batch", "n_ubatch"] {
        if let Some(v) = text(name) {
            run.stated(name, v);
        }
    }
    run.build = match (text("build_commit"), text("build_number")) {
        (Some(c), Some(n)) => Some(format!("{c} ({n})")),
        (c, n) => c.or(n),
    };
    run
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
        let get = |name: &str| h.iter().position(|c| c == name).and_then(|i| cells.get(i)).map(|c| c.to_string());
        let Some((generated, depth)) = get("test").and_then(|t| test_text(&t)) else {
            continue;
        };
        let Some(tok_s) = get("t/s").and_then(|t| first_number(&t)).filter(|v| *v > 0.0) else {
            continue;
        };
        runs.push(bench_run(&get, generated, depth, tok_s));
        if runs.len() >= MAX_ROWS {
            break;
        }
    }
    if header.is_none() {
        return Err("no llama-bench table header (| model | size | params | … | test | t/s |)".into());
    }
    Ok(runs)
}

/// A llama-bench run from one JSON object or one CSV row's fields by name; `None` for a combined
/// prompt + generation test.
fn object_run(get: &dyn Fn(&str) -> Option<String>) -> Option<PastedRun> {
    let num = |k: &str| get(k).and_then(|v| crate::text::decimal::parse(v.trim()));
    let generated = num("n_gen").filter(|n| *n > 0.0);
    let prompt = num("n_prompt").filter(|p| *p > 0.0);
    if generated.is_some() && prompt.is_some() {
        return None;
    }
    let tok_s = num("avg_ts").filter(|t| *t > 0.0 && t.is_finite())?;
    if generated.is_none() && prompt.is_none() {
        return None;
    }
    Some(bench_run(get, generated, num("n_depth").unwrap_or(0.0), tok_s))
}

/// A JSON value as the text a table cell would hold (`true` → `1`).
fn json_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(if *b { "1" } else { "0" }.into()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
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
    Ok(values
        .iter()
        .take(MAX_ROWS)
        .filter_map(|v| object_run(&|k: &str| v.get(k).and_then(json_text)))
        .collect())
}

/// One CSV line's fields: quoted (`"a","b"`, `""` an escaped quote) or bare.
fn csv_fields(line: &str) -> Vec<String> {
    let (mut fields, mut field) = (Vec::new(), String::new());
    let (mut quoted, mut chars) = (false, line.trim_end_matches('\r').chars().peekable());
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut field)),
            (c, _) => field.push(c),
        }
    }
    fields.push(field);
    fields
}

fn csv_runs(text: &str) -> Result<Vec<PastedRun>, String> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header = csv_fields(lines.next().unwrap_or(""));
    let mut runs = Vec::new();
    for (i, line) in lines.take(MAX_ROWS).enumerate() {
        let cells = csv_fields(line);
        if cells.len() != header.len() {
            return Err(format!(
                "line {}: {} fields where the header has {}",
                i + 2,
                cells.len(),
                header.len()
            ));
        }
        let get = |k: &str| header.iter().position(|h| h == k).map(|j| cells[j].clone());
        runs.extend(object_run(&get));
    }
    Ok(runs)
}

/// llama-sweep-bench (`| PP | TG | N_KV | T_PP s | S_PP t/s | T_TG s | S_TG t/s |`) and
/// llama-batched-bench (`| PP | TG | B | N_KV | … | S_TG t/s | T s | S t/s |`). A sweep row's
/// generation starts at `N_KV`; a batched row's at `PP` (its `N_KV` counts every sequence), and
/// its `S_TG` is over its `B` sequences.
fn sweep_runs(text: &str) -> (Vec<PastedRun>, bool) {
    let mut header: Option<Vec<String>> = None;
    let mut runs = Vec::new();
    for line in text.lines().take(MAX_ROWS * 2) {
        let l = line.trim();
        if !l.starts_with('|') {
            continue;
        }
        let cells: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
        if cells.contains(&"S_TG t/s") {
            header = Some(cells.iter().map(|c| c.to_string()).collect());
            continue;
        }
        let Some(h) = &header else { continue };
        let get = |name: &str| {
            h.iter()
                .position(|c| c == name)
                .and_then(|i| cells.get(i))
                .and_then(|c| first_number(c))
        };
        let (Some(pp), Some(tg), Some(tok_s)) = (get("PP"), get("TG"), get("S_TG t/s")) else {
            continue;
        };
        let batch = get("B").map(|b| b as u32);
        let depth = match batch {
            Some(_) => pp,
            None => get("N_KV").unwrap_or(0.0),
        };
        if tok_s > 0.0 && tg > 0.0 {
            let mut run = PastedRun {
                generated: Some(tg),
                depth,
                tok_s,
                batch: batch.filter(|b| *b > 1),
                ..PastedRun::default()
            };
            if let Some(b) = batch {
                run.stated("B", b);
            }
            runs.push(run);
        }
        if let Some(pp_s) = get("S_PP t/s").filter(|s| *s > 0.0) {
            runs.push(PastedRun {
                depth,
                tok_s: pp_s,
                ..PastedRun::default()
            });
        }
    }
    let batched = header.is_some_and(|h| h.iter().any(|c| c == "B"));
    (runs, batched)
}

/// What a llama-server log says of one task (llama-cli's lines name none): its slot's length
/// once the prompt was done and at its release (`n_past`, `n_tokens` in newer builds).
#[derive(Default)]
struct Task {
    id: Option<i64>,
    done: Option<f64>,
    end: Option<f64>,
}

/// The task a llama-server line names (`slot print_timing: id  0 | task 409 | …`).
fn task_id(line: &str) -> Option<i64> {
    let rest = line.split("| task ").nth(1)?;
    rest.split(|c: char| c == '|' || c.is_whitespace()).next()?.parse().ok()
}

/// llama-server and llama-cli: `prompt eval time = 245.20 ms / 512 tokens (…)` then
/// `eval time = 1234.56 ms / 128 tokens (…)` (llama-cli: `/ 127 runs`). The depth a generation
/// started at is its slot's length at release less what it generated, else the slot's length
/// when its prompt was done, else the prompt's tokens: the release line comes before the timing
/// lines in older builds and after them in newer ones, so they are matched by task.
fn timing_runs(text: &str) -> Vec<PastedRun> {
    let mut runs = Vec::new();
    let mut tasks: Vec<Task> = Vec::new();
    // Each generation with its task and the prompt tokens before it.
    let mut generations: Vec<(Option<i64>, PastedRun, f64)> = Vec::new();
    let (mut current, mut prompt) = (None, 0.0);
    let slot_length = |line: &str| {
        value_after(line, "n_past")
            .or_else(|| value_after(line, "n_tokens"))
            .and_then(first_number)
    };
    for line in text.lines().take(MAX_ROWS * 8) {
        if let Some(t) = task_id(line) {
            current = Some(t);
        }
        let task = |tasks: &mut Vec<Task>| {
            if !tasks.iter().any(|t| t.id == current) {
                tasks.push(Task {
                    id: current,
                    ..Task::default()
                });
            }
            tasks.iter().position(|t| t.id == current).unwrap_or(0)
        };
        if line.contains("stop processing") {
            let i = task(&mut tasks);
            tasks[i].end = slot_length(line);
            continue;
        }
        if line.contains("prompt done") {
            let i = task(&mut tasks);
            tasks[i].done = slot_length(line);
            continue;
        }
        let Some((before, after)) = line.split_once("eval time") else {
            continue;
        };
        let Some((ms, tokens)) = after.split_once('/') else { continue };
        let (Some(ms), Some(tokens)) = (first_number(ms), first_number(tokens)) else {
            continue;
        };
        if ms <= 0.0 || tokens <= 0.0 {
            continue;
        }
        let mut run = PastedRun {
            tok_s: tokens / (ms / 1000.0),
            ..PastedRun::default()
        };
        if before.trim_end().ends_with("prompt") {
            prompt = tokens;
            run.stated("prompt eval tokens", tokens);
            runs.push(run);
        } else {
            run.generated = Some(tokens);
            run.stated("eval tokens", tokens);
            generations.push((current, run, prompt));
            prompt = 0.0;
        }
    }
    for (id, mut run, prompt) in generations {
        let generated = run.generated.unwrap_or(0.0);
        let task = tasks.iter().find(|t| t.id == id);
        run.depth = match (task.and_then(|t| t.end), task.and_then(|t| t.done)) {
            (Some(end), _) if end >= generated => (end - generated).max(prompt),
            (_, Some(done)) => done,
            _ => prompt,
        };
        if prompt > 0.0 {
            run.stated("prompt eval tokens", prompt);
        }
        if run.depth != prompt {
            run.stated("slot depth", run.depth);
        }
        runs.push(run);
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
                let mut run = PastedRun {
                    generated: Some(count.unwrap_or(128.0)),
                    depth: prompt,
                    tok_s: rate,
                    ..PastedRun::default()
                };
                run.stated("prompt eval count", prompt);
                if let Some(c) = count {
                    run.stated("eval count", c);
                }
                runs.push(run);
            }
            (prompt, count) = (0.0, None);
        }
    }
    runs
}
