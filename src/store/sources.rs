//! Source bookkeeping: what is stored for a path, a file seen again with
//! the same bytes, a changed file replacing its runs, a gone file losing
//! them, and the names no run uses any more.

use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};

use super::params::labels_json;
use super::{db_err, db_failure, AtDb, NewSource, RunTime, Seen, SourceRecord, Store, StoredSource};
use crate::Result;

impl Store {
    /// What is stored for a path: one source, or `None` when there is none
    /// (or, from an older reckon, several — replaced on the next ingest).
    pub fn stored_source(&self, path: &str) -> Result<Option<StoredSource>> {
        stored_source(&self.conn, path).at(&self.path)
    }

    /// Every stored source with its path, read in one query and handed to
    /// `each` row by row (none is held here): the "nothing changed" test of
    /// a command compares each file's metadata with these instead of asking
    /// the database per file. Returns how many there are, and calls `room`
    /// with that number first. A path stored more than once (by an older
    /// reckon) comes more than once; its caller reads it as
    /// [`Store::stored_source`] answers for it, none.
    pub fn stored_sources(
        &self,
        room: &mut dyn FnMut(usize),
        each: &mut dyn FnMut(String, StoredSource),
    ) -> Result<usize> {
        stored_sources(&self.conn, room, each).at(&self.path)
    }

    /// Records that a stored source's file was looked at again and still
    /// holds the same bytes; `time` (when given) is the run time it now
    /// gets, set on every run without a time of its own.
    pub fn refresh_source(&mut self, id: i64, seen: &Seen, time: Option<&RunTime>) -> Result<()> {
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| db_failure(&self.wait, &e))?;
        refresh_source(&tx, id, seen, time).at(&path)?;
        tx.commit().at(&path)?;
        Ok(())
    }

    /// Every stored source path.
    pub fn source_paths(&self) -> Result<Vec<String>> {
        let read = || -> rusqlite::Result<Vec<String>> {
            let mut stmt = self.conn.prepare_cached("SELECT DISTINCT path FROM source ORDER BY path")?;
            let rows = stmt.query_map([], |r| r.get(0))?;
            rows.collect()
        };
        read().at(&self.path)
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
            .map_err(|e| db_failure(&self.wait, &e))?;
        let remove = || -> rusqlite::Result<u64> {
            let mut runs = 0u64;
            for p in paths {
                runs += tx.query_row(
                    "SELECT count(*) FROM run WHERE source_id IN (SELECT id FROM source WHERE path = ?1)",
                    [p],
                    |r| r.get::<_, u64>(0),
                )?;
                delete_path(&tx, p)?;
            }
            delete_orphans(&tx)?;
            Ok(runs)
        };
        let runs = remove().at(&path)?;
        tx.commit().at(&path)?;
        Ok(runs)
    }

    /// Writes a consistent copy of the database to `to` (which must not
    /// exist), for work that must not change this one.
    pub fn copy_to(&self, to: &std::path::Path) -> Result<()> {
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
            .map_err(|e| db_failure(&self.wait, &e))?;
        tx.execute_batch(
            "DELETE FROM measurement; DELETE FROM run; DELETE FROM source_metric; DELETE FROM source; \
             DELETE FROM param_set; DELETE FROM metric; DELETE FROM batch;",
        )
        .at(&path)?;
        tx.commit().at(&path)?;
        Ok(())
    }

    /// Every source with the number of runs it gave.
    pub fn sources(&self) -> Result<Vec<SourceRecord>> {
        let read = || -> rusqlite::Result<Vec<SourceRecord>> {
            let mut stmt = self.conn.prepare_cached(
                "SELECT s.id, s.path, s.hash, s.size, s.format, (SELECT count(*) FROM run WHERE run.source_id = s.id)
                 FROM source s ORDER BY s.id",
            )?;
            let rows = stmt.query_map([], |r| {
                Ok(SourceRecord {
                    id: r.get(0)?,
                    path: r.get(1)?,
                    hash: r.get(2)?,
                    size: r.get(3)?,
                    format: r.get(4)?,
                    runs: r.get(5)?,
                })
            })?;
            rows.collect()
        };
        read().at(&self.path)
    }
}

/// The columns a [`StoredSource`] is read from, in the order
/// [`stored_source_row`] expects them after the path.
const STORED_COLUMNS: &str =
    "path, id, hash, labels, format, size, mtime_ns, ctime_ns, inode, checked_ns, git_head, time, time_origin";

/// A row of `SELECT {STORED_COLUMNS}` as the path and its stored source.
fn stored_source_row(r: &rusqlite::Row) -> rusqlite::Result<(String, StoredSource)> {
    let time: Option<String> = r.get(11)?;
    let origin: Option<String> = r.get(12)?;
    let source = StoredSource {
        id: r.get(1)?,
        hash: r.get(2)?,
        labels: r.get(3)?,
        format: r.get(4)?,
        seen: Seen {
            size: r.get(5)?,
            mtime_ns: r.get(6)?,
            ctime_ns: r.get(7)?,
            inode: r.get(8)?,
            checked_ns: r.get(9)?,
            git_head: r.get(10)?,
        },
        time: time.zip(origin).map(|(time, o)| RunTime { time, origin: RunTime::origin_named(&o) }),
    };
    Ok((r.get(0)?, source))
}

pub(super) fn stored_source(conn: &Connection, path: &str) -> rusqlite::Result<Option<StoredSource>> {
    let mut stmt = conn.prepare_cached(&format!("SELECT {STORED_COLUMNS} FROM source WHERE path = ?1 LIMIT 2"))?;
    let mut rows = stmt.query_map([path], stored_source_row)?;
    let first = rows.next().transpose()?;
    if rows.next().transpose()?.is_some() {
        return Ok(None);
    }
    Ok(first.map(|(_, s)| s))
}

fn stored_sources(
    conn: &Connection,
    room: &mut dyn FnMut(usize),
    each: &mut dyn FnMut(String, StoredSource),
) -> rusqlite::Result<usize> {
    let count: usize = conn.query_row("SELECT count(*) FROM source", [], |r| r.get(0))?;
    room(count);
    let mut stmt = conn.prepare_cached(&format!("SELECT {STORED_COLUMNS} FROM source"))?;
    let mut rows = stmt.query([])?;
    let mut read = 0;
    while let Some(row) = rows.next()? {
        let (path, source) = stored_source_row(row)?;
        each(path, source);
        read += 1;
    }
    Ok(read)
}

/// The id of the source that is this very file — path, bytes, labels and
/// time — if one is stored.
pub(super) fn written_source(conn: &Connection, src: &NewSource) -> rusqlite::Result<Option<i64>> {
    conn.prepare_cached(
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
}

/// Writes a source's row under the batch `batch_id`, returning its id.
pub(super) fn insert_source(conn: &Connection, src: &NewSource, batch_id: i64) -> rusqlite::Result<i64> {
    conn.prepare_cached(
        "INSERT INTO source (path, hash, size, mtime_ns, format, batch_id, labels, ctime_ns, inode, \
         checked_ns, time, time_origin, git_head)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
    )?
    .execute(params![
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
    ])?;
    Ok(conn.last_insert_rowid())
}

/// The updates of [`Store::refresh_source`], inside the caller's transaction.
pub(super) fn refresh_source(conn: &Connection, id: i64, seen: &Seen, time: Option<&RunTime>) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "UPDATE source SET size = ?2, mtime_ns = ?3, ctime_ns = ?4, inode = ?5, checked_ns = ?6, git_head = ?7 \
         WHERE id = ?1",
    )?
    .execute(params![id, seen.size, seen.mtime_ns, seen.ctime_ns, seen.inode, seen.checked_ns, seen.git_head])?;
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

/// Deletes every source stored for `path` with its runs and their
/// measurements; true when there was one. Foreign keys are not enforced
/// (see `configure`), so the cascade is spelled out.
pub(super) fn delete_path(tx: &Connection, path: &str) -> rusqlite::Result<bool> {
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
    // A unit only these sources gave no longer decides their metrics'.
    super::units::forget_sources(tx, &ids)?;
    Ok(!ids.is_empty())
}

/// Drops metric names and param sets no run uses any more, so that a
/// database that lost sources names exactly what a fresh one would.
pub(super) fn delete_orphans(tx: &Connection) -> rusqlite::Result<()> {
    tx.execute_batch(
        "DELETE FROM metric WHERE NOT EXISTS (SELECT 1 FROM measurement WHERE measurement.metric_id = metric.id);
         DELETE FROM param_set WHERE id NOT IN (SELECT param_set_id FROM run);",
    )
}
