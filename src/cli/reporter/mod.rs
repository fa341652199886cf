//! What `check` and `claims` found, printed by one reporter per format
//! (as hyperfine has one exporter per format): `human` for a terminal,
//! `json` for scripts, `github` for workflow annotations. The commands
//! build the findings; a reporter only renders them.

mod check;
pub(crate) mod export;
mod github;
mod human;
pub(crate) mod json;
pub(crate) mod lint;
pub(crate) mod query;
pub(crate) mod runs;

use std::path::Path;

use super::CheckFormat;
use crate::claims::judge::ClaimReport;
use crate::report::ci::{Findings, RepoPaths};
use crate::review::check::{Level, Problem};
use crate::review::document::DocReview;
use crate::{Error, Result};

/// What one `check` over a set of documents found.
pub(super) struct CheckFindings<'a> {
    /// The folder paths are shown relative to.
    pub(super) cwd: &'a Path,
    pub(super) reviews: &'a [DocReview],
    /// Most serious first ([`crate::review::check::by_severity`]).
    pub(super) problems: &'a [Problem],
    /// The prose statements lint judged (JSON only).
    pub(super) lint: &'a [lint::Statement],
    /// Bad input, already printed: a log that could not be ingested, a
    /// document that could not be read, ….
    pub(super) errors: &'a [Error],
    /// How CI names the paths (from the repository's root).
    pub(super) paths: &'a RepoPaths,
    pub(super) strict: bool,
    /// One line per problem and no diff (a pre-commit hook).
    pub(super) compact: bool,
    /// Said after "reckon check" in the summary, e.g. " (as staged)".
    pub(super) what: &'a str,
}

impl CheckFindings<'_> {
    /// The problems that fail the check.
    pub(super) fn failing(&self) -> usize {
        self.problems.iter().filter(|p| p.level == Level::Error).count()
    }

    pub(super) fn ok(&self) -> bool {
        self.failing() == 0 && self.errors.is_empty()
    }

    /// The findings as the CI formats of the report stage take them.
    pub(super) fn ci(&self) -> Findings<'_> {
        Findings { reviews: self.reviews, problems: self.problems, errors: self.errors, paths: self.paths }
    }
}

/// One claim as `reckon claims` lists it.
pub(super) enum ClaimEntry {
    /// Judged on the newest data.
    Judged { path: String, report: ClaimReport },
    /// Judged as of every sweep (`--history`), oldest first.
    History { path: String, line: usize, timeline: Vec<(String, ClaimReport)> },
    /// `--history` with no sweep in the data.
    NoSweeps { path: String, line: usize },
}

/// Renders findings in one format.
pub(super) trait Reporter {
    /// `check`'s findings.
    fn check(&self, found: &CheckFindings) -> Result<String>;
    /// What `check` prints when there was no document to check.
    fn nothing_checked(&self) -> String {
        String::new()
    }
    /// `claims`' listing.
    fn claims(&self, entries: &[ClaimEntry]) -> Result<String>;
}

/// The reporter for `format`; colour is decided here, for stdout.
pub(super) fn reporter(format: CheckFormat) -> Box<dyn Reporter> {
    match format {
        CheckFormat::Human => Box::new(human::Human { color: super::stdout_color() }),
        CheckFormat::Json => Box::new(check::Json),
        CheckFormat::Github => Box::new(github::Github),
    }
}

/// Whether a verdict on the timeline differs from the one before it.
fn changed_at(timeline: &[(String, ClaimReport)], i: usize) -> bool {
    i > 0 && timeline[i - 1].1.verdict != timeline[i].1.verdict
}

#[cfg(test)]
mod tests;
