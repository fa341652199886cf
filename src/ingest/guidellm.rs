//! guidellm benchmark reports (`guidellm benchmark --output-path
//! benchmarks.json`, and `benchmarks.yaml`: the same report in YAML, read
//! with `serde_yaml_ng`): `{metadata, args, benchmarks: [...]}`, one
//! benchmark per strategy the profile ran (`synchronous`, `throughput`,
//! `constant` at each rate, …).
//!
//! * One run per benchmark, at the line it starts on. Params: `strategy`
//!   (its `type_`) and the strategy's own settings by name (`rate`,
//!   `streams`, `max_concurrency`, `worker_count`, …), read from
//!   `config.strategy` (0.4 and later) or `args.strategy` (earlier);
//!   `model` (the backend's); the command's `args.*` (`args.profile`,
//!   `args.max_seconds`, …; not where it wrote its outputs) and
//!   `metadata.*` (`guidellm_version`, …). `start_time` (epoch seconds) is
//!   the run's time.
//! * Each metric's distribution over the successful requests becomes
//!   `<metric>_mean`, `_median`, `_min`, `_max` and `_p001` … `_p999`, in
//!   the metric's unit: `request_latency` in s, `…_ms` in ms,
//!   `requests_per_second` in req/s, `…tokens_per_second` in tok/s;
//!   concurrency, iterations and token counts have no unit and no
//!   direction. `request_totals` are counts: `request_totals_successful`,
//!   `_errored`, `_incomplete`, `_total`.
//! * Left out, and named in the file's notes: each distribution's other
//!   statistics and its errored/incomplete/total parts, the per-modality
//!   breakdowns (`metrics.text`, `image`, …), the per-request lists
//!   (`requests`), and guidellm's bookkeeping (scheduler state and timings,
//!   constraints, durations). A benchmark with errored or incomplete
//!   requests says its metrics are of the successful ones.

use crate::ingest::LineBytes;
use std::collections::BTreeSet;
use std::io::BufRead;
use std::path::Path;

use serde_json::{Map, Value as Json};

use super::log_format::{Emit, LogFormat, Outcome, Sniff};
use super::{log_time, pyjson};
use crate::run::{RawRun, Value};
use crate::{Error, Result};

/// The statistics of a distribution that are stored, besides percentiles.
const STATS: [&str; 4] = ["mean", "median", "min", "max"];

/// `args` that say where guidellm wrote its outputs, not what it measured.
const OUTPUT_ARGS: [&str; 3] = ["output_dir", "output_path", "outputs"];

/// The members of a benchmark that hold no run's setting or measurement.
const BENCHMARK_KEYS: [&str; 7] = ["type_", "id_", "run_id", "config", "args", "metrics", "start_time"];

/// A guidellm benchmarks report.
pub struct Guidellm;

impl LogFormat for Guidellm {
    const NAME: &'static str = "guidellm";

    /// JSON: `benchmarks` beside `metadata.guidellm_version`, or whose
    /// elements carry guidellm's scheduler statistics (`scheduler_state`,
    /// `run_stats`) or its `type_` with `metrics`. YAML: a top-level
    /// `benchmarks:` with `guidellm_version:` or
    /// `type_: generative_benchmark` in the head.
    fn detect(sniff: &Sniff<'_>) -> bool {
        if let Some(s) = sniff.json {
            return s.first == Some(b'{')
                && s.has("benchmarks")
                && (s.has_inner("guidellm_version")
                    || s.has_deep("scheduler_state")
                    || s.has_deep("run_stats")
                    || (s.has_deep("type_") && s.has_deep("metrics")));
        }
        let mut lines = sniff.text.split(|&b| b == b'\n');
        lines.clone().any(|l| !l.starts_with(b" ") && pyjson::trim(l) == b"benchmarks:")
            && lines.any(|l| {
                let l = pyjson::trim(l);
                l.starts_with(b"guidellm_version:")
                    || l.strip_prefix(b"- ").unwrap_or(l) == b"type_: generative_benchmark"
            })
    }

    fn parse(path: &Path, input: &mut dyn BufRead, limit: LineBytes, emit: Emit) -> Result<Outcome> {
        let doc = super::limit::read_document(path, input, limit)?;
        if pyjson::trim(&doc).first() == Some(&b'{') {
            let value = pyjson::parse(&doc).map_err(|e| e.into_error(path, 1))?;
            return read_report(path, &value, &benchmark_lines(&doc), emit);
        }
        let yaml: serde_yaml_ng::Value = serde_yaml_ng::from_slice(&doc).map_err(|e| {
            let line = e.location().map_or(1, |l| l.line() as u64);
            Error::malformed(path, line, format!("not a YAML document guidellm writes: {e}"))
        })?;
        read_report(path, &json_of(yaml), &yaml_benchmark_lines(&doc), emit)
    }
}

/// A YAML value as the JSON value it stands for (keys that are not text
/// as their text, `.inf` and `.nan` as the numbers they are).
fn json_of(v: serde_yaml_ng::Value) -> Json {
    use serde_yaml_ng::Value as Y;
    match v {
        Y::Null => Json::Null,
        Y::Bool(b) => Json::Bool(b),
        Y::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => Json::from(i),
            (None, Some(u)) => Json::from(u),
            _ => pyjson::number(n.as_f64().unwrap_or(f64::NAN)),
        },
        Y::String(s) => Json::String(s),
        Y::Sequence(items) => Json::Array(items.into_iter().map(json_of).collect()),
        Y::Mapping(m) => Json::Object(
            m.into_iter()
                .map(|(k, v)| {
                    let key = match k {
                        Y::String(s) => s,
                        other => serde_yaml_ng::to_string(&other).unwrap_or_default().trim().to_string(),
                    };
                    (key, json_of(v))
                })
                .collect(),
        ),
        Y::Tagged(t) => json_of(t.value),
    }
}

/// The line each item of the top-level `benchmarks:` sequence starts on
/// (`- ` at the indent of its first item).
fn yaml_benchmark_lines(doc: &[u8]) -> Vec<u64> {
    let mut out = Vec::new();
    let mut inside = false;
    let mut indent = None;
    for (i, line) in doc.split(|&b| b == b'\n').enumerate() {
        let text = pyjson::trim(line);
        let at = line.iter().take_while(|&&b| b == b' ').count();
        if !inside {
            inside = at == 0 && text == b"benchmarks:";
            continue;
        }
        if text.is_empty() || text.starts_with(b"#") {
            continue;
        }
        if text.starts_with(b"- ") || text == b"-" {
            if *indent.get_or_insert(at) == at {
                out.push(i as u64 + 1);
            }
        } else if at == 0 {
            break;
        }
    }
    out
}

/// The line each element of `benchmarks` starts on.
fn benchmark_lines(doc: &[u8]) -> Vec<u64> {
    let start = pyjson::member_offset(doc, "benchmarks").unwrap_or(0);
    let offsets: Vec<usize> = pyjson::array_element_offsets(&doc[start..], 0).into_iter().map(|o| start + o).collect();
    pyjson::lines_of(doc, &offsets)
}

/// The runs of a report already parsed (JSON or YAML), `lines` the line of
/// each benchmark.
pub(crate) fn read_report(path: &Path, value: &Json, lines: &[u64], emit: Emit) -> Result<Outcome> {
    let Some(benchmarks) = value.get("benchmarks").and_then(Json::as_array) else {
        return Err(Error::malformed(path, 1, "expected `{\"benchmarks\": [...]}` as guidellm writes its report"));
    };
    let mut notes = Notes::default();
    let mut shared = RawRun::default();
    if let Some(Json::Object(meta)) = value.get("metadata") {
        scalars("metadata", meta, &[], &mut shared, &mut notes);
    }
    if let Some(Json::Object(args)) = value.get("args") {
        scalars("args", args, &OUTPUT_ARGS, &mut shared, &mut notes);
    }
    let mut failures = Vec::new();
    for (i, b) in benchmarks.iter().enumerate() {
        let line = lines.get(i).copied().unwrap_or(1);
        let Json::Object(b) = b else {
            return Err(Error::malformed(path, line, "expected an object for each guidellm benchmark"));
        };
        let mut run = RawRun { line, params: shared.params.clone(), ..RawRun::default() };
        benchmark(path, b, value.pointer("/args/model"), &mut run, &mut notes)?;
        if let Some(f) = failed(i, b) {
            failures.push(f);
        }
        emit(run)?;
    }
    Ok(notes.into_outcome(failures))
}

/// What a report left out on purpose, gathered over its benchmarks.
#[derive(Default)]
struct Notes {
    /// Lists and objects among `metadata` and `args`.
    settings: BTreeSet<String>,
    /// Members of a benchmark that are guidellm's bookkeeping.
    bookkeeping: BTreeSet<String>,
    /// Per-modality breakdowns under `metrics`.
    breakdowns: BTreeSet<String>,
    requests: bool,
}

impl Notes {
    fn into_outcome(self, failures: Vec<String>) -> Outcome {
        let list = |set: &BTreeSet<String>| set.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ");
        let mut skipped =
            vec!["each distribution's `mode`, `variance`, `std_dev`, `count`, `total_sum`, `pdf` and its `errored`, \
             `incomplete` and `total` parts are not stored: reckon keeps the successful requests' mean, median, \
             min, max and percentiles"
                .to_string()];
        if !self.breakdowns.is_empty() {
            skipped.push(format!("the per-modality breakdowns ({}) are not stored", list(&self.breakdowns)));
        }
        if self.requests {
            skipped.push("`requests` (per-request detail) is not stored".into());
        }
        if !self.bookkeeping.is_empty() {
            skipped.push(format!("guidellm's bookkeeping ({}) is not stored", list(&self.bookkeeping)));
        }
        if !self.settings.is_empty() {
            skipped.push(format!(
                "settings that are lists, objects or output places ({}) are not stored",
                list(&self.settings)
            ));
        }
        skipped.extend(failures);
        Outcome { skipped, ..Outcome::default() }
    }
}

/// The scalars of an object as params `prefix.key`; lists, objects and
/// the `except` keys are named as not stored.
fn scalars(prefix: &str, obj: &Map<String, Json>, except: &[&str], run: &mut RawRun, notes: &mut Notes) {
    for (k, v) in obj {
        let name = format!("{prefix}.{k}");
        if except.contains(&k.as_str()) {
            notes.settings.insert(name);
            continue;
        }
        pyjson::setting(&name, v, run, &mut notes.settings);
    }
}

/// One benchmark's params, time and metrics; `model` the report's
/// `args.model`, for a benchmark whose config names no backend model.
fn benchmark(
    path: &Path,
    b: &Map<String, Json>,
    model: Option<&Json>,
    run: &mut RawRun,
    notes: &mut Notes,
) -> Result<()> {
    let config = b.get("config").or_else(|| b.get("args"));
    let Some(Json::Object(strategy)) = config.and_then(|c| c.get("strategy")) else {
        return Err(Error::malformed(path, run.line, "this guidellm benchmark names no `strategy`"));
    };
    for (k, v) in strategy {
        match (k.as_str(), v) {
            ("type_", Json::String(s)) => run.param("strategy", Value::Text(s.clone())),
            (_, Json::String(s)) => run.param(k.clone(), Value::from_label(s)),
            (_, Json::Bool(x)) => run.param(k.clone(), Value::Text(x.to_string())),
            (_, Json::Number(_)) => run.param(k.clone(), Value::Num(pyjson::as_f64(v).unwrap_or(f64::NAN))),
            _ => {}
        }
    }
    if let Some(Json::String(m)) = config.and_then(|c| c.pointer("/backend/model")).or(model) {
        run.param("model", Value::Text(m.clone()));
    }
    let start = b.get("start_time").or_else(|| b.get("run_stats").and_then(|r| r.get("start_time")));
    run.time = start.and_then(pyjson::as_f64).and_then(log_time::from_epoch);
    let Some(Json::Object(metrics)) = b.get("metrics") else {
        return Err(Error::malformed(path, run.line, "this guidellm benchmark has no `metrics`"));
    };
    for (name, m) in metrics {
        if name == "request_totals" {
            totals(m, run);
        } else if is_distribution(m) {
            distribution(name, unit(name), m, run);
        } else {
            notes.breakdowns.insert(format!("metrics.{name}"));
        }
    }
    if let Some(t) = b.get("request_totals") {
        totals(t, run);
    }
    for k in b.keys() {
        if k == "requests" {
            notes.requests = true;
        } else if !BENCHMARK_KEYS.contains(&k.as_str()) && k != "request_totals" {
            notes.bookkeeping.insert(k.clone());
        }
    }
    // Of the config only the strategy and the model are read.
    for k in ["config", "args"].into_iter().filter(|k| b.contains_key(*k)) {
        notes.bookkeeping.insert(k.into());
    }
    Ok(())
}

/// Whether a metric is a distribution summary by request status
/// (`{successful: {mean, …}, …}`).
fn is_distribution(m: &Json) -> bool {
    m.get("successful").is_some_and(|s| s.get("mean").is_some() || s.get("median").is_some())
}

/// The unit of a guidellm metric, from its name.
fn unit(name: &str) -> Option<&'static str> {
    if name.ends_with("_ms") {
        Some("ms")
    } else if name == "request_latency" {
        Some("s")
    } else if name == "requests_per_second" {
        Some("req/s")
    } else if name.ends_with("tokens_per_second") {
        Some("tok/s")
    } else {
        None
    }
}

/// The successful requests' statistics of one metric.
fn distribution(name: &str, unit: Option<&str>, m: &Json, run: &mut RawRun) {
    let Some(Json::Object(s)) = m.get("successful") else { return };
    let mut put = |stat: &str, v: &Json| {
        let Some(x) = pyjson::as_f64(v) else { return };
        let metric = format!("{name}_{stat}");
        match unit {
            Some(u) => run.metric_with_unit(metric, x, u),
            None => run.metric(metric, x),
        }
    };
    for stat in STATS {
        if let Some(v) = s.get(stat) {
            put(stat, v);
        }
    }
    if let Some(Json::Object(p)) = s.get("percentiles") {
        for (pct, v) in p {
            put(pct, v);
        }
    }
}

/// `request_totals` (`{successful, errored, incomplete, total}`) as counts.
fn totals(t: &Json, run: &mut RawRun) {
    let Json::Object(t) = t else { return };
    for (k, v) in t {
        if let Some(x) = pyjson::as_f64(v) {
            run.metric(format!("request_totals_{k}"), x);
        }
    }
}

/// What a benchmark whose requests did not all succeed says (`index`
/// from 0).
fn failed(index: usize, benchmark: &Map<String, Json>) -> Option<String> {
    let totals =
        benchmark.get("metrics").and_then(|m| m.get("request_totals")).or_else(|| benchmark.get("request_totals"))?;
    let count = |k: &str| totals.get(k).and_then(pyjson::as_f64).unwrap_or(0.0);
    let (succeeded, errored, incomplete) = (count("successful"), count("errored"), count("incomplete"));
    if errored + incomplete == 0.0 {
        return None;
    }
    let shown = crate::metric::format_number;
    Some(format!(
        "benchmark {}: {} requests errored and {} were incomplete; its metrics are of the {} that succeeded",
        index + 1,
        shown(errored),
        shown(incomplete),
        shown(succeeded)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::log_format::collect;

    /// An older report (guidellm 0.2/0.3): the strategy under the
    /// benchmark's `args`, totals beside `metrics`, a rate; errored
    /// requests said.
    #[test]
    fn older_reports_and_errored_requests() {
        let text = r#"{"benchmarks": [
          {"type_": "generative_benchmark", "args": {"strategy": {"type_": "constant", "rate": 4.0}},
           "run_stats": {"start_time": 1744000000.5},
           "request_totals": {"successful": 8, "errored": 2, "incomplete": 0, "total": 10},
           "metrics": {"time_to_first_token_ms": {"successful": {"mean": 12.5, "median": 12.0,
                         "percentiles": {"p99": 20.0}}, "errored": {"mean": 0.0}}}}]}"#;
        let (runs, outcome) = collect::<Guidellm>("b.json", text).unwrap();
        assert_eq!(runs.len(), 1);
        let r = &runs[0];
        assert_eq!(r.line, 2);
        assert_eq!(r.time.as_deref(), Some("2025-04-07T04:26:40Z"));
        assert!(r.params.contains(&("strategy".into(), Value::Text("constant".into()))));
        assert!(r.params.contains(&("rate".into(), Value::Num(4.0))));
        let m = |k: &str| r.metrics.iter().find(|x| x.name == k).map(|x| (x.value, x.unit.as_deref()));
        assert_eq!(m("time_to_first_token_ms_p99"), Some((20.0, Some("ms"))));
        assert_eq!(m("request_totals_errored"), Some((2.0, None)));
        assert!(outcome.skipped.iter().any(|n| n.contains("`run_stats`")), "{:?}", outcome.skipped);
        assert_eq!(
            outcome.skipped.last().map(String::as_str),
            Some("benchmark 1: 2 requests errored and 0 were incomplete; its metrics are of the 8 that succeeded")
        );
        let none = collect::<Guidellm>("b.json", r#"{"benchmarks": [{"metrics": {}}]}"#).unwrap_err();
        assert!(none.to_string().contains("b.json:1: this guidellm benchmark names no `strategy`"), "{none}");
    }

    #[test]
    fn yaml_items_are_found_at_their_lines() {
        let doc = b"metadata:\n  version: 1\nbenchmarks:\n- type_: a\n  x:\n  - 1\n- type_: b\nother: 1\n";
        assert_eq!(yaml_benchmark_lines(doc), vec![4, 7]);
    }
}
