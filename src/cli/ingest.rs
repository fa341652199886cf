//! `reckon ingest`: logs (paths, globs, path templates, or the `[[source]]`
//! entries of reckon.toml) into the database, one line per file.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::ingest::Format;
use crate::run::Value;
use crate::sources::{self, FileOutcome, FileReport, Request};
use crate::store::{Batch, Store};
use crate::{Error, Result};

#[derive(clap::Args, Debug)]
pub(crate) struct IngestArgs {
    /// Files, globs or path templates; quote globs and templates.
    pub(crate) paths: Vec<String>,
    /// Force a format instead of detecting it from content.
    #[arg(long, value_parser = parse_format)]
    pub(crate) format: Option<Format>,
    /// A label the log lacks, e.g. --label config=baseline (repeatable).
    #[arg(long = "label", value_name = "KEY=VALUE", value_parser = parse_label)]
    pub(crate) labels: Vec<(String, String)>,
    /// Stop at the first file that cannot be ingested.
    #[arg(long)]
    pub(crate) fail_fast: bool,
    /// No progress bar, no summary and no line for a file read whole: only
    /// what was left out of a file or converted, and errors.
    #[arg(long, short)]
    pub(crate) quiet: bool,
    /// Start from an empty database: drop everything stored, then ingest.
    #[arg(long)]
    pub(crate) rebuild: bool,
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

pub(super) fn run(cfg: &Config, cwd: &Path, args: &IngestArgs) -> Result<i32> {
    let (root, requests) = ingest_requests(cfg, cwd, args)?;
    // A request refused before the store is opened changes nothing.
    sources::check_requests(&requests)?;
    let mut store = if args.rebuild {
        // Also when the database is damaged: it is a cache of the logs.
        Store::open_empty(&cfg.database, cfg.store_limits())?
    } else {
        let mut store = Store::open(&cfg.database, cfg.store_limits())?;
        report_forgotten(&sources::forget_missing(&mut store, &cfg.root)?, args.quiet);
        store
    };
    // A log a [[source]] covers keeps that source's labels, named by path or not.
    let configured = if args.paths.is_empty() || root != cfg.root {
        Vec::new()
    } else {
        sources_requests(cfg, args.format, &BTreeMap::new())?
    };
    // `reckon ingest` alone covers the project's [[source]] entries: a log a
    // narrowed glob left out loses its runs.
    let forget = sources::Forget { missing: false, unmatched: args.paths.is_empty() };
    let opts = sources::Options { fail_fast: args.fail_fast, configured, forget, ..cfg.ingest_options() };
    let failed = ingest_and_report(&mut store, &root, &requests, &opts, (args.quiet, None));
    Ok(super::exit_code(failed.len(), false, false))
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
            None => concat!(
                "nothing to ingest: give paths (e.g. reckon ingest 'logs/{date}/{config}.jsonl'), ",
                "or run `reckon init` and list sources in reckon.toml"
            )
            .into(),
        }));
    }
    sources_requests(cfg, args.format, &labels).map(|r| (cfg.root.clone(), r))
}

/// The `[[source]]` entries of reckon.toml as ingest requests.
pub(super) fn sources_requests(
    cfg: &Config,
    format: Option<Format>,
    extra: &BTreeMap<String, Value>,
) -> Result<Vec<Request>> {
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
            let mut labels: BTreeMap<String, Value> =
                s.labels.iter().map(|(k, v)| (k.clone(), label_value(v))).collect();
            labels.extend(extra.clone());
            Ok(Request { path: s.path.clone(), format, labels, optional: true })
        })
        .collect()
}

/// A label written in reckon.toml as the value a log's own label would be.
fn label_value(v: &toml::Value) -> Value {
    match v {
        toml::Value::String(t) => Value::from_label(t),
        toml::Value::Integer(i) => Value::Num(*i as f64),
        toml::Value::Float(f) => Value::Num(*f),
        other => Value::Text(other.to_string()),
    }
}

/// How an ingest names a file in what it says: as its source does
/// (relative to the project's root), or, given a map, as the command's
/// other output names it (`check` names every path from where the user ran,
/// a staged copy's as the real file).
pub(super) type ShownAs<'a> = Option<&'a dyn Fn(&Path) -> PathBuf>;

/// Ingests `requests` and prints what happened (quietly: only what went
/// wrong or was left out); returns the errors of the files that failed,
/// their paths named as printed.
pub(super) fn ingest_and_report(
    store: &mut Store,
    root: &Path,
    requests: &[Request],
    opts: &sources::Options,
    (quiet, shown_as): (bool, ShownAs),
) -> Vec<crate::Error> {
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
    // What each list of skipped parts was first said of: a folder of one
    // tool's logs skips the same parts of each, said once in full.
    let mut said = SaidSkipped::default();
    let report = sources::ingest(store, root, requests, opts, &mut batch, &mut |file, i, total| {
        if let Some(pb) = &progress {
            pb.set_length(total as u64);
            pb.set_position(i as u64);
            pb.set_message(crate::escape::terminal(&file.path.display().to_string()));
        }
        // File names and what a log said reach the terminal: controls shown.
        if let Some(line) = file_line(file, quiet, shown_as, &mut said).map(|l| crate::escape::terminal_lines(&l)) {
            if let Some(pb) = &progress {
                pb.println(line);
            } else {
                say!("{line}");
            }
        }
    });
    if let Some(pb) = progress {
        pb.finish_and_clear();
    }
    let failed = report.failed();
    let summary = (!quiet || failed > 0).then(|| {
        let removed = match report.removed() {
            0 => String::new(),
            n => format!("; {n} gone (runs removed)"),
        };
        format!(
            "ingested {} file(s), {} run(s); {} already present{removed}; {} failed",
            report.added_files(),
            report.added_runs(),
            report.already_present(),
            failed
        )
    });
    let undated = (!quiet).then(|| mtime_note(&report.mtime_dated(), shown_as)).flatten();
    let mut errors = Vec::new();
    for file in report.files {
        let FileOutcome::Failed(e) = file.outcome else { continue };
        match shown_as {
            // Said here rather than as the file was read: renamed.
            Some(shown_as) => {
                let e = e.map_path(&|p| shown_as(&p));
                say!("{}", crate::escape::terminal_lines(&format!("error: {e}")));
                errors.push(e);
            }
            None => errors.push(e),
        }
    }
    if let Some(summary) = summary {
        say!("{summary}");
    }
    if let Some(note) = undated {
        say!("{}", crate::escape::terminal_lines(&note));
    }
    errors
}

/// What to say of the logs dated by their modification time: a copy or a
/// checkout moves their runs to another sweep, and nothing in the log says
/// so.
fn mtime_note(paths: &[&Path], shown_as: ShownAs) -> Option<String> {
    let shown: Vec<String> = paths
        .iter()
        .take(3)
        .map(|p| shown_as.map_or_else(|| p.to_path_buf(), |f| f(p)).display().to_string())
        .collect();
    let first = shown.first()?;
    let named = match paths.len() {
        1 => first.clone(),
        n if n <= 3 => shown.join(", "),
        n => format!("{}, and {} more", shown.join(", "), n - 3),
    };
    let (logs, its, is) = match paths.len() {
        1 => ("1 log gives".to_string(), "its", "is"),
        n => (format!("{n} logs give"), "their", "are"),
    };
    Some(format!(
        "note: {logs} no time of {its} own and {is} not committed to git ({named}): {its} runs are dated by the \
         file's modification time, which a copy or a checkout changes (`reckon runs` shows `(mtime)`); to date \
         them for good, put the date in the path (`{{date}}` in the [[source]] path) or give the source a \
         `sweep` label (`labels = {{ sweep = \"2024-06-01\" }}`)"
    ))
}

/// The lists of skipped parts said so far in a command, each with the file
/// it was first said of.
#[derive(Default)]
struct SaidSkipped(std::collections::HashMap<Vec<String>, String>);

impl SaidSkipped {
    /// What to say of `skipped` for `path`: every part the first time, and
    /// for a file that skips the same parts (two or more) as one before it,
    /// one line naming that file.
    fn lines(&mut self, path: &str, skipped: &[String]) -> Vec<String> {
        if skipped.len() < 2 {
            return skipped.to_vec();
        }
        if let Some(first) = self.0.get(skipped) {
            return vec![format!("the same {} parts as {first}", skipped.len())];
        }
        self.0.insert(skipped.to_vec(), path.to_string());
        skipped.to_vec()
    }
}

/// What is said about one ingested file (errors and skipped records even
/// when quiet).
fn file_line(file: &FileReport, quiet: bool, shown_as: ShownAs, said: &mut SaidSkipped) -> Option<String> {
    if quiet && matches!(file.outcome, FileOutcome::AlreadyPresent { relabel: None }) {
        // Nothing to say of an unchanged log (every log of a check): its
        // path is not even shown.
        return None;
    }
    let path = shown_as.map_or_else(|| file.path.clone(), |f| f(&file.path));
    let path = path.display();
    match &file.outcome {
        FileOutcome::Failed(_) if shown_as.is_some() => None,
        FileOutcome::Failed(e) => Some(format!("error: {e}")),
        FileOutcome::Added { format, runs, skipped, converted, noted, .. } if !quiet => {
            let word = if *runs == 1 { "run" } else { "runs" };
            let mut s = format!("{path}: {runs} {word} ({})", format.name());
            for note in said.lines(&path.to_string(), skipped) {
                s.push_str("\n  skipped: ");
                s.push_str(&note);
            }
            for note in converted {
                s.push_str("\n  converted: ");
                s.push_str(&note.to_string());
            }
            for note in noted {
                s.push_str("\n  note: ");
                s.push_str(note);
            }
            Some(s)
        }
        FileOutcome::Added { skipped, converted, noted, .. }
            if !skipped.is_empty() || !converted.is_empty() || !noted.is_empty() =>
        {
            let skipped = said.lines(&path.to_string(), skipped).into_iter().map(|n| format!("{path}: skipped: {n}"));
            let converted = converted.iter().map(|n| format!("{path}: converted: {n}"));
            let noted = noted.iter().map(|n| format!("{path}: note: {n}"));
            Some(skipped.chain(converted).chain(noted).collect::<Vec<_>>().join("\n"))
        }
        FileOutcome::AlreadyPresent { relabel: Some(why) } => Some(format!("{path}: already ingested; {why}")),
        FileOutcome::AlreadyPresent { relabel: None } if !quiet => Some(format!("{path}: already ingested")),
        FileOutcome::Removed { runs, unmatched: false } if !quiet => {
            Some(format!("{path}: gone; its {runs} run(s) removed"))
        }
        // Said even when quiet: runs the project had go.
        FileOutcome::Removed { runs, unmatched: true } => Some(format!(
            "{path}: no [[source]] of reckon.toml matches it any more; its {runs} run(s) removed (a fresh \
             database would not hold them)"
        )),
        _ => None,
    }
}

/// Says which sources lost their runs because their file is gone.
pub(super) fn report_forgotten(gone: &[(String, u64)], quiet: bool) {
    if quiet {
        return;
    }
    for (path, runs) in gone {
        say!("{}: gone; its {runs} run(s) removed", crate::escape::terminal(path));
    }
}

#[cfg(test)]
mod tests {
    use crate::cli::tests::parse;
    use crate::cli::Command;

    fn ingest(args: &[&str]) -> super::IngestArgs {
        match parse(&[&["ingest"], args].concat()).unwrap().command {
            Command::Ingest(a) => a,
            other => panic!("parsed as {other:?}"),
        }
    }

    #[test]
    fn labels_are_key_value_pairs() {
        let a = ingest(&["logs/*.jsonl", "--label", "config = baseline", "--label", "gpus=8"]);
        assert_eq!(a.paths, ["logs/*.jsonl"]);
        assert_eq!(a.labels, [("config".to_string(), "baseline".to_string()), ("gpus".into(), "8".into())]);
        let e = parse(&["ingest", "--label", "=x"]).unwrap_err().to_string();
        assert!(e.contains("is not KEY=VALUE"), "{e}");
    }

    #[test]
    fn a_forced_format_is_named_and_an_unknown_one_lists_the_known() {
        let a = ingest(&["--format", "hyperfine", "-q", "x.json"]);
        assert_eq!(a.format.map(crate::ingest::Format::name), Some("hyperfine"));
        assert!(a.quiet);
        let e = parse(&["ingest", "--format", "nope", "x"]).unwrap_err().to_string();
        assert!(e.contains("unknown format `nope`; known formats:") && e.contains("hyperfine"), "{e}");
    }
}
