//! The tokbound command line: the same estimator and scenario codec as the web app.
//!
//! ```text
//! tokbound estimate 'hw=rtx-4090&model=qwen2.5-32b&quant=q4_k_m&ctx=4096'
//! tokbound estimate bw=1000 weights=19GB ctx=0
//! tokbound models 'hw=m4-max-40c&ctx=8192'
//! tokbound machines 'model=qwen3-32b&quant=q4_k_m&target=30'
//! tokbound list machines|models|quants|cpus
//! tokbound accuracy
//! ```
//! Exit codes: 0 success, 2 bad input (one line per bad key on stderr).

#[cfg(not(target_arch = "wasm32"))]
mod measure;

use std::io::{Read, Write};
use std::process::ExitCode;

use tokbound::catalog::catalog;
use tokbound::report::views::Report;
use tokbound::scenario::Scenario;
use tokbound::{calibration, estimator};

const USAGE: &str = "usage: tokbound estimate '<query>' [--text]   (keys: docs/scenario.md; --text: a summary, not JSON)
       tokbound models '<query>'     (every model on the query's machine, best format that fits)
       tokbound levers '<query>' [--text]     (what would make it faster: each single change, its figure, ranked)
       tokbound machines '<query>' [--text]   (every machine for the query's model, fastest first; target= marks who meets it)
       tokbound list machines|models|quants|cpus
       tokbound accuracy
       tokbound fit   (the calibration fitted on data/measured.csv, as data/calibration.csv)
       tokbound measure   (this computer's memory read bandwidth, every core at once)
       tokbound catalog
       tokbound calibrate FILE ['<query>']   (llama-bench output, llama-server or ollama timings)
       tokbound diagnose '<query>' [--text] < run   (why a run of yours differs from the estimate: llama-bench, llama-server, llama-cli or ollama output on standard input)
       tokbound keys
       tokbound shell   (the page's frame with the default scenario's headline, as HTML: the build inlines it)
       tokbound shell long-tail   (the page's copy of the long tail of GPUs, which the build puts beside the page)
       tokbound shell cpus-long-tail   (the page's copy of the CPUs no machine names, likewise)";

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // `--text` may stand anywhere among the arguments.
    let text = args.iter().any(|a| a == "--text");
    args.retain(|a| a != "--text");
    match args.first().map(String::as_str) {
        Some("estimate") if text => estimate_text(&args[1..]),
        Some("estimate") => estimate(&args[1..]),
        Some("models") => models(&args[1..]),
        Some("machines") => machines(&args[1..], text),
        Some("levers") => levers(&args[1..], text),
        Some("list") => list(args.get(1).map(String::as_str)),
        Some("accuracy") => accuracy(),
        Some("fit") => fit(),
        Some("measure") => measure(),
        Some("keys") => keys(),
        Some("catalog") => catalog_json(),
        Some("calibrate") => calibrate(&args[1..]),
        // The page fetches this file only when it needs the long tail (docs/performance.md).
        Some("shell") if args.get(1).is_some_and(|a| a == "long-tail") => {
            print!("{}", include_str!(concat!(env!("OUT_DIR"), "/gpus-longtail.csv")));
            ExitCode::SUCCESS
        }
        Some("shell") if args.get(1).is_some_and(|a| a == "cpus-long-tail") => {
            print!("{}", include_str!(concat!(env!("OUT_DIR"), "/cpus-longtail.csv")));
            ExitCode::SUCCESS
        }
        Some("diagnose") => diagnose(&args[1..], text),
        Some("shell") => match tokbound::report::shell::html(catalog()) {
            Ok(html) => {
                out(&html);
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("shell: {e}");
                ExitCode::FAILURE
            }
        },
        Some("-h" | "--help" | "help") => {
            out(USAGE);
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// Measures this computer's memory read bandwidth as the page's probe does: every core reads its
/// own share of 256 MiB at once, 64 bytes a step, in five timed passes of 0.25 s; the best pass.
fn measure() -> ExitCode {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let figure = measure::measure(256 << 20, 5, std::time::Duration::from_millis(250));
        match serde_json::to_value(&figure) {
            Ok(v) => print_json(&v),
            Err(e) => {
                eprintln!("internal error: {e}");
                ExitCode::FAILURE
            }
        }
    }
    #[cfg(target_arch = "wasm32")]
    {
        eprintln!("measure runs natively only");
        ExitCode::FAILURE
    }
}

/// Prints the calibration fitted on the built-in measurements in data/calibration.csv's form
/// (`make calibration` writes it there).
fn fit() -> ExitCode {
    match tokbound::scenario::measured_ram::full_fit(catalog()) {
        Ok(cal) => {
            print!("{}", cal.to_csv());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

/// The scenario the arguments give (joined with `&`) and its inputs, or exit code 2 after one
/// line per bad or unknown key on stderr: every problem at once, those the link's text has and
/// those resolving it against the catalogs finds (`hw=zzz&bw=abc` names both keys).
fn scenario_arg(args: &[String]) -> Result<(Scenario, estimator::Inputs), ExitCode> {
    let (scenario, issues, unknown) = Scenario::from_query_with_unknown(&args.join("&"));
    let resolved = scenario.resolve(catalog());
    let mut lines: Vec<String> = issues.iter().map(ToString::to_string).collect();
    lines.extend(unknown.lines());
    if let Err(more) = &resolved {
        lines.extend(
            more.iter()
                .filter(|m| !issues.iter().any(|i| i.key == m.key))
                .map(ToString::to_string),
        );
    }
    match resolved {
        Ok(inputs) if lines.is_empty() => Ok((scenario, inputs)),
        _ => {
            lines.iter().for_each(|l| eprintln!("{l}"));
            Err(ExitCode::from(2))
        }
    }
}

/// Every catalog model on the scenario's machine at the best format that fits (docs/cli.md).
fn models(args: &[String]) -> ExitCode {
    let scenario = match scenario_arg(args) {
        Ok((s, _)) => s,
        Err(code) => return code,
    };
    let rows = tokbound::report::runnable::model_rows(&scenario, catalog());
    let backend = scenario.backend(catalog()).id();
    let json: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| {
            let fits = match r.held {
                tokbound::report::runnable::Held::Unknown => serde_json::Value::Null,
                held => (held != tokbound::report::runnable::Held::DoesNotFit).into(),
            };
            serde_json::json!({
                "id": r.id,
                "name": r.name,
                "quant": r.fitting_quant(),
                "ceiling_tok_s": r.ceiling,
                "expected_tok_s": r.expected,
                "memory_needed_bytes": r.memory_needed,
                "fits": fits,
                "experts_in_ram": r.held == tokbound::report::runnable::Held::ExpertsInRam,
                "backend": backend,
            })
        })
        .collect();
    print_json(&json.into())
}

/// Every catalog machine for the scenario's model, format and context, and whether each meets
/// its `target` (docs/cli.md).
fn machines(args: &[String], text: bool) -> ExitCode {
    let scenario = match scenario_arg(args) {
        Ok((s, _)) => s,
        Err(code) => return code,
    };
    let mut rows = tokbound::report::views::machine_rows(&scenario, catalog());
    // Fastest first.
    rows.sort_by(|a, b| b.expected.total_cmp(&a.expected));
    if text {
        for r in &rows {
            let fits = match r.fits {
                Some(true) => "fits",
                Some(false) => "does not fit",
                None => "fit unknown",
            };
            let meets = if r.meets == Some(true) { ", meets the target" } else { "" };
            outf(format_args!(
                "{}: expected {} tok/s (ceiling {} tok/s), {fits}{meets}",
                r.name,
                tokbound::text::units::fmt_tok_s(r.expected),
                tokbound::text::units::fmt_tok_s(r.ceiling),
            ));
        }
        return ExitCode::SUCCESS;
    }
    let json: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| {
            serde_json::json!({
                "id": r.id,
                "name": r.name,
                "ceiling_tok_s": r.ceiling,
                "expected_tok_s": r.expected,
                "fits": r.fits,
                "meets": r.meets,
                "price_usd": r.price_usd,
                "tokens_per_joule": r.tokens_per_joule,
                // The scenario's backend where the machine runs it, else the machine's own.
                "backend": catalog().machine(&r.id).map_or("", |m| {
                    scenario.backend_choice().filter(|b| m.allowed_backends().contains(b)).unwrap_or(m.default_backend()).id()
                }),
            })
        })
        .collect();
    print_json(&json.into())
}

/// What would make the scenario faster, one change at a time, ranked by gain (docs/cli.md).
fn levers(args: &[String], text: bool) -> ExitCode {
    let scenario = match scenario_arg(args) {
        Ok((s, _)) => s,
        Err(code) => return code,
    };
    let all = tokbound::report::levers::levers(&scenario, catalog());
    if text {
        for alternative in [false, true] {
            let part: Vec<_> = all.iter().filter(|l| l.alternative == alternative).collect();
            if alternative && !part.is_empty() {
                out("Alternatives that cost speed:");
            }
            for l in part {
                outf(format_args!(
                    "{}: {} tok/s (×{:.2}; {}) — {}; {}",
                    l.label,
                    tokbound::text::units::fmt_tok_s(l.expected_tok_s),
                    l.ratio,
                    l.change_text(),
                    l.cost,
                    l.note
                ));
            }
        }
        return ExitCode::SUCCESS;
    }
    let rows: Vec<serde_json::Value> = all
        .iter()
        .map(|l| {
            serde_json::json!({
                "change": l.change_text(),
                "label": l.label,
                "expected_tok_s": l.expected_tok_s,
                "figure": l.figure.id(),
                "ratio": l.ratio,
                "fits": l.fits,
                "cost": l.cost,
                "note": l.note,
                "alternative": l.alternative,
                "cost_per_mtok": l.cost_per_mtok,
            })
        })
        .collect();
    print_json(&serde_json::json!({ "levers": rows }))
}

fn estimate(args: &[String]) -> ExitCode {
    let (scenario, inputs) = match scenario_arg(args) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let cat = catalog();
    let est = estimator::estimate(&inputs);
    let mut json = serde_json::to_value(Report::of(&est)).unwrap_or_default();
    if let Some(obj) = json.as_object_mut() {
        obj.insert("scenario".into(), scenario.to_query().into());
        obj.insert("backend".into(), scenario.backend(cat).id().into());
        obj.insert("calibration_group".into(), scenario.calibration_group(cat).into());
        // Which catalog the machine is from: "curated", "long-tail", or null for a custom machine.
        obj.insert("catalog".into(), scenario.machine_catalog(cat).into());
        obj.insert(
            "engine".into(),
            scenario
                .text(tokbound::scenario::Key::Engine)
                .unwrap_or(tokbound::scenario::keys::ENGINES[0])
                .into(),
        );
        let c = tokbound::report::commands::commands(&scenario, cat, &inputs, &est);
        obj.insert(
            "commands".into(),
            serde_json::json!({ "run": c.run, "bench": c.bench, "note": c.note }),
        );
        // The CPU that reads system RAM, as the scenario resolved it (null where the GPU reads).
        let host = inputs.host.as_ref();
        obj.insert("cpu".into(), host.map(|h| h.id.clone()).into());
        obj.insert("threads".into(), host.map(|h| h.threads).into());
        obj.insert("sockets".into(), host.map(|h| h.sockets).into());
        let runs: Vec<serde_json::Value> = tokbound::report::views::provenance(&scenario, cat, 5)
            .into_iter()
            .map(|p| {
                serde_json::json!({
                    "hw": p.hw,
                    "model": p.model,
                    "quant": p.quant,
                    "backend": p.backend,
                    "context": p.context,
                    "tg_tok_s": p.tg_tok_s,
                    "url": p.url,
                    "relation": p.relation,
                })
            })
            .collect();
        obj.insert("measured_runs".into(), runs.into());
        obj.insert("machine".into(), inputs.machine.name.clone().into());
        let energy = tokbound::report::energy::energy(&scenario, cat, &inputs, &est);
        obj.insert("power_w".into(), energy.power.map(|p| p.0).into());
        obj.insert("power_source".into(), energy.power.map(|p| p.1.id()).into());
        obj.insert("power_parts".into(), energy.parts.clone().into());
        obj.insert("joules_per_token".into(), energy.joules_per_token.into());
        obj.insert("cost_per_mtok".into(), energy.cost_per_mtok.into());
        obj.insert("kwh_price".into(), energy.kwh_price.into());
        let model = match &inputs.model {
            estimator::ModelSpec::Arch { name, .. } => name.clone(),
            estimator::ModelSpec::Custom { .. } => "custom model".into(),
        };
        obj.insert("model".into(), model.into());
    }
    print_json(&json)
}

/// `estimate --text`: what the page's headline says, as plain lines.
fn estimate_text(args: &[String]) -> ExitCode {
    let (scenario, inputs) = match scenario_arg(args) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let cat = catalog();
    let e = estimator::estimate(&inputs);
    out(&tokbound::report::views::scenario_title(&inputs, &scenario, cat));
    outf(format_args!("Ceiling: {} tok/s", tokbound::text::units::fmt_tok_s(e.ceiling_tok_s)));
    outf(format_args!(
        "Expected: {} on {}, {}",
        tokbound::text::units::fmt_band(e.expected_tok_s, e.expected_low_tok_s, e.expected_high_tok_s),
        scenario.backend(cat).id(),
        scenario
            .text(tokbound::scenario::Key::Engine)
            .unwrap_or(tokbound::scenario::keys::ENGINES[0])
    ));
    // The CPU, where it reads weights.
    let cpu_reads = e.pools.iter().any(|p| p.weight_bytes > 0.0 && p.pool != estimator::Pool::Vram);
    if let (Some(h), true) = (&inputs.host, cpu_reads) {
        out(&tokbound::report::views::host_text(h));
    }
    outf(format_args!("Division: {}", tokbound::report::views::division(&e)));
    out(&tokbound::report::views::bound_text(&e));
    out(&tokbound::report::views::fit_text(&e));
    out(&tokbound::report::energy::energy(&scenario, cat, &inputs, &e).text(tokbound::report::naming::Naming::Keys));
    for n in &e.notes {
        outf(format_args!("Note: {}", tokbound::report::views::note_text(n)));
    }
    ExitCode::SUCCESS
}

fn list(what: Option<&str>) -> ExitCode {
    let cat = catalog();
    match what {
        // The curated machines, then the long tail of GPUs, each of those marked.
        Some("machines") => cat.every_machine().for_each(|m| {
            outf(format_args!(
                "{:<24} {:>8.1} GB/s {:>6} GiB  {}{}",
                m.id,
                m.bandwidth_gbs,
                m.memory_gib,
                m.name,
                if m.long_tail { "  [long tail]" } else { "" }
            ))
        }),
        Some("models") => cat
            .models
            .iter()
            .for_each(|m| outf(format_args!("{:<30} {:>8.2}B  {}", m.id, m.params_b, m.name))),
        Some("quants") => cat
            .quants
            .iter()
            .for_each(|q| outf(format_args!("{:<12} {:>6.2} bits  {}", q.id, q.bpw, q.name))),
        Some("cpus") => cat.cpus.iter().for_each(|c| {
            outf(format_args!(
                "{:<26} {:>3} cores {:>4.2} GHz  {:<12} {}",
                c.id,
                c.cores + c.efficiency_cores,
                c.base_ghz,
                c.family.id(),
                c.name
            ))
        }),
        _ => {
            eprintln!("list what? machines, models, quants or cpus");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}

/// Fits a user's own measurements to their machine and prints the fit, its residuals and the
/// `cal=` text (docs/cli.md).
fn calibrate(args: &[String]) -> ExitCode {
    let Some(path) = args.first() else {
        eprintln!("calibrate: give the file with llama-bench output (and the machine: 'hw=rtx-4090')");
        return ExitCode::from(2);
    };
    // At most one byte over the limit is read, from a file or (`-`) standard input.
    let limit = tokbound::calibration::user::MAX_PASTE as u64 + 1;
    let read = |r: &mut dyn std::io::Read| {
        let mut bytes = Vec::new();
        r.take(limit).read_to_end(&mut bytes).map(|_| bytes)
    };
    let bytes = if path == "-" {
        read(&mut std::io::stdin())
    } else {
        std::fs::File::open(path).and_then(|mut f| read(&mut f))
    };
    let text = match bytes {
        Ok(bytes) if bytes.len() as u64 >= limit => {
            eprintln!("{path}: larger than 1 MB; give llama-bench's table or its -o json output");
            return ExitCode::from(2);
        }
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let (scenario, issues, unknown) = Scenario::from_query_with_unknown(&args[1..].join("&"));
    if !issues.is_empty() || !unknown.names.is_empty() {
        issues.iter().for_each(|i| eprintln!("{i}"));
        unknown.lines().iter().for_each(|l| eprintln!("{l}"));
        return ExitCode::from(2);
    }
    let cat = catalog();
    let c = match tokbound::report::calibrate::calibrate(&text, &scenario, cat) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let mut with_cal = c.scenario.clone();
    let _ = with_cal.set(tokbound::scenario::Key::Cal, &c.cal);
    let json = serde_json::json!({
        "machine": c.scenario.machine_key(),
        "backend": c.scenario.backend(cat).id(),
        "form": c.form,
        "rows": c.residuals.len(),
        "efficiency": c.fit.efficiency,
        "per_layer_us": c.fit.per_layer_s * 1e6,
        "band": c.fit.band,
        "residuals": c.residuals.iter().map(|r| serde_json::json!({
            "run": r.label,
            "measured_tok_s": r.measured_tok_s,
            "before_tok_s": r.before_tok_s,
            "after_tok_s": r.after_tok_s,
        })).collect::<Vec<_>>(),
        "cal": c.cal,
        "basis": c.basis,
        "scenario": with_cal.to_query(),
    });
    print_json(&json)
}

/// `tokbound diagnose '<query>'`: the run on standard input set beside what tokbound expects of
/// it, with the causes of the difference and the run as a data row (JSON, or `--text`).
fn diagnose(args: &[String], text: bool) -> ExitCode {
    let limit = tokbound::calibration::paste::MAX_PASTE as u64 + 1;
    let mut bytes = Vec::new();
    if let Err(e) = std::io::stdin().take(limit).read_to_end(&mut bytes) {
        eprintln!("diagnose: standard input: {e}");
        return ExitCode::from(2);
    }
    if bytes.len() as u64 >= limit {
        eprintln!("diagnose: the run on standard input is larger than 1 MB");
        return ExitCode::from(2);
    }
    let (scenario, issues, unknown) = Scenario::from_query_with_unknown(&args.join("&"));
    if !issues.is_empty() || !unknown.names.is_empty() {
        issues.iter().for_each(|i| eprintln!("{i}"));
        unknown.lines().iter().for_each(|l| eprintln!("{l}"));
        return ExitCode::from(2);
    }
    let input = String::from_utf8_lossy(&bytes);
    let d = match tokbound::report::diagnose::diagnose(&input, &scenario, catalog(), false) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("diagnose: {e}");
            return ExitCode::from(2);
        }
    };
    if text {
        let mut out = std::io::stdout().lock();
        let _ = write!(out, "{}", tokbound::report::diagnose::text(&d));
        return ExitCode::SUCCESS;
    }
    match serde_json::to_value(&d) {
        Ok(v) => print_json(&v),
        Err(e) => {
            eprintln!("diagnose: {e}");
            ExitCode::from(1)
        }
    }
}

/// The three catalogs as one JSON object (docs/catalog.md).
fn catalog_json() -> ExitCode {
    let cat = catalog();
    let json = serde_json::json!({
        "machines": cat.machines.iter().map(|m| serde_json::json!({
            "id": m.id,
            "name": m.name,
            "kind": m.kind.id(),
            "memory_gib": m.memory_gib,
            "bandwidth_gbs": m.bandwidth_gbs,
            "fp16_tflops": m.fp16_tflops,
            "tflops_source": m.tflops_source,
            "backend": m.backend,
            "memory_type": m.memory_type,
            "memory_class": m.memory_class().label(),
            "price_usd": m.price(),
            "price_source": m.price_source,
            "cpu": m.cpu,
            "sockets": m.sockets,
            "source": m.source,
            "power_w": m.power(),
            "power_source": m.power_source,
        })).collect::<Vec<_>>(),
        "cpus": cat.cpus.iter().map(|c| serde_json::json!({
            "id": c.id,
            "name": c.name,
            "family": c.family.id(),
            "cores": c.cores,
            "efficiency_cores": c.efficiency_cores,
            "threads": c.threads,
            "base_ghz": c.base_ghz,
            "boost_ghz": c.boost_ghz,
            "simd": c.simd,
            "int8_ops_per_cycle": c.int8_ops_per_cycle,
            "f16_flops_per_cycle": c.f16_flops_per_cycle,
            "memory": c.memory,
            "channels": c.channels,
            "max_sockets": c.max_sockets,
            "source": c.source,
            "throughput_source": c.throughput_source,
            "tdp_w": c.tdp_w,
            "tdp_source": c.tdp_source,
        })).collect::<Vec<_>>(),
        "models": cat.models.iter().map(|m| serde_json::json!({
            "id": m.id,
            "name": m.name,
            "family": m.family,
            "params_b": m.params_b,
            "active_params_b": m.active_params_b,
            "arch_params_b": m.arch.total_params() / 1e9,
            "max_context": m.max_context,
            "layers": m.arch.layers,
            "kv_heads": m.arch.kv_heads,
            "head_dim": m.arch.head_dim,
            "source": m.source,
        })).collect::<Vec<_>>(),
        "quants": cat.quants.iter().map(|q| serde_json::json!({
            "id": q.id,
            "name": q.name,
            "bits_per_weight": q.bpw,
            "weights": q.weights,
            "kv": q.kv,
            "source": q.source,
        })).collect::<Vec<_>>(),
    });
    print_json(&json)
}

/// Every scenario key as docs/scenario.md tabulates it, group by group.
fn keys() -> ExitCode {
    // The docs lines exist in native builds only (the page does not carry them).
    #[cfg(not(target_arch = "wasm32"))]
    {
        use tokbound::scenario::keys::{Group, KEYS};
        for group in Group::ALL {
            outf(format_args!(
                "## {group:?}\n\n| key | meaning | unit | default |\n|---|---|---|---|"
            ));
            for k in KEYS.iter().filter(|k| k.group == group) {
                out(&k.docs_row());
            }
            out("");
        }
    }
    ExitCode::SUCCESS
}

fn accuracy() -> ExitCode {
    let points = match catalog().measured_points() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let summary = |errs: &mut Vec<f64>| {
        errs.sort_by(f64::total_cmp);
        (
            calibration::quantile(errs, 0.5),
            calibration::quantile(errs, 0.9),
            errs.last().copied().unwrap_or(0.0),
        )
    };
    let lomo = calibration::leave_one_out(&points, |p| p.machine.clone());
    let lobo = calibration::leave_one_out(&points, |p| p.backend.id().to_string());
    let (m, p90, max) = summary(&mut lomo.iter().map(|e| e.1).collect());
    let above = points.iter().filter(|p| p.measured_tok_s > p.ceiling_tok_s).count();
    let machines: std::collections::BTreeSet<&str> = points.iter().map(|p| p.machine.as_str()).collect();
    outf(format_args!(
        "rows: {} decode-only measurements on {} machines",
        points.len(),
        machines.len()
    ));
    outf(format_args!(
        "leave-one-machine-out |ln(expected/measured)|: median {m:.3}, p90 {p90:.3}, max {max:.3}"
    ));
    let (m, p90, max) = summary(&mut lobo.iter().map(|e| e.1).collect());
    outf(format_args!(
        "leave-one-backend-out |ln(expected/measured)|: median {m:.3}, p90 {p90:.3}, max {max:.3}"
    ));
    outf(format_args!("measured above ceiling: {above} of {}", points.len()));
    out("leave-one-machine-out by class and backend:");
    let groups: std::collections::BTreeSet<(calibration::Class, calibration::Backend)> =
        points.iter().map(|p| (p.class, p.backend)).collect();
    for (class, backend) in groups {
        let mut errs: Vec<f64> = lomo
            .iter()
            .filter(|(p, _)| p.class == class && p.backend == backend)
            .map(|e| e.1)
            .collect();
        let n = errs.len();
        let (m, p90, _) = summary(&mut errs);
        outf(format_args!(
            "  {:<18} {:<7} {n:>4} rows: median {m:.3}, p90 {p90:.3}",
            class.label(),
            backend.id()
        ));
    }
    ram_accuracy();
    out("fitted (class, backend): overhead, per layer, per expert matmul, weight / KV (flash attention) / KV (without) streaming efficiency, band");
    for ((class, backend), f) in &tokbound::catalog::calibration().groups {
        outf(format_args!(
            "  {:<18} {:<7} {:.2} ms, {:.1} µs, {:.2} µs, {:.2} / {:.2} / {:.2}, ×{:.2}–×{:.2} ({} rows)",
            class.label(),
            backend.id(),
            f.c[0] * 1e3,
            f.c[1] * 1e6,
            f.c[2] * 1e6,
            1.0 / f.c[3],
            1.0 / f.c[4],
            1.0 / f.c[5],
            f.band.0,
            f.band.1,
            f.rows
        ));
    }
    ExitCode::SUCCESS
}

/// One line per situation, per engine beside llama.cpp and per scored kind (mixed GPUs, batched),
/// each beginning with its label: `<label> N rows: median X, p90 Y (H hosts)`.
fn regime_lines(runs: &[tokbound::scenario::measured_ram::RamRun]) {
    use tokbound::scenario::measured_ram::{self, Situation};
    let line = |label: &str, errs: &mut Vec<f64>, hosts: usize| {
        errs.sort_by(f64::total_cmp);
        if errs.is_empty() {
            outf(format_args!("{label} 0 rows: no fitted run yet; the stated prior applies"));
        } else {
            outf(format_args!(
                "{label} {} rows: median {:.3}, p90 {:.3} ({hosts} hosts)",
                errs.len(),
                calibration::quantile(errs, 0.5),
                calibration::quantile(errs, 0.9),
            ));
        }
    };
    let hosts_of = |keep: &dyn Fn(&measured_ram::RamRun) -> bool| {
        runs.iter()
            .filter(|r| r.fitted && keep(r))
            .map(|r| r.host.as_str())
            .collect::<std::collections::BTreeSet<&str>>()
            .len()
    };
    for s in Situation::ALL {
        let mut errs: Vec<f64> = measured_ram::leave_one_host_out(runs, s).into_iter().map(|(_, e)| e).collect();
        line(s.label(), &mut errs, hosts_of(&|r| r.situation == s));
    }
    for engine in &tokbound::scenario::keys::ENGINES[1..] {
        let mut errs: Vec<f64> = Situation::ALL
            .iter()
            .flat_map(|s| measured_ram::leave_one_host_out(runs, *s))
            .filter(|(r, _)| r.engine == *engine)
            .map(|(_, e)| e)
            .collect();
        line(&format!("engine {engine}"), &mut errs, hosts_of(&|r| r.engine == *engine));
    }
    for kind in tokbound::scenario::scored::Kind::ALL {
        match tokbound::scenario::scored::runs(kind, catalog()) {
            Ok(scored) => {
                let hosts = scored
                    .iter()
                    .filter(|r| r.fitted)
                    .map(|r| r.host.as_str())
                    .collect::<std::collections::BTreeSet<_>>()
                    .len();
                let above = scored.iter().filter(|r| r.measured_tok_s > r.ceiling_tok_s * 1.0001).count();
                if kind == tokbound::scenario::scored::Kind::MixedGpus {
                    // One multiplier is fitted on the splits: each pair is held out of it.
                    let mut errs: Vec<f64> = tokbound::scenario::scored::leave_one_pair_out(&scored)
                        .iter()
                        .map(|(_, e)| *e)
                        .collect();
                    line(kind.label(), &mut errs, hosts);
                    let (f, n) = tokbound::catalog::calibration().split_fixed.unwrap_or((1.0, 0));
                    outf(format_args!(
                        "  {}: each pair held out of the split's fixed-cost multiplier (×{f:.2} fitted on {n} runs); measured above its ceiling: {above}",
                        kind.label()
                    ));
                    continue;
                }
                if kind == tokbound::scenario::scored::Kind::Batched {
                    batched_lines(&scored, hosts, above, &line);
                    continue;
                }
                let errors: Vec<(&tokbound::scenario::scored::ScoredRun, f64)> = scored.iter().map(|r| (r, r.error())).collect();
                let mut errs: Vec<f64> = errors.iter().filter(|(r, _)| r.fitted).map(|(_, e)| *e).collect();
                line(kind.label(), &mut errs, hosts);
                outf(format_args!(
                    "  {}: scored, not fitted; measured above its ceiling: {above}",
                    kind.label()
                ));
                kept_apart_line(kind.label(), &errors);
            }
            Err(e) => eprintln!("{}: {e}", kind.label()),
        }
    }
}

/// The batched line over the fitted runs of `hosts` hosts, each host held out of the batch's fit;
/// then the fit as shipped, and the runs kept apart, held out alike.
fn batched_lines(scored: &[tokbound::scenario::scored::ScoredRun], hosts: usize, above: usize, line: &dyn Fn(&str, &mut Vec<f64>, usize)) {
    let held = tokbound::scenario::scored::leave_one_host_out_batched(scored);
    let mut errs: Vec<f64> = held.iter().filter(|(r, _)| r.fitted).map(|(_, e)| *e).collect();
    line("batched", &mut errs, hosts);
    let fit = &tokbound::catalog::calibration().batch;
    let shares: Vec<String> = fit
        .shares
        .iter()
        .map(|(v, (s, n))| format!("{} {:.1}% ({n} runs)", v.label(), s * 100.0))
        .chain(fit.pooled.map(|(s, n)| format!("any other {:.1}% ({n} runs)", s * 100.0)))
        .collect();
    outf(format_args!(
        "  batched: each host held out of the batch's fit: arithmetic at a share of peak compute by vendor ({}); experts routed as n^{:.2} independent tokens; measured above its ceiling: {above}",
        if shares.is_empty() { "the peak".to_string() } else { shares.join(", ") },
        fit.routing_exponent()
    ));
    kept_apart_line("batched", &held);
}

/// The runs of a scored kind kept out of its line (`fitted` false: builds their own thread shows
/// slowed by a bug a later change fixed), scored alike on a line of their own.
fn kept_apart_line(label: &str, scored: &[(&tokbound::scenario::scored::ScoredRun, f64)]) {
    let mut apart: Vec<f64> = scored.iter().filter(|(r, _)| !r.fitted).map(|(_, e)| *e).collect();
    if !apart.is_empty() {
        apart.sort_by(f64::total_cmp);
        outf(format_args!(
            "  {label}, kept apart (builds their own thread shows slowed until a later fix) {} rows: median {:.3}, p90 {:.3}",
            apart.len(),
            calibration::quantile(&apart, 0.5),
            calibration::quantile(&apart, 0.9)
        ));
    }
}

/// A CPU machine's streaming rate per CPU family, its threads' meeting and its attention over the
/// context, as fitted.
fn cpu_machine_lines(cal: &tokbound::calibration::Calibration) {
    if !cal.cpu_stream.is_empty() {
        let families: Vec<String> = cal
            .cpu_stream
            .iter()
            .map(|(f, (m, n))| format!("{} {:.0}% ({n} runs)", f.id(), 100.0 / m))
            .collect();
        outf(format_args!(
            "  a CPU machine's own memory by CPU family (its CPU known): {}",
            families.join(", ")
        ));
    }
    match cal.cpu_sync {
        Some((s, n)) => outf(format_args!(
            "  a CPU machine's threads meeting: {:.1} µs per layer per doubling of threads ({n} runs)",
            s * 1e6
        )),
        None => out("  a CPU machine's threads meeting: not fitted (no cost)"),
    }
    let shares: Vec<String> = cal
        .cpu_attention
        .iter()
        .map(|(e, (a, n))| format!("{e} {:.1}% ({n} runs)", a * 100.0))
        .collect();
    outf(format_args!(
        "  the CPU's attention over the context reaches of its attention peak (the 16-bit rate of the square root of its busy cores): {}",
        if shares.is_empty() {
            format!("{:.0}% (prior)", tokbound::estimator::cpu::ATTENTION_PRIOR * 100.0)
        } else {
            shares.join(", ")
        }
    ));
}

/// One line per situation of data/measured-ram.csv: `CPU-only N rows: median X, p90 Y`, each run's
/// host held out of the fit it is scored on.
fn ram_accuracy() {
    use tokbound::scenario::measured_ram;
    let runs = match measured_ram::runs(catalog()) {
        Ok(r) => r,
        Err(e) => return eprintln!("data/measured-ram.csv: {e}"),
    };
    out("system RAM read by the CPU (data/measured-ram.csv), leave-one-host-out |ln(expected/measured)|:");
    regime_lines(&runs);
    let cal = tokbound::catalog::calibration();
    for (what, f) in [
        ("a CPU machine's own memory", cal.ram.cpu),
        ("system RAM beside a GPU", cal.ram.offload),
    ] {
        if let Some((m, n)) = f {
            outf(format_args!("  weights stream from {what} at {:.0}% of peak ({n} runs)", 100.0 / m));
        }
    }
    cpu_machine_lines(cal);
    for (engine, f) in &cal.ram_by_engine {
        let share = |f: Option<(f64, usize)>| {
            f.map_or("the fit over every engine".to_string(), |(m, n)| {
                format!("{:.0}% of peak ({n} runs)", 100.0 / m)
            })
        };
        outf(format_args!(
            "  {engine}'s own runs (two hosts or more): its CPU machine's memory {}; system RAM beside a GPU {}",
            share(f.cpu),
            share(f.offload)
        ));
    }
    let families: Vec<String> = tokbound::estimator::CpuFamily::ALL
        .into_iter()
        .map(|f| match cal.compute_efficiency(f) {
            (e, Some(n)) => format!("{} {:.0}% ({n} runs)", f.id(), e * 100.0),
            (e, None) => format!("{} {:.0}% (prior)", f.id(), e * 100.0),
        })
        .collect();
    outf(format_args!("  the CPU's arithmetic reaches of its peak: {}", families.join(", ")));
    match cal.numa_remote() {
        (r, Some(n)) => outf(format_args!(
            "  spanning sockets: the other sockets' share streams at {:.0}% of the first's ({n} runs)",
            r * 100.0
        )),
        (r, None) => outf(format_args!(
            "  spanning sockets: the other sockets' share streams at {:.0}% of the first's (prior)",
            r * 100.0
        )),
    }
    // The runs kept out of the fit, scored against it for what they show.
    let mut hosts: Vec<&str> = Vec::new();
    for r in runs.iter().filter(|r| !r.fitted) {
        if !hosts.contains(&r.host.as_str()) {
            hosts.push(&r.host);
        }
    }
    let mut sides: Vec<(&str, measured_ram::RamSide)> = Vec::new();
    for r in runs.iter().filter(|r| !r.fitted) {
        if !sides.iter().any(|(e, _)| *e == r.engine) {
            sides.push((r.engine.as_str(), measured_ram::side_for(&runs, &r.engine)));
        }
    }
    let side_of = |engine: &str| sides.iter().find(|(e, _)| *e == engine).map(|(_, s)| s);
    for h in hosts {
        let mut errs: Vec<f64> = runs
            .iter()
            .filter(|r| !r.fitted && r.host == h)
            .filter_map(|r| side_of(&r.engine).map(|s| (r.predict(s) / r.tg_tok_s).ln().abs()))
            .collect();
        errs.sort_by(f64::total_cmp);
        outf(format_args!(
            "  not fitted, {h}: {} rows, median {:.3} (scored, not fitted: data/measured-ram.csv says why)",
            errs.len(),
            calibration::quantile(&errs, 0.5)
        ));
    }
}

/// Prints a JSON value, pretty.
fn print_json(json: &serde_json::Value) -> ExitCode {
    match serde_json::to_string_pretty(json) {
        Ok(s) => {
            out(&s);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("internal error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Writes a line to stdout; a closed pipe (`tokbound … | head`) ends quietly instead of panicking.
fn out(text: &str) {
    outf(format_args!("{text}"));
}

fn outf(args: std::fmt::Arguments) {
    let mut stdout = std::io::stdout().lock();
    if stdout.write_fmt(args).and_then(|_| stdout.write_all(b"\n")).is_err() {
        std::process::exit(0);
    }
}
