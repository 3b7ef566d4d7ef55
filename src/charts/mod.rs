//! The page's six charts. Each file holds a plain-data builder (from the estimator) and a
//! `draw` function generic over any plotters `DrawingBackend`: the app draws on a canvas, the
//! native tests on SVG.

pub mod batch;
pub mod context;
pub mod machines;
pub mod quants;
pub mod spec;
pub mod spill;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::RGBColor;

/// Colours for light or dark pages.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Theme {
    pub background: RGBColor,
    pub foreground: RGBColor,
    pub grid: RGBColor,
    pub series: [RGBColor; 6],
}

impl Theme {
    pub const LIGHT: Theme = Theme {
        background: RGBColor(255, 255, 255),
        foreground: RGBColor(17, 24, 39),
        grid: RGBColor(229, 231, 235),
        series: [
            RGBColor(29, 78, 216),
            RGBColor(217, 119, 6),
            RGBColor(5, 150, 105),
            RGBColor(190, 24, 93),
            RGBColor(109, 40, 217),
            RGBColor(75, 85, 99),
        ],
    };
    pub const DARK: Theme = Theme {
        background: RGBColor(15, 23, 42),
        foreground: RGBColor(229, 231, 235),
        grid: RGBColor(51, 65, 85),
        series: [
            RGBColor(96, 165, 250),
            RGBColor(251, 191, 36),
            RGBColor(52, 211, 153),
            RGBColor(244, 114, 182),
            RGBColor(167, 139, 250),
            RGBColor(156, 163, 175),
        ],
    };

    pub fn color(&self, i: usize) -> RGBColor {
        self.series[i % self.series.len()]
    }

    fn text(&self, size: u32) -> TextStyle<'static> {
        ("sans-serif", size).into_font().color(&self.foreground)
    }
}

/// The error type every chart returns.
pub type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// A chart's frame: background filled, caption drawn; returns the plotting area below it.
fn frame<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    theme: &Theme,
    title: &str,
) -> Result<DrawingArea<DB, Shift>, DrawingAreaErrorKind<DB::ErrorType>> {
    area.fill(&theme.background)?;
    area.titled(title, theme.text(16))
}

/// Draws a centred message instead of a chart (no data to show).
fn empty<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, theme: &Theme, message: &str) -> DrawResult<DB> {
    let (w, h) = area.dim_in_pixel();
    area.draw(&Text::new(message.to_string(), (w as i32 / 2 - 120, h as i32 / 2), theme.text(14)))?;
    area.present()
}

/// Upper bound of an axis: the largest value with headroom, never zero.
fn axis_max(values: impl Iterator<Item = f64>) -> f64 {
    let m = values.filter(|v| v.is_finite()).fold(0.0, f64::max);
    if m > 0.0 {
        m * 1.1
    } else {
        1.0
    }
}

/// The mesh styling every chart shares: `mesh!(chart, theme, "x", "y").draw()?`.
macro_rules! mesh {
    ($chart:expr, $theme:expr, $x:expr, $y:expr) => {
        $chart
            .configure_mesh()
            .x_desc($x)
            .y_desc($y)
            .axis_style($theme.foreground)
            .label_style($theme.text(12))
            .axis_desc_style($theme.text(13))
            .bold_line_style($theme.grid)
            .light_line_style($theme.grid.mix(0.4))
    };
}

/// The legend box every chart shares.
macro_rules! legend {
    ($chart:expr, $theme:expr, $pos:expr) => {
        $chart
            .configure_series_labels()
            .position($pos)
            .background_style($theme.background.mix(0.85))
            .border_style($theme.foreground)
            .label_font($theme.text(12))
            .draw()
    };
}

pub(crate) use {legend, mesh};

#[cfg(test)]
pub(crate) mod test_support {
    use super::*;

    /// Draws with `f` on an 800×400 SVG and returns the document.
    pub fn svg(f: impl for<'a> FnOnce(&DrawingArea<SVGBackend<'a>, Shift>) -> DrawResult<SVGBackend<'a>>) -> String {
        let mut out = String::new();
        {
            let area = SVGBackend::with_string(&mut out, (800, 400)).into_drawing_area();
            f(&area).expect("chart draws");
        }
        out
    }
}
