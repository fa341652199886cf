//! The metrics a writer met, by name, for the whole command: each one's id
//! and the unit it is shown in, which of them the source being written
//! made (its rollback forgets them), and the unit that source keeps each
//! of its metrics in.

use std::collections::HashMap;
use std::path::Path;

use rusqlite::{params, Connection};

use super::open_source::OpenSource;
use super::units::{self, conversion, Converted, Slot, StoredMetric};
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
    /// The unit the source being written keeps each of its metrics in (the
    /// first its log gives), by name.
    kept: HashMap<String, Option<String>>,
}

impl MetricIds {
    /// The slot of a metric a log gives at `line` in `unit` (or in the unit
    /// its name implies): the metric is made, with that unit and the
    /// direction its name implies, if new; an error when its unit cannot
    /// take values in this one. The source keeps the metric in the first
    /// unit its log gives it in, values in another converted to it and
    /// counted in the source's notes, as are values read in another unit.
    pub(super) fn slot(
        &mut self,
        conn: &Connection,
        db: &Path,
        (name, unit): (&str, Option<&str>),
        line: u64,
        source: &mut OpenSource,
    ) -> Result<Slot> {
        let unit = unit.or_else(|| metric::unit_from_name(name));
        let mut stored = match self.by_name.get(name) {
            Some(stored) => stored.clone(),
            None => self.make(conn, db, name, unit)?,
        };
        if !self.kept.contains_key(name) {
            // Another ingest may have settled its unit since it was cached.
            stored.unit = units::unit_of(conn, stored.id).at(db)?;
            if let Some(cached) = self.by_name.get_mut(name) {
                cached.unit.clone_from(&stored.unit);
            }
        }
        // The values of every log of the metric are read in one unit.
        conversion(name, unit, &stored, line)?;
        if let Some(kept) = self.kept.get(name) {
            let first = StoredMetric { id: stored.id, unit: kept.clone() };
            let convert = conversion(name, unit, &first, line)?;
            let note = match (convert, unit, kept) {
                (Some(_), Some(from), Some(to)) => Some(source.conversion_note(name, from, to, Converted::InLog)),
                _ => None,
            };
            return Ok(Slot { id: stored.id, convert, note });
        }
        units::keep_unit(conn, (stored.id, source.id()), unit, stored.unit.as_deref()).at(db)?;
        self.kept.insert(name.to_owned(), unit.map(str::to_owned));
        // Read in a finer unit another log gives: said with their count.
        let shown = stored.unit.as_deref();
        let note = match (unit, shown) {
            (Some(from), Some(to)) if converts(from, to) && metric::shown_unit([from, to]) == Some(to) => {
                Some(source.conversion_note(name, from, to, Converted::WhenRead))
            }
            _ => None,
        };
        Ok(Slot { id: stored.id, convert: None, note })
    }

    /// Settles the unit of each metric the source being written keeps in
    /// another unit than the metric was shown in (see [`units::settle`]),
    /// saying which it now shows in this source's unit; before the source
    /// is kept.
    pub(super) fn settle_source(&mut self, conn: &Connection, db: &Path, source: &mut OpenSource) -> Result<()> {
        let mut changed: Vec<(&String, &Option<String>)> = self
            .kept
            .iter()
            .filter(|(name, unit)| self.by_name.get(*name).is_some_and(|s| finer(unit.as_deref(), s.unit.as_deref())))
            .collect();
        changed.sort();
        for (name, unit) in changed {
            let Some(stored) = self.by_name.get_mut(name) else { continue };
            let shown = units::settle(conn, stored.id).at(db)?;
            if let (Some(before), Some(now)) = (stored.unit.as_deref(), shown.as_deref()) {
                if converts(before, now) && unit.as_deref() == Some(now) {
                    source.conversion_note(name, now, before, Converted::Others);
                }
            }
            stored.unit = shown;
        }
        Ok(())
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
        self.kept.clear();
    }

    /// The source being written was rolled back: the metrics it made are
    /// gone.
    pub(super) fn source_undone(&mut self) {
        for name in self.made.drain(..) {
            self.by_name.remove(&name);
        }
        self.kept.clear();
    }

    /// Forgets every metric (their rows were deleted or rolled back).
    pub(super) fn clear(&mut self) {
        self.by_name.clear();
        self.made.clear();
        self.kept.clear();
    }
}

/// Whether a source keeping a metric in `unit` may change the unit it is
/// shown in, `shown`: it is another unit that [`metric::shown_unit`] would
/// take over it. A coarser unit changes nothing (its values convert into
/// the shown one when read), so a project of many logs in a coarser unit
/// settles no metric per log.
fn finer(unit: Option<&str>, shown: Option<&str>) -> bool {
    match (unit, shown) {
        (Some(u), Some(s)) => u != s && metric::shown_unit([u, s]) == Some(u),
        _ => false,
    }
}

/// Whether values in `from` change when written in `to` (not two
/// spellings of one unit).
fn converts(from: &str, to: &str) -> bool {
    metric::Conversion::between(from, to).is_some_and(|c| c != metric::Conversion::Same)
}
