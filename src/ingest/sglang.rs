//! `SGLang` result JSONL: `bench_serving --output-file` in every era (the old
//! flat keys, `tag` + `server_info`, PD-disaggregation `server_info` with
//! `prefill`/`decode` lists, `--output-details` per-request arrays),
//! `lora_bench` lines, and `bench_one_batch` / `bench_one_batch_server` lines.
//!
//! How a line becomes a run:
//! * top-level numbers are metrics, except the run's settings and identity
//!   ([`PARAM_KEYS`]), which are params; strings and booleans are params;
//!   `null` is left out; `Infinity`/`NaN` are numbers like any other
//!   (`request_rate: Infinity` is the param `request_rate = inf`);
//! * top-level arrays (`input_lens`, `ttfts`, `itls`, `generated_texts`,
//!   `errors`, …) are per-request detail and are not stored;
//! * nested objects (`server_info`) are the server's configuration: every
//!   scalar in them is a param, named by its dotted path
//!   (`server_info.speculative_eagle_topk`). Lists of objects are indexed
//!   (`server_info.prefill.0.tp_size`), lists of scalars are skipped, and
//!   `internal_states` (per-rank runtime state that repeats the server args)
//!   is skipped wherever it appears;
//! * `bench_one_batch` latencies (`latency`, `prefill_latency`,
//!   `median_decode_latency`, `total_latency`) and `duration` are seconds;
//!   other units follow from the names (`_ms`, throughputs);
//! * blank lines are fine. A line that is a single word ending in `:`
//!   (`torch:`, `te:` — labels people paste between result lines) is a
//!   section label: the runs after it get the param `section` (`torch`)
//!   until the next label. Any other line that is not a JSON object refuses
//!   the whole file with its line number.

use std::collections::BTreeSet;
use std::io::BufRead;
use std::path::Path;

use serde_json::Value as Json;

use super::log_format::{Emit, LogFormat, Outcome, Sniff};
use super::pyjson::{self, LineReader};
use crate::run::{RawRun, Value};
use crate::{Error, Result};

/// Numeric top-level keys that are settings or identity of the run, stored
/// as params.
pub const PARAM_KEYS: &[&str] = &[
    "tag",
    "backend",
    "dataset_name",
    "request_rate",
    "max_concurrency",
    "sharegpt_output_len",
    "sharegpt_context_len",
    "random_input_len",
    "random_output_len",
    "random_range_ratio",
    "num_prompts",
    "seed",
    "run_name",
    "batch_size",
    "input_len",
    "output_len",
    "model",
    "model_path",
    "model_id",
    "tokenizer",
    "lora_name",
    "gsp_num_groups",
    "gsp_prompts_per_group",
    "gsp_system_prompt_len",
    "gsp_question_len",
    "gsp_output_len",
];

/// Metrics in seconds whose names do not say so.
const SECONDS: &[&str] = &["duration", "latency", "prefill_latency", "median_decode_latency", "total_latency"];

/// Nested keys never stored: per-rank runtime state, repeating the args.
const SKIP_NESTED: &[&str] = &["internal_states"];

/// `SGLang`'s result lines.
pub struct SglangJsonl;

impl LogFormat for SglangJsonl {
    const NAME: &'static str = "sglang-jsonl";

    /// JSON whose keys are `SGLang`'s: `backend` with `completed`,
    /// `output_throughput`, `duration` or `successful_requests`, or
    /// `run_name` with `batch_size` (`bench_one_batch`).
    fn detect(sniff: &Sniff<'_>) -> bool {
        let Some(s) = sniff.json else { return false };
        (s.has("backend")
            && (s.has("completed") || s.has("output_throughput") || s.has("duration") || s.has("successful_requests")))
            || (s.has("run_name") && s.has("batch_size"))
    }

    fn parse(path: &Path, input: &mut dyn BufRead, emit: Emit) -> Result<Outcome> {
        parse(path, input, emit)
    }
}

/// Is the trimmed line a section label such as `torch:`?
fn section_label(line: &[u8]) -> Option<&str> {
    let word = line.strip_suffix(b":")?;
    let ok = !word.is_empty()
        && word.len() <= 64
        && word[0].is_ascii_alphanumeric()
        && word.iter().all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'+' | b'/'));
    if ok {
        std::str::from_utf8(word).ok()
    } else {
        None
    }
}

/// Parses a `SGLang` result JSONL file, one run per JSON line.
pub fn parse(path: &Path, input: &mut dyn BufRead, emit: Emit) -> Result<Outcome> {
    let mut lines = LineReader::new(path, input);
    let mut section: Option<String> = None;
    let mut arrays: BTreeSet<String> = BTreeSet::new();
    while let Some((n, line)) = lines.next_line()? {
        let text = pyjson::trim(line);
        if text.is_empty() {
            continue;
        }
        if let Some(label) = section_label(text) {
            section = Some(label.to_string());
            continue;
        }
        if text[0] != b'{' {
            let shown = String::from_utf8_lossy(&text[..text.len().min(60)]).into_owned();
            return Err(Error::malformed(
                path,
                n,
                format!(
                    "`{shown}` is not a JSON object; a SGLang result file holds one JSON object per line \
                     (a lone `word:` line is read as a section label)"
                ),
            ));
        }
        let value = pyjson::parse(text).map_err(|e| e.into_error(path, n))?;
        let Json::Object(obj) = value else {
            return Err(Error::malformed(path, n, "expected a JSON object (one run per line)"));
        };
        let mut run = RawRun::new(n);
        for (key, v) in &obj {
            add_top(&mut run, key, v, &mut arrays);
        }
        if let Some(s) = &section {
            run.param("section", Value::Text(s.clone()));
        }
        emit(run)?;
    }
    Ok(Outcome::arrays_skipped(&arrays))
}

fn add_top(run: &mut RawRun, key: &str, v: &Json, arrays: &mut BTreeSet<String>) {
    match v {
        Json::Null => {}
        Json::Array(_) => {
            if !arrays.contains(key) {
                arrays.insert(key.to_string());
            }
        }
        Json::Object(obj) => {
            let mut name = key.to_string();
            add_config(run, &mut name, obj);
        }
        Json::Bool(b) => run.param(key, Value::Text(b.to_string())),
        _ => match pyjson::as_f64(v) {
            Some(x) if PARAM_KEYS.contains(&key) => run.param(key, Value::Num(x)),
            Some(x) if SECONDS.contains(&key) => run.metric_with_unit(key, x, "s"),
            Some(x) => run.metric(key, x),
            None => {
                if let Json::String(s) = v {
                    run.param(key, Value::Text(s.clone()));
                }
            }
        },
    }
}

/// Adds the scalars of a configuration object as params named by their
/// dotted path; `name` holds the path so far and is restored on return.
fn add_config(run: &mut RawRun, name: &mut String, obj: &serde_json::Map<String, Json>) {
    let base = name.len();
    for (k, v) in obj {
        if SKIP_NESTED.contains(&k.as_str()) {
            continue;
        }
        name.truncate(base);
        name.push('.');
        name.push_str(k);
        add_config_value(run, name, v);
    }
    name.truncate(base);
}

fn add_config_value(run: &mut RawRun, name: &mut String, v: &Json) {
    match v {
        Json::Null => {}
        Json::Object(o) => add_config(run, name, o),
        Json::Array(items) => {
            // Lists of objects (PD prefill/decode servers) are indexed;
            // lists of numbers (cuda graph batch sizes) are skipped.
            if items.iter().all(Json::is_object) {
                let base = name.len();
                for (i, item) in items.iter().enumerate() {
                    name.truncate(base);
                    name.push('.');
                    name.push_str(&i.to_string());
                    add_config_value(run, name, item);
                }
                name.truncate(base);
            }
        }
        Json::Bool(b) => run.param(name.clone(), Value::Text(b.to_string())),
        Json::String(s) => match pyjson::sentinel_f64(s) {
            Some(x) => run.param(name.clone(), Value::Num(x)),
            None => run.param(name.clone(), Value::Text(s.clone())),
        },
        Json::Number(_) => {
            if let Some(x) = pyjson::as_f64(v) {
                run.param(name.clone(), Value::Num(x));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(text: &str) -> Result<(Vec<RawRun>, Outcome)> {
        crate::ingest::log_format::collect::<SglangJsonl>("r.jsonl", text)
    }

    fn param<'a>(r: &'a RawRun, k: &str) -> Option<&'a Value> {
        r.params.iter().find(|(n, _)| n == k).map(|(_, v)| v)
    }

    #[test]
    fn labels_blank_lines_and_nested_config() {
        let text = "torch:\n{\"run_name\": \"a\", \"batch_size\": 1, \"total_latency\": 0.5, \
            \"server_info\": {\"x\": {\"y\": 2}, \"prefill\": [{\"tp_size\": 4, \
            \"internal_states\": [{\"z\": 1}]}], \"cuda_graph_bs\": [1, 2]}}\n\nte:\n{\"run_name\": \"b\", \
            \"ttfts\": [0.1], \"request_rate\": Infinity}\n";
        let (rs, outcome) = runs(text).unwrap();
        assert_eq!(rs.len(), 2);
        assert_eq!(rs[0].line, 2);
        assert_eq!(param(&rs[0], "section"), Some(&Value::Text("torch".into())));
        assert_eq!(param(&rs[0], "batch_size"), Some(&Value::Num(1.0)));
        assert_eq!(param(&rs[0], "server_info.x.y"), Some(&Value::Num(2.0)));
        assert_eq!(param(&rs[0], "server_info.prefill.0.tp_size"), Some(&Value::Num(4.0)));
        assert!(rs[0].params.iter().all(|(k, _)| !k.contains("internal_states") && !k.contains("cuda_graph_bs")));
        assert_eq!(rs[0].metrics[0].unit.as_deref(), Some("s"));
        assert_eq!(rs[1].line, 5);
        assert_eq!(param(&rs[1], "section"), Some(&Value::Text("te".into())));
        assert_eq!(param(&rs[1], "request_rate"), Some(&Value::Num(f64::INFINITY)));
        assert_eq!(
            outcome.skipped,
            vec!["per-request arrays (ttfts) are not stored; reckon keeps the summary fields".to_string()]
        );
    }

    #[test]
    fn prose_and_truncation_are_refused_at_their_line() {
        let e = runs("{\"backend\": \"sglang\"}\nsome words here\n").unwrap_err().to_string();
        assert!(e.starts_with("r.jsonl:2: `some words here` is not a JSON object"), "{e}");
        let e = runs("{\"backend\": \"sglang\"}\n{\"backend\": \"sgl").unwrap_err().to_string();
        assert!(e.starts_with("r.jsonl:2: column"), "{e}");
        assert!(e.contains("cut short"), "{e}");
    }
}
