//! A metric's unit across logs: the store keeps one unit per metric name
//! (the first log's), so a later log giving the metric in another unit of
//! the same dimension has its values converted to it — 1500 given in ms
//! is stored as 1.5 where the metric is in s — and said so; a unit that
//! cannot be converted (another dimension, or a unit on one side only) is
//! refused rather than stored as if it were the stored one.

use crate::error::UnitClash;
use crate::metric::{self, Conversion};
use crate::{Error, Result};

/// A metric as the store keeps it: its id and unit.
#[derive(Debug, Clone)]
pub(super) struct StoredMetric {
    pub(super) id: i64,
    pub(super) unit: Option<String>,
}

/// A metric of a run as the writer stores it: its id, and when the log
/// gives it in another unit than the stored one, how to convert its values
/// and the index of the open source's [`UnitConversion`] counting them.
#[derive(Debug, Clone, Copy)]
pub(super) struct Slot {
    pub(super) id: i64,
    pub(super) convert: Option<(Conversion, usize)>,
}

/// Values of one metric a source gave in another unit than the store keeps
/// the metric in, converted to that unit.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitConversion {
    pub metric: String,
    /// The unit the log gave.
    pub from: String,
    /// The unit the store keeps the metric in.
    pub to: String,
    /// How many values were converted.
    pub values: u64,
}

impl std::fmt::Display for UnitConversion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let word = if self.values == 1 { "value" } else { "values" };
        write!(
            f,
            "{} {word} of `{}` given in {} stored in {}, the unit earlier logs gave it in",
            self.values, self.metric, self.from, self.to
        )
    }
}

/// How values of `name` given at `line` in `unit` (`None`: none said or
/// implied) become values in the unit the store keeps it in: `None` when
/// they are in it already; an error when they cannot be.
pub(super) fn conversion(
    name: &str,
    unit: Option<&str>,
    stored: &StoredMetric,
    line: u64,
) -> Result<Option<Conversion>> {
    let conversion = match (unit, stored.unit.as_deref()) {
        (None, None) => Conversion::Same,
        (Some(given), Some(kept)) => Conversion::between(given, kept).ok_or_else(|| {
            let why = match (metric::dimension(given), metric::dimension(kept)) {
                (Some(a), Some(b)) => format!("{given} measures {a} and {kept} {b}"),
                _ => format!("reckon cannot convert between {given} and {kept}"),
            };
            mismatch(name, line, stored, unit, why)
        })?,
        (Some(given), None) => {
            let why = format!("the stored values have no unit, so reckon cannot tell what they are in {given}");
            return Err(mismatch(name, line, stored, unit, why));
        }
        (None, Some(kept)) => {
            let why = format!("this log says no unit, so reckon cannot tell whether its values are in {kept}");
            return Err(mismatch(name, line, stored, unit, why));
        }
    };
    Ok(match conversion {
        Conversion::Same => None,
        c => Some(c),
    })
}

fn mismatch(name: &str, line: u64, stored: &StoredMetric, given: Option<&str>, why: String) -> Error {
    let clash =
        UnitClash { metric: name.to_owned(), stored: stored.unit.clone(), given: given.map(str::to_owned), why };
    Error::UnitMismatch { path: std::path::PathBuf::new(), line, clash: Box::new(clash) }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use crate::run::{RawRun, Value};
    use crate::store::builder::write_source;
    use crate::store::{Batch, NewSource, RunTime, Seen, Store};
    use crate::Error;

    /// Writes one source giving `latency` as 1500 in each of `units`, a
    /// run each; an error when one is refused (the source is not kept).
    fn write(store: &mut Store, path: &str, units: &[Option<&str>]) -> crate::Result<()> {
        let labels = BTreeMap::<String, Value>::new();
        let t = RunTime { time: "2026-11-29T00:00:00Z".into(), origin: "path" };
        let src =
            NewSource { path, hash: path, format: "jsonl", labels: &labels, seen: Seen::default(), time: Some(&t) };
        let mut batch = Batch::new("test".into(), None);
        let runs: Vec<RawRun> = (1..)
            .zip(units)
            .map(|(line, unit)| {
                let mut run = RawRun::new(line);
                run.metrics.push(crate::run::Metric {
                    name: "latency".into(),
                    value: 1500.0,
                    unit: unit.map(str::to_owned),
                });
                run
            })
            .collect();
        write_source(store, &mut batch, &src, &t, &runs).map(|_| ())
    }

    fn values(store: &Store) -> Vec<f64> {
        let c = store.connection();
        let mut q = c.prepare("SELECT value FROM measurement ORDER BY run_id").unwrap();
        q.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    }

    #[test]
    fn one_source_giving_a_metric_in_two_units_is_stored_in_its_first() {
        let mut store = Store::open_in_memory().unwrap();
        write(&mut store, "a", &[Some("us"), Some("ms"), Some("µs")]).unwrap();
        assert_eq!(values(&store), [1500.0, 1_500_000.0, 1500.0]);
    }

    #[test]
    fn a_unit_of_another_dimension_or_on_one_side_only_is_refused_at_its_line() {
        let mut store = Store::open_in_memory().unwrap();
        write(&mut store, "a", &[Some("ms")]).unwrap();
        for (given, why) in [
            (Some("tok/s"), "tok/s measures token rate and ms time"),
            (Some("elem/s"), "reckon cannot convert between elem/s and ms"),
            (None, "this log says no unit"),
        ] {
            let e = write(&mut store, "b", &[given]);
            let Err(e @ Error::UnitMismatch { line: 1, .. }) = e else { panic!("{given:?}: {e:?}") };
            assert!(e.to_string().contains(why), "{e}");
        }
        let mut store = Store::open_in_memory().unwrap();
        write(&mut store, "a", &[None]).unwrap();
        let e = write(&mut store, "b", &[Some("ms")]).unwrap_err();
        assert!(e.to_string().contains("is given in ms here, but the store holds it without a unit"), "{e}");
        assert_eq!(values(&store), [1500.0]);
    }
}
