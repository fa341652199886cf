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

mod companion;
mod examine;
mod expand;
mod git;
mod gone;
mod pipeline;
mod settle;
mod time;

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicUsize;

use examine::{examine, Examined, Stored, Work};
use expand::expand_templates;
use gone::{gone_paths, unmatched_paths};
use pipeline::{Feed, Inbox, Outbox};
use settle::Settler;

pub use expand::{check_requests, expand, Expanded, Job};
pub use git::GitView;
pub use time::{parse_date, parse_sweep};

use crate::ingest::generic::GenericOptions;
use crate::ingest::LineBytes;
use crate::ingest::{Format, PathTemplate};
use crate::run::Value;
use crate::store::{Batch, Store, UnitConversion, Writer};
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
        /// Values given in another unit than the store keeps their metric
        /// in, converted to it.
        converted: Vec<UnitConversion>,
        /// What the reader should know of how the runs went in: a log's
        /// own time that overrides the `{date}` of its path by more than a
        /// day.
        noted: Vec<String>,
        /// Runs that give no time of their own took the file's
        /// modification time (the file is not committed to git, its path
        /// has no `{date}`, its source no `sweep` label): a copy or a
        /// checkout moves them to another sweep.
        mtime_dated: bool,
    },
    /// The file was ingested before, as it is now. `relabel` says so when
    /// one command names it twice with other labels.
    AlreadyPresent {
        relabel: Option<String>,
    },
    /// The file is gone (or no longer matches its source's template): the
    /// runs it gave were removed. `unmatched`: the file is there, under a
    /// `[[source]]`'s folder, but no `[[source]]` matches it any more.
    Removed {
        runs: u64,
        unmatched: bool,
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

    /// The files added whose runs (some of them) are dated by the file's
    /// modification time.
    pub fn mtime_dated(&self) -> Vec<&Path> {
        self.files
            .iter()
            .filter(|f| matches!(f.outcome, FileOutcome::Added { mtime_dated: true, .. }))
            .map(|f| f.path.as_path())
            .collect()
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
    /// The longest line a log may hold (`[limits] line_bytes` of the
    /// project the files belong to).
    pub line_bytes: LineBytes,
    /// The folder git is asked about, when it is not the folder the files
    /// are read from (a hook reads a copy of the staged files).
    pub git_root: Option<PathBuf>,
    /// Run times follow the index (what is staged), not the working tree.
    pub staged: bool,
    /// Which stored sources no request found are forgotten too.
    pub forget: Forget,
    /// The `[[source]]` entries of reckon.toml, when the requests are
    /// others (paths given on the command line): a file one of them covers
    /// is read with that source's labels, as a configured ingest reads it.
    pub configured: Vec<Request>,
    /// A refused log keeps its earlier runs (`watch`); see `forget_refused`.
    pub keep_refused: bool,
}

/// Which stored sources an ingest forgets beyond those its requests cover.
#[derive(Debug, Clone, Copy, Default)]
pub struct Forget {
    /// Every stored source whose file is gone, whether or not a request
    /// covers it (what [`forget_missing`] does, folded into the command's
    /// one look at the files: a file a request finds is not looked at
    /// twice).
    pub missing: bool,
    /// The requests are the project's `[[source]]` entries: a stored log
    /// under a source's literal folder that none of them matches (its glob
    /// was narrowed) loses its runs, as a fresh database would not hold
    /// them. A log named on the command line elsewhere is kept.
    pub unmatched: bool,
}

/// Ingests every requested file. Files go in many to a transaction, each
/// under its own savepoint, so a file still goes in whole or not at all
/// while the per-file cost of a commit is shared. One parser thread reads,
/// hashes and parses the files in order while this thread writes them.
/// `on_file` is called for each file, in order, once its outcome is final:
/// when the transaction holding it (and the files before it) is committed.
///
/// What is stored of every source is read in one query, and each file is
/// compared with it by its metadata: when nothing changed (every `check`
/// before a commit) that is one `stat` per file, no query per file, no
/// writer, no thread, and no git process unless a file's time comes from git.
pub fn ingest(
    store: &mut Store,
    root: &Path,
    requests: &[Request],
    opts: &Options,
    batch: &mut Batch,
    on_file: &mut dyn FnMut(&FileReport, usize, usize),
) -> Report {
    let parsed = expand::parse_templates(requests);
    let git = GitView::new(opts.git_root.as_deref().unwrap_or(root), opts.staged, patterns(requests, &parsed));
    let mut report = Report::default();
    // The templates' folders are walked on a thread of their own while the
    // stored sources are read.
    let (stored, walks) = if parsed.iter().any(Option::is_some) {
        std::thread::scope(|scope| {
            let walking = scope.spawn(|| expand::walk_templates(root, &parsed));
            let stored = Stored::read(store);
            (stored, walking.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
        })
    } else {
        (Stored::read(store), expand::walk_templates(root, &parsed))
    };
    let stored = match stored {
        Ok(stored) => stored,
        Err(e) => {
            report.files.push(FileReport { path: PathBuf::from(store.path()), outcome: FileOutcome::Failed(e) });
            return report;
        }
    };
    // A file a template finds is settled as it is found when the store
    // holds it as it is; not when a source of reckon.toml may relabel it.
    let mut settler = Settler::new(root, &stored, &git);
    let settle = opts.configured.is_empty().then_some(&mut settler);
    let (mut jobs, templates) = expand_templates(root, requests, parsed, walks, settle);
    expand::adopt(root, &mut jobs, requests, &opts.configured);
    // The stored paths the jobs have are not gone (a settled job's was
    // marked as it was settled).
    for job in jobs.iter().filter_map(|j| j.as_ref().ok()).filter(|j| !j.settled) {
        stored.found(&crate::fsguard::strip_root(root, &job.path).unwrap_or(&job.path).to_string_lossy());
    }
    // First what is gone: its runs are removed before any file is written.
    let mut gone = gone_paths(&stored, root, requests, &templates, opts.forget.missing);
    let unmatched =
        if opts.forget.unmatched { unmatched_paths(&stored, root, requests, &templates, &gone) } else { Vec::new() };
    gone.extend(unmatched.iter().cloned());
    let total = jobs.len() + gone.len();
    report.files.reserve_exact(total);
    for (i, path) in gone.iter().enumerate() {
        let outcome = match store.remove_paths(std::slice::from_ref(path)) {
            Ok(runs) => FileOutcome::Removed { runs, unmatched: unmatched.contains(path) },
            Err(e) => FileOutcome::Failed(e),
        };
        let file = FileReport { path: PathBuf::from(path), outcome };
        on_file(&file, i + 1, total);
        report.files.push(file);
    }
    let refused = companion::Refused::find(root, &jobs, &stored, &gone);
    let planned = plan(root, (jobs, requests.len()), &gone, &stored, &git);
    drop(stored);
    let planned = refused.apply(store, planned, gone.len());
    let mut progress = Progress { report: &mut report, total, on_file };
    if planned.iter().all(|(p, _)| matches!(p, Planned::Done(_))) {
        // Nothing to write: no writer, no transaction, no parser thread.
        for (p, i) in planned {
            if let Planned::Done(file) = p {
                progress.report(*file, i);
            }
        }
        return report;
    }
    let db_path = store.path().to_path_buf();
    let mut writer = match store.writer(batch) {
        Ok(w) => w,
        Err(e) => {
            progress.report.files.push(FileReport { path: db_path, outcome: FileOutcome::Failed(e) });
            return report;
        }
    };
    write_all(&mut writer, planned, &git, opts, &mut progress);
    report
}

/// Where settled files go: the command's report, and `on_file` as each
/// one's outcome becomes final.
struct Progress<'a> {
    report: &'a mut Report,
    total: usize,
    on_file: &'a mut dyn FnMut(&FileReport, usize, usize),
}

impl Progress<'_> {
    /// Reports one settled file, the `i`-th of the command (from 0).
    fn report(&mut self, file: FileReport, i: usize) {
        (self.on_file)(&file, i + 1, self.total);
        self.report.files.push(file);
    }
}

/// What each file needs before parsing, in order: files unchanged since
/// they were ingested (by their metadata) are settled here, unread (or were
/// by the expansion). A path requested twice in one command (a template and
/// an explicit path) is read once, with the labels of its first request.
/// Each slot carries the file's place among all the command's files (the
/// gone ones come first). No job's path or labels are copied. The jobs of
/// one request name no path twice (a template's walk finds each once).
fn plan(
    root: &Path,
    (jobs, requests): (Vec<Expanded>, usize),
    gone: &[String],
    stored: &Stored,
    git: &GitView,
) -> Vec<(Planned, usize)> {
    let relabels = if requests > 1 { mentioned_again(root, &jobs, stored) } else { HashMap::new() };
    let mut planned: Vec<(Planned, usize)> = Vec::with_capacity(jobs.len());
    for (i, job) in jobs.into_iter().enumerate() {
        let at = i + gone.len();
        let job = match job {
            Ok(job) => job,
            Err((path, e)) => {
                planned.push((Planned::Done(Box::new(FileReport { path, outcome: FileOutcome::Failed(e) })), at));
                continue;
            }
        };
        let shown = display_path(root, &job.path);
        let slot = if let Some(relabel) = relabels.get(&i) {
            let outcome = FileOutcome::AlreadyPresent { relabel: relabel.clone() };
            Planned::Done(Box::new(FileReport { path: shown, outcome }))
        } else if job.settled {
            Planned::Done(Box::new(FileReport { path: shown, outcome: FileOutcome::AlreadyPresent { relabel: None } }))
        } else if gone.iter().any(|g| Path::new(g) == shown) && !job.path.exists() {
            // (`gone` first: it is nearly always empty, and then no `stat`.)
            continue; // reported as removed above
        } else {
            match examine(root, job, stored, git) {
                Ok(Examined::Parse(w)) => Planned::Parse(w),
                Ok(Examined::Refresh { id, seen, time }) => {
                    Planned::Refresh(Box::new(Refresh { shown, id, seen, time }))
                }
                Ok(Examined::Unchanged) => {
                    let outcome = FileOutcome::AlreadyPresent { relabel: None };
                    Planned::Done(Box::new(FileReport { path: shown, outcome }))
                }
                Err(e) => Planned::Done(Box::new(FileReport { path: shown, outcome: FileOutcome::Failed(e) })),
            }
        };
        planned.push((slot, at));
    }
    planned
}

/// The jobs (by index) whose path an earlier job of the command names,
/// each with what to say when its labels are not the first mention's.
/// A settled job's labels are the ones stored for its path.
fn mentioned_again(root: &Path, jobs: &[Expanded], stored: &Stored) -> HashMap<usize, Option<String>> {
    let mut first: HashMap<&Path, usize> = HashMap::with_capacity(jobs.len());
    let mut again = HashMap::new();
    let labels = |job: &Job| -> String {
        if job.settled {
            let shown = display_path(root, &job.path);
            let stored = stored.get(shown.to_string_lossy().as_ref());
            stored.map_or_else(|| "{}".to_string(), |s| s.labels.clone())
        } else {
            crate::store::labels_json(&job.labels)
        }
    };
    for (i, job) in jobs.iter().enumerate() {
        let Ok(job) = job else { continue };
        match first.entry(job.path.as_path()) {
            Entry::Vacant(v) => {
                v.insert(i);
            }
            Entry::Occupied(o) => {
                let Ok(earlier) = &jobs[*o.get()] else { continue };
                let (was, is) = (labels(earlier), labels(job));
                let relabel = (was != is).then(|| {
                    format!(
                        "this command reads it more than once; \
                         the labels of its first mention, {was}, are applied and not {is}"
                    )
                });
                again.insert(i, relabel);
            }
        }
    }
    again
}

/// Records refreshed sources and parses the planned files on a thread of
/// their own (when there are any) while this one writes them, settling
/// outcomes as their transactions commit.
fn write_all(
    writer: &mut Writer,
    planned: Vec<(Planned, usize)>,
    git: &GitView,
    opts: &Options,
    progress: &mut Progress,
) {
    // Exactly as many as are parsed: each is held until the command ends.
    let parsed = planned.iter().filter(|(p, _)| matches!(p, Planned::Parse(_))).count();
    let mut work: Vec<Work> = Vec::with_capacity(parsed);
    let slots: Vec<(Slot, usize)> = planned
        .into_iter()
        .map(|(p, i)| match p {
            Planned::Done(file) => (Slot::Done(file), i),
            Planned::Refresh(r) => (Slot::Refresh(r), i),
            Planned::Parse(w) => {
                work.push(*w);
                (Slot::Parse(work.len() - 1), i)
            }
        })
        .collect();
    // The file (its index in `work`, plus one) whose remaining runs the
    // writer no longer wants: the parser skips to the next file.
    let skip = AtomicUsize::new(0);
    let (send, receive) = std::sync::mpsc::sync_channel(pipeline::PARCELS_AHEAD);
    let mut feed = Feed { inbox: Inbox::new(receive), work: &work, git, skip: &skip };
    if work.is_empty() {
        drop(send);
        write_slots(writer, &mut feed, slots, opts, progress);
        return;
    }
    std::thread::scope(|scope| {
        let parser =
            scope.spawn(|| pipeline::parse_files(&work, &opts.generic, opts.line_bytes, &skip, Outbox::new(send)));
        write_slots(writer, &mut feed, slots, opts, progress);
        // The parser stops at its next hand-over once nobody listens.
        drop(feed);
        let _ = parser.join();
    });
}

/// The writer's side of [`write_all`]: each slot in order.
fn write_slots(
    writer: &mut Writer,
    feed: &mut Feed,
    slots: Vec<(Slot, usize)>,
    opts: &Options,
    progress: &mut Progress,
) {
    // Outcomes wait here until the transaction holding them commits.
    let mut waiting: Vec<(FileReport, usize)> = Vec::new();
    for (slot, i) in slots {
        let file = match slot {
            Slot::Done(file) => *file,
            Slot::Refresh(r) => {
                let r = *r;
                let outcome = match writer.refresh_source(r.id, &r.seen, r.time.as_ref()) {
                    Ok(()) => FileOutcome::AlreadyPresent { relabel: None },
                    Err(e) => FileOutcome::Failed(e),
                };
                FileReport { path: r.shown, outcome }
            }
            Slot::Parse(n) => {
                let outcome = pipeline::forget_refused(writer, feed, n, opts);
                FileReport { path: feed.work[n].shown.clone(), outcome }
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
}

/// A requested file as planned: settled before parsing, unchanged but
/// with its record to refresh, or to be parsed. Each is a pointer: the
/// plan of 30,000 files is a list of 30,000 of them, held to the end.
enum Planned {
    Done(Box<FileReport>),
    Refresh(Box<Refresh>),
    Parse(Box<Work>),
}

/// A requested file on its way to the writer: as planned, a file to parse
/// named by its index in the parser's list.
enum Slot {
    Done(Box<FileReport>),
    Refresh(Box<Refresh>),
    Parse(usize),
}

/// A file whose stored bytes are still there, with how it looks now and,
/// when it moved, the run time its runs get now.
struct Refresh {
    shown: PathBuf,
    id: i64,
    seen: crate::store::Seen,
    time: Option<crate::store::RunTime>,
}

/// Commits what is written and reports the files waiting for it.
fn settle(writer: &mut Writer, waiting: &mut Vec<(FileReport, usize)>, progress: &mut Progress) {
    if let Err(e) = writer.commit() {
        let _ = writer.take_lost();
        lose_with(waiting, &e.to_string());
    }
    for (file, i) in waiting.drain(..) {
        progress.report(file, i);
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
fn patterns(requests: &[Request], templates: &[Option<Result<PathTemplate>>]) -> Vec<String> {
    requests
        .iter()
        .zip(templates)
        .map(|(r, t)| t.as_ref().and_then(|t| t.as_ref().ok()).map_or_else(|| r.path.clone(), |t| t.glob().to_string()))
        .filter(|p| !Path::new(p).is_absolute())
        .collect()
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
    crate::fsguard::strip_root(root, path).unwrap_or(path).to_path_buf()
}
