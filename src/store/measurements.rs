//! Measurements on their way into the table: held in memory, sorted by the
//! table's key (metric, run), and inserted many rows per statement.

use std::path::Path;

use rusqlite::{Connection, Statement};

use super::AtDb;
use crate::Result;

/// How many measurements wait before they are inserted. Each sorted batch
/// lands at the end of every metric's range whatever its size, so the
/// fewer batches the fewer B-tree descents into the middle of the table;
/// this bounds the memory held (24 bytes a row: 6 MiB).
const FLUSH_ROWS: usize = 1 << 18;

/// Rows per multi-row INSERT: one statement step per this many rows
/// instead of one each (`SQLite` allows 32,766 parameters).
const ROWS_PER_INSERT: usize = 128;

/// One measurement: `value` NaN is stored as NULL (a NaN in the log).
#[derive(Clone, Copy)]
struct Row {
    metric: i64,
    run: i64,
    value: f64,
}

pub(super) struct Measurements<'s> {
    rows: Vec<Row>,
    one: Statement<'s>,
    many: Statement<'s>,
}

impl<'s> Measurements<'s> {
    pub(super) fn new(conn: &'s Connection, db: &Path) -> Result<Measurements<'s>> {
        let insert = "INSERT INTO measurement (metric_id, run_id, value) VALUES ";
        let many = format!("{insert}{}", vec!["(?, ?, ?)"; ROWS_PER_INSERT].join(", "));
        Ok(Measurements {
            rows: Vec::new(),
            one: conn.prepare(&format!("{insert}(?, ?, ?)")).at(db)?,
            many: conn.prepare(&many).at(db)?,
        })
    }

    /// How many rows wait.
    pub(super) fn len(&self) -> usize {
        self.rows.len()
    }

    /// Holds a row; true when enough wait that they should be inserted.
    pub(super) fn push(&mut self, metric: i64, run: i64, value: f64) -> bool {
        self.rows.push(Row { metric, run, value });
        self.rows.len() >= FLUSH_ROWS
    }

    /// Forgets the rows from `len` on (those of a run or source undone).
    pub(super) fn truncate(&mut self, len: usize) {
        self.rows.truncate(len);
    }

    /// Inserts the waiting rows, sorted by the table's key.
    pub(super) fn flush(&mut self, db: &Path) -> Result<()> {
        self.rows.sort_unstable_by_key(|r| (r.metric, r.run));
        let mut chunks = self.rows.chunks_exact(ROWS_PER_INSERT);
        for chunk in &mut chunks {
            bind(&mut self.many, chunk).at(db)?;
            self.many.raw_execute().at(db)?;
        }
        for row in chunks.remainder() {
            bind(&mut self.one, std::slice::from_ref(row)).at(db)?;
            self.one.raw_execute().at(db)?;
        }
        self.rows.clear();
        Ok(())
    }
}

/// Binds rows to a statement of `rows.len()` groups of three parameters.
fn bind(stmt: &mut Statement, rows: &[Row]) -> rusqlite::Result<()> {
    for (i, row) in rows.iter().enumerate() {
        let at = 3 * i;
        stmt.raw_bind_parameter(at + 1, row.metric)?;
        stmt.raw_bind_parameter(at + 2, row.run)?;
        stmt.raw_bind_parameter(at + 3, (!row.value.is_nan()).then_some(row.value))?;
    }
    Ok(())
}
