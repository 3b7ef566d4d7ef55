//! tokbound: how fast will this model type on my machine?
//!
//! For one user generating one stream, decode speed is bounded by memory bandwidth divided by
//! the bytes read per generated token. One folder per layer, each using only those listed before
//! it (tests/architecture.rs checks; docs/architecture.md explains):
//!
//! 1. [`text`]: numbers and sizes as people type them, figures as the page writes them.
//! 2. [`estimator`]: every term of the bandwidth and compute arithmetic; no catalog, no English.
//! 3. [`calibration`]: the expected figure fitted on measured runs, and a user's own runs.
//! 4. [`catalog`]: machines, models, formats and measurements, from `data/*.csv`.
//! 5. [`import`]: config.json, GGUF headers and Hugging Face links, read into architectures.
//! 6. [`scenario`]: every input, and the one codec to and from a URL query string.
//! 7. [`report`]: what the headline, the tables and the CSV say, as plain data.
//! 8. [`charts`]: chart data, drawn through any plotters `DrawingBackend`.
//! 9. `web`: the Leptos page, compiled only for `wasm32`; the only layer with Leptos, web-sys or
//!    wasm-bindgen. The CLI (`src/bin/tokbound/`) sits beside it and does its own I/O.

pub mod calibration;
pub mod catalog;
pub mod charts;
pub mod estimator;
pub mod import;
pub mod report;
pub mod scenario;
pub mod text;

#[cfg(target_arch = "wasm32")]
pub mod web;
