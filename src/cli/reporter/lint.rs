//! `lint --format json`, and the `lint` list of `check --format json`: each
//! statement lint found in prose, with what it was read as and its verdict.

use serde::Serialize;

use super::json::{JsonReport, Keys};
use crate::claims::Verdict;
use crate::lint::report::Selection;
use crate::lint::setup::Setup;
use crate::lint::{Finding, Status};

/// `lint --format json`: every statement shown, over every document.
#[derive(Serialize)]
pub(crate) struct LintReport<'a> {
    /// No statement is a problem and every document could be read.
    pub(crate) ok: bool,
    pub(crate) statements: &'a [Statement],
}

impl JsonReport for LintReport<'_> {
    const KEYS: Keys = Keys::Sorted;
}

/// One statement of a document's prose that lint shows.
#[derive(Serialize)]
pub(crate) struct Statement {
    /// History: the date it was judged as of.
    as_of: Option<String>,
    /// Ambiguous: the series the name fits.
    candidates: Vec<String>,
    /// The claim it was read as, in the claim language (null: ambiguous).
    claim: Option<String>,
    col: usize,
    /// How sure the reading is, 0 to 1.
    confidence: f64,
    /// Stale: the sweep as of which it was right.
    held_as_of: Option<String>,
    /// Sits in a table cell (`--write` leaves it).
    in_table: bool,
    line: usize,
    /// What the reading took from the context.
    notes: Vec<String>,
    /// The document, as given.
    path: String,
    /// Whether it counts as a problem (exit 1).
    problem: bool,
    sentence: String,
    /// Not read for names reckon.toml does not know: what would read it.
    setup: Option<Setup>,
    status: Status,
    summary: String,
    /// The claim engine's verdict (null: not judged).
    verdict: Option<Verdict>,
}

impl Statement {
    /// The statements of one document's findings that `sel` shows.
    pub(crate) fn shown(path: &str, findings: &[Finding], sel: Selection) -> Vec<Statement> {
        findings.iter().filter(|f| sel.shows(f)).map(|f| Statement::of(path, f, sel)).collect()
    }

    fn of(path: &str, f: &Finding, sel: Selection) -> Statement {
        Statement {
            as_of: f.as_of.clone(),
            candidates: f.candidates.clone(),
            claim: f.claim.clone(),
            col: f.col,
            confidence: f.confidence,
            held_as_of: f.held_as_of.clone(),
            in_table: f.in_table,
            line: f.line,
            notes: f.notes.clone(),
            path: path.to_string(),
            problem: sel.fails(f),
            sentence: f.sentence.clone(),
            setup: f.setup.clone(),
            status: f.status,
            summary: f.summary.clone(),
            verdict: f.verdict,
        }
    }
}
