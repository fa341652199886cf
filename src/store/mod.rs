//! The store: all SQL lives here. A `SQLite` database (WAL, busy timeout) whose
//! schema is created and upgraded by the numbered migrations in
//! `db/migrations/`, applied in one transaction when the database opens.
//!
//! Opening and migrating is in `open`, waiting for another writer in `lock`,
//! the writer of an ingest command in `writer` (with its `batch`, and its
//! parts: `transaction`, `open_source`, `metric_ids`, `param_set_ids`,
//! `file_metrics`, `measurements`, `units`), source bookkeeping in
//! `sources`, reading runs back in `read`, the params' stored JSON form
//! in `params`, and the data generation with the evaluation cache in
//! `evaluations`.

mod batch;
mod evaluations;
mod file_metrics;
mod lock;
mod measurements;
mod metric_ids;
mod open;
mod open_source;
mod param_set_ids;
mod params;
mod read;
mod sources;
mod transaction;
mod units;
mod writer;

#[cfg(test)]
pub(crate) mod builder;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rusqlite::Connection;

pub use batch::Batch;
pub use evaluations::{keep_evaluations, EvaluationKey};
pub use open::SCHEMA_VERSION;
pub use params::{encode_params, labels_json, write_labels_json, LabelRef};
pub use read::ScannedRun;
pub use units::UnitConversion;
pub use writer::Writer;

use crate::metric::Direction;
use crate::run::Value;
use crate::{Error, Result};

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

/// Now, as the RFC 3339 UTC text the store keeps.
pub fn now_rfc3339() -> String {
    chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// How long a store's writers wait for each other and how long an
/// ingest's transaction stays open: a project's `[limits]`, given to each
/// store it opens (two projects in one command each keep their own).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// How long a command waits for another process's write to the
    /// database before giving up (`lock_wait_seconds`).
    pub lock_wait: std::time::Duration,
    /// How long a transaction of many sources stays open at most
    /// (`commit_seconds`; see [`Writer`]).
    pub commit_every: std::time::Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { lock_wait: std::time::Duration::from_secs(600), commit_every: std::time::Duration::from_secs(2) }
    }
}

/// An open database. The methods are spread over the submodules by what
/// they do (open, write, keep sources, read).
pub struct Store {
    // Declared before `wait`, so closed before it: the connection's busy
    // handler points at `wait`.
    conn: Connection,
    path: PathBuf,
    limits: Limits,
    wait: Box<lock::Wait>,
}

impl Store {
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The limits the store was opened with (for another connection to it).
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The connection, for read-only SQL (`reckon:sql` regions).
    pub fn connection(&self) -> &Connection {
        &self.conn
    }
}

fn db_err(path: &Path, msg: impl Into<String>) -> Error {
    Error::Database { path: path.to_path_buf(), msg: msg.into() }
}

/// A failure of `SQLite` on the database `wait` waits for, in the
/// researcher's words: a damaged file says what to run, a busy one who
/// holds it and how long this connection waited.
fn db_failure(wait: &lock::Wait, e: &rusqlite::Error) -> Error {
    match damage(e) {
        Some(detail) => Error::DamagedDatabase { path: wait.db().to_path_buf(), detail },
        None => db_err(wait.db(), lock::friendly(e, wait)),
    }
}

/// What `SQLite` said, when it found the file damaged.
fn damage(e: &rusqlite::Error) -> Option<String> {
    match e {
        rusqlite::Error::SqliteFailure(f, msg) if f.code == rusqlite::ErrorCode::DatabaseCorrupt => {
            Some(msg.clone().unwrap_or_else(|| "database disk image is malformed".into()))
        }
        _ => None,
    }
}

/// Names the database a failed SQL statement ran on.
trait AtDb<T> {
    fn at(self, db: &Path) -> Result<T>;
}

impl<T> AtDb<T> for rusqlite::Result<T> {
    fn at(self, db: &Path) -> Result<T> {
        self.map_err(|source| match damage(&source) {
            Some(detail) => Error::DamagedDatabase { path: db.to_path_buf(), detail },
            None => Error::Sql { path: db.to_path_buf(), source },
        })
    }
}

#[cfg(test)]
mod tests;
