//! What `reckon watch` knows of the documents after one evaluation (a
//! [`Snapshot`]: each claim's verdict, each judged prose statement's status,
//! each region's new content), and what changed between two of them, said
//! as the lines the researcher reads. The verdicts are the library's, as
//! `claims`, `lint` and `update` print them; nothing here judges.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use crate::claims::judge::ClaimReport;
use crate::claims::Verdict;
use crate::doc::{self, Kind};
use crate::escape::terminal;
use crate::lint::{Finding, Status};
use crate::review::document::DocReview;

/// One document as the data say it now.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct DocState {
    /// As the researcher gave it.
    pub(super) path: PathBuf,
    pub(super) claims: Vec<ClaimState>,
    /// The prose statements lint judged (read with enough confidence).
    pub(super) statements: Vec<StatementState>,
    pub(super) regions: Vec<RegionState>,
    /// Regions whose content on disk does not match the data.
    pub(super) stale: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct ClaimState {
    pub(super) id: String,
    pub(super) line: usize,
    pub(super) verdict: Verdict,
    pub(super) superseded: bool,
    /// The verdict with the measurement it rests on.
    pub(super) summary: String,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct StatementState {
    pub(super) line: usize,
    pub(super) sentence: String,
    /// The claim it was read as: a sentence read differently is another statement.
    pub(super) reading: Option<String>,
    pub(super) status: Status,
    pub(super) summary: String,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct RegionState {
    /// The kind, the arguments and the how-many-th such region: what stays
    /// the same when lines above it move.
    pub(super) key: String,
    pub(super) kind: Kind,
    pub(super) line: usize,
    /// The regenerated content (and a plot's drawing).
    pub(super) content: String,
}

impl DocState {
    /// The state of a reviewed document and of its prose's statements
    /// (those `min_confidence` lets through; `None`: lint could not read it).
    pub(super) fn of(review: &DocReview, findings: Option<&[Finding]>, min_confidence: f64) -> DocState {
        let claims = review.claims.iter().map(ClaimState::of).collect();
        let statements = findings
            .unwrap_or_default()
            .iter()
            .filter(|f| f.confidence >= min_confidence && judged(f.status))
            .map(|f| StatementState {
                line: f.line,
                sentence: f.sentence.clone(),
                reading: f.claim.clone(),
                status: f.status,
                summary: f.summary.clone(),
            })
            .collect();
        DocState {
            path: review.path.clone(),
            claims,
            statements,
            regions: regions_of(review),
            stale: review.stale.len() + review.files.len(),
        }
    }

    /// The initial state line's part for this document.
    pub(super) fn summary(&self) -> String {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for c in &self.claims {
            *counts.entry(if c.superseded { "superseded" } else { c.verdict.as_str() }).or_default() += 1;
        }
        let claims = counts.iter().map(|(w, n)| format!("{n} {w}")).collect::<Vec<_>>().join(", ");
        let mut s = format!("{}: {} claim(s)", terminal(&self.path.display().to_string()), self.claims.len());
        if !claims.is_empty() {
            let _ = write!(s, " ({claims})");
        }
        let problems = self.statements.iter().filter(|t| t.status.is_problem()).count();
        let _ = write!(s, ", {} prose statement(s) judged ({problems} contradicted or stale)", self.statements.len());
        let _ = write!(s, ", {} region(s), {} not matching the data", self.regions.len(), self.stale);
        s
    }
}

impl ClaimState {
    fn of(c: &ClaimReport) -> ClaimState {
        ClaimState {
            id: c.id.clone(),
            line: c.line,
            verdict: c.verdict,
            superseded: c.superseded.is_some(),
            summary: c.summary.clone(),
        }
    }
}

/// A statement whose status is a verdict on data (not a plan, history, or
/// a sentence that could not be read).
fn judged(status: Status) -> bool {
    matches!(status, Status::Contradicted | Status::Stale | Status::Holds | Status::Inconclusive | Status::NoData)
}

/// Each region's regenerated content, keyed so that an edit above it does
/// not make it another region. Claim regions are followed by their verdict.
fn regions_of(review: &DocReview) -> Vec<RegionState> {
    let Ok(parsed) = doc::parse(&review.path, &review.text) else { return Vec::new() };
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::new();
    for (index, new) in &review.replacements {
        let Some(region) = parsed.regions.get(*index) else { continue };
        if region.kind == Kind::Claim {
            continue;
        }
        let args: Vec<String> = region.args.iter().map(|a| format!("{}={:?}", a.key, a.value)).collect();
        let base = format!("{} {}", region.kind.name(), args.join(" "));
        let nth = seen.entry(base.clone()).or_default();
        *nth += 1;
        let mut content = new.clone();
        for (_, _, svg) in review.plots.iter().filter(|(i, _, _)| i == index) {
            content.push_str(svg);
        }
        out.push(RegionState { key: format!("{base} #{nth}"), kind: region.kind, line: region.line, content });
    }
    out
}

/// What changed from `old` to `new` in one document, one line each
/// (without the time and the trigger): claims whose verdict changed first,
/// then prose statements, then regions whose content moved.
pub(super) fn changes(old: &DocState, new: &DocState) -> Vec<String> {
    let path = terminal(&new.path.display().to_string());
    let mut lines = Vec::new();
    for c in &new.claims {
        let before = old.claims.iter().find(|o| o.id == c.id);
        let said = match before {
            Some(o) if o.verdict == c.verdict && o.superseded == c.superseded => continue,
            Some(o) => format!("{} → {}", word(o), verdict_with_summary(c)),
            None => format!("(new) {}", c.summary),
        };
        lines.push(format!("{path}:{}: claim `{}` {}", c.line, terminal(&c.id), terminal(&said)));
    }
    for c in old.claims.iter().filter(|o| !new.claims.iter().any(|c| c.id == o.id)) {
        lines.push(format!("{path}: claim `{}` is gone from the document", terminal(&c.id)));
    }
    for s in &new.statements {
        let before = old.statements.iter().find(|o| o.sentence == s.sentence && o.reading == s.reading);
        let said = match before {
            Some(o) if o.status == s.status => continue,
            Some(o) => format!("{} → {}: {}", o.status.as_str(), s.status.as_str(), s.summary),
            // A new sentence the researcher just wrote: said when it is wrong.
            None if s.status.is_problem() => format!("(new) {}: {}", s.status.as_str(), s.summary),
            None => continue,
        };
        let sentence = crate::syntax::excerpt(&s.sentence);
        lines.push(format!("{path}:{}: prose \"{}\" {}", s.line, terminal(&sentence), terminal(&said)));
    }
    for r in &new.regions {
        let Some(o) = old.regions.iter().find(|o| o.key == r.key) else { continue };
        if o.content != r.content {
            lines.push(format!("{path}:{}: {} region {}", r.line, r.kind.name(), moved(&o.content, &r.content)));
        }
    }
    lines
}

/// A claim's verdict as one word (superseded claims are not judged).
fn word(c: &ClaimState) -> &'static str {
    if c.superseded {
        "superseded"
    } else {
        c.verdict.as_str()
    }
}

/// The new verdict and the measurement behind it: the summary already
/// starts with the verdict's word; a summary that does not gets it first.
fn verdict_with_summary(c: &ClaimState) -> String {
    let w = word(c);
    if c.summary.starts_with(w) {
        c.summary.clone()
    } else {
        format!("{w}: {}", c.summary)
    }
}

/// How a region's content moved: a short one-line value as `old → new`,
/// anything longer by its size.
fn moved(old: &str, new: &str) -> String {
    let short = |s: &str| s.trim().len() <= 60 && !s.trim().contains('\n');
    if short(old) && short(new) {
        format!("{} → {}", terminal(old.trim()), terminal(new.trim()))
    } else {
        format!("changed ({} line(s) now)", new.trim_end().lines().count())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(id: &str, verdict: Verdict, summary: &str) -> ClaimState {
        ClaimState { id: id.into(), line: 7, verdict, superseded: false, summary: summary.into() }
    }

    fn doc(claims: Vec<ClaimState>) -> DocState {
        DocState { path: "plan.md".into(), claims, ..DocState::default() }
    }

    #[test]
    fn a_changed_verdict_is_said_with_its_measurement_and_an_unchanged_one_is_not() {
        let old = doc(vec![
            claim("a", Verdict::Holds, "holds; closest at c=30: 641.8 vs 329.5"),
            claim("b", Verdict::Holds, "holds"),
        ]);
        let new = doc(vec![
            claim("a", Verdict::Contradicted, "contradicted at c=30: baseline 689.4 vs eagle 759.3"),
            claim("b", Verdict::Holds, "holds, with other numbers"),
        ]);
        assert_eq!(
            changes(&old, &new),
            ["plan.md:7: claim `a` holds → contradicted at c=30: baseline 689.4 vs eagle 759.3"]
        );
        assert!(changes(&new, &new).is_empty());
    }

    #[test]
    fn claims_that_appear_or_go_are_said() {
        let old = doc(vec![claim("a", Verdict::Holds, "holds")]);
        let new = doc(vec![claim("b", Verdict::NoData, "no data for x")]);
        assert_eq!(
            changes(&old, &new),
            ["plan.md:7: claim `b` (new) no data for x", "plan.md: claim `a` is gone from the document"]
        );
    }

    #[test]
    fn a_statement_is_followed_by_its_sentence_and_reading() {
        let st = |status| StatementState {
            line: 3,
            sentence: "baseline wins at c=30.".into(),
            reading: Some("baseline beats others".into()),
            status,
            summary: "contradicted at c=30: 689.4 vs 759.3".into(),
        };
        let old = DocState { statements: vec![st(Status::Holds)], ..doc(vec![]) };
        let new = DocState { statements: vec![st(Status::Contradicted)], ..doc(vec![]) };
        assert_eq!(
            changes(&old, &new),
            ["plan.md:3: prose \"baseline wins at c=30.\" holds → contradicted: contradicted at c=30: 689.4 vs 759.3"]
        );
        // A sentence written meanwhile is said only when it is wrong.
        let fresh = DocState { statements: vec![st(Status::Holds)], ..doc(vec![]) };
        assert!(changes(&doc(vec![]), &fresh).is_empty());
        assert_eq!(changes(&doc(vec![]), &new).len(), 1);
    }

    #[test]
    fn a_region_is_said_when_its_content_moves() {
        let region = |line, content: &str| RegionState {
            key: "value metric=\"tps\" #1".into(),
            kind: Kind::Value,
            line,
            content: content.into(),
        };
        let old = DocState { regions: vec![region(4, "341")], ..doc(vec![]) };
        let same_lower = DocState { regions: vec![region(9, "341")], ..doc(vec![]) };
        let new = DocState { regions: vec![region(4, "352.6")], ..doc(vec![]) };
        assert!(changes(&old, &same_lower).is_empty());
        assert_eq!(changes(&old, &new), ["plan.md:4: value region 341 → 352.6"]);
        assert_eq!(moved("| a |\n| 1 |\n", "| a |\n| 2 |\n"), "changed (2 line(s) now)");
    }
}
