//! The command line: a skin over the library. Each command lives in its own
//! file (its arguments, its handler, its parse tests); this file holds the
//! top-level parser, the dispatch and the exit codes, which follow ripgrep:
//! 0 ok, 1 a check found a problem, 2 bad input or usage.

mod check;
mod claims;
mod complete;
mod completions;
mod diff;
#[cfg(test)]
mod escape_props;
mod export;
mod hook;
mod ingest;
mod init;
mod lint;
mod man;
mod project;
mod query;
mod report;
mod reporter;
mod review;
mod runs;
mod supersede;
mod update;
mod watch;

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand, ValueEnum};

use crate::config::Config;
use crate::{Error, Result};

/// Exit code: everything went well and nothing was found.
pub(crate) const OK: i32 = 0;
/// Exit code: a check found what it looks for (a stale region, a
/// contradicted claim), as `grep` finding nothing is not an error.
pub(crate) const FINDINGS: i32 = 1;
/// Exit code: bad input or usage; the error says what and where.
pub(crate) const ERROR: i32 = 2;

/// The exit code of a command that printed `errors` errors, whose ingest
/// failed or not, and that found problems or not: an error outranks a finding.
pub(crate) fn exit_code(errors: usize, ingest_failed: bool, findings: bool) -> i32 {
    if errors > 0 || ingest_failed {
        ERROR
    } else if findings {
        FINDINGS
    } else {
        OK
    }
}

#[derive(Parser, Debug)]
#[command(
    name = "reckon",
    version,
    about = "Keeps optimization plans honest: benchmark logs in, living documents and checked conclusions out."
)]
pub(crate) struct Cli {
    /// The database to use (default: `database` in reckon.toml, else db/reckon.sqlite).
    #[arg(long, global = true, value_name = "PATH")]
    pub(crate) db: Option<PathBuf>,
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Ingest benchmark logs (files, globs or path templates like 'logs/{date}/{config}.jsonl').
    /// With no path, the [[source]] entries of reckon.toml.
    Ingest(ingest::IngestArgs),
    /// List runs with their source, time and params.
    Runs(runs::RunsArgs),
    /// Pivot a metric: rows × cols, one aggregated value per cell.
    Query(query::QueryArgs),
    /// Every measurement as a tidy row (run, source:line, time, sweep, params, metric, value,
    /// unit, direction) in CSV or JSON lines; --newest keeps only what cells use.
    Export(export::ExportArgs),
    /// Ingest the configured sources, regenerate the documents' regions, judge their
    /// claims, and print the diff; --write applies it.
    Update(update::UpdateArgs),
    /// Like update, without writing: exit 1 if a region is stale or a claim is
    /// contradicted. For pre-commit hooks and CI.
    Check(check::CheckArgs),
    /// Every claim of the documents with its verdict and evidence.
    Claims(claims::ClaimsArgs),
    /// Find checkable statements in the documents' prose (outside claim regions), read
    /// them as claims and report the contradicted and stale ones.
    Lint(lint::LintArgs),
    /// Mark an overturned claim superseded: its words stay, marked with the date
    /// and the evidence, with room for the new conclusion next to it.
    Supersede(supersede::SupersedeArgs),
    /// What moved between two sweeps (default: the two newest), cell by cell,
    /// beyond noise or not, then the claims of DOCs whose verdict changed.
    Diff(diff::DiffArgs),
    /// Go through the changes update would make one at a time: accept, reject,
    /// skip, accept all or quit; the accepted ones are written at the end.
    Review(review::ReviewArgs),
    /// Render each document as a self-contained HTML page (DIR/NAME.html): plots
    /// inline, claims with their verdicts and evidence, numbers linked to their runs.
    Report(report::ReportArgs),
    /// While a sweep runs: watch the logs and documents; as logs arrive, ingest them and
    /// print the claims and prose whose verdict changed (--write: update regions as they
    /// come; --serve: the report on 127.0.0.1, reloading itself). Ctrl-C stops.
    Watch(watch::WatchArgs),
    /// Create reckon.toml, notebooks/, db/ and templates/ in the current folder
    /// (beside an existing reckon.toml: only the folders of its documents and database).
    Init,
    /// Git hooks.
    #[command(subcommand)]
    Hook(hook::HookCommand),
    /// Print a shell completion script, e.g.
    /// `reckon completions bash > ~/.local/share/bash-completion/completions/reckon`.
    Completions(completions::CompletionsArgs),
    /// Print the man page (roff), or with --dir write one page per command there, e.g.
    /// `reckon man --dir ~/.local/share/man/man1`.
    Man(man::ManArgs),
}

/// How `check`, `claims` and `lint` print what they found.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub(crate) enum CheckFormat {
    /// `path:line: …` lines for a terminal.
    Human,
    /// One JSON document for programs, with every verdict and its evidence.
    Json,
    /// GitHub workflow annotations (`::error file=…,line=…::…`), one per finding.
    Github,
}

/// How `check` prints what it found: as `claims` and `lint` can, or as SARIF.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub(crate) enum CheckOutput {
    /// `path:line: level: message` lines, the diff, a summary of what to run.
    Human,
    /// One JSON document: every document's state, claims and evidence, and the errors.
    Json,
    /// GitHub workflow annotations, bad input first, then contradicted claims.
    Github,
    /// SARIF 2.1.0, for code scanning (`github/codeql-action/upload-sarif`).
    Sarif,
}

impl CheckOutput {
    /// The format `claims` and `lint` share, for the three they have.
    fn listing(self) -> Option<CheckFormat> {
        match self {
            CheckOutput::Human => Some(CheckFormat::Human),
            CheckOutput::Json => Some(CheckFormat::Json),
            CheckOutput::Github => Some(CheckFormat::Github),
            CheckOutput::Sarif => None,
        }
    }
}

/// How `runs` and `query` print a listing.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub(crate) enum OutputFormat {
    /// An aligned table for a terminal.
    Table,
    /// CSV with a header line.
    Csv,
    /// JSON for programs.
    Json,
}

/// Runs the command line and returns the exit code.
pub fn main() -> i32 {
    // `COMPLETE=bash reckon …` (the shell asking what comes next): answered
    // from the definitions and the project's names, then the process ends.
    clap_complete::CompleteEnv::with_factory(<Cli as clap::CommandFactory>::command).complete();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { ERROR } else { OK };
            let _ = e.print();
            return code;
        }
    };
    let check_format = match &cli.command {
        Command::Check(args) => Some(args.format),
        _ => None,
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            if is_broken_pipe(&e) {
                return OK;
            }
            say!("error: {}", shown_error(&e));
            // A check in CI says even this in the format it was asked for.
            if let (Some(format), Ok(cwd)) = (check_format, std::env::current_dir()) {
                if let Err(e) = check::report_failure(format, &cwd, e) {
                    say!("error: {}", shown_error(&e));
                }
            }
            ERROR
        }
    }
}

fn is_broken_pipe(e: &Error) -> bool {
    matches!(e, Error::Io { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe)
}

/// Runs a parsed command line; errors are bad input (exit 2).
pub(crate) fn run(cli: Cli) -> Result<i32> {
    // Generated from the clap definitions alone: no project or database needed.
    match &cli.command {
        Command::Completions(args) => return completions::run(args),
        Command::Man(args) => return man::run(args),
        _ => {}
    }
    let cwd = std::env::current_dir().map_err(|e| Error::io(".", e))?;
    let mut cfg = Config::discover(&cwd)?;
    if let Some(db) = &cli.db {
        cfg.database = cwd.join(db);
    }
    let db = cli.db.as_deref();
    match cli.command {
        Command::Ingest(args) => ingest::run(&cfg, &cwd, &args),
        Command::Runs(args) => runs::run(&cfg, &args),
        Command::Query(args) => query::run(&cfg, args),
        Command::Export(args) => export::run(&cfg, &args),
        // Each document is governed by the reckon.toml found from its own
        // folder (a monorepo's `bench/reckon.toml` when the hook runs from
        // the root); documents of several projects run once per project.
        Command::Update(args) => per_config(&cfg, &cwd, db, &args.docs, |c, docs| {
            update::run(c, &cwd, &update::UpdateArgs { docs, ..args.clone() })
        }),
        Command::Check(args) => per_config(&cfg, &cwd, db, &args.docs, |c, docs| {
            check::run(c, &cwd, &check::CheckArgs { docs, ..args.clone() })
        }),
        Command::Claims(args) => per_config(&cfg, &cwd, db, &args.docs, |c, docs| {
            claims::run(c, &cwd, &claims::ClaimsArgs { docs, ..args.clone() })
        }),
        Command::Lint(args) => per_config(&cfg, &cwd, db, &args.docs, |c, docs| {
            lint::run(c, &cwd, &lint::LintArgs { docs, ..args.clone() })
        }),
        Command::Supersede(args) => supersede::run(&cfg, &cwd, &args),
        Command::Review(args) => review::run(&cfg, &cwd, &args),
        Command::Report(args) => report::run(&cfg, &cwd, &args),
        Command::Diff(args) => diff::run(&cfg, &cwd, args),
        Command::Watch(args) => watch::run(&cfg, &cwd, &args),
        Command::Init => init::run(&cwd),
        Command::Hook(command) => hook::run(&cwd, &command),
        Command::Completions(_) | Command::Man(_) => Ok(OK),
    }
}

/// Runs `each` once per project the paths belong to: each path goes with
/// the reckon.toml found by walking up from its own folder (the current
/// folder's configuration when there is none above it). With no paths, or
/// all in the current folder's project, this is one run with `cfg`. The
/// exit code is the worst of the runs.
fn per_config(
    cfg: &Config,
    cwd: &Path,
    db: Option<&Path>,
    paths: &[PathBuf],
    mut each: impl FnMut(&Config, Vec<PathBuf>) -> Result<i32>,
) -> Result<i32> {
    let mut groups: Vec<(Config, Vec<PathBuf>)> = Vec::new();
    for p in paths {
        let abs = if p.is_absolute() { p.clone() } else { cwd.join(p) };
        // A staged path may be a deleted file: start from the nearest folder that exists.
        let mut start = abs.parent().map_or_else(|| cwd.to_path_buf(), Path::to_path_buf);
        while !start.is_dir() {
            match start.parent() {
                Some(up) => start = up.to_path_buf(),
                None => break,
            }
        }
        let found = Config::discover(&start)?;
        let mut own = if found.file.is_some() && found.file != cfg.file { found } else { cfg.clone() };
        if let Some(db) = db {
            own.database = cwd.join(db);
        }
        match groups.iter_mut().find(|(c, _)| c.file == own.file) {
            Some((_, list)) => list.push(p.clone()),
            None => groups.push((own, vec![p.clone()])),
        }
    }
    if groups.is_empty() {
        return each(cfg, paths.to_vec());
    }
    let mut worst = OK;
    for (c, list) in groups {
        let code = each(&c, list)?;
        worst = worst.max(code);
    }
    Ok(worst)
}

/// An error as a terminal shows it: its lines kept, every control
/// character in them written visibly, no line a CI runner reads as a
/// workflow command (an error quotes document text and log values).
pub(crate) fn shown_error(e: &dyn std::fmt::Display) -> String {
    crate::escape::terminal_lines(&e.to_string())
}

/// Writes `text` to stdout at once. A closed pipe (`reckon check | head`)
/// is no error: the reader has what it wanted, and the command goes on to
/// exit with its own code (a check with problems still exits 1, not 0). Any
/// other failure (a full disk) is an `Io` error, exit 2.
pub(crate) fn stdout_write(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Error::io("<stdout>", e)),
        _ => Ok(()),
    }
}

/// Whether what goes to stdout is coloured: the CLI decides (a terminal,
/// and `NO_COLOR`, `CLICOLOR` and `CLICOLOR_FORCE` as anstream reads them),
/// the library only obeys the choice it is handed.
pub(crate) fn stdout_color() -> bool {
    anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses a command line as the binary would.
    pub(super) fn parse(args: &[&str]) -> std::result::Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("reckon").chain(args.iter().copied()))
    }

    #[test]
    fn the_definitions_are_consistent() {
        <Cli as clap::CommandFactory>::command().debug_assert();
    }

    #[test]
    fn db_is_global_and_a_command_is_required() {
        let cli = parse(&["runs", "--db", "x.sqlite"]).unwrap();
        assert_eq!(cli.db.as_deref(), Some(Path::new("x.sqlite")));
        assert!(parse(&[]).is_err());
        assert!(parse(&["frobnicate"]).is_err());
    }

    #[test]
    fn an_error_outranks_a_finding() {
        assert_eq!(exit_code(0, false, false), OK);
        assert_eq!(exit_code(0, false, true), FINDINGS);
        assert_eq!(exit_code(1, false, true), ERROR);
        assert_eq!(exit_code(0, true, false), ERROR);
    }
}
