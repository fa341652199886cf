//! The metrics a writer met, by name, for the whole command: each one's id
//! and stored unit, and which of them the source being written made (its
//! rollback forgets them).

use std::collections::HashMap;
use std::path::Path;

use rusqlite::{params, Connection};

use super::open_source::OpenSource;
use super::units::{conversion, Slot, StoredMetric};
use super::AtDb;
use crate::metric;
use crate::Result;

/// Stored metrics by name.
#[derive(Default)]
pub(super) struct MetricIds {
    by_name: HashMap<String, StoredMetric>,
    /// The cached metrics the source being written made: their rows go
    /// with its savepoint.
    made: Vec<String>,
}

impl MetricIds {
    /// The slot of a metric a log gives at `line` in `unit` (or in the unit
    /// its name implies): the metric is made, with that unit and the
    /// direction its name implies, if new; an error when its stored unit
    /// cannot take values in this one. A conversion is counted in the
    /// source's notes.
    pub(super) fn slot(
        &mut self,
        conn: &Connection,
        db: &Path,
        (name, unit): (&str, Option<&str>),
        line: u64,
        source: &mut OpenSource,
    ) -> Result<Slot> {
        let unit = unit.or_else(|| metric::unit_from_name(name));
        let made;
        let stored = if let Some(stored) = self.by_name.get(name) {
            stored
        } else {
            made = self.make(conn, db, name, unit)?;
            &made
        };
        let convert = conversion(name, unit, stored, line)?;
        let convert = match (convert, unit, stored.unit.as_deref()) {
            (Some(c), Some(from), Some(to)) => Some((c, source.conversion_note(name, from, to))),
            _ => None,
        };
        Ok(Slot { id: stored.id, convert })
    }

    /// The stored metric of a name not met before, made in the database if
    /// new there too, and cached.
    fn make(&mut self, conn: &Connection, db: &Path, name: &str, unit: Option<&str>) -> Result<StoredMetric> {
        let direction = metric::direction_from_name(name, unit);
        let (id, unit) = conn
            .prepare_cached(
                "INSERT INTO metric (name, unit, direction) VALUES (?1, ?2, ?3) ON CONFLICT(name) DO NOTHING",
            )
            .and_then(|mut s| s.execute(params![name, unit, direction.as_str()]))
            .and_then(|_| {
                conn.prepare_cached("SELECT id, unit FROM metric WHERE name = ?1")?
                    .query_row([name], |r| Ok((r.get(0)?, r.get(1)?)))
            })
            .at(db)?;
        let stored = StoredMetric { id, unit };
        self.by_name.insert(name.to_owned(), stored.clone());
        self.made.push(name.to_owned());
        Ok(stored)
    }

    /// The source being written was kept: what it made stays cached.
    pub(super) fn source_kept(&mut self) {
        self.made.clear();
    }

    /// The source being written was rolled back: the metrics it made are
    /// gone.
    pub(super) fn source_undone(&mut self) {
        for name in self.made.drain(..) {
            self.by_name.remove(&name);
        }
    }

    /// Forgets every metric (their rows were deleted or rolled back).
    pub(super) fn clear(&mut self) {
        self.by_name.clear();
        self.made.clear();
    }
}
