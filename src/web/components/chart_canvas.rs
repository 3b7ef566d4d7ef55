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
/// only when the canvas draws, in a task of its own. `None` draws nothing.
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
/// an input that leaves a chart's inputs equal causes no redraw). It draws in a task of its own; a
/// newer change supersedes a pending draw. `data-draws` counts the draws, so tests can check that
/// a chart redraws only when its inputs change; the figure is `data-stale` from a change until the
/// chart shows it.
#[component]
pub fn ChartCanvas(
    /// The `data-testid` of the `<canvas>`.
    testid: &'static str,
    /// What the chart shows, for screen readers.
    label: &'static str,
    /// The chart.
    chart: PlotSource,
    /// Set while what the chart reads still waits for the scenario's latest change (a table's
    /// rows, which follow it after the keystroke's paint).
    behind: Signal<bool>,
) -> impl IntoView {
    let canvas_ref = NodeRef::<Canvas>::new();
    let generation = Rc::new(Cell::new(0u32));
    let draws = Rc::new(Cell::new(0u32));
    let pending = RwSignal::new(false);
    // Plotters draws on a canvas outside the page; the page's canvas shows a bitmap of it.
    let surface = crate::web::browser::offpage_canvas();
    // The canvas's width as its layout last gave it, kept by a ResizeObserver (whose callback runs
    // where the frame has just laid the page out): read in a drawing task instead, after other
    // panels have written theirs, it would force a layout of its own for every chart.
    let width = Rc::new(Cell::new(0));
    let watch = StoredValue::new_local(None);
    Effect::new({
        let width = width.clone();
        move |_| {
            if let Some(canvas) = canvas_ref.get() {
                watch.set_value(crate::web::browser::follow_width(&canvas, width.clone()));
            }
        }
    });
    on_cleanup(move || watch.dispose());
    Effect::new(move |_| {
        let build = chart();
        let (Some(canvas), Some(surface)) = (canvas_ref.get(), surface.clone()) else {
            return;
        };
        let this = generation.get().wrapping_add(1);
        generation.set(this);
        pending.set(true);
        let draw = Draw {
            generation: generation.clone(),
            this,
            draws: draws.clone(),
            pending,
            canvas,
            surface,
        };
        // The chart's inputs change in the task that takes a change up after the keystroke's paint
        // (state::Deferred); each chart draws in a task of its own after that, taking its turn
        // with the other panels' work (browser::in_turn).
        let width = width.clone();
        crate::web::browser::in_turn(move || {
            let known = width.get();
            let css_width = if known > 0 { known } else { draw.canvas.client_width() };
            draw.run(build, f64::from(css_width.max(300)));
        });
    });
    view! {
        <figure class="chart" data-stale=move || crate::web::state::stale_attr(pending.get() || behind.get())>
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

/// One draw of a chart, superseded by a newer one.
struct Draw {
    generation: Rc<Cell<u32>>,
    this: u32,
    draws: Rc<Cell<u32>>,
    pending: RwSignal<bool>,
    canvas: web_sys::HtmlCanvasElement,
    surface: web_sys::HtmlCanvasElement,
}

impl Draw {
    /// Whether no newer draw has been asked for.
    fn current(&self) -> bool {
        self.generation.get() == self.this
    }

    /// Builds the plot, draws it `css_width` wide and shows it on the page's canvas, unless a newer
    /// draw has been asked for meanwhile.
    fn run(self, build: Box<dyn FnOnce() -> Option<Plot>>, css_width: f64) {
        if !self.current() {
            return;
        }
        let Some(p) = build() else {
            self.pending.try_set(false);
            return;
        };
        let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).max(1.0);
        // Wide pages get a wide chart; a chart of rows keeps room for each row's label.
        let css_height = (css_width * 0.55).clamp(260.0, 460.0).max(p.min_height);
        // Setting a canvas's size, even to the same, throws its pixels away and allocates new
        // ones; the draw covers the whole canvas with the background first.
        let (width, height) = ((css_width * ratio) as u32, (css_height * ratio) as u32);
        if self.surface.width() != width || self.surface.height() != height {
            self.surface.set_width(width);
            self.surface.set_height(height);
        }
        for (name, value) in &p.facts {
            let _ = self.canvas.set_attribute(&format!("data-{name}"), value);
        }
        let Some(mut backend) = MeasuredCanvas::new(self.surface.clone(), ratio) else {
            self.pending.try_set(false);
            return;
        };
        let _ = plot::draw(&mut backend, &p, &theme());
        wasm_bindgen_futures::spawn_local(async move {
            let bitmap = crate::web::browser::snapshot(&self.surface).await;
            if !self.current() {
                return;
            }
            if bitmap.is_some_and(|b| crate::web::browser::show_bitmap(&self.canvas, &b)) {
                self.draws.set(self.draws.get() + 1);
                let _ = self.canvas.set_attribute("data-draws", &self.draws.get().to_string());
            }
            self.pending.try_set(false);
        });
    }
}
