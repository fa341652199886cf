//! SARIF 2.1.0, the format code-scanning tools (GitHub's among them)
//! ingest: one run of the tool `reckon`, one rule per kind of problem (and
//! one for bad input), one result per error and problem with its place in
//! the repository. `tests/ci_check.rs` validates it against the OASIS
//! schema.

use std::path::Path;

use serde_json::{json, Value};

use super::Findings;
use crate::escape::uri_path;
use crate::review::check::Concern;

/// The OASIS schema the output follows.
const SCHEMA: &str = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The rule of bad input (exit 2): a log, a document or reckon.toml reckon
/// could not read.
const BAD_INPUT: &str = "bad-input";

/// The SARIF log of one check, results most serious first.
pub(crate) fn sarif(found: &Findings) -> Value {
    let bad_input = "A log, a document or reckon.toml that reckon cannot read: the check stops short of judging it.";
    let mut rules = vec![json!({
        "id": BAD_INPUT,
        "shortDescription": {"text": bad_input},
        "defaultConfiguration": {"level": "error"},
    })];
    rules.extend(Concern::ALL.iter().map(|c| {
        // Without --strict, what the data cannot decide is shown, not failed.
        let level = if matches!(c, Concern::UndecidedClaim | Concern::NoSuccessor) { "warning" } else { "error" };
        json!({
            "id": c.name(),
            "shortDescription": {"text": c.description()},
            "defaultConfiguration": {"level": level},
        })
    }));
    let mut results = Vec::new();
    for e in found.each_error() {
        let place = e.place();
        let location = place.as_ref().map(|p| location(found, &p.path, p.line, p.col));
        results.push(result(BAD_INPUT, 0, "error", &e.message(), location));
    }
    for p in found.problems {
        let index = 1 + Concern::ALL.iter().position(|c| *c == p.concern).unwrap_or(0);
        let line = u64::try_from(p.line).ok();
        let location = location(found, Path::new(&p.path), line, None);
        results.push(result(p.concern.name(), index, p.level.as_str(), &p.msg, Some(location)));
    }
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "reckon",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "invocations": [{"executionSuccessful": found.errors.is_empty()}],
            "results": results,
        }],
    })
}

fn result(rule: &str, index: usize, level: &str, msg: &str, location: Option<Value>) -> Value {
    let mut r = json!({"ruleId": rule, "ruleIndex": index, "level": level, "message": {"text": msg}});
    if let Some(location) = location {
        r["locations"] = json!([location]);
    }
    r
}

/// A file of the repository (relative to its root, `%SRCROOT%`), or a
/// `file:` URI for one outside it, with the line and column when known.
fn location(found: &Findings, path: &Path, line: Option<u64>, col: Option<usize>) -> Value {
    let named = found.paths.of(path);
    let artifact = if named.starts_with('/') {
        json!({"uri": format!("file://{}", uri_path(&named))})
    } else {
        json!({"uri": uri_path(&named), "uriBaseId": "%SRCROOT%"})
    };
    let mut physical = json!({"artifactLocation": artifact});
    if let Some(line) = line.filter(|l| *l > 0) {
        physical["region"] = json!({"startLine": line});
        if let Some(col) = col.filter(|c| *c > 0) {
            physical["region"]["startColumn"] = json!(col);
        }
    }
    json!({"physicalLocation": physical})
}
