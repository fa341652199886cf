//! The ids of the param sets a writer met lately, by their JSON text, and
//! which of them the source being written made (its rollback forgets them).

use std::path::Path;

use rusqlite::types::ValueRef;
use rusqlite::{Connection, Statement};
use rustc_hash::FxHashMap;

use super::params::params_hash;
use super::AtDb;
use crate::Result;

/// The most bytes of params text the cache holds. Runs of one
/// configuration are usually written together, so a small cache catches
/// nearly every repeat; 8 MiB holds tens of thousands of sets.
const CACHE_BYTES: usize = 8 << 20;

/// Param set ids by their JSON text: bounded by [`CACHE_BYTES`] (a log
/// whose every run has its own params kept each one, 1 GiB for a 3 GiB
/// JSONL), then emptied; the database's unique index finds the others.
/// The statements are prepared once for the writer: a log whose every run
/// has its own params (each Google Benchmark repetition, each
/// pytest-benchmark test) looked the insert up in the statement cache per
/// run, hashing its SQL.
pub(super) struct ParamSetIds<'c> {
    conn: &'c Connection,
    insert: Statement<'c>,
    find: Statement<'c>,
    /// Keyed by texts of hundreds of bytes (a Google Benchmark file's
    /// `context` is in each of its sets): `SipHash` over them was 3% of
    /// such an ingest.
    by_json: FxHashMap<String, i64>,
    /// The bytes of the keys in `by_json`.
    bytes: usize,
    /// The cached sets the source being written made: their rows go with
    /// its savepoint.
    made: Vec<String>,
}

impl<'c> ParamSetIds<'c> {
    pub(super) fn new(conn: &'c Connection, db: &Path) -> Result<Self> {
        Ok(ParamSetIds {
            conn,
            insert: conn.prepare("INSERT INTO param_set (params, hash) VALUES (?1, ?2)").at(db)?,
            find: conn.prepare("SELECT id, params FROM param_set WHERE hash = ?1").at(db)?,
            by_json: FxHashMap::default(),
            bytes: 0,
            made: Vec::new(),
        })
    }

    /// The id of a param set, from the cache or the database (made there if
    /// new; remembered so that the source's rollback can forget it).
    pub(super) fn id(&mut self, db: &Path, params_json: &str) -> Result<i64> {
        if let Some(id) = self.by_json.get(params_json) {
            return Ok(*id);
        }
        let hash = params_hash(params_json);
        let id = if let Some(id) = self.stored(db, hash, params_json)? {
            id
        } else {
            self.insert.execute(rusqlite::params![params_json, hash]).at(db)?;
            self.conn.last_insert_rowid()
        };
        if self.bytes + params_json.len() > CACHE_BYTES {
            // Nothing made before is cached any more, so a rollback has
            // nothing of it to remove; keeping the list grew it by every
            // distinct set of the file (579 MiB peak for a 3 GiB JSONL
            // whose runs all differ).
            self.clear();
        }
        self.bytes += params_json.len();
        self.by_json.insert(params_json.to_string(), id);
        self.made.push(params_json.to_string());
        Ok(id)
    }

    /// The id of the stored set of this text, among those of its hash.
    fn stored(&mut self, db: &Path, hash: i64, params_json: &str) -> Result<Option<i64>> {
        let mut rows = self.find.query([hash]).at(db)?;
        while let Some(row) = rows.next().at(db)? {
            let same = matches!(row.get_ref(1).at(db)?, ValueRef::Text(t) if t == params_json.as_bytes());
            if same {
                return row.get(0).at(db).map(Some);
            }
        }
        Ok(None)
    }

    /// The source being written was kept: what it made stays cached.
    pub(super) fn source_kept(&mut self) {
        self.made.clear();
    }

    /// The source being written was rolled back: the sets it made are gone.
    pub(super) fn source_undone(&mut self) {
        for set in self.made.drain(..) {
            if self.by_json.remove(&set).is_some() {
                self.bytes -= set.len();
            }
        }
    }

    /// Forgets every id (their rows were deleted or rolled back).
    pub(super) fn clear(&mut self) {
        self.by_json = FxHashMap::default();
        self.bytes = 0;
        self.made.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    #[test]
    fn the_cache_stays_bounded_and_sets_are_still_shared() {
        let store = Store::open_in_memory().unwrap();
        let (conn, db) = (store.connection(), store.path());
        let mut ids = ParamSetIds::new(conn, db).unwrap();
        // 200 distinct param sets of ~100 KB each: 20 MB of keys, more
        // than the cache holds; then the first set again.
        let big = "x".repeat(100_000);
        let set = |i: usize| format!("{{\"c\":{},\"note\":\"{big}\"}}", i % 200);
        let first = ids.id(db, &set(0)).unwrap();
        for i in 1..201 {
            let id = ids.id(db, &set(i)).unwrap();
            assert!(ids.bytes <= CACHE_BYTES);
            let undo: usize = ids.made.iter().map(String::len).sum();
            assert!(undo <= CACHE_BYTES, "the rollback list is bounded like the cache: {undo} bytes");
            assert_eq!(id == first, i == 200);
        }
        let sets: i64 = conn.query_row("SELECT count(*) FROM param_set", [], |r| r.get(0)).unwrap();
        assert_eq!(sets, 200, "the repeated set is found in the database, not stored twice");
    }

    #[test]
    fn a_source_undone_forgets_the_sets_it_made_and_only_those() {
        let store = Store::open_in_memory().unwrap();
        let (conn, db) = (store.connection(), store.path());
        let mut ids = ParamSetIds::new(conn, db).unwrap();
        ids.id(db, "{\"a\":1}").unwrap();
        ids.source_kept();
        ids.id(db, "{\"b\":1}").unwrap();
        ids.source_undone();
        assert_eq!(ids.by_json.keys().collect::<Vec<_>>(), ["{\"a\":1}"]);
        assert_eq!(ids.bytes, "{\"a\":1}".len());
    }

    #[test]
    fn sets_whose_hashes_collide_stay_two_sets() {
        let store = Store::open_in_memory().unwrap();
        let (conn, db) = (store.connection(), store.path());
        // A stored set given the hash of another text, as a collision would.
        conn.execute("INSERT INTO param_set (params, hash) VALUES ('{\"a\":1}', ?1)", [params_hash("{\"b\":1}")])
            .unwrap();
        let mut ids = ParamSetIds::new(conn, db).unwrap();
        let b = ids.id(db, "{\"b\":1}").unwrap();
        assert_ne!(b, 1, "a set is never found by its hash alone");
        ids.clear();
        assert_eq!(ids.id(db, "{\"b\":1}").unwrap(), b, "and is found again among the sets of its hash");
        let texts: Vec<String> = conn
            .prepare("SELECT params FROM param_set ORDER BY id")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(texts, ["{\"a\":1}", "{\"b\":1}"]);
    }

    #[test]
    fn a_database_of_schema_7_keeps_its_sets_and_finds_them_by_hash() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.sqlite");
        let c = rusqlite::Connection::open(&path).unwrap();
        for sql in &crate::store::open::MIGRATIONS[..7] {
            c.execute_batch(sql).unwrap();
        }
        c.execute_batch(
            "PRAGMA user_version = 7;
             INSERT INTO param_set VALUES (3, '{\"config\":\"a\"}'), (9, '{\"config\":\"b\"}');",
        )
        .unwrap();
        drop(c);
        let store = Store::open(&path, crate::store::Limits::default()).unwrap();
        let (conn, db) = (store.connection(), store.path());
        let rows: Vec<(i64, String, i64)> = conn
            .prepare("SELECT id, params, hash FROM param_set ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        for (_, params, hash) in &rows {
            assert_eq!(*hash, params_hash(params));
        }
        assert_eq!(rows.iter().map(|r| r.0).collect::<Vec<_>>(), [3, 9], "every set keeps its id");
        let mut ids = ParamSetIds::new(conn, db).unwrap();
        assert_eq!(ids.id(db, "{\"config\":\"b\"}").unwrap(), 9);
        assert_eq!(ids.id(db, "{\"config\":\"c\"}").unwrap(), 10);
        let views: i64 = conn.query_row("SELECT count(*) FROM run_param", [], |r| r.get(0)).unwrap();
        assert_eq!(views, 0, "the view reads the rebuilt table");
    }
}
