//! Charts, each a function generic over a plotters `DrawingBackend`: the app draws them on a
//! canvas, the native tests on SVG.

pub mod context;
