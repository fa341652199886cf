//! reckon keeps an optimization plan honest: it ingests benchmark logs into
//! `SQLite`, regenerates the data-bearing regions of markdown plans, and judges
//! the conclusions written in them against the latest measurements.
//!
//! The modules follow the pipeline: [`ingest`] → [`store`] → [`query`] →
//! [`doc`] → [`render`] / [`claims`] → [`review`]. The `reckon` binary is a
//! thin layer ([`cli`]) over this library.

pub mod claims;
pub mod cli;
pub mod config;
pub mod doc;
pub mod error;
pub mod fsguard;
pub mod ingest;
pub mod lint;
pub mod metric;
pub mod query;
pub mod render;
pub mod report;
pub mod review;
pub mod run;
pub mod sources;
pub mod staged;
pub mod store;
pub mod sweep_diff;
pub mod syntax;

pub use error::{Error, Result};
