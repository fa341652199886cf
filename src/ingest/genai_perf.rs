//! GenAI-Perf and `AIPerf` profile exports: `profile_export_genai_perf.json`
//! / `profile_export_aiperf.json` (`genai-perf-json`) and their CSV,
//! `profile_export_genai_perf.csv` / `…_aiperf.csv` (`genai-perf-csv`).
//!
//! * One run per file.
//! * JSON: each member that is `{unit, avg, min, max, p50, …}` is a metric
//!   in that unit (`ms`, `requests/sec` as req/s, `tokens/sec` as tok/s,
//!   `tokens/sec/user`, `sec` as s; `tokens`, `requests` and `count` are
//!   counts, with no unit): `time_to_first_token_avg`, `…_p99`, `…_min`,
//!   `…_max`; a member holding only `avg` (a throughput, a count) is the
//!   metric by its own name, `request_throughput`. `unit` is never a
//!   param. `std`, `count` and `sum` are not stored (named in the notes):
//!   they are no better for being larger or smaller, and reckon judges a
//!   metric's statistics by its direction. Numbers written as text
//!   (`"avg": "7"`) are numbers.
//! * `input_config` (the command's settings) gives the params by their own
//!   names (`concurrency`, `request_rate`, `backend`, `streaming`, nested
//!   ones dotted: `extra_inputs.max_tokens`, `loadgen.concurrency`); a list
//!   of names (`model: ["gpt2_vllm"]`) is one text param; where it wrote
//!   its outputs is not a param. Other text members (`aiperf_version`) are
//!   params, `start_time` the run's time; lists and objects that are no
//!   metric (`error_summary`, telemetry) are named as not stored.
//! * CSV: the table under `Metric,avg,min,max,p99,…` gives `<metric>_<stat>`
//!   with the unit in the metric's parentheses (`Time To First Token (ms)`
//!   is `time_to_first_token_avg`, … in ms), the table under `Metric,Value`
//!   one metric each (`Request Throughput (per sec)` is
//!   `request_throughput` in req/s); GenAI-Perf writes `1,234.56` with
//!   thousands separators. GPU telemetry tables (`Metric,GPU,…`) are named
//!   as not stored.

use crate::ingest::LineBytes;
use std::collections::BTreeSet;
use std::io::BufRead;
use std::path::Path;

use serde_json::{Map, Value as Json};

use super::log_format::{Emit, LogFormat, Outcome, Sniff};
use super::{log_time, pyjson};
use crate::run::{RawRun, Value};
use crate::syntax::read_grouped;
use crate::{Error, Result};

/// The statistics of a metric that are not stored.
const UNJUDGED: [&str; 3] = ["std", "count", "sum"];

/// `input_config` members that say where the outputs went.
const OUTPUT_PLACES: [&str; 3] = ["artifact_dir", "profile_export_file", "output"];

/// GenAI-Perf / `AIPerf` JSON profile exports.
pub struct GenaiPerfJson;

/// GenAI-Perf / `AIPerf` CSV profile exports.
pub struct GenaiPerfCsv;

impl LogFormat for GenaiPerfJson {
    const NAME: &'static str = "genai-perf-json";

    /// Members `{unit, avg, …}` under GenAI-Perf's metric names, beside
    /// `input_config`, `aiperf_version` or `schema_version`, or several.
    fn detect(sniff: &Sniff<'_>) -> bool {
        sniff.json.is_some_and(|s| {
            let named = ["request_latency", "request_throughput", "time_to_first_token", "output_token_throughput"]
                .iter()
                .filter(|k| s.has(k))
                .count();
            s.first == Some(b'{')
                && s.has_inner("unit")
                && (s.has_inner("avg") || s.has_inner("p50"))
                && (named >= 2
                    || (named == 1 && ["input_config", "aiperf_version", "schema_version"].iter().any(|k| s.has(k))))
        })
    }

    fn parse(path: &Path, input: &mut dyn BufRead, limit: LineBytes, emit: Emit) -> Result<Outcome> {
        let doc = super::limit::read_document(path, input, limit)?;
        let value = pyjson::parse(&doc).map_err(|e| e.into_error(path, 1))?;
        let Json::Object(obj) = &value else {
            return Err(Error::malformed(path, 1, "expected one JSON object, as GenAI-Perf writes its export"));
        };
        let mut run = RawRun::new(1);
        let mut left = BTreeSet::new();
        let mut unjudged = false;
        for (k, v) in obj {
            match v {
                Json::Object(m) if m.contains_key("unit") => unjudged |= metric(path, k, m, &mut run)?,
                Json::Object(config) if k == "input_config" => settings("", config, &mut run, &mut left),
                Json::String(_) if k == "end_time" => {
                    left.insert(k.clone());
                }
                Json::String(s) if log_time::is_time_name(k) => {
                    if run.time.is_none() {
                        run.time = log_time::from_text(s);
                    }
                }
                Json::String(s) => run.param(k.clone(), Value::from_label(s)),
                Json::Bool(b) => run.param(k.clone(), Value::Text(b.to_string())),
                Json::Null => {}
                Json::Number(_) => run.metric(k.clone(), pyjson::as_f64(v).unwrap_or(f64::NAN)),
                Json::Array(_) | Json::Object(_) => {
                    left.insert(k.clone());
                }
            }
        }
        emit(run)?;
        let mut outcome = Outcome::default();
        if unjudged {
            outcome.skipped.push(unjudged_note());
        }
        if !left.is_empty() {
            let names: Vec<String> = left.iter().map(|k| format!("`{k}`")).collect();
            outcome
                .skipped
                .push(format!("{} (no metric of the run, or where it wrote) are not stored", names.join(", ")));
        }
        Ok(outcome)
    }
}

fn unjudged_note() -> String {
    "each metric's `std`, `count` and `sum` are not stored: none is better for being larger or smaller".into()
}

/// The unit reckon keeps for a unit GenAI-Perf writes (`None`: a count).
fn unit(written: &str, name: &str) -> Option<String> {
    let u = match written.trim() {
        "tokens" | "requests" | "count" | "" => return None,
        "requests/sec" | "requests/s" => "req/s",
        "tokens/sec" | "tokens/s" => "tok/s",
        "tokens/sec/user" => "tok/s/user",
        "sec" | "seconds" => "s",
        // The CSV's `(per sec)` of a throughput says per second only.
        "per sec" if name.contains("token") => "tok/s",
        "per sec" if name.contains("request") => "req/s",
        other => other,
    };
    Some(u.to_string())
}

/// One `{unit, avg, …}` member as metrics; whether it held statistics
/// that are not stored.
fn metric(path: &Path, name: &str, m: &Map<String, Json>, run: &mut RawRun) -> Result<bool> {
    let unit = unit(m.get("unit").and_then(Json::as_str).unwrap_or_default(), name);
    let stats: Vec<(&String, &Json)> = m.iter().filter(|(k, _)| k.as_str() != "unit").collect();
    let alone = stats.iter().all(|(k, _)| k.as_str() == "avg" || UNJUDGED.contains(&k.as_str()));
    let mut unjudged = false;
    for (stat, v) in stats {
        if UNJUDGED.contains(&stat.as_str()) {
            unjudged = true;
            continue;
        }
        let x = match v {
            Json::String(s) => read_grouped(s.trim()),
            Json::Null => continue,
            other => pyjson::as_f64(other),
        };
        let Some(x) = x else {
            return Err(Error::malformed(path, 1, format!("`{name}.{stat}` holds {v}, expected a number")));
        };
        let metric = if alone { name.to_string() } else { format!("{name}_{stat}") };
        match &unit {
            Some(u) => run.metric_with_unit(metric, x, u),
            None => run.metric(metric, x),
        }
    }
    Ok(unjudged)
}

/// `input_config` as params (`prefix` the dotted path to `config`).
fn settings(prefix: &str, config: &Map<String, Json>, run: &mut RawRun, left: &mut BTreeSet<String>) {
    for (k, v) in config {
        let name = format!("{prefix}{k}");
        match v {
            _ if OUTPUT_PLACES.contains(&k.as_str()) => {
                left.insert(format!("input_config.{name}"));
            }
            Json::Null => {}
            Json::String(s) => run.param(name, Value::from_label(s)),
            Json::Bool(b) => run.param(name, Value::Text(b.to_string())),
            Json::Number(_) => run.param(name, Value::Num(pyjson::as_f64(v).unwrap_or(f64::NAN))),
            Json::Object(inner) => settings(&format!("{name}."), inner, run, left),
            Json::Array(items) if items.iter().all(|i| i.is_string() || i.is_number()) => {
                let texts: Vec<String> =
                    items.iter().map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_string)).collect();
                run.param(name, Value::from_label(&texts.join(",")));
            }
            Json::Array(_) => {
                left.insert(format!("input_config.{name}"));
            }
        }
    }
}

impl LogFormat for GenaiPerfCsv {
    const NAME: &'static str = "genai-perf-csv";

    /// A first line `Metric,avg,…` or `Metric,Value`, as GenAI-Perf and
    /// `AIPerf` head their tables.
    fn detect(sniff: &Sniff<'_>) -> bool {
        let first = sniff.text.split(|&b| b == b'\n').next().map(pyjson::trim).unwrap_or_default();
        first.starts_with(b"Metric,avg,")
            || (first == b"Metric,Value" && sniff.text.windows(11).any(|w| w == b"(per sec),"))
    }

    fn parse(path: &Path, input: &mut dyn BufRead, limit: LineBytes, emit: Emit) -> Result<Outcome> {
        let doc = super::limit::read_document(path, input, limit)?;
        super::csv_line::whole_last_row(path, &doc)?;
        let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(&doc[..]);
        let mut run = RawRun::new(1);
        let mut header: Option<Vec<String>> = None;
        let mut telemetry = BTreeSet::new();
        let mut unjudged = false;
        for record in reader.records() {
            let record = record.map_err(|e| {
                let line = e.position().map_or(1, csv::Position::line);
                Error::malformed(path, line, format!("not a GenAI-Perf CSV table: {e}"))
            })?;
            let line = record.position().map_or(1, csv::Position::line);
            let cells: Vec<&str> = record.iter().map(str::trim).collect();
            // Each table starts with its header (the csv reader skips the
            // blank line GenAI-Perf writes between them).
            if cells.first() == Some(&"Metric") {
                header = None;
            }
            let Some(columns) = &header else {
                if cells.first() != Some(&"Metric") {
                    return Err(Error::malformed(path, line, "expected a table header starting with `Metric`"));
                }
                unjudged |= cells.iter().any(|c| UNJUDGED.contains(c));
                header = Some(cells.iter().map(|c| (*c).to_string()).collect());
                continue;
            };
            if columns.get(1).map(String::as_str) == Some("GPU") {
                telemetry.insert(cells[0].to_string());
                continue;
            }
            row(path, line, columns, &cells, &mut run)?;
        }
        emit(run)?;
        let mut outcome = Outcome::default();
        if unjudged {
            outcome.skipped.push(unjudged_note());
        }
        if !telemetry.is_empty() {
            let names: Vec<String> = telemetry.iter().map(|n| format!("`{n}`")).collect();
            outcome.skipped.push(format!("GPU telemetry ({}) is not stored", names.join(", ")));
        }
        Ok(outcome)
    }
}

/// `Time To First Token (ms)` as (`time_to_first_token`, `ms`).
fn metric_name(label: &str) -> (String, &str) {
    let (name, unit) = match label.rfind(" (") {
        Some(i) if label.ends_with(')') => (&label[..i], &label[i + 2..label.len() - 1]),
        _ => (label, ""),
    };
    let snake: String =
        name.trim().chars().map(|c| if c.is_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    (snake, unit)
}

/// One row of a table: a metric's statistics, or its one value.
fn row(path: &Path, line: u64, columns: &[String], cells: &[&str], run: &mut RawRun) -> Result<()> {
    let (name, written) = metric_name(cells[0]);
    let unit = unit(written, &name);
    let alone = columns.len() == 2;
    for (stat, cell) in columns.iter().zip(cells).skip(1) {
        if UNJUDGED.contains(&stat.as_str()) || cell.is_empty() {
            continue;
        }
        let Some(x) = read_grouped(cell) else {
            return Err(Error::malformed(path, line, format!("`{}` {stat} is not a number", cells[0])));
        };
        let metric = if alone { name.clone() } else { format!("{name}_{stat}") };
        match &unit {
            Some(u) => run.metric_with_unit(metric, x, u),
            None => run.metric(metric, x),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::log_format::collect;

    #[test]
    fn json_metrics_carry_their_units_and_config_its_params() {
        let text = r#"{"request_throughput": {"unit": "requests/sec", "avg": "7"},
            "time_to_first_token": {"unit": "ms", "avg": 11, "p99": 12, "std": 10, "count": 3},
            "output_sequence_length": {"unit": "tokens", "avg": 51, "p50": 56},
            "aiperf_version": "0.3.0", "start_time": "2025-08-01T10:00:00Z", "error_summary": [],
            "input_config": {"model": ["m"], "concurrency": 4, "extra_inputs": {"max_tokens": 256},
                             "artifact_dir": "artifacts/x"}}"#;
        let (runs, outcome) = collect::<GenaiPerfJson>("p.json", text).unwrap();
        let r = &runs[0];
        let m = |k: &str| r.metrics.iter().find(|x| x.name == k).map(|x| (x.value, x.unit.as_deref()));
        assert_eq!(m("request_throughput"), Some((7.0, Some("req/s"))));
        assert_eq!(m("time_to_first_token_p99"), Some((12.0, Some("ms"))));
        assert_eq!(m("output_sequence_length_p50"), Some((56.0, None)));
        assert_eq!(m("time_to_first_token_std"), None);
        assert_eq!(r.time.as_deref(), Some("2025-08-01T10:00:00Z"));
        let p = |k: &str| r.params.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        assert_eq!(p("model"), Some(Value::Text("m".into())));
        assert_eq!(p("extra_inputs.max_tokens"), Some(Value::Num(256.0)));
        assert_eq!(p("aiperf_version"), Some(Value::Text("0.3.0".into())));
        assert!(p("unit").is_none() && p("artifact_dir").is_none());
        assert_eq!(outcome.skipped.len(), 2, "{:?}", outcome.skipped);
        assert!(outcome.skipped[1].contains("`error_summary`, `input_config.artifact_dir`"), "{:?}", outcome.skipped);
    }

    #[test]
    fn csv_tables_and_thousands_separators() {
        let text = "Metric,avg,min,max,p99,std\nRequest Latency (ms),\"1,234.50\",1.00,2.00,3.00,0.5\n\n\
                    Metric,Value\nRequest Throughput (per sec),12.00\n\nMetric,GPU,avg\nGPU Power Usage (W),gpu0,1\n";
        let (runs, outcome) = collect::<GenaiPerfCsv>("p.csv", text).unwrap();
        let m = |k: &str| runs[0].metrics.iter().find(|x| x.name == k).map(|x| (x.value, x.unit.clone()));
        assert_eq!(m("request_latency_avg"), Some((1234.5, Some("ms".into()))));
        assert_eq!(m("request_throughput"), Some((12.0, Some("req/s".into()))));
        assert_eq!(m("request_latency_std"), None);
        assert_eq!(outcome.skipped.len(), 2);
        assert_eq!(outcome.skipped[1], "GPU telemetry (`GPU Power Usage (W)`) is not stored");
        let bad = collect::<GenaiPerfCsv>("p.csv", "Metric,avg\nRequest Latency (ms),fast\n").unwrap_err();
        assert!(bad.to_string().starts_with("p.csv:2:"), "{bad}");
    }
}
