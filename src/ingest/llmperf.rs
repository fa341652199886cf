//! llmperf summaries (`token_benchmark_ray.py --results-dir`,
//! `*_summary.json`): one flat object, llmperf's metadata (`model`,
//! `mean_input_tokens`, `num_concurrent_requests`, `--metadata` keys, …)
//! beside its results flattened under `results_`.
//!
//! * One run. The metadata are params (numbers as numbers); `timestamp`
//!   (epoch seconds) is the run's time.
//! * Each `results_*` number is a metric named without llmperf's
//!   `results_` and `quantiles_` (`results_ttft_s_quantiles_p99` is
//!   `ttft_s_p99`). Units from llmperf's names: `ttft_s`,
//!   `inter_token_latency_s`, `end_to_end_latency_s` in seconds (lower is
//!   better), `…_token_per_s` in tok/s (higher), `num_completed_requests_per_min`
//!   in req/min (higher); `error_rate` (a fraction) and `number_errors` are
//!   lower-is-better; token counts and request counts have no direction.
//!   The `min`/`max` llmperf writes as text (`"550"`) are numbers.
//! * `results_error_code_frequency` (a Python dict as text,
//!   `"{429.0: 130}"`) becomes one metric per code,
//!   `error_code_frequency.429`.
//! * llmperf computes its latencies and throughputs over the requests that
//!   did not fail: a summary with errors says so, with how many, in the
//!   file's notes, so 20 survivors of 150 requests are not read as a
//!   service's speed without a word.
//! * The per-request file (`*_individual_responses.json`) is refused by
//!   `refuse` with a pointer to the summary.

use crate::ingest::LineBytes;
use std::io::BufRead;
use std::path::Path;

use serde_json::{Map, Value as Json};

use super::log_format::{Emit, LogFormat, Outcome, Sniff};
use super::{log_time, pyjson};
use crate::run::{RawRun, Value};
use crate::syntax::read_padded;
use crate::{Error, Result};

/// An llmperf `*_summary.json`.
pub struct Llmperf;

impl LogFormat for Llmperf {
    const NAME: &'static str = "llmperf";

    /// `num_concurrent_requests` beside results flattened under `results_`.
    fn detect(sniff: &Sniff<'_>) -> bool {
        sniff.json.is_some_and(|s| {
            s.first == Some(b'{')
                && s.has("num_concurrent_requests")
                && ["results_ttft_s_mean", "results_error_rate", "results_num_completed_requests"]
                    .iter()
                    .any(|k| s.has(k))
        })
    }

    fn parse(path: &Path, input: &mut dyn BufRead, limit: LineBytes, emit: Emit) -> Result<Outcome> {
        let doc = super::limit::read_document(path, input, limit)?;
        let value = pyjson::parse(&doc).map_err(|e| e.into_error(path, 1))?;
        let Json::Object(obj) = &value else {
            return Err(Error::malformed(path, 1, "expected one JSON object, as llmperf writes its summary"));
        };
        let mut run = RawRun::new(1);
        let mut outcome = Outcome::default();
        for (k, v) in obj {
            if let Some(result) = k.strip_prefix("results_") {
                self::result(path, result, v, &mut run)?;
            } else if k == "timestamp" {
                run.time = pyjson::as_f64(v)
                    .and_then(log_time::from_epoch)
                    .or_else(|| v.as_str().and_then(log_time::from_text));
            } else {
                metadata(k, v, &mut run, &mut outcome);
            }
        }
        if let Some(note) = failures(obj) {
            outcome.skipped.push(note);
        }
        emit(run)?;
        Ok(outcome)
    }
}

/// A metadata field as a param: text, numbers, flags; a list or an object
/// (llmperf flattens its own) is named as not stored.
fn metadata(key: &str, v: &Json, run: &mut RawRun, outcome: &mut Outcome) {
    match v {
        Json::Null => {}
        Json::String(s) => run.param(key, Value::from_label(s)),
        Json::Bool(b) => run.param(key, Value::Text(b.to_string())),
        Json::Number(_) => run.param(key, Value::Num(pyjson::as_f64(v).unwrap_or(f64::NAN))),
        Json::Array(_) | Json::Object(_) => {
            outcome.skipped.push(format!("`{key}` (a list or object among llmperf's metadata) is not stored"));
        }
    }
}

/// One `results_*` member (without its prefix) as metrics.
fn result(path: &Path, key: &str, v: &Json, run: &mut RawRun) -> Result<()> {
    if key == "error_code_frequency" {
        return error_codes(path, v, run);
    }
    let x = match v {
        Json::String(s) => read_padded(s),
        Json::Null => return Ok(()),
        other => pyjson::as_f64(other),
    };
    let Some(x) = x else {
        return Err(Error::malformed(path, 1, format!("`results_{key}` holds {v}, expected a number")));
    };
    let name = key.replace("_quantiles_", "_");
    match unit(&name) {
        Some(u) => run.metric_with_unit(name, x, u),
        None => run.metric(name, x),
    }
    Ok(())
}

/// The unit llmperf's name for a result implies.
fn unit(name: &str) -> Option<&'static str> {
    if name.contains("_token_per_s") {
        Some("tok/s")
    } else if name.ends_with("_per_min") {
        Some("req/min")
    } else if ["ttft_s", "inter_token_latency_s", "end_to_end_latency_s"].iter().any(|p| name.starts_with(p)) {
        Some("s")
    } else {
        None
    }
}

/// `"{429.0: 130, 500.0: 2}"` (the `str()` of a Python dict) or the same
/// as a JSON object (`{"429": 130}`) as one metric per code; `"{}"` and
/// `{}` (no request failed) are none.
fn error_codes(path: &Path, v: &Json, run: &mut RawRun) -> Result<()> {
    let bad =
        || Error::malformed(path, 1, format!("`results_error_code_frequency` holds {v}, expected `{{code: count}}`"));
    let mut code_count = |code: &str, count: Option<f64>| {
        let code = code.trim().trim_matches(['\'', '"']);
        let code = code.strip_suffix(".0").unwrap_or(code);
        run.metric(format!("error_code_frequency.{code}"), count.ok_or_else(bad)?);
        Ok(())
    };
    match v {
        Json::Null => Ok(()),
        Json::Object(codes) => codes.iter().try_for_each(|(code, count)| code_count(code, pyjson::as_f64(count))),
        Json::String(text) => {
            let inner = text.trim().strip_prefix('{').and_then(|t| t.strip_suffix('}')).ok_or_else(bad)?;
            for pair in inner.split(',').filter(|p| !p.trim().is_empty()) {
                let (code, count) = pair.split_once(':').ok_or_else(bad)?;
                code_count(code, read_padded(count))?;
            }
            Ok(())
        }
        _ => Err(bad()),
    }
}

/// What a summary with failed requests says about its numbers.
fn failures(obj: &Map<String, Json>) -> Option<String> {
    let errors = obj.get("results_number_errors").and_then(pyjson::as_f64).filter(|&n| n > 0.0)?;
    let started = obj.get("results_num_requests_started").and_then(pyjson::as_f64);
    let completed = obj.get("results_num_completed_requests").and_then(pyjson::as_f64);
    let n = crate::metric::format_number;
    let of = started.map_or(String::new(), |s| format!(" of {}", n(s)));
    let left = completed.map_or("the requests that completed".to_string(), |c| format!("the {} that completed", n(c)));
    Some(format!(
        "{} requests{of} failed (`results_number_errors`): llmperf's latencies, token counts and throughputs \
         in this file are of {left} only",
        n(errors)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::log_format::collect;

    #[test]
    fn results_are_metrics_with_units_and_metadata_params() {
        let text = r#"{"version": "2023-08-31", "model": "m", "num_concurrent_requests": 4,
            "results_ttft_s_quantiles_p99": 0.5, "results_ttft_s_mean": 0.25,
            "results_number_input_tokens_min": "550", "results_error_rate": 0.5, "results_number_errors": 2,
            "results_num_requests_started": 4, "results_num_completed_requests": 2,
            "results_error_code_frequency": "{429.0: 2}", "results_num_completed_requests_per_min": 3.0,
            "results_mean_output_throughput_token_per_s": 9.0, "timestamp": 1718209276}"#;
        let (runs, outcome) = collect::<Llmperf>("s.json", text).unwrap();
        assert_eq!(runs.len(), 1);
        let r = &runs[0];
        assert_eq!(r.time.as_deref(), Some("2024-06-12T16:21:16Z"));
        let m = |k: &str| r.metrics.iter().find(|x| x.name == k).map(|x| (x.value, x.unit.as_deref()));
        assert_eq!(m("ttft_s_p99"), Some((0.5, Some("s"))));
        assert_eq!(m("number_input_tokens_min"), Some((550.0, None)));
        assert_eq!(m("error_code_frequency.429"), Some((2.0, None)));
        assert_eq!(m("num_completed_requests_per_min"), Some((3.0, Some("req/min"))));
        assert_eq!(m("mean_output_throughput_token_per_s"), Some((9.0, Some("tok/s"))));
        assert!(r.params.contains(&("num_concurrent_requests".into(), Value::Num(4.0))));
        assert!(!r.params.iter().any(|(k, _)| k == "timestamp"));
        assert_eq!(
            outcome.skipped,
            ["2 requests of 4 failed (`results_number_errors`): llmperf's latencies, token counts and \
              throughputs in this file are of the 2 that completed only"]
        );
    }

    #[test]
    fn a_result_that_is_not_a_number_is_an_error() {
        let text = r#"{"num_concurrent_requests": 1, "results_error_rate": 0, "results_ttft_s_mean": "fast"}"#;
        let e = collect::<Llmperf>("s.json", text).unwrap_err().to_string();
        assert!(e.contains("s.json:1: `results_ttft_s_mean` holds \"fast\""), "{e}");
        let text = r#"{"num_concurrent_requests": 1, "results_error_code_frequency": "oops"}"#;
        assert!(collect::<Llmperf>("s.json", text).is_err());
        let text = r#"{"num_concurrent_requests": 1, "results_error_code_frequency": {"429": "many"}}"#;
        assert!(collect::<Llmperf>("s.json", text).is_err());
    }

    #[test]
    fn error_codes_written_as_a_json_object_are_read_and_an_empty_one_is_no_errors() {
        let text = r#"{"num_concurrent_requests": 2, "results_error_rate": 0.0, "results_number_errors": 0,
            "results_ttft_s_mean": 0.25, "results_error_code_frequency": {}}"#;
        let (runs, outcome) = collect::<Llmperf>("s.json", text).unwrap();
        let names: Vec<&str> = runs[0].metrics.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["error_rate", "number_errors", "ttft_s_mean"]);
        assert!(outcome.skipped.is_empty(), "{:?}", outcome.skipped);
        let text = r#"{"num_concurrent_requests": 2, "results_error_rate": 0.5,
            "results_error_code_frequency": {"429.0": 3, "-1": 1}}"#;
        let (runs, _) = collect::<Llmperf>("s.json", text).unwrap();
        let m = |k: &str| runs[0].metrics.iter().find(|x| x.name == k).map(|x| x.value);
        assert_eq!((m("error_code_frequency.429"), m("error_code_frequency.-1")), (Some(3.0), Some(1.0)));
    }
}
