//! The browser page: start-up ([`start`]), the browser's APIs ([`browser`]), the canvas the
//! charts draw on ([`canvas_backend`]), the page's shared state ([`state`]), the worker that
//! parses a user's files ([`parse_worker`]), the long tail of GPUs fetched on demand ([`long_tail`]) and its Leptos components ([`components`]). The
//! only layer that imports Leptos, web-sys or wasm-bindgen.

pub mod browser;
pub mod canvas_backend;
pub mod components;
pub mod first_view;
pub mod long_tail;
pub mod parse_worker;
pub mod parts;
pub mod start;
pub mod state;
pub mod tools;
