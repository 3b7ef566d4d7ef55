//! The one renderer every chart draws through.
//!
//! A chart is described as data — a [`Plot`]: axes and series — and [`draw`] lays it
//! out in pixels and paints it with the primitives of any plotters `DrawingBackend`. Every chart shares this
//! one generic function, so the page's WebAssembly carries one copy of the drawing code per
//! backend instead of one per chart and coordinate type (six charts through plotters' generic
//! chart builder cost the page about a fifth of its download).
//!
//! Layout: a title row, a y-axis gutter sized to its widest label, an x-axis band below, and the
//! legend in rows under it, so it never covers data at any width. Linear axes tick at 1, 2 or 5 × 10ⁿ; logarithmic axes
//! at powers of ten (with 2× and 5× when the range spans two decades or less); category axes label
//! each band's centre.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{DrawResult, Theme};

/// A chart, as data.
#[derive(Clone, Debug, PartialEq)]
pub struct Plot {
    pub title: String,
    pub x: Axis,
    pub y: Axis,
    pub series: Vec<Series>,
    /// Drawn instead of the axes when there is nothing to plot.
    pub message: Option<String>,
    /// Facts the drawing shows, carried by the page's canvas as `data-` attributes for outside
    /// checks (`("max-streams", "4")` is `data-max-streams="4"`).
    pub facts: Vec<(&'static str, String)>,
    /// The least height, in CSS pixels, at which the chart can be read: a chart of labelled rows
    /// needs room per row however narrow the page is. 0 for charts that scale freely.
    pub min_height: f64,
}

impl Plot {
    pub fn new(title: impl Into<String>, x: Axis, y: Axis) -> Plot {
        Plot {
            title: title.into(),
            x,
            y,
            series: Vec::new(),
            message: None,
            facts: Vec::new(),
            min_height: 0.0,
        }
    }

    /// A titled frame with a centred message and no axes.
    pub fn empty(title: impl Into<String>, message: impl Into<String>) -> Plot {
        let mut p = Plot::new(title, Axis::linear("", 0.0, 1.0), Axis::linear("", 0.0, 1.0));
        p.message = Some(message.into());
        p
    }

    /// Adds a series; a label puts it in the legend.
    pub fn add(&mut self, label: Option<String>, paint: Paint, mark: Mark) {
        self.series.push(Series { label, paint, mark });
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    pub label: String,
    pub min: f64,
    pub max: f64,
    pub scale: Scale,
}

impl Axis {
    pub fn linear(label: &str, min: f64, max: f64) -> Axis {
        Axis::with(label, min, max, Scale::Linear)
    }

    pub fn log(label: &str, min: f64, max: f64) -> Axis {
        Axis::with(label, min, max, Scale::Log)
    }

    fn with(label: &str, min: f64, max: f64, scale: Scale) -> Axis {
        Axis {
            label: label.into(),
            min,
            max,
            scale,
        }
    }

    /// Categories `0..n`: category `i` is the band from `i` to `i + 1`.
    pub fn categories(label: &str, names: Vec<String>) -> Axis {
        let n = names.len().max(1) as f64;
        Axis::with(label, 0.0, n, Scale::Categories(names))
    }

    /// A logarithmic axis whose labels read as token counts (1K, 100K, 1M).
    pub fn tokens(label: &str, min: f64, max: f64) -> Axis {
        Axis::with(label, min, max, Scale::Tokens)
    }

    fn is_log(&self) -> bool {
        matches!(self.scale, Scale::Log | Scale::Tokens)
    }

    /// Where `v` falls along the axis, 0 at `min` and 1 at `max` (clamped).
    pub fn fraction(&self, v: f64) -> f64 {
        let t = |v: f64| if self.is_log() { v.max(f64::MIN_POSITIVE).ln() } else { v };
        let (lo, hi) = (t(self.min), t(self.max));
        let f = if hi > lo { (t(v) - lo) / (hi - lo) } else { 0.0 };
        if f.is_finite() {
            f.clamp(0.0, 1.0)
        } else if v > self.min {
            1.0
        } else {
            0.0
        }
    }

    /// Tick positions and their labels, about `room` of them.
    pub fn ticks(&self, room: usize) -> Vec<(f64, String)> {
        match &self.scale {
            Scale::Categories(names) => names.iter().enumerate().map(|(i, n)| (i as f64 + 0.5, n.clone())).collect(),
            Scale::Linear => {
                let step = nice_step((self.max - self.min) / room.max(2) as f64);
                let first = (self.min / step).ceil() as i64;
                let last = (self.max / step + 1e-9).floor() as i64;
                let decimals = (-step.log10().floor()).max(0.0) as usize;
                (first..=last)
                    .map(|k| {
                        let v = k as f64 * step;
                        (v, format!("{v:.decimals$}"))
                    })
                    .collect()
            }
            Scale::Log | Scale::Tokens => {
                let (lo, hi) = (self.min.max(f64::MIN_POSITIVE).log10(), self.max.max(f64::MIN_POSITIVE).log10());
                let multiples: &[f64] = if hi - lo <= 2.0 { &[1.0, 2.0, 5.0] } else { &[1.0] };
                let mut out = Vec::new();
                for e in lo.floor() as i32..=hi.ceil() as i32 {
                    for m in multiples {
                        let v = m * 10f64.powi(e);
                        if v >= self.min * (1.0 - 1e-9) && v <= self.max * (1.0 + 1e-9) {
                            let text = if self.scale == Scale::Tokens {
                                short_tokens(v)
                            } else {
                                let decimals = (-e).max(0) as usize;
                                format!("{v:.decimals$}")
                            };
                            out.push((v, text));
                        }
                    }
                }
                out
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Scale {
    Linear,
    Log,
    Tokens,
    Categories(Vec<String>),
}

/// A colour from the theme, so one plot draws in light or dark.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Paint {
    /// The theme's n-th series colour.
    Series(usize),
    /// The n-th series colour, faded (a band behind another).
    Faint(usize),
    /// The text colour.
    Ink,
    /// The text colour, faded (a marker line).
    FaintInk,
}

impl Paint {
    fn color(self, theme: &Theme) -> RGBAColor {
        match self {
            Paint::Series(i) => theme.color(i).to_rgba(),
            Paint::Faint(i) => theme.color(i).mix(0.3),
            Paint::Ink => theme.foreground.to_rgba(),
            Paint::FaintInk => theme.foreground.mix(0.5),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub label: Option<String>,
    pub paint: Paint,
    pub mark: Mark,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// A polyline; `dash` = (on, off) in pixels.
    Line {
        points: Vec<(f64, f64)>,
        width: u32,
        dash: Option<(u32, u32)>,
    },
    /// Separate straight segments (whiskers).
    Segments { segments: Vec<[(f64, f64); 2]>, width: u32 },
    /// Points; each may carry its own colour, size and a text label.
    Dots { dots: Vec<Dot>, triangle: bool },
    /// Filled rectangles between two corners in data units.
    Bars { bars: Vec<Bar> },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Dot {
    pub x: f64,
    pub y: f64,
    pub radius: u32,
    /// Overrides the series colour.
    pub paint: Option<Paint>,
    pub label: Option<String>,
}

impl Dot {
    pub fn at(x: f64, y: f64, radius: u32) -> Dot {
        Dot {
            x,
            y,
            radius,
            paint: None,
            label: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub from: (f64, f64),
    pub to: (f64, f64),
    /// Overrides the series colour.
    pub paint: Option<Paint>,
}

/// Axis labels in decimal thousands: 1000 → "1K", 100000 → "100K", 1000000 → "1M".
pub fn short_tokens(v: f64) -> String {
    if v >= 999_999.0 {
        format!("{:.0}M", v / 1e6)
    } else if v >= 999.0 {
        format!("{:.0}K", v / 1e3)
    } else {
        format!("{v:.0}")
    }
}

/// The smallest of 1, 2, 5 × 10ⁿ at least `raw`.
fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let base = 10f64.powi(raw.log10().floor() as i32);
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * base)
        .find(|s| *s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * base)
}

/// The pixel box of the plotting area and the mapping from data into it.
struct Frame<'a> {
    x: &'a Axis,
    y: &'a Axis,
    left: i32,
    top: i32,
    right: i32,
    bottom: i32,
}

impl Frame<'_> {
    fn px(&self, (x, y): (f64, f64)) -> (i32, i32) {
        let fx = self.x.fraction(x);
        let fy = self.y.fraction(y);
        (
            self.left + (fx * f64::from(self.right - self.left)).round() as i32,
            self.bottom - (fy * f64::from(self.bottom - self.top)).round() as i32,
        )
    }
}

/// Splits a pixel polyline into dashes of `on` pixels separated by `off`.
fn dashes(path: &[(i32, i32)], on: u32, off: u32) -> Vec<Vec<(i32, i32)>> {
    let (on, off) = (f64::from(on.max(1)), f64::from(off));
    let mut out = Vec::new();
    let mut current: Vec<(i32, i32)> = Vec::new();
    // Distance left in the current dash (drawing) or gap (not drawing).
    let (mut drawing, mut left) = (true, on);
    for pair in path.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let (dx, dy) = (f64::from(b.0 - a.0), f64::from(b.1 - a.1));
        let len = dx.hypot(dy);
        let mut at = 0.0;
        while at < len {
            let step = left.min(len - at);
            let p = |t: f64| {
                (
                    (f64::from(a.0) + dx * t / len).round() as i32,
                    (f64::from(a.1) + dy * t / len).round() as i32,
                )
            };
            if drawing {
                if current.is_empty() {
                    current.push(p(at));
                }
                current.push(p(at + step));
            }
            at += step;
            left -= step;
            if left <= 0.0 {
                if drawing {
                    out.push(std::mem::take(&mut current));
                }
                drawing = !drawing;
                left = if drawing { on } else { off };
            }
        }
    }
    if current.len() > 1 {
        out.push(current);
    }
    out
}

fn text(theme: &Theme, size: u32) -> TextStyle<'static> {
    (FontFamily::SansSerif, size).into_font().color(&theme.foreground)
}

/// The title's font size and lines within `room` pixels: one line at 16 px when it fits, else at
/// 14 or 12 px, else two lines at 12 px split at the space nearest the middle (on a phone, the
/// longer titles need two).
fn fit_title<'t, DB: DrawingBackend>(backend: &DB, title: &'t str, room: i32, theme: &Theme) -> (u32, Vec<&'t str>) {
    let fits = |size: u32| {
        backend
            .estimate_text_size(title, &text(theme, size))
            .map_or(true, |(width, _)| width as i32 <= room)
    };
    if let Some(size) = [16, 14, 12].into_iter().find(|&size| fits(size)) {
        return (size, vec![title]);
    }
    let middle = title.len() / 2;
    match title.match_indices(' ').map(|(i, _)| i).min_by_key(|&i| i.abs_diff(middle)) {
        Some(i) => (12, vec![&title[..i], &title[i + 1..]]),
        None => (12, vec![title]),
    }
}

/// A filled triangle pointing up, centred on `(x, y)`, its corners `r` from the centre (at
/// 90°, 210° and 330°: cos 30° ≈ 0.866).
fn triangle(x: i32, y: i32, r: u32) -> [(i32, i32); 3] {
    let (dx, dy) = ((f64::from(r) * 0.866).round() as i32, (f64::from(r) * 0.5).round() as i32);
    [(x, y - r as i32), (x + dx, y + dy), (x - dx, y + dy)]
}

/// Draws `plot` over the whole of `backend`.
///
/// Straight through the backend's own primitives (paths, rectangles, circles, polygons, text
/// with an anchor) rather than plotters' drawing area and elements: the charts need nothing the
/// elements add, and their generic layers cost the page 3.5 KB gzipped.
pub fn draw<DB: DrawingBackend>(backend: &mut DB, plot: &Plot, theme: &Theme) -> DrawResult<DB> {
    backend.ensure_prepared()?;
    let (w, h) = backend.get_size();
    let (w, h) = (w as i32, h as i32);
    backend.draw_rect((0, 0), (w, h), &theme.background, true)?;
    let (title_size, title_lines) = fit_title(backend, &plot.title, w - 16, theme);
    let title = text(theme, title_size).pos(Pos::new(HPos::Center, VPos::Top));
    for (k, line) in title_lines.iter().enumerate() {
        backend.draw_text(line, &title, (w / 2, 8 + k as i32 * (title_size as i32 + 3)))?;
    }
    if let Some(message) = &plot.message {
        let style = text(theme, 14).pos(Pos::new(HPos::Center, VPos::Center));
        backend.draw_text(message, &style, (w / 2, h / 2))?;
        return backend.present();
    }
    let label_style = text(theme, 12);
    let y_ticks = plot.y.ticks(((h - 100) / 45).max(2) as usize);
    let widest = y_ticks
        .iter()
        .map(|(_, t)| backend.estimate_text_size(t, &label_style).map_or(0, |s| s.0 as i32))
        .max()
        .unwrap_or(0);
    let y_desc_room = if plot.y.label.is_empty() { 0 } else { 22 };
    let rows = legend_rows(backend, plot, w - 20, theme);
    let foot = if rows.is_empty() { 0 } else { rows.len() as i32 * LEGEND_ROW + 6 };
    let frame = Frame {
        x: &plot.x,
        y: &plot.y,
        left: 10 + y_desc_room + widest + 8,
        top: if title_lines.len() > 1 { 48 } else { 40 },
        right: w - 16,
        bottom: h - 10 - foot - if plot.x.label.is_empty() { 0 } else { 20 } - 22,
    };
    if frame.right - frame.left < 20 || frame.bottom - frame.top < 20 {
        return backend.present();
    }
    draw_axes(backend, plot, &frame, &y_ticks, (h, foot), theme)?;
    draw_series(backend, plot, &frame, theme)?;
    legend(backend, &rows, h - foot, theme)?;
    backend.present()
}

/// The grid, the tick labels, the axis lines and the axis descriptions; `(h, foot)` are the
/// canvas height and the legend's rows under the plot.
fn draw_axes<DB: DrawingBackend>(
    backend: &mut DB,
    plot: &Plot,
    frame: &Frame,
    y_ticks: &[(f64, String)],
    (h, foot): (i32, i32),
    theme: &Theme,
) -> DrawResult<DB> {
    let label_style = text(theme, 12);
    let desc_style = text(theme, 13);
    let grid = ShapeStyle::from(&theme.grid).stroke_width(1);
    let is_categories = matches!(plot.y.scale, Scale::Categories(_));
    let right_aligned = label_style.pos(Pos::new(HPos::Right, VPos::Center));
    for (v, t) in y_ticks {
        let (_, py) = frame.px((plot.x.min, *v));
        if !is_categories {
            backend.draw_line((frame.left, py), (frame.right, py), &grid)?;
        }
        backend.draw_text(t, &right_aligned, (frame.left - 6, py))?;
    }
    let x_ticks = plot.x.ticks(((frame.right - frame.left) / 90).max(2) as usize);
    let centred = label_style.pos(Pos::new(HPos::Center, VPos::Top));
    for (v, t) in &x_ticks {
        let (px, _) = frame.px((*v, plot.y.min));
        backend.draw_line((px, frame.top), (px, frame.bottom), &grid)?;
        backend.draw_text(t, &centred, (px, frame.bottom + 6))?;
    }
    let axis = ShapeStyle::from(&theme.foreground).stroke_width(1);
    backend.draw_path(
        [(frame.left, frame.top), (frame.left, frame.bottom), (frame.right, frame.bottom)],
        &axis,
    )?;
    if !plot.x.label.is_empty() {
        let style = desc_style.pos(Pos::new(HPos::Center, VPos::Bottom));
        backend.draw_text(&plot.x.label, &style, ((frame.left + frame.right) / 2, h - 10 - foot))?;
    }
    if !plot.y.label.is_empty() {
        let style = desc_style
            .transform(FontTransform::Rotate270)
            .pos(Pos::new(HPos::Center, VPos::Top));
        backend.draw_text(&plot.y.label, &style, (10, (frame.top + frame.bottom) / 2))?;
    }

    Ok(())
}

/// Every series: lines (dashed or not), segments, dots and triangles with their labels, bars.
fn draw_series<DB: DrawingBackend>(backend: &mut DB, plot: &Plot, frame: &Frame, theme: &Theme) -> DrawResult<DB> {
    for s in &plot.series {
        let color = s.paint.color(theme);
        match &s.mark {
            Mark::Line { points, width, dash } => {
                let style = color.stroke_width(*width);
                let path: Vec<(i32, i32)> = points
                    .iter()
                    .filter(|p| p.0.is_finite() && p.1.is_finite())
                    .map(|&p| frame.px(p))
                    .collect();
                match dash {
                    Some((on, off)) => {
                        for d in dashes(&path, *on, *off) {
                            backend.draw_path(d, &style)?;
                        }
                    }
                    None => backend.draw_path(path, &style)?,
                }
            }
            Mark::Segments { segments, width } => {
                for [a, b] in segments {
                    backend.draw_line(frame.px(*a), frame.px(*b), &color.stroke_width(*width))?;
                }
            }
            Mark::Dots {
                dots,
                triangle: is_triangle,
            } => {
                for d in dots.iter().filter(|d| d.x.is_finite() && d.y.is_finite()) {
                    let p = frame.px((d.x, d.y));
                    let style = d.paint.map_or(color, |c| c.color(theme)).filled();
                    if *is_triangle {
                        backend.fill_polygon(triangle(p.0, p.1, d.radius), &style)?;
                    } else {
                        backend.draw_circle(p, d.radius, &style, true)?;
                    }
                    if let Some(label) = &d.label {
                        // Right of the dot, or left of it where the chart's edge would cut it.
                        let style = text(theme, 11);
                        let wide = backend.estimate_text_size(label, &style).map_or(0, |s| s.0 as i32);
                        let right = backend.get_size().0 as i32;
                        let x = if p.0 + 6 + wide > right { (p.0 - 6 - wide).max(0) } else { p.0 + 6 };
                        backend.draw_text(label, &style, (x, p.1 - 14))?;
                    }
                }
            }
            Mark::Bars { bars } => {
                for b in bars {
                    let style = b.paint.map_or(color, |c| c.color(theme)).filled();
                    let ((x0, y0), (x1, y1)) = (frame.px(b.from), frame.px(b.to));
                    backend.draw_rect((x0.min(x1), y0.min(y1)), (x0.max(x1), y0.max(y1)), &style, true)?;
                }
            }
        }
    }
    Ok(())
}

/// Height of one legend row, pixels.
const LEGEND_ROW: i32 = 18;

/// The legend's entries laid out in rows within `room` pixels: (x offset, series, label) each.
type LegendRows<'p> = Vec<Vec<(i32, &'p Series, &'p String)>>;

fn legend_rows<'p, DB: DrawingBackend>(backend: &DB, plot: &'p Plot, room: i32, theme: &Theme) -> LegendRows<'p> {
    let style = text(theme, 12);
    let mut rows: LegendRows<'p> = Vec::new();
    let mut x = 0;
    for (s, label) in plot.series.iter().filter_map(|s| s.label.as_ref().map(|l| (s, l))) {
        let width = 22 + backend.estimate_text_size(label, &style).map_or(0, |s| s.0 as i32) + 16;
        if rows.is_empty() || (x > 0 && x + width > room) {
            rows.push(Vec::new());
            x = 0;
        }
        if let Some(row) = rows.last_mut() {
            row.push((x, s, label));
        }
        x += width;
    }
    rows
}

/// The legend under the chart, from `top`: one glyph and label per labelled series.
fn legend<DB: DrawingBackend>(backend: &mut DB, rows: &LegendRows<'_>, top: i32, theme: &Theme) -> DrawResult<DB> {
    let style = text(theme, 12).pos(Pos::new(HPos::Left, VPos::Center));
    for (r, row) in rows.iter().enumerate() {
        let y = top + 2 + LEGEND_ROW / 2 + r as i32 * LEGEND_ROW;
        for (dx, s, label) in row {
            let gx = 10 + dx;
            let color = s.paint.color(theme);
            match &s.mark {
                Mark::Line { width, dash, .. } => {
                    let path = vec![(gx, y), (gx + 16, y)];
                    match dash {
                        Some((on, off)) => {
                            for d in dashes(&path, (*on).min(5), (*off).min(3)) {
                                backend.draw_path(d, &color.stroke_width(*width))?;
                            }
                        }
                        None => backend.draw_path(path, &color.stroke_width(*width))?,
                    }
                }
                Mark::Segments { width, .. } => backend.draw_line((gx, y), (gx + 16, y), &color.stroke_width(*width))?,
                Mark::Dots { triangle: true, .. } => backend.fill_polygon(triangle(gx + 8, y, 5), &color.filled())?,
                Mark::Dots { .. } => backend.draw_circle((gx + 8, y), 4, &color.filled(), true)?,
                Mark::Bars { .. } => backend.draw_rect((gx + 1, y - 5), (gx + 15, y + 5), &color.filled(), true)?,
            }
            backend.draw_text(label, &style, (gx + 22, y))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `<text>` elements of `plot` drawn on a `width`-pixel-wide SVG, in drawing order: (font
    /// size as written, text).
    fn texts(plot: &Plot, width: u32) -> Vec<(f64, String)> {
        let mut out = String::new();
        {
            let mut backend = plotters::prelude::SVGBackend::with_string(&mut out, (width, 300));
            draw(&mut backend, plot, &Theme::LIGHT).expect("chart draws");
        }
        out.split("<text")
            .skip(1)
            .map(|t| {
                let size = t.split("font-size=\"").nth(1).and_then(|r| r.split('"').next()).unwrap_or("");
                let body = t.split('>').nth(1).and_then(|r| r.split('<').next()).unwrap_or("");
                (size.parse().unwrap_or(0.0), body.trim().replace("&apos;", "'"))
            })
            .collect()
    }

    #[test]
    fn a_title_too_wide_for_the_chart_shrinks_then_takes_two_lines() {
        let long = "Speculative decoding speed-up (no draft chosen: one at 5% of the target's bytes)";
        let plot = |title: &str| Plot::new(title, Axis::linear("x", 0.0, 1.0), Axis::linear("y", 0.0, 1.0));
        let wide = texts(&plot(long), 1200);
        assert_eq!(wide[0].1, long);
        let full = wide[0].0;
        let narrow = texts(&plot(long), 320);
        assert_eq!(narrow[0].1, "Speculative decoding speed-up (no draft");
        assert_eq!(narrow[1].1, "chosen: one at 5% of the target's bytes)");
        for line in &narrow[..2] {
            assert!((line.0 / full - 12.0 / 16.0).abs() < 1e-9, "{narrow:?}");
        }
        let short = texts(&plot("Batching"), 320);
        assert_eq!((short[0].0, short[0].1.as_str()), (full, "Batching"));
    }

    /// A dot's label goes right of it, or left of it where the chart's right edge would cut it.
    #[test]
    fn a_dot_label_at_the_right_edge_is_drawn_left_of_its_dot() {
        let at = |x: f64| {
            let mut plot = Plot::new("t", Axis::linear("x", 0.0, 1.0), Axis::linear("y", 0.0, 1.0));
            let mut dot = Dot::at(x, 0.5, 6);
            dot.label = Some("memory full: 302 streams".into());
            plot.add(
                None,
                Paint::Series(3),
                Mark::Dots {
                    dots: vec![dot],
                    triangle: true,
                },
            );
            let mut out = String::new();
            {
                let mut backend = plotters::prelude::SVGBackend::with_string(&mut out, (400, 300));
                draw(&mut backend, &plot, &Theme::LIGHT).expect("chart draws");
            }
            let text = out
                .split("<text")
                .find(|t| t.contains("memory full"))
                .expect("label drawn")
                .to_string();
            let x: f64 = text
                .split("x=\"")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .and_then(|v| v.parse().ok())
                .unwrap();
            x
        };
        // At the left the label starts right of the dot; at the right edge it ends left of it,
        // inside the 400-pixel chart.
        let (left, right) = (at(0.1), at(1.0));
        assert!(left < 200.0, "{left}");
        assert!(right < 400.0 - 6.0 - 100.0, "{right}");
    }

    #[test]
    fn linear_ticks_are_round_numbers_inside_the_range() {
        let t = Axis::linear("", 0.0, 53.0).ticks(6);
        let values: Vec<f64> = t.iter().map(|t| t.0).collect();
        assert_eq!(values, vec![0.0, 10.0, 20.0, 30.0, 40.0, 50.0]);
        assert_eq!(t[1].1, "10");
        let small = Axis::linear("", 0.0, 1.0).ticks(5);
        assert_eq!(
            small.iter().map(|t| t.1.as_str()).collect::<Vec<_>>(),
            ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]
        );
    }

    #[test]
    fn log_ticks_are_powers_of_ten_and_token_axes_read_as_counts() {
        let t = Axis::log("", 0.1, 3000.0).ticks(5);
        assert_eq!(
            t.iter().map(|t| t.1.as_str()).collect::<Vec<_>>(),
            ["0.1", "1", "10", "100", "1000"]
        );
        let k = Axis::tokens("", 128.0, 1_048_576.0).ticks(5);
        assert_eq!(k.iter().map(|t| t.1.as_str()).collect::<Vec<_>>(), ["1K", "10K", "100K", "1M"]);
        let narrow = Axis::log("", 1.0, 50.0).ticks(5);
        assert_eq!(
            narrow.iter().map(|t| t.0).collect::<Vec<_>>(),
            vec![1.0, 2.0, 5.0, 10.0, 20.0, 50.0]
        );
    }

    #[test]
    fn values_map_into_the_axis_and_clamp_outside_it() {
        let a = Axis::log("", 1.0, 100.0);
        assert!((a.fraction(10.0) - 0.5).abs() < 1e-12);
        assert_eq!(a.fraction(0.0), 0.0);
        assert_eq!(a.fraction(1e9), 1.0);
        assert_eq!(Axis::linear("", 0.0, 10.0).fraction(f64::NAN), 0.0);
        let c = Axis::categories("", vec!["a".into(), "b".into()]);
        assert_eq!(c.ticks(5), vec![(0.5, "a".to_string()), (1.5, "b".to_string())]);
    }

    #[test]
    fn dashes_alternate_along_the_path() {
        let d = dashes(&[(0, 0), (20, 0)], 6, 4);
        assert_eq!(d, vec![vec![(0, 0), (6, 0)], vec![(10, 0), (16, 0)]]);
        assert_eq!(short_tokens(131_072.0), "131K");
    }
}
