//! The page's components, one per file.

pub mod app;
pub mod chart_canvas;
pub mod number_field;
