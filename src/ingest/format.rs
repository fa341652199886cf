//! The log formats reckon reads: detection from content, and dispatch to
//! the parser of each format (one file per format beside this one).

use std::io::BufRead;
use std::path::Path;

use super::asv::Asv;
use super::criterion::{CriterionCsv, CriterionJson};
use super::gbench::{GbenchCsv, GbenchJson};
use super::genai_perf::{GenaiPerfCsv, GenaiPerfJson};
use super::generic::{apply_overrides, Csv, GenericOptions, Jsonl};
use super::guidellm::Guidellm;
use super::hyperfine::Hyperfine;
use super::limit::LineBytes;
use super::llmperf::Llmperf;
use super::lm_eval::LmEval;
use super::log_format::{Chosen, Emit, LogFormat, Outcome, Sniff};
use super::mlperf::{MlperfDetail, MlperfSummary};
use super::nvbench::{NvbenchCsv, NvbenchJson, NvbenchMarkdown};
use super::preamble::{self, console_prefix};
use super::pyjson;
use super::pytest_benchmark::PytestBenchmark;
use super::refuse::{self, JsonLook};
use super::sglang::SglangJsonl;
use super::stdout::ServingStdout;
use super::trtllm_bench::TrtllmBench;
use super::vllm::VllmJson;
use super::vllm_bench::VllmBench;
use crate::run::RawRun;
use crate::{Error, Result};

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
    /// Google Benchmark's JSON reporter.
    GbenchJson,
    /// Google Benchmark's CSV reporter.
    GbenchCsv,
    /// `pytest --benchmark-json`.
    PytestBenchmark,
    /// `nvbench --json`.
    NvbenchJson,
    /// `nvbench --csv`.
    NvbenchCsv,
    /// `nvbench --md`.
    NvbenchMarkdown,
    /// asv results (format version 2).
    Asv,
    /// criterion's `sample.json`, `estimates.json`, `benchmark.json`.
    CriterionJson,
    /// criterion's `raw.csv`.
    CriterionCsv,
    /// `vllm bench latency` / `vllm bench throughput` `--output-json`.
    VllmBench,
    /// llmperf's `*_summary.json`.
    Llmperf,
    /// trtllm-bench's report in its console output.
    TrtllmBench,
    /// guidellm's benchmarks report, JSON or YAML.
    Guidellm,
    /// GenAI-Perf / `AIPerf` `profile_export_*.json`.
    GenaiPerfJson,
    /// GenAI-Perf / `AIPerf` `profile_export_*.csv`.
    GenaiPerfCsv,
    /// lm-evaluation-harness results JSON.
    LmEval,
    /// `MLPerf` loadgen's `mlperf_log_summary.txt`.
    MlperfSummary,
    /// `MLPerf` loadgen's `mlperf_log_detail.txt`.
    MlperfDetail,
    /// Any CSV with a header row.
    Csv,
    /// Any JSON lines file of flat-ish objects.
    Jsonl,
}

impl Format {
    pub const ALL: [Format; 24] = [
        Format::SglangJsonl,
        Format::VllmJson,
        Format::ServingStdout,
        Format::Hyperfine,
        Format::GbenchJson,
        Format::GbenchCsv,
        Format::PytestBenchmark,
        Format::NvbenchJson,
        Format::NvbenchCsv,
        Format::NvbenchMarkdown,
        Format::Asv,
        Format::CriterionJson,
        Format::CriterionCsv,
        Format::VllmBench,
        Format::Llmperf,
        Format::TrtllmBench,
        Format::Guidellm,
        Format::GenaiPerfJson,
        Format::GenaiPerfCsv,
        Format::LmEval,
        Format::MlperfSummary,
        Format::MlperfDetail,
        Format::Csv,
        Format::Jsonl,
    ];

    /// The name used by `--format` and stored with each source.
    pub fn name(self) -> &'static str {
        match self {
            Format::SglangJsonl => SglangJsonl::NAME,
            Format::VllmJson => VllmJson::NAME,
            Format::ServingStdout => ServingStdout::NAME,
            Format::Hyperfine => Hyperfine::NAME,
            Format::GbenchJson => GbenchJson::NAME,
            Format::GbenchCsv => GbenchCsv::NAME,
            Format::PytestBenchmark => PytestBenchmark::NAME,
            Format::NvbenchJson => NvbenchJson::NAME,
            Format::NvbenchCsv => NvbenchCsv::NAME,
            Format::NvbenchMarkdown => NvbenchMarkdown::NAME,
            Format::Asv => Asv::NAME,
            Format::CriterionJson => CriterionJson::NAME,
            Format::CriterionCsv => CriterionCsv::NAME,
            Format::VllmBench => VllmBench::NAME,
            Format::Llmperf => Llmperf::NAME,
            Format::TrtllmBench => TrtllmBench::NAME,
            Format::Guidellm => Guidellm::NAME,
            Format::GenaiPerfJson => GenaiPerfJson::NAME,
            Format::GenaiPerfCsv => GenaiPerfCsv::NAME,
            Format::LmEval => LmEval::NAME,
            Format::MlperfSummary => MlperfSummary::NAME,
            Format::MlperfDetail => MlperfDetail::NAME,
            Format::Csv => Csv::NAME,
            Format::Jsonl => Jsonl::NAME,
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
    /// objects are [`Format::Jsonl`];
    /// `{"context": …, "benchmarks": […]}` is [`Format::GbenchJson`], a
    /// table under Google Benchmark's CSV header [`Format::GbenchCsv`].
    /// Text with a "Serving Benchmark Result" block is
    /// [`Format::ServingStdout`]; a table with a header row and the same
    /// number of delimiters on each line is [`Format::Csv`]; pytest-benchmark,
    /// nvbench, asv and criterion files are theirs, as are vLLM's
    /// `benchmark_latency`/`benchmark_throughput` JSON and llmperf
    /// summaries (`num_concurrent_requests` beside `results_*`) and
    /// guidellm reports (JSON, and YAML among the text formats),
    /// GenAI-Perf / `AIPerf` profile exports (JSON, CSV) and lm-eval results.
    /// llmperf
    /// per-request
    /// files are
    /// refused with what to do instead, as are empty, binary and other text
    /// files.
    pub fn detect(path: &Path, head: &[u8]) -> Result<Format> {
        Format::detect_with(path, head, false)
    }

    /// [`Format::detect`], told whether the file holds a "Serving Benchmark
    /// Result" title after `head` (the ingest scans the whole file for it
    /// while hashing), so a console log with more noise than the head
    /// before its first block is still read as one.
    /// A file named as one tool names its log but holding another's is
    /// refused, naming both (`refuse::named_for_another`).
    pub fn detect_with(path: &Path, head: &[u8], result_block_later: bool) -> Result<Format> {
        let format = Format::detect_content(path, head, result_block_later)?;
        match refuse::named_for_another(path, format) {
            Some(msg) => Err(Error::UnknownFormat { path: path.to_path_buf(), msg }),
            None => Ok(format),
        }
    }

    /// What the content of a file says its format is, whatever its name.
    fn detect_content(path: &Path, head: &[u8], result_block_later: bool) -> Result<Format> {
        let refuse = |msg: String| Err(Error::UnknownFormat { path: path.to_path_buf(), msg });
        // A UTF-8 byte order mark (editors, PowerShell's Out-File) says
        // nothing about the format: a JSON log after one is still JSON.
        let head = head.strip_prefix(BYTE_ORDER_MARK).unwrap_or(head);
        if let Some(msg) = refuse::empty_or_binary(head) {
            return refuse(msg);
        }
        let text = match std::str::from_utf8(head) {
            Ok(_) => head,
            Err(e) => &head[..e.valid_up_to()],
        };
        let mut sniff = Sniff { head, text, json: None, result_block_later };
        let content = skip_labels(text);
        if matches!(content.first(), Some(b'{' | b'[')) && !console_prefix(content) {
            let shape = pyjson::shape(content, 5000);
            match refuse::json(&shape, content) {
                JsonLook::Runs => {
                    let sniff = Sniff { json: Some(&shape), ..sniff };
                    return Ok(Format::JSON.into_iter().find(|f| f.claims(&sniff)).unwrap_or(Format::Jsonl));
                }
                // A console log can start with a JSON line before its blocks.
                JsonLook::Refused(_) if ServingStdout::detect(&sniff) => return Ok(Format::ServingStdout),
                JsonLook::Refused(msg) => return refuse(msg),
                JsonLook::NotJson => sniff.json = None,
            }
        }
        if let Some(f) = behind_console_lines(content, &sniff) {
            return Ok(f);
        }
        if let Some(f) = Format::TEXT.into_iter().find(|f| f.claims(&sniff)) {
            return Ok(f);
        }
        refuse(refuse::known_text(text).unwrap_or_else(refuse::unknown))
    }

    /// The formats of JSON content, in the order they are asked (the
    /// generic JSON lines last).
    const JSON: [Format; 14] = [
        Format::Hyperfine,
        Format::GbenchJson,
        Format::PytestBenchmark,
        Format::NvbenchJson,
        Format::Asv,
        Format::CriterionJson,
        Format::VllmBench,
        Format::Llmperf,
        Format::Guidellm,
        Format::GenaiPerfJson,
        Format::LmEval,
        Format::VllmJson,
        Format::SglangJsonl,
        Format::Jsonl,
    ];

    /// The formats of other text, in the order they are asked.
    const TEXT: [Format; 11] = [
        Format::TrtllmBench,
        Format::MlperfSummary,
        Format::MlperfDetail,
        Format::NvbenchMarkdown,
        Format::ServingStdout,
        Format::Guidellm,
        Format::GenaiPerfCsv,
        Format::GbenchCsv,
        Format::NvbenchCsv,
        Format::CriterionCsv,
        Format::Csv,
    ];

    /// A JSON document of this format is read after console lines
    /// (`preamble`): every JSON format but those read line by line, whose
    /// console logs `ServingStdout` reads, and the generic JSON lines, where
    /// a line of data taken for a console message would be dropped.
    fn reads_after_console(self) -> bool {
        Format::JSON.contains(&self) && !matches!(self, Format::SglangJsonl | Format::VllmJson | Format::Jsonl)
    }

    fn claims(self, sniff: &Sniff<'_>) -> bool {
        match self {
            Format::SglangJsonl => SglangJsonl::detect(sniff),
            Format::VllmJson => VllmJson::detect(sniff),
            Format::ServingStdout => ServingStdout::detect(sniff),
            Format::Hyperfine => Hyperfine::detect(sniff),
            Format::GbenchJson => GbenchJson::detect(sniff),
            Format::GbenchCsv => GbenchCsv::detect(sniff),
            Format::PytestBenchmark => PytestBenchmark::detect(sniff),
            Format::NvbenchJson => NvbenchJson::detect(sniff),
            Format::NvbenchCsv => NvbenchCsv::detect(sniff),
            Format::NvbenchMarkdown => NvbenchMarkdown::detect(sniff),
            Format::Asv => Asv::detect(sniff),
            Format::CriterionJson => CriterionJson::detect(sniff),
            Format::CriterionCsv => CriterionCsv::detect(sniff),
            Format::VllmBench => VllmBench::detect(sniff),
            Format::Llmperf => Llmperf::detect(sniff),
            Format::TrtllmBench => TrtllmBench::detect(sniff),
            Format::Guidellm => Guidellm::detect(sniff),
            Format::GenaiPerfJson => GenaiPerfJson::detect(sniff),
            Format::GenaiPerfCsv => GenaiPerfCsv::detect(sniff),
            Format::LmEval => LmEval::detect(sniff),
            Format::MlperfSummary => MlperfSummary::detect(sniff),
            Format::MlperfDetail => MlperfDetail::detect(sniff),
            Format::Csv => Csv::detect(sniff),
            Format::Jsonl => Jsonl::detect(sniff),
        }
    }

    /// Parses a whole file, streaming: memory stays bounded by the largest
    /// record, not the file. No overrides, the default line limit.
    pub fn parse(self, path: &Path, input: &mut dyn BufRead, emit: Emit) -> Result<Outcome> {
        self.parse_with(path, input, &GenericOptions::default(), LineBytes::default(), emit)
    }

    /// [`Format::parse_with`] over a file: CSV and JSON lines are read in
    /// two passes (typing, then runs) so memory stays bounded by a record.
    /// `chosen` says whether the format was detected or named.
    pub fn parse_file(
        self,
        path: &Path,
        input: &mut dyn super::generic::Rewind,
        opts: &GenericOptions,
        limit: LineBytes,
        chosen: Chosen,
        emit: Emit,
    ) -> Result<Outcome> {
        match self {
            Format::Csv => super::generic::parse_csv_rewind(path, input, opts, emit),
            Format::Jsonl => super::generic::parse_jsonl_rewind(path, input, opts, limit, chosen, emit),
            _ => self.parse_with(path, input, opts, limit, emit),
        }
    }

    /// [`Format::parse`] with the params/metrics overrides of `reckon.toml`.
    /// For CSV and JSON lines they steer the choice as each field is read;
    /// for the other formats they move fields after the format's own rules
    /// (a param forced to a metric must hold a number).
    /// `limit` bounds a document read whole (the reader bounds each line).
    pub fn parse_with(
        self,
        path: &Path,
        input: &mut dyn BufRead,
        opts: &GenericOptions,
        limit: LineBytes,
        emit: Emit,
    ) -> Result<Outcome> {
        skip_byte_order_mark(input).map_err(|e| Error::io(path, e))?;
        if self.reads_after_console() {
            let lines = preamble::skip(input).map_err(|e| Error::io(path, e))?;
            if lines > 0 {
                // Blank lines in their place: every line after keeps its number.
                let blanks = vec![b'\n'; lines];
                let mut outcome =
                    self.dispatch(path, &mut std::io::Read::chain(blanks.as_slice(), input), opts, limit, emit)?;
                outcome.skipped.push(preamble::note(lines));
                return Ok(outcome);
            }
        }
        self.dispatch(path, input, opts, limit, emit)
    }

    /// [`Format::parse_with`] once the byte order mark and console lines
    /// are behind: the format's parser, with the overrides.
    fn dispatch(
        self,
        path: &Path,
        input: &mut dyn BufRead,
        opts: &GenericOptions,
        limit: LineBytes,
        emit: Emit,
    ) -> Result<Outcome> {
        match self {
            Format::Csv => return super::generic::parse_csv(path, input, opts, emit),
            Format::Jsonl => return super::generic::parse_jsonl(path, input, opts, limit, Chosen::Detected, emit),
            _ => {}
        }
        let parser: fn(&Path, &mut dyn BufRead, LineBytes, Emit) -> Result<Outcome> = match self {
            Format::SglangJsonl => SglangJsonl::parse,
            Format::VllmJson => VllmJson::parse,
            Format::ServingStdout => ServingStdout::parse,
            Format::GbenchJson => GbenchJson::parse,
            Format::GbenchCsv => GbenchCsv::parse,
            Format::PytestBenchmark => PytestBenchmark::parse,
            Format::NvbenchJson => NvbenchJson::parse,
            Format::NvbenchCsv => NvbenchCsv::parse,
            Format::NvbenchMarkdown => NvbenchMarkdown::parse,
            Format::Asv => Asv::parse,
            Format::CriterionJson => CriterionJson::parse,
            Format::CriterionCsv => CriterionCsv::parse,
            Format::VllmBench => VllmBench::parse,
            Format::Llmperf => Llmperf::parse,
            Format::TrtllmBench => TrtllmBench::parse,
            Format::Guidellm => Guidellm::parse,
            Format::GenaiPerfJson => GenaiPerfJson::parse,
            Format::GenaiPerfCsv => GenaiPerfCsv::parse,
            Format::LmEval => LmEval::parse,
            Format::MlperfSummary => MlperfSummary::parse,
            Format::MlperfDetail => MlperfDetail::parse,
            Format::Hyperfine | Format::Csv | Format::Jsonl => Hyperfine::parse,
        };
        if opts.is_empty() {
            return parser(path, input, limit, emit);
        }
        let mut overridden = |mut run: RawRun| {
            apply_overrides(&mut run, opts).map_err(|m| Error::malformed(path, run.line, m))?;
            emit(run)
        };
        parser(path, input, limit, &mut overridden)
    }
}

/// UTF-8's byte order mark, which some editors and PowerShell's `Out-File`
/// write first.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

/// Consumes a byte order mark at the start of a log, so no format's parser
/// sees it (a JSON document after one is not "not JSON", a result block's
/// title on the first line is still its title).
fn skip_byte_order_mark(input: &mut dyn BufRead) -> std::io::Result<()> {
    if input.fill_buf()?.starts_with(BYTE_ORDER_MARK) {
        input.consume(BYTE_ORDER_MARK.len());
    }
    Ok(())
}

/// The format of a JSON document after console lines (Google Benchmark's
/// `***WARNING***` lines before its JSON on stdout), when one that reads
/// after them claims it.
fn behind_console_lines(content: &[u8], sniff: &Sniff<'_>) -> Option<Format> {
    let json = &content[preamble::before_json(content)?..];
    let shape = pyjson::shape(json, 5000);
    if !matches!(refuse::json(&shape, json), JsonLook::Runs) {
        return None;
    }
    let sniff = Sniff { json: Some(&shape), ..*sniff };
    Format::JSON.into_iter().filter(|f| f.reads_after_console()).find(|f| f.claims(&sniff))
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
