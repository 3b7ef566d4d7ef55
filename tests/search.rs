//! The search boxes find what people type (issue 41, item 4): every word in any order, a model's
//! size by its parameter count, the model itself before its distills, and a CPU's name finding
//! the CPU machines that carry it.

use tokbound::catalog::{catalog, Kind};
use tokbound::report::views;
use tokbound::scenario::Scenario;

fn models(text: &str) -> Vec<String> {
    catalog().search_models(text).iter().map(|m| m.id.clone()).collect()
}

/// The place of `id` among what `text` finds.
fn rank(text: &str, id: &str) -> usize {
    let found = models(text);
    found
        .iter()
        .position(|f| f == id)
        .unwrap_or_else(|| panic!("{text:?} does not find {id}: {found:?}"))
}

#[test]
fn the_placeholder_example_finds_llama_70b_first() {
    for text in ["llama 70b", "Llama 70B", "70b llama", "llama 70"] {
        let found = models(text);
        assert!(
            ["llama-3.1-70b", "llama-3.3-70b"].contains(&found.first().map_or("", String::as_str)),
            "{text:?}: {found:?}"
        );
        for id in ["llama-3.1-70b", "llama-3.3-70b", "llama-3-70b"] {
            rank(text, id);
        }
        assert!(!found.iter().any(|id| id.ends_with("-8b")), "{text:?}: {found:?}");
    }
}

#[test]
fn a_model_ranks_before_its_distills_and_fine_tunes() {
    let first = &models("qwen 32b")[0];
    assert!(["qwen2.5-32b", "qwen3-32b"].contains(&first.as_str()), "qwen 32b: {first}");
    assert!(rank("qwen 32b", "qwen2.5-32b") < rank("qwen 32b", "deepseek-r1-distill-qwen-32b"));
    assert!(rank("qwen 32b", "qwen3-32b") < rank("qwen 32b", "deepseek-r1-distill-qwen-32b"));

    // DeepSeek R1's catalog family is DeepSeek V3; its distills are named after it.
    assert_eq!(models("deepseek r1")[0], "deepseek-r1");
    for distill in [
        "deepseek-r1-distill-qwen-14b",
        "deepseek-r1-distill-qwen-32b",
        "deepseek-r1-distill-llama-8b",
    ] {
        assert!(rank("deepseek r1", distill) > 0);
    }
    assert_eq!(models("r1 deepseek")[0], "deepseek-r1");
}

#[test]
fn a_size_word_matches_the_parameter_count() {
    assert_eq!(models("deepseek r1 671"), ["deepseek-r1"]);
    for text in ["671b", "671", "deepseek 671b"] {
        rank(text, "deepseek-r1");
        rank(text, "deepseek-v3");
    }
    let cat = catalog();
    for (text, billions) in [("32b", 32.0), ("70b", 70.0), ("8b", 8.0)] {
        let found = cat.search_models(text);
        assert!(found.len() >= 2, "{text}: {}", found.len());
        for m in found {
            assert!(
                (m.params_b / billions - 1.0).abs() < 0.04,
                "{text} finds {} ({}B)",
                m.id,
                m.params_b
            );
        }
    }
    // Names round down: Qwen2.5 7B has 7.62 billion parameters, 1.5B has 1.54, Gemma 3 270M 0.27.
    rank("qwen2.5 7b", "qwen2.5-7b");
    rank("qwen 1.5b", "qwen2.5-1.5b");
    rank("gemma 270m", "gemma-3-270m");
    // A number is also a version: Llama 3.1, Qwen 2.5.
    assert!(
        models("llama 3.1").iter().all(|id| id.starts_with("llama-3.1")),
        "{:?}",
        models("llama 3.1")
    );
    rank("qwen 2.5", "qwen2.5-32b");
    assert!(models("nonesuch 70b").is_empty());
}

fn cpu_results(text: &str) -> Vec<(String, String)> {
    catalog()
        .search_cpu_machines(text)
        .iter()
        .map(|(m, c)| (m.id.clone(), c.id.clone()))
        .collect()
}

#[test]
fn a_cpus_name_finds_the_cpu_machines_that_carry_it() {
    for (text, machine, cpu) in [
        ("7950X", "ddr5-5200-2ch", "ryzen-9-7950x"),
        ("ryzen 9 7950x", "ddr5-5200-2ch", "ryzen-9-7950x"),
        ("AMD Ryzen 9 7950X", "ddr5-5200-2ch", "ryzen-9-7950x"),
        ("epyc 9554", "ddr5-4800-12ch", "epyc-9554"),
        ("14900k", "ddr5-5600-2ch", "core-i9-14900k"),
    ] {
        // No machine is named so: the CPU's machines are the first results.
        assert!(catalog().search_machines(text).is_empty(), "{text}");
        let found = cpu_results(text);
        assert_eq!(found.first(), Some(&(machine.to_string(), cpu.to_string())), "{text}: {found:?}");
        for (m, _) in &found {
            assert_eq!(catalog().machine(m).unwrap().kind, Kind::Cpu, "{text}: {m}");
        }
    }
    // The 7950X's other machine: the DDR5-6000 EXPO configuration that names it.
    assert!(cpu_results("7950x").contains(&("ddr5-6000-2ch".into(), "ryzen-9-7950x".into())));
    // A board of another maker at the same memory is not offered: a Threadripper PRO 9995WX is
    // on its own 8-channel DDR5-6400 row, not the Xeon 6 one.
    let tr = cpu_results("9995wx");
    assert_eq!(
        tr,
        [(
            "threadripper-pro-9000wx-ddr5-6400-8ch".to_string(),
            "threadripper-pro-9995wx".to_string()
        )]
    );
    assert!(cpu_results("").is_empty() && cpu_results("mac studio m2").is_empty());
}

#[test]
fn the_headline_names_a_cpu_machines_cpu() {
    let cat = catalog();
    let title = |query: &str| {
        let (s, _) = Scenario::from_query(query);
        views::scenario_title(&s.resolve(cat).unwrap(), &s, cat)
    };
    // Chosen by the search: the machine and the CPU typed.
    assert!(
        title("hw=ddr5-5200-2ch&cpu=ryzen-9-7950x").starts_with("Desktop DDR5-5200, dual channel (CPU) with AMD Ryzen 9 7950X · "),
        "{}",
        title("hw=ddr5-5200-2ch&cpu=ryzen-9-7950x")
    );
    // A CPU machine alone: the CPU it is given in the catalog.
    assert!(
        title("hw=ddr5-5600-2ch").contains("(CPU) with AMD Ryzen 9 9950X · "),
        "{}",
        title("hw=ddr5-5600-2ch")
    );
    // A chip with its memory soldered beside it is named by its own row; with another CPU, both.
    assert!(!title("hw=raspberry-pi-5").contains(" with "), "{}", title("hw=raspberry-pi-5"));
    assert!(title("hw=m2-max-cpu&cpu=apple-m3-max-cpu").contains(" with Apple M3 Max (CPU cluster) · "));
    // A GPU's host CPU is not what the GPU is; an assumed CPU is said in a note, not the title.
    assert!(!title("hw=rtx-4090&cpu=ryzen-9-7950x").contains(" with "));
    assert!(
        !title("bw=90&kind=cpu&mem=64").contains(" with "),
        "{}",
        title("bw=90&kind=cpu&mem=64")
    );
}

#[test]
fn machine_words_stay_together_and_a_size_is_also_a_word_of_the_name() {
    // "core ultra 9" is an Intel part: not an Apple Ultra with a "76-core GPU" and 192 GB.
    let found = catalog().search_machines("core ultra 9");
    assert!(
        found.iter().all(|m| m.name.contains("Core Ultra 9")),
        "{:?}",
        found.iter().map(|m| &m.name).collect::<Vec<_>>()
    );
    assert!(cpu_results("core ultra 9").contains(&("ddr5-6400-2ch".to_string(), "core-ultra-9-285k".to_string())));
    // Gemma 3 4B has 3.88 billion parameters, 3% under its name's 4B.
    rank("gemma 4b", "gemma-3-4b");
}

/// The names of what a machine search finds.
fn machine_names(text: &str) -> Vec<String> {
    catalog().search_machines(text).iter().map(|m| m.name.clone()).collect()
}

#[test]
fn long_tail_cards_are_found_by_the_names_people_type() {
    // Issue 43: each card named, by the way people write it; found in the long tail, marked so.
    for (text, name) in [
        ("gtx 1660", "NVIDIA GeForce GTX 1660 (6 GiB)"),
        ("GTX1660", "NVIDIA GeForce GTX 1660 (6 GiB)"),
        ("rx580", "AMD Radeon RX 580 (8 GiB)"),
        ("rx 580", "AMD Radeon RX 580 (8 GiB)"),
        ("rx 470", "AMD Radeon RX 470 (4 GiB)"),
        ("vega 56", "AMD Radeon RX Vega 56 (8 GiB)"),
        ("p4000", "NVIDIA Quadro P4000 (8 GiB)"),
        ("p5000", "NVIDIA Quadro P5000 (16 GiB)"),
        ("m40", "NVIDIA Tesla M40 (12 GiB)"),
        ("tesla m40 24", "NVIDIA Tesla M40 24 GB (24 GiB)"),
        ("980ti", "NVIDIA GeForce GTX 980 Ti (6 GiB)"),
        ("gtx 980 ti", "NVIDIA GeForce GTX 980 Ti (6 GiB)"),
    ] {
        let found = catalog().search_machines(text);
        let m = found
            .iter()
            .find(|m| m.name == name)
            .unwrap_or_else(|| panic!("{text:?} does not find {name}: {:?}", machine_names(text)));
        assert!(m.long_tail, "{name}");
        assert_eq!(catalog().machine(&m.id).map(|f| f.name.as_str()), Ok(name));
    }
}

#[test]
fn mobile_and_laptop_find_the_same_cards_either_way() {
    // TechPowerUp says "Mobile" or "Max-Q", the curated catalog "Laptop GPU": either word finds both.
    for text in ["gtx 1660 ti mobile", "gtx 1660 ti laptop", "GTX 1660 Ti Laptop GPU"] {
        let names = machine_names(text);
        for name in [
            "NVIDIA GeForce GTX 1660 Ti Mobile (6 GiB)",
            "NVIDIA GeForce GTX 1660 Ti Max-Q (6 GiB)",
        ] {
            assert!(names.iter().any(|n| n == name), "{text:?}: {names:?}");
        }
    }
    for text in ["rtx 3060 mobile", "rtx 3060 laptop"] {
        let found: Vec<&str> = catalog().search_machines(text).iter().map(|m| m.id.as_str()).collect();
        assert_eq!(found.first(), Some(&"rtx-3060-laptop"), "{text:?}: {found:?}");
    }
    // A laptop part named by its model number alone.
    assert!(machine_names("gtx 980m laptop")
        .iter()
        .any(|n| n == "NVIDIA GeForce GTX 980M (8 GiB)"));
    // The words do not find desktop cards.
    assert!(machine_names("gtx 1660 laptop")
        .iter()
        .all(|n| n.contains("Mobile") || n.contains("Max-Q")));
}

#[test]
fn the_curated_catalog_comes_first_and_blank_text_lists_only_it() {
    let cat = catalog();
    assert_eq!(cat.search_machines("").len(), cat.machines.len());
    let found = cat.search_machines("rtx 3060");
    let first_tail = found.iter().position(|m| m.long_tail).expect("a long-tail rtx 3060");
    assert!(found[..first_tail].iter().all(|m| !m.long_tail) && found[first_tail..].iter().all(|m| m.long_tail));
    // A card both catalogs have is listed once, as the curated entry.
    assert_eq!(
        found.iter().filter(|m| m.name.starts_with("NVIDIA GeForce RTX 3060 Ti (")).count(),
        1
    );
}
