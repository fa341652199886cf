//! Reading runs and measurements back for queries.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use super::params::{parse_param_pairs, parse_params};
use super::units::from_factors;
use super::{AtDb, MetricInfo, RunRecord, Store};
use crate::metric::{Conversion, Direction};
use crate::run::Value;
use crate::Result;

/// A run row before its params are attached: id, source path, line, time,
/// time origin, sweep, param set id.
type RunRow = (i64, String, u64, String, String, String, i64);

/// A run as [`Store::for_each_run_row`] hands it over, borrowed from the
/// row: ids for its source and param set, text for its time and sweep.
#[derive(Debug, Clone, Copy)]
pub struct ScannedRun<'r> {
    pub id: i64,
    pub source: i64,
    pub line: u64,
    pub time: &'r str,
    pub time_origin: &'r str,
    pub sweep: &'r str,
    pub param_set: i64,
}

impl Store {
    /// Every run, oldest first, with its params.
    pub fn runs(&self) -> Result<Vec<RunRecord>> {
        let mut out = Vec::new();
        self.for_each_run(|run| out.push(run))?;
        Ok(out)
    }

    /// Every run, oldest first, handed over one at a time as its params are
    /// read, so a caller can index a run while it is still in cache.
    pub fn for_each_run(&self, mut each: impl FnMut(RunRecord)) -> Result<()> {
        let rows = self.run_rows().at(&self.path)?;
        // Runs of one configuration share a param set: each is parsed once.
        let sets = self.param_sets().at(&self.path)?;
        for (id, source, line, time, time_origin, sweep, set_id) in rows {
            let params = sets.get(&set_id).cloned().unwrap_or_default();
            each(RunRecord { id, source, line, time, time_origin, sweep, params });
        }
        Ok(())
    }

    /// Every run row, oldest first.
    fn run_rows(&self) -> rusqlite::Result<Vec<RunRow>> {
        // Sorted here, not by SQL: with the params in every row, SQLite's
        // sorter spills tens of thousands of runs to a temporary file.
        let mut stmt = self.conn.prepare_cached(
            "SELECT run.id, source.path, run.line, run.time, run.time_origin, run.sweep, run.param_set_id
             FROM run JOIN source ON source.id = run.source_id",
        )?;
        let rows =
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?)))?;
        let mut rows = rows.collect::<rusqlite::Result<Vec<RunRow>>>()?;
        // By time, then by file and line, never by id: ids record the order
        // files were ingested in, and a database rebuilt from the same logs
        // must order (and pick the `latest` run) the same. Text compares
        // bytewise, as SQL's ORDER BY would.
        rows.sort_unstable_by(|a, b| a.3.cmp(&b.3).then_with(|| a.1.cmp(&b.1)).then(a.2.cmp(&b.2)).then(a.0.cmp(&b.0)));
        Ok(rows)
    }

    /// Every param set, by id.
    fn param_sets(&self) -> rusqlite::Result<HashMap<i64, BTreeMap<String, Value>>> {
        let mut sets = HashMap::new();
        let mut read = self.conn.prepare_cached("SELECT id, params FROM param_set")?;
        let mut set_rows = read.query([])?;
        while let Some(r) = set_rows.next()? {
            sets.insert(r.get(0)?, parse_params(r.get_ref(1)?.as_str().unwrap_or("{}")));
        }
        Ok(sets)
    }

    /// Every run as a row borrowed from `SQLite`, in no particular order: the
    /// cheap scan a query's dataset is built from (params by set id, source
    /// by id, no strings copied). With `sets`, only the runs of those param
    /// sets (through the index on the set id).
    pub fn for_each_run_row(&self, sets: Option<&[i64]>, mut each: impl FnMut(ScannedRun<'_>)) -> Result<()> {
        let columns = "SELECT id, source_id, line, time, time_origin, sweep, param_set_id FROM run";
        let mut read = |rows: &mut rusqlite::Rows<'_>| -> rusqlite::Result<()> {
            while let Some(r) = rows.next()? {
                let text = |i: usize| r.get_ref(i).map(|v| v.as_str().unwrap_or(""));
                each(ScannedRun {
                    id: r.get(0)?,
                    source: r.get(1)?,
                    line: u64::try_from(r.get::<_, i64>(2)?).unwrap_or(0),
                    time: text(3)?,
                    time_origin: text(4)?,
                    sweep: text(5)?,
                    param_set: r.get(6)?,
                });
            }
            Ok(())
        };
        let mut all = || -> rusqlite::Result<()> { read(&mut self.conn.prepare_cached(columns)?.query([])?) };
        let Some(sets) = sets else { return all().at(&self.path) };
        let mut some = || -> rusqlite::Result<()> {
            let _one_read = self.one_read()?;
            let mut stmt = self.conn.prepare_cached(&format!("{columns} WHERE param_set_id = ?1"))?;
            for set in sets {
                read(&mut stmt.query([set])?)?;
            }
            Ok(())
        };
        some().at(&self.path)
    }

    /// Holds one read transaction while many statements run, unless one is
    /// open: each statement on its own takes and drops the database's read
    /// lock (two `fcntl` and an `fstat` each), which cost more than the
    /// look-ups themselves. Dropped, it ends the read (nothing was written).
    fn one_read(&self) -> rusqlite::Result<Option<rusqlite::Transaction<'_>>> {
        if self.conn.is_autocommit() {
            self.conn.unchecked_transaction().map(Some)
        } else {
            Ok(None)
        }
    }

    /// The ids of the param sets some run has (a look-up of the run index
    /// per set).
    pub fn used_param_sets(&self) -> Result<Vec<i64>> {
        let read = || -> rusqlite::Result<Vec<i64>> {
            let mut stmt = self.conn.prepare_cached(
                "SELECT id FROM param_set WHERE EXISTS (SELECT 1 FROM run WHERE run.param_set_id = param_set.id)",
            )?;
            let rows = stmt.query_map([], |r| r.get(0))?;
            rows.collect()
        };
        read().at(&self.path)
    }

    /// Every param set with its params as (name, value) pairs in the order
    /// stored (names sorted), by id. The names are borrowed from the row: a caller
    /// keeps each distinct one once.
    pub fn for_each_param_set(&self, mut each: impl FnMut(i64, &[(Cow<'_, str>, Value)])) -> Result<()> {
        let mut read = || -> rusqlite::Result<()> {
            let mut stmt = self.conn.prepare_cached("SELECT id, params FROM param_set")?;
            let mut rows = stmt.query([])?;
            while let Some(r) = rows.next()? {
                let mut pairs = Vec::new();
                parse_param_pairs(r.get_ref(1)?.as_str().unwrap_or("{}"), &mut pairs);
                each(r.get(0)?, &pairs);
            }
            Ok(())
        };
        read().at(&self.path)
    }

    /// Every source's id, path and format.
    pub fn for_each_source_name(&self, mut each: impl FnMut(i64, &str, &str)) -> Result<()> {
        let mut read = || -> rusqlite::Result<()> {
            let mut stmt = self.conn.prepare_cached("SELECT id, path, format FROM source")?;
            let mut rows = stmt.query([])?;
            while let Some(r) = rows.next()? {
                each(r.get(0)?, r.get_ref(1)?.as_str().unwrap_or(""), r.get_ref(2)?.as_str().unwrap_or(""));
            }
            Ok(())
        };
        read().at(&self.path)
    }

    /// The values of one metric as (run id, value), `None` for a NaN in the
    /// log, in the metric's unit: one range of the measurement table's key,
    /// nothing copied. With `runs` (best in id order: each look-up lands
    /// near the one before), only the values of those runs, one look-up
    /// each. A source keeping the metric in another unit (see
    /// `units`) has its values converted, each once from what its log wrote.
    pub fn for_each_metric_value(
        &self,
        metric: &str,
        runs: Option<&[i64]>,
        mut each: impl FnMut(i64, Option<f64>),
    ) -> Result<()> {
        let mut read = || -> rusqlite::Result<()> {
            let _one_read = self.one_read()?;
            let mut id = self.conn.prepare_cached("SELECT id FROM metric WHERE name = ?1")?;
            let Some(metric_id) = id.query_map([metric], |r| r.get::<_, i64>(0))?.next().transpose()? else {
                return Ok(());
            };
            let converted = self.converted_sources(metric_id)?;
            if !converted.is_empty() {
                return self.each_converted_value(metric_id, runs, &converted, &mut each);
            }
            let Some(runs) = runs else {
                let mut stmt =
                    self.conn.prepare_cached("SELECT run_id, value FROM measurement WHERE metric_id = ?1")?;
                let mut rows = stmt.query([metric_id])?;
                while let Some(r) = rows.next()? {
                    each(r.get(0)?, r.get(1)?);
                }
                return Ok(());
            };
            let mut stmt =
                self.conn.prepare_cached("SELECT value FROM measurement WHERE metric_id = ?1 AND run_id = ?2")?;
            for run in runs {
                let mut rows = stmt.query([metric_id, *run])?;
                if let Some(r) = rows.next()? {
                    each(*run, r.get(0)?);
                }
            }
            Ok(())
        };
        read().at(&self.path)
    }

    /// The sources keeping the metric `metric_id` in another unit than it
    /// is shown in, with the conversion of their values.
    fn converted_sources(&self, metric_id: i64) -> rusqlite::Result<HashMap<i64, Conversion>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT source_id, times, over FROM source_metric WHERE metric_id = ?1 AND (times != 1 OR over != 1)",
        )?;
        let rows = stmt.query_map([metric_id], |r| Ok((r.get(0)?, from_factors(r.get(1)?, r.get(2)?))))?;
        rows.collect()
    }

    /// [`Store::for_each_metric_value`] of a metric some of whose sources
    /// (`converted`) keep it in another unit.
    fn each_converted_value(
        &self,
        metric_id: i64,
        runs: Option<&[i64]>,
        converted: &HashMap<i64, Conversion>,
        each: &mut impl FnMut(i64, Option<f64>),
    ) -> rusqlite::Result<()> {
        let shown = |source: i64, value: Option<f64>| match converted.get(&source) {
            Some(c) => value.map(|v| c.apply(v)),
            None => value,
        };
        let Some(runs) = runs else {
            let mut stmt = self.conn.prepare_cached(
                "SELECT m.run_id, m.value, run.source_id FROM measurement m JOIN run ON run.id = m.run_id \
                 WHERE m.metric_id = ?1",
            )?;
            let mut rows = stmt.query([metric_id])?;
            while let Some(r) = rows.next()? {
                each(r.get(0)?, shown(r.get(2)?, r.get(1)?));
            }
            return Ok(());
        };
        let mut stmt = self.conn.prepare_cached(
            "SELECT m.value, run.source_id FROM measurement m JOIN run ON run.id = m.run_id \
             WHERE m.metric_id = ?1 AND m.run_id = ?2",
        )?;
        for run in runs {
            let mut rows = stmt.query([metric_id, *run])?;
            if let Some(r) = rows.next()? {
                each(*run, shown(r.get(1)?, r.get(0)?));
            }
        }
        Ok(())
    }

    /// The values of one metric, by run id, in its unit. `None` is a NaN in
    /// the log.
    pub fn metric_values(&self, metric: &str) -> Result<Vec<(i64, Option<f64>)>> {
        let mut out = Vec::new();
        self.for_each_metric_value(metric, None, |run, value| out.push((run, value)))?;
        Ok(out)
    }

    /// Every metric with its unit and built-in direction, by name.
    pub fn metrics(&self) -> Result<Vec<MetricInfo>> {
        let read = || -> rusqlite::Result<Vec<MetricInfo>> {
            let mut stmt = self.conn.prepare_cached("SELECT name, unit, direction FROM metric ORDER BY name")?;
            let rows = stmt.query_map([], |r| {
                let dir: String = r.get(2)?;
                Ok(MetricInfo {
                    name: r.get(0)?,
                    unit: r.get(1)?,
                    direction: Direction::parse(&dir).unwrap_or(Direction::Neutral),
                })
            })?;
            rows.collect()
        };
        read().at(&self.path)
    }
}
