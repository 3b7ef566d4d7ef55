//! The scenario codec: every field round-trips through a URL, and nothing in a URL can panic.

use proptest::option;
use proptest::prelude::*;
use tokbound::catalog::{catalog, Kind};
use tokbound::scenario::keys::{Scope, KEYS};
use tokbound::scenario::{Key, Scenario, Size, SizeUnit, Value, ValueKind};

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

/// A valid value for a key, of the kind its table entry says.
fn value_of(kind: ValueKind) -> BoxedStrategy<Value> {
    match kind {
        ValueKind::Version => Just(Value::Text("1".into())).boxed(),
        ValueKind::Id => id().prop_map(Value::Text).boxed(),
        ValueKind::Positive { min, max } => (min..max).prop_map(Value::Number).boxed(),
        ValueKind::Share { min, max } => (min..=max).prop_map(Value::Number).boxed(),
        ValueKind::Whole { min, max } | ValueKind::Tokens { min, max } => (min..=max).prop_map(Value::Whole).boxed(),
        ValueKind::Size => size().prop_map(Value::Size).boxed(),
        ValueKind::Kind => prop::sample::select(Kind::ALL.to_vec()).prop_map(Value::Kind).boxed(),
        ValueKind::Choice(words) => prop::sample::select(words.to_vec()).prop_map(|w| Value::Text(w.into())).boxed(),
        ValueKind::Flag => any::<bool>().prop_map(Value::Flag).boxed(),
        ValueKind::Calibration => (id(), 0.01f64..=1.0, 0.0f64..1000.0, 0.05f64..2.0)
            .prop_map(|(m, e, l, b)| Value::Text(format!("{m}~{e}~{l}~{b}")))
            .boxed(),
        ValueKind::HubSource => (
            "[A-Za-z0-9][A-Za-z0-9_-]{0,8}(\\.[A-Za-z0-9_-]{1,4})?",
            "[A-Za-z0-9][A-Za-z0-9_-]{0,8}(\\.[A-Za-z0-9_-]{1,4})?",
            option::of("[A-Za-z0-9][A-Za-z0-9_-]{0,11}"),
        )
            .prop_map(|(org, name, file)| Value::Text(file.map_or(format!("{org}/{name}"), |f| format!("{org}/{name}/{f}.gguf"))))
            .boxed(),
        ValueKind::IdList => prop::collection::vec(id(), 1..3).prop_map(Value::List).boxed(),
        ValueKind::Ratios => prop::collection::vec(1u32..100, 1..4)
            .prop_map(|v| Value::List(v.into_iter().map(|n| n.to_string()).collect()))
            .boxed(),
        ValueKind::List(words) => prop::sample::subsequence(words.to_vec(), 0..words.len())
            .prop_map(|l| Value::List(l.into_iter().map(str::to_string).collect()))
            .boxed(),
    }
}

/// Any scenario: every scenario key of the table, each given or not.
fn scenario() -> impl Strategy<Value = Scenario> {
    let keys: Vec<_> = KEYS.iter().filter(|k| k.scope() == Scope::Scenario && k.key != Key::V).collect();
    keys.into_iter()
        .map(|k| option::of(value_of(k.value)).prop_map(move |v| (k.key, v)))
        .collect::<Vec<_>>()
        .prop_map(|pairs| {
            let mut s = Scenario::default();
            for (k, v) in pairs {
                if let Some(v) = v {
                    s.put(k, v);
                }
            }
            s
        })
}

/// Defaults are left out of links, so compare what the two scenarios mean: their full key lists
/// with default values filled in.
fn meaning(s: &Scenario) -> Vec<(Key, String)> {
    let cat = catalog();
    let mut pairs = s.pairs();
    for spec in KEYS.iter().filter(|k| k.link_default.is_some()) {
        let key = spec.key;
        if !pairs.iter().any(|(k, _)| *k == key) {
            let skip = (key == Key::Hw && s.has(Key::Bw)) || (key == Key::Model && s.has_custom_model_keys());
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
        // Kept with its defaults, a scenario reads back with the same keys set.
        let (whole, issues) = Scenario::from_query(&s.to_query_with_defaults());
        prop_assert!(issues.is_empty(), "{issues:?}");
        prop_assert_eq!(whole.pairs(), s.pairs());
    }

    #[test]
    fn any_query_string_parses_without_panicking(q in ".{0,200}") {
        let (s, _) = Scenario::from_query(&q);
        let _ = s.resolve(catalog());
        let _ = s.to_query();
    }

    #[test]
    fn any_value_for_any_key_is_accepted_or_reported(key in prop::sample::select(Key::all().collect::<Vec<_>>()), value in ".{0,40}") {
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
    let (s, _) = Scenario::from_query("?hw=rtx-4090&ctx=8192");
    assert_eq!(s.to_query(), "v=1&ctx=8192");
    assert_eq!(s.to_query_with_defaults(), "v=1&hw=rtx-4090&ctx=8192");
}

#[test]
fn unknown_keys_are_ignored_and_markup_stays_text() {
    let (s, issues) = Scenario::from_query("utm_source=x&hw=%3Cscript%3Ealert(1)%3C%2Fscript%3E");
    assert_eq!(s.text(Key::Hw), None);
    assert_eq!(issues.len(), 1);
    assert!(
        issues[0].problem.starts_with("\"<script>alert(1)</script>\" is not a catalog id"),
        "{}",
        issues[0]
    );
}

/// docs/scenario.md's key tables, as (key, meaning, unit, default) rows.
fn documented_keys() -> Vec<(String, String, String, String)> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/scenario.md")).unwrap();
    text.lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<String> = l.trim().trim_matches('|').split('|').map(|c| c.trim().to_string()).collect();
            assert_eq!(cells.len(), 4, "a key row has four cells: {l}");
            (
                cells[0].trim_matches('`').to_string(),
                cells[1].clone(),
                cells[2].clone(),
                cells[3].clone(),
            )
        })
        .collect()
}

/// The docs row the key table asks for.
fn row_of(k: &tokbound::scenario::keys::KeySpec) -> String {
    k.docs_row()
}

#[test]
fn docs_scenario_md_lists_every_key_as_the_table_defines_it() {
    let documented = documented_keys();
    let names: Vec<&str> = documented.iter().map(|d| d.0.as_str()).collect();
    for k in KEYS {
        let Some(d) = documented.iter().find(|d| d.0 == k.name) else {
            panic!("docs/scenario.md lacks `{}`; add this row:\n{}", k.name, row_of(k));
        };
        assert_eq!(
            (d.1.as_str(), d.2.as_str(), d.3.as_str()),
            (k.meaning, k.unit, k.default),
            "docs/scenario.md disagrees with the key table on `{}`; the table says:\n{}",
            k.name,
            row_of(k)
        );
    }
    for n in &names {
        assert!(
            Key::named(n).is_some(),
            "docs/scenario.md documents `{n}`, which the key table does not have"
        );
    }
    assert_eq!(names.len(), KEYS.len(), "each key documented once");
}

#[test]
fn each_default_and_word_is_defined_once() {
    use tokbound::calibration::{Backend, Vendor, BACKEND_IDS, VENDOR_IDS};
    use tokbound::scenario::{self as sc, Key};
    // The ids read back to their variants, in order.
    for (i, b) in Backend::ALL.into_iter().enumerate() {
        assert_eq!((b.id(), Backend::parse(BACKEND_IDS[i])), (BACKEND_IDS[i], Some(b)));
    }
    for id in VENDOR_IDS {
        assert_eq!(Vendor::parse(id).map(Vendor::id), Some(id));
    }
    // The numeric defaults the code uses are the ones links leave out.
    for (key, value) in [
        (Key::Ctx, sc::DEFAULT_CTX.to_string()),
        (Key::Prompt, sc::DEFAULT_PROMPT.to_string()),
        (Key::K, sc::DEFAULT_K.to_string()),
        (Key::Accept, sc::DEFAULT_ACCEPT.to_string()),
        (Key::Hw, sc::DEFAULT_HW.to_string()),
        (Key::Model, sc::DEFAULT_MODEL.to_string()),
        (Key::Quant, sc::DEFAULT_QUANT.to_string()),
        (Key::Kv, sc::DEFAULT_KV.to_string()),
    ] {
        assert_eq!(key.spec().link_default, Some(value.as_str()), "{}", key.name());
    }
}

#[test]
fn every_view_name_is_documented_where_people_read_it() {
    use tokbound::scenario::{Key, View, EMBED_VIEWS};
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let meaning = documented_keys().into_iter().find(|r| r.0 == "view").expect("a view row").1;
    for v in View::ALL {
        assert_eq!(EMBED_VIEWS[v as usize], v.id());
        assert_eq!(View::parse(v.id()), Some(v));
        if v != View::Headline {
            assert!(
                meaning.contains(&format!("`{}`", v.id())),
                "docs/scenario.md's view row lacks {}",
                v.id()
            );
            assert!(readme.contains(&format!("`{}`", v.id())), "README lacks the view {}", v.id());
        }
    }
    assert_eq!(Key::View.name(), "view");
}

#[test]
fn every_table_column_is_documented() {
    use tokbound::report::runnable::ModelColumn;
    use tokbound::report::views::Column;
    let testids = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/testids.md")).unwrap();
    let line = |hook: &str| {
        testids
            .lines()
            .find(|l| l.contains(hook))
            .unwrap_or_else(|| panic!("docs/testids.md lacks {hook}"))
            .to_string()
    };
    let machines = line("`sort-<column>`");
    for c in Column::ALL {
        assert!(
            machines.contains(&format!("`{}`", c.id())),
            "sort-{} is not in docs/testids.md",
            c.id()
        );
    }
    let models = line("`sort-model-<column>`");
    for c in ModelColumn::ALL {
        assert!(
            models.contains(&format!("`{}`", c.id())),
            "sort-model-{} is not in docs/testids.md",
            c.id()
        );
    }
}

#[test]
fn a_split_names_every_card_and_says_which_card_cannot_join() {
    use tokbound::report::views::scenario_title;
    let cat = catalog();
    let title = |q: &str| {
        let (s, _) = Scenario::from_query(q);
        scenario_title(&s.resolve(cat).unwrap(), &s, cat)
    };
    assert_eq!(
        title("hw=rtx-3090&with=rtx-3060-12g&model=qwen2.5-32b"),
        "RTX 3090 + RTX 3060 12GB · Qwen2.5 32B Instruct · Q4_K_M · 4K context"
    );
    assert!(title("hw=rtx-3090&with=rtx-3060-12g,rtx-4060-ti-16g").starts_with("RTX 3090 + RTX 3060 12GB + RTX 4060 Ti 16GB · "));
    // One card alone keeps its full name.
    assert!(title("hw=rtx-3090").starts_with("NVIDIA GeForce RTX 3090 (24 GiB) · "));
    // A card that cannot join names itself and what the cards could all run; the message is
    // about the card, not the key.
    let (s, _) = Scenario::from_query("hw=rtx-3090&with=rtx-3060-12g,rx-7900-xtx");
    assert!(s.split_device(cat, "rtx-3060-12g").is_ok());
    let e = s.split_device(cat, "rx-7900-xtx").unwrap_err();
    assert!(e.starts_with("AMD Radeon RX 7900 XTX") && e.ends_with("(vulkan)"), "{e}");
    assert!(!e.contains("with"), "{e}");
    assert_eq!(s.split_problem(cat), None);
    let (split, _) = Scenario::from_query("hw=rtx-3090&with=rtx-3060-12g&split=2");
    assert!(split.split_problem(cat).is_some_and(|p| p.contains("layer-split")));
    let (cpu, _) = Scenario::from_query("hw=ddr5-5600-2ch&with=rtx-3060-12g");
    assert!(cpu.split_problem(cat).is_some());
}

#[test]
fn cards_and_shares_edit_with_and_tensor_split_together() {
    let cat = catalog();
    let (mut s, _) = Scenario::from_query("hw=rtx-3090");
    s.add_card(cat, "rtx-3060-12g");
    assert_eq!(s.to_query(), "v=1&hw=rtx-3090&with=rtx-3060-12g");
    assert_eq!(s.split_memories(cat), vec![24.0, 12.0]);
    // One share given: the other card keeps its memory; both make tensor_split.
    s.set_share(cat, 0, "3").unwrap();
    assert_eq!(s.value_text(Key::TensorSplit).as_deref(), Some("3,12"));
    assert_eq!(s.share_text(1).as_deref(), Some("12"));
    // What is not a share leaves the scenario as it was.
    assert!(s.set_share(cat, 1, "abc").unwrap_err().starts_with("\"abc\""));
    assert!(s.set_share(cat, 1, "0").is_err());
    assert!(s.set_share(cat, 1, "1,2").is_err());
    assert_eq!(s.value_text(Key::TensorSplit).as_deref(), Some("3,12"));
    // A card added takes its memory as its share; one removed takes its share along.
    s.add_card(cat, "rtx-4060-ti-16g");
    assert_eq!(s.value_text(Key::TensorSplit).as_deref(), Some("3,12,16"));
    assert!(s.resolve(cat).is_ok());
    s.remove_card(0);
    assert_eq!(s.value_text(Key::With).as_deref(), Some("rtx-4060-ti-16g"));
    assert_eq!(s.value_text(Key::TensorSplit).as_deref(), Some("3,16"));
    s.set_card(0, "rtx-3060-12g");
    assert_eq!(s.value_text(Key::With).as_deref(), Some("rtx-3060-12g"));
    // Emptied back to its memory, the split is the default again.
    s.set_share(cat, 0, "").unwrap();
    s.set_share(cat, 1, "12").unwrap();
    assert_eq!(s.get(Key::TensorSplit), None);
    s.remove_card(0);
    assert_eq!(s.to_query(), "v=1&hw=rtx-3090");
}
