//! What would make it faster: the seed's own cases, each lever's figure equal to the figure of the
//! scenario its link opens, and the CLI's JSON.

use std::process::Command;

use tokbound::catalog::catalog;
use tokbound::estimator::{estimate, Pool};
use tokbound::report::levers::{apply, headline_levers, levers, Figure, Lever};
use tokbound::scenario::Scenario;

fn of(query: &str) -> (Scenario, Vec<Lever>) {
    let (s, issues) = Scenario::from_query(query);
    assert!(issues.is_empty(), "{query}: {issues:?}");
    let l = levers(&s, catalog());
    assert!(!l.is_empty(), "{query}: no levers");
    (s, l)
}

fn find<'a>(levers: &'a [Lever], change: &str) -> &'a Lever {
    levers
        .iter()
        .find(|l| l.change_text().starts_with(change))
        .unwrap_or_else(|| panic!("no lever {change}: {:?}", levers.iter().map(Lever::change_text).collect::<Vec<_>>()))
}

/// Every lever's figure is what the headline of the link it produces shows, and they are ranked.
fn each_lever_opens_its_figure(s: &Scenario, levers: &[Lever]) {
    for l in levers {
        let link = apply(s, &l.change).expect("applies").to_query();
        let (opened, issues) = Scenario::from_query(&link);
        assert!(issues.is_empty(), "{link}");
        let e = estimate(&opened.resolve(catalog()).expect("resolves"));
        let shown = l.figure.of(&e).expect("the figure exists");
        assert!(
            (shown - l.expected_tok_s).abs() < 1e-9,
            "{}: {shown} vs {}",
            l.label,
            l.expected_tok_s
        );
    }
    assert!(levers.windows(2).all(|w| w[0].ratio >= w[1].ratio), "ranked by ratio");
}

#[test]
fn a_32b_on_dual_channel_ddr5_gains_from_channels_in_proportion() {
    let (s, l) = of("hw=ddr5-5600-2ch&model=qwen2.5-32b");
    each_lever_opens_its_figure(&s, &l);
    // Every byte is in system RAM: twice the channels nearly doubles it, and the quad-channel
    // preset's CPU (a Threadripper) streams at the x86 servers' rate where the dual-channel one's
    // (a Ryzen) streams at the desktops'.
    let channels = find(&l, "hw=ddr5-5600-4ch");
    let cal = tokbound::catalog::calibration();
    let rate = |f| cal.cpu_stream_for(f).map_or(1.0, |(m, _)| m);
    let platform = rate(tokbound::estimator::CpuFamily::X86Desktop) / rate(tokbound::estimator::CpuFamily::X86Server);
    assert!(
        channels.ratio > 1.8 && channels.ratio <= 2.0 * platform.max(1.0),
        "{} (platforms {platform})",
        channels.ratio
    );
    assert!(channels.label.starts_with("more memory channels"));
    assert!(
        channels.cost.contains("4 channels") && channels.cost.contains("CPU:"),
        "{}",
        channels.cost
    );
    let lower = l
        .iter()
        .find(|x| x.label.starts_with("a lower-bit format"))
        .expect("a lower format");
    assert!(lower.ratio > 1.0 && lower.cost.contains("bits per weight"));
}

#[test]
fn experts_in_ram_with_vram_to_spare_move_the_later_layers_experts_to_the_gpu() {
    // gpt-oss-120b on a 24 GiB card: every expert in RAM leaves VRAM nearly empty; the lever keeps
    // the fewest first layers' experts in RAM that lets the rest fit.
    let (s, l) = of("hw=rtx-4090&model=gpt-oss-120b&offload=experts&ram_bw=96&ram=128");
    each_lever_opens_its_figure(&s, &l);
    let lever = find(&l, "cpu_moe=");
    let n: u32 = lever.change_text()["cpu_moe=".len()..].parse().unwrap();
    assert!(n > 0 && n < 36, "{n}");
    assert!(lever.ratio > 1.2 && lever.fits == Some(true), "{}", lever.ratio);
    assert!(lever.note.contains(&format!("--n-cpu-moe {n}")), "{}", lever.note);
    // It leaves the runtime room: VRAM is at most 95% full, and one layer fewer in RAM would take
    // it past that.
    let vram = |query: &Scenario| {
        let e = estimate(&query.resolve(catalog()).unwrap());
        let p = e.pools.iter().find(|p| p.pool == Pool::Vram).unwrap().clone();
        p.needed_bytes / p.capacity_bytes.unwrap()
    };
    let chosen = apply(&s, &lever.change).unwrap();
    assert!(vram(&chosen) <= 0.95, "{}", vram(&chosen));
    let fewer = apply(&s, &[(tokbound::scenario::Key::CpuMoe, (n - 1).to_string())]).unwrap();
    assert!(vram(&fewer) > 0.95, "{}", vram(&fewer));
    // A model that fits whole: the lever is to keep every expert in VRAM.
    let (s, l) = of("hw=rtx-4090&model=qwen3-30b-a3b&offload=experts&ram_bw=100");
    each_lever_opens_its_figure(&s, &l);
    let all = find(&l, "offload=&cpu_moe=");
    assert!(all.label.starts_with("every expert in VRAM") && all.ratio > 2.0, "{}", all.label);
}

#[test]
fn experts_in_ram_gain_from_ram_channels_and_nothing_from_a_faster_gpu() {
    let (s, l) = of("hw=rtx-4090&model=kimi-k2&offload=experts&ram_bw=80&ram=768");
    each_lever_opens_its_figure(&s, &l);
    let channels = find(&l, "ram_bw=160");
    assert!(channels.ratio > 1.8, "{}", channels.ratio);
    let gpu = find(&l, "bw=2016");
    assert!(gpu.ratio < 1.05 && gpu.label.starts_with("a faster GPU: no gain"), "{}", gpu.label);
    assert!(gpu.label.contains("% of this token's time is reading system RAM"));
}

#[test]
fn a_lever_that_changes_the_machine_re_decides_the_placement_for_it() {
    // Experts in RAM on a 12 GB card: a machine or a second card that holds it all puts it all in
    // VRAM, so the offload asked for on the small card does not ride along.
    let (s, with) = of("hw=rtx-3060-12g&model=qwen3-30b-a3b&offload=experts");
    each_lever_opens_its_figure(&s, &with);
    let (_, without) = of("hw=rtx-3060-12g&model=qwen3-30b-a3b");
    let cheapest = |l: &[Lever]| {
        l.iter()
            .find(|x| x.label.starts_with("the cheapest machine"))
            .map(|x| (x.change.iter().find(|(k, _)| k.name() == "hw").unwrap().1.clone(), x.expected_tok_s))
            .unwrap()
    };
    assert_eq!(cheapest(&with), cheapest(&without));
    let second = find(&with, "with=rtx-3060-12g");
    // All in VRAM over two cards, though a split pass pays its fixed costs more than once.
    assert!(second.ratio > 1.5, "{}", second.ratio);
    assert!((second.expected_tok_s - find(&without, "with=rtx-3060-12g").expected_tok_s).abs() < 1e-9);
    // The change says what it clears, so its keys open the same scenario.
    assert!(second.change_text().contains("offload="), "{}", second.change_text());
}

#[test]
fn levers_name_the_pool_that_binds_and_offer_the_ram_that_stops_disk_reads() {
    // DeepSeek R1 with its experts in 256 GiB of RAM: most of the token's time is the disk.
    let (s, l) = of("hw=rtx-4090&model=deepseek-r1&offload=experts&ram=256&ram_bw=307.2");
    each_lever_opens_its_figure(&s, &l);
    let gpu = find(&l, "bw=2016");
    assert!(gpu.label.contains("reading the disk"), "{}", gpu.label);
    let ram = find(&l, "ram=");
    assert!(
        ram.ratio > 5.0 && ram.label.contains("no weight is read from disk"),
        "{}",
        ram.label
    );
    let e = estimate(&apply(&s, &ram.change).unwrap().resolve(catalog()).unwrap());
    assert!(e.pools.iter().all(|p| p.pool != Pool::Disk));
    // RAM's speed is no lever while the disk binds, and nothing offered gains nothing.
    assert!(!l.iter().any(|x| x.change_text().starts_with("ram_bw=")), "{l:?}");
    for x in &l {
        let explains = x.label.starts_with("a faster GPU") || x.label.starts_with("a shorter context");
        assert!(x.alternative || x.ratio >= 1.01 || explains, "{}: {}", x.label, x.ratio);
    }
}

#[test]
fn a_change_that_costs_speed_is_an_alternative_never_a_lever() {
    for query in ["hw=ddr5-5600-2ch&model=llama-3.1-8b", "hw=rtx-4090&model=qwen2.5-32b"] {
        let (s, l) = of(query);
        each_lever_opens_its_figure(&s, &l);
        assert!(l.iter().any(|x| x.alternative), "{query}: no alternative");
        for x in &l {
            assert_eq!(x.alternative, x.ratio < 1.0, "{query}: {} ×{}", x.label, x.ratio);
        }
    }
    let (_, l) = of("hw=ddr5-5600-2ch&model=llama-3.1-8b");
    assert!(find(&l, "hw=raspberry-pi-5").alternative);
    let (_, l) = of("hw=rtx-4090&model=qwen2.5-32b");
    assert!(find(&l, "hw=rx-7900-xtx").alternative);
}

#[test]
fn a_spilled_70b_on_a_24gb_card_has_a_lower_format_a_second_card_and_a_bigger_machine() {
    let (s, l) = of("hw=rtx-4090&model=llama-3.1-70b");
    each_lever_opens_its_figure(&s, &l);
    let lower = l
        .iter()
        .find(|x| x.label.starts_with("a lower-bit format"))
        .expect("a lower format");
    assert_eq!(lower.fits, Some(true));
    assert!(lower.ratio > 2.0);
    let second = find(&l, "with=rtx-4090");
    assert!(second.ratio > 2.0 && second.fits == Some(true) && second.cost.contains('$'));
    let bigger = l
        .iter()
        .find(|x| x.label.starts_with("the cheapest machine"))
        .expect("a machine that holds it");
    assert!(bigger.fits == Some(true) && bigger.cost.contains("at launch"));
    // A mixture of experts that spills offers its experts in RAM instead of whole layers.
    let (s, l) = of("hw=rtx-4090&model=qwen3-235b-a22b&ram=256");
    each_lever_opens_its_figure(&s, &l);
    assert!(find(&l, "offload=experts").ratio > 1.0);
}

#[test]
fn speculative_and_serving_levers_name_their_figure() {
    let (s, l) = of("hw=rtx-4090&model=qwen2.5-32b");
    each_lever_opens_its_figure(&s, &l);
    assert_eq!(find(&l, "draft=").figure.id(), "speculative");
    assert_eq!(find(&l, "batch=").figure.id(), "aggregate");
    // A context that costs little says so rather than promising a gain.
    let ctx = find(&l, "ctx=");
    assert!(ctx.ratio >= 1.25 || ctx.label.contains("little gain"), "{}", ctx.label);
}

#[test]
fn the_cli_prints_the_levers_as_json() {
    let out = Command::new(env!("CARGO_BIN_EXE_tokbound"))
        .args(["levers", "hw=ddr5-5600-2ch&model=qwen2.5-32b"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = v["levers"].as_array().unwrap();
    assert!(rows.len() >= 5);
    for r in rows {
        for field in [
            "change",
            "label",
            "expected_tok_s",
            "figure",
            "ratio",
            "fits",
            "cost",
            "note",
            "alternative",
        ] {
            assert!(r.as_object().unwrap().contains_key(field), "{field}: {r}");
        }
        assert_eq!(r["alternative"].as_bool(), Some(r["ratio"].as_f64().unwrap() < 1.0), "{r}");
    }
    // --text: a line per lever, the alternatives apart under their own heading.
    let text = Command::new(env!("CARGO_BIN_EXE_tokbound"))
        .args(["levers", "hw=ddr5-5600-2ch&model=llama-3.1-8b", "--text"])
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(!text.trim_start().starts_with('{'), "{text}");
    let (levers, alternatives) = text.split_once("Alternatives that cost speed:").expect("a heading");
    assert!(
        levers.contains("more memory channels") && alternatives.contains("Raspberry Pi 5"),
        "{text}"
    );
    let ratios: Vec<f64> = rows.iter().map(|r| r["ratio"].as_f64().unwrap()).collect();
    assert!(ratios.windows(2).all(|w| w[0] >= w[1]));
    let bad = Command::new(env!("CARGO_BIN_EXE_tokbound"))
        .args(["levers", "hw=no-such"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn format_levers_offer_only_formats_the_model_comes_in_and_the_engine_loads() {
    // Ternary formats are for ternary-trained models: never offered to Qwen3 30B-A3B.
    for query in [
        "hw=rtx-3060-12g&model=qwen3-30b-a3b",
        "hw=rtx-4090&model=llama-3.1-70b",
        "hw=rtx-4090&model=llama-3.1-70b&quant=iq2_xxs",
    ] {
        let (_, l) = of(query);
        assert!(!l.iter().any(|x| x.change_text().contains("quant=tq")), "{query}: {l:?}");
    }
    // Below Q3_K_S the next format is IQ3_XS, which ktransformers does not load: it is skipped.
    let (_, l) = of("hw=rtx-4090&model=qwen2.5-32b&quant=q3_k_s&engine=ktransformers");
    let lower = l
        .iter()
        .find(|x| x.label.starts_with("a lower-bit format"))
        .expect("a lower format");
    let id = &lower.change_text()["quant=".len()..];
    assert!(catalog().quant(id).unwrap().runs_on_engine("ktransformers"), "{id}");
    assert_eq!(id, "q2_k");
    let (_, l) = of("hw=rtx-4090&model=qwen2.5-32b&quant=q3_k_s");
    assert!(find(&l, "quant=iq3_xs").label.starts_with("a lower-bit format"));
}

#[test]
fn the_headline_takes_one_or_two_levers_that_make_this_stream_faster_what_fits_first() {
    // A CPU machine: serving a batch gains most in all, but not for the one reading; the headline
    // takes the best changes for a single stream.
    let (_, l) = of("hw=ddr5-5600-2ch&model=llama-3.1-8b");
    assert_eq!(l[0].figure, Figure::Aggregate, "serving leads the section here");
    let h = headline_levers(&l);
    assert_eq!(h.len(), 2);
    assert!(h[0].label.starts_with("more memory channels"), "{}", h[0].label);
    assert!(h.iter().all(|x| !x.alternative && x.ratio > 1.0 && x.figure != Figure::Aggregate));
    let best = l
        .iter()
        .filter(|x| x.figure != Figure::Aggregate)
        .map(|x| x.ratio)
        .fold(0.0, f64::max);
    assert_eq!(h[0].ratio, best);

    // A model that does not fit its card: the first is a change after which it fits (what would
    // run), though a faster card that still spills gains more.
    let (s, l) = of("hw=rtx-3060-12g&model=qwen2.5-14b&quant=q6_k");
    assert_eq!(estimate(&s.resolve(catalog()).unwrap()).fits, Some(false));
    let h = headline_levers(&l);
    assert!(!h.is_empty() && h.len() <= 2);
    assert_eq!(h[0].fits, Some(true), "{}", h[0].label);
    assert!(h[0].ratio > 1.0 && !h[0].alternative);
    let top = l.iter().filter(|x| !x.alternative).map(|x| x.ratio).fold(0.0, f64::max);
    assert!(top > h[0].ratio, "a lever that does not fit gains more, and comes second at best");

    // Nothing faster: nothing with the headline (alternatives never go there).
    let only_slower: Vec<Lever> = l.iter().filter(|x| x.alternative).cloned().collect();
    assert!(!only_slower.is_empty());
    assert!(headline_levers(&only_slower).is_empty());
}
