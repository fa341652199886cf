//! Query: from the stored runs to cells of one metric, pivoted into rows ×
//! cols and rendered. Used by `reckon query`, by document regions (tables,
//! values, plots) and by claims.
//!
//! - [`filter`]: the `--where` language; [`names`]: aliases.
//! - `runs`: the runs as columns of small integers; `column`: one field of
//!   every run; `dataset`: [`Dataset`] (runs loaded once, metric values and
//!   pivots kept); `provenance`: what a cell's runs mix and repeat.
//! - `cell`: [`Agg`], [`Key`], [`Cell`] and the superseding rules; `pivot`:
//!   [`Query`] and [`Pivot`]; `evaluate`: a query's pivot over a dataset.
//! - [`output`]: the pivot as a terminal table, markdown, CSV and JSON.
//! - `export`: every measurement as a tidy row, or only what cells use.

use std::fmt::Write as _;

mod cell;
mod column;
mod dataset;
mod evaluate;
mod export;
pub mod filter;
pub mod names;
pub mod output;
mod pivot;
mod points;
mod provenance;
mod runs;
mod sets;
mod values;

pub use cell::{median, Agg, Cell, Key};
pub use dataset::{Dataset, Overrides};
pub use export::{key_params, Export, ExportOptions, Row};
pub use filter::{Filter, FilterError};
pub use output::{digits_to_show, markdown_rows, markdown_table, NumberFormat, MAX_DIGITS};
pub use pivot::{OlderSweeps, Pivot, Query, OLDER_SWEEP_MARK};
pub use points::{Pooled, Varying};
pub(crate) use runs::Records;
pub use runs::{RunRef, RunsView};
pub use sets::ParamSet;

/// How many names an "unknown …" message lists before it stops.
const LIST_LIMIT: usize = 30;

/// Edit distance (insertions, deletions, substitutions), by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The known name closest to a mistyped one: the smallest edit distance
/// within a third of the name's length (at least 2), ties to the first
/// known name; else a known name containing it (`throughput` →
/// `output_throughput`). A name whose summaries alone are known
/// (`real_time` where a file of Google Benchmark's aggregates holds
/// `real_time_mean`, `real_time_cv`, …) means its mean (or median), not
/// the summary nearest in letters.
pub fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let known: Vec<&'a str> = known.into_iter().collect();
    for centre in ["mean", "median"] {
        if let Some(k) = known.iter().find(|k| k.strip_suffix(centre).and_then(|k| k.strip_suffix('_')) == Some(name)) {
            return Some(k);
        }
    }
    let limit = (name.chars().count() / 3).max(2);
    let lower = name.to_lowercase();
    let mut best: Option<(usize, &'a str)> = None;
    let mut containing: Option<&'a str> = None;
    let length = lower.chars().count();
    for k in known {
        // An edit distance is at least the difference in length: a name far
        // longer (or shorter) than `k` is not compared letter by letter.
        if length.abs_diff(k.chars().count()) > limit {
            if containing.is_none() && !lower.is_empty() && k.to_lowercase().contains(&lower) {
                containing = Some(k);
            }
            continue;
        }
        let d = edit_distance(&lower, &k.to_lowercase());
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, k));
        }
        if containing.is_none() && !lower.is_empty() && k.to_lowercase().contains(&lower) {
            containing = Some(k);
        }
    }
    best.map(|(_, k)| k).or(containing)
}

/// Names joined for a message, cut after [`LIST_LIMIT`].
fn known_list<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.collect();
    let shown: Vec<String> = names.iter().take(LIST_LIMIT).map(|n| format!("`{n}`")).collect();
    let mut s = shown.join(", ");
    if names.len() > LIST_LIMIT {
        // Writing to a String cannot fail.
        let _ = write!(s, " and {} more", names.len() - LIST_LIMIT);
    }
    s
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::run::Value;
    use crate::store::builder::StoreBuilder;
    use crate::store::Store;
    use crate::Error;

    type Params<'a> = &'a [(&'a str, Value)];

    fn t(s: &str) -> Value {
        Value::Text(s.into())
    }

    fn n(v: f64) -> Value {
        Value::Num(v)
    }

    /// The scenario in small: baseline at concurrency 30 measured once on
    /// 2026-11-20 (two repeats) and again on 2026-11-29 (three repeats:
    /// 690.1, 689.4, 688.0); eagle-topk1-v2 measured only on 2026-11-29.
    fn scenario() -> Store {
        let base: Params = &[("config", t("baseline")), ("concurrency", n(30.0))];
        let c1: Params = &[("config", t("baseline")), ("concurrency", n(1.0))];
        let eagle: Params = &[("config", t("eagle-topk1-v2")), ("concurrency", n(30.0))];
        let eagle1: Params = &[("config", t("eagle-topk1-v2")), ("concurrency", t("1"))];
        StoreBuilder::new()
            .source("old", "2026-11-20T09:00:00Z", &[(base, 700.0), (base, 710.0)])
            .source(
                "new",
                "2026-11-29T14:02:11Z",
                &[
                    (base, 690.1),
                    (base, 689.4),
                    (base, 688.0),
                    (c1, 92.7),
                    (eagle, 759.3),
                    (eagle, f64::NAN),
                    (eagle1, 86.8),
                ],
            )
            .build()
    }

    /// A query of the test stores' `output_throughput`.
    pub(super) fn query(rows: &[&str], cols: &[&str], filter: &str, agg: Agg) -> Query {
        Query {
            metric: "output_throughput".into(),
            rows: rows.iter().map(std::string::ToString::to_string).collect(),
            cols: cols.iter().map(std::string::ToString::to_string).collect(),
            filter: Filter::parse(filter).unwrap(),
            agg,
        }
    }

    fn eval(store: &Store, q: &Query) -> Pivot {
        Dataset::load(store).unwrap().evaluate(q).unwrap()
    }

    #[test]
    fn the_newest_sweep_supersedes_and_its_repeats_are_aggregated() {
        let s = scenario();
        let p = eval(&s, &query(&["concurrency"], &["config"], "", Agg::Median));
        let cell = p.lookup(&["30"], &["baseline"]).unwrap();
        // Median of 690.1, 689.4, 688.0; the 2026-11-20 runs are superseded.
        assert_eq!(cell.value, 689.4);
        assert_eq!(cell.values, vec![690.1, 689.4, 688.0]);
        assert_eq!(cell.sweeps, vec!["2026-11-29"]);
        assert_eq!((cell.run_count(), cell.superseded), (3, 2));
        // A NaN repeat is ignored: one run left.
        let cell = p.lookup(&["30"], &["eagle-topk1-v2"]).unwrap();
        assert_eq!((cell.value, cell.run_count()), (759.3, 1));
        // The label "1" and the number 1 are the same row.
        assert_eq!(p.lookup(&["1"], &["eagle-topk1-v2"]).unwrap().value, 86.8);
        assert_eq!(p.rows, vec![vec![Key::Num(1.0)], vec![Key::Num(30.0)]]);
        assert_eq!(p.runs_matched, 8);
        let ds = Dataset::load(&s).unwrap();
        assert_eq!(ds.values("output_throughput").unwrap().count(), 8, "9 runs, one NaN");
        assert_eq!(ds.runs().len(), 9);
        assert_eq!(p.sweeps(), vec!["2026-11-29"]);
    }

    #[test]
    fn other_aggregations() {
        let s = scenario();
        let ds = Dataset::load(&s).unwrap();
        let at = |agg: Agg| {
            let p = ds.evaluate(&query(&["concurrency"], &["config"], "", agg)).unwrap();
            p.lookup(&["30"], &["baseline"]).unwrap().clone()
        };
        assert!((at(Agg::Mean).value - (690.1 + 689.4 + 688.0) / 3.0).abs() < 1e-9);
        assert_eq!(at(Agg::Max).value, 690.1);
        assert_eq!(at(Agg::Min).value, 688.0);
        assert_eq!(at(Agg::Count).value, 3.0);
        // latest: the newest run by time; runs of one time in log order.
        let latest = at(Agg::Latest);
        assert_eq!((latest.value, latest.superseded), (688.0, 4));
        // all: median over both sweeps (688.0, 689.4, 690.1, 700, 710).
        let all = at(Agg::All);
        assert_eq!((all.value, all.run_count(), all.superseded), (690.1, 5, 0));
        assert_eq!(all.sweeps, vec!["2026-11-20", "2026-11-29"]);
        assert_eq!(Agg::parse("MAX").unwrap(), Agg::Max);
        let e = Agg::parse("avg").unwrap_err().to_string();
        assert_eq!(e, "unknown aggregation `avg`; use one of median, mean, min, max, count, latest, all");
    }

    #[test]
    fn a_filter_on_the_date_selects_an_older_sweep() {
        let s = scenario();
        let p = eval(&s, &query(&["concurrency"], &["config"], "date = 2026-11-20", Agg::Median));
        let cell = p.lookup(&["30"], &["baseline"]).unwrap();
        // Median of the two 2026-11-20 repeats, 700 and 710.
        assert_eq!((cell.value, cell.run_count(), cell.superseded), (705.0, 2, 0));
        assert_eq!(p.cols.len(), 1, "eagle-topk1-v2 has no run that day");
        assert_eq!(p.rows.len(), 1);
        // Grouping by the pseudo-param shows both sweeps side by side.
        let p = eval(&s, &query(&["concurrency"], &["sweep"], "config = baseline", Agg::Median));
        assert_eq!(p.col_headers(), vec!["2026-11-20", "2026-11-29"]);
        assert_eq!(p.lookup(&["30"], &["2026-11-20"]).unwrap().value, 705.0);
    }

    #[test]
    fn runs_without_a_grouping_param_are_left_out_and_counted() {
        let s = StoreBuilder::on(scenario())
            .source("nolabel", "2026-11-29T15:00:00Z", &[(&[("config", t("baseline"))][..], 1.0), (&[], 2.0)])
            .build();
        let p = eval(&s, &query(&["concurrency"], &["config"], "", Agg::Median));
        assert_eq!(p.excluded, BTreeMap::from([("concurrency".to_string(), 2), ("config".to_string(), 1)]));
        assert_eq!(p.notes(), vec!["2 runs without `concurrency` left out", "1 run without `config` left out"]);
        assert_eq!(p.lookup(&["30"], &["baseline"]).unwrap().value, 689.4);
    }

    #[test]
    fn keys_sort_numbers_numerically_then_text() {
        let runs: Vec<([(&str, Value); 1], f64)> = ["250", "30", "inf", "8", "b", "A", "2"]
            .iter()
            .enumerate()
            .map(|(i, v)| ([("rate", Value::from_label(v))], i as f64))
            .collect();
        let s = StoreBuilder::new().source("keys", "2026-11-29T00:00:00Z", &runs).build();
        let p = eval(&s, &query(&["rate"], &[], "", Agg::Median));
        let shown: Vec<String> = p.rows.iter().map(|k| k[0].to_string()).collect();
        assert_eq!(shown, vec!["2", "8", "30", "250", "inf", "A", "b"]);
        assert_eq!(p.col_headers(), vec!["output_throughput"]);
    }

    #[test]
    fn unknown_metric_and_params_are_usage_errors_with_a_suggestion() {
        let s = scenario();
        let ds = Dataset::load(&s).unwrap();
        let mut q = query(&["concurrency"], &["config"], "", Agg::Median);
        q.metric = "output_througput".into();
        let e = ds.evaluate(&q).unwrap_err();
        assert!(matches!(e, Error::Usage(_)));
        assert_eq!(
            e.to_string(),
            "unknown metric `output_througput` (did you mean `output_throughput`?); known metrics: `output_throughput`"
        );
        let e = ds.evaluate(&query(&["concurency"], &["config"], "", Agg::Median)).unwrap_err().to_string();
        assert!(
            e.starts_with(
                "unknown param `concurency` in rows (did you mean `concurrency`?); known params: \
            `concurrency`, `config`, `date`"
            ),
            "{e}"
        );
        let e = ds.evaluate(&query(&["concurrency"], &["config"], "modle = x", Agg::Median)).unwrap_err().to_string();
        assert!(e.starts_with("unknown param `modle` in the filter"), "{e}");
        let e = ds.evaluate(&query(&["config"], &["config"], "", Agg::Median)).unwrap_err().to_string();
        assert!(e.contains("grouped by twice"), "{e}");
        assert_eq!(did_you_mean("throughput", ["mean_ttft_ms", "output_throughput"]), Some("output_throughput"));
        assert_eq!(did_you_mean("xyz", ["mean_ttft_ms", "output_throughput"]), None);
        // Only the summaries of `real_time` (an aggregates-only gbench file):
        // its mean, not `real_time_cv`, the nearest in letters.
        let summaries = ["real_time_cv", "real_time_stddev", "real_time_median", "real_time_mean"];
        assert_eq!(did_you_mean("real_time", summaries), Some("real_time_mean"));
        assert_eq!(did_you_mean("real_time", summaries[..3].iter().copied()), Some("real_time_median"));
        assert_eq!(did_you_mean("real_time", summaries[..2].iter().copied()), Some("real_time_cv"));
    }

    #[test]
    fn renders_markdown_text_and_csv() {
        let s = scenario();
        let p = eval(&s, &query(&["concurrency"], &["config"], "", Agg::Median));
        let fmt = NumberFormat::default();
        assert_eq!(
            p.to_markdown(&fmt),
            "| concurrency | baseline | eagle-topk1-v2 |\n|---:|---:|---:|\n| 1 | 92.7 | 86.8 |\n| 30 | 689.4 | \
                759.3 |\n"
        );
        assert_eq!(
            p.to_text(&NumberFormat { precision: Some(1) }),
            "concurrency  baseline  eagle-topk1-v2\n          1      92.7            86.8\n         30     \
                689.4           759.3\n"
        );
        assert_eq!(p.to_csv(&fmt).unwrap(), "concurrency,baseline,eagle-topk1-v2\n1,92.7,86.8\n30,689.4,759.3\n");
    }

    #[test]
    fn a_missing_cell_and_text_row_keys() {
        let s = scenario();
        let p = eval(&s, &query(&["config"], &["concurrency"], "date = 2026-11-29", Agg::Count));
        assert_eq!(
            p.to_markdown(&NumberFormat { precision: Some(2) }),
            "| config | 1 | 30 |\n|---|---:|---:|\n| baseline | 1 | 3 |\n| eagle-topk1-v2 | 1 | 1 |\n"
        );
        let p = eval(&s, &query(&["config"], &["concurrency"], "config = baseline and date = 2026-11-20", Agg::Median));
        assert_eq!(p.to_csv(&NumberFormat::default()).unwrap(), "config,30\nbaseline,705\n");
        // eagle-topk4-v1 only ran at concurrency 8: the other cells are empty.
        let topk4: Params = &[("config", t("eagle-topk4-v1")), ("concurrency", n(8.0))];
        let s = StoreBuilder::on(s).source("topk4", "2026-11-29T16:00:00Z", &[(topk4, 318.2)]).build();
        let p = eval(&s, &query(&["concurrency"], &["config"], "", Agg::Median));
        assert!(p.lookup(&["8"], &["baseline"]).is_none());
        assert_eq!(
            p.to_markdown(&NumberFormat::default()),
            "| concurrency | baseline | eagle-topk1-v2 | eagle-topk4-v1 |\n|---:|---:|---:|---:|\n\
             | 1 | 92.7 | 86.8 | - |\n| 8 | - | - | 318.2 |\n| 30 | 689.4 | 759.3 | - |\n"
        );
        assert_eq!(
            p.to_csv(&NumberFormat::default()).unwrap(),
            "concurrency,baseline,eagle-topk1-v2,eagle-topk4-v1\n1,92.7,86.8,\n8,,,318.2\n30,689.4,759.3,\n"
        );
        let p = eval(&s, &query(&["config"], &[], "config = nothing", Agg::Median));
        assert!(p.is_empty());
        assert_eq!(p.notes(), vec!["no runs with a value of `output_throughput` matching `config = nothing`"]);
    }

    #[test]
    fn number_format_precision() {
        let f = NumberFormat { precision: Some(1) };
        assert_eq!(f.format(96.0), "96.0");
        assert_eq!(f.format(-0.04), "0.0");
        assert_eq!(f.format(f64::INFINITY), "inf");
        assert_eq!(NumberFormat::default().format(759.3), "759.3");
    }
}
