//! query
pub mod filter;
