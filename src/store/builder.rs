//! A store with given runs, for unit tests of the store and of the stages
//! above it (query, render, claims): each source is one log of runs, written
//! as ingest writes a file — packed as ingest's parser thread packs it (the
//! params encoded with the labels by [`encode_params`], the metrics by the
//! file's index in a [`RunBatch`]) and handed to the writer's `add_packed`,
//! the one write path there is — without a log file or a parser in between.
//!
//! ```ignore
//! let store = StoreBuilder::new()
//!     .source("old.jsonl", "2026-11-20T09:00:00Z", &[(&[("config", text("baseline"))][..], 700.0)])
//!     .build();
//! ```

use std::collections::BTreeMap;

use super::{encode_params, Batch, NewSource, RunTime, Seen, Store, Writer};
use crate::run::{MetricNames, RawRun, RunBatch, Value};
use crate::Result;

/// The metric every run of a [`StoreBuilder`] carries a value of.
pub(crate) const METRIC: &str = "output_throughput";

/// Runs per [`RunBatch`], as ingest's parser thread hands them over (its
/// `BATCH_RUNS`): a file of more runs crosses in several batches, each
/// naming only the metrics new to the file.
const BATCH_RUNS: usize = 256;

/// Builds an in-memory [`Store`] source by source. Every run carries one
/// value of [`METRIC`]; a NaN value is stored as the missing measurement
/// ingest makes of it. Runs with other metrics go in through [`add_source`].
pub(crate) struct StoreBuilder {
    store: Store,
}

impl StoreBuilder {
    pub(crate) fn new() -> StoreBuilder {
        StoreBuilder::on(Store::open_in_memory().unwrap())
    }

    /// Goes on adding sources to a store built before.
    pub(crate) fn on(store: Store) -> StoreBuilder {
        StoreBuilder { store }
    }

    /// One source at `path` (also its content hash, so two sources need two
    /// paths) whose runs all ran at `time` (RFC 3339; the sweep is its
    /// date): each run is its params and its value of the metric.
    pub(crate) fn source<'a, P>(mut self, path: &str, time: &str, runs: &[(P, f64)]) -> StoreBuilder
    where
        P: AsRef<[(&'a str, Value)]>,
    {
        let raw = runs.iter().zip(1..).map(|((params, value), line)| {
            let mut raw = RawRun::new(line);
            for (k, v) in params.as_ref() {
                raw.param(*k, v.clone());
            }
            raw.metric(METRIC, *value);
            raw
        });
        add_source(&mut self.store, path, time, raw);
        self
    }

    pub(crate) fn build(self) -> Store {
        self.store
    }
}

/// Adds the runs as one committed source at `path` to `store`, all at
/// `time`.
pub(crate) fn add_source(store: &mut Store, path: &str, time: &str, runs: impl IntoIterator<Item = RawRun>) {
    let mut batch = Batch::new("test".into(), None);
    let labels = BTreeMap::new();
    let src = NewSource { path, hash: path, format: "jsonl", labels: &labels, seen: Seen::default(), time: None };
    let rt = RunTime { time: time.into(), origin: "log" };
    let runs: Vec<RawRun> = runs.into_iter().collect();
    write_source(store, &mut batch, &src, &rt, &runs).unwrap().expect("a new source");
}

/// Writes `runs` as one source in its own transaction, as an ingest of
/// that one file does: begun, its runs added, ended and committed. `None`
/// when this very file (path, bytes, labels, time) is stored already; an
/// error, with nothing of the source kept, when a run is refused.
pub(crate) fn write_source(
    store: &mut Store,
    batch: &mut Batch,
    src: &NewSource,
    time: &RunTime,
    runs: &[RawRun],
) -> Result<Option<u64>> {
    let mut writer = store.writer(batch)?;
    if !writer.begin_source(src)? {
        writer.commit()?;
        return Ok(None);
    }
    add_runs(&mut writer, src.labels, time, runs)?;
    let written = writer.end_source()?;
    writer.commit()?;
    Ok(Some(written))
}

/// Adds every run of the source being written, in batches as ingest hands
/// them over; stops at the first run refused (the caller abandons the
/// source). Metric indices are the file's: call it once per source.
pub(crate) fn add_runs(
    w: &mut Writer,
    labels: &BTreeMap<String, Value>,
    time: &RunTime,
    runs: &[RawRun],
) -> Result<()> {
    add_runs_by(w, labels, time, runs, BATCH_RUNS)
}

/// [`add_runs`] with `per_batch` runs to a [`RunBatch`].
pub(crate) fn add_runs_by(
    w: &mut Writer,
    labels: &BTreeMap<String, Value>,
    time: &RunTime,
    runs: &[RawRun],
    per_batch: usize,
) -> Result<()> {
    let mut names = MetricNames::default();
    let mut json = String::new();
    for part in runs.chunks(per_batch.max(1)) {
        // What ingest's parser thread does with each run it reads.
        let mut packed = RunBatch::default();
        for run in part {
            encode_params(run, labels, &mut json);
            packed.push(run, &mut names, &json);
        }
        // What the writer's side of the pipeline does with each batch.
        w.learn_metrics(&packed.new_metrics);
        for run in packed.runs() {
            w.add_packed(run, time)?;
        }
    }
    Ok(())
}
