//! The layers point one way (docs/architecture.md): a module imports only from its own layer or
//! those before it, no two top-level modules import each other, and no two files of one folder
//! import each other. Only `web` imports Leptos, web-sys or wasm-bindgen.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, first to last.
const LAYERS: &[&str] = &[
    "text",
    "estimator",
    "calibration",
    "catalog",
    "import",
    "scenario",
    "report",
    "charts",
    "web",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `crate::<layer>::<module>` paths a file names (its own code, comments left out).
fn references(text: &str) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for line in text.lines().map(str::trim).filter(|l| !l.starts_with("//")) {
        for piece in line.split("crate::").skip(1) {
            let mut parts = piece
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .next()
                .unwrap_or("")
                .split("::");
            let layer = parts.next().unwrap_or("").to_string();
            let module = parts.next().unwrap_or("").to_string();
            out.insert((layer, module));
        }
    }
    out
}

#[test]
fn layers_point_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut problems = Vec::new();
    let mut layer_edges: BTreeSet<(String, String)> = BTreeSet::new();
    // (folder, file) → the sibling files it names.
    let mut sibling_edges: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    let mut checked = 0;
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let parts: Vec<String> = rel
            .iter()
            .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        let text = std::fs::read_to_string(file).unwrap();
        if parts.len() == 1 {
            // The top of src/ keeps lib.rs and main.rs only.
            assert!(
                matches!(parts[0].as_str(), "lib" | "main"),
                "{} is a loose file at the top of src/",
                rel.display()
            );
            continue;
        }
        let layer = parts[0].clone();
        if layer == "bin" {
            continue;
        }
        let Some(mine) = LAYERS.iter().position(|l| *l == layer) else {
            problems.push(format!("{}: folder {layer} is not a layer of docs/architecture.md", rel.display()));
            continue;
        };
        checked += 1;
        if layer != "web" {
            for web in ["leptos", "web_sys", "wasm_bindgen", "js_sys"] {
                if text
                    .lines()
                    .any(|l| !l.trim_start().starts_with("//") && (l.contains(&format!("{web}::")) || l.contains(&format!("use {web}"))))
                {
                    problems.push(format!("{}: imports {web} outside web/", rel.display()));
                }
            }
        }
        for (other, module) in references(&text) {
            let Some(theirs) = LAYERS.iter().position(|l| *l == other) else {
                continue;
            };
            if theirs > mine {
                problems.push(format!("{}: imports crate::{other} from the layer above it", rel.display()));
            }
            if other != layer {
                layer_edges.insert((layer.clone(), other.clone()));
            } else if parts.len() == 2 && !module.is_empty() {
                let me = parts[1].clone();
                if module != me && module != "mod" {
                    sibling_edges.entry((layer.clone(), me)).or_default().insert(module);
                }
            }
        }
        // `super::x` from a file of a folder (not its mod.rs) names its sibling x.
        let (folder, me) = (parts[..parts.len() - 1].join("/"), parts[parts.len() - 1].clone());
        if me != "mod" {
            for piece in text.split("super::").skip(1) {
                let module: String = piece.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                if !module.is_empty() && module != me && module.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
                    sibling_edges.entry((folder.clone(), me.clone())).or_default().insert(module);
                }
            }
        }
    }
    for (a, b) in &layer_edges {
        if layer_edges.contains(&(b.clone(), a.clone())) {
            problems.push(format!("{a} and {b} import each other"));
        }
    }
    for ((folder, file), names) in &sibling_edges {
        for other in names {
            if sibling_edges
                .get(&(folder.clone(), other.clone()))
                .is_some_and(|back| back.contains(file))
                && file < other
            {
                problems.push(format!("{folder}: {file} and {other} import each other"));
            }
        }
    }
    assert!(checked > 40, "only {checked} files checked");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
