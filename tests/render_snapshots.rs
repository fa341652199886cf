//! Snapshots of what each region kind renders over the scenario's two
//! sweeps (notebooks/logs), and of the review diff of a small
//! document between the sweeps. The library is driven directly: an
//! in-memory store, the real ingest, `render::render`.
//!
//! The snapshots were reviewed against the logs: the 2026-11-29 medians
//! (three repeats per point) are the table of `tests/cli_ingest.rs`, e.g. at
//! `max_concurrency=30` baseline 689.4, eagle-topk1-v2 759.3, eagle-topk4-v1
//! 341.0; the 2026-11-20 sweep has one run per point (baseline 641.8,
//! eagle-topk4-v1 329.5 at 30).

mod common;

use std::path::Path;

use reckon::config::Config;
use reckon::doc;
use reckon::doc::RegionSpec;
use reckon::query::Dataset;
use reckon::render::{self, plot, Context, Rendered};
use reckon::store::Store;

/// Both sweeps: `log` is 2026-11-20, `jsonl` 2026-11-29.
fn both() -> Store {
    common::scenario_store(&["log", "jsonl"])
}

/// The spec of `<!-- reckon:KIND ARGS -->`, parsed as a document would be.
fn spec(kind: &str, text: &str) -> RegionSpec {
    let src = format!("<!-- reckon:{kind} {text} -->\n<!-- /reckon:{kind} -->\n");
    let d = doc::parse(Path::new("t.md"), &src).expect("the directive parses");
    d.regions.into_iter().next().expect("one region").spec.unwrap_or_else(|e| panic!("{kind} {text}: {e}"))
}

fn render_with(store: &Store, kind: &str, text: &str) -> Rendered {
    let dataset = Dataset::load(store).unwrap();
    let dir = Path::new("notebooks");
    let cfg = Config::defaults(Path::new("/nonexistent-reckon-root"));
    let settings = reckon::review::render_settings(&cfg);
    let ctx = Context { dataset: &dataset, store, settings: &settings, doc_dir: dir };
    render::render(&ctx, &spec(kind, text)).unwrap_or_else(|e| panic!("{kind} {text}: {e}"))
}

fn content(kind: &str, text: &str) -> String {
    let r = render_with(&both(), kind, text);
    assert!(r.files.is_empty() || kind == "plot");
    r.content
}

#[test]
fn table_plain() {
    insta::assert_snapshot!(content("table", "metric=output_throughput rows=max_concurrency digits=1"));
}

#[test]
fn table_highlight_best() {
    insta::assert_snapshot!(content("table", "metric=output_throughput rows=max_concurrency digits=1 highlight=best"));
}

/// Lower is better for a latency, but the three configurations' TTFTs are
/// within the 5% latency margin of each other everywhere: every row is a
/// tie (the lowest beyond noise is tested in `render::table`'s unit tests).
#[test]
fn table_latency_highlight_picks_the_lowest() {
    insta::assert_snapshot!(content("table", "metric=mean_ttft_ms rows=max_concurrency digits=1 highlight=best"));
}

#[test]
fn table_ratio() {
    insta::assert_snapshot!(content(
        "table",
        "metric=output_throughput rows=max_concurrency digits=1 ratio=baseline/eagle-topk4-v1"
    ));
}

#[test]
fn table_caption() {
    insta::assert_snapshot!(content("table", "metric=output_throughput rows=max_concurrency digits=1 caption=true"));
}

#[test]
fn table_caption_of_the_first_sweep() {
    insta::assert_snapshot!(content(
        "table",
        "metric=output_throughput rows=max_concurrency where=\"date = 2026-11-20\" digits=1 caption=true"
    ));
}

#[test]
fn table_sort_by_column_descending() {
    insta::assert_snapshot!(content(
        "table",
        "metric=output_throughput rows=max_concurrency digits=1 sort=-eagle-topk1-v2"
    ));
}

#[test]
fn table_metrics_of_one_series() {
    insta::assert_snapshot!(content(
        "table",
        "metrics=output_throughput,mean_ttft_ms,mean_tpot_ms series=eagle-topk1-v2 rows=max_concurrency digits=1"
    ));
}

#[test]
fn values() {
    let cases = [
        "metric=output_throughput config=eagle-topk1-v2 max_concurrency=30 digits=1",
        "metric=output_throughput config=baseline max_concurrency=30 digits=1",
        "metric=output_throughput config=baseline max_over=max_concurrency digits=1",
        "metric=output_throughput config=eagle-topk4-v1 max_over=max_concurrency digits=1",
        "metric=output_throughput config=eagle-topk1-v2 min_over=max_concurrency digits=1",
        "metric=output_throughput config=baseline max_concurrency=30 where=\"date = 2026-11-20\" digits=1",
        "metric=output_throughput config=baseline max_concurrency=30 agg=count",
    ];
    let out: Vec<String> = cases.iter().map(|c| format!("{c} => {}", content("value", c))).collect();
    insta::assert_snapshot!(out.join("\n"));
}

#[test]
fn plot_region_and_data() {
    let r = render_with(
        &both(),
        "plot",
        "metric=output_throughput x=max_concurrency log=x file=throughput.svg title=\"Output throughput\"",
    );
    assert_eq!(r.files.len(), 1);
    let (path, svg) = &r.files[0];
    assert_eq!(path, &Path::new("notebooks").join("throughput.svg"));
    assert!(svg.starts_with("<svg "), "{}", &svg[..40]);
    let data = plot::data_of(svg).expect("the SVG carries its data");
    insta::assert_snapshot!(format!("{}\n---\n{data}", r.content));
}

#[test]
fn bar_plot_data_names_categories() {
    let r = render_with(&both(), "plot", "metric=mean_ttft_ms x=config kind=bar where=\"max_concurrency = 30\"");
    assert_eq!(r.files[0].0, Path::new("notebooks").join("mean_ttft_ms-by-config.svg"));
    insta::assert_snapshot!(format!("{}\n---\n{}", r.content, plot::data_of(&r.files[0].1).unwrap()));
}

#[test]
fn sql_runs_per_config_and_sweep() {
    insta::assert_snapshot!(content(
        "sql",
        "query=\"SELECT run.sweep AS sweep, p.value AS config, count(*) AS runs, avg(m.value) AS \
         mean_output_throughput \
         FROM run JOIN run_param p ON p.run_id = run.id AND p.key = 'config' \
         JOIN run_metric m ON m.run_id = run.id AND m.metric = 'output_throughput' \
         GROUP BY run.sweep, p.value ORDER BY run.sweep, p.value\" digits=1"
    ));
}

#[test]
fn template_best_per_row() {
    insta::assert_snapshot!(content(
        "template",
        "name=best-per-row.md metric=output_throughput rows=max_concurrency digits=1"
    ));
}

#[test]
fn template_sweeps() {
    insta::assert_snapshot!(content("template", "name=sweeps.md metric=output_throughput rows=max_concurrency"));
}

#[test]
fn update_diff_of_a_small_document() {
    // The document as regenerated from the first sweep, then reviewed
    // against both: the diff `reckon update` prints.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("doc.md");
    let text = "# Plan\n\n\
                <!-- reckon:table metric=output_throughput rows=max_concurrency where=\"max_concurrency \
                 in (1, 30, 250)\" digits=1 highlight=best -->\n\
                <!-- /reckon:table -->\n\n\
                At C=30 eagle-topk4-v1 gives <!-- reckon:value metric=output_throughput \
                 config=eagle-topk4-v1 max_concurrency=30 digits=1 -->0<!-- /reckon:value --> tok/s.\n";
    std::fs::write(&path, text).unwrap();
    let cfg = Config::defaults(dir.path());
    let review = |store: &Store| {
        let dataset = Dataset::load(store).unwrap();
        let ctx = reckon::review::Context { dataset: &dataset, store, cfg: &cfg, doc_dir: dir.path(), cache: None };
        reckon::review::document::review(&ctx, &path).unwrap()
    };
    let first = review(&common::scenario_store(&["log"]));
    std::fs::write(&path, &first.updated).unwrap();
    let second = review(&both());
    assert!(second.stale.iter().all(|s| !s.edited_by_hand));
    insta::assert_snapshot!(reckon::review::diff::unified("doc.md", &second.text, &second.updated, false));
}
