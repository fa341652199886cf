//! `reckon export`: every measurement as a tidy row (CSV or JSON lines),
//! for reading the data outside reckon; `--newest` keeps only what cells
//! use, as tables and claims read them.

use crate::config::Config;
use crate::query::{Dataset, ExportOptions, Filter};
use crate::Result;

/// How `export` writes its rows.
#[derive(Clone, Copy, Debug, clap::ValueEnum, PartialEq, Eq)]
pub(crate) enum ExportFormat {
    /// One header line, then one line per measurement; a column per param.
    Csv,
    /// One JSON object per line and measurement, its params as an object.
    Jsonl,
}

#[derive(clap::Args, Debug)]
pub(crate) struct ExportArgs {
    /// Only runs matching this filter, e.g. "config = baseline and `max_concurrency` >= 30".
    #[arg(long = "where", value_name = "FILTER", add = clap_complete::ArgValueCompleter::new(super::complete::filter))]
    pub(crate) filter: Option<String>,
    /// Only these metrics (comma-separated or repeated; aliases allowed). Default: every metric.
    #[arg(long, value_delimiter = ',', add = clap_complete::ArgValueCandidates::new(super::complete::metrics))]
    pub(crate) metric: Vec<String>,
    /// Keep only what cells use: each cell's newest sweep, as tables and claims read it.
    #[arg(long)]
    pub(crate) newest: bool,
    /// With --newest, the params a cell is keyed by (comma-separated). Default: per metric,
    /// the params every sweep records that vary within one (as `reckon diff`).
    #[arg(
        long,
        value_delimiter = ',',
        requires = "newest",
        add = clap_complete::ArgValueCandidates::new(super::complete::params)
    )]
    pub(crate) by: Vec<String>,
    /// How to write the rows.
    #[arg(long, value_enum, default_value_t = ExportFormat::Csv)]
    pub(crate) format: ExportFormat,
}

pub(super) fn run(cfg: &Config, args: &ExportArgs) -> Result<i32> {
    let store = super::project::open_current(cfg)?;
    let mut dataset = Dataset::load(&store)?;
    dataset.apply_overrides(&cfg.overrides());
    let filter = args.filter.as_deref().map(Filter::parse).transpose()?.unwrap_or_else(Filter::all);
    let opts = ExportOptions { filter, metrics: args.metric.clone(), newest: args.newest, by: args.by.clone() };
    let export = dataset.export(&opts)?;
    // Runs no cell holds are not exported: say how many, and why.
    for ((metric, param), n) in &export.without {
        say!(
            "note: {n} run(s) of `{}` without `{}` are in no cell and left out (--by names the params of a cell)",
            crate::escape::terminal(metric),
            crate::escape::terminal(param)
        );
    }
    let text = match args.format {
        ExportFormat::Csv => export.to_csv()?,
        ExportFormat::Jsonl => super::reporter::export::json_lines(&export)?,
    };
    super::stdout_write(&text)?;
    Ok(super::OK)
}

#[cfg(test)]
mod tests {
    use super::ExportFormat;
    use crate::cli::tests::parse;
    use crate::cli::Command;

    #[test]
    fn metrics_and_by_are_lists_and_by_needs_newest() {
        let cli =
            parse(&["export", "--metric", "a,b", "--metric", "c", "--newest", "--by", "x,y", "--format", "jsonl"]);
        let Command::Export(a) = cli.unwrap().command else { panic!("not export") };
        assert_eq!((a.metric.len(), a.by.len(), a.newest, a.format), (3, 2, true, ExportFormat::Jsonl));
        let Command::Export(a) = parse(&["export"]).unwrap().command else { panic!("not export") };
        assert_eq!((a.format, a.newest), (ExportFormat::Csv, false));
        assert!(parse(&["export", "--by", "x"]).is_err(), "--by without --newest keys nothing");
    }
}
