//! The data generation and the evaluation cache (migration 6): what each
//! region and claim of a document last evaluated to, so a check of an
//! unchanged project evaluates nothing. The generation moves whenever the
//! data do (triggers on the tables a source's rows live in); the store only
//! keeps opaque outcomes by key, and `review::cache` decides what a key
//! covers and what an outcome holds.
//!
//! Both are a cache: a miss is evaluated as if they were not there, and a
//! cache that cannot be read or written changes nothing but the time.

use std::path::Path;
use std::time::Duration;

use rusqlite::{params, Connection, OpenFlags, OptionalExtension};

use super::{AtDb, Store, SCHEMA_VERSION};
use crate::Result;

/// A key of the evaluation cache: a digest of everything that decides an
/// outcome, the generation included.
pub type EvaluationKey = [u8; 32];

/// How long keeping outcomes waits for another writer (an ingest running
/// beside the check) before it gives up: a cache not written costs the next
/// check time, never an answer.
const KEEP_WAIT: Duration = Duration::from_millis(250);

impl Store {
    /// The data generation: a number that moves whenever the data move.
    pub fn generation(&self) -> Result<i64> {
        self.conn.query_row("SELECT value FROM data_generation WHERE id = 1", [], |r| r.get(0)).at(&self.path)
    }

    /// The outcome kept under `key`, if any.
    pub fn evaluation(&self, key: &EvaluationKey) -> Result<Option<Vec<u8>>> {
        self.conn
            .prepare_cached("SELECT outcome FROM evaluation_cache WHERE key = ?1")
            .and_then(|mut s| s.query_row([&key[..]], |r| r.get(0)).optional())
            .at(&self.path)
    }
}

/// Keeps `outcomes`, evaluated at `generation`, in the database at `path`
/// — unless its data moved on since (another ingest committed meanwhile:
/// what was evaluated may mix two generations), it is of another schema,
/// or another writer holds it. Outcomes of older generations are dropped.
/// Returns whether they were kept.
pub fn keep_evaluations(path: &Path, generation: i64, outcomes: &[(EvaluationKey, Vec<u8>)]) -> Result<bool> {
    if outcomes.is_empty() || path.as_os_str() == ":memory:" || !path.is_file() {
        return Ok(false);
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let mut conn = Connection::open_with_flags(path, flags).at(path)?;
    conn.busy_timeout(KEEP_WAIT).at(path)?;
    keep_on(&mut conn, generation, outcomes).at(path)
}

fn keep_on(conn: &mut Connection, generation: i64, outcomes: &[(EvaluationKey, Vec<u8>)]) -> rusqlite::Result<bool> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version != SCHEMA_VERSION {
        return Ok(false);
    }
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let now: i64 = tx.query_row("SELECT value FROM data_generation WHERE id = 1", [], |r| r.get(0))?;
    if now != generation {
        return Ok(false);
    }
    tx.execute("DELETE FROM evaluation_cache WHERE generation != ?1", [generation])?;
    {
        let mut insert = tx.prepare_cached(
            "INSERT INTO evaluation_cache (key, generation, outcome) VALUES (?1, ?2, ?3) \
             ON CONFLICT(key) DO UPDATE SET generation = excluded.generation, outcome = excluded.outcome",
        )?;
        for (key, outcome) in outcomes {
            insert.execute(params![&key[..], generation, outcome])?;
        }
    }
    tx.commit()?;
    Ok(true)
}
