//! The tokbound command line: the same estimator and scenario codec as the web app.
//!
//! ```text
//! tokbound estimate 'hw=rtx-4090&model=qwen2.5-32b&quant=q4_k_m&ctx=4096'
//! tokbound estimate bw=1000 weights=19GB ctx=0
//! tokbound list machines|models|quants
//! tokbound accuracy
//! ```
//! Exit codes: 0 success, 2 bad input (one line per bad key on stderr).

use std::io::Write;
use std::process::ExitCode;

use tokbound::catalog::catalog;
use tokbound::scenario::Scenario;
use tokbound::views::Report;
use tokbound::{calibration, estimator};

const USAGE: &str = "usage: tokbound estimate '<query>'   (keys: docs/scenario.md)
       tokbound list machines|models|quants
       tokbound accuracy
       tokbound catalog
       tokbound keys";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("estimate") => estimate(&args[1..]),
        Some("list") => list(args.get(1).map(String::as_str)),
        Some("accuracy") => accuracy(),
        Some("keys") => keys(),
        Some("catalog") => catalog_json(),
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

fn estimate(args: &[String]) -> ExitCode {
    let query = args.join("&");
    let (scenario, issues, unknown) = Scenario::from_query_with_unknown(&query);
    if !issues.is_empty() || !unknown.names.is_empty() {
        for i in issues {
            eprintln!("{i}");
        }
        for line in unknown.lines() {
            eprintln!("{line}");
        }
        return ExitCode::from(2);
    }
    let cat = catalog();
    let inputs = match scenario.resolve(cat) {
        Ok(i) => i,
        Err(issues) => {
            for i in issues {
                eprintln!("{i}");
            }
            return ExitCode::from(2);
        }
    };
    let est = estimator::estimate(&inputs);
    let mut json = serde_json::to_value(Report::of(&est)).unwrap_or_default();
    if let Some(obj) = json.as_object_mut() {
        obj.insert("scenario".into(), scenario.to_query().into());
        obj.insert("machine".into(), inputs.machine.name.clone().into());
        let model = match &inputs.model {
            estimator::ModelSpec::Arch { name, .. } => name.clone(),
            estimator::ModelSpec::Custom { .. } => "custom model".into(),
        };
        obj.insert("model".into(), model.into());
    }
    print_json(&json)
}

fn list(what: Option<&str>) -> ExitCode {
    let cat = catalog();
    match what {
        Some("machines") => cat.machines.iter().for_each(|m| {
            outf(format_args!(
                "{:<24} {:>8.1} GB/s {:>6} GiB  {}",
                m.id, m.bandwidth_gbs, m.memory_gib, m.name
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
        _ => {
            eprintln!("list what? machines, models or quants");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
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
            "price_usd": m.price_usd,
            "price_source": m.price_source,
            "source": m.source,
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
    let mut errs: Vec<f64> = calibration::leave_one_machine_out(&points).into_iter().map(|e| e.1).collect();
    errs.sort_by(f64::total_cmp);
    let above = points.iter().filter(|p| p.measured_tok_s > p.ceiling_tok_s).count();
    outf(format_args!("rows: {}", points.len()));
    outf(format_args!(
        "leave-one-machine-out |ln(expected/measured)|: median {:.3}, p90 {:.3}, max {:.3}",
        calibration::quantile(&errs, 0.5),
        calibration::quantile(&errs, 0.9),
        errs.last().copied().unwrap_or(0.0)
    ));
    outf(format_args!("measured above ceiling: {above} of {}", points.len()));
    for (class, c, band) in &tokbound::catalog::calibration().classes {
        outf(format_args!(
            "{:<14} overhead {:.2} ms, weight efficiency {:.2}, KV efficiency {:.2}, band ×{:.2}–×{:.2}",
            class.label(),
            c.overhead_s * 1e3,
            1.0 / c.weight,
            1.0 / c.kv.max(1e-9),
            band.0,
            band.1
        ));
    }
    ExitCode::SUCCESS
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
