//! The transaction an ingest's writer writes in, and the savepoint each
//! source is written under: one type holds whether a transaction is open,
//! since when, whether rows went in, and whether `SQLite` lost it.
//!
//! Not rusqlite's `Transaction` and `Savepoint`: a `Savepoint` needs the
//! connection `&mut` while the writer's prepared statements borrow it for
//! the whole command; a source's savepoint stays open across many calls
//! (`begin_source` … `add_packed` … `end_source`), so it would be stored
//! beside the transaction it borrows from; and the transaction outlives
//! many sources and is committed every couple of seconds
//! (`[limits] commit_seconds`), where `SQLite` may already have rolled it
//! back by itself (a full disk), which the writer must hear of to forget
//! what it cached. So: a small guard, and a savepoint token it hands out
//! and takes back.

use std::time::{Duration, Instant};

use rusqlite::Connection;

use super::lock::Wait;
use super::{db_failure, AtDb};
use crate::Result;

/// The writer's transaction: none open, or one open since a time. Dropped
/// open, it is rolled back: what it wrote is absent, as after a kill.
pub(super) struct Transaction<'c> {
    conn: &'c Connection,
    /// How the connection waits for other writers (for what a failed lock
    /// says).
    wait: &'c Wait,
    open: Option<Open>,
    /// A transaction was lost since [`Transaction::take_lost`] last asked.
    lost: bool,
}

struct Open {
    started: Instant,
    /// Measurements were inserted since it began: every later insert lands
    /// in the middle of the table, so it is time to commit.
    flushed: bool,
}

/// The savepoint of the source being written: [`Transaction::release`]d
/// when the source is kept, [`Transaction::roll_back_to`] when it fails.
#[must_use = "a source's savepoint is released (the source kept) or rolled back to (the source undone)"]
pub(super) struct Savepoint(());

/// What [`Transaction::roll_back_to`] undid.
#[derive(Debug, PartialEq)]
pub(super) enum Undone {
    /// What was written since the savepoint.
    Source,
    /// The whole transaction: `SQLite` had rolled it back by itself, and
    /// the sources written since the last commit are absent too.
    Transaction,
}

impl<'c> Transaction<'c> {
    pub(super) fn new(conn: &'c Connection, wait: &'c Wait) -> Transaction<'c> {
        Transaction { conn, wait, open: None, lost: false }
    }

    /// Opens a transaction (taking the write lock) unless one is open; true
    /// when this call opened it.
    pub(super) fn begin(&mut self) -> Result<bool> {
        if self.open.is_some() {
            return Ok(false);
        }
        self.conn.execute_batch("BEGIN IMMEDIATE").map_err(|e| db_failure(self.wait, &e))?;
        self.open = Some(Open { started: Instant::now(), flushed: false });
        Ok(true)
    }

    /// True while a transaction is open.
    pub(super) fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// Starts a source's savepoint in the open transaction.
    pub(super) fn savepoint(&self) -> Result<Savepoint> {
        self.conn.prepare_cached("SAVEPOINT source").and_then(|mut s| s.execute([])).at(self.wait.db())?;
        Ok(Savepoint(()))
    }

    /// Keeps what was written since the savepoint: it goes with the
    /// transaction's commit.
    pub(super) fn release(&self, _: Savepoint) -> Result<()> {
        self.conn.prepare_cached("RELEASE source").and_then(|mut s| s.execute([])).at(self.wait.db())?;
        Ok(())
    }

    /// Undoes what was written since the savepoint — or finds the whole
    /// transaction gone (see [`Undone::Transaction`]); then it is over and
    /// [`Transaction::take_lost`] says so.
    pub(super) fn roll_back_to(&mut self, _: Savepoint) -> Result<Undone> {
        if self.conn.is_autocommit() {
            self.open = None;
            self.lost = true;
            return Ok(Undone::Transaction);
        }
        self.conn.execute_batch("ROLLBACK TO source; RELEASE source").at(self.wait.db())?;
        Ok(Undone::Source)
    }

    /// Notes that measurements went into the table in this transaction.
    pub(super) fn flushed(&mut self) {
        if let Some(open) = self.open.as_mut() {
            open.flushed = true;
        }
    }

    /// True when the open transaction should be committed: it has been open
    /// `every` or longer, or measurements went in already.
    pub(super) fn due(&self, every: Duration) -> bool {
        self.open.as_ref().is_some_and(|o| o.flushed || o.started.elapsed() >= every)
    }

    /// Commits the open transaction. On error it is rolled back, lost.
    pub(super) fn commit(&mut self) -> Result<()> {
        if self.open.is_none() {
            return Ok(());
        }
        let done = self.conn.execute_batch("COMMIT").map_err(|e| db_failure(self.wait, &e));
        if done.is_err() {
            self.roll_back();
        }
        self.open = None;
        done
    }

    /// Gives the open transaction up (something it needed failed): rolled
    /// back, lost.
    pub(super) fn roll_back(&mut self) {
        if !self.conn.is_autocommit() {
            let _ = self.conn.execute_batch("ROLLBACK");
        }
        self.open = None;
        self.lost = true;
    }

    /// True once after a transaction was lost: the sources ended since the
    /// commit before it are not in the database.
    pub(super) fn take_lost(&mut self) -> bool {
        std::mem::take(&mut self.lost)
    }
}

impl Drop for Transaction<'_> {
    fn drop(&mut self) {
        if self.open.is_some() && !self.conn.is_autocommit() {
            let _ = self.conn.execute_batch("ROLLBACK");
        }
    }
}
