//! Ingest: reading benchmark logs into runs. One file per log format
//! beside `format` (detection and dispatch); Python's JSON dialect
//! (`pyjson`), one param name per concept across formats (`canonical`),
//! the longest-line guard (`limit`), the line a CSV record starts on
//! (`csv_line`) and path templates (`template`) are
//! shared by them. Where the runs go is `sources`' business: nothing here
//! knows the store or reckon.toml.

pub mod asv;
pub mod canonical;
pub mod criterion;
pub mod csv_line;
pub mod format;
pub mod gbench;
pub mod genai_perf;
pub mod generic;
pub mod guidellm;
pub mod hyperfine;
pub mod limit;
pub mod llmperf;
pub mod lm_eval;
pub mod log_format;
pub mod log_time;
pub mod mlperf;
pub mod nvbench;
mod preamble;
pub mod pyjson;
pub mod pytest_benchmark;
mod refuse;
pub mod sglang;
pub mod stdout;
pub mod template;
pub mod trtllm_bench;
pub mod vllm;
pub mod vllm_bench;
pub(crate) mod walk;

use std::path::Path;
use std::process::Command;

pub use format::Format;
pub use limit::LineBytes;
pub use log_format::{Chosen, Emit, LogFormat, Outcome};
pub use template::PathTemplate;

/// The commit the working tree is at, recorded with each batch.
pub fn git_head(root: &Path) -> Option<String> {
    let out = Command::new("git").arg("-C").arg(root).args(["rev-parse", "HEAD"]).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}
