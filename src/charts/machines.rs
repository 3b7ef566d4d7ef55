//! Ceilings and expected bands across machines, as horizontal bars.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{axis_max, empty, frame, legend, mesh, DrawResult, Theme};

/// Machines drawn beside the chosen one: a spread of what people own, slow to fast.
pub const FEATURED: [&str; 14] = [
    "ddr5-5600-2ch",
    "strix-halo-395",
    "dgx-spark",
    "m4-pro",
    "rtx-3060-12g",
    "m1-max-32c",
    "m4-max-40c",
    "m2-ultra-76c",
    "m3-ultra-80c",
    "rtx-3090",
    "rtx-4090",
    "rtx-5090",
    "h100-sxm",
    "mi300x",
];

/// One machine's bar.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub label: String,
    pub ceiling: f64,
    pub expected: f64,
    pub low: f64,
    pub high: f64,
    /// The scenario's own machine.
    pub highlight: bool,
    /// False when the model does not fit (the bar then shows the spilled speed).
    pub fits: bool,
}

/// Draws one bar per machine, slowest at the bottom.
pub fn draw<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, bars: &[Bar], theme: &Theme) -> DrawResult<DB> {
    if bars.is_empty() {
        return empty(area, theme, "no machines to compare");
    }
    let plot = frame(area, theme, "Decode ceiling and expected speed by machine")?;
    let x_max = axis_max(bars.iter().map(|b| b.ceiling));
    let n = bars.len();
    let mut chart = ChartBuilder::on(&plot)
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(210)
        .build_cartesian_2d(0.0..x_max, (0..n).into_segmented())?;
    let labels: Vec<String> = bars
        .iter()
        .map(|b| if b.fits { b.label.clone() } else { format!("{} (spills)", b.label) })
        .collect();
    mesh!(chart, theme, "tok/s", "")
        .y_labels(n)
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => labels.get(*i).cloned().unwrap_or_default(),
            SegmentValue::Last => String::new(),
        })
        .disable_y_mesh()
        .draw()?;
    let ceiling_color = theme.color(0).mix(0.3);
    let expected_color = theme.color(0);
    let highlight_color = theme.color(1);
    chart
        .draw_series(bars.iter().enumerate().map(|(i, b)| {
            Rectangle::new(
                [(0.0, SegmentValue::Exact(i)), (b.ceiling, SegmentValue::Exact(i + 1))],
                ceiling_color.filled(),
            )
        }))?
        .label("ceiling")
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], ceiling_color.filled()));
    chart
        .draw_series(bars.iter().enumerate().map(|(i, b)| {
            let c = if b.highlight { highlight_color } else { expected_color };
            Rectangle::new(
                [(0.0, SegmentValue::CenterOf(i)), (b.expected, SegmentValue::Exact(i + 1))],
                c.filled(),
            )
        }))?
        .label("expected")
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], expected_color.filled()));
    chart
        .draw_series(bars.iter().enumerate().map(|(i, b)| {
            PathElement::new(
                vec![(b.low, SegmentValue::CenterOf(i)), (b.high, SegmentValue::CenterOf(i))],
                theme.foreground.stroke_width(2),
            )
        }))?
        .label("expected band")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 14, y)], ShapeStyle::from(&theme.foreground).stroke_width(2)));
    legend!(chart, theme, SeriesLabelPosition::LowerRight)?;
    area.present()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::test_support::svg;

    #[test]
    fn draws_a_labelled_bar_per_machine() {
        let bars = vec![
            Bar {
                label: "Desktop DDR5".into(),
                ceiling: 4.3,
                expected: 3.0,
                low: 2.5,
                high: 3.6,
                highlight: false,
                fits: true,
            },
            Bar {
                label: "RTX 4090".into(),
                ceiling: 48.8,
                expected: 35.8,
                low: 31.0,
                high: 39.0,
                highlight: true,
                fits: true,
            },
            Bar {
                label: "RTX 3060".into(),
                ceiling: 8.0,
                expected: 6.0,
                low: 5.0,
                high: 7.0,
                highlight: false,
                fits: false,
            },
        ];
        let doc = svg(|a| draw(a, &bars, &Theme::DARK));
        for text in ["Desktop DDR5", "RTX 4090", "RTX 3060 (spills)", "tok/s", "ceiling", "expected band"] {
            assert!(doc.contains(text), "missing {text}");
        }
        assert!(doc.matches("<rect").count() >= 7);
    }

    #[test]
    fn nothing_to_compare_says_so() {
        assert!(svg(|a| draw(a, &[], &Theme::LIGHT)).contains("no machines"));
    }
}
