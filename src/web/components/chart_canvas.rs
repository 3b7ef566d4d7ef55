//! A `<canvas>` showing a plotters chart, redrawn whenever its data changes.

use std::cell::Cell;
use std::rc::Rc;

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::charts::plot::{self, Plot};
use crate::charts::Theme;
use crate::web::canvas_backend::MeasuredCanvas;

/// What a chart shows. Calling it reads the chart's inputs — small memos, which is what the canvas
/// watches — and returns the work that builds the plot (often hundreds of estimates), which runs
/// only when the canvas draws, after the next paint. `None` draws nothing.
pub type PlotSource = Rc<dyn Fn() -> Box<dyn FnOnce() -> Option<Plot>>>;

/// A [`PlotSource`] watching `key` and building the plot with `build`.
pub fn plot_source<T: Clone + PartialEq + Send + Sync + 'static>(key: Memo<T>, build: fn(&T) -> Option<Plot>) -> PlotSource {
    Rc::new(move || {
        let k = key.get();
        Box::new(move || build(&k))
    })
}

/// Light or dark chart colours, as the page's own: the root's `data-theme` (`theme=`, set by
/// index.html's first script), and where that is `auto`, the reader's `prefers-color-scheme`.
fn theme() -> Theme {
    let window = web_sys::window();
    let chosen = window
        .as_ref()
        .and_then(web_sys::Window::document)
        .and_then(|d| d.document_element())
        .and_then(|root| root.get_attribute("data-theme"));
    let dark = match chosen.as_deref() {
        Some("dark") => true,
        Some("light") => false,
        _ => window
            .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
            .is_some_and(|m| m.matches()),
    };
    if dark {
        Theme::DARK
    } else {
        Theme::LIGHT
    }
}

/// A canvas sized for the device pixel ratio, redrawn whenever what `chart` reads changes (memos:
/// an input that leaves a chart's inputs equal causes no redraw). Drawing waits for the next
/// paint; a newer change supersedes a pending draw. `data-draws` counts the draws, so tests can
/// check that a chart redraws only when its inputs change.
#[component]
pub fn ChartCanvas(
    /// The `data-testid` of the `<canvas>`.
    testid: &'static str,
    /// What the chart shows, for screen readers.
    label: &'static str,
    /// The chart.
    chart: PlotSource,
) -> impl IntoView {
    let canvas_ref = NodeRef::<Canvas>::new();
    let generation = Rc::new(Cell::new(0u32));
    let draws = Rc::new(Cell::new(0u32));
    // Plotters draws on a canvas outside the page; the page's canvas shows a bitmap of it.
    let surface = crate::web::browser::offpage_canvas();
    Effect::new(move |_| {
        let build = chart();
        let (Some(canvas), Some(surface)) = (canvas_ref.get(), surface.clone()) else {
            return;
        };
        let this = generation.get().wrapping_add(1);
        generation.set(this);
        let (generation, draws) = (generation.clone(), draws.clone());
        crate::web::browser::after_next_paint(move || {
            if generation.get() != this {
                return;
            }
            let Some(p) = build() else { return };
            let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).max(1.0);
            let css_width = f64::from(canvas.client_width().max(300));
            // Wide pages get a wide chart; a chart of rows keeps room for each row's label.
            let css_height = (css_width * 0.55).clamp(260.0, 460.0).max(p.min_height);
            surface.set_width((css_width * ratio) as u32);
            surface.set_height((css_height * ratio) as u32);
            for (name, value) in &p.facts {
                let _ = canvas.set_attribute(&format!("data-{name}"), value);
            }
            let Some(mut backend) = MeasuredCanvas::new(surface.clone(), ratio) else {
                return;
            };
            let _ = plot::draw(&mut backend, &p, &theme());
            wasm_bindgen_futures::spawn_local(async move {
                let Some(bitmap) = crate::web::browser::snapshot(&surface).await else {
                    return;
                };
                if generation.get() == this && crate::web::browser::show_bitmap(&canvas, &bitmap) {
                    draws.set(draws.get() + 1);
                    let _ = canvas.set_attribute("data-draws", &draws.get().to_string());
                }
            });
        });
    });
    view! {
        <figure class="chart">
            <canvas node_ref=canvas_ref data-testid=testid aria-label={label} role="img"></canvas>
            <button
                type="button"
                class="export"
                data-testid=format!("export-{testid}-png")
                on:click={move |_| {
                    crate::web::browser::download_canvas_png(testid, &format!("tokbound-{testid}.png"));
                }}
            >
                "PNG"
            </button>
        </figure>
    }
}
