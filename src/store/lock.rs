//! Waiting for another process's write: `SQLite`'s busy handler, announced
//! after a few seconds and naming the writer when it left a note, and the
//! message a command ends with when the wait runs out.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rusqlite::Connection;

use super::AtDb;
use crate::Result;

/// How long a command waits for another process's write to the database
/// before giving up (`[limits] lock_wait_seconds`), in milliseconds.
static LOCK_WAIT_MS: AtomicU64 = AtomicU64::new(600_000);

/// Sets how long writers wait for each other (from reckon.toml).
pub fn set_lock_wait(wait: Duration) {
    LOCK_WAIT_MS.store(u64::try_from(wait.as_millis()).unwrap_or(u64::MAX).max(1), Ordering::Relaxed);
}

fn lock_wait() -> Duration {
    Duration::from_millis(LOCK_WAIT_MS.load(Ordering::Relaxed))
}

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
pub(super) fn wait_for_writers(conn: &Connection, db: &Path) -> Result<()> {
    WAITING.with(|w| w.borrow_mut().db = Some(db.to_path_buf()));
    conn.busy_handler(Some(busy)).at(db)?;
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
            say!(
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

/// What a failed open, lock or commit means for the researcher: who holds
/// the database and how long reckon waited, or why it cannot write.
pub(super) fn friendly(e: &rusqlite::Error) -> String {
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
