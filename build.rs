//! The page's copies of the catalogs: the same rows with only the columns the page reads, so the
//! download does not carry the long provenance notes that the CLI (`tokbound catalog`) and the
//! files under `data/` keep. They are written one record a line with fields separated by the
//! ASCII unit separator (0x1F), which no catalog text contains, so the page splits them without
//! a CSV reader. The native build reads `data/` as it is. The CPU catalog's copy is cut in two:
//! the CPUs a machine names, which the page carries, and the rest (`cpus-longtail.csv`), which it
//! fetches when something asks for a CPU beyond them; the machines' sources are a file apart,
//! which only the app's part reads (docs/performance.md).

use std::collections::HashSet;

include!("src/catalog/methods.rs");
use std::path::Path;

/// Per catalog file, the columns the page reads (none listed: all of them).
const PAGE_COLUMNS: &[(&str, &[&str])] = &[
    (
        "machines.csv",
        &[
            "id",
            "name",
            "kind",
            "memory_gib",
            "bandwidth_gbs",
            "bus_bits",
            "data_rate_mts",
            "fp16_tflops",
            "usable_fraction",
            "backend",
            "price_usd",
            "backends",
            "memory_type",
            "cpu",
            "sockets",
            "source",
            "power_w",
        ],
    ),
    (
        "cpus.csv",
        &[
            "id",
            "name",
            "family",
            "cores",
            "efficiency_cores",
            "threads",
            "base_ghz",
            "int8_ops_per_cycle",
            "f16_flops_per_cycle",
            "memory",
            "channels",
            "max_sockets",
            "tdp_w",
        ],
    ),
    (
        "models.csv",
        &[
            "id",
            "name",
            "family",
            "native_quant",
            "params_b",
            "active_params_b",
            "max_context",
            "layers",
            "hidden",
            "heads",
            "kv_heads",
            "head_dim",
            "vocab",
            "tied_embeddings",
            "intermediate",
            "mlp",
            "experts",
            "experts_per_token",
            "shared_experts",
            "moe_intermediate",
            "shared_intermediate",
            "dense_layers",
            "attention",
            "attn_gate",
            "sliding_window",
            "swa_layers",
            "kv_lora_rank",
            "q_lora_rank",
            "qk_rope_dim",
            "qk_nope_dim",
            "v_head_dim",
            "linear_kind",
            "linear_layers",
            "linear_k_heads",
            "linear_v_heads",
            "linear_k_dim",
            "linear_v_dim",
            "linear_conv",
            "draft",
        ],
    ),
    (
        "quants.csv",
        &[
            "id",
            "name",
            "format",
            "bpw",
            "other_bpw",
            "weights",
            "kv",
            "engines",
            "backends",
            "runtimes",
            "models",
        ],
    ),
    // The long tail of GPUs, which the page fetches on demand (src/catalog/long_tail.rs): the
    // id gives its TechPowerUp page, the backends its default.
    (
        "gpus-longtail.csv",
        &[
            "id",
            "name",
            "memory_gib",
            "memory_type",
            "bus_bits",
            "bandwidth_gbs",
            "fp16_tflops",
            "tdp_w",
            "laptop",
            "backends",
            "curated",
        ],
    ),
    // The fit, every column.
    ("calibration.csv", &[]),
    (
        "measured.csv",
        &[
            "hw", "model", "quant", "context", "tg_tok_s", "backend", "fa", "build", "date", "url", "method",
        ],
    ),
];

/// The columns of a curated machine the page keeps apart from its first part, in this order
/// (`Machine::apart`).
const MACHINE_APART: [&str; 3] = ["source", "price_usd", "power_w"];

/// A field as the page carries it: a measured run's build as its number alone; a machine's source
/// note up to its first `;`, ` (` or `: ` (the page shows the bandwidth's arithmetic beside it;
/// the whole note stays in data/ and the CLI).
fn page_field<'a>(file: &str, column: &str, field: &'a str) -> &'a str {
    if (file, column) == ("measured.csv", "build") {
        build_digits(field)
    } else if (file, column) == ("machines.csv", "source") {
        let head = field.split([';', '(']).next().unwrap_or(field);
        head.split(": ").next().unwrap_or(head).trim()
    } else {
        field
    }
}

/// The CPUs data/machines.csv names (its `cpu` column): the page's first copy of the CPU catalog
/// carries these, so every curated machine (and a GPU's typical desktop host, one of them) is
/// estimated at once; the others are the long tail of CPUs, `cpus-longtail.csv`.
fn cpus_machines_name() -> Vec<String> {
    let mut reader = csv::Reader::from_path("data/machines.csv").expect("data/machines.csv");
    let at = reader
        .headers()
        .expect("machines.csv")
        .iter()
        .position(|h| h == "cpu")
        .expect("machines.csv: cpu");
    reader
        .records()
        .filter_map(|r| r.ok()?.get(at).filter(|c| !c.is_empty()).map(str::to_string))
        .collect()
}

fn main() {
    println!("cargo:rerun-if-changed=src/catalog/methods.rs");
    let out = std::env::var("OUT_DIR").expect("OUT_DIR");
    let machine_cpus = cpus_machines_name();
    for (file, keep) in PAGE_COLUMNS {
        let path = Path::new("data").join(file);
        println!("cargo:rerun-if-changed={}", path.display());
        let mut reader = csv::Reader::from_path(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let header = reader.headers().unwrap_or_else(|e| panic!("{}: {e}", path.display())).clone();
        let wanted: HashSet<&str> = keep.iter().copied().collect();
        let columns: Vec<usize> = (0..header.len())
            .filter(|&i| keep.is_empty() || wanted.contains(&header[i]))
            .collect();
        let line = |fields: Vec<&str>| {
            for f in &fields {
                assert!(
                    !f.contains(['\x1f', '\n', '\r']),
                    "{}: a field holds a separator: {f:?}",
                    path.display()
                );
            }
            fields.join("\x1f") + "\n"
        };
        // A machine's source, price and board power go to a file of their own (one machine a
        // line, in the machines' order): only the panels after the first view show them, so they
        // can go with their part.
        let apart: Vec<usize> = MACHINE_APART
            .iter()
            .filter_map(|c| (*file == "machines.csv").then(|| header.iter().position(|h| h == *c)).flatten())
            .collect();
        let mut sources = String::new();
        let columns: Vec<usize> = columns.into_iter().filter(|i| !apart.contains(i)).collect();
        let head = line(columns.iter().map(|&i| &header[i]).collect());
        // The CPUs no machine names go to a file of their own, which the page fetches on demand.
        let (mut text, mut rest) = (head.clone(), head);
        for record in reader.records() {
            let record = record.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            // Only decode-only measurements: the page neither fits nor shows the others.
            let method = header.iter().position(|h| h == "method").and_then(|i| record.get(i));
            if *file == "measured.csv" && !method.is_some_and(|m| DECODE_ONLY_METHODS.contains(&m)) {
                continue;
            }
            // A long-tail card the curated catalog has is only an alias of its curated id.
            let alias = header
                .iter()
                .position(|h| h == "curated")
                .and_then(|i| record.get(i))
                .is_some_and(|c| !c.is_empty());
            let row = line(
                columns
                    .iter()
                    .map(|&i| match &header[i] {
                        "id" | "curated" => record.get(i).unwrap_or(""),
                        _ if alias => "",
                        column => page_field(file, column, record.get(i).unwrap_or("")),
                    })
                    .collect(),
            );
            if !apart.is_empty() {
                sources += &line(
                    apart
                        .iter()
                        .map(|&i| page_field(file, &header[i], record.get(i).unwrap_or("")))
                        .collect(),
                );
            }
            let id = header.iter().position(|h| h == "id").and_then(|i| record.get(i)).unwrap_or("");
            if *file == "cpus.csv" && !machine_cpus.iter().any(|c| c == id) {
                rest.push_str(&row);
            } else {
                text.push_str(&row);
            }
        }
        std::fs::write(Path::new(&out).join(file), text).expect("write the page's catalog");
        if !apart.is_empty() {
            std::fs::write(Path::new(&out).join("machine-sources.csv"), sources).expect("write the page's catalog");
        }
        if *file == "cpus.csv" {
            std::fs::write(Path::new(&out).join("cpus-longtail.csv"), rest).expect("write the page's catalog");
        }
    }
}
