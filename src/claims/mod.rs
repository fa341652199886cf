//! Claims: written conclusions judged against the data.

pub mod judge;

pub use judge::{judge_region, ClaimReport};
