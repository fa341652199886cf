//! What `reckon check` finds in reviewed documents, as a list of problems
//! with a place and a level: stale regions and plots, failing or doubtful
//! claims, superseded claims nothing replaces, and prose the data
//! contradict. Printing them (human, JSON, GitHub) is the caller's.

use std::path::Path;

use super::document::{DocReview, StaleRegion};
use super::supersede;
use crate::claims::Verdict;
use crate::doc::Kind;
use crate::lint::report::Selection;
use crate::lint::{Finding, Status};

/// How much a problem matters: an error fails the check, a warning is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Error,
    Warning,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
        }
    }
}

/// What a problem is about, most serious first: the order `check` reports
/// problems in (a CI runner shows only the first few annotations, and a
/// contradicted conclusion matters more than a table to regenerate).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Concern {
    /// A claim region the data contradict.
    ContradictedClaim,
    /// A statement of the prose (read by lint) the data contradict or left behind.
    Prose,
    /// A claim the data cannot decide (inconclusive, or no data).
    UndecidedClaim,
    /// A region edited by hand that does not match the data.
    EditedRegion,
    /// A claim's status note that no longer matches its verdict.
    StaleNote,
    /// A region whose content is not what the data give.
    StaleRegion,
    /// A plot file that is not what the data draw.
    StalePlot,
    /// A superseded claim that no new conclusion replaces.
    NoSuccessor,
}

impl Concern {
    pub const ALL: [Concern; 8] = [
        Concern::ContradictedClaim,
        Concern::Prose,
        Concern::UndecidedClaim,
        Concern::EditedRegion,
        Concern::StaleNote,
        Concern::StaleRegion,
        Concern::StalePlot,
        Concern::NoSuccessor,
    ];

    /// A stable name, for programs (a SARIF rule id).
    pub fn name(self) -> &'static str {
        match self {
            Concern::ContradictedClaim => "contradicted-claim",
            Concern::Prose => "prose-against-data",
            Concern::UndecidedClaim => "undecided-claim",
            Concern::EditedRegion => "region-edited-by-hand",
            Concern::StaleNote => "stale-claim-note",
            Concern::StaleRegion => "stale-region",
            Concern::StalePlot => "stale-plot",
            Concern::NoSuccessor => "superseded-without-successor",
        }
    }

    /// What it means, in a sentence.
    pub fn description(self) -> &'static str {
        match self {
            Concern::ContradictedClaim => "A conclusion in a claim region is contradicted by the data beyond noise.",
            Concern::Prose => concat!(
                "A statement of the prose, read as a claim, is contradicted by the data ",
                "or was right only for an earlier sweep."
            ),
            Concern::UndecidedClaim => "The data cannot decide a claim: within noise, too few runs, or no data.",
            Concern::EditedRegion => "A generated region was edited by hand and does not match the data.",
            Concern::StaleNote => "A claim's status note no longer matches its verdict.",
            Concern::StaleRegion => {
                "A generated region is not what the data give now: regenerate it with `reckon update --write`."
            }
            Concern::StalePlot => {
                "A plot file is not what the data draw now: regenerate it with `reckon update --write`."
            }
            Concern::NoSuccessor => "A superseded conclusion has no new conclusion after it.",
        }
    }
}

/// One problem `check` reports, at a line of a document.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// The document as the researcher named it.
    pub path: String,
    pub line: usize,
    pub level: Level,
    pub concern: Concern,
    pub msg: String,
}

/// Sorts problems most serious first: what fails the check before what is
/// only shown, then by [`Concern`] (contradicted claims first), then by
/// document and line.
pub fn by_severity(problems: &mut [Problem]) {
    problems.sort_by(|a, b| {
        let key = |p: &Problem| (p.level != Level::Error, p.concern);
        key(a).cmp(&key(b)).then_with(|| (&a.path, a.line).cmp(&(&b.path, b.line)))
    });
}

/// The problems of one reviewed document, in the order found (callers sort).
/// `strict` fails inconclusive and unjudgeable claims too; `shown` says how a
/// plot's path is printed.
pub fn document_problems(r: &DocReview, strict: bool, shown: &dyn Fn(&Path) -> String) -> Vec<Problem> {
    let path = r.path.display().to_string();
    // In a notebook, each problem names its cell too (`path:line` is the file's line).
    let cells = crate::doc::notebook::Notebook::of(&r.path, &r.original);
    let at = |line, level, concern, msg: String| {
        let msg = match cells.as_ref().and_then(|nb| nb.place(line)) {
            Some(p) => format!("{p}: {msg}"),
            None => msg,
        };
        Problem { path: path.clone(), line, level, concern, msg }
    };
    let mut problems = Vec::new();
    for s in r.stale.iter().filter(|s| !reported_by_verdict(r, s, strict)) {
        let (concern, how) = if s.edited_by_hand {
            (Concern::EditedRegion, "was edited by hand and does not match the data")
        } else if s.kind == Kind::Claim {
            // e.g. a warning left on a claim that holds again: readers
            // would still be told the data contradict it.
            (Concern::StaleNote, "has a status note that no longer matches its verdict")
        } else {
            (Concern::StaleRegion, "is stale")
        };
        problems.push(at(s.line, Level::Error, concern, format!("{} region {how}", s.kind.name())));
    }
    for f in &r.files {
        problems.push(at(f.line, Level::Error, Concern::StalePlot, format!("plot {} is stale", shown(&f.path))));
    }
    for c in &r.claims {
        let level = if c.fails(strict) {
            Level::Error
        } else if c.verdict == Verdict::Holds || c.superseded.is_some() {
            continue;
        } else {
            Level::Warning
        };
        let concern =
            if c.verdict == Verdict::Contradicted { Concern::ContradictedClaim } else { Concern::UndecidedClaim };
        let tag = if c.superseded.is_some() { " (superseded)" } else { "" };
        // Rewriting the note (update --write) would not make check
        // pass: an overturned conclusion is kept as history instead.
        let hint = if c.verdict == Verdict::Contradicted && c.superseded.is_none() {
            format!("; keep it as history with `reckon supersede {path} {} --write` and write the new conclusion", c.id)
        } else {
            String::new()
        };
        problems.push(at(c.line, level, concern, format!("claim `{}`{tag} {}{hint}", c.id, c.summary)));
    }
    for u in supersede::unreplaced(&r.text) {
        let level = if strict { Level::Error } else { Level::Warning };
        let msg = format!(
            "claim `{}` was superseded on {} and no new conclusion replaces it: \
             write one after it, in a claim region, so reckon keeps checking it",
            u.id, u.date
        );
        problems.push(at(u.line, level, Concern::NoSuccessor, msg));
    }
    problems
}

/// The prose statements of a document that `sel` fails (contradicted or
/// stale), as problems of `level` ([lint] level in reckon.toml).
pub fn lint_problems(path: &str, findings: &[Finding], sel: Selection, level: Level) -> Vec<Problem> {
    findings
        .iter()
        .filter(|f| sel.fails(f))
        .map(|f| {
            let what = match f.status {
                Status::Stale => {
                    format!("stale (right as of {})", f.held_as_of.as_deref().unwrap_or("an earlier sweep"))
                }
                s => s.as_str().to_string(),
            };
            let msg = format!(
                "lint: \"{}\" reads as `{}`: {what}; {}",
                f.sentence,
                f.claim.as_deref().unwrap_or(""),
                f.summary
            );
            Problem { path: path.to_string(), line: f.line, level, concern: Concern::Prose, msg }
        })
        .collect()
}

/// A claim region is stale whenever its status note changes; when the claim
/// fails, its verdict is the problem reported, not the note as well.
pub fn reported_by_verdict(r: &DocReview, s: &StaleRegion, strict: bool) -> bool {
    s.kind == Kind::Claim && !s.edited_by_hand && r.claims.iter().any(|c| c.line == s.line && c.fails(strict))
}

/// Whether `update --write` would fix something in the document: a stale
/// region or plot, not only the note of a failing claim (that wants
/// `supersede`).
pub fn needs_update(r: &DocReview, strict: bool) -> bool {
    !r.files.is_empty() || r.stale.iter().any(|s| !reported_by_verdict(r, s, strict))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::claims::judge::ClaimReport;
    use crate::review::document::FileChange;

    fn claim(id: &str, line: usize, verdict: Verdict, superseded: Option<&str>) -> ClaimReport {
        ClaimReport {
            id: id.into(),
            line,
            statement: "a beats b on m".into(),
            verdict,
            summary: format!("{} (the evidence)", verdict.as_str()),
            clauses: Vec::new(),
            superseded: superseded.map(str::to_string),
            note: None,
            data_date: None,
        }
    }

    fn stale(kind: Kind, line: usize) -> StaleRegion {
        StaleRegion { kind, line, col: 1, edited_by_hand: false }
    }

    /// A document with a stale table, a stale plot, a contradicted claim
    /// (whose note is stale too), an inconclusive one, one that holds, and
    /// a superseded one nothing replaces.
    fn review() -> DocReview {
        let text = "<!-- reckon:claim id=old superseded=2026-01-02 a beats b on m -->\nA wins.\n\
                    <!-- /reckon:claim -->\n";
        DocReview {
            path: PathBuf::from("notes/plan.md"),
            original: text.as_bytes().to_vec(),
            text: text.into(),
            updated: text.into(),
            stale: vec![stale(Kind::Table, 3), stale(Kind::Claim, 10)],
            files: vec![FileChange {
                path: PathBuf::from("/p/notes/plot.svg"),
                old: None,
                new: String::new(),
                line: 5,
            }],
            drawn: Vec::new(),
            plots: Vec::new(),
            traces: Vec::new(),
            claims: vec![
                claim("wrong", 10, Verdict::Contradicted, None),
                claim("unsure", 12, Verdict::Inconclusive, None),
                claim("right", 14, Verdict::Holds, None),
                claim("old", 1, Verdict::Contradicted, Some("2026-01-02")),
            ],
            replacements: Vec::new(),
        }
    }

    fn summary(problems: &[Problem]) -> Vec<(usize, &'static str, &str)> {
        problems.iter().map(|p| (p.line, p.level.as_str(), p.msg.split(':').next().unwrap_or(""))).collect()
    }

    #[test]
    fn each_problem_once_with_its_level() {
        let r = review();
        let shown = |p: &Path| p.strip_prefix("/p").unwrap_or(p).display().to_string();
        let problems = document_problems(&r, false, &shown);
        assert!(problems.iter().all(|p| p.path == "notes/plan.md"));
        let lines: Vec<(usize, &str)> = problems.iter().map(|p| (p.line, p.level.as_str())).collect();
        // The contradicted claim's stale note is not reported besides its verdict.
        assert_eq!(
            lines,
            [(3, "error"), (5, "error"), (10, "error"), (12, "warning"), (1, "warning")],
            "{problems:#?}"
        );
        assert_eq!(problems[0].msg, "table region is stale");
        assert_eq!(problems[1].msg, "plot notes/plot.svg is stale");
        assert!(problems[2].msg.contains("`reckon supersede notes/plan.md wrong --write`"), "{}", problems[2].msg);
        assert!(problems[4].msg.starts_with("claim `old` was superseded on 2026-01-02 and no new conclusion"));
        assert!(needs_update(&r, false));
    }

    #[test]
    fn contradicted_claims_come_first_and_warnings_last() {
        let mut problems = document_problems(&review(), false, &|p: &Path| p.display().to_string());
        by_severity(&mut problems);
        let order: Vec<(usize, Concern)> = problems.iter().map(|p| (p.line, p.concern)).collect();
        assert_eq!(
            order,
            [
                (10, Concern::ContradictedClaim),
                (3, Concern::StaleRegion),
                (5, Concern::StalePlot),
                (12, Concern::UndecidedClaim),
                (1, Concern::NoSuccessor)
            ]
        );
        let names: std::collections::BTreeSet<&str> = Concern::ALL.iter().map(|c| c.name()).collect();
        assert_eq!(names.len(), Concern::ALL.len(), "each concern has its own name");
    }

    #[test]
    fn strict_fails_what_the_data_cannot_decide() {
        let problems = document_problems(&review(), true, &|p: &Path| p.display().to_string());
        let levels: Vec<_> = summary(&problems).into_iter().map(|(line, level, _)| (line, level)).collect();
        assert_eq!(levels, [(3, "error"), (5, "error"), (10, "error"), (12, "error"), (1, "error")]);
    }

    #[test]
    fn a_claim_note_alone_is_not_an_update() {
        let mut r = review();
        r.stale.retain(|s| s.kind == Kind::Claim);
        r.files.clear();
        assert!(!needs_update(&r, false), "the failing claim wants supersede, not update --write");
        r.claims[0].verdict = Verdict::Holds;
        assert!(needs_update(&r, false), "a note that no longer matches a holding claim is rewritten by update");
        let problems = document_problems(&r, false, &|p: &Path| p.display().to_string());
        assert_eq!(problems[0].msg, "claim region has a status note that no longer matches its verdict");
    }
}
