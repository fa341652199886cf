//! `reckon query`: one metric pivoted into rows × columns, one aggregated
//! value per cell, as a table, CSV or JSON.

use std::fmt::Write as _;

use super::reporter::json;
use super::reporter::query::PivotReport;
use super::OutputFormat;
use crate::config::Config;
use crate::query::{Agg, Dataset, Filter, NumberFormat, Query};
use crate::Result;

#[derive(clap::Args, Debug)]
pub(crate) struct QueryArgs {
    /// The metric to pivot, e.g. `output_throughput`.
    #[arg(long, add = clap_complete::ArgValueCandidates::new(super::complete::metrics))]
    pub(crate) metric: String,
    /// Param(s) for the rows, comma-separated.
    #[arg(long, value_delimiter = ',', add = clap_complete::ArgValueCandidates::new(super::complete::params))]
    pub(crate) rows: Vec<String>,
    /// Param(s) for the columns, comma-separated (default: the series dimension).
    #[arg(long, value_delimiter = ',', add = clap_complete::ArgValueCandidates::new(super::complete::params))]
    pub(crate) cols: Vec<String>,
    /// Only runs matching this filter.
    #[arg(long = "where", value_name = "FILTER", add = clap_complete::ArgValueCompleter::new(super::complete::filter))]
    pub(crate) filter: Option<String>,
    /// Aggregation: median of the newest sweep (default), mean, median, min, max, count, latest, all.
    #[arg(long)]
    pub(crate) agg: Option<String>,
    /// How to print the listing.
    #[arg(long, value_enum, default_value_t = OutputFormat::Table)]
    pub(crate) format: OutputFormat,
}

pub(super) fn run(cfg: &Config, args: QueryArgs) -> Result<i32> {
    let store = super::project::open_current(cfg)?;
    let mut dataset = Dataset::load(&store)?;
    dataset.apply_overrides(&cfg.overrides());
    let mut query = Query::new(&args.metric);
    query.rows = args.rows;
    query.cols = if args.cols.is_empty() && dataset.has_param(&cfg.series) && !query.rows.contains(&cfg.series) {
        vec![cfg.series.clone()]
    } else {
        args.cols
    };
    if let Some(f) = &args.filter {
        query.filter = Filter::parse(f)?;
    }
    if let Some(a) = &args.agg {
        query.agg = Agg::parse(a)?;
    }
    // INVALID runs left out as claims leave them out, and said.
    let left_out = dataset.invalid_left_out(&query)?;
    query.filter = dataset.valid_results(query.filter);
    let pivot = dataset.evaluate(&query)?;
    if let Some(pooled) = dataset.pooled(&pivot) {
        return Err(crate::Error::usage(pooled.message("`--where \"{param} = …\"`", "`--rows` or `--cols`")));
    }
    let fmt = NumberFormat::default();
    let text = match args.format {
        OutputFormat::Table => {
            let mut t = pivot.to_text(&fmt);
            let absent = if pivot.runs_matched == 0 { dataset.absent_values(&query.filter) } else { Vec::new() };
            for note in pivot.notes().iter().chain(&absent).chain(&left_out) {
                // Param names and values come from logs.
                let _ = writeln!(t, "note: {}", crate::escape::terminal(note));
            }
            t
        }
        OutputFormat::Csv | OutputFormat::Json => {
            // Beside the data, not in them: a program reads stdout.
            let absent = if pivot.runs_matched == 0 { dataset.absent_values(&query.filter) } else { Vec::new() };
            for note in absent.iter().chain(&left_out) {
                let _ = std::io::Write::write_all(&mut std::io::stderr().lock(), format!("note: {note}\n").as_bytes());
            }
            match args.format {
                OutputFormat::Csv => pivot.to_csv(&fmt)?,
                _ => json::pretty(&PivotReport::of(&pivot))?,
            }
        }
    };
    super::stdout_write(&text)?;
    Ok(super::OK)
}

#[cfg(test)]
mod tests {
    use crate::cli::tests::parse;
    use crate::cli::{Command, OutputFormat};

    #[test]
    fn rows_and_cols_are_comma_separated_and_the_metric_is_required() {
        let cli = parse(&["query", "--metric", "ttft", "--rows", "rate,tp", "--cols", "config", "--format", "json"]);
        let Command::Query(a) = cli.unwrap().command else { panic!("not query") };
        assert_eq!(
            (a.metric.as_str(), a.rows.as_slice(), a.cols.as_slice()),
            ("ttft", &["rate".to_string(), "tp".into()][..], &["config".to_string()][..])
        );
        assert_eq!(a.format, OutputFormat::Json);
        assert!(parse(&["query", "--rows", "rate"]).is_err(), "--metric is required");
    }
}
