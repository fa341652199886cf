//! The JSON reporter of `check` and `claims`: their report types, each
//! document's state and every claim's verdict and evidence.

use serde::Serialize;

use super::json::{pretty, JsonReport, Keys};
use super::lint::Statement;
use super::{changed_at, CheckFindings, ClaimEntry, Reporter};
use crate::claims::judge::ClaimReport;
use crate::claims::Verdict;
use crate::cli::project::shown;
use crate::review::check::reported_by_verdict;
use crate::review::document::DocReview;
use crate::{Error, Result};

pub(super) struct Json;

impl Reporter for Json {
    fn check(&self, found: &CheckFindings) -> Result<String> {
        let report = CheckReport {
            documents: found.reviews.iter().map(|r| DocumentState::of(found, r)).collect(),
            errors: found.errors.iter().flat_map(Error::each).map(InputError::of).collect(),
            lint: found.lint,
            ok: found.ok(),
        };
        pretty(&report)
    }

    fn nothing_checked(&self) -> String {
        // A `CheckReport` with no document, written as reckon always has.
        NOTHING_CHECKED.to_string()
    }

    fn claims(&self, entries: &[ClaimEntry]) -> Result<String> {
        let items: Vec<ClaimListing> = entries.iter().filter_map(ClaimListing::of).collect();
        pretty(items.as_slice())
    }
}

/// What `check --format json` prints when there is no document to check.
pub(super) const NOTHING_CHECKED: &str = "{\"ok\": true, \"documents\": []}\n";

/// `check --format json`: the whole check.
#[derive(Serialize)]
pub(super) struct CheckReport<'a> {
    pub(super) documents: Vec<DocumentState<'a>>,
    /// Bad input met (each made the check exit 2).
    pub(super) errors: Vec<InputError>,
    /// The prose statements lint judged, with `[lint]` on in reckon.toml.
    pub(super) lint: &'a [Statement],
    /// No problem fails the check and no input was bad.
    pub(super) ok: bool,
}

impl JsonReport for CheckReport<'_> {
    const KEYS: Keys = Keys::Sorted;
}

/// One document's state: current or not, what is stale, its claims.
#[derive(Serialize)]
pub(super) struct DocumentState<'a> {
    pub(super) claims: Vec<ClaimState<'a>>,
    /// Nothing in it or in the files it draws would change.
    pub(super) current: bool,
    /// As given.
    pub(super) path: String,
    pub(super) stale_files: Vec<StaleFile>,
    /// Stale regions not already reported by their claim's verdict.
    pub(super) stale_regions: Vec<StaleRegion>,
}

impl<'a> DocumentState<'a> {
    fn of(found: &CheckFindings, r: &'a DocReview) -> DocumentState<'a> {
        DocumentState {
            claims: r.claims.iter().map(|c| ClaimState { claim: c, fails: c.fails(found.strict) }).collect(),
            current: r.is_current(),
            path: r.path.display().to_string(),
            stale_files: r.files.iter().map(|f| StaleFile { line: f.line, path: shown(found.cwd, &f.path) }).collect(),
            stale_regions: r
                .stale
                .iter()
                .filter(|s| !reported_by_verdict(r, s, found.strict))
                .map(|s| StaleRegion {
                    col: s.col,
                    edited_by_hand: s.edited_by_hand,
                    kind: s.kind.name(),
                    line: s.line,
                })
                .collect(),
        }
    }
}

/// A claim region of a checked document with its verdict.
#[derive(Serialize)]
pub(super) struct ClaimState<'a> {
    pub(super) claim: &'a ClaimReport,
    /// Whether the check fails on it (`--strict` counted).
    pub(super) fails: bool,
}

/// A file a region draws whose bytes would change.
#[derive(Serialize)]
pub(super) struct StaleFile {
    /// The line of the region that draws it.
    pub(super) line: usize,
    pub(super) path: String,
}

/// A region whose content would change.
#[derive(Serialize)]
pub(super) struct StaleRegion {
    pub(super) col: usize,
    /// Edited by hand since reckon wrote it.
    pub(super) edited_by_hand: bool,
    /// The region's kind (`table`, `value`, `plot`, …).
    pub(super) kind: &'static str,
    pub(super) line: usize,
}

/// One error of the input: where (the path as given, the line and column
/// when known; null when it names no file) and the message without them.
#[derive(Serialize)]
pub(super) struct InputError {
    pub(super) col: Option<usize>,
    pub(super) line: Option<u64>,
    pub(super) message: String,
    pub(super) path: Option<String>,
}

impl InputError {
    fn of(e: &Error) -> InputError {
        let place = e.place();
        InputError {
            col: place.as_ref().and_then(|p| p.col),
            line: place.as_ref().and_then(|p| p.line),
            message: e.message(),
            path: place.as_ref().map(|p| p.path.display().to_string()),
        }
    }
}

/// One claim as `claims --format json` lists it: judged on the newest data,
/// or, with `--history`, as of every sweep.
#[derive(Serialize)]
#[serde(untagged)]
pub(super) enum ClaimListing<'a> {
    Judged(JudgedClaim<'a>),
    History(ClaimHistory<'a>),
}

impl JsonReport for ClaimListing<'_> {
    const KEYS: Keys = Keys::Sorted;
}

impl<'a> ClaimListing<'a> {
    /// None for a claim with no sweep to judge it as of.
    fn of(entry: &'a ClaimEntry) -> Option<ClaimListing<'a>> {
        match entry {
            ClaimEntry::Judged { path, report } => Some(ClaimListing::Judged(JudgedClaim { claim: report, path })),
            ClaimEntry::History { path, line, timeline } => {
                let (_, last) = timeline.last()?;
                let history = timeline
                    .iter()
                    .enumerate()
                    .map(|(i, (sweep, r))| VerdictAsOf {
                        as_of: sweep,
                        changed: changed_at(timeline, i),
                        summary: &r.summary,
                        verdict: r.verdict,
                    })
                    .collect();
                Some(ClaimListing::History(ClaimHistory {
                    history,
                    id: &last.id,
                    line: *line,
                    path,
                    statement: &last.statement,
                }))
            }
            ClaimEntry::NoSweeps { .. } => None,
        }
    }
}

/// A claim judged on the newest data.
#[derive(Serialize)]
pub(super) struct JudgedClaim<'a> {
    pub(super) claim: &'a ClaimReport,
    /// The document, as given.
    pub(super) path: &'a str,
}

/// A claim judged as of every sweep, oldest first (`claims --history`).
#[derive(Serialize)]
pub(super) struct ClaimHistory<'a> {
    pub(super) history: Vec<VerdictAsOf<'a>>,
    pub(super) id: &'a str,
    pub(super) line: usize,
    pub(super) path: &'a str,
    /// As of the newest sweep, in canonical form.
    pub(super) statement: &'a str,
}

/// A claim's verdict as of one sweep.
#[derive(Serialize)]
pub(super) struct VerdictAsOf<'a> {
    /// The sweep's date.
    pub(super) as_of: &'a str,
    /// The verdict differs from the sweep before.
    pub(super) changed: bool,
    pub(super) summary: &'a str,
    pub(super) verdict: Verdict,
}
