//! The report `trtllm-bench throughput` (and `latency`) prints to the
//! console: sections under `= TITLE` between rules of `=`, each row
//! `Label: value`, the percentile breakdowns `[Latency] P50 : value`. One
//! report is one run: the engine, backend and world sections are its params
//! (model, dtype, quantization, tp/pp sizes, …), the request and
//! performance sections its metrics, named as the tool's `--report_json`
//! names them (`request_throughput_req_s`, `avg_request_latency_ms`, …)
//! with the unit each row states. Lines may carry the console's prefixes
//! (`[01/18/2025-01:01:42] [TRT-LLM] [I] `, `[TensorRT-LLM][INFO] `); the
//! rest of the console log is not read.

use crate::ingest::LineBytes;
use std::io::BufRead;
use std::path::Path;

use super::log_format::{Emit, LogFormat, Outcome, Sniff};
use super::stdout::ConsoleLines;
use crate::run::{RawRun, Value};
use crate::syntax::read_padded;
use crate::{Error, Result};

/// trtllm-bench's console report.
pub struct TrtllmBench;

impl LogFormat for TrtllmBench {
    const NAME: &'static str = "trtllm-bench";

    /// A rule of `=` followed by one of the report's section titles.
    fn detect(s: &Sniff<'_>) -> bool {
        let text = String::from_utf8_lossy(s.text);
        let mut after_rule = false;
        for line in text.lines() {
            let line = console_rest(line).trim();
            if is_rule(line) {
                after_rule = true;
            } else if !line.is_empty() {
                if after_rule && title(line).is_some_and(|t| SECTIONS.iter().any(|s| t.starts_with(s))) {
                    return true;
                }
                after_rule = false;
            }
        }
        false
    }

    fn parse(path: &Path, input: &mut dyn BufRead, _: LineBytes, emit: Emit) -> Result<Outcome> {
        parse(path, input, emit)
    }
}

/// The section titles the report prints (decoding statistics add their
/// mode after the title).
const SECTIONS: [&str; 8] = [
    "ENGINE DETAILS",
    "PYTORCH BACKEND",
    "MACHINE DETAILS",
    "WORLD + RUNTIME INFORMATION",
    "REQUEST DETAILS",
    "PERFORMANCE OVERVIEW",
    "DECODING STATISTICS",
    "DATASET DETAILS",
];

/// Sections that describe the setup: their rows are params.
fn is_setup(section: &str) -> bool {
    ["ENGINE DETAILS", "PYTORCH BACKEND", "MACHINE DETAILS", "WORLD + RUNTIME INFORMATION", "DATASET DETAILS"]
        .contains(&section)
}

/// Where the reading is: outside a report, just after a rule (a title may
/// follow), just after a title (its closing rule follows), or in a
/// section's rows.
enum At {
    Outside,
    AfterRule,
    AfterTitle(String),
    Rows(String),
}

/// The report being read: its run and the sections met so far.
struct Report {
    run: RawRun,
    sections: Vec<String>,
}

fn parse(path: &Path, input: &mut dyn BufRead, emit: Emit) -> Result<Outcome> {
    let mut lines = ConsoleLines::new(input);
    let mut at = At::Outside;
    let mut report: Option<Report> = None;
    let mut reports = 0usize;
    while let Some((line_no, raw)) = lines.next_segment().map_err(|e| Error::io(path, e))? {
        let line = console_rest(&raw).trim();
        if is_rule(line) {
            at = match at {
                At::AfterTitle(section) => At::Rows(section),
                _ => At::AfterRule,
            };
            continue;
        }
        if line.is_empty() {
            continue;
        }
        at = match at {
            At::AfterRule => {
                if let Some(t) = title(line) {
                    let seen = report.as_ref().is_some_and(|r| r.sections.iter().any(|s| s == t));
                    if seen {
                        // The same section again: the next report.
                        finish(path, report.take(), &mut reports, emit)?;
                    }
                    let r = report.get_or_insert_with(|| Report { run: RawRun::new(line_no), sections: Vec::new() });
                    r.sections.push(t.to_owned());
                    At::AfterTitle(t.to_owned())
                } else {
                    // A rule that no title follows closes the report.
                    finish(path, report.take(), &mut reports, emit)?;
                    At::Outside
                }
            }
            At::AfterTitle(section) | At::Rows(section) => {
                if let Some(r) = report.as_mut() {
                    row(path, line_no, &section, line, &mut r.run)?;
                }
                At::Rows(section)
            }
            At::Outside => At::Outside,
        };
    }
    finish(path, report.take(), &mut reports, emit)?;
    if reports == 0 {
        return Err(Error::malformed(path, 1, "no trtllm-bench report (`= PERFORMANCE OVERVIEW` …) found"));
    }
    Ok(Outcome::default())
}

/// Hands a finished report's run on; a report without a measurement is an
/// error (its params would be stored as a run of nothing).
fn finish(path: &Path, report: Option<Report>, reports: &mut usize, emit: Emit) -> Result<()> {
    let Some(report) = report else { return Ok(()) };
    if report.run.metrics.is_empty() {
        return Err(Error::malformed(
            path,
            report.run.line,
            "this trtllm-bench report has no request or performance section (was the log cut?); \
             ingest the whole console output, or the `--report_json` file",
        ));
    }
    *reports += 1;
    emit(report.run)
}

/// Reads one row of a section into the run.
fn row(path: &Path, line_no: u64, section: &str, line: &str, run: &mut RawRun) -> Result<()> {
    if line.starts_with("--") {
        // A sub-heading: `-- Request Latency Breakdown (ms) ----`.
        return Ok(());
    }
    if let Some((name, unit, text)) = breakdown(line) {
        let value = read_padded(text).ok_or_else(|| not_a_number(path, line_no, line))?;
        match unit {
            Some(unit) => run.metric_with_unit(name, value, unit),
            None => run.metric(name, value),
        }
        return Ok(());
    }
    let Some((label, text)) = line.split_once(':') else {
        if section == "MACHINE DETAILS" && !line.eq_ignore_ascii_case("No GPU info available") {
            run.param("machine", Value::Text(line.to_owned()));
        }
        return Ok(());
    };
    let (label, text) = (label.trim(), text.trim());
    if matches!(text, "" | "None" | "N/A") {
        return Ok(());
    }
    if let Some((name, unit)) = metric_of(label) {
        let value = read_padded(text).ok_or_else(|| not_a_number(path, line_no, line))?;
        match unit {
            Some(unit) => run.metric_with_unit(name, value, unit),
            None => run.metric(name, value),
        }
        return Ok(());
    }
    let name = param_of(label).map_or_else(|| derived(label), str::to_owned);
    if name == "kv_cache_percentage" {
        // `90.00%`, which the JSON report gives as 0.9.
        if let Some(pct) = text.strip_suffix('%').and_then(read_padded) {
            run.param(name, Value::Num(pct / 100.0));
            return Ok(());
        }
    }
    match read_padded(text) {
        Some(value) if !is_setup(section) => match label_unit(label) {
            Some(unit) => run.metric_with_unit(name, value, unit),
            None => run.metric(name, value),
        },
        Some(value) => run.param(name, Value::Num(value)),
        None => run.param(name, Value::Text(text.to_owned())),
    }
    if section == "PYTORCH BACKEND" || section == "ENGINE DETAILS" {
        let backend = if section == "PYTORCH BACKEND" { "pytorch" } else { "tensorrt" };
        if !run.params.iter().any(|(k, _)| k == "backend") {
            run.param("backend", Value::Text(backend.into()));
        }
    }
    Ok(())
}

/// A breakdown row, `[Latency] P50    : 3936.3022`: its metric's name, its
/// unit and the value's text.
fn breakdown(line: &str) -> Option<(String, Option<&'static str>, &str)> {
    let (key, rest) = line.strip_prefix('[')?.split_once(']')?;
    let (stat, text) = rest.split_once(':')?;
    let stat = match stat.trim().to_ascii_lowercase().as_str() {
        "minimum" => "min".to_owned(),
        "maximum" => "max".to_owned(),
        "average" => "avg".to_owned(),
        s if s.starts_with('p') && s[1..].bytes().all(|b| b.is_ascii_digit() || b == b'.') && s.len() > 1 => {
            s.to_owned()
        }
        _ => return None,
    };
    let (name, unit) = match key {
        "Latency" => (format!("request_latency_{stat}_ms"), Some("ms")),
        "TPOT" => (format!("tpot_{stat}_ms"), Some("ms")),
        "TTFT" => (format!("ttft_{stat}_ms"), Some("ms")),
        "GTPS" => (format!("gen_tps_{stat}"), Some("tok/s/user")),
        "DT" => (format!("num_draft_tokens_{stat}"), None),
        "ADT" => (format!("num_accepted_draft_tokens_{stat}"), None),
        "DAR" => (format!("draft_acceptance_rate_{stat}"), None),
        "AL" => (format!("acceptance_length_{stat}"), None),
        other => (format!("{}_{stat}", derived(other)), None),
    };
    Some((name, unit, text.trim()))
}

/// The metric a labelled row is, named as `--report_json` names it, with
/// the unit the label states.
fn metric_of(label: &str) -> Option<(String, Option<&'static str>)> {
    let name = match label.to_ascii_lowercase().as_str() {
        "number of requests" => "num_requests",
        "number of concurrent requests" => "avg_num_concurrent_requests",
        "average input length (tokens)" => "avg_input_length",
        "average output length (tokens)" => "avg_output_length",
        "request throughput (req/sec)" => "request_throughput_req_s",
        "total output throughput (tokens/sec)" => "system_output_throughput_tok_s",
        "total token throughput (tokens/sec)" => "system_total_throughput_tok_s",
        "total latency (ms)" => "total_latency_ms",
        "average request latency (ms)" => "avg_request_latency_ms",
        "per user output throughput [w/ ctx] (tps/user)" | "per user output throughput (tokens/sec/user)" => {
            "output_throughput_per_user_tok_s"
        }
        "per gpu output throughput (tps/gpu)" | "per gpu output throughput (tokens/sec/gpu)" => {
            "output_throughput_per_gpu_tok_s"
        }
        "average time-to-first-token [ttft] (ms)" => "avg_ttft_ms",
        "average time-per-output-token [tpot] (ms)" => "avg_tpot_ms",
        "per user output speed (tps/user)" | "per user output speed (tokens/sec/user)" => "token_output_speed_tok_s",
        _ => return None,
    };
    Some((name.to_owned(), label_unit(label)))
}

/// The param a setup row is.
fn param_of(label: &str) -> Option<&'static str> {
    Some(match label.to_ascii_lowercase().as_str() {
        "model" => "model",
        "model path" => "model_path",
        "engine directory" => "engine_dir",
        "tensorrt-llm version" | "tensorrt llm version" => "version",
        "dtype" => "dtype",
        "kv cache dtype" => "kv_cache_dtype",
        "quantization" => "quantization",
        "max input length" => "max_input_len",
        "max sequence length" => "max_seq_len",
        "tp size" => "tp_size",
        "pp size" => "pp_size",
        "ep size" => "ep_size",
        "max runtime batch size" => "max_batch_size",
        "max runtime tokens" => "max_num_tokens",
        "scheduling policy" => "scheduling_policy",
        "kv memory percentage" => "kv_cache_percentage",
        "issue rate (req/sec)" => "issue_rate",
        _ => return None,
    })
}

/// The unit a label states in its last parentheses, as reckon spells it.
fn label_unit(label: &str) -> Option<&'static str> {
    let unit = label.trim_end().strip_suffix(')')?.rsplit_once('(')?.1.trim();
    Some(match unit {
        "ms" => "ms",
        "s" | "sec" => "s",
        "req/sec" | "req/s" => "req/s",
        "tokens/sec" | "tok/s" => "tok/s",
        "tps/user" | "tokens/sec/user" => "tok/s/user",
        "tps/gpu" | "tokens/sec/gpu" => "tok/s/gpu",
        _ => return None,
    })
}

/// A name for a row no table knows: its label in snake case, the unit in
/// parentheses dropped (it is the metric's unit).
fn derived(label: &str) -> String {
    let base = match label.rsplit_once('(') {
        Some((head, _)) if label.trim_end().ends_with(')') => head,
        _ => label,
    };
    let mut name = String::new();
    for word in base.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()) {
        if !name.is_empty() {
            name.push('_');
        }
        name.push_str(&word.to_ascii_lowercase());
    }
    name
}

fn not_a_number(path: &Path, line: u64, row: &str) -> Error {
    let row = crate::syntax::excerpt(row);
    Error::malformed(path, line, format!("trtllm-bench row `{row}` has no number where one belongs"))
}

/// A rule of the report: a line of `=` only (the tool prints 59).
fn is_rule(line: &str) -> bool {
    line.len() >= 20 && line.bytes().all(|b| b == b'=')
}

/// The title of a `= TITLE` line.
fn title(line: &str) -> Option<&str> {
    let t = line.strip_prefix("= ")?.trim();
    (!t.is_empty()).then_some(t)
}

/// A console line without the prefixes trtllm-bench's logger writes before
/// it: a bracketed time (`[01/18/2025-01:01:42]`), the tool's tag
/// (`[TRT-LLM]`, `[TensorRT-LLM]`) and a level (`[I]`, `[INFO]`, …), with
/// or without spaces between them. A breakdown's `[Latency]` is no prefix.
fn console_rest(line: &str) -> &str {
    let mut rest = line.trim_start();
    while let Some(inner) = rest.strip_prefix('[') {
        let Some((token, after)) = inner.split_once(']') else { break };
        let prefix = token.starts_with(|c: char| c.is_ascii_digit())
            || matches!(
                token,
                "TRT-LLM"
                    | "TensorRT-LLM"
                    | "I"
                    | "W"
                    | "E"
                    | "V"
                    | "D"
                    | "INFO"
                    | "WARNING"
                    | "ERROR"
                    | "DEBUG"
                    | "VERBOSE"
            );
        if !prefix {
            break;
        }
        rest = after.trim_start();
    }
    rest
}
