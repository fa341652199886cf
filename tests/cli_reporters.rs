//! `check` and `claims` print what they found through one reporter per
//! format; `--format github` gives workflow annotations for both (claims
//! used to fall back silently to the human format).

mod common;

use common::Sandbox;
use serde_json::Value;

const DOC: &str = "notebooks/eagle-fast-verify.md";

/// The annotation level a claim's verdict gets: what fails `check` is an
/// error, what holds (or was superseded) a notice, the rest a warning.
fn expected_level(claim: &Value) -> &'static str {
    match (claim["verdict"].as_str().unwrap(), claim["superseded"].is_null()) {
        ("contradicted", true) => "error",
        ("holds", _) | (_, false) => "notice",
        _ => "warning",
    }
}

#[test]
fn claims_as_github_annotations_one_per_claim_at_its_line() {
    let s = Sandbox::example("", &["2026-11-20", "2026-11-29"]);
    let json: Value = serde_json::from_str(&s.ok(&["claims", DOC, "--format", "json"]).stdout).unwrap();
    let claims: Vec<&Value> = json.as_array().unwrap().iter().map(|item| &item["claim"]).collect();
    assert!(claims.len() >= 5, "{json}");
    assert!(claims.iter().any(|c| c["verdict"] == "contradicted"), "the second sweep overturns a claim: {json}");

    let github = s.ok(&["claims", DOC, "--format", "github"]).stdout;
    let lines: Vec<&str> = github.lines().collect();
    assert_eq!(lines.len(), claims.len(), "one annotation per claim:\n{github}");
    for (line, claim) in lines.iter().zip(&claims) {
        let head = format!(
            "::{} file=notebooks/eagle-fast-verify.md,line={},title=reckon::claim `{}`",
            expected_level(claim),
            claim["line"],
            claim["id"].as_str().unwrap()
        );
        assert!(line.starts_with(&head), "{line}\nexpected to start with {head}");
        assert!(!line.contains('\r'), "messages are escaped: {line}");
    }
    let human = s.ok(&["claims", DOC]).stdout;
    assert_ne!(human, github, "github is not the human format");
    assert!(human.starts_with(&format!("{DOC}:")), "{human}");
}

#[test]
fn claim_history_as_github_annotations_names_the_newest_sweep() {
    let s = Sandbox::example("", &["2026-11-20", "2026-11-29"]);
    let github = s.ok(&["claims", "--history", DOC, "--format", "github"]).stdout;
    assert!(!github.is_empty());
    for line in github.lines() {
        assert!(line.starts_with("::"), "{github}");
        assert!(line.contains(" as of 2026-11-29: "), "the verdict as of the newest sweep: {line}");
    }
    // The overturned claim says which sweep overturned it.
    let overturned = github.lines().find(|l| l.contains("`topk4-plateau`")).unwrap();
    assert!(
        overturned.starts_with("::error ") && overturned.ends_with("(the 2026-11-29 sweep turned it from holds)"),
        "{overturned}"
    );
}

#[test]
fn check_as_github_annotations_matches_its_human_problems() {
    let s = Sandbox::example("", &["2026-11-20", "2026-11-29"]);
    let github = s.run(&["check", DOC, "--format", "github"]);
    let human = s.run(&["check", DOC, "--no-ingest"]);
    assert_eq!((human.code, github.code), (1, 1), "{human:?}\n{github:?}");
    // The human problems are the `path:line: level: message` lines.
    let problems: Vec<&str> = human.stdout.lines().filter(|l| l.starts_with(&format!("{DOC}:"))).collect();
    assert_eq!(github.stdout.lines().count(), problems.len(), "{github:?}\n{human:?}");
    for (annotation, problem) in github.stdout.lines().zip(&problems) {
        let mut parts = problem.splitn(4, ": ");
        let (at, level) = (parts.next().unwrap(), parts.next().unwrap());
        let line = at.rsplit(':').next().unwrap();
        assert!(
            annotation.starts_with(&format!("::{level} file=notebooks/eagle-fast-verify.md,line={line},")),
            "{annotation}"
        );
    }
}
