//! Diagnosing a user's own run: each cause appears on a run that states its setting (or whose
//! scenario shows it) and not on one that does not, with the figure the estimator gives the
//! changed scenario; a run within its band whose settings cost nothing has none; every row reads
//! back through the loader of its data file; the CLI's contract.

use std::process::{Command, Stdio};

use tokbound::catalog::catalog;
use tokbound::estimator::estimate;
use tokbound::report::contribute::{issue_link, MEASURED_COLUMNS, MEASURED_RAM_COLUMNS};
use tokbound::report::diagnose::{change_keys, diagnose, Diagnosis, RunDiagnosis, Verdict};
use tokbound::report::levers::apply;
use tokbound::scenario::Scenario;

const HEAD: &str = "| model | size | params | backend | ngl | n_cpu_moe | threads | fa | type_k | type_v | test | t/s |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";

/// A llama-bench table of one row: model type, size, params, backend, ngl, n_cpu_moe, threads, fa,
/// type_k, test, t/s.
fn table(rows: &[&str]) -> String {
    format!("{HEAD}{}\n", rows.join("\n"))
}

const LLAMA: &str = "llama 8B Q4_K - Medium | 4.58 GiB | 8.03 B";

fn run_of(paste: &str, query: &str) -> RunDiagnosis {
    let d = diagnose(paste, &Scenario::from_query(query).0, catalog(), false).unwrap();
    assert_eq!(d.runs.len(), 1, "{d:?}");
    d.runs.into_iter().next().unwrap()
}

fn cause<'a>(r: &'a RunDiagnosis, id: &str) -> Option<&'a tokbound::report::diagnose::Cause> {
    r.causes.iter().find(|c| c.id == id)
}

/// The expected figure of the run's scenario with `change` applied.
fn expected_after(r: &RunDiagnosis, change: &str) -> f64 {
    // The page's levers apply a change so; a cause's is the same change.
    let s = Scenario::from_query(&r.scenario).0;
    let next = apply(&s, &change_keys(change).unwrap()).unwrap();
    estimate(&next.resolve(catalog()).unwrap()).expected_tok_s
}

#[test]
fn layers_left_in_system_ram_cost_what_the_all_layers_scenario_gains() {
    let spilled = run_of(
        &table(&[&format!(
            "| {LLAMA} | CUDA | 16 | 0 | 16 | 1 | q8_0 | q8_0 | tg128 @ d4096 | 20.00 ± 0.1 |"
        )]),
        "hw=rtx-4090",
    );
    // 16 of 32 repeating layers, the output head (a fifteenth of the bytes read) on the CPU.
    assert_eq!(spilled.read("gpu_frac").unwrap(), "0.465", "16 of 32 repeating layers");
    let c = cause(&spilled, "layers-in-ram").expect("the spill cause");
    assert_eq!(c.change, "gpu_frac=");
    // The all-layers scenario at the run's depth: the same table with -ngl 99.
    let whole = run_of(
        &table(&[&format!(
            "| {LLAMA} | CUDA | 99 | 0 | 16 | 1 | q8_0 | q8_0 | tg128 @ d4096 | 20.00 ± 0.1 |"
        )]),
        "hw=rtx-4090",
    );
    assert!(
        (c.expected_tok_s - whole.expected_tok_s).abs() < 1e-9,
        "{} vs {}",
        c.expected_tok_s,
        whole.expected_tok_s
    );
    assert!((c.expected_tok_s - expected_after(&spilled, &c.change)).abs() < 1e-9);
    assert_eq!(spilled.row_file, "measured-ram.csv");
    assert!(cause(&whole, "layers-in-ram").is_none());
    assert_eq!(whole.row_file, "measured.csv");
}

#[test]
fn flash_attention_off_at_depth_is_a_cause_only_where_the_run_says_so() {
    let off = run_of(
        &table(&[&format!(
            "| {LLAMA} | CUDA | 99 | 0 | 16 | 0 | f16 | f16 | tg128 @ d16384 | 60.00 ± 0.1 |"
        )]),
        "hw=rtx-4090",
    );
    assert_eq!(off.verdict, Verdict::Slower);
    assert_eq!(off.read("fa").unwrap(), "off");
    let c = cause(&off, "flash-attention").expect("flash attention");
    assert_eq!(c.change, "fa=on");
    assert!((c.expected_tok_s - expected_after(&off, "fa=on")).abs() < 1e-9);
    assert!(c.expected_tok_s > off.expected_high_tok_s);
    // The same run with flash attention on, or not stated: no such cause.
    let on = run_of(
        &table(&[&format!(
            "| {LLAMA} | CUDA | 99 | 0 | 16 | 1 | f16 | f16 | tg128 @ d16384 | 60.00 ± 0.1 |"
        )]),
        "hw=rtx-4090",
    );
    assert!(cause(&on, "flash-attention").is_none());
    let unstated = run_of(
        &table(&[&format!(
            "| {LLAMA} | CUDA | 99 | 0 | 16 |  | f16 | f16 | tg128 @ d16384 | 60.00 ± 0.1 |"
        )]),
        "hw=rtx-4090",
    );
    assert!(cause(&unstated, "flash-attention").is_none());
    assert!(
        unstated.assumed.iter().any(|a| a.starts_with("flash attention: on")),
        "{:?}",
        unstated.assumed
    );
}

#[test]
fn a_run_within_its_band_whose_settings_cost_nothing_has_no_cause() {
    let probe = run_of(
        &table(&[&format!(
            "| {LLAMA} | CUDA | 99 | 0 | 16 | 1 | q8_0 | q8_0 | tg128 | 100.00 ± 0.1 |"
        )]),
        "hw=rtx-4090",
    );
    let at = format!("{:.2}", probe.expected_tok_s);
    let r = run_of(
        &table(&[&format!("| {LLAMA} | CUDA | 99 | 0 | 16 | 1 | q8_0 | q8_0 | tg128 | {at} ± 0.1 |")]),
        "hw=rtx-4090",
    );
    assert_eq!(r.verdict, Verdict::Within);
    assert!(r.causes.is_empty(), "{:?}", r.causes);
    assert!(r.summary.contains("within"));
}

#[test]
fn an_f16_cache_at_depth_where_q8_0_fits() {
    let f16 = run_of(
        &table(&[&format!(
            "| {LLAMA} | CUDA | 99 | 0 | 16 | 1 | f16 | f16 | tg128 @ d32768 | 50.00 ± 0.1 |"
        )]),
        "hw=rtx-4090",
    );
    let c = cause(&f16, "kv-f16").expect("the KV cause");
    assert_eq!(c.change, "kv=q8_0");
    assert!((c.expected_tok_s - expected_after(&f16, "kv=q8_0")).abs() < 1e-9);
    let q8 = run_of(
        &table(&[&format!(
            "| {LLAMA} | CUDA | 99 | 0 | 16 | 1 | q8_0 | q8_0 | tg128 @ d32768 | 50.00 ± 0.1 |"
        )]),
        "hw=rtx-4090",
    );
    assert!(cause(&q8, "kv-f16").is_none());
}

#[test]
fn experts_in_system_ram_that_would_fit_in_vram() {
    let moe = "qwen3moe 30B.A3B Q4_K - Medium | 17.28 GiB | 30.53 B";
    let r = run_of(
        &table(&[&format!("| {moe} | CUDA | 99 | 30 | 16 | 1 | q8_0 | q8_0 | tg128 | 40.00 ± 0.1 |")]),
        "hw=rtx-4090",
    );
    assert_eq!(r.read("cpu_moe").unwrap(), "30");
    let c = cause(&r, "experts-in-ram").expect("the experts cause");
    assert_eq!(c.change, "cpu_moe=&offload=");
    assert!((c.expected_tok_s - expected_after(&r, &c.change)).abs() < 1e-9);
    assert_eq!(r.row_file, "measured-ram.csv");
    assert!(r.row.starts_with("experts-in-ram,"), "{}", r.row);
    // On a card too small for every expert, keeping them in RAM is no cause.
    let small = run_of(
        &table(&[&format!("| {moe} | CUDA | 99 | 30 | 16 | 1 | q8_0 | q8_0 | tg128 | 40.00 ± 0.1 |")]),
        "hw=rtx-4060",
    );
    assert!(cause(&small, "experts-in-ram").is_none(), "{:?}", small.causes);
}

#[test]
fn weights_read_from_disk_point_to_a_format_that_fits() {
    let big = "| model | size | params | backend | ngl | test | t/s |\n| --- | --- | --- | --- | --- | --- | --- |\n| llama 70B Q8_0 | 69.82 GiB | 70.55 B | CUDA | 20 | tg128 | 0.05 ± 0.01 |\n";
    let r = run_of(big, "hw=rtx-4090&ram=32");
    let c = cause(&r, "disk").expect("the disk cause");
    assert!(c.change.starts_with("quant="), "{}", c.change);
    assert!((c.expected_tok_s - expected_after(&r, &c.change)).abs() < 1e-9);
    // With the RAM to hold it, nothing is read from disk.
    let roomy = run_of(big, "hw=rtx-4090&ram=128");
    assert!(cause(&roomy, "disk").is_none(), "{:?}", roomy.causes);
}

#[test]
fn a_model_no_catalog_has_is_read_by_its_size_and_the_closest_named() {
    let paste = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/pastes/llama-bench-vulkan-fa0.md"
    ))
    .unwrap();
    let d = diagnose(&paste, &Scenario::from_query("hw=rx-7900-xtx").0, catalog(), false).unwrap();
    assert_eq!(d.runs.len(), 2, "the two pp rows are read, not diagnosed");
    let r = &d.runs[1];
    assert_eq!((r.read("weights"), r.read("params")), (Some("2.300GiB"), Some("3.43")));
    assert!(r.assumed.iter().any(|a| a.contains("closest by parameters")), "{:?}", r.assumed);
}

#[test]
fn threads_below_what_the_cpu_needs_on_a_cpu_machine() {
    let few = run_of(
        &table(&[&format!("| {LLAMA} | CPU | 0 | 0 | 1 | 1 | q8_0 | q8_0 | tg128 | 3.00 ± 0.1 |")]),
        "hw=ddr5-6000-2ch&cpu=ryzen-9-7950x",
    );
    let c = cause(&few, "threads").expect("the threads cause");
    assert_eq!(c.change, "threads=");
    assert!((c.expected_tok_s - expected_after(&few, "threads=")).abs() < 1e-9);
    // A run that does not state its threads has none.
    let unstated = run_of(
        "| model | size | params | backend | test | t/s |\n| --- | --- | --- | --- | --- | --- |\n| llama 8B Q4_K - Medium | 4.58 GiB | 8.03 B | CPU | tg128 | 3.00 ± 0.1 |\n",
        "hw=ddr5-6000-2ch&cpu=ryzen-9-7950x",
    );
    assert!(cause(&unstated, "threads").is_none());
}

#[test]
fn timing_lines_take_the_model_from_the_query_and_say_so() {
    let server = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/pastes/llama-server-current.txt"
    ))
    .unwrap();
    let r = run_of(&server, "hw=rtx-3090&model=qwen3-32b&quant=q4_k_m");
    assert_eq!(r.read("ctx").unwrap(), format!("{}", (110744.0 - 784.0 + 392.0f64).round()));
    assert!(r.assumed.iter().any(|a| a.starts_with("model: qwen3-32b")), "{:?}", r.assumed);
    // Nothing the run states places the model: no placement cause, whatever the gap.
    assert!(cause(&r, "layers-in-ram").is_none() && cause(&r, "flash-attention").is_none());
    assert_eq!(r.raw("prompt eval tokens").unwrap(), "4113");
}

#[test]
fn every_row_reads_back_through_its_data_file_loader() {
    let text = table(&[
        &format!("| {LLAMA} | CUDA | 99 | 0 | 16 | 1 | q8_0 | q8_0 | tg128 @ d512 | 120.00 ± 0.1 |"),
        &format!("| {LLAMA} | CUDA | 16 | 0 | 16 | 1 | q8_0 | q8_0 | tg128 | 20.00 ± 0.1 |"),
        "| qwen3moe 30B.A3B Q4_K - Medium | 17.28 GiB | 30.53 B | CUDA | 99 | 30 | 16 | 1 | q8_0 | q8_0 | tg128 | 40.00 ± 0.1 |",
    ]);
    let d: Diagnosis = diagnose(&text, &Scenario::from_query("hw=rtx-4090").0, catalog(), false).unwrap();
    for r in &d.runs {
        match r.row_file.as_str() {
            "measured.csv" => {
                let rows = tokbound::catalog::read_measurements(&format!("{MEASURED_COLUMNS}\n{}\n", r.row)).unwrap();
                let m = &rows[0];
                assert_eq!(
                    (m.hw.as_str(), m.model.as_str(), m.quant.as_str()),
                    ("rtx-4090", "llama-3.1-8b", "q4_k_m")
                );
                assert_eq!(
                    (m.context, m.tg_tok_s, m.fa, m.backend.as_str()),
                    (576.0, 120.0, Some(true), "cuda")
                );
                assert!(m.is_decode_only());
                // The loaded row estimates as the diagnosis did.
                let p = catalog().point(m).unwrap();
                assert!(p.ceiling_tok_s > 0.0);
            }
            "measured-ram.csv" => {
                let runs = tokbound::scenario::measured_ram::runs_from(&format!("{MEASURED_RAM_COLUMNS}\n{}\n", r.row), catalog()).unwrap();
                assert_eq!(runs[0].query, r.scenario);
                assert_eq!(runs[0].tg_tok_s, r.measured_tok_s);
                assert!(!runs[0].fitted);
            }
            other => panic!("{other}"),
        }
    }
    assert_eq!(d.runs.iter().filter(|r| r.row_file == "measured-ram.csv").count(), 2);
}

#[test]
fn a_diagnosis_handed_to_the_page_as_text_comes_back_whole() {
    let text = table(&[
        &format!("| {LLAMA} | CUDA | 16 | 0 | 16 | 0 | f16 | f16 | tg128 @ d16384 | 5.00 ± 0.1 |"),
        &format!("| {LLAMA} | CUDA | 99 | 0 | 16 | 1 | q8_0 | q8_0 | tg128 | 120.00 ± 0.1 |"),
    ]);
    let d = diagnose(&text, &Scenario::from_query("hw=rtx-4090").0, catalog(), true).unwrap();
    assert!(d.runs[0].causes.len() >= 2 && !d.runs[0].assumed.is_empty());
    let parts = d.to_parts();
    assert_eq!(Diagnosis::from_parts(&parts), Some(d));
    assert_eq!(Diagnosis::from_parts(&parts[..parts.len() - 1]), None);
    assert_eq!(Diagnosis::from_parts(&parts[..5]), None);
}

#[test]
fn the_prefilled_issue_needs_a_repository() {
    assert_eq!(issue_link(None, "x", "a,b", "measured.csv", "v=1"), None);
    assert_eq!(issue_link(Some(""), "x", "a,b", "measured.csv", "v=1"), None);
    let link = issue_link(
        Some("someone/tokbound"),
        "llama 8B tg128",
        "rtx-4090,llama-3.1-8b",
        "measured.csv",
        "v=1&hw=rtx-4090",
    )
    .unwrap();
    assert!(
        link.starts_with("https://github.com/someone/tokbound/issues/new?title=Measured%20run%3A%20llama%208B%20tg128&body="),
        "{link}"
    );
    assert!(link.contains("rtx-4090%2Cllama-3.1-8b"));
}

fn cli(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tokbound"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), stdin.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_cli_prints_every_field_and_its_causes_apply_to_the_scenario() {
    let paste = table(&[&format!(
        "| {LLAMA} | CUDA | 16 | 0 | 16 | 0 | f16 | f16 | tg128 @ d16384 | 5.00 ± 0.1 |"
    )]);
    let (code, out, err) = cli(&["diagnose", "hw=rtx-4090"], &paste);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let run = &v["runs"][0];
    for key in [
        "scenario",
        "measured_tok_s",
        "expected_tok_s",
        "expected_low_tok_s",
        "expected_high_tok_s",
        "ceiling_tok_s",
        "share_of_ceiling",
        "verdict",
        "read",
        "raw",
        "assumed",
        "causes",
        "row",
        "row_file",
    ] {
        assert!(!run[key].is_null(), "{key}: {run}");
    }
    assert_eq!(run["verdict"], "slower");
    assert_eq!(run["raw"]["ngl"], "16");
    assert_eq!(run["read"]["gpu_frac"], "0.465");
    let causes = run["causes"].as_array().unwrap();
    assert!(causes.len() >= 2, "{causes:?}");
    let r = run_of(&paste, "hw=rtx-4090");
    assert_eq!(r.causes.len(), causes.len());
    for (c, j) in r.causes.iter().zip(causes) {
        for key in ["id", "label", "evidence", "expected_tok_s", "change"] {
            assert!(!j[key].is_null(), "{key}");
        }
        assert_eq!(
            (j["id"].as_str(), j["change"].as_str()),
            (Some(c.id.as_str()), Some(c.change.as_str()))
        );
        // serde_json reads a number back within a unit in the last place (without its
        // float_roundtrip feature), not always bit for bit.
        let printed = j["expected_tok_s"].as_f64().unwrap();
        assert!((printed / c.expected_tok_s - 1.0).abs() < 1e-12, "{printed} {}", c.expected_tok_s);
        assert!((c.expected_tok_s - expected_after(&r, &c.change)).abs() < 1e-9, "{}", c.id);
    }
    let (code, text, _) = cli(&["diagnose", "hw=rtx-4090", "--text"], &paste);
    assert_eq!(code, 0);
    assert!(
        text.contains("slower than") && text.contains("cause: layers left in system RAM"),
        "{text}"
    );
    assert!(text.contains("row for data/measured-ram.csv"));
    // The figures line is the one the page shows.
    assert!(text.contains(&r.figures()) && r.figures().ends_with("% of the ceiling"), "{text}");
}

#[test]
fn the_cli_refuses_what_is_no_run_and_names_the_forms() {
    let (code, out, err) = cli(&["diagnose", "hw=rtx-4090"], "hello, this is not a benchmark\n");
    assert_eq!(code, 2);
    assert!(out.is_empty());
    for name in ["llama-bench", "llama-server", "llama-cli", "ollama"] {
        assert!(err.contains(name), "{name}: {err}");
    }
    let (code, _, err) = cli(
        &["diagnose", "hw=nope"],
        &table(&[&format!("| {LLAMA} | CUDA | 99 | 0 | 16 | 1 | f16 | f16 | tg128 | 20 |")]),
    );
    assert_eq!(code, 2);
    assert!(err.contains("hw"), "{err}");
    // A paste that names no device and a query that names no machine.
    let server = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pastes/llama-server-old.txt")).unwrap();
    let (code, _, err) = cli(&["diagnose", "model=llama-3.1-8b"], &server);
    assert_eq!(code, 2);
    assert!(err.contains("give the machine"), "{err}");
}

/// A one-row llama-bench table of Llama 3.1 8B Q4_K_M at `tok_s` on `backend`, with the build
/// line `build` (none where empty).
fn bench_with_build(backend: &str, tok_s: f64, build: &str) -> String {
    let mut t = format!(
        "| model | size | params | backend | ngl | test | t/s |\n| --- | --- | --- | --- | --- | --- | --- |\n| {LLAMA} | {backend} | 99 | tg128 | {tok_s:.2} ± 0.10 |\n"
    );
    if !build.is_empty() {
        t.push_str(&format!("\nbuild: 1234abcd ({build})\n"));
    }
    t
}

/// The run of `query` at `share` of what tokbound expects of it.
fn run_at_share(query: &str, backend: &str, share: f64, build: &str) -> RunDiagnosis {
    let probe = run_of(&bench_with_build(backend, 50.0, build), query);
    run_of(&bench_with_build(backend, probe.expected_tok_s * share, build), query)
}

#[test]
fn an_old_build_where_the_machines_runs_on_newer_builds_read_faster() {
    use tokbound::report::peers::peers;
    let old = run_at_share("hw=strix-halo-395", "ROCm", 0.5, "6000");
    assert_eq!(old.verdict, Verdict::Slower);
    let c = cause(&old, "old-build").expect("the old-build cause");
    // The fix changes nothing tokbound models: the run's own expected figure, its own scenario.
    assert_eq!(c.change, "");
    assert!((c.expected_tok_s - old.expected_tok_s).abs() < 1e-9);
    let newer: Vec<u32> = peers("strix-halo-395", "rocm", catalog())
        .iter()
        .filter_map(|p| p.build.filter(|b| *b > 6000))
        .collect();
    assert!(newer.len() >= 2, "the data holds newer builds of this machine");
    let span = format!("builds {}–{}", newer.iter().min().unwrap(), newer.iter().max().unwrap());
    assert!(c.evidence.contains("build 6000") && c.evidence.contains(&span), "{}", c.evidence);
    // A build newer than every measured one, no build at all, a run within its band, or a
    // machine whose runs name no build numbers: no such cause.
    assert!(cause(&run_at_share("hw=strix-halo-395", "ROCm", 0.5, "99999"), "old-build").is_none());
    assert!(cause(&run_at_share("hw=strix-halo-395", "ROCm", 0.5, ""), "old-build").is_none());
    assert!(cause(&run_at_share("hw=strix-halo-395", "ROCm", 1.0, "6000"), "old-build").is_none());
    assert!(cause(&run_at_share("hw=rtx-4060-laptop", "CUDA", 0.5, "6000"), "old-build").is_none());
}

#[test]
fn a_laptop_or_power_limited_part_where_its_own_runs_read_as_slow() {
    use tokbound::report::peers::{peers, power_limited};
    let cat = catalog();
    // A SoC whose package power is configurable, and a laptop GPU, each with measured runs below
    // the band.
    for (hw, backend, printed, what) in [
        ("strix-halo-395", "rocm", "ROCm", "power mode"),
        ("rtx-3080-ti-laptop", "cuda", "CUDA", "laptop GPU"),
    ] {
        let slow = run_at_share(&format!("hw={hw}"), printed, 0.4, "");
        let c = cause(&slow, "power-limited").unwrap_or_else(|| panic!("{hw}: {:?}", slow.causes));
        assert!(c.evidence.contains(what), "{}", c.evidence);
        assert_eq!(c.change, "");
        assert!((c.expected_tok_s - slow.expected_tok_s).abs() < 1e-9);
        let low = slow.expected_low_tok_s / slow.expected_tok_s;
        assert!(
            peers(hw, backend, cat).iter().any(|p| p.ratio < low),
            "{hw}: the evidence is in the data"
        );
        // Within its band: nothing to explain.
        assert!(cause(&run_at_share(&format!("hw={hw}"), printed, 1.0, ""), "power-limited").is_none());
    }
    // A desktop card is no power-limited part, however slow the run.
    assert!(!power_limited(cat.machine("rtx-4090").unwrap()));
    assert!(cause(&run_at_share("hw=rtx-4090", "CUDA", 0.4, ""), "power-limited").is_none());
    // A laptop GPU whose own measured runs all read within or above the band: the runs do not
    // say so.
    let laptop = run_at_share("hw=rtx-4060-laptop", "CUDA", 0.4, "");
    let low = laptop.expected_low_tok_s / laptop.expected_tok_s;
    assert!(peers("rtx-4060-laptop", "cuda", cat).iter().all(|p| p.ratio >= low));
    assert!(cause(&laptop, "power-limited").is_none(), "{:?}", laptop.causes);
}

#[test]
fn the_cli_names_the_causes_the_measured_runs_point_to() {
    let probe = run_of(&bench_with_build("ROCm", 50.0, "6000"), "hw=strix-halo-395");
    let (code, out, err) = cli(
        &["diagnose", "hw=strix-halo-395"],
        &bench_with_build("ROCm", probe.expected_tok_s * 0.4, "6000"),
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let ids: Vec<&str> = v["runs"][0]["causes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"old-build") && ids.contains(&"power-limited"), "{ids:?}");
    let (_, text, _) = cli(
        &["diagnose", "hw=strix-halo-395", "--text"],
        &bench_with_build("ROCm", probe.expected_tok_s * 0.4, "6000"),
    );
    assert!(
        text.contains("an old llama.cpp build") && text.contains("(the run's own scenario)"),
        "{text}"
    );
}
