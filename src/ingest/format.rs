//! The log formats reckon reads: detection from content, and dispatch to
//! the parser of each format (one file per format beside this one).

use std::io::BufRead;
use std::path::Path;

use crate::run::RawRun;
use crate::Result;

/// Receives each run as the parser finishes it. Returning an error stops
/// the parse.
pub type Emit<'a> = &'a mut dyn FnMut(RawRun) -> Result<()>;

/// What a parse noticed besides runs: blocks it recognised and skipped on
/// purpose, with a reason (shown to the user).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Outcome {
    pub skipped: Vec<String>,
}

/// A log format reckon can ingest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `python -m sglang.bench_serving --output-file` JSONL (every era), and
    /// `bench_one_batch` / lora_bench JSONL lines.
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
    pub const ALL: [Format; 6] = [
        Format::SglangJsonl,
        Format::VllmJson,
        Format::ServingStdout,
        Format::Hyperfine,
        Format::Csv,
        Format::Jsonl,
    ];

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
    pub fn detect(path: &Path, head: &[u8]) -> Result<Format> {
        let _ = (path, head);
        todo!("format detection")
    }

    /// Parses a whole file, streaming: memory stays bounded by the largest
    /// record, not the file.
    pub fn parse(self, path: &Path, input: &mut dyn BufRead, emit: Emit, generic: &crate::config::GenericSpec) -> Result<Outcome> {
        let _ = (path, input, emit, generic);
        todo!("format parsers")
    }
}
