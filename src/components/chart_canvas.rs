//! A `<canvas>` that a plotters chart function draws on whenever its data changes.

use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;

/// A canvas sized for the device pixel ratio, redrawn by `draw` on every change of its inputs.
#[component]
pub fn ChartCanvas<F>(
    /// The `data-testid` of the `<canvas>`.
    testid: &'static str,
    /// Accessible description of the chart.
    label: &'static str,
    /// Draws the chart; reads the signals it depends on, so it reruns when they change.
    draw: F,
) -> impl IntoView
where
    F: Fn(&DrawingArea<CanvasBackend, plotters::coord::Shift>) + 'static,
{
    let canvas_ref = NodeRef::<Canvas>::new();
    Effect::new(move |_| {
        let Some(canvas) = canvas_ref.get() else { return };
        let ratio = web_sys::window().map(|w| w.device_pixel_ratio()).unwrap_or(1.0).max(1.0);
        let css_width = canvas.client_width().max(320) as f64;
        canvas.set_width((css_width * ratio) as u32);
        canvas.set_height((css_width * 0.5 * ratio) as u32);
        if let Some(backend) = CanvasBackend::with_canvas_object(canvas) {
            let area = backend.into_drawing_area();
            draw(&area);
        }
    });
    view! { <canvas node_ref=canvas_ref data-testid=testid aria-label=label role="img"></canvas> }
}
