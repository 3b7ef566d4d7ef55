//! Every accepted paste form, read from real runs (tests/fixtures/pastes/SOURCES.md names where
//! each comes from): the figures, the depth and every setting the run states.

use tokbound::calibration::paste::{parse, parse_all, NOT_A_RUN};

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/fixtures/pastes/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn raw(run: &tokbound::calibration::paste::PastedRun, name: &str) -> Option<String> {
    run.raw.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone())
}

#[test]
fn llama_bench_csv_and_jsonl_read_the_same_run() {
    let csv = parse(&fixture("llama-bench-4080.csv")).unwrap();
    assert_eq!(csv.form, "llama-bench CSV");
    assert_eq!(csv.runs.len(), 1, "the pp512 row is read, not diagnosed");
    let r = &csv.runs[0];
    assert_eq!((r.generated, r.depth, r.tok_s), (Some(128.0), 0.0, 119.915244));
    assert_eq!(r.model.as_deref(), Some("qwen2 7B Q4_K - Medium"));
    assert_eq!((r.size_bytes, r.params), (Some(4677120000.0), Some(7615616512.0)));
    assert_eq!(
        (r.threads, r.type_k.as_deref(), r.type_v.as_deref()),
        (Some(8), Some("f16"), Some("f16"))
    );
    // -1 is every layer; flash attention -1 is auto, which states nothing.
    assert_eq!((r.ngl, r.fa), (Some(999), None));
    assert_eq!(r.build.as_deref(), Some("8cf427ff (5163)"));
    assert_eq!(raw(r, "n_gpu_layers").as_deref(), Some("-1"));
    assert_eq!(raw(r, "n_batch").as_deref(), Some("2048"));
    assert_eq!(parse_all(&fixture("llama-bench-4080.csv")).unwrap().runs.len(), 2);

    let jsonl = parse(&fixture("llama-bench-4080.jsonl")).unwrap();
    assert_eq!(jsonl.form, "llama-bench JSON");
    let j = &jsonl.runs[0];
    assert_eq!(
        (j.tok_s, j.threads, j.ngl, j.size_bytes),
        (118.881588, Some(8), Some(999), Some(4677120000.0))
    );
    assert_eq!(raw(j, "n_gpu_layers"), raw(r, "n_gpu_layers"));
}

#[test]
fn llama_bench_tables_state_their_placement_and_flash_attention() {
    let ngl = parse(&fixture("llama-bench-ngl.md")).unwrap();
    assert_eq!(ngl.runs.iter().map(|r| r.ngl).collect::<Vec<_>>(), [Some(10), Some(20), Some(35)]);
    assert_eq!(ngl.runs[0].tok_s, 13.45);
    let vulkan = parse(&fixture("llama-bench-vulkan-fa0.md")).unwrap();
    assert_eq!(vulkan.device.as_deref(), Some("AMD Radeon R9 200 Series"));
    let deep = &vulkan.runs[1];
    assert_eq!((deep.depth, deep.tok_s, deep.fa), (5000.0, 9.09, Some(false)));
    assert_eq!(deep.backend.as_deref(), Some("Vulkan"));
    assert_eq!(raw(deep, "fa").as_deref(), Some("0"));
}

#[test]
fn llama_server_depth_comes_from_the_slot_in_both_layouts() {
    // Older layout: the release line comes before the timings; 325 in the slot less 275 made.
    let old = parse(&fixture("llama-server-old.txt")).unwrap();
    assert_eq!(old.form, "llama-server timings");
    let r = &old.runs[0];
    assert!((r.tok_s - 275.0 / 23.03887).abs() < 1e-6);
    assert_eq!((r.generated, r.depth), (Some(275.0), 51.0));
    let n_tokens = parse(&fixture("llama-server-n_tokens.txt")).unwrap();
    assert_eq!((n_tokens.runs[0].generated, n_tokens.runs[0].depth), (Some(10.0), 1360.0));
    // Current layout, prompt cache in use: 4113 tokens processed anew, 110744 in the slot.
    let current = parse(&fixture("llama-server-current.txt")).unwrap();
    assert_eq!(current.form, "llama-server timings");
    let c = &current.runs[0];
    assert_eq!((c.generated, c.depth), (Some(784.0), 110744.0 - 784.0));
    assert!((c.tok_s - 784.0 / 24.27043).abs() < 1e-6);
    assert_eq!(raw(c, "prompt eval tokens").as_deref(), Some("4113"));
}

#[test]
fn llama_cli_and_ollama_read_their_figures() {
    let cli = parse(&fixture("llama-cli.txt")).unwrap();
    assert_eq!(cli.form, "llama-cli timings");
    assert_eq!(cli.runs.len(), 1, "the sampler's line is no generation");
    assert!((cli.runs[0].tok_s - 178.0 / 14.08585).abs() < 1e-6);
    assert_eq!(cli.runs[0].depth, 49.0);
    let ollama = parse(&fixture("ollama-verbose.txt")).unwrap();
    assert_eq!(ollama.form, "ollama --verbose statistics");
    let o = &ollama.runs[0];
    assert_eq!((o.tok_s, o.depth, o.generated), (24.61, 11.0, Some(120.0)));
    assert_eq!(raw(o, "eval count").as_deref(), Some("120"));
}

#[test]
fn sweep_and_batched_bench_rows_with_their_settings_line() {
    let sweep = parse(&fixture("llama-sweep-bench.txt")).unwrap();
    assert_eq!(sweep.form, "llama-sweep-bench table");
    assert_eq!(sweep.runs.len(), 5);
    assert_eq!((sweep.runs[2].depth, sweep.runs[2].tok_s), (4096.0, 103.02));
    assert_eq!(
        (sweep.runs[0].fa, sweep.runs[0].ngl, sweep.runs[0].threads),
        (Some(true), Some(150), Some(1))
    );
    assert_eq!(parse_all(&fixture("llama-sweep-bench.txt")).unwrap().runs.len(), 10);
    let batched = parse(&fixture("llama-batched-bench.txt")).unwrap();
    assert_eq!(batched.form, "llama-batched-bench table");
    assert_eq!(
        batched.runs.iter().map(|r| r.batch).collect::<Vec<_>>(),
        [None, Some(2), Some(4), None, Some(2), Some(4)]
    );
    // Each sequence starts after its own prompt; S_TG is over all of them.
    assert_eq!((batched.runs[5].depth, batched.runs[5].tok_s), (4096.0, 195.49));
    assert_eq!((batched.runs[0].ngl, batched.runs[0].threads), (Some(999), Some(16)));
}

#[test]
fn anything_else_names_every_form_accepted() {
    for text in ["hello", "model,size\n1,2", "| a | b |\n| 1 | 2 |"] {
        let e = parse(text).unwrap_err();
        assert!(!e.is_empty());
    }
    let e = parse("what is this").unwrap_err();
    assert_eq!(e, NOT_A_RUN);
    for name in ["llama-bench", "llama-server", "llama-cli", "ollama"] {
        assert!(e.contains(name), "{name}");
    }
}
