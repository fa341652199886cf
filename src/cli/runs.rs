//! `reckon runs`: the stored runs with their source, time and params, newest
//! last, as a table, CSV or JSON.

use std::collections::BTreeSet;

use super::reporter::json;
use super::reporter::runs::RunEntry;
use super::OutputFormat;
use crate::config::Config;
use crate::query::output::{csv_table, text_table};
use crate::store::RunRecord;
use crate::Result;

#[derive(clap::Args, Debug)]
pub(crate) struct RunsArgs {
    /// Only runs matching this filter, e.g. "config = baseline and `max_concurrency` >= 30".
    #[arg(long = "where", value_name = "FILTER", add = clap_complete::ArgValueCompleter::new(super::complete::filter))]
    pub(crate) filter: Option<String>,
    /// How many of the newest runs to show (0 = all).
    #[arg(long, default_value_t = 20)]
    pub(crate) limit: usize,
    /// Also show nested params (`server_info`.*).
    #[arg(long)]
    pub(crate) all_params: bool,
    /// How to print the listing.
    #[arg(long, value_enum, default_value_t = OutputFormat::Table)]
    pub(crate) format: OutputFormat,
}

pub(super) fn run(cfg: &Config, args: &RunsArgs) -> Result<i32> {
    let store = super::project::open_current(cfg)?;
    let mut runs = store.runs()?;
    if let Some(text) = &args.filter {
        // Names in the filter are checked and aliases resolved as `query` does.
        let mut dataset = crate::query::Dataset::load(&store)?;
        dataset.apply_overrides(&cfg.overrides());
        let filter = dataset.resolve_filter(&crate::query::Filter::parse(text)?)?;
        runs.retain(|r| filter.matches(r));
    }
    if args.limit > 0 && runs.len() > args.limit {
        runs.drain(..runs.len() - args.limit);
    }
    let text = runs_listing(&runs, args.all_params, args.format)?;
    super::stdout_write(&text)?;
    Ok(super::OK)
}

/// Renders runs as an aligned table, CSV or JSON, through the query's
/// table and CSV writers.
fn runs_listing(runs: &[RunRecord], all_params: bool, format: OutputFormat) -> Result<String> {
    let shown = |k: &str| all_params || !k.contains('.');
    match format {
        OutputFormat::Json => runs_json(runs, &shown),
        OutputFormat::Csv => runs_csv(runs, &shown),
        OutputFormat::Table => Ok(runs_table(runs, &shown)),
    }
}

fn runs_json(runs: &[RunRecord], shown: &dyn Fn(&str) -> bool) -> Result<String> {
    let entries: Vec<RunEntry> = runs.iter().map(|r| RunEntry::of(r, shown)).collect();
    json::pretty(entries.as_slice())
}

fn runs_csv(runs: &[RunRecord], shown: &dyn Fn(&str) -> bool) -> Result<String> {
    let keys: BTreeSet<&str> =
        runs.iter().flat_map(|r| r.params.keys().map(String::as_str)).filter(|k| shown(k)).collect();
    let mut header = vec!["id", "time", "time_origin", "sweep", "source", "line"];
    header.extend(keys.iter().copied());
    let body: Vec<Vec<String>> = runs
        .iter()
        .map(|r| {
            let mut rec = vec![
                r.id.to_string(),
                r.time.clone(),
                r.time_origin.clone(),
                r.sweep.clone(),
                r.source.clone(),
                r.line.to_string(),
            ];
            rec.extend(keys.iter().map(|k| r.params.get(*k).map(ToString::to_string).unwrap_or_default()));
            rec
        })
        .collect();
    csv_table(&header, &body)
}

/// The table: id, time (with its origin and sweep where they are not the
/// obvious ones), where the run was read, and its params.
fn runs_table(runs: &[RunRecord], shown: &dyn Fn(&str) -> bool) -> String {
    let header: Vec<String> = ["id", "time", "source:line", "params"].map(String::from).to_vec();
    let body: Vec<Vec<String>> = runs
        .iter()
        .map(|r| {
            let params: Vec<String> =
                r.params.iter().filter(|(k, _)| shown(k)).map(|(k, v)| format!("{k}={v}")).collect();
            vec![r.id.to_string(), run_time(r), format!("{}:{}", r.source, r.line), params.join(" ")]
        })
        .collect();
    let mut s = text_table(&header, &[false; 4], &body);
    if runs.is_empty() {
        s.push_str("(no runs; ingest logs with `reckon ingest`)\n");
    }
    s
}

/// A run's time, with its origin when it is not the log's own and its sweep
/// where that is not the time's date (named by a label, or a month): both
/// decide what "latest" means.
fn run_time(r: &RunRecord) -> String {
    let sweep =
        if r.time.starts_with(&r.sweep) && r.sweep.len() == 10 { String::new() } else { format!("sweep {}", r.sweep) };
    match (r.time_origin.as_str(), sweep.is_empty()) {
        ("log", true) => r.time.clone(),
        ("log", false) => format!("{} ({sweep})", r.time),
        (origin, true) => format!("{} ({origin})", r.time),
        (origin, false) => format!("{} ({origin}, {sweep})", r.time),
    }
}

#[cfg(test)]
mod tests {
    use crate::cli::tests::parse;
    use crate::cli::{Command, OutputFormat};

    #[test]
    fn defaults_to_the_20_newest_as_a_table() {
        let Command::Runs(a) = parse(&["runs"]).unwrap().command else { panic!("not runs") };
        assert_eq!((a.limit, a.format, a.all_params, a.filter), (20, OutputFormat::Table, false, None));
        let Command::Runs(a) =
            parse(&["runs", "--where", "tp = 8", "--limit", "0", "--format", "csv"]).unwrap().command
        else {
            panic!("not runs")
        };
        assert_eq!((a.limit, a.format, a.filter.as_deref()), (0, OutputFormat::Csv, Some("tp = 8")));
        assert!(parse(&["runs", "--format", "xml"]).is_err());
    }
}
