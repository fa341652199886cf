//! `reckon report` links each comparison a claim made to the runs behind
//! it: every comparison listed under a claim's evidence links to a
//! provenance entry listing exactly the runs of the cells its two sides
//! were read from, counted here against `reckon query --agg count` (the
//! count of each cell's newest sweep, as the table test counts cells). On
//! the bundled example, and on hyperfine logs whose records hold five
//! repeats each (one of them failed and left out). The example's inline
//! values and plot points are checked the same way.

mod common;

use std::collections::HashMap;

use common::Sandbox;

/// `reckon query --agg count` of `metric` by `rows` and the series, as
/// (row, series) → count.
fn counts(s: &Sandbox, metric: &str, rows: &str, filter: Option<&str>) -> HashMap<(String, String), usize> {
    let mut args = vec!["query", "--metric", metric, "--rows", rows, "--agg", "count", "--format", "csv"];
    if let Some(f) = filter {
        args.extend(["--where", f]);
    }
    let out = s.ok(&args).stdout;
    let mut lines = out.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let mut cells = HashMap::new();
    for line in lines {
        let fields: Vec<&str> = line.split(',').collect();
        for (c, v) in fields.iter().enumerate().skip(1) {
            if !v.is_empty() {
                cells.insert((fields[0].to_string(), header[c].to_string()), v.parse().unwrap());
            }
        }
    }
    cells
}

/// A comparison as the page lists it: its text and the entry it links to.
struct Listed {
    text: String,
    entry: usize,
    /// The runs the link says.
    said: usize,
}

fn comparisons(html: &str) -> Vec<Listed> {
    html.split("<li class=\"comparison\">")
        .skip(1)
        .map(|li| {
            let li = &li[..li.find("</li>").unwrap()];
            let at = li.find(" <a class=\"runs\" href=\"#prov-").unwrap_or_else(|| panic!("links nowhere: {li}"));
            let link = &li[at + 29..];
            let entry = link[..link.find('"').unwrap()].parse().unwrap();
            let said = link[link.find('>').unwrap() + 1..].split(' ').next().unwrap().parse().unwrap();
            Listed { text: li[..at].replace("&amp;", "&"), entry, said }
        })
        .collect()
}

/// The runs provenance entry `k` lists ("6 runs; sweep …").
fn entry_runs(html: &str, k: usize) -> usize {
    let start = html.find(&format!("<li id=\"prov-{k}\">")).unwrap_or_else(|| panic!("no entry prov-{k}")) + 13;
    let text = &html[start..];
    let text = &text[text.find('>').unwrap() + 1..];
    text.split(' ').next().unwrap().parse().unwrap()
}

/// The series a side's name reads (`baseline`, `baseline / eagle-topk4-v1`,
/// `crossover(baseline, eagle-topk4-v1)`); none for a stated number.
fn series_of(side: &str) -> Vec<String> {
    let side = side.trim();
    if let Some(inner) = side.strip_prefix("crossover(").and_then(|s| s.strip_suffix(')')) {
        return inner.split(", ").map(str::to_string).collect();
    }
    if side == "stated" || side.starts_with("the ") {
        return Vec::new();
    }
    side.split(" / ").flat_map(|s| s.split(" - ")).map(str::to_string).collect()
}

/// A side as a comparison's text names it, without the value a breakdown
/// line writes after the name.
fn side_name(side: &str, with_value: bool) -> &str {
    let side = side.split(" (").next().unwrap().trim();
    if with_value {
        side.rsplit_once(' ').map_or(side, |(name, _)| name)
    } else {
        side
    }
}

/// The runs a comparison's cells hold, by the counts of `query`: each
/// side's series at the comparison's point (for a crossover, at every
/// point both series were measured).
fn expected(text: &str, cells: &HashMap<(String, String), usize>) -> usize {
    let (point, sides) = text.split_once(": ").unwrap();
    let with_value = sides.contains("): ");
    let sides = sides.split("): ").next().unwrap();
    let (a, b) = sides.split_once(" vs ").unwrap();
    let series: Vec<String> =
        [side_name(a, with_value), side_name(b, with_value)].iter().flat_map(|s| series_of(s)).collect();
    assert!(!series.is_empty(), "{text}");
    if point.starts_with("crossover over") {
        let rows: std::collections::BTreeSet<&String> = cells.keys().map(|(r, _)| r).collect();
        let both = rows.into_iter().filter(|r| series.iter().all(|s| cells.contains_key(&((*r).clone(), s.clone()))));
        return both.map(|r| series.iter().map(|s| cells[&(r.clone(), s.clone())]).sum::<usize>()).sum();
    }
    let row = point.split_once('=').unwrap().1.to_string();
    series.iter().map(|s| cells.get(&(row.clone(), s.clone())).copied().unwrap_or_else(|| panic!("{text}: {s}"))).sum()
}

fn check_page(html: &str, cells: &HashMap<(String, String), usize>, want: usize) {
    let listed = comparisons(html);
    assert_eq!(listed.len(), want, "the comparisons listed");
    for c in &listed {
        let n = expected(&c.text, cells);
        assert_eq!(entry_runs(html, c.entry), n, "{}: entry prov-{} lists another set of runs", c.text, c.entry);
        assert_eq!(c.said, n, "{}", c.text);
    }
}

#[test]
fn each_comparison_of_the_example_links_to_exactly_its_cells_runs() {
    let s = Sandbox::example("", &["2026-11-20", "2026-11-29"]);
    s.ok(&["report", "notebooks/eagle-fast-verify.md", "--out", "site"]);
    let html = s.read("site/eagle-fast-verify.html");
    let cells = counts(&s, "output_throughput", "max_concurrency", None);
    // single-request 1, throughput-baseline-wins 12 (6 points × 2
    // opponents), saturation-ratio, topk4-plateau, gap-at-c8 and
    // disable-threshold 1 each.
    check_page(&html, &cells, 17);
    // A comparison of 12 reads as its breakdown line; the entries of its
    // comparisons are distinct, and a side's cell is the table's too.
    assert!(html.contains("max_concurrency=30: baseline 689.4 vs eagle-topk1-v2 759.3 (-9.2%;"), "{html}");
    let listed = comparisons(&html);
    let wins: std::collections::BTreeSet<usize> = listed[1..13].iter().map(|c| c.entry).collect();
    assert_eq!(wins.len(), 12);
    // The crossover rests on every point of both series (11 × 6 runs).
    let crossover = listed.iter().find(|c| c.text.starts_with("crossover over max_concurrency")).unwrap();
    assert_eq!(crossover.said, 66);
}

#[test]
fn each_comparison_over_repeats_links_to_exactly_its_cells_runs() {
    let s = Sandbox::new();
    s.fixture("trial3/kv", ".");
    s.write(
        "notebooks/cmp.md",
        "# Compaction\n\n\
         <!-- reckon:table metric=time rows=threads cols=compaction where=\"cache_mb = 64\" -->\n\
         <!-- /reckon:table -->\n\n\
         <!-- reckon:claim id=universal-scales\n     \
         universal beats level on time for all threads >= 16 where cache_mb = 64 -->\n\
         Universal is faster from 16 threads on.\n<!-- /reckon:claim -->\n\n\
         <!-- reckon:claim id=level-at-32\n     \
         level on time at threads = 32 ≈ 3.1 within 5% where cache_mb = 64 -->\n\
         Level takes 3.1 s at 32 threads.\n<!-- /reckon:claim -->\n\n\
         At 32 threads level is <!-- reckon:claim id=ratio-32 level / universal on time at threads = 32 ≈ 2 \
         within 5% where cache_mb = 64 and universal beats level on time at threads = 8 where cache_mb = 64 -->\
         twice as slow<!-- /reckon:claim -->, and universal wins at 8.\n",
    );
    s.ok(&["report", "notebooks/cmp.md", "--out", "site"]);
    let html = s.read("site/cmp.html");
    let cells = counts(&s, "time", "threads", Some("cache_mb = 64"));
    // Five repeats per record; universal's at 32 threads lost the repeat
    // that failed (exit 134).
    assert_eq!(cells[&("32".to_string(), "universal".to_string())], 4);
    check_page(&html, &cells, 5);
    // The inline claim's two clauses each list theirs, named.
    assert!(html.contains("Compared for <code>universal beats level on time at threads = 8"), "{html}");
}

/// `reckon query` of the example's medians, as (row, series) → the text
/// the query prints.
fn medians(s: &Sandbox) -> HashMap<(String, String), f64> {
    let out = s.ok(&["query", "--metric", "output_throughput", "--rows", "max_concurrency", "--format", "csv"]).stdout;
    let mut lines = out.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let mut cells = HashMap::new();
    for line in lines {
        let fields: Vec<&str> = line.split(',').collect();
        for (c, v) in fields.iter().enumerate().skip(1).filter(|(_, v)| !v.is_empty()) {
            cells.insert((fields[0].to_string(), header[c].to_string()), v.parse().unwrap());
        }
    }
    cells
}

/// Inline values and plot points trace too: each of the example's six
/// inline values links to an entry of exactly its cell's runs (a `max_over`
/// value, the cell of the maximum), and each of the plot's 33 points to
/// the entry of its cell's runs.
#[test]
fn each_inline_value_and_plot_point_links_to_exactly_its_cells_runs() {
    let s = Sandbox::example("", &["2026-11-20", "2026-11-29"]);
    s.ok(&["report", "notebooks/eagle-fast-verify.md", "--out", "site"]);
    let html = s.read("site/eagle-fast-verify.html");
    let cells = counts(&s, "output_throughput", "max_concurrency", None);
    let median = medians(&s);
    let peak = |series: &str| {
        let of = median.iter().filter(|((_, c), _)| c == series);
        of.max_by(|a, b| a.1.total_cmp(b.1)).map(|((r, _), _)| r.clone()).unwrap()
    };
    // The document's values, in order: (series, point).
    let written = [
        ("baseline", peak("baseline")),
        ("eagle-topk4-v1", peak("eagle-topk4-v1")),
        ("eagle-topk4-v1", "8".to_string()),
        ("baseline", "8".to_string()),
        ("eagle-topk4-v1", "1".to_string()),
        ("baseline", "1".to_string()),
    ];
    let values: Vec<usize> = html
        .split("<a class=\"num\" href=\"#prov-")
        .skip(1)
        .filter(|a| a.contains("title=\"provenance\">"))
        .map(|a| a[..a.find('"').unwrap()].parse().unwrap())
        .collect();
    assert_eq!(values.len(), written.len(), "every inline value links");
    for (k, (series, row)) in values.iter().zip(&written) {
        let want = cells[&(row.clone(), (*series).to_string())];
        assert_eq!(entry_runs(&html, *k), want, "the value of {series} at {row}");
        let e = &html[html.find(&format!("<li id=\"prov-{k}\">")).unwrap()..];
        assert!(e[..e.find("</ul></li>").unwrap()].contains(&format!("max_concurrency={row}")), "{series} at {row}");
    }
    let points: Vec<(usize, String)> = html
        .split("<a class=\"pt\" href=\"#prov-")
        .skip(1)
        .map(|a| {
            let label = &a[a.find("aria-label=\"").unwrap() + 12..];
            (a[..a.find('"').unwrap()].parse().unwrap(), label[..label.find('"').unwrap()].to_string())
        })
        .collect();
    assert_eq!(points.len(), cells.len(), "a link over each point of the plot, one per cell");
    for (k, label) in &points {
        // "baseline, max_concurrency 8: 462.5"
        let (series, rest) = label.split_once(", max_concurrency ").unwrap();
        let (row, y) = rest.split_once(": ").unwrap();
        let key = (row.to_string(), series.to_string());
        assert_eq!(entry_runs(&html, *k), cells[&key], "{label}");
        assert!((y.parse::<f64>().unwrap() - median[&key]).abs() < 0.051, "{label}: the query says {}", median[&key]);
    }
}
