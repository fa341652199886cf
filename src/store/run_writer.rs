//! Runs into the store: a writer's run rows, the ids of their metrics and
//! param sets (cached for the command), and their measurements held for
//! insertion in key order. Runs come packed by ingest's parser thread
//! ([`PackedView`]), the one way runs go in (tests pack theirs the same
//! way: `store::builder`).

use std::collections::HashMap;
use std::path::PathBuf;

use rusqlite::params;

use super::units::Slot;
use super::writer::PARAM_SET_CACHE_BYTES;
use super::{AtDb, RunTime, Writer};
use crate::run::PackedView;
use crate::{Error, Result};

impl Writer<'_> {
    /// Learns the metric names a batch of packed runs of the file being
    /// written introduces (see [`RunBatch`](crate::run::RunBatch)).
    pub fn learn_metrics(&mut self, names: &[(String, Option<String>)]) {
        self.file_metrics.extend_from_slice(names);
        self.file_ids.resize(self.file_metrics.len(), None);
    }

    /// Adds one packed run: params encoded, metrics by index into the
    /// names learnt for the file — ingest packs runs on its parsing thread.
    pub fn add_packed(&mut self, run: PackedView<'_>, default_time: &RunTime) -> Result<()> {
        let run_id = self.insert_run(run.line, run.time, run.params_json, default_time)?;
        self.packed_ids(run.line, run.metrics)?;
        self.push_values(run_id, run.metrics.iter().map(|&(_, v)| v))
    }

    /// Inserts a run's row and returns its id.
    fn insert_run(&mut self, line: u64, time: Option<&str>, params_json: &str, default_time: &RunTime) -> Result<i64> {
        let outside = || Error::internal("a run was added outside a source");
        if self.source.is_none() {
            return Err(outside());
        }
        let set_id = self.param_set_id(params_json)?;
        let source = self.source.as_ref().ok_or_else(outside)?;
        let (time, origin, sweep) = match time {
            Some(t) => (t, "log", None),
            None => (default_time.time.as_str(), default_time.origin, source.default_sweep.as_deref()),
        };
        // A sweep is the UTC date of the run time unless a label or a
        // month-only `{date}` names it.
        let sweep = source.named_sweep.as_deref().or(sweep).unwrap_or_else(|| time.get(..10).unwrap_or(time));
        self.insert_run.execute(params![source.id, line, time, origin, sweep, set_id]).at(&self.path)?;
        Ok(self.conn.last_insert_rowid())
    }

    /// Holds a run's values, whose metric ids are in `self.ids`.
    fn push_values(&mut self, run_id: i64, values: impl Iterator<Item = f64>) -> Result<()> {
        if let Some(source) = self.source.as_mut() {
            source.first_run.get_or_insert(run_id);
            source.runs += 1;
        }
        let mut full = false;
        for (value, slot) in values.zip(&self.ids) {
            let value = match slot.convert {
                None => value,
                Some((conversion, note)) => {
                    if let Some(n) = self.source.as_mut().and_then(|s| s.converted.get_mut(note)) {
                        n.values += 1;
                    }
                    conversion.apply(value)
                }
            };
            full |= self.pending.push(slot.id, run_id, value);
        }
        if full {
            // Only this source's rows: the savepoint they go in under undoes
            // them with the source, and must not undo the sources before it.
            let first = self.source.as_ref().and_then(|s| s.first_run).unwrap_or(run_id);
            self.tx_flushed |= self.tx_started.is_some();
            self.pending.flush_runs_from(first, &self.path)?;
        }
        Ok(())
    }

    /// The slots of a packed run's metrics, in its order, into `self.ids`;
    /// an error when the run names a metric twice.
    fn packed_ids(&mut self, line: u64, metrics: &[(u32, f64)]) -> Result<()> {
        self.ids.clear();
        let same = metrics.len() == self.last_indices.len()
            && metrics.iter().zip(&self.last_indices).all(|(&(i, _), &last)| i == last);
        if same {
            self.ids.extend_from_slice(&self.last_packed_ids);
            return Ok(());
        }
        for &(i, _) in metrics {
            let i = i as usize;
            let slot = if let Some(slot) = self.file_ids.get(i).copied().flatten() {
                slot
            } else {
                let (name, unit) = self
                    .file_metrics
                    .get(i)
                    .cloned()
                    .ok_or_else(|| Error::internal("a run named a metric by an unknown index"))?;
                let slot = self.metric_slot(&name, unit.as_deref(), line)?;
                self.file_ids[i] = Some(slot);
                slot
            };
            self.ids.push(slot);
        }
        if let Some(twice) = named_twice(&self.ids) {
            let name = metrics
                .iter()
                .find(|&&(i, _)| self.file_ids.get(i as usize).copied().flatten().map(|s| s.id) == Some(twice))
                .and_then(|&(i, _)| self.file_metrics.get(i as usize))
                .map_or("?", |(name, _)| name.as_str());
            // The run row goes with the source's savepoint.
            return Err(Error::DuplicateMetric { path: PathBuf::new(), line, metric: name.to_owned() });
        }
        self.last_indices.clear();
        self.last_indices.extend(metrics.iter().map(|&(i, _)| i));
        self.last_packed_ids.clone_from(&self.ids);
        Ok(())
    }

    /// Empties the metric id caches (their rows were deleted or rolled back).
    pub(super) fn forget_metric_ids(&mut self) {
        self.metric_ids.clear();
        self.forget_file_ids();
    }

    /// Empties the ids of the file's metric indices (the names stay).
    pub(super) fn forget_file_ids(&mut self) {
        self.file_ids.iter_mut().for_each(|id| *id = None);
        self.last_indices.clear();
    }

    /// The id of a param set, from the cache or the database (made there if
    /// new; a new one is remembered so a rollback can forget it).
    fn param_set_id(&mut self, params_json: &str) -> Result<i64> {
        if let Some(id) = self.param_sets.get(params_json) {
            return Ok(*id);
        }
        let id = self
            .conn
            .prepare_cached("INSERT INTO param_set (params) VALUES (?1) ON CONFLICT(params) DO NOTHING")
            .and_then(|mut s| s.execute([params_json]))
            .and_then(|_| {
                self.conn
                    .prepare_cached("SELECT id FROM param_set WHERE params = ?1")?
                    .query_row([params_json], |r| r.get(0))
            })
            .at(&self.path)?;
        if self.param_set_bytes + params_json.len() > PARAM_SET_CACHE_BYTES {
            self.param_sets = HashMap::new();
            self.param_set_bytes = 0;
            // Nothing made before is cached any more, so a rollback
            // has nothing of it to remove; keeping the list grew it
            // by every distinct set of the file (579 MiB peak for a
            // 3 GiB JSONL whose runs all differ).
            if let Some(source) = self.source.as_mut() {
                source.new_sets.clear();
            }
        }
        self.param_set_bytes += params_json.len();
        self.param_sets.insert(params_json.to_string(), id);
        if let Some(source) = self.source.as_mut() {
            source.new_sets.push(params_json.to_string());
        }
        Ok(id)
    }
}

/// An id that appears twice among a run's metric ids.
fn named_twice(slots: &[Slot]) -> Option<i64> {
    let mut sorted: Vec<i64> = slots.iter().map(|s| s.id).collect();
    sorted.sort_unstable();
    sorted.windows(2).find(|w| w[0] == w[1]).map(|w| w[0])
}
