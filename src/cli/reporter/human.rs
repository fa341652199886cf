//! The human reporter: `path:line: level: message` lines, the diff of what
//! `update --write` would change, and a summary saying what to run.

use std::fmt::Write as _;
use std::path::Path;

use super::{changed_at, CheckFindings, ClaimEntry, Reporter};
use crate::cli::project::{claim_line, review_diff};
use crate::escape::terminal as shown;
use crate::review::check::needs_update;
use crate::Result;

pub(super) struct Human {
    pub(super) color: bool,
}

impl Reporter for Human {
    fn check(&self, found: &CheckFindings) -> Result<String> {
        let mut out = String::new();
        for p in found.problems {
            let _ = writeln!(out, "{}:{}: {}: {}", shown(&p.path), p.line, p.level.as_str(), shown(&p.msg));
        }
        if !found.compact {
            for r in found.reviews.iter().filter(|r| !r.is_current()) {
                out.push_str(&review_diff(r, found.cwd, self.color));
            }
        }
        let failing = found.failing();
        let warnings = found.problems.len() - failing;
        if failing > 0 {
            out.push_str(&summary(found, failing, warnings));
        } else if warnings > 0 {
            let _ = writeln!(
                out,
                "reckon check{}: no problem; {warnings} warning(s), which do not fail the check",
                found.what
            );
        }
        Ok(out)
    }

    fn claims(&self, entries: &[ClaimEntry]) -> Result<String> {
        let mut out = String::new();
        for entry in entries {
            match entry {
                ClaimEntry::Judged { path, report } => {
                    let _ = writeln!(out, "{}\n  {}", claim_line(Path::new(path), report), shown(&report.statement));
                    for clause in report.clauses.iter().filter(|_| report.clauses.len() > 1) {
                        let _ = writeln!(out, "  - {}: {}", shown(&clause.statement), shown(&clause.summary));
                    }
                    for d in report.clauses.iter().flat_map(|c| &c.details) {
                        let _ = writeln!(out, "  - {}", shown(d));
                    }
                }
                ClaimEntry::History { path, line, timeline } => history(&mut out, path, *line, timeline),
                ClaimEntry::NoSweeps { path, line } => {
                    let _ = writeln!(out, "{}:{line}: no sweeps in the data", shown(path));
                }
            }
        }
        Ok(out)
    }
}

/// The closing line of a failing check: how many problems (and warnings,
/// which do not fail it), and the command that regenerates the stale
/// documents.
fn summary(found: &CheckFindings, failing: usize, warnings: usize) -> String {
    let reviews = found.reviews;
    let also = if warnings > 0 { format!(" and {warnings} warning(s)") } else { String::new() };
    let mut out = format!("reckon check{}: {failing} problem(s){also} in {} document(s)", found.what, reviews.len());
    let stale: Vec<String> = reviews
        .iter()
        .filter(|r| needs_update(r, found.strict))
        .map(|r| shown(&r.path.display().to_string()))
        .collect();
    if !stale.is_empty() {
        // Hand-edited regions are only replaced when asked to.
        let force = if reviews.iter().any(|r| r.hand_edited().next().is_some()) { " --force" } else { "" };
        let _ = write!(out, "; regenerate with `reckon update --write{force} {}`", stale.join(" "));
        if found.compact {
            out.push_str(" (`reckon check --diff` shows the changes)");
        }
    }
    out.push('\n');
    out
}

/// A claim's verdict as of each sweep, marking the sweeps that changed it.
fn history(out: &mut String, path: &str, line: usize, timeline: &[(String, crate::claims::judge::ClaimReport)]) {
    let Some((_, last)) = timeline.last() else { return };
    let _ = writeln!(out, "{}:{line}: claim `{}`: {}", shown(path), shown(&last.id), shown(&last.statement));
    for (i, (sweep, report)) in timeline.iter().enumerate() {
        let mark = if changed_at(timeline, i) {
            format!("  <- changed: the {sweep} sweep turned it from {}", timeline[i - 1].1.verdict.as_str())
        } else {
            String::new()
        };
        let (sweep, summary) = (shown(sweep), shown(&report.summary));
        // The summary says its verdict first ("holds (3 of 3 points
        // hold); …"): not said twice.
        let verdict = report.verdict.as_str();
        if summary.starts_with(verdict) {
            let _ = writeln!(out, "  as of {sweep}: {summary}{}", shown(&mark));
        } else {
            let _ = writeln!(out, "  as of {sweep}: {verdict:<12} {summary}{}", shown(&mark));
        }
    }
}
