//! vLLM benchmark result JSON (`benchmark_serving.py --save-result` and
//! `vllm bench serve`): one object (compact or pretty-printed, any key
//! order), `--append-result` files (one object per line, often no final
//! newline), and `vllm bench sweep` `summary.json` arrays (one run per
//! element).
//!
//! How an object becomes a run:
//! * `date` (`YYYYMMDD-HHMMSS`, the benchmark machine's local time with no
//!   zone) is the run time, read as UTC: `2025-06-30T12:34:56Z`;
//! * strings are params. `--metadata KEY=VALUE` keys are strings even when
//!   they hold numbers (`"tp": "8"`): those become numeric params so they
//!   sort as numbers. `request_rate: "inf"` is the param `inf`;
//! * numbers are metrics, except the run's settings: `num_prompts`,
//!   `request_rate`, `burstiness`, `max_concurrency`, ramp-up settings,
//!   the sweep's `run_number` and swept server args (names such as
//!   `max_num_seqs`, see [`super::generic::is_identity_name`]);
//! * `null` is left out (`request_goodput` without `--goodput`); the old
//!   key `request_goodput:` (with the colon) is read as `request_goodput`;
//! * arrays are per-request detail (`ttfts`, `itls`, `generated_texts`,
//!   `errors`, …) and are not stored;
//! * all-failed runs (completed 0, zeros everywhere) are stored as written:
//!   the data say what happened.

use crate::ingest::LineBytes;
use std::collections::BTreeSet;
use std::io::BufRead;
use std::path::Path;

use serde_json::Value as Json;

use super::generic::is_identity_name;
use super::log_format::{Emit, LogFormat, Outcome, Sniff};
use super::pyjson;
use crate::run::{RawRun, Value};
use crate::{Error, Result};

/// String keys vLLM itself writes; other string keys are `--metadata`.
const TEXT_KEYS: &[&str] = &["endpoint_type", "backend", "label", "model_id", "tokenizer_id", "ramp_up_strategy"];

/// Numeric keys that are settings of the run.
const PARAM_KEYS: &[&str] = &[
    "num_prompts",
    "request_rate",
    "burstiness",
    "max_concurrency",
    "ramp_up_start_rps",
    "ramp_up_end_rps",
    "run_number",
    "seed",
];

/// Parses a vLLM result file: one object, JSON lines, or an array.
/// vLLM's result JSON.
pub struct VllmJson;

impl LogFormat for VllmJson {
    const NAME: &'static str = "vllm-json";

    /// JSON whose keys are vLLM's: `endpoint_type`, the misspelt
    /// `request_goodput:`, a `date` with `model_id`, `tokenizer_id`,
    /// `burstiness`, `request_goodput` or `completed`, or `burstiness` with
    /// `completed`; one object, or an array of them.
    fn detect(sniff: &Sniff<'_>) -> bool {
        let Some(s) = sniff.json else { return false };
        s.has("endpoint_type")
            || s.has("request_goodput:")
            || (s.has("date")
                && ["model_id", "tokenizer_id", "burstiness", "request_goodput", "completed"].iter().any(|k| s.has(k)))
            || (s.has("burstiness") && s.has("completed"))
    }

    fn parse(path: &Path, input: &mut dyn BufRead, limit: LineBytes, emit: Emit) -> Result<Outcome> {
        parse(path, input, limit, emit)
    }
}

pub fn parse(path: &Path, input: &mut dyn BufRead, limit: LineBytes, emit: Emit) -> Result<Outcome> {
    let mut arrays: BTreeSet<String> = BTreeSet::new();
    pyjson::read_records(path, input, limit, &mut |line, value| {
        let Json::Object(obj) = value else {
            return Err(Error::malformed(
                path,
                line,
                format!("expected a vLLM result object, found {}", super::generic::kind_of(&value)),
            ));
        };
        let run = to_run(path, line, &obj, &mut arrays)?;
        emit(run)
    })?;
    Ok(Outcome::arrays_skipped(&arrays))
}

fn to_run(
    path: &Path,
    line: u64,
    obj: &serde_json::Map<String, Json>,
    arrays: &mut BTreeSet<String>,
) -> Result<RawRun> {
    let mut run = RawRun::new(line);
    for (raw_key, v) in obj {
        // Old benchmark_serving.py wrote this key with a trailing colon.
        let key = if raw_key == "request_goodput:" { "request_goodput" } else { raw_key.as_str() };
        match v {
            Json::Null => {}
            Json::Array(_) => {
                if !arrays.contains(key) {
                    arrays.insert(key.to_string());
                }
            }
            Json::Object(inner) => {
                // Not written by vLLM today; keep it readable if it comes.
                super::generic::add_object(&mut run, key, inner, &super::generic::GenericOptions::default())
                    .map_err(|m| Error::malformed(path, line, m))?;
            }
            Json::Bool(b) => run.param(key, Value::Text(b.to_string())),
            Json::String(s) if key == "date" => {
                let time = date_to_rfc3339(s).ok_or_else(|| {
                    Error::malformed(path, line, format!("`date` is `{s}`, expected YYYYMMDD-HHMMSS as vLLM writes it"))
                })?;
                run.time = Some(time);
            }
            Json::String(s) => match pyjson::sentinel_f64(s) {
                Some(x) => add_number(&mut run, key, x),
                None if key == "request_rate" => {
                    let text = Value::Text(s.clone());
                    run.param(key, text.as_f64().map_or(text, Value::Num));
                }
                None if TEXT_KEYS.contains(&key) => run.param(key, Value::Text(s.clone())),
                None => run.param(key, Value::from_label(s)),
            },
            Json::Number(_) => {
                if let Some(x) = pyjson::as_f64(v) {
                    add_number(&mut run, key, x);
                }
            }
        }
    }
    Ok(run)
}

fn add_number(run: &mut RawRun, key: &str, x: f64) {
    if PARAM_KEYS.contains(&key) || is_identity_name(key) {
        run.param(key, Value::Num(x));
    } else if key == "duration" {
        run.metric_with_unit(key, x, "s");
    } else if key == "spec_decode_acceptance_rate" {
        run.metric_with_unit(key, x, "%");
    } else {
        run.metric(key, x);
    }
}

/// `20250630-123456` → `2025-06-30T12:34:56Z`, checking that the fields are
/// a real date and time.
pub fn date_to_rfc3339(s: &str) -> Option<String> {
    let t = chrono::NaiveDateTime::parse_from_str(s.trim(), "%Y%m%d-%H%M%S").ok()?;
    Some(t.format("%Y-%m-%dT%H:%M:%SZ").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_as_utc() {
        assert_eq!(date_to_rfc3339("20250630-123456").as_deref(), Some("2025-06-30T12:34:56Z"));
        assert_eq!(date_to_rfc3339("20251340-000000"), None);
    }

    #[test]
    fn metadata_goodput_and_rates() {
        let text = "{\"date\": \"20250530-194738\", \"tp\": \"8\", \"gpu\": \"L40S\", \
            \"request_rate\": \"inf\", \"request_goodput:\": 3.5, \"max_num_seqs\": 4, \"completed\": 0, \
            \"failed\": 8, \"itls\": [[0.1]]}";
        let (runs, o) = crate::ingest::log_format::collect::<VllmJson>("v.json", text).unwrap();
        let r = &runs[0];
        assert_eq!(r.time.as_deref(), Some("2025-05-30T19:47:38Z"));
        let p = |k: &str| r.params.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        assert_eq!(p("tp"), Some(Value::Num(8.0)));
        assert_eq!(p("gpu"), Some(Value::Text("L40S".into())));
        assert_eq!(p("request_rate"), Some(Value::Num(f64::INFINITY)));
        assert_eq!(p("max_num_seqs"), Some(Value::Num(4.0)));
        let names: Vec<&str> = r.metrics.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, vec!["completed", "failed", "request_goodput"]);
        assert_eq!(o.skipped.len(), 1);
    }
}
