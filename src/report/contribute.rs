//! A diagnosed run given back: a line in the project's own data format, and, where the build
//! names the project's repository (`TOKBOUND_REPO=owner/name` at build time), a link that opens a
//! prefilled issue there (nothing is sent by tokbound itself).
//!
//! A run with everything in the machine's own memory is a line of data/measured.csv; one with
//! layers or experts in system RAM is a line of data/measured-ram.csv (its `situation`, `host`
//! and `query`), so a spilled run never reads as an all-VRAM one. Both are new rows, not fitted
//! until someone adds the run's public link and checks its memory configuration.

use crate::calibration::paste::PastedRun;
use crate::estimator::{Estimate, Inputs, Kind, Pool};
use crate::scenario::{Key, Scenario};

/// The repository the build names, if any (`TOKBOUND_REPO` at build time).
pub const REPO: Option<&str> = option_env!("TOKBOUND_REPO");

/// The columns of data/measured.csv, in order.
pub const MEASURED_COLUMNS: &str =
    "hw,model,quant,context,tg_tok_s,pp_tok_s,backend,fa,build,date,url,model_size_gib,params_printed,method,source";
/// The columns of data/measured-ram.csv, in order.
pub const MEASURED_RAM_COLUMNS: &str = "situation,host,query,tg_tok_s,engine,url,source,fitted,why_not_fitted";

/// What a row's `url` holds until its author adds the run's public link.
const NO_URL: &str = "add the link where this run is posted";

/// One CSV field, quoted where it holds a comma, a quote or a line break.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// A figure to two decimals, without trailing zeros.
fn num(v: f64) -> String {
    let t = format!("{v:.2}");
    t.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The run as a data row and the file it belongs to: `measured-ram.csv` where any weight is read
/// from system RAM beside a GPU, else `measured.csv`.
pub fn row(run: &PastedRun, form: &str, s: &Scenario, inputs: &Inputs, e: &Estimate) -> (String, &'static str) {
    let cat = crate::catalog::catalog();
    let spilled = inputs.machine.kind == Kind::Gpu && e.pools.iter().skip(1).any(|p| p.pool == Pool::SystemRam && p.weight_bytes > 0.0);
    let settings: Vec<String> = run.raw.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let source = format!(
        "tokbound diagnose of {form}: {}{}",
        run.label(),
        if settings.is_empty() {
            String::new()
        } else {
            format!("; {}", settings.join("; "))
        }
    );
    let engine = s.text(Key::Engine).unwrap_or("llama.cpp");
    if spilled {
        let situation = if s.has(Key::CpuMoe) || s.has(Key::Offload) {
            "experts-in-ram"
        } else {
            "layers-in-ram"
        };
        let cpu = inputs.host.as_ref().map_or("unknown-cpu", |h| h.id.as_str());
        let host = format!("{cpu}-{}", s.machine_key());
        let line = [
            situation.to_string(),
            field(&host),
            field(&s.to_query_with_defaults()),
            num(run.tok_s),
            field(engine),
            field(NO_URL),
            field(&source),
            "false".into(),
            field("diagnosed from a paste: the host's memory configuration is not established"),
        ];
        return (line.join(","), "measured-ram.csv");
    }
    let (model, quant) = super::views::model_and_quant(s);
    let method = if form.starts_with("llama-bench") || form.contains("sweep") || form.contains("batched") {
        "llama-bench"
    } else {
        "server"
    };
    let line = [
        field(&s.machine_key()),
        field(model.unwrap_or("custom")),
        field(quant.unwrap_or("custom")),
        num(run.context().round()),
        num(run.tok_s),
        String::new(),
        s.backend(cat).id().to_string(),
        run.fa.map_or(String::new(), |f| if f { "1" } else { "0" }.into()),
        field(run.build.as_deref().unwrap_or("")),
        String::new(),
        field(NO_URL),
        run.size_bytes.map_or(String::new(), |b| num(b / crate::estimator::GIB)),
        run.params.map_or(String::new(), |p| num(p / 1e9)),
        method.to_string(),
        field(&source),
    ];
    (line.join(","), "measured.csv")
}

/// The link that opens a prefilled issue with the row on the build's repository; `None` where the
/// build names none.
pub fn issue_link(repo: Option<&str>, label: &str, row: &str, row_file: &str, scenario: &str) -> Option<String> {
    let repo = repo.filter(|r| !r.is_empty())?;
    let title = format!("Measured run: {label}");
    let body = format!(
        "A run diagnosed by tokbound, as a line of data/{row_file}:\n\n```\n{row}\n```\n\nScenario: `{scenario}`\n\nLink to where the run is posted: \n"
    );
    Some(format!(
        "https://github.com/{repo}/issues/new?title={}&body={}",
        crate::scenario::encode(&title),
        crate::scenario::encode(&body)
    ))
}
