//! Lint inside `check` reports only readings that account for their whole
//! clause (issue 18, item 5): a sentence with a word lint has no form for
//! is unread in `lint --all` and never a problem of `check`, while the
//! same sentence without that word — what its partial reading says — is.
//! Data: the scenario's two sweeps, where baseline is no longer strictly
//! superior on throughput.

mod common;

use common::{copy_dir, fixtures, Sandbox};

#[test]
fn check_reports_no_reading_that_leaves_words_of_its_clause_out() {
    let sb = Sandbox::with_scenario();
    copy_dir(&fixtures().join("lint-scenario"), sb.path());
    let whole = "Baseline is strictly superior on throughput.";
    let partial = "No speculation is strictly superior on throughput, except at a single request.";
    sb.write("plan.md", format!("# Notes\n\n{whole}\n\n{partial}\n"));
    sb.ok(&["ingest"]);
    let all = sb.run(&["lint", "--all", "--no-ingest", "--format", "json", "plan.md"]).json();
    let of = |s: &str| -> Vec<serde_json::Value> {
        all["statements"].as_array().unwrap().iter().filter(|f| f["sentence"] == s).cloned().collect()
    };
    // Without the whole-clause rule the second would read as the first.
    let unread = of(partial);
    assert_eq!(unread.len(), 1, "{all:#}");
    assert_eq!(unread[0]["status"], "unjudged");
    let summary = unread[0]["summary"].as_str().unwrap();
    assert!(summary.starts_with("unread: lint does not understand `except`"), "{summary}");
    assert!(summary.contains("`baseline beats others on output_throughput"), "{summary}");
    assert_eq!(of(whole)[0]["status"], "contradicted");

    let check = sb.run(&["check", "--no-ingest", "plan.md"]);
    assert!(check.stdout.contains(&format!("lint: \"{whole}\" reads as `baseline beats others")), "{check:?}");
    assert!(!check.stdout.contains("except at a single request"), "{check:?}");
    let json = sb.run(&["check", "--no-ingest", "--format", "json", "plan.md"]).json();
    let text = json.to_string();
    assert!(text.contains(whole) && !text.contains("except at a single request\",\"status\":\"contradicted"), "{text}");
}
