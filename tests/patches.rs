//! The page's build replaces one of Leptos's dependencies with tokbound's own copy
//! (Cargo.toml's `[patch.crates-io]`). Cargo only warns when a patch stops matching, for instance
//! after Leptos moves to a new major version of the crate, and the page would silently go back to
//! the published one: this test fails instead.

#[test]
fn send_wrapper_comes_from_crates_send_wrapper() {
    let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock")).unwrap();
    let entries: Vec<&str> = lock
        .split("[[package]]")
        .filter(|p| p.contains("name = \"send_wrapper\""))
        .collect();
    assert_eq!(entries.len(), 1, "one send_wrapper in the lock file: {entries:?}");
    assert!(
        !entries[0].contains("source = "),
        "send_wrapper is the published crate, not crates/send_wrapper: {}",
        entries[0]
    );
    let dependents = lock.split("[[package]]").filter(|p| p.contains("\n \"send_wrapper\",")).count();
    assert!(
        dependents >= 3,
        "Leptos's crates no longer depend on send_wrapper ({dependents} do): is the patch still needed?"
    );
}
