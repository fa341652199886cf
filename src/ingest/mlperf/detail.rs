//! `mlperf_log_detail.txt`: loadgen's events, one `:::MLLOG {json}` per
//! line. The test's outcome is read from them — `effective_*` settings as
//! params, `result_*` numbers as metrics, `result_validity` as `result`,
//! `test_datetime` as the run's time — under the names the summary file's
//! reader gives. What else loadgen logs (the requested settings, its build,
//! its own bookkeeping) is named as not stored.

use crate::ingest::LineBytes;
use std::collections::BTreeSet;
use std::io::BufRead;
use std::path::Path;

use serde_json::Value as Json;

use super::{snake, unit_of};
use crate::ingest::log_format::{Emit, LogFormat, Outcome, Sniff};
use crate::ingest::stdout::ConsoleLines;
use crate::ingest::{log_time, pyjson};
use crate::run::{RawRun, Value};
use crate::{Error, Result};

/// loadgen's `mlperf_log_detail.txt`.
pub struct MlperfDetail;

const MARK: &str = ":::MLLOG ";

impl LogFormat for MlperfDetail {
    const NAME: &'static str = "mlperf-detail";

    /// `:::MLLOG` lines with loadgen's keys (`MLPerf` Training logs the same
    /// way, with keys of its own).
    fn detect(s: &Sniff<'_>) -> bool {
        let text = String::from_utf8_lossy(s.text);
        let first = text.lines().map(str::trim).find(|l| !l.is_empty());
        first.is_some_and(|l| l.starts_with(MARK))
            && ["\"loadgen_version\"", "\"effective_scenario\"", "\"result_validity\""].iter().any(|k| text.contains(k))
    }

    fn parse(path: &Path, input: &mut dyn BufRead, _: LineBytes, emit: Emit) -> Result<Outcome> {
        parse(path, input, emit)
    }
}

/// What loadgen's events said that is not stored.
#[derive(Default)]
struct Left {
    requested: bool,
    keys: BTreeSet<String>,
    errors: usize,
    /// The line of `effective_test_mode`.
    mode_line: u64,
}

fn parse(path: &Path, input: &mut dyn BufRead, emit: Emit) -> Result<Outcome> {
    let mut lines = ConsoleLines::new(input);
    let mut run = RawRun::new(1);
    let mut left = Left::default();
    let mut events = 0usize;
    while let Some((line_no, raw)) = lines.next_segment().map_err(|e| Error::io(path, e))? {
        let Some(at) = raw.find(MARK) else { continue };
        let event = pyjson::parse(&raw.as_bytes()[at + MARK.len()..]).map_err(|e| e.into_error(path, line_no))?;
        let Some(key) = event.get("key").and_then(Json::as_str) else {
            return Err(Error::malformed(path, line_no, "this :::MLLOG event has no \"key\""));
        };
        events += 1;
        if key == "effective_test_mode" {
            left.mode_line = line_no;
        }
        if event.pointer("/metadata/is_error") == Some(&Json::Bool(true)) {
            left.errors += 1;
        }
        event_into(key, event.get("value").unwrap_or(&Json::Null), &mut run, &mut left);
    }
    if events == 0 {
        return Err(Error::malformed(path, 1, "no :::MLLOG events found"));
    }
    let mode = run.params.iter().find(|(k, _)| k == "mode");
    if let Some(msg) = mode.and_then(|(_, v)| super::no_performance(&v.to_string())) {
        return Err(Error::malformed(path, left.mode_line, msg));
    }
    if run.metrics.is_empty() {
        return Err(Error::malformed(
            path,
            1,
            "these loadgen events hold no result (`result_samples_per_second`, `result_*_latency_ns`): \
             the test did not finish; ingest the log of a test that ran to its end",
        ));
    }
    emit(run)?;
    Ok(outcome(&left))
}

/// Reads one event into the run, or notes it as left out.
fn event_into(key: &str, value: &Json, run: &mut RawRun, left: &mut Left) {
    let text = |v: &Json| match v {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    };
    match key {
        "test_datetime" => run.time = value.as_str().and_then(log_time::from_iso),
        "loadgen_version" | "sut_name" | "qsl_name" => run.param(key, Value::Text(text(value))),
        "effective_scenario" => run.param("scenario", Value::Text(text(value))),
        "effective_test_mode" => run.param("mode", Value::Text(text(value))),
        "result_validity" => run.param("result", Value::Text(text(value))),
        "result_min_duration_met" | "result_min_queries_met" | "early_stopping_met" | "result_perf_constraints_met" => {
            let name = match key {
                "result_min_duration_met" => "min_duration_satisfied",
                "result_min_queries_met" => "min_queries_satisfied",
                "early_stopping_met" => "early_stopping_satisfied",
                _ => "performance_constraints_satisfied",
            };
            let yes = if value.as_bool() == Some(true) { "Yes" } else { "No" };
            run.param(name, Value::Text(yes.into()));
        }
        _ if key.starts_with("requested_") => left.requested = true,
        _ => {
            if let Some(setting) = key.strip_prefix("effective_") {
                run.param(snake(setting), setting_value(value));
            } else if let Some(result) = key.strip_prefix("result_").filter(|_| value.is_number()) {
                let name = snake(result);
                let v = pyjson::as_f64(value).unwrap_or(f64::NAN);
                match unit_of(&name) {
                    Some(unit) => run.metric_with_unit(name, v, unit),
                    None => run.metric(name, v),
                }
            } else if !matches!(value, Json::String(s) if s.is_empty()) {
                left.keys.insert(key.to_owned());
            }
        }
    }
}

/// A setting's value as the summary file prints it: numbers (a seed past
/// 2^53 as its digits), `true`/`false` as 1/0, text.
fn setting_value(value: &Json) -> Value {
    match value {
        Json::Bool(b) => Value::Num(f64::from(u8::from(*b))),
        Json::Number(n) => super::setting(&n.to_string()),
        Json::String(s) => Value::Text(s.clone()),
        other => Value::Text(other.to_string()),
    }
}

fn outcome(left: &Left) -> Outcome {
    let mut outcome = Outcome::default();
    if left.requested {
        outcome
            .skipped
            .push("the `requested_*` settings are not stored: the `effective_*` ones the test ran with are".into());
    }
    if !left.keys.is_empty() {
        let keys: Vec<&str> = left.keys.iter().map(String::as_str).collect();
        outcome.skipped.push(format!("loadgen's own events ({}) are not stored", keys.join(", ")));
    }
    if left.errors > 0 {
        outcome.skipped.push(format!("loadgen logged {} error event(s); they are not stored", left.errors));
    }
    outcome
}
