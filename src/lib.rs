//! reckon keeps an optimization plan honest: it ingests benchmark logs into
//! `SQLite`, regenerates the data-bearing regions of markdown plans, and judges
//! the conclusions written in them against the latest measurements.
//!
//! The modules follow the pipeline: [`ingest`] → [`store`] → [`sources`] →
//! [`query`] → [`doc`] → `claims` → [`render`] → `lint` → [`config`] →
//! [`review`] (ARCHITECTURE.md has the map). The `reckon` binary is a thin
//! layer ([`cli`]) over this library. Modules the tests and benches reach
//! are public; the rest (`claims`, `lint`, `report`, `staged`, `sweep_diff`,
//! `syntax`, `fsguard`) are the crate's own.
// `println!` and `eprintln!` panic when the write fails (stderr on a full
// disk, stdout a closed pipe): the library writes through `say!` and
// `cli::stdout_write`, which never do.
#![warn(clippy::print_stdout, clippy::print_stderr)]

/// A line for the researcher on stderr, as `eprintln!` would write it, but a
/// line that cannot be written (a full disk, a closed pipe) is dropped
/// instead of panicking: the exit code still says what happened.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub(crate) mod claims;
pub mod cli;
pub mod config;
pub mod doc;
pub mod error;
pub mod escape;
pub(crate) mod fsguard;
pub mod ingest;
pub(crate) mod lint;
pub mod metric;
pub mod query;
pub mod render;
pub(crate) mod report;
pub mod review;
pub mod run;
pub mod sources;
pub(crate) mod staged;
pub mod store;
pub(crate) mod sweep_diff;
pub(crate) mod syntax;

pub use error::{Error, Result};
