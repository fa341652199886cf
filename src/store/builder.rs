//! A store with given runs, for unit tests of the stages above the store
//! (query, render, claims): each source is one log of runs at one time, as
//! ingest would write it, without a log file or a parser in between.
//!
//! ```ignore
//! let store = StoreBuilder::new()
//!     .source("old.jsonl", "2026-11-20T09:00:00Z", &[(&[("config", text("baseline"))][..], 700.0)])
//!     .build();
//! ```

use std::collections::BTreeMap;

use super::{Batch, NewSource, RunTime, Seen, Store};
use crate::run::{RawRun, Value};

/// The metric every run of a [`StoreBuilder`] carries a value of.
pub(crate) const METRIC: &str = "output_throughput";

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
    let mut w = store.begin_source(&mut batch, &src).unwrap().unwrap();
    for raw in runs {
        w.add_run(&raw, &labels, &rt).unwrap();
    }
    w.commit().unwrap();
}
