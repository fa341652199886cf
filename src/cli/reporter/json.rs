//! The JSON reporter: one pretty-printed document for scripts, with every
//! document's state and every claim's verdict and evidence.

use serde_json::json;

use super::{changed_at, CheckFindings, ClaimEntry, Reporter};
use crate::cli::project::shown;
use crate::review::check::reported_by_verdict;
use crate::review::document::DocReview;
use crate::{Error, Result};

pub(super) struct Json;

impl Reporter for Json {
    fn check(&self, found: &CheckFindings) -> Result<String> {
        let docs: Vec<serde_json::Value> = found.reviews.iter().map(|r| document(found, r)).collect();
        let errors: Vec<serde_json::Value> = found.errors.iter().flat_map(Error::each).map(error).collect();
        pretty(&json!({"ok": found.ok(), "errors": errors, "documents": docs, "lint": found.lint}))
    }

    fn nothing_checked(&self) -> String {
        "{\"ok\": true, \"documents\": []}\n".to_string()
    }

    fn claims(&self, entries: &[ClaimEntry]) -> Result<String> {
        let items: Vec<serde_json::Value> = entries.iter().filter_map(claim_item).collect();
        pretty(&items)
    }
}

/// One claim as `claims --format json` lists it (none for a claim with no
/// sweep to judge it as of).
fn claim_item(entry: &ClaimEntry) -> Option<serde_json::Value> {
    match entry {
        ClaimEntry::Judged { path, report } => Some(json!({"path": path, "claim": report})),
        ClaimEntry::History { path, line, timeline } => {
            let (_, last) = timeline.last()?;
            let history: Vec<serde_json::Value> = timeline
                .iter()
                .enumerate()
                .map(|(i, (sweep, r))| {
                    let changed = changed_at(timeline, i);
                    json!({"as_of": sweep, "verdict": r.verdict, "summary": r.summary, "changed": changed})
                })
                .collect();
            let (id, statement) = (&last.id, &last.statement);
            Some(json!({"path": path, "line": line, "id": id, "statement": statement, "history": history}))
        }
        ClaimEntry::NoSweeps { .. } => None,
    }
}

/// One error of the input: where (the path as given, the line and column
/// when known; null when it names no file) and the message without them.
fn error(e: &Error) -> serde_json::Value {
    let place = e.place();
    json!({
        "path": place.as_ref().map(|p| p.path.display().to_string()),
        "line": place.as_ref().and_then(|p| p.line),
        "col": place.as_ref().and_then(|p| p.col),
        "message": e.message(),
    })
}

/// One document's state: current or not, what is stale, its claims.
fn document(found: &CheckFindings, r: &DocReview) -> serde_json::Value {
    let stale_regions: Vec<serde_json::Value> = r
        .stale
        .iter()
        .filter(|s| !reported_by_verdict(r, s, found.strict))
        .map(|s| json!({"line": s.line, "col": s.col, "kind": s.kind.name(), "edited_by_hand": s.edited_by_hand}))
        .collect();
    let stale_files: Vec<serde_json::Value> =
        r.files.iter().map(|f| json!({"path": shown(found.cwd, &f.path), "line": f.line})).collect();
    let claims: Vec<serde_json::Value> =
        r.claims.iter().map(|c| json!({"claim": c, "fails": c.fails(found.strict)})).collect();
    json!({
        "path": r.path.display().to_string(),
        "current": r.is_current(),
        "stale_regions": stale_regions,
        "stale_files": stale_files,
        "claims": claims,
    })
}

fn pretty(value: &impl serde::Serialize) -> Result<String> {
    let mut s = serde_json::to_string_pretty(value).map_err(|e| Error::io("<stdout>", e.into()))?;
    s.push('\n');
    Ok(s)
}
