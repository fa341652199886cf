//! A metric's unit across logs, whatever the order they came in: each
//! source keeps its values of a metric as its log gave them, in the unit
//! its log gave (a unit in which a log gives a metric a second time is
//! converted to its first, exactly); the metric is shown in the finest unit
//! of its sources ([`metric::shown_unit`]: criterion's ns over hyperfine's
//! s, whichever was read first), each source's values converted into it
//! once, from what its log wrote, when they are read. A unit that cannot be
//! converted to the metric's (another dimension, or a unit on one side
//! only) is refused rather than stored as if it were the same.

use rusqlite::{params, Connection};

use crate::error::UnitClash;
use crate::metric::{self, Conversion};
use crate::{Error, Result};

/// A metric as the store keeps it: its id and the unit it is shown in.
#[derive(Debug, Clone)]
pub(super) struct StoredMetric {
    pub(super) id: i64,
    pub(super) unit: Option<String>,
}

/// A metric of a run as the writer stores it: its id; when the log gives
/// it in another unit than the source keeps it in (its first), how to
/// convert its values; and the index of the open source's
/// [`UnitConversion`] counting them, if one says something of its values.
#[derive(Debug, Clone, Copy)]
pub(super) struct Slot {
    pub(super) id: i64,
    pub(super) convert: Option<Conversion>,
    pub(super) note: Option<usize>,
}

/// What happened to values of one metric a source gave in another unit
/// than the metric is shown in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Converted {
    /// The log gave the metric in two units: the values in its second were
    /// stored converted to its first.
    InLog,
    /// Stored as the log gave them, read in the metric's unit (the finest
    /// another log gives it in).
    WhenRead,
    /// The log gives the metric in a finer unit than the store showed it
    /// in: it is shown in this one now, the other logs' values converted.
    Others,
}

/// Values of one metric a source gave in another unit than the one they are
/// stored or read in.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitConversion {
    pub metric: String,
    /// The unit the log gave.
    pub from: String,
    /// The unit they are stored in ([`Converted::InLog`]), or the metric
    /// is shown in.
    pub to: String,
    /// How many values (none counted for [`Converted::Others`]).
    pub values: u64,
    pub how: Converted,
}

impl std::fmt::Display for UnitConversion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (n, metric, from, to) = (self.values, &self.metric, &self.from, &self.to);
        let word = if n == 1 { "value" } else { "values" };
        match self.how {
            Converted::InLog => {
                write!(
                    f,
                    "{n} {word} of `{metric}` given in {from} stored in {to}, the unit this log first gives it in"
                )
            }
            Converted::WhenRead => {
                write!(f, "{n} {word} of `{metric}` given in {from} read in {to}, the finest unit the logs give it in")
            }
            Converted::Others => write!(
                f,
                "`{metric}` is read in {from} now, the finest unit the logs give it in: the values other logs give in \
                 {to} are converted when read"
            ),
        }
    }
}

/// How values of `name` given at `line` in `unit` (`None`: none said or
/// implied) become values in the unit `stored` has: `None` when they are
/// in it already; an error when they cannot be.
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

/// A conversion as the `times` and `over` of its `source_metric` rows:
/// a stored value in the metric's unit is value * times / over.
fn factors(c: Conversion) -> (f64, f64) {
    match c {
        Conversion::Same => (1.0, 1.0),
        Conversion::Times(k) => (k, 1.0),
        Conversion::Over(k) => (1.0, k),
    }
}

/// The conversion of a `source_metric` row's `times` and `over`.
pub(super) fn from_factors(times: f64, over: f64) -> Conversion {
    #[allow(clippy::float_cmp)] // the factors are written as exactly 1 where they do nothing
    if over != 1.0 {
        Conversion::Over(over)
    } else if times != 1.0 {
        Conversion::Times(times)
    } else {
        Conversion::Same
    }
}

/// The unit the metric `id` is shown in, as the database has it now.
pub(super) fn unit_of(conn: &Connection, id: i64) -> rusqlite::Result<Option<String>> {
    conn.prepare_cached("SELECT unit FROM metric WHERE id = ?1")?.query_row([id], |r| r.get(0))
}

/// Records that the source `source` keeps its values of the metric `id`
/// in `unit`, converted into the metric's unit `shown` when read.
pub(super) fn keep_unit(
    conn: &Connection,
    (id, source): (i64, i64),
    unit: Option<&str>,
    shown: Option<&str>,
) -> rusqlite::Result<()> {
    let (times, over) =
        factors(unit.zip(shown).and_then(|(u, s)| Conversion::between(u, s)).unwrap_or(Conversion::Same));
    conn.prepare_cached(
        "INSERT INTO source_metric (metric_id, source_id, unit, times, over) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![id, source, unit, times, over])?;
    Ok(())
}

/// Decides the unit of the metric `id` from the units its sources keep it
/// in ([`metric::shown_unit`]), with the direction its name has in that
/// unit, and how each source's values convert into it. Returns the unit;
/// `None` too for a metric no source gives.
pub(super) fn settle(conn: &Connection, id: i64) -> rusqlite::Result<Option<String>> {
    let units: Vec<Option<String>> = conn
        .prepare_cached("SELECT DISTINCT unit FROM source_metric WHERE metric_id = ?1")?
        .query_map([id], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let shown = metric::shown_unit(units.iter().flatten().map(String::as_str)).map(str::to_owned);
    let name: Option<String> = conn
        .prepare_cached("SELECT name FROM metric WHERE id = ?1")?
        .query_map([id], |r| r.get(0))?
        .next()
        .transpose()?;
    let Some(name) = name.filter(|_| !units.is_empty()) else { return Ok(None) };
    let direction = metric::direction_from_name(&name, shown.as_deref());
    conn.prepare_cached("UPDATE metric SET unit = ?2, direction = ?3 WHERE id = ?1")?.execute(params![
        id,
        shown,
        direction.as_str()
    ])?;
    let mut update =
        conn.prepare_cached("UPDATE source_metric SET times = ?3, over = ?4 WHERE metric_id = ?1 AND unit IS ?2")?;
    for unit in &units {
        let c = unit.as_deref().zip(shown.as_deref()).and_then(|(u, s)| Conversion::between(u, s));
        let (times, over) = factors(c.unwrap_or(Conversion::Same));
        update.execute(params![id, unit, times, over])?;
    }
    Ok(shown)
}

/// Forgets the units the sources `sources` kept their metrics in, as their
/// rows go, and settles ([`settle`]) each metric whose unit only they gave:
/// what they alone gave in the finest unit no longer decides it. A metric
/// another source still gives in its unit is left alone, so replacing one
/// of many logs reads no other log's row.
pub(super) fn forget_sources(conn: &Connection, sources: &[i64]) -> rusqlite::Result<()> {
    let mut metrics = Vec::new();
    for source in sources {
        let mut q = conn.prepare_cached(
            "SELECT sm.metric_id FROM source_metric sm JOIN metric ON metric.id = sm.metric_id \
             WHERE sm.source_id = ?1 AND sm.unit IS metric.unit",
        )?;
        metrics.extend(q.query_map([source], |r| r.get::<_, i64>(0))?.collect::<rusqlite::Result<Vec<_>>>()?);
        conn.prepare_cached("DELETE FROM source_metric WHERE source_id = ?1")?.execute([source])?;
    }
    metrics.sort_unstable();
    metrics.dedup();
    let mut still = conn.prepare_cached(
        "SELECT EXISTS (SELECT 1 FROM source_metric sm JOIN metric ON metric.id = sm.metric_id \
         WHERE sm.metric_id = ?1 AND sm.unit IS metric.unit)",
    )?;
    for id in metrics {
        if !still.query_row([id], |r| r.get::<_, bool>(0))? {
            settle(conn, id)?;
        }
    }
    Ok(())
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
        write_value(store, path, 1500.0, units)
    }

    /// As [`write`], the value `value`.
    fn write_value(store: &mut Store, path: &str, value: f64, units: &[Option<&str>]) -> crate::Result<()> {
        let labels = BTreeMap::<String, Value>::new();
        let t = RunTime { time: "2026-11-29T00:00:00Z".into(), origin: "path" };
        let src =
            NewSource { path, hash: path, format: "jsonl", labels: &labels, seen: Seen::default(), time: Some(&t) };
        let mut batch = Batch::new("test".into(), None);
        let runs: Vec<RawRun> = (1..)
            .zip(units)
            .map(|(line, unit)| {
                let mut run = RawRun::new(line);
                run.metrics.push(crate::run::Metric { name: "latency".into(), value, unit: unit.map(str::to_owned) });
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

    /// The unit of `latency` and its values as read, by source path.
    fn read(store: &Store) -> (Option<String>, Vec<(String, Option<f64>)>) {
        let unit = store.metrics().unwrap().into_iter().find(|m| m.name == "latency").and_then(|m| m.unit);
        let sources: BTreeMap<i64, String> = store.runs().unwrap().into_iter().map(|r| (r.id, r.source)).collect();
        let mut values: Vec<(String, Option<f64>)> =
            store.metric_values("latency").unwrap().into_iter().map(|(run, v)| (sources[&run].clone(), v)).collect();
        values.sort_by(|a, b| a.0.cmp(&b.0));
        (unit, values)
    }

    #[test]
    fn the_unit_and_the_values_read_do_not_depend_on_the_order_sources_came_in() {
        // 11.61481411152 s is 11614814111.519999 ns by one multiplication,
        // 11614814111.52 by way of ms: each value is converted once, from
        // what its log wrote, into the finest unit, whatever came first.
        let logs = [("a", 11.614_814_111_52, "s"), ("b", 11.614_814_111_52, "ms"), ("c", 1500.0, "ns")];
        let want = (
            Some("ns".to_owned()),
            vec![
                ("a".to_owned(), Some(11.614_814_111_52 * 1e9)),
                ("b".to_owned(), Some(11.614_814_111_52 * 1e6)),
                ("c".to_owned(), Some(1500.0)),
            ],
        );
        assert_ne!(want.1[0].1, Some(11.614_814_111_52 * 1e3 * 1e6), "the example tells one step from two");
        for order in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            let mut store = Store::open_in_memory().unwrap();
            for i in order {
                let (path, value, unit) = logs[i];
                write_value(&mut store, path, value, &[Some(unit)]).unwrap();
            }
            assert_eq!(read(&store), want, "{order:?}");
            // `reckon:sql` regions read the same through `run_metric`.
            let c = store.connection();
            let mut q = c
                .prepare(
                    "SELECT source.path, m.value FROM run_metric m JOIN run ON run.id = m.run_id \
                     JOIN source ON source.id = run.source_id ORDER BY source.path",
                )
                .unwrap();
            let sql: Vec<(String, Option<f64>)> =
                q.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect();
            assert_eq!(sql, want.1, "{order:?}");
        }
    }

    #[test]
    fn a_source_gone_no_longer_decides_the_unit() {
        let mut store = Store::open_in_memory().unwrap();
        write(&mut store, "a", &[Some("s")]).unwrap();
        write(&mut store, "b", &[Some("ns")]).unwrap();
        assert_eq!(read(&store).0.as_deref(), Some("ns"));
        store.remove_paths(&["b".to_owned()]).unwrap();
        assert_eq!(read(&store), (Some("s".to_owned()), vec![("a".to_owned(), Some(1500.0))]));
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
