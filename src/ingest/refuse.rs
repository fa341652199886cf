//! Every "not a log reckon reads" in one place: empty and binary files,
//! benchmark formats reckon recognises but does not read (llmperf
//! per-request files, criterion's tukey.json), JSON that holds
//! no runs, and text no format claims. Each says what the file looks like
//! and what to do instead. A file's content is never quoted: it may be
//! anything the command was pointed at (a key file, a CI secret), and
//! errors land in logs.

use super::pyjson::{self, Shape};

/// What the head of a file says before any format is asked.
pub(super) fn empty_or_binary(head: &[u8]) -> Option<String> {
    if head.iter().all(u8::is_ascii_whitespace) {
        return Some("the file is empty: there are no runs to ingest".into());
    }
    let text = match std::str::from_utf8(head) {
        Ok(_) => head,
        // A head cut in the middle of a character is still text.
        Err(e) if e.error_len().is_none() => &head[..e.valid_up_to()],
        Err(_) => return Some(binary()),
    };
    text.contains(&0).then(binary)
}

fn binary() -> String {
    "this is a binary file, not a text log (it holds NUL bytes or is not UTF-8); \
     reckon reads JSON, JSON lines, CSV and console output \
     (cargo-criterion's CBOR data is not read: use criterion's JSON or export a CSV)"
        .into()
}

/// Text that no format claims.
pub(super) fn unknown() -> String {
    "not a benchmark log reckon knows; reckon reads SGLang/vLLM result JSON(L), \
     console output with a \"Serving Benchmark Result\" block, hyperfine JSON, \
     Google Benchmark, pytest-benchmark, nvbench, asv and criterion output, \
     vLLM's latency and throughput JSON, llmperf summaries, trtllm-bench reports, MLPerf loadgen logs, \
     guidellm reports, GenAI-Perf/AIPerf exports and lm-eval results, \
     CSV with a header row and JSON lines; use --format to say which one this is"
        .into()
}

/// Text of a tool reckon knows and does not read, with the export that
/// works instead: `perf stat`'s report (its numbers in the locale's
/// separators, one counter per line beside derived ratios) and a
/// `torch.utils.benchmark` `Compare` table (printed for reading: each cell
/// a median with its IQR, the unit in a footer).
pub(super) fn known_text(text: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(text);
    let mut lines = text.lines().map(str::trim);
    if text.contains("Performance counter stats for") {
        return Some(
            "looks like `perf stat` output, which reckon does not read (its counters are written with the \
             locale's separators beside derived ratios); write the counters as CSV with a header row \
             (`event,value`, values without thousands separators) and ingest that"
                .into(),
        );
    }
    let compare = lines.any(|l| l.starts_with("[--") && l.ends_with("--]") && l.len() > 10)
        && text.lines().any(|l| l.contains(" threads: ---"));
    compare.then(|| {
        "looks like a `torch.utils.benchmark` `Compare` table, which is printed for reading and not read by reckon; \
         save the measurements as JSON lines instead, one object per `Measurement` — e.g. \
         `{\"label\": t.label, \"sub_label\": t.sub_label, \"description\": t.description, \"num_threads\": \
         t.num_threads, \"median_s\": m.median, \"iqr_s\": m.iqr}` with `t = m.task_spec` — and ingest that"
            .into()
    })
}

/// What JSON content holds, as far as detection is concerned.
pub(super) enum JsonLook {
    /// Not JSON after all (or nothing to go on): other formats are asked.
    NotJson,
    /// JSON reckon recognises and does not read, with what to do.
    Refused(String),
    /// JSON objects that may be runs: the JSON formats are asked.
    Runs,
}

const TODO: &str = "export the numbers you need as CSV or JSON lines (one row or object per run) and ingest that";

/// Looks at JSON content (its shape, and `text` for an array of numbers).
pub(super) fn json(s: &Shape, text: &[u8]) -> JsonLook {
    match s.first {
        Some(b'{') if s.top_keys.is_empty() => JsonLook::NotJson,
        Some(b'{') if asv_version_1(s) => JsonLook::Refused(ASV_VERSION_1.into()),
        Some(b'{') => JsonLook::Runs,
        Some(b'[') => match s.first_element {
            Some(b'{') => json_records(s).map_or(JsonLook::Runs, JsonLook::Refused),
            Some(b']') => JsonLook::Refused("the file is an empty JSON array: there are no runs in it".into()),
            Some(b) if b == b'-' || b.is_ascii_digit() => {
                let values = pyjson::parse(text).ok();
                let tukey = matches!(&values, Some(serde_json::Value::Array(a)) if a.len() == 4);
                let what = if tukey { "it looks like a criterion tukey.json (4 outlier fences); " } else { "" };
                JsonLook::Refused(format!(
                    "the file is a JSON array of numbers, not of runs; {what}\
                     reckon needs one JSON object per run — {TODO}"
                ))
            }
            Some(_) => JsonLook::Refused(format!(
                "the file is a JSON array whose elements are not objects; \
                 reckon needs one JSON object per run — {TODO}"
            )),
            None => JsonLook::NotJson,
        },
        _ => JsonLook::NotJson,
    }
}

/// asv's results as asv before 0.5 wrote them (format version 1): each
/// benchmark's value by name in `results`, no `result_columns`. Read as
/// generic JSON it was one run of dotted names, every benchmark a metric.
fn asv_version_1(s: &Shape) -> bool {
    s.has("commit_hash")
        && s.has("results")
        && s.has("version")
        && !s.has("result_columns")
        && ["params", "requirements", "python"].iter().any(|k| s.has(k))
}

/// What to do with an asv results file of format version 1.
pub(super) const ASV_VERSION_1: &str =
    "looks like asv results of an old layout (format version 1, asv before 0.5: `results` holds each \
     benchmark's value by name, with no `result_columns`); reckon reads version 2 — run `asv update` in the \
     benchmark project, which rewrites its results files in the current layout, and ingest them again";

/// A JSON array of objects that are not runs.
fn json_records(s: &Shape) -> Option<String> {
    (s.has("error_code") && (s.has("ttft_s") || s.has("end_to_end_latency_s"))).then(|| {
        "looks like llmperf per-request results (`*_individual_responses.json`, one object per request); \
         reckon stores run summaries — ingest the matching `*_summary.json` instead"
            .into()
    })
}

/// A file named as one tool names its log, whose content is another's: a
/// loadgen `mlperf_log_summary.txt` holding criterion's estimates, an
/// lm-eval `results_<time>.json` holding a vLLM benchmark. Read as its
/// content says, it would lend its runs to the wrong template's labels (and
/// the result it stands in for would quietly fall back to an older sweep).
/// `--format` (or a `[[source]]`'s `format =`) reads it anyway.
pub(super) fn named_for_another(path: &std::path::Path, detected: super::Format) -> Option<String> {
    use super::Format;
    let name = path.file_name()?.to_str()?;
    let (tool, expected): (&str, &[Format]) = match name {
        "mlperf_log_summary.txt" => ("MLPerf loadgen's summary", &[Format::MlperfSummary]),
        "mlperf_log_detail.txt" => ("MLPerf loadgen's detail log", &[Format::MlperfDetail]),
        "estimates.json" => ("criterion's estimates", &[Format::CriterionJson]),
        _ if lm_eval_results_name(name) => ("lm-evaluation-harness's results", &[Format::LmEval]),
        _ => return None,
    };
    if expected.contains(&detected) {
        return None;
    }
    Some(format!(
        "named as {tool} ({}), but its content is {} (another tool's log); refused rather than read as \
         the wrong tool's result: put the file where its own tool's logs go, or name its format with \
         `--format {}` (or `format =` in its [[source]])",
        expected[0].name(),
        detected.name(),
        detected.name()
    ))
}

/// `results_2026-11-26T13-50-00.123456.json`: the name lm-eval gives a
/// results file (`results_` and the time it was written).
fn lm_eval_results_name(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("results_").and_then(|r| r.strip_suffix(".json")) else { return false };
    let b = rest.as_bytes();
    b.len() >= 11
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'-'
        && b[8..10].iter().all(u8::is_ascii_digit)
        && b[10] == b'T'
}
