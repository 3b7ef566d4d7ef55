//! Every catalog entry parses, has a source and sane numbers; the arithmetic behind each agrees
//! with what its vendor or model card publishes.

/// An empty CPU catalog, for parses that test another file.
const CPU_HEADER: &str =
    "id,name,family,cores,efficiency_cores,threads,base_ghz,boost_ghz,int8_ops_per_cycle,f16_flops_per_cycle,channels,max_sockets\n";

use std::collections::HashSet;

use tokbound::catalog::{catalog, Kind};

fn url_safe(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_' | '.'))
}

#[test]
fn ids_are_unique_lowercase_and_url_safe() {
    let cat = catalog();
    for (what, ids) in [
        ("machine", cat.machines.iter().map(|m| m.id.as_str()).collect::<Vec<_>>()),
        ("model", cat.models.iter().map(|m| m.id.as_str()).collect()),
        ("quant", cat.quants.iter().map(|q| q.id.as_str()).collect()),
    ] {
        let mut seen = HashSet::new();
        for id in ids {
            assert!(url_safe(id), "{what} id {id:?}");
            assert!(seen.insert(id), "duplicate {what} id {id}");
        }
    }
}

// A data table: the ids people run, one a line; splitting it would only scatter the list.
#[allow(clippy::too_many_lines)]
#[test]
fn the_catalogs_cover_what_people_run() {
    let cat = catalog();
    assert!(cat.machines.len() >= 220, "{} machines", cat.machines.len());
    assert!(cat.models.len() >= 80, "{} models", cat.models.len());
    for kind in Kind::ALL {
        assert!(cat.machines.iter().filter(|m| m.kind == kind).count() >= 5, "{kind:?}");
    }
    for id in [
        "rtx-4090",
        "rtx-4090-laptop",
        "m1-max-32c",
        "m2-ultra-76c",
        "ddr5-5600-2ch",
        "dgx-spark",
        "strix-halo-395",
        "mi300x",
        "h100-sxm",
        // Asked for by the catalogs issue of 2026-12.
        "mi50-32g",
        "mi60",
        "mi100",
        "radeon-vii",
        "radeon-ai-pro-r9700",
        "rtx-5050",
        "rtx-5060-laptop",
        "rtx-5070-ti-laptop",
        "rtx-pro-4000",
        "rtx-pro-4500",
        "rtx-pro-5000",
        "gtx-1080-ti",
        "tesla-p100-pcie-16g",
        "tesla-t4",
        "h20",
        "gh200-144g",
        "b300",
        "jetson-agx-thor",
        "arc-pro-b50",
        "arc-pro-b60",
        "lunar-lake-258v",
        "strix-halo-395-64g",
        "rtx-4090-48g",
        "epyc-9005-2s-ddr5-6400",
        "xeon-6900p-2s-mrdimm-8800",
    ] {
        cat.machine(id).unwrap();
    }
    for id in [
        "llama-3.1-8b",
        "llama-3.1-405b",
        "qwen2.5-32b",
        "qwen3-30b-a3b",
        "deepseek-v3",
        "kimi-k2",
        "gpt-oss-20b",
        "gpt-oss-120b",
        "gemma-3-27b",
        "mixtral-8x7b",
        "phi-4",
        "llama-4-scout",
        "llama-4-maverick",
        "gemma-3n-e4b",
        "gemma-4-31b",
        "qwen3-coder-480b-a35b",
        "glm-4.6",
        "glm-4.7",
        "kimi-k2.5",
        "minimax-m2",
        "mistral-small-3.2-24b",
        "devstral-small-2-24b",
        "granite-4.0-h-small",
        "nemotron-h-8b",
        "nemotron-nano-9b-v2",
        "ernie-4.5-21b-a3b",
        "hunyuan-a13b",
        "seed-oss-36b",
        "smollm3-3b",
    ] {
        cat.model(id).unwrap();
    }
    assert!(cat.models.iter().filter(|m| m.draft).count() >= 3);
    for id in [
        "f16",
        "q8_0",
        "q4_k_m",
        "iq4_xs",
        "iq1_s",
        "gptq-4bit",
        "awq-4bit",
        "mlx-4bit",
        "fp8",
        "mxfp4",
        "nvfp4",
        "q4_1",
        "q5_1",
        "iq4_nl",
        "iq3_s",
        "iq3_xs",
        "iq2_s",
        "iq2_m",
        "iq1_m",
        "tq1_0",
        "tq2_0",
        "exl3-4.0bpw",
        "bnb-nf4",
        "mlx-3bit",
        "mlx-5bit",
        "mlx-6bit",
        "mxfp4-bf16",
    ] {
        cat.quant(id).unwrap();
    }
    for id in ["f16", "bf16", "q8_0", "q4_0", "fp8"] {
        cat.kv_type(id).unwrap();
    }
}

#[test]
fn machine_numbers_are_sane_and_bandwidth_follows_the_bus() {
    for m in &catalog().machines {
        assert!(!m.source.is_empty() && !m.name.is_empty(), "{}", m.id);
        assert!(
            (1.0..=100_000.0).contains(&m.bandwidth_gbs),
            "{} bandwidth {}",
            m.id,
            m.bandwidth_gbs
        );
        assert!((1.0..=4096.0).contains(&m.memory_gib), "{} memory {}", m.id, m.memory_gib);
        let t = m.fp16_tflops.unwrap_or_else(|| panic!("{}: no fp16_tflops", m.id));
        assert!((0.05..=10_000.0).contains(&t), "{} tflops {t}", m.id);
        assert!(!m.tflops_source.is_empty(), "{}: fp16_tflops without its source", m.id);
        assert!(
            ["cuda", "rocm", "vulkan", "metal", "sycl", "cpu", "mlx"].contains(&m.backend.as_str()),
            "{}: backend {:?}",
            m.id,
            m.backend
        );
        if let Some(p) = m.price() {
            assert!((50.0..=100_000.0).contains(&p) && !m.price_source.is_empty(), "{}: price {p}", m.id);
        }
        if m.kind == Kind::Apple {
            assert!(m.usable_fraction.is_none(), "{}: Apple's usable share follows its memory", m.id);
        }
        if let Some(u) = m.usable_fraction {
            assert!((0.3..=1.0).contains(&u), "{} usable {u}", m.id);
        }
        if let (Some(bus), Some(rate)) = (m.bus_bits, m.data_rate_mts) {
            let derived = bus * rate / 8.0 / 1000.0;
            assert!(
                (derived / m.bandwidth_gbs - 1.0).abs() <= 0.02,
                "{}: {bus} bits × {rate} MT/s = {derived:.1} GB/s, listed {}",
                m.id,
                m.bandwidth_gbs
            );
        }
    }
}

#[test]
fn laptop_gpus_are_not_given_desktop_figures() {
    let cat = catalog();
    for (laptop, desktop) in [
        ("rtx-4090-laptop", "rtx-4090"),
        ("rtx-4080-laptop", "rtx-4080"),
        ("rtx-3080-ti-laptop", "rtx-3080-ti"),
    ] {
        let (l, d) = (cat.machine(laptop).unwrap(), cat.machine(desktop).unwrap());
        assert!(l.bandwidth_gbs < d.bandwidth_gbs, "{laptop}");
    }
}

#[test]
fn model_architecture_matches_its_published_parameter_count() {
    let cat = catalog();
    let mut exempt = Vec::new();
    for m in &cat.models {
        assert!(!m.source.is_empty(), "{}", m.id);
        assert!(m.active_params_b <= m.params_b * 1.0001, "{}", m.id);
        let a = &m.arch;
        assert!(
            a.layers > 0 && a.hidden > 0 && a.heads > 0 && a.kv_heads > 0 && a.head_dim > 0 && a.vocab > 0,
            "{}",
            m.id
        );
        assert!(a.kv_heads <= a.heads, "{}", m.id);
        if a.is_moe() {
            assert!(
                a.experts_per_token > 0 && a.experts_per_token <= a.experts && a.moe_intermediate > 0,
                "{}",
                m.id
            );
        }
        let computed = a.total_params() / 1e9;
        let off = computed / m.params_b - 1.0;
        match &m.exemption {
            Some(why) => {
                assert!(why.len() > 20, "{}: an exemption needs its reason", m.id);
                exempt.push(m.id.clone());
            }
            None => assert!(
                off.abs() <= 0.03,
                "{}: architecture gives {computed:.3}B, published {}B ({:+.1}%)",
                m.id,
                m.params_b,
                off * 100.0
            ),
        }
    }
    assert!(exempt.len() <= 5, "too many exemptions: {exempt:?}");
}

#[test]
fn hybrid_linear_models_match_their_published_totals_within_2_percent() {
    let cat = catalog();
    let hybrids: Vec<_> = cat.models.iter().filter(|m| m.arch.linear().is_some()).collect();
    assert!(hybrids.len() >= 12, "{} hybrids", hybrids.len());
    for m in hybrids {
        assert!(m.exemption.is_none(), "{}: a hybrid needs no exemption", m.id);
        let off = m.arch.total_params() / 1e9 / m.params_b - 1.0;
        assert!(off.abs() <= 0.02, "{}: {:+.2}%", m.id, off * 100.0);
    }
    // Qwen3-Next reads about 3B per token, of which the linear layers are a real share.
    let next = cat.model("qwen3-next-80b-a3b").unwrap();
    let read = next.arch.read_params_per_token() / 1e9;
    assert!((3.0..4.0).contains(&read), "{read}");
}

#[test]
fn every_model_has_a_family_and_its_trained_context() {
    for m in &catalog().models {
        assert!(!m.family.is_empty(), "{}: no family", m.id);
        assert!(
            m.max_context.is_some_and(|c| c >= 2048),
            "{}: max_context {:?}",
            m.id,
            m.max_context
        );
    }
}

#[test]
fn quants_are_sane() {
    for q in &catalog().quants {
        assert!((1.0..=32.0).contains(&q.bpw), "{}", q.id);
        assert!(q.weights || q.kv, "{}", q.id);
        assert!(!q.source.is_empty(), "{}", q.id);
    }
    let cat = catalog();
    assert_eq!(cat.quant("q8_0").unwrap().bpw, 8.5);
    assert_eq!(cat.quant("q4_0").unwrap().bpw, 4.5);
    assert_eq!(cat.kv_type("q4_0").unwrap().bpw, 4.5);
}

#[test]
fn unknown_ids_name_the_nearest() {
    let e = catalog().machine("rtx-4900").unwrap_err();
    assert!(e.contains("rtx-4090"), "{e}");
    let e = catalog().model("lama-3.1-8b").unwrap_err();
    assert!(e.contains("llama-3.1-8b"), "{e}");
}

#[test]
fn a_broken_file_is_reported_with_its_line() {
    let good_models = "id,name,params_b,layers,hidden,heads,kv_heads,head_dim,vocab,attention,source\n";
    let e = tokbound::catalog::Catalog::parse([
        "id,name,kind,memory_gib,bandwidth_gbs,source\nx,X,gpu,abc,1,s\n",
        CPU_HEADER,
        good_models,
        "id,name,format,bpw,source\n",
        "hw,model,quant,context,tg_tok_s,source\n",
    ])
    .err()
    .unwrap();
    assert!(
        e.contains("machines.csv") && e.contains("line 2") && e.contains("memory_gib"),
        "{e}"
    );
}

#[test]
fn every_measurement_resolves() {
    let cat = catalog();
    assert!(cat.measurements().len() >= 100);
    for m in cat.measurements() {
        cat.machine(&m.hw).unwrap();
        cat.model(&m.model).unwrap();
        cat.quant(&m.quant).unwrap();
        assert!(!m.source.is_empty());
    }
}

#[test]
fn every_machine_names_its_memory_type() {
    for m in &catalog().machines {
        assert!(
            tokbound::catalog::MemoryClass::of(&m.memory_type).is_some(),
            "{} has no known memory_type",
            m.id
        );
        // The class follows the type: a GPU is HBM exactly when its memory is.
        assert_eq!(m.is_hbm(), m.kind == Kind::Gpu && m.memory_type.starts_with("hbm"), "{}", m.id);
    }
    // A row without its type, or with one that is no memory type, is refused, naming the line.
    for (row, says) in [
        ("x,X,gpu,24,1000,,s", "memory_type is empty"),
        ("x,X,gpu,24,1000,gddr9,s", "memory_type \"gddr9\""),
    ] {
        let err = tokbound::catalog::Catalog::parse([
            &format!("id,name,kind,memory_gib,bandwidth_gbs,memory_type,source\n{row}\n"),
            CPU_HEADER,
            "id,name,params_b,layers,hidden,heads,kv_heads,head_dim,vocab,attention,source\n",
            "id,name,format,bpw,source\n",
            "hw,model,quant,context,tg_tok_s,source\n",
        ])
        .err()
        .expect("refused");
        assert!(err.contains("line 2") && err.contains(says), "{err}");
    }
}

/// Siblings agree: machines of one vendor, memory class and backend, on a dense model that fits
/// both, are ordered by bandwidth and no further apart than their bandwidths — where both are
/// memory-bound: a CPU that cannot keep up with its memory (an Apple CPU cluster on 400 GB/s) is
/// as fast as its arithmetic, which the bandwidth does not bound. CPU machines are siblings where
/// their CPUs are of one family on as many threads; the CPU's attention over the context is
/// arithmetic too, so a CPU machine may lead by as much as its CPU's peak leads where that is more.
#[test]
fn siblings_agree() {
    use tokbound::scenario::Scenario;
    let cat = catalog();
    let mut violations = Vec::new();
    let mut compared = 0;
    for model in ["llama-3.1-8b", "llama-3.1-70b"] {
        let est: Vec<_> = cat
            .machines
            .iter()
            .filter_map(|m| {
                let (s, _) = Scenario::from_query(&format!("hw={}&model={model}&quant=q4_k_m&ctx=4096", m.id));
                let inputs = s.resolve(cat).ok()?;
                let e = tokbound::estimator::estimate(&inputs);
                let memory_bound = e.bound.1 == tokbound::estimator::Bound::Memory;
                let host = inputs.host.as_ref().map(|h| (h.family, h.threads));
                let peak = inputs.host.as_ref().map_or(1.0, |h| h.f16_flops);
                (e.fits == Some(true) && memory_bound).then_some((m, e.expected_tok_s, host, peak))
            })
            .collect();
        for (a, ea, ha, pa) in &est {
            for (b, eb, hb, pb) in &est {
                // A CPU machine's CPU sets how its memory streams (its family's rate) and what its
                // threads' meeting costs: siblings run the same family on as many threads.
                let same = a.id != b.id
                    && ha == hb
                    && a.class().vendor == b.class().vendor
                    && a.memory_class() == b.memory_class()
                    && a.kind == b.kind
                    && a.default_backend() == b.default_backend();
                let compute = |m: &tokbound::catalog::Machine| m.fp16_tflops.unwrap_or(0.0);
                if !same || a.bandwidth_gbs < b.bandwidth_gbs || compute(a) < compute(b) {
                    continue;
                }
                compared += 1;
                let bw_ratio = a.bandwidth_gbs / b.bandwidth_gbs;
                let lead = bw_ratio.max(pa / pb);
                let ratio = ea / eb;
                let slower = ratio < 1.0 - 1e-9 && a.bandwidth_gbs > b.bandwidth_gbs && pa >= pb;
                let equal_apart = a.bandwidth_gbs == b.bandwidth_gbs && pa == pb && (ratio - 1.0).abs() > 0.05;
                if slower || ratio > lead * (1.0 + 1e-6) || equal_apart {
                    violations.push(format!(
                        "{model}: {} ({} GB/s) {ea:.1} tok/s vs {} ({} GB/s) {eb:.1}",
                        a.id, a.bandwidth_gbs, b.id, b.bandwidth_gbs
                    ));
                }
            }
        }
    }
    assert!(compared > 1000, "only {compared} sibling pairs compared");
    assert!(
        violations.is_empty(),
        "{} pairs disagree:\n{}",
        violations.len(),
        violations.join("\n")
    );
}

#[test]
fn every_measured_run_is_on_a_backend_its_machine_can_run() {
    let cat = catalog();
    for m in cat.decode_measurements() {
        let machine = cat.machine(&m.hw).unwrap();
        let backend = tokbound::calibration::Backend::parse(&m.backend).unwrap();
        assert!(machine.allowed_backends().contains(&backend), "{} on {}", m.hw, m.backend);
    }
}

#[test]
fn every_cpu_has_its_sources_and_sane_throughput() {
    let cat = catalog();
    assert!(cat.cpus.len() >= 40, "{} CPUs", cat.cpus.len());
    let mut ids = HashSet::new();
    for c in &cat.cpus {
        assert!(url_safe(&c.id) && ids.insert(c.id.clone()), "{}", c.id);
        assert!(!c.source.is_empty() && !c.throughput_source.is_empty(), "{}: sources", c.id);
        assert!(c.cores >= 1 && c.threads >= c.cores + c.efficiency_cores, "{}: threads", c.id);
        assert!((1.0..=6.5).contains(&c.base_ghz) && c.boost_ghz >= c.base_ghz, "{}: clocks", c.id);
        // Per core per cycle: at least one 128-bit unit's worth, at most four 512-bit ones'.
        assert!((16.0..=512.0).contains(&c.int8_ops_per_cycle), "{}: int8", c.id);
        assert!((8.0..=128.0).contains(&c.f16_flops_per_cycle), "{}: f16", c.id);
        assert!((1..=8).contains(&c.max_sockets), "{}: sockets", c.id);
    }
    // Every CPU machine and every SoC on the CPU backend names a catalog CPU where it names one.
    for m in &cat.machines {
        if let Some(id) = &m.cpu {
            let cpu = cat.cpu(id).unwrap_or_else(|e| panic!("{}: {e}", m.id));
            assert!(m.sockets <= cpu.max_sockets, "{}: {} sockets", m.id, m.sockets);
        }
        if m.kind == Kind::Cpu {
            assert!(m.cpu.is_some(), "{}: a CPU machine names its CPU", m.id);
        }
    }
}

/// Every catalog CPU has a CPU machine of its platform, so a search for the CPU finds one: the
/// full channel count at the top speed it is specified for (one socket), and for memory soldered
/// beside the chip (LPDDR, whose channel width differs between makers' counts) a row that names it
/// with the same memory type and speed. Holds for whatever data/cpus.csv lists.
#[test]
fn every_cpu_has_a_machine_of_its_platform() {
    use tokbound::catalog::MemoryClass;
    let cat = catalog();
    for c in &cat.cpus {
        let (memory, rate) = c.memory_spec();
        let class = MemoryClass::of(&memory).unwrap_or_else(|| panic!("{}: memory {:?} is no known type", c.id, c.memory));
        let machines = cat.machines_with_cpu(c);
        let m = machines
            .first()
            .unwrap_or_else(|| panic!("{}: no CPU machine for {} x {} channels", c.id, c.memory, c.channels));
        assert!(
            m.kind == Kind::Cpu || m.default_backend() == tokbound::calibration::Backend::Cpu,
            "{}: {} does not run on its CPU",
            c.id,
            m.id
        );
        assert_eq!(m.memory_type, memory, "{}: {}", c.id, m.id);
        if let Some(rate) = rate {
            assert_eq!(m.data_rate_mts, Some(rate), "{}: {} is not at {}", c.id, m.id, c.memory);
        }
        if class == MemoryClass::Ddr {
            // bandwidth = channels x 8 bytes x MT/s; the bus follows (checked against it above).
            assert_eq!(m.bus_bits, Some(f64::from(64 * c.channels)), "{}: {}", c.id, m.id);
            assert_eq!(m.sockets, 1, "{}: {}", c.id, m.id);
            let bandwidth = f64::from(c.channels) * 8.0 * rate.unwrap_or(0.0) / 1000.0;
            assert!(
                (m.bandwidth_gbs / bandwidth - 1.0).abs() < 0.01,
                "{}: {} GB/s, not {bandwidth}",
                m.id,
                m.bandwidth_gbs
            );
        } else {
            assert_eq!(m.cpu.as_deref(), Some(c.id.as_str()), "{}: soldered memory is its own row", c.id);
        }
        // Its name finds it: as a machine named so, or as that machine with the CPU.
        let by_pair = cat.search_cpu_machines(&c.name).iter().any(|(f, fc)| f.id == m.id && fc.id == c.id);
        let by_name = cat.search_machines(&c.name).iter().any(|f| f.id == m.id);
        assert!(by_pair || by_name, "{}: a search for {:?} does not find {}", c.id, c.name, m.id);
    }
}

/// The page's copy of the CPU catalog is cut in two (build.rs): the CPUs a machine names, which
/// the first part carries so every curated machine and a GPU's typical desktop host is estimated
/// at once, and the long tail of CPUs, fetched on demand. Together they are the whole catalog,
/// once each; and the machines' sources, prices and power kept apart line up with the machines.
#[test]
fn the_pages_cpu_copies_split_the_catalog_at_the_cpus_machines_name() {
    let ids = |text: &str| -> Vec<String> {
        text.lines()
            .skip(1)
            .map(|l| l.split('\x1f').next().unwrap_or_default().to_string())
            .collect()
    };
    let first = ids(include_str!(concat!(env!("OUT_DIR"), "/cpus.csv")));
    let tail = ids(include_str!(concat!(env!("OUT_DIR"), "/cpus-longtail.csv")));
    let cat = catalog();
    let named: HashSet<&str> = cat.machines.iter().filter_map(|m| m.cpu.as_deref()).collect();
    assert!(named.contains(tokbound::catalog::cpus::TYPICAL_DESKTOP));
    assert_eq!(first.iter().map(String::as_str).collect::<HashSet<_>>(), named);
    assert!(tail.iter().all(|id| !named.contains(id.as_str())));
    let mut both: Vec<&String> = first.iter().chain(&tail).collect();
    both.sort();
    let mut all: Vec<&String> = cat.cpus.iter().map(|c| &c.id).collect();
    all.sort();
    assert_eq!(both, all);
    assert!(tail.len() >= 200, "{} CPUs in the long tail", tail.len());
    let sources = include_str!(concat!(env!("OUT_DIR"), "/machine-sources.csv"));
    assert_eq!(sources.lines().count(), cat.machines.len());
    // Each line: the source's head, the price and the board power, as the CLI reads them.
    let number = |t: &str| (!t.is_empty()).then(|| t.parse::<f64>().unwrap());
    for (m, line) in cat.machines.iter().zip(sources.lines()) {
        let fields: Vec<&str> = line.split('\x1f').collect();
        assert_eq!(fields.len(), 3, "{}: {line}", m.id);
        assert!(!fields[0].is_empty() && m.source.starts_with(fields[0]), "{}: {line}", m.id);
        assert_eq!((number(fields[1]), number(fields[2])), (m.price(), m.power()), "{}", m.id);
    }
    let header = include_str!(concat!(env!("OUT_DIR"), "/machines.csv")).lines().next().unwrap();
    assert!(
        !header.split('\x1f').any(|c| ["source", "price_usd", "power_w"].contains(&c)),
        "{header}"
    );
}
