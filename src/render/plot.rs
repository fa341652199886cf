//! SVG charts with plotters: a line chart of a metric against a param (one
//! line per series, optional log axes) and a grouped bar chart. Fixed size,
//! fixed palette, no fonts loaded: the same data give the same bytes.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::{Error, Result};

/// One named line (or group member of a bar chart).
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub name: String,
    /// (x, y) points; for bar charts x is the category index.
    pub points: Vec<(f64, f64)>,
    /// Error bars (x, low, high): the spread of a point's repeated runs.
    /// Empty when no point has repeats.
    pub bars: Vec<(f64, f64, f64)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChartKind {
    Line,
    Bar,
}

/// What to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    pub kind: ChartKind,
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub log_x: bool,
    pub log_y: bool,
    pub series: Vec<Series>,
    /// Category names of a bar chart, indexed by x.
    pub categories: Vec<String>,
}

pub const WIDTH: u32 = 720;
pub const HEIGHT: u32 = 420;

const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

/// What the plotting library says went wrong, in its words.
fn plot_err<E: std::fmt::Display>(e: E) -> Error {
    Error::Plot(e.to_string())
}

/// Where a drawn point landed: series `series`'s point `point` (indices
/// into [`Chart::series`] and its `points`) at pixel `at` of the SVG
/// (its top-left corner is (0, 0), its size [`WIDTH`] × [`HEIGHT`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mark {
    pub series: usize,
    pub point: usize,
    pub at: (i32, i32),
}

/// Renders the chart as an SVG document.
pub fn svg(chart: &Chart) -> Result<String> {
    draw(chart).map(|(svg, _)| svg)
}

/// Renders the chart as an SVG document, with where each point was drawn
/// (a point a log axis cannot show has no mark).
pub fn draw(chart: &Chart) -> Result<(String, Vec<Mark>)> {
    let chart = &well_formed(chart);
    let mut out = String::new();
    let marks = {
        let root = SVGBackend::with_string(&mut out, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let marks = match chart.kind {
            ChartKind::Line => draw_line(&root, chart)?,
            ChartKind::Bar => draw_bar(&root, chart)?,
        };
        root.present().map_err(plot_err)?;
        marks
    };
    if !out.ends_with('\n') {
        out.push('\n');
    }
    // The plotted numbers ride along as a comment, so a review can show how
    // the data behind a chart changed instead of a diff of coordinates.
    if let Some(end) = out.find('>') {
        out.insert_str(end + 1, &format!("\n<!-- {DATA_MARK}\n{}-->", data_table(chart)));
    }
    Ok((out, marks))
}

const DATA_MARK: &str = "reckon:data";

/// The chart with its words (title, labels, series and category names:
/// from logs and arguments) made of characters XML allows, each control
/// written visibly ([`crate::escape::xml`]); the SVG writer escapes the
/// markup characters.
fn well_formed(chart: &Chart) -> Chart {
    let x = crate::escape::xml;
    Chart {
        title: x(&chart.title),
        x_label: x(&chart.x_label),
        y_label: x(&chart.y_label),
        series: chart.series.iter().map(|s| Series { name: x(&s.name), ..s.clone() }).collect(),
        categories: chart.categories.iter().map(|c| x(c)).collect(),
        ..chart.clone()
    }
}

/// `line` as the text of an XML comment: no `--` in it (a space between
/// two dashes).
fn comment_text(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for c in line.chars() {
        if c == '-' && out.ends_with('-') {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// The chart's numbers as tab-separated lines: series, x, y.
fn data_table(chart: &Chart) -> String {
    let with_bars = chart.series.iter().any(|s| !s.bars.is_empty());
    let mut s = String::from(if with_bars { "series\tx\ty\tlow\thigh\n" } else { "series\tx\ty\n" });
    for series in &chart.series {
        for (x, y) in &series.points {
            let bar = series.bars.iter().find(|b| b.0 == *x);
            let x = match chart.kind {
                ChartKind::Bar => chart.categories.get(category_index(*x)).cloned().unwrap_or_else(|| tick(*x)),
                ChartKind::Line => tick(*x),
            };
            let spread = match bar {
                Some((_, lo, hi)) => format!("\t{}\t{}", tick(*lo), tick(*hi)),
                None if with_bars => "\t\t".to_string(),
                None => String::new(),
            };
            s.push_str(&comment_text(&format!("{}\t{x}\t{}{spread}\n", series.name, tick(*y))));
        }
    }
    s
}

/// The plotted numbers a reckon SVG carries, if it is one.
pub fn data_of(svg: &str) -> Option<&str> {
    // An old file may be anything (cut after the marker, a multi-byte
    // character after it): only whole characters are sliced.
    let rest = &svg[svg.find(DATA_MARK)? + DATA_MARK.len()..];
    let rest = rest.strip_prefix('\n').unwrap_or(rest);
    let len = rest.find("-->")?;
    rest.get(..len)
}

fn bounds(values: impl Iterator<Item = f64>, log: bool) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite() && (!log || *v > 0.0)) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return if log { (1.0, 10.0) } else { (0.0, 1.0) };
    }
    if log {
        (lo / 1.2, hi * 1.2)
    } else {
        let pad = ((hi - lo) * 0.05).max(hi.abs() * 0.01).max(1e-9);
        (if lo >= 0.0 && lo - pad < 0.0 { 0.0 } else { lo - pad }, hi + pad)
    }
}

fn tick(v: f64) -> String {
    crate::metric::format_number(v)
}

/// The category a bar chart's x stands for: bars are placed at their
/// category's index (0, 1, 2, … as f64), so the value is a small whole
/// number and the cast loses nothing (`as` saturates anything else).
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
fn category_index(x: f64) -> usize {
    x as usize
}

/// Text sizes in plotters' points (it writes 1/1.24 of them as SVG
/// pixels): every word of a chart at least 11 px at the default width.
const TEXT: u32 = 14;
const AXIS_TEXT: u32 = 15;
const TITLE_TEXT: u32 = 20;
/// A marker's radius, and half the width of an error bar's caps (wider
/// than the marker, so a spread smaller than the marker still shows).
const MARKER: i32 = 3;
const CAP: i32 = 6;
/// Error bars are drawn in this stroke over the markers (a bar in its
/// series' colour vanished into them).
const BAR_STROKE: RGBColor = RGBColor(33, 33, 33);
/// At most this many distinct x values on a log axis are ticked at their
/// own values (1, 2, 4 … 250) rather than at the decades.
const OWN_TICKS: usize = 16;

fn draw_line(root: &DrawingArea<SVGBackend, Shift>, chart: &Chart) -> Result<Vec<Mark>> {
    let xs = chart.series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let ys =
        chart.series.iter().flat_map(|s| s.points.iter().map(|p| p.1).chain(s.bars.iter().flat_map(|b| [b.1, b.2])));
    let (x0, x1) = bounds(xs.clone(), chart.log_x);
    let (y0, y1) = bounds(ys, chart.log_y);
    let own = if chart.log_x { own_ticks(xs, x0, x1) } else { None };
    // plotters types the chart by its coordinate kinds, so each axis
    // combination is its own monomorphised call.
    match (chart.log_x, chart.log_y, own) {
        (false, false, _) => line_chart(root, chart, x0..x1, y0..y1),
        (false, true, _) => line_chart(root, chart, x0..x1, (y0..y1).log_scale()),
        (true, false, None) => line_chart(root, chart, (x0..x1).log_scale(), y0..y1),
        (true, true, None) => line_chart(root, chart, (x0..x1).log_scale(), (y0..y1).log_scale()),
        (true, false, Some(k)) => line_chart(root, chart, (x0..x1).log_scale().with_key_points(k), y0..y1),
        (true, true, Some(k)) => line_chart(root, chart, (x0..x1).log_scale().with_key_points(k), (y0..y1).log_scale()),
    }
}

/// The ticks of a log x axis at the data's own values, when there are few
/// (at most [`OWN_TICKS`]): each kept only when its label clears the last
/// kept one's on the axis `x0..x1` (a label's width estimated from its
/// characters at [`TEXT`]).
fn own_ticks(xs: impl Iterator<Item = f64>, x0: f64, x1: f64) -> Option<Vec<f64>> {
    let mut xs: Vec<f64> = xs.filter(|x| x.is_finite() && *x > 0.0).collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    if xs.len() < 2 || xs.len() > OWN_TICKS {
        return None;
    }
    let axis = f64::from(WIDTH) - 2.0 * 12.0 - f64::from(Y_LABELS);
    let at = |x: f64| (x.ln() - x0.ln()) / (x1.ln() - x0.ln()) * axis;
    // A digit of sans-serif text is about 0.55 of its size in pixels.
    let width = |x: f64| tick(x).chars().count() as f64 * f64::from(TEXT) / 1.24 * 0.55;
    let clears = |a: f64, b: f64| at(b) - at(a) >= f64::midpoint(width(a), width(b)) + 4.0;
    let mut kept: Vec<f64> = Vec::with_capacity(xs.len());
    for &x in &xs {
        if kept.last().is_none_or(|&last| clears(last, x)) {
            kept.push(x);
        }
    }
    // The axis ends at the data's last value when it fits.
    let last = xs[xs.len() - 1];
    if kept.last() != Some(&last) {
        kept.pop();
        if kept.last().is_none_or(|&before| clears(before, last)) {
            kept.push(last);
        }
    }
    Some(kept)
}

/// Room for the axes' tick labels and names, in pixels.
const X_LABELS: u32 = 48;
const Y_LABELS: u32 = 72;

fn line_chart<X, Y>(root: &DrawingArea<SVGBackend, Shift>, chart: &Chart, x: X, y: Y) -> Result<Vec<Mark>>
where
    X: plotters::coord::ranged1d::AsRangedCoord<Value = f64>,
    Y: plotters::coord::ranged1d::AsRangedCoord<Value = f64>,
    X::CoordDescType: plotters::coord::ranged1d::ValueFormatter<f64>,
    Y::CoordDescType: plotters::coord::ranged1d::ValueFormatter<f64>,
{
    let mut ctx = ChartBuilder::on(root)
        .caption(&chart.title, ("sans-serif", TITLE_TEXT))
        .margin(12)
        .x_label_area_size(X_LABELS)
        .y_label_area_size(Y_LABELS)
        .build_cartesian_2d(x, y)
        .map_err(plot_err)?;
    ctx.configure_mesh()
        .x_desc(&chart.x_label)
        .y_desc(&chart.y_label)
        .x_label_formatter(&|v| tick(*v))
        .y_label_formatter(&|v| tick(*v))
        .label_style(("sans-serif", TEXT))
        .axis_desc_style(("sans-serif", AXIS_TEXT))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()
        .map_err(plot_err)?;
    let mut marks = Vec::new();
    let shown =
        |(x, y): (f64, f64)| x.is_finite() && y.is_finite() && (!chart.log_x || x > 0.0) && (!chart.log_y || y > 0.0);
    for (i, s) in chart.series.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        let pts: Vec<(usize, (f64, f64))> = s.points.iter().copied().enumerate().filter(|(_, p)| shown(*p)).collect();
        ctx.draw_series(LineSeries::new(pts.iter().map(|(_, p)| *p), color.stroke_width(2)))
            .map_err(plot_err)?
            .label(&s.name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
        ctx.draw_series(pts.iter().map(|(_, p)| Circle::new(*p, MARKER, color.filled()))).map_err(plot_err)?;
        // The spread of a point's runs, over its marker: a whisker with
        // caps wider than the marker, in a dark stroke.
        let bars = s.bars.iter().filter(|(x, lo, hi)| {
            [x, lo, hi].iter().all(|v| v.is_finite())
                && (!chart.log_x || *x > 0.0)
                && (!chart.log_y || *lo > 0.0)
                && pts.iter().any(|(_, p)| p.0 == *x)
        });
        for &(x, lo, hi) in bars {
            let stroke = BAR_STROKE.stroke_width(1);
            let cap = |y: f64| EmptyElement::at((x, y)) + PathElement::new(vec![(-CAP, 0), (CAP, 0)], stroke);
            let whisker = PathElement::new(vec![(x, lo), (x, hi)], stroke);
            ctx.draw_series([whisker]).map_err(plot_err)?;
            ctx.draw_series([cap(lo), cap(hi)]).map_err(plot_err)?;
        }
        marks.extend(pts.iter().map(|&(point, p)| Mark { series: i, point, at: ctx.backend_coord(&p) }));
    }
    ctx.configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .label_font(("sans-serif", TEXT))
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(200, 200, 200))
        .draw()
        .map_err(plot_err)?;
    Ok(marks)
}

fn draw_bar(root: &DrawingArea<SVGBackend, Shift>, chart: &Chart) -> Result<Vec<Mark>> {
    let n = chart.categories.len().max(1);
    let ys =
        chart.series.iter().flat_map(|s| s.points.iter().map(|p| p.1).chain(s.bars.iter().flat_map(|b| [b.1, b.2])));
    let (y0, y1) = bounds(ys.chain(std::iter::once(0.0)), false);
    let categories = chart.categories.clone();
    let label = move |v: &f64| {
        let i = v.round();
        if (v - i).abs() < 1e-9 && i >= 0.0 {
            categories.get(category_index(i)).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    let mut ctx = ChartBuilder::on(root)
        .caption(&chart.title, ("sans-serif", TITLE_TEXT))
        .margin(12)
        .x_label_area_size(X_LABELS)
        .y_label_area_size(Y_LABELS)
        .build_cartesian_2d(-0.5..(n as f64 - 0.5), y0..y1)
        .map_err(plot_err)?;
    ctx.configure_mesh()
        .x_desc(&chart.x_label)
        .y_desc(&chart.y_label)
        .x_labels(n)
        .x_label_formatter(&label)
        .y_label_formatter(&|v| tick(*v))
        .label_style(("sans-serif", TEXT))
        .axis_desc_style(("sans-serif", AXIS_TEXT))
        .disable_x_mesh()
        .light_line_style(RGBColor(235, 235, 235))
        .draw()
        .map_err(plot_err)?;
    let k = chart.series.len().max(1) as f64;
    let width = 0.8 / k;
    let mut marks = Vec::new();
    for (i, s) in chart.series.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        let left = -0.4 + i as f64 * width;
        ctx.draw_series(
            s.points
                .iter()
                .filter(|(_, y)| y.is_finite())
                .map(|(x, y)| Rectangle::new([(x + left, 0.0), (x + left + width * 0.9, *y)], color.filled())),
        )
        .map_err(plot_err)?
        .label(&s.name)
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled()));
        // The spread of repeated runs, drawn in the bar's middle in a dark
        // stroke so it shows on top of the fill.
        // A whisker with caps, no centre mark: the bar's top is the value.
        let (centre, cap) = (left + width * 0.45, width * 0.15);
        for &(x, lo, hi) in s.bars.iter().filter(|(_, lo, hi)| lo.is_finite() && hi.is_finite()) {
            let x = x + centre;
            let lines =
                [vec![(x, lo), (x, hi)], vec![(x - cap, lo), (x + cap, lo)], vec![(x - cap, hi), (x + cap, hi)]];
            ctx.draw_series(lines.into_iter().map(|l| PathElement::new(l, BLACK.stroke_width(1)))).map_err(plot_err)?;
        }
        let tops = s.points.iter().enumerate().filter(|(_, (_, y))| y.is_finite());
        marks.extend(tops.map(|(point, &(x, y))| Mark { series: i, point, at: ctx.backend_coord(&(x + centre, y)) }));
    }
    ctx.configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font(("sans-serif", TEXT))
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(200, 200, 200))
        .draw()
        .map_err(plot_err)?;
    Ok(marks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(kind: ChartKind) -> Chart {
        Chart {
            kind,
            title: "output_throughput by max_concurrency".into(),
            x_label: "max_concurrency".into(),
            y_label: "output_throughput (tok/s)".into(),
            log_x: kind == ChartKind::Line,
            log_y: false,
            series: vec![
                Series {
                    name: "baseline".into(),
                    points: vec![(1.0, 92.7), (30.0, 689.4), (250.0, 718.1)],
                    bars: vec![],
                },
                Series {
                    name: "eagle-topk1-v2".into(),
                    points: vec![(1.0, 86.8), (30.0, 759.3), (250.0, 754.4)],
                    bars: vec![],
                },
            ],
            categories: vec!["1".into(), "30".into(), "250".into()],
        }
    }

    #[test]
    fn charts_are_svg_and_identical_across_runs() {
        for kind in [ChartKind::Line, ChartKind::Bar] {
            let a = svg(&chart(kind)).unwrap();
            let b = svg(&chart(kind)).unwrap();
            assert_eq!(a, b);
            assert!(a.starts_with("<svg"), "{}", &a[..60]);
            assert!(a.contains("eagle-topk1-v2"));
            assert!(a.contains("max_concurrency"));
            let data = data_of(&a).unwrap();
            assert!(data.starts_with("series\tx\ty\nbaseline\t"), "{data}");
            assert!(data.contains("eagle-topk1-v2\t30\t759.3\n"), "{data}");
        }
    }

    #[test]
    fn data_of_a_damaged_file_does_not_panic() {
        // Found by a reliability pass: an old SVG ending right after the
        // marker, or with a non-ASCII character there, panicked.
        assert_eq!(data_of("<svg><!-- reckon:data"), None);
        assert_eq!(data_of("<svg><!-- reckon:data\u{e9}x-->"), Some("\u{e9}x"));
        assert_eq!(data_of("<svg><!-- reckon:data\u{1F600}-->"), Some("\u{1F600}"));
        assert_eq!(data_of("<svg><!-- reckon:data\nseries\tx\ty\n-->"), Some("series\tx\ty\n"));
    }

    #[test]
    fn a_different_value_draws_a_different_chart() {
        let a = svg(&chart(ChartKind::Line)).unwrap();
        let mut c = chart(ChartKind::Line);
        c.series[0].points[1].1 = 700.0;
        assert_ne!(a, svg(&c).unwrap());
    }

    #[test]
    fn error_bars_are_drawn_and_carried_in_the_data() {
        for kind in [ChartKind::Line, ChartKind::Bar] {
            let plain = svg(&chart(kind)).unwrap();
            let mut c = chart(kind);
            c.series[0].bars = vec![(30.0, 680.0, 700.0)];
            let with = svg(&c).unwrap();
            // Each error bar adds a vertical stroke and two caps.
            assert!(
                with.matches("<line").count() + with.matches("<polyline").count()
                    > plain.matches("<line").count() + plain.matches("<polyline").count(),
                "{kind:?}"
            );
            let data = data_of(&with).unwrap();
            assert!(data.starts_with("series\tx\ty\tlow\thigh\n"), "{data}");
            assert!(data.contains("\t689.4\t680\t700\n"), "{data}");
            assert!(data.contains("eagle-topk1-v2\t") && data.contains("\t\t\n"), "points without repeats: {data}");
        }
    }

    #[test]
    fn empty_and_non_positive_data_do_not_panic() {
        let mut c = chart(ChartKind::Line);
        c.series = vec![Series {
            name: "x".into(),
            points: vec![(0.0, -1.0), (f64::NAN, 1.0)],
            bars: vec![(0.0, -2.0, 0.0), (f64::NAN, 0.5, 1.5)],
        }];
        c.log_y = true;
        assert!(svg(&c).unwrap().starts_with("<svg"));
        c.series.clear();
        assert!(svg(&c).unwrap().starts_with("<svg"));
    }
}
