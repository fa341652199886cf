//! `runs --format json` and `export --format jsonl`: stored runs with where
//! they came from, their params as an object.

use std::collections::BTreeMap;

use serde::{Serialize, Serializer};

use super::json::{JsonReport, Keys};
use crate::run::Value;
use crate::store::RunRecord;

/// One stored run as `runs --format json` lists it.
#[derive(Serialize)]
pub(crate) struct RunEntry<'a> {
    id: i64,
    /// The line of its log it was read from.
    line: u64,
    params: Params<'a>,
    /// Its log, as the store names it.
    source: &'a str,
    /// The UTC date of its time: the runs of one sweep aggregate together.
    sweep: &'a str,
    /// RFC 3339 UTC.
    time: &'a str,
    /// Where the time came from: `log`, `path`, `git` or `mtime`.
    time_origin: &'a str,
}

impl JsonReport for RunEntry<'_> {
    const KEYS: Keys = Keys::Sorted;
}

impl<'a> RunEntry<'a> {
    /// A run with the params `shown` keeps.
    pub(crate) fn of(run: &'a RunRecord, shown: &dyn Fn(&str) -> bool) -> RunEntry<'a> {
        RunEntry {
            id: run.id,
            line: run.line,
            params: params(run, shown),
            source: &run.source,
            sweep: &run.sweep,
            time: &run.time,
            time_origin: &run.time_origin,
        }
    }
}

/// A run's params by name.
pub(crate) type Params<'a> = BTreeMap<&'a str, ParamValue<'a>>;

/// The params of `run` that `shown` keeps.
pub(crate) fn params<'a>(run: &'a RunRecord, shown: &dyn Fn(&str) -> bool) -> Params<'a> {
    run.params.iter().filter(|(k, _)| shown(k)).map(|(k, v)| (k.as_str(), ParamValue(v))).collect()
}

/// A param's value: a number as a JSON number; text, and a number JSON
/// cannot hold (`inf`), as the text reckon prints.
pub(crate) struct ParamValue<'a>(&'a Value);

impl Serialize for ParamValue<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Num(n) if n.is_finite() => s.serialize_f64(*n),
            other => s.collect_str(other),
        }
    }
}
