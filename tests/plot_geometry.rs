//! The geometry of reckon's SVG plots, read back from the SVG: error bars
//! drawn over their markers, in a stroke of their own and with caps wider
//! than the marker; a log axis with few points ticked at the data's own
//! values (1, 2, 4 … 250), not only at the decades; every word of a chart
//! at least 11 px at its default width. The snapshot is the chart's
//! geometry (texts with their size and place, markers, bars), so a change
//! of layout shows as a reviewable diff.

use reckon::render::plot::{self, Chart, ChartKind, Series};

const XS: [f64; 11] = [1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 50.0, 100.0, 150.0, 200.0, 250.0];

/// The bundled example's shape: throughput over `max_concurrency` on a log
/// axis, two series with three repeats at each point.
fn chart() -> Chart {
    let series = |name: &str, scale: f64| {
        let points: Vec<(f64, f64)> = XS.iter().map(|&x| (x, scale * (1.0 - (-x / 40.0f64).exp()) + 50.0)).collect();
        let bars = points.iter().map(|&(x, y)| (x, y - 0.4, y + 0.5)).collect();
        Series { name: name.into(), points, bars }
    };
    Chart {
        kind: ChartKind::Line,
        title: "Output throughput vs max concurrency".into(),
        x_label: "max_concurrency".into(),
        y_label: "output_throughput (tok/s)".into(),
        log_x: true,
        log_y: false,
        series: vec![series("baseline", 700.0), series("eagle-topk4-v1", 300.0)],
        categories: vec![],
    }
}

/// One element of the SVG: its name and attributes, in document order.
#[derive(Debug)]
struct Element {
    name: String,
    attrs: Vec<(String, String)>,
    text: String,
}

impl Element {
    fn attr(&self, k: &str) -> Option<&str> {
        self.attrs.iter().find(|(name, _)| name == k).map(|(_, v)| v.as_str())
    }

    fn num(&self, k: &str) -> f64 {
        self.attr(k).and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{k} of {self:?}"))
    }

    /// A polyline's points.
    fn points(&self) -> Vec<(f64, f64)> {
        let pts = self.attr("points").unwrap_or_default().split_whitespace();
        pts.map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
    }
}

fn elements(svg: &str) -> Vec<Element> {
    let attr = regex::Regex::new(r#"([a-z-]+)="([^"]*)""#).unwrap();
    let mut out = Vec::new();
    for piece in svg.split('<').skip(1) {
        if piece.starts_with('/') || piece.starts_with('!') {
            continue;
        }
        let (tag, rest) = piece.split_once('>').unwrap_or((piece, ""));
        let name = tag.split_whitespace().next().unwrap_or_default().trim_end_matches('/').to_string();
        let attrs = attr.captures_iter(tag).map(|c| (c[1].to_string(), c[2].to_string())).collect();
        out.push(Element { name, attrs, text: rest.trim().to_string() });
    }
    out
}

#[test]
fn error_bars_are_drawn_over_their_markers_with_caps() {
    let c = chart();
    let svg = plot::svg(&c).unwrap();
    let els = elements(&svg);
    let markers: Vec<(usize, &Element)> = els.iter().enumerate().filter(|(_, e)| e.name == "circle").collect();
    assert_eq!(markers.len(), 22, "a marker per point");
    for (at, marker) in &markers {
        let (cx, cy, r) = (marker.num("cx"), marker.num("cy"), marker.num("r"));
        let fill = marker.attr("fill").unwrap();
        // After the marker (drawn over it): a whisker through its centre
        // and a cap at each end, wider than the marker, in another colour.
        let after = &els[at + 1..];
        let whisker = after.iter().find(|e| {
            let p = e.points();
            e.name == "polyline"
                && p.len() == 2
                && p[0].0 == cx
                && p[1].0 == cx
                && p[0].1.min(p[1].1) <= cy
                && p[0].1.max(p[1].1) >= cy
        });
        let whisker = whisker.unwrap_or_else(|| panic!("no error bar over the marker at ({cx}, {cy})"));
        assert_ne!(whisker.attr("stroke"), Some(fill), "the bar's stroke is the marker's fill: it vanishes in it");
        let caps: Vec<&Element> = after
            .iter()
            .filter(|e| {
                let p = e.points();
                e.name == "polyline"
                    && p.len() == 2
                    && p[0].1 == p[1].1
                    && p[0].0 != p[1].0
                    && f64::midpoint(p[0].0, p[1].0) == cx
                    && (p[0].1 - cy).abs() <= r
            })
            .collect();
        assert!(caps.len() >= 2, "two caps at ({cx}, {cy}): {caps:?}");
        for cap in caps {
            let p = cap.points();
            assert!((p[1].0 - p[0].0).abs() >= 2.0 * r + 4.0, "a cap wider than the marker: {p:?}, r {r}");
            assert_ne!(cap.attr("stroke"), Some(fill));
        }
    }
}

/// The tick labels under the x axis, left to right.
fn x_ticks(svg: &str) -> Vec<String> {
    let els = elements(svg);
    let axis_y = els.iter().filter(|e| e.name == "text").map(|e| e.num("y")).fold(0.0, f64::max);
    // The x axis's tick labels: the row of texts just above its name.
    let row = els.iter().filter(|e| e.name == "text" && e.num("y") < axis_y).map(|e| e.num("y")).fold(0.0, f64::max);
    let mut ticks: Vec<&Element> = els.iter().filter(|e| e.name == "text" && e.num("y") == row).collect();
    ticks.sort_by(|a, b| a.num("x").total_cmp(&b.num("x")));
    ticks.iter().map(|e| e.text.clone()).collect()
}

#[test]
fn a_log_axis_with_few_points_is_ticked_at_the_data() {
    let ticks = x_ticks(&plot::svg(&chart()).unwrap());
    assert_eq!(ticks, ["1", "2", "4", "8", "16", "30", "50", "100", "150", "200", "250"]);
    // Many points: the decades.
    let mut c = chart();
    let many: Vec<f64> = (0..40).map(|i| 1.2f64.powi(i)).collect();
    c.series[0].points = many.iter().map(|&x| (x, x)).collect();
    c.series[0].bars.clear();
    c.series.truncate(1);
    let ticks = x_ticks(&plot::svg(&c).unwrap());
    assert_eq!(ticks, ["1", "10", "100", "1000"], "{ticks:?}");
}

#[test]
fn every_word_is_at_least_11_px_at_the_default_width() {
    for kind in [ChartKind::Line, ChartKind::Bar] {
        let mut c = chart();
        c.kind = kind;
        if kind == ChartKind::Bar {
            c.log_x = false;
            c.categories = XS.iter().map(ToString::to_string).collect();
            for s in &mut c.series {
                s.points = s.points.iter().enumerate().map(|(i, p)| (i as f64, p.1)).collect();
                s.bars.clear();
            }
        }
        let svg = plot::svg(&c).unwrap();
        let texts: Vec<Element> = elements(&svg).into_iter().filter(|e| e.name == "text").collect();
        assert!(texts.len() > 10, "{kind:?}");
        for t in &texts {
            assert!(t.num("font-size") >= 11.0, "{kind:?}: `{}` at {} px", t.text, t.num("font-size"));
        }
    }
}

#[test]
fn geometry_snapshot() {
    let svg = plot::svg(&chart()).unwrap();
    let mut lines = Vec::new();
    for e in elements(&svg) {
        match e.name.as_str() {
            "text" => {
                lines.push(format!("text {:.1}px ({}, {}) {}", e.num("font-size"), e.num("x"), e.num("y"), e.text));
            }
            "circle" => lines.push(format!(
                "marker r{} ({}, {}) {}",
                e.num("r"),
                e.num("cx"),
                e.num("cy"),
                e.attr("fill").unwrap()
            )),
            "polyline" if e.attr("stroke") == Some("#212121") => {
                let p: Vec<String> = e.points().iter().map(|(x, y)| format!("{x},{y}")).collect();
                lines.push(format!("bar {}", p.join(" ")));
            }
            _ => {}
        }
    }
    insta::assert_snapshot!(lines.join("\n"));
}
