//! airspeed velocity (asv) results, `results/<machine>/<commit>-<env>.json`
//! (format version 2): `{commit_hash, env_name, date, params,
//! result_columns, results: {benchmark: [column values…]}}`.
//!
//! * One run per benchmark × point of its params product (itertools'
//!   order: the first param varies slowest), with the params `benchmark`,
//!   `param1`, `param2`, … (the results file holds the values, not the
//!   names: those are in asv's `benchmarks.json`; quoted reprs such as
//!   `'d'` lose their quotes, numbers are numbers), `commit_hash`,
//!   `env_name` and the file's `params` (`machine`, `python`, …).
//! * The metric is named for the benchmark's kind: `time` (seconds) for
//!   `time_*`, `peakmem` / `mem` (bytes) for `peakmem_*` / `mem_*`,
//!   `track` for `track_*` (its unit is the benchmark's own); beside it
//!   the `stats_*` columns (`stats_ci_99_a`, `stats_q_25`, … in the same
//!   unit; `stats_number`, `stats_repeat` counts). A point asv could not
//!   measure (`null`) has no run, and is named as skipped.
//! * `started_at` (the benchmark's start, epoch ms) is the run's time, else
//!   the file's `date`; `duration` (seconds, for the whole benchmark) goes
//!   on its first point. `version` (the benchmark code's hash) is a param.

use crate::ingest::LineBytes;
use std::io::BufRead;
use std::path::Path;

use serde_json::{Map, Value as Json};

use super::log_format::{Emit, LogFormat, Outcome, Sniff};
use super::{log_time, pyjson};
use crate::run::{RawRun, Value};
use crate::{Error, Result};

/// `asv run` results.
pub struct Asv;

impl LogFormat for Asv {
    const NAME: &'static str = "asv";

    /// `result_columns` beside `results` and `commit_hash`.
    fn detect(sniff: &Sniff<'_>) -> bool {
        sniff.json.is_some_and(|s| s.has("result_columns") && s.has("results") && s.has("commit_hash"))
    }

    fn parse(path: &Path, input: &mut dyn BufRead, limit: LineBytes, emit: Emit) -> Result<Outcome> {
        let doc = super::limit::read_document(path, input, limit)?;
        let value = pyjson::parse(&doc).map_err(|e| e.into_error(path, 1))?;
        let bad = |what: &str| {
            if value.get("result_columns").is_none() && value.get("version").and_then(Json::as_f64) == Some(1.0) {
                return Error::malformed(path, 1, super::refuse::ASV_VERSION_1);
            }
            Error::malformed(path, 1, format!("{what}, as asv's results (version 2) hold it"))
        };
        let columns: Vec<&str> = value
            .get("result_columns")
            .and_then(Json::as_array)
            .ok_or_else(|| bad("expected `result_columns`"))?
            .iter()
            .filter_map(Json::as_str)
            .collect();
        let Some(Json::Object(results)) = value.get("results") else { return Err(bad("expected `results`")) };
        let shared = shared(&value);
        let starts = pyjson::member_offset(&doc, "results").unwrap_or(0);
        let mut failed = 0;
        let mut samples = false;
        for (name, row) in results {
            let line = find_line(&doc, starts, name);
            let Json::Array(row) = row else {
                return Err(Error::malformed(path, line, format!("`{name}` is not a list of result columns")));
            };
            let cols: Map<String, Json> = columns.iter().map(|c| (*c).to_string()).zip(row.iter().cloned()).collect();
            samples |= cols.get("samples").is_some_and(|s| !s.is_null());
            failed += benchmark(&Benchmark { path, line, name, cols: &cols }, &shared, emit)?;
        }
        let mut outcome = Outcome::default();
        if failed > 0 {
            outcome.skipped.push(format!("{failed} points asv could not measure (`null` results) have no run"));
        }
        if samples {
            outcome.skipped.push(
                "`samples` (raw timings, saved with --record-samples) are not stored: `time` is asv's estimate".into(),
            );
        }
        Ok(outcome)
    }
}

/// The line where a benchmark's entry starts.
fn find_line(doc: &[u8], from: usize, name: &str) -> u64 {
    let key = format!("\"{name}\"");
    memchr::memmem::find(&doc[from..], key.as_bytes()).map_or(1, |o| pyjson::line_of(doc, from + o))
}

/// The params and time every run of the file shares.
fn shared(value: &Json) -> RawRun {
    let mut run = RawRun::new(1);
    for key in ["commit_hash", "env_name"] {
        if let Some(Json::String(s)) = value.get(key) {
            run.param(key, Value::Text(s.clone()));
        }
    }
    if let Some(Json::Object(params)) = value.get("params") {
        for (k, v) in params {
            if let Some(s) = v.as_str() {
                run.param(k.clone(), Value::from_label(s));
            }
        }
    }
    run.time = value.get("date").and_then(pyjson::as_f64).and_then(log_time::from_epoch);
    run
}

struct Benchmark<'a> {
    path: &'a Path,
    line: u64,
    name: &'a str,
    cols: &'a Map<String, Json>,
}

/// The metric a benchmark measures, by asv's naming of its kinds.
fn metric_of(name: &str) -> (&'static str, Option<&'static str>) {
    let leaf = name.rsplit('.').next().unwrap_or(name);
    if leaf.starts_with("time_") {
        ("time", Some("s"))
    } else if leaf.starts_with("peakmem_") {
        ("peakmem", Some("B"))
    } else if leaf.starts_with("mem_") {
        ("mem", Some("B"))
    } else {
        ("track", None)
    }
}

/// A param value as asv writes it: the `repr` of a Python value.
fn param_value(v: &Json) -> Value {
    match v {
        Json::String(s) => {
            let unquoted = s.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')).map(str::to_string);
            match unquoted {
                Some(t) => Value::Text(t),
                None => Value::from_label(s),
            }
        }
        other => pyjson::as_f64(other).map_or_else(|| Value::Text(other.to_string()), Value::Num),
    }
}

/// Emits a benchmark's runs; returns how many points had no result.
fn benchmark(b: &Benchmark<'_>, shared: &RawRun, emit: Emit) -> Result<usize> {
    let params: Vec<Vec<Value>> = match b.cols.get("params") {
        Some(Json::Array(axes)) => axes
            .iter()
            .map(|a| a.as_array().map(|vs| vs.iter().map(param_value).collect()).unwrap_or_default())
            .collect(),
        _ => Vec::new(),
    };
    let points: usize = params.iter().map(Vec::len).product();
    let result = match b.cols.get("result") {
        Some(Json::Array(r)) => r.clone(),
        Some(other) => vec![other.clone()],
        None => Vec::new(),
    };
    if result.len() != points {
        return Err(Error::malformed(
            b.path,
            b.line,
            format!("`{}` holds {} results for {points} points of its params", b.name, result.len()),
        ));
    }
    let (metric, unit) = metric_of(b.name);
    let time = b.cols.get("started_at").and_then(pyjson::as_f64).and_then(log_time::from_epoch);
    let mut failed = 0;
    let mut first = true;
    for (i, r) in result.iter().enumerate() {
        let Some(x) = pyjson::as_f64(r) else {
            failed += 1;
            continue;
        };
        let mut run = RawRun::new(b.line);
        run.time = time.clone().or_else(|| shared.time.clone());
        run.param("benchmark", Value::Text(b.name.to_string()));
        // The point's coordinates: the first param varies slowest.
        let mut rest = i;
        let mut coords = vec![Value::Num(0.0); params.len()];
        for (axis, values) in params.iter().enumerate().rev() {
            coords[axis] = values[rest % values.len()].clone();
            rest /= values.len();
        }
        for (axis, v) in coords.into_iter().enumerate() {
            run.param(format!("param{}", axis + 1), v);
        }
        if let Some(Json::String(v)) = b.cols.get("version") {
            run.param("version", Value::Text(v.clone()));
        }
        run.params.extend(shared.params.iter().cloned());
        add(&mut run, metric, x, unit);
        for (col, v) in b.cols.iter().filter(|(c, _)| c.starts_with("stats_")) {
            let at = v.as_array().and_then(|a| a.get(i)).unwrap_or(v);
            if let Some(x) = pyjson::as_f64(at) {
                let counted = col == "stats_number" || col == "stats_repeat";
                add(&mut run, col, x, if counted { None } else { unit });
            }
        }
        if first {
            if let Some(d) = b.cols.get("duration").and_then(pyjson::as_f64) {
                run.metric_with_unit("duration", d, "s");
            }
            first = false;
        }
        emit(run)?;
    }
    Ok(failed)
}

fn add(run: &mut RawRun, name: &str, x: f64, unit: Option<&str>) {
    match unit {
        Some(u) => run.metric_with_unit(name, x, u),
        None => run.metric(name, x),
    }
}
