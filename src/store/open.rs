//! Opening a database: refusing what is not one, WAL mode, and the numbered
//! migrations of `db/migrations/`, applied in one transaction.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, TransactionBehavior};

use super::lock::{wait_for_writers, Wait};
use super::{damage, db_err, db_failure, AtDb, Limits, Store};
use crate::{Error, Result};

/// The migrations, in order; `PRAGMA user_version` counts those applied.
pub(super) const MIGRATIONS: &[&str] = &[
    include_str!("../../db/migrations/0001_init.sql"),
    include_str!("../../db/migrations/0002_source_cache.sql"),
    include_str!("../../db/migrations/0003_run_param_set.sql"),
    include_str!("../../db/migrations/0004_source_is_its_path.sql"),
    include_str!("../../db/migrations/0005_source_metric_unit.sql"),
    include_str!("../../db/migrations/0006_evaluation_cache.sql"),
    include_str!("../../db/migrations/0007_generation_by_source.sql"),
    include_str!("../../db/migrations/0008_param_set_by_hash.sql"),
];

/// The migration whose new `param_set.hash` column reckon fills.
const PARAM_SET_BY_HASH: i64 = 8;

/// The schema version this reckon writes.
#[allow(clippy::cast_possible_wrap)] // a handful of migrations, far below i64::MAX
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

impl Store {
    /// Opens (creating if needed) the database at `path` for reading and
    /// writing, applying any pending migrations.
    pub fn open(path: &Path, limits: Limits) -> Result<Store> {
        check_is_sqlite(path)?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        if path.exists() {
            let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
            if meta.permissions().readonly() {
                return Err(db_err(
                    path,
                    "is read-only; reckon needs to write to it (check its permissions, or pass --db to use \
                     another file)",
                ));
            }
        }
        let conn = Connection::open(path).map_err(|e| db_err(path, format!("cannot open: {e}")))?;
        let mut store = Store::new(conn, path.to_path_buf(), limits)?;
        store.configure()?;
        store.migrate()?;
        Ok(store)
    }

    /// Opens the database at `path` emptied, for an ingest that starts from
    /// nothing (`ingest --rebuild`). A file `SQLite` finds damaged is
    /// replaced by a new database: it is a cache of the logs, and what it
    /// held cannot be trusted anyway. The new file is made beside it and
    /// renamed over it, so the path holds a whole database at every moment.
    pub fn open_empty(path: &Path, limits: Limits) -> Result<Store> {
        match Store::open(path, limits).and_then(|mut s| s.clear().map(|()| s)) {
            Err(e) if e.is_damaged_database() => {
                replace_damaged(path)?;
                Store::open(path, limits)
            }
            other => other,
        }
    }

    /// Opens an existing database without writing to it. A missing database
    /// reads as empty.
    pub fn open_read_only(path: &Path, limits: Limits) -> Result<Store> {
        if !path.exists() {
            return Store::in_memory(limits);
        }
        check_is_sqlite(path)?;
        let conn =
            Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
                .map_err(|e| db_err(path, format!("cannot open: {e}")))?;
        let store = Store::new(conn, path.to_path_buf(), limits)?;
        // A command reads each table once, into a dataset it keeps in
        // memory: a page cache larger than the B-trees' inner pages holds
        // pages nobody asks for again (the default is 2 MiB). `sql` regions
        // run on a reader of their own ([`Store::open_reader`]).
        store.conn.pragma_update(None, "cache_size", -512).at(path)?;
        let version = store.user_version()?;
        if version > SCHEMA_VERSION {
            return Err(newer_schema(path, version));
        }
        if version < SCHEMA_VERSION {
            return Err(db_err(
                path,
                format!(
                    "has schema version {version}, this reckon needs {SCHEMA_VERSION}: run `reckon ingest` once \
                     to upgrade it"
                ),
            ));
        }
        Ok(store)
    }

    /// Another read-only connection to the database at `path` (a store's
    /// [`Store::path`]), for reading on another thread: a connection serves
    /// one thread at a time. None for a database in memory, which no second
    /// connection can see, or a file that is gone.
    pub fn open_reader(path: &Path, limits: Limits) -> Result<Option<Store>> {
        if path.as_os_str() == ":memory:" || !path.is_file() {
            return Ok(None);
        }
        let store = Store::open_read_only(path, limits)?;
        // A sort larger than memory spills to disk in runs the size of the
        // page cache and merges 16 runs at a time: `SQLite`'s default 2 MiB
        // keeps a GROUP BY over every run of a 1M-value study (22 MB of
        // sort keys) to one merge pass, where 512 KiB took two.
        store.conn.pragma_update(None, "cache_size", -2000).at(path)?;
        Ok(Some(store))
    }

    /// A fresh database in memory, for tests and for documents checked
    /// before anything was ingested.
    pub fn open_in_memory() -> Result<Store> {
        Store::in_memory(Limits::default())
    }

    fn in_memory(limits: Limits) -> Result<Store> {
        let path = PathBuf::from(":memory:");
        let conn = Connection::open_in_memory().at(&path)?;
        let mut store = Store::new(conn, path, limits)?;
        store.configure()?;
        store.migrate()?;
        Ok(store)
    }

    /// The store over an open connection, waiting for other writers by
    /// `limits`.
    fn new(conn: Connection, path: PathBuf, limits: Limits) -> Result<Store> {
        // Boxed: the connection keeps its address, which must not move
        // with the store.
        let wait = Box::new(Wait::new(&path, limits.lock_wait));
        wait_for_writers(&conn, &wait)?;
        Ok(Store { conn, path, limits, wait })
    }

    fn configure(&mut self) -> Result<()> {
        let path = self.path.clone();
        let c = &self.conn;
        // Foreign keys stay declared but unenforced: ingest only inserts ids it has
        // just created, and enforcing them costs two B-tree lookups per measurement.
        c.pragma_update(None, "foreign_keys", "OFF").at(&path)?;
        if path.as_os_str() != ":memory:" {
            let mode = switch_to_wal(c).map_err(|e| db_failure(&self.wait, &e))?;
            if !mode.eq_ignore_ascii_case("wal") {
                return Err(db_err(&path, format!("could not switch to WAL journal mode (got {mode})")));
            }
        }
        c.pragma_update(None, "synchronous", "NORMAL").at(&path)?;
        Ok(())
    }

    fn user_version(&self) -> Result<i64> {
        self.conn.query_row("PRAGMA user_version", [], |r| r.get(0)).map_err(|e| db_failure(&self.wait, &e))
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
            .map_err(|e| db_failure(&self.wait, &e))?;
        // Another process may have migrated while we waited for the lock.
        let version: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0)).at(&path)?;
        let applied = usize::try_from(version).unwrap_or(usize::MAX);
        for (number, sql) in (1i64..).zip(MIGRATIONS).skip(applied) {
            tx.execute_batch(sql).map_err(|e| match damage(&e) {
                Some(_) => db_failure(&self.wait, &e),
                None => db_err(&path, format!("migration {number} failed: {e}")),
            })?;
            if number == PARAM_SET_BY_HASH {
                fill_param_set_hashes(&tx).at(&path)?;
            }
            tx.pragma_update(None, "user_version", number).at(&path)?;
        }
        tx.commit().at(&path)?;
        Ok(())
    }
}

/// Gives every stored param set its hash (migration 8 made the column),
/// which `SQLite` cannot compute.
fn fill_param_set_hashes(tx: &Connection) -> rusqlite::Result<()> {
    // Hashed first, written after: 16 bytes a set, where the texts would
    // be hundreds, and no update while the table is being read.
    let mut hashes = Vec::new();
    let mut read = tx.prepare("SELECT id, params FROM param_set")?;
    let mut rows = read.query([])?;
    while let Some(row) = rows.next()? {
        let id: i64 = row.get(0)?;
        let hash = match row.get_ref(1)? {
            rusqlite::types::ValueRef::Text(t) => super::params::params_hash_bytes(t),
            _ => 0,
        };
        hashes.push((id, hash));
    }
    let mut write = tx.prepare("UPDATE param_set SET hash = ?2 WHERE id = ?1")?;
    for (id, hash) in hashes {
        write.execute([id, hash])?;
    }
    Ok(())
}

/// Puts a new, empty database at `path` in place of the damaged one there.
fn replace_damaged(path: &Path) -> Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let fresh = tempfile::Builder::new()
        .prefix(".reckon-rebuild-")
        .suffix(".sqlite")
        .tempfile_in(dir)
        .map_err(|e| Error::io(dir, e))?;
    if let Ok(meta) = std::fs::metadata(path) {
        std::fs::set_permissions(fresh.path(), meta.permissions()).map_err(|e| Error::io(fresh.path(), e))?;
    }
    // Created at the current schema and closed: its own journal is gone.
    drop(Store::open(fresh.path(), Limits::default())?);
    // The damaged file's journal would be read as the new file's.
    for suffix in ["-wal", "-shm"] {
        let mut journal = path.as_os_str().to_os_string();
        journal.push(suffix);
        match std::fs::remove_file(&journal) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(Error::io(PathBuf::from(journal), e)),
            _ => {}
        }
    }
    fresh.persist(path).map_err(|e| Error::io(path, e.error))?;
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
        format!(
            "was written by a newer reckon (schema version {version}; this reckon knows up to {SCHEMA_VERSION}). \
             Upgrade reckon, or point --db at another file."
        ),
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
        return Err(db_err(
            path,
            "is not a SQLite database; point --db (or `database` in reckon.toml) at a reckon database, or move the \
             file away",
        ));
    }
    Ok(())
}
