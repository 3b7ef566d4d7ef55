//! tokbound: how fast will this model type on my machine?
//!
//! For one user generating one stream, decode speed is bounded by memory bandwidth divided by
//! the bytes read per generated token. The modules below are plain Rust (no web imports) so the
//! native CLI, the native tests and the WebAssembly app all run the same arithmetic:
//!
//! - [`estimator`]: every term of the bandwidth arithmetic.
//! - [`charts`]: chart drawing, generic over any plotters `DrawingBackend`.
//!
//! The browser app (`app`, `components`) is compiled only for `wasm32`.

pub mod calibration;
pub mod catalog;
pub mod charts;
pub mod estimator;
pub mod scenario;
pub mod units;

#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(target_arch = "wasm32")]
pub mod components;
