//! The store: all SQL lives here. A `SQLite` database (WAL, busy timeout) whose
//! schema is created and upgraded by the numbered migrations in
//! `db/migrations/`, applied in one transaction when the database opens.
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    clippy::format_push_string,
    clippy::index_refutable_slice
)] // floor-plan debt (issue 7): fix these and delete this line

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{params, Connection, OpenFlags, OptionalExtension, TransactionBehavior};

use crate::metric::{self, Direction};
use crate::run::{RawRun, Value};
use crate::{Error, Result};

/// The migrations, in order; `PRAGMA user_version` counts those applied.
const MIGRATIONS: &[&str] =
    &[include_str!("../../db/migrations/0001_init.sql"), include_str!("../../db/migrations/0002_source_cache.sql")];

/// The schema version this reckon writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// A run as the store holds it, with its provenance.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRecord {
    pub id: i64,
    pub source: String,
    pub line: u64,
    /// RFC 3339 UTC.
    pub time: String,
    /// Where the time came from: `log`, `path`, `git` or `mtime`.
    pub time_origin: String,
    /// The UTC date of the run time; runs of one sweep aggregate together.
    pub sweep: String,
    pub params: BTreeMap<String, Value>,
}

/// A metric name with its unit and built-in direction.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricInfo {
    pub name: String,
    pub unit: Option<String>,
    pub direction: Direction,
}

/// A source file already in the store.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceRecord {
    pub id: i64,
    pub path: String,
    pub hash: String,
    pub size: u64,
    pub format: String,
    pub runs: u64,
}

/// Describes the file about to be ingested.
#[derive(Debug, Clone)]
pub struct NewSource<'a> {
    pub path: &'a str,
    pub hash: &'a str,
    pub format: &'a str,
    pub labels: &'a BTreeMap<String, Value>,
    /// What the file looked like when it was read, to know later without
    /// reading it whether it still holds these bytes.
    pub seen: Seen,
    /// The run time of runs without their own.
    pub time: Option<&'a RunTime>,
}

/// How a file looked when reckon last read it, and what decided its runs'
/// time: enough to tell, from its metadata alone, that it is unchanged.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Seen {
    pub size: u64,
    /// Modification time in nanoseconds since the epoch, if known.
    pub mtime_ns: Option<i64>,
    /// Status-change time (Unix): any write changes it, and unlike the
    /// modification time it cannot be set back.
    pub ctime_ns: Option<i64>,
    pub inode: Option<i64>,
    /// Wall clock (ns since the epoch) just before the file was read.
    pub checked_ns: Option<i64>,
    /// The git HEAD when the run time was decided.
    pub git_head: Option<String>,
}

/// What the store holds for one path: its content hash, labels and how the
/// file looked when it was read.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredSource {
    pub id: i64,
    pub hash: String,
    /// The labels, as the JSON the store keeps.
    pub labels: String,
    pub format: String,
    pub seen: Seen,
    pub time: Option<RunTime>,
}

/// The batch the current command's sources are recorded under; created in
/// the database with the first source that is new.
#[derive(Debug, Clone)]
pub struct Batch {
    pub command: String,
    git_commit: GitCommit,
    pub started_at: String,
    id: Option<i64>,
}

/// The commit a batch records: known, or asked of git only when the batch
/// row is written (a command that adds nothing runs no git).
#[derive(Debug, Clone)]
enum GitCommit {
    Known(Option<String>),
    HeadOf(PathBuf),
}

impl Batch {
    pub fn new(command: String, git_commit: Option<String>) -> Self {
        Batch { command, git_commit: GitCommit::Known(git_commit), started_at: now_rfc3339(), id: None }
    }

    /// A batch that records the HEAD commit of the repository at `root`,
    /// looked up when the first source is written.
    pub fn at_head_of(command: String, root: &Path) -> Self {
        Batch { command, git_commit: GitCommit::HeadOf(root.to_path_buf()), started_at: now_rfc3339(), id: None }
    }

    fn git_commit(&mut self) -> Option<String> {
        if let GitCommit::HeadOf(root) = &self.git_commit {
            self.git_commit = GitCommit::Known(crate::ingest::git_head(root));
        }
        match &self.git_commit {
            GitCommit::Known(c) => c.clone(),
            GitCommit::HeadOf(_) => None,
        }
    }
}

/// The time every run of a source gets unless the log has its own.
#[derive(Debug, Clone, PartialEq)]
pub struct RunTime {
    pub time: String,
    /// `path`, `label`, `git` or `mtime`.
    pub origin: &'static str,
}

impl RunTime {
    fn origin_named(name: &str) -> &'static str {
        match name {
            "path" => "path",
            "git" => "git",
            "label" => "label",
            "log" => "log",
            _ => "mtime",
        }
    }
}

pub fn now_rfc3339() -> String {
    chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

pub struct Store {
    conn: Connection,
    path: PathBuf,
}

fn db_err(path: &Path, msg: impl Into<String>) -> Error {
    Error::Database { path: path.to_path_buf(), msg: msg.into() }
}

impl Store {
    /// Opens (creating if needed) the database at `path` for reading and
    /// writing, applying any pending migrations.
    pub fn open(path: &Path) -> Result<Store> {
        check_is_sqlite(path)?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        if path.exists() {
            let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
            if meta.permissions().readonly() {
                return Err(db_err(path, "is read-only; reckon needs to write to it (check its permissions, or pass --db to use another file)"));
            }
        }
        let conn = Connection::open(path).map_err(|e| db_err(path, format!("cannot open: {e}")))?;
        let mut store = Store { conn, path: path.to_path_buf() };
        store.configure()?;
        store.migrate()?;
        Ok(store)
    }

    /// Opens an existing database without writing to it. A missing database
    /// reads as empty.
    pub fn open_read_only(path: &Path) -> Result<Store> {
        if !path.exists() {
            return Store::open_in_memory();
        }
        check_is_sqlite(path)?;
        let conn =
            Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
                .map_err(|e| db_err(path, format!("cannot open: {e}")))?;
        wait_for_writers(&conn, path)?;
        let store = Store { conn, path: path.to_path_buf() };
        let version = store.user_version()?;
        if version > SCHEMA_VERSION {
            return Err(newer_schema(path, version));
        }
        if version < SCHEMA_VERSION {
            return Err(db_err(path, format!("has schema version {version}, this reckon needs {SCHEMA_VERSION}: run `reckon ingest` once to upgrade it")));
        }
        Ok(store)
    }

    /// A fresh database in memory, for tests and for documents checked
    /// before anything was ingested.
    pub fn open_in_memory() -> Result<Store> {
        let conn = Connection::open_in_memory()?;
        let mut store = Store { conn, path: PathBuf::from(":memory:") };
        store.configure()?;
        store.migrate()?;
        Ok(store)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The connection, for read-only SQL (`reckon:sql` regions).
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    fn configure(&mut self) -> Result<()> {
        let path = self.path.clone();
        let c = &self.conn;
        wait_for_writers(c, &path)?;
        // Foreign keys stay declared but unenforced: ingest only inserts ids it has
        // just created, and enforcing them costs two B-tree lookups per measurement.
        c.pragma_update(None, "foreign_keys", "OFF")?;
        if path.as_os_str() != ":memory:" {
            let mode = switch_to_wal(c).map_err(|e| db_err(&path, friendly(&e)))?;
            if !mode.eq_ignore_ascii_case("wal") {
                return Err(db_err(&path, format!("could not switch to WAL journal mode (got {mode})")));
            }
        }
        c.pragma_update(None, "synchronous", "NORMAL")?;
        Ok(())
    }

    fn user_version(&self) -> Result<i64> {
        self.conn.query_row("PRAGMA user_version", [], |r| r.get(0)).map_err(|e| db_err(&self.path, friendly(&e)))
    }

    fn migrate(&mut self) -> Result<()> {
        let path = self.path.clone();
        let version = self.user_version()?;
        if version > SCHEMA_VERSION {
            return Err(newer_schema(&path, version));
        }
        if version == SCHEMA_VERSION {
            return Ok(());
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| db_err(&path, friendly(&e)))?;
        // Another process may have migrated while we waited for the lock.
        let version: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            tx.execute_batch(sql).map_err(|e| db_err(&path, format!("migration {} failed: {e}", i + 1)))?;
            tx.pragma_update(None, "user_version", (i + 1) as i64)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Starts writing sources: the writer of one ingest command, holding
    /// its prepared statements and id caches for the whole command.
    pub fn writer<'s>(&'s mut self, batch: &'s mut Batch) -> Result<Writer<'s>> {
        Writer::new(&self.conn, &self.path, batch)
    }

    /// Starts ingesting one source in its own transaction. Returns `None`
    /// when a source with the same content hash is already stored.
    pub fn begin_source<'s>(&'s mut self, batch: &'s mut Batch, src: &NewSource) -> Result<Option<SourceWriter<'s>>> {
        let mut writer = self.writer(batch)?;
        if writer.begin_source(src)? {
            return Ok(Some(SourceWriter { writer }));
        }
        // An earlier content of the path may have been deleted: keep that.
        writer.commit()?;
        Ok(None)
    }

    /// What is stored for a path: one source, or `None` when there is none
    /// (or, from an older reckon, several — replaced on the next ingest).
    pub fn stored_source(&self, path: &str) -> Result<Option<StoredSource>> {
        stored_source(&self.conn, path)
    }

    /// Records that a stored source's file was looked at again and still
    /// holds the same bytes; `time` (when given) is the run time it now
    /// gets, set on every run without a time of its own.
    pub fn refresh_source(&mut self, id: i64, seen: &Seen, time: Option<&RunTime>) -> Result<()> {
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| db_err(&path, friendly(&e)))?;
        refresh_source(&tx, id, seen, time)?;
        tx.commit()?;
        Ok(())
    }

    /// Every stored source path.
    pub fn source_paths(&self) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare_cached("SELECT DISTINCT path FROM source ORDER BY path")?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Removes the sources of these paths and their runs, in one
    /// transaction; returns how many runs went.
    pub fn remove_paths(&mut self, paths: &[String]) -> Result<u64> {
        if paths.is_empty() {
            return Ok(0);
        }
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| db_err(&path, friendly(&e)))?;
        let mut runs = 0u64;
        for p in paths {
            runs += tx.query_row(
                "SELECT count(*) FROM run WHERE source_id IN (SELECT id FROM source WHERE path = ?1)",
                [p],
                |r| r.get::<_, i64>(0),
            )? as u64;
            delete_path(&tx, p)?;
        }
        delete_orphans(&tx)?;
        tx.commit()?;
        Ok(runs)
    }

    /// Writes a consistent copy of the database to `to` (which must not
    /// exist), for work that must not change this one.
    pub fn copy_to(&self, to: &Path) -> Result<()> {
        self.conn
            .execute("VACUUM INTO ?1", [to.to_string_lossy()])
            .map_err(|e| db_err(&self.path, format!("cannot copy to {}: {e}", to.display())))?;
        Ok(())
    }

    /// Empties the database: every source, run, measurement and name.
    pub fn clear(&mut self) -> Result<()> {
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| db_err(&path, friendly(&e)))?;
        tx.execute_batch(
            "DELETE FROM measurement; DELETE FROM run; DELETE FROM source; DELETE FROM param_set; DELETE FROM metric; DELETE FROM batch;",
        )?;
        tx.commit()?;
        Ok(())
    }

    /// The labels a stored source (by content hash) was ingested with, as
    /// JSON, when they differ from `labels`.
    pub fn other_labels(&self, hash: &str, labels: &BTreeMap<String, Value>) -> Result<Option<String>> {
        other_labels(&self.conn, hash, labels)
    }

    /// Every run, oldest first, with its params.
    pub fn runs(&self) -> Result<Vec<RunRecord>> {
        let mut out = Vec::new();
        self.for_each_run(|run| out.push(run))?;
        Ok(out)
    }

    /// Every run, oldest first, handed over one at a time as its params are
    /// read, so a caller can index a run while it is still in cache.
    pub fn for_each_run(&self, mut each: impl FnMut(RunRecord)) -> Result<()> {
        // Sorted here, not by SQL: with the params in every row, SQLite's
        // sorter spills tens of thousands of runs to a temporary file.
        let mut stmt = self.conn.prepare_cached(
            "SELECT run.id, source.path, run.line, run.time, run.time_origin, run.sweep, run.param_set_id
             FROM run JOIN source ON source.id = run.source_id",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, String>(5)?,
                r.get::<_, i64>(6)?,
            ))
        })?;
        let mut rows = rows.collect::<rusqlite::Result<Vec<_>>>()?;
        // By time, then by file and line, never by id: ids record the order
        // files were ingested in, and a database rebuilt from the same logs
        // must order (and pick the `latest` run) the same. Text compares
        // bytewise, as SQL's ORDER BY would.
        rows.sort_unstable_by(|a, b| a.3.cmp(&b.3).then_with(|| a.1.cmp(&b.1)).then(a.2.cmp(&b.2)).then(a.0.cmp(&b.0)));
        // Runs of one configuration share a param set: each is parsed once.
        let mut sets: HashMap<i64, BTreeMap<String, Value>> = HashMap::new();
        let mut read = self.conn.prepare_cached("SELECT id, params FROM param_set")?;
        let mut set_rows = read.query([])?;
        while let Some(r) = set_rows.next()? {
            sets.insert(r.get(0)?, parse_params(r.get_ref(1)?.as_str().unwrap_or("{}")));
        }
        for (id, source, line, time, time_origin, sweep, set_id) in rows {
            let params = sets.get(&set_id).cloned().unwrap_or_default();
            each(RunRecord { id, source, line: line as u64, time, time_origin, sweep, params });
        }
        Ok(())
    }

    /// The values of one metric, by run id. `None` is a NaN in the log.
    pub fn metric_values(&self, metric: &str) -> Result<Vec<(i64, Option<f64>)>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT m.run_id, m.value FROM measurement m JOIN metric ON metric.id = m.metric_id WHERE metric.name = ?1",
        )?;
        let rows = stmt.query_map([metric], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Every metric with its unit and built-in direction, by name.
    pub fn metrics(&self) -> Result<Vec<MetricInfo>> {
        let mut stmt = self.conn.prepare_cached("SELECT name, unit, direction FROM metric ORDER BY name")?;
        let rows = stmt.query_map([], |r| {
            let dir: String = r.get(2)?;
            Ok(MetricInfo {
                name: r.get(0)?,
                unit: r.get(1)?,
                direction: Direction::parse(&dir).unwrap_or(Direction::Neutral),
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Every source with the number of runs it gave.
    pub fn sources(&self) -> Result<Vec<SourceRecord>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT s.id, s.path, s.hash, s.size, s.format, (SELECT count(*) FROM run WHERE run.source_id = s.id)
             FROM source s ORDER BY s.id",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(SourceRecord {
                id: r.get(0)?,
                path: r.get(1)?,
                hash: r.get(2)?,
                size: r.get::<_, i64>(3)? as u64,
                format: r.get(4)?,
                runs: r.get::<_, i64>(5)? as u64,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}

/// Writes the runs of one source inside its own transaction (a [`Writer`]
/// for a single source). Dropped without [`SourceWriter::commit`], it rolls
/// everything back.
pub struct SourceWriter<'s> {
    writer: Writer<'s>,
}

impl SourceWriter<'_> {
    /// Sets the sweeps that differ from the run time's date: `default` for
    /// runs without their own time, `named` (a `sweep` label) for every run.
    pub fn set_sweeps(&mut self, default: Option<String>, named: Option<String>) {
        self.writer.set_sweeps(default, named);
    }

    /// Adds one run. `labels` override params of the same name from the log.
    pub fn add_run(&mut self, run: &RawRun, labels: &BTreeMap<String, Value>, default_time: &RunTime) -> Result<()> {
        self.writer.add_run(run, labels, default_time)
    }

    /// How many runs were added so far.
    pub fn runs(&self) -> u64 {
        self.writer.source_runs()
    }

    /// Makes the source and its runs permanent.
    pub fn commit(mut self) -> Result<u64> {
        let runs = self.writer.end_source()?;
        self.writer.commit()?;
        Ok(runs)
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
    conn: &'s Connection,
    path: PathBuf,
    batch: &'s mut Batch,
    /// When the open transaction began; `None` outside one.
    tx_started: Option<std::time::Instant>,
    metric_ids: HashMap<String, i64>,
    /// Param set ids by their JSON text, for the sets this writer met
    /// lately: bounded by [`PARAM_SET_CACHE_BYTES`] (a log whose every run
    /// has its own params kept each one, 1 GiB for a 3 GiB JSONL), then
    /// emptied; the database's unique index finds the others.
    param_sets: HashMap<String, i64>,
    /// The bytes of the keys in `param_sets`.
    param_set_bytes: usize,
    /// Measurements not yet inserted.
    pending: Vec<(i64, i64, Option<f64>)>,
    /// Scratch for spotting a metric named twice in one record.
    ids: Vec<i64>,
    json: String,
    /// The source being written, if any.
    source: Option<OpenSource>,
    /// The open transaction was rolled back by `SQLite`.
    lost: bool,
    /// Sources begun in the open transaction.
    tx_sources: usize,
    insert_run: rusqlite::Statement<'s>,
    insert_measurement: rusqlite::Statement<'s>,
}

/// What a writer must undo if the source being written fails.
struct OpenSource {
    id: i64,
    runs: u64,
    /// `pending` rows before this one belong to earlier sources.
    pending_from: usize,
    /// Cache entries made while writing it: their rows go with the savepoint.
    new_metrics: Vec<String>,
    new_sets: Vec<String>,
    /// The batch row was created inside this source's savepoint.
    made_batch: bool,
    /// An earlier content of the path was deleted under this savepoint.
    replaced: bool,
    /// The sweep of runs that take the default time, when it is not that
    /// time's date (a `{date}` of year and month names the month).
    default_sweep: Option<String>,
    /// The sweep a `sweep` label names: every run of the source is in it,
    /// whatever its own time.
    named_sweep: Option<String>,
}

/// How many measurements a writer holds before inserting them. Each
/// sorted batch appends to the end of every metric's range whatever its
/// size; this bounds the memory held.
const FLUSH_ROWS: usize = 1 << 16;

/// The most bytes of params text the param-set cache of a writer holds.
/// Runs of one configuration are usually written together, so a small
/// cache catches nearly every repeat; 8 MiB holds tens of thousands of sets.
const PARAM_SET_CACHE_BYTES: usize = 8 << 20;

/// How long a transaction of many sources stays open before it is
/// committed, and how many sources it holds at most: enough that commits
/// cost little, few enough that a concurrent ingest waits briefly and a
/// kill loses little work.
const COMMIT_EVERY: Duration = Duration::from_millis(300);
const COMMIT_SOURCES: usize = 128;

impl<'s> Writer<'s> {
    fn new(conn: &'s Connection, path: &Path, batch: &'s mut Batch) -> Result<Writer<'s>> {
        Ok(Writer {
            insert_run: conn.prepare(
                "INSERT INTO run (source_id, line, time, time_origin, sweep, param_set_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?,
            insert_measurement: conn.prepare("INSERT INTO measurement (metric_id, run_id, value) VALUES (?1, ?2, ?3)")?,
            conn,
            path: path.to_path_buf(),
            batch,
            tx_started: None,
            metric_ids: HashMap::new(),
            param_sets: HashMap::new(),
            param_set_bytes: 0,
            pending: Vec::new(),
            ids: Vec::new(),
            json: String::new(),
            source: None,
            lost: false,
            tx_sources: 0,
        })
    }

    /// Starts a source inside the current transaction (opening one if
    /// needed), under its own savepoint. Returns false, with nothing
    /// written, when a source with the same content hash is stored.
    pub fn begin_source(&mut self, src: &NewSource) -> Result<bool> {
        if self.source.is_some() {
            return Err(Error::usage("internal: a source was begun before the previous one ended"));
        }
        if self.tx_started.is_none() {
            self.conn.execute_batch("BEGIN IMMEDIATE").map_err(|e| db_err(&self.path, friendly(&e)))?;
            // Who holds the write lock, for a process that has to wait for it.
            if self.path.as_os_str() != ":memory:" {
                let note = format!("{} {}\n", std::process::id(), self.batch.command);
                let _ = std::fs::write(writer_note(&self.path), note);
            }
            self.tx_started = Some(std::time::Instant::now());
            self.tx_sources = 0;
        }
        self.tx_sources += 1;
        self.conn.execute_batch("SAVEPOINT source")?;
        let made_batch = self.batch.id.is_none();
        let started = self.start_source(src);
        match started {
            Ok(Some((id, replaced))) => {
                self.source = Some(OpenSource {
                    id,
                    runs: 0,
                    pending_from: self.pending.len(),
                    new_metrics: Vec::new(),
                    new_sets: Vec::new(),
                    made_batch,
                    replaced,
                    default_sweep: None,
                    named_sweep: None,
                });
                Ok(true)
            }
            Ok(None) => {
                self.conn.execute_batch("RELEASE source")?;
                Ok(false)
            }
            Err(e) => {
                if made_batch {
                    self.batch.id = None;
                }
                if self.conn.is_autocommit() {
                    self.lost_transaction();
                } else {
                    self.conn.execute_batch("ROLLBACK TO source; RELEASE source")?;
                }
                Err(e)
            }
        }
    }

    /// Replaces what the path held and writes the source's row: its id, and
    /// whether an earlier content was deleted. `None` when the same bytes
    /// are stored (the earlier content of the path, if any, is deleted
    /// all the same).
    fn start_source(&mut self, src: &NewSource) -> Result<Option<(i64, bool)>> {
        let replaced = delete_path(self.conn, src.path)?;
        let exists: Option<i64> = self
            .conn
            .prepare_cached("SELECT id FROM source WHERE hash = ?1")?
            .query_row([src.hash], |r| r.get(0))
            .optional()?;
        if exists.is_some() {
            if replaced {
                self.delete_orphans()?;
            }
            return Ok(None);
        }
        Ok(Some((self.insert_source(src)?, replaced)))
    }

    /// Drops names no run uses any more (see [`delete_orphans`]); the id
    /// caches may name some of them, so they start over.
    fn delete_orphans(&mut self) -> Result<()> {
        self.flush()?;
        delete_orphans(self.conn)?;
        self.metric_ids.clear();
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
            self.conn.execute(
                "INSERT INTO batch (started_at, command, git_commit) VALUES (?1, ?2, ?3)",
                params![self.batch.started_at, self.batch.command, git_commit],
            )?;
            let id = self.conn.last_insert_rowid();
            self.batch.id = Some(id);
            id
        };
        self.conn
            .prepare_cached(
                "INSERT INTO source (path, hash, size, mtime_ns, format, batch_id, labels, ctime_ns, inode, checked_ns, time, time_origin, git_head)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
            )?
            .execute(params![
                src.path,
                src.hash,
                src.seen.size as i64,
                src.seen.mtime_ns,
                src.format,
                batch_id,
                params_json(src.labels.iter()),
                src.seen.ctime_ns,
                src.seen.inode,
                src.seen.checked_ns,
                src.time.map(|t| t.time.as_str()),
                src.time.map(|t| t.origin),
                src.seen.git_head,
            ])?;
        Ok(self.conn.last_insert_rowid())
    }

    /// Adds one run. `labels` override params of the same name from the log.
    pub fn add_run(&mut self, run: &RawRun, labels: &BTreeMap<String, Value>, default_time: &RunTime) -> Result<()> {
        let mut json = std::mem::take(&mut self.json);
        encode_params(run, labels, &mut json);
        let added = self.add_encoded(run, &json, default_time);
        self.json = json;
        added
    }

    /// Adds one run whose params (merged with the labels) were already
    /// encoded by [`encode_params`] — ingest encodes on its parsing thread.
    pub fn add_encoded(&mut self, run: &RawRun, params_json: &str, default_time: &RunTime) -> Result<()> {
        let Some(source) = self.source.as_mut() else {
            return Err(Error::usage("internal: a run was added outside a source"));
        };
        let (time, origin, sweep) = match &run.time {
            Some(t) => (t.as_str(), "log", None),
            None => (default_time.time.as_str(), default_time.origin, source.default_sweep.as_deref()),
        };
        // A sweep is the UTC date of the run time unless a label or a
        // month-only `{date}` names it.
        let sweep = source.named_sweep.as_deref().or(sweep).unwrap_or_else(|| time.get(..10).unwrap_or(time));
        let set_id = if let Some(id) = self.param_sets.get(params_json) {
            *id
        } else {
            self.conn
                .prepare_cached("INSERT INTO param_set (params) VALUES (?1) ON CONFLICT(params) DO NOTHING")?
                .execute([params_json])?;
            let id: i64 = self
                .conn
                .prepare_cached("SELECT id FROM param_set WHERE params = ?1")?
                .query_row([params_json], |r| r.get(0))?;
            if self.param_set_bytes + params_json.len() > PARAM_SET_CACHE_BYTES {
                self.param_sets = HashMap::new();
                self.param_set_bytes = 0;
                // Nothing made before is cached any more, so a rollback
                // has nothing of it to remove; keeping the list grew it
                // by every distinct set of the file (579 MiB peak for a
                // 3 GiB JSONL whose runs all differ).
                source.new_sets.clear();
            }
            self.param_set_bytes += params_json.len();
            self.param_sets.insert(params_json.to_string(), id);
            source.new_sets.push(params_json.to_string());
            id
        };
        self.insert_run.execute(params![source.id, run.line as i64, time, origin, sweep, set_id])?;
        let run_id = self.conn.last_insert_rowid();
        self.ids.clear();
        let first = self.pending.len();
        for m in &run.metrics {
            let metric_id = if let Some(id) = self.metric_ids.get(&m.name) {
                *id
            } else {
                let unit = m.unit.as_deref().or_else(|| metric::unit_from_name(&m.name));
                let direction = metric::direction_from_name(&m.name, unit);
                self.conn
                    .prepare_cached(
                        "INSERT INTO metric (name, unit, direction) VALUES (?1, ?2, ?3) ON CONFLICT(name) DO NOTHING",
                    )?
                    .execute(params![m.name, unit, direction.as_str()])?;
                let id: i64 = self
                    .conn
                    .prepare_cached("SELECT id FROM metric WHERE name = ?1")?
                    .query_row([&m.name], |r| r.get(0))?;
                self.metric_ids.insert(m.name.clone(), id);
                source.new_metrics.push(m.name.clone());
                id
            };
            let value = if m.value.is_nan() { None } else { Some(m.value) };
            self.ids.push(metric_id);
            self.pending.push((metric_id, run_id, value));
        }
        self.ids.sort_unstable();
        if let Some(w) = self.ids.windows(2).find(|w| w[0] == w[1]) {
            let name =
                run.metrics.iter().find(|m| self.metric_ids.get(&m.name) == Some(&w[0])).map_or("?", |m| &m.name);
            // The run row goes with the source's savepoint; its rows here go now.
            self.pending.truncate(first);
            return Err(Error::usage(format!("metric `{name}` appears twice in one record")));
        }
        source.runs += 1;
        if self.pending.len() >= FLUSH_ROWS {
            self.flush()?;
        }
        Ok(())
    }

    /// Inserts the pending measurements, sorted by the table's key.
    fn flush(&mut self) -> Result<()> {
        self.pending.sort_unstable_by_key(|&(m, r, _)| (m, r));
        for &(m, r, v) in &self.pending {
            self.insert_measurement.execute(params![m, r, v])?;
        }
        self.pending.clear();
        if let Some(source) = self.source.as_mut() {
            // What was pending of this source is now inside its savepoint.
            source.pending_from = 0;
        }
        Ok(())
    }

    /// How many runs the source being written has so far.
    pub fn source_runs(&self) -> u64 {
        self.source.as_ref().map_or(0, |s| s.runs)
    }

    /// Keeps the source being written: it becomes permanent with the
    /// transaction's commit. Returns its number of runs.
    pub fn end_source(&mut self) -> Result<u64> {
        let Some(source) = self.source.as_ref() else { return Ok(0) };
        let runs = source.runs;
        if source.replaced {
            // What the earlier content alone named goes with it.
            self.delete_orphans()?;
        }
        self.source = None;
        self.conn.execute_batch("RELEASE source")?;
        Ok(runs)
    }

    /// Undoes the source being written: the database is as without it.
    /// An error means the whole open transaction was lost (`SQLite` rolls a
    /// transaction back by itself on some failures, a full disk among
    /// them): the sources written since the last commit are absent too.
    pub fn abandon_source(&mut self) -> Result<()> {
        let Some(source) = self.source.take() else { return Ok(()) };
        self.pending.truncate(source.pending_from);
        for name in source.new_metrics {
            self.metric_ids.remove(&name);
        }
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
        self.conn.execute_batch("ROLLBACK TO source; RELEASE source")?;
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
        self.metric_ids.clear();
        self.param_sets.clear();
        self.param_set_bytes = 0;
        self.batch.id = None;
    }

    /// True when the open transaction has been open long enough to commit.
    pub fn commit_due(&self) -> bool {
        self.tx_started.is_some_and(|t| self.tx_sources >= COMMIT_SOURCES || t.elapsed() >= COMMIT_EVERY)
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
            self.conn.execute_batch("COMMIT").map_err(|e| db_err(&self.path, friendly(&e)))?;
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
        stored_source(self.conn, path)
    }

    /// Records that a stored source still holds the same bytes (see
    /// [`Store::refresh_source`]), inside the writer's transaction.
    pub fn refresh_source(&mut self, id: i64, seen: &Seen, time: Option<&RunTime>) -> Result<()> {
        if self.tx_started.is_none() {
            self.conn.execute_batch("BEGIN IMMEDIATE").map_err(|e| db_err(&self.path, friendly(&e)))?;
            self.tx_started = Some(std::time::Instant::now());
            self.tx_sources = 0;
        }
        refresh_source(self.conn, id, seen, time)
    }

    /// The labels a stored source (by content hash) was ingested with, when
    /// they differ from `labels` (see [`Store::other_labels`]).
    pub fn other_labels(&self, hash: &str, labels: &BTreeMap<String, Value>) -> Result<Option<String>> {
        other_labels(self.conn, hash, labels)
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

fn stored_source(conn: &Connection, path: &str) -> Result<Option<StoredSource>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, hash, labels, format, size, mtime_ns, ctime_ns, inode, checked_ns, git_head, time, time_origin
         FROM source WHERE path = ?1 LIMIT 2",
    )?;
    let mut rows = stmt.query_map([path], |r| {
        let time: Option<String> = r.get(10)?;
        let origin: Option<String> = r.get(11)?;
        Ok(StoredSource {
            id: r.get(0)?,
            hash: r.get(1)?,
            labels: r.get(2)?,
            format: r.get(3)?,
            seen: Seen {
                size: r.get::<_, i64>(4)? as u64,
                mtime_ns: r.get(5)?,
                ctime_ns: r.get(6)?,
                inode: r.get(7)?,
                checked_ns: r.get(8)?,
                git_head: r.get(9)?,
            },
            time: time.zip(origin).map(|(time, o)| RunTime { time, origin: RunTime::origin_named(&o) }),
        })
    })?;
    let first = rows.next().transpose()?;
    if rows.next().transpose()?.is_some() {
        return Ok(None);
    }
    Ok(first)
}

/// The updates of [`Store::refresh_source`], inside the caller's transaction.
fn refresh_source(conn: &Connection, id: i64, seen: &Seen, time: Option<&RunTime>) -> Result<()> {
    conn.prepare_cached(
        "UPDATE source SET size = ?2, mtime_ns = ?3, ctime_ns = ?4, inode = ?5, checked_ns = ?6, git_head = ?7 WHERE id = ?1",
    )?
    .execute(params![id, seen.size as i64, seen.mtime_ns, seen.ctime_ns, seen.inode, seen.checked_ns, seen.git_head])?;
    if let Some(t) = time {
        conn.execute("UPDATE source SET time = ?2, time_origin = ?3 WHERE id = ?1", params![id, t.time, t.origin])?;
        let sweep = t.time.get(..10).unwrap_or(&t.time);
        conn.execute(
            "UPDATE run SET time = ?2, time_origin = ?3, sweep = ?4 WHERE source_id = ?1 AND time_origin != 'log'",
            params![id, t.time, t.origin, sweep],
        )?;
    }
    Ok(())
}

fn other_labels(conn: &Connection, hash: &str, labels: &BTreeMap<String, Value>) -> Result<Option<String>> {
    let stored: Option<String> =
        conn.prepare_cached("SELECT labels FROM source WHERE hash = ?1")?.query_row([hash], |r| r.get(0)).optional()?;
    Ok(stored.filter(|s| *s != params_json(labels.iter())))
}

/// Deletes every source stored for `path` with its runs and their
/// measurements; true when there was one. Foreign keys are not enforced
/// (see `configure`), so the cascade is spelled out.
fn delete_path(tx: &Connection, path: &str) -> Result<bool> {
    let ids: Vec<i64> = tx
        .prepare_cached("SELECT id FROM source WHERE path = ?1")?
        .query_map([path], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    for id in &ids {
        // A source's runs were inserted in one transaction, so their ids
        // form one range: the range lets the (metric, run) key find them
        // metric by metric instead of scanning every measurement.
        let range: (Option<i64>, Option<i64>) =
            tx.query_row("SELECT min(id), max(id) FROM run WHERE source_id = ?1", [id], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })?;
        if let (Some(lo), Some(hi)) = range {
            tx.prepare_cached(
                "DELETE FROM measurement WHERE metric_id IN (SELECT id FROM metric) AND run_id BETWEEN ?1 AND ?2
                 AND run_id IN (SELECT id FROM run WHERE source_id = ?3)",
            )?
            .execute(params![lo, hi, id])?;
        }
        tx.prepare_cached("DELETE FROM run WHERE source_id = ?1")?.execute([id])?;
        tx.prepare_cached("DELETE FROM source WHERE id = ?1")?.execute([id])?;
    }
    Ok(!ids.is_empty())
}

/// Drops metric names and param sets no run uses any more, so that a
/// database that lost sources names exactly what a fresh one would.
fn delete_orphans(tx: &Connection) -> Result<()> {
    tx.execute_batch(
        "DELETE FROM metric WHERE NOT EXISTS (SELECT 1 FROM measurement WHERE measurement.metric_id = metric.id);
         DELETE FROM param_set WHERE id NOT IN (SELECT param_set_id FROM run);",
    )?;
    Ok(())
}

/// Puts the database in WAL mode. Switching needs an exclusive lock and
/// `SQLite` does not wait for it with the busy handler, so when another
/// process holds the database (two ingests starting on a new database) the
/// switch is retried for as long as the busy timeout would wait.
fn switch_to_wal(c: &Connection) -> rusqlite::Result<String> {
    let mode: String = c.query_row("PRAGMA journal_mode", [], |r| r.get(0))?;
    if mode.eq_ignore_ascii_case("wal") {
        return Ok(mode);
    }
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        match c.query_row("PRAGMA journal_mode=WAL", [], |r| r.get::<_, String>(0)) {
            Err(rusqlite::Error::SqliteFailure(f, _))
                if matches!(f.code, rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
                    && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(Duration::from_millis(10));
            }
            other => return other,
        }
    }
}

fn newer_schema(path: &Path, version: i64) -> Error {
    db_err(
        path,
        format!("was written by a newer reckon (schema version {version}; this reckon knows up to {SCHEMA_VERSION}). Upgrade reckon, or point --db at another file."),
    )
}

/// Refuses, with a clear message, a file that exists but is not `SQLite`.
fn check_is_sqlite(path: &Path) -> Result<()> {
    use std::io::Read;
    if path.is_dir() {
        return Err(db_err(path, "is a directory, not a database file"));
    }
    if let Ok(meta) = std::fs::metadata(path) {
        if !meta.is_file() {
            return Err(db_err(path, crate::fsguard::not_regular(&meta)));
        }
    }
    let Ok(mut f) = std::fs::File::open(path) else { return Ok(()) };
    let mut head = [0u8; 16];
    let n = f.read(&mut head).map_err(|e| Error::io(path, e))?;
    if n == 0 {
        return Ok(());
    }
    if n < 16 || &head != b"SQLite format 3\0" {
        return Err(db_err(path, "is not a SQLite database; point --db (or `database` in reckon.toml) at a reckon database, or move the file away"));
    }
    Ok(())
}

/// How long a command waits for another process's write to the database
/// before giving up (`[limits] lock_wait_seconds`), in milliseconds.
static LOCK_WAIT_MS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(600_000);

/// Sets how long writers wait for each other (from reckon.toml).
pub fn set_lock_wait(wait: Duration) {
    LOCK_WAIT_MS.store(wait.as_millis().max(1) as u64, std::sync::atomic::Ordering::Relaxed);
}

fn lock_wait() -> Duration {
    Duration::from_millis(LOCK_WAIT_MS.load(std::sync::atomic::Ordering::Relaxed))
}

/// The file where the process holding the write lock says who it is.
fn writer_note(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_os_string();
    name.push("-writer");
    PathBuf::from(name)
}

/// Who wrote to the database last, as its note says: "pid N (command)".
fn last_writer(db: &Path) -> Option<String> {
    let text = std::fs::read_to_string(writer_note(db)).ok()?;
    let (pid, command) = text.trim().split_once(' ')?;
    Some(format!("pid {pid}: {command}"))
}

struct Waiting {
    db: Option<PathBuf>,
    since: Option<std::time::Instant>,
    told: bool,
    waited: Duration,
}

thread_local! {
    /// The lock wait in progress on this thread: SQLite's busy handler is a
    /// plain function, so what it needs lives here.
    static WAITING: std::cell::RefCell<Waiting> =
        const { std::cell::RefCell::new(Waiting { db: None, since: None, told: false, waited: Duration::ZERO }) };
}

/// Waits for other writers instead of failing after a fixed time: a long
/// ingest in another process holds the write lock for as long as its file
/// takes. After a few seconds the wait is announced (naming the process
/// when it left its note), and after `[limits] lock_wait_seconds` it ends
/// in an error saying how long it waited.
fn wait_for_writers(conn: &Connection, db: &Path) -> Result<()> {
    WAITING.with(|w| w.borrow_mut().db = Some(db.to_path_buf()));
    conn.busy_handler(Some(busy))?;
    Ok(())
}

fn busy(count: i32) -> bool {
    WAITING.with(|w| {
        let mut w = w.borrow_mut();
        let now = std::time::Instant::now();
        if count == 0 || w.since.is_none() {
            w.since = Some(now);
            w.told = false;
        }
        let waited = now - w.since.unwrap_or(now);
        w.waited = waited;
        if waited >= lock_wait() {
            return false;
        }
        if !w.told && waited >= Duration::from_secs(3) {
            w.told = true;
            let who = w.db.as_deref().and_then(last_writer).map(|p| format!(" ({p})")).unwrap_or_default();
            eprintln!(
                "reckon: waiting for another process{who} to finish writing to the database; \
                 it can take as long as that ingest (giving up after {} s)",
                lock_wait().as_secs()
            );
        }
        drop(w);
        std::thread::sleep(Duration::from_millis(if count < 10 { 5 } else { 50 }));
        true
    })
}

fn friendly(e: &rusqlite::Error) -> String {
    match e {
        rusqlite::Error::SqliteFailure(f, _)
            if matches!(f.code, rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) =>
        {
            let (waited, who) = WAITING.with(|w| {
                let w = w.borrow();
                (w.waited, w.db.as_deref().and_then(last_writer))
            });
            let who = who.map(|p| format!(" (the last to write was {p})")).unwrap_or_default();
            format!(
                "is being written by another process{who}; waited {} s for it. Wait for it to finish, or raise \
                 `lock_wait_seconds` under [limits] in reckon.toml",
                waited.as_secs()
            )
        }
        rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::ReadOnly => {
            "is read-only; reckon needs to write to it (check its permissions, or pass --db to use another file)".into()
        }
        rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::NotADatabase => {
            "is not a SQLite database; point --db at a reckon database, or move the file away".into()
        }
        e => e.to_string(),
    }
}

/// A run's params merged with the labels (a label wins over the log's
/// param of the same name), as the JSON object the store keeps: keys
/// sorted, written into `out` (cleared first).
pub fn encode_params(run: &RawRun, labels: &BTreeMap<String, Value>, out: &mut String) {
    // Labels first so that, after a stable sort by name, a label comes
    // before the log's param of the same name and wins the dedup.
    let mut merged: Vec<(&str, &Value)> = Vec::with_capacity(labels.len() + run.params.len());
    merged.extend(labels.iter().map(|(k, v)| (k.as_str(), v)));
    merged.extend(run.params.iter().map(|(k, v)| (k.as_str(), v)));
    merged.sort_by(|a, b| a.0.cmp(b.0));
    merged.dedup_by(|later, first| later.0 == first.0);
    out.clear();
    write_params_json(out, merged.into_iter());
}

/// Labels as the JSON the store keeps with a source.
pub fn labels_json(labels: &BTreeMap<String, Value>) -> String {
    params_json(labels.iter())
}

fn params_json<'a>(params: impl Iterator<Item = (&'a String, &'a Value)>) -> String {
    let mut s = String::new();
    write_params_json(&mut s, params.map(|(k, v)| (k.as_str(), v)));
    s
}

/// Writes params as a JSON object. Non-finite numbers become the strings
/// "inf", "-inf", "nan" (JSON has no such numbers).
fn write_params_json<'a>(out: &mut String, params: impl Iterator<Item = (&'a str, &'a Value)>) {
    use std::fmt::Write;
    out.push('{');
    for (i, (k, v)) in params.enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_json_str(out, k);
        out.push(':');
        match v {
            Value::Num(n) if n.is_finite() => {
                let _ = write!(out, "{n}");
            }
            Value::Num(n) => write_json_str(out, &metric::format_number(*n)),
            Value::Text(t) => write_json_str(out, t),
        }
    }
    out.push('}');
}

fn write_json_str(out: &mut String, s: &str) {
    // JSON string escaping (RFC 8259 §7); plain text, the common case, is
    // copied in one piece.
    out.push('"');
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if escape.is_empty() {
            out.push_str(&format!("\\u{b:04x}"));
        } else {
            out.push_str(escape);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Reads a run's params JSON (an object of numbers and strings, keys
/// sorted, as [`write_params_json`] writes it); anything unreadable is no
/// params.
fn parse_params(json: &str) -> BTreeMap<String, Value> {
    serde_json::from_str::<Params>(json).map(|p| p.0).unwrap_or_default()
}

/// Params deserialized straight into [`Value`]s: loading every run for a
/// query reads tens of thousands of these, and going through
/// `serde_json::Value` built every map twice.
struct Params(BTreeMap<String, Value>);

/// One param value: numbers as numbers, strings as text, anything else
/// (null, booleans, arrays, objects) as its JSON text.
struct ParamValue(Value);

impl<'de> serde::Deserialize<'de> for Params {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Params, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Params;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object of params")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> std::result::Result<Params, A::Error> {
                let mut pairs: Vec<(String, Value)> = Vec::with_capacity(map.size_hint().unwrap_or(16));
                while let Some((k, ParamValue(v))) = map.next_entry::<String, ParamValue>()? {
                    pairs.push((k, v));
                }
                // Keys come sorted, so the map is built in bulk; a repeated
                // key keeps its last value, as inserting one by one would.
                Ok(Params(pairs.into_iter().collect()))
            }
        }
        d.deserialize_map(Visit)
    }
}

impl<'de> serde::Deserialize<'de> for ParamValue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<ParamValue, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = ParamValue;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a param value")
            }
            fn visit_f64<E>(self, v: f64) -> std::result::Result<ParamValue, E> {
                Ok(ParamValue(Value::Num(v)))
            }
            fn visit_i64<E>(self, v: i64) -> std::result::Result<ParamValue, E> {
                Ok(ParamValue(Value::Num(v as f64)))
            }
            fn visit_u64<E>(self, v: u64) -> std::result::Result<ParamValue, E> {
                Ok(ParamValue(Value::Num(v as f64)))
            }
            fn visit_str<E>(self, v: &str) -> std::result::Result<ParamValue, E> {
                Ok(ParamValue(Value::Text(v.to_string())))
            }
            fn visit_string<E>(self, v: String) -> std::result::Result<ParamValue, E> {
                Ok(ParamValue(Value::Text(v)))
            }
            fn visit_unit<E>(self) -> std::result::Result<ParamValue, E> {
                Ok(ParamValue(Value::Text("null".into())))
            }
            fn visit_bool<E>(self, v: bool) -> std::result::Result<ParamValue, E> {
                Ok(ParamValue(Value::Text(v.to_string())))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> std::result::Result<ParamValue, A::Error> {
                let v: serde_json::Value =
                    serde::Deserialize::deserialize(serde::de::value::SeqAccessDeserializer::new(seq))?;
                Ok(ParamValue(Value::Text(v.to_string())))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> std::result::Result<ParamValue, A::Error> {
                let v: serde_json::Value =
                    serde::Deserialize::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(ParamValue(Value::Text(v.to_string())))
            }
        }
        d.deserialize_any(Visit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_json_escapes_like_serde_json() {
        for text in ["plain", "quote \" and \\ backslash", "tab\tnew\nline\r", "nul \u{0} bell \u{7}", "ünïcödé ✓"]
        {
            let mut out = String::new();
            write_json_str(&mut out, text);
            assert_eq!(out, serde_json::to_string(text).unwrap());
        }
    }

    #[test]
    fn params_read_back_as_written_and_odd_json_reads_as_its_text() {
        let p = parse_params(
            r#"{"a":1,"b":"x","c":null,"d":true,"e":[1,"y"],"f":{"g":2},"h":-2.5e3,"i":18446744073709551615}"#,
        );
        assert_eq!(p["a"], Value::Num(1.0));
        assert_eq!(p["b"], Value::Text("x".into()));
        assert_eq!(p["c"], Value::Text("null".into()));
        assert_eq!(p["d"], Value::Text("true".into()));
        assert_eq!(p["e"], Value::Text(r#"[1,"y"]"#.into()));
        assert_eq!(p["f"], Value::Text(r#"{"g":2}"#.into()));
        assert_eq!(p["h"], Value::Num(-2500.0));
        assert_eq!(p["i"], Value::Num(u64::MAX as f64));
        assert_eq!(p.len(), 8);
        // A repeated key keeps its last value; unreadable JSON is no params.
        assert_eq!(parse_params(r#"{"k":1,"k":2}"#)["k"], Value::Num(2.0));
        assert!(parse_params("not json").is_empty());
        assert!(parse_params("[1]").is_empty());
        // What the store writes reads back.
        let labels: BTreeMap<String, Value> =
            [("config".to_string(), Value::Text("a\"b".into())), ("rate".to_string(), Value::Num(f64::INFINITY))]
                .into();
        let back = parse_params(&params_json(labels.iter()));
        assert_eq!(back["config"], Value::Text("a\"b".into()));
        assert_eq!(back["rate"], Value::Text("inf".into()));
    }

    fn run(line: u64, conc: f64, tput: f64) -> RawRun {
        let mut r = RawRun::new(line);
        r.param("max_concurrency", Value::Num(conc));
        r.param("backend", Value::Text("sglang".into()));
        r.metric("output_throughput", tput);
        r.metric("mean_ttft_ms", f64::NAN);
        r
    }

    #[test]
    fn a_source_goes_in_whole_and_only_once() {
        let mut store = Store::open_in_memory().unwrap();
        let mut batch = Batch::new("test".into(), None);
        let labels: BTreeMap<String, Value> = [
            ("config".to_string(), Value::Text("baseline".into())),
            // A label overrides the log's param of the same name.
            ("backend".to_string(), Value::Text("sglang-patched".into())),
        ]
        .into();
        let t = RunTime { time: "2026-11-29T00:00:00Z".into(), origin: "path" };
        let seen = Seen { size: 10, mtime_ns: Some(7), ..Seen::default() };
        let src =
            NewSource { path: "a.jsonl", hash: "h1", format: "sglang-jsonl", labels: &labels, seen, time: Some(&t) };
        let mut w = store.begin_source(&mut batch, &src).unwrap().unwrap();
        w.add_run(&run(1, 1.0, 92.7), &labels, &t).unwrap();
        w.add_run(&run(2, 2.0, 175.0), &labels, &t).unwrap();
        assert_eq!(w.commit().unwrap(), 2);
        let copy = NewSource { path: "copy-of-a.jsonl", ..src.clone() };
        assert!(store.begin_source(&mut batch, &copy).unwrap().is_none(), "the same bytes elsewhere add nothing");

        // A source dropped without commit leaves nothing behind.
        let src2 = NewSource { hash: "h2", ..src.clone() };
        let mut w = store.begin_source(&mut batch, &src2).unwrap().unwrap();
        w.add_run(&run(1, 4.0, 318.2), &labels, &t).unwrap();
        drop(w);

        let runs = store.runs().unwrap();
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[0].params["config"], Value::Text("baseline".into()));
        assert_eq!(runs[0].params["max_concurrency"], Value::Num(1.0));
        assert_eq!(runs[0].params["backend"], Value::Text("sglang-patched".into()));
        assert_eq!(runs[0].sweep, "2026-11-29");
        let values = store.metric_values("output_throughput").unwrap();
        assert_eq!(values.len(), 2);
        assert_eq!(store.metric_values("mean_ttft_ms").unwrap()[0].1, None, "NaN is stored as NULL");
        assert_eq!(store.sources().unwrap().len(), 1);
        let stored = store.stored_source("a.jsonl").unwrap().unwrap();
        assert_eq!((stored.hash.as_str(), stored.seen.size, stored.seen.mtime_ns), ("h1", 10, Some(7)));
        assert_eq!(stored.time, Some(t.clone()));
        assert!(stored.labels.contains("sglang-patched"));
        assert!(store.stored_source("b.jsonl").unwrap().is_none());
        assert_eq!(store.other_labels("h1", &labels).unwrap(), None);
        assert!(store.other_labels("h1", &BTreeMap::new()).unwrap().unwrap().contains("baseline"));
        let m = store.metrics().unwrap();
        assert_eq!(m.iter().find(|m| m.name == "output_throughput").unwrap().direction, Direction::Higher);
    }

    #[test]
    fn a_path_ingested_again_replaces_its_runs_and_a_removed_path_leaves_no_trace() {
        let mut store = Store::open_in_memory().unwrap();
        let mut batch = Batch::new("test".into(), None);
        let labels = BTreeMap::new();
        let t = RunTime { time: "2026-11-29T00:00:00Z".into(), origin: "path" };
        let ingest = |store: &mut Store, batch: &mut Batch, path: &str, hash: &str, runs: &[RawRun]| {
            let src = NewSource { path, hash, format: "jsonl", labels: &labels, seen: Seen::default(), time: Some(&t) };
            let mut w = store.begin_source(batch, &src).unwrap().unwrap();
            for r in runs {
                w.add_run(r, &labels, &t).unwrap();
            }
            w.commit().unwrap();
        };
        ingest(&mut store, &mut batch, "a.jsonl", "h1", &[run(1, 1.0, 1.0), run(2, 2.0, 2.0)]);
        let mut only_in_b = run(1, 8.0, 8.0);
        only_in_b.metric("p99_itl_ms", 3.0);
        ingest(&mut store, &mut batch, "b.jsonl", "h2", &[only_in_b]);
        // a.jsonl grew by one record: its runs are replaced, not added to.
        ingest(&mut store, &mut batch, "a.jsonl", "h3", &[run(1, 1.0, 1.0), run(2, 2.0, 2.0), run(3, 4.0, 4.0)]);
        assert_eq!(store.runs().unwrap().len(), 4);
        assert_eq!(store.metric_values("output_throughput").unwrap().len(), 4);
        assert_eq!(store.stored_source("a.jsonl").unwrap().unwrap().hash, "h3");

        assert_eq!(store.remove_paths(&["b.jsonl".to_string()]).unwrap(), 1);
        let runs = store.runs().unwrap();
        assert_eq!(runs.len(), 3);
        assert!(runs.iter().all(|r| r.source == "a.jsonl"));
        assert_eq!(store.metric_values("output_throughput").unwrap().len(), 3);
        assert!(store.metrics().unwrap().iter().all(|m| m.name != "p99_itl_ms"), "a metric no run has is gone");
        let sets: i64 = store.conn.query_row("SELECT count(*) FROM param_set", [], |r| r.get(0)).unwrap();
        assert_eq!(sets, 3, "param sets no run uses are gone");
        let measurements: i64 = store.conn.query_row("SELECT count(*) FROM measurement", [], |r| r.get(0)).unwrap();
        assert_eq!(measurements, 6);
    }

    #[test]
    fn sources_share_a_transaction_and_a_failed_one_leaves_nothing_not_even_cached_ids() {
        let mut store = Store::open_in_memory().unwrap();
        let mut batch = Batch::new("test".into(), None);
        let labels = BTreeMap::new();
        let t = RunTime { time: "2026-11-29T00:00:00Z".into(), origin: "path" };
        let src = |hash: &'static str| NewSource {
            path: hash,
            hash,
            format: "jsonl",
            labels: &labels,
            seen: Seen::default(),
            time: Some(&t),
        };
        let mut novel = run(1, 7.0, 2.0);
        novel.metric("only_in_b", 3.0);
        let mut w = store.writer(&mut batch).unwrap();
        assert!(w.begin_source(&src("a")).unwrap());
        w.add_run(&run(1, 1.0, 1.0), &labels, &t).unwrap();
        assert_eq!(w.end_source().unwrap(), 1);
        // A new metric and param set, then the source fails: both go with it.
        assert!(w.begin_source(&src("b")).unwrap());
        w.add_run(&novel, &labels, &t).unwrap();
        w.abandon_source().unwrap();
        // The same names again must be created again, not taken from a cache.
        assert!(w.begin_source(&src("c")).unwrap());
        w.add_run(&novel, &labels, &t).unwrap();
        w.add_run(&run(2, 1.0, 1.5), &labels, &t).unwrap();
        assert_eq!(w.end_source().unwrap(), 2);
        let copy = NewSource { path: "copy-of-a", ..src("a") };
        assert!(!w.begin_source(&copy).unwrap(), "the same bytes twice, within one transaction");
        w.commit().unwrap();
        drop(w);
        let c = store.connection();
        let n = |sql: &str| c.query_row(sql, [], |r| r.get::<_, i64>(0)).unwrap();
        assert_eq!(n("SELECT count(*) FROM source"), 2);
        assert_eq!(n("SELECT count(*) FROM source WHERE hash = 'b'"), 0);
        assert_eq!(n("SELECT count(*) FROM run"), 3);
        assert_eq!(n("SELECT count(*) FROM measurement"), 7);
        assert_eq!(n("SELECT count(*) FROM measurement WHERE metric_id NOT IN (SELECT id FROM metric)"), 0);
        assert_eq!(n("SELECT count(*) FROM run WHERE param_set_id NOT IN (SELECT id FROM param_set)"), 0);
        assert_eq!(n("SELECT count(*) FROM run WHERE source_id NOT IN (SELECT id FROM source)"), 0);
        assert_eq!(n("SELECT count(*) FROM batch"), 1);
    }

    #[test]
    fn the_param_set_cache_stays_bounded_and_sets_are_still_shared() {
        let mut store = Store::open_in_memory().unwrap();
        let mut batch = Batch::new("test".into(), None);
        let labels = BTreeMap::new();
        let t = RunTime { time: "2026-11-29T00:00:00Z".into(), origin: "path" };
        let src =
            NewSource { path: "a", hash: "h", format: "jsonl", labels: &labels, seen: Seen::default(), time: Some(&t) };
        let mut w = store.begin_source(&mut batch, &src).unwrap().unwrap();
        // 200 distinct param sets of ~100 KB each: 20 MB of keys, more
        // than the cache holds; then the first set again.
        let big = "x".repeat(100_000);
        for i in 0..201 {
            let mut r = run(i + 1, (i % 200) as f64, 1.0);
            r.param("note", Value::Text(big.clone()));
            w.add_run(&r, &labels, &t).unwrap();
            assert!(w.writer.param_set_bytes <= PARAM_SET_CACHE_BYTES);
            let undo: usize = w.writer.source.as_ref().map_or(0, |s| s.new_sets.iter().map(String::len).sum());
            assert!(undo <= PARAM_SET_CACHE_BYTES, "the rollback list is bounded like the cache: {undo} bytes");
        }
        w.commit().unwrap();
        let sets: i64 = store.conn.query_row("SELECT count(*) FROM param_set", [], |r| r.get(0)).unwrap();
        assert_eq!(sets, 200, "the repeated set is found in the database, not stored twice");
    }

    #[test]
    fn runs_come_oldest_first_then_by_id() {
        let mut store = Store::open_in_memory().unwrap();
        let mut batch = Batch::new("test".into(), None);
        let labels = BTreeMap::new();
        // Ingested newest first: ids run against time.
        for (hash, time) in
            [("h1", "2026-11-29T10:00:00Z"), ("h2", "2026-11-20T10:00:00Z"), ("h3", "2026-11-29T09:00:00Z")]
        {
            let src =
                NewSource { path: hash, hash, format: "jsonl", labels: &labels, seen: Seen::default(), time: None };
            let t = RunTime { time: time.into(), origin: "log" };
            let mut w = store.begin_source(&mut batch, &src).unwrap().unwrap();
            w.add_run(&run(1, 1.0, 1.0), &labels, &t).unwrap();
            w.add_run(&run(2, 2.0, 2.0), &labels, &t).unwrap();
            w.commit().unwrap();
        }
        let order: Vec<(String, u64)> = store.runs().unwrap().into_iter().map(|r| (r.source, r.line)).collect();
        let expect = [("h2", 1), ("h2", 2), ("h3", 1), ("h3", 2), ("h1", 1), ("h1", 2)];
        assert_eq!(order, expect.map(|(s, l)| (s.to_string(), l)));
    }

    #[test]
    fn a_database_from_a_newer_reckon_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.sqlite");
        drop(Store::open(&path).unwrap());
        let c = Connection::open(&path).unwrap();
        c.pragma_update(None, "user_version", SCHEMA_VERSION + 1).unwrap();
        drop(c);
        let err = Store::open(&path).err().unwrap().to_string();
        assert!(err.contains("newer reckon"), "{err}");
    }

    #[test]
    fn a_file_that_is_not_sqlite_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.sqlite");
        std::fs::write(&path, "hello, I am a text file and not a database at all").unwrap();
        let err = Store::open(&path).err().unwrap().to_string();
        assert!(err.contains("not a SQLite database"), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "hello, I am a text file and not a database at all");
    }
}
