//! The metric names of the file being written, by the index packed runs
//! name them by (see [`RunBatch`](crate::run::RunBatch)), with their slots
//! once known, and the slots of the run being added.

use std::path::PathBuf;

use super::units::Slot;
use crate::{Error, Result};

/// A file's metrics by index.
#[derive(Default)]
pub(super) struct FileMetrics {
    /// Every name the file's batches introduced, with the unit the format
    /// states, by index.
    names: Vec<(String, Option<String>)>,
    /// Each index's slot, once a run named it.
    slots: Vec<Option<Slot>>,
    /// The metric indices of the last run, whose slots are `last_slots`:
    /// the runs of a log name the same metrics in the same order, so most
    /// runs need neither lookups nor the check for a metric named twice.
    last_indices: Vec<u32>,
    last_slots: Vec<Slot>,
    /// The slots of the run being added.
    run: Vec<Slot>,
}

impl FileMetrics {
    /// Starts a file: its runs name metrics by indices of their own.
    pub(super) fn start_file(&mut self) {
        self.names.clear();
        self.slots.clear();
        self.last_indices.clear();
    }

    /// Learns the names a batch of the file's runs introduces; their
    /// indices follow those of its earlier batches.
    pub(super) fn learn(&mut self, names: &[(String, Option<String>)]) {
        self.names.extend_from_slice(names);
        self.slots.resize(self.names.len(), None);
    }

    /// Forgets the slots (the metrics they name were deleted or rolled
    /// back); the names stay.
    pub(super) fn forget_slots(&mut self) {
        self.slots.iter_mut().for_each(|slot| *slot = None);
        self.last_indices.clear();
    }

    /// The slots of a run's metrics (index, value), in its order; a metric
    /// first met in the file gets its slot from `slot_of` (its name and
    /// unit). An error when the run names a metric twice.
    pub(super) fn slots(
        &mut self,
        line: u64,
        metrics: &[(u32, f64)],
        mut slot_of: impl FnMut((&str, Option<&str>)) -> Result<Slot>,
    ) -> Result<&[Slot]> {
        let same = metrics.len() == self.last_indices.len()
            && metrics.iter().zip(&self.last_indices).all(|(&(i, _), &last)| i == last);
        if same {
            return Ok(&self.last_slots);
        }
        self.run.clear();
        for &(i, _) in metrics {
            let i = i as usize;
            let slot = if let Some(slot) = self.slots.get(i).copied().flatten() {
                slot
            } else {
                let (name, unit) =
                    self.names.get(i).ok_or_else(|| Error::internal("a run named a metric by an unknown index"))?;
                let slot = slot_of((name, unit.as_deref()))?;
                self.slots[i] = Some(slot);
                slot
            };
            self.run.push(slot);
        }
        if let Some(twice) = named_twice(&self.run) {
            let name = metrics
                .iter()
                .find(|&&(i, _)| self.slots.get(i as usize).copied().flatten().map(|s| s.id) == Some(twice))
                .and_then(|&(i, _)| self.names.get(i as usize))
                .map_or("?", |(name, _)| name.as_str());
            // The run row goes with the source's savepoint.
            return Err(Error::DuplicateMetric { path: PathBuf::new(), line, metric: name.to_owned() });
        }
        self.last_indices.clear();
        self.last_indices.extend(metrics.iter().map(|&(i, _)| i));
        self.last_slots.clone_from(&self.run);
        Ok(&self.last_slots)
    }
}

/// An id that appears twice among a run's metric ids.
fn named_twice(slots: &[Slot]) -> Option<i64> {
    let mut sorted: Vec<i64> = slots.iter().map(|s| s.id).collect();
    sorted.sort_unstable();
    sorted.windows(2).find(|w| w[0] == w[1]).map(|w| w[0])
}
