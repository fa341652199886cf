//! Ingest: turning log files into runs in the store, one transaction per
//! file, with provenance and a run time that is the same on every clone.

pub mod format;
pub mod generic;
pub mod hyperfine;
pub mod pyjson;
pub mod sglang;
pub mod stdout;
pub mod vllm;

pub use format::{Format, Outcome};
