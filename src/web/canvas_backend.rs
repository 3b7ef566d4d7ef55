//! The canvas backend the page draws charts with: plotters-canvas's `CanvasBackend`, except that
//! text is measured with the canvas's own `measureText`. Plotters' default measurement inserts a
//! styled `<span>` into the page and reads its box, which forces a page layout for every label
//! (hundreds per redraw); `measureText` needs no layout.

use plotters::prelude::DrawingBackend;
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// plotters-canvas keeps its error type private; name it through the trait.
type CanvasError = <CanvasBackend as DrawingBackend>::ErrorType;

/// A `CanvasBackend` with canvas-measured text, drawing in CSS pixels.
pub struct MeasuredCanvas {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
    /// Canvas pixels per CSS pixel (the device pixel ratio the canvas was sized for).
    scale: f64,
}

impl MeasuredCanvas {
    /// A backend over `canvas`, whose pixel size is its CSS size times `scale`. Charts draw in
    /// CSS pixels (a 12 px label is 12 CSS px on every screen) and the context scales them, so on
    /// a high-density screen they are as large as on any other, and sharp.
    pub fn new(canvas: HtmlCanvasElement, scale: f64) -> Option<MeasuredCanvas> {
        let context = canvas.get_context("2d").ok()??.dyn_into::<CanvasRenderingContext2d>().ok()?;
        context.set_transform(scale, 0.0, 0.0, scale, 0.0, 0.0).ok()?;
        Some(MeasuredCanvas {
            inner: CanvasBackend::with_canvas_object(canvas)?,
            context,
            scale,
        })
    }
}

impl DrawingBackend for MeasuredCanvas {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        let (w, h) = self.inner.get_size();
        let css = |px: u32| (f64::from(px) / self.scale).round() as u32;
        (css(w), css(h))
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, style: &S) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.fill_polygon(vert, style)
    }

    fn draw_text<S: BackendTextStyle>(&mut self, text: &str, style: &S, pos: BackendCoord) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_text(text, style, pos)
    }

    fn estimate_text_size<S: BackendTextStyle>(&self, text: &str, style: &S) -> Result<(u32, u32), DrawingErrorKind<CanvasError>> {
        // The same font string CanvasBackend draws with.
        self.context.set_font(&format!(
            "{} {}px {}",
            style.style().as_str(),
            style.size(),
            style.family().as_str()
        ));
        let width = self
            .context
            .measure_text(text)
            .map(|m| m.width())
            .unwrap_or(text.chars().count() as f64 * style.size() * 0.6);
        let height = style.size();
        Ok(match style.transform() {
            plotters_backend::FontTransform::Rotate90 | plotters_backend::FontTransform::Rotate270 => {
                (height.ceil() as u32, width.ceil() as u32)
            }
            _ => (width.ceil() as u32, height.ceil() as u32),
        })
    }
}
