//! The ids of the param sets a writer met lately, by their JSON text, and
//! which of them the source being written made (its rollback forgets them).

use std::collections::HashMap;
use std::path::Path;

use rusqlite::{Connection, Statement};

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
    by_json: HashMap<String, i64>,
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
            insert: conn.prepare("INSERT INTO param_set (params) VALUES (?1) ON CONFLICT(params) DO NOTHING").at(db)?,
            find: conn.prepare("SELECT id FROM param_set WHERE params = ?1").at(db)?,
            by_json: HashMap::new(),
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
        // A set the insert made has the row id it was given: only a set
        // stored before is looked up again (a log whose every run has its
        // own params made a second search of the unique index per run).
        let id = match self.insert.execute([params_json]).at(db)? {
            1 => self.conn.last_insert_rowid(),
            _ => self.find.query_row([params_json], |r| r.get(0)).at(db)?,
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
        self.by_json = HashMap::new();
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
}
