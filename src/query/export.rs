//! `reckon export`: every measurement as a tidy row — the run, where it was
//! read, its time and sweep, each param, the metric with its value, unit
//! and direction — for programs outside reckon (pandas, R, a spreadsheet).
//!
//! With `newest`, only what cells use is kept: each cell's newest sweep,
//! decided by the pivot tables and claims are (the runs each cell of a
//! [`Query`] grouped by the cell's params rests on), never by a rule of
//! its own. A cell is the runs sharing the values of the key params
//! ([`key_params`]): the params recorded in every sweep that vary within one.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use super::{Agg, Dataset, Filter, Key, Query};
use crate::run::Value;
use crate::store::{MetricInfo, RunRecord};
use crate::Result;

/// Fields every run has that are not params of the experiment.
const PSEUDO: [&str; 3] = ["date", "time", "source"];

/// The columns of a row that are not params: a param of one of these names
/// is written as `param.NAME`.
const FIXED: [&str; 10] =
    ["run", "source", "line", "time", "time_origin", "sweep", "metric", "value", "unit", "direction"];

/// What to export.
#[derive(Debug, Clone)]
pub struct ExportOptions {
    /// Only runs this filter passes.
    pub filter: Filter,
    /// Only these metrics (canonical names or aliases; none: every metric).
    pub metrics: Vec<String>,
    /// Only each cell's newest sweep, as tables and claims read them.
    pub newest: bool,
    /// The params a cell is keyed by (none: [`key_params`] of each metric).
    pub by: Vec<String>,
}

/// One measurement of one run.
#[derive(Debug, Clone)]
pub struct Row<'d> {
    pub run: &'d RunRecord,
    pub metric: &'d MetricInfo,
    /// NaN where the log wrote no number.
    pub value: f64,
}

/// The rows of an export, by run and then metric, with what `newest` left out.
#[derive(Debug, Clone)]
pub struct Export<'d> {
    pub rows: Vec<Row<'d>>,
    /// Per metric, the params of its cells (`newest` only).
    pub cells_by: BTreeMap<String, Vec<String>>,
    /// Runs `newest` could not put in a cell: (metric, param) → how many
    /// lacked that key param.
    pub without: BTreeMap<(String, String), usize>,
}

/// The key params of a metric's runs: each param (not a repeat marker)
/// that every sweep records and that varies within some sweep — takes two
/// values there, or some of its runs lack it. A param that only tells the
/// sweeps apart (a date label, a server version) or that only some sweeps
/// record (a per-run tag) keys nothing.
pub fn key_params<'r>(runs: impl IntoIterator<Item = &'r RunRecord>) -> Vec<String> {
    // Per sweep: how many runs; per param and sweep: the values seen (two
    // are enough; as a pivot's cells tell them apart, not as printed) and
    // how many runs have it.
    let mut total: BTreeMap<&str, usize> = BTreeMap::new();
    let mut seen: BTreeMap<&str, BTreeMap<&str, (BTreeSet<Key>, usize)>> = BTreeMap::new();
    let runs_seen: Vec<&RunRecord> = runs.into_iter().collect();
    for run in &runs_seen {
        *total.entry(run.sweep.as_str()).or_default() += 1;
        for (name, value) in &run.params {
            if PSEUDO.contains(&name.as_str()) || crate::run::is_repeat_marker(name) {
                continue;
            }
            let entry = seen.entry(name.as_str()).or_default().entry(run.sweep.as_str()).or_default();
            entry.1 += 1;
            if entry.0.len() < 2 {
                entry.0.insert(value.key());
            }
        }
    }
    let keys: Vec<&str> = seen
        .into_iter()
        .filter(|(_, sweeps)| {
            let everywhere = sweeps.len() == total.len();
            let varies = sweeps.iter().any(|(sweep, (values, n))| values.len() > 1 || *n < total[sweep]);
            everywhere && varies
        })
        .map(|(name, _)| name)
        .collect();
    // A text param the others fix (a command line restating its params)
    // keys nothing: the rule of a cell's points (`points::defining`).
    let sweeps: BTreeMap<&str, u32> = total.keys().zip(0..).map(|(s, i)| (*s, i)).collect();
    let points: BTreeSet<(u32, Vec<Option<String>>)> = runs_seen
        .iter()
        .map(|run| {
            let values = keys.iter().map(|k| run.params.get(*k).map(Value::to_string)).collect();
            (sweeps[run.sweep.as_str()], values)
        })
        .collect();
    let points: Vec<(u32, Vec<Option<String>>)> = points.into_iter().collect();
    let text: Vec<bool> = keys.iter().map(|k| points_text(&runs_seen, k)).collect();
    super::points::defining(&text, &points).into_iter().map(|i| keys[i].to_string()).collect()
}

/// Whether some run holds `name` as text.
fn points_text(runs: &[&RunRecord], name: &str) -> bool {
    runs.iter().any(|r| matches!(r.params.get(name), Some(Value::Text(_))))
}

impl Dataset<'_> {
    /// The measurements `opts` asks for, by run — in the order runs are read
    /// everywhere: by time, then file and line, never by id (ids number runs
    /// in the order their logs were ingested) — and then metric name.
    pub fn export(&self, opts: &ExportOptions) -> Result<Export<'_>> {
        let filter = self.resolve_filter(&opts.filter)?;
        let mut names: Vec<String> = if opts.metrics.is_empty() {
            self.metrics().map(|m| m.name.clone()).collect()
        } else {
            opts.metrics.iter().map(|m| self.metric_name(m).map(str::to_string)).collect::<Result<_>>()?
        };
        names.sort();
        names.dedup();
        let by: Vec<String> = opts.by.iter().map(|p| self.param_name(p, "--by")).collect::<Result<_>>()?;
        let mut out = Export { rows: Vec::new(), cells_by: BTreeMap::new(), without: BTreeMap::new() };
        for name in &names {
            let metric = self.metric_info(name)?;
            let passing: Vec<(&RunRecord, f64)> = self.values(name)?.filter(|(run, _)| filter.matches(*run)).collect();
            let kept: Option<HashSet<i64>> = if opts.newest {
                let finite = passing.iter().filter(|(_, v)| v.is_finite()).map(|(run, _)| *run);
                let cell_by = if by.is_empty() { key_params(finite) } else { by.clone() };
                let kept = self.newest_runs(name, &filter, &cell_by, &mut out.without)?;
                out.cells_by.insert(name.clone(), cell_by);
                Some(kept)
            } else {
                None
            };
            let rows = passing.into_iter().filter(|(run, _)| kept.as_ref().is_none_or(|k| k.contains(&run.id)));
            out.rows.extend(rows.map(|(run, value)| Row { run, metric, value }));
        }
        // Runs of one line (a log's repeats) keep their order in the file,
        // which their ids follow.
        out.rows.sort_by(|a, b| {
            let (x, y) = (a.run, b.run);
            (&x.time, &x.source, x.line, x.id, &a.metric.name).cmp(&(&y.time, &y.source, y.line, y.id, &b.metric.name))
        });
        Ok(out)
    }

    /// The runs the cells of `metric` grouped by `by` rest on: the pivot
    /// tables read (median of each cell's newest sweep), one row per cell.
    fn newest_runs(
        &self,
        metric: &str,
        filter: &Filter,
        by: &[String],
        without: &mut BTreeMap<(String, String), usize>,
    ) -> Result<HashSet<i64>> {
        let mut q = Query::new(metric);
        q.rows = by.to_vec();
        q.filter = filter.clone();
        q.agg = Agg::Median;
        let pivot = self.evaluate(&q)?;
        for (param, n) in &pivot.excluded {
            *without.entry((metric.to_string(), param.clone())).or_default() += n;
        }
        Ok(pivot.iter().flat_map(|(_, _, cell)| cell.runs.iter().copied()).collect())
    }
}

impl Export<'_> {
    /// The params the rows hold, sorted.
    fn params(&self) -> Vec<&str> {
        let names: BTreeSet<&str> = self.rows.iter().flat_map(|r| r.run.params.keys().map(String::as_str)).collect();
        names.into_iter().collect()
    }

    /// The rows as CSV: the fixed columns, then one column per param (empty
    /// where a run lacks it), `value` empty where the log wrote no number.
    pub fn to_csv(&self) -> Result<String> {
        let params = self.params();
        let mut header: Vec<String> = FIXED[..6].iter().map(|s| (*s).to_string()).collect();
        header.extend(params.iter().map(|p| column(p)));
        header.extend(FIXED[6..].iter().map(|s| (*s).to_string()));
        let body: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|r| {
                let run = r.run;
                let mut rec = vec![
                    run.id.to_string(),
                    run.source.clone(),
                    run.line.to_string(),
                    run.time.clone(),
                    run.time_origin.clone(),
                    run.sweep.clone(),
                ];
                rec.extend(params.iter().map(|p| run.params.get(*p).map(ToString::to_string).unwrap_or_default()));
                rec.push(r.metric.name.clone());
                rec.push(if r.value.is_finite() { r.value.to_string() } else { String::new() });
                rec.push(r.metric.unit.clone().unwrap_or_default());
                rec.push(r.metric.direction.as_str().to_string());
                rec
            })
            .collect();
        super::output::csv_table(&header, &body)
    }
}

/// A param's CSV column: its name, unless a fixed column has it.
fn column(param: &str) -> String {
    if FIXED.contains(&param) {
        format!("param.{param}")
    } else {
        param.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(id: i64, sweep: &str, params: &[(&str, &str)]) -> RunRecord {
        RunRecord {
            id,
            source: "a.jsonl".into(),
            line: 1,
            time: format!("{sweep}T00:00:00Z"),
            time_origin: "log".into(),
            sweep: sweep.into(),
            params: params.iter().map(|(k, v)| ((*k).to_string(), Value::Text((*v).to_string()))).collect(),
        }
    }

    #[test]
    fn a_key_param_is_recorded_in_every_sweep_and_varies_within_one() {
        let runs = [
            run(1, "2026-11-20", &[("config", "a"), ("c", "1"), ("num_prompts", "16"), ("repeat", "1")]),
            run(2, "2026-11-20", &[("config", "b"), ("c", "1"), ("num_prompts", "16"), ("repeat", "2")]),
            run(3, "2026-11-29", &[("config", "a"), ("c", "1"), ("tag", "x")]),
            run(4, "2026-11-29", &[("config", "a"), ("c", "2"), ("tag", "y")]),
        ];
        // num_prompts and tag are each in one sweep only; c varies in the second; repeat tells repeats apart.
        assert_eq!(key_params(&runs), ["c", "config"]);
        assert_eq!(key_params(&runs[..2]), ["config"]);
    }
}
