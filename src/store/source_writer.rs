//! One source in its own transaction: a [`Writer`] for a single source, for
//! callers that write sources one at a time.

use std::collections::BTreeMap;

use super::{Batch, NewSource, RunTime, Store, Writer};
use crate::run::{RawRun, Value};
use crate::Result;

impl Store {
    /// Starts ingesting one source in its own transaction. Returns `None`
    /// when this very file (path, bytes, labels, time) is already stored.
    pub fn begin_source<'s>(&'s mut self, batch: &'s mut Batch, src: &NewSource) -> Result<Option<SourceWriter<'s>>> {
        let mut writer = self.writer(batch)?;
        if writer.begin_source(src)? {
            return Ok(Some(SourceWriter { writer }));
        }
        // An earlier content of the path may have been deleted: keep that.
        writer.commit()?;
        Ok(None)
    }
}

/// Writes the runs of one source inside its own transaction (a [`Writer`]
/// for a single source). Dropped without [`SourceWriter::commit`], it rolls
/// everything back.
pub struct SourceWriter<'s> {
    pub(super) writer: Writer<'s>,
}

impl SourceWriter<'_> {
    /// Sets the sweeps that differ from the run time's date: `default` for
    /// runs without their own time, `named` (a `sweep` label) for every run.
    pub fn set_sweeps(&mut self, default: Option<String>, named: Option<String>) {
        self.writer.set_sweeps(default, named);
    }

    /// Adds one run. `labels` override params of the same name from the log.
    pub fn add_run(&mut self, run: &RawRun, labels: &BTreeMap<String, Value>, default_time: &RunTime) -> Result<()> {
        self.writer.add_run(run, labels, default_time)
    }

    /// How many runs were added so far.
    pub fn runs(&self) -> u64 {
        self.writer.source_runs()
    }

    /// Makes the source and its runs permanent.
    pub fn commit(mut self) -> Result<u64> {
        let runs = self.writer.end_source()?;
        self.writer.commit()?;
        Ok(runs)
    }
}
