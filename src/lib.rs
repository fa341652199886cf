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
