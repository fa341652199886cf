//! `reckon diff`: what moved between two sweeps, cell by cell, beyond noise
//! or not, then the claims of the given documents whose verdict changed.

use std::path::{Path, PathBuf};

use super::project::{doc_paths, load_for_command, prepare, relative_error, shown};
use crate::config::Config;
use crate::doc::{self, Kind};
use crate::query::{Dataset, Filter};
use crate::review::claim as judge;
use crate::review::document;
use crate::sweep_diff::{self, ClaimMove, Listing};
use crate::Result;

#[derive(Clone, Copy, Debug, clap::ValueEnum, PartialEq, Eq)]
pub(crate) enum DiffFormat {
    /// An aligned table for a terminal.
    Table,
    /// Markdown, as a `diff` region keeps it in a plan.
    Markdown,
    /// JSON for programs.
    Json,
}

#[derive(clap::Args, Debug)]
pub(crate) struct DiffArgs {
    /// Documents whose claims are judged as of both sweeps (optional).
    pub(crate) docs: Vec<PathBuf>,
    /// The older sweep, e.g. 2026-11-20 (default: the second newest).
    #[arg(long, value_name = "SWEEP")]
    pub(crate) from: Option<String>,
    /// The newer sweep (default: the newest).
    #[arg(long, value_name = "SWEEP")]
    pub(crate) to: Option<String>,
    /// Only these metrics (comma-separated; default: every metric with a better direction).
    #[arg(long, value_delimiter = ',', add = clap_complete::ArgValueCandidates::new(super::complete::metrics))]
    pub(crate) metric: Vec<String>,
    /// Only runs matching this filter.
    #[arg(long = "where", value_name = "FILTER", add = clap_complete::ArgValueCompleter::new(super::complete::filter))]
    pub(crate) filter: Option<String>,
    /// The params that make a cell (comma-separated; default: those every run has and that vary).
    #[arg(long, value_delimiter = ',', add = clap_complete::ArgValueCandidates::new(super::complete::params))]
    pub(crate) by: Vec<String>,
    /// List only the cells that moved beyond noise.
    #[arg(long)]
    pub(crate) only_moved: bool,
    /// Digits after the decimal point (default: up to 6 significant digits).
    #[arg(long)]
    pub(crate) digits: Option<usize>,
    /// How to print what moved.
    #[arg(long, value_enum, default_value_t = DiffFormat::Table)]
    pub(crate) format: DiffFormat,
    /// Do not ingest the sources of reckon.toml first: the database is read
    /// as it is, without looking at any log.
    #[arg(long)]
    pub(crate) no_ingest: bool,
}

pub(super) fn run(cfg: &Config, cwd: &Path, args: DiffArgs) -> Result<i32> {
    let (store, ingest_failed) = prepare(cfg, args.no_ingest)?;
    let dataset = &load_for_command(&store, cfg)?;
    let filter = args.filter.as_deref().map(Filter::parse).transpose()?;
    if let Some(f) = &filter {
        dataset.check_filter(f)?;
    }
    let opts = sweep_diff::Options { from: args.from, to: args.to, metrics: args.metric, filter, by: args.by };
    let mut result = sweep_diff::compute(dataset, &cfg.margins(), &opts)?;
    let mut errors = 0;
    for path in doc_paths(cwd, &args.docs) {
        let rel = shown(cwd, &path);
        match claim_moves(dataset, cfg, &path, &rel, &result.from, &result.to) {
            Ok(moves) => result.claims.extend(moves),
            Err(e) => {
                say!("error: {}", super::shown_error(&relative_error(e, cwd)));
                errors += 1;
            }
        }
    }
    let listing = if args.only_moved { Listing::BeyondNoise } else { Listing::Changed };
    let text = match args.format {
        DiffFormat::Table => result.to_text(listing, args.digits),
        DiffFormat::Markdown => result.to_markdown(listing, args.digits),
        DiffFormat::Json => super::reporter::json::pretty(&result)?,
    };
    super::stdout_write(&text)?;
    // A diff that compared no cell could not check anything: never the
    // "nothing moved" of exit 0, but the error a diff with one sweep is.
    if result.cells.is_empty() {
        let hint = match result.suggested.first() {
            Some(p) => format!("; try `reckon diff --from {} --to {}`", p.from, p.to),
            None => String::new(),
        };
        let why = if result.not_compared.is_empty() {
            "they share no cell of the metrics compared"
        } else {
            "no cell in both could be compared"
        };
        let what = format!("nothing compared between {} and {}: {why}{hint}", result.from, result.to);
        say!("error: {}", crate::escape::terminal(&what));
        return Ok(super::ERROR);
    }
    Ok(super::exit_code(errors, ingest_failed, false))
}

/// The claims of one document whose verdict differs between the sweeps.
fn claim_moves(
    dataset: &Dataset,
    cfg: &Config,
    path: &Path,
    rel: &str,
    from: &str,
    to: &str,
) -> Result<Vec<ClaimMove>> {
    let (_, text) = document::read(&cfg.root, path)?;
    let parsed = doc::parse(Path::new(rel), &text)?;
    let mut moves = Vec::new();
    for region in parsed.regions.iter().filter(|r| r.kind == Kind::Claim) {
        let before = judge::judge_claim(dataset, cfg, Some(from), &parsed, &text, region)?;
        let after = judge::judge_claim(dataset, cfg, Some(to), &parsed, &text, region)?;
        if before.verdict != after.verdict {
            moves.push(ClaimMove {
                path: rel.to_string(),
                line: region.line,
                id: after.id,
                from: before.verdict,
                to: after.verdict,
                summary: after.summary,
            });
        }
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::DiffFormat;
    use crate::cli::tests::parse;
    use crate::cli::Command;

    #[test]
    fn sweeps_metrics_and_cells_parse() {
        let cli =
            parse(&["diff", "--from", "2026-11-20", "--metric", "ttft,tpot", "--by", "rate", "--format", "markdown"]);
        let Command::Diff(a) = cli.unwrap().command else { panic!("not diff") };
        assert_eq!((a.from.as_deref(), a.to), (Some("2026-11-20"), None));
        assert_eq!(
            (a.metric.as_slice(), a.by.as_slice()),
            (&["ttft".to_string(), "tpot".into()][..], &["rate".to_string()][..])
        );
        assert_eq!(a.format, DiffFormat::Markdown);
    }
}
