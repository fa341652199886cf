//! Waiting for another process's write: `SQLite`'s busy handler, announced
//! after a few seconds and naming the writer when it left a note, and the
//! message a command ends with when the wait runs out.

use std::cell::Cell;
use std::ffi::{c_int, c_void};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::{ffi, Connection};

use super::db_err;
use crate::Result;

/// The file where the process holding the write lock says who it is.
pub(super) fn writer_note(db: &Path) -> PathBuf {
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

/// One connection's waits for other writers: how long it may wait
/// (`[limits] lock_wait_seconds`) and the wait in progress. `SQLite` calls
/// the busy handler with a pointer to it, so each store waits by its own
/// project's limit, whatever another store of the same process was given.
pub(super) struct Wait {
    db: PathBuf,
    limit: Duration,
    since: Cell<Option<Instant>>,
    told: Cell<bool>,
    waited: Cell<Duration>,
}

impl Wait {
    pub(super) fn new(db: &Path, limit: Duration) -> Wait {
        Wait {
            db: db.to_path_buf(),
            limit: limit.max(Duration::from_millis(1)),
            since: Cell::new(None),
            told: Cell::new(false),
            waited: Cell::new(Duration::ZERO),
        }
    }

    /// The database waited for.
    pub(super) fn db(&self) -> &Path {
        &self.db
    }

    /// One call of the busy handler: `count` is how many calls this lock
    /// event had before. False gives up.
    fn busy(&self, count: i32) -> bool {
        let now = Instant::now();
        if count == 0 || self.since.get().is_none() {
            self.since.set(Some(now));
            self.told.set(false);
        }
        let waited = now - self.since.get().unwrap_or(now);
        self.waited.set(waited);
        if waited >= self.limit {
            return false;
        }
        if !self.told.get() && waited >= Duration::from_secs(3) {
            self.told.set(true);
            let who = last_writer(&self.db).map(|p| format!(" ({p})")).unwrap_or_default();
            say!(
                "reckon: waiting for another process{who} to finish writing to the database; \
                 it can take as long as that ingest (giving up after {} s)",
                self.limit.as_secs()
            );
        }
        std::thread::sleep(Duration::from_millis(if count < 10 { 5 } else { 50 }));
        true
    }
}

/// Waits for other writers instead of failing after a fixed time: a long
/// ingest in another process holds the write lock for as long as its file
/// takes. After a few seconds the wait is announced (naming the process
/// when it left its note), and after `[limits] lock_wait_seconds` it ends
/// in an error saying how long it waited.
///
/// `wait` must outlive every use of `conn`: a [`Store`](super::Store)
/// holds both, the connection declared (so dropped) first.
pub(super) fn wait_for_writers(conn: &Connection, wait: &Wait) -> Result<()> {
    let data = std::ptr::from_ref(wait).cast_mut().cast::<c_void>();
    // SAFETY: the handle is the open connection's own; `SQLite` passes
    // `data` back only to `busy`, while a statement of `conn` runs on the
    // thread running it, and `wait` lives as long as `conn` (see above).
    // rusqlite's `busy_handler` takes a plain `fn`, which could reach a
    // per-connection limit only through process-wide state.
    let rc = unsafe { ffi::sqlite3_busy_handler(conn.handle(), Some(busy), data) };
    if rc != ffi::SQLITE_OK {
        return Err(db_err(&wait.db, format!("cannot set how long to wait for other writers (SQLite code {rc})")));
    }
    Ok(())
}

/// `SQLite`'s busy handler: `data` is the connection's [`Wait`].
unsafe extern "C" fn busy(data: *mut c_void, count: c_int) -> c_int {
    // SAFETY: `data` is the `Wait` given to `wait_for_writers`, alive
    // while its connection is, and only read here through `&`.
    let wait = unsafe { &*data.cast::<Wait>().cast_const() };
    // A panic must not unwind into SQLite: it gives up the wait instead.
    c_int::from(std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| wait.busy(count))).unwrap_or(false))
}

/// What a failed open, lock or commit means for the researcher: who holds
/// the database and how long reckon waited, or why it cannot write.
pub(super) fn friendly(e: &rusqlite::Error, wait: &Wait) -> String {
    match e {
        rusqlite::Error::SqliteFailure(f, _)
            if matches!(f.code, rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) =>
        {
            let who = last_writer(&wait.db).map(|p| format!(" (the last to write was {p})")).unwrap_or_default();
            format!(
                "is being written by another process{who}; waited {} s for it. Wait for it to finish, or raise \
                 `lock_wait_seconds` under [limits] in reckon.toml",
                wait.waited.get().as_secs()
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

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::super::{Limits, Store};

    /// Two stores of one process, on one thread, each wait by the limit
    /// they were opened with: the one opened last does not set the other's
    /// (as a process-wide setting did).
    #[test]
    fn each_store_waits_by_its_own_limit() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("reckon.sqlite");
        drop(Store::open(&db, Limits::default()).unwrap());
        let limits = |ms| Limits { lock_wait: Duration::from_millis(ms), ..Limits::default() };
        let mut patient = Store::open(&db, limits(1500)).unwrap();
        let mut hasty = Store::open(&db, limits(50)).unwrap();
        let holder = rusqlite::Connection::open(&db).unwrap();
        holder.execute_batch("BEGIN IMMEDIATE").unwrap();
        let started = Instant::now();
        let err = patient.clear().unwrap_err().to_string();
        assert!(started.elapsed() >= Duration::from_millis(1500), "{:?}", started.elapsed());
        assert!(err.contains("is being written by another process; waited 1 s"), "{err}");
        let err = hasty.clear().unwrap_err().to_string();
        assert!(err.contains("waited 0 s") && err.contains("lock_wait_seconds"), "{err}");
        holder.execute_batch("COMMIT").unwrap();
        patient.clear().unwrap();
    }
}
