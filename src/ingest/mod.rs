//! Ingest: turning log files into runs in the store, with provenance and a
//! run time that is the same on every clone.
//!
//! A file goes in whole or not at all: its runs are written under its own
//! savepoint (many files share one transaction, so a commit is paid per
//! group, not per file) that is rolled back on the first problem, and the
//! problem is reported as `path:line: what is wrong`. Other files of the
//! same command still go in (unless `fail_fast`).
#![allow(
    clippy::assigning_clones,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::needless_pass_by_value,
    clippy::too_many_lines
)] // floor-plan debt (issue 7): fix these and delete this line

pub mod canonical;
pub mod format;
pub mod generic;
pub mod git;
pub mod hyperfine;
pub mod limit;
pub mod pyjson;
pub mod sglang;
pub mod stdout;
pub mod template;
pub mod vllm;

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender};

pub use format::{Format, Outcome};
pub use git::GitView;
pub use template::PathTemplate;

use crate::run::Value;
use crate::store::{Batch, NewSource, RunTime, Seen, Store, Writer};
use crate::{Error, Result};

/// What to ingest: a file, a glob, or a path template, with its labels.
#[derive(Debug, Clone, Default)]
pub struct Request {
    pub path: String,
    /// Forces a format instead of detecting it from content.
    pub format: Option<Format>,
    pub labels: BTreeMap<String, Value>,
    /// A source named in reckon.toml: a template that matches no file yet is
    /// not an error (the logs may not have been produced yet).
    pub optional: bool,
}

/// What happened to one file.
#[derive(Debug)]
pub enum FileOutcome {
    Added {
        format: Format,
        runs: u64,
        skipped: Vec<String>,
    },
    /// Its bytes were ingested before. `relabel` says so when they were
    /// ingested with other labels than the ones given now.
    AlreadyPresent {
        relabel: Option<String>,
    },
    /// The file is gone (or no longer matches its source's template): the
    /// runs it gave were removed.
    Removed {
        runs: u64,
    },
    Failed(Error),
}

/// One file's outcome, with its path as shown to the user.
#[derive(Debug)]
pub struct FileReport {
    pub path: PathBuf,
    pub outcome: FileOutcome,
}

/// The outcome of a whole ingest command.
#[derive(Debug, Default)]
pub struct Report {
    pub files: Vec<FileReport>,
}

impl Report {
    pub fn failed(&self) -> usize {
        self.files.iter().filter(|f| matches!(f.outcome, FileOutcome::Failed(_))).count()
    }

    pub fn added_files(&self) -> usize {
        self.files.iter().filter(|f| matches!(f.outcome, FileOutcome::Added { .. })).count()
    }

    pub fn added_runs(&self) -> u64 {
        self.files.iter().map(|f| if let FileOutcome::Added { runs, .. } = f.outcome { runs } else { 0 }).sum()
    }

    pub fn removed(&self) -> usize {
        self.files.iter().filter(|f| matches!(f.outcome, FileOutcome::Removed { .. })).count()
    }

    pub fn already_present(&self) -> usize {
        self.files.iter().filter(|f| matches!(f.outcome, FileOutcome::AlreadyPresent { .. })).count()
    }
}

/// One file to ingest, after expanding globs and templates.
#[derive(Debug, Clone)]
pub struct Job {
    pub path: PathBuf,
    pub format: Option<Format>,
    /// The labels that become params (a `sweep` label is not one of them).
    pub labels: BTreeMap<String, Value>,
    /// The `{date}` captured from the path, as given.
    pub date: Option<String>,
    /// The sweep a `sweep` label (or a `{sweep}` in the path) names, as
    /// `YYYY-MM-DD` or `YYYY-MM`.
    pub sweep: Option<String>,
}

/// The names every run has built in, what they hold and what to do
/// instead; a label of that name would hide them.
const BUILT_IN: &[(&str, &str, &str)] = &[
    ("date", "each run's sweep", "to set the sweep, label it `sweep` instead (e.g. --label sweep=2026-09), or"),
    ("time", "each run's time, from the log, the path's `{date}` or a `sweep` label", ""),
    ("source", "the path of the log each run came from", ""),
];

/// Refuses labels named like a built-in (`date`, `time`, `source`).
fn check_label_names<'a>(names: impl Iterator<Item = &'a String>) -> Result<()> {
    for name in names {
        if let Some((_, what, instead)) = BUILT_IN.iter().find(|(b, _, _)| b == name) {
            let sep = if instead.is_empty() { "" } else { " " };
            return Err(Error::usage(format!(
                "the label `{name}` would hide reckon's built-in `{name}` ({what}); {instead}{sep}give the label another name"
            )));
        }
    }
    Ok(())
}

/// Takes the `sweep` label out of `labels` and reads it as a sweep name.
fn take_sweep(labels: &mut BTreeMap<String, Value>) -> Result<Option<String>> {
    let Some(value) = labels.remove("sweep") else { return Ok(None) };
    let text = match value {
        // `--label sweep=20260901` reads as a number; its digits are the date.
        Value::Num(n) if n.fract() == 0.0 && n.abs() < 1e15 => format!("{n:.0}"),
        other => other.to_string(),
    };
    parse_sweep(&text).map(Some).ok_or_else(|| {
        Error::usage(format!(
            "the label `sweep` is `{text}`, which is not a date: a sweep is named by when it ran, as YYYY-MM-DD or YYYY-MM, and the newest one supersedes the others; for another kind of name use another label, e.g. `campaign={text}`"
        ))
    })
}

/// Expands requests into files. Paths are relative to `root`. A request that
/// names a missing file, a directory, or a template matching nothing becomes
/// an error for that request (other requests still expand).
pub fn expand(root: &Path, requests: &[Request]) -> Vec<std::result::Result<Job, (PathBuf, Error)>> {
    let mut jobs = Vec::new();
    for req in requests {
        let mut req_labels = req.labels.clone();
        let named = check_label_names(req_labels.keys()).and_then(|()| take_sweep(&mut req_labels));
        let named = match named {
            Ok(s) => s,
            Err(e) => {
                jobs.push(Err((PathBuf::from(&req.path), e)));
                continue;
            }
        };
        if PathTemplate::is_pattern(&req.path) {
            let files = PathTemplate::parse(&req.path).and_then(|t| Ok((t.files(root)?, t)));
            match files {
                Err(e) => jobs.push(Err((PathBuf::from(&req.path), e))),
                Ok((files, template)) if files.is_empty() => {
                    if !req.optional {
                        jobs.push(Err((PathBuf::from(&req.path), template.no_match(root))));
                    }
                }
                Ok((_, template))
                    if template.names().iter().any(|n| n != "date" && BUILT_IN.iter().any(|(b, _, _)| b == n)) =>
                {
                    let e = check_label_names(template.names().iter().filter(|n| *n != "date"))
                        .err()
                        .unwrap_or_else(|| Error::usage("a path capture names a built-in"));
                    jobs.push(Err((PathBuf::from(&req.path), e)));
                }
                Ok((files, template)) => {
                    for path in files {
                        let mut labels = req_labels.clone();
                        let mut date = None;
                        let mut captured = BTreeMap::new();
                        // The glob found the file, so the template fits it;
                        // labels it cannot read are an error, never dropped.
                        let Some(from_path) = template.captures(root, &path) else {
                            jobs.push(Err((display_path(root, &path), template.no_captures(&path))));
                            continue;
                        };
                        for (k, v) in from_path {
                            if k == "date" {
                                date = Some(v);
                            } else if !(labels.contains_key(&k) || k == "sweep" && named.is_some()) {
                                captured.insert(k, Value::from_label(&v));
                            }
                        }
                        // A `{sweep}` in the path names the sweep like a label.
                        let sweep = match take_sweep(&mut captured) {
                            Ok(s) => s.or_else(|| named.clone()),
                            Err(e) => {
                                jobs.push(Err((display_path(root, &path), e)));
                                continue;
                            }
                        };
                        labels.extend(captured);
                        jobs.push(Ok(Job { path, format: req.format, labels, date, sweep }));
                    }
                }
            }
        } else {
            let path = if Path::new(&req.path).is_absolute() { PathBuf::from(&req.path) } else { root.join(&req.path) };
            jobs.push(Ok(Job { path, format: req.format, labels: req_labels, date: None, sweep: named }));
        }
    }
    jobs
}

/// Options of an ingest command.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub fail_fast: bool,
    pub generic: crate::config::GenericSpec,
    /// The folder git is asked about, when it is not the folder the files
    /// are read from (a hook reads a copy of the staged files).
    pub git_root: Option<PathBuf>,
    /// Run times follow the index (what is staged), not the working tree.
    pub staged: bool,
}

/// Ingests every requested file. Files go in many to a transaction, each
/// under its own savepoint, so a file still goes in whole or not at all
/// while the per-file cost of a commit is shared. One parser thread reads,
/// hashes and parses the files in order while this thread writes them.
/// `on_file` is called for each file, in order, once its outcome is final:
/// when the transaction holding it (and the files before it) is committed.
pub fn ingest(
    store: &mut Store,
    root: &Path,
    requests: &[Request],
    opts: &Options,
    batch: &mut Batch,
    on_file: &mut dyn FnMut(&FileReport, usize, usize),
) -> Report {
    let jobs = expand(root, requests);
    let git = GitView::new(opts.git_root.as_deref().unwrap_or(root), opts.staged, patterns(requests));
    let mut report = Report::default();
    // First what is gone, so that a copy of a removed file's bytes elsewhere
    // is ingested in its place, as it would be into an empty database.
    let gone = match gone_paths(store, root, requests, &jobs) {
        Ok(gone) => gone,
        Err(e) => {
            report.files.push(FileReport { path: PathBuf::from(store.path()), outcome: FileOutcome::Failed(e) });
            return report;
        }
    };
    let total = jobs.len() + gone.len();
    for (i, path) in gone.iter().enumerate() {
        let outcome = match store.remove_paths(std::slice::from_ref(path)) {
            Ok(runs) => FileOutcome::Removed { runs },
            Err(e) => FileOutcome::Failed(e),
        };
        let file = FileReport { path: PathBuf::from(path), outcome };
        on_file(&file, i + 1, total);
        report.files.push(file);
    }
    let db_path = store.path().to_path_buf();
    let mut writer = match store.writer(batch) {
        Ok(w) => w,
        Err(e) => {
            report.files.push(FileReport { path: db_path, outcome: FileOutcome::Failed(e) });
            return report;
        }
    };

    // What each file needs before parsing, in order: files unchanged since
    // they were ingested (by their metadata) are settled here, unread.
    // A path requested twice in one command (a template and an explicit
    // path) is read once, with the labels of its first request.
    let mut first_labels: HashMap<PathBuf, BTreeMap<String, Value>> = HashMap::new();
    let mut work: Vec<Work> = Vec::new();
    let mut slots: Vec<(Slot, usize)> = Vec::with_capacity(jobs.len());
    for (i, job) in jobs.into_iter().enumerate() {
        let i = i + gone.len();
        let slot = match job {
            Err((path, e)) => Slot::Done(FileReport { path, outcome: FileOutcome::Failed(e) }),
            Ok(job) if first_labels.contains_key(&job.path) => {
                let relabel = (first_labels[&job.path] != job.labels).then(|| {
                    format!(
                        "this command reads it more than once; the labels of its first mention, {}, are applied and not {}",
                        crate::store::labels_json(&first_labels[&job.path]),
                        crate::store::labels_json(&job.labels)
                    )
                });
                Slot::Done(FileReport {
                    path: display_path(root, &job.path),
                    outcome: FileOutcome::AlreadyPresent { relabel },
                })
            }
            Ok(job) if !job.path.exists() && gone.iter().any(|g| Path::new(g) == display_path(root, &job.path)) => {
                continue; // reported as removed above
            }
            Ok(job) => {
                first_labels.insert(job.path.clone(), job.labels.clone());
                let shown = display_path(root, &job.path);
                match examine(&mut writer, root, job, &git) {
                    Ok(Some(w)) => {
                        work.push(w);
                        Slot::Parse(work.len() - 1)
                    }
                    Ok(None) => {
                        Slot::Done(FileReport { path: shown, outcome: FileOutcome::AlreadyPresent { relabel: None } })
                    }
                    Err(e) => Slot::Done(FileReport { path: shown, outcome: FileOutcome::Failed(e) }),
                }
            }
        };
        slots.push((slot, i));
    }

    let generic =
        generic::GenericOptions { params: opts.generic.params.clone(), metrics: opts.generic.metrics.clone() };
    // The file (its index in `work`, plus one) whose remaining runs the
    // writer no longer wants: the parser skips to the next file.
    let skip = AtomicUsize::new(0);
    let (send, receive) = std::sync::mpsc::sync_channel::<Parsed>(16);
    std::thread::scope(|scope| {
        let parser = scope.spawn(|| parse_files(&work, &generic, &skip, send));
        // Outcomes wait here until the transaction holding them commits.
        let mut waiting: Vec<(FileReport, usize)> = Vec::new();
        for (slot, i) in slots {
            let file = match slot {
                Slot::Done(file) => file,
                Slot::Parse(n) => {
                    let w = &work[n];
                    let outcome = write_file(&mut writer, &receive, w, n, &skip);
                    FileReport { path: w.shown.clone(), outcome }
                }
            };
            if writer.take_lost() {
                lose(&mut waiting, writer.path());
            }
            let stop = opts.fail_fast && matches!(file.outcome, FileOutcome::Failed(_));
            waiting.push((file, i));
            if stop {
                break;
            }
            if writer.commit_due() || !writer.in_transaction() {
                settle(&mut writer, &mut waiting, &mut report, total, on_file);
            }
        }
        settle(&mut writer, &mut waiting, &mut report, total, on_file);
        // The parser stops at its next hand-over once nobody listens.
        drop(receive);
        let _ = parser.join();
    });
    report
}

/// A requested file on its way: settled before parsing, or to be parsed
/// (its index in the parser's list).
enum Slot {
    Done(FileReport),
    Parse(usize),
}

/// Commits what is written and reports the files waiting for it.
fn settle(
    writer: &mut Writer,
    waiting: &mut Vec<(FileReport, usize)>,
    report: &mut Report,
    total: usize,
    on_file: &mut dyn FnMut(&FileReport, usize, usize),
) {
    if let Err(e) = writer.commit() {
        let _ = writer.take_lost();
        lose_with(waiting, &e.to_string());
    }
    for (file, i) in waiting.drain(..) {
        on_file(&file, i + 1, total);
        report.files.push(file);
    }
}

/// The transaction holding the waiting files was rolled back: none of
/// them went in.
fn lose(waiting: &mut [(FileReport, usize)], db: &Path) {
    lose_with(waiting, &format!("database {}: the transaction was rolled back by SQLite after an error", db.display()));
}

fn lose_with(waiting: &mut [(FileReport, usize)], why: &str) {
    for (file, _) in waiting.iter_mut() {
        if matches!(file.outcome, FileOutcome::Added { .. }) {
            file.outcome = FileOutcome::Failed(Error::Database {
                path: file.path.clone(),
                msg: format!("not ingested: {why}; run the ingest again"),
            });
        }
    }
}

/// A file to parse, with what was learnt of it before parsing.
struct Work {
    job: Job,
    shown: PathBuf,
    shown_str: String,
    /// The labels the source is recorded with (a `sweep` label among them).
    source_labels: BTreeMap<String, Value>,
    seen: Seen,
    time: RunTime,
    sweep: Option<String>,
}

/// What the parser thread hands over, in file order: for each file a
/// `Start` (its hash and format, or why it cannot be read), then for a
/// readable file its runs in batches and an `End` with the parse's outcome.
enum Parsed {
    Start(Result<(String, Format)>),
    Runs(Vec<(crate::run::RawRun, String)>),
    End(Result<Outcome>),
}

/// Looks at a file before it is parsed: `None` when the store already holds
/// its bytes (judged from its metadata, or from its hash when the metadata
/// moved), else what the parser and writer need. A file whose content
/// changed replaces what its path gave before.
fn examine(writer: &mut Writer, root: &Path, job: Job, git: &GitView) -> Result<Option<Work>> {
    let path = &job.path;
    let shown = display_path(root, path);
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Error::io(
            &shown,
            std::io::Error::new(e.kind(), "no such file; check the path (globs and templates must be quoted)"),
        ),
        _ => Error::io(&shown, e),
    })?;
    if meta.is_dir() {
        return Err(Error::UnknownFormat {
            path: shown.clone(),
            msg: format!("is a directory; pass the logs in it, e.g. '{}/*.jsonl'", shown.display()),
        });
    }
    if !meta.is_file() {
        // A FIFO, /dev/zero or a socket: reading would block or never end.
        return Err(Error::UnknownFormat { path: shown.clone(), msg: crate::fsguard::not_regular(&meta) });
    }
    let shown_str = shown.to_string_lossy().into_owned();
    // The source's record keeps the sweep label with the others, so the same
    // bytes given another sweep are reported as relabelled.
    let mut source_labels = job.labels.clone();
    if let Some(s) = &job.sweep {
        source_labels.insert("sweep".into(), Value::Text(s.clone()));
    }
    let rel = shown_str.replace('\\', "/");
    let mut seen = seen_of(&meta, git);
    let labels_json = crate::store::labels_json(&source_labels);
    let fixed = fixed_time(&shown, job.date.as_deref(), job.sweep.as_deref())?;
    let stored = writer.stored_source(&shown_str)?.filter(|s| s.labels == labels_json);
    if let Some(s) = stored.as_ref().filter(|s| same_file(&s.seen, &seen)) {
        // The bytes are the ones ingested; only the run time can have moved
        // (a new commit, or a template that now gives a date).
        let time_holds = match &fixed {
            Some((t, _)) => s.time.as_ref() == Some(t),
            None => {
                s.time.as_ref().is_some_and(|t| t.origin == "git" || t.origin == "mtime")
                    && s.seen.git_head == seen.git_head
            }
        };
        if time_holds {
            return Ok(None);
        }
        if fixed.is_none() {
            let (time, _) = run_time(path, &rel, None, &meta, git)?;
            let mut kept = s.seen.clone();
            kept.git_head = seen.git_head.clone();
            writer.refresh_source(s.id, &kept, (s.time.as_ref() != Some(&time)).then_some(&time))?;
            return Ok(None);
        }
        // A date or sweep now fixed by the path or a label: read it again.
    }
    // The clock before the file is read (by the parser, a little later).
    seen.checked_ns = Some(now_ns());
    let (time, sweep) = run_time(path, &rel, fixed, &meta, git)?;
    if let Some(s) = stored.as_ref() {
        // The path was ingested before: when its bytes are the same (touched
        // but not changed), remember how it looks now. A new time is set in
        // place when it is a plain one (git or mtime: the sweep is its
        // date); one a path or label fixes is read again.
        let (hash, _) = hash_file(path, &shown)?;
        if s.hash == hash {
            let same_time = s.time.as_ref() == Some(&time);
            if same_time || (sweep.is_none() && job.sweep.is_none()) {
                writer.refresh_source(s.id, &seen, (!same_time).then_some(&time))?;
                return Ok(None);
            }
        }
    }
    Ok(Some(Work { job, shown, shown_str, source_labels, seen, time, sweep }))
}

/// The parser thread: reads, hashes, detects and parses each file in turn.
fn parse_files(work: &[Work], generic: &generic::GenericOptions, skip: &AtomicUsize, send: SyncSender<Parsed>) {
    for (i, w) in work.iter().enumerate() {
        let opened = open_file(w);
        let (format, input) = match opened {
            Ok((hash, format, input)) => {
                if send.send(Parsed::Start(Ok((hash, format)))).is_err() {
                    return;
                }
                (format, input)
            }
            Err(e) => {
                if send.send(Parsed::Start(Err(e))).is_err() {
                    return;
                }
                continue;
            }
        };
        let mut batch = Vec::with_capacity(BATCH_RUNS);
        let mut emit = |mut run: crate::run::RawRun| -> Result<()> {
            canonical::add_canonical_params(&mut run);
            // The params are encoded here, off the inserting thread, and
            // freed on the thread that allocated them.
            let mut json = String::new();
            crate::store::encode_params(&run, &w.job.labels, &mut json);
            run.params = Vec::new();
            batch.push((run, json));
            if batch.len() == BATCH_RUNS {
                if skip.load(Ordering::Relaxed) == i + 1 {
                    return Err(Error::usage("skipped"));
                }
                // Runs travel in batches: one hand-over per run would cost a
                // thread wake-up each.
                send.send(Parsed::Runs(std::mem::replace(&mut batch, Vec::with_capacity(BATCH_RUNS))))
                    .map_err(|_| Error::usage("ingest stopped"))?;
            }
            Ok(())
        };
        // Lines longer than the limit are refused as they are read, before
        // a parser holds one whole; `over` says which line it was.
        let over = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let parsed = match input {
            Input::Bytes(bytes) => {
                let mut input = BufReader::new(limit::LineLimit::new(std::io::Cursor::new(&bytes[..]), over.clone()));
                format.parse_file(&w.shown, &mut input, generic, &mut emit)
            }
            Input::File(file) => {
                let mut input = BufReader::with_capacity(256 * 1024, limit::LineLimit::new(file, over.clone()));
                format.parse_file(&w.shown, &mut input, generic, &mut emit)
            }
        };
        let parsed = parsed.map_err(|e| match over.load(Ordering::Relaxed) {
            0 => e,
            line => Error::malformed(&w.shown, line, limit::too_long(limit::line_bytes())),
        });
        if parsed.is_ok() && !batch.is_empty() && send.send(Parsed::Runs(batch)).is_err() {
            return;
        }
        if send.send(Parsed::End(parsed)).is_err() {
            return;
        }
    }
}

/// Writes one file's runs as the parser hands them over, under the file's
/// own savepoint.
fn write_file(
    writer: &mut Writer,
    receive: &Receiver<Parsed>,
    w: &Work,
    index: usize,
    skip: &AtomicUsize,
) -> FileOutcome {
    let stopped = || Error::malformed(&w.shown, 1, "the parser stopped unexpectedly");
    let (hash, format) = match receive.recv() {
        Ok(Parsed::Start(Ok(started))) => started,
        Ok(Parsed::Start(Err(e))) => return FileOutcome::Failed(e),
        _ => return FileOutcome::Failed(stopped()),
    };
    let src = NewSource {
        path: &w.shown_str,
        hash: &hash,
        format: format.name(),
        labels: &w.source_labels,
        seen: w.seen.clone(),
        time: Some(&w.time),
    };
    let begun = writer.begin_source(&src);
    if matches!(begun, Ok(true)) {
        writer.set_sweeps(w.sweep.clone(), w.job.sweep.clone());
    }
    if !matches!(begun, Ok(true)) {
        skip.store(index + 1, Ordering::Relaxed);
        if !drain_file(receive) {
            return FileOutcome::Failed(stopped());
        }
    }
    match begun {
        Err(e) => return FileOutcome::Failed(e),
        Ok(false) => {
            // The same bytes count once, whatever labels come with them now.
            let relabel = writer.other_labels(&hash, &w.source_labels).ok().flatten().map(|stored| {
                format!(
                    "these bytes were ingested with labels {stored}; the labels given now are not applied. To relabel, remove the database ({}) and ingest again",
                    writer.path().display()
                )
            });
            return FileOutcome::AlreadyPresent { relabel };
        }
        Ok(true) => {}
    }
    let mut failed = None;
    let parsed = loop {
        match receive.recv() {
            Ok(Parsed::Runs(runs)) => {
                if failed.is_some() {
                    continue;
                }
                for (run, json) in runs {
                    if let Err(e) = writer.add_encoded(&run, &json, &w.time) {
                        failed = Some(match e {
                            Error::Usage(msg) => Error::malformed(&w.shown, run.line, msg),
                            e => e,
                        });
                        skip.store(index + 1, Ordering::Relaxed);
                        break;
                    }
                }
            }
            Ok(Parsed::End(parsed)) => break parsed,
            Ok(Parsed::Start(_)) | Err(_) => break Err(stopped()),
        }
    };
    let kept = match (failed, parsed) {
        (Some(e), _) | (None, Err(e)) => Err(e),
        (None, Ok(outcome)) if writer.source_runs() == 0 && outcome.skipped.is_empty() => {
            Err(Error::malformed(&w.shown, 1, format!("read as {} but holds no benchmark records", format.name())))
        }
        (None, Ok(outcome)) => writer.end_source().map(|runs| (runs, outcome)),
    };
    match kept {
        Ok((runs, outcome)) => FileOutcome::Added { format, runs, skipped: outcome.skipped },
        Err(e) => {
            // A lost transaction is noticed by the caller (`take_lost`).
            let _ = writer.abandon_source();
            FileOutcome::Failed(e)
        }
    }
}

/// Reads and drops a file's remaining hand-overs, up to its `End`. False
/// when the parser stopped first.
fn drain_file(receive: &Receiver<Parsed>) -> bool {
    loop {
        match receive.recv() {
            Ok(Parsed::Runs(_)) => {}
            Ok(Parsed::End(_)) => return true,
            Ok(Parsed::Start(_)) | Err(_) => return false,
        }
    }
}

/// The requests' paths as globs relative to the root, to limit git's history
/// walk to the logs.
fn patterns(requests: &[Request]) -> Vec<String> {
    requests
        .iter()
        .map(|r| match PathTemplate::parse(&r.path) {
            Ok(t) if PathTemplate::is_pattern(&r.path) => t.glob().to_string(),
            _ => r.path.clone(),
        })
        .filter(|p| !Path::new(p).is_absolute())
        .collect()
}

/// The stored paths the requests cover that no longer hold a file of
/// theirs: for a template or glob, stored paths it matches that are not
/// among the files it matches now; for an explicit path, the path itself
/// when the file is gone.
fn gone_paths(
    store: &Store,
    root: &Path,
    requests: &[Request],
    jobs: &[std::result::Result<Job, (PathBuf, Error)>],
) -> Result<Vec<String>> {
    let stored = store.source_paths()?;
    if stored.is_empty() {
        return Ok(Vec::new());
    }
    let present: std::collections::HashSet<PathBuf> =
        jobs.iter().filter_map(|j| j.as_ref().ok()).map(|j| display_path(root, &j.path)).collect();
    let mut gone = Vec::new();
    for req in requests {
        if PathTemplate::is_pattern(&req.path) {
            let Ok(template) = PathTemplate::parse(&req.path) else { continue };
            for s in &stored {
                // Matched by the template's text but not among the files it
                // finds now: deleted, or no longer a file; a fresh ingest
                // would not read it either.
                if template.captures(root, &root.join(s)).is_some() && !present.contains(Path::new(s)) {
                    gone.push(s.clone());
                }
            }
        } else {
            let abs = if Path::new(&req.path).is_absolute() { PathBuf::from(&req.path) } else { root.join(&req.path) };
            let shown = display_path(root, &abs).to_string_lossy().into_owned();
            if !abs.exists() && stored.contains(&shown) {
                gone.push(shown);
            }
        }
    }
    gone.sort();
    gone.dedup();
    Ok(gone)
}

/// Removes the runs of every stored source whose file no longer exists
/// (paths relative to `root`); returns the paths and how many runs each had.
pub fn forget_missing(store: &mut Store, root: &Path) -> Result<Vec<(String, u64)>> {
    let missing: Vec<String> = store.source_paths()?.into_iter().filter(|p| !root.join(p).exists()).collect();
    let mut out = Vec::new();
    for p in missing {
        let runs = store.remove_paths(std::slice::from_ref(&p))?;
        out.push((p, runs));
    }
    Ok(out)
}

/// Whether some stored source's file no longer exists.
pub fn any_missing(store: &Store, root: &Path) -> Result<bool> {
    Ok(store.source_paths()?.iter().any(|p| !root.join(p).exists()))
}

/// The path as stored and shown: relative to the project root when inside it,
/// so the database is the same on every clone.
pub fn display_path(root: &Path, path: &Path) -> PathBuf {
    path.strip_prefix(root).map_or_else(|_| path.to_path_buf(), Path::to_path_buf)
}

const HEAD_BYTES: usize = 256 * 1024;

/// Files up to this size are read once into memory and hashed, detected
/// and parsed from there; larger ones are streamed (hashed, then parsed).
const WHOLE_FILE_BYTES: u64 = 8 << 20;

/// A file's content for the parser: in memory, or a file to stream.
enum Input {
    Bytes(Vec<u8>),
    File(File),
}

/// Reads a file's hash and format, and hands back its content to parse.
fn open_file(w: &Work) -> Result<(String, Format, Input)> {
    let shown = &w.shown;
    let mut file = File::open(&w.job.path).map_err(|e| Error::io(shown, e))?;
    if w.seen.size <= WHOLE_FILE_BYTES {
        let mut bytes = Vec::with_capacity(w.seen.size as usize + 1);
        file.read_to_end(&mut bytes).map_err(|e| Error::io(shown, e))?;
        let hash = blake3::hash(&bytes).to_hex().to_string();
        let format = if let Some(f) = w.job.format {
            f
        } else {
            let head = &bytes[..bytes.len().min(HEAD_BYTES)];
            // A console log can hold more noise than the head before
            // its first result block.
            let title = stdout::TITLE.as_bytes();
            let rest = &bytes[head.len().saturating_sub(title.len())..];
            let later = bytes.len() > head.len() && rest.windows(title.len()).any(|w| w == title);
            Format::detect_with(shown, head, later)?
        };
        return Ok((hash, format, Input::Bytes(bytes)));
    }
    drop(file);
    let (hash, head) = hash_file(&w.job.path, shown)?;
    let format = match w.job.format {
        Some(f) => f,
        None => Format::detect_with(shown, &head.bytes, head.result_block_later)?,
    };
    let file = File::open(&w.job.path).map_err(|e| Error::io(shown, e))?;
    Ok((hash, format, Input::File(file)))
}

/// Runs handed from the parsing thread to the inserting one at a time.
const BATCH_RUNS: usize = 256;

/// A file modified this close to (or after) the moment it was read may have
/// changed again within the file system's timestamp granularity (git's
/// "racily clean" case): it is hashed again next time.
const RACY_NS: i64 = 2_000_000_000;

fn now_ns() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as i64)
}

/// How a file looks now, from its metadata.
fn seen_of(meta: &std::fs::Metadata, git: &GitView) -> Seen {
    let ns = |t: std::io::Result<std::time::SystemTime>| {
        t.ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map(|d| d.as_nanos() as i64)
    };
    #[cfg(unix)]
    let (ctime_ns, inode) = {
        use std::os::unix::fs::MetadataExt;
        (Some(meta.ctime() * 1_000_000_000 + meta.ctime_nsec()), Some(meta.ino() as i64))
    };
    #[cfg(not(unix))]
    let (ctime_ns, inode) = (None, None);
    Seen {
        size: meta.len(),
        mtime_ns: ns(meta.modified()),
        ctime_ns,
        inode,
        checked_ns: None,
        git_head: git.head().map(str::to_string),
    }
}

/// Whether the stored record of a file proves, from metadata alone, that
/// the file still holds the bytes that were ingested: same size, times and
/// inode, and not modified so close to when it was read that a later write
/// could hide within the timestamps' granularity.
fn same_file(stored: &Seen, now: &Seen) -> bool {
    let racy = match (stored.mtime_ns, stored.checked_ns) {
        (Some(m), Some(c)) => m >= c - RACY_NS,
        _ => true,
    };
    !racy
        && stored.size == now.size
        && stored.mtime_ns == now.mtime_ns
        && stored.ctime_ns == now.ctime_ns
        && stored.inode == now.inode
}

/// What format detection sees of a file: its first bytes, and whether a
/// "Serving Benchmark Result" title appears anywhere in it (a console
/// log can hold any amount of noise before its first result block).
struct Head {
    bytes: Vec<u8>,
    result_block_later: bool,
}

/// Hashes the whole file (streaming), keeps its first bytes for format
/// detection and looks for a result block's title in the rest as it goes
/// (the file is read whole for the hash anyway).
fn hash_file(path: &Path, shown: &Path) -> Result<(String, Head)> {
    let mut file = File::open(path).map_err(|e| Error::io(shown, e))?;
    let mut hasher = blake3::Hasher::new();
    let mut head = Head { bytes: Vec::new(), result_block_later: false };
    let title = stdout::TITLE.as_bytes();
    let finder = regex::bytes::Regex::new(&regex::escape(stdout::TITLE)).ok();
    let mut buf = vec![0u8; 256 * 1024];
    // The end of the previous chunk, so a title cut between chunks is found.
    let mut carry: Vec<u8> = Vec::new();
    loop {
        let n = file.read(&mut buf).map_err(|e| Error::io(shown, e))?;
        if n == 0 {
            break;
        }
        let chunk = &buf[..n];
        if head.bytes.len() < HEAD_BYTES {
            let take = n.min(HEAD_BYTES - head.bytes.len());
            head.bytes.extend_from_slice(&chunk[..take]);
        }
        if !head.result_block_later {
            if let Some(re) = &finder {
                carry.extend_from_slice(&chunk[..n.min(title.len())]);
                head.result_block_later = re.is_match(&carry) || re.is_match(chunk);
            }
        }
        carry.clear();
        carry.extend_from_slice(&chunk[n.saturating_sub(title.len())..]);
        hasher.update(chunk);
    }
    Ok((hasher.finalize().to_hex().to_string(), head))
}

/// The run time (and, when it is not that time's date, the sweep) that
/// the path's `{date}` or a `sweep` label fixes, whatever git says.
fn fixed_time(shown: &Path, date: Option<&str>, sweep: Option<&str>) -> Result<Option<(RunTime, Option<String>)>> {
    if let Some(d) = date {
        let time = parse_date(d).ok_or_else(|| Error::UnknownFormat {
            path: shown.to_path_buf(),
            msg: format!("the path gives {{date}} = `{d}`, which is not a date; use YYYY-MM-DD, YYYYMMDD or YYYY-MM in the folder or file name"),
        })?;
        let month = parse_sweep(d).filter(|s| s.len() == 7);
        return Ok(Some((RunTime { time, origin: "path" }, month)));
    }
    Ok(sweep.and_then(parse_date).map(|time| (RunTime { time, origin: "label" }, None)))
}

/// The time every run of the file gets unless the log has its own: the
/// `{date}` from the path, else the start of the sweep a `sweep` label
/// names (both in `fixed`), else the git commit time of the file when its
/// content is the committed one, else its modification time. With it, the
/// sweep of those runs when it is not the time's date (a `{date}` of year
/// and month names the month).
fn run_time(
    path: &Path,
    rel: &str,
    fixed: Option<(RunTime, Option<String>)>,
    meta: &std::fs::Metadata,
    git: &GitView,
) -> Result<(RunTime, Option<String>)> {
    if let Some(f) = fixed {
        return Ok(f);
    }
    let committed = if Path::new(rel).is_absolute() {
        // Outside the project: asked about on its own (rare).
        git_commit_time(path)
    } else if git.differs_from_head(rel) {
        None
    } else {
        git.commit_time(rel)
            .and_then(|secs| chrono::DateTime::from_timestamp(secs, 0))
            .map(|t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string())
    };
    if let Some(time) = committed {
        return Ok((RunTime { time, origin: "git" }, None));
    }
    let mtime = meta.modified().map_err(|e| Error::io(rel, e))?;
    let time: chrono::DateTime<chrono::Utc> = mtime.into();
    Ok((RunTime { time: time.format("%Y-%m-%dT%H:%M:%SZ").to_string(), origin: "mtime" }, None))
}

/// Reads a date or date-time written in a path, as RFC 3339 UTC. A year and
/// month (`2026-09`) is the first instant of the month.
pub fn parse_date(text: &str) -> Option<String> {
    use chrono::{NaiveDate, NaiveDateTime};
    for f in ["%Y-%m-%dT%H:%M:%S", "%Y-%m-%d_%H-%M-%S", "%Y%m%d-%H%M%S", "%Y-%m-%dT%H%M%S"] {
        if let Ok(t) = NaiveDateTime::parse_from_str(text, f) {
            return Some(t.format("%Y-%m-%dT%H:%M:%SZ").to_string());
        }
    }
    for f in ["%Y-%m-%d", "%Y%m%d", "%Y_%m_%d"] {
        if let Ok(d) = NaiveDate::parse_from_str(text, f) {
            return Some(format!("{}T00:00:00Z", d.format("%Y-%m-%d")));
        }
    }
    year_month(text).map(|m| format!("{m}-01T00:00:00Z"))
}

/// A year and month, `2026-09` or `2026_09`, as `2026-09`.
fn year_month(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let shaped = b.len() == 7
        && b[..4].iter().all(u8::is_ascii_digit)
        && (b[4] == b'-' || b[4] == b'_')
        && b[5..].iter().all(u8::is_ascii_digit);
    if !shaped {
        return None;
    }
    let month = format!("{}-{}", &text[..4], &text[5..]);
    chrono::NaiveDate::parse_from_str(&format!("{month}-01"), "%Y-%m-%d").ok().map(|_| month)
}

/// Reads a sweep name: a date (any form [`parse_date`] reads) as
/// `YYYY-MM-DD`, or a year and month as `YYYY-MM`. Sweeps order as text,
/// which is chronological, a month before the days within it.
pub fn parse_sweep(text: &str) -> Option<String> {
    let text = text.trim();
    year_month(text).or_else(|| parse_date(text).map(|t| t[..10].to_string()))
}

/// The commit time of the last commit that touched a file outside the
/// project, when it is tracked by git and its content is the committed one.
fn git_commit_time(path: &Path) -> Option<String> {
    let dir = path.parent()?;
    let name = path.file_name()?;
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let differs =
        Command::new("git").arg("-C").arg(dir).args(["diff", "--quiet", "HEAD", "--"]).arg(name).status().ok()?;
    if !differs.success() {
        return None;
    }
    let out =
        Command::new("git").arg("-C").arg(dir).args(["log", "-1", "--format=%ct", "--"]).arg(name).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let secs: i64 = String::from_utf8_lossy(&out.stdout).trim().parse().ok()?;
    let t = chrono::DateTime::from_timestamp(secs, 0)?;
    Some(t.format("%Y-%m-%dT%H:%M:%SZ").to_string())
}

/// The commit the working tree is at, recorded with each batch.
pub fn git_head(root: &Path) -> Option<String> {
    let out = Command::new("git").arg("-C").arg(root).args(["rev-parse", "HEAD"]).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweep_names() {
        assert_eq!(parse_sweep("2026-09").unwrap(), "2026-09");
        assert_eq!(parse_sweep("2026_09").unwrap(), "2026-09");
        assert_eq!(parse_sweep("20260915").unwrap(), "2026-09-15");
        assert_eq!(parse_sweep("2026-09-15T10:00:00").unwrap(), "2026-09-15");
        assert!(parse_sweep("2026-13").is_none());
        assert!(parse_sweep("v2").is_none());
        assert_eq!(parse_date("2026-09").unwrap(), "2026-09-01T00:00:00Z");
    }

    #[test]
    fn labels_never_hide_built_ins_and_a_sweep_label_is_a_date() {
        let req = |labels: &[(&str, &str)]| Request {
            path: "missing.csv".into(),
            labels: labels.iter().map(|(k, v)| (k.to_string(), Value::from_label(v))).collect(),
            ..Default::default()
        };
        for name in ["date", "time", "source"] {
            let jobs = expand(Path::new("/nowhere"), &[req(&[(name, "x")])]);
            let Err((_, e)) = &jobs[0] else { panic!("the label `{name}` is accepted") };
            assert!(e.to_string().contains(&format!("would hide reckon's built-in `{name}`")), "{e}");
        }
        let jobs = expand(Path::new("/nowhere"), &[req(&[("sweep", "baseline")])]);
        let Err((_, e)) = &jobs[0] else { panic!("a sweep named `baseline` is accepted") };
        assert!(e.to_string().contains("`campaign=baseline`"), "{e}");
        let jobs = expand(Path::new("/nowhere"), &[req(&[("sweep", "20260901"), ("config", "a")])]);
        let Ok(job) = &jobs[0] else { panic!("{:?}", jobs[0]) };
        assert_eq!(job.sweep.as_deref(), Some("2026-09-01"));
        assert!(!job.labels.contains_key("sweep") && job.labels.contains_key("config"));
    }

    #[test]
    fn dates_in_paths() {
        assert_eq!(parse_date("2026-11-29").unwrap(), "2026-11-29T00:00:00Z");
        assert_eq!(parse_date("20261129").unwrap(), "2026-11-29T00:00:00Z");
        assert_eq!(parse_date("20250630-123456").unwrap(), "2025-06-30T12:34:56Z");
        assert!(parse_date("baseline").is_none());
        assert!(parse_date("2026-13-01").is_none());
    }
}
