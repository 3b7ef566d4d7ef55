//! The page's six charts. Each file holds a plain-data builder (from the estimator) and a `plot`
//! function that describes the chart as a [`plot::Plot`]; [`plot::draw`], generic over any plotters
//! `DrawingBackend`, draws every one of them: the app on a canvas, the native tests on SVG.

pub mod batch;
pub mod context;
pub mod machines;
pub mod plot;
pub mod quants;
pub mod spec;
pub mod spill;

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
}

/// The error type every chart returns.
pub type DrawResult<DB> = Result<(), plotters_backend::DrawingErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Upper bound of an axis: the largest value with headroom, never zero.
fn axis_max(values: impl Iterator<Item = f64>) -> f64 {
    let m = values.filter(|v| v.is_finite()).fold(0.0, f64::max);
    if m > 0.0 {
        m * 1.1
    } else {
        1.0
    }
}

#[cfg(test)]
pub(crate) mod test_support {
    use super::*;

    /// Draws `plot` on an 800×400 SVG and returns the document.
    pub fn svg(plot: &plot::Plot) -> String {
        let mut out = String::new();
        {
            let mut backend = SVGBackend::with_string(&mut out, (800, 400));
            plot::draw(&mut backend, plot, &Theme::LIGHT).expect("chart draws");
        }
        out
    }
}
