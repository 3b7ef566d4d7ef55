//! A `<canvas>` that a plotters chart function draws on whenever the data it reads changes.

use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;

use crate::charts::Theme;

/// Light or dark chart colours, following the page's `prefers-color-scheme`.
fn theme() -> Theme {
    let dark = web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches());
    if dark {
        Theme::DARK
    } else {
        Theme::LIGHT
    }
}

/// A canvas sized for the device pixel ratio and redrawn by `draw` whenever the signals `draw`
/// reads change. `data-draws` counts the draws, so tests can check that a chart redraws only
/// when its inputs change.
#[component]
pub fn ChartCanvas<F>(
    /// The `data-testid` of the `<canvas>`.
    testid: &'static str,
    /// What the chart shows, for screen readers.
    label: &'static str,
    /// Draws the chart; every signal it reads is a dependency.
    draw: F,
) -> impl IntoView
where
    F: Fn(&DrawingArea<CanvasBackend, Shift>, &Theme) + 'static,
{
    let canvas_ref = NodeRef::<Canvas>::new();
    let mut draws = 0u32;
    Effect::new(move |_| {
        let Some(canvas) = canvas_ref.get() else { return };
        let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).max(1.0);
        let css_width = f64::from(canvas.client_width().max(300));
        let css_height = (css_width * 0.55).clamp(260.0, 460.0);
        canvas.set_width((css_width * ratio) as u32);
        canvas.set_height((css_height * ratio) as u32);
        if let Some(backend) = CanvasBackend::with_canvas_object(canvas.clone()) {
            let area = backend.into_drawing_area();
            draw(&area, &theme());
            draws += 1;
            let _ = canvas.set_attribute("data-draws", &draws.to_string());
        }
    });
    view! {
        <figure class="chart">
            <canvas node_ref=canvas_ref data-testid=testid aria-label=label role="img"></canvas>
            <button
                type="button"
                class="export"
                data-testid=format!("export-{testid}-png")
                on:click=move |_| {
                    crate::browser::download_canvas_png(testid, &format!("tokbound-{testid}.png"));
                }
            >
                "PNG"
            </button>
        </figure>
    }
}
