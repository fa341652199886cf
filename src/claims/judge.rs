//! Judging claim regions against the data (placeholder until the claim
//! language lands).

use crate::doc::{Document, Region};
use crate::render::Context;
use crate::Result;

/// A claim with its verdict and the status note reckon keeps in its region.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimReport {
    pub id: String,
    pub line: usize,
    /// The status note to keep in the region (None: no note).
    pub note: Option<String>,
}

pub fn judge_region(_ctx: &Context, _doc: &Document, _text: &str, region: &Region) -> Result<ClaimReport> {
    Ok(ClaimReport { id: region.arg("id").map(|a| a.value.clone()).unwrap_or_default(), line: region.line, note: None })
}
