//! Review: the diff a researcher reads before accepting regenerated documents.

pub mod claim;
pub mod diff;
pub mod document;
pub mod interactive;
