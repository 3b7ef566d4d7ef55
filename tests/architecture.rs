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

/// What the files import: layer → layers it names, and (folder, file) → sibling files it names.
#[derive(Default)]
struct Graph {
    problems: Vec<String>,
    layers: BTreeSet<(String, String)>,
    siblings: BTreeMap<(String, String), BTreeSet<String>>,
    checked: usize,
}

impl Graph {
    /// Records one file's imports; `parts` is its path under src/ without `.rs`.
    fn add(&mut self, shown: &str, parts: &[String], text: &str) {
        let layer = parts[0].clone();
        let Some(mine) = LAYERS.iter().position(|l| *l == layer) else {
            self.problems
                .push(format!("{shown}: folder {layer} is not a layer of docs/architecture.md"));
            return;
        };
        self.checked += 1;
        if layer != "web" {
            for web in ["leptos", "web_sys", "wasm_bindgen", "js_sys"] {
                if text
                    .lines()
                    .any(|l| !l.trim_start().starts_with("//") && (l.contains(&format!("{web}::")) || l.contains(&format!("use {web}"))))
                {
                    self.problems.push(format!("{shown}: imports {web} outside web/"));
                }
            }
        }
        for (other, module) in references(text) {
            let Some(theirs) = LAYERS.iter().position(|l| *l == other) else {
                continue;
            };
            if theirs > mine {
                self.problems
                    .push(format!("{shown}: imports crate::{other} from the layer above it"));
            }
            if other != layer {
                self.layers.insert((layer.clone(), other.clone()));
            } else if parts.len() == 2 && !module.is_empty() && module != parts[1] && module != "mod" {
                self.siblings.entry((layer.clone(), parts[1].clone())).or_default().insert(module);
            }
        }
        // `super::x` from a file of a folder (not its mod.rs) names its sibling x.
        let (folder, me) = (parts[..parts.len() - 1].join("/"), parts[parts.len() - 1].clone());
        if me != "mod" {
            for piece in text.split("super::").skip(1) {
                let module: String = piece.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                if !module.is_empty() && module != me && module.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
                    self.siblings.entry((folder.clone(), me.clone())).or_default().insert(module);
                }
            }
        }
    }

    /// Pairs that import each other: two layers, or two files of one folder.
    fn cycles(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (a, b) in &self.layers {
            if self.layers.contains(&(b.clone(), a.clone())) {
                out.push(format!("{a} and {b} import each other"));
            }
        }
        for ((folder, file), names) in &self.siblings {
            for other in names {
                if self
                    .siblings
                    .get(&(folder.clone(), other.clone()))
                    .is_some_and(|back| back.contains(file))
                    && file < other
                {
                    out.push(format!("{folder}: {file} and {other} import each other"));
                }
            }
        }
        out
    }
}

#[test]
fn layers_point_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut graph = Graph::default();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let parts: Vec<String> = rel
            .iter()
            .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        if parts.len() == 1 {
            // The top of src/ keeps lib.rs and main.rs only.
            assert!(
                matches!(parts[0].as_str(), "lib" | "main"),
                "{} is a loose file at the top of src/",
                rel.display()
            );
        } else if parts[0] != "bin" {
            graph.add(&rel.display().to_string(), &parts, &std::fs::read_to_string(file).unwrap());
        }
    }
    let mut problems = graph.problems.clone();
    problems.extend(graph.cycles());
    assert!(graph.checked > 40, "only {} files checked", graph.checked);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
