//! The estimator against the seed's figures and the physics' invariants.

use proptest::prelude::*;
use tokbound::catalog::catalog;
use tokbound::estimator::{estimate, sweep, Estimate, MachineSpec, Note, Pool, WeightSpec};
use tokbound::report::commands::commands;
use tokbound::scenario::Scenario;

fn run(query: &str) -> Estimate {
    let (s, issues) = Scenario::from_query(query);
    assert!(issues.is_empty(), "{query}: {issues:?}");
    estimate(&s.resolve(catalog()).unwrap_or_else(|e| panic!("{query}: {e:?}")))
}

fn round1(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

#[test]
fn the_seed_table_19_gb_and_5_gb_files() {
    for (bw, c19, c5) in [(1000.0, 52.6, 200.0), (400.0, 21.1, 80.0), (800.0, 42.1, 160.0), (80.0, 4.2, 16.0)] {
        assert_eq!(
            round1(run(&format!("bw={bw}&weights=19GB&ctx=0")).ceiling_tok_s),
            c19,
            "19 GB at {bw}"
        );
        assert_eq!(round1(run(&format!("bw={bw}&weights=5GB&ctx=0")).ceiling_tok_s), c5, "5 GB at {bw}");
    }
}

#[test]
fn sixteen_gb_per_token_from_an_80_gb_s_pool_is_5_tok_s() {
    let e = run("bw=1008&mem=24&weights=16GB&ctx=0&gpu_frac=0&ram_bw=80");
    assert_eq!(round1(e.ceiling_tok_s), 5.0);
    assert_eq!(e.pools.len(), 2);
}

#[test]
fn q8_0_is_about_1_75_times_slower_than_q4_k_m() {
    let q8 = run("hw=rtx-4090&model=llama-3.1-8b&quant=q8_0&ctx=0").ceiling_tok_s;
    let q4 = run("hw=rtx-4090&model=llama-3.1-8b&quant=q4_k_m&ctx=0").ceiling_tok_s;
    let ratio = q4 / q8;
    assert!((1.65..1.85).contains(&ratio), "{ratio}");
}

#[test]
fn the_default_scenario_is_the_seeds_headline() {
    let e = run("");
    assert!((45.0..55.0).contains(&e.ceiling_tok_s), "{}", e.ceiling_tok_s);
    assert!(e.expected_tok_s < e.ceiling_tok_s);
    assert_eq!(e.fits, Some(true));
    // The same model on the seed's other machines ranks as the seed says.
    let m1 = run("hw=m1-max-32c").ceiling_tok_s;
    let ultra = run("hw=m2-ultra-76c").ceiling_tok_s;
    let ddr5 = run("hw=ddr5-5600-2ch").ceiling_tok_s;
    assert!(ddr5 < m1 && m1 < ultra && ultra < e.ceiling_tok_s, "{ddr5} {m1} {ultra}");
}

#[test]
fn deepseek_v3_caches_about_70_kb_per_token_and_reads_only_active_experts() {
    let a = run("hw=h200-sxm&model=deepseek-v3&quant=q4_k_m&ctx=1");
    assert_eq!(a.bytes_per_token.kv, 61.0 * 576.0 * 2.0);
    // 37B active at 4.9 bits ≈ 22 GB, nowhere near 671B's 400 GB.
    assert!((15e9..30e9).contains(&a.bytes_per_token.weights), "{}", a.bytes_per_token.weights);
    assert!(a.stored_weight_bytes > 350e9);
}

#[test]
fn a_model_that_does_not_fit_spills_to_ram_and_slows() {
    let fits = run("hw=rtx-4090&model=llama-3.1-8b");
    let spills = run("hw=rtx-4090&model=llama-3.1-70b");
    assert_eq!(fits.fits, Some(true));
    assert_eq!(spills.fits, Some(false));
    let spill = spills.spill.expect("a spill");
    assert_eq!(spill.pool, Pool::Vram);
    assert_eq!(spill.into, Pool::SystemRam);
    assert!(spill.fraction > 0.3 && spill.fraction < 0.9, "{}", spill.fraction);
    // Mostly bound by the RAM share: well under the VRAM-only ceiling.
    assert!(spills.ceiling_tok_s < 1008e9 / spills.bytes_per_token.total / 2.0);
}

#[test]
fn layers_on_the_gpu_leave_the_output_head_with_the_cpu_until_every_layer_is_there() {
    let (s, _) = Scenario::from_query("hw=rtx-4090&model=gemma-2-9b&quant=q4_k_m");
    let inputs = s.resolve(catalog()).unwrap();
    let layers = inputs.model.layers().unwrap();
    let wb = inputs.weight_bytes();
    // Gemma 2's head (256,000 × 3,584, tied to its input embedding) is a tenth of a token's bytes.
    let head = wb.head / wb.read(inputs.routing(), 1.0);
    assert!(head > 0.09 && head < 0.11, "{head}");
    assert_eq!(inputs.ngl_share(layers + 1), Some(1.0));
    let all_layers = inputs.ngl_share(layers).unwrap();
    assert!((all_layers - (1.0 - head)).abs() < 1e-12, "{all_layers}");
    let most = inputs.ngl_share(36).unwrap();
    assert!((most - 36.0 / 42.0 * (1.0 - head)).abs() < 1e-12, "{most}");
    // Placed automatically, a spilled model's VRAM holds layers only, and the printed -ngl is the
    // count of layers that share is.
    let (s, _) = Scenario::from_query("hw=rtx-3060-12g&model=gemma-2-27b&quant=q4_k_m&ctx=4096");
    let big = s.resolve(catalog()).unwrap();
    let spills = estimate(&big);
    let fast = 1.0 - spills.spill.as_ref().expect("a spill").fraction;
    let ngl = (fast / big.ngl_share(1).unwrap() + 1e-9).floor() as u32;
    let run_cmd = commands(&s, catalog(), &big, &spills).run.unwrap();
    assert!(run_cmd.contains(&format!("-ngl {ngl} ")), "{run_cmd} for {ngl}");
    assert!(fast <= big.ngl_share(big.model.layers().unwrap()).unwrap() + 1e-12);
}

#[test]
fn expert_offload_reads_routed_experts_at_ram_speed() {
    let e = run("hw=rtx-4090&model=qwen3-30b-a3b&offload=experts&ram_bw=80");
    assert_eq!(e.pools.len(), 2);
    assert_eq!(e.pools[1].pool, Pool::SystemRam);
    assert!(e.pools[1].weight_bytes > 0.0 && e.pools[1].kv_bytes == 0.0);
    let all_gpu = run("hw=rtx-4090&model=qwen3-30b-a3b&gpu_frac=1");
    assert!(e.ceiling_tok_s < all_gpu.ceiling_tok_s);
}

#[test]
fn tensor_parallel_adds_bandwidth_layer_split_adds_capacity_only() {
    let one = run("hw=rtx-3090&model=llama-3.1-8b&ctx=0");
    let tp2 = run("hw=rtx-3090&model=llama-3.1-8b&ctx=0&tp=2");
    let split2 = run("hw=rtx-3090&model=llama-3.1-8b&ctx=0&split=2");
    assert!((tp2.ceiling_tok_s / one.ceiling_tok_s - 1.8).abs() < 1e-9);
    assert_eq!(split2.ceiling_tok_s, one.ceiling_tok_s);
    assert_eq!(split2.memory_available_bytes.unwrap(), 2.0 * one.memory_available_bytes.unwrap());
}

#[test]
fn apple_machines_use_the_usable_fraction() {
    let e = run("hw=m2-ultra-76c&model=llama-3.1-8b");
    assert_eq!(e.memory_available_bytes.unwrap(), 192.0 * 0.75 * 1024f64.powi(3));
    let custom = run("hw=m2-ultra-76c&model=llama-3.1-8b&usable=0.5");
    assert_eq!(custom.memory_available_bytes.unwrap(), 192.0 * 0.5 * 1024f64.powi(3));
}

#[test]
fn prefill_is_compute_bound_and_unknown_without_tflops() {
    let gpu = run("hw=rtx-4090&model=llama-3.1-8b&prompt=4096");
    let t = gpu.ttft_s.unwrap();
    // 2 × 7.5e9 × 4096 FLOPs at half of 165 TFLOPS ≈ 0.75 s.
    assert!((0.5..1.5).contains(&t), "{t}");
    // A CPU memory system takes its representative CPU's SIMD peak: slower, but known.
    let cpu = run("hw=ddr5-5600-2ch&model=llama-3.1-8b&prompt=4096").ttft_s.unwrap();
    assert!(cpu > 5.0 * t, "{cpu}");
    let custom = run("bw=100&mem=64&model=llama-3.1-8b&prompt=4096");
    assert_eq!(custom.ttft_s, None);
    assert!(custom.notes.contains(&Note::PrefillNoTflops));
}

#[test]
fn batching_amortizes_the_weight_read_until_compute_binds() {
    let b1 = run("hw=rtx-4090&model=llama-3.1-8b&ctx=0&batch=1").batch.unwrap();
    let b8 = run("hw=rtx-4090&model=llama-3.1-8b&ctx=0&batch=8").batch.unwrap();
    assert!(b8.aggregate_tok_s.unwrap() > 5.0 * b1.aggregate_tok_s.unwrap());
    assert!(b8.per_stream_tok_s.unwrap() <= b1.per_stream_tok_s.unwrap());
    let from = b1.compute_bound_from.expect("a crossover");
    assert!((16..1024).contains(&from), "{from}");
}

/// One stream of a batch is the single stream's expected figure and its ceiling; every batch's
/// expected aggregate stays under its aggregate ceiling, for dense models and mixtures alike.
#[test]
fn a_batch_of_one_is_the_single_stream_and_every_batch_stays_under_its_ceiling() {
    for model in ["llama-3.1-8b", "gpt-oss-20b", "qwen3-coder-30b-a3b"] {
        for hw in ["rtx-4090", "m2-ultra-76c", "dgx-spark"] {
            let e = run(&format!("hw={hw}&model={model}&ctx=512&batch=1"));
            let b = e.batch.unwrap();
            let per_stream = b.per_stream_tok_s.unwrap();
            assert!(
                (per_stream / e.expected_tok_s - 1.0).abs() < 1e-9,
                "{hw} {model}: {per_stream} {}",
                e.expected_tok_s
            );
            let ceiling = b.per_stream_ceiling_tok_s.unwrap();
            assert!(
                (ceiling / e.ceiling_tok_s - 1.0).abs() < 1e-9,
                "{hw} {model}: {ceiling} {}",
                e.ceiling_tok_s
            );
            for n in [2, 8, 32, 128] {
                let b = run(&format!("hw={hw}&model={model}&ctx=512&batch={n}")).batch.unwrap();
                if let (Some(a), Some(c)) = (b.aggregate_tok_s, b.aggregate_ceiling_tok_s) {
                    assert!(a <= c, "{hw} {model} {n}: {a} > {c}");
                }
            }
        }
    }
}

#[test]
fn a_moe_batch_reads_more_experts_than_one_token() {
    let one = run("hw=h100-sxm&model=mixtral-8x7b&batch=1").batch.unwrap();
    let four = run("hw=h100-sxm&model=mixtral-8x7b&batch=4").batch.unwrap();
    // Four tokens touch more experts, so a step costs more than one token's.
    assert!(four.per_stream_tok_s < one.per_stream_tok_s);
}

#[test]
fn speculative_decoding_beats_decoding_alone_when_guesses_hold() {
    let e = run("hw=h100-sxm&model=llama-3.1-70b&draft=llama-3.2-1b&k=4&accept=1");
    let s = e.speculative.unwrap();
    assert_eq!(s.tokens_per_step, 5.0);
    assert!(s.speedup > 3.0, "{}", s.speedup);
    let poor = run("hw=h100-sxm&model=llama-3.1-70b&draft=llama-3.2-1b&k=4&accept=0")
        .speculative
        .unwrap();
    assert_eq!(poor.tokens_per_step, 1.0);
    assert!(poor.speedup < 1.0);
    // The plain bound stays the plain bound.
    assert_eq!(e.ceiling_tok_s, run("hw=h100-sxm&model=llama-3.1-70b").ceiling_tok_s);
}

#[test]
fn any_draft_length_gives_the_geometric_tokens_per_step() {
    // Links cap k at 32; the estimator itself takes any u32. Expected tokens per verify step are
    // (1 - a^(k+1)) / (1 - a), which tends to 1 / (1 - a) = 2 at a = 0.5 however long the draft.
    let (s, _) = Scenario::from_query("hw=rtx-4090&model=llama-3.1-70b&gpu_frac=1&draft=llama-3.2-1b&k=4&accept=0.5");
    let mut inputs = s.resolve(catalog()).unwrap();
    for k in [4, 32, i32::MAX as u32, u32::MAX] {
        inputs.speculation.as_mut().unwrap().k = k;
        let t = estimate(&inputs).speculative.unwrap().tokens_per_step;
        let expected = if k == 4 { 1.9375 } else { 2.0 };
        assert!((t - expected).abs() < 1e-9, "k={k}: {t}");
    }
}

fn finite(e: &Estimate) -> bool {
    [
        e.ceiling_tok_s,
        e.expected_tok_s,
        e.expected_low_tok_s,
        e.expected_high_tok_s,
        e.bytes_per_token.total,
        e.memory_needed_bytes,
    ]
    .iter()
    .all(|v| v.is_finite())
}

proptest! {
    #[test]
    fn more_bandwidth_is_never_slower(bw in 1.0f64..20000.0, extra in 0.0f64..5000.0, ctx in 0u32..200_000) {
        let a = run(&format!("bw={bw}&params=8&layers=32&kv_heads=8&head_dim=128&ctx={ctx}"));
        let b = run(&format!("bw={}&params=8&layers=32&kv_heads=8&head_dim=128&ctx={ctx}", bw + extra));
        prop_assert!(b.ceiling_tok_s >= a.ceiling_tok_s);
        prop_assert!(b.expected_tok_s >= a.expected_tok_s * (1.0 - 1e-12));
    }

    #[test]
    fn more_context_is_never_faster(model in 0usize..58, ctx in 0u32..500_000, more in 0u32..500_000) {
        let id = &catalog().models[model % catalog().models.len()].id;
        let a = run(&format!("hw=h200-sxm&model={id}&ctx={ctx}"));
        let b = run(&format!("hw=h200-sxm&model={id}&ctx={}", ctx + more));
        prop_assert!(b.ceiling_tok_s <= a.ceiling_tok_s);
        prop_assert!(b.expected_tok_s <= a.expected_tok_s * (1.0 + 1e-12));
    }

    #[test]
    fn expected_never_exceeds_the_ceiling_and_nothing_is_nan(
        machine in 0usize..1000, model in 0usize..1000, quant in 0usize..1000,
        ctx in 0u32..10_000_000, frac in 0.0f64..=1.0, batch in 1u32..4096, k in 1u32..32, accept in 0.0f64..=1.0,
    ) {
        let cat = catalog();
        let hw = &cat.machines[machine % cat.machines.len()];
        let m = &cat.models[model % cat.models.len()].id;
        // The formats this machine's backends run (MLX's only on Apple).
        let runs = |q: &&tokbound::catalog::Quant| hw.allowed_backends().iter().any(|b| q.runs_on_backend(b.id()));
        let weight_quants: Vec<_> = cat.quants.iter().filter(|q| q.weights).filter(runs).collect();
        let hw = &hw.id;
        let q = &weight_quants[quant % weight_quants.len()].id;
        let e = run(&format!("hw={hw}&model={m}&quant={q}&ctx={ctx}&gpu_frac={frac}&batch={batch}&draft=qwen2.5-0.5b&k={k}&accept={accept}"));
        prop_assert!(finite(&e));
        prop_assert!(e.ceiling_tok_s > 0.0);
        prop_assert!(e.expected_tok_s <= e.ceiling_tok_s);
        prop_assert!(e.expected_low_tok_s <= e.expected_tok_s && e.expected_tok_s <= e.expected_high_tok_s);
        prop_assert!(e.expected_high_tok_s <= e.ceiling_tok_s);
        let b = e.batch.unwrap();
        // Every catalog machine has a compute figure, so every batch that fits is bounded; one
        // whose KV caches do not fit has no aggregate at all.
        match b.fits {
            Some(false) => prop_assert!(b.aggregate_tok_s.is_none() && b.per_stream_tok_s.is_none()),
            _ => prop_assert!(b.aggregate_tok_s.unwrap().is_finite() && b.per_stream_tok_s.unwrap().is_finite()),
        }
        prop_assert!(b.max_streams.is_some_and(|m| (b.size <= m) == (b.fits == Some(true))));
        prop_assert!(e.speculative.unwrap().tok_s.is_finite());
    }

    #[test]
    fn any_finite_custom_input_gives_finite_output(bw in 0.01f64..1e5, size in 1e-3f64..1e5, params in 1e-3f64..1e5, ctx in 0u32..100_000_000) {
        let e = run(&format!("bw={bw}&weights={size}GB&params={params}&layers=80&kv_heads=8&head_dim=128&ctx={ctx}&mem=24"));
        prop_assert!(finite(&e));
    }
}

#[test]
fn a_custom_model_takes_the_default_format_like_every_unset_key() {
    // 8B parameters at Q4_K_M's 4.90 bits: 4.9 GB per token.
    let e = run("bw=1000&params=8&ctx=0");
    assert!(
        (e.bytes_per_token.weights - 8e9 * 4.90 / 8.0).abs() < 1.0,
        "{}",
        e.bytes_per_token.weights
    );
    let f16 = run("bw=1000&params=8&ctx=0&quant=f16");
    assert_eq!(f16.bytes_per_token.weights, 16e9);
}

/// The sweep's grid of ceilings (machines × formats × contexts) equals the full estimate's.
#[test]
fn the_grid_agrees_with_the_full_estimate() {
    let cat = catalog();
    let base = Scenario::default().resolve(cat).unwrap();
    let ids = ["rtx-4090", "m2-ultra-76c", "ddr5-5600-2ch", "rtx-3060-12g"];
    let machines: Vec<MachineSpec> = ids
        .iter()
        .map(|id| {
            tokbound::report::views::with_machine(&Scenario::default(), id)
                .resolve(cat)
                .unwrap()
                .machine
        })
        .collect();
    let formats: Vec<WeightSpec> = ["q4_k_m", "q8_0", "f16"]
        .iter()
        .map(|q| {
            cat.quant(q)
                .map(|q| WeightSpec::Bits {
                    bpw: q.bpw,
                    other_bpw: q.other_bpw,
                })
                .unwrap()
        })
        .collect();
    let contexts = [0.0, 4096.0, 131072.0];
    let mut out = Vec::new();
    sweep::ceilings(&base, &machines, &formats, &contexts, &mut out);
    assert_eq!(out.len(), 4 * 3 * 3);
    for (mi, m) in machines.iter().enumerate() {
        for (fi, f) in formats.iter().enumerate() {
            for (ci, c) in contexts.iter().enumerate() {
                let mut i = base.clone();
                i.machine = m.clone();
                i.weights = *f;
                i.context = *c;
                let want = estimate(&i).ceiling_tok_s;
                let got = out[(mi * 3 + fi) * 3 + ci];
                assert!((got / want - 1.0).abs() < 1e-9, "{} {f:?} {c}: {got} vs {want}", ids[mi]);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Physics a new user hits at once (the 2026-12 corrections): each fails on the earlier estimator.

#[test]
fn a_batch_is_bounded_by_compute_on_every_catalog_machine() {
    // Was 486,537 tok/s: no compute figure on Apple machines meant no limit at all.
    let e = run("hw=m4-max-40c&model=llama-3.1-8b&ctx=0&batch=4096");
    let b = e.batch.unwrap();
    let flops = catalog().machine("m4-max-40c").unwrap().fp16_tflops.unwrap() * 1e12;
    let active = catalog().model("llama-3.1-8b").unwrap().arch.read_params_per_token();
    let bound = flops / (2.0 * active);
    assert!(b.aggregate_tok_s.unwrap() <= bound * 1.000001, "{:?} vs {bound}", b.aggregate_tok_s);
    assert!(b.compute_bound_from.is_some());
    for m in &catalog().machines {
        let e = run(&format!("hw={}&model=llama-3.1-8b&ctx=0&batch=512", m.id));
        let b = e.batch.unwrap();
        // With no context a stream's KV cache is empty: every batch fits where the model does.
        assert_eq!(b.fits, e.fits, "{}", m.id);
        assert_eq!(b.aggregate_tok_s.is_some(), e.fits == Some(true), "{}", m.id);
    }
}

#[test]
fn a_custom_machine_without_tflops_gets_no_batched_figure_and_no_ttft() {
    let e = run("bw=500&mem=64&model=llama-3.1-8b&batch=64&prompt=2048");
    let b = e.batch.unwrap();
    assert_eq!((b.aggregate_tok_s, b.per_stream_tok_s), (None, None));
    assert_eq!(b.note, Some(Note::BatchNeedsTflops));
    assert_eq!(e.ttft_s, None);
    assert!(e.notes.contains(&Note::PrefillNoTflops));
    // Macs now have a time to first token.
    assert!(run("hw=m4-max-40c&model=llama-3.1-8b&prompt=4096").ttft_s.is_some());
    assert!(run("hw=dgx-spark&model=gpt-oss-120b&prompt=4096").ttft_s.is_some());
}

#[test]
fn expert_offload_fits_when_each_pool_holds_its_part() {
    // Was fits: false, counting all 72 GB against the 5090's 32 GB while reading experts from RAM.
    let e = run("hw=rtx-5090&model=gpt-oss-120b&quant=mxfp4&offload=experts");
    assert_eq!(e.fits, Some(true), "{:?}", e.pools);
    let (vram, ram) = (&e.pools[0], &e.pools[1]);
    assert_eq!((vram.pool, ram.pool), (Pool::Vram, Pool::SystemRam));
    assert!(vram.needed_bytes <= vram.capacity_bytes.unwrap() && vram.fits);
    assert!(ram.needed_bytes > 50e9 && ram.needed_bytes <= ram.capacity_bytes.unwrap() && ram.fits);
    // 32 GB of system RAM cannot hold the experts: that pool does not fit, the rest is on disk.
    let small = run("hw=rtx-5090&model=gpt-oss-120b&quant=mxfp4&offload=experts&ram=32");
    assert_eq!(small.fits, Some(false));
    assert!(!small.pools[1].fits);
    assert_eq!(small.pools.last().unwrap().pool, Pool::Disk);
    assert!(small.ceiling_tok_s < e.ceiling_tok_s / 2.0);
    // At Q4_K_M the experts are 70 GB: VRAM holds its part, 64 GiB of RAM does not hold theirs.
    let q4 = run("hw=rtx-5090&model=gpt-oss-120b&offload=experts");
    assert!(q4.pools[0].fits && !q4.pools[1].fits, "{:?}", q4.pools);
}

#[test]
fn gpu_frac_above_what_vram_holds_is_capped_with_a_note() {
    // Was 21 GB of a 70B model in a 12 GB card's VRAM.
    let e = run("hw=rtx-3060-12g&model=llama-3.1-70b&gpu_frac=0.5");
    let vram = &e.pools[0];
    assert!(vram.weight_bytes + vram.kv_bytes <= 12.0 * 1024f64.powi(3));
    assert!(vram.needed_bytes <= vram.capacity_bytes.unwrap() + 1.0);
    assert!(
        e.notes
            .iter()
            .any(|n| matches!(n, Note::GpuFracCapped { asked, held } if *asked == 0.5 && *held < 0.3)),
        "{:?}",
        e.notes
    );
    assert!(
        tokbound::report::views::note_text(e.notes.iter().find(|n| matches!(n, Note::GpuFracCapped { .. })).unwrap())
            .starts_with("gpu_frac 0.5 is more than VRAM holds")
    );
    // A share that fits is used as given, with no note.
    let fits = run("hw=rtx-3060-12g&model=llama-3.1-70b&gpu_frac=0.1");
    assert!(!fits.notes.iter().any(|n| matches!(n, Note::GpuFracCapped { .. })));
}

#[test]
fn what_fits_neither_vram_nor_ram_is_read_from_disk() {
    let e = run("hw=rtx-4090&model=llama-3.1-405b&quant=q4_k_m&ram=64");
    let pools: Vec<Pool> = e.pools.iter().map(|p| p.pool).collect();
    assert_eq!(pools, vec![Pool::Vram, Pool::SystemRam, Pool::Disk]);
    assert_eq!(e.fits, Some(false));
    let ram = &e.pools[1];
    assert!(ram.needed_bytes > ram.capacity_bytes.unwrap() && !ram.fits);
    // Enough RAM: no disk.
    let big = run("hw=rtx-4090&model=llama-3.1-405b&quant=q4_k_m&ram=512");
    assert_eq!(big.pools.len(), 2);
    assert!(big.ceiling_tok_s > 5.0 * e.ceiling_tok_s);
    // ram means nothing on a Mac: noted.
    let mac = run("hw=m3-ultra-80c&model=llama-3.1-8b&ram=32");
    assert!(mac.notes.contains(&Note::RamIgnored));
}

#[test]
fn apple_usable_memory_follows_the_memory_in_effect() {
    let gib = 1024f64.powi(3);
    let big = run("hw=m4-max-40c&model=llama-3.1-8b");
    assert_eq!(big.memory_available_bytes.unwrap(), 128.0 * 0.75 * gib);
    let small = run("hw=m4-max-40c&model=llama-3.1-8b&mem=36");
    assert!((small.memory_available_bytes.unwrap() - 36.0 * 2.0 / 3.0 * gib).abs() < 1.0);
    let custom = run("bw=400&mem=24&kind=apple&model=llama-3.1-8b");
    assert!((custom.memory_available_bytes.unwrap() - 16.0 * gib).abs() < 1.0);
}

#[test]
fn sliding_windows_shorten_a_long_prefill() {
    // gpt-oss alternates 128-token windows with full layers: at a 64K prompt its attention does
    // about half the work of all-full attention.
    let cat = catalog();
    let arch = &cat.model("gpt-oss-120b").unwrap().arch;
    let full = tokbound::estimator::arch::Arch {
        attention: tokbound::estimator::arch::Attention::Full,
        ..arch.clone()
    };
    let p = 65536.0;
    let ratio = full.attention_flops(p) / arch.attention_flops(p);
    assert!((1.8..2.1).contains(&ratio), "{ratio}");
    let swa = run("hw=h100-sxm&model=gpt-oss-120b&prompt=65536").ttft_s.unwrap();
    assert!(swa > 0.0);
}

#[test]
fn speculative_decoding_counts_the_drafts_kv_cache_and_both_overheads() {
    let short = run("hw=rtx-4090&model=qwen2.5-32b&draft=qwen2.5-0.5b&ctx=512");
    let s = short.speculative.unwrap();
    // The speed-up is against the expected figure, with the same overheads on both sides.
    assert!((s.speedup - s.tok_s / short.expected_tok_s).abs() < 1e-12);
    assert!(s.tok_s <= short.ceiling_tok_s * s.tokens_per_step);
    // The draft reads its own KV cache, which grows with the context: without it the same
    // draft would be faster, and more so at a long context.
    let (q, _) = Scenario::from_query("hw=rtx-4090&model=qwen2.5-32b&draft=qwen2.5-0.5b&ctx=131072");
    let mut inputs = q.resolve(catalog()).unwrap();
    let with_kv = estimate(&inputs).speculative.unwrap().tok_s;
    let kv = inputs.speculation.unwrap().draft_kv_bytes.unwrap();
    assert!(kv > 100e6, "{kv}");
    inputs.speculation.as_mut().unwrap().draft_kv_bytes = Some(0.0);
    assert!(estimate(&inputs).speculative.unwrap().tok_s > with_kv * 1.02);
    // Both models' fixed per-token cost counts: with none, the same step is faster.
    let mut free = inputs.clone();
    free.machine.time.own.overhead_s = 0.0;
    free.machine.time.own.per_layer_s = 0.0;
    assert!(estimate(&free).speculative.unwrap().tok_s > estimate(&inputs).speculative.unwrap().tok_s);
    // A draft given only by size: its KV cache is not modelled, and the note says so.
    let sized = run("hw=rtx-4090&model=qwen2.5-32b&draft_weights=0.4GB");
    assert!(sized.notes.contains(&Note::DraftKvNotModelled));
}

#[test]
fn a_context_beyond_the_trained_one_is_noted() {
    let e = run("hw=h200-sxm&model=llama-3.1-8b&ctx=200000");
    assert!(e.notes.contains(&Note::ContextBeyondTrained { trained: 131072 }), "{:?}", e.notes);
    assert!(!run("hw=h200-sxm&model=llama-3.1-8b&ctx=100000")
        .notes
        .iter()
        .any(|n| matches!(n, Note::ContextBeyondTrained { .. })));
}

#[test]
fn the_compute_side_is_given_at_the_share_of_peak_the_estimate_applies() {
    use tokbound::report::views::bound_text;
    use tokbound::text::units::fmt_tok_s;
    // A 16-core desktop CPU on two threads reading its own memory: the estimate holds its
    // arithmetic to its family's share of peak, so the headroom it states is at that share.
    let (s, _) = Scenario::from_query("hw=ddr5-5600-2ch&model=llama-3.1-8b&threads=2");
    let inputs = s.resolve(catalog()).unwrap();
    let e = estimate(&inputs);
    let share = inputs.host.as_ref().unwrap().efficiency;
    let (peak, at) = (e.compute_ceiling_tok_s.unwrap(), e.compute_expected_tok_s.unwrap());
    assert!(share < 0.5 && (at / peak - share).abs() < 1e-9, "{at} of {peak} at {share}");
    assert!(e.expected_tok_s <= at);
    let text = bound_text(&e);
    let said = format!(
        "compute allows {} tok/s at the {:.0}% of peak the estimate applies ({} at peak)",
        fmt_tok_s(at),
        share * 100.0,
        fmt_tok_s(peak)
    );
    assert!(text.contains(&said), "{text}");

    // Layers spilled into system RAM: the GPU's share at its peak, the CPU's at its efficiency.
    let spilled = run("hw=rtx-3060-12g&model=qwen3-30b-a3b");
    let (peak, at) = (spilled.compute_ceiling_tok_s.unwrap(), spilled.compute_expected_tok_s.unwrap());
    assert!(at < peak && at > peak * share && spilled.expected_tok_s <= at, "{at} of {peak}");

    // Everything in a GPU's own memory: its compute is taken as reached, one figure.
    let gpu = run("hw=rtx-4090&model=llama-3.1-8b");
    assert_eq!(gpu.compute_expected_tok_s, gpu.compute_ceiling_tok_s);
    let text = bound_text(&gpu);
    assert!(
        text.contains(&format!("compute allows {} tok/s.", fmt_tok_s(gpu.compute_ceiling_tok_s.unwrap()))),
        "{text}"
    );
}

#[test]
fn a_low_bit_format_streams_at_its_fitted_factor_and_says_so() {
    let cal = tokbound::catalog::calibration();
    let (factor, runs) = cal.formats.iter().find(|f| f.0 == "q3_k_s").expect("Q3_K_S has a shipped factor").1;
    assert!(factor > 1.0 && runs > 0);
    let q3 = run("hw=rtx-4090&model=llama-3.1-8b&quant=q3_k_s");
    let q4 = run("hw=rtx-4090&model=llama-3.1-8b&quant=q4_k_m");
    // The ceiling is bytes alone: fewer bytes, a higher ceiling. The expected figure takes the
    // format's unpacking into account: a lower share of the ceiling than Q4_K_M's.
    assert!(q3.ceiling_tok_s > q4.ceiling_tok_s);
    assert!(q3.expected_tok_s / q3.ceiling_tok_s < q4.expected_tok_s / q4.ceiling_tok_s);
    let note = |e: &Estimate| {
        e.notes
            .iter()
            .any(|n| matches!(n, Note::FormatStreaming { format, .. } if *format == "q3_k_s"))
    };
    assert!(note(&q3) && !note(&q4));
    // A CPU machine's own rate is fitted on its own runs: no factor there.
    let cpu = run("hw=ddr5-6400-12ch&model=llama-3.1-8b&quant=q3_k_s");
    assert!(!note(&cpu));
    // Bits per weight name no format.
    assert!(!note(&run("hw=rtx-4090&model=llama-3.1-8b&bpw=3.65")));
}

#[test]
fn the_cpus_attention_over_a_deep_context_costs_time_where_the_cpu_does_it() {
    use tokbound::estimator::host_attention_seconds;
    let arch = |q: &str| {
        let (s, _) = Scenario::from_query(q);
        s.resolve(catalog()).unwrap()
    };
    // One decode token's attention FLOPs: 2 × 2 × heads × head_dim per key for each of the 32
    // layers of Llama 3.1 8B (32 heads of 128), at 16,384 keys.
    let deep = arch("hw=ddr5-6000-2ch&model=llama-3.1-8b&ctx=16384");
    let host = deep.host.as_ref().expect("a CPU machine names its CPU");
    let flops = 4.0 * 32.0 * 128.0 * 32.0 * 16384.5;
    let e = estimate(&deep);
    let peak_s = host_attention_seconds(&deep, &e.pools);
    assert!((peak_s * host.attention_peak() / flops - 1.0).abs() < 1e-6, "{peak_s}");
    // The attention peak: the 16-bit rate of the square root of the 16 cores busy.
    assert!((host.attention_peak() * 4.0 / host.f16_flops - 1.0).abs() < 1e-12);
    // The expected figure adds it at the engine's fitted share, says so, and leaves the ceiling
    // (bytes alone) as it is.
    let share = tokbound::catalog::calibration().attention_share("llama.cpp").0;
    assert!((host.attention - share).abs() < 1e-12);
    let shallow = run("hw=ddr5-6000-2ch&model=llama-3.1-8b&ctx=0");
    let at_share = peak_s / share;
    let mut no_attention = deep.clone();
    no_attention.host.as_mut().unwrap().attention = f64::INFINITY;
    let without = estimate(&no_attention);
    assert!((1.0 / e.expected_tok_s - 1.0 / without.expected_tok_s - at_share).abs() < 1e-9);
    assert_eq!(e.ceiling_tok_s, without.ceiling_tok_s);
    assert!(e.expected_tok_s < shallow.expected_tok_s);
    let noted = |e: &Estimate| e.notes.iter().any(|n| matches!(n, Note::CpuAttention { .. }));
    assert!(noted(&e) && !noted(&shallow));
    // Another engine reads its own share.
    let ik = arch("hw=ddr5-6000-2ch&model=llama-3.1-8b&ctx=16384&engine=ik_llama.cpp");
    assert_eq!(
        ik.host.as_ref().unwrap().attention,
        tokbound::catalog::calibration().attention_share("ik_llama.cpp").0
    );
    // Half the layers on a GPU leave half the KV cache, and so half the attention, to the CPU.
    let split = arch("hw=rtx-3060-12g&model=llama-3.1-8b&ctx=16384&gpu_frac=0.5&cpu=ryzen-9-7950x");
    let se = estimate(&split);
    let kv_share = se.pools[1].kv_bytes / se.pools.iter().map(|p| p.kv_bytes).sum::<f64>();
    let split_host = split.host.as_ref().unwrap();
    assert!((host_attention_seconds(&split, &se.pools) * split_host.attention_peak() / flops - kv_share).abs() < 1e-6);
    assert!(kv_share > 0.3 && kv_share < 0.7, "{kv_share}");
    // Each stream of a batch and each verified or drafted token of a speculation pays its own.
    let parts = tokbound::estimator::batch_parts(&deep, 8).unwrap();
    assert!((parts.attention_one_s - at_share).abs() < 1e-12 && parts.streams == 8.0);
    let no_parts = tokbound::estimator::batch_parts(&no_attention, 8).unwrap();
    assert_eq!(no_parts.attention_one_s, 0.0);
    let share_b = deep.machine.time.batch_share;
    assert!(parts.slowdown(share_b) > no_parts.slowdown(share_b));
    let spec = |mut i: tokbound::estimator::Inputs| {
        let (s, _) = Scenario::from_query("hw=ddr5-6000-2ch&model=llama-3.1-8b&ctx=16384&draft=llama-3.2-1b");
        i.speculation = s.resolve(catalog()).unwrap().speculation;
        estimate(&i).speculative.unwrap()
    };
    let (with_a, without_a) = (spec(deep.clone()), spec(no_attention.clone()));
    let spec_inputs = {
        let (s, _) = Scenario::from_query("hw=ddr5-6000-2ch&model=llama-3.1-8b&ctx=16384&draft=llama-3.2-1b");
        s.resolve(catalog()).unwrap()
    };
    let sp = spec_inputs.speculation.unwrap();
    let k = f64::from(sp.k);
    let draft_share = sp.draft_kv_bytes.unwrap() / e.bytes_per_token.kv;
    let step = |s: &tokbound::estimator::SpecResult| s.tokens_per_step / s.tok_s;
    assert!((step(&with_a) - step(&without_a) - at_share * (k + 1.0 + k * draft_share)).abs() < 1e-9);
    // Routed experts in RAM leave attention on the GPU; a GPU holding everything, likewise.
    let experts = arch("hw=rtx-4090&model=qwen3-30b-a3b&offload=experts&ctx=16384");
    assert_eq!(host_attention_seconds(&experts, &estimate(&experts).pools), 0.0);
    let gpu = arch("hw=rtx-4090&model=llama-3.1-8b&ctx=16384");
    assert_eq!(host_attention_seconds(&gpu, &estimate(&gpu).pools), 0.0);
}
