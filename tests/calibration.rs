//! The expected figure against the measured results: leave-one-machine-out and
//! leave-one-backend-out error, the ceiling as a bound, a physical fit, and docs/accuracy.md kept
//! in step with the figures.

use tokbound::calibration::{self, quantile, Backend, Point};
use tokbound::catalog::catalog;

fn summary(errs: Vec<(Point, f64)>) -> (f64, f64) {
    let mut e: Vec<f64> = errs.into_iter().map(|e| e.1).collect();
    e.sort_by(f64::total_cmp);
    (quantile(&e, 0.5), quantile(&e, 0.9))
}

fn lomo() -> (f64, f64) {
    summary(calibration::leave_one_out(&catalog().measured_points().unwrap(), |p| {
        p.machine.clone()
    }))
}

#[test]
fn the_measurements_are_current_and_broad() {
    let cat = catalog();
    let points = cat.measured_points().unwrap();
    assert!(cat.measurements().len() >= 400, "{} rows", cat.measurements().len());
    let machines: std::collections::BTreeSet<&str> = cat.measurements().iter().map(|m| m.hw.as_str()).collect();
    assert!(machines.len() >= 60, "{} machines", machines.len());
    let recent = cat.measurements().iter().filter(|m| m.date.as_str() >= "2025").count();
    assert!(recent * 2 > cat.measurements().len(), "{recent} rows from 2025-2026");
    // Every backend the key offers (the issue's list) has rows.
    assert_eq!(
        Backend::ALL.map(Backend::id),
        ["cuda", "rocm", "vulkan", "metal", "sycl", "cpu", "mlx"]
    );
    for b in Backend::ALL {
        assert!(cat.measurements().iter().any(|m| m.backend == b.id()), "no {} rows", b.id());
    }
    assert!(points.iter().any(|p| p.shape.expert_matmuls > 0.0), "MoE rows");
    for m in cat.measurements() {
        assert!(
            !m.url.is_empty() && !m.date.is_empty() && !m.source.is_empty(),
            "{} {}: url, date and source",
            m.hw,
            m.model
        );
        assert!(!m.method.is_empty(), "{} {}: method", m.hw, m.model);
    }
    // 2024 runs without flash attention say so.
    assert!(cat
        .measurements()
        .iter()
        .filter(|m| m.date.as_str() < "2025")
        .all(|m| m.fa.is_some() || m.backend == "metal"));
}

#[test]
fn held_out_machines_are_predicted_within_the_bar() {
    let (median, p90) = lomo();
    // A regression guard at today's figures, not the target (median 0.10, p90 0.25, in
    // docs/accuracy.md): the Arc Pro B70 on Vulkan and the MI50, each unlike any other machine
    // measured, are predicted from their class alone when held out and set the tail.
    assert!(median <= 0.11, "median |ln(expected/measured)| {median:.3}");
    assert!(p90 <= 0.365, "p90 |ln(expected/measured)| {p90:.3}");
}

#[test]
fn held_out_backends_are_predicted_from_their_class() {
    let (median, p90) = summary(calibration::leave_one_out(&catalog().measured_points().unwrap(), |p| {
        p.backend.id().to_string()
    }));
    assert!(median <= 0.15 && p90 <= 0.45, "leave-one-backend-out {median:.3} {p90:.3}");
}

#[test]
fn the_ceiling_bounds_the_measurements() {
    let points = catalog().measured_points().unwrap();
    let above: Vec<String> = points
        .iter()
        .filter(|p| p.measured_tok_s > p.ceiling_tok_s)
        .map(|p| p.machine.clone())
        .collect();
    assert!(above.is_empty(), "above the ceiling: {above:?}");
}

#[test]
fn the_fit_is_physical() {
    let cal = tokbound::catalog::calibration();
    for (group, f) in &cal.groups {
        let c = f.coefficients();
        assert!(
            c.overhead_s >= 0.0 && c.per_layer_s >= 0.0 && c.per_expert_s >= 0.0,
            "{group:?} {c:?}"
        );
        assert!(c.per_layer_s < 500e-6, "{group:?}: {c:?}");
        assert!((1.0..4.0).contains(&c.weight) && c.kv >= 1.0, "{group:?} {c:?}");
        assert!(f.band.0 <= 1.0 && f.band.1 >= 1.0, "{group:?}");
    }
    // Without flash attention the KV cache streams worse than with it.
    let nvidia = cal
        .groups
        .iter()
        .find(|(g, _)| g.1 == Backend::Cuda && g.0.kind == tokbound::catalog::Kind::Gpu && !g.0.hbm)
        .unwrap()
        .1;
    assert!(nvidia.c[5] > nvidia.c[4], "{:?}", nvidia.c);
}

#[test]
fn a_combination_never_measured_takes_the_nearest_fit() {
    use tokbound::calibration::{Class, Level, Vendor};
    let cal = tokbound::catalog::calibration();
    let amd_gpu = Class {
        kind: tokbound::catalog::Kind::Gpu,
        vendor: Vendor::Amd,
        hbm: false,
    };
    let (_, level) = cal.fitted(amd_gpu, Backend::Sycl);
    assert_eq!(level, Level::Class);
    let other = Class {
        kind: tokbound::catalog::Kind::Cpu,
        vendor: Vendor::Other,
        hbm: false,
    };
    assert_ne!(cal.fitted(other, Backend::Mlx).1, Level::Group);
}

#[test]
fn docs_accuracy_reports_the_current_figures() {
    let (median, p90) = lomo();
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/accuracy.md")).unwrap();
    let want = format!("median {median:.3}, p90 {p90:.3}");
    assert!(
        doc.contains(&want),
        "docs/accuracy.md should say \"{want}\" (run `cargo run -- accuracy`)"
    );
}

#[test]
fn the_shipped_calibration_is_the_fit_of_the_shipped_measurements() {
    let shipped = include_str!("../data/calibration.csv");
    let fresh = tokbound::scenario::measured_ram::full_fit(catalog()).unwrap().to_csv();
    assert!(
        shipped == fresh,
        "data/calibration.csv is not the fit of data/measured.csv and data/measured-ram.csv: run `make calibration`"
    );
    // What the page and the CLI read back is the same fit, bit for bit.
    assert_eq!(tokbound::catalog::parse_calibration(shipped).unwrap().to_csv(), shipped);
    assert_eq!(tokbound::catalog::calibration().to_csv(), shipped);
    assert!(tokbound::catalog::parse_calibration("level,kind\nglobal,gpu\n").is_err());
}

#[test]
fn the_page_fits_a_paste_without_a_device_to_the_machine_on_screen() {
    let paste = "| model | size | params | backend | ngl | test | t/s |\n| --- | ---: | ---: | --- | --: | ---: | ---: |\n| llama 8B Q4_K_M | 4.58 GiB | 8.03 B | CUDA | 99 | tg128 | 127.3 ± 0.2 |\n";
    let cat = tokbound::catalog::catalog();
    let default = tokbound::scenario::Scenario::default();
    // The command line needs the machine; the page uses the one it shows.
    assert!(tokbound::report::calibrate::calibrate(paste, &default, cat)
        .unwrap_err()
        .contains("names no device"));
    let c = tokbound::report::calibrate::calibrate_on_screen(paste, &default, cat).unwrap();
    assert_eq!(c.basis, "fitted for RTX 4090, the machine chosen");
    assert!(c.cal.starts_with("rtx-4090~"), "{}", c.cal);
}

/// An engine's own streaming rate stands on two hosts: one host's runs, however many, leave the
/// engine on the fit over every engine; a second host's runs give it a rate of its own, the one
/// the estimator then reads for that engine.
#[test]
fn an_engines_own_rate_needs_two_hosts() {
    use tokbound::scenario::measured_ram::{engine_fit, runs_from, side_for};
    let header = "situation,host,query,tg_tok_s,engine,url,source,fitted,why_not_fitted";
    let row = |host: &str, engine: &str, tg: f64| {
        format!("cpu-only,{host},bw=100&kind=cpu&model=llama-3.1-8b&quant=q4_0&ctx=0&cpu=ryzen-9-7950x&threads=16,{tg},{engine},https://example.org/{host},a run,true,")
    };
    let one_host = [
        row("a", "llamafile", 8.0),
        row("a", "llamafile", 8.2),
        row("b", "llama.cpp", 12.0),
        row("c", "llama.cpp", 12.5),
    ];
    let runs = runs_from(&format!("{header}\n{}\n", one_host.join("\n")), tokbound::catalog::catalog()).unwrap();
    assert_eq!(engine_fit(&runs, "llamafile").cpu, None, "one host cannot set an engine's rate");
    assert!(engine_fit(&runs, "llama.cpp").cpu.is_some());
    assert_eq!(
        side_for(&runs, "llamafile").ram.cpu,
        tokbound::scenario::measured_ram::fit(&runs).ram.cpu
    );

    let two_hosts = [one_host.join("\n"), row("d", "llamafile", 7.9)].join("\n");
    let runs = runs_from(&format!("{header}\n{two_hosts}\n"), tokbound::catalog::catalog()).unwrap();
    let own = engine_fit(&runs, "llamafile").cpu.expect("two hosts give llamafile its own rate").0;
    assert!(
        own > tokbound::scenario::measured_ram::fit(&runs).ram.cpu.unwrap().0,
        "llamafile's runs are the slower"
    );
    assert_eq!(side_for(&runs, "llamafile").ram.cpu.map(|c| c.0), Some(own));
}

/// A CPU machine's threads meet after every node of its graph: the fitted cost per layer per
/// doubling of threads stands on CPU-only runs from two hosts or more, costs nothing on one thread,
/// and reaches the estimator with the CPU's threads (named, or the CPU assumed for the machine),
/// together with that CPU family's streaming multiplier.
#[test]
fn a_cpus_threads_meeting_needs_two_hosts_and_costs_nothing_on_one_thread() {
    use tokbound::scenario::measured_ram::{fit, runs_from};
    let header = "situation,host,query,tg_tok_s,engine,url,source,fitted,why_not_fitted";
    let row = |host: &str, model: &str, tg: f64| {
        format!("cpu-only,{host},bw=100&kind=cpu&model={model}&quant=q4_0&ctx=0&cpu=ryzen-9-7950x&threads=16,{tg},llama.cpp,https://example.org/{host},a run,true,")
    };
    let one_host = [row("a", "llama-3.1-8b", 12.0), row("a", "llama-3.2-1b", 60.0)].join("\n");
    let runs = runs_from(&format!("{header}\n{one_host}\n"), catalog()).unwrap();
    assert_eq!(fit(&runs).sync, None, "one host cannot set the threads' meeting");

    let cal = tokbound::catalog::calibration();
    let (s, n) = cal.cpu_sync.expect("the shipped fit has a synchronisation cost");
    assert!(s > 0.0 && n >= 2, "{s} s on {n} runs");
    assert_eq!(cal.cpu_sync_per_layer(1), 0.0);
    assert!((cal.cpu_sync_per_layer(16) - 4.0 * s).abs() < 1e-15);

    let resolve = |q: &str| {
        tokbound::scenario::Scenario::from_query(q)
            .0
            .resolve(catalog())
            .unwrap()
            .machine
            .time
            .own
    };
    let base = "bw=89.6&kind=cpu&model=llama-3.1-8b&quant=q4_0&ctx=0";
    let one = resolve(&format!("{base}&cpu=ryzen-9-7950x&threads=1"));
    assert_eq!(one.per_layer_s, tokbound::calibration::CPU_PRIOR[1]);
    let eight = resolve(&format!("{base}&cpu=ryzen-9-7950x&threads=8"));
    let sixteen = resolve(&format!("{base}&cpu=ryzen-9-7950x&threads=16"));
    assert!((eight.per_layer_s - one.per_layer_s - 3.0 * s).abs() < 1e-12);
    assert!((sixteen.per_layer_s - eight.per_layer_s - s).abs() < 1e-12);
    let desktop = cal
        .cpu_stream_for(tokbound::estimator::CpuFamily::X86Desktop)
        .expect("x86 desktops have runs from two hosts")
        .0;
    assert_eq!(eight.weight, desktop);
}

/// The CPU's attention over the context: its share of the 16-bit peak is read off the runs at
/// 4K tokens and deeper once their weights are accounted for, per engine where two hosts ran it
/// that deep; one host's deep runs leave the prior.
#[test]
fn the_cpus_attention_share_is_read_off_deep_runs_of_two_hosts() {
    use tokbound::scenario::measured_ram::{attention_fit, fit, runs_from, RamSide};
    let header = "situation,host,query,tg_tok_s,engine,url,source,fitted,why_not_fitted";
    let row = |host: &str, cpu: &str, threads: u32, ctx: u32| {
        format!("cpu-only,{host},bw=100&kind=cpu&model=llama-3.1-8b&quant=q4_0&ctx={ctx}&cpu={cpu}&threads={threads},1,llama.cpp,https://example.org/{host},a run,true,")
    };
    let rows = |hosts: &[(&str, &str, u32)]| {
        let lines: Vec<String> = hosts
            .iter()
            .flat_map(|(h, cpu, t)| [0, 512, 8192, 16384, 32768].map(|c| row(h, cpu, *t, c)))
            .collect();
        let mut runs = runs_from(&format!("{header}\n{}\n", lines.join("\n")), catalog()).unwrap();
        // Each run measures what a fit with a 4% attention share (and the priors) predicts.
        let truth = RamSide {
            attention: vec![("llama.cpp".to_string(), (0.04, 0))],
            ..RamSide::default()
        };
        for r in &mut runs {
            r.tg_tok_s = r.predict(&truth);
        }
        runs
    };
    let runs = rows(&[("a", "ryzen-9-7950x", 16), ("b", "epyc-9355", 32)]);
    assert!(runs.iter().filter(|r| r.deep()).count() == 6, "three deep runs a host");
    let side = fit(&runs);
    let (share, n) = side
        .attention
        .iter()
        .find(|(e, _)| e == "llama.cpp")
        .expect("two hosts ran llama.cpp deep")
        .1;
    assert!((share / 0.04 - 1.0).abs() < 0.05, "{share} on {n} runs");
    assert_eq!(n, 6);
    for r in &runs {
        assert!((r.predict(&side) / r.tg_tok_s - 1.0).abs() < 0.05, "{} at {}", r.host, r.context);
    }
    // One host's deep runs fit nothing: the prior stands.
    let one = rows(&[("a", "ryzen-9-7950x", 16)]);
    assert!(attention_fit(&one, &RamSide::default(), &one).is_empty());
    assert_eq!(fit(&one).attention_share("llama.cpp"), tokbound::estimator::cpu::ATTENTION_PRIOR);
    // The shipped calibration carries the fit per engine; an engine without deep runs of its own
    // (Ollama and llamafile run llama.cpp's CPU kernels) takes llama.cpp's.
    let cal = tokbound::catalog::calibration();
    let (llama, llama_runs) = cal.attention_share("llama.cpp");
    let (ik, ik_runs) = cal.attention_share("ik_llama.cpp");
    assert!(llama_runs.is_some() && ik_runs.is_some());
    assert!(llama > 0.0 && llama < ik && ik < 1.0, "{llama} {ik}");
    assert_eq!(cal.attention_share("ollama"), (llama, llama_runs));
}

#[test]
fn layers_in_ram_stream_as_a_cpu_machine_does_and_experts_at_their_own_rate() {
    let cat = catalog();
    let cal = tokbound::catalog::calibration();
    let (dense, experts) = (cal.ram.cpu.unwrap().0, cal.ram.offload.unwrap().0);
    assert!(experts > dense * 1.2, "experts {experts} read slower than layers {dense}");
    let slow = |query: &str| {
        let (s, issues) = tokbound::scenario::Scenario::from_query(query);
        assert!(issues.is_empty(), "{query}: {issues:?}");
        s.resolve(cat).unwrap().machine.time.slow.weight
    };
    // Layers a GPU does not hold: the dense multiplier; a mixture's routed experts: their own.
    assert_eq!(
        slow("hw=rtx-4090&model=llama-3.1-70b&quant=q4_k_m&gpu_frac=0.5&engine=llamafile"),
        dense
    );
    assert_eq!(
        slow("hw=rtx-4090&model=qwen3-30b-a3b&quant=q4_k_m&offload=experts&engine=llamafile"),
        experts
    );
    assert_eq!(
        slow("hw=rtx-4090&model=qwen3-30b-a3b&quant=q4_k_m&cpu_moe=20&engine=llamafile"),
        experts
    );
    // An engine's own rates, where its runs set them, follow the same split.
    let own = cal.ram_for("llama.cpp").unwrap();
    assert_eq!(
        slow("hw=rtx-4090&model=llama-3.1-70b&quant=q4_k_m&gpu_frac=0.5"),
        own.cpu.unwrap().0
    );
    assert_eq!(
        slow("hw=rtx-4090&model=qwen3-30b-a3b&quant=q4_k_m&offload=experts"),
        own.offload.unwrap().0
    );
}

/// Every measured batched run reads at most its aggregate ceiling, and the rows kept apart (a
/// build its own source shows slowed by a since-fixed bug) move no fitted figure.
#[test]
fn batched_runs_stay_under_their_ceiling_and_rows_kept_apart_fit_nothing() {
    use tokbound::scenario::scored::{batch_fit, runs, Kind};
    let batched = runs(Kind::Batched, catalog()).unwrap();
    for r in &batched {
        assert!(
            r.measured_tok_s <= r.ceiling_tok_s,
            "{} {}: {} > {}",
            r.host,
            r.query,
            r.measured_tok_s,
            r.ceiling_tok_s
        );
    }
    let apart = batched.iter().filter(|r| !r.fitted).count();
    assert!(apart > 0, "the pre-fix builds are kept apart");
    let fit = batch_fit(&batched);
    let mut moved = batched.clone();
    for r in moved.iter_mut().filter(|r| !r.fitted) {
        r.measured_tok_s *= 10.0;
    }
    assert_eq!(batch_fit(&moved), fit);
    // The shipped calibration carries that fit to the estimator (to its three digits).
    let shipped = &tokbound::catalog::calibration().batch;
    let close = |a: (f64, usize), b: (f64, usize)| (a.0 / b.0 - 1.0).abs() < 5e-3 && a.1 == b.1;
    assert_eq!(shipped.shares.len(), fit.shares.len());
    for (s, f) in shipped.shares.iter().zip(&fit.shares) {
        assert!(s.0 == f.0 && close(s.1, f.1), "{s:?} {f:?}");
    }
    assert!(close(shipped.pooled.unwrap(), fit.pooled.unwrap()));
    assert!(close(shipped.routing.unwrap(), fit.routing.unwrap()));
    assert!(fit.routing.is_some() && fit.pooled.is_some());
}

/// The batch's fit finds the share of peak compute and the routing exponent that made a set of
/// runs: runs on two hosts of one vendor, generated with a 20% share and experts routed as n^0.7
/// independent tokens, give back 20% (within the grid's 8% step) and 0.7.
#[test]
fn the_batch_fit_recovers_the_share_and_routing_that_made_its_runs() {
    use tokbound::scenario::scored::{batch_fit, runs, Kind, ROUTING_GRID};
    let batched = runs(Kind::Batched, catalog()).unwrap();
    // Real runs' parts (dense and mixture-of-experts, from the DGX Spark), measured figures
    // replaced by what the share and the exponent give.
    let r = ROUTING_GRID.iter().position(|g| (g - 0.7).abs() < 1e-9).unwrap();
    let mut synthetic: Vec<_> = batched.iter().filter(|x| x.host == "dgx-spark-ggerganov").cloned().collect();
    let other: Vec<_> = synthetic
        .iter()
        .cloned()
        .map(|mut x| {
            x.host = "another-spark".into();
            x
        })
        .collect();
    synthetic.extend(other);
    for x in &mut synthetic {
        let b = x.batch.as_ref().unwrap();
        x.measured_tok_s = f64::from(b.streams) * b.single_tok_s / b.parts[r].slowdown(0.2);
        x.fitted = true;
    }
    let fit = batch_fit(&synthetic);
    assert_eq!(fit.routing.map(|(g, _)| g), Some(0.7), "{fit:?}");
    let share = fit.shares.first().map(|(_, (s, _))| *s).unwrap();
    assert!((0.2 / 1.08..=0.2 * 1.08).contains(&share), "{share}");
}

/// Rows of one GPU class on two machines, their time per token 40 µs a layer plus their weights
/// at 80% of the bandwidth, times `slow` for each format's row.
fn format_rows(formats: &[(&str, f64, &[&str])]) -> Vec<Point> {
    use tokbound::calibration::{Class, Vendor};
    use tokbound::estimator::PassShape;
    let class = Class {
        kind: tokbound::catalog::Kind::Gpu,
        vendor: Vendor::Nvidia,
        hbm: false,
    };
    let mut rows = Vec::new();
    for (machine, bandwidth) in [("a", 1000.0), ("b", 500.0)] {
        for (format, slow, on) in formats {
            if !on.contains(&machine) {
                continue;
            }
            for (bytes, layers) in [(2e9, 16.0), (4e9, 28.0), (8e9, 32.0), (16e9, 48.0)] {
                let seconds = 40e-6 * layers + 1.25 * bytes / (bandwidth * 1e9) * slow;
                rows.push(Point {
                    machine: machine.into(),
                    class,
                    backend: Backend::Cuda,
                    fa: true,
                    bandwidth_gbs: bandwidth,
                    weight_bytes: bytes,
                    kv_bytes: 0.0,
                    shape: PassShape {
                        layers,
                        expert_matmuls: 0.0,
                    },
                    measured_tok_s: 1.0 / seconds,
                    ceiling_tok_s: bandwidth * 1e9 / bytes,
                    format: format.to_string(),
                });
            }
        }
    }
    rows
}

#[test]
fn a_low_bit_format_that_unpacks_slowly_is_fitted_its_factor_where_two_machines_compare_it() {
    // Q3_K_S takes 1.4× its bytes' time on both machines, IQ2_M 2× on one machine only, Q8_0
    // (not a low-bit format) 0.9× on both.
    let mut rows = format_rows(&[
        ("q4_k_m", 1.0, &["a", "b"]),
        ("q3_k_s", 1.4, &["a", "b"]),
        ("iq2_m", 2.0, &["a"]),
        ("q8_0", 0.9, &["a", "b"]),
    ]);
    // Machine a on a second backend too: still one machine for IQ2_M.
    let second: Vec<Point> = rows
        .iter()
        .filter(|p| p.machine == "a" && (p.format == "iq2_m" || p.format == "q4_k_m"))
        .map(|p| Point {
            backend: Backend::Vulkan,
            ..p.clone()
        })
        .collect();
    rows.extend(second);
    let cal = calibration::Calibration::fit(&rows);
    let factor = |f: &str| cal.formats.iter().find(|x| x.0 == f).map(|x| x.1);
    let (q3, runs) = factor("q3_k_s").expect("Q3_K_S is compared on two machines");
    assert_eq!(runs, 8);
    // Against the machines' other formats, Q8_0's faster rows among them: near 1.4, not exactly.
    assert!((1.3..1.5).contains(&q3), "Q3_K_S factor {q3:.3}");
    assert_eq!(factor("iq2_m"), None, "one machine compares IQ2_M, on two backends: no factor");
    assert_eq!(factor("q8_0"), None, "Q8_0 is not a low-bit format");
    assert!(calibration::low_bit("iq4_xs") && calibration::low_bit("q2_k") && !calibration::low_bit("q4_k_m"));
    // The factor brings the Q3_K_S rows to the fit.
    let q3_rows: Vec<&Point> = rows.iter().filter(|p| p.format == "q3_k_s").collect();
    for p in q3_rows {
        let miss = (cal.predict(p) / p.measured_tok_s).ln().abs();
        assert!(miss < 0.08, "{} {:.0} bytes: {miss:.3}", p.machine, p.weight_bytes);
    }
    // Without a low-bit format the fit has no factor.
    let plain = calibration::Calibration::fit(&format_rows(&[("q4_k_m", 1.0, &["a", "b"]), ("q8_0", 0.9, &["a", "b"])]));
    assert!(plain.formats.is_empty());
}
