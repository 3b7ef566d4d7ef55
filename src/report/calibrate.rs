//! A user's own runs fitted to the machine they ran on: which catalog machine a paste's device
//! line names, which catalog model each run is, the rows the fit sees, and the fit itself with
//! each run before and after (the parsers and the fit are in [`crate::calibration::user`]).

use crate::calibration::user::{cal_text, first_number, fit, parse, FitRow, Paste, PastedRun, Residual, UserFit};
use crate::estimator::PassShape;

/// The catalog machine a runtime's device line names, or an error saying what is missing.
pub fn machine_for_device<'a>(device: &str, cat: &'a crate::catalog::Catalog) -> Result<&'a crate::catalog::Machine, String> {
    let found = cat.machines_named(device);
    match found.as_slice() {
        [one] => Ok(one),
        [] => Err(format!(
            "the device line names \"{}\", which is no catalog machine: give the machine (hw=… or bw=…)",
            crate::text::shorten(device)
        )),
        many => Err(format!(
            "the device line names \"{}\", which is one of {}: give the machine (hw=…)",
            crate::text::shorten(device),
            many.iter().map(|m| m.id.as_str()).collect::<Vec<_>>().join(", ")
        )),
    }
}

/// The catalog model a llama-bench row names: its parameter count within 3%, and its type's
/// first word (`llama`, `qwen3moe`, `gemma3`) the start of the model's family or id.
pub fn model_for_run<'a>(run: &PastedRun, cat: &'a crate::catalog::Catalog) -> Option<&'a crate::catalog::Model> {
    let params = run.params? / 1e9;
    let alnum = |s: &str| {
        s.to_ascii_lowercase()
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .collect::<String>()
    };
    let word = alnum(run.model.as_deref()?.split_whitespace().next()?);
    // Every trailing "moe" off, by suffix: `trim_end_matches` would bring a reverse substring
    // searcher into the page for this one call.
    let mut word = word.as_str();
    while let Some(w) = word.strip_suffix("moe") {
        word = w;
    }
    cat.models
        .iter()
        .filter(|m| (m.params_b / params - 1.0).abs() <= 0.03 || (m.arch.total_params() / 1e9 / params - 1.0).abs() <= 0.03)
        .filter(|m| alnum(&m.family).starts_with(word) || alnum(&m.id).starts_with(word))
        .min_by(|a, b| ((a.arch.total_params() / 1e9 - params).abs()).total_cmp(&(b.arch.total_params() / 1e9 - params).abs()))
}

/// A llama-bench type's active share (`qwen3moe 30B.A3B Q4_K - Medium` → 3 ÷ 30).
pub fn active_share(model: &str) -> Option<f64> {
    let (total, active) = model.split_whitespace().find_map(|w| w.split_once(".A"))?;
    let (t, a) = (first_number(total)?, first_number(active)?);
    (t > 0.0 && a > 0.0 && a <= t).then_some(a / t)
}

/// The fit's rows: each generation run's bytes and pass shape, from the catalog model it names,
/// else from its file, else (timing lines, ollama) from the scenario's model.
/// Why a run is not fitted to the machine's own memory: part of the model was in system RAM
/// (`ngl` below its layers, experts kept on the CPU) or none of it on the GPU. `layers` is the
/// model's layer count where known.
pub fn placement_reason(run: &PastedRun, layers: Option<u32>) -> Option<String> {
    if run.n_cpu_moe.is_some_and(|n| n > 0) {
        return Some(format!(
            "the first {} layers' experts in system RAM (n_cpu_moe)",
            run.n_cpu_moe.unwrap_or(0)
        ));
    }
    if run
        .override_tensor
        .as_deref()
        .is_some_and(|t| t.to_ascii_lowercase().contains("cpu"))
    {
        return Some(format!(
            "tensors kept on the CPU (-ot {})",
            run.override_tensor.as_deref().unwrap_or("")
        ));
    }
    let gpu = run.backend.as_deref().is_some_and(|b| !b.trim().eq_ignore_ascii_case("cpu"));
    match (run.ngl, layers) {
        (Some(0), _) if gpu => Some("no layer on the GPU (ngl 0)".into()),
        // llama.cpp counts the output layer as one more: -ngl below layers + 1 leaves some on the CPU.
        (Some(n), Some(l)) if n <= l && n > 0 => Some(format!(
            "{n} of {} layers on the GPU (counting the output layer), the rest in system RAM",
            l + 1
        )),
        _ => None,
    }
}

/// The bits of a KV cache type as llama-bench prints it (`f16`, `q8_0`), 16 where unknown.
fn kv_bits(cat: &crate::catalog::Catalog, run: &PastedRun) -> f64 {
    let bits = |t: &Option<String>| t.as_deref().and_then(|t| cat.kv_type(t).ok()).map_or(16.0, |q| q.bpw);
    (bits(&run.type_k) + bits(&run.type_v)) / 2.0
}

/// The rows a paste gives the fit, and what it leaves out.
pub struct FitRows {
    pub rows: Vec<FitRow>,
    /// Runs not fitted, each with why (`label: reason`).
    pub skipped: Vec<String>,
    /// The catalog models the fitted runs measured.
    pub models: Vec<String>,
}

/// The rows of `paste` that measure this machine's own memory: each generation run with the
/// bytes it read (at its KV cache's type) and its pass's shape; a run that kept part of the model
/// in system RAM is left out and listed, as it measures another pool.
pub fn rows_for(paste: &Paste, cat: &crate::catalog::Catalog, scenario: &crate::estimator::Inputs) -> FitRows {
    let mut out = FitRows {
        rows: Vec::new(),
        skipped: Vec::new(),
        models: Vec::new(),
    };
    for run in paste.runs.iter().filter(|r| r.generated.is_some()) {
        let context = run.context();
        let model = model_for_run(run, cat);
        let layers = match (model, run.params) {
            (Some(m), _) => Some(m.arch.layers),
            (None, Some(p)) => Some(PassShape::layers_from_params(p / 1e9) as u32),
            (None, None) => scenario.model.layers(),
        };
        if let Some(reason) = placement_reason(run, layers) {
            out.skipped.push(format!("{}: {reason}", run.label()));
            continue;
        }
        let (weight_bytes, kv_bytes, shape) = match (model, run.size_bytes) {
            (Some(m), Some(size)) => {
                let a = &m.arch;
                let kv = a.kv_bytes(context, kv_bits(cat, run));
                let shape = PassShape {
                    layers: f64::from(a.layers),
                    expert_matmuls: a.experts_touched(1.0) * a.moe_layers(),
                };
                (size * a.read_params_per_token() / a.total_params(), kv, shape)
            }
            (None, Some(size)) => {
                let share = run.model.as_deref().and_then(active_share).unwrap_or(1.0);
                let params_b = run.params.map_or(size * 2.0 / 1e9, |p| p / 1e9);
                let layers = PassShape::layers_from_params(params_b);
                let moe = share < 1.0;
                let shape = PassShape {
                    layers,
                    expert_matmuls: if moe { PassShape::ASSUMED_EXPERTS_PER_TOKEN * layers } else { 0.0 },
                };
                (size * share, 0.0, shape)
            }
            _ => (
                crate::estimator::estimate(scenario).bytes_per_token.weights,
                scenario.kv_bytes(context),
                scenario.pass_shape(),
            ),
        };
        if let Some(m) = model.filter(|m| !out.models.contains(&m.id)) {
            out.models.push(m.id.clone());
        }
        out.rows.push(FitRow {
            label: run.label(),
            weight_bytes,
            kv_bytes,
            shape,
            measured_tok_s: run.tok_s,
        });
    }
    out
}

/// A paste fitted to a machine: what the page and `tokbound calibrate` show.
#[derive(Clone, Debug)]
pub struct Calibrated {
    /// The scenario the fit was made for (the device line's machine set where none was named).
    pub scenario: crate::scenario::Scenario,
    pub form: &'static str,
    pub fit: UserFit,
    pub residuals: Vec<Residual>,
    /// The `cal=` text.
    pub cal: String,
    /// Which machine the fit is for and why: "fitted for RTX 4090, the machine chosen".
    pub basis: String,
    /// Runs read and not fitted, with why (part of the model in system RAM).
    pub skipped: Vec<String>,
}

/// What the page shows of a fit, as text: the machine the paste named (set where the link names
/// none), the `cal=` text, the status line, the fit's line, and each run (label, measured, before,
/// after). The parse worker hands a fit to the page in this form ([`Shown::to_parts`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    pub hw: Option<String>,
    pub cal: String,
    pub status: String,
    pub fit: String,
    pub rows: Vec<[String; 4]>,
}

impl Calibrated {
    pub fn shown(&self) -> Shown {
        use crate::text::units::fmt_tok_s;
        Shown {
            hw: self.scenario.text(crate::scenario::Key::Hw).map(str::to_string),
            cal: self.cal.clone(),
            status: format!(
                "{} row{} of {}, {}: cal={}{}",
                self.residuals.len(),
                if self.residuals.len() == 1 { "" } else { "s" },
                self.form,
                self.basis,
                self.cal,
                if self.skipped.is_empty() {
                    String::new()
                } else {
                    format!(". Not fitted, as they measure system RAM too: {}", self.skipped.join("; "))
                }
            ),
            fit: format!(
                "Weights stream at {:.0}% of peak, {:.1} µs per layer per token, band ±{:.0}%.",
                self.fit.efficiency * 100.0,
                self.fit.per_layer_s * 1e6,
                self.fit.band * 100.0
            ),
            rows: self
                .residuals
                .iter()
                .map(|r| {
                    [
                        r.label.clone(),
                        fmt_tok_s(r.measured_tok_s),
                        fmt_tok_s(r.before_tok_s),
                        fmt_tok_s(r.after_tok_s),
                    ]
                })
                .collect(),
        }
    }
}

impl Shown {
    /// As a flat list of strings: machine (empty for none), `cal`, status, fit, then four per run.
    pub fn to_parts(&self) -> Vec<String> {
        let head = [
            self.hw.clone().unwrap_or_default(),
            self.cal.clone(),
            self.status.clone(),
            self.fit.clone(),
        ];
        head.into_iter().chain(self.rows.iter().flat_map(|r| r.iter().cloned())).collect()
    }

    /// Back from [`Shown::to_parts`]; `None` for a list of another shape.
    pub fn from_parts(parts: &[String]) -> Option<Shown> {
        let (head, rows) = parts.split_at_checked(4)?;
        if rows.len() % 4 != 0 {
            return None;
        }
        Some(Shown {
            hw: Some(head[0].clone()).filter(|h| !h.is_empty()),
            cal: head[1].clone(),
            status: head[2].clone(),
            fit: head[3].clone(),
            rows: rows
                .chunks(4)
                .map(|r| [r[0].clone(), r[1].clone(), r[2].clone(), r[3].clone()])
                .collect(),
        })
    }
}

/// Reads `text` and fits it to a machine: the one the scenario names, or, where it names none,
/// the catalog machine the paste's device line names. A paste that names no device needs the
/// machine given (the command line says so); the page calls [`calibrate_on_screen`].
pub fn calibrate(text: &str, scenario: &crate::scenario::Scenario, cat: &crate::catalog::Catalog) -> Result<Calibrated, String> {
    fit_paste(text, scenario, cat, false)
}

/// [`calibrate`] for the page: a paste that names no device is fitted to the machine on screen
/// (the default machine when the link names none), and `basis` says so.
pub fn calibrate_on_screen(text: &str, scenario: &crate::scenario::Scenario, cat: &crate::catalog::Catalog) -> Result<Calibrated, String> {
    fit_paste(text, scenario, cat, true)
}

fn fit_paste(
    text: &str,
    scenario: &crate::scenario::Scenario,
    cat: &crate::catalog::Catalog,
    on_screen: bool,
) -> Result<Calibrated, String> {
    use crate::scenario::Key;
    let paste = parse(text)?;
    let mut s = scenario.clone();
    s.clear(Key::Cal);
    let mut from_paste = false;
    if !s.has(Key::Hw) && !s.has(Key::Bw) {
        match paste.device.as_deref() {
            Some(device) => {
                let m = machine_for_device(device, cat)?;
                s.put(Key::Hw, crate::scenario::Value::Text(m.id.clone()));
                from_paste = true;
            }
            None if on_screen => {}
            None => return Err("the paste names no device: give the machine (hw=… or bw=…)".into()),
        }
    }
    let inputs = s
        .resolve(cat)
        .map_err(|issues| issues.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))?;
    let FitRows { rows, skipped, models } = rows_for(&paste, cat, &inputs);
    if rows.is_empty() && !skipped.is_empty() {
        return Err(format!(
            "every run kept part of the model out of this machine's own memory, so none measures it: {}",
            skipped.join("; ")
        ));
    }
    let (fit, residuals) = fit(&rows, inputs.machine.bandwidth_gbs, &inputs.machine.time.own)?;
    let cal = cal_text(&s.machine_key(), &fit, &models);
    let name = crate::report::views::short_name(&inputs.machine.name);
    let basis = match paste.device.as_deref() {
        _ if from_paste => format!("fitted for {name}, the device your paste names"),
        Some(device) if !machine_for_device(device, cat).is_ok_and(|m| m.name == inputs.machine.name) => {
            format!(
                "fitted for {name}, the machine chosen (your paste names {}; choose that machine to fit it instead)",
                crate::text::shorten(device)
            )
        }
        _ => format!("fitted for {name}, the machine chosen"),
    };
    Ok(Calibrated {
        scenario: s,
        form: paste.form,
        fit,
        residuals,
        cal,
        basis,
        skipped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calibration::user::{parse_cal, MAX_PASTE, MIN_BAND, ONE_RUN_BAND};
    use crate::estimator::{Coefficients, GB};

    fn fixture(name: &str) -> String {
        std::fs::read_to_string(format!("{}/tests/fixtures/pastes/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    #[test]
    fn every_accepted_form_reads_its_generation_figures() {
        let table = parse(&fixture("llama-bench-4090.md")).unwrap();
        assert_eq!(table.form, "llama-bench table");
        assert_eq!(table.device.as_deref(), Some("NVIDIA GeForce RTX 4090"));
        assert_eq!(table.runs.len(), 3, "the pp512 row is left out");
        assert_eq!(
            (table.runs[1].depth, table.runs[1].tok_s, table.runs[1].fa),
            (8192.0, 138.52, Some(true))
        );
        assert!((table.runs[0].size_bytes.unwrap() - 4.33 * 1024f64.powi(3)).abs() < 1.0);
        assert_eq!(table.runs[2].params, Some(30.53e9));

        let jsonl = parse(&fixture("llama-bench.jsonl")).unwrap();
        assert_eq!(jsonl.runs.len(), 2);
        assert_eq!(jsonl.runs[1].context(), 8192.0 + 64.0);
        let json = parse(&format!("[{}]", fixture("llama-bench.jsonl").trim().replace('\n', ","))).unwrap();
        assert_eq!(json.runs, jsonl.runs);

        let server = parse(&fixture("llama-server.txt")).unwrap();
        assert_eq!(server.runs.len(), 1);
        assert!((server.runs[0].tok_s - 128.0 / 1.11271).abs() < 1e-6);
        assert_eq!(server.runs[0].depth, 512.0);

        let ollama = parse(&fixture("ollama.txt")).unwrap();
        assert_eq!(
            (ollama.runs[0].tok_s, ollama.runs[0].depth, ollama.runs[0].generated),
            (58.0, 26.0, Some(256.0))
        );
    }

    #[test]
    fn anything_else_is_refused_with_what_was_expected() {
        for text in ["", "hello", "| a | b |\n| 1 | 2 |", "[1, 2]", "{\"x\": 1}\n{"] {
            let e = parse(text).unwrap_err();
            assert!(!e.is_empty(), "{text:?}");
        }
        assert!(parse("hello").unwrap_err().starts_with("not llama-bench output"));
        let big = "x".repeat(MAX_PASTE + 1);
        assert!(parse(&big).unwrap_err().contains("at most 1 MB"));
    }

    #[test]
    fn a_cal_text_round_trips_and_bad_ones_are_refused() {
        let f = UserFit {
            efficiency: 0.871,
            per_layer_s: 38.5e-6,
            band: 0.06,
        };
        // A link written before the models field existed keeps working.
        let text = cal_text("rtx-4090", &f, &[]);
        assert_eq!(text, "rtx-4090~0.871~38.5~0.06");
        let (m, back, models) = parse_cal(&text).unwrap();
        assert_eq!(m, "rtx-4090");
        assert!(models.is_empty());
        assert!((back.efficiency - 0.871).abs() < 1e-12 && (back.per_layer_s - 38.5e-6).abs() < 1e-15);
        let with = cal_text("rtx-4090", &f, &["llama-3.1-8b".to_string(), "qwen3-8b".to_string()]);
        assert_eq!(with, "rtx-4090~0.871~38.5~0.06~llama-3.1-8b,qwen3-8b");
        assert_eq!(parse_cal(&with).unwrap().2, ["llama-3.1-8b", "qwen3-8b"]);
        for bad in ["rtx-4090", "rtx-4090~2~1~0.1", "rtx-4090~0.8~x~0.1", "~0.8~1~0.1", "a~0.8~1~0.01"] {
            assert!(parse_cal(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_fit_recovers_the_efficiency_and_per_layer_cost_that_made_the_figures() {
        let class = Coefficients {
            overhead_s: 0.0,
            per_layer_s: 40e-6,
            per_expert_s: 3e-6,
            weight: 1.25,
            kv: 1.1,
        };
        let truth = UserFit {
            efficiency: 0.9,
            per_layer_s: 25e-6,
            band: MIN_BAND,
        }
        .apply(&class);
        let bw = 1000.0;
        let rows: Vec<FitRow> = [(4e9, 0.0, 32.0), (8e9, 1e9, 32.0), (16e9, 0.0, 80.0)]
            .iter()
            .map(|&(w, k, layers)| {
                let shape = PassShape {
                    layers,
                    expert_matmuls: 0.0,
                };
                FitRow {
                    label: String::new(),
                    weight_bytes: w,
                    kv_bytes: k,
                    shape,
                    measured_tok_s: 1.0 / truth.seconds(&shape, w / (bw * GB), k / (bw * GB)),
                }
            })
            .collect();
        let (found, residuals) = fit(&rows, bw, &class).unwrap();
        assert!(
            (found.efficiency - 0.9).abs() < 1e-9 && (found.per_layer_s - 25e-6).abs() < 1e-12,
            "{found:?}"
        );
        // Exact figures, but three of them: the band is what three runs can claim.
        assert!((found.band - ONE_RUN_BAND / 3f64.sqrt()).abs() < 1e-12, "{}", found.band);
        assert!(residuals.iter().all(|r| (r.after_tok_s / r.measured_tok_s - 1.0).abs() < 1e-9));
        // One row: the efficiency alone, the class's per-layer cost kept, and ±30%.
        let (one, _) = fit(&rows[..1], bw, &class).unwrap();
        assert_eq!(one.per_layer_s, class.per_layer_s);
        assert!((one.band - ONE_RUN_BAND).abs() < 1e-12);
        // Ten runs of the same exactness: a band a third as wide.
        let ten: Vec<FitRow> = rows.iter().cycle().take(10).cloned().collect();
        let (ten, _) = fit(&ten, bw, &class).unwrap();
        assert!(ten.band < 0.1 && ten.band >= MIN_BAND, "{}", ten.band);
    }

    #[test]
    fn a_run_with_layers_in_system_ram_is_read_and_not_fitted() {
        let table = "| model | size | params | backend | ngl | type_k | type_v | test | t/s |\n\
                     | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n\
                     | llama 8B Q4_K - Medium | 4.58 GiB | 8.03 B | CUDA | 16 | q8_0 | q8_0 | tg128 | 40.12 ± 0.10 |\n\
                     | llama 8B Q4_K - Medium | 4.58 GiB | 8.03 B | CUDA | 99 | q8_0 | q8_0 | tg128 | 140.20 ± 0.30 |\n";
        let paste = parse(table).unwrap();
        assert_eq!(paste.runs[0].ngl, Some(16));
        assert_eq!(paste.runs[0].type_k.as_deref(), Some("q8_0"));
        let s = crate::scenario::Scenario::from_query("hw=rtx-4090&model=llama-3.1-8b").0;
        let c = calibrate(table, &s, crate::catalog::catalog()).unwrap();
        // Only the all-on-GPU run is fitted; the other is named with why.
        assert_eq!(c.residuals.len(), 1);
        assert!(c.skipped[0].contains("16 of 33 layers"), "{:?}", c.skipped);
        assert!(c.shown().status.contains("Not fitted"));
        assert!(c.cal.ends_with("~llama-3.1-8b"), "{}", c.cal);
        // Every run spilled: nothing measures the machine's own memory, and the error says why.
        let spilled = table.replace("| 99 |", "| 16 |");
        assert!(calibrate(&spilled, &s, crate::catalog::catalog())
            .unwrap_err()
            .contains("system RAM"));
    }

    #[test]
    fn a_calibration_of_another_model_has_twice_the_band() {
        let band = |q: &str| {
            let (s, issues) = crate::scenario::Scenario::from_query(q);
            assert!(issues.is_empty(), "{issues:?}");
            let e = crate::estimator::estimate(&s.resolve(crate::catalog::catalog()).unwrap());
            e.expected_high_tok_s / e.expected_tok_s - 1.0
        };
        let same = band("hw=rtx-4090&model=llama-3.1-8b&cal=rtx-4090~0.85~38~0.1~llama-3.1-8b");
        let other = band("hw=rtx-4090&model=qwen2.5-32b&cal=rtx-4090~0.85~38~0.1~llama-3.1-8b");
        let old = band("hw=rtx-4090&model=qwen2.5-32b&cal=rtx-4090~0.85~38~0.1");
        assert!(
            (same - 0.1).abs() < 1e-9 && (other - 0.2).abs() < 1e-9 && (old - 0.1).abs() < 1e-9,
            "{same} {other} {old}"
        );
    }

    #[test]
    fn a_fit_handed_over_as_text_comes_back_whole() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pastes/llama-bench-4090.md")).unwrap();
        let c = calibrate_on_screen(&text, &crate::scenario::Scenario::default(), crate::catalog::catalog()).unwrap();
        let shown = c.shown();
        assert_eq!(shown.rows.len(), c.residuals.len());
        assert!(shown.status.ends_with(&format!("cal={}", c.cal)), "{}", shown.status);
        assert_eq!(Shown::from_parts(&shown.to_parts()), Some(shown.clone()));
        let no_machine = Shown { hw: None, ..shown.clone() };
        assert_eq!(Shown::from_parts(&no_machine.to_parts()), Some(no_machine));
        let parts = shown.to_parts();
        assert_eq!(Shown::from_parts(&parts[..parts.len() - 1]), None);
        assert_eq!(Shown::from_parts(&parts[..3]), None);
    }
}
