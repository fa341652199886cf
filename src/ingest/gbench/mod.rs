//! Google Benchmark (`--benchmark_format=json|csv`, `--benchmark_out`):
//! one row per benchmark run, the same whichever reporter wrote it.
//!
//! * A row's name is split into its family and arguments: `BM_Copy/1024/8`
//!   is `family = BM_Copy`, `arg1 = 1024`, `arg2 = 8`; `name:value` parts
//!   (`threads:8`, `repeats:100`, `min_time:0.5`) are params by that name;
//!   `manual_time`, `real_time`, `process_time` are `timing`. The whole run
//!   name is `benchmark` (a series: `series = "benchmark"`).
//! * Each repetition is a run: `repetition_index` (a repeat marker; in CSV,
//!   which names no index, the rows of a name counted from 0) tells them
//!   apart, so the repetitions of a benchmark are one point.
//! * `real_time` and `cpu_time` are per iteration, read in the row's
//!   `time_unit` and stored in ns (a metric has one unit in the store, and
//!   each benchmark may set its own); `bytes_per_second` (B/s) and
//!   `items_per_second` (items/s)
//!   are higher-is-better; every other number (user counters) is a metric
//!   by its own name; `threads` is a setting. `iterations` is a metric
//!   with no direction: Google Benchmark chooses it from how fast the code
//!   ran, so a faster or slower build runs another count and, as a param,
//!   it would put the same benchmark of two builds at two points.
//! * A repetition that reported an error (`error_occurred`) measured
//!   nothing: it is not stored, and the file's outcome names it.
//! * Aggregate rows (`_mean`, `_median`, `_stddev`, `_cv`, `_min`, `_max`,
//!   `_BigO`, `_RMS`) summarise the repetitions and are kept out of the
//!   runs: their values go on the benchmark's first repetition as
//!   `real_time_mean`, `cpu_time_stddev`, … (a time in ns; `cv`
//!   and `RMS` are fractions, with no unit), the way hyperfine's summaries
//!   are kept.
//! * JSON's `context` gives the run time (`date`) and params (`host_name`,
//!   `num_cpus`, `library_build_type`, custom context keys); its `caches`
//!   and `load_avg` describe the machine and are named as not stored.

mod csv;
mod json;

pub use csv::GbenchCsv;
pub use json::GbenchJson;

use std::collections::BTreeSet;

use super::log_format::{Emit, Outcome};
use crate::run::{RawRun, Value};
use crate::Result;

/// One row of either reporter.
#[derive(Debug, Default)]
struct Row {
    line: u64,
    /// The run's name, without an aggregate's suffix.
    run_name: String,
    /// `mean`, `median`, `stddev`, `cv`, `min`, `max`, `BigO`, `RMS`.
    aggregate: Option<String>,
    repetition: Option<f64>,
    /// How many repetitions the benchmark was run for.
    repetitions: Option<f64>,
    iterations: Option<f64>,
    threads: Option<f64>,
    time_unit: Option<String>,
    /// `real_time`, `cpu_time`, the rates and user counters.
    values: Vec<(String, f64)>,
    /// `label`, `error_occurred`, `error_message`.
    texts: Vec<(String, String)>,
}

impl Row {
    /// Whether the row is a repetition that reported an error.
    fn failed(&self) -> bool {
        self.texts.iter().any(|(k, v)| k == "error_occurred" && v == "true")
    }
}

/// What every run of a file shares: the time and params of `context`.
#[derive(Debug, Default)]
struct Shared {
    time: Option<String>,
    params: Vec<(String, Value)>,
    /// What the file holds that is not stored, said once.
    skipped: BTreeSet<String>,
    /// How the file was read that its numbers' reader should know.
    notes: BTreeSet<String>,
}

/// The aggregates Google Benchmark computes over repetitions.
const AGGREGATES: &[&str] = &["mean", "median", "stddev", "cv", "min", "max", "BigO", "RMS"];

/// The params a benchmark name says: `family`, then `argN` for each
/// positional argument and `name:value` parts by their name.
fn name_params(run_name: &str) -> Vec<(String, Value)> {
    let mut parts = run_name.split('/');
    let mut params = vec![("family".to_string(), Value::Text(parts.next().unwrap_or_default().to_string()))];
    let mut positional = 0;
    for part in parts {
        if let Some((k, v)) = part.split_once(':') {
            params.push((k.to_string(), Value::from_label(v)));
        } else if matches!(part, "manual_time" | "real_time" | "process_time") {
            params.push(("timing".to_string(), Value::Text(part.to_string())));
        } else {
            positional += 1;
            params.push((format!("arg{positional}"), Value::from_label(part)));
        }
    }
    params
}

/// A value of a row as stored: its unit, and the value in it. Times are
/// stored in ns whatever the row's `time_unit` (each benchmark may set its
/// own, and a metric has one unit in the store: `real_time` in µs for one
/// benchmark and ns for the next would be read as one unit).
fn stored(name: &str, value: f64, time_unit: Option<&str>) -> (Option<&'static str>, f64) {
    match name {
        "real_time" | "cpu_time" => match time_unit.and_then(ns_per) {
            Some(scale) => (Some("ns"), value * scale),
            None => (None, value),
        },
        "bytes_per_second" => (Some("B/s"), value),
        "items_per_second" => (Some("items/s"), value),
        _ => (None, value),
    }
}

/// Nanoseconds in one of Google Benchmark's time units.
fn ns_per(unit: &str) -> Option<f64> {
    Some(match unit {
        "ns" => 1.0,
        "us" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        _ => return None,
    })
}

/// The run of an iteration row.
fn iteration_run(row: &Row, shared: &Shared) -> RawRun {
    let mut run = RawRun::new(row.line);
    run.time.clone_from(&shared.time);
    // Sized once: grown push by push, a run's two lists were reallocated
    // about eight times, for runs of a few values each.
    let name_parts = row.run_name.split('/').count();
    run.params.reserve(1 + name_parts + 3 + row.texts.len() + shared.params.len());
    run.metrics.reserve(row.values.len() + 1);
    run.params.push(("benchmark".into(), Value::Text(row.run_name.clone())));
    run.params.extend(name_params(&row.run_name));
    let has = |run: &RawRun, k: &str| run.params.iter().any(|(n, _)| n == k);
    for (k, v) in [("threads", row.threads), ("repetitions", row.repetitions)] {
        if let (Some(v), false) = (v, has(&run, k)) {
            run.param(k, Value::Num(v));
        }
    }
    if let Some(r) = row.repetition {
        run.param("repetition_index", Value::Num(r));
    }
    for (k, v) in &row.texts {
        run.param(k.clone(), Value::Text(v.clone()));
    }
    for (k, v) in &shared.params {
        if !has(&run, k) {
            run.params.push((k.clone(), v.clone()));
        }
    }
    for (name, v) in &row.values {
        match stored(name, *v, row.time_unit.as_deref()) {
            (Some(u), v) => run.metric_with_unit(name.clone(), v, u),
            (None, v) => run.metric(name.clone(), v),
        }
    }
    if let Some(n) = row.iterations {
        run.metric("iterations", n);
    }
    run
}

/// Adds an aggregate row's values to a run as `NAME_AGGREGATE`.
fn add_aggregate(run: &mut RawRun, row: &Row) {
    let Some(agg) = row.aggregate.as_deref() else { return };
    // A spread or centre of times is a time; `cv` and `RMS` are fractions,
    // `BigO` a coefficient of the complexity.
    let timed = matches!(agg, "mean" | "median" | "stddev" | "min" | "max");
    for (name, v) in &row.values {
        let metric = format!("{name}_{agg}");
        if run.metrics.iter().any(|m| m.name == metric) {
            continue;
        }
        match stored(name, *v, row.time_unit.as_deref()) {
            (Some(u), v) if timed => run.metric_with_unit(metric, v, u),
            _ => run.metric(metric, *v),
        }
    }
}

/// Emits the runs of a file's rows: each benchmark's iteration rows in
/// order, its aggregates on the first of them (or on a run of their own
/// when the file holds aggregates only).
fn emit_rows(rows: Vec<Row>, mut shared: Shared, emit: Emit) -> Result<Outcome> {
    // Each benchmark's rows, in the order of its first: a name is copied
    // once per benchmark, not twice per row, and hashed with FxHash (a
    // file of 12,000 single-row benchmarks spent 3% of its ingest in
    // SipHash).
    let mut groups: Vec<Vec<Row>> = Vec::new();
    let mut at: rustc_hash::FxHashMap<String, usize> = rustc_hash::FxHashMap::default();
    for row in rows {
        if let Some(&i) = at.get(row.run_name.as_str()) {
            groups[i].push(row);
        } else {
            at.insert(row.run_name.clone(), groups.len());
            groups.push(vec![row]);
        }
    }
    drop(at);
    for rows in groups {
        let name = rows.first().map(|r| r.run_name.clone()).unwrap_or_default();
        let (aggregates, iterations): (Vec<Row>, Vec<Row>) = rows.into_iter().partition(|r| r.aggregate.is_some());
        let (failed, measured): (Vec<Row>, Vec<Row>) = iterations.into_iter().partition(Row::failed);
        for row in &failed {
            let why = row.texts.iter().find(|(k, _)| k == "error_message").map_or("", |(_, m)| m.as_str());
            shared.skipped.insert(format!(
                "`{name}` at line {}: the repetition reported an error ({why}) and measured nothing, not stored",
                row.line
            ));
        }
        let mut runs: Vec<RawRun> = measured.iter().map(|r| iteration_run(r, &shared)).collect();
        if runs.is_empty() && failed.is_empty() {
            if let Some(first) = aggregates.first() {
                let mut own = Row { line: first.line, run_name: name.clone(), ..Row::default() };
                own.threads = first.threads;
                runs.push(iteration_run(&own, &shared));
            }
        }
        if !aggregates.is_empty() {
            shared
                .skipped
                .insert("the `iterations` of aggregate rows (the number of repetitions each summarises)".to_string());
        }
        if let Some(first) = runs.first_mut() {
            for row in &aggregates {
                add_aggregate(first, row);
            }
        }
        for run in runs {
            emit(run)?;
        }
    }
    Ok(Outcome {
        skipped: shared.skipped.into_iter().collect(),
        notes: shared.notes.into_iter().collect(),
        unnamed: None,
    })
}

#[cfg(test)]
mod tests;
