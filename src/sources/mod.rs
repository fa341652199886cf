//! Sources: the log files a command names, kept in step with the store.
//! A request (a path, glob or template with labels) expands into files;
//! each file is examined against what the store holds of it, parsed by
//! `ingest` on a thread of its own and written through the store's writer,
//! with a run time that is the same on every clone.
//!
//! A file goes in whole or not at all: its runs are written under its own
//! savepoint (many files share one transaction, so a commit is paid per
//! group, not per file) that is rolled back on the first problem, and the
//! problem is reported as `path:line: what is wrong`. Other files of the
//! same command still go in (unless `fail_fast`).

mod examine;
mod expand;
mod git;
mod pipeline;
mod time;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicUsize;

use examine::{examine, Work};
use pipeline::{write_file, Parsed};

pub use expand::{expand, Job};
pub use git::GitView;
pub use time::{parse_date, parse_sweep};

use crate::ingest::generic::GenericOptions;
use crate::ingest::{Format, PathTemplate};
use crate::run::Value;
use crate::store::{Batch, Store, Writer};
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

/// Options of an ingest command.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub fail_fast: bool,
    pub generic: GenericOptions,
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

    let (work, slots) = plan(&mut writer, root, jobs, &gone, &git);
    write_all(&mut writer, &work, slots, opts, &mut Progress { report: &mut report, total, on_file });
    report
}

/// Where settled files go: the command's report, and `on_file` as each
/// one's outcome becomes final.
struct Progress<'a> {
    report: &'a mut Report,
    total: usize,
    on_file: &'a mut dyn FnMut(&FileReport, usize, usize),
}

/// What each file needs before parsing, in order: files unchanged since
/// they were ingested (by their metadata) are settled here, unread. A path
/// requested twice in one command (a template and an explicit path) is read
/// once, with the labels of its first request. Each slot carries the file's
/// place among all the command's files (the gone ones come first).
fn plan(
    writer: &mut Writer,
    root: &Path,
    jobs: Vec<std::result::Result<Job, (PathBuf, Error)>>,
    gone: &[String],
    git: &GitView,
) -> (Vec<Work>, Vec<(Slot, usize)>) {
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
                        "this command reads it more than once; \
                         the labels of its first mention, {}, are applied and not {}",
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
                match examine(writer, root, job, git) {
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
    (work, slots)
}

/// Parses the planned files on a thread of their own while this one writes
/// them, settling outcomes as their transactions commit.
fn write_all(writer: &mut Writer, work: &[Work], slots: Vec<(Slot, usize)>, opts: &Options, progress: &mut Progress) {
    // The file (its index in `work`, plus one) whose remaining runs the
    // writer no longer wants: the parser skips to the next file.
    let skip = AtomicUsize::new(0);
    let (send, receive) = std::sync::mpsc::sync_channel::<Parsed>(16);
    std::thread::scope(|scope| {
        let parser = scope.spawn(|| pipeline::parse_files(work, &opts.generic, &skip, send));
        // Outcomes wait here until the transaction holding them commits.
        let mut waiting: Vec<(FileReport, usize)> = Vec::new();
        for (slot, i) in slots {
            let file = match slot {
                Slot::Done(file) => file,
                Slot::Parse(n) => {
                    let w = &work[n];
                    let outcome = write_file(writer, &receive, w, n, &skip);
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
                settle(writer, &mut waiting, progress);
            }
        }
        settle(writer, &mut waiting, progress);
        // The parser stops at its next hand-over once nobody listens.
        drop(receive);
        let _ = parser.join();
    });
}

/// A requested file on its way: settled before parsing, or to be parsed
/// (its index in the parser's list).
enum Slot {
    Done(FileReport),
    Parse(usize),
}

/// Commits what is written and reports the files waiting for it.
fn settle(writer: &mut Writer, waiting: &mut Vec<(FileReport, usize)>, progress: &mut Progress) {
    if let Err(e) = writer.commit() {
        let _ = writer.take_lost();
        lose_with(waiting, &e.to_string());
    }
    for (file, i) in waiting.drain(..) {
        (progress.on_file)(&file, i + 1, progress.total);
        progress.report.files.push(file);
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
