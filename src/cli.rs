//! The command line: argument parsing and dispatch to the library. Exit
//! codes: 0 ok, 1 a check found a problem, 2 bad input or usage.
#![allow(
    clippy::format_push_string,
    clippy::needless_pass_by_value,
    clippy::struct_excessive_bools,
    clippy::too_many_lines
)] // floor-plan debt (issue 7): fix these and delete this line

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand, ValueEnum};

use crate::config::Config;
use crate::ingest::Format;
use crate::run::Value;
use crate::sources::{self, FileOutcome, Request};
use crate::store::{Batch, Store};
use crate::{Error, Result};

#[derive(Parser, Debug)]
#[command(
    name = "reckon",
    version,
    about = "Keeps optimization plans honest: benchmark logs in, living documents and checked conclusions out."
)]
pub struct Cli {
    /// The database to use (default: `database` in reckon.toml, else db/reckon.sqlite).
    #[arg(long, global = true, value_name = "PATH")]
    pub db: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Ingest benchmark logs (files, globs or path templates like 'logs/{date}/{config}.jsonl').
    /// With no path, the [[source]] entries of reckon.toml.
    Ingest(IngestArgs),
    /// List runs with their source, time and params.
    Runs(RunsArgs),
    /// Pivot a metric: rows × cols, one aggregated value per cell.
    Query(QueryArgs),
    /// Ingest the configured sources, regenerate the documents' regions, judge their
    /// claims, and print the diff; --write applies it.
    Update(UpdateArgs),
    /// Like update, without writing: exit 1 if a region is stale or a claim is
    /// contradicted. For pre-commit hooks and CI.
    Check(CheckArgs),
    /// Every claim of the documents with its verdict and evidence.
    Claims(ClaimsArgs),
    /// Find checkable statements in the documents' prose (outside claim regions), read
    /// them as claims and report the contradicted and stale ones.
    Lint(LintArgs),
    /// Mark an overturned claim superseded: its words stay, marked with the date
    /// and the evidence, with room for the new conclusion next to it.
    Supersede(SupersedeArgs),
    /// What moved between two sweeps (default: the two newest), cell by cell,
    /// beyond noise or not, then the claims of DOCs whose verdict changed.
    Diff(DiffArgs),
    /// Go through the changes update would make one at a time: accept, reject,
    /// skip, accept all or quit; the accepted ones are written at the end.
    Review(ReviewArgs),
    /// Render each document as a self-contained HTML page (DIR/NAME.html): plots
    /// inline, claims with their verdicts and evidence, numbers linked to their runs.
    Report(ReportArgs),
    /// Create reckon.toml, notebooks/, db/ and templates/ in the current folder.
    Init,
    /// Git hooks.
    #[command(subcommand)]
    Hook(HookCommand),
    /// Print a shell completion script, e.g.
    /// `reckon completions bash > ~/.local/share/bash-completion/completions/reckon`.
    Completions {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), or with --dir write one page per command there, e.g.
    /// `reckon man --dir ~/.local/share/man/man1`.
    Man {
        /// Write reckon.1 and reckon-COMMAND.1 into this folder instead of printing reckon.1.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

#[derive(Subcommand, Debug)]
pub enum HookCommand {
    /// Install a plain git pre-commit hook that runs `reckon check --staged`
    /// when a commit touches a document, a log or reckon.toml.
    Install {
        /// Replace an existing pre-commit hook.
        #[arg(long)]
        force: bool,
    },
}

#[derive(clap::Args, Debug, Clone)]
pub struct UpdateArgs {
    /// Markdown documents (none: the `documents` of reckon.toml).
    pub docs: Vec<PathBuf>,
    /// Write the regenerated documents and plots.
    #[arg(long)]
    pub write: bool,
    /// Overwrite regions that were edited by hand.
    #[arg(long)]
    pub force: bool,
    /// Do not ingest the sources of reckon.toml first.
    #[arg(long)]
    pub no_ingest: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum CheckFormat {
    Human,
    Json,
    Github,
}

#[derive(clap::Args, Debug, Clone)]
pub struct CheckArgs {
    /// Markdown documents (none: the `documents` of reckon.toml). With
    /// --staged: the staged paths, as a hook passes them after `--`.
    pub docs: Vec<PathBuf>,
    /// Check what is staged for commit, not the working tree: run when a
    /// staged path is a document, a log a [[source]] matches, or reckon.toml,
    /// and then check every configured document. Prints one line per problem.
    #[arg(long)]
    pub staged: bool,
    /// Also print the diff of what `update --write` would change (the
    /// default without --staged).
    #[arg(long)]
    pub diff: bool,
    #[arg(long, value_enum, default_value_t = CheckFormat::Human)]
    pub format: CheckFormat,
    /// Also fail on claims that are inconclusive or have no data.
    #[arg(long)]
    pub strict: bool,
    /// Do not ingest the sources of reckon.toml first.
    #[arg(long)]
    pub no_ingest: bool,
}

#[derive(clap::Args, Debug, Clone)]
pub struct ClaimsArgs {
    /// Markdown documents (none: the `documents` of reckon.toml).
    pub docs: Vec<PathBuf>,
    /// The verdict of each claim as of every sweep, and the sweep that changed it.
    #[arg(long)]
    pub history: bool,
    #[arg(long, value_enum, default_value_t = CheckFormat::Human)]
    pub format: CheckFormat,
    /// Do not ingest the sources of reckon.toml first.
    #[arg(long)]
    pub no_ingest: bool,
}

#[derive(clap::Args, Debug)]
pub struct LintArgs {
    /// Markdown documents.
    #[arg(required = true)]
    pub docs: Vec<PathBuf>,
    /// Show every statement found (holding, inconclusive, history, plans), not only problems.
    #[arg(long)]
    pub all: bool,
    /// Print a ready-to-paste claim region for each statement reported.
    #[arg(long, conflicts_with = "write")]
    pub suggest: bool,
    /// Wrap the statements reported in claim regions (the author's lines untouched).
    #[arg(long)]
    pub write: bool,
    /// Leave out statements read with less confidence than this, 0 to 1
    /// (default: [lint] `min_confidence` in reckon.toml, else 0.5).
    #[arg(long, value_name = "C")]
    pub min_confidence: Option<f64>,
    #[arg(long, value_enum, default_value_t = CheckFormat::Human)]
    pub format: CheckFormat,
    /// Do not ingest the sources of reckon.toml first.
    #[arg(long)]
    pub no_ingest: bool,
}

#[derive(clap::Args, Debug)]
pub struct SupersedeArgs {
    /// The document holding the claim.
    pub doc: PathBuf,
    /// The claim's id.
    pub id: String,
    /// Write the change (otherwise print the diff).
    #[arg(long)]
    pub write: bool,
    /// Do not ingest the sources of reckon.toml first.
    #[arg(long)]
    pub no_ingest: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum DiffFormat {
    Table,
    Markdown,
    Json,
}

#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// Documents whose claims are judged as of both sweeps (optional).
    pub docs: Vec<PathBuf>,
    /// The older sweep, e.g. 2026-11-20 (default: the second newest).
    #[arg(long, value_name = "SWEEP")]
    pub from: Option<String>,
    /// The newer sweep (default: the newest).
    #[arg(long, value_name = "SWEEP")]
    pub to: Option<String>,
    /// Only these metrics (comma-separated; default: every metric with a better direction).
    #[arg(long, value_delimiter = ',')]
    pub metric: Vec<String>,
    /// Only runs matching this filter.
    #[arg(long = "where", value_name = "FILTER")]
    pub filter: Option<String>,
    /// The params that make a cell (comma-separated; default: those every run has and that vary).
    #[arg(long, value_delimiter = ',')]
    pub by: Vec<String>,
    /// List only the cells that moved beyond noise.
    #[arg(long)]
    pub only_moved: bool,
    /// Digits after the decimal point (default: up to 6 significant digits).
    #[arg(long)]
    pub digits: Option<usize>,
    #[arg(long, value_enum, default_value_t = DiffFormat::Table)]
    pub format: DiffFormat,
    /// Do not ingest the sources of reckon.toml first.
    #[arg(long)]
    pub no_ingest: bool,
}

#[derive(clap::Args, Debug)]
pub struct ReviewArgs {
    /// Markdown documents.
    #[arg(required = true)]
    pub docs: Vec<PathBuf>,
    /// Do not ingest the sources of reckon.toml first.
    #[arg(long)]
    pub no_ingest: bool,
}

#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// Markdown documents.
    #[arg(required = true)]
    pub docs: Vec<PathBuf>,
    /// The folder to write the pages into (created if missing).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Do not ingest the sources of reckon.toml first.
    #[arg(long)]
    pub no_ingest: bool,
}

#[derive(clap::Args, Debug)]
pub struct IngestArgs {
    /// Files, globs or path templates; quote globs and templates.
    pub paths: Vec<String>,
    /// Force a format instead of detecting it from content.
    #[arg(long, value_parser = parse_format)]
    pub format: Option<Format>,
    /// A label the log lacks, e.g. --label config=baseline (repeatable).
    #[arg(long = "label", value_name = "KEY=VALUE", value_parser = parse_label)]
    pub labels: Vec<(String, String)>,
    /// Stop at the first file that cannot be ingested.
    #[arg(long)]
    pub fail_fast: bool,
    /// No progress bar and no per-file lines, only the summary and errors.
    #[arg(long, short)]
    pub quiet: bool,
    /// Start from an empty database: drop everything stored, then ingest.
    #[arg(long)]
    pub rebuild: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum OutputFormat {
    Table,
    Csv,
    Json,
}

#[derive(clap::Args, Debug)]
pub struct RunsArgs {
    /// Only runs matching this filter, e.g. "config = baseline and `max_concurrency` >= 30".
    #[arg(long = "where", value_name = "FILTER")]
    pub filter: Option<String>,
    /// How many of the newest runs to show (0 = all).
    #[arg(long, default_value_t = 20)]
    pub limit: usize,
    /// Also show nested params (`server_info`.*).
    #[arg(long)]
    pub all_params: bool,
    #[arg(long, value_enum, default_value_t = OutputFormat::Table)]
    pub format: OutputFormat,
}

#[derive(clap::Args, Debug)]
pub struct QueryArgs {
    /// The metric to pivot, e.g. `output_throughput`.
    #[arg(long)]
    pub metric: String,
    /// Param(s) for the rows, comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub rows: Vec<String>,
    /// Param(s) for the columns, comma-separated (default: the series dimension).
    #[arg(long, value_delimiter = ',')]
    pub cols: Vec<String>,
    /// Only runs matching this filter.
    #[arg(long = "where", value_name = "FILTER")]
    pub filter: Option<String>,
    /// Aggregation: median of the newest sweep (default), mean, median, min, max, count, latest, all.
    #[arg(long)]
    pub agg: Option<String>,
    #[arg(long, value_enum, default_value_t = OutputFormat::Table)]
    pub format: OutputFormat,
}

fn parse_format(s: &str) -> std::result::Result<Format, String> {
    Format::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        format!("unknown format `{s}`; known formats: {}", names.join(", "))
    })
}

fn parse_label(s: &str) -> std::result::Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.trim().to_string())),
        _ => Err(format!("`{s}` is not KEY=VALUE, e.g. --label config=baseline")),
    }
}

/// Runs the command line and returns the exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            if is_broken_pipe(&e) {
                return 0;
            }
            eprintln!("error: {e}");
            2
        }
    }
}

fn is_broken_pipe(e: &Error) -> bool {
    matches!(e, Error::Io { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe)
}

/// Runs a parsed command line; errors are bad input (exit 2).
pub fn run(cli: Cli) -> Result<i32> {
    // Generated from the clap definitions alone: no project or database needed.
    match &cli.command {
        Command::Completions { shell } => return completions(*shell),
        Command::Man { dir } => return man(dir.as_deref()),
        _ => {}
    }
    let cwd = std::env::current_dir().map_err(|e| Error::io(".", e))?;
    let mut cfg = Config::discover(&cwd)?;
    if let Some(db) = &cli.db {
        cfg.database = cwd.join(db);
    }
    crate::ingest::limit::set_line_bytes(cfg.limits.line_bytes);
    crate::store::set_lock_wait(std::time::Duration::from_secs_f64(cfg.limits.lock_wait_seconds.min(1e9)));
    match cli.command {
        Command::Ingest(args) => cmd_ingest(&cfg, &cwd, args),
        Command::Runs(args) => cmd_runs(&cfg, args),
        Command::Query(args) => cmd_query(&cfg, args),
        // Each document is governed by the reckon.toml found from its own
        // folder (a monorepo's `bench/reckon.toml` when the hook runs from
        // the root); documents of several projects run once per project.
        Command::Update(args) => per_config(&cfg, &cwd, cli.db.as_deref(), &args.docs.clone(), |c, docs| {
            crate::cli_docs::update(c, &cwd, crate::cli::UpdateArgs { docs, ..args.clone() })
        }),
        Command::Check(args) => per_config(&cfg, &cwd, cli.db.as_deref(), &args.docs.clone(), |c, docs| {
            crate::cli_docs::check(c, &cwd, crate::cli::CheckArgs { docs, ..args.clone() })
        }),
        Command::Claims(args) => per_config(&cfg, &cwd, cli.db.as_deref(), &args.docs.clone(), |c, docs| {
            crate::cli_docs::claims(c, &cwd, crate::cli::ClaimsArgs { docs, ..args.clone() })
        }),
        Command::Lint(args) => crate::cli_docs::lint(&cfg, &cwd, args),
        Command::Supersede(args) => crate::cli_docs::supersede(&cfg, &cwd, args),
        Command::Review(args) => crate::cli_docs::review(&cfg, &cwd, args),
        Command::Report(args) => crate::cli_docs::report(&cfg, &cwd, args),
        Command::Diff(args) => crate::cli_docs::diff(&cfg, &cwd, args),
        Command::Init => crate::cli_docs::init(&cwd),
        Command::Hook(HookCommand::Install { force }) => crate::cli_docs::hook_install(&cwd, force),
        Command::Completions { .. } | Command::Man { .. } => Ok(0),
    }
}

/// Prints the completion script for `shell`.
fn completions(shell: clap_complete::Shell) -> Result<i32> {
    let mut cmd = <Cli as clap::CommandFactory>::command();
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, "reckon", &mut buf);
    stdout_write(&String::from_utf8_lossy(&buf))?;
    Ok(0)
}

/// Prints reckon(1), or writes it and one page per subcommand
/// (reckon-update(1), …) into `dir`.
fn man(dir: Option<&Path>) -> Result<i32> {
    let cmd = <Cli as clap::CommandFactory>::command();
    let render = |cmd: clap::Command| -> Result<Vec<u8>> {
        let mut buf = Vec::new();
        clap_mangen::Man::new(cmd).render(&mut buf).map_err(|e| Error::io("<man page>", e))?;
        Ok(buf)
    };
    let Some(dir) = dir else {
        stdout_write(&String::from_utf8_lossy(&render(cmd)?))?;
        return Ok(0);
    };
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let mut pages = vec![("reckon.1".to_string(), render(cmd.clone())?)];
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = format!("reckon-{}", sub.get_name());
        let page = sub
            .clone()
            .display_name(name.clone())
            .bin_name(format!("reckon {}", sub.get_name()))
            .version(env!("CARGO_PKG_VERSION"));
        pages.push((format!("{name}.1"), render(page)?));
    }
    for (file, bytes) in &pages {
        let path = dir.join(file);
        std::fs::write(&path, bytes).map_err(|e| Error::io(&path, e))?;
    }
    eprintln!("wrote {} man pages to {}", pages.len(), dir.display());
    Ok(0)
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
    let mut worst = 0;
    for (c, list) in groups {
        let code = each(&c, list)?;
        worst = worst.max(code);
    }
    Ok(worst)
}

pub(crate) fn stdout_write(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(|e| Error::io("<stdout>", e))
}

/// The requests an ingest command stands for: its paths (given relative to
/// the current folder), or the sources of reckon.toml; either way relative
/// to the project root, so a path is stored the same wherever it was
/// ingested from.
fn ingest_requests(cfg: &Config, cwd: &Path, args: &IngestArgs) -> Result<(PathBuf, Vec<Request>)> {
    let labels: BTreeMap<String, Value> = args.labels.iter().map(|(k, v)| (k.clone(), Value::from_label(v))).collect();
    if !args.paths.is_empty() {
        // The current folder as seen from the root ("" at the root itself);
        // outside the project, paths stay relative to the current folder.
        let (root, prefix) = match cwd.strip_prefix(&cfg.root) {
            Ok(rel) => (cfg.root.clone(), rel.to_path_buf()),
            Err(_) => (cwd.to_path_buf(), PathBuf::new()),
        };
        let reqs = args
            .paths
            .iter()
            .map(|p| {
                let path = if Path::new(p).is_absolute() || prefix.as_os_str().is_empty() {
                    p.clone()
                } else {
                    prefix.join(p).to_string_lossy().into_owned()
                };
                Request { path, format: args.format, labels: labels.clone(), optional: false }
            })
            .collect();
        return Ok((root, reqs));
    }
    if cfg.sources.is_empty() {
        return Err(Error::usage(match &cfg.file {
            Some(f) => format!("nothing to ingest: give paths, or add [[source]] entries to {}", f.display()),
            None => "nothing to ingest: give paths (e.g. reckon ingest 'logs/{date}/{config}.jsonl'), or run `reckon init` and list sources in reckon.toml".into(),
        }));
    }
    sources_requests(cfg, args.format, &labels).map(|r| (cfg.root.clone(), r))
}

/// The `[[source]]` entries of reckon.toml as ingest requests.
pub fn sources_requests(cfg: &Config, format: Option<Format>, extra: &BTreeMap<String, Value>) -> Result<Vec<Request>> {
    let shown = cfg.file.clone().unwrap_or_else(|| PathBuf::from(crate::config::FILE_NAME));
    cfg.sources
        .iter()
        .map(|s| {
            let format = match (&s.format, format) {
                (_, Some(f)) => Some(f),
                (Some(name), None) => Some(parse_format(name).map_err(|msg| Error::Config {
                    path: shown.clone(),
                    msg: format!("source `{}`: {msg}", s.path),
                })?),
                (None, None) => None,
            };
            let mut labels: BTreeMap<String, Value> = s
                .labels
                .iter()
                .map(|(k, v)| {
                    let v = match v {
                        toml::Value::String(t) => Value::from_label(t),
                        toml::Value::Integer(i) => Value::Num(*i as f64),
                        toml::Value::Float(f) => Value::Num(*f),
                        other => Value::Text(other.to_string()),
                    };
                    (k.clone(), v)
                })
                .collect();
            labels.extend(extra.clone());
            Ok(Request { path: s.path.clone(), format, labels, optional: true })
        })
        .collect()
}

/// Ingests `requests` and prints what happened; returns the number of failed files.
pub fn ingest_and_report(
    store: &mut Store,
    root: &Path,
    requests: &[Request],
    opts: &sources::Options,
    quiet: bool,
) -> usize {
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let mut batch = Batch::at_head_of(command, root);
    let progress = if !quiet && std::io::stderr().is_terminal() {
        let pb = indicatif::ProgressBar::new(0);
        pb.set_style(
            indicatif::ProgressStyle::with_template("{spinner} ingesting [{bar:30}] {pos}/{len} {wide_msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        Some(pb)
    } else {
        None
    };
    let report = sources::ingest(store, root, requests, opts, &mut batch, &mut |file, i, total| {
        if let Some(pb) = &progress {
            pb.set_length(total as u64);
            pb.set_position(i as u64);
            pb.set_message(file.path.display().to_string());
        }
        let line = match &file.outcome {
            FileOutcome::Failed(e) => Some(format!("error: {e}")),
            FileOutcome::Added { format, runs, skipped } if !quiet => {
                let word = if *runs == 1 { "run" } else { "runs" };
                let mut s = format!("{}: {runs} {word} ({})", file.path.display(), format.name());
                for note in skipped {
                    s.push_str(&format!("\n  skipped: {note}"));
                }
                Some(s)
            }
            FileOutcome::Added { skipped, .. } if !skipped.is_empty() => Some(
                skipped.iter().map(|n| format!("{}: skipped: {n}", file.path.display())).collect::<Vec<_>>().join("\n"),
            ),
            FileOutcome::AlreadyPresent { relabel: Some(why) } => {
                Some(format!("{}: already ingested; {why}", file.path.display()))
            }
            FileOutcome::AlreadyPresent { relabel: None } if !quiet => {
                Some(format!("{}: already ingested", file.path.display()))
            }
            FileOutcome::Removed { runs } if !quiet => {
                Some(format!("{}: gone; its {runs} run(s) removed", file.path.display()))
            }
            _ => None,
        };
        if let Some(line) = line {
            match &progress {
                Some(pb) => pb.println(line),
                None => eprintln!("{line}"),
            }
        }
    });
    if let Some(pb) = progress {
        pb.finish_and_clear();
    }
    let failed = report.failed();
    if !quiet || failed > 0 {
        let removed = match report.removed() {
            0 => String::new(),
            n => format!("; {n} gone (runs removed)"),
        };
        eprintln!(
            "ingested {} file(s), {} run(s); {} already present{removed}; {} failed",
            report.added_files(),
            report.added_runs(),
            report.already_present(),
            failed
        );
    }
    failed
}

fn cmd_ingest(cfg: &Config, cwd: &Path, args: IngestArgs) -> Result<i32> {
    let (root, requests) = ingest_requests(cfg, cwd, &args)?;
    let mut store = Store::open(&cfg.database)?;
    if args.rebuild {
        store.clear()?;
    } else {
        report_forgotten(&sources::forget_missing(&mut store, &cfg.root)?, args.quiet);
    }
    let opts = sources::Options { fail_fast: args.fail_fast, generic: cfg.generic.clone(), ..Default::default() };
    let failed = ingest_and_report(&mut store, &root, &requests, &opts, args.quiet);
    Ok(if failed > 0 { 2 } else { 0 })
}

/// Says which sources lost their runs because their file is gone.
pub(crate) fn report_forgotten(gone: &[(String, u64)], quiet: bool) {
    if quiet {
        return;
    }
    for (path, runs) in gone {
        eprintln!("{path}: gone; its {runs} run(s) removed");
    }
}

/// Opens the database to read it, first dropping the runs of files that are
/// no longer there: the database is a cache of the logs, and a deleted log
/// must not keep deciding answers.
pub(crate) fn open_current(cfg: &Config) -> Result<Store> {
    let store = Store::open_read_only(&cfg.database)?;
    if !cfg.database.exists() || !sources::any_missing(&store, &cfg.root)? {
        return Ok(store);
    }
    drop(store);
    let mut store = Store::open(&cfg.database)?;
    report_forgotten(&sources::forget_missing(&mut store, &cfg.root)?, false);
    Ok(store)
}

fn cmd_runs(cfg: &Config, args: RunsArgs) -> Result<i32> {
    let store = open_current(cfg)?;
    let mut runs = store.runs()?;
    if let Some(text) = &args.filter {
        // Names in the filter are checked and aliases resolved as `query` does.
        let mut dataset = crate::query::Dataset::load(&store)?;
        dataset.apply_config(cfg);
        let filter = dataset.resolve_filter(&crate::query::Filter::parse(text)?)?;
        runs.retain(|r| filter.matches(r));
    }
    if args.limit > 0 && runs.len() > args.limit {
        runs.drain(..runs.len() - args.limit);
    }
    let text = runs_listing(&runs, args.all_params, args.format)?;
    stdout_write(&text)?;
    Ok(0)
}

fn cmd_query(cfg: &Config, args: QueryArgs) -> Result<i32> {
    let store = open_current(cfg)?;
    let mut dataset = crate::query::Dataset::load(&store)?;
    dataset.apply_config(cfg);
    let mut query = crate::query::Query::new(&args.metric);
    query.rows = args.rows;
    query.cols = if args.cols.is_empty() && dataset.has_param(&cfg.series) && !query.rows.contains(&cfg.series) {
        vec![cfg.series.clone()]
    } else {
        args.cols
    };
    if let Some(f) = &args.filter {
        query.filter = crate::query::Filter::parse(f)?;
    }
    if let Some(a) = &args.agg {
        query.agg = crate::query::Agg::parse(a)?;
    }
    let pivot = dataset.evaluate(&query)?;
    let fmt = crate::query::NumberFormat::default();
    let text = match args.format {
        OutputFormat::Table => {
            let mut t = pivot.to_text(&fmt);
            for note in pivot.notes() {
                t.push_str(&format!("note: {note}\n"));
            }
            t
        }
        OutputFormat::Csv => pivot.to_csv(&fmt)?,
        OutputFormat::Json => pivot.to_json()?,
    };
    stdout_write(&text)?;
    Ok(0)
}

/// Renders runs as an aligned table, CSV or JSON. Time origins other than
/// the log's own are shown, since they decide what "latest" means.
pub fn runs_listing(runs: &[crate::store::RunRecord], all_params: bool, format: OutputFormat) -> Result<String> {
    let shown = |k: &str| all_params || !k.contains('.');
    match format {
        OutputFormat::Json => {
            let items: Vec<serde_json::Value> = runs
                .iter()
                .map(|r| {
                    let params: serde_json::Map<String, serde_json::Value> = r
                        .params
                        .iter()
                        .filter(|(k, _)| shown(k))
                        .map(|(k, v)| {
                            let v = match v {
                                Value::Num(n) if n.is_finite() => serde_json::json!(n),
                                other => serde_json::Value::String(other.to_string()),
                            };
                            (k.clone(), v)
                        })
                        .collect();
                    serde_json::json!({
                        "id": r.id, "time": r.time, "time_origin": r.time_origin, "sweep": r.sweep,
                        "source": r.source, "line": r.line, "params": params,
                    })
                })
                .collect();
            let mut s = serde_json::to_string_pretty(&items).map_err(|e| Error::usage(e.to_string()))?;
            s.push('\n');
            Ok(s)
        }
        OutputFormat::Csv => {
            let keys: std::collections::BTreeSet<&str> =
                runs.iter().flat_map(|r| r.params.keys().map(String::as_str)).filter(|k| shown(k)).collect();
            let mut w = csv::Writer::from_writer(Vec::new());
            let mut header = vec!["id", "time", "time_origin", "sweep", "source", "line"];
            header.extend(keys.iter().copied());
            w.write_record(&header).map_err(|e| Error::usage(e.to_string()))?;
            for r in runs {
                let mut rec = vec![
                    r.id.to_string(),
                    r.time.clone(),
                    r.time_origin.clone(),
                    r.sweep.clone(),
                    r.source.clone(),
                    r.line.to_string(),
                ];
                rec.extend(
                    keys.iter().map(|k| r.params.get(*k).map(std::string::ToString::to_string).unwrap_or_default()),
                );
                w.write_record(&rec).map_err(|e| Error::usage(e.to_string()))?;
            }
            let bytes = w.into_inner().map_err(|e| Error::usage(e.to_string()))?;
            Ok(String::from_utf8_lossy(&bytes).into_owned())
        }
        OutputFormat::Table => {
            let mut rows = vec![vec!["id".to_string(), "time".into(), "source:line".into(), "params".into()]];
            for r in runs {
                // The sweep is shown where it is not the time's date (named by
                // a label, or a month).
                let sweep = if r.time.starts_with(&r.sweep) && r.sweep.len() == 10 {
                    String::new()
                } else {
                    format!("sweep {}", r.sweep)
                };
                let time = match (r.time_origin.as_str(), sweep.is_empty()) {
                    ("log", true) => r.time.clone(),
                    ("log", false) => format!("{} ({sweep})", r.time),
                    (origin, true) => format!("{} ({origin})", r.time),
                    (origin, false) => format!("{} ({origin}, {sweep})", r.time),
                };
                let params: Vec<String> =
                    r.params.iter().filter(|(k, _)| shown(k)).map(|(k, v)| format!("{k}={v}")).collect();
                rows.push(vec![r.id.to_string(), time, format!("{}:{}", r.source, r.line), params.join(" ")]);
            }
            let widths: Vec<usize> =
                (0..3).map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0)).collect();
            let mut s = String::new();
            for row in &rows {
                for (i, cell) in row.iter().enumerate() {
                    if i < 3 {
                        s.push_str(&format!("{cell:<w$}  ", w = widths[i]));
                    } else {
                        s.push_str(cell);
                    }
                }
                s.push('\n');
            }
            if runs.is_empty() {
                s.push_str("(no runs; ingest logs with `reckon ingest`)\n");
            }
            Ok(s)
        }
    }
}
