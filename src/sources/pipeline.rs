//! The two halves of an ingest: a parser thread that reads, hashes,
//! detects and parses each file in turn, and the writer that puts each
//! file's runs in the store under its own savepoint as they arrive. What
//! the parser hands over travels in parcels of many files' worth: a
//! hand-over costs a thread wake-up (on a busy machine, a wait for a
//! core), which a small file's parse does not.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender};

use super::examine::{hash_file, Work, HEAD_BYTES};
use super::git::GitView;
use super::FileOutcome;
use crate::ingest::generic::GenericOptions;
use crate::ingest::{canonical, limit, stdout, Chosen, Format, LineBytes, Outcome};
use crate::run::{MetricNames, RunBatch};
use crate::store::{NewSource, RunTime, Writer};
use crate::{Error, Result};

/// What the parser thread hands over, in file order: for each file a
/// `Start` (its hash and format, or why it cannot be read), then for a
/// readable file its runs in batches and an `End` with the parse's outcome.
pub(super) enum Parsed {
    Start(Result<(String, Format)>),
    Runs(RunBatch),
    End(Result<Outcome>),
}

/// Hand-overs sent together, in order.
type Parcel = Vec<Parsed>;

/// A parcel is sent once it holds this many runs or this many hand-overs
/// (files without runs: unreadable, or refused): about 45 eleven-record
/// files, so 3,000 files take ~70 thread wake-ups instead of 9,000.
const PARCEL_RUNS: usize = 512;
const PARCEL_ITEMS: usize = 256;

/// Parcels the parser may have ready before it waits for the writer
/// (about 4,000 runs, a few MiB): room to parse ahead while the writer
/// commits or waits for git.
pub(super) const PARCELS_AHEAD: usize = 8;

/// The parser's end of the hand-over: fills a parcel and sends it when
/// full. An error means the writer stopped listening.
pub(super) struct Outbox {
    send: SyncSender<Parcel>,
    parcel: Parcel,
    runs: usize,
}

struct Stopped;

impl Outbox {
    pub(super) fn new(send: SyncSender<Parcel>) -> Outbox {
        Outbox { send, parcel: Vec::new(), runs: 0 }
    }

    fn push(&mut self, item: Parsed) -> std::result::Result<(), Stopped> {
        if let Parsed::Runs(runs) = &item {
            self.runs += runs.len();
        }
        self.parcel.push(item);
        if self.runs >= PARCEL_RUNS || self.parcel.len() >= PARCEL_ITEMS {
            self.flush()?;
        }
        Ok(())
    }

    /// Sends what the parcel holds.
    fn flush(&mut self) -> std::result::Result<(), Stopped> {
        if self.parcel.is_empty() {
            return Ok(());
        }
        self.runs = 0;
        self.send.send(std::mem::take(&mut self.parcel)).map_err(|_| Stopped)
    }
}

/// The writer's end of the hand-over: one parsed item at a time.
pub(super) struct Inbox {
    receive: Receiver<Parcel>,
    parcel: std::vec::IntoIter<Parsed>,
}

impl Inbox {
    pub(super) fn new(receive: Receiver<Parcel>) -> Inbox {
        Inbox { receive, parcel: Vec::new().into_iter() }
    }

    /// The next item; `None` once the parser has ended and all is read.
    fn recv(&mut self) -> Option<Parsed> {
        loop {
            if let Some(item) = self.parcel.next() {
                return Some(item);
            }
            self.parcel = self.receive.recv().ok()?.into_iter();
        }
    }
}

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
        let mut bytes = Vec::with_capacity(usize::try_from(w.seen.size).map_or(0, |n| n + 1));
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
            // memmem, not a byte-by-byte window: this looks through every file.
            let later = bytes.len() > head.len() && memchr::memmem::find(rest, title).is_some();
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

/// What the writer reads files from: the parser's hand-overs, the files
/// it parses (in order), git for their run times, and where the writer
/// tells the parser which file it no longer wants.
pub(super) struct Feed<'a> {
    pub(super) inbox: Inbox,
    pub(super) work: &'a [Work],
    pub(super) git: &'a GitView,
    pub(super) skip: &'a AtomicUsize,
}

/// Runs handed from the parsing thread to the inserting one at a time.
const BATCH_RUNS: usize = 256;

/// The parser thread: reads, hashes, detects and parses each file in turn.
// The outbox is taken by value: dropping its sender when the parser ends is
// how the writer learns that nothing more is coming.
#[allow(clippy::needless_pass_by_value)]
pub(super) fn parse_files(
    work: &[Work],
    generic: &GenericOptions,
    line_bytes: LineBytes,
    skip: &AtomicUsize,
    mut out: Outbox,
) {
    for (i, w) in work.iter().enumerate() {
        if parse_file(w, i, generic, line_bytes, skip, &mut out).is_err() {
            return;
        }
    }
    let _ = out.flush();
}

/// Reads, hashes, detects and parses one file (the `i`-th), handing over
/// what it gives.
fn parse_file(
    w: &Work,
    i: usize,
    generic: &GenericOptions,
    line_bytes: LineBytes,
    skip: &AtomicUsize,
    out: &mut Outbox,
) -> std::result::Result<(), Stopped> {
    let (format, input) = match open_file(w) {
        Ok((hash, format, input)) => {
            out.push(Parsed::Start(Ok((hash, format))))?;
            (format, input)
        }
        Err(e) => return out.push(Parsed::Start(Err(e))),
    };
    let mut batch = RunBatch::default();
    let mut names = MetricNames::default();
    let mut json = String::new();
    let mut emit = |mut run: crate::run::RawRun| -> Result<()> {
        canonical::add_canonical_params(&mut run);
        // The params are encoded and the run packed here, off the
        // inserting thread, and the run is freed on the thread that
        // allocated it: what crosses over is a few buffers per batch.
        crate::store::encode_params(&run, &w.job.labels, &mut json);
        batch.push(&run, &mut names, &json);
        if batch.len() == BATCH_RUNS {
            // The writer no longer wants this file's runs, or is gone: the
            // parse stops, and what it ends with is dropped unread.
            if skip.load(Ordering::Relaxed) == i + 1 {
                return Err(Error::ParseStopped);
            }
            // Runs travel in batches: one hand-over per run would cost a
            // thread wake-up each.
            out.push(Parsed::Runs(batch.take())).map_err(|Stopped| Error::ParseStopped)?;
        }
        Ok(())
    };
    // Lines longer than the limit are refused as they are read, before
    // a parser holds one whole; `over` says which line it was.
    let over = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let chosen = if w.job.format.is_some() { Chosen::Named } else { Chosen::Detected };
    let parsed = match input {
        Input::Bytes(bytes) => {
            let mut input =
                BufReader::new(limit::LineLimit::new(std::io::Cursor::new(&bytes[..]), line_bytes, over.clone()));
            format.parse_file(&w.shown, &mut input, generic, line_bytes, chosen, &mut emit)
        }
        Input::File(file) => {
            let mut input = BufReader::with_capacity(256 * 1024, limit::LineLimit::new(file, line_bytes, over.clone()));
            format.parse_file(&w.shown, &mut input, generic, line_bytes, chosen, &mut emit)
        }
    };
    let parsed = parsed.map_err(|e| match over.load(Ordering::Relaxed) {
        0 => e,
        line => Error::malformed(&w.shown, line, limit::too_long(line_bytes.get())),
    });
    let parsed = parsed.and_then(|o| o.named(&w.job.labels, &w.shown));
    if parsed.is_ok() && !batch.is_empty() {
        out.push(Parsed::Runs(batch))?;
    }
    out.push(Parsed::End(parsed))
}

/// Writes one file's runs as the parser hands them over, under the file's
/// own savepoint.
pub(super) fn write_file(writer: &mut Writer, feed: &mut Feed, index: usize) -> FileOutcome {
    let (w, receive, skip) = (&feed.work[index], &mut feed.inbox, feed.skip);
    let stopped = || Error::malformed(&w.shown, 1, "the parser stopped unexpectedly");
    let (hash, format) = match receive.recv() {
        Some(Parsed::Start(Ok(started))) => started,
        Some(Parsed::Start(Err(e))) => return FileOutcome::Failed(e),
        _ => return FileOutcome::Failed(stopped()),
    };
    let begun = begin(writer, w, feed.git, &hash, format);
    if !matches!(begun, Ok(Some(_))) {
        skip.store(index + 1, Ordering::Relaxed);
        if !drain_file(receive) {
            return FileOutcome::Failed(stopped());
        }
    }
    let time = match begun {
        Err(e) => return FileOutcome::Failed(e),
        // Another ingest wrote this very file meanwhile.
        Ok(None) => return FileOutcome::AlreadyPresent { relabel: None },
        Ok(Some(time)) => time,
    };
    let mut failed = None;
    let mut off_path = OffPath::default();
    let mut mtime_dated = false;
    let parsed = loop {
        match receive.recv() {
            Some(Parsed::Runs(runs)) => {
                writer.learn_metrics(&runs.new_metrics);
                if failed.is_some() {
                    continue;
                }
                for run in runs.runs() {
                    off_path.see(&time, w.sweep.as_deref(), run.time, run.line);
                    mtime_dated |= run.time.is_none() && time.origin == "mtime";
                    if let Err(e) = writer.add_packed(run, &time) {
                        failed = Some(in_log(e, &w.shown));
                        skip.store(index + 1, Ordering::Relaxed);
                        break;
                    }
                }
            }
            Some(Parsed::End(parsed)) => break parsed,
            Some(Parsed::Start(_)) | None => break Err(stopped()),
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
        Ok((runs, outcome)) => FileOutcome::Added {
            format,
            runs,
            skipped: outcome.skipped,
            converted: writer.take_conversions(),
            noted: outcome.notes.into_iter().chain(off_path.note(&time, w.sweep.as_deref())).collect(),
            mtime_dated,
        },
        Err(e) => {
            // A lost transaction is noticed by the caller (`take_lost`).
            let _ = writer.abandon_source();
            FileOutcome::Failed(e)
        }
    }
}

/// [`write_file`]; and when the log, which the store held runs of, is
/// refused now, those runs are removed and the refusal says so
/// ([`Error::StaleRunsRemoved`]), unless the command keeps them
/// ([`super::Options::keep_refused`], `watch`: a log still being written
/// keeps its runs as last read, and says so). Only a fault of the log's
/// removes them; a database failure or a bug in reckon leaves the store as
/// it was.
pub(super) fn forget_refused(writer: &mut Writer, feed: &mut Feed, n: usize, opts: &super::Options) -> FileOutcome {
    let outcome = write_file(writer, feed, n);
    let FileOutcome::Failed(e) = outcome else { return outcome };
    let path = feed.work[n].shown_str.as_str();
    let the_logs = matches!(
        e,
        Error::Malformed { .. }
            | Error::NotUtf8 { .. }
            | Error::DuplicateMetric { .. }
            | Error::UnitMismatch { .. }
            | Error::UnknownFormat { .. }
            | Error::Io { .. }
    );
    if opts.keep_refused || !the_logs {
        return FileOutcome::Failed(e);
    }
    match writer.forget_path(path) {
        Ok(0) => FileOutcome::Failed(e),
        Ok(runs) => FileOutcome::Failed(Error::StaleRunsRemoved { refused: Box::new(e), runs }),
        Err(db) => FileOutcome::Failed(Error::Several(vec![e, db])),
    }
}

/// An error the store gave for a run of the log `shown`: a fault of the
/// log's (a metric twice in a record, a unit the store cannot convert) is
/// placed in the log, whose path the store does not know; anything else —
/// a broken invariant in reckon, a database failure — passes as it is,
/// never blamed on the log.
fn in_log(e: Error, shown: &Path) -> Error {
    match e {
        Error::DuplicateMetric { line, metric, .. } => {
            Error::DuplicateMetric { path: shown.to_path_buf(), line, metric }
        }
        Error::UnitMismatch { line, clash, .. } => Error::UnitMismatch { path: shown.to_path_buf(), line, clash },
        e => e,
    }
}

/// Begins the file's source at its run time (once git's history walk ends,
/// when the time comes from it). `None` when this very file is stored.
fn begin(writer: &mut Writer, w: &Work, git: &GitView, hash: &str, format: Format) -> Result<Option<RunTime>> {
    let time = w.time.resolve(git)?;
    let labels = super::examine::source_labels(&w.job);
    let src = NewSource {
        path: &w.shown_str,
        hash,
        format: format.name(),
        labels: &labels,
        seen: w.seen.clone(),
        time: Some(&time),
    };
    if !writer.begin_source(&src)? {
        return Ok(None);
    }
    writer.set_sweeps(w.sweep.clone(), w.job.sweep.clone());
    Ok(Some(time))
}

/// Reads and drops a file's remaining hand-overs, up to its `End`. False
/// when the parser stopped first.
fn drain_file(receive: &mut Inbox) -> bool {
    loop {
        match receive.recv() {
            Some(Parsed::Runs(_)) => {}
            Some(Parsed::End(_)) => return true,
            Some(Parsed::Start(_)) | None => return false,
        }
    }
}

/// The runs whose own time (the log's) falls in another sweep than the
/// `{date}` their path gives — another day, or another month for a month's
/// folder: the log's time decides their sweep, as the README says, and a
/// run past midnight (its sweep's other logs left in the day before), a
/// clock set a year wrong or a log filed under the wrong folder is said
/// rather than moved to another sweep unsaid.
#[derive(Default)]
struct OffPath {
    /// The first such run: its line and its time.
    first: Option<(u64, String)>,
    count: usize,
}

impl OffPath {
    /// `path_sweep`: the sweep the path's `{date}` names when it is not
    /// its time's day (a month).
    fn see(&mut self, path_time: &RunTime, path_sweep: Option<&str>, own: Option<&str>, line: u64) {
        let Some(own) = own else { return };
        if path_time.origin != "path" {
            return;
        }
        let path_sweep = path_sweep.unwrap_or_else(|| path_time.time.get(..10).unwrap_or(&path_time.time));
        // A month's folder names a month sweep; a log's own time always
        // puts its runs in a day's.
        if own.get(..10) == Some(path_sweep) {
            return;
        }
        self.count += 1;
        self.first.get_or_insert_with(|| (line, own.to_owned()));
    }

    fn note(&self, path_time: &RunTime, path_sweep: Option<&str>) -> Option<String> {
        let (line, own) = self.first.as_ref()?;
        let day = path_sweep.unwrap_or_else(|| path_time.time.get(..10).unwrap_or(&path_time.time));
        let own_day = own.get(..10).unwrap_or(own);
        let more = match self.count {
            1 => String::new(),
            n => format!(" (and {} more run(s))", n - 1),
        };
        let apart = if path_sweep.is_some() { None } else { days_apart(&path_time.time, own) };
        let in_month = path_sweep.is_some() && own.get(..day.len()) == Some(day);
        let when = match apart {
            Some(1) if own_day > day => format!("the day after the path's {{date}} {day}"),
            Some(1) => format!("the day before the path's {{date}} {day}"),
            None if in_month => format!("a day within the path's {{date}} month {day}"),
            None if path_sweep.is_some() => format!("outside the path's {{date}} month {day}"),
            _ => format!("more than a day from the path's {{date}} {day}"),
        };
        let one_sweep = "to keep a folder's logs in one sweep, write `{sweep}` for `{date}` in the [[source]] path";
        let misfiled =
            "if the log is filed under the wrong date or its clock was wrong, move the file or correct its time";
        let why = if apart == Some(1) {
            format!(
                "a run past midnight (sweeps are UTC days) is in another sweep than the logs it was run with; \
                 {one_sweep}; {misfiled}"
            )
        } else if in_month {
            format!("a day's sweep is newer than its month's; {one_sweep}")
        } else {
            misfiled.to_string()
        };
        Some(format!(
            "the run at line {line}{more} logs its own time {own}, {when}: the log's time decides its sweep, so its \
             runs are in sweep {own_day}, not {day}; {why}"
        ))
    }
}

/// Whole days between two RFC 3339 times (or dates), when both read.
fn days_apart(a: &str, b: &str) -> Option<i64> {
    let day = |t: &str| chrono::NaiveDate::parse_from_str(t.get(..10)?, "%Y-%m-%d").ok();
    Some((day(a)? - day(b)?).num_days().abs())
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::mpsc::sync_channel;

    use super::*;
    use crate::run::{Metric, RawRun};
    use crate::sources::expand::Job;
    use crate::sources::time::When;
    use crate::store::{Batch, Seen, Store};

    /// A log `logs/a.jsonl` as the writer is handed it, whose one run (at
    /// line 3) names its metric by an index the writer was never told of.
    /// The parser thread always sends a name before its first use: a
    /// broken invariant of reckon's, whatever the log holds.
    fn runs_naming_an_unknown_metric() -> RunBatch {
        let mut run = RawRun::new(3);
        run.metrics.push(Metric { name: "throughput".into(), value: 1.0, unit: None });
        let mut runs = RunBatch::default();
        runs.push(&run, &mut MetricNames::default(), "{}");
        runs.new_metrics.clear();
        runs
    }

    /// Regression (issue 22): the writer turned every `Error::Usage` the
    /// store gave into `Malformed` at the run's line, so a bug in reckon
    /// was reported as `logs/a.jsonl:3: internal: …`, the researcher's log
    /// blamed for it.
    #[test]
    fn an_internal_error_while_writing_a_log_is_reckons_bug_not_the_logs() {
        let mut store = Store::open_in_memory().unwrap();
        let mut batch = Batch::new("ingest".into(), None);
        let mut writer = store.writer(&mut batch).unwrap();
        let (send, receive) = sync_channel(1);
        let parcel = vec![
            Parsed::Start(Ok(("0".repeat(64), Format::Jsonl))),
            Parsed::Runs(runs_naming_an_unknown_metric()),
            Parsed::End(Ok(Outcome::default())),
        ];
        send.send(parcel).unwrap();
        drop(send);
        let path = PathBuf::from("logs/a.jsonl");
        let job = Job {
            path: path.clone(),
            format: None,
            labels: std::sync::Arc::default(),
            date: None,
            sweep: None,
            meta: None,
            settled: false,
        };
        let time = When::Known(RunTime { time: "2026-11-29T14:02:11Z".into(), origin: "mtime" });
        let work =
            [Work { job, shown: path, shown_str: "logs/a.jsonl".into(), seen: Seen::default(), time, sweep: None }];
        let git = GitView::new(Path::new("."), false, Vec::new());
        let skip = AtomicUsize::new(0);
        let mut feed = Feed { inbox: Inbox::new(receive), work: &work, git: &git, skip: &skip };
        let FileOutcome::Failed(e) = write_file(&mut writer, &mut feed, 0) else {
            panic!("a run naming an unknown metric was written");
        };
        assert_eq!(
            e.to_string(),
            "internal error in reckon: a run named a metric by an unknown index; please report it"
        );
        assert!(matches!(e, Error::Internal(_)) && e.place().is_none(), "blamed on the log: {e:?}");
    }

    #[test]
    fn a_fault_of_the_log_the_store_finds_is_placed_in_the_log() {
        let twice = Error::DuplicateMetric { path: PathBuf::new(), line: 7, metric: "ttft".into() };
        let placed = in_log(twice, Path::new("logs/a.jsonl")).place().unwrap();
        assert_eq!(placed.to_string(), "logs/a.jsonl:7");
        let bug = in_log(Error::internal("x"), Path::new("logs/a.jsonl"));
        assert!(matches!(bug, Error::Internal(_)));
    }
}
