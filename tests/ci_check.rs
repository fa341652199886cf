//! `reckon check` in CI (issue 23, item 4): bad input (exit 2) as
//! annotations and JSON entries with its place and message, problems most
//! serious first (GitHub shows ten error annotations per step), paths from
//! the repository's root whatever the folder, the job summary appended to
//! `$GITHUB_STEP_SUMMARY`, and SARIF 2.1.0 that validates against the OASIS
//! schema (tests/fixtures/sarif/).

mod common;

use std::path::Path;

use common::{Git, Ran, Sandbox};
use serde_json::Value;

/// A record cut short: the log is refused at line 1 and the check exits 2.
const BROKEN: &str = "{\"backend\": \"sglang\", \"output_throughput\": 12\n";

/// The bundled example under `bench/` of a git repository, with both sweeps
/// (three claims contradicted, regions stale) and one malformed log that a
/// `[[source]]` covers.
fn project() -> Sandbox {
    let s = Sandbox::example("bench", &["2026-11-20", "2026-11-29"]);
    s.write("bench/notebooks/logs/2026-11-29/broken.jsonl", BROKEN);
    Git::init(&s);
    s
}

/// Runs reckon in `dir` (relative to the sandbox), with `env` set.
fn run_in(s: &Sandbox, dir: &str, args: &[&str], env: &[(&str, &Path)]) -> Ran {
    let mut c = s.command(args);
    c.current_dir(s.path().join(dir));
    for (k, v) in env {
        c.env(k, v);
    }
    Ran::from(&c.output().unwrap())
}

#[test]
fn check_github_annotates_the_malformed_log_and_the_contradicted_claims_before_any_stale_region() {
    let s = project();
    // From the documents' own folder: paths are still the repository's.
    let r = run_in(&s, "bench/notebooks", &["check", "--format", "github"], &[]);
    assert_eq!(r.code, 2, "a log that does not read is bad input: {r:?}");
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert!(
        lines[0].starts_with("::error file=bench/notebooks/logs/2026-11-29/broken.jsonl,line=1,title=reckon::"),
        "{r:?}"
    );
    assert!(lines[0].contains("cut short"), "the annotation holds the error's message: {}", lines[0]);
    for line in &lines[1..4] {
        assert!(
            line.starts_with("::error file=bench/notebooks/eagle-fast-verify.md,") && line.contains("contradicted"),
            "the three contradicted claims come next:\n{}",
            r.stdout
        );
    }
    let stale = lines.iter().position(|l| l.contains(" is stale")).expect("stale regions are annotated too");
    assert_eq!(stale, 4, "{}", r.stdout);
    assert!(lines.iter().all(|l| !l.contains("file=/")), "no absolute path: {}", r.stdout);
    // The same order for a terminal.
    let human = run_in(&s, "bench/notebooks", &["check", "--no-ingest"], &[]);
    let problems: Vec<&str> = human.stdout.lines().filter(|l| l.contains(": error: ")).collect();
    assert!(problems[..3].iter().all(|l| l.contains("contradicted")), "{human:?}");
}

#[test]
fn check_json_names_each_error_with_its_place_and_message() {
    let s = project();
    let r = run_in(&s, "bench", &["check", "--format", "json"], &[]);
    assert_eq!(r.code, 2, "{r:?}");
    let v = r.json();
    assert_eq!(v["ok"], false);
    let errors = v["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{v:#}");
    assert_eq!(errors[0]["path"], "notebooks/logs/2026-11-29/broken.jsonl");
    assert_eq!(errors[0]["line"], 1);
    let message = errors[0]["message"].as_str().unwrap();
    assert!(message.contains("cut short") && !message.starts_with("notebooks/"), "{message}");

    // A directive that does not read: its line and column.
    s.write("bench/notebooks/bad.md", "x <!-- reckon:tabel -->\n");
    let r = run_in(&s, "bench", &["check", "--format", "json", "--no-ingest", "notebooks/bad.md"], &[]);
    assert_eq!(r.code, 2, "{r:?}");
    let e = &r.json()["errors"][0];
    assert_eq!(
        (e["path"].as_str(), e["line"].as_u64(), e["col"].as_u64()),
        (Some("notebooks/bad.md"), Some(1), Some(15))
    );
    assert!(e["message"].as_str().unwrap().starts_with("unknown directive `reckon:tabel`"), "{e}");
    let r = run_in(&s, "bench", &["check", "--format", "github", "--no-ingest", "notebooks/bad.md"], &[]);
    assert!(
        r.stdout.starts_with("::error file=bench/notebooks/bad.md,line=1,col=15,title=reckon::unknown directive"),
        "{r:?}"
    );
}

#[test]
fn a_reckon_toml_that_does_not_read_is_an_annotation_too() {
    let s = project();
    s.write("bench/reckon.toml", "series = \"config\"\n[[source]\npath = 1\n");
    let r = run_in(&s, "bench/notebooks", &["check", "--format", "github"], &[]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stdout.starts_with("::error file=bench/reckon.toml,line=2,col=10,title=reckon::unclosed"), "{r:?}");
    assert!(r.stderr.contains("reckon.toml"), "and said on stderr as before: {r:?}");
}

#[test]
fn check_appends_a_summary_of_every_documents_verdicts_to_the_github_step_summary() {
    let s = project();
    let file = s.path().join("summary.md");
    std::fs::write(&file, "earlier step\n").unwrap();
    let r = run_in(&s, "bench", &["check"], &[("GITHUB_STEP_SUMMARY", &file)]);
    assert_eq!(r.code, 2, "{r:?}");
    let summary = std::fs::read_to_string(&file).unwrap();
    assert!(summary.starts_with("earlier step\n## reckon check\n"), "appended, not overwritten:\n{summary}");
    assert!(summary.contains("1 error(s) in the input"), "{summary}");
    // Named from the repository's root, as the annotations are.
    let row = summary.lines().find(|l| l.starts_with("| bench/notebooks/eagle-fast-verify.md |")).unwrap();
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    // document, claims, holds, contradicted, …
    assert_eq!(cells[4], "3", "three contradicted claims: {row}");
    assert_eq!(summary.matches("**contradicted**").count(), 3, "{summary}");
    assert!(summary.contains("- bench/notebooks/logs/2026-11-29/broken.jsonl:1: column 45: "), "{summary}");
    // Twice: two summaries.
    run_in(&s, "bench", &["check", "--no-ingest"], &[("GITHUB_STEP_SUMMARY", &file)]);
    assert_eq!(std::fs::read_to_string(&file).unwrap().matches("## reckon check").count(), 2);
}

#[test]
fn check_sarif_validates_against_the_sarif_2_1_0_schema() {
    let s = project();
    let r = run_in(&s, "bench/notebooks", &["check", "--format", "sarif"], &[]);
    assert_eq!(r.code, 2, "{r:?}");
    let sarif = r.json();
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(common::fixtures().join("sarif/sarif-schema-2.1.0.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::options().should_validate_formats(true).build(&schema).unwrap();
    let problems: Vec<String> =
        validator.iter_errors(&sarif).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(problems.is_empty(), "{problems:#?}\n{sarif:#}");
    let toolless = serde_json::json!({"version": "2.1.0", "runs": [{"results": []}]});
    assert!(!validator.is_valid(&toolless), "the schema is enforced: a run needs its tool");

    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let rules: Vec<&str> = results.iter().map(|r| r["ruleId"].as_str().unwrap()).collect();
    assert_eq!(
        rules[..4],
        ["bad-input", "contradicted-claim", "contradicted-claim", "contradicted-claim"],
        "{rules:?}"
    );
    let at = &results[0]["locations"][0]["physicalLocation"];
    assert_eq!(at["artifactLocation"]["uri"], "bench/notebooks/logs/2026-11-29/broken.jsonl");
    assert_eq!(at["region"]["startLine"], 1);
    // Every result's rule is described, at the index it names.
    let described = sarif["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap();
    for r in results {
        assert_eq!(described[usize::try_from(r["ruleIndex"].as_u64().unwrap()).unwrap()]["id"], r["ruleId"], "{r}");
    }
    assert_eq!(sarif["runs"][0]["invocations"][0]["executionSuccessful"], false);

    // Nothing wrong: no result, and still valid.
    let s = Sandbox::example("", &["2026-11-20"]);
    let r = s.run(&["check", "--format", "sarif"]);
    assert_eq!(r.code, 0, "{r:?}");
    let clean = r.json();
    assert!(validator.is_valid(&clean), "{clean:#}");
    assert_eq!(clean["runs"][0]["results"], serde_json::json!([]));
}
