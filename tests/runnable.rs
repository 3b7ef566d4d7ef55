//! What can I run: the model table's format search, its filter and order, and how far a target
//! speed reaches.

use tokbound::catalog::catalog;
use tokbound::estimator::{estimate, memory_fit, WeightSpec};
use tokbound::report::runnable::{self, Held, ModelColumn, GGUF_LADDER};
use tokbound::scenario::Scenario;

fn rows(query: &str) -> Vec<runnable::ModelRow> {
    let (s, issues) = Scenario::from_query(query);
    assert!(issues.is_empty(), "{issues:?}");
    runnable::model_rows(&s, catalog())
}

fn row<'a>(rows: &'a [runnable::ModelRow], id: &str) -> &'a runnable::ModelRow {
    rows.iter().find(|r| r.id == id).unwrap_or_else(|| panic!("no row for {id}"))
}

#[test]
fn every_model_gets_the_highest_format_that_fits_and_no_higher() {
    let query = "hw=rtx-4090&ctx=8192";
    let table = rows(query);
    let cat = catalog();
    assert_eq!(table.len(), cat.models.len());
    let (s, _) = Scenario::from_query(query);
    for r in &table {
        let ladder_pos = GGUF_LADDER.iter().position(|q| *q == r.quant).unwrap();
        let mut inputs = runnable::with_model(&s, &r.id).resolve(cat).unwrap();
        let q = cat.quant(r.quant).unwrap();
        inputs.weights = WeightSpec::Bits {
            bpw: q.bpw,
            other_bpw: q.other_bpw,
        };
        inputs.placement.expert_offload = r.held == Held::ExpertsInRam;
        let e = estimate(&inputs);
        // The row's figures are the full estimate's at that format.
        assert!((e.expected_tok_s - r.expected).abs() < 1e-9 * r.expected.max(1.0), "{}", r.id);
        match r.held {
            Held::Fits | Held::ExpertsInRam => {
                assert_eq!(e.fits, Some(true), "{} at {}", r.id, r.quant);
                // The next format up does not fit the same way.
                if let Some(up) = GGUF_LADDER.get(ladder_pos + 1) {
                    let q = cat.quant(up).unwrap();
                    inputs.weights = WeightSpec::Bits {
                        bpw: q.bpw,
                        other_bpw: q.other_bpw,
                    };
                    assert_eq!(memory_fit(&inputs).0, Some(false), "{} would fit at {up}", r.id);
                }
            }
            Held::DoesNotFit => {
                assert_eq!(r.quant, GGUF_LADDER[0], "{}: the smallest is shown", r.id);
                assert_eq!(r.fitting_quant(), None);
                assert_eq!(e.fits, Some(false));
            }
            Held::Unknown => panic!("a 4090's memory is known"),
        }
    }
    assert_eq!(row(&table, "llama-3.1-8b").quant, "f16");
    assert_eq!(row(&table, "llama-3.1-70b").held, Held::DoesNotFit);
    assert!(table.iter().filter(|r| r.held == Held::Fits).count() > 30);
}

#[test]
fn a_mixture_of_experts_that_misses_vram_tries_its_experts_in_ram() {
    let table = rows("hw=rtx-5090&model=gpt-oss-120b");
    let r = row(&table, "gpt-oss-120b");
    assert_eq!(r.held, Held::ExpertsInRam);
    assert!(r.current);
    // Less system RAM: a smaller format, or none.
    let small = rows("hw=rtx-5090&ram=32");
    let s = row(&small, "gpt-oss-120b");
    assert!(s.held == Held::DoesNotFit || s.bpw < r.bpw, "{s:?}");
    // A dense model does not: it fits or it does not.
    assert!(table
        .iter()
        .filter(|r| r.held == Held::ExpertsInRam)
        .all(|r| catalog().model(&r.id).unwrap().arch.is_moe()));
}

#[test]
fn apple_machines_try_mlx_formats_and_an_unknown_memory_says_so() {
    let mlx = rows("hw=m4-max-40c&backend=mlx");
    assert!(mlx.iter().any(|r| r.quant.starts_with("mlx-")), "MLX formats on an MLX Mac");
    let metal = rows("hw=m4-max-40c");
    // At equal bits a llama.cpp Mac gets the GGUF.
    assert_eq!(row(&metal, "llama-3.1-8b").quant, "f16");
    assert!(rows("hw=rtx-4090").iter().all(|r| !r.quant.starts_with("mlx-")));
    let unknown = rows("bw=500&kind=gpu");
    assert!(unknown.iter().all(|r| r.held == Held::Unknown && r.quant == "f16"));
}

#[test]
fn the_filter_hides_slow_models_and_the_order_follows_the_column() {
    let table = rows("hw=rtx-4090");
    let all = runnable::model_order(&table, 0.0, ModelColumn::Expected, false);
    assert_eq!(all.len(), table.len());
    assert!(all.windows(2).all(|w| table[w[0]].expected >= table[w[1]].expected));
    let fast = runnable::model_order(&table, 100.0, ModelColumn::Model, true);
    assert!(!fast.is_empty() && fast.len() < table.len());
    assert!(fast.iter().all(|&i| table[i].expected >= 100.0));
    let names: Vec<String> = fast.iter().map(|&i| table[i].name.to_ascii_lowercase()).collect();
    assert!(names.windows(2).all(|w| w[0] <= w[1]));
    let by_fit = runnable::model_order(&table, 0.0, ModelColumn::Fits, false);
    assert_eq!(table[by_fit[0]].held, Held::Fits);
    assert_eq!(table[*by_fit.last().unwrap()].held, Held::DoesNotFit);
}

#[test]
fn the_model_csv_reads_back() {
    let table = rows("hw=rtx-3090");
    let text = runnable::model_rows_csv(&table);
    let (header, records) = tokbound::catalog::csv::parse(&text).unwrap();
    assert_eq!(header[0], "id");
    assert_eq!(records.len(), table.len());
    assert_eq!(records[0].1[0], table[0].id);
    // Speeds as exact as the other tables' exports: each reads back to the row's figure.
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    for ((_, fields), row) in records.iter().zip(&table) {
        assert_eq!(fields[col("ceiling_tok_s")].parse::<f64>().unwrap(), row.ceiling);
        assert_eq!(fields[col("expected_tok_s")].parse::<f64>().unwrap(), row.expected);
    }
}

#[test]
fn a_target_finds_the_best_format_and_the_longest_context_that_reach_it() {
    let cat = catalog();
    let (s, _) = Scenario::from_query("hw=rtx-4090&model=qwen3-32b&quant=q4_k_m&ctx=4096&target=35");
    let inputs = s.resolve(cat).unwrap();
    let reach = runnable::target_reach(&inputs, cat, inputs.machine.kind, s.backend(cat), 35.0);
    let best = reach.best_format.clone().expect("some format reaches 35 tok/s");
    let ladder = runnable::ladder(cat, inputs.machine.kind, s.backend(cat));
    let pos = ladder.iter().position(|(id, ..)| cat.quant(id).unwrap().name == best).unwrap();
    let at = |i: usize| {
        let mut x = inputs.clone();
        x.weights = WeightSpec::Bits {
            bpw: ladder[i].1,
            other_bpw: ladder[i].2,
        };
        let e = estimate(&x);
        e.fits == Some(true) && e.expected_tok_s >= 35.0
    };
    assert!(at(pos), "{best} reaches the target");
    assert!((0..pos).all(|i| !at(i)), "no higher format does");
    let longest = reach.longest_context.unwrap();
    let with_ctx = |c: f64| {
        let mut x = inputs.clone();
        x.context = c;
        let e = estimate(&x);
        e.fits == Some(true) && e.expected_tok_s >= 35.0
    };
    assert!(with_ctx(longest));
    assert!(!with_ctx(longest + 512.0));
    let text = runnable::target_text(&reach, "Q4_K_M", 4096.0);
    assert!(text.contains(&best) && text.contains(&format!("{longest:.0} tokens")), "{text}");
    // Out of reach: said so.
    let far = runnable::target_reach(&inputs, cat, inputs.machine.kind, s.backend(cat), 5000.0);
    assert_eq!((far.best_format.as_deref(), far.longest_context), (None, None));
    assert!(runnable::target_text(&far, "Q4_K_M", 4096.0).starts_with("No format reaches 5000"));
}

#[test]
fn machines_meet_a_target_when_they_fit_and_are_fast_enough() {
    let (s, _) = Scenario::from_query("model=qwen3-32b&quant=q4_k_m&target=30");
    let rows = tokbound::report::views::machine_rows(&s, catalog());
    assert!(rows.iter().all(|r| r.meets == Some(r.fits == Some(true) && r.expected >= 30.0)));
    assert!(rows.iter().any(|r| r.meets == Some(true)) && rows.iter().any(|r| r.meets == Some(false)));
    let (plain, _) = Scenario::from_query("model=qwen3-32b&quant=q4_k_m");
    assert!(tokbound::report::views::machine_rows(&plain, catalog())
        .iter()
        .all(|r| r.meets.is_none()));
    // Prices where the catalog has them; the cheapest that meets it is a sort away.
    assert!(rows.iter().any(|r| r.price_usd.is_some()));
}

#[test]
fn choosing_a_row_sets_its_model_and_format_and_drops_a_custom_model() {
    let (mut s, _) = Scenario::from_query("hw=rtx-4090&params=7&layers=32&weights=4GB&bpw=5");
    runnable::choose(&mut s, "qwen3-8b", "q6_k");
    assert_eq!(s.to_query(), "v=1&model=qwen3-8b&quant=q6_k");
}

#[test]
fn a_chosen_format_follows_the_model() {
    let cat = catalog();
    let (mut s, _) = Scenario::from_query("hw=rtx-4090");
    // F16 fits a 270M model; chosen from the model table, it stands.
    runnable::choose(&mut s, "gemma-3-270m", "f16");
    assert_eq!(s.text(tokbound::scenario::Key::Quant), Some("f16"));
    // A 70B model fits 24 GB in no format: its usual one, with a note.
    let note = runnable::choose_following_format(&mut s, cat, "llama-3.3-70b").expect("a note");
    assert_eq!(s.text(tokbound::scenario::Key::Quant), None, "{note}");
    assert!(
        note.starts_with("No format of Llama 3.3 70B Instruct fits entirely here, so the format is now Q4_K_M"),
        "{note}"
    );
    // On a 128 GB Mac, F16 (140 GB) does not fit but Q4_K_M does.
    let (mut s, _) = Scenario::from_query("hw=m3-max-40c");
    runnable::choose(&mut s, "gemma-3-270m", "f16");
    let note = runnable::choose_following_format(&mut s, cat, "llama-3.3-70b").expect("a note");
    assert!(
        note.starts_with("F16 does not fit Llama 3.3 70B Instruct here, so the format is now Q4_K_M"),
        "{note}"
    );
    assert_eq!(memory_fit(&s.resolve(cat).unwrap()).0, Some(true));
    // gpt-oss comes in MXFP4, its native format, not a K-quant.
    let note = runnable::choose_following_format(&mut s, cat, "gpt-oss-20b").expect("a note");
    assert_eq!(s.text(tokbound::scenario::Key::Quant), Some("mxfp4"), "{note}");
    // And MXFP4 is not a format other models come in.
    let note = runnable::choose_following_format(&mut s, cat, "qwen2.5-7b").expect("a note");
    assert_eq!(s.text(tokbound::scenario::Key::Quant), None, "back to the default: {note}");
    // A format that exists and fits stays, without a note.
    s.put(tokbound::scenario::Key::Quant, tokbound::scenario::Value::Text("q8_0".into()));
    assert_eq!(runnable::choose_following_format(&mut s, cat, "llama-3.1-8b"), None);
    assert_eq!(s.text(tokbound::scenario::Key::Quant), Some("q8_0"));
}
