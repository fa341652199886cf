//! Measurements on their way into the table: held in memory by metric, in
//! run order, and inserted in the table's key order (metric, run), many
//! rows per statement.

use std::collections::BTreeMap;
use std::path::Path;

use rusqlite::{Connection, Statement};

use super::AtDb;
use crate::Result;

/// How many measurements wait before they are inserted (16 bytes each:
/// 16 MiB). Each batch lands at the end of every metric's range: into an
/// empty table one batch is a pure append, as fast as inserting presorted
/// rows gets, while every further batch descends into the middle of the
/// B-tree once per row. So the batch is as large as a command's memory
/// allows; a file of up to a million values goes in as one.
pub(super) const FLUSH_ROWS: usize = 1 << 20;

/// Rows per multi-row INSERT: one statement step per this many rows
/// instead of one each (`SQLite` allows 32,766 parameters).
const ROWS_PER_INSERT: usize = 128;

/// The rows waiting, and the statements that insert them.
pub(super) struct Measurements<'s> {
    /// By metric id: (run id, value) in the order the runs were added,
    /// which is run id order. A NaN value is stored as NULL.
    by_metric: BTreeMap<i64, Vec<(i64, f64)>>,
    rows: usize,
    one: Statement<'s>,
    many: Statement<'s>,
}

impl<'s> Measurements<'s> {
    pub(super) fn new(conn: &'s Connection, db: &Path) -> Result<Measurements<'s>> {
        let insert = "INSERT OR FAIL INTO measurement (metric_id, run_id, value) VALUES ";
        let many = format!("{insert}{}", vec!["(?, ?, ?)"; ROWS_PER_INSERT].join(", "));
        Ok(Measurements {
            by_metric: BTreeMap::new(),
            rows: 0,
            one: conn.prepare(&format!("{insert}(?, ?, ?)")).at(db)?,
            many: conn.prepare(&many).at(db)?,
        })
    }

    /// Holds a row; true when enough wait that they should be inserted.
    pub(super) fn push(&mut self, metric: i64, run: i64, value: f64) -> bool {
        self.by_metric.entry(metric).or_default().push((run, value));
        self.rows += 1;
        self.rows >= FLUSH_ROWS
    }

    /// How many rows wait.
    pub(super) fn rows(&self) -> usize {
        self.rows
    }

    /// True when so many rows wait that the next sources would overflow the
    /// buffer: their transaction should be committed now, so that its rows
    /// go in as one pass (the next file's would otherwise be inserted
    /// before the commit, and the rest after).
    pub(super) fn nearly_full(&self) -> bool {
        self.rows >= FLUSH_ROWS - FLUSH_ROWS / 8
    }

    /// Inserts the waiting rows of runs from `run` on (the source being
    /// written: its runs have the highest ids), in the table's key order,
    /// and keeps the others waiting. A source that fills the buffer flushes
    /// only its own rows: inserted under its savepoint, the rows of sources
    /// before it would go with it if it failed, though they are kept.
    pub(super) fn flush_runs_from(&mut self, run: i64, db: &Path) -> Result<()> {
        let mut own = BTreeMap::new();
        for (&metric, rows) in &mut self.by_metric {
            let keep = rows.partition_point(|&(r, _)| r < run);
            if keep < rows.len() {
                own.insert(metric, rows.split_off(keep));
            }
        }
        let earlier = std::mem::replace(&mut self.by_metric, own);
        let earlier_rows = self.rows - self.by_metric.values().map(Vec::len).sum::<usize>();
        self.rows -= earlier_rows;
        let flushed = self.flush(db);
        self.by_metric = earlier;
        self.by_metric.retain(|_, rows| !rows.is_empty());
        self.rows = earlier_rows;
        flushed
    }

    /// Forgets the rows of runs from `run` on (a source undone: its runs
    /// have the highest ids).
    pub(super) fn forget_runs_from(&mut self, run: i64) {
        for rows in self.by_metric.values_mut() {
            let keep = rows.partition_point(|&(r, _)| r < run);
            self.rows -= rows.len() - keep;
            rows.truncate(keep);
        }
    }

    /// Forgets every waiting row (the transaction they belonged to is gone).
    pub(super) fn clear(&mut self) {
        self.by_metric.clear();
        self.rows = 0;
    }

    /// Inserts the waiting rows in the table's key order.
    pub(super) fn flush(&mut self, db: &Path) -> Result<()> {
        let mut batch: Vec<(i64, i64, f64)> = Vec::with_capacity(ROWS_PER_INSERT);
        for (&metric, rows) in &mut self.by_metric {
            // Run ids grow as runs are added; a rolled-back source's ids may
            // come again, but its rows were forgotten. Sorted all the same
            // if that ever stops holding: the order is what makes it fast.
            if !rows.is_sorted_by_key(|&(r, _)| r) {
                rows.sort_unstable_by_key(|&(r, _)| r);
            }
            for &(run, value) in rows.iter() {
                batch.push((metric, run, value));
                if batch.len() == ROWS_PER_INSERT {
                    bind(&mut self.many, &batch).at(db)?;
                    self.many.raw_execute().at(db)?;
                    batch.clear();
                }
            }
        }
        for row in &batch {
            bind(&mut self.one, std::slice::from_ref(row)).at(db)?;
            self.one.raw_execute().at(db)?;
        }
        self.clear();
        Ok(())
    }
}

/// Binds rows to a statement of `rows.len()` groups of three parameters.
fn bind(stmt: &mut Statement, rows: &[(i64, i64, f64)]) -> rusqlite::Result<()> {
    for (i, &(metric, run, value)) in rows.iter().enumerate() {
        let at = 3 * i;
        stmt.raw_bind_parameter(at + 1, metric)?;
        stmt.raw_bind_parameter(at + 2, run)?;
        stmt.raw_bind_parameter(at + 3, (!value.is_nan()).then_some(value))?;
    }
    Ok(())
}
