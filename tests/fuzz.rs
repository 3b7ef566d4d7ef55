//! Generated-input runs of the URL codec, the config.json importer and the calibration paste
//! parsers: every input returns (a scenario, an estimate, a fit or an error) without a panic. `FUZZ_CASES` sets the count per target
//! (`make fuzz` runs a million); `make test` runs a CI-sized share. The GGUF parser's run is
//! `mutated_headers_never_panic` in tests/import.rs. Crashing inputs found are kept below as
//! regression cases.

use std::time::Instant;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use tokbound::catalog::catalog;
use tokbound::estimator::estimate;
use tokbound::import::config::from_config_json;
use tokbound::scenario::{Key, Scenario};

fn cases() -> u32 {
    std::env::var("FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(3000)
}

fn runner() -> TestRunner {
    TestRunner::new(Config {
        cases: cases(),
        failure_persistence: None,
        ..Config::default()
    })
}

/// A value as a person or an attacker might type it.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<f64>().prop_map(|v| v.to_string()),
        (0u64..100_000_000).prop_map(|v| v.to_string()),
        prop::sample::select(vec![
            "", "NaN", "inf", "-inf", "1e308", "-0", "0x10", "1_000", "4.58GiB", "19GB", "experts", "rtx-4090", "q4_k_m", "%", "%zz",
            "<script>"
        ])
        .prop_map(str::to_string),
        ".{0,30}",
    ]
}

fn query() -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            prop_oneof![
                prop::sample::select(Key::all().map(Key::name).collect::<Vec<_>>()).prop_map(str::to_string),
                "[a-z_]{1,8}"
            ],
            value(),
        ),
        0..12,
    )
    .prop_map(|pairs| {
        pairs
            .into_iter()
            .map(|(k, v)| format!("{k}={}", tokbound::scenario::encode(&v)))
            .collect::<Vec<_>>()
            .join("&")
    })
}

#[test]
fn the_url_codec_takes_any_query() {
    let cat = catalog();
    let t = Instant::now();
    runner()
        .run(&query(), |q| {
            let (s, _) = Scenario::from_query(&q);
            if let Ok(inputs) = s.resolve(cat) {
                let e = estimate(&inputs);
                prop_assert!(e.ceiling_tok_s.is_finite() && e.expected_tok_s <= e.ceiling_tok_s, "{q}");
            }
            let (again, issues) = Scenario::from_query(&s.to_query());
            prop_assert!(issues.is_empty(), "{q}");
            prop_assert_eq!(again.to_query(), s.to_query());
            Ok(())
        })
        .unwrap();
    println!("fuzz codec: {} queries in {:.1} s", cases(), t.elapsed().as_secs_f64());
}

/// JSON values shaped like configs: known keys with any JSON value, nested text_config.
fn json() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        any::<i64>().prop_map(|v| serde_json::json!(v)),
        any::<f64>()
            .prop_filter("finite", |v| v.is_finite())
            .prop_map(|v| serde_json::json!(v)),
        (0u32..200_000).prop_map(|v| serde_json::json!(v)),
        ".{0,12}".prop_map(serde_json::Value::String),
    ];
    let keys = prop::sample::select(vec![
        "num_hidden_layers",
        "hidden_size",
        "num_attention_heads",
        "num_key_value_heads",
        "head_dim",
        "vocab_size",
        "intermediate_size",
        "num_local_experts",
        "num_experts",
        "n_routed_experts",
        "num_experts_per_tok",
        "n_shared_experts",
        "moe_intermediate_size",
        "shared_expert_intermediate_size",
        "first_k_dense_replace",
        "sliding_window",
        "sliding_window_pattern",
        "layer_types",
        "kv_lora_rank",
        "q_lora_rank",
        "qk_rope_head_dim",
        "qk_nope_head_dim",
        "v_head_dim",
        "tie_word_embeddings",
        "model_type",
        "use_sliding_window",
        "full_attention_interval",
        "linear_num_value_heads",
        "linear_key_head_dim",
        "linear_value_head_dim",
    ]);
    let object = prop::collection::btree_map(
        keys,
        prop_oneof![leaf.clone(), prop::collection::vec(leaf, 0..6).prop_map(serde_json::Value::Array)],
        0..20,
    );
    (object.clone(), prop::option::of(object)).prop_map(|(top, text)| {
        let mut top: serde_json::Map<String, serde_json::Value> = top.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        if let Some(t) = text {
            top.insert(
                "text_config".into(),
                serde_json::Value::Object(t.into_iter().map(|(k, v)| (k.to_string(), v)).collect()),
            );
        }
        serde_json::Value::Object(top).to_string()
    })
}

#[test]
fn the_config_importer_takes_any_json() {
    let t = Instant::now();
    runner()
        .run(&prop_oneof![json(), ".{0,200}"], |text| {
            // Every error names what is wrong in a line a person can read.
            match from_config_json(&text) {
                Err(e) => prop_assert!(!e.is_empty() && e.chars().count() < 400, "{e}"),
                Ok(c) => {
                    prop_assert!(c.params_b.is_finite() && c.params_b >= 0.0);
                    prop_assert!(c.arch.kv_bytes(1e6, 16.0).is_finite());
                }
            }
            Ok(())
        })
        .unwrap();
    println!("fuzz config.json: {} documents in {:.1} s", cases(), t.elapsed().as_secs_f64());
}

/// Text shaped like what people paste: llama-bench tables and JSON, timing lines, and noise.
fn paste() -> impl Strategy<Value = String> {
    let cell = prop_oneof![
        Just("tg128".to_string()),
        Just("tg128 @ d4096".to_string()),
        Just("pp512".to_string()),
        Just("170.21 ± 0.30".to_string()),
        Just("4.33 GiB".to_string()),
        Just("8.03 B".to_string()),
        Just("llama 8B Q4_0".to_string()),
        Just("qwen3moe 30B.A3B Q4_K - Medium".to_string()),
        "[ -~]{0,12}",
    ];
    let row = prop::collection::vec(cell, 0..9).prop_map(|c| format!("| {} |", c.join(" | ")));
    let line = prop_oneof![
        row,
        Just("| model | size | params | backend | ngl | fa | test | t/s |".to_string()),
        Just("| --- | ---: | ---: | --- | --: | -: | ---: | ---: |".to_string()),
        "eval time = [0-9.]{0,8} ms / [0-9]{0,5} tokens".prop_map(|s| s),
        "prompt eval time = [0-9.]{0,8} ms / [0-9]{0,5} tokens".prop_map(|s| s),
        "eval rate: [0-9.e-]{0,8} tokens/s".prop_map(|s| s),
        "prompt eval count: [0-9]{0,6} token\\(s\\)".prop_map(|s| s),
        r#"\{"n_gen": [0-9]{1,4}, "n_prompt": 0, "n_depth": [0-9]{0,6}, "avg_ts": [0-9.]{1,7}, "model_size": [0-9]{1,11}, "model_n_params": [0-9]{1,11}, "model_type": "[a-z0-9 .]{0,12}"\}"#.prop_map(|s| s),
        "  Device 0: [ -~]{0,30}".prop_map(|s| s),
        Just("build_commit,model_type,model_size,model_n_params,n_gpu_layers,flash_attn,n_prompt,n_gen,n_depth,avg_ts".to_string()),
        "\"[a-f0-9]{0,8}\",\"llama 8B Q4_0\",\"[0-9]{0,10}\",\"[0-9]{0,10}\",\"-?[0-9]{0,3}\",\"-?[01]\",\"[0-9]{0,4}\",\"[0-9]{0,4}\",\"[0-9]{0,6}\",\"[0-9.]{0,9}\"".prop_map(|s| s),
        "slot print_timing: id  0 \\| task [0-9]{1,3} \\| (prompt )?eval time = [0-9.]{0,8} ms / [0-9]{0,5} tokens".prop_map(|s| s),
        "slot      release: id  0 \\| task [0-9]{1,3} \\| stop processing: n_(past|tokens) = [0-9]{0,7}, truncated = 0".prop_map(|s| s),
        "llama_perf_context_print:        eval time = [0-9.]{0,8} ms / [0-9]{0,5} runs".prop_map(|s| s),
        Just("|    PP |     TG |    B |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |".to_string()),
        Just("|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |".to_string()),
        "main: n_kv_max = [0-9]{0,6}, flash_attn = -?[01], n_gpu_layers = -?[0-9]{0,3}, n_threads = [0-9]{0,3}".prop_map(|s| s),
        ".{0,40}",
    ];
    prop::collection::vec(line, 0..12).prop_map(|l| l.join("\n"))
}

#[test]
fn the_paste_parsers_take_any_text() {
    let t = Instant::now();
    let cat = catalog();
    let (s, _) = Scenario::from_query("hw=rtx-4090&model=llama-3.1-8b");
    runner()
        .run(&paste(), |text| {
            match tokbound::report::calibrate::calibrate(&text, &s, cat) {
                Ok(c) => {
                    prop_assert!(c.fit.efficiency.is_finite() && c.fit.efficiency > 0.0 && c.fit.efficiency <= 1.0);
                    prop_assert!(tokbound::calibration::user::parse_cal(&c.cal).is_ok(), "{}", c.cal);
                }
                Err(e) => prop_assert!(!e.is_empty() && e.chars().count() < 400, "{e}"),
            }
            Ok(())
        })
        .unwrap();
    println!("fuzz calibration pastes: {} pastes in {:.1} s", cases(), t.elapsed().as_secs_f64());
}

#[test]
fn the_diagnosis_takes_any_text() {
    use tokbound::report::diagnose::{diagnose, Diagnosis};
    let t = Instant::now();
    let cat = catalog();
    let (s, _) = Scenario::from_query("hw=rtx-4090&model=llama-3.1-8b");
    runner()
        .run(&paste(), |text| {
            match diagnose(&text, &s, cat, true) {
                Ok(d) => {
                    for r in &d.runs {
                        prop_assert!(
                            r.expected_tok_s > 0.0 && r.ceiling_tok_s > 0.0 && r.share_of_ceiling.is_finite(),
                            "{r:?}"
                        );
                        prop_assert!(r.causes.iter().all(|c| c.expected_tok_s > r.expected_high_tok_s), "{r:?}");
                        prop_assert!(!r.row.is_empty() && !r.row.contains('\n'), "{}", r.row);
                    }
                    prop_assert_eq!(Diagnosis::from_parts(&d.to_parts()), Some(d));
                }
                Err(e) => prop_assert!(!e.is_empty() && e.chars().count() < 600, "{e}"),
            }
            Ok(())
        })
        .unwrap();
    println!("fuzz diagnosed pastes: {} pastes in {:.1} s", cases(), t.elapsed().as_secs_f64());
}

/// Text shaped like what people paste into the Hugging Face box: ids, links, fragments, junk.
fn hub_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "(https?://)?(huggingface\\.co|hf\\.co|example\\.com)?/?[A-Za-z0-9._/-]{0,60}(\\?[a-z=&]{0,10})?",
        "[A-Za-z0-9._-]{1,20}/[A-Za-z0-9._-]{1,20}(/(blob|resolve|tree)/[a-z0-9]{1,8}/[A-Za-z0-9._/-]{0,40})?",
        ".{0,200}",
    ]
}

#[test]
fn hub_links_take_any_text() {
    let t = Instant::now();
    runner()
        .run(&hub_text(), |text| {
            match tokbound::import::hub::Source::parse_input(&text) {
                // Whatever is accepted names a repository the key form keeps exactly.
                Ok(src) => {
                    let key = src.key();
                    let back = tokbound::import::hub::Source::parse_key(&key).map_err(|e| TestCaseError::fail(format!("{key}: {e}")))?;
                    prop_assert_eq!((back.repo, back.file), (src.repo.clone(), src.file.clone()));
                    prop_assert!(src.file_url("x").starts_with("https://huggingface.co/"));
                }
                Err(e) => prop_assert!(!e.is_empty() && e.chars().count() < 300, "{e}"),
            }
            Ok(())
        })
        .unwrap();
    println!("fuzz hub links: {} texts in {:.1} s", cases(), t.elapsed().as_secs_f64());
}

#[test]
fn regression_cases() {
    // Kept from runs: values that once looked tricky for the codec and importer.
    for q in [
        "ctx=1e2",
        "bw=%2B1",
        "weights=1e-300GB",
        "k=%20%204",
        "hw=rtx-4090&bw=1e-300",
        "params=1.27e-310",
        "bw=1e-310&weights=19GB",
    ] {
        let (s, _) = Scenario::from_query(q);
        if let Ok(i) = s.resolve(catalog()) {
            assert!(estimate(&i).ceiling_tok_s.is_finite(), "{q}");
        }
    }
    for j in [
        r#"{"num_hidden_layers":4294967295,"hidden_size":4294967295,"num_attention_heads":1,"vocab_size":4294967295}"#,
        r#"{"text_config":[]}"#,
    ] {
        if let Ok(c) = from_config_json(j) {
            assert!(c.params_b.is_finite());
        }
    }
}
