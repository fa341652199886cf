//! The writer of an ingest command: many sources to a transaction, each
//! under its own savepoint, statements prepared once, id caches for the
//! command, measurements inserted in key order. Its parts own their state:
//! the transaction (`transaction`), the source being written
//! (`open_source`), the metric and param-set ids (`metric_ids`,
//! `param_set_ids`), the file's metrics by index (`file_metrics`) and the
//! measurements waiting (`measurements`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{params, Connection};

use super::file_metrics::FileMetrics;
use super::lock::{writer_note, Wait};
use super::measurements::Measurements;
use super::metric_ids::MetricIds;
use super::open_source::OpenSource;
use super::param_set_ids::ParamSetIds;
use super::sources::{delete_orphans, delete_path, insert_source, refresh_source, stored_source, written_source};
use super::transaction::{Transaction, Undone};
use super::units::UnitConversion;
use super::{db_err, AtDb, Batch, NewSource, RunTime, Seen, Store, StoredSource};
use crate::run::PackedView;
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
/// Runs come packed by ingest's parser thread ([`PackedView`]), the one way
/// runs go in (tests pack theirs the same way: `store::builder`).
/// Measurements wait in memory and are inserted sorted by the table's key
/// (metric, run): run ids only grow, so a sorted batch appends to the end
/// of each metric's range once per flush rather than once per file.
///
/// Dropped with a transaction open, the writer rolls it back: sources not
/// yet committed are absent, as after a kill.
pub struct Writer<'s> {
    conn: &'s Connection,
    path: PathBuf,
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
    commit_every: Duration,
    batch: &'s mut Batch,
    tx: Transaction<'s>,
    /// The source being written, if any.
    source: Option<OpenSource>,
    metrics: MetricIds,
    sets: ParamSetIds<'s>,
    file: FileMetrics,
    /// Measurements not yet inserted.
    pending: Measurements<'s>,
    /// What the source ended last converted (see [`Writer::take_conversions`]).
    ended_conversions: Vec<UnitConversion>,
    insert_run: rusqlite::Statement<'s>,
}

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
            commit_every,
            batch,
            tx: Transaction::new(conn, wait),
            source: None,
            metrics: MetricIds::default(),
            sets: ParamSetIds::new(conn, path)?,
            file: FileMetrics::default(),
            ended_conversions: Vec::new(),
        })
    }

    /// Starts a source inside the current transaction (opening one if
    /// needed), under its own savepoint. Returns false, with nothing
    /// written, when this very file (path, bytes, labels, time) is stored:
    /// another ingest running at the same time wrote it.
    pub fn begin_source(&mut self, src: &NewSource) -> Result<bool> {
        if self.source.is_some() {
            return Err(Error::internal("a source was begun before the previous one ended"));
        }
        if self.tx.begin()? && self.path.as_os_str() != ":memory:" {
            // Who holds the write lock, for a process that has to wait for it.
            let note = format!("{} {}\n", std::process::id(), self.batch.command);
            let _ = std::fs::write(writer_note(&self.path), note);
        }
        // Packed runs name metrics by their index in this file.
        self.file.start_file();
        let savepoint = self.tx.savepoint()?;
        let made_batch = !self.batch.is_written();
        match self.start_source(src) {
            Ok(Some(id)) => {
                self.source = Some(OpenSource::new(id, made_batch, savepoint));
                Ok(true)
            }
            Ok(None) => {
                self.tx.release(savepoint)?;
                Ok(false)
            }
            Err(e) => {
                if made_batch {
                    self.batch.forget_row();
                }
                if self.tx.roll_back_to(savepoint)? == Undone::Transaction {
                    self.forget_transaction();
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
        if written_source(self.conn, src).at(&self.path)?.is_some() {
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
        let batch = self.batch.row(self.conn).at(&self.path)?;
        Ok(Some(insert_source(self.conn, src, batch).at(&self.path)?))
    }

    /// Drops names no run uses any more (see [`delete_orphans`]); the id
    /// caches may name some of them, so they start over.
    fn delete_orphans(&mut self) -> Result<()> {
        self.flush()?;
        delete_orphans(self.conn).at(&self.path)?;
        self.metrics.clear();
        self.file.forget_slots();
        self.sets.clear();
        Ok(())
    }

    /// Sets the sweeps that differ from the run time's date for the source
    /// being written: `default` for runs without their own time, `named` (a
    /// `sweep` label) for every run.
    pub fn set_sweeps(&mut self, default: Option<String>, named: Option<String>) {
        if let Some(s) = self.source.as_mut() {
            s.set_sweeps(default, named);
        }
    }

    /// Learns the metric names a batch of packed runs of the file being
    /// written introduces (see [`RunBatch`](crate::run::RunBatch)).
    pub fn learn_metrics(&mut self, names: &[(String, Option<String>)]) {
        self.file.learn(names);
    }

    /// Adds one packed run: params encoded, metrics by index into the
    /// names learnt for the file — ingest packs runs on its parsing thread.
    pub fn add_packed(&mut self, run: PackedView<'_>, default_time: &RunTime) -> Result<()> {
        let Some(source) = self.source.as_mut() else {
            return Err(Error::internal("a run was added outside a source"));
        };
        let set_id = self.sets.id(&self.path, run.params_json)?;
        let (time, origin, sweep) = source.run_time(run.time, default_time);
        self.insert_run.execute(params![source.id(), run.line, time, origin, sweep, set_id]).at(&self.path)?;
        let run_id = self.conn.last_insert_rowid();
        let (conn, db, metrics) = (self.conn, &self.path, &mut self.metrics);
        let slots = self.file.slots(run.line, run.metrics, |name| metrics.slot(conn, db, name, run.line, source))?;
        source.count_run(run_id);
        let mut full = false;
        for (&(_, value), slot) in run.metrics.iter().zip(slots) {
            if let Some(note) = slot.note {
                source.count_converted(note);
            }
            let value = slot.convert.map_or(value, |conversion| conversion.apply(value));
            full |= self.pending.push(slot.id, run_id, value);
        }
        if full {
            // Only this source's rows: the savepoint they go in under undoes
            // them with the source, and must not undo the sources before it.
            self.tx.flushed();
            self.pending.flush_runs_from(source.first_run_or(run_id), &self.path)?;
        }
        Ok(())
    }

    /// Inserts the pending measurements, sorted by the table's key.
    fn flush(&mut self) -> Result<()> {
        // What was pending of the source being written is now inside its
        // savepoint, which undoes it if the source fails.
        if self.pending.rows() > 0 {
            self.tx.flushed();
        }
        self.pending.flush(&self.path)
    }

    /// How many runs the source being written has so far.
    pub fn source_runs(&self) -> u64 {
        self.source.as_ref().map_or(0, OpenSource::runs)
    }

    /// Keeps the source being written: it becomes permanent with the
    /// transaction's commit. Returns its number of runs.
    pub fn end_source(&mut self) -> Result<u64> {
        let Some(source) = self.source.as_mut() else { return Ok(0) };
        // Its units decide its metrics' along with the other logs'.
        self.metrics.settle_source(self.conn, &self.path, source)?;
        let Some(source) = self.source.take() else { return Ok(0) };
        let (savepoint, runs, converted) = source.end();
        self.ended_conversions = converted;
        self.metrics.source_kept();
        self.sets.source_kept();
        self.tx.release(savepoint)?;
        Ok(runs)
    }

    /// Undoes the source being written: the database is as without it.
    /// An error means the whole open transaction was lost (`SQLite` rolls a
    /// transaction back by itself on some failures, a full disk among
    /// them): the sources written since the last commit are absent too.
    pub fn abandon_source(&mut self) -> Result<()> {
        let Some(source) = self.source.take() else { return Ok(()) };
        let undone = source.abandon();
        if let Some(run) = undone.first_run {
            self.pending.forget_runs_from(run);
        }
        self.metrics.source_undone();
        self.file.forget_slots();
        self.sets.source_undone();
        if undone.made_batch {
            self.batch.forget_row();
        }
        if self.tx.roll_back_to(undone.savepoint)? == Undone::Transaction {
            self.forget_transaction();
            return Err(db_err(
                &self.path,
                "the transaction was rolled back by SQLite after an error; run the ingest again",
            ));
        }
        Ok(())
    }

    /// True once after the open transaction was lost (see
    /// [`Writer::abandon_source`]): the sources ended since the last commit
    /// are not in the database.
    pub fn take_lost(&mut self) -> bool {
        self.tx.take_lost()
    }

    /// Forgets what the lost transaction had made.
    fn forget_transaction(&mut self) {
        self.pending.clear();
        self.metrics.clear();
        self.file.forget_slots();
        self.sets.clear();
        self.batch.forget_row();
    }

    /// True when the open transaction should be committed: it has been open
    /// long enough, its pending measurements nearly fill their buffer, or
    /// some were inserted already (a source too large for the buffer).
    pub fn commit_due(&self) -> bool {
        (self.tx.is_open() && self.pending.nearly_full()) || self.tx.due(self.commit_every)
    }

    /// True while sources are written but not yet committed.
    pub fn in_transaction(&self) -> bool {
        self.tx.is_open()
    }

    /// Commits the sources ended so far (a source still open is abandoned
    /// first). On error nothing since the last commit is kept.
    pub fn commit(&mut self) -> Result<()> {
        if self.source.is_some() {
            self.abandon_source()?;
        }
        if !self.tx.is_open() {
            return Ok(());
        }
        let done = match self.flush() {
            // A commit that fails rolls back: the transaction is lost.
            Ok(()) => self.tx.commit(),
            Err(e) => {
                self.tx.roll_back();
                Err(e)
            }
        };
        if done.is_err() {
            self.forget_transaction();
        }
        done
    }

    /// Removes what `path` holds — its sources, their runs — inside the
    /// writer's transaction, returning how many runs went: a log ingested
    /// before whose new bytes are refused keeps nothing of its earlier
    /// ones, as a database built afresh would hold nothing of it.
    pub fn forget_path(&mut self, path: &str) -> Result<u64> {
        if self.source.is_some() {
            return Err(Error::internal("a path was forgotten while a source was being written"));
        }
        let runs: u64 = self
            .conn
            .query_row(
                "SELECT count(*) FROM run WHERE source_id IN (SELECT id FROM source WHERE path = ?1)",
                [path],
                |r| r.get(0),
            )
            .at(&self.path)?;
        let stored: bool = self
            .conn
            .query_row("SELECT EXISTS (SELECT 1 FROM source WHERE path = ?1)", [path], |r| r.get(0))
            .at(&self.path)?;
        if !stored {
            return Ok(0);
        }
        self.tx.begin()?;
        if delete_path(self.conn, path).at(&self.path)? {
            self.delete_orphans()?;
        }
        Ok(runs)
    }

    /// What is stored for a path (see [`Store::stored_source`]).
    pub fn stored_source(&self, path: &str) -> Result<Option<StoredSource>> {
        stored_source(self.conn, path).at(&self.path)
    }

    /// Records that a stored source still holds the same bytes (see
    /// [`Store::refresh_source`]), inside the writer's transaction.
    pub fn refresh_source(&mut self, id: i64, seen: &Seen, time: Option<&RunTime>) -> Result<()> {
        self.tx.begin()?;
        refresh_source(self.conn, id, seen, time).at(&self.path)
    }

    /// What the last source ended converted (see [`UnitConversion`]).
    pub fn take_conversions(&mut self) -> Vec<UnitConversion> {
        std::mem::take(&mut self.ended_conversions)
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Writer<'_> {
    fn drop(&mut self) {
        // The transaction rolls itself back as it is dropped (after this),
        // with the batch row if it was made in it.
        if self.tx.is_open() && !self.conn.is_autocommit() {
            self.batch.forget_row();
        }
    }
}
