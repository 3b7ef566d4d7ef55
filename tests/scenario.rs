//! The scenario codec: every field round-trips through a URL, and nothing in a URL can panic.

use proptest::option;
use proptest::prelude::*;
use tokbound::catalog::{catalog, Kind};
use tokbound::scenario::{Scenario, Size, SizeUnit};

fn id() -> impl Strategy<Value = String> {
    "[a-z0-9][a-z0-9._-]{0,20}"
}

fn size() -> impl Strategy<Value = Size> {
    (
        0.001f64..1e5,
        prop_oneof![Just(SizeUnit::GB), Just(SizeUnit::GiB), Just(SizeUnit::MB), Just(SizeUnit::MiB)],
    )
        .prop_map(|(value, unit)| Size { value, unit })
}

fn scenario() -> impl Strategy<Value = Scenario> {
    let machine = (
        option::of(id()),
        option::of(0.01f64..1e5),
        option::of(0.01f64..1e5),
        option::of(prop_oneof![Just(Kind::Gpu), Just(Kind::Apple), Just(Kind::Soc), Just(Kind::Cpu)]),
        option::of(0.01f64..1e5),
        option::of(0.01f64..=1.0),
    );
    let model = (
        option::of(id()),
        option::of(0.01f64..1e5),
        option::of(0.01f64..1e5),
        option::of(1u32..1000),
        option::of(1u32..1024),
        option::of(1u32..4096),
    );
    let weights = (
        option::of(id()),
        option::of(0.5f64..64.0),
        option::of(size()),
        option::of(0u32..100_000_000),
        option::of(id()),
    );
    let placement = (
        option::of(0.0f64..=1.0),
        option::of(0.01f64..1e5),
        option::of(any::<bool>()),
        option::of(1u32..=64),
        option::of(1u32..=64),
        option::of(1u32..=4096),
    );
    let spec = (
        option::of(id()),
        option::of(size()),
        option::of(1u32..=32),
        option::of(0.0f64..=1.0),
        option::of(0u32..10_000_000),
    );
    (machine, model, weights, placement, spec).prop_map(|(m, md, w, p, sp)| Scenario {
        hw: m.0,
        bw: m.1,
        mem: m.2,
        kind: m.3,
        tflops: m.4,
        usable: m.5,
        model: md.0,
        params: md.1,
        active: md.2,
        layers: md.3,
        kv_heads: md.4,
        head_dim: md.5,
        quant: w.0,
        bpw: w.1,
        weights: w.2,
        ctx: w.3,
        kv: w.4,
        gpu_frac: p.0,
        ram_bw: p.1,
        offload_experts: p.2,
        tp: p.3,
        split: p.4,
        batch: p.5,
        draft: sp.0,
        draft_weights: sp.1,
        k: sp.2,
        accept: sp.3,
        prompt: sp.4,
    })
}

/// Defaults are left out of links, so compare what the two scenarios mean: their full key lists
/// with default values filled in.
fn meaning(s: &Scenario) -> Vec<(&'static str, String)> {
    let cat = catalog();
    let mut pairs = s.pairs();
    for key in ["hw", "model", "quant", "ctx", "kv", "tp", "split", "k", "accept", "prompt"] {
        if !pairs.iter().any(|(k, _)| *k == key) {
            let skip = (key == "hw" && s.bw.is_some()) || (key == "model" && s.has_custom_model_keys());
            if !skip {
                pairs.push((key, s.default_text(key, cat)));
            }
        }
    }
    pairs.sort();
    pairs
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn every_field_round_trips(s in scenario()) {
        let query = s.to_query();
        prop_assert!(query.starts_with("v=1"));
        let (back, issues) = Scenario::from_query(&query);
        prop_assert!(issues.is_empty(), "{query}: {issues:?}");
        prop_assert_eq!(meaning(&back), meaning(&s), "{}", query);
        prop_assert_eq!(back.to_query(), query);
    }

    #[test]
    fn any_query_string_parses_without_panicking(q in ".{0,200}") {
        let (s, _) = Scenario::from_query(&q);
        let _ = s.resolve(catalog());
        let _ = s.to_query();
    }

    #[test]
    fn any_value_for_any_key_is_accepted_or_reported(key in prop::sample::select(tokbound::scenario::KEYS.to_vec()), value in ".{0,40}") {
        let mut s = Scenario::default();
        match s.set(key, &value) {
            Ok(_) => {}
            Err(e) => prop_assert!(!e.is_empty()),
        }
    }
}

#[test]
fn the_seed_link_is_complete() {
    let (s, issues) = Scenario::from_query("?bw=1000&weights=19GB&ctx=0");
    assert!(issues.is_empty());
    assert_eq!(s.to_query(), "v=1&bw=1000&weights=19GB&ctx=0");
}

#[test]
fn unknown_keys_are_ignored_and_markup_stays_text() {
    let (s, issues) = Scenario::from_query("utm_source=x&hw=%3Cscript%3Ealert(1)%3C%2Fscript%3E");
    assert_eq!(s.hw, None);
    assert_eq!(issues.len(), 1);
    assert!(
        issues[0].problem.starts_with("\"<script>alert(1)</script>\" is not a catalog id"),
        "{}",
        issues[0]
    );
}
