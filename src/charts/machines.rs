//! Ceilings and expected bands across machines, as horizontal bars.

use super::axis_max;
use super::plot::{self, Axis, Mark, Paint, Plot};

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

/// The height a machine's row needs for its 12 px label to stand clear of the next, in CSS pixels.
const ROW_HEIGHT: f64 = 17.0;
/// What the chart needs besides its rows: title, axis, axis label and a legend of up to three
/// lines on a phone's width, in CSS pixels.
const FRAME_HEIGHT: f64 = 170.0;

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
    /// A run of this model and format measured on it: the tok/s it measured.
    pub measured: Option<f64>,
}

/// One bar per machine, slowest at the bottom: the ceiling faint, the expected speed solid (the
/// chosen machine in the second colour), the expected band as a whisker.
pub fn plot(bars: &[Bar]) -> Plot {
    let title = "Decode ceiling and expected speed by machine";
    if bars.is_empty() {
        return Plot::empty(title, "no machines to compare");
    }
    let labels = bars
        .iter()
        .map(|b| if b.fits { b.label.clone() } else { format!("{} (spills)", b.label) })
        .collect();
    let x_max = axis_max(bars.iter().map(|b| b.ceiling));
    let mut p = Plot::new(title, Axis::linear("tok/s", 0.0, x_max), Axis::categories("", labels));
    p.min_height = FRAME_HEIGHT + ROW_HEIGHT * bars.len() as f64;
    p.facts.push(("rows", bars.len().to_string()));
    let rows = || bars.iter().enumerate().map(|(i, b)| (i as f64, b));
    p.add(
        Some("ceiling".into()),
        Paint::Faint(0),
        Mark::Bars {
            bars: rows()
                .map(|(i, b)| plot::Bar {
                    from: (0.0, i + 0.1),
                    to: (b.ceiling, i + 0.9),
                    paint: None,
                })
                .collect(),
        },
    );
    p.add(
        Some("expected".into()),
        Paint::Series(0),
        Mark::Bars {
            bars: rows()
                .map(|(i, b)| plot::Bar {
                    from: (0.0, i + 0.5),
                    to: (b.expected, i + 0.9),
                    paint: b.highlight.then_some(Paint::Series(1)),
                })
                .collect(),
        },
    );
    p.add(
        Some("expected band".into()),
        Paint::Ink,
        Mark::Segments {
            segments: rows().map(|(i, b)| [(b.low, i + 0.5), (b.high, i + 0.5)]).collect(),
            width: 2,
        },
    );
    // Where a bar is backed by a measurement, the measured figure as a triangle on it.
    let measured: Vec<plot::Dot> = rows().filter_map(|(i, b)| Some(plot::Dot::at(b.measured?, i + 0.3, 5))).collect();
    p.facts.push(("measured-machines", measured.len().to_string()));
    if !measured.is_empty() {
        p.add(
            Some("measured run of this model".into()),
            Paint::Series(2),
            Mark::Dots {
                dots: measured,
                triangle: true,
            },
        );
    }
    p
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
                measured: None,
            },
            Bar {
                label: "RTX 4090".into(),
                ceiling: 48.8,
                expected: 35.8,
                low: 31.0,
                high: 39.0,
                highlight: true,
                fits: true,
                measured: Some(36.9),
            },
            Bar {
                label: "RTX 3060".into(),
                ceiling: 8.0,
                expected: 6.0,
                low: 5.0,
                high: 7.0,
                highlight: false,
                fits: false,
                measured: None,
            },
        ];
        let doc = svg(&plot(&bars));
        for text in [
            "Desktop DDR5",
            "RTX 4090",
            "RTX 3060 (spills)",
            "tok/s",
            "ceiling",
            "expected band",
            "measured run of this model",
        ] {
            assert!(doc.contains(text), "missing {text}");
        }
        assert!(plot(&bars).facts.contains(&("measured-machines", "1".to_string())));
        assert!(doc.matches("<rect").count() >= 7);
    }

    #[test]
    fn a_row_per_machine_gets_room_for_its_label() {
        let bar = |label: &str| Bar {
            label: label.into(),
            ceiling: 10.0,
            expected: 8.0,
            low: 7.0,
            high: 9.0,
            highlight: false,
            fits: true,
            measured: None,
        };
        let few = plot(&[bar("a"), bar("b")]);
        let all: Vec<Bar> = FEATURED.iter().map(|id| bar(id)).collect();
        let many = plot(&all);
        assert!(many.min_height > few.min_height);
        assert!((many.min_height - FRAME_HEIGHT) / FEATURED.len() as f64 >= 16.0);
        assert_eq!(plot(&[]).min_height, 0.0);
    }

    #[test]
    fn nothing_to_compare_says_so() {
        assert!(svg(&plot(&[])).contains("no machines"));
    }
}
