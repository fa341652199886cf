//! SARIF 2.1.0, the format code-scanning tools (GitHub's among them)
//! ingest: one run of the tool `reckon`, one rule per kind of problem (and
//! one for bad input), one result per error and problem with its place in
//! the repository, as typed values the CLI serializes. `tests/ci_check.rs`
//! validates it against the OASIS schema.

use std::path::Path;

use serde::Serialize;

use super::Findings;
use crate::escape::uri_path;
use crate::review::check::Concern;

/// The OASIS schema the output follows.
const SCHEMA: &str = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The rule of bad input (exit 2): a log, a document or reckon.toml reckon
/// could not read.
const BAD_INPUT: &str = "bad-input";

/// A SARIF log: one run of reckon.
#[derive(Debug, Serialize)]
pub(crate) struct Sarif {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run; 1],
}

#[derive(Debug, Serialize)]
struct Run {
    tool: Tool,
    invocations: [Invocation; 1],
    results: Vec<SarifResult>,
}

#[derive(Debug, Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Debug, Serialize)]
struct Driver {
    name: &'static str,
    version: &'static str,
    rules: Vec<Rule>,
}

/// A kind of problem (or bad input).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: &'static str,
    short_description: Message,
    default_configuration: Configuration,
}

#[derive(Debug, Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation {
    execution_successful: bool,
}

#[derive(Debug, Serialize)]
struct Message {
    text: String,
}

/// One error or problem.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Message,
    #[serde(skip_serializing_if = "Option::is_none")]
    locations: Option<[Location; 1]>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    physical_location: PhysicalLocation,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

/// A file of the repository (relative to its root, `%SRCROOT%`), or a
/// `file:` URI for one outside it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    start_column: Option<usize>,
}

/// The SARIF log of one check, results most serious first.
pub(crate) fn sarif(found: &Findings) -> Sarif {
    let bad_input = "A log, a document or reckon.toml that reckon cannot read: the check stops short of judging it.";
    let mut rules = vec![Rule {
        id: BAD_INPUT,
        short_description: Message { text: bad_input.to_string() },
        default_configuration: Configuration { level: "error" },
    }];
    rules.extend(Concern::ALL.iter().map(|c| {
        // Without --strict, what the data cannot decide is shown, not failed.
        let level = if matches!(c, Concern::UndecidedClaim | Concern::NoSuccessor) { "warning" } else { "error" };
        Rule {
            id: c.name(),
            short_description: Message { text: c.description().to_string() },
            default_configuration: Configuration { level },
        }
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
    Sarif {
        schema: SCHEMA,
        version: "2.1.0",
        runs: [Run {
            tool: Tool { driver: Driver { name: "reckon", version: env!("CARGO_PKG_VERSION"), rules } },
            invocations: [Invocation { execution_successful: found.errors.is_empty() }],
            results,
        }],
    }
}

fn result(rule: &'static str, index: usize, level: &'static str, msg: &str, location: Option<Location>) -> SarifResult {
    SarifResult {
        rule_id: rule,
        rule_index: index,
        level,
        message: Message { text: msg.to_string() },
        locations: location.map(|l| [l]),
    }
}

/// Where a result is: the file, with the line and column when known.
fn location(found: &Findings, path: &Path, line: Option<u64>, col: Option<usize>) -> Location {
    let named = found.paths.of(path);
    let artifact_location = if named.starts_with('/') {
        ArtifactLocation { uri: format!("file://{}", uri_path(&named)), uri_base_id: None }
    } else {
        ArtifactLocation { uri: uri_path(&named), uri_base_id: Some("%SRCROOT%") }
    };
    let region = line.filter(|l| *l > 0).map(|l| Region { start_line: l, start_column: col.filter(|c| *c > 0) });
    Location { physical_location: PhysicalLocation { artifact_location, region } }
}
