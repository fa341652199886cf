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

use crate::ingest::LineBytes;
use std::collections::BTreeSet;
use std::io::BufRead;
use std::path::Path;

use super::log_format::{Emit, LogFormat, Outcome, Sniff};
use super::pyjson::{self, LineReader, Member, Node};
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

    fn parse(path: &Path, input: &mut dyn BufRead, _: LineBytes, emit: Emit) -> Result<Outcome> {
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
    let mut reader = pyjson::Reader::default();
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
            return Err(not_an_object(path, n, text));
        }
        let Node::Obj(members) = reader.parse(text).map_err(|e| e.into_error(path, n))? else {
            return Err(Error::malformed(path, n, "expected a JSON object (one run per line)"));
        };
        // Room for every member up front: growing two vectors member by
        // member cost a reallocation each few members of every record.
        let mut run = RawRun {
            line: n,
            params: Vec::with_capacity(members.len() / 2 + 8),
            metrics: Vec::with_capacity(members.len()),
            time: None,
        };
        for m in &members {
            add_top(&mut run, &m.key, &m.value, &mut arrays);
        }
        if let Some(s) = &section {
            run.param("section", Value::Text(s.clone()));
        }
        emit(run)?;
    }
    Ok(Outcome::arrays_skipped(&arrays))
}

fn not_an_object(path: &Path, n: u64, text: &[u8]) -> Error {
    let shown = String::from_utf8_lossy(&text[..text.len().min(60)]).into_owned();
    Error::malformed(
        path,
        n,
        format!(
            "`{shown}` is not a JSON object; a SGLang result file holds one JSON object per line \
             (a lone `word:` line is read as a section label)"
        ),
    )
}

fn add_top(run: &mut RawRun, key: &str, v: &Node, arrays: &mut BTreeSet<String>) {
    match v {
        Node::Null => {}
        Node::Skipped | Node::Arr(_) => {
            if !arrays.contains(key) {
                arrays.insert(key.to_string());
            }
        }
        Node::Obj(members) => {
            let mut name = key.to_string();
            add_config(run, &mut name, members);
        }
        Node::Bool(b) => run.param(key, Value::Text(b.to_string())),
        Node::Num(_) | Node::Str(_) => match v.as_f64() {
            Some(x) if PARAM_KEYS.contains(&key) => run.param(key, Value::Num(x)),
            Some(x) if SECONDS.contains(&key) => run.metric_with_unit(key, x, "s"),
            Some(x) => run.metric(key, x),
            None => {
                if let Node::Str(s) = v {
                    run.param(key, Value::Text(s.to_string()));
                }
            }
        },
    }
}

/// Adds the scalars of a configuration object as params named by their
/// dotted path; `name` holds the path so far and is restored on return.
fn add_config(run: &mut RawRun, name: &mut String, members: &[Member<'_>]) {
    let base = name.len();
    for m in members {
        if SKIP_NESTED.contains(&m.key.as_ref()) {
            continue;
        }
        name.truncate(base);
        name.push('.');
        name.push_str(&m.key);
        add_config_value(run, name, &m.value);
    }
    name.truncate(base);
}

fn add_config_value(run: &mut RawRun, name: &mut String, v: &Node) {
    match v {
        Node::Null | Node::Skipped => {}
        Node::Obj(members) => add_config(run, name, members),
        Node::Arr(items) => {
            // Lists of objects (PD prefill/decode servers) are indexed;
            // lists of numbers (cuda graph batch sizes) are skipped.
            if items.iter().all(|item| matches!(item, Node::Obj(_))) {
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
        Node::Bool(b) => run.param(name.clone(), Value::Text(b.to_string())),
        Node::Str(s) => match pyjson::sentinel_f64(s) {
            Some(x) => run.param(name.clone(), Value::Num(x)),
            None => run.param(name.clone(), Value::Text(s.to_string())),
        },
        Node::Num(x) => run.param(name.clone(), Value::Num(*x)),
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

    /// The general path the records were read by before [`Node`]: each
    /// line a `serde_json::Value`. The fast path must give the same runs,
    /// outcome and errors on every record.
    mod general {
        use std::collections::BTreeSet;
        use std::io::BufRead;
        use std::path::Path;

        use serde_json::Value as Json;

        use super::super::{not_an_object, section_label, PARAM_KEYS, SECONDS, SKIP_NESTED};
        use crate::ingest::log_format::{Emit, Outcome};
        use crate::ingest::pyjson::{self, LineReader};
        use crate::run::{RawRun, Value};
        use crate::{Error, Result};

        pub(crate) fn parse(path: &Path, input: &mut dyn BufRead, emit: Emit) -> Result<Outcome> {
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
                    return Err(not_an_object(path, n, text));
                }
                let Json::Object(obj) = pyjson::parse(text).map_err(|e| e.into_error(path, n))? else {
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
    }

    /// Both paths' reading of a text, as text (NaN equals NaN there).
    fn both(text: &str) -> (String, String) {
        let fast = runs(text);
        let general = crate::ingest::log_format::collect_with("r.jsonl", text, general::parse);
        (format!("{fast:?}"), format!("{general:?}"))
    }

    #[test]
    fn the_fast_path_reads_every_json_fixture_as_the_general_path_does() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let mut dirs = vec![root];
        let mut compared = 0;
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                let Ok(text) = std::fs::read_to_string(&path) else { continue };
                if !text.trim_start().starts_with(['{', '[']) && !path.to_string_lossy().contains("sglang") {
                    continue;
                }
                let (fast, general) = both(&text);
                assert_eq!(fast, general, "{}", path.display());
                compared += 1;
            }
        }
        // Every SGLang fixture and the other JSON ones.
        assert!(compared >= 30, "{compared}");
    }

    #[test]
    fn the_fast_path_reads_awkward_records_as_the_general_path_does() {
        let texts = [
            // Repeated keys (the last wins), keys out of order, `-` sorting
            // before `.` in a nested name, escapes in keys and values.
            "{\"backend\": \"a\", \"zeta\": 1, \"alpha\": 2, \"zeta\": 3, \"backend\": \"b\", \
             \"server_info\": {\"tp\": {\"size\": 2}, \"tp-x\": 1, \"tp\": {\"size\": 4, \"a\": null}}, \
             \"k\\u0065y\": \"v\\n\\u00e9\", \"quote\\\"d\": 1.5}",
            // Non-finite tokens everywhere, -0, big and negative integers,
            // exponents, a string holding the words.
            "{\"request_rate\": Infinity, \"x\": -Infinity, \"y\": NaN, \"z\": -0, \"w\": -0.0, \
             \"big\": 18446744073709551615, \"bigger\": 18446744073709551616, \"neg\": -9223372036854775808, \
             \"e\": 1e-7, \"t\": \"NaN and Infinity\", \"server_info\": {\"r\": Infinity, \"l\": [NaN]}}",
            // Lists: per-request arrays, lists of objects, of scalars, empty,
            // mixed, nested objects in lists, internal_states skipped.
            "{\"ttfts\": [0.1, [1, {\"a\": 2}]], \"errors\": [], \"server_info\": {\"prefill\": \
             [{\"tp_size\": 4, \"internal_states\": [{\"z\": 1}], \"inner\": [{\"q\": true}]}, {}], \
             \"mixed\": [{\"a\": 1}, 2], \"none\": [], \"bs\": [1, 2]}, \"completed\": 3}",
            "torch:\n{\"run_name\": \"a\", \"batch_size\": 1, \"latency\": 0.5}\n\n{\"duration\": 2}\n",
            // Records naming the same keys (one of them twice) in the same
            // order, then in another order, then the first again, then fewer.
            "{\"b\": 1, \"a\": 2, \"b\": 3}\n{\"b\": 4, \"a\": 5, \"b\": 6}\n{\"a\": 7, \"b\": 8, \"b\": 9}\n\
             {\"b\": 1, \"a\": 2, \"b\": 3}\n{\"b\": 1, \"a\": 2}\n{\"b\": 1, \"c\": 2, \"b\": 3}\n",
            // Refusals: each must read the same.
            "{\"backend\": \"sglang\"}\nsome words\n",
            "{\"backend\": \"sgl",
            "{\"a\": 1} trailing",
            "{\"a\": 1e999}",
            "{\"ttfts\": [1e999]}",
            "{\"ttfts\": [\"\\x\"]}",
            "{\"a\": Infinity, \"b\": [1, 2,]}",
            "{\"a\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\
             [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]}",
            "{\"a\": 1}\n[1, 2]\n",
            "{1: 2}",
        ];
        for text in texts {
            let (fast, general) = both(text);
            assert_eq!(fast, general, "{text}");
        }
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
