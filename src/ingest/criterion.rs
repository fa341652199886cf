//! criterion.rs output, `target/criterion/<group>/<function>[/<value>]/new/`
//! (and `base/`, a named baseline, `change/`): `sample.json`,
//! `estimates.json`, `benchmark.json` (format `criterion-json`, which of
//! them told by content) and `raw.csv` (`criterion-csv`).
//!
//! * The benchmark's ids come from its folders, which criterion names
//!   after them: the param `benchmark` (`group/function/value`), `group`,
//!   and `function` / `value` where there are such folders (a numeric last
//!   one is the value), and `baseline` (`new`, `base`, a saved baseline's
//!   name, `change`). `raw.csv` names them in its columns. `benchmark.json`
//!   holds the same ids and no measurement: it is read as no run, and said.
//! * `sample.json`: each sample is a repeat (param `repeat`, 1, 2, …), its
//!   metric `time` the time of one iteration in ns, `times[i] / iters[i]`
//!   (a sample's time is the total of its `iters[i]` iterations, which grow
//!   100× across a linear sampling), and `iterations` the count;
//!   `raw.csv` alike (`sample_measured_value / iteration_count`, in its
//!   `unit`).
//! * `estimates.json`: one run of criterion's point estimates — `mean`,
//!   `median`, `median_abs_dev`, `slope`, `std_dev` (ns per iteration),
//!   each with `_lower`, `_upper` (its confidence interval) and
//!   `_standard_error`; `confidence_level` a param. `change/estimates.json`
//!   holds `mean` and `median` only: the relative change against the
//!   baseline, stored as `mean_change`, `median_change` (fractions).

use crate::ingest::LineBytes;
use std::io::BufRead;
use std::path::Path;

use serde_json::{Map, Value as Json};

use super::log_format::{Emit, LogFormat, Outcome, Sniff, Unnamed};
use super::pyjson;
use crate::run::{RawRun, Value};
use crate::syntax::read_logged;
use crate::{Error, Result};

/// criterion's `sample.json`, `estimates.json` and `benchmark.json`.
pub struct CriterionJson;

impl LogFormat for CriterionJson {
    const NAME: &'static str = "criterion-json";

    fn detect(sniff: &Sniff<'_>) -> bool {
        sniff.json.is_some_and(|s| {
            s.first == Some(b'{')
                && ((s.has("sampling_mode") && s.has("iters") && s.has("times"))
                    || (s.has("mean") && s.has_inner("point_estimate"))
                    || (s.has("group_id") && (s.has("full_id") || s.has("directory_name"))))
        })
    }

    fn parse(path: &Path, input: &mut dyn BufRead, limit: LineBytes, emit: Emit) -> Result<Outcome> {
        let doc = super::limit::read_document(path, input, limit)?;
        let value = pyjson::parse(&doc).map_err(|e| e.into_error(path, 1))?;
        let Json::Object(obj) = value else {
            return Err(Error::malformed(path, 1, "expected a criterion JSON object"));
        };
        let (ids, unnamed) = ids(path);
        if obj.contains_key("sampling_mode") {
            return samples(path, &obj, &ids, emit).map(|o| Outcome { unnamed, ..o });
        }
        if obj.contains_key("group_id") {
            let mut outcome = Outcome::default();
            outcome.skipped.push(
                "a criterion benchmark.json names its benchmark and holds no measurement: \
                 the runs come from the sample.json and estimates.json beside it"
                    .into(),
            );
            return Ok(outcome);
        }
        emit(estimates(path, &obj, &ids)?)?;
        Ok(Outcome { unnamed, ..Outcome::default() })
    }
}

/// The labels that name a benchmark whose file does not.
const NAMING_LABELS: &[&str] = &["benchmark", "group", "function"];

/// The ids of the benchmark a file is of: from criterion's `benchmark.json`
/// beside it (in its folder, or for `change/` in the `new/` or `base/`
/// beside that), else from the folders under a folder named `criterion`.
/// Neither: the baseline folder alone, and what to say unless a label
/// names the benchmark — its runs would pool with other benchmarks'.
fn ids(path: &Path) -> (Vec<(String, Value)>, Option<Unnamed>) {
    let dir = path.parent().unwrap_or(Path::new(""));
    let baseline = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let beside =
        [dir.to_path_buf(), dir.with_file_name("new"), dir.with_file_name("base")].map(|d| d.join("benchmark.json"));
    if let Some(mut ids) = beside.iter().filter(|p| p.is_file()).find_map(|p| ids_from_benchmark_json(p)) {
        ids.push(("baseline".into(), Value::Text(baseline)));
        return (ids, None);
    }
    let ids = ids_from_path(path);
    if !ids.is_empty() {
        return (ids, None);
    }
    let msg = format!(
        "which criterion benchmark this file is of cannot be told: no benchmark.json beside it and no folder \
         named `criterion` above it (criterion writes `target/criterion/<group>/<function>/<value>/{}/`), so its \
         runs would pool with other benchmarks'. Copy criterion's benchmark.json along with it, keep the \
         `criterion/` folder in the path, or name the benchmark in the [[source]] path template \
         (e.g. `results/{{date}}/{{group}}/{{function}}/new/estimates.json`) or with --label benchmark=…",
        if ["base", "change"].contains(&baseline.as_str()) { baseline.as_str() } else { "new" }
    );
    let ids = if baseline.is_empty() { Vec::new() } else { vec![("baseline".into(), Value::Text(baseline))] };
    (ids, Some(Unnamed { labels: NAMING_LABELS, msg }))
}

/// The ids criterion's `benchmark.json` gives (`group_id`, `function_id`,
/// `value_str`), as the folders would; `None` when it does not read as one.
fn ids_from_benchmark_json(path: &Path) -> Option<Vec<(String, Value)>> {
    let bytes = crate::fsguard::read_regular(path, path).ok()?;
    let doc = pyjson::parse(&bytes).ok()?;
    let text = |k: &str| doc.get(k).and_then(Json::as_str).map(str::to_string);
    let group = text("group_id")?;
    let (function, value) = (text("function_id"), text("value_str"));
    let id: Vec<&str> = [Some(group.as_str()), function.as_deref(), value.as_deref()].into_iter().flatten().collect();
    let mut ids =
        vec![("benchmark".to_string(), Value::Text(id.join("/"))), ("group".into(), Value::Text(group.clone()))];
    if let Some(f) = function {
        ids.push(("function".into(), Value::Text(f)));
    }
    if let Some(v) = value {
        ids.push(("value".into(), Value::from_label(&v)));
    }
    Some(ids)
}

/// The ids criterion's folders give a file: `.../<group>/<function>/<value>/
/// <baseline>/<file>`, read up to a folder named `criterion`.
fn ids_from_path(path: &Path) -> Vec<(String, Value)> {
    let dirs: Vec<String> = path
        .parent()
        .into_iter()
        .flat_map(Path::ancestors)
        .filter_map(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .take(5)
        .collect();
    let Some(end) = dirs.iter().position(|d| d == "criterion") else { return Vec::new() };
    if end < 2 {
        return Vec::new();
    }
    // dirs[0] is the baseline folder; dirs[1..end] the ids, innermost first.
    let mut parts: Vec<&String> = dirs[1..end].iter().collect();
    parts.reverse();
    let mut ids = vec![
        ("benchmark".to_string(), Value::Text(parts.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("/"))),
        ("group".to_string(), Value::Text(parts[0].clone())),
    ];
    match parts.len() {
        2 if read_logged(parts[1]).is_some() => ids.push(("value".into(), Value::from_label(parts[1]))),
        2 => ids.push(("function".into(), Value::Text(parts[1].clone()))),
        3 => {
            ids.push(("function".into(), Value::Text(parts[1].clone())));
            ids.push(("value".into(), Value::from_label(parts[2])));
        }
        _ => {}
    }
    ids.push(("baseline".into(), Value::Text(dirs[0].clone())));
    ids
}

/// A list of numbers.
fn numbers(path: &Path, obj: &Map<String, Json>, key: &str) -> Result<Vec<f64>> {
    let bad = || Error::malformed(path, 1, format!("`{key}` is not a list of numbers, as criterion writes it"));
    obj.get(key).and_then(Json::as_array).ok_or_else(bad)?.iter().map(|v| pyjson::as_f64(v).ok_or_else(bad)).collect()
}

fn samples(path: &Path, obj: &Map<String, Json>, ids: &[(String, Value)], emit: Emit) -> Result<Outcome> {
    let iters = numbers(path, obj, "iters")?;
    let times = numbers(path, obj, "times")?;
    if iters.len() != times.len() {
        return Err(Error::malformed(
            path,
            1,
            "`iters` and `times` differ in length; criterion writes one each per sample",
        ));
    }
    let mode = obj.get("sampling_mode").and_then(Json::as_str);
    for (i, (n, t)) in iters.iter().zip(&times).enumerate() {
        if *n <= 0.0 {
            return Err(Error::malformed(path, 1, format!("sample {} ran {n} iterations", i + 1)));
        }
        let mut run = RawRun::new(1);
        run.params.extend(ids.iter().cloned());
        if let Some(m) = mode {
            run.param("sampling_mode", Value::Text(m.to_string()));
        }
        run.param("repeat", Value::Num((i + 1) as f64));
        run.metric_with_unit("time", t / n, "ns");
        run.metric("iterations", *n);
        emit(run)?;
    }
    let mut outcome = Outcome::default();
    outcome.skipped.push(
        "the samples' totals (`times`) are not stored as such: `time` is each sample's time per iteration \
         (times[i] / iters[i]), `iterations` its `iters`"
            .into(),
    );
    Ok(outcome)
}

fn estimates(path: &Path, obj: &Map<String, Json>, ids: &[(String, Value)]) -> Result<RawRun> {
    let mut run = RawRun::new(1);
    run.params.extend(ids.iter().cloned());
    let change = obj.keys().all(|k| k == "mean" || k == "median");
    for (name, est) in obj {
        let Json::Object(est) = est else { continue };
        let num = |k: &str| est.get(k).and_then(pyjson::as_f64);
        let interval = est.get("confidence_interval").and_then(Json::as_object);
        let bound = |k: &str| interval.and_then(|c| c.get(k)).and_then(pyjson::as_f64);
        let Some(point) = num("point_estimate") else {
            return Err(Error::malformed(path, 1, format!("`{name}` has no `point_estimate`")));
        };
        let values = [
            (String::new(), Some(point)),
            ("_lower".into(), bound("lower_bound")),
            ("_upper".into(), bound("upper_bound")),
            ("_standard_error".into(), num("standard_error")),
        ];
        for (suffix, v) in values {
            let Some(v) = v else { continue };
            if change {
                run.metric(format!("{name}_change{suffix}"), v);
            } else {
                run.metric_with_unit(format!("{name}{suffix}"), v, "ns");
            }
        }
        if let (Some(level), false) =
            (bound("confidence_level"), run.params.iter().any(|(k, _)| k == "confidence_level"))
        {
            run.param("confidence_level", Value::Num(level));
        }
    }
    Ok(run)
}

/// criterion's `raw.csv`.
pub struct CriterionCsv;

const RAW_HEADER: &str =
    "group,function,value,throughput_num,throughput_type,sample_measured_value,unit,iteration_count";

impl LogFormat for CriterionCsv {
    const NAME: &'static str = "criterion-csv";

    /// The header criterion writes.
    fn detect(sniff: &Sniff<'_>) -> bool {
        let text = sniff.text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(sniff.text);
        text.starts_with(RAW_HEADER.as_bytes())
    }

    fn parse(path: &Path, input: &mut dyn BufRead, limit: LineBytes, emit: Emit) -> Result<Outcome> {
        let doc = super::limit::read_document(path, input, limit)?;
        let doc = doc.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&doc);
        super::csv_line::whole_last_row(path, doc)?;
        let mut reader = csv::ReaderBuilder::new().has_headers(true).from_reader(doc);
        let mut repeats: std::collections::HashMap<String, f64> = std::collections::HashMap::new();
        let mut lines = super::csv_line::LineCount::default();
        for record in reader.records() {
            let record = record
                .map_err(|e| Error::malformed(path, e.position().map_or(1, csv::Position::line), e.to_string()))?;
            let line = record.position().map_or(0, |p| lines.at(doc, p.byte()));
            let cell = |i: usize| record.get(i).unwrap_or_default();
            let number = |i: usize, what: &str| {
                read_logged(cell(i))
                    .ok_or_else(|| Error::malformed(path, line, format!("`{what}` is `{}`, not a number", cell(i))))
            };
            let (measured, iterations) = (number(5, "sample_measured_value")?, number(7, "iteration_count")?);
            if iterations <= 0.0 {
                return Err(Error::malformed(path, line, format!("a sample of {iterations} iterations")));
            }
            let mut run = RawRun::new(line);
            let id: Vec<&str> = [cell(0), cell(1), cell(2)].into_iter().filter(|c| !c.is_empty()).collect();
            run.param("benchmark", Value::Text(id.join("/")));
            run.param("group", Value::Text(cell(0).to_string()));
            for (i, k) in [(1, "function"), (2, "value"), (3, "throughput_num"), (4, "throughput_type")] {
                if !cell(i).is_empty() {
                    run.param(k, Value::from_label(cell(i)));
                }
            }
            let n = repeats.entry(id.join("/")).or_insert(0.0);
            *n += 1.0;
            run.param("repeat", Value::Num(*n));
            let unit = cell(6);
            if unit.is_empty() {
                run.metric("time", measured / iterations);
            } else {
                run.metric_with_unit("time", measured / iterations, unit);
            }
            run.metric("iterations", iterations);
            emit(run)?;
        }
        let mut outcome = Outcome::default();
        outcome.skipped.push(
            "the samples' totals (`sample_measured_value`) are not stored as such: `time` is each sample's time \
             per iteration"
                .into(),
        );
        Ok(outcome)
    }
}
