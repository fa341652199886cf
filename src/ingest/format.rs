//! The log formats reckon reads: detection from content, and dispatch to
//! the parser of each format (one file per format beside this one).

use std::io::BufRead;
use std::path::Path;

use super::generic::{apply_overrides, GenericOptions};
use super::pyjson::Shape;
use crate::run::RawRun;
use crate::{Error, Result};

/// Receives each run as the parser finishes it. Returning an error stops
/// the parse.
pub type Emit<'a> = &'a mut dyn FnMut(RawRun) -> Result<()>;

/// What a parse noticed besides runs: blocks it recognised and skipped on
/// purpose, with a reason (shown to the user).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Outcome {
    pub skipped: Vec<String>,
}

impl Outcome {
    /// The outcome of a JSON format that met per-request detail arrays
    /// (`ttfts`, `itls`, …): named once, as skipped on purpose.
    pub fn arrays_skipped(arrays: &std::collections::BTreeSet<String>) -> Outcome {
        let mut outcome = Outcome::default();
        if !arrays.is_empty() {
            let names: Vec<&str> = arrays.iter().map(String::as_str).collect();
            outcome.skipped.push(format!(
                "per-request arrays ({}) are not stored; reckon keeps the summary fields",
                names.join(", ")
            ));
        }
        outcome
    }
}

/// A log format reckon can ingest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `python -m sglang.bench_serving --output-file` JSONL (every era), and
    /// `bench_one_batch` / `lora_bench` JSONL lines.
    SglangJsonl,
    /// vLLM result JSON: one object, `--append-result` lines, or a
    /// `vllm bench sweep` summary array.
    VllmJson,
    /// The "Serving Benchmark Result" block printed by both tools, inside
    /// console or job logs.
    ServingStdout,
    /// `hyperfine --export-json`.
    Hyperfine,
    /// Any CSV with a header row.
    Csv,
    /// Any JSON lines file of flat-ish objects.
    Jsonl,
}

impl Format {
    pub const ALL: [Format; 6] =
        [Format::SglangJsonl, Format::VllmJson, Format::ServingStdout, Format::Hyperfine, Format::Csv, Format::Jsonl];

    /// The name used by `--format` and stored with each source.
    pub fn name(self) -> &'static str {
        match self {
            Format::SglangJsonl => "sglang-jsonl",
            Format::VllmJson => "vllm-json",
            Format::ServingStdout => "serving-stdout",
            Format::Hyperfine => "hyperfine",
            Format::Csv => "csv",
            Format::Jsonl => "jsonl",
        }
    }

    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Detects the format from the first bytes of a file (up to 256 KiB) and
    /// its path. Errors name what the file looks like when it is a known
    /// benchmark format reckon does not read, and say what to do.
    ///
    /// Content decides, never the file name: JSON whose keys are `SGLang`'s
    /// (`backend` with `completed`/`output_throughput`/`duration`, or
    /// `run_name` with `batch_size`) is [`Format::SglangJsonl`]; vLLM's
    /// (`date`, `model_id`, `endpoint_type`, `burstiness`,
    /// `request_goodput`) is [`Format::VllmJson`], also as an array;
    /// `{"results": [{"command": …` is [`Format::Hyperfine`]; other JSON
    /// objects (a flat llmperf summary among them) are [`Format::Jsonl`].
    /// Text with a "Serving Benchmark Result" block is
    /// [`Format::ServingStdout`]; a table with a header row and the same
    /// number of delimiters on each line is [`Format::Csv`]. criterion,
    /// Google Benchmark, pytest-benchmark and llmperf per-request files are
    /// refused with what to do instead, as are empty, binary and other text
    /// files.
    pub fn detect(path: &Path, head: &[u8]) -> Result<Format> {
        Format::detect_with(path, head, false)
    }

    /// [`Format::detect`], told whether the file holds a "Serving Benchmark
    /// Result" title after `head` (the ingest scans the whole file for it
    /// while hashing), so a console log with more noise than the head
    /// before its first block is still read as one.
    pub fn detect_with(path: &Path, head: &[u8], result_block_later: bool) -> Result<Format> {
        let refuse = |msg: String| Err(Error::UnknownFormat { path: path.to_path_buf(), msg });
        if head.iter().all(u8::is_ascii_whitespace) {
            return refuse("the file is empty: there are no runs to ingest".into());
        }
        let text: &[u8] = match std::str::from_utf8(head) {
            Ok(_) => head,
            // A head cut in the middle of a character is still text.
            Err(e) if e.error_len().is_none() => &head[..e.valid_up_to()],
            Err(_) => return refuse(binary_message()),
        };
        if text.contains(&0) {
            return refuse(binary_message());
        }
        let content = skip_labels(text);
        if matches!(content.first(), Some(b'{' | b'[')) {
            match detect_json(content) {
                Ok(f) => return Ok(f),
                Err(msg) => {
                    if result_block_later || super::stdout::sniff(head) {
                        return Ok(Format::ServingStdout);
                    }
                    if let Some(msg) = msg {
                        return refuse(msg);
                    }
                }
            }
        }
        if result_block_later || super::stdout::sniff(head) {
            return Ok(Format::ServingStdout);
        }
        if super::generic::sniff_csv(text).is_some() {
            return Ok(Format::Csv);
        }
        // The file's content is not quoted: it may be anything the command
        // was pointed at (a key file, a CI secret), and errors land in logs.
        refuse(
            "not a benchmark log reckon knows; reckon reads SGLang/vLLM result JSON(L), \
             console output with a \"Serving Benchmark Result\" block, hyperfine JSON, CSV with a header row and JSON lines; \
             use --format to say which one this is"
                .into(),
        )
    }

    /// Parses a whole file, streaming: memory stays bounded by the largest
    /// record, not the file.
    pub fn parse(self, path: &Path, input: &mut dyn BufRead, emit: Emit) -> Result<Outcome> {
        self.parse_with(path, input, &GenericOptions::default(), emit)
    }

    /// [`Format::parse_with`] over a file: CSV and JSON lines are read in
    /// two passes (typing, then runs) so memory stays bounded by a record.
    pub fn parse_file(
        self,
        path: &Path,
        input: &mut dyn super::generic::Rewind,
        opts: &GenericOptions,
        emit: Emit,
    ) -> Result<Outcome> {
        match self {
            Format::Csv => super::generic::parse_csv_rewind(path, input, opts, emit),
            Format::Jsonl => super::generic::parse_jsonl_rewind(path, input, opts, emit),
            _ => self.parse_with(path, input, opts, emit),
        }
    }

    /// [`Format::parse`] with the params/metrics overrides of `reckon.toml`.
    /// For CSV and JSON lines they steer the choice as each field is read;
    /// for the other formats they move fields after the format's own rules
    /// (a param forced to a metric must hold a number).
    pub fn parse_with(
        self,
        path: &Path,
        input: &mut dyn BufRead,
        opts: &GenericOptions,
        emit: Emit,
    ) -> Result<Outcome> {
        match self {
            Format::Csv => return super::generic::parse_csv(path, input, opts, emit),
            Format::Jsonl => return super::generic::parse_jsonl(path, input, opts, emit),
            _ => {}
        }
        let parser: fn(&Path, &mut dyn BufRead, Emit) -> Result<Outcome> = match self {
            Format::SglangJsonl => super::sglang::parse,
            Format::VllmJson => super::vllm::parse,
            Format::ServingStdout => super::stdout::parse,
            Format::Hyperfine | Format::Csv | Format::Jsonl => super::hyperfine::parse,
        };
        if opts.is_empty() {
            return parser(path, input, emit);
        }
        let mut overridden = |mut run: RawRun| {
            apply_overrides(&mut run, opts).map_err(|m| Error::malformed(path, run.line, m))?;
            emit(run)
        };
        parser(path, input, &mut overridden)
    }
}

fn binary_message() -> String {
    "this is a binary file, not a text log (it holds NUL bytes or is not UTF-8); \
     reckon reads JSON, JSON lines, CSV and console output (cargo-criterion's CBOR data is not read: use criterion's JSON or export a CSV)"
        .into()
}

/// Skips leading blank lines and section labels (`torch:`), which `SGLang`
/// result files pasted by hand can start with.
fn skip_labels(text: &[u8]) -> &[u8] {
    let mut rest = text;
    loop {
        let end = rest.iter().position(|&b| b == b'\n').map_or(rest.len(), |i| i + 1);
        let line = super::pyjson::trim(&rest[..end]);
        let label = !line.is_empty()
            && line.len() <= 65
            && line.ends_with(b":")
            && line[..line.len() - 1]
                .iter()
                .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'+' | b'/'));
        if (line.is_empty() || label) && end < rest.len() {
            rest = &rest[end..];
        } else {
            return super::pyjson::trim(rest);
        }
    }
}

fn is_sglang(s: &Shape) -> bool {
    (s.has("backend")
        && (s.has("completed") || s.has("output_throughput") || s.has("duration") || s.has("successful_requests")))
        || (s.has("run_name") && s.has("batch_size"))
}

fn is_vllm(s: &Shape) -> bool {
    s.has("endpoint_type")
        || s.has("request_goodput:")
        || (s.has("date")
            && ["model_id", "tokenizer_id", "burstiness", "request_goodput", "completed"].iter().any(|k| s.has(k)))
        || (s.has("burstiness") && s.has("completed"))
}

/// Classifies JSON text. `Err(Some(msg))` refuses the file; `Err(None)`
/// means it is not JSON after all.
fn detect_json(text: &[u8]) -> std::result::Result<Format, Option<String>> {
    let s = super::pyjson::shape(text, 5000);
    let todo = "export the numbers you need as CSV or JSON lines (one row or object per run) and ingest that";
    match s.first {
        Some(b'{') => {
            if s.top_keys.is_empty() {
                return Err(None);
            }
            if s.has("mean") && s.has_inner("point_estimate") {
                let change = s.top_keys.iter().all(|k| k == "mean" || k == "median");
                let what = if change {
                    "a criterion change/estimates.json (relative change against the saved baseline)"
                } else {
                    "a criterion estimates.json (point estimates in ns per iteration)"
                };
                return Err(Some(format!("looks like {what}; reckon does not read criterion output yet — {todo}, or use --format jsonl to read this object as one generic run")));
            }
            if s.has("group_id") && (s.has("full_id") || s.has("directory_name")) {
                return Err(Some(format!("looks like a criterion benchmark.json (the benchmark's id, no measurements); reckon does not read criterion output yet — {todo}")));
            }
            if s.has("sampling_mode") && s.has("iters") {
                return Err(Some(format!("looks like a criterion sample.json (raw per-sample times); reckon does not read criterion output yet — {todo}")));
            }
            if s.has("benchmarks") && (s.has("context") || s.has_inner("real_time") || s.has_inner("time_unit")) {
                return Err(Some(
                    "looks like Google Benchmark JSON (`context` + `benchmarks`); reckon does not read it yet — \
                     run the benchmark with --benchmark_format=csv (or --benchmark_out_format=csv) and ingest the CSV"
                        .into(),
                ));
            }
            if s.has("benchmarks") && (s.has("machine_info") || s.has("commit_info") || s.has_inner("fullname") || s.has_inner("stats")) {
                return Err(Some(
                    "looks like pytest-benchmark JSON (`machine_info` + `benchmarks`); reckon does not read it yet — \
                     export it with `pytest-benchmark compare --csv=FILE` and ingest the CSV"
                        .into(),
                ));
            }
            if s.has("results") && s.has_deep("command") {
                return Ok(Format::Hyperfine);
            }
            if is_vllm(&s) {
                return Ok(Format::VllmJson);
            }
            if is_sglang(&s) {
                return Ok(Format::SglangJsonl);
            }
            Ok(Format::Jsonl)
        }
        Some(b'[') => match s.first_element {
            Some(b'{') => {
                if s.has("error_code") && (s.has("ttft_s") || s.has("end_to_end_latency_s")) {
                    return Err(Some(
                        "looks like llmperf per-request results (`*_individual_responses.json`, one object per request); \
                         reckon stores run summaries — ingest the matching `*_summary.json` instead"
                            .into(),
                    ));
                }
                if is_vllm(&s) {
                    return Ok(Format::VllmJson);
                }
                if is_sglang(&s) {
                    return Ok(Format::SglangJsonl);
                }
                Ok(Format::Jsonl)
            }
            Some(b']') => Err(Some("the file is an empty JSON array: there are no runs in it".into())),
            Some(b) if b == b'-' || b.is_ascii_digit() => {
                let values = super::pyjson::parse(text).ok();
                let tukey = matches!(&values, Some(serde_json::Value::Array(a)) if a.len() == 4);
                let what = if tukey { "it looks like a criterion tukey.json (4 outlier fences); " } else { "" };
                Err(Some(format!("the file is a JSON array of numbers, not of runs; {what}reckon needs one JSON object per run — {todo}")))
            }
            Some(_) => Err(Some(format!("the file is a JSON array whose elements are not objects; reckon needs one JSON object per run — {todo}"))),
            None => Err(None),
        },
        _ => Err(None),
    }
}
