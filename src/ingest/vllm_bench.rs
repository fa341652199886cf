//! vLLM's offline benchmarks, `--output-json`: `benchmark_latency.py` /
//! `vllm bench latency` (`{avg_latency, latencies: [...], percentiles:
//! {"10": …, …, "99": …}}`) and `benchmark_throughput.py` /
//! `vllm bench throughput` (`{elapsed_time, num_requests,
//! total_num_tokens, requests_per_second, tokens_per_second}`).
//!
//! * Latency: each of `latencies` (one end-to-end time of the whole batch
//!   per iteration, in seconds) is a run: param `iteration` (1, 2, …, a
//!   repeat marker), metric `latency` (s, lower is better), so a claim on
//!   `latency` rests on every iteration. The summaries vLLM computed from
//!   them go on the first: `avg_latency` and `latency_p10` … `latency_p99`
//!   (s), the way hyperfine's summaries are kept.
//! * Throughput: one run; `requests_per_second` (req/s) and
//!   `tokens_per_second` (tok/s) higher is better, `elapsed_time` (s),
//!   `total_num_tokens` a count with no direction, `num_requests` a param
//!   (the number of prompts it was asked to run).
//! * Keys a fork adds: numbers are metrics by their name, text is a param;
//!   a list or object no rule above covers is named as not stored.

use crate::ingest::LineBytes;
use std::io::BufRead;
use std::path::Path;

use serde_json::{Map, Value as Json};

use super::log_format::{Emit, LogFormat, Outcome, Sniff};
use super::pyjson;
use crate::run::{RawRun, Value};
use crate::{Error, Result};

/// `vllm bench latency` / `vllm bench throughput` JSON.
pub struct VllmBench;

impl LogFormat for VllmBench {
    const NAME: &'static str = "vllm-bench";

    /// `avg_latency` with `latencies` or `percentiles`; or `elapsed_time`
    /// with `requests_per_second` and `tokens_per_second`.
    fn detect(sniff: &Sniff<'_>) -> bool {
        sniff.json.is_some_and(|s| {
            s.first == Some(b'{')
                && ((s.has("avg_latency") && (s.has("latencies") || s.has("percentiles")))
                    || (s.has("elapsed_time") && s.has("requests_per_second") && s.has("tokens_per_second")))
        })
    }

    fn parse(path: &Path, input: &mut dyn BufRead, limit: LineBytes, emit: Emit) -> Result<Outcome> {
        let doc = super::limit::read_document(path, input, limit)?;
        let value = pyjson::parse(&doc).map_err(|e| e.into_error(path, 1))?;
        let Json::Object(obj) = &value else {
            return Err(Error::malformed(path, 1, "expected one JSON object, as `vllm bench --output-json` writes"));
        };
        let mut first = RawRun::new(1);
        let mut outcome = Outcome::default();
        for (k, v) in obj {
            match (k.as_str(), v) {
                ("latencies", _) => {}
                ("percentiles", Json::Object(p)) => percentiles(path, p, &mut first)?,
                ("num_requests", _) if pyjson::as_f64(v).is_some() => {
                    first.param(k.clone(), Value::Num(pyjson::as_f64(v).unwrap_or_default()));
                }
                (_, Json::String(s)) => first.param(k.clone(), Value::from_label(s)),
                (_, Json::Null) => {}
                (_, Json::Bool(b)) => first.param(k.clone(), Value::Text(b.to_string())),
                (_, Json::Array(_) | Json::Object(_)) => {
                    outcome.skipped.push(format!("`{k}` is not a layout vLLM's latency or throughput JSON writes"));
                }
                (_, Json::Number(_)) => {
                    let x = pyjson::as_f64(v).unwrap_or(f64::NAN);
                    match unit(k) {
                        Some(u) => first.metric_with_unit(k.clone(), x, u),
                        None => first.metric(k.clone(), x),
                    }
                }
            }
        }
        match obj.get("latencies") {
            None => emit(first)?,
            Some(Json::Array(latencies)) => repeats(path, &doc, latencies, first, emit)?,
            Some(_) => return Err(Error::malformed(path, 1, "`latencies` must be a list of seconds")),
        }
        Ok(outcome)
    }
}

/// The unit of a number vLLM's offline benchmarks write.
fn unit(key: &str) -> Option<&'static str> {
    match key {
        "avg_latency" | "elapsed_time" => Some("s"),
        "requests_per_second" => Some("req/s"),
        "tokens_per_second" => Some("tok/s"),
        _ => None,
    }
}

/// `percentiles` (`{"10": 7.18, …}`, seconds) as `latency_p10`, ….
fn percentiles(path: &Path, p: &Map<String, Json>, run: &mut RawRun) -> Result<()> {
    for (pct, v) in p {
        let Some(x) = pyjson::as_f64(v) else {
            return Err(Error::malformed(path, 1, format!("`percentiles.{pct}` holds {v}, expected seconds")));
        };
        run.metric_with_unit(format!("latency_p{pct}"), x, "s");
    }
    Ok(())
}

/// One run per iteration of `latencies`, each at the line it is written on.
fn repeats(path: &Path, doc: &[u8], latencies: &[Json], first: RawRun, emit: Emit) -> Result<()> {
    let start = pyjson::member_offset(doc, "latencies").unwrap_or(0);
    let offsets: Vec<usize> = pyjson::array_element_offsets(&doc[start..], 0).into_iter().map(|o| start + o).collect();
    let lines = pyjson::lines_of(doc, &offsets);
    let params = first.params.clone();
    let mut first = Some(first);
    for (i, v) in latencies.iter().enumerate() {
        let line = lines.get(i).copied().unwrap_or(1);
        let Some(x) = pyjson::as_f64(v) else {
            return Err(Error::malformed(path, line, format!("`latencies` holds {v}, expected seconds")));
        };
        let mut run = first.take().unwrap_or_else(|| RawRun { params: params.clone(), ..RawRun::default() });
        run.line = line;
        run.param("iteration", Value::Num((i + 1) as f64));
        run.metric_with_unit("latency", x, "s");
        emit(run)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::log_format::collect;

    #[test]
    fn latencies_are_the_repeats_and_summaries_sit_on_the_first() {
        let text = "{\n  \"avg_latency\": 2.0,\n  \"latencies\": [\n    1.5,\n    2.5\n  ],\n  \
                    \"percentiles\": {\"50\": 2.0, \"99\": 2.49}\n}";
        let (runs, outcome) = collect::<VllmBench>("l.json", text).unwrap();
        assert_eq!(runs.len(), 2);
        assert_eq!((runs[0].line, runs[1].line), (4, 5));
        let m = |r: &RawRun, k: &str| r.metrics.iter().find(|x| x.name == k).map(|x| (x.value, x.unit.clone()));
        assert_eq!(m(&runs[1], "latency"), Some((2.5, Some("s".into()))));
        assert_eq!(m(&runs[0], "latency_p99"), Some((2.49, Some("s".into()))));
        assert_eq!(m(&runs[0], "avg_latency"), Some((2.0, Some("s".into()))));
        assert_eq!(m(&runs[1], "avg_latency"), None, "summaries once");
        assert_eq!(runs[1].params, vec![("iteration".into(), Value::Num(2.0))]);
        assert!(outcome.skipped.is_empty());
        let bad = collect::<VllmBench>("l.json", "{\"avg_latency\": 1, \"latencies\": [1, \"x\"]}").unwrap_err();
        assert!(bad.to_string().contains("l.json:1: `latencies` holds \"x\""), "{bad}");
    }

    #[test]
    fn throughput_is_one_run_with_rates() {
        let text = r#"{"elapsed_time": 10.0, "num_requests": 20, "total_num_tokens": 500,
                       "requests_per_second": 2.0, "tokens_per_second": 50.0, "extra": [1]}"#;
        let (runs, outcome) = collect::<VllmBench>("t.json", text).unwrap();
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].params, vec![("num_requests".into(), Value::Num(20.0))]);
        let units: Vec<_> = runs[0].metrics.iter().map(|m| (m.name.as_str(), m.unit.as_deref())).collect();
        assert_eq!(
            units,
            [
                ("elapsed_time", Some("s")),
                ("requests_per_second", Some("req/s")),
                ("tokens_per_second", Some("tok/s")),
                ("total_num_tokens", None)
            ]
        );
        assert_eq!(outcome.skipped, ["`extra` is not a layout vLLM's latency or throughput JSON writes"]);
    }
}
