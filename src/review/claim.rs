//! Claim regions of a document: the glue between a `<!-- reckon:claim … -->`
//! region and the claim judge. The statement is parsed with its errors
//! pointed at the document, the region's `as_of=` pin is applied, and the
//! verdict becomes the status note reckon keeps inside the region. Claims
//! themselves know nothing of documents; this is where the two meet.

use super::Context;
use crate::claims::judge::{ClaimReport, Clauses, Judge};
use crate::claims::lang::{self, Claim};
use crate::claims::Verdict;
use crate::config::Config;
use crate::doc::{self, Alert, Document, Kind, Region, CLAIM_ARGS};
use crate::escape;
use crate::query::Dataset;
use crate::Result;

/// The status note for a claim: a warning naming the counterexample and the
/// date of the data when contradicted, a note with the evidence when the
/// author marked it superseded, nothing otherwise. The evidence names
/// series and params from the logs: the note's text is escaped, as
/// markdown text, so no value opens a region, a link or HTML in the
/// document.
fn status_note(report: &ClaimReport) -> Option<String> {
    let date = report.data_date.as_deref().unwrap_or("the latest");
    let worst = report.clauses.iter().find(|c| c.verdict == Verdict::Contradicted).map(|c| c.summary.as_str());
    if let Some(on) = &report.superseded {
        let evidence = worst.map(|w| format!(" The data then: {w}.")).unwrap_or_default();
        let text = format!("superseded on {on}: this conclusion no longer holds and is kept as history.{evidence}");
        return Some(doc::status_note(Alert::Note, &escape::markdown(&text)));
    }
    match report.verdict {
        Verdict::Contradicted => {
            let text = format!("the data of {date} contradict this conclusion: {}.", worst.unwrap_or(&report.summary));
            Some(doc::status_note(Alert::Warning, &escape::markdown(&text)))
        }
        _ => None,
    }
}

/// Parses a claim region's statement, pointing parse errors at the
/// document.
pub fn parse_region(document: &Document, text: &str, region: &Region) -> Result<(String, Option<String>, Claim)> {
    // The directive parser takes only `CLAIM_ARGS` as arguments; any other
    // `key=value` starts the statement (a series may be called `topk=1+v2`).
    let spec = region.claim();
    let id = spec.map(|c| c.id.value.clone()).unwrap_or_default();
    let superseded = spec.and_then(|c| c.superseded.as_ref()).map(|a| a.value.clone());
    let Some(statement) = &region.statement else {
        let msg = format!(
            "claim `{id}` has no statement; write it after the id, \
             e.g. `baseline beats others on output_throughput`"
        );
        return Err(document.error_at(text, region.open.start, msg));
    };
    let claim = lang::parse(&statement.text).map_err(|e| {
        // A mistyped argument (`ids=x`) reads as the start of the statement.
        let first = statement.text.split_whitespace().next().unwrap_or("");
        let hint = match first.split_once('=') {
            Some((key, _)) if !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
                format!(" (if `{key}=` is meant as an argument: a claim takes {})", CLAIM_ARGS.join(", "))
            }
            _ => String::new(),
        };
        document.error_at(
            text,
            statement.span.start + e.offset.min(statement.text.len()),
            format!("claim `{id}`: {}{hint}", e.msg),
        )
    })?;
    Ok((id, superseded, claim))
}

/// Judges one claim region of a document with the data of `ctx` (as of
/// `as_of` when given).
pub fn judge_claim(
    dataset: &Dataset,
    cfg: &Config,
    as_of: Option<&str>,
    document: &Document,
    text: &str,
    region: &Region,
) -> Result<ClaimReport> {
    debug_assert_eq!(region.kind, Kind::Claim);
    let (id, superseded, claim) = parse_region(document, text, region)?;
    let statement_start = region.statement.as_ref().map_or(region.open.start, |s| s.span.start);
    let settings = cfg.judging();
    let mut judge = Judge::new(dataset, &settings);
    // A claim pinned with `as_of=` is judged on the data of that sweep
    // whatever else moves on; `claims --history` asks for earlier dates
    // still, never later ones.
    judge.as_of = match region.claim().and_then(|c| c.as_of.as_ref()) {
        Some(Err(e)) => {
            return Err(document.error_at(text, e.at.as_ref().map_or(region.open.start, |a| a.start), &e.msg))
        }
        Some(Ok(pin)) => Some(match as_of {
            Some(d) if d < pin.value.as_str() => d.to_string(),
            _ => pin.value.clone(),
        }),
        None => as_of.map(str::to_string),
    };
    let (verdict, clauses) = judge
        .claim(&claim)
        .map_err(|e| document.error_at(text, statement_start + e.offset, format!("claim `{id}`: {}", e.msg)))?;
    let data_date = clauses.iter().flat_map(|c| c.judgement.evidence.dates.iter()).max().cloned();
    let summary = crate::claims::judge::claim_summary(verdict, &clauses, Clauses::ListedBelow);
    let mut report = ClaimReport {
        id,
        line: region.line,
        statement: claim.to_string(),
        verdict,
        summary,
        clauses,
        superseded,
        note: None,
        data_date,
    };
    report.note = status_note(&report);
    Ok(report)
}

/// Judges a claim region for `update`/`check`.
pub fn judge_region(ctx: &Context, document: &Document, text: &str, region: &Region) -> Result<ClaimReport> {
    judge_claim(ctx.dataset, ctx.cfg, None, document, text, region)
}

/// The verdict of one claim as of each sweep in the data, oldest first.
pub fn history(
    dataset: &Dataset,
    cfg: &Config,
    document: &Document,
    text: &str,
    region: &Region,
) -> Result<Vec<(String, ClaimReport)>> {
    // Every sweep some run belongs to, oldest first, without a full record
    // of each run (a store that cannot be read now has none).
    let sweeps = dataset.sweeps().unwrap_or_default();
    sweeps
        .into_iter()
        .map(|s| {
            let report = judge_claim(dataset, cfg, Some(&s), document, text, region)?;
            Ok((s, report))
        })
        .collect()
}
