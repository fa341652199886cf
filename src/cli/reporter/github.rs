//! The GitHub reporter: one workflow command per finding
//! (`::error file=…,line=…,title=reckon::message`), which GitHub Actions
//! shows as an annotation on the line of the document.

use std::fmt::Write as _;

use super::{changed_at, CheckFindings, ClaimEntry, Reporter};
use crate::claims::judge::ClaimReport;
use crate::claims::Verdict;
use crate::Result;

pub(super) struct Github;

impl Reporter for Github {
    fn check(&self, found: &CheckFindings) -> Result<String> {
        Ok(crate::report::ci::annotations(&found.ci()))
    }

    fn claims(&self, entries: &[ClaimEntry]) -> Result<String> {
        let mut out = String::new();
        for entry in entries {
            match entry {
                ClaimEntry::Judged { path, report } => {
                    let tag = if report.superseded.is_some() { " (superseded)" } else { "" };
                    let msg = format!("claim `{}`{tag} {}", report.id, report.summary);
                    annotate(&mut out, level(report), path, report.line, &msg);
                }
                ClaimEntry::History { path, line, timeline } => {
                    let Some((sweep, last)) = timeline.last() else { continue };
                    let mut msg = format!("claim `{}` as of {sweep}: {}", last.id, last.summary);
                    // The sweep that last changed the verdict, as the human listing marks it.
                    if let Some(i) = (1..timeline.len()).rev().find(|i| changed_at(timeline, *i)) {
                        let _ = write!(
                            msg,
                            " (the {} sweep turned it from {})",
                            timeline[i].0,
                            timeline[i - 1].1.verdict.as_str()
                        );
                    }
                    annotate(&mut out, level(last), path, *line, &msg);
                }
                ClaimEntry::NoSweeps { path, line } => {
                    annotate(&mut out, "warning", path, *line, "no sweeps in the data");
                }
            }
        }
        Ok(out)
    }
}

/// A claim's annotation level: a contradicted conclusion is an error (as
/// `check` fails on it), one that holds or was superseded a notice, and one
/// the data cannot decide a warning.
fn level(c: &ClaimReport) -> &'static str {
    if c.fails(false) {
        "error"
    } else if c.verdict == Verdict::Holds || c.superseded.is_some() {
        "notice"
    } else {
        "warning"
    }
}

fn annotate(out: &mut String, level: &str, path: &str, line: usize, msg: &str) {
    crate::report::ci::annotate(out, level, Some(path), u64::try_from(line).ok(), None, msg);
}
