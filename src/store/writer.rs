//! The writer of an ingest command: many sources to a transaction, each
//! under its own savepoint, statements prepared once, id caches for the
//! command, measurements inserted in key order.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{params, Connection, OptionalExtension};

use super::lock::{writer_note, Wait};
use super::measurements::Measurements;
use super::params::labels_json;
use super::sources::{delete_orphans, delete_path, refresh_source, stored_source};
use super::units::{Slot, StoredMetric, UnitConversion};
use super::{db_err, db_failure, AtDb, Batch, NewSource, RunTime, Seen, Store, StoredSource};
use crate::{Error, Result};

impl Store {
    /// Starts writing sources: the writer of one ingest command, holding
    /// its prepared statements and id caches for the whole command.
    pub fn writer<'s>(&'s mut self, batch: &'s mut Batch) -> Result<Writer<'s>> {
        Writer::new(&self.conn, &self.wait, self.limits.commit_every, batch)
    }
}

/// The writer of one ingest command. Sources go in many to a transaction,
/// each inside its own savepoint: a source that fails is rolled back to
/// its savepoint and leaves the database exactly as without it, while the
/// commit — the fsync, the WAL frames of every page touched — is paid once
/// per group of sources instead of once per file. Statements are prepared
/// once and the metric and param-set ids are cached for the whole command.
///
/// Measurements wait in memory and are inserted sorted by the table's key
/// (metric, run): run ids only grow, so a sorted batch appends to the end
/// of each metric's range once per flush rather than once per file.
///
/// Dropped with a transaction open, the writer rolls it back: sources not
/// yet committed are absent, as after a kill.
pub struct Writer<'s> {
    pub(super) conn: &'s Connection,
    pub(super) path: PathBuf,
    /// How the connection waits for other writers (for what a failed
    /// lock says).
    pub(super) wait: &'s Wait,
    /// How long a transaction of many sources stays open at most
    /// (`[limits] commit_seconds`). A commit inserts the measurements
    /// waiting for it, and each insert after the first lands in the middle
    /// of the measurement table (keyed by metric, then run), which costs
    /// about twice an append at its end: so sources are committed as seldom
    /// as this bound and the pending rows' bound
    /// (`Measurements::nearly_full`) allow. The bound is what a kill -9 can
    /// lose (the files of at most this long, each whole or absent, read
    /// again by the next ingest) and how late an ingest reports its
    /// progress. A concurrent writer is not helped by a shorter one: this
    /// writer takes the lock again at once after each commit, so the other
    /// usually gets it only when the ingest ends either way (within
    /// `[limits] lock_wait_seconds`).
    pub(super) commit_every: Duration,
    pub(super) batch: &'s mut Batch,
    /// When the open transaction began; `None` outside one.
    pub(super) tx_started: Option<std::time::Instant>,
    pub(super) metric_ids: HashMap<String, StoredMetric>,
    /// Param set ids by their JSON text, for the sets this writer met
    /// lately: bounded by [`PARAM_SET_CACHE_BYTES`] (a log whose every run
    /// has its own params kept each one, 1 GiB for a 3 GiB JSONL), then
    /// emptied; the database's unique index finds the others.
    pub(super) param_sets: HashMap<String, i64>,
    /// The bytes of the keys in `param_sets`.
    pub(super) param_set_bytes: usize,
    /// Measurements not yet inserted.
    pub(super) pending: Measurements<'s>,
    /// The slots of the run being added (also for spotting a metric named
    /// twice in one record).
    pub(super) ids: Vec<Slot>,
    /// The metric names of the file being written, by the index packed runs
    /// name them by (see [`RunBatch`](crate::run::RunBatch)), and their ids
    /// once known.
    pub(super) file_metrics: Vec<(String, Option<String>)>,
    pub(super) file_ids: Vec<Option<Slot>>,
    /// The metric indices of the last packed run, whose ids are in
    /// `last_packed_ids`: most runs name the same ones.
    pub(super) last_indices: Vec<u32>,
    pub(super) last_packed_ids: Vec<Slot>,
    /// What the source ended last converted (see [`Writer::take_conversions`]).
    pub(super) ended_conversions: Vec<UnitConversion>,
    /// The source being written, if any.
    pub(super) source: Option<OpenSource>,
    /// The open transaction was rolled back by `SQLite`.
    pub(super) lost: bool,
    /// Measurements were inserted since the open transaction began: every
    /// later insert lands in the middle of the table, so it is time to commit.
    pub(super) tx_flushed: bool,
    pub(super) insert_run: rusqlite::Statement<'s>,
}

/// What a writer must undo if the source being written fails.
pub(super) struct OpenSource {
    pub(super) id: i64,
    pub(super) runs: u64,
    /// The id of its first run: pending rows of runs from this id on are
    /// its own (earlier sources' runs have lower ids).
    pub(super) first_run: Option<i64>,
    /// Cache entries made while writing it: their rows go with the savepoint.
    pub(super) new_metrics: Vec<String>,
    pub(super) new_sets: Vec<String>,
    /// Values it gave in another unit than the store keeps their metric in.
    pub(super) converted: Vec<UnitConversion>,
    /// The batch row was created inside this source's savepoint.
    pub(super) made_batch: bool,
    /// The sweep of runs that take the default time, when it is not that
    /// time's date (a `{date}` of year and month names the month).
    pub(super) default_sweep: Option<String>,
    /// The sweep a `sweep` label names: every run of the source is in it,
    /// whatever its own time.
    pub(super) named_sweep: Option<String>,
}

/// The most bytes of params text the param-set cache of a writer holds.
/// Runs of one configuration are usually written together, so a small
/// cache catches nearly every repeat; 8 MiB holds tens of thousands of sets.
pub(super) const PARAM_SET_CACHE_BYTES: usize = 8 << 20;

impl<'s> Writer<'s> {
    fn new(conn: &'s Connection, wait: &'s Wait, commit_every: Duration, batch: &'s mut Batch) -> Result<Writer<'s>> {
        let path = wait.db();
        Ok(Writer {
            insert_run: conn
                .prepare(
                    "INSERT INTO run (source_id, line, time, time_origin, sweep, param_set_id) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )
                .at(path)?,
            pending: Measurements::new(conn, path)?,
            conn,
            path: path.to_path_buf(),
            wait,
            commit_every,
            batch,
            tx_started: None,
            metric_ids: HashMap::new(),
            param_sets: HashMap::new(),
            param_set_bytes: 0,
            ids: Vec::new(),
            file_metrics: Vec::new(),
            file_ids: Vec::new(),
            last_indices: Vec::new(),
            last_packed_ids: Vec::new(),
            ended_conversions: Vec::new(),
            source: None,
            lost: false,
            tx_flushed: false,
        })
    }

    /// Opens the transaction sources are written in, if none is open.
    fn begin_transaction(&mut self) -> Result<()> {
        if self.tx_started.is_none() {
            self.conn.execute_batch("BEGIN IMMEDIATE").map_err(|e| db_failure(self.wait, &e))?;
            self.tx_started = Some(std::time::Instant::now());
            self.tx_flushed = false;
        }
        Ok(())
    }

    /// Starts a source inside the current transaction (opening one if
    /// needed), under its own savepoint. Returns false, with nothing
    /// written, when this very file (path, bytes, labels, time) is stored:
    /// another ingest running at the same time wrote it.
    pub fn begin_source(&mut self, src: &NewSource) -> Result<bool> {
        if self.source.is_some() {
            return Err(Error::internal("a source was begun before the previous one ended"));
        }
        if self.tx_started.is_none() {
            self.begin_transaction()?;
            // Who holds the write lock, for a process that has to wait for it.
            if self.path.as_os_str() != ":memory:" {
                let note = format!("{} {}\n", std::process::id(), self.batch.command);
                let _ = std::fs::write(writer_note(&self.path), note);
            }
        }
        // Packed runs name metrics by their index in this file.
        self.file_metrics.clear();
        self.file_ids.clear();
        self.last_indices.clear();
        self.conn.prepare_cached("SAVEPOINT source").and_then(|mut s| s.execute([])).at(&self.path)?;
        let made_batch = self.batch.id.is_none();
        match self.start_source(src) {
            Ok(Some(id)) => {
                self.source = Some(OpenSource {
                    id,
                    runs: 0,
                    first_run: None,
                    new_metrics: Vec::new(),
                    new_sets: Vec::new(),
                    converted: Vec::new(),
                    made_batch,
                    default_sweep: None,
                    named_sweep: None,
                });
                Ok(true)
            }
            Ok(None) => {
                self.release_source()?;
                Ok(false)
            }
            Err(e) => {
                if made_batch {
                    self.batch.id = None;
                }
                if self.conn.is_autocommit() {
                    self.lost_transaction();
                } else {
                    self.conn.execute_batch("ROLLBACK TO source; RELEASE source").at(&self.path)?;
                }
                Err(e)
            }
        }
    }

    /// Replaces what the path held and writes the source's row, returning
    /// its id. `None` when this very file (path, bytes, labels and time) is
    /// stored.
    fn start_source(&mut self, src: &NewSource) -> Result<Option<i64>> {
        // Another ingest wrote this very file — path, bytes, labels and
        // time — after this one looked at it (two ingests at once): it is
        // already in, not to be deleted and written again.
        let written: Option<i64> = self
            .conn
            .prepare_cached(
                "SELECT id FROM source WHERE path = ?1 AND hash = ?2 AND format = ?3 AND labels = ?4 \
                 AND time IS ?5 AND time_origin IS ?6",
            )
            .and_then(|mut s| {
                s.query_row(
                    params![
                        src.path,
                        src.hash,
                        src.format,
                        labels_json(src.labels),
                        src.time.map(|t| t.time.as_str()),
                        src.time.map(|t| t.origin)
                    ],
                    |r| r.get(0),
                )
                .optional()
            })
            .at(&self.path)?;
        if written.is_some() {
            return Ok(None);
        }
        // A source is its path: the same bytes at another path are a
        // source of their own, with that path's labels and run time.
        let replaced = delete_path(self.conn, src.path).at(&self.path)?;
        if replaced {
            // What the earlier content alone named goes with it, before the
            // new content names anything: a metric only it gave takes the
            // unit the new content gives it, as in a database built afresh.
            self.delete_orphans()?;
        }
        Ok(Some(self.insert_source(src)?))
    }

    /// Drops names no run uses any more (see [`delete_orphans`]); the id
    /// caches may name some of them, so they start over.
    fn delete_orphans(&mut self) -> Result<()> {
        self.flush()?;
        delete_orphans(self.conn).at(&self.path)?;
        self.forget_metric_ids();
        self.param_sets.clear();
        self.param_set_bytes = 0;
        Ok(())
    }

    /// Sets the sweeps that differ from the run time's date for the source
    /// being written: `default` for runs without their own time, `named` (a
    /// `sweep` label) for every run.
    pub fn set_sweeps(&mut self, default: Option<String>, named: Option<String>) {
        if let Some(s) = self.source.as_mut() {
            s.default_sweep = default;
            s.named_sweep = named;
        }
    }

    fn insert_source(&mut self, src: &NewSource) -> Result<i64> {
        let batch_id = if let Some(id) = self.batch.id {
            id
        } else {
            let git_commit = self.batch.git_commit();
            self.conn
                .execute(
                    "INSERT INTO batch (started_at, command, git_commit) VALUES (?1, ?2, ?3)",
                    params![self.batch.started_at, self.batch.command, git_commit],
                )
                .at(&self.path)?;
            let id = self.conn.last_insert_rowid();
            self.batch.id = Some(id);
            id
        };
        self.conn
            .prepare_cached(
                "INSERT INTO source (path, hash, size, mtime_ns, format, batch_id, labels, ctime_ns, inode, \
                 checked_ns, time, time_origin, git_head)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
            )
            .and_then(|mut s| {
                s.execute(params![
                    src.path,
                    src.hash,
                    src.seen.size,
                    src.seen.mtime_ns,
                    src.format,
                    batch_id,
                    labels_json(src.labels),
                    src.seen.ctime_ns,
                    src.seen.inode,
                    src.seen.checked_ns,
                    src.time.map(|t| t.time.as_str()),
                    src.time.map(|t| t.origin),
                    src.seen.git_head,
                ])
            })
            .at(&self.path)?;
        Ok(self.conn.last_insert_rowid())
    }

    /// Inserts the pending measurements, sorted by the table's key.
    pub(super) fn flush(&mut self) -> Result<()> {
        // What was pending of the source being written is now inside its
        // savepoint, which undoes it if the source fails.
        self.tx_flushed |= self.tx_started.is_some() && self.pending.rows() > 0;
        self.pending.flush(&self.path)
    }

    /// How many runs the source being written has so far.
    pub fn source_runs(&self) -> u64 {
        self.source.as_ref().map_or(0, |s| s.runs)
    }

    /// Keeps the source being written: it becomes permanent with the
    /// transaction's commit. Returns its number of runs.
    pub fn end_source(&mut self) -> Result<u64> {
        let Some(source) = self.source.take() else { return Ok(0) };
        self.ended_conversions = source.converted;
        self.release_source()?;
        Ok(source.runs)
    }

    /// Keeps what was written since the source's savepoint.
    fn release_source(&self) -> Result<()> {
        self.conn.prepare_cached("RELEASE source").and_then(|mut s| s.execute([])).at(&self.path)?;
        Ok(())
    }

    /// Undoes the source being written: the database is as without it.
    /// An error means the whole open transaction was lost (`SQLite` rolls a
    /// transaction back by itself on some failures, a full disk among
    /// them): the sources written since the last commit are absent too.
    pub fn abandon_source(&mut self) -> Result<()> {
        let Some(source) = self.source.take() else { return Ok(()) };
        if let Some(run) = source.first_run {
            self.pending.forget_runs_from(run);
        }
        for name in source.new_metrics {
            self.metric_ids.remove(&name);
        }
        self.forget_file_ids();
        for set in source.new_sets {
            if self.param_sets.remove(&set).is_some() {
                self.param_set_bytes -= set.len();
            }
        }
        if source.made_batch {
            self.batch.id = None;
        }
        if self.tx_started.is_some() && self.conn.is_autocommit() {
            self.lost_transaction();
            return Err(db_err(
                &self.path,
                "the transaction was rolled back by SQLite after an error; run the ingest again",
            ));
        }
        self.conn.execute_batch("ROLLBACK TO source; RELEASE source").at(&self.path)?;
        Ok(())
    }

    /// True once after the open transaction was lost (see
    /// [`Writer::abandon_source`]): the sources ended since the last commit
    /// are not in the database.
    pub fn take_lost(&mut self) -> bool {
        std::mem::take(&mut self.lost)
    }

    /// Forgets what the lost transaction had made.
    fn lost_transaction(&mut self) {
        self.lost = true;
        self.tx_started = None;
        self.pending.clear();
        self.forget_metric_ids();
        self.param_sets.clear();
        self.param_set_bytes = 0;
        self.batch.id = None;
    }

    /// True when the open transaction should be committed: it has been open
    /// long enough, its pending measurements nearly fill their buffer, or
    /// some were inserted already (a source too large for the buffer).
    pub fn commit_due(&self) -> bool {
        self.tx_started
            .is_some_and(|t| self.tx_flushed || self.pending.nearly_full() || t.elapsed() >= self.commit_every)
    }

    /// True while sources are written but not yet committed.
    pub fn in_transaction(&self) -> bool {
        self.tx_started.is_some()
    }

    /// Commits the sources ended so far (a source still open is abandoned
    /// first). On error nothing since the last commit is kept.
    pub fn commit(&mut self) -> Result<()> {
        if self.source.is_some() {
            self.abandon_source()?;
        }
        if self.tx_started.is_none() {
            return Ok(());
        }
        let done = self.flush().and_then(|()| {
            self.conn.execute_batch("COMMIT").map_err(|e| db_failure(self.wait, &e))?;
            Ok(())
        });
        if done.is_err() {
            if !self.conn.is_autocommit() {
                let _ = self.conn.execute_batch("ROLLBACK");
            }
            self.lost_transaction();
        }
        self.tx_started = None;
        done
    }

    /// What is stored for a path (see [`Store::stored_source`]).
    pub fn stored_source(&self, path: &str) -> Result<Option<StoredSource>> {
        stored_source(self.conn, path).at(&self.path)
    }

    /// Records that a stored source still holds the same bytes (see
    /// [`Store::refresh_source`]), inside the writer's transaction.
    pub fn refresh_source(&mut self, id: i64, seen: &Seen, time: Option<&RunTime>) -> Result<()> {
        self.begin_transaction()?;
        refresh_source(self.conn, id, seen, time).at(&self.path)
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Writer<'_> {
    fn drop(&mut self) {
        if self.tx_started.is_some() && !self.conn.is_autocommit() {
            let _ = self.conn.execute_batch("ROLLBACK");
            self.batch.id = None;
        }
    }
}
