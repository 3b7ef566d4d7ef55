//! tokbound: how fast will this model type on my machine?
//!
//! For one user generating one stream, decode speed is bounded by memory bandwidth divided by
//! the bytes read per generated token. The modules below are plain Rust (no web imports) so the
//! native CLI, the native tests and the WebAssembly app all run the same arithmetic:
//!
//! - [`estimator`]: every term of the bandwidth arithmetic.
//! - [`catalog`]: machines, models, formats and measurements, from `data/*.csv`.
//! - [`calibration`]: the expected band, fitted on the measurements.
//! - [`calibrate`]: a user's own llama-bench output, read and fitted to their machine.
//! - [`scenario`]: every input, and the one codec to and from a URL query string.
//! - [`views`]: what the tables and the headline show.
//! - [`decimal`]: decimal text to `f64`, without the standard parser's tables.
//! - [`charts`]: chart drawing, generic over any plotters `DrawingBackend`.
//!
//! The browser app (`app`, `components`) is compiled only for `wasm32`.

pub mod calibrate;
pub mod calibration;
pub mod catalog;
pub mod charts;
pub mod decimal;
pub mod estimator;
pub mod hub;
pub mod import;
pub mod imported;
pub mod measure;
pub mod runnable;
pub mod scenario;
pub mod units;
pub mod views;

#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(target_arch = "wasm32")]
pub mod browser;
#[cfg(target_arch = "wasm32")]
pub mod canvas_backend;
#[cfg(target_arch = "wasm32")]
pub mod components;
