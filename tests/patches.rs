//! The page's build replaces two of Leptos's dependencies with tokbound's own copies
//! (Cargo.toml's `[patch.crates-io]`). Cargo only warns when a patch stops matching, for instance
//! after Leptos moves to a new major version of the crate, and the page would silently go back to
//! the published one: these tests fail instead.

/// The lock file's entries for `name`, and how many packages depend on it.
fn entries(name: &str) -> (Vec<String>, usize) {
    let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock")).unwrap();
    let packages: Vec<&str> = lock.split("[[package]]").collect();
    let own = packages
        .iter()
        .filter(|p| p.contains(&format!("name = \"{name}\"\n")))
        .map(|p| p.to_string())
        .collect();
    let dependents = packages.iter().filter(|p| p.contains(&format!("\n \"{name}\","))).count();
    (own, dependents)
}

fn assert_patched(name: &str, path: &str, min_dependents: usize) {
    let (own, dependents) = entries(name);
    assert_eq!(own.len(), 1, "one {name} in the lock file: {own:?}");
    assert!(
        !own[0].contains("source = "),
        "{name} is the published crate, not {path}: {}",
        own[0]
    );
    assert!(
        dependents >= min_dependents,
        "Leptos's crates no longer depend on {name} ({dependents} do): is the patch still needed?"
    );
}

#[test]
fn send_wrapper_comes_from_crates_send_wrapper() {
    assert_patched("send_wrapper", "crates/send_wrapper", 3);
}

#[test]
fn wasm_streams_comes_from_crates_wasm_streams() {
    assert_patched("wasm-streams", "crates/wasm_streams", 1);
}
