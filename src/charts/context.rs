//! Decode speed against context length: the KV-cache tax.

use plotters::coord::Shift;
use plotters::prelude::*;

/// One line of the chart: a label and its (context tokens, tok/s) points.
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
}

/// Draws tok/s against context length on `area`.
pub fn draw<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, series: &[Series]) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    area.fill(&WHITE)?;
    let x_max = series.iter().flat_map(|s| s.points.iter().map(|p| p.0)).fold(1.0, f64::max);
    let y_max = series.iter().flat_map(|s| s.points.iter().map(|p| p.1)).fold(1.0, f64::max) * 1.1;
    let mut chart = ChartBuilder::on(area)
        .caption("Decode speed vs context", ("sans-serif", 16))
        .margin(8)
        .x_label_area_size(32)
        .y_label_area_size(48)
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)?;
    chart.configure_mesh().x_desc("context (tokens)").y_desc("tok/s").draw()?;
    for (i, s) in series.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(s.points.iter().copied(), color.stroke_width(2)))?
            .label(s.label.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE.mix(0.8))
        .draw()?;
    area.present()
}
