//! The job summary of a check (GitHub appends what a step writes to
//! `$GITHUB_STEP_SUMMARY` to the run's page): what failed, a line per
//! document with its verdicts counted, each document's claims with their
//! verdict and evidence, and the bad input. Every name and message comes
//! from logs and documents and goes through [`crate::escape::markdown`].

use std::fmt::Write as _;

use super::Findings;
use crate::claims::judge::ClaimReport;
use crate::claims::Verdict;
use crate::escape::markdown as md;
use crate::review::check::{Concern, Level};

/// The markdown summary of one check, ending with a blank line (the next
/// step's summary starts on its own).
pub(crate) fn summary(found: &Findings) -> String {
    let mut out = String::from("## reckon check\n\n");
    let failing = found.problems.iter().filter(|p| p.level == Level::Error).count();
    let errors = found.each_error().count();
    let _ = writeln!(out, "{}\n", headline(found.reviews.len(), failing, errors));
    if !found.reviews.is_empty() {
        out.push_str(concat!(
            "| document | claims | holds | contradicted | inconclusive | no data | superseded ",
            "| stale regions | stale plots |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
        ));
    }
    for r in found.reviews {
        let count = |v: Verdict| r.claims.iter().filter(|c| c.superseded.is_none() && c.verdict == v).count();
        let stale =
            found.problems.iter().filter(|p| p.path == r.path.display().to_string() && is_stale_region(p.concern));
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            md(&found.paths.of(&r.path)),
            r.claims.len(),
            count(Verdict::Holds),
            count(Verdict::Contradicted),
            count(Verdict::Inconclusive),
            count(Verdict::NoData),
            r.claims.iter().filter(|c| c.superseded.is_some()).count(),
            stale.count(),
            r.files.len(),
        );
    }
    for r in found.reviews.iter().filter(|r| !r.claims.is_empty()) {
        claims(&mut out, &found.paths.of(&r.path), &r.claims);
    }
    if errors > 0 {
        out.push_str("\n### Bad input\n\n");
        for e in found.each_error() {
            let said = match e.place() {
                Some(p) => {
                    let at = p.line.map(|l| format!(":{l}")).unwrap_or_default();
                    format!("{}{at}: {}", found.paths.of(&p.path), e.message())
                }
                None => e.message(),
            };
            let _ = writeln!(out, "- {}", md(&said));
        }
    }
    out.push('\n');
    out
}

/// The first line: how many documents, and what fails.
fn headline(documents: usize, failing: usize, errors: usize) -> String {
    let checked = format!("{documents} document(s) checked");
    match (failing, errors) {
        (0, 0) => format!("{checked}: every region current, no claim contradicted."),
        (n, 0) => format!("**{checked}: {n} problem(s) fail the check.**"),
        (0, e) => format!("**{checked}: {e} error(s) in the input; what could not be read was not judged.**"),
        (n, e) => format!(
            "**{checked}: {e} error(s) in the input (what could not be read was not judged) \
             and {n} problem(s) that fail the check.**"
        ),
    }
}

fn is_stale_region(c: Concern) -> bool {
    matches!(c, Concern::StaleRegion | Concern::EditedRegion | Concern::StaleNote)
}

/// One document's claims in the order written, with verdict and evidence.
fn claims(out: &mut String, path: &str, claims: &[ClaimReport]) {
    let _ = writeln!(out, "\n### {}\n", md(path));
    out.push_str("| line | claim | verdict | evidence |\n|---:|---|---|---|\n");
    for c in claims {
        let verdict = match (&c.superseded, c.verdict) {
            (Some(date), _) => format!("superseded {}", md(date)),
            (None, Verdict::Contradicted) => "**contradicted**".to_string(),
            (None, v) => v.as_str().to_string(),
        };
        let _ = writeln!(out, "| {} | {} | {verdict} | {} |", c.line, md(&c.id), md(&c.summary));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_headline_says_what_fails() {
        assert_eq!(headline(1, 0, 0), "1 document(s) checked: every region current, no claim contradicted.");
        assert!(headline(2, 3, 1).contains("1 error(s) in the input"), "{}", headline(2, 3, 1));
    }
}
